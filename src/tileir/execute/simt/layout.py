"""Physical layouts of per-block and per-thread memory: copies stored interleaved.

A workgroup attribution has one copy of its ``n`` elements per block of the chunk, a private
one per thread.  *Logically* -- inside the engine: :class:`~.memory.MemRef` offsets, subviews,
race records -- copy ``b``'s element ``e`` is element ``b * n + e`` of the buffer (offsets are
``block * n``).  What a kernel observes is a GPU's view, in which each block (thread) sees only
its own copy, at the same address everywhere: ``memref.extract_strided_metadata`` reports
offsets from the start of the copy, ``memref.reinterpret_cast`` counts its offset from there
and may not reach outside the copy (:meth:`~.kernel.KernelExecutor.copy_base`,
``Buffer.copy_size`` / ``copy_extent``).  *Physically*
the engine may store it at ``e * m + b`` instead (``m`` copies, :class:`Interleaved`): the same
element of every copy is then contiguous, so an access in which every block touches its own
copy at the same index (``sh[tid]`` for ``tid < s``) is one dense slice of memory rather than
a cache line per block.

Addresses stay logical everywhere; :func:`physical` translates them where memory is touched
(:mod:`.memory`'s ``load`` / ``store``, atomics, MMA fragments).  An affine address
``c + n * copy(x) + e(x)`` whose copy part is exactly ``n`` times the copy index (the linear
block id, or the linear thread id for private memory) and whose within-copy part stays in
``[0, n)`` is translated into the affine ``e(x) * m + copy(x)`` (still a strided view); any
other address element by element, ``(a % n) * m + a // n``.

:func:`interleavable` decides per buffer, before the launch, whether the layout applies: only
when every use of the memref (followed through views of the same element type) is an op that
touches memory through those translating functions or only reads the descriptor.  Anything
else -- a reinterpretation of the bytes (``memref.view``, ``vector.type_cast``), a call, a
memref passed through control flow -- keeps the plain layout.  Which scopes use the layout at
all is :attr:`~.kernel.KernelExecutor.interleave` (private memory: yes, its copies are in lane
order; workgroup memory: no, filling it from block-major lane values would be a transpose).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ...ir.core import Value
from .lanes import Aff, BoxSpace, Space

__all__ = ["Interleaved", "physical", "interleavable", "ACCESSES", "VIEWS"]

#: ops that touch the memory of their memref operands only through :func:`physical`-translating
#: functions, or do not touch it at all (descriptor queries)
ACCESSES = frozenset({
    "memref.load", "memref.store", "memref.atomic_rmw", "memref.generic_atomic_rmw",
    "memref.copy", "memref.dim", "memref.rank", "memref.prefetch",
    "vector.load", "vector.store", "vector.maskedload", "vector.maskedstore", "vector.gather",
    "vector.scatter", "vector.expandload", "vector.compressstore", "vector.transfer_read",
    "vector.transfer_write", "gpu.subgroup_mma_load_matrix", "gpu.subgroup_mma_store_matrix"})
#: ops whose memref results describe the first operand's buffer, with its element type
VIEWS = frozenset({
    "memref.subview", "memref.cast", "memref.memory_space_cast", "memref.assume_alignment",
    "memref.expand_shape", "memref.collapse_shape", "memref.transpose",
    "memref.reinterpret_cast", "memref.extract_strided_metadata"})


class Interleaved:
    """``copies`` copies of ``size`` elements, element ``e`` of copy ``b`` stored at
    ``e * copies + b``; ``copy`` is the copy index as an :class:`Aff` of the root coordinates
    (the linear block id in the chunk, or the linear thread id in the chunk)."""

    __slots__ = ("size", "copies", "copy")

    def __init__(self, size: int, copies: int, copy: Aff) -> None:
        self.size = int(size)
        self.copies = int(copies)
        self.copy = copy

    def __repr__(self) -> str:
        return f"Interleaved({self.size} x {self.copies})"

    def affine(self, space: BoxSpace, addr: Aff) -> Optional[Aff]:
        """The physical address of the logical affine ``addr`` as an :class:`Aff`, or None
        where it does not split into ``size * copy + e`` with ``0 <= e < size``."""
        n, m = self.size, self.copies
        const = addr.const
        coef = []
        e_lo = e_hi = 0
        for c, k, lo, ext in zip(addr.coef, self.copy.coef, space.lo, space.shape):
            if k:
                if c != k * n:
                    if ext != 1:
                        return None
                    const += (c - k * n) * lo       # a fixed coordinate: fold it in
                coef.append(k)
            else:
                if c:
                    a, b = c * lo, c * (lo + ext - 1)
                    e_lo += min(a, b)
                    e_hi += max(a, b)
                coef.append(c * m)
        if const + e_lo < 0 or const + e_hi >= n:
            return None
        return Aff(const * m, tuple(coef), addr.dtype)

    def elementwise(self, addr: np.ndarray) -> np.ndarray:
        """The physical addresses of an array of (in-bounds) logical ones."""
        q, r = np.divmod(np.asarray(addr, dtype=np.int64), self.size)
        return r * self.copies + q


def physical(space: Space, layout: Optional[Interleaved], addr: Any) -> Any:
    """Where the logical ``addr`` (from :func:`~.memory.element_address`: an :class:`Aff` or an
    int64 lane array) lives in a buffer of ``layout`` (None: the plain layout, ``addr``)."""
    if layout is None:
        return addr
    if type(addr) is Aff:
        if type(space) is BoxSpace:
            phys = layout.affine(space, addr)
            if phys is not None:
                return phys
        addr = space.array(addr)
    return layout.elementwise(addr)


def _is_memref(v: Value) -> bool:
    return type(v.type).__name__ == "MemRefType"


def interleavable(value: Value) -> bool:
    """Whether every use of the memref ``value``, and of the views derived from it, is one the
    interleaved layout serves (see the module docstring)."""
    stack, seen = [value], set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        for op, k in v.uses:
            if op.name in VIEWS and k == 0:
                stack.extend(r for r in op.results if _is_memref(r))
            elif op.name not in ACCESSES:
                return False
    return True
