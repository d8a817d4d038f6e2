"""cuTile Python kernels (NVIDIA's sample style) launched on the CPU with tileir.cutile.launch,
checked against NumPy."""

from __future__ import annotations

import io

import ml_dtypes
import numpy as np
import pytest

from ctutil import rel_err, require_cutile, tf32

ct = require_cutile()

import tileir.cutile as tc  # noqa: E402
import cpu_kernels as K  # noqa: E402


# ------------------------------------------------------------------------------ elementwise

@pytest.mark.parametrize("n", [1000, 4096, 1, 100_003])
def test_vector_add_non_multiple_size(rng, n):
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = np.zeros_like(a)
    tile = 256
    tc.launch(K.vec_add_kernel_1d, (ct.cdiv(n, tile),), (a, b, c, tile))
    np.testing.assert_array_equal(c, a + b)


def test_vector_add_2d(rng):
    a = rng.standard_normal((100, 70)).astype(np.float16)
    b = rng.standard_normal((100, 70)).astype(np.float16)
    c = np.zeros_like(a)
    tc.launch(K.vec_add_kernel_2d, (ct.cdiv(100, 32), ct.cdiv(70, 16)), (a, b, c, 32, 16))
    np.testing.assert_array_equal(c, a + b)


def test_vector_add_gather_scatter(rng):
    n = 777
    a = rng.standard_normal(n).astype(np.float64)
    b = rng.standard_normal(n).astype(np.float64)
    c = np.zeros_like(a)
    tc.launch(K.vec_add_kernel_1d_gather, (ct.cdiv(n, 128),), (a, b, c, 128))
    np.testing.assert_array_equal(c, a + b)


def test_runtime_scalars(rng):
    n = 1000
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, 7.0, dtype=np.float32)
    tc.launch(K.axpby_kernel, (ct.cdiv(n, 128),), (x, y, out, 2.5, -0.5, 900, 128))
    want = np.float32(2.5) * x + np.float32(-0.5) * y
    np.testing.assert_allclose(out[:900], want[:900], rtol=1e-6, atol=1e-6)   # fma contraction
    assert (out[900:] == 7.0).all()        # masked scatter left the tail alone


def test_scalar_kinds(rng):
    x = rng.standard_normal(64).astype(np.float32)
    y = np.zeros(64, dtype=np.float64)
    tc.launch(K.scale_shift_kernel, (2,), (x, y, 0.5, 2 ** 40, True, 32))
    np.testing.assert_allclose(y, -(x.astype(np.float64) * 0.5 + 2.0 ** 40), rtol=1e-7)
    tc.launch(K.scale_shift_kernel, (2,), (x, y, 0.5, -3, False, 32))
    np.testing.assert_allclose(y, x * np.float32(0.5) - 3, rtol=1e-6)


def test_dtypes_bf16_f8_f64_u8(rng):
    tile = 64
    x = rng.standard_normal(2 * tile).astype(ml_dtypes.bfloat16)
    y = np.zeros(2 * tile, dtype=ml_dtypes.float8_e4m3fn)
    z = np.zeros(2 * tile, dtype=np.float64)
    w = np.zeros(2 * tile, dtype=np.uint8)
    tc.launch(K.dtype_convert_kernel, (2,), (x, y, z, w, tile))
    np.testing.assert_array_equal(y, x.astype(np.float32).astype(ml_dtypes.float8_e4m3fn))
    np.testing.assert_array_equal(z, x.astype(np.float64) * 1.5)
    np.testing.assert_array_equal(w, (x.astype(np.float32) > 0).astype(np.uint8) + 200)


# ------------------------------------------------------------------------------ matmul

def test_matmul_f16_to_f32(rng):
    M, N, Kd = 200, 96, 160               # M is not a multiple of the tile
    A = rng.standard_normal((M, Kd)).astype(np.float16)
    B = rng.standard_normal((Kd, N)).astype(np.float16)
    C = np.zeros((M, N), dtype=np.float32)
    tm, tn, tk = 64, 32, 32
    tc.launch(K.matmul_kernel, (ct.cdiv(M, tm) * ct.cdiv(N, tn),), (A, B, C, tm, tn, tk))
    want = A.astype(np.float64) @ B.astype(np.float64)
    assert rel_err(C, want) < 1e-5


def test_matmul_f32_through_tf32(rng):
    M, N, Kd = 96, 64, 128
    A = rng.standard_normal((M, Kd)).astype(np.float32)
    B = rng.standard_normal((Kd, N)).astype(np.float32)
    C = np.zeros((M, N), dtype=np.float32)
    tm, tn, tk = 32, 32, 32
    tc.launch(K.matmul_kernel, (ct.cdiv(M, tm) * ct.cdiv(N, tn),), (A, B, C, tm, tn, tk))
    want_tf32 = tf32(A).astype(np.float64) @ tf32(B).astype(np.float64)
    want_f32 = A.astype(np.float64) @ B.astype(np.float64)
    err_tf32 = rel_err(C, want_tf32)
    assert err_tf32 < 1e-5                           # accumulation error only
    assert rel_err(C, want_f32) > 20 * err_tf32      # the inputs really were rounded to tf32


def test_batched_matmul(rng):
    Bt, M, N, Kd = 3, 64, 48, 80
    A = rng.standard_normal((Bt, M, Kd)).astype(np.float16)
    B = rng.standard_normal((Bt, Kd, N)).astype(np.float16)
    C = np.zeros((Bt, M, N), dtype=np.float32)
    tm, tn, tk = 32, 16, 32
    tc.launch(K.batch_matmul_kernel, (Bt, ct.cdiv(M, tm), ct.cdiv(N, tn)), (A, B, C, tm, tn, tk))
    want = A.astype(np.float64) @ B.astype(np.float64)
    assert rel_err(C, want) < 1e-5


def test_grouped_matmul_over_lists_of_arrays(rng):
    shapes = [(64, 32, 48), (32, 64, 16), (96, 40, 32)]       # (M, N, K) per problem
    As = [rng.standard_normal((m, k)).astype(np.float16) for m, n, k in shapes]
    Bs = [rng.standard_normal((k, n)).astype(np.float16) for m, n, k in shapes]
    Cs = [np.zeros((m, n), dtype=np.float32) for m, n, k in shapes]
    tc.launch(K.grouped_matmul_kernel, (4,), (As, Bs, Cs, 4, 32, 32, 16))
    for A, B, C in zip(As, Bs, Cs):
        assert rel_err(C, A.astype(np.float64) @ B.astype(np.float64)) < 1e-5


# ------------------------------------------------------------------------------ transpose

@pytest.mark.parametrize("kernel", ["transpose_kernel", "transpose_order_kernel"])
def test_transpose(rng, kernel):
    x = rng.standard_normal((70, 100)).astype(np.float32)
    y = np.zeros((100, 70), dtype=np.float32)
    tm, tn = 32, 16
    tc.launch(getattr(K, kernel), (ct.cdiv(70, tm), ct.cdiv(100, tn)), (x, y, tm, tn))
    np.testing.assert_array_equal(y, x.T)


# ------------------------------------------------------------------------------ softmax, norms

def test_softmax(rng):
    x = (rng.standard_normal((33, 200)) * 3).astype(np.float16)
    y = np.zeros_like(x)
    tc.launch(K.softmax_kernel, (33,), (x, y, 256))
    xf = x.astype(np.float64)
    e = np.exp(xf - xf.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(y.astype(np.float64), want, atol=1e-3, rtol=1e-2)
    np.testing.assert_allclose(y.astype(np.float64).sum(axis=1), 1.0, atol=2e-2)


def test_layer_norm_forward(rng):
    M, N = 12, 300
    X = rng.standard_normal((M, N)).astype(np.float32) * 2 + 1
    W = rng.standard_normal(N).astype(np.float32)
    B = rng.standard_normal(N).astype(np.float32)
    Y = np.zeros_like(X)
    mean = np.zeros(M, dtype=np.float32)
    rstd = np.zeros(M, dtype=np.float32)
    eps = 1e-5
    tc.launch(K.layer_norm_fwd, (M,), (X, W, B, Y, mean, rstd, eps, 128))
    mu = X.astype(np.float64).mean(axis=1)
    var = X.astype(np.float64).var(axis=1)
    want = (X - mu[:, None]) / np.sqrt(var[:, None] + eps) * W + B
    np.testing.assert_allclose(mean, mu, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, 1 / np.sqrt(var + eps), rtol=1e-5)
    np.testing.assert_allclose(Y, want, rtol=1e-4, atol=1e-5)


def test_layer_norm_backward_with_spin_lock(rng):
    M, N, GROUP = 16, 96, 4
    X = rng.standard_normal((M, N)).astype(np.float32)
    W = rng.standard_normal(N).astype(np.float32)
    DY = rng.standard_normal((M, N)).astype(np.float32)
    mu = X.mean(axis=1).astype(np.float32)
    rs = (1 / np.sqrt(X.var(axis=1) + 1e-5)).astype(np.float32)
    DX = np.zeros_like(X)
    DW = np.zeros((GROUP, N), dtype=np.float32)
    DB = np.zeros((GROUP, N), dtype=np.float32)
    locks = np.zeros(GROUP, dtype=np.int32)
    tc.launch(K.layer_norm_bwd_dx_partial_dwdb, (M,), (DX, DY, DW, DB, X, W, mu, rs, locks, 64))
    xhat = (X - mu[:, None]) * rs[:, None]
    wdy = W * DY
    c1 = (xhat * wdy).mean(axis=1, keepdims=True)
    c2 = wdy.mean(axis=1, keepdims=True)
    np.testing.assert_allclose(DX, (wdy - (xhat * c1 + c2)) * rs[:, None], rtol=1e-4, atol=1e-5)
    groups = np.arange(M) % GROUP
    want_dw = np.stack([(DY * xhat)[groups == g].sum(axis=0) for g in range(GROUP)])
    want_db = np.stack([DY[groups == g].sum(axis=0) for g in range(GROUP)])
    np.testing.assert_allclose(DW, want_dw, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(DB, want_db, rtol=1e-4, atol=1e-5)
    assert (locks == 0).all()


# ------------------------------------------------------------------------------ attention

def _attention_ref(Q, K_, V, scale, causal):
    q, k, v = (t.astype(np.float64) for t in (Q, K_, V))
    s = q @ np.swapaxes(k, -1, -2) * scale
    if causal:
        S = s.shape[-1]
        s = np.where(np.tril(np.ones((s.shape[-2], S), dtype=bool)), s, -np.inf)
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    return (p / p.sum(axis=-1, keepdims=True)) @ v


@pytest.mark.parametrize("causal", [True, False])
def test_attention_forward(rng, causal):
    Bt, H, S, D = 2, 2, 64, 32
    TM = TN = 32
    Q = rng.standard_normal((Bt, H, S, D)).astype(np.float16)
    Kx = rng.standard_normal((Bt, H, S, D)).astype(np.float16)
    V = rng.standard_normal((Bt, H, S, D)).astype(np.float16)
    out = np.zeros_like(Q)
    scale = 1.0 / np.sqrt(D)
    # K is (B, H, S, D); the kernel loads its tiles transposed through order=(0, 1, 3, 2)
    tc.launch(K.fmha_kernel, (ct.cdiv(S, TM), Bt * H, 1),
              (Q, Kx, V, out, scale, 0, D, H, TM, TN, 1, causal, True))
    want = _attention_ref(Q, Kx, V, scale, causal)
    np.testing.assert_allclose(out.astype(np.float64), want, atol=2e-2, rtol=2e-2)


# ------------------------------------------------------------------------------ reduce, scan

def test_reductions_and_custom_reduce(rng):
    T = 32
    x = rng.standard_normal((4 * T, T)).astype(np.float32)
    s, m, ss = (np.zeros(4 * T, dtype=np.float32) for _ in range(3))
    am = np.zeros(4 * T, dtype=np.int32)
    tc.launch(K.row_stats_kernel, (4,), (x, s, m, am, ss, T))
    np.testing.assert_allclose(s, x.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(m, x.max(axis=1))
    np.testing.assert_array_equal(am, x.argmax(axis=1))
    np.testing.assert_allclose(ss, (x * x).sum(axis=1), rtol=1e-5)


def test_custom_reduce_over_a_pair(rng):
    T = 64
    x = rng.integers(-5, 5, 4 * T).astype(np.float32)    # many ties: first index wins
    mv = np.zeros(4, dtype=np.float32)
    mi = np.zeros(4, dtype=np.int32)
    tc.launch(K.argmin_reduce_kernel, (4,), (x, mv, mi, T))
    np.testing.assert_array_equal(mv, x.reshape(4, T).min(axis=1))
    np.testing.assert_array_equal(mi, x.reshape(4, T).argmin(axis=1))


def test_cumsum_cumprod_and_custom_scan(rng):
    T = 32
    x = (rng.random(4 * T) + 0.5).astype(np.float32)
    a, b, c = (np.zeros_like(x) for _ in range(3))
    tc.launch(K.scan_kernel, (4,), (x, a, b, c, T))
    xr = x.reshape(4, T).astype(np.float64)
    np.testing.assert_allclose(a, np.cumsum(xr, axis=1).ravel(), rtol=1e-5)
    np.testing.assert_allclose(b, np.cumprod(xr[:, ::-1], axis=1)[:, ::-1].ravel(), rtol=1e-5)
    np.testing.assert_array_equal(c, np.maximum.accumulate(x.reshape(4, T), axis=1).ravel())


def test_cumsum_2d(rng):
    x = rng.integers(-100, 100, (8, 16)).astype(np.int32)
    y = np.zeros_like(x)
    tc.launch(K.cumsum_2d_kernel, (2,), (x, y, 4, 16))
    np.testing.assert_array_equal(y, np.cumsum(x, axis=1))


# ------------------------------------------------------------------------------ atomics

def test_atomic_histogram(rng):
    data = rng.integers(0, 1000, 4096).astype(np.int32)
    hist = np.zeros(16, dtype=np.int32)
    tc.launch(K.histogram_kernel, (4096 // 256,), (data, hist, 16, 256))
    np.testing.assert_array_equal(hist, np.bincount(data % 16, minlength=16))


def test_atomic_add_max_min_xchg():
    nblocks = 37
    counters = np.array([0, -1, 1000, -1], dtype=np.int32)
    tc.launch(K.atomic_counters_kernel, (nblocks,), (counters, 1))
    assert counters[0] == nblocks
    assert counters[1] == nblocks - 1
    assert counters[2] == 0
    assert 0 <= counters[3] < nblocks


def test_atomic_float_add(rng):
    T = 16
    acc = np.zeros(T, dtype=np.float32)
    data = rng.integers(-8, 8, 6 * T).astype(np.float32)   # exact in any order
    tc.launch(K.atomic_float_sum_kernel, (6,), (acc, data, T))
    np.testing.assert_array_equal(acc, data.reshape(6, T).sum(axis=0))


# ------------------------------------------------------------------------------ gather, scatter

def test_gather_with_padding_and_scatter(rng):
    T = 32
    src = rng.standard_normal(100).astype(np.float32)
    idx = rng.integers(-5, 110, 4 * T).astype(np.int32)
    dst = np.zeros(4 * T, dtype=np.float32)
    tc.launch(K.gather_scatter_kernel, (4,), (src, idx, dst, T))
    inside = (idx >= 0) & (idx < 100)
    np.testing.assert_array_equal(dst, np.where(inside, src[np.clip(idx, 0, 99)], -1.0))


def test_scatter_2d(rng):
    M, N = 8, 16
    src = rng.standard_normal((M, N)).astype(np.float32)
    perm = rng.permutation(M).astype(np.int32)
    dst = np.zeros_like(src)
    tc.launch(K.permute_rows_kernel, (M,), (src, perm, dst, N))
    want = np.zeros_like(src)
    want[perm] = src
    np.testing.assert_array_equal(dst, want)


def test_gather_2d(rng):
    T = 8
    src = rng.standard_normal((T, 3 * T)).astype(np.float32)
    dst = np.zeros((2 * T, T), dtype=np.float32)
    tc.launch(K.sliding_window_kernel, (2,), (src, dst, T))
    np.testing.assert_array_equal(dst, np.concatenate([src[:, b:b + T] for b in range(2)]))


# ------------------------------------------------------------------------------ control flow

def test_loop_trip_count_depends_on_block_id(rng):
    T, nb = 16, 8
    x = rng.standard_normal(nb * T).astype(np.float32)
    y = np.zeros_like(x)
    tc.launch(K.prefix_blocks_kernel, (nb,), (x, y, T))
    xr = x.reshape(nb, T)
    want = []
    for b in range(nb):
        acc = np.zeros(T, dtype=np.float32)
        for i in range(b + 1):
            acc = acc + xr[i]
        acc = acc * np.float32(2) if b % 2 == 0 else acc - np.float32(1)
        n = b
        while n > 0:
            acc = acc + np.float32(0.5)
            n //= 2
        want.append(acc)
    np.testing.assert_array_equal(y, np.concatenate(want))


def test_loop_break_continue(rng):
    T, nb, limit = 16, 8, 40
    x = rng.standard_normal(4 * T).astype(np.float32)
    y = np.zeros(nb * T, dtype=np.float32)
    tc.launch(K.loop_break_kernel, (nb,), (x, y, limit, T))
    xr = x.reshape(4, T)
    for b in range(nb):
        acc = np.zeros(T, dtype=np.float32)
        for i in range(0, 100, 3):
            if i > limit:
                break
            if i == b:
                continue
            acc = acc + xr[i % 4]
        np.testing.assert_array_equal(y[b * T:(b + 1) * T], acc)


def test_persistent_loop_over_num_blocks(rng):
    T, tiles = 16, 10
    x = rng.standard_normal(tiles * T).astype(np.float32)
    y = np.zeros_like(x)
    tc.launch(K.persistent_scale_kernel, (3,), (x, y, tiles, T))
    np.testing.assert_array_equal(y, x * 2)


# ------------------------------------------------------------------------------ printing, assert

def test_printf_goes_to_stdout(rng):
    x = np.arange(16, dtype=np.float32)
    out = io.StringIO()
    tc.launch(K.print_kernel, (2,), (x, 8), stdout=out)
    text = out.getvalue()
    assert "block 0: first=[0.000000, 1.000000" in text
    assert "block 1: first=[8.000000" in text


def test_assert_failure_is_reported():
    import tileir
    x = np.array([1, 2, -3, 4], dtype=np.float32)
    with pytest.raises(tileir.LaunchError, match="negative input"):
        tc.launch(K.assert_positive_kernel, (1,), (x, 4))
    tc.launch(K.assert_positive_kernel, (1,), (np.abs(x), 4))
