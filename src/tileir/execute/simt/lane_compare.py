"""Integer comparisons that feed an ``scf.if`` directly: lane ranges instead of masks.

``arith.cmpi ult, %tid, %s`` followed by ``scf.if`` on its result (its only use) is the guard
of most SIMT kernels.  When the compared value is affine in *one* lane axis (a thread or block
id, :class:`~.lanes.Aff`) and the other operand is uniform, the lanes that take the branch
are an interval of that axis: the ``scf.if`` can run its branch on that sub-box of the lane
space at once, without building a boolean mask, testing it for all/any and finding the box it
selects again (what :meth:`~.lanes.BoxSpace.restrict` does with a mask).

The comparison's step returns a :class:`LaneCompare` (the two operands, not yet compared) in
place of the boolean value; the ``scf.if`` asks it for :meth:`LaneCompare.split` and, where
that declines (several axes, a list space, a predicate whose lanes are not an interval,
unsigned operands that may be negative), for :meth:`LaneCompare.value`, the ordinary boolean
lane array.  Either way the branch runs on exactly the lanes the mask would select.
``ENABLED = False`` turns the fast path off (every comparison returns its mask).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from .lanes import Aff, BoxSpace, Space

__all__ = ["ENABLED", "LaneCompare", "split_box"]

#: return :class:`LaneCompare` from a comparison whose only use is the next ``scf.if``
ENABLED = True

#: the predicate with its operands swapped (``k < x`` is ``x > k``)
_SWAPPED = {"eq": "eq", "ne": "ne", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}


class LaneCompare:
    """An integer comparison ``pred(a, b)`` not yet evaluated.

    ``general(a, b, space)`` computes the boolean lane array the way ``arith.cmpi`` does."""

    __slots__ = ("pred", "a", "b", "general")

    def __init__(self, pred: str, a: Any, b: Any,
                 general: Callable[[Any, Any, Space], Any]) -> None:
        self.pred, self.a, self.b, self.general = pred, a, b, general

    def value(self, space: Space) -> Any:
        """The comparison's result as an ordinary lane value of ``space``."""
        return self.general(self.a, self.b, space)

    def split(self, space: Space, want_else: bool = True) -> Optional[tuple]:
        """``(lanes where true, lanes where false)`` as children of the box ``space`` (or
        ``space`` itself where all lanes agree, None where no lane is in that part), when the
        true lanes form an interval of one lane axis; None where the caller must build the
        mask.  See :func:`split_box` (and ``want_else``) for the false part."""
        if type(space) is not BoxSpace:
            return None
        return split_box(self.pred, self.a, self.b, space, want_else)


def _uniform_int(x: Any) -> Optional[int]:
    """The value of a lane-uniform integer (an :class:`Aff` constant, a one-element array)."""
    if type(x) is Aff:
        return x.const if not any(x.coef) else None
    if type(x) is np.ndarray and x.size == 1 and x.dtype.kind in "iu":
        return int(x.reshape(-1)[0])
    return None


def split_box(pred: str, a: Any, b: Any, space: BoxSpace,
              want_else: bool = True) -> Optional[tuple]:
    """:meth:`LaneCompare.split` for a box space; ``pred`` is an ``arith.cmpi`` predicate
    (``slt``, ``ult``, ``eq``...).  Returns ``(then, else)`` where each is ``space``, a child
    :class:`BoxSpace` or None (no lanes), or None when the fast path does not apply; ``else``
    is ``False`` when the false lanes exist but are no box (``!=``, an interval inside the
    axis; the caller then builds the complement from the mask) or when ``want_else`` is
    false (an ``scf.if`` without else region needs only the true lanes)."""
    if type(a) is Aff:
        aff, k, p = a, _uniform_int(b), pred
    elif type(b) is Aff:
        aff, k = b, _uniform_int(a)
        p = pred[:-2] + _SWAPPED[pred[-2:]]
    else:
        return None
    if k is None:
        return None
    coef, shape, lo = aff.coef, space.shape, space.lo
    d = -1                          # the one axis the value varies along, if any
    base = aff.const                # the value where axis d is 0
    for e in range(len(coef)):
        c = coef[e]
        if c:
            if shape[e] > 1:
                if d >= 0:
                    return None     # (several axes: no interval)
                d = e
            else:
                base += c * lo[e]
    if d < 0:
        lo_v = base
    else:
        c = coef[d]
        lo_v = base + min(c * lo[d], c * (lo[d] + shape[d] - 1))
    if p[0] == "u":
        if k < 0 or lo_v < 0:       # (negative values read as large unsigned ones)
            return None
        p = p[1:]
    elif p[0] == "s":
        p = p[1:]
    if p == "ne":
        return None
    if d < 0:                       # uniform over the space: all lanes agree
        return _whole(_holds(p, lo_v, k), space)
    first, last = _interval(p, k - base, c)     # value = base + c * x_d
    lo_d, n_d = lo[d], shape[d]
    first = lo_d if first is None else max(first, lo_d)
    last = lo_d + n_d - 1 if last is None else min(last, lo_d + n_d - 1)
    if first > last:
        return None, space
    if first == lo_d and last == lo_d + n_d - 1:
        return space, None
    then = _sub(space, d, first, last)
    if not want_else:
        other = False
    elif first == lo_d:
        other = _sub(space, d, last + 1, lo_d + n_d - 1)
    elif last == lo_d + n_d - 1:
        other = _sub(space, d, lo_d, first - 1)
    else:
        other = False
    return then, other


def _holds(p: str, v: int, k: int) -> bool:
    return {"eq": v == k, "lt": v < k, "le": v <= k, "gt": v > k, "ge": v >= k}[p]


def _whole(taken: bool, space: BoxSpace) -> tuple:
    return (space, None) if taken else (None, space)


def _interval(p: str, r: int, c: int) -> tuple[Optional[int], Optional[int]]:
    """The integers ``x`` (an interval, None for an open end) with ``c * x  p  r``
    (``c != 0``)."""
    # the values v = c * x allowed: [vlo, vhi]
    if p == "lt":
        vlo, vhi = None, r - 1
    elif p == "le":
        vlo, vhi = None, r
    elif p == "gt":
        vlo, vhi = r + 1, None
    elif p == "ge":
        vlo, vhi = r, None
    else:                           # eq
        vlo, vhi = r, r
    if c < 0:                       # c * x in [vlo, vhi]  <=>  x in [vhi / c, vlo / c]
        vlo, vhi = vhi, vlo
    first = None if vlo is None else -((-vlo) // c)     # ceil(vlo / c)
    last = None if vhi is None else vhi // c            # floor(vhi / c)
    return first, last


def _sub(space: BoxSpace, d: int, first: int, last: int) -> BoxSpace:
    """The child box of ``space`` with axis ``d`` narrowed to ``[first, last]``."""
    lo = space.lo[:d] + (first,) + space.lo[d + 1:]
    shape = space.shape[:d] + (last - first + 1,) + space.shape[d + 1:]
    return space.child(lo, shape)
