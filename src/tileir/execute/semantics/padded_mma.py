"""``mmaf`` on tiles loaded with zero padding: multiply only the part that was loaded.

A producer that needs a matrix product of a shape that is not a power of two loads its operands
as power-of-two tiles whose overhang is a view's zero padding (tinytc's 56x9x56 gemm becomes one
64x16x64 ``mmaf``).  Run as written, the executor would copy the padded tiles and multiply the
zeros.  Here the pattern

    %t = load_view_tko %view[...]     (partition or strided view, zero padding, token unused)
    %u = reshape %t / permute %t / ftof %t
                                      (any number; reshapes that only add or drop unit dims,
                                       conversions between float types that have a +0)
    ... the same for the other operand ...
    %r = mmaf %lhs, %rhs, %acc

is run as one step: when every lane's tile has the same in-bounds extent, the in-bounds parts
(views of memory where nothing aliases them) are multiplied, and the padded rows and columns of
the result are filled in from ``%acc``.  The result has the same bits as the padded product
(f64 operands and the fast mode aside: BLAS, which multiplies them, may group the K sums of the
shorter K differently, e.g. OpenBLAS's AVX-512 DGEMM; the spec leaves that order open):

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

import threading
from typing import Callable, Optional

import numpy as np

from ...dialects.cuda_tile.attributes import PaddingValue
from ...dialects.cuda_tile.types import GatherScatterViewType, PartitionViewType
from ...ir.core import Operation, OpResult, Value
from ..buffers import fresh
from ..facts import fact, fact_of
from ..numerics import native
from ..values import DeferredProduct
from ..plan import ABSORBERS
from . import fast
from ._common import element_name, rounding_keyword
from .views import _Access, window_parts

_LOAD = "cuda_tile.load_view_tko"
_RESHAPE = "cuda_tile.reshape"
_PERMUTE = "cuda_tile.permute"
_MMAF = "cuda_tile.mmaf"
_FTOF = "cuda_tile.ftof"
#: float types an ftof in an operand chain may convert to: each has a +0 (the padding stays 0)
_ZERO_FLOATS = {"f16", "bf16", "f32", "tf32", "f64", "f8E4M3FN", "f8E5M2"}
#: ops that may stand between an absorbed load and its mmaf: they neither touch memory nor fail
_QUIET = {"cuda_tile.constant", "cuda_tile.make_tensor_view", "cuda_tile.make_partition_view",
          "cuda_tile.make_strided_view", "cuda_tile.make_gather_scatter_view", _RESHAPE,
          _PERMUTE, "cuda_tile.broadcast", "cuda_tile.iota", "cuda_tile.get_tile_block_id",
          "cuda_tile.get_num_tile_blocks", _FTOF}


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
        if op.name == _PERMUTE or (op.name == _RESHAPE and _unit_dims_only(op)) or \
                (op.name == _FTOF and op.results[0].type.element.name in _ZERO_FLOATS):
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


def mmaf_half_chain(op: Operation) -> Optional[tuple[int, list[Operation]]]:
    """``(side, chain)`` for an ``mmaf`` of which only one operand (``side`` 0: lhs, 1: rhs)
    is an absorbable load chain in the ``mmaf``'s block (an attention kernel's key or value
    tile; the other operand is computed, or loaded outside the loop), or None."""
    if op.name != _MMAF or op.parent is None or mmaf_chains(op) is not None:
        return None
    block = op.parent
    ops = list(block.ops)
    for side in (1, 0):
        chain = _operand_chain(op.operands[side], block)
        if chain is None:
            continue
        absorbed = set(map(id, chain))
        if all(id(o) in absorbed or (o.name in _QUIET and not o.regions)
               for o in ops[ops.index(chain[0]):ops.index(op)]):
            return side, chain
    return None


def rounded_f16_operand(op: Operation, side: int) -> Optional[Operation]:
    """The ``ftof`` f32 -> f16 (nearest_even) in the ``mmaf``'s block whose result is operand
    ``side`` of the f16 ``mmaf`` ``op`` and nothing else (an attention kernel's
    probabilities, computed in f32, as the lhs of ``P @ V``), or None.  Fast mode multiplies
    it in f32: the f32 values rounded to f16 precision
    (:func:`~.fast.f32_rounded_to_f16`) serve without the conversion there and back."""
    v = op.operands[side]
    conv = v.owner if isinstance(v, OpResult) else None
    if conv is None or conv.name != _FTOF or conv.parent is not op.parent or \
            len(v.uses) != 1 or conv.operands[0].type.element.name != "f32" or \
            v.type.element.name != "f16" or op.operands[1 - side].type.element.name != "f16":
        return None
    return conv if rounding_keyword(conv) == "nearest_even" else None


def _absorbed_ops(entry: Operation):
    for op in entry.walk():
        chains = mmaf_chains(op)
        if chains is not None:
            yield from chains[0] + chains[1]
        half = mmaf_half_chain(op)
        if half is not None:
            yield from half[1]
            conv = rounded_f16_operand(op, 1 - half[0])
            if conv is not None:
                yield conv


ABSORBERS.append(_absorbed_ops)


class _Operand:
    """Reads one absorbed operand's in-bounds part: the load, then its reshapes, permutes and
    float conversions applied to the part and to its extent."""

    def __init__(self, chain: list[Operation], cc) -> None:
        load = chain[0]
        view = load.operand_group("view")[0]
        self.access = _Access(load, cc, view, load.operand_group("index"))
        self.view_ok = view in cc.read_only
        self.rt = cc.rt
        self.steps = [_transform(t, cc) for t in chain[1:]]
        #: the steps that only move elements (reshapes, permutes), and the float conversions
        #: (elementwise: they may run after the moves, e.g. on the lanes' tiles laid side by
        #: side as one matrix, see :meth:`convert`)
        self.moves = [f for t, f in zip(chain[1:], self.steps) if t.name != _FTOF]
        self.conversions = [cc.absorbed[t].elementwise_fn for t in chain[1:] if t.name == _FTOF]
        self.tile = tuple(chain[-1].results[0].type.shape)
        #: the element type an ftof at the chain's end converted to (its values are exact
        #: in that type already)
        self.converted_to = chain[-1].results[0].type.element.name \
            if chain[-1].name == _FTOF else None
        ftofs = [t for t in chain[1:] if t.name == _FTOF]
        #: the only conversion is f32 -> tf32 in nearest_even (cuTile's f32 matmul operands):
        #: one C pass can round and measure the values (:meth:`measured_tf32`)
        self.tf32_nearest = len(ftofs) == 1 and self.converted_to == "tf32" and \
            element_name(ftofs[0].operands[0].type) == "f32" and \
            rounding_keyword(ftofs[0]) == "nearest_even"

    def measured_tf32(self, part: np.ndarray, buf: np.ndarray):
        """``(part converted into buf, (smallest, largest |value|) as f32)`` when the
        conversion is :attr:`tf32_nearest` and the C helper runs, else None."""
        if not self.tf32_nearest:
            return None
        mags = np.empty(2, np.uint32)
        if not native.round_to_tf32(part, buf.view(np.uint32), mags):
            return None
        return buf, mags.view(np.float32)

    def window(self, r, span=None):
        """``(window, starts, extent)`` of the load (see ``_Access.uniform_window``)."""
        return self.access.loaded_window(r, span)

    def parts(self, window, starts, extent, zero_copy_ok: bool = True, convert: bool = True):
        """The transformed in-bounds parts of the lanes (or of ``starts``) and their extent;
        without ``convert``, the float conversions are left to :meth:`convert`."""
        zero_copy = zero_copy_ok and self.view_ok and self.rt.zero_copy
        part = window_parts(window, starts, zero_copy)
        for step in self.steps if convert else self.moves:
            part, extent = step(part, extent)
        return part, extent

    def convert(self, part: np.ndarray) -> np.ndarray:
        """The chain's float conversions applied to ``part`` (from :meth:`parts` without
        ``convert``, possibly rearranged since)."""
        for fn in self.conversions:
            part = fn(part)
        return part


def _load_dims(chain: list[Operation]) -> list:
    """The load tile dimension behind each dimension of the chain's result (None for a unit
    dimension that a reshape added)."""
    dims: list = list(range(len(chain[0].results[0].type.shape)))
    for t in chain[1:]:
        if t.name == _PERMUTE:
            dims = [dims[p] for p in _permutation(t)]
        elif t.name == _RESHAPE:
            kept = iter(d for d, n in zip(dims, t.operands[0].type.shape) if n != 1)
            dims = [None if n == 1 else next(kept) for n in t.results[0].type.shape]
    return dims


def _permutation(op: Operation) -> tuple:
    perm = op.attributes["permutation"]
    return tuple(int(p) for p in getattr(perm, "value", perm))


def _transform(op: Operation, cc) -> Callable:
    """``(part, extent) -> (part, extent)`` of one reshape, permute or ftof."""
    if op.name == _FTOF:
        fn = cc.absorbed[op].elementwise_fn

        def convert(part, extent):
            return fn(part), extent
        return convert
    if op.name == _PERMUTE:
        perm = _permutation(op)
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


def padded_product(a_ext: tuple, b_ext: tuple, k_tile: int, acc: np.ndarray,
                   compute: Callable) -> Optional[np.ndarray]:
    """The product of tiles ``A`` (``(..., M, K)``) and ``B`` (``(..., K, N)``, ``K = k_tile``)
    that are zero outside their in-bounds parts of extents ``a_ext`` and ``b_ext``, plus
    ``acc`` (``(..., M, N)``), where ``compute(acc_part)`` multiplies the in-bounds parts and
    adds ``acc_part`` as ``mmaf`` does; None where this would not give the padded product's
    bits (see the module docstring)."""
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
    r = compute(acc if full else acc[..., :m1, :n1])
    if k1 < k_tile:
        _padded_k_zeros(r)
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


def _padded_k_zeros(r: np.ndarray) -> None:
    """The ``+0`` terms of a padded K (two padded factors) added to the sums ``r`` in place:
    a ``-0`` sum becomes ``+0``, nothing else changes."""
    np.copyto(r, np.zeros((), r.dtype), where=(r == 0))


def _operands_product(lhs: "_Operand", wa, rhs: "_Operand", wb, k_tile: int,
                      acc: np.ndarray, mma: Callable, factored: Optional[Callable],
                      deferred: bool = False):
    """:func:`padded_product` of two operands given by their windows ``(window, starts,
    extent)``; ``factored`` (fast mode) multiplies the distinct tiles once when lanes share
    them (a tiled matmul's row and column blocks) through one BLAS product.  With
    ``deferred`` (the result's only use is a store, see :func:`stored_after_quiet_ops`),
    such a product of whole tiles is returned uncomputed as a
    :class:`~tileir.execute.values.DeferredProduct`."""
    if factored is not None:
        got = factored(lhs, wa, rhs, wb)
        if got is not None:
            (a_ext, b_ext), compute = got
            if deferred and a_ext[-1] == b_ext[-2] and \
                    (a_ext[-2], b_ext[-1]) == tuple(acc.shape[-2:]):
                return _deferred(compute, acc, a_ext[-1] < k_tile,
                                 lambda: padded_product(a_ext, b_ext, k_tile, acc, compute))
            return padded_product(a_ext, b_ext, k_tile, acc, compute)
    a, a_ext = lhs.parts(*wa)
    b, b_ext = rhs.parts(*wb)
    return padded_product(a_ext, b_ext, k_tile, acc, lambda acc_part: mma(a, b, acc_part))


def _deferred(compute: Callable, acc: np.ndarray, padded_k: bool, value: Callable
              ) -> DeferredProduct:
    """The :class:`DeferredProduct` of :func:`lane_factored`'s ``compute`` of whole tiles:
    ``value()`` gives the tile, ``into(dest)`` writes it into the store's destination."""
    def into(dest: np.ndarray) -> bool:
        got = compute(acc, dest)
        if got is None:
            return False
        target, clean = got
        if padded_k and not clean:
            _padded_k_zeros(target)
        return True
    return DeferredProduct(value, into)


def stored_after_quiet_ops(op: Operation) -> bool:
    """Whether the only use of ``op``'s one result is as the tile of a ``store_view_tko``
    later in the same block, with only quiet ops (views, constants: nothing that touches
    memory or may fail) between them: computing the result at the store instead gives the
    same memory and the same errors."""
    if len(op.results) != 1 or len(op.results[0].uses) != 1 or op.parent is None:
        return False
    user, _ = op.results[0].uses[0]
    if user.name != "cuda_tile.store_view_tko" or user.parent is not op.parent or \
            user.operand_group("tile")[0] is not op.results[0]:
        return False
    ops = list(op.parent.ops)
    return all(o.name in _QUIET and not o.regions
               for o in ops[ops.index(op) + 1:ops.index(user)])


def lane_factored(in_elem: str) -> Callable:
    """For fast-mode products of 2-D tiles whose lanes share lhs or rhs tiles (a tiled
    matmul's row and column blocks): ``fn(lhs, wa, rhs, wb) -> ((a_ext, b_ext), compute)``
    where the distinct tiles are read and converted to f32 once and ``compute(acc_part)``
    multiplies them (every distinct pair in one SGEMM when there are few, else each lane's
    pair in a batched SGEMM) and adds each lane's product to ``acc_part`` in f32; None where
    no tile is shared or the shapes differ."""
    from .floating_point import fast_operand
    scratch = threading.local()     # f32 operand buffers, per thread (see _buffer)

    def factored(lhs, wa, rhs, wb):
        (win_a, starts_a, ext_a), (win_b, starts_b, ext_b) = wa, wb
        lanes = max(starts_a.size, starts_b.size)
        if lanes < 2 or len(lhs.tile) != 2 or len(rhs.tile) != 2:
            return None
        ua, ia = fact_of(starts_a, unique_inverse, unique_inverse)
        ub, ib = fact_of(starts_b, unique_inverse, unique_inverse)
        if ua.size == lanes and ub.size == lanes:
            return None
        # (views of memory where nothing aliases them: read only inside compute, below;
        # float conversions wait until the blocks are laid out as one matrix)
        a, a_ext = lhs.parts(win_a, ua, ext_a, convert=False)
        b, b_ext = rhs.parts(win_b, ub, ext_b, convert=False)
        if ia.size != lanes:
            ia = np.broadcast_to(ia, (lanes,))
        if ib.size != lanes:
            ib = np.broadcast_to(ib, (lanes,))
        kind_a = "f32" if lhs.converted_to == in_elem else in_elem
        kind_b = "f32" if rhs.converted_to == in_elem else in_elem

        (m1, k1), (_, n1) = a_ext, b_ext

        def blocks_product(ga: np.ndarray, gb: np.ndarray, out=None):
            """The products of row blocks ``ga`` with column blocks ``gb`` as one SGEMM:
            the blocks side by side (a view when they are adjacent in memory; a tiled
            matmul's blocks side by side are the matrix itself), converted to f32 as one
            matrix each.  ``(q, magnitudes)``: q ``(ga.size * m1, gb.size * n1)`` (into
            ``out`` when given); magnitudes the operands' (smallest, largest) where both were
            rounded to tf32 and measured in one pass (:meth:`_Operand.measured_tf32`)."""
            rows = _blocks(a, ga)
            cols = _blocks(b, gb).transpose(1, 0, 2)
            buf_a, buf_b = _buffer(scratch, 0, rows.shape), _buffer(scratch, 1, cols.shape)
            got_a, got_b = lhs.measured_tf32(rows, buf_a), rhs.measured_tf32(cols, buf_b)
            lhs_m = got_a[0] if got_a else fast_operand(lhs.convert(rows), kind_a, buf_a)
            rhs_m = got_b[0] if got_b else fast_operand(rhs.convert(cols), kind_b, buf_b)
            q = np.matmul(lhs_m.reshape(ga.size * m1, k1), rhs_m.reshape(k1, gb.size * n1),
                          out=out)
            return q, (got_a[1], got_b[1]) if got_a and got_b else None

        def compute(acc_part, dest=None):
            # a tiled matmul's lanes pair every row block with every column block in grid
            # order: one group, no search for the connected parts
            whole = fact((ia, ib), ("grid", ua.size, ub.size),
                         lambda: _lane_grid(ia, ib, ua.size, ub.size))
            if dest is not None:        # straight into the store's destination
                target = None if whole is None else \
                    _product_target(dest, ia, ib, ua.size, ub.size, m1, n1)
                if target is None:
                    return None
                _, mags = blocks_product(np.arange(ua.size), np.arange(ub.size), target)
                clean = mags is not None and _no_special_sums(*mags, k1) and \
                    _is_plus_zero(acc_part)
                if not clean:
                    _add_lanes(target, ua.size, whole, acc_part)
                return target, clean
            p = fresh((lanes, m1, n1), _F32)     # (pooled: no fresh pages to fault in)
            per_lane = None
            for sel in [None] if whole is not None else _pair_groups(ia, ib):
                if sel is None:
                    ga, la, gb, lb = np.arange(ua.size), ia, np.arange(ub.size), ib
                else:
                    ga, la = unique_inverse(ia[sel])
                    gb, lb = unique_inverse(ib[sel])
                if ga.size * gb.size <= 2 * la.size:     # every pair in one SGEMM
                    q4 = blocks_product(ga, gb)[0].reshape(ga.size, m1, gb.size, n1)
                    grid = whole if sel is None else \
                        _lane_grid(la, lb, ga.size, gb.size) if la.size == lanes else None
                    if grid is not None:        # the lanes in grid order: q is read in place
                        q_lanes = q4.transpose(grid)
                        np.add(q_lanes, np.broadcast_to(acc_part, p.shape).reshape(
                            q_lanes.shape), out=p.reshape(q_lanes.shape))
                        return fast.canon_nan(p)
                    p[sel] = q4[la, :, lb, :]
                else:
                    if per_lane is None:
                        per_lane = (fast_operand(lhs.convert(a), kind_a),
                                    fast_operand(rhs.convert(b), kind_b))
                    p[sel] = np.matmul(per_lane[0][ia[sel]], per_lane[1][ib[sel]])
            p += acc_part       # (acc is f32: rounded as mmaf_fast's f32 add)
            return fast.canon_nan(p)
        return (a_ext, b_ext), compute
    return factored


_F32 = np.dtype(np.float32)


def _product_target(dest: np.ndarray, ia: np.ndarray, ib: np.ndarray, na: int, nb: int,
                    m: int, n: int) -> Optional[np.ndarray]:
    """The matrix ``T`` (``(na * m, nb * n)``, a view of ``dest``'s memory) whose block
    ``(ia[l], ib[l])`` is lane ``l``'s tile of ``dest`` (the store's destination: shape
    ``(lanes, m, n)`` or a grid of tiles ``(..., m, n)``, lanes numbered in C order), when
    the lanes' tiles lie exactly so and ``T`` suits BLAS (unit column stride); else None.
    Every ``(row block, column block)`` pair belongs to one lane (a lane grid), so ``T``
    covers the lanes' tiles and nothing else."""
    if dest.dtype != _F32:
        return None
    origin = fact((ia, ib), ("target", dest.shape, dest.strides, na, nb, m, n),
                  lambda: _target_origin(dest.shape, dest.strides, ia, ib, na, nb, m, n))
    if origin is None:
        return None
    return np.lib.stride_tricks.as_strided(dest[origin], (na * m, nb * n), dest.strides[-2:])


def _target_origin(shape: tuple, strides: tuple, ia: np.ndarray, ib: np.ndarray, na: int,
                   nb: int, m: int, n: int) -> Optional[tuple]:
    """:func:`_product_target`'s arithmetic on the destination's shape and byte strides: the
    grid position of the lane holding block ``(0, 0)``, or None."""
    lanes = ia.size
    if shape[-2:] != (m, n) or int(np.prod(shape[:-2])) != lanes or na * nb != lanes:
        return None
    s_r, s_c = strides[-2:]
    if s_c != _F32.itemsize or s_r < nb * n * s_c:
        return None
    offsets = [0]               # bytes from lane 0's tile, lanes in C order of the grid
    for count, stride in zip(shape[:-2], strides[:-2]):
        offsets = [o + d * stride for o in offsets for d in range(count)]
    origin = None
    shift = offsets[0] - int(ia[0]) * m * s_r - int(ib[0]) * n * s_c
    for lane, (o, i, j) in enumerate(zip(offsets, ia.tolist(), ib.tolist())):
        if o - i * m * s_r - j * n * s_c != shift:
            return None
        if i == 0 and j == 0:
            origin = lane
    if origin is None:
        return None
    return tuple(int(d) for d in np.unravel_index(origin, shape[:-2]))


def _no_special_sums(mags_a: np.ndarray, mags_b: np.ndarray, k: int) -> bool:
    """Whether every sum of ``k`` products of f32 values whose magnitudes lie in ``mags_a``
    and ``mags_b`` (smallest, largest) is finite and never ``-0``, whatever the order and
    whether the sums use fused multiply-adds: then adding a ``+0`` accumulator and
    canonicalising NaNs change nothing.  With ``|a| |b| >= 2**-100`` every product is a
    nonzero multiple of ``2**-148`` (its factors' exponents sum to at least -102, each has 24
    significant bits), so every exact partial sum or fma is a multiple of ``2**-149``: zero
    exactly (rounded to ``+0``) or at least ``2**-149`` in magnitude (rounded to nonzero);
    ``k |a| |b| < 2**127`` keeps every sum below the overflow threshold (inf and NaN
    magnitudes fail the test)."""
    lo_a, hi_a = (float(v) for v in mags_a)
    lo_b, hi_b = (float(v) for v in mags_b)
    return lo_a * lo_b >= 2.0 ** -100 and k * hi_a * hi_b < 2.0 ** 127


def _is_plus_zero(acc: np.ndarray) -> bool:
    """Whether the accumulator is ``+0`` everywhere, known from its layout (one value
    broadcast) without reading it all."""
    if acc.size != 1 and any(acc.strides):
        return False
    first = acc[(0,) * acc.ndim]
    return bool(first == 0) and not np.signbit(first)


def _splat(x: np.ndarray) -> bool:
    """Whether every element of the float array ``x`` has the same bits (a constant tile)."""
    u = x.view(np.dtype(f"u{x.itemsize}"))
    return bool((u == u[(0,) * u.ndim]).all())


def _add_lanes(target: np.ndarray, na: int, grid: tuple, acc: np.ndarray) -> None:
    """``target += acc`` in f32, NaN sums made canonical, where ``target`` (a matrix of ``na``
    row blocks) holds the lanes' result tiles as blocks paired in the lane order ``grid`` (see
    :func:`_lane_grid`) and ``acc`` is broadcastable to ``(lanes, m, n)``; a one-value ``acc``
    (a constant accumulator) is added as a scalar, in the matrix's own order (one C pass where
    a compiler is at hand)."""
    first = acc[(0,) * acc.ndim]
    if acc.size == 1 or not any(acc.strides) or (acc.shape[0] == 1 and _splat(acc)):
        np.add(target, first, out=target)
        fast.canon_nan(target)
        return
    m, n = acc.shape[-2:]
    tiles = target.reshape(na, m, target.shape[1] // n, n).transpose(grid)
    lanes = tiles.shape[0] * tiles.shape[1]
    np.add(tiles, np.broadcast_to(acc, (lanes, m, n)).reshape(tiles.shape), out=tiles)
    fast.canon_nan(target)

#: arrays up to this many elements are made unique in Python (NumPy's sort-based
#: ``np.unique`` costs ~15-40 us however small the array; a launch's lane starts are few)
_SMALL_UNIQUE = 256


def unique_inverse(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, return_inverse=True)`` for a flattened ``a``: its distinct values in
    increasing order and, for each element, the index of its value among them (1-D)."""
    flat = np.asarray(a).reshape(-1)
    if flat.size > _SMALL_UNIQUE or flat.dtype.kind not in "iub":
        u, inv = np.unique(flat, return_inverse=True)
        inv = inv.reshape(-1)
        return u, inv if inv.base is None else inv.copy()     # (an array of its own)
    values = flat.tolist()
    distinct = sorted(set(values))
    where = {v: i for i, v in enumerate(distinct)}
    return (np.array(distinct, dtype=flat.dtype),
            np.fromiter((where[v] for v in values), dtype=np.intp, count=len(values)))


def _lane_grid(la: np.ndarray, lb: np.ndarray, na: int, nb: int) -> Optional[tuple]:
    """The axis order of ``q.reshape(na, m, nb, n)`` that lists the lanes' (lhs block, rhs
    block) products in lane order: ``(0, 2, 1, 3)`` when lane ``l`` pairs lhs block ``l // nb``
    with rhs block ``l % nb`` (row-major), ``(2, 0, 1, 3)`` for ``l % na`` with ``l // na``
    (column-major, e.g. a swizzled grid's group); None for any other pairing."""
    if la.size != na * nb:
        return None
    lane = np.arange(la.size)
    if (la == lane // nb).all() and (lb == lane % nb).all():
        return (0, 2, 1, 3)
    if (la == lane % na).all() and (lb == lane // na).all():
        return (2, 0, 1, 3)
    return None


def _blocks(parts: np.ndarray, which: np.ndarray) -> np.ndarray:
    """``parts[which]`` (``which`` sorted, distinct): ``parts`` itself or a slice of it (views)
    when ``which`` is a run of consecutive blocks, else a copy."""
    run = _run_of(which)
    if run is None:
        return parts[which]
    return parts if which.size == parts.shape[0] else parts[run]


def _buffer(scratch: threading.local, which: int, shape: tuple) -> np.ndarray:
    """The f32 buffer ``which`` of shape ``shape`` kept in ``scratch`` (made when the shape
    changes)."""
    bufs = scratch.__dict__.setdefault("bufs", {})
    buf = bufs.get(which)
    if buf is None or buf.shape != shape:
        buf = bufs[which] = np.empty(shape, np.float32)
    return buf


def _pair_groups(ia: np.ndarray, ib: np.ndarray, most: int = 64) -> list:
    """The lanes split by the connected parts of the graph whose edges are the lanes' (lhs
    tile, rhs tile) pairs (a batched matmul: one part per batch), as index arrays; all lanes
    in one group when there are more than ``most`` parts."""
    na, nb = int(ia.max()) + 1, int(ib.max()) + 1
    label_a = np.arange(na)
    label_b = np.full(nb, na)
    while True:
        lane = np.minimum(label_a[ia], label_b[ib])
        new_a, new_b = label_a.copy(), label_b.copy()
        np.minimum.at(new_a, ia, lane)
        np.minimum.at(new_b, ib, lane)
        if (new_a == label_a).all() and (new_b == label_b).all():
            break
        label_a, label_b = new_a, new_b
    parts, which = unique_inverse(lane)
    if parts.size > most:
        return [np.arange(ia.size)]
    order = np.argsort(which, kind="stable")
    return np.split(order, np.cumsum(np.bincount(which))[:-1])


def fuse(op: Operation, cc, mma: Callable, factored: Optional[Callable] = None,
         shared: Optional[Callable] = None) -> Optional[Callable]:
    """The closure running ``op`` (an ``mmaf`` computed by ``mma(lhs, rhs, acc)``) together
    with its absorbed operand loads, or None when ``op`` is not such an ``mmaf``.
    ``factored``: :func:`lane_factored`, ``shared``: :func:`shared_tiles_product` (fast
    mode)."""
    half = mmaf_half_chain(op)
    if half is not None:
        return _fuse_half(op, cc, half, mma, shared)
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
        wa = lhs.window(r)
        wb = rhs.window(r) if wa is not None else None
        if wb is not None:
            res = _operands_product(lhs, wa, rhs, wb, k_tile, acc, mma, factored)
        if res is None:
            for f in replay:
                f(r)
            res = mma(r[a_slot], r[b_slot], acc)
        r[out] = res
    return run


def _fuse_half(op: Operation, cc, half: tuple, mma: Callable, shared: Optional[Callable]
               ) -> Optional[Callable]:
    """:func:`fuse` for an ``mmaf`` with one absorbed operand chain (:func:`mmaf_half_chain`):
    ``shared(side, other, operand, window, acc)`` multiplies the lanes' distinct loaded tiles
    once each when lanes share them; otherwise the absorbed ops run where the ``mmaf`` stands
    (nothing between them and it touches memory or may fail) and ``mma`` multiplies."""
    side, chain = half
    conv = rounded_f16_operand(op, 1 - side)
    absorbed = chain if conv is None else chain + [conv]
    if any(o not in cc.absorbed for o in absorbed):
        return None
    operand = _Operand(chain, cc)
    block_ops = list(op.parent.ops)
    replay = [cc.absorbed[o] for o in sorted(absorbed, key=block_ops.index)]
    replay = [f for f in replay if f is not None]
    slots = cc.slots_of(op.operands)
    c_slot = slots[2]
    # the other operand; or, where an absorbed ftof made it, the f32 values it converts
    other_slot = slots[1 - side] if conv is None else cc.slot(conv.operands[0])
    out = cc.slot(op.results[0])
    rt = cc.rt

    def run(r):
        res = None
        if shared is not None and rt.lanes > 1:     # (one block: nothing to share)
            w = operand.window(r)
            if w is not None:
                res = shared(side, r[other_slot], operand, w, r[c_slot],
                             rounded=conv is not None)
        if res is None:
            for f in replay:
                f(r)
            res = mma(r[slots[0]], r[slots[1]], r[c_slot])
        r[out] = res
    return run


def shared_tiles_product(in_elem: str, other_f32: Callable) -> Callable:
    """For fast-mode products where one operand is loaded (:func:`mmaf_half_chain`) and
    lanes share its tiles (an attention kernel's query blocks of one head all multiply that
    head's key and value tiles): ``fn(side, other, operand, window, acc)`` reads and
    converts each distinct tile once and multiplies it with the other operand's tiles of all
    the lanes that share it in one SGEMM, then adds ``acc`` in f32 as
    :func:`~.floating_point.mmaf_fast` does (the sums are f32 in BLAS's order either way).
    Where most lanes have tiles of their own, the lanes' products run as one batched SGEMM
    (still without the conversions an absorbed ``ftof`` would make).  None where tiles are
    cut by the view's edge or shapes are not 2-D.
    ``other_f32(side, x)`` converts the other operand ``x`` (operand ``side`` of the ``mmaf``:
    a :class:`~.floating_point._RememberedOperand`); with ``rounded``, ``other`` holds the f32
    values that an absorbed ``ftof`` would convert to f16 (:func:`rounded_f16_operand`)."""
    from .floating_point import fast_operand

    def product(side: int, other: np.ndarray, operand: "_Operand", window, acc: np.ndarray,
                rounded: bool = False):
        win, starts, extent = window
        lanes = max(starts.size, other.shape[0], acc.shape[0])
        if lanes < 2 or starts.size not in (1, lanes) or len(operand.tile) != 2 or \
                other.ndim != 3:
            return None
        per_lane = False
        if starts.size == 1:            # one tile for every lane
            distinct, which = starts, np.zeros(lanes, dtype=np.intp)
        else:
            distinct, which = fact_of(starts, unique_inverse, unique_inverse)
            # few lanes share a tile (a causal attention kernel's diagonal blocks): each
            # lane's own tile, the lanes' products in one batched SGEMM
            per_lane = 2 * distinct.size > lanes
        tiles, extent = operand.parts(win, starts if per_lane else distinct, extent)
        if extent != operand.tile:
            return None
        kind = "f32" if operand.converted_to == in_elem else in_elem
        tiles = fast_operand(tiles, kind)
        x32 = fast.f32_rounded_to_f16(other) if rounded else other_f32(1 - side, other)
        x = np.broadcast_to(x32, (lanes,) + other.shape[1:])
        m, n = acc.shape[-2:]
        p = fresh((lanes, m, n), _F32)
        if per_lane:
            np.matmul(*((x, tiles) if side == 1 else (tiles, x)), out=p)
            np.add(p, acc, out=p, dtype=_F32)
            return fast.canon_nan(p)
        order = np.argsort(which, kind="stable")
        bounds = np.searchsorted(which[order], np.arange(distinct.size + 1))
        for g in range(distinct.size):
            sel = order[bounds[g]:bounds[g + 1]]
            run = _run_of(sel)
            lanes_g = sel if run is None else run       # (a slice reads and writes in place)
            xs = x[lanes_g]
            if side == 1 and run is not None:   # (the product lands in p's rows directly)
                np.matmul(xs.reshape(-1, xs.shape[-1]), tiles[g], out=p[run].reshape(-1, n))
                continue
            if side == 1:       # each lane's (m, k) rows times the shared (k, n) tile
                q = np.matmul(xs.reshape(-1, xs.shape[-1]), tiles[g]).reshape(-1, m, n)
            else:               # the shared (m, k) tile times each lane's (k, n) columns
                k = xs.shape[-2]
                cols = xs.transpose(1, 0, 2).reshape(k, -1)
                q = np.matmul(tiles[g], cols).reshape(m, -1, n).transpose(1, 0, 2)
            p[lanes_g] = q
        np.add(p, acc, out=p, dtype=_F32)
        return fast.canon_nan(p)
    return product


def _run_of(sel: np.ndarray) -> Optional[slice]:
    """``sel`` (sorted, distinct indices) as a slice when it is a run of consecutive ones."""
    first, last = int(sel[0]), int(sel[-1])
    return slice(first, last + 1) if last - first + 1 == sel.size else None


# -- a K loop of mmaf in fast mode -----------------------------------------------------------

def k_loop_chains(loop: Operation, cc) -> Optional[tuple]:
    """For a ``for`` whose body only accumulates one ``mmaf`` into the loop's only iter value,
    from two absorbed operand chains whose loads (partition views) step along K with the
    induction variable: ``(mmaf, (lhs chain, rhs chain), (lhs K dim, rhs K dim))`` (K dims
    of the load tiles), else None."""
    if loop.name != "cuda_tile.for" or len(loop.operands) != 4 or len(loop.results) != 1:
        return None
    body = loop.regions[0].blocks[0]
    ops = list(body.ops)
    mmafs = [o for o in ops if o.name == _MMAF]
    if not ops or ops[-1].name != "cuda_tile.continue" or len(mmafs) != 1:
        return None
    mm = mmafs[0]
    chains = mmaf_chains(mm)
    iv, acc = body.args[0], body.args[1]
    if chains is None or mm.operands[2] is not acc or len(acc.uses) != 1 or \
            list(ops[-1].operands) != [mm.results[0]] or len(mm.results[0].uses) != 1:
        return None
    absorbed = set(map(id, chains[0] + chains[1]))
    for o in ops[:-1]:
        if o is not mm and id(o) not in absorbed and (o.name not in _QUIET or o.regions):
            return None
    k_dims = []
    for chain, k_pos in ((chains[0], -1), (chains[1], -2)):
        load = chain[0]
        kd = _load_dims(chain)[k_pos]
        vt = load.operand_group("view")[0].type
        idx = load.operand_group("index")
        if kd is None or not isinstance(vt, PartitionViewType) or vt.tile_shape[kd] < 2 or \
                idx[kd] is not iv or _inside(load.operand_group("view")[0], body):
            return None
        for j, v in enumerate(idx):
            if j != kd and (_inside(v, body) and not cc.const[cc.slot(v)]):
                return None
        k_dims.append(kd)
    return mm, chains, tuple(k_dims)


def _inside(v: Value, body) -> bool:
    """Whether ``v`` is defined in ``body`` (an argument of it or a result of its ops)."""
    if not isinstance(v, OpResult):
        return getattr(v, "owner", None) is body
    op = v.owner
    while op is not None:
        if op.parent is body:
            return True
        op = op.parent_op
    return False


def fuse_k_loop(loop: Operation, cc, loop_run: Callable, bounds: Callable
                ) -> Optional[Callable]:
    """In fast mode, a K loop of ``mmaf`` (:func:`k_loop_chains`) as one product over the
    whole K range: ``acc + A[:, K range] @ B[K range, :]`` through BLAS, the distinct row and
    column blocks of the lanes multiplied once.  Fast mode sums in f32 in BLAS's order, so
    the per-iteration roundings of ``acc`` are not kept; the result stays within the fast
    mode's bound over the whole K.  ``bounds(r)`` gives the loop's ``(lb, ub, step)`` when
    every lane has the same, else None; the loop runs as written (``loop_run``) where the
    shortcut does not apply (step other than 1, no iteration, tiles that differ in extent,
    faults)."""
    if getattr(cc, "mma_mode", "exact") != "fast":
        return None
    found = k_loop_chains(loop, cc)
    if found is None:
        return None
    mm, (lc, rc), (kl, kr) = found
    if any(o not in cc.absorbed for o in lc + rc):
        return None
    in_elem = mm.operands[0].type.element.name
    acc_elem = mm.operands[2].type.element.name
    if in_elem == "f64" or acc_elem != "f32":
        return None
    from .floating_point import mmaf_fast
    lhs, rhs = _Operand(lc, cc), _Operand(rc, cc)
    factored = lane_factored(in_elem)
    init = cc.slot(loop.operands[3])
    out = cc.slot(loop.results[0])
    k_tile = mm.operands[0].type.shape[-1]
    stored = stored_after_quiet_ops(loop)   # (the product may go straight into memory)
    # a constant accumulator of one value (the usual zeros) as that value broadcast: it is
    # then added as a scalar (see _add_lanes)
    const_acc = cc.template[init] if cc.const[init] else None
    one_value = const_acc if type(const_acc) is np.ndarray and const_acc.size and \
        _splat(const_acc) else None
    if one_value is not None:
        one_value = np.broadcast_to(one_value[(0,) * one_value.ndim], one_value.shape)

    def mma(a, b, c):
        return mmaf_fast(a, b, c, in_elem, acc_elem)

    def run(r):
        got = bounds(r)
        if got is not None and got[2] == 1 and got[1] > got[0]:
            lb, trips = got[0], got[1] - got[0]
            wa = lhs.window(r, (kl, lb, trips))
            wb = rhs.window(r, (kr, lb, trips)) if wa is not None else None
            if wb is not None:
                acc = r[init]
                if one_value is not None and acc is const_acc:
                    acc = one_value
                res = _operands_product(lhs, wa, rhs, wb, k_tile * trips, acc, mma,
                                        factored, stored)
                if res is not None:
                    r[out] = res
                    return None
        return loop_run(r)
    return run
