"""affine.apply / affine.min / affine.max, affine.load / affine.store: an affine map of ``index`` operands (dimensions,
then symbols), evaluated per lane.  affine.for runs as ``scf.for`` (the same loop machinery,
per-lane bounds included) from the greatest result of its lower bound map to the least of its
upper bound map; affine.if as a (possibly divergent) ``scf.if`` on whether every constraint of
its integer set holds.  affine.parallel runs its iterations one after another in row-major order
of the iteration space (a legal schedule of independent iterations), each bound the greatest
(lower) / least (upper) of its group of map results; each yielded value is combined into its
result with the op's reduction kind, starting from the kind's identity (``assign`` keeps the
last value; zero when there is no iteration).
(per-thread bounds run each thread's own iteration space, linearised in row-major order:
iteration k runs on the threads that have more than k iterations).

Sums and products by constants of affine lane values stay :class:`~..lanes.Aff` (so that
``affine.apply`` of block and thread ids still addresses memory as a strided view);
``floordiv``, ``ceildiv`` and ``mod`` are computed on the lanes' values with MLIR's meaning
(rounding towards negative infinity, up, and a non-negative remainder).  Their right-hand
side must be positive (MLIR's affine rules); a lane where it is not is reported as undefined
behaviour, as is a result that does not fit in 64 bits."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ....dialects.builtin.affine import AffineBinary, AffineConst, AffineDim, AffineExpr
from ....ir.core import Operation
from ...errors import UndefinedBehaviorError, UnsupportedError
from ..faults import LaneFault
from ..interp import Frame, affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from . import memref_access
from .scf import _if as _scf_if, counted_loop
from .arith import _signed_zero_extremum, aff_add, aff_mul
from .intsem import Int

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


# -- affine.parallel ----------------------------------------------------------------------------

def _group_bounds(amap, sizes: list, operands: list, space, reduce) -> list:
    """One bound per group of ``amap``'s results: the ``reduce`` of the group, an int when
    it is the same on every lane, else an int64 lane array."""
    n = amap.n_dims
    values = [evaluate(r, operands[:n], operands[n:], space) for r in amap.results]
    out: list = []
    start = 0
    for size in sizes:
        group = [_values(space, v) for v in values[start:start + size]]
        start += size
        bound = np.asarray(reduce.reduce(np.broadcast_arrays(*group)))
        flat = bound.reshape(-1)
        out.append(int(flat[0]) if flat.size and (flat == flat[0]).all() else bound)
    return out


def _reduction(kind: str, t) -> tuple:
    """``(identity, combine)`` of the reduction ``kind`` over values of type ``t`` (MLIR's
    ``getIdentityValueAttr`` and the arith op it reduces with)."""
    from ..values import element_name, storage
    name = element_name(t)
    dtype = storage(t)
    if kind == "assign":
        return np.zeros((), dtype), lambda a, b: b
    if kind in ("addf", "mulf", "maximumf", "minimumf"):
        if name not in ("f16", "bf16", "f32", "f64"):
            raise UnsupportedError(f"affine.parallel reduction '{kind}' on {name} (no IEEE "
                                   "arithmetic on that type)", op="affine.parallel")
        ident = {"addf": 0.0, "mulf": 1.0, "maximumf": -np.inf, "minimumf": np.inf}[kind]
        fn = {"addf": np.add, "mulf": np.multiply,
              "maximumf": _signed_zero_extremum(True, True),
              "minimumf": _signed_zero_extremum(False, True)}[kind]

        def combine_f(a, b):
            with np.errstate(all="ignore"):
                return np.asarray(fn(a, b)).astype(dtype, copy=False)
        return np.asarray(ident, dtype), combine_f
    bits = int(name.lstrip("siu"))
    num = Int(bits, name)
    ident = {"addi": 0, "ori": 0, "muli": 1, "andi": -1, "maxs": num.smin, "mins": num.smax,
             "maxu": 0, "minu": -1}[kind]
    ops = {"addi": num.add, "muli": num.mul, "andi": num.andi, "ori": num.ori,
           "maxs": lambda a, b: num.max(a, b, True), "mins": lambda a, b: num.min(a, b, True),
           "maxu": lambda a, b: num.max(a, b, False), "minu": lambda a, b: num.min(a, b, False)}
    return num.wrap(np.asarray(ident, np.int64)), ops[kind]


@lowering("affine.parallel")
def _parallel(op: Operation, c) -> Any:
    from ....dialects.affine.control import group_sizes, reduction_kind
    attrs = op.attributes
    lb_map, ub_map = attrs["lowerBoundsMap"].value, attrs["upperBoundsMap"].value
    lb_groups = group_sizes(attrs["lowerBoundsGroups"])
    ub_groups = group_sizes(attrs["upperBoundsGroups"])
    steps = [int(s.value) for s in attrs["steps"].value]
    n_lb = lb_map.n_dims + lb_map.n_symbols
    reductions = [_reduction(reduction_kind(r), res.type)
                  for r, res in zip(attrs["reductions"].value, op.results)]
    body = op.regions[0].blocks[0]

    def step(ex, frame, args):
        space = frame.space
        lbs = _group_bounds(lb_map, lb_groups, list(args[:n_lb]), space, np.maximum)
        ubs = _group_bounds(ub_map, ub_groups, list(args[n_lb:]), space, np.minimum)
        for st in steps:
            if st <= 0:
                raise LaneFault(f"affine.parallel step {st} is not positive",
                                kind=UndefinedBehaviorError)
        accs = [space.uniform(ident, ident.dtype) for ident, _ in reductions]
        if any(not isinstance(b, int) for b in lbs + ubs):
            return _divergent(ex, frame, lbs, ubs, accs)
        box = isinstance(space, BoxSpace)
        for ivs in itertools.product(*(range(lb, ub, st)
                                       for lb, ub, st in zip(lbs, ubs, steps))):
            fr = Frame(space, frame)
            for a, v in zip(body.args, ivs):
                fr.vals[a] = Aff(v, _ZERO, _I64) if box else space.uniform(v, _I64)
            values = ex.run_block(body, fr).values
            for k, ((_, combine), v) in enumerate(zip(reductions, values)):
                accs[k] = combine(accs[k], space.array(v) if isinstance(v, Aff) else v)
        return accs

    def _divergent(ex, frame, lbs, ubs, accs):
        """Per-thread bounds: each thread's iteration space linearised in row-major order;
        iteration k runs on the threads that have more than k iterations."""
        space = frame.space
        shape = space.shape
        lb = [np.broadcast_to(np.asarray(b, np.int64), shape) for b in lbs]
        ub = [np.broadcast_to(np.asarray(b, np.int64), shape) for b in ubs]
        counts = [np.maximum(0, -(-(u - l) // st)) for l, u, st in zip(lb, ub, steps)]
        total = np.ones(shape, dtype=np.int64)
        for cnt in counts:
            total = total * cnt
        full = [np.array(np.broadcast_to(a, shape + a.shape[space.ndim:])) for a in accs]
        for k in range(int(total.max(initial=0))):
            sub = space.restrict(k < total)
            if sub is None:
                break
            rem = np.full(shape, k, dtype=np.int64)
            ivs = []
            for d in range(len(counts) - 1, -1, -1):
                size = np.maximum(counts[d], 1)
                ivs.append(lb[d] + (rem % size) * steps[d])
                rem = rem // size
            ivs.reverse()
            conv = (lambda v: v) if sub is space else sub.enter
            fr = Frame(sub, frame)
            for a, v in zip(body.args, ivs):
                fr.vals[a] = conv(v)
            values = ex.run_block(body, fr).values
            for j, ((_, combine), v) in enumerate(zip(reductions, values)):
                new = combine(conv(full[j]), sub.array(v) if isinstance(v, Aff) else v)
                if sub is space:
                    full[j] = np.array(np.broadcast_to(new, full[j].shape))
                else:
                    sub.scatter(full[j], new)
        return full
    return affine(step)
