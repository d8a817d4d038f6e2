"""Verification of cuda_tile type parameters (NVIDIA's ``Type::verify`` hooks).

MLIR checks a type when it is built from text (``getChecked``), so these are parse-time errors in
cuda-tile-opt; the parser and the bytecode reader call :func:`verify_type` on every cuda_tile type
they construct.  Types are interned, so each distinct type is checked once (results are cached).

Messages use cuda-tile's wording (``Types.cpp``): shapes print as ``1, 0, 2`` (MLIR's range
printing), element types quoted (``'i32'``).
"""

from __future__ import annotations

from typing import Callable, Optional

from .types import (BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64, I1, I4, I8, I16,
                    I32, I64, TF32, FloatType, GatherScatterViewType, PartitionViewType,
                    PointerType, StridedViewType, TensorViewType, TileType, Type)

__all__ = ["verify_type", "deep_type_error", "tile_shape_error", "view_layout_error",
           "padding_error", "MAX_TILE_ELEMENTS", "NUMBER_TYPES", "NUMBER_SUMMARY",
           "TILE_ELEMENT_SUMMARY", "type_version_error", "TYPE_TAG_NAMES"]

#: cuda-tile's ``maxTileNumElements``.
MAX_TILE_ELEMENTS = 16777216
INT32_MAX = 2147483647

NUMBER_TYPES = frozenset((F16, BF16, F32, TF32, F64, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN,
                          I1, I8, I16, I32, I64))
#: ODS summary of ``CudaTile_NumberType`` (AnyFloat, then AnyInt).
NUMBER_SUMMARY = ("f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
                  "f4E2M1FN or i1 or i8 or i16 or i32 or i64")
#: ODS summary of ``CudaTile_TileElementType`` (NumberType, PointerType, Int4).
TILE_ELEMENT_SUMMARY = NUMBER_SUMMARY + " or Pointer type or i4"

_CACHE: dict = {}


def _dims(shape) -> str:
    return ", ".join(str(d) for d in shape)


def _dyn_list(values) -> str:
    return "[" + ", ".join("?" if v is None else str(v) for v in values) + "]"


def tile_shape_error(shape, element: Optional[Type] = None, *,
                     shape_text: Callable[[tuple], str] = _dims) -> Optional[str]:
    """``TileType::verify``: F4E2M1FN parity, then positive / power-of-two / size limit.
    ``shape_text`` renders the shape in the messages (MLIR's ``1, 2`` by default)."""
    if element is F4E2M1FN:
        if not shape or all(d % 2 != 0 for d in shape):
            return "F4E2M1FN tiles must have an even number of elements"
    n = 1
    for d in shape:
        if d <= 0:
            return f"all dimensions must be positive constants, got {shape_text(shape)}"
        if d & (d - 1):
            return f"all dimensions must be powers of two, got {shape_text(shape)}"
        if n > MAX_TILE_ELEMENTS // d:
            return f"tile would exceed the maximum of {MAX_TILE_ELEMENTS} elements"
        n *= d
    return None


def padding_error(padding, element: Type, *, quoted: bool = True) -> Optional[str]:
    """A padding value other than zero needs a float element type (``quoted``: the element
    type is quoted in the message, as the parser's diagnostics do)."""
    if padding is None or padding.keyword == "zero":
        return None
    if not isinstance(element, FloatType):
        got = f"'{element}'" if quoted else str(element)
        return (f"padding_value {padding.keyword} can only be used with floating point element "
                f"types, got {got}")
    return None


def view_layout_error(tile_shape, tv: TensorViewType, dim_map=None) -> Optional[str]:
    """The checks every tile view shares: the tile shape against the tensor view's rank, and
    ``dim_map`` (None for gather/scatter views, which have none) as a permutation."""
    if not tile_shape:
        return "0-dimension tile shape is not supported"
    rank = len(tv.shape)
    if len(tile_shape) != rank:
        return (f"expected tensor_view rank and tile rank to match, got tensor_view of rank "
                f"{rank} and tiles of rank {len(tile_shape)}")
    if dim_map is not None and len(dim_map) != len(tile_shape):
        return (f"expected dim_map to map exactly all {len(tile_shape)} dimensions of the tile, "
                f"got {len(dim_map)} mappings")
    if any(d <= 0 for d in tile_shape):
        return f"tile shape dimensions must have positive length but got [{_dims(tile_shape)}]"
    if any(d & (d - 1) for d in tile_shape):
        return (f"tile shape dimensions must have power of two length but got "
                f"[{_dims(tile_shape)}]")
    used: dict = {}
    for tile_dim, tv_dim in enumerate(dim_map or ()):
        if tv_dim < 0:
            return f"target dimension must not be negative, got {tv_dim}"
        if tv_dim >= rank:
            return (f"target dimension is outside of tensor view dimensions, expected strictly "
                    f"less than {rank}, got {tv_dim}")
        if tv_dim in used:
            return (f"target dimension {tv_dim} mapped at least twice (for tile dimensions "
                    f"{used[tv_dim]} and {tile_dim})")
        used[tv_dim] = tile_dim
    return None


def _partition_like_error(tile_shape, tv: TensorViewType, dim_map, padding) -> Optional[str]:
    return (view_layout_error(tile_shape, tv, dim_map)
            or tile_shape_error(tile_shape, tv.element)
            or padding_error(padding, tv.element))


def _verify(t: Type) -> Optional[str]:
    if isinstance(t, TileType):
        el = t.element
        if el not in NUMBER_TYPES and el is not I4 and not isinstance(el, PointerType):
            return f"failed to verify 'elementType': {TILE_ELEMENT_SUMMARY}"
        return tile_shape_error(t.shape, el)
    if isinstance(t, PointerType):
        if t.pointee not in NUMBER_TYPES:
            return f"failed to verify 'pointeeType': {NUMBER_SUMMARY}"
        return None
    if isinstance(t, TensorViewType):
        if t.element not in NUMBER_TYPES:
            return f"failed to verify 'elementType': {NUMBER_SUMMARY}"
        if len(t.shape) != len(t.strides):
            return (f"expected shape and stride to be of same rank but got shape of rank "
                    f"{len(t.shape)} and stride of rank {len(t.strides)}")
        if any(d is not None and d <= 0 for d in t.shape):
            return ("dimensions must have strictly positive constant sizes but got "
                    + _dyn_list(t.shape))
        if any(d is not None and d <= 0 for d in t.strides):
            return ("dimensions must have strictly positive constant strides but got "
                    + _dyn_list(t.strides))
        return None
    if isinstance(t, PartitionViewType):
        return _partition_like_error(t.tile_shape, t.tensor_view, t.dim_map, t.padding_value)
    if isinstance(t, StridedViewType):
        msg = _partition_like_error(t.tile_shape, t.tensor_view, t.dim_map, t.padding_value)
        if msg:
            return msg
        if len(t.tile_shape) != len(t.traversal_strides):
            return (f"expected {len(t.tile_shape)} traversal strides, got "
                    f"{len(t.traversal_strides)}")
        if any(s <= 0 for s in t.traversal_strides):
            return (f"traversal strides must be strictly positive but got "
                    f"[{_dims(t.traversal_strides)}]")
        return None
    if isinstance(t, GatherScatterViewType):
        shape = t.tile_shape
        tv = t.tensor_view
        msg = view_layout_error(shape, tv)
        if msg:
            return msg
        if t.sparse_dim < 0 or t.sparse_dim >= len(tv.shape):
            return (f"gather dimension is outside of tensor view dimensions, expected strictly "
                    f"less than {len(tv.shape)}, got {t.sparse_dim}")
        return tile_shape_error(shape, tv.element) or padding_error(t.padding_value, tv.element)
    return None


def verify_type(t: Type) -> Optional[str]:
    """The first problem with the parameters of cuda_tile type ``t`` (only ``t`` itself: nested
    types are checked when they are built), or None."""
    try:
        return _CACHE[t]
    except KeyError:
        pass
    msg = _verify(t)
    _CACHE[t] = msg
    return msg


_DEEP: dict = {}


def deep_type_error(t: Type) -> Optional[str]:
    """Like :func:`verify_type`, for ``t`` and every type nested in it (innermost first): for IR
    built without the parser (builder API, bytecode)."""
    try:
        return _DEEP[t]
    except KeyError:
        pass
    msg = None
    for sub in _nested(t):
        msg = deep_type_error(sub)
        if msg:
            break
    else:
        msg = verify_type(t)
    _DEEP[t] = msg
    return msg


def _nested(t: Type):
    if isinstance(t, TileType):
        return (t.element,)
    if isinstance(t, PointerType):
        return (t.pointee,)
    if isinstance(t, TensorViewType):
        return (t.element,)
    if isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
        return (t.tensor_view,)
    inputs = getattr(t, "inputs", None)
    if inputs is not None:
        return (*inputs, *t.results)
    return ()


# ---------------------------------------------------------------------------------------------
# Since-versions of types (bytecode type tags)
# ---------------------------------------------------------------------------------------------

#: NVIDIA's bytecode type tag names, used in version diagnostics.
TYPE_TAG_NAMES = {F8E8M0FNU: "Float8E8M0FNU", F4E2M1FN: "Float4E2M1FN", I4: "Int4",
                  StridedViewType: "StridedViewType", GatherScatterViewType: "GatherScatterViewType"}
_TYPE_SINCE = {F8E8M0FNU: (13, 2), F4E2M1FN: (13, 3), I4: (13, 3),
               StridedViewType: (13, 3), GatherScatterViewType: (13, 3)}


def _walk_type(t: Type):
    yield t
    if isinstance(t, TileType):
        yield from _walk_type(t.element)
    elif isinstance(t, PointerType):
        yield from _walk_type(t.pointee)
    elif isinstance(t, TensorViewType):
        yield from _walk_type(t.element)
    elif isinstance(t, (PartitionViewType, StridedViewType, GatherScatterViewType)):
        yield from _walk_type(t.tensor_view)
    else:
        inputs = getattr(t, "inputs", None)
        if inputs is not None:
            for x in inputs:
                yield from _walk_type(x)
            for x in t.results:
                yield from _walk_type(x)


def type_version_error(t: Type, target: tuple[int, int], target_text: str) -> Optional[str]:
    """cuda-tile's message when ``t`` (or a type nested in it) is newer than ``target``."""
    for sub in _walk_type(t):
        since = _TYPE_SINCE.get(sub) or _TYPE_SINCE.get(type(sub))
        if since is not None and since > target:
            name = TYPE_TAG_NAMES.get(sub) or TYPE_TAG_NAMES.get(type(sub))
            return (f"type '{name}' requires bytecode version {since[0]}.{since[1]}+, "
                    f"targeting {target_text}")
    return None
