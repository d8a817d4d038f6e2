"""Element types as numbers: their NumPy storage and their formats (DESIGN.md principle 7).

i1 is stored as ``bool``; i4, bf16 and the 8/4-bit floats use ml_dtypes; tf32 is stored as
float32 holding values rounded to 10 mantissa bits.  Integers are signless: an ``iN`` value is
stored in the signed NumPy integer of that width (two's complement), and each op chooses whether
to read it as signed or unsigned.

This module is the one table of those facts (widths, float format parameters, storage dtypes);
the text, bytecode and executor layers derive what they need from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import ml_dtypes
import numpy as np

__all__ = ["numpy_dtype", "unsigned_dtype", "NUMPY_DTYPES", "element_name_of_dtype",
           "INT_BITS", "FloatFormat", "FLOAT_FORMATS", "APFLOAT_BITS"]

#: Element type spelling -> NumPy dtype used to store it.
NUMPY_DTYPES: dict[str, np.dtype] = {
    "i1": np.dtype(np.bool_),
    "i4": np.dtype(ml_dtypes.int4),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
    "f16": np.dtype(np.float16),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype(np.float32),
    "tf32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "f8E4M3FN": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8E5M2": np.dtype(ml_dtypes.float8_e5m2),
    "f8E8M0FNU": np.dtype(ml_dtypes.float8_e8m0fnu),
    "f4E2M1FN": np.dtype(ml_dtypes.float4_e2m1fn),
}

#: Width in bits of each (signless) integer element type.
INT_BITS: dict[str, int] = {"i1": 1, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64}


@dataclass(frozen=True)
class FloatFormat:
    """Parameters of a binary floating-point format.

    ``bits`` is the storage width (tf32: 32); ``precision`` counts significand bits including
    the implicit one; ``emin`` is the exponent of the smallest normal number (``2**emin``); below
    it the format has subnormals with quantum ``2**(emin - precision + 1)`` (except
    ``f8E8M0FNU``, which has neither subnormals nor zero).  ``saturating`` marks the formats into
    which conversions use *satfinite* semantics (§5.1.3).  ``produces_nan`` is False for the
    formats that cannot hold a NaN result (``f8E4M3FN`` per §5.1.3, ``f4E2M1FN``): a NaN
    converted into them becomes ``+max_value``.  ``nan_bits`` is the canonical NaN (None: the
    format has no NaN).
    """

    name: str
    bits: int
    precision: int
    emin: int
    max_value: float
    min_value: float
    has_inf: bool
    produces_nan: bool
    nan_bits: Optional[int]
    signed: bool = True
    has_zero: bool = True
    saturating: bool = False

    @property
    def min_normal(self) -> float:
        """Smallest positive normal value ``2**emin``."""
        return float(2.0 ** self.emin)


def _fmt(name: str, bits: int, p: int, emin: int, max_value: float, min_value: float, *,
         inf: bool, nan: Optional[int], produces_nan: bool = True, signed: bool = True,
         has_zero: bool = True, saturating: bool = False) -> FloatFormat:
    return FloatFormat(name, bits, p, emin, float(max_value), float(min_value), inf,
                       produces_nan and nan is not None, nan, signed, has_zero, saturating)


#: Every float element type's format, by spelling.
FLOAT_FORMATS: dict[str, FloatFormat] = {
    f.name: f for f in (
        _fmt("f16", 16, 11, -14, 65504.0, 2.0 ** -24, inf=True, nan=0x7FFF),
        _fmt("bf16", 16, 8, -126, (2 - 2.0 ** -7) * 2.0 ** 127, 2.0 ** -133, inf=True, nan=0x7FFF),
        _fmt("f32", 32, 24, -126, (2 - 2.0 ** -23) * 2.0 ** 127, 2.0 ** -149, inf=True,
             nan=0x7FFFFFFF),
        _fmt("tf32", 32, 11, -126, (2 - 2.0 ** -10) * 2.0 ** 127, 2.0 ** -136, inf=True,
             nan=0x7FFFE000),
        _fmt("f64", 64, 53, -1022, float(np.finfo(np.float64).max), 5e-324, inf=True,
             nan=0x7FFFFFFFFFFFFFFF),
        _fmt("f8E4M3FN", 8, 4, -6, 448.0, 2.0 ** -9, inf=False, nan=0x7F, produces_nan=False,
             saturating=True),
        _fmt("f8E5M2", 8, 3, -14, 57344.0, 2.0 ** -16, inf=True, nan=0x7F, saturating=True),
        _fmt("f8E8M0FNU", 8, 1, -127, 2.0 ** 127, 2.0 ** -127, inf=False, nan=0xFF,
             signed=False, has_zero=False, saturating=True),
        _fmt("f4E2M1FN", 4, 2, 0, 6.0, 0.5, inf=False, nan=None, saturating=True),
    )
}

#: Width of each float format in MLIR's APFloat semantics, which bytecode and hex float
#: literals use: the storage width, except tf32 (APFloat's 19-bit FloatTF32).
APFLOAT_BITS: dict[str, int] = {name: 19 if name == "tf32" else f.bits
                                for name, f in FLOAT_FORMATS.items()}

_UNSIGNED = {"i1": np.dtype(np.bool_), "i4": np.dtype(ml_dtypes.uint4), "i8": np.dtype(np.uint8),
             "i16": np.dtype(np.uint16), "i32": np.dtype(np.uint32), "i64": np.dtype(np.uint64)}

_BY_DTYPE: dict[np.dtype, str] = {}
for _name, _dt in NUMPY_DTYPES.items():
    _BY_DTYPE.setdefault(_dt, _name)


def numpy_dtype(element: str) -> np.dtype:
    """The NumPy dtype that stores values of the element type spelled ``element``."""
    return NUMPY_DTYPES[element]


def unsigned_dtype(element: str) -> np.dtype:
    """The unsigned NumPy integer dtype of the same width as integer type ``element``."""
    return _UNSIGNED[element]


def element_name_of_dtype(dtype: np.dtype) -> str | None:
    """The element type stored by ``dtype`` (float32 maps to f32, never tf32), or None."""
    return _BY_DTYPE.get(np.dtype(dtype))
