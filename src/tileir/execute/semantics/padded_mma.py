"""``mmaf`` on tiles loaded with zero padding: multiply only the part that was loaded.

A producer that needs a matrix product of a shape that is not a power of two loads its operands
as power-of-two tiles whose overhang is a view's zero padding (tinytc's 56x9x56 gemm becomes one
64x16x64 ``mmaf``).  Run as written, the executor would copy the padded tiles and multiply the
zeros.  Here the pattern

    %t = load_view_tko %view[...]     (partition or strided view, zero padding, token unused)
    %u = reshape %t / permute %t      (any number; reshapes that only add or drop unit dims)
    ... the same for the other operand ...
    %r = mmaf %lhs, %rhs, %acc

is run as one step: when every lane's tile has the same in-bounds extent, the in-bounds parts
(views of memory where nothing aliases them) are multiplied, and the padded rows and columns of
the result are filled in from ``%acc``.  The result has the same bits as the padded product:

* a product term with a padded factor is ``+0 * x``, a signed zero for finite ``x``; terms with
  two padded factors (the overhang of K) are ``+0``, which turns a ``-0`` sum into ``+0`` and
  changes nothing else;
* so a padded row or column of the result is ``acc`` itself, unless ``acc`` is ``-0`` there (the
  sign then depends on the other factor) or an operand holds an infinity or NaN (then the term
  is NaN).  Both are detected (an operand with a non-finite value makes the in-bounds result
  non-finite in its row or column) and sent to the general path;
* tiles whose lanes differ in extent, differ in K extent between the operands, fault, or whose
  views are per lane take the general path too: the absorbed loads and reshapes run where the
  ``mmaf`` stands (nothing between them and the ``mmaf`` writes memory or may fail, so this is
  the order and the errors of the original program).
"""

from __future__ import annotations

from typing import Callable, Optional

import numpy as np

from ...dialects.cuda_tile.attributes import PaddingValue
from ...dialects.cuda_tile.types import GatherScatterViewType
from ...ir.core import Operation, OpResult, Value
from ..plan import ABSORBERS
from . import fast
from .views import _Access

_LOAD = "cuda_tile.load_view_tko"
_RESHAPE = "cuda_tile.reshape"
_PERMUTE = "cuda_tile.permute"
_MMAF = "cuda_tile.mmaf"
#: ops that may stand between an absorbed load and its mmaf: they neither touch memory nor fail
_QUIET = {"cuda_tile.constant", "cuda_tile.make_tensor_view", "cuda_tile.make_partition_view",
          "cuda_tile.make_strided_view", "cuda_tile.make_gather_scatter_view", _RESHAPE,
          _PERMUTE, "cuda_tile.broadcast", "cuda_tile.iota", "cuda_tile.get_tile_block_id",
          "cuda_tile.get_num_tile_blocks"}


def _unit_dims_only(op: Operation) -> bool:
    """A reshape that only adds or removes extents of 1."""
    src = [d for d in op.operands[0].type.shape if d != 1]
    dst = [d for d in op.results[0].type.shape if d != 1]
    return src == dst


def _operand_chain(v: Value, block) -> Optional[list[Operation]]:
    """``[load, transforms...]`` that compute ``v`` in ``block``, each result used only by the
    next op (and ``v`` only by its mmaf), or None."""
    chain: list[Operation] = []
    while True:
        if not isinstance(v, OpResult) or len(v.uses) != 1:
            return None
        op = v.owner
        if op.parent is not block:
            return None
        if op.name == _PERMUTE or (op.name == _RESHAPE and _unit_dims_only(op)):
            chain.insert(0, op)
            v = op.operands[0]
            continue
        if op.name != _LOAD or v.index != 0 or op.results[1].uses:
            return None
        vt = op.operand_group("view")[0].type
        if isinstance(vt, GatherScatterViewType) or \
                vt.padding_value not in (None, PaddingValue.ZERO):
            return None
        chain.insert(0, op)
        return chain


def mmaf_chains(op: Operation) -> Optional[tuple[list[Operation], list[Operation]]]:
    """The operand chains of an ``mmaf`` this module runs as one step, or None."""
    if op.name != _MMAF or op.parent is None:
        return None
    block = op.parent
    lhs = _operand_chain(op.operands[0], block)
    rhs = _operand_chain(op.operands[1], block) if lhs is not None else None
    if lhs is None or rhs is None:
        return None
    absorbed = set(map(id, lhs + rhs))
    ops = list(block.ops)
    first = min(ops.index(o) for o in lhs + rhs)
    for between in ops[first:ops.index(op)]:
        if id(between) not in absorbed and (between.name not in _QUIET or between.regions):
            return None
    return lhs, rhs


def _absorbed_ops(entry: Operation):
    for op in entry.walk():
        chains = mmaf_chains(op)
        if chains is not None:
            yield from chains[0] + chains[1]


ABSORBERS.append(_absorbed_ops)


class _Operand:
    """Reads one absorbed operand's in-bounds part: the load, then its reshapes/permutes
    applied to the part and to its extent."""

    def __init__(self, chain: list[Operation], cc) -> None:
        load = chain[0]
        view = load.operand_group("view")[0]
        self.access = _Access(load, cc, view, load.operand_group("index"))
        self.view_ok = view in cc.read_only
        self.rt = cc.rt
        self.steps = [_transform(t) for t in chain[1:]]
        self.tile = tuple(chain[-1].results[0].type.shape)

    def read(self, r) -> Optional[tuple[np.ndarray, tuple]]:
        got = self.access.loaded_parts(r, self.view_ok and self.rt.zero_copy)
        if got is None:
            return None
        part, extent = got
        for step in self.steps:
            part, extent = step(part, extent)
        return part, extent


def _transform(op: Operation) -> Callable:
    """``(part, extent) -> (part, extent)`` of one reshape or permute."""
    if op.name == _PERMUTE:
        perm = op.attributes["permutation"]
        perm = tuple(int(p) for p in getattr(perm, "value", perm))
        axes = (0,) + tuple(p + 1 for p in perm)

        def permute(part, extent):
            return np.transpose(part, axes), tuple(extent[p] for p in perm)
        return permute
    src = tuple(op.operands[0].type.shape)
    dst = tuple(op.results[0].type.shape)

    def reshape(part, extent):
        kept = iter(n for n, t in zip(extent, src) if t != 1)
        new = tuple(1 if t == 1 else next(kept) for t in dst)
        return part.reshape((part.shape[0],) + new), new
    return reshape


def padded_product(a: np.ndarray, a_ext: tuple, b: np.ndarray, b_ext: tuple, k_tile: int,
                   acc: np.ndarray, mma: Callable) -> Optional[np.ndarray]:
    """``mma(A, B, acc)`` for tiles ``A`` (``(..., M, K)``) and ``B`` (``(..., K, N)``, with
    ``K = k_tile``) that are zero outside their in-bounds parts ``a`` and ``b`` (extents
    ``a_ext`` and ``b_ext``), computed from the parts; None where this would not give the
    padded product's bits (see the module docstring)."""
    m, n = acc.shape[-2:]
    batch = tuple(acc.shape[1:-2])
    m1, k1 = a_ext[-2:]
    k2, n1 = b_ext[-2:]
    if k1 != k2 or tuple(a_ext[:-2]) != batch or tuple(b_ext[:-2]) != batch:
        return None
    full = m1 == m and n1 == n
    pads = [] if full else [(slice(m1, None), slice(None)), (slice(None, m1), slice(n1, None))]
    for rows, cols in pads:
        p = acc[..., rows, cols]
        if ((p == 0) & np.signbit(p)).any():
            return None
    r = mma(a, b, acc if full else acc[..., :m1, :n1])
    if k1 < k_tile:         # the +0 terms of the padded K: a -0 sum becomes +0
        np.copyto(r, np.zeros((), r.dtype), where=(r == 0))
    if full:
        return r
    if not np.isfinite(r).all():
        return None
    out = np.empty(r.shape[:-2] + (m, n), dtype=r.dtype)
    out[..., :m1, :n1] = r
    for rows, cols in pads:
        out[..., rows, cols] = acc[..., rows, cols]
        fast.canon_nan(out[..., rows, cols])
    return out


def fuse(op: Operation, cc, mma: Callable) -> Optional[Callable]:
    """The closure running ``op`` (an ``mmaf`` computed by ``mma(lhs, rhs, acc)``) together
    with its absorbed operand loads, or None when ``op`` is not such an ``mmaf``."""
    chains = mmaf_chains(op)
    if chains is None or any(o not in cc.absorbed for o in chains[0] + chains[1]):
        return None
    lhs, rhs = _Operand(chains[0], cc), _Operand(chains[1], cc)
    block_ops = list(op.parent.ops)
    absorbed = sorted(chains[0] + chains[1], key=block_ops.index)
    replay = [cc.absorbed[o] for o in absorbed]
    replay = [f for f in replay if f is not None]
    a_slot, b_slot, c_slot = cc.slots_of(op.operands)
    out = cc.slot(op.results[0])
    k_tile = op.operands[0].type.shape[-1]

    def run(r):
        res = None
        acc = r[c_slot]
        a = lhs.read(r)
        b = rhs.read(r) if a is not None else None
        if b is not None:
            res = padded_product(a[0], a[1], b[0], b[1], k_tile, acc, mma)
        if res is None:
            for f in replay:
                f(r)
            res = mma(r[a_slot], r[b_slot], acc)
        r[out] = res
    return run
