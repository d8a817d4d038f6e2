"""Integer literals that do not fit their type are reported where mlir-opt 22 reports them: at
the digits, not at a leading ``-`` (scalar attributes, dense elements, ``index.constant``, gpu
ops' integer attributes), with ``index`` read as a signed 64-bit value and MLIR's message for a
negative unsigned element.  Every expectation was recorded from mlir-opt 22; where it is
installed the inputs are also compared with it live."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tileir.cli.opt import process_buffer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

_ATTR = "integer constant out of range for attribute"
_TYPE = "integer constant out of range for type"


def _in_func(line: str) -> str:
    return f"func.func @f() {{\n  {line}\n  return\n}}\n"


def _attr_of_func(attr: str) -> str:
    return f"func.func @f() attributes {{x = {attr}}} {{\n  return\n}}\n"


#: (input, "line:col: message" of mlir-opt 22's error)
CASES = [
    (_in_func("%a = arith.constant -129 : i8"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant 256 : i8"), f"2:23: {_ATTR}"),
    (_in_func("%a = arith.constant -2 : i1"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant 2 : i1"), f"2:23: {_ATTR}"),
    (_in_func("%a = arith.constant - 129 : i8"), f"2:25: {_ATTR}"),
    (_in_func("%a = arith.constant -0x81 : i8"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant -32769 : i16"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant -129 : i7"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant -9223372036854775809 : i64"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant -129 : si8"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant -1 : ui8"),
     "2:24: negative integer literal not valid for unsigned integer type"),
    # index literals are signed 64-bit
    (_in_func("%a = arith.constant -9223372036854775809 : index"), f"2:24: {_ATTR}"),
    (_in_func("%a = arith.constant 9223372036854775808 : index"), f"2:23: {_ATTR}"),
    (_in_func("%a = arith.constant 18446744073709551615 : index"), f"2:23: {_ATTR}"),
    (_in_func('%a = "arith.constant"() <{value = -129 : i8}> : () -> i8'), f"2:38: {_ATTR}"),
    (_in_func("%a = arith.constant {x = -129 : i8} -1 : i8"), f"2:29: {_ATTR}"),
    (_in_func("%a = index.constant -9223372036854775809"), f"2:24: {_ATTR}"),
    (_attr_of_func("-129 : i8"), f"1:33: {_ATTR}"),
    (_attr_of_func("-129 : index"), None),
    (_attr_of_func("9223372036854775808 : index"), f"1:32: {_ATTR}"),
    # dense elements
    (_in_func("%a = arith.constant dense<-129> : vector<2xi8>"), f"2:30: {_TYPE}"),
    (_in_func("%a = arith.constant dense<[1, -129]> : vector<2xi8>"), f"2:34: {_TYPE}"),
    (_in_func("%a = arith.constant dense<[[1, 2], [3, -200]]> : tensor<2x2xi8>"),
     f"2:43: {_TYPE}"),
    (_in_func("%a = arith.constant dense<[true, -2]> : vector<2xi1>"), f"2:37: {_TYPE}"),
    (_in_func("%a = arith.constant dense<-2> : vector<2xi1>"), f"2:30: {_TYPE}"),
    (_in_func("%a = arith.constant dense<-9223372036854775809> : vector<2xindex>"),
     f"2:30: {_TYPE}"),
    (_in_func("%a = arith.constant dense<9223372036854775808> : vector<2xindex>"),
     f"2:29: {_TYPE}"),
    (_in_func("%a = arith.constant dense<[1, 9223372036854775808]> : tensor<2xindex>"),
     f"2:33: {_TYPE}"),
    (_attr_of_func("dense<-129> : tensor<2xsi8>"), f"1:39: {_TYPE}"),
    (_attr_of_func("dense<[1, -1]> : tensor<2xui8>"),
     "1:43: expected unsigned integer elements, but parsed negative value"),
    (_attr_of_func("dense<-0x81> : tensor<2xi8>"), f"1:39: {_TYPE}"),
    ("memref.global @g : memref<2xi8> = dense<[1, -300]>\n", f"1:46: {_TYPE}"),
    # gpu ops' integer attributes
    ("func.func @f(%x: f32) {\n  %a, %b = gpu.rotate %x, -2147483649, 32 : f32\n  return\n}\n",
     f"2:28: {_ATTR}"),
    ("func.func @f(%x: f32) {\n  %a = gpu.subgroup_reduce add %x cluster(size = -2147483649) "
     ": (f32) -> f32\n  return\n}\n", f"2:51: {_ATTR}"),
    # values that fit
    (_in_func("%a = arith.constant -1 : i1"), None),
    (_in_func("%a = arith.constant -128 : i8"), None),
    (_in_func("%a = arith.constant 255 : i8"), None),
    (_in_func("%a = arith.constant -9223372036854775808 : index"), None),
    (_in_func("%a = arith.constant dense<[-128, 255]> : vector<2xi8>"), None),
    (_in_func("%a = arith.constant dense<9223372036854775807> : vector<2xindex>"), None),
]


def _first_error(text: str):
    diags = process_buffer(text, "t.mlir").diagnostics
    return f"{diags[0].loc.line}:{diags[0].loc.col}: {diags[0].message}" if diags else None


@pytest.mark.parametrize("text, error", CASES)
def test_error_location_and_message(text, error):
    assert _first_error(text) == error


@pytest.mark.parametrize("text, error", CASES)
def test_expectation_matches_a_live_mlir_opt(text, error):
    run = run_mlir_opt(text)
    if error is None:
        assert run.returncode == 0, run.stderr
    else:
        where, message = error.split(": ", 1)
        assert run.stderr.splitlines()[0] == f"<stdin>:{where}: error: {message}"
