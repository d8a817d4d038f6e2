"""LLVM's matrix intrinsics (``llvm.intr.matrix.multiply``, ``.transpose``,
``.column.major.load``, ``.column.major.store``) parse, print and verify as in MLIR 22.

Every expected text and message below was recorded from mlir-opt 22; where mlir-opt is
installed the same inputs are also run through it and compared with tileir's answer."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.cli.opt import process_buffer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

ROUNDTRIP = """\
func.func @f(%a: vector<4xf64>, %b: vector<6xf64>, %p: !llvm.ptr, %s: i64, %q: !llvm.ptr<3>, %i: vector<4xi32>) {
  %d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2: i32} : vector<4xf64> into vector<4xf64>
  %c = llvm.intr.matrix.multiply %a, %b
      {lhs_rows = 2: i32, lhs_columns = 2: i32, rhs_columns = 3: i32} : (vector<4xf64>, vector<6xf64>) -> vector<6xf64>
  %k = llvm.intr.matrix.multiply %i, %i {lhs_rows = 2: i32, lhs_columns = 2: i32, rhs_columns = 2: i32, tag = 1} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
  %l = llvm.intr.matrix.column.major.load %p, <stride=%s> { isVolatile = 1: i1, rows = 3: i32, columns = 16: i32} : vector<48xf32> from !llvm.ptr stride i64
  llvm.intr.matrix.column.major.store %l, %q, <stride=%s> { isVolatile = false, rows = 3: i32, columns = 16: i32} : vector<48xf32> to !llvm.ptr<3> stride i64
  return
}
"""

# mlir-opt 22's output for ROUNDTRIP (custom form, then generic form)
CUSTOM = """\
module {
  func.func @f(%arg0: vector<4xf64>, %arg1: vector<6xf64>, %arg2: !llvm.ptr, %arg3: i64, %arg4: !llvm.ptr<3>, %arg5: vector<4xi32>) {
    %0 = llvm.intr.matrix.transpose %arg0 {columns = 2 : i32, rows = 2 : i32} : vector<4xf64> into vector<4xf64>
    %1 = llvm.intr.matrix.multiply %arg0, %arg1 {lhs_columns = 2 : i32, lhs_rows = 2 : i32, rhs_columns = 3 : i32} : (vector<4xf64>, vector<6xf64>) -> vector<6xf64>
    %2 = llvm.intr.matrix.multiply %arg5, %arg5 {lhs_columns = 2 : i32, lhs_rows = 2 : i32, rhs_columns = 2 : i32, tag = 1 : i64} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
    %3 = llvm.intr.matrix.column.major.load %arg2, <stride = %arg3> {columns = 16 : i32, isVolatile = true, rows = 3 : i32} : vector<48xf32> from !llvm.ptr stride i64
    llvm.intr.matrix.column.major.store %3, %arg4, <stride = %arg3> {columns = 16 : i32, isVolatile = false, rows = 3 : i32} : vector<48xf32> to !llvm.ptr<3> stride i64
    return
  }
}
"""

GENERIC_OPS = [
    '%0 = "llvm.intr.matrix.transpose"(%arg0) <{columns = 2 : i32, rows = 2 : i32}> : '
    '(vector<4xf64>) -> vector<4xf64>',
    '%1 = "llvm.intr.matrix.multiply"(%arg0, %arg1) <{lhs_columns = 2 : i32, lhs_rows = 2 : i32, '
    'rhs_columns = 3 : i32}> : (vector<4xf64>, vector<6xf64>) -> vector<6xf64>',
    '%2 = "llvm.intr.matrix.multiply"(%arg5, %arg5) <{lhs_columns = 2 : i32, lhs_rows = 2 : i32, '
    'rhs_columns = 2 : i32}> {tag = 1 : i64} : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>',
    '%3 = "llvm.intr.matrix.column.major.load"(%arg2, %arg3) <{columns = 16 : i32, '
    'isVolatile = true, rows = 3 : i32}> : (!llvm.ptr, i64) -> vector<48xf32>',
    '"llvm.intr.matrix.column.major.store"(%3, %arg4, %arg3) <{columns = 16 : i32, '
    'isVolatile = false, rows = 3 : i32}> : (vector<48xf32>, !llvm.ptr<3>, i64) -> ()',
]


def _opt(text: str, *flags: str) -> str:
    """``tileir opt`` of ``text`` (stdout, or the rendered diagnostics)."""
    result = process_buffer(text, "t.mlir")
    if result.diagnostics:
        return "\n".join(f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics)
    return tileir.text.print_op(result.module, generic="generic" in flags)



def test_custom_form_prints_as_mlir_opt():
    assert _opt(ROUNDTRIP) == CUSTOM


def test_generic_form_prints_as_mlir_opt():
    text = _opt(ROUNDTRIP, "generic")
    for line in GENERIC_OPS:
        assert line in text


def test_printed_forms_parse_back_to_the_same_text():
    assert _opt(CUSTOM) == CUSTOM
    generic = _opt(ROUNDTRIP, "generic")
    assert _opt(generic) == CUSTOM


def test_roundtrip_matches_a_live_mlir_opt():
    assert run_mlir_opt(ROUNDTRIP).stdout.rstrip() == CUSTOM.rstrip()
    generic = run_mlir_opt(ROUNDTRIP, ["-mlir-print-op-generic"]).stdout
    assert all(line in generic for line in GENERIC_OPS)


def _fn(args: str, body: str) -> str:
    return f"func.func @f({args}) {{\n  {body}\n  return\n}}\n"


_V4 = "%a: vector<4xf64>, %b: vector<4xf64>"
_MUL_ATTRS = "{lhs_rows = 2 : i32, lhs_columns = 2 : i32, rhs_columns = 2 : i32}"
_LOAD_ATTRS = "{isVolatile = false, rows = 3: i32, columns = 16: i32}"

#: (arguments, body, "line:col: message" of mlir-opt 22's first error)
INVALID = [
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 2: i32} : vector<4xf64> into vector<4xf64>",
     "2:8: 'llvm.intr.matrix.transpose' op requires attribute 'columns'"),
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 2: i64, columns = 2 : i32} : "
          "vector<4xf64> into vector<4xf64>",
     "2:38: custom op 'llvm.intr.matrix.transpose' 'llvm.intr.matrix.transpose' op attribute "
     "'rows' failed to satisfy constraint: 32-bit signless integer attribute"),
    ("%a: vector<2x2xf64>", "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : "
     "i32} : vector<2x2xf64> into vector<4xf64>",
     "2:8: 'llvm.intr.matrix.transpose' op operand #0 must be LLVM dialect-compatible vector "
     "type, but got 'vector<2x2xf64>'"),
    ("%a: vector<4xindex>", "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : "
     "i32} : vector<4xindex> into vector<4xindex>",
     "2:8: 'llvm.intr.matrix.transpose' op operand #0 must be LLVM dialect-compatible vector "
     "type, but got 'vector<4xindex>'"),
    ("%a: vector<4xtf32>", "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : "
     "i32} : vector<4xtf32> into vector<4xtf32>",
     "2:8: 'llvm.intr.matrix.transpose' op operand #0 must be LLVM dialect-compatible vector "
     "type, but got 'vector<4xtf32>'"),
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : i32} : "
          "vector<4xf64> into vector<2x2xf64>",
     "2:8: 'llvm.intr.matrix.transpose' op result #0 must be LLVM dialect-compatible vector "
     "type, but got 'vector<2x2xf64>'"),
    ("%a: f64", "%d = llvm.intr.matrix.transpose %a {rows = 1: i32, columns = 1 : i32} : "
                "f64 into f64",
     "2:75: custom op 'llvm.intr.matrix.transpose' invalid kind of type specified: expected "
     "builtin.vector, but found 'f64'"),
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : i32} : "
          "vector<4xf64> into f64",
     "2:94: custom op 'llvm.intr.matrix.transpose' invalid kind of type specified: expected "
     "builtin.vector, but found 'f64'"),
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : i32} : "
          "vector<4xf64> to vector<4xf64>",
     "2:89: custom op 'llvm.intr.matrix.transpose' expected 'into'"),
    (_V4, "%c = llvm.intr.matrix.multiply %a, %b {lhs_rows = 2 : i32, lhs_columns = 2 : i32} : "
          "(vector<4xf64>, vector<4xf64>) -> vector<4xf64>",
     "2:8: 'llvm.intr.matrix.multiply' op requires attribute 'rhs_columns'"),
    (_V4, f"%c = llvm.intr.matrix.multiply %a, %b {_MUL_ATTRS} : (vector<4xf64>) -> "
          "vector<4xf64>",
     "2:124: expected ','"),
    (_V4, f"%c = llvm.intr.matrix.multiply %a, %b {_MUL_ATTRS} : (vector<4xf64>, "
          "vector<4xf64>) -> (vector<4xf64>)",
     "2:159: expected '->' in function type"),
    (_V4, f"%c = llvm.intr.matrix.multiply %a, %b {_MUL_ATTRS} : vector<4xf64>",
     "2:109: expected '('"),
    (_V4, f"%c = llvm.intr.matrix.multiply %a, %b {_MUL_ATTRS} : (f64, vector<4xf64>) -> "
          "vector<4xf64>",
     "2:111: custom op 'llvm.intr.matrix.multiply' invalid kind of type specified: expected "
     "builtin.vector, but found 'f64'"),
    ("%a: vector<4xf64>, %b: vector<2x2xf64>",
     f"%c = llvm.intr.matrix.multiply %a, %b {_MUL_ATTRS} : (vector<4xf64>, vector<2x2xf64>) "
     "-> vector<4xf64>",
     "2:8: 'llvm.intr.matrix.multiply' op operand #1 must be LLVM dialect-compatible vector "
     "type, but got 'vector<2x2xf64>'"),
    ("%p: !llvm.ptr, %s: i64", "%l = llvm.intr.matrix.column.major.load %p, <stride=%s> "
     "{ rows = 3: i32, columns = 16: i32} : vector<48xf32> from !llvm.ptr stride i64",
     "2:8: 'llvm.intr.matrix.column.major.load' op requires attribute 'isVolatile'"),
    ("%p: !llvm.ptr, %s: i64", "%l = llvm.intr.matrix.column.major.load %p, <stride=%s> : "
     "vector<48xf32> from !llvm.ptr stride i64",
     "2:8: 'llvm.intr.matrix.column.major.load' op requires attribute 'columns'"),
    ("%p: !llvm.ptr, %s: index", "%l = llvm.intr.matrix.column.major.load %p, <stride=%s> "
     f"{_LOAD_ATTRS} : vector<48xf32> from !llvm.ptr stride index",
     "2:153: custom op 'llvm.intr.matrix.column.major.load' invalid kind of type specified: "
     "expected builtin.integer, but found 'index'"),
    ("%p: !llvm.ptr, %s: si64", "%l = llvm.intr.matrix.column.major.load %p, <stride=%s> "
     f"{_LOAD_ATTRS} : vector<48xf32> from !llvm.ptr stride si64",
     "2:8: 'llvm.intr.matrix.column.major.load' op operand #1 must be signless integer, but got "
     "'si64'"),
    ("%p: memref<4xf32>, %s: i64", "%l = llvm.intr.matrix.column.major.load %p, <stride=%s> "
     f"{_LOAD_ATTRS} : vector<48xf32> from memref<4xf32> stride i64",
     "2:8: 'llvm.intr.matrix.column.major.load' op operand #0 must be LLVM pointer type, but "
     "got 'memref<4xf32>'"),
    ("%p: !llvm.ptr, %s: i64", "%l = llvm.intr.matrix.column.major.load %p, <stride=%s> "
     f"{_LOAD_ATTRS} : f32 from !llvm.ptr stride i64",
     "2:116: custom op 'llvm.intr.matrix.column.major.load' invalid kind of type specified: "
     "expected builtin.vector, but found 'f32'"),
    ("%p: !llvm.ptr, %s: i64", "%l = llvm.intr.matrix.column.major.load %p <stride=%s> "
     f"{_LOAD_ATTRS} : vector<48xf32> from !llvm.ptr stride i64",
     "2:45: expected ','"),
    ("%p: !llvm.ptr, %s: i64", "%l = llvm.intr.matrix.column.major.load %p, <strid=%s> "
     f"{_LOAD_ATTRS} : vector<48xf32> from !llvm.ptr stride i64",
     "2:48: custom op 'llvm.intr.matrix.column.major.load' expected 'stride'"),
    ("%p: !llvm.ptr, %s: i64, %v: vector<4xf32>",
     "llvm.intr.matrix.column.major.store %v, %p, <stride=%s> { isVolatile = 1 : i32, rows = 2: "
     "i32, columns = 2: i32} : vector<4xf32> to !llvm.ptr stride i64",
     "2:59: custom op 'llvm.intr.matrix.column.major.store' 'llvm.intr.matrix.column.major.store'"
     " op attribute 'isVolatile' failed to satisfy constraint: 1-bit signless integer attribute"),
]


def _invalid_ids() -> list[str]:
    return [f"{k}-{case[1].split()[2 if case[1].startswith('%') else 0]}"
            for k, case in enumerate(INVALID)]


@pytest.mark.parametrize("args, body, error", INVALID, ids=_invalid_ids())
def test_invalid_input_gets_mlir_opts_first_error(args, body, error):
    assert _opt(_fn(args, body)).splitlines()[0] == error


@pytest.mark.parametrize("args, body, error", INVALID, ids=_invalid_ids())
def test_invalid_expectations_match_a_live_mlir_opt(args, body, error):
    run = run_mlir_opt(_fn(args, body))
    assert run.returncode != 0
    assert run.stderr.splitlines()[0] == f"<stdin>:{error.split(': ', 1)[0]}: error: " \
                                         f"{error.split(': ', 1)[1]}"


#: shapes that do not fit the vectors and mixed element types: MLIR's verifier accepts them
#: (LLVM's rejects them after translation)
ACCEPTED = [
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 3: i32, columns = 2 : i32} : "
          "vector<4xf64> into vector<4xf64>"),
    (_V4, "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : i32} : "
          "vector<4xf64> into vector<6xf32>"),
    ("%a: vector<4xf64>, %b: vector<4xi32>",
     f"%c = llvm.intr.matrix.multiply %a, %b {_MUL_ATTRS} : (vector<4xf64>, vector<4xi32>) -> "
     "vector<9xi32>"),
    ("%a: vector<[4]xf32>", "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : "
     "i32} : vector<[4]xf32> into vector<[4]xf32>"),
    ("%a: vector<4xi1>, %b: vector<4xf80>",
     "%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : i32} : vector<4xi1> into "
     "vector<4xi1>\n  %e = llvm.intr.matrix.transpose %b {rows = 2: i32, columns = 2 : i32} : "
     "vector<4xf80> into vector<4xf80>"),
]


@pytest.mark.parametrize("args, body", ACCEPTED)
def test_shapes_are_not_checked_by_the_verifier(args, body):
    assert "error" not in _opt(_fn(args, body))
    assert "llvm.intr.matrix" in _opt(_fn(args, body))
