"""``vector.scatter`` on a tensor base: MLIR 22 gives the op an optional result (the updated
tensor, ``-> tensor<...>``).  Expected texts and messages were recorded from mlir-opt 22; where
mlir-opt is installed the same inputs are also compared with it live."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.cli.opt import process_buffer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

SRC = """\
func.func @f(%t: tensor<16xf32>, %m: memref<16xf32>, %idx: vector<4xi32>, %mask: vector<4xi1>, %val: vector<4xf32>, %t2: tensor<4x4xf32>, %i: index, %d: tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %r = vector.scatter %t[%c0] [%idx], %mask, %val : tensor<16xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> -> tensor<16xf32>
  vector.scatter %m[%c0] [%idx], %mask, %val : memref<16xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  %r2 = vector.scatter %t2[%c0, %i] [%idx], %mask, %val {alignment = 8} : tensor<4x4xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> -> tensor<4x4xf32>
  %r3 = vector.scatter %d[%c0] [%idx], %mask, %val : tensor<?xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> -> tensor<?xf32>
  return
}
"""

CUSTOM_OPS = [
    "%0 = vector.scatter %arg0[%c0] [%arg2], %arg3, %arg4 : tensor<16xf32>, vector<4xi32>, "
    "vector<4xi1>, vector<4xf32> -> tensor<16xf32>",
    "vector.scatter %arg1[%c0] [%arg2], %arg3, %arg4 : memref<16xf32>, vector<4xi32>, "
    "vector<4xi1>, vector<4xf32>\n",
    "%1 = vector.scatter %arg5[%c0, %arg6] [%arg2], %arg3, %arg4 {alignment = 8 : i64} : "
    "tensor<4x4xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> -> tensor<4x4xf32>",
    "%2 = vector.scatter %arg7[%c0] [%arg2], %arg3, %arg4 : tensor<?xf32>, vector<4xi32>, "
    "vector<4xi1>, vector<4xf32> -> tensor<?xf32>",
]

GENERIC_OPS = [
    '%1 = "vector.scatter"(%arg0, %0, %arg2, %arg3, %arg4) : (tensor<16xf32>, index, '
    'vector<4xi32>, vector<4xi1>, vector<4xf32>) -> tensor<16xf32>',
    '"vector.scatter"(%arg1, %0, %arg2, %arg3, %arg4) : (memref<16xf32>, index, vector<4xi32>, '
    'vector<4xi1>, vector<4xf32>) -> ()',
    '%2 = "vector.scatter"(%arg5, %0, %arg6, %arg2, %arg3, %arg4) <{alignment = 8 : i64}> : '
    '(tensor<4x4xf32>, index, index, vector<4xi32>, vector<4xi1>, vector<4xf32>) -> '
    'tensor<4x4xf32>',
]


def _opt(text: str, generic: bool = False) -> str:
    result = process_buffer(text, "t.mlir")
    if result.diagnostics:
        return "\n".join(f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics)
    return tileir.text.print_op(result.module, generic=generic)



def test_tensor_scatter_prints_as_mlir_opt():
    text = _opt(SRC)
    for line in CUSTOM_OPS:
        assert line in text
    assert _opt(text) == text


def test_tensor_scatter_generic_form():
    generic = _opt(SRC, generic=True)
    for line in GENERIC_OPS:
        assert line in generic
    assert _opt(generic) == _opt(SRC)


def test_live_mlir_opt_agrees():
    assert run_mlir_opt(SRC).stdout.rstrip() == _opt(SRC).rstrip()
    assert run_mlir_opt(SRC, ["-mlir-print-op-generic"]).stdout.rstrip() == \
        _opt(SRC, generic=True).rstrip()


_HEAD = ("func.func @f(%t: {base}, %idx: vector<4xi32>, %mask: vector<4xi1>, "
         "%val: vector<4x{elem}>) {{\n  %c0 = arith.constant 0 : index\n  ")
_OPERANDS = "%t[%c0] [%idx], %mask, %val : {base}, vector<4xi32>, vector<4xi1>, vector<4x{elem}>"


def _case(base: str, tail: str, elem: str = "f32", name: str = "%r = ") -> str:
    return (_HEAD.format(base=base, elem=elem) + name + "vector.scatter " +
            _OPERANDS.format(base=base, elem=elem) + tail + "\n  return\n}\n")


#: MLIR 22 does not tie the result to the base: all of these verify
ACCEPTED = [
    _case("tensor<16xf32>", "", name=""),                           # tensor base, no result
    _case("memref<16xf32>", " -> tensor<16xf32>"),                  # memref base, a result
    _case("tensor<16xf32>", " -> tensor<8xf32>"),                   # another tensor type
]


@pytest.mark.parametrize("text", ACCEPTED)
def test_result_is_not_tied_to_the_base(text):
    assert "error" not in _opt(text)


#: (input, "line:col: message" of mlir-opt 22's first error)
INVALID = [
    (_case("tensor<16xf32>", " -> memref<16xf32>"),
     "3:8: 'vector.scatter' op result #0 must be ranked tensor of any type values, but got "
     "'memref<16xf32>'"),
    (_case("tensor<*xf32>", " -> tensor<*xf32>"),
     "3:8: 'vector.scatter' op result #0 must be ranked tensor of any type values, but got "
     "'tensor<*xf32>'"),
    (_case("tensor<16xf32>", " -> f32"),
     "3:8: 'vector.scatter' op result #0 must be ranked tensor of any type values, but got "
     "'f32'"),
    (_case("tensor<16xf32>", " -> tensor<16xf32>", elem="f16"),
     "3:8: 'vector.scatter' op base and valueToStore element type should match"),
    # a type is optional after '->': none here, so the op has no result to name
    (_case("tensor<16xf32>", " ->"), "3:3: cannot name an operation with no results"),
    (_case("tensor<16xf32>", " -> tensor<16xf32>", name="%r:2 = "),
     "3:3: operation defines 1 results but was provided 2 to bind"),
]


@pytest.mark.parametrize("text, error", INVALID)
def test_invalid_input_gets_mlir_opts_first_error(text, error):
    assert _opt(text).splitlines()[0] == error


@pytest.mark.parametrize("text, error", INVALID)
def test_invalid_expectations_match_a_live_mlir_opt(text, error):
    where, message = error.split(": ", 1)
    assert run_mlir_opt(text).stderr.splitlines()[0] == f"<stdin>:{where}: error: {message}"
