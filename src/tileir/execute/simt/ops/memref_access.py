"""memref.load / memref.store: checked element accesses (strided views where addresses are affine)."""

from __future__ import annotations

import numpy as np

from ....ir.core import Operation
from ..interp import affine
from ..memory import MemRef, cells, element_address, load, store, store_computed
from ..registry import lowering
from ..values import Deferred, storage


def check_host_access(ex, ref: MemRef, op: Operation) -> None:
    """Host code may not touch device-only memory (``gpu.alloc`` without ``host_shared``)."""
    hook = getattr(ex, "check_host_access", None)
    if hook is not None:
        hook(ref, op)


@lowering("memref.load")
def _load(op: Operation, c):
    dtype = storage(op.results[0].type)
    view_safe = c.view_safe(op)

    def step(ex, frame, args):
        ref, idx = args[0], args[1:]
        space = frame.space
        check_host_access(ex, ref, op)
        addr = element_address(space, ref, idx)
        if getattr(ex, "racelog", None) is not None:
            ex.record(space, ref.buffer, addr, False, op)
        out = cells(load(space, ref.buffer, addr,
                         view_safe or ref.buffer.ident in getattr(ex, "readonly", ())))
        if out.dtype != dtype:
            out = out.view(dtype) if out.dtype.itemsize == dtype.itemsize else out.astype(dtype)
        if out.ndim < space.ndim:
            out = out.reshape((1,) * (space.ndim - out.ndim) + out.shape)
        return [out]
    return affine(step)


@lowering("memref.store")
def _store(op: Operation, c):
    def step(ex, frame, args):
        value, ref, idx = args[0], args[1], args[2:]
        space = frame.space
        check_host_access(ex, ref, op)
        if ref.buffer.read_only:
            from ..faults import LaneFault
            from ...errors import MemoryAccessError
            raise LaneFault(f"store to read-only {ref.buffer.name}", kind=MemoryAccessError)
        addr = element_address(space, ref, idx)
        if getattr(ex, "racelog", None) is not None:
            ex.record(space, ref.buffer, addr, True, op)
        if type(value) is Deferred:
            if store_computed(space, ref.buffer, addr, value.fn, value.args, value.dtype):
                return []
            value = value.value()
        value = space.array(value)
        cell = ref.buffer.raw.dtype
        if value.dtype != cell:
            value = value.view(cell) if value.dtype.itemsize == cell.itemsize else value
        store(space, ref.buffer, addr, value)
        return []
    return affine(step)


_ = np
