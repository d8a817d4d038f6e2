"""mma="fast" on NVIDIA-style cuTile matmuls: the K loop runs as one BLAS product over the
whole K range with each distinct row/column block read once (execute/semantics/padded_mma.py),
and the results stay within the fast mode's documented bound of the exact mode; batched and
one-block-at-a-time launches agree within it (the autouse differential check)."""

from __future__ import annotations

import numpy as np
import pytest

from ctutil import require_cutile

ct = require_cutile()

import tileir.cutile as tc  # noqa: E402
import cpu_kernels as K  # noqa: E402
from tileir.execute.semantics import padded_mma  # noqa: E402


@pytest.fixture
def factored_products(monkeypatch):
    """The block counts of the operands the distinct-tiles path laid side by side (two per
    SGEMM: row blocks, column blocks)."""
    calls = []
    original = padded_mma._blocks

    def counting(parts, which):
        calls.append(len(which))
        return original(parts, which)
    monkeypatch.setattr(padded_mma, "_blocks", counting)
    return calls


@pytest.fixture
def pair_groups(monkeypatch):
    """The group counts :func:`padded_mma._pair_groups` found (lanes not in grid order)."""
    calls = []
    original = padded_mma._pair_groups

    def counting(ia, ib, *rest):
        groups = original(ia, ib, *rest)
        calls.append(len(groups))
        return groups
    monkeypatch.setattr(padded_mma, "_pair_groups", counting)
    return calls


def _within_fast_bound(fast, exact, a, b, k):
    """|fast - exact| <= (K + 1) 2**-24 sum|a b| (+ the exact result's own rounding)."""
    mag = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    bound = (k + 1) * 2.0 ** -24 * mag + 2.0 ** -24 * np.abs(exact.astype(np.float64))
    return np.all(np.abs(fast.astype(np.float64) - exact.astype(np.float64)) <= bound)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("n", [512, 200])
def test_matmul_kernel_fast_within_bound(dtype, n, rng, factored_products):
    tm, tn, tk = 128, 128, 32
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    grid = (ct.cdiv(n, tm) * ct.cdiv(n, tn),)
    c_exact = np.zeros((n, n), np.float32)
    c_fast = np.zeros((n, n), np.float32)
    tc.launch(K.matmul_kernel, grid, (a, b, c_exact, tm, tn, tk))
    tc.launch(K.matmul_kernel, grid, (a, b, c_fast, tm, tn, tk), mma="fast")
    if dtype == np.float32:           # cuTile multiplies f32 data as tf32
        from ctutil import tf32
        a, b = tf32(a), tf32(b)
    assert _within_fast_bound(c_fast, c_exact, a, b, n)
    np.testing.assert_allclose(c_fast, a.astype(np.float64) @ b.astype(np.float64),
                               rtol=1e-3, atol=1e-3)
    if n == 512:      # (200: the edge blocks' tiles are cut elsewhere: the loop runs as written)
        assert factored_products


def test_batch_matmul_fast_within_bound(rng, factored_products, pair_groups):
    bt, n, tm, tn, tk = 4, 128, 64, 64, 32
    a = rng.standard_normal((bt, n, n)).astype(np.float16)
    b = rng.standard_normal((bt, n, n)).astype(np.float16)
    c_exact = np.zeros((bt, n, n), np.float32)
    c_fast = np.zeros((bt, n, n), np.float32)
    grid = (bt, n // tm, n // tn)
    tc.launch(K.batch_matmul_kernel, grid, (a, b, c_exact, tm, tn, tk))
    tc.launch(K.batch_matmul_kernel, grid, (a, b, c_fast, tm, tn, tk), mma="fast")
    for i in range(bt):
        assert _within_fast_bound(c_fast[i], c_exact[i], a[i], b[i], n)
    # one BLAS product per batch: the lanes' (row block, column block) pairs fall in bt parts
    assert factored_products and set(pair_groups) == {bt}
