"""Splat dense attributes stay one element in memory, whatever their shape (fuzzer finding: a
``dense<1.0> : tensor<6000000000xf32>`` was materialized and took the machine's memory)."""

from __future__ import annotations

import numpy as np
import pytest

import tileir

HUGE = [
    ("dense<1.0> : tensor<99999999999xf32>", "dense<1.000000e+00> : tensor<99999999999xf32>"),
    ("dense<-2> : vector<4000000000xi8>", "dense<-2> : vector<4000000000xi8>"),
    ("dense<12345678901234567890123> : tensor<9999999999xi128>",
     "dense<12345678901234567890123> : tensor<9999999999xi128>"),
    ('dense<"0x0000803F"> : tensor<9999999999xf32>', "dense<1.000000e+00> : tensor<9999999999xf32>"),
    ("dense<true> : tensor<3000000000x3xi1>", "dense<true> : tensor<3000000000x3xi1>"),
]


@pytest.mark.parametrize("attr, printed", HUGE)
def test_huge_splat_parses_prints_and_compares_in_one_elements_memory(attr, printed):
    text = f"func.func @f() {{\n  %0 = arith.constant {attr}\n  return\n}}\n"
    module = tileir.parse(text)
    const = next(op for op in module.walk() if op.name == "arith.constant")
    value = const.attributes["value"]
    assert not any(value.array.strides) and value.is_splat
    assert printed in tileir.print(module)
    assert printed in tileir.print(module, generic=True)
    again = tileir.parse(tileir.print(module))
    other = next(op for op in again.walk() if op.name == "arith.constant").attributes["value"]
    assert other == value and hash(other) == hash(value)


def test_small_splat_equals_its_materialized_array():
    module = tileir.parse("func.func @f() {\n  %0 = arith.constant dense<1.5> : tensor<2x3xf32>\n"
                          "  return\n}\n")
    value = next(op for op in module.walk() if op.name == "arith.constant").attributes["value"]
    full = type(value)(value.type, np.full((2, 3), 1.5, dtype=np.float32))
    assert value == full and hash(value) == hash(full)


def test_splat_beyond_64_bit_indexing_is_a_clear_error():
    text = ("func.func @f() {\n  %0 = arith.constant dense<1.0> : "
            "tensor<9999999999x9999999999x99999xf32>\n  return\n}\n")
    with pytest.raises(tileir.DiagnosticError, match=r"t.mlir:2:28: error: tileir cannot "
                       r"represent a dense splat of 9999899998000020000099999 elements"):
        tileir.parse(text, "t.mlir")
