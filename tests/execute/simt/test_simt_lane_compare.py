"""Fast paths of the SIMT engine checked bit for bit against the general ones.

* :mod:`tileir.execute.simt.lane_compare`: ``arith.cmpi`` feeding ``scf.if`` narrows the lane
  box from the operands' ranges instead of a mask (``lane_compare.ENABLED``);
* :func:`tileir.execute.simt.memory.store_computed` runs short rows block-axis first
  (``memory.SHORT_ROW``);
* :mod:`tileir.execute.simt.scratch`: attribution arrays recycled between launches, zero-filled
  lazily (``scratch.ENABLED``).

Every kernel runs with each switch on and off and must give identical bits and identical
diagnostics (out-of-bounds, races, partial barriers).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import LaunchError
from tileir.execute.simt import lane_compare, memory, scratch
from tileir.execute.simt.lane_compare import split_box
from tileir.execute.simt.lanes import Aff, BoxSpace
from tileir.execute.simt.ops.intsem import Int

from block_reduce_kernel import ATTRS, PARAMS, WG, block_reduce_body, tree_sums


SWITCHES = [(lane_compare, "ENABLED", False), (memory, "SHORT_ROW", 0),
            (scratch, "ENABLED", False)]


def module(body: str, params: str, attrs: str = "") -> str:
    return (f"module attributes {{gpu.container_module}} {{\n  gpu.module @m {{\n"
            f"    gpu.func @k({params}) {attrs} kernel {{\n{body}\n      gpu.return\n    }}\n"
            f"  }}\n}}\n")


def run_both(monkeypatch, text: str, grid, block, make_args, **kw):
    """Run a kernel with the fast paths on and with all of them off; returns both results
    (the args after the launch, or the error's type and message)."""
    results = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                for mod, name, off in SWITCHES:
                    m.setattr(mod, name, off)
            args = make_args()
            try:
                gpu.launch(tileir.parse(text), "m::k", grid=grid, block=block, args=args, **kw)
                results.append([np.asarray(a).copy() for a in args
                                if isinstance(a, np.ndarray)])
            except LaunchError as e:
                results.append((type(e), str(e)))
    return results


def assert_same(results) -> None:
    fast, slow = results
    if isinstance(slow, tuple):
        assert fast == slow
        return
    assert not isinstance(fast, tuple), fast
    for a, b in zip(fast, slow):
        assert a.dtype == b.dtype and a.shape == b.shape
        assert a.tobytes() == b.tobytes()


# -- split_box against the mask ---------------------------------------------------------------

def _lanes(space, parent) -> set:
    if space is None:
        return set()
    if space is parent:
        space = BoxSpace(parent.lo, parent.shape)
    ranges = [range(l0, l0 + n) for l0, n in zip(space.lo, space.shape)]
    return set(itertools.product(*ranges))


@pytest.mark.parametrize("pred", ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt",
                                  "uge"])
def test_split_box_matches_mask(pred):
    sem = Int(64, "index")
    root = BoxSpace((0,) * 6, (1, 2, 3, 1, 1, 16))
    sub = root.child((0, 1, 0, 0, 0, 3), (1, 1, 3, 1, 1, 9))
    for space, (const, coef), k, swap in itertools.product(
            (root, sub),
            ((0, (0, 0, 0, 0, 0, 1)), (5, (0, 0, 0, 0, 0, -1)), (-3, (0, 0, 0, 0, 0, 2)),
             (1, (0, 0, 4, 0, 0, 0)), (7, (0, 0, 0, 0, 0, 0)), (2, (0, 3, 0, 0, 0, -3))),
            (-5, -1, 0, 1, 2, 4, 7, 8, 15, 16, 40), (False, True)):
        aff = Aff(const, coef, np.int64)
        kv = np.asarray(k, dtype=np.int64).reshape((1,) * 6)
        a, b = (kv, aff) if swap else (aff, kv)
        split = split_box(pred, a, b, space)
        if split is None:
            continue
        x = aff.materialize(space)
        mask = np.broadcast_to(sem.compare(pred, *((kv, x) if swap else (x, kv))),
                               space.shape)
        want_t = {tuple(l0 + i for l0, i in zip(space.lo, idx))
                  for idx in zip(*np.nonzero(mask))}
        want_f = _lanes(space, space) - want_t
        then, other = split
        assert _lanes(then, space) == want_t, (pred, const, coef, k, swap)
        if other is not False:
            assert _lanes(other, space) == want_f, (pred, const, coef, k, swap)
        for part in (then, other):
            if isinstance(part, BoxSpace) and part is not space:
                assert part.parent is space


def test_split_box_declines():
    space = BoxSpace((0,) * 6, (1, 1, 2, 1, 1, 8))
    k = np.asarray(3).reshape((1,) * 6)
    two_axes = Aff(0, (0, 0, 8, 0, 0, 1), np.int64)
    assert split_box("slt", two_axes, k, space) is None
    neg = Aff(-4, (0, 0, 0, 0, 0, 1), np.int64)         # unsigned reading of negatives
    assert split_box("ult", neg, k, space) is None
    assert split_box("ne", Aff(0, (0, 0, 0, 0, 0, 1), np.int64), k, space) is None
    inner = split_box("eq", Aff(0, (0, 0, 0, 0, 0, 1), np.int64), k, space)
    assert inner[1] is False and inner[0].lo[5] == 3 and inner[0].shape[5] == 1


# -- kernels, fast paths on and off -----------------------------------------------------------



@pytest.mark.parametrize("blocks, max_lanes", [(1, None), (5, None), (300, None),
                                               (37, 256 * 5)])
def test_block_reduction_bits(monkeypatch, blocks, max_lanes):
    text = module(block_reduce_body(), PARAMS, ATTRS)
    x = np.random.default_rng(blocks).standard_normal(blocks * 256).astype(np.float32)
    kw = {"max_lanes": max_lanes} if max_lanes else {}
    res = run_both(monkeypatch, text, (blocks,), (256,),
                   lambda: [x.copy(), np.zeros(blocks, np.float32)], **kw)
    assert_same(res)
    assert res[0][1].tobytes() == tree_sums(x).tobytes()     # the tree's own order


def test_race_reported_the_same(monkeypatch):
    text = module(block_reduce_body(""), PARAMS, ATTRS)
    x = np.arange(512, dtype=np.float32)
    res = run_both(monkeypatch, text, (2,), (256,),
                   lambda: [x.copy(), np.zeros(2, np.float32)], racecheck=True)
    assert isinstance(res[1], tuple) and "data race" in res[1][1]
    assert_same(res)


def test_out_of_bounds_reported_the_same(monkeypatch):
    # threads tid < s + 1 read sh[tid + s]: thread 128 of the first step reads element 256
    text = module(block_reduce_body().replace(
        "%active = arith.cmpi ult, %tid, %s : index",
        "%s1 = arith.addi %s, %c1 : index\n        %active = arith.cmpi ult, %tid, %s1 : index"),
        PARAMS, ATTRS)
    x = np.arange(512, dtype=np.float32)
    res = run_both(monkeypatch, text, (2,), (256,),
                   lambda: [x.copy(), np.zeros(2, np.float32)])
    assert isinstance(res[1], tuple) and "out of bounds" in res[1][1] and "thread (128" in \
        res[1][1]
    assert_same(res)


def test_partial_barrier_reported_the_same(monkeypatch):
    body = """
      %tid = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %p = arith.cmpi slt, %tid, %c3 : index
      scf.if %p {
        gpu.barrier
      }"""
    res = run_both(monkeypatch, module(body, "%o: memref<?xf32>"), (2,), (8,),
                   lambda: [np.zeros(1, np.float32)])
    assert isinstance(res[1], tuple) and "barrier reached by 3 of the 8" in res[1][1]
    assert_same(res)


DIVERGENT = """
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bid = gpu.block_id x
      %bdx = gpu.block_dim x
      %bdy = gpu.block_dim y
      %row = arith.muli %ty, %bdx : index
      %lin = arith.addi %row, %tx : index
      %per = arith.muli %bdx, %bdy : index
      %boff = arith.muli %bid, %per : index
      %g = arith.addi %boff, %lin : index
      %k = memref.load %kk[%c0] : memref<?xindex>
      %ki = arith.index_cast %k : index to i32
      %txi = arith.index_cast %tx : index to i32
      %f = arith.index_cast %g : index to i32
      %ff = arith.sitofp %f : i32 to f32
      %c1f = arith.constant 1.5 : f32
      %c2f = arith.constant -2.25 : f32
      %r = scf.if %PRED -> (f32) {
        %a = arith.mulf %ff, %c1f : f32
        %inner = arith.cmpi sgt, %ty, %c0 : index
        %b = scf.if %inner -> (f32) {
          %t = arith.addf %a, %c2f : f32
          scf.yield %t : f32
        } else {
          scf.yield %a : f32
        }
        scf.yield %b : f32
      } else {
        %e = arith.subf %ff, %c2f : f32
        scf.yield %e : f32
      }
      memref.store %r, %out[%g] : memref<?xf32>"""

PREDS = ["arith.cmpi ult, %tx, %k : index", "arith.cmpi sge, %tx, %k : index",
         "arith.cmpi eq, %tx, %k : index", "arith.cmpi ne, %tx, %k : index",
         "arith.cmpi slt, %k, %tx : index", "arith.cmpi ule, %bid, %k : index",
         "arith.cmpi sgt, %lin, %k : index", "arith.cmpi slt, %txi, %ki : i32",
         "arith.cmpi ugt, %g, %k : index"]


@pytest.mark.parametrize("pred", PREDS)
@pytest.mark.parametrize("k", [-3, 0, 2, 5, 7, 100])
def test_divergent_if_bits(monkeypatch, pred, k):
    body = "      %c0 = arith.constant 0 : index\n" + DIVERGENT.replace(
        "%PRED", "%p").replace("      %r = scf.if", f"      %p = {pred}\n      %r = scf.if")
    text = module(body, "%kk: memref<?xindex>, %out: memref<?xf32>")
    res = run_both(monkeypatch, text, (3,), (7, 2),
                   lambda: [np.asarray([k], np.int64), np.full(42, np.nan, np.float32)])
    assert_same(res)
    assert not np.isnan(res[0][1]).any()


# -- lazily zeroed, recycled workgroup memory -----------------------------------------------------

FILL = f"""
      %tid = gpu.thread_id x
      %v = memref.load %in[%tid] : memref<?xf32>
      memref.store %v, %sh[%tid] : memref<64xf32, {WG}>"""

READ = f"""
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %p = arith.cmpi ult, %tid, %c32 : index
      scf.if %p {{
        %one = arith.constant 1.0 : f32
        memref.store %one, %sh[%tid] : memref<64xf32, {WG}>
      }}
      gpu.barrier
      %v = memref.load %sh[%tid] : memref<64xf32, {WG}>
      %b = gpu.block_id x
      %c64 = arith.constant 64 : index
      %o = arith.muli %b, %c64 : index
      %i = arith.addi %o, %tid : index
      memref.store %v, %in[%i] : memref<?xf32>"""


@pytest.mark.parametrize("enabled", [True, False])
def test_recycled_workgroup_memory_reads_zero(monkeypatch, enabled):
    monkeypatch.setattr(scratch, "ENABLED", enabled)
    attrs = f"workgroup(%sh: memref<64xf32, {WG}>)"
    fill = tileir.parse(module(FILL, "%in: memref<?xf32>", attrs))
    read = tileir.parse(module(READ, "%in: memref<?xf32>", attrs))
    for _ in range(3):
        gpu.launch(fill, "m::k", grid=(4,), block=(64,),
                   args=[np.full(64, 7.0, np.float32)])
        out = np.full(4 * 64, np.nan, np.float32)
        gpu.launch(read, "m::k", grid=(4,), block=(64,), args=[out])
        want = np.tile(np.r_[np.ones(32), np.zeros(32)].astype(np.float32), 4)
        assert out.tobytes() == want.tobytes()


def test_covers_all():
    space = BoxSpace((0,) * 6, (1, 1, 4, 1, 1, 8))
    sub = space.child((0, 0, 0, 0, 0, 0), (1, 1, 4, 1, 1, 4))
    assert memory.covers_all(space, Aff(0, (0, 0, 8, 0, 0, 1), np.int64), 32)
    assert memory.covers_all(space, Aff(7, (0, 0, 8, 0, 0, -1), np.int64), 32)
    assert memory.covers_all(space, Aff(0, (0, 0, 1, 0, 0, 4), np.int64), 32)
    assert not memory.covers_all(space, Aff(1, (0, 0, 8, 0, 0, 1), np.int64), 32)
    assert not memory.covers_all(space, Aff(0, (0, 0, 8, 0, 0, 1), np.int64), 33)
    assert not memory.covers_all(sub, Aff(0, (0, 0, 8, 0, 0, 1), np.int64), 32)
    assert not memory.covers_all(space, Aff(0, (0, 0, 16, 0, 0, 2), np.int64), 64)


# -- short rows, block axis first -----------------------------------------------------------------

@pytest.mark.parametrize("s", [1, 2, 3, 4, 5, 8])
def test_short_rows_same_bits(monkeypatch, s):
    rng = np.random.default_rng(s)
    blocks = 100
    data0 = rng.standard_normal(blocks * 16).astype(np.float32)
    space = BoxSpace((0,) * 6, (1, 1, blocks, 1, 1, s))
    got = []
    for short in (memory.SHORT_ROW, 0):
        monkeypatch.setattr(memory, "SHORT_ROW", short)
        buf = memory.Buffer(data0.copy(), "workgroup", "sh")
        a = memory.load(space, buf, Aff(0, (0, 0, 16, 0, 0, 1), np.int64), readonly=True)
        b = memory.load(space, buf, Aff(1, (0, 0, 16, 0, 0, 1), np.int64), readonly=True)
        assert memory.store_computed(space, buf, Aff(0, (0, 0, 16, 0, 0, 1), np.int64),
                                     np.add, [a, b], np.dtype(np.float32))
        got.append(buf.data.tobytes())
    assert got[0] == got[1]
    want = data0.reshape(blocks, 16).copy()
    want[:, :s] = data0.reshape(blocks, 16)[:, :s] + data0.reshape(blocks, 16)[:, 1:s + 1]
    assert got[0] == want.tobytes()
