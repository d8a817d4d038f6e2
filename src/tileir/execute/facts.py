"""Facts about arrays that cannot change, remembered between launches.

Much of a lock-step launch's Python time goes into arithmetic on small index arrays: which tile
each lane loads, whether the lanes' tiles are evenly spaced, which lanes share a row block.  The
arrays are often the *same objects* launch after launch: a chunk's block-id lanes
(``launch._set_lanes``) and every value a launch replays from its memo (:mod:`.replay`) are kept
read-only and own their memory, so nothing can change them.  A fact computed from such arrays
(plus plain hashable values) is remembered, keyed by the arrays' identities; holding the arrays
keeps the identities from being reused.  Arrays that might change (writeable, or views of other
memory) are never remembered: the fact is computed every time.

At most :data:`MAX_FACTS` facts holding :data:`MAX_BYTES` of arrays are kept (then all are
forgotten at once); array results are made read-only (they are shared by every later use).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Hashable

import numpy as np

__all__ = ["fact", "fact_of", "unchanging"]

MAX_FACTS = 512
MAX_BYTES = 64 << 20

_facts: dict = {}
_held = [0]
_lock = threading.Lock()


def unchanging(a: Any) -> bool:
    """Whether ``a`` is an array nothing can change: read-only and owning its memory."""
    return type(a) is np.ndarray and not a.flags.writeable and a.base is None


def fact(arrays: tuple, what: Hashable, compute: Callable[[], Any]) -> Any:
    """``compute()``, a function of the ``arrays`` and of the hashable ``what`` only,
    remembered when every array is :func:`unchanging` (see the module docstring)."""
    for a in arrays:
        if not unchanging(a):
            return compute()
    key = (tuple(id(a) for a in arrays), what)
    hit = _facts.get(key)
    if hit is not None and all(x is y for x, y in zip(hit[0], arrays)):
        return hit[1]
    value = compute()
    if type(value) is np.ndarray:
        value.flags.writeable = False
    elif type(value) is tuple:
        for v in value:
            if type(v) is np.ndarray:
                v.flags.writeable = False
    held = sum(a.nbytes for a in arrays) + _nbytes(value)
    if held > MAX_BYTES:
        return value
    with _lock:
        if len(_facts) >= MAX_FACTS or _held[0] + held > MAX_BYTES:
            _facts.clear()
            _held[0] = 0
        _facts[key] = (arrays, value)
        _held[0] += held
    return value


def fact_of(a: np.ndarray, what: Hashable, compute: Callable[[np.ndarray], Any]) -> Any:
    """``compute(a)``, remembered as :func:`fact` does for the one array ``a``."""
    if not unchanging(a):
        return compute(a)
    return fact((a,), what, lambda: compute(a))


def _nbytes(value: Any) -> int:
    if type(value) is np.ndarray:
        return value.nbytes
    if type(value) is tuple:
        return sum(v.nbytes for v in value if type(v) is np.ndarray)
    return 0
