"""Checked memory of the SIMT engine: buffers, memref descriptors, loads, stores, race records.

Every allocation and every memref argument is a :class:`Buffer` (a flat NumPy array); a memref
value is a :class:`MemRef` descriptor ``(buffer, offset, sizes, strides)`` as in MLIR, whose fields
may differ per lane (a workgroup attribution's offset is ``block * size``, a private one's
``thread * size``, a subview's may depend on the thread id).  An access checks every index against
the memref's sizes *and* the resulting element against the buffer, so nothing outside a buffer is
ever read or written; a bad access raises :class:`~tileir.execute.errors.MemoryAccessError`
naming the op, its location, the block and thread ids and the index.

Addresses that are :class:`~.lanes.Aff` in a box space are served as strided views of the buffer
(no gather); others are NumPy fancy indexing.  Addresses are *logical* (``block * size + e`` for
a workgroup copy); a buffer whose copies are stored interleaved (``Buffer.layout``, see
:mod:`.layout`) is translated where :func:`load`, :func:`store` and :func:`store_computed`
touch its ``data``.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any, Optional, Sequence

import numpy as np

from ..errors import MemoryAccessError
from .faults import LaneFault
from .lanes import Aff, BoxSpace, Space, ROOT_NDIM, affine_range
from .layout import Interleaved, physical

__all__ = ["Buffer", "MemRef", "element_address", "load", "store", "RaceLog", "zeroed",
           "allocation"]

_ids = itertools.count(1)

#: every buffer alive (arguments, allocations, attributions): the memory a loop may change
LIVE_BUFFERS: "weakref.WeakSet[Buffer]" = weakref.WeakSet()


def zeroed(sizes: Sequence[int], dtype: Any, what: str) -> np.ndarray:
    """A zero-filled flat array for an allocation of shape ``sizes`` (see :func:`allocation`)."""
    n = 1
    for s in sizes:
        n *= int(s)
    return allocation(n, dtype, what, sizes)


def allocation(n: int, dtype: Any, what: str, sizes: Sequence[int] = (),
               make: Any = np.zeros) -> np.ndarray:
    """``make(n, dtype)``, a flat array for an allocation of ``n`` elements.  A byte count past
    the 64-bit address space, or more memory than the machine gives, is a
    :class:`MemoryAccessError` fault rather than a wrapped-around count or a ``MemoryError``."""
    dtype = np.dtype(dtype)
    if n * dtype.itemsize >= 1 << 63:
        shape = "x".join(map(str, sizes)) if sizes else str(n)
        raise LaneFault(f"{what} of {shape} elements: more than the 64-bit address space",
                        kind=MemoryAccessError)
    try:
        return make(n, dtype=dtype)
    except MemoryError:
        raise LaneFault(f"{what} of {n * dtype.itemsize} bytes: out of memory",
                        kind=MemoryAccessError) from None


class Buffer:
    """A flat, bounds-checked allocation: ``data`` (1-d) of ``dtype``.

    ``space`` is ``'global'``, ``'host'``, ``'device'`` (``gpu.alloc``), ``'host_shared'``,
    ``'workgroup'`` or ``'private'``; ``name`` names it in
    diagnostics; ``freed`` is set by ``dealloc`` (a later access is an error); ``layout`` is
    None (element ``a`` is ``data[a]``) or the :class:`~.layout.Interleaved` placement of the
    per-block / per-thread copies.

    ``zero_pending``: the array's contents are stale and the buffer reads as all zeros (a
    recycled scratch array, :mod:`.scratch`); reading :attr:`data` zero-fills it first, except
    where a store overwrites every element (:meth:`claim_for_overwrite`), which needs no
    zeroing."""

    __slots__ = ("_data", "zero_pending", "space", "name", "freed", "ident", "read_only",
                 "pending", "copy_size", "copy_extent", "layout", "__weakref__")

    def __init__(self, data: np.ndarray, space: str = "global", name: str = "buffer",
                 read_only: bool = False, zero_pending: bool = False) -> None:
        assert data.ndim == 1
        self._data = data
        self.zero_pending = zero_pending
        self.space = space
        self.name = name
        self.freed = False
        self.ident = next(_ids)
        self.read_only = read_only
        #: the :class:`~.values.Token` of an async op still writing it (host runtime)
        self.pending = None
        #: elements from one block's (workgroup) or thread's (private) copy to the next, else
        #: 0: copy ``b`` starts at element ``b * copy_size`` (:meth:`copy_base`)
        self.copy_size = 0
        #: elements of one copy that are the block's (thread's) memory (``copy_size`` unless
        #: the copies are padded, as dynamic shared memory's are)
        self.copy_extent = 0
        self.layout: Optional[Interleaved] = None
        LIVE_BUFFERS.add(self)

    @property
    def data(self) -> np.ndarray:
        """The elements (zero-filled first where :attr:`zero_pending`)."""
        if self.zero_pending:
            self._data.view(np.uint8).fill(0)
            self.zero_pending = False
        return self._data

    @data.setter
    def data(self, value: np.ndarray) -> None:
        self._data = value
        self.zero_pending = False

    @property
    def raw(self) -> np.ndarray:
        """The array as it is (stale where :attr:`zero_pending`): for shapes, dtypes and views
        that are written before anything reads them."""
        return self._data

    def claim_for_overwrite(self) -> np.ndarray:
        """The array, for a store about to write every element: pending zeros are dropped
        (nothing can observe them)."""
        self.zero_pending = False
        return self._data

    @property
    def size(self) -> int:
        return int(self._data.size)

    @property
    def per_copy(self) -> bool:
        """Whether the buffer holds one copy per block (workgroup memory) or per thread
        (private memory): what a kernel sees of it is only its own copy."""
        return self.copy_size > 0 and self.space in ("workgroup", "private")

    @property
    def copy_elements(self) -> int:
        """The elements of one copy a block (thread) may touch."""
        return self.copy_extent or self.copy_size

    def __repr__(self) -> str:
        return f"Buffer({self.name}, {self.space}, {self._data.dtype}[{self.size}])"


class MemRef:
    """A memref value: element ``(i0, i1, ...)`` lives at ``offset + sum(i_k * strides[k])`` of
    ``buffer``.  ``offset``, ``sizes`` and ``strides`` are ints, lane arrays or :class:`Aff`."""

    __slots__ = ("buffer", "offset", "sizes", "strides", "type")

    def __init__(self, buffer: Buffer, offset: Any, sizes: Sequence[Any],
                 strides: Sequence[Any], type: Any = None) -> None:
        self.buffer = buffer
        self.offset = offset
        self.sizes = tuple(sizes)
        self.strides = tuple(strides)
        self.type = type

    @property
    def rank(self) -> int:
        return len(self.sizes)

    def enter_space(self, space: Space) -> "MemRef":
        if type(space) is BoxSpace and _box_fields(self):
            return self         # (a box space takes ints and Affs as they are)

        def conv(x):
            return space.enter(x) if isinstance(x, (np.ndarray, Aff)) else x
        return MemRef(self.buffer, conv(self.offset), [conv(s) for s in self.sizes],
                      [conv(s) for s in self.strides], self.type)

    def static_sizes(self) -> Optional[tuple[int, ...]]:
        """The sizes as ints when they are the same for every lane, else None."""
        out = []
        for s in self.sizes:
            if isinstance(s, (int, np.integer)):
                out.append(int(s))
            elif isinstance(s, np.ndarray) and s.size == 1:
                out.append(int(s.reshape(-1)[0]))
            else:
                return None
        return tuple(out)

    def to_numpy(self) -> np.ndarray:
        """A NumPy view of a lane-uniform memref's elements (host side)."""
        sizes = self.static_sizes()
        off = _scalar(self.offset)
        strides = [_scalar(s) for s in self.strides]
        if sizes is None or off is None or any(s is None for s in strides):
            raise ValueError("memref descriptor differs between lanes")
        if self.buffer.layout is not None:
            raise ValueError(f"{self.buffer.name} is stored interleaved (no NumPy view of it)")
        data = self.buffer.data
        item = data.itemsize
        if any(n == 0 for n in sizes):
            return np.zeros(sizes, dtype=data.dtype)
        lo = off + sum(min(0, (n - 1) * s) for n, s in zip(sizes, strides))
        hi = off + sum(max(0, (n - 1) * s) for n, s in zip(sizes, strides))
        if lo < 0 or hi >= data.size:
            raise ValueError("memref descriptor reaches outside its buffer")
        return np.lib.stride_tricks.as_strided(data[off:], shape=sizes,
                                               strides=[s * item for s in strides])


def _box_fields(ref: MemRef) -> bool:
    """Whether every field of ``ref`` is an int or an :class:`Aff` (values a box space takes
    as they are: entering one leaves the descriptor unchanged)."""
    if type(ref.offset) not in (int, Aff):
        return False
    for x in ref.sizes:
        if type(x) not in (int, Aff):
            return False
    for x in ref.strides:
        if type(x) not in (int, Aff):
            return False
    return True


def _scalar(x: Any) -> Optional[int]:
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, np.ndarray) and x.size == 1:
        return int(x.reshape(-1)[0])
    if isinstance(x, Aff) and x.is_constant:
        return x.const
    return None


class AccessFault(LaneFault):
    """An access outside a memref or buffer: the first bad lane's position and its index."""

    def __init__(self, message: str, lane: Optional[tuple], index: Optional[tuple]) -> None:
        super().__init__(message, None, kind=MemoryAccessError, index=index, lane=lane)


def _first_lane(space: Space, bad: np.ndarray) -> tuple:
    """The position (in ``space``'s lane layout) of the first true lane of ``bad``."""
    full = np.broadcast_to(bad, space.shape + bad.shape[space.ndim:])
    flat = np.flatnonzero(full.reshape(space.shape + (-1,)).any(axis=-1)) if full.ndim > space.ndim \
        else np.flatnonzero(full)
    return np.unravel_index(int(flat[0]), space.shape)


def _lane_value(space: Space, value: Any, lane: tuple) -> Any:
    arr = space.array(value) if isinstance(value, Aff) else value
    if isinstance(arr, np.ndarray) and arr.ndim >= space.ndim:
        idx = tuple(p if arr.shape[d] > 1 else 0 for d, p in enumerate(lane))
        return arr[idx]
    return arr


def element_address(space: Space, ref: MemRef, indices: Sequence[Any]) -> Any:
    """The buffer element of ``ref[indices]`` for every lane: an :class:`Aff` (box spaces,
    affine indices) or an int64 lane array.  Raises :class:`AccessFault` on a bad index."""
    if ref.buffer.freed:
        raise AccessFault(f"access to {ref.buffer.name} after it was deallocated", None, None)
    if type(space) is BoxSpace:
        fast = _affine_address(space, ref, indices)
        if fast is not None:
            return fast
    if len(indices) != ref.rank:
        raise AccessFault(f"{len(indices)} indices for a rank-{ref.rank} memref", None, None)
    affine = isinstance(space, BoxSpace)
    parts = [ref.offset] + [None] * len(indices)
    for k, (i, n, s) in enumerate(zip(indices, ref.sizes, ref.strides)):
        _check_index(space, i, n, k, indices)
        if affine and isinstance(i, (Aff, int, np.integer)) or (
                affine and isinstance(i, np.ndarray) and i.size == 1):
            ic = i if isinstance(i, Aff) else Aff(_scalar(i), (0,) * ROOT_NDIM, np.int64)
            sc = _scalar(s)
            if sc is not None:
                parts[k + 1] = ic.times(sc)
                continue
        affine = False
        parts[k + 1] = (space.array(i).astype(np.int64, copy=False),
                        space.array(s) if not isinstance(s, int) else s)
    off = ref.offset
    if affine and (isinstance(off, Aff) or _scalar(off) is not None):
        addr = off if isinstance(off, Aff) else Aff(_scalar(off), (0,) * ROOT_NDIM, np.int64)
        addr = addr.cast(np.int64)
        for p in parts[1:]:
            addr = addr.plus(p)
        lo, hi = addr.value_range(space)
        if lo < 0 or hi >= ref.buffer.size:
            raise AccessFault(f"element outside {ref.buffer.name} "
                              f"({ref.buffer.size} elements)", None, tuple(_lane_value(
                                  space, i, (0,) * space.ndim) for i in indices))
        return addr
    total = np.asarray(space.array(off), dtype=np.int64)
    for k, i in enumerate(indices):
        s = ref.strides[k]
        iv = space.array(i).astype(np.int64, copy=False) if isinstance(i, (np.ndarray, Aff)) \
            else np.int64(i)
        sv = space.array(s) if isinstance(s, (np.ndarray, Aff)) else np.int64(s)
        total = total + iv * sv
    bad = (total < 0) | (total >= ref.buffer.size)
    if bad.any():
        lane = _first_lane(space, bad)
        raise AccessFault(f"element outside {ref.buffer.name} ({ref.buffer.size} elements)",
                          lane, tuple(int(_lane_value(space, i, lane)) for i in indices))
    return total


#: most entries a memo of this module holds (it is emptied when it would hold more)
_MEMO_LIMIT = 4096


def _remember(memo: dict, key: Any, value: Any) -> None:
    """Store ``value`` under ``key`` in one of this module's memos (emptying a full one)."""
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


#: ``(offset, sizes, strides, buffer size, box, indices)`` -> :func:`_affine_address`'s
#: answer: a kernel asks the same few questions in every launch (cleared when large)
_ADDRESSES: dict = {}


def _affine_address(space: BoxSpace, ref: MemRef, indices: Sequence[Any]) -> Optional[Aff]:
    """The common case, quickly: affine indices, a uniform descriptor, everything in bounds.
    None means "take the general path" (which also produces the diagnostics).  Answers are
    remembered by the fields they depend on (:data:`_ADDRESSES`)."""
    off = ref.offset
    try:
        key = ((off.const, off.coef) if type(off) is Aff else off, ref.sizes, ref.strides,
               ref.buffer.size, space.lo, space.shape,
               tuple([(i.const, i.coef) if type(i) is Aff else None for i in indices]))
        hit = _ADDRESSES.get(key, _ADDRESSES)
    except TypeError:           # (an unhashable field: a lane array)
        return _compute_affine_address(space, ref, indices)
    if hit is _ADDRESSES:
        hit = _compute_affine_address(space, ref, indices)
        _remember(_ADDRESSES, key, hit)
    return hit


def _compute_affine_address(space: BoxSpace, ref: MemRef,
                            indices: Sequence[Any]) -> Optional[Aff]:
    off = ref.offset
    if type(off) is Aff:
        const, coef = off.const, list(off.coef)
    elif type(off) is int:
        const, coef = off, [0] * ROOT_NDIM
    else:
        return None
    if len(indices) != len(ref.sizes):
        return None
    for i, n, st in zip(indices, ref.sizes, ref.strides):
        if type(i) is not Aff or type(n) is not int or type(st) is not int:
            return None
        lo, hi = affine_range(i.const, i.coef, space)
        if lo < 0 or hi >= n:
            return None
        const += i.const * st
        if st:
            for d, c in enumerate(i.coef):
                if c:
                    coef[d] += c * st
    lo, hi = affine_range(const, coef, space)
    if lo < 0 or hi >= ref.buffer.size:
        return None
    return Aff(const, tuple(coef), _INDEX)


_INDEX = np.dtype(np.int64)


def _check_index(space: Space, i: Any, n: Any, k: int, indices: Sequence[Any]) -> None:
    if isinstance(i, Aff) and isinstance(space, BoxSpace) and _scalar(n) is not None:
        lo, hi = i.value_range(space)
        if 0 <= lo and hi < _scalar(n):
            return
    iv = space.array(i) if isinstance(i, (np.ndarray, Aff)) else np.asarray(i)
    nv = space.array(n) if isinstance(n, (np.ndarray, Aff)) else np.asarray(n)
    bad = (iv < 0) | (iv >= nv)
    if np.any(bad):
        if isinstance(bad, np.ndarray) and bad.ndim >= space.ndim:
            lane = _first_lane(space, bad)
        else:
            lane = (0,) * space.ndim
        idx = tuple(int(_lane_value(space, j, lane)) for j in indices)
        size = int(_lane_value(space, n, lane))
        raise AccessFault(f"index {idx[k]} out of bounds for dimension {k} of size {size}",
                          lane, idx)


#: ``(coef, lo, shape, itemsize)`` -> ``(view shape, byte strides, element offset of the
#: box's first lane)`` of :func:`_view` (a handful of entries per kernel; cleared when large)
_VIEW_GEOMETRY: dict = {}


def _view_geometry(coef: tuple, lo: tuple, shape: tuple, item: int) -> tuple:
    key = (coef, lo, shape, item)
    try:
        hit = _VIEW_GEOMETRY.get(key)
    except TypeError:       # (a box given as lists: not memoised)
        hit = key = None
    if hit is None:
        base = 0
        vshape = []
        strides = []
        for c, l0, n in zip(coef, lo, shape):
            base += c * l0
            if c and n > 1:
                vshape.append(n)
                strides.append(c * item)
            else:           # (stride 0 on unit axes: NumPy then sees fewer overlaps)
                vshape.append(1)
                strides.append(0)
        hit = (tuple(vshape), tuple(strides), base)
        if key is not None:
            _remember(_VIEW_GEOMETRY, key, hit)
    return hit


def _view(space: BoxSpace, data: np.ndarray, addr: Aff) -> np.ndarray:
    """The elements ``addr`` names, as a strided view of ``data`` (already bounds-checked)."""
    item = data.itemsize
    shape, strides, base = _view_geometry(addr.coef, space.lo, space.shape, item)
    base += addr.const
    try:
        return np.ndarray(shape, data.dtype, buffer=data, offset=base * item,
                          strides=strides)
    except (TypeError, ValueError):  # a buffer NumPy will not wrap: take the general route
        return np.lib.stride_tricks.as_strided(data[base:], shape=shape, strides=strides)


def load(space: Space, buffer: Buffer, addr: Any, readonly: bool = False) -> np.ndarray:
    """The elements at ``addr`` (from :func:`element_address`), one per lane; ``readonly``:
    nothing writes the buffer while the value lives, so an affine access may return a view."""
    data = buffer.data
    addr = physical(space, buffer.layout, addr)
    if isinstance(addr, Aff):
        view = _view(space, data, addr)
        if readonly:
            view.flags.writeable = False
            return view
        return np.array(view)
    return data[addr]


def cells(data: np.ndarray) -> np.ndarray:
    """``data`` as its values: a buffer of vector cells (a record dtype, see
    :func:`~.values.cell_dtype`) gives its vectors, with the vector shape after the address
    axes; any other array is returned as it is."""
    names = data.dtype.names
    return data[names[0]] if names else data


def covers_all(space: Space, addr: Any, size: int) -> bool:
    """Whether the affine ``addr`` names every element of ``[0, size)`` over the lanes of the
    box ``space`` (each at least once): its varying axes, ordered by coefficient, form a
    dense mixed-radix numbering starting at element 0."""
    if type(addr) is not Aff or type(space) is not BoxSpace or size <= 0:
        return False
    axes = sorted((abs(c), n) for c, n in zip(addr.coef, space.shape) if c and n > 1)
    span = 1
    for c, n in axes:
        if c != span:
            return False
        span *= n
    return span == size and addr.value_range(space)[0] == 0


def write_target(space: Space, buffer: Buffer, addr: Any) -> np.ndarray:
    """The array a store at the logical ``addr`` writes into: when the buffer's zeros are
    still pending and the store overwrites every element, the array without zero-filling
    it first (nothing could read the zeros); else :attr:`Buffer.data`."""
    if buffer.zero_pending and covers_all(space, addr, buffer.size):
        return buffer.claim_for_overwrite()
    return buffer.data


def store(space: Space, buffer: Buffer, addr: Any, value: np.ndarray) -> None:
    """Write ``value`` (a lane array) at ``addr``; where several lanes write one element the
    last lane in thread order wins (one legal outcome of the race)."""
    data = write_target(space, buffer, addr)
    addr = physical(space, buffer.layout, addr)
    if data.dtype.names:      # vector cells: ``value`` has the vector shape last
        value = cells(np.asarray(value))
        if not isinstance(addr, Aff):
            vshape = data.dtype[0].shape
            lanes = np.broadcast_shapes(np.shape(addr), value.shape[:value.ndim - len(vshape)])
            a = np.broadcast_to(addr, lanes).reshape(-1)
            cells(data)[a] = np.broadcast_to(value, lanes + vshape).reshape(
                (-1,) + vshape)
            return
    if isinstance(addr, Aff):
        view = cells(_view(space, data, addr))
        value = np.asarray(value)
        # lanes that share an address (coef 0 on an axis): keep the last lane's value
        sl = tuple(slice(-1, None) if (c == 0 and d < value.ndim and value.shape[d] > 1)
                   else slice(None) for d, c in enumerate(addr.coef))
        view[...] = value[sl] if value.ndim >= ROOT_NDIM else value
        return
    value = np.asarray(value)
    a, v = np.broadcast_arrays(addr, value)
    data[a.reshape(-1)] = v.reshape(-1)


#: run elementwise stores whose innermost run of lanes is this short or shorter with the
#: longest other lane axis innermost instead (see :func:`_short_rows_outer`); 0: never
SHORT_ROW = 4


def store_computed(space: Space, buffer: "Buffer", addr: Any, fn, args, dtype) -> bool:
    """Compute ``fn(*args)`` straight into the elements at the affine ``addr`` (one per lane,
    no two lanes on one element, the buffer's dtype ``dtype``); False where that does not
    apply (the caller computes the value and stores it the ordinary way)."""
    if not isinstance(addr, Aff) or buffer.raw.dtype != dtype:
        return False
    logical = addr
    addr = physical(space, buffer.layout, addr)
    if not isinstance(addr, Aff):
        return False
    view = _view(space, buffer.raw, addr)
    vshape = view.shape
    if any(c == 0 and m > 1 for c, m in zip(addr.coef, vshape)):
        return False
    for a in args:
        if getattr(a, "dtype", None) != dtype or \
                not _fits_into(a.shape if type(a) is np.ndarray else np.shape(a), vshape):
            return False
    write_target(space, buffer, logical)     # (zero-fills first unless this covers it all)
    outer = _short_rows_outer(view, args)
    if outer is not None:
        fn(*(a.transpose(outer) if a.ndim == view.ndim else a for a in args),
           out=view.transpose(outer), order="C")
    else:
        fn(*args, out=view)
    return True


def _fits_into(shape: tuple, target: tuple) -> bool:
    """Whether an array of ``shape`` broadcasts to ``target`` without growing it."""
    k = len(target) - len(shape)
    if k < 0:
        return False
    for m, t in zip(shape, target[k:]):
        if m != t and m != 1:
            return False
    return True


def _short_rows_outer(view: np.ndarray, args: Sequence[Any]) -> Optional[tuple]:
    """An axis order that puts the view's innermost axis (smallest stride) outermost, when
    its rows are at most :data:`SHORT_ROW` elements long and another axis is longer (a tree
    step ``sh[tid] += sh[tid + s]`` with ``s <= 4`` over many blocks: NumPy would loop
    ``s`` elements at a time).  Elementwise results do not depend on the order; None keeps
    NumPy's own order."""
    if SHORT_ROW <= 0:
        return None
    key = (view.shape, view.strides, tuple([getattr(a, "ndim", 0) for a in args]))
    hit = _SHORT_ROW_ORDERS.get(key, _SHORT_ROW_ORDERS)
    if hit is _SHORT_ROW_ORDERS:
        hit = _short_rows_order(view, args)
        _remember(_SHORT_ROW_ORDERS, key, hit)
    return hit


#: ``(view shape, strides, operand ranks)`` -> :func:`_short_rows_outer`'s answer
_SHORT_ROW_ORDERS: dict = {}


def _short_rows_order(view: np.ndarray, args: Sequence[Any]) -> Optional[tuple]:
    axes = [d for d in range(view.ndim) if view.shape[d] > 1]
    if len(axes) < 2 or any(getattr(a, "ndim", 0) not in (0, view.ndim) for a in args):
        return None
    inner = min(axes, key=lambda d: abs(view.strides[d]))
    longest = max(axes, key=lambda d: view.shape[d])
    if view.shape[inner] > SHORT_ROW or view.shape[longest] <= 4 * SHORT_ROW:
        return None
    rest = [d for d in axes if d not in (inner, longest)]
    units = [d for d in range(view.ndim) if view.shape[d] == 1]
    return tuple(units + [inner] + rest + [longest])


class RaceLog:
    """Accesses of one block-synchronous epoch (between two barriers), for ``racecheck``.

    ``record`` takes the buffer, the element of each lane, the lane's (block, thread) linear ids,
    whether it writes and whether it is atomic; ``check`` reports two threads of one block
    touching one element, at least one writing and not both atomically, then starts a new
    epoch."""

    def __init__(self) -> None:
        self.entries: list[tuple] = []

    def record(self, buffer: Buffer, addr: np.ndarray, block: np.ndarray, thread: np.ndarray,
               write: bool, op: Any, atomic: bool = False) -> None:
        a, b, t = np.broadcast_arrays(addr, block, thread)
        self.entries.append((buffer.ident, a.reshape(-1).astype(np.int64),
                             b.reshape(-1).astype(np.int64), t.reshape(-1).astype(np.int64),
                             write, op, buffer, atomic))

    def check(self) -> Optional[tuple]:
        """The first race of the epoch as ``(buffer, element, block, thread_a, op_a, write_a,
        atomic_a, thread_b, op_b, write_b, atomic_b)``, or None; clears the log."""
        entries, self.entries = self.entries, []
        if not entries:
            return None
        bufs = np.concatenate([np.full(e[1].size, e[0], np.int64) for e in entries])
        addr = np.concatenate([e[1] for e in entries])
        blk = np.concatenate([e[2] for e in entries])
        thr = np.concatenate([e[3] for e in entries])
        wr = np.concatenate([np.full(e[1].size, e[4], bool) for e in entries])
        atom = np.concatenate([np.full(e[1].size, e[7], bool) for e in entries])
        src = np.concatenate([np.full(e[1].size, k, np.int64) for k, e in enumerate(entries)])
        # global buffers are shared by all blocks but races count only within one block
        order = np.lexsort((thr, blk, addr, bufs))
        bufs, addr, blk, thr, wr, atom, src = (x[order] for x in
                                               (bufs, addr, blk, thr, wr, atom, src))
        same = (bufs[1:] == bufs[:-1]) & (addr[1:] == addr[:-1]) & (blk[1:] == blk[:-1])
        # a group (same buffer, element, block) may race when it holds >= 2 threads, a write
        # and an access that is not atomic (atomics of different threads do not race)
        start = np.concatenate([[True], ~same])
        gid = np.cumsum(start) - 1
        ngroups = int(gid[-1]) + 1
        any_write = np.zeros(ngroups, bool)
        np.logical_or.at(any_write, gid, wr)
        plain = np.zeros(ngroups, bool)
        np.logical_or.at(plain, gid, ~atom)
        tmin = np.full(ngroups, np.iinfo(np.int64).max)
        tmax = np.full(ngroups, np.iinfo(np.int64).min)
        np.minimum.at(tmin, gid, thr)
        np.maximum.at(tmax, gid, thr)
        for g in np.flatnonzero(any_write & plain & (tmin != tmax)):
            pair = _racing_pair(np.flatnonzero(gid == g), thr, wr, atom)
            if pair is None:
                continue
            first, other = pair
            e1, e2 = entries[src[first]], entries[src[other]]
            return (e1[6], int(addr[first]), int(blk[first]), int(thr[first]), e1[5],
                    bool(wr[first]), bool(atom[first]), int(thr[other]), e2[5],
                    bool(wr[other]), bool(atom[other]))
        return None


def _racing_pair(members: np.ndarray, thr: np.ndarray, wr: np.ndarray,
                 atom: np.ndarray) -> Optional[tuple[int, int]]:
    """Two accesses of one element by different threads, at least one writing and not both
    atomic (a writer first where possible), or None."""
    for first in sorted(members.tolist(), key=lambda m: not wr[m]):
        for other in members.tolist():
            if thr[other] != thr[first] and (wr[first] or wr[other]) and \
                    not (atom[first] and atom[other]):
                return first, other
    return None
