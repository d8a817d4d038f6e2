"""Native NumPy fast paths for the most common op configurations.

Each function here computes *exactly* what the corresponding :mod:`tileir.execute.numerics`
function computes (tests/execute/test_exec_fastpaths.py checks them bit for bit on edge values
and random bit patterns) but avoids its generality where NumPy's own arithmetic is already
IEEE-754 correct:

* f32/f64 ``+ - * /`` and ``sqrt`` in nearest_even are single correctly rounded operations in
  NumPy;
* f16/bf16 ``+ - * /`` computed in f32 and rounded once to the narrow type are correctly rounded
  (double rounding is innocuous when the wide precision p' >= 2p + 2: 24 >= 2*11 + 2);
* every NaN result is replaced by the type's canonical NaN, as numerics does (a GPU produces the
  canonical NaN for arithmetic);
* maxf/minf use fmax/maximum plus a fix-up of the (+0, -0) pairs.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

__all__ = ["canon_nan", "float_binary", "float_sqrt", "float_maxmin", "float_cmp",
           "sign_op", "rounding_op", "widen_float", "narrow_float", "NATIVE_FLOATS"]

F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
BF16 = np.dtype(ml_dtypes.bfloat16)
NATIVE_FLOATS = {"f32": F32, "f64": F64}
NARROW_FLOATS = {"f16": F16, "bf16": BF16}
_BITS = {F16: (np.dtype(np.uint16), 0x7FFF, 0x8000), BF16: (np.dtype(np.uint16), 0x7FFF, 0x8000),
         F32: (np.dtype(np.uint32), 0x7FFFFFFF, 0x80000000),
         F64: (np.dtype(np.uint64), 0x7FFFFFFFFFFFFFFF, 0x8000000000000000)}


def canon_nan(r: np.ndarray) -> np.ndarray:
    """Replace every NaN of the float array ``r`` by the canonical NaN (in place if possible)."""
    m = np.isnan(r)
    if m.any():
        if not r.flags.writeable:
            r = r.copy()
        u, nan, _ = _BITS[r.dtype]
        r.view(u)[m] = nan
    return r


_UFUNCS = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply, "divf": np.divide}


def float_binary(name: str, elem: str):
    """Nearest-even ``addf``/``subf``/``mulf``/``divf`` without flush_to_zero, or None."""
    uf = _UFUNCS[name]
    if elem in NATIVE_FLOATS:
        def native(a, b):
            return canon_nan(uf(a, b))
        return native
    if elem in NARROW_FLOATS:
        dt = NARROW_FLOATS[elem]

        def narrow(a, b):
            return canon_nan(uf(a.astype(F32), b.astype(F32)).astype(dt))
        return narrow
    return None


def float_sqrt(elem: str):
    if elem in NATIVE_FLOATS:
        return lambda a: canon_nan(np.sqrt(a))
    if elem in NARROW_FLOATS:
        dt = NARROW_FLOATS[elem]
        return lambda a: canon_nan(np.sqrt(a.astype(F32)).astype(dt))
    return None


def float_maxmin(want_max: bool, propagate_nan: bool, elem: str):
    """maxf/minf for f32/f64 without flush_to_zero, or None."""
    if elem not in NATIVE_FLOATS:
        return None
    dt = NATIVE_FLOATS[elem]
    u, _, _ = _BITS[dt]
    if propagate_nan:
        uf = np.maximum if want_max else np.minimum
    else:
        uf = np.fmax if want_max else np.fmin
    combine = np.bitwise_and if want_max else np.bitwise_or

    def run(a, b):
        r = uf(a, b)
        z = r == 0
        if z.any():
            a_, b_ = np.broadcast_arrays(a, b)
            zz = z & (a_ == 0) & (b_ == 0)
            if zz.any():
                r.view(u)[zz] = combine(a_.view(u)[zz], b_.view(u)[zz])
        return canon_nan(r)
    return run


_CMP = {"equal": np.equal, "not_equal": np.not_equal, "less_than": np.less,
        "less_than_or_equal": np.less_equal, "greater_than": np.greater,
        "greater_than_or_equal": np.greater_equal}


def float_cmp(predicate: str, ordered: bool, elem: str):
    """cmpf on f32/f64 (NumPy comparisons are false on NaN except ``!=``), or None."""
    if elem not in NATIVE_FLOATS:
        return None
    uf = _CMP[predicate]
    if ordered and predicate == "not_equal":
        return lambda a, b: (a != b) & ~np.isnan(a) & ~np.isnan(b)
    if ordered:
        return uf
    if predicate == "not_equal":
        return uf
    return lambda a, b: uf(a, b) | np.isnan(a) | np.isnan(b)


def sign_op(negate: bool, elem: str):
    """negf (flip the sign bit) / absf (clear it) on f16/bf16/f32/f64 storage."""
    dt = {"f16": F16, "bf16": BF16, "f32": F32, "f64": F64}.get(elem)
    if dt is None:
        return None
    u, _, sign = _BITS[dt]
    s = u.type(sign)
    if negate:
        return lambda a: (a.view(u) ^ s).view(dt)
    mask = u.type(~sign & ((1 << (8 * u.itemsize)) - 1))
    return lambda a: (a.view(u) & mask).view(dt)


def rounding_op(fn, elem: str):
    """ceil/floor on f32/f64 (exact) with canonical NaN."""
    if elem not in NATIVE_FLOATS:
        return None
    return lambda a: canon_nan(fn(a))


_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
_DT = {"f16": F16, "bf16": BF16, "f32": F32, "f64": F64}


def widen_float(src: str, dst: str):
    """Exact widening conversions between f16/bf16/f32/f64 (NaN canonicalised), or None."""
    if src not in _DT or dst not in _DT or _WIDTH[dst] <= _WIDTH[src]:
        return None
    if src in ("f16", "bf16") and dst == "f64":
        dt = _DT[dst]
        return lambda a: canon_nan(a.astype(F32).astype(dt))
    dt = _DT[dst]
    return lambda a: canon_nan(a.astype(dt))


def narrow_float(src: str, dst: str, rounding: str):
    """Correctly rounded nearest-even narrowing f32->f16, f32->bf16, f64->f32, or None."""
    if rounding != "nearest_even":
        return None
    if (src, dst) in (("f32", "f16"), ("f32", "bf16"), ("f64", "f32")):
        dt = _DT[dst]
        return lambda a: canon_nan(a.astype(dt))
    return None
