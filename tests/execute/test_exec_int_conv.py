"""§8.8 integer, §8.9 bitwise and §8.4 conversion ops run by the executor, against Python
integer arithmetic, exact fractions and the spec's examples (edge values: INT_MIN, -1,
wrap-around, NaN, +-Inf, +-0, subnormals, saturation)."""

from __future__ import annotations

import math
from fractions import Fraction

import ml_dtypes
import numpy as np
import pytest

from exec_util import bits_equal, round_fraction, run_op, run_snippet

INTS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64}


def int_edges(elem: str, seed: int = 0, n: int = 64) -> np.ndarray:
    dt = np.dtype(INTS[elem])
    info = np.iinfo(dt)
    vals = [0, 1, -1, 2, -2, 3, -3, 7, -7, info.min, info.max, info.min + 1, info.max - 1]
    rng = np.random.default_rng(seed)
    rand = rng.integers(info.min, info.max, n - len(vals), dtype=dt, endpoint=True)
    return np.concatenate([np.array(vals, dtype=dt), rand])


def grid_pairs(elem: str):
    e = int_edges(elem, n=32)
    a, b = np.meshgrid(e, e, indexing="ij")
    return a.reshape(-1), b.reshape(-1)


def wrap(v: int, bits: int, signed: bool = True) -> int:
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def unsigned(v: int, bits: int) -> int:
    return v & ((1 << bits) - 1)


@pytest.mark.parametrize("elem", list(INTS))
@pytest.mark.parametrize("op,fn", [("addi", lambda a, b: a + b), ("subi", lambda a, b: a - b),
                                   ("muli", lambda a, b: a * b)])
def test_wraparound_arith(op, fn, elem):
    a, b = grid_pairs(elem)
    n = len(a)
    bits = int(elem[1:])
    got = run_op(f"%r = {op} %a0, %a1 : tile<{n}x{elem}>", [a, b], (n,), elem)
    want = [wrap(fn(int(x), int(y)), bits) for x, y in zip(a, b)]
    assert [int(g) for g in got] == want


def _div_ref(a: int, b: int, rounding: str) -> int:
    q = Fraction(a, b)
    if rounding == "zero":
        return math.trunc(q)
    if rounding == "positive_inf":
        return math.ceil(q)
    return math.floor(q)


@pytest.mark.parametrize("elem", list(INTS))
@pytest.mark.parametrize("rounding", ["zero", "positive_inf", "negative_inf"])
def test_divi_signed(rounding, elem):
    a, b = grid_pairs(elem)
    bits = int(elem[1:])
    keep = (b != 0) & ~((a == np.iinfo(a.dtype).min) & (b == -1))   # defined cases
    a, b = a[keep], b[keep]
    n = 1 << (len(a).bit_length() - 1)
    a, b = a[:n], b[:n]
    attr = "" if rounding == "zero" else f" rounding<{rounding}>"
    got = run_op(f"%r = divi %a0, %a1 signed{attr} : tile<{n}x{elem}>", [a, b], (n,), elem)
    assert [int(g) for g in got] == [wrap(_div_ref(int(x), int(y), rounding), bits)
                                     for x, y in zip(a, b)]


@pytest.mark.parametrize("elem", list(INTS))
@pytest.mark.parametrize("rounding", ["zero", "positive_inf"])
def test_divi_unsigned(rounding, elem):
    a, b = grid_pairs(elem)
    bits = int(elem[1:])
    keep = b != 0
    a, b = a[keep], b[keep]
    n = 1 << (len(a).bit_length() - 1)
    a, b = a[:n], b[:n]
    attr = "" if rounding == "zero" else f" rounding<{rounding}>"
    got = run_op(f"%r = divi %a0, %a1 unsigned{attr} : tile<{n}x{elem}>", [a, b], (n,), elem)
    want = [wrap(_div_ref(unsigned(int(x), bits), unsigned(int(y), bits), rounding), bits)
            for x, y in zip(a, b)]
    assert [int(g) for g in got] == want


def test_divi_undefined_cases_are_deterministic():
    # division by zero and INT_MIN / -1 are undefined in the spec; the executor's documented
    # choices (numerics.intops): x/0 = -1 (all ones), INT_MIN / -1 = INT_MIN
    a = np.array([5, -5, np.iinfo(np.int32).min, 0], np.int32)
    b = np.array([0, 0, -1, 0], np.int32)
    got = run_op("%r = divi %a0, %a1 signed : tile<4xi32>", [a, b], (4,), "i32")
    assert list(got) == [-1, -1, np.iinfo(np.int32).min, -1]


def test_remi_spec_examples_and_sign():
    a = np.array([7, 7, -7, -7], np.i32 if hasattr(np, "i32") else np.int32)
    b = np.array([3, -3, 3, -3], np.int32)
    got = run_op("%r = remi %a0, %a1 signed : tile<4xi32>", [a, b], (4,), "i32")
    assert list(got) == [1, 1, -1, -1]
    for elem in INTS:
        x, y = grid_pairs(elem)
        keep = (y != 0)
        x, y = x[keep][:512], y[keep][:512]
        bits = int(elem[1:])
        got = run_op(f"%r = remi %a0, %a1 signed : tile<512x{elem}>", [x, y], (512,), elem)
        want = [wrap(int(p) - math.trunc(Fraction(int(p), int(q))) * int(q), bits)
                for p, q in zip(x, y)]
        assert [int(g) for g in got] == want
        got = run_op(f"%r = remi %a0, %a1 unsigned : tile<512x{elem}>", [x, y], (512,), elem)
        want = [wrap(unsigned(int(p), bits) % unsigned(int(q), bits), bits) for p, q in zip(x, y)]
        assert [int(g) for g in got] == want


@pytest.mark.parametrize("elem", list(INTS))
def test_shifts(elem):
    bits = int(elem[1:])
    x = int_edges(elem, n=32)
    sh = np.arange(32, dtype=INTS[elem]) % (bits + 2)          # includes amounts >= width
    got_l = run_op(f"%r = shli %a0, %a1 : tile<32x{elem}>", [x, sh], (32,), elem)
    got_s = run_op(f"%r = shri %a0, %a1 signed : tile<32x{elem}>", [x, sh], (32,), elem)
    got_u = run_op(f"%r = shri %a0, %a1 unsigned : tile<32x{elem}>", [x, sh], (32,), elem)
    for v, s, gl, gs, gu in zip(x, sh, got_l, got_s, got_u):
        v, s = int(v), int(s)
        if s >= bits:      # the documented choice: shli/logical shri give 0, arithmetic the fill
            assert (int(gl), int(gu), int(gs)) == (0, 0, -1 if v < 0 else 0)
            continue
        assert int(gl) == wrap(v << s, bits)
        assert int(gs) == v >> s
        assert int(gu) == wrap(unsigned(v, bits) >> s, bits)


def test_mulhii_spec_example_and_random():
    a = np.array([2 ** 31, 2 ** 32 - 1, 3, 0], dtype=np.uint32).view(np.int32)
    b = np.array([2, 2 ** 32 - 1, 5, 7], dtype=np.uint32).view(np.int32)
    got = run_op("%r = mulhii %a0, %a1 : tile<4xi32>", [a, b], (4,), "i32")
    assert list(got.view(np.uint32)) == [1, 2 ** 32 - 2, 0, 0]
    x, y = grid_pairs("i64")
    got = run_op("%r = mulhii %a0, %a1 : tile<1024xi64>", [x, y], (1024,), "i64")
    assert [int(g) & (2 ** 64 - 1) for g in got] == [
        (unsigned(int(p), 64) * unsigned(int(q), 64)) >> 64 for p, q in zip(x, y)]


@pytest.mark.parametrize("elem", list(INTS))
def test_absi_negi(elem):
    bits = int(elem[1:])
    x = int_edges(elem)
    got = run_op(f"%r = absi %a0 : tile<64x{elem}>", [x], (64,), elem)
    assert [unsigned(int(g), bits) for g in got] == [abs(int(v)) for v in x]
    got = run_op(f"%r = negi %a0 : tile<64x{elem}>", [x], (64,), elem)
    assert [int(g) for g in got] == [wrap(-int(v), bits) for v in x]


def test_negi_spec_example():
    got = run_op("%r = negi %a0 : tile<4xi16>", [np.array([0, 1, 2, 3], np.int16)], (4,), "i16")
    assert list(got) == [0, -1, -2, -3]


@pytest.mark.parametrize("elem", list(INTS))
@pytest.mark.parametrize("signed", [True, False])
def test_maxi_mini(signed, elem):
    a, b = grid_pairs(elem)
    bits = int(elem[1:])
    s = "signed" if signed else "unsigned"
    gmax = run_op(f"%r = maxi %a0, %a1 {s} : tile<1024x{elem}>", [a, b], (1024,), elem)
    gmin = run_op(f"%r = mini %a0, %a1 {s} : tile<1024x{elem}>", [a, b], (1024,), elem)
    key = (lambda v: int(v)) if signed else (lambda v: unsigned(int(v), bits))
    assert [int(g) for g in gmax] == [int(x) if key(x) >= key(y) else int(y) for x, y in zip(a, b)]
    assert [int(g) for g in gmin] == [int(x) if key(x) <= key(y) else int(y) for x, y in zip(a, b)]


CMP = {"equal": lambda a, b: a == b, "not_equal": lambda a, b: a != b,
       "less_than": lambda a, b: a < b, "less_than_or_equal": lambda a, b: a <= b,
       "greater_than": lambda a, b: a > b, "greater_than_or_equal": lambda a, b: a >= b}


@pytest.mark.parametrize("elem", ["i8", "i32", "i64"])
@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("pred", list(CMP))
def test_cmpi(pred, signed, elem):
    a, b = grid_pairs(elem)
    bits = int(elem[1:])
    s = "signed" if signed else "unsigned"
    got = run_op(f"%r = cmpi {pred} %a0, %a1, {s} : tile<1024x{elem}> -> tile<1024xi1>",
                 [a, b], (1024,), "i1")
    key = (lambda v: int(v)) if signed else (lambda v: unsigned(int(v), bits))
    assert [bool(g) for g in got] == [CMP[pred](key(x), key(y)) for x, y in zip(a, b)]


def test_i1_signed_and_unsigned_views():
    # i1: unsigned ops see 0/1, signed ops see 0/-1 (§8.8.1)
    t = np.array([True, False, True, False])
    f = np.array([False, False, True, True])
    lt_s = run_op("%r = cmpi less_than %a0, %a1, signed : tile<4xi1> -> tile<4xi1>", [t, f],
                  (4,), "i1")
    lt_u = run_op("%r = cmpi less_than %a0, %a1, unsigned : tile<4xi1> -> tile<4xi1>", [t, f],
                  (4,), "i1")
    assert list(lt_s) == [True, False, False, False]      # -1 < 0
    assert list(lt_u) == [False, False, False, True]      # 0 < 1
    add = run_op("%r = addi %a0, %a1 : tile<4xi1>", [t, f], (4,), "i1")
    assert list(add) == [True, False, False, True]        # modulo 2
    ext = run_op("%r = exti %a0 signed : tile<4xi1> -> tile<4xi32>", [t], (4,), "i32")
    assert list(ext) == [-1, 0, -1, 0]
    ext = run_op("%r = exti %a0 unsigned : tile<4xi1> -> tile<4xi32>", [t], (4,), "i32")
    assert list(ext) == [1, 0, 1, 0]


@pytest.mark.parametrize("elem", ["i1", "i8", "i32", "i64"])
def test_bitwise(elem):
    if elem == "i1":
        a = np.array([True, True, False, False] * 4)
        b = np.array([True, False, True, False] * 4)
    else:
        a, b = grid_pairs(elem)
        a, b = a[:16], b[:16]
    for op, fn in (("andi", np.bitwise_and), ("ori", np.bitwise_or), ("xori", np.bitwise_xor)):
        got = run_op(f"%r = {op} %a0, %a1 : tile<16x{elem}>", [a, b], (16,), elem)
        assert (got == fn(a, b)).all()


def test_xori_spec_example():
    got = run_op("%r = xori %a0, %a1 : tile<4xi32>", [np.array([0, 1, 2, 3], np.int32),
                                                       np.array([4, 5, 6, 7], np.int32)],
                 (4,), "i32")
    assert list(got) == [4, 4, 4, 4]


@pytest.mark.parametrize("ls,rs", [("signed", "signed"), ("unsigned", "signed"),
                                   ("signed", "unsigned"), ("unsigned", "unsigned")])
def test_mmai(ls, rs):
    rng = np.random.default_rng(9)
    a = rng.integers(-128, 128, (2, 4, 32), dtype=np.int8)
    b = rng.integers(-128, 128, (2, 32, 8), dtype=np.int8)
    c = rng.integers(-2 ** 31, 2 ** 31, (2, 4, 8), dtype=np.int64).astype(np.int32)
    got = run_op(f"%r = mmai %a0, %a1, %a2 {ls} {rs} : tile<2x4x32xi8>, tile<2x32x8xi8>, "
                 "tile<2x4x8xi32>", [a, b, c], (2, 4, 8), "i32")
    av = a.astype(np.int64) if ls == "signed" else a.view(np.uint8).astype(np.int64)
    bv = b.astype(np.int64) if rs == "signed" else b.view(np.uint8).astype(np.int64)
    want = ((av @ bv) + c.astype(np.int64)).astype(np.int32)      # wraps modulo 2**32
    assert (got == want).all()


# -- conversions -------------------------------------------------------------------------------

FLOATS = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}


def float_samples(dt, n=200, seed=10):
    rng = np.random.default_rng(seed)
    specials = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 65504.0, 65520.0, 1e5, -1e5,
                2.0 ** -24, 2.0 ** -25, 2.0 ** -26, 3 * 2.0 ** -26, 448.0, 464.0, 500.0,
                57344.0, 61440.0, 1e-8, 0.3, -0.3, 1.0 + 2 ** -11, 1.0 + 2 ** -12, 3e38]
    with np.errstate(over="ignore"):
        vals = np.concatenate([specials, rng.standard_normal(n) * 100,
                               rng.standard_normal(n) * 1e-5]).astype(dt)
    m = 1 << (len(vals) - 1).bit_length()
    return np.concatenate([vals, np.ones(m - len(vals), dt)])


@pytest.mark.parametrize("src,dst", [("f32", "f16"), ("f32", "bf16"), ("f64", "f32"),
                                     ("f64", "f16"), ("f64", "bf16"), ("f16", "bf16")])
@pytest.mark.parametrize("mode", ["nearest_even", "zero", "negative_inf", "positive_inf"])
def test_ftof_rounding_modes(src, dst, mode):
    x = float_samples(FLOATS[src])
    n = len(x)
    attr = "" if mode == "nearest_even" else f" rounding<{mode}>"
    # ERRATA 8: every IEEE mode is legal on ftof (the verifier may still reject them)
    got = run_op(f"%r = ftof %a0{attr} : tile<{n}x{src}> -> tile<{n}x{dst}>", [x], (n,), dst,
                 check=False)
    for v, g in zip(x.astype(np.float64), got):
        if np.isnan(v):
            assert np.isnan(np.float64(g))
        elif np.isinf(v) or v == 0:
            assert bits_equal(np.array(g), np.array(v).astype(FLOATS[dst]))
        else:
            want = round_fraction(Fraction(float(v)), dst, mode)
            assert float(g) == want, (src, dst, mode, v, g, want)


def test_ftof_widening_exact_and_canonical_nan():
    x = np.array([1.5, -0.0, np.inf, 2.0 ** -24, 65504, np.nan, -3.25, 0.1], np.float16)
    got = run_op("%r = ftof %a0 : tile<8xf16> -> tile<8xf32>", [x], (8,), "f32")
    assert (got[:5] == x[:5].astype(np.float32)).all() and np.signbit(got[1])
    assert got[5:6].view(np.uint32)[0] == 0x7FFFFFFF


def test_ftof_fp8_satfinite():
    x = np.array([448.0, 500.0, 1e6, -1e6, np.inf, -np.inf, np.nan, 0.0078125 / 3,
                  57344.0, 61440.0, 1e9, np.nan, 0.3, -0.0, 1.0, 2.0], np.float32)
    e4 = run_op("%r = ftof %a0 : tile<16xf32> -> tile<16xf8E4M3FN>", [x], (16,), "f8E4M3FN")
    v = e4.astype(np.float32)
    assert list(v[:7]) == [448, 448, 448, -448, 448, -448, 448]    # e4m3: NaN -> +MAX_NORM
    e5 = run_op("%r = ftof %a0 : tile<16xf32> -> tile<16xf8E5M2>", [x], (16,), "f8E5M2")
    w = e5.astype(np.float32)
    assert list(w[4:6]) == [57344, -57344] and np.isnan(w[6])   # e5m2: Inf -> +-MAX_NORM
    assert w[10] == 57344 and w[8] == 57344
    # nearest-even rounding of in-range values matches ml_dtypes' reference conversion
    assert (v[12:] == x[12:].astype(ml_dtypes.float8_e4m3fn).astype(np.float32)).all()


@pytest.mark.parametrize("dst", ["i8", "i16", "i32", "i64"])
@pytest.mark.parametrize("signed", [True, False])
def test_ftoi_truncate_saturate_nan(dst, signed):
    bits = int(dst[1:])
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    x = np.array([0.0, -0.0, 1.9, -1.9, 2.5, -2.5, 1e30, -1e30, np.nan, 127.9, 128.0, -129.0,
                  255.9, 256.0, 3e9, -3e9], np.float32)
    s = "signed" if signed else "unsigned"
    got = run_op(f"%r = ftoi %a0 {s} : tile<16xf32> -> tile<16x{dst}>", [x], (16,), dst)
    for v, g in zip(x.astype(np.float64), got):
        want = 0 if np.isnan(v) else min(max(math.trunc(v), lo), hi)
        assert unsigned(int(g), bits) == unsigned(want, bits), (v, g, want)


@pytest.mark.parametrize("src", ["i8", "i32", "i64"])
@pytest.mark.parametrize("dst", ["f16", "f32", "f64", "bf16"])
@pytest.mark.parametrize("signed", [True, False])
@pytest.mark.parametrize("mode", ["nearest_even", "zero", "positive_inf"])
def test_itof(src, dst, signed, mode):
    bits = int(src[1:])
    x = int_edges(src)
    s = "signed" if signed else "unsigned"
    attr = "" if mode == "nearest_even" else f" rounding<{mode}>"
    got = run_op(f"%r = itof %a0 {s}{attr} : tile<64x{src}> -> tile<64x{dst}>", [x], (64,), dst,
                 check=mode == "nearest_even")
    for v, g in zip(x, got):
        iv = int(v) if signed else unsigned(int(v), bits)
        want = round_fraction(Fraction(iv), dst, mode)
        assert float(g) == want, (src, dst, s, mode, iv, g, want)


@pytest.mark.parametrize("src,dst", [("i8", "i32"), ("i16", "i64"), ("i32", "i64"), ("i8", "i16")])
def test_exti_trunci(src, dst):
    x = int_edges(src)
    sb, db = int(src[1:]), int(dst[1:])
    got = run_op(f"%r = exti %a0 signed : tile<64x{src}> -> tile<64x{dst}>", [x], (64,), dst)
    assert [int(g) for g in got] == [int(v) for v in x]
    got = run_op(f"%r = exti %a0 unsigned : tile<64x{src}> -> tile<64x{dst}>", [x], (64,), dst)
    assert [int(g) for g in got] == [unsigned(int(v), sb) for v in x]
    y = int_edges(dst)
    got = run_op(f"%r = trunci %a0 : tile<64x{dst}> -> tile<64x{src}>", [y], (64,), src)
    assert [int(g) for g in got] == [wrap(int(v), sb) for v in y]
    _ = db


def test_bitcast_preserves_bits():
    bits = np.array([0x7F800001, 0xFFFFFFFF, 0x80000000, 0x3F800000], np.uint32)
    f = bits.view(np.float32)
    got = run_op("%r = bitcast %a0 : tile<4xf32> -> tile<4xi32>", [f], (4,), "i32")
    assert (got.view(np.uint32) == bits).all()
    back = run_op("%r = bitcast %a0 : tile<4xi32> -> tile<4xf32>", [bits.view(np.int32)], (4,),
                  "f32")
    assert (back.view(np.uint32) == bits).all()


def test_ptr_int_roundtrip_and_offset():
    body = """%p = ptr_to_int %a0 : tile<ptr<f32>> -> tile<i64>
    %c = constant <i64: 12> : tile<i64>
    %q = addi %p, %c : tile<i64>
    %r = int_to_ptr %q : tile<i64> -> tile<ptr<f32>>
    %r2 = ptr_to_ptr %r : tile<ptr<f32>> -> tile<ptr<i32>>
    %four = constant <i32: -3> : tile<i32>
    %o = offset %r2, %four : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
    %oi = ptr_to_int %o : tile<ptr<i32>> -> tile<i64>
    %d = subi %oi, %p : tile<i64>"""
    import tileir
    text = ("cuda_tile.module @m { entry @k(%a0: tile<ptr<f32>>, %out: tile<ptr<i64>>) {\n    "
            + body + """
    %tv = make_tensor_view %out, shape = [1], strides = [1] : tensor_view<1xi64, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<1xi64, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %d1 = reshape %d : tile<i64> -> tile<1xi64>
    %t = store_view_tko weak %d1, %pv[%c0] : tile<1xi64>, partition_view<tile=(1), tensor_view<1xi64, strides=[1]>>, tile<i32> -> token
    return } }""")
    out = np.zeros(1, np.int64)
    tileir.launch(tileir.parse(text), "k", (1,), [np.zeros(4, np.float32), out])
    assert out[0] == 12 - 3 * 4


def test_pack_unpack_spec_shapes_and_roundtrip():
    x = np.arange(8, dtype=np.float16) * np.float16(1.5)
    packed = run_op("%r = pack %a0 : tile<8xf16> -> tile<16xi8>", [x], (16,), "i8")
    assert bytes(packed.view(np.uint8)) == x.astype("<f2").tobytes()
    back = run_op("%r = unpack %a0 : tile<16xi8> -> tile<8xf16>", [packed], (8,), "f16")
    assert bits_equal(back, x)
    f4 = np.array([0.5, 1.0, -6.0, 0.0, 2.0, 3.0, -0.5, 4.0], ml_dtypes.float4_e2m1fn)
    p4 = run_op("%r = pack %a0 : tile<8xf4E2M1FN> -> tile<4xi8>", [f4], (4,), "i8")
    assert len(p4) == 4
    b4 = run_op("%r = unpack %a0 : tile<4xi8> -> tile<8xf4E2M1FN>", [p4], (8,), "f4E2M1FN")
    assert (b4.astype(np.float32) == f4.astype(np.float32)).all()


def test_itof_spec_saturation_into_f8():
    x = np.array([1000, -1000, 3, 0], np.int32)
    got = run_op("%r = itof %a0 signed : tile<4xi32> -> tile<4xf8E4M3FN>", [x], (4,), "f8E4M3FN")
    assert list(got.astype(np.float32)) == [448, -448, 3, 0]


def test_select_and_iota():
    c = np.array([True, False, True, False])
    a = np.array([1, 2, 3, 4], np.int32)
    b = np.array([10, 20, 30, 40], np.int32)
    got = run_op("%r = select %a0, %a1, %a2 : tile<4xi1>, tile<4xi32>", [c, a, b], (4,), "i32")
    assert list(got) == [1, 20, 3, 40]
    got = run_snippet("%r = iota : tile<8xi32>", [], [("%r", (8,), "i32")])[0]
    assert list(got) == list(range(8))
    got = run_snippet("%r = iota : tile<256xi8>", [], [("%r", (256,), "i8")])[0]
    assert list(got.view(np.uint8)) == list(range(256))       # read unsigned
