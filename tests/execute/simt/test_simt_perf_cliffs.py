"""Patterns that used to fall off a performance cliff in the SIMT engine, checked against NumPy
references (results only: no timings here).

* divergent ``cf`` loops: each iteration's lane paths are found from the paths' own lanes
  (:func:`~tileir.execute.simt.interp.flat_in`, ``_Reindex``) instead of numbering all the
  launch's lanes again;
* ``gpu.shuffle`` / ``gpu.subgroup_reduce`` / ``gpu.all_reduce`` over whole blocks: values
  reshaped to (blocks, threads) instead of scattered and gathered through per-lane ids;
* ``memref.generic_atomic_rmw``: each round's lanes made from their positions alone
  (:func:`~tileir.execute.simt.lanes.select`).
"""

from __future__ import annotations

import numpy as np
import pytest

from tileir import gpu
from tileir.execute.errors import MemoryAccessError, UndefinedBehaviorError
from tileir.execute.simt.lanes import BoxSpace, ListSpace, select
from simt_text import kernel as _kernel, program as _prog


# -- divergent cf loops ----------------------------------------------------------------------

POPCOUNT = _kernel("%a: memref<?xi32>, %out: memref<?xi32>, %n: index", """
      %i = gpu.global_id x
      %z = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %inside = arith.cmpi slt, %i, %n : index
      cf.cond_br %inside, ^start, ^end
    ^start:
      %v = memref.load %a[%i] : memref<?xi32>
      cf.br ^loop(%v, %z : i32, i32)
    ^loop(%x: i32, %s: i32):
      %done = arith.cmpi eq, %x, %z : i32
      cf.cond_br %done, ^exit(%s : i32), ^body(%x, %s : i32, i32)
    ^body(%y: i32, %t: i32):
      %y1 = arith.shrui %y, %c1 : i32
      %b = arith.andi %y, %c1 : i32
      %t1 = arith.addi %t, %b : i32
      cf.br ^loop(%y1, %t1 : i32, i32)
    ^exit(%r: i32):
      memref.store %r, %out[%i] : memref<?xi32>
      cf.br ^end
    ^end:""")


@pytest.mark.parametrize("n", [4096, 3001])     # whole blocks; a partial last block
def test_cf_loop_per_lane_trip_counts(n):
    rng = np.random.default_rng(0)
    a = rng.integers(0, 1 << 20, n).astype(np.int32)
    a[::7] = 0                                  # lanes leaving before the first iteration
    out = np.full(n + 5, -1, np.int32)
    gpu.launch(_prog(POPCOUNT), "k::f", grid=(-(-n // 256),), block=(256,),
               args=[a, out, n])
    ref = np.array([bin(int(x)).count("1") for x in a], np.int32)
    assert np.array_equal(out[:n], ref)
    assert (out[n:] == -1).all()


WALK = _kernel("%a: memref<?xf32>, %out: memref<?xf32>", """
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %steps = arith.remui %t, %c8 : index
      %z = arith.constant 0.0 : f32
      cf.br ^loop(%c0, %z : index, f32)
    ^loop(%k: index, %s: f32):
      %more = arith.cmpi ult, %k, %steps : index
      cf.cond_br %more, ^body, ^exit
    ^body:
      %j = arith.addi %i, %k : index
      %v = memref.load %a[%j] : memref<?xf32>
      %s1 = arith.addf %s, %v : f32
      %k1 = arith.addi %k, %c1 : index
      cf.br ^loop(%k1, %s1 : index, f32)
    ^exit:
      memref.store %s, %out[%i] : memref<?xf32>""")


def test_cf_loop_window_sums_and_out_of_bounds_report():
    rng = np.random.default_rng(1)
    n = 1024
    a = rng.random(n + 7).astype(np.float32)
    out = np.zeros(n, np.float32)
    prog = _prog(WALK)
    gpu.launch(prog, "k::f", grid=(n // 128,), block=(128,), args=[a, out])
    ref = np.zeros(n, np.float32)
    for i in range(n):
        s = np.float32(0)
        for k in range(i % 128 % 8):
            s = np.float32(s + a[i + k])
        ref[i] = s
    assert np.array_equal(out, ref)
    # one element short: the last thread of the last block (7 steps) reads past the end
    short = a[:n + 5].copy()
    with pytest.raises(MemoryAccessError) as err:
        gpu.launch(prog, "k::f", grid=(n // 128,), block=(128,), args=[short, out])
    assert "block (7, 0, 0), thread (127, 0, 0)" in str(err.value)


# -- shuffles and reductions over whole blocks --------------------------------------------------

def _shuffle_ref(x: np.ndarray, block: int, mode: str, off: np.ndarray, width: int):
    """The documented gpu.shuffle rule, thread by thread (``off`` per thread of a block)."""
    n = x.size
    out = x.copy()
    valid = np.zeros(n, bool)
    for g in range(n):
        t = g % block
        lane = t % 32
        size = min(32, block - (t // 32) * 32)
        o = int(off[t])
        src = {"xor": lane ^ o, "up": lane - o, "down": lane + o, "idx": o}[mode]
        ok = lane < width and 0 <= src < width and src < size
        valid[g] = ok
        if ok:
            out[g] = x[g - lane + src]
    return out, valid


SHUFFLE = """
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %ti = arith.index_cast %t : index to i32
      %c3 = arith.constant 3 : i32
      %o = {offset}
      %w = arith.constant {width} : i32
      %r, %valid = gpu.shuffle {mode} %x, %o, %w : f32
      memref.store %r, %out[%i] : memref<?xf32>
      %vi = arith.extui %valid : i1 to i32
      memref.store %vi, %ok[%i] : memref<?xi32>"""


@pytest.mark.parametrize("mode", ["xor", "up", "down", "idx"])
@pytest.mark.parametrize("block,width,per_thread", [(256, 32, False), (48, 32, False),
                                                    (96, 16, True), (40, 8, True)])
def test_shuffle_whole_blocks(mode, block, width, per_thread):
    offset = ("arith.remui %ti, %c3 : i32" if per_thread else "arith.constant 5 : i32")
    text = _kernel("%in: memref<?xf32>, %out: memref<?xf32>, %ok: memref<?xi32>",
                   SHUFFLE.format(offset=offset, width=width, mode=mode))
    blocks = 6
    n = blocks * block
    x = np.random.default_rng(2).random(n).astype(np.float32)
    out = np.zeros(n, np.float32)
    ok = np.zeros(n, np.int32)
    gpu.launch(_prog(text), "k::f", grid=(blocks,), block=(block,), args=[x, out, ok])
    off = np.arange(block) % 3 if per_thread else np.full(block, 5)
    ref, valid = _shuffle_ref(x, block, mode, off, width)
    assert np.array_equal(out, ref)
    assert np.array_equal(ok.astype(bool), valid)


def test_shuffle_offset_differing_between_blocks():
    """An offset that depends on the block takes the general path: same rule."""
    text = _kernel("%in: memref<?xf32>, %out: memref<?xf32>", """
      %i = gpu.global_id x
      %b = gpu.block_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %bi = arith.index_cast %b : index to i32
      %w = arith.constant 32 : i32
      %r, %valid = gpu.shuffle xor %x, %bi, %w : f32
      memref.store %r, %out[%i] : memref<?xf32>""")
    x = np.arange(4 * 64, dtype=np.float32)
    out = np.zeros_like(x)
    gpu.launch(_prog(text), "k::f", grid=(4,), block=(64,), args=[x, out])
    lane = np.arange(x.size) % 32
    b = np.arange(x.size) // 64
    assert np.array_equal(out, x[np.arange(x.size) - lane + (lane ^ b)])


def test_shuffle_reading_an_inactive_lane_is_still_reported():
    text = _kernel("%in: memref<?xf32>, %out: memref<?xf32>", """
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %low = arith.cmpi ult, %t, %c16 : index
      scf.if %low {
        %x = memref.load %in[%i] : memref<?xf32>
        %o = arith.constant 16 : i32
        %w = arith.constant 32 : i32
        %r, %v = gpu.shuffle xor %x, %o, %w : f32
        memref.store %r, %out[%i] : memref<?xf32>
      }""")
    x = np.zeros(128, np.float32)
    with pytest.raises(UndefinedBehaviorError):
        gpu.launch(_prog(text), "k::f", grid=(2,), block=(64,), args=[x, x.copy()])


def _fold(values) -> np.float32:
    acc = values[0]
    for v in values[1:]:
        acc = np.float32(acc + v)
    return acc


@pytest.mark.parametrize("block", [256, 48])
@pytest.mark.parametrize("cluster", ["", " cluster(size = 4, stride = 2)"])
def test_subgroup_reduce_whole_blocks(block, cluster):
    text = _kernel("%in: memref<?xf32>, %out: memref<?xf32>", f"""
      %i = gpu.global_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %s = gpu.subgroup_reduce add %x{cluster} : (f32) -> f32
      memref.store %s, %out[%i] : memref<?xf32>""")
    blocks = 5
    x = np.random.default_rng(3).random(blocks * block).astype(np.float32) * 1e3
    out = np.zeros_like(x)
    gpu.launch(_prog(text), "k::f", grid=(blocks,), block=(block,), args=[x, out])
    ref = np.zeros_like(x)
    for g in range(x.size):
        t = g % block
        sg0 = g - t % 32
        lane = t % 32
        size = min(32, block - (t // 32) * 32)
        if cluster:
            start = lane // 8 * 8 + lane % 2     # clusters of 4 lanes, stride 2
            members = [sg0 + m for m in range(start, start + 8, 2) if m < size]
        else:
            members = [sg0 + m for m in range(size)]
        ref[g] = _fold(x[members])
    assert np.array_equal(out, ref)


@pytest.mark.parametrize("form", ["op", "region"])
def test_all_reduce_whole_blocks(form):
    red = ("%s = gpu.all_reduce add %x uniform {} : (f32) -> f32" if form == "op" else
           """%s = gpu.all_reduce %x uniform {
      ^bb0(%p: f32, %q: f32):
        %m = arith.addf %p, %q : f32
        gpu.yield %m : f32
      } : (f32) -> f32""")
    text = _kernel("%in: memref<?xf32>, %out: memref<?xf32>", f"""
      %i = gpu.global_id x
      %x = memref.load %in[%i] : memref<?xf32>
      {red}
      %one = arith.constant 1.0 : f32
      %s1 = arith.addf %s, %one : f32
      memref.store %s1, %out[%i] : memref<?xf32>""")
    blocks, block = 6, 96
    x = np.random.default_rng(4).random(blocks * block).astype(np.float32)
    out = np.zeros_like(x)
    gpu.launch(_prog(text), "k::f", grid=(blocks,), block=(block,), args=[x, out])
    sums = np.array([_fold(r) for r in x.reshape(blocks, block)], np.float32)
    assert np.array_equal(out, np.repeat(sums + np.float32(1), block))


def test_all_reduce_in_part_of_a_block_is_still_reported():
    text = _kernel("%in: memref<?xf32>, %out: memref<?xf32>", """
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %c8 = arith.constant 8 : index
      %low = arith.cmpi ult, %t, %c8 : index
      scf.if %low {
        %x = memref.load %in[%i] : memref<?xf32>
        %s = gpu.all_reduce add %x {} : (f32) -> f32
        memref.store %s, %out[%i] : memref<?xf32>
      }""")
    x = np.zeros(64, np.float32)
    with pytest.raises(UndefinedBehaviorError):
        gpu.launch(_prog(text), "k::f", grid=(2,), block=(32,), args=[x, x.copy()])


# -- generic_atomic_rmw ----------------------------------------------------------------------

GENERIC = _kernel("%data: memref<?xf32>, %bins: memref<?xf32>, %old: memref<?xf32>, "
                  "%n: index", """
      %i = gpu.global_id x
      %inside = arith.cmpi slt, %i, %n : index
      scf.if %inside {
        %v = memref.load %data[%i] : memref<?xf32>
        %c7 = arith.constant 7 : index
        %h = arith.muli %i, %c7 : index
        %c13 = arith.constant 13 : index
        %bin = arith.remui %h, %c13 : index
        %o = memref.generic_atomic_rmw %bins[%bin] : memref<?xf32> {
        ^bb0(%cur: f32):
          %s = arith.addf %cur, %v : f32
          memref.atomic_yield %s : f32
        }
        memref.store %o, %old[%i] : memref<?xf32>
      }""")


@pytest.mark.parametrize("n", [64 * 32, 64 * 32 - 19])
def test_generic_atomic_rmw_applies_in_lane_order(n):
    rng = np.random.default_rng(5)
    data = rng.random(n).astype(np.float32) * 100
    bins = rng.random(13).astype(np.float32)
    old = np.full(n, -1, np.float32)
    ref_bins = bins.copy()
    gpu.launch(_prog(GENERIC), "k::f", grid=(64,), block=(32,), args=[data, bins, old, n])
    ref_old = np.full(n, -1, np.float32)
    for i in range(n):                       # sequentially, in thread order
        b = i * 7 % 13
        ref_old[i] = ref_bins[b]
        ref_bins[b] = np.float32(ref_bins[b] + data[i])
    assert np.array_equal(bins, ref_bins)
    assert np.array_equal(old, ref_old)


def test_generic_atomic_rmw_out_of_bounds_report():
    bins = np.zeros(12, np.float32)         # bin 12 is outside: thread 11 (7 * 11 % 13)
    with pytest.raises(MemoryAccessError) as err:
        gpu.launch(_prog(GENERIC), "k::f", grid=(4,), block=(32,),
                   args=[np.ones(128, np.float32), bins, np.zeros(128, np.float32), 128])
    assert "block (0, 0, 0), thread (11, 0, 0)" in str(err.value)


def _restricted(space, flat):
    mask = np.zeros(space.size, bool)
    mask[flat] = True
    return space.restrict(mask.reshape(space.shape))


@pytest.mark.parametrize("flat", [[0, 1, 2, 3], list(range(8, 16)), [3, 9], [5],
                                  list(range(4)) + list(range(8, 12)), list(range(64))])
def test_select_matches_restrict(flat):
    root = BoxSpace((0,) * 6, (1, 1, 4, 1, 2, 8))
    flat = np.array(flat, np.int64)
    got, want = select(root, flat), _restricted(root, flat)
    assert type(got) is type(want)
    if isinstance(want, BoxSpace):
        assert (got.lo, got.shape) == (want.lo, want.shape)
        assert got is root if want is root else got.parent is root
    else:
        assert all(np.array_equal(a, b) for a, b in zip(got.index, want.index))
    lst = ListSpace(root, np.unravel_index(np.arange(0, 64, 3), root.shape))
    sub = np.array([0, 2, 5], np.int64)
    got, want = select(lst, sub), _restricted(lst, sub)
    assert np.array_equal(got.index[0], want.index[0])
    assert select(lst, np.arange(lst.size)) is lst
