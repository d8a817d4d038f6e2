"""gpu.subgroup_mma_* in the SIMT engine: 16x16x16 f16 -> f32 / f16 against exact references
(products exact, one rounding), transposed loads, leadDimension, i8 -> i32, constant and
elementwise fragments, one matrix per subgroup."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import MemoryAccessError

GEMM = """
gpu.module @m {
  gpu.func @k(%a: memref<?xIN>, %b: memref<?xIN>, %c: memref<?xACC>, %d: memref<?xACC>) kernel {
    %s = gpu.subgroup_id : index
    %c256 = arith.constant 256 : index
    %base = arith.muli %s, %c256 : index
    %A = gpu.subgroup_mma_load_matrix %a[%base] {leadDimension = 16 : index ATRANS} : memref<?xIN> -> !gpu.mma_matrix<16x16xFR, "AOp">
    %B = gpu.subgroup_mma_load_matrix %b[%base] {leadDimension = 16 : index BTRANS} : memref<?xIN> -> !gpu.mma_matrix<16x16xFR, "BOp">
    %C = gpu.subgroup_mma_load_matrix %c[%base] {leadDimension = 16 : index} : memref<?xACC> -> !gpu.mma_matrix<16x16xACC, "COp">
    %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xFR, "AOp">, !gpu.mma_matrix<16x16xFR, "BOp"> -> !gpu.mma_matrix<16x16xACC, "COp">
    gpu.subgroup_mma_store_matrix %D, %d[%base] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xACC, "COp">, memref<?xACC>
    gpu.return
  }
}
"""


def _gemm_src(inp: str, acc: str, ta: bool = False, tb: bool = False, frag: str = "") -> str:
    return (GEMM.replace("FR", frag or inp).replace("IN", inp).replace("ACC", acc)
            .replace(" ATRANS", ", transpose" if ta else "")
            .replace(" BTRANS", ", transpose" if tb else ""))


def _exact(a: np.ndarray, b: np.ndarray, c: np.ndarray, out_dtype) -> np.ndarray:
    """C + A B with exact rational arithmetic, rounded once to ``out_dtype``."""
    n, k = a.shape
    m = b.shape[1]
    out = np.zeros((n, m), out_dtype)
    for i in range(n):
        for j in range(m):
            s = Fraction(float(c[i, j])) + sum(Fraction(float(a[i, q])) * Fraction(float(b[q, j]))
                                               for q in range(k))
            # the exact value fits f64 here (checked), so one rounding from f64 is exact rounding
            assert Fraction(float(s)) == s
            out[i, j] = np.float64(float(s)).astype(out_dtype)
    return out


def _f16(rng, shape) -> np.ndarray:
    # 11-bit significands over a modest exponent range: sums of 16 products are exact in f64
    return (rng.integers(-1024, 1024, shape) * 2.0 ** rng.integers(-14, -4, shape)).astype(
        np.float16)


@pytest.mark.parametrize("acc", ["f32", "f16"])
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True)])
def test_mma_16x16x16_f16(acc, ta, tb):
    rng = np.random.default_rng(11)
    subgroups = 2
    a = _f16(rng, (subgroups, 16, 16))
    b = _f16(rng, (subgroups, 16, 16))
    acc_dtype = np.float32 if acc == "f32" else np.float16
    c = (rng.standard_normal((subgroups, 16, 16)) * 4).astype(acc_dtype)
    d = np.zeros((subgroups, 16, 16), acc_dtype)
    tileir.gpu.launch(tileir.parse(_gemm_src("f16", acc, ta, tb)), "m::k", grid=(1,),
                      block=(32 * subgroups,),
                      args=[a.reshape(-1), b.reshape(-1), c.reshape(-1), d.reshape(-1)],
                      racecheck=True)
    for s in range(subgroups):
        A = a[s].T if ta else a[s]      # transposed load: (r, c) from base + c * ld + r
        B = b[s].T if tb else b[s]
        np.testing.assert_array_equal(d[s], _exact(A, B, c[s], acc_dtype))


@pytest.mark.parametrize("frag_a,frag_b", [("si8", "si8"), ("ui8", "ui8")])
def test_mma_i8_to_i32_wraps(frag_a, frag_b):
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (1, 16, 16)).astype(np.int8)
    b = rng.integers(-128, 128, (1, 16, 16)).astype(np.int8)
    c = rng.integers(-2**31, 2**31, (1, 16, 16), dtype=np.int64).astype(np.int32)
    d = np.zeros((1, 16, 16), np.int32)
    src = _gemm_src("i8", "i32", frag=frag_a)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(32,),
                      args=[a.reshape(-1), b.reshape(-1), c.reshape(-1), d.reshape(-1)])
    wide = np.uint8 if frag_a == "ui8" else np.int8      # the fragment type's signedness
    ref = (c[0].astype(np.int64) + a[0].view(wide).astype(np.int64)
           @ b[0].view(wide).astype(np.int64))
    ref = ((ref + 2**31) % 2**32 - 2**31).astype(np.int32)
    np.testing.assert_array_equal(d[0], ref)


def test_mma_lead_dimension_submatrix_and_bounds():
    # a 16x16 tile at (row 8, col 16) of a 32x48 row-major f16 matrix, ld = 48
    src = """
gpu.module @m {
  gpu.func @k(%a: memref<32x48xf16>, %d: memref<16x16xf32>, %row: index, %col: index) kernel {
    %c0 = arith.constant 0 : index
    %A = gpu.subgroup_mma_load_matrix %a[%row, %col] {leadDimension = 48 : index} : memref<32x48xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    %one = arith.constant 1.0 : f16
    %zero = arith.constant 0.0 : f32
    %B = gpu.subgroup_mma_constant_matrix %one : !gpu.mma_matrix<16x16xf16, "BOp">
    %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %D, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
    gpu.return
  }
}
"""
    a = (np.arange(32 * 48) % 97).astype(np.float16).reshape(32, 48)
    d = np.zeros((16, 16), np.float32)
    mod = tileir.parse(src)
    tileir.gpu.launch(mod, "m::k", grid=(1,), block=(32,), args=[a, d, 8, 16])
    tile = a[8:24, 16:32].astype(np.float64)
    np.testing.assert_array_equal(d, np.repeat(tile.sum(axis=1, keepdims=True), 16, axis=1))
    with pytest.raises(MemoryAccessError):
        tileir.gpu.launch(mod, "m::k", grid=(1,), block=(32,), args=[a, d, 20, 16])


def test_mma_elementwise_and_extf():
    src = """
gpu.module @m {
  gpu.func @k(%a: memref<256xf16>, %b: memref<256xf16>, %d: memref<256xf32>) kernel {
    %c0 = arith.constant 0 : index
    %A = gpu.subgroup_mma_load_matrix %a[%c0] {leadDimension = 16 : index} : memref<256xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %B = gpu.subgroup_mma_load_matrix %b[%c0] {leadDimension = 16 : index} : memref<256xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %S = gpu.subgroup_mma_elementwise addf %A, %B : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %M = gpu.subgroup_mma_elementwise maxf %S, %A : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %N = gpu.subgroup_mma_elementwise negatef %M : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    %E = gpu.subgroup_mma_elementwise extf %N : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %E, %d[%c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<256xf32>
    gpu.return
  }
}
"""
    rng = np.random.default_rng(5)
    a = rng.standard_normal(256).astype(np.float16)
    b = rng.standard_normal(256).astype(np.float16)
    a[0], b[0] = np.float16(65504), np.float16(65504)      # overflows to inf in f16
    a[1] = np.nan
    d = np.zeros(256, np.float32)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(32,), args=[a, b, d])
    with np.errstate(over="ignore"):
        s = (a + b).astype(np.float16)                       # f16 add: one rounding
    m = np.maximum(s, a)                                     # NaN propagates
    np.testing.assert_array_equal(d, (-m).astype(np.float32))
    assert d[0] == -np.inf and np.isnan(d[1])


def test_mma_store_by_two_subgroups_to_one_tile_is_a_race():
    src = """
gpu.module @m {
  gpu.func @k(%d: memref<256xf32>) kernel {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %C, %d[%c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<256xf32>
    gpu.return
  }
}
"""
    mod = tileir.parse(src)
    d = np.ones(256, np.float32)
    # one subgroup: its store is one collective write, no race
    tileir.gpu.launch(mod, "m::k", grid=(1,), block=(32,), args=[d], racecheck=True)
    assert (d == 0).all()
    with pytest.raises(tileir.gpu.DataRaceError,
                       match=r"write/write.*thread \(0, 0, 0\).*thread \(32, 0, 0\)"):
        tileir.gpu.launch(mod, "m::k", grid=(1,), block=(64,), args=[d], racecheck=True)
