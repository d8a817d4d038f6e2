"""index: 64-bit index arithmetic (``index`` is 64 bits wide on every target we run)."""

from __future__ import annotations

import numpy as np

from ....ir.core import Operation
from ..interp import affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from .arith import aff_add, aff_mul, aff_sub, decide_compare, int_binary, int_of
from .intsem import Int

_INDEX = Int(64, "index")
_ZERO = (0,) * ROOT_NDIM
_CMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")

int_binary(("index.add",), lambda s, op: s.add, aff_add)
int_binary(("index.sub",), lambda s, op: s.sub, aff_sub)
int_binary(("index.mul",), lambda s, op: s.mul, aff_mul)
int_binary(("index.divs",), lambda s, op: s.divs)
int_binary(("index.divu",), lambda s, op: s.divu)
int_binary(("index.ceildivs",), lambda s, op: (lambda a, b: s.divs(a, b, "ceil")))
int_binary(("index.ceildivu",), lambda s, op: (lambda a, b: s.divu(a, b, True)))
int_binary(("index.floordivs",), lambda s, op: (lambda a, b: s.divs(a, b, "floor")))
int_binary(("index.rems",), lambda s, op: s.rems)
int_binary(("index.remu",), lambda s, op: s.remu)
int_binary(("index.maxs",), lambda s, op: (lambda a, b: s.max(a, b, True)))
int_binary(("index.maxu",), lambda s, op: (lambda a, b: s.max(a, b, False)))
int_binary(("index.mins",), lambda s, op: (lambda a, b: s.min(a, b, True)))
int_binary(("index.minu",), lambda s, op: (lambda a, b: s.min(a, b, False)))
int_binary(("index.shl",), lambda s, op: s.shl)
int_binary(("index.shrs",), lambda s, op: s.shrs)
int_binary(("index.shru",), lambda s, op: s.shru)
int_binary(("index.and",), lambda s, op: s.andi)
int_binary(("index.or",), lambda s, op: s.ori)
int_binary(("index.xor",), lambda s, op: s.xori)


@lowering("index.constant", "index.bool.constant")
def _constant(op: Operation, c):
    boolean = op.name == "index.bool.constant"
    value = int(op.attributes["value"].value)

    def step(ex, frame, args):
        space = frame.space
        if boolean:
            return [space.uniform(bool(value), np.bool_)]
        if isinstance(space, BoxSpace):
            return [Aff(value, _ZERO, np.dtype(np.int64))]
        return [space.uniform(value, np.int64)]
    return affine(step)


@lowering("index.sizeof")
def _sizeof(op: Operation, c):
    def step(ex, frame, args):
        return [frame.space.uniform(8, np.int64)]
    return step


@lowering("index.cmp")
def _cmp(op: Operation, c):
    pred = _CMP[int(op.attributes["pred"].value)]

    def step(ex, frame, args):
        a, b = args
        space = frame.space
        if isinstance(space, BoxSpace) and (type(a) is Aff or type(b) is Aff):
            decided = decide_compare(pred, a, b, space)
            if decided is not None:
                return [space.uniform(decided, np.bool_)]
        a = space.array(a) if type(a) is Aff else a
        b = space.array(b) if type(b) is Aff else b
        return [_INDEX.compare(pred, a, b)]
    return affine(step)


@lowering("index.casts", "index.castu")
def _casts(op: Operation, c):
    src = int_of(op.operands[0].type)
    dst = int_of(op.results[0].type)
    unsigned = op.name.endswith("castu")

    def step(ex, frame, args):
        x = args[0]
        space = frame.space
        if type(x) is Aff:
            r = x.cast(dst.dtype)
            if isinstance(space, BoxSpace) and r.fits(space) and x.fits(space) and \
                    (not unsigned or x.value_range(space)[0] >= 0):
                return [r]
            x = space.array(x)
        if dst.bits > src.bits:
            v = src.u(x).astype(np.uint64).view(np.int64) if unsigned else \
                src.s(x).astype(np.int64)
            return [dst.wrap(v)]
        return [dst.wrap(src.s(x).astype(np.int64))]
    return affine(step)
