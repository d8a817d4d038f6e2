"""NaN canonicalisation only where a NaN's bits can be observed (tileir.execute.nan_payload).

Two halves: (1) every op that the analysis calls *blind* really gives the same bits whatever
the payload and sign of a NaN operand (run with NaN inputs of many patterns, loaded from
memory, which keeps them as they are); (2) the analysis marks exactly the values whose bits
nothing observes, and kernels that build NaNs from arithmetic store the same (canonical)
bits with the analysis on and off.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import tileir
from tileir.execute import nan_payload
from tileir.execute.nan_payload import BLIND, unobserved_nan_values

from exec_util import run_op, run_snippet

#: f32 NaNs of different payloads and signs (quiet, signalling, all ones...)
F32_NANS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFFFFFFFF, 0x7FA5A5A5, 0xFF812345, 0x7FFFFFFF]
F16_NANS = [0x7E00, 0xFE00, 0x7C01, 0xFFFF, 0x7D55]


def _with_nans(base: np.ndarray, pattern: int, where: np.ndarray) -> np.ndarray:
    """``base`` with the elements at ``where`` replaced by the NaN of bit pattern
    ``pattern``."""
    x = base.copy()
    u = np.uint32 if x.dtype == np.float32 else np.uint16
    x.view(u)[where] = u(pattern)
    return x


def _bits(x: np.ndarray) -> bytes:
    return np.ascontiguousarray(x).tobytes()


def _same_for_every_nan(run, inputs: list, nan_inputs: list[int], patterns: list[int]):
    """Run ``run(inputs)`` with the inputs listed in ``nan_inputs`` carrying NaNs of each
    pattern (at the same elements; the other elements ordinary values) and check that the
    results' bits are the same for every pattern."""
    n = inputs[0].shape[-1]
    where = np.zeros(inputs[0].shape, bool)
    where[..., ::3] = True
    results = set()
    for p in patterns:
        xs = [(_with_nans(x, p, where) if i in nan_inputs else x) for i, x in enumerate(inputs)]
        results.add(_bits(run(xs)))
    assert len(results) == 1, f"results depend on the NaN operand's bits ({n} elements)"


def _vals(shape, seed: int, dtype=np.float32, positive: bool = False) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return np.abs(x) + dtype(0.5) if positive else x


BINARY = ["addf", "subf", "mulf", "divf", "remf", "maxf", "minf", "pow", "atan2"]
BINARY_ATTRS = {"addf": ["", " rounding<zero>", " flush_to_zero"],
                "subf": ["", " rounding<positive_inf>"],
                "mulf": ["", " rounding<negative_inf>", " flush_to_zero"],
                "divf": ["", " rounding<zero>", " flush_to_zero"],
                "maxf": ["", " propagate_nan", " flush_to_zero"],
                "minf": ["", " propagate_nan"]}


@pytest.mark.parametrize("op", BINARY)
@pytest.mark.parametrize("nan_in", [(0,), (1,), (0, 1)])
def test_binary_ops_are_blind_to_nan_bits(op, nan_in):
    for attr in BINARY_ATTRS.get(op, [""]):
        for elem, dtype, patterns in (("f32", np.float32, F32_NANS),
                                      ("f16", np.float16, F16_NANS)):
            if elem == "f16" and (op in ("pow", "atan2") or "flush" in attr or
                                  "rounding" in attr):
                continue
            a, b = _vals(64, 1, dtype), _vals(64, 2, dtype, positive=True)
            line = f"%r = {op} %a0, %a1{attr} : tile<64x{elem}>"
            _same_for_every_nan(lambda xs: run_op(line, xs, (64,), elem), [a, b], list(nan_in),
                                patterns)


UNARY = ["sqrt", "rsqrt", "exp", "exp2", "log", "log2", "sin", "cos", "tan", "sinh", "cosh",
         "tanh", "ceil", "floor"]


@pytest.mark.parametrize("op", UNARY)
def test_unary_ops_are_blind_to_nan_bits(op):
    for elem, dtype, patterns in (("f32", np.float32, F32_NANS), ("f16", np.float16, F16_NANS)):
        line = f"%r = {op} %a0 : tile<64x{elem}>"
        _same_for_every_nan(lambda xs: run_op(line, xs, (64,), elem),
                            [_vals(64, 3, dtype, positive=True)], [0], patterns)


@pytest.mark.parametrize("exponent", [2, 3, 0, -1])
def test_fpowi_is_blind_to_nan_bits(exponent):
    n = np.full(64, exponent, np.int32)
    line = "%r = fpowi %a0, %a1 : tile<64xf32>, tile<64xi32>"
    _same_for_every_nan(lambda xs: run_op(line, xs, (64,), "f32"), [_vals(64, 16), n], [0],
                        F32_NANS)
    body = f"""%n = constant <i32: {exponent}> : tile<64xi32>
    %r = fpowi %a0, %n : tile<64xf32>, tile<64xi32>"""     # (a constant 2: the square)
    _same_for_every_nan(lambda xs: run_snippet(body, xs, [("%r", (64,), "f32")])[0],
                        [_vals(64, 16)], [0], F32_NANS)


@pytest.mark.parametrize("nan_in", [(0,), (1,), (2,), (0, 2)])
@pytest.mark.parametrize("attr", ["", " rounding<zero>", " flush_to_zero"])
def test_fma_is_blind_to_nan_bits(nan_in, attr):
    xs = [_vals(128, s) for s in (4, 5, 6)]
    line = f"%r = fma %a0, %a1, %a2{attr} : tile<128xf32>"
    _same_for_every_nan(lambda v: run_op(line, v, (128,), "f32"), xs, list(nan_in), F32_NANS)


@pytest.mark.parametrize("pred", ["equal", "not_equal", "less_than", "greater_than_or_equal"])
@pytest.mark.parametrize("ordering", ["ordered", "unordered"])
def test_cmpf_is_blind_to_nan_bits(pred, ordering):
    a, b = _vals(64, 7), _vals(64, 8)
    line = f"%r = cmpf {pred} {ordering} %a0, %a1 : tile<64xf32> -> tile<64xi1>"
    _same_for_every_nan(lambda xs: run_op(line, xs, (64,), "i1"), [a, b], [0], F32_NANS)


@pytest.mark.parametrize("dst", ["i32", "i8", "i64"])
def test_ftoi_is_blind_to_nan_bits(dst):
    line = f"%r = ftoi %a0 signed : tile<64xf32> -> tile<64x{dst}>"
    _same_for_every_nan(lambda xs: run_op(line, xs, (64,), dst), [_vals(64, 9)], [0], F32_NANS)


@pytest.mark.parametrize("src,dst,attr", [
    ("f32", "f16", ""), ("f32", "bf16", ""), ("f32", "f64", ""), ("f32", "tf32", ""),
    ("f32", "f16", " rounding<zero>"), ("f32", "bf16", " rounding<positive_inf>"),
    ("f32", "f8E4M3FN", ""), ("f32", "f8E5M2", ""), ("f16", "f32", ""), ("f16", "f64", ""),
    ("f16", "bf16", ""), ("f64", "f32", "")])
def test_ftof_is_blind_to_nan_bits(src, dst, attr):
    dtype = {"f32": np.float32, "f16": np.float16, "f64": np.float64}[src]
    x = _vals(64, 10, dtype)
    if src == "f64":
        patterns = [0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
                    0xFFFFFFFFFFFFFFFF]
        results = set()
        for p in patterns:
            y = x.copy()
            y.view(np.uint64)[::3] = np.uint64(p)
            results.add(_bits(run_op(f"%r = ftof %a0{attr} : tile<64x{src}> -> tile<64x{dst}>",
                                     [y], (64,), dst)))
        assert len(results) == 1
        return
    out_elem = "f32" if dst == "tf32" else dst
    line = f"%r = ftof %a0{attr} : tile<64x{src}> -> tile<64x{dst}>"
    _same_for_every_nan(
        lambda xs: run_op(line, xs, (64,), out_elem, elems=None) if dst != "tf32" else
        run_snippet(line, xs, [("%r", (64,), "tf32")])[0],
        [x], [0], F32_NANS if src == "f32" else F16_NANS)


@pytest.mark.parametrize("mma", ["fast", "exact"])
@pytest.mark.parametrize("in_elem", ["f32", "f16", "tf32"])
@pytest.mark.parametrize("nan_in", [(0,), (1,), (2,)])
def test_mmaf_is_blind_to_nan_bits(mma, in_elem, nan_in):
    dtype = np.float16 if in_elem == "f16" else np.float32
    a, b, c = _vals((8, 16), 11, dtype), _vals((16, 8), 12, dtype), _vals((8, 8), 13)
    line = (f"%r = mmaf %a0, %a1, %a2 : tile<8x16x{in_elem}>, tile<16x8x{in_elem}>, "
            f"tile<8x8xf32>")
    elems = [in_elem, in_elem, "f32"]
    patterns = {0: F16_NANS if dtype == np.float16 else F32_NANS,
                1: F16_NANS if dtype == np.float16 else F32_NANS, 2: F32_NANS}[nan_in[0]]
    results = set()
    for p in patterns:
        xs = [a, b, c]
        k = nan_in[0]
        where = np.zeros(xs[k].shape, bool)
        where[::3, ::2] = True
        xs = [(_with_nans(x, p, where) if i == k else x) for i, x in enumerate(xs)]
        got = run_snippet(line, xs, [("%r", (8, 8), "f32")], elems=elems, mma=mma)[0]
        results.add(_bits(got))
    assert len(results) == 1


@pytest.mark.parametrize("op", ["addf", "maxf", "mulf"])
def test_reduce_over_two_or_more_is_blind_to_nan_bits(op):
    ident = {"addf": "0.000000e+00", "maxf": "0xFF800000", "mulf": "1.000000e+00"}[op]
    body = f"""%r = reduce %a0 dim=1 identities=[{ident} : f32] : tile<4x8xf32> -> tile<4xf32>
    (%x: tile<f32>, %y: tile<f32>) {{
      %s = {op} %x, %y : tile<f32>
      yield %s : tile<f32>
    }}"""
    _same_for_every_nan(lambda xs: run_snippet(body, xs, [("%r", (4,), "f32")])[0],
                        [_vals((4, 8), 14)], [0], F32_NANS)


def test_blind_list_is_covered_by_these_tests():
    """Every op named blind is exercised above (a new entry needs its test)."""
    tested = set(BINARY) | set(UNARY) | {"fma", "cmpf", "ftoi", "ftof", "mmaf", "fpowi"}
    assert {n.split(".", 1)[1] for n in BLIND} == tested


# -- the analysis ---------------------------------------------------------------------------------

def _entry(body: str, params: str = "%p: tile<ptr<f32>>, %q: tile<ptr<i32>>"):
    text = (f"cuda_tile.module @m {{\n  entry @k({params}) {{\n    {body}\n    return\n  }}\n}}\n")
    module = tileir.parse(text, "nan.mlir")
    entry = next(op for op in module.walk() if op.name == "cuda_tile.entry")
    return entry


LOAD = """%tv = make_tensor_view %p, shape = [16], strides = [1] : tensor_view<16xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %x, %t = load_view_tko weak %pv[%c0] : partition_view<tile=(16), tensor_view<16xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token"""
STORE = ("%t2 = store_view_tko weak {v}, %pv[%c0] : tile<16xf32>, partition_view<tile=(16), "
         "tensor_view<16xf32, strides=[1]>>, tile<i32> -> token")


_PLUMBING = ("cuda_tile.make_tensor_view", "cuda_tile.make_partition_view", "cuda_tile.constant",
             "cuda_tile.load_view_tko", "cuda_tile.store_view_tko")


def _unobserved(body: str) -> set[str]:
    """The SSA names defined in ``body`` (after LOAD; constants and stores aside) whose NaN
    bits the analysis finds unobserved."""
    entry = _entry(LOAD + "\n    " + body)
    free = unobserved_nan_values(entry)
    names = [line.split("=")[0].strip() for line in body.splitlines()
             if line.strip().startswith("%") and "=" in line
             and "= constant" not in line and "store_view_tko" not in line]
    ops = [op for op in entry.walk() if op.results and op.name not in _PLUMBING]
    assert len(names) == len(ops)
    return {name for name, op in zip(names, ops) if op.results[0] in free}


def test_arithmetic_feeding_arithmetic_is_unobserved_and_stored_values_are_observed():
    body = f"""%a = addf %x, %x : tile<16xf32>
    %b = mulf %a, %x : tile<16xf32>
    {STORE.format(v="%b")}"""
    assert _unobserved(body) == {"%a"}


def test_bits_through_select_negf_reshape_are_observed_where_the_carrier_is():
    body = f"""%a = subf %x, %x : tile<16xf32>
    %n = negf %a : tile<16xf32>
    {STORE.format(v="%n")}"""
    assert _unobserved(body) == set()
    body = """%a = subf %x, %x : tile<16xf32>
    %n = negf %a : tile<16xf32>
    %m = mulf %n, %x : tile<16xf32>
    %cz = constant <f32: 0.0> : tile<16xf32>
    %c = cmpf less_than ordered %m, %cz : tile<16xf32> -> tile<16xi1>
    %s = select %c, %m, %x : tile<16xi1>, tile<16xf32>
    %e = exp %s : tile<16xf32>
    """ + STORE.format(v="%e")
    assert _unobserved(body) == {"%a", "%n", "%m", "%s"}


def test_bitcast_observes_the_bits():
    body = """%a = addf %x, %x : tile<16xf32>
    %i = bitcast %a : tile<16xf32> -> tile<16xi32>"""
    assert "%a" not in _unobserved(body)


def test_loop_carried_accumulator_observed_through_the_loop_result():
    loop = """%c1 = constant <i32: 1> : tile<i32>
    %c4 = constant <i32: 4> : tile<i32>
    %acc = for %i in (%c0 to %c4, step %c1) : tile<i32> iter_values(%s = %x) -> (tile<16xf32>) {{
      %n = addf %s, %x : tile<16xf32>
      continue %n : tile<16xf32>
    }}
    {use}"""
    stored = loop.format(use=STORE.format(v="%acc"))
    reduced = loop.format(use="""%r = reduce %acc dim=0 identities=[0.000000e+00 : f32] : tile<16xf32> -> tile<f32>
    (%u: tile<f32>, %w: tile<f32>) {
      %v = addf %u, %w : tile<f32>
      yield %v : tile<f32>
    }""")
    assert not {"%n", "%acc"} & _unobserved(stored)
    assert {"%n", "%acc"} <= _unobserved(reduced)


def test_reduce_over_one_element_passes_the_bits_through():
    body = """%a = addf %x, %x : tile<16xf32>
    %a2 = reshape %a : tile<16xf32> -> tile<16x1xf32>
    %r = reduce %a2 dim=1 identities=[0.000000e+00 : f32] : tile<16x1xf32> -> tile<16xf32>
    (%u: tile<f32>, %w: tile<f32>) {
      %v = addf %u, %w : tile<f32>
      yield %v : tile<f32>
    }"""
    assert "%a" not in _unobserved(body)


# -- end to end: canonical NaN where observed, with the analysis on and off ----------------------

KERNEL = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %o: tile<ptr<f32>>) {
    %tv = make_tensor_view %p, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(64), tensor_view<64xf32, strides=[1]>>
    %ov = make_tensor_view %o, shape = [256], strides = [1] : tensor_view<256xf32, strides=[1]>
    %po = make_partition_view %ov : partition_view<tile=(64), tensor_view<256xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %x, %t = load_view_tko weak %pv[%c0] : partition_view<tile=(64), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
    %d = subf %x, %x : tile<64xf32>
    %n = negf %d : tile<64xf32>
    %m = mulf %d, %x : tile<64xf32>
    %q = divf %m, %x : tile<64xf32>
    %s = sqrt %d : tile<64xf32>
    %w = ftof %q : tile<64xf32> -> tile<64xf64>
    %h = ftof %w : tile<64xf64> -> tile<64xf32>
    %t0 = store_view_tko weak %n, %po[%c0] : tile<64xf32>, partition_view<tile=(64), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    %t1 = store_view_tko weak %q, %po[%c1] : tile<64xf32>, partition_view<tile=(64), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    %t2 = store_view_tko weak %s, %po[%c2] : tile<64xf32>, partition_view<tile=(64), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    %t3 = store_view_tko weak %h, %po[%c3] : tile<64xf32>, partition_view<tile=(64), tensor_view<256xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
"""


def _run_kernel(x: np.ndarray, grid=(1,)) -> np.ndarray:
    out = np.zeros(256, np.float32)
    tileir.compile(tileir.parse(KERNEL, "k.mlir"), "k").launch(grid, [x, out])
    return out.view(np.uint32).reshape(4, 64)


def test_nans_made_by_arithmetic_are_stored_canonical(monkeypatch):
    x = np.random.default_rng(15).standard_normal(64).astype(np.float32)
    x[::4] = np.inf                  # inf - inf: x86 gives the negative default NaN
    x[1::4] = -np.inf
    x.view(np.uint32)[2::8] = 0xFFC12345     # a loaded NaN with a payload
    got = _run_kernel(x)
    nan = np.isnan(x) | np.isinf(x)
    # negf of the canonical NaN: the canonical NaN with its sign flipped
    assert (got[0][nan] == 0xFFFFFFFF).all()
    for row in got[1:]:
        assert (row[nan] == 0x7FFFFFFF).all()
    assert (got[0][~nan] == 0x80000000).all()       # -(x - x) = -0
    # the same bits as with every result canonicalised (the analysis off)
    monkeypatch.setattr(nan_payload, "unobserved_nan_values", lambda entry: frozenset())
    from tileir.execute import plan
    monkeypatch.setattr(plan, "unobserved_nan_values", lambda entry: frozenset())
    np.testing.assert_array_equal(_run_kernel(x), got)


def test_only_values_feeding_blind_ops_are_unobserved_in_the_kernel():
    """In KERNEL ``%d`` is negated and stored (observed through ``negf``), ``%m`` feeds only
    ``divf``, ``%w`` only an ``ftof`` and the loaded ``%x`` only arithmetic: those three are
    unobserved."""
    module = tileir.parse(KERNEL, "k.mlir")
    entry = next(op for op in module.walk() if op.name == "cuda_tile.entry")
    free = unobserved_nan_values(entry)
    ops = {r: op.name for op in entry.walk() for r in op.results}
    assert sorted(ops[v] for v in free) == ["cuda_tile.ftof", "cuda_tile.load_view_tko",
                                            "cuda_tile.mulf"]


def test_bf16_results_through_f8_stay_canonical():
    x = np.array([np.inf, -np.inf, 1.0, np.nan] * 4, dtype=ml_dtypes.bfloat16)
    body = """%d = subf %a0, %a0 : tile<16xbf16>
    %e = ftof %d : tile<16xbf16> -> tile<16xf32>"""
    got = run_snippet(body, [x], [("%e", (16,), "f32")])[0]
    assert (got.view(np.uint32)[[0, 1, 3]] == 0x7FFFFFFF).all()
