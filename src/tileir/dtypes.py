"""Storage of Tile IR element types in NumPy arrays (DESIGN.md principle 7).

i1 is stored as ``bool``; i4, bf16 and the 8/4-bit floats use ml_dtypes; tf32 is stored as
float32 holding values rounded to 10 mantissa bits.  Integers are signless: an ``iN`` value is
stored in the signed NumPy integer of that width (two's complement), and each op chooses whether
to read it as signed or unsigned.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

__all__ = ["numpy_dtype", "unsigned_dtype", "NUMPY_DTYPES", "element_name_of_dtype"]

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
