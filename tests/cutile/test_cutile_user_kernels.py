"""cuTile kernels written the way NVIDIA's samples and users write them, run on the CPU and
checked against independent NumPy references (bit-exact where the spec makes the result exact).

Covers what the other cuTile tests do not: every padding mode on edge tiles, 3-D/4-D arrays
with transposed and negative-stride layouts, tile index maps (row/column-major, reversed,
permuted grids), split-K matmul with atomics, int8 x uint8 matmul, causal softmax and flash
attention with per-block trip counts, RoPE, layer-norm backward, ``astype`` between every pair of
dtypes, signed integer floor division / modulo / shifts, gather/scatter with masks and
out-of-range indices, ``check_bounds=False`` accesses that cross the array's edge, and signaling
NaN operands of ``maximum``/``minimum``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from ctutil import require_cutile

ct = require_cutile()
import tileir.cutile as tc  # noqa: E402
from tileir.execute.errors import UndefinedBehaviorError  # noqa: E402

ConstInt = ct.Constant[int]


# -- edge tiles: every padding mode ----------------------------------------------------------

@ct.kernel
def padded_row_stats(x, row_sum, row_max, row_min, nan_mask, neg_zero_bits,
                     TM: ConstInt, TN: ConstInt):
    i = ct.bid(0)
    zero = ct.load(x, index=(i, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
    ninf = ct.load(x, index=(i, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
    pinf = ct.load(x, index=(i, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.POS_INF)
    nan = ct.load(x, index=(i, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.NAN)
    nzero = ct.load(x, index=(i, 0), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_ZERO)
    ct.store(row_sum, index=(i, 0), tile=ct.sum(zero, axis=1, keepdims=True))
    ct.store(row_max, index=(i, 0), tile=ct.max(ninf, axis=1, keepdims=True))
    ct.store(row_min, index=(i, 0), tile=ct.min(pinf, axis=1, keepdims=True))
    ct.store(nan_mask, index=(i, 0), tile=ct.where(ct.isnan(nan), 1, 0))
    ct.store(neg_zero_bits, index=(i, 0), tile=ct.bitcast(nzero, ct.int32))


def test_every_padding_mode_on_edge_tiles(rng):
    M, N, TM, TN = 13, 7, 4, 8
    x = rng.standard_normal((M, N)).astype(np.float32)
    row_sum, row_max, row_min = (np.zeros((M, 1), np.float32) for _ in range(3))
    # the padded tiles as a whole: outputs of the tile's shape, rows past M are not stored
    nan_mask = np.zeros((M, TN), np.int32)
    neg_zero_bits = np.zeros((M, TN), np.int32)
    tc.launch(padded_row_stats, (4,), (x, row_sum, row_max, row_min, nan_mask, neg_zero_bits,
                                       TM, TN))
    np.testing.assert_allclose(row_sum[:, 0], x.sum(1, dtype=np.float64), rtol=0, atol=1e-5)
    assert np.array_equal(row_max[:, 0], x.max(1))
    assert np.array_equal(row_min[:, 0], x.min(1))
    assert np.array_equal(nan_mask, np.r_["1", np.zeros((M, N)), np.ones((M, TN - N))])
    want_bits = np.full((M, TN), np.float32(-0.0).view(np.int32), np.int32)
    want_bits[:, :N] = x.view(np.int32)
    assert np.array_equal(neg_zero_bits, want_bits)


# -- 3-D / 4-D arrays in every layout ----------------------------------------------------------

@ct.kernel
def fma_3d(x, y, z, T0: ConstInt, T1: ConstInt, T2: ConstInt):
    i, j, k = ct.bid(0), ct.bid(1), ct.bid(2)
    a = ct.load(x, index=(i, j, k), shape=(T0, T1, T2), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(y, index=(i, j, k), shape=(T0, T1, T2), padding_mode=ct.PaddingMode.ZERO)
    ct.store(z, index=(i, j, k), tile=a * b + a)    # cuTile contracts this to one fma


def _fma_f32(a, b, c):
    """f32 fma: the f64 product is exact, the f64 sum rounds once more (a double rounding
    that differs from the exact fma only on exact f32 midpoints: not with these inputs)."""
    return (a.astype(np.float64) * b + c).astype(np.float32)


@pytest.mark.parametrize("layout", ["C", "transposed", "negative", "sliced"])
def test_3d_elementwise_on_layouts(rng, layout):
    shape = (5, 9, 6)
    base = rng.standard_normal((10, 9, 12)).astype(np.float32)
    x = rng.standard_normal(shape).astype(np.float32)
    y = {"C": base[:5, :, :6].copy(),
         "transposed": np.ascontiguousarray(base[:5, :, :6].transpose(2, 1, 0)).transpose(2, 1, 0),
         "negative": base[9:4:-1, ::-1, 11:5:-1],
         "sliced": base[::2, :, ::2]}[layout]
    z = np.zeros(shape[::-1], np.float32).transpose(2, 1, 0)    # an F-order output
    tc.launch(fma_3d, (3, 3, 2), (x, y, z, 2, 4, 4))
    assert np.array_equal(z, _fma_f32(x, y, x))


@ct.kernel
def sum_4d(x, out, T: ConstInt):
    i = ct.bid(0)
    a = ct.load(x, index=(i, 0, 0, 0), shape=(1, 2, 4, T), padding_mode=ct.PaddingMode.ZERO)
    s = ct.sum(ct.sum(a, axis=3), axis=1)
    ct.store(out, index=(i, 0), tile=ct.reshape(s, (1, 4)))


def test_4d_reduction_over_two_axes(rng):
    x = rng.integers(-50, 50, (3, 2, 4, 5)).astype(np.float32)
    out = np.zeros((3, 4), np.float32)
    tc.launch(sum_4d, (3,), (x, out, 8))
    assert np.array_equal(out, x.sum(axis=(1, 3)))     # small integers: exact in any order


@ct.kernel
def tile_map_copy(x, y, TM: ConstInt, TN: ConstInt, MODE: ConstInt):
    b = ct.bid(0)
    nm = ct.num_tiles(x, axis=0, shape=(TM, TN))
    nn = ct.num_tiles(x, axis=1, shape=(TM, TN))
    if MODE == 0:
        i = b // nn
        j = b % nn
    elif MODE == 1:
        i = b % nm
        j = b // nm
    else:
        i = nm - 1 - b // nn
        j = nn - 1 - b % nn
    t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(y, index=(i, j), tile=t * 2.0)


@ct.kernel
def transpose_by_order(x, y, TM: ConstInt, TN: ConstInt):
    i, j = ct.bid(0), ct.bid(1)
    t = ct.load(x, index=(j, i), shape=(TN, TM), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(j, i), tile=t + 1.0)


@pytest.mark.parametrize("M,N,TM,TN", [(13, 7, 4, 8), (5, 33, 16, 2), (1, 9, 8, 8)])
def test_tile_index_maps_and_order_on_strided_views(rng, M, N, TM, TN):
    big = rng.standard_normal((2 * M, 3 * N)).astype(np.float32)
    nm, nn = -(-M // TM), -(-N // TN)
    for x in (big[::2, 1::3], big[::-2, :N], np.asfortranarray(big[:M, :N])):
        for mode in (0, 1, 2):
            y = np.zeros((M, N), np.float32, order="F")
            tc.launch(tile_map_copy, (nm * nn,), (x, y, TM, TN, mode))
            assert np.array_equal(y, x * 2)
        yt = np.zeros((N, M), np.float32)
        tc.launch(transpose_by_order, (-(-M // TM), -(-N // TN)), (x, yt, TM, TN))
        assert np.array_equal(yt, x.T + 1)


# -- conversions -------------------------------------------------------------------------------

_CT_DTYPES = {np.float16: ct.float16, np.float32: ct.float32, np.float64: ct.float64,
              np.int8: ct.int8, np.int16: ct.int16, np.int32: ct.int32, np.int64: ct.int64,
              np.uint8: ct.uint8, np.uint16: ct.uint16, np.uint32: ct.uint32,
              np.uint64: ct.uint64, np.bool_: ct.bool_}


def _astype_kernel(dtype):
    @ct.kernel
    def astype_kernel(x, y, T: ConstInt):
        b = ct.bid(0)
        ct.store(y, index=(b,), tile=ct.astype(ct.load(x, index=(b,), shape=(T,)), dtype))
    return astype_kernel


_ASTYPE = {np.dtype(k): _astype_kernel(v) for k, v in _CT_DTYPES.items()}


def _ref_convert(x: np.ndarray, dst: np.dtype) -> np.ndarray:
    """Spec conversions: float -> int truncates and saturates (NaN -> 0; bool is the unsigned
    1-bit case), int -> int wraps, int -> bool is ``!= 0``, -> float rounds to nearest even."""
    if x.dtype.kind == "f" and dst.kind in "iub":
        if dst.kind == "b":
            lo, hi = 0, 1
        else:
            info = np.iinfo(dst)
            lo, hi = int(info.min), int(info.max)
        out = [0 if math.isnan(v) else
               hi if v >= hi else lo if v <= lo else int(v)      # int() truncates
               for v in x.astype(np.float64).tolist()]
        return np.array(out, dtype=np.int64 if dst.kind != "u" else np.uint64).astype(dst)
    if dst.kind == "b":
        return x != 0
    with np.errstate(all="ignore"):
        return x.astype(dst)     # NumPy: wrap-around ints, nearest-even floats


_CONVERT_SOURCES = {
    np.float16: [0, -0.0, 1.5, -1.5, 2.5, -2.5, 65504, -65504, np.inf, -np.inf, np.nan, 0.49,
                 300, -300, 1e-7, 127.9],
    np.float32: [0, -0.0, 1.5, -1.5, 2.5, -2.5, 3e9, -3e9, np.inf, -np.inf, np.nan, 2.0**31,
                 -2.0**31, 2.0**63, 1e-40, 70000.5],
    np.float64: [0, -0.0, 1.5, -1.5, 2.5, -2.5, 3e9, -3e9, np.inf, -np.inf, np.nan, 2.0**31,
                 2.0**64, -2.0**63, 1e-310, 65520.0],
    np.int8: [0, 1, -1, 127, -128, 5, -5, 100, -100, 3, 2, 1, 0, 64, -64, 7],
    np.int64: [0, 1, -1, 2**63 - 1, -2**63, 2**31, -2**31 - 1, 2**53 + 1, 65535, 65536, -65536,
               255, 256, 2**24 + 1, -(2**24 + 1), 7],
    np.uint64: [0, 1, 2**64 - 1, 2**63, 2**63 - 1, 255, 256, 65535, 65536, 2**53 + 1,
                2**24 + 3, 7, 8, 9, 10, 11],
    np.bool_: [0, 1] * 8,
}


@pytest.mark.parametrize("src", list(_CONVERT_SOURCES), ids=lambda d: np.dtype(d).name)
def test_astype_between_every_pair_of_dtypes(src):
    x = np.array(_CONVERT_SOURCES[src], dtype=src)
    for dst in _ASTYPE:
        y = np.zeros(16, dst)
        tc.launch(_ASTYPE[dst], (2,), (x, y, 8))
        want = _ref_convert(x, dst)
        if dst.kind == "f":
            assert np.array_equal(y, want, equal_nan=True), (src, dst, y, want)
            assert np.array_equal(np.signbit(y), np.signbit(want)) or np.isnan(y).any()
            assert np.array_equal(np.signbit(y[~np.isnan(y)]), np.signbit(want[~np.isnan(y)]))
        else:
            assert np.array_equal(y, want), (src, dst, y, want)


# -- integer arithmetic ------------------------------------------------------------------------

@ct.kernel
def int_arith(x, y, q, r, shl, shr, mix, T: ConstInt):
    a = ct.load(x, index=(0,), shape=(T,))
    b = ct.load(y, index=(0,), shape=(T,))
    ct.store(q, index=(0,), tile=a // b)
    ct.store(r, index=(0,), tile=a % b)
    ct.store(shl, index=(0,), tile=a << (b & 7))
    ct.store(shr, index=(0,), tile=a >> (b & 7))
    ct.store(mix, index=(0,), tile=(a ^ b) | (~a & b))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64])
def test_signed_integer_floor_division_modulo_and_shifts(rng, dtype):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, 16, dtype=dtype, endpoint=True)
    y = rng.integers(info.min, info.max, 16, dtype=dtype, endpoint=True)
    y[y == 0] = 3
    x[:4] = [info.min, -7, 7, -7]
    y[:4] = [7, 2, -2, -2]
    outs = [np.zeros(16, dtype) for _ in range(5)]
    tc.launch(int_arith, (1,), (x, y, *outs, 16))
    s = (y & 7).astype(dtype)
    with np.errstate(all="ignore"):
        want = [x // y, x % y, x << s, x >> s, (x ^ y) | (~x & y)]
    for got, w in zip(outs, want):
        assert np.array_equal(got, w)


# -- gather / scatter / atomics -----------------------------------------------------------------

@ct.kernel
def gather_outer(x, rows, cols, out, T: ConstInt):
    r = ct.reshape(ct.load(rows, index=(0,), shape=(T,)), (T, 1))
    c = ct.reshape(ct.load(cols, index=(0,), shape=(T,)), (1, T))
    ct.store(out, index=(0, 0), tile=ct.gather(x, (r, c), padding_value=-7.0))


def test_2d_gather_with_out_of_range_indices_pads():
    x = np.arange(30, dtype=np.float32).reshape(6, 5)
    rows = np.array([0, 5, 6, -1, 2, 100, 3, 1], np.int32)
    cols = np.array([4, 0, 5, -1, 1, 2, 3, 7], np.int32)
    out = np.zeros((8, 8), np.float32)
    tc.launch(gather_outer, (1,), (x, rows, cols, out, 8))
    ok = ((rows >= 0) & (rows < 6))[:, None] & ((cols >= 0) & (cols < 5))[None, :]
    want = np.where(ok, x[np.clip(rows, 0, 5)[:, None], np.clip(cols, 0, 4)[None, :]], -7.0)
    assert np.array_equal(out, want)


@ct.kernel
def masked_scatter(x, idx, out, T: ConstInt):
    v = ct.load(x, index=(0,), shape=(T,))
    i = ct.load(idx, index=(0,), shape=(T,))
    ct.scatter(out, i, v, mask=v > 0)


def test_masked_scatter_skips_masked_and_out_of_range():
    x = np.array([1, -2, 3, 4, 5, -6, 7, 8], np.float32)
    idx = np.array([0, 1, 9, -1, 4, 5, 6, 2], np.int64)
    out = np.zeros(7, np.float32)
    tc.launch(masked_scatter, (1,), (x, idx, out, 8))
    assert np.array_equal(out, [1, 0, 8, 0, 5, 0, 7])


@ct.kernel
def split_k_matmul(A, B, Cm, TM: ConstInt, TN: ConstInt, TK: ConstInt, SPLITS: ConstInt):
    bm, bn, bk = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(bk, ct.num_tiles(A, axis=1, shape=(TM, TK)), SPLITS):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    rows = bm * TM + ct.arange(TM, dtype=ct.int32)
    cols = bn * TN + ct.arange(TN, dtype=ct.int32)
    ct.atomic_add(Cm, (rows[:, None], cols[None, :]), acc)


@pytest.mark.parametrize("mma", ["fast", "exact"])
def test_split_k_matmul_with_atomic_add(rng, mma):
    M, N, K, splits = 20, 12, 70, 3
    A = rng.standard_normal((M, K)).astype(np.float16)
    B = rng.standard_normal((K, N)).astype(np.float16)
    Cm = np.zeros((M, N), np.float32)
    tc.launch(split_k_matmul, (2, 1, splits), (A, B, Cm, 16, 16, 16, splits), mma=mma)
    a, b = A.astype(np.float64), B.astype(np.float64)
    # each split's partial sum within the mma bound, plus the f32 atomic additions
    bound = (K + 1 + 2 * splits) * 2.0**-24 * (np.abs(a) @ np.abs(b))
    assert np.all(np.abs(Cm - a @ b) <= bound)


@ct.kernel
def int8_matmul(A, B, Cm, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.full((TM, TN), 0, dtype=ct.int32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(Cm, index=(bm, bn), tile=acc)


@pytest.mark.parametrize("b_dtype", [np.int8, np.uint8])
def test_int8_matmul_with_edge_tiles(rng, b_dtype):
    M, N, K = 19, 21, 45
    A = rng.integers(-128, 128, (M, K)).astype(np.int8)
    B = rng.integers(np.iinfo(b_dtype).min, np.iinfo(b_dtype).max + 1, (K, N)).astype(b_dtype)
    Cm = np.zeros((M, N), np.int32)
    tc.launch(int8_matmul, (2, 2), (A, B, Cm, 16, 16, 32))
    assert np.array_equal(Cm, A.astype(np.int64) @ B.astype(np.int64))


# -- model kernels -----------------------------------------------------------------------------

@ct.kernel
def causal_attention(Q, K, V, O, scale: float, TM: ConstInt, TN: ConstInt, D: ConstInt):
    bm, h = ct.bid(0), ct.bid(1)
    q = ct.reshape(ct.load(Q, index=(h, bm, 0), shape=(1, TM, D)), (TM, D))
    m_i = ct.full((TM, 1), -math.inf, dtype=ct.float32)
    l_i = ct.full((TM, 1), 0.0, dtype=ct.float32)
    acc = ct.full((TM, D), 0.0, dtype=ct.float32)
    offs_m = bm * TM + ct.arange(TM, dtype=ct.int32)
    for j in range(ct.cdiv((bm + 1) * TM, TN)):        # per-block trip count
        k = ct.reshape(ct.load(K, index=(h, 0, j), shape=(1, D, TN), order=(0, 2, 1)), (D, TN))
        s = ct.mma(q, k, ct.full((TM, TN), 0.0, dtype=ct.float32)) * scale
        offs_n = j * TN + ct.arange(TN, dtype=ct.int32)
        s = ct.where(offs_m[:, None] >= offs_n[None, :], s, -math.inf)
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.reshape(ct.load(V, index=(h, j, 0), shape=(1, TN, D)), (TN, D))
        acc = ct.mma(p.astype(V.dtype), v, acc * alpha)
        m_i = m_new
    ct.store(O, index=(h, bm, 0), tile=ct.reshape((acc / l_i).astype(O.dtype), (1, TM, D)))


def test_causal_flash_attention(rng):
    H, S, D = 2, 64, 16
    Q, K, V = (rng.standard_normal((H, S, D)).astype(np.float16) for _ in range(3))
    O = np.zeros_like(Q)
    scale = 1 / math.sqrt(D)
    tc.launch(causal_attention, (S // 16, H), (Q, K, V, O, scale, 16, 16, D))
    q, k, v = (t.astype(np.float64) for t in (Q, K, V))
    s = np.where(np.tril(np.ones((S, S), bool)), q @ k.transpose(0, 2, 1) * scale, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    want = (p / p.sum(-1, keepdims=True)) @ v
    assert np.abs(O - want).max() < 1e-2      # P is rounded to f16 before P @ V


@ct.kernel
def rope(x, cos, sin, y, D2: ConstInt):
    b, s, h = ct.bid(0), ct.bid(1), ct.bid(2)
    x1 = ct.load(x, index=(b, s, h, 0), shape=(1, 1, 1, D2)).astype(ct.float32)
    x2 = ct.load(x, index=(b, s, h, 1), shape=(1, 1, 1, D2)).astype(ct.float32)
    c = ct.reshape(ct.load(cos, index=(s, 0), shape=(1, D2)), (1, 1, 1, D2)).astype(ct.float32)
    sn = ct.reshape(ct.load(sin, index=(s, 0), shape=(1, D2)), (1, 1, 1, D2)).astype(ct.float32)
    ct.store(y, index=(b, s, h, 0), tile=(x1 * c - x2 * sn).astype(y.dtype))
    ct.store(y, index=(b, s, h, 1), tile=(x2 * c + x1 * sn).astype(y.dtype))


def test_rope_on_4d_half_tensors(rng):
    B, S, H, D = 2, 5, 3, 16
    x = rng.standard_normal((B, S, H, D)).astype(np.float16)
    ang = rng.standard_normal((S, D // 2))
    cs, sn = np.cos(ang).astype(np.float16), np.sin(ang).astype(np.float16)
    y = np.zeros_like(x)
    tc.launch(rope, (B, S, H), (x, cs, sn, y, D // 2))
    x1, x2 = x[..., :D // 2].astype(np.float64), x[..., D // 2:].astype(np.float64)
    c, s = cs[None, :, None].astype(np.float64), sn[None, :, None].astype(np.float64)
    want = np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], -1)
    assert np.abs(y - want).max() <= 2.0**-9 * np.abs(want).max()


@ct.kernel
def layer_norm_dx(X, DY, W, Mean, Rstd, DX, N: ConstInt, TN: ConstInt):
    r = ct.bid(0)
    x = ct.load(X, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    dy = ct.load(DY, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    w = ct.reshape(ct.load(W, index=(0,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO),
                   (1, TN))
    mean = ct.load(Mean, index=(r,), shape=(1,))
    rstd = ct.load(Rstd, index=(r,), shape=(1,))
    xhat = ct.where(ct.arange(TN, dtype=ct.int32)[None, :] < N, (x - mean) * rstd, 0.0)
    wdy = w * dy
    c1 = ct.sum(xhat * wdy, axis=1, keepdims=True) / N
    c2 = ct.sum(wdy, axis=1, keepdims=True) / N
    ct.store(DX, index=(r, 0), tile=(wdy - (xhat * c1 + c2)) * rstd)


def test_layer_norm_backward_dx(rng):
    M, N = 5, 37
    X, DY = (rng.standard_normal((M, N)).astype(np.float32) for _ in range(2))
    W = rng.standard_normal(N).astype(np.float32)
    mean = X.mean(1, dtype=np.float64)
    rstd = 1 / np.sqrt(X.var(1, dtype=np.float64) + 1e-5)
    DX = np.zeros_like(X)
    tc.launch(layer_norm_dx, (M,), (X, DY, W, mean.astype(np.float32), rstd.astype(np.float32),
                                    DX, N, 64))
    xh = (X - mean[:, None]) * rstd[:, None]
    wdy = W.astype(np.float64) * DY
    want = (wdy - (xh * (xh * wdy).mean(1, keepdims=True) + wdy.mean(1, keepdims=True))) \
        * rstd[:, None]
    assert np.abs(DX - want).max() < 1e-4


# -- check_bounds=False: the tile must lie inside the array ----------------------------------

@ct.kernel
def unchecked_copy(x, y, T: ConstInt):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,), check_bounds=False)
    ct.store(y, index=(b,), tile=t, check_bounds=False)


@ct.kernel
def unchecked_store(x, y, T: ConstInt):
    b = ct.bid(0)
    ct.store(y, index=(b,), tile=ct.load(x, index=(b,), shape=(T,)), check_bounds=False)


@ct.kernel
def unchecked_matmul(A, B, Cm, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), check_bounds=False)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), check_bounds=False)
        acc = ct.mma(a, b, acc)
    ct.store(Cm, index=(bm, bn), tile=acc)


def test_unchecked_accesses_inside_the_array_run(rng):
    x = rng.standard_normal(32).astype(np.float32)
    y = np.zeros_like(x)
    tc.launch(unchecked_copy, (4,), (x, y, 8))
    assert np.array_equal(y, x)
    A = rng.standard_normal((32, 64)).astype(np.float16)
    B = rng.standard_normal((64, 32)).astype(np.float16)
    Cm = np.zeros((32, 32), np.float32)
    tc.launch(unchecked_matmul, (2, 2), (A, B, Cm, 16, 16, 16), mma="exact")
    a, b = A.astype(np.float64), B.astype(np.float64)
    # every mma (one per K tile) rounds its f32 result once
    assert np.all(np.abs(Cm - a @ b) <= 4 * 2.0**-24 * (np.abs(a) @ np.abs(b)))


def test_unchecked_load_crossing_the_edge_is_reported():
    # check_bounds=False exports `inbounds = [true]`: a tile that crosses the array's edge is
    # undefined behaviour (a GPU reads or writes past the array), not a padded tile
    x = np.arange(12, dtype=np.float32)
    y = np.zeros(12, np.float32)
    with pytest.raises(UndefinedBehaviorError, match=r"tile elements \[8, 16\) along dimension 0 "
                       r"cross the tensor's edge at 12.*tile block \(1, 0, 0\)"):
        tc.launch(unchecked_copy, (2,), (x, y, 8))
    with pytest.raises(UndefinedBehaviorError, match="inbounds"):
        tc.launch(unchecked_store, (2,), (x, y, 8))
    assert not y[8:].any()      # block 1 stored nothing


@pytest.mark.parametrize("mma", ["fast", "exact"])
@pytest.mark.parametrize("M,K", [(32, 40), (30, 64)])
def test_unchecked_matmul_past_the_edge_is_reported(rng, mma, M, K):
    A = rng.standard_normal((M, K)).astype(np.float16)
    B = rng.standard_normal((K, 32)).astype(np.float16)
    Cm = np.zeros((M, 32), np.float32)
    with pytest.raises(UndefinedBehaviorError, match="cross the tensor's edge"):
        tc.launch(unchecked_matmul, (2, 2), (A, B, Cm, 16, 16, 16), mma=mma)


# -- signaling NaN operands of maximum / minimum -----------------------------------------------

@ct.kernel
def clamp_kernel(x, hi, lo, T: ConstInt):
    b = ct.bid(0)
    a = ct.load(x, index=(b,), shape=(T,))
    ct.store(hi, index=(b,), tile=ct.maximum(a, 0.0))
    ct.store(lo, index=(b,), tile=ct.minimum(a, 0.0))


@pytest.mark.parametrize("dtype,bits", [
    (np.float32, [0x7F800001, 0xFF800001, 0x7FC00001, 0x7FBFFFFF]),
    (np.float64, [0x7FF0000000000001, 0xFFF0000000000001, 0x7FF8000000000001,
                  0x7FF7FFFFFFFFFFFF]),
    (np.float16, [0x7C01, 0xFC01, 0x7E01, 0x7DFF])])
@pytest.mark.parametrize("blocks", [1, 3])
@pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")
def test_maximum_number_ignores_signaling_nan(dtype, bits, blocks):
    # maxf/minf without propagate_nan are IEEE 754-2019 maximumNumber/minimumNumber: a NaN
    # operand, signaling or quiet, is ignored (C's fmax, 754-2008 maxNum, gives NaN for sNaN)
    u = np.dtype(f"u{np.dtype(dtype).itemsize}")
    xb = np.tile(np.array([0] * 4 + [1] * 4, dtype=u), blocks)
    xb[:4] = bits
    xb[4:8] = np.array([2.0, -3.0, -0.0, 5.0], dtype=dtype).view(u)
    x = xb.view(dtype)
    hi, lo = np.full_like(x, 7), np.full_like(x, 7)
    tc.launch(clamp_kernel, (blocks,), (x, hi, lo, 8))
    nan = np.isnan(x)
    xs = np.where(nan, 0, x)
    want_hi = np.where(xs > 0, xs, 0).astype(dtype)                 # max(-0, +0) = +0
    want_lo = np.where(xs < 0, xs, np.where(np.signbit(xs), -0.0, 0.0)).astype(dtype)
    assert np.array_equal(hi.view(u), want_hi.view(u))
    assert np.array_equal(lo.view(u), want_lo.view(u))
