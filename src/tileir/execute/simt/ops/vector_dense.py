"""Whole-vector memory accesses in one strided gather or scatter.

The vector memory ops of :mod:`.vector` define their meaning element by element: element ``k``
of the vector is one checked access of every lane (:func:`~..memory.element_address`), made in
row-major order of the vector's elements, lanes in lane order within each.  That is the
reference path, and the one that reports faults.  Done literally it costs a Python round per
element, so this module serves the common cases for all elements at once:

* :func:`load` / :func:`store`: no mask and every element in bounds.  Affine indices in a box
  space address a strided view of the buffer (the lane axes, then one axis per vector dim);
  other indices one NumPy gather (or scatter) over an address array;
* :func:`load_selected` / :func:`store_selected`: a per-element selection (a mask, elements a
  transfer pads or skips, gather/scatter offsets) checked and addressed element-wise in one go.

Each answers None (False for stores) where the access might fault, where races are being
recorded, or where the memref is not one it serves (a freed or read-only buffer, a memref of
vectors, per-lane sizes or strides); the caller then takes the element-by-element path, which
raises the same fault with the same report as it always did.  A store writes its elements in the
reference order (vector element outermost, then lanes), so where several elements land on one
memory element the one the reference writes last wins; a strided view is written at once only
when no two of its elements share a memory element.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ..lanes import Aff, BoxSpace, Space, affine_range
from ..layout import physical
from ..memory import MemRef, _scalar, _view_geometry

__all__ = ["load", "store", "load_selected", "store_selected", "positions"]


def _geometry(ex, ref: MemRef, write: bool) -> Optional[tuple[list, list]]:
    """``ref``'s sizes and strides as ints when the fast paths serve it, else None."""
    buf = ref.buffer
    if buf.freed or (write and buf.read_only) or buf.raw.dtype.names is not None or \
            getattr(ex, "racelog", None) is not None:
        return None
    sizes = [_scalar(s) for s in ref.sizes]
    strides = [_scalar(s) for s in ref.strides]
    if None in sizes or None in strides:
        return None
    return sizes, strides


def _vector_axes(dims: Sequence[Optional[int]], vshape: tuple, rank: int,
                 strides: list) -> Optional[tuple[list, list]]:
    """Per memref dim the extent the vector covers along it (1 where none), and per vector dim
    its stride in memory (0 for a broadcast dim); None if a memref dim takes two vector dims."""
    ext = [1] * rank
    vstrides = []
    for k, d in enumerate(dims):
        if d is None:
            vstrides.append(0)
            continue
        if ext[d] != 1 or vshape[k] < 1:
            return None
        ext[d] = vshape[k]
        vstrides.append(strides[d])
    return ext, vstrides


def _lane_ints(space: Space, x: Any, vrank: int) -> np.ndarray:
    """A lane value (int, array or :class:`Aff`) as int64 with ``vrank`` unit vector axes."""
    a = space.array(x) if isinstance(x, Aff) else x
    a = np.asarray(a).astype(np.int64, copy=False)
    nd = space.ndim
    if a.ndim < nd:
        a = a.reshape((1,) * nd)
    return a.reshape(a.shape[:nd] + (1,) * vrank)


def _grid(vshape: tuple, vstrides: Sequence[int]) -> np.ndarray:
    """``sum(o_k * vstrides[k])`` over the element offsets ``o`` of a vector of ``vshape``."""
    out = np.zeros((1,) * len(vshape), np.int64)
    for k, (n, st) in enumerate(zip(vshape, vstrides)):
        if st and n > 1:
            shape = [1] * len(vshape)
            shape[k] = n
            out = out + (np.arange(n, dtype=np.int64) * st).reshape(shape)
    return out


def _vector_range(vshape: tuple, vstrides: Sequence[int]) -> tuple[int, int]:
    """The smallest and largest element offset of a vector of ``vshape`` and ``vstrides``."""
    lo = hi = 0
    for n, st in zip(vshape, vstrides):
        step = (n - 1) * st
        lo += min(0, step)
        hi += max(0, step)
    return lo, hi


def _plain_address(ex, space: Space, ref: MemRef, indices: Sequence[Any], vshape: tuple,
                   dims: Sequence[Optional[int]], write: bool) -> Optional[tuple]:
    """Where an unmasked vector access (a store for ``write``) finds its elements when every
    one is in bounds: ``(base, vstrides)``, ``base`` an :class:`Aff` base address (box space,
    affine indices and offset: the elements are a strided view) or an int64 base address
    array (lanes, then unit vector axes), ``vstrides`` the vector dims' strides in memory
    (:func:`_vector_axes`); None where some element is out of bounds (or the access is not one
    this serves, :func:`_geometry`)."""
    geo = _geometry(ex, ref, write)
    if geo is None:
        return None
    sizes, strides = geo
    rank = len(sizes)
    if len(indices) != rank:
        return None
    axes = _vector_axes(dims, vshape, rank, strides)
    if axes is None:
        return None
    ext, vstrides = axes
    vlo, vhi = _vector_range(vshape, vstrides)
    size = ref.buffer.size
    off = ref.offset
    if type(space) is BoxSpace and all(type(i) in (Aff, int) for i in indices) and \
            type(off) in (Aff, int):
        base = off.cast(np.int64) if type(off) is Aff else Aff(off, (0,) * len(space.lo),
                                                                 np.int64)
        for i, n, e, st in zip(indices, sizes, ext, strides):
            lo, hi = affine_range(i.const, i.coef, space) if type(i) is Aff else (i, i)
            if lo < 0 or hi + e - 1 >= n:
                return None
            base = base.plus(i.times(st) if type(i) is Aff else i * st)
        lo, hi = base.value_range(space)
        if lo + vlo < 0 or hi + vhi >= size:
            return None
        return base, vstrides
    vrank = len(vshape)
    base = _lane_ints(space, off, vrank)
    for i, n, e, st in zip(indices, sizes, ext, strides):
        iv = _lane_ints(space, i, vrank)
        if iv.size and (int(iv.min()) < 0 or int(iv.max()) + e - 1 >= n):
            return None
        base = base + iv * st
    if base.size and (int(base.min()) + vlo < 0 or int(base.max()) + vhi >= size):
        return None
    return base, vstrides


def _strided(space: BoxSpace, data: np.ndarray, base: Aff, vshape: tuple,
             vstrides: Sequence[int]) -> np.ndarray:
    """The elements of a vector access at the affine ``base`` as a strided view of ``data``
    (lane axes, unit where the address does not vary along them, then the vector's axes)."""
    item = data.itemsize
    shape, strides, first = _view_geometry(base.coef, space.lo, space.shape, item)
    shape = shape + tuple(vshape)
    strides = strides + tuple(st * item for st in vstrides)
    first += base.const
    try:
        return np.ndarray(shape, data.dtype, buffer=data, offset=first * item, strides=strides)
    except (TypeError, ValueError):     # (a buffer NumPy will not wrap, a negative stride)
        return np.lib.stride_tricks.as_strided(data[first:], shape=shape, strides=strides)


def _injective(space: BoxSpace, base: Aff, vshape: tuple, vstrides: Sequence[int]) -> bool:
    """Whether no two elements of a vector access at the affine ``base`` share a memory element
    (its lane and vector axes, by increasing stride, each step past the span of the smaller)."""
    axes = []
    for c, n in zip(base.coef, space.shape):
        if n > 1:
            if not c:
                return False
            axes.append((abs(c), n))
    for st, n in zip(vstrides, vshape):
        if n > 1:
            if not st:
                return False
            axes.append((abs(st), n))
    span = 1
    for c, n in sorted(axes):
        if c < span:
            return False
        span += c * (n - 1)
    return True


def _addresses(space: Space, base: Any, vshape: tuple, vstrides: Sequence[int]) -> np.ndarray:
    """Every element's logical address, broadcast to ``space.shape + vshape``."""
    if isinstance(base, Aff):
        base = _lane_ints(space, base, len(vshape))
    full = space.shape + tuple(vshape)
    return np.broadcast_to(base + _grid(vshape, vstrides), full)


def _full(x: np.ndarray, shape: tuple) -> np.ndarray:
    """``x`` as a fresh array of ``shape`` (a copy when it has to grow)."""
    return x if x.shape == shape else np.array(np.broadcast_to(x, shape))


def load(ex, space: Space, ref: MemRef, indices: Sequence[Any], vshape: tuple,
         dims: Sequence[Optional[int]]) -> Optional[np.ndarray]:
    """The vector at ``indices`` of every lane (vector dim ``k`` running along memref dim
    ``dims[k]``, or repeating its element where that is None), shape ``space.shape + vshape``
    and the buffer's dtype; None where the element-by-element path must decide."""
    target = _plain_address(ex, space, ref, indices, vshape, dims, False)
    if target is None:
        return None
    base, vstrides = target
    buf = ref.buffer
    full = space.shape + tuple(vshape)
    if type(base) is Aff and buf.layout is None:
        view = _strided(space, buf.data, base, vshape, vstrides)
        out = np.empty(full, view.dtype)
        out[...] = view
        return out
    addr = physical(space, buf.layout, _addresses(space, base, vshape, vstrides))
    return _full(buf.data[addr], full)


def _in_order(x: np.ndarray, nd: int) -> np.ndarray:
    """A ``lanes + vector`` array flattened vector element first, then lane (the order the
    reference stores elements in)."""
    vr = x.ndim - nd
    return np.moveaxis(x, tuple(range(nd, nd + vr)), tuple(range(vr))).reshape(-1)


def store(ex, space: Space, ref: MemRef, indices: Sequence[Any], values: np.ndarray,
          vshape: tuple, dims: Sequence[Optional[int]]) -> bool:
    """Write ``values`` (broadcasting to ``space.shape + vshape``) as the vectors at
    ``indices`` (see :func:`load`); False where the element-by-element path must do it."""
    target = _plain_address(ex, space, ref, indices, vshape, dims, True)
    if target is None:
        return False
    base, vstrides = target
    buf = ref.buffer
    full = space.shape + tuple(vshape)
    values = np.broadcast_to(values, full)
    if type(base) is Aff and buf.layout is None and _injective(space, base, vshape, vstrides):
        _strided(space, buf.data, base, vshape, vstrides)[...] = values
        return True
    addr = physical(space, buf.layout, _addresses(space, base, vshape, vstrides))
    buf.data[_in_order(np.broadcast_to(addr, full), space.ndim)] = _in_order(values, space.ndim)
    return True


def positions(space: Space, indices: Sequence[Any], vshape: tuple,
              dims: Sequence[Optional[int]]) -> list[np.ndarray]:
    """Per memref dim, every element's index (int64, broadcasting to ``space.shape +
    vshape``): ``indices`` moved by the element's offset along the vector dims on that dim."""
    vr = len(vshape)
    out = [_lane_ints(space, i, vr) for i in indices]
    for k, d in enumerate(dims):
        if d is not None and vshape[k] > 1:
            shape = [1] * vr
            shape[k] = vshape[k]
            out[d] = out[d] + np.arange(vshape[k], dtype=np.int64).reshape(shape)
    return out


def _select(space: Space, ref: MemRef, pos: Sequence[np.ndarray], sel: Optional[np.ndarray],
            full: tuple, sizes: list, strides: list, skip: Sequence[int],
            strict: Sequence[int]) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """The selected elements and their logical addresses (clipped into the buffer where not
    selected), or None where a selected element is out of bounds.

    An element is selected where ``sel`` is (everywhere when None) and its index lies inside
    the memref along every dim of ``skip`` (elements a transfer pads or skips); any element
    outside along a dim of ``strict`` (``in_bounds`` dims), and any selected element outside
    along another dim or outside the buffer, is a fault."""
    if len(pos) != len(sizes):
        return None
    sel = np.ones(full, bool) if sel is None else np.array(np.broadcast_to(sel, full), bool)
    inside = [(p >= 0) & (p < n) for p, n in zip(pos, sizes)]
    for d in strict:
        if not inside[d].all():
            return None
    for d in skip:
        sel &= inside[d]
    for d, ok in enumerate(inside):
        if d not in skip and d not in strict and not (ok | ~sel).all():
            return None
    addr = _lane_ints(space, ref.offset, len(full) - space.ndim)
    for p, st in zip(pos, strides):
        addr = addr + p * st
    addr = np.broadcast_to(addr, full)
    size = ref.buffer.size
    if not (((addr >= 0) & (addr < size)) | ~sel).all():
        return None
    if size and not sel.all():
        addr = np.clip(addr, 0, size - 1)
    return addr, sel


def load_selected(ex, space: Space, ref: MemRef, pos: Sequence[np.ndarray],
                  sel: Optional[np.ndarray], pad: Any, vshape: tuple, skip: Sequence[int] = (),
                  strict: Sequence[int] = ()) -> Optional[np.ndarray]:
    """The elements at the per-element indices ``pos`` (see :func:`positions`) where selected
    (see :func:`_select`), ``pad`` (cast to the buffer's dtype) elsewhere; None where the
    element-by-element path must decide."""
    geo = _geometry(ex, ref, False)
    if geo is None:
        return None
    full = space.shape + tuple(vshape)
    got = _select(space, ref, pos, sel, full, *geo, skip, strict)
    if got is None:
        return None
    addr, sel = got
    buf = ref.buffer
    dtype = buf.data.dtype
    padv = np.broadcast_to(np.asarray(pad).astype(dtype), full)
    if not sel.any():
        return np.array(padv)
    value = buf.data[physical(space, buf.layout, addr)]
    return np.where(sel, value, padv)


def store_selected(ex, space: Space, ref: MemRef, pos: Sequence[np.ndarray],
                   sel: Optional[np.ndarray], values: np.ndarray, vshape: tuple,
                   skip: Sequence[int] = (), strict: Sequence[int] = ()) -> bool:
    """Write the selected elements of ``values`` at the per-element indices ``pos`` (see
    :func:`load_selected`), in the reference order; False where the element-by-element path
    must do it."""
    geo = _geometry(ex, ref, True)
    if geo is None:
        return False
    full = space.shape + tuple(vshape)
    got = _select(space, ref, pos, sel, full, *geo, skip, strict)
    if got is None:
        return False
    addr, sel = got
    nd = space.ndim
    keep = _in_order(sel, nd)
    if keep.any():
        buf = ref.buffer
        where = _in_order(addr, nd)[keep]
        buf.data[physical(space, buf.layout, where)] = \
            _in_order(np.broadcast_to(values, full), nd)[keep]
    return True
