"""§8.3 Core operations: constants, shape manipulation, select, offset, pack/unpack, tile block
queries, globals, and reduce/scan with arbitrary combiner regions.

Tiles carry a leading lane axis (see :mod:`tileir.execute.plan`), so every shape op works on
axis ``k + 1`` for tile dimension ``k``.

``reduce`` and ``scan`` evaluate their body vectorised: the body is compiled like any block and
run on 1-D arrays holding many independent element pairs at once (a 0-rank tile value with
``P`` lanes).  The spec leaves the combination order unspecified (but deterministic); we use

* ``reduce``: a balanced pairwise tree along the reduced dimension; each application combines
  two adjacent partial results, the lower-index one as the first argument of each pair and the
  higher-index one as the second.  The identity is not applied (it only matters when it is not
  an identity of the body);
* ``scan``: the Hillis-Steele inclusive prefix: at step ``k`` element ``i >= 2**k`` becomes
  ``body(current = y[i], accumulator = y[i - 2**k])``, matching the spec's argument roles
  (current element first, running accumulator second); ``reverse`` scans from the end.
"""

from __future__ import annotations

import numpy as np

from ...dialects.cuda_tile.attributes import DenseElementsAttr
from .. import numerics as N
from ..errors import UndefinedBehaviorError
from ..numerics import native
from ..plan import LOWERINGS, YIELD, lowering
from . import _select_reduce, fast
from ._common import elementwise, element_name, storage_dtype


@lowering("constant")
def _lower_constant(op, cc):
    attr = op.attributes["value"]
    t = op.results[0].type
    dt = storage_dtype(t)
    arr = attr.array if isinstance(attr, DenseElementsAttr) else np.asarray(attr)
    if arr.dtype != dt:
        arr = arr.astype(dt)
    value = np.array(np.broadcast_to(arr, t.shape))[None]
    cc.set_const(op.results[0], value)
    return None


@lowering("iota")
def _lower_iota(op, cc):
    t = op.results[0].type
    n = t.shape[0]
    value = np.arange(n, dtype=np.int64).astype(np.uint64)
    value = N.from_integer(value, element_name(t))[None]
    cc.set_const(op.results[0], value)
    return None


@lowering("broadcast", fold=True)
def _lower_broadcast(op, cc):
    shape = tuple(op.results[0].type.shape)
    return elementwise(op, cc, lambda a: np.broadcast_to(a, (a.shape[0],) + shape))


@lowering("reshape", fold=True)
def _lower_reshape(op, cc):
    shape = tuple(op.results[0].type.shape)
    return elementwise(op, cc, lambda a: a.reshape((a.shape[0],) + shape))


@lowering("permute", fold=True)
def _lower_permute(op, cc):
    perm = op.attributes["permutation"]
    perm = tuple(int(p) for p in getattr(perm, "value", perm))
    axes = (0,) + tuple(p + 1 for p in perm)
    return elementwise(op, cc, lambda a: np.transpose(a, axes))


def _same_lanes(*arrays):
    lanes = max(a.shape[0] for a in arrays)
    return [a if a.shape[0] == lanes else np.broadcast_to(a, (lanes,) + a.shape[1:])
            for a in arrays]


@lowering("cat", fold=True)
def _lower_cat(op, cc):
    axis = int(op.attributes["dim"].value) + 1

    def cat(a, b):
        if a.shape[0] != b.shape[0]:
            a, b = _same_lanes(a, b)
        return np.concatenate([a, b], axis=axis)
    return elementwise(op, cc, cat)


@lowering("select", fold=True)
def _lower_select(op, cc):
    return elementwise(op, cc, _select)


def _select(cond: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.where(cond, a, b)``, but ``a`` (``b``) itself where the condition is true (false)
    everywhere and that operand already has the result's shape: no pass over the values
    (a bounds mask that is all true, as in a kernel's full tiles)."""
    if cond.all():
        if a.shape == np.broadcast_shapes(cond.shape, a.shape, b.shape):
            return a
    elif not cond.any() and b.shape == np.broadcast_shapes(cond.shape, a.shape, b.shape):
        return b
    return np.where(cond, a, b)


@lowering("extract", fold=True)
def _lower_extract(op, cc):
    src_t, res_t = op.operands[0].type, op.results[0].type
    rshape = tuple(res_t.shape)
    counts = [s // r for s, r in zip(src_t.shape, rshape)]
    src = cc.slot(op.operands[0])
    idx = cc.slots_of(op.operands[1:])
    out = cc.slot(op.results[0])
    ctx = cc.ctx(op)
    rt = cc.rt
    idx_elems = [element_name(v.type) for v in op.operands[1:]]

    def lane_indices(r):
        vals = [N.to_unsigned(r[s], e) for s, e in zip(idx, idx_elems)]
        for k, (v, c) in enumerate(zip(vals, counts)):
            bad = v >= np.uint64(c)
            if bad.any():
                lane = int(np.flatnonzero(bad)[0])
                raise rt.error(ctx, UndefinedBehaviorError,
                               f"extract index {int(v[lane])} along dimension {k} is outside "
                               f"[0, {c})", lane * 1, (v.shape[0],))
        return vals

    def run(r):
        a = r[src]
        vals = lane_indices(r)
        if all(v.shape[0] == 1 for v in vals):
            sl = (slice(None),) + tuple(slice(int(v[0]) * n, int(v[0]) * n + n)
                                        for v, n in zip(vals, rshape))
            r[out] = a[sl]
            return
        lanes = max([a.shape[0]] + [v.shape[0] for v in vals])
        res = []
        for i in range(lanes):
            sl = (i if a.shape[0] > 1 else 0,) + tuple(
                slice(int(v[i if v.shape[0] > 1 else 0]) * n,
                      int(v[i if v.shape[0] > 1 else 0]) * n + n) for v, n in zip(vals, rshape))
            res.append(a[sl])
        r[out] = np.stack(res)
    return run


@lowering("insert", fold=True)
def _lower_insert(op, cc):
    """13.4 ``insert``: ``destination`` with the ``source``-sized slice at tile-sized
    ``indices`` replaced by ``source`` (the inverse of ``extract``)."""
    src_t, dst_t = op.operands[0].type, op.operands[1].type
    sshape = tuple(src_t.shape)
    counts = [d // s for d, s in zip(dst_t.shape, sshape)]
    src, dst = cc.slot(op.operands[0]), cc.slot(op.operands[1])
    idx = cc.slots_of(op.operands[2:])
    idx_elems = [element_name(v.type) for v in op.operands[2:]]
    out = cc.slot(op.results[0])
    ctx = cc.ctx(op)
    rt = cc.rt

    def run(r):
        a, d = r[src], r[dst]
        vals = [N.to_unsigned(r[s], e) for s, e in zip(idx, idx_elems)]
        lanes = max([a.shape[0], d.shape[0]] + [v.shape[0] for v in vals])
        res = np.array(np.broadcast_to(d, (lanes,) + d.shape[1:]))
        for i in range(lanes):
            starts = []
            for k, (v, c) in enumerate(zip(vals, counts)):
                j = int(v[i if v.shape[0] > 1 else 0])
                if j >= c:
                    raise rt.error(ctx, UndefinedBehaviorError, f"insert index {j} along "
                                   f"dimension {k} is outside [0, {c})", i, (lanes,))
                starts.append(j)
            sl = (i,) + tuple(slice(j * n, j * n + n) for j, n in zip(starts, sshape))
            res[sl] = a[i if a.shape[0] > 1 else 0]
        r[out] = res
    return run


@lowering("offset", fold=True)
def _lower_offset(op, cc):
    isz = np.uint64(storage_dtype(op.results[0].type.element.pointee).itemsize)
    oelem = element_name(op.operands[1].type)

    def offset(p, o):
        # (an i64 offset is used as it is: no copy; the sum is formed in the product's array)
        if oelem == "i64":
            off = o
        elif oelem in ("i8", "i16", "i32"):
            off = o.astype(np.int64)
        else:
            off = N.to_signed(o, oelem)
        prod = np.multiply(off.view(np.uint64), isz)
        if prod.shape == np.broadcast_shapes(prod.shape, p.shape):
            return np.add(prod, p, out=prod)
        return prod + p
    return elementwise(op, cc, offset)


@lowering("pack", fold=True)
def _lower_pack(op, cc):
    elem = element_name(op.operands[0].type)
    return elementwise(op, cc, lambda a: np.stack([N.pack(x, elem) for x in a]))


@lowering("unpack", fold=True)
def _lower_unpack(op, cc):
    elem = element_name(op.results[0].type)
    return elementwise(op, cc, lambda a: np.stack([N.unpack(x, elem) for x in a]))


@lowering("get_tile_block_id")
def _lower_block_id(op, cc):
    x, y, z = cc.slots_of(op.results)
    rt = cc.rt

    def run(r):
        r[x] = rt.bx
        r[y] = rt.by
        r[z] = rt.bz
    return run


@lowering("get_num_tile_blocks")
def _lower_num_blocks(op, cc):
    x, y, z = cc.slots_of(op.results)
    rt = cc.rt

    def run(r):
        r[x], r[y], r[z] = rt.grid_values
    return run


@lowering("get_global")
def _lower_get_global(op, cc):
    name = op.attributes["name"]
    name = getattr(name, "root", None) or getattr(name, "value", None) or str(name).lstrip("@")
    entry = cc.globals.get(name)
    if entry is None:
        raise cc.unsupported(op, f"no global named @{name} in the module")
    buf = entry[0]
    cc.set_const(op.results[0], np.array([buf.base], dtype=np.uint64))
    return None


# -- reduce / scan -----------------------------------------------------------------------------

def _body_combiner(op, cc):
    """Compile the combiner region into ``combine(regs, firsts, seconds) -> list of arrays``.

    When the region is a single element-wise op applied to one pair of arguments (``addf``,
    ``maxf``...), ``combine.direct`` is that op's function ``fn(first, second)``, which the
    reduce/scan loops call on strided views directly (same results, fewer copies)."""
    block = op.regions[0].blocks[0]
    run_body = cc.compile_block(block)
    args = cc.slots_of(block.args)
    firsts, seconds = args[0::2], args[1::2]
    ctx = cc.ctx(op)

    def combine(r, xs, ys):
        for s, v in zip(firsts, xs):
            r[s] = v
        for s, v in zip(seconds, ys):
            r[s] = v
        sig = run_body(r)
        if sig[0] != YIELD:
            raise UndefinedBehaviorError.at(ctx, "the combiner region must end with 'yield'")
        return sig[1]
    combine.direct, combine.rows = _direct_body(block, cc)
    return combine


def _direct_body(block, cc):
    """``(fn, rows)`` of a combiner that is one element-wise op: ``fn(first, second)`` and,
    for ops whose result does not depend on the order of combination (maxf/minf), ``rows(a)``
    reducing axis 1 of a 2-D array at once (else None); ``(None, None)`` for other bodies."""
    ops = block.ops
    if len(block.args) != 2 or len(ops) != 2 or ops[1].name != "cuda_tile.yield":
        return None, None
    body, term = ops
    if len(body.results) != 1 or list(term.operands) != [body.results[0]]:
        return None, None
    a, b = block.args
    operands = list(body.operands)
    if operands == [a, b]:
        swap = False
    elif operands == [b, a]:
        swap = True
    else:
        return None, None
    lower = LOWERINGS.get(body.name)
    if lower is None:
        return None, None
    scratch = type(cc)(cc.entry, cc.globals, cc.rt)
    try:
        lowered = lower(body, scratch)
    except Exception:  # noqa: BLE001 - fall back to running the region
        return None, None
    fn = getattr(lowered, "elementwise_fn", None)
    if fn is None:
        return None, None
    # (rows_fn ops are commutative: swapped operands reduce alike)
    return ((lambda x, y: fn(y, x)) if swap else fn), getattr(lowered, "rows_fn", None)


#: use the row-wise NumPy path for selecting (argmax-like) reduce bodies; tests switch it
#: off to compare with the reduction tree
SELECT_REDUCE = True


def _prepare(arrays, axis):
    arrays = _same_lanes(*arrays)
    moved = [np.moveaxis(a, axis, -1) for a in arrays]
    lead = moved[0].shape[:-1]
    n = moved[0].shape[-1]
    return [m.reshape(-1, n) for m in moved], lead, n


@lowering("reduce")
def _lower_reduce(op, cc):
    axis = int(op.attributes["dim"].value) + 1
    combine = _body_combiner(op, cc)
    direct = combine.direct
    ins = cc.slots_of(op.operands)
    outs = cc.slots_of(op.results)
    dtypes = [storage_dtype(v.type) for v in op.results]

    rows_fn = combine.rows
    ufunc = getattr(direct, "ufunc", None)
    block = op.regions[0].blocks[0]
    # a selecting (argmax-like) body: its keep-the-best rule, read off the body on first use
    selecting = [None if len(ins) == 2 and _select_reduce.selecting_body(block) else False]

    def run(r):
        cur, lead, n = _prepare([r[s] for s in ins], axis)
        if selecting[0] is not False and SELECT_REDUCE and n > 1:
            if selecting[0] is None:
                table = _select_reduce.probe(combine, r, block)
                selecting[0] = (table and _select_reduce.classify(table, block)) or False
            if selecting[0]:
                vals, idx = _select_reduce.select_rows(cur[0], cur[1], selecting[0])
                r[outs[0]] = vals.reshape(lead)
                r[outs[1]] = idx.reshape(lead)
                return
        if rows_fn is not None and n > 1:
            r[outs[0]] = rows_fn(cur[0]).reshape(lead)
            return
        if ufunc is not None and n > 1:
            r[outs[0]] = _ufunc_tree(cur[0], ufunc).reshape(lead)
            return
        rows = cur[0].shape[0]
        while n > 1:
            half = n // 2
            if direct is not None:
                c = cur[0]
                v = direct(c[:, 0:2 * half:2], c[:, 1:2 * half:2])
                if n % 2:
                    v = np.concatenate([v, c[:, n - 1:n]], axis=1)
                cur = [v]
                n = half + n % 2
                continue
            xs = [c[:, 0:2 * half:2].reshape(-1) for c in cur]
            ys = [c[:, 1:2 * half:2].reshape(-1) for c in cur]
            res = combine(r, xs, ys)
            nxt = []
            for i, v in enumerate(res):
                v = np.broadcast_to(np.asarray(v, dtype=dtypes[i]), (rows * half,))
                v = v.reshape(rows, half)
                if n % 2:
                    v = np.concatenate([v, cur[i][:, n - 1:n]], axis=1)
                nxt.append(v)
            cur = nxt
            n = half + n % 2
        for s, c in zip(outs, cur):
            r[s] = np.ascontiguousarray(c[:, 0]).reshape(lead)
    return run


def _ufunc_tree(c: np.ndarray, ufunc) -> np.ndarray:
    """The pairwise tree of ``reduce`` (adjacent pairs, the lower index first) over the rows
    of ``c`` (``(rows, n)``, ``n > 1``) for a combiner that is the native f32/f64 ``ufunc``
    followed by NaN canonicalisation (``fast.float_binary``): each level into one of two
    work arrays (no array per level), NaN canonicalised once at the end (the same bits: a
    NaN anywhere in the tree makes every later sum NaN, and the last one canonical)."""
    done = native.tree_reduce_rows(ufunc, c)       # (one C pass where a compiler is at hand)
    if done is not None:
        return done
    rows, n = c.shape
    src = c
    first = (n + 1) // 2            # the width after the first level, then after the second
    bufs = [np.empty(rows * first, c.dtype), np.empty(rows * ((first + 1) // 2), c.dtype)]
    level = 0
    while n > 1:
        half = n // 2
        dst = bufs[level % 2][:rows * (half + n % 2)].reshape(rows, half + n % 2)
        ufunc(src[:, 0:2 * half:2], src[:, 1:2 * half:2], out=dst[:, :half])
        if n % 2:
            dst[:, half] = src[:, n - 1]
        src, n = dst, half + n % 2
        level += 1
    return fast.canon_nan(np.ascontiguousarray(src[:, 0]))


def _ufunc_scan(c: np.ndarray, ufunc) -> np.ndarray:
    """The doubling scan of ``scan`` (level ``k``: element ``i >= k`` combines element ``i``
    with element ``i - k``, in that order) over the rows of ``c`` (``(rows, n)``, ``n > 1``, an
    array the caller gives up) for a combiner that is the native f32/f64 ``ufunc`` followed by
    NaN canonicalisation: each level from one of two work arrays into the other (no arrays per
    level), NaN canonicalised once at the end (the same bits, as in :func:`_ufunc_tree`: a NaN
    operand makes the result NaN, so an element NaN at some level is NaN at the end)."""
    done = native.scan_rows(ufunc, c)         # (one C pass where a compiler is at hand)
    if done is not None:
        return done
    n = c.shape[1]
    src, dst = c, np.empty_like(c)
    k = 1
    while k < n:
        dst[:, :k] = src[:, :k]
        ufunc(src[:, k:], src[:, :n - k], out=dst[:, k:])
        src, dst = dst, src
        k *= 2
    return fast.canon_nan(src)


@lowering("scan")
def _lower_scan(op, cc):
    axis = int(op.attributes["dim"].value) + 1
    rev = op.attributes.get("reverse")
    reverse = bool(getattr(rev, "value", rev)) if rev is not None else False
    combine = _body_combiner(op, cc)
    direct = combine.direct
    ins = cc.slots_of(op.operands)
    outs = cc.slots_of(op.results)
    dtypes = [storage_dtype(v.type) for v in op.results]
    ufunc = getattr(direct, "ufunc", None)

    def run(r):
        arrays = [r[s] for s in ins]
        if reverse:
            arrays = [np.flip(a, axis) for a in arrays]
        cur, lead, n = _prepare(arrays, axis)
        rows = cur[0].shape[0]
        cur = [np.array(c) for c in cur]
        if ufunc is not None and n > 1:
            cur = [_ufunc_scan(cur[0], ufunc)]
        k = 1
        while k < n and ufunc is None:
            if direct is not None:
                c = cur[0]
                new = np.empty_like(c)
                new[:, :k] = c[:, :k]
                new[:, k:] = direct(c[:, k:], c[:, :n - k])
                cur = [new]
                k *= 2
                continue
            xs = [c[:, k:].reshape(-1) for c in cur]
            ys = [c[:, :n - k].reshape(-1) for c in cur]
            res = combine(r, xs, ys)
            nxt = []
            for i, v in enumerate(res):
                v = np.broadcast_to(np.asarray(v, dtype=dtypes[i]), (rows * (n - k),))
                new = np.empty_like(cur[i])
                new[:, :k] = cur[i][:, :k]
                new[:, k:] = v.reshape(rows, n - k)
                nxt.append(new)
            cur = nxt
            k *= 2
        for s, c in zip(outs, cur):
            v = np.moveaxis(c.reshape(lead + (n,)), -1, axis)
            if reverse:
                v = np.flip(v, axis)
            r[s] = np.array(v)
    return run
