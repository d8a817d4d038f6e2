"""``affine.apply`` / ``affine.min`` / ``affine.max`` and ``affine.load`` / ``affine.store``: ``%r = affine.apply #map(%d0, ...)[%s0,
...]``, dimension operands in parentheses, symbol operands in brackets, every operand and the
result ``index``; ``apply`` takes a one-result map, ``min``/``max`` the least/greatest of the
map's results (at least one).  Text, generic form and messages as mlir-opt 22."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, Result
from ...ir.traits import Pure
from ..builtin.affine import AffineMapAttr
from ..builtin.types import MemRefType
from ..index.ops import INDEX, _index_type

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser

__all__ = ["ApplyOp", "MinOp", "MaxOp", "LoadOp", "StoreOp"]


class _MapOp(OpBase):
    """An op computing from an affine map of its ``index`` operands (dims, then symbols)."""

    __slots__ = ()
    DIALECT_NAME = "affine"
    OPERANDS = (Operand("mapOperands", INDEX, VARIADIC),)
    RESULTS = (Result("result", INDEX),)
    ATTRIBUTES = (Attr("map", "affine_map"),)
    TRAITS = (Pure,)

    @classmethod
    def parse_custom(cls, parser: "Parser", state: "OpState"):
        start = parser.offset
        off = parser.offset
        if parser.tok[:1] in ("%", ""):
            raise parser.error_prev_end("expected attribute value")
        attr = parser.parse_attribute()
        if not isinstance(attr, AffineMapAttr):
            raise parser.error("expected affine map", off)
        amap = attr.value
        dims = _operand_list(parser, "(", ")")
        symbols = _operand_list(parser, "[", "]") if parser.tok == "[" else []
        if len(dims) != amap.n_dims or len(symbols) != amap.n_symbols:
            raise parser.error(f"custom op '{state.spec.name}' dimension or symbol index "
                               "mismatch", state.start)
        names = getattr(state, "result_names", None)
        if cls.MNEMONIC == "apply" and len(amap.results) != 1:
            # (MLIR's parser gives apply one result per map result: the binding fails, or
            # without names its one-result trait)
            if names:
                raise parser.error(f"operation defines {len(amap.results)} results but was "
                                   f"provided {sum(n[1] for n in names)} to bind",
                                   names[0][2])
            raise parser.error("'affine.apply' op requires one result", state.start)
        state.attrs["map"] = attr
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        state.operands["mapOperands"] = dims + symbols
        state.set_types("mapOperands", "operand", [_index_type()] * len(dims + symbols), start)
        state.set_types("result", "result", [_index_type()], start)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        amap = op.attributes["map"]
        names = [printer.value_name(v) for v in op.operands]
        n = amap.value.n_dims
        text = f" {amap.generic()}(" + ", ".join(names[:n]) + ")"
        if amap.value.n_symbols:
            text += "[" + ", ".join(names[n:]) + "]"
        return text + printer.attr_dict_text(op, {"map"})

    def verify_op(self):
        amap = self.attributes["map"].value
        if len(self.operands) != amap.n_dims + amap.n_symbols:
            return "operand count and affine map dimension and symbol count must match"
        if self.MNEMONIC == "apply":
            if len(amap.results) != 1:
                return "mapping must produce one value"
            # (apply takes any operand, but not a dimension where a symbol goes)
            from ...ir.verify import op_error
            from .validity import affine_scope, is_valid_dim, is_valid_symbol
            region = affine_scope(self)
            for value in self.operands[amap.n_dims:]:
                if is_valid_dim(value, region) and not is_valid_symbol(value, region):
                    return op_error(self, "dimensional operand cannot be used as a symbol")
        elif not amap.results:
            return "affine map expect at least one result"
        return None


def _operand_list(parser: "Parser", open_: str, close: str) -> list:
    parser.expect(open_)
    uses = [] if parser.tok == close else parser.parse_comma_list(parser._parse_use, close)
    parser.expect(close)
    return uses


class ApplyOp(_MapOp):
    """``affine.apply``: the single result of the map."""

    __slots__ = ()
    MNEMONIC = "apply"


class MinOp(_MapOp):
    """``affine.min``: the least of the map's results."""

    __slots__ = ()
    MNEMONIC = "min"


class MaxOp(_MapOp):
    """``affine.max``: the greatest of the map's results."""

    __slots__ = ()
    MNEMONIC = "max"


# -- affine.load / affine.store -------------------------------------------------------------

def _memref_type(t) -> bool:
    return isinstance(t, MemRefType)


class _AccessOp(OpBase):
    """An access of ``memref[map(indices)]``: the subscripts are affine expressions of the
    ``index`` operands (``%m[%i, %j + 1, symbol(%n) * 2]``), kept as the ``map`` attribute."""

    __slots__ = ()
    DIALECT_NAME = "affine"
    ATTRIBUTES = (Attr("map", "affine_map"),)

    @staticmethod
    def parse_subscripts(parser: "Parser", state: "OpState", memref: tuple) -> None:
        """``[subscripts] attr-dict : memref-type`` after the memref use."""
        from ..builtin.affine import parse_affine_map_of_ssa_ids
        parser.expect("[")
        amap, dims, symbols = parse_affine_map_of_ssa_ids(parser, "]")
        parser.expect("]")
        state.attrs["map"] = AffineMapAttr(amap)
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        off = parser.offset
        mtype = parser.parse_type()
        if not _memref_type(mtype):
            raise parser.error("expected memref type", off)
        state.operands["memref"] = [memref]
        state.operands["indices"] = dims + symbols
        state.set_types("memref", "operand", [mtype], off)
        state.set_types("indices", "operand", [_index_type()] * len(dims + symbols), off)
        return mtype

    @staticmethod
    def subscripts_text(printer, op, memref, indices) -> str:
        from ..builtin.affine import affine_map_of_ssa_ids_text
        amap = op.attributes["map"].value
        names = [printer.value_name(v) for v in indices]
        body = affine_map_of_ssa_ids_text(amap, names[:amap.n_dims], names[amap.n_dims:])
        return (f"{printer.value_name(memref)}[{body}]" + printer.attr_dict_text(op, {"map"})
                + f" : {memref.type}")

    def check_map(self, memref, indices):
        amap = self.attributes["map"].value
        if len(amap.results) != len(memref.type.shape):
            return "affine map num results must equal memref rank"
        if len(indices) != amap.n_dims + amap.n_symbols:
            return "expects as many subscripts as affine map inputs"
        from .validity import dim_symbol_error
        return dim_symbol_error(self, indices, amap.n_dims)


class LoadOp(_AccessOp):
    """``%v = affine.load %m[%i, %j + 1] : memref<...>``."""

    __slots__ = ()
    MNEMONIC = "load"
    OPERANDS = (Operand("memref"), Operand("indices", INDEX, VARIADIC))
    RESULTS = (Result("result"),)

    @classmethod
    def parse_custom(cls, parser: "Parser", state: "OpState"):
        memref = parser._parse_use()
        mtype = cls.parse_subscripts(parser, state, memref)
        state.set_types("result", "result", [mtype.element_type], parser.offset)
        return state.build()

    @classmethod
    def print_custom(cls, printer, op):
        return " " + cls.subscripts_text(printer, op, op.operands[0], op.operands[1:])

    def verify_op(self):
        memref = self.operands[0]
        if not _memref_type(memref.type):
            return "operand #0 must be memref of any type values"
        if self.results[0].type != memref.type.element_type:
            return "result type must match element type of memref"
        return self.check_map(memref, self.operands[1:])


class StoreOp(_AccessOp):
    """``affine.store %v, %m[%i, %j + 1] : memref<...>``."""

    __slots__ = ()
    MNEMONIC = "store"
    OPERANDS = (Operand("value"), Operand("memref"), Operand("indices", INDEX, VARIADIC))

    @classmethod
    def parse_custom(cls, parser: "Parser", state: "OpState"):
        value = parser._parse_use()
        parser.expect(",")
        memref = parser._parse_use()
        mtype = cls.parse_subscripts(parser, state, memref)
        state.operands["value"] = [value]
        state.set_types("value", "operand", [mtype.element_type], parser.offset)
        return state.build()

    @classmethod
    def print_custom(cls, printer, op):
        return (f" {printer.value_name(op.operands[0])}, "
                + cls.subscripts_text(printer, op, op.operands[1], op.operands[2:]))

    def verify_op(self):
        memref = self.operands[1]
        if not _memref_type(memref.type):
            return "operand #1 must be memref of any type values"
        if self.operands[0].type != memref.type.element_type:
            return "value to store must have the same type as memref element type"
        return self.check_map(memref, self.operands[2:])
