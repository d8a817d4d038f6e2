"""Conversions of §8.4 (ftof ftoi itof exti trunci bitcast) and pack/unpack (§8.3.17, §8.3.23).

Float targets (``ftof``, ``itof``) follow §5.1.3: the exact source value is rounded once in the
requested IEEE mode (all four are exact, ERRATA 8). IEEE and IEEE-like targets (f16 bf16 f32 tf32
f64) may overflow to ±inf and keep NaN. The low-precision targets saturate (*satfinite*):

=============  ======================  ============  ======================================
target         out-of-range / ±Inf     NaN           other
=============  ======================  ============  ======================================
f8E5M2         ±57344 (MAX_NORM)       NaN (0x7F)
f8E4M3FN       ±448 (MAX_NORM)         +448          (the spec: e4m3 has no NaN)
f4E2M1FN       ±6 (MAX_NORM)           +6            *choice*: no Inf/NaN encodings, so NaN is
                                                     treated like e4m3's
f8E8M0FNU      +2**127                 NaN (0xFF)    *choice*: unsigned scale format without
                                                     zero: ±0, negatives and -Inf give NaN,
                                                     positive values below 2**-127 give 2**-127
=============  ======================  ============  ======================================

f8E8M0FNU values are the powers of two ``2**-127 .. 2**127``; in ``nearest_even`` a value halfway
between ``2**k`` and ``2**(k+1)`` (``1.5 * 2**k``) rounds up (the even significand).
tf32 results are f32 storage with at most 10 explicit mantissa bits (canonical NaN 0x7FFFE000).
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._quiet import quiet
from .dtypes import (bitwidth, bits_dtype, decode, float_format, from_bits, from_integer, int_max,
                     int_min, to_bits, to_signed, to_unsigned)
from .eft import two_sum
from .rounding import NEAREST_EVEN, ZERO, NEGATIVE_INF, POSITIVE_INF, check_mode, round_to

__all__ = ["ftof", "ftoi", "itof", "exti", "trunci", "bitcast", "pack", "unpack"]

NEAREST_INT_TO_ZERO = "nearest_int_to_zero"


@quiet
def ftof(x: ArrayLike, src: str, dst: str, rounding: str = NEAREST_EVEN) -> NDArray:
    """Convert float elements of type ``src`` to ``dst``, rounding once in ``rounding``."""
    check_mode(rounding)
    fmt = float_format(dst)
    return round_to(decode(x, src), None, dst, rounding, saturate=fmt.saturating)


_INT_ROUNDING = {
    NEAREST_INT_TO_ZERO: np.trunc, ZERO: np.trunc, NEAREST_EVEN: np.rint,
    NEGATIVE_INF: np.floor, POSITIVE_INF: np.ceil,
}


@quiet
def ftoi(x: ArrayLike, src: str, dst: str, signed: bool,
         rounding: str = NEAREST_INT_TO_ZERO) -> NDArray:
    """Convert floats to integers of type ``dst`` read as ``signed`` or unsigned.

    The value is rounded to an integer (default ``nearest_int_to_zero``: truncation; the IEEE
    modes are also accepted), then saturated to the target range; NaN gives 0. ±Inf is
    undefined behaviour in the spec; *choice*: it saturates like any out-of-range value.
    """
    try:
        to_int = _INT_ROUNDING[rounding]
    except KeyError:
        raise ValueError(f"unsupported rounding mode {rounding!r} for ftoi") from None
    v = to_int(decode(x, src))
    lo, hi = int_min(dst, signed), int_max(dst, signed)
    nan = np.isnan(v)
    under = v < float(lo)
    over = v >= float(hi + 1)          # hi + 1 is a power of two: exact in f64
    safe = np.where(nan | under | over, 0.0, v)
    wtype = np.int64 if signed else np.uint64
    r = safe.astype(wtype)
    r = np.where(under, wtype(lo), np.where(over, wtype(hi), r))
    return from_integer(r.astype(wtype), dst)


@quiet
def itof(x: ArrayLike, src: str, dst: str, signed: bool,
         rounding: str = NEAREST_EVEN) -> NDArray:
    """Convert integers of type ``src`` (read as ``signed`` or unsigned) to floats of ``dst``.

    Rounded once in ``rounding`` (exact for i64 too: the value is split into two exact halves).
    Overflow follows §5.1.3 (±inf for IEEE-like targets, satfinite for f8/f4 targets; *choice*:
    §5.1.3 wins over the itof text's "NaN otherwise"). ``f8E8M0FNU`` is rejected, as NVIDIA's
    verifier does.
    """
    check_mode(rounding)
    if dst == "f8E8M0FNU":
        raise ValueError("integer to f8E8M0FNU conversion is not supported")
    fmt = float_format(dst)
    v = to_signed(x, src) if signed else to_unsigned(x, src)
    if bitwidth(src) <= 32:
        return round_to(v.astype(np.float64), None, dst, rounding, saturate=fmt.saturating)
    high = (v >> np.uint8(32)).astype(np.float64) * 2.0 ** 32 if not signed else \
        (v >> np.int64(32)).astype(np.float64) * 2.0 ** 32
    low = (v & v.dtype.type(0xFFFFFFFF)).astype(np.float64)
    hi, lo = two_sum(high, low)
    return round_to(hi, lo, dst, rounding, saturate=fmt.saturating)


@quiet
def exti(x: ArrayLike, src: str, dst: str, signed: bool) -> NDArray:
    """Sign- (``signed``) or zero-extend integers of type ``src`` to the wider ``dst``."""
    if not bitwidth(dst) > bitwidth(src):
        raise ValueError(f"exti: {dst} is not wider than {src}")
    return from_integer(to_signed(x, src) if signed else to_unsigned(x, src), dst)


@quiet
def trunci(x: ArrayLike, src: str, dst: str) -> NDArray:
    """Keep the low ``bitwidth(dst)`` bits of integers of type ``src`` (``dst`` narrower)."""
    if not bitwidth(dst) < bitwidth(src):
        raise ValueError(f"trunci: {dst} is not narrower than {src}")
    return from_integer(to_unsigned(x, src), dst)


@quiet
def bitcast(x: ArrayLike, src: str, dst: str) -> NDArray:
    """Reinterpret the bits of each element (``src`` and ``dst`` of equal width)."""
    if bitwidth(src) != bitwidth(dst):
        raise ValueError(f"bitcast: {src} and {dst} have different widths")
    return from_bits(to_bits(x, src), dst)


@quiet
def pack(x: ArrayLike, elem: str) -> NDArray[np.int8]:
    """Bytes of a rank-1 tile as a rank-1 ``i8`` tile (little-endian element bytes).

    4-bit types hold two elements per byte, the even-indexed element in the low nibble (needs an
    even count). *Choice*: ``i1`` takes one byte per element (0 or 1), its storage size.
    """
    bits = to_bits(x, elem).reshape(-1)
    if bitwidth(elem) == 4:
        if bits.size % 2:
            raise ValueError("pack: a 4-bit tile needs an even number of elements")
        out = bits[0::2] | (bits[1::2] << np.uint8(4))
    else:
        out = bits.astype(bits.dtype.newbyteorder("<")).view(np.uint8)
    return out.view(np.int8)


@quiet
def unpack(data: ArrayLike, elem: str) -> NDArray:
    """Inverse of :func:`pack`: reinterpret a rank-1 ``i8`` tile as a rank-1 tile of ``elem``.

    ``i1`` elements are canonicalised to their least significant bit.
    """
    u = np.ascontiguousarray(np.asarray(data, dtype=np.int8).reshape(-1)).view(np.uint8)
    if bitwidth(elem) == 4:
        bits = np.empty(2 * u.size, dtype=np.uint8)
        bits[0::2] = u & np.uint8(0xF)
        bits[1::2] = u >> np.uint8(4)
    else:
        ud = bits_dtype(elem)
        if u.size % ud.itemsize:
            raise ValueError(f"unpack: {u.size} bytes is not a whole number of {elem} elements")
        bits = u.view(ud.newbyteorder("<")).astype(ud)
    return from_bits(bits, elem)
