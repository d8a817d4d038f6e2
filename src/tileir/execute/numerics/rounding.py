"""Exact, vectorised rounding to any element float format in the four IEEE directions (and
``nearest_away``, round to nearest with ties away from zero, which 13.4's ftof accepts).

:func:`round_exact` rounds an exact value described as ``(hi, lo, scale)`` (see :mod:`.eft`) to a
:class:`~.dtypes.FloatFormat`; :func:`round_to` does the same and returns the element storage.
No floating-point environment (``fesetround``) is involved: the value is scaled so that the
format's quantum at its magnitude becomes 1, and integer/fraction parts decide the rounding.

Format rules applied after rounding on the unbounded-exponent grid:

* a magnitude above ``max_value`` becomes ``inf`` when the format has infinities, saturation is
  off and the direction rounds away from zero (nearest, or towards the infinity of that sign);
  otherwise it becomes ``±max_value`` (this is also *satfinite*);
* infinite inputs stay infinite, or become ``±max_value`` when saturating;
* NaN stays NaN, or becomes ``+max_value`` for formats that cannot produce NaN (§5.1.3: e4m3);
* ``f8E8M0FNU`` (unsigned, no zero): non-positive inputs (including ``±0`` and ``-inf``) give
  NaN, positive values too small to round to ``2**-127`` give ``2**-127``.
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..buffers import MIN_BYTES, fresh, recycle, scratch
from ._quiet import quiet
from .dtypes import FloatFormat, encode, float_format, numpy_dtype

__all__ = ["ROUNDING_MODES", "NEAREST_EVEN", "ZERO", "NEGATIVE_INF", "POSITIVE_INF", "NEAREST_AWAY",
           "check_mode", "round_exact", "round_to", "flush_subnormals"]

NEAREST_EVEN = "nearest_even"
ZERO = "zero"
NEGATIVE_INF = "negative_inf"
POSITIVE_INF = "positive_inf"
NEAREST_AWAY = "nearest_away"
ROUNDING_MODES: tuple[str, ...] = (NEAREST_EVEN, ZERO, NEGATIVE_INF, POSITIVE_INF, NEAREST_AWAY)

_NATIVE = {"f16", "f32", "f64"}  # NumPy casts from f64 round to nearest-even correctly


def check_mode(mode: str) -> str:
    """Return ``mode`` if it is one of :data:`ROUNDING_MODES`, else raise ValueError."""
    if mode not in ROUNDING_MODES:
        raise ValueError(f"unsupported rounding mode {mode!r}; expected one of {ROUNDING_MODES}")
    return mode


@quiet
def round_exact(hi: ArrayLike, lo: Optional[ArrayLike] = None,
                fmt: str | FloatFormat = "f64", mode: str = NEAREST_EVEN, *,
                scale: Optional[ArrayLike] = None, saturate: bool = False) -> NDArray[np.float64]:
    """Round the exact values ``(hi + lo) * 2**scale`` once to ``fmt`` in direction ``mode``.

    ``hi`` must be the float64 nearest to ``v * 2**-scale`` (as produced by :mod:`.eft`) and only
    the sign of ``lo`` is used. Returns float64 values that are exactly representable in
    ``fmt`` (or ±inf / NaN, following the format rules in the module docstring).
    ``saturate`` selects *satfinite* overflow behaviour (conversions into f8/f4 types).
    """
    f = float_format(fmt)
    check_mode(mode)
    hi = np.asarray(hi, dtype=np.float64)
    neg = np.signbit(hi)
    if lo is None:
        d = np.zeros(hi.shape, dtype=np.int8)
    else:
        s = np.sign(np.asarray(lo, dtype=np.float64))
        s = np.where(np.isnan(s), 0.0, s).astype(np.int8)
        s = np.broadcast_to(s, hi.shape)
        zero = hi == 0
        neg = np.where(zero & (s != 0), s < 0, neg)
        # d: +1 if |v| > |hi|, -1 if |v| < |hi|, 0 if exact
        d = np.where(zero, np.abs(s), np.where(neg, -s, s)).astype(np.int8)
    mag = np.abs(hi)
    finite = np.isfinite(mag)
    m = np.where(finite, mag, 0.0)
    fm, em = np.frexp(m)                            # m = fm * 2**em, fm in [0.5, 1)
    em = em.astype(np.int64)
    # a value just below a power of two lies in the binade below, where the quantum is finer
    em = em - ((fm == 0.5) & (d < 0))
    sc = np.zeros((), np.int64) if scale is None else np.asarray(scale, dtype=np.int64)
    qexp = np.maximum(em + sc - 1, f.emin) - (f.precision - 1)  # exponent of the quantum
    shift = sc - qexp
    # values far below half a quantum only need to stay positive and below 1/2
    shift = np.maximum(shift, -60 - em)
    t = np.ldexp(m, np.clip(shift, -2000, 2000).astype(np.int32))
    n = np.floor(t)
    frac = t - n
    on_grid = frac == 0.0
    half = frac == 0.5
    below_hi = on_grid & (d < 0)
    base = n - below_hi
    inexact = ~(on_grid & (d == 0))
    if mode == NEAREST_EVEN:
        above = (frac > 0.5) | (half & (d > 0)) | below_hi
        tie = half & (d == 0)
        inc = above | (tie & (np.fmod(base, 2.0) == 1.0))
        away = np.ones(hi.shape, dtype=bool)
    elif mode == NEAREST_AWAY:
        # a tie (exactly half a quantum, d == 0) or anything above it rounds up in magnitude
        inc = (frac > 0.5) | (half & (d >= 0)) | below_hi
        away = np.ones(hi.shape, dtype=bool)
    elif mode == ZERO:
        inc = np.zeros(hi.shape, dtype=bool)
        away = inc
    elif mode == POSITIVE_INF:
        away = ~neg
        inc = inexact & away
    else:
        away = neg
        inc = inexact & away
    r = np.ldexp(base + inc, np.clip(qexp, -2000, 2000).astype(np.int32))
    big = np.inf if f.has_inf and not saturate else f.max_value
    r = np.where(r > f.max_value, np.where(away, big, f.max_value), r)
    # infinite hi: exact infinity (d == 0) or a float64 overflow of a finite value (d < 0)
    inf_hi = np.isinf(hi)
    if inf_hi.any():
        r = np.where(inf_hi, np.where((d == 0) | away, big, f.max_value), r)
    if not f.has_zero:
        r = np.where(r == 0, f.min_value, r)
    r = np.where(neg, -r, r)
    nan = np.isnan(hi)
    if not f.signed:
        nan = nan | neg | ((hi == 0) & (d == 0))
    if nan.any():
        r = np.where(nan, np.nan if f.produces_nan else f.max_value, r)
    return r


def _has_nan(x: NDArray) -> bool:
    """Whether the f32 or f64 array ``x`` holds a NaN (one maximum reduction: NaN propagates)."""
    return x.size > 0 and bool(np.isnan(np.maximum.reduce(x, axis=None)))


@quiet
def round_to(hi: ArrayLike, lo: Optional[ArrayLike], elem: str, mode: str = NEAREST_EVEN, *,
             scale: Optional[ArrayLike] = None, saturate: bool = False) -> NDArray:
    """Like :func:`round_exact` but returns the storage array of element type ``elem``.

    Nearest-even rounding into f16/f32/f64 without a scale uses NumPy's (correctly rounded)
    casts, nudging ``hi`` towards the exact value only where ``hi`` is a tie of ``elem``.
    """
    hi = np.asarray(hi, dtype=np.float64)
    if mode == NEAREST_EVEN and scale is None and not saturate and elem in _NATIVE:
        dt = numpy_dtype(elem)
        if hi.nbytes >= MIN_BYTES:      # (a recycled array: no fresh pages to fault in)
            out = fresh(hi.shape, np.dtype(dt))
            np.copyto(out, hi, casting="unsafe")
        else:
            out = hi.astype(dt)
        if lo is not None and elem != "f64":
            lo = np.broadcast_to(np.asarray(lo, dtype=np.float64), hi.shape)
            up = np.nextafter(hi, np.inf).astype(dt)
            dn = np.nextafter(hi, -np.inf).astype(dt)
            # hi is a tie only when it is exactly halfway between those two neighbours (just
            # off a midpoint, hi and the exact value round alike)
            halfway = 0.5 * up.astype(np.float64) + 0.5 * dn.astype(np.float64) == hi
            tie = (lo != 0) & (up != dn) & halfway & np.isfinite(hi)
            if tie.any():
                out = np.where(tie, np.where(lo > 0, up, dn), out)
        # (a NaN of ``hi`` is a NaN of ``out``: test the narrower f32 array, half the bytes)
        nan = _has_nan(out) if out.dtype == np.float32 else _has_nan(hi)
        return encode(out.astype(np.float64), elem) if nan else out
    return encode(round_exact(hi, lo, elem, mode, scale=scale, saturate=saturate), elem)


@quiet
def flush_subnormals(x: ArrayLike, elem: str = "f32") -> NDArray:
    """Replace subnormal elements of ``x`` (storage of ``elem``) by zero of the same sign."""
    a = np.asarray(x, dtype=numpy_dtype(elem))
    if a.dtype == np.float32:
        return _flush_f32(a)
    tiny = float_format(elem).min_normal
    # (the smallest normal is exact in every format: f32/f64 compare in their own type)
    v = a if a.dtype in (np.float32, np.float64) else a.astype(np.float64)
    sub = np.abs(v) < v.dtype.type(tiny)
    sub &= v != 0
    if not sub.any():
        return a
    return np.where(sub, np.copysign(np.zeros((), a.dtype), a), a).astype(a.dtype)


def _flush_f32(a: NDArray) -> NDArray:
    """:func:`flush_subnormals` of an f32 array by bit masks: a subnormal is a nonzero
    magnitude below the smallest normal's pattern; clearing the mantissa of every element
    whose exponent field is 0 leaves zeros as they are and turns subnormals into zeros of
    their sign (a select by ``np.where`` costs ~5 ns an element where the choice varies,
    these integer passes well under 1)."""
    if a.ndim == 0:
        return _flush_f32(a.reshape(1)).reshape(())
    bits = a.view(np.uint32)
    if bits.size == 0:
        return a
    # (one pooled work array: a fresh one would cost page faults on every call)
    mag = np.bitwise_and(bits, np.uint32(0x7FFFFFFF), out=scratch(bits.shape, np.uint32))
    mag -= np.uint32(1)                  # (zero wraps to the top: not below the limit)
    if np.minimum.reduce(mag, axis=None) >= np.uint32(0x007FFFFF):
        recycle(mag)
        return a
    mask = np.bitwise_and(bits, np.uint32(0x7F800000), out=mag)
    del mag
    mask -= np.uint32(1)                 # exponent field 0: wraps to >= 2**31
    mask >>= np.uint32(31)
    np.negative(mask, out=mask)
    mask &= np.uint32(0x007FFFFF)
    mask &= bits
    out = (bits ^ mask).view(np.float32)
    recycle(mask)
    return out


