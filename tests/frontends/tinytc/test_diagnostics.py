"""Checker rules beyond the corpus: each gives its message at the offending span."""

from __future__ import annotations

import pytest

from tileir import tinytc

CASES = [
    # (program, location, message)
    ("func @k(%a: memref<f32x8x16,strided<1,4>>) {}", "1.13-41",
     "Invalid strided layout: need 1 <= S_1 and S_(i-1) s_(i-1) <= S_i"),
    ("func @k() work_group_size(24, 1) subgroup_size(16) {}", "1.1-50",
     "The first work group size mode must be a multiple of the subgroup size"),
    ("func @k(%a: memref<f32x8x16>) {\n  %b = fuse %a[0,1] : memref<f32x8x16>\n  %c = fuse %b[0,0] : memref<f32x128>\n}",
     "3.8-37", "Argument is out of bounds"),
    ("func @k(%a: memref<f32x8x16,strided<1,10>>) {\n  %b = fuse %a[0,1] : memref<f32x8x16,strided<1,10>>\n}",
     "2.8-52", "Modes cannot be fused: stride and shape are incompatible (S_k s_k != S_k+1)"),
    ("func @k(%a: memref<f32x32>) {\n  %b = expand %a[0 -> 5x?] : memref<f32x32>\n}",
     "2.8-43", "Product of expand shape must equal mode size"),
    ("func @k(%a: memref<f32x32>) {\n  %b = expand %a[0 -> ?x?] : memref<f32x32>\n}",
     "2.8-43", "At most one mode must be dynamic ('?')"),
    ("func @k(%a: memref<f32x32>) {\n  %b = subview %a[-1:4] : memref<f32x32>\n}", "2.8-40",
     "Offset must be non-negative and must not be '?'; size must be positive or '?'"),
    ("func @k(%a: memref<f32x32>) {\n  %b = load %a[0, 1] : memref<f32x32>\n}", "2.8-37",
     "Number of indices must match memref order or must be 1 for group types"),
    ("func @k(%a: f32, %b: memref<f64>) {\n  store %a, %b[] : memref<f64>\n}", "2.3-30",
     "Scalar type mismatch"),
    ("func @k(%c: i1) {\n  %x = if %c -> (i32) {\n    yield 1 : i32\n  }\n}", "2.8-4.3",
     "An if instruction that returns values must have an else region"),
    ("func @k(%c: i1) {\n  %x = if %c -> (i32) {\n    yield 1 : i32\n  } else {\n    yield 1.0 : f32\n  }\n}",
     "5.5-19", "Number of yielded values does not match number of values yielded by region"),
    ("func @k() {\n  for %i = 0, 4 {\n    yield :\n  }\n}", "3.5-11",
     "Yield encountered in non-yielding region"),
    ("func @k(%a: i32) {\n  %a = arith.add %a, %a : i32\n}", "2.3-4",
     "Identifier %a was already used at <stdin>:1.9-10"),
    ("func @k() {\n  %a = arith.add %b, 1 : i32\n}", "2.18-19", "Undefined identifier %b"),
    ("func @k() {\n  %a = alloca -> memref<f32x?>\n}", "2.8-30",
     "Alloca requires a memref type without dynamic modes"),
    ("func @k(%a: i32) {\n  %b = cmp.lt %a, 1.5 : i32\n}", "2.19-27",
     "Type of SSA value does not match operand type"),
    ("func @k() {\n  %a = arith.add 99999999999999999999, 1 : i64\n}", "2.18-37",
     "Integer overflow: 99999999999999999999"),
    ("func @k(%a: memref<f32x4>) {\n  gemm.n.n 1.0, %a, %a, 0.0, %a : f32, memref<f32x4>, "
     "memref<f32x4>, f32, memref<f32x4>\n}", "2.3-87", "Expected vector or matrix input"),
]


@pytest.mark.parametrize("src,where,message", CASES, ids=[c[2][:30] for c in CASES])
def test_rule_violation_is_reported_at_its_span(src, where, message):
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.parse(src)
    assert (info.value.message, info.value.location) == (message, f"<stdin>:{where}")
