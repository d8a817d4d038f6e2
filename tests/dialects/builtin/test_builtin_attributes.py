"""MLIR's builtin attributes and locations: printed as ``mlir-opt`` prints them (differential
against MLIR 22's ``mlir-opt`` when installed), and invalid attributes reported alike."""

from __future__ import annotations

import pytest

from builtin_diff import assert_same_first_error, mlir_output, tileir_output
from mlir_tools import require_mlir_opt

from tileir.dialects.builtin import AffineMapAttr, IntegerSetAttr
from tileir.text.parser import parse_attribute

#: Attribute spellings (each becomes one entry of an op's attribute dictionary).
ATTRIBUTES = [
    "1", "-3 : i32", "true", "false", "7 : index", "1.5", "-2.0 : f32", "0x7FC00000 : f32",
    "1.0e10 : f64", '"str\\n\\"q"', '[1, "a", [2.5 : f16]]', "array<i32: 1, 2>",
    "array<f32: 1.0, 2.5>", "array<i1: true, false>", "array<i64>", "array<i8: 255>",
    "array<f64: 1.0e3>", "dense<1.0> : tensor<4xf32>", "dense<[1, 2, 3]> : vector<3xi32>",
    "dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>", "{x = 1, a = unit}", "unit", "@sym",
    "@a::@b::@c", '@"quoted sym"', "i32", "memref<4xf32>", "strided<[4, 1], offset: ?>",
    "0.1 : bf16", "1.0e-7 : f32", "3 : ui8", "-1 : si8", "0xFF : i8", "255 : i8",
    "dense<true> : tensor<2xi1>", "dense<[1, 0, -1]> : vector<3xi1>", "-1 : i1", 'dense<"0x01020304"> : tensor<4xi8>', "dense<> : tensor<0xf32>",
    "1.0 : f80", "0x7C00 : f16", "dense<[1.0, 2.0]> : tensor<2xf64>",
    "dense_resource<blob1> : tensor<4xf32>", '"a" : i32', '"x" : none',
    "12345678901234567890 : i128", "4.0 : tf32", "0.5 : f8E4M3FN",
    "dense<[1, 2]> : tensor<2xindex>", "dense<-1> : tensor<3xsi16>", "dense<[300, 2]> : tensor<2xi128>",
    "dense<[" + ", ".join(str(i % 128) for i in range(101)) + "]> : tensor<101xi8>",
    "dense<[" + ", ".join(f"{i}.5" for i in range(120)) + "]> : tensor<120xf32>",
    "dense<[" + ", ".join(["true"] * 100) + ", false]> : tensor<101xi1>",
    'dense<"0xFFFFFFFFFFFFFFFFFFFFFFFF0F"> : tensor<101xi1>',
    "[1, 1.5, 2 : i32, true, [3], {b = 4}]", "{d = [5]}", "[]", "{}",
    "affine_map<() -> ()>", "affine_map<(d0) -> (d0)>",
    "affine_map<(d0)[s0, s1] -> (d0 * s0, s1 floordiv s0, -(d0 + 1), d0 - d0 * 3, 5)>",
    "affine_set<(d0) : (d0 <= 5, d0 == 3, d0 * 2 >= 4)>", "affine_set<(d0)[s0] : (d0 - s0 >= 0)>",
    "affine_map<(i, j) -> (j, i)>",
    "affine_map<(d0, d1)[s0, s1] -> (d0 - d0 * 3, d0 * 2 + d0 * 3, d0 - (d0 floordiv 4) * 4, "
    "d0 * 2 - d0 * 2, d1 + d0 + 1 + d1, (d0 + 2) * 3, (d0 * 3) * 4 + 1, "
    "d0 floordiv 3 floordiv 2, d0 mod 3 mod 3, s0 * s1, s0 + 3 + s1, 3 - d0, -d0 - 1, "
    "-(d0 * 2), d0 * -1 * -1, (d0 + s0) floordiv s1, 7 floordiv 2, -7 floordiv 2, -7 mod 3, "
    "-7 ceildiv 2, d0 ceildiv 1, (d0 * 6) ceildiv 3, (d0 * 6) mod 3, d1 * 4 + d0 * 2 - 1)>",
    "affine_map<(d0, d1, d2)[s0, s1] -> (d1 + d0, d1 + d0 * 2, d1 * 2 + d0, d2 + d1 + d0, "
    "s1 + s0, s0 + d1 + d0, d1 + d1 + d0, d1 floordiv 2 + d0, (d1 + d0) + 1, d1 + (d0 + 1), "
    "d0 + (d1 + d0))>",
]

LOCATIONS = [
    'loc("file.mlir":3:4)', 'loc("name")', 'loc("name"("f.c":1:2))',
    'loc(callsite("a" at "b.c":5:6))', 'loc(fused["a", "b":1:1])', 'loc(fused<"meta">["a"])',
    "loc(unknown)", 'loc("f":1:2 to 3:4)', 'loc("f":1:2 to :4)',
]


def _module() -> str:
    lines = [f'"test.op"() {{a{i:03d} = {a}}} : () -> ()' for i, a in enumerate(ATTRIBUTES)]
    lines.append('"test.op"() {' + ", ".join(f"b{i:03d} = {a}" for i, a in enumerate(ATTRIBUTES))
                 + "} : () -> ()")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("generic", [False, True])
def test_attributes_match_mlir_opt(generic):
    require_mlir_opt()
    text = _module()
    assert tileir_output(text, generic) == mlir_output(text, generic)


@pytest.mark.parametrize("generic", [False, True])
def test_locations_match_mlir_opt(generic):
    require_mlir_opt()
    text = "".join(f'"test.op"() : () -> () {loc}\n' for loc in LOCATIONS)
    assert tileir_output(text, generic, debuginfo=True) == \
        mlir_output(text, generic, debuginfo=True)


def test_affine_map_objects():
    m = parse_attribute("affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0, d1 mod 3)>")
    assert isinstance(m, AffineMapAttr)
    assert m.value.n_dims == 2 and m.value.n_symbols == 1
    assert m.value.evaluate((1, 5), (10,)) == (19, 2)
    assert parse_attribute("affine_map<(d0) -> (d0 ceildiv 4)>").value.evaluate((5,)) == (2,)
    s = parse_attribute("affine_set<(d0) : (d0 <= 5)>")
    assert isinstance(s, IntegerSetAttr) and str(s) == "affine_set<(d0) : (-d0 + 5 >= 0)>"


INVALID = [
    "256 : i8", "-1 : ui8", "128 : si8", "affine_map<(d0) -> (d0 * d0)>",
    "affine_map<(d0) -> (d1)>", "affine_map<(d0) -> (d0 floordiv d0)>",
    "dense<[1, 2]> : tensor<3xi32>",
    "dense<1.5> : tensor<2xi32>", "array<i8: 300>", "strided<[1], offset: x>",
]


@pytest.mark.parametrize("bad", INVALID)
def test_invalid_attribute_matches_mlir_opt(bad):
    require_mlir_opt()
    assert_same_first_error(f'"test.op"() {{a = {bad}}} : () -> ()\n')
