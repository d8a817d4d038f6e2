"""Recycled result arrays for the executor's large tile values.

A lock-step launch computes each op over every tile block at once: its values are arrays of
megabytes, and a fresh array costs page faults (the kernel zeroing new pages) that take
longer than the arithmetic that fills it.  The plan drops a value's register after its last
use (:meth:`tileir.execute.plan.Compiler.dead_after`); an array that nothing else references
then goes back to this thread's pool (:func:`recycle`) and the next op needing an array of
the same shape and dtype takes it (:func:`fresh`): memory that is already mapped, and warm in
the cache.  The pool outlives a launch (the next launch of a kernel finds its arrays), holding
at most :data:`POOL_BYTES` per thread; the oldest arrays are dropped first.

Only arrays that own their memory and that no other object references are recycled (their
reference count says so): a view of a value, a value held by a second register or by a
deferred store keeps its array alive and out of the pool.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict

import numpy as np

__all__ = ["fresh", "scratch", "recycle", "clear", "MIN_BYTES", "POOL_BYTES"]

#: arrays smaller than this are left to NumPy's allocator (it caches small blocks itself)
MIN_BYTES = 1 << 18

#: at most this many bytes of arrays waiting in one thread's pool
POOL_BYTES = 128 << 20

_local = threading.local()


def _pool() -> OrderedDict:
    pool = getattr(_local, "pool", None)
    if pool is None:
        pool = _local.pool = OrderedDict()
        _local.bytes = 0
    return pool


def fresh(shape: tuple, dtype: np.dtype) -> np.ndarray:
    """An array of ``shape`` and ``dtype`` whose contents the caller overwrites: one from this
    thread's pool when it has one, else a new (uninitialised) array."""
    pool = getattr(_local, "pool", None)
    if pool:
        arrays = pool.get((shape, dtype))
        if arrays:
            a = arrays.pop()
            _local.bytes -= a.nbytes
            if not arrays:
                del pool[(shape, dtype)]
            return a
    return np.empty(shape, dtype)


def scratch(shape: tuple, dtype) -> np.ndarray:
    """An uninitialised work array: :func:`fresh` when it is large enough to be pooled (give
    it back with :func:`recycle` once done), else a plain ``np.empty``."""
    dtype = np.dtype(dtype)
    if int(np.prod(shape, dtype=np.int64)) * dtype.itemsize >= MIN_BYTES:
        return fresh(shape, dtype)
    return np.empty(shape, dtype)


def recycle(a) -> None:
    """Give the array ``a`` back to this thread's pool if nothing but the caller's variable
    (the caller must hold it in exactly one local name) references it, it owns its memory
    and it is large enough to be worth keeping."""
    # (references: the caller's variable, this parameter, getrefcount's argument)
    if type(a) is not np.ndarray or a.base is not None or a.nbytes < MIN_BYTES or \
            not a.flags.writeable or sys.getrefcount(a) != 3:
        return
    pool = _pool()
    key = (a.shape, a.dtype)
    pool.setdefault(key, []).append(a)
    pool.move_to_end(key)
    _local.bytes += a.nbytes
    while _local.bytes > POOL_BYTES:
        old_key, arrays = next(iter(pool.items()))
        _local.bytes -= arrays.pop(0).nbytes
        if not arrays:
            del pool[old_key]


def clear() -> None:
    """Drop this thread's pooled arrays."""
    _local.pool = OrderedDict()
    _local.bytes = 0
