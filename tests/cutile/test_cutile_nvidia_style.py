"""Kernels written in the style of NVIDIA's cuTile Python test kernels and samples (RMSNorm,
a factorised complex DFT on interleaved real/imag data, MoE-style row gathers, split-K with a
lock, block-scaled MMA with swizzled scales, a GEMM over a list indexed by the block id),
launched on the CPU with tileir.cutile.launch and checked against float64 NumPy references.

The kernels are our own; they exercise the features those workloads rely on: persistent loops
over ct.num_blocks, Constant[float] parameters, tile extract/cat/permute/reshape, broadcasting
ct.matmul, scalar (shape=()) loads, order=... loads, gathers with out-of-range sentinel
indices, strided (non-contiguous) argument views, ct.mma_scaled with e8m0 scales."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from ctutil import rel_err, require_cutile

ct = require_cutile()

import tileir.cutile as tc  # noqa: E402
from tileir.execute import ArgumentError, UndefinedBehaviorError  # noqa: E402

ConstInt = ct.Constant[int]
ConstFloat = ct.Constant[float]
ZERO = ct.PaddingMode.ZERO

#: relative error allowed for results stored in each dtype (a few ulps of the output type)
OUT_TOL = {np.dtype(np.float32): 2e-5, np.dtype(np.float16): 4e-3,
           np.dtype(ml_dtypes.bfloat16): 3e-2}
FLOATS = [np.float32, np.float16, ml_dtypes.bfloat16]


def _tol(dtype) -> float:
    return OUT_TOL[np.dtype(dtype)]


# ============================================================================ RMS normalisation

@ct.kernel
def rmsnorm_tiles(x, w, y, inv_rms, N: ConstInt, eps: ConstFloat, TN: ConstInt):
    """One row per block; two passes over (1, TN) column tiles, the tail zero-padded."""
    row = ct.bid(0)
    n_tiles = ct.cdiv(x.shape[1], TN)
    sq = ct.zeros((1, TN), dtype=ct.float32)
    for j in range(n_tiles):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ZERO).astype(ct.float32)
        sq += t * t
    r = ct.rsqrt(ct.sum(sq, axis=1) / N + eps)
    ct.store(inv_rms, index=(row,), tile=r)
    for j in range(n_tiles):
        t = ct.load(x, index=(row, j), shape=(1, TN), padding_mode=ZERO).astype(ct.float32)
        g = ct.load(w, index=(j,), shape=(TN,), padding_mode=ZERO).astype(ct.float32)
        ct.store(y, index=(row, j), tile=(t * r * g).astype(y.dtype))


@ct.kernel
def rmsnorm_gather(x, w, y, inv_rms, N: ConstInt, eps: ConstFloat, TN: ConstInt):
    """The same with element gathers/scatters: indices past N read 0 and are not written."""
    row = ct.bid(0)
    cols = ct.arange(TN, dtype=ct.int32)
    sq = ct.zeros((TN,), dtype=ct.float32)
    for j in range(ct.cdiv(N, TN)):
        t = ct.gather(x, (row, j * TN + cols)).astype(ct.float32)
        sq += t * t
    r = ct.rsqrt(ct.sum(sq, axis=0) / N + eps)
    ct.scatter(inv_rms, row, r)
    for j in range(ct.cdiv(N, TN)):
        c = j * TN + cols
        t = ct.gather(x, (row, c)).astype(ct.float32) * r * ct.gather(w, c).astype(ct.float32)
        ct.scatter(y, (row, c), t.astype(y.dtype))


@ct.kernel
def rmsnorm_persistent(x, y, w, TM: ConstInt, TN: ConstInt, N: ConstInt, eps: ConstFloat):
    """Persistent blocks walk row tiles bid, bid + num_blocks, ...; the weight row is loaded
    once and sliced per column tile with Tile.extract."""
    n_row_tiles = ct.cdiv(x.shape[0], TM)
    weight = ct.load(w, index=(0,), shape=(N,)).astype(ct.float32)
    for rt in range(ct.bid(0), n_row_tiles, ct.num_blocks(0)):
        ssq = ct.full((TM, 1), 0.0, dtype=ct.float32)
        for j in range(N // TN):
            t = ct.load(x, index=(rt, j), shape=(TM, TN), padding_mode=ZERO).astype(ct.float32)
            ssq += ct.sum(t * t, axis=1, keepdims=True)
        scale = ct.rsqrt(ct.truediv(ssq, ct.full((TM, 1), float(N), dtype=ct.float32)) + eps)
        for j in range(N // TN):
            t = ct.load(x, index=(rt, j), shape=(TM, TN), padding_mode=ZERO).astype(ct.float32)
            out = t * scale * weight.extract((j,), (TN,))
            ct.store(y, index=(rt, j), tile=out.astype(y.dtype))


def _rms_ref(x, w, eps):
    xd = x.astype(np.float64)
    inv = 1.0 / np.sqrt((xd * xd).mean(axis=1) + eps)
    return xd * inv[:, None] * w.astype(np.float64), inv


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("M,N,TN", [(6, 300, 128), (3, 17, 32), (4, 64, 64)])
def test_rmsnorm_tiled_and_gathered(rng, dtype, M, N, TN):
    x = rng.standard_normal((M, N)).astype(dtype)
    w = rng.standard_normal(N).astype(dtype)
    eps = 1e-6
    want, inv = _rms_ref(x, w, eps)
    for kernel in (rmsnorm_tiles, rmsnorm_gather):
        y = np.zeros_like(x)
        r = np.zeros(M, dtype=np.float32)
        tc.launch(kernel, (M,), (x, w, y, r, N, eps, TN))
        assert rel_err(r, inv) < 2e-6, kernel
        assert rel_err(y, want) < _tol(dtype), kernel


@pytest.mark.parametrize("blocks,TM", [(1, 4), (2, 2), (5, 1)])
def test_rmsnorm_persistent_blocks(rng, blocks, TM):
    M, N, TN = 7, 128, 32          # M not a multiple of TM: the last row tile is padded
    x = rng.standard_normal((M, N)).astype(np.float16)
    w = rng.standard_normal(N).astype(np.float16)
    y = np.zeros_like(x)
    tc.launch(rmsnorm_persistent, (blocks,), (x, y, w, TM, TN, N, 1e-5))
    assert rel_err(y, _rms_ref(x, w, 1e-5)[0]) < _tol(np.float16)


def test_rmsnorm_on_a_strided_row_view(rng):
    base = rng.standard_normal((5, 3, 96)).astype(np.float32)
    x = base[:, 1, :]                                    # row stride 288 elements
    w = rng.standard_normal(96).astype(np.float32)
    y = np.zeros((5, 96), dtype=np.float32)
    r = np.zeros(5, dtype=np.float32)
    tc.launch(rmsnorm_tiles, (5,), (x, w, y, r, 96, 1e-6, 64))
    assert rel_err(y, _rms_ref(x, w, 1e-6)[0]) < _tol(np.float32)


# ============================================================ complex DFT on interleaved data

@ct.kernel
def dft_two_factor(xp, yp, W0, W1, TW, N: ConstInt, F0: ConstInt, F1: ConstInt,
                   RB: ConstInt, D: ConstInt):
    """Length-N DFT of RB rows, N = F0 * F1 (one Cooley-Tukey step).

    Rows hold N complex values as interleaved (re, im) pairs packed into (2N/D, D) tiles.  With
    n = F1*n0 + n1 and k = k0 + F0*k1:  Y = W0 @ x  (over n0),  Y *= TW[k0, n1],
    Z = Y @ W1 (over n1),  X[k0 + F0*k1] = Z[k0, k1]  (a transpose before flattening)."""
    ri = ct.reshape(ct.load(xp, index=(ct.bid(0), 0, 0), shape=(RB, 2 * N // D, D)),
                    (RB, N, 2))
    xr = ct.reshape(ct.extract(ri, index=(0, 0, 0), shape=(RB, N, 1)), (RB, F0, F1))
    xi = ct.reshape(ct.extract(ri, index=(0, 0, 1), shape=(RB, N, 1)), (RB, F0, F1))

    w0 = ct.load(W0, index=(0, 0, 0), shape=(F0, F0, 2))
    w0r = ct.reshape(ct.extract(w0, index=(0, 0, 0), shape=(F0, F0, 1)), (1, F0, F0))
    w0i = ct.reshape(ct.extract(w0, index=(0, 0, 1), shape=(F0, F0, 1)), (1, F0, F0))
    w1 = ct.load(W1, index=(0, 0, 0), shape=(F1, F1, 2))
    w1r = ct.reshape(ct.extract(w1, index=(0, 0, 0), shape=(F1, F1, 1)), (1, F1, F1))
    w1i = ct.reshape(ct.extract(w1, index=(0, 0, 1), shape=(F1, F1, 1)), (1, F1, F1))
    tw = ct.load(TW, index=(0, 0, 0), shape=(F0, F1, 2))
    twr = ct.reshape(ct.extract(tw, index=(0, 0, 0), shape=(F0, F1, 1)), (1, F0, F1))
    twi = ct.reshape(ct.extract(tw, index=(0, 0, 1), shape=(F0, F1, 1)), (1, F0, F1))

    yr = ct.matmul(w0r, xr) - ct.matmul(w0i, xi)             # (1,F0,F0) @ (RB,F0,F1)
    yi = ct.matmul(w0r, xi) + ct.matmul(w0i, xr)
    yr, yi = yr * twr - yi * twi, yr * twi + yi * twr
    zr = ct.matmul(yr, w1r) - ct.matmul(yi, w1i)             # (RB,F0,F1) @ (1,F1,F1)
    zi = ct.matmul(yr, w1i) + ct.matmul(yi, w1r)
    zr = ct.reshape(ct.permute(zr, (0, 2, 1)), (RB, N, 1))
    zi = ct.reshape(ct.permute(zi, (0, 2, 1)), (RB, N, 1))
    out = ct.reshape(ct.cat((zr, zi), axis=-1), (RB, 2 * N // D, D))
    ct.store(yp, index=(ct.bid(0), 0, 0), tile=out)


def _interleaved(z: np.ndarray, dtype) -> np.ndarray:
    return np.stack([z.real, z.imag], axis=-1).astype(dtype)


def _roots(rows: int, cols: int, n: int, dtype) -> np.ndarray:
    i, j = np.meshgrid(np.arange(rows), np.arange(cols), indexing="ij")
    return _interleaved(np.exp(-2j * math.pi * i * j / n), dtype)


@pytest.mark.parametrize("dtype,tol", [(np.float32, 1e-5), (np.float16, 1e-2)])
@pytest.mark.parametrize("batch,F0,F1,RB,D", [(4, 8, 4, 2, 16), (3, 4, 16, 2, 64),
                                               (2, 2, 2, 1, 8)])
def test_factorised_dft_matches_numpy_fft(rng, dtype, tol, batch, F0, F1, RB, D):
    N = F0 * F1
    z = rng.standard_normal((batch, N)) + 1j * rng.standard_normal((batch, N))
    x = _interleaved(z, dtype)
    y = np.zeros_like(x)
    packed = (batch, 2 * N // D, D)
    tc.launch(dft_two_factor, (ct.cdiv(batch, RB),),
              (x.reshape(packed), y.reshape(packed), _roots(F0, F0, F0, dtype),
               _roots(F1, F1, F1, dtype), _roots(F0, F1, N, dtype), N, F0, F1, RB, D))
    xq = x.astype(np.float64)
    want = np.fft.fft(xq[..., 0] + 1j * xq[..., 1], axis=-1)
    got = y[..., 0].astype(np.float64) + 1j * y[..., 1].astype(np.float64)
    assert np.linalg.norm(got - want) / np.linalg.norm(want) < tol


# ========================================================= mixture of experts: row gathers

@ct.kernel
def expert_rows_matmul(A, Wt, C, gate, row_ids, block_expert, replicas: int,
                       SCALE_BY_GATE: ct.Constant[bool], TM: ConstInt, TN: ConstInt,
                       TK: ConstInt):
    """C[row_ids[i], :] = A[row_ids[i] // replicas, :] @ Wt[e].T (times gate[row_ids[i]])
    for the TM rows of block bid_m, all routed to expert e = block_expert[bid_m].  Padding
    slots hold an out-of-range row id: their gathers read 0 and their scatters are dropped."""
    n_tiles_n = ct.cdiv(Wt.shape[1], TN)
    bid_m = ct.bid(0) // n_tiles_n
    bid_n = ct.bid(0) % n_tiles_n
    rows = ct.gather(row_ids, bid_m * TM + ct.arange(TM, dtype=ct.int32))
    src_rows = rows // replicas
    e = ct.load(block_expert, index=bid_m, shape=())
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.cdiv(Wt.shape[2], TK)):
        cols = k * TK + ct.arange(TK, dtype=ct.int32)
        a = ct.gather(A, (src_rows[:, None], cols[None, :]))
        # Wt is (experts, N, K): read a (TK, TN) tile of its transpose through order=
        b = ct.load(Wt, (e, k, bid_n), shape=(1, TK, TN), order=(0, 2, 1),
                    padding_mode=ZERO).reshape((TK, TN))
        acc = ct.mma(a, b, acc)
    if SCALE_BY_GATE:
        acc = acc * ct.gather(gate, rows)[:, None]
    out_cols = bid_n * TN + ct.arange(TN, dtype=ct.int32)
    ct.scatter(C, (rows[:, None], out_cols[None, :]), acc.astype(C.dtype))


@ct.kernel
def swiglu_rows(gate_half, up_half, out, TN: ConstInt):
    """out = silu(gate) * up for one row; both inputs are column halves of one array."""
    g = ct.load(gate_half, (ct.bid(0), 0), (1, TN)).astype(ct.float32)
    u = ct.load(up_half, (ct.bid(0), 0), (1, TN)).astype(ct.float32)
    sig = ct.truediv(1.0, ct.add(1, ct.exp(-g), flush_to_zero=True), flush_to_zero=True,
                     rounding_mode=ct.RoundingMode.APPROX)
    ct.store(out, (ct.bid(0), 0), ct.mul(ct.mul(g, sig, flush_to_zero=True), u,
                                         flush_to_zero=True).astype(out.dtype))


def _route(expert_of: np.ndarray, TM: int, n_experts: int):
    """Sort the (token, slot) pairs by expert and pad each expert's run to a multiple of TM
    with the sentinel id len(flat); one expert id per TM-row block."""
    flat = expert_of.reshape(-1)
    order = np.argsort(flat, kind="stable").astype(np.int32)
    counts = np.bincount(flat, minlength=n_experts)
    row_ids, block_expert, start = [], [], 0
    for e in range(n_experts):
        nblk = -(-counts[e] // TM)
        ids = np.full(nblk * TM, flat.size, dtype=np.int32)
        ids[:counts[e]] = order[start:start + counts[e]]
        start += counts[e]
        row_ids.append(ids)
        block_expert += [e] * nblk
    return np.concatenate(row_ids), np.array(block_expert, dtype=np.int32)


def _silu(v):
    return v / (1.0 + np.exp(-v))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("T,H,E,I,topk,TM,TN,TK", [(8, 64, 4, 32, 2, 16, 32, 32),
                                                    (13, 48, 5, 24, 3, 16, 16, 16)])
def test_moe_two_layer_with_routed_rows(rng, dtype, T, H, E, I, topk, TM, TN, TK):
    x = (rng.standard_normal((T, H)) * 0.5).astype(dtype)
    w_in = (rng.standard_normal((E, 2 * I, H)) * 0.3).astype(dtype)
    w_out = (rng.standard_normal((E, H, I)) * 0.3).astype(dtype)
    experts = np.stack([rng.permutation(E)[:topk] for _ in range(T)])
    logits = rng.standard_normal((T, topk))
    gates = (np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)).astype(dtype)
    row_ids, block_expert = _route(experts, TM, E)
    grid_m = len(block_expert)

    h1 = np.zeros((T * topk, 2 * I), dtype=dtype)
    tc.launch(expert_rows_matmul, (grid_m * ct.cdiv(2 * I, TN),),
              (x, w_in, h1, gates.reshape(-1), row_ids, block_expert, topk, False, TM, TN, TK))
    h2 = np.zeros((T * topk, I), dtype=dtype)
    tc.launch(swiglu_rows, (T * topk,), (h1[:, :I], h1[:, I:], h2, 1 << (I - 1).bit_length()))
    h3 = np.zeros((T * topk, H), dtype=dtype)
    tc.launch(expert_rows_matmul, (grid_m * ct.cdiv(H, TN),),
              (h2, w_out, h3, gates.reshape(-1), row_ids, block_expert, 1, True, TM, TN, TK))
    got = h3.astype(np.float64).reshape(T, topk, H).sum(axis=1)

    xd, wi, wo, gd = (a.astype(np.float64) for a in (x, w_in, w_out, gates))
    want = np.zeros((T, H))
    for t in range(T):
        for s, e in enumerate(experts[t]):
            h = wi[e] @ xd[t]
            want[t] += (wo[e] @ (_silu(h[:I]) * h[I:])) * gd[t, s]
    assert rel_err(got, want) < (1e-4 if dtype == np.float32 else 10 * _tol(dtype))


# ================================================================ split-K GEMM with a lock

@ct.kernel
def split_k_gemm(A, B, C, locks, arrivals, TM: ConstInt, TN: ConstInt, TK: ConstInt,
                 SPLITS: ConstInt):
    """Block (t, s) sums the K tiles s, s + SPLITS, ... of output tile t, then adds its part
    into C under a spin lock; the first arrival stores instead of adding."""
    n_tiles_n = ct.cdiv(B.shape[1], TN)
    tile = ct.bid(0)
    tm, tn = tile // n_tiles_n, tile % n_tiles_n
    part = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.bid(1), ct.num_tiles(A, axis=1, shape=(TM, TK)), SPLITS):
        a = ct.load(A, index=(tm, k), shape=(TM, TK), padding_mode=ZERO)
        b = ct.load(B, index=(k, tn), shape=(TK, TN), padding_mode=ZERO)
        part = ct.mma(a, b, part)
    while ct.atomic_cas(locks, tile, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
        pass
    seen = ct.gather(arrivals, tile)
    if seen == 0:
        ct.store(C, index=(tm, tn), tile=part.astype(C.dtype))
    else:
        prev = ct.load(C, index=(tm, tn), shape=(TM, TN))
        ct.store(C, index=(tm, tn), tile=prev + part.astype(C.dtype))
    ct.scatter(arrivals, tile, (seen + 1) % SPLITS)
    ct.atomic_xchg(locks, tile, 0, memory_order=ct.MemoryOrder.RELEASE)


@pytest.mark.parametrize("batch", [True, False])
@pytest.mark.parametrize("splits", [1, 3])
def test_split_k_gemm_with_spin_lock(rng, batch, splits):
    M, N, K, TM, TN, TK = 40, 24, 112, 16, 16, 16
    A = rng.standard_normal((M, K)).astype(np.float16)
    B = rng.standard_normal((K, N)).astype(np.float16)
    C = np.full((M, N), np.nan, dtype=np.float32)      # the first arrival must overwrite
    tiles = ct.cdiv(M, TM) * ct.cdiv(N, TN)
    locks = np.zeros(tiles, dtype=np.int32)
    arrivals = np.zeros(tiles, dtype=np.int32)
    tc.launch(split_k_gemm, (tiles, splits), (A, B, C, locks, arrivals, TM, TN, TK, splits),
              batch=batch)
    assert rel_err(C, A.astype(np.float64) @ B.astype(np.float64)) < 1e-5
    assert not locks.any() and not arrivals.any()


# ==================================================== block-scaled MMA with swizzled scales

E4M3 = ml_dtypes.float8_e4m3fn
E8M0 = ml_dtypes.float8_e8m0fnu
SCALE_BLOCK = 32


def _from_tcgen05_layout(t):
    """(m0, k0, 32, 16) scale tile in the tcgen05 (32, 4, 4) layout -> logical (M, K_s)."""
    m0, k0 = t.shape[0], t.shape[1]
    return (t.reshape((m0, k0, 32, 4, 4)).permute((0, 3, 2, 1, 4))
            .reshape((m0 * 128, k0 * 4)))


@ct.kernel
def scaled_gemm(A, A_sc, B, B_sc, C, TM: ConstInt, TN: ConstInt, TK: ConstInt,
                SWIZZLED: ct.Constant[bool]):
    n_tiles_n = ct.cdiv(B.shape[1], TN)
    bm, bn = ct.bid(0) // n_tiles_n, ct.bid(0) % n_tiles_n
    TKS = TK // SCALE_BLOCK
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ZERO)
        if SWIZZLED:
            sa = _from_tcgen05_layout(ct.load(A_sc, index=(bm, k, 0, 0),
                                              shape=(TM // 128, TKS // 4, 32, 16)))
            sb = _from_tcgen05_layout(ct.load(B_sc, index=(bn, k, 0, 0),
                                              shape=(TN // 128, TKS // 4, 32, 16)))
            sb = sb.permute((1, 0))
        else:
            sa = ct.load(A_sc, index=(bm, k), shape=(TM, TKS))
            sb = ct.load(B_sc, index=(k, bn), shape=(TKS, TN))
        acc = ct.mma_scaled(a, sa, b, sb, acc)
    ct.store(C, index=(bm, bn), tile=acc)


def _quantize_rows(v: np.ndarray):
    """Per 32-element block along the last axis: a power-of-two e8m0 scale and e4m3 values."""
    blocks = v.reshape(v.shape[0], -1, SCALE_BLOCK)
    s = np.maximum(np.abs(blocks).max(axis=-1, keepdims=True) / 448.0, 1e-12)
    s = 2.0 ** np.ceil(np.log2(s))
    return (blocks / s).astype(E4M3).reshape(v.shape), s[..., 0].astype(E8M0)


def _to_tcgen05_layout(s: np.ndarray) -> np.ndarray:
    m, ks = s.shape
    t = s.reshape(m // 128, 4, 32, ks // 4, 4).transpose(0, 3, 2, 1, 4)
    return np.ascontiguousarray(t).reshape(m // 128, ks // 4, 32, 16)


@pytest.mark.parametrize("swizzled", [False, True])
@pytest.mark.parametrize("M,N,K", [(128, 128, 256), (256, 128, 128)])
def test_block_scaled_gemm(rng, swizzled, M, N, K):
    TM, TN, TK = 128, 128, 128
    A, sa = _quantize_rows(rng.random((M, K)))
    Bt, sbt = _quantize_rows(rng.random((N, K)))
    B, sb = Bt.T, sbt.T                                  # (K, N) and (K/32, N) strided views
    C = np.zeros((M, N), dtype=np.float32)
    scales = (_to_tcgen05_layout(sa), _to_tcgen05_layout(sbt)) if swizzled else (sa, sb)
    tc.launch(scaled_gemm, (ct.cdiv(M, TM) * ct.cdiv(N, TN),),
              (A, scales[0], B, scales[1], C, TM, TN, TK, swizzled))
    a = A.astype(np.float64) * np.repeat(sa.astype(np.float64), SCALE_BLOCK, axis=1)
    b = B.astype(np.float64) * np.repeat(sb.astype(np.float64), SCALE_BLOCK, axis=0)
    assert rel_err(C, a @ b) < 1e-6


# ================================================= GEMM over a list indexed by the block id

@ct.kernel
def stacked_gemm(parts, w, out, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """out = concat(parts) @ w: block row bid(0) belongs to part bid(0) // tiles_per_part (a
    run-time index into the list), as in an all-gather GEMM over peer buffers."""
    tiles_per_part = ct.cdiv(parts[0].shape[0], TM)
    part = parts[ct.bid(0) // tiles_per_part]
    row_tile = ct.bid(0) % tiles_per_part
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(w, axis=0, shape=(TK, TN))):
        a = ct.load(part, index=(row_tile, k), shape=(TM, TK), padding_mode=ZERO)
        b = ct.load(w, index=(k, ct.bid(1)), shape=(TK, TN), padding_mode=ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(out, index=(ct.bid(0), ct.bid(1)), tile=acc.astype(out.dtype))


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16])
def test_gemm_over_list_indexed_at_run_time(rng, dtype):
    P, M, N, K, TM, TN, TK = 3, 32, 40, 48, 16, 16, 16
    parts = [rng.standard_normal((M, K)).astype(dtype) for _ in range(P)]
    w = rng.standard_normal((K, N)).astype(dtype)
    out = np.zeros((P * M, N), dtype=dtype)
    tc.launch(stacked_gemm, (P * M // TM, ct.cdiv(N, TN)), (parts, w, out, TM, TN, TK))
    want = np.concatenate(parts).astype(np.float64) @ w.astype(np.float64)
    assert rel_err(out, want) < 2 * _tol(dtype)


def test_block_tile_outside_the_index_space_is_reported(rng):
    """Blocks whose tile index lies wholly past the array (a grid larger than the tile count)
    are undefined behaviour per the spec; tileir names the op, the index and the block."""
    x = rng.standard_normal((2, 16, 8)).astype(np.float32)   # one tile of 2 rows
    y = np.zeros_like(x)
    with pytest.raises(UndefinedBehaviorError, match="outside the view's index space"):
        tc.launch(dft_two_factor, (2,), (x, y, _roots(4, 4, 4, np.float32),
                                         _roots(16, 16, 16, np.float32),
                                         _roots(4, 16, 64, np.float32), 64, 4, 16, 2, 8))


def test_object_array_argument_is_a_clear_error():
    x = np.empty(64, dtype=object)
    w = np.ones(64, dtype=np.float32)
    with pytest.raises(ArgumentError, match="dtype object cannot be passed"):
        tc.launch(rmsnorm_tiles, (1,), (x.reshape(1, 64), w, w.reshape(1, 64),
                                        np.zeros(1, np.float32), 64, 1e-6, 64))
    with pytest.raises(ArgumentError, match="dtype object cannot be passed"):
        tc.launch(stacked_gemm, (1, 1), ([x.reshape(8, 8)], w.reshape(8, 8), w.reshape(8, 8),
                                         8, 8, 8))
