"""Math functions of §8.7: exp exp2 log log2 sin cos tan sinh cosh tanh pow atan2 rsqrt.

Evaluation and guaranteed accuracy (``ulp`` of the result type):

* **f32**: the function is evaluated in float64 by NumPy on the (exact) f64 value of the input
  and rounded once to f32. The f64 evaluation error is far below 2**-40 relative (NumPy/libm,
  a few f64 ulp at most), so the f32 result is within **0.5 + 2**-16 ulp** (faithful; correctly
  rounded except when the exact value lies within that distance of a midpoint). ``rsqrt`` adds one
  f64 rounding for ``1/sqrt`` and has the same bound.
* **f16 / bf16** ("emulated in f32" in the spec): the input is widened to f32 (exact), the f32
  function above is applied, and its f32 result is rounded once to f16/bf16 (nearest even).
  Error <= 0.5 ulp(narrow) + 0.5 ulp(f32) + the f32 error above.
* **f64**: NumPy's float64 function (the platform's vectorised libm; measured < 0.8 ulp, at
  most a few ulp on other platforms), except ``tanh``, evaluated in double-double to
  **0.5 + 2**-20 ulp** (spec, ``full``: 1 ulp), and ``rsqrt``, refined with one exact-residual
  Newton step to **< 0.51 ulp** (spec: 1 ulp).

Rounding modes ``approx`` and ``full`` (``exp``, ``tanh``; f32 only for ``approx``) both return
the accurate result above, which is within every documented bound (``tanh`` full: 2 ulp in f32,
1 ulp in f64; ``approx`` variants may only be more accurate than the hardware's).
Results are never flushed unless ``flush_to_zero`` (f32 only: subnormal inputs and results become
zero of the same sign). NaNs produced are canonical. Special values follow C99 Annex F (e.g.
``pow(x, 0) = 1`` even for NaN ``x``, ``exp(-inf) = 0``, ``log(-0) = -inf``, ``atan2(±0, -0) = ±pi``).
``atan2(x, y)`` follows the spec's operand naming: the result is the angle of ``x / y``, i.e. C's
``atan2(x, y)`` with ``x`` as the ordinate.
"""
from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..buffers import fresh, recycle
from . import native
from ._quiet import quiet
from .ddmath import tanh64
from .dtypes import decode, numpy_dtype
from .eft import two_prod
from .floatops import check_float_op
from .rounding import _has_nan, flush_subnormals, round_to

__all__ = ["exp", "exp2", "log", "log2", "sin", "cos", "tan", "sinh", "cosh", "tanh",
           "pow", "atan2", "rsqrt"]

_F64Fn = Callable[..., NDArray[np.float64]]


def _evaluate(fn: _F64Fn, xs: tuple[ArrayLike, ...], elem: str,
              flush_to_zero: bool = False, fn64: Optional[_F64Fn] = None,
              flat_at_zero: bool = False) -> NDArray:
    """Apply the f64 kernel ``fn`` with the per-type policy of the module docstring
    (``fn64``, when given, replaces ``fn`` for f64 results that need more accuracy).
    ``flat_at_zero``: ``fn`` of every subnormal input rounds to the same f32 as ``fn(0)``,
    so flushing the inputs (``flush_to_zero``) is skipped: it would change nothing."""
    check_float_op(elem, flush_to_zero=flush_to_zero)
    dt = numpy_dtype(elem)
    arrays = tuple(np.asarray(x, dtype=dt) for x in xs)
    if flush_to_zero and not flat_at_zero:
        arrays = tuple(flush_subnormals(a) for a in arrays)
    f = fn64 if fn64 is not None and elem == "f64" else fn
    if elem in _WIDENED_IN_UFUNC and isinstance(f, np.ufunc):
        # (the ufunc widens each element to f64 as it goes: no f64 copy of the input, and
        # the f64 results land in a pooled array, given back once rounded)
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
        size = math.prod(shape)
        if size and all(a.shape == shape for a in arrays):
            r32 = _in_chunks(f, arrays, shape, size)
        else:
            r64 = f(*arrays, dtype=np.float64, out=fresh(shape, np.dtype(np.float64)))
            r32 = round_to(r64, None, "f32")
            recycle(r64)
    else:
        r64 = f(*(decode(a, elem) for a in arrays))
        if elem == "f64":
            return round_to(r64, None, "f64")
        r32 = round_to(r64, None, "f32")
    if flush_to_zero:
        r32 = flush_subnormals(r32)
    return r32 if elem == "f32" else round_to(r32.astype(np.float64), None, elem)


#: element types whose values NumPy's ufuncs widen to f64 exactly on the fly
_WIDENED_IN_UFUNC = ("f16", "f32")
#: elements per chunk of a large f32 evaluation: its f64 results (256 KiB) stay in the cache
#: until rounded (measured: exp2 of 2^18 f32 27% faster than whole-array passes; 2^16 a
#: little faster than 2^15 on 1M elements of exp)
_CHUNK = 1 << 16


def _in_chunks(f: np.ufunc, arrays: tuple, shape: tuple, size: int) -> NDArray:
    """``f`` of same-shaped f16/f32 ``arrays`` evaluated in f64 and rounded once to f32 (as
    :func:`round_to` rounds: NumPy's nearest-even cast; NaNs canonical), chunk by chunk."""
    flats = tuple(a.reshape(-1) for a in arrays)
    out = fresh(shape, np.dtype(np.float32))
    flat_out = out.reshape(-1)
    work = np.empty(min(size, _CHUNK), np.float64)
    canonical = True                # (every NaN made canonical as the chunks are narrowed)
    for i in range(0, size, _CHUNK):
        j = min(size, i + _CHUNK)
        w = work[:j - i]
        f(*(a[i:j] for a in flats), dtype=np.float64, out=w)
        if not native.narrow_f64(w, flat_out[i:j]):     # (one C pass where one is at hand)
            np.copyto(flat_out[i:j], w, casting="unsafe")
            canonical = False
    return round_to(out, None, "f32") if not canonical and _has_nan(out) else out


def _rsqrt64(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """1/sqrt(x) with one Newton step on an exactly computed residual (< 0.51 ulp)."""
    ok = np.isfinite(x) & (x > 0)
    special = 1.0 / np.sqrt(x)
    m, e = np.frexp(np.where(ok, x, 1.0))
    odd = (e & 1) == 1
    m = np.where(odd, m * 2.0, m)          # x = m * 2**e2, e2 even, m in [0.5, 2)
    e2 = np.where(odd, e - 1, e)
    r = 1.0 / np.sqrt(m)
    p, pe = two_prod(r, r)                 # r*r exactly
    h, hl = two_prod(m, p)                 # m*p exactly
    resid = ((1.0 - h) - hl) - m * pe      # 1 - m*r*r (error ~2**-105)
    r = r + r * (0.5 * resid)
    return np.where(ok, np.ldexp(r, -(e2 // 2)), special)


@quiet
def exp(x: ArrayLike, elem: str, rounding: str = "full") -> NDArray:
    """e**x; ``rounding`` is ``full`` (default) or ``approx`` (f32), same accurate result."""
    _check_approx(elem, rounding)
    return _evaluate(np.exp, (x,), elem)


@quiet
def exp2(x: ArrayLike, elem: str, flush_to_zero: bool = False) -> NDArray:
    """2**x (exact for integral x in range).  With ``flush_to_zero`` only results are
    flushed: ``2**x`` of a subnormal ``x`` (``|x ln 2| < 2**-126``) rounds to 1, as
    ``2**0`` is; and none is flushed when every ``x`` is at least -126 (``2**x`` is then
    at least ``2**-126``, the smallest normal f32: no result can be subnormal)."""
    if flush_to_zero and elem == "f32":
        a = np.asarray(x, dtype=np.float32)
        # (one f32 reduction instead of three integer passes over the results; a NaN
        # minimum compares False and keeps the flush)
        if a.size and np.minimum.reduce(a, axis=None) >= np.float32(-126):
            return _evaluate(np.exp2, (a,), elem)
    return _evaluate(np.exp2, (x,), elem, flush_to_zero, flat_at_zero=True)


@quiet
def log(x: ArrayLike, elem: str) -> NDArray:
    """Natural logarithm."""
    return _evaluate(np.log, (x,), elem)


@quiet
def log2(x: ArrayLike, elem: str) -> NDArray:
    """Base-2 logarithm (exact for powers of two)."""
    return _evaluate(np.log2, (x,), elem)


@quiet
def sin(x: ArrayLike, elem: str) -> NDArray:
    """Sine (full-range argument reduction)."""
    return _evaluate(np.sin, (x,), elem)


@quiet
def cos(x: ArrayLike, elem: str) -> NDArray:
    """Cosine (full-range argument reduction)."""
    return _evaluate(np.cos, (x,), elem)


@quiet
def tan(x: ArrayLike, elem: str) -> NDArray:
    """Tangent."""
    return _evaluate(np.tan, (x,), elem)


@quiet
def sinh(x: ArrayLike, elem: str) -> NDArray:
    """Hyperbolic sine."""
    return _evaluate(np.sinh, (x,), elem)


@quiet
def cosh(x: ArrayLike, elem: str) -> NDArray:
    """Hyperbolic cosine."""
    return _evaluate(np.cosh, (x,), elem)


@quiet
def tanh(x: ArrayLike, elem: str, rounding: str = "full") -> NDArray:
    """Hyperbolic tangent; ``rounding`` ``full`` (default) or ``approx`` (f32), same result."""
    _check_approx(elem, rounding)
    return _evaluate(np.tanh, (x,), elem, fn64=tanh64)


@quiet
def pow(source: ArrayLike, exponent: ArrayLike, elem: str) -> NDArray:  # noqa: A001
    """``source ** exponent`` with C99 ``pow`` special cases."""
    return _evaluate(np.power, (source, exponent), elem)


@quiet
def atan2(x: ArrayLike, y: ArrayLike, elem: str) -> NDArray:
    """Principal angle of the ratio ``x / y`` (C ``atan2(x, y)``), quadrant from both signs."""
    return _evaluate(np.arctan2, (x, y), elem)


def _rsqrt_once(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``1 / sqrt(x)`` in f64, for f32 (and narrower) results: the f32 rounding of this value
    is the f32 rounding of :func:`_rsqrt64`'s for every f32 input (checked exhaustively over
    the positive f32 significands in [1, 4), which cover every positive f32: scaling ``x`` by
    ``4**k`` scales both exactly by ``2**-k``; zeros, infinities, negatives and NaN are
    :func:`_rsqrt64`'s own special values), at a fraction of its cost."""
    r = np.sqrt(x)
    return np.divide(1.0, r, out=r) if isinstance(r, np.ndarray) else 1.0 / r


@quiet
def rsqrt(x: ArrayLike, elem: str, flush_to_zero: bool = False) -> NDArray:
    """1/sqrt(x): ``rsqrt(±0) = ±inf``, ``rsqrt(inf) = 0``, negative -> NaN.  f64 results
    use :func:`_rsqrt64`; narrower ones its f32-identical :func:`_rsqrt_once`."""
    return _evaluate(_rsqrt_once, (x,), elem, flush_to_zero, fn64=_rsqrt64)


def _check_approx(elem: str, rounding: str) -> None:
    if rounding not in ("full", "approx"):
        raise ValueError(f"rounding mode {rounding!r} is not supported here (approx or full)")
    if rounding == "approx" and elem != "f32":
        raise ValueError("rounding mode 'approx' is only supported on f32")
