"""gpu sparse ops against SciPy (spmv, spmm, sddmm, SpGEMM, 2:4 structured sparsity)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir import gpu

sp = pytest.importorskip("scipy.sparse")
PROGRAMS = Path(__file__).parent / "programs"


def load(name: str):
    return tileir.parse((PROGRAMS / name).read_text(), name)


def test_spmv_and_spmm_with_csr():
    rng = np.random.default_rng(0)
    rows, cols, n = 7, 5, 3
    a = sp.random(rows, cols, density=0.4, random_state=1, format="csr")
    x = rng.standard_normal(cols)
    y = rng.standard_normal(rows)
    b = rng.standard_normal((cols, n))
    c = rng.standard_normal((rows, n))
    y0, c0 = y.copy(), c.copy()
    coo = np.zeros(1, np.int32)
    gpu.run(load("sparse_spmv_spmm.mlir"), "main", args=[
        rows, cols, a.nnz, a.indptr.astype(np.int64), a.indices.astype(np.int64), a.data, x, y,
        b.reshape(-1), c.reshape(-1), n, coo, coo, np.zeros(1)])
    np.testing.assert_allclose(y, a @ x + y0, rtol=1e-14)
    np.testing.assert_allclose(c, a @ b + c0, rtol=1e-14)


def test_spgemm_flow():
    m, k, n = 6, 5, 4
    a = sp.random(m, k, density=0.5, random_state=3, format="csr", dtype=np.float32)
    b = sp.random(k, n, density=0.5, random_state=4, format="csr", dtype=np.float32)
    cpos = np.zeros(m + 1, np.int32)
    nnz, ci, cv = gpu.run(load("sparse_spgemm.mlir"), "main", args=[
        m, k, n, a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data, a.nnz,
        b.indptr.astype(np.int32), b.indices.astype(np.int32), b.data, b.nnz, cpos])
    ref = (a.astype(np.float64) @ b.astype(np.float64)).tocsr()
    ref.sort_indices()
    assert nnz == ref.nnz
    np.testing.assert_array_equal(cpos, ref.indptr)
    np.testing.assert_array_equal(ci, ref.indices)
    np.testing.assert_array_equal(cv, ref.data.astype(np.float32))


def test_sddmm_samples_the_product_at_the_pattern():
    rng = np.random.default_rng(2)
    m, k, n = 5, 3, 6
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    pattern = sp.random(m, n, density=0.4, random_state=5, format="csr", dtype=np.float32)
    vals = pattern.data.copy()
    gpu.run(load("sparse_sddmm_2to4.mlir"), "sddmm", args=[
        m, k, n, pattern.nnz, a.reshape(-1), b.reshape(-1), pattern.indptr.astype(np.int64),
        pattern.indices.astype(np.int64), vals])
    dense = a.astype(np.float64) @ b.astype(np.float64)
    rows = np.repeat(np.arange(m), np.diff(pattern.indptr))
    expect = (dense[rows, pattern.indices] + pattern.data).astype(np.float32)
    np.testing.assert_array_equal(vals, expect)


def test_2to4_spmm_prunes_in_place():
    rng = np.random.default_rng(4)
    m, k, n = 4, 8, 3
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = np.zeros((m, n), np.float16)
    a0 = a.copy()
    gpu.run(load("sparse_sddmm_2to4.mlir"), "spmm24", args=[m, k, n, a.reshape(-1),
                                                            b.reshape(-1), c.reshape(-1)])
    groups = np.abs(a0.astype(np.float64)).reshape(m, k // 4, 4)
    keep = np.zeros_like(groups, dtype=bool)
    np.put_along_axis(keep, np.argsort(-groups, axis=-1, kind="stable")[..., :2], True, -1)
    pruned = np.where(keep.reshape(m, k), a0, 0).astype(np.float16)
    np.testing.assert_array_equal(a, pruned)
    np.testing.assert_array_equal(c, (pruned.astype(np.float64) @ b.astype(np.float64))
                                  .astype(np.float16))


def test_coo_aos_csc_transpose_and_bsr():
    rng = np.random.default_rng(9)
    a = sp.random(6, 4, density=0.5, random_state=7, format="coo")
    x, y = rng.standard_normal(4), rng.standard_normal(6)
    y0 = y.copy()
    ij = np.stack([a.row, a.col], axis=1).astype(np.int64).reshape(-1)
    gpu.run(load("sparse_formats.mlir"), "coo_aos", args=[6, 4, a.nnz, ij, a.data, x, y])
    np.testing.assert_allclose(y, a @ x + y0, rtol=1e-14)

    c = sp.random(5, 7, density=0.4, random_state=8, format="csc", dtype=np.float32)
    xc = rng.standard_normal(5).astype(np.float32)
    yc = rng.standard_normal(7).astype(np.float32)
    yc0 = yc.copy()
    gpu.run(load("sparse_formats.mlir"), "csc_t", args=[
        5, 7, c.nnz, c.indptr.astype(np.int32), c.indices.astype(np.int32), c.data, xc, yc])
    expect = (c.T.astype(np.float64) @ xc.astype(np.float64) + yc0).astype(np.float32)
    np.testing.assert_array_equal(yc, expect)

    dense = rng.standard_normal((4, 6)) * np.kron(rng.random((2, 3)) < 0.6, np.ones((2, 2)))
    bsr = sp.bsr_matrix(dense, blocksize=(2, 2))
    b = rng.standard_normal((6, 3))
    out = rng.standard_normal((4, 3))
    out0 = out.copy()
    gpu.run(load("sparse_formats.mlir"), "bsr", args=[
        2, 3, bsr.indices.size, 2, 2, bsr.indptr.astype(np.int64), bsr.indices.astype(np.int64),
        bsr.data.reshape(-1), b.reshape(-1), out.reshape(-1), 4, 6, 3])
    np.testing.assert_allclose(out, dense @ b + out0, rtol=1e-13)


def test_shape_mismatch_and_destroyed_handles_are_errors():
    from tileir.execute.errors import LaunchError
    a = sp.random(6, 4, density=0.5, random_state=7, format="coo")
    ij = np.stack([a.row, a.col], axis=1).astype(np.int64).reshape(-1)
    bad = (PROGRAMS / "sparse_formats.mlir").read_text().replace(
        "%X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols",
        "%X, %t2 = gpu.create_dn_tensor async [%t1] %x, %rows")
    with pytest.raises(LaunchError, match="gpu.spmv: shapes do not match: op\\(A\\) is 6x4, x is 6"):
        gpu.run(tileir.parse(bad), "coo_aos",
                args=[6, 4, a.nnz, ij, a.data, np.zeros(6), np.zeros(6)])
    text = (PROGRAMS / "sparse_spmv_spmm.mlir").read_text().replace(
        "%t16 = gpu.destroy_dn_tensor async [%t15] %X",
        "%t16x = gpu.destroy_dn_tensor async [%t15] %X\n"
        "  %t16 = gpu.spmv async [%t16x] %A, %X, %Y, %buf : memref<?xi8> into f64")
    a = sp.random(3, 3, density=0.5, random_state=1, format="csr")
    with pytest.raises(LaunchError, match="used after it was destroyed"):
        gpu.run(tileir.parse(text), "main", args=[
            3, 3, a.nnz, a.indptr.astype(np.int64), a.indices.astype(np.int64), a.data,
            np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3), 1, np.zeros(1, np.int32),
            np.zeros(1, np.int32), np.zeros(1)])


def test_out_of_range_indices_are_reported_not_read():
    """Helper h4's finding: a CSR column index 7 in a 2x2 matrix made SciPy read past x."""
    from tileir.execute.errors import MemoryAccessError
    text = (PROGRAMS / "sparse_formats.mlir").read_text()
    pos = np.array([0, 1, 2], np.int32)
    idx = np.array([0, 7], np.int32)
    with pytest.raises(MemoryAccessError, match="outside"):
        gpu.run(tileir.parse(text), "csc_t", args=[2, 2, 2, pos, idx, np.ones(2, np.float32),
                                                   np.ones(2, np.float32),
                                                   np.zeros(2, np.float32)])
    ij = np.array([0, 0, 5, 1], np.int64)
    with pytest.raises(MemoryAccessError, match="outside"):
        gpu.run(tileir.parse(text), "coo_aos", args=[2, 2, 2, ij, np.ones(2), np.ones(2),
                                                     np.zeros(2)])


def test_spgemm_with_a_transposed_second_operand_parses_and_runs():
    text = (PROGRAMS / "sparse_spgemm.mlir").read_text().replace(
        "%A, %B, %C, %desc, %c0, %bufc : f32", "%A, %B{TRANSPOSE}, %C, %desc, %c0, %bufc : f32")
    m = k = n = 4
    a = sp.random(m, k, density=0.5, random_state=3, format="csr", dtype=np.float32)
    b = sp.random(n, k, density=0.5, random_state=4, format="csr", dtype=np.float32)
    cpos = np.zeros(m + 1, np.int32)
    nnz, ci, cv = gpu.run(tileir.parse(text), "main", args=[
        m, k, n, a.indptr.astype(np.int32), a.indices.astype(np.int32), a.data, a.nnz,
        b.indptr.astype(np.int32), b.indices.astype(np.int32), b.data, b.nnz, cpos])
    ref = (a.astype(np.float64) @ b.T.astype(np.float64)).tocsr()
    ref.sort_indices()
    assert nnz == ref.nnz
    np.testing.assert_array_equal(ci, ref.indices)
