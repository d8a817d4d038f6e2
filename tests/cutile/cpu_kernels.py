"""cuTile Python kernels, written the way NVIDIA's cutile-python samples write them
(samples/*.py, test/kernels/*.py), that the tests launch on the CPU with
``tileir.cutile.launch``.  Importing this module needs ``cuda.tile``."""

from __future__ import annotations

import math
from typing import Annotated

import numpy as np
import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstBool = ct.Constant[bool]
ConstFloat = ct.Constant[float]
PAD_ZERO = ct.PaddingMode.ZERO


# ---------------------------------------------------------------------------------- elementwise

@ct.kernel
def vec_add_kernel_1d(a, b, c, TILE: ConstInt):
    bid = ct.bid(0)
    a_tile = ct.load(a, index=(bid,), shape=(TILE,))
    b_tile = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=a_tile + b_tile)


@ct.kernel
def vec_add_kernel_2d(a, b, c, TILE_X: ConstInt, TILE_Y: ConstInt):
    bid_x = ct.bid(0)
    bid_y = ct.bid(1)
    a_tile = ct.load(a, index=(bid_x, bid_y), shape=(TILE_X, TILE_Y))
    b_tile = ct.load(b, index=(bid_x, bid_y), shape=(TILE_X, TILE_Y))
    ct.store(c, index=(bid_x, bid_y), tile=a_tile + b_tile)


@ct.kernel
def vec_add_kernel_1d_gather(a, b, c, TILE: ConstInt):
    bid = ct.bid(0)
    indices = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    a_tile = ct.gather(a, indices)
    b_tile = ct.gather(b, indices)
    ct.scatter(c, indices, a_tile + b_tile)


@ct.kernel
def axpby_kernel(x, y, out, alpha, beta, n_valid, TILE: ConstInt):
    # runtime scalars: alpha, beta (Python float -> f32), n_valid (Python int -> i32)
    bid = ct.bid(0)
    offs = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    tx = ct.gather(x, offs)
    ty = ct.gather(y, offs)
    ct.scatter(out, offs, alpha * tx + beta * ty, mask=offs < n_valid)


@ct.kernel
def scale_shift_kernel(x, y, scale, shift: ct.ScalarInt64, negate, TILE: ConstInt):
    # scale: f32 scalar, shift: i64 scalar, negate: bool scalar
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    t = t * scale + shift
    if negate:
        t = -t
    ct.store(y, index=(bid,), tile=t.astype(y.dtype))


@ct.kernel
def dtype_convert_kernel(x_bf16, y_f8, z_f64, w_u8, TILE: ConstInt):
    bid = ct.bid(0)
    a = ct.load(x_bf16, index=(bid,), shape=(TILE,))
    ct.store(y_f8, index=(bid,), tile=a.astype(ct.float8_e4m3fn))
    ct.store(z_f64, index=(bid,), tile=a.astype(ct.float64) * 1.5)
    ct.store(w_u8, index=(bid,), tile=(a > 0).astype(ct.uint8) + ct.full((TILE,), 200, ct.uint8))


@ct.kernel
def copy_2d_kernel(x, y, TM: ConstInt, TN: ConstInt):
    bid_m = ct.bid(0)
    bid_n = ct.bid(1)
    t = ct.load(x, index=(bid_m, bid_n), shape=(TM, TN), padding_mode=PAD_ZERO)
    ct.store(y, index=(bid_m, bid_n), tile=t)


@ct.kernel
def big_index_copy_kernel(x: ct.IndexedWithInt64, y: ct.IndexedWithInt64, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=t + 1)


@ct.kernel
def static_shape_kernel(
        x: Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(0,))], y, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=PAD_ZERO)
    ct.store(y, index=(bid,), tile=t * x.shape[0])


@ct.kernel
def scale_by_constant_kernel(x, y, FACTOR: ConstFloat, SQUARE: ConstBool, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    if SQUARE:
        t = t * t
    ct.store(y, index=(bid,), tile=t * FACTOR)


# ---------------------------------------------------------------------------------- matmul

def swizzle_2d(M, N, tm, tn, GROUP_SIZE_M):
    # Get the global IDs of the current CUDA block (CTA) in a 1D grid, grouped along M
    bid = ct.bid(0)
    num_bid_m = ct.cdiv(M, tm)
    num_bid_n = ct.cdiv(N, tn)
    num_bid_in_group = GROUP_SIZE_M * num_bid_n
    group_id = bid // num_bid_in_group
    first_bid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_bid_m - first_bid_m, GROUP_SIZE_M)
    bid_m = first_bid_m + (bid % group_size_m)
    bid_n = (bid % num_bid_in_group) // group_size_m
    return bid_m, bid_n


@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def matmul_kernel(A, B, C, tm: ConstInt, tn: ConstInt, tk: ConstInt):
    GROUP_SIZE_M = 8
    M = A.shape[0]
    N = B.shape[1]
    bidx, bidy = swizzle_2d(M, N, tm, tn, GROUP_SIZE_M)
    num_tiles_k = ct.num_tiles(A, axis=1, shape=(tm, tk))
    accumulator = ct.full((tm, tn), 0, dtype=ct.float32)
    # Convert fp32 to tf32 to use tensorcore
    dtype = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    for k in range(num_tiles_k):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=PAD_ZERO).astype(dtype)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=PAD_ZERO).astype(dtype)
        accumulator = ct.mma(a, b, accumulator)
    accumulator = ct.astype(accumulator, C.dtype)
    ct.store(C, index=(bidx, bidy), tile=accumulator)


@ct.kernel
def batch_matmul_kernel(A, B, C, tm: ConstInt, tn: ConstInt, tk: ConstInt):
    pid_batch = ct.bid(0)
    pidx = ct.bid(1)
    pidy = ct.bid(2)
    num_k_tiles = ct.cdiv(A.shape[2], tk)
    accumulator = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(num_k_tiles):
        a = ct.load(A, index=(pid_batch, pidx, k), shape=(1, tm, tk), padding_mode=PAD_ZERO)
        a = ct.reshape(a, (tm, tk))
        b = ct.load(B, index=(pid_batch, k, pidy), shape=(1, tk, tn), padding_mode=PAD_ZERO)
        b = ct.reshape(b, (tk, tn))
        accumulator = ct.mma(a, b, acc=accumulator)
    result = ct.astype(accumulator, C.dtype)
    ct.store(C, index=(pid_batch, pidx, pidy), tile=ct.reshape(result, (1, tm, tn)))


# ---------------------------------------------------------------------------------- transpose

@ct.kernel
def transpose_kernel(x, y, tm: ConstInt, tn: ConstInt):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    input_tile = ct.load(x, index=(bidx, bidy), shape=(tm, tn), padding_mode=PAD_ZERO)
    ct.store(y, index=(bidy, bidx), tile=ct.transpose(input_tile))


@ct.kernel
def transpose_order_kernel(x, y, tm: ConstInt, tn: ConstInt):
    # transposed load: order=(1, 0) reads x's tile as its transpose
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    t = ct.load(x, index=(bidy, bidx), shape=(tn, tm), order=(1, 0), padding_mode=PAD_ZERO)
    ct.store(y, index=(bidy, bidx), tile=t)


# ---------------------------------------------------------------------------------- softmax / norm

@ct.kernel
def softmax_kernel(x, y, TILE_N: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, TILE_N), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    m = ct.max(t, axis=1, keepdims=True)
    e = ct.exp(t - m)
    s = ct.sum(e, axis=1, keepdims=True)
    ct.store(y, index=(row, 0), tile=(e / s).astype(y.dtype))


@ct.kernel
def layer_norm_fwd(X, W, B, Y, Mean, Rstd, eps, TILE_N: ConstInt):
    bid_m = ct.bid(0)
    num_tiles = ct.num_tiles(X, axis=1, shape=(1, TILE_N))
    N = X.shape[1]

    mean = ct.full((1, TILE_N), 0, dtype=ct.float32)
    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
        mean += tx
    mean = ct.sum(mean, axis=1) / N
    ct.store(Mean, index=(bid_m,), tile=mean)

    var = ct.full((1, TILE_N), 0, dtype=ct.float32)
    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
        mask = (j * TILE_N + ct.arange(TILE_N, dtype=ct.int32)) < N
        centered_tx = ct.where(mask, tx - mean, 0)
        var += centered_tx ** 2
    var = ct.sum(var, axis=1) / N
    rstd = 1 / ct.sqrt(var + eps)
    ct.store(Rstd, index=(bid_m,), tile=rstd)

    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
        tw = ct.load(W, index=(j,), shape=(TILE_N,), padding_mode=PAD_ZERO)
        tb = ct.load(B, index=(j,), shape=(TILE_N,), padding_mode=PAD_ZERO)
        ty = (tx - mean) * rstd
        ty = ty * tw + tb
        ct.store(Y, index=(bid_m, j), tile=ty.astype(Y.dtype))


def bwd_helper(X, W, DY, bid_m, j, mean, rstd, TILE_N, N):
    tx = ct.load(X, index=(bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
    tw = ct.load(W, index=(j,), shape=(TILE_N,), padding_mode=PAD_ZERO)
    tdy = ct.load(DY, index=(bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
    xhat = (tx - mean) * rstd
    wdy = tw * tdy
    mask = j * TILE_N + ct.arange(TILE_N, dtype=ct.int32) < N
    xhat = ct.where(mask, xhat, 0)
    wdy = ct.where(mask, wdy, 0)
    return tdy, xhat, wdy


@ct.kernel
def layer_norm_bwd_dx_partial_dwdb(DX, DY, DW, DB, X, W, Mean, Rstd, Locks, TILE_N: ConstInt):
    # dX per row, and dW/dB partial sums per group of rows, accumulated under a spin lock
    bid_m = ct.bid(0)
    num_tiles = ct.num_tiles(X, axis=1, shape=(1, TILE_N))
    N = X.shape[1]
    GROUP_SIZE_M = DW.shape[0]
    group_bid_m = bid_m % GROUP_SIZE_M

    mean = ct.load(Mean, index=(bid_m,), shape=(1,))
    rstd = ct.load(Rstd, index=(bid_m,), shape=(1,))

    c1 = ct.full((1, TILE_N), 0, dtype=ct.float32)
    c2 = ct.full((1, TILE_N), 0, dtype=ct.float32)
    for j in range(num_tiles):
        _, xhat, wdy = bwd_helper(X, W, DY, bid_m, j, mean, rstd, TILE_N, N)
        c1 += xhat * wdy
        c2 += wdy
    c1 = ct.sum(c1, axis=1) / N
    c2 = ct.sum(c2, axis=1) / N

    for j in range(num_tiles):
        tdy, xhat, wdy = bwd_helper(X, W, DY, bid_m, j, mean, rstd, TILE_N, N)
        tdx = (wdy - (xhat * c1 + c2)) * rstd
        ct.store(DX, index=(bid_m, j), tile=tdx.astype(DX.dtype))

        partial_dw = (tdy * xhat).astype(DW.dtype)
        partial_db = tdy.astype(DB.dtype)

        while ct.atomic_cas(Locks, group_bid_m, 0, 1, memory_order=ct.MemoryOrder.ACQUIRE) == 1:
            pass

        partial_dw += ct.load(DW, index=(group_bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
        partial_db += ct.load(DB, index=(group_bid_m, j), shape=(1, TILE_N), padding_mode=PAD_ZERO)
        ct.store(DW, index=(group_bid_m, j), tile=partial_dw)
        ct.store(DB, index=(group_bid_m, j), tile=partial_db)

        ct.atomic_xchg(Locks, group_bid_m, 0, memory_order=ct.MemoryOrder.RELEASE)


# ---------------------------------------------------------------------------------- attention

INV_LOG_2 = 1.0 / math.log(2)


@ct.kernel(occupancy=2)
def fmha_kernel(Q, K, V, Out, qk_scale: float, input_pos: int,
                TILE_D: ConstInt, H: ConstInt, TILE_M: ConstInt, TILE_N: ConstInt,
                QUERY_GROUP_SIZE: ConstInt, CAUSAL: ConstBool, EVEN_K: ConstBool):
    # Flash attention forward (online softmax in base 2), NVIDIA's AttentionFMHA sample
    bid_x = ct.bid(0)
    bid_y = ct.bid(1)
    batch_idx = bid_y // H
    head_idx = bid_y % H
    off_kv_h = head_idx // QUERY_GROUP_SIZE
    qk_scale = qk_scale * INV_LOG_2

    offs_m = bid_x * TILE_M + ct.arange(TILE_M, dtype=np.int32)
    offs_m += input_pos
    offs_m = offs_m[:, None]
    offs_n_tile = ct.arange(TILE_N, dtype=np.int32)
    offs_n_tile = offs_n_tile[None, :]

    m_i = ct.full((TILE_M, 1), -np.inf, dtype=np.float32)
    l_i = ct.full((TILE_M, 1), 0.0, dtype=np.float32)
    acc = ct.full((TILE_M, TILE_D), 0.0, dtype=np.float32)

    q = ct.load(Q, index=(batch_idx, head_idx, bid_x, 0),
                shape=(1, 1, TILE_M, TILE_D)).reshape((TILE_M, TILE_D))

    m_end = input_pos + (bid_x + 1) * TILE_M
    k_seqlen = K.shape[2]
    if CAUSAL:
        mask_start = (input_pos + bid_x * TILE_M) // TILE_N
        mask_start = min(mask_start, k_seqlen // TILE_N)
        Tc = ct.cdiv(min(m_end, k_seqlen), TILE_N)
    else:
        Tc = ct.cdiv(k_seqlen, TILE_N)
        mask_start = k_seqlen // TILE_N

    for j in range(0, Tc):
        k = ct.load(K, index=(batch_idx, off_kv_h, 0, j), shape=(1, 1, TILE_D, TILE_N),
                    order=(0, 1, 3, 2), latency=2)
        k = k.reshape((TILE_D, TILE_N))
        qk = ct.full((TILE_M, TILE_N), 0., dtype=np.float32)
        qk = ct.mma(q, k, qk)
        if (CAUSAL or not EVEN_K) and j >= mask_start:
            offs_n = j * TILE_N + offs_n_tile
            mask = ct.full((TILE_M, TILE_N), True, dtype=np.bool_)
            if not EVEN_K:
                mask = mask & (offs_n < k_seqlen)
            if CAUSAL:
                mask = mask & (offs_m >= offs_n)
            mask = ct.where(mask, 0.0, -np.inf)
            qk += mask
        m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True) * qk_scale)
        qk = qk * qk_scale - m_ij
        p = ct.exp2(qk, flush_to_zero=True)
        l_ij = ct.sum(p, axis=-1, keepdims=True)
        alpha = ct.exp2(m_i - m_ij, flush_to_zero=True)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha
        v = ct.load(V, index=(batch_idx, off_kv_h, j, 0), shape=(1, 1, TILE_N, TILE_D),
                    latency=4).reshape((TILE_N, TILE_D))
        p = p.astype(Q.dtype)
        acc = ct.mma(p, v, acc)
        m_i = m_ij

    acc = ct.truediv(acc, l_i, flush_to_zero=True, rounding_mode=ct.RoundingMode.APPROX)
    acc = acc.reshape((1, 1, TILE_M, TILE_D)).astype(Out.dtype)
    ct.store(Out, index=(batch_idx, head_idx, bid_x, 0), tile=acc)


# ---------------------------------------------------------------------------------- reduce / scan

@ct.kernel
def row_stats_kernel(x, out_sum, out_max, out_argmax, out_sumsq, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(TILE, TILE))
    ct.store(out_sum, index=(bid,), tile=ct.sum(t, axis=1))
    ct.store(out_max, index=(bid,), tile=ct.max(t, axis=1))
    ct.store(out_argmax, index=(bid,), tile=ct.argmax(t, axis=1).astype(ct.int32))
    # custom reduction through ct.reduce
    sq = ct.reduce(t * t, axis=1, func=lambda a, b: a + b, identity=0.0)
    ct.store(out_sumsq, index=(bid,), tile=sq)


@ct.kernel
def argmin_reduce_kernel(x, out_min, out_idx, TILE: ConstInt):
    # ct.reduce over a (value, index) pair of tiles
    bid = ct.bid(0)
    v = ct.load(x, index=(bid,), shape=(TILE,))
    idx = ct.arange(TILE, dtype=ct.int32)

    def combine(va, ia, vb, ib):
        take_a = (va < vb) | ((va == vb) & (ia < ib))
        return ct.where(take_a, va, vb), ct.where(take_a, ia, ib)

    mv, mi = ct.reduce((v, idx), axis=0, func=combine, identity=(np.inf, 0))
    ct.store(out_min, index=(bid,), tile=ct.reshape(mv, (1,)))
    ct.store(out_idx, index=(bid,), tile=ct.reshape(mi, (1,)))


@ct.kernel
def scan_kernel(x, y_cumsum, y_cumprod, y_runmax, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y_cumsum, index=(bid,), tile=ct.cumsum(t, axis=0))
    ct.store(y_cumprod, index=(bid,), tile=ct.cumprod(t, axis=0, reverse=True))
    ct.store(y_runmax, index=(bid,), tile=ct.scan(t, axis=0, func=lambda a, b: max(a, b),
                                                 identity=-np.inf))


@ct.kernel
def cumsum_2d_kernel(x, y, TM: ConstInt, TN: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(TM, TN))
    ct.store(y, index=(bid, 0), tile=ct.cumsum(t, axis=1))


# ---------------------------------------------------------------------------------- atomics

@ct.kernel
def histogram_kernel(data, hist, NUM_BINS: ConstInt, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(data, index=(bid,), shape=(TILE,))
    ct.atomic_add(hist, t % NUM_BINS, 1)


@ct.kernel
def atomic_counters_kernel(counters, TILE: ConstInt):
    # counters[0]: number of blocks (atomic_add), [1]: largest block id (atomic_max),
    # [2]: smallest block id (atomic_min), [3]: ticket of the last block through (xchg)
    bid = ct.bid(0)
    ticket = ct.atomic_add(counters, 0, 1)
    ct.atomic_max(counters, 1, bid)
    ct.atomic_min(counters, 2, bid)
    ct.atomic_xchg(counters, 3, ticket)


@ct.kernel
def atomic_float_sum_kernel(acc, data, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(data, index=(bid,), shape=(TILE,))
    ct.atomic_add(acc, ct.arange(TILE, dtype=ct.int32), t)


# ---------------------------------------------------------------------------------- gather/scatter

@ct.kernel
def gather_scatter_kernel(src, idx, dst, TILE: ConstInt):
    bid = ct.bid(0)
    i = ct.load(idx, index=(bid,), shape=(TILE,))
    vals = ct.gather(src, i, padding_value=-1.0)
    offs = bid * TILE + ct.arange(TILE, dtype=ct.int32)
    ct.scatter(dst, offs, vals)


@ct.kernel
def permute_rows_kernel(src, perm, dst, TN: ConstInt):
    # dst[perm[r], :] = src[r, :] through a 2-D scatter
    r = ct.bid(0)
    rows = ct.full((1, TN), 0, dtype=ct.int32) + ct.load(perm, index=(r,), shape=(1,))[:, None]
    cols = ct.arange(TN, dtype=ct.int32)[None, :]
    t = ct.load(src, index=(r, 0), shape=(1, TN))
    ct.scatter(dst, (rows, cols), t)


@ct.kernel
def sliding_window_kernel(src, dst, TILE: ConstInt):
    # 2-D gather: block b reads columns [b, b + TILE) of every row
    bid = ct.bid(0)
    rows = ct.arange(TILE, dtype=ct.int32)[:, None]
    cols = (bid + ct.arange(TILE, dtype=ct.int32))[None, :]
    t = ct.gather(src, (rows, cols))
    ct.store(dst, index=(bid, 0), tile=t)


# ---------------------------------------------------------------------------------- control flow

@ct.kernel
def prefix_blocks_kernel(x, y, TILE: ConstInt):
    # the trip count of the loop depends on the block id; also an if/else and a while loop
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(bid + 1):
        acc += ct.load(x, index=(i,), shape=(TILE,))
    if bid % 2 == 0:
        acc = acc * 2.0
    else:
        acc = acc - 1.0
    n = bid
    while n > 0:
        acc = acc + 0.5
        n = n // 2
    ct.store(y, index=(bid,), tile=acc)


@ct.kernel
def loop_break_kernel(x, y, limit, TILE: ConstInt):
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for i in range(0, 100, 3):
        if i > limit:
            break
        if i == bid:
            continue
        acc += ct.load(x, index=(i % 4,), shape=(TILE,))
    ct.store(y, index=(bid,), tile=acc)


@ct.kernel
def persistent_scale_kernel(x, y, n_tiles, TILE: ConstInt):
    # persistent loop: block b handles tiles b, b + num_blocks, ...
    for t in range(ct.bid(0), n_tiles, ct.num_blocks(0)):
        a = ct.load(x, index=(t,), shape=(TILE,), latency=5)
        ct.store(y, index=(t,), tile=a * 2.0)


# ---------------------------------------------------------------------------------- lists, tuples

@ct.kernel
def sum_list_kernel(arrays, out, TILE: ConstInt):
    bid = ct.bid(0)
    acc = ct.zeros((TILE,), dtype=ct.float32)
    for k in range(len(arrays)):
        acc += ct.load(arrays[k], index=(bid,), shape=(TILE,))
    ct.store(out, index=(bid,), tile=acc)


@ct.kernel
def pair_kernel(pair, scale, out, TILE: ConstInt):
    bid = ct.bid(0)
    a, b = pair
    t = ct.load(a, index=(bid,), shape=(TILE,)) + ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(out, index=(bid,), tile=t * scale)


# ---------------------------------------------------------------------------------- debugging

@ct.kernel
def print_kernel(x, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.printf("block %d: first=%f\n", bid, t)


@ct.kernel
def assert_positive_kernel(x, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.assert_(t >= 0.0, "negative input")


@ct.kernel
def unchecked_gather_kernel(src, idx, dst, TILE: ConstInt):
    bid = ct.bid(0)
    i = ct.load(idx, index=(bid,), shape=(TILE,))
    ct.store(dst, index=(bid,), tile=ct.gather(src, i, check_bounds=False))


# ---------------------------------------------------------------------------------- grouped GEMM

@ct.kernel
def grouped_matmul_kernel(As, Bs, Cs, num_blocks: ConstInt, tm: ConstInt, tn: ConstInt,
                          tk: ConstInt):
    # persistent grouped GEMM over lists of arrays: block b handles the output tiles
    # b, b + num_blocks, ... numbered across all the problems
    tile_idx = ct.bid(0)
    last_problem_end = 0
    for g in range(len(As)):
        Ai = As[g]
        Bi = Bs[g]
        Ci = Cs[g]
        num_m_tiles = ct.num_tiles(Ai, 0, (tm, tk))
        num_k_tiles = ct.num_tiles(Ai, 1, (tm, tk))
        num_n_tiles = ct.num_tiles(Bi, 1, (tk, tn))
        num_tiles = num_m_tiles * num_n_tiles
        while tile_idx >= last_problem_end and tile_idx < last_problem_end + num_tiles:
            tile_in_gemm = tile_idx - last_problem_end
            tile_m = tile_in_gemm // num_n_tiles
            tile_n = tile_in_gemm % num_n_tiles
            acc = ct.zeros((tm, tn), dtype=ct.float32)
            for kk in range(num_k_tiles):
                ta = ct.load(Ai, (tile_m, kk), shape=(tm, tk), padding_mode=PAD_ZERO)
                tb = ct.load(Bi, (kk, tile_n), shape=(tk, tn), padding_mode=PAD_ZERO)
                acc = ct.mma(ta, tb, acc)
            ct.store(Ci, (tile_m, tile_n), tile=ct.astype(acc, Ci.dtype))
            tile_idx += num_blocks
        last_problem_end = last_problem_end + num_tiles
