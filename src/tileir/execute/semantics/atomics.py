"""§8.10 Atomics: atomic_rmw_tko, atomic_cas_tko, atomic_red_view_tko.

Every element is one atomic transaction.  The elements of one op execution (all lanes, each tile
in C order) are applied in that order, so when several elements hit the same address each one
sees the value left by the previous one (and returns it) -- a legal serialisation.  Updates are
vectorised in rounds: round ``k`` applies the ``k``-th occurrence of every address.

* ``add``/``and``/``or``/``xor``/``max``/``min``/``umax``/``umin`` are integer ops (wrap-around,
  signed or unsigned comparison); ``addf`` is a floating-point addition rounded to nearest even;
  ``xchg`` stores the argument.
* ``atomic_cas_tko`` compares bit patterns (so ``+0 != -0`` and NaNs compare by payload).
* A masked-out element is not accessed; it returns ``cmp`` for CAS (the spec) and 0 for RMW
  (implementation-defined in the spec).
"""

from __future__ import annotations

import numpy as np

from ..buffers import recycle

from .. import numerics as N
from ..errors import MemoryAccessError
from ..memory import Fault
from ..plan import lowering
from . import fast
from ._common import element_name, enum_keyword, storage_dtype, unsigned_view
from .memory import same_lanes
from .views import _Access, _fault

_UNSIGNED_OF = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _update_fn(mode: str, elem: str, dtype: np.dtype):
    if mode in ("and", "or", "xor"):
        uf = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[mode]
        return lambda old, a: uf(old, a)
    if mode == "add":
        if dtype.kind == "i":
            return lambda old, a: np.add(old, a)
        return lambda old, a: N.addi(old, a, elem)
    if mode == "addf":
        fn = fast.float_binary("addf", elem)
        if fn is None:
            return lambda old, a: N.addf(old, a, elem)
        return fn
    if mode in ("max", "min"):
        uf = np.maximum if mode == "max" else np.minimum
        return lambda old, a: uf(old, a)
    if mode in ("umax", "umin"):
        uf = np.maximum if mode == "umax" else np.minimum
        return lambda old, a: uf(unsigned_view(old), unsigned_view(a)).view(dtype)
    if mode == "xchg":
        return lambda old, a: np.array(a, copy=True)
    raise ValueError(f"unknown atomic mode {mode!r}")


def _at_fn(mode: str, elem: str, dtype: np.dtype):
    """``fn(view, idx, args)`` applying the update in place, element by element in order
    (``numpy.ufunc.at`` is unbuffered), for use when the old values are not needed."""
    if mode in ("add", "and", "or", "xor", "max", "min") and dtype.kind == "i":
        uf = {"add": np.add, "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
              "max": np.maximum, "min": np.minimum}[mode]
        return lambda view, idx, a: uf.at(view, idx, a)
    if mode in ("umax", "umin") and dtype.kind == "i":
        uf = np.maximum if mode == "umax" else np.minimum
        return lambda view, idx, a: uf.at(unsigned_view(view), idx, unsigned_view(a))
    if mode == "addf" and elem in ("f32", "f64", "f16"):
        def addf_at(view, idx, a):
            np.add.at(view, idx, a)
            touched = view[idx]
            if np.isnan(touched).any():
                view[idx] = fast.canon_nan(touched)
        return addf_at
    if mode == "xchg":
        def xchg(view, idx, a):
            view[idx] = a          # duplicates: the last element in order wins
        return xchg
    return None


def _lanes(a: np.ndarray, lanes: int) -> np.ndarray:
    return a if a.shape[0] == lanes else np.broadcast_to(a, (lanes,) + a.shape[1:])


def atomic_apply(memory, addrs: np.ndarray, active, dtype: np.dtype, update, extras,
                 masked_result, at_fn=None):
    """Apply ``update(old, *extras_at_element)`` atomically at every active address (in flat
    order); return the old values (masked-out elements: ``masked_result``).  With ``at_fn``
    (old values not needed) the update is applied by ``at_fn(view, indices, arg)`` instead."""
    shape = addrs.shape
    flat = addrs.reshape(-1)
    if at_fn is not None and memory._all_active(active):
        # (every element active, the old values unused: the update straight at the element
        # indices, checked as resolve checks them; the old values are all masked_result)
        one = memory._resolve_one(flat, dtype.itemsize, True)
        if one is not None:
            buf, off = one
            del one
            at_fn(buf.typed(dtype), off.view(np.intp),
                  np.broadcast_to(extras[0], shape).reshape(-1))
            recycle(off)
            return np.broadcast_to(np.asarray(masked_result, dtype=dtype), shape)
    ext = [np.broadcast_to(e, shape).reshape(-1) for e in extras]
    old = np.array(np.broadcast_to(masked_result, shape), dtype=dtype).reshape(-1)
    if active is None:
        sel = np.arange(flat.size)
    else:
        sel = np.flatnonzero(np.broadcast_to(active, shape).reshape(-1))
    if sel.size == 0:
        return old.reshape(shape)
    groups, positions = memory.resolve(flat[sel], dtype.itemsize, True, sel)
    for (buf, idx), pos in zip(groups, positions):
        gsel = sel if pos is None else sel[pos]
        view = buf.typed(dtype)
        gext = [e[gsel] for e in ext]
        if at_fn is not None:
            at_fn(view, idx, gext[0])
            continue
        n = idx.size
        order = np.argsort(idx, kind="stable")
        sidx = idx[order]
        starts = np.ones(n, dtype=bool)
        starts[1:] = sidx[1:] != sidx[:-1]
        first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
        rank = np.empty(n, dtype=np.intp)
        rank[order] = np.arange(n) - first
        rounds = int(rank.max()) + 1
        gold = np.empty(n, dtype=dtype)
        for k in range(rounds):
            m = rank == k if rounds > 1 else slice(None)
            ii = idx[m]
            o = view[ii]
            view[ii] = update(o, *[e[m] for e in gext])
            gold[m] = o
        old[gsel] = gold
    return old.reshape(shape)


@lowering("atomic_rmw_tko", varying=True, effects=True)
def _lower_rmw(op, cc):
    ptrs = cc.slot(op.operand_group("pointers")[0])
    arg = cc.slot(op.operand_group("arg")[0])
    mask_v = op.operand_group("mask")
    mask = cc.slot(mask_v[0]) if mask_v else None
    out, tok = cc.slots_of(op.results)
    t = op.results[0].type
    dtype = storage_dtype(t)
    elem = element_name(t)
    mode = enum_keyword(op.attributes.get("mode"), "add")
    update = _update_fn(mode, elem, dtype)
    at_fn = None if op.results[0].uses else _at_fn(mode, elem, dtype)
    ctx = cc.ctx(op)
    rt = cc.rt
    zero = np.zeros((), dtype=dtype)

    def run(r):
        p, a = r[ptrs], r[arg]
        m = r[mask] if mask is not None else None
        # every tile block performs its own transactions, even with identical operands
        p, a, m = same_lanes([_lanes(p, rt.lanes), a, m])
        try:
            r[out] = atomic_apply(rt.memory, p, m, dtype, update, [a], zero, at_fn)
        except Fault as f:
            raise rt.error(ctx, MemoryAccessError, f.message, f.index, p.shape) from None
        r[tok] = None
    return run


@lowering("atomic_cas_tko", varying=True, effects=True)
def _lower_cas(op, cc):
    ptrs = cc.slot(op.operand_group("pointers")[0])
    cmp_s = cc.slot(op.operand_group("cmp")[0])
    val_s = cc.slot(op.operand_group("val")[0])
    mask_v = op.operand_group("mask")
    mask = cc.slot(mask_v[0]) if mask_v else None
    out, tok = cc.slots_of(op.results)
    t = op.results[0].type
    dtype = storage_dtype(t)
    u = np.dtype(_UNSIGNED_OF[dtype.itemsize])
    ctx = cc.ctx(op)
    rt = cc.rt

    def update(old, c, v):
        eq = old.view(u) == c.view(u)
        return np.where(eq, v, old)

    def run(r):
        p, c, v = r[ptrs], r[cmp_s], r[val_s]
        m = r[mask] if mask is not None else None
        p, c, v, m = same_lanes([_lanes(p, rt.lanes), c, v, m])
        try:
            r[out] = atomic_apply(rt.memory, p, m, dtype, update,
                                  [np.ascontiguousarray(c), np.ascontiguousarray(v)], c)
        except Fault as f:
            raise rt.error(ctx, MemoryAccessError, f.message, f.index, p.shape) from None
        r[tok] = None
    return run


@lowering("atomic_red_view_tko", effects=True)
def _lower_red_view(op, cc):
    acc = _Access(op, cc, op.operand_group("view")[0], op.operand_group("index"))
    val = cc.slot(op.operand_group("value")[0])
    tok = cc.slot(op.results[0])
    lay = acc.layout
    mode = enum_keyword(op.attributes.get("mode"), "add")
    update = _update_fn(mode, lay.elem, lay.dtype)
    at_fn = _at_fn(mode, lay.elem, lay.dtype)
    rt = cc.rt
    ctx = acc.ctx
    tile = lay.tile

    def addresses(tv, idx, lane, lanes):
        base, shape, strides = tv.lane(lane if tv.lanes > 1 else 0)
        if lay.kind == "gather":
            return acc.lane_gather_addresses(base, shape, strides, idx, lane)
        start, n, bs = acc.lane_region(base, shape, strides, idx, lane, lanes)
        addr = np.full(tile, np.uint64(start), dtype=np.uint64)
        valid = np.ones(tile, dtype=bool)
        for k, (tk, nk, b) in enumerate(zip(tile, n, bs)):
            shp = [1] * len(tile)
            shp[k] = tk
            t = np.arange(tk).reshape(shp)
            valid &= t < nk
            addr = addr + (t * b).astype(np.uint64)
        return addr, valid

    def run(r):
        tv, idx, lanes = acc.lanes(r)
        v = r[val]
        lanes = max(lanes, v.shape[0], rt.lanes)     # one reduction per tile block
        for i in range(lanes):
            addr, valid = addresses(tv, idx, i, lanes)
            try:
                atomic_apply(rt.memory, addr, valid, lay.dtype, update,
                             [v[i if v.shape[0] > 1 else 0]], np.zeros((), lay.dtype), at_fn)
            except Fault as f:
                raise _fault(rt, ctx, f, i, lanes, tile) from None
        r[tok] = None
    return run
