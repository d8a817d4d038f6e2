"""The simulated global address space (DESIGN.md principle 6).

Pointers are 64-bit addresses.  Every kernel argument array, every module ``global`` and every
``alloca`` is one :class:`Buffer` mapped at an address aligned to :data:`ALIGNMENT` bytes, with an
unmapped guard gap of at least :data:`GUARD` bytes between buffers, so that an access that runs
off a buffer lands in no buffer at all.  Address 0 (and everything below :data:`START`) is never
mapped.

Every access goes through this module and is checked: the element must lie entirely inside one
buffer and be aligned to its size (relative to the buffer start, which is itself aligned), and a
store must target a writable buffer.  A failed check raises :class:`Fault` (an internal exception
that the op turns into a :class:`~tileir.execute.errors.MemoryAccessError` naming the op, its
location, the tile block and the element index); nothing outside the buffers is ever touched.

Buffers alias the caller's arrays (stores write into them in place).  Element storage follows the
NumPy dtypes of :mod:`tileir.dtypes`: one storage element per IR element, so pointer arithmetic on
``ptr<i4>``/``ptr<f4E2M1FN>`` advances by one byte per element (the storage size, see §5.2).
"""

from __future__ import annotations

import bisect
from typing import Optional

import numpy as np

from .buffers import fresh, recycle, scratch

__all__ = ["Buffer", "Memory", "Fault", "START", "ALIGNMENT", "GUARD"]

#: First address ever mapped.
START = 0x1000_0000
#: Alignment of every buffer's base address.
ALIGNMENT = 256
#: Minimum unmapped gap between two buffers.
GUARD = 4096

_U8 = np.dtype(np.uint8)


class Fault(Exception):
    """Internal: a checked access failed.  ``index`` is the flat index of the first failing
    element in the access (C order of the accessed tile, lane-major), or None."""

    def __init__(self, kind: str, message: str, index: Optional[int] = None) -> None:
        self.kind = kind
        self.message = message
        self.index = index
        super().__init__(message)


class Buffer:
    """One mapped allocation: ``nbytes`` bytes at ``base`` backed by the uint8 array ``data``."""

    __slots__ = ("base", "nbytes", "end", "data", "name", "writable", "written", "_typed",
                 "segments", "host_dtype")

    def __init__(self, base: int, data: np.ndarray, name: str, writable: bool) -> None:
        #: ``(stride, size)`` for a buffer of equal segments (:meth:`Memory.allocate_segments`):
        #: only the first ``size`` bytes of every ``stride`` are mapped
        self.segments: Optional[tuple[int, int]] = None
        #: the element type of the host array behind ``data`` (None: raw bytes, unknown)
        self.host_dtype: Optional[np.dtype] = None
        self.written = False
        self.base = base
        self.data = data
        self.nbytes = int(data.size)
        self.end = base + self.nbytes
        self.name = name
        self.writable = writable
        self._typed: dict = {}

    def typed(self, dtype: np.dtype) -> np.ndarray:
        """The whole buffer viewed as ``dtype`` elements (trailing partial element dropped)."""
        view = self._typed.get(dtype)
        if view is None:
            size = dtype.itemsize
            n = self.nbytes // size
            view = self.data[:n * size].view(dtype)
            self._typed[dtype] = view
        return view

    def __repr__(self) -> str:
        return f"<buffer {self.name!r} [{self.base:#x}, {self.end:#x})>"


def describe(addr: int) -> str:
    return f"{int(addr):#x}"


class Memory:
    """A set of non-overlapping buffers in a 64-bit address space."""

    def __init__(self) -> None:
        self._bases: list[int] = []
        self._bufs: list[Buffer] = []
        self._next = START
        self._np_bases: Optional[np.ndarray] = None
        self._np_ends: Optional[np.ndarray] = None

    # -- mapping ------------------------------------------------------------------------------

    def map(self, data: np.ndarray, name: str, writable: bool = True,
            alignment: int = ALIGNMENT, host_dtype: Optional[np.dtype] = None) -> Buffer:
        """Map ``data`` (a 1-D uint8 array aliasing the storage) at a fresh aligned address;
        ``host_dtype``: the element type of the host array it views, when there is one."""
        if data.dtype != _U8 or data.ndim != 1:
            raise ValueError("Memory.map expects a 1-D uint8 array")
        align = max(ALIGNMENT, int(alignment) if alignment else ALIGNMENT)
        base = -(-self._next // align) * align
        buf = Buffer(base, data, name, writable)
        buf.host_dtype = host_dtype
        self._next = base + max(buf.nbytes, 1) + GUARD
        pos = bisect.bisect_right(self._bases, base)
        self._bases.insert(pos, base)
        self._bufs.insert(pos, buf)
        self._np_bases = None
        return buf

    def allocate(self, nbytes: int, name: str, alignment: int = ALIGNMENT) -> Buffer:
        """Map a fresh zero-filled buffer."""
        return self.map(np.zeros(max(int(nbytes), 0), dtype=np.uint8), name, True, alignment)

    def allocate_segments(self, count: int, nbytes: int, name: str,
                          alignment: int = ALIGNMENT) -> tuple[Buffer, int]:
        """Map ``count`` zero-filled allocations of ``nbytes`` each as one buffer (one per tile
        block of a lock-step batch): ``(buffer, stride)``, allocation ``i`` at ``base + i *
        stride``.  The bytes between allocations are not mapped: an access that runs off one
        allocation faults as it would between separate buffers."""
        align = max(ALIGNMENT, int(alignment) if alignment else ALIGNMENT)
        nbytes = max(int(nbytes), 0)
        stride = -(-(max(nbytes, 1) + GUARD) // align) * align
        buf = self.allocate(stride * count, name, align)
        buf.segments = (stride, nbytes)
        return buf, stride

    def mark(self) -> tuple:
        """A point to :meth:`release` back to (drops buffers mapped after it)."""
        return (self._next, len(self._bufs), tuple(self._bufs))

    def release(self, mark: tuple) -> None:
        self._next = mark[0]
        keep = set(id(b) for b in mark[2])
        pairs = [(b.base, b) for b in self._bufs if id(b) in keep]
        self._bases = [p[0] for p in pairs]
        self._bufs = [p[1] for p in pairs]
        self._np_bases = None

    @property
    def buffers(self) -> list[Buffer]:
        return list(self._bufs)

    # -- lookup -------------------------------------------------------------------------------

    def find(self, addr: int, size: int = 1) -> Optional[Buffer]:
        """The buffer holding ``[addr, addr + size)`` entirely, or None."""
        pos = bisect.bisect_right(self._bases, addr) - 1
        if pos < 0:
            return None
        buf = self._bufs[pos]
        return buf if addr + size <= buf.end else None

    def _arrays(self) -> tuple[np.ndarray, np.ndarray]:
        if self._np_bases is None:
            self._np_bases = np.array(self._bases, dtype=np.uint64)
            self._np_ends = np.array([b.end for b in self._bufs], dtype=np.uint64)
        return self._np_bases, self._np_ends

    def region(self, lo: int, hi: int, itemsize: int, write: bool,
               index: Optional[int] = None) -> Buffer:
        """Check that every element in ``[lo, hi)`` lies in one buffer and that ``lo`` is aligned
        to ``itemsize``; return the buffer (fast path of the strided view accesses)."""
        buf = self.find(lo, hi - lo)
        if buf is None:
            raise Fault("bounds", self._oob_message(lo, hi - lo, write), index)
        if buf.segments is not None:
            stride, size = buf.segments
            first = (lo - buf.base) // stride
            if hi - buf.base > first * stride + size:
                raise Fault("bounds", self._segment_message(buf, lo, hi - lo, write), index)
        if (lo - buf.base) % itemsize:
            raise Fault("align", f"misaligned {itemsize}-byte access at address {lo:#x}", index)
        if write:
            if not buf.writable:
                raise Fault("readonly", f"store to read-only buffer {buf.name!r}", index)
            buf.written = True
        return buf

    @staticmethod
    def _segment_message(buf: Buffer, addr: int, size: int, write: bool) -> str:
        stride, nbytes = buf.segments
        k = (int(addr) - buf.base) // stride
        start = buf.base + k * stride
        what = "write" if write else "read"
        return (f"out-of-bounds {what} of {size} bytes at address {int(addr):#x} (runs past the "
                f"end of buffer {buf.name!r} [{start:#x}, {start + nbytes:#x}))")

    def _oob_message(self, addr: int, size: int, write: bool) -> str:
        what = "write" if write else "read"
        text = f"out-of-bounds {what} of {size} bytes at address {int(addr):#x}"
        pos = bisect.bisect_right(self._bases, addr) - 1
        if pos >= 0 and addr < self._bufs[pos].end:
            b = self._bufs[pos]
            text += f" (runs past the end of buffer {b.name!r} [{b.base:#x}, {b.end:#x}))"
        elif pos >= 0 and addr - self._bufs[pos].end < GUARD:
            b = self._bufs[pos]
            text += (f" ({int(addr) - b.end} bytes past the end of buffer {b.name!r} "
                     f"[{b.base:#x}, {b.end:#x}))")
        elif pos + 1 < len(self._bufs) and self._bufs[pos + 1].base - addr <= GUARD:
            b = self._bufs[pos + 1]
            text += (f" ({b.base - int(addr)} bytes before buffer {b.name!r} "
                     f"[{b.base:#x}, {b.end:#x}))")
        elif addr == 0:
            text += " (null pointer)"
        else:
            text += " (no buffer there)"
        return text

    def resolve(self, addrs: np.ndarray, itemsize: int, write: bool,
                index_map: Optional[np.ndarray] = None) -> tuple[list, list]:
        """Resolve a 1-D uint64 array of element addresses.

        Returns ``(groups, positions)``: for each buffer touched, ``(buffer, element_indices)``
        into ``buffer.typed(...)``, and the positions (into ``addrs``) of that group.
        ``index_map`` maps positions of ``addrs`` to flat indices reported in faults."""
        n = addrs.size
        if n == 0:
            return [], []
        one = self._offsets_in_one(addrs, itemsize, write, index_map, False)
        if one is not None:
            buf, off = one
            return [(buf, _element_indices(off, itemsize))], [None]
        bases, ends = self._arrays()
        pos = np.searchsorted(bases, addrs, side="right").astype(np.intp) - 1
        ok = pos >= 0
        safe = np.where(ok, pos, 0)
        ok &= (addrs + np.uint64(itemsize)) <= ends[safe]
        if not ok.all():
            bad = int(np.flatnonzero(~ok)[0])
            where = int(index_map[bad]) if index_map is not None else bad
            raise Fault("bounds", self._oob_message(int(addrs[bad]), itemsize, write), where)
        groups, positions = [], []
        for p in np.unique(safe):
            sel = np.flatnonzero(safe == p)
            b = self._bufs[int(p)]
            off = addrs[sel] - np.uint64(b.base)
            sub_map = index_map[sel] if index_map is not None else sel
            self._check_group(b, off, itemsize, write, addrs[sel], sub_map, None)
            groups.append((b, (off // np.uint64(itemsize)).astype(np.intp)))
            positions.append(sel)
        return groups, positions

    def _resolve_one(self, addrs: np.ndarray, itemsize: int,
                     write: bool) -> Optional[tuple[Buffer, np.ndarray]]:
        """The fast path of :meth:`resolve` for a non-empty unmasked access inside one buffer
        with a power-of-two ``itemsize``: ``(buffer, indices)``, ``indices`` a uint64 array from
        the buffer pool holding the element indices (read them through ``.view(np.intp)``; give
        the array back with :func:`~tileir.execute.buffers.recycle` when done).  None when the
        access spans several buffers or none, or is empty: :meth:`resolve` then decides (and
        reports any fault).  Faults are the ones :meth:`resolve` raises."""
        if addrs.size == 0 or itemsize & (itemsize - 1) or np.dtype(np.intp).itemsize != 8:
            return None
        one = self._offsets_in_one(addrs, itemsize, write, None, True)
        if one is not None:
            _element_indices(one[1], itemsize)      # (in place: a power-of-two itemsize)
        return one

    def _offsets_in_one(self, addrs: np.ndarray, itemsize: int, write: bool, index_map,
                        pooled: bool) -> Optional[tuple[Buffer, np.ndarray]]:
        """``(buffer, byte offsets)`` (a fresh uint64 array; from the buffer pool when
        ``pooled``) of a non-empty access that lies inside one buffer, its accesses checked
        (:meth:`_check_group`: faults raised as :meth:`resolve` raises them); None when it
        does not lie inside one buffer."""
        lo = int(addrs.min())
        hi = int(addrs.max()) + itemsize
        buf = self.find(lo, hi - lo)
        if buf is None:
            return None
        off = scratch(addrs.shape, np.uint64) if pooled else np.empty(addrs.shape, np.uint64)
        np.subtract(addrs, np.uint64(buf.base), out=off, dtype=np.uint64)
        try:
            self._check_group(buf, off, itemsize, write, addrs, index_map, None)
        except Fault:
            if pooled:
                recycle(off)
            raise
        return buf, off

    def _check_group(self, buf: Buffer, off: np.ndarray, itemsize: int, write: bool,
                     addrs: np.ndarray, index_map, _unused) -> None:
        if buf.segments is not None:
            stride, size = buf.segments
            outside = (off % np.uint64(stride)) + np.uint64(itemsize) > np.uint64(size)
            if outside.any():
                bad = int(np.flatnonzero(outside)[0])
                where = int(index_map[bad]) if index_map is not None else bad
                raise Fault("bounds", self._segment_message(buf, int(addrs[bad]), itemsize,
                                                            write), where)
        if itemsize > 1:
            if itemsize & (itemsize - 1) == 0:
                # (one reduction instead of a remainder array: some offset is misaligned iff
                # the OR of all offsets has one of the low bits set)
                aligned = not (int(np.bitwise_or.reduce(off, axis=None)) & (itemsize - 1))
            else:
                aligned = False
            mis = None if aligned else (off % np.uint64(itemsize)) != 0
            if mis is not None and mis.any():
                bad = int(np.flatnonzero(mis)[0])
                where = int(index_map[bad]) if index_map is not None else bad
                raise Fault("align", f"misaligned {itemsize}-byte access at address "
                                     f"{int(addrs[bad]):#x}", where)
        if write:
            if not buf.writable:
                where = int(index_map[0]) if index_map is not None else 0
                raise Fault("readonly", f"store to read-only buffer {buf.name!r}", where)
            buf.written = True

    # -- element access -----------------------------------------------------------------------

    @staticmethod
    def _all_active(active: Optional[np.ndarray]) -> bool:
        """Whether a mask leaves every element of the access active (a gather or scatter whose
        bounds mask holds everywhere): the access then runs as an unmasked one, which gives the
        same values and reports a fault at the same element index."""
        return active is None or bool(np.all(active))

    def gather(self, addrs: np.ndarray, dtype: np.dtype, active: Optional[np.ndarray] = None,
               fill=None) -> np.ndarray:
        """Load one ``dtype`` element per address (any shape).  Inactive elements (``active``
        false) are not accessed and get ``fill`` (zero by default).  i1 (bool) elements are read
        as bytes and canonicalised (nonzero -> true)."""
        is_bool = dtype == np.bool_
        load_dt = _U8 if is_bool else dtype
        isz = load_dt.itemsize
        flat = addrs.reshape(-1)
        if self._all_active(active):
            one = self._resolve_one(flat, isz, False)
            if one is not None:
                buf, off = one
                del one
                out = fresh(addrs.shape, load_dt)
                # (the indices were checked: 'clip' changes none, and lets take write into
                # ``out`` directly; 'raise' would buffer it)
                np.take(buf.typed(load_dt), off.view(np.intp), out=out.reshape(-1), mode="clip")
                recycle(off)
                return out != 0 if is_bool else out
            groups, positions = self.resolve(flat, isz, False)
            out = np.empty(flat.size, dtype=load_dt)
            for (buf, idx), pos in zip(groups, positions):
                vals = buf.typed(load_dt)[idx]
                if pos is None:
                    out = vals
                else:
                    out[pos] = vals
        else:
            act = np.broadcast_to(active, addrs.shape).reshape(-1)
            sel = np.flatnonzero(act)
            out = np.zeros(flat.size, dtype=load_dt)
            if fill is not None:
                out[...] = fill
            if sel.size:
                groups, positions = self.resolve(flat[sel], isz, False, sel)
                for (buf, idx), pos in zip(groups, positions):
                    out[sel if pos is None else sel[pos]] = buf.typed(load_dt)[idx]
        if is_bool:
            out = out != 0
        return out.reshape(addrs.shape)

    def scatter(self, addrs: np.ndarray, values: np.ndarray, dtype: np.dtype,
                active: Optional[np.ndarray] = None) -> None:
        """Store ``values`` (broadcast to ``addrs``' shape) at ``addrs``; elements are written in
        C order, so for duplicate addresses the last one wins."""
        is_bool = dtype == np.bool_
        store_dt = _U8 if is_bool else dtype
        vals = np.broadcast_to(values, addrs.shape).reshape(-1)
        if is_bool:
            vals = vals.astype(np.uint8)
        flat = addrs.reshape(-1)
        if not self._all_active(active):
            act = np.broadcast_to(active, addrs.shape).reshape(-1)
            sel = np.flatnonzero(act)
            if sel.size == 0:
                return
            flat, vals, index_map = flat[sel], vals[sel], sel
        else:
            index_map = None
            one = self._resolve_one(flat, store_dt.itemsize, True)
            if one is not None:
                buf, off = one
                del one
                # (NumPy's fancy assignment writes in index order: the last duplicate wins)
                buf.typed(store_dt)[off.view(np.intp)] = vals
                recycle(off)
                return
        groups, positions = self.resolve(flat, store_dt.itemsize, True, index_map)
        for (buf, idx), pos in zip(groups, positions):
            buf.typed(store_dt)[idx] = vals if pos is None else vals[pos]


def _element_indices(off: np.ndarray, itemsize: int) -> np.ndarray:
    """``off // itemsize`` as ``np.intp`` element indices, for the byte offsets ``off`` (uint64,
    a fresh array the caller gives up: a power-of-two ``itemsize`` shifts it in place; every
    offset lies inside one buffer, far below 2**63, so the uint64 bits read as intp are the
    same numbers)."""
    if itemsize & (itemsize - 1) == 0 and off.dtype == np.uint64 and off.flags.writeable \
            and off.base is None and np.dtype(np.intp).itemsize == 8:
        if itemsize > 1:
            np.right_shift(off, np.uint64(itemsize.bit_length() - 1), out=off)
        return off.view(np.intp)
    return (off // np.uint64(itemsize)).astype(np.intp)
