"""Dense constants and float bit patterns as MLIR stores them in bytecode.

A ``DenseElementsAttr`` is stored as MLIR's raw buffer: little-endian, row-major, one element per
``ceil(bitwidth / 8)`` bytes (tf32 takes 3 bytes, i4 and f4E2M1FN one byte each); ``i1`` is
bit-packed LSB first, except that a splat is one byte ``0x00`` / ``0xFF``.  Any splat is stored
as a single element.
"""

from __future__ import annotations

import math
import struct
import sys
from typing import Optional

import numpy as np

from ..dialects.cuda_tile.attributes import DenseElementsAttr
from ..ir.dtypes import APFLOAT_BITS, NUMPY_DTYPES
from ..dialects.cuda_tile.types import ElementType, FloatType, IntegerType, TileType

__all__ = ["FLOAT_BITS", "storage_bytes", "dense_to_raw", "raw_to_dense", "float_to_bits",
           "bits_to_float", "DenseBudget"]

#: Bit width of each float format as MLIR's APFloat semantics define it.
FLOAT_BITS = APFLOAT_BITS

_UINT = {1: np.dtype("u1"), 2: np.dtype("<u2"), 4: np.dtype("<u4"), 8: np.dtype("<u8")}


def storage_bytes(element: ElementType) -> int:
    """Bytes per element in MLIR's dense storage (0 for the bit-packed i1)."""
    if isinstance(element, IntegerType):
        return 0 if element.width == 1 else (element.width + 7) // 8
    return (FLOAT_BITS[element.name] + 7) // 8


def _tf32_bits(arr32: np.ndarray) -> np.ndarray:
    """f32 -> 19-bit tf32 patterns, rounding to nearest even (inf/NaN truncated, NaN kept)."""
    u = np.ascontiguousarray(arr32, dtype="<f4").view("<u4").astype(np.uint64)
    exp_all = ((u >> np.uint64(23)) & np.uint64(0xFF)) == np.uint64(0xFF)
    mant = u & np.uint64(0x7FFFFF)
    lsb = (u >> np.uint64(13)) & np.uint64(1)
    rounded = (u + np.uint64(0xFFF) + lsb) >> np.uint64(13)
    trunc = u >> np.uint64(13)
    nan_fix = exp_all & (mant != np.uint64(0)) & ((trunc & np.uint64(0x3FF)) == np.uint64(0))
    out = np.where(exp_all, np.where(nan_fix, trunc | np.uint64(0x200), trunc), rounded)
    return (out & np.uint64(0x7FFFF)).astype(np.uint32)


_LITTLE = sys.byteorder == "little"
_PLAIN = {"i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64", "f8E4M3FN", "f8E5M2",
          "f8E8M0FNU"}


def dense_to_raw(attr: DenseElementsAttr) -> bytes:
    """MLIR's raw buffer of a dense constant (splats stored as one element)."""
    typ = attr.type
    el = typ.element
    arr = attr.array
    name = el.name
    known_splat = attr._splat is True
    if name in _PLAIN and _LITTLE:
        dt = NUMPY_DTYPES[name]
        if known_splat and arr.size:
            first = arr[(0,) * arr.ndim] if arr.ndim else arr[()]
            return np.asarray(first, dtype=dt).tobytes()
        if arr.dtype != dt:
            arr = arr.astype(dt)
        raw = arr.tobytes()
        k = dt.itemsize
        if len(raw) > k and raw == raw[:k] * (len(raw) // k):
            return raw[:k]
        return raw
    arr = np.asarray(arr)
    splat = attr.is_splat
    flat = arr.reshape(-1)
    if splat and flat.size:
        flat = flat[:1]
    if name == "i1":
        bools = flat.astype(bool)
        if splat:
            return b"\xff" if (bools.size and bools[0]) else b"\x00"
        return np.packbits(bools, bitorder="little").tobytes()
    if name == "tf32":
        bits = _tf32_bits(flat.astype(np.float32))
        b3 = np.empty((bits.size, 3), dtype=np.uint8)
        b3[:, 0] = bits & 0xFF
        b3[:, 1] = (bits >> 8) & 0xFF
        b3[:, 2] = (bits >> 16) & 0xFF
        return b3.tobytes()
    dt = NUMPY_DTYPES[name]
    if flat.dtype != dt:
        flat = flat.astype(dt)
    if name in ("i4", "f4E2M1FN"):
        return (np.ascontiguousarray(flat).view(np.uint8) & 0x0F).tobytes()
    width = dt.itemsize
    return np.ascontiguousarray(flat).view(_UINT[width]).astype(_UINT[width].newbyteorder("<"),
                                                               copy=False).tobytes()


class DenseBudget:
    """Bounds the memory the reader spends materialising splats: beyond the budget a splat is
    kept as a read-only broadcast view, so a tiny file cannot make the reader allocate
    gigabytes."""

    __slots__ = ("left",)

    def __init__(self, input_size: int) -> None:
        self.left = (64 << 20) + 64 * input_size

    def take(self, nbytes: int) -> bool:
        if nbytes <= self.left:
            self.left -= nbytes
            return True
        return False


def raw_is_valid(typ: TileType, raw_len: int, first_byte: Optional[int]) -> Optional[bool]:
    """MLIR's ``isValidRawBuffer``: None if invalid, else whether the buffer is a splat."""
    el = typ.element
    n = typ.numel
    width = storage_bytes(el)
    if width == 0:  # i1, bit-packed
        if raw_len == 1 and first_byte in (0, 0xFF):
            return True
        if raw_len * 8 == ((n + 7) // 8) * 8:
            return n == 1
        return None
    if raw_len == width:
        return True
    if raw_len == width * n:
        return n == 1
    return None


_PLAIN_WIDTH = {name: NUMPY_DTYPES[name].itemsize for name in _PLAIN}


def raw_to_dense(typ: TileType, raw: bytes, budget: Optional[DenseBudget] = None
                 ) -> Optional[DenseElementsAttr]:
    """Rebuild a dense constant of type ``typ`` from its raw buffer; None if the buffer does not
    fit the type (cuda-tile: "failed to validate buffer size and format")."""
    name = typ.element.name
    width = _PLAIN_WIDTH.get(name)
    if width is not None and _LITTLE:
        n = typ.numel
        size = len(raw)
        dt = NUMPY_DTYPES[name]
        if size == width:
            if n == 1:
                arr = np.frombuffer(bytearray(raw), dtype=dt).reshape(typ.shape)
            elif budget is None or budget.take(n * width):
                arr = np.frombuffer(bytearray(raw * n), dtype=dt).reshape(typ.shape)
            else:
                arr = np.broadcast_to(np.frombuffer(raw, dtype=dt).reshape((1,) * len(typ.shape)),
                                      typ.shape)
            attr = DenseElementsAttr(typ, arr)
            attr._splat = True
            return attr
        if size != width * n:
            return None
        if budget is not None:
            budget.take(size)
        return DenseElementsAttr(typ, np.frombuffer(bytearray(raw), dtype=dt).reshape(typ.shape))
    return _raw_to_dense_slow(typ, raw, budget)


def _raw_to_dense_slow(typ: TileType, raw: bytes, budget: Optional[DenseBudget] = None
                 ) -> Optional[DenseElementsAttr]:
    """Rebuild a dense constant of type ``typ`` from its raw buffer; None if the buffer does not
    fit the type (cuda-tile: "failed to validate buffer size and format")."""
    el = typ.element
    splat = raw_is_valid(typ, len(raw), raw[0] if raw else None)
    if splat is None:
        return None
    name = el.name
    shape = typ.shape
    n = typ.numel
    if name == "i1":
        if splat and len(raw) == 1 and raw[0] in (0, 0xFF):
            flat = np.array([raw[0] == 0xFF], dtype=bool)
        else:
            flat = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")[:n]
            flat = flat.astype(bool)
    elif name == "tf32":
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.uint32)
        bits = (b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)) << 13
        flat = bits.astype("<u4").view(np.float32)
    else:
        dt = NUMPY_DTYPES[name]
        if name in ("i4", "f4E2M1FN"):
            flat = (np.frombuffer(raw, dtype=np.uint8) & 0x0F).view(dt)
            if name == "i4":
                flat = flat.copy()
        else:
            flat = np.frombuffer(raw, dtype=_UINT[dt.itemsize]).view(dt)
    itemsize = flat.dtype.itemsize
    if splat and n != 1:
        value = flat[:1]
        if budget is None or budget.take(n * itemsize):
            arr = np.full(shape, value[0], dtype=flat.dtype)
        else:
            arr = np.broadcast_to(value.reshape((1,) * len(shape)), shape)
        attr = DenseElementsAttr(typ, arr)
        attr._splat = True
        return attr
    if budget is not None:
        budget.take(n * itemsize)
    arr = flat.reshape(shape).copy() if shape else flat.reshape(()).copy()
    return DenseElementsAttr(typ, arr)


# ---------------------------------------------------------------------------------------------
# Scalars (FloatAttr payloads)
# ---------------------------------------------------------------------------------------------

_STRUCT_FLOATS = {"f16": (struct.Struct("<e"), 2), "f32": (struct.Struct("<f"), 4),
                  "f64": (struct.Struct("<d"), 8)}


def float_to_bits(value: float, element: FloatType) -> int:
    """The bit pattern of ``value`` in ``element``'s format (round to nearest even)."""
    name = element.name
    fast = _STRUCT_FLOATS.get(name)
    if fast is not None:
        try:
            return int.from_bytes(fast[0].pack(value), "little")
        except (OverflowError, struct.error):
            pass  # out of range for f16/f32: numpy rounds to infinity
    if name == "tf32":
        return int(_tf32_bits(np.array([value], dtype=np.float32))[0])
    dt = NUMPY_DTYPES[name]
    with np.errstate(all="ignore"):
        arr = np.array([value], dtype=np.float64).astype(dt)
    if name == "f4E2M1FN":
        return int(arr.view(np.uint8)[0]) & 0x0F
    return int(arr.view(_UINT[dt.itemsize])[0])


def bits_to_float(bits: int, element: FloatType) -> float:
    name = element.name
    fast = _STRUCT_FLOATS.get(name)
    if fast is not None:
        return fast[0].unpack(bits.to_bytes(fast[1], "little"))[0]
    if name == "tf32":
        return _F32.unpack((bits << 13).to_bytes(4, "little"))[0]
    dt = NUMPY_DTYPES[name]
    raw = np.array([bits], dtype=_UINT[dt.itemsize])
    return float(raw.view(dt)[0])


_F32 = struct.Struct("<f")


def is_finite_size(n: int) -> bool:
    return 0 <= n < (1 << 62) and not math.isnan(n)
