"""The SIMT engine's core: lane spaces, divergence, loops, cf branches, launches, checked memory.

Every kernel here is also valid MLIR 22 (see tests/interop for the mlir-opt check of examples);
results are compared with NumPy computations of what each thread does.
"""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import (ArgumentError, GridError, MemoryAccessError,
                                   UndefinedBehaviorError, UnsupportedError)
from tileir.execute.simt.lanes import Aff, BoxSpace, ListSpace

WG = "#gpu.address_space<workgroup>"


def kernel_module(body: str, args: str, attrs: str = "") -> str:
    return (f"module attributes {{gpu.container_module}} {{\n  gpu.module @m {{\n"
            f"    gpu.func @k({args}) {attrs} kernel {{\n{body}\n      gpu.return\n    }}\n"
            f"  }}\n}}\n")


IDS = """
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %t0 = arith.muli %bid, %bdim : index
      %i = arith.addi %t0, %tid : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
"""


# -- lanes ----------------------------------------------------------------------------------------

def test_aff_materialize_and_range():
    space = BoxSpace((0,) * 6, (1, 1, 3, 1, 1, 4))
    a = Aff(5, (0, 0, 4, 0, 0, 1), np.int64)
    arr = a.materialize(space)
    assert arr.shape == (1, 1, 3, 1, 1, 4)
    np.testing.assert_array_equal(arr.reshape(-1), 5 + np.arange(12))
    assert a.value_range(space) == (5, 16)
    assert not Aff(2 ** 31 - 2, (0, 0, 0, 0, 0, 1), np.int32).fits(space)


def test_box_and_list_restriction():
    space = BoxSpace((0,) * 6, (1, 1, 2, 1, 1, 8))
    tid = np.arange(8).reshape(1, 1, 1, 1, 1, 8)
    box = space.restrict(tid < 3)
    assert isinstance(box, BoxSpace) and box.shape == (1, 1, 2, 1, 1, 3)
    odd = space.restrict(tid % 2 == 1)
    assert isinstance(odd, ListSpace) and odd.shape == (8,)
    value = np.arange(16).reshape(1, 1, 2, 1, 1, 8)
    np.testing.assert_array_equal(odd.enter(value), [1, 3, 5, 7, 9, 11, 13, 15])
    assert space.restrict(tid < 0) is None and space.restrict(tid >= 0) is space


# -- divergence -----------------------------------------------------------------------------------

def test_if_else_divergent_results_merge():
    body = IDS + """
      %c3 = arith.constant 3 : index
      %odd_bits = arith.constant 1 : index
      %r = arith.remui %i, %c3 : index
      %is0 = arith.cmpi eq, %r, %c0 : index
      %v = scf.if %is0 -> (index) {
        %a = arith.muli %i, %c3 : index
        scf.yield %a : index
      } else {
        %b = arith.addi %i, %c1 : index
        scf.yield %b : index
      }
      memref.store %v, %out[%i] : memref<?xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>"))
    out = np.zeros(200, np.int64)
    gpu.launch(m, "m::k", grid=(4,), block=(50,), args=[out])
    i = np.arange(200)
    np.testing.assert_array_equal(out, np.where(i % 3 == 0, 3 * i, i + 1))


def test_nested_box_then_list_divergence():
    body = IDS + """
      %c16 = arith.constant 16 : index
      %lt = arith.cmpi ult, %tid, %c16 : index
      scf.if %lt {
        %c2 = arith.constant 2 : index
        %r = arith.remui %tid, %c2 : index
        %even = arith.cmpi eq, %r, %c0 : index
        %v = scf.if %even -> (index) {
          scf.yield %tid : index
        } else {
          %n = arith.subi %c0, %tid : index
          scf.yield %n : index
        }
        memref.store %v, %out[%i] : memref<?xindex>
      }
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>"))
    out = np.full(64, 99, np.int64)
    gpu.launch(m, "m::k", grid=(2,), block=(32,), args=[out])
    tid = np.tile(np.arange(32), 2)
    expect = np.where(tid < 16, np.where(tid % 2 == 0, tid, -tid), 99)
    np.testing.assert_array_equal(out, expect)


def test_for_with_per_thread_trip_count_and_iter_args():
    body = IDS + """
      %zero = arith.constant 0 : index
      %s = scf.for %k = %c0 to %tid step %c1 iter_args(%acc = %zero) -> (index) {
        %a = arith.addi %acc, %k : index
        scf.yield %a : index
      }
      memref.store %s, %out[%i] : memref<?xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>"))
    out = np.zeros(96, np.int64)
    gpu.launch(m, "m::k", grid=(3,), block=(32,), args=[out])
    tid = np.tile(np.arange(32), 3)
    np.testing.assert_array_equal(out, tid * (tid - 1) // 2)


def test_while_collatz_steps_per_thread():
    body = IDS + """
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %start = arith.addi %i, %c1 : index
      %res:2 = scf.while (%x = %start, %n = %c0) : (index, index) -> (index, index) {
        %more = arith.cmpi ne, %x, %c1 : index
        scf.condition(%more) %x, %n : index, index
      } do {
      ^bb0(%y: index, %m: index):
        %r = arith.remui %y, %c2 : index
        %ev = arith.cmpi eq, %r, %c0 : index
        %nx = scf.if %ev -> (index) {
          %h = arith.divui %y, %c2 : index
          scf.yield %h : index
        } else {
          %t = arith.muli %y, %c3 : index
          %u = arith.addi %t, %c1 : index
          scf.yield %u : index
        }
        %m1 = arith.addi %m, %c1 : index
        scf.yield %nx, %m1 : index, index
      }
      memref.store %res#1, %out[%i] : memref<?xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>"))
    out = np.zeros(64, np.int64)
    gpu.launch(m, "m::k", grid=(2,), block=(32,), args=[out])

    def steps(x):
        n = 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            n += 1
        return n
    np.testing.assert_array_equal(out, [steps(x) for x in range(1, 65)])


def test_cf_branches_loop_in_kernel():
    body = """
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      cf.br ^loop(%c0, %c0 : index, index)
    ^loop(%k: index, %acc: index):
      %done = arith.cmpi uge, %k, %tid : index
      cf.cond_br %done, ^exit, ^body
    ^body:
      %a = arith.addi %acc, %c1 : index
      %a2 = arith.addi %a, %k : index
      %k1 = arith.addi %k, %c1 : index
      cf.br ^loop(%k1, %a2 : index, index)
    ^exit:
      memref.store %acc, %out[%tid] : memref<?xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>"))
    out = np.zeros(40, np.int64)
    gpu.launch(m, "m::k", grid=(1,), block=(40,), args=[out])
    t = np.arange(40)
    np.testing.assert_array_equal(out, t + t * (t - 1) // 2)


# -- launches -------------------------------------------------------------------------------------

def test_3d_ids_and_chunked_launch_agree():
    body = """
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tz = gpu.thread_id z
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bz = gpu.block_id z
      %gx = gpu.global_id x
      %c10 = arith.constant 10 : index
      %c100 = arith.constant 100 : index
      %a = arith.muli %ty, %c10 : index
      %b = arith.muli %tz, %c100 : index
      %v0 = arith.addi %a, %b : index
      %v = arith.addi %v0, %tx : index
      %w0 = arith.addi %gx, %v : index
      memref.store %w0, %out[%bz, %by, %bx, %tz, %ty, %tx] : memref<2x3x4x2x3x5xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<2x3x4x2x3x5xindex>"))
    full = np.zeros((2, 3, 4, 2, 3, 5), np.int64)
    gpu.launch(m, "m::k", grid=(4, 3, 2), block=(5, 3, 2), args=[full])
    small = np.zeros_like(full)
    gpu.launch(m, "m::k", grid=(4, 3, 2), block=(5, 3, 2), args=[small], max_lanes=60)
    bz, by, bx, tz, ty, tx = np.indices(full.shape)
    np.testing.assert_array_equal(full, bx * 5 + tx + tx + 10 * ty + 100 * tz)
    np.testing.assert_array_equal(small, full)


def test_host_main_launch_func_and_strided_argument():
    text = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scale(%a: memref<?xf32, strided<[?], offset: ?>>, %n: index, %f: f32) kernel {
      %i = gpu.global_id x
      %ok = arith.cmpi slt, %i, %n : index
      scf.if %ok {
        %x = memref.load %a[%i] : memref<?xf32, strided<[?], offset: ?>>
        %y = arith.mulf %x, %f : f32
        memref.store %y, %a[%i] : memref<?xf32, strided<[?], offset: ?>>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<?xf32, strided<[?], offset: ?>>, %n: index, %f: f32) -> index {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @m::@scale blocks in (%c32, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<?xf32, strided<[?], offset: ?>>, %n : index, %f : f32)
    return %n : index
  }
}
"""
    m = tileir.parse(text)
    base = np.arange(2000, dtype=np.float32)
    view = base[::2]
    expect = base.copy()
    expect[::2] *= np.float32(1.5)
    (n,) = gpu.run(m, "main", args=[view, 1000, 1.5])
    assert n == 1000
    np.testing.assert_array_equal(base, expect)


def test_gpu_launch_region_form_captures_host_values():
    text = """
func.func @main(%out: memref<8x4xi32>, %k: i32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %b = arith.index_cast %bx : index to i32
    %t = arith.index_cast %tx : index to i32
    %s = arith.index_cast %sx : index to i32
    %p = arith.muli %b, %s : i32
    %q = arith.addi %p, %t : i32
    %r = arith.muli %q, %k : i32
    memref.store %r, %out[%bx, %tx] : memref<8x4xi32>
    gpu.terminator
  }
  return
}
"""
    out = np.zeros((8, 4), np.int32)
    gpu.run(tileir.parse(text), "main", args=[out, 3])
    np.testing.assert_array_equal(out, 3 * np.arange(32).reshape(8, 4))


# -- checked memory and bad input -----------------------------------------------------------------

def test_out_of_bounds_names_op_block_thread_and_index():
    body = IDS + """
      %x = memref.load %a[%i] : memref<100xf32>
      memref.store %x, %a[%c0] : memref<100xf32>
"""
    m = tileir.parse(kernel_module(body, "%a: memref<100xf32>"), filename="oob.mlir") \
        if "filename" in tileir.parse.__code__.co_varnames else \
        tileir.parse(kernel_module(body, "%a: memref<100xf32>"))
    a = np.zeros(100, np.float32)
    with pytest.raises(MemoryAccessError) as err:
        gpu.launch(m, "m::k", grid=(2,), block=(64,), args=[a])
    text = str(err.value)
    assert "'memref.load'" in text and "index 100 out of bounds" in text
    assert "block (1, 0, 0), thread (36, 0, 0)" in text


def test_partial_barrier_is_reported_not_hung():
    body = IDS + """
      %c8 = arith.constant 8 : index
      %lt = arith.cmpi ult, %tid, %c8 : index
      scf.if %lt {
        gpu.barrier
      }
"""
    m = tileir.parse(kernel_module(body, ""))
    with pytest.raises(UndefinedBehaviorError, match="barrier reached by 8 of the 32 threads"):
        gpu.launch(m, "m::k", grid=(2,), block=(32,), args=[])


def test_block_uniform_branch_around_barrier_is_fine():
    body = IDS + """
      %c1_ = arith.constant 1 : index
      %lt = arith.cmpi ult, %bid, %c1_ : index
      scf.if %lt {
        gpu.barrier
        memref.store %tid, %out[%i] : memref<?xindex>
      }
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>"))
    out = np.zeros(64, np.int64)
    gpu.launch(m, "m::k", grid=(2,), block=(32,), args=[out])
    np.testing.assert_array_equal(out[:32], np.arange(32))
    assert not out[32:].any()


def test_workgroup_attribution_is_per_block():
    body = IDS + f"""
      memref.store %i, %sh[%tid] : memref<32xindex, {WG}>
      gpu.barrier
      %c31 = arith.constant 31 : index
      %j = arith.subi %c31, %tid : index
      %v = memref.load %sh[%j] : memref<32xindex, {WG}>
      memref.store %v, %out[%i] : memref<?xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xindex>",
                                   f"workgroup(%sh: memref<32xindex, {WG}>)"))
    out = np.zeros(96, np.int64)
    gpu.launch(m, "m::k", grid=(3,), block=(32,), args=[out])
    np.testing.assert_array_equal(out, np.arange(96).reshape(3, 32)[:, ::-1].reshape(-1))


def test_argument_errors():
    m = tileir.parse(kernel_module(IDS, "%a: memref<4xf32>, %n: i32"))
    with pytest.raises(ArgumentError, match="dimension 0 is 5"):
        gpu.launch(m, "m::k", args=[np.zeros(5, np.float32), 1])
    with pytest.raises(ArgumentError, match="dtype float64"):
        gpu.launch(m, "m::k", args=[np.zeros(4), 1])
    with pytest.raises(ArgumentError, match="takes 2 arguments"):
        gpu.launch(m, "m::k", args=[np.zeros(4, np.float32)])
    with pytest.raises(ArgumentError, match="no gpu.func 'm::nope'"):
        gpu.launch(m, "m::nope", args=[])
    with pytest.raises(ArgumentError, match="does not fit"):
        gpu.launch(m, "m::k", args=[np.zeros(4, np.float32), 2 ** 40])
    with pytest.raises(GridError):
        gpu.launch(m, "m::k", grid=(0,), args=[np.zeros(4, np.float32), 1])
    with pytest.raises(GridError, match="1024"):
        gpu.launch(m, "m::k", block=(64, 32), args=[np.zeros(4, np.float32), 1])


def test_unsupported_op_is_reported_before_running():
    text = kernel_module('      "test.unknown"() : () -> ()', "")
    m = tileir.parse(text, allow_unregistered=True) \
        if "allow_unregistered" in tileir.parse.__code__.co_varnames else None
    if m is None:
        pytest.skip("parse has no allow_unregistered option")
    with pytest.raises(UnsupportedError, match="test.unknown"):
        gpu.launch(m, "m::k", args=[])


def test_cf_diamond_reconverges_before_barrier():
    body = f"""
      %tid = gpu.thread_id x
      %c16 = arith.constant 16 : index
      %c2 = arith.constant 2 : index
      %lt = arith.cmpi ult, %tid, %c16 : index
      cf.cond_br %lt, ^low, ^high
    ^low:
      %d = arith.muli %tid, %c2 : index
      memref.store %d, %sh[%tid] : memref<32xindex, {WG}>
      cf.br ^join(%d : index)
    ^high:
      memref.store %tid, %sh[%tid] : memref<32xindex, {WG}>
      cf.br ^join(%c16 : index)
    ^join(%x: index):
      gpu.barrier
      %c31 = arith.constant 31 : index
      %j = arith.subi %c31, %tid : index
      %v = memref.load %sh[%j] : memref<32xindex, {WG}>
      %w = arith.addi %v, %x : index
      %w2 = arith.addi %w, %lt2 : index
      memref.store %w2, %out[%tid] : memref<32xindex>
"""
    body = body.replace("%w2 = arith.addi %w, %lt2 : index", "%w2 = arith.addi %w, %c2 : index")
    m = tileir.parse(kernel_module(body, "%out: memref<32xindex>",
                                   f"workgroup(%sh: memref<32xindex, {WG}>)"))
    out = np.zeros(32, np.int64)
    gpu.launch(m, "m::k", grid=(1,), block=(32,), args=[out])
    t = np.arange(32)
    sh = np.where(t < 16, 2 * t, t)
    x = np.where(t < 16, 2 * t, 16)
    np.testing.assert_array_equal(out, sh[31 - t] + x + 2)


def test_grid_stride_loop():
    body = """
      %i0 = gpu.global_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %stride = arith.muli %bdim, %gdim : index
      scf.for %i = %i0 to %n step %stride {
        %x = memref.load %a[%i] : memref<?xf32>
        %y = arith.addf %x, %x : f32
        memref.store %y, %b[%i] : memref<?xf32>
      }
"""
    m = tileir.parse(kernel_module(body, "%a: memref<?xf32>, %b: memref<?xf32>, %n: index"))
    for n in (1000, 4096, 5):
        a = np.random.default_rng(n).random(n, dtype=np.float32)
        b = np.zeros(n, np.float32)
        gpu.launch(m, "m::k", grid=(4,), block=(64,), args=[a, b, n])
        np.testing.assert_array_equal(b, a + a)


def test_cf_value_live_through_blocks_that_do_not_use_it():
    body = """
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      cf.br ^a
    ^a:
      %x = arith.addi %tid, %c1 : index
      cf.br ^b
    ^b:
      %odd = arith.trunci %tid : index to i1
      cf.cond_br %odd, ^c, ^d
    ^c:
      memref.store %x, %out[%tid] : memref<32xindex>
      cf.br ^d
    ^d:
      gpu.barrier
"""
    body = body.replace("%odd = arith.trunci %tid : index to i1",
                        "%c2 = arith.constant 2 : index\n      %r = arith.remui %tid, %c2 : index\n"
                        "      %odd = arith.cmpi ne, %r, %c1 : index")
    m = tileir.parse(kernel_module(body, "%out: memref<32xindex>"))
    out = np.zeros(32, np.int64)
    gpu.launch(m, "m::k", grid=(1,), block=(32,), args=[out])
    t = np.arange(32)
    np.testing.assert_array_equal(out, np.where(t % 2 != 1, t + 1, 0))


def test_subgroup_and_cluster_ids():
    body = """
      %lin = gpu.global_id x
      %lane = gpu.lane_id
      %sg = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %sgs = gpu.subgroup_size : index
      %cid = gpu.cluster_id x
      %cbid = gpu.cluster_block_id x
      %cdim = gpu.cluster_dim x
      %cdb = gpu.cluster_dim_blocks x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %c7 = arith.constant 7 : index
      memref.store %lane, %out[%lin, %c0] : memref<192x8xindex>
      memref.store %sg, %out[%lin, %c1] : memref<192x8xindex>
      memref.store %nsg, %out[%lin, %c2] : memref<192x8xindex>
      memref.store %sgs, %out[%lin, %c3] : memref<192x8xindex>
      memref.store %cid, %out[%lin, %c4] : memref<192x8xindex>
      memref.store %cbid, %out[%lin, %c5] : memref<192x8xindex>
      memref.store %cdim, %out[%lin, %c6] : memref<192x8xindex>
      memref.store %cdb, %out[%lin, %c7] : memref<192x8xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<192x8xindex>"))
    out = np.zeros((192, 8), np.int64)
    gpu.launch(m, "m::k", grid=(4,), block=(48,), args=[out], cluster=(2,))
    t = np.arange(192) % 48
    b = np.arange(192) // 48
    np.testing.assert_array_equal(out[:, 0], t % 32)
    np.testing.assert_array_equal(out[:, 1], t // 32)
    np.testing.assert_array_equal(out[:, 2], 2)
    np.testing.assert_array_equal(out[:, 3], 32)
    np.testing.assert_array_equal(out[:, 4], b // 2)
    np.testing.assert_array_equal(out[:, 5], b % 2)
    np.testing.assert_array_equal(out[:, 6], 2)
    np.testing.assert_array_equal(out[:, 7], 2)


def test_upper_bound_violation_is_reported():
    body = """
      %t = gpu.thread_id x upper_bound 16
      memref.store %t, %out[%t] : memref<64xindex>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<64xindex>"))
    gpu.launch(m, "m::k", grid=(1,), block=(16,), args=[np.zeros(64, np.int64)])
    with pytest.raises(UndefinedBehaviorError, match="upper_bound 16"):
        gpu.launch(m, "m::k", grid=(1,), block=(17,), args=[np.zeros(64, np.int64)])


def test_kernel_in_a_gpu_binary_is_reported():
    text = """
module attributes {gpu.container_module} {
  gpu.binary @bin [#gpu.object<#nvvm.target, "BLOB">]
  func.func @main() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @bin::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
"""
    with pytest.raises(UnsupportedError, match="gpu.binary @bin"):
        gpu.run(tileir.parse(text), "main", args=[])
