"""Performance-cliff hunt 3 of the tinytc front end: batched small BLAS instructions (axpby,
hadamard, ger, gemv, sum) on per-work-group subviews of arguments run on exact power-of-two
pieces loaded and stored through strided views of the arguments (was: masked pointer
gathers, 5-25x slower), and padded small gemm with beta != 0 reads and updates C in exact
pieces (a padded view read of C went work group by work group).  Every case is checked
against NumPy: exactly where the computation is one rounding per element, within a stated
tolerance for sums; edge cases: beta = 0 with NaN in the output (immediate and at run time),
in-place transposition, integer types, subviews at static offsets, out-of-bounds subviews
and work groups past the batch."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import LaunchError, tinytc
from tileir.execute import ArgumentError

F = np.asfortranarray
G = 37          # work groups (batch size)


def kernel(src: str):
    prog = tinytc.parse(src)
    text = tinytc.print(prog)
    assert tinytc.print(tinytc.parse(text)) == text
    return tinytc.compile(prog, "k")


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def batched(T: str, shapes: list, body: str, extra: str = "") -> str:
    """A kernel whose memref arguments have the batch mode last; ``%vN`` is the subview of
    argument ``%aN`` for this work group."""
    args, views = [], []
    for i, shape in enumerate(shapes):
        full = "x".join([T] + [str(s) for s in shape] + ["?"])
        sub = "x".join([T] + [str(s) for s in shape])
        args.append(f"%a{i}: memref<{full}>")
        colons = ",".join([":"] * len(shape) + ["%gid"])
        views.append(f"  %v{i} = subview %a{i}[{colons}] : memref<{full}>")
        body = body.replace(f"M{i}", f"memref<{sub}>")
    params = ", ".join(([extra] if extra else []) + args)
    return f"func @k({params}) {{\n  %gid = group_id\n" + "\n".join(views) + f"\n  {body}\n}}"


def data(shape, dtype=np.float64, seed=0):
    r = rng(seed)
    if np.issubdtype(dtype, np.integer):
        return F(r.integers(-50, 50, size=shape).astype(dtype))
    return F(r.standard_normal(shape).astype(dtype))


# -- axpby ------------------------------------------------------------------------------------

@pytest.mark.parametrize("alpha,beta", [("1.0", "0.0"), ("2.5", "1.0"), ("-1.0", "0.5")])
@pytest.mark.parametrize("trans", ["n", "t"])
def test_axpby_batched_matches_numpy_exactly(trans, alpha, beta):
    m, n = 56, 9
    ash = (n, m) if trans == "t" else (m, n)
    src = batched("f64", [ash, (m, n)],
                  f"axpby.{trans} {alpha}, %v0, {beta}, %v1 : f64, M0, f64, M1")
    a = data(ash + (G,))
    c0 = data((m, n, G), seed=1)
    if beta == "0.0":
        c0[3, 4, :] = np.nan
    c = c0.copy(order="F")
    kernel(src).launch(args=[a, c], group_size=G)
    op_a = a.transpose(1, 0, 2) if trans == "t" else a
    al, be = float(alpha), float(beta)
    ref = al * op_a if be == 0 else al * op_a + be * c0
    np.testing.assert_array_equal(c, ref)


def test_axpby_runtime_beta_zero_ignores_nan_and_runtime_beta_scales():
    m, n = 24, 5
    src = batched("f32", [(m, n), (m, n)], "axpby.n %al, %v0, %be, %v1 : f32, M0, f32, M1",
                  "%al: f32, %be: f32")
    k = kernel(src)
    a = data((m, n, G), np.float32)
    for be in (0.0, 0.75):
        c0 = data((m, n, G), np.float32, seed=2)
        c0[0, 0, 5] = np.nan
        c = c0.copy(order="F")
        k.launch(args=[np.float32(1.5), np.float32(be), a, c], group_size=G)
        ref = np.float32(1.5) * a if be == 0 else np.float32(1.5) * a + np.float32(be) * c0
        np.testing.assert_array_equal(c, ref)


def test_axpby_i32_wraps_like_c():
    m, n = 7, 3
    src = batched("i32", [(m, n), (m, n)], "axpby.n 3, %v0, 2, %v1 : i32, M0, i32, M1")
    a = F(np.full((m, n, G), 2**30, np.int32))
    c0 = data((m, n, G), np.int32)
    c = c0.copy(order="F")
    kernel(src).launch(args=[a, c], group_size=G)
    ref = (3 * a.astype(np.int64) + 2 * c0.astype(np.int64)).astype(np.int32)
    np.testing.assert_array_equal(c, ref)


def test_in_place_transpose_reads_every_piece_before_writing():
    """axpby.t of a 56x56 matrix onto itself: 9 pieces, all read before any is stored."""
    m = 56
    src = batched("f64", [(m, m)], "axpby.t 1.0, %v0, 0.0, %v0 : f64, M0, f64, M0")
    a0 = data((m, m, G))
    a = a0.copy(order="F")
    kernel(src).launch(args=[a], group_size=G)
    np.testing.assert_array_equal(a, a0.transpose(1, 0, 2))


# -- hadamard and ger -------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 56, 100, 128])
def test_hadamard_batched_vectors(n):
    src = batched("f64", [(n,), (n,), (n,)],
                  "hadamard 2.0, %v0, %v1, 0.0, %v2 : f64, M0, M1, f64, M2")
    x, y = data((n, G)), data((n, G), seed=1)
    c = F(np.full((n, G), np.nan))
    kernel(src).launch(args=[x, y, c], group_size=G)
    np.testing.assert_array_equal(c, 2.0 * (x * y))


@pytest.mark.parametrize("beta", ["0.0", "1.0", "-2.0"])
def test_ger_batched(beta):
    m, n = 56, 9
    src = batched("f64", [(m,), (n,), (m, n)],
                  f"ger 1.5, %v0, %v1, {beta}, %v2 : f64, M0, M1, f64, M2")
    x, y = data((m, G)), data((n, G), seed=1)
    c0 = data((m, n, G), seed=2)
    if beta == "0.0":
        c0[:, 0, :] = np.nan
    c = c0.copy(order="F")
    kernel(src).launch(args=[x, y, c], group_size=G)
    outer = np.einsum("ig,jg->ijg", x, y)
    be = float(beta)
    ref = 1.5 * outer if be == 0 else 1.5 * outer + be * c0
    np.testing.assert_array_equal(c, ref)


def test_ger_mixed_types_compute_in_the_output_type():
    m, n = 12, 5
    src = """func @k(%x: memref<f32x12x?>, %y: memref<f32x5x?>, %C: memref<f64x12x5x?>) {
  %gid = group_id
  %a = subview %x[:,%gid] : memref<f32x12x?>
  %b = subview %y[:,%gid] : memref<f32x5x?>
  %c = subview %C[:,:,%gid] : memref<f64x12x5x?>
  ger 1.0, %a, %b, 0.0, %c : f64, memref<f32x12>, memref<f32x5>, f64, memref<f64x12x5>
}"""
    x, y = data((m, G), np.float32), data((n, G), np.float32, seed=1)
    c = F(np.zeros((m, n, G)))
    kernel(src).launch(args=[x, y, c], group_size=G)
    np.testing.assert_array_equal(c, np.einsum("ig,jg->ijg", x.astype(np.float64),
                                               y.astype(np.float64)))


# -- gemv and sum -----------------------------------------------------------------------------

@pytest.mark.parametrize("m,k", [(56, 56), (9, 100), (128, 3), (1, 1)])
@pytest.mark.parametrize("trans", ["n", "t"])
def test_gemv_batched(trans, m, k):
    ash = (k, m) if trans == "t" else (m, k)
    src = batched("f64", [ash, (k,), (m,)],
                  f"gemv.{trans} 2.0, %v0, %v1, 1.0, %v2 : f64, M0, M1, f64, M2")
    a, x, y0 = data(ash + (G,)), data((k, G), seed=1), data((m, G), seed=2)
    y = y0.copy(order="F")
    kernel(src).launch(args=[a, x, y], group_size=G)
    op_a = a.transpose(1, 0, 2) if trans == "t" else a
    ref = 2.0 * np.einsum("ikg,kg->ig", op_a, x) + y0
    bound = 1e-13 * (2 * np.einsum("ikg,kg->ig", np.abs(op_a), np.abs(x)) + np.abs(y0)) * k
    assert np.all(np.abs(y - ref) <= bound)


def test_gemv_i32_exact():
    m, k = 13, 21
    src = batched("i32", [(m, k), (k,), (m,)],
                  "gemv.n 1, %v0, %v1, 0, %v2 : i32, M0, M1, i32, M2")
    a, x = data((m, k, G), np.int32), data((k, G), np.int32, seed=1)
    y = F(np.zeros((m, G), np.int32))
    kernel(src).launch(args=[a, x, y], group_size=G)
    np.testing.assert_array_equal(y, np.einsum("ikg,kg->ig", a.astype(np.int64),
                                               x.astype(np.int64)).astype(np.int32))


@pytest.mark.parametrize("trans", ["n", "t"])
def test_sum_of_matrices_batched(trans):
    m, n = 56, 9
    out = n if trans == "t" else m
    src = batched("f64", [(m, n), (out,)],
                  f"sum.{trans} 1.0, %v0, %be, %v1 : f64, M0, f64, M1", "%be: f64")
    a = data((m, n, G))
    b0 = F(np.full((out, G), np.nan))
    b = b0.copy(order="F")
    kernel(src).launch(args=[0.0, a, b], group_size=G)
    ref = a.sum(0) if trans == "t" else a.sum(1)
    np.testing.assert_allclose(b, ref, rtol=0, atol=1e-13 * np.abs(a).sum())


def test_sum_of_vectors_into_scalars_and_integers_exact():
    n = 100
    src = """func @k(%x: memref<i64x100x?>, %s: memref<i64x?>) {
  %gid = group_id
  %a = subview %x[:,%gid] : memref<i64x100x?>
  %c = subview %s[%gid] : memref<i64x?>
  sum.n 1, %a, 1, %c : i64, memref<i64x100>, i64, memref<i64>
}"""
    x = data((n, G), np.int64)
    s0 = np.arange(G, dtype=np.int64)
    s = s0.copy()
    kernel(src).launch(args=[x, s], group_size=G)
    np.testing.assert_array_equal(s, x.sum(0) + s0)


# -- subviews at offsets, faults --------------------------------------------------------------

def test_static_offset_subviews_inside_a_larger_argument():
    src = """func @k(%A: memref<f64x64x16x?>, %C: memref<f64x64x16x?>) {
  %gid = group_id
  %a = subview %A[8:40,1:9,%gid] : memref<f64x64x16x?>
  %c = subview %C[3:40,7:9,%gid] : memref<f64x64x16x?>
  axpby.n 2.0, %a, 1.0, %c : f64, memref<f64x40x9,strided<1,64>>, f64,
      memref<f64x40x9,strided<1,64>>
}"""
    a = data((64, 16, G))
    c0 = data((64, 16, G), seed=1)
    c = c0.copy(order="F")
    kernel(src).launch(args=[a, c], group_size=G)
    ref = c0.copy()
    ref[3:43, 7:16] = 2.0 * a[8:48, 1:10] + c0[3:43, 7:16]
    np.testing.assert_array_equal(c, ref)


def test_subview_past_the_argument_edge_is_still_an_out_of_bounds_error():
    src = """func @k(%x: memref<f64x100>, %C: memref<f64x100>) {
  %a = subview %x[60:56] : memref<f64x100>
  %c = subview %C[0:56] : memref<f64x100>
  axpby.n 1.0, %a, 0.0, %c : f64, memref<f64x56>, f64, memref<f64x56>
}"""
    with pytest.raises(LaunchError, match=r"'axpby' out-of-bounds read.*argument %x"):
        kernel(src).launch(args=[np.ones(100), np.zeros(100)])


def test_work_groups_past_the_batch_are_reported():
    src = batched("f64", [(56,), (56,), (56,)],
                  "hadamard 1.0, %v0, %v1, 0.0, %v2 : f64, M0, M1, f64, M2")
    x = data((56, G))
    c = F(np.zeros((56, G)))
    with pytest.raises(LaunchError, match=r"'hadamard'.*tile block \(37, 0, 0\)"):
        kernel(src).launch(args=[x, x, c], group_size=G + 1)


# -- padded small gemm, beta != 0 -------------------------------------------------------------

@pytest.mark.parametrize("beta", ["1.0", "-0.5", "%be"])
@pytest.mark.parametrize("m,n,k", [(56, 9, 56), (100, 100, 100), (64, 9, 20)])
def test_padded_gemm_with_beta_updates_c_in_exact_pieces(m, n, k, beta):
    src = batched("f64", [(m, k), (k, n), (m, n)],
                  f"gemm.n.n 1.5, %v0, %v1, {beta}, %v2 : f64, M0, M1, f64, M2", "%be: f64")
    a, b = data((m, k, G)), data((k, n, G), seed=1)
    kern = kernel(src)
    for be in ((0.0, 2.0) if beta == "%be" else (float(beta),)):
        c0 = data((m, n, G), seed=2)
        if be == 0.0:
            c0[m - 1, n - 1, :] = np.inf
        c = c0.copy(order="F")
        kern.launch(args=[be, a, b, c], group_size=G)
        prod = np.einsum("ikg,kjg->ijg", a, b)
        ref = 1.5 * prod + (be * c0 if be else 0.0)
        bound = 1e-13 * k * (1.5 * np.einsum("ikg,kjg->ijg", np.abs(a), np.abs(b))
                             + (abs(be) * np.abs(c0) if be else 0.0))
        assert np.all(np.abs(c - ref) <= bound)


def test_padded_gemm_f32_beta_keeps_the_argument_outside_the_matrices():
    """C is a 56x9 subview at the edge of a 56x16 argument column block: the pieces write
    only C's elements."""
    src = """func @k(%A: memref<f32x56x56x?>, %B: memref<f32x56x9x?>, %C: memref<f32x56x16x?>) {
  %gid = group_id
  %a = subview %A[:,:,%gid] : memref<f32x56x56x?>
  %b = subview %B[:,:,%gid] : memref<f32x56x9x?>
  %c = subview %C[:,7:9,%gid] : memref<f32x56x16x?>
  gemm.n.n 1.0, %a, %b, 1.0, %c : f32, memref<f32x56x56>, memref<f32x56x9>, f32, memref<f32x56x9>
}"""
    a, b = data((56, 56, G), np.float32), data((56, 9, G), np.float32, seed=1)
    c0 = data((56, 16, G), np.float32, seed=2)
    c = c0.copy(order="F")
    kernel(src).launch(args=[a, b, c], group_size=G)
    np.testing.assert_array_equal(c[:, :7], c0[:, :7])
    ref = np.einsum("ikg,kjg->ijg", a.astype(np.float64), b.astype(np.float64)) + c0[:, 7:]
    bound = 57 * 2.0**-23 * (np.einsum("ikg,kjg->ijg", np.abs(a), np.abs(b)).astype(np.float64)
                             + np.abs(c0[:, 7:]))
    assert np.all(np.abs(c[:, 7:] - ref) <= bound)


def test_argument_errors_are_unchanged():
    src = batched("f64", [(56,), (56,), (56,)],
                  "hadamard 1.0, %v0, %v1, 0.0, %v2 : f64, M0, M1, f64, M2")
    with pytest.raises(ArgumentError, match="size 0 must be 56"):
        kernel(src).launch(args=[F(np.zeros((55, 2)))] * 3, group_size=2)
