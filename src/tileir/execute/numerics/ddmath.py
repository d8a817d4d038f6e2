"""Double-double kernels for f64 math functions that need better than libm accuracy.

A double-double is an unevaluated sum ``hi + lo`` of two float64 arrays with ``|lo| <= ulp(hi)/2``
(about 106 significant bits). Only what the f64 ``tanh`` (spec: 1 ulp in ``full`` mode) needs is
here: addition, multiplication, division and ``exp`` on a bounded range.
"""
from __future__ import annotations

from fractions import Fraction
from math import factorial

import numpy as np
from numpy.typing import NDArray

from .eft import two_prod, two_sum

__all__ = ["tanh64"]

F64 = NDArray[np.float64]
DD = tuple[F64, F64]


def _const(q: Fraction) -> tuple[float, float]:
    hi = float(q)
    return hi, float(q - Fraction(hi))


_LN2 = _const(Fraction("0.693147180559945309417232121458176568075500134360255254120680009493393"))
_TAYLOR = 10                                     # exp(r) for |r| <= 2**-9: error < 2**-110
_INV_FACT = [_const(Fraction(1, factorial(i))) for i in range(_TAYLOR + 1)]
_SQUARINGS = 8


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
    """exp(y) as a double-double for ``-64 <= y <= 0`` (relative error about 2**-100)."""
    k = np.rint(y / _LN2[0])
    p, pe = two_prod(k, np.full_like(k, _LN2[0]))
    s, se = two_sum(y, -p)
    r = _norm(s, se - pe - k * _LN2[1])
    r = (np.ldexp(r[0], -_SQUARINGS), np.ldexp(r[1], -_SQUARINGS))
    acc: DD = (np.full_like(y, _INV_FACT[_TAYLOR][0]), np.full_like(y, _INV_FACT[_TAYLOR][1]))
    for i in range(_TAYLOR - 1, -1, -1):
        c = _INV_FACT[i]
        acc = _add(_mul(acc, r), (np.full_like(y, c[0]), np.full_like(y, c[1])))
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
