"""Integer semantics shared by arith and index: signless two's-complement values of width N.

Values are NumPy arrays of the signed storage dtype (``i1`` is ``bool``, ``index`` is int64).
Arithmetic wraps modulo 2**N.  Undefined behaviour is reported, not invented (MLIR's arith and
index dialects make these *immediate UB* or *poison*): division or remainder by zero, signed
``MIN / -1``, shift amounts >= N, out-of-range float-to-int conversions.
"""

from __future__ import annotations

import numpy as np

from ..faults import ub

__all__ = ["Int", "NarrowInt", "int_info", "COMPARISONS"]

#: the NumPy comparison of each ``arith.cmpi`` predicate with its sign prefix dropped
COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
               "gt": np.greater, "ge": np.greater_equal}

_UNSIGNED = {1: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_SIGNED = {1: np.int8, 8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


class Int:
    """The integer ops of one width ``bits`` (1, 8, 16, 32, 64; other widths up to 63 are
    :class:`NarrowInt`); ``name`` for messages."""

    def __new__(cls, bits: int, name: str = "") -> "Int":
        if cls is Int and bits not in _SIGNED and 1 < bits < 64:
            cls = NarrowInt
        return object.__new__(cls)

    def __init__(self, bits: int, name: str) -> None:
        if bits not in _SIGNED:
            raise ValueError(f"integers of width {bits} are not supported")
        self.bits = bits
        self.name = name
        self.dtype = np.dtype(np.bool_) if bits == 1 else np.dtype(_SIGNED[bits])
        self.udtype = np.dtype(_UNSIGNED[bits])
        self.smin = -(1 << (bits - 1))
        self.smax = (1 << (bits - 1)) - 1

    # -- representation ----------------------------------------------------------------------

    def s(self, x: np.ndarray) -> np.ndarray:
        """Signed view (i1: 0 / -1)."""
        x = np.asarray(x)
        if self.bits == 1:
            return -(x.astype(np.int8))
        return x.astype(self.dtype, copy=False)

    def u(self, x: np.ndarray) -> np.ndarray:
        """Unsigned view (i1: 0 / 1)."""
        x = np.asarray(x)
        if self.bits == 1:
            return x.astype(np.uint8)
        x = x.astype(self.dtype, copy=False)
        return x.view(self.udtype)

    def wrap(self, x: np.ndarray) -> np.ndarray:
        """Any integer array back to storage, modulo 2**N."""
        x = np.asarray(x)
        if self.bits == 1:
            return (x & 1).astype(np.bool_)
        if x.dtype == self.dtype:
            return x
        if x.dtype.kind == "u" or x.dtype.itemsize > self.dtype.itemsize:
            return x.astype(self.udtype).view(self.dtype) if x.dtype.kind == "u" \
                else x.astype(self.dtype)
        return x.astype(self.dtype)

    # -- arithmetic --------------------------------------------------------------------------

    def add(self, a, b):
        if self.bits == 1:
            return np.logical_xor(a, b)
        return np.add(self.s(a), self.s(b), dtype=self.dtype)

    def sub(self, a, b):
        if self.bits == 1:
            return np.logical_xor(a, b)
        return np.subtract(self.s(a), self.s(b), dtype=self.dtype)

    def mul(self, a, b):
        if self.bits == 1:
            return np.logical_and(a, b)
        return np.multiply(self.s(a), self.s(b), dtype=self.dtype)

    def _check_divisor(self, b, what: str, signed: bool, a=None) -> None:
        zero = np.asarray(b) == 0
        if zero.any():
            raise ub(f"{what} by zero (undefined behaviour)", zero)
        if signed and a is not None and self.bits > 1:
            over = (self.s(a) == self.smin) & (self.s(b) == -1)
            if over.any():
                raise ub(f"signed {what} overflow: {self.smin} / -1 (undefined behaviour)", over)

    def divs(self, a, b, mode: str = "trunc"):
        """Signed division rounding toward zero (``trunc``), down (``floor``) or up (``ceil``)."""
        self._check_divisor(b, "division", True, a)
        if self.bits == 1:
            return np.asarray(a, dtype=bool) & np.asarray(b, dtype=bool)  # -1 / -1 = 1 -> wraps
        a, b = self.s(a), self.s(b)
        q = np.floor_divide(a, b)
        r = a - q * b
        inexact = r != 0
        if mode == "trunc":
            q = np.where(inexact & ((a < 0) != (b < 0)), q + 1, q)
        elif mode == "ceil":
            q = np.where(inexact, q + 1, q)
        return q.astype(self.dtype, copy=False)

    def divu(self, a, b, ceil: bool = False):
        self._check_divisor(b, "division", False)
        ua, ubv = self.u(a), self.u(b)
        q = ua // ubv
        if ceil:
            q = q + (ua % ubv != 0).astype(q.dtype)
        return self.wrap(q)

    def rems(self, a, b):
        """Signed remainder with the sign of the dividend (C's ``%``)."""
        self._check_divisor(b, "remainder", True, a)
        if self.bits == 1:
            return np.zeros(np.broadcast(a, b).shape, dtype=bool)
        a, b = self.s(a), self.s(b)
        q = self.divs(a, b)
        return (a - q * b).astype(self.dtype, copy=False)

    def remu(self, a, b):
        self._check_divisor(b, "remainder", False)
        return self.wrap(self.u(a) % self.u(b))

    def _amount(self, b) -> np.ndarray:
        amount = self.u(b)
        too_far = amount >= self.bits
        if too_far.any():
            raise ub(f"shift amount >= the bit width {self.bits} (poison)", too_far)
        return amount.astype(np.uint64 if self.bits == 64 else np.int64)

    def shl(self, a, b):
        n = self._amount(b)
        if self.bits == 1:
            return np.asarray(a, dtype=bool) & (n == 0)
        return self.wrap(np.left_shift(self.u(a), n.astype(self.udtype)))

    def shrs(self, a, b):
        n = self._amount(b)
        if self.bits == 1:
            return np.asarray(a, dtype=bool) & np.ones_like(n, dtype=bool)
        return np.right_shift(self.s(a), n.astype(self.dtype)).astype(self.dtype, copy=False)

    def shru(self, a, b):
        n = self._amount(b)
        if self.bits == 1:
            return np.asarray(a, dtype=bool) & (n == 0)
        return self.wrap(np.right_shift(self.u(a), n.astype(self.udtype)))

    def max(self, a, b, signed: bool):
        f = self.s if signed else self.u
        return self.wrap(np.maximum(f(a), f(b)))

    def min(self, a, b, signed: bool):
        f = self.s if signed else self.u
        return self.wrap(np.minimum(f(a), f(b)))

    def andi(self, a, b):
        return np.bitwise_and(np.asarray(a), np.asarray(b)).astype(self.dtype, copy=False)

    def ori(self, a, b):
        return np.bitwise_or(np.asarray(a), np.asarray(b)).astype(self.dtype, copy=False)

    def xori(self, a, b):
        return np.bitwise_xor(np.asarray(a), np.asarray(b)).astype(self.dtype, copy=False)

    def compare(self, pred: str, a, b) -> np.ndarray:
        if pred in ("eq", "ne"):
            return COMPARISONS[pred](self.s(a), self.s(b))
        f = self.u if pred[0] == "u" else self.s
        return COMPARISONS[pred[1:]](f(a), f(b))

    # -- wide results ------------------------------------------------------------------------

    def mul_extended(self, a, b, signed: bool) -> tuple:
        """(low, high) halves of the 2N-bit product."""
        if self.bits <= 32:
            wide = np.int64 if signed else np.uint64
            f = self.s if signed else self.u
            p = f(a).astype(wide) * f(b).astype(wide)
            low = self.wrap(p.astype(np.uint64) & np.uint64((1 << self.bits) - 1)) \
                if self.bits < 64 else self.wrap(p)
            high = self.wrap((p >> wide(self.bits)).astype(np.int64))
            return low, high
        ua, ubv = self.u(a).astype(np.uint64), self.u(b).astype(np.uint64)
        mask = np.uint64(0xFFFFFFFF)
        a0, a1 = ua & mask, ua >> np.uint64(32)
        b0, b1 = ubv & mask, ubv >> np.uint64(32)
        p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
        mid = (p00 >> np.uint64(32)) + (p01 & mask) + (p10 & mask)
        low = (p00 & mask) | ((mid & mask) << np.uint64(32))
        high = p11 + (p01 >> np.uint64(32)) + (p10 >> np.uint64(32)) + (mid >> np.uint64(32))
        if signed:  # signed high = unsigned high - (a < 0) * b - (b < 0) * a
            sa, sb = self.s(a), self.s(b)
            high = high - np.where(sa < 0, ubv, np.uint64(0)) - np.where(sb < 0, ua,
                                                                         np.uint64(0))
        return self.wrap(low), self.wrap(high)

    def add_extended(self, a, b) -> tuple:
        """(sum, carry) of an unsigned add."""
        s = self.add(a, b)
        carry = self.u(s) < self.u(a)
        return s, carry


class NarrowInt(Int):
    """Integers of a width that is no NumPy type (``i4``, ``i3``, ``i17``...): held
    sign-extended in the smallest signed NumPy integer that fits; every result is wrapped back
    to ``bits`` bits (modulo 2**bits)."""

    def __init__(self, bits: int, name: str) -> None:
        store = next(w for w in (8, 16, 32, 64) if w >= bits)
        self.bits = bits
        self.name = name
        self.dtype = np.dtype(_SIGNED[store])
        self.udtype = np.dtype(_UNSIGNED[store])
        self.smin = -(1 << (bits - 1))
        self.smax = (1 << (bits - 1)) - 1
        self._mask = np.int64((1 << bits) - 1)
        self._sign = np.int64(1 << (bits - 1))

    def s(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(x).astype(self.dtype, copy=False)

    def u(self, x: np.ndarray) -> np.ndarray:
        return (np.asarray(x).astype(np.int64) & self._mask).astype(self.udtype)

    def wrap(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x)
        if x.dtype.kind == "u":
            x = x.astype(np.uint64).view(np.int64) if x.dtype.itemsize == 8 \
                else x.astype(np.int64)
        low = x.astype(np.int64, copy=False) & self._mask
        return ((low ^ self._sign) - self._sign).astype(self.dtype)

    def add(self, a, b):
        return self.wrap(super().add(a, b))

    def sub(self, a, b):
        return self.wrap(super().sub(a, b))

    def mul(self, a, b):
        return self.wrap(super().mul(a, b))

    def divs(self, a, b, mode: str = "trunc"):
        return self.wrap(super().divs(a, b, mode))

    def rems(self, a, b):
        return self.wrap(super().rems(a, b))


def int_info(bits: int, name: str) -> Int:
    return Int(bits, name)
