"""Batched loops (:mod:`tileir.execute.simt.batching`): a uniform ``scf.for`` whose body only
reads memory runs with its iterations as an array axis.  Every result must be bit-identical to
the general path (``batching.ENABLED = False``), faults must be reported the same way, and the
transformation must step aside whenever its preconditions fail."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.simt import batching

#: these tests watch the lane engine's own fast paths (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("lane_engine")

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "gpu"


def _special(shape, rng) -> np.ndarray:
    """f32 values with the awkward cases mixed in: -0, +-inf, NaN, subnormals, huge."""
    x = rng.standard_normal(shape).astype(np.float32)
    flat = x.reshape(-1)
    picks = rng.choice(flat.size, size=max(1, flat.size // 8), replace=False)
    pool = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1e-42, -1e-40, 3e38, -3e38, 1e-20],
                    np.float32)
    flat[picks] = pool[rng.integers(0, pool.size, picks.size)]
    return x


def _both(run):
    """``run()`` with batching off, then on: ``(general, batched, loops batched)``."""
    old = batching.ENABLED
    try:
        batching.ENABLED = False
        general = run()
        batching.ENABLED = True
        before = batching.STATS["batched"]
        fast = run()
        return general, fast, batching.STATS["batched"] - before
    finally:
        batching.ENABLED = old


def _bits(arrays):
    return [np.asarray(a).view(np.uint8).tobytes() for a in arrays]


def _launch_outcome(prog, kernel, grid, block, args):
    """The output arrays of a launch (copies), or the error's text."""
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        gpu.launch(prog, kernel, grid=grid, block=block, args=args)
    except tileir.LaunchError as e:
        return ("error", type(e).__name__, str(e))
    return _bits([a for a in args if isinstance(a, np.ndarray)])


# -- the benchmark's tiled matmul -------------------------------------------------------------------

@pytest.mark.parametrize("n", [32, 64])
def test_tiled_matmul_bits(n):
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))
    rng = np.random.default_rng(n)
    a, b = _special((n, n), rng), _special((n, n), rng)
    c = np.zeros((n, n), np.float32)
    general, fast, used = _both(lambda: _launch_outcome(
        prog, "kernels::matmul", (n // 16, n // 16), (16, 16), [a, b, c, n]))
    assert used == n // 16          # the inner k loop of every outer step ran batched
    assert general == fast


def test_tiled_matmul_negative_zero_accumulation():
    """-0 products into a +0 accumulator, and all -0 inputs: signs of zero survive."""
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))
    n = 32
    a = np.full((n, n), -0.0, np.float32)
    b = np.ones((n, n), np.float32)
    c = np.zeros((n, n), np.float32)
    general, fast, used = _both(lambda: _launch_outcome(
        prog, "kernels::matmul", (2, 2), (16, 16), [a, b, c, n]))
    assert used and general == fast


def test_chunks_match(monkeypatch):
    """Loops longer than one batch run chunk after chunk: still the same bits."""
    monkeypatch.setattr(batching, "MAX_BATCH_ELEMENTS", 4 * 256 * 4)
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))
    rng = np.random.default_rng(5)
    n = 64
    a, b = _special((n, n), rng), _special((n, n), rng)
    c = np.zeros((n, n), np.float32)
    general, fast, used = _both(lambda: _launch_outcome(
        prog, "kernels::matmul", (4, 4), (16, 16), [a, b, c, n]))
    assert used and general == fast


# -- variations ------------------------------------------------------------------------------------

DOT = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dot(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %z: memref<?xf32>,
                  %n: index, %m: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %r0 = arith.muli %bid, %bdim : index
      %row = arith.addi %r0, %tid : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %init = arith.constant -0.0 : f32
      %ok = arith.cmpi GUARD : index
      scf.if %ok {
        %acc:3 = scf.for %k = LB to UB step %c1 iter_args(%s = %init, %t = %init, %l = %init)
            -> (f32, f32, f32) {
          %a = memref.load %A[%row, %k] : memref<?x?xf32>
          %b = memref.load %x[%k] : memref<?xf32>
          %p = arith.mulf %a, %b : f32
          %q = arith.addf %s, %p : f32
          %d = arith.subf %a, %b : f32
          %e = OTHER %t, %d : f32
          BODY
          scf.yield %q, %e, %a : f32, f32, f32
        }
        memref.store %acc#0, %y[%row] : memref<?xf32>
        %w = arith.addf %acc#1, %acc#2 : f32
        memref.store %w, %z[%row] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""


def _dot(guard="ult, %tid, %n", lb="%c0", ub="%m", other="arith.addf", body="", rows=96,
         cols=40, m=None, block=32, seed=0, n=None):
    text = DOT.replace("GUARD", guard).replace("LB", lb).replace("UB", ub) \
        .replace("OTHER", other).replace("BODY", body)
    prog = gpu.Program(tileir.parse(text))
    rng = np.random.default_rng(seed)
    A = _special((rows, cols), rng)
    x = _special((cols,), rng)
    y = np.zeros(rows, np.float32)
    z = np.zeros(rows, np.float32)
    args = [A, x, y, z, block - 5 if n is None else n, cols if m is None else m]
    grid = (-(-rows // block),)
    return _both(lambda: _launch_outcome(prog, "kernels::dot", grid, (block,), args))


def test_dot_three_carried_values_and_a_yielded_load():
    general, fast, used = _dot()
    assert used == 1 and general == fast


def test_ops_without_the_ufunc_fast_path():
    """maximumf (signed-zero aware, not a plain ufunc) runs through its step."""
    general, fast, used = _dot(other="arith.maximumf")
    assert used == 1 and general == fast


def test_many_lanes_run_float_ops_iteration_by_iteration():
    general, fast, used = _dot(rows=1 << 15, block=256, cols=8)
    assert used == 1 and general == fast


def test_box_guard_and_non_box_guard():
    # tid < n narrows every block to a box (batched there); row < n and row != 1 leave
    # lanes that are no box (the general path)
    general, fast, used = _dot(guard="ult, %tid, %n")
    assert used == 1 and general == fast
    general, fast, used = _dot(guard="ult, %row, %n", n=37)
    assert used == 0 and general == fast
    general, fast, used = _dot(guard="ne, %row, %c1")
    assert used == 0 and general == fast


def test_per_thread_bounds_take_the_general_path():
    general, fast, used = _dot(ub="%row")
    assert used == 0 and general == fast
    general, fast, used = _dot(lb="%tid", ub="%m")
    assert used == 0 and general == fast


def test_store_in_the_loop_is_not_batched():
    body = "memref.store %q, %y[%row] : memref<?xf32>"
    general, fast, used = _dot(body=body)
    assert used == 0 and general == fast


def test_out_of_bounds_inside_the_loop_reports_the_same_error():
    general, fast, used = _dot(m=41)       # the last iteration reads A[row, 40], x[40]
    assert general[0] == "error" and general == fast
    assert "out of bounds" in general[2] and "thread" in general[2]
    assert used == 0


def test_racecheck_takes_the_general_path():
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))
    n = 32
    rng = np.random.default_rng(1)
    a, b = _special((n, n), rng), _special((n, n), rng)
    outs = []
    for enabled in (False, True):
        batching.ENABLED = enabled
        try:
            before = batching.STATS["batched"]
            c = np.zeros((n, n), np.float32)
            gpu.launch(prog, "kernels::matmul", grid=(2, 2), block=(16, 16), args=[a, b, c, n],
                       racecheck=True)
            assert batching.STATS["batched"] == before
            outs.append(c.view(np.uint32).copy())
        finally:
            batching.ENABLED = True
    assert np.array_equal(outs[0], outs[1])


def test_index_arithmetic_on_the_induction_variable():
    """Addresses built from the induction variable (k * 2 + 1, 39 - k): strided and reversed
    batched views."""
    body = ""
    text = DOT.replace("GUARD", "ult, %tid, %n").replace("LB", "%c0").replace("UB", "%m") \
        .replace("OTHER", "arith.addf").replace("BODY", body)
    text = text.replace("%a = memref.load %A[%row, %k]", "%k2 = arith.muli %k, %c2 : index\n"
                        "          %k3 = arith.addi %k2, %c1 : index\n"
                        "          %a = memref.load %A[%row, %k3]")
    text = text.replace("%b = memref.load %x[%k]", "%kr = arith.subi %c39, %k : index\n"
                        "          %b = memref.load %x[%kr]")
    text = text.replace("%c1 = arith.constant 1 : index", "%c1 = arith.constant 1 : index\n"
                        "      %c2 = arith.constant 2 : index\n"
                        "      %c39 = arith.constant 39 : index")
    prog = gpu.Program(tileir.parse(text))
    rng = np.random.default_rng(3)
    A = _special((64, 40), rng)
    x = _special((40,), rng)
    y, z = np.zeros(64, np.float32), np.zeros(64, np.float32)
    general, fast, used = _both(lambda: _launch_outcome(
        prog, "kernels::dot", (2,), (32,), [A, x, y, z, 27, 20]))
    assert used == 1 and general == fast
    # one more iteration reads A[row, 41]: out of bounds, reported as on the general path
    general, fast, used = _both(lambda: _launch_outcome(
        prog, "kernels::dot", (2,), (32,), [A, x, y, z, 27, 21]))
    assert general[0] == "error" and general == fast and used == 0


def test_disabled_switch_is_respected():
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))
    a = np.ones((16, 16), np.float32)
    c = np.zeros((16, 16), np.float32)
    batching.ENABLED = False
    try:
        before = batching.STATS["batched"]
        gpu.launch(prog, "kernels::matmul", grid=(1, 1), block=(16, 16), args=[a, a, c, 16])
        assert batching.STATS["batched"] == before
        assert (c == 16).all()
    finally:
        batching.ENABLED = True


@pytest.mark.parametrize("op", ["arith.maximumf", "arith.minimumf", "arith.maxnumf",
                                "arith.minnumf", "arith.addf"])
def test_float_op_stored_right_away(op):
    """An elementwise result stored by the next op is computed into memory only for plain
    ufuncs (the signed-zero-aware extrema take no ``out=``; they used to raise TypeError)."""
    text = f"""
module attributes {{gpu.container_module}} {{
  gpu.module @kernels {{
    gpu.func @k(%a: memref<?xf32>, %b: memref<?xf32>) kernel {{
      %tid = gpu.thread_id x
      %x = memref.load %a[%tid] : memref<?xf32>
      %n = arith.negf %x : f32
      %y = {op} %x, %n : f32
      memref.store %y, %b[%tid] : memref<?xf32>
      gpu.return
    }}
  }}
}}"""
    a = np.array([1.0, -2.0, 0.0, -0.0, np.nan, np.inf, 3.5, -1e-42], np.float32)
    b = np.zeros_like(a)
    gpu.launch(text, "kernels::k", grid=(1,), block=(8,), args=[a, b])
    with np.errstate(invalid="ignore"):
        ref = {"arith.maximumf": np.maximum, "arith.minimumf": np.minimum,
               "arith.maxnumf": np.fmax, "arith.minnumf": np.fmin, "arith.addf": np.add}[op](a, -a)
    zero = (a == 0)
    if op in ("arith.maximumf", "arith.maxnumf"):
        ref[zero] = 0.0
    elif op in ("arith.minimumf", "arith.minnumf"):
        ref[zero] = -0.0
    assert np.array_equal(b, ref, equal_nan=True)     # (NaN payloads are NumPy's)
    assert np.array_equal(np.signbit(b[~np.isnan(b)]), np.signbit(ref[~np.isnan(ref)]))
