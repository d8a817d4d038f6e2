"""Divergent control flow in lock step: running a subset of the lanes of a batch.

When the tile blocks of a lock-step batch (the lanes, see :mod:`.plan`) disagree about a branch
(an ``if`` condition, a ``for`` trip count, a ``break``), the executor does not fall back to one
block at a time.  It *compacts*: the register list is sliced down to the lanes that take a path
(:func:`compact`), the path runs for just those lanes (every op of it, side effects included,
sees only them), and the lanes' results are scattered back (:func:`gather`).  A lane never
executes an op its block would not execute, so this is the same legal interleaving of blocks
as plain lock step.

Signals (see :mod:`.plan`) gain two kinds for this:

* ``(SPLIT, groups)``: the lanes of the current register list left a region in different ways;
  ``groups`` is a list of ``(lane_indices, signal)`` covering every lane once (indices relative to
  the register list the signal is returned from);
* ``(FALL, (regs, lanes))`` inside a SPLIT: these lanes carry on with the ops after the one that
  split, in the compacted register list ``regs`` (already holding that op's results), with the
  block ids ``lanes`` (a :class:`LaneState`).
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Optional

import numpy as np

from .values import TensorViewValue

__all__ = ["SPLIT", "FALL", "LaneState", "take", "taken_from", "compact", "gather",
           "scatter_into"]

SPLIT, FALL = 4, 5


class LaneState:
    """The block ids of the lanes a register list holds (``rt.bx/by/bz``, ``rt.lanes``)."""

    __slots__ = ("bx", "by", "bz", "lanes")

    def __init__(self, bx, by, bz, lanes: int) -> None:
        self.bx, self.by, self.bz, self.lanes = bx, by, bz, lanes

    @classmethod
    def of(cls, rt) -> "LaneState":
        return cls(rt.bx, rt.by, rt.bz, rt.lanes)

    def install(self, rt) -> None:
        rt.bx, rt.by, rt.bz, rt.lanes = self.bx, self.by, self.bz, self.lanes

    def subset(self, idx: np.ndarray) -> "LaneState":
        n = self.lanes
        return LaneState(take(self.bx, idx, n), take(self.by, idx, n), take(self.bz, idx, n),
                         int(idx.size))


def take(v, idx: np.ndarray, n: int):
    """Lanes ``idx`` of the register value ``v`` of a batch of ``n`` lanes (values that are
    the same for every lane, with a lane axis of 1, are shared unchanged)."""
    if isinstance(v, np.ndarray):
        if v.ndim and v.shape[0] == n and n != 1:
            taken = v[idx]
            _TAKEN[id(taken)] = (weakref.ref(taken), weakref.ref(v), idx)
            if len(_TAKEN) > _TAKEN_MAX:
                _TAKEN.popitem(last=False)
            return taken
        return v
    if isinstance(v, TensorViewValue) and v.lanes == n and n != 1:
        return TensorViewValue(take(v.base, idx, n), take(v.shape, idx, n),
                               take(v.strides, idx, n))
    return v


def taken_from(a: np.ndarray) -> Optional[tuple]:
    """``(source, idx)`` when the array ``a`` is ``source[idx]``, the lanes of a register that
    :func:`take` compacted (recently, and ``source`` is still alive), else None: a cache keyed
    on a register's array can follow it through compaction (a loop-invariant operand of a
    loop whose lanes finish at different iterations)."""
    entry = _TAKEN.get(id(a))
    if entry is None or entry[0]() is not a:
        return None
    source = entry[1]()
    return None if source is None else (source, entry[2])


#: id(taken array) -> (weak reference to it, weak reference to its source, lane indices), for
#: the last :data:`_TAKEN_MAX` arrays :func:`take` made (see :func:`taken_from`)
_TAKEN: "OrderedDict[int, tuple]" = OrderedDict()
_TAKEN_MAX = 256


def compact(regs: list, idx: np.ndarray, n: int, slots: Optional[tuple] = None) -> list:
    """A register list holding only lanes ``idx`` of ``regs`` (``n`` lanes).  With ``slots``
    (the registers a region reads from outside it) only those are sliced; the others keep
    values the region never reads."""
    if slots is None:
        return [take(v, idx, n) for v in regs]
    out = list(regs)
    for s in slots:
        out[s] = take(regs[s], idx, n)
    return out


def _lane_rows(v, count: int):
    return v if v.shape[0] == count else np.broadcast_to(v, (count,) + v.shape[1:])


def scatter_into(out: Optional[np.ndarray], idx: np.ndarray, v, n: int):
    """Write value ``v`` (of lanes ``idx``) into the ``n``-lane array ``out`` (created when
    None); returns ``out``.  Tokens (None) stay None."""
    if v is None:
        return None
    if not isinstance(v, np.ndarray):
        raise TypeError(f"cannot merge a {type(v).__name__} across diverging tile blocks")
    if out is None:
        out = np.empty((n,) + v.shape[1:], dtype=v.dtype)
    out[idx] = _lane_rows(v, idx.size)
    return out


def gather(groups: list, n: int) -> tuple[np.ndarray, list]:
    """Merge ``[(lane_indices, values), ...]`` (disjoint lanes of an ``n``-lane batch) into
    ``(lanes, merged)``: the sorted union of the lanes and, per value, one array over them."""
    if len(groups) == 1:
        return groups[0]
    lanes = np.sort(np.concatenate([g[0] for g in groups]))
    count = lanes.size
    merged: list = [None] * len(groups[0][1])
    for idx, values in groups:
        pos = np.searchsorted(lanes, idx)
        for j, v in enumerate(values):
            merged[j] = scatter_into(merged[j], pos, v, count)
    return lanes, merged
