"""math: custom and generic printing and verifier messages identical to mlir-opt 22."""

from __future__ import annotations

from tileir.dialects.math.ops import CLASSIFICATION, FLOAT_BINARY, FLOAT_UNARY, INT_UNARY
from mlir_diff import assert_same_errors, assert_same_printing, in_func

ARGS = "%f: f32, %i: i32, %v: vector<4xf32>, %t: tensor<?xf64>, %x: index, %h: bf16"


def _lines() -> list[str]:
    lines = []
    for op in FLOAT_UNARY:
        lines.append(f"%{op} = math.{op} %f : f32")
        lines.append(f"%{op}_v = math.{op} %v fastmath<fast> : vector<4xf32>")
        lines.append(f"%{op}_t = math.{op} %t fastmath<nnan,afn> : tensor<?xf64>")
    for op in FLOAT_BINARY:
        lines.append(f"%{op} = math.{op} %f, %f : f32")
        lines.append(f"%{op}_h = math.{op} %h, %h fastmath<contract> : bf16")
    for op in INT_UNARY:
        lines.append(f"%{op} = math.{op} %i : i32")
        lines.append(f"%{op}_x = math.{op} %x : index")
    for op in CLASSIFICATION:
        lines.append(f"%{op} = math.{op} %f : f32")
        lines.append(f"%{op}_v = math.{op} %v {{fastmath = #arith.fastmath<ninf>}} : "
                     "vector<4xf32>")
    lines += ["%ip = math.ipowi %i, %i : i32", "%fp = math.fpowi %f, %i : f32, i32",
              "%fp2 = math.fpowi %h, %x fastmath<fast> : bf16, index",
              "%fma = math.fma %f, %f, %f : f32", "%fma2 = math.fma %v, %v, %v fastmath<fast> : "
              "vector<4xf32>", "%cl = math.clampf %f to [%f, %f] : f32",
              "%cl2 = math.clampf %v to [%v, %v] fastmath<nsz> : vector<4xf32>",
              "%s:2 = math.sincos %f : f32", "%sv:2 = math.sincos %v fastmath<fast> : vector<4xf32>",
              "%a = math.absf %f {tag} : f32"]
    return lines


def test_math_ops_print_like_mlir_opt():
    body = "\n".join("  " + line for line in _lines())
    assert assert_same_printing([in_func(body + "\n  return", ARGS)]) == 1


INVALID = [
    ("%0 = math.sin %i : i32", "%i: i32"),
    ('%0 = "math.isnan"(%f) : (f32) -> f32', "%f: f32"),
    ('%0 = "math.atan2"(%f, %g) : (f32, f64) -> f32', "%f: f32, %g: f64"),
    ('%0 = "math.fpowi"(%f, %g) : (f32, f64) -> f32', "%f: f32, %g: f64"),
    ('%0 = "math.fpowi"(%v, %i) : (vector<4xf32>, i32) -> vector<4xf32>',
     "%v: vector<4xf32>, %i: i32"),
    ('%0 = "math.sin"(%m) : (memref<4xf32>) -> memref<4xf32>', "%m: memref<4xf32>"),
    ('%0 = "math.absi"(%f) : (f32) -> f32', "%f: f32"),
    ('%0:2 = "math.sincos"(%f) : (f32) -> (f32, f64)', "%f: f32"),
    ('%0 = "math.fma"(%f, %f, %g) : (f32, f32, f64) -> f32', "%f: f32, %g: f64"),
    ('%0 = "math.isinf"(%v) : (vector<4xf32>) -> vector<3xi1>', "%v: vector<4xf32>"),
]


def test_math_invalid_like_mlir_opt():
    chunks = [in_func(f"  {body}\n  return", args) for body, args in INVALID]
    assert assert_same_errors(chunks) == len(chunks)
