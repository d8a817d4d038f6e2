"""Host side of the gpu dialect engine, as a demanding user writes it: sparse ops against SciPy,
async tokens, allocation, launches, argument binding and the diagnostics of bad input."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.ir.diagnostics import DiagnosticError
from tileir.execute.errors import (ArgumentError, GridError, MemoryAccessError,
                                   UndefinedBehaviorError, UnsupportedError)

sp = pytest.importorskip("scipy.sparse")


# -- sparse ops -----------------------------------------------------------------------------------

SPMV_CSR_T = """
func.func @main(%rows: index, %cols: index, %nnz: index, %pos: memref<?xi32>,
                %idx: memref<?xi32>, %vals: memref<?xf32>, %x: memref<?xf32>,
                %y: memref<?xf32>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_csr async [%t0] %rows, %cols, %nnz, %pos, %idx, %vals : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %rows : index into memref<?xf32>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %cols : index into memref<?xf32>
  %sz, %t4 = gpu.spmv_buffer_size async [%t3] %A{TRANSPOSE}, %X, %Y into f32
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A{TRANSPOSE}, %X, %Y, %buf : memref<?xi8> into f32
  %t7 = gpu.dealloc async [%t6] %buf : memref<?xi8>
  gpu.wait [%t7]
  return
}
"""


def test_spmv_transposed_csr_with_an_empty_row_is_a_t_x_plus_y():
    rng = np.random.default_rng(0)
    a = sp.random(6, 5, density=0.5, random_state=1, format="lil", dtype=np.float32)
    a[2, :] = 0
    a = a.tocsr()
    a.eliminate_zeros()
    x = rng.standard_normal(6).astype(np.float32)
    y = rng.standard_normal(5).astype(np.float32)
    y0 = y.copy()
    gpu.run(SPMV_CSR_T, "main", args=[6, 5, a.nnz, a.indptr.astype(np.int32),
                                      a.indices.astype(np.int32), a.data, x, y])
    want = (a.T.astype(np.float64) @ x.astype(np.float64) + y0).astype(np.float32)
    np.testing.assert_array_equal(y, want)


SPMM_COO_TT = """
func.func @main(%rows: index, %cols: index, %nnz: index, %ri: memref<?xi64>, %ci: memref<?xi64>,
                %vals: memref<?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %n: index) {
  %A, %t1 = gpu.create_coo async [] %rows, %cols, %nnz, %ri, %ci, %vals : memref<?xi64>, memref<?xi64>, memref<?xf64>
  %B, %t2 = gpu.create_dn_tensor async [%t1] %b, %n, %rows : index, index into memref<?x?xf64>
  %C, %t3 = gpu.create_dn_tensor async [%t2] %c, %cols, %n : index, index into memref<?x?xf64>
  %sz, %t4 = gpu.spmm_buffer_size async [%t3] %A{TRANSPOSE}, %B{TRANSPOSE}, %C : index into f64
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmm async [%t5] %A{TRANSPOSE}, %B{TRANSPOSE}, %C, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}
"""


def test_spmm_of_unsorted_coo_with_both_operands_transposed():
    rng = np.random.default_rng(3)
    a = sp.random(6, 5, density=0.5, random_state=3, format="coo")
    perm = rng.permutation(a.nnz)
    n = 3
    b = rng.standard_normal((n, 6))
    c = rng.standard_normal((5, n))
    c0 = c.copy()
    gpu.run(SPMM_COO_TT, "main", args=[6, 5, a.nnz, a.row[perm].astype(np.int64),
                                       a.col[perm].astype(np.int64), a.data[perm], b, c, n])
    np.testing.assert_allclose(c, a.T @ b.T + c0, rtol=1e-13, atol=1e-13)


SPMV_COO = """
func.func @main(%rows: index, %cols: index, %nnz: index, %ri: memref<?xi32>, %ci: memref<?xi32>,
                %vals: memref<?xf64>, %x: memref<?xf64>, %y: memref<?xf64>) {
  %A, %t1 = gpu.create_coo async [] %rows, %cols, %nnz, %ri, %ci, %vals : memref<?xi32>, memref<?xi32>, memref<?xf64>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf64>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows : index into memref<?xf64>
  %buf, %t5 = gpu.alloc async [%t3] (%rows) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A, %X, %Y, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}
"""


def test_sparse_nnz_past_the_arrays_or_negative_is_reported():
    a = sp.random(5, 4, density=0.5, random_state=1, format="coo")
    r, c = a.row.astype(np.int32), a.col.astype(np.int32)
    x, y = np.arange(4.0), np.ones(5)
    gpu.run(SPMV_COO, "main", args=[5, 4, a.nnz, r, c, a.data, x, y])
    np.testing.assert_allclose(y, a @ np.arange(4.0) + 1, rtol=1e-14)
    y = np.ones(5)
    # cuSPARSE would read 3 elements past each array: silently using the 10 there was wrong
    with pytest.raises(MemoryAccessError, match="needs 13 elements but its memref holds 10"):
        gpu.run(SPMV_COO, "main", args=[5, 4, a.nnz + 3, r, c, a.data, x, y])
    with pytest.raises(MemoryAccessError, match="negative size"):
        gpu.run(SPMV_COO, "main", args=[5, 4, -1, r, c, a.data, x, y])
    np.testing.assert_array_equal(y, np.ones(5))


SPMV_SPMM_RANKS = """
func.func @spmv(%rows: index, %cols: index, %nnz: index, %pos: memref<?xi32>, %idx: memref<?xi32>,
                %vals: memref<?xf64>, %x: memref<?xf64>, %y: memref<?xf64>, %c1: index) {
  %A, %t1 = gpu.create_csr async [] %rows, %cols, %nnz, %pos, %idx, %vals : memref<?xi32>, memref<?xi32>, memref<?xf64>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf64>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows, %c1 : index, index into memref<?xf64>
  %buf, %t5 = gpu.alloc async [%t3] (%c1) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A, %X, %Y, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}
func.func @spmm(%rows: index, %cols: index, %nnz: index, %pos: memref<?xi32>, %idx: memref<?xi32>,
                %vals: memref<?xf64>, %x: memref<?xf64>, %y: memref<?xf64>, %c1: index) {
  %A, %t1 = gpu.create_csr async [] %rows, %cols, %nnz, %pos, %idx, %vals : memref<?xi32>, memref<?xi32>, memref<?xf64>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf64>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows, %c1 : index, index into memref<?xf64>
  %buf, %t5 = gpu.alloc async [%t3] (%c1) : memref<?xi8>
  %t6 = gpu.spmm async [%t5] %A, %X, %Y, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}
"""


def test_spmv_takes_dense_vectors_and_spmm_dense_matrices():
    a = sp.random(5, 4, density=0.5, random_state=1, format="csr")
    args = [5, 4, a.nnz, a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data,
            np.arange(4.0), np.ones(5), 1]
    # (a 5x1 dense matrix for y was a raw NumPy broadcasting ValueError)
    with pytest.raises(UnsupportedError, match="y must be a dense vector .* 5x1"):
        gpu.run(SPMV_SPMM_RANKS, "spmv", args=args)
    with pytest.raises(UnsupportedError, match="B must be a dense matrix .* got dimensions 4"):
        gpu.run(SPMV_SPMM_RANKS, "spmm", args=args)
    np.testing.assert_array_equal(args[7], np.ones(5))


SDDMM_T = """
func.func @main(%m: index, %k: index, %n: index, %nnz: index, %a: memref<?xf64>,
                %b: memref<?xf64>, %pos: memref<?xi32>, %idx: memref<?xi32>, %vals: memref<?xf64>) {
  %A, %t1 = gpu.create_dn_tensor async [] %a, %k, %m : index, index into memref<?xf64>
  %B, %t2 = gpu.create_dn_tensor async [%t1] %b, %n, %k : index, index into memref<?xf64>
  %C, %t3 = gpu.create_csr async [%t2] %m, %n, %nnz, %pos, %idx, %vals : memref<?xi32>, memref<?xi32>, memref<?xf64>
  %sz, %t4 = gpu.sddmm_buffer_size async [%t3] %A{TRANSPOSE}, %B{TRANSPOSE}, %C into f64
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.sddmm async [%t5] %A{TRANSPOSE}, %B{TRANSPOSE}, %C, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}
"""


def test_sddmm_transposed_operands_and_a_short_position_array():
    rng = np.random.default_rng(2)
    m, k, n = 4, 3, 5
    a, b = rng.standard_normal((k, m)), rng.standard_normal((n, k))
    c = sp.random(m, n, density=0.5, random_state=2, format="csr")
    vals = c.data.copy()
    pos, idx = c.indptr.astype(np.int32), c.indices.astype(np.int32)
    gpu.run(SDDMM_T, "main", args=[m, k, n, c.nnz, a.reshape(-1), b.reshape(-1), pos, idx, vals])
    rows = np.repeat(np.arange(m), np.diff(c.indptr))
    np.testing.assert_allclose(vals, (a.T @ b.T)[rows, c.indices] + c.data, rtol=1e-14)
    with pytest.raises(MemoryAccessError, match="position array needs 5 elements"):
        gpu.run(SDDMM_T, "main", args=[m, k, n, c.nnz, a.reshape(-1), b.reshape(-1), pos[:3],
                                       idx, vals])


SPMM_24 = """
func.func @main(%m: index, %k: index, %n: index, %a: memref<?xf32>, %b: memref<?xf32>,
                %c: memref<?xf32>) {
  %A, %t1 = gpu.create_2to4_spmat async [] {PRUNE_AND_CHECK} %m, %k, %a : memref<?xf32>
  %B, %t2 = gpu.create_dn_tensor async [%t1] %b, %k, %n : index, index into memref<?xf32>
  %C, %t3 = gpu.create_dn_tensor async [%t2] %c, %m, %n : index, index into memref<?xf32>
  %s1, %s2, %s3, %t4 = gpu.spmm_buffer_size async [%t3] %A, %B, %C : index, index, index into f32
  %b1, %t5 = gpu.alloc async [%t4] (%s1) : memref<?xi8>
  %b2, %t6 = gpu.alloc async [%t5] (%s2) : memref<?xi8>
  %b3, %t7 = gpu.alloc async [%t6] (%s3) : memref<?xi8>
  %t8 = gpu.spmm async [%t7] %A, %B, %C, %b1, %b2, %b3 : memref<?xi8>, memref<?xi8>, memref<?xi8> into f32
  gpu.wait [%t8]
  return
}
"""


def test_2to4_matrix_over_a_longer_memref_prunes_its_leading_elements():
    rng = np.random.default_rng(4)
    m, k, n = 2, 8, 3
    a = rng.standard_normal(m * k + 4).astype(np.float32)
    b = rng.standard_normal(k * n).astype(np.float32)
    c = np.zeros(m * n, np.float32)
    a0 = a.copy()
    gpu.run(SPMM_24, "main", args=[m, k, n, a, b, c])      # (was a raw reshape ValueError)
    groups = a0[:m * k].reshape(m, k // 4, 4)
    keep = np.zeros(groups.shape, bool)
    np.put_along_axis(keep, np.argsort(-np.abs(groups), axis=-1, kind="stable")[..., :2],
                      True, -1)
    pruned = np.where(keep, groups, 0).reshape(m, k)
    np.testing.assert_array_equal(a[:m * k].reshape(m, k), pruned)
    np.testing.assert_array_equal(a[m * k:], a0[m * k:])
    want = (pruned.astype(np.float64) @ b.reshape(k, n).astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(c.reshape(m, n), want)
    with pytest.raises(MemoryAccessError, match="shape \\(2, 8\\) over a memref of 12"):
        gpu.run(SPMM_24, "main", args=[m, k, n, a[:12].copy(), b, c])


SPGEMM = """
func.func @main(%m: index, %k: index, %n: index,
                %apos: memref<?xi32>, %aidx: memref<?xi32>, %avals: memref<?xf32>, %annz: index,
                %bpos: memref<?xi32>, %bidx: memref<?xi32>, %bvals: memref<?xf32>, %bnnz: index,
                %cpos: memref<?xi32>, %cm: index, %cn: index) -> (index, memref<?xi32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %A, %t1 = gpu.create_csr async [] %m, %k, %annz, %apos, %aidx, %avals : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %B, %t2 = gpu.create_csr async [%t1] %k, %n, %bnnz, %bpos, %bidx, %bvals : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %e0 = memref.alloc() : memref<0xi32>
  %ecast = memref.cast %e0 : memref<0xi32> to memref<?xi32>
  %f0 = memref.alloc() : memref<0xf32>
  %fcast = memref.cast %f0 : memref<0xf32> to memref<?xf32>
  %C, %t3 = gpu.create_csr async [%t2] %cm, %cn, %c0, %cpos, %ecast, %fcast : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %desc, %t4 = gpu.spgemm_create_descr async [%t3]
  %buf = memref.alloc() : memref<0xi8>
  %bufc = memref.cast %buf : memref<0xi8> to memref<?xi8>
  %sz1, %t5 = gpu.spgemm_work_estimation_or_compute async [%t4] {WORK_ESTIMATION} %A, %B, %C, %desc, %c0, %bufc : f32 into memref<?xi8>
  %sz2, %t6 = gpu.spgemm_work_estimation_or_compute async [%t5] {COMPUTE} %A, %B, %C, %desc, %c0, %bufc : f32 into memref<?xi8>
  %rows, %cols, %nnz, %t7 = gpu.spmat_get_size async [%t6] %C
  %ci = memref.alloc(%nnz) : memref<?xi32>
  %cv = memref.alloc(%nnz) : memref<?xf32>
  %t8 = gpu.set_csr_pointers async [%t7] %C, %cpos, %ci, %cv : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %t9 = gpu.spgemm_copy async [%t8] %A, %B, %C, %desc : f32
  %t10 = gpu.spgemm_destroy_descr async [%t9] %desc
  gpu.wait [%t10]
  return %nnz, %ci, %cv : index, memref<?xi32>, memref<?xf32>
}
"""


def test_spgemm_checks_the_shape_of_c():
    a = sp.random(4, 3, density=0.5, random_state=1, format="csr", dtype=np.float32)
    b = sp.random(3, 5, density=0.5, random_state=2, format="csr", dtype=np.float32)

    def args(cm, cn, cpos):
        return [4, 3, 5, a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data, a.nnz,
                b.indptr.astype(np.int32), b.indices.astype(np.int32), b.data, b.nnz, cpos, cm,
                cn]
    cpos = np.zeros(5, np.int32)
    nnz, ci, cv = gpu.run(SPGEMM, "main", args=args(4, 5, cpos))
    want = (a.astype(np.float64) @ b.astype(np.float64)).tocsr()
    want.sort_indices()
    assert nnz == want.nnz
    np.testing.assert_array_equal(cpos, want.indptr)
    np.testing.assert_array_equal(ci, want.indices)
    np.testing.assert_array_equal(cv, want.data.astype(np.float32))
    # C declared 5x4 for a 4x5 product: cuSPARSE refuses it; it was silently reshaped
    with pytest.raises(UnsupportedError, match="C is 5x4"):
        gpu.run(SPGEMM, "main", args=args(5, 4, np.zeros(6, np.int32)))


# -- memory and async tokens ----------------------------------------------------------------------

def test_memref_dealloc_of_device_memory_is_an_error():
    src = """
func.func @main() {
  %d = gpu.alloc () : memref<4xf32>
  memref.dealloc %d : memref<4xf32>
  return
}"""
    with pytest.raises(MemoryAccessError, match="freed with gpu.dealloc"):
        gpu.run(src, "main")


def test_returning_while_an_async_op_still_writes_an_argument_is_reported():
    src = """
func.func @main(%a: memref<4xf32>, %v: f32, %wait: i1) {
  %t = gpu.memset async %a, %v : memref<4xf32>, f32
  scf.if %wait {
    gpu.wait [%t]
  }
  return
}"""
    a = np.zeros(4, np.float32)
    gpu.run(src, "main", args=[a, 2.5, True])
    np.testing.assert_array_equal(a, np.full(4, 2.5, np.float32))
    with pytest.raises(UndefinedBehaviorError,
                       match="returns while the async 'gpu.memset' .* still writes argument #0"):
        gpu.run(src, "main", args=[a, 1.0, False])


def test_inline_launch_reading_a_buffer_of_a_pending_copy_is_reported():
    src = """
func.func @main(%h: memref<8xf32>, %o: memref<8xf32>, %ok: i1) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %d, %t1 = gpu.alloc async () : memref<8xf32>
  %t2 = gpu.memcpy async [%t1] %d, %h : memref<8xf32>, memref<8xf32>
  %dep = arith.select %ok, %t2, %t1 : !gpu.async.token
  %t3 = gpu.launch async [%dep] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
      threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%tx] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %o[%tx] : memref<8xf32>
    gpu.terminator
  }
  gpu.wait [%t3, %t2]
  return
}"""
    h = np.arange(8, dtype=np.float32)
    o = np.zeros(8, np.float32)
    gpu.run(src, "main", args=[h, o, True])
    np.testing.assert_array_equal(o, 2 * h)
    # the launch only reads %d: it used to be checked only for buffers it writes
    with pytest.raises(UndefinedBehaviorError, match="still being written by 'gpu.memcpy'"):
        gpu.run(src, "main", args=[h, o, False])


def test_huge_allocations_are_diagnosed_not_wrapped_or_memoryerror():
    src = """
func.func @one(%n: index) {
  %d = gpu.alloc (%n) : memref<?xf32>
  return
}
func.func @two(%n: index) {
  %d = gpu.alloc (%n, %n) : memref<?x?xf32>
  return
}
func.func @host(%n: index) -> index {
  %d = memref.alloc (%n) : memref<?xi8>
  %c0 = arith.constant 0 : index
  %s = memref.dim %d, %c0 : memref<?xi8>
  return %s : index
}"""
    # 2^32 x 2^32 elements wrapped around to an empty buffer
    with pytest.raises(MemoryAccessError, match="more than the 64-bit address space"):
        gpu.run(src, "two", args=[1 << 32])
    with pytest.raises(MemoryAccessError, match="out of memory|address space"):
        gpu.run(src, "one", args=[1 << 60])
    with pytest.raises(MemoryAccessError, match="out of memory|address space"):
        gpu.run(src, "host", args=[1 << 62])
    assert gpu.run(src, "host", args=[24]) == [24]


# -- launches and arguments -----------------------------------------------------------------------

KERNELS = """
module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @double(%a: memref<4xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %a[%i] : memref<4xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%i] : memref<4xf32>
    gpu.return
  }
}
func.func @main(%a: memref<4xi32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  gpu.launch_func @k::@double blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%a : memref<4xi32>)
  return
}
func.func @vec(%v: vector<4xf32>) -> f32 {
  %r = vector.reduction <add>, %v : vector<4xf32> into f32
  return %r : f32
}
}"""


def test_unverified_launch_with_mismatched_operand_types_is_refused():
    a = np.ones(4, np.int32)
    # the module does not verify: refused by default, with the verifier's diagnostic
    with pytest.raises(DiagnosticError, match="type of function argument 0 does not match"):
        gpu.run(KERNELS, "main", args=[a])
    # and when run unverified (the engine used to double the i32 bits as f32 silently)
    with pytest.raises(ArgumentError, match="type of function argument 0 does not match"):
        gpu.run(KERNELS, "main", args=[a], verify=False)
    np.testing.assert_array_equal(a, np.ones(4, np.int32))
    f = np.arange(4, dtype=np.float32)
    gpu.launch(KERNELS, "k::double", grid=(1,), block=(4,), args=[f], verify=False)
    np.testing.assert_array_equal(f, 2 * np.arange(4, dtype=np.float32))


def test_bad_python_arguments_are_argument_and_grid_errors():
    a = np.arange(4, dtype=np.float32)
    assert gpu.run(KERNELS, "vec", args=[np.arange(4)], verify=False) == [6.0]
    with pytest.raises(ArgumentError, match="cannot pass 'abcd' as vector<4xf32>"):
        gpu.run(KERNELS, "vec", args=["abcd"], verify=False)
    with pytest.raises(ArgumentError, match="args must be a list or tuple"):
        gpu.run(KERNELS, "vec", args=5, verify=False)
    with pytest.raises(GridError, match="extents must be integers"):
        gpu.launch(KERNELS, "k::double", grid=(1.5,), block=(4,), args=[a], verify=False)
    with pytest.raises(GridError, match="extents must be integers"):
        gpu.launch(KERNELS, "k::double", grid="2", block=(4,), args=[a], verify=False)
    with pytest.raises(GridError, match="dynamic shared memory size .* i32"):
        gpu.launch(KERNELS, "k::double", grid=1, block=4, args=[a], verify=False,
                   dynamic_shared_memory=1 << 42)
    np.testing.assert_array_equal(a, np.arange(4, dtype=np.float32))
    gpu.launch(KERNELS, "k::double", grid=np.int64(1), block=(4.0,), args=(a,), verify=False)
    np.testing.assert_array_equal(a, 2 * np.arange(4, dtype=np.float32))


def test_cli_names_the_bad_block_and_the_pending_argument(tmp_path, capsys):
    from tileir.cli.run import run_kernel
    path = tmp_path / "k.mlir"
    path.write_text(KERNELS)
    assert run_kernel([str(path), "--kernel", "k::double", "--grid", "1", "--block", "x",
                       "--arg", "zeros:f32:4"]) == 1
    assert "bad block 'x'" in capsys.readouterr().err
    pending = tmp_path / "p.mlir"
    pending.write_text("""func.func @main(%a: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  %t = gpu.memset async %a, %c : memref<4xf32>, f32
  return
}""")
    assert run_kernel([str(pending), "--func", "main", "--arg", "zeros:f32:4"]) == 1
    err = capsys.readouterr().err
    assert "p.mlir:3:8" in err and "still writes argument #0" in err
    assert "Traceback" not in err


# -- verifier false rejections found by running valid programs ------------------------------------

def test_valid_transpose_and_alloca_in_gpu_func_verify_and_run():
    src = """
module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @f(%o: memref<8xindex>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %p = memref.alloca() : memref<1xindex>
    memref.store %t, %p[%c0] : memref<1xindex>
    %x = memref.load %p[%c0] : memref<1xindex>
    %y = arith.muli %x, %x : index
    memref.store %y, %o[%t] : memref<8xindex>
    gpu.return
  }
}
func.func @main(%m: memref<6x8xf32>, %o: memref<8xindex>) -> memref<8x6xf32, strided<[1, 8]>> {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%o : memref<8xindex>)
  %tr = memref.transpose %m (i, j) -> (j, i) : memref<6x8xf32> to memref<8x6xf32, strided<[1, 8]>>
  return %tr : memref<8x6xf32, strided<[1, 8]>>
}
}"""
    module = tileir.parse(src)
    tileir.verify(module)      # (as mlir-opt 22: both were rejected)
    m = np.arange(48, dtype=np.float32).reshape(6, 8)
    o = np.zeros(8, np.int64)
    (tr,) = gpu.run(module, "main", args=[m, o])
    np.testing.assert_array_equal(tr, m.T)
    np.testing.assert_array_equal(o, np.arange(8) ** 2)
    bad = src.replace("strided<[1, 8]>", "strided<[1, 7]>")
    with pytest.raises(tileir.ir.diagnostics.DiagnosticError, match="canonical transposed"):
        tileir.verify(tileir.parse(bad))
