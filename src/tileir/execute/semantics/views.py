"""§8.11 Views: make_tensor_view, the tile views, their shape queries, load/store_view_tko.

Addressing (§5.3.2, §5.3.3 with ERRATA 1 and 2).  A tensor view has a base address, a shape
``S`` and strides ``st`` in elements (the dynamic shape/stride operands are read unsigned).  A
tile view maps an index ``I`` (one entry per tile dimension, read unsigned) to the tile whose
element ``t`` lies at tensor coordinate ``c`` with ``c[dim_map[k]] = o_k + t_k``:

* ``partition_view``: ``o_k = I_k * T_k`` (ERRATA 1), index space ``ceildiv(S[dim_map[k]], T_k)``;
* ``strided_view`` (13.3): ``o_k = I_k * traversal_strides[k]``, index space
  ``ceildiv(S[dim_map[k]], traversal_strides[k])``;
* ``gather_scatter_view`` (13.3): along ``sparse_dim`` the index is a 1-D tile of tensor
  coordinates (one per tile row, ``c = index[t]``); along every other dimension the index is the
  element offset of the tile's start (``o_k = I_k``, as NVIDIA's C++ gather/scatter view).  Its
  index space is ``S`` itself.

The element's address is ``base + sizeof(E) * sum_d c_d * st_d``.  Elements with a coordinate
outside ``[0, S)`` are not accessed: loads give the view's padding value (zero when it has none;
the spec leaves them unspecified) and stores skip them.  An index outside a partition or strided
view's index space is undefined behaviour in the spec and raises
:class:`~tileir.execute.errors.UndefinedBehaviorError`; every element actually accessed is bounds
checked against the buffers.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...dialects.cuda_tile.attributes import PaddingValue
from ...dialects.cuda_tile.types import (GatherScatterViewType, PartitionViewType, StridedViewType,
                                         TensorViewType)
from .. import numerics as N
from ..errors import MemoryAccessError, UndefinedBehaviorError
from ..facts import fact, fact_of
from ..numerics import native
from ..memory import Fault
from ..plan import lowering
from ..values import Deferred, DeferredProduct, TensorViewValue
from . import fast
from ._common import element_name, storage_dtype, unsigned_reader

_U8 = np.dtype(np.uint8)

#: load the lanes whose tiles cross the tensor's edge a group at a time, the lanes cut at the
#: same extent as one window (:meth:`_Access.padded_lanes`), instead of one lane at a time
#: (False: every cut lane takes the per-lane path; the tests compare the two)
UNIFORM_PADDED_LOADS = True

#: the index a spanned dimension is read at (unused: :meth:`_Access.uniform_window` replaces it)
_ZERO_INDEX = np.zeros(1, np.int64)
_ZERO_INDEX.flags.writeable = False


def _digit(i: np.ndarray):
    """``(first, step, q, m)`` when the first elements of the rows of the int64 lane array
    ``i`` are ``first + step * ((l // q) % m)`` for lane ``l``: one digit of the lane number
    in a mixed radix (tile blocks numbered along a 2-D grid, row- or column-major, e.g. a
    swizzled matmul's).  An arithmetic progression is ``(first, step, 1, lanes)``, a constant
    ``(first, 0, 1, lanes)``; None for anything else."""
    if i.ndim != 1:
        i = i.reshape(i.shape[0], -1)[:, 0]
    n = i.shape[0]
    prog = _progression(i)
    if prog is not None:
        return prog[0], prog[1], 1, n
    if n > 256:
        return None
    vals = i.tolist()               # (a few dozen lanes: Python is quicker than NumPy here)
    v0 = vals[0]
    q = next(j for j, v in enumerate(vals) if v != v0)      # (not constant: not a progression)
    dv = vals[q] - v0
    m = next((j // q for j in range(q, n, q) if vals[j] == v0), -(-n // q))
    if any(v != v0 + dv * ((j // q) % m) for j, v in enumerate(vals)):
        return None
    return v0, dv, q, m


def _progression(i: np.ndarray):
    """``(first, step)`` when the first elements of the rows of the int64 lane array ``i``
    form an arithmetic progression (one row: step 0), else None."""
    if i.ndim != 1:
        i = i.reshape(i.shape[0], -1)[:, 0]
    v0 = int(i[0])
    if i.shape[0] == 1:
        return v0, 0
    dv = int(i[1]) - v0
    if int(i[-1]) != v0 + dv * (i.shape[0] - 1) or not (i[1:] - i[:-1] == dv).all():
        return None
    return v0, dv


@lowering("make_tensor_view", fold=True)
def _lower_make_tensor_view(op, cc):
    t: TensorViewType = op.results[0].type
    base = cc.slot(op.operands[0])
    dyn_shape = op.operand_group("dynamicShape")
    dyn_strides = op.operand_group("dynamicStrides")
    shape_src = _mixed(t.shape, cc.slots_of(dyn_shape), [element_name(v.type) for v in dyn_shape])
    stride_src = _mixed(t.strides, cc.slots_of(dyn_strides),
                        [element_name(v.type) for v in dyn_strides])
    out = cc.slot(op.results[0])
    rank = t.rank
    static_shape = np.array([list(t.shape)], dtype=np.int64) if None not in t.shape else None
    static_strides = np.array([list(t.strides)], dtype=np.int64) \
        if None not in t.strides else None

    def collect(r, src, static):
        if static is not None:
            return static
        cols = []
        for kind, v, read in src:
            if kind:
                cols.append(np.array([v], dtype=np.int64))
            else:
                cols.append(read(r[v]))
        cols = np.broadcast_arrays(*cols) if cols else []
        if not cols:
            return np.zeros((1, 0), dtype=np.int64)
        return np.stack(cols, axis=1)

    def uniform(r, src, static):
        """The sizes/strides as Python ints when every operand has one lane, else None."""
        if static is not None:
            return static_ints[id(static)]
        vals = []
        for kind, v, read in src:
            if kind:
                vals.append(v)
                continue
            a = r[v]
            if a.shape[0] != 1:
                return None
            vals.append(int(read(a)[0]))
        return tuple(vals)

    static_ints = {id(x): tuple(int(v) for v in x[0]) for x in (static_shape, static_strides)
                   if x is not None}

    def run(r):
        b = r[base]
        if rank and b.shape[0] == 1:
            shape0 = uniform(r, shape_src, static_shape)
            strides0 = uniform(r, stride_src, static_strides) if shape0 is not None else None
            if strides0 is not None:       # (the common case: one view for every lane)
                r[out] = TensorViewValue.uniform(b, shape0, strides0)
                return
        shape = collect(r, shape_src, static_shape) if rank else np.zeros((1, 0), np.int64)
        strides = collect(r, stride_src, static_strides) if rank else np.zeros((1, 0), np.int64)
        r[out] = TensorViewValue(b, shape, strides)
    return run


def _mixed(static, slots, elems):
    """[(is_static, value_or_slot, reader)] per dimension."""
    out = []
    it = iter(zip(slots, elems))
    for v in static:
        if v is None:
            s, e = next(it)
            out.append((False, s, unsigned_reader(e)))
        else:
            out.append((True, int(v), None))
    return out


@lowering("make_partition_view", "make_strided_view", "make_gather_scatter_view")
def _lower_make_view(op, cc):
    cc.slots[op.results[0]] = cc.slot(op.operands[0])
    return None


@lowering("get_tensor_shape", fold=True)
def _lower_get_tensor_shape(op, cc):
    src = cc.slot(op.operands[0])
    outs = cc.slots_of(op.results)
    elems = [element_name(v.type) for v in op.results]

    def run(r):
        tv = r[src]
        for k, (s, e) in enumerate(zip(outs, elems)):
            r[s] = N.from_integer(tv.shape[:, k].astype(np.uint64), e)
    return run


class ViewLayout:
    """Static addressing information of a tile view type."""

    def __init__(self, vt) -> None:
        tv = vt.tensor_view
        self.tile = tuple(vt.tile_shape)
        self.rank = tv.rank
        self.dtype = storage_dtype(tv.element)
        self.elem = tv.element.name
        self.is_bool = self.dtype == np.bool_
        self.load_dtype = _U8 if self.is_bool else self.dtype
        self.isz = self.load_dtype.itemsize
        self.sparse = None
        if isinstance(vt, PartitionViewType):
            self.kind = "partition"
            self.dim_map = tuple(vt.dim_map)
            self.steps = self.tile
        elif isinstance(vt, StridedViewType):
            self.kind = "strided"
            self.dim_map = tuple(vt.dim_map)
            self.steps = tuple(vt.traversal_strides)
        elif isinstance(vt, GatherScatterViewType):
            self.kind = "gather"
            self.dim_map = tuple(range(len(self.tile)))
            self.steps = (1,) * len(self.tile)
            self.sparse = vt.sparse_dim
        else:  # pragma: no cover - verifier rejects other views
            raise TypeError(f"not a tile view: {vt}")
        self.pad = padding_scalar(vt.padding_value, self.elem, self.dtype)

    def index_space(self, shape: tuple) -> tuple:
        if self.kind == "gather":
            return tuple(shape[d] for d in self.dim_map)
        return tuple(-(-shape[d] // s) for d, s in zip(self.dim_map, self.steps))


def padding_scalar(pv, elem: str, dtype: np.dtype):
    """The padding element of a view (zero when the view has none)."""
    if pv is None or pv == PaddingValue.ZERO:
        return np.zeros((), dtype=dtype)
    if pv == PaddingValue.NAN:
        bits = N.canonical_nan_bits(elem)
        return N.from_bits(np.array(bits, dtype=np.uint64), elem)
    value = {PaddingValue.NEG_ZERO: -0.0, PaddingValue.POS_INF: np.inf,
             PaddingValue.NEG_INF: -np.inf}[pv]
    return N.ftof(np.array(value, dtype=np.float64), "f64", elem) if elem != "f64" \
        else np.array(value)


@lowering("get_index_space_shape", fold=True)
def _lower_get_index_space_shape(op, cc):
    layout = ViewLayout(op.operands[0].type)
    src = cc.slot(op.operands[0])
    outs = cc.slots_of(op.results)
    elems = [element_name(v.type) for v in op.results]

    def run(r):
        tv = r[src]
        lanes = tv.shape.shape[0]
        spaces = [layout.index_space(tuple(int(x) for x in tv.shape[i])) for i in range(lanes)]
        for k, (s, e) in enumerate(zip(outs, elems)):
            col = np.array([sp[k] for sp in spaces], dtype=np.int64).astype(np.uint64)
            r[s] = N.from_integer(col, e)
    return run


class _Access:
    """Shared machinery of load_view_tko / store_view_tko / atomic_red_view_tko."""

    def __init__(self, op, cc, view_value, index_values) -> None:
        self.layout = ViewLayout(view_value.type)
        self.view = cc.slot(view_value)
        self.index = cc.slots_of(index_values)
        self.index_elems = [element_name(v.type) for v in index_values]
        self.readers = [unsigned_reader(e) for e in self.index_elems]
        self.ctx = cc.ctx(op)
        self.rt = cc.rt
        self.tile_shape = self.layout.tile
        lay = self.layout
        #: what the tile arithmetic of this view's type depends on (a key of remembered facts)
        self.geometry_key = (lay.kind, tuple(lay.tile), tuple(lay.dim_map), tuple(lay.steps),
                             lay.isz)
        #: per index: the mask reading it as unsigned (i8..i64; i64 read as signed: negative
        #: values are out of range), or None where :meth:`one_lane` does not apply
        masks = [(1 << int(e[1:])) - 1 if e in ("i8", "i16", "i32") else
                 (-1 if e == "i64" else None) for e in self.index_elems]
        self.one_lane_masks = None if None in masks or self.layout.kind == "gather" or \
            self.layout.is_bool else tuple(masks)
        flags = op.attributes.get("inbounds")
        #: the tile dimensions the op declares in bounds (13.4 ``inbounds``, cuTile's
        #: ``check_bounds=False``): a tile that crosses the tensor's edge along one of them is
        #: undefined behaviour (:meth:`check_inbounds`)
        self.inbounds: tuple[int, ...] = () if flags is None or self.layout.kind == "gather" \
            else tuple(k for k, f in enumerate(flags.value) if f)

    def one_lane(self, r, write: bool):
        """The memory of the tile that one lane (a view and indices shared by the whole batch,
        or a block run on its own) addresses: ``(array of the in-bounds part, its extent)``,
        by Python int arithmetic.  None where anything is unusual (several lanes, a gather or
        bool view, negative strides, an index outside the index space, memory that faults):
        the general path then runs and reports errors."""
        tv = r[self.view]
        lay = self.layout
        if tv.lanes != 1 or self.one_lane_masks is None:
            return None
        start, shape, strides = tv.base0, tv.shape0, tv.strides0
        isz = lay.isz
        n = []
        bs = []
        lo = hi = start
        for s, mask, d, step, t in zip(self.index, self.one_lane_masks, lay.dim_map,
                                       lay.steps, lay.tile):
            a = r[s]
            if a.size != 1:
                return None
            i = int(a.reshape(-1)[0]) & mask
            size, stride = shape[d], strides[d]
            if i < 0 or i >= -(-size // step) or stride < 0:
                return None
            o = i * step
            start += o * stride * isz
            k = min(t, size - o)
            if k <= 0:
                return None
            n.append(k)
            bs.append(stride * isz)
            hi += (k - 1) * stride * isz
        lo, hi = start, start + (hi - lo) + isz
        try:
            buf = self.rt.memory.region(lo, hi, isz, write)
        except Fault:
            return None
        n = tuple(n)
        return np.ndarray(n, dtype=lay.load_dtype, buffer=buf.data, offset=start - buf.base,
                          strides=tuple(bs)), n

    def check_inbounds(self, r) -> None:
        """Raise :class:`UndefinedBehaviorError` where a lane's tile crosses the tensor's edge
        along a dimension the op declares ``inbounds`` (nothing to do without such flags).
        An index outside the index space is left to the ordinary paths, which report it."""
        if not self.inbounds:
            return
        tv, idx, lanes = self.lanes(r)
        lay = self.layout
        for k in self.inbounds:
            d = lay.dim_map[k]
            i = idx[k].reshape(idx[k].shape[0], -1)[:, 0].astype(np.int64)
            size = tv.shape[:, d]
            start = i * lay.steps[k]
            bad = (start < size) & (start + lay.tile[k] > size)
            if bad.any():
                lane = int(np.flatnonzero(np.broadcast_to(bad, (max(bad.size, 1),)))[0])
                o = int(start[lane if start.size > 1 else 0])
                n = int(size[lane if size.size > 1 else 0])
                raise self.fail(UndefinedBehaviorError,
                                f"tile elements [{o}, {o + lay.tile[k]}) along dimension {k} "
                                f"cross the tensor's edge at {n}, but the op declares them in "
                                f"bounds (inbounds = true; cuTile's check_bounds=False)", lane,
                                lanes=lanes)

    def lanes(self, r):
        tv = r[self.view]
        idx = [fact_of(r[s], rd, rd) for s, rd in zip(self.index, self.readers)]
        lanes = max([tv.lanes] + [i.shape[0] for i in idx])
        return tv, idx, lanes

    def fail(self, cls, message, lane, element=None, lanes=1):
        rt = self.rt
        exc = cls.at(self.ctx, message, block=rt.block_of(lane if lanes > 1 else 0),
                     element=element)
        return exc

    def origins(self, shape, idx_lane, lane, lanes):
        """Tile origin per tile dim (partition/strided), checking the index space."""
        lay = self.layout
        space = lay.index_space(shape)
        origins = []
        for k, (i, n, step) in enumerate(zip(idx_lane, space, lay.steps)):
            if i < 0 or i >= n:
                raise self.fail(UndefinedBehaviorError,
                                f"index {i} along dimension {k} is outside the view's index "
                                f"space [0, {n})", lane, lanes=lanes)
            origins.append(i * step)
        return origins

    def lane_gather_addresses(self, base, shape, strides, idx, lane):
        """:meth:`gather_addresses` for lane ``lane`` of the index operands ``idx``."""
        sparse = self.layout.sparse
        return self.gather_addresses(base, shape, strides, _index_ints(idx, lane, sparse),
                                     _sparse_row(idx, lane, sparse))

    def lane_region(self, base, shape, strides, idx, lane, lanes):
        """:meth:`region` of the partition/strided tile that lane ``lane`` of the index
        operands ``idx`` selects (the index is checked against the view's index space)."""
        origins = self.origins(shape, _index_ints(idx, lane), lane, lanes)
        return self.region(base, shape, strides, origins)

    def strided_tile(self, start, n, bs, write, lane, lanes) -> np.ndarray:
        """The memory of the region ``(start, n, bs)`` as a strided array of the view's
        load dtype (a fault names the first element that is out of bounds)."""
        lay = self.layout
        lo, hi = _extent(start, n, bs, lay.isz)
        try:
            buf = self.rt.memory.region(lo, hi, lay.isz, write)
        except Fault:
            raise self.precise_fault(start, n, bs, write, lane, lanes) from None
        return np.ndarray(n, dtype=lay.load_dtype, buffer=buf.data, offset=start - buf.base,
                          strides=bs)

    def region(self, base, shape, strides, origins):
        """(start address, valid extents, byte strides) of a partition/strided tile."""
        lay = self.layout
        start = base
        n = []
        bs = []
        for k, o in enumerate(origins):
            d = lay.dim_map[k]
            start += o * strides[d] * lay.isz
            n.append(max(0, min(lay.tile[k], shape[d] - o)))
            bs.append(strides[d] * lay.isz)
        return start, tuple(n), tuple(bs)

    def batched_window(self, tv, idx, lanes, write):
        """Vectorised addressing of a partition/strided tile for many lanes sharing one tensor
        view: returns ``(window, starts, full)`` where ``window[starts[l]]`` is lane ``l``'s
        whole tile (a strided view into the buffer) for the lanes with ``full[l]``; lanes whose
        tile crosses the tensor's edge must use the per-lane path.  Returns None when the
        strides are too large for the int64 arithmetic (then every lane uses that path)."""
        lay = self.layout
        base, shape, strides = tv.base0, tv.shape0, tv.strides0
        if max(shape + strides, default=0) >= (1 << 31) or min(strides, default=0) < 0:
            return None
        space = lay.index_space(shape)
        e0 = np.zeros(lanes, dtype=np.int64)
        full = None                 # None: every lane's tile is whole
        for k, i in enumerate(idx):
            v = i.reshape(i.shape[0], -1)[:, 0].astype(np.int64)
            lo_v, hi_v = int(v.min()), int(v.max())
            if lo_v < 0 or hi_v >= space[k]:
                lane = int(np.flatnonzero((v < 0) | (v >= space[k]))[0])
                raise self.fail(UndefinedBehaviorError,
                                f"index {int(i.reshape(i.shape[0], -1)[lane, 0])} along dimension "
                                f"{k} is outside the view's index space [0, {space[k]})", lane,
                                lanes=lanes)
            d = lay.dim_map[k]
            o = v * lay.steps[k]
            if shape[d] - hi_v * lay.steps[k] < lay.tile[k]:
                cut = shape[d] - o >= lay.tile[k]
                full = cut if full is None else full & cut
            e0 = e0 + o * strides[d]
        if full is None:
            full = np.ones(lanes, dtype=bool)
            lo_e, hi_e = int(e0.min()), int(e0.max())
        else:
            full = np.broadcast_to(full, (lanes,))
            if not full.any():
                return None, e0, full
            fe = e0[full]
            lo_e, hi_e = int(fe.min()), int(fe.max())
        window = self.window(base, strides, lo_e, hi_e, lay.tile, write)
        if window is None:
            return None        # the per-lane path reports the exact lane and element
        return window, e0 - lo_e, full

    def spaced_view(self, tv, idx, lanes: int, write: bool):
        """Every lane's whole tile as one strided array aliasing memory, of shape ``(lanes,
        *tile)`` or, for lanes numbering a grid of tiles, ``(m_k, ..., m_1, *tile)`` (the lane
        number's mixed-radix digits, most significant first; see :func:`lane_rows`), when the
        lanes share one tensor view, every lane's tile lies inside the tensor and each index
        is an arithmetic progression over the lanes or one digit of the lane number
        (:func:`_digit`: block ids and affine functions of them, or a swizzled grid's row and
        column).  A few scalar operations instead of :meth:`batched_window`'s per-lane
        arithmetic.  None where that does not hold or the memory is not all accessible
        (callers then take the general path, which reports any error); the result is
        writeable only with ``write``."""
        lay = self.layout
        if tv.lanes != 1 or lay.kind == "gather" or lay.is_bool:
            return None
        # (the arithmetic depends on the indices and the view's sizes only: remembered for
        # indices nothing can change, see tileir.execute.facts)
        spacing = fact(tuple(idx), ("spaced", self.geometry_key, tv.shape0, tv.strides0,
                                    lanes, write),
                       lambda: self._spacing(tv, idx, lanes, write))
        if spacing is None:
            return None
        first, steps, counts = spacing
        out = self.lane_tiles(tv.base0, tv.strides0, first, steps, counts, lay.tile, write)
        if out is not None and not write:
            out.flags.writeable = False
        return out

    def _spacing(self, tv, idx, lanes: int, write: bool):
        """:meth:`spaced_view`'s arithmetic: ``(first, steps, counts)`` (elements from the
        tensor's start to lane 0's tile, elements per step of each lane digit, the digits'
        radices, most significant first), or None."""
        lay = self.layout
        shape, strides = tv.shape0, tv.strides0
        if min(strides, default=0) < 0:
            return None
        space = lay.index_space(shape)
        first = 0                   # elements from the tensor's start to lane 0's tile
        axes: dict = {}             # digit place q -> [radix m, elements per digit step]
        for k, i in enumerate(idx):
            dig = fact_of(i, _digit, _digit)
            if dig is None:
                return None
            v0, dv, q, m = dig
            vn = v0 + dv * (m - 1)
            d = lay.dim_map[k]
            lo, hi = min(v0, vn), max(v0, vn)
            if lo < 0 or hi >= space[k] or shape[d] - hi * lay.steps[k] < lay.tile[k]:
                return None
            first += v0 * lay.steps[k] * strides[d]
            if dv:
                axis = axes.setdefault(q, [m, 0])
                if axis[0] != m:
                    return None
                axis[1] += dv * lay.steps[k] * strides[d]
        places = sorted(axes)
        radix = 1
        for q in places:            # the digits must make up the lane number exactly
            if q != radix:
                return None
            radix *= axes[q][0]
        if radix != lanes:
            if places:
                return None
            places, axes = [1], {1: [lanes, 0]}     # (every lane the same tile)
        counts = tuple(axes[q][0] for q in reversed(places))
        steps = tuple(axes[q][1] for q in reversed(places))
        isz = lay.isz
        tile_strides = tuple(strides[d] * isz for d in lay.dim_map)
        if write and not _no_aliasing(counts + lay.tile,
                                      tuple(st * isz for st in steps) + tile_strides, isz):
            return None         # tiles that overlap: lane order decides, one at a time
        return first, steps, counts

    def window(self, base: int, strides: tuple, lo_e: int, hi_e: int, extent: tuple,
               write: bool):
        """The strided array ``w`` with ``w[e]`` the part of extent ``extent`` of the tile
        that starts ``lo_e + e`` elements into the tensor view, for ``e`` up to ``hi_e -
        lo_e``; None where that memory is not all accessible."""
        return self.tiles(base, strides, lo_e, 1, hi_e - lo_e + 1, extent, write)

    def tiles(self, base: int, strides: tuple, first: int, step: int, count: int,
              extent: tuple, write: bool):
        """The strided array ``t`` of shape ``(count, *extent)`` with ``t[j]`` the part of
        extent ``extent`` of the tile that starts ``first + j * step`` elements into the tensor
        view (``strides``, at address ``base``); None where that memory is not all
        accessible."""
        return self.lane_tiles(base, strides, first, (step,), (count,), extent, write)

    def lane_tiles(self, base: int, strides: tuple, first: int, steps: tuple, counts: tuple,
                   extent: tuple, write: bool):
        """:meth:`tiles` over several lane axes: shape ``counts + extent``, the tile at lane
        position ``(j_1, ..., j_k)`` starting ``first + sum(j * step)`` elements in."""
        lay = self.layout
        isz = lay.isz
        bs = tuple(strides[d] * isz for d in lay.dim_map)
        lo = hi = base + first * isz
        for n, st in zip(counts, steps):
            span = (n - 1) * st * isz
            if span < 0:
                lo += span
            else:
                hi += span
        hi += sum((t - 1) * b for t, b in zip(extent, bs)) + isz
        try:
            buf = self.rt.memory.region(lo, hi, isz, write)
        except Fault:
            return None
        return np.ndarray(tuple(counts) + tuple(extent), dtype=lay.load_dtype, buffer=buf.data,
                          offset=base + first * isz - buf.base,
                          strides=tuple(st * isz for st in steps) + bs)

    def uniform_window(self, tv, idx, write: bool, span=None):
        """Vectorised addressing of a partition/strided tile for lanes that share one tensor
        view and whose tiles all have the same in-bounds extent ``n`` (per tile dimension, each
        at least 1): ``(window, starts, n)`` where ``window[starts[l]]`` is the in-bounds part
        of lane ``l``'s tile (the rest of the tile is padding on load, skipped on store).  None
        where that does not hold or an access would fail (the per-lane path reports it).

        ``span = (k, first, count)`` (partition views): along tile dimension ``k`` the tiles of
        indices ``first .. first + count - 1`` together (they are adjacent), instead of the
        tile that ``idx[k]`` selects."""
        lay = self.layout
        if lay.kind == "gather" or tv.lanes != 1:
            return None
        if span is not None and lay.kind != "partition":
            return None
        # (the tile arithmetic depends on the indices and the view's sizes only: remembered
        # for indices nothing can change, see tileir.execute.facts)
        geometry = fact(tuple(i for k, i in enumerate(idx) if span is None or k != span[0]),
                        (self.geometry_key, tv.shape0, tv.strides0, span),
                        lambda: self._uniform_geometry(tv, idx, span))
        if geometry is None:
            return None
        lo_e, hi_e, extent, starts = geometry
        window = self.window(tv.base0, tv.strides0, lo_e, hi_e, extent, write)
        return None if window is None else (window, starts, extent)

    def _uniform_geometry(self, tv, idx, span):
        """:meth:`uniform_window`'s arithmetic: ``(lo_e, hi_e, extent, starts)`` (elements
        from the tensor's start to the first and last lane's tile, the common in-bounds extent,
        each lane's tile start relative to ``lo_e``), or None."""
        lay = self.layout
        if span is not None:
            k_span, first, count = span
            idx = list(idx)
            idx[k_span] = np.array([first], dtype=np.int64)
        shape, strides = tv.shape0, tv.strides0
        if max(shape + strides, default=0) >= (1 << 31) or min(strides, default=0) < 0:
            return None
        space = lay.index_space(shape)
        e0 = np.zeros(1, dtype=np.int64)
        extent = []
        for k, i in enumerate(idx):
            v = i.reshape(i.shape[0], -1)[:, 0].astype(np.int64)
            tiles = span[2] if span is not None and k == span[0] else 1
            if ((v < 0) | (v + (tiles - 1) >= space[k])).any():
                return None
            d = lay.dim_map[k]
            o = v * lay.steps[k]
            n = np.minimum(shape[d] - o, lay.tile[k] * tiles)
            n0 = int(n[0])
            if n0 <= 0 or not (n == n0).all():
                return None
            extent.append(n0)
            e0 = e0 + o * strides[d]
        extent = tuple(extent)
        lo_e, hi_e = int(e0.min()), int(e0.max())
        return lo_e, hi_e, extent, e0 - lo_e

    def cut_groups(self, tv, idx, cut: np.ndarray) -> list:
        """The lanes ``cut`` (lane numbers, ascending) grouped by the in-bounds extent of their
        partition/strided tile (the lanes share the tensor view ``tv`` and their indices are
        in the index space): a list of ascending lane-number arrays, one per extent."""
        lay = self.layout
        shape = tv.shape0
        ext = np.empty((cut.size, len(idx)), dtype=np.int64)
        for k, i in enumerate(idx):
            v = i.reshape(i.shape[0], -1)[:, 0].astype(np.int64)
            v = v[cut] if v.size > 1 else np.broadcast_to(v, cut.shape)
            ext[:, k] = np.minimum(shape[lay.dim_map[k]] - v * lay.steps[k], lay.tile[k])
        if cut.size < 2 or (ext == ext[0]).all():
            return [cut]
        _, which = np.unique(ext, axis=0, return_inverse=True)
        which = which.reshape(-1)
        return [cut[which == g] for g in range(int(which.max()) + 1)]

    def padded_lanes(self, tv, idx, lanes: int, cut: np.ndarray, res: np.ndarray) -> list:
        """Load the tiles of the lanes ``cut`` (lane numbers, ascending), whose tiles cross the
        tensor's edge, into ``res`` (shape ``(lanes, *tile)`` of the view's dtype, their rows
        already filled with the padding value): the lanes whose tiles are cut at the same extent
        together, as one :meth:`uniform_window` (their in-bounds parts; the rest stays
        padding).  Returns the lanes left to the per-lane path (ascending; a group whose
        window is not all accessible, so that the per-lane path reports the exact lane and
        element of a fault)."""
        rest = []
        for group in self.cut_groups(tv, idx, cut):
            sub = [i if i.shape[0] == 1 else i[group] for i in idx]
            same = self.uniform_window(tv, sub, False)
            if same is None:
                rest.append(group)
                continue
            window, starts, extent = same
            part = window[starts]
            res[(group,) + tuple(slice(0, k) for k in extent)] = \
                part != 0 if self.layout.is_bool else part
        return sorted(int(i) for g in rest for i in g)

    def loaded_window(self, r, span=None):
        """:meth:`uniform_window` of a load (None for bool tiles, and where a tile crosses the
        tensor's edge along a dimension declared ``inbounds``: the load reports that)."""
        if self.layout.is_bool:
            return None
        # (with a span, the spanned index is not read: it is a loop's induction variable)
        idx = [_ZERO_INDEX if span is not None and k == span[0] else fact_of(r[s], rd, rd)
               for k, (s, rd) in enumerate(zip(self.index, self.readers))]
        got = self.uniform_window(r[self.view], idx, False, span)
        if got is not None and self.inbounds:
            tile = self.layout.tile
            whole = [t * (span[2] if span is not None and k == span[0] else 1)
                     for k, t in enumerate(tile)]
            if any(got[2][k] < whole[k] for k in self.inbounds):
                return None
        return got

    def precise_fault(self, start, n, bs, write, lane, lanes) -> Exception:
        """The error for the first element of the region ``(start, n, bs)`` that faults."""
        lay = self.layout
        addr = np.full(n, np.uint64(start), dtype=np.uint64)
        for k, (nk, b) in enumerate(zip(n, bs)):
            shp = [1] * len(n)
            shp[k] = nk
            addr = addr + (np.arange(nk, dtype=np.int64).reshape(shp) * b).astype(np.uint64)
        try:
            self.rt.memory.resolve(addr.reshape(-1), lay.isz, write)
        except Fault as f:
            element = tuple(int(i) for i in np.unravel_index(int(f.index), n)) if n else None
            return MemoryAccessError.at(self.ctx, f.message,
                                        block=self.rt.block_of(lane if lanes > 1 else 0),
                                        element=element)
        return MemoryAccessError.at(self.ctx, "invalid access",
                                    block=self.rt.block_of(lane if lanes > 1 else 0))

    def gather_addresses(self, base, shape, strides, idx_lane, sparse_idx):
        """Addresses and validity of every element of a gather/scatter tile."""
        lay = self.layout
        tile = lay.tile
        addr = np.full(tile, np.uint64(base), dtype=np.uint64) if tile else \
            np.array(np.uint64(base))
        valid = np.ones(tile, dtype=bool)
        for k in range(len(tile)):
            if k == lay.sparse:
                c = sparse_idx.astype(np.int64)
                c = np.where(sparse_idx >= np.uint64(1 << 62), -1, c)
            else:
                c = np.arange(tile[k], dtype=np.int64) + int(idx_lane[k])
            shp = [1] * len(tile)
            shp[k] = tile[k]
            c = c.reshape(shp)
            valid &= (c >= 0) & (c < shape[k])
            cc_ = np.where((c >= 0) & (c < shape[k]), c, 0)
            addr = addr + (cc_ * (strides[k] * lay.isz)).astype(np.uint64)
        return addr, valid



def _compute_into(acc: "_Access", tv, idx, lanes: int, value: Deferred) -> bool:
    """Store a :class:`Deferred` tile by computing it straight into memory: every lane's whole
    tile in bounds, the lanes' tiles evenly spaced and disjoint, the value's dtype the view's;
    False where that does not hold (the store then takes its ordinary path)."""
    lay = acc.layout
    if lanes < 2 or tv.lanes != 1 or lay.kind == "gather" or lay.is_bool:
        return False
    shape = np.broadcast_shapes(*(np.shape(a) for a in value.args))
    if shape[1:] != lay.tile or shape[0] not in (1, lanes) or \
            any(getattr(a, "dtype", None) != lay.dtype for a in value.args):
        return False
    out = acc.spaced_view(tv, idx, lanes, True)
    if out is None:
        win = acc.batched_window(tv, idx, lanes, True)
        if win is None or win[0] is None or not win[2].all():
            return False
        out = _evenly_spaced(*win[:2], writeable=True)
    if out is None or not _no_aliasing(out.shape, out.strides, lay.isz):
        return False            # tiles that overlap: the ordinary path's lane order decides
    args = value.args
    if out.ndim > 1 + len(lay.tile):        # (lanes as a grid of tiles)
        args = [lane_rows(a, lanes, out.shape, lay.tile) for a in args]
    if value.finish is not fast.canon_nan or len(args) != 2 or \
            not native.binary_canonical(value.fn, args[0], args[1], out):
        value.fn(*args, out=out)
        value.finish(out)
    return True


def lane_rows(v, lanes: int, shape: tuple, tile: tuple) -> np.ndarray:
    """The lane value ``v`` (broadcastable to ``(lanes, *tile)``) laid out as ``shape``: the
    lane axis split into the lane number's mixed-radix digits, most significant first, as
    :meth:`_Access.spaced_view` returns a grid of tiles (a view)."""
    return np.broadcast_to(v, (lanes,) + tuple(tile)).reshape(shape)


def _no_aliasing(shape: tuple, strides: tuple, itemsize: int) -> bool:
    """Whether every element of the strided array ``(shape, byte strides)`` has memory of its
    own: ordered by stride, each axis steps at least over the whole span of the axes below it
    (a sufficient condition; e.g. lanes' column blocks side by side within one row band)."""
    span = itemsize
    for step, n in sorted((abs(b), n) for n, b in zip(shape, strides) if n > 1):
        if step < span:
            return False
        span += step * (n - 1)
    return True


def window_parts(window: np.ndarray, starts: np.ndarray, zero_copy: bool) -> np.ndarray:
    """``window[starts]``: a read-only view of the memory when ``zero_copy`` allows and the
    parts are evenly spaced, else a copy."""
    parts = _evenly_spaced(window, starts) if zero_copy else None
    return parts if parts is not None else window[starts]


def _extent(start: int, n: tuple, bs: tuple, isz: int) -> tuple[int, int]:
    """``[lo, hi)`` byte range touched by the strided region (strides may be negative)."""
    lo = start + sum(min(0, (k - 1) * b) for k, b in zip(n, bs))
    hi = start + sum(max(0, (k - 1) * b) for k, b in zip(n, bs)) + isz
    return lo, hi


def _index_ints(idx, lane, sparse=None):
    out = []
    for k, a in enumerate(idx):
        if k == sparse:
            out.append(None)
        else:
            out.append(int(a[lane if a.shape[0] > 1 else 0].reshape(-1)[0]))
    return out


def _sparse_row(idx, lane, sparse):
    a = idx[sparse]
    return a[lane if a.shape[0] > 1 else 0].reshape(-1)


@lowering("load_view_tko")
def _lower_load_view(op, cc):
    acc = _Access(op, cc, op.operand_group("view")[0], op.operand_group("index"))
    out, tok = cc.slots_of(op.results)
    lay = acc.layout
    rt = cc.rt
    tile = lay.tile
    pad = lay.pad
    ctx = acc.ctx
    view_ok = op.operand_group("view")[0] in cc.read_only and lay.kind != "gather"

    def load_lane(tv, idx, lane, lanes):
        base, shape, strides = tv.lane(lane if tv.lanes > 1 else 0)
        if lay.kind == "gather":
            addr, valid = acc.lane_gather_addresses(base, shape, strides, idx, lane)
            try:
                return rt.memory.gather(addr, lay.dtype, valid, fill=pad)
            except Fault as f:
                raise _fault(rt, ctx, f, lane, lanes, tile) from None
        start, n, bs = acc.lane_region(base, shape, strides, idx, lane, lanes)
        if 0 in n:
            return np.full(tile, pad, dtype=lay.dtype)
        src = acc.strided_tile(start, n, bs, False, lane, lanes)
        if lay.is_bool:
            src = src != 0
        if n == tile:
            return _read_only(src) if view_ok and rt.zero_copy else np.array(src)
        res = np.full(tile, pad, dtype=lay.dtype)
        res[tuple(slice(0, k) for k in n)] = src
        return res

    def run(r):
        acc.check_inbounds(r)
        got = acc.one_lane(r, False)
        if got is not None:
            src, n = got
            if n == tile:
                res = _read_only(src) if view_ok and rt.zero_copy else np.array(src)
            else:
                res = np.full(tile, pad, dtype=lay.dtype)
                res[tuple(slice(0, k) for k in n)] = src
            r[out] = res[None]
            r[tok] = None
            return
        tv, idx, lanes = acc.lanes(r)
        if lanes == 1:
            r[out] = load_lane(tv, idx, 0, 1)[None]
        elif (res := acc.spaced_view(tv, idx, lanes, False)) is not None:
            if res.ndim > 1 + len(tile):        # (a grid of tiles: one lane axis again)
                res = res.reshape((lanes,) + tile)
            r[out] = res if view_ok and rt.zero_copy else np.array(res)
        elif tv.lanes == 1 and lay.kind != "gather" and \
                (win := acc.batched_window(tv, idx, lanes, False)) is not None:
            window, starts, full = win
            if full.all():
                res = None
                if view_ok and rt.zero_copy:
                    res = _evenly_spaced(window, starts)
                if res is None:
                    res = window[starts]
            elif UNIFORM_PADDED_LOADS:
                # the whole lanes at once, the cut lanes a group of the same extent at a time
                res = np.empty((lanes,) + tile, dtype=lay.dtype)
                cut = np.flatnonzero(~full)
                res[cut] = pad
                if window is not None:
                    part = window[starts[full]]
                    res[full] = part != 0 if lay.is_bool else part
                for i in acc.padded_lanes(tv, idx, lanes, cut, res):
                    res[i] = load_lane(tv, idx, i, lanes)
            else:
                res = np.empty((lanes,) + tile, dtype=lay.load_dtype)
                if window is not None:
                    res[full] = window[starts[full]]
                for i in np.flatnonzero(~full):
                    v = load_lane(tv, idx, int(i), lanes)
                    res[i] = v.astype(np.uint8) if lay.is_bool else v
            r[out] = res != 0 if lay.is_bool and res.dtype != np.bool_ else res
        else:
            res = np.empty((lanes,) + tile, dtype=lay.dtype)
            for i in range(lanes):
                res[i] = load_lane(tv, idx, i, lanes)
            r[out] = res
        r[tok] = None
    return run


def _read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of ``a`` (a load result that aliases memory no store writes)."""
    v = a.view()
    v.flags.writeable = False
    return v


def _evenly_spaced(window: np.ndarray, starts: np.ndarray, writeable: bool = False):
    """``window[starts]`` as a view (read-only unless ``writeable``) when the lanes' tiles are
    evenly spaced in memory (one tile per row of a strided view), else None."""
    if starts.size < 2:
        if not starts.size:
            return None
        one = window[starts[0]:starts[0] + 1]
        return one if writeable else _read_only(one)
    step = fact_of(starts, _even_step, _even_step)
    if step is None:
        return None
    first = window[int(starts[0])]
    return _strided(first, (starts.size,) + first.shape,
                    (step * window.strides[0],) + first.strides, writeable)


def _even_step(starts: np.ndarray) -> Optional[int]:
    """The step of ``starts`` (at least two) when it is an increasing or constant arithmetic
    progression, else None."""
    step = int(starts[1] - starts[0])
    if step < 0 or not (np.diff(starts) == step).all():
        return None
    return step


def _strided(a: np.ndarray, shape: tuple, strides: tuple, writeable: bool) -> np.ndarray:
    """``as_strided`` for every element dtype: NumPy's array interface, which ``as_strided``
    goes through, cannot name some ml_dtypes types (float8_e5m2's type string is ``'<f1'``),
    so the view is taken over raw items of the same size and reinterpreted."""
    raw = a.view(np.dtype((np.void, a.itemsize)))
    return as_strided(raw, shape, strides, writeable=writeable).view(a.dtype)


def _fault(rt, ctx, f: Fault, lane: int, lanes: int, tile) -> MemoryAccessError:
    element = None
    if f.index is not None and tile is not None:
        numel = int(np.prod(tile)) if tile else 1
        element = tuple(int(i) for i in np.unravel_index(int(f.index) % numel, tile)) \
            if tile else None
    return MemoryAccessError.at(ctx, f.message, block=rt.block_of(lane if lanes > 1 else 0),
                                element=element)


@lowering("store_view_tko", effects=True)
def _lower_store_view(op, cc):
    acc = _Access(op, cc, op.operand_group("view")[0], op.operand_group("index"))
    val = cc.slot(op.operand_group("tile")[0])
    tok = cc.slot(op.results[0])
    lay = acc.layout
    rt = cc.rt
    tile = lay.tile
    ctx = acc.ctx

    def store_lane(tv, idx, value, lane, lanes):
        base, shape, strides = tv.lane(lane if tv.lanes > 1 else 0)
        if lay.kind == "gather":
            addr, valid = acc.lane_gather_addresses(base, shape, strides, idx, lane)
            try:
                rt.memory.scatter(addr, value, lay.dtype, valid)
            except Fault as f:
                raise _fault(rt, ctx, f, lane, lanes, tile) from None
            return
        start, n, bs = acc.lane_region(base, shape, strides, idx, lane, lanes)
        if 0 in n:
            return
        dst = acc.strided_tile(start, n, bs, True, lane, lanes)
        part = value if n == tile else value[tuple(slice(0, k) for k in n)]
        dst[...] = part.astype(np.uint8) if lay.is_bool else part

    def run(r):
        acc.check_inbounds(r)
        v = r[val]
        if type(v) is DeferredProduct:
            tv, idx, lanes = acc.lanes(r)
            dst = acc.spaced_view(tv, idx, lanes, True) if lanes > 1 else None
            if dst is not None and v.into(dst):
                r[tok] = None
                return
            v = v.value()
        if type(v) is Deferred and all(np.shape(a)[:1] == (1,) for a in v.args):
            v = v.value()           # (one lane: nothing to gain computing into memory)
        if type(v) is np.ndarray and v.shape[0] == 1 and \
                (got := acc.one_lane(r, True)) is not None:
            dst, n = got
            dst[...] = v[0] if n == tile else v[0][tuple(slice(0, k) for k in n)]
            r[tok] = None
            return
        tv, idx, lanes = acc.lanes(r)
        if type(v) is Deferred:
            if _compute_into(acc, tv, idx, lanes, v):
                r[tok] = None
                return
            v = v.value()
        lanes = max(lanes, v.shape[0])
        if lanes > 1 and (dst := acc.spaced_view(tv, idx, lanes, True)) is not None:
            dst[...] = v if dst.ndim == v.ndim else lane_rows(v, lanes, dst.shape, tile)
        elif lanes > 1 and tv.lanes == 1 and lay.kind != "gather" and \
                (win := acc.batched_window(tv, idx, lanes, True)) is not None:
            window, starts, full = win
            vals = np.broadcast_to(v, (lanes,) + tile)
            if not full.all() and (same := acc.uniform_window(tv, idx, True)) is not None:
                # every lane's tile is cut at the same place (a padded edge tile)
                window, starts, extent = same
                part = vals[(slice(None),) + tuple(slice(0, k) for k in extent)]
                window[starts] = part.astype(np.uint8) if lay.is_bool else part
                r[tok] = None
                return
            if window is not None:
                part = vals if full.all() else vals[full]
                window[starts[full]] = part.astype(np.uint8) if lay.is_bool else part
            for i in np.flatnonzero(~full):
                store_lane(tv, idx, v[i if v.shape[0] > 1 else 0], int(i), lanes)
        else:
            for i in range(lanes):
                store_lane(tv, idx, v[i if v.shape[0] > 1 else 0], i, lanes)
        r[tok] = None
    return run
