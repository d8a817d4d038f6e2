"""Floating-point arithmetic of §8.7: addf subf mulf divf fma sqrt negf absf maxf minf remf ceil
floor cmpf, bit-exact.

Arguments are NumPy arrays in element storage (see :mod:`.dtypes`), ``elem`` is one of
``'f16' 'bf16' 'f32' 'f64'``.

Rounding (``rounding=``):

* ``nearest_even`` (default) for f32/f64 is plain NumPy arithmetic (IEEE-754 correctly rounded).
* ``zero``, ``negative_inf``, ``positive_inf`` are exact for every type: the exact result is
  obtained with error-free transformations (:mod:`.eft`) and rounded once (:mod:`.rounding`).
* f16 and bf16 (marked "emulated in f32" in the spec, ERRATA 7) are computed as **the exact
  result rounded once to the narrow type in the requested mode**; there is no intermediate f32
  rounding, so e.g. ``fma`` and ``divf`` never suffer double rounding.
* ``approx`` and ``full`` (f32 ``divf``) and ``approx`` (f32 ``sqrt``): see :func:`divf` and
  :func:`sqrt` for the guaranteed error bounds.

Results: every NaN produced is the canonical NaN of the type (``0x7FFFFFFF`` for f32, see
:func:`.dtypes.canonical_nan_bits`); ``negf`` and ``absf`` are pure sign-bit operations and keep
NaN payloads. An exact zero sum or difference (``x + (-x)``, ``(+0) + (-0)``, and the same for
``fma``) is ``+0`` except under ``negative_inf``, where it is ``-0``; ``x + x`` keeps the sign of
``x``.

``flush_to_zero`` (f32 only, ERRATA 7): subnormal inputs are replaced by zero of the same sign
before the operation and subnormal results after it (ERRATA 9: sign-preserving zero).
"""
from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._quiet import quiet
from .dtypes import canonicalize_nan, decode, encode, float_format, numpy_dtype, to_bits, from_bits
from .eft import Exact, exact_add, exact_div, exact_fma, exact_mul, exact_sqrt
from .predicates import compare
from .rounding import NEAREST_EVEN, NEGATIVE_INF, check_mode, flush_subnormals, round_to

__all__ = ["ARITH_TYPES", "addf", "subf", "mulf", "divf", "fma", "sqrt", "negf", "absf",
           "maxf", "minf", "remf", "ceil", "floor", "cmpf", "check_float_op"]

ARITH_TYPES: tuple[str, ...] = ("f16", "bf16", "f32", "f64")
_NATIVE_RN = ("f32", "f64")


def check_float_op(elem: str, rounding: str = NEAREST_EVEN, flush_to_zero: bool = False,
                   extra_modes: tuple[str, ...] = ()) -> None:
    """Raise ValueError unless ``elem``/``rounding``/``flush_to_zero`` is a legal combination.

    ``extra_modes`` are non-IEEE modes the op accepts (``approx``/``full``), f32 only.
    """
    if elem not in ARITH_TYPES:
        raise ValueError(f"floating-point arithmetic is not defined on {elem!r}")
    if flush_to_zero and elem != "f32":
        raise ValueError("flush_to_zero is only supported on f32")
    if rounding in extra_modes:
        if elem != "f32":
            raise ValueError(f"rounding mode {rounding!r} is only supported on f32")
    else:
        check_mode(rounding)


def _ftz(xs: tuple[NDArray, ...], on: bool) -> tuple[NDArray, ...]:
    return tuple(flush_subnormals(x) for x in xs) if on else xs


def _storage(xs: tuple[ArrayLike, ...], elem: str) -> tuple[NDArray, ...]:
    dt = numpy_dtype(elem)
    return tuple(np.asarray(x, dtype=dt) for x in xs)


def _rounded(native: Callable[..., NDArray], exact: Callable[..., Exact],
             xs: tuple[ArrayLike, ...], elem: str, rounding: str, flush_to_zero: bool,
             signed_zero_sum: bool = False) -> NDArray:
    """Shared driver: optional FTZ, fast native nearest-even path, else exact + round once."""
    xs = _ftz(_storage(xs, elem), flush_to_zero)
    if rounding == NEAREST_EVEN and elem in _NATIVE_RN:
        r = canonicalize_nan(native(*xs), elem)
    else:
        x64 = tuple(decode(x, elem) for x in xs)
        ex = exact(*x64)
        r = round_to(ex.hi, ex.lo, elem, rounding, scale=ex.scale)
        if signed_zero_sum and rounding == NEGATIVE_INF:
            r = _negative_zero_sum(r, ex, x64)
    return flush_subnormals(r) if flush_to_zero else np.asarray(r)


def _negative_zero_sum(r: NDArray, ex: Exact, x64: tuple[NDArray, ...]) -> NDArray:
    """Under negative_inf an exact zero sum is -0 unless both addends are +0."""
    *factors, addend = x64
    first = factors[0] * factors[1] if len(factors) == 2 else factors[0]
    plus_zeros = (first == 0) & ~np.signbit(first) & (addend == 0) & ~np.signbit(addend)
    exact_zero = (ex.hi == 0) & (ex.lo == 0) & ~plus_zeros
    if exact_zero.any():
        r = np.array(r, copy=True)
        r[exact_zero] = -0.0
    return r


@quiet
def addf(lhs: ArrayLike, rhs: ArrayLike, elem: str, rounding: str = NEAREST_EVEN,
         flush_to_zero: bool = False) -> NDArray:
    """``lhs + rhs`` rounded once in ``rounding`` (IEEE-754 addition)."""
    check_float_op(elem, rounding, flush_to_zero)
    return _rounded(np.add, exact_add, (lhs, rhs), elem, rounding, flush_to_zero, True)


@quiet
def subf(lhs: ArrayLike, rhs: ArrayLike, elem: str, rounding: str = NEAREST_EVEN,
         flush_to_zero: bool = False) -> NDArray:
    """``lhs - rhs``, computed exactly as ``lhs + negf(rhs)`` (IEEE-754 subtraction)."""
    return addf(lhs, negf(rhs, elem), elem, rounding, flush_to_zero)


@quiet
def mulf(lhs: ArrayLike, rhs: ArrayLike, elem: str, rounding: str = NEAREST_EVEN,
         flush_to_zero: bool = False) -> NDArray:
    """``lhs * rhs`` rounded once in ``rounding``."""
    check_float_op(elem, rounding, flush_to_zero)
    return _rounded(np.multiply, exact_mul, (lhs, rhs), elem, rounding, flush_to_zero)


@quiet
def fma(lhs: ArrayLike, rhs: ArrayLike, acc: ArrayLike, elem: str,
        rounding: str = NEAREST_EVEN, flush_to_zero: bool = False) -> NDArray:
    """Fused ``lhs * rhs + acc`` with a single rounding (also for f32/f64 nearest_even)."""
    check_float_op(elem, rounding, flush_to_zero)
    xs = _ftz(_storage((lhs, rhs, acc), elem), flush_to_zero)
    x64 = tuple(decode(x, elem) for x in xs)
    # products of f32/f16/bf16 values are exact in f64, so TwoSum finishes the exact result
    ex = exact_fma(*x64) if elem == "f64" else exact_add(x64[0] * x64[1], x64[2])
    r = round_to(ex.hi, ex.lo, elem, rounding, scale=ex.scale)
    if rounding == NEGATIVE_INF:
        r = _negative_zero_sum(r, ex, x64)
    return flush_subnormals(r) if flush_to_zero else r


@quiet
def divf(lhs: ArrayLike, rhs: ArrayLike, elem: str, rounding: str = NEAREST_EVEN,
         flush_to_zero: bool = False) -> NDArray:
    """``lhs / rhs``.

    IEEE modes are exact (correctly rounded). f32 only:

    * ``full``: returns the correctly rounded (nearest_even) quotient: error 0.5 ulp, within the
      spec's 2 ulp bound.
    * ``approx``: ``lhs * (1/rhs)`` with both steps rounded to nearest f32 and a subnormal
      reciprocal flushed to sign-preserving zero. Error <= 1.5 ulp (spec bound: 2 ulp for
      ``|rhs|`` in ``[2**-126, 2**126]``); for ``2**126 < |rhs| < 2**128`` the result is ±0, or NaN
      when ``lhs`` is infinite, exactly as the spec describes.
    """
    check_float_op(elem, rounding, flush_to_zero, ("approx", "full"))
    if rounding == "full":
        rounding = NEAREST_EVEN
    if rounding == "approx":
        x, y = _ftz(_storage((lhs, rhs), elem), flush_to_zero)
        rcp = flush_subnormals(np.float32(1.0) / y)
        r = canonicalize_nan(x * rcp, elem)
        return flush_subnormals(r) if flush_to_zero else r
    return _rounded(np.divide, exact_div, (lhs, rhs), elem, rounding, flush_to_zero)


@quiet
def sqrt(x: ArrayLike, elem: str, rounding: str = NEAREST_EVEN,
         flush_to_zero: bool = False) -> NDArray:
    """Square root (``sqrt(-0) = -0``, negative -> NaN).

    IEEE modes are exact. ``approx`` (f32 only) returns the correctly rounded nearest_even root
    (0.5 ulp; PTX ``sqrt.approx`` allows a relative error of 2**-23).
    """
    check_float_op(elem, rounding, flush_to_zero, ("approx",))
    if rounding == "approx":
        rounding = NEAREST_EVEN
    return _rounded(np.sqrt, exact_sqrt, (x,), elem, rounding, flush_to_zero)


def _sign_op(x: ArrayLike, elem: str, fn: Callable[[NDArray, NDArray], NDArray]) -> NDArray:
    float_format(elem)
    bits = to_bits(x, elem)
    sign = bits.dtype.type(1 << (float_format(elem).bits - 1))
    return from_bits(fn(bits, sign), elem)


@quiet
def negf(x: ArrayLike, elem: str) -> NDArray:
    """Flip the sign bit (exact for every value, NaN payloads kept)."""
    return _sign_op(x, elem, np.bitwise_xor)


@quiet
def absf(x: ArrayLike, elem: str) -> NDArray:
    """Clear the sign bit (exact for every value, NaN payloads kept)."""
    return _sign_op(x, elem, lambda b, s: b & ~s)


def _extremum(lhs: ArrayLike, rhs: ArrayLike, elem: str, propagate_nan: bool,
              flush_to_zero: bool, want_max: bool) -> NDArray:
    check_float_op(elem, NEAREST_EVEN, flush_to_zero)
    a, b = _ftz(_storage((lhs, rhs), elem), flush_to_zero)
    a64, b64 = decode(a, elem), decode(b, elem)
    sa, sb = np.signbit(a64), np.signbit(b64)
    if want_max:
        take_a = (a64 > b64) | ((a64 == b64) & sb & ~sa)
    else:
        take_a = (a64 < b64) | ((a64 == b64) & sa & ~sb)
    na, nb = np.isnan(a64), np.isnan(b64)
    if propagate_nan:
        nan = na | nb
    else:
        nan = na & nb
        take_a = (take_a | nb) & ~na
    r = np.where(take_a, a, b)
    if nan.any():
        r[nan] = np.nan
        r = canonicalize_nan(r, elem)
    return r


@quiet
def maxf(lhs: ArrayLike, rhs: ArrayLike, elem: str, propagate_nan: bool = False,
         flush_to_zero: bool = False) -> NDArray:
    """Maximum with ``+0 > -0``. With ``propagate_nan`` (IEEE 754-2019 maximum) any NaN operand
    gives the canonical NaN; without it (maximumNumber) a NaN operand is ignored and only two
    NaNs give the canonical NaN."""
    return _extremum(lhs, rhs, elem, propagate_nan, flush_to_zero, True)


@quiet
def minf(lhs: ArrayLike, rhs: ArrayLike, elem: str, propagate_nan: bool = False,
         flush_to_zero: bool = False) -> NDArray:
    """Minimum with ``-0 < +0``; NaN rules as :func:`maxf` (minimum / minimumNumber)."""
    return _extremum(lhs, rhs, elem, propagate_nan, flush_to_zero, False)


@quiet
def remf(lhs: ArrayLike, rhs: ArrayLike, elem: str) -> NDArray:
    """C ``fmod``: ``lhs - trunc(lhs/rhs)*rhs`` computed exactly, with the sign of ``lhs``.

    ``rhs == 0`` -> NaN, infinite ``lhs`` -> NaN, finite ``lhs`` and infinite ``rhs`` -> ``lhs``,
    NaN operand -> NaN. The result is always exactly representable.
    """
    check_float_op(elem)
    a, b = _storage((lhs, rhs), elem)
    return encode(np.fmod(decode(a, elem), decode(b, elem)), elem)


@quiet
def ceil(x: ArrayLike, elem: str) -> NDArray:
    """Smallest integral value >= x (``ceil(-0.5) = -0``; exact)."""
    check_float_op(elem)
    return encode(np.ceil(decode(x, elem)), elem)


@quiet
def floor(x: ArrayLike, elem: str) -> NDArray:
    """Largest integral value <= x (exact)."""
    check_float_op(elem)
    return encode(np.floor(decode(x, elem)), elem)


@quiet
def cmpf(lhs: ArrayLike, rhs: ArrayLike, elem: str, predicate: str,
         ordering: str = "ordered") -> NDArray[np.bool_]:
    """Compare with ``predicate``; ``ordered``: false if either operand is NaN, ``unordered``:
    true if either operand is NaN (so ``-0 == +0``, and ordered ``not_equal`` of NaN is false)."""
    check_float_op(elem)
    a64, b64 = decode(lhs, elem), decode(rhs, elem)
    r = compare(a64, b64, predicate)
    unordered = np.isnan(a64) | np.isnan(b64)
    if ordering == "ordered":
        return r & ~unordered
    if ordering == "unordered":
        return r | unordered
    raise ValueError(f"unknown comparison ordering {ordering!r}")
