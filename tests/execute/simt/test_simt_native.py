"""The SIMT engine's native backend (kernels compiled to C) against the lane engine.

Every test launches the same kernel with ``backend="lanes"`` and ``backend="native"`` on copies
of the same inputs and asserts bit-identical results (NaNs compare equal whatever their payload),
that the native launch really ran natively (``STATS["native"]`` grew), and, where it is easy, that
the results match a NumPy / Python computation of what each thread does.  Undefined behaviour
must make the native launch fall back to the lane engine (``STATS["fallback"]``) and report the
very error the lane engine reports, leaving memory as the lane engine leaves it.  Kernels the
backend cannot translate must be refused with ``UnsupportedError`` naming the reason.
"""

from __future__ import annotations

import math
import os

import ml_dtypes
import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import UnsupportedError
from tileir.execute import cbuild as build
from tileir.execute.simt.native import STATS, launcher

pytestmark = pytest.mark.skipif(build.compiler() is None,
                                reason="no C compiler (cc/gcc/clang or $CC): the native "
                                       "backend cannot build kernels")

WG = "#gpu.address_space<workgroup>"
PR = "#gpu.address_space<private>"
DT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "i1": np.bool_, "i8": np.int8,
      "i16": np.int16, "i32": np.int32, "i64": np.int64, "index": np.int64, "f32": np.float32,
      "f64": np.float64}
BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64}
CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
        "ule", "une", "uno", "true")


IDX_LINES = ("%tid = gpu.thread_id x", "%bid = gpu.block_id x", "%i = gpu.global_id x",
             "%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index",
             "%c2 = arith.constant 2 : index")


# -- helpers --------------------------------------------------------------------------------------

#: values every kernel body below may use
IDS = "".join(f"      {line}\n" for line in IDX_LINES)


def kernel_module(body: str, args: str, attrs: str = "") -> str:
    return (f"module attributes {{gpu.container_module}} {{\n  gpu.module @m {{\n"
            f"    gpu.func @k({args}) {attrs} kernel {{\n{IDS}{body}\n      gpu.return\n"
            f"    }}\n  }}\n}}\n")


def _whole(a):
    """What a launch may have written through argument ``a``: its base array for a view."""
    if isinstance(a, np.ndarray):
        return a.base if isinstance(a.base, np.ndarray) else a
    return a


def assert_same(x, y, what: str = "") -> None:
    """Equal arrays; floats bit for bit, except that any NaN equals any NaN."""
    x, y = np.asarray(x), np.asarray(y)
    assert x.dtype == y.dtype and x.shape == y.shape, what
    if x.dtype.kind == "f" or x.dtype == DT["bf16"]:
        ints = x.view(f"u{x.dtype.itemsize}"), y.view(f"u{y.dtype.itemsize}")
        with np.errstate(invalid="ignore"):     # (signalling NaN patterns)
            nan = np.isnan(x.astype(np.float64)) & np.isnan(y.astype(np.float64))
        same = (ints[0] == ints[1]) | nan
    else:
        same = x == y
    bad = np.flatnonzero(~same.reshape(-1))
    assert bad.size == 0, (f"{what}: {bad.size} elements differ, first at {bad[:5]}: "
                           f"{x.reshape(-1)[bad[:5]]} vs {y.reshape(-1)[bad[:5]]}")


def launch_both(module, make_args, grid, block, kernel: str = "m::k", run=None):
    """Launch on the lane engine and natively, each with fresh ``make_args()``; assert that
    the native launch ran natively and wrote what the lane engine wrote; return the lane
    engine's arguments.  ``run(args, backend)`` replaces ``gpu.launch`` (e.g. ``gpu.run``)."""
    if isinstance(module, str):
        module = tileir.parse(module)
    if run is None:
        def run(args, backend):
            gpu.launch(module, kernel, grid=grid, block=block, args=args, backend=backend)
    lanes, native = make_args(), make_args()
    run(lanes, "lanes")
    before = dict(STATS)
    run(native, "native")
    assert STATS["native"] > before["native"] and STATS["fallback"] == before["fallback"]
    for k, (a, b) in enumerate(zip(lanes, native)):
        if isinstance(a, np.ndarray):
            assert_same(_whole(a), _whole(b), f"argument #{k}")
    return lanes


def elementwise(ins: list, cases: list, block: int = 64):
    """One thread per element: thread i loads ``%x<j>`` from input j (``(type, values)``, the
    values repeated to a common length) and, for each case ``(result type, snippet)``, stores the
    snippet's ``{r}`` (temporaries ``{t}1``, ``{t}2``...) to its own output.  Returns the inputs
    (as arrays) and the outputs (checked equal on both backends)."""
    n = max(len(v) for _, v in ins)
    n = -(-n // block) * block
    arrays = [np.resize(np.asarray(v, DT[t]), n) for t, v in ins]
    args = [f"%a{j}: memref<?x{t}>" for j, (t, _) in enumerate(ins)]
    args += [f"%o{k}: memref<?x{rt}>" for k, (rt, _) in enumerate(cases)]
    body = [f"      %x{j} = memref.load %a{j}[%i] : memref<?x{t}>" for j, (t, _) in enumerate(ins)]
    for k, (rt, snippet) in enumerate(cases):
        body += ["      " + s.strip() for s in snippet.format(r=f"%r{k}", t=f"%t{k}_").split(";")]
        body.append(f"      memref.store %r{k}, %o{k}[%i] : memref<?x{rt}>")
    text = kernel_module("\n".join(body), ", ".join(args))

    def make():
        return [a.copy() for a in arrays] + [np.zeros(n, DT[rt]) for rt, _ in cases]
    out = launch_both(text, make, (n // block,), (block,))
    return arrays, out[len(ins):]


def wrap(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits - 1) else v


def int_edges(bits: int) -> list[int]:
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return [0, 1, -1, 2, -2, 3, -7, lo, lo + 1, hi, hi - 1, hi // 3, lo // 5]


# -- 1. arith and math ops ------------------------------------------------------------------------

def _int_reference(op: str, a: int, b: int, bits: int) -> int:
    u = lambda v: v & ((1 << bits) - 1)  # noqa: E731
    if op in ("addi", "subi", "muli", "andi", "ori", "xori"):
        return wrap({"addi": a + b, "subi": a - b, "muli": a * b, "andi": a & b, "ori": a | b,
                     "xori": a ^ b}[op], bits)
    if op in ("maxsi", "minsi"):
        return max(a, b) if op == "maxsi" else min(a, b)
    if op in ("maxui", "minui"):
        return wrap((max if op == "maxui" else min)(u(a), u(b)), bits)
    if op == "shli":
        return wrap(a << b, bits)
    if op == "shrsi":
        return a >> b
    if op == "shrui":
        return wrap(u(a) >> b, bits)
    if op.endswith("ui"):
        x, y = u(a), u(b)
        q = {"divui": x // y, "remui": x % y, "ceildivui": -(-x // y)}[op]
        return wrap(q, bits)
    trunc = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return wrap({"divsi": trunc, "remsi": a - b * trunc, "floordivsi": a // b,
                 "ceildivsi": -(-a // b)}[op], bits)


def _cmpi_reference(pred: str, a: int, b: int, bits: int) -> bool:
    if pred[0] == "u":
        a, b = a & ((1 << bits) - 1), b & ((1 << bits) - 1)
        pred = pred[1:]
    elif pred[0] == "s":
        pred = pred[1:]
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
            "ge": a >= b}[pred]


@pytest.mark.parametrize("ty", ["i8", "i16", "i32", "i64", "index"])
def test_integer_ops_on_edge_values(ty):
    bits = BITS[ty]
    edges = int_edges(bits)
    a = [x for x in edges for _ in edges]
    b = [y for _ in edges for y in edges]
    shift = [y % bits for y in b]
    div = [1 if y == 0 or (x == -(1 << (bits - 1)) and y == -1) else y for x, y in zip(a, b)]
    binary = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"]
    shifts = ["shli", "shrsi", "shrui"]
    divs = ["divsi", "divui", "remsi", "remui", "ceildivsi", "ceildivui", "floordivsi"]
    cases = [(ty, f"{{r}} = arith.{op} %x0, %x1 : {ty}") for op in binary]
    cases += [(ty, f"{{r}} = arith.{op} %x0, %x2 : {ty}") for op in shifts]
    cases += [(ty, f"{{r}} = arith.{op} %x0, %x3 : {ty}") for op in divs]
    cases += [("i1", f"{{r}} = arith.cmpi {p}, %x0, %x1 : {ty}") for p in CMPI]
    cases += [(ty, f"{{t}}1 = arith.cmpi slt, %x0, %x1 : {ty}; "
                   f"{{r}} = arith.select {{t}}1, %x1, %x3 : {ty}")]
    (xa, xb, xs, xd), out = elementwise([(ty, a), (ty, b), (ty, shift), (ty, div)], cases)
    n = len(a)
    for k, op in enumerate(binary + shifts + divs):
        rhs = {**{o: b for o in binary}, **{o: shift for o in shifts}, **{o: div for o in divs}}
        expect = [_int_reference(op, x, y, bits) for x, y in zip(a, rhs[op])]
        assert out[k][:n].tolist() == expect, op
    for k, p in enumerate(CMPI):
        expect = [_cmpi_reference(p, x, y, bits) for x, y in zip(a, b)]
        assert out[len(binary + shifts + divs) + k][:n].tolist() == expect, p
    np.testing.assert_array_equal(out[-1], np.where(xa < xb, xb, xd))


def test_i1_arithmetic_compares_and_casts():
    a = [False, False, True, True]
    b = [False, True, False, True]
    ops = ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi", "maxui", "minui"]
    cases = [("i1", f"{{r}} = arith.{op} %x0, %x1 : i1") for op in ops]
    cases += [("i1", f"{{r}} = arith.cmpi {p}, %x0, %x1 : i1") for p in CMPI]
    cases += [("i32", "{r} = arith.extsi %x0 : i1 to i32"),
              ("i64", "{r} = arith.extui %x0 : i1 to i64"),
              ("f32", "{r} = arith.sitofp %x0 : i1 to f32"),
              ("f64", "{r} = arith.uitofp %x0 : i1 to f64"),
              ("index", "{r} = arith.index_cast %x0 : i1 to index"),
              ("i1", "{r} = arith.select %x0, %x1, %x0 : i1"),
              ("i1", "{t}1 = arith.extsi %x1 : i1 to i8; {r} = arith.trunci {t}1 : i8 to i1")]
    _, out = elementwise([("i1", a), ("i1", b)], cases, block=4)
    s = lambda v: -int(v)  # noqa: E731  (signed i1: true is -1)
    for k, op in enumerate(ops):
        expect = [bool(_int_reference(op, s(x), s(y), 64) & 1) if op not in ("maxui", "minui")
                  else (max if op == "maxui" else min)(x, y) for x, y in zip(a, b)]
        if op in ("maxsi", "minsi"):
            expect = [bool((max if op == "maxsi" else min)(s(x), s(y))) for x, y in zip(a, b)]
        assert out[k].tolist() == expect, op
    for k, p in enumerate(CMPI):
        expect = [_cmpi_reference(p, s(x), s(y), 1) for x, y in zip(a, b)]
        assert out[len(ops) + k].tolist() == expect, p
    base = len(ops) + len(CMPI)
    assert out[base].tolist() == [0, 0, -1, -1] and out[base + 1].tolist() == [0, 0, 1, 1]
    assert out[base + 2].tolist() == [0, 0, -1, -1] and out[base + 3].tolist() == [0, 0, 1, 1]
    assert out[base + 4].tolist() == [0, 0, -1, -1] and out[base + 6].tolist() == b


INT_CASTS = [("extsi", "i8", "i16"), ("extsi", "i8", "i64"), ("extsi", "i16", "i32"),
             ("extsi", "i32", "i64"), ("extui", "i8", "i32"), ("extui", "i16", "i64"),
             ("extui", "i32", "i64"), ("trunci", "i64", "i32"), ("trunci", "i64", "i8"),
             ("trunci", "i32", "i16"), ("trunci", "i16", "i8"), ("trunci", "i32", "i1"),
             ("index_cast", "index", "i32"), ("index_cast", "i32", "index"),
             ("index_cast", "i8", "index"), ("index_cast", "index", "i64"),
             ("index_castui", "i32", "index"), ("index_castui", "i16", "index"),
             ("index_castui", "index", "i8")]
TO_FLOAT = [(op, s, d) for op in ("sitofp", "uitofp") for s in ("i8", "i32", "i64", "i16")
            for d in ("f32", "f64")]
TO_INT = [("fptosi", "f32", "i8"), ("fptosi", "f64", "i16"), ("fptosi", "f32", "i32"),
          ("fptosi", "f64", "i64"), ("fptoui", "f32", "i8"), ("fptoui", "f64", "i32"),
          ("fptoui", "f64", "i64"), ("fptoui", "f32", "i16")]


def test_casts():
    ints = {t: int_edges(BITS[t]) for t in ("i8", "i16", "i32", "i64", "index")}
    # in range for every target of the conversions below (fptosi: i8; fptoui: i8)
    fs = [-127.75, -1.5, -0.0, 0.0, 0.25, 1.0, 99.5, 126.99, -100.0, 3.0]
    fu = [0.0, -0.0, -0.75, 0.5, 1.0, 127.5, 200.25, 255.9, 254.0, 7.0]
    ff = [0.0, -0.0, 1.0, 1e-40, -1e-45, 3.4e38, -1.0e30, np.inf, -np.inf, np.nan]
    fd = [0.0, -0.0, 1.0 / 3, 1e-300, 1e300, -3.5e38, 3.4028235677973366e38, 2.0 ** -149,
          2.0 ** -150, np.nan, -np.inf, 1.0000000596046448]
    ins = [(t, v) for t, v in ints.items()] + [("f32", fs), ("f32", fu), ("f64", fs),
                                                ("f64", fu), ("f32", ff), ("f64", fd)]
    slot = {t: j for j, t in enumerate(ints)}
    cases = [(d, f"{{r}} = arith.{op} %x{slot[s]} : {s} to {d}") for op, s, d in INT_CASTS]
    cases += [(d, f"{{r}} = arith.{op} %x{slot[s]} : {s} to {d}") for op, s, d in TO_FLOAT]
    src_f = {("fptosi", "f32"): 5, ("fptoui", "f32"): 6, ("fptosi", "f64"): 7,
             ("fptoui", "f64"): 8}
    cases += [(d, f"{{r}} = arith.{op} %x{src_f[op, s]} : {s} to {d}") for op, s, d in TO_INT]
    cases += [("f64", "{r} = arith.extf %x9 : f32 to f64"),
              ("f32", "{r} = arith.truncf %x10 : f64 to f32")]
    arrays, out = elementwise(ins, cases)
    for k, (op, s, d) in enumerate(INT_CASTS + TO_FLOAT):
        x = arrays[slot[s]]
        if op in ("extui", "index_castui", "uitofp"):
            x = x.view(f"u{x.dtype.itemsize}")
        np.testing.assert_array_equal(out[k], x.astype(DT[d]) if d != "i1" else x & 1 == 1,
                                      err_msg=f"{op} {s} {d}")
    for k, (op, s, d) in enumerate(TO_INT, len(INT_CASTS + TO_FLOAT)):
        x = np.trunc(arrays[src_f[op, s]].astype(np.float64))
        x = x.astype(DT[d]) if op == "fptosi" else x.astype(f"u{out[k].itemsize}").view(DT[d])
        np.testing.assert_array_equal(out[k], x, err_msg=f"{op} {s} {d}")
    assert_same(out[-2], arrays[9].astype(np.float64))
    with np.errstate(over="ignore"):
        assert_same(out[-1], arrays[10].astype(np.float32))


def _extremum(op: str, a: float, b: float) -> float:
    if op in ("maximumf", "minimumf") and (math.isnan(a) or math.isnan(b)):
        return math.nan
    if op in ("maxnumf", "minnumf") and (math.isnan(a) or math.isnan(b)):
        return b if math.isnan(a) else a
    if a == b == 0:
        neg = (math.copysign(1, a) < 0, math.copysign(1, b) < 0)
        return -0.0 if (all(neg) if op.startswith("max") else any(neg)) else 0.0
    return max(a, b) if op.startswith("max") else min(a, b)


def _cmpf_reference(pred: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    unordered = np.isnan(a) | np.isnan(b)
    if pred in ("false", "true"):
        return np.full(a.shape, pred == "true")
    if pred in ("ord", "uno"):
        return ~unordered if pred == "ord" else unordered
    base = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
            "ne": (a < b) | (a > b)}[pred[1:]]
    return base if pred[0] == "o" else base | unordered


FLOAT_BINARY_OPS = ["addf", "subf", "mulf", "divf", "remf", "maximumf", "minimumf", "maxnumf",
                    "minnumf"]


def float_cases(ty: str) -> list:
    """The binary float ops of ``%x0, %x1``, then copysign, negf, sqrt and absf."""
    return [(ty, f"{{r}} = arith.{op} %x0, %x1 : {ty}") for op in FLOAT_BINARY_OPS] + [
        (ty, f"{{r}} = math.copysign %x0, %x1 : {ty}"), (ty, f"{{r}} = arith.negf %x0 : {ty}"),
        (ty, f"{{r}} = math.sqrt %x0 : {ty}"), (ty, f"{{r}} = math.absf %x1 : {ty}")]


@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_float_ops_on_edge_values(ty):
    dt = DT[ty]
    fi = np.finfo(dt)
    edges = np.array([0.0, -0.0, 1.0, -1.0, 1.5, -2.75, 0.1, 3.0, np.inf, -np.inf, np.nan,
                      -np.nan, fi.smallest_subnormal, -fi.smallest_subnormal * 3,
                      fi.smallest_normal, fi.max, -fi.max / 3, 7e-3], dt)
    a = np.repeat(edges, len(edges))
    b = np.tile(edges, len(edges))
    c = np.roll(a, 7)
    binary = FLOAT_BINARY_OPS
    cases = float_cases(ty) + [
        (ty, f"{{r}} = math.fma %x0, %x1, %x2 : {ty}"),
        (ty, f"{{t}}1 = arith.cmpf ult, %x0, %x1 : {ty}; "
             f"{{r}} = arith.select {{t}}1, %x2, %x1 : {ty}")]
    cases += [("i1", f"{{r}} = arith.cmpf {p}, %x0, %x1 : {ty}") for p in CMPF]
    _, out = elementwise([(ty, a), (ty, b), (ty, c)], cases)
    n = len(a)
    with np.errstate(all="ignore"):
        ref = [a + b, a - b, a * b, a / b, np.fmod(a, b)]
        ref += [np.array([_extremum(op, x, y) for x, y in zip(a.tolist(), b.tolist())], dt)
                for op in binary[5:]]
        ref += [np.copysign(a, b), -a, np.sqrt(a), np.abs(b)]
        # fma where the product is exact (one of the factors is +-0, +-1 or a power of two)
        exact = np.isfinite(c) & np.isin(np.abs(a), [0.0, 1.0, 2.0 ** -3])
        fma = c + a * b
    for k, r in enumerate(ref):
        assert_same(out[k][:n], r, cases[k][1])
    assert_same(out[len(ref)][:n][exact], fma[exact], "fma")
    assert_same(out[len(ref) + 1][:n], np.where(~(a >= b), c, b), "select")
    for k, p in enumerate(CMPF, len(ref) + 2):
        np.testing.assert_array_equal(out[k][:n], _cmpf_reference(p, a, b), err_msg=p)


@pytest.mark.parametrize("ty", ["f16", "bf16"])
def test_half_float_ops_on_edge_values(ty):
    """f16 / bf16 values are computed in f32 and rounded once (as the lane engine does)."""
    dt = np.dtype(DT[ty])
    fi = ml_dtypes.finfo(dt)
    edges = np.array([0.0, -0.0, 1.0, -1.0, 1.5, -2.75, 0.1, 3.0, np.inf, -np.inf, np.nan,
                      float(fi.smallest_subnormal), -3 * float(fi.smallest_subnormal),
                      float(fi.smallest_normal), float(fi.max), -float(fi.max) / 3, 7e-3,
                      1 + float(fi.eps)], np.float32).astype(dt)
    a = np.repeat(edges, len(edges))
    b = np.tile(edges, len(edges))
    rng = np.random.default_rng(6)
    # f32 values around every kind of rounding of f32 -> half: random patterns, halfway
    # points, the subnormal and overflow boundaries
    wide = np.concatenate([
        rng.integers(0, 1 << 32, a.size - 8, dtype=np.uint64).astype(np.uint32).view(np.float32),
        np.array([65520.0, 65519.99, 2.0 ** -25, 2.0 ** -25 * 1.0000001, 2.0 ** -24 * 1.5,
                  6.1e-5, 3.3895314e38, -0.0], np.float32)])
    binary = FLOAT_BINARY_OPS
    cases = float_cases(ty) + [
        (ty, f"{{t}}1 = arith.cmpf ult, %x0, %x1 : {ty}; "
             f"{{r}} = arith.select {{t}}1, %x0, %x1 : {ty}"),
        ("f32", f"{{r}} = arith.extf %x0 : {ty} to f32"),
        ("f64", f"{{r}} = arith.extf %x1 : {ty} to f64"),
        (ty, f"{{r}} = arith.truncf %x2 : f32 to {ty}"),
        (ty, f"{{t}}1 = arith.constant -1.5 : {ty}; {{r}} = arith.mulf %x0, {{t}}1 : {ty}")]
    cases += [("i1", f"{{r}} = arith.cmpf {p}, %x0, %x1 : {ty}") for p in CMPF]
    _, out = elementwise([(ty, a), (ty, b), ("f32", wide)], cases)
    n = len(a)
    fa, fb = a.astype(np.float32), b.astype(np.float32)
    with np.errstate(all="ignore"):
        ref = [fa + fb, fa - fb, fa * fb, fa / fb, np.fmod(fa, fb)]
        ref += [np.array([_extremum(op, x, y) for x, y in zip(fa.tolist(), fb.tolist())],
                         np.float32) for op in binary[5:]]
        ref += [np.copysign(fa, fb), -fa, np.sqrt(fa), np.abs(fb), np.where(fa < fb, fa, fb)]
        ref = [r.astype(dt) for r in ref]
        ref[-1] = np.where(~(fa >= fb), a, b)
        ref += [fa, fb.astype(np.float64), wide.astype(dt), (fa * np.float32(-1.5)).astype(dt)]
    for k, r in enumerate(ref):
        got = out[k][:n]
        if got.dtype == dt:
            got, r = got.astype(np.float32), np.asarray(r).astype(np.float32)
        assert_same(got, r, cases[k][1])
    for k, p in enumerate(CMPF, len(ref)):
        np.testing.assert_array_equal(out[k][:n], _cmpf_reference(p, fa, fb), err_msg=p)


def test_fptosi_just_below_the_signed_minimum_runs_natively():
    """-128.5 truncates to -128 (in range of i8): not undefined behaviour, so no fallback."""
    _, out = elementwise([("f32", [-128.5, -128.99, 127.5]), ("f64", [-2.0 ** 31 - 0.5] * 3)],
                         [("i8", "{r} = arith.fptosi %x0 : f32 to i8"),
                          ("i32", "{r} = arith.fptosi %x1 : f64 to i32")], block=3)
    assert out[0].tolist() == [-128, -128, 127] and out[1].tolist() == [-2 ** 31] * 3


# -- 2. undefined behaviour: the native launch falls back to the lane engine ---------------------

UB_PRELUDE = """
      %c5 = arith.constant 5 : index
      %late = arith.cmpi uge, %bid, %c5 : index
      %x = memref.load %in[%i] : memref<?xi32>
      %y = arith.sitofp %x : i32 to f32
"""
UB_CASES = {
    "divsi_by_zero": "%zero = arith.constant 0 : i32\n%sel = arith.select %late, %zero, %x : i32\n"
                     "%v = arith.divsi %x, %sel : i32",
    "remui_by_zero": "%zero = arith.constant 0 : i32\n%sel = arith.select %late, %zero, %x : i32\n"
                     "%v = arith.remui %x, %sel : i32",
    "divsi_overflow": "%min = arith.constant -2147483648 : i32\n%m1 = arith.constant -1 : i32\n"
                      "%a = arith.select %late, %min, %x : i32\n"
                      "%b = arith.select %late, %m1, %x : i32\n%v = arith.divsi %a, %b : i32",
    "shift_by_width": "%w = arith.constant 32 : i32\n%one = arith.constant 1 : i32\n"
                      "%s = arith.select %late, %w, %one : i32\n%v = arith.shli %x, %s : i32",
    "fptosi_out_of_range": "%big = arith.constant 3.0e9 : f32\n"
                           "%f = arith.select %late, %big, %y : f32\n"
                           "%v = arith.fptosi %f : f32 to i32",
    "fptoui_negative": "%neg = arith.constant -1.0 : f32\n%f = arith.select %late, %neg, %y : f32\n"
                       "%v = arith.fptoui %f : f32 to i32",
    "load_out_of_bounds": "%far = arith.constant 100000 : index\n"
                          "%j = arith.select %late, %far, %i : index\n"
                          "%v = memref.load %in[%j] : memref<?xi32>",
    "store_out_of_bounds": "%v = arith.addi %x, %x : i32\n%far = arith.constant 4000 : index\n"
                           "%at = arith.select %late, %far, %i : index",
    "for_step_zero": "%st = arith.select %late, %c0, %c1 : index\n"
                     "%v = scf.for %k = %c0 to %c5 step %st iter_args(%acc = %x) -> (i32) {\n"
                     "  %a = arith.addi %acc, %x : i32\n  scf.yield %a : i32\n}",
}


def _outcome(module, args, backend, grid=(8,), block=(16,)):
    try:
        gpu.launch(module, "m::k", grid=grid, block=block, args=args, backend=backend)
    except Exception as e:  # noqa: BLE001 - the very exception is compared
        return type(e), str(e)
    return None


def _same_failure(module, make_args, grid=(8,), block=(16,)):
    """Both backends raise the same error and leave the arguments alike; the native launch
    fell back to the lane engine."""
    lanes, native = make_args(), make_args()
    expect = _outcome(module, lanes, "lanes", grid, block)
    assert expect is not None
    before = dict(STATS)
    assert _outcome(module, native, "native", grid, block) == expect
    assert STATS["fallback"] == before["fallback"] + 1 and STATS["native"] == before["native"]
    for k, (a, b) in enumerate(zip(lanes, native)):
        assert_same(a, b, f"argument #{k} after the error")
    return expect


@pytest.mark.parametrize("case", sorted(UB_CASES))
def test_undefined_behaviour_falls_back_with_the_same_error(case):
    snippet = UB_CASES[case]
    if "%at =" not in snippet:
        snippet += "\n%at = arith.addi %i, %c0 : index"
    body = UB_PRELUDE + "\n".join("      " + s for s in snippet.split("\n")) + \
        "\n      memref.store %v, %in[%at] : memref<?xi32>"
    m = tileir.parse(kernel_module(body, "%in: memref<?xi32>"))
    x = np.arange(1, 129, dtype=np.int32)
    _, message = _same_failure(m, lambda: [x.copy()])
    assert "block (5, 0, 0)" in message


def test_fault_after_in_place_update_leaves_lane_engine_contents():
    """x[i] = 2 x[i] in every block, then block 6 loads out of bounds: after the error the
    array holds what the lane engine leaves (the native writes were undone)."""
    body = """
      %x = memref.load %buf[%i] : memref<?xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %buf[%i] : memref<?xf32>
      %c6 = arith.constant 6 : index
      %bad = arith.cmpi eq, %bid, %c6 : index
      scf.if %bad {
        %far = arith.constant 4096 : index
        %z = memref.load %buf[%far] : memref<?xf32>
        memref.store %z, %buf[%i] : memref<?xf32>
      }
"""
    m = tileir.parse(kernel_module(body, "%buf: memref<?xf32>"))
    x = np.linspace(-3, 3, 128, dtype=np.float32)
    _same_failure(m, lambda: [x.copy()])


def test_fault_before_a_write_only_store_leaves_lane_engine_contents():
    body = """
      %c7 = arith.constant 7 : i32
      %late = arith.cmpi eq, %bid, %c1 : index
      scf.if %late {
        %q = arith.divui %i, %c0 : index
        memref.store %c7, %out[%q] : memref<?xi32>
      }
      memref.store %c7, %out[%i] : memref<?xi32>
"""
    m = tileir.parse(kernel_module(body, "%out: memref<?xi32>"))
    _same_failure(m, lambda: [np.zeros(8, np.int32)], grid=(2,), block=(4,))


# -- 3. structure: barriers, nested control flow, ids, attributions, arguments -------------------

def test_barrier_loop_with_thread_and_uniform_carried_values():
    """acc_{k+1} = acc_k + sh[(tid + s) % 64] with s doubling: per-thread and uniform
    iter_args of a barrier loop, a workgroup array read before any write (zero-filled)."""
    body = f"""
      %c5 = arith.constant 5 : index
      %c64 = arith.constant 64 : index
      %first = memref.load %sh[%tid] : memref<64xi32, {WG}>
      %x = memref.load %in[%i] : memref<?xi32>
      %init = arith.addi %x, %first : i32
      %acc, %s = scf.for %k = %c0 to %c5 step %c1 iter_args(%a = %init, %st = %c1)
          -> (i32, index) {{
        memref.store %a, %sh[%tid] : memref<64xi32, {WG}>
        gpu.barrier
        %j0 = arith.addi %tid, %st : index
        %j = arith.remui %j0, %c64 : index
        %v = memref.load %sh[%j] : memref<64xi32, {WG}>
        %a2 = arith.addi %a, %v : i32
        gpu.barrier
        %st2 = arith.muli %st, %c2 : index
        scf.yield %a2, %st2 : i32, index
      }}
      memref.store %acc, %out[%i] : memref<?xi32>
      %s32 = arith.index_cast %s : index to i32
      memref.store %s32, %steps[%bid] : memref<?xi32>
"""
    m = kernel_module(body, "%in: memref<?xi32>, %out: memref<?xi32>, %steps: memref<?xi32>",
                      f"workgroup(%sh: memref<64xi32, {WG}>)")
    x = np.random.default_rng(1).integers(-1000, 1000, 64 * 70).astype(np.int32)
    _, out, steps = launch_both(m, lambda: [x.copy(), np.zeros_like(x), np.zeros(70, np.int32)],
                                (70,), (64,))
    acc = x.reshape(70, 64).copy()
    for k in range(5):
        acc = acc + np.roll(acc, -(1 << k), axis=1)
    np.testing.assert_array_equal(out, acc.reshape(-1))
    assert (steps == 32).all()


def test_uniform_if_with_barrier_and_results_and_nested_thread_control():
    body = f"""
      %c3 = arith.constant 3 : index
      %c31 = arith.constant 31 : index
      %x = memref.load %in[%i] : memref<?xi64>
      %parity = arith.remui %bid, %c2 : index
      %even = arith.cmpi eq, %parity, %c0 : index
      %v, %u = scf.if %even -> (i64, index) {{
        memref.store %x, %sh[%tid] : memref<32xi64, {WG}>
        gpu.barrier
        %j = arith.subi %c31, %tid : index
        %y = memref.load %sh[%j] : memref<32xi64, {WG}>
        scf.yield %y, %c3 : i64, index
      }} else {{
        %n = arith.remui %tid, %c3 : index
        %z = scf.for %k = %c0 to %n step %c1 iter_args(%a = %x) -> (i64) {{
          %odd = arith.remui %k, %c2 : index
          %is = arith.cmpi eq, %odd, %c0 : index
          %b = scf.if %is -> (i64) {{
            %m = arith.muli %a, %a : i64
            scf.yield %m : i64
          }} else {{
            %k64 = arith.index_cast %k : index to i64
            %p = arith.addi %a, %k64 : i64
            scf.yield %p : i64
          }}
          scf.yield %b : i64
        }}
        scf.yield %z, %tid : i64, index
      }}
      %u64 = arith.index_cast %u : index to i64
      %w = arith.addi %v, %u64 : i64
      memref.store %w, %out[%i] : memref<?xi64>
"""
    m = kernel_module(body, "%in: memref<?xi64>, %out: memref<?xi64>",
                      f"workgroup(%sh: memref<32xi64, {WG}>)")
    x = np.arange(32 * 66, dtype=np.int64) * 3 - 100
    _, out = launch_both(m, lambda: [x.copy(), np.zeros_like(x)], (66,), (32,))
    rows, tid = x.reshape(66, 32), np.arange(32)
    expect = np.empty_like(rows)
    expect[0::2] = rows[0::2, ::-1] + 3
    odd = rows[1::2].copy()
    n = tid % 3
    odd = np.where(n >= 1, odd * odd, odd)
    odd = np.where(n >= 2, odd + 1, odd)
    expect[1::2] = odd + tid
    np.testing.assert_array_equal(out, expect.reshape(-1))


ID_OPS = [f"gpu.{op} {d}" for op in ("thread_id", "block_id", "block_dim", "grid_dim",
                                     "global_id") for d in "xyz"]
ID_OPS += ["gpu.lane_id", "gpu.subgroup_id : index", "gpu.num_subgroups : index",
           "gpu.subgroup_size : index"]


@pytest.mark.parametrize("grid,block", [((3, 2, 1), (16, 6, 1)), ((2, 3, 2), (8, 4, 3))])
def test_ids_in_2d_and_3d_blocks(grid, block):
    lines = [f"      %id{k} = {op}" for k, op in enumerate(ID_OPS)]
    lines += [f"      %{v}{d} = gpu.{op} {d}" for v, op in (("t", "thread_id"), ("b", "block_id"))
              for d in "xyz"]
    at = "%bz, %by, %bx, %tz, %ty, %tx"
    lines += [f"      %n{k} = arith.constant {k} : index\n      memref.store %id{k}, "
              f"%out[{at}, %n{k}] : memref<{'?x' * 7}index>" for k in range(len(ID_OPS))]
    nb = math.prod(block)
    shape = (grid[2], grid[1], grid[0], block[2], block[1], block[0], len(ID_OPS))
    (got,) = launch_both(kernel_module("\n".join(lines), f"%out: memref<{'?x' * 7}index>"),
                         lambda: [np.zeros(shape, np.int64)], grid, block)
    bz, by, bx, tz, ty, tx = np.indices(got.shape[:6])
    t, b, g = (tx, ty, tz), (bx, by, bz), grid
    lin = (tz * block[1] + ty) * block[0] + tx
    expect = [*t, *b, *(np.full_like(tx, n) for n in block), *(np.full_like(tx, n) for n in g),
              *(b[k] * block[k] + t[k] for k in range(3)), lin % 32, lin // 32,
              np.full_like(tx, -(-nb // 32)), np.full_like(tx, 32)]
    for k, e in enumerate(expect):
        np.testing.assert_array_equal(got[..., k], e, err_msg=ID_OPS[k])


def test_private_attribution_across_barriers():
    body = f"""
      %c4 = arith.constant 4 : index
      %x = memref.load %in[%i] : memref<?xf32>
      scf.for %k = %c0 to %c4 step %c1 {{
        %kf = arith.index_cast %k : index to i32
        %f = arith.sitofp %kf : i32 to f32
        %v = arith.mulf %x, %f : f32
        memref.store %v, %p[%k] : memref<4xf32, {PR}>
      }}
      memref.store %x, %sh[%tid] : memref<32xf32, {WG}>
      gpu.barrier
      %c31 = arith.constant 31 : index
      %j = arith.subi %c31, %tid : index
      %y = memref.load %sh[%j] : memref<32xf32, {WG}>
      %s = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %y) -> (f32) {{
        %v = memref.load %p[%k] : memref<4xf32, {PR}>
        %a2 = arith.addf %a, %v : f32
        scf.yield %a2 : f32
      }}
      memref.store %s, %out[%i] : memref<?xf32>
"""
    m = kernel_module(body, "%in: memref<?xf32>, %out: memref<?xf32>",
                      f"workgroup(%sh: memref<32xf32, {WG}>) private(%p: memref<4xf32, {PR}>)")
    x = np.random.default_rng(2).standard_normal(32 * 8).astype(np.float32)
    _, out = launch_both(m, lambda: [x.copy(), np.zeros_like(x)], (8,), (32,))
    s = x.reshape(8, 32)[:, ::-1].reshape(-1)
    for k in range(4):
        s = s + x * np.float32(k)
    np.testing.assert_array_equal(out, s)


S1 = "memref<?xf32, strided<[?], offset: ?>>"
S2 = "memref<?x?xf32, strided<[?, ?], offset: ?>>"


@pytest.mark.parametrize("view", ["contiguous", "every_third", "reversed"])
def test_strided_and_offset_arguments(view):
    """o[i, j] = a[j] * t[i, j] with a a 1-D view, t a transposed array and o a view of every
    other row (the same kernel also with unit innermost strides: a separate translation)."""
    body = f"""
      %j = gpu.global_id x
      %r = gpu.global_id y
      %x = memref.load %a[%j] : {S1}
      %y = memref.load %t[%r, %j] : {S2}
      %z = arith.mulf %x, %y : f32
      memref.store %z, %o[%r, %j] : {S2}
"""
    m = tileir.parse(kernel_module(body, f"%a: {S1}, %t: {S2}, %o: {S2}"))
    rng = np.random.default_rng(3)
    base_a = rng.standard_normal(100).astype(np.float32)
    base_t = rng.standard_normal((32, 12)).astype(np.float32)
    a = {"contiguous": base_a[5:37], "every_third": base_a[1::3][:32],
         "reversed": base_a[::-3][:32]}[view]
    t = base_t.T.copy() if view == "contiguous" else base_t.T

    def make():
        out = np.zeros((24, 33), np.float32)
        return [a, t, out[::2, 1:] if view != "contiguous" else out[:12, 1:]]
    _, _, o = launch_both(m, make, (4, 3), (8, 4))
    np.testing.assert_array_equal(o, a[None, :] * t)


def test_arguments_aliasing_one_array():
    body = """
      %x = memref.load %a[%i] : memref<?xi16>
      %y = memref.load %b[%i] : memref<?xi16>
      %z = arith.muli %x, %y : i16
      memref.store %z, %b[%i] : memref<?xi16>
      %w = memref.load %a[%i] : memref<?xi16>
      %v = arith.addi %w, %x : i16
      memref.store %v, %a[%i] : memref<?xi16>
"""
    m = tileir.parse(kernel_module(body, "%a: memref<?xi16>, %b: memref<?xi16>"))
    x = np.arange(-300, 340, dtype=np.int16)

    def make():
        arr = x.copy()
        return [arr, arr]
    (out, _) = launch_both(m, make, (10,), (64,))
    np.testing.assert_array_equal(out, x * x + x)


def test_scalar_arguments_of_every_type():
    types = ["f32", "f64", "i32", "index", "i1", "i8", "i16", "i64"]
    values = [np.float32(-1.5e-45), -np.inf, -2 ** 31, -1, True, -128, 32767, 2 ** 63 - 1]
    body = ["      %lo = arith.andi %i, %c1 : index",
            "      %odd = arith.index_cast %lo : index to i1",
            "      %ii = arith.index_cast %i : index to i64"]
    for k, t in enumerate(types):
        if t in FLOAT_TYPES:
            body.append(f"      %f{k} = arith.sitofp %ii : i64 to {t}")
            body.append(f"      %r{k} = arith.mulf %s{k}, %f{k} : {t}")
        elif t == "i1":
            body.append(f"      %r{k} = arith.xori %s{k}, %odd : i1")
        else:
            body.append(f"      %f{k} = arith.{'index_cast' if t == 'index' else 'trunci'} "
                        f"%ii : i64 to {t}" if t != "i64" else
                        f"      %f{k} = arith.addi %ii, %ii : i64")
            body.append(f"      %r{k} = arith.subi %s{k}, %f{k} : {t}")
        body.append(f"      memref.store %r{k}, %o{k}[%i] : memref<?x{t}>")
    args = [f"%s{k}: {t}" for k, t in enumerate(types)] + \
        [f"%o{k}: memref<?x{t}>" for k, t in enumerate(types)]
    m = kernel_module("\n".join(body), ", ".join(args))
    outs = launch_both(m, lambda: values + [np.zeros(96, DT[t]) for t in types], (3,), (32,))
    i = np.arange(96)
    with np.errstate(all="ignore"):
        assert_same(outs[8], np.float32(values[0]) * i.astype(np.float32))
        assert_same(outs[9], -np.inf * i.astype(np.float64))
    assert outs[10].tolist() == [wrap(-2 ** 31 - k, 32) for k in range(96)]
    assert outs[11].tolist() == [-1 - k for k in range(96)]
    assert outs[12].tolist() == (i % 2 == 0).tolist()
    assert outs[13].tolist() == [wrap(-128 - k, 8) for k in range(96)]
    assert outs[14].tolist() == [32767 - k for k in range(96)]
    assert outs[15].tolist() == [2 ** 63 - 1 - 2 * k for k in range(96)]


FLOAT_TYPES = ("f32", "f64")


def test_many_blocks_split_over_worker_threads():
    body = """
      %x = memref.load %x_[%i] : memref<?xf64>
      %y = memref.load %y_[%i] : memref<?xf64>
      %z = arith.mulf %alpha, %x : f64
      %w = arith.addf %z, %y : f64
      memref.store %w, %y_[%i] : memref<?xf64>
"""
    m = tileir.parse(kernel_module(body, "%alpha: f64, %x_: memref<?xf64>, %y_: memref<?xf64>"))
    rng = np.random.default_rng(4)
    x, y = rng.standard_normal(300 * 32), rng.standard_normal(300 * 32)
    _, _, out = launch_both(m, lambda: [0.75, x.copy(), y.copy()], (300,), (32,))
    np.testing.assert_array_equal(out, 0.75 * x + y)


def test_launch_from_a_host_function():
    text = open(__file__.rsplit("/tests/", 1)[0] + "/examples/gpu/vector_add.mlir").read()
    program = tileir.parse(text)
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((2, 1000)).astype(np.float32)

    def run(args, backend):
        gpu.run(program, "main", args=args, backend=backend)
    *_, c, n = launch_both(program, lambda: [a.copy(), b.copy(), np.zeros(1000, np.float32), 1000],
                           None, None, run=run)
    np.testing.assert_array_equal(c, a + b)


INLINE_LAUNCH = """
func.func @main(%a: memref<?xf32>, %out: memref<?xf32>, %n: index, %scale: f32) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %blocks = arith.divui %n, %c64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %blocks, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1)
             workgroup(%sh : memref<64xf32, #gpu.address_space<workgroup>>) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %a[%i] : memref<?xf32>
    %w = arith.mulf %v, %scale : f32
    memref.store %w, %sh[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c63 = arith.constant 63 : index
    %j = arith.subi %c63, %tx : index
    %r = memref.load %sh[%j] : memref<64xf32, #gpu.address_space<workgroup>>
    %last = arith.subi %gx, %c1 : index
    %edge = arith.cmpi eq, %bx, %last : index
    %s = arith.select %edge, %w, %r : f32
    memref.store %s, %out[%i] : memref<?xf32>
    gpu.terminator
  }
  return
}
"""


def test_gpu_launch_body_with_captured_values():
    """A ``gpu.launch`` body: its id arguments, a captured scalar and memrefs, a workgroup
    attribution reversed through a barrier (the last block keeps its own values)."""
    program = tileir.parse(INLINE_LAUNCH)
    n = 64 * 40
    a = np.random.default_rng(9).standard_normal(n).astype(np.float32)

    def run(args, backend):
        gpu.run(program, "main", args=args, backend=backend)
    _, out, *_ = launch_both(program, lambda: [a.copy(), np.zeros(n, np.float32), n, 2.5],
                             None, None, run=run)
    want = (a * np.float32(2.5)).reshape(-1, 64)
    want[:-1] = want[:-1, ::-1]
    np.testing.assert_array_equal(out, want.reshape(-1))


# -- 4. refusals ---------------------------------------------------------------------------------

SHUFFLE = """
      %x = memref.load %a[%i] : memref<?xf32>
      %one = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %y, %ok = gpu.shuffle xor %x, %one, %c32 : f32
      memref.store %y, %a[%i] : memref<?xf32>
"""
SIMPLE = """
      %x = memref.load %a[%i] : memref<?xf32>
      %y = arith.addf %x, %x : f32
      memref.store %y, %a[%i] : memref<?xf32>
"""
# (true for every thread, but not provably the same for all of a block's threads)
DIVERGENT_BARRIER = """
      %c4 = arith.constant 1000 : index
      %low = arith.cmpi ult, %tid, %c4 : index
      scf.if %low {
        gpu.barrier
      }
"""


@pytest.mark.parametrize("body,options,reason", [
    (SHUFFLE, {}, "gpu.shuffle"),
    (SIMPLE, {"racecheck": True}, "racecheck"),
    (DIVERGENT_BARRIER, {}, "scf.if whose condition may differ"),
])
def test_native_refuses(body, options, reason):
    m = tileir.parse(kernel_module(body, "%a: memref<?xf32>"))
    before = dict(STATS)
    with pytest.raises(UnsupportedError, match=reason):
        gpu.launch(m, "m::k", grid=(2,), block=(32,), args=[np.ones(64, np.float32)],
                   backend="native", **options)
    assert STATS == before
    a = np.ones(64, np.float32)     # the default backend runs it on the lane engine
    gpu.launch(m, "m::k", grid=(2,), block=(32,), args=[a], **options)
    assert STATS == before


def default_auto(monkeypatch) -> None:
    """``backend="auto"`` with its default threshold, whatever the environment says."""
    monkeypatch.setattr(launcher, "AUTO_MIN_THREADS", 1 << 15)
    monkeypatch.delenv("TILEIR_SIMT_BACKEND", raising=False)


def large_reduction(seed: int):
    """examples/gpu/block_reduce.mlir's program, 2^16 inputs and a zeroed output (a launch
    large enough for ``auto``), and the check of its result."""
    text = open(__file__.rsplit("/tests/", 1)[0] + "/examples/gpu/block_reduce.mlir").read()
    prog = gpu.Program(tileir.parse(text))
    x = np.random.default_rng(seed).random(256 * 256, dtype=np.float32)
    out = np.zeros(256, np.float32)

    def launch(**options):
        gpu.launch(prog, "kernels::block_sum", grid=(256,), block=(256,), args=[x, out],
                   **options)
        np.testing.assert_allclose(out, x.reshape(-1, 256).sum(1, dtype=np.float64),
                                   rtol=1e-5)
    return launch


def test_auto_leaves_small_launches_to_the_lane_engine(monkeypatch):
    default_auto(monkeypatch)
    m = tileir.parse(kernel_module(SIMPLE, "%a: memref<?xf32>"))
    before = dict(STATS)
    a = np.arange(256, dtype=np.float32)
    gpu.launch(m, "m::k", grid=(4,), block=(64,), args=[a], backend="auto")
    gpu.launch(m, "m::k", grid=(4,), block=(64,), args=[a])
    assert STATS == before
    np.testing.assert_array_equal(a, np.arange(256, dtype=np.float32) * 4)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_native_launch_in_a_forked_child():
    """A child forked after a native launch has none of the parent's worker threads: its
    launches must make their own (a submit to the parent's pool would wait forever)."""
    m = tileir.parse(kernel_module(SIMPLE, "%a: memref<?xf32>"))
    x = np.ones(64 * 64, np.float32)
    gpu.launch(m, "m::k", grid=(64,), block=(64,), args=[x], backend="native")
    pid = os.fork()
    if pid == 0:        # (the child reports through its exit status only)
        try:
            gpu.launch(m, "m::k", grid=(64,), block=(64,), args=[x], backend="native")
            os._exit(0 if np.all(x == 4) else 3)
        except BaseException:
            os._exit(4)
    _, status = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(status) == 0
    np.testing.assert_array_equal(x, 2)


COLLATZ = """
      %n0 = memref.load %a[%i] : memref<?xi64>
      %one = arith.constant 1 : i64
      %two = arith.constant 2 : i64
      %three = arith.constant 3 : i64
      %zero = arith.constant 0 : i64
      %steps, %last = scf.while (%n = %n0, %k = %zero) : (i64, i64) -> (i64, i64) {
        %more = arith.cmpi ugt, %n, %one : i64
        scf.condition(%more) %k, %n : i64, i64
      } do {
      ^bb0(%k2: i64, %n2: i64):
        %r = arith.remui %n2, %two : i64
        %odd = arith.cmpi ne, %r, %zero : i64
        %up = arith.muli %n2, %three : i64
        %up1 = arith.addi %up, %one : i64
        %down = arith.divui %n2, %two : i64
        %next = arith.select %odd, %up1, %down : i64
        %k3 = arith.addi %k2, %one : i64
        scf.yield %next, %k3 : i64, i64
      }
      memref.store %steps, %a[%i] : memref<?xi64>
"""


def collatz_steps(n: int) -> int:
    k = 0
    while n > 1:
        n = 3 * n + 1 if n % 2 else n // 2
        k += 1
    return k


def test_scf_while_with_per_thread_trip_counts():
    m = kernel_module(COLLATZ, "%a: memref<?xi64>")
    start = np.arange(1, 64 * 32 + 1, dtype=np.int64)
    (out,) = launch_both(m, lambda: [start.copy()], (32,), (64,))
    np.testing.assert_array_equal(out, [collatz_steps(int(n)) for n in start])


def test_scf_while_that_never_ends_is_reported_by_the_lane_engine():
    """An endless loop (one thread's) is not hung on: the C code stops at the lane engine's
    iteration limit and the lane engine reports the loop."""
    # (the carried values never change, which the lane engine detects)
    body = COLLATZ.replace("arith.cmpi ugt, %n, %one", "arith.cmpi uge, %n, %one") \
        .replace("scf.yield %next, %k3", "scf.yield %n2, %k2")
    m = tileir.parse(kernel_module(body, "%a: memref<?xi64>"))
    errors = []
    for backend in ("lanes", "native"):
        with pytest.raises(tileir.LaunchError) as info:
            gpu.launch(m, "m::k", grid=(1,), block=(4,), args=[np.arange(1, 5)],
                       backend=backend)
        errors.append(str(info.value))
    assert errors[0] == errors[1]


def test_auto_compiles_large_launches_of_kernels_with_loops(monkeypatch):
    """``auto`` (the default) runs a large launch of a kernel with a barrier natively and a
    straight-line kernel's on the lane engine."""
    default_auto(monkeypatch)
    launch = large_reduction(3)
    before = dict(STATS)
    launch()
    assert STATS["native"] == before["native"] + 1
    m = tileir.parse(kernel_module(SIMPLE, "%a: memref<?xf32>"))
    a = np.ones(256 * 256, np.float32)
    gpu.launch(m, "m::k", grid=(256,), block=(256,), args=[a])
    assert STATS["native"] == before["native"] + 1


CF_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?xi32>, %limit: i32) kernel {
      %i = gpu.global_id x
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %x = memref.load %a[%i] : memref<?xi32>
      %ok = arith.cmpi slt, %x, %limit : i32
      cf.assert %ok, "value past the limit"
      cf.br ^loop(%x, %c0 : i32, i32)
    ^loop(%n: i32, %bits: i32):
      %more = arith.cmpi ne, %n, %c0 : i32
      cf.cond_br %more, ^body, ^done(%bits : i32)
    ^done(%result: i32):
      memref.store %result, %a[%i] : memref<?xi32>
      gpu.return
    ^body:
      %low = arith.andi %n, %c1 : i32
      %b2 = arith.addi %bits, %low : i32
      %n2 = arith.shrui %n, %c1 : i32
      cf.br ^loop(%n2, %b2 : i32, i32)
    }
  }
}
"""


def test_cf_branches_popcount_per_thread():
    """A body of several blocks (a per-thread loop of cf branches; ^done written before
    ^body): each thread's population count."""
    x = np.random.default_rng(4).integers(0, 1 << 30, 64 * 16, dtype=np.int32)
    (out, _) = launch_both(CF_KERNEL, lambda: [x.copy(), 1 << 30], (16,), (64,))
    np.testing.assert_array_equal(out, [bin(int(v)).count("1") for v in x])


def test_cf_assert_failure_reported_as_by_the_lane_engine():
    m = tileir.parse(CF_KERNEL)
    x = np.arange(64 * 4, dtype=np.int32)
    errors = []
    for backend in ("lanes", "native"):
        before = dict(STATS)
        with pytest.raises(tileir.LaunchError) as info:
            gpu.launch(m, "m::k", grid=(4,), block=(64,), args=[x.copy(), 200],
                       backend=backend)
        errors.append(str(info.value))
    assert STATS["fallback"] == before["fallback"] + 1
    assert errors[0] == errors[1] and "value past the limit" in errors[0]


@pytest.mark.parametrize("ty", ["f16", "bf16"])
def test_half_conversions_on_every_half_and_many_f32_patterns(ty):
    """extf of all 65536 patterns of the 16-bit type, and truncf of 2^18 f32 patterns (random,
    plus every pattern whose dropped bits sit at the rounding half-way point or next to it)."""
    dt = np.dtype(DT[ty])
    halves = np.arange(1 << 16, dtype=np.uint16).view(dt)
    rng = np.random.default_rng(8)
    kept = rng.integers(0, 1 << 16, 1 << 16, dtype=np.uint32) << np.uint32(16)
    shift = 13 if ty == "f16" else 16        # (f16's normal range: 13 dropped bits)
    half = np.uint32(1 << (shift - 1))
    near = np.concatenate([kept | half, kept | (half - np.uint32(1)),
                           kept | (half + np.uint32(1)),
                           rng.integers(0, 1 << 32, 1 << 16, dtype=np.uint64).astype(np.uint32)])
    wide = near.view(np.float32)
    n = max(halves.size, wide.size)
    _, out = elementwise([(ty, halves), ("f32", wide)],
                         [("f32", f"{{r}} = arith.extf %x0 : {ty} to f32"),
                          (ty, f"{{r}} = arith.truncf %x1 : f32 to {ty}")], block=256)
    assert_same(out[0][:halves.size], halves.astype(np.float32), "extf")
    with np.errstate(all="ignore"):
        assert_same(out[1][:wide.size], wide.astype(dt), "truncf")
    assert n == out[0].size


def test_memref_dim_of_a_strided_argument():
    """``memref.dim`` with a constant index reads the argument's runtime sizes (a uniform
    value: the grid-stride loop bound of every thread)."""
    body = """
      %rows = memref.dim %m, %c0 : memref<?x?xf32>
      %cols = memref.dim %m, %c1 : memref<?x?xf32>
      %n = arith.muli %rows, %cols : index
      %stride = arith.constant 128 : index
      scf.for %j = %i to %n step %stride {
        %r = arith.divui %j, %cols : index
        %c = arith.remui %j, %cols : index
        %v = memref.load %m[%r, %c] : memref<?x?xf32>
        %w = arith.addf %v, %v : f32
        memref.store %w, %m[%r, %c] : memref<?x?xf32>
      }"""
    base = np.random.default_rng(10).standard_normal((30, 50)).astype(np.float32)
    (out,) = launch_both(kernel_module(body, "%m: memref<?x?xf32>"),
                         lambda: [base.copy()[::2, 3:]], (2,), (64,))
    want = base.copy()
    want[::2, 3:] *= 2
    np.testing.assert_array_equal(_whole(out), want)


AFFINE_ACCESS = """
      %k = arith.constant -3 : index
      %t3 = arith.muli %tid, %k : index
      %j0 = arith.addi %t3, %off : index
      %j = arith.addi %j0, %bid : index
      %v = memref.load %a[%j] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %b[%i] : memref<?xf32>
"""


@pytest.mark.parametrize("offset,faults", [(189, False), (188, True), (192, True)])
def test_bounds_checked_once_per_run_for_affine_indices(offset, faults):
    """An unconditional access at ``off + bid - 3 * tid`` is checked on its range before the
    loop over the threads: in bounds it runs natively, one element past either end (the
    lowest thread of block 0, the highest index of the last block) falls back and is reported
    as the lane engine reports it."""
    m = tileir.parse(kernel_module(AFFINE_ACCESS, "%a: memref<?xf32>, %b: memref<?xf32>, "
                                                  "%off: index"))
    a = np.arange(195, dtype=np.float32)     # (indices off - 189 .. off + 3)
    results, errors = [], []
    for backend in ("lanes", "native"):
        b = np.zeros(64 * 4, np.float32)
        before = dict(STATS)
        try:
            gpu.launch(m, "m::k", grid=(4,), block=(64,), args=[a, b, offset], backend=backend)
            errors.append(None)
        except tileir.LaunchError as e:
            errors.append(str(e))
        results.append(b)
    assert errors[0] == errors[1] and (errors[0] is not None) == faults
    if errors[0] is None:
        assert STATS["native"] == before["native"] + 1
        j = offset + np.repeat(np.arange(4), 64) - 3 * np.tile(np.arange(64), 4)
        np.testing.assert_array_equal(results[1], 2 * a[j])
    else:
        assert STATS["fallback"] == before["fallback"] + 1 and "out of bounds" in errors[0]
    np.testing.assert_array_equal(results[0], results[1])


def test_without_a_c_compiler_auto_runs_lanes_and_native_refuses(monkeypatch):
    """No compiler: ``auto`` (even for a large launch of a kernel with a barrier) runs the
    lane engine, with the same results; ``native`` says why it cannot."""
    monkeypatch.setattr(build, "_compiler", [None])
    default_auto(monkeypatch)
    launch = large_reduction(12)
    before = dict(STATS)
    launch()
    assert STATS == before
    with pytest.raises(UnsupportedError, match="no C compiler"):
        launch(backend="native")


ORDER_FREE_ATOMICS = ("addi", "muli", "andi", "ori", "xori", "maxs", "maxu", "mins", "minu")


@pytest.mark.parametrize("ty", ["i32", "i64"])
def test_integer_atomics_with_colliding_threads(ty):
    """Each order-free atomic kind from every thread onto 7 global counters and, through a
    barrier, onto a workgroup counter per block (then added to a global total)."""
    ops = "\n".join(
        f"      %o{k} = memref.atomic_rmw {kind} %v, %g{k}[%slot] : ({ty}, memref<7x{ty}>) -> {ty}"
        for k, kind in enumerate(ORDER_FREE_ATOMICS))
    body = f"""
      %v = memref.load %x[%i] : memref<?x{ty}>
      %c7 = arith.constant 7 : index
      %slot = arith.remui %i, %c7 : index
{ops}
      %sv = memref.atomic_rmw addi %v, %sh[%c0] : ({ty}, memref<1x{ty}, {WG}>) -> {ty}
      gpu.barrier
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {{
        %s = memref.load %sh[%c0] : memref<1x{ty}, {WG}>
        %t = memref.atomic_rmw addi %s, %total[%c0] : ({ty}, memref<1x{ty}>) -> {ty}
      }}"""
    args = f"%x: memref<?x{ty}>, " + ", ".join(f"%g{k}: memref<7x{ty}>"
                                               for k in range(len(ORDER_FREE_ATOMICS)))
    args += f", %total: memref<1x{ty}>"
    m = kernel_module(body, args, attrs=f"workgroup(%sh: memref<1x{ty}, {WG}>)")
    dt = DT[ty]
    info = np.iinfo(dt)
    x = np.random.default_rng(13).integers(info.min, info.max, 64 * 40, dtype=dt)
    x[:7] = [info.min, info.max, -1, 0, 1, 3, -3]
    inits = [np.zeros(7, dt), np.ones(7, dt), np.full(7, -1, dt), np.zeros(7, dt),
             np.zeros(7, dt), np.full(7, info.min, dt), np.zeros(7, dt),
             np.full(7, info.max, dt), np.full(7, -1, dt)]
    out = launch_both(m, lambda: [x.copy()] + [a.copy() for a in inits] + [np.zeros(1, dt)],
                      (40,), (64,))
    u = np.dtype(f"u{dt().itemsize}")
    for k, (kind, got) in enumerate(zip(ORDER_FREE_ATOMICS, out[1:-1])):
        for s in range(7):
            vals = x[s::7]
            want = {"addi": lambda: vals.sum(dtype=dt), "muli": lambda: np.prod(vals, dtype=dt),
                    "andi": lambda: np.bitwise_and.reduce(vals),
                    "ori": lambda: np.bitwise_or.reduce(vals),
                    "xori": lambda: np.bitwise_xor.reduce(vals),
                    "maxs": lambda: vals.max(), "mins": lambda: vals.min(),
                    "maxu": lambda: vals.view(u).max().astype(u).view(dt),
                    "minu": lambda: vals.view(u).min().astype(u).view(dt)}[kind]()
            assert got[s] == want, (kind, s)
    assert out[-1][0] == x.sum(dtype=dt)


@pytest.mark.parametrize("snippet,reason", [
    ("%o = memref.atomic_rmw addf %v, %a[%c0] : (f32, memref<?xf32>) -> f32", "addf"),
    ("%o = memref.atomic_rmw addi %w, %b[%c0] : (i32, memref<?xi32>) -> i32\n"
     "      memref.store %o, %b[%i] : memref<?xi32>", "old value is used"),
])
def test_order_dependent_atomics_keep_the_lane_engine(snippet, reason):
    body = f"""
      %v = memref.load %a[%i] : memref<?xf32>
      %w = arith.fptosi %v : f32 to i32
      {snippet}"""
    m = tileir.parse(kernel_module(body, "%a: memref<?xf32>, %b: memref<?xi32>"))
    with pytest.raises(UnsupportedError, match=reason):
        gpu.launch(m, "m::k", grid=(2,), block=(32,),
                   args=[np.ones(64, np.float32), np.zeros(64, np.int32)], backend="native")
