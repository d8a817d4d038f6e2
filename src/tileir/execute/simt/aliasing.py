"""Which kernel arguments a kernel may write: loads from the others may return views.

A load whose addresses are affine is a strided view of the buffer; it must be copied unless
nothing writes that memory while the value lives.  :func:`written_arguments` finds, before a
launch, the memref arguments some op may write (following view-like ops back to the argument;
any use the analysis does not know counts as a write), so that the others are served as
read-only views (the launch also checks that they do not overlap a written argument).
"""

from __future__ import annotations

import numpy as np

from ...ir.core import Operation, Region, Value

__all__ = ["written_arguments", "readonly_buffers"]

#: ops that only read the memref operands they take
READERS = frozenset({
    "memref.load", "vector.load", "vector.maskedload", "vector.transfer_read", "vector.gather",
    "vector.expandload", "memref.dim", "memref.rank", "gpu.subgroup_mma_load_matrix",
    "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index",
    "memref.prefetch", "memref.assume_alignment"})
#: ops whose memref result is a view of their first operand
VIEWS = frozenset({
    "memref.subview", "memref.cast", "memref.reinterpret_cast", "memref.view",
    "memref.expand_shape", "memref.collapse_shape", "memref.transpose",
    "memref.memory_space_cast", "memref.assume_alignment", "vector.type_cast"})


def _is_memref(v: Value) -> bool:
    return type(v.type).__name__ in ("MemRefType", "UnrankedMemRefType")


def written_arguments(region: Region, n_args: int) -> set[int]:
    """Indices of the entry arguments of ``region`` (the first ``n_args``) that may be written."""
    entry = region.blocks[0]
    return _written(region, {a: i for i, a in enumerate(entry.args[:n_args])})


def written_captures(region: Region) -> set:
    """The memref values defined outside ``region`` (a ``gpu.launch`` body) it may write."""
    return _written(region, dict(captured_memrefs(region)))


def captured_memrefs(region: Region) -> dict:
    """The memref values defined outside ``region`` (a ``gpu.launch`` body) that it uses, each
    mapped to itself, in order of first use."""
    return {v: v for v in captured_values(region) if _is_memref(v)}


def captured_values(region: Region) -> list:
    """The values defined outside ``region`` that its ops use, in order of first use."""
    inside: set = set()
    ops: list[Operation] = []
    for block in region.blocks:
        inside.update(block.args)
        for op in block.ops:
            for o in op.walk():
                ops.append(o)
                inside.update(o.results)
                for r in o.regions:
                    for b in r.blocks:
                        inside.update(b.args)
    return list(dict.fromkeys(v for o in ops for v in o.operands if v not in inside))


def _written(region: Region, root: dict) -> set:
    """The ``root`` keys' images that ops of ``region`` may write (through views)."""
    written: set = set()
    ops: list[Operation] = []
    for block in region.blocks:
        for op in block.ops:
            ops.extend(op.walk())
    for op in ops:  # views first: ops come in dominance order within a block
        if op.name in VIEWS and op.operands and op.operands[0] in root:
            for r in op.results:
                if _is_memref(r):
                    root[r] = root[op.operands[0]]
    for op in ops:
        if op.name in READERS:
            continue
        for v in op.operands:
            if v in root and _is_memref(v):
                if op.name in VIEWS and v is op.operands[0]:
                    continue
                written.add(root[v])
    return written


def readonly_buffers(args: list, written: set[int]) -> set[int]:
    """Buffer idents of memref arguments no op writes and no written argument overlaps."""
    from .memory import MemRef
    refs = [(i, a) for i, a in enumerate(args) if isinstance(a, MemRef)]
    writes = [a.buffer.data for i, a in refs if i in written]
    out: set[int] = set()
    for i, a in refs:
        if i in written:
            continue
        if any(np.may_share_memory(a.buffer.data, w) for w in writes):
            continue
        out.add(a.buffer.ident)
    return out

