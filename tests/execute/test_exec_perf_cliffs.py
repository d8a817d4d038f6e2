"""Fast paths added for performance cliffs of the tile engine (a common pattern running 10-100x
slower than NumPy through a general path) compute exactly what the general path computed:

* f32/f16/bf16 ``rsqrt`` as one f64 ``1/sqrt`` rounded once (was: a Newton step on an exact
  residual, needed for f64 results only);
* ``ftoi`` toward zero as one C cast when every value is in range;
* the f32 ``fma`` when many sums land on f32 midpoints (``x * 2 + 1``): exact midpoints are
  kept without redoing them one by one;
* unmasked (or all-true masked) gathers and scatters inside one buffer: no per-element index
  arrays beyond one pooled offset array, no mask pass;
* ``scan`` with a native f32/f64 add/mul body: two work arrays, NaN canonicalised once.

Each fast path is checked bit for bit against the general routine (edge values included), and
the cuTile kernels of ``tests/cutile/cpu_kernels3.py`` against NumPy and against a launch that
runs one tile block at a time (``batch=False``).  No timings here: see benchmarks/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tileir.execute import numerics as N
from tileir.execute.memory import Fault, Memory
from tileir.execute.numerics.transcendental import _rsqrt64
from tileir.execute.semantics import fast
from tileir.execute.semantics.core import _ufunc_scan

U = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and \
        bool((a.view(U[a.dtype.itemsize]) == b.view(U[b.dtype.itemsize])).all())


def random_bits(dt, n: int, seed: int) -> np.ndarray:
    dt = np.dtype(dt)
    u = U[dt.itemsize]
    return np.random.default_rng(seed).integers(0, np.iinfo(u).max, n, dtype=u,
                                                endpoint=True).view(dt)


# -- rsqrt -------------------------------------------------------------------------------------

def _rsqrt_reference(x: np.ndarray, elem: str, ftz: bool = False) -> np.ndarray:
    """The former rsqrt of f32/f16/bf16: _rsqrt64 (Newton-refined) rounded to f32, then to
    the narrow type, under the same flush-to-zero policy."""
    a = np.asarray(x)
    if ftz:
        a = N.rounding.flush_subnormals(a)
    r32 = N.rounding.round_to(_rsqrt64(N.dtypes.decode(a, elem)), None, "f32")
    if ftz:
        r32 = N.rounding.flush_subnormals(r32)
    return r32 if elem == "f32" else N.rounding.round_to(r32.astype(np.float64), None, elem)


def test_rsqrt_f32_equals_refined_rsqrt_on_every_16th_significand():
    """Every 16th f32 in [1, 4) (both exponent parities: the significands of every positive
    f32), plus random bit patterns and the special values.  (The full sweep of 2**24 values
    also matches; it takes seconds.)"""
    lo, hi = (np.array([1.0, 4.0], np.float32).view(np.uint32)).tolist()
    sweep = np.arange(lo, hi, 16, dtype=np.uint32).view(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1e-45, 3e-39, -3e-39,
                        3.4028235e38, 1.1754944e-38, 2.0, 0.25], np.float32)
    x = np.concatenate([sweep, random_bits(np.float32, 200000, 1), special])
    with np.errstate(all="ignore"):
        assert same_bits(N.rsqrt(x, "f32"), _rsqrt_reference(x, "f32"))
        assert same_bits(N.rsqrt(x, "f32", flush_to_zero=True),
                         _rsqrt_reference(x, "f32", ftz=True))


@pytest.mark.parametrize("elem,dt", [("f16", np.float16), ("bf16", ml_dtypes.bfloat16)])
def test_rsqrt_narrow_types_every_value(elem, dt):
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dt)
    with np.errstate(all="ignore"):
        assert same_bits(N.rsqrt(x, elem), _rsqrt_reference(x, elem))


def test_rsqrt_f64_keeps_the_refined_routine():
    x = np.concatenate([random_bits(np.float64, 50000, 2),
                        np.array([0.0, -0.0, np.inf, -1.0, np.nan, 5e-324, 2.0])])
    with np.errstate(all="ignore"):
        want = N.rounding.round_to(_rsqrt64(x), None, "f64")
        assert same_bits(N.rsqrt(x, "f64"), want)


# -- ftoi --------------------------------------------------------------------------------------

FTOI_CASES = [(src, dst, signed) for src in ("f16", "f32", "f64")
              for dst in ("i8", "i16", "i32", "i64") for signed in (True, False)
              if not (dst == "i64" and not signed)]
FLOAT = {"f16": np.float16, "f32": np.float32, "f64": np.float64}


def _in_range_samples(src: str, dst: str, signed: bool, seed: int) -> np.ndarray:
    """Values whose truncation the target holds, the range ends included."""
    n = int(dst[1:])
    lo, end = (-(2.0 ** (n - 1)), 2.0 ** (n - 1)) if signed else (0.0, 2.0 ** n)
    dt = np.dtype(FLOAT[src])
    top = np.nextafter(dt.type(min(end, float(np.finfo(dt).max))), dt.type(0))
    if float(top) >= end:
        top = np.nextafter(top, dt.type(0))
    bottom = dt.type(max(lo, -float(np.finfo(dt).max)))
    rng = np.random.default_rng(seed)
    vals = rng.uniform(float(bottom), float(top), 5000).astype(dt)
    small = (rng.standard_normal(5000) * 50).astype(dt)
    if not signed:
        small = np.abs(small)
    edges = np.array([bottom, top, 0.0, -0.0, 0.99, 1.0, 7.5], dt)
    if signed:
        edges = np.concatenate([edges, np.array([-0.99, -1.0, -7.5], dt)])
    return np.concatenate([vals, small, edges])


@pytest.mark.parametrize("src,dst,signed", FTOI_CASES)
def test_ftoi_fast_path_equals_numerics(src, dst, signed):
    def general(a):
        return N.ftoi(a, src, dst, signed)
    fn = fast.float_to_int(src, dst, signed, "nearest_int_to_zero", general)
    assert fn is not None
    dt = FLOAT[src]
    with np.errstate(all="ignore"):
        inside = _in_range_samples(src, dst, signed, seed=3)
        outside = np.concatenate([random_bits(dt, 20000, 4),
                                  np.array([np.nan, np.inf, -np.inf, -0.5, 1e30], np.float64)
                                  .astype(dt)])
        for x in (inside, outside, inside.reshape(-1, 1)[:0], inside[:1].reshape(())):
            assert same_bits(fn(x), general(x))
        # one bad element anywhere sends the whole array to the general path
        mixed = inside.copy()
        mixed[len(mixed) // 2] = np.nan
        assert same_bits(fn(mixed), general(mixed))


def test_ftoi_fast_path_only_for_truncation_from_native_floats():
    def general(a):
        return a
    assert fast.float_to_int("f32", "i32", True, "nearest_even", general) is None
    assert fast.float_to_int("bf16", "i32", True, "zero", general) is None
    assert fast.float_to_int("f32", "i64", False, "zero", general) is None
    assert fast.float_to_int("f32", "i32", True, "zero", general) is not None


# -- fma with dense midpoints ------------------------------------------------------------------

def test_fma_f32_dense_midpoints_equal_numerics():
    """``x * 2 + 1`` puts about one result in five on an f32 midpoint; one element per block
    of 64 is a midpoint that the f64 sum only reached by rounding (it must still be redone),
    and NaN/Inf/subnormal operands are mixed in."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(1 << 16).astype(np.float32)
    # a*b + c = (1 + 2**-23) + 2**-24 - 2**-54: f64 rounds it onto the midpoint 1 + 3 * 2**-24
    a_bad = np.float32(2.0 ** -24 * (1 + 2.0 ** -15))
    b_bad = np.float32(1 - 2.0 ** -15)
    c_bad = np.float32(1 + 2.0 ** -23)
    assert N.fma(np.array([a_bad]), np.array([b_bad]), np.array([c_bad]), "f32")[0] == c_bad
    a = x.copy()
    b = np.full_like(x, 2.0)
    c = np.full_like(x, 1.0)
    a[::64], b[::64], c[::64] = a_bad, b_bad, c_bad
    a[5::64], a[7::64], a[9::64] = np.nan, np.inf, np.float32(1e-40)
    c[11::64] = -np.inf
    with np.errstate(all="ignore"):
        want = N.fma(a, b, c, "f32")
        assert same_bits(fast.fma_f32()(a, b, c), want)
        # lanes x tile rows (chunked, scalar operands broadcast and widened) and whole rows
        for rows in (256, 1):
            shape = (rows, a.size // rows)
            two, one = np.full((1, 1), 2.0, np.float32), np.full((1, 1), 1.0, np.float32)
            got = fast.fma_f32()(x.reshape(shape), two, one)
            assert same_bits(got, N.fma(x.reshape(shape), np.broadcast_to(two, shape),
                                        np.broadcast_to(one, shape), "f32"))
            assert same_bits(fast.fma_f32()(a.reshape(shape), b.reshape(shape),
                                            c.reshape(shape)), want.reshape(shape))


# -- gather / scatter in one buffer ------------------------------------------------------------

def _memory():
    mem = Memory()
    src = np.arange(1000, dtype=np.float32) * 1.5
    other = np.arange(10, dtype=np.float32) - 100
    dst = np.zeros(1000, np.float32)
    ro = np.arange(8, dtype=np.int32)
    bufs = [mem.map(a.view(np.uint8), name, name != "ro")
            for a, name in ((src, "src"), (other, "other"), (dst, "dst"), (ro, "ro"))]
    return mem, bufs, src, other, dst


def _fault(fn):
    with pytest.raises(Fault) as info:
        fn()
    return info.value.kind, info.value.message, info.value.index


def test_gather_all_active_mask_equals_unmasked_and_partial_mask():
    mem, (bs, bo, bd, _), src, other, _ = _memory()
    idx = np.random.default_rng(6).integers(0, 1000, (8, 125)).astype(np.uint64)
    addrs = np.uint64(bs.base) + idx * np.uint64(4)
    want = src[idx.astype(np.intp)]
    for active in (None, np.ones(addrs.shape, bool), np.ones((1, 125), bool)):
        got = mem.gather(addrs, np.dtype(np.float32), active, fill=7.0)
        assert same_bits(got, want)
    part = np.ones(addrs.shape, bool)
    part[3, 4] = False
    got = mem.gather(addrs, np.dtype(np.float32), part, fill=7.0)
    assert got[3, 4] == 7.0 and same_bits(got[part], want[part])
    # two buffers in one access: the general path
    mixed = addrs.copy()
    mixed[0, 0] = np.uint64(bo.base + 8)
    got = mem.gather(mixed, np.dtype(np.float32), np.ones(addrs.shape, bool))
    assert got[0, 0] == other[2] and same_bits(got.reshape(-1)[1:], want.reshape(-1)[1:])
    # i1 elements: bytes canonicalised
    flags = mem.gather(np.uint64(bs.base) + np.arange(8, dtype=np.uint64),
                       np.dtype(np.bool_), np.ones(8, bool))
    assert flags.dtype == np.bool_ and same_bits(flags, src.view(np.uint8)[:8] != 0)


def test_gather_faults_are_reported_at_the_same_element():
    mem, (bs, _, _, _), _, _, _ = _memory()
    addrs = np.uint64(bs.base) + np.arange(64, dtype=np.uint64) * np.uint64(4)
    oob = addrs.copy()
    oob[17] = np.uint64(bs.base + 4000)            # one past the end
    mis = addrs.copy()
    mis[23] += np.uint64(2)                        # misaligned, inside the buffer
    for bad, kind, at in ((oob, "bounds", 17), (mis, "align", 23)):
        for active in (None, np.ones(64, bool)):
            k, msg, index = _fault(lambda: mem.gather(bad, np.dtype(np.float32), active))
            assert (k, index) == (kind, at)
        part = np.ones(64, bool)
        part[at] = False                           # masked off: no fault
        mem.gather(bad, np.dtype(np.float32), part)


def test_scatter_all_active_mask_equals_unmasked():
    mem, (bs, _, bd, bro), src, _, dst = _memory()
    rng = np.random.default_rng(7)
    idx = rng.integers(0, 1000, 3000).astype(np.uint64)        # duplicates: the last one wins
    vals = rng.standard_normal(3000).astype(np.float32)
    want = np.zeros(1000, np.float32)
    for i, v in zip(idx.tolist(), vals.tolist()):
        want[i] = v
    for active in (None, np.ones(3000, bool)):
        dst[...] = 0
        bd.written = False
        mem.scatter(np.uint64(bd.base) + idx * np.uint64(4), vals, np.dtype(np.float32), active)
        assert same_bits(dst, want) and bd.written
    # faults: read-only buffer, out of bounds, misaligned, at the same element index
    k, _, index = _fault(lambda: mem.scatter(np.full(4, bro.base, np.uint64), np.int32(1),
                                             np.dtype(np.int32), np.ones(4, bool)))
    assert k == "readonly" and index == 0
    bad = np.uint64(bd.base) + np.arange(16, dtype=np.uint64) * np.uint64(4)
    bad[9] = np.uint64(bd.base + 2002)
    for active in (None, np.ones(16, bool)):
        k, _, index = _fault(lambda: mem.scatter(bad, np.float32(0), np.dtype(np.float32),
                                                 active))
        assert (k, index) == ("align", 9)


# -- scan with a native ufunc body -------------------------------------------------------------

def _doubling_scan_reference(c: np.ndarray, uf) -> np.ndarray:
    """The former scan of a native f32/f64 body: a new array per level, NaN canonicalised at
    every level."""
    c = c.copy()
    n = c.shape[1]
    k = 1
    while k < n:
        new = np.empty_like(c)
        new[:, :k] = c[:, :k]
        new[:, k:] = fast.canon_nan(uf(c[:, k:], c[:, :n - k]))
        c, k = new, k * 2
    return c


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("uf", [np.add, np.multiply, np.subtract, np.divide])
@pytest.mark.parametrize("n", [2, 3, 64, 100])
def test_ufunc_scan_equals_per_level_scan(dt, uf, n):
    rng = np.random.default_rng(8)
    x = (rng.standard_normal((7, n)) * 3).astype(dt)
    x[1, n // 2] = np.nan
    x[2, 0] = np.inf
    x[2, n - 1] = -np.inf
    x[3, :] = random_bits(dt, n, 9)          # NaN payloads, infinities, subnormals
    with np.errstate(all="ignore"):
        want = _doubling_scan_reference(x, uf)
        assert same_bits(_ufunc_scan(x.copy(), uf), want)


# -- the cuTile kernels ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kernels():
    pytest.importorskip("cuda.tile")
    pytest.importorskip("cuda.tile.compilation")
    sys.path.insert(0, str(Path(__file__).parents[1] / "cutile"))
    import cpu_kernels3
    return cpu_kernels3


def _launch_both(kernel, grid, make_args, out_index):
    """Launch batched and one block at a time on fresh argument copies; the outputs (their
    positions in the argument list: ``out_index``) must be the same bits.  Returns the batched
    outputs and LaunchInfo."""
    import tileir.cutile as tc
    outs = []
    info = None
    for batch in (True, False):
        args = make_args()
        i = tc.launch(kernel, grid, args, batch=batch)
        if batch:
            info = i
        outs.append([args[k] for k in out_index])
    for a, b in zip(*outs):
        assert same_bits(a, b)
    return outs[0], info


def test_cutile_rmsnorm(kernels):
    rng = np.random.default_rng(10)
    x = rng.standard_normal((64, 256)).astype(np.float32)
    x[3] = 0.0                                  # rsqrt(0 + eps)
    w = rng.standard_normal(256).astype(np.float32)
    (y,), info = _launch_both(kernels.rmsnorm, (64,),
                              lambda: [x, w, np.empty_like(x), 1e-6, 256], [2])
    assert info.mode == "batched"
    xd = x.astype(np.float64)
    want = xd / np.sqrt((xd * xd).mean(axis=1, keepdims=True) + 1e-6) * w
    np.testing.assert_allclose(y, want, rtol=2e-5, atol=1e-6)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_cutile_rsqrt_every_kind_of_value(kernels, dt):
    x = np.concatenate([random_bits(dt, 4096 - 8, 11),
                        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 4.0, 0.25], dt)])
    (y,), _ = _launch_both(kernels.rsqrt_map, (8,), lambda: [x, np.empty_like(x), 512], [1])
    elem = "f32" if dt == np.float32 else "f16"
    with np.errstate(all="ignore"):
        assert same_bits(y, _rsqrt_reference(x, elem))
        finite = np.isfinite(y) & (x > 0)
        np.testing.assert_allclose(y[finite].astype(np.float64),
                                   1 / np.sqrt(x[finite].astype(np.float64)), rtol=1e-3)


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.float32, np.uint8),
                                     (np.float16, np.int16), (np.float64, np.int64)])
def test_cutile_float_to_int(kernels, src, dst):
    rng = np.random.default_rng(12)
    info = np.iinfo(dst)
    inside = rng.uniform(max(info.min, -6e4), min(info.max, 6e4), 2048).astype(src)
    inside = np.clip(inside, max(info.min, -6e4), min(info.max, 6e4) - 1).astype(src)
    outside = inside.copy()
    with np.errstate(all="ignore"):
        outside[::97] = np.array([np.nan, np.inf, -np.inf, -1e30, 1e30] * 5, np.float64
                                 ).astype(src)[:outside[::97].size]
    for x in (inside, outside):
        (y,), _ = _launch_both(kernels.to_int, (4,), lambda: [x, np.empty(x.size, dst), 512],
                               [1])
        # truncate, saturate, NaN -> 0 (Python ints: exact for every range)
        want = np.array([0 if v != v else int(info.max) if v >= info.max + 1 else
                         int(info.min) if v <= info.min - 1 else int(v)
                         for v in x.astype(np.float64).tolist()], dst)
        assert same_bits(y, want)


def test_cutile_gather_scatter_computed_indices(kernels):
    rng = np.random.default_rng(13)
    n, T = 1 << 14, 1024
    src = rng.standard_normal(n).astype(np.float32)
    idx = rng.integers(0, n, n).astype(np.int32)
    (g,), info = _launch_both(kernels.gather_by_index, (n // T,),
                              lambda: [src, idx, np.empty_like(src), T], [2])
    assert info.mode == "batched" and same_bits(g, src[idx])
    # out-of-range and negative indices: masked off (0 for the gather, skipped by the scatter)
    bad = idx.copy()
    bad[::50] = n + 5
    bad[7::50] = -3
    (g,), _ = _launch_both(kernels.gather_by_index, (n // T,),
                           lambda: [src, bad, np.empty_like(src), T], [2])
    ok = (bad >= 0) & (bad < n)
    assert same_bits(g, np.where(ok, src[np.where(ok, bad, 0)], np.float32(0)))
    perm = rng.permutation(n).astype(np.int32)
    (s,), _ = _launch_both(kernels.scatter_by_index, (n // T,),
                           lambda: [src, perm, np.zeros_like(src), T], [2])
    want = np.zeros_like(src)
    want[perm] = src
    assert same_bits(s, want)
    (s,), _ = _launch_both(kernels.scatter_by_index, (n // T,),
                           lambda: [src, bad, np.zeros_like(src), T], [2])
    want = np.zeros_like(src)
    for i in np.flatnonzero(ok):                # in order: the last duplicate wins
        want[bad[i]] = src[i]
    assert same_bits(s, want)


def test_cutile_affine_3d_grid(kernels):
    rng = np.random.default_rng(14)
    x = rng.standard_normal((16, 32, 32)).astype(np.float32)
    x[0, 0, :8] = [np.nan, np.inf, -np.inf, 1e-40, -0.0, 3e38, -3e38, 2.0 ** -25]
    (y,), info = _launch_both(kernels.affine_3d, (4, 4, 4),
                              lambda: [x, np.empty_like(x), 4, 8, 8], [1])
    assert info.mode == "batched"
    with np.errstate(all="ignore"):
        want = N.fma(x, np.full_like(x, 2.0), np.full_like(x, 1.0), "f32")
        assert same_bits(y, want)
        np.testing.assert_array_equal(y, (x.astype(np.float64) * 2 + 1).astype(np.float32))


def test_cutile_scans(kernels):
    rng = np.random.default_rng(15)
    x = rng.standard_normal((32, 256)).astype(np.float32)
    x[4, 10] = np.nan
    x[5, 0] = np.inf
    (y,), _ = _launch_both(kernels.cumsum_rows, (32,),
                           lambda: [x, np.empty_like(x), 256], [1])
    with np.errstate(all="ignore"):
        assert same_bits(y, _doubling_scan_reference(x, np.add))
    np.testing.assert_allclose(y[6:], np.cumsum(x[6:].astype(np.float64), axis=1),
                               rtol=1e-4, atol=1e-4)
    v = (1 + rng.standard_normal(2048) * 0.01).astype(np.float32)
    (p,), _ = _launch_both(kernels.cumprod_reverse, (8,),
                           lambda: [v, np.empty_like(v), 256], [1])
    with np.errstate(all="ignore"):
        want = _doubling_scan_reference(v.reshape(8, 256)[:, ::-1].copy(), np.multiply)
        assert same_bits(p.reshape(8, 256), want[:, ::-1])
