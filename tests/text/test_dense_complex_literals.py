"""Dense literals of complex element types: ``(re, im)`` pairs, as mlir-opt 22 parses, checks
and prints them (expectations recorded from mlir-opt; compared live when it is installed), and
shaped types whose zero dimension runs into a hex-looking word (``tensor<0xcomplex<f32>>``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.ir.diagnostics import DiagnosticError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

#: (literal and type, mlir-opt's printed attribute or "line:col: error: message")
CASES = [
    ('dense<[(1, 2), (3, 4)]> : tensor<2xcomplex<i8>>',
     'dense<[(1,2), (3,4)]> : tensor<2xcomplex<i8>>'),
    ('dense<(1, 2)> : tensor<2x2xcomplex<i8>>',
     'dense<(1,2)> : tensor<2x2xcomplex<i8>>'),
    ('dense<[(1, 2)]> : tensor<1xcomplex<i8>>',
     'dense<(1,2)> : tensor<1xcomplex<i8>>'),
    ('dense<[(1, 2), (1, 2)]> : tensor<2xcomplex<i16>>',
     'dense<(1,2)> : tensor<2xcomplex<i16>>'),
    ('dense<[[(1, 2)], [(3, -4)]]> : tensor<2x1xcomplex<i16>>',
     'dense<[[(1,2)], [(3,-4)]]> : tensor<2x1xcomplex<i16>>'),
    ('dense<[(200, -1)]> : tensor<1xcomplex<i8>>',
     'dense<(-56,-1)> : tensor<1xcomplex<i8>>'),
    ('dense<[(1, 300)]> : tensor<1xcomplex<i8>>',
     '2:34: error: integer constant out of range for type'),
    ('dense<[(1, 2), (1.5, 2)]> : tensor<2xcomplex<i8>>',
     '2:39: error: expected integer elements, but parsed floating-point'),
    ('dense<[(1.0, 2.0), (3.0, -4.5)]> : tensor<2xcomplex<f32>>',
     'dense<[(1.000000e+00,2.000000e+00), (3.000000e+00,-4.500000e+00)]> : tensor<2xcomplex<f32>>'),
    ('dense<(1.5, -2.0)> : tensor<2xcomplex<f64>>',
     'dense<(1.500000e+00,-2.000000e+00)> : tensor<2xcomplex<f64>>'),
    ('dense<(0x7FC00000, 1.0)> : tensor<2xcomplex<f32>>',
     'dense<(0x7FC00000,1.000000e+00)> : tensor<2xcomplex<f32>>'),
    ('dense<[(1.0, 2.0)]> : tensor<1xcomplex<bf16>>',
     'dense<(1.000000e+00,2.000000e+00)> : tensor<1xcomplex<bf16>>'),
    ('dense<[(0.1, 1.0e10), (-0.0, 2.5)]> : tensor<2xcomplex<f16>>',
     'dense<[(9.997550e-02,0x7C00), (-0.000000e+00,2.500000e+00)]> : tensor<2xcomplex<f16>>'),
    ('dense<(true, false)> : tensor<2xcomplex<i1>>',
     'dense<(true,false)> : tensor<2xcomplex<i1>>'),
    ('dense<[]> : tensor<0xcomplex<f32>>',
     'dense<> : tensor<0xcomplex<f32>>'),
    ('dense<(1, 2)> : tensor<complex<f32>>',
     '2:30: error: unexpected decimal integer literal for a floating point value'),
    ('dense<[[(1, 2), (3, 4)]]> : tensor<1x2xcomplex<f32>>',
     '2:32: error: unexpected decimal integer literal for a floating point value'),
    ('dense<1> : tensor<2xcomplex<i8>>',
     "2:23: error: parsed 1 elements, but type ('complex<i8>') expected 2 elements"),
    ('dense<[1, 2]> : tensor<2xcomplex<i8>>',
     "2:23: error: parsed 2 elements, but type ('tensor<2xcomplex<i8>>') expected 4 elements"),
    ('dense<[1, 2, 3, 4]> : tensor<2xcomplex<i8>>',
     '2:23: error: inferred shape of elements literal ([4]) does not match type ([2])'),
    ('dense<[(1, 2)]> : tensor<2xcomplex<f32>>',
     '2:23: error: inferred shape of elements literal ([1]) does not match type ([2])'),
    ('dense<(1 2)> : tensor<2xcomplex<i8>>',
     "2:31: error: expected ',' between complex elements"),
    ('dense<(1, 2> : tensor<2xcomplex<f32>>',
     "2:34: error: expected ')' after complex elements"),
    ('dense<[(1, 2, 3)]> : tensor<1xcomplex<i8>>',
     "2:35: error: expected ')' after complex elements"),
    ('dense<[(1, 2)]> : tensor<1xcomplex<si8>>',
     'dense<(1,2)> : tensor<1xcomplex<si8>>'),
    ('dense<[(1, -2)]> : tensor<1xcomplex<ui8>>',
     '2:35: error: expected unsigned integer elements, but parsed negative value'),
    ('dense<[(255, 2)]> : tensor<1xcomplex<ui8>>',
     'dense<(255,2)> : tensor<1xcomplex<ui8>>'),
    ('dense<[(1, 2)]> : tensor<1xcomplex<f32>>',
     '2:31: error: unexpected decimal integer literal for a floating point value'),
]


def _program(body: str) -> str:
    return "func.func @g() {\n  %c = arith.constant " + body + "\n  return\n}\n"


def ours(body: str) -> str:
    """The printed attribute, or the first error as ``line:col: error: message``."""
    try:
        module = tileir.parse(_program(body))
    except DiagnosticError as exc:
        return str(exc).splitlines()[0].split("<string>:", 1)[1]
    line = next(ln for ln in tileir.print(module).splitlines() if "arith.constant" in ln)
    return line.split("arith.constant ", 1)[1].strip()


@pytest.mark.parametrize("body,expected", CASES)
def test_complex_dense_literal_as_mlir_opt(body, expected):
    assert ours(body) == expected


@pytest.mark.parametrize("body,expected", CASES)
def test_expectations_still_what_mlir_opt_says(body, expected):
    r = run_mlir_opt(_program(body))
    if r.returncode:
        got = next(ln for ln in r.stderr.splitlines() if "error" in ln).split("<stdin>:", 1)[1]
    else:
        got = next(ln for ln in r.stdout.splitlines() if "arith.constant" in ln)
        got = got.split("arith.constant ", 1)[1].strip()
    assert got == expected


@pytest.mark.parametrize("shape", ["0xcomplex<f32>", "2x0xcomplex<i8>", "0xf32", "0x?xbf16"])
def test_zero_dimension_before_a_hex_looking_word(shape):
    text = f"func.func @g(%a: tensor<{shape}>) {{\n  return\n}}\n"
    assert f"tensor<{shape}>" in tileir.print(tileir.parse(text))
