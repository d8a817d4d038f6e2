"""cuTile kernels that used to hit performance cliffs of the CPU executor, for
``tests/execute/test_exec_perf_cliffs2.py``: row-wise ``ct.argmax`` / ``ct.argmin`` (a
``reduce`` over the values and an index iota with a select-based combiner) over tiles of one
row and of many rows, and a tiny vector add (the per-launch overhead).  Importing this module
needs ``cuda.tile``."""

from __future__ import annotations

import cuda.tile as ct

ConstInt = ct.Constant[int]


@ct.kernel
def argmax_rows(x, out, TM: ConstInt, TN: ConstInt):
    """out[i] = the first position of the largest value of row i (TM rows per tile block)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(TM, TN))
    ct.store(out, index=(b,), tile=ct.argmax(t, axis=1).astype(ct.int32))


@ct.kernel
def argmin_rows(x, out, TM: ConstInt, TN: ConstInt):
    """out[i] = the first position of the smallest value of row i (TM rows per tile block)."""
    b = ct.bid(0)
    t = ct.load(x, index=(b, 0), shape=(TM, TN))
    ct.store(out, index=(b,), tile=ct.argmin(t, axis=1).astype(ct.int32))


@ct.kernel
def argmax_cols(x, out, TM: ConstInt, TN: ConstInt):
    """out[j] = the first position of the largest value of column j (a reduce along dim 0)."""
    b = ct.bid(0)
    t = ct.load(x, index=(0, b), shape=(TM, TN))
    ct.store(out, index=(b,), tile=ct.argmax(t, axis=0).astype(ct.int32))


@ct.kernel
def vec_add_small(a, b, c, T: ConstInt):
    """c = a + b over one tile (a launch whose cost is the launch itself)."""
    i = ct.bid(0)
    ct.store(c, index=(i,), tile=ct.load(a, index=(i,), shape=(T,)) +
             ct.load(b, index=(i,), shape=(T,)))
