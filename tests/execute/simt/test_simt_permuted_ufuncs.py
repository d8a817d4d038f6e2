"""Fast paths of the SIMT engine's hot loops, checked bit for bit against the general paths.

* :func:`tileir.execute.simt.batching._run_plan`: a batched loop's ufunc plan run on
  operands permuted into their memory order (``batching.PERMUTE``), against the lane order
  and against the general path (``batching.ENABLED = False``);
* the memoised view geometry, the broadcast check of ``store_computed``, the unchanged
  memref descriptor on entering a box space and the conversion-free ``Aff`` arithmetic.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.simt import batching, memory
from tileir.execute.simt.lanes import Aff, BoxSpace
from tileir.execute.simt.memory import Buffer, MemRef

#: these tests watch the lane engine's own fast paths (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("lane_engine")

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "gpu"


def _awkward(shape, rng) -> np.ndarray:
    """f32 values with -0, +-inf, NaN, subnormals and huge values mixed in."""
    x = rng.standard_normal(shape).astype(np.float32)
    flat = x.reshape(-1)
    picks = rng.choice(flat.size, size=max(1, flat.size // 6), replace=False)
    pool = np.array([-0.0, 0.0, np.inf, -np.inf, np.nan, 1e-42, -1e-40, 1.4e-45, 3e38, -3e38],
                    np.float32)
    flat[picks] = pool[rng.integers(0, pool.size, picks.size)]
    return x


def _matmul(n: int, a: np.ndarray, b: np.ndarray):
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))
    c = np.zeros((n, n), np.float32)
    gpu.launch(prog, "kernels::matmul", grid=(n // 16, n // 16), block=(16, 16),
               args=[a, b, c, n])
    return c.view(np.uint32).copy()


def _three_ways(monkeypatch, run):
    """``run()`` on the general path, batched in lane order, batched permuted; and how many
    ufunc plans ran permuted in the last."""
    monkeypatch.setattr(batching, "ENABLED", False)
    general = run()
    monkeypatch.setattr(batching, "ENABLED", True)
    monkeypatch.setattr(batching, "PERMUTE", False)
    lane_order = run()
    monkeypatch.setattr(batching, "PERMUTE", True)
    before = batching.STATS["permuted"]
    permuted = run()
    return general, lane_order, permuted, batching.STATS["permuted"] - before


@pytest.mark.parametrize("n", [32, 128])
def test_tiled_matmul_permuted_bits(monkeypatch, n):
    rng = np.random.default_rng(n)
    a, b = _awkward((n, n), rng), _awkward((n, n), rng)
    general, lane_order, permuted, used = _three_ways(monkeypatch, lambda: _matmul(n, a, b))
    assert used == n // 16              # every inner k loop ran permuted
    assert np.array_equal(general, lane_order)
    assert np.array_equal(general, permuted)


def test_tiled_matmul_permuted_stepped_and_chunked(monkeypatch):
    """Iteration by iteration (few lanes suffice) and in chunks: still the same bits."""
    monkeypatch.setattr(batching, "STEP_LANES", 1)
    monkeypatch.setattr(batching, "MAX_BATCH_ELEMENTS", 4 * 1024 * 5)
    n = 64
    rng = np.random.default_rng(7)
    a, b = _awkward((n, n), rng), _awkward((n, n), rng)
    general, lane_order, permuted, used = _three_ways(monkeypatch, lambda: _matmul(n, a, b))
    assert used > n // 16               # several chunks per loop
    assert np.array_equal(general, lane_order) and np.array_equal(general, permuted)


def test_signed_zeros_and_nan_survive_the_permuted_plan(monkeypatch):
    n = 32
    a = np.full((n, n), -0.0, np.float32)
    b = np.ones((n, n), np.float32)
    a[3, 5] = np.nan
    b[7, 2] = -np.inf
    a[9, :] = 1e-45                      # subnormal products that round to zero
    b[:, 11] = 0.5
    general, lane_order, permuted, used = _three_ways(monkeypatch, lambda: _matmul(n, a, b))
    assert used
    assert np.array_equal(general, permuted) and np.array_equal(general, lane_order)


DOT = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%A: memref<?x?xf32>, %x: memref<?xf32>, %y: memref<?xf32>, %m: index)
        workgroup(%S: memref<16x8xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %r0 = arith.muli %bx, %c16 : index
      %row = arith.addi %r0, %tx : index
      scf.for %j = %c0 to %m step %c1 {
        %v = memref.load %A[%row, %j] : memref<?x?xf32>
        memref.store %v, %S[%tx, %j] : memref<16x8xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %init = arith.constant -0.0 : f32
      %acc:2 = scf.for %k = %c0 to %m step %c1 iter_args(%s = %init, %t = %init)
          -> (f32, f32) {
        %a = memref.load %S[%tx, %k] : memref<16x8xf32, #gpu.address_space<workgroup>>
        %b = memref.load %x[%k] : memref<?xf32>
        %p = arith.mulf %a, %b : f32
        %q = arith.addf %s, %p : f32
        %d = arith.divf %a, %b : f32
        %e = OP %t, %d : f32
        scf.yield %q, %e : f32, f32
      }
      %w = arith.subf %acc#0, %acc#1 : f32
      memref.store %w, %y[%row] : memref<?xf32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("op,permutes", [("arith.subf", True), ("arith.maximumf", False)])
def test_two_carried_values_through_workgroup_memory(monkeypatch, op, permutes):
    """Two accumulators over a workgroup tile read by a batched loop (interleaved: the block
    axis is the operands' densest); maximumf is no order-free ufunc: lane order there."""
    prog = gpu.Program(tileir.parse(DOT.replace("OP", op)))
    rng = np.random.default_rng(3)
    rows, m = 16 * 64, 8
    A = _awkward((rows, m), rng)
    x = _awkward((m,), rng)

    def run():
        y = np.zeros(rows, np.float32)
        gpu.launch(prog, "kernels::k", grid=(rows // 16,), block=(16,), args=[A, x, y, m])
        return y.view(np.uint32).copy()
    monkeypatch.setattr(batching, "STEP_LANES", 1)
    general, lane_order, permuted, used = _three_ways(monkeypatch, run)
    assert bool(used) == permutes
    assert np.array_equal(general, lane_order) and np.array_equal(general, permuted)


def test_out_of_bounds_report_is_unchanged(monkeypatch):
    """A loop that reads past its memref: the same error with every path."""
    n = 32
    rng = np.random.default_rng(1)
    a, b = _awkward((n, n), rng), _awkward((n, n), rng)
    prog = gpu.Program(tileir.parse((EXAMPLES / "tiled_matmul.mlir").read_text()))

    def run():
        c = np.zeros((n, n), np.float32)
        try:
            gpu.launch(prog, "kernels::matmul", grid=(n // 16 + 1, n // 16), block=(16, 16),
                       args=[a, b, c, n])
        except tileir.LaunchError as e:
            return str(e)
        return None
    general, lane_order, permuted, _ = _three_ways(monkeypatch, run)
    assert general is not None and "out of bounds" in general
    assert general == lane_order == permuted


# -- smaller pieces ------------------------------------------------------------------------------

def test_view_geometry_matches_a_fresh_view():
    data = np.arange(4096, dtype=np.float32)
    space = BoxSpace((0, 0, 1, 0, 2, 3), (1, 2, 3, 1, 4, 5))
    for coef, const in [((0, 0, 512, 0, 16, 1), 7), ((0, 0, 0, 0, 0, 2), 0),
                        ((0, 0, 100, 0, -20, 1), 300)]:
        addr = Aff(const, coef, np.int64)
        for _ in range(2):              # (the second time from the memoised geometry)
            view = memory._view(space, data, addr)
            want = space.array(addr)
            assert np.array_equal(np.broadcast_to(view, space.shape),
                                  np.broadcast_to(data[want], space.shape))


@pytest.mark.parametrize("shape,target", [
    ((1, 1, 4, 1, 1, 8), (1, 1, 4, 1, 1, 8)), ((1, 1, 1, 1, 1, 8), (1, 1, 4, 1, 1, 8)),
    ((4, 1, 1, 8), (1, 1, 4, 1, 1, 8)), ((), (1, 1, 4, 1, 1, 8)), ((1, 1, 4, 1, 2, 8),
     (1, 1, 4, 1, 1, 8)), ((1, 1, 3, 1, 1, 8), (1, 1, 4, 1, 1, 8)),
    ((1, 1, 1, 1, 1, 1, 1), (1, 1, 4, 1, 1, 8)), ((1, 0, 1), (1, 0, 1)), ((1,), (1, 0, 1))])
def test_fits_into_agrees_with_numpy(shape, target):
    try:
        want = np.broadcast_shapes(target, shape) == target
    except ValueError:
        want = False
    assert memory._fits_into(shape, target) == want


def test_memref_entering_a_box_keeps_its_descriptor():
    buf = Buffer(np.zeros(64, np.float32))
    ref = MemRef(buf, Aff(0, (0, 0, 16, 0, 0, 0), np.dtype(np.int64)), [4, 4], [4, 1])
    root = BoxSpace((0,) * 6, (1, 1, 4, 1, 1, 4))
    child = root.child((0, 0, 0, 0, 0, 0), (1, 1, 2, 1, 1, 4))
    assert child.enter(ref) is ref
    lane = MemRef(buf, np.arange(4).reshape(1, 1, 4, 1, 1, 1), [4, 4], [4, 1])
    moved = child.enter(lane)
    assert moved is not lane and moved.offset.shape == (1, 1, 2, 1, 1, 1)


def test_aff_arithmetic_keeps_field_types():
    i64 = np.dtype(np.int64)
    a = Aff(3, (0, 0, 1, 0, 0, 2), i64)
    b = Aff(-1, (0, 0, 0, 0, 4, 0), i64)
    for r in (a.plus(b), a.plus(5), a.plus(np.int64(5)), a.times(3), a.times(np.int32(-2)),
              a.cast(np.int32), a.cast(np.dtype(np.int32)), a.cast(i64)):
        assert type(r.const) is int and type(r.coef) is tuple
        assert all(type(c) is int for c in r.coef) and isinstance(r.dtype, np.dtype)
    assert a.plus(b).coef == (0, 0, 1, 0, 4, 2) and a.plus(b).const == 2
    assert a.times(-2).coef == (0, 0, -2, 0, 0, -4) and a.cast(np.int32).dtype == np.int32
