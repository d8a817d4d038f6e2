"""gpu.barrier in the SIMT engine: shared-memory tree reductions (barriers in scf.for, under
scf.if), barriers reached by part of a block (undefined behaviour, not a hang), and racecheck
(shared and global memory races within a block, no false positive on correct kernels)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import UndefinedBehaviorError

STRIDES = np.array([128, 64, 32, 16, 8, 4, 2, 1], np.int32)

TREE = """
gpu.module @m {
  gpu.func @red(%in: memref<?xf32>, %out: memref<?xf32>, %strides: memref<8xi32>)
      workgroup(%sh : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %v = memref.load %in[%g] : memref<?xf32>
    memref.store %v, %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    scf.for %i = %c0 to %c8 step %c1 {
      %s32 = memref.load %strides[%i] : memref<8xi32>
      %s = arith.index_cast %s32 : i32 to index
      %c = arith.cmpi ult, %t, %s : index
      scf.if %c {
        %o = arith.addi %t, %s : index
        %x = memref.load %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        %y = memref.load %sh[%o] : memref<256xf32, #gpu.address_space<workgroup>>
        %sum = arith.addf %x, %y : f32
        memref.store %sum, %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      LOOP_BARRIER
    }
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      %r = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %r, %out[%b] : memref<?xf32>
    }
    gpu.return
  }
}
"""


def _tree_reference(x: np.ndarray) -> np.ndarray:
    """The kernel's pairing, in f32."""
    sh = x.reshape(-1, 256).copy()
    for s in STRIDES:
        sh[:, :s] = (sh[:, :s] + sh[:, s:2 * s]).astype(np.float32)
    return sh[:, 0]


def _data(blocks: int) -> np.ndarray:
    return np.random.default_rng(3).standard_normal(blocks * 256).astype(np.float32)


@pytest.mark.parametrize("racecheck", [False, True])
def test_shared_memory_tree_reduction(racecheck):
    x = _data(3)
    out = np.zeros(3, np.float32)
    mod = tileir.parse(TREE.replace("LOOP_BARRIER", "gpu.barrier"))
    tileir.gpu.launch(mod, "m::red", grid=(3,), block=(256,), args=[x, out, STRIDES],
                      racecheck=racecheck)
    np.testing.assert_array_equal(out, _tree_reference(x))
    np.testing.assert_allclose(out, x.reshape(3, 256).sum(axis=1, dtype=np.float64),
                               rtol=1e-5, atol=1e-4)


def test_missing_barrier_is_a_shared_memory_race():
    x = _data(2)
    out = np.zeros(2, np.float32)
    mod = tileir.parse(TREE.replace("LOOP_BARRIER", ""))
    with pytest.raises(tileir.gpu.DataRaceError) as info:
        tileir.gpu.launch(mod, "m::red", grid=(2,), block=(256,), args=[x, out, STRIDES],
                          racecheck=True)
    text = str(info.value)
    # thread t + s writes sh[t + s] (at some stride) while thread t reads it (at stride s):
    # racecheck reports one such pair (the epoch is checked at the kernel's end)
    assert "workgroup" in text
    m = re.search(r"element (\d+) .*thread \((\d+), 0, 0\).*thread \((\d+), 0, 0\)", text)
    assert m, text
    elem, ta, tb = (int(v) for v in m.groups())
    assert elem in (ta, tb)                    # the element is the writer's own slot
    other = tb if elem == ta else ta
    assert elem - other in STRIDES, text
    assert "write" in text and "read" in text


def test_missing_barrier_without_racecheck_still_runs():
    x = _data(1)
    out = np.zeros(1, np.float32)
    mod = tileir.parse(TREE.replace("LOOP_BARRIER", ""))
    tileir.gpu.launch(mod, "m::red", grid=(1,), block=(256,), args=[x, out, STRIDES])
    assert np.isfinite(out).all()


PARTIAL = """
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>, %lim: index) kernel {
    %t = gpu.thread_id x
    %c = arith.cmpi ult, %t, %lim : index
    scf.if %c {
      gpu.barrier
    }
    gpu.return
  }
}
"""


def test_barrier_reached_by_part_of_a_block_is_ub():
    mod = tileir.parse(PARTIAL)
    out = np.zeros(4, np.float32)
    with pytest.raises(UndefinedBehaviorError, match=r"barrier reached by 10 of the 64"):
        tileir.gpu.launch(mod, "m::k", grid=(2,), block=(64,), args=[out, 10])
    # everybody (or nobody) reaching it is fine
    tileir.gpu.launch(mod, "m::k", grid=(2,), block=(64,), args=[out, 64])
    tileir.gpu.launch(mod, "m::k", grid=(2,), block=(64,), args=[out, 0])


def test_barrier_in_loop_with_per_thread_trip_count_is_ub():
    src = """
gpu.module @m {
  gpu.func @k(%out: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %odd = arith.cmpi ult, %t, %c3 : index
    %n = scf.if %odd -> index {
      scf.yield %c3 : index
    } else {
      scf.yield %c1 : index
    }
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
    }
    gpu.return
  }
}
"""
    with pytest.raises(UndefinedBehaviorError, match="barrier"):
        tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(32,),
                          args=[np.zeros(1, np.float32)])


def test_barrier_in_2d_block_and_divergent_reconvergence():
    # a 2-d block: thread (x, y) writes sh[y*8+x], the barrier, then reads the transpose
    src = """
gpu.module @m {
  gpu.func @k(%out: memref<64xf32>)
      workgroup(%sh : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %x = gpu.thread_id x
    %y = gpu.thread_id y
    %c8 = arith.constant 8 : index
    %c4 = arith.constant 4 : index
    %row = arith.muli %y, %c8 : index
    %i = arith.addi %row, %x : index
    %xi = arith.index_cast %i : index to i32
    %f = arith.constant 1.0 : f32
    %lo = arith.cmpi ult, %x, %c4 : index
    %val = scf.if %lo -> f32 {
      scf.yield %f : f32
    } else {
      %two = arith.addf %f, %f : f32
      scf.yield %two : f32
    }
    memref.store %val, %sh[%i] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %col = arith.muli %x, %c8 : index
    %j = arith.addi %col, %y : index
    %r = memref.load %sh[%j] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %r, %out[%i] : memref<64xf32>
    gpu.return
  }
}
"""
    out = np.zeros(64, np.float32)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(8, 8), args=[out],
                      racecheck=True)
    sh = np.where(np.arange(8)[None, :] < 4, 1.0, 2.0) * np.ones((8, 8))   # [y, x]
    np.testing.assert_array_equal(out.reshape(8, 8), sh.T)


GLOBAL_RACE = """
gpu.module @m {
  gpu.func @k(%buf: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %c1 = arith.constant 1 : index
    %f = arith.constant 1.0 : f32
    memref.store %f, %buf[%g] : memref<?xf32>
    BARRIER
    %last = arith.subi %n, %c1 : index
    %notlast = arith.cmpi ult, %t, %last : index
    scf.if %notlast {
      %h = arith.addi %g, %c1 : index
      %v = memref.load %buf[%h] : memref<?xf32>
    }
    gpu.return
  }
}
"""


def test_global_memory_race_within_a_block():
    buf = np.zeros(64, np.float32)
    with pytest.raises(tileir.gpu.DataRaceError) as info:
        tileir.gpu.launch(tileir.parse(GLOBAL_RACE.replace("BARRIER", "")), "m::k",
                          grid=(2,), block=(32,), args=[buf], racecheck=True)
    text = str(info.value)
    m = re.search(r"element (\d+) .*thread \((\d+), 0, 0\).*thread \((\d+), 0, 0\)", text)
    assert m, text
    elem, ta, tb = (int(v) for v in m.groups())
    assert abs(ta - tb) == 1
    assert elem % 32 == max(ta, tb)     # the higher thread's own element, read by its neighbour


def test_global_memory_with_barrier_is_not_a_race():
    buf = np.zeros(64, np.float32)
    tileir.gpu.launch(tileir.parse(GLOBAL_RACE.replace("BARRIER", "gpu.barrier")), "m::k",
                      grid=(2,), block=(32,), args=[buf], racecheck=True)
    np.testing.assert_array_equal(buf, 1.0)


def test_write_write_race_on_one_global_element():
    src = """
gpu.module @m {
  gpu.func @k(%buf: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %f = arith.constant 2.0 : f32
    memref.store %f, %buf[%c0] : memref<?xf32>
    gpu.return
  }
}
"""
    with pytest.raises(tileir.gpu.DataRaceError, match=r"write/write.*element 0"):
        tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(4,),
                          args=[np.zeros(1, np.float32)], racecheck=True)
    # a single thread is no race
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(1,),
                      args=[np.zeros(1, np.float32)], racecheck=True)


ATOMIC_COUNTER = """
gpu.module @m {
  gpu.func @count(%out: memref<2xi32>)
      workgroup(%sh : memref<1xi32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %sh[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
    READ_BARRIER
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      %n = memref.load %sh[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %n, %out[%b] : memref<2xi32>
    }
    gpu.return
  }
}
"""


def test_atomics_of_many_threads_on_one_element_are_not_a_race():
    out = np.zeros(2, np.int32)
    mod = tileir.parse(ATOMIC_COUNTER.replace("READ_BARRIER", "gpu.barrier"))
    tileir.gpu.launch(mod, "m::count", grid=(2,), block=(64,), args=[out], racecheck=True)
    np.testing.assert_array_equal(out, [64, 64])


def test_plain_read_of_an_element_other_threads_update_atomically_is_a_race():
    """Thread 0 reads the counter while the other threads of its block add to it atomically,
    with no barrier between: a race (one side is not atomic), reported with both accesses."""
    out = np.zeros(2, np.int32)
    mod = tileir.parse(ATOMIC_COUNTER.replace("READ_BARRIER", ""))
    with pytest.raises(tileir.gpu.DataRaceError) as info:
        tileir.gpu.launch(mod, "m::count", grid=(2,), block=(64,), args=[out], racecheck=True)
    text = str(info.value)
    assert "element 0" in text and "workgroup" in text, text
    assert "writes it atomically at 'memref.atomic_rmw'" in text, text
    assert "reads it at 'memref.load'" in text, text
    # without racecheck the kernel runs; the lane engine runs it in lock step (atomics first,
    # in program order: every block sees 64; a racy program's outcome is the schedule's)
    tileir.gpu.launch(mod, "m::count", grid=(2,), block=(64,), args=[out], backend="lanes")
    np.testing.assert_array_equal(out, [64, 64])


def test_generic_atomics_race_with_a_plain_store():
    src = """
gpu.module @m {
  gpu.func @k(%out: memref<1xf32>)
      workgroup(%sh : memref<1xf32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %last = arith.cmpi eq, %t, %c5 : index
    scf.if %last {
      %z = arith.constant 2.0 : f32
      memref.store %z, %sh[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    } else {
      %old = memref.generic_atomic_rmw %sh[%c0] : memref<1xf32, #gpu.address_space<workgroup>> {
      ^bb0(%cur: f32):
        %one = arith.constant 1.0 : f32
        %s = arith.addf %cur, %one : f32
        memref.atomic_yield %s : f32
      }
    }
    gpu.barrier
    gpu.return
  }
}
"""
    mod = tileir.parse(src)
    with pytest.raises(tileir.gpu.DataRaceError) as info:
        tileir.gpu.launch(mod, "m::k", grid=(1,), block=(8,), args=[np.zeros(1, np.float32)],
                          racecheck=True)
    assert "writes it atomically" in str(info.value) and "memref.store" in str(info.value)
