"""arith: constants, integer and float arithmetic, comparisons, casts (IEEE per type).

Integer ops on :class:`~..lanes.Aff` operands stay affine while the result provably does not wrap
(``bid * bdim + tid``), so memory accesses built from them become strided views.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....ir.core import Operation
from ...numerics import floatops, intops
from ..interp import affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from ..values import numerics_name, storage, vector_shape

_ZERO = (0,) * ROOT_NDIM


@lowering("arith.constant")
def _constant(op: Operation, c):
    t = op.results[0].type
    attr = op.attributes["value"]
    dtype = storage(t)
    vshape = vector_shape(t)
    if hasattr(attr, "array") and callable(attr.array):
        value = np.asarray(attr.array(), dtype=dtype).reshape(vshape)
    else:
        value = np.asarray(attr.value).astype(dtype)
    integer = value.dtype.kind in "iu" and not vshape

    def step(ex, frame, args):
        space = frame.space
        if integer and isinstance(space, BoxSpace):
            return [Aff(int(value), _ZERO, dtype)]
        return [space.uniform(value, dtype, vshape)]
    return affine(step)


def _int_binary(name: str, fn, affine_fn=None):
    @lowering(name)
    def lower(op: Operation, c):
        elem = numerics_name(op.results[0].type)
        dtype = storage(op.results[0].type)

        def step(ex, frame, args):
            a, b = args
            space = frame.space
            if affine_fn is not None and (type(a) is Aff or type(b) is Aff) and \
                    isinstance(space, BoxSpace):
                r = affine_fn(a, b, space)
                if r is not None:
                    r = r.cast(dtype)
                    if r.fits(space):
                        return [r]
            a = space.array(a) if type(a) is Aff else a
            b = space.array(b) if type(b) is Aff else b
            return [np.asarray(fn(a, b, elem)).astype(dtype, copy=False)]
        return affine(step)
    return lower


def _const_of(x: Any, space) -> Any:
    if type(x) is Aff:
        return x.const if x.is_constant else None
    arr = np.asarray(x)
    return int(arr.reshape(-1)[0]) if arr.size == 1 else None


def _as_aff(x: Any, space) -> Any:
    if type(x) is Aff:
        return x
    k = _const_of(x, space)
    return None if k is None else Aff(k, _ZERO, np.int64)


def _aff_add(a, b, space):
    a, b = _as_aff(a, space), _as_aff(b, space)
    return None if a is None or b is None else a.plus(b)


def _aff_sub(a, b, space):
    a, b = _as_aff(a, space), _as_aff(b, space)
    return None if a is None or b is None else a.plus(b.times(-1))


def _aff_mul(a, b, space):
    ka, kb = _const_of(a, space), _const_of(b, space)
    if kb is not None and type(a) is Aff:
        return a.times(kb)
    if ka is not None and type(b) is Aff:
        return b.times(ka)
    if ka is not None and kb is not None:
        return Aff(ka * kb, _ZERO, np.int64)
    return None


_int_binary("arith.addi", intops.addi, _aff_add)
_int_binary("arith.subi", intops.subi, _aff_sub)
_int_binary("arith.muli", intops.muli, _aff_mul)


_CMPI = {0: "eq", 1: "ne", 2: "slt", 3: "sle", 4: "sgt", 5: "sge", 6: "ult", 7: "ule",
         8: "ugt", 9: "uge"}


def _cmpi_values(pred: str, a: np.ndarray, b: np.ndarray, elem: str) -> np.ndarray:
    if pred in ("eq", "ne"):
        return (a == b) if pred == "eq" else (a != b)
    if pred[0] == "u":
        bits = 64 if elem in ("i64", "index") else int(elem[1:])
        mask = (1 << bits) - 1 if bits < 64 else None
        ua = a.astype(np.int64).astype(np.uint64) if a.dtype != np.bool_ else a.astype(np.uint64)
        ub = b.astype(np.int64).astype(np.uint64) if b.dtype != np.bool_ else b.astype(np.uint64)
        if mask is not None:
            ua, ub = ua & np.uint64(mask), ub & np.uint64(mask)
        a, b = ua, ub
    op = pred[1:]
    return {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}[op](a, b)


@lowering("arith.cmpi")
def _cmpi(op: Operation, c):
    pred = _CMPI[int(op.attributes["predicate"].value)]
    elem = numerics_name(op.operands[0].type)

    def step(ex, frame, args):
        a, b = args
        space = frame.space
        if pred in ("slt", "sle", "sgt", "sge") and isinstance(space, BoxSpace) and \
                (type(a) is Aff or type(b) is Aff):
            decided = _decide(pred, a, b, space)
            if decided is not None:
                return [space.uniform(decided, np.bool_)]
        a = space.array(a) if type(a) is Aff else a
        b = space.array(b) if type(b) is Aff else b
        return [_cmpi_values(pred, a, b, elem)]
    return affine(step)


def _decide(pred: str, a, b, space) -> Any:
    """The comparison's outcome when it is the same for every lane (from the ranges)."""
    def rng(x):
        if type(x) is Aff:
            return x.value_range(space)
        k = _const_of(x, space)
        return None if k is None else (k, k)
    ra, rb = rng(a), rng(b)
    if ra is None or rb is None:
        return None
    (alo, ahi), (blo, bhi) = ra, rb
    if pred == "slt":
        return True if ahi < blo else False if alo >= bhi else None
    if pred == "sle":
        return True if ahi <= blo else False if alo > bhi else None
    if pred == "sgt":
        return True if alo > bhi else False if ahi <= blo else None
    return True if alo >= bhi else False if ahi < blo else None


def _float_binary(name: str, fn):
    @lowering(name)
    def lower(op: Operation, c):
        elem = numerics_name(op.results[0].type)

        def step(ex, frame, args):
            return [fn(args[0], args[1], elem)]
        return step
    return lower


_float_binary("arith.addf", floatops.addf)
_float_binary("arith.subf", floatops.subf)
_float_binary("arith.mulf", floatops.mulf)
_float_binary("arith.divf", floatops.divf)


@lowering("arith.index_cast", "arith.index_castui")
def _index_cast(op: Operation, c):
    dst_dtype = storage(op.results[0].type)
    unsigned = op.name.endswith("ui")

    def step(ex, frame, args):
        x = args[0]
        space = frame.space
        if type(x) is Aff:
            r = x.cast(dst_dtype)
            if isinstance(space, BoxSpace) and r.fits(space) and x.fits(space) and \
                    (not unsigned or x.value_range(space)[0] >= 0):
                return [r]
            x = space.array(x)
        x = np.asarray(x)
        if unsigned and x.dtype.kind == "i":
            x = x.view(x.dtype.str.replace("i", "u"))
        return [x.astype(dst_dtype)]
    return affine(step)

