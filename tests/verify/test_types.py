"""Type parameter verification: reported while parsing, at the type's line."""

from __future__ import annotations

import pytest

from vhelp import one_error

_FLOAT_INT = ("f16 or bf16 or f32 or tf32 or f64 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
              "f4E2M1FN or i1 or i8 or i16 or i32 or i64")


def _arg(t: str) -> str:
    return f"cuda_tile.module @m {{\n  testing$func @k(\n      %a: {t}) {{\n  }}\n}}\n"


@pytest.mark.parametrize("t, msg", [
    ("tile<3x4xf32>", "all dimensions must be powers of two, got 3, 4"),
    ("tile<4x0xf32>", "all dimensions must be positive constants, got 4, 0"),
    ("tile<4096x4096x2xf32>", "tile would exceed the maximum of 16777216 elements"),
    ("tile<f4E2M1FN>", "F4E2M1FN tiles must have an even number of elements"),
    ("tile<1x1xf4E2M1FN>", "F4E2M1FN tiles must have an even number of elements"),
    ("tile<4xi28>", f"failed to verify 'elementType': {_FLOAT_INT} or Pointer type or i4"),
    ("tile<ptr<i4>>", f"failed to verify 'pointeeType': {_FLOAT_INT}"),
    ("tile<ptr<ptr<f32>>>", f"failed to verify 'pointeeType': {_FLOAT_INT}"),
    ("tensor_view<4xptr<f32>, strides=[1]>", f"failed to verify 'elementType': {_FLOAT_INT}"),
    ("tensor_view<4x4xf32, strides=[1]>",
     "expected shape and stride to be of same rank but got shape of rank 2 and stride of rank 1"),
    ("tensor_view<0x?xf32, strides=[?,1]>",
     "dimensions must have strictly positive constant sizes but got [0, ?]"),
    ("tensor_view<4xf32, strides=[0]>", "expected strictly positive integer, got 0"),
    ("tensor_view<4xf32, strides=[x]>", "expected either 64-bit integer or question mark"),
    ("tensor_view<4xf32>", "expected 'strides'"),
    ("tensor_view<f32, strides=[]>", "strides must not be provided for 0-d tiles"),
    ("partition_view<tile=(4), tensor_view<8x8xf32, strides=[8,1]>>",
     "expected tensor_view rank and tile rank to match, got tensor_view of rank 2 and tiles of "
     "rank 1"),
    ("partition_view<tile=(4x6), tensor_view<8x8xf32, strides=[8,1]>>",
     "tile shape dimensions must have power of two length but got [4, 6]"),
    ("partition_view<tile=(4x4), tensor_view<8x8xf32, strides=[8,1]>, dim_map=[1, 1]>",
     "target dimension 1 mapped at least twice (for tile dimensions 0 and 1)"),
    ("partition_view<tile=(4x4), tensor_view<8x8xf32, strides=[8,1]>, dim_map=[0, 2]>",
     "target dimension is outside of tensor view dimensions, expected strictly less than 2, "
     "got 2"),
    ("partition_view<tile=(4x4), tensor_view<8x8xf32, strides=[8,1]>, dim_map=[0]>",
     "expected dim_map to map exactly all 2 dimensions of the tile, got 1 mappings"),
    ("partition_view<tile=(4), padding_value = nan, tensor_view<8xi32, strides=[1]>>",
     "padding_value nan can only be used with floating point element types, got 'i32'"),
    ("partition_view<tile=(0), tensor_view<8xf32, strides=[1]>>",
     "tile dimension 0 exceeds i32 limitations (got 0, expected strictly positive and less "
     "than or equal to 2147483647)"),
    ("partition_view<tile=(4), tile<4xf32>>",
     "expected 'tensor_view' type, but got '!cuda_tile.tile<4xf32>'"),
    ("strided_view<tile=(4x4), traversal_strides=[4], tensor_view<8x8xf32, strides=[8,1]>>",
     "expected 2 traversal strides, got 1"),
    ("strided_view<tile=(4x4), traversal_strides=[4,-4], tensor_view<8x8xf32, strides=[8,1]>>",
     "traversal strides must be strictly positive but got [4, -4]"),
    ("gather_scatter_view<tile=(4x4), tensor_view<8x8xf32, strides=[8,1]>, sparse_dim=2>",
     "gather dimension is outside of tensor view dimensions, expected strictly less than 2, "
     "got 2"),
])
def test_type_errors(t, msg):
    line, got = one_error(_arg(t))
    assert line == 3
    assert got.endswith(msg), got


def test_nested_type_is_checked_where_it_is_written():
    text = ("cuda_tile.module @m {\n  testing$func @k(%a: tile<ptr<f32>>) {\n"
            "    %v = make_tensor_view %a, shape = [3], strides = [1] : "
            "tensor_view<3xf32, strides=[1]>\n"
            "    %p = make_partition_view %v : partition_view<tile=(3), "
            "tensor_view<3xf32, strides=[1]>>\n  }\n}\n")
    assert one_error(text) == (4, "tile shape dimensions must have power of two length but "
                                  "got [3]")
