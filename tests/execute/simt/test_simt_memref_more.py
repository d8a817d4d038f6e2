"""SIMT engine: memref dialect (allocation, views, globals, atomics) against NumPy references."""

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import MemoryAccessError


def run(src, *args):
    return tileir.gpu.run(tileir.parse(src), "main", args=list(args))


ATOMIC = """
gpu.module @k {
  gpu.func @f(%keys: memref<NxTY>, %vals: memref<NxTY>, %bins: memref<8xTY>, %old: memref<NxTY>,
              %idx: memref<Nxindex>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %bd = gpu.block_dim x
    %i0 = arith.muli %b, %bd : index
    %i = arith.addi %i0, %t : index
    %k = memref.load %idx[%i] : memref<Nxindex>
    %v = memref.load %vals[%i] : memref<NxTY>
    %o = memref.atomic_rmw KIND %v, %bins[%k] : (TY, memref<8xTY>) -> TY
    memref.store %o, %old[%i] : memref<NxTY>
    gpu.return
  }
}
"""

_REF = {
    "addf": lambda a, b: a + b, "mulf": lambda a, b: a * b,
    "addi": lambda a, b: a + b, "muli": lambda a, b: a * b,
    "maxs": max, "mins": min, "assign": lambda a, b: b,
    "maxu": lambda a, b: max(a.astype(np.uint32), b.astype(np.uint32)).astype(np.int32),
    "minu": lambda a, b: min(a.astype(np.uint32), b.astype(np.uint32)).astype(np.int32),
    "andi": lambda a, b: a & b, "ori": lambda a, b: a | b, "xori": lambda a, b: a ^ b,
    "maximumf": lambda a, b: np.maximum(a, b), "minimumf": lambda a, b: np.minimum(a, b),
    "maxnumf": lambda a, b: np.fmax(a, b), "minnumf": lambda a, b: np.fmin(a, b),
}


@pytest.mark.parametrize("kind", sorted(_REF))
def test_atomic_rmw_contention_lane_order(kind):
    n = 1024
    flt = kind.endswith("f")
    ty, dt = ("f32", np.float32) if flt else ("i32", np.int32)
    rng = np.random.default_rng(hash(kind) % 1000)
    idx = rng.integers(0, 8, n).astype(np.int64)
    if flt:
        vals = (rng.standard_normal(n) * (1.01 if kind == "mulf" else 100)).astype(dt)
        if kind == "mulf":
            vals = (1 + rng.standard_normal(n).astype(dt) * dt(0.01)).astype(dt)
        vals[5] = np.nan if kind.startswith("m") and kind != "mulf" else vals[5]
    else:
        vals = rng.integers(-1000, 1000, n).astype(dt)
    bins = (rng.standard_normal(8) * 10).astype(dt) if flt else rng.integers(-5, 5, 8).astype(dt)
    ref_bins = bins.copy()
    ref_old = np.zeros(n, dt)
    with np.errstate(all="ignore"):
        for lane in range(n):                     # sequential lane-order reference
            k = idx[lane]
            ref_old[lane] = ref_bins[k]
            ref_bins[k] = dt(_REF[kind](ref_bins[k], vals[lane]))
    src = ATOMIC.replace("KIND", kind).replace("TY", ty).replace("N", str(n))
    old = np.zeros(n, dt)
    tileir.gpu.launch(tileir.parse(src), "k::f", grid=(4, 1, 1), block=(256, 1, 1),
                      args=[vals, vals, bins, old, idx])
    np.testing.assert_array_equal(bins, ref_bins)
    np.testing.assert_array_equal(old, ref_old)


def test_histogram_4096_lanes():
    n = 4096
    idx = np.random.default_rng(1).integers(0, 8, n).astype(np.int64)
    ones = np.ones(n, np.int32)
    bins = np.zeros(8, np.int32)
    old = np.zeros(n, np.int32)
    src = ATOMIC.replace("KIND", "addi").replace("TY", "i32").replace("N", str(n))
    tileir.gpu.launch(tileir.parse(src), "k::f", grid=(16, 1, 1), block=(256, 1, 1),
                      args=[ones, ones, bins, old, idx])
    np.testing.assert_array_equal(bins, np.bincount(idx, minlength=8))
    # lane order: each lane saw the number of earlier lanes with its key
    ref = np.array([np.count_nonzero(idx[:i] == idx[i]) for i in range(n)])
    np.testing.assert_array_equal(old, ref)


GENERIC = """
gpu.module @k {
  gpu.func @f(%vals: memref<512xf32>, %bins: memref<4xf32>, %idx: memref<512xindex>) kernel {
    %t = gpu.thread_id x
    %k = memref.load %idx[%t] : memref<512xindex>
    %v = memref.load %vals[%t] : memref<512xf32>
    %h = arith.constant 0.5 : f32
    %x = memref.generic_atomic_rmw %bins[%k] : memref<4xf32> {
    ^bb0(%cur: f32):
      %m = arith.mulf %cur, %h : f32
      %n = arith.addf %m, %v : f32
      memref.atomic_yield %n : f32
    }
    gpu.return
  }
}
"""


def test_generic_atomic_rmw_sequential():
    rng = np.random.default_rng(3)
    vals = rng.standard_normal(512).astype(np.float32)
    idx = rng.integers(0, 4, 512).astype(np.int64)
    bins = np.zeros(4, np.float32)
    ref = bins.copy()
    for lane in range(512):
        ref[idx[lane]] = np.float32(np.float32(ref[idx[lane]] * np.float32(0.5)) + vals[lane])
    tileir.gpu.launch(tileir.parse(GENERIC), "k::f", grid=(1, 1, 1), block=(512, 1, 1),
                      args=[vals, bins, idx])
    np.testing.assert_array_equal(bins, ref)


def test_alloc_subview_copy_dim_rank_dealloc():
    src = """
func.func @main(%a: memref<6x8xf32>, %o: memref<3x2xf32>, %d: memref<3xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %s = memref.subview %a[1, %c2] [3, 2] [2, 3] : memref<6x8xf32> to memref<3x2xf32, strided<[16, 3], offset: ?>>
  %buf = memref.alloc() : memref<3x2xf32>
  memref.copy %s, %buf : memref<3x2xf32, strided<[16, 3], offset: ?>> to memref<3x2xf32>
  memref.copy %buf, %o : memref<3x2xf32> to memref<3x2xf32>
  memref.dealloc %buf : memref<3x2xf32>
  %r = memref.subview %a[2, 0] [1, 8] [1, 1] : memref<6x8xf32> to memref<8xf32, strided<[1], offset: 16>>
  %n = memref.dim %r, %c0 : memref<8xf32, strided<[1], offset: 16>>
  memref.store %n, %d[%c0] : memref<3xindex>
  %k = memref.rank %a : memref<6x8xf32>
  memref.store %k, %d[%c1] : memref<3xindex>
  %x = memref.load %r[%c1] : memref<8xf32, strided<[1], offset: 16>>
  memref.store %x, %o[%c2, %c1] : memref<3x2xf32>
  return
}"""
    a = np.arange(48, dtype=np.float32).reshape(6, 8)
    o = np.zeros((3, 2), np.float32)
    d = np.zeros(3, np.int64)
    run(src, a, o, d)
    ref = a[1:6:2, 2:8:3].copy()
    ref[2, 1] = a[2, 1]
    np.testing.assert_array_equal(o, ref)
    assert d[0] == 8 and d[1] == 2


def test_use_after_dealloc_and_subview_oob():
    src = """
func.func @main(%i: index) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<4xf32>
  memref.dealloc %buf : memref<4xf32>
  %x = memref.load %buf[%c0] : memref<4xf32>
  return
}"""
    with pytest.raises(MemoryAccessError, match="deallocated"):
        run(src, 0)
    src2 = """
func.func @main(%a: memref<8xf32>, %i: index) {
  %s = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
  return
}"""
    run(src2, np.zeros(8, np.float32), 4)
    with pytest.raises(MemoryAccessError, match="subview"):
        run(src2, np.zeros(8, np.float32), 5)


def test_globals_and_reshapes():
    src = """
memref.global "private" constant @tab : memref<2x3xi32> = dense<[[1, 2, 3], [4, 5, 6]]>
memref.global "private" @acc : memref<2xi32> = dense<0>
func.func @main(%o: memref<6xi32>, %p: memref<2xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %g = memref.get_global @tab : memref<2x3xi32>
  %f = memref.collapse_shape %g [[0, 1]] : memref<2x3xi32> into memref<6xi32>
  memref.copy %f, %o : memref<6xi32> to memref<6xi32>
  %t = memref.transpose %g (i, j) -> (j, i) : memref<2x3xi32> to memref<3x2xi32, strided<[1, 3]>>
  %x = memref.load %t[%c1, %c1] : memref<3x2xi32, strided<[1, 3]>>
  %a = memref.get_global @acc : memref<2xi32>
  %y = memref.atomic_rmw addi %x, %a[%c1] : (i32, memref<2xi32>) -> i32
  memref.copy %a, %p : memref<2xi32> to memref<2xi32>
  return
}"""
    m = tileir.parse(src)
    o, p = np.zeros(6, np.int32), np.zeros(2, np.int32)
    tileir.gpu.run(m, "main", args=[o, p])
    np.testing.assert_array_equal(o, [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(p, [0, 5])
    bad = src.replace("%y = memref.atomic_rmw addi %x, %a[%c1] : (i32, memref<2xi32>) -> i32",
                      "memref.store %x, %g[%c0, %c0] : memref<2x3xi32>")
    with pytest.raises(MemoryAccessError, match="read-only"):
        tileir.gpu.run(tileir.parse(bad), "main", args=[o, p])


def test_view_of_bytes_and_misaligned():
    src = """
func.func @main(%o: memref<4xf32>, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %raw = memref.alloc() : memref<64xi8>
  %v = memref.view %raw[%s][] : memref<64xi8> to memref<4xf32>
  %one = arith.constant 1.5 : f32
  memref.store %one, %v[%c1] : memref<4xf32>
  memref.copy %v, %o : memref<4xf32> to memref<4xf32>
  return
}"""
    o = np.zeros(4, np.float32)
    run(src, o, 8)
    np.testing.assert_array_equal(o, [0, 1.5, 0, 0])
    with pytest.raises(MemoryAccessError, match="multiple"):
        run(src, o, 6)
    with pytest.raises(MemoryAccessError, match="reaches past"):
        run(src, o, 56)


def test_alloca_is_private_per_thread_in_kernel():
    src = """
gpu.module @k {
  gpu.func @f(%o: memref<64xindex>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %p = memref.alloca() : memref<1xindex>
    memref.store %t, %p[%c0] : memref<1xindex>
    gpu.barrier
    %x = memref.load %p[%c0] : memref<1xindex>
    memref.store %x, %o[%t] : memref<64xindex>
    gpu.return
  }
}"""
    o = np.zeros(64, np.int64)
    tileir.gpu.launch(tileir.parse(src), "k::f", grid=(1, 1, 1), block=(64, 1, 1), args=[o])
    np.testing.assert_array_equal(o, np.arange(64))


def test_kernel_per_lane_subview_and_dynamic_shared_view():
    src = """
gpu.module @k {
  gpu.func @f(%a: memref<64xf32>, %o: memref<16xf32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %off = arith.muli %t, %c4 : index
    %s = memref.subview %a[%off] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
    %x = memref.load %s[%c1] : memref<4xf32, strided<[1], offset: ?>>
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %sh = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %x, %sh[%t] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c15 = arith.constant 15 : index
    %r = arith.subi %c15, %t : index
    %y = memref.load %sh[%r] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %y, %o[%t] : memref<16xf32>
    gpu.return
  }
}"""
    a = np.arange(64, dtype=np.float32)
    o = np.zeros(16, np.float32)
    tileir.gpu.launch(tileir.parse(src), "k::f", grid=(1, 1, 1), block=(16, 1, 1),
                      args=[a, o], dynamic_shared_memory=64)
    np.testing.assert_array_equal(o, (np.arange(16) * 4 + 1)[::-1])


def test_alloca_scope_returns_value():
    src = """
func.func @main(%o: memref<1xf32>) {
  %c0 = arith.constant 0 : index
  %r = memref.alloca_scope -> (f32) {
    %p = memref.alloca() : memref<2xf32>
    %x = arith.constant 4.5 : f32
    memref.store %x, %p[%c0] : memref<2xf32>
    %y = memref.load %p[%c0] : memref<2xf32>
    memref.alloca_scope.return %y : f32
  }
  memref.store %r, %o[%c0] : memref<1xf32>
  return
}"""
    o = np.zeros(1, np.float32)
    run(src, o)
    assert o[0] == 4.5


def test_cast_to_wrong_static_size():
    src = """
func.func @main(%a: memref<?xf32>) {
  %s = memref.cast %a : memref<?xf32> to memref<4xf32>
  return
}"""
    run(src, np.zeros(4, np.float32))
    with pytest.raises(MemoryAccessError, match="cast"):
        run(src, np.zeros(5, np.float32))
