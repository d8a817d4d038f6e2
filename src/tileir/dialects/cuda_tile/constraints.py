"""The cuda_tile dialect's type constraints (Types.td / Ops.td), with ODS summaries."""

from __future__ import annotations

from ...ir.constraints import AnyOf, AnyType, Pred, TileOf, TypeIs
from .types import (BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64, I1, I4, I8,
                     I16, I32, I64, TF32, BuiltinType, ElementType, GatherScatterViewType,
                     PartitionViewType, PointerType, StridedViewType, TensorViewType,
                     TileType, TileViewType, TokenType, Type)

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
