"""MLIR's runner utility functions (``printMemrefF32`` & co.) called from host code, as MLIR's
GPU integration tests use them: the text is what ``libmlir_runner_utils`` prints (metadata
line, nested brackets indented by depth, C ``%g`` floats), checked against strings written
out by hand from that format and against NumPy's values."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.cli import main
from tileir.execute.errors import ArgumentError, UnsupportedError
from tileir.execute.simt.runner_utils import RUNNER_FUNCTIONS

DECLS = """
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefI64(memref<*xi64>)
func.func private @printMemrefInd(memref<*xindex>)
func.func private @printMemrefShapeF32(memref<*xf32>)
func.func private @printMemref1dF32(memref<?xf32>)
func.func private @verifyMemRefF32(memref<*xf32>, memref<*xf32>) -> i64
func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printOpen()
func.func private @printClose()
func.func private @printComma()
func.func private @printNewline()
func.func private @rtclock() -> f64
"""

META = re.compile(r"base@ = 0x[0-9a-f]+ ")


def _run(body: str, args=(), err: bool = False):
    module = tileir.parse("func.func @main(" + body + DECLS)
    out = io.StringIO()
    results = tileir.gpu.run(module, "main", args=list(args), stdout=out)
    return META.sub("base@ = ADDR ", out.getvalue()), results


def _print_array(arr: np.ndarray, printer: str = "printMemrefF32") -> str:
    shape = "x".join(map(str, arr.shape))
    elem = {np.dtype(np.float32): "f32", np.dtype(np.int32): "i32",
            np.dtype(np.int64): "i64"}[arr.dtype]
    text, _ = _run(f"%a: memref<{shape}x{elem}>) {{\n"
                   f"  %u = memref.cast %a : memref<{shape}x{elem}> to memref<*x{elem}>\n"
                   f"  call @{printer}(%u) : (memref<*x{elem}>) -> ()\n"
                   "  return\n}\n", [arr])
    return text


def test_one_dimension_exact_text():
    text = _print_array(np.array([0, 1, 2, 3], np.float32))
    assert text == ("Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [4] strides = [1] "
                    "data = \n[0,  1,  2,  3]\n")


def test_nested_dimensions_are_indented_by_depth():
    text = _print_array(np.arange(8, dtype=np.int32).reshape(2, 2, 2), "printMemrefI32")
    head, body = text.split("data = \n")
    assert head == ("Unranked Memref base@ = ADDR rank = 3 offset = 0 sizes = [2, 2, 2] "
                    "strides = [4, 2, 1] ")
    assert body == "[[[0,    1], \n  [2,    3]], \n [[4,    5], \n  [6,    7]]]\n"


def test_two_dimensions_and_single_elements():
    text = _print_array(np.array([[1, 2, 3], [4, 5, 6]], np.int64), "printMemrefI64")
    assert text.endswith("data = \n[[1,   2,   3], \n [4,   5,   6]]\n")
    text = _print_array(np.array([[7]], np.float32))
    assert text.endswith("sizes = [1, 1] strides = [1, 1] data = \n[[7]]\n")


@pytest.mark.parametrize("seed", range(3))
def test_values_round_trip_through_the_text(seed):
    """Whatever the shape, stripping the brackets gives NumPy's elements in row-major order
    (FileCheck-style: the numbers, in order)."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 4))))
    arr = rng.integers(-1000, 1000, size=shape).astype(np.int32)
    body = _print_array(arr, "printMemrefI32").split("data = \n")[1]
    assert body.count("[") == body.count("]") == sum(int(np.prod(shape[:k]))
                                                    for k in range(len(shape)))
    numbers = [int(x) for x in re.findall(r"-?\d+", body)]
    assert numbers == arr.reshape(-1).tolist()


def test_floats_print_as_c_percent_g():
    vals = np.array([0.5, 1e-7, 123456789.0, -2.25, np.inf, -np.inf, 3.0], np.float32)
    neg_nan = np.array([0xFFC00000], np.uint32).view(np.float32)[0]
    vals = np.append(vals, [np.float32(np.nan), neg_nan])
    body = _print_array(vals).split("data = \n")[1]
    assert body == "[0.5,  1e-07,  1.23457e+08,  -2.25,  inf,  -inf,  3,  nan,  -nan]\n"


def test_strided_view_prints_its_offset_and_strides():
    text, _ = _run("""%a: memref<8xf32>) {
  %s = memref.subview %a[1] [3] [2] : memref<8xf32> to memref<3xf32, strided<[2], offset: 1>>
  %u = memref.cast %s : memref<3xf32, strided<[2], offset: 1>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
""", [np.arange(8, dtype=np.float32) * 10])
    assert text == ("Unranked Memref base@ = ADDR rank = 1 offset = 1 sizes = [3] "
                    "strides = [2] data = \n[10,  30,  50]\n")


def test_ranked_printer_index_and_shape():
    text, _ = _run("""%a: memref<2xf32>, %i: memref<2xindex>) {
  %d = memref.cast %a : memref<2xf32> to memref<?xf32>
  call @printMemref1dF32(%d) : (memref<?xf32>) -> ()
  %u = memref.cast %i : memref<2xindex> to memref<*xindex>
  call @printMemrefInd(%u) : (memref<*xindex>) -> ()
  %f = memref.cast %a : memref<2xf32> to memref<*xf32>
  call @printMemrefShapeF32(%f) : (memref<*xf32>) -> ()
  return
}
""", [np.array([1.5, 2], np.float32), np.array([-1, 7], np.int64)])
    lines = text.split("\n")
    assert lines[0].startswith("Memref base@ = ADDR rank = 1 ")     # ranked: no "Unranked"
    assert lines[1] == "[1.5,  2]"
    assert lines[3] == "[18446744073709551615,  7]"                  # index prints unsigned
    assert lines[4] == ("Unranked Memref base@ = ADDR rank = 1 offset = 0 sizes = [2] "
                        "strides = [1]")
    assert lines[5:] == [""]


def test_scalar_printers_and_clock():
    text, results = _run("""%x: f32, %y: f64, %i: i64) -> f64 {
  call @printOpen() : () -> ()
  call @printF32(%x) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF64(%y) : (f64) -> ()
  call @printComma() : () -> ()
  call @printI64(%i) : (i64) -> ()
  call @printComma() : () -> ()
  call @printU64(%i) : (i64) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  %t0 = call @rtclock() : () -> f64
  %t1 = call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  return %dt : f64
}
""", [np.float32(0.1), 1e300, -3])
    assert text == "( 0.1, 1e+300, -3, 18446744073709551613 )\n"
    assert 0.0 <= float(results[0]) < 10.0


def test_verify_counts_and_reports_mismatches(capsys):
    _, results = _run("""%a: memref<4xf32>, %b: memref<4xf32>) -> i64 {
  %ua = memref.cast %a : memref<4xf32> to memref<*xf32>
  %ub = memref.cast %b : memref<4xf32> to memref<*xf32>
  %n = call @verifyMemRefF32(%ua, %ub) : (memref<*xf32>, memref<*xf32>) -> i64
  return %n : i64
}
""", [np.array([1, 2, 3, np.nan], np.float32),
      np.array([1, 2.0000001, 3.5, np.nan], np.float32)])
    # 2 vs 2.0000001: within 1e-6 relative; 3 vs 3.5 differs; NaN is never equal
    assert int(results[0]) == 2
    assert capsys.readouterr().err == "3 != 3.5 offset = 2\nnan != nan offset = 3\n"


def test_wrong_element_type_and_unknown_functions_are_reported():
    module = tileir.parse("""func.func @main(%a: memref<2xi32>) {
  %u = memref.cast %a : memref<2xi32> to memref<*xi32>
  call @printMemrefF32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xi32>)
""")
    with pytest.raises(ArgumentError, match="printMemrefF32 prints f32 elements"):
        tileir.gpu.run(module, "main", args=[np.zeros(2, np.int32)], stdout=io.StringIO())
    module = tileir.parse("""func.func @main() {
  call @mystery() : () -> ()
  return
}
func.func private @mystery()
""")
    with pytest.raises(UnsupportedError, match="'mystery' has no body"):
        tileir.gpu.run(module, "main", stdout=io.StringIO())


SHUFFLE_LAUNCH = """
func.func @main() {
  %arg = memref.alloc() : memref<13xf32>
  %one = arith.constant 1 : index
  %n = arith.constant 13 : index
  %u = memref.cast %arg : memref<13xf32> to memref<*xf32>
  gpu.host_register %u : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %one, %sz = %one) {
    %t = arith.index_cast %tx : index to i32
    %v = arith.sitofp %t : i32 to f32
    %w = arith.index_cast %sx : index to i32
    %c4 = arith.constant 4 : i32
    %s, %ok = gpu.shuffle xor %v, %c4, %w : f32
    cf.cond_br %ok, ^join(%s : f32), ^invalid
  ^invalid:
    %m1 = arith.constant -1.0 : f32
    cf.br ^join(%m1 : f32)
  ^join(%r : f32):
    memref.store %r, %arg[%tx] : memref<13xf32>
    gpu.terminator
  }
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
"""


def test_launch_body_ending_in_a_branch_runs_from_the_cli(tmp_path, capsys):
    """A ``gpu.launch`` body whose blocks end in ``cf`` branches (a terminator with
    successors, which MLIR's verifier accepts) runs; the result printed by the runner
    library: lane i reads lane i^4 where that is below the width 13."""
    path = tmp_path / "shuffle.mlir"
    path.write_text(SHUFFLE_LAUNCH)
    assert main(["run", str(path), "--func", "main", "--quiet"]) == 0
    lane = np.arange(13)
    want = np.where((lane ^ 4) < 13, lane ^ 4, -1)
    printed = capsys.readouterr().out.split("data = \n")[1]
    assert printed.split("\n")[0] == "[" + ",  ".join(str(int(v)) for v in want) + "]"


def test_every_listed_function_is_implemented():
    for name in ("printMemrefI8", "printMemrefC64", "printMemref4dF32", "printMemref1dInd",
                 "verifyMemRefC32", "printMemrefShapeInd", "printFlops", "nanoTime"):
        assert name in RUNNER_FUNCTIONS


LLVM_DECLS = """module {
  llvm.func @mgpuCreateSparseEnv()
  llvm.func @mgpuDestroySparseEnv()
  llvm.func @printF32(f32)
  llvm.func @printNewline()
  llvm.func @rtclock() -> f64
  func.func @main(%x: f32) -> f64 {
    llvm.call @mgpuCreateSparseEnv() : () -> ()
    llvm.call @printF32(%x) : (f32) -> ()
    llvm.call @printNewline() : () -> ()
    %t = llvm.call @rtclock() : () -> f64
    llvm.call @mgpuDestroySparseEnv() : () -> ()
    return %t : f64
  }
}
"""


def test_llvm_declared_runtime_functions_are_called():
    """Programs for mlir-runner declare runtime functions with llvm.func: the sparse
    environment calls of MLIR's CUDA runtime are no-ops here, runner utilities print."""
    out = io.StringIO()
    (t,) = tileir.gpu.run(tileir.parse(LLVM_DECLS), "main", args=[np.float32(2.5)], stdout=out)
    assert out.getvalue() == "2.5\n" and float(t) > 1e9       # seconds since the epoch


def test_llvm_func_text_round_trips_as_mlir_opt_prints_it():
    module = tileir.parse(LLVM_DECLS)
    text = tileir.print(module)
    assert "  llvm.func @rtclock() -> f64\n" in text
    assert "    %0 = llvm.call @rtclock() : () -> f64\n" in text
    assert tileir.print(tileir.parse(text)) == text
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
    from mlir_tools import run_mlir_opt
    ref = run_mlir_opt(LLVM_DECLS)
    assert ref.returncode == 0, ref.stderr
    assert ref.stdout.rstrip("\n") == text.rstrip("\n")


def test_llvm_func_bodies_and_unknown_callees_are_reported():
    # (llvm.func bodies parse and run now: tests/execute/simt/test_simt_llvm_bodies.py)
    body = "module {\n  llvm.func @f() {\n    llvm.return\n  }\n}"
    assert tileir.print(tileir.parse(body)).rstrip("\n") == body
    module = tileir.parse("""module {
  llvm.func @cudaDeviceReset()
  func.func @main() {
    llvm.call @cudaDeviceReset() : () -> ()
    return
  }
}
""")
    with pytest.raises(UnsupportedError, match="cudaDeviceReset.*not a function tileir provides"):
        tileir.gpu.run(module, "main", stdout=io.StringIO())
