"""scf.parallel (with scf.reduce), scf.forall, cf.assert, func.constant / func.call_indirect.

``scf.parallel`` and ``scf.forall`` run their iterations one after another in row-major order of
the iteration space -- a legal schedule of independent iterations; ``scf.reduce`` combines each
iteration's value into the running result in that order.  Bounds must be the same for every
thread (per-thread bounds are reported as unsupported).
"""

from __future__ import annotations

import itertools

import numpy as np

from ....ir.core import Operation
from ...errors import AssertionFailure, UnsupportedError
from ..faults import LaneFault
from ..interp import Frame, affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from .launch import _host

_DYNAMIC = -(1 << 63)
_ZERO = (0,) * ROOT_NDIM


def _uniform_int(space, x, what: str) -> int:
    if isinstance(x, Aff):
        if x.is_constant:
            return x.const
        x = space.array(x)
    arr = np.asarray(x)
    if arr.size != 1:
        flat = arr.reshape(-1)
        if (flat != flat[0]).any():
            raise LaneFault(f"{what} differs between threads (unsupported in a parallel loop)",
                            kind=UnsupportedError)
        return int(flat[0])
    return int(arr.reshape(-1)[0])


def _iv(space, value: int):
    if isinstance(space, BoxSpace):
        return Aff(value, _ZERO, np.dtype(np.int64))
    return space.uniform(value, np.int64)


def _iterations(lbs, ubs, steps):
    for s in steps:
        if s <= 0:
            raise LaneFault(f"parallel loop step {s} is not positive")
    return itertools.product(*(range(lb, ub, st) for lb, ub, st in zip(lbs, ubs, steps)))


@lowering("scf.parallel")
def _parallel(op: Operation, c):
    seg = op.segments
    body = op.regions[0].blocks[0]

    def step(ex, frame, args):
        space = frame.space
        n = seg[0]
        lbs, ubs = args[:n], args[n:n + seg[1]]
        steps = args[n + seg[1]:n + seg[1] + seg[2]]
        accs = list(args[n + seg[1] + seg[2]:])
        bounds = [_uniform_or_none(space, b) for b in lbs + ubs + steps]
        if any(b is None for b in bounds):
            return _divergent_parallel(ex, frame, lbs, ubs, steps, accs)
        lbs_k, ubs_k, steps_k = bounds[:n], bounds[n:2 * n], bounds[2 * n:]
        for ivs in _iterations(lbs_k, ubs_k, steps_k):
            fr = Frame(space, frame)
            for a, v in zip(body.args, ivs):
                fr.vals[a] = _iv(space, v)
            exit_ = ex.run_block(body, fr)
            if exit_.op is None or not accs:
                continue
            for k, (region, value) in enumerate(zip(exit_.op.regions, exit_.values)):
                accs[k] = ex.run_single(region, fr, [accs[k], value]).values[0]
        return accs

    def _divergent_parallel(ex, frame, lbs, ubs, steps, accs):
        """Per-thread bounds: the iteration space of each thread is linearised (row-major) and
        iteration k runs on the threads that have at least k + 1 iterations."""
        space = frame.space
        lb = [np.broadcast_to(_arr(space, b), space.shape).astype(np.int64) for b in lbs]
        ub = [np.broadcast_to(_arr(space, b), space.shape).astype(np.int64) for b in ubs]
        st = [np.broadcast_to(_arr(space, b), space.shape).astype(np.int64) for b in steps]
        for s_ in st:
            if np.any(s_ <= 0):
                raise LaneFault("scf.parallel step is not positive", s_ <= 0)
        counts = [np.maximum(0, -(-(u - l) // s_)) for l, u, s_ in zip(lb, ub, st)]
        total = np.ones(space.shape, dtype=np.int64)
        for cnt in counts:
            total = total * cnt
        full = [np.array(np.broadcast_to(space.array(a) if isinstance(a, Aff) else a,
                                         space.shape + np.asarray(space.array(a)
                                                                  if isinstance(a, Aff) else a)
                                         .shape[space.ndim:])) for a in accs]
        for k in range(int(total.max(initial=0))):
            sub = space.restrict(k < total)
            if sub is None:
                break
            rem = np.full(space.shape, k, dtype=np.int64)
            ivs = []
            for d in range(len(counts) - 1, -1, -1):
                i_d = rem % np.maximum(counts[d], 1)
                rem = rem // np.maximum(counts[d], 1)
                ivs.append(lb[d] + i_d * st[d])
            ivs.reverse()
            conv = (lambda v: v) if sub is space else sub.enter
            fr = Frame(sub, frame)
            for a, v in zip(body.args, ivs):
                fr.vals[a] = conv(v)
            exit_ = ex.run_block(body, fr)
            if exit_.op is None or not accs:
                continue
            for j, (region, value) in enumerate(zip(exit_.op.regions, exit_.values)):
                cur = conv(full[j])
                new = ex.run_single(region, fr, [cur, value]).values[0]
                new = sub.array(new) if isinstance(new, Aff) else new
                if sub is space:
                    full[j] = np.array(np.broadcast_to(new, full[j].shape))
                else:
                    sub.scatter(full[j], new)
        return full
    return affine(step)


def _uniform_or_none(space, x):
    if isinstance(x, Aff):
        return x.const if x.is_constant else None
    arr = np.asarray(x)
    flat = arr.reshape(-1)
    if flat.size == 1 or (flat == flat[0]).all():
        return int(flat[0])
    return None


def _arr(space, x) -> np.ndarray:
    return space.array(x) if isinstance(x, Aff) else np.asarray(x)


@lowering("scf.forall")
def _forall(op: Operation, c):
    static_lb = [int(x) for x in op.attributes["staticLowerBound"].value] \
        if "staticLowerBound" in op.attributes else None
    static_ub = [int(x) for x in op.attributes["staticUpperBound"].value]
    static_st = [int(x) for x in op.attributes["staticStep"].value] \
        if "staticStep" in op.attributes else None
    seg = op.segments or (0, 0, 0, 0)
    body = op.regions[0].blocks[0]
    if op.results:
        raise UnsupportedError("scf.forall with shared outputs (tensors) is not supported",
                               op=op.name)

    def step(ex, frame, args):
        space = frame.space
        it = iter(args)

        def fill(static, count):
            if static is None:
                return None
            dyn = [next(it) for _ in range(count)]
            d = iter(dyn)
            return [_uniform_int(space, next(d), "bound") if s == _DYNAMIC else s
                    for s in static]
        lbs = fill(static_lb, seg[0]) or [0] * len(static_ub)
        ubs = fill(static_ub, seg[1])
        steps = fill(static_st, seg[2]) or [1] * len(static_ub)
        for ivs in _iterations(lbs, ubs, steps):
            fr = Frame(space, frame)
            for a, v in zip(body.args, ivs):
                fr.vals[a] = _iv(space, v)
            ex.run_block(body, fr)
        return []
    return affine(step)


@lowering("cf.assert")
def _assert(op: Operation, c):
    msg = op.attributes["msg"].value if "msg" in op.attributes else ""

    def step(ex, frame, args):
        space = frame.space
        cond = space.array(args[0]) if isinstance(args[0], Aff) else np.asarray(args[0])
        bad = ~np.broadcast_to(cond.astype(bool), space.shape)
        if bad.any():
            raise LaneFault(f"assertion failed: {msg}", bad, kind=AssertionFailure)
        return []
    return affine(step)


class FuncRef:
    """A ``func.constant`` value: a reference to a host function."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


@lowering("func.constant")
def _func_constant(op: Operation, c):
    name = str(op.attributes["value"]).lstrip("@")

    def step(ex, frame, args):
        return [FuncRef(name)]
    return step


@lowering("func.call_indirect")
def _call_indirect(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        ref = args[0]
        func = host.program.funcs.get(ref.name) if isinstance(ref, FuncRef) else None
        if func is None:
            raise LaneFault("call_indirect of an unknown function", kind=UnsupportedError)
        return host.call(func, args[1:])
    return step
