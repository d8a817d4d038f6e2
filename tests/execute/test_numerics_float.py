"""Float arithmetic and float conversions of tileir.execute.numerics against exact references.

The reference is written independently of the implementation: formats are re-specified here,
values are ``fractions.Fraction``s, and ``ref_round`` rounds a rational to a format in one of the
four IEEE directions with plain integer arithmetic (subnormals, overflow, saturation included).
"""
from __future__ import annotations

import math
import os
from fractions import Fraction
from typing import Callable, Union

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tileir.execute import numerics as nx

MODES = ("nearest_even", "zero", "negative_inf", "positive_inf")
ARITH = ("f16", "bf16", "f32", "f64")
# TILEIR_NUMERICS_EXAMPLES=2000 for a thorough local run; the default keeps the suite fast
EXAMPLES = int(os.environ.get("TILEIR_NUMERICS_EXAMPLES", "25"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# ----------------------------------------------------------------------------- reference
# name: (precision incl. hidden bit, emin, largest finite, kind)
FORMATS = {
    "f16": (11, -14, Fraction(65504), "ieee"),
    "bf16": (8, -126, (2 - Fraction(1, 2 ** 7)) * 2 ** 127, "ieee"),
    "f32": (24, -126, (2 - Fraction(1, 2 ** 23)) * 2 ** 127, "ieee"),
    "tf32": (11, -126, (2 - Fraction(1, 2 ** 10)) * 2 ** 127, "ieee"),
    "f64": (53, -1022, (2 - Fraction(1, 2 ** 52)) * 2 ** 1023, "ieee"),
    "f8E5M2": (3, -14, Fraction(57344), "sat"),
    "f8E4M3FN": (4, -6, Fraction(448), "sat_no_nan"),
    "f4E2M1FN": (2, 0, Fraction(6), "sat_no_nan"),
    "f8E8M0FNU": (1, -127, Fraction(2) ** 127, "e8m0"),
}
STORAGE = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "tf32": np.float32,
           "f64": np.float64, "f8E5M2": ml_dtypes.float8_e5m2,
           "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f4E2M1FN": ml_dtypes.float4_e2m1fn,
           "f8E8M0FNU": ml_dtypes.float8_e8m0fnu}
UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

Value = Union[Fraction, float]   # Fraction for non-zero finite values, float for 0/inf/nan


def floor_log2(a: Fraction) -> int:
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def ref_round(x: Value, fmt: str, mode: str) -> float:
    """Round x once to fmt in mode (conversion semantics: satfinite for f8/f4 kinds)."""
    p, emin, maxv, kind = FORMATS[fmt]
    if isinstance(x, float):
        if math.isnan(x):
            return float(maxv) if kind == "sat_no_nan" else math.nan
        if math.isinf(x):
            if kind == "ieee":
                return x
            if kind == "e8m0":
                return float(maxv) if x > 0 else math.nan
            return math.copysign(float(maxv), x)
        assert x == 0
        return math.nan if kind == "e8m0" else x
    sign = -1 if x < 0 else 1
    if kind == "e8m0" and sign < 0:
        return math.nan
    a = abs(x)
    q = max(floor_log2(a), emin) - (p - 1)
    scaled = a / Fraction(2) ** q
    n = math.floor(scaled)
    rem = scaled - n
    if mode == "nearest_even":
        n += rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1)
    elif mode == "positive_inf":
        n += rem > 0 and sign > 0
    elif mode == "negative_inf":
        n += rem > 0 and sign < 0
    v = n * Fraction(2) ** q
    if v > maxv:
        away = {"nearest_even": True, "zero": False, "positive_inf": sign > 0,
                "negative_inf": sign < 0}[mode]
        if kind == "ieee" and away:
            return math.copysign(math.inf, sign)
        v = maxv
    if v == 0:
        if kind == "e8m0":
            return 2.0 ** -127
        return math.copysign(0.0, sign)
    return float(sign * v)


def val(x: float) -> Value:
    return Fraction(x) if math.isfinite(x) and x != 0 else float(x)


def same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def ref_add(x: float, y: float, fmt: str, mode: str) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if math.isinf(x) or math.isinf(y):
        if math.isinf(x) and math.isinf(y) and x != y:
            return math.nan
        return x if math.isinf(x) else y
    s = Fraction(x) + Fraction(y)
    if s == 0:
        both_neg = math.copysign(1, x) < 0 and math.copysign(1, y) < 0
        both_pos = math.copysign(1, x) > 0 and math.copysign(1, y) > 0
        if x == 0 and y == 0 and (both_neg or both_pos):
            return x
        return -0.0 if mode == "negative_inf" else 0.0
    return ref_round(s, fmt, mode)


def _sign(x: float) -> int:
    return -1 if math.copysign(1, x) < 0 else 1


def ref_mul(x: float, y: float, fmt: str, mode: str) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    sign = _sign(x) * _sign(y)
    if math.isinf(x) or math.isinf(y):
        return math.nan if (x == 0 or y == 0) else sign * math.inf
    if x == 0 or y == 0:
        return math.copysign(0.0, sign)
    return ref_round(Fraction(x) * Fraction(y), fmt, mode)


def ref_div(x: float, y: float, fmt: str, mode: str) -> float:
    if math.isnan(x) or math.isnan(y):
        return math.nan
    sign = _sign(x) * _sign(y)
    if math.isinf(x):
        return math.nan if math.isinf(y) else sign * math.inf
    if math.isinf(y):
        return math.copysign(0.0, sign)
    if y == 0:
        return math.nan if x == 0 else sign * math.inf
    if x == 0:
        return math.copysign(0.0, sign)
    return ref_round(Fraction(x) / Fraction(y), fmt, mode)


def ref_fma(x: float, y: float, z: float, fmt: str, mode: str) -> float:
    if any(math.isnan(v) for v in (x, y, z)):
        return math.nan
    psign = _sign(x) * _sign(y)
    if math.isinf(x) or math.isinf(y):
        if x == 0 or y == 0:
            return math.nan
        if math.isinf(z) and _sign(z) != psign:
            return math.nan
        return psign * math.inf
    if math.isinf(z):
        return z
    p = Fraction(x) * Fraction(y)
    s = p + Fraction(z)
    if s == 0:
        if p == 0 and z == 0 and psign == _sign(z):
            return z
        return -0.0 if mode == "negative_inf" else 0.0
    return ref_round(s, fmt, mode)


def _sqrt_value(x: Fraction) -> Fraction:
    """sqrt(x) exactly if rational, else a rational strictly inside the same 2**-1200 interval."""
    k = 1200
    scaled = x * Fraction(2) ** (2 * k)
    r = math.isqrt(math.floor(scaled))
    if Fraction(r) ** 2 == scaled:
        return Fraction(r, 2 ** k)
    return Fraction(2 * r + 1, 2 ** (k + 1))


def ref_sqrt(x: float, fmt: str, mode: str) -> float:
    if math.isnan(x) or x < 0:
        return math.nan
    if x == 0 or math.isinf(x):
        return x
    return ref_round(_sqrt_value(Fraction(x)), fmt, mode)


# ----------------------------------------------------------------------------- helpers

def from_bits(bits, fmt: str) -> np.ndarray:
    dt = np.dtype(STORAGE[fmt])
    b = np.asarray(bits).astype(UINT[dt.itemsize])
    return b.view(dt)


def floats_of(fmt: str) -> st.SearchStrategy:
    """Any value of fmt (from random bit patterns, plus 'interesting' floats for f32/f64)."""
    if fmt == "f64":
        return st.floats(allow_nan=True, allow_infinity=True) | \
            st.integers(0, 2 ** 64 - 1).map(lambda b: float(from_bits([b], "f64")[0]))
    nbits = {"f16": 16, "bf16": 16, "f32": 32}[fmt]
    pats = st.integers(0, 2 ** nbits - 1).map(lambda b: float(from_bits([b], fmt)[0]))
    if fmt == "f32":
        pats = pats | st.floats(width=32)
    return pats


def arr(values, fmt: str) -> np.ndarray:
    return np.array(values, dtype=np.float64).astype(STORAGE[fmt])


def check(got: np.ndarray, expected: list[float], context) -> None:
    g = np.asarray(got).astype(np.float64).ravel()
    for i, (a, b) in enumerate(zip(g, expected)):
        assert same(float(a), b), (context, i, float(a), b)


# ----------------------------------------------------------------------------- reference sanity

def test_reference_rounder_known_values():
    assert ref_round(Fraction(1) + Fraction(1, 2 ** 24), "f32", "nearest_even") == 1.0
    assert ref_round(Fraction(1) + Fraction(3, 2 ** 24), "f32", "nearest_even") == 1 + 2 ** -22
    assert ref_round(Fraction(1) + Fraction(1, 2 ** 60), "f32", "positive_inf") == 1 + 2 ** -23
    assert ref_round(-Fraction(1, 2 ** 200), "f32", "negative_inf") == -(2.0 ** -149)
    assert same(ref_round(-Fraction(1, 2 ** 200), "f32", "zero"), -0.0)
    assert ref_round(Fraction(70000), "f16", "zero") == 65504
    assert ref_round(Fraction(70000), "f16", "nearest_even") == math.inf
    assert ref_round(Fraction(-70000), "f16", "positive_inf") == -65504
    assert ref_round(Fraction(500), "f8E4M3FN", "nearest_even") == 448
    assert ref_round(Fraction(3, 2), "f8E8M0FNU", "nearest_even") == 2


# ----------------------------------------------------------------------------- binary arithmetic

BINARY = {
    "addf": (nx.addf, ref_add),
    "subf": (nx.subf, lambda x, y, f, m: ref_add(x, -y, f, m)),
    "mulf": (nx.mulf, ref_mul),
    "divf": (nx.divf, ref_div),
}


@pytest.mark.parametrize("elem", ARITH)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_ops_exact(op: str, mode: str, elem: str):
    impl, ref = BINARY[op]

    @SETTINGS
    @given(st.lists(st.tuples(floats_of(elem), floats_of(elem)), min_size=1, max_size=12))
    def run(pairs):
        xs = arr([p[0] for p in pairs], elem)
        ys = arr([p[1] for p in pairs], elem)
        got = impl(xs, ys, elem, mode)
        assert got.dtype == np.dtype(STORAGE[elem]) and got.shape == xs.shape
        exp = [ref(float(a), float(b), elem, mode) for a, b in zip(xs.astype(float),
                                                                     ys.astype(float))]
        check(got, exp, (op, mode, elem))

    run()


@pytest.mark.parametrize("elem", ARITH)
@pytest.mark.parametrize("mode", MODES)
def test_fma_exact(mode: str, elem: str):
    @SETTINGS
    @given(st.lists(st.tuples(floats_of(elem), floats_of(elem), floats_of(elem), st.booleans()),
                    min_size=1, max_size=12))
    def run(items):
        xs = arr([t[0] for t in items], elem)
        ys = arr([t[1] for t in items], elem)
        # half of the accumulators cancel the rounded product: the exact tail then decides
        with np.errstate(all="ignore"):
            cancel = -(xs.astype(np.float64) * ys.astype(np.float64)).astype(STORAGE[elem])
        zs = np.where([t[3] for t in items], cancel, arr([t[2] for t in items], elem))
        got = nx.fma(xs, ys, zs, elem, mode)
        exp = [ref_fma(float(a), float(b), float(c), elem, mode)
               for a, b, c in zip(xs.astype(float), ys.astype(float), zs.astype(float))]
        check(got, exp, ("fma", mode, elem))

    run()


@pytest.mark.parametrize("elem", ARITH)
@pytest.mark.parametrize("mode", MODES)
def test_sqrt_exact(mode: str, elem: str):
    @SETTINGS
    @given(st.lists(floats_of(elem), min_size=1, max_size=16))
    def run(values):
        xs = arr(values, elem)
        got = nx.sqrt(xs, elem, mode)
        check(got, [ref_sqrt(float(v), elem, mode) for v in xs.astype(float)], (mode, elem))

    run()


def test_nearest_even_f32_f64_match_numpy():
    rng = np.random.default_rng(1)
    for dt, elem in ((np.float32, "f32"), (np.float64, "f64")):
        a = (rng.standard_normal(1000) * 10.0 ** rng.integers(-30, 30, 1000)).astype(dt)
        b = rng.standard_normal(1000).astype(dt)
        with np.errstate(all="ignore"):
            for op, ref in ((nx.addf, np.add), (nx.subf, np.subtract), (nx.mulf, np.multiply),
                            (nx.divf, np.divide)):
                np.testing.assert_array_equal(op(a, b, elem), ref(a, b).astype(dt))
            np.testing.assert_array_equal(nx.sqrt(np.abs(a), elem), np.sqrt(np.abs(a)))


HALFWAY = [  # (x, y, f32 results for nearest_even, zero, negative_inf, positive_inf)
    (1.0, 2.0 ** -24, (1.0, 1.0, 1.0, 1 + 2.0 ** -23)),
    (1.0, 3 * 2.0 ** -24, (1 + 2.0 ** -22, 1 + 2.0 ** -23, 1 + 2.0 ** -23, 1 + 2.0 ** -22)),
    (-1.0, -(2.0 ** -24), (-1.0, -1.0, -1 - 2.0 ** -23, -1.0)),
    (1.0, -(2.0 ** -25), (1.0, 1 - 2.0 ** -24, 1 - 2.0 ** -24, 1.0)),
]


@pytest.mark.parametrize("x,y,results", HALFWAY)
def test_add_halfway_cases_f32(x, y, results):
    for mode, want in zip(MODES, results):
        got = nx.addf(np.float32(x), np.float32(y), "f32", mode)
        assert float(got) == want, mode


def test_signed_zero_rules():
    z = np.array([3.0, 0.0, -0.0, -0.0, 0.0], np.float32)
    w = np.array([-3.0, -0.0, 0.0, -0.0, 0.0], np.float32)
    for mode in MODES:
        got = nx.addf(z, w, "f32", mode)
        neg = mode == "negative_inf"
        assert list(np.signbit(got)) == [neg, neg, neg, True, False], mode
        # x - x is +0 except under negative_inf
        assert np.signbit(nx.subf(np.float32(5), np.float32(5), "f32", mode)) == neg
    for mode in MODES:
        r = nx.fma(np.float64(2.0), np.float64(3.0), np.float64(-6.0), "f64", mode)
        assert r == 0 and np.signbit(r) == (mode == "negative_inf")


def test_overflow_per_mode():
    big = np.float32(3e38)
    assert nx.addf(big, big, "f32", "nearest_even") == np.inf
    assert nx.addf(big, big, "f32", "zero") == np.finfo(np.float32).max
    assert nx.addf(big, big, "f32", "negative_inf") == np.finfo(np.float32).max
    assert nx.addf(-big, -big, "f32", "positive_inf") == -np.finfo(np.float32).max
    m = np.float64(np.finfo(np.float64).max)
    assert nx.mulf(m, np.float64(2), "f64", "zero") == m
    assert nx.mulf(m, np.float64(2), "f64", "positive_inf") == np.inf
    assert nx.mulf(-m, np.float64(2), "f64", "positive_inf") == -m
    assert nx.addf(m, m, "f64", "negative_inf") == m
    assert nx.addf(m, np.float64(2.0 ** 970), "f64", "positive_inf") == np.inf
    assert nx.addf(m, np.float64(2.0 ** 969), "f64", "nearest_even") == m


def test_underflow_per_mode_f64():
    tiny = np.float64(5e-324)
    assert nx.mulf(tiny, np.float64(0.5), "f64", "positive_inf") == tiny
    r = nx.mulf(tiny, np.float64(0.5), "f64", "zero")
    assert r == 0 and not np.signbit(r)
    assert nx.mulf(-tiny, np.float64(0.5), "f64", "negative_inf") == -tiny
    assert nx.mulf(tiny, np.float64(0.5), "f64", "nearest_even") == 0  # tie -> even (0)
    assert nx.mulf(tiny, np.float64(0.75), "f64", "nearest_even") == tiny
    assert nx.divf(np.float64(1e-300), np.float64(1e300), "f64", "positive_inf") == tiny
    assert nx.sqrt(tiny, "f64", "negative_inf") == 2.0 ** -537
    assert nx.sqrt(2 * tiny, "f64", "negative_inf") == float.fromhex("0x1.6a09e667f3bccp-537")
    assert nx.sqrt(2 * tiny, "f64", "positive_inf") == float.fromhex("0x1.6a09e667f3bcdp-537")


def test_canonical_nan_results():
    nan_bits = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF, "f64": 0x7FFFFFFFFFFFFFFF}
    for elem in ARITH:
        inf = arr([np.inf], elem)
        for mode in MODES:
            for r in (nx.addf(inf, -inf, elem, mode), nx.mulf(inf, arr([0], elem), elem, mode),
                      nx.divf(arr([0], elem), arr([0], elem), elem, mode),
                      nx.sqrt(arr([-1], elem), elem, mode),
                      nx.fma(inf, arr([0], elem), arr([1], elem), elem, mode)):
                assert int(nx.to_bits(r, elem)[0]) == nan_bits[elem], (elem, mode)


# ----------------------------------------------------------------------------- flush to zero

def _ftz(x: float) -> float:
    return math.copysign(0.0, x) if x != 0 and abs(x) < 2.0 ** -126 else x


@pytest.mark.parametrize("mode", MODES)
def test_flush_to_zero_f32(mode: str):
    sub = [2.0 ** -149, -(2.0 ** -140), 2.0 ** -127, 1.5 * 2.0 ** -126, 2.0 ** -126]

    @SETTINGS
    @given(st.lists(st.tuples(st.sampled_from(sub) | floats_of("f32"),
                              st.sampled_from(sub + [0.5, -0.5, 1.0]) | floats_of("f32")),
                    min_size=1, max_size=12))
    def run(pairs):
        xs = arr([p[0] for p in pairs], "f32")
        ys = arr([p[1] for p in pairs], "f32")
        for impl, ref in ((nx.addf, ref_add), (nx.mulf, ref_mul), (nx.divf, ref_div)):
            got = impl(xs, ys, "f32", mode, flush_to_zero=True)
            exp = [_ftz(ref(_ftz(float(a)), _ftz(float(b)), "f32", mode))
                   for a, b in zip(xs.astype(float), ys.astype(float))]
            check(got, exp, (impl.__name__, mode))
        got = nx.fma(xs, ys, xs, "f32", mode, flush_to_zero=True)
        exp = [_ftz(ref_fma(_ftz(float(a)), _ftz(float(b)), _ftz(float(a)), "f32", mode))
               for a, b in zip(xs.astype(float), ys.astype(float))]
        check(got, exp, ("fma", mode))
        got = nx.sqrt(xs, "f32", mode, flush_to_zero=True)
        check(got, [_ftz(ref_sqrt(_ftz(float(a)), "f32", mode)) for a in xs.astype(float)],
              ("sqrt", mode))

    run()


def test_fma_just_above_an_f32_midpoint():
    # x*y is exactly halfway between two f32 values and +x lifts it above: the f64 sum lands
    # one f64 ulp past the midpoint with a negative error term, which must not read as a tie
    x, y = np.float32(1.7632415262334313e-38), np.float32(1.1879556344446976e+16)
    for mode in MODES:
        got = nx.fma(np.array([x]), np.array([y]), np.array([x]), "f32", mode)
        check(got, [ref_fma(float(x), float(y), float(x), "f32", mode)], ("fma", mode))


def test_flush_to_zero_examples():
    sub = np.float32(2.0 ** -140)
    assert np.signbit(nx.mulf(-sub, np.float32(1.0), "f32", flush_to_zero=True))
    assert nx.mulf(-sub, np.float32(1.0), "f32", flush_to_zero=True) == 0
    assert nx.mulf(np.float32(2.0 ** -100), np.float32(2.0 ** -30), "f32") != 0
    r = nx.mulf(np.float32(-(2.0 ** -100)), np.float32(2.0 ** -30), "f32", flush_to_zero=True)
    assert r == 0 and np.signbit(r)
    assert nx.maxf(-sub, np.float32(-1.0), "f32", flush_to_zero=True) == 0
    assert np.signbit(nx.maxf(-sub, np.float32(-1.0), "f32", flush_to_zero=True))
    with pytest.raises(ValueError):
        nx.addf(np.float64(1), np.float64(1), "f64", flush_to_zero=True)
    with pytest.raises(ValueError):
        nx.divf(np.float16(1), np.float16(1), "f16", "approx")


def test_flush_subnormals_f32_every_exponent_boundary():
    """f32 flush_to_zero (by bit masks) against its definition, element by element: zeros,
    both ends of the subnormal range, the smallest normals, infinities, NaNs and random
    patterns, in arrays of several shapes (0-d, strided)."""
    from tileir.execute.numerics.rounding import flush_subnormals
    edges = np.array([0, 1, 2, 0x7FFFFF, 0x7FFFFE, 0x800000, 0x800001, 0x7F800000, 0x7FC00000,
                      0x7FFFFFFF, 0x3F800000], np.uint32)
    rng = np.random.default_rng(31)
    bits = np.concatenate([edges, edges | np.uint32(0x80000000),
                           rng.integers(0, 1 << 32, 20000, dtype=np.uint64).astype(np.uint32),
                           rng.integers(0, 1 << 23, 5000, dtype=np.uint32)])
    x = bits.view(np.float32)
    want = []
    for v in x.tolist():
        want.append(math.copysign(0.0, v) if v != 0 and abs(v) < 2.0 ** -126 else v)
    want = np.array(want, np.float32)
    with np.errstate(all="ignore"):
        got = flush_subnormals(x, "f32")
        assert np.array_equal(got.view(np.uint32)[np.isfinite(want)],
                              want.view(np.uint32)[np.isfinite(want)])
        nan = np.isnan(x)                   # NaNs kept bit for bit
        assert np.array_equal(got.view(np.uint32)[nan], bits[nan])
        strided = x[: 4000].reshape(-1, 4)[:, 1:3]
        finite = np.isfinite(strided)       # (NaN payloads: Python floats quiet them above)
        assert np.array_equal(flush_subnormals(strided, "f32").view(np.uint32)[finite],
                              want[: 4000].reshape(-1, 4)[:, 1:3].view(np.uint32)[finite])
    zero_d = flush_subnormals(np.float32(-(2.0 ** -140)), "f32")
    assert zero_d.shape == () and zero_d == 0 and np.signbit(zero_d)
    normal = np.ones(3, np.float32)
    assert flush_subnormals(normal, "f32") is normal        # nothing to flush: no copy


# ----------------------------------------------------------------------------- approx / full

def _ulp_error(got: float, exact: Fraction) -> Fraction:
    e = max(floor_log2(abs(exact)), -126) if exact != 0 else -126
    return abs(Fraction(got) - exact) / Fraction(2) ** (e - 23)


@SETTINGS
@given(st.lists(st.tuples(st.floats(width=32, allow_nan=False, allow_infinity=False),
                          st.floats(width=32, min_value=2.0 ** -126, max_value=2.0 ** 126)),
                min_size=1, max_size=16))
def test_divf_approx_and_full_bounds(pairs):
    xs = np.array([p[0] for p in pairs], np.float32)
    ys = np.array([p[1] for p in pairs], np.float32) * np.float32(-1) ** np.arange(len(pairs))
    approx = nx.divf(xs, ys, "f32", "approx")
    full = nx.divf(xs, ys, "f32", "full")
    for x, y, a, f in zip(xs, ys, approx, full):
        exact = Fraction(float(x)) / Fraction(float(y))
        assert float(f) == ref_div(float(x), float(y), "f32", "nearest_even")
        if exact != 0 and abs(exact) < 2 ** 128:
            assert _ulp_error(float(a), exact) <= Fraction(3, 2)


def test_divf_approx_large_divisor():
    y = np.array([2.0 ** 127, -(2.0 ** 127), 2.0 ** 127], np.float32)
    x = np.array([1.0, 3.0, np.inf], np.float32)
    r = nx.divf(x, y, "f32", "approx")
    assert r[0] == 0 and r[1] == 0 and np.signbit(r[1]) and np.isnan(r[2])
    assert nx.divf(np.float32(1.0), np.float32(2.0 ** 127), "f32", "full") == np.float32(2.0 ** -127)


def test_sqrt_approx_is_correctly_rounded():
    x = np.float32(2.0)
    assert nx.sqrt(x, "f32", "approx") == np.sqrt(x)


# ----------------------------------------------------------------------------- max/min, etc.

def test_maxf_minf_nan_and_zero_rules():
    nan = np.float32(np.nan)
    a = np.array([1.0, np.nan, np.nan, 0.0, -0.0, -1.0], np.float32)
    b = np.array([np.nan, 2.0, np.nan, -0.0, 0.0, -2.0], np.float32)
    mx = nx.maxf(a, b, "f32")
    assert list(mx[:2]) == [1.0, 2.0] and np.isnan(mx[2])
    assert not np.signbit(mx[3]) and not np.signbit(mx[4]) and mx[5] == -1
    mn = nx.minf(a, b, "f32")
    assert list(mn[:2]) == [1.0, 2.0] and np.isnan(mn[2])
    assert np.signbit(mn[3]) and np.signbit(mn[4]) and mn[5] == -2
    for fn in (nx.maxf, nx.minf):
        p = fn(a, b, "f32", propagate_nan=True)
        assert np.isnan(p[:3]).all() and not np.isnan(p[3:]).any()
        assert (nx.to_bits(p[:3], "f32") == 0x7FFFFFFF).all()
    assert nx.to_bits(nx.maxf(nan, nan, "f32"), "f32") == 0x7FFFFFFF


@pytest.mark.parametrize("elem", ARITH)
def test_maxf_minf_random(elem: str):
    @SETTINGS
    @given(st.lists(st.tuples(floats_of(elem), floats_of(elem)), min_size=1, max_size=16),
           st.booleans())
    def run(pairs, prop):
        xs = arr([p[0] for p in pairs], elem)
        ys = arr([p[1] for p in pairs], elem)
        for fn, pick in ((nx.maxf, max), (nx.minf, min)):
            got = fn(xs, ys, elem, propagate_nan=prop)
            exp = []
            for x, y in zip(xs.astype(float), ys.astype(float)):
                if math.isnan(x) or math.isnan(y):
                    exp.append(math.nan if prop or (math.isnan(x) and math.isnan(y))
                               else (y if math.isnan(x) else x))
                elif x == y == 0:
                    neg = (math.copysign(1, x) < 0, math.copysign(1, y) < 0)
                    exp.append(-0.0 if (all(neg) if pick is max else any(neg)) else 0.0)
                else:
                    exp.append(pick(x, y))
            check(got, exp, (fn.__name__, elem))

    run()


@pytest.mark.parametrize("elem", ARITH)
def test_remf_is_exact_fmod(elem: str):
    @SETTINGS
    @given(st.lists(st.tuples(floats_of(elem), floats_of(elem)), min_size=1, max_size=16))
    def run(pairs):
        xs = arr([p[0] for p in pairs], elem)
        ys = arr([p[1] for p in pairs], elem)
        got = nx.remf(xs, ys, elem)
        exp = []
        for x, y in zip(xs.astype(float), ys.astype(float)):
            if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
                exp.append(math.nan)
            elif math.isinf(y):
                exp.append(x)
            else:
                fx, fy = Fraction(x), Fraction(y)
                q = math.trunc(fx / fy)
                r = fx - q * fy
                exp.append(float(r) if r != 0 else math.copysign(0.0, x))
        check(got, exp, elem)

    run()


def test_remf_special_cases():
    f = np.float32
    assert nx.remf(f(-7), f(3), "f32") == -1 and nx.remf(f(7), f(-3), "f32") == 1
    assert np.signbit(nx.remf(f(-4), f(2), "f32"))
    assert np.isnan(nx.remf(f(1), f(0), "f32")) and np.isnan(nx.remf(f(np.inf), f(2), "f32"))
    assert nx.remf(f(5), f(np.inf), "f32") == 5


@pytest.mark.parametrize("elem", ARITH)
def test_ceil_floor_neg_abs(elem: str):
    vals = [-2.5, -0.5, -0.0, 0.0, 0.3, 1.0, 2.5, 1e4, -np.inf, np.inf]
    x = arr(vals, elem)
    xv = x.astype(float)
    def integral(fn: Callable[[float], int], v: float) -> float:
        return math.copysign(float(fn(v)), v) if math.isfinite(v) else v

    check(nx.ceil(x, elem), [integral(math.ceil, v) for v in xv], elem)
    check(nx.floor(x, elem), [integral(math.floor, v) for v in xv], elem)
    check(nx.negf(x, elem), [-v for v in xv], elem)
    check(nx.absf(x, elem), [abs(v) for v in xv], elem)
    # negf/absf only touch the sign bit: NaN payloads survive
    payload = {"f16": 0x7C01, "bf16": 0x7F81, "f32": 0x7F800001, "f64": 0x7FF0000000000001}
    p = nx.from_bits(np.array([payload[elem]]), elem)
    sign = 1 << (nx.bitwidth(elem) - 1)
    assert int(nx.to_bits(nx.negf(p, elem), elem)[0]) == payload[elem] | sign
    assert int(nx.to_bits(nx.absf(nx.negf(p, elem), elem), elem)[0]) == payload[elem]


def test_cmpf_predicates_and_ordering():
    a = np.array([1.0, 1.0, np.nan, -0.0, 2.0], np.float32)
    b = np.array([1.0, 2.0, 1.0, 0.0, np.nan], np.float32)
    expect = {
        "equal": [1, 0, 0, 1, 0], "not_equal": [0, 1, 0, 0, 0], "less_than": [0, 1, 0, 0, 0],
        "less_than_or_equal": [1, 1, 0, 1, 0], "greater_than": [0, 0, 0, 0, 0],
        "greater_than_or_equal": [1, 0, 0, 1, 0],
    }
    for pred, ordered in expect.items():
        got = nx.cmpf(a, b, "f32", pred, "ordered")
        assert got.dtype == np.bool_ and list(got.astype(int)) == ordered, pred
        un = nx.cmpf(a, b, "f32", pred, "unordered")
        assert list(un.astype(int)) == ordered[:2] + [1] + ordered[3:4] + [1], pred
    assert nx.cmpf(arr([1.5], "bf16"), arr([1.5], "bf16"), "bf16", "equal")[0]


# ----------------------------------------------------------------------------- conversions

ALL_FLOATS = tuple(FORMATS)


def _values_of(fmt: str) -> np.ndarray:
    """Every value of 8/4-bit formats; edge values plus random patterns for wider ones."""
    dt = np.dtype(STORAGE[fmt])
    if fmt == "f4E2M1FN":
        return np.arange(16, dtype=np.uint8).view(dt)
    if dt.itemsize == 1:
        return np.arange(256, dtype=np.uint8).view(dt)
    rng = np.random.default_rng(7)
    n = 8 * dt.itemsize
    pats = rng.integers(0, 2 ** min(n, 63), 300, dtype=np.uint64)
    if n == 64:
        pats |= rng.integers(0, 2, 300, dtype=np.uint64) << np.uint64(63)
    if fmt == "tf32":
        pats &= np.uint64(0xFFFFE000)
    edges = [0, 1, 2 ** (n - 1), 2 ** (n - 1) + 1, 2 ** (n - 1) - 1, 2 ** n - 1]
    pats = np.concatenate([pats, np.array(edges, dtype=np.uint64)])
    return pats.astype(UINT[dt.itemsize]).view(dt)


EXTRA_F64 = [1 / 3, -1 / 3, 65520.0, 65519.99, 448.0, 464.0, 480.0, -500.0, 57344.0, 61440.0,
             1e300, -1e300, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -150, 2.0 ** -149,
             1.5 * 2.0 ** -149, 2.0 ** 127 * 1.5, 2.0 ** 128, 2.0 ** -128, 2.0 ** -130, 0.25,
             5.0, 7.0, 2.5, 0.75, 1 + 2.0 ** -11, 1 + 2.0 ** -8 + 2.0 ** -40, 5e-324]


@pytest.mark.parametrize("src", ALL_FLOATS)
@pytest.mark.parametrize("dst", ALL_FLOATS)
def test_ftof_all_pairs_all_modes(src: str, dst: str):
    if src == dst:
        pytest.skip("ftof needs different types")
    x = _values_of(src)
    if src == "f64":
        x = np.concatenate([x, np.array(EXTRA_F64 + [-v for v in EXTRA_F64])])
    xv = x.astype(np.float64)
    for mode in MODES:
        got = nx.ftof(x, src, dst, mode)
        assert got.dtype == np.dtype(STORAGE[dst]) and got.shape == x.shape
        check(got, [ref_round(val(float(v)), dst, mode) for v in xv], (src, dst, mode))


@pytest.mark.parametrize("src, dst", [("f16", "f8E4M3FN"), ("f16", "f8E5M2"),
                                      ("f16", "f4E2M1FN"), ("bf16", "f8E4M3FN"),
                                      ("bf16", "f8E8M0FNU")])
def test_ftof_every_16_bit_value_to_narrow_formats(src: str, dst: str):
    """Exhaustive: all 65536 inputs, every mode the target accepts, against exact rounding."""
    x = np.arange(65536, dtype=np.uint16).view(np.dtype(STORAGE[src]))
    with np.errstate(invalid="ignore"):       # NaN payloads widen to NaN
        values = [val(float(v)) for v in x.astype(np.float64)]
    modes = ("zero", "positive_inf") if dst == "f8E8M0FNU" else MODES
    for mode in modes:
        got = nx.ftof(x, src, dst, mode)
        check(got, [ref_round(v, dst, mode) for v in values], (src, dst, mode))


def test_ftof_satfinite_table():
    x = np.array([np.inf, -np.inf, np.nan, 1e6, -1e6], np.float32)
    e5 = nx.ftof(x, "f32", "f8E5M2").astype(float)
    assert list(e5[[0, 1, 3, 4]]) == [57344, -57344, 57344, -57344] and np.isnan(e5[2])
    e4 = nx.ftof(x, "f32", "f8E4M3FN").astype(float)
    assert list(e4) == [448, -448, 448, 448, -448]
    f4 = nx.ftof(x, "f32", "f4E2M1FN").astype(float)
    assert list(f4) == [6, -6, 6, 6, -6]
    e8 = nx.ftof(np.array([np.inf, np.nan, 0.0, -1.0, 1e-45, 3.0], np.float32), "f32",
                 "f8E8M0FNU")
    bits = list(nx.to_bits(e8, "f8E8M0FNU"))
    assert bits == [0xFE, 0xFF, 0xFF, 0xFF, 0x00, 0x81]   # 3.0 -> 4.0 (tie goes up)
    assert list(nx.to_bits(nx.ftof(np.float32(3.0), "f32", "f8E8M0FNU", "zero")[None],
                           "f8E8M0FNU")) == [0x80]
    assert nx.to_bits(nx.ftof(np.float32(np.nan), "f32", "f8E5M2")[None], "f8E5M2")[0] == 0x7F


def test_ftof_f64_to_bf16_single_rounding():
    # an f32 intermediate would round 1 + 2**-8 + 2**-40 to the tie 1 + 2**-8 and then to 1.0
    x = np.array([1 + 2.0 ** -8 + 2.0 ** -40])
    assert float(nx.ftof(x, "f64", "bf16")[0]) == 1 + 2.0 ** -7


def test_ftof_tf32_bits():
    x = np.array([1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, np.nan, 1.0000001], np.float32)
    t = nx.ftof(x, "f32", "tf32")
    assert t.dtype == np.float32
    b = nx.to_bits(t, "tf32")
    assert (b & 0x1FFF == 0).all() and b[2] == 0x7FFFE000
    assert list(t[[0, 1]]) == [1.0, 1 + 2.0 ** -9]
    up = nx.ftof(np.float32(1.0000001)[None], "f32", "tf32", "positive_inf")
    assert up[0] == 1 + 2.0 ** -10


INT_SAMPLES = {
    "i1": [0, 1], "i8": [0, 1, -1, 127, -128, 100], "i16": [32767, -32768, 2049, -2049],
    "i32": [2 ** 31 - 1, -2 ** 31, 16777217, -16777219, 65519, 65520, 2 ** 24 + 3],
    "i64": [2 ** 63 - 1, -2 ** 63, 2 ** 53 + 1, -(2 ** 53) - 1, 2 ** 62 + 2 ** 40 + 1,
            (2 ** 22 + 1) * 2 ** 40, 123456789012345678, -1, 0],
}
IDTYPE = {"i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


@pytest.mark.parametrize("src", sorted(INT_SAMPLES))
@pytest.mark.parametrize("dst", [f for f in ALL_FLOATS if f != "f8E8M0FNU"])
@pytest.mark.parametrize("signed", [True, False])
def test_itof_exact(src: str, dst: str, signed: bool):
    rng = np.random.default_rng(3)
    n = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64}[src]
    lo, hi = (-(2 ** (n - 1)), 2 ** (n - 1) - 1) if n > 1 else (0, 1)
    vals = INT_SAMPLES[src] + [int(v) for v in rng.integers(lo, hi, 40, dtype=np.int64,
                                                            endpoint=True)]
    x = np.array([v != 0 for v in vals] if src == "i1" else vals, dtype=IDTYPE[src])
    for mode in MODES:
        got = nx.itof(x, src, dst, signed, mode)
        exp = []
        for v in vals:
            v = int(v) % (2 ** n)
            if signed and v >= 2 ** (n - 1):
                v -= 2 ** n
            exp.append(ref_round(Fraction(v), dst, mode) if v else 0.0)
        check(got, exp, (src, dst, signed, mode))


def test_itof_rejects_e8m0():
    with pytest.raises(ValueError):
        nx.itof(np.int8(1), "i8", "f8E8M0FNU", True)
