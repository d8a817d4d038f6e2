"""Differential bug hunt against MLIR 22's ``mlir-opt``, third round: the vector, math,
arith, index, cf and scf dialects.  Each case holds mlir-opt's first error (line:col and
message) or a line of its output inline, so the cases run without mlir-opt; where mlir-opt is
installed, the same inputs are fed to it as well.

Covered: integer and float literals whose explicit type does not take them (``1 : f32``,
``1 : vector<4xi32>``, ``1.5 : i32`` reported after the type), the ODS parse-time operand
checks of arith.cmpi/cmpf and math's classification ops (at the op name), vector ops' type
classes (``invalid kind of type specified: expected builtin.vector``), the element-type
traits and verifiers of vector.extract/insert/shuffle/outerproduct/multi_reduction/
bitcast/interleave/deinterleave/fma and the strided-slice ops, ``dynamic index list`` and
``expected integer value``/``expected 'from'`` errors of custom ops, cf.cond_br weights,
scf.while's function type, scf.forall's mapping constraint, index.constant of a float, and
where ``--verify-diagnostics`` reports an expectation that was not produced.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import find_mlir_opt  # noqa: E402
from test_mlir_opt_differential_hunt import (  # noqa: E402
    _mlir_error, _needs_mlir_opt, _tileir_error, assert_mlir_output_line,
    assert_output_line)

_ARGS = ("%a: i32, %x: f32, %v: vector<4xi32>, %w: vector<4xf32>, %w3: vector<3xf32>, "
         "%m: vector<2x4xf32>, %i: index, %j: index, %mem: memref<8x8xf32>")


def _fn(line: str) -> str:
    """One op in a function (line 2; the function's arguments are ``_ARGS``)."""
    return f"func.func @f({_ARGS}) {{\n  {line}\n  return\n}}\n"


_ATTR = '"foo.x"() {{a = {}}} : () -> ()\n'
_SSS = "%0 = vector.extract_strided_slice %m {{offsets = {}, sizes = {}, strides = {}}} : " \
       "vector<2x4xf32> to vector<{}xf32>"
_ISS = "%0 = vector.insert_strided_slice {}, {} {{offsets = {}, strides = {}}} : {}"
_EXT = "2:8: 'vector.extract' op "
_INS = "2:8: 'vector.insert' op "
_ESS = "2:8: 'vector.extract_strided_slice' op "
_IS = "2:8: 'vector.insert_strided_slice' op "
_WHILE = ("func.func @f(%x: f32) {{\n  %0 = scf.while (%a = %x) : {} {{\n    %c = arith.constant "
          "true\n    scf.condition(%c) %a : f32\n  }} do {{\n  ^bb0(%b: f32):\n    scf.yield %b "
          ": f32\n  }}\n  return\n}}\n")
_FORALL = "func.func @f(%n: index) {{\n  scf.forall (%i) in (%n) {{\n  }} {{mapping = {}}}\n" \
          "  return\n}}\n"
_COND_BR = "func.func @f(%c: i1) {{\n  cf.cond_br %c weights([{}]), ^bb1, ^bb1\n^bb1:\n" \
           "  return\n}}\n"

ERRORS = {
    # -- literals of the wrong kind for their explicit type ---------------------------------
    "int_literal_f32": (_fn("%0 = arith.constant 1 : f32"),
                        "2:23: unexpected decimal integer literal for a floating point value"),
    "negative_int_literal_f32": (_ATTR.format("-1 : f32"), "1:17: unexpected decimal integer "
                                 "literal for a floating point value"),
    "int_literal_vector": (_fn("%0 = arith.constant 1 : vector<4xi32>"),
                           "2:23: integer literal not valid for specified type"),
    "int_literal_none": (_ATTR.format("-1 : none"),
                         "1:17: integer literal not valid for specified type"),
    "int_literal_tensor": (_ATTR.format("1 : tensor<2xi32>"),
                           "1:16: integer literal not valid for specified type"),
    # (a float with a non-float type: where the parser stands, after the type)
    "float_literal_i32": (_fn("%0 = arith.constant 1.5 : i32"),
                          "3:3: floating point value not valid for specified type"),
    "float_literal_index_attr": (_ATTR.format("1.0 : index"),
                                 "1:27: floating point value not valid for specified type"),
    "float_literal_vector_attr": (_ATTR.format("1.5 : vector<2xf32>"),
                                  "1:35: floating point value not valid for specified type"),
    "index_constant_float": (_fn("%0 = index.constant 1.5 : index"),
                             "2:27: floating point value not valid for specified type"),
    "index_constant_float_eol": (_fn("%0 = index.constant 1.5"),
                                 "3:3: floating point value not valid for specified type"),
    # -- ODS's parse-time operand checks report at the op name --------------------------------
    "cmpi_float": (_fn("%0 = arith.cmpi slt, %x, %x : f32"),
                   "2:8: custom op 'arith.cmpi' 'lhs' must be signless-integer-like, but got "
                   "'f32'"),
    "cmpf_int": (_fn("%0 = arith.cmpf olt, %a, %a : i32"),
                 "2:8: custom op 'arith.cmpf' 'lhs' must be floating-point-like, but got 'i32'"),
    "math_isnan_int": (_fn("%0 = math.isnan %a : i32"),
                       "2:8: custom op 'math.isnan' 'operand' must be floating-point-like, but "
                       "got 'i32'"),
    # -- vector: type classes of type($x) --------------------------------------------------------
    "broadcast_to_scalar": (_fn("%0 = vector.broadcast %x : f32 to f32"),
                            "2:37: custom op 'vector.broadcast' invalid kind of type specified: "
                            "expected builtin.vector, but found 'f32'"),
    "fma_scalar": (_fn("%0 = vector.fma %x, %x, %x : f32"),
                   "2:32: custom op 'vector.fma' invalid kind of type specified: expected "
                   "builtin.vector, but found 'f32'"),
    "load_scalar": (_fn("%0 = vector.load %mem[%i, %i] : memref<8x8xf32>, f32"),
                    "2:52: custom op 'vector.load' invalid kind of type specified: expected "
                    "builtin.vector, but found 'f32'"),
    "fma_int": (_fn("%0 = vector.fma %v, %v, %v : vector<4xi32>"),
                "2:8: 'vector.fma' op operand #0 must be vector of floating-point values, but "
                "got 'vector<4xi32>'"),
    "from_elements_count": (_fn("%0 = vector.from_elements %x, %x : vector<4xf32>"),
                            "2:29: custom op 'vector.from_elements' number of operands and "
                            "types do not match: got 2 operands and 4 types"),
    "unclosed_vector_type": (_fn("%0 = vector.broadcast %x : f32 to vector<4xf32"),
                             "2:49: expected '>' in vector type"),
    # -- vector.extract / insert ------------------------------------------------------------
    "extract_inferred_type": (_fn("%0 = vector.extract %w[0] : vector<4xf32> from "
                                  "vector<4xf32>"),
                              _EXT + "inferred type(s) 'f32' are incompatible with return "
                              "type(s) of operation 'vector<4xf32>'"),
    "extract_inferred_vector": (_fn("%0 = vector.extract %m[0] : f32 from vector<2x4xf32>"),
                                _EXT + "inferred type(s) 'vector<4xf32>' are incompatible with "
                                "return type(s) of operation 'f32'"),
    "extract_element_type": (_fn("%0 = vector.extract %w[0] : i32 from vector<4xf32>"),
                             _EXT + "failed to verify that operand and result have same "
                             "element type"),
    "extract_position_before_inference": (
        _fn("%0 = vector.extract %w[5] : vector<2xf32> from vector<4xf32>"),
        _EXT + "expected position attribute #1 to be a non-negative integer smaller than the "
        "corresponding vector dimension or poison (-1)"),
    "extract_missing_from": (_fn("%0 = vector.extract %w[0] : f32"),
                             "3:3: custom op 'vector.extract' expected 'from'"),
    "extract_no_position": (_fn("%0 = vector.extract %w : f32 from vector<4xf32>"),
                            "2:25: expected '[' in dynamic index list"),
    "extract_unclosed_position": (_fn("%0 = vector.extract %w[0 : f32 from vector<4xf32>"),
                                  "2:27: expected ']' in dynamic index list"),
    "extract_word_position": (_fn("%0 = vector.extract %w[x] : f32 from vector<4xf32>"),
                              "2:26: custom op 'vector.extract' expected integer value"),
    "insert_element_type": (_fn("%0 = vector.insert %a, %w[0] : i32 into vector<4xf32>"),
                            _INS + "failed to verify that source operand and result have same "
                            "element type"),
    "insert_scalar_rank": (_fn("%0 = vector.insert %x, %m[0] : f32 into vector<2x4xf32>"),
                           _INS + "expected position attribute rank to match the dest vector "
                           "rank"),
    "insert_vector_rank": (_fn("%0 = vector.insert %w, %m[0, 0] : vector<4xf32> into "
                               "vector<2x4xf32>"),
                           _INS + "expected position attribute rank + source rank to match "
                           "dest vector rank"),
    "insert_position_too_long": (_fn("%0 = vector.insert %x, %w[0, 1] : f32 into "
                                     "vector<4xf32>"),
                                 _INS + "expected position attribute of rank no greater than "
                                 "dest vector rank"),
    # -- other vector verifiers ---------------------------------------------------------------
    "shuffle_element_type": (_fn("%0 = vector.shuffle %w, %v [0, 1] : vector<4xf32>, "
                                 "vector<4xi32>"),
                             "2:8: 'vector.shuffle' op failed to verify that second operand v2 "
                             "and result have same element type"),
    "outerproduct_rhs_element_type": (
        _fn("%0 = vector.outerproduct %w, %v : vector<4xf32>, vector<4xi32>"),
        "2:8: 'vector.outerproduct' op failed to verify that rhs operand and result have same "
        "element type"),
    "outerproduct_kind": (
        _fn("%0 = vector.outerproduct %v, %v {kind = #vector.kind<maxnumf>} : vector<4xi32>, "
            "vector<4xi32>"),
        "2:8: 'vector.outerproduct' op unsupported outerproduct type"),
    "multi_reduction_dim_out_of_range": (
        _fn("%0 = vector.multi_reduction <add>, %m, %w [2] : vector<2x4xf32> to "
            "vector<4xf32>"),
        "2:8: 'vector.multi_reduction' op destination type 'vector<4xf32>' is incompatible "
        "with source type 'vector<2x4xf32>'"),
    "multi_reduction_element_type": (
        _fn("%0 = vector.multi_reduction <add>, %m, %v [0] : vector<2x4xf32> to "
            "vector<4xi32>"),
        "2:8: 'vector.multi_reduction' op failed to verify that source operand and result "
        "have same element type"),
    "bitcast_rank": (_fn("%0 = vector.bitcast %w : vector<4xf32> to vector<2x2xf32>"),
                     "2:8: 'vector.bitcast' op failed to verify that all of {source, result} "
                     "have same rank"),
    "interleave_width": (_fn("%0 = vector.interleave %w, %w : vector<4xf32> -> vector<4xf32>"),
                         "2:8: 'vector.interleave' op failed to verify that type of 'result' "
                         "is double the width of the inputs"),
    "deinterleave_odd": (_fn("%0, %1 = vector.deinterleave %w3 : vector<3xf32> -> "
                             "vector<2xf32>"),
                         "2:12: 'vector.deinterleave' op failed to verify that the trailing "
                         "dimension of the source vector has an even number of elements"),
    "deinterleave_width": (_fn("%0, %1 = vector.deinterleave %w : vector<4xf32> -> "
                               "vector<4xf32>"),
                           "2:12: 'vector.deinterleave' op failed to verify that the trailing "
                           "dimension of the results is half the width of source trailing "
                           "dimension"),
    # -- strided slices -------------------------------------------------------------------------
    "ess_element_type": (_fn(_SSS.format("[0]", "[1]", "[1]", "1x4").replace("4xf32>", "4xi32>")
                             .replace("vector<2x4xi32> to", "vector<2x4xf32> to")),
                         _ESS + "failed to verify that operand and result have same element "
                         "type"),
    "ess_sizes_differ": (_fn(_SSS.format("[0]", "[2, 2]", "[1, 1]", "2x2")),
                         _ESS + "expected offsets, sizes and strides attributes of same size"),
    "ess_rank": (_fn(_SSS.format("[0, 0, 0]", "[1, 1, 1]", "[1, 1, 1]", "1x1")),
                 _ESS + "expected offsets attribute of rank no greater than vector rank"),
    "ess_offset": (_fn(_SSS.format("[-1]", "[1]", "[1]", "1x4")),
                   _ESS + "expected offsets dimension 0 to be confined to [0, 2)"),
    "ess_size": (_fn(_SSS.format("[0]", "[3]", "[1]", "3x4")),
                 _ESS + "expected sizes dimension 0 to be confined to [1, 3)"),
    "ess_stride": (_fn(_SSS.format("[0, 1]", "[2, 2]", "[1, 2]", "2x2")),
                   _ESS + "expected strides to be confined to [1, 2)"),
    "ess_sum": (_fn(_SSS.format("[0, 3]", "[2, 2]", "[1, 1]", "2x2")),
                _ESS + "expected sum(offsets, sizes) dimension 1 to be confined to [1, 5)"),
    "ess_result": (_fn(_SSS.format("[0]", "[1]", "[1]", "1x3")),
                   _ESS + "expected result type to be 'vector<1x4xf32>'"),
    "iss_element_type": (_fn(_ISS.format("%v", "%m", "[1, 0]", "[1]",
                                         "vector<4xi32> into vector<2x4xf32>")),
                         _IS + "failed to verify that operand #0 and result have same element "
                         "type"),
    "iss_offsets": (_fn(_ISS.format("%w", "%m", "[1]", "[1]",
                                    "vector<4xf32> into vector<2x4xf32>")),
                    _IS + "expected offsets of same size as destination vector rank"),
    "iss_strides": (_fn(_ISS.format("%w", "%m", "[1, 0]", "[1, 1]",
                                    "vector<4xf32> into vector<2x4xf32>")),
                    _IS + "expected strides of same size as source vector rank"),
    "iss_source_rank": (_fn(_ISS.format("%m", "%w", "[0]", "[1, 1]",
                                        "vector<2x4xf32> into vector<4xf32>")),
                        _IS + "expected source rank to be no greater than destination rank"),
    "iss_offset": (_fn(_ISS.format("%w", "%m", "[2, 0]", "[1]",
                                   "vector<4xf32> into vector<2x4xf32>")),
                   _IS + "expected offsets dimension 0 to be confined to [0, 2)"),
    "iss_stride": (_fn(_ISS.format("%w", "%m", "[1, 0]", "[0]",
                                   "vector<4xf32> into vector<2x4xf32>")),
                   _IS + "expected strides to be confined to [1, 2)"),
    "iss_sum": (_fn(_ISS.format("%w", "%m", "[1, 1]", "[1]",
                                "vector<4xf32> into vector<2x4xf32>")),
                _IS + "expected sum(offsets, source vector shape) dimension 1 to be confined "
                "to [1, 5)"),
    # -- cf and scf ------------------------------------------------------------------------------
    "switch_case_word": (
        "func.func @f(%a: i32) {\n  cf.switch %a : i32, [\n    default: ^bb1,\n    x: ^bb1\n"
        "  ]\n^bb1:\n  return\n}\n",
        "4:5: custom op 'cf.switch' expected integer value"),
    "cond_br_weight_word": (_COND_BR.format("x, 2"),
                            "2:26: custom op 'cf.cond_br' expected integer value"),
    "cond_br_weight_too_large": (_COND_BR.format("99999999999, 2"),
                                 "2:26: custom op 'cf.cond_br' integer value too large"),
    "while_input_count": (_WHILE.format("(f32, f32) -> f32"),
                          "2:28: custom op 'scf.while' expected as many input types as "
                          "operands (expected 1 got 2)"),
    "while_not_function_type": (_WHILE.format("f32"),
                                "2:28: custom op 'scf.while' invalid kind of type specified: "
                                "expected builtin.function, but found 'f32'"),
    "index_switch_case_word": (
        "func.func @f(%n: index) {\n  scf.index_switch %n\n  case x {\n  }\n  default {\n  }\n"
        "  return\n}\n",
        "3:8: custom op 'scf.index_switch' expected integer value"),
    "forall_no_bounds": ("func.func @f() {\n  scf.forall (%i) in 4 {\n  }\n  return\n}\n",
                         "2:21: expected '(' in dynamic index list"),
    "forall_mapping_integers": (_FORALL.format("[1]"),
                                "2:3: 'scf.forall' op attribute 'mapping' failed to satisfy "
                                "constraint: Device Mapping array attribute"),
    "forall_mapping_address_space": (_FORALL.format("[#gpu.address_space<workgroup>]"),
                                     "2:3: 'scf.forall' op attribute 'mapping' failed to "
                                     "satisfy constraint: Device Mapping array attribute"),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_first_error_is_mlir_opts(name):
    text, expected = ERRORS[name]
    assert _tileir_error(text) == expected


@_needs_mlir_opt
@pytest.mark.parametrize("name", sorted(ERRORS))
def test_inline_error_is_mlir_opts(name):
    text, expected = ERRORS[name]
    assert _mlir_error(text) == expected


# -- valid inputs: (input, a line of mlir-opt's custom output) ---------------------------------

OUTPUTS = {
    "hex_float_literal": (_ATTR.format("0x3F800000 : f32"),
                          '  "foo.x"() {a = 1.000000e+00 : f32} : () -> ()'),
    "float_dot_literal": (_ATTR.format("9223372036854775807.0 : tf32"),
                          '  "foo.x"() {a = 9.223370e+18 : tf32} : () -> ()'),
    "int_literal_si8": (_ATTR.format("1 : si8"), '  "foo.x"() {a = 1 : si8} : () -> ()'),
    # MLIR ignores reduction dims out of range once the destination type fits; repeats count once
    "multi_reduction_repeated_dim": (
        _fn("%0 = vector.multi_reduction <add>, %m, %w [0, 0] : vector<2x4xf32> to "
            "vector<4xf32>"),
        "    %0 = vector.multi_reduction <add>, %arg5, %arg3 [0, 0] : vector<2x4xf32> to "
        "vector<4xf32>"),
    "multi_reduction_xor_float": (
        _fn("%0 = vector.multi_reduction <xor>, %m, %w [0] : vector<2x4xf32> to "
            "vector<4xf32>"),
        "    %0 = vector.multi_reduction <xor>, %arg5, %arg3 [0] : vector<2x4xf32> to "
        "vector<4xf32>"),
    # a sub-vector of another length inserted: not checked by MLIR 22
    "insert_shorter_vector": (
        _fn("%0 = vector.insert %w3, %m[0] : vector<3xf32> into vector<2x4xf32>"),
        "    %0 = vector.insert %arg4, %arg5 [0] : vector<3xf32> into vector<2x4xf32>"),
    "extract_strided_slice": (
        _fn(_SSS.format("[0, 1]", "[2, 2]", "[1, 1]", "2x2")),
        "    %0 = vector.extract_strided_slice %arg5 {offsets = [0, 1], sizes = [2, 2], "
        "strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>"),
    "insert_strided_slice": (
        _fn(_ISS.format("%w", "%m", "[1, 0]", "[1]", "vector<4xf32> into vector<2x4xf32>")),
        "    %0 = vector.insert_strided_slice %arg3, %arg5 {offsets = [1, 0], strides = [1]} : "
        "vector<4xf32> into vector<2x4xf32>"),
    "interleave_2d": (_fn("%0 = vector.interleave %m, %m : vector<2x4xf32> -> vector<2x8xf32>"),
                      "    %0 = vector.interleave %arg5, %arg5 : vector<2x4xf32> -> "
                      "vector<2x8xf32>"),
    "forall_memory_space_mapping": (
        _FORALL.format("[#gpu.memory_space<workgroup>]"),
        "    } {mapping = [#gpu.memory_space<workgroup>]}"),
    "forall_warpgroup_mapping": (_FORALL.format("[#gpu.warpgroup<x>]"),
                                 "    } {mapping = [#gpu.warpgroup<x>]}"),
    "cond_br_negative_weight": (_COND_BR.format("-1, 2"),
                                "    cf.cond_br %arg0 weights([-1, 2]), ^bb1, ^bb1"),
}


@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_output_is_mlir_opts(name):
    assert_output_line(*OUTPUTS[name])


@_needs_mlir_opt
@pytest.mark.parametrize("name", sorted(OUTPUTS))
def test_inline_output_is_mlir_opts(name):
    assert_mlir_output_line(*OUTPUTS[name])


# -- --verify-diagnostics: where an expectation that was not produced is reported -------------

_VERIFY = """func.func @f(%w: vector<4xf32>) {
  // expected-error@+1 {{'vector.extract' op failed to verify that operand and result have same element type}}
  %0 = vector.extract %w[0] : i32 from vector<4xf32>
  return
}
// -----
func.func @f() {
  // expected-note {{zzz}}
  return
}
// -----
func.func @f() {
    // expected-error-re {{zz{{.*}}}}
  return
}
"""

_VERIFY_STDERR = """\
X:8:6: error: expected note "zzz" was not produced
  // expected-note {{zzz}}
     ^~~
X:13:8: error: expected error "zz{{.*}}" was not produced
    // expected-error-re {{zz{{.*}}}}
       ^~~~~~~~
"""


def _run(tool: list, path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*tool, "--split-input-file", "--verify-diagnostics", str(path)],
                          capture_output=True, text=True, timeout=120)


def test_verify_diagnostics_underlines_the_missing_expectation(tmp_path, capsys):
    from tileir.cli.opt import run_opt
    path = tmp_path / "X"
    path.write_text(_VERIFY)
    assert run_opt([str(path), "--split-input-file", "--verify-diagnostics"]) == 1
    assert capsys.readouterr().err.replace(str(path), "X") == _VERIFY_STDERR


@_needs_mlir_opt
def test_verify_diagnostics_case_is_mlir_opts(tmp_path):
    path = tmp_path / "X"
    path.write_text(_VERIFY)
    run = _run([find_mlir_opt()], path)
    assert run.returncode == 1
    assert run.stderr.replace(str(path), "X") == _VERIFY_STDERR
