"""Small cuTile kernels exercising one family of operations each (math, integer, bitwise,
conversions, shape manipulation, reductions, atomics), for the op-coverage tests."""

from __future__ import annotations

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def unary_math_kernel(x, out, TILE: ConstInt):
    # out[k, :] = op_k(x)
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ops = (ct.sin(t), ct.cos(t), ct.tan(t), ct.sinh(t), ct.cosh(t), ct.tanh(t), ct.exp(t),
           ct.exp2(t), ct.log(t), ct.log2(t), ct.sqrt(t), ct.rsqrt(t), ct.floor(t), ct.ceil(t),
           ct.abs(-t), ct.negative(t))
    for k in ct.static_iter(range(len(ops))):
        ct.store(out, index=(k, bid), tile=ct.reshape(ops[k], (1, TILE)))


@ct.kernel
def binary_math_kernel(x, y, out, TILE: ConstInt):
    bid = ct.bid(0)
    a = ct.load(x, index=(bid,), shape=(TILE,))
    b = ct.load(y, index=(bid,), shape=(TILE,))
    ops = (a + b, a - b, a * b, a / b, ct.pow(a, b), ct.atan2(a, b), ct.maximum(a, b),
           ct.minimum(a, b), a // b, a % b, a ** 2, ct.where(a > b, a, b))
    for k in ct.static_iter(range(len(ops))):
        ct.store(out, index=(k, bid), tile=ct.reshape(ops[k], (1, TILE)))


@ct.kernel
def int_math_kernel(x, y, out, TILE: ConstInt):
    bid = ct.bid(0)
    a = ct.load(x, index=(bid,), shape=(TILE,))
    b = ct.load(y, index=(bid,), shape=(TILE,))
    ops = (a + b, a - b, a * b, a // b, a % b, ct.cdiv(a, b), ct.maximum(a, b),
           ct.minimum(a, b), ct.abs(a), -a, a & b, a | b, a ^ b, ~a, a << 3, a >> 2,
           (a < b).astype(ct.int32), (a == b).astype(ct.int32))
    for k in ct.static_iter(range(len(ops))):
        ct.store(out, index=(k, bid), tile=ct.reshape(ops[k], (1, TILE)))


@ct.kernel
def uint_math_kernel(x, y, out, TILE: ConstInt):
    bid = ct.bid(0)
    a = ct.load(x, index=(bid,), shape=(TILE,))
    b = ct.load(y, index=(bid,), shape=(TILE,))
    ops = (a % b, a >> 3, ct.maximum(a, b), (a < b).astype(ct.uint32), a * b + a)
    for k in ct.static_iter(range(len(ops))):
        ct.store(out, index=(k, bid), tile=ct.reshape(ops[k], (1, TILE)))


@ct.kernel
def convert_kernel(x, to_i32, to_f16, to_u8, to_bool, to_f64, bits, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(to_i32, index=(bid,), tile=t.astype(ct.int32))
    ct.store(to_f16, index=(bid,), tile=t.astype(ct.float16))
    ct.store(to_u8, index=(bid,), tile=t.astype(ct.uint8))
    ct.store(to_bool, index=(bid,), tile=t.astype(ct.bool_))
    ct.store(to_f64, index=(bid,), tile=t.astype(ct.float64))
    ct.store(bits, index=(bid,), tile=ct.bitcast(t, ct.int32))


@ct.kernel
def shapes_kernel(x, y_cat, y_perm, y_bcast, y_ext, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(TILE, TILE))
    lo = ct.extract(t, index=(0, 0), shape=(TILE, TILE // 2))
    hi = ct.extract(t, index=(0, 1), shape=(TILE, TILE // 2))
    ct.store(y_cat, index=(bid, 0), tile=ct.cat((hi, lo), axis=1))
    p = ct.permute(ct.expand_dims(t, 0), (0, 2, 1)).reshape((TILE, TILE))
    ct.store(y_perm, index=(bid, 0), tile=p)
    col = ct.sum(t, axis=0, keepdims=True)
    ct.store(y_bcast, index=(bid, 0), tile=ct.broadcast_to(col, (TILE, TILE)))
    ct.store(y_ext, index=(bid, 0), tile=ct.extract(t, index=(1, 0), shape=(TILE // 2, TILE)))


@ct.kernel
def reductions_kernel(x, out_f, out_i, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid, 0), shape=(TILE, TILE))
    ct.store(out_f, index=(0, bid), tile=ct.reshape(ct.min(t, axis=1), (1, TILE)))
    ct.store(out_f, index=(1, bid), tile=ct.reshape(ct.prod(t, axis=1), (1, TILE)))
    ct.store(out_f, index=(2, bid), tile=ct.reshape(ct.sum(t, axis=0), (1, TILE)))
    ct.store(out_f, index=(3, bid), tile=ct.reshape(ct.max(t, axis=0), (1, TILE)))
    ct.store(out_i, index=(0, bid), tile=ct.reshape(ct.argmin(t, axis=1).astype(ct.int32),
                                                    (1, TILE)))
    ct.store(out_i, index=(1, bid), tile=ct.reshape(ct.argmax(t, axis=0).astype(ct.int32),
                                                    (1, TILE)))


@ct.kernel
def matmul_op_kernel(a, b, c, TILE: ConstInt):
    bid = ct.bid(0)
    ta = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    tb = ct.load(b, index=(0, 0), shape=(TILE, TILE))
    ct.store(c, index=(bid, 0), tile=ct.matmul(ta, tb) + ta @ tb)


@ct.kernel
def bit_atomics_kernel(flags, data, TILE: ConstInt):
    # flags[0] |= data, flags[1] &= data, flags[2] ^= data (as atomics), all blocks
    bid = ct.bid(0)
    t = ct.load(data, index=(bid,), shape=(TILE,))
    zeros = ct.zeros((TILE,), dtype=ct.int32)
    ct.atomic_or(flags, zeros, t)
    ct.atomic_and(flags, zeros + 1, t)
    ct.atomic_xor(flags, zeros + 2, t)


@ct.kernel
def float16_math_kernel(x, out, TILE: ConstInt):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,))
    ct.store(out, index=(bid,), tile=t * t + t)


@ct.kernel
def uint_floordiv_kernel(x, y, out, TILE: ConstInt):
    # cuTile 1.7 emits `divi unsigned rounding<negative_inf>` here, which NVIDIA's verifier
    # (tileiras) rejects; tileir reports the same verifier error.
    bid = ct.bid(0)
    a = ct.load(x, index=(bid,), shape=(TILE,))
    b = ct.load(y, index=(bid,), shape=(TILE,))
    ct.store(out, index=(bid,), tile=a // b)


@ct.kernel
def advanced_indexing_kernel(x, y, col_start):
    row_indices = ct.arange(4, dtype=ct.int32) * 2
    tile = ct.load_advanced_indexing(x, (row_indices, ct.Slice(col_start, 4)),
                                     padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, (0, 0), tile)


@ct.kernel
def insert_kernel(y):
    tile = ct.arange(8, dtype=ct.int32)
    sub = ct.full((4,), 99, dtype=ct.int32)
    ct.store(y, (0,), ct.insert(tile, (1,), sub))


@ct.kernel
def mma_scaled_kernel(x, xs, y, ys, out):
    tx = ct.load(x, (0, 0), shape=(16, 64))
    sx = ct.load(xs, (0, 0), shape=(16, 2))
    ty = ct.load(y, (0, 0), shape=(64, 16))
    sy = ct.load(ys, (0, 0), shape=(2, 16))
    ct.store(out, (0, 0), ct.mma_scaled(tx, sx, ty, sy, ct.zeros((16, 16), ct.float32)))


@ct.kernel
def int8_mma_kernel(a, b, c, T: ConstInt):
    ta = ct.load(a, (0, 0), shape=(T, T))
    tb = ct.load(b, (0, 0), shape=(T, T))
    ct.store(c, (0, 0), ct.mma(ta, tb, ct.zeros((T, T), ct.int32)))


@ct.kernel
def pack_unpack_kernel(x, y, T: ConstInt):
    t = ct.load(x, (0,), shape=(T,))
    ct.store(y, (0,), ct.unpack_from_bytes(ct.pack_to_bytes(t), ct.int32) + 1)


@ct.kernel
def divmod_kernel(x, y, q, r, T: ConstInt):
    a = ct.load(x, (0,), shape=(T,))
    b = ct.load(y, (0,), shape=(T,))
    qq, rr = divmod(a, b)
    ct.store(q, (0,), qq)
    ct.store(r, (0,), rr)
