"""gpu ops that exchange values between threads: shuffles, reductions, subgroup MMA, warp
regions, and printf.

Conventions (README "Running gpu dialect programs"):

* a subgroup is 32 consecutive linear thread ids of a block (the last one may be partial);
  a thread's lane is its linear id modulo 32;
* ``gpu.shuffle``: a lane is valid when it is below ``width`` and its source lane is in
  ``[0, width)`` (and exists in a partial subgroup); an invalid lane gets its own value and
  ``valid = false`` -- no wrap-around (the spec's prose shows ``% width``; the NVVM lowering
  clamps, and the issue fixes this rule).  The first ``width`` lanes of the subgroup must be
  active; otherwise the engine reports undefined behaviour;
* ``gpu.rotate``: lane ``k < width`` reads lane ``(k + offset) % width``;
* ``gpu.subgroup_reduce`` / ``gpu.all_reduce`` combine the active lanes of each cluster /
  block in lane order (sequentially, so float results are those of a left-to-right sum);
* MMA fragments (``!gpu.mma_matrix<RxCxT, ...>``) are held whole by every thread of the
  subgroup; ``compute`` sums the exact products and ``C`` in float64 and rounds once to the
  accumulator type (integers: exact, wrapped); a ``transpose`` load reads ``(r, c)`` from
  ``base + c * ld + r``; ``extract/insert_thread_local`` element ``i`` of lane ``l`` is the
  fragment's element ``l * (R * C / 32) + i`` in row-major order;
* ``gpu.printf`` prints, per execution, the active threads in block order and, within a block,
  in linear thread order.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ....ir.core import Operation
from ...errors import MemoryAccessError, UnsupportedError
from ...printf import format_printf, parse_format
from ..faults import LaneFault, ub
from ..interp import affine
from ..kernel import SUBGROUP_SIZE, KernelExecutor
from ..lanes import Aff, BoxSpace
from ..layout import physical
from ..memory import element_address
from ..registry import lowering
from ..values import numerics_name, storage, vector_shape
from .arith import _signed_zero_extremum, int_of


def _kernel(ex, op: Operation) -> KernelExecutor:
    if not isinstance(ex, KernelExecutor):
        raise LaneFault(f"'{op.name}' outside a kernel", kind=UnsupportedError)
    return ex


def _lane(space, x) -> np.ndarray:
    return space.array(x) if isinstance(x, Aff) else np.asarray(x)


class _Lanes:
    """The threads of the current space as (block, thread) pairs, and dense per-thread tables
    of their values (``(blocks, threads) + value shape``) with an activity mask."""

    def __init__(self, ex: KernelExecutor, space) -> None:
        self.ex, self.space = ex, space
        blk, thr = ex.lane_ids(space)
        self.blk = np.broadcast_to(blk, space.shape).reshape(-1)
        self.thr = np.broadcast_to(thr, space.shape).reshape(-1)
        self.T = ex.geo.threads
        self.active = np.zeros((ex.n_blocks, self.T), dtype=bool)
        self.active[self.blk, self.thr] = True

    def table(self, value, vshape: tuple, dtype) -> np.ndarray:
        full = np.zeros((self.ex.n_blocks, self.T) + tuple(vshape), dtype=dtype)
        v = np.broadcast_to(_lane(self.space, value), self.space.shape + tuple(vshape))
        full[self.blk, self.thr] = v.reshape((-1,) + tuple(vshape))
        return full

    def back(self, table: np.ndarray) -> np.ndarray:
        out = table[self.blk, self.thr]
        return out.reshape(self.space.shape + table.shape[2:])

    def lane_values(self, value) -> np.ndarray:
        """A per-lane operand (offset, width, lane index) as an int64 array in lane order."""
        return np.broadcast_to(_lane(self.space, value), self.space.shape).reshape(-1) \
            .astype(np.int64)

    def require_whole(self, group_of_thread: np.ndarray, what: str) -> None:
        """Every (block, group) that has an active thread must have all of its threads active
        (``group_of_thread`` maps thread columns to groups)."""
        n_groups = int(group_of_thread.max()) + 1 if group_of_thread.size else 1
        present = np.zeros((self.ex.n_blocks, n_groups), dtype=bool)
        complete = np.ones((self.ex.n_blocks, n_groups), dtype=bool)
        for g in range(n_groups):
            cols = np.flatnonzero(group_of_thread == g)
            act = self.active[:, cols]
            present[:, g] = act.any(axis=1)
            complete[:, g] = act.all(axis=1)
        bad = present & ~complete
        if bad.any():
            b, g = np.argwhere(bad)[0]
            lanes_bad = bad[self.blk, group_of_thread[self.thr]]
            raise ub(f"{what} executed by only part of its threads (block {int(b)}, group "
                     f"{int(g)})", lanes_bad.reshape(self.space.shape))

    def subgroup_size(self, thr: np.ndarray) -> np.ndarray:
        return _subgroup_size(self.T, thr)


def _subgroup_size(T: int, thr: np.ndarray) -> np.ndarray:
    """The size of the subgroup of each thread ``thr`` of a block of ``T`` threads (the last
    subgroup may be partial)."""
    return np.minimum(SUBGROUP_SIZE, T - (thr // SUBGROUP_SIZE) * SUBGROUP_SIZE)


def _shuffle_sources(mode: str, T: int, thr: np.ndarray, off: np.ndarray, w: np.ndarray):
    """The shuffle rule (see the README): for threads ``thr`` of a block of ``T``, with their
    offsets ``off`` and widths ``w`` (uniform, else undefined behaviour), ``(valid, src_thr)``:
    whether each thread's source lane is valid, and the thread it reads (its own where not)."""
    if w.size and (w != w[0]).any():
        raise ub("gpu.shuffle width differs between lanes (it must be uniform)")
    lane = thr % SUBGROUP_SIZE
    if mode == "xor":
        src = lane ^ off
    elif mode == "up":
        src = lane - off
    elif mode == "down":
        src = lane + off
    else:
        src = off
    valid = (lane < w) & (src >= 0) & (src < w) & (src < _subgroup_size(T, thr))
    return valid, thr - lane + np.where(valid, src, lane)


class _WholeBlocks:
    """:class:`_Lanes` for a box space made of whole blocks (every thread of each of its
    blocks is active): the tables are the values reshaped to ``(blocks, threads)``, with no
    scatter or gather through per-lane (block, thread) ids."""

    def __init__(self, ex: KernelExecutor, space: BoxSpace) -> None:
        self.ex, self.space = ex, space
        self.T = ex.geo.threads
        self.nb = space.shape[0] * space.shape[1] * space.shape[2]
        self.active = np.ones((self.nb, self.T), dtype=bool)

    def table(self, value, vshape: tuple, dtype) -> np.ndarray:
        v = np.broadcast_to(_lane(self.space, value), self.space.shape + tuple(vshape))
        return v.reshape((self.nb, self.T) + tuple(vshape)).astype(dtype, copy=False)

    def back(self, table: np.ndarray) -> np.ndarray:
        return table.reshape(self.space.shape + table.shape[2:])

    def require_whole(self, group_of_thread: np.ndarray, what: str) -> None:
        """Whole blocks hold whole groups."""


def whole_blocks(ex: KernelExecutor, space) -> bool:
    """Whether ``space`` is a box of whole blocks (all threads of each of its blocks)."""
    return type(space) is BoxSpace and space.lo[3:] == (0, 0, 0) and \
        tuple(space.shape[3:]) == tuple(ex.root.shape[3:])


def _lanes_of(ex: KernelExecutor, space):
    """:class:`_WholeBlocks` where it applies, else :class:`_Lanes`."""
    return _WholeBlocks(ex, space) if whole_blocks(ex, space) else _Lanes(ex, space)


def _per_thread(space, value, T: int):
    """A lane operand of a whole-blocks space as one int64 per thread of a block (in linear
    thread order), or None when it differs between blocks."""
    v = _lane(space, value)
    if v.ndim >= 3 and any(n != 1 for n in v.shape[:3]):
        return None
    return np.broadcast_to(v, (1, 1, 1) + tuple(space.shape[3:])).reshape(T).astype(np.int64)


def _shuffle_whole_blocks(k: KernelExecutor, space, mode: str, value, offset, width,
                          vshape: tuple, dtype):
    """``gpu.shuffle`` over whole blocks whose offset and width are the same in every block:
    the source lane of each thread is worked out once per thread of a block, and the values
    of all blocks are gathered along the thread axis.  Every thread is active, so no source
    is missing.  None where that does not apply (the general path then runs)."""
    T = k.geo.threads
    off = _per_thread(space, offset, T)
    w = _per_thread(space, width, T)
    if off is None or w is None:
        return None
    valid, src_thr = _shuffle_sources(mode, T, np.arange(T, dtype=np.int64), off, w)
    table = _WholeBlocks(k, space).table(value, vshape, dtype)
    moved = table[:, src_thr].reshape(space.shape + tuple(vshape))
    return [moved, valid.reshape((1, 1, 1) + tuple(space.shape[3:]))]


def _require_active(lanes: _Lanes, src_thr: np.ndarray, used: np.ndarray, what: str) -> None:
    ok = lanes.active[lanes.blk[used], src_thr[used]]
    if not ok.all():
        bad = np.zeros(lanes.blk.size, dtype=bool)
        bad[np.flatnonzero(used)[~ok]] = True
        raise LaneFault(f"{what} reads a lane that does not execute the op (the first width "
                        "lanes of the subgroup must be active)", bad.reshape(lanes.space.shape))


@lowering("gpu.shuffle")
def _shuffle(op: Operation, c):
    mode = op.attributes["mode"].keyword
    vshape = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        k = _kernel(ex, op)
        space = frame.space
        value, offset, width = args
        if whole_blocks(k, space):
            out = _shuffle_whole_blocks(k, space, mode, value, offset, width, vshape, dtype)
            if out is not None:
                return out
        lanes = _Lanes(k, space)
        valid, src_thr = _shuffle_sources(mode, lanes.T, lanes.thr,
                                          lanes.lane_values(offset), lanes.lane_values(width))
        _require_active(lanes, src_thr, valid, "gpu.shuffle")
        table = lanes.table(value, vshape, dtype)
        moved = table[lanes.blk, src_thr].reshape(space.shape + tuple(vshape))
        return [moved, valid.reshape(space.shape)]
    return step


@lowering("gpu.rotate")
def _rotate(op: Operation, c):
    offset = int(op.attributes["offset"].value)
    width = int(op.attributes["width"].value)
    vshape = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        k = _kernel(ex, op)
        space = frame.space
        lanes = _Lanes(k, space)
        lane = lanes.thr % SUBGROUP_SIZE
        valid = lane < width
        src = np.where(valid, (lane + offset) % width, lane)
        valid &= src < lanes.subgroup_size(lanes.thr)
        src = np.where(valid, src, lane)
        src_thr = lanes.thr - lane + src
        _require_active(lanes, src_thr, valid, "gpu.rotate")
        table = lanes.table(args[0], vshape, dtype)
        return [table[lanes.blk, src_thr].reshape(space.shape + tuple(vshape)),
                valid.reshape(space.shape)]
    return step


def _require_subgroup_uniform(lanes: _Lanes, values: np.ndarray, what: str) -> None:
    """``values`` (one per executing lane) must agree within each subgroup's executing lanes
    (otherwise the result is poison: reported)."""
    key = lanes.blk * lanes.T + lanes.thr // SUBGROUP_SIZE
    groups, inverse = np.unique(key, return_inverse=True)
    lo = np.full(groups.size, np.iinfo(np.int64).max, dtype=np.int64)
    hi = np.full(groups.size, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(lo, inverse, values)
    np.maximum.at(hi, inverse, values)
    differs = (lo != hi)[inverse]
    if differs.any():
        raise ub(f"{what} differs between the lanes of a subgroup (it must be uniform)",
                 differs.reshape(lanes.space.shape))


@lowering("gpu.broadcast_lane", "gpu.subgroup_broadcast")
def _broadcast_lane(op: Operation, c):
    kind = op.attributes["broadcast_type"]
    kind = getattr(kind, "value", None) or getattr(kind, "keyword", str(kind))
    vshape = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        k = _kernel(ex, op)
        space = frame.space
        lanes = _Lanes(k, space)
        first_thr = lanes.thr - lanes.thr % SUBGROUP_SIZE
        if kind in ("first_lane", "first_active_lane", "any_lane"):
            # the lowest active lane of each thread's subgroup
            act = lanes.active.reshape(k.n_blocks, -1)
            pad = (-lanes.T) % SUBGROUP_SIZE
            act = np.pad(act, ((0, 0), (0, pad))).reshape(k.n_blocks, -1, SUBGROUP_SIZE)
            first = act.argmax(axis=-1)
            src_thr = first_thr + first[lanes.blk, lanes.thr // SUBGROUP_SIZE]
        else:
            idx = lanes.lane_values(args[1])
            bad = (idx < 0) | (idx >= lanes.subgroup_size(lanes.thr))
            if bad.any():
                raise ub("gpu.broadcast_lane lane index outside the subgroup",
                         bad.reshape(space.shape))
            _require_subgroup_uniform(lanes, idx, "the lane index")
            src_thr = first_thr + idx
            _require_active(lanes, src_thr, np.ones_like(bad), "gpu.broadcast_lane")
        table = lanes.table(args[0], vshape, dtype)
        return [table[lanes.blk, src_thr].reshape(space.shape + tuple(vshape))]
    return step


def combiner(kind: str, t) -> Callable:
    """The binary function of a reduction kind on values of type ``t``."""
    elem = numerics_name(t)
    if elem.startswith("f") or elem == "bf16":
        dtype = storage(t)
        table = {"add": np.add, "mul": np.multiply,
                 "maximumf": _signed_zero_extremum(True, True),
                 "minimumf": _signed_zero_extremum(False, True),
                 "maxnumf": _signed_zero_extremum(True, False),
                 "minnumf": _signed_zero_extremum(False, False)}
        fn = table[kind]
        return lambda a, b: fn(a, b).astype(dtype, copy=False)
    sem = int_of(t)
    return {"add": sem.add, "mul": sem.mul, "and": sem.andi, "or": sem.ori, "xor": sem.xori,
            "maxsi": lambda a, b: sem.max(a, b, True), "minsi": lambda a, b: sem.min(a, b, True),
            "maxui": lambda a, b: sem.max(a, b, False),
            "minui": lambda a, b: sem.min(a, b, False)}[kind]


def _reduce_groups(table: np.ndarray, active: np.ndarray, group: np.ndarray,
                   member: np.ndarray, n_groups: int, size: int, fn: Callable) -> np.ndarray:
    """Per (block, group): the lane-order combination of its active members' values.
    ``group``/``member`` map each thread column to its group and its position in it."""
    n_blocks = table.shape[0]
    vshape = table.shape[2:]
    if group.size == n_groups * size and \
            np.array_equal(group * size + member, np.arange(group.size)):
        # (thread columns already in (group, member) order: the table is the dense one)
        dense = table.reshape((n_blocks, n_groups, size) + vshape)
        present = active.reshape(n_blocks, n_groups, size)
    else:
        dense = np.zeros((n_blocks, n_groups, size) + vshape, table.dtype)
        present = np.zeros((n_blocks, n_groups, size), dtype=bool)
        dense[:, group, member] = table
        present[:, group, member] = active
    if present.all():       # (whole groups: the same combinations without the masks)
        acc = dense[:, :, 0]
        with np.errstate(all="ignore"):
            for m in range(1, size):
                acc = fn(acc, dense[:, :, m])
        return acc
    acc = dense[:, :, 0]
    have = present[:, :, 0]
    with np.errstate(all="ignore"):
        for m in range(1, size):
            nxt = dense[:, :, m]
            p = present[:, :, m]
            comb = fn(acc, nxt)
            sel = p.reshape(p.shape + (1,) * len(vshape))
            acc = np.where(sel & have.reshape(sel.shape), comb, np.where(sel, nxt, acc))
            have = have | p
    return acc


@lowering("gpu.subgroup_reduce")
def _subgroup_reduce(op: Operation, c):
    kind = op.attributes["op"].keyword
    size_attr = op.attributes.get("cluster_size")
    stride_attr = op.attributes.get("cluster_stride")
    uniform = "uniform" in op.attributes
    t = op.results[0].type
    fn = combiner(kind, t)
    vshape = vector_shape(t)
    dtype = storage(t)

    def step(ex, frame, args):
        k = _kernel(ex, op)
        space = frame.space
        lanes = _lanes_of(k, space)
        size = int(size_attr.value) if size_attr is not None else SUBGROUP_SIZE
        stride = int(stride_attr.value) if stride_attr is not None else 1
        cols = np.arange(lanes.T)
        sg, lane = cols // SUBGROUP_SIZE, cols % SUBGROUP_SIZE
        span = size * stride
        base = lane // span
        within = lane % span
        clusters_per_sg = -(-SUBGROUP_SIZE // span) * stride
        group = sg * clusters_per_sg + base * stride + within % stride
        member = within // stride
        n_groups = int(group.max()) + 1
        if uniform:
            lanes.require_whole(sg, "gpu.subgroup_reduce uniform")
        table = lanes.table(args[0], vshape, dtype)
        red = _reduce_groups(table, lanes.active, group, member, n_groups, size, fn)
        out = red[:, group]
        return [lanes.back(out)]
    return step


@lowering("gpu.all_reduce")
def _all_reduce(op: Operation, c):
    t = op.results[0].type
    vshape = vector_shape(t)
    dtype = storage(t)
    kind_attr = op.attributes.get("op")
    region = op.regions[0] if op.regions and op.regions[0].blocks and \
        len(op.regions[0].blocks[0].ops) else None

    def step(ex, frame, args):
        k = _kernel(ex, op)
        space = frame.space
        lanes = _lanes_of(k, space)
        lanes.require_whole(np.zeros(lanes.T, dtype=np.int64), "gpu.all_reduce")
        table = lanes.table(args[0], vshape, dtype)
        if kind_attr is not None:
            fn = combiner(kind_attr.keyword, t)
        elif region is not None:
            fn = _region_combiner(ex, frame, region, k)
        else:
            raise LaneFault("gpu.all_reduce without an operation", kind=UnsupportedError)
        cols = np.arange(lanes.T)
        red = _reduce_groups(table, lanes.active, np.zeros_like(cols), cols, 1, lanes.T, fn)
        if isinstance(lanes, _WholeBlocks):     # (one value per block, uniform in it)
            return [red[:, 0].reshape(space.shape[:3] + (1, 1, 1) + tuple(vshape))]
        return [lanes.back(np.broadcast_to(red[:, :1], table.shape))]
    return step


def _region_combiner(ex, frame, region, k) -> Callable:
    """A combiner running the all_reduce body on many value pairs at once: the pairs are the
    lanes of a list space (the body is pure; values it captures from outside should be
    uniform)."""
    def fn(a, b):
        vshape = a.shape[2:]
        a2 = a.reshape((-1,) + vshape)
        b2 = np.broadcast_to(b, a.shape).reshape((-1,) + vshape)
        sub = _list_of(k.root, a2.shape[0])
        res = ex.run_single(region, frame, [a2, b2], space=sub).values[0]
        res = sub.array(res) if isinstance(res, Aff) else res
        return np.broadcast_to(res, a2.shape).reshape(a.shape)
    return fn


def _list_of(root, n: int):
    """A space of ``n`` lanes (each the root's first lane) to evaluate a pure region over
    ``n`` independent values at once."""
    from ..lanes import ListSpace
    return ListSpace(root, tuple(np.zeros(n, dtype=np.intp) for _ in root.shape))


# -- subgroup MMA ---------------------------------------------------------------------------------

def _mma_shape(t) -> tuple:
    return tuple(t.shape)


def _require_whole_subgroups(ex, space, op: Operation) -> None:
    """MMA ops are collective: every thread of a subgroup executes them (a subgroup of which
    only some threads take the op, in divergent code, is undefined behaviour: reported)."""
    if not isinstance(ex, KernelExecutor):
        return
    if isinstance(space, BoxSpace) and tuple(space.shape[3:]) == tuple(ex.root.shape[3:]):
        return                                  # whole blocks: whole subgroups
    lanes = _Lanes(ex, space)
    lanes.require_whole(np.arange(lanes.T) // SUBGROUP_SIZE, f"{op.name} (a subgroup op)")


def _fragment_addresses(space, ref, indices, shape, ld: int, transpose: bool):
    base = element_address(space, ref, indices)
    base = space.array(base) if isinstance(base, Aff) else base
    r = np.arange(shape[0]).reshape(-1, 1)
    col = np.arange(shape[1]).reshape(1, -1)
    offs = (col * ld + r) if transpose else (r * ld + col)
    addr = np.asarray(base)[..., None, None] + offs
    bad = (addr < 0) | (addr >= ref.buffer.size)
    if bad.any():
        raise LaneFault(f"MMA fragment reaches outside {ref.buffer.name}",
                        bad.any(axis=(-1, -2)), kind=MemoryAccessError)
    return addr


@lowering("gpu.subgroup_mma_load_matrix")
def _mma_load(op: Operation, c):
    t = op.results[0].type
    shape = _mma_shape(t)
    ld = int(op.attributes["leadDimension"].value)
    transpose = "transpose" in op.attributes
    dtype = storage(t.element)

    def step(ex, frame, args):
        space = frame.space
        ref, idx = args[0], args[1:]
        _require_whole_subgroups(ex, space, op)
        addr = _fragment_addresses(space, ref, idx, shape, ld, transpose)
        phys = physical(space, ref.buffer.layout, addr)
        return [ref.buffer.data[phys].astype(dtype, copy=False)]
    return affine(step)


@lowering("gpu.subgroup_mma_store_matrix")
def _mma_store(op: Operation, c):
    t = op.operands[0].type
    shape = _mma_shape(t)
    ld = int(op.attributes["leadDimension"].value)
    transpose = "transpose" in op.attributes

    def step(ex, frame, args):
        space = frame.space
        value, ref, idx = args[0], args[1], args[2:]
        _require_whole_subgroups(ex, space, op)
        if ref.buffer.read_only:
            raise LaneFault(f"store to read-only {ref.buffer.name}", kind=MemoryAccessError)
        addr = _fragment_addresses(space, ref, idx, shape, ld, transpose)
        # a uniform address with a per-lane fragment (one built by insert_thread_local)
        addr = np.broadcast_to(addr, np.broadcast_shapes(np.shape(value), addr.shape))
        v = np.broadcast_to(value, addr.shape)
        phys = physical(space, ref.buffer.layout, addr)
        ref.buffer.data[phys.reshape(-1)] = v.reshape(-1).astype(ref.buffer.data.dtype)
        if getattr(ex, "racelog", None) is not None:
            _record_fragment_store(ex, space, ref, addr, op)
        return []
    return affine(step)


def _record_fragment_store(ex, space, ref, addr: np.ndarray, op: Operation) -> None:
    """For racecheck: a subgroup stores its fragment once (as its first active thread)."""
    blk, thr = ex.lane_ids(space)
    blk = np.broadcast_to(blk, space.shape).reshape(-1)
    thr = np.broadcast_to(thr, space.shape).reshape(-1)
    key = blk * (ex.geo.threads // SUBGROUP_SIZE + 1) + thr // SUBGROUP_SIZE
    order = np.lexsort((thr, key))
    first = order[np.concatenate([[True], key[order][1:] != key[order][:-1]])]
    a = np.broadcast_to(addr, space.shape + addr.shape[-2:]).reshape((-1,) + addr.shape[-2:])
    ex.racelog.record(ref.buffer, a[first], blk[first][:, None, None], thr[first][:, None, None],
                      True, op)


@lowering("gpu.subgroup_mma_constant_matrix")
def _mma_constant(op: Operation, c):
    t = op.results[0].type
    shape = _mma_shape(t)
    dtype = storage(t.element)

    def step(ex, frame, args):
        x = _lane(frame.space, args[0]).astype(dtype)
        return [np.broadcast_to(x[..., None, None], x.shape + shape)]
    return affine(step)


@lowering("gpu.subgroup_mma_compute")
def _mma_compute(op: Operation, c):
    t = op.results[0].type
    elem = numerics_name(t.element)
    dtype = storage(t.element)
    a_type, b_type = op.operands[0].type, op.operands[1].type
    integer = not (elem.startswith("f") or elem == "bf16")

    def step(ex, frame, args):
        _require_whole_subgroups(ex, frame.space, op)
        a, b, acc = (np.asarray(x) for x in args)
        if integer:
            sa = a.astype(np.int64)
            sb = b.astype(np.int64)
            if "ui" in str(a_type.element):
                sa = a.view(f"u{a.dtype.itemsize}").astype(np.int64)
            if "ui" in str(b_type.element):
                sb = b.view(f"u{b.dtype.itemsize}").astype(np.int64)
            r = np.matmul(sa, sb) + acc.astype(np.int64)
            return [int_of(t.element).wrap(r)]
        with np.errstate(all="ignore"):
            r = np.matmul(a.astype(np.float64), b.astype(np.float64)) + acc.astype(np.float64)
        from .mathops import round_from_f64
        return [round_from_f64(r, elem, dtype)]
    return step


_ELEMENTWISE: dict[str, Callable] = {
    "addf": np.add, "mulf": np.multiply, "subf": np.subtract, "divf": np.divide,
    "maxf": _signed_zero_extremum(True, True), "minf": _signed_zero_extremum(False, True),
    "negatef": lambda a: np.negative(a), "addi": np.add, "muli": np.multiply,
    "subi": np.subtract, "negates": lambda a: np.negative(a),
}


@lowering("gpu.subgroup_mma_elementwise")
def _mma_elementwise(op: Operation, c):
    kind = op.attributes["opType"].keyword
    dtype = storage(op.results[0].type.element)

    def step(ex, frame, args):
        with np.errstate(all="ignore"):
            if kind == "extf":
                return [np.asarray(args[0]).astype(dtype)]
            if kind in ("divs", "divu"):
                sem = int_of(op.results[0].type.element)
                return [sem.divs(*args) if kind == "divs" else sem.divu(*args)]
            fn = _ELEMENTWISE.get(kind)
            if fn is None:
                raise LaneFault(f"subgroup_mma_elementwise {kind} is not supported",
                                kind=UnsupportedError)
            return [np.asarray(fn(*args)).astype(dtype, copy=False)]
    return step


def _thread_local_index(ex, space, shape, i):
    _, thr = ex.lane_ids(space)
    per = shape[0] * shape[1] // SUBGROUP_SIZE
    lane = np.asarray(thr) % SUBGROUP_SIZE
    flat = lane * per + _lane(space, i)
    return np.broadcast_to(flat, space.shape)


@lowering("gpu.subgroup_mma_extract_thread_local")
def _mma_extract(op: Operation, c):
    shape = _mma_shape(op.operands[0].type)

    def step(ex, frame, args):
        space = frame.space
        m, i = np.asarray(args[0]), args[1]
        flat = _thread_local_index(ex, space, shape, i)
        full = np.broadcast_to(m, space.shape + shape).reshape(space.shape + (-1,))
        return [np.take_along_axis(full, flat[..., None], axis=-1)[..., 0]]
    return affine(step)


@lowering("gpu.subgroup_mma_insert_thread_local")
def _mma_insert(op: Operation, c):
    shape = _mma_shape(op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        v, m, i = args
        k = _kernel(ex, op)
        lanes = _Lanes(k, space)
        flat = np.broadcast_to(_thread_local_index(ex, space, shape, i), space.shape).reshape(-1)
        full = np.array(np.broadcast_to(m, space.shape + shape)).reshape(-1, shape[0] * shape[1])
        vals = np.broadcast_to(_lane(space, v), space.shape).reshape(-1)
        # every lane of a subgroup writes its element into the subgroup's shared fragment
        key = lanes.blk * lanes.T + lanes.thr // SUBGROUP_SIZE
        for g in np.unique(key):
            members = np.flatnonzero(key == g)
            frag = full[members[0]].copy()
            frag[flat[members]] = vals[members]
            full[members] = frag
        return [full.reshape(space.shape + shape)]
    return affine(step)


# -- warp regions ---------------------------------------------------------------------------------

@lowering("gpu.warp_execute_on_lane_0")
def _warp_execute(op: Operation, c):
    region = op.regions[0]
    warp = int(op.attributes["warp_size"].value)
    arg_types = [a.type for a in region.blocks[0].args] if region.blocks else []
    res_types = [r.type for r in op.results]

    def step(ex, frame, args):
        k = _kernel(ex, op)
        space = frame.space
        laneid, values = args[0], args[1:]
        lane0 = _lane(space, laneid) == 0
        sub = space.restrict(lane0)
        lanes = _Lanes(k, space)
        if warp != SUBGROUP_SIZE:
            raise LaneFault(f"warp_execute_on_lane_0 with warp size {warp} (the engine's "
                            f"subgroups have {SUBGROUP_SIZE} lanes)", kind=UnsupportedError)
        gathered = []
        for v, at in zip(values, arg_types):
            vshape = vector_shape(at)
            own = np.broadcast_to(_lane(space, v), space.shape + _lane(space, v).shape[space.ndim:])
            per = own.shape[space.ndim:]
            if tuple(per) == tuple(vshape):
                gathered.append(own)        # same shape: the value is uniform, pass lane 0's
                continue
            table = lanes.table(own, per, own.dtype)
            nb = table.shape[0]
            pad = (-lanes.T) % SUBGROUP_SIZE
            table = np.pad(table, ((0, 0), (0, pad)) + ((0, 0),) * len(per))
            table = table.reshape((nb, -1, SUBGROUP_SIZE) + tuple(per))
            whole = _undistribute(table, per, vshape)          # (nb, n_sg) + vshape
            sg_of = lanes.thr // SUBGROUP_SIZE
            gathered.append(whole[lanes.blk, sg_of].reshape(space.shape + tuple(vshape)))
        if sub is None:
            yielded = None
        else:
            inner = [sub.enter(g) for g in gathered] if sub is not space else gathered
            yielded = ex.run_single(region, frame, inner, space=sub).values
        results = []
        for i, rt in enumerate(res_types):
            rshape = vector_shape(rt)
            yshape = vector_shape(region.blocks[0].ops[-1].operands[i].type)
            table = np.zeros((k.n_blocks, -(-lanes.T // SUBGROUP_SIZE)) + tuple(yshape),
                             storage(rt))
            if yielded is not None:
                sub_lanes = _Lanes(k, sub)
                y = np.broadcast_to(sub.array(yielded[i]) if isinstance(yielded[i], Aff)
                                    else yielded[i], sub.shape + tuple(yshape))
                table[sub_lanes.blk, sub_lanes.thr // SUBGROUP_SIZE] = \
                    y.reshape((-1,) + tuple(yshape))
            whole = table[lanes.blk, lanes.thr // SUBGROUP_SIZE]
            lane = lanes.thr % SUBGROUP_SIZE
            results.append(_distribute(whole, lane, rshape, yshape).reshape(
                space.shape + tuple(rshape)))
        return results
    return affine(step)


def _scales(small: tuple, big: tuple) -> tuple:
    """The lanes along each dimension of a distribution of ``vector<big>`` onto ``vector<small>``
    per lane (their product is the warp size, as the verifier requires)."""
    scales = tuple(b // s if s else 1 for s, b in zip(small, big))
    if len(small) != len(big) or any(s * k != b for s, k, b in zip(small, scales, big)) or \
            int(np.prod(scales)) != SUBGROUP_SIZE:
        raise LaneFault(f"warp distribution of vector<{big}> onto vector<{small}> per lane is not "
                        f"supported ({SUBGROUP_SIZE} lanes)", kind=UnsupportedError)
    return scales


def _interleaved(scales: tuple, per: tuple) -> tuple:
    """``(s0, p0, s1, p1, ...)``: the whole vector's shape with each dimension split into lane
    blocks of the per-lane size."""
    return tuple(x for pair in zip(scales, per) for x in pair)


def _lane_major(rank: int, lead: int) -> tuple:
    """The axes permutation from ``lead`` leading axes + ``(s0, p0, s1, p1, ...)`` to ``lead``
    leading axes + ``(s0, s1, ..., p0, p1, ...)``."""
    return tuple(range(lead)) + tuple(lead + 2 * d for d in range(rank)) + \
        tuple(lead + 2 * d + 1 for d in range(rank))


def _undistribute(table: np.ndarray, per: tuple, whole: tuple) -> np.ndarray:
    """(blocks, subgroups, 32) + per -> (blocks, subgroups) + whole.  The lane id is delinearized
    row-major over the distributed dimensions (as MLIR's ``delinearizeLaneId``): lane ``l`` with
    ids ``(i0, i1, ...)`` holds the block ``[i0 * p0 : (i0 + 1) * p0, ...]`` (with one distributed
    dimension: block-cyclic, lane ``l`` holds elements ``l * p .. l * p + p - 1``)."""
    scales = _scales(per, whole)
    rank = len(per)
    lanes_first = table.reshape(table.shape[:2] + scales + tuple(per))
    inverse = np.argsort(_lane_major(rank, 2))
    return lanes_first.transpose(inverse).reshape(table.shape[:2] + tuple(whole))


def _distribute(whole: np.ndarray, lane: np.ndarray, per: tuple, full: tuple) -> np.ndarray:
    """(N,) + full -> (N,) + per: each row's block for its lane (the inverse of
    ``_undistribute``); a value of the full shape is broadcast."""
    if tuple(per) == tuple(full):
        return whole
    scales = _scales(per, full)
    n = whole.shape[0]
    split = whole.reshape((n,) + _interleaved(scales, per))
    blocks = split.transpose(_lane_major(len(per), 1)).reshape((n, SUBGROUP_SIZE) + tuple(per))
    return blocks[np.arange(n), lane]


# -- printf ---------------------------------------------------------------------------------------

@lowering("gpu.printf")
def _printf(op: Operation, c):
    pieces = parse_format(op.attributes["format"].value)
    elems = [numerics_name(v.type) for v in op.operands]

    def step(ex, frame, args):
        space = frame.space
        out = getattr(ex, "out", None)
        if isinstance(ex, KernelExecutor):
            blk, thr = ex.lane_ids(space)
            order = np.lexsort((np.broadcast_to(thr, space.shape).reshape(-1),
                                np.broadcast_to(blk, space.shape).reshape(-1)))
        else:
            order = np.arange(space.size)
        cols = [np.broadcast_to(_lane(space, a), space.shape).reshape(-1) for a in args]
        text = []
        for lane in order.tolist():
            text.append(format_printf(pieces, [(col[lane], e) for col, e in zip(cols, elems)]))
        joined = "".join(text)
        if out is not None:
            out.write(joined)
        elif hasattr(ex, "emit"):
            ex.emit(joined)
        return []
    return affine(step)

