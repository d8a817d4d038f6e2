"""Findings of the round-trip fuzzer's MLIR (upstream/gpu dialect) and tinytc inputs, each fixed
at its root; expected messages and columns are mlir-opt 22's."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.tools.roundtrip import check_module


@pytest.mark.parametrize("body, where, message", [
    ("%0, %1 = gpu.rotate %v, 3, 18446744073709551616 : f32", "2:30",
     "integer constant out of range for attribute"),
    ("%0 = gpu.subgroup_reduce add %v cluster(size = 4294967297) : (f32) -> f32", "2:50",
     "integer constant out of range for attribute"),
    ("%0 = index.constant 18446744073709551616", "2:23",
     "integer constant out of range for attribute"),
    ("%0 = gpu.thread_id x upper_bound 18446744073709551616", "2:36",
     "integer constant out of range for attribute"),
    ("%0 = vector.insert %v, %w [18446744073709551615] : f32 into vector<8x4xf32>", "2:30",
     "custom op 'vector.insert' integer value too large"),
    ("vector.transfer_write %v, %m[%i] : f32, memref<4xf32>", "2:36",
     "custom op 'vector.transfer_write' requires vector type"),
    ("%r = vector.transfer_read %t[%i, %i, %i], %v, %k {permutation_map = affine_map<(d0, d1, "
     "d2) -> (d2, d0)>} : tensor<4x8x16xf32>, vector<4xf32>", "2:109", "custom op "
     "'vector.transfer_read' expected the same rank for the vector and the results of the "
     "permutation map"),
    ("vector.transfer_write %x, %m[%i], %k {permutation_map = affine_map<(d0) -> (d0, d0)>} : "
     "vector<4xf32>, memref<4xf32>", "2:89", "custom op 'vector.transfer_write' expected the "
     "same rank for the vector and the results of the permutation map"),
    ("%r = vector.transfer_read %e[%i], %x, %k : memref<4xvector<4xf32>>, vector<4x4xf32>",
     "2:41", "custom op 'vector.transfer_read' does not support masks with vector element type"),
    ('%a = "memref.alloc"() <{operandSegmentSizes = array<f8E8M0FNU: 0, 0>}> : () -> '
     'memref<4xf32>', "2:66", "unexpected decimal integer literal for a floating point value"),
    ('%a = "memref.alloc"() <{operandSegmentSizes = array<f32: 0.0, 0.0>}> : () -> '
     'memref<4xf32>', "2:8", "invalid properties {operandSegmentSizes = array<f32: "
     "0.000000e+00, 0.000000e+00>} for op memref.alloc: expected DenseI32ArrayAttr for key "
     "`value`"),
])
def test_out_of_range_and_ill_typed_literals_are_parse_errors(body, where, message):
    text = ("func.func @a(%v: f32, %w: vector<8x4xf32>, %m: memref<4xf32>, %i: index, "
            "%t: tensor<4x8x16xf32>, %k: vector<4xi1>, %x: vector<4xf32>, "
            "%e: memref<4xvector<4xf32>>) {\n"
            f"  {body}\n  return\n}}\n")
    with pytest.raises(tileir.DiagnosticError) as err:
        tileir.parse(text, "t.mlir")
    assert f"t.mlir:{where}: error: {message}" in str(err.value)


def test_hex_float_array_elements_are_bit_patterns():
    m = tileir.parse('"test.op"() {a = array<f32: 0x3F800000, 2.5>} : () -> ()\n',
                     allow_unregistered=True)
    assert "array<f32: 1.000000e+00, 2.500000e+00>" in tileir.print(m)


def test_a_generic_gpu_func_without_workgroup_attributions_round_trips():
    """The custom gpu.func syntax always records ``workgroup_attributions`` (MLIR 22 too):
    absent and 0 are the same IR for the round-trip checker."""
    text = ('"gpu.module"() <{sym_name = "m"}> ({\n'
            '  "gpu.func"() <{function_type = () -> ()}> ({\n'
            '    "gpu.return"() : () -> ()\n'
            '  }) {sym_name = "func"} : () -> ()\n'
            '}) : () -> ()\n')
    check_module(tileir.parse(text))


def test_undecodable_bytes_in_a_quoted_symbol_are_kept_not_a_crash():
    text = 'gpu.binary @"b\udcc3" [#gpu.object<#nvvm.target, "x">]\n'
    module = tileir.parse(text)
    check_module(module)


def test_a_branch_at_top_level_is_an_undefined_block_not_a_crash():
    with pytest.raises(tileir.DiagnosticError, match=r"t.mlir:1:7: error: reference to an "
                                                     r"undefined block"):
        tileir.parse("cf.br ^bb1\n", "t.mlir")


def test_an_infinite_f64_in_an_array_keeps_its_type():
    """``[1.0e400]`` is ``[inf : f64]``; printed as ``0x7FF0000000000000`` without the type it
    read back as an integer (mlir-opt 22 prints ``[0x7FF0000000000000 : f64]``)."""
    m = tileir.parse('"test.op"() {a = [1.0e400]} : () -> ()\n', allow_unregistered=True)
    assert "[0x7FF0000000000000 : f64]" in tileir.print(m)
    check_module(m)


def test_regions_of_a_generic_op_print_with_the_parser_s_default_dialect():
    """Fuzzer finding: an invalid ``gpu.func`` printed in generic form inside a custom
    ``gpu.module`` printed its ``gpu.return`` as ``return``, which the parser (whose default
    dialect inside a generic op is the enclosing one) does not know."""
    text = ('gpu.module @m {\n  "gpu.func"() ({\n  ^bb0(%a: f32):\n    "gpu.return"() : () -> ()\n'
            '  }) {function_type = (f32) -> ()} : () -> ()\n}\n')
    m = tileir.parse(text)
    printed = tileir.print(m)
    assert "gpu.return" in printed
    check_module(m)


@pytest.mark.parametrize("type_text, col, message", [
    ("!foo.bar<a ] b>", 30, "unbalanced '<' character in pretty dialect name"),
    ("!foo.bar<a ( ] b>", 30, "unbalanced '(' character in pretty dialect name"),
    ("!foo.bar<a { b>", 30, "unbalanced '{' character in pretty dialect name"),
    ("!foo.bar<a [ ( ] ) b>", 30, "unbalanced '(' character in pretty dialect name"),
    ("!name <x>", 27, "undefined symbol alias id 'name'"),
])
def test_pretty_dialect_bodies_must_balance(type_text, col, message):
    """Fuzzer finding (cuda_tile text run): an opaque type body with an unbalanced ``]`` was
    accepted and, printed, swallowed the op's location.  Messages and columns: mlir-opt 22."""
    with pytest.raises(tileir.DiagnosticError, match=rf"t.mlir:1:{col}: error: "
                                                     rf"{message.replace('(', '[(]')}"):
        tileir.parse(f'"use_type"() : () -> {type_text}\n', "t.mlir", allow_unregistered=True)


def test_dialect_bodies_right_after_the_dialect_name():
    for text in ('"use_type"() : () -> !foobar<x>\n', '"use_type"() {a = #foobar<x>} : () -> ()\n',
                 '"use_type"() : () -> !foo.bar<a -> b>\n'):
        check_module(tileir.parse(text, allow_unregistered=True))


def test_a_shuffle_with_an_empty_mask_is_rejected():
    """Fuzzer finding: the inferred result type of an empty mask, vector<0xf32>, is not a type;
    printed (generic form) it did not read back.  mlir-opt 22: 'invalid mask length'."""
    text = ("func.func @f(%a: vector<4xf32>, %b: vector<4xf32>) {\n"
            "  %0 = vector.shuffle %a, %b [] : vector<4xf32>, vector<4xf32>\n  return\n}\n")
    with pytest.raises(tileir.DiagnosticError, match=r"t.mlir:2:8: error: 'vector.shuffle' op "
                                                     r"invalid mask length"):
        tileir.parse(text, "t.mlir")


@pytest.mark.parametrize("body, col, op", [
    ("%0 = vector.from_elements %a, %a : f32", 38, "vector.from_elements"),
    ("%0:2 = vector.to_elements %a : f32", 34, "vector.to_elements"),
])
def test_vector_typed_format_types_must_be_vectors(body, col, op):
    """Fuzzer finding: a scalar where the format's type must be a vector crashed type inference
    (AttributeError).  mlir-opt 22's message and column."""
    text = f"func.func @f(%a: f32) {{\n  {body}\n  return\n}}\n"
    with pytest.raises(tileir.DiagnosticError, match=rf"t.mlir:2:{col}: error: custom op '{op}' "
                                                     r"invalid kind of type specified: expected "
                                                     r"builtin.vector, but found 'f32'"):
        tileir.parse(text, "t.mlir")


@pytest.mark.parametrize("loc, where, message", [
    ('"f.mlir":x:3', "2:23", "expected integer line number in FileLineColRange"),
    ('"f.mlir":4294967296:3', "2:23", "expected integer line number in FileLineColRange"),
    ('"f.mlir":-1:3', "2:23", "expected integer line number in FileLineColRange"),
    ('"f.mlir":3:-2', "2:25", "expected integer column number in FileLineColRange"),
    ('"f.mlir":3:4 to :4294967296', "2:31", "expected integer column number in FileLineColRange"),
    ('"f.mlir":3:4 to x:5', "2:29", "expected either integer or `:` post `to` in "
                                    "FileLineColRange"),
    ('"f.mlir":3:4 to 4294967296:1', "2:29", "expected integer line number in FileLineColRange"),
])
def test_file_locations_hold_32_bit_lines_and_columns(loc, where, message):
    with pytest.raises(tileir.DiagnosticError) as err:
        tileir.parse(f"func.func @f() {{\n  return loc({loc})\n}}\n", "t.mlir")
    assert f"t.mlir:{where}: error: {message}" in str(err.value)


def test_largest_file_location_round_trips():
    text = 'func.func @f() {\n  return loc("f.mlir":4294967295:4294967295 to 16:0x10)\n}\n'
    module = tileir.parse(text)
    assert check_module(module)
    printed = tileir.print(module, debuginfo=True)
    assert '"f.mlir":4294967295:4294967295 to 16:16' in printed


@pytest.mark.parametrize("arg, where, message", [
    ("tensor<99999999999999999999xf32>", "1:25", "invalid dimension"),
    ("memref<8xf32, strided<[99999999999999999999]>>", "1:41",
     "expected a 64-bit signed integer or '?'"),
])
def test_builtin_shapes_and_strides_are_64_bit(arg, where, message):
    with pytest.raises(tileir.DiagnosticError) as err:
        tileir.parse(f"func.func @f(%a: {arg}) {{\n  return\n}}\n", "t.mlir")
    assert f"t.mlir:{where}: error: {message}" in str(err.value)


@pytest.mark.parametrize("visibility, shown", [('"a\\"b"', '"a\\22b"'), ('"weird"', '"weird"')])
def test_global_visibility_is_checked_and_printed_escaped(visibility, shown):
    """Fuzzer finding: a visibility holding a quote printed as text that does not parse."""
    text = f"memref.global {visibility} constant @gv : memref<4xf32> = dense<1.0>\n"
    module = tileir.parse(text, "t.mlir")  # (parsing does not verify)
    assert f"memref.global {shown} constant @gv" in tileir.print(module, assume_verified=True)
    assert check_module(module)
    with pytest.raises(tileir.DiagnosticError) as err:
        tileir.verify(module)
    assert ('visibility expected to be one of ["public", "private", "nested"], but got '
            f"{shown}") in str(err.value)


@pytest.mark.parametrize("text", [
    # found by the fuzzer's generic-form attribute swaps (each failed a round trip before)
    '"builtin.module"() ({\n  "vector.print"() {i16 = true} : () -> ()\n}) : () -> ()',
    '"builtin.module"() ({\n}) : () -> ()',
])
def test_generic_attribute_kinds_round_trip(text):
    module = tileir.parse(text, allow_unregistered=True)
    assert check_module(module)


@pytest.mark.parametrize("text, message", [
    # fuzzer findings (generic-form attribute swaps) that MLIR 22 refuses when it converts the
    # properties: the same refusal, with its message
    ('"builtin.module"() ({\n  %0 = "test.v"() : () -> vector<4xi32>\n  %1 = "vector.reduction"(%0)'
     ' <{fastmath = #arith.fastmath<none>, kind = i32}> : (vector<4xi32>) -> i32\n}) : () -> ()',
     "3:8: error: invalid properties {fastmath = #arith.fastmath<none>, kind = i32} for op "
     "vector.reduction: Invalid attribute `kind` in property conversion: i32"),
    ('"builtin.module"() ({\n  %0 = "test.v"() : () -> vector<4xf32>\n  %1 = "test.v"() : () -> '
     'f32\n  %2 = "vector.outerproduct"(%0, %1) <{kind = true}> : (vector<4xf32>, f32) -> '
     'vector<4xf32>\n}) : () -> ()',
     "4:8: error: invalid properties {kind = true} for op vector.outerproduct: Invalid attribute "
     "`kind` in property conversion: true"),
    ('"builtin.module"() ({\n  %0 = "test.v"() : () -> memref<4x8x2xf32>\n  %1 = '
     '"memref.transpose"(%0) <{permutation = 1 : i1}> : (memref<4x8x2xf32>) -> '
     'memref<2x4x8xf32>\n}) : () -> ()',
     "3:8: error: invalid properties {permutation = true} for op memref.transpose: Invalid "
     "attribute `permutation` in property conversion: true"),
    ('"builtin.module"() ({\n  "builtin.module"() <{sym_name = i64}> ({\n  }) : () -> ()\n}) : '
     '() -> ()',
     "2:3: error: invalid properties {sym_name = i64} for op builtin.module: Invalid attribute "
     "`sym_name` in property conversion: i64"),
])
def test_properties_of_the_wrong_class_are_refused_as_mlir_22_does(text, message):
    with pytest.raises(tileir.DiagnosticError) as err:
        tileir.parse(text, allow_unregistered=True)
    assert message in str(err.value)
    run = _mlir_opt_or_none(text)
    if run is not None:
        assert message in run.stderr


def _mlir_opt_or_none(text: str):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
    from mlir_tools import find_mlir_opt, run_mlir_opt
    return run_mlir_opt(text, ["-allow-unregistered-dialect"]) if find_mlir_opt() else None


def test_empty_builtin_module_region_is_mlir_22s_error():
    with pytest.raises(tileir.DiagnosticError, match="region #0 \\('bodyRegion'\\) failed to "
                       "verify constraint: region with 1 blocks"):
        tileir.verify(tileir.parse('"builtin.module"() ({\n}) : () -> ()'))


def test_generic_vector_print_has_the_default_punctuation():
    module = tileir.parse('"builtin.module"() ({\n  "vector.print"() : () -> ()\n}) : () -> ()')
    assert "punctuation = #vector.punctuation<newline>" in tileir.print(module, generic=True)


@pytest.mark.parametrize("literal, printed", [
    # (a decimal integer literal of a float type is an error in MLIR: the literal has a dot)
    ("9223372036854775807.0 : tf32", "9.223370e+18 : tf32"), ("1.1 : tf32", "1.099610e+00 : tf32"),
    ("1.1 : bf16", "1.101560e+00 : bf16"), ("-2.5 : f16", "-2.500000e+00 : f16")])
def test_float_attributes_hold_their_value_in_their_type(literal, printed):
    """Fuzzer finding: a tf32 attribute kept the unrounded double, printed truncated, and read
    back as another value."""
    from tileir.text.parser import parse_attribute
    attr = parse_attribute(literal)
    assert attr.generic() == printed
    assert parse_attribute(attr.generic()) == attr


def test_global_initial_value_must_be_elements_or_unit():
    text = ('"builtin.module"() ({\n  "memref.global"() <{initial_value = 0 : i32, sym_name = '
            '"cst", type = memref<f64>}> : () -> ()\n}) : () -> ()')
    module = tileir.parse(text)
    assert check_module(module)
    with pytest.raises(tileir.DiagnosticError, match="initial value should be a unit or "
                       "elements attribute, but got 0 : i32"):
        tileir.verify(module)


def test_generic_op_without_a_default_valued_attribute_gets_its_default():
    """Fuzzer finding (with NVIDIA's corpus): a generic ``addi`` without ``overflow`` gained it
    on a custom round trip; the generic form now gives it its default, as the custom one does."""
    text = ('"builtin.module"() ({\n  "cuda_tile.module"() <{sym_name = "kernels"}> ({\n'
            '    "cuda_tile.entry"() <{function_type = (!cuda_tile.tile<i32>) -> (), '
            'sym_name = "k"}> ({\n    ^bb0(%a: !cuda_tile.tile<i32>):\n'
            '      %0 = "cuda_tile.addi"(%a, %a) : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) '
            '-> !cuda_tile.tile<i32>\n      "cuda_tile.return"() : () -> ()\n'
            '    }) : () -> ()\n  }) : () -> ()\n}) : () -> ()')
    module = tileir.parse(text)
    assert "overflow = #cuda_tile.overflow<none>" in tileir.print(module, generic=True)
    assert check_module(module)
