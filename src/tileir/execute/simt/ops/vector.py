"""vector: per-thread vectors (lane axes first, then the vector's own axes).

Memory ops check every element they touch against the memref (MLIR makes an out-of-bounds
``vector.load``/``store`` undefined; we report it); ``maskedload``/``maskedstore``/``gather``/
``scatter``/``compressstore``/``expandload`` never touch masked-off elements; ``transfer_read``
pads, and ``transfer_write`` skips, elements outside the memref unless ``in_bounds`` says they
cannot be (then it is an error).  Floating-point ``reduction`` ``add``/``mul`` accumulate
sequentially in element order starting from ``acc`` (an ordered reduction, what MLIR's lowering
without ``reassoc`` does); ``fma`` and ``outerproduct`` are fused (one rounding).
"""

from __future__ import annotations

import itertools
from typing import Callable

import numpy as np

from ....ir.core import Operation
from ...errors import MemoryAccessError, UnsupportedError
from ...numerics import floatops
from ..faults import LaneFault, ub
from ..interp import affine
from ..lanes import Aff, BoxSpace
from ..memory import cells, element_address, load, store
from ..registry import lowering
from ..runner_utils import float_text
from ..values import element_name, narrow_bits, numerics_name, storage, vector_shape
from .arith import _signed_zero_extremum, int_of
from .intsem import Int
from .memref_access import check_host_access
from . import vector_dense as dense

_DYNAMIC = -(1 << 63)


def _is_vector_type(t) -> bool:
    return type(t).__name__ == "VectorType"


def _lane(space, x) -> np.ndarray:
    return space.array(x) if isinstance(x, Aff) else np.asarray(x)


def _ints(attr) -> list[int]:
    vals = attr.value
    return [int(getattr(v, "value", v)) for v in vals]


# -- shape ops ------------------------------------------------------------------------------------

@lowering("vector.broadcast")
def _broadcast(op: Operation, c):
    src_shape = vector_shape(op.operands[0].type)
    dst_shape = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        nd = frame.space.ndim
        x = _lane(frame.space, args[0]).astype(dtype, copy=False)
        lane = x.shape[:nd]
        x = x.reshape(lane + (1,) * (len(dst_shape) - len(src_shape)) + tuple(src_shape))
        return [np.broadcast_to(x, lane + tuple(dst_shape))]
    return step


def _positions(static: list, dyn: list, space, shape: tuple) -> list:
    """Static positions with the dynamic ones filled in (uniform ints or lane arrays)."""
    out, it = [], iter(dyn)
    for k, s in enumerate(static):
        if s != _DYNAMIC:
            out.append(int(s))
            continue
        v = _lane(space, next(it)).astype(np.int64)
        bad = (v < 0) | (v >= shape[k])
        if np.any(bad):
            raise ub(f"dynamic position out of range [0, {shape[k]}) (poison)", bad)
        out.append(int(v.reshape(-1)[0]) if v.size == 1 else v)
    return out


def _index(space, x: np.ndarray, positions: list):
    """``x[lanes..., positions...]`` with per-lane positions where they vary."""
    nd = space.ndim
    if all(isinstance(p, int) for p in positions):
        return (slice(None),) * nd + tuple(positions)
    lane_shape = space.shape
    grids = np.indices(lane_shape, sparse=True)
    idx = [g for g in grids]
    full = np.broadcast_to(x, lane_shape + x.shape[nd:])
    for p in positions:
        idx.append(np.broadcast_to(p.reshape(p.shape[:nd]) if isinstance(p, np.ndarray) else p,
                                   lane_shape))
    return full, tuple(idx)


@lowering("vector.extract")
def _extract(op: Operation, c):
    static = [int(x) for x in op.attributes["static_position"].value]
    shape = vector_shape(op.operands[0].type)

    def step(ex, frame, args):
        space = frame.space
        x = _lane(space, args[0])
        pos = _positions(static, args[1:], space, shape)
        sel = _index(space, x, pos)
        if isinstance(sel, tuple) and sel and isinstance(sel[0], np.ndarray) and len(sel) == 2:
            full, idx = sel
            return [full[idx]]
        return [x[sel]]
    return step


@lowering("vector.insert")
def _insert(op: Operation, c):
    static = [int(x) for x in op.attributes["static_position"].value]
    shape = vector_shape(op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        value, dest = _lane(space, args[0]), _lane(space, args[1])
        pos = _positions(static, args[2:], space, shape)
        lane = np.broadcast_shapes(value.shape[:space.ndim], dest.shape[:space.ndim])
        out = np.array(np.broadcast_to(dest, lane + tuple(shape)))
        if all(isinstance(p, int) for p in pos):
            out[(slice(None),) * space.ndim + tuple(pos)] = value
            return [out]
        full = np.array(np.broadcast_to(out, space.shape + tuple(shape)))
        grids = np.indices(space.shape, sparse=True)
        idx = tuple(grids) + tuple(np.broadcast_to(p if isinstance(p, np.ndarray) else p,
                                                   space.shape) for p in pos)
        full[idx] = np.broadcast_to(value, space.shape + value.shape[space.ndim:])
        return [full]
    return step


@lowering("vector.from_elements")
def _from_elements(op: Operation, c):
    shape = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        parts = [_lane(space, a).astype(dtype, copy=False) for a in args]
        lane = np.broadcast_shapes(*(p.shape for p in parts))
        stacked = np.stack([np.broadcast_to(p, lane) for p in parts], axis=-1)
        return [stacked.reshape(lane + tuple(shape))]
    return step


@lowering("vector.to_elements")
def _to_elements(op: Operation, c):
    def step(ex, frame, args):
        space = frame.space
        x = _lane(space, args[0])
        flat = x.reshape(x.shape[:space.ndim] + (-1,))
        return [flat[..., k] for k in range(flat.shape[-1])]
    return step


@lowering("vector.shape_cast")
def _shape_cast(op: Operation, c):
    shape = vector_shape(op.results[0].type)

    def step(ex, frame, args):
        x = _lane(frame.space, args[0])
        return [x.reshape(x.shape[:frame.space.ndim] + tuple(shape))]
    return step


@lowering("vector.bitcast")
def _bitcast(op: Operation, c):
    shape = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)
    src_bits, dst_bits = _element_bits(op.operands[0].type), _element_bits(op.results[0].type)
    # elements that do not fill their storage (i1, i4, ...) are repacked bit by bit
    repack = src_bits != dst_bits and (
        src_bits != np.dtype(storage(op.operands[0].type)).itemsize * 8 or
        dst_bits != np.dtype(dtype).itemsize * 8)

    def step(ex, frame, args):
        nd = frame.space.ndim
        x = np.ascontiguousarray(_lane(frame.space, args[0]))
        if repack:
            return [_repacked(x, nd, src_bits, dst_bits, dtype).reshape(
                x.shape[:nd] + tuple(shape))]
        return [x.view(dtype).reshape(x.shape[:nd] + tuple(shape))]
    return step


def _element_bits(t) -> int:
    if np.dtype(storage(t)).kind == "b":           # i1, si1, ui1
        return 1
    bits = narrow_bits(element_name(t))
    return bits if bits is not None else np.dtype(storage(t)).itemsize * 8


def _repacked(x: np.ndarray, nd: int, src_bits: int, dst_bits: int, dtype) -> np.ndarray:
    """The bits of ``x``'s vector (element 0 in the lowest bits, as LLVM lays out vectors on
    little-endian targets) regrouped into elements of ``dst_bits`` bits of ``dtype``."""
    from .intsem import Int
    flat = x.reshape(x.shape[:nd] + (-1,))
    if flat.dtype.kind == "b":
        u = flat.astype(np.uint64)
    elif src_bits == flat.dtype.itemsize * 8:
        u = flat.view(f"u{flat.dtype.itemsize}").astype(np.uint64)
    else:
        u = (flat.astype(np.int64) & ((1 << src_bits) - 1)).astype(np.uint64)
    bits = (u[..., None] >> np.arange(src_bits, dtype=np.uint64)) & np.uint64(1)
    bits = bits.reshape(flat.shape[:nd] + (-1, dst_bits))
    word = (bits << np.arange(dst_bits, dtype=np.uint64)).sum(axis=-1, dtype=np.uint64)
    if np.dtype(dtype).kind == "b":
        return word.astype(bool)
    if dst_bits == np.dtype(dtype).itemsize * 8:
        return word.astype(f"u{np.dtype(dtype).itemsize}").view(dtype)
    return Int(dst_bits, "").wrap(word.view(np.int64)).astype(dtype, copy=False)


@lowering("vector.transpose")
def _transpose(op: Operation, c):
    perm = [int(p) for p in op.attributes["permutation"].value]

    def step(ex, frame, args):
        nd = frame.space.ndim
        x = _lane(frame.space, args[0])
        return [np.transpose(x, list(range(nd)) + [nd + p for p in perm])]
    return step


@lowering("vector.shuffle")
def _shuffle(op: Operation, c):
    mask = [int(m) for m in op.attributes["mask"].value]
    scalar_inputs = not vector_shape(op.operands[0].type)

    def step(ex, frame, args):
        nd = frame.space.ndim
        a, b = (_lane(frame.space, x) for x in args)
        if scalar_inputs:
            a, b = a[..., None], b[..., None]
        lane = np.broadcast_shapes(a.shape[:nd], b.shape[:nd])
        a = np.broadcast_to(a, lane + a.shape[nd:])
        b = np.broadcast_to(b, lane + b.shape[nd:])
        both = np.concatenate([a, b], axis=nd)
        return [np.take(both, mask, axis=nd)]
    return step


@lowering("vector.extract_strided_slice")
def _extract_strided_slice(op: Operation, c):
    offs, sizes = _ints(op.attributes["offsets"]), _ints(op.attributes["sizes"])
    strides = _ints(op.attributes["strides"])

    def step(ex, frame, args):
        nd = frame.space.ndim
        x = _lane(frame.space, args[0])
        sl = tuple(slice(o, o + n * s, s) for o, n, s in zip(offs, sizes, strides))
        return [x[(slice(None),) * nd + sl]]
    return step


@lowering("vector.insert_strided_slice")
def _insert_strided_slice(op: Operation, c):
    offs, strides = _ints(op.attributes["offsets"]), _ints(op.attributes["strides"])
    src_shape = vector_shape(op.operands[0].type)
    dst_shape = vector_shape(op.results[0].type)

    def step(ex, frame, args):
        nd = frame.space.ndim
        src, dst = (_lane(frame.space, x) for x in args)
        lane = np.broadcast_shapes(src.shape[:nd], dst.shape[:nd])
        out = np.array(np.broadcast_to(dst, lane + tuple(dst_shape)))
        lead = len(dst_shape) - len(src_shape)
        sl = tuple(slice(o, o + 1) if k < lead else
                   slice(o, o + src_shape[k - lead] * strides[k - lead], strides[k - lead])
                   for k, o in enumerate(offs))
        out[(slice(None),) * nd + sl] = src.reshape(src.shape[:nd] + (1,) * lead +
                                                    tuple(src_shape))
        return [out]
    return step


@lowering("vector.interleave")
def _interleave(op: Operation, c):
    def step(ex, frame, args):
        a, b = (_lane(frame.space, x) for x in args)
        a, b = np.broadcast_arrays(a, b)
        out = np.stack([a, b], axis=-1)
        return [out.reshape(out.shape[:-2] + (-1,))]
    return step


@lowering("vector.deinterleave")
def _deinterleave(op: Operation, c):
    def step(ex, frame, args):
        x = _lane(frame.space, args[0])
        return [x[..., 0::2], x[..., 1::2]]
    return step


@lowering("vector.step")
def _step(op: Operation, c):
    (n,) = vector_shape(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        return [frame.space.uniform(np.arange(n), dtype, (n,))]
    return step


@lowering("vector.vscale")
def _vscale(op: Operation, c):
    def step(ex, frame, args):
        return [frame.space.uniform(1, np.int64)]
    return step


@lowering("vector.constant_mask")
def _constant_mask(op: Operation, c):
    shape = vector_shape(op.results[0].type)
    sizes = [int(s) for s in op.attributes["mask_dim_sizes"].value]
    mask = np.ones(shape, dtype=bool)
    if not shape:
        # A 0-d mask takes one size (0 or 1): the single element is set iff it is positive.
        mask = np.array(bool(sizes and sizes[0] > 0))
        sizes = []
    for d, n in enumerate(sizes):
        idx = np.arange(shape[d]).reshape([-1 if k == d else 1 for k in range(len(shape))])
        mask &= idx < n

    def step(ex, frame, args):
        return [frame.space.uniform(mask, np.bool_, shape)]
    return step


@lowering("vector.create_mask")
def _create_mask(op: Operation, c):
    shape = vector_shape(op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        nd = space.ndim
        mask = np.ones((1,) * nd + tuple(shape), dtype=bool)
        if not shape:
            # 0-d: one operand; the element is set iff that bound is positive.
            b = _lane(space, args[0]).astype(np.int64)
            return [b.reshape(b.shape[:nd]) > 0]
        for d, bound in enumerate(args):
            b = _lane(space, bound).astype(np.int64)
            b = b.reshape(b.shape[:nd] + (1,) * len(shape))
            idx = np.arange(shape[d]).reshape((1,) * nd + tuple(-1 if k == d else 1
                                                                for k in range(len(shape))))
            mask = mask & (idx < b)
        return [mask]
    return step


# -- arithmetic -----------------------------------------------------------------------------------

@lowering("vector.fma")
def _fma(op: Operation, c):
    elem = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        return [np.asarray(floatops.fma(*args, elem)).astype(dtype, copy=False)]
    return step


def _combiner(kind: str, t) -> Callable:
    elem = numerics_name(t)
    if elem.startswith("f") or elem == "bf16":
        if True:
            table = {"add": np.add, "mul": np.multiply,
                     "maximumf": _signed_zero_extremum(True, True),
                     "minimumf": _signed_zero_extremum(False, True),
                     "maxnumf": _signed_zero_extremum(True, False),
                     "minnumf": _signed_zero_extremum(False, False)}
            if kind in table:
                fn = table[kind]
                dtype = storage(t)
                return lambda a, b: fn(a, b).astype(dtype, copy=False)
    name = numerics_name(t)
    # Signed/unsigned integer types (si8, ui32, ...) combine like their signless width.
    sem = int_of(t) if name == element_name(t) or name == "i64" else Int(int(name[1:]), name)
    table = {"add": sem.add, "mul": sem.mul, "and": sem.andi, "or": sem.ori, "xor": sem.xori,
             "maxsi": lambda a, b: sem.max(a, b, True), "minsi": lambda a, b: sem.min(a, b, True),
             "maxui": lambda a, b: sem.max(a, b, False),
             "minui": lambda a, b: sem.min(a, b, False)}
    return table[kind]


def _kind(op: Operation) -> str:
    text = str(op.attributes["kind"])
    return text[text.index("<") + 1:text.rindex(">")].strip()


@lowering("vector.reduction")
def _reduction(op: Operation, c):
    kind = _kind(op)
    fn = _combiner(kind, op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        x = _lane(space, args[0])
        flat = x.reshape(x.shape[:space.ndim] + (-1,))
        with np.errstate(all="ignore"):
            if len(args) > 1:
                acc = _lane(space, args[1])
                start = 0
            else:
                acc = flat[..., 0]
                start = 1
            for k in range(start, flat.shape[-1]):
                acc = fn(acc, flat[..., k])
        return [acc]
    return step


@lowering("vector.outerproduct")
def _outerproduct(op: Operation, c):
    kind = _kind(op) if "kind" in op.attributes else "add"
    elem = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)
    rhs_scalar = not vector_shape(op.operands[1].type)

    def step(ex, frame, args):
        space = frame.space
        args, mask = _take_vector_mask(args)
        lhs, rhs = _lane(space, args[0]), _lane(space, args[1])
        a = lhs[..., :, None] if not rhs_scalar else lhs
        b = rhs[..., None, :] if not rhs_scalar else rhs[..., None]
        if len(args) > 2:
            acc = _lane(space, args[2])
            if kind == "add" and elem in ("f16", "bf16", "f32", "f64"):
                out = np.asarray(floatops.fma(a, b, acc, elem)).astype(dtype, copy=False)
            else:
                with np.errstate(all="ignore"):
                    out = _combiner(kind, op.results[0].type)(acc, (a * b).astype(dtype))
            if mask is not None:    # under vector.mask: masked-off elements keep acc
                out = np.where(mask, out, acc).astype(dtype, copy=False)
            return [out]
        with np.errstate(all="ignore"):
            return [(a * b).astype(dtype, copy=False)]
    return step


@lowering("vector.contract")
def _contract(op: Operation, c):
    """The reduction positions (row-major over the reduction dimensions) are combined into the
    accumulator one after another; for float ``add`` each step is a fused multiply-add (as
    ``outerproduct``), otherwise the product is rounded and then combined with ``kind``.

    Operands narrower than the accumulator (``i8 x i8 -> i32``, ``f16 x f16 -> f32``) are first
    extended to its element type (integers by sign extension), as the op specifies."""
    from ....dialects.vector.ops import contraction_iterators, contraction_maps
    kind = _kind(op)
    elem = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)
    maps = contraction_maps(op)
    iterators = contraction_iterators(op)
    parallel = list(maps[2].dims)                          # in the accumulator's order
    reduction = [d for d, it in enumerate(iterators) if it == "reduction"]
    if sorted(parallel) != [d for d, it in enumerate(iterators) if it == "parallel"]:
        raise UnsupportedError("vector.contract whose accumulator is not indexed by exactly "
                               "the parallel dimensions", op=op.name)
    order = parallel + reduction                           # iteration dims as computed
    combine = _combiner(kind, op.results[0].type)
    fused = kind == "add" and elem in ("f16", "bf16", "f32", "f64")

    def arrange(x: np.ndarray, dims: list[int], lanes: int) -> np.ndarray:
        # operand axes (after the lane axes) moved to their places in ``order``; size-1 axes
        # for the iteration dimensions the operand is not indexed by
        present = sorted(range(len(dims)), key=lambda k: order.index(dims[k]))
        x = np.transpose(x, tuple(range(lanes)) + tuple(lanes + k for k in present))
        shape = list(x.shape[:lanes])
        it = iter(x.shape[lanes:])
        for d in order:
            shape.append(next(it) if d in dims else 1)
        return x.reshape(shape)

    n_iter = len(iterators)

    def step(ex, frame, args):
        space = frame.space
        lanes = space.ndim
        args, mask = _take_vector_mask(args)
        lhs = arrange(_lane(space, args[0]).astype(dtype, copy=False), maps[0].dims, lanes)
        rhs = arrange(_lane(space, args[1]).astype(dtype, copy=False), maps[1].dims, lanes)
        acc = np.array(np.broadcast_to(_lane(space, args[2]), space.shape +
                                       vector_shape(op.results[0].type)), dtype=dtype)
        n_par = len(parallel)
        red_shape = tuple(max(lhs.shape[lanes + n_par + k], rhs.shape[lanes + n_par + k])
                          for k in range(len(reduction)))
        if mask is not None:
            # under vector.mask: the mask spans the iteration space (d0, d1, ...); laid out
            # like the operands, a step leaves the accumulator where its point is masked off
            m = np.asarray(mask, dtype=bool)
            lead = m.ndim - n_iter
            mask = np.transpose(m, tuple(range(lead)) + tuple(lead + d for d in order))
        with np.errstate(all="ignore"):
            for pos in np.ndindex(*red_shape):
                a = lhs[(Ellipsis,) + tuple(p if lhs.shape[lanes + n_par + k] > 1 else 0
                                            for k, p in enumerate(pos))]
                b = rhs[(Ellipsis,) + tuple(p if rhs.shape[lanes + n_par + k] > 1 else 0
                                            for k, p in enumerate(pos))]
                if fused:
                    new = np.asarray(floatops.fma(a, b, acc, elem)).astype(dtype, copy=False)
                else:
                    new = combine(acc, (a * b).astype(dtype))
                if mask is not None:
                    new = np.where(mask[(Ellipsis,) + pos], new, acc).astype(dtype, copy=False)
                acc = new
        return [acc]
    return step


@lowering("vector.multi_reduction")
def _multi_reduction(op: Operation, c):
    """The reduced positions (row-major over the reduced dimensions) are combined into the
    accumulator one after another."""
    kind = _kind(op)
    fn = _combiner(kind, op.results[0].type)
    dims = [int(d) for d in op.attributes["reduction_dims"].value]
    rank = len(vector_shape(op.operands[0].type))
    kept = [d for d in range(rank) if d not in dims]

    def step(ex, frame, args):
        space = frame.space
        lanes = space.ndim
        x = _lane(space, args[0])
        x = np.transpose(x, tuple(range(lanes)) + tuple(lanes + d for d in kept + dims))
        red = x.shape[lanes + len(kept):]
        acc = _lane(space, args[1])
        with np.errstate(all="ignore"):
            for pos in np.ndindex(*red):
                acc = fn(acc, x[(Ellipsis,) + pos])
        return [acc]
    return step


@lowering("vector.scan")
def _scan(op: Operation, c):
    """Prefix combination along ``reduction_dim``: inclusive, position ``k`` combines elements
    ``0..k`` in order (the initial value is not used); exclusive, position 0 is the initial
    value and position ``k`` combines it with elements ``0..k-1``.  The accumulated value is
    the last position's."""
    fn = _combiner(_kind(op), op.results[0].type)
    dim = int(op.attributes["reduction_dim"].value)
    inclusive = bool(op.attributes["inclusive"].value)
    dtype = storage(op.results[0].type)
    vshape = vector_shape(op.results[0].type)
    ishape = vector_shape(op.results[1].type)

    def step(ex, frame, args):
        space = frame.space
        lanes = space.ndim
        x = _lane(space, args[0])
        x = np.moveaxis(np.broadcast_to(x, x.shape[:lanes] + vshape), lanes + dim, -1)
        out = np.empty(x.shape, dtype=dtype)
        cur = np.broadcast_to(_lane(space, args[1]),
                              x.shape[:lanes] + ishape).astype(dtype, copy=False)
        with np.errstate(all="ignore"):
            for k in range(x.shape[-1]):
                if inclusive:
                    cur = x[..., 0] if k == 0 else fn(cur, x[..., k])
                elif k:
                    cur = fn(cur, x[..., k - 1])
                out[..., k] = cur
        return [np.moveaxis(out, -1, lanes + dim), np.array(cur, dtype=dtype)]
    return step


#: (buffer ident, cell dtype, residue) -> the Buffer that sees that buffer's memory in cells
_CELL_VIEWS: dict = {}


def _cells_of(buf, scalar: np.dtype, cell: np.dtype, residue: int):
    """A :class:`~..memory.Buffer` over the same memory as ``buf``, in elements of ``cell``
    (``per`` scalars of ``scalar`` each) starting ``residue`` scalars in."""
    key = (buf.ident, cell, residue)
    out = _CELL_VIEWS.get(key)
    if out is None:
        from ..memory import Buffer
        flat = buf.data.view(scalar) if buf.data.dtype != scalar else buf.data
        per = cell.itemsize // scalar.itemsize
        usable = (flat.size - residue) // per * per
        data = flat[residue:residue + usable]
        out = Buffer(data.view(cell) if cell != scalar else data, buf.space,
                     f"{buf.name} as {cell}", read_only=buf.read_only)
        out.copy_size = buf.copy_size * buf.data.itemsize // cell.itemsize
        _CELL_VIEWS[key] = out
    return out


@lowering("vector.type_cast")
def _type_cast(op: Operation, c):
    """The result memref sees the operand's memory: its element ``k`` (a vector, row-major)
    holds the operand's scalars ``k * n .. k * n + n - 1`` (``n`` the vector's size)."""
    from ..memory import MemRef
    from ..values import cell_dtype
    source_t, result_t = op.operands[0].type, op.results[0].type
    scalar = storage(result_t.element_type)
    src_cell, cell = cell_dtype(source_t.element_type), cell_dtype(result_t.element_type)
    src_per = src_cell.itemsize // scalar.itemsize      # scalars per operand element
    per = cell.itemsize // scalar.itemsize              # scalars per result element
    shape = [int(n) for n in result_t.shape]
    strides = [int(np.prod(shape[k + 1:], dtype=np.int64)) for k in range(len(shape))]

    def step(ex, frame, args):
        ref = args[0]
        if ref.buffer.freed:
            raise LaneFault(f"vector.type_cast of {ref.buffer.name} after it was deallocated",
                            kind=MemoryAccessError)
        off = ref.offset
        if isinstance(off, Aff):
            const, coef = off.const * src_per, [k * src_per for k in off.coef]
            if any(k % per for k in coef):
                raise LaneFault("vector.type_cast of memrefs whose per-thread offsets are not "
                                "whole vectors apart", kind=UnsupportedError)
            residue = const % per
            offset = Aff(const // per, tuple(k // per for k in coef), off.dtype)
        else:
            arr = np.asarray(off, dtype=np.int64) * src_per
            residue = int(arr.reshape(-1)[0] % per) if arr.size else 0
            if np.any(arr % per != residue):
                raise LaneFault("vector.type_cast of memrefs whose per-thread offsets are not "
                                "whole vectors apart", kind=UnsupportedError)
            q = (arr - residue) // per
            offset = int(q) if q.ndim == 0 else q
        buf = _cells_of(ref.buffer, scalar, cell, residue)
        return [MemRef(buf, offset, shape, strides, result_t)]
    return step


class _VectorMask:
    """The mask of an enclosing ``vector.mask``, passed to the masked op's step as its last
    argument (a value no op takes, so it cannot be mistaken for an operand)."""
    __slots__ = ("bits",)

    def __init__(self, bits) -> None:
        self.bits = bits


def _take_vector_mask(args: list):
    """``args`` without a trailing :class:`_VectorMask`, and its bits (None without one)."""
    if args and isinstance(args[-1], _VectorMask):
        return args[:-1], args[-1].bits
    return args, None


@lowering("vector.mask")
def _mask(op: Operation, c):
    """The enclosed op on the selected elements only (MLIR 22's maskable ops):

    * ``transfer_read``/``transfer_write``: elements whose mask bit is off (in either the
      vector.mask mask or the transfer's own mask) read the padding value, or the passthru
      element when there is one, and are not written;
    * ``gather``: an element is loaded where both masks are on; where only vector.mask's is
      on it takes the gather's pass_thru, and where vector.mask's is off it is zero (what MLIR's
      lowering, which replaces the gather's mask and pass_thru by vector.mask's mask and a
      zero vector, computes);
    * ``reduction``/``multi_reduction``: only the selected elements combine (in order, from
      the accumulator; a reduction without one that selects nothing gives the kind's
      identity, as MLIR's lowering does, or is reported for the float min/max kinds);
    * ``contract``: masked-off points of the iteration space do not contribute (a result
      element none of whose points is selected keeps the accumulator's value);
    * ``outerproduct``: masked-off result elements keep the accumulator's value (without an
      accumulator the mask changes nothing, as in MLIR's lowering).

    A vector.mask without an op yields its region's values."""
    body = op.regions[0].blocks[0]
    plan = c.block(body)
    if not plan.steps:
        yielded = list(plan.term_operands) if plan.term is not None else []
        return lambda ex, frame, args: [frame.get(v) for v in yielded]
    inner_step, inner_operands, _, inner = plan.steps[0]
    name = inner.name
    if name in ("vector.transfer_read", "vector.transfer_write", "vector.gather",
                "vector.contract", "vector.outerproduct"):
        def run_inner(ex, frame, mask, args):
            return inner_step(ex, frame, args + [_VectorMask(mask)])
    elif name in ("vector.reduction", "vector.multi_reduction"):
        fn = _combiner(_kind(inner), inner.results[0].type)
        dims = [int(d) for d in inner.attributes["reduction_dims"].value] \
            if name == "vector.multi_reduction" else None

        def run_inner(ex, frame, mask, args):
            return [_masked_reduce(frame.space, fn, args, mask, dims, inner)]
    else:
        raise UnsupportedError(f"vector.mask of '{name}' (MLIR 22 cannot mask it)",
                               op=op.name)
    vrank = len(vector_shape(op.operands[0].type))

    def step(ex, frame, args):
        space = frame.space
        mask = _lane(space, args[0])
        inner_args = [frame.get(v) for v in inner_operands]
        out = run_inner(ex, frame, mask, inner_args)
        if len(args) > 1 and out and name == "vector.transfer_read":
            passthru = _lane(space, args[1])
            m = _transfer_mask_as_vector(inner, mask, vrank)
            out = [np.where(m, out[0], passthru).astype(out[0].dtype, copy=False)]
        if out and out[0] is None:
            raise LaneFault("vector.mask: a float min/max reduction without accumulator selects "
                            "no element")
        return out
    return step


def _transfer_mask_as_vector(op: Operation, mask: np.ndarray, vrank: int) -> np.ndarray:
    """A transfer's mask (indexed by the memory dimensions the vector runs along, in their
    order) laid out like its vector."""
    amap = op.attributes["permutation_map"].value
    dims = [getattr(r, "position", None) for r in amap.results]
    return _mask_in_vector_layout(mask, dims, mask.ndim - vrank)


def _mask_in_vector_layout(mask: np.ndarray, dims: list, lanes: int) -> np.ndarray:
    """``mask`` (``lanes`` lane axes, then one axis per memory dimension the vector runs
    along, in their order) with its axes in the vector's order: vector dim ``k`` runs along
    memory dim ``dims[k]``, or is a broadcast dim (None: an axis of extent 1)."""
    present = sorted(d for d in dims if d is not None)
    order = [present.index(d) for d in dims if d is not None]
    m = np.transpose(mask, tuple(range(lanes)) + tuple(lanes + k for k in order))
    shape = list(m.shape[:lanes])
    it = iter(m.shape[lanes:])
    for d in dims:
        shape.append(next(it) if d is not None else 1)
    return m.reshape(shape)


def _masked_reduce(space, fn, args, mask, dims, op):
    """Combine the selected elements of ``args[0]`` (all of them, or the ``dims`` axes) into the
    accumulator ``args[1]`` (or the first selected element), in row-major order; None where
    nothing is selected and there is no accumulator."""
    lanes = space.ndim
    x = _lane(space, args[0])
    m = np.asarray(mask, dtype=bool)
    shape = np.broadcast_shapes(x.shape, m.shape)
    rank = len(shape) - lanes
    red = list(range(rank)) if dims is None else dims
    kept = [d for d in range(rank) if d not in red]
    perm = tuple(range(lanes)) + tuple(lanes + d for d in kept + red)
    x = np.transpose(np.broadcast_to(x, shape), perm)
    m = np.transpose(np.broadcast_to(m, shape), perm)
    red_shape = x.shape[lanes + len(kept):]
    acc = _lane(space, args[1]) if len(args) > 1 else None
    started = None if acc is not None else np.zeros(np.broadcast_shapes(
        x.shape[:lanes + len(kept)], m.shape[:lanes + len(kept)]), bool)
    with np.errstate(all="ignore"):
        for pos in np.ndindex(*red_shape):
            v, sel = x[(Ellipsis,) + pos], m[(Ellipsis,) + pos]
            if acc is None:
                acc = np.array(v, copy=True)
                started = np.broadcast_to(sel, started.shape).copy()
                continue
            combined = fn(acc, v)
            if started is not None:
                combined = np.where(started, combined, v)
                started = started | sel
            acc = np.where(sel, combined, acc).astype(combined.dtype, copy=False)
    if started is not None and not np.all(started):
        ident = _identity(_kind(op), op.results[0].type)
        if ident is None:
            return None
        acc = np.where(started, acc, ident).astype(acc.dtype, copy=False)
    return acc


def _identity(kind: str, t):
    """The identity of a combining kind on ``t`` (what MLIR's lowering starts a masked
    reduction without accumulator from), or None for the float minimum/maximum kinds (their
    lowering starts from a NaN or a denormal, not an identity)."""
    name = numerics_name(t)
    if name.startswith("f") or name == "bf16":
        return {"add": 0.0, "mul": 1.0}.get(kind)
    bits = int(name[1:])
    smin, smax = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    # integers are held sign-extended: all ones (the unsigned maximum) is -1
    return {"add": 0, "mul": 1, "and": -1, "or": 0, "xor": 0, "maxui": 0, "minui": -1,
            "maxsi": smin, "minsi": smax}.get(kind)


# -- memory ---------------------------------------------------------------------------------------

def _element_offsets(shape: tuple) -> list[tuple]:
    return list(itertools.product(*(range(n) for n in shape)))


def _shifted(space, indices: list, offsets: tuple, dims: list) -> list:
    out = list(indices)
    for d, o in zip(dims, offsets):
        if o:
            x = out[d]
            out[d] = x.plus(o) if isinstance(x, Aff) else _lane(space, x) + o
    return out


def _record(ex, space, ref, addr, write: bool, op) -> None:
    if getattr(ex, "racelog", None) is not None:
        ex.record(space, ref.buffer, addr, write, op)


def _gather_elements(ex, op, space, ref, indices, vshape, mask=None, pad=None, dims=None):
    """Load every element of a vector at ``indices`` (+ its offset along ``dims``, the trailing
    memref dims by default); masked-off elements take ``pad``."""
    rank = ref.rank
    dims = dims if dims is not None else list(range(rank - len(vshape), rank))
    parts = []
    for offs in _element_offsets(vshape):
        idx = _shifted(space, indices, offs, dims)
        if mask is None:
            addr = element_address(space, ref, idx)
            _record(ex, space, ref, addr, False, op)
            parts.append(np.broadcast_to(load(space, ref.buffer, addr), space.shape))
        else:
            parts.append(_one_masked(ex, op, space, ref, idx, mask[(Ellipsis,) + offs],
                                     pad[(Ellipsis,) + offs]))
    out = np.stack(parts, axis=-1)
    return out.reshape(space.shape + tuple(vshape))


def _scatter_elements(ex, op, space, ref, indices, values, vshape, mask=None, dims=None):
    rank = ref.rank
    dims = dims if dims is not None else list(range(rank - len(vshape), rank))
    if ref.buffer.read_only:
        raise LaneFault(f"store to read-only {ref.buffer.name}", kind=MemoryAccessError)
    values = np.broadcast_to(values, space.shape + tuple(vshape) + _cell_shape(ref.buffer))
    lanes = (slice(None),) * space.ndim
    for offs in _element_offsets(vshape):
        idx = _shifted(space, indices, offs, dims)
        v = values[lanes + offs]
        if mask is None:
            addr = element_address(space, ref, idx)
            _record(ex, space, ref, addr, True, op)
            store(space, ref.buffer, addr, v)
            continue
        m = np.broadcast_to(mask[(Ellipsis,) + offs], space.shape)
        if not m.any():
            continue
        sub = space.restrict(m)
        if sub is space:
            addr = element_address(space, ref, idx)
            _record(ex, space, ref, addr, True, op)
            store(space, ref.buffer, addr, v)
            continue
        sub_idx = [sub.enter(i) for i in idx]
        sref = sub.enter(ref)
        with _lanes_of(sub, space):
            addr = element_address(sub, sref, sub_idx)
        _record(ex, sub, sref, addr, True, op)
        store(sub, ref.buffer, addr, sub.enter(np.ascontiguousarray(v)))


@lowering("vector.load")
def _load(op: Operation, c):
    vshape = vector_shape(op.results[0].type)
    # a memref of vectors: the indices name one element, the whole vector
    whole = _is_vector_type(op.operands[0].type.element_type)

    def step(ex, frame, args):
        space = frame.space
        ref, idx = args[0], args[1:]
        check_host_access(ex, ref, op)
        if not whole:
            got = dense.load(ex, space, ref, idx, vshape, _trailing(ref, vshape))
            if got is not None:
                return [got]
        ref, idx = args[0], _materialized(space, idx)
        if whole:
            addr = element_address(space, ref, list(idx))
            _record(ex, space, ref, addr, False, op)
            return [np.array(np.broadcast_to(cells(load(space, ref.buffer, addr)),
                                             space.shape + vshape))]
        return [_gather_elements(ex, op, space, ref, list(idx), vshape)]
    return affine(step)


def _materialized(space, args) -> list:
    """``args`` with every :class:`Aff` as a lane array (what a step not marked
    :func:`~..interp.affine` is given: the element-by-element paths take their values so)."""
    return [space.array(a) if type(a) is Aff else a for a in args]


def _trailing(ref, vshape: tuple) -> list:
    """The memref dims a vector of ``vshape`` at an index runs along: the trailing ones."""
    return list(range(ref.rank - len(vshape), ref.rank))


@lowering("vector.store")
def _store(op: Operation, c):
    vshape = vector_shape(op.operands[0].type)
    whole = _is_vector_type(op.operands[1].type.element_type)

    def step(ex, frame, args):
        space = frame.space
        value, ref, idx = args[0], args[1], args[2:]
        check_host_access(ex, ref, op)
        if not whole and dense.store(ex, space, ref, idx, _lane(space, value), vshape,
                                     _trailing(ref, vshape)):
            return []
        idx = _materialized(space, idx)
        if whole:   # a memref of vectors: the value is one element
            if ref.buffer.read_only:
                raise LaneFault(f"store to read-only {ref.buffer.name}", kind=MemoryAccessError)
            addr = element_address(space, ref, list(idx))
            _record(ex, space, ref, addr, True, op)
            store(space, ref.buffer, addr, _lane(space, value))
            return []
        _scatter_elements(ex, op, space, ref, list(idx), _lane(space, value), vshape)
        return []
    return affine(step)


@lowering("vector.maskedload")
def _maskedload(op: Operation, c):
    vshape = vector_shape(op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        ref, idx, mask, pad = args[0], args[1:-2], args[-2], args[-1]
        check_host_access(ex, ref, op)
        got = _dense_masked_load(ex, space, ref, idx, vshape, _lane(space, mask), pad)
        if got is not None:
            return [got]
        idx = _materialized(space, idx)
        return [_gather_elements(ex, op, space, ref, list(idx), vshape,
                                 np.broadcast_to(_lane(space, mask), space.shape + vshape),
                                 np.broadcast_to(_lane(space, pad), space.shape + vshape))]
    return affine(step)


def _dense_masked_load(ex, space, ref, idx, vshape, mask, pad):
    """A masked vector load in one gather (see :mod:`.vector_dense`), or None."""
    dims = _trailing(ref, vshape)
    if mask.all():
        got = dense.load(ex, space, ref, idx, vshape, dims)
        if got is not None:
            return got
    return dense.load_selected(ex, space, ref, dense.positions(space, idx, vshape, dims), mask,
                               _lane(space, pad), vshape)


@lowering("vector.maskedstore")
def _maskedstore(op: Operation, c):
    vshape = vector_shape(op.operands[-1].type)

    def step(ex, frame, args):
        space = frame.space
        ref, idx, mask, value = args[0], args[1:-2], args[-2], args[-1]
        check_host_access(ex, ref, op)
        mask, value = _lane(space, mask), _lane(space, value)
        dims = _trailing(ref, vshape)
        if mask.all() and dense.store(ex, space, ref, idx, value, vshape, dims) or \
                dense.store_selected(ex, space, ref, dense.positions(space, idx, vshape, dims),
                                     mask, value, vshape):
            return []
        idx = _materialized(space, idx)
        _scatter_elements(ex, op, space, ref, list(idx), value, vshape,
                          np.broadcast_to(mask, space.shape + vshape))
        return []
    return affine(step)


def _contiguous_strides(ref) -> "list[int] | None":
    """``ref``'s strides when it is a dense row-major memref with static sizes and strides."""
    sizes, strides = ref.static_sizes(), ref.strides
    if sizes is None or not all(isinstance(s, (int, np.integer)) for s in strides):
        return None
    expect = 1
    for n, st in zip(reversed(sizes), reversed(strides)):
        if int(st) != expect:
            return None
        expect *= int(n)
    return [int(st) for st in strides]


def _indexed(space, idx: list, offsets: np.ndarray, k: tuple, ref=None) -> list:
    """``idx`` moved by the 1-D element offset ``offsets[..., k]`` (gather/scatter).

    The offset is counted in elements from ``base[idx]``; on a dense row-major memref it may
    carry past the end of the innermost dimension into the following rows (what MLIR's
    lowering, a pointer offset from the base element, does).  Elsewhere it moves the innermost
    index only, and an offset leaving that dimension is reported as out of bounds."""
    out = list(idx)
    delta = np.broadcast_to(offsets[(Ellipsis,) + k], space.shape).astype(np.int64)
    out[-1] = _lane(space, out[-1]).astype(np.int64) + delta
    strides = _contiguous_strides(ref) if ref is not None and len(out) > 1 else None
    if strides is not None:
        lin = sum(_lane(space, i).astype(np.int64) * st for i, st in zip(out, strides))
        for d, st in enumerate(strides):
            out[d], lin = np.divmod(lin, st)
    return out


@lowering("vector.gather")
def _gather(op: Operation, c):
    vshape = vector_shape(op.results[0].type)

    def step(ex, frame, args):
        space = frame.space
        args, outer = _take_vector_mask(args)
        ref, rest = args[0], args[1:]
        idx, offsets, mask, pad = list(rest[:-3]), rest[-3], rest[-2], rest[-1]
        check_host_access(ex, ref, op)
        offsets = np.broadcast_to(_lane(space, offsets), space.shape + vshape)
        mask = np.broadcast_to(_lane(space, mask), space.shape + vshape)
        pad = np.broadcast_to(_lane(space, pad), space.shape + vshape)
        if outer is not None:   # under vector.mask: see _mask
            outer = np.broadcast_to(outer, space.shape + vshape)
            mask = mask & outer
            pad = np.where(outer, pad, np.zeros((), pad.dtype))
        got = dense.load_selected(ex, space, ref, _indexed_all(space, idx, offsets, ref), mask,
                                  pad, vshape)
        if got is not None:
            return [got]
        idx = _materialized(space, idx)
        parts = [_one_masked(ex, op, space, ref, _indexed(space, idx, offsets, k, ref),
                             mask[(Ellipsis,) + k], pad[(Ellipsis,) + k])
                 for k in _element_offsets(vshape)]
        return [np.stack(parts, axis=-1).reshape(space.shape + vshape)]
    return affine(step)


def _indexed_all(space, idx: list, offsets: np.ndarray, ref) -> list:
    """:func:`_indexed` for every element at once: per memref dim, the indices of every
    element (int64, lanes then the offsets' vector axes)."""
    vrank = offsets.ndim - space.ndim
    out = dense.positions(space, idx, (), [])
    out = [o.reshape(o.shape + (1,) * vrank) for o in out]
    out[-1] = out[-1] + offsets.astype(np.int64)
    strides = _contiguous_strides(ref) if len(out) > 1 else None
    if strides is not None:
        lin = sum(i * st for i, st in zip(out, strides))
        for d, st in enumerate(strides):
            out[d], lin = np.divmod(lin, st)
    return out


class _lanes_of:
    """A context in which a fault of the narrower space ``sub`` (lanes of ``space`` a mask
    selects) is reported at its lane's position in ``space``, the space the op runs in."""

    def __init__(self, sub, space) -> None:
        self.sub, self.space = sub, space

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, fault, tb) -> bool:
        sub, space = self.sub, self.space
        if isinstance(fault, LaneFault) and sub is not space and sub.parent is space:
            if fault.lane is not None:
                fault.lane = _lane_in_parent(sub, tuple(int(x) for x in fault.lane))
            elif fault.bad is not None:
                bad = np.asarray(fault.bad, dtype=bool)
                if bad.ndim > sub.ndim:
                    bad = bad.any(axis=tuple(range(sub.ndim, bad.ndim)))
                hits = np.flatnonzero(np.broadcast_to(bad, sub.shape))
                if hits.size:
                    fault.lane = _lane_in_parent(
                        sub, tuple(int(x) for x in np.unravel_index(int(hits[0]), sub.shape)))
                    fault.bad = None
        return False


def _lane_in_parent(sub, lane: tuple) -> tuple:
    """The position in ``sub.parent``'s lane layout of ``sub``'s lane ``lane``."""
    if isinstance(sub, BoxSpace):
        return tuple(x + a - b for x, a, b in zip(lane, sub.lo, sub.parent.lo))
    return tuple(int(ix[lane[0]]) for ix in sub.index)


def _cell_shape(buf) -> tuple:
    """The shape of one element of ``buf``: a vector's for a memref of vectors, else ()."""
    names = buf.data.dtype.names
    return tuple(buf.data.dtype[0].shape) if names else ()


def _one_masked(ex, op, space, ref, idx, mask, pad) -> np.ndarray:
    """The element at ``idx`` where ``mask`` is on, else ``pad`` (lane axes first; then, on a
    memref of vectors, the element's vector axes)."""
    eshape = _cell_shape(ref.buffer)
    dtype = cells(ref.buffer.data).dtype
    value = np.array(np.broadcast_to(pad, space.shape + eshape).astype(dtype))
    mask = np.broadcast_to(mask, space.shape)
    if not mask.any():
        return value
    sub = space.restrict(mask)
    sub_idx = [sub.enter(i) if sub is not space else i for i in idx]
    sref = sub.enter(ref) if sub is not space else ref
    with _lanes_of(sub, space):
        addr = element_address(sub, sref, sub_idx)
    _record(ex, sub, sref, addr, False, op)
    got = cells(load(sub, ref.buffer, addr))
    if sub is space:
        return np.array(np.broadcast_to(got, space.shape + eshape))
    sub.scatter(value, got)
    return value


@lowering("vector.scatter")
def _scatter(op: Operation, c):
    vshape = vector_shape(op.operands[-1].type)

    def step(ex, frame, args):
        space = frame.space
        ref, rest = args[0], args[1:]
        idx, offsets, mask, value = list(rest[:-3]), rest[-3], rest[-2], rest[-1]
        check_host_access(ex, ref, op)
        offsets = np.broadcast_to(_lane(space, offsets), space.shape + vshape)
        mask = np.broadcast_to(_lane(space, mask), space.shape + vshape)
        value = np.broadcast_to(_lane(space, value), space.shape + vshape)
        if dense.store_selected(ex, space, ref, _indexed_all(space, idx, offsets, ref), mask,
                                value, vshape):
            return []
        idx = _materialized(space, idx)
        for k in _element_offsets(vshape):
            _scatter_elements(ex, op, space, ref, _indexed(space, idx, offsets, k, ref),
                              value[(Ellipsis,) + k], (), mask[(Ellipsis,) + k])
        return []
    return affine(step)


@lowering("vector.compressstore", "vector.expandload")
def _compress_expand(op: Operation, c):
    store_ = op.name.endswith("compressstore")
    vshape = vector_shape(op.operands[-1].type)
    n = vshape[0]

    def step(ex, frame, args):
        space = frame.space
        ref = args[0]
        check_host_access(ex, ref, op)
        if store_:
            idx, mask, value = list(args[1:-2]), args[-2], args[-1]
        else:
            idx, mask, pad = list(args[1:-2]), args[-2], args[-1]
        mask = np.broadcast_to(_lane(space, mask), space.shape + (n,))
        rank_in_mask = np.cumsum(mask, axis=-1) - 1          # position among the set lanes
        pos = dense.positions(space, idx, (), [])
        pos = [p[..., None] for p in pos]
        pos[-1] = pos[-1] + rank_in_mask
        if store_:
            if dense.store_selected(ex, space, ref, pos, mask,
                                    _lane(space, value), (n,)):
                return []
        else:
            got = dense.load_selected(ex, space, ref, pos, mask, _lane(space, pad), (n,))
            if got is not None:
                return [got]
        idx = _materialized(space, idx)
        if store_:
            value = np.broadcast_to(_lane(space, value), space.shape + (n,))
            for k in range(n):
                m = mask[..., k]
                if not m.any():
                    continue
                pos = _shifted_by(space, idx, rank_in_mask[..., k])
                _scatter_elements(ex, op, space, ref, pos, value[..., k], (), m)
            return []
        pad = np.broadcast_to(_lane(space, pad), space.shape + (n,))
        parts = [_one_masked(ex, op, space, ref, _shifted_by(space, idx, rank_in_mask[..., k]),
                             mask[..., k], pad[..., k]) for k in range(n)]
        return [np.stack(parts, axis=-1)]
    return affine(step)


def _shifted_by(space, idx: list, delta: np.ndarray) -> list:
    out = list(idx)
    out[-1] = _lane(space, out[-1]).astype(np.int64) + delta.astype(np.int64)
    return out


def _transfer_dims(op: Operation, rank: int, vrank: int) -> list:
    """Per vector dim: the memref dim it runs along, or None (broadcast)."""
    amap = op.attributes["permutation_map"].value
    out = []
    for e in amap.results:
        text = str(e).strip()
        if text.startswith("d"):
            out.append(int(text[1:]))
        else:
            out.append(None)
    return out


@lowering("vector.transfer_read", "vector.transfer_write")
def _transfer(op: Operation, c):
    write = op.name.endswith("write")
    vtype = op.operands[0].type if write else op.results[0].type
    vshape = vector_shape(vtype)
    # On a memref of vectors (memref<?xvector<4xf32>>) the vector's trailing dims are the
    # element's: the permutation map places the leading ones, each step moves a whole element.
    source_elem = op.operands[1 if write else 0].type.element_type
    eshape = vector_shape(source_elem) if _is_vector_type(source_elem) else ()
    if eshape and (tuple(vshape[len(vshape) - len(eshape):]) != eshape or
                   element_name(source_elem) != element_name(vtype)):
        raise UnsupportedError(f"{op.name} of {vtype} from elements {source_elem} (only "
                               "whole elements are supported: the vector's trailing dims and "
                               "element type must be the element's)", op=op.name)
    vshape = tuple(vshape[:len(vshape) - len(eshape)])      # the dims that are transferred
    seg = op.segments
    in_bounds = [bool(getattr(b, "value", b)) for b in op.attributes["in_bounds"].value] \
        if "in_bounds" in op.attributes else [False] * len(vshape)

    def step(ex, frame, args):
        space = frame.space
        args, outer = _take_vector_mask(args)
        if write:
            value, ref = args[0], args[1]
            rest = args[2:]
        else:
            ref = args[0]
            rest = args[1:]
        n_idx = (seg[2] if write else seg[1]) if seg else ref.rank
        idx = list(rest[:n_idx])
        rest = _materialized(space, rest[n_idx:])
        pad = None
        if not write:
            pad, rest = rest[0], rest[1:]
        mask = rest[0] if rest else None
        if outer is not None:       # a vector.mask's mask, of the same shape as the op's own
            mask = outer if mask is None else _lane(space, mask) & outer
        check_host_access(ex, ref, op)
        dims = _transfer_dims(op, ref.rank, len(vshape))
        if not eshape:
            done = _dense_transfer(ex, space, ref, idx, dims, mask, value if write else pad)
            if done is not None:
                return [] if write else [done]
        idx = _materialized(space, idx)
        sizes = [s if isinstance(s, int) else _lane(space, s) for s in ref.sizes]
        if eshape and mask is not None:
            raise LaneFault(f"{op.name} of vector elements under vector.mask",
                            kind=UnsupportedError)
        if write:
            value = np.broadcast_to(_lane(space, value), space.shape + vshape + eshape)
        else:
            dtype = cells(ref.buffer.data).dtype
            out = np.empty(space.shape + vshape + eshape, dtype)
            padv = np.broadcast_to(_lane(space, pad), space.shape + eshape).astype(dtype)
        lanes = (slice(None),) * space.ndim
        if mask is not None:
            # the mask's dims follow the memref dims the vector dims run along (MLIR infers
            # the mask type by permuting the vector shape back; broadcast dims have none)
            mapped = sorted((d, vd) for vd, d in enumerate(dims) if d is not None)
            mask_dims = [vd for _, vd in mapped]
            mshape = tuple(vshape[vd] for vd in mask_dims)
            mask = np.broadcast_to(_lane(space, mask), space.shape + mshape)
        for offs in _element_offsets(vshape):
            pos = list(idx)
            valid = np.ones(space.shape, dtype=bool)
            for vd, (o, d) in enumerate(zip(offs, dims)):
                if d is None:
                    continue
                p = (pos[d].plus(o) if isinstance(pos[d], Aff) else _lane(space, pos[d]) + o)
                pos[d] = p
                inside = (_lane(space, p) >= 0) & (_lane(space, p) < sizes[d])
                if in_bounds[vd] and not np.all(inside):
                    raise LaneFault(f"{op.name} element out of bounds with in_bounds = true",
                                    ~np.broadcast_to(inside, space.shape),
                                    kind=MemoryAccessError)
                valid = valid & inside
            if mask is not None:
                valid = valid & mask[(Ellipsis,) + tuple(offs[vd] for vd in mask_dims)]
            if write:
                if valid.any():
                    _scatter_elements(ex, op, space, ref, pos, value[lanes + offs], (), valid)
                continue
            out[lanes + offs] = _one_masked(ex, op, space, ref, pos, valid, padv)
        return [] if write else [out]

    def _dense_transfer(ex, space, ref, idx, dims, mask, value_or_pad):
        """The transfer in one gather or scatter (:mod:`.vector_dense`): the loaded vector,
        True once written, or None for the element-by-element path."""
        skip = [d for vd, d in enumerate(dims) if d is not None and not in_bounds[vd]]
        strict = [d for vd, d in enumerate(dims) if d is not None and in_bounds[vd]]
        if mask is not None:
            mask = _transfer_mask_layout(space, _lane(space, mask), dims, vshape)
        if mask is None or mask.all():
            if write:
                if dense.store(ex, space, ref, idx, _lane(space, value_or_pad), vshape, dims):
                    return True
            else:
                got = dense.load(ex, space, ref, idx, vshape, dims)
                if got is not None:
                    return got
            if not skip and mask is None:
                return None
        pos = dense.positions(space, idx, vshape, dims)
        if write:
            if any(d is None for d in dims):
                return None
            return True if dense.store_selected(ex, space, ref, pos, mask,
                                                _lane(space, value_or_pad), vshape, skip,
                                                strict) else None
        pad = _lane(space, value_or_pad)
        pad = pad.reshape(pad.shape + (1,) * len(vshape))
        return dense.load_selected(ex, space, ref, pos, mask, pad, vshape, skip, strict)
    return affine(step)


def _transfer_mask_layout(space, mask: np.ndarray, dims: list, vshape: tuple) -> np.ndarray:
    """A transfer's mask (its dims ordered by the memref dims the vector dims run along) laid
    out like the vector: one axis per vector dim, of extent 1 for a broadcast dim."""
    mask_dims = [vd for _, vd in sorted((d, vd) for vd, d in enumerate(dims) if d is not None)]
    mask = np.broadcast_to(mask, space.shape + tuple(vshape[vd] for vd in mask_dims))
    return _mask_in_vector_layout(mask, dims, space.ndim)


@lowering("vector.print")
def _print(op: Operation, c):
    punct = op.attributes.get("punctuation")
    # The punctuation that follows the value (newline unless the op says otherwise).
    tail = {"newline": "\n", "comma": ", ", "open": "( ", "close": " )",
            "no_punctuation": ""}[str(punct).split("<")[-1].rstrip(">") if punct else "newline"]
    literal = getattr(op.attributes.get("stringLiteral"), "value", None)
    # A 0-d vector prints like a one-element vector, "( x )"; only a scalar prints bare.
    zero_d = bool(op.operands) and type(op.operands[0].type).__name__ == "VectorType" and \
        len(vector_shape(op.operands[0].type)) == 0

    elem = element_name(op.operands[0].type) if op.operands else ""
    # Unsigned integer types (ui8, ui32, ...) are held sign-extended; print them zero-extended.
    umask = (1 << int(elem[2:])) - 1 if elem[:2] == "ui" and elem[2:].isdigit() else None

    def fmt(x) -> str:
        if isinstance(x, (float, np.floating)):
            return float_text(x)
        if isinstance(x, (bool, np.bool_)):
            return "1" if x else "0"
        return str(int(x) & umask) if umask is not None else str(int(x))

    def render(v) -> str:
        if np.ndim(v) == 0:
            return fmt(v[()] if isinstance(v, np.ndarray) else v)
        return "( " + ", ".join(render(e) for e in v) + " )"

    def step(ex, frame, args):
        space = frame.space
        out = getattr(ex, "out", None)
        if literal is not None:
            # A string prints as written: no punctuation follows it (the verifier allows none).
            text = literal
        elif args:
            x = np.broadcast_to(_lane(space, args[0]), space.shape +
                                _lane(space, args[0]).shape[space.ndim:])
            text = ""
            for lane in np.ndindex(*space.shape):
                body = render(x[lane])
                text += ("( " + body + " )" if zero_d else body) + tail
        else:
            text = tail
        if out is not None:
            out.write(text)
        elif hasattr(ex, "emit"):
            ex.emit(text)
        return []
    return step

