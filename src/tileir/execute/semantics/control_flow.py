"""§8.5 Control flow: if, for, loop (with yield/continue/break/return) and assert.

Terminators produce signals (see :mod:`tileir.execute.plan`); ``if`` returns the signal of a
``continue``/``break``/``return`` nested in it to the enclosing op, so a ``break`` inside an ``if``
inside a ``loop`` leaves the loop, and a ``return`` inside an ``if`` ends the tile block.

``for``: the bounds and step are read signed (or, with ``unsigned``, the bounds are compared
unsigned).  The iteration count is computed exactly as ``ceil((ub - lb) / step)`` (0 when
``lb >= ub``), so the induction variable never wraps around; a step that is not positive is
undefined behaviour and raises :class:`~tileir.execute.errors.UndefinedBehaviorError`.

An ``if`` whose condition differs between the tile blocks run in lock step (or between the
element pairs of a vectorised reduce/scan body) is evaluated by running both branches and
merging their results element-wise; this is only done for branches without side effects
(:func:`tileir.execute.plan.convertible_if`).
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from .. import numerics as N
from ..errors import AssertionFailure, UndefinedBehaviorError, UnsupportedError
from ..plan import (BREAK, CONTINUE, MAX_PENDING_NESTING, YIELD, convertible_if, in_combiner,
                    lowering)
from ..lanes import FALL, SPLIT, LaneState, compact, gather, take
from . import padded_mma
from ._common import element_name, storage_dtype


def _run_on(rt, state: LaneState, run, regs):
    """``run(regs)`` with the block ids of ``state`` installed (restored afterwards)."""
    saved = LaneState.of(rt)
    state.install(rt)
    try:
        return run(regs)
    finally:
        saved.install(rt)


def _falls(r, idx: np.ndarray, n: int, outs: list, values: list, state: LaneState):
    """The FALL group of lanes ``idx`` that go on after an op whose results are ``values``."""
    regs = compact(r, idx, n)
    for s, v in zip(outs, values):
        regs[s] = v
    return (idx, (FALL, (regs, state.subset(idx))))


@lowering("if")
def _lower_if(op, cc):
    cond = cc.slot(op.operands[0])
    then_run = cc.compile_block(op.regions[0].blocks[0])
    if len(op.regions) > 1 and op.regions[1].blocks:
        else_run = cc.compile_block(op.regions[1].blocks[0])
    else:
        def else_run(r):
            return (YIELD, [])
    outs = cc.slots_of(op.results)
    ranks = [len(getattr(v.type, "shape", ())) for v in op.results]
    convertible = convertible_if(op)
    lane_split = not in_combiner(op)
    free = [cc.free_slots(region) for region in op.regions] + [()]
    ctx = cc.ctx(op)
    rt = cc.rt

    def merged(r, c):
        """Both branches for every lane, results merged element-wise (pure branches)."""
        ts = then_run(r)
        es = else_run(r)
        for s, rank, tv, ev in zip(outs, ranks, ts[1], es[1]):
            if tv is None or ev is None:
                r[s] = None
                continue
            cshape = c.shape + (1,) * rank
            r[s] = np.where(c.reshape(cshape), tv, ev)
        return None

    def split(r, c):
        """Each branch for its own lanes (register lists compacted to them)."""
        n = c.shape[0]
        state = LaneState.of(rt)
        exits: list = []       # (lanes, signal) that leave the enclosing block
        falls: list = []       # (lanes, values) that yield and go on after the if

        def collect(idx, sig):
            if sig[0] == SPLIT:
                for sub, g in sig[1]:
                    collect(idx[sub], g)
            elif sig[0] == YIELD:
                falls.append((idx, sig[1]))
            else:
                exits.append((idx, sig))
        for idx, branch, slots in ((np.flatnonzero(c), then_run, free[0]),
                                   (np.flatnonzero(~c), else_run, free[1])):
            collect(idx, _run_on(rt, state.subset(idx), branch, compact(r, idx, n, slots)))
        if not exits:
            _, values = gather(falls, n)
            for s, v in zip(outs, values):
                r[s] = v
            return None
        if falls:
            lanes, values = gather(falls, n)
            exits.append(_falls(r, lanes, n, outs, values, state))
        return (SPLIT, exits)

    def divergent(r, c):
        if convertible:
            return merged(r, c)
        if lane_split:
            return split(r, c)
        raise rt.error(ctx, UnsupportedError,
                       "the condition differs between the element pairs of a reduce/scan body "
                       "and a branch has side effects or leaves the 'if'")

    def run(r):
        c = r[cond]
        if c.shape[0] == 1:
            taken = c[0]
        else:
            first = c[0]
            if first:
                if not c.all():
                    return divergent(r, c)
            elif c.any():
                return divergent(r, c)
            taken = first
        sig = then_run(r) if taken else else_run(r)
        if sig[0] == YIELD:
            for s, v in zip(outs, sig[1]):
                r[s] = v
            return None
        return sig
    return run


class _LoopLanes:
    """The lanes of a lock-step batch that are still inside a loop.

    Starts with every lane of ``r``; lanes leave when their trip count ends or their body
    breaks or returns (:meth:`leave`); the others go on in a register list compacted to them
    (:attr:`regs`).  :meth:`finish` builds what the loop op returns: None when every lane
    finished the loop normally (results written to ``outs`` in ``r``), else a SPLIT signal."""

    def __init__(self, r: list, rt, values: list, slots: tuple) -> None:
        self.r = r
        self.slots = slots        # the registers the loop body reads from outside
        self.rt = rt
        self.n = rt.lanes
        self.state = LaneState.of(rt)
        self.cur = self.state
        self.active = np.arange(self.n)
        self.regs = r
        self.values = values
        self.done: list = []      # (lanes, values): left the loop normally
        self.exits: list = []     # (lanes, signal): left the enclosing block (return)

    def keep(self, sub: np.ndarray) -> None:
        """Only lanes ``sub`` (relative to the active ones) go on."""
        if sub.size == self.active.size:
            return
        count = self.active.size
        self.regs = compact(self.regs, sub, count, self.slots)
        self.values = [take(v, sub, count) for v in self.values]
        self.cur = self.cur.subset(sub)
        self.cur.install(self.rt)
        self.active = self.active[sub]

    def leave(self, sub: np.ndarray, values: Optional[list] = None, signal=None) -> None:
        """Lanes ``sub`` (relative to the active ones) leave with loop results ``values``
        (the current carried values when None) or with ``signal``."""
        lanes = self.active[sub]
        if signal is not None:
            self.exits.append((lanes, signal))
            return
        count = self.active.size
        if values is None:
            values = [take(v, sub, count) for v in self.values]
        self.done.append((lanes, values))

    def body_signal(self, sig, go_on=(CONTINUE, YIELD)) -> bool:
        """Apply the signal of one body run; False when no lane goes on."""
        groups = sig[1] if sig[0] == SPLIT else [(np.arange(self.active.size), sig)]
        cont = []
        for sub, g in groups:
            if g[0] in go_on:
                cont.append((sub, g[1]))
            elif g[0] == BREAK:
                self.leave(sub, g[1])
            else:
                self.leave(sub, signal=g)
        if not cont:
            self.active = self.active[:0]
            return False
        lanes, values = gather(cont, self.active.size)
        self.keep(lanes)
        self.values = values
        return True

    def finish(self, outs: list):
        self.state.install(self.rt)
        if self.active.size:
            self.done.append((self.active, self.values))
        r, n = self.r, self.n
        if not self.exits:
            _, values = gather(self.done, n)
            for s, v in zip(outs, values):
                r[s] = v
            return None
        exits = list(self.exits)
        if self.done:
            lanes, values = gather(self.done, n)
            exits.append(_falls(r, lanes, n, outs, values, self.state))
        return (SPLIT, exits)


def _bound_reader(elem: str, unsigned: bool):
    """Read a scalar bound (lane 0) as a Python int, signed or unsigned."""
    if unsigned:
        return lambda a: int(N.to_unsigned(a[:1], elem)[0])
    if elem in ("i8", "i16", "i32", "i64"):
        return lambda a: int(a[0])
    return lambda a: int(N.to_signed(a[:1], elem)[0])


def _lanes_reader(elem: str, unsigned: bool):
    """Read a bound of every lane as a list of Python ints, signed or unsigned."""
    if unsigned:
        return lambda a: N.to_unsigned(a, elem).tolist()
    if elem in ("i8", "i16", "i32", "i64"):
        return lambda a: a.astype(np.int64).tolist()
    return lambda a: N.to_signed(a, elem).tolist()


def _uniform(a) -> bool:
    return a.shape[0] == 1 or bool((a == a[0]).all())


@lowering("for")
def _lower_for(op, cc):
    body_block = op.regions[0].blocks[0]
    run_body = cc.compile_block(body_block)
    lb_s, ub_s, step_s = cc.slots_of(op.operands[:3])
    inits = cc.slots_of(op.operands[3:])
    iv_slot = cc.slot(body_block.args[0])
    args = cc.slots_of(body_block.args[1:])
    outs = cc.slots_of(op.results)
    elem = element_name(op.operands[0].type)
    unsigned = "unsignedCmp" in op.attributes
    read_bound = _bound_reader(elem, unsigned)
    read_step = _bound_reader(elem, False)
    read_lanes = _lanes_reader(elem, unsigned)
    read_steps = _lanes_reader(elem, False)
    dt = storage_dtype(op.operands[0].type)
    ctx = cc.ctx(op)
    rt = cc.rt
    native = elem in ("i8", "i16", "i32", "i64")
    lane_split = not in_combiner(op)
    free = cc.free_slots(op.regions[0])

    lo, hi = (-(1 << 63), (1 << 63) - 1) if native else (0, -1)

    def make_iv(v: int):
        if lo <= v <= hi:
            return np.array([v], dtype=np.int64).astype(dt)     # wraps to the iv's width
        return N.from_integer(np.array([v & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64), elem)

    def bad_step(step: int):
        return rt.error(ctx, UndefinedBehaviorError, f"'for' step must be positive (got {step})")

    def per_lane(r):
        """Bounds that differ between the lanes: every lane runs its own trip count; lanes
        whose count has run out leave (the others go on in a compacted register list)."""
        n = rt.lanes
        lbs, ubs, steps = (np.broadcast_to(r[s], (n,)) for s in (lb_s, ub_s, step_s))
        lbs, ubs, steps = read_lanes(lbs), read_lanes(ubs), read_steps(steps)
        for step in steps:
            if step <= 0:
                raise bad_step(step)
        trips = np.array([max(0, -(-(u - b) // st)) for b, u, st in zip(lbs, ubs, steps)],
                         dtype=np.int64)
        mask = 0xFFFFFFFFFFFFFFFF
        base = np.array([b & mask for b in lbs], dtype=np.uint64)
        stride = np.array([st & mask for st in steps], dtype=np.uint64)
        lanes = _LoopLanes(r, rt, [r[s] for s in inits], free)
        k = 0
        while lanes.active.size:
            go = trips[lanes.active] > k
            if not go.all():
                lanes.leave(np.flatnonzero(~go))
                if not go.any():
                    lanes.active = lanes.active[:0]
                    break
                lanes.keep(np.flatnonzero(go))
            act = lanes.active
            regs = lanes.regs
            regs[iv_slot] = N.from_integer(base[act] + stride[act] * np.uint64(k), elem)
            for s, v in zip(args, lanes.values):
                regs[s] = v
            sig = run_body(regs)
            if sig[0] == CONTINUE:
                lanes.values = sig[1]
            elif not lanes.body_signal(sig, (CONTINUE,)):
                break
            k += 1
        return lanes.finish(outs)

    def run(r):
        for s in (lb_s, ub_s, step_s):
            if not _uniform(r[s]):
                if lane_split:
                    return per_lane(r)
                raise rt.error(ctx, UnsupportedError,
                               "loop bounds differ between the element pairs of a reduce/scan "
                               "body")
        lb, ub, step = read_bound(r[lb_s]), read_bound(r[ub_s]), read_step(r[step_s])
        if step <= 0:
            raise bad_step(step)
        trips = max(0, -(-(ub - lb) // step))
        vals = [r[s] for s in inits]
        for k in range(trips):
            r[iv_slot] = make_iv(lb + k * step)
            for s, v in zip(args, vals):
                r[s] = v
            sig = run_body(r)
            if sig[0] == CONTINUE:
                vals = sig[1]
            elif sig[0] == SPLIT:
                return _continue_for_split(r, sig, k, vals)
            else:
                return sig          # break (belongs to an enclosing loop) or return
        for s, v in zip(outs, vals):
            r[s] = v
        return None

    def uniform_bounds(r):
        if not all(_uniform(r[s]) for s in (lb_s, ub_s, step_s)):
            return None
        return read_bound(r[lb_s]), read_bound(r[ub_s]), read_step(r[step_s])

    def _continue_for_split(r, sig, k, vals):
        """Some lanes returned from inside the body (the others go on with uniform bounds)."""
        lanes = _LoopLanes(r, rt, vals, free)
        lb, ub, step = read_bound(r[lb_s]), read_bound(r[ub_s]), read_step(r[step_s])
        trips = max(0, -(-(ub - lb) // step))
        while lanes.body_signal(sig, (CONTINUE,)):
            k += 1
            if k >= trips:
                break
            regs = lanes.regs
            regs[iv_slot] = make_iv(lb + k * step)
            for s, v in zip(args, lanes.values):
                regs[s] = v
            sig = run_body(regs)
        return lanes.finish(outs)
    # a K loop of mmaf in fast mode: one product over the whole K range
    return padded_mma.fuse_k_loop(op, cc, run, uniform_bounds) or run


#: A ``loop`` that has run a multiple of SPIN_CHECK_MASK + 1 iterations without ``break`` lets
#: a tile block that has not started yet run (sequential launches only).
SPIN_CHECK_MASK = 1023


@lowering("loop")
def _lower_loop(op, cc):
    body_block = op.regions[0].blocks[0]
    run_body = cc.compile_block(body_block)
    inits = cc.slots_of(op.operands)
    args = cc.slots_of(body_block.args)
    outs = cc.slots_of(op.results)
    free = cc.free_slots(op.regions[0])
    ctx = cc.ctx(op)
    rt = cc.rt

    def too_long(n: int):
        return rt.error(ctx, UndefinedBehaviorError,
                        f"'loop' ran {n} iterations without 'break' (a tile block "
                        "waiting for something no other tile block provides, or "
                        f"one of more than {MAX_PENDING_NESTING} blocks waiting at "
                        "once, never finishes)")

    def run(r):
        vals = [r[s] for s in inits]
        limit = rt.max_loop_iterations
        n = 0
        regs = r
        lanes = None            # a _LoopLanes once the lanes have diverged
        while True:
            for s, v in zip(args, vals):
                regs[s] = v
            sig = run_body(regs)
            kind = sig[0]
            if kind == SPLIT or lanes is not None:
                if lanes is None:
                    lanes = _LoopLanes(r, rt, vals, free)
                if not lanes.body_signal(sig):
                    return lanes.finish(outs)
                regs, vals = lanes.regs, lanes.values
                kind = CONTINUE
            if kind == CONTINUE or kind == YIELD:
                if lanes is None:
                    vals = sig[1]
                n += 1
                if not n & SPIN_CHECK_MASK and rt.run_pending is not None:
                    # possibly waiting for a block that has not run yet: let one run
                    rt.run_pending()
                if limit is not None and n >= limit:
                    if lanes is not None:
                        lanes.state.install(rt)
                    raise too_long(n)
                continue
            if kind == BREAK:
                for s, v in zip(outs, sig[1]):
                    r[s] = v
                return None
            return sig  # RETURN
    return run


@lowering("assert", effects=True)
def _lower_assert(op, cc):
    cond = cc.slot(op.operands[0])
    msg = op.attributes["message"].value
    ctx = cc.ctx(op)
    rt = cc.rt

    def run(r):
        c = r[cond]
        if c.all():
            return None
        bad = np.argwhere(~c)
        failures = []
        for row in bad[:64]:
            lane = int(row[0])
            failures.append((rt.block_of(lane), tuple(int(i) for i in row[1:])))
        lines = [f"assertion failed: {msg}"]
        by_block: dict = {}
        for block, element in failures:
            by_block.setdefault(block, []).append(element)
        for block, elements in by_block.items():
            shown = ", ".join("[" + ", ".join(map(str, e)) + "]" for e in elements[:16])
            more = f" (+{len(elements) - 16} more)" if len(elements) > 16 else ""
            lines.append(f"  tile block ({block[0]}, {block[1]}, {block[2]}): "
                         f"failing element{'s' if len(elements) > 1 else ''} {shown}{more}")
        if len(bad) > len(failures):
            lines.append(f"  ... {len(bad)} failing elements in total")
        exc = AssertionFailure("\n".join(lines), failures=failures, op=ctx.name, loc=ctx.loc)
        exc.block = failures[0][0]
        raise exc
    return run

