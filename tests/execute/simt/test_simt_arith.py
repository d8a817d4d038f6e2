"""arith, math and index ops in SIMT kernels (one element per thread) and host functions, against
NumPy, exact integer arithmetic and mpmath."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import UndefinedBehaviorError

try:
    import ml_dtypes
    BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover
    BF16 = None

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i1": np.bool_,
          "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "index": np.int64}


def _dtype(t: str):
    return BF16 if t == "bf16" else np.dtype(DTYPES[t])


def run_elementwise(body: str, in_types: list, out_types: list, inputs: list,
                    n_out: int = None) -> list:
    """Run ``body`` (using %x0.. as inputs, defining %r0..) once per element in a kernel."""
    n = len(inputs[0])
    params = [f"%in{k}: memref<{n}x{t}>" for k, t in enumerate(in_types)]
    params += [f"%out{k}: memref<{n}x{t}>" for k, t in enumerate(out_types)]
    loads = "\n".join(f"        %x{k} = memref.load %in{k}[%i] : memref<{n}x{t}>"
                      for k, t in enumerate(in_types))
    stores = "\n".join(f"        memref.store %r{k}, %out{k}[%i] : memref<{n}x{t}>"
                       for k, t in enumerate(out_types))
    text = f"""
module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @k({", ".join(params)}) kernel {{
      %i = gpu.global_id x
      %n = arith.constant {n} : index
      %ok = arith.cmpi ult, %i, %n : index
      scf.if %ok {{
{loads}
{body}
{stores}
      }}
      gpu.return
    }}
  }}
}}
"""
    outs = [np.zeros(n, _dtype(t)) for t in out_types]
    ins = [np.asarray(x, dtype=_dtype(t)) for x, t in zip(inputs, in_types)]
    gpu.launch(tileir.parse(text), "m::k", grid=((n + 63) // 64,), block=(64,), args=ins + outs)
    return outs


EDGE_I32 = np.array([0, 1, -1, 2, -2, 7, -7, 2 ** 31 - 1, -2 ** 31, 12345, -98765, 1 << 30],
                    dtype=np.int32)


def _pairs(values):
    a, b = np.meshgrid(values, values)
    return a.reshape(-1), b.reshape(-1)


def _wrap32(x):
    return ((np.asarray(x, dtype=object) + 2 ** 31) % 2 ** 32 - 2 ** 31).astype(np.int64) \
        .astype(np.int32)


@pytest.mark.parametrize("op, ref", [
    ("addi", lambda a, b: a + b), ("subi", lambda a, b: a - b), ("muli", lambda a, b: a * b),
    ("andi", lambda a, b: a & b), ("ori", lambda a, b: a | b), ("xori", lambda a, b: a ^ b),
    ("maxsi", max), ("minsi", min),
    ("maxui", lambda a, b: a if (a % 2 ** 32) >= (b % 2 ** 32) else b),
    ("minui", lambda a, b: a if (a % 2 ** 32) <= (b % 2 ** 32) else b),
])
def test_i32_binary_wraps(op, ref):
    a, b = _pairs(EDGE_I32)
    (r,) = run_elementwise(f"        %r0 = arith.{op} %x0, %x1 : i32", ["i32", "i32"], ["i32"],
                           [a, b])
    expect = _wrap32([ref(int(x), int(y)) for x, y in zip(a, b)])
    np.testing.assert_array_equal(r, expect)


def _trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@pytest.mark.parametrize("op, ref", [
    ("divsi", _trunc_div), ("remsi", lambda a, b: a - _trunc_div(a, b) * b),
    ("floordivsi", lambda a, b: a // b), ("ceildivsi", lambda a, b: -((-a) // b)),
    ("divui", lambda a, b: (a % 2 ** 32) // (b % 2 ** 32)),
    ("remui", lambda a, b: (a % 2 ** 32) % (b % 2 ** 32)),
    ("ceildivui", lambda a, b: -(-(a % 2 ** 32) // (b % 2 ** 32))),
])
def test_i32_division_against_exact(op, ref):
    a, b = _pairs(EDGE_I32)
    keep = (b != 0) & ~((a == -2 ** 31) & (b == -1))
    a, b = a[keep], b[keep]
    (r,) = run_elementwise(f"        %r0 = arith.{op} %x0, %x1 : i32", ["i32", "i32"], ["i32"],
                           [a, b])
    np.testing.assert_array_equal(r, _wrap32([ref(int(x), int(y)) for x, y in zip(a, b)]))


@pytest.mark.parametrize("a, b, op", [(5, 0, "divsi"), (-2 ** 31, -1, "divsi"), (3, 0, "remui"),
                                      (1, 32, "shli"), (1, -1, "shrui")])
def test_integer_undefined_behaviour_is_reported(a, b, op):
    with pytest.raises(UndefinedBehaviorError, match=f"'arith.{op}'"):
        run_elementwise(f"        %r0 = arith.{op} %x0, %x1 : i32", ["i32", "i32"], ["i32"],
                        [np.array([1, a]), np.array([1, b])])


def test_shifts_and_extended_ops():
    a = np.array([1, -1, 0x12345678, -2 ** 31, 7], dtype=np.int32)
    s = np.array([0, 31, 4, 1, 3], dtype=np.int32)
    shl, shrs, shru = run_elementwise(
        "        %r0 = arith.shli %x0, %x1 : i32\n        %r1 = arith.shrsi %x0, %x1 : i32\n"
        "        %r2 = arith.shrui %x0, %x1 : i32", ["i32", "i32"], ["i32"] * 3, [a, s])
    np.testing.assert_array_equal(shl, _wrap32([int(x) << int(k) for x, k in zip(a, s)]))
    np.testing.assert_array_equal(shrs, a >> s)
    np.testing.assert_array_equal(shru, (a.view(np.uint32) >> s.astype(np.uint32)).view(np.int32))
    x = np.array([2 ** 63 - 1, -2 ** 63, -1, 12345678901234, 3], dtype=np.int64)
    y = np.array([2 ** 63 - 1, -1, -1, -98765432109876, -3], dtype=np.int64)
    lo_s, hi_s, lo_u, hi_u = run_elementwise(
        "        %r0, %r1 = arith.mulsi_extended %x0, %x1 : i64\n"
        "        %r2, %r3 = arith.mului_extended %x0, %x1 : i64", ["i64", "i64"], ["i64"] * 4,
        [x, y])
    for k in range(len(x)):
        ps = int(x[k]) * int(y[k])
        pu = (int(x[k]) % 2 ** 64) * (int(y[k]) % 2 ** 64)
        assert int(lo_s[k]) % 2 ** 64 == ps % 2 ** 64
        assert int(hi_s[k]) == ps >> 64
        assert int(lo_u[k]) % 2 ** 64 == pu % 2 ** 64
        assert int(hi_u[k]) % 2 ** 64 == pu >> 64
    s8, c8 = run_elementwise("        %r0, %r1 = arith.addui_extended %x0, %x1 : i8, i1",
                             ["i8", "i8"], ["i8", "i1"],
                             [np.array([100, -1, 5], np.int8), np.array([100, 1, 6], np.int8)])
    np.testing.assert_array_equal(s8, np.array([-56, 0, 11], np.int8))
    np.testing.assert_array_equal(c8, [False, True, False])


def test_cmpi_every_predicate():
    a, b = _pairs(EDGE_I32[:8])
    preds = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
    body = "\n".join(f"        %r{k} = arith.cmpi {p}, %x0, %x1 : i32" for k, p in enumerate(preds))
    outs = run_elementwise(body, ["i32", "i32"], ["i1"] * len(preds), [a, b])
    ua, ub = a.astype(np.int64) % 2 ** 32, b.astype(np.int64) % 2 ** 32
    refs = [a == b, a != b, a < b, a <= b, a > b, a >= b, ua < ub, ua <= ub, ua > ub, ua >= ub]
    for p, r, e in zip(preds, outs, refs):
        np.testing.assert_array_equal(r, e, err_msg=p)


SPECIAL_F32 = np.array([0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 1e-45, 3.4028235e38,
                        1.1754944e-38, 0.1, 7.0], dtype=np.float32)


@pytest.mark.parametrize("t", ["f16", "bf16", "f32", "f64"])
def test_float_binary_ops_round_once(t):
    if t == "bf16" and BF16 is None:
        pytest.skip("ml_dtypes missing")
    dt = _dtype(t)
    a, b = _pairs(SPECIAL_F32.astype(np.float64))
    with np.errstate(over="ignore"):
        a, b = a.astype(dt), b.astype(dt)
    ops = ["addf", "subf", "mulf", "divf"]
    body = "\n".join(f"        %r{k} = arith.{o} %x0, %x1 : {t}" for k, o in enumerate(ops))
    outs = run_elementwise(body, [t, t], [t] * 4, [a, b])
    from fractions import Fraction
    with np.errstate(all="ignore"):
        for o, r, fn in zip(ops, outs, (np.add, np.subtract, np.multiply, np.divide)):
            # reference: the f64 result (exact for +-*, correctly rounded for /) rounded once
            ref = fn(a.astype(np.float64), b.astype(np.float64))
            if o == "divf":
                # f64 division then rounding to a narrower type is innocuous double rounding
                pass
            expect = ref.astype(dt) if t != "bf16" else ref.astype(np.float32).astype(dt)
            same = (r == expect) | (np.isnan(r.astype(np.float64)) &
                                    np.isnan(expect.astype(np.float64)))
            assert same.all(), (o, a[~same], b[~same], r[~same], expect[~same])
            zero = expect.astype(np.float64) == 0
            np.testing.assert_array_equal(np.signbit(r.astype(np.float64))[zero],
                                          np.signbit(expect.astype(np.float64))[zero])
    assert Fraction  # exact reference helper available


def test_float_extrema_signed_zeros_and_nan():
    a = np.array([0.0, -0.0, np.nan, 1.0, np.nan, -0.0], np.float32)
    b = np.array([-0.0, 0.0, 1.0, np.nan, np.nan, -0.0], np.float32)
    mx, mn, mxn, mnn = run_elementwise(
        "        %r0 = arith.maximumf %x0, %x1 : f32\n        %r1 = arith.minimumf %x0, %x1 : f32\n"
        "        %r2 = arith.maxnumf %x0, %x1 : f32\n        %r3 = arith.minnumf %x0, %x1 : f32",
        ["f32", "f32"], ["f32"] * 4, [a, b])
    assert list(np.signbit(mx[:2])) == [False, False] and list(np.signbit(mn[:2])) == [True, True]
    assert np.isnan(mx[2:5]).all() and np.isnan(mn[2:5]).all()
    np.testing.assert_array_equal(mxn[2:4], [1.0, 1.0])
    assert np.isnan(mxn[4]) and np.signbit(mnn[5])


def test_cmpf_all_predicates():
    a, b = _pairs(np.array([0.0, -0.0, 1.0, np.nan, np.inf], np.float32))
    names = ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
             "ule", "une", "uno", "true"]
    body = "\n".join(f"        %r{k} = arith.cmpf {p}, %x0, %x1 : f32"
                     for k, p in enumerate(names))
    outs = run_elementwise(body, ["f32", "f32"], ["i1"] * 16, [a, b])
    uno = np.isnan(a) | np.isnan(b)
    with np.errstate(invalid="ignore"):
        ordered = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
                   "ne": (a < b) | (a > b)}
    for name, r in zip(names, outs):
        if name == "false":
            expect = np.zeros_like(uno)
        elif name == "true":
            expect = np.ones_like(uno)
        elif name == "ord":
            expect = ~uno
        elif name == "uno":
            expect = uno
        elif name[0] == "o":
            expect = ordered[name[1:]] & ~uno
        else:
            expect = ordered[name[1:]] | uno
        np.testing.assert_array_equal(r, expect, err_msg=name)


def test_casts():
    f = np.array([1.5, -1.5, 2.5e9, -3.99, 65504.0, 1e-8, 3.0], np.float32)
    i = np.array([-1, 0, 7, 2 ** 31 - 1, -2 ** 31, 100, 3], np.int32)
    outs = run_elementwise(
        "        %r0 = arith.extsi %x1 : i32 to i64\n        %r1 = arith.extui %x1 : i32 to i64\n"
        "        %r2 = arith.trunci %x1 : i32 to i8\n        %r3 = arith.sitofp %x1 : i32 to f16\n"
        "        %r4 = arith.uitofp %x1 : i32 to f64\n        %r5 = arith.truncf %x0 : f32 to f16\n"
        "        %r6 = arith.extf %x0 : f32 to f64\n        %r7 = arith.bitcast %x0 : f32 to i32\n"
        "        %r8 = arith.index_cast %x1 : i32 to index\n"
        "        %r9 = arith.index_castui %x1 : i32 to index",
        ["f32", "i32"], ["i64", "i64", "i8", "f16", "f64", "f16", "f64", "i32", "index", "index"],
        [f, i])
    np.testing.assert_array_equal(outs[0], i.astype(np.int64))
    np.testing.assert_array_equal(outs[1], i.view(np.uint32).astype(np.int64))
    np.testing.assert_array_equal(outs[2], i.astype(np.int8))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(outs[3], i.astype(np.float64).astype(np.float16))
        np.testing.assert_array_equal(outs[5], f.astype(np.float16))
    np.testing.assert_array_equal(outs[4], i.view(np.uint32).astype(np.float64))
    np.testing.assert_array_equal(outs[6], f.astype(np.float64))
    np.testing.assert_array_equal(outs[7], f.view(np.int32))
    np.testing.assert_array_equal(outs[8], i.astype(np.int64))
    np.testing.assert_array_equal(outs[9], i.view(np.uint32).astype(np.int64))
    (t,) = run_elementwise("        %r0 = arith.fptosi %x0 : f32 to i32", ["f32"], ["i32"],
                           [np.array([1.9, -1.9, 0.0, -2.5e9 + 2e9], np.float32)])
    np.testing.assert_array_equal(t, [1, -1, 0, -500000000])
    with pytest.raises(UndefinedBehaviorError, match="fptosi"):
        run_elementwise("        %r0 = arith.fptosi %x0 : f32 to i32", ["f32"], ["i32"],
                        [np.array([1.0, np.nan], np.float32)])


def test_truncf_rounding_modes_and_select_vector():
    x = np.array([1.0 + 2 ** -11 + 2 ** -20, -(1.0 + 2 ** -11), 1.0 + 2 ** -11], np.float32)
    down, up, zero, away = run_elementwise(
        "        %r0 = arith.truncf %x0 downward : f32 to f16\n"
        "        %r1 = arith.truncf %x0 upward : f32 to f16\n"
        "        %r2 = arith.truncf %x0 toward_zero : f32 to f16\n"
        "        %r3 = arith.truncf %x0 to_nearest_away : f32 to f16", ["f32"], ["f16"] * 4, [x])
    ulp = 2.0 ** -10
    np.testing.assert_array_equal(down, np.array([1.0, -(1 + ulp), 1.0], np.float16))
    np.testing.assert_array_equal(up, np.array([1 + ulp, -1.0, 1 + ulp], np.float16))
    np.testing.assert_array_equal(zero, np.array([1.0, -1.0, 1.0], np.float16))
    np.testing.assert_array_equal(away, np.array([1 + ulp, -(1 + ulp), 1 + ulp], np.float16))


UNARY_MATH = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
              "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf",
              "erfc", "cbrt", "sqrt", "rsqrt"]


@pytest.mark.parametrize("t", ["f32", "f16"])
def test_math_unary_within_one_ulp_of_mpmath(t):
    mpmath = pytest.importorskip("mpmath")
    dt = _dtype(t)
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(0.05, 0.95, 24), rng.uniform(1.05, 9.0, 24)]).astype(dt)
    body = "\n".join(f"        %r{k} = math.{n} %x0 : {t}" for k, n in enumerate(UNARY_MATH))
    outs = run_elementwise(body, [t], [t] * len(UNARY_MATH), [x])
    mp = {"exp": mpmath.exp, "exp2": lambda v: mpmath.power(2, v), "expm1": mpmath.expm1,
          "log": mpmath.log, "log2": lambda v: mpmath.log(v, 2), "log10": mpmath.log10,
          "log1p": mpmath.log1p, "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan,
          "asin": mpmath.asin, "acos": mpmath.acos, "atan": mpmath.atan, "sinh": mpmath.sinh,
          "cosh": mpmath.cosh, "tanh": mpmath.tanh, "asinh": mpmath.asinh,
          "acosh": mpmath.acosh, "atanh": mpmath.atanh, "erf": mpmath.erf, "erfc": mpmath.erfc,
          "cbrt": mpmath.cbrt, "sqrt": mpmath.sqrt, "rsqrt": lambda v: 1 / mpmath.sqrt(v)}
    mpmath.mp.prec = 120
    for name, r in zip(UNARY_MATH, outs):
        for v, got in zip(x, r):
            try:
                exact = mp[name](mpmath.mpf(float(v)))
            except (ValueError, ZeroDivisionError):
                continue
            if isinstance(exact, mpmath.mpc) or not mpmath.isfinite(exact):
                continue
            ref = np.array(float(exact)).astype(dt)
            if not np.isfinite(float(ref)):
                continue
            gap = abs(float(np.nextafter(ref, dt.type(np.inf))) - float(ref))
            assert abs(float(got) - float(exact)) <= gap * 1.0001, (name, v, got, exact)


def test_math_exact_ops_and_classification():
    x = np.array([2.5, -2.5, 0.5, -0.5, 1.49999988, np.inf, -0.0, np.nan, 1e-40], np.float32)
    names = ["floor", "ceil", "trunc", "round", "roundeven", "absf"]
    body = "\n".join(f"        %r{k} = math.{n} %x0 : f32" for k, n in enumerate(names))
    body += "\n        %r6 = math.isnan %x0 : f32\n        %r7 = math.isinf %x0 : f32"
    body += "\n        %r8 = math.isfinite %x0 : f32\n        %r9 = math.isnormal %x0 : f32"
    outs = run_elementwise(body, ["f32"], ["f32"] * 6 + ["i1"] * 4, [x])
    np.testing.assert_array_equal(outs[0], np.floor(x))
    np.testing.assert_array_equal(outs[1], np.ceil(x))
    np.testing.assert_array_equal(outs[2], np.trunc(x))
    np.testing.assert_array_equal(outs[3][:5], [3.0, -3.0, 1.0, -1.0, 1.0])
    np.testing.assert_array_equal(outs[4][:4], [2.0, -2.0, 0.0, -0.0])
    np.testing.assert_array_equal(outs[5], np.abs(x))
    np.testing.assert_array_equal(outs[6], np.isnan(x))
    np.testing.assert_array_equal(outs[7], np.isinf(x))
    np.testing.assert_array_equal(outs[8], np.isfinite(x))
    np.testing.assert_array_equal(outs[9], np.isfinite(x) & (np.abs(x) >= 2.0 ** -126))


def test_math_fma_is_fused_and_integer_ops():
    a = np.array([1 + 2 ** -12, 3.0], np.float32)
    b = np.array([1 - 2 ** -12, 0.5], np.float32)
    c = np.array([-1.0, 1.0], np.float32)
    (r,) = run_elementwise("        %r0 = math.fma %x0, %x1, %x2 : f32", ["f32"] * 3, ["f32"],
                           [a, b, c])
    np.testing.assert_array_equal(r, np.array([-(2.0 ** -24), 2.5], np.float32))
    v = np.array([1, 0, -1, 0x00F0, -2 ** 31], np.int32)
    lz, tz, pop, ab = run_elementwise(
        "        %r0 = math.ctlz %x0 : i32\n        %r1 = math.cttz %x0 : i32\n"
        "        %r2 = math.ctpop %x0 : i32\n        %r3 = math.absi %x0 : i32", ["i32"],
        ["i32"] * 4, [v])
    np.testing.assert_array_equal(lz, [31, 32, 0, 24, 0])
    np.testing.assert_array_equal(tz, [0, 32, 0, 4, 31])
    np.testing.assert_array_equal(pop, [1, 0, 32, 4, 1])
    np.testing.assert_array_equal(ab, [1, 0, 1, 0xF0, -2 ** 31])
    base = np.array([3, -2, 2, 1, -1, 5], np.int32)
    ex = np.array([4, 3, 31, -5, -3, -1], np.int32)
    (p,) = run_elementwise("        %r0 = math.ipowi %x0, %x1 : i32", ["i32", "i32"], ["i32"],
                           [base, ex])
    np.testing.assert_array_equal(p, _wrap32([81, -8, 2 ** 31, 1, -1, 0]))
    (pw,) = run_elementwise("        %r0 = math.fpowi %x0, %x1 : f32, i32", ["f32", "i32"],
                            ["f32"], [np.array([2.0, 1.5], np.float32), np.array([10, -2],
                                                                                  np.int32)])
    np.testing.assert_array_equal(pw, np.array([1024.0, 1 / 2.25], np.float32))


def test_index_dialect_ops():
    a = np.array([7, -7, 2 ** 62, -1, 0], np.int64)
    b = np.array([2, 2, 3, 5, 9], np.int64)
    ops = ["add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs", "rems",
           "remu", "maxs", "maxu", "mins", "minu", "and", "or", "xor", "shl", "shrs", "shru"]
    body = "\n".join(f"        %r{k} = index.{o} %x0, %x1" for k, o in enumerate(ops))
    outs = run_elementwise(body, ["index", "index"], ["index"] * len(ops), [a, b])
    M = 2 ** 64

    def s64(v):
        v %= M
        return v - M if v >= 2 ** 63 else v
    refs = {
        "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
        "divs": _trunc_div, "divu": lambda x, y: (x % M) // (y % M),
        "ceildivs": lambda x, y: -((-x) // y), "ceildivu": lambda x, y: -(-(x % M) // (y % M)),
        "floordivs": lambda x, y: x // y, "rems": lambda x, y: x - _trunc_div(x, y) * y,
        "remu": lambda x, y: (x % M) % (y % M), "maxs": max, "maxu": lambda x, y: max(x % M, y % M),
        "mins": min, "minu": lambda x, y: min(x % M, y % M), "and": lambda x, y: x & y,
        "or": lambda x, y: x | y, "xor": lambda x, y: x ^ y, "shl": lambda x, y: x << y,
        "shrs": lambda x, y: x >> y, "shru": lambda x, y: (x % M) >> y}
    for o, r in zip(ops, outs):
        expect = [s64(refs[o](int(x), int(y))) for x, y in zip(a, b)]
        np.testing.assert_array_equal(r, expect, err_msg=o)
    cmp, cast, castu = run_elementwise(
        "        %r0 = index.cmp ult(%x0, %x1)\n        %r1 = index.casts %x0 : index to i32\n"
        "        %r2 = index.castu %x1 : index to i8", ["index", "index"], ["i1", "i32", "i8"],
        [a, b])
    np.testing.assert_array_equal(cmp, a.view(np.uint64) < b.view(np.uint64))
    np.testing.assert_array_equal(cast, a.astype(np.int32))
    np.testing.assert_array_equal(castu, b.astype(np.int8))


def test_host_function_scalar_results_and_vectors():
    text = """
func.func @main(%a: i32, %b: f64, %v: vector<4xf32>) -> (i32, f64, vector<4xf32>, i1) {
  %c3 = arith.constant 3 : i32
  %x = arith.muli %a, %c3 : i32
  %y = math.sqrt %b : f64
  %w = arith.addf %v, %v : vector<4xf32>
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %u = arith.mulf %w, %cst : vector<4xf32>
  %lt = arith.cmpf olt, %y, %b : f64
  return %x, %y, %u, %lt : i32, f64, vector<4xf32>, i1
}
"""
    x, y, u, lt = gpu.run(tileir.parse(text), "main",
                          args=[7, 2.0, np.array([1, 2, 3, 4], np.float32)])
    assert x == 21 and y == math.sqrt(2.0) and bool(lt)
    np.testing.assert_array_equal(u, np.array([2, 8, 18, 32], np.float32))
