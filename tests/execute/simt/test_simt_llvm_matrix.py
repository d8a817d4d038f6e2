"""``llvm.intr.matrix.transpose`` / ``llvm.intr.matrix.multiply`` run on the host and in gpu
kernels: flat vectors hold column-major matrices (LLVM's LangRef), or row-major ones with
``matrix_layout="row-major"`` (LLVM's ``-matrix-default-layout=row-major``, which MLIR's
``*-row.mlir`` integration tests use).  Expectations come from NumPy and from the CHECK lines of
MLIR's vector CPU integration tests (flat-transpose-*.mlir, matrix-multiply-*.mlir), whose
inputs are restated here as our own programs."""

from __future__ import annotations

import io
import subprocess
import sys

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute import ArgumentError, LaunchError

LAYOUTS = ["column-major", "row-major"]


def _order(layout: str) -> str:
    return "F" if layout == "column-major" else "C"


def _matrix(flat: np.ndarray, rows: int, columns: int, layout: str) -> np.ndarray:
    return flat.reshape((rows, columns), order=_order(layout))


def _flat(m: np.ndarray, layout: str) -> np.ndarray:
    return m.reshape(-1, order=_order(layout))


HOST = """
func.func @main(%a: memref<{na}x{t}>, %b: memref<{nb}x{t}>, %t: memref<{na}x{t}>,
                %c: memref<{nc}x{t}>) {{
  %c0 = arith.constant 0 : index
  %va = vector.load %a[%c0] : memref<{na}x{t}>, vector<{na}x{t}>
  %vb = vector.load %b[%c0] : memref<{nb}x{t}>, vector<{nb}x{t}>
  %vt = llvm.intr.matrix.transpose %va {{rows = {m} : i32, columns = {k} : i32}}
      : vector<{na}x{t}> into vector<{na}x{t}>
  %vc = llvm.intr.matrix.multiply %va, %vb {{lhs_rows = {m} : i32, lhs_columns = {k} : i32,
      rhs_columns = {n} : i32}} : (vector<{na}x{t}>, vector<{nb}x{t}>) -> vector<{nc}x{t}>
  vector.store %vt, %t[%c0] : memref<{na}x{t}>, vector<{na}x{t}>
  vector.store %vc, %c[%c0] : memref<{nc}x{t}>, vector<{nc}x{t}>
  return
}}"""


def _host_program(m: int, k: int, n: int, t: str) -> str:
    return HOST.format(m=m, k=k, n=n, t=t, na=m * k, nb=k * n, nc=m * n)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("m, k, n", [(2, 2, 2), (2, 3, 4), (4, 1, 3), (1, 5, 1)])
def test_host_transpose_and_multiply_match_numpy(layout, m, k, n):
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    a = rng.standard_normal(m * k)
    b = rng.standard_normal(k * n)
    t, c = np.zeros(m * k), np.zeros(m * n)
    kwargs = {} if layout == "column-major" else {"matrix_layout": layout}
    tileir.gpu.run(_host_program(m, k, n, "f64"), "main", args=[a, b, t, c], **kwargs)
    ma, mb = _matrix(a, m, k, layout), _matrix(b, k, n, layout)
    np.testing.assert_array_equal(t, _flat(ma.T, layout))
    np.testing.assert_allclose(c, _flat(ma @ mb, layout), rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("t, dtype", [("i32", np.int32), ("i8", np.int8), ("i64", np.int64)])
def test_integer_multiply_wraps(t, dtype):
    m, k, n = 3, 4, 2
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, m * k, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, k * n, dtype=dtype, endpoint=True)
    tt, c = np.zeros(m * k, dtype), np.zeros(m * n, dtype)
    tileir.gpu.run(_host_program(m, k, n, t), "main", args=[a, b, tt, c])
    ma, mb = _matrix(a, m, k, "column-major"), _matrix(b, k, n, "column-major")
    with np.errstate(over="ignore"):
        want = (ma.astype(np.int64) @ mb.astype(np.int64)).astype(dtype)  # modulo 2**64
    np.testing.assert_array_equal(c, _flat(want, "column-major"))
    np.testing.assert_array_equal(tt, _flat(ma.T, "column-major"))


@pytest.mark.parametrize("a, b, want", [
    # fma(1, -1, round(a0 * b0)) = 1 - 1: the first product is rounded (not an exact dot)
    ([1 + 2.0 ** -23, 1.0], [1 - 2.0 ** -23, -1.0], 0.0),
    # fma(a1, b1, -1) = -2**-46: the second step is fused (not rounded before the add)
    ([1.0, 1 + 2.0 ** -23], [-1.0, 1 - 2.0 ** -23], -2.0 ** -46),
])
def test_float32_multiply_is_a_sequence_of_fused_multiply_adds(a, b, want):
    a, b = np.array(a, np.float32), np.array(b, np.float32)   # 1x2 times 2x1
    t, c = np.zeros(2, np.float32), np.zeros(1, np.float32)
    tileir.gpu.run(_host_program(1, 2, 1, "f32"), "main", args=[a, b, t, c])
    assert c[0] == np.float32(want)


UPSTREAM = """
func.func @main() {
  %a = arith.constant dense<[0.0, 1.0, 2.0, 3.0]> : vector<4xf64>
  %b = arith.constant dense<[4.0, 5.0, 6.0, 7.0]> : vector<4xf64>
  %c = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : vector<6xf64>
  %d = llvm.intr.matrix.transpose %a { rows = 2: i32, columns = 2: i32 } : vector<4xf64> into vector<4xf64>
  %f = llvm.intr.matrix.transpose %c { rows = 2: i32, columns = 3: i32 } : vector<6xf64> into vector<6xf64>
  %g = llvm.intr.matrix.transpose %c { rows = 3: i32, columns = 2: i32 } : vector<6xf64> into vector<6xf64>
  %p = llvm.intr.matrix.multiply %a, %b {lhs_rows = 2 : i32, lhs_columns = 2 : i32, rhs_columns = 2 : i32}
      : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
  vector.print %d : vector<4xf64>
  vector.print %f : vector<6xf64>
  vector.print %g : vector<6xf64>
  vector.print %p : vector<4xf64>
  return
}"""

#: the CHECK lines of flat-transpose-{col,row}.mlir and matrix-multiply-{col,row}.mlir
UPSTREAM_CHECKS = {
    "column-major": ["( 0, 2, 1, 3 )", "( 0, 2, 4, 1, 3, 5 )", "( 0, 3, 1, 4, 2, 5 )",
                     "( 10, 19, 14, 27 )"],
    "row-major": ["( 0, 2, 1, 3 )", "( 0, 3, 1, 4, 2, 5 )", "( 0, 2, 4, 1, 3, 5 )",
                  "( 6, 7, 26, 31 )"],
}


@pytest.mark.parametrize("layout", LAYOUTS)
def test_upstream_integration_test_results(layout):
    out = io.StringIO()
    tileir.gpu.run(UPSTREAM, "main", stdout=out, matrix_layout=layout)
    assert out.getvalue().splitlines() == UPSTREAM_CHECKS[layout]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_cli_run_takes_the_layout_as_mlir_runner_does(layout, tmp_path):
    path = tmp_path / "m.mlir"
    path.write_text(UPSTREAM)
    proc = subprocess.run([sys.executable, "-m", "tileir", "run", str(path), "--func", "main",
                           "--quiet", "--matrix-default-layout", layout],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[:4] == UPSTREAM_CHECKS[layout]


KERNEL = """
gpu.module @k {
  gpu.func @f(%a: memref<8x6xf32>, %b: memref<8x6xf32>, %t: memref<8x6xf32>, %c: memref<8x4xf32>) kernel {
    %i = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %va = vector.load %a[%i, %c0] : memref<8x6xf32>, vector<6xf32>
    %vb = vector.load %b[%i, %c0] : memref<8x6xf32>, vector<6xf32>
    %vt = llvm.intr.matrix.transpose %va {rows = 2 : i32, columns = 3 : i32} : vector<6xf32> into vector<6xf32>
    %vc = llvm.intr.matrix.multiply %va, %vb {lhs_rows = 2 : i32, lhs_columns = 3 : i32, rhs_columns = 2 : i32}
        : (vector<6xf32>, vector<6xf32>) -> vector<4xf32>
    vector.store %vt, %t[%i, %c0] : memref<8x6xf32>, vector<6xf32>
    vector.store %vc, %c[%i, %c0] : memref<8x4xf32>, vector<4xf32>
    gpu.return
  }
}"""


@pytest.mark.parametrize("layout", LAYOUTS)
def test_per_thread_matrices_in_a_kernel(layout):
    rng = np.random.default_rng(3)
    a = rng.integers(-8, 9, (8, 6)).astype(np.float32)      # small integers: exact products
    b = rng.integers(-8, 9, (8, 6)).astype(np.float32)
    t, c = np.zeros((8, 6), np.float32), np.zeros((8, 4), np.float32)
    tileir.gpu.launch(KERNEL, "k::f", grid=(1,), block=(8,), args=[a, b, t, c],
                      matrix_layout=layout)
    for i in range(8):
        ma, mb = _matrix(a[i], 2, 3, layout), _matrix(b[i], 3, 2, layout)
        np.testing.assert_array_equal(t[i], _flat(ma.T, layout))
        np.testing.assert_array_equal(c[i], _flat(ma @ mb, layout))


LAUNCH = """
func.func @main(%a: memref<4x4xf64>, %t: memref<4x4xf64>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c4, %v = %c1, %w = %c1) {
    %c0 = arith.constant 0 : index
    %va = vector.load %a[%tx, %c0] : memref<4x4xf64>, vector<4xf64>
    %vt = llvm.intr.matrix.transpose %va {rows = 1 : i32, columns = 4 : i32} : vector<4xf64> into vector<4xf64>
    %vs = llvm.intr.matrix.multiply %va, %vt {lhs_rows = 1 : i32, lhs_columns = 4 : i32, rhs_columns = 1 : i32}
        : (vector<4xf64>, vector<4xf64>) -> vector<1xf64>
    %s = vector.extract %vs[0] : f64 from vector<1xf64>
    %r = vector.broadcast %s : f64 to vector<4xf64>
    vector.store %r, %t[%tx, %c0] : memref<4x4xf64>, vector<4xf64>
    gpu.terminator
  }
  return
}"""


@pytest.mark.parametrize("layout", LAYOUTS)
def test_gpu_launch_body_sees_the_runs_layout(layout):
    # a row vector times its transpose is its squared norm in either layout
    a = np.arange(16, dtype=np.float64).reshape(4, 4)
    t = np.zeros_like(a)
    tileir.gpu.run(LAUNCH, "main", args=[a, t], matrix_layout=layout)
    np.testing.assert_array_equal(t, np.repeat((a * a).sum(axis=1)[:, None], 4, axis=1))


def test_unknown_layout_is_an_argument_error():
    with pytest.raises(ArgumentError, match="matrix_layout 'diagonal'"):
        tileir.gpu.run(UPSTREAM, "main", matrix_layout="diagonal")


@pytest.mark.parametrize("body, message", [
    ("%d = llvm.intr.matrix.transpose %a {rows = 3: i32, columns = 2 : i32} : vector<4xf64> "
     "into vector<4xf64>", "operand (vector<4xf64>) does not hold a 3x2 matrix"),
    ("%d = llvm.intr.matrix.transpose %a {rows = 2: i32, columns = 2 : i32} : vector<4xf64> "
     "into vector<4xf32>", "have different element types"),
    ("%d = llvm.intr.matrix.multiply %a, %a {lhs_rows = 2 : i32, lhs_columns = 2 : i32, "
     "rhs_columns = 2 : i32} : (vector<4xf64>, vector<4xf64>) -> vector<6xf64>",
     "result (vector<6xf64>) does not hold a 2x2 matrix"),
    ("%d = llvm.intr.matrix.multiply %a, %a {lhs_rows = -2 : i32, lhs_columns = -2 : i32, "
     "rhs_columns = 2 : i32} : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>",
     "does not hold a 4294967294x4294967294 matrix"),
])
def test_shapes_llvm_would_reject_are_run_time_errors(body, message):
    src = f"func.func @main(%a: vector<4xf64>) {{\n  {body}\n  return\n}}"
    module = tileir.parse(src)          # valid for MLIR's verifier
    tileir.verify(module)
    with pytest.raises(LaunchError, match="invalid LLVM IR") as err:
        tileir.gpu.run(module, "main", args=[np.zeros(4)])
    assert message in str(err.value)


def test_column_major_load_is_not_run():
    src = """
func.func @main(%s: i64) {
  %p = llvm.mlir.zero : !llvm.ptr
  %l = llvm.intr.matrix.column.major.load %p, <stride=%s> {isVolatile = false, rows = 2 : i32, columns = 2 : i32} : vector<4xf32> from !llvm.ptr stride i64
  return
}"""
    with pytest.raises(LaunchError, match="cannot run"):
        tileir.gpu.run(src, "main", args=[2])
