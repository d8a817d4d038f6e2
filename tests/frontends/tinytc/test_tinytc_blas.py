"""Collective BLAS instructions run on the CPU against NumPy: all transposes, alpha/beta cases
(beta = 0 does not read C), dynamic shapes and strides, blocks with loops and masked edges,
integer and float types."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import tinytc

RNG = np.random.default_rng(7)


def F(shape, dtype=np.float64):
    a = RNG.standard_normal(shape) if np.dtype(dtype).kind == "f" else \
        RNG.integers(-9, 9, shape)
    return np.asfortranarray(a.astype(dtype))


def memref(el, shape, strides=None):
    text = "memref<" + el + "".join("x" + ("?" if s is None else str(s)) for s in shape)
    if strides is not None:
        text += ",strided<" + ",".join("?" if s is None else str(s) for s in strides) + ">"
    return text + ">"


def tol(dtype):
    return dict(rtol=1e-5, atol=1e-4) if dtype == np.float32 else dict(rtol=1e-12, atol=1e-11)


def op(x, t):
    return x.T if t == "t" else x


@pytest.mark.parametrize("ta", ["n", "t"])
@pytest.mark.parametrize("tb", ["n", "t"])
@pytest.mark.parametrize("dtype,el", [(np.float32, "f32"), (np.float64, "f64")])
def test_gemm_transposes_static(ta, tb, dtype, el):
    M, N, K = 7, 5, 6
    ash = (K, M) if ta == "t" else (M, K)
    bsh = (N, K) if tb == "t" else (K, N)
    ta_, tb_, tc_ = memref(el, ash), memref(el, bsh), memref(el, (M, N))
    src = f"""func @k(%alpha: {el}, %A: {ta_}, %B: {tb_}, %beta: {el}, %C: {tc_}) {{
  gemm.{ta}.{tb} %alpha, %A, %B, %beta, %C : {el}, {ta_}, {tb_}, {el}, {tc_}
}}"""
    A, B, C = F(ash, dtype), F(bsh, dtype), F((M, N), dtype)
    ref = 1.5 * op(A, ta) @ op(B, tb) - 0.5 * C
    tinytc.launch(tinytc.parse(src), "k", args=[1.5, A, B, -0.5, C])
    np.testing.assert_allclose(C, ref, **tol(dtype))


@pytest.mark.parametrize("ta,tb", [("n", "n"), ("t", "n"), ("n", "t"), ("t", "t")])
def test_gemm_dynamic_large_with_loops_and_edges(ta, tb):
    # sizes beyond one block: loops over C blocks and K, masked edges
    M, N, K = 70, 67, 131
    ash = (K, M) if ta == "t" else (M, K)
    bsh = (N, K) if tb == "t" else (K, N)
    t = memref("f64", (None, None))
    src = f"""func @k(%A: {t}, %B: {t}, %C: {t}) {{
  gemm.{ta}.{tb} 1.0, %A, %B, 0.0, %C : f64, {t}, {t}, f64, {t}
}}"""
    A, B = F(ash), F(bsh)
    C = np.full((M, N), np.nan, order="F")       # beta = 0: C is not read
    tinytc.launch(tinytc.parse(src), "k", args=[A, B, C])
    np.testing.assert_allclose(C, op(A, ta) @ op(B, tb), rtol=1e-12, atol=1e-11)


def test_gemm_runtime_beta_zero_does_not_read_c_and_strided_views():
    t = memref("f32", (None, None), (1, None))
    src = f"""func @k(%alpha: f32, %A: {t}, %B: {t}, %beta: f32, %C: {t}) {{
  gemm.n.n %alpha, %A, %B, %beta, %C : f32, {t}, {t}, f32, {t}
}}"""
    big = F((20, 30), np.float32)
    A = big[2:11, 3:9]                 # strided view: stride (1, 20)
    B = F((6, 4), np.float32)
    C = np.full((9, 4), np.nan, dtype=np.float32, order="F")
    prog = tinytc.parse(src)
    tinytc.launch(prog, "k", args=[2.0, A, B, 0.0, C])
    np.testing.assert_allclose(C, 2 * A @ B, rtol=1e-5, atol=1e-5)
    C2 = C.copy(order="F")
    tinytc.launch(prog, "k", args=[1.0, A, B, 1.0, C2])
    np.testing.assert_allclose(C2, 3 * A @ B, rtol=1e-5, atol=1e-4)


def test_gemm_integer():
    t = memref("i32", (5, 5))
    src = f"""func @k(%A: {t}, %B: {t}, %C: {t}) {{
  gemm.n.t 2, %A, %B, 1, %C : i32, {t}, {t}, i32, {t}
}}"""
    A, B, C = F((5, 5), np.int32), F((5, 5), np.int32), F((5, 5), np.int32)
    ref = 2 * A @ B.T + C
    tinytc.launch(tinytc.parse(src), "k", args=[A, B, C])
    np.testing.assert_array_equal(C, ref)


def test_batched_gemm_recipe():
    """RECIPES.md small_gemm_batched: subviews of 3-D batches by group_id."""
    M, N, K, G = 9, 5, 7, 6
    ta = memref("f64", (M, K, None))
    tb = memref("f64", (K, N, None))
    tc = memref("f64", (M, N, None))
    src = f"""func @gemm(%alpha: f64, %A: {ta}, %B: {tb}, %beta: f64, %C: {tc}) {{
  %gid = group_id
  %a = subview %A[0:?,0:?,%gid] : {ta}
  %b = subview %B[0:?,0:?,%gid] : {tb}
  %c = subview %C[0:?,0:?,%gid] : {tc}
  gemm.n.n %alpha, %a, %b, %beta, %c : f64, {memref('f64', (M, K))}, {memref('f64', (K, N))}, f64, {memref('f64', (M, N))}
}}"""
    A, B, C = F((M, K, G)), F((K, N, G)), F((M, N, G))
    ref = 0.5 * np.einsum("mkg,kng->mng", A, B) + 2.0 * C
    k = tinytc.compile(tinytc.parse(src), "gemm")
    k.launch(args=[0.5, A, B, 2.0, C], group_size=G)
    np.testing.assert_allclose(C, ref, rtol=1e-12, atol=1e-11)


@pytest.mark.parametrize("ta", ["n", "t"])
def test_gemv(ta):
    M, K = 37, 300
    ash = (K, M) if ta == "t" else (M, K)
    src = f"""func @k(%A: {memref('f64', ash)}, %b: memref<f64x{K}>, %c: memref<f64x{M}>, %beta: f64) {{
  gemv.{ta} 2.0, %A, %b, %beta, %c : f64, {memref('f64', ash)}, memref<f64x{K}>, f64, memref<f64x{M}>
}}"""
    A, b, c = F(ash), F((K,)), F((M,))
    ref = 2 * op(A, ta) @ b + 0.25 * c
    tinytc.launch(tinytc.parse(src), "k", args=[A, b, c, 0.25])
    np.testing.assert_allclose(c, ref, rtol=1e-12, atol=1e-11)


def test_ger_and_hadamard():
    src = """func @ger(%a: memref<f32x?>, %b: memref<f32x70>, %C: memref<f32x?x70>) {
  ger 1.5, %a, %b, 0.0, %C : f32, memref<f32x?>, memref<f32x70>, f32, memref<f32x?x70>
}
func @had(%a: memref<f64x300>, %b: memref<f64x300>, %c: memref<f64x300>) {
  hadamard 2.0, %a, %b, 1.0, %c : f64, memref<f64x300>, memref<f64x300>, f64, memref<f64x300>
}"""
    prog = tinytc.parse(src)
    a, b = F((33,), np.float32), F((70,), np.float32)
    C = np.full((33, 70), np.nan, dtype=np.float32, order="F")
    tinytc.launch(prog, "ger", args=[a, b, C])
    np.testing.assert_allclose(C, 1.5 * np.outer(a, b), rtol=1e-6)
    x, y, z = F((300,)), F((300,)), F((300,))
    ref = 2 * x * y + z
    tinytc.launch(prog, "had", args=[x, y, z])
    np.testing.assert_allclose(z, ref, rtol=1e-13)


def test_axpby_orders_types_and_transpose():
    src = """func @a0(%alpha: f32, %A: memref<f32>, %B: memref<f32>) {
  axpby.n %alpha, %A, 2.0, %B : f32, memref<f32>, f32, memref<f32>
}
func @a1(%alpha: f64, %A: memref<f32x48,strided<2>>, %B: memref<f64x48>) {
  axpby.n %alpha, %A, 0.0, %B : f64, memref<f32x48,strided<2>>, f32, memref<f64x48>
}
func @a2(%A: memref<f64x70x?>, %B: memref<f64x?x70>) {
  axpby.t 1.0, %A, -1.0, %B : f64, memref<f64x70x?>, f64, memref<f64x?x70>
}
func @copy(%A: memref<i32x64x?>, %B: memref<i32x64x?>) {
    %gid = group_id
    %a = subview %A[:,%gid] : memref<i32x64x?>
    %b = subview %B[:,%gid] : memref<i32x64x?>
    axpby.n 1, %a, 0, %b : i32, memref<i32x64>, i32, memref<i32x64>
}"""
    prog = tinytc.parse(src)
    A0, B0 = np.array(3.0, dtype=np.float32), np.array(5.0, dtype=np.float32)
    tinytc.launch(prog, "a0", args=[2.0, A0, B0])
    assert B0 == np.float32(2 * 3 + 2 * 5)
    base = F((96,), np.float32)
    A1, B1 = base[::2], np.full(48, np.nan)
    tinytc.launch(prog, "a1", args=[0.5, A1, B1])
    np.testing.assert_allclose(B1, 0.5 * A1.astype(np.float64))
    A2, B2 = F((70, 3)), F((3, 70))
    ref = A2.T - B2
    tinytc.launch(prog, "a2", args=[A2, B2])
    np.testing.assert_allclose(B2, ref)
    A3, B3 = F((64, 5), np.int32), np.zeros((64, 5), dtype=np.int32, order="F")
    tinytc.launch(prog, "copy", args=[A3, B3], group_size=5)
    np.testing.assert_array_equal(A3, B3)


@pytest.mark.parametrize("ta", ["n", "t"])
def test_sum(ta):
    src = f"""func @m(%A: memref<f64x?x?>, %B: memref<f64x?>) {{
  sum.{ta} 2.0, %A, 0.5, %B : f64, memref<f64x?x?>, f64, memref<f64x?>
}}
func @v(%A: memref<f32x100>, %B: memref<f32>) {{
  sum.n 1.0, %A, 0.0, %B : f32, memref<f32x100>, f32, memref<f32>
}}"""
    prog = tinytc.parse(src)
    A = F((90, 75))
    B = F((75,) if ta == "t" else (90,))
    ref = 2 * A.sum(axis=0 if ta == "t" else 1) + 0.5 * B
    tinytc.launch(prog, "m", args=[A, B])
    np.testing.assert_allclose(B, ref, rtol=1e-12, atol=1e-11)
    v, s = F((100,), np.float32), np.array(np.nan, dtype=np.float32)
    tinytc.launch(prog, "v", args=[v, s])
    np.testing.assert_allclose(s, v.astype(np.float64).sum(), rtol=1e-5)


@pytest.mark.parametrize("ta,tb", [("n", "n"), ("t", "t")])
def test_gemm_on_subviews_at_runtime_offsets(ta, tb):
    """Static 7x9x5 gemm on subviews at run-time offsets of larger arguments (the path that
    reads through strided views of the arguments), beta a run-time value."""
    src = f"""func @k(%i: index, %j: index, %A: memref<f64x20x30>, %B: memref<f64x20x30>,
          %beta: f64, %C: memref<f64x20x30>) {{
  %a = subview %A[%i:{5 if ta == "t" else 7}, %j:{7 if ta == "t" else 5}] : memref<f64x20x30>
  %b = subview %B[3:{9 if tb == "t" else 5}, %i:{5 if tb == "t" else 9}] : memref<f64x20x30>
  %c = subview %C[%j:7, 11:9] : memref<f64x20x30>
  gemm.{ta}.{tb} 2.0, %a, %b, %beta, %c : f64, memref<f64x{'5x7' if ta == 't' else '7x5'},strided<1,20>>, memref<f64x{'9x5' if tb == 't' else '5x9'},strided<1,20>>, f64, memref<f64x7x9,strided<1,20>>
}}"""
    i, j = 2, 6
    A, B, C = F((20, 30)), F((20, 30)), F((20, 30))
    a = A[i:i + 5, j:j + 7] if ta == "t" else A[i:i + 7, j:j + 5]
    b = B[3:12, i:i + 5] if tb == "t" else B[3:8, i:i + 9]
    ref = C.copy()
    ref[j:j + 7, 11:20] = 2 * op(a, ta) @ op(b, tb) + 0.5 * C[j:j + 7, 11:20]
    tinytc.launch(tinytc.parse(src), "k", args=[i, j, A, B, 0.5, C])
    np.testing.assert_allclose(C, ref, rtol=1e-12, atol=1e-11)
    C[j:j + 7, 11:20] = np.nan                      # a run-time beta of 0 ignores C
    tinytc.launch(tinytc.parse(src), "k", args=[i, j, A, B, 0.0, C])
    np.testing.assert_allclose(C[j:j + 7, 11:20], 2 * op(a, ta) @ op(b, tb), rtol=1e-12)


def _f32_gemm_kernel(M, N, K):
    t = {x: memref("f32", s) for x, s in (("a", (M, K)), ("b", (K, N)), ("c", (M, N)))}
    return tinytc.parse(f"""func @g(%A: {t['a']}, %B: {t['b']}, %C: {t['c']}) {{
  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, {t['a']}, {t['b']}, f32, {t['c']}
}}""")


def test_gemm_mma_modes_exact_rounds_once_fast_within_f32_summation_bound():
    """``mma="exact"`` gives the exactly rounded sum of the products; ``mma="fast"`` (the
    default for tinytc) accumulates in f32 as NumPy's SGEMM does and stays within the
    documented bound ``(K+1) * 2**-24 * sum|a*b|`` of it."""
    M, N, K = 16, 8, 64
    A, B = F((M, K), np.float32), F((K, N), np.float32)
    exact64 = A.astype(np.float64) @ B.astype(np.float64)    # exact: 24-bit x 24-bit products
    bound = (K + 1) * 2.0 ** -24 * (np.abs(A.astype(np.float64)) @ np.abs(B.astype(np.float64)))
    prog = _f32_gemm_kernel(M, N, K)
    C_exact = np.zeros((M, N), np.float32, order="F")
    tinytc.launch(prog, "g", args=[A, B, C_exact], mma="exact")
    np.testing.assert_array_equal(C_exact, exact64.astype(np.float32))
    C_fast = np.zeros((M, N), np.float32, order="F")
    tinytc.compile(prog, "g").launch(args=[A, B, C_fast], mma="fast")
    assert np.all(np.abs(C_fast.astype(np.float64) - exact64) <= bound)
    for run in (lambda C: tinytc.launch(prog, "g", args=[A, B, C]),
                lambda C: tinytc.compile(prog, "g").launch(args=[A, B, C])):
        C_default = np.zeros((M, N), np.float32, order="F")
        run(C_default)
        np.testing.assert_array_equal(C_default, C_fast)
    with pytest.raises(Exception, match="mma"):
        tinytc.launch(prog, "g", args=[A, B, C_fast], mma="sloppy")
