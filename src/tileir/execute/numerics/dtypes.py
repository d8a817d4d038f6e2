"""Element types of CUDA Tile IR (§5.1) and their NumPy storage.

Element types are named by the strings used in the IR: ``'i1' 'i4' 'i8' 'i16' 'i32' 'i64'``
(signless integers) and ``'f16' 'bf16' 'f32' 'tf32' 'f64' 'f8E4M3FN' 'f8E5M2' 'f8E8M0FNU'
'f4E2M1FN'`` (floats).

Storage (one NumPy element per IR element):

* ``i1`` -> ``bool``; ``i4`` -> ``ml_dtypes.int4``; ``iN`` -> the *signed* NumPy integer of that
  width (integers are signless; signedness comes from each op's attribute).
* ``f16`` -> ``float16``, ``f32`` -> ``float32``, ``f64`` -> ``float64``; ``bf16``, the f8 types and
  ``f4E2M1FN`` -> the ``ml_dtypes`` type; ``tf32`` -> ``float32`` holding values that have at most
  10 explicit mantissa bits (the low 13 bits of the f32 pattern are zero).

Every float format is described by a :class:`FloatFormat` (defined with the storage table in
:mod:`tileir.dtypes`); the generic exact rounder in :mod:`.rounding` is driven by those
parameters only.
"""
from __future__ import annotations

from typing import Optional

import ml_dtypes
import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...ir.dtypes import FLOAT_FORMATS, INT_BITS, NUMPY_DTYPES, FloatFormat

__all__ = [
    "FloatFormat", "INT_TYPES", "FLOAT_TYPES", "ELEMENT_TYPES",
    "numpy_dtype", "is_float", "is_int", "bitwidth", "float_format", "bits_dtype",
    "to_bits", "from_bits", "decode", "encode", "canonical_nan_bits",
    "canonicalize_nan", "to_unsigned", "to_signed", "from_integer", "int_min", "int_max",
]


INT_TYPES: tuple[str, ...] = tuple(INT_BITS)
FLOAT_TYPES: tuple[str, ...] = tuple(FLOAT_FORMATS)
ELEMENT_TYPES: tuple[str, ...] = INT_TYPES + FLOAT_TYPES

_UINT_BY_BYTES = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32),
                  8: np.dtype(np.uint64)}


def _check(elem: str) -> None:
    if elem not in NUMPY_DTYPES:
        raise ValueError(f"unknown element type {elem!r}")


def numpy_dtype(elem: str) -> np.dtype:
    """NumPy dtype that stores one element of type ``elem``."""
    _check(elem)
    return NUMPY_DTYPES[elem]


def is_float(elem: str) -> bool:
    """True for the floating-point element types."""
    _check(elem)
    return elem in FLOAT_FORMATS


def is_int(elem: str) -> bool:
    """True for the (signless) integer element types."""
    _check(elem)
    return elem in INT_BITS


def bitwidth(elem: str) -> int:
    """Width of ``elem`` in bits (``i1`` -> 1, ``f4E2M1FN`` -> 4, ``tf32`` -> 32)."""
    _check(elem)
    return INT_BITS[elem] if elem in INT_BITS else FLOAT_FORMATS[elem].bits


def float_format(elem: str | FloatFormat) -> FloatFormat:
    """The :class:`FloatFormat` of a float element type (a format is returned unchanged)."""
    if isinstance(elem, FloatFormat):
        return elem
    if elem not in FLOAT_FORMATS:
        raise ValueError(f"{elem!r} is not a floating-point element type")
    return FLOAT_FORMATS[elem]


def bits_dtype(elem: str) -> np.dtype:
    """Unsigned NumPy dtype used for raw bit patterns of ``elem`` (uint8 for widths <= 8)."""
    return _UINT_BY_BYTES[max(1, numpy_dtype(elem).itemsize)]


def canonical_nan_bits(elem: str) -> Optional[int]:
    """Bit pattern of the canonical NaN produced for ``elem`` (None if it has no NaN).

    The canonical NaN is positive with all mantissa bits set: f32 ``0x7FFFFFFF``, f16 and bf16
    ``0x7FFF``, f64 ``0x7FFFFFFFFFFFFFFF``, tf32 ``0x7FFFE000``, f8E5M2 ``0x7F``, f8E4M3FN
    ``0x7F``, f8E8M0FNU ``0xFF``.
    """
    return float_format(elem).nan_bits


def to_bits(x: ArrayLike, elem: str) -> NDArray:
    """Raw bit patterns of the elements of ``x`` (stored as ``elem``), as unsigned integers.

    4-bit types occupy the low nibble of a uint8; ``i1`` gives 0 or 1.
    """
    a = np.asarray(x, dtype=numpy_dtype(elem))
    bits = a.view(bits_dtype(elem))
    if elem in ("i4", "f4E2M1FN"):
        bits = bits & np.uint8(0xF)
    elif elem == "i1":
        bits = bits & np.uint8(1)
    return bits


def from_bits(bits: ArrayLike, elem: str) -> NDArray:
    """Inverse of :func:`to_bits`: reinterpret raw bit patterns as elements of type ``elem``.

    Bits above the element's width are ignored.
    """
    ud = bits_dtype(elem)
    b = np.asarray(bits).astype(ud, copy=True)
    if elem == "i1":
        return (b & ud.type(1)).astype(np.bool_)
    if elem in ("i4", "f4E2M1FN"):
        b &= ud.type(0xF)
        if elem == "i4":  # ml_dtypes.int4 wants a sign-extended byte
            return ((b.astype(np.int8) ^ np.int8(8)) - np.int8(8)).astype(ml_dtypes.int4)
    return b.view(numpy_dtype(elem))


def decode(x: ArrayLike, elem: str) -> NDArray[np.float64]:
    """Exact float64 values of float elements ``x`` of type ``elem`` (every format fits in f64)."""
    float_format(elem)
    return np.asarray(x, dtype=numpy_dtype(elem)).astype(np.float64)


def encode(values: ArrayLike, elem: str) -> NDArray:
    """Store float64 ``values`` that are *exactly representable* in ``elem`` (or NaN) as ``elem``.

    No rounding happens here (see :func:`.rounding.round_to`); NaNs become the canonical NaN of
    ``elem`` (:func:`canonical_nan_bits`).
    """
    fmt = float_format(elem)
    v = np.asarray(values, dtype=np.float64)
    nan = np.isnan(v)
    has_nan = bool(nan.any())
    if has_nan:
        v = np.where(nan, 0.0, v)
    with np.errstate(over="ignore"):
        out = v.astype(numpy_dtype(elem))
    if has_nan:
        if fmt.nan_bits is None:
            raise ValueError(f"{elem} cannot represent NaN")
        bits = out.view(bits_dtype(elem))
        bits[nan] = fmt.nan_bits
    return out


def canonicalize_nan(x: ArrayLike, elem: str) -> NDArray:
    """Return ``x`` (storage of float type ``elem``) with every NaN replaced by the canonical NaN."""
    a = np.asarray(x, dtype=numpy_dtype(elem))
    nan = np.isnan(a.astype(np.float32) if a.dtype.itemsize < 4 else a)
    if not nan.any():
        return a
    a = a.copy()
    a.view(bits_dtype(elem))[nan] = float_format(elem).nan_bits
    return a


# ----------------------------------------------------------------------------- integers

def _int_bits(elem: str) -> int:
    if elem not in INT_BITS:
        raise ValueError(f"{elem!r} is not an integer element type")
    return INT_BITS[elem]


def int_min(elem: str, signed: bool) -> int:
    """Smallest value of ``elem`` read as signed or unsigned."""
    n = _int_bits(elem)
    return -(1 << (n - 1)) if signed else 0


def int_max(elem: str, signed: bool) -> int:
    """Largest value of ``elem`` read as signed or unsigned."""
    n = _int_bits(elem)
    return (1 << (n - 1)) - 1 if signed else (1 << n) - 1


def to_unsigned(x: ArrayLike, elem: str) -> NDArray[np.uint64]:
    """Zero-extended uint64 view of signless integers ``x`` of type ``elem``."""
    n = _int_bits(elem)
    if n == 64:
        return np.asarray(x, dtype=np.int64).view(np.uint64)
    return to_bits(x, elem).astype(np.uint64)


def to_signed(x: ArrayLike, elem: str) -> NDArray[np.int64]:
    """Sign-extended int64 view of signless integers ``x`` (``i1`` true reads as -1)."""
    n = _int_bits(elem)
    if n in (8, 16, 32, 64):
        return np.asarray(x, dtype=numpy_dtype(elem)).astype(np.int64)
    u = to_bits(x, elem).astype(np.int64)
    sign = np.int64(1 << (n - 1))
    return (u ^ sign) - sign


def from_integer(v: ArrayLike, elem: str) -> NDArray:
    """Wrap integers ``v`` (int64 or uint64, any values) modulo ``2**width`` into ``elem`` storage."""
    n = _int_bits(elem)
    a = np.asarray(v)
    u = a.view(np.uint64) if a.dtype == np.int64 else a.astype(np.uint64)
    if n == 64:
        return u.view(np.int64)
    if n in (8, 16, 32):
        return u.astype(numpy_dtype(elem))  # C casts truncate modulo 2**n
    return from_bits(u & np.uint64((1 << n) - 1), elem)
