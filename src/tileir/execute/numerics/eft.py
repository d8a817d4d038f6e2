"""Error-free transformations: exact results of f64 arithmetic as ``(hi, lo, scale)`` triples.

Every function here returns an :class:`Exact` describing the *exact* real result ``v`` of an
operation on float64 inputs:

* ``hi`` is ``v * 2**-scale`` rounded to nearest-even in float64 (``scale`` is 0 when ``None``),
* ``lo`` has the sign of ``v * 2**-scale - hi`` (only its sign is meaningful; 0 when exact),
* for results that overflow float64 ``hi`` is ±inf and ``lo`` has the opposite sign,
* IEEE special results (NaN, infinities from infinite operands, exact zeros) have ``lo == 0``.

This is exactly what :func:`.rounding.round_exact` needs to round ``v`` once, in any rounding
direction, to any float format: every value and every midpoint of a format no wider than f64 is a
float64 number, so ``v`` lies on the same side of all of them as ``hi`` unless it equals ``hi``,
and then the sign of ``lo`` decides.

Inputs are scaled by powers of two (``frexp``) before multiplying, dividing or taking square
roots, so the algorithms (Knuth's TwoSum, Veltkamp splitting + Dekker's TwoProduct, exact
division and square-root remainders, Boldo–Melquiond's emulated FMA with round-to-odd) never
overflow or underflow; ``scale`` carries the exponent.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["Exact", "two_sum", "two_prod", "exact_add", "exact_mul", "exact_div",
           "exact_sqrt", "exact_fma", "exact_sum_sign"]

F64 = NDArray[np.float64]
_SPLITTER = 134217729.0  # 2**27 + 1 (Veltkamp)
_TINY_EXP = -300         # terms smaller than 2**-300 relative to the leading one act as a sign


class Exact(NamedTuple):
    """Exact value ``(hi + tiny*sign(lo)) * 2**scale``; see the module docstring."""

    hi: F64
    lo: F64
    scale: Optional[NDArray[np.int64]] = None


def two_sum(a: F64, b: F64) -> tuple[F64, F64]:
    """Knuth's TwoSum: ``s = fl(a + b)`` and ``e`` with ``a + b == s + e`` exactly (finite s)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


def _split(a: F64) -> tuple[F64, F64]:
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a: F64, b: F64) -> tuple[F64, F64]:
    """Dekker's TwoProduct: ``p = fl(a*b)`` and ``e`` with ``a*b == p + e`` exactly.

    Valid when ``|a|, |b| < 2**995`` and the product does not underflow (callers scale first).
    """
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def _general(*xs: F64) -> NDArray[np.bool_]:
    """Elements where all operands are finite and non-zero (the non-special case)."""
    m = np.ones(np.broadcast(*xs).shape, dtype=bool)
    for x in xs:
        m &= np.isfinite(x) & (x != 0)
    return m


def _frexp(x: F64, ok: NDArray[np.bool_]) -> tuple[F64, NDArray[np.int64]]:
    m, e = np.frexp(np.where(ok, x, 1.0))
    return m, e.astype(np.int64)


def exact_add(a: F64, b: F64) -> Exact:
    """Exact ``a + b`` (sign of exact zeros is left to the caller's rounding-mode rule)."""
    with np.errstate(all="ignore"):
        s, e = two_sum(a, b)
        overflow = np.isinf(s) & np.isfinite(a) & np.isfinite(b)
        e = np.where(np.isfinite(s), e, np.where(overflow, -s, 0.0))
    return Exact(s, e)


def exact_mul(a: F64, b: F64) -> Exact:
    """Exact ``a * b`` for any float64 operands."""
    ok = _general(a, b)
    with np.errstate(all="ignore"):
        special = a * b
    ma, ea = _frexp(a, ok)
    mb, eb = _frexp(b, ok)
    p, e = two_prod(ma, mb)
    return Exact(np.where(ok, p, special), np.where(ok, e, 0.0), np.where(ok, ea + eb, 0))


def exact_div(a: F64, b: F64) -> Exact:
    """Exact ``a / b``: quotient rounded to nearest plus the sign of the exact remainder."""
    ok = _general(a, b)
    with np.errstate(all="ignore"):
        special = a / b
    ma, ea = _frexp(a, ok)
    mb, eb = _frexp(b, ok)
    q = ma / mb
    p, pe = two_prod(q, mb)
    r = (ma - p) - pe  # exact: the remainder of a correctly rounded quotient is representable
    lo = np.where(mb < 0, -r, r)
    return Exact(np.where(ok, q, special), np.where(ok, lo, 0.0), np.where(ok, ea - eb, 0))


def exact_sqrt(a: F64) -> Exact:
    """Exact ``sqrt(a)`` (``sqrt(-0) = -0``, negative -> NaN)."""
    ok = np.isfinite(a) & (a > 0)
    with np.errstate(all="ignore"):
        special = np.sqrt(a)
    m, e = _frexp(a, ok)
    odd = (e & 1) == 1
    m = np.where(odd, m * 2.0, m)  # m in [0.5, 2), exponent even
    e = np.where(odd, e - 1, e)
    s = np.sqrt(m)
    p, pe = two_prod(s, s)
    r = (m - p) - pe  # exact (Boldo–Daumas); sign(sqrt(m) - s) == sign(m - s*s)
    return Exact(np.where(ok, s, special), np.where(ok, r, 0.0), np.where(ok, e // 2, 0))


def _round_to_odd_sum(a: F64, b: F64) -> F64:
    """``a + b`` rounded to odd: truncated, with the last bit forced to 1 when inexact."""
    s, e = two_sum(a, b)
    even = (s.view(np.uint64) & np.uint64(1)) == 0
    return np.where((e != 0) & even, np.nextafter(s, np.copysign(np.inf, e)), s)


def exact_fma(a: F64, b: F64, c: F64) -> Exact:
    """Exact ``a * b + c`` (one rounding happens later), for any float64 operands.

    Operands are scaled so that the larger of ``a*b`` and ``c`` is about 1; a term smaller than
    ``2**-300`` of it only matters through its sign and is replaced by ``±2**-300``. The sum is
    then rounded to nearest with Boldo–Melquiond's emulated FMA (round-to-odd of the tail), and
    the sign of the remainder is found by exact distillation (:func:`exact_sum_sign`).
    Zero-product and zero-addend cases keep IEEE signed-zero results (nearest mode).
    """
    ok = _general(a, b, c)
    with np.errstate(all="ignore"):
        # an infinite addend wins over a finite product even if that product overflows f64
        finite_prod = np.isfinite(a) & np.isfinite(b)
        special = np.where(finite_prod & np.isinf(c), c, a * b + c)
    ma, ea = _frexp(a, ok)
    mb, eb = _frexp(b, ok)
    mc, ec = _frexp(c, ok)
    pe = ea + eb
    scale = np.maximum(pe, ec)
    uh, ul = two_prod(ma, mb)
    dp = pe - scale
    dc = ec - scale
    tiny = 2.0 ** _TINY_EXP
    small_p = dp < _TINY_EXP
    uh = np.where(small_p, np.copysign(tiny, uh), np.ldexp(uh, np.maximum(dp, _TINY_EXP)))
    ul = np.where(small_p, 0.0, np.ldexp(ul, np.maximum(dp, _TINY_EXP)))
    cc = np.where(dc < _TINY_EXP, np.copysign(tiny, mc), np.ldexp(mc, np.maximum(dc, _TINY_EXP)))
    th, tl = two_sum(cc, uh)
    hi = th + _round_to_odd_sum(tl, ul)
    lo = exact_sum_sign([th, tl, ul, -hi]).astype(np.float64)
    # exact_mul handles c == 0 (then the result is the product, possibly underflowing)
    prod = exact_mul(a, b)
    c_zero = (c == 0) & np.isfinite(a) & np.isfinite(b) & (a != 0) & (b != 0)
    hi = np.where(ok, hi, np.where(c_zero, prod.hi, special))
    lo = np.where(ok, lo, np.where(c_zero, prod.lo, 0.0))
    sc = np.where(ok, scale, np.where(c_zero, prod.scale, 0))
    return Exact(hi, lo, sc)


def exact_sum_sign(terms: Sequence[F64], max_passes: int = 200) -> NDArray[np.int8]:
    """Exact sign (-1, 0, 1) of the sum of float64 arrays ``terms`` (no overflow assumed).

    Repeated distillation with TwoSum (each pass is error-free) until the rounded sum dominates
    the sum of the remaining error terms or they are all zero.
    """
    vals = [np.asarray(t, dtype=np.float64) for t in np.broadcast_arrays(*terms)]
    shape = vals[0].shape
    vals = [v.ravel().copy() for v in vals]
    out = np.zeros(vals[0].size, dtype=np.int8)
    todo = np.arange(vals[0].size)
    n = len(vals)
    for _ in range(max_passes):
        if todo.size == 0:
            return out.reshape(shape)
        s = vals[0]
        errs = []
        for x in vals[1:]:
            s, e = two_sum(s, x)
            errs.append(e)
        bound = np.zeros_like(s)
        for e in errs:
            bound = np.maximum(bound, np.abs(e))
        done = np.abs(s) > 2.0 * (n - 1) * bound
        done |= bound == 0
        out[todo[done]] = np.sign(s[done]).astype(np.int8)
        keep = ~done
        todo = todo[keep]
        vals = [e[keep] for e in errs] + [s[keep]]
    raise ArithmeticError("exact_sum_sign did not converge")  # pragma: no cover
