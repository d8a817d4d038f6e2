"""Double-double kernels for f64 math functions that need better than libm accuracy.

A double-double is an unevaluated sum ``hi + lo`` of two float64 arrays with ``|lo| <= ulp(hi)/2``
(about 106 significant bits). Only what the f64 ``tanh`` (spec: 1 ulp in ``full`` mode) and
``erf``/``erfc`` (the gpu dialect's math ops, within 1 ulp) need is here: addition,
multiplication, division and ``exp`` of non-positive arguments.
"""
from __future__ import annotations

from fractions import Fraction
from math import factorial

import numpy as np
from numpy.typing import NDArray

from .eft import two_prod, two_sum

__all__ = ["tanh64", "erf64"]

F64 = NDArray[np.float64]
DD = tuple[F64, F64]


def _const(q: Fraction) -> tuple[float, float]:
    hi = float(q)
    return hi, float(q - Fraction(hi))


_LN2 = _const(Fraction("0.693147180559945309417232121458176568075500134360255254120680009493393"))
_TAYLOR = 10                                     # exp(r) for |r| <= 2**-9: error < 2**-110
_INV_FACT = [_const(Fraction(1, factorial(i))) for i in range(_TAYLOR + 1)]
_SQUARINGS = 8


def _dd_full(v: tuple[float, float], like: F64) -> DD:
    """The double-double constant ``v`` in every element of an array shaped like ``like``."""
    return np.full_like(like, v[0]), np.full_like(like, v[1])


def _dd_scalar(v: float, like: F64) -> DD:
    """The float ``v`` as a double-double in every element of an array shaped like ``like``."""
    return np.full_like(like, v), np.zeros_like(like)


def _norm(hi: F64, lo: F64) -> DD:
    s = hi + lo
    return s, lo - (s - hi)


def _add(a: DD, b: DD) -> DD:
    s, e = two_sum(a[0], b[0])
    return _norm(s, e + a[1] + b[1])


def _mul(a: DD, b: DD) -> DD:
    p, e = two_prod(a[0], b[0])
    return _norm(p, e + (a[0] * b[1] + a[1] * b[0]))


def _div(a: DD, b: DD) -> DD:
    q1 = a[0] / b[0]
    r = _add(a, _mul((-q1, np.zeros_like(q1)), b))
    return _norm(q1, r[0] / b[0])


def _exp_dd(y: F64) -> DD:
    """exp(y) as a double-double for ``-64 <= y <= 0`` (relative error about 2**-100; down to
    y = -708 the result stays normal with the same relative error in ``hi``, below that it
    underflows gradually)."""
    k = np.rint(y / _LN2[0])
    p, pe = two_prod(k, np.full_like(k, _LN2[0]))
    s, se = two_sum(y, -p)
    r = _norm(s, se - pe - k * _LN2[1])
    r = (np.ldexp(r[0], -_SQUARINGS), np.ldexp(r[1], -_SQUARINGS))
    acc = _dd_full(_INV_FACT[_TAYLOR], y)
    for i in range(_TAYLOR - 1, -1, -1):
        acc = _add(_mul(acc, r), _dd_full(_INV_FACT[i], y))
    for _ in range(_SQUARINGS):
        acc = _mul(acc, acc)
    ki = k.astype(np.int32)
    return np.ldexp(acc[0], ki), np.ldexp(acc[1], ki)


def tanh64(x: F64) -> F64:
    """f64 tanh within 0.5 + 2**-20 ulp (so at most 1 ulp, the spec's ``full`` bound).

    ``|x| < 2**-13``: odd Taylor polynomial to x**7; ``|x| > 22``: ±1; otherwise
    ``(1 - e**(-2|x|)) / (1 + e**(-2|x|))`` evaluated in double-double and rounded once.
    """
    a = np.abs(x)
    small = a < 2.0 ** -13
    mid = ~small & (a <= 22.0)
    a2 = a * a
    poly = a + a * (a2 * (-1.0 / 3 + a2 * (2.0 / 15 - a2 * (17.0 / 315))))
    am = np.where(mid, a, 1.0)
    e = _exp_dd(-2.0 * am)
    one = (np.ones_like(am), np.zeros_like(am))
    num = _add(one, (-e[0], -e[1]))
    den = _add(one, e)
    q = _div(num, den)
    t = np.where(small, poly, np.where(mid, q[0] + q[1], 1.0))
    return np.where(np.isnan(x), x, np.copysign(t, x))


# -- erf / erfc --------------------------------------------------------------------------------
# libm's (and SciPy's) f64 erf/erfc are off by up to a few hundred ulp in the tail (erfc(23.5):
# exp(-x*x) with x*x rounded), so they are evaluated in double-double and rounded once: erf by
# its series 2/sqrt(pi) e^(-a^2) sum 2^n a^(2n+1)/(2n+1)!! for |x| <= 4, erfc by its continued
# fraction e^(-a^2)/sqrt(pi) / (a + (1/2)/(a + 1/(a + (3/2)/(a + ...)))) above, a*a exact.

_TWO_OVER_SQRT_PI = _const(Fraction(
    "1.12837916709551257389615890312154517168810125865799771368817144"))
_INV_SQRT_PI = _const(Fraction(
    "0.564189583547756286948079451560772585844050629328998856844085722"))
_ERF_SERIES_MAX = 4.0
_ERF_SERIES_TERMS = 150
_ERFC_CF_DEPTH = 110
_ERFC_ZERO = 30.0               # erfc(30) is below the smallest subnormal


def _exp_neg_square(a: F64) -> DD:
    """exp(-a*a) as a double-double (a*a = p + pe exactly; exp(-pe) = 1 - pe + pe**2/2)."""
    p, pe = two_prod(a, a)
    return _mul(_exp_dd(-p), _norm(np.ones_like(a), -pe + 0.5 * pe * pe))


def _erf_series(a: F64) -> DD:
    """erf(a) for 0 <= a <= 4."""
    p, pe = two_prod(a, a)
    two_a2 = (2.0 * p, 2.0 * pe)
    term: DD = (a.copy(), np.zeros_like(a))
    total = term
    for n in range(1, _ERF_SERIES_TERMS):
        term = _div(_mul(term, two_a2), _dd_scalar(2.0 * n + 1, a))
        total = _add(total, term)
    return _mul(_mul(total, _exp_neg_square(a)), _dd_full(_TWO_OVER_SQRT_PI, a))


def _erfc_cf(a: F64) -> DD:
    """erfc(a) for 4 < a < 30."""
    x: DD = (a, np.zeros_like(a))
    t = x
    for n in range(_ERFC_CF_DEPTH, 0, -1):
        t = _add(x, _div(_dd_scalar(n / 2.0, a), t))
    return _div(_mul(_exp_neg_square(a), _dd_full(_INV_SQRT_PI, a)), t)


def erf64(x: F64, complement: bool = False) -> F64:
    """f64 ``erf(x)`` (``complement``: ``erfc(x)``) within 1 ulp: evaluated in double-double
    (the series where |x| <= 4, the continued fraction of erfc above) and rounded once."""
    x = np.asarray(x, np.float64)
    a = np.abs(x)
    neg = np.signbit(x)
    small = a <= _ERF_SERIES_MAX
    big = ~small & (a < _ERFC_ZERO)
    with np.errstate(all="ignore"):
        # each kernel only over the elements it serves: s[k] = erf(a) where small, c[k] =
        # erfc(a) where big (double-doubles, zero elsewhere)
        s = _over(_erf_series, a, small)
        c = _over(_erfc_cf, a, big)
        one = _dd_scalar(1.0, a)
        if not complement:
            oc = _add(one, (-c[0], -c[1]))
            r = np.where(small, s[0] + s[1], np.where(big, oc[0] + oc[1], 1.0))
            # tiny |x|: erf(x) = x * 2/sqrt(pi), scaled clear of underflow
            tiny = a < 2.0 ** -100
            pt = _mul((np.ldexp(np.where(tiny, a, 0.0), 600), np.zeros_like(a)),
                      _dd_full(_TWO_OVER_SQRT_PI, a))
            r = np.where(tiny, np.ldexp(pt[0] + pt[1], -600), r)
            return np.where(np.isnan(x), x, np.copysign(r, x))
        pos_small = _add(one, (-s[0], -s[1]))
        neg_small = _add(one, s)
        neg_big = _add(_dd_scalar(2.0, a), (-c[0], -c[1]))
        r_small = np.where(neg, neg_small[0] + neg_small[1], pos_small[0] + pos_small[1])
        r_big = np.where(neg, neg_big[0] + neg_big[1], c[0] + c[1])
        r = np.where(small, r_small, np.where(big, r_big, np.where(neg, 2.0, 0.0)))
        return np.where(np.isnan(x), x, r)


def _over(kernel, a: F64, where: NDArray[np.bool_]) -> DD:
    """``kernel`` (a double-double function) of the elements of ``a`` at ``where``, zero at
    the others."""
    hi, lo = np.zeros_like(a), np.zeros_like(a)
    if where.any():
        part = kernel(a[where])
        hi[where], lo[where] = part
    return hi, lo
