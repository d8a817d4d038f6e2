"""Element types, bit patterns, ftoi, exti/trunci, bitcast and pack/unpack."""
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

EXAMPLES = int(os.environ.get("TILEIR_NUMERICS_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None)
INTS = {"i1": 1, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
FLOATS = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "f64": 64, "f8E4M3FN": 8,
          "f8E5M2": 8, "f8E8M0FNU": 8, "f4E2M1FN": 4}


# ----------------------------------------------------------------------------- dtypes

def test_element_type_table():
    expect = {"i1": np.bool_, "i4": ml_dtypes.int4, "i8": np.int8, "i16": np.int16,
              "i32": np.int32, "i64": np.int64, "f16": np.float16, "bf16": ml_dtypes.bfloat16,
              "f32": np.float32, "tf32": np.float32, "f64": np.float64,
              "f8E4M3FN": ml_dtypes.float8_e4m3fn, "f8E5M2": ml_dtypes.float8_e5m2,
              "f8E8M0FNU": ml_dtypes.float8_e8m0fnu, "f4E2M1FN": ml_dtypes.float4_e2m1fn}
    assert set(nx.ELEMENT_TYPES) == set(expect)
    for elem, dt in expect.items():
        assert nx.numpy_dtype(elem) == np.dtype(dt)
        assert nx.is_float(elem) == (elem in FLOATS) and nx.is_int(elem) == (elem in INTS)
        assert nx.bitwidth(elem) == {**INTS, **FLOATS}[elem]
    with pytest.raises(ValueError):
        nx.numpy_dtype("f128")


@pytest.mark.parametrize("elem", sorted({**INTS, **FLOATS}))
def test_bits_round_trip(elem: str):
    n = nx.bitwidth(elem)
    pats = np.arange(1 << n) if n <= 16 else \
        np.random.default_rng(0).integers(0, 1 << min(n, 63), 1000, dtype=np.uint64)
    if elem == "tf32":
        pats = pats & 0xFFFFE000
    x = nx.from_bits(pats, elem)
    assert x.dtype == nx.numpy_dtype(elem)
    np.testing.assert_array_equal(nx.to_bits(x, elem).astype(np.uint64), pats.astype(np.uint64))


def test_known_bit_patterns():
    assert nx.to_bits(np.float32(1.0), "f32") == 0x3F800000
    assert nx.to_bits(nx.from_bits(0x3F80, "bf16"), "bf16") == 0x3F80
    assert float(nx.from_bits(0x3F80, "bf16")) == 1.0
    assert float(nx.from_bits(0x7E, "f8E4M3FN")) == 448.0
    assert float(nx.from_bits(0x7B, "f8E5M2")) == 57344.0
    assert float(nx.from_bits(0x7F, "f8E8M0FNU")) == 1.0
    assert float(nx.from_bits(0x7, "f4E2M1FN")) == 6.0
    assert int(nx.from_bits(0xF, "i4")) == -1 and nx.from_bits(3, "i1") == np.bool_(True)
    assert nx.canonical_nan_bits("f32") == 0x7FFFFFFF
    assert nx.canonical_nan_bits("f4E2M1FN") is None


def test_float_format_parameters():
    for elem, (p, mx) in {"f16": (11, 65504.0), "bf16": (8, float(ml_dtypes.finfo(
            ml_dtypes.bfloat16).max)), "f8E4M3FN": (4, 448.0), "f8E5M2": (3, 57344.0),
            "f4E2M1FN": (2, 6.0), "f8E8M0FNU": (1, 2.0 ** 127)}.items():
        f = nx.float_format(elem)
        assert f.precision == p and f.max_value == mx


# ----------------------------------------------------------------------------- ftoi

def ref_ftoi(v: float, elem: str, is_signed: bool, mode: str) -> int:
    n = INTS[elem]
    lo, hi = (-(1 << (n - 1)), (1 << (n - 1)) - 1) if is_signed else (0, (1 << n) - 1)
    if math.isnan(v):
        return 0
    if math.isinf(v):
        return hi if v > 0 else lo
    f = Fraction(v)
    r = {"nearest_int_to_zero": math.trunc, "zero": math.trunc, "negative_inf": math.floor,
         "positive_inf": math.ceil, "nearest_even": round}[mode](f)
    return min(max(r, lo), hi)


def as_int(a: np.ndarray, elem: str, is_signed: bool) -> list[int]:
    n = INTS[elem]
    flat = np.asarray(a).reshape(-1)
    raw = [int(bool(v)) for v in flat] if elem == "i1" else [int(v) for v in
                                                           flat.astype(np.int64)]
    out = []
    for v in raw:
        u = v % (1 << n)
        out.append(u - (1 << n) if is_signed and u >= 1 << (n - 1) else u)
    return out


EDGE_FLOATS = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.99, -0.99, 127.5, 128.0, -128.5,
               -129.0, 255.9, 256.0, 32767.5, 65535.0, 65536.0, 2.0 ** 31, -(2.0 ** 31),
               2.0 ** 31 - 0.5, 2.0 ** 32, 2.0 ** 63, -(2.0 ** 63), 2.0 ** 63 - 1024, 2.0 ** 64,
               1.8e19, -1e30, 1e30, math.inf, -math.inf, math.nan, 5e-324]


@pytest.mark.parametrize("dst", sorted(INTS))
@pytest.mark.parametrize("is_signed", [True, False])
def test_ftoi_saturating_truncation(dst: str, is_signed: bool):
    if dst == "i4":
        pytest.skip("ftoi targets i1..i64")

    @SETTINGS
    @given(st.lists(st.sampled_from(EDGE_FLOATS) | st.floats(), min_size=1, max_size=20),
           st.sampled_from(["nearest_int_to_zero", "nearest_even", "negative_inf",
                            "positive_inf"]))
    def run(vals, mode):
        x = np.array(vals, np.float64)
        got = nx.ftoi(x, "f64", dst, is_signed, mode)
        assert got.dtype == nx.numpy_dtype(dst)
        assert as_int(got, dst, is_signed) == [ref_ftoi(v, dst, is_signed, mode) for v in vals]

    run()


def test_ftoi_examples_from_narrow_types():
    x = nx.from_bits(np.arange(256), "f8E4M3FN")
    got = nx.ftoi(x, "f8E4M3FN", "i16", True)
    exp = [0 if math.isnan(v) else math.trunc(v) for v in x.astype(float)]
    assert list(got) == exp
    assert list(nx.ftoi(np.array([-3.7, 3.7, np.nan], np.float16), "f16", "i8", False)) == [0, 3,
                                                                                            0]
    assert nx.ftoi(np.float32(-1.0), "f32", "i1", True) == np.bool_(True)
    assert nx.ftoi(np.float32(1.0), "f32", "i1", True) == np.bool_(False)   # 1 > max (0)
    assert nx.ftoi(np.float32(1.0), "f32", "i1", False) == np.bool_(True)
    e8 = nx.ftoi(nx.from_bits(np.array([0x7F, 0x85, 0xFF]), "f8E8M0FNU"), "f8E8M0FNU", "i16", True)
    assert list(e8) == [1, 64, 0]


# ----------------------------------------------------------------------------- exti / trunci

@pytest.mark.parametrize("src", sorted(INTS))
@pytest.mark.parametrize("dst", sorted(INTS))
def test_exti_trunci(src: str, dst: str):
    n, m = INTS[src], INTS[dst]
    vals = [0, 1, -1, (1 << (n - 1)) - 1, -(1 << (n - 1)), 5, -6]
    x = nx.from_integer(np.array(vals, np.int64), src)
    sv = as_int(x, src, True)
    if m > n:
        for is_signed in (True, False):
            got = nx.exti(x, src, dst, is_signed)
            read = sv if is_signed else as_int(x, src, False)
            assert as_int(got, dst, True) == [as_int(nx.from_integer(np.array([v]), dst), dst,
                                                     True)[0] for v in read]
            assert as_int(got, dst, is_signed) == read
    elif m < n:
        got = nx.trunci(x, src, dst)
        assert as_int(got, dst, False) == [v % (1 << m) for v in sv]
    else:
        with pytest.raises(ValueError):
            nx.exti(x, src, dst, True)
        with pytest.raises(ValueError):
            nx.trunci(x, src, dst)


# ----------------------------------------------------------------------------- bitcast

def test_bitcast_pairs():
    x = np.array([1.0, -2.0, np.inf], np.float32)
    i = nx.bitcast(x, "f32", "i32")
    assert list(i) == [0x3F800000, -0x40000000, 0x7F800000]
    np.testing.assert_array_equal(nx.bitcast(i, "i32", "f32"), x)
    t = nx.bitcast(i, "i32", "tf32")
    assert t.dtype == np.float32 and t[0] == 1.0
    h = nx.bitcast(np.array([0x3C00, -1], np.int16), "i16", "f16")
    assert h[0] == 1.0 and np.isnan(h[1])
    b = nx.bitcast(np.array([0x3F80], np.int16), "i16", "bf16")
    assert float(b[0]) == 1.0
    f8 = nx.bitcast(np.array([0x7E, -1], np.int8), "i8", "f8E4M3FN")
    assert float(f8[0]) == 448.0 and np.isnan(f8[1].astype(np.float32))
    f4 = nx.bitcast(np.array([7, -1], ml_dtypes.int4), "i4", "f4E2M1FN")
    assert list(f4.astype(float)) == [6.0, -6.0]
    assert list(nx.bitcast(f4, "f4E2M1FN", "i4").astype(int)) == [7, -1]
    d = nx.bitcast(np.array([1.0]), "f64", "i64")
    assert d[0] == 0x3FF0000000000000
    with pytest.raises(ValueError):
        nx.bitcast(x, "f32", "i64")


# ----------------------------------------------------------------------------- pack / unpack

def test_pack_is_little_endian():
    b = nx.pack(np.array([0x01020304], np.int32), "i32")
    assert b.dtype == np.int8 and list(b) == [4, 3, 2, 1]
    h = nx.pack(np.array([1.0], np.float16), "f16")
    assert list(h.view(np.uint8)) == [0x00, 0x3C]
    assert list(nx.unpack(np.array([4, 3, 2, 1], np.int8), "i32")) == [0x01020304]


def test_pack_f4_low_nibble_first():
    x = np.array([0.5, 6.0, -1.0, 0.0], ml_dtypes.float4_e2m1fn)   # 0x1, 0x7, 0xA, 0x0
    b = nx.pack(x, "f4E2M1FN")
    assert list(b.view(np.uint8)) == [0x71, 0x0A]
    np.testing.assert_array_equal(nx.unpack(b, "f4E2M1FN").astype(float), x.astype(float))
    assert list(nx.unpack(np.array([-1], np.int8), "i4").astype(int)) == [-1, -1]
    with pytest.raises(ValueError):
        nx.pack(x[:3], "f4E2M1FN")


@pytest.mark.parametrize("elem", sorted({**INTS, **FLOATS}))
def test_pack_unpack_round_trip(elem: str):
    n = nx.bitwidth(elem)
    rng = np.random.default_rng(5)
    pats = rng.integers(0, 1 << min(n, 63), 64, dtype=np.uint64)
    x = nx.from_bits(pats, elem)
    b = nx.pack(x, elem)
    assert b.dtype == np.int8 and b.size == max(1, 64 * n // 8) if n != 1 else b.size == 64
    back = nx.unpack(b, elem)
    np.testing.assert_array_equal(nx.to_bits(back, elem), nx.to_bits(x, elem))


def test_unpack_canonicalises_i1():
    got = nx.unpack(np.array([0, 1, 2, 3, -1], np.int8), "i1")
    assert got.dtype == np.bool_ and list(got) == [False, True, False, True, True]
