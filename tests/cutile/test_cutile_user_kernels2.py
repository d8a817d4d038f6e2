"""A second round of cuTile kernels written as users write them (``cpu_kernels2``), run on the
CPU and checked against NumPy references: GELU/SwiGLU activations, cross entropy with an
online logsumexp, top-k by repeated argmax, reductions over axis 0, log-softmax backward,
bf16 GEMM with a bias + ReLU epilogue, fp8 (e4m3 and e5m2) GEMM with scales, int8 GEMM with
row/column scales, im2col convolution by gathers, 3-D permutations (``ct.permute`` and load
orders), embedding forward/backward with int64 ids and atomics, 64-bit index gathers, a
single-pass look-back scan, an atomic global abs-max, int8 quantisation, hash-based dropout,
a Newton iteration with a data-dependent trip count, blocks on different control-flow paths,
scalars of several dtypes and nested tuple/list arguments.  Bit-exact where the arithmetic is
specified exactly; the exported bytecode of each kernel also round-trips through tileir and
prints as NVIDIA's ``tileirdisasm`` prints it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from ctutil import require_cutile

ct = require_cutile()
import cpu_kernels2 as K  # noqa: E402
import tileir  # noqa: E402
import tileir.cutile as tc  # noqa: E402
from tileir.execute.errors import (ArgumentError, MemoryAccessError,  # noqa: E402
                                   UndefinedBehaviorError)

bf16 = ml_dtypes.bfloat16
f8e4m3 = ml_dtypes.float8_e4m3fn
f8e5m2 = ml_dtypes.float8_e5m2
MMA = ["fast", "exact"]


def _ulps_bf16(got, want) -> float:
    """Largest distance in bf16 ulps (of the reference's magnitude) between got and want."""
    want = np.asarray(want, np.float64)
    ulp = np.maximum(np.abs(want), 2.0**-126)
    ulp = 2.0 ** (np.floor(np.log2(ulp)) - 7)
    return float(np.max(np.abs(np.asarray(got, np.float64) - want) / ulp))


# -- activations ---------------------------------------------------------------------------------

def test_gelu_tanh_to_bf16(rng):
    n = 1000
    x = (rng.standard_normal(n) * 3).astype(np.float32)
    y = np.zeros(n, bf16)
    tc.launch(K.gelu_tanh, (ct.cdiv(n, 256),), (x, y, 256))
    v = x.astype(np.float64)
    want = 0.5 * v * (1 + np.tanh(0.7978845608028654 * (v + 0.044715 * v**3)))
    # 1 + tanh cancels in f32 for large negative x: an absolute error there
    big = np.abs(want) > 1e-3
    assert _ulps_bf16(y[big], want[big]) <= 1.0
    assert np.abs(y[~big].astype(np.float64) - want[~big]).max() < 8e-6


def test_swiglu_over_concatenated_halves(rng):
    M, H, TN = 5, 96, 32
    gu = rng.standard_normal((M, 2 * H)).astype(np.float16)
    out = np.zeros((M, H), np.float16)
    tc.launch(K.swiglu_fused, (M, H // TN), (gu, out, H, TN))
    g, u = gu[:, :H].astype(np.float64), gu[:, H:].astype(np.float64)
    want = g / (1 + np.exp(-g)) * u
    assert np.abs(out - want).max() <= 2.0**-10 * max(1.0, np.abs(want).max())


# -- losses / row statistics ---------------------------------------------------------------------

def test_cross_entropy_with_online_logsumexp_and_ignored_rows(rng):
    M, V, TV = 7, 1000, 128
    logits = (rng.standard_normal((M, V)) * 4).astype(np.float32)
    targets = rng.integers(0, V, M).astype(np.int64)
    targets[3] = -100
    loss, lse = np.zeros(M, np.float32), np.zeros(M, np.float32)
    tc.launch(K.cross_entropy_fwd, (M,), (logits, targets, loss, lse, V, TV, -100))
    lg = logits.astype(np.float64)
    mx = lg.max(1)
    want_lse = mx + np.log(np.exp(lg - mx[:, None]).sum(1))
    want = np.where(targets == -100, 0.0,
                    want_lse - lg[np.arange(M), np.clip(targets, 0, V - 1)])
    assert np.abs(lse - want_lse).max() < 1e-5
    assert np.abs(loss - want).max() < 1e-5
    assert loss[3] == 0.0


def test_topk_by_repeated_argmax(rng):
    M, N, k = 6, 50, 5
    x = rng.standard_normal((M, N)).astype(np.float32)
    x[1, 7] = x[1, 9] = 10.0                # a tie: argmax takes the first
    vals, idx = np.zeros((M, k), np.float32), np.zeros((M, k), np.int32)
    tc.launch(K.topk_rows, (M,), (x, vals, idx, k, 64))
    order = np.argsort(-x, axis=1, kind="stable")[:, :k]
    assert np.array_equal(idx, order)
    assert np.array_equal(vals, np.take_along_axis(x, order, 1))


def test_column_sum_and_max_over_row_tiles(rng):
    M, N, TM, TN = 37, 20, 16, 8
    x = rng.standard_normal((M, N)).astype(np.float32)
    x[5, 3] = -0.0
    col_sum, col_max = np.zeros(N, np.float32), np.zeros(N, np.float32)
    tc.launch(K.column_stats, (ct.cdiv(N, TN),), (x, col_sum, col_max, TM, TN))
    assert np.abs(col_sum - x.sum(0, dtype=np.float64)).max() < 1e-5
    assert np.array_equal(col_max, x.max(0))


def test_log_softmax_backward(rng):
    M, N = 4, 30
    z = rng.standard_normal((M, N))
    y = (z - np.log(np.exp(z).sum(1, keepdims=True))).astype(np.float32)
    dy = rng.standard_normal((M, N)).astype(np.float32)
    dx = np.zeros_like(dy)
    tc.launch(K.log_softmax_bwd, (M,), (y, dy, dx, 32))
    want = dy - np.exp(y.astype(np.float64)) * dy.sum(1, keepdims=True, dtype=np.float64)
    assert np.abs(dx - want).max() < 1e-5


# -- GEMMs ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("mma", MMA)
def test_bf16_gemm_with_bias_relu_epilogue(rng, mma):
    M, N, Kd = 70, 50, 90
    A = rng.standard_normal((M, Kd)).astype(bf16)
    B = rng.standard_normal((Kd, N)).astype(bf16)
    bias = rng.standard_normal(N).astype(np.float32)
    C = np.zeros((M, N), bf16)
    tc.launch(K.gemm_bias_relu, (ct.cdiv(M, 32), ct.cdiv(N, 32)), (A, B, bias, C, 32, 32, 32),
              mma=mma)
    # exact: the exact products summed (exactly, in f64 here) and rounded once to f32, then
    # the f32 bias add, ReLU and the rounding to bf16
    acc = (A.astype(np.float64) @ B.astype(np.float64)).astype(np.float32)
    want = np.maximum(acc + bias, np.float32(0)).astype(bf16)
    if mma == "exact":
        assert np.array_equal(C.view(np.uint16), want.view(np.uint16))
    else:
        assert _ulps_bf16(C, want) <= 1.0


@pytest.mark.parametrize("mma", MMA)
@pytest.mark.parametrize("f8", [f8e4m3, f8e5m2], ids=["e4m3", "e5m2"])
def test_fp8_gemm_with_per_tensor_scales(rng, f8, mma):
    M, N, Kd = 64, 48, 80
    A = (rng.standard_normal((M, Kd)) * 2).astype(f8)
    B = rng.standard_normal((Kd, N)).astype(f8)
    C = np.zeros((M, N), bf16)
    tc.launch(K.fp8_gemm_scaled, (M // 32, N // 16), (A, B, C, 0.5, 0.25, 32, 16, 32), mma=mma)
    acc = (A.astype(np.float64) @ B.astype(np.float64)).astype(np.float32)
    want = (acc * np.float32(0.125)).astype(bf16)
    if mma == "exact":
        assert np.array_equal(C.view(np.uint16), want.view(np.uint16))
    else:
        assert _ulps_bf16(C, want) <= 1.0


@pytest.mark.parametrize("mma", MMA)
def test_int8_gemm_with_row_and_column_scales(rng, mma):
    M, N, Kd = 33, 40, 100
    A = rng.integers(-128, 128, (M, Kd)).astype(np.int8)
    B = rng.integers(-128, 128, (Kd, N)).astype(np.int8)
    sa, sb = rng.random(M).astype(np.float32), rng.random(N).astype(np.float32)
    C = np.zeros((M, N), np.float32)
    tc.launch(K.int8_gemm_rowscale, (ct.cdiv(M, 16), ct.cdiv(N, 16)),
              (A, B, sa, sb, C, 16, 16, 32), mma=mma)
    acc = (A.astype(np.int64) @ B.astype(np.int64)).astype(np.int32)
    assert np.array_equal(C, acc.astype(np.float32) * sa[:, None] * sb[None, :])


@pytest.mark.parametrize("mma", MMA)
def test_conv2d_by_im2col_gathers(rng, mma):
    Nb, H, W, C, KH, KW, OC, TP, TCK = 2, 9, 7, 3, 3, 2, 8, 16, 8
    img = rng.standard_normal((Nb, H, W, C)).astype(np.float32)
    w = rng.standard_normal((KH * KW * C, OC)).astype(np.float32)
    OH, OW = H - KH + 1, W - KW + 1
    out = np.zeros((Nb, OH * OW, OC), np.float32)
    tc.launch(K.conv2d_im2col, (Nb, ct.cdiv(OH * OW, TP)),
              (img, w, out, H, W, C, KH, KW, OC, TP, TCK), mma=mma)
    want = np.zeros((Nb, OH, OW, OC))
    wr = w.reshape(KH, KW, C, OC).astype(np.float64)
    for a in range(KH):
        for b in range(KW):
            want += np.einsum("nhwc,co->nhwo", img[:, a:a + OH, b:b + OW].astype(np.float64),
                              wr[a, b])
    assert np.abs(out.reshape(want.shape) - want).max() < 1e-5


# -- data movement ------------------------------------------------------------------------------

def test_3d_permutation_by_permute_and_by_load_order(rng):
    A, B, C = 10, 12, 6
    x = rng.standard_normal((A, B, C)).astype(np.float32)
    y1, y2 = np.zeros((C, A, B), np.float32), np.zeros((C, A, B), np.float32)
    tc.launch(K.permute_3d, (ct.cdiv(A, 4), ct.cdiv(B, 8), ct.cdiv(C, 2)), (x, y1, 4, 8, 2))
    tc.launch(K.permute_3d_by_order, (ct.cdiv(C, 2), ct.cdiv(A, 4), ct.cdiv(B, 8)),
              (x, y2, 2, 4, 8))
    assert np.array_equal(y1, x.transpose(2, 0, 1))
    assert np.array_equal(y2, x.transpose(2, 0, 1))


def test_embedding_lookup_and_atomic_gradient(rng):
    V, D, T, nb = 20, 16, 8, 3
    table = rng.standard_normal((V, D)).astype(np.float32)
    ids = rng.integers(0, V, T * nb).astype(np.int64)
    ids[:4] = 5                              # repeated ids: atomic adds collide
    out = np.zeros((T * nb, D), np.float32)
    dout = rng.integers(-4, 5, (T * nb, D)).astype(np.float32)   # exact sums in any order
    dtable = np.zeros((V, D), np.float32)
    tc.launch(K.embedding_fwd_bwd, (nb,), (table, ids, out, dout, dtable, D, T))
    want = np.zeros_like(dtable)
    np.add.at(want, ids, dout)
    assert np.array_equal(out, table[ids])
    assert np.array_equal(dtable, want)


def test_gather_with_64_bit_indices():
    x = np.arange(3000, dtype=np.float32)
    y = np.zeros(64, np.float32)
    tc.launch(K.big_offset_gather, (4,), (x, y, 5, 37, 16))
    assert np.array_equal(y, x[5 + np.arange(64) * 37])
    y[:] = -1
    tc.launch(K.big_offset_gather, (4,), (x, y, 2000, 37, 16))   # past the end: padding 0
    i = 2000 + np.arange(64) * 37
    assert np.array_equal(y, np.where(i < 3000, x[np.minimum(i, 2999)], 0))


# -- scans / atomics -----------------------------------------------------------------------------

@pytest.mark.parametrize("batch", [True, False])
def test_single_pass_lookback_scan(rng, batch):
    n, T = 1000, 64
    nb = ct.cdiv(n, T)
    x = rng.integers(-50, 50, n).astype(np.int32)
    y = np.zeros(n, np.int32)
    flags, aggs = np.zeros(nb, np.int32), np.zeros(nb, np.int32)
    tc.launch(K.lookback_scan, (nb,), (x, y, flags, aggs, T), batch=batch)
    assert np.array_equal(y, np.cumsum(x).astype(np.int32))
    assert (flags == 2).all()


def test_lookback_scan_waiting_forever_is_reported():
    """Flags too short: block 1 publishes past the end (masked), block 2 waits forever."""
    x = np.ones(256, np.int32)
    with pytest.raises(UndefinedBehaviorError, match=r"ran 1000 iterations without 'break'"):
        tc.launch(K.lookback_scan, (4,), (x, np.zeros_like(x), np.zeros(1, np.int32),
                                          np.zeros(4, np.int32), 64), max_loop_iterations=1000)


def test_global_absmax_by_integer_atomic_max(rng):
    x = rng.standard_normal(1000).astype(np.float32)
    out = np.zeros(1, np.int32)
    tc.launch(K.global_absmax, (8,), (x, out, 128))
    assert out.view(np.float32)[0] == np.abs(x).max()


def test_int8_row_quantisation(rng):
    M, N = 5, 40
    x = rng.standard_normal((M, N)).astype(np.float32)
    x[2] = 0
    q, s = np.zeros((M, N), np.int8), np.zeros(M, np.float32)
    tc.launch(K.quantize_rows_int8, (M,), (x, q, s, 64))
    amax = np.abs(x).max(1, keepdims=True)
    sc = np.where(amax > 0, amax / np.float32(127), np.float32(1)).astype(np.float32)
    assert np.array_equal(s, sc[:, 0])
    assert np.array_equal(q, np.floor(x / sc + np.float32(0.5)).astype(np.int8))


def test_hash_dropout_is_bit_exact(rng):
    n, T, seed, p = 1000, 128, 1234, 0.7
    x = rng.standard_normal(n).astype(np.float32)
    y = np.zeros(n, np.float32)
    tc.launch(K.hash_dropout, (ct.cdiv(n, T),), (x, y, seed, p, T))
    h = np.arange(n, dtype=np.uint32)
    with np.errstate(over="ignore"):
        h = h * np.uint32(0x9E3779B1) + np.uint32(seed)
        h ^= h >> 16
        h *= np.uint32(0x85EBCA6B)
        h ^= h >> 13
        h *= np.uint32(0xC2B2AE35)
        h ^= h >> 16
    u = (h >> 8).astype(np.float32) * np.float32(2.0**-24)
    assert np.array_equal(y, np.where(u < np.float32(p), x / np.float32(p), np.float32(0)))


# -- control flow --------------------------------------------------------------------------------

@pytest.mark.parametrize("batch", [True, False])
def test_newton_iteration_with_data_dependent_trip_counts(rng, batch):
    n, T, blocks = 320, 32, 10
    x = (rng.random(n) * np.repeat(np.linspace(0.0, 1.9, blocks), T)).astype(np.float32)
    y, iters = np.zeros(n, np.float32), np.zeros(blocks, np.int32)
    tc.launch(K.newton_rsqrt, (blocks,), (x, y, iters, 1e-5, 60, T), batch=batch)
    assert np.abs(y - 1 / np.sqrt(x.astype(np.float64) + 1)).max() < 2e-6
    assert iters[0] == 0 and (np.diff(iters) >= 0).all() and iters[-1] > 5
    # each block stopped at its first residual below tol: one iteration earlier was not
    v = x.reshape(blocks, T) + np.float32(1)
    for b in range(blocks):
        r = np.ones(T, np.float64)
        for _ in range(iters[b] - 1):
            r = r * (1.5 - 0.5 * v[b] * r * r)
        if iters[b]:
            assert np.abs(r * r * v[b] - 1).max() >= 1e-5 * 0.5


@pytest.mark.parametrize("batch", [True, False])
def test_blocks_on_divergent_paths_with_early_return(rng, batch):
    n, T, n_valid = 200, 16, 150
    x = rng.standard_normal(n).astype(np.float32)
    y = np.full(n, 7.0, np.float32)
    tc.launch(K.divergent_blocks, (ct.cdiv(n, T),), (x, y, n_valid, T), batch=batch)
    want = np.full(n, 7.0, np.float32)
    for b in range(ct.cdiv(n_valid, T)):
        t = x[b * T:(b + 1) * T].copy()
        if b % 2 == 0:
            t = t * t
        else:
            t = -t
            if t.sum(dtype=np.float64) < 0:
                t = np.maximum(t, np.float32(-1))
        want[b * T:(b + 1) * T] = t
    assert np.array_equal(y, want)


def test_scalars_of_several_dtypes():
    out = np.zeros(32, np.float64)
    # a Python float (and np.float64, a float) is an f32 scalar, as cuTile passes it
    tc.launch(K.mixed_scalars, (2,), (out, 0.1, np.int16(-3), np.uint8(200), np.bool_(False),
                                      np.float16(0.5), 16))
    base = np.tile(np.arange(16, dtype=np.float64), 2)
    assert np.array_equal(out, -(base * np.float64(np.float32(0.1)) - 3 + 200) + 0.5)


def test_nested_tuple_and_list_arguments(rng):
    a, c = (rng.standard_normal(64).astype(np.float32) for _ in range(2))
    ws = [rng.standard_normal(64).astype(np.float32) for _ in range(3)]
    out = np.zeros(64, np.float32)
    tc.launch(K.nested_tuple_args, (4,), (((a, 2.0), (c, -1.5)), ws, out, 16))
    want = ((a * np.float32(2) + c * np.float32(-1.5)) + ws[0] + ws[1]) + ws[2]
    assert np.abs(out - want).max() <= 4e-7 * np.abs(want).max()


# -- bad launches --------------------------------------------------------------------------------

def test_fault_names_the_python_parameter():
    """A store into a read-only array names the parameter, not the flattened entry argument."""
    ro = np.broadcast_to(np.zeros(1, np.float32), (64,))
    with pytest.raises(MemoryAccessError, match=r"read-only buffer 'y'"):
        tc.launch(K.gelu_tanh, (1,), (np.zeros(16, np.float32), ro, 16))
    one = np.ones(64, np.float32)
    with pytest.raises(MemoryAccessError, match=r"read-only buffer 'out'"):
        tc.launch(K.nested_tuple_args, (4,), (((one, 2.0), (one, 1.0)), [one], ro, 16))


def test_fault_names_a_list_element():
    ro = np.broadcast_to(np.zeros(1, np.float32), (64,))
    with pytest.raises(MemoryAccessError, match=r"read-only buffer 'arrays\[1\]'"):
        tc.launch(K.store_into_list, (1,), ([np.zeros(64, np.float32), ro], 16))


def test_bad_launches_are_clear_errors():
    A = np.zeros((64, 64), bf16)
    with pytest.raises(ArgumentError, match=r"expected 7 \(A, B, bias, C, TM, TN, TK\), got 6"):
        tc.launch(K.gemm_bias_relu, (2, 2), (A, A, A, 32, 32, 32))
    with pytest.raises(OverflowError, match="does not fit in int64"):
        tc.launch(K.big_offset_gather, (1,), (np.zeros(10, np.float32),
                                              np.zeros(16, np.float32), 2**64, 1, 16))
    with pytest.raises(UndefinedBehaviorError, match=r"index 5 along dimension 1 is outside"):
        tc.launch(K.topk_rows, (6,), (np.zeros((6, 50), np.float32),
                                      np.zeros((6, 5), np.float32),
                                      np.zeros((6, 5), np.int32), 7, 64))


# -- the exported bytecode round-trips ------------------------------------------------------------

def _cases():
    f32 = np.float32
    z = np.zeros
    return {
        "gelu_tanh": (K.gelu_tanh, (z(100, f32), z(100, bf16), 64)),
        "cross_entropy": (K.cross_entropy_fwd, (z((3, 100), f32), z(3, np.int64), z(3, f32),
                                                z(3, f32), 100, 32, -100)),
        "topk": (K.topk_rows, (z((3, 50), f32), z((3, 4), f32), z((3, 4), np.int32), 4, 64)),
        "fp8_gemm": (K.fp8_gemm_scaled, (z((32, 32), f8e5m2), z((32, 32), f8e5m2),
                                         z((32, 32), bf16), 1.0, 1.0, 32, 16, 32)),
        "int8_gemm": (K.int8_gemm_rowscale, (z((32, 32), np.int8), z((32, 32), np.int8),
                                             z(32, f32), z(32, f32), z((32, 32), f32),
                                             16, 16, 32)),
        "conv": (K.conv2d_im2col, (z((1, 5, 5, 2), f32), z((8, 8), f32), z((1, 16, 8), f32),
                                   5, 5, 2, 2, 2, 8, 16, 8)),
        "permute_order": (K.permute_3d_by_order, (z((4, 8, 2), f32), z((2, 4, 8), f32), 2, 4, 8)),
        "embedding": (K.embedding_fwd_bwd, (z((4, 16), f32), z(8, np.int64), z((8, 16), f32),
                                            z((8, 16), f32), z((4, 16), f32), 16, 8)),
        "big_gather": (K.big_offset_gather, (z(100, f32), z(16, f32), 0, 1, 16)),
        "lookback_scan": (K.lookback_scan, (z(64, np.int32), z(64, np.int32), z(1, np.int32),
                                            z(1, np.int32), 64)),
        "dropout": (K.hash_dropout, (z(64, f32), z(64, f32), 1, 0.5, 64)),
        "newton": (K.newton_rsqrt, (z(32, f32), z(32, f32), z(1, np.int32), 1e-5, 8, 32)),
        "divergent": (K.divergent_blocks, (z(32, f32), z(32, f32), 32, 16)),
        "scalars": (K.mixed_scalars, (z(16, np.float64), 1.0, np.int16(1), np.uint8(1),
                                      np.bool_(True), np.float16(1), 16)),
        "nested": (K.nested_tuple_args, (((z(16, f32), 1.0), (z(16, f32), 1.0)), [z(16, f32)],
                                         z(16, f32), 16)),
    }


def _tileirdisasm():
    sys.path.insert(0, str(Path(__file__).parents[1] / "interop"))
    from nvidia_tools import find_tool
    tool = find_tool("tileirdisasm")
    if tool is None:
        pytest.skip("NVIDIA tileirdisasm not found (pip install -e '.[nvidia]')")
    return tool


@pytest.mark.parametrize("name", sorted(_cases()))
def test_exported_bytecode_round_trips(name, tmp_path):
    from tileir.text.printer import print_op
    kernel, args = _cases()[name]
    compiled = tc.compile(kernel, args)
    module = tileir.read_bytecode(compiled.bytecode)
    again = tileir.write_bytecode(module, compiled.bytecode_version)
    assert tileir.print(tileir.read_bytecode(again), debuginfo=True) == \
        tileir.print(module, debuginfo=True)
    tool = _tileirdisasm()
    theirs, ours = tmp_path / "theirs.tilebc", tmp_path / "ours.tilebc"
    theirs.write_bytes(compiled.bytecode)
    ours.write_bytes(again)
    for flags, debuginfo in (([], False), (["-g"], True)):
        want = subprocess.run([tool, *flags, str(theirs)], capture_output=True, text=True,
                              timeout=300)
        got = subprocess.run([tool, *flags, str(ours)], capture_output=True, text=True,
                             timeout=300)
        assert want.returncode == 0 and got.returncode == 0, want.stderr + got.stderr
        assert got.stdout == want.stdout
        assert print_op(module, disasm=True, debuginfo=debuginfo) == want.stdout
