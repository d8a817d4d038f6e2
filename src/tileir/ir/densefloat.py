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
   half-way point); other elements are left to ``format_float``.  A cheap necessary condition
   (``v * 10**s`` within half an ulp of an integer) first spares most elements this step.
3. The texts are laid out from those integers as one character matrix (a row per character
   position, every element at once), compacted into one string: the element list (split at
   newlines) or, for a dense attribute, the whole nested ``[[a, b], [c, d]]`` text.

Other float types have at most 2**19 distinct values: each distinct bit pattern is formatted once.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from .floatfmt import PRECISION_BITS, format_float

__all__ = ["format_float_elements", "format_float_nested", "nest_texts"]

_POW10 = np.array([10 ** i for i in range(19)], dtype=np.int64)
_LOG2_5 = float(np.log2(5.0))

def format_float_elements(flat: np.ndarray, element: str) -> list:
    """The text of each element of the 1-D array ``flat`` (storage dtype of ``element``), as
    ``format_float`` prints it."""
    n = flat.size
    if n == 0:
        return []
    if element in ("f32", "f64") and n >= 16:
        return _format_vectorized(flat, element)
    return _format_by_value(flat, element)


def format_float_nested(a: np.ndarray, element: str) -> str:
    """The nested element list of a dense attribute, ``[[1.0, 2.0], [3.0, 4.0]]``: the texts of
    ``format_float_elements`` joined with ``", "`` and bracketed per dimension, built in one
    piece for large ``f32``/``f64`` arrays (no per-element string objects)."""
    shape = a.shape
    n = a.size
    flat = a.reshape(-1)
    if element not in ("f32", "f64") or n < 16 or a.ndim == 0:
        return nest_texts(format_float_elements(flat, element), shape)
    layout = _float_layout(flat, element)
    text = layout.text(_separators(shape))
    if not layout.ready.all():
        pieces = text.split(chr(_UNDECIDED))
        late = [format_float(flat[i], element) for i in np.nonzero(~layout.ready)[0].tolist()]
        text = "".join(p for pair in zip(pieces, late + [""]) for p in pair)
    return "[" * a.ndim + text + "]" * a.ndim


def nest_texts(items: list, shape: tuple) -> str:
    """Row-major element texts grouped innermost dimension first: ``[[a, b], [c, d]]``."""
    for extent in reversed(shape):
        items = ["[" + ", ".join(items[i:i + extent]) + "]"
                 for i in range(0, len(items), extent)] if extent else ["[]"]
    return items[0]


def _separators(shape: tuple) -> np.ndarray:
    """What follows each element of a row-major nested list of ``shape``: ``"], ["`` with one
    bracket pair per dimension that ends there (nothing after the last element)."""
    n = int(np.prod(shape))
    ndim = len(shape)
    ends = np.zeros(n, dtype=np.int64)  # how many dimensions end at each element
    position = np.arange(1, n + 1)
    block = 1
    for extent in reversed(shape[1:]):
        block *= extent
        ends += position % block == 0
    tail = np.zeros((2 * ndim, n), dtype=np.uint8)
    for r in range(ndim - 1):
        tail[r] = (ends > r) * ord("]")
        tail[ndim + 1 + r] = (ends > r) * ord("[")
    tail[ndim - 1] = ord(",")
    tail[ndim] = ord(" ")
    tail[:, n - 1] = 0
    return tail


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
    ~106 bits, computed exactly once): ``(hi, lo, x, hi's Dekker halves)``."""
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
    his = np.array(his)
    return (his, np.array(los), np.array(xs, dtype=np.int64)) + _split(his)


_S = 400


def _scaled_floor_quick(v: np.ndarray, s: np.ndarray) -> tuple:
    """``floor(v * 10**s)`` with one rounded product (relative error below 2**-51):
    ``(value, unsure)``, unsure where that error could reach an integer (always, for products
    above ~2**48) or the product is out of range."""
    his, _, xs, _, _ = _pow10_table()
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
    his, los, xs, hhs, hls = _pow10_table()
    bad = (np.abs(s) > _S) | (v > 1e290) | (v < 1e-290)
    i = np.where(bad, _S, s + _S)
    hi, lo, x, hh, hl = his[i], los[i], xs[i], hhs[i], hls[i]
    # v * (hi + lo) = p + e exactly up to ~2**-104 (Dekker's TwoProduct, then the small term)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        p = v * hi
        vh, vl = _split(v)
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
        if required <= 46:
            quick, unsure = _scaled_floor_quick(v[inexact], (k - r)[inexact])
            sig_t[inexact] = quick
            redo = inexact[unsure]
        else:  # (sig_t above ~2**48: the one-product floor cannot decide any of them)
            redo = inexact
        if redo.size:
            sig_t[redo], bad = _scaled_floor(v[redo], (k - r)[redo])
            undecided[redo] |= bad
    expo = r - k
    # round half-up to `precision` digits
    d = _digits(sig_t)
    drop = np.maximum(d - precision, 0)
    has_drop = drop > 0
    kept = sig_t // _POW10[np.maximum(drop - 1, 0)]  # (one more digit than q where dropping)
    q = np.where(has_drop, kept // 10, sig_t)
    rd = np.where(has_drop, kept % 10, 0)
    q = q + (rd >= 5)
    expo = expo + drop
    carry = q == _POW10[precision]
    q = np.where(carry, _POW10[precision - 1], q)
    expo = expo + carry
    rows = np.nonzero((q % 10 == 0) & (q != 0))[0]
    while rows.size:  # drop trailing zeros, on the ever fewer elements that still have one
        q[rows] //= 10
        expo[rows] += 1
        rows = rows[q[rows] % 10 == 0]
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


def _may_read_back_six(v: np.ndarray, element: str) -> np.ndarray:
    """False where no decimal of six significant digits can read back to ``v`` (> 0, finite):
    a cheap necessary condition that spares most elements the exact six-digit step.

    A decimal ``d`` reads back to ``v`` only within half an ulp of it, so ``v * 10**s`` (``s``
    putting six digits before the point) is within ``v * 10**s * 2**-p`` of an integer; the
    float products below are off by a few ``2**-52`` relative at most, far inside the margin.
    Subnormals (larger relative half-ulps) and products out of range are always kept."""
    bits = 24 if element == "f32" else 53
    tiny = np.finfo(np.float32 if element == "f32" else np.float64).tiny
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        scale = 5.0 - np.floor(np.log10(v))
        p = v * np.power(10.0, scale)
        # log10 rounded up across a power of ten: six digits sit one decade further right
        p = np.where(p < 1e5, p * 10.0, p)
        tol = p * (2.0 ** -bits * 1.01) + 1e-8
        frac = p - np.floor(p)
        near = (frac <= tol) | (frac >= 1.0 - tol)
    return near | ~np.isfinite(p) | (v < tiny) | (np.abs(scale) > 300)


_SEQ = 21  # the longest digit sequence: three leading zeros and 17 digits (+1 spare)
_BODY = _SEQ + 1  # the sequence with its point
_EXP = 5  # "E", the sign and up to three digits
_UNDECIDED = 1  # the character standing for an element left to ``format_float``


class _Layout:
    """How each element's text is laid out from integers (filled per kind, rendered at once):

    ``[-]`` then a digit sequence (``lead`` zeros, then the ``ndigits`` digits of ``value``) with
    a ``.`` after its first ``point`` characters, then, if ``echar`` is set, ``echar``, the
    exponent's sign and at least ``emin`` digits of it.  Rows not ``ready`` render as one
    ``_UNDECIDED`` character."""

    def __init__(self, n: int, neg: np.ndarray):
        self.neg = neg
        self.value = np.zeros(n, dtype=np.int64)
        self.ndigits = np.ones(n, dtype=np.int64)
        self.lead = np.zeros(n, dtype=np.int64)
        self.point = np.ones(n, dtype=np.int64)
        self.echar = np.zeros(n, dtype=np.uint8)
        self.expo = np.zeros(n, dtype=np.int64)
        self.emin = np.ones(n, dtype=np.int64)
        self.ready = np.zeros(n, dtype=bool)

    def set(self, rows, value, ndigits, point, *, lead=0, echar: str = "", expo=0,
            emin: int = 1) -> None:
        self.value[rows] = value
        self.ndigits[rows] = ndigits
        self.lead[rows] = lead
        self.point[rows] = point
        self.echar[rows] = ord(echar) if echar else 0
        self.expo[rows] = expo
        self.emin[rows] = emin
        self.ready[rows] = True

    def _digit_rows(self) -> np.ndarray:
        """The digit sequences, one row per character position: ``(_SEQ, n)`` characters, 0
        past each sequence's end."""
        n = self.value.size
        seq = np.zeros((_SEQ, n), dtype=np.uint8)
        # the value's digits, left-aligned in 17 rows (two uint32 halves: fast division)
        left = self.value * _POW10[17 - self.ndigits]
        high = (left // 10 ** 9).astype(np.uint32)
        low = (left - high.astype(np.int64) * 10 ** 9).astype(np.uint32)
        ten = np.uint32(10)
        for first, count, x in ((0, 8, high), (8, 9, low)):
            for j in range(first + count - 1, first - 1, -1):
                quotient = x // ten
                seq[j] = x - quotient * ten
                x = quotient
        seq[:17] += ord("0")
        for z in range(1, 4):  # leading zeros: shift those sequences right
            rows = np.nonzero(self.lead == z)[0]
            if rows.size:
                for j in range(_SEQ - 1, z - 1, -1):
                    seq[j][rows] = seq[j - z][rows]
                for j in range(z):
                    seq[j][rows] = ord("0")
        length = (self.lead + self.ndigits).astype(np.uint8)
        for j in range(1, _SEQ):
            seq[j] *= length > j
        return seq

    def text(self, tail: np.ndarray) -> str:
        """The texts, each followed by its ``tail`` characters (a ``(k, n)`` array, 0 = none).

        Built as one character matrix, a row per character position (0 where a text is
        shorter), transposed once and compacted: no per-element Python work."""
        n = self.value.size
        chars = np.zeros((1 + _BODY + _EXP + tail.shape[0], n), dtype=np.uint8)
        sign, body, exp = chars[0], chars[1:1 + _BODY], chars[1 + _BODY:1 + _BODY + _EXP]
        chars[1 + _BODY + _EXP:] = tail
        sign[:] = self.neg * ord("-")
        # the point after `point` characters: positions before it as they are, after it shifted
        seq = self._digit_rows()
        body[1:] = seq
        for c in range(int(self.point.max())):
            rows = np.nonzero(self.point > c)[0]
            body[c][rows] = seq[c][rows]
        body.reshape(-1)[self.point * n + np.arange(n)] = ord(".")
        has_exp = self.echar != 0
        if has_exp.any():
            mag = np.abs(self.expo).astype(np.int32)
            exp[0] = self.echar
            exp[1] = np.where(self.expo < 0, ord("-"), ord("+")) * has_exp
            exp[2] = (mag // 100 + ord("0")) * (has_exp & (mag >= 100))
            exp[3] = (mag // 10 % 10 + ord("0")) * (has_exp & ((mag >= 10) | (self.emin >= 2)))
            exp[4] = (mag % 10 + ord("0")) * has_exp
        if not self.ready.all():
            unready = ~self.ready
            body[:, unready] = 0
            exp[:, unready] = 0
            sign[unready] = _UNDECIDED
        flat = chars.T.reshape(-1)
        return flat[flat != 0].tobytes().decode("ascii")


def _format_vectorized(flat: np.ndarray, element: str) -> list:
    layout = _float_layout(flat, element)
    texts = layout.text(np.full((1, flat.size), ord("\n"), dtype=np.uint8)).split("\n")
    texts.pop()  # (after the last newline)
    for i in np.nonzero(~layout.ready)[0].tolist():
        texts[i] = format_float(flat[i], element)
    return texts


def _float_layout(flat: np.ndarray, element: str) -> _Layout:
    """The layout of every ``f32``/``f64`` element's text; elements it cannot decide (and
    infinities, NaNs and texts printed in hex) are left not ``ready``."""
    n = flat.size
    neg = np.signbit(flat)
    with np.errstate(invalid="ignore"):
        v = np.abs(flat.astype(np.float64))
    layout = _Layout(n, neg)
    # zeros: "0.000000e+00" (toString(6, 0, false) reads back exactly)
    layout.set(np.nonzero(v == 0)[0], 0, 7, 1, echar="e", emin=2)
    idx = np.nonzero(np.isfinite(v) & (v != 0))[0]
    if idx.size:
        vv = v[idx]
        m, ex = np.frexp(vv)
        mant_bits = 24 if element == "f32" else 53
        M = (m * 2.0 ** mant_bits).astype(np.int64)
        E = ex.astype(np.int64) - mant_bits
        tz = np.frexp((M & -M).astype(np.float64))[1].astype(np.int64) - 1
        M = M >> tz
        E = E + tz
        # step 1: six digits, if they read back
        six = np.nonzero(_may_read_back_six(vv, element))[0]
        good = six[:0]
        if six.size:
            und = np.zeros(six.size, dtype=bool)
            q, e = _apfloat_digits(vv[six], M[six], E[six], 6, und)
            ok = np.nonzero(_reads_back(q, e, vv[six], element, und) & ~und)[0]
            good = six[ok]
            undecided_six = six[und]
            q, e = q[ok], e[ok]
            nd = _digits(q)
            # "d.ddddd" and a padding zero: seven digits
            layout.set(idx[good], q * _POW10[7 - nd], 7, 1, echar="e", expo=e + nd - 1, emin=2)
        else:
            undecided_six = six
        # step 2: APFloat's default precision (undecided six-digit elements: format_float)
        rest = np.ones(idx.size, dtype=bool)
        rest[good] = False
        rest[undecided_six] = False
        sub = np.nonzero(rest)[0]
        if sub.size:
            _step2(layout, idx[sub], vv[sub], M[sub], E[sub], element)
    return layout


def _step2(layout: _Layout, gi, vv, M, E, element: str) -> None:
    """APFloat ``toString()`` (default precision) for the elements ``gi``; those that need
    ``format_float`` (undecided, or no ``.`` in the text: printed as hex) are left unset."""
    prec = 2 + PRECISION_BITS[element] * 59 // 196
    und = np.zeros(gi.size, dtype=bool)
    q, e = _apfloat_digits(vv, M, E, prec, und)
    ok = ~und
    nd = _digits(q)
    whole = e + nd
    sci = np.where(e >= 0, (e > 3) | (nd + e > prec), (whole <= 0) & (1 - whole > 3))
    pick = np.nonzero(ok & sci)[0]  # "d.dddE+X" ("d.0E+X" for one digit)
    one = nd[pick] == 1
    layout.set(gi[pick], np.where(one, q[pick] * 10, q[pick]), np.where(one, 2, nd[pick]), 1,
               echar="E", expo=e[pick] + nd[pick] - 1)
    pick = np.nonzero(ok & ~sci & (e < 0) & (whole > 0))[0]  # "ddd.ddd"
    layout.set(gi[pick], q[pick], nd[pick], whole[pick])
    pick = np.nonzero(ok & ~sci & (e < 0) & (whole <= 0))[0]  # "0.000ddd"
    layout.set(gi[pick], q[pick], nd[pick], 1, lead=1 - whole[pick])
    # (not scientific and e >= 0: no '.', printed as hex by format_float)
