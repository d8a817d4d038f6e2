"""Which loads may return views of memory instead of copies (zero-copy loads).

A ``load_view_tko`` normally copies its tile out of the buffer, because a later store could
change the memory under a view.  :func:`read_only_views` proves, per entry, which tile views
only ever point into entry parameters that no store or atomic of the kernel writes through:

* every pointer or view value gets the set of entry parameters it may derive from, following
  the ops that only move or reshape pointers (views, ``offset``, ``reshape``, ``broadcast``,
  ``select``...); any other source (a loaded pointer, ``int_to_ptr``, a loop-carried or
  ``if``-merged value, a global) is *unknown*;
* the parameters written are those behind the pointer operands of stores and atomics; one
  unknown written pointer means nothing is read-only.

The launch completes the proof (``Runtime.zero_copy``): it is only safe when no array argument
behind a written parameter shares memory with another argument (:func:`written_parameters`;
the same array passed for two parameters that are only read is fine).
"""

from __future__ import annotations

from typing import Optional

from ..ir.core import Operation
from ..dialects.cuda_tile.types import PointerType, TensorViewType, TileType, TileViewType

__all__ = ["read_only_views", "written_parameters", "is_pointer_like"]

#: ops whose pointer/view results derive only from their pointer/view operands
_FORWARDING = {"cuda_tile." + n for n in (
    "make_tensor_view", "make_partition_view", "make_strided_view", "make_gather_scatter_view",
    "offset", "reshape", "broadcast", "assume", "ptr_to_ptr", "permute", "select", "extract",
    "cat")}
#: ops that write memory through their pointer/view operands
_WRITERS = {"cuda_tile." + n for n in (
    "store_view_tko", "store_ptr_tko", "atomic_rmw_tko", "atomic_cas_tko",
    "atomic_red_view_tko")}


def is_pointer_like(t) -> bool:
    """Pointer tiles, tensor views and tile views."""
    if isinstance(t, TileType):
        return isinstance(t.element, PointerType)
    return isinstance(t, (TensorViewType, TileViewType))


def read_only_views(entry: Operation) -> set:
    """The pointer/view values of ``entry`` that only reach memory no store writes (none when
    ``entry`` has no body, e.g. a single op compiled for constant folding)."""
    origins, written = _origins_and_writes(entry)
    if written is None:
        return set()
    return {v for v, o in origins.items() if o is not None and not (o & written)}


def written_parameters(entry: Operation) -> Optional[frozenset]:
    """The indices of the entry parameters that a store or atomic may write through; None
    when a write goes through a pointer of unknown origin (or ``entry`` has no body)."""
    return _origins_and_writes(entry)[1]


def _origins_and_writes(entry: Operation) -> tuple[dict, Optional[frozenset]]:
    """``(origins, written)``: the parameter indices each pointer/view value may derive from
    (None: unknown), and the parameters written (None: unknown)."""
    if not entry.regions or not entry.regions[0].blocks:
        return {}, None
    args = entry.regions[0].blocks[0].args
    origins: dict = {a: frozenset({i}) for i, a in enumerate(args) if is_pointer_like(a.type)}
    for op in entry.walk(include_self=False):
        for res in op.results:
            if not is_pointer_like(res.type):
                continue
            origins[res] = _forwarded(op, origins) if op.name in _FORWARDING else None
    written: frozenset = frozenset()
    for op in entry.walk(include_self=False):
        if op.name in _WRITERS:
            for v in op.operands:
                if is_pointer_like(v.type):
                    o = origins.get(v)
                    if o is None:
                        return origins, None
                    written |= o
    return origins, written


def _forwarded(op: Operation, origins: dict) -> Optional[frozenset]:
    out: frozenset = frozenset()
    for v in op.operands:
        if is_pointer_like(v.type):
            o = origins.get(v)
            if o is None:
                return None
            out |= o
    return out
