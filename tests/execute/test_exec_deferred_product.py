"""A fast-mode K loop of ``mmaf`` whose only use is a store computes its product straight into
the stored tiles (``DeferredProduct``, execute/semantics/padded_mma.py): the same bits as the
product computed as a tile and then stored, for every accumulator kind (a zero constant, another
constant, a loaded tile), special values (NaN payloads, signed zeros, infinities), a padded K,
lanes in either grid order and destinations that are views into larger arrays; layouts BLAS
cannot write (column-major destinations) take the ordinary path."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.execute.semantics import padded_mma
from tileir.execute.values import DeferredProduct

TM, TN, TK = 64, 64, 32


@pytest.fixture
def rng():
    return np.random.default_rng(7)


def _kernel_text(init: str, c_strides: str = "[%n, 1]", swap_grid: bool = False,
                 tf32: bool = False) -> str:
    """C = init + A @ B (f32) with 64x64 output tiles over a K loop of 32-wide slices; ``init``
    is ``zero`` / ``half`` (constants 0 / -0.5, the zero written ``-0`` with ``negzero``) or
    ``load`` (the C tile read before the loop)."""
    view_c = f"tensor_view<?x?xf32, strides={c_strides.replace('%n', '?').replace('%m', '?')}>"
    pc = f"partition_view<tile=({TM}x{TN}), {view_c}>"
    pa = f"partition_view<tile=({TM}x{TK}), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>"
    pb = f"partition_view<tile=({TK}x{TN}), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>"
    acc_ty = f"tile<{TM}x{TN}xf32>"
    inits = {
        "zero": f"%init = constant <f32: 0.000000e+00> : {acc_ty}",
        "negzero": f"%init = constant <f32: -0.000000e+00> : {acc_ty}",
        "half": f"%init = constant <f32: -5.000000e-01> : {acc_ty}",
        "load": f"%init, %t9 = load_view_tko weak %pc[%bm, %bn] : {pc}, tile<i32> -> {acc_ty}, token",
    }
    ids = "%bn, %bm, %bz" if swap_grid else "%bm, %bn, %bz"
    if tf32:        # (as cuTile emits an f32 matmul: both operands rounded to tf32)
        mma = (f"%x2 = ftof %x : tile<{TM}x{TK}xf32> -> tile<{TM}x{TK}xtf32>\n      "
               f"%y2 = ftof %y : tile<{TK}x{TN}xf32> -> tile<{TK}x{TN}xtf32>\n      "
               f"%next = mmaf %x2, %y2, %sum : tile<{TM}x{TK}xtf32>, tile<{TK}x{TN}xtf32>, "
               f"{acc_ty}")
    else:
        mma = (f"%next = mmaf %x, %y, %sum : tile<{TM}x{TK}xf32>, tile<{TK}x{TN}xf32>, "
               f"{acc_ty}")
    return f"""
cuda_tile.module @m {{
  entry @k(%a: tile<ptr<f32>>, %b: tile<ptr<f32>>, %c: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %k: tile<i32>) {{
    %ta = make_tensor_view %a, shape = [%m, %k], strides = [%k, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tb = make_tensor_view %b, shape = [%k, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tc = make_tensor_view %c, shape = [%m, %n], strides = {c_strides} : tile<i32> -> {view_c}
    %pa = make_partition_view %ta : {pa}
    %pb = make_partition_view %tb : {pb}
    %pc = make_partition_view %tc : {pc}
    {ids} = get_tile_block_id : tile<i32>
    %tiles_m, %tiles_k = get_index_space_shape %pa : {pa} -> tile<i32>
    {inits[init]}
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %acc = for %kk in (%c0 to %tiles_k, step %c1) : tile<i32> iter_values(%sum = %init) -> ({acc_ty}) {{
      %x, %t0 = load_view_tko weak %pa[%bm, %kk] : {pa}, tile<i32> -> tile<{TM}x{TK}xf32>, token
      %y, %t1 = load_view_tko weak %pb[%kk, %bn] : {pb}, tile<i32> -> tile<{TK}x{TN}xf32>, token
      {mma}
      continue %next : {acc_ty}
    }}
    %t2 = store_view_tko weak %acc, %pc[%bm, %bn] : {acc_ty}, {pc}, tile<i32> -> token
    return
  }}
}}"""


def _kernel(text: str, deferred: bool, monkeypatch) -> tileir.Kernel:
    with monkeypatch.context() as m:
        if not deferred:
            m.setattr(padded_mma, "stored_after_quiet_ops", lambda op: False)
        return tileir.compile(tileir.parse(text), "k")


@pytest.fixture
def into_calls(monkeypatch):
    """The outcomes of every ``DeferredProduct.into`` (True: written into memory)."""
    calls: list = []
    original = DeferredProduct.__init__

    def init(self, value, into):
        def spy(dest):
            got = into(dest)
            calls.append(got)
            return got
        original(self, value, spy)
    monkeypatch.setattr(DeferredProduct, "__init__", init)
    return calls


def _run_both(text, a, b, c0, m, n, k, grid, monkeypatch, c_view=None):
    """C after the launch with the product computed into the store and computed as a tile."""
    results = []
    for deferred in (True, False):
        kern = _kernel(text, deferred, monkeypatch)
        c = c0.copy()
        target = c if c_view is None else c_view(c)
        kern.launch(grid, [a, b, target, m, n, k], mma="fast")
        results.append(c)
    return results


def _operands(rng, m, n, k):
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    return a, b


@pytest.mark.parametrize("init", ["zero", "negzero", "half", "load"])
@pytest.mark.parametrize("swap_grid", [False, True], ids=["x-rows", "x-cols"])
def test_into_store_same_bits_as_tile_then_store(init, swap_grid, rng, monkeypatch, into_calls):
    m, n, k = 256, 192, 96
    a, b = _operands(rng, m, n, k)
    c0 = rng.standard_normal((m, n)).astype(np.float32)
    grid = (n // TN, m // TM, 1) if swap_grid else (m // TM, n // TN, 1)
    got, want = _run_both(_kernel_text(init, swap_grid=swap_grid), a, b, c0, m, n, k, grid,
                          monkeypatch)
    assert got.tobytes() == want.tobytes()
    assert into_calls == [True]
    acc = c0 if init == "load" else np.float32({"zero": 0, "negzero": -0.0, "half": -0.5}[init])
    np.testing.assert_allclose(got, acc + a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_special_values_and_padded_k(rng, monkeypatch, into_calls):
    """NaN payloads become the canonical NaN; -0 sums plus a +0 accumulator give +0 (also
    over the zero-padded K of the last slice: K = 80 is not a multiple of 32); infinities."""
    m, n, k = 128, 128, 80
    a, b = _operands(rng, m, n, k)
    a[0] = -0.0                                   # row 0: every term -0 * x
    b[:, :] = np.abs(b)
    a[1, 3] = np.array(0x7FA00001, np.uint32).view(np.float32)      # a signalling NaN payload
    a[2, 5] = np.inf
    got, want = _run_both(_kernel_text("zero"), a, b, np.zeros((m, n), np.float32), m, n, k,
                          (m // TM, n // TN, 1), monkeypatch)
    assert got.tobytes() == want.tobytes()
    assert into_calls == [True]
    bits = got.view(np.uint32)
    assert (bits[0] == 0).all()                   # +0, not -0
    assert (bits[1] == 0x7FFFFFFF).all()          # canonical NaN
    assert np.isposinf(got[2]).all()


def test_negative_zero_accumulator_and_negative_zero_terms(monkeypatch, into_calls):
    """Every term -0 and a -0 accumulator: IEEE sums give -0; fast mode's BLAS starts its
    sums at +0 and gives +0 (numerically equal, inside the fast mode's bound; README)."""
    m = n = 128
    k = 64
    a = np.full((m, k), -0.0, np.float32)
    b = np.ones((k, n), np.float32)
    got, want = _run_both(_kernel_text("negzero"), a, b, np.zeros((m, n), np.float32), m, n, k,
                          (2, 2, 1), monkeypatch)
    assert got.tobytes() == want.tobytes()
    assert (got == 0).all()
    assert into_calls == [True]


def test_destination_inside_a_larger_array(rng, monkeypatch, into_calls):
    """C is a column slice of a wider array: the product lands in the slice, the columns
    around it keep their values."""
    m, n, k = 128, 128, 64
    a, b = _operands(rng, m, n, k)
    wide = rng.standard_normal((m, n + 40)).astype(np.float32)
    got, want = _run_both(_kernel_text("zero"), a, b, wide, m, n, k, (2, 2, 1), monkeypatch,
                          c_view=lambda w: w[:, 16:16 + n])
    assert got.tobytes() == want.tobytes()
    assert into_calls == [True]
    np.testing.assert_array_equal(got[:, :16], wide[:, :16])
    np.testing.assert_array_equal(got[:, 16 + n:], wide[:, 16 + n:])


def test_column_major_destination_takes_the_tile_path(rng, monkeypatch, into_calls):
    m, n, k = 128, 192, 64
    a, b = _operands(rng, m, n, k)
    c0 = np.zeros((n, m), np.float32)             # C stored transposed: C[i, j] at c0[j, i]
    got, want = _run_both(_kernel_text("zero", c_strides="[1, %m]"), a, b, c0, m, n, k,
                          (m // TM, n // TN, 1), monkeypatch)
    assert got.tobytes() == want.tobytes()
    assert into_calls == [False]                  # (tried, declined: no unit column stride)
    np.testing.assert_allclose(got.T, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_edge_tiles_are_not_deferred(rng, monkeypatch, into_calls):
    """Output tiles cut by C's edge (200 = 3 * 64 + 8): the loop's tiles differ in extent, so
    the product runs per lane as written and nothing is deferred."""
    m, n, k = 200, 128, 64
    a, b = _operands(rng, m, n, k)
    got, want = _run_both(_kernel_text("zero"), a, b, np.zeros((m, n), np.float32), m, n, k,
                          (4, 2, 1), monkeypatch)
    assert got.tobytes() == want.tobytes()
    assert into_calls == []
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_stored_after_quiet_ops_needs_the_store_as_only_use():
    text = _kernel_text("zero").replace(
        "    return\n", "    %u = addf %acc, %acc : tile<64x64xf32>\n    return\n")
    loop = next(op for op in tileir.parse(text).walk() if op.name == "cuda_tile.for")
    assert not padded_mma.stored_after_quiet_ops(loop)
    loop = next(op for op in tileir.parse(_kernel_text("zero")).walk()
                if op.name == "cuda_tile.for")
    assert padded_mma.stored_after_quiet_ops(loop)


def _tf32(x: np.ndarray) -> np.ndarray:
    u = x.view(np.uint32)
    return ((u + np.uint32(0xFFF) + ((u >> np.uint32(13)) & np.uint32(1))) &
            np.uint32(0xFFFFE000)).view(np.float32)


@pytest.mark.parametrize("case", ["plain", "zeros", "nan", "huge", "tiny", "padded_k",
                                  "half_acc"])
def test_tf32_products_skip_the_accumulator_pass_only_when_nothing_changes(case, rng,
                                                                           monkeypatch):
    """tf32 operands are rounded and measured in one C pass; with a +0 accumulator and no
    zero, non-finite or overflowing term the accumulator add and NaN pass are skipped (they
    would change nothing).  Same bits as the tile path in every case, skipped or not."""
    m, n, k = 128, 128, 80 if case == "padded_k" else 96
    a, b = _operands(rng, m, n, k)
    if case == "zeros":
        a[0] = -0.0                               # -0 terms: sums that BLAS may leave -0
    elif case == "nan":
        a[3, 4] = np.nan
    elif case == "huge":
        a[0, 0], b[0, 0] = 3e38, 3e38             # a product past f32's range
    elif case == "tiny":
        a[0, 0], b[0, 0] = 1e-30, 1e-30           # a product below the smallest subnormal
    skipped = []
    original = padded_mma._add_lanes
    monkeypatch.setattr(padded_mma, "_add_lanes",
                        lambda *args: skipped.append(False) or original(*args))
    init = "half" if case == "half_acc" else "zero"
    got, want = _run_both(_kernel_text(init, tf32=True), a, b, np.zeros((m, n), np.float32),
                          m, n, k, (m // TM, n // TN, 1), monkeypatch)
    assert got.tobytes() == want.tobytes()
    from tileir.execute import cbuild
    if cbuild.compiler() is not None:
        # the deferred launch ran first: its pass skipped only in the clean cases
        clean = case in ("plain", "padded_k")
        assert (skipped[:1] == [False]) != clean
    finite = np.isfinite(got)
    ref = (-0.5 if init == "half" else 0) + _tf32(a).astype(np.float64) @ _tf32(b)
    np.testing.assert_allclose(got[finite], ref[finite], rtol=1e-4, atol=1e-4)



def test_no_special_sums_bounds():
    f = padded_mma._no_special_sums

    def mags(lo, hi):
        return np.array([lo, hi], np.float32)
    assert f(mags(2.0 ** -50, 1.0), mags(2.0 ** -50, 1.0), 512)
    assert not f(mags(2.0 ** -51, 1.0), mags(2.0 ** -50, 1.0), 512)     # products too small
    assert not f(mags(0.0, 1.0), mags(1.0, 1.0), 512)                    # a zero term
    assert not f(mags(1.0, 2.0 ** 60), mags(1.0, 2.0 ** 60), 512)        # sums may overflow
    assert not f(mags(1.0, np.inf), mags(1.0, 1.0), 4)
    assert not f(mags(1.0, np.nan), mags(1.0, 1.0), 4)
