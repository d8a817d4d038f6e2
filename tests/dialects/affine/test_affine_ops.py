"""affine.apply / min / max: custom and generic text, and messages, as mlir-opt 22 prints them
(expectations recorded from mlir-opt; compared live when it is installed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.ir.diagnostics import DiagnosticError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

PROGRAM = """#m = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
func.func @f(%a: index, %b: index, %c: index) -> (index, index, index, index) {
  %0 = affine.apply #m(%a)[%b, %c]
  %1 = affine.apply affine_map<(d0, d1) -> (d0 floordiv 4 + d1 mod 3)>(%a, %b)
  %2 = affine.min affine_map<(d0)[s0] -> (d0, s0 - 1, 16)>(%a)[%b] {tag}
  %3 = affine.max affine_map<()[s0] -> (s0 ceildiv 2, 0)>()[%c]
  return %0, %1, %2, %3 : index, index, index, index
}
"""

CUSTOM = """#map = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
#map1 = affine_map<(d0, d1) -> (d0 floordiv 4 + d1 mod 3)>
#map2 = affine_map<(d0)[s0] -> (d0, s0 - 1, 16)>
#map3 = affine_map<()[s0] -> (s0 ceildiv 2, 0)>
module {
  func.func @f(%arg0: index, %arg1: index, %arg2: index) -> (index, index, index, index) {
    %0 = affine.apply #map(%arg0)[%arg1, %arg2]
    %1 = affine.apply #map1(%arg0, %arg1)
    %2 = affine.min #map2(%arg0)[%arg1] {tag}
    %3 = affine.max #map3()[%arg2]
    return %0, %1, %2, %3 : index, index, index, index
  }
}
"""

GENERIC_LINES = [
    '%0 = "affine.apply"(%arg0, %arg1, %arg2) <{map = #map}> : (index, index, index) -> index',
    '%2 = "affine.min"(%arg0, %arg1) <{map = #map2}> {tag} : (index, index) -> index',
    '%3 = "affine.max"(%arg2) <{map = #map3}> : (index) -> index',
]

#: (op text in a function of %a, %b: index, mlir-opt's first error line)
INVALID = [
    ("affine.apply affine_map<(d0) -> (d0, d0)>(%a)",
     "2:3: error: operation defines 2 results but was provided 1 to bind"),
    ("affine.apply affine_map<(d0) -> (d0)>(%a, %b)",
     "2:8: error: custom op 'affine.apply' dimension or symbol index mismatch"),
    ("affine.apply affine_map<(d0) -> (d0)>(%a)[%b]",
     "2:8: error: custom op 'affine.apply' dimension or symbol index mismatch"),
    ("affine.min affine_map<(d0) -> ()>(%a)",
     "2:8: error: 'affine.min' op affine map expect at least one result"),
    ("affine.apply %a", "2:20: error: expected attribute value"),
    ('"affine.apply"(%a) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index',
     "2:8: error: 'affine.apply' op mapping must produce one value"),
    ('"affine.max"(%a, %b) <{map = affine_map<(d0) -> (d0)>}> : (index, index) -> index',
     "2:8: error: 'affine.max' op operand count and affine map dimension and symbol count "
     "must match"),
]


#: as INVALID, for ops written without a result name
INVALID_UNNAMED = [
    ("affine.apply affine_map<(d0) -> (d0, d0)>(%a)",
     "2:3: error: 'affine.apply' op requires one result"),
]


def _invalid_program(op: str, named: bool = True) -> str:
    return (f"func.func @f(%a: index, %b: index) {{\n  {'%0 = ' if named else ''}{op}\n"
            "  return\n}\n")


def _first_error(text: str) -> str:
    try:
        tileir.verify(tileir.parse(text))
    except DiagnosticError as exc:
        return str(exc).splitlines()[0].split("<string>:", 1)[1]
    return "no error"


def test_custom_form_as_mlir_opt():
    assert tileir.print(tileir.parse(PROGRAM)) == CUSTOM


def test_generic_form_as_mlir_opt():
    text = tileir.print(tileir.parse(PROGRAM), generic=True)
    lines = [ln.strip() for ln in text.splitlines()]
    for want in GENERIC_LINES:
        assert want in lines
    assert tileir.print(tileir.parse(text)) == CUSTOM           # and it reads back


@pytest.mark.parametrize("op,error", INVALID)
def test_invalid_as_mlir_opt(op, error):
    assert _first_error(_invalid_program(op)) == error


@pytest.mark.parametrize("op,error", INVALID_UNNAMED)
def test_invalid_unnamed_as_mlir_opt(op, error):
    assert _first_error(_invalid_program(op, named=False)) == error


def _live_error(text: str) -> str:
    """mlir-opt's first error on ``text``, as ``line:col: error: message``."""
    run = run_mlir_opt(text)
    assert run.returncode != 0
    return run.stderr.splitlines()[0].split("<stdin>:", 1)[1]


def test_expectations_are_mlir_opts():
    assert run_mlir_opt(PROGRAM).stdout.rstrip("\n") == CUSTOM.rstrip("\n")
    generic = [ln.strip() for ln in
               run_mlir_opt(PROGRAM, ["--mlir-print-op-generic"]).stdout.splitlines()]
    assert all(want in generic for want in GENERIC_LINES)
    for op, error in INVALID:
        assert _live_error(_invalid_program(op)) == error
    for op, error in INVALID_UNNAMED:
        assert _live_error(_invalid_program(op, named=False)) == error


ACCESS = """func.func @f(%m: memref<4x4xf32>, %i: index, %j: index, %f: f32) {
  %0 = affine.load %m[%i, symbol(%j) + 2] : memref<4x4xf32>
  %1 = affine.load %m[(%i + 1) * 2, -%j] : memref<4x4xf32>
  %2 = affine.load %m[%j, %i + %j] {x} : memref<4x4xf32>
  affine.store %f, %m[%i, %j floordiv 2] : memref<4x4xf32>
  return
}
"""

#: mlir-opt's custom and generic lines for ACCESS
ACCESS_LINES = [
    "%0 = affine.load %arg0[%arg1, symbol(%arg2) + 2] : memref<4x4xf32>",
    "%1 = affine.load %arg0[(%arg1 + 1) * 2, -%arg2] : memref<4x4xf32>",
    "%2 = affine.load %arg0[%arg2, %arg2 + %arg1] {x} : memref<4x4xf32>",
    "affine.store %arg3, %arg0[%arg1, %arg2 floordiv 2] : memref<4x4xf32>",
]
ACCESS_GENERIC = [
    "#map = affine_map<(d0)[s0] -> (d0, s0 + 2)>",
    "#map2 = affine_map<(d0, d1) -> (d0, d0 + d1)>",
    '%2 = "affine.load"(%arg0, %arg2, %arg1) <{map = #map2}> {x} : (memref<4x4xf32>, index, '
    'index) -> f32',
    '"affine.store"(%arg3, %arg0, %arg1, %arg2) <{map = #map3}> : (f32, memref<4x4xf32>, '
    'index, index) -> ()',
]

ACCESS_INVALID = [
    ("%v = affine.load %m[%i] : memref<4x4xf32>",
     "2:8: error: 'affine.load' op affine map num results must equal memref rank"),
    ("affine.store %f, %m[%i] : memref<4x4xf32>",
     "2:3: error: 'affine.store' op affine map num results must equal memref rank"),
    ("%v = affine.load %m[%i, %i * %j] : memref<4x4xf32>",
     "2:30: error: non-affine expression: at least one of the multiply operands has to be "
     "either a constant or symbolic"),
]


def _access_program(op: str) -> str:
    return ("func.func @f(%m: memref<4x4xf32>, %i: index, %j: index, %f: f32) {\n  " + op
            + "\n  return\n}\n")


def test_access_forms_as_mlir_opt():
    module = tileir.parse(ACCESS)
    custom = [ln.strip() for ln in tileir.print(module).splitlines()]
    assert all(want in custom for want in ACCESS_LINES)
    generic = tileir.print(module, generic=True)
    lines = [ln.strip() for ln in generic.splitlines()]
    assert all(want in lines for want in ACCESS_GENERIC)
    assert tileir.print(tileir.parse(generic)) == tileir.print(module)


@pytest.mark.parametrize("op,error", ACCESS_INVALID)
def test_access_invalid_as_mlir_opt(op, error):
    assert _first_error(_access_program(op)) == error


def test_access_expectations_are_mlir_opts():
    custom = [ln.strip() for ln in run_mlir_opt(ACCESS).stdout.splitlines()]
    assert all(want in custom for want in ACCESS_LINES)
    generic = [ln.strip() for ln in
               run_mlir_opt(ACCESS, ["--mlir-print-op-generic"]).stdout.splitlines()]
    assert all(want in generic for want in ACCESS_GENERIC)
    for op, error in ACCESS_INVALID:
        assert _live_error(_access_program(op)) == error
