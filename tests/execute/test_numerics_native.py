"""The numerics' native helpers (:mod:`tileir.execute.numerics.native`) against NumPy paths.

The C tf32 rounding must give the bits of the NumPy bit-arithmetic routine it replaces
(:func:`tileir.execute.semantics.fast._round_low_bits` plus the canonical NaN) on every kind of
pattern and layout, and the conversion must still work when no helper can run.
"""

from __future__ import annotations

import numpy as np
import pytest

from tileir.execute import cbuild
from tileir.execute.numerics import native
from tileir.execute.semantics import fast

needs_cc = pytest.mark.skipif(cbuild.compiler() is None, reason="no C compiler")


def numpy_tf32(x: np.ndarray) -> np.ndarray:
    """The NumPy reference: round the low 13 bits to nearest even, NaNs canonical."""
    bits = np.ascontiguousarray(x).view(np.uint32)
    out = fast._round_low_bits(bits, 13, "nearest_even").copy()
    out[np.isnan(np.ascontiguousarray(x))] = np.uint32(0x7FFFE000)
    return out


def patterns(n: int, seed: int) -> np.ndarray:
    """Random f32 patterns, every rounding boundary of tf32 and the special values."""
    rng = np.random.default_rng(seed)
    rand = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    hi = rng.integers(0, 1 << 19, 4096, dtype=np.uint32) << np.uint32(13)
    low = np.array([0, 1, 0xFFF, 0x1000, 0x1001, 0x1FFF], np.uint32)
    special = np.array([0, 0x80000000, 1, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F7FF000,
                        0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                        0xFFFFFFFF, 0x00001000, 0x00003000], np.uint32)
    return np.concatenate([rand, (hi[:, None] | low).reshape(-1), special]).view(np.float32)


@needs_cc
def test_round_to_tf32_matches_numpy_bits():
    x = patterns(1 << 18, 1)
    out = np.empty(x.shape, np.uint32)
    assert native.round_to_tf32(x, out)
    np.testing.assert_array_equal(out, numpy_tf32(x))


@needs_cc
@pytest.mark.parametrize("view", [
    lambda a: a.reshape(256, 1024)[::3, 5::7],          # both axes strided
    lambda a: a.reshape(256, 1024)[:, ::-1],             # reversed rows
    lambda a: a.reshape(16, 16, 1024)[:, 2:9, :],        # leading axes that merge
    lambda a: a.reshape(256, 1024).T,                    # transposed
])
def test_strided_views(view):
    x = view(patterns(1 << 18, 2)[:1 << 18])
    out = np.empty(x.shape, np.uint32)
    ran = native.round_to_tf32(x, out)
    want = numpy_tf32(x)
    if ran:
        np.testing.assert_array_equal(out, want)
    # the conversion itself is right whichever path it takes
    np.testing.assert_array_equal(fast.f32_to_tf32("nearest_even")(x).view(np.uint32), want)


def test_merging_axes():
    a = np.zeros((4, 6, 8), np.float32)
    assert native._as_rows(a) == (24, 8, 8, 1)
    assert native._as_rows(a[:, ::2, :]) == (12, 8, 16, 1)
    assert native._as_rows(a.transpose(1, 0, 2)) is None      # rows that do not merge


def test_small_arrays_and_no_compiler_take_numpy(monkeypatch):
    x = patterns(1 << 14, 3)
    out = np.empty(x.shape, np.uint32)
    assert not native.round_to_tf32(x[:100], out[:100])       # below MIN_ELEMENTS
    monkeypatch.setattr(native, "_lib", [None])
    assert not native.round_to_tf32(x, out)
    np.testing.assert_array_equal(fast.f32_to_tf32("nearest_even")(x).view(np.uint32),
                                  numpy_tf32(x))


# -- f32/f64 add, subtract, multiply, divide with canonical NaNs in one pass -------------------

_UFUNCS = [np.add, np.subtract, np.multiply, np.divide]


@pytest.fixture
def small_binary(monkeypatch):
    """The binary helper on test-sized arrays (it takes the NumPy path below
    ``MIN_BINARY_ELEMENTS`` otherwise)."""
    monkeypatch.setattr(native, "MIN_BINARY_ELEMENTS", native.MIN_ELEMENTS)


def numpy_canonical(ufunc, a, b) -> np.ndarray:
    """The NumPy reference: the ufunc, then every NaN made the canonical NaN."""
    out = ufunc(a, b)
    return fast.canon_nan(out)


def float_patterns(dtype, n: int, seed: int) -> np.ndarray:
    """Random bit patterns (NaN payloads, subnormals, infinities included) and special values."""
    rng = np.random.default_rng(seed)
    uint = np.uint32 if dtype == np.float32 else np.uint64
    bits = rng.integers(0, np.iinfo(uint).max, n, dtype=uint, endpoint=True)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0,
                        np.finfo(dtype).tiny, np.finfo(dtype).max, -np.finfo(dtype).max,
                        np.finfo(dtype).smallest_subnormal], dtype)
    x = bits.view(dtype).copy()
    x[:special.size] = special
    x[special.size:2 * special.size] = rng.standard_normal(special.size)
    return x


@needs_cc
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", _UFUNCS, ids=lambda u: u.__name__)
def test_binary_canonical_matches_numpy_bits(ufunc, dtype, small_binary):
    n = 1 << 16
    a = float_patterns(dtype, n, 4)
    b = np.roll(float_patterns(dtype, n, 5), 3)
    special = a[:11]
    a[-121:] = np.repeat(special, 11)            # every pair of special values
    b[-121:] = np.tile(special, 11)
    out = np.empty(n, dtype)
    with np.errstate(all="ignore"):
        assert native.binary_canonical(ufunc, a, b, out)
        want = numpy_canonical(ufunc, a, b)
    assert out.tobytes() == want.tobytes()


@needs_cc
@pytest.mark.parametrize("layout", ["rows", "strided", "broadcast_row", "broadcast_col",
                                    "scalar", "grid_of_tiles", "in_place"])
def test_binary_canonical_layouts(layout, small_binary):
    rng = np.random.default_rng(6)
    m = rng.standard_normal((64, 256)).astype(np.float32)
    m[3, 7] = np.array(0x7FA00001, np.uint32).view(np.float32)        # a NaN payload
    big = rng.standard_normal((128, 512)).astype(np.float32)
    a, b = m, m[::-1].copy()
    out = np.empty_like(m)
    if layout == "strided":
        a, out = big[::2, 1::2], np.empty((128, 512), np.float32)[1::2, ::2]
    elif layout == "broadcast_row":
        b = m[:1]
    elif layout == "broadcast_col":
        b = m[:, :1]
    elif layout == "scalar":
        b = np.float32(-2.5).reshape(())
    elif layout == "grid_of_tiles":     # (2, 4, 32, 64) tiles of a 64x256 matrix, lanes first
        def tiles(x):
            return x.reshape(2, 32, 4, 64).transpose(0, 2, 1, 3)
        a, b, out = tiles(m), tiles(b), tiles(np.empty_like(m))
    want = numpy_canonical(np.multiply, a, b)
    if layout == "in_place":
        a = out = m.copy()
    ran = native.binary_canonical(np.multiply, a, b, out)
    if layout in ("rows", "strided", "broadcast_row", "scalar", "in_place"):
        assert ran
    if ran:
        assert out.tobytes() == np.ascontiguousarray(want).tobytes() or \
            np.array_equal(out.view(np.uint32), want.view(np.uint32))


@needs_cc
def test_binary_canonical_refuses_overlap_and_mixed_types(small_binary):
    x = np.arange(1 << 14, dtype=np.float32)
    assert not native.binary_canonical(np.add, x[1:], x[:-1], x[:-1])      # shifted overlap
    assert not native.binary_canonical(np.add, x.astype(np.float64), x, x)  # mixed dtypes
    assert not native.binary_canonical(np.add, x[:10], x[:10], x[:10].copy())   # small
    assert not native.binary_canonical(np.power, x, x, x.copy())            # not an op here
    y = np.zeros((64, 256), np.float32)
    assert native._common_rows(y.shape, [y.strides] * 3, 4) == (1, 64 * 256, [(0, 1)] * 3)
    assert native._common_rows((64, 256), [(2048, 4)] * 3, 4) == (64, 256, [(512, 1)] * 3)
    assert native._common_rows((8, 8, 8), [(256, 32, 4), (256, 4, 32), (256, 32, 4)], 4) \
        is None                                                             # axes that don't merge


@needs_cc
def test_fma_canonical_matches_the_exact_numpy_fma():
    """C's fma (one rounding) against the NumPy-only exact f32 fma (f64 sum, midpoints and
    tiny results redone exactly) on random patterns, double-rounding midpoints and every
    triple of special values; f64 against Python's exact rational arithmetic on a sample."""
    from fractions import Fraction
    n = 1 << 16
    a = float_patterns(np.float32, n, 7)
    b = np.roll(float_patterns(np.float32, n, 8), 5)
    c = np.roll(float_patterns(np.float32, n, 9), 11)
    special = a[:11]
    k = special.size ** 3
    a[-k:] = np.repeat(special, 121)
    b[-k:] = np.tile(np.repeat(special, 11), 11)
    c[-k:] = np.tile(special, 121)
    # products whose exact sum with c lies just off an f32 midpoint (double rounding traps)
    a[:4096] = 1 + np.arange(4096, dtype=np.float32) * np.float32(2 ** -23)
    b[:4096] = 1 + np.float32(2 ** -23)
    c[:4096] = np.float32(2 ** -24)
    out = np.empty(n, np.float32)
    assert native.fma_canonical(a, b, c, out)
    with np.errstate(all="ignore"):
        want = fast.fma_f32(True)(a[None].copy()[:, :100], b[None][:, :100], c[None][:, :100])
    assert out[:100].tobytes() == want.reshape(-1).tobytes()
    # the NumPy path on everything (forced: no helper)
    saved = native._lib[:]
    try:
        native._lib[:] = [None]
        with np.errstate(all="ignore"):
            want = fast.fma_f32(True)(a.reshape(64, -1), b.reshape(64, -1), c.reshape(64, -1))
    finally:
        native._lib[:] = saved
    assert out.tobytes() == want.reshape(-1).tobytes()
    x = np.random.default_rng(3).standard_normal((3, 5000))
    got = np.empty(5000)
    assert native.fma_canonical(x[0], x[1], x[2], got)
    for i in range(0, 5000, 97):
        exact = Fraction(x[0, i]) * Fraction(x[1, i]) + Fraction(x[2, i])
        assert got[i] == float(exact)           # (float() of a Fraction rounds to nearest)


@needs_cc
@pytest.mark.parametrize("kind", ["tree", "scan"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", [np.add, np.multiply], ids=lambda u: u.__name__)
@pytest.mark.parametrize("width", [2, 3, 7, 64, 777, 1024])
def test_row_helpers_match_the_numpy_levels(kind, ufunc, dtype, width):
    """reduce's pairwise tree and scan's doubling scan, row by row in C, against the NumPy
    levels they replace (tileir.execute.semantics.core), on random patterns and in three
    layouts."""
    from tileir.execute.semantics import core
    helper, numpy_levels = {"tree": (native.tree_reduce_rows, core._ufunc_tree),
                            "scan": (native.scan_rows, core._ufunc_scan)}[kind]
    rows = max(8, 8192 // width)
    x = float_patterns(dtype, rows * width, width).reshape(rows, width)
    x[::3] = np.random.default_rng(width).standard_normal((x[::3].shape)) * 4   # finite rows
    for c in (x, x[:, ::-1], np.asfortranarray(x)):
        with np.errstate(all="ignore"):
            got = helper(ufunc, c)
            saved = native._lib[:]
            try:
                native._lib[:] = [None]
                want = numpy_levels(np.array(c), ufunc)
            finally:
                native._lib[:] = saved
        assert got is not None and got.tobytes() == want.tobytes()


def test_tree_reduce_rows_declines():
    x = np.ones((100, 100), np.float32)
    assert native.tree_reduce_rows(np.maximum, x) is None      # not add/multiply
    assert native.tree_reduce_rows(np.add, x[:1, :10]) is None   # small
    assert native.tree_reduce_rows(np.add, x.astype(np.float16)) is None


@needs_cc
def test_narrow_f64_matches_numpy_cast():
    src = float_patterns(np.float64, 1 << 15, 12)
    src[:3] = [3.4028235677973366e38, 3.4028235677973362e38, 1e-46]   # overflow/underflow edges
    dst = np.empty(src.size, np.float32)
    assert native.narrow_f64(src, dst)
    with np.errstate(all="ignore"):
        want = fast.canon_nan(src.astype(np.float32))
    assert dst.tobytes() == want.tobytes()
    assert not native.narrow_f64(src[::2], dst[:src.size // 2])        # not contiguous


@needs_cc
@pytest.mark.parametrize("layout", ["flat", "rows", "planes", "strided_planes", "every_other"])
def test_f16_to_f32_every_pattern(layout):
    """Every f16 bit pattern (NaN payloads and subnormals included) widens to the bits NumPy
    gives, in every layout the helper takes; layouts it declines are declined."""
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    v = {"flat": x, "rows": x.reshape(64, 1024),
         "planes": x.reshape(16, 4, 1024).transpose(1, 0, 2),
         "strided_planes": x.reshape(16, 16, 256)[:, ::2, :128],
         "every_other": x.reshape(256, 256)[:, ::2]}[layout]
    out = np.empty(v.shape, np.float32)
    ran = native.f16_to_f32(v, out)
    assert ran == (layout != "every_other")
    if ran:
        assert out.tobytes() == v.astype(np.float32).tobytes()
    # whichever path runs, the executor's conversions give NumPy's bits
    from tileir.execute.semantics.floating_point import fast_operand
    np.testing.assert_array_equal(fast_operand(v, "f16").view(np.uint32),
                                  v.astype(np.float32).view(np.uint32))
    widened = fast.widen_float("f16", "f32", canonical=False)(v)
    np.testing.assert_array_equal(widened.view(np.uint32), v.astype(np.float32).view(np.uint32))
