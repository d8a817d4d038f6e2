"""Math functions of tileir.execute.numerics: documented error bounds and special values.

References: Python's ``math`` module (scalar libm) always, and ``mpmath`` (high precision) when it
is installed, for the tight bounds stated in the module docstring of ``transcendental``.
"""
from __future__ import annotations

import math
import os
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tileir.execute import numerics as nx

EXAMPLES = int(os.environ.get("TILEIR_NUMERICS_EXAMPLES", "30"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None)
DT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
PREC = {"f16": (11, -14), "bf16": (8, -126), "f32": (24, -126), "f64": (53, -1022)}

# name: (implementation, math reference, input sampler (rng, n) -> float64 array)
UNARY = {
    "exp": (nx.exp, math.exp, lambda r, n: r.uniform(-90, 90, n)),
    "exp2": (nx.exp2, lambda v: 2.0 ** v, lambda r, n: r.uniform(-130, 130, n)),
    "log": (nx.log, math.log, lambda r, n: np.exp(r.uniform(-80, 80, n))),
    "log2": (nx.log2, math.log2, lambda r, n: np.exp(r.uniform(-80, 80, n))),
    "sin": (nx.sin, math.sin, lambda r, n: r.uniform(-1e4, 1e4, n)),
    "cos": (nx.cos, math.cos, lambda r, n: r.uniform(-1e4, 1e4, n)),
    "tan": (nx.tan, math.tan, lambda r, n: r.uniform(-10, 10, n)),
    "sinh": (nx.sinh, math.sinh, lambda r, n: r.uniform(-80, 80, n)),
    "cosh": (nx.cosh, math.cosh, lambda r, n: r.uniform(-80, 80, n)),
    "tanh": (nx.tanh, math.tanh, lambda r, n: r.uniform(-12, 12, n) * 10.0 ** r.integers(-6, 1, n)),
    "rsqrt": (nx.rsqrt, lambda v: 1 / math.sqrt(v), lambda r, n: np.exp(r.uniform(-80, 80, n))),
}


def ulp_of(v: float, elem: str) -> float:
    p, emin = PREC[elem]
    e = max(math.frexp(v)[1] - 1, emin) if v != 0 else emin
    return math.ldexp(1.0, e - p + 1)


def narrow(v: float, elem: str) -> float:
    """Round-to-nearest of an f32 value (held in a float64) into elem with NumPy/ml_dtypes."""
    with np.errstate(over="ignore"):
        return float(np.array([v], np.float64).astype(np.float32).astype(DT[elem])[0])


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("elem", ["f32", "f64"])
def test_unary_within_one_ulp_of_libm(name: str, elem: str):
    impl, ref, sample = UNARY[name]
    x = sample(np.random.default_rng(11), 400).astype(DT[elem])
    got = impl(x, elem)
    assert got.dtype == np.dtype(DT[elem])
    for v, g in zip(x.astype(float), got.astype(float)):
        try:
            want = ref(v)
        except OverflowError:
            want = math.inf
        if elem == "f32":
            want = float(np.float32(want)) if abs(want) < 3.5e38 else math.copysign(math.inf, want)
        if math.isinf(want) or math.isinf(g):
            assert g == want or abs(want) > 3.3e38, (name, v)
            continue
        assert abs(g - want) <= ulp_of(want, elem), (name, v, g, want)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("elem", ["f16", "bf16"])
def test_half_types_are_computed_via_f32(name: str, elem: str):
    impl, _, sample = UNARY[name]
    rng = np.random.default_rng(12)
    with np.errstate(over="ignore"):
        x = sample(rng, 300).astype(np.float32).astype(DT[elem])
    got = impl(x, elem)
    assert got.dtype == np.dtype(DT[elem])
    via32 = impl(x.astype(np.float32), "f32")
    expect = via32.astype(np.float64)
    for g, w in zip(got.astype(float), expect):
        n = narrow(float(w), elem)
        assert (math.isnan(g) and math.isnan(n)) or g == n, (name, g, n)


def test_binary_functions_within_one_ulp_of_libm():
    rng = np.random.default_rng(13)
    for elem in ("f32", "f64"):
        b = rng.uniform(0.01, 20, 300).astype(DT[elem])
        e = rng.uniform(-20, 20, 300).astype(DT[elem])
        for impl, ref, args in ((nx.pow, math.pow, (b, e)), (nx.atan2, math.atan2, (e, b)),
                                (nx.atan2, math.atan2, (b, -e))):
            got = impl(*args, elem)
            for g, u, v in zip(got.astype(float), *(a.astype(float) for a in args)):
                want = ref(u, v)
                if elem == "f32":
                    want = float(np.float32(want))
                assert abs(g - want) <= ulp_of(want, elem), (impl.__name__, u, v)


def _mpmath():
    return pytest.importorskip("mpmath")


MP_FUNCS = {
    "exp": "exp", "log": "log", "sin": "sin", "cos": "cos", "tan": "tan", "sinh": "sinh",
    "cosh": "cosh", "tanh": "tanh",
}


def _ulp_error(got: float, exact, elem: str, mpm) -> float:
    p, emin = PREC[elem]
    e = max(int(mpm.floor(mpm.log(abs(exact), 2))), emin)
    return float(abs(mpm.mpf(got) - exact) / mpm.mpf(2) ** (e - p + 1))


@pytest.mark.parametrize("name", sorted(MP_FUNCS) + ["exp2", "log2", "rsqrt"])
def test_f32_error_bound_against_mpmath(name: str):
    mpm = _mpmath()
    mpm.mp.prec = 120
    impl, _, sample = UNARY[name]
    fn = {"exp2": lambda v: mpm.power(2, v), "log2": lambda v: mpm.log(v, 2),
          "rsqrt": lambda v: 1 / mpm.sqrt(v)}.get(name) or getattr(mpm, MP_FUNCS.get(name, name))
    x = sample(np.random.default_rng(14), 300).astype(np.float32)
    got = impl(x, "f32")
    for v, g in zip(x.astype(float), got.astype(float)):
        exact = fn(mpm.mpf(v))
        if exact == 0 or not math.isfinite(g) or abs(exact) > 3.4e38:
            continue
        assert _ulp_error(g, exact, "f32", mpm) <= 0.5 + 2.0 ** -16, (name, v)


@pytest.mark.parametrize("name", ["tanh", "rsqrt"])
def test_f64_tanh_rsqrt_bound_against_mpmath(name: str):
    mpm = _mpmath()
    mpm.mp.prec = 200
    impl, _, sample = UNARY[name]
    fn = mpm.tanh if name == "tanh" else (lambda v: 1 / mpm.sqrt(v))
    rng = np.random.default_rng(15)
    x = np.concatenate([sample(rng, 400), rng.uniform(-1, 1, 100) * 2.0 ** -12,
                        np.array([2.0 ** -13, 2.0 ** -13 * (1 - 2.0 ** -52), 22.0, 0.5493,
                                  19.1, 5e-324, 1e-310, 1.7e308])])
    if name == "rsqrt":
        x = np.abs(x)
    got = impl(x, "f64")
    for v, g in zip(x, got):
        exact = fn(mpm.mpf(float(v)))
        assert _ulp_error(float(g), exact, "f64", mpm) <= 0.5 + 2.0 ** -20, (name, v)


def test_special_values():
    f = np.float32
    inf, nan = math.inf, math.nan
    cases = [
        (nx.exp, (-inf,), 0.0), (nx.exp, (inf,), inf), (nx.exp, (0.0,), 1.0),
        (nx.exp2, (10.0,), 1024.0), (nx.exp2, (-149.0,), 2.0 ** -149), (nx.exp2, (-inf,), 0.0),
        (nx.log, (0.0,), -inf), (nx.log, (-0.0,), -inf), (nx.log, (-1.0,), nan),
        (nx.log, (inf,), inf), (nx.log2, (2.0 ** -20,), -20.0), (nx.log2, (1.0,), 0.0),
        (nx.sin, (-0.0,), -0.0), (nx.sin, (inf,), nan), (nx.cos, (inf,), nan),
        (nx.tan, (-0.0,), -0.0), (nx.sinh, (-inf,), -inf), (nx.cosh, (-inf,), inf),
        (nx.tanh, (inf,), 1.0), (nx.tanh, (-inf,), -1.0), (nx.tanh, (-0.0,), -0.0),
        (nx.rsqrt, (0.0,), inf), (nx.rsqrt, (-0.0,), -inf), (nx.rsqrt, (inf,), 0.0),
        (nx.rsqrt, (-1.0,), nan), (nx.rsqrt, (4.0,), 0.5),
        (nx.pow, (nan, 0.0), 1.0), (nx.pow, (1.0, nan), 1.0), (nx.pow, (-8.0, 1 / 3), nan),
        (nx.pow, (-2.0, 3.0), -8.0), (nx.pow, (0.0, -1.0), inf), (nx.pow, (-1.0, inf), 1.0),
        (nx.atan2, (0.0, -0.0), math.pi), (nx.atan2, (-0.0, -0.0), -math.pi),
        (nx.atan2, (1.0, 0.0), math.pi / 2), (nx.atan2, (-1.0, inf), -0.0),
    ]
    for elem in ("f16", "bf16", "f32", "f64"):
        for fn, args, want in cases:
            got = float(fn(*(np.array(a, np.float64).astype(DT[elem]) for a in args), elem))
            w = float(np.array(want).astype(np.float32).astype(DT[elem])) if elem != "f64" \
                else want
            if math.isnan(w):
                assert math.isnan(got), (fn.__name__, args, elem)
                bits = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF,
                        "f64": 0x7FFFFFFFFFFFFFFF}[elem]
                assert int(nx.to_bits(fn(*(np.array(a).astype(DT[elem]) for a in args), elem),
                                      elem)) == bits
            else:
                assert got == w and math.copysign(1, got) == math.copysign(1, w), \
                    (fn.__name__, args, elem, got, w)
    assert f(nx.exp2(f(-130.0), "f32")) != 0
    assert nx.exp2(f(-130.0), "f32", flush_to_zero=True) == 0


def test_exp2_flush_to_zero_of_subnormal_inputs_is_one():
    """flush_to_zero flushes exp2's subnormal inputs to zero of their sign: 2**(+-0) = 1, the
    value 2**x rounds to for every subnormal x (the evaluation skips the input flush)."""
    rng = np.random.default_rng(3)
    mant = np.concatenate([[1, 2, 3, 0x7FFFFF, 0x400000],
                           rng.integers(1, 1 << 23, 5000)]).astype(np.uint32)
    sub = np.concatenate([mant, mant | np.uint32(0x80000000)]).view(np.float32)
    got = nx.exp2(sub, "f32", flush_to_zero=True)
    assert got.dtype == np.float32 and np.all(got == np.float32(1.0))
    # and the exact values: 2**x for |x| < 2**-126 is within 2**-126 of 1 (rounds to 1)
    mpm = _mpmath()
    mpm.mp.prec = 300
    for x in sub[:10]:
        assert np.float32(float(mpm.mpf(2) ** mpm.mpf(float(x)))) == np.float32(1.0)


def test_rounding_modifiers():
    x = np.linspace(-5, 5, 101).astype(np.float32)
    np.testing.assert_array_equal(nx.exp(x, "f32", "approx"), nx.exp(x, "f32", "full"))
    np.testing.assert_array_equal(nx.tanh(x, "f32", "approx"), nx.tanh(x, "f32"))
    with pytest.raises(ValueError):
        nx.tanh(x.astype(np.float64), "f64", "approx")
    with pytest.raises(ValueError):
        nx.exp(x, "f32", "nearest_even")
    with pytest.raises(ValueError):
        nx.rsqrt(x.astype(np.float16), "f16", flush_to_zero=True)
    sub = np.array([2.0 ** -140, -(2.0 ** -140)], np.float32)
    assert list(nx.rsqrt(sub, "f32", flush_to_zero=True)) == [math.inf, -math.inf]


@SETTINGS
@given(st.lists(st.floats(width=32, allow_nan=False, min_value=-200, max_value=200),
                min_size=1, max_size=20))
def test_exp2_of_integers_is_exact(vals):
    x = np.floor(np.array(vals, np.float32))
    got = nx.exp2(x, "f32")
    for v, g in zip(x.astype(float), got.astype(float)):
        exact = Fraction(2) ** int(v)
        if exact > Fraction((2 - Fraction(1, 2 ** 23)) * 2 ** 127):
            assert g == math.inf
        elif exact >= Fraction(1, 2 ** 149):
            assert Fraction(g) == exact
