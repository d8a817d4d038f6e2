"""index: 64-bit index arithmetic (``index`` is 64 bits wide on every target we run).

``index.cmp`` and ``index.casts``/``castu`` share arith's ``cmpi`` and ``index_cast`` lowerings."""

from __future__ import annotations

import numpy as np

from ....ir.core import Operation
from ..interp import affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from .arith import aff_add, aff_mul, aff_sub, int_binary

_ZERO = (0,) * ROOT_NDIM

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
