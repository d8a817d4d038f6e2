"""Native NumPy fast paths for the most common op configurations.

Each function here computes *exactly* what the corresponding :mod:`tileir.execute.numerics`
function computes (tests/execute/test_exec_fastpaths.py checks them bit for bit on edge values
and random bit patterns) but avoids its generality where NumPy's own arithmetic is already
IEEE-754 correct:

* f32/f64 ``+ - * /`` and ``sqrt`` in nearest_even are single correctly rounded operations in
  NumPy;
* f16/bf16 ``+ - * /`` computed in f32 and rounded once to the narrow type are correctly rounded
  (double rounding is innocuous when the wide precision p' >= 2p + 2: 24 >= 2*11 + 2);
* every NaN result is replaced by the type's canonical NaN, as numerics does (a GPU produces the
  canonical NaN for arithmetic);
* maxf/minf use fmax/maximum plus a fix-up of the (+0, -0) pairs.
"""

from __future__ import annotations

import math
import threading
from typing import Callable, Optional

import ml_dtypes
import numpy as np

from ..buffers import MIN_BYTES, fresh, recycle, scratch
from ..numerics import native

__all__ = ["canon_nan", "compact", "on_compact", "nan_finisher", "float_binary",
           "native_ufunc", "float_sqrt", "float_maxmin", "float_cmp",
           "float_maxmin_rows", "sign_op", "rounding_op", "widen_float", "narrow_float",
           "float_to_int", "NATIVE_FLOATS"]

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
BF16 = np.dtype(ml_dtypes.bfloat16)
NATIVE_FLOATS = {"f32": F32, "f64": F64}
NARROW_FLOATS = {"f16": F16, "bf16": BF16}
_BITS = {F16: (np.dtype(np.uint16), 0x7FFF, 0x8000), BF16: (np.dtype(np.uint16), 0x7FFF, 0x8000),
         F32: (np.dtype(np.uint32), 0x7FFFFFFF, 0x80000000),
         F64: (np.dtype(np.uint64), 0x7FFFFFFFFFFFFFFF, 0x8000000000000000)}


def _as_computed(r: np.ndarray) -> np.ndarray:
    """A result whose NaN bits nothing observes, left as NumPy computed it (see
    :mod:`tileir.execute.nan_payload`)."""
    return r


def nan_finisher(canonical: bool):
    """:func:`canon_nan` where a result's NaN bits may be observed, else the identity."""
    return canon_nan if canonical else _as_computed


def canon_nan(r: np.ndarray) -> np.ndarray:
    """Replace every NaN of the float array ``r`` by the canonical NaN (in place if possible)."""
    if r.dtype in _MAX_CHECKED and r.size and not np.isnan(np.maximum.reduce(r, axis=None)):
        return r                    # the maximum propagates NaN: one pass, no mask array
    m = np.isnan(r)
    if m.any():
        if not r.flags.writeable:
            r = r.copy()
        u, nan, _ = _BITS[r.dtype]
        r.view(u)[m] = nan
    return r


#: float dtypes whose NaN test is a maximum reduction (faster than isnan + any)
_MAX_CHECKED = (F32, F64)

_UFUNCS = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide}


def native_ufunc(name: str, elem: str):
    """The NumPy ufunc that is ``addf``/``subf``/``mulf``/``divf`` in nearest-even on f32/f64
    (before NaN canonicalisation), or None for other types."""
    return _UFUNCS[name] if elem in NATIVE_FLOATS else None


def float_binary(name: str, elem: str, canonical: bool = True):
    """Nearest-even ``addf``/``subf``/``mulf``/``divf`` without flush_to_zero, or None.
    ``canonical=False``: NaN results stay as NumPy computed them (nothing observes them)."""
    uf = _UFUNCS[name]
    finish = nan_finisher(canonical)
    if elem in NATIVE_FLOATS:
        dt = NATIVE_FLOATS[elem]

        def binary(a, b):
            if a.nbytes < MIN_BYTES and b.nbytes < MIN_BYTES:
                return finish(uf(a, b))
            shape = a.shape if a.shape == b.shape else np.broadcast_shapes(a.shape, b.shape)
            out = fresh(shape, dt)
            if canonical and native.binary_canonical(uf, a, b, out):
                return out                  # (one C pass: the operation and its NaNs)
            return finish(uf(a, b, out=out))
        binary.ufunc = uf       # (what it applies before canonicalising NaN: see core.reduce)
        return binary
    if elem in NARROW_FLOATS:
        dt = NARROW_FLOATS[elem]

        def narrow(a, b):
            return finish(uf(a.astype(F32), b.astype(F32)).astype(dt))
        return narrow
    return None


def float_sqrt(elem: str, canonical: bool = True):
    finish = nan_finisher(canonical)
    if elem in NATIVE_FLOATS:
        return lambda a: finish(np.sqrt(a))
    if elem in NARROW_FLOATS:
        dt = NARROW_FLOATS[elem]
        return lambda a: finish(np.sqrt(a.astype(F32)).astype(dt))
    return None


def float_maxmin(want_max: bool, propagate_nan: bool, elem: str):
    """maxf/minf for f32/f64 without flush_to_zero, or None."""
    if elem not in NATIVE_FLOATS:
        return None
    dt = NATIVE_FLOATS[elem]
    u, _, _ = _BITS[dt]
    if propagate_nan:
        uf = np.maximum if want_max else np.minimum
    else:
        uf = np.fmax if want_max else np.fmin
    combine = np.bitwise_and if want_max else np.bitwise_or

    def run(a, b):
        r = uf(a, b)
        if not propagate_nan and r.size and np.isnan(np.maximum.reduce(r, axis=None)):
            # fmax/fmin (C's, IEEE 754-2008 maxNum) give NaN for a signaling NaN operand;
            # maximumNumber gives the other operand: NaN only where both are NaN
            a_, b_ = np.broadcast_arrays(a, b)
            fix = np.isnan(r) & ~(np.isnan(a_) & np.isnan(b_))
            if fix.any():
                if not r.flags.writeable:
                    r = r.copy()
                r[fix] = np.where(np.isnan(a_[fix]), b_[fix], a_[fix])
        z = r == 0
        if z.any():
            a_, b_ = np.broadcast_arrays(a, b)
            zz = z & (a_ == 0) & (b_ == 0)
            if zz.any():
                r.view(u)[zz] = combine(a_.view(u)[zz], b_.view(u)[zz])
        return canon_nan(r)
    return run


def float_maxmin_rows(want_max: bool, propagate_nan: bool, elem: str):
    """``fn(rows) -> row results``: maxf/minf over axis 1 of a 2-D f16/bf16/f32/f64 array (at
    least two columns), with the bits of any order of pairwise :func:`float_maxmin` steps:
    the value is the maximum (minimum) whatever the order, ``+0 > -0``, and a NaN result is the
    canonical NaN (any NaN with ``propagate_nan``, all NaN without).  None for other types."""
    dt = _DT.get(elem)
    if dt is None:
        return None
    uf = np.maximum if want_max else np.minimum
    # (NumPy's fmax/fmin reduce rows ~1.4x faster than maximum/minimum; they agree where no
    # NaN is present, which one whole-array maximum reduction tells: NaN propagates)
    no_nan_uf = np.fmax if want_max else np.fmin
    ignored = -np.inf if want_max else np.inf       # what a NaN counts as without propagation
    zeros = (0.0, -0.0) if want_max else (-0.0, 0.0)    # (the preferred zero, the other)
    wide = dt in (F16, BF16)

    def run(rows):
        x = rows.astype(F32) if wide else rows        # (exact; the result is one element)
        if x.size and not np.isnan(np.maximum.reduce(x, axis=None)):
            r = no_nan_uf.reduce(x, axis=1)
        else:
            r = uf.reduce(x, axis=1)                  # (NaN propagates)
        if not propagate_nan:
            nan = np.isnan(r)
            if nan.any():        # (NumPy's fmax.reduce is not reliable past a NaN: measured)
                r[nan] = uf.reduce(np.where(np.isnan(x[nan]), ignored, x[nan]), axis=1)
                r[nan & np.isnan(x).all(axis=1)] = np.nan
        zero = r == 0
        if zero.any():
            z = x[zero]
            # the zero with the preferred sign wins if present: +0 for max, -0 for min
            preferred = (z == 0) & (np.signbit(z) != want_max)
            r[zero] = np.where(preferred.any(axis=1), zeros[0], zeros[1])
        if wide:
            r = r.astype(dt)
        return canon_nan(r)
    return run


_CMP = {"equal": np.equal, "not_equal": np.not_equal, "less_than": np.less,
        "less_than_or_equal": np.less_equal, "greater_than": np.greater,
        "greater_than_or_equal": np.greater_equal}


def float_cmp(predicate: str, ordered: bool, elem: str):
    """cmpf on f32/f64 (NumPy comparisons are false on NaN except ``!=``), or None."""
    if elem not in NATIVE_FLOATS:
        return None
    uf = _CMP[predicate]
    if ordered and predicate == "not_equal":
        return lambda a, b: (a != b) & ~np.isnan(a) & ~np.isnan(b)
    if ordered:
        return uf
    if predicate == "not_equal":
        return uf
    return lambda a, b: uf(a, b) | np.isnan(a) | np.isnan(b)


def compact(a: np.ndarray) -> np.ndarray:
    """The smallest array that broadcasts to ``a``: every axis of stride 0 (a broadcast
    view's repeated axis) cut to extent 1 (``a`` itself when it has none)."""
    if not a.ndim or 0 not in a.strides:
        return a
    return a[tuple(slice(0, 1) if st == 0 and n > 1 else slice(None)
                   for st, n in zip(a.strides, a.shape))]


def on_compact(fn: Callable) -> Callable:
    """An elementwise unary ``fn`` that, given a broadcast view (a tile made by
    ``broadcast``), computes each distinct element once and broadcasts the result (a
    read-only view, as ``broadcast``'s own results are): the same values, for a fraction of
    the work."""
    def run(a):
        if type(a) is np.ndarray and a.ndim and 0 in a.strides:
            small = compact(a)
            if 2 * small.size <= a.size:
                return np.broadcast_to(fn(small), a.shape)
        return fn(a)
    return run


def sign_op(negate: bool, elem: str):
    """negf (flip the sign bit) / absf (clear it) on f16/bf16/f32/f64 storage."""
    dt = {"f16": F16, "bf16": BF16, "f32": F32, "f64": F64}.get(elem)
    if dt is None:
        return None
    u, _, sign = _BITS[dt]
    s = u.type(sign)
    if negate:
        return on_compact(lambda a: (a.view(u) ^ s).view(dt))
    mask = u.type(~sign & ((1 << (8 * u.itemsize)) - 1))
    return on_compact(lambda a: (a.view(u) & mask).view(dt))


def rounding_op(fn, elem: str, canonical: bool = True):
    """ceil/floor on f32/f64 (exact) with canonical NaN (``canonical=False``: as computed)."""
    if elem not in NATIVE_FLOATS:
        return None
    finish = nan_finisher(canonical)
    return lambda a: finish(fn(a))


_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
_DT = {"f16": F16, "bf16": BF16, "f32": F32, "f64": F64}


def widen_float(src: str, dst: str, canonical: bool = True):
    """Exact widening conversions between f16/bf16/f32/f64 (NaN canonicalised unless
    ``canonical`` is False), or None."""
    if src not in _DT or dst not in _DT or _WIDTH[dst] <= _WIDTH[src]:
        return None
    finish = nan_finisher(canonical)
    if src in ("f16", "bf16") and dst == "f64":
        dt = _DT[dst]
        return lambda a: finish(a.astype(F32).astype(dt))
    dt = _DT[dst]
    if (src, dst) == ("f16", "f32"):
        def widen_f16(a):
            out = fresh(a.shape, F32)
            if native.f16_to_f32(a, out):  # (one vectorised C pass; NumPy's cast is scalar)
                return finish(out)
            recycle(out)
            return finish(a.astype(F32))
        return widen_f16
    return lambda a: finish(a.astype(dt))


def narrow_float(src: str, dst: str, rounding: str):
    """Correctly rounded nearest-even narrowing f32->f16, f32->bf16, f64->f32, or None."""
    if rounding != "nearest_even":
        return None
    if (src, dst) in (("f32", "f16"), ("f32", "bf16"), ("f64", "f32")):
        dt = _DT[dst]
        return lambda a: canon_nan(a.astype(dt))
    return None


# -- conversions by bit manipulation -------------------------------------------------------------

_U32 = np.dtype(np.uint32)
_F32_EXP_MASK = np.uint32(0x7F800000)
_F32_MAG_MASK = np.uint32(0x7FFFFFFF)


def _round_low_bits(bits: np.ndarray, drop: int, rounding: str) -> np.ndarray:
    """Round the f32 bit patterns ``bits`` (uint32) to ``23 - drop`` mantissa bits in
    ``rounding``, returning uint32 patterns whose ``drop`` low bits are zero.

    The magnitude's bit pattern is monotonic in the value, and the exponent field sits above
    the mantissa, so adding to the pattern carries into the exponent exactly when rounding
    crosses a binade (up to the all-ones exponent: infinity).  Infinities have zero low bits
    and are unchanged; NaNs must be replaced by the caller."""
    mask = np.uint32((1 << drop) - 1)
    step = np.uint32(1 << drop)
    if rounding in ("nearest_even", "nearest_away", "zero"):
        # finite magnitudes never carry into the sign bit (0x7F7FFFFF + step < 0x80000000)
        if rounding == "nearest_even":
            out = np.right_shift(bits, np.uint32(drop), out=scratch(bits.shape, _U32))
            out &= np.uint32(1)
            out += np.uint32((1 << (drop - 1)) - 1)
            out += bits
        elif rounding == "nearest_away":
            out = bits + np.uint32(1 << (drop - 1))
        else:
            out = bits.copy()
        out &= ~mask
        return out
    sign = bits & np.uint32(0x80000000)
    mag = bits & _F32_MAG_MASK
    out = mag & ~mask
    away = (sign == 0) if rounding == "positive_inf" else (sign != 0)
    out += (((mag & mask) != 0) & away).astype(_U32) * step
    return out | sign


#: f32 bit patterns (magnitudes) of the f16 range limits: the smallest normal f16, 2**-14,
#: and 65520, the midpoint above the largest finite f16 (it and all above round to inf)
_F16_MIN_NORMAL = np.uint32(0x38800000)
_F16_OVERFLOW = np.uint32(0x477FF000)
_F32_INF = np.uint32(0x7F800000)


def f32_to_f16_nearest_even(a: np.ndarray) -> np.ndarray:
    """f32 -> f16 in nearest_even by bit arithmetic (NumPy's cast is correctly rounded but
    3x slower, 10x on subnormal results); NaN gives the canonical f16 NaN ``0x7FFF``.

    Normal results: the magnitude's pattern rounded to 10 mantissa bits and re-biased (a
    carry out of the mantissa bumps the exponent, as it should; 65520 and above clamp to
    infinity); subnormal results (magnitudes below 2**-14): ``0.5 + |x|`` in f32 rounds
    ``|x|`` to a multiple of 2**-24 (the ulp of 0.5), ties to even, and the sum's pattern less
    0.5's is the f16 pattern (1024, 2**-14 itself, when it rounds up to the smallest
    normal).  The two are blended by bit masks: a select with a mask that varies from element
    to element (``np.where``) costs ~5 ns an element, 25x these integer passes."""
    x = np.ascontiguousarray(a, dtype=F32)
    if x.size == 0:
        return np.empty(np.shape(a), F16)
    half = scratch(x.shape, F16)
    if native.f32_to_f16(x, half):          # (one C pass where a compiler is at hand)
        return half
    recycle(half)
    bits = x.view(_U32)
    # (the work arrays come from the buffer pool and go back to it: fresh pages would cost
    # more than these passes)
    mag = np.bitwise_and(bits, _F32_MAG_MASK, out=scratch(bits.shape, _U32))
    out = np.right_shift(mag, np.uint32(13), out=scratch(bits.shape, _U32))
    out &= np.uint32(1)
    out += np.uint32(0xFFF)
    out += mag
    out >>= np.uint32(13)
    lo, hi = np.minimum.reduce(mag, axis=None), np.maximum.reduce(mag, axis=None)
    if hi >= _F16_OVERFLOW:
        np.minimum(out, np.uint32(0x7C00 + ((127 - 15) << 10)), out=out)
    out -= np.uint32((127 - 15) << 10)      # (wraps below 2**-14: replaced next)
    if lo < _F16_MIN_NORMAL:
        sub = scratch(bits.shape, F32)
        np.add(mag.view(F32), np.float32(0.5), out=sub)
        sub.view(_U32)[...] -= np.uint32(0x3F000000)
        _blend(out, sub.view(_U32), mag, _F16_MIN_NORMAL)
        recycle(sub)
    nan = mag > _F32_INF if hi > _F32_INF else None
    sign = np.right_shift(bits, np.uint32(16), out=mag)     # (mag's last use was above)
    del mag
    sign &= np.uint32(0x8000)
    out |= sign
    recycle(sign)
    if nan is not None:
        out[nan] = np.uint32(0x7FFF)
    half = scratch(out.shape, F16)
    np.copyto(half.view(np.uint16), out, casting="unsafe")
    recycle(out)
    return half if half.shape == np.shape(a) else half.reshape(np.shape(a))


#: 2**-14 (the smallest f16 normal), what makes an exponent field
#: ``e`` into ``1.5 * 2**(e + 13)`` (the f16 mantissa's last place is 2**13 ulps of f32), and
#: 65520, the midpoint above 65504 (it and all above round to inf)
_F16_MIN_NORMAL_F32 = np.float32(2.0 ** -14)
_PLUS_13_HALF = np.uint32((13 << 23) | 0x400000)
_F16_LIMIT = np.float32(65520.0)
_F16_LIMIT_BITS = np.uint32(0x477FF000)
#: elements per chunk of :func:`f32_rounded_to_f16`: its work arrays stay in the L2 cache
#: (measured on 2^18 elements: 3x faster than whole-array passes, which spill to memory)
_ROUND_CHUNK = 1 << 15


def f32_rounded_to_f16(a: np.ndarray) -> np.ndarray:
    """The f32 values of ``a`` rounded to f16 in nearest_even and returned as f32: for every
    non-NaN ``x`` the bits of ``f32(f32_to_f16_nearest_even(x))``, in one float rounding
    instead of a conversion there and back (an ``mmaf``'s f16 operand computed in f32 and
    multiplied in f32 in the fast mode); NaN gives a NaN.

    ``(x + c) - c`` with ``c = 1.5 * 2**(e + 13)``, ``e`` the exponent of ``x`` clamped below
    at -14, rounds ``x`` to a multiple of ``ulp(c) = 2**(e - 10)`` in the FPU's nearest_even:
    ``|x| < 2**(e + 1)``, so ``c + x`` stays in ``c``'s binade whatever the sign of ``x``, and
    ``c`` is an even multiple of that ulp, so the sum's rounding is ``x``'s (ties go to the
    even f16 value); the subtraction is exact.  The clamp gives the f16 subnormals' spacing
    2**-24 below 2**-14.  A zero result is ``+0``: where some input has its sign bit set,
    ``copysign`` puts back the sign of ``x`` (``-0`` and negative values that round to zero
    keep it; elsewhere the sign is already right).  Magnitudes from 65520 on round to
    infinity, NaN stays NaN (fixed where present).  One maximum of the bit patterns tells
    whether any of these fixes is needed (every pattern below 65520's: no sign bit, nothing
    large, no NaN: attention's probabilities); the passes run in cache-sized chunks."""
    x = np.ascontiguousarray(a, dtype=F32)
    if x.size == 0:
        return np.empty(np.shape(a), F32)
    out = scratch(x.shape, F32)
    if native.round_f32_to_f16_values(x, out):     # (one C pass where a compiler is at hand)
        return out
    recycle(out)
    flat = x.reshape(-1)
    bits = flat.view(_U32)
    plain = np.maximum.reduce(bits) < _F16_LIMIT_BITS
    out = scratch(flat.shape, F32)
    c = np.empty(min(_ROUND_CHUNK, flat.size), _U32)
    cf = c.view(F32)
    for i in range(0, flat.size, _ROUND_CHUNK):
        j = min(flat.size, i + _ROUND_CHUNK)
        ci, cfi, oi, xi = c[:j - i], cf[:j - i], out[i:j], flat[i:j]
        np.bitwise_and(bits[i:j], _F32_EXP_MASK, out=ci)
        np.maximum(cfi, _F16_MIN_NORMAL_F32, out=cfi)     # (a power of two or 0: no NaN)
        ci += _PLUS_13_HALF
        np.add(xi, cfi, out=oi)
        oi -= cfi
        if not plain:
            np.copysign(oi, xi, out=oi)
    if not plain:
        hi, lo = np.maximum.reduce(flat), np.minimum.reduce(flat)
        if not (-_F16_LIMIT < lo and hi < _F16_LIMIT):      # (also true for a NaN anywhere)
            big = np.abs(flat) >= _F16_LIMIT
            out[big] = np.copysign(np.float32(np.inf), flat[big])
            out[np.isnan(flat)] = np.float32(np.nan)
    return out.reshape(np.shape(a))


def _blend(out: np.ndarray, other: np.ndarray, mag: np.ndarray, limit: np.uint32) -> None:
    """``out[mag < limit] = other[mag < limit]`` for uint32 arrays with ``mag < 2**31``, by
    bit masks (``(mag - limit) >> 31`` is 1 exactly there); ``other`` is overwritten."""
    mask = np.subtract(mag, limit, out=scratch(mag.shape, _U32))
    mask >>= np.uint32(31)
    np.negative(mask, out=mask)
    other ^= out
    other &= mask
    out ^= other
    recycle(mask)


def f32_to_tf32(rounding: str):
    """f32 -> tf32 (f32 storage with 10 mantissa bits) in any rounding mode, by bit arithmetic;
    NaN gives the canonical tf32 NaN ``0x7FFFE000``."""
    def convert(a):
        x = a if a.dtype == F32 else np.asarray(a, dtype=F32)
        if rounding == "nearest_even":      # (one pass in C where a compiler is at hand)
            out = scratch(x.shape, _U32)
            if native.round_to_tf32(x, out):
                return out.view(F32)
            recycle(out)
        out = _round_low_bits(x.view(_U32), 13, rounding)
        if x.size and np.isnan(np.maximum.reduce(x, axis=None)):    # (one pass: no mask)
            out[np.isnan(x)] = np.uint32(0x7FFFE000)
        return out.view(F32)
    return convert


def f32_to_bf16(rounding: str):
    """f32 -> bf16 in any rounding mode, by bit arithmetic (canonical NaN ``0x7FFF``)."""
    def convert(a):
        bits = np.ascontiguousarray(a, dtype=F32).view(_U32)
        out = (_round_low_bits(bits, 16, rounding) >> np.uint32(16)).astype(np.uint16)
        nan = np.isnan(a)
        if nan.any():
            out[nan] = np.uint16(0x7FFF)
        return out.view(BF16)
    return convert


def _directed_cast(dt: np.dtype, rounding: str):
    """A correctly rounded NumPy cast to ``dt`` (nearest even) moved one step towards the
    rounding direction wherever it landed on the wrong side of the exact source value."""
    inf = dt.type(np.inf)

    def convert(a):
        r = a.astype(dt)
        back = r.astype(a.dtype)
        if rounding == "zero":
            wrong = np.abs(back) > np.abs(a)
            target = np.zeros((), dt)
        elif rounding == "positive_inf":
            wrong = back < a
            target = inf
        else:
            wrong = back > a
            target = -inf
        if wrong.any():
            r[wrong] = np.nextafter(r[wrong], target)
        return canon_nan(r)
    return convert


_F8 = {"f8E4M3FN": (np.dtype(ml_dtypes.float8_e4m3fn), 448.0, 0x7E),
       "f8E5M2": (np.dtype(ml_dtypes.float8_e5m2), 57344.0, 0x7F)}


def _to_f8(dst: str, rounding: str):
    """*satfinite* conversion to f8E4M3FN / f8E5M2 in an IEEE rounding mode: values beyond the
    largest finite value (and infinities) are clamped to it -- every mode then gives that
    value, as satfinite requires -- and ml_dtypes' nearest-even cast is moved one step (an
    integer step of the sign-magnitude bit pattern) wherever it landed on the wrong side of
    the exact value for a directed mode.  NaN gives +448 (e4m3, which has no NaN) or 0x7F."""
    dt, max_norm, nan_bits = _F8[dst]

    def convert(a):
        x = a if a.dtype in (F32, F64) else a.astype(F32)
        x = np.clip(x, -max_norm, max_norm)
        r = x.astype(dt)
        if rounding != "nearest_even":
            back = r.astype(x.dtype)
            if rounding == "zero":
                toward_zero = np.abs(back) > np.abs(x)
                away = np.zeros_like(toward_zero)
            else:
                low = back < x if rounding == "positive_inf" else back > x
                up = ~np.signbit(back) if rounding == "positive_inf" else np.signbit(back)
                away = low & up                      # step the magnitude up
                toward_zero = low & ~up              # step it down
            bits = r.view(np.uint8)
            bits += away.astype(np.uint8)
            bits -= toward_zero.astype(np.uint8)
        nan = np.isnan(a) if a.dtype in (F32, F64) else np.isnan(x)
        if nan.any():
            r.view(np.uint8)[nan] = np.uint8(nan_bits)
        return r
    return convert


def convert_float(src: str, dst: str, rounding: str, canonical: bool = True):
    """A bit-exact fast ``ftof`` from ``src`` to ``dst`` in ``rounding``, or None when the
    general routine must run.  tf32 sources are f32 storage holding tf32 values.
    ``canonical=False``: widening and nearest-even narrowing casts leave NaN results as
    NumPy computes them (nothing observes them)."""
    if src == "tf32":
        src = "f32"
    widen = widen_float(src, dst, canonical)
    if widen is not None:
        return widen
    if src == "f32" and dst == "tf32":
        return f32_to_tf32(rounding)
    if src == "f32" and dst == "bf16":
        return f32_to_bf16(rounding)
    if (src, dst) == ("f32", "f16") and rounding == "nearest_even":
        return f32_to_f16_nearest_even
    if (src, dst) in (("f32", "f16"), ("f64", "f32"), ("f64", "f16")):
        if rounding == "nearest_even":
            dt = _DT[dst]
            finish = nan_finisher(canonical)
            return lambda a: finish(a.astype(dt))
        if rounding in ("zero", "positive_inf", "negative_inf"):
            return _directed_cast(_DT[dst], rounding)
        return None
    if dst in _F8 and src in ("f16", "bf16", "f32") and rounding != "nearest_away":
        return _to_f8(dst, rounding)
    return None


# -- float -> integer -------------------------------------------------------------------------

def float_to_int(src: str, dst: str, signed: bool, rounding: str,
                 general: Callable) -> Optional[Callable]:
    """``ftoi`` toward zero from f16/f32/f64 to i8..i64 (i64 signed only) as one C cast, when
    every value lies in the target's range; ``general(a)`` (the exact conversion) otherwise.
    None for other configurations.

    The C cast of a float to an integer type truncates toward zero, exactly the rounding of
    ``nearest_int_to_zero``/``zero``, for every value whose truncation the type holds.  The
    range test is on the source's smallest and largest values (exact comparisons of Python
    floats and ints; a NaN makes them fail): ``lo <= min`` and ``max < hi + 1`` put every
    truncation in ``[lo, hi]``.  The rest (NaN, values to saturate, negative fractions for an
    unsigned target) take ``general``."""
    if rounding not in ("nearest_int_to_zero", "zero") or src not in ("f16", "f32", "f64") \
            or dst not in ("i8", "i16", "i32", "i64") or (dst == "i64" and not signed):
        return None
    n = int(dst[1:])
    lo, end = (-(1 << (n - 1)), 1 << (n - 1)) if signed else (0, 1 << n)
    store = np.dtype(f"int{n}")
    cast = store if signed else np.dtype(f"uint{n}")

    def run(a: np.ndarray) -> np.ndarray:
        if a.size == 0 or not (lo <= float(np.min(a)) and float(np.max(a)) < end):
            return general(a)
        out = fresh(a.shape, store)
        np.copyto(out.view(cast), a, casting="unsafe")
        return out
    return run


# -- fused multiply-add ------------------------------------------------------------------------

def fma_f32(canonical: bool = True):
    """Nearest-even f32 ``a * b + c`` with one rounding, provably exact.

    The product of two f32 values is exact in f64 (48 significant bits), so ``s = p + c`` in
    f64 is the exact sum rounded once, and rounding ``s`` to f32 gives the correctly rounded
    result unless ``s`` is exactly halfway between two f32 values (the f64 rounding may have
    moved the exact sum onto the midpoint, the only case where double rounding can differ
    since 53 >= 2 * 24 + 2) or lies in the f32 subnormal range (where the midpoints sit
    lower).  Those rare elements are redone by :func:`_fma_f32_odd`.  ``canonical=False``
    leaves NaN results as computed (nothing observes them)."""
    finish = nan_finisher(canonical)

    def whole(a, b, c):
        p = np.multiply(a, b, dtype=F64)         # exact
        s = np.add(p, c, out=p) if p.shape == np.broadcast_shapes(p.shape, c.shape) \
            else p + c
        r = s.astype(F32)
        _fma_redo(a, b, c, s, r)
        return finish(r)

    def run(a, b, c):
        shape = a.shape
        if not (shape == b.shape == c.shape):
            shape = np.broadcast_shapes(shape, b.shape, c.shape)
        if math.prod(shape) >= native.MIN_FMA_ELEMENTS and a.dtype == b.dtype == c.dtype == F32:
            out = fresh(shape, F32)
            # (one C pass: the hardware's fma; canonical NaNs also serve unobserved ones)
            if native.fma_canonical(a, b, c, out):
                return out
            recycle(out)
        row = math.prod(shape[1:]) if shape else 0
        if len(shape) < 1 or row == 0 or row > _FMA_CHUNK // 2:
            return whole(a, b, c)
        # chunks of rows whose f64 temporaries stay in the cache (3x faster on 4M elements)
        rows = _FMA_CHUNK // row
        total = row * shape[0]
        # operands broadcast from a few values (a scale, a per-row term) are widened to f64
        # once (exactly), so that the passes below mix no f32 into f64 (NumPy casts mixed
        # operands through buffers: 1.5-2x slower); the full-size f32 multiplicand is copied
        # into the f64 work array, then multiplied in place
        a, b, c = (_widened(x, total) for x in (a, b, c))
        if a.dtype == F64 and b.dtype == F32:
            a, b = b, a
        a, b, c = (x if x.shape == shape else np.broadcast_to(x, shape) for x in (a, b, c))
        out = fresh(shape, F32)
        chunk = (min(rows, shape[0]),) + shape[1:]
        tmp, *work = _fma_work(chunk)
        for i in range(0, shape[0], rows):
            j = min(shape[0], i + rows)
            s = tmp[:j - i]
            np.copyto(s, a[i:j])                                # exact
            np.multiply(s, b[i:j], out=s)                       # exact
            np.add(s, c[i:j], out=s)
            r = out[i:j]
            np.copyto(r, s, casting="same_kind")
            _fma_redo(a[i:j], b[i:j], c[i:j], s, r, tuple(w[:j - i] for w in work))
        return finish(out)
    return run


def _widened(x: np.ndarray, total: int) -> np.ndarray:
    """An f32 fma operand whose distinct values (:func:`compact`) number at most an eighth
    of the ``total`` results, widened to f64 once (exactly); else ``x``."""
    if x.dtype != F32:
        return x
    small = compact(x)
    return small.astype(F64) if 8 * small.size <= total else x


def _fma_redo(a, b, c, s, r, work: Optional[tuple] = None) -> None:
    """Redo, in ``r`` (``s`` = f64 ``a * b + c`` rounded to f32), the elements whose f64 sum
    ``s`` is an f32 midpoint or tiny (the rare double-rounding cases) by the exact method.
    ``work``: ``(uint64, bool, f32)`` arrays of ``r``'s shape to compute the tests in.

    The midpoint test is two passes over the bits of ``s``; the tiny test runs only where
    the smallest ``|r|`` (NaN ignored) says some element may be tiny."""
    low, mid, mag = work if work is not None else (None, None, None)
    low = np.bitwise_and(s.view(np.uint64), np.uint64(0x1FFFFFFF), out=low)
    redo = np.equal(low, np.uint64(0x10000000), out=mid)     # an f32 midpoint (or NaN payload)
    if redo.size and np.count_nonzero(redo) * _FMA_DENSE_MIDPOINTS > redo.size:
        _keep_exact_midpoints(a, b, c, s, redo, low.view(F64))
    mag = np.abs(r, out=mag)
    if mag.size and np.fmin.reduce(mag, axis=None) <= _F32_MIN_NORMAL32:
        tiny = mag <= _F32_MIN_NORMAL32     # (|s| below the smallest normal, or near it)
        tiny &= s != 0
        redo |= tiny
    if redo.any():
        at = np.nonzero(redo)
        shape = r.shape
        r[at] = _fma_f32_odd(*(np.broadcast_to(x, shape)[at] for x in (a, b, c)))


#: :func:`_fma_redo` drops the exact midpoints first (:func:`_keep_exact_midpoints`) when
#: more than one element in this many is a midpoint
_FMA_DENSE_MIDPOINTS = 64


def _keep_exact_midpoints(a, b, c, s, redo, spare: np.ndarray) -> None:
    """Clear in ``redo`` the f32 midpoints ``s`` (the f64 sums ``a * b + c``) that are the
    exact sum, for the whole array at once (an affine map with a power-of-two scale, ``x * 2 +
    1``, lands one element in five on a midpoint; redoing those one by one is slow).

    Rounding an exact midpoint to f32 (nearest even) is already correctly rounded: only a sum
    the f64 addition rounded may be off, and :func:`_fma_f32_odd` changes exactly the elements
    whose TwoSum error ``e`` (computed here by the same operations) is nonzero and finite.
    The elements cleared here are those it would leave as they are, so the bits are the
    same.  ``spare``: an f64 work array of ``s``' shape; the other two come from this
    thread's (:func:`_fma_work`), when ``s`` fits them."""
    n = s.size
    if n <= _FMA_CHUNK:
        w = getattr(_FMA_WORK, "exact", None)
        if w is None:
            w = _FMA_WORK.exact = (np.empty(_FMA_CHUNK, F64), np.empty(_FMA_CHUNK, F64))
        p, bb = (x[:n].reshape(s.shape) for x in w)
    else:
        p, bb = np.empty(s.shape, F64), np.empty(s.shape, F64)
    np.multiply(a, b, dtype=F64, out=p)            # exact, as in _fma_f32_odd
    np.subtract(s, p, out=bb)
    e = np.subtract(p, np.subtract(s, bb, out=spare), out=p)     # e = (p - (s - bb)) + (c - bb)
    e += np.subtract(c, bb, out=spare)
    redo &= e != 0
    redo &= np.isfinite(e)


#: elements per chunk of the f32 fma (its f64 temporaries: 256 KiB)
_FMA_CHUNK = 1 << 15
_FMA_WORK = threading.local()


def _fma_work(chunk: tuple) -> list:
    """Work arrays of shape ``chunk`` (at most :data:`_FMA_CHUNK` elements) for an fma chunk:
    the f64 sum, then the ``(uint64, bool, f32)`` arrays of :func:`_fma_redo`.  Views of
    this thread's arrays, kept between calls: fresh arrays of this size would be mapped anew
    (page faults) on every call."""
    flat = getattr(_FMA_WORK, "arrays", None)
    if flat is None:
        flat = _FMA_WORK.arrays = tuple(np.empty(_FMA_CHUNK, dt)
                                        for dt in (F64, np.uint64, bool, F32))
    n = math.prod(chunk)
    return [w[:n].reshape(chunk) for w in flat]


_F32_MIN_NORMAL = 2.0 ** -126
_F32_MIN_NORMAL32 = np.float32(_F32_MIN_NORMAL)


def _fma_f32_odd(a, b, c):
    """Nearest-even f32 ``a * b + c`` by TwoSum and round-to-odd: ``s + e == a*b + c``
    exactly; where ``e != 0`` and ``s`` has an even significand, ``s`` steps to its neighbour
    towards ``e``, giving the round-to-odd value of the exact sum, and rounding a 53-bit
    round-to-odd value to 24 bits is correctly rounded (53 >= 24 + 2)."""
    p = np.multiply(a, b, dtype=F64)
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    bits = s.view(np.uint64)
    fix = ((bits & np.uint64(1)) == 0) & (e != 0) & np.isfinite(e)
    if fix.any():
        away = (e > 0) == (s > 0)          # the exact sum is farther from zero than s
        step = np.where(away, np.uint64(1), np.uint64(0xFFFFFFFFFFFFFFFF))
        s = np.where(fix, bits + step, bits).view(F64)
    return s.astype(F32)
