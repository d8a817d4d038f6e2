"""Registers dropped after their last use and the pool of recycled arrays (execute/buffers.py):
values still read later (in a loop, after it, through a view or a second register) are never
overwritten, results keep their bits across repeated and threaded launches, and the pool
keeps its size bound."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import tileir
from tileir.execute import buffers

TILE = 1 << 16          # 256 KiB f32 tiles: large enough for the pool

TV = "tensor_view<?xf32, strides=[1]>"
PV = f"partition_view<tile=({TILE}), {TV}>"
T = f"tile<{TILE}xf32>"

KERNEL = f"""
cuda_tile.module @m {{
  entry @k(%a: tile<ptr<f32>>, %c: tile<ptr<f32>>, %n: tile<i32>, %trips: tile<i32>) {{
    %ta = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> {TV}
    %tc = make_tensor_view %c, shape = [%n], strides = [1] : tile<i32> -> {TV}
    %pa = make_partition_view %ta : {PV}
    %pc = make_partition_view %tc : {PV}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %zero = constant <f32: 0.0> : {T}
    %x, %t0 = load_view_tko weak %pa[%bx] : {PV}, tile<i32> -> {T}, token
    %s = mulf %x, %x : {T}
    %r = for %i in (%c0 to %trips, step %c1) : tile<i32> iter_values(%acc = %zero) -> ({T}) {{
      %t = addf %acc, %s : {T}
      continue %t : {T}
    }}
    %u = subf %r, %s : {T}
    %v = addf %u, %x : {T}
    %w = mulf %v, %v : {T}
    %y = subf %w, %u : {T}
    %z = divf %y, %v : {T}
    %t1 = store_view_tko weak %z, %pc[%bx] : {T}, {PV}, tile<i32> -> token
    return
  }}
}}
"""


def reference(a: np.ndarray, trips: int) -> np.ndarray:
    s = a * a
    r = np.zeros_like(a)
    for _ in range(trips):
        r = r + s
    u = r - s
    v = u + a
    w = v * v
    return (w - u) / v


@pytest.fixture(scope="module")
def kernel():
    return tileir.compile(tileir.parse(KERNEL), "k")


@pytest.mark.parametrize("trips", [0, 1, 3])
@pytest.mark.parametrize("threads", [1, 2])
def test_values_read_later_survive_and_bits_match(kernel, trips, threads):
    rng = np.random.default_rng(trips)
    blocks = 4
    a = rng.standard_normal(blocks * TILE).astype(np.float32)
    want = reference(a, trips)
    for _ in range(3):                   # later launches take arrays from the pool
        c = np.full_like(a, np.nan)
        kernel.launch((blocks,), [a, c, a.size, trips], threads=threads)
        assert c.tobytes() == want.tobytes()
    blocks_one_at_a_time = np.full_like(a, np.nan)
    kernel.launch((blocks,), [a, blocks_one_at_a_time, a.size, trips], batch=False)
    assert blocks_one_at_a_time.tobytes() == want.tobytes()


def test_dead_values_are_found_per_block(kernel):
    from tileir.execute.plan import Compiler
    entry = kernel.entry
    cc = Compiler(entry, {}, kernel.rt)
    cc.compile_entry()
    body = entry.regions[0].blocks[0]
    frees = cc.dead_after(body, [o for o in body.ops if o.results])
    freed = {s for slots in frees.values() for s in slots}
    loop = next(o for o in body.ops if o.name == "cuda_tile.for")
    s_value = next(o for o in body.ops if o.name == "cuda_tile.mulf").results[0]
    # %s is read in the loop and after it: dropped only after its last use, the subf
    subf = next(o for o in body.ops if o.name == "cuda_tile.subf")
    assert cc.slot(s_value) in frees[subf]
    assert cc.slot(s_value) not in frees.get(loop, ())
    # the partition views share their tensor view's register: never dropped
    views = [o for o in body.ops if o.name == "cuda_tile.make_partition_view"]
    assert all(cc.slot(v.results[0]) not in freed for v in views)


def test_recycle_only_unreferenced_owned_arrays():
    buffers.clear()
    big = np.ones(buffers.MIN_BYTES // 4, np.float32)
    held = big
    buffers.recycle(big)                     # a second name refers to it: kept out
    assert getattr(buffers._local, "bytes", 0) == 0
    view = np.ones(buffers.MIN_BYTES // 2, np.float32)[::2]
    buffers.recycle(view)                    # a view: kept out
    small = np.ones(8, np.float32)
    buffers.recycle(small)                   # too small: kept out
    assert getattr(buffers._local, "bytes", 0) == 0
    del held
    buffers.recycle(big)                     # now only ``big`` refers to it
    got = buffers.fresh(big.shape, big.dtype)
    assert got.ctypes.data == big.ctypes.data
    assert buffers.fresh(big.shape, big.dtype) is not got     # taken once
    buffers.clear()


def test_pool_stays_under_its_bound_and_is_per_thread(monkeypatch):
    monkeypatch.setattr(buffers, "POOL_BYTES", 3 * buffers.MIN_BYTES)
    buffers.clear()
    for _ in range(10):
        array = np.empty(buffers.MIN_BYTES, np.uint8)
        buffers.recycle(array)
    assert buffers._local.bytes <= 3 * buffers.MIN_BYTES
    seen = []

    def other():
        seen.append(buffers.fresh((buffers.MIN_BYTES,), np.dtype(np.uint8)))
    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert buffers._local.bytes == 3 * buffers.MIN_BYTES       # the other thread's pool
    buffers.clear()
