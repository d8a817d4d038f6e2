"""math: elementary functions, rounding, classification, bit counts, powers.

Precision: for f16, bf16 and f32 the function is evaluated in float64 (libm, error below one f64
ulp) and rounded once to the type, which gives the correctly rounded result except when the
true value lies within 2**-29 relative of a rounding boundary -- within 1 ulp in all cases.  f64
uses NumPy's libm (within 1 ulp) and double-double kernels where it has them (``tanh``,
``rsqrt``, ``erf``, ``erfc``).  Exact operations (sqrt, fma, floor, ceil, trunc, round,
roundeven, abs, copysign, classification) are exact for every type.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ....ir.core import Operation
from ...numerics import convert, floatops, transcendental
from ...numerics.ddmath import erf64
from ..faults import ub
from ..registry import lowering
from ..values import numerics_name, storage
from .arith import int_of

try:  # SciPy is optional: erf/erfc fall back to the math module element by element
    from scipy import special as _special
except ImportError:  # pragma: no cover - exercised only without SciPy
    _special = None


def _erf(x: np.ndarray) -> np.ndarray:
    if _special is not None:
        return _special.erf(x)
    return np.vectorize(math.erf, otypes=[np.float64])(x)


def _erfc(x: np.ndarray) -> np.ndarray:
    if _special is not None:
        return _special.erfc(x)
    return np.vectorize(math.erfc, otypes=[np.float64])(x)


def _round_away(x: np.ndarray) -> np.ndarray:
    return np.where(np.isfinite(x), np.copysign(np.floor(np.abs(x) + 0.5), x), x)


def _round_half_away_exact(x: np.ndarray) -> np.ndarray:
    """round() without the 0.49999999999999994 + 0.5 pitfall: decide on the fraction."""
    with np.errstate(invalid="ignore"):
        a = np.abs(x)
        f = np.floor(a)
        r = np.where(a - f >= 0.5, f + 1.0, f)
        return np.where(np.isfinite(x), np.copysign(r, x), x)


#: f64 kernels of the unary functions
_UNARY64: dict[str, Callable] = {
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atanh": np.arctanh, "cbrt": np.cbrt, "cos": np.cos, "cosh": np.cosh,
    "erf": _erf, "erfc": _erfc, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1,
    "log": np.log, "log10": np.log10, "log1p": np.log1p, "log2": np.log2, "sin": np.sin,
    "sinh": np.sinh, "tan": np.tan, "tanh": np.tanh,
}
#: exact operations, applied in the value's own type
_EXACT: dict[str, Callable] = {
    "absf": np.abs, "ceil": np.ceil, "floor": np.floor, "trunc": np.trunc,
    "roundeven": np.rint, "round": _round_half_away_exact,
}


def round_from_f64(r64: np.ndarray, elem: str, dtype) -> np.ndarray:
    """A float64 result rounded once (nearest even) to ``elem``."""
    if elem == "f64":
        return r64
    if elem in ("f32", "f16"):
        return r64.astype(dtype)
    return np.asarray(convert.ftof(r64, "f64", elem)).astype(dtype, copy=False)


def _unary_float(name: str):
    @lowering(f"math.{name}")
    def lower(op: Operation, c):
        elem = numerics_name(op.results[0].type)
        dtype = storage(op.results[0].type)
        if name in _EXACT:
            fn = _EXACT[name]

            def step(ex, frame, args):
                x = np.asarray(args[0])
                if elem in ("f32", "f64", "f16"):
                    return [fn(x).astype(dtype, copy=False)]
                return [fn(x.astype(np.float64)).astype(dtype)]
            return step
        if name == "sqrt":
            def step(ex, frame, args):
                with np.errstate(all="ignore"):
                    x = np.asarray(args[0])
                    if elem in ("f32", "f64"):
                        return [np.sqrt(x)]
                    return [round_from_f64(np.sqrt(x.astype(np.float64)), elem, dtype)]
            return step
        if name == "rsqrt":
            def step(ex, frame, args):
                if elem in ("f32", "f64"):
                    return [np.asarray(transcendental.rsqrt(args[0], elem)).astype(dtype)]
                with np.errstate(all="ignore"):     # NaN for x < 0, inf for 0, as IEEE
                    r = 1.0 / np.sqrt(np.asarray(args[0]).astype(np.float64))
                return [round_from_f64(r, elem, dtype)]
            return step
        if name == "tanh" and elem == "f64":
            def step(ex, frame, args):
                return [np.asarray(transcendental.tanh(args[0], "f64"))]
            return step
        fn64 = _UNARY64[name]
        if name in ("erf", "erfc") and elem == "f64":
            def step(ex, frame, args):
                return [erf64(args[0], complement=name == "erfc")]
            return step

        def step(ex, frame, args):
            with np.errstate(all="ignore"):
                x = np.asarray(args[0]).astype(np.float64)
                return [round_from_f64(fn64(x), elem, dtype)]
        return step
    return lower


for _name in list(_UNARY64) + list(_EXACT) + ["sqrt", "rsqrt"]:
    _unary_float(_name)


def _binary_float(name: str, fn64: Callable):
    @lowering(f"math.{name}")
    def lower(op: Operation, c):
        elem = numerics_name(op.results[0].type)
        dtype = storage(op.results[0].type)

        def step(ex, frame, args):
            with np.errstate(all="ignore"):
                a = np.asarray(args[0]).astype(np.float64)
                b = np.asarray(args[1]).astype(np.float64)
                return [round_from_f64(fn64(a, b), elem, dtype)]
        return step
    return lower


_binary_float("atan2", np.arctan2)
_binary_float("copysign", np.copysign)   # exact
_binary_float("powf", np.power)


@lowering("math.fma")
def _fma(op: Operation, c):
    elem = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        return [np.asarray(floatops.fma(*args, elem)).astype(dtype, copy=False)]
    return step


@lowering("math.clampf")
def _clampf(op: Operation, c):
    """``clamp(x, lo, hi) = min(max(x, lo), hi)`` (NaN-propagating, as MLIR's expansion)."""
    def step(ex, frame, args):
        x, lo, hi = args
        with np.errstate(all="ignore"):
            return [np.minimum(np.maximum(x, lo), hi).astype(np.asarray(x).dtype, copy=False)]
    return step


@lowering("math.sincos")
def _sincos(op: Operation, c):
    elem = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        x = np.asarray(args[0]).astype(np.float64)
        with np.errstate(all="ignore"):
            return [round_from_f64(np.sin(x), elem, dtype), round_from_f64(np.cos(x), elem, dtype)]
    return step


@lowering("math.fpowi")
def _fpowi(op: Operation, c):
    elem = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        x = np.asarray(args[0]).astype(np.float64)
        ni = np.asarray(args[1]).astype(np.int64)
        n = ni.astype(np.float64)
        with np.errstate(all="ignore"):
            r = np.power(x, n)
            big = np.abs(n) >= 2.0 ** 53
            if np.any(big):
                # float(n) may be rounded (to an even value): x**n = |x|**q * |x|**lo with
                # q = n with its low 11 bits cleared (exact in f64) and the sign from n's parity
                lo = ni & 2047
                q = (ni - lo).astype(np.float64)
                a = np.abs(x)
                mag = np.power(a, q) * np.power(a, lo.astype(np.float64))
                odd = (ni & 1) == 1
                mag = np.where(odd & np.signbit(x), -mag, mag)
                r = np.where(big & ~np.isnan(x), mag, r)
            return [round_from_f64(r, elem, dtype)]
    return step


@lowering("math.ipowi")
def _ipowi(op: Operation, c):
    """Integer power with wrap-around (repeated squaring); a negative exponent gives 0 except
    for bases 1 and -1; ``0 ** negative`` is division by zero."""
    sem = int_of(op.results[0].type)

    def step(ex, frame, args):
        base = sem.s(args[0]).astype(np.int64)
        exp = sem.s(args[1]).astype(np.int64)
        zero_neg = (base == 0) & (exp < 0)
        if np.any(zero_neg):
            raise ub("ipowi: 0 raised to a negative power (division by zero)", zero_neg)
        base, exp = np.broadcast_arrays(base, exp)
        result = np.ones(base.shape, dtype=np.uint64)
        b = base.astype(np.uint64)
        e = np.where(exp < 0, 0, exp).astype(np.uint64)
        with np.errstate(over="ignore"):
            while np.any(e):
                odd = (e & np.uint64(1)).astype(bool)
                result = np.where(odd, result * b, result)
                b = b * b
                e = e >> np.uint64(1)
        out = sem.wrap(result)
        neg = exp < 0
        if np.any(neg):
            sb = base
            special = np.where(sb == 1, 1, np.where(sb == -1, np.where(exp % 2 == 0, 1, -1), 0))
            out = np.where(neg, sem.wrap(special.astype(np.int64)), out)
        return [out]
    return step


@lowering("math.absi")
def _absi(op: Operation, c):
    sem = int_of(op.results[0].type)

    def step(ex, frame, args):
        x = sem.s(args[0])
        return [sem.wrap(np.where(x < 0, -x.astype(np.int64), x).astype(np.int64))
                if sem.bits < 64 else np.where(x < 0, np.negative(x), x)]
    return step


def _bit_count(kind: str):
    @lowering(f"math.{kind}")
    def lower(op: Operation, c):
        sem = int_of(op.results[0].type)
        bits = sem.bits

        def step(ex, frame, args):
            u = sem.u(args[0]).astype(np.uint64)
            if kind == "ctpop":
                count = np.zeros(u.shape, dtype=np.int64)
                v = u.copy()
                while np.any(v):
                    count += (v & np.uint64(1)).astype(np.int64)
                    v = v >> np.uint64(1)
                return [sem.wrap(count)]
            count = np.full(u.shape, bits, dtype=np.int64)
            for i in range(bits):
                bit = (u >> np.uint64(bits - 1 - i if kind == "ctlz" else i)) & np.uint64(1)
                hit = (bit == 1) & (count == bits)
                count = np.where(hit, i, count)
            return [sem.wrap(count)]
        return step
    return lower


for _kind in ("ctlz", "cttz", "ctpop"):
    _bit_count(_kind)


def _classify(name: str, fn: Callable):
    @lowering(f"math.{name}")
    def lower(op: Operation, c):
        elem = numerics_name(op.operands[0].type)

        def step(ex, frame, args):
            x = np.asarray(args[0])
            if elem not in ("f16", "f32", "f64"):
                x = x.astype(np.float64)
            return [fn(x, elem)]
        return step
    return lower


def _isnormal(x: np.ndarray, elem: str) -> np.ndarray:
    tiny = {"f16": 2.0 ** -14, "bf16": 2.0 ** -126, "f32": 2.0 ** -126,
            "f64": 2.0 ** -1022}.get(elem)
    if tiny is None:
        from ...numerics import float_format
        tiny = float(float_format(elem).min_normal)
    return np.isfinite(x) & (np.abs(x) >= tiny)


_classify("isnan", lambda x, e: np.isnan(x))
_classify("isinf", lambda x, e: np.isinf(x))
_classify("isfinite", lambda x, e: np.isfinite(x))
_classify("isnormal", _isnormal)
