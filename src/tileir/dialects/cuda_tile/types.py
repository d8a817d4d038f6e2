"""The CUDA Tile IR type system (spec §5) plus the types NVIDIA added up to 13.3.

The element types (§5.1) are MLIR's builtin integer and float types (:mod:`tileir.ir.types`,
re-exported here); this module adds the cuda_tile types, interned like every :class:`Type`.
Every type prints in two spellings: the *short* form used inside ops (``tile<4xf32>``) and the
*full* form used in the generic syntax and in diagnostics (``!cuda_tile.tile<4xf32>``).
``str(t)`` is the full form.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

from ...ir.types import (BF16, ELEMENT_TYPES, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32,
                         F64, I1, I4, I8, I16, I32, I64, TF32, BuiltinType, ElementType,
                         FloatType, FunctionType, IntegerType, Type, element_type)
from .attributes import PaddingValue

__all__ = [
    "Type", "CudaTileType", "ElementType", "IntegerType", "FloatType", "PointerType", "TileType", "TensorViewType",
    "TileViewType", "PartitionViewType", "StridedViewType", "GatherScatterViewType", "TokenType",
    "FunctionType", "BuiltinType", "DYNAMIC", "ELEMENT_TYPES", "element_type", "TYPE_SINCE",
    "I1", "I4", "I8", "I16", "I32", "I64", "F16", "BF16", "F32", "TF32", "F64",
    "F8E4M3FN", "F8E5M2", "F8E8M0FNU", "F4E2M1FN", "TOKEN", "tile", "scalar",
]

#: Marker for a dynamic extent or stride (``?``) in a tensor view.
DYNAMIC = None


# ---------------------------------------------------------------------------------------------
# Pointers and tiles (§5.2, §5.3.1)
# ---------------------------------------------------------------------------------------------

class CudaTileType(Type):
    """Base of the cuda_tile types (full form ``!cuda_tile.<short>``)."""

    __slots__ = ()
    DIALECT = "cuda_tile"


class PointerType(CudaTileType):
    """``ptr<E>``: a 64-bit address of a value of element type ``E``."""

    __slots__ = ("pointee",)
    pointee: Type

    def __new__(cls, pointee: Type) -> "PointerType":
        return cls._intern((pointee,), pointee)

    def _init(self, pointee: Type) -> None:
        self.pointee = pointee

    def _make_short(self) -> str:
        return f"ptr<{_nested(self.pointee)}>"


def _nested(t: Type) -> str:
    """Spelling of a type nested inside a cuda_tile type (the dialect prints it short)."""
    return t._short


def _dims(shape: Iterable[Optional[int]]) -> str:
    return "".join(("?" if d is None else str(d)) + "x" for d in shape)


class TileType(CudaTileType):
    """``tile<D0x...xE>``: a value tensor with a static shape; rank 0 is a scalar."""

    __slots__ = ("shape", "element", "rank", "numel")
    shape: tuple[int, ...]
    element: Type
    rank: int
    numel: int

    def __new__(cls, shape: Sequence[int], element: Type) -> "TileType":
        shape = tuple(int(d) for d in shape)
        return cls._intern((shape, element), shape, element)

    def _init(self, shape: tuple, element: Type) -> None:
        self.shape = shape
        self.element = element
        self.rank = len(shape)
        n = 1
        for d in shape:
            n *= d
        self.numel = n

    def _make_short(self) -> str:
        return f"tile<{_dims(self.shape)}{_nested(self.element)}>"

    def with_element(self, element: Type) -> "TileType":
        return TileType(self.shape, element)

    def with_shape(self, shape: Sequence[int]) -> "TileType":
        return TileType(shape, self.element)


def tile(shape: Sequence[int], element: Type | str) -> TileType:
    """Convenience constructor: ``tile([4], "f32")`` is ``tile<4xf32>``."""
    if isinstance(element, str):
        element = ELEMENT_TYPES[element]
    return TileType(shape, element)


def scalar(element: Type | str) -> TileType:
    """The rank-0 tile of ``element``."""
    return tile((), element)


class TokenType(CudaTileType):
    """``token``: an ordering edge between memory operations (not a runtime value)."""

    __slots__ = ()

    def __new__(cls) -> "TokenType":
        return cls._intern(())

    def _make_short(self) -> str:
        return "token"


TOKEN = TokenType()


# ---------------------------------------------------------------------------------------------
# Views (§5.3.2, §5.3.3 and the 13.3 strided / gather-scatter views)
# ---------------------------------------------------------------------------------------------

class TensorViewType(CudaTileType):
    """``tensor_view<SxE, strides=[...]>``: a strided tensor in global memory; ``None`` = ``?``."""

    __slots__ = ("element", "shape", "strides", "rank")
    element: Type
    shape: tuple[Optional[int], ...]
    strides: tuple[Optional[int], ...]
    rank: int

    def __new__(cls, element: Type, shape: Sequence[Optional[int]],
                strides: Sequence[Optional[int]]) -> "TensorViewType":
        shape = tuple(None if d is None else int(d) for d in shape)
        strides = tuple(None if d is None else int(d) for d in strides)
        return cls._intern((element, shape, strides), element, shape, strides)

    def _init(self, element, shape, strides) -> None:
        self.element = element
        self.shape = shape
        self.strides = strides
        self.rank = len(shape)

    def _make_short(self) -> str:
        if not self.shape and not self.strides:
            return f"tensor_view<{_nested(self.element)}>"
        strides = ",".join("?" if s is None else str(s) for s in self.strides)
        return f"tensor_view<{_dims(self.shape)}{_nested(self.element)}, strides=[{strides}]>"

    @property
    def is_static(self) -> bool:
        return None not in self.shape and None not in self.strides


class TileViewType(CudaTileType):
    """Common base of the views that split a tensor view into tiles (the ``TileView`` class)."""

    __slots__ = ("tile_shape", "tensor_view", "padding_value")
    tile_shape: tuple[int, ...]
    tensor_view: TensorViewType
    padding_value: Optional[PaddingValue]

    @property
    def element(self) -> Type:
        return self.tensor_view.element

    @property
    def tile_type(self) -> TileType:
        """The type of a tile loaded through this view."""
        return TileType(self.tile_shape, self.tensor_view.element)

    @property
    def index_rank(self) -> int:
        """Number of indices a load/store through this view takes."""
        return len(self.tile_shape)

    def _padding_text(self) -> str:
        return "" if self.padding_value is None else f"padding_value = {self.padding_value.keyword}, "


def _identity(n: int) -> tuple[int, ...]:
    return tuple(range(n))


def _dim_map_text(dim_map: tuple[int, ...]) -> str:
    if dim_map == _identity(len(dim_map)):
        return ""
    return ", dim_map=[" + ", ".join(map(str, dim_map)) + "]"


class PartitionViewType(TileViewType):
    """``partition_view<tile=(T), [padding_value = p,] tensor_view<...>[, dim_map=[...]]>``."""

    __slots__ = ("dim_map",)
    dim_map: tuple[int, ...]

    def __new__(cls, tile_shape: Sequence[int], tensor_view: TensorViewType,
                dim_map: Optional[Sequence[int]] = None,
                padding_value: Optional[PaddingValue] = None) -> "PartitionViewType":
        tile_shape = tuple(int(d) for d in tile_shape)
        dim_map = _identity(len(tile_shape)) if dim_map is None else tuple(int(d) for d in dim_map)
        return cls._intern((tile_shape, tensor_view, dim_map, padding_value),
                           tile_shape, tensor_view, dim_map, padding_value)

    def _init(self, tile_shape, tensor_view, dim_map, padding_value) -> None:
        self.tile_shape = tile_shape
        self.tensor_view = tensor_view
        self.dim_map = dim_map
        self.padding_value = padding_value

    def _make_short(self) -> str:
        return (f"partition_view<tile=({'x'.join(map(str, self.tile_shape))}), "
                f"{self._padding_text()}{_nested(self.tensor_view)}{_dim_map_text(self.dim_map)}>")


class StridedViewType(TileViewType):
    """``strided_view<tile=(T), traversal_strides=[...], [padding_value = p,] tensor_view<...>
    [, dim_map=[...]]>`` (13.3): tiles placed at ``index * traversal_stride`` elements."""

    __slots__ = ("traversal_strides", "dim_map")
    traversal_strides: tuple[int, ...]
    dim_map: tuple[int, ...]

    def __new__(cls, tile_shape: Sequence[int], traversal_strides: Sequence[int],
                tensor_view: TensorViewType, dim_map: Optional[Sequence[int]] = None,
                padding_value: Optional[PaddingValue] = None) -> "StridedViewType":
        tile_shape = tuple(int(d) for d in tile_shape)
        traversal_strides = tuple(int(d) for d in traversal_strides)
        dim_map = _identity(len(tile_shape)) if dim_map is None else tuple(int(d) for d in dim_map)
        return cls._intern((tile_shape, traversal_strides, tensor_view, dim_map, padding_value),
                           tile_shape, traversal_strides, tensor_view, dim_map, padding_value)

    def _init(self, tile_shape, traversal_strides, tensor_view, dim_map, padding_value) -> None:
        self.tile_shape = tile_shape
        self.traversal_strides = traversal_strides
        self.tensor_view = tensor_view
        self.dim_map = dim_map
        self.padding_value = padding_value

    def _make_short(self) -> str:
        strides = ",".join(map(str, self.traversal_strides))
        return (f"strided_view<tile=({'x'.join(map(str, self.tile_shape))}), "
                f"traversal_strides=[{strides}], {self._padding_text()}"
                f"{_nested(self.tensor_view)}{_dim_map_text(self.dim_map)}>")


class GatherScatterViewType(TileViewType):
    """``gather_scatter_view<tile=(T), [padding_value = p,] tensor_view<...>, sparse_dim=d>``
    (13.3): along ``sparse_dim`` the index is a 1-D tile of element offsets."""

    __slots__ = ("sparse_dim",)
    sparse_dim: int

    def __new__(cls, tile_shape: Sequence[int], tensor_view: TensorViewType, sparse_dim: int,
                padding_value: Optional[PaddingValue] = None) -> "GatherScatterViewType":
        tile_shape = tuple(int(d) for d in tile_shape)
        return cls._intern((tile_shape, tensor_view, int(sparse_dim), padding_value),
                           tile_shape, tensor_view, int(sparse_dim), padding_value)

    def _init(self, tile_shape, tensor_view, sparse_dim, padding_value) -> None:
        self.tile_shape = tile_shape
        self.tensor_view = tensor_view
        self.sparse_dim = sparse_dim
        self.padding_value = padding_value

    def _make_short(self) -> str:
        return (f"gather_scatter_view<tile=({'x'.join(map(str, self.tile_shape))}), "
                f"{self._padding_text()}{_nested(self.tensor_view)}, sparse_dim={self.sparse_dim}>")


#: The bytecode/dialect version in which each non-13.1 type appeared.
TYPE_SINCE: dict[Type | type, str] = {
    F8E8M0FNU: "13.2", F4E2M1FN: "13.3", I4: "13.3",
    StridedViewType: "13.3", GatherScatterViewType: "13.3",
}
