"""Id and size queries: ``gpu.thread_id x``, ``gpu.lane_id``, ``gpu.subgroup_size : index``...

Custom syntax (MLIR 22): ``gpu.thread_id  x [upper_bound N]`` (the dimension keyword printed
after two spaces), ``gpu.lane_id [upper_bound N]``, ``gpu.subgroup_id [upper_bound N] : index``.
"""

from __future__ import annotations

from ....ir.opdef import Attr, Result
from ..attributes import Dimension
from .base import INDEX, GpuOp, attr_dict, parse_attr_dict, parse_index_attr, parse_keyword_enum

_UPPER_BOUND = Attr("upper_bound", "index", optional=True)


def _parse_upper_bound(parser, state) -> None:
    if parser.tok == "upper_bound":
        parser.i += 1
        state.attrs["upper_bound"] = parse_index_attr(parser)


def _upper_bound_text(op) -> str:
    ub = op.attributes.get("upper_bound")
    return f" upper_bound {ub.value}" if ub is not None else ""


class DimensionOp(GpuOp):
    """An index along the x, y or z dimension (``%thread_id_x = gpu.thread_id  x``)."""

    __slots__ = ()
    ATTRIBUTES = (Attr("dimension", Dimension), _UPPER_BOUND)
    RESULTS = (Result("result"),)

    def asm_result_names(self):
        return [f"{self.SPEC.mnemonic}_{self.attributes['dimension'].keyword}"]

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["dimension"] = parse_keyword_enum(parser, Dimension)
        _parse_upper_bound(parser, state)
        parse_attr_dict(parser, state)
        state.result_types["result"] = [INDEX]

    @staticmethod
    def print_custom(printer, op):
        return (f"  {op.attributes['dimension'].keyword}{_upper_bound_text(op)}"
                + attr_dict(printer, op, ("dimension", "upper_bound")))


class ThreadIdOp(DimensionOp):
    MNEMONIC = "thread_id"


class BlockDimOp(DimensionOp):
    MNEMONIC = "block_dim"


class BlockIdOp(DimensionOp):
    MNEMONIC = "block_id"


class GridDimOp(DimensionOp):
    MNEMONIC = "grid_dim"


class GlobalIdOp(DimensionOp):
    MNEMONIC = "global_id"


class ClusterIdOp(DimensionOp):
    MNEMONIC = "cluster_id"


class ClusterDimOp(DimensionOp):
    MNEMONIC = "cluster_dim"


class ClusterBlockIdOp(DimensionOp):
    MNEMONIC = "cluster_block_id"


class ClusterDimBlocksOp(DimensionOp):
    MNEMONIC = "cluster_dim_blocks"


class LaneIdOp(GpuOp):
    """``gpu.lane_id [upper_bound N]``."""

    __slots__ = ()
    MNEMONIC = "lane_id"
    ATTRIBUTES = (_UPPER_BOUND,)
    RESULTS = (Result("result"),)

    @staticmethod
    def parse_custom(parser, state):
        _parse_upper_bound(parser, state)
        parse_attr_dict(parser, state)
        state.result_types["result"] = [INDEX]

    @staticmethod
    def print_custom(printer, op):
        return _upper_bound_text(op) + attr_dict(printer, op, ("upper_bound",))


class _TypedIndexOp(GpuOp):
    """``gpu.subgroup_id [upper_bound N] : index`` and its siblings."""

    __slots__ = ()
    ATTRIBUTES = (_UPPER_BOUND,)
    RESULTS = (Result("result"),)

    @staticmethod
    def parse_custom(parser, state):
        _parse_upper_bound(parser, state)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("result", "result", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        return (_upper_bound_text(op) + attr_dict(printer, op, ("upper_bound",))
                + f" : {op.results[0].type}")

    def verify_op(self):
        if self.results[0].type is not INDEX:
            return f"result #0 must be index, but got '{self.results[0].type}'"
        return None


class SubgroupIdOp(_TypedIndexOp):
    MNEMONIC = "subgroup_id"


class NumSubgroupsOp(_TypedIndexOp):
    MNEMONIC = "num_subgroups"


class SubgroupSizeOp(_TypedIndexOp):
    MNEMONIC = "subgroup_size"
