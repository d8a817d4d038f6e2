"""Encoding primitives: LEB128 varints, zigzag varints, little-endian arrays, alignment.

Writers append to a ``bytearray``; readers work on ``bytes`` with an explicit position and
raise :class:`~tileir.bytecode.errors.BytecodeError` (never ``IndexError``) on truncation.
"""

from __future__ import annotations

import struct

from .errors import BytecodeError

__all__ = ["MASK64", "MASK32", "ALIGN_BYTE", "MAGIC", "varint_bytes", "put_varint",
           "put_svarint", "zigzag", "unzigzag", "put_le_array", "pad_to", "Cursor", "to_signed"]

MASK64 = (1 << 64) - 1
MASK32 = (1 << 32) - 1
#: cuda-tile's ``Bytecode::kAlignmentByte``.
ALIGN_BYTE = 0xCB
MAGIC = b"\x7fTileIR\x00"
INT64_MIN = -(1 << 63)

_SMALL = [bytes((i,)) for i in range(128)]


def varint_bytes(value: int) -> bytes:
    """The unsigned LEB128 encoding of ``value`` (0 <= value < 2**64)."""
    if value < 0x80:
        return _SMALL[value]
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def put_varint(out: bytearray, value: int) -> None:
    if value < 0x80:
        out.append(value)
        return
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def zigzag(value: int) -> int:
    """Zigzag of a 64-bit value given as a Python int (signed or already unsigned)."""
    value &= MASK64
    z = (value << 1) & MASK64
    if value >> 63:
        z ^= MASK64
    return z


def unzigzag(z: int) -> int:
    """Inverse of :func:`zigzag`; returns the unsigned 64-bit pattern."""
    v = z >> 1
    if z & 1:
        v ^= MASK64
    return v


def to_signed(value: int, bits: int) -> int:
    if value >> (bits - 1):
        return value - (1 << bits)
    return value


def put_svarint(out: bytearray, value: int) -> None:
    put_varint(out, zigzag(value))


_LE_FMT = {4: "i", 8: "q", 1: "b"}


def put_le_array(out: bytearray, values, width: int) -> None:
    """``varint count`` + ``count`` little-endian signed integers of ``width`` bytes."""
    put_varint(out, len(values))
    if values:
        out += struct.pack(f"<{len(values)}{_LE_FMT[width]}", *values)


def pad_to(out: bytearray, alignment: int, base: int = 0) -> None:
    """Pad ``out`` with the alignment byte so that ``base + len(out)`` is a multiple."""
    if alignment > 1:
        rem = (base + len(out)) % alignment
        if rem:
            out += bytes((ALIGN_BYTE,)) * (alignment - rem)


class Cursor:
    """A read position in ``data`` (``bytes``) whose absolute file offset is ``base + pos``.

    Every read checks bounds and reports errors with the absolute offset."""

    __slots__ = ("data", "pos", "end", "base")

    def __init__(self, data: bytes, base: int = 0, pos: int = 0, end: int | None = None) -> None:
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end
        self.base = base

    @property
    def offset(self) -> int:
        return self.base + self.pos

    def remaining(self) -> int:
        return self.end - self.pos

    def error(self, reason: str, pos: int | None = None) -> BytecodeError:
        return BytecodeError(reason, self.base + (self.pos if pos is None else pos))

    def varint(self, what: str = "varint") -> int:
        data, pos, end = self.data, self.pos, self.end
        if pos >= end:
            raise self.error(f"unexpected end of data while reading {what}")
        b = data[pos]
        if b < 0x80:
            self.pos = pos + 1
            return b
        result = 0
        shift = 0
        while True:
            if pos >= end:
                raise self.error(f"unexpected end of data while reading {what}", pos)
            if shift > 63:
                raise self.error(f"malformed {what}: varint longer than 10 bytes", pos)
            b = data[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        self.pos = pos
        return result & MASK64

    def varint_max(self, limit: int, what: str) -> int:
        """A varint that also bounds a count: it may not exceed ``limit``."""
        start = self.pos
        v = self.varint(what)
        if v > limit:
            raise self.error(f"{what} ({v}) exceeds the remaining data ({limit} bytes)", start)
        return v

    def varint32(self, what: str) -> int:
        """A varint holding an unsigned 32-bit value (debug info lines and columns)."""
        start = self.pos
        v = self.varint(what)
        if v >= 1 << 32:
            raise self.error(f"{what} ({v}) does not fit 32 bits", start)
        return v

    def svarint(self, what: str = "signed varint") -> int:
        """A zigzag varint as a signed 64-bit value."""
        return to_signed(unzigzag(self.varint(what)), 64)

    def byte(self, what: str = "byte") -> int:
        pos = self.pos
        if pos >= self.end:
            raise self.error(f"unexpected end of data while reading {what}")
        self.pos = pos + 1
        return self.data[pos]

    def take(self, n: int, what: str = "bytes") -> bytes:
        pos = self.pos
        if n < 0 or n > self.end - pos:
            raise self.error(f"unexpected end of data while reading {what} "
                             f"({n} bytes requested, {self.end - pos} available)")
        self.pos = pos + n
        return self.data[pos:pos + n]

    def u16(self, what: str = "u16") -> int:
        return int.from_bytes(self.take(2, what), "little")

    def le_array(self, width: int, what: str) -> list[int]:
        """``varint count`` + little-endian signed integers (cuda-tile's readLEVarSize)."""
        start = self.pos
        n = self.varint(what)
        if n * width > self.end - self.pos:
            raise self.error(f"array size in bytecode ({n}) exceeds the remaining data while "
                             f"reading {what}", start)
        raw = self.take(n * width, what)
        if not n:
            return []
        return list(struct.unpack(f"<{n}{_LE_FMT[width]}", raw))

    def skip_padding(self, alignment: int, what: str = "padding") -> None:
        """Skip to the next multiple of ``alignment`` relative to the cursor's origin."""
        if alignment < 2:
            return
        if self.pos >= self.end:
            raise self.error(f"unexpected end of data while skipping {what}")
        pad = (-self.pos) % alignment
        if pad > self.end - self.pos:
            raise self.error(f"unexpected end of data while skipping {what}")
        self.pos += pad

    def u32_table(self, n: int, what: str) -> list[int]:
        if n * 4 > self.end - self.pos:
            raise self.error(f"{what}: {n} entries do not fit in the remaining "
                             f"{self.end - self.pos} bytes")
        raw = self.take(n * 4, what)
        return list(struct.unpack(f"<{n}I", raw)) if n else []

    def u64_table(self, n: int, what: str) -> list[int]:
        if n * 8 > self.end - self.pos:
            raise self.error(f"{what}: {n} entries do not fit in the remaining "
                             f"{self.end - self.pos} bytes")
        raw = self.take(n * 8, what)
        return list(struct.unpack(f"<{n}Q", raw)) if n else []
