"""mmaf on zero-padded loads (execute/semantics/padded_mma.py): the executor multiplies only the
loaded parts, and every result bit (the padded rows and columns included) must equal the padded
product that runs when the fusion is switched off."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.execute import plan
from tileir.execute.errors import LaunchError
from tileir.execute.semantics import padded_mma

ELEM = {"f64": np.float64, "f32": np.float32, "f16": np.float16}


def kernel_text(m: int, n: int, k: int, el: str, acc_el: str, acc: str = "zero",
                tile=(64, 16, 64)) -> str:
    """One tile block per group g: D[g] = A[g] @ B[g] + acc as full padded tiles (the padded
    rows and columns of the result are stored too, into D of the tile's shape).  A, B are
    (G, m, k) and (G, k, n) row-major, loaded as zero-padded tiles; ``acc`` is a constant
    ('zero', 'negzero') or 'loaded' from C (G, tm, tn)."""
    tm, tn, tk = tile
    tv = "tensor_view<?x{r}x{c}x{e}, strides=[{s},{c},1]>"
    a_tv = tv.format(r=m, c=k, e=el, s=m * k)
    b_tv = tv.format(r=k, c=n, e=el, s=k * n)
    d_tv = tv.format(r=tm, c=tn, e=acc_el, s=tm * tn)
    a_pv = f"partition_view<tile=(1x{tm}x{tk}), padding_value = zero, {a_tv}>"
    b_pv = f"partition_view<tile=(1x{tk}x{tn}), padding_value = zero, {b_tv}>"
    d_pv = f"partition_view<tile=(1x{tm}x{tn}), {d_tv}>"
    if acc == "loaded":
        acc_ops = (f"%cv, %t3 = load_view_tko weak %pd[%bx, %c0, %c0] : {d_pv}, tile<i32> -> "
                   f"tile<1x{tm}x{tn}x{acc_el}>, token\n"
                   f"    %acc = reshape %cv : tile<1x{tm}x{tn}x{acc_el}> -> "
                   f"tile<{tm}x{tn}x{acc_el}>")
    else:
        value = "-0.000000e+00" if acc == "negzero" else "0.000000e+00"
        acc_ops = f"%acc = constant <{acc_el}: {value}> : tile<{tm}x{tn}x{acc_el}>"
    return f"""
cuda_tile.module @m {{
  entry @k(%a: tile<ptr<{el}>>, %b: tile<ptr<{el}>>, %d: tile<ptr<{acc_el}>>, %g: tile<i32>) {{
    %ta = make_tensor_view %a, shape = [%g, {m}, {k}], strides = [{m * k}, {k}, 1] : tile<i32> -> {a_tv}
    %tb = make_tensor_view %b, shape = [%g, {k}, {n}], strides = [{k * n}, {n}, 1] : tile<i32> -> {b_tv}
    %td = make_tensor_view %d, shape = [%g, {tm}, {tn}], strides = [{tm * tn}, {tn}, 1] : tile<i32> -> {d_tv}
    %pa = make_partition_view %ta : {a_pv}
    %pb = make_partition_view %tb : {b_pv}
    %pd = make_partition_view %td : {d_pv}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    {acc_ops}
    %x, %t0 = load_view_tko weak %pa[%bx, %c0, %c0] : {a_pv}, tile<i32> -> tile<1x{tm}x{tk}x{el}>, token
    %xa = reshape %x : tile<1x{tm}x{tk}x{el}> -> tile<{tm}x{tk}x{el}>
    %y, %t1 = load_view_tko weak %pb[%bx, %c0, %c0] : {b_pv}, tile<i32> -> tile<1x{tk}x{tn}x{el}>, token
    %yb = reshape %y : tile<1x{tk}x{tn}x{el}> -> tile<{tk}x{tn}x{el}>
    %r = mmaf %xa, %yb, %acc : tile<{tm}x{tk}x{el}>, tile<{tk}x{tn}x{el}>, tile<{tm}x{tn}x{acc_el}>
    %r3 = reshape %r : tile<{tm}x{tn}x{acc_el}> -> tile<1x{tm}x{tn}x{acc_el}>
    %t2 = store_view_tko weak %r3, %pd[%bx, %c0, %c0] : tile<1x{tm}x{tn}x{acc_el}>, {d_pv}, tile<i32> -> token
    return
  }}
}}
"""


def run(text: str, a, b, d, mma: str = "exact", fused: bool = True, monkeypatch=None):
    """D after the launch (a fresh kernel, so the fusion switch applies at compile time)."""
    d = d.copy()
    if not fused:
        monkeypatch.setattr(plan, "ABSORBERS", [])
    try:
        k = tileir.compile(tileir.parse(text), "k")
        k.launch((a.shape[0],), [a, b, d, a.shape[0]], mma=mma)
    finally:
        if not fused:
            monkeypatch.undo()
    return d


@pytest.fixture
def count_fused(monkeypatch):
    """How many mmaf steps the fused path completed (padded_product not giving up)."""
    calls = {"done": 0}
    original = padded_mma.padded_product

    def counting(*args):
        res = original(*args)
        calls["done"] += res is not None
        return res
    monkeypatch.setattr(padded_mma, "padded_product", counting)
    return calls


def _data(g, m, n, k, el, acc_el, tile=(64, 16, 64), seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((g, m, k)).astype(ELEM[el])
    b = rng.standard_normal((g, k, n)).astype(ELEM[el])
    d = rng.standard_normal((g, tile[0], tile[1])).astype(ELEM[acc_el])
    return a, b, d


@pytest.mark.parametrize("mma", ["exact", "fast"])
@pytest.mark.parametrize("el,acc_el", [("f64", "f64"), ("f32", "f32"), ("f16", "f32")])
@pytest.mark.parametrize("acc", ["zero", "loaded"])
def test_padded_gemm_same_bits_as_padded_product(mma, el, acc_el, acc, monkeypatch, count_fused):
    m, n, k = 56, 9, 56
    text = kernel_text(m, n, k, el, acc_el, acc)
    a, b, d = _data(37, m, n, k, el, acc_el)
    got = run(text, a, b, d, mma)
    assert count_fused["done"] >= 1
    want = run(text, a, b, d, mma, fused=False, monkeypatch=monkeypatch)
    if mma == "exact" and el != "f64":
        assert got.tobytes() == want.tobytes()
    elif el == "f64":       # f64: DGEMM in both modes, whose grouping of the K sums may
        # differ between a K of 56 and the padded 64 (it does with OpenBLAS's AVX-512 kernels)
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)
    else:       # f32 BLAS may group a K of 56 and one of 64 differently
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # and against NumPy: the in-bounds part is A @ B + acc, the padded part is acc
    acc0 = d if acc == "loaded" else np.zeros_like(d)
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    tol = 1e-12 if el == "f64" else 1e-4
    np.testing.assert_allclose(got[:, :m, :n], ref + acc0[:, :m, :n], rtol=tol, atol=tol)
    assert got[:, m:, :].tobytes() == acc0[:, m:, :].tobytes()
    assert got[:, :m, n:].tobytes() == acc0[:, :m, n:].tobytes()


SPECIAL_CASES = {
    # row 2 of group 1 meets the padded columns: inf * 0 is NaN there (general path)
    "inf": (lambda a, b, d: a.__setitem__((1, 2, 3), np.inf), False),
    "nan": (lambda a, b, d: b.__setitem__((2, 4, 1), np.nan), False),
    # -0 in acc's padded rows: the sign depends on the other factor (general path)
    "acc-negzero": (lambda a, b, d: d.__setitem__((3, 6, 0), -0.0), False),
    # NaN in acc's padding: canonical in the result (shortcut)
    "acc-nan": (lambda a, b, d: d.__setitem__((5, 7, 3), np.float32(np.nan)), True),
    # every product -0 and acc -0: the padded K's +0 terms make the sum +0 (shortcut)
    "negzero-sum": (lambda a, b, d: (a.__setitem__(4, -np.abs(a[4])), b.__setitem__(4, 0.0),
                                     d.__setitem__((4, slice(0, 5), slice(0, 3)), -0.0)), True),
}


@pytest.mark.parametrize("case", sorted(SPECIAL_CASES))
def test_special_values_same_bits_as_padded_product(case, monkeypatch, count_fused):
    m, n, k = 5, 3, 6
    tile = (8, 4, 8)
    text = kernel_text(m, n, k, "f32", "f32", "loaded", tile)
    a, b, d = _data(6, m, n, k, "f32", "f32", tile, seed=3)
    poke, shortcut = SPECIAL_CASES[case]
    poke(a, b, d)
    got = run(text, a, b, d)
    assert (count_fused["done"] >= 1) == shortcut
    want = run(text, a, b, d, fused=False, monkeypatch=monkeypatch)
    assert got.tobytes() == want.tobytes()
    if case == "inf":
        assert np.isinf(got[1, 2, :n]).all() and np.isnan(got[1, 2, n:]).all()
    if case == "acc-nan":
        assert got[5, 7, 3].view(np.uint32) == 0x7FFFFFFF
    if case == "negzero-sum":
        assert not np.signbit(got[4, :m, :n]).any()


def test_unpadded_k_negative_zero_sums(monkeypatch):
    """K without padding: all products -0 and acc -0 give what the padded product gives (BLAS
    starts its sums at +0, so both are +0)."""
    m, n, k = 5, 3, 8
    tile = (8, 4, 8)
    text = kernel_text(m, n, k, "f32", "f32", "negzero", tile)
    a = -np.ones((2, m, k), np.float32)
    b = np.zeros((2, k, n), np.float32)
    d = np.ones((2, 8, 4), np.float32)
    got = run(text, a, b, d)
    want = run(text, a, b, d, fused=False, monkeypatch=monkeypatch)
    assert got.tobytes() == want.tobytes()


def test_unequal_k_extents_and_full_tiles(monkeypatch, count_fused):
    """Operands whose K extents differ go the general way; unpadded tiles fuse (no padding)."""
    text = kernel_text(8, 4, 8, "f64", "f64", "zero", (8, 4, 8))
    a, b, d = _data(5, 8, 4, 8, "f64", "f64", (8, 4, 8))
    got = run(text, a, b, d)
    assert count_fused["done"] >= 1
    assert got.tobytes() == run(text, a, b, d, fused=False, monkeypatch=monkeypatch).tobytes()
    np.testing.assert_allclose(got, a @ b, rtol=1e-13)


def test_out_of_bounds_load_reports_as_unfused(monkeypatch):
    """A buffer too small for the view: the fused mmaf reports the load's own error."""
    m, n, k = 5, 3, 6
    tile = (8, 4, 8)
    text = kernel_text(m, n, k, "f32", "f32", "zero", tile)
    a, b, d = _data(4, m, n, k, "f32", "f32", tile)
    short = a.reshape(-1)[:-7]
    k1 = tileir.compile(tileir.parse(text), "k")
    with pytest.raises(LaunchError) as fused:
        k1.launch((4,), [short, b, d.copy(), 4])
    monkeypatch.setattr(plan, "ABSORBERS", [])
    k2 = tileir.compile(tileir.parse(text), "k")
    with pytest.raises(LaunchError) as plain:
        k2.launch((4,), [short, b, d.copy(), 4])
    assert str(fused.value) == str(plain.value)
    assert "load_view_tko" in str(fused.value)


def test_tiled_edges_with_different_extents_fall_back():
    """The example matmul on 100x100: edge blocks have smaller tiles than interior ones."""
    rng = np.random.default_rng(1)
    n = 100
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    from pathlib import Path
    src = Path(__file__).resolve().parents[2] / "examples" / "matmul.mlir"
    k = tileir.compile(tileir.load(src), "matmul_f32")
    k.launch((2, 2), [a, b, c, n, n, n])
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-4)


def test_chains_need_quiet_ops_between_load_and_mmaf():
    """A store between an operand's load and the mmaf keeps the load where it stands."""
    text = kernel_text(8, 4, 8, "f32", "f32", "zero", (8, 4, 8))
    mod = tileir.parse(text)
    entry = next(op for op in mod.walk() if op.name == "cuda_tile.entry")
    mmaf = next(op for op in entry.walk() if op.name == "cuda_tile.mmaf")
    assert padded_mma.mmaf_chains(mmaf) is not None
    store_text = text.replace(
        "    %r = mmaf",
        "    %t9 = store_view_tko weak %acc3, %pd[%bx, %c0, %c0] : tile<1x8x4xf32>, "
        "partition_view<tile=(1x8x4), tensor_view<?x8x4xf32, strides=[32,4,1]>>, tile<i32> "
        "-> token\n    %r = mmaf").replace(
        "    %x, %t0", "    %acc3 = reshape %acc : tile<8x4xf32> -> tile<1x8x4xf32>\n    %x, %t0")
    mod2 = tileir.parse(store_text)
    mmaf2 = next(op for op in mod2.walk() if op.name == "cuda_tile.mmaf")
    assert padded_mma.mmaf_chains(mmaf2) is None


# -- fast mode: a K loop of mmaf as one product ----------------------------------------------

def _example_matmul(name="matmul_f32"):
    from pathlib import Path
    src = Path(__file__).resolve().parents[2] / "examples" / "matmul.mlir"
    return tileir.compile(tileir.load(src), name)


@pytest.mark.parametrize("name,dtype", [("matmul_f32", np.float32), ("matmul_f16", np.float16)])
@pytest.mark.parametrize("n", [256, 100])
def test_fast_k_loop_within_bound_of_exact(name, dtype, n, monkeypatch):
    """The example matmul's K loop in fast mode: within (K + 1) 2**-24 sum|a b| of exact."""
    calls = []
    original = padded_mma._operands_product
    monkeypatch.setattr(padded_mma, "_operands_product",
                        lambda *a: calls.append(a[4]) or original(*a))
    rng = np.random.default_rng(5)
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    k = _example_matmul(name)
    grid = (-(-n // 64), -(-n // 64))
    c_exact, c_fast = np.zeros((n, n), np.float32), np.zeros((n, n), np.float32)
    k.launch(grid, [a, b, c_exact, n, n, n], mma="exact")
    assert set(calls) <= {32}             # exact mode: one product per iteration (K tile 32)
    calls.clear()
    k.launch(grid, [a, b, c_fast, n, n, n], mma="fast")
    if n % 64 == 0:
        assert calls == [n] * len(calls) and calls       # the whole K range at once
    else:       # edge blocks cut their tiles elsewhere than the others: run as written
        assert set(calls) <= {32}
    mag = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    bound = (n + 1) * 2.0 ** -24 * mag + 2.0 ** -24 * np.abs(c_exact)
    assert np.all(np.abs(c_fast.astype(np.float64) - c_exact) <= bound)


def test_default_mma_mode_is_fast(monkeypatch):
    """A launch that names no mode runs fast mode (the K loop as one product), and the
    command line's --mma defaults to the same."""
    from tileir.cli import run as cli_run
    from tileir.execute.launch import DEFAULT_MMA
    calls = []
    original = padded_mma._operands_product
    monkeypatch.setattr(padded_mma, "_operands_product",
                        lambda *a: calls.append(a[4]) or original(*a))
    rng = np.random.default_rng(9)
    n = 128
    a, b = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    k = _example_matmul()
    c_default, c_fast = np.zeros((n, n), np.float32), np.zeros((n, n), np.float32)
    k.launch((2, 2), [a, b, c_default, n, n, n])
    assert calls == [n] * len(calls) and calls
    k.launch((2, 2), [a, b, c_fast, n, n, n], mma="fast")
    assert DEFAULT_MMA == "fast" and c_default.tobytes() == c_fast.tobytes()
    seen = []
    monkeypatch.setattr(cli_run, "_run", lambda opts, prog: seen.append(opts.mma) or 0)
    assert cli_run.run_kernel(["some.mlir"]) == 0 and seen == ["fast"]


def test_pair_groups_split_lanes_by_connected_tile_pairs():
    # two batches of 2x2 (row block, column block) pairs, and one lane of a third
    ia = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4])
    ib = np.array([0, 1, 0, 1, 2, 3, 2, 3, 4])
    groups = sorted(g.tolist() for g in padded_mma._pair_groups(ia, ib))
    assert groups == [[0, 1, 2, 3], [4, 5, 6, 7], [8]]
    # a chain 0-0, 0-1, 1-1 is one part
    assert len(padded_mma._pair_groups(np.array([0, 0, 1]), np.array([0, 1, 1]))) == 1
    # too many parts: one group
    many = np.arange(100)
    assert len(padded_mma._pair_groups(many, many, most=64)) == 1


def test_k_loop_chains_only_for_a_pure_accumulation():
    text = (Path_examples() / "matmul.mlir").read_text()
    mod = tileir.parse(text)
    loops = [op for op in mod.walk() if op.name == "cuda_tile.for"]

    class CC:
        const: list = []

        def slot(self, v):
            return 0
    assert all(padded_mma.k_loop_chains(op, CC()) is not None for op in loops)
    # a store in the body: the loop runs as written
    bad = text.replace(
        "      continue %next : tile<64x64xf32>",
        "      %t9 = store_view_tko weak %next, %pc[%bm, %bn] : tile<64x64xf32>, "
        "partition_view<tile=(64x64), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token\n"
        "      continue %next : tile<64x64xf32>", 1)
    mod2 = tileir.parse(bad)
    loops2 = [op for op in mod2.walk() if op.name == "cuda_tile.for"]
    assert padded_mma.k_loop_chains(loops2[0], CC()) is None


def Path_examples():
    from pathlib import Path
    return Path(__file__).resolve().parents[2] / "examples"


def test_blocks_of_a_group_are_views_when_consecutive():
    parts = np.arange(6 * 2 * 3, dtype=np.float32).reshape(6, 2, 3)
    whole = padded_mma._blocks(parts, np.arange(6))
    run = padded_mma._blocks(parts, np.array([2, 3, 4]))
    gaps = padded_mma._blocks(parts, np.array([0, 2, 5]))
    assert whole is parts
    assert np.shares_memory(run, parts) and np.array_equal(run, parts[[2, 3, 4]])
    assert not np.shares_memory(gaps, parts) and np.array_equal(gaps, parts[[0, 2, 5]])


def test_lane_grid_orders_of_tile_pairs():
    lane = np.arange(6)
    grid = padded_mma._lane_grid
    assert grid(lane // 3, lane % 3, 2, 3) == (0, 2, 1, 3)          # row-major lanes
    assert grid(lane % 2, lane // 2, 2, 3) == (2, 0, 1, 3)          # column-major lanes
    assert grid(np.array([0, 0, 1, 1, 1, 0]), lane % 3, 2, 3) is None
    assert grid(lane[:4] // 2, lane[:4] % 2, 2, 3) is None          # not every pair
    # read in place, the products land where the gather would put them
    rng = np.random.default_rng(1)
    q4 = rng.standard_normal((2, 4, 3, 5))
    for la, lb in ((lane // 3, lane % 3), (lane % 2, lane // 2)):
        order = grid(la, lb, 2, 3)
        np.testing.assert_array_equal(q4.transpose(order).reshape(6, 4, 5), q4[la, :, lb, :])


@pytest.mark.parametrize("tile", [64, 128])
def test_fast_cutile_matmul_reads_the_product_in_place(tile, monkeypatch):
    """cuTile's swizzled matmul grid pairs blocks column-major: the fused K loop's product is
    added to the accumulator in place, with the same bits as the gathered product."""
    cutile = pytest.importorskip("tileir.cutile")
    pytest.importorskip("cuda.tile")
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cutile"))
    import cpu_kernels as K
    n = 256
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal((n, n)).astype(np.float16) for _ in range(2))
    results = []
    for in_place in (True, False):
        if not in_place:
            monkeypatch.setattr(padded_mma, "_lane_grid", lambda *args: None)
        c = np.zeros((n, n), np.float32)
        cutile.launch(K.matmul_kernel, ((n // tile) ** 2,), (a, b, c, tile, tile, 32),
                      mma="fast")
        results.append(c)
    np.testing.assert_array_equal(results[0].view(np.uint32), results[1].view(np.uint32))
    np.testing.assert_allclose(results[0], a.astype(np.float32) @ b.astype(np.float32),
                               rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("size", [0, 1, 7, 16, 256, 257, 3000])
@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.float64])
def test_unique_inverse_matches_numpy(size: int, dtype) -> None:
    """The small-array shortcut gives NumPy's distinct values (sorted, same dtype) and a 1-D
    inverse that rebuilds the input, for every size around its threshold."""
    rng = np.random.default_rng(size)
    a = rng.integers(0, max(1, size // 3 + 1), size).astype(dtype)
    if dtype == np.int64 and size:
        a[::3] = -a[::3] - (1 << 40)     # negative and wide values
    distinct, inverse = padded_mma.unique_inverse(a.reshape(-1, 1) if size else a)
    want, _ = np.unique(a, return_inverse=True)
    assert distinct.dtype == a.dtype and np.array_equal(distinct, want)
    assert inverse.shape == (size,) and np.array_equal(distinct[inverse], a)
