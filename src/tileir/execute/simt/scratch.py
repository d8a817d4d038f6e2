"""Recycled arrays for the memory a kernel launch allocates for itself (workgroup and private
attributions, ``memref.alloca``).

Such memory lives only while its launch chunk runs, so its arrays go back to a small pool when
the chunk ends and the next launch takes them instead of allocating afresh (a fresh multi-MB
``np.zeros`` costs the page faults of touching every page, more than the kernel's first pass
over it).  A recycled array holds stale values: the :class:`~.memory.Buffer` made from it is
``zero_pending`` and reads as zeros (it is zero-filled on first access unless a store
overwrites all of it first), so every launch still sees zero-filled memory.
"""

from __future__ import annotations

import threading

import numpy as np

__all__ = ["ENABLED", "take", "give", "clear", "MAX_POOLED_BYTES"]

#: recycle arrays between launches (False: every allocation is a fresh ``np.empty``)
ENABLED = True
#: most bytes the pool keeps (arrays beyond it are left to the garbage collector)
MAX_POOLED_BYTES = 256 << 20

_lock = threading.Lock()
_pool: dict[tuple[np.dtype, int], list[np.ndarray]] = {}
_pooled_bytes = 0


def take(size: int, dtype: np.dtype) -> np.ndarray:
    """A 1-d array of ``size`` elements of ``dtype`` with unspecified contents."""
    dtype = np.dtype(dtype)
    if ENABLED:
        global _pooled_bytes
        with _lock:
            free = _pool.get((dtype, size))
            if free:
                arr = free.pop()
                _pooled_bytes -= arr.nbytes
                return arr
    return np.empty(size, dtype=dtype)


def give(arr: np.ndarray) -> None:
    """Return an array from :func:`take` that nothing references any more."""
    global _pooled_bytes
    if not ENABLED or arr.base is not None or not arr.flags.c_contiguous:
        return
    with _lock:
        if _pooled_bytes + arr.nbytes > MAX_POOLED_BYTES:
            return
        _pool.setdefault((arr.dtype, arr.size), []).append(arr)
        _pooled_bytes += arr.nbytes


def clear() -> None:
    """Drop every pooled array."""
    global _pooled_bytes
    with _lock:
        _pool.clear()
        _pooled_bytes = 0
