"""A second set of cuTile kernels written as users write them (activations, losses, top-k,
low-precision GEMMs with epilogues, im2col convolution, look-back scans, hashing...), for
``test_cutile_user_kernels2.py``.  Importing this module needs ``cuda.tile``."""

from __future__ import annotations

import math

import cuda.tile as ct

ConstInt = ct.Constant[int]
ConstFloat = ct.Constant[float]
ConstBool = ct.Constant[bool]


# -- activations ---------------------------------------------------------------------------------

@ct.kernel
def gelu_tanh(x, y, TILE: ConstInt):
    """GELU, tanh approximation, computed in f32 and stored in the output's dtype."""
    i = ct.bid(0)
    v = ct.load(x, index=(i,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    v = v.astype(ct.float32)
    inner = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    ct.store(y, index=(i,), tile=(0.5 * v * (1.0 + ct.tanh(inner))).astype(y.dtype))


@ct.kernel
def swiglu_fused(gate_up, out, H: ConstInt, TN: ConstInt):
    """SwiGLU over a [M, 2H] tensor whose halves are gate and up: out = silu(gate) * up."""
    r, j = ct.bid(0), ct.bid(1)
    g = ct.load(gate_up, index=(r, j), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    # the up half starts H columns later: a tile index only when H is a multiple of TN
    u = ct.load(gate_up, index=(r, j + H // TN), shape=(1, TN),
                padding_mode=ct.PaddingMode.ZERO)
    g = g.astype(ct.float32)
    silu = g / (1.0 + ct.exp(-g))
    ct.store(out, index=(r, j), tile=(silu * u.astype(ct.float32)).astype(out.dtype))


# -- losses / row statistics ---------------------------------------------------------------------

@ct.kernel
def cross_entropy_fwd(logits, targets, loss, lse_out, V: ConstInt, TV: ConstInt,
                      IGNORE: ConstInt):
    """Row-wise cross entropy with an online logsumexp over vocabulary tiles; rows whose
    target is IGNORE get loss 0."""
    r = ct.bid(0)
    m = ct.full((1, 1), -math.inf, dtype=ct.float32)
    s = ct.full((1, 1), 0.0, dtype=ct.float32)
    for j in range(ct.cdiv(V, TV)):
        t = ct.load(logits, index=(r, j), shape=(1, TV),
                    padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
        m_new = ct.maximum(m, ct.max(t, axis=1, keepdims=True))
        s = s * ct.exp(m - m_new) + ct.sum(ct.exp(t - m_new), axis=1, keepdims=True)
        m = m_new
    lse = m + ct.log(s)
    tgt = ct.load(targets, index=(r,), shape=(1,))
    picked = ct.gather(logits, (r, tgt)).astype(ct.float32)   # ignored rows: out of range -> 0
    keep = tgt != IGNORE
    ct.store(loss, index=(r,), tile=ct.where(keep, ct.reshape(lse, (1,)) - picked, 0.0))
    ct.store(lse_out, index=(r,), tile=ct.reshape(lse, (1,)))


@ct.kernel
def topk_rows(x, vals, idx, K: ConstInt, TN: ConstInt):
    """Top-K of each row by repeated argmax, masking each winner with -inf."""
    r = ct.bid(0)
    row = ct.load(x, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
    cols = ct.arange(TN, dtype=ct.int32)[None, :]
    for k in range(K):
        best = ct.argmax(row, axis=1, keepdims=True)          # [1, 1] int32
        v = ct.max(row, axis=1, keepdims=True)
        ct.store(vals, index=(r, k), tile=v)
        ct.store(idx, index=(r, k), tile=best)
        row = ct.where(cols == best, -math.inf, row)


@ct.kernel
def column_stats(x, col_sum, col_max, TM: ConstInt, TN: ConstInt):
    """Sum and max over axis 0 (a non-last axis), looping over row tiles."""
    j = ct.bid(0)
    acc = ct.zeros((TN,), dtype=ct.float32)
    mx = ct.full((TN,), -math.inf, dtype=ct.float32)
    for i in range(ct.num_tiles(x, axis=0, shape=(TM, TN))):
        t = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.sum(t, axis=0)
        tm = ct.load(x, index=(i, j), shape=(TM, TN), padding_mode=ct.PaddingMode.NEG_INF)
        mx = ct.maximum(mx, ct.max(tm, axis=0))
    ct.store(col_sum, index=(j,), tile=acc)
    ct.store(col_max, index=(j,), tile=mx)


@ct.kernel
def log_softmax_bwd(y, dy, dx, TN: ConstInt):
    """Backward of log_softmax: dx = dy - exp(y) * sum(dy), y the forward output."""
    r = ct.bid(0)
    yv = ct.load(y, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.NEG_INF)
    g = ct.load(dy, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    tot = ct.sum(g, axis=1, keepdims=True)
    ct.store(dx, index=(r, 0), tile=g - ct.exp2(yv * 1.4426950408889634) * tot)


# -- GEMMs ---------------------------------------------------------------------------------------

@ct.kernel
def gemm_bias_relu(A, B, bias, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """bf16 GEMM with f32 accumulation, + bias, ReLU, stored bf16."""
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    bv = ct.load(bias, index=(bn,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.maximum(acc + bv[None, :], 0.0)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))


@ct.kernel
def fp8_gemm_scaled(A, B, C, a_scale: float, b_scale: float, TM: ConstInt, TN: ConstInt,
                    TK: ConstInt):
    """fp8 x fp8 GEMM, f32 accumulation, per-tensor dequantisation scales, bf16 output."""
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=(acc * (a_scale * b_scale)).astype(C.dtype))


@ct.kernel
def int8_gemm_rowscale(A, B, a_scale, b_scale, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    """int8 GEMM (i32 accumulation) dequantised by per-row and per-column f32 scales."""
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((TM, TN), dtype=ct.int32)
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    sa = ct.load(a_scale, index=(bm,), shape=(TM,), padding_mode=ct.PaddingMode.ZERO)
    sb = ct.load(b_scale, index=(bn,), shape=(TN,), padding_mode=ct.PaddingMode.ZERO)
    out = acc.astype(ct.float32) * sa[:, None] * sb[None, :]
    ct.store(C, index=(bm, bn), tile=out)


@ct.kernel
def conv2d_im2col(img, w, out, H: ConstInt, W: ConstInt, C: ConstInt, KH: ConstInt,
                  KW: ConstInt, OC: ConstInt, TP: ConstInt, TCK: ConstInt):
    """Valid 2-D convolution, NHWC input [N, H, W, C], weights [KH*KW*C, OC]: each block
    builds a [TP, TCK] im2col tile of output pixels by gathers and multiplies it."""
    n, bp = ct.bid(0), ct.bid(1)
    OH, OW = H - KH + 1, W - KW + 1
    p = bp * TP + ct.arange(TP, dtype=ct.int32)           # output pixel ids
    oh, ow = p // OW, p % OW
    acc = ct.zeros((TP, OC), dtype=ct.float32)
    for kk in range(ct.cdiv(KH * KW * C, TCK)):
        q = kk * TCK + ct.arange(TCK, dtype=ct.int32)       # (kh, kw, c) ids
        kh, kw, c = q // (KW * C), (q // C) % KW, q % C
        ih = oh[:, None] + kh[None, :]
        iw = ow[:, None] + kw[None, :]
        valid = (p[:, None] < OH * OW) & (q[None, :] < KH * KW * C)
        patch = ct.gather(img, (n, ih, iw, c[None, :]), mask=valid)
        wt = ct.load(w, index=(kk, 0), shape=(TCK, OC), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(patch, wt, acc)
    ct.scatter(out, (n, p[:, None], ct.arange(OC, dtype=ct.int32)[None, :]), acc)


# -- data movement ------------------------------------------------------------------------------

@ct.kernel
def permute_3d(x, y, T0: ConstInt, T1: ConstInt, T2: ConstInt):
    """y[c, a, b] = x[a, b, c], by a transposing load order and by ct.permute."""
    i, j, k = ct.bid(0), ct.bid(1), ct.bid(2)
    t = ct.load(x, index=(i, j, k), shape=(T0, T1, T2), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(k, i, j), tile=ct.permute(t, (2, 0, 1)))


@ct.kernel
def permute_3d_by_order(x, y, T0: ConstInt, T1: ConstInt, T2: ConstInt):
    """The same permutation through the load's order: the tile's axes (and the tile index)
    are x's axes (2, 0, 1)."""
    i, j, k = ct.bid(0), ct.bid(1), ct.bid(2)
    t = ct.load(x, index=(i, j, k), shape=(T0, T1, T2), order=(2, 0, 1),
                padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(i, j, k), tile=t)


@ct.kernel
def embedding_fwd_bwd(table, ids, out, dout, dtable, D: ConstInt, T: ConstInt):
    """Embedding lookup of T tokens (int64 ids) and the scatter-add of its gradient."""
    b = ct.bid(0)
    tok = ct.load(ids, index=(b,), shape=(T,))
    cols = ct.arange(D, dtype=ct.int32)
    rows = ct.gather(table, (tok[:, None], cols[None, :]))
    ct.store(out, index=(b, 0), tile=rows)
    g = ct.load(dout, index=(b, 0), shape=(T, D))
    ct.atomic_add(dtable, (tok[:, None], cols[None, :]), g)


@ct.kernel
def big_offset_gather(x: ct.IndexedWithInt64, y, base: ct.ScalarInt64, stride: ct.ScalarInt64,
                      T: ConstInt):
    """y[i] = x[base + i * stride] with 64-bit indices."""
    b = ct.bid(0)
    i = (b * T + ct.arange(T, dtype=ct.int64)) * stride + base
    ct.store(y, index=(b,), tile=ct.gather(x, i))


# -- scans / atomics -----------------------------------------------------------------------------

@ct.kernel
def lookback_scan(x, y, flags, aggs, T: ConstInt):
    """Single-pass inclusive prefix sum of int32 data: block b waits for block b - 1's
    inclusive prefix (flag 2) and publishes its own."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    local = ct.cumsum(t, axis=0)
    total = ct.sum(t)
    prev = 0
    if b > 0:
        while ct.atomic_add(flags, b - 1, 0) != 2:
            pass
        prev = ct.atomic_add(aggs, b - 1, 0)
    ct.atomic_xchg(aggs, b, prev + total)
    ct.atomic_xchg(flags, b, 2)
    ct.store(y, index=(b,), tile=local + prev)


@ct.kernel
def global_absmax(x, out, T: ConstInt):
    """Global max |x| over f32 data through an integer atomic max on the bits (non-negative
    floats order as their bits)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    m = ct.max(ct.abs(t))
    ct.atomic_max(out, 0, ct.bitcast(m, ct.int32))


@ct.kernel
def quantize_rows_int8(x, q, scales, TN: ConstInt):
    """Symmetric per-row int8 quantisation: scale = absmax / 127, q = floor(x / s + 0.5)
    (float to int conversion truncates toward zero)."""
    r = ct.bid(0)
    t = ct.load(x, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    amax = ct.max(ct.abs(t), axis=1, keepdims=True)
    s = ct.where(amax > 0, amax / 127.0, 1.0)
    qv = ct.astype(ct.floor(t / s + 0.5), ct.int8)
    ct.store(q, index=(r, 0), tile=qv)
    ct.store(scales, index=(r,), tile=ct.reshape(s, (1,)))


@ct.kernel
def hash_dropout(x, y, seed: ct.Constant[int], p_keep: float, T: ConstInt):
    """Dropout with a counter-based integer hash (uint32 wrap-around, xor-shifts)."""
    b = ct.bid(0)
    idx = (b * T + ct.arange(T, dtype=ct.int32)).astype(ct.uint32)
    h = idx * 0x9E3779B1 + seed
    h = h ^ (h >> 16)
    h = h * 0x85EBCA6B
    h = h ^ (h >> 13)
    h = h * 0xC2B2AE35
    h = h ^ (h >> 16)
    u = (h >> 8).astype(ct.float32) * (1.0 / 16777216.0)
    v = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(b,), tile=ct.where(u < p_keep, v / p_keep, 0.0))


# -- control flow --------------------------------------------------------------------------------

@ct.kernel
def newton_rsqrt(x, y, iters, tol: float, MAXIT: ConstInt, T: ConstInt):
    """Newton iteration for 1/sqrt(x) until every lane's relative residual is below tol:
    a data-dependent trip count per block (while loop with an early exit)."""
    b = ct.bid(0)
    v = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO) + 1.0
    r = ct.full((T,), 1.0, dtype=ct.float32)
    n = 0
    while n < MAXIT:
        res = ct.max(ct.abs(r * r * v - 1.0))
        if res < tol:
            break
        r = r * (1.5 - 0.5 * v * r * r)
        n += 1
    ct.store(y, index=(b,), tile=r)
    ct.store(iters, index=(b,), tile=ct.full((1,), n, dtype=ct.int32))


@ct.kernel
def divergent_blocks(x, y, n_valid, T: ConstInt):
    """Blocks take different paths: past the end they return early, even blocks square,
    odd blocks negate and blocks whose data sum is negative clamp."""
    b = ct.bid(0)
    if b * T >= n_valid:
        return
    t = ct.load(x, index=(b,), shape=(T,), padding_mode=ct.PaddingMode.ZERO)
    if b % 2 == 0:
        t = t * t
    else:
        t = -t
        if ct.sum(t) < 0.0:
            t = ct.maximum(t, -1.0)
    ct.store(y, index=(b,), tile=t)


@ct.kernel
def mixed_scalars(out, a_f64: float, b_i16, c_u8, d_bool, e_f16, T: ConstInt):
    """Scalars of several dtypes combined into f64 tiles."""
    b = ct.bid(0)
    base = ct.arange(T, dtype=ct.float64)
    v = base * a_f64 + b_i16 + c_u8
    v = ct.where(d_bool, v, -v) + e_f16
    ct.store(out, index=(b,), tile=v)


@ct.kernel
def nested_tuple_args(pairs, weights, out, T: ConstInt):
    """A tuple of (array, scale) pairs and a list of weight arrays."""
    b = ct.bid(0)
    (a, sa), (c, sc) = pairs
    acc = ct.load(a, index=(b,), shape=(T,)) * sa + ct.load(c, index=(b,), shape=(T,)) * sc
    for i in range(len(weights)):
        acc = acc + ct.load(weights[i], index=(b,), shape=(T,))
    ct.store(out, index=(b,), tile=acc)


@ct.kernel
def store_into_list(arrays, T: ConstInt):
    """Writes a tile into every array of a list."""
    for i in range(len(arrays)):
        ct.store(arrays[i], index=(0,), tile=ct.full((T,), 1.0, dtype=ct.float32))
