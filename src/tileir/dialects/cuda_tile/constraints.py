"""The cuda_tile dialect's type constraints (Types.td / Ops.td), with ODS summaries."""

from __future__ import annotations

from typing import Optional, Sequence

from ...ir.constraints import AnyOf, AnyType, Pred, TypeConstraint, TypeIs
from .types import (BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64, I1, I4, I8, I16,
                    I32, I64, TF32, BuiltinType, ElementType, GatherScatterViewType,
                    PartitionViewType, PointerType, StridedViewType, TensorViewType, TileType,
                    TileViewType, TokenType, Type)


class TileOf(TypeConstraint):
    """``tile`` with an element type from ``elements`` and optionally a rank from ``ranks``.

    ``elements`` holds element types, or the :class:`PointerType` class for "Pointer type"."""

    __slots__ = ("elements", "ranks", "element_summary", "_cache")

    def __init__(self, elements: Sequence, ranks: Optional[Sequence[int]] = None,
                 element_names: Optional[Sequence[str]] = None,
                 prefix: Optional[str] = None) -> None:
        self.elements = tuple(elements)
        self.ranks = tuple(ranks) if ranks is not None else None
        names = element_names or [e.name if isinstance(e, ElementType) else "Pointer type"
                                  for e in self.elements]
        self.element_summary = " or ".join(names)
        if prefix is None:
            prefix = "tile" if ranks is None else "/".join(f"{r}D" for r in ranks) + " tile"
        buildable = None
        if self.ranks == (0,) and len(self.elements) == 1 and isinstance(self.elements[0], ElementType):
            buildable = TileType((), self.elements[0])
        super().__init__(f"{prefix} of {self.element_summary} values", buildable)
        self._cache: dict = {}

    def check(self, t: Type) -> bool:
        try:
            return self._cache[t]
        except KeyError:
            pass
        ok = self._check(t)
        if len(self._cache) < 4096:
            self._cache[t] = ok
        return ok

    def _check(self, t: Type) -> bool:
        if not isinstance(t, TileType):
            return False
        if self.ranks is not None and t.rank not in self.ranks:
            return False
        return self.element_ok(t.element)

    def element_ok(self, el: Type) -> bool:
        for e in self.elements:
            if isinstance(e, type):
                if isinstance(el, e):
                    return True
            elif el is e:
                return True
        return False


INTS = (I1, I8, I16, I32, I64)
BASE_FLOATS = (F16, BF16, F32, F64)
ALL_FLOATS = (F16, BF16, F32, F64, TF32, F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN)
NUMBERS = INTS + ALL_FLOATS

IntTile = TileOf(INTS)
IntTileInt64 = TileOf((I64,))
IntTileUpTo32 = TileOf((I1, I8, I16, I32))
BaseFloatTile = TileOf(BASE_FLOATS)
FloatTile = TileOf(ALL_FLOATS)
NumberTile = TileOf(NUMBERS)
PointerTile = TileOf((PointerType,))
I1Tile = TileOf((I1,))
I8Tile = TileOf((I8,))
ScalarI1 = TileOf((I1,), ranks=(0,))
ScalarI32 = TileOf((I32,), ranks=(0,))
ScalarInt = TileOf(INTS, ranks=(0,))
ScalarPointer = TileOf((PointerType,), ranks=(0,))


def _is_tile(t: Type) -> bool:
    return isinstance(t, TileType)


#: "Tile type": any tile (the TypeDef itself used as a constraint).
AnyTile = TypeIs(TileType, "Tile type")
Token = TypeIs(TokenType, "cuda tile token type")
TensorView = TypeIs(TensorViewType, "tensor view type")
PartitionView = TypeIs(PartitionViewType, "partition view type")
StridedView = TypeIs(StridedViewType, "strided view type")
GatherScatterView = TypeIs(GatherScatterViewType, "gather/scatter view type")
TileView = TypeIs(TileViewType, "TileView instance")


def _is_cuda_tile_type(t: Type) -> bool:
    return not isinstance(t, BuiltinType) and (
        not isinstance(t, ElementType) or t in NUMBERS)


#: CudaTile_AnyType: a number type or any cuda_tile type.
CudaTileAny = Pred(_is_cuda_tile_type,
                   "f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
                   "f4E2M1FN or i1 or i8 or i16 or i32 or i64 or ")
ANY = AnyType()

#: fma operands: base floats (the op restricts further in verification).
FmaTile = BaseFloatTile

#: exti/trunci integer tiles: IntTileType's elements plus i4 (Ops.td ExtIOp_IntegerType)
ExtTruncInt = TileOf(INTS + (I4,))
#: unpack result: any number tile incl. i4
UnpackedTile = TileOf(NUMBERS + (I4,))
PackSource = TileOf(NUMBERS + (I4,))


def i1_same_shape(t: Type) -> Optional[Type]:
    """``tile<SxE>`` -> ``tile<Sxi1>`` (cmpi/cmpf results)."""
    if isinstance(t, TileType):
        return TileType(t.shape, I1)
    return None
