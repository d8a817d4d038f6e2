"""affine.apply / affine.min / affine.max, affine.load / affine.store: an affine map of ``index`` operands (dimensions,
then symbols), evaluated per lane.

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
