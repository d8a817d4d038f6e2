"""Syntax that NVIDIA's printer leaves ambiguous and tileir resolves by type."""

from __future__ import annotations

import pytest

import tileir
from tileir.text.parser import parse_module

SOURCE = """
cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>) {
    %ptrs = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ptrs8 = broadcast %ptrs : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %pad = constant <f32: 1.0> : tile<8xf32>
    %mask = constant <i1: true> : tile<8xi1>
    %r, %t = load_ptr_tko weak %ptrs8, %pad : tile<8xptr<f32>>, tile<8xf32> -> tile<8xf32>, token
    %r2, %t2 = load_ptr_tko weak %ptrs8, %mask : tile<8xptr<f32>>, tile<8xi1> -> tile<8xf32>, token
    %r3, %t3 = load_ptr_tko weak %ptrs8, %mask, %pad : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
  }
}
"""


@pytest.mark.parametrize("fast", [True, False])
def test_lone_load_operand_is_mask_or_padding_by_type(fast):
    module = parse_module(SOURCE, fast=fast)
    loads = [op for op in module.walk() if op.name == "cuda_tile.load_ptr_tko"]
    assert [(op.mask is not None, op.paddingValue is not None) for op in loads] == \
        [(False, True), (True, False), (True, True)]
    tileir.verify(module)
    again = tileir.parse(tileir.print(module))
    assert tileir.print(again) == tileir.print(module)
