"""§8.7 floating-point ops run by the executor, against independent references: exact rational
arithmetic (fractions) for the IEEE rounding modes, the spec's rules for maxf/minf/remf/cmpf and
flush_to_zero, NumPy float64 for the math functions."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from exec_util import bits_equal, round_fraction, run_op

DTYPES = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
CANON_NAN = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF, "f64": 0x7FFFFFFFFFFFFFFF}
UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}
MODES = ["nearest_even", "zero", "negative_inf", "positive_inf"]


def edge_values(elem: str) -> np.ndarray:
    dt = np.dtype(DTYPES[elem])
    fi = ml_dtypes.finfo(dt)
    tiny = float(fi.smallest_normal)
    sub = float(fi.smallest_subnormal)
    vals = [0.0, -0.0, 1.0, -1.0, 1.5, -2.75, 3.0, 1.0 / 3.0, -0.1, sub, -sub, 3 * sub,
            tiny, -tiny, tiny * 1.5, float(fi.max), -float(fi.max), float(fi.max) / 3,
            math.inf, -math.inf, math.nan, 7.0, 1e-3, -1e3]
    return np.array(vals, dtype=np.float64).astype(dt)


def pairs(elem: str, n_random: int = 232, seed: int = 0):
    """All pairs of edge values plus random bit patterns, padded to a power of two."""
    e = edge_values(elem)
    a, b = np.meshgrid(e, e, indexing="ij")
    a, b = a.reshape(-1), b.reshape(-1)
    dt = np.dtype(DTYPES[elem])
    rng = np.random.default_rng(seed)
    u = UINT[dt.itemsize]
    ra = rng.integers(0, np.iinfo(u).max, n_random, dtype=u, endpoint=True).view(dt)
    rb = rng.integers(0, np.iinfo(u).max, n_random, dtype=u, endpoint=True).view(dt)
    # random values of moderate magnitude too (so results are often in range)
    ma = (rng.standard_normal(n_random) * 10).astype(dt)
    mb = (rng.standard_normal(n_random) * 10).astype(dt)
    a = np.concatenate([a, ra, ma])
    b = np.concatenate([b, rb, mb])
    n = 1 << (len(a) - 1).bit_length()
    a = np.concatenate([a, np.ones(n - len(a), dt)])
    b = np.concatenate([b, np.ones(n - len(b), dt)])
    return a, b


def _is_canonical_nan(x, elem):
    x = np.asarray(x)
    return int(x.view(UINT[x.dtype.itemsize])) == CANON_NAN[elem]


def _zero_sign_add(x: float, y: float, mode: str) -> float:
    if x == 0 and y == 0 and math.copysign(1, x) == math.copysign(1, y):
        return x
    return -0.0 if mode == "negative_inf" else 0.0


def ref_binary(op: str, x: float, y: float, elem: str, mode: str) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    with np.errstate(all="ignore"):
        if math.isinf(x) or math.isinf(y) or (op == "divf" and y == 0):
            f = {"addf": np.add, "subf": np.subtract, "mulf": np.multiply,
                 "divf": np.divide}[op]
            return float(f(np.float64(x), np.float64(y)))
    fx, fy = Fraction(x), Fraction(y)
    if op == "subf":
        fy, y = -fy, -y
    if op in ("addf", "subf"):
        q = fx + fy
        if q == 0:
            return _zero_sign_add(x, y, mode)
    elif op == "mulf":
        q = fx * fy
        if q == 0:
            return math.copysign(0.0, x) * math.copysign(1.0, y)
    else:
        q = fx / fy
        if q == 0:
            return math.copysign(0.0, x) * math.copysign(1.0, y)
    return round_fraction(q, elem, mode)


def check_against(got: np.ndarray, expected: list, elem: str, what: str):
    dt = np.dtype(DTYPES[elem])
    for i, (g, e) in enumerate(zip(got, expected)):
        if math.isnan(e):
            assert _is_canonical_nan(g, elem), f"{what}[{i}]: expected canonical NaN, got {g!r}"
        else:
            want = np.array(e, dtype=np.float64).astype(dt)
            assert bits_equal(np.array(g, dtype=dt), want), f"{what}[{i}]: got {g!r}, want {want!r}"


@pytest.mark.parametrize("elem", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["addf", "subf", "mulf", "divf"])
def test_binary_rounding_modes_exact(op, mode, elem):
    a, b = pairs(elem)
    n = len(a)
    attr = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_op(f"%r = {op} %a0, %a1{attr} : tile<{n}x{elem}>", [a, b], (n,), elem)
    expected = [ref_binary(op, float(x), float(y), elem, mode) for x, y in zip(a, b)]
    check_against(got, expected, elem, f"{op} {mode} {elem}")


def _ftz(x: float, elem="f32") -> float:
    tiny = float(np.finfo(np.float32).tiny)
    return math.copysign(0.0, x) if x != 0 and abs(x) < tiny and not math.isnan(x) else x


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", ["addf", "mulf", "divf"])
def test_flush_to_zero_f32(op, mode):
    a, b = pairs("f32", n_random=0)
    sub = np.float32(np.finfo(np.float32).smallest_subnormal)
    a = np.concatenate([a, np.full(64, sub * 3), np.full(64, np.float32(1e-30))])
    b = np.concatenate([b, np.full(64, np.float32(2)), np.full(64, np.float32(1e-10))])
    n = 1 << (len(a) - 1).bit_length()
    a = np.concatenate([a, np.ones(n - len(a), np.float32)])
    b = np.concatenate([b, np.ones(n - len(b), np.float32)])
    attr = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_op(f"%r = {op} %a0, %a1{attr} flush_to_zero : tile<{n}xf32>", [a, b], (n,), "f32")
    expected = [_ftz(ref_binary(op, _ftz(float(x)), _ftz(float(y)), "f32", mode))
                for x, y in zip(a, b)]
    check_against(got, expected, "f32", f"{op} ftz {mode}")


@pytest.mark.parametrize("elem", ["f32", "f16", "f64"])
@pytest.mark.parametrize("mode", MODES)
def test_fma_single_rounding(mode, elem):
    rng = np.random.default_rng(1)
    dt = DTYPES[elem]
    e = edge_values(elem)
    a = np.concatenate([rng.standard_normal(200), np.resize(e, 56)]).astype(dt)
    b = np.concatenate([rng.standard_normal(200), np.resize(e[::-1], 56)]).astype(dt)
    c = np.concatenate([rng.standard_normal(200), np.resize(e[3:], 56)]).astype(dt)
    # cancellations: c = -(a*b) rounded, so that a*b + c is tiny and exact
    c[:50] = (-(a[:50].astype(np.float64) * b[:50].astype(np.float64))).astype(dt)
    attr = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_op(f"%r = fma %a0, %a1, %a2{attr} : tile<256x{elem}>", [a, b, c], (256,), elem)
    expected = []
    for x, y, z in zip(a.astype(float), b.astype(float), c.astype(float)):
        if any(math.isnan(v) or math.isinf(v) for v in (x, y, z)):
            with np.errstate(all="ignore"):
                expected.append(float(np.float64(x) * np.float64(y) + np.float64(z)))
            continue
        q = Fraction(x) * Fraction(y) + Fraction(z)
        if q == 0:
            p = math.copysign(0.0, x) * math.copysign(1.0, y)
            expected.append(_zero_sign_add(p, z, mode))
        else:
            expected.append(round_fraction(q, elem, mode))
    check_against(got, expected, elem, f"fma {mode} {elem}")


def _sqrt_fraction(x: float) -> Fraction:
    """A value strictly between sqrt(x) and any representable neighbour (see rounding)."""
    q = Fraction(x)
    m = 1200
    scaled = q * (Fraction(4) ** m)
    s = math.isqrt(scaled.numerator // scaled.denominator)
    y = Fraction(s, 2 ** m)
    if y * y == q:
        return y
    return y + Fraction(1, 2 ** (m + 1))


@pytest.mark.parametrize("elem", ["f32", "f64", "f16"])
@pytest.mark.parametrize("mode", MODES)
def test_sqrt_rounding_modes(mode, elem):
    rng = np.random.default_rng(2)
    dt = DTYPES[elem]
    vals = np.concatenate([np.abs(rng.standard_normal(100)) * 10, rng.random(100) * 1e-3,
                           [0.0, -0.0, 1.0, 2.0, 4.0, -1.0, np.inf, -np.inf, np.nan]])
    vals = np.concatenate([vals.astype(dt), edge_values(elem)])
    n = 1 << (len(vals) - 1).bit_length()
    vals = np.concatenate([vals, np.ones(n - len(vals), dt)])
    attr = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_op(f"%r = sqrt %a0{attr} : tile<{n}x{elem}>", [vals], (n,), elem)
    expected = []
    for x in vals.astype(float):
        if math.isnan(x) or x < 0:
            expected.append(math.nan)
        elif x == 0 or math.isinf(x):
            expected.append(x)
        else:
            expected.append(round_fraction(_sqrt_fraction(x), elem, mode))
    check_against(got, expected, elem, f"sqrt {mode} {elem}")


def ref_maxmin(x: float, y: float, want_max: bool, propagate: bool) -> float:
    if math.isnan(x) or math.isnan(y):
        if propagate or (math.isnan(x) and math.isnan(y)):
            return math.nan
        return y if math.isnan(x) else x
    if x == y == 0:
        neg = (math.copysign(1, x) < 0, math.copysign(1, y) < 0)
        return (-0.0 if all(neg) else 0.0) if want_max else (-0.0 if any(neg) else 0.0)
    return max(x, y) if want_max else min(x, y)


@pytest.mark.parametrize("elem", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("propagate", [False, True])
@pytest.mark.parametrize("op", ["maxf", "minf"])
def test_maxf_minf_nan_and_signed_zero(op, propagate, elem):
    a, b = pairs(elem, n_random=100)
    n = len(a)
    attr = " propagate_nan" if propagate else ""
    got = run_op(f"%r = {op} %a0, %a1{attr} : tile<{n}x{elem}>", [a, b], (n,), elem)
    expected = [ref_maxmin(float(x), float(y), op == "maxf", propagate) for x, y in zip(a, b)]
    check_against(got, expected, elem, f"{op} {elem}")


def test_maxf_flush_to_zero():
    sub = np.float32(np.finfo(np.float32).smallest_subnormal)
    a = np.array([sub, -sub, 5 * sub, 1.0], np.float32)
    b = np.array([-1.0, 0.0, -sub, sub], np.float32)
    got = run_op("%r = maxf %a0, %a1 flush_to_zero : tile<4xf32>", [a, b], (4,), "f32")
    assert bits_equal(got, np.array([0.0, 0.0, 0.0, 1.0], np.float32))
    got = run_op("%r = minf %a0, %a1 flush_to_zero : tile<4xf32>", [a, b], (4,), "f32")
    assert bits_equal(got, np.array([-1.0, -0.0, -0.0, 0.0], np.float32))


@pytest.mark.parametrize("elem", ["f32", "f64", "f16"])
def test_remf_special_cases_and_fmod(elem):
    dt = DTYPES[elem]
    specials = [(5.5, 0.0), (np.inf, 2.0), (3.0, np.inf), (-3.0, -np.inf), (np.nan, 1.0),
                (1.0, np.nan), (-7.0, 3.0), (7.0, -3.0), (-0.0, 5.0), (6.0, 3.0), (-6.0, 3.0)]
    rng = np.random.default_rng(3)
    x = np.concatenate([[s[0] for s in specials], rng.standard_normal(117) * 100]).astype(dt)
    y = np.concatenate([[s[1] for s in specials], rng.standard_normal(117) * 3]).astype(dt)
    got = run_op(f"%r = remf %a0, %a1 : tile<128x{elem}>", [x, y], (128,), elem)
    expected = []
    for a, b in zip(x.astype(float), y.astype(float)):
        if math.isnan(a) or math.isnan(b) or b == 0 or math.isinf(a):
            expected.append(math.nan)
        else:
            expected.append(math.fmod(a, b))     # exact, sign of the dividend
    check_against(got, expected, elem, "remf")
    # spec: the sign of the dividend, magnitude below the divisor's
    finite = np.isfinite(got.astype(float))
    assert (np.abs(got.astype(float))[finite] < np.abs(y.astype(float))[finite]).all()


@pytest.mark.parametrize("elem", ["f32", "f16", "bf16", "f64"])
def test_negf_absf_keep_nan_payload(elem):
    dt = np.dtype(DTYPES[elem])
    u = UINT[dt.itemsize]
    bits = np.array([0x0, 1 << (8 * dt.itemsize - 1), 1], dtype=u)
    nan_payload = {"f16": 0x7C01, "bf16": 0x7F81, "f32": 0x7F800001, "f64": 0x7FF0000000000001}
    x = np.concatenate([bits, np.array([nan_payload[elem]], u)]).view(dt)
    neg = run_op(f"%r = negf %a0 : tile<4x{elem}>", [x], (4,), elem)
    ab = run_op(f"%r = absf %a0 : tile<4x{elem}>", [x], (4,), elem)
    sign = u(1 << (8 * dt.itemsize - 1))
    assert (neg.view(u) == (x.view(u) ^ sign)).all()
    assert (ab.view(u) == (x.view(u) & ~sign)).all()


@pytest.mark.parametrize("elem", ["f32", "f64", "f16"])
def test_ceil_floor(elem):
    dt = DTYPES[elem]
    x = np.array([-0.5, 0.5, -0.0, 1.5, -1.5, 2.0, np.inf, -np.inf, np.nan, 1e4 + 0.5, -3.25,
                  1 / 3, -7.9, 0.0, 100.0, -100.25], dtype=dt)
    c = run_op(f"%r = ceil %a0 : tile<16x{elem}>", [x], (16,), elem)
    f = run_op(f"%r = floor %a0 : tile<16x{elem}>", [x], (16,), elem)
    check_against(c, [math.nan if math.isnan(v) else float(np.ceil(np.float64(v)))
                      for v in x.astype(float)], elem, "ceil")
    check_against(f, [math.nan if math.isnan(v) else float(np.floor(np.float64(v)))
                      for v in x.astype(float)], elem, "floor")
    assert math.copysign(1, float(c[0])) < 0      # ceil(-0.5) = -0


PREDICATES = {"equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b,
              "less_than": lambda a, b: a < b, "less_than_or_equal": lambda a, b: a <= b,
              "greater_than": lambda a, b: a > b, "greater_than_or_equal": lambda a, b: a >= b}


@pytest.mark.parametrize("elem", ["f32", "f16", "f64", "bf16"])
@pytest.mark.parametrize("ordering", ["ordered", "unordered"])
@pytest.mark.parametrize("pred", list(PREDICATES))
def test_cmpf(pred, ordering, elem):
    e = edge_values(elem)[:16]
    a, b = np.meshgrid(e, e, indexing="ij")
    a, b = a.reshape(-1), b.reshape(-1)
    got = run_op(f"%r = cmpf {pred} {ordering} %a0, %a1 : tile<256x{elem}> -> tile<256xi1>",
                 [a, b], (256,), "i1")
    for x, y, g in zip(a.astype(float), b.astype(float), got):
        if math.isnan(x) or math.isnan(y):
            want = ordering == "unordered"
        else:
            want = PREDICATES[pred](x, y)
        assert bool(g) == want, (pred, ordering, x, y)


def ulp_distance(got: np.ndarray, want: np.ndarray, elem: str) -> np.ndarray:
    dt = np.dtype(DTYPES[elem])
    g = got.astype(np.float64)
    w = want.astype(dt).astype(np.float64)
    spacing = np.abs(np.spacing(want.astype(dt)).astype(np.float64))
    return np.abs(g - w) / np.maximum(spacing, np.finfo(np.float64).tiny)


MATH = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh,
    "rsqrt": lambda x: 1 / np.sqrt(x),
}


@pytest.mark.parametrize("elem", ["f32", "f16", "f64"])
@pytest.mark.parametrize("fn", sorted(MATH))
def test_math_functions_within_one_ulp(fn, elem):
    rng = np.random.default_rng(4)
    dt = DTYPES[elem]
    x = (rng.random(256) * 8 - 4).astype(dt)
    if fn in ("log", "log2", "rsqrt"):
        x = np.abs(x) + dt(0.01)
    got = run_op(f"%r = {fn} %a0 : tile<256x{elem}>", [x], (256,), elem)
    with np.errstate(all="ignore"):
        want = MATH[fn](x.astype(np.float64))
    assert (ulp_distance(got, want, elem) <= 1.0).all()


def test_math_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5], np.float32)
    got = run_op("%r = exp %a0 : tile<8xf32>", [x], (8,), "f32")
    assert list(got[:4]) == [1.0, 1.0, np.inf, 0.0] and np.isnan(got[4])
    got = run_op("%r = log %a0 : tile<8xf32>", [x], (8,), "f32")
    assert got[0] == -np.inf and got[1] == -np.inf and got[2] == np.inf and np.isnan(got[6])
    got = run_op("%r = rsqrt %a0 : tile<8xf32>", [x], (8,), "f32")
    assert got[0] == np.inf and got[1] == -np.inf and got[2] == 0.0 and np.isnan(got[6])


def test_pow_and_atan2():
    rng = np.random.default_rng(5)
    x = (rng.random(64) * 4 + 0.1).astype(np.float32)
    y = (rng.random(64) * 4 - 2).astype(np.float32)
    got = run_op("%r = pow %a0, %a1 : tile<64xf32>", [x, y], (64,), "f32")
    assert (ulp_distance(got, np.power(x.astype(np.float64), y.astype(np.float64)), "f32") <= 1).all()
    got = run_op("%r = atan2 %a0, %a1 : tile<64xf32>", [y, x], (64,), "f32")
    assert (ulp_distance(got, np.arctan2(y.astype(np.float64), x.astype(np.float64)), "f32")
            <= 1).all()


@pytest.mark.parametrize("mode", ["approx", "full"])
def test_divf_approx_full_within_two_ulp(mode):
    rng = np.random.default_rng(6)
    a = (rng.standard_normal(256) * 100).astype(np.float32)
    b = (rng.standard_normal(256) * 10).astype(np.float32)
    got = run_op(f"%r = divf %a0, %a1 rounding<{mode}> : tile<256xf32>", [a, b], (256,), "f32")
    assert (ulp_distance(got, a.astype(np.float64) / b.astype(np.float64), "f32") <= 2).all()


def test_exp2_flush_to_zero():
    x = np.array([-130.0, -149.0, -126.0, 0.0], np.float32)     # subnormal results flushed
    got = run_op("%r = exp2 %a0 flush_to_zero : tile<4xf32>", [x], (4,), "f32")
    assert list(got) == [0.0, 0.0, 2.0 ** -126, 1.0]
    got = run_op("%r = exp2 %a0 : tile<4xf32>", [x], (4,), "f32")
    assert got[0] == np.float32(2.0 ** -130)


# -- mmaf ------------------------------------------------------------------------------------

def _exact_mma(a, b, c, out_dtype):
    """sum of exact products + acc, rounded once (products/sums exact in Fraction)."""
    res = np.empty(c.shape, dtype=out_dtype)
    for idx in np.ndindex(*c.shape):
        *bt, i, j = idx
        q = Fraction(float(c[idx]))
        for k in range(a.shape[-1]):
            q += Fraction(float(a[(*bt, i, k)])) * Fraction(float(b[(*bt, k, j)]))
        res[idx] = np.float64(round_fraction(q, {np.float32: "f32", np.float16: "f16",
                                                 np.float64: "f64"}[out_dtype], "nearest_even"))
    return res


@pytest.mark.parametrize("in_elem,acc_elem", [("f16", "f32"), ("bf16", "f32"), ("f32", "f32"),
                                              ("f16", "f16"), ("f64", "f64"),
                                              ("f8E4M3FN", "f32"), ("f8E5M2", "f16")])
def test_mmaf_2d_exact_products(in_elem, acc_elem):
    rng = np.random.default_rng(7)
    idt = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32,
           "f64": np.float64, "f8E4M3FN": ml_dtypes.float8_e4m3fn,
           "f8E5M2": ml_dtypes.float8_e5m2}[in_elem]
    adt = {"f32": np.float32, "f16": np.float16, "f64": np.float64}[acc_elem]
    a = (rng.standard_normal((4, 8)) * 4).astype(idt)
    b = (rng.standard_normal((8, 2)) * 4).astype(idt)
    c = rng.standard_normal((4, 2)).astype(adt)
    got = run_op(f"%r = mmaf %a0, %a1, %a2 : tile<4x8x{in_elem}>, tile<8x2x{in_elem}>, "
                 f"tile<4x2x{acc_elem}>", [a, b, c], (4, 2), acc_elem, mma="exact")
    if in_elem == "f64":
        want = a @ b + c
        assert np.allclose(got, want, rtol=1e-15, atol=1e-15)
    else:
        assert bits_equal(got, _exact_mma(a.astype(np.float64), b.astype(np.float64), c, adt))


def test_mmaf_batched_3d():
    rng = np.random.default_rng(8)
    a = rng.standard_normal((2, 4, 8)).astype(np.float16)
    b = rng.standard_normal((2, 8, 4)).astype(np.float16)
    c = np.zeros((2, 4, 4), np.float32)
    got = run_op("%r = mmaf %a0, %a1, %a2 : tile<2x4x8xf16>, tile<2x8x4xf16>, tile<2x4x4xf32>",
                 [a, b, c], (2, 4, 4), "f32", mma="exact")
    assert bits_equal(got, _exact_mma(a.astype(np.float64), b.astype(np.float64), c, np.float32))


def test_mmaf_tf32_inputs_rounded_to_tf32():
    # 1 + 2**-12 is not a tf32 value (10 mantissa bits): it rounds to 1.0 before the product
    a = np.full((2, 2), 1 + 2.0 ** -12, np.float32)
    b = np.eye(2, dtype=np.float32)
    c = np.zeros((2, 2), np.float32)
    got = run_op("%r = mmaf %a0, %a1, %a2 : tile<2x2xtf32>, tile<2x2xtf32>, tile<2x2xf32>",
                 [a, b, c], (2, 2), "f32", elems=["tf32", "tf32", None])
    assert (got == 1.0).all()
    got = run_op("%r = mmaf %a0, %a1, %a2 : tile<2x2xf32>, tile<2x2xf32>, tile<2x2xf32>",
                 [a, b, c], (2, 2), "f32")
    assert (got == np.float32(1 + 2.0 ** -12)).all()


def test_mmaf_spec_example_zero_inputs():
    got = run_snippet_zero()
    assert (got == 0).all()


def run_snippet_zero():
    from exec_util import run_snippet
    body = """%lhs0 = constant <f16: 0.0> : tile<4x8xf16>
    %rhs0 = constant <f16: 0.0> : tile<8x2xf16>
    %acc0 = constant <f32: 0.0> : tile<4x2xf32>
    %0 = mmaf %lhs0, %rhs0, %acc0 : tile<4x8xf16>, tile<8x2xf16>, tile<4x2xf32>"""
    return run_snippet(body, [], [("%0", (4, 2), "f32")])[0]


def test_mmaf_scaled_block_scales():
    rng = np.random.default_rng(12)
    a = (rng.standard_normal((4, 64)) * 2).astype(ml_dtypes.float8_e4m3fn)
    b = (rng.standard_normal((64, 4)) * 2).astype(ml_dtypes.float8_e4m3fn)
    c = rng.standard_normal((4, 4)).astype(np.float32)
    sa = (2.0 ** rng.integers(-3, 4, (4, 2))).astype(ml_dtypes.float8_e8m0fnu)
    sb = (2.0 ** rng.integers(-3, 4, (2, 4))).astype(ml_dtypes.float8_e8m0fnu)
    got = run_op("%r = mmaf_scaled %a0, %a1, %a2, %a3, %a4 : tile<4x64xf8E4M3FN>, "
                 "tile<64x4xf8E4M3FN>, tile<4x4xf32>, tile<4x2xf8E8M0FNU>, tile<2x4xf8E8M0FNU>",
                 [a, b, c, sa, sb], (4, 4), "f32")
    # result[i, j] = sum_k a[i,k]*sa[i,k//32] * b[k,j]*sb[k//32,j] + c[i,j]  (block size 32)
    A = a.astype(np.float64) * np.repeat(sa.astype(np.float64), 32, axis=1)
    B = b.astype(np.float64) * np.repeat(sb.astype(np.float64), 32, axis=0)
    want = _exact_mma(A, B, c, np.float32)
    assert bits_equal(got, want)
