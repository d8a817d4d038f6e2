"""Integer and bitwise ops of §8.8 / §8.9 on signless integers.

Operands are arrays in element storage (``i1`` bool, ``i4`` ml_dtypes.int4, ``iN`` signed NumPy
ints); ``elem`` names the type and ``signed`` says how an op that cares reads its operands.
Arithmetic wraps around modulo ``2**width`` (the ``overflow`` attribute only states assumptions;
violating them is undefined, and we wrap). ``i1`` follows §8.8.1: unsigned ops see 0/1, signed
ops see 0/-1, results are canonical bools.

Deterministic choices where the spec says "undefined":

* ``divi`` by zero: the all-ones pattern (-1 signed, ``2**n - 1`` unsigned), every rounding mode.
* ``divi`` signed ``INT_MIN / -1``: ``INT_MIN`` (the true quotient ``2**(n-1)`` wrapped).
* ``remi`` by zero: the dividend (so ``a == q*b + r`` still holds with ``q`` above);
  ``remi(INT_MIN, -1) = 0``.
* ``shli``/``shri`` by an amount >= width (the amount is read unsigned): ``shli`` and unsigned
  ``shri`` give 0, signed ``shri`` gives the sign fill (0 or -1), as PTX clamps shift amounts.
"""
from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._quiet import quiet
from .dtypes import bitwidth, from_integer, numpy_dtype, to_signed, to_unsigned
from .predicates import compare

__all__ = ["addi", "subi", "muli", "negi", "divi", "remi", "mulhii", "shli", "shri", "absi",
           "maxi", "mini", "cmpi", "andi", "ori", "xori"]

_U = np.uint64
_ALL_ONES = _U(0xFFFFFFFFFFFFFFFF)


def _wrap(fn, *xs: ArrayLike, elem: str) -> NDArray:
    return from_integer(fn(*(to_unsigned(x, elem) for x in xs)), elem)


@quiet
def addi(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """``lhs + rhs`` modulo ``2**width``."""
    return _wrap(np.add, lhs, rhs, elem=elem)


@quiet
def subi(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """``lhs - rhs`` modulo ``2**width``."""
    return _wrap(np.subtract, lhs, rhs, elem=elem)


@quiet
def muli(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """Low ``width`` bits of ``lhs * rhs`` (same for signed and unsigned)."""
    return _wrap(np.multiply, lhs, rhs, elem=elem)


@quiet
def negi(x: ArrayLike, elem: str) -> NDArray:
    """``-x`` modulo ``2**width`` (``negi(INT_MIN) = INT_MIN``)."""
    return _wrap(lambda u: _U(0) - u, x, elem=elem)


@quiet
def absi(x: ArrayLike, elem: str) -> NDArray:
    """``|x|`` of ``x`` read signed, result read unsigned (``absi(INT_MIN) = 2**(n-1)``)."""
    s = to_signed(x, elem)
    u = s.view(_U)
    return from_integer(np.where(s < 0, _U(0) - u, u), elem)


@quiet
def divi(lhs: ArrayLike, rhs: ArrayLike, elem: str, signed: bool,
         rounding: str = "zero") -> NDArray:
    """Integer division rounded ``zero`` (default), ``positive_inf`` (ceil) or ``negative_inf``
    (floor; signed only). Undefined cases: see the module docstring."""
    if rounding not in ("zero", "positive_inf", "negative_inf"):
        raise ValueError(f"divi: unsupported rounding {rounding!r}")
    if rounding == "negative_inf" and not signed:
        raise ValueError("divi: negative_inf rounding is not valid with unsigned")
    pair = _scalar_pair(lhs, rhs, elem, signed)
    if pair is not None:            # (one element each: Python ints, ~5x fewer steps)
        (a, b), shape = pair
        return _wrap_int(_divide(a, b, signed, rounding), shape, elem)
    plain = _natural_pair(lhs, rhs, elem)
    if plain is not None:           # (no sign, zero or overflow to care about: one step)
        a, b = plain
        q = np.floor_divide(a, b)
        if rounding == "positive_inf":
            q += (a - q * b) != 0
        return q
    if signed:
        a, b = to_signed(lhs, elem), to_signed(rhs, elem)
        zero = b == 0
        ovf = (a == np.iinfo(np.int64).min) & (b == -1)     # only reachable for i64
        bs = np.where(zero | ovf, 1, b)
        q = np.floor_divide(a, bs)
        inexact = (a - q * bs) != 0
        if rounding == "zero":
            q = q + (inexact & ((a < 0) != (bs < 0)))
        elif rounding == "positive_inf":
            q = q + inexact
        q = np.where(zero, -1, np.where(ovf, a, q))
        return from_integer(q, elem)
    a, b = to_unsigned(lhs, elem), to_unsigned(rhs, elem)
    zero = b == 0
    bs = np.where(zero, _U(1), b)
    q = a // bs
    if rounding == "positive_inf":
        q = q + (a % bs != 0).astype(_U)
    return from_integer(np.where(zero, _ALL_ONES, q), elem)


@quiet
def remi(lhs: ArrayLike, rhs: ArrayLike, elem: str, signed: bool) -> NDArray:
    """Remainder of truncated division; signed results take the sign of ``lhs``."""
    pair = _scalar_pair(lhs, rhs, elem, signed)
    if pair is not None:
        (a, b), shape = pair
        if b == 0:
            r = a
        else:
            r = abs(a) % abs(b)
            r = -r if a < 0 else r
        return _wrap_int(r, shape, elem)
    plain = _natural_pair(lhs, rhs, elem)
    if plain is not None:
        return np.remainder(*plain)
    if signed:
        a, b = to_signed(lhs, elem), to_signed(rhs, elem)
        trivial = (b == 0) | (b == -1)
        r = np.fmod(a, np.where(trivial, 1, b))
    else:
        a, b = to_unsigned(lhs, elem), to_unsigned(rhs, elem)
        r = a % np.where(b == 0, _U(1), b)
    return from_integer(np.where(b == 0, a, r), elem)


#: widths whose storage is a native NumPy integer (the scalar path reads them with int())
_NATIVE_WIDTHS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}


def _scalar_pair(lhs: ArrayLike, rhs: ArrayLike, elem: str, signed: bool):
    """``((a, b), shape)``: the operands as Python ints read ``signed`` or unsigned, and the
    result's shape, when both hold one element of a native-width type; else None."""
    n = _NATIVE_WIDTHS.get(elem)
    if n is None or np.size(lhs) != 1 or np.size(rhs) != 1:
        return None
    a, b = int(np.asarray(lhs).reshape(-1)[0]), int(np.asarray(rhs).reshape(-1)[0])
    if not signed:
        mask = (1 << n) - 1
        a, b = a & mask, b & mask
    sa, sb = np.shape(lhs), np.shape(rhs)
    return (a, b), sa if sa == sb else np.broadcast_shapes(sa, sb)


def _natural_pair(lhs: ArrayLike, rhs: ArrayLike, elem: str):
    """The operands as they are (arrays of ``elem``'s native storage) when every dividend is
    non-negative and every divisor positive, read signed: then the unsigned reading is the
    same, truncating division is NumPy's floor division, and nothing overflows (block ids
    divided by tile counts).  None otherwise, or for other widths."""
    dt = _NATIVE_DTYPES.get(elem)
    if dt is None or type(lhs) is not np.ndarray or type(rhs) is not np.ndarray or \
            lhs.dtype != dt or rhs.dtype != dt or not lhs.size or not rhs.size:
        return None
    if np.minimum.reduce(lhs, axis=None) < 0 or np.minimum.reduce(rhs, axis=None) <= 0:
        return None
    return lhs, rhs


_NATIVE_DTYPES = {e: numpy_dtype(e) for e in _NATIVE_WIDTHS}


def _divide(a: int, b: int, signed: bool, rounding: str) -> int:
    """The quotient of :func:`divi` on Python ints (before wrapping to the width)."""
    if b == 0:
        return -1                   # (all ones, either reading)
    if signed and b == -1 and a == -(1 << 63):
        return a                    # INT64_MIN / -1 (narrower widths wrap the true quotient)
    if rounding == "negative_inf":
        return a // b
    if rounding == "positive_inf":
        return -((-a) // b)
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def _wrap_int(v: int, shape: tuple, elem: str) -> NDArray:
    """``v`` wrapped modulo ``2**width`` into ``elem``'s (signed) storage, as an array of
    ``shape`` (native widths)."""
    n = _NATIVE_WIDTHS[elem]
    v &= (1 << n) - 1
    if v >= 1 << (n - 1):
        v -= 1 << n
    return np.full(shape, v, dtype=numpy_dtype(elem))


@quiet
def mulhii(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """High ``width`` bits of the ``2*width``-bit product of ``lhs`` and ``rhs`` read unsigned
    (the spec defines mulhii for unsigned integers only)."""
    n = bitwidth(elem)
    a, b = to_unsigned(lhs, elem), to_unsigned(rhs, elem)
    if n <= 32:
        return from_integer((a * b) >> _U(n), elem)
    m32, s32 = _U(0xFFFFFFFF), _U(32)
    al, ah, bl, bh = a & m32, a >> s32, b & m32, b >> s32
    lh, hl = al * bh, ah * bl
    mid = ((al * bl) >> s32) + (lh & m32) + (hl & m32)
    return from_integer(ah * bh + (lh >> s32) + (hl >> s32) + (mid >> s32), elem)


def _amount(rhs: ArrayLike, elem: str) -> tuple[NDArray[np.bool_], NDArray[np.uint64]]:
    sh = to_unsigned(rhs, elem)
    return sh >= _U(bitwidth(elem)), np.minimum(sh, _U(63))


@quiet
def shli(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """``lhs << rhs`` (zero fill; ``rhs`` unsigned; amounts >= width give 0)."""
    big, sh = _amount(rhs, elem)
    return from_integer(np.where(big, _U(0), to_unsigned(lhs, elem) << sh), elem)


@quiet
def shri(lhs: ArrayLike, rhs: ArrayLike, elem: str, signed: bool) -> NDArray:
    """``lhs >> rhs``: sign fill when ``signed``, zero fill otherwise (``rhs`` unsigned;
    amounts >= width give the fill)."""
    big, sh = _amount(rhs, elem)
    if signed:
        return from_integer(to_signed(lhs, elem) >> sh.astype(np.int64), elem)
    return from_integer(np.where(big, _U(0), to_unsigned(lhs, elem) >> sh), elem)


def _read(x: ArrayLike, elem: str, signed: bool) -> NDArray:
    return to_signed(x, elem) if signed else to_unsigned(x, elem)


@quiet
def maxi(lhs: ArrayLike, rhs: ArrayLike, elem: str, signed: bool) -> NDArray:
    """Larger of ``lhs`` and ``rhs`` read ``signed`` or unsigned."""
    a, b = _read(lhs, elem, signed), _read(rhs, elem, signed)
    return from_integer(np.maximum(a, b), elem)


@quiet
def mini(lhs: ArrayLike, rhs: ArrayLike, elem: str, signed: bool) -> NDArray:
    """Smaller of ``lhs`` and ``rhs`` read ``signed`` or unsigned."""
    a, b = _read(lhs, elem, signed), _read(rhs, elem, signed)
    return from_integer(np.minimum(a, b), elem)


@quiet
def cmpi(lhs: ArrayLike, rhs: ArrayLike, elem: str, predicate: str,
         signed: bool) -> NDArray[np.bool_]:
    """``lhs <predicate> rhs`` with operands read ``signed`` or unsigned."""
    return compare(_read(lhs, elem, signed), _read(rhs, elem, signed), predicate)


def _bitwise(fn, lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    if elem == "i4":
        return _wrap(fn, lhs, rhs, elem=elem)
    dt = numpy_dtype(elem)
    return np.asarray(fn(np.asarray(lhs, dtype=dt), np.asarray(rhs, dtype=dt)))


@quiet
def andi(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """Bitwise AND."""
    return _bitwise(np.bitwise_and, lhs, rhs, elem)


@quiet
def ori(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """Bitwise OR."""
    return _bitwise(np.bitwise_or, lhs, rhs, elem)


@quiet
def xori(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """Bitwise XOR."""
    return _bitwise(np.bitwise_xor, lhs, rhs, elem)
