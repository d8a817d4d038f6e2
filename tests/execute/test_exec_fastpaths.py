"""The executor's native fast paths (tileir.execute.semantics.fast) compute exactly what the
general numerics functions compute, bit for bit, on random bit patterns and edge values."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tileir.execute import numerics as N
from tileir.execute.semantics import fast

DT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "f64": np.float64}
U = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def samples(elem: str, n: int = 20000, seed: int = 0) -> np.ndarray:
    dt = np.dtype(DT[elem])
    u = U[dt.itemsize]
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, np.iinfo(u).max, n, dtype=u, endpoint=True)
    special = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 0.5, 3.0],
                       np.float64).astype(dt)
    normal = (rng.standard_normal(n) * 4).astype(dt)
    return np.concatenate([bits.view(dt), special, normal])


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    u = U[a.dtype.itemsize]
    return a.dtype == b.dtype and bool((a.view(u) == b.view(u)).all())


@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("op", ["addf", "subf", "mulf", "divf"])
def test_binary_fast_path_equals_numerics(op, elem):
    a = samples(elem, seed=1)
    b = np.roll(samples(elem, seed=2), 7)
    with np.errstate(all="ignore"):
        got = fast.float_binary(op, elem)(a, b)
    assert same_bits(got, getattr(N, op)(a, b, elem))


@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
def test_sqrt_fast_path_equals_numerics(elem):
    a = samples(elem, seed=3)
    with np.errstate(all="ignore"):
        assert same_bits(fast.float_sqrt(elem)(a), N.sqrt(a, elem))


@pytest.mark.parametrize("elem", ["f32", "f64"])
@pytest.mark.parametrize("want_max", [True, False])
@pytest.mark.parametrize("prop", [True, False])
def test_maxmin_fast_path_equals_numerics(elem, want_max, prop):
    a = samples(elem, seed=4)
    b = np.roll(samples(elem, seed=5), 3)
    b[:100] = -a[:100]                        # +0/-0 and equal-magnitude pairs
    b[100:200] = a[100:200]
    fn = fast.float_maxmin(want_max, prop, elem)
    ref = (N.maxf if want_max else N.minf)(a, b, elem, prop)
    assert same_bits(fn(a, b), ref)


@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("want_max", [True, False])
@pytest.mark.parametrize("prop", [True, False])
def test_maxmin_row_reduction_equals_any_fold_of_numerics(elem, want_max, prop):
    """A whole-row maxf/minf reduction has the bits of folding the rows with the reference
    maxf/minf, left to right and right to left: rows of signed zeros, NaNs of several
    payloads (some rows all NaN), infinities and random bit patterns."""
    rng = np.random.default_rng(11)
    dt = np.dtype(DT[elem])
    u = U[dt.itemsize]
    pool = np.concatenate([samples(elem, 500, seed=12),
                           np.array([0.0, -0.0, np.inf, -np.inf], np.float64).astype(dt)])
    nan_bits = pool.view(u)[np.isnan(pool.astype(np.float64))]
    rows = pool[rng.integers(0, pool.size, (300, 6))]
    rows[:40] = np.array([0.0, -0.0], np.float64).astype(dt)[rng.integers(0, 2, (40, 6))]
    rows[40:60].view(u)[:] = nan_bits[rng.integers(0, nan_bits.size, (20, 6))]   # all NaN
    rows[60:80, :3] = rows[60:80, 3:]                                         # repeats
    ref = N.maxf if want_max else N.minf
    left, right = rows[:, 0], rows[:, -1]
    for k in range(1, rows.shape[1]):
        left = ref(left, rows[:, k], elem, prop)
        right = ref(rows[:, -1 - k], right, elem, prop)
    got = fast.float_maxmin_rows(want_max, prop, elem)(rows)
    assert same_bits(got, left) and same_bits(got, right)


@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
def test_sign_ops_and_rounding_equal_numerics(elem):
    a = samples(elem, seed=6)
    assert same_bits(fast.sign_op(True, elem)(a), N.negf(a, elem))
    assert same_bits(fast.sign_op(False, elem)(a), N.absf(a, elem))
    if elem in ("f32", "f64"):
        with np.errstate(all="ignore"):          # launches run under the same errstate
            assert same_bits(fast.rounding_op(np.ceil, elem)(a), N.ceil(a, elem))
            assert same_bits(fast.rounding_op(np.floor, elem)(a), N.floor(a, elem))


@pytest.mark.parametrize("pred", ["equal", "not_equal", "less_than", "less_than_or_equal",
                                  "greater_than", "greater_than_or_equal"])
@pytest.mark.parametrize("ordering", ["ordered", "unordered"])
def test_cmpf_fast_path_equals_numerics(pred, ordering):
    a = samples("f32", seed=7)
    b = np.roll(a, 1)
    got = fast.float_cmp(pred, ordering == "ordered", "f32")(a, b)
    assert (got == N.cmpf(a, b, "f32", pred, ordering)).all()


@pytest.mark.parametrize("src,dst", [("f16", "f32"), ("bf16", "f32"), ("f32", "f64"),
                                     ("f16", "f64"), ("bf16", "f64"), ("f32", "f16"),
                                     ("f32", "bf16"), ("f64", "f32")])
def test_conversion_fast_paths_equal_numerics(src, dst):
    a = samples(src, seed=8)
    fn = fast.widen_float(src, dst) or fast.narrow_float(src, dst, "nearest_even")
    with np.errstate(all="ignore"):
        assert same_bits(fn(a), N.ftof(a, src, dst))


MODES = ["nearest_even", "zero", "positive_inf", "negative_inf", "nearest_away"]


def all_values(elem: str) -> np.ndarray:
    """Every bit pattern of a 16-bit float type."""
    return np.arange(1 << 16, dtype=np.uint16).view(DT[elem])


@pytest.mark.parametrize("src", ["f16", "bf16"])
def test_conversions_from_16_bit_types_exhaustive(src):
    """Every fast ftof from a 16-bit source equals the exact routine on all 65536 inputs."""
    x = all_values(src)
    checked = 0
    with np.errstate(all="ignore"):
        for dst in ("f8E4M3FN", "f8E5M2", "f16", "bf16", "f32", "tf32", "f64"):
            for mode in MODES:
                fn = fast.convert_float(src, dst, mode)
                if fn is None:
                    continue
                checked += 1
                assert same_bits(fn(x), N.ftof(x, src, dst, mode)), (dst, mode)
    assert checked >= 8


@pytest.mark.parametrize("src", ["f32", "f64"])
def test_conversions_from_wide_types(src):
    x = samples(src, n=50000, seed=11)
    if src == "f32":
        # every tf32 / bf16 rounding boundary: patterns whose low bits are near a half
        rng = np.random.default_rng(12)
        hi = rng.integers(0, 1 << 19, 20000, dtype=np.uint32) << np.uint32(13)
        low = np.array([0, 1, 0xFFF, 0x1000, 0x1001, 0x1FFF, 0x7FFF, 0x8000, 0x8001],
                       np.uint32)
        x = np.concatenate([x, (hi[:, None] | low).reshape(-1).view(np.float32),
                            np.array([0x7F7FFFFF, 0x7F7FF000, 0xFF7FF000, 1, 0x80000001],
                                     np.uint32).view(np.float32)])
    with np.errstate(all="ignore"):
        for dst in ("tf32", "bf16", "f16", "f32", "f8E4M3FN", "f8E5M2"):
            for mode in MODES:
                fn = fast.convert_float(src, dst, mode)
                if fn is not None:
                    assert same_bits(fn(x), N.ftof(x, src, dst, mode)), (dst, mode)
    assert fast.convert_float("f32", "tf32", "zero") is not None
    assert fast.convert_float("f32", "bf16", "positive_inf") is not None


@pytest.mark.parametrize("c_helper", [True, False], ids=["C", "NumPy"])
def test_f32_to_f16_bit_arithmetic_at_every_rounding_boundary(c_helper, monkeypatch):
    """The nearest-even f32 -> f16 conversion by bit arithmetic equals the exact routine at
    every f16 value, every midpoint between neighbouring f16 values (ties, normal and
    subnormal, and the overflow midpoint 65520) and one f32 step either side of it; both
    paths, the one C pass (where a compiler is at hand; checked on all 2^32 patterns when it
    was written) and NumPy's passes."""
    from tileir.execute.numerics import native
    if not c_helper:
        monkeypatch.setattr(native, "_lib", [None])
    v = all_values("f16").astype(np.float64)
    v = np.sort(v[np.isfinite(v)])
    mids = (v[:-1] + v[1:]) / 2                       # exact in f32 (12 significant bits)
    edges = np.concatenate([v, mids, [65520.0, -65520.0, 65504.0 + 8, 2.0 ** -25, 2.0 ** -26]])
    e32 = edges.astype(np.float32)
    x = np.concatenate([e32, np.nextafter(e32, np.float32(np.inf)),
                        np.nextafter(e32, np.float32(-np.inf)), samples("f32", seed=17)])
    fn = fast.convert_float("f32", "f16", "nearest_even")
    assert fn is fast.f32_to_f16_nearest_even
    with np.errstate(all="ignore"):
        assert same_bits(fn(x), N.ftof(x, "f32", "f16"))
        strided = x[: x.size // 5 * 5].reshape(-1, 5)[:, 1:3]
        assert same_bits(fn(strided), N.ftof(strided,
                                            "f32", "f16"))
    assert fn(np.zeros((0, 3), np.float32)).shape == (0, 3)


def test_fma_f32_fast_path_equals_numerics():
    a = samples("f32", seed=13)
    b = np.roll(samples("f32", seed=14), 5)
    c = np.roll(samples("f32", seed=15), 11)
    rng = np.random.default_rng(16)
    x = rng.standard_normal(50000).astype(np.float32)
    y = rng.standard_normal(50000).astype(np.float32)
    with np.errstate(all="ignore"):
        near = (-(x.astype(np.float64) * y)).astype(np.float32)       # heavy cancellation
        ties = (x.astype(np.float64) * y).astype(np.float32)          # and near-ties
        tiny = np.ldexp(x, -140).astype(np.float32)                   # subnormal results
        # a*b + c = (1 + 2**-24) + 2**-60: rounds to an f32 midpoint in f64 (double rounding)
        u = np.float32(2.0 ** -12)
        da = np.array([-(1 - 2.0 ** -18) * u, (1 - 2.0 ** -18) * u], np.float32)
        db = np.array([(1 + 2.0 ** -18) * u, -(1 + 2.0 ** -18) * u], np.float32)
        dc = np.array([1 + 2.0 ** -23, -(1 + 2.0 ** -23)], np.float32)
        assert N.fma(da, db, dc, "f32").tolist() == [1 + 2.0 ** -23, -(1 + 2.0 ** -23)]
        a, b, c = (np.concatenate(v) for v in ((a, x, x, x, da), (b, y, y, y, db),
                                               (c, near, ties, tiny, dc)))
        assert same_bits(fast.fma_f32()(a, b, c), N.fma(a, b, c, "f32"))
        # lanes x tile shapes with broadcast operands, run in cache-sized chunks of rows (and
        # rows too long to chunk), bit for bit as the numerics routine
        n = (a.size // 1000) * 1000
        for rows, cols in ((n // 1000, 1000), (1, n), (n // 40, 40)):
            a2, c2 = a[:n].reshape(rows, cols), c[:n].reshape(rows, cols)
            b_row = b[:cols].reshape(1, cols)
            assert same_bits(fast.fma_f32()(a2, b_row, c2),
                             N.fma(a2, np.broadcast_to(b_row, a2.shape), c2, "f32"))


@pytest.mark.parametrize("elem", ["f16", "bf16", "f32"])
def test_square_is_pow_with_exponent_two(elem):
    """pow(x, 2) (and fpowi(x, 2)) run as mulf(x, x): the same bits as the pow routine."""
    x = samples(elem, seed=9)
    with np.errstate(all="ignore"):
        two = np.full_like(x, 2)
        assert same_bits(fast.float_binary("mulf", elem)(x, x), N.pow(x, two, elem))


@pytest.mark.parametrize("in_elem,acc_elem", [("f16", "f32"), ("bf16", "f32"), ("tf32", "f32"),
                                              ("f32", "f32"), ("f16", "f16")])
def test_mmaf_fast_mode_within_its_documented_bound(in_elem, acc_elem):
    """mma="fast" (f32 BLAS) stays within (K + 1) * 2**-24 * (sum|a*b| + |acc|) of the exact
    mode (plus one rounding to f16 for f16 accumulators); kernels give the same bits batched
    and one block at a time either way (tests/execute/differential.py)."""
    from tileir.execute.semantics.floating_point import mmaf_exact, mmaf_fast
    rng = np.random.default_rng(21)
    k = 96
    src = np.float32 if in_elem in ("f32", "tf32") else DT[in_elem]
    a = (rng.standard_normal((3, 16, k)) * 4).astype(src)
    b = (rng.standard_normal((3, k, 24)) * 4).astype(src)
    acc = rng.standard_normal((3, 16, 24)).astype(DT[acc_elem])
    exact = mmaf_exact(a, b, acc, in_elem, acc_elem).astype(np.float64)
    fast_ = mmaf_fast(a, b, acc, in_elem, acc_elem).astype(np.float64)
    mag = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + \
        np.abs(acc.astype(np.float64))
    bound = (k + 1) * 2.0 ** -24 * mag
    if acc_elem == "f16":
        bound = bound + 2.0 ** -10 * np.abs(exact)
    assert (np.abs(fast_ - exact) <= bound).all()


def test_fast_mmaf_operand_conversion_exhaustive_f16():
    """Fast-mode mmaf converts f16 operands by a table: every f16 bit pattern gives the bits
    NumPy's exact f16 -> f32 conversion gives (NaN payloads included)."""
    from tileir.execute.semantics.floating_point import fast_operand
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16).reshape(256, 256)
    got = fast_operand(x, "f16")
    assert got.dtype == np.float32 and got.shape == x.shape
    assert same_bits(got, x.astype(np.float32))


@pytest.mark.parametrize("elem", ["f16", "bf16", "f8E4M3FN", "f8E5M2"])
def test_fast_mmaf_operand_conversion_into_a_buffer_exhaustive(elem):
    """Converting into a kept buffer (``out=``) gives the bits of NumPy's exact conversion of
    every bit pattern of the narrow type."""
    from tileir.execute.numerics.dtypes import numpy_dtype
    from tileir.execute.semantics.floating_point import fast_operand
    dt = numpy_dtype(elem)
    bits = np.arange(1 << (8 * dt.itemsize), dtype=np.uint32)
    x = bits.astype(np.uint16 if dt.itemsize == 2 else np.uint8).view(dt).reshape(-1, 16)
    out = np.full(x.shape, 7.0, np.float32)
    got = fast_operand(x, elem, out)
    assert got is out
    assert same_bits(got, x.astype(np.float32))


def test_select_uniform_condition_returns_the_operand_bits():
    """select with a condition true (false) everywhere gives that operand itself when it has
    the result's shape; every other case is np.where, bit for bit (NaN payloads, -0)."""
    from tileir.execute.semantics.core import _select
    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 1, 8)).astype(np.float32)
    a.view(np.uint32)[0, 0, :2] = [0x7FC00123, 0x80000000]          # a NaN payload, -0
    b = np.zeros((1, 1, 8), np.float32)
    for cond in (np.ones((1, 1, 8), bool), np.zeros((1, 1, 8), bool),
                 rng.random((4, 1, 8)) < 0.5, np.ones((4, 1, 8), bool)):
        for x, y in ((a, b), (b, a)):
            got = _select(cond, x, y)
            want = np.where(cond, x, y)
            assert got.shape == want.shape
            np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    assert _select(np.ones((1, 1, 8), bool), a, b) is a
    assert _select(np.zeros((1, 1, 8), bool), b, a) is a


@pytest.mark.parametrize("elem", ["i8", "i16", "i32", "i64"])
def test_divi_remi_of_natural_numbers_equal_the_general_path(elem, monkeypatch):
    """divi/remi of arrays whose dividends are non-negative and divisors positive (block ids
    and tile counts) take one NumPy step; the same results as the general path, for every
    rounding and signedness, edges included; negative or zero operands keep the general
    path."""
    from tileir.execute.numerics import intops
    dt = np.dtype("int" + elem[1:])
    top = np.iinfo(dt).max
    rng = np.random.default_rng(5)
    edge = np.array([0, 1, 2, 3, 7, top, top - 1, top // 2], dt)
    a = np.concatenate([edge, rng.integers(0, top, 300, dtype=dt)])
    b = np.concatenate([edge[1:], np.array([top], dt), rng.integers(1, top, 300, dtype=dt)])
    cases = [(a, b), (a, b[:1].copy()), (a[3:4].copy(), b)]
    modes = [(True, "zero"), (True, "positive_inf"), (True, "negative_inf"),
             (False, "zero"), (False, "positive_inf")]
    natural = intops._natural_pair
    assert natural(a, b, elem) is not None
    assert natural(-a - 1, b, elem) is None and natural(a, b - 1, elem) is None
    for x, y in cases:
        fast = [intops.divi(x, y, elem, s, m) for s, m in modes] + \
            [intops.remi(x, y, elem, s) for s in (True, False)]
        monkeypatch.setattr(intops, "_natural_pair", lambda *args: None)
        general = [intops.divi(x, y, elem, s, m) for s, m in modes] + \
            [intops.remi(x, y, elem, s) for s in (True, False)]
        monkeypatch.setattr(intops, "_natural_pair", natural)
        for f, g in zip(fast, general):
            assert f.dtype == g.dtype and np.array_equal(f, g)



@pytest.mark.parametrize("elem", ["f16", "bf16", "f32", "f64"])
@pytest.mark.parametrize("want_max", [True, False])
@pytest.mark.parametrize("prop", [True, False])
def test_maxmin_rows_without_nan_equal_the_fold(elem, want_max, prop):
    """Rows with no NaN anywhere (the fmax/fmin row reduction): signed zeros, infinities and
    random finite bit patterns fold to the same bits as the reference maxf/minf."""
    rng = np.random.default_rng(21)
    dt = np.dtype(DT[elem])
    pool = samples(elem, 2000, seed=22)
    pool = pool[~np.isnan(pool.astype(np.float64))]
    rows = pool[rng.integers(0, pool.size, (400, 64))]
    rows[:50] = np.array([0.0, -0.0], np.float64).astype(dt)[rng.integers(0, 2, (50, 64))]
    rows[50:60, :] = np.array(np.inf if not want_max else -np.inf, np.float64).astype(dt)
    ref = N.maxf if want_max else N.minf
    want = rows[:, 0]
    for k in range(1, rows.shape[1]):
        want = ref(want, rows[:, k], elem, prop)
    assert same_bits(fast.float_maxmin_rows(want_max, prop, elem)(rows), want)


def test_fma_f32_with_few_valued_broadcast_operands_equals_numerics():
    """``x * scale - row_term`` shapes (an attention kernel's): the scale and the per-row term
    are widened to f64 once; the bits are the reference fma's, ties and tiny results too."""
    rng = np.random.default_rng(23)
    lanes = 9
    a = samples("f32", lanes * 64 * 64, seed=24)[:lanes * 64 * 64].reshape(lanes, 64, 64)
    b = rng.standard_normal((lanes, 1, 1)).astype(np.float32)
    c = rng.standard_normal((lanes, 64, 1)).astype(np.float32)
    c[0, :, 0] = np.ldexp(c[0, :, 0], -140).astype(np.float32)          # tiny sums
    a[1] = np.float32(1.0)
    b[1] = np.float32(2.0 ** -24)
    c[1] = np.float32(1.0)                                              # exact ties
    with np.errstate(all="ignore"):
        for args in ((a, b, c), (b, a, c), (a, c, b)):
            full = [np.broadcast_to(x, a.shape) for x in args]
            assert same_bits(fast.fma_f32()(*args), N.fma(*full, "f32"))


def test_exp2_flush_to_zero_at_the_normal_limit():
    """exp2 with flush_to_zero: 2**-126 (x = -126) stays, results just below it are flushed
    to +0; arrays whose smallest x is -126 or more skip the flush with the same bits."""
    below = np.nextafter(np.float32(-126), np.float32(-np.inf))
    x = np.array([-126.0, below, -127.5, -149.0, -0.0, 3.25, -np.inf, np.inf], np.float32)
    got = N.exp2(x, "f32", flush_to_zero=True)
    assert got.view(np.uint32).tolist() == [0x00800000, 0, 0, 0, 0x3F800000,
                                            np.float32(2 ** 3.25).view(np.uint32), 0,
                                            0x7F800000]
    ok = np.linspace(-126, 20, 5001, dtype=np.float32)
    assert same_bits(N.exp2(ok, "f32", flush_to_zero=True), N.exp2(ok, "f32"))
    with_nan = np.append(ok, np.float32(np.nan))
    assert np.isnan(N.exp2(with_nan, "f32", flush_to_zero=True)[-1])


def test_unary_ops_on_broadcast_tiles_compute_each_value_once():
    """negf/absf and the math functions on a broadcast view give the values of the full
    array (a read-only broadcast of the per-row results), bit for bit."""
    from tileir.execute.semantics.floating_point import _lower_sign  # noqa: F401
    rows = samples("f32", 64, seed=31)[:64].reshape(1, 64, 1)
    tile = np.broadcast_to(rows, (3, 64, 64))
    assert fast.compact(tile).shape == (1, 64, 1)
    for negate in (True, False):
        fn = fast.sign_op(negate, "f32")
        got = fn(tile)
        assert got.shape == tile.shape and not got.flags.writeable
        assert same_bits(got, fn(np.ascontiguousarray(tile)))
    exp2 = fast.on_compact(lambda a: N.exp2(a, "f32", True))
    with np.errstate(all="ignore"):
        assert same_bits(exp2(tile), N.exp2(np.ascontiguousarray(tile), "f32", True))
    full = np.ascontiguousarray(tile)
    assert fast.on_compact(lambda a: a + 1)(full) is not None and fast.compact(full) is full
