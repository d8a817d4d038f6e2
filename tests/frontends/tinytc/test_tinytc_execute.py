"""Replicated instructions, control flow, views, groups, atomics and foreach run on the CPU
against NumPy / Python references (tinytc's C scalar semantics)."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import LaunchError, tinytc

RNG = np.random.default_rng(11)


def run(src, kernel, args, group_size=1):
    return tinytc.launch(tinytc.parse(src), kernel, args=args, group_size=group_size)


def c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def wrap(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


@pytest.mark.parametrize("a,b", [(7, 2), (-7, 2), (7, -2), (-7, -2), (-1, 3), (2**31 - 1, 5)])
def test_integer_arithmetic_c_semantics(a, b):
    src = """func @k(%a: i32, %b: i32, %out: memref<i32x10>) {
  %1 = arith.add %a, %b : i32
  %2 = arith.sub %a, %b : i32
  %3 = arith.mul %a, %b : i32
  %4 = arith.div %a, %b : i32
  %5 = arith.rem %a, %b : i32
  %s = arith.and %b, 7 : i32
  %6 = arith.shl %a, %s : i32
  %7 = arith.shr %a, %s : i32
  %8 = arith.xor %a, %b : i32
  %9 = arith.not %a : i32
  %10 = arith.neg %a : i32
  store %1, %out[0] : memref<i32x10>
  store %2, %out[1] : memref<i32x10>
  store %3, %out[2] : memref<i32x10>
  store %4, %out[3] : memref<i32x10>
  store %5, %out[4] : memref<i32x10>
  store %6, %out[5] : memref<i32x10>
  store %7, %out[6] : memref<i32x10>
  store %8, %out[7] : memref<i32x10>
  store %9, %out[8] : memref<i32x10>
  store %10, %out[9] : memref<i32x10>
}"""
    out = np.zeros(10, dtype=np.int32)
    run(src, "k", [a, b, out])
    s = b & 7
    q = c_div(a, b)
    ref = [wrap(a + b, 32), wrap(a - b, 32), wrap(a * b, 32), q, a - q * b,
           wrap(a << s, 32), a >> s, a ^ b, ~a, wrap(-a, 32)]
    assert out.tolist() == ref


def test_casts_and_comparisons():
    src = """func @k(%x: f64, %i: i32, %out: memref<i64x8>, %f: memref<f32x2>) {
  %1 = cast %x : f64 -> i32
  %2 = cast %i : i32 -> i8
  %3 = cast %x : f64 -> i1
  %4 = cast %3 : i1 -> i64
  %5 = cast %i : i32 -> f32
  %6 = cast %x : f64 -> f32
  %7 = cmp.lt %x, 0.0 : f64
  %8 = cmp.ne %x, %x : f64
  %a = cast %1 : i32 -> i64
  %b = cast %2 : i8 -> i64
  %c = cast %7 : i1 -> i64
  %d = cast %8 : i1 -> i64
  %e = cast %i : i32 -> index
  %g = cast %e : index -> i64
  store %a, %out[0] : memref<i64x8>
  store %b, %out[1] : memref<i64x8>
  store %4, %out[2] : memref<i64x8>
  store %c, %out[3] : memref<i64x8>
  store %d, %out[4] : memref<i64x8>
  store %g, %out[5] : memref<i64x8>
  store %5, %f[0] : memref<f32x2>
  store %6, %f[1] : memref<f32x2>
}"""
    out, f = np.zeros(8, dtype=np.int64), np.zeros(2, dtype=np.float32)
    run(src, "k", [-3.75, 300, out, f])
    assert out[:6].tolist() == [-3, wrap(300, 8), 1, 1, 0, 300]
    assert f.tolist() == [300.0, np.float32(-3.75)]
    run(src, "k", [float("nan"), 1, out, f])
    assert out[2] == 1 and out[3] == 0 and out[4] == 1     # NaN != 0 is true; NaN != NaN


def test_for_if_with_results_and_yield():
    src = """func @k(%n: i32, %out: memref<i32x?>) {
  for %i = 0, %n, 1 : i32 {
    %c = cmp.lt %i, 5 : i32
    %r, %s = if %c -> (i32, f32) {
      %sq = arith.mul %i, %i : i32
      yield %sq, 1.0 : i32, f32
    } else {
      yield -1, 2.0 : i32, f32
    }
    %j = cast %i : i32 -> index
    store %r, %out[%j] : memref<i32x?>
  }
}"""
    out = np.zeros(9, dtype=np.int32)
    run(src, "k", [9, out])
    assert out.tolist() == [0, 1, 4, 9, 16, -1, -1, -1, -1]


def test_foreach_is_spmd_with_masked_if_and_dynamic_range():
    src = """func @k(%lo: index, %hi: index, %A: memref<f64x?>, %B: memref<f64x?>) {
  foreach %i = %lo, %hi {
    %x = load %A[%i] : memref<f64x?>
    %neg = cmp.lt %x, 0.0 : f64
    %y = if %neg -> (f64) {
      %m = arith.neg %x : f64
      yield %m : f64
    } else {
      %sq = arith.mul %x, %x : f64
      yield %sq : f64
    }
    store %y, %B[%i] : memref<f64x?>
  }
}"""
    A = RNG.standard_normal(700)
    B = np.full(700, 7.0)
    run(src, "k", [3, 650, A, B])
    ref = B.copy()
    ref[3:650] = np.where(A[3:650] < 0, -A[3:650], A[3:650] ** 2)
    ref[:3] = 7.0
    np.testing.assert_array_equal(B, ref)


def test_foreach_static_range_nested_store_per_group():
    src = """func @k(%A: memref<i32x16x?>) {
  %g = group_id
  %gi = cast %g : index -> i32
  %a = subview %A[:, %g] : memref<i32x16x?>
  foreach %i = 2, 13 : index {
    %v = cast %i : index -> i32
    %w = arith.mul %v, %gi : i32
    store %w, %a[%i] : memref<i32x16>
  }
}"""
    A = np.full((16, 4), -5, dtype=np.int32, order="F")
    run(src, "k", [A], group_size=4)
    ref = np.full((16, 4), -5, dtype=np.int32)
    for g in range(4):
        ref[2:13, g] = np.arange(2, 13) * g
    np.testing.assert_array_equal(A, ref)


def test_views_size_expand_fuse_group_size():
    src = """func @k(%A: memref<f32x?x12>, %out: memref<f32x6>, %sz: memref<i64x4>) {
  %e = expand %A[1 -> 3x?] : memref<f32x?x12>
  %f = fuse %e[1,2] : memref<f32x?x3x4>
  %s = subview %e[1:2, 2, 0:?] : memref<f32x?x3x4>
  %n0 = size %A[0] : memref<f32x?x12>
  %n1 = size %s[1] : memref<f32x2x4,strided<1,?>>
  %gs = group_size
  %x0 = load %e[1, 2, 3] : memref<f32x?x3x4>
  %x1 = load %f[2, 11] : memref<f32x?x12>
  %x2 = load %s[1, 2] : memref<f32x2x4,strided<1,?>>
  store %x0, %out[0] : memref<f32x6>
  store %x1, %out[1] : memref<f32x6>
  store %x2, %out[2] : memref<f32x6>
  %a = cast %n0 : index -> i64
  %b = cast %n1 : index -> i64
  %c = cast %gs : index -> i64
  store %a, %sz[0] : memref<i64x4>
  store %b, %sz[1] : memref<i64x4>
  store %c, %sz[2] : memref<i64x4>
}"""
    A = np.asfortranarray(RNG.standard_normal((5, 12)).astype(np.float32))
    out, sz = np.zeros(6, dtype=np.float32), np.zeros(4, dtype=np.int64)
    run(src, "k", [A, out, sz], group_size=1)
    e = A.reshape((5, 3, 4), order="F")
    assert out[0] == e[1, 2, 3] and out[1] == A[2, 11] and out[2] == e[2, 2, 2]
    assert sz[:3].tolist() == [5, 4, 1]


def test_expand_dynamic_mode_infers_size_like_the_reference():
    src = """func @k(%A: memref<f64x?>, %out: memref<i64x1>, %v: memref<f64x1>) {
  %e = expand %A[0 -> 4x?] : memref<f64x?>
  %n = size %e[1] : memref<f64x4x?>
  %m = cast %n : index -> i64
  store %m, %out[0] : memref<i64x1>
  %x = load %e[3, 2] : memref<f64x4x?>
  store %x, %v[0] : memref<f64x1>
}"""
    A = np.arange(24, dtype=np.float64)
    out, v = np.zeros(1, dtype=np.int64), np.zeros(1)
    run(src, "k", [A, out, v])
    assert out[0] == 6 and v[0] == 3 + 4 * 2


def test_sample_fused_kernel_with_groups_and_alloca(conformance=None):
    src = """func @fused_kernel(%alpha: f32, %A: group<memref<f32x16x8>>, %B: memref<f32x8x8>,
                     %C: memref<f32x8x16>, %D: memref<f32x16x16x?>) {
  %0 = group_id
  %1 = load %A[%0] : group<memref<f32x16x8>>
  %2 = subview %D[:,:,%0] : memref<f32x16x16x?>
  %tmp0 = alloca -> memref<f32x16x8>
  gemm.n.t 1.0, %1, %B, 0.0, %tmp0 : f32, memref<f32x16x8>, memref<f32x8x8>, f32, memref<f32x16x8>
  gemm.n.n %alpha, %tmp0, %C, 1.0, %2 : f32, memref<f32x16x8>, memref<f32x8x16>, f32, memref<f32x16x16>
}"""
    G = 3
    As = [np.asfortranarray(RNG.standard_normal((16, 8)).astype(np.float32)) for _ in range(G)]
    B = np.asfortranarray(RNG.standard_normal((8, 8)).astype(np.float32))
    C = np.asfortranarray(RNG.standard_normal((8, 16)).astype(np.float32))
    D = np.asfortranarray(RNG.standard_normal((16, 16, G)).astype(np.float32))
    ref = D.astype(np.float64).copy()
    for g in range(G):
        ref[:, :, g] += 0.5 * (As[g].astype(np.float64) @ B.T.astype(np.float64)) @ C
    run(src, "fused_kernel", [0.5, As, B, C, D], group_size=G)
    np.testing.assert_allclose(D, ref, rtol=1e-4, atol=1e-4)


def test_alloca_is_a_cuda_tile_alloca_of_each_work_group():
    """No scratch parameter: each work group (tile block) allocates its own zeroed memory,
    and the groups still run in lock step."""
    src = """func @k(%A: memref<f64x4x?>) {
  %g = group_id
  %t = alloca -> memref<f64x4>
  %a = subview %A[:, %g] : memref<f64x4x?>
  axpby.n 2.0, %a, 1.0, %t : f64, memref<f64x4>, f64, memref<f64x4>
  axpby.n 1.0, %t, 0.0, %a : f64, memref<f64x4>, f64, memref<f64x4>
}"""
    prog = tinytc.parse(src)
    lowered = tileir.print(tinytc.lower(prog))
    assert "alloca num_elem=4, alignment=128 : tile<ptr<f64>>" in lowered.replace(" = ", "=")
    assert "entry @k(%arg0: tile<ptr<f64>>, %arg1: tile<i64>)" in lowered
    A = np.asfortranarray(RNG.standard_normal((4, 300)))
    ref = 2 * A
    kernel = tinytc.compile(prog, "k")
    info = kernel.launch(args=[A], group_size=300)
    np.testing.assert_array_equal(A, ref)
    assert info.mode == "batched"


def test_group_offsets_static_and_dynamic():
    src = """func @s(%g: group<memref<f64x4>, offset: 2>, %out: memref<f64x4x?>) {
  %i = group_id
  %m = load %g[%i] : group<memref<f64x4>>
  %o = subview %out[:, %i] : memref<f64x4x?>
  axpby.n 1.0, %m, 0.0, %o : f64, memref<f64x4>, f64, memref<f64x4>
}
func @d(%g: group<memref<f64x?>, offset: ?>, %out: memref<f64x3x?>) {
  %i = group_id
  %m = load %g[%i] : group<memref<f64x?>, offset: ?>
  %o = subview %out[:, %i] : memref<f64x3x?>
  %v = subview %m[0:3] : memref<f64x?>
  axpby.n 1.0, %v, 0.0, %o : f64, memref<f64x3>, f64, memref<f64x3>
}"""
    prog = tinytc.parse(src)
    arrays = [RNG.standard_normal(4) for _ in range(3)]
    out = np.zeros((4, 3), order="F")
    tinytc.launch(prog, "s", args=[arrays, out], group_size=3)
    np.testing.assert_array_equal(out, np.stack(arrays, axis=1))
    bufs = [RNG.standard_normal(10) for _ in range(4)]
    out2 = np.zeros((3, 4), order="F")
    tinytc.launch(prog, "d", args=[tinytc.Group(bufs, offset=5, shapes=[(5,)] * 4), out2],
                  group_size=4)
    np.testing.assert_array_equal(out2, np.stack([b[5:8] for b in bufs], axis=1))


def test_atomics_accumulate_across_groups():
    src = """func @gemm(%A: memref<f32x32x2>, %B: memref<f32x2x2>, %C: memref<f32x32x2>) {
  gemm.n.n.atomic 1.0, %A, %B, 1.0, %C : f32, memref<f32x32x2>, memref<f32x2x2>, f32, memref<f32x32x2>
}
func @general(%alpha: f32, %A: memref<f32>, %B: memref<f32>) {
  axpby.n.atomic %alpha, %A, 3.0, %B : f32, memref<f32>, f32, memref<f32>
}
func @store(%A: memref<f64x2>, %B: memref<f64x2>) {
  axpby.n.atomic 2.0, %A, 0.0, %B : f64, memref<f64x2>, f64, memref<f64x2>
}
func @ints(%A: memref<i32x32x4>, %B: memref<i32x32>) {
  sum.n.atomic 1, %A, 1, %B : i32, memref<i32x32x4>, i32, memref<i32x32>
}"""
    prog = tinytc.parse(src)
    A = np.asfortranarray(RNG.integers(-4, 4, (32, 2)).astype(np.float32))
    B = np.asfortranarray(RNG.integers(-4, 4, (2, 2)).astype(np.float32))
    C = np.asfortranarray(np.ones((32, 2), dtype=np.float32))
    tinytc.launch(prog, "gemm", args=[A, B, C], group_size=5)
    np.testing.assert_array_equal(C, 1 + 5 * (A @ B))
    a, b = np.array(1.0, dtype=np.float32), np.array(2.0, dtype=np.float32)
    tinytc.launch(prog, "general", args=[1.0, a, b], group_size=4)
    assert b == np.float32(3 ** 4 * 2 + (1 + 3 + 9 + 27))   # b <- 1 + 3 b, four times
    x, y = np.array([1.0, -2.0]), np.array([np.nan, np.nan])
    tinytc.launch(prog, "store", args=[x, y], group_size=3)
    np.testing.assert_array_equal(y, 2 * x)
    Ai, Bi = np.asfortranarray(RNG.integers(-9, 9, (32, 4)).astype(np.int32)), \
        np.zeros(32, dtype=np.int32)
    tinytc.launch(prog, "ints", args=[Ai, Bi], group_size=6)
    np.testing.assert_array_equal(Bi, 6 * Ai.sum(axis=1))


def test_out_of_bounds_store_is_reported():
    src = """func @k(%A: memref<f32x?>, %i: index, %v: f32) {
  store %v, %A[%i] : memref<f32x?>
}"""
    A = np.zeros(4, dtype=np.float32)
    with pytest.raises(LaunchError) as info:
        run(src, "k", [A, 10, 1.0])
    assert "store" in str(info.value)


def test_argument_errors_name_the_argument():
    src = "func @k(%A: memref<f32x4x?>) {\n}"
    with pytest.raises(LaunchError, match="%A.*size 0 must be 4"):
        run(src, "k", [np.zeros((5, 2), dtype=np.float32)])
    with pytest.raises(LaunchError, match="%A.*float32"):
        run(src, "k", [np.zeros((4, 2))])


def test_unknown_kernel_is_an_argument_error_listing_the_functions():
    from tileir.execute import ArgumentError
    with pytest.raises(ArgumentError, match=r"no function @g in the program \(functions: @k\)"):
        run("func @k(%a: f32) {\n}", "g", [1.0])


def test_more_atomics_and_for_inside_foreach():
    src = """func @ger(%a: memref<f64x5>, %b: memref<f64x3>, %C: memref<f64x5x3>) {
  ger.atomic 2.0, %a, %b, 1.0, %C : f64, memref<f64x5>, memref<f64x3>, f64, memref<f64x5x3>
}
func @had(%a: memref<i32x7>, %b: memref<i32x7>, %c: memref<i32x7>) {
  hadamard.atomic 1, %a, %b, 1, %c : i32, memref<i32x7>, memref<i32x7>, i32, memref<i32x7>
}
func @gemv(%A: memref<f32x6x4>, %b: memref<f32x4>, %c: memref<f32x6>) {
  gemv.n.atomic 1.0, %A, %b, 1.0, %c : f32, memref<f32x6x4>, memref<f32x4>, f32, memref<f32x6>
}
func @tri(%n: index, %out: memref<i64x?>) {
  foreach %i = 0, %n {
    for %j = 0, 4 {
      %x = cast %j : index -> i64
      %y = cast %i : index -> i64
      %z = arith.mul %x, %y : i64
      store %z, %out[%i] : memref<i64x?>
    }
  }
}"""
    prog = tinytc.parse(src)
    a, b = RNG.standard_normal(5), RNG.standard_normal(3)
    C = np.zeros((5, 3), order="F")
    tinytc.launch(prog, "ger", args=[a, b, C], group_size=3)
    np.testing.assert_allclose(C, 6 * np.outer(a, b), rtol=1e-13)
    x, y = RNG.integers(-5, 5, 7).astype(np.int32), RNG.integers(-5, 5, 7).astype(np.int32)
    z = np.ones(7, dtype=np.int32)
    tinytc.launch(prog, "had", args=[x, y, z], group_size=4)
    np.testing.assert_array_equal(z, 1 + 4 * x * y)
    A = np.asfortranarray(RNG.integers(-3, 3, (6, 4)).astype(np.float32))
    v = RNG.integers(-3, 3, 4).astype(np.float32)
    c = np.zeros(6, dtype=np.float32)
    tinytc.launch(prog, "gemv", args=[A, v, c], group_size=2)
    np.testing.assert_array_equal(c, 2 * (A @ v))
    out = np.zeros(300, dtype=np.int64)
    tinytc.launch(prog, "tri", args=[290, out])
    np.testing.assert_array_equal(out, np.where(np.arange(300) < 290, 3 * np.arange(300), 0))


def test_i1_is_cs_bool():
    src = """func @k(%a: i1, %b: i1, %out: memref<i32x5>) {
  %lt = cmp.lt %a, %b : i1
  %add = arith.add %a, %b : i1
  %sub = arith.sub %a, %b : i1
  %mul = arith.mul %a, %b : i1
  %not = arith.not %a : i1
  %0 = cast %lt : i1 -> i32
  %1 = cast %add : i1 -> i32
  %2 = cast %sub : i1 -> i32
  %3 = cast %mul : i1 -> i32
  %4 = cast %not : i1 -> i32
  store %0, %out[0] : memref<i32x5>
  store %1, %out[1] : memref<i32x5>
  store %2, %out[2] : memref<i32x5>
  store %3, %out[3] : memref<i32x5>
  store %4, %out[4] : memref<i32x5>
}"""
    prog = tinytc.parse(src)
    for a in (False, True):
        for b in (False, True):
            out = np.zeros(5, dtype=np.int32)
            tinytc.launch(prog, "k", args=[a, b, out])
            assert out.tolist() == [int(a < b), int(bool(a + b)), int(bool(a - b)),
                                    int(a and b), int(not a)]


def test_group_object_with_static_offset_type():
    src = """func @k(%g: group<memref<i32x2>, offset: 3>, %out: memref<i32x2x?>) {
  %i = group_id
  %m = load %g[%i] : group<memref<i32x2>>
  %o = subview %out[:, %i] : memref<i32x2x?>
  axpby.n 1, %m, 0, %o : i32, memref<i32x2>, i32, memref<i32x2>
}"""
    bufs = [np.arange(10, dtype=np.int32) + 100 * g for g in range(3)]
    out = np.zeros((2, 3), dtype=np.int32, order="F")
    run(src, "k", [tinytc.Group(bufs, offset=5), out], group_size=3)
    np.testing.assert_array_equal(out, np.stack([b[5:7] for b in bufs], axis=1))
