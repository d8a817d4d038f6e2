"""§8.4 Conversions: bitcast, exti, trunci, ftof, ftoi, itof and the pointer casts.

Float targets follow §5.1.3 and ERRATA 8 via :mod:`tileir.execute.numerics.convert` (all four
IEEE rounding modes exact; satfinite for f8 targets, e4m3 NaN -> +MAX_NORM); ``ftoi`` rounds
toward zero, saturates and maps NaN to 0; ``itof`` reads the source signed or unsigned.
Pointers are 64-bit addresses: ``ptr_to_int``/``int_to_ptr`` reinterpret the bits.
"""

from __future__ import annotations

import numpy as np

from .. import numerics as N
from ..plan import lowering
from . import fast
from ._common import (INT_BITS, elementwise, element_name, is_signed, nan_canonical,
                      rounding_keyword, storage_dtype)

_NATIVE_INTS = ("i8", "i16", "i32", "i64")
_SUBBYTE = ("i1", "i4", "f4E2M1FN")


@lowering("bitcast", fold=True)
def _lower_bitcast(op, cc):
    src_t, dst_t = op.operands[0].type, op.results[0].type
    src, dst = element_name(src_t), element_name(dst_t)
    if src == "ptr" or dst == "ptr":
        dt = storage_dtype(dst_t)
        return elementwise(op, cc, lambda a: a.view(dt))
    if src not in _SUBBYTE and dst not in _SUBBYTE:
        dt = storage_dtype(dst_t)
        return elementwise(op, cc, lambda a: a.view(dt))
    return elementwise(op, cc, lambda a: N.bitcast(a, src, dst))


@lowering("exti", fold=True)
def _lower_exti(op, cc):
    src = element_name(op.operands[0].type)
    dst = element_name(op.results[0].type)
    signed = is_signed(op)
    if src in _NATIVE_INTS and dst in _NATIVE_INTS:
        dt = np.dtype("int" + dst[1:])
        if signed:
            return elementwise(op, cc, lambda a: a.astype(dt))
        us, ud = np.dtype("uint" + src[1:]), np.dtype("uint" + dst[1:])
        return elementwise(op, cc, lambda a: a.view(us).astype(ud).view(dt))
    return elementwise(op, cc, lambda a: N.exti(a, src, dst, signed))


@lowering("trunci", fold=True)
def _lower_trunci(op, cc):
    src = element_name(op.operands[0].type)
    dst = element_name(op.results[0].type)
    if src in _NATIVE_INTS and dst in _NATIVE_INTS:
        dt = np.dtype("int" + dst[1:])
        return elementwise(op, cc, lambda a: a.astype(dt))
    return elementwise(op, cc, lambda a: N.trunci(a, src, dst))


@lowering("ftof", fold=True)
def _lower_ftof(op, cc):
    src = element_name(op.operands[0].type)
    dst = element_name(op.results[0].type)
    rounding = rounding_keyword(op)
    fn = fast.convert_float(src, dst, rounding, nan_canonical(op, cc))
    if fn is None:
        def fn(a):
            return N.ftof(a, src, dst, rounding)
    return elementwise(op, cc, fn)


@lowering("ftoi", fold=True)
def _lower_ftoi(op, cc):
    src = element_name(op.operands[0].type)
    dst = element_name(op.results[0].type)
    signed = is_signed(op)
    rounding = rounding_keyword(op, "nearest_int_to_zero")

    def general(a):
        return N.ftoi(a, src, dst, signed, rounding)
    return elementwise(op, cc, fast.float_to_int(src, dst, signed, rounding, general) or general)


@lowering("itof", fold=True)
def _lower_itof(op, cc):
    src = element_name(op.operands[0].type)
    dst = element_name(op.results[0].type)
    signed = is_signed(op)
    rounding = rounding_keyword(op)
    if rounding == "nearest_even" and dst in ("f32", "f64") and src in _NATIVE_INTS \
            and (signed or INT_BITS[src] <= 32):
        dt = np.dtype(np.float32 if dst == "f32" else np.float64)
        if signed:
            return elementwise(op, cc, lambda a: a.astype(dt))
        us = np.dtype("uint" + src[1:])
        return elementwise(op, cc, lambda a: a.view(us).astype(dt))
    return elementwise(op, cc, lambda a: N.itof(a, src, dst, signed, rounding))


@lowering("int_to_ptr", fold=True)
def _lower_int_to_ptr(op, cc):
    return elementwise(op, cc, lambda a: a.view(np.uint64))


@lowering("ptr_to_int", fold=True)
def _lower_ptr_to_int(op, cc):
    return elementwise(op, cc, lambda a: a.view(np.int64))


@lowering("ptr_to_ptr", fold=True)
def _lower_ptr_to_ptr(op, cc):
    return elementwise(op, cc, lambda a: a)
