"""Loops that can never finish, found instead of run until the iteration limit.

The engine is deterministic and runs one launch at a time: while a loop runs, only the loop
changes state.  If, at two of its iterations, its active lanes, its loop-carried values and all
memory are the same, the loop repeats that stretch forever (a spin wait on a flag that another
launch or a later block would set, say).  :class:`RepeatCheck` takes such snapshots at
iterations 2^12, 2^13, ... (so the cost is a vanishing fraction of the loop's own; memory is
hashed only once lanes and values have repeated) and reports the repeat.  Loops that call functions are left alone (``rtclock`` may end a busy wait).
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterable, Optional

import numpy as np

from .lane_compare import LaneCompare
from .lanes import Aff
from .memory import LIVE_BUFFERS, MemRef

__all__ = ["RepeatCheck", "calls_functions"]

#: first iteration count at which a snapshot is taken (then at every power of two after it)
FIRST_CHECK = 1 << 12


def _memory_digest() -> bytes:
    h = hashlib.blake2b(digest_size=32)
    for buf in sorted(LIVE_BUFFERS, key=lambda b: b.ident):
        data = buf.data
        h.update(buf.ident.to_bytes(8, "little"))
        h.update(np.ascontiguousarray(data).view(np.uint8))
    return h.digest()


def _value_key(v: Any) -> Optional[Any]:
    """A hashable picture of a runtime value, or None for one this check does not know."""
    if isinstance(v, np.ndarray):
        return (v.dtype.str, v.shape, np.ascontiguousarray(v).tobytes())
    if isinstance(v, np.generic):
        return (v.dtype.str, v.tobytes())
    if isinstance(v, (bool, int, float)):
        return v
    if type(v) is Aff:
        return ("aff", v.const, tuple(v.coef))
    if isinstance(v, MemRef):
        parts = [_value_key(x) for x in (v.offset, *v.sizes, *v.strides)]
        return None if any(p is None for p in parts) else ("memref", v.buffer.ident, *parts)
    if type(v) is LaneCompare:
        parts = [_value_key(x) for x in (v.a, v.b)]
        return None if any(p is None for p in parts) else ("compare", v.pred, *parts)
    return None


class RepeatCheck:
    """Per loop execution: :meth:`at` once per iteration (``count`` from 1) returns a message
    when the loop's state repeats, else None."""

    __slots__ = ("enabled", "last")

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.last: Optional[tuple] = None

    def at(self, count: int, space: Any, values: Iterable[Any],
           place: Any = None) -> Optional[str]:
        """``space`` (the active lanes) and ``place`` (where the loop stands: a block, or a
        tuple of objects such as the paths waiting elsewhere) are compared by identity,
        ``values`` by content."""
        if not self.enabled or count < FIRST_CHECK or count & (count - 1):
            return None
        keys = tuple(_value_key(v) for v in values)
        if any(k is None for k in keys):
            self.enabled = False
            return None
        last = self.last
        same_state = last is not None and last[0] is space and _same(last[1], place) and \
            last[2] == keys
        # memory is hashed only while the lanes and values stay the same (a loop whose
        # counter moves never pays for it); the repeat is then seen one snapshot later
        digest = _memory_digest() if same_state else None
        self.last = (space, place, keys, digest)
        if same_state and digest is not None and last[3] == digest:
            return (f"the loop makes no progress: after {count} iterations its values and all "
                    f"memory are what they were after {count // 2}, so it never finishes (a "
                    "wait for another launch or another block? launches run one after "
                    "another here)")
        return None


def _same(a: Any, b: Any) -> bool:
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(x is y for x, y in zip(a, b))
    return a is b


def calls_functions(regions: Iterable[Any]) -> bool:
    """Whether any op nested in ``regions`` calls a function."""
    for region in regions:
        for block in region.blocks:
            for op in block.ops:
                if op.name in ("func.call", "func.call_indirect", "llvm.call") or \
                        (op.regions and calls_functions(op.regions)):
                    return True
    return False
