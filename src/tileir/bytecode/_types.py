"""The type table: how each type is encoded (per bytecode version) and decoded.

Tags and layouts follow cuda-tile's ``BytecodeTypeOpcodes.td`` and its generated type
serializers; 13.4 adds an optional-parameter bitfield to ``ptr`` and ``tensor_view`` (for a
pointer attribute, which tileir does not model and rejects when present).
"""

from __future__ import annotations

from typing import Optional

from ..dialects.cuda_tile.attributes import PaddingValue
from ..dialects.cuda_tile.type_verify import (NUMBER_TYPES as POINTEE_TYPES, padding_error,
                                              tile_shape_error, view_layout_error)
from ..dialects.cuda_tile.types import (BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64,
                                        I1, I4, I8, I16, I32, I64, TF32, TOKEN, FunctionType,
                                        GatherScatterViewType, PartitionViewType, PointerType,
                                        StridedViewType, TensorViewType, TileType, Type)
from ._prims import INT64_MIN, Cursor, put_le_array, put_varint
from .errors import BytecodeError
from .versions import V13_3, V13_4, Version

__all__ = ["TypeWriter", "TypeReader", "TYPE_TAGS", "TypeVersionError"]

# tag, cuda-tile name, since
_SCALARS = [
    (I1, 0, "Int1", None), (I8, 1, "Int8", None), (I16, 2, "Int16", None),
    (I32, 3, "Int32", None), (I64, 4, "Int64", None), (F16, 5, "Float16", None),
    (BF16, 6, "BFloat16", None), (F32, 7, "Float32", None), (TF32, 8, "TFloat32", None),
    (F64, 9, "Float64", None), (F8E4M3FN, 10, "Float8E4M3FN", None),
    (F8E5M2, 11, "Float8E5M2", None), (TOKEN, 17, "TokenType", None),
    (F8E8M0FNU, 18, "Float8E8M0FNU", Version(13, 2)),
    (F4E2M1FN, 19, "Float4E2M1FN", V13_3), (I4, 22, "Int4", V13_3),
]
_SCALAR_BY_TYPE = {t: (tag, name, since) for t, tag, name, since in _SCALARS}
_SCALAR_BY_TAG = {tag: (t, name, since) for t, tag, name, since in _SCALARS}

TAG_PTR, TAG_TILE, TAG_TV, TAG_PV, TAG_FUNC, TAG_GSV, TAG_SV = 12, 13, 14, 15, 16, 20, 21
_COMPOSITE = {TAG_PTR: ("PointerType", None), TAG_TILE: ("TileType", None),
              TAG_TV: ("TensorViewType", None), TAG_PV: ("PartitionViewType", None),
              TAG_FUNC: ("FunctionType", None), TAG_GSV: ("GatherScatterViewType", V13_3),
              TAG_SV: ("StridedViewType", V13_3)}

#: Every type tag this implementation knows.
TYPE_TAGS = sorted(list(_SCALAR_BY_TAG) + list(_COMPOSITE))

_NUMBER_TYPES = frozenset(t for t, *_ in _SCALARS if t is not TOKEN)


class TypeVersionError(Exception):
    """A type that the target version cannot encode (the writer turns it into a diagnostic)."""


def _dyn(values) -> list:
    return [INT64_MIN if v is None else v for v in values]


class TypeWriter:
    """Assigns type indices (dependencies first, like cuda-tile's TypeManager) and encodes."""

    def __init__(self, version: Version) -> None:
        self.version = version
        self.index: dict = {}
        self.entries: list[bytes] = []
        self.unified = version >= V13_3
        self.v134 = version >= V13_4

    def get(self, t: Type) -> int:
        i = self.index.get(t)
        if i is not None:
            return i
        return self._register(t)

    def _register(self, t: Type) -> int:
        # Dependencies first (cuda-tile's registerDependentTypes).
        if isinstance(t, (TileType, TensorViewType)):
            self.get(t.element)
        elif isinstance(t, PointerType):
            self.get(t.pointee)
        elif isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
            self.get(t.tensor_view)
        elif isinstance(t, FunctionType):
            for x in t.inputs:
                self.get(x)
            for x in t.results:
                self.get(x)
        enc = self._encode(t)
        i = len(self.entries)
        self.entries.append(enc)
        self.index[t] = i
        return i

    def _check(self, name: str, since: Optional[Version]) -> None:
        if since is not None and self.version < since:
            raise TypeVersionError(f"type '{name}' requires bytecode version {since}+, "
                                   f"targeting {self.version}")

    def _encode(self, t: Type) -> bytes:
        out = bytearray()
        scalar = _SCALAR_BY_TYPE.get(t)
        if scalar is not None:
            tag, name, since = scalar
            self._check(name, since)
            out.append(tag)
            return bytes(out)
        get = self.index.__getitem__
        if isinstance(t, TileType):
            out.append(TAG_TILE)
            put_varint(out, get(t.element))
            put_le_array(out, t.shape, 8)
        elif isinstance(t, PointerType):
            out.append(TAG_PTR)
            if self.v134:
                out.append(0)
            put_varint(out, get(t.pointee))
        elif isinstance(t, TensorViewType):
            out.append(TAG_TV)
            if self.v134:
                out.append(0)
            put_varint(out, get(t.element))
            put_le_array(out, _dyn(t.shape), 8)
            put_le_array(out, _dyn(t.strides), 8)
        elif isinstance(t, PartitionViewType):
            out.append(TAG_PV)
            pad = t.padding_value
            if self.unified:
                out.append(0 if pad is None else 1)
            put_le_array(out, t.tile_shape, 4)
            put_varint(out, get(t.tensor_view))
            put_le_array(out, t.dim_map, 4)
            if not self.unified:
                out.append(0 if pad is None else 1)
            if pad is not None:
                put_varint(out, int(pad))
        elif isinstance(t, GatherScatterViewType):
            self._check("GatherScatterViewType", V13_3)
            out.append(TAG_GSV)
            pad = t.padding_value
            out.append(0 if pad is None else 1)
            put_le_array(out, t.tile_shape, 4)
            put_varint(out, get(t.tensor_view))
            put_varint(out, t.sparse_dim & 0xFFFFFFFF)
            if pad is not None:
                put_varint(out, int(pad))
        elif isinstance(t, StridedViewType):
            self._check("StridedViewType", V13_3)
            out.append(TAG_SV)
            pad = t.padding_value
            out.append(0 if pad is None else 1)
            put_le_array(out, t.tile_shape, 4)
            put_le_array(out, t.traversal_strides, 4)
            put_varint(out, get(t.tensor_view))
            put_le_array(out, t.dim_map, 4)
            if pad is not None:
                put_varint(out, int(pad))
        elif isinstance(t, FunctionType):
            out.append(TAG_FUNC)
            put_varint(out, len(t.inputs))
            for x in t.inputs:
                put_varint(out, get(x))
            put_varint(out, len(t.results))
            for x in t.results:
                put_varint(out, get(x))
        else:
            raise TypeVersionError("unsupported type in bytecode writer")
        return bytes(out)


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------

def _shape_text(shape) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def check_tile(shape, element) -> Optional[str]:
    """cuda-tile's ``TileType::verify`` (including ``verifyTileSize``); the reader's messages
    print the shape in brackets."""
    return tile_shape_error(shape, element, shape_text=_shape_text)


def _check_view_like(tile_shape, tv: TensorViewType, dim_map, padding) -> Optional[str]:
    return (view_layout_error(tile_shape, tv, dim_map)
            or check_tile(tile_shape, tv.element)
            or padding_error(padding, tv.element, quoted=False))


class TypeReader:
    """Lazily decodes the type table (types may reference each other in any order; cycles and
    absurd nesting are errors)."""

    MAX_DEPTH = 64

    def __init__(self, data: bytes, base: int, offsets: list[int], version: Version) -> None:
        self.data = data          # the type payload after the offset table
        self.base = base          # absolute offset of data[0]
        self.offsets = offsets
        self.version = version
        self.cache: list = [None] * len(offsets)
        self.active: set = set()
        self.size = len(offsets)

    def get(self, index: int, cursor: Optional[Cursor] = None, depth: int = 0) -> Type:
        """Type ``index``; errors are reported at the referencing position if ``cursor``."""
        if 0 <= index < self.size:
            t = self.cache[index]
            if t is not None:
                return t
        return self._load(index, cursor, depth)

    def _load(self, index: int, cursor: Optional[Cursor], depth: int) -> Type:
        if index >= self.size:
            where = cursor.offset if cursor is not None else None
            raise BytecodeError(f"type index {index} out of bounds (the type table has "
                                f"{self.size} entries)", where)
        if index in self.active or depth > self.MAX_DEPTH:
            raise BytecodeError(f"type {index} refers to itself or nests too deeply",
                                self.base + self.offsets[index])
        start = self.offsets[index]
        end = self.offsets[index + 1] if index + 1 < self.size else len(self.data)
        if end < start or end > len(self.data):
            raise BytecodeError(f"invalid offset range [{start}, {end}) for type {index}",
                                self.base + min(start, len(self.data)))
        self.active.add(index)
        try:
            t = self._parse(Cursor(self.data, self.base, start, end), depth)
        finally:
            self.active.discard(index)
        self.cache[index] = t
        return t

    def _sub(self, c: Cursor, depth: int, what: str) -> Type:
        pos = c.pos
        idx = c.varint(what)
        return self.get(idx, Cursor(c.data, c.base, pos, c.end), depth + 1)

    def _version_check(self, name: str, since: Optional[Version], c: Cursor, pos: int) -> None:
        if since is not None and self.version < since:
            raise c.error(f"type '{name}' requires bytecode version {since}+, file version is "
                          f"{self.version}", pos)

    def _padding(self, c: Cursor) -> PaddingValue:
        pos = c.pos
        v = c.varint("padding value")
        try:
            return PaddingValue(v)
        except ValueError:
            raise c.error(f"invalid integer value for enum type: {v & 0xFFFFFFFF}", pos) from None

    def _parse(self, c: Cursor, depth: int) -> Type:
        start = c.pos
        tag = c.varint("type tag")
        scalar = _SCALAR_BY_TAG.get(tag)
        if scalar is not None:
            t, name, since = scalar
            self._version_check(name, since, c, start)
            return t
        comp = _COMPOSITE.get(tag)
        if comp is None:
            raise c.error(f"unknown type tag: {tag}", start)
        self._version_check(comp[0], comp[1], c, start)
        v = self.version
        if tag == TAG_TILE:
            el = self._sub(c, depth, "tile element type")
            shape = c.le_array(8, "tile shape")
            if el not in _NUMBER_TYPES and not isinstance(el, PointerType):
                raise c.error(f"invalid tile element type {el}", start)
            msg = check_tile(shape, el)
            if msg:
                raise c.error(msg, start)
            return TileType(shape, el)
        if tag == TAG_PTR:
            flags = c.varint("optional parameter flags") if v >= V13_4 else 0
            pointee = self._sub(c, depth, "pointee type")
            if flags:
                raise c.error("pointer attributes (#cuda_tile.ptr_attr) are not supported")
            if pointee not in POINTEE_TYPES:  # (what the text form accepts: not i4)
                raise c.error(f"invalid pointee type {pointee}", start)
            return PointerType(pointee)
        if tag == TAG_TV:
            flags = c.varint("optional parameter flags") if v >= V13_4 else 0
            el = self._sub(c, depth, "tensor_view element type")
            shape = c.le_array(8, "tensor_view shape")
            strides = c.le_array(8, "tensor_view strides")
            if flags:
                raise c.error("pointer attributes (#cuda_tile.ptr_attr) are not supported")
            if el not in _NUMBER_TYPES:
                raise c.error(f"invalid tensor_view element type {el}", start)
            if len(shape) != len(strides):
                raise c.error(f"expected shape and stride to be of same rank but got shape of "
                              f"rank {len(shape)} and stride of rank {len(strides)}", start)
            if any(d <= 0 and d != INT64_MIN for d in shape):
                raise c.error("dimensions must have strictly positive constant sizes", start)
            if any(d <= 0 and d != INT64_MIN for d in strides):
                raise c.error("dimensions must have strictly positive constant strides", start)
            return TensorViewType(el, [None if d == INT64_MIN else d for d in shape],
                                  [None if d == INT64_MIN else d for d in strides])
        if tag == TAG_FUNC:
            n = c.varint_max(c.remaining(), "number of parameters")
            ins = [self._sub(c, depth, "parameter type") for _ in range(n)]
            m = c.varint_max(c.remaining(), "number of results")
            outs = [self._sub(c, depth, "result type") for _ in range(m)]
            return FunctionType(ins, outs)
        # Views: tag 15 (flags only from 13.3), 20 and 21 (always flags).
        unified = tag != TAG_PV or v >= V13_3
        flags = c.varint("optional parameter flags") if unified else 0
        tile_shape = c.le_array(4, "tile shape")
        strides = c.le_array(4, "traversal strides") if tag == TAG_SV else None
        tv = self._sub(c, depth, "tensor view type")
        if not isinstance(tv, TensorViewType):
            raise c.error(f"expected ::mlir::cuda_tile::TensorViewType but got {tv}", start)
        sparse_dim = dim_map = None
        if tag == TAG_GSV:
            sparse_dim = c.varint("sparse dimension")
            if sparse_dim > 0xFFFFFFFF:
                raise c.error(f"sparse_dim value {sparse_dim} exceeds uint32_t range", start)
        else:
            dim_map = c.le_array(4, "dimension mapping")
        padding = None
        if unified:
            if flags & 1:
                padding = self._padding(c)
        elif c.byte("padding presence flag"):
            padding = self._padding(c)
        msg = _check_view_like(tile_shape, tv, dim_map, padding)
        if msg is None and tag == TAG_GSV and sparse_dim >= tv.rank:
            msg = (f"gather dimension is outside of tensor view dimensions, expected strictly "
                   f"less than {tv.rank}, got {sparse_dim}")
        if msg is None and tag == TAG_SV:
            if len(strides) != len(tile_shape):
                msg = f"expected {len(tile_shape)} traversal strides, got {len(strides)}"
            elif any(s <= 0 for s in strides):
                msg = (f"traversal strides must be strictly positive but got "
                       f"[{', '.join(map(str, strides))}]")
        if msg:
            raise c.error(msg, start)
        if tag == TAG_PV:
            return PartitionViewType(tile_shape, tv, dim_map, padding)
        if tag == TAG_SV:
            return StridedViewType(tile_shape, strides, tv, dim_map, padding)
        return GatherScatterViewType(tile_shape, tv, sparse_dim, padding)
