"""Op coverage: cuTile's math, integer, bitwise, conversion, shape, reduction, matmul and atomic
operations, compiled by cuTile and run by tileir, against NumPy (Tile IR semantics where they
differ from NumPy's, e.g. saturating float -> int conversions)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from ctutil import require_cutile

ct = require_cutile()

import tileir  # noqa: E402
import tileir.cutile as tc  # noqa: E402
import cpu_kernels_ops as O  # noqa: E402

T = 32


def test_unary_math(rng):
    x = (rng.random(2 * T) * 3 + 0.1).astype(np.float32)
    out = np.zeros((16, 2 * T), dtype=np.float32)
    tc.launch(O.unary_math_kernel, (2,), (x, out, T))
    xd = x.astype(np.float64)
    want = [np.sin(xd), np.cos(xd), np.tan(xd), np.sinh(xd), np.cosh(xd), np.tanh(xd),
            np.exp(xd), np.exp2(xd), np.log(xd), np.log2(xd), np.sqrt(xd), 1 / np.sqrt(xd),
            np.floor(xd), np.ceil(xd), np.abs(xd), -xd]
    for k, w in enumerate(want):
        np.testing.assert_allclose(out[k], w, rtol=2e-6, err_msg=f"op #{k}")


def test_binary_math(rng):
    x = (rng.random(2 * T) * 4 + 0.1).astype(np.float32)
    y = (rng.standard_normal(2 * T) * 2).astype(np.float32)
    out = np.zeros((12, 2 * T), dtype=np.float32)
    tc.launch(O.binary_math_kernel, (2,), (x, y, out, T))
    want = [x + y, x - y, x * y, x / y, np.power(x.astype(np.float64), y), np.arctan2(x, y),
            np.maximum(x, y), np.minimum(x, y), np.floor_divide(x, y), np.mod(x, y), x * x,
            np.where(x > y, x, y)]
    for k, w in enumerate(want):
        np.testing.assert_allclose(out[k], np.asarray(w, dtype=np.float32), rtol=3e-6,
                                   atol=1e-6, err_msg=f"op #{k}")


def test_integer_and_bitwise(rng):
    x = rng.integers(-1000, 1000, 2 * T).astype(np.int32)
    y = rng.integers(-20, 20, 2 * T).astype(np.int32)
    y[y == 0] = 7
    out = np.zeros((18, 2 * T), dtype=np.int32)
    tc.launch(O.int_math_kernel, (2,), (x, y, out, T))
    want = [x + y, x - y, x * y, np.floor_divide(x, y), np.mod(x, y), -(-x // y),
            np.maximum(x, y), np.minimum(x, y), np.abs(x), -x, x & y, x | y, x ^ y, ~x, x << 3,
            x >> 2, (x < y).astype(np.int32), (x == y).astype(np.int32)]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[k], w, err_msg=f"op #{k}")


def test_unsigned_integers(rng):
    x = rng.integers(0, 2 ** 32, 2 * T, dtype=np.uint64).astype(np.uint32)
    y = rng.integers(1, 2 ** 31, 2 * T).astype(np.uint32)
    out = np.zeros((5, 2 * T), dtype=np.uint32)
    tc.launch(O.uint_math_kernel, (2,), (x, y, out, T))
    want = [x % y, x >> 3, np.maximum(x, y), (x < y).astype(np.uint32), x * y + x]
    for k, w in enumerate(want):
        np.testing.assert_array_equal(out[k], w, err_msg=f"op #{k}")


def test_unsigned_floordiv_fails_verification_like_tileiras():
    x = np.ones(T, dtype=np.uint32)
    with pytest.raises(tileir.LaunchError, match="rounding mode 'negative_inf' is not allowed "
                                                 "with 'unsigned' flag"):
        tc.launch(O.uint_floordiv_kernel, (1,), (x, x, x, T))


def test_conversions(rng):
    x = (rng.standard_normal(2 * T) * 100).astype(np.float32)
    x[:6] = [0.0, -0.0, 255.9, -1.5, 0.75, 300.0]
    i32 = np.zeros(2 * T, dtype=np.int32)
    f16 = np.zeros(2 * T, dtype=np.float16)
    u8 = np.zeros(2 * T, dtype=np.uint8)
    b = np.zeros(2 * T, dtype=bool)
    f64 = np.zeros(2 * T)
    bits = np.zeros(2 * T, dtype=np.int32)
    tc.launch(O.convert_kernel, (2,), (x, i32, f16, u8, b, f64, bits, T))
    np.testing.assert_array_equal(i32, np.trunc(x).astype(np.int32))
    np.testing.assert_array_equal(f16, x.astype(np.float16))
    # float -> unsigned integer: truncate, then saturate to the type's range (Tile IR ftoi)
    np.testing.assert_array_equal(u8, np.clip(np.trunc(x), 0, 255).astype(np.uint8))
    np.testing.assert_array_equal(b, np.clip(np.trunc(x), 0, 1).astype(bool))
    np.testing.assert_array_equal(f64, x.astype(np.float64))
    np.testing.assert_array_equal(bits, x.view(np.int32))


def test_shape_manipulation(rng):
    x = rng.standard_normal((2 * T, T)).astype(np.float32)
    y_cat, y_perm, y_bcast = (np.zeros_like(x) for _ in range(3))
    y_ext = np.zeros((T, T), dtype=np.float32)
    tc.launch(O.shapes_kernel, (2,), (x, y_cat, y_perm, y_bcast, y_ext, T))
    blocks = x.reshape(2, T, T)
    h = T // 2
    np.testing.assert_array_equal(y_cat, np.concatenate(
        [np.concatenate([b[:, h:], b[:, :h]], axis=1) for b in blocks]))
    np.testing.assert_array_equal(y_perm, np.concatenate([b.T for b in blocks]))
    np.testing.assert_allclose(y_bcast, np.concatenate(
        [np.broadcast_to(b.sum(axis=0, keepdims=True), (T, T)) for b in blocks]), rtol=1e-5,
        atol=1e-5)
    np.testing.assert_array_equal(y_ext, np.concatenate([b[h:] for b in blocks]))


def test_reductions(rng):
    x = (rng.random((2 * T, T)) + 0.5).astype(np.float32)
    out_f = np.zeros((4, 2 * T), dtype=np.float32)
    out_i = np.zeros((2, 2 * T), dtype=np.int32)
    tc.launch(O.reductions_kernel, (2,), (x, out_f, out_i, T))
    blocks = x.reshape(2, T, T)
    np.testing.assert_array_equal(out_f[0], x.min(axis=1))
    np.testing.assert_allclose(out_f[1], np.prod(x.astype(np.float64), axis=1), rtol=1e-4)
    np.testing.assert_allclose(out_f[2], np.concatenate([b.sum(axis=0) for b in blocks]),
                               rtol=1e-5)
    np.testing.assert_array_equal(out_f[3], np.concatenate([b.max(axis=0) for b in blocks]))
    np.testing.assert_array_equal(out_i[0], x.argmin(axis=1))
    np.testing.assert_array_equal(out_i[1], np.concatenate([b.argmax(axis=0) for b in blocks]))


def test_matmul_operator(rng):
    a = rng.standard_normal((2 * T, T)).astype(np.float16)
    b = rng.standard_normal((T, T)).astype(np.float16)
    c = np.zeros((2 * T, T), dtype=np.float16)
    tc.launch(O.matmul_op_kernel, (2,), (a, b, c, T))
    np.testing.assert_allclose(c.astype(np.float32), 2 * (a.astype(np.float32) @
                                                          b.astype(np.float32)),
                               rtol=2e-3, atol=2e-2)


def test_int8_mma(rng):
    a = rng.integers(-100, 100, (16, 16)).astype(np.int8)
    b = rng.integers(-100, 100, (16, 16)).astype(np.int8)
    c = np.zeros((16, 16), dtype=np.int32)
    tc.launch(O.int8_mma_kernel, (1,), (a, b, c, 16))
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


def test_mma_scaled_fp8(rng):
    x = rng.standard_normal((16, 64)).astype(ml_dtypes.float8_e4m3fn)
    y = rng.standard_normal((64, 16)).astype(ml_dtypes.float8_e4m3fn)
    xs = (2.0 ** rng.integers(-3, 4, (16, 2))).astype(ml_dtypes.float8_e8m0fnu)
    ys = (2.0 ** rng.integers(-3, 4, (2, 16))).astype(ml_dtypes.float8_e8m0fnu)
    out = np.zeros((16, 16), dtype=np.float32)
    tc.launch(O.mma_scaled_kernel, (1,), (x, xs, y, ys, out))
    xsc = np.repeat(xs.astype(np.float64), 32, axis=1) * x.astype(np.float64)
    ysc = np.repeat(ys.astype(np.float64), 32, axis=0) * y.astype(np.float64)
    np.testing.assert_allclose(out, xsc @ ysc, rtol=1e-6, atol=1e-5)


def test_bitwise_atomics(rng):
    flags = np.array([0, -1, 0], dtype=np.int32)
    data = rng.integers(0, 2 ** 20, 4 * T).astype(np.int32)
    tc.launch(O.bit_atomics_kernel, (4,), (flags, data, T))
    assert flags[0] == np.bitwise_or.reduce(data)
    assert flags[1] == np.bitwise_and.reduce(data)
    assert flags[2] == np.bitwise_xor.reduce(data)


def test_advanced_indexing_insert_pack_divmod():
    x = np.arange(64, dtype=np.int32).reshape(8, 8)
    y = np.zeros((4, 4), dtype=np.int32)
    tc.launch(O.advanced_indexing_kernel, (1,), (x, y, 2))
    np.testing.assert_array_equal(y, x[::2, 2:6])
    y8 = np.zeros(8, dtype=np.int32)
    tc.launch(O.insert_kernel, (1,), (y8,))
    assert y8.tolist() == [0, 1, 2, 3, 99, 99, 99, 99]
    xi = np.arange(8, dtype=np.int32)
    yi = np.zeros(8, dtype=np.int32)
    tc.launch(O.pack_unpack_kernel, (1,), (xi, yi, 8))
    np.testing.assert_array_equal(yi, xi + 1)
    a = np.array([7, -7, 7, -7], dtype=np.int32)
    b = np.array([2, 2, -2, -2], dtype=np.int32)
    q = np.zeros(4, dtype=np.int32)
    r = np.zeros(4, dtype=np.int32)
    tc.launch(O.divmod_kernel, (1,), (a, b, q, r, 4))
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)
