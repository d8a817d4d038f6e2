"""Printing many float elements at once, with exactly the text :func:`floatfmt.format_float`
gives for each (MLIR's ``printFloatValue``), at array speed.

``format_float`` follows APFloat digit by digit with Python integers (~18 µs per element).  For
``f32`` and ``f64`` arrays this module computes the same digits with NumPy:

1. APFloat's ``toString`` keeps ``sig = |v| * 10**k`` (an integer), drops ``r`` decimal digits by
   a *truncating* division chosen from ``sig``'s bit length, then rounds half-up to the wanted
   number of digits.  The bit length of ``M * 5**k`` comes from logarithms and the truncated
   quotient ``floor(|v| * 10**(k - r))`` exactly with 64-bit integers when ``sig`` fits, else
   from one rounded product, or a double-double one (~104 bits) where that cannot decide; an
   element whose logarithm or product is still too close to an integer is left to
   ``format_float``.
2. Whether the six-digit text reads back to the same bits (one correct rounding from decimal)
   is decided exactly where Clinger's fast path applies (``q * 10**e`` with ``|e| <= 22``: one
   correctly rounded double operation, plus a check that the double is not an ``f32``
   half-way point); other elements are left to ``format_float``.
3. The texts are laid out from the integer digits by one ``%``-format call per layout.

Other float types have at most 2**19 distinct values: each distinct bit pattern is formatted once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from .floatfmt import PRECISION_BITS, format_float

__all__ = ["format_float_elements"]

_POW10 = np.array([10 ** i for i in range(19)], dtype=np.int64)
_LOG2_5 = float(np.log2(5.0))

#: templates of the element texts, laid out with ``%`` from integers (exact at any precision)
_SCI6 = "%s%d.%05d0e%+03d"     # "d.ddddd" + "0e+XX": APFloat toString(6, 0, false)
_SCI = "%s%d.%0*dE%+d"         # "d.dddE+X": APFloat toString() in scientific notation
_SCI1 = "%s%d.0E%+d"           # one digit: "d.0E+X"
_PLAIN = "%s%d.%0*d"           # "ddd.ddd"
_PLAIN0 = "%s0.%0*d"           # "0.000ddd"
_SEP = "\x00"


def _signs(neg: np.ndarray) -> list:
    return np.where(neg, "-", "").tolist()


def _layout(out: np.ndarray, where: np.ndarray, template: str, *columns) -> None:
    """``out[where] = template % (column values)``, for all of ``where`` in one format call."""
    n = where.size
    if not n:
        return
    if len(columns) == 1:
        flat = columns[0]
    else:
        flat = [None] * (n * len(columns))
        for j, col in enumerate(columns):
            flat[j::len(columns)] = col
    out[where] = ((template + _SEP) * n % tuple(flat)).split(_SEP)[:n]


def format_float_elements(flat: np.ndarray, element: str) -> list:
    """The text of each element of the 1-D array ``flat`` (storage dtype of ``element``), as
    ``format_float`` prints it."""
    n = flat.size
    if n == 0:
        return []
    if element in ("f32", "f64") and n >= 16:
        return _format_vectorized(flat, element)
    return _format_by_value(flat, element)


def _format_by_value(flat: np.ndarray, element: str) -> list:
    """Format each distinct bit pattern once (the narrow formats, and small arrays)."""
    raw = np.ascontiguousarray(flat).view(np.uint8).reshape(flat.size, -1)
    if raw.shape[1] == 1:
        keys = raw[:, 0]
    elif raw.shape[1] == 2:
        keys = raw.view(np.uint16)[:, 0]
    elif raw.shape[1] == 4:
        keys = raw.view(np.uint32)[:, 0]
    else:
        keys = raw.view(np.uint64)[:, 0]
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    texts = np.array([format_float(flat[i], element) for i in first.tolist()], dtype=object)
    return texts[inverse.reshape(-1)].tolist()


def _digits(x: np.ndarray) -> np.ndarray:
    """Number of decimal digits of each non-negative int64 (0 has 1)."""
    return np.searchsorted(_POW10, x, side="right").astype(np.int64)


_SPLITTER = 134217729.0  # 2**27 + 1 (Dekker's split of a double into two 26-bit halves)


def _split(a: np.ndarray) -> tuple:
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


@lru_cache(maxsize=1)
def _pow10_table() -> tuple:
    """``10**s = (hi + lo) * 2**x`` for ``s`` in ``[-_S, _S]``, ``hi`` in [1, 2) (double-double,
    ~106 bits, computed exactly once)."""
    his, los, xs = [], [], []
    for s in range(-_S, _S + 1):
        value = Fraction(10) ** s
        x = value.numerator.bit_length() - value.denominator.bit_length()
        if Fraction(2) ** x > value:
            x -= 1
        mant = value / Fraction(2) ** x
        hi = float(mant)
        his.append(hi)
        los.append(float(mant - Fraction(hi)))
        xs.append(x)
    return np.array(his), np.array(los), np.array(xs, dtype=np.int64)


_S = 400


def _scaled_floor_quick(v: np.ndarray, s: np.ndarray) -> tuple:
    """``floor(v * 10**s)`` with one rounded product (relative error below 2**-51):
    ``(value, unsure)``, unsure where that error could reach an integer (always, for products
    above ~2**48) or the product is out of range."""
    his, _, xs = _pow10_table()
    bad = np.abs(s) > _S
    i = np.where(bad, _S, s + _S)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        p = np.ldexp(v * his[i], xs[i])
        bad |= ~np.isfinite(p) | (p >= 2.0 ** 62) | (p < 2.0 ** -900)
        p = np.where(bad, 0.0, p)
        fl = np.floor(p)
        frac = p - fl
        margin = p * 2.0 ** -49
    bad |= (frac <= margin) | (frac >= 1 - margin)
    return fl.astype(np.int64), bad


def _scaled_floor(v: np.ndarray, s: np.ndarray) -> tuple:
    """``floor(v * 10**s)`` (below 2**62) in double-double arithmetic: ``(value, undecided)``,
    undecided where the product is out of range or too close to an integer to tell."""
    his, los, xs = _pow10_table()
    bad = (np.abs(s) > _S) | (v > 1e290) | (v < 1e-290)
    i = np.where(bad, _S, s + _S)
    hi, lo, x = his[i], los[i], xs[i]
    # v * (hi + lo) = p + e exactly up to ~2**-104 (Dekker's TwoProduct, then the small term)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        p = v * hi
        vh, vl = _split(v)
        hh, hl = _split(hi)
        e = ((vh * hh - p) + vh * hl + vl * hh) + vl * hl + v * lo
        p = np.ldexp(p, x)
        e = np.ldexp(e, x)
        bad |= ~np.isfinite(p) | (p >= 2.0 ** 62)
        p = np.where(bad, 0.0, p)
        e = np.where(bad, 0.0, e)
        fl = np.floor(p)
        rem = (p - fl) + e
        rf = np.floor(rem)
        frac = rem - rf
    bad |= (frac < 1e-6) | (frac > 1 - 1e-6)
    return fl.astype(np.int64) + rf.astype(np.int64), bad


def _apfloat_digits(v: np.ndarray, M: np.ndarray, E: np.ndarray, precision: int,
                    undecided: np.ndarray) -> tuple:
    """APFloat ``toString``'s digits of ``v = M * 2**E`` (``M`` odd, ``v`` > 0): ``(q, expo)``
    with ``v ~ q * 10**expo``, ``q`` at most ``precision`` digits, trailing zeros removed.
    Elements double precision cannot decide are set in ``undecided``."""
    k = np.where(E < 0, -E, 0)
    mbits = np.frexp(M.astype(np.float64))[1].astype(np.int64)
    # bit length of sig = M * 2**E (E >= 0) or M * 5**k
    log2sig = np.log2(M.astype(np.float64)) + k * _LOG2_5
    fl = np.floor(log2sig)
    frac = log2sig - fl
    bits = np.where(E >= 0, mbits + E, fl.astype(np.int64) + 1)
    undecided |= (E < 0) & ((frac < 1e-9) | (frac > 1 - 1e-9))
    required = (precision * 196 + 58) // 59
    r = np.where(bits > required, (bits - required) * 59 // 196, 0)
    # sig_t = floor(sig / 10**r): exactly with int64 when sig < 2**63
    exact = bits <= 62
    sig_t = np.zeros(v.shape, dtype=np.int64)
    if exact.any():
        Mx, Ex, kx, rx = M[exact], E[exact], k[exact], r[exact]
        sig = np.where(Ex >= 0, Mx << np.maximum(Ex, 0), Mx * (5 ** np.minimum(kx, 27)))
        sig_t[exact] = sig // _POW10[np.minimum(rx, 18)]
    inexact = np.nonzero(~exact)[0]
    if inexact.size:
        quick, unsure = _scaled_floor_quick(v[inexact], (k - r)[inexact])
        sig_t[inexact] = quick
        redo = inexact[unsure]
        if redo.size:
            sig_t[redo], bad = _scaled_floor(v[redo], (k - r)[redo])
            undecided[redo] |= bad
    expo = r - k
    # round half-up to `precision` digits
    d = _digits(sig_t)
    drop = np.maximum(d - precision, 0)
    has_drop = drop > 0
    q = np.where(has_drop, sig_t // _POW10[drop], sig_t)
    rd = np.where(has_drop, (sig_t // _POW10[np.maximum(drop - 1, 0)]) % 10, 0)
    q = q + (rd >= 5)
    expo = expo + drop
    carry = q == _POW10[precision]
    q = np.where(carry, _POW10[precision - 1], q)
    expo = expo + carry
    for _ in range(precision):
        z = (q % 10 == 0) & (q != 0)
        if not z.any():
            break
        q = np.where(z, q // 10, q)
        expo = expo + z
    return q, expo


def _reads_back(q: np.ndarray, expo: np.ndarray, v: np.ndarray, element: str,
                undecided: np.ndarray) -> np.ndarray:
    """Whether the decimal ``q * 10**expo`` rounds (once, to nearest even) to ``v`` in
    ``element``; elements outside Clinger's fast path go to ``undecided``."""
    fast = (np.abs(expo) <= 22) & (q < 2 ** 53)
    undecided |= ~fast
    e = np.where(fast, expo, 0)
    qf = q.astype(np.float64)
    p = np.power(10.0, np.abs(e).astype(np.float64))
    with np.errstate(over="ignore", under="ignore"):
        y = np.where(e >= 0, qf * p, qf / p)  # correctly rounded: exact operands
    if element == "f64":
        return fast & (y == v)
    with np.errstate(over="ignore"):
        y32 = y.astype(np.float32)
    # a double that is exactly half-way between two floats rounds twice: decide it exactly
    toward = np.where(y > y32.astype(np.float64), np.float32(np.inf), np.float32(0.0))
    other = np.nextafter(y32, toward.astype(np.float32))
    mid = (y32.astype(np.float64) + other.astype(np.float64)) / 2
    undecided |= fast & (y != y32.astype(np.float64)) & (y == mid)
    return fast & (y32.astype(np.float64) == v)


def _format_vectorized(flat: np.ndarray, element: str) -> list:
    n = flat.size
    neg = np.signbit(flat)
    with np.errstate(invalid="ignore"):
        v = np.abs(flat.astype(np.float64))
    nonzero = np.isfinite(v) & (v != 0)
    out = np.empty(n, dtype=object)
    done = np.zeros(n, dtype=bool)  # (what is left, non-finite included: format_float)
    sign = np.where(neg, -1.0, 1.0)
    # zeros: "0.000000e+00" (toString(6, 0, false) reads back exactly)
    zero = np.nonzero(v == 0)[0]
    out[zero] = np.where(neg[zero], "-0.000000e+00", "0.000000e+00").tolist()
    done[zero] = True
    idx = np.nonzero(nonzero)[0]
    if idx.size:
        vv = v[idx]
        s_idx = sign[idx]
        m, ex = np.frexp(vv)
        mant_bits = 24 if element == "f32" else 53
        M = (m * 2.0 ** mant_bits).astype(np.int64)
        E = ex.astype(np.int64) - mant_bits
        tz = np.frexp((M & -M).astype(np.float64))[1].astype(np.int64) - 1
        M = M >> tz
        E = E + tz
        und = np.zeros(idx.size, dtype=bool)
        # step 1: six digits, if they read back
        q6, e6 = _apfloat_digits(vv, M, E, 6, und)
        good = np.nonzero(_reads_back(q6, e6, vv, element, und) & ~und)[0]
        if good.size:
            q, e = q6[good], e6[good]
            nd = _digits(q)
            q6n = q * _POW10[6 - nd]  # six digits: "d.ddddd" (then a padding zero)
            _layout(out, idx[good], _SCI6, _signs(neg[idx[good]]), (q6n // 100000).tolist(),
                    (q6n % 100000).tolist(), (e + nd - 1).tolist())
            done[idx[good]] = True
        # step 2: APFloat's default precision
        rest = np.ones(idx.size, dtype=bool)
        rest[good] = False
        sub = np.nonzero(rest & ~und)[0]
        if sub.size:
            _step2(out, done, idx[sub], vv[sub], M[sub], E[sub], s_idx[sub], element)
    left = np.nonzero(~done)[0]
    if left.size:
        out[left] = [format_float(flat[i], element) for i in left.tolist()]
    return out.tolist()


def _step2(out, done, gi, vv, M, E, s, element: str) -> None:
    """APFloat ``toString()`` (default precision) for the elements ``gi``; those that need
    ``format_float`` (undecided, or no ``.`` in the text: printed as hex) are left undone."""
    prec = 2 + PRECISION_BITS[element] * 59 // 196
    und = np.zeros(gi.size, dtype=bool)
    q, e = _apfloat_digits(vv, M, E, prec, und)
    ok = ~und
    nd = _digits(q)
    whole = e + nd
    sci = np.where(e >= 0, (e > 3) | (nd + e > prec), (whole <= 0) & (1 - whole > 3))
    signs = np.where(s < 0, "-", "")
    for template, pick in ((_SCI, ok & sci & (nd > 1)), (_SCI1, ok & sci & (nd == 1)),
                           (_PLAIN, ok & ~sci & (e < 0) & (whole > 0)),
                           (_PLAIN0, ok & ~sci & (e < 0) & (whole <= 0))):
        pick = np.nonzero(pick)[0]
        if not pick.size:
            continue
        qq, ee, nn = q[pick], e[pick], nd[pick]
        if template is _SCI:
            cols = ((qq // _POW10[nn - 1]).tolist(), (nn - 1).tolist(),
                    (qq % _POW10[nn - 1]).tolist(), (ee + nn - 1).tolist())
        elif template is _SCI1:
            cols = (qq.tolist(), ee.tolist())
        elif template is _PLAIN:
            cols = ((qq // _POW10[-ee]).tolist(), (-ee).tolist(), (qq % _POW10[-ee]).tolist())
        else:
            cols = ((-ee).tolist(), qq.tolist())
        _layout(out, gi[pick], template, signs[pick].tolist(), *cols)
        done[gi[pick]] = True
    # (not scientific and e >= 0: no '.', printed as hex by format_float)
