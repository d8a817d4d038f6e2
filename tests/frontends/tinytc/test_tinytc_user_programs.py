"""Realistic tinytc programs written as a user would, run on the CPU and compared with NumPy
references (exact for integers), plus the error paths a user meets: diagnostics, type errors,
launch-argument errors and out-of-bounds accesses.  Every program that parses is also printed
and re-parsed (print -> parse -> print is a fixed point)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tileir import LaunchError, tinytc
from tileir.execute import ArgumentError

F = np.asfortranarray
DTYPES = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "index": np.int64, "f32": np.float32, "f64": np.float64}
#: tinytc's diagnostic line: FILE:LINE.COL[-[ENDLINE.]ENDCOL]: message
DIAGNOSTIC = re.compile(r"^<stdin>:\d+\.\d+(-(\d+\.)?\d+)?: \S.*$")


def parse(src: str):
    prog = tinytc.parse(src)
    text = tinytc.print(prog)
    assert tinytc.print(tinytc.parse(text)) == text
    return prog


def run(src: str, kernel: str, args, group_size: int = 1, **kw):
    return tinytc.launch(parse(src), kernel, args=args, group_size=group_size, **kw)


def wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


# -- scalar instructions ---------------------------------------------------------------------

@pytest.mark.parametrize("ty,bits,a,b", [("i8", 8, -128, 3), ("i8", 8, 127, -7),
                                         ("i16", 16, -30000, 7), ("i64", 64, -2**63, 3)])
def test_narrow_and_wide_integer_arithmetic_wraps_like_c(ty, bits, a, b):
    ops = ["add", "sub", "mul", "div", "rem", "and", "or", "xor"]
    lines = [f"  %{op} = arith.{op} %a, %b : {ty}\n  store %{op}, %o[{i}] : memref<{ty}x12>"
             for i, op in enumerate(ops)]
    src = (f"func @k(%a: {ty}, %b: {ty}, %o: memref<{ty}x12>) {{\n" + "\n".join(lines) + f"""
  %shl = arith.shl %a, 3 : {ty}
  store %shl, %o[8] : memref<{ty}x12>
  %shr = arith.shr %a, 2 : {ty}
  store %shr, %o[9] : memref<{ty}x12>
  %neg = arith.neg %a : {ty}
  store %neg, %o[10] : memref<{ty}x12>
  %not = arith.not %b : {ty}
  store %not, %o[11] : memref<{ty}x12>
}}""")
    o = np.zeros(12, DTYPES[ty])
    run(src, "k", [a, b, o])
    q = c_div(a, b)
    ref = [a + b, a - b, a * b, q, a - q * b, a & b, a | b, a ^ b, a << 3, a >> 2, -a, ~b]
    assert o.tolist() == [wrap(v, bits) for v in ref]


def test_float_arithmetic_constants_nan_and_inf():
    src = """func @k(%x: f32, %o: memref<i1x6>, %p: memref<f32x6>, %q: memref<i8x4>, %r: memref<f64x3>) {
  %1 = cmp.eq %x, %x : f32
  %2 = cmp.ne %x, %x : f32
  %3 = cmp.lt %x, 1.0 : f32
  %4 = cmp.ge %x, 1.0 : f32
  %5 = cast %x : f32 -> i1
  %6 = cmp.le %x, %x : f32
  store %1, %o[0] : memref<i1x6>
  store %2, %o[1] : memref<i1x6>
  store %3, %o[2] : memref<i1x6>
  store %4, %o[3] : memref<i1x6>
  store %5, %o[4] : memref<i1x6>
  store %6, %o[5] : memref<i1x6>
  %a = arith.add %x, 0x1.8p1 : f32
  %b = arith.mul %x, -1e-3 : f32
  %c = arith.div %x, 0.0 : f32
  %d = arith.rem %x, 0.0 : f32
  %e = arith.neg %x : f32
  %f = arith.sub %x, +.5 : f32
  store %a, %p[0] : memref<f32x6>
  store %b, %p[1] : memref<f32x6>
  store %c, %p[2] : memref<f32x6>
  store %d, %p[3] : memref<f32x6>
  store %e, %p[4] : memref<f32x6>
  store %f, %p[5] : memref<f32x6>
  %g = arith.add 100, 100 : i8
  %h = arith.mul 16, 16 : i8
  %i = arith.sub -128, 1 : i8
  %j = arith.xor 127, -1 : i8
  store %g, %q[0] : memref<i8x4>
  store %h, %q[1] : memref<i8x4>
  store %i, %q[2] : memref<i8x4>
  store %j, %q[3] : memref<i8x4>
  %k = cast %x : f32 -> f64
  %l = arith.add 1.0e+308, 1.0e+308 : f64
  %m = arith.add 0.1, 0.2 : f64
  store %k, %r[0] : memref<f64x3>
  store %l, %r[1] : memref<f64x3>
  store %m, %r[2] : memref<f64x3>
}"""
    prog = parse(src)
    for x in map(np.float32, ["nan", 2.5, -0.0, "inf"]):
        o, p = np.zeros(6, bool), np.zeros(6, np.float32)
        q, r = np.zeros(4, np.int8), np.zeros(3)
        tinytc.launch(prog, "k", args=[x, o, p, q, r])
        with np.errstate(all="ignore"):
            ref_p = np.array([x + np.float32(3), x * np.float32(-1e-3), x / np.float32(0),
                              np.fmod(x, np.float32(0)), -x, x - np.float32(0.5)], np.float32)
        assert o.tolist() == [x == x, x != x, x < 1, x >= 1, x != 0, x <= x]
        assert np.array_equal(p, ref_p, equal_nan=True)
        num = ~np.isnan(ref_p)
        assert np.array_equal(np.signbit(p[num]), np.signbit(ref_p[num]))
        assert q.tolist() == [-56, 0, 127, -128]
        assert np.array_equal(r, [np.float64(x), np.inf, 0.1 + 0.2], equal_nan=True)


_CAST_VALUES = {"i1": [True, False], "i8": [-128, 127, -1], "i16": [-32768, 300, -1],
                "i32": [-2**31, 70000, -1], "i64": [-2**63, 2**40 + 3, -1],
                "index": [-5, 2**40], "f32": [-2.75, 1e10, 0.5, 3e38],
                "f64": [-2.75, 1e10, -1e300, 0.1]}


def _c_cast(v, src: str, dst: str):
    """C's conversion (None where C leaves it undefined: a float out of the integer's range)."""
    if dst == "i1":
        return bool(v != 0)
    if dst in ("f32", "f64"):
        with np.errstate(over="ignore"):
            return DTYPES[dst](v)
    bits = 64 if dst == "index" else int(dst[1:])
    if src in ("f32", "f64"):
        v = int(np.trunc(v))
        if not -(2 ** (bits - 1)) <= v < 2 ** (bits - 1):
            return None
    return wrap(int(v), bits)


@pytest.mark.parametrize("src_ty", list(_CAST_VALUES))
def test_cast_from_every_scalar_type_to_every_scalar_type(src_ty):
    dsts = list(DTYPES)
    body = "\n".join(f"  %c{i} = cast %x : {src_ty} -> {d}\n  store %c{i}, %o{i}[0] : memref<{d}x1>"
                     for i, d in enumerate(dsts))
    args = ", ".join(f"%o{i}: memref<{d}x1>" for i, d in enumerate(dsts))
    prog = parse(f"func @k(%x: {src_ty}, {args}) {{\n{body}\n}}")
    for v in _CAST_VALUES[src_ty]:
        outs = [np.zeros(1, DTYPES[d]) for d in dsts]
        tinytc.launch(prog, "k", args=[v] + outs)
        x = np.float32(v) if src_ty == "f32" else v
        for d, o in zip(dsts, outs):
            want = _c_cast(x, src_ty, d)
            if want is not None:
                assert o[0] == want, (src_ty, d, v, o[0], want)


@pytest.mark.parametrize("ty", list(_CAST_VALUES))
def test_every_comparison_of_every_scalar_type(ty):
    conds = {"eq": np.equal, "ne": np.not_equal, "gt": np.greater, "ge": np.greater_equal,
             "lt": np.less, "le": np.less_equal}
    body = "\n".join(f"  %{c} = cmp.{c} %x, %y : {ty}\n  store %{c}, %o[{i}] : memref<i1x6>"
                     for i, c in enumerate(conds))
    prog = parse(f"func @k(%x: {ty}, %y: {ty}, %o: memref<i1x6>) {{\n{body}\n}}")
    vals = _CAST_VALUES[ty]
    for x in vals:
        for y in vals:
            o = np.zeros(6, bool)
            tinytc.launch(prog, "k", args=[x, y, o])
            X, Y = DTYPES[ty](x), DTYPES[ty](y)
            assert o.tolist() == [bool(f(X, Y)) for f in conds.values()], (x, y)


# -- control flow ----------------------------------------------------------------------------

@pytest.mark.parametrize("ty", ["index", "i8", "i16", "i32", "i64"])
def test_for_with_step_runtime_bounds_and_loop_types(ty):
    src = f"""func @k(%lo: {ty}, %hi: {ty}, %st: {ty}, %o: memref<i64x64>) {{
  for %i = %lo, %hi, %st : {ty} {{
    %j = cast %i : {ty} -> index
    %v = load %o[%j] : memref<i64x64>
    %w = arith.add %v, 1 : i64
    store %w, %o[%j] : memref<i64x64>
  }}
  for %i2 = 3, 20, 5 : {ty} {{
    %j = cast %i2 : {ty} -> index
    %k = arith.add %j, 32 : index
    %v = load %o[%k] : memref<i64x64>
    %w = arith.add %v, 2 : i64
    store %w, %o[%k] : memref<i64x64>
  }}
}}"""
    prog = parse(src)
    for lo, hi, st in [(0, 10, 3), (5, 5, 1), (7, 3, 1), (1, 30, 7), (0, 31, 31)]:
        o = np.zeros(64, np.int64)
        tinytc.launch(prog, "k", args=[lo, hi, st, o])
        ref = np.zeros(64, np.int64)
        ref[lo:hi:st] += 1
        ref[32 + 3:32 + 20:5] += 2
        assert (o == ref).all(), (lo, hi, st)


def test_for_with_non_positive_runtime_step_over_an_empty_range_runs_no_iteration():
    # C's `for (i = from; i < to; i += step)`: an empty range never looks at the step
    src = """func @k(%o: memref<i64x1>, %lo: i64, %hi: i64, %s: i64) {
  for %i = %lo, %hi, %s : i64 {
    %v = load %o[0] : memref<i64x1>
    %w = arith.add %v, 1 : i64
    store %w, %o[0] : memref<i64x1>
  }
}"""
    prog = parse(src)
    for lo, hi, step, count in [(10, 0, -2, 0), (5, 5, 0, 0), (0, 10, 3, 4), (-4, 4, 4, 2)]:
        o = np.zeros(1, np.int64)
        tinytc.launch(prog, "k", args=[o, lo, hi, step])
        assert o[0] == count, (lo, hi, step)
    with pytest.raises(LaunchError, match="step must be positive"):
        tinytc.launch(prog, "k", args=[np.zeros(1, np.int64), 0, 10, 0])


@pytest.mark.parametrize("ty", ["index", "i16", "i32", "i64"])
def test_foreach_loop_types_dynamic_ranges_and_groups(ty):
    src = f"""func @k(%lo: {ty}, %hi: {ty}, %o: memref<i32x100x?>) {{
  %g = group_id
  %gi = cast %g : index -> i32
  foreach %i = %lo, %hi : {ty} {{
    %j = cast %i : {ty} -> index
    %c = cast %i : {ty} -> i32
    %m = arith.mul %c, 1000 : i32
    %v = arith.add %m, %gi : i32
    store %v, %o[%j, %g] : memref<i32x100x?>
  }}
}}"""
    prog = parse(src)
    for lo, hi in [(0, 100), (3, 97), (10, 10), (50, 20), (0, 1)]:
        o = F(np.zeros((100, 3), np.int32))
        tinytc.launch(prog, "k", args=[lo, hi, o], group_size=3)
        ref = np.zeros((100, 3), np.int32)
        ref[lo:hi] = 1000 * np.arange(100)[lo:hi, None] + np.arange(3)
        assert (o == ref).all(), (lo, hi)


def test_if_else_yields_several_types_and_nested_if():
    src = """func @k(%x: i32, %o: memref<f64x4>, %q: memref<i8x2>, %b: memref<i1x1>) {
  %c = cmp.lt %x, 16 : i32
  %a, %f, %s, %t = if %c -> (i32, f64, i8, i1) {
    %d = arith.mul %x, 2 : i32
    %e = cast %d : i32 -> f64
    yield %d, %e, -3, true : i32, f64, i8, i1
  } else {
    %c2 = cmp.gt %x, 100 : i32
    %n = if %c2 -> (i32) {
      yield 100 : i32
    } else {
      yield %x : i32
    }
    yield %n, 0.5, 7, false : i32, f64, i8, i1
  }
  %af = cast %a : i32 -> f64
  store %af, %o[0] : memref<f64x4>
  store %f, %o[1] : memref<f64x4>
  store %s, %q[0] : memref<i8x2>
  store %t, %b[0] : memref<i1x1>
  if %c {
    store %f, %o[2] : memref<f64x4>
  }
}"""
    prog = parse(src)
    for x, want in [(3, ([6, 6, 6, 0], -3, True)), (50, ([50, 0.5, 0, 0], 7, False)),
                    (200, ([100, 0.5, 0, 0], 7, False))]:
        o, q, b = np.zeros(4), np.zeros(2, np.int8), np.zeros(1, bool)
        tinytc.launch(prog, "k", args=[x, o, q, b])
        assert o.tolist() == want[0] and q[0] == want[1] and b[0] == want[2]


def test_foreach_with_nested_per_lane_ifs_and_a_uniform_for():
    src = """func @k(%A: memref<f32x?x?>, %B: memref<f32x?x?>, %thr: f32) {
  %g = group_id
  %n = size %A[0] : memref<f32x?x?>
  %a = subview %A[:, %g] : memref<f32x?x?>
  %b = subview %B[:, %g] : memref<f32x?x?>
  foreach %i = 0, %n {
    %v = load %a[%i] : memref<f32x?>
    %c = cmp.gt %v, %thr : f32
    %r = if %c -> (f32) {
      %w = arith.mul %v, 2.0 : f32
      %c2 = cmp.gt %w, 3.0 : f32
      %z = if %c2 -> (f32) {
        yield %w : f32
      } else {
        %q = arith.neg %w : f32
        yield %q : f32
      }
      yield %z : f32
    } else {
      yield %v : f32
    }
    for %k = 0, 4 {
      %kk = cast %k : index -> f32
      %prev = load %b[%i] : memref<f32x?>
      %nv = arith.add %prev, %kk : f32
      store %nv, %b[%i] : memref<f32x?>
    }
    %prev2 = load %b[%i] : memref<f32x?>
    %s = arith.add %prev2, %r : f32
    store %s, %b[%i] : memref<f32x?>
  }
}"""
    A = F(rng(0).standard_normal((37, 5)).astype(np.float32) * 3)
    B = F(np.ones((37, 5), np.float32))
    run(src, "k", [A, B, np.float32(0.25)], group_size=5)
    w = A * 2
    ref = 1 + 6 + np.where(A > 0.25, np.where(w > 3, w, -w), A)
    assert np.array_equal(B, ref.astype(np.float32))


def test_foreach_masked_if_does_not_load_past_the_end_or_divide_by_zero():
    src = """func @k(%A: memref<i32x?>, %B: memref<i32x?>) {
  %m = size %A[0] : memref<i32x?>
  %n = size %B[0] : memref<i32x?>
  foreach %i = 0, %n {
    %in = cmp.lt %i, %m : index
    %v = if %in -> (i32) {
      %a = load %A[%i] : memref<i32x?>
      %c = cmp.gt %a, 0 : i32
      %r = if %c -> (i32) {
        %q = arith.div 100, %a : i32
        yield %q : i32
      } else {
        yield -1 : i32
      }
      yield %r : i32
    } else {
      %ii = cast %i : index -> i32
      yield %ii : i32
    }
    store %v, %B[%i] : memref<i32x?>
    %odd = arith.rem %i, 2 : index
    %isodd = cmp.eq %odd, 1 : index
    if %isodd {
      %w = load %B[%i] : memref<i32x?>
      %w2 = arith.mul %w, 2 : i32
      store %w2, %B[%i] : memref<i32x?>
    }
  }
}"""
    A = np.array([5, 0, -3, 7, 20], np.int32)
    B = np.zeros(12, np.int32)
    run(src, "k", [A, B])
    ref = np.array([100 // a if a > 0 else -1 for a in A] + list(range(5, 12)))
    ref[1::2] *= 2
    assert B.tolist() == ref.tolist()


# -- BLAS-like instructions ------------------------------------------------------------------

_GEMM_TYPES = [("f32", "f32", "f32", "f32"), ("f64", "f64", "f64", "f64"),
               ("f32", "f32", "f64", "f64"), ("f32", "f64", "f64", "f32"),
               ("i32", "i32", "i32", "i32"), ("i8", "i16", "i64", "i64"),
               ("f32", "f32", "f32", "f64")]


@pytest.mark.parametrize("ta,tb", [("n", "n"), ("n", "t"), ("t", "n"), ("t", "t")])
@pytest.mark.parametrize("types", _GEMM_TYPES, ids="-".join)
def test_gemm_transposes_mixed_types_and_alpha_beta_types(ta, tb, types):
    ea, eb, ec, es = types
    m, n, k = [(13, 70, 9), (3, 2, 1), (65, 129, 64)][len(ea + eb + ec + es) % 3]
    sa = (k, m) if ta == "t" else (m, k)
    sb = (n, k) if tb == "t" else (k, n)
    src = f"""func @k(%alpha: {es}, %A: memref<{ea}x?x?>, %B: memref<{eb}x?x?>, %beta: {es}, %C: memref<{ec}x?x?>) {{
  gemm.{ta}.{tb} %alpha, %A, %B, %beta, %C : {es}, memref<{ea}x?x?>, memref<{eb}x?x?>, {es}, memref<{ec}x?x?>
}}"""
    g = rng(1)
    if ea[0] == "f":
        A, B, C = (g.standard_normal(s) for s in (sa, sb, (m, n)))
        alpha, beta = 1.5, -0.5
    else:
        A, B, C = (g.integers(-5, 5, s) for s in (sa, sb, (m, n)))
        alpha, beta = 3, -2
    A, B, C = F(A.astype(DTYPES[ea])), F(B.astype(DTYPES[eb])), F(C.astype(DTYPES[ec]))
    C0 = C.astype(np.float64)
    run(src, "k", [alpha, A, B, beta, C])
    opA = A.T if ta == "t" else A
    opB = B.T if tb == "t" else B
    ref = alpha * (opA.astype(np.float64) @ opB.astype(np.float64)) + beta * C0
    if ec[0] == "i":
        assert (C == ref).all()
    else:
        # f32 output: accumulated in f32 (fast mode), within (K + 2) ulp of the magnitudes
        mag = abs(alpha) * (np.abs(opA).astype(np.float64) @ np.abs(opB)) + abs(beta * C0)
        eps = 2.0 ** -24 if ec == "f32" else 2.0 ** -53
        assert (np.abs(C - ref) <= (k + 2) * eps * mag).all()


def test_atomic_gemm_from_groups_fast_and_exact_modes():
    src = """func @k(%alpha: f32, %A: group<memref<f32x48x100>>, %B: memref<f32x100x?>, %C: memref<f32x48x40>) {
  %g = group_id
  %a = load %A[%g] : group<memref<f32x48x100>>
  %b = subview %B[:, %g:40] : memref<f32x100x?>
  gemm.n.n.atomic %alpha, %a, %b, 1.0, %C : f32, memref<f32x48x100>, memref<f32x100x40>, f32, memref<f32x48x40>
}"""
    g, G, K = rng(5), 4, 100
    As = [F(g.standard_normal((48, K)).astype(np.float32)) for _ in range(G)]
    B = F(g.standard_normal((K, 40 + G)).astype(np.float32))
    ref = sum(0.5 * (As[i].astype(np.float64) @ B[:, i:i + 40]) for i in range(G))
    mag = sum(0.5 * (np.abs(As[i]).astype(np.float64) @ np.abs(B[:, i:i + 40]))
              for i in range(G))
    prog = parse(src)
    for mma, ulps in [("fast", K + 1 + G), ("exact", 1 + G)]:
        C = F(np.zeros((48, 40), np.float32))
        tinytc.launch(prog, "k", args=[np.float32(0.5), As, B, C], group_size=G, mma=mma)
        assert (np.abs(C - ref) <= ulps * 2.0 ** -24 * mag).all(), mma


def test_axpby_transpose_on_strided_view_and_atomic_integer_axpby():
    src = """func @k(%a: f64, %A: memref<f32x5x7,strided<2,12>>, %B: memref<f32x7x5>, %v: memref<i32x?,strided<3>>, %w: memref<i32x?>) {
  axpby.t %a, %A, 0.5, %B : f64, memref<f32x5x7,strided<2,12>>, f64, memref<f32x7x5>
  axpby.n.atomic 2, %v, 1, %w : i32, memref<i32x?,strided<3>>, i32, memref<i32x?>
}"""
    g = rng(2)
    A = F(g.standard_normal((12, 7)).astype(np.float32))[0:10:2]
    B = F(g.standard_normal((7, 5)).astype(np.float32))
    B0 = B.astype(np.float64)
    v = g.integers(-100, 100, 30).astype(np.int32)[::3]
    w = g.integers(-100, 100, 10).astype(np.int32)
    w0 = w.copy()
    run(src, "k", [0.25, A, B, v, w], group_size=3)
    assert np.array_equal(B, (0.25 * A.T + 0.5 * B0).astype(np.float32))
    assert (w == w0 + 3 * 2 * v).all()


def test_gemv_ger_sum_atomic_and_beta_zero_ignores_nan():
    src = """func @k(%A: memref<f64x?x?>, %x: memref<f64x?>, %y: memref<f64x?>, %C: memref<f64x?x?>, %s: memref<f64>, %ta: memref<f64x?>) {
  gemv.t.atomic 1.0, %A, %x, 1.0, %y : f64, memref<f64x?x?>, memref<f64x?>, f64, memref<f64x?>
  ger.atomic 2.0, %y, %x, 1.0, %C : f64, memref<f64x?>, memref<f64x?>, f64, memref<f64x?x?>
  sum.n.atomic 0.5, %x, 1.0, %s : f64, memref<f64x?>, f64, memref<f64>
  sum.t 1.0, %A, 0.0, %ta : f64, memref<f64x?x?>, f64, memref<f64x?>
}"""
    g, m, n = rng(3), 70, 300
    A, x, y = F(g.standard_normal((n, m))), g.standard_normal(n), g.standard_normal(m)
    C = F(g.standard_normal((m, n)))
    y0, C0 = y.copy(), C.copy()
    s, ta = np.array(1.5), np.full(m, np.nan)
    run(src, "k", [A, x, y, C, s, ta])
    y_ref = y0 + A.T @ x
    np.testing.assert_allclose(y, y_ref, rtol=0, atol=1e-12)
    np.testing.assert_allclose(C, C0 + 2 * np.outer(y_ref, x), rtol=0, atol=1e-12)
    np.testing.assert_allclose(s, 1.5 + 0.5 * x.sum(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(ta, A.sum(0), rtol=0, atol=1e-12)


def test_hadamard_atomic_with_runtime_beta_across_groups():
    src = """func @k(%a: memref<f32x?>, %b: memref<f32x?>, %beta: f32, %c: memref<f32x?>) {
  hadamard.atomic 1.0, %a, %b, %beta, %c : f32, memref<f32x?>, memref<f32x?>, f32, memref<f32x?>
}"""
    g, n = rng(4), 333
    a, b, c = (g.standard_normal(n).astype(np.float32) for _ in range(3))
    ref = c.astype(np.float64)
    run(src, "k", [a, b, np.float32(0.5), c], group_size=3)
    for _ in range(3):
        ref = a.astype(np.float64) * b + 0.5 * ref
    np.testing.assert_allclose(c, ref, rtol=0, atol=4 * 2.0 ** -24 * np.abs(ref).max())


def test_beta_zero_immediate_or_runtime_does_not_read_nan_output():
    src = """func @k(%A: memref<f32x4x4>, %C: memref<f32x4x4>, %beta: f32, %D: memref<f32x4x4>) {
  gemm.n.n 1.0, %A, %A, 0.0, %C : f32, memref<f32x4x4>, memref<f32x4x4>, f32, memref<f32x4x4>
  gemm.n.n 1.0, %A, %A, %beta, %D : f32, memref<f32x4x4>, memref<f32x4x4>, f32, memref<f32x4x4>
}"""
    A = F(rng(6).integers(-4, 4, (4, 4)).astype(np.float32))
    C, D = F(np.full((4, 4), np.nan, np.float32)), F(np.full((4, 4), np.nan, np.float32))
    run(src, "k", [A, C, 0.0, D])
    assert np.array_equal(C, A @ A) and np.array_equal(D, A @ A)


def test_zero_size_modes_gemm_with_k_zero_scales_c():
    src = """func @k(%A: memref<f64x?x?>, %B: memref<f64x?x?>, %C: memref<f64x?x?>) {
  gemm.n.n 2.0, %A, %B, 3.0, %C : f64, memref<f64x?x?>, memref<f64x?x?>, f64, memref<f64x?x?>
}"""
    prog = parse(src)
    C = F(np.ones((3, 4)))
    # NumPy gives empty arrays strides of 0, which is no layout error: nothing is accessed
    tinytc.launch(prog, "k", args=[F(np.zeros((3, 0))), F(np.zeros((0, 4))), C])
    assert (C == 3).all()
    tinytc.launch(prog, "k", args=[F(np.zeros((0, 2))), F(np.ones((2, 4))), F(np.zeros((0, 4)))])


def test_axpby_of_order_zero_and_sums_with_mixed_integer_types():
    src = """func @k(%a: memref<f32>, %b: memref<f32>, %v: memref<i8x?>, %s: memref<i32>, %M: memref<i16x?x?>, %r: memref<i32x?>) {
  axpby.n 2.0, %a, 1.0, %b : f32, memref<f32>, f32, memref<f32>
  sum.t 1, %v, 0, %s : i32, memref<i8x?>, i32, memref<i32>
  sum.n 2, %M, 1, %r : i32, memref<i16x?x?>, i32, memref<i32x?>
}"""
    g = rng(7)
    a, b = np.array(1.5, np.float32), np.array(0.25, np.float32)
    v = g.integers(-128, 127, 1000).astype(np.int8)
    s = np.array(7, np.int32)
    M = F(g.integers(-30000, 30000, (300, 17)).astype(np.int16))
    r = g.integers(-5, 5, 300).astype(np.int32)
    r0 = r.copy()
    run(src, "k", [a, b, v, s, M, r])
    assert b == 3.25 and s == v.astype(np.int64).sum()
    assert (r == r0 + 2 * M.astype(np.int64).sum(1)).all()


@pytest.mark.parametrize("el", ["i1", "i8", "i16"])
def test_atomic_update_of_a_narrow_integer_type_is_a_diagnostic(el):
    src = f"""func @k(%v: memref<{el}x8>, %w: memref<{el}x8>) {{
  axpby.n.atomic 1, %v, 1, %w : {el}, memref<{el}x8>, {el}, memref<{el}x8>
}}"""
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.parse(src)
    line = src.splitlines()[1]
    assert info.value.location == f"<stdin>:2.3-{len(line)}"
    assert "Atomic update requires" in info.value.message


# -- views, groups, alloca -------------------------------------------------------------------

def test_expand_with_identifiers_fuse_subview_and_size_round_trip():
    src = """func @k(%A: memref<i32x?x6>, %m: index, %out: memref<i64x8>, %B: memref<i32x4x3x2>) {
  %e = expand %A[0 -> %m x ?] : memref<i32x?x6>
  %s0 = size %e[0] : memref<i32x?x?x6>
  %s1 = size %e[1] : memref<i32x?x?x6>
  %v = load %e[1, 2, 3] : memref<i32x?x?x6>
  %f = fuse %e[1, 2] : memref<i32x?x?x6>
  %s2 = size %f[1] : memref<i32x?x?,strided<1,?>>
  %w = load %f[1, 7] : memref<i32x?x?,strided<1,?>>
  %sv = subview %A[%m:?, 2:%m] : memref<i32x?x6>
  %s3 = size %sv[0] : memref<i32x?x?>
  %s4 = size %sv[1] : memref<i32x?x?>
  %fb = fuse %B[0, 2] : memref<i32x4x3x2>
  %e2 = expand %fb[0 -> 2 x 12] : memref<i32x24>
  %x = load %e2[1, 5] : memref<i32x2x12>
  %c0 = cast %s0 : index -> i64
  %c1 = cast %s1 : index -> i64
  %c2 = cast %s2 : index -> i64
  %c3 = cast %s3 : index -> i64
  %c4 = cast %s4 : index -> i64
  %cv = cast %v : i32 -> i64
  %cw = cast %w : i32 -> i64
  %cx = cast %x : i32 -> i64
  store %c0, %out[0] : memref<i64x8>
  store %c1, %out[1] : memref<i64x8>
  store %c2, %out[2] : memref<i64x8>
  store %c3, %out[3] : memref<i64x8>
  store %c4, %out[4] : memref<i64x8>
  store %cv, %out[5] : memref<i64x8>
  store %cw, %out[6] : memref<i64x8>
  store %cx, %out[7] : memref<i64x8>
}"""
    assert "expand %A[0->%m x ?]" in tinytc.print(tinytc.parse(src))
    g = rng(8)
    A = F(g.integers(-1000, 1000, (12, 6)).astype(np.int32))
    B = F(g.integers(-1000, 1000, (4, 3, 2)).astype(np.int32))
    out = np.zeros(8, np.int64)
    run(src, "k", [A, 3, out, B])
    # e[i, j, l] = A[i + 3 j, l]; f[i, j + 4 l] = e[i, j, l]
    assert out.tolist() == [3, 4, 24, 9, 3, A[7, 3], A[10, 1], B.ravel(order="F")[11]]


def test_subview_dynamic_offsets_and_question_mark_sizes():
    src = """func @k(%A: memref<f32x16x8>, %o: index, %out: memref<i64x3>, %S: memref<f32x?>) {
  %s = subview %A[%o:?, 3] : memref<f32x16x8>
  %n = size %s[0] : memref<f32x?>
  %s2 = subview %A[5:?, %o:2] : memref<f32x16x8>
  %n2 = size %s2[0] : memref<f32x11x2,strided<1,16>>
  %t = subview %s[1:%o] : memref<f32x?>
  %n3 = size %t[0] : memref<f32x?>
  axpby.n 1.0, %t, 0.0, %S : f32, memref<f32x?>, f32, memref<f32x?>
  %c = cast %n : index -> i64
  %c2 = cast %n2 : index -> i64
  %c3 = cast %n3 : index -> i64
  store %c, %out[0] : memref<i64x3>
  store %c2, %out[1] : memref<i64x3>
  store %c3, %out[2] : memref<i64x3>
}"""
    A = F(np.arange(128, dtype=np.float32).reshape(16, 8, order="F"))
    out, S = np.zeros(3, np.int64), np.zeros(4, np.float32)
    run(src, "k", [A, 4, out, S])
    assert out.tolist() == [12, 11, 4] and (S == A[5:9, 3]).all()


def test_groups_with_dynamic_shapes_offset_alloca_in_loops_and_work_group_attributes():
    src = """func @k(%A: group<memref<f64x?x?>, offset: ?>, %x: group<memref<f64x?>>, %Y: memref<f64x?x?>) work_group_size(32,2) subgroup_size(16) {
  %g = group_id
  %ng = group_size
  %a = load %A[%g] : group<memref<f64x?x?>, offset: ?>
  %xv = load %x[%g] : group<memref<f64x?>>
  %y = subview %Y[:, %g] : memref<f64x?x?>
  %tmp = alloca -> memref<f64x8>
  %m = size %a[0] : memref<f64x?x?>
  for %it = 0, 3 {
    %t2 = alloca -> memref<f64x8x2>
    %col = subview %t2[:, 1] : memref<f64x8x2>
    axpby.n 1.0, %tmp, 0.0, %col : f64, memref<f64x8>, f64, memref<f64x8>
    axpby.n 1.0, %col, 1.0, %tmp : f64, memref<f64x8>, f64, memref<f64x8>
  }
  %sub = subview %y[0:%m] : memref<f64x?>
  gemv.n 1.0, %a, %xv, 0.0, %sub : f64, memref<f64x?x?>, memref<f64x?>, f64, memref<f64x?>
  %ngf = cast %ng : index -> f64
  %last = load %y[7] : memref<f64x?>
  %l2 = arith.add %last, %ngf : f64
  store %l2, %y[7] : memref<f64x?>
}"""
    g, G, off = rng(9), 3, 2
    shapes = [(5, 4), (7, 2), (3, 6)]
    bufs = [g.standard_normal(off + m * n) for m, n in shapes]
    xs = [g.standard_normal(n) for _, n in shapes]
    Y = F(np.zeros((8, G)))
    run(src, "k", [tinytc.Group(bufs, offset=off, shapes=shapes), xs, Y], group_size=G)
    ref = np.zeros((8, G))
    for i, (m, n) in enumerate(shapes):
        ref[:m, i] = bufs[i][off:].reshape((m, n), order="F") @ xs[i]
    ref[7] += G
    np.testing.assert_allclose(Y, ref, rtol=0, atol=1e-14)


def test_group_of_memrefs_with_dynamic_strides_and_views_of_the_loaded_memref():
    src = """func @k(%G: group<memref<f32x4x?,strided<1,?>>, offset: ?>, %out: memref<f32x?x?>) {
  %g = group_id
  %m = load %G[%g] : group<memref<f32x4x?,strided<1,?>>, offset: ?>
  %n = size %m[1] : memref<f32x4x?,strided<1,?>>
  %row = subview %m[2, :] : memref<f32x4x?,strided<1,?>>
  %o = subview %out[:, %g] : memref<f32x?x?>
  %o2 = subview %o[0:%n] : memref<f32x?>
  axpby.n 1.0, %row, 0.0, %o2 : f32, memref<f32x?,strided<?>>, f32, memref<f32x?>
}"""
    g = rng(10)
    arrs = [F(g.standard_normal((8, k)).astype(np.float32))[:4] for k in (3, 5, 2)]
    out = F(np.zeros((6, 3), np.float32))
    run(src, "k", [arrs, out], group_size=3)
    ref = np.zeros((6, 3), np.float32)
    for i, a in enumerate(arrs):
        ref[:a.shape[1], i] = a[2]
    assert np.array_equal(out, ref)


def test_collectives_inside_for_and_if_with_alloca_per_branch():
    src = """func @k(%A: memref<f64x8x8x?>, %B: memref<f64x8x8>, %C: memref<f64x8x8x?>) {
  %g = group_id
  %a = subview %A[:, :, %g] : memref<f64x8x8x?>
  %c = subview %C[:, :, %g] : memref<f64x8x8x?>
  %r = arith.rem %g, 2 : index
  %even = cmp.eq %r, 0 : index
  for %k = 0, 3 {
    if %even {
      %tmp = alloca -> memref<f64x8x8>
      gemm.n.t 1.0, %a, %B, 0.0, %tmp : f64, memref<f64x8x8>, memref<f64x8x8>, f64, memref<f64x8x8>
      axpby.n 1.0, %tmp, 1.0, %c : f64, memref<f64x8x8>, f64, memref<f64x8x8>
    } else {
      %col = subview %B[:, %k] : memref<f64x8x8>
      ger 1.0, %col, %col, 1.0, %c : f64, memref<f64x8>, memref<f64x8>, f64, memref<f64x8x8>
    }
  }
}"""
    g, G = rng(11), 4
    A, B, C = F(g.standard_normal((8, 8, G))), F(g.standard_normal((8, 8))), \
        F(g.standard_normal((8, 8, G)))
    ref = C.copy()
    run(src, "k", [A, B, C], group_size=G)
    for i in range(G):
        for k in range(3):
            ref[:, :, i] += A[:, :, i] @ B.T if i % 2 == 0 else np.outer(B[:, k], B[:, k])
    np.testing.assert_allclose(C, ref, rtol=0, atol=1e-12)


def test_batched_triangular_solve_prefix_scan_and_transpose_kernels():
    src = """func @trsv(%L: memref<f64x?x?x?>, %b: memref<f64x?x?>) {
  %g = group_id
  %l = subview %L[:, :, %g] : memref<f64x?x?x?>
  %x = subview %b[:, %g] : memref<f64x?x?>
  %n = size %l[0] : memref<f64x?x?,strided<1,?>>
  for %i = 0, %n {
    for %j = 0, %i {
      %lij = load %l[%i, %j] : memref<f64x?x?,strided<1,?>>
      %xj = load %x[%j] : memref<f64x?>
      %p = arith.mul %lij, %xj : f64
      %acc = load %x[%i] : memref<f64x?>
      %nacc = arith.sub %acc, %p : f64
      store %nacc, %x[%i] : memref<f64x?>
    }
    %lii = load %l[%i, %i] : memref<f64x?x?,strided<1,?>>
    %s = load %x[%i] : memref<f64x?>
    %xi = arith.div %s, %lii : f64
    store %xi, %x[%i] : memref<f64x?>
  }
}
func @scan(%x: memref<i64x?>, %lim: i64) {
  %n = size %x[0] : memref<i64x?>
  for %i = 1, %n {
    %im1 = arith.sub %i, 1 : index
    %p = load %x[%im1] : memref<i64x?>
    %c = load %x[%i] : memref<i64x?>
    %s = arith.add %p, %c : i64
    %big = cmp.gt %s, %lim : i64
    %r = if %big -> (i64) {
      yield %lim : i64
    } else {
      yield %s : i64
    }
    store %r, %x[%i] : memref<i64x?>
  }
}
func @transpose(%A: memref<f32x?x?>, %B: memref<f32x?x?>) {
  %m = size %A[0] : memref<f32x?x?>
  %n = size %A[1] : memref<f32x?x?>
  foreach %i = 0, %m {
    for %j = 0, %n, 1 {
      %v = load %A[%i, %j] : memref<f32x?x?>
      store %v, %B[%j, %i] : memref<f32x?x?>
    }
  }
}"""
    prog = parse(src)
    g, n, G = rng(12), 9, 3
    L = F(np.stack([np.tril(g.standard_normal((n, n))) + 4 * np.eye(n) for _ in range(G)], 2))
    b = F(g.standard_normal((n, G)))
    want = np.stack([np.linalg.solve(L[:, :, i], b[:, i]) for i in range(G)], 1)
    tinytc.launch(prog, "trsv", args=[L, b], group_size=G)
    np.testing.assert_allclose(b, want, rtol=0, atol=1e-14)
    x = g.integers(-5, 20, 50).astype(np.int64)
    ref = x.copy()
    for i in range(1, len(ref)):
        ref[i] = min(ref[i - 1] + ref[i], 100)
    tinytc.launch(prog, "scan", args=[x, 100])
    assert (x == ref).all()
    A = F(g.standard_normal((70, 33)).astype(np.float32))
    B = F(np.zeros((33, 70), np.float32))
    tinytc.launch(prog, "transpose", args=[A, B])
    assert (B == A.T).all()


# -- error paths -----------------------------------------------------------------------------

_MALFORMED = {
    "gemm shapes": ("func @k(%A: memref<f32x4x8>, %B: memref<f32x4x8>, %C: memref<f32x4x8>) {\n"
                    "  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, memref<f32x4x8>, memref<f32x4x8>, "
                    "f32, memref<f32x4x8>\n}", "2.3-93", "Incompatible tensor shapes"),
    "yield count": ("func @k(%c: i1) {\n  %a, %b = if %c -> (i32, i32) {\n    yield 1 : i32\n"
                    "  } else {\n    yield 1, 2 : i32, i32\n  }\n}", "3.5-17",
                    "Number of yielded values does not match number of values yielded by "
                    "region"),
    "yield type": ("func @k(%c: i1) {\n  %a = if %c -> (i32) {\n    yield 1 : i64\n  } else {\n"
                   "    yield 2 : i32\n  }\n}", "3.5-17", "Number of yielded values does not "
                   "match number of values yielded by region"),
    "if without else": ("func @k(%c: i1) {\n  %a = if %c -> (i32) {\n    yield 1 : i32\n  }\n}",
                        "2.8-4.3", "An if instruction that returns values must have an else "
                        "region"),
    "yield in for": ("func @k() {\n  for %i = 0, 4 {\n    yield : \n  }\n}", "3.5-11",
                     "Yield encountered in non-yielding region"),
    "undefined": ("func @k() {\n  %a = arith.add %b, 1 : i32\n}", "2.18-19",
                  "Undefined identifier %b"),
    "float immediate for i32": ("func @k(%a: i32) {\n  %b = arith.add %a, 1.5 : i32\n}",
                                "2.22-30", "Type of SSA value does not match operand type"),
    "shl on f32": ("func @k(%a: f32) {\n  %b = arith.shl %a, %a : f32\n}", "2.8-29",
                   "Floating point type unsupported for instruction"),
    "missing brace": ("func @k(%a: f64) {\n  %b = arith.neg %a : f64\n", "3.1",
                      "syntax error, unexpected end of file, expecting axpby or gemm or gemv or "
                      "ger"),
    "unknown token": ("func @k(%a: f64) {\n  %b = arith.neg %a : f64 $\n}", "2.27",
                      "Unknown token"),
    "store type": ("func @k(%a: f64, %m: memref<f32x4>) {\n  store %a, %m[0] : memref<f32x4>\n}",
                   "2.3-33", "Scalar type mismatch"),
    "index type": ("func @k(%m: memref<f32x4>, %i: i32) {\n  %a = load %m[%i] : memref<f32x4>\n}",
                   "2.16-17", "Type of SSA value does not match operand type"),
    "collective in foreach": ("func @k(%m: memref<f32x4>) {\n  foreach %i = 0, 4 {\n    axpby.n "
                              "1.0, %m, 0.0, %m : f32, memref<f32x4>, f32, memref<f32x4>\n  }\n}",
                              "3.5-69", "Collective instruction must not be called from SPMD "
                              "region"),
    "gemv shapes": ("func @k(%A: memref<f32x4x3>, %b: memref<f32x4>, %c: memref<f32x4>) {\n  gemv.n "
                    "1.0, %A, %b, 0.0, %c : f32, memref<f32x4x3>, memref<f32x4>, f32, "
                    "memref<f32x4>\n}", "2.3-87", "Incompatible tensor shapes"),
    "ger of matrices": ("func @k(%A: memref<f64x8x8>) {\n  ger 1.0, %A, %A, 1.0, %A : f64, "
                        "memref<f64x8x8>, memref<f64x8x8>, f64, memref<f64x8x8>\n}", "2.3-88",
                        "Expected vector or matrix input"),
    "loop var reused": ("func @k() {\n  for %i = 0, 2 {\n  }\n  for %i = 0, 2 {\n  }\n}",
                        "4.7-8", "Identifier %i was already used at <stdin>:2.7-8"),
    "fuse illegal": ("func @k(%m: memref<f32x8x16,strided<1,10>>) {\n  %a = fuse %m[0,1] : "
                     "memref<f32x8x16,strided<1,10>>\n}", "2.8-52", "Modes cannot be fused: "
                     "stride and shape are incompatible (S_k s_k != S_k+1)"),
}


@pytest.mark.parametrize("name", list(_MALFORMED))
def test_malformed_programs_give_tinytc_diagnostics(name):
    src, where, message = _MALFORMED[name]
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.parse(src)
    err = info.value
    assert (err.location, err.message) == (f"<stdin>:{where}", message)
    assert DIAGNOSTIC.match(str(err).splitlines()[-1])


_ARGS_SRC = """func @k(%A: memref<f32x?x?>, %B: memref<f32x4>, %a: i8, %x: f32) {
  %v = load %B[3] : memref<f32x4>
}"""


@pytest.mark.parametrize("args,message", [
    ([F(np.zeros((2, 2), np.float32)), np.zeros(4, np.float32), 1000, 1.0],
     "argument %a: 1000 does not fit in i8"),
    ([F(np.zeros((2, 2), np.float32)), np.zeros(4, np.float32), "x", 1.0],
     "argument %a: expected an integer"),
    ([F(np.zeros((2, 2), np.float32)), np.zeros(4, np.float32), 1, None],
     "argument %x: expected a number"),
    ([F(np.zeros((2, 2), np.float32)), np.zeros(5, np.float32), 1, 1.0],
     "argument %B: size 0 must be 4"),
    ([np.zeros((2, 3), np.float32), np.zeros(4, np.float32), 1, 1.0], "argument %A: stride"),
    ([F(np.zeros((2, 2), np.float64)), np.zeros(4, np.float32), 1, 1.0],
     "argument %A: expected an array of dtype float32"),
    ([F(np.zeros((2, 2), np.float32))], "@k takes 4 arguments, got 1"),
])
def test_launch_argument_errors_name_the_tinytc_argument(args, message):
    with pytest.raises(ArgumentError) as info:
        tinytc.launch(parse(_ARGS_SRC), "k", args=args)
    assert message in str(info.value)


def test_out_of_bounds_load_is_a_launch_error_at_the_instruction():
    src = """func @k(%A: memref<f32x?>, %B: memref<f32x4>, %i: index) {
  %v = load %B[%i] : memref<f32x4>
  store %v, %B[0] : memref<f32x4>
}"""
    prog = parse(src)
    tinytc.launch(prog, "k", args=[np.zeros(3, np.float32), np.zeros(4, np.float32), 3])
    with pytest.raises(LaunchError) as info:
        tinytc.launch(prog, "k", args=[np.zeros(3, np.float32), np.zeros(4, np.float32), 9])
    # (named as tinytc names places and instructions: FILE:LINE.COL-ENDCOL, 'load')
    assert str(info.value).startswith("<stdin>:2.8-34: error: 'load' out-of-bounds read")
    assert info.value.op == "load" and info.value.loc == "<stdin>:2.8-34"


def test_out_of_bounds_access_names_the_tinytc_memref_argument():
    src = """func @k(%A: memref<f32x?>, %B: memref<f32x4>, %i: index) {
  %v = load %B[%i] : memref<f32x4>
}"""
    with pytest.raises(LaunchError) as info:
        tinytc.launch(parse(src), "k",
                      args=[np.zeros(3, np.float32), np.zeros(4, np.float32), 9])
    assert "%B" in str(info.value)
