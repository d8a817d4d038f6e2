"""affine.apply / affine.min / affine.max, affine.load / affine.store: an affine map of ``index`` operands (dimensions,
then symbols), evaluated per lane.  affine.for runs as ``scf.for`` (the same loop machinery,
per-lane bounds included) from the greatest result of its lower bound map to the least of its
upper bound map; affine.if as a (possibly divergent) ``scf.if`` on whether every constraint of
its integer set holds.

Sums and products by constants of affine lane values stay :class:`~..lanes.Aff` (so that
``affine.apply`` of block and thread ids still addresses memory as a strided view);
``floordiv``, ``ceildiv`` and ``mod`` are computed on the lanes' values with MLIR's meaning
(rounding towards negative infinity, up, and a non-negative remainder).  Their right-hand
side must be positive (MLIR's affine rules); a lane where it is not is reported as undefined
behaviour, as is a result that does not fit in 64 bits."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....dialects.builtin.affine import AffineBinary, AffineConst, AffineDim, AffineExpr
from ....ir.core import Operation
from ...errors import UndefinedBehaviorError
from ..faults import LaneFault
from ..interp import affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from . import memref_access
from .scf import _if as _scf_if, counted_loop
from .arith import aff_add, aff_mul

_ZERO = (0,) * ROOT_NDIM
_I64 = np.dtype(np.int64)


def evaluate(expr: AffineExpr, dims: list, symbols: list, space) -> Any:
    """``expr`` over the lane values ``dims``/``symbols`` (Aff, lane arrays or ints)."""
    if isinstance(expr, AffineConst):
        if isinstance(space, BoxSpace):
            return Aff(expr.value, _ZERO, _I64)
        return space.uniform(expr.value, _I64)
    if isinstance(expr, AffineDim):
        return dims[expr.position]
    if not isinstance(expr, AffineBinary):        # a symbol
        return symbols[expr.position]
    a = evaluate(expr.lhs, dims, symbols, space)
    b = evaluate(expr.rhs, dims, symbols, space)
    if expr.kind in ("add", "mul"):
        if isinstance(space, BoxSpace):         # (other spaces hold no affine values)
            got = (aff_add if expr.kind == "add" else aff_mul)(a, b)
            if got is not None and got.fits(space):
                return got
        a, b = _values(space, a), _values(space, b)
        with np.errstate(over="ignore"):
            return a + b if expr.kind == "add" else a * b
    a, b = _values(space, a), _values(space, b)
    if np.any(b <= 0):
        raise LaneFault(f"affine {expr.kind} by a non-positive value ({int(np.min(b))}): the "
                        "right-hand side of floordiv, ceildiv and mod must be positive",
                        kind=UndefinedBehaviorError)
    if expr.kind == "floordiv":
        return np.floor_divide(a, b)
    if expr.kind == "ceildiv":
        return -np.floor_divide(-a, b)
    return np.mod(a, b)


def _values(space, x) -> np.ndarray:
    """A lane value as an int64 lane array."""
    if type(x) is Aff:
        return space.array(x).astype(_I64, copy=False)
    return np.asarray(x, dtype=_I64)


def _step(reduce):
    def lower(op: Operation, c):
        amap = op.attributes["map"].value
        n = amap.n_dims

        def step(ex, frame, args):
            space = frame.space
            dims, symbols = list(args[:n]), list(args[n:])
            values = [evaluate(r, dims, symbols, space) for r in amap.results]
            if reduce is None:
                return [values[0]]
            arrays = [_values(space, v) for v in values]
            return [reduce.reduce(np.broadcast_arrays(*arrays))]
        return affine(step)
    return lower


def _access(inner_lowering, memref_at: int):
    """affine.load/store as memref.load/store (``inner_lowering``) of the map's results."""
    def lower(op: Operation, c):
        inner = inner_lowering(op, c)
        amap = op.attributes["map"].value
        n = amap.n_dims
        first = memref_at + 1

        def step(ex, frame, args):
            operands = args[first:]
            space = frame.space
            idx = [evaluate(r, list(operands[:n]), list(operands[n:]), space)
                   for r in amap.results]
            return inner(ex, frame, list(args[:first]) + idx)
        return affine(step)
    return lower


lowering("affine.load")(_access(memref_access._load, 0))
lowering("affine.store")(_access(memref_access._store, 1))
lowering("affine.apply")(_step(None))
lowering("affine.min")(_step(np.minimum))
lowering("affine.max")(_step(np.maximum))


def _bound(amap, operands: list, space, reduce) -> Any:
    """A loop bound: the map's single result as it is (affine values stay affine), else the
    lane-wise ``reduce`` (``np.maximum`` / ``np.minimum``) of its results."""
    n = amap.n_dims
    values = [evaluate(r, operands[:n], operands[n:], space) for r in amap.results]
    if len(values) == 1:
        return values[0]
    return reduce.reduce(np.broadcast_arrays(*[_values(space, v) for v in values]))


@lowering("affine.for")
def _for(op: Operation, c) -> Any:
    loop = counted_loop(op, c, op.regions[0].blocks[0].args[0].type)
    lb_map = op.attributes["lowerBoundMap"].value
    ub_map = op.attributes["upperBoundMap"].value
    step_value = Aff(op.attributes["step"].value, _ZERO, _I64)
    n_lb, n_ub = len(op.lowerBoundOperands), len(op.upperBoundOperands)

    def step(ex, frame, args):
        space = frame.space
        lb = _bound(lb_map, list(args[:n_lb]), space, np.maximum)
        ub = _bound(ub_map, list(args[n_lb:n_lb + n_ub]), space, np.minimum)
        st = step_value if isinstance(space, BoxSpace) else space.uniform(step_value.const, _I64)
        return loop(ex, frame, [lb, ub, st] + list(args[n_lb + n_ub:]))
    return affine(step)


@lowering("affine.if")
def _if(op: Operation, c) -> Any:
    branch = _scf_if(op, c)
    iset = op.attributes["condition"].value
    n = iset.n_dims

    def step(ex, frame, args):
        space = frame.space
        dims, symbols = list(args[:n]), list(args[n:])
        cond: Any = np.True_
        for expr, equality in zip(iset.constraints, iset.equalities):
            value = _values(space, evaluate(expr, dims, symbols, space))
            cond = cond & (value == 0 if equality else value >= 0)
        return branch(ex, frame, [cond])
    return affine(step)
