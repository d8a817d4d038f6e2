"""cuTile kernels that used to hit performance cliffs of the CPU executor (a slow general path
for a common pattern), for ``tests/execute/test_exec_perf_cliffs.py``: RMSNorm (``rsqrt``),
float-to-int conversion, gather/scatter with computed indices, an affine map (an ``fma`` whose
results often land on f32 midpoints) over a 3-D grid, and row-wise cumulative sums.  Importing
this module needs ``cuda.tile``."""

from __future__ import annotations

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def rmsnorm(x, w, y, eps: float, TN: ConstInt):
    """y = x / sqrt(mean(x**2) + eps) * w, one row per tile block."""
    r = ct.bid(0)
    t = ct.load(x, index=(r, 0), shape=(1, TN), padding_mode=ct.PaddingMode.ZERO)
    ms = ct.sum(t * t, axis=1, keepdims=True) / TN
    wv = ct.load(w, index=(0,), shape=(TN,))
    ct.store(y, index=(r, 0), tile=t * ct.rsqrt(ms + eps) * wv[None, :])


@ct.kernel
def rsqrt_map(x, y, T: ConstInt):
    """y = 1 / sqrt(x), element-wise in the input's dtype."""
    b = ct.bid(0)
    ct.store(y, index=(b,), tile=ct.rsqrt(ct.load(x, index=(b,), shape=(T,))))


@ct.kernel
def to_int(x, y, T: ConstInt):
    """Convert floats to the output's integer dtype (truncation, saturation, NaN -> 0)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    ct.store(y, index=(b,), tile=t.astype(y.dtype))


@ct.kernel
def gather_by_index(src, idx, dst, T: ConstInt):
    """dst[i] = src[idx[i]] (0 where idx[i] is out of range: the bounds mask)."""
    b = ct.bid(0)
    i = ct.load(idx, index=(b,), shape=(T,))
    ct.store(dst, index=(b,), tile=ct.gather(src, i))


@ct.kernel
def scatter_by_index(src, idx, dst, T: ConstInt):
    """dst[idx[i]] = src[i] (skipped where idx[i] is out of range)."""
    b = ct.bid(0)
    i = ct.load(idx, index=(b,), shape=(T,))
    ct.scatter(dst, i, ct.load(src, index=(b,), shape=(T,)))


@ct.kernel
def affine_3d(x, y, T0: ConstInt, T1: ConstInt, T2: ConstInt):
    """y = x * 2 + 1 over a 3-D grid of 3-D tiles (cuTile fuses it into one fma)."""
    i, j, k = ct.bid(0), ct.bid(1), ct.bid(2)
    t = ct.load(x, index=(i, j, k), shape=(T0, T1, T2))
    ct.store(y, index=(i, j, k), tile=t * 2.0 + 1.0)


@ct.kernel
def cumsum_rows(x, y, TN: ConstInt):
    """Inclusive prefix sums along each row, one row per tile block."""
    r = ct.bid(0)
    t = ct.load(x, index=(r, 0), shape=(1, TN))
    ct.store(y, index=(r, 0), tile=ct.cumsum(t, axis=1))


@ct.kernel
def cumprod_reverse(x, y, T: ConstInt):
    """Suffix products of each tile (a reverse scan)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(T,))
    ct.store(y, index=(b,), tile=ct.cumprod(t, axis=0, reverse=True))
