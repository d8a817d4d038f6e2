"""Physical layouts of per-block (workgroup) and per-thread (private) memory.

The engine may store the copies of such a buffer interleaved (:mod:`tileir.execute.simt.layout`):
copy ``b``'s element ``e`` at ``e * copies + b`` instead of ``b * size + e``.  Every kernel here
runs under both layouts (``layout`` fixture; private memory is interleaved by default, workgroup
memory only on request) and is checked against an independent NumPy computation; descriptors,
race reports and out-of-bounds diagnostics must keep naming logical elements.
"""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import MemoryAccessError
from tileir.execute.simt.kernel import KernelExecutor
from tileir.execute.simt.lanes import Aff, BoxSpace
from tileir.execute.simt.layout import Interleaved, interleavable, physical

from block_reduce_kernel import ATTRS, PARAMS, WG, block_reduce_body, tree_sums

#: these tests watch the lane engine's own fast paths (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("lane_engine")


def module(body: str, params: str, attrs: str = "") -> str:
    return (f"module attributes {{gpu.container_module}} {{\n  gpu.module @m {{\n"
            f"    gpu.func @k({params}) {attrs} kernel {{\n{body}\n      gpu.return\n    }}\n"
            f"  }}\n}}\n")


class Allocations(list):
    """The buffers a test's launches allocated, and whether interleaving was on."""
    interleaved = False


@pytest.fixture(params=["plain", "interleaved"])
def layout(request, monkeypatch) -> Allocations:
    """Run under one layout; returns the buffers the launches allocate (to check which layout
    they got)."""
    on = request.param == "interleaved"
    monkeypatch.setattr(KernelExecutor, "interleave", {"private": on, "workgroup": on})
    buffers = Allocations()
    allocate = KernelExecutor.allocate

    def spy(self, *args, **kw):
        ref = allocate(self, *args, **kw)
        buffers.append(ref.buffer)
        return ref
    monkeypatch.setattr(KernelExecutor, "allocate", spy)
    buffers.interleaved = on
    return buffers


def launch(body, params, grid, block, args, attrs="", **kw):
    gpu.launch(tileir.parse(module(body, params, attrs)), "m::k", grid=grid, block=block,
               args=args, **kw)


def check_layout(buffers, interleaved: bool) -> None:
    """Every buffer with more than one copy got the expected layout."""
    multi = [b for b in buffers if b.size > b.copy_size]
    assert multi
    assert all((b.layout is not None) == interleaved for b in multi)


# -- the translation ------------------------------------------------------------------------------

def test_affine_translation_matches_elementwise():
    rng = np.random.default_rng(0)
    n, blocks = 12, (2, 3, 4)           # chunk of 2 x 3 x 4 blocks of 5 x 2 threads
    space = BoxSpace((0,) * 6, blocks + (1, 2, 5))
    copy = Aff(0, (12, 4, 1, 0, 0, 0), np.int64)
    lay = Interleaved(n, 24, copy)
    for _ in range(50):
        e = Aff(int(rng.integers(0, 2)), (0, 0, 0, 0, int(rng.integers(0, 3)),
                                          int(rng.integers(0, 2))), np.int64)
        addr = copy.times(n).plus(e)
        phys = physical(space, lay, addr)
        want = lay.elementwise(space.array(addr))
        assert isinstance(phys, Aff)
        np.testing.assert_array_equal(np.broadcast_to(space.array(phys), space.shape),
                                      np.broadcast_to(want, space.shape))
    # an index that depends on the block, or leaves the copy: element by element
    assert physical(space, lay, copy.times(n + 1)).shape == (2, 3, 4, 1, 1, 1)
    assert not isinstance(physical(space, lay, copy.times(n).plus(11).plus(
        Aff(0, (0,) * 5 + (1,), np.int64))), Aff)
    np.testing.assert_array_equal(lay.elementwise(np.arange(n * 24)),
                                  np.arange(n * 24).reshape(24, n).T.reshape(-1).argsort())


def test_use_analysis():
    text = module(f"""
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %v = memref.subview %a[0] [4] [1] : memref<8xf32, {WG}> to memref<4xf32, strided<[1]>, {WG}>
      %x = memref.load %v[%c0] : memref<4xf32, strided<[1]>, {WG}>
      memref.store %x, %a[%tid] : memref<8xf32, {WG}>
      %y = memref.view %b[%c0][] : memref<32xi8, {WG}> to memref<8xf32, {WG}>
      %z = memref.load %y[%c0] : memref<8xf32, {WG}>""", "",
                  f"workgroup(%a: memref<8xf32, {WG}>, %b: memref<32xi8, {WG}>)")
    func = tileir.parse(text).regions[0].blocks[0].ops[0].regions[0].blocks[0].ops[0]
    a, b = func.regions[0].blocks[0].args
    assert interleavable(a)
    assert not interleavable(b)      # reinterpreted as f32: keeps the plain layout


# -- kernels --------------------------------------------------------------------------------------

@pytest.mark.parametrize("blocks, max_lanes", [(1, None), (3, None), (64, None), (4096, None),
                                               (37, 256 * 5), (40, 256 * 7)])
def test_block_reduction(layout, blocks, max_lanes):
    x = np.random.default_rng(blocks).standard_normal(blocks * 256).astype(np.float32)
    out = np.zeros(blocks, np.float32)
    kw = {"max_lanes": max_lanes} if max_lanes else {}
    launch(block_reduce_body(), PARAMS, (blocks,), (256,), [x, out], ATTRS, **kw)
    np.testing.assert_array_equal(out, tree_sums(x))
    if blocks > 1 and not max_lanes:
        check_layout(layout, layout.interleaved)


@pytest.mark.parametrize("max_lanes", [None, 64 * 3])
def test_3d_blocks_and_3d_workgroup_memref(layout, max_lanes):
    # grid (3, 2, 2) of blocks (8, 4, 2): each thread stores into sh[tz, ty, tx], then reads the
    # element mirrored on every axis and the block's corner
    body = f"""
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c7 = arith.constant 7 : index
      %g = gpu.global_id x
      %gy = gpu.global_id y
      %gz = gpu.global_id z
      %v = memref.load %in[%gz, %gy, %g] : memref<4x8x24xi32>
      memref.store %v, %sh[%tz, %ty, %tx] : memref<2x4x8xi32, {WG}>
      gpu.barrier
      %mz = arith.subi %c1, %tz : index
      %my = arith.subi %c3, %ty : index
      %mx = arith.subi %c7, %tx : index
      %m = memref.load %sh[%mz, %my, %mx] : memref<2x4x8xi32, {WG}>
      %k = memref.load %sh[%c1, %c3, %c0] : memref<2x4x8xi32, {WG}>
      %s = arith.addi %m, %k : i32
      memref.store %s, %out[%gz, %gy, %g] : memref<4x8x24xi32>
"""
    x = np.random.default_rng(3).integers(-1000, 1000, (4, 8, 24)).astype(np.int32)
    out = np.zeros_like(x)
    kw = {"max_lanes": max_lanes} if max_lanes else {}
    launch(body, "%in: memref<4x8x24xi32>, %out: memref<4x8x24xi32>", (3, 2, 2), (8, 4, 2),
           [x, out], f"workgroup(%sh: memref<2x4x8xi32, {WG}>)", **kw)
    tiles = x.reshape(2, 2, 2, 4, 3, 8)          # (bz, tz, by, ty, bx, tx)
    mirrored = tiles[:, ::-1, :, ::-1, :, ::-1]
    corner = tiles[:, 1:2, :, 3:4, :, 0:1]
    np.testing.assert_array_equal(out, (mirrored + corner).reshape(4, 8, 24))
    if not max_lanes:
        check_layout(layout, layout.interleaved)


def test_2d_tiles_with_subviews_and_shape_views(layout):
    # each block of 16 x 4 threads: row ty of a 4 x 16 tile through a rank-reducing subview,
    # then read back through collapse_shape / expand_shape views, shifted by one row
    body = f"""
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %row = memref.subview %sh[%ty, 0] [1, 16] [1, 1] : memref<4x16xf32, {WG}> to memref<16xf32, strided<[1], offset: ?>, {WG}>
      %r0 = arith.muli %bx, %c4 : index
      %r = arith.addi %r0, %ty : index
      %v = memref.load %in[%r, %tx] : memref<?x16xf32>
      memref.store %v, %row[%tx] : memref<16xf32, strided<[1], offset: ?>, {WG}>
      gpu.barrier
      %flat = memref.collapse_shape %sh [[0, 1]] : memref<4x16xf32, {WG}> into memref<64xf32, {WG}>
      %t1 = arith.addi %ty, %c1 : index
      %t2 = arith.remui %t1, %c4 : index
      %p0 = arith.muli %t2, %c16 : index
      %p = arith.addi %p0, %tx : index
      %a = memref.load %flat[%p] : memref<64xf32, {WG}>
      %cube = memref.expand_shape %sh [[0], [1, 2]] output_shape [4, 2, 8] : memref<4x16xf32, {WG}> into memref<4x2x8xf32, {WG}>
      %b = memref.load %cube[%ty, %c1, %c0] : memref<4x2x8xf32, {WG}>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%r, %tx] : memref<?x16xf32>
"""
    x = np.random.default_rng(4).standard_normal((20, 16)).astype(np.float32)
    out = np.zeros_like(x)
    launch(body, "%in: memref<?x16xf32>, %out: memref<?x16xf32>", (5,), (16, 4), [x, out],
           f"workgroup(%sh: memref<4x16xf32, {WG}>)")
    tiles = x.reshape(5, 4, 16)
    want = np.roll(tiles, -1, axis=1) + tiles[:, :, 8:9]
    np.testing.assert_array_equal(out, want.reshape(20, 16))
    check_layout(layout, layout.interleaved)


def test_strided_metadata_reports_per_block_offsets(layout):
    # (as on a GPU: every block sees its own copy, offsets count from it)
    body = f"""
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %base, %off, %size, %stride = memref.extract_strided_metadata %sh : memref<8xi32, {WG}> -> memref<i32, {WG}>, index, index, index
      %sv = memref.subview %sh[2] [4] [1] : memref<8xi32, {WG}> to memref<4xi32, strided<[1], offset: 2>, {WG}>
      %b2, %off2, %size2, %stride2 = memref.extract_strided_metadata %sv : memref<4xi32, strided<[1], offset: 2>, {WG}> -> memref<i32, {WG}>, index, index, index
      %o = arith.index_cast %off : index to i32
      %o2 = arith.index_cast %off2 : index to i32
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      memref.store %o, %out[%bid, %c0] : memref<?x2xi32>
      memref.store %o2, %out[%bid, %c1] : memref<?x2xi32>
"""
    out = np.zeros((6, 2), np.int32)
    launch(body, "%out: memref<?x2xi32>", (6,), (4,), [out],
           f"workgroup(%sh: memref<8xi32, {WG}>)")
    np.testing.assert_array_equal(out, np.stack([np.zeros(6), np.full(6, 2)], 1))


def test_dynamic_shared_memory_view_keeps_working(layout):
    body = f"""
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c31 = arith.constant 31 : index
      %c32 = arith.constant 32 : index
      %raw = gpu.dynamic_shared_memory : memref<?xi8, {WG}>
      %sh = memref.view %raw[%c0][] : memref<?xi8, {WG}> to memref<32xf32, {WG}>
      %i0 = arith.muli %bid, %c32 : index
      %i = arith.addi %i0, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      memref.store %x, %sh[%tid] : memref<32xf32, {WG}>
      gpu.barrier
      %r = arith.subi %c31, %tid : index
      %y = memref.load %sh[%r] : memref<32xf32, {WG}>
      %z = memref.load %st[%tid] : memref<32xf32, {WG}>
      %s = arith.addf %y, %z : f32
      memref.store %s, %out[%i] : memref<?xf32>
"""
    x = np.random.default_rng(5).standard_normal(7 * 32).astype(np.float32)
    out = np.zeros_like(x)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>", (7,), (32,), [x, out],
           f"workgroup(%st: memref<32xf32, {WG}>)", dynamic_shared_memory=128)
    np.testing.assert_array_equal(out, x.reshape(7, 32)[:, ::-1].reshape(-1))


def test_atomics_vectors_and_divergent_lanes(layout):
    # a per-block histogram with atomics, vector loads of it, and a store by odd threads only
    # (lanes listed one by one: addresses translated element by element)
    body = f"""
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %i0 = arith.muli %bid, %c64 : index
      %i = arith.addi %i0, %tid : index
      %x = memref.load %in[%i] : memref<?xi32>
      %bin = arith.index_cast %x : i32 to index
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %hist[%bin] : (i32, memref<8xi32, {WG}>) -> i32
      gpu.barrier
      %par = arith.remui %tid, %c2 : index
      %odd = arith.cmpi eq, %par, %c1 : index
      scf.if %odd {{
        %h = arith.divui %tid, %c2 : index
        %t = arith.index_cast %tid : index to i32
        memref.store %t, %odds[%h] : memref<32xi32, {WG}>
      }}
      gpu.barrier
      %first = arith.cmpi ult, %tid, %c2 : index
      scf.if %first {{
        %k = arith.muli %tid, %c4 : index
        %v = vector.load %hist[%k] : memref<8xi32, {WG}>, vector<4xi32>
        %o0 = arith.muli %bid, %c8 : index
        %o = arith.addi %o0, %k : index
        vector.store %v, %out[%o] : memref<?xi32>, vector<4xi32>
      }}
      %w = arith.divui %tid, %c2 : index
      %ov = memref.load %odds[%w] : memref<32xi32, {WG}>
      memref.store %ov, %back[%i] : memref<?xi32>
      %low = arith.cmpi ult, %tid, %c8 : index
      scf.if %low {{
        %hv = memref.load %hist[%tid] : memref<8xi32, {WG}>
        %ho0 = arith.muli %bid, %c8 : index
        %ho = arith.addi %ho0, %tid : index
        memref.store %hv, %out2[%ho] : memref<?xi32>
      }}
"""
    blocks = 9
    x = np.random.default_rng(6).integers(0, 8, blocks * 64).astype(np.int32)
    out = np.zeros(blocks * 8, np.int32)
    out2 = np.zeros(blocks * 8, np.int32)
    back = np.zeros(blocks * 64, np.int32)
    launch(body, "%in: memref<?xi32>, %out: memref<?xi32>, %back: memref<?xi32>, "
           "%out2: memref<?xi32>", (blocks,), (64,), [x, out, back, out2],
           f"workgroup(%hist: memref<8xi32, {WG}>, %odds: memref<32xi32, {WG}>)")
    want = np.stack([np.bincount(r, minlength=8) for r in x.reshape(blocks, 64)])
    np.testing.assert_array_equal(out, want.reshape(-1))
    np.testing.assert_array_equal(out2, want.reshape(-1))
    np.testing.assert_array_equal(back, np.tile(np.arange(64) // 2 * 2 + 1, blocks))
    check_layout(layout, layout.interleaved)


def test_memref_copy_between_workgroup_and_global(layout):
    body = f"""
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c3 = arith.constant 3 : index
      %row = memref.subview %in[%bid, 0] [1, 4] [1, 1] : memref<5x4xf32> to memref<4xf32, strided<[1], offset: ?>>
      memref.copy %row, %sh : memref<4xf32, strided<[1], offset: ?>> to memref<4xf32, {WG}>
      gpu.barrier
      %r = arith.subi %c3, %tid : index
      %v = memref.load %sh[%r] : memref<4xf32, {WG}>
      memref.store %v, %out[%bid, %tid] : memref<5x4xf32>
"""
    x = np.random.default_rng(7).standard_normal((5, 4)).astype(np.float32)
    out = np.zeros_like(x)
    launch(body, "%in: memref<5x4xf32>, %out: memref<5x4xf32>", (5,), (4,), [x, out],
           f"workgroup(%sh: memref<4xf32, {WG}>)")
    np.testing.assert_array_equal(out, x[:, ::-1])


def test_private_memory(layout):
    # a private attribution indexed uniformly, an alloca indexed per thread
    body = """
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %i0 = arith.muli %bid, %c16 : index
      %i = arith.addi %i0, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      %q = memref.alloca() : memref<4xf32>
      scf.for %k = %c0 to %c4 step %c1 {
        %kk = arith.index_cast %k : index to i32
        %kf = arith.sitofp %kk : i32 to f32
        %v = arith.mulf %x, %kf : f32
        memref.store %v, %p[%k] : memref<4xf32>
        memref.store %v, %q[%k] : memref<4xf32>
      }
      %j = arith.remui %tid, %c4 : index
      %a = memref.load %q[%j] : memref<4xf32>
      %b = memref.load %p[%c1] : memref<4xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%i] : memref<?xf32>
"""
    x = np.random.default_rng(8).standard_normal(3 * 16).astype(np.float32)
    out = np.zeros_like(x)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>", (3,), (16,), [x, out],
           "private(%p: memref<4xf32>)")
    k = (np.arange(48) % 16 % 4).astype(np.float32)
    np.testing.assert_array_equal(out, x * k + x * np.float32(1))
    check_layout(layout, layout.interleaved)


def test_private_memory_is_interleaved_by_default():
    assert KernelExecutor.interleave == {"private": True, "workgroup": False}


# -- diagnostics ----------------------------------------------------------------------------------

def test_race_report_names_the_logical_element(layout):
    # threads 2k and 2k + 1 both write sh[k] (no barrier between): a write/write race on
    # element 0 of the block's copy, reported for the first block
    body = f"""
      %tid = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %h = arith.divui %tid, %c2 : index
      %t = arith.index_cast %tid : index to i32
      memref.store %t, %sh[%h] : memref<8xi32, {WG}>
"""
    with pytest.raises(gpu.DataRaceError, match=r"data race \(write/write\) on element 0 of "
                                                r"workgroup attribution #0 \(workgroup memory\) "
                                                r"in block \(0, 0, 0\): thread \(0, 0, 0\)"):
        launch(body, "", (5,), (16,), [], f"workgroup(%sh: memref<8xi32, {WG}>)",
               racecheck=True)


def test_race_report_in_a_later_block(layout):
    # only block 3 races (thread 5 reads element 6 while thread 6 writes it)
    body = f"""
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c5 = arith.constant 5 : index
      %t = arith.index_cast %tid : index to i32
      memref.store %t, %sh[%tid] : memref<8xi32, {WG}>
      %is3 = arith.cmpi eq, %bid, %c3 : index
      %is5 = arith.cmpi eq, %tid, %c5 : index
      %both = arith.andi %is3, %is5 : i1
      scf.if %both {{
        %n = arith.addi %tid, %c1 : index
        %v = memref.load %sh[%n] : memref<8xi32, {WG}>
      }}
"""
    with pytest.raises(gpu.DataRaceError, match=r"on element 6 of workgroup attribution #0 "
                                                r"\(workgroup memory\) in block \(3, 0, 0\)"):
        launch(body, "", (6,), (8,), [], f"workgroup(%sh: memref<8xi32, {WG}>)",
               racecheck=True)


def test_out_of_bounds_names_the_logical_index(layout):
    body = f"""
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %j = arith.addi %tid, %c1 : index
      %v = memref.load %sh[%j] : memref<16xf32, {WG}>
"""
    with pytest.raises(MemoryAccessError, match=r"index 16 out of bounds for dimension 0 of "
                                                r"size 16.*block \(0, 0, 0\), thread \(15, 0, 0\)"):
        launch(body, "", (4,), (16,), [], f"workgroup(%sh: memref<16xf32, {WG}>)")
