"""MLIR's builtin types: parsed into interned type objects, printed as ``mlir-opt`` prints them
(differential against MLIR 22's ``mlir-opt`` when installed), accessors, and errors."""

from __future__ import annotations

import pytest

from builtin_diff import assert_same_first_error, mlir_output, tileir_output
from mlir_tools import require_mlir_opt

from tileir.dialects.builtin import (INDEX, NONE, AffineMapAttr, ComplexType, FloatType,
                                     IntegerType, MemRefType, RankedTensorType,
                                     SignedIntegerType, StridedLayoutAttr, TupleType,
                                     UnrankedMemRefType, UnrankedTensorType, VectorType)
from tileir.ir.attributes import IntegerAttr, OpaqueAttr, StringAttr
from tileir.ir.types import F32, I32, I64, BuiltinType
from tileir.text.parser import parse_type

FLOATS = ["f16", "bf16", "f32", "f64", "f80", "f128", "tf32", "f8E4M3FN", "f8E5M2", "f8E4M3",
          "f8E5M2FNUZ", "f8E4M3FNUZ", "f8E4M3B11FNUZ", "f8E3M4", "f8E8M0FNU", "f6E2M3FN",
          "f6E3M2FN", "f4E2M1FN"]

#: (input spelling, what mlir-opt prints), checked against mlir-opt too.
TYPES = [(f, f) for f in FLOATS] + [
    ("i1", "i1"), ("i0", "i0"), ("i7", "i7"), ("i128", "i128"), ("si8", "si8"), ("ui64", "ui64"),
    ("si1", "si1"), ("index", "index"), ("none", "none"),
    ("complex<f32>", "complex<f32>"), ("complex<i8>", "complex<i8>"),
    ("tuple<>", "tuple<>"), ("tuple<i32, tuple<f32, index>>", "tuple<i32, tuple<f32, index>>"),
    ("vector<4xf32>", "vector<4xf32>"), ("vector<f32>", "vector<f32>"),
    ("vector<2x3x4xi8>", "vector<2x3x4xi8>"), ("vector<[4]xf32>", "vector<[4]xf32>"),
    ("vector<2x[4]x[8]xindex>", "vector<2x[4]x[8]xindex>"), ("vector< 4 x 2 x f16 >", "vector<4x2xf16>"),
    ("tensor<f32>", "tensor<f32>"), ("tensor<0xf32>", "tensor<0xf32>"),
    ("tensor<0x4xf32>", "tensor<0x4xf32>"), ("tensor<?x4x?xi1>", "tensor<?x4x?xi1>"),
    ("tensor<*xf32>", "tensor<*xf32>"), ("tensor<4xf32, \"enc\">", "tensor<4xf32, \"enc\">"),
    ("tensor<4xf32, #foo.enc<1>>", "tensor<4xf32, #foo.enc<1>>"),
    ("tensor<4xvector<4xf32>>", "tensor<4xvector<4xf32>>"),
    ("tensor<4xcomplex<f64>>", "tensor<4xcomplex<f64>>"),
    ("memref<f32>", "memref<f32>"), ("memref<4x?xf32>", "memref<4x?xf32>"),
    ("memref<*xf32>", "memref<*xf32>"), ("memref<*xf32, 3>", "memref<*xf32, 3>"),
    ("memref<4xf32, 1>", "memref<4xf32, 1>"), ("memref<4xf32, 0>", "memref<4xf32>"),
    ("memref<4xf32, 0 : i32>", "memref<4xf32>"), ("memref<4xf32, 2 : i32>", "memref<4xf32, 2 : i32>"),
    ("memref<4xf32, \"shared\">", "memref<4xf32, \"shared\">"),
    ("memref<4xf32, #gpu.address_space<workgroup>>", "memref<4xf32, #gpu.address_space<workgroup>>"),
    ("memref<4xf32, strided<[1]>>", "memref<4xf32, strided<[1]>>"),
    ("memref<4xf32, strided<[1], offset: 0>>", "memref<4xf32, strided<[1]>>"),
    ("memref<4x?xf32, strided<[?, 1], offset: ?>, 5>", "memref<4x?xf32, strided<[?, 1], offset: ?>, 5>"),
    ("memref<4x4xf32, strided<[8, 2], offset: 3>>", "memref<4x4xf32, strided<[8, 2], offset: 3>>"),
    ("memref<f32, strided<[], offset: 2>>", "memref<f32, strided<[], offset: 2>>"),
    ("memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>>", "memref<4x4xf32>"),
    ("memref<4x4xf32, affine_map<(d0, d1) -> (d0, d1)>, 3>", "memref<4x4xf32, 3>"),
    ("memref<4xvector<4xf32>>", "memref<4xvector<4xf32>>"),
    ("memref<4xmemref<2xi8>>", "memref<4xmemref<2xi8>>"), ("tensor<4x!foo.bar>", "tensor<4x!foo.bar>"),
    ("memref<4xcomplex<f32>>", "memref<4xcomplex<f32>>"),
    ("!foo.bar<\"x\"  , 3>", "!foo.bar<\"x\"  , 3>"), ("!foo.baz", "!foo.baz"),
    ("() -> ()", "() -> ()"), ("(i32) -> i32", "(i32) -> i32"),
    ("(i32, f32) -> (index, none)", "(i32, f32) -> (index, none)"),
    ("() -> (() -> i1)", "() -> (() -> i1)"),
]

#: Types whose layout prints through an alias (``#map``) in a module.
MAP_TYPES = [
    "memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>",
    "memref<4x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0 - 3)>, 1>",
    "memref<8xf32, affine_map<(d0) -> (d0 floordiv 2, d0 mod 2)>>",
]


@pytest.mark.parametrize("text,expected", TYPES)
def test_type_prints_as_mlir(text, expected):
    t = parse_type(text)
    assert str(t) == expected
    assert parse_type(str(t)) is t


def _module(types: list[str]) -> str:
    return "".join(f'%r{i} = "test.op"() {{t = {t}}} : () -> {t}\n' if "->" not in t else
                   f'"test.op"() {{t = {t}}} : () -> ()\n' for i, t in enumerate(types))


@pytest.mark.parametrize("generic", [False, True])
def test_types_match_mlir_opt(generic):
    require_mlir_opt()
    text = _module([t for t, _ in TYPES] + MAP_TYPES)
    assert tileir_output(text, generic) == mlir_output(text, generic)


def test_accessors():
    m = parse_type("memref<4x?xf32, strided<[?, 1], offset: 7>, 3>")
    assert isinstance(m, MemRefType)
    assert m.shape == (4, None) and m.element_type is F32 and m.rank == 2
    assert not m.has_static_shape
    assert m.strides_and_offset() == ((None, 1), 7)
    assert m.memory_space == IntegerAttr(3, I64) and m.memory_space_number == 3
    ident = parse_type("memref<2x3x4xi32>")
    assert ident.layout is None and ident.strides_and_offset() == ((12, 4, 1), 0)
    assert ident.num_elements == 24 and ident.memory_space_number == 0
    gpu = parse_type("memref<4xf32, #gpu.address_space<workgroup>>")
    assert gpu.memory_space_number is None
    assert str(gpu.memory_space) == "#gpu.address_space<workgroup>"
    perm = parse_type("memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>")
    assert isinstance(perm.layout, AffineMapAttr)
    assert perm.layout.value.evaluate((1, 2)) == (2, 1)
    with pytest.raises(ValueError):
        perm.strides_and_offset()
    v = parse_type("vector<2x[4]xi8>")
    assert isinstance(v, VectorType) and v.shape == (2, 4) and v.scalable == (False, True)
    t = parse_type("tensor<?x3xf32, \"e\">")
    assert isinstance(t, RankedTensorType) and t.encoding == StringAttr("e")
    assert isinstance(parse_type("tensor<*xf32>"), UnrankedTensorType)
    u = parse_type("memref<*xi8, 2>")
    assert isinstance(u, UnrankedMemRefType) and u.element_type is parse_type("i8")
    assert parse_type("index") is INDEX and parse_type("none") is NONE
    assert parse_type("si16") is SignedIntegerType(16, True)
    assert parse_type("i32") is IntegerType(32) is I32
    assert parse_type("f80") is FloatType("f80") and FloatType("f80").width == 80
    assert parse_type("complex<f32>") is ComplexType(F32)
    assert parse_type("tuple<i32, f32>").types == (I32, F32)
    assert isinstance(parse_type("tuple<>"), TupleType)
    assert isinstance(parse_type("!foo.bar<1>"), BuiltinType)
    # builtin types stay foreign to cuda_tile: they are BuiltinType instances
    assert isinstance(INDEX, BuiltinType) and isinstance(v, BuiltinType)


def test_constructors_normalise_like_mlir():
    assert MemRefType((4,), F32, None, IntegerAttr(0, I64)) is MemRefType((4,), F32)
    s = StridedLayoutAttr((1,), 0)
    assert str(MemRefType((4,), F32, s)) == "memref<4xf32, strided<[1]>>"
    assert str(MemRefType((4,), F32, None, OpaqueAttr("#gpu.address_space<private>"))) == \
        "memref<4xf32, #gpu.address_space<private>>"


#: Invalid types: (type text) -> tileir must report mlir-opt's first error at its position.
INVALID = [
    "vector<0xf32>", "vector<?xf32>", "vector<4xf32", "vector<4x>", "vector<[4]x[?]xf32>",
    "vector<4xtensor<4xf32>>", "tensor<4xf32, 1, 2>", "tensor<4x[4]xf32>",
    "memref<4xf32, 1, 2, 3>", "memref<4xf32, \"a\", \"b\">", "memref<*x4xf32>",
    "memref<4xf32, affine_map<(d0, d1) -> (d0)>>", "memref<4xf32, strided<[1, 2]>>",
    "complex<index>", "complex<4xf32>", "i16777216", "tuple<i32", "memref<4xf32",
    "vector<2x3>", "memref<4x!foo.bar>", "memref<4xnone>", "memref<*xtensor<4xf32>>",
    "tensor<4xnone>", "tensor<4xmemref<4xf32>>", "tensor<*xtensor<4xf32>>", "vector<4x!foo.bar>",
    "vector<4xcomplex<f32>>",
]


@pytest.mark.parametrize("bad", INVALID)
def test_invalid_type_matches_mlir_opt(bad):
    require_mlir_opt()
    assert_same_first_error(f'"test.op"() {{t = {bad}}} : () -> ()\n')
