"""cuTile Python kernels exported by the interop tests (needs ``cuda-tile``).

Imported only when cuTile is installed; each kernel is a small, typical cuTile program."""

import numpy as np
import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def vector_add(a, b, c, TILE: ConstInt):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    y = ct.load(b, index=(bid,), shape=(TILE,))
    ct.store(c, index=(bid,), tile=x + y)


@ct.kernel
def tiled_matmul(A, B, C, TM: ConstInt, TN: ConstInt, TK: ConstInt):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.full((TM, TN), 0, dtype=ct.float32)
    # f32 operands go through tf32 tensor cores; f16 operands are used as they are
    dtype = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    for k in range(ct.num_tiles(A, axis=1, shape=(TM, TK))):
        a = ct.load(A, index=(bm, k), shape=(TM, TK), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(TK, TN), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a.astype(dtype), b.astype(dtype), acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))


@ct.kernel
def softmax(x, y, N: ConstInt):
    row = ct.bid(0)
    t = ct.load(x, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.NEG_INF)
    t = t.astype(ct.float32)
    e = ct.exp(t - ct.max(t, axis=1, keepdims=True))
    ct.store(y, index=(row, 0), tile=(e / ct.sum(e, axis=1, keepdims=True)).astype(y.dtype))


@ct.kernel
def layernorm(X, W, B, Y, eps, N: ConstInt):
    row = ct.bid(0)
    x = ct.load(X, index=(row, 0), shape=(1, N), padding_mode=ct.PaddingMode.ZERO)
    mean = ct.sum(x, axis=1, keepdims=True) / N
    centered = x - mean
    var = ct.sum(centered * centered, axis=1, keepdims=True) / N
    rstd = 1 / ct.sqrt(var + eps)
    w = ct.load(W, index=(0,), shape=(N,))
    b = ct.load(B, index=(0,), shape=(N,))
    ct.store(Y, index=(row, 0), tile=centered * rstd * w + b)


@ct.kernel
def row_reduce(x, out_sum, out_max, out_custom, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(TILE, TILE))
    ct.store(out_sum, index=(bid,), tile=ct.sum(t, axis=1))
    ct.store(out_max, index=(bid,), tile=ct.max(t, axis=1))
    ct.store(out_custom, index=(bid,),
             tile=ct.reduce(t * t, axis=1, func=lambda p, q: p + q, identity=0.0))


@ct.kernel
def prefix_scan(x, y_sum, y_prod, y_max, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(y_sum, index=(bid,), tile=ct.cumsum(t, axis=0))
    ct.store(y_prod, index=(bid,), tile=ct.cumprod(t, axis=0, reverse=True))
    ct.store(y_max, index=(bid,), tile=ct.scan(t, axis=0, func=lambda p, q: max(p, q),
                                               identity=-np.inf))
