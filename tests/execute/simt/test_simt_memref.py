"""memref ops on the host and in kernels: descriptors, allocation, globals, copies, atomics."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import MemoryAccessError, UndefinedBehaviorError

WG = "#gpu.address_space<workgroup>"


def host(text: str, args: list):
    return gpu.run(tileir.parse(text), "main", args=args)


def kernel(body: str, params: str, grid, block, args, attrs: str = "", **kw):
    text = (f"module attributes {{gpu.container_module}} {{\n  gpu.module @m {{\n"
            f"    gpu.func @k({params}) {attrs} kernel {{\n{body}\n      gpu.return\n    }}\n"
            f"  }}\n}}\n")
    gpu.launch(tileir.parse(text), "m::k", grid=grid, block=block, args=args, **kw)


def test_subview_reinterpret_expand_collapse_transpose_on_host():
    text = """
func.func @main(%m: memref<6x8xf32>, %out: memref<3x2xf32>, %t: memref<8x6xf32>,
                %flat: memref<48xf32>, %i: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[%i, 1] [3, 2] [2, 3] : memref<6x8xf32> to memref<3x2xf32, strided<[16, 3], offset: ?>>
  memref.copy %s, %out : memref<3x2xf32, strided<[16, 3], offset: ?>> to memref<3x2xf32>
  %tr = memref.transpose %m (i, j) -> (j, i) : memref<6x8xf32> to memref<8x6xf32, strided<[1, 8]>>
  memref.copy %tr, %t : memref<8x6xf32, strided<[1, 8]>> to memref<8x6xf32>
  %c = memref.collapse_shape %m [[0, 1]] : memref<6x8xf32> into memref<48xf32>
  memref.copy %c, %flat : memref<48xf32> to memref<48xf32>
  %e = memref.expand_shape %flat [[0, 1, 2]] output_shape [2, 3, 8] : memref<48xf32> into memref<2x3x8xf32>
  %v = memref.load %e[%c1, %c1, %c1] : memref<2x3x8xf32>
  %r = memref.reinterpret_cast %flat to offset: [%c1], sizes: [4, 4], strides: [10, 1] : memref<48xf32> to memref<4x4xf32, strided<[10, 1], offset: ?>>
  %w = memref.load %r[%c1, %c1] : memref<4x4xf32, strided<[10, 1], offset: ?>>
  %k = arith.fptosi %v : f32 to i32
  %k2 = arith.fptosi %w : f32 to i32
  %a = arith.index_cast %k : i32 to index
  %b = arith.index_cast %k2 : i32 to index
  return %a, %b : index, index
}
"""
    m = np.arange(48, dtype=np.float32).reshape(6, 8)
    out = np.zeros((3, 2), np.float32)
    t = np.zeros((8, 6), np.float32)
    flat = np.zeros(48, np.float32)
    a, b = host(text, [m, out, t, flat, 1])
    np.testing.assert_array_equal(out, m[1:6:2, 1:6:3])
    np.testing.assert_array_equal(t, m.T)
    np.testing.assert_array_equal(flat, m.reshape(-1))
    assert a == 1 * 24 + 1 * 8 + 1 and b == 1 + 10 + 1


def test_subview_out_of_bounds_and_cast_mismatch_are_errors():
    text = """
func.func @main(%m: memref<6x8xf32>, %i: index) {
  %s = memref.subview %m[%i, 0] [3, 2] [2, 1] : memref<6x8xf32> to memref<3x2xf32, strided<[16, 1], offset: ?>>
  return
}
"""
    host(text, [np.zeros((6, 8), np.float32), 1])
    with pytest.raises(MemoryAccessError, match="subview dimension 0"):
        host(text, [np.zeros((6, 8), np.float32), 2])
    cast = """
func.func @main(%m: memref<?xf32>) {
  %c = memref.cast %m : memref<?xf32> to memref<4xf32>
  return
}
"""
    host(cast, [np.zeros(4, np.float32)])
    with pytest.raises(MemoryAccessError, match="dimension 0 has size 5"):
        host(cast, [np.zeros(5, np.float32)])


def test_alloc_dealloc_and_use_after_free():
    text = """
func.func @main(%n: index) -> memref<?xi32> {
  %a = memref.alloc(%n) : memref<?xi32>
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : i32
  memref.store %c7, %a[%c0] : memref<?xi32>
  %d = memref.dim %a, %c0 : memref<?xi32>
  %di = arith.index_cast %d : index to i32
  %c1 = arith.constant 1 : index
  memref.store %di, %a[%c1] : memref<?xi32>
  return %a : memref<?xi32>
}
"""
    (arr,) = host(text, [3])
    np.testing.assert_array_equal(arr, [7, 3, 0])
    uaf = """
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  return
}
"""
    with pytest.raises(MemoryAccessError, match="deallocated"):
        host(uaf, [])


def test_globals_constant_and_mutable_across_launches():
    text = """
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 4.0, 8.0]>
  memref.global "private" @counter : memref<1xi32> = dense<0>
  func.func @main(%out: memref<4xf32>) -> i32 {
    %t = memref.get_global @table : memref<4xf32>
    %g = memref.get_global @counter : memref<1xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %v = memref.load %t[%i] : memref<4xf32>
      memref.store %v, %out[%i] : memref<4xf32>
      %n = memref.load %g[%c0] : memref<1xi32>
      %one = arith.constant 1 : i32
      %n1 = arith.addi %n, %one : i32
      memref.store %n1, %g[%c0] : memref<1xi32>
    }
    %r = memref.load %g[%c0] : memref<1xi32>
    return %r : i32
  }
  func.func @bad() {
    %t = memref.get_global @table : memref<4xf32>
    %c0 = arith.constant 0 : index
    %z = arith.constant 0.0 : f32
    memref.store %z, %t[%c0] : memref<4xf32>
    return
  }
}
"""
    prog = gpu.Program(tileir.parse(text))
    out = np.zeros(4, np.float32)
    assert gpu.run(prog, "main", args=[out]) == [4]
    assert gpu.run(prog, "main", args=[out]) == [8]    # the global lives with the Program
    np.testing.assert_array_equal(out, [1, 2, 4, 8])
    with pytest.raises(MemoryAccessError, match="read-only"):
        gpu.run(prog, "bad", args=[])


def test_per_thread_subview_and_private_alloca_in_kernel():
    body = """
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c4 = arith.constant 4 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %row = arith.muli %bid, %c4 : index
      %r = arith.addi %row, %tid : index
      %sv = memref.subview %m[%r, 0] [1, 8] [1, 1] : memref<16x8xf32> to memref<8xf32, strided<[1], offset: ?>>
      %p = memref.alloca() : memref<8xf32>
      %c8 = arith.constant 8 : index
      scf.for %j = %c0 to %c8 step %c1 {
        %x = memref.load %sv[%j] : memref<8xf32, strided<[1], offset: ?>>
        %c7 = arith.constant 7 : index
        %rj = arith.subi %c7, %j : index
        memref.store %x, %p[%rj] : memref<8xf32>
      }
      scf.for %j = %c0 to %c8 step %c1 {
        %y = memref.load %p[%j] : memref<8xf32>
        memref.store %y, %sv[%j] : memref<8xf32, strided<[1], offset: ?>>
      }
"""
    m = np.arange(128, dtype=np.float32).reshape(16, 8)
    expect = m[:, ::-1].copy()
    kernel(body, "%m: memref<16x8xf32>", (4,), (4,), [m])
    np.testing.assert_array_equal(m, expect)


def test_view_of_dynamic_shared_memory():
    body = f"""
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, {WG}>
      %f = memref.view %dyn[%c0][] : memref<?xi8, {WG}> to memref<16xf32, {WG}>
      %g = memref.view %dyn[%c64][] : memref<?xi8, {WG}> to memref<16xi32, {WG}>
      %x = memref.load %a[%tid] : memref<16xf32>
      memref.store %x, %f[%tid] : memref<16xf32, {WG}>
      %i = arith.fptosi %x : f32 to i32
      memref.store %i, %g[%tid] : memref<16xi32, {WG}>
      gpu.barrier
      %c15 = arith.constant 15 : index
      %j = arith.subi %c15, %tid : index
      %y = memref.load %f[%j] : memref<16xf32, {WG}>
      %k = memref.load %g[%j] : memref<16xi32, {WG}>
      %kf = arith.sitofp %k : i32 to f32
      %z = arith.addf %y, %kf : f32
      memref.store %z, %b[%tid] : memref<16xf32>
"""
    a = np.arange(16, dtype=np.float32) * 2
    b = np.zeros(16, np.float32)
    kernel(body, "%a: memref<16xf32>, %b: memref<16xf32>", (1,), (16,), [a, b],
           dynamic_shared_memory=128)
    np.testing.assert_array_equal(b, 2 * a[::-1])


def test_atomic_rmw_histogram_and_float_order_across_blocks():
    body = """
      %i = gpu.global_id x
      %x = memref.load %data[%i] : memref<4096xi32>
      %c8 = arith.constant 8 : i32
      %bin32 = arith.remui %x, %c8 : i32
      %bin = arith.index_cast %bin32 : i32 to index
      %one = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %one, %hist[%bin] : (i32, memref<8xi32>) -> i32
      memref.store %old, %olds[%i] : memref<4096xi32>
      %f = memref.load %vals[%i] : memref<4096xf32>
      %c0 = arith.constant 0 : index
      %o2 = memref.atomic_rmw addf %f, %acc[%c0] : (f32, memref<1xf32>) -> f32
      %m = memref.atomic_rmw maxs %x, %mx[%c0] : (i32, memref<1xi32>) -> i32
"""
    rng = np.random.default_rng(3)
    data = rng.integers(0, 1000, 4096).astype(np.int32)
    vals = (rng.standard_normal(4096) * 1e3).astype(np.float32)
    hist = np.zeros(8, np.int32)
    olds = np.zeros(4096, np.int32)
    acc = np.zeros(1, np.float32)
    mx = np.full(1, -5, np.int32)
    kernel(body, "%data: memref<4096xi32>, %hist: memref<8xi32>, %olds: memref<4096xi32>, "
           "%vals: memref<4096xf32>, %acc: memref<1xf32>, %mx: memref<1xi32>", (16,), (256,),
           [data, hist, olds, vals, acc, mx])
    np.testing.assert_array_equal(hist, np.bincount(data % 8, minlength=8))
    # each lane saw the count of earlier lanes (thread order) in its bin
    for b in range(8):
        lanes = np.flatnonzero(data % 8 == b)
        np.testing.assert_array_equal(olds[lanes], np.arange(lanes.size))
    seq = np.float32(0)
    for v in vals:
        seq = np.float32(seq + v)
    assert acc[0] == seq and mx[0] == data.max()


def test_generic_atomic_rmw_sequential_per_element():
    body = """
      %i = gpu.global_id x
      %c4 = arith.constant 4 : index
      %slot = arith.remui %i, %c4 : index
      %x = memref.load %v[%i] : memref<64xf32>
      %old = memref.generic_atomic_rmw %acc[%slot] : memref<4xf32> {
      ^bb0(%cur: f32):
        %two = arith.constant 2.0 : f32
        %t = arith.mulf %cur, %two : f32
        %n = arith.addf %t, %x : f32
        memref.atomic_yield %n : f32
      }
      memref.store %old, %olds[%i] : memref<64xf32>
"""
    v = np.arange(64, dtype=np.float32) / 8
    acc = np.ones(4, np.float32)
    olds = np.zeros(64, np.float32)
    kernel(body, "%v: memref<64xf32>, %acc: memref<4xf32>, %olds: memref<64xf32>", (2,), (32,),
           [v, acc, olds])
    for s in range(4):
        cur = np.float32(1)
        for i in range(s, 64, 4):
            assert olds[i] == cur
            cur = np.float32(np.float32(cur * 2) + v[i])
        assert acc[s] == cur


def test_extract_strided_metadata_and_rank():
    text = """
func.func @main(%m: memref<5x7xf32, strided<[?, ?], offset: ?>>) -> (index, index, index, index, index, index) {
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %m : memref<5x7xf32, strided<[?, ?], offset: ?>> -> memref<f32>, index, index, index, index, index
  %r = memref.rank %m : memref<5x7xf32, strided<[?, ?], offset: ?>>
  return %off, %sz#0, %sz#1, %st#0, %st#1, %r : index, index, index, index, index, index
}
"""
    base = np.zeros((10, 21), np.float32)
    view = base[::2, ::3]
    assert host(text, [view]) == [0, 5, 7, 42, 3, 2]


def test_store_through_out_of_bounds_index_in_kernel_names_thread():
    body = """
      %tid = gpu.thread_id x
      %c3 = arith.constant 3 : index
      %j = arith.muli %tid, %c3 : index
      %x = arith.constant 1.0 : f32
      memref.store %x, %a[%j] : memref<10xf32>
"""
    with pytest.raises(MemoryAccessError, match=r"index 12 out of bounds.*thread \(4, 0, 0\)"):
        kernel(body, "%a: memref<10xf32>", (1,), (8,), [np.zeros(10, np.float32)])
    with pytest.raises(UndefinedBehaviorError):
        host("""
func.func @main(%m: memref<4xf32>) -> index {
  %c9 = arith.constant 9 : index
  %d = memref.dim %m, %c9 : memref<4xf32>
  return %d : index
}""", [np.zeros(4, np.float32)])


def test_alloca_scope_with_results():
    text = """
func.func @main(%x: f32) -> f32 {
  %r = memref.alloca_scope -> (f32) {
    %a = memref.alloca() : memref<1xf32>
    %c0 = arith.constant 0 : index
    memref.store %x, %a[%c0] : memref<1xf32>
    %v = memref.load %a[%c0] : memref<1xf32>
    %w = arith.addf %v, %v : f32
    memref.alloca_scope.return %w : f32
  }
  return %r : f32
}
"""
    assert host(text, [1.25]) == [2.5]
