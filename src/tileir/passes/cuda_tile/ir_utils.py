"""Small IR helpers shared by cuda_tile's patterns and passes: reading constants, building the
constant/select/xor ops the patterns need, and region surgery on ``if``."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ...dialects.cuda_tile.attributes import DenseElementsAttr
from ...ir.dtypes import numpy_dtype
from ...ir.core import Block, Operation, Region, Value
from ...dialects.cuda_tile.types import I1, IntegerType, TileType
from ..rewriter import Rewriter, defining_op

__all__ = ["constant_array", "constant_bool", "constant_int", "make_constant", "i1_like",
           "create_not", "create_select", "then_block", "else_block", "terminator",
           "leaves_parent", "replace_op_with_region", "erase_from"]

CONSTANT = "cuda_tile.constant"


def constant_array(value: Value) -> Optional[np.ndarray]:
    """The elements of ``value`` when a ``constant`` op defines it (shaped like its tile)."""
    op = defining_op(value, CONSTANT)
    if op is None:
        return None
    attr = op.attributes.get("value")
    if not isinstance(attr, DenseElementsAttr):
        return None
    t = op.results[0].type
    return np.broadcast_to(np.asarray(attr.array), t.shape)


def _single(value: Value, integer_width: Optional[int]) -> Optional[int]:
    """The one value of a splat (or one-element) integer constant, as an int."""
    op = defining_op(value, CONSTANT)
    if op is None:
        return None
    t = op.results[0].type
    el = getattr(t, "element", None)
    if not isinstance(el, IntegerType):
        return None
    if integer_width is not None and el.width != integer_width:
        return None
    attr = op.attributes.get("value")
    if not isinstance(attr, DenseElementsAttr) or not attr.is_splat or attr.array.size == 0:
        return None
    return int(np.asarray(attr.array).reshape(-1)[0])


def constant_bool(value: Value) -> Optional[bool]:
    """True/False for a splat i1 constant, else None (NVIDIA's getConstantBoolValue)."""
    v = _single(value, 1)
    return None if v is None else bool(v)


def constant_int(value: Value) -> Optional[int]:
    """The value of a splat integer constant (any width), else None."""
    return _single(value, None)


def i1_like(t: TileType) -> TileType:
    return TileType(t.shape, I1)


def make_constant(rw: Rewriter, before: Operation, t: TileType, values) -> Value:
    """Create ``constant`` of type ``t`` holding ``values`` (broadcast to its shape)."""
    arr = np.array(np.broadcast_to(np.asarray(values).astype(numpy_dtype(t.element.name)),
                                   t.shape))
    return rw.create(CONSTANT, before=before, result_type=t,
                     value=DenseElementsAttr(t, arr)).results[0]


def create_not(rw: Rewriter, before: Operation, cond: Value) -> Value:
    """``xori cond, true`` (NVIDIA's createXOrForValue)."""
    true = make_constant(rw, before, i1_like(cond.type), True)
    return rw.create("cuda_tile.xori", cond, true, before=before).results[0]


def create_select(rw: Rewriter, before: Operation, cond: Value, true_value: Value,
                  false_value: Value) -> Value:
    """``select`` on a scalar condition; for a shaped tile the condition is reshaped to rank
    ones and broadcast first (NVIDIA's createSelectOpByType)."""
    t = true_value.type
    if t.shape:
        ones = TileType((1,) * len(t.shape), I1)
        reshaped = rw.create("cuda_tile.reshape", cond, before=before, result_type=ones)
        cond = rw.create("cuda_tile.broadcast", reshaped.results[0], before=before,
                         result_type=i1_like(t)).results[0]
    return rw.create("cuda_tile.select", cond, true_value, false_value,
                     before=before).results[0]


def then_block(op: Operation) -> Block:
    return op.regions[0].blocks[0]


def else_block(op: Operation) -> Optional[Block]:
    region = op.regions[1] if len(op.regions) > 1 else None
    return region.blocks[0] if region is not None and region.blocks else None


def terminator(block: Optional[Block]) -> Optional[Operation]:
    return block.ops[-1] if block is not None and block.ops else None


def leaves_parent(op: Optional[Operation]) -> bool:
    """A ``return``/``continue``/``break``: nothing after the enclosing op runs."""
    return op is not None and op.name in ("cuda_tile.return", "cuda_tile.continue",
                                          "cuda_tile.break")


def erase_from(rw: Rewriter, start: Operation) -> None:
    """Erase ``start`` and every op after it in its block (last first)."""
    block = start.parent
    index = block.ops.index(start)
    for op in reversed(block.ops[index:]):
        rw.erase_op(op)


def replace_op_with_region(rw: Rewriter, op: Operation, region: Region) -> None:
    """Inline ``region``'s block before ``op``; a ``yield`` replaces ``op``'s results, a
    ``return``/``continue``/``break`` makes the rest of the block (``op`` on) unreachable."""
    block = region.blocks[0]
    term = block.ops[-1]
    rw.inline_block_before(block, op)
    if term.name == "cuda_tile.yield":
        values = list(term.operands)
        rw.erase_op(term)
        rw.replace_op(op, values)
        return
    erase_from(rw, op)


def new_if(rw: Rewriter, before: Operation, cond: Value, result_types: Sequence) -> Operation:
    """A fresh ``if`` with two empty regions."""
    return rw.create("cuda_tile.if", cond, before=before, result_types=list(result_types),
                     regions=2)
