"""§8.6 Memory operations: load_ptr_tko, store_ptr_tko, make_token, join_tokens, alloca.

Accesses go through the checked simulated address space (:mod:`tileir.execute.memory`); an
access outside every buffer raises :class:`~tileir.execute.errors.MemoryAccessError` naming the
op, its location, the tile block and the element index.  Masked-out elements are not accessed;
a masked load without ``paddingValue`` yields 0 for them (the spec leaves them undefined).
i1 values occupy one byte; loads canonicalise any nonzero byte to true.  Tokens carry no run-time
value: executing memory ops in program order is a legal order.
"""

from __future__ import annotations

import numpy as np

from ..errors import MemoryAccessError
from ..memory import Fault
from ..plan import lowering
from ._common import storage_dtype
from .core import _select


def same_lanes(arrays):
    lanes = max(a.shape[0] for a in arrays if a is not None)
    return [a if a is None or a.shape[0] == lanes else
            np.broadcast_to(a, (lanes,) + a.shape[1:]) for a in arrays]


def _opt(op, name):
    vals = op.operand_group(name)
    return vals[0] if vals else None


@lowering("load_ptr_tko")
def _lower_load_ptr(op, cc):
    src = cc.slot(op.operand_group("source")[0])
    mask_v, pad_v = _opt(op, "mask"), _opt(op, "paddingValue")
    mask = cc.slot(mask_v) if mask_v is not None else None
    pad = cc.slot(pad_v) if pad_v is not None else None
    out, tok = cc.slots_of(op.results)
    dt = storage_dtype(op.results[0].type)
    ctx = cc.ctx(op)
    rt = cc.rt

    def run(r):
        p = r[src]
        m = r[mask] if mask is not None else None
        if m is not None and m.shape[0] != p.shape[0]:
            p, m = same_lanes([p, m])
        try:
            v = rt.memory.gather(p, dt, m)
        except Fault as f:
            raise rt.error(ctx, MemoryAccessError, f.message, f.index, p.shape) from None
        if m is not None and pad is not None:
            v = _select(m, v, r[pad])     # (no pass when the mask holds everywhere)
        r[out] = v
        r[tok] = None
    return run


@lowering("store_ptr_tko", effects=True)
def _lower_store_ptr(op, cc):
    dst = cc.slot(op.operand_group("destination")[0])
    val = cc.slot(op.operand_group("value")[0])
    mask_v = _opt(op, "mask")
    mask = cc.slot(mask_v) if mask_v is not None else None
    tok = cc.slot(op.results[0])
    dt = storage_dtype(op.operand_group("value")[0].type)
    ctx = cc.ctx(op)
    rt = cc.rt

    def run(r):
        p, v = r[dst], r[val]
        m = r[mask] if mask is not None else None
        p, v, m = same_lanes([p, v, m])
        try:
            rt.memory.scatter(p, v, dt, m)
        except Fault as f:
            raise rt.error(ctx, MemoryAccessError, f.message, f.index, p.shape) from None
        r[tok] = None
    return run


@lowering("make_token", "join_tokens", "gdc_launch_dependents_tko", "gdc_wait_tko",
          "memory_fence_alias_tko")
def _lower_token(op, cc):
    """Token ops.  The 13.4 grid-dependency ops and alias fences have nothing to wait for on
    the CPU: launches run one after another and memory ops run in program order."""
    cc.set_const(op.results[0], None)
    return None


@lowering("alloca", varying=True, effects=True)
def _lower_alloca(op, cc):
    """Each tile block gets its own zeroed allocation, freed when the block ends (in a
    lock-step batch: one allocation per block of the batch, freed with the batch)."""
    n = int(op.attributes["num_elem"].value)
    align = int(op.attributes["alignment"].value) if "alignment" in op.attributes else 0
    isz = storage_dtype(op.results[0].type.element.pointee).itemsize
    out = cc.slot(op.results[0])
    rt = cc.rt
    name = f"{'global alloca' if 'global' in op.attributes else 'alloca'} of {n} elements"
    ctx = cc.ctx(op)

    def run(r):
        lanes = rt.lanes
        # (more than the address space, or than the machine has: a diagnostic, not Python's
        # MemoryError)
        if n * isz * lanes >= 1 << 62:
            raise rt.error(ctx, MemoryAccessError, f"{name} ({n * isz} bytes per tile block): "
                           "more than the 64-bit address space")
        try:
            if lanes == 1:
                buf = rt.memory.allocate(n * isz, name, align)
                r[out] = np.array([buf.base], dtype=np.uint64)
            else:
                buf, stride = rt.memory.allocate_segments(lanes, n * isz, name, align)
                r[out] = np.uint64(buf.base) + np.arange(lanes, dtype=np.uint64) * \
                    np.uint64(stride)
        except MemoryError:
            raise rt.error(ctx, MemoryAccessError, f"{name} ({n * isz} bytes per tile block, "
                           f"{lanes} blocks at once): out of memory") from None
        rt.allocs.append(buf)
    return run
