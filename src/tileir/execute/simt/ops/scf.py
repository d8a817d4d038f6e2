"""scf: if, for, while, execute_region, index_switch -- under lane masks when lanes diverge."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....ir.core import Operation
from ...errors import UndefinedBehaviorError
from ..faults import LaneFault
from .. import batching
from ..interp import Executor, Frame, affine, merge, narrow
from ..lane_compare import LaneCompare
from ..lanes import Aff, BoxSpace, is_uniform
from ..progress import RepeatCheck, calls_functions
from ..registry import lowering


def _scalar_of(space, value) -> Any:
    """The single value of a uniform lane value, else None."""
    if isinstance(value, Aff):
        return value.const if value.is_constant else None
    arr = np.asarray(value)
    if arr.size == 1:
        return arr.reshape(-1)[0]
    return None


def _uniform_bool(space, cond) -> Any:
    """True/False when every lane agrees, else None (cond as a boolean lane array)."""
    arr = space.array(cond) if isinstance(cond, Aff) else np.asarray(cond)
    if arr.size == 1:
        return bool(arr.reshape(-1)[0])
    if arr.all():
        return True
    if not arr.any():
        return False
    return None


@lowering("scf.if")
def _if(op: Operation, c) -> Any:
    then_region, else_region = op.regions[0], op.regions[1]
    has_else = bool(else_region.blocks)
    types = [r.type for r in op.results]

    def step(ex: Executor, frame: Frame, args: list):
        space = frame.space
        cond = args[0]
        if type(cond) is LaneCompare:
            split = cond.split(space, has_else)
            if split is not None and (split[1] is not False or not has_else):
                return _run_split(ex, frame, space, split[0], split[1])
            cond = cond.value(space)
        taken = _uniform_bool(space, cond)
        if taken is True:
            return ex.run_single(then_region, frame).values
        if taken is False:
            return ex.run_single(else_region, frame).values if has_else else []
        cond = space.array(cond) if isinstance(cond, Aff) else cond
        t_space = space.restrict(cond)
        e_space = space.restrict(~np.asarray(cond)) if has_else else None
        return _run_split(ex, frame, space, t_space, e_space)

    def _run_split(ex: Executor, frame: Frame, space, t_space, e_space) -> list:
        """Run the branches on their lanes (``t_space`` / ``e_space``: ``space`` itself, a
        narrower space, or None for none) and merge their results."""
        if t_space is space:
            return ex.run_single(then_region, frame).values
        if e_space is space or t_space is None:
            return ex.run_single(else_region, frame).values if has_else else []
        t_vals = ex.run_single(then_region, frame, space=t_space).values
        parts = [(t_space, t_vals)]
        if has_else and e_space is not None:  # (no else: no results to merge)
            e_vals = ex.run_single(else_region, frame, space=e_space).values
            parts.append((e_space, e_vals))
        return [merge(space, [(s, vals[i]) for s, vals in parts], types[i])
                for i in range(len(types))]
    return affine(step)


@lowering("scf.execute_region")
def _execute_region(op: Operation, c) -> Any:
    region = op.regions[0]

    def step(ex, frame, args):
        return ex.run_single(region, frame).values
    return step


@lowering("scf.index_switch")
def _index_switch(op: Operation, c) -> Any:
    cases = [int(x) for x in op.attributes["cases"].value]
    default, case_regions = op.regions[0], op.regions[1:]
    types = [r.type for r in op.results]

    def step(ex, frame, args):
        space = frame.space
        flag = space.array(args[0]) if isinstance(args[0], Aff) else np.asarray(args[0])
        if flag.size == 1:
            v = int(flag.reshape(-1)[0])
            region = case_regions[cases.index(v)] if v in cases else default
            return ex.run_single(region, frame).values
        parts = []
        covered = np.zeros(flag.shape, dtype=bool)
        for value, region in zip(cases, case_regions):
            hit = flag == value
            covered |= hit
            sub = space.restrict(hit)
            if sub is not None:
                parts.append((sub, ex.run_single(region, frame, space=sub).values))
        sub = space.restrict(~covered)
        if sub is not None:
            parts.append((sub, ex.run_single(default, frame, space=sub).values))
        return [merge(space, [(s, vals[i]) for s, vals in parts], types[i])
                for i in range(len(types))]
    return step


def _lane_compare_lt(a, b, unsigned: bool):
    if unsigned:
        return a.astype(np.uint64) < b.astype(np.uint64)
    return a < b


@lowering("scf.for")
def _for(op: Operation, c) -> Any:
    return counted_loop(op, c, op.operands[0].type, "unsignedCmp" in op.attributes)


def counted_loop(op: Operation, c, iv_type, unsigned: bool = False) -> Any:
    """The step of a counted loop over ``op.regions[0]`` (entry arguments: the induction
    variable of type ``iv_type``, then the carried values; results: the carried values): the
    step takes ``[lb, ub, step, *inits]``, each uniform or per lane.  ``scf.for``'s lowering,
    shared with ``affine.for``."""
    region = op.regions[0]
    is_index = str(iv_type) == "index"
    width = 64 if is_index else iv_type.width
    types = [r.type for r in op.results]

    def step(ex: Executor, frame: Frame, args: list):
        space = frame.space
        lb, ub, st = (_scalar_of(space, a) for a in args[:3])
        inits = list(args[3:])
        if lb is not None and ub is not None and st is not None:
            return _uniform_loop(ex, frame, int(lb), int(ub), int(st), inits)
        return _divergent_loop(ex, frame, args[:3], inits)

    def _bounds(lb: int, ub: int, st: int) -> range:
        if unsigned:
            mask = (1 << width) - 1
            lb, ub, st = lb & mask, ub & mask, st & mask
        if st <= 0:
            raise LaneFault(f"{op.name} step {st} is not positive", kind=UndefinedBehaviorError)
        return range(lb, ub, st)

    def _uniform_loop(ex, frame, lb, ub, st, values):
        space = frame.space
        box = isinstance(space, BoxSpace)
        dtype = np.int64 if is_index else np.dtype(f"int{width}") if width in (8, 16, 32, 64) \
            else np.int64
        body = region.blocks[0]
        trips = _bounds(lb, ub, st)
        half = 1 << (width - 1)
        start = trips.start
        if unsigned and len(trips) and trips[-1] >= half:
            # iterations at or past 2**(width-1) have negative two's complement values
            start = start - (1 << width) if start >= half else None
        if len(trips) > 1 and box and batching.ENABLED and start is not None:
            batch = batching.analyze(op, c)
            if batch is not None:
                out = batch.run(ex, frame, start, trips.step, len(trips),
                                np.dtype(dtype), values)
                if out is not None:
                    return out
        for iv in trips:
            if unsigned and iv >= half:     # back to the two's complement value of the type
                iv -= 1 << width
            ivv = Aff(iv, (0,) * 6, dtype) if box else space.uniform(iv, dtype)
            fr = Frame(space, frame)
            vals = fr.vals
            vals[body.args[0]] = ivv
            for a, v in zip(body.args[1:], values):
                vals[a] = v
            values = ex.run_block(body, fr).values
        return values

    def _divergent_loop(ex, frame, bounds, values):
        """Per-lane bounds: iterate on the lanes still inside their range.  A lower bound
        affine in the ids with a uniform step (grid-stride loops) keeps the induction variable
        affine while every lane of the space is still iterating."""
        under = frame.space
        lb, ub, st = bounds
        st_k = _scalar_of(under, st)
        ub_k = _scalar_of(under, ub)
        if st_k is None or type(lb) is not Aff or ub_k is None or unsigned:
            lb, ub, st = (under.array(b) if isinstance(b, Aff) else np.asarray(b)
                          for b in bounds)
            st_k = None
        if np.any(np.asarray(st_k if st_k is not None else st) <= 0):
            raise LaneFault(f"{op.name} step is not positive", np.asarray(st) <= 0)
        body = region.blocks[0]
        exits = []
        iv = lb
        active = under
        count = 0
        while True:
            mask = _still_iterating(active, iv, ub, ub_k)
            nxt, conv = narrow(active, mask, under)
            if nxt is not active:
                done, dconv = narrow(active, ~np.asarray(mask), under)
                if done is not None:
                    exits.append((done, [dconv(v) for v in values]))
            if nxt is None:
                break
            count += 1
            if count > ex.max_loop_iterations:
                raise LaneFault(f"{op.name} ran past the iteration limit")
            if nxt is not active:
                iv, values = conv(iv), [conv(v) for v in values]
                if st_k is None:
                    ub, st = conv(ub), conv(st)
                active = nxt
            fr = Frame(active, frame)
            fr.vals[body.args[0]] = iv
            for a, v in zip(body.args[1:], values):
                fr.vals[a] = v
            values = ex.run_block(body, fr).values
            if type(iv) is Aff:
                iv = iv.plus(st_k)
                if not isinstance(active, BoxSpace) or not iv.fits(active):
                    iv = active.array(iv)
            elif st_k is not None:
                iv = iv + st_k
            else:
                iv = iv + st
        return [merge(under, [(s, vals[i]) for s, vals in exits], types[i])
                for i in range(len(types))]

    def _still_iterating(space, iv, ub, ub_k):
        if type(iv) is Aff and isinstance(space, BoxSpace):
            lo, hi = iv.value_range(space)
            if hi < ub_k:
                return np.True_
            if lo >= ub_k:
                return np.False_
            iv = space.array(iv)
        elif type(iv) is Aff:
            iv = space.array(iv)
        return _lane_compare_lt(iv, np.asarray(ub if ub_k is None else ub_k), unsigned)

    step.affine = True
    return step


@lowering("scf.while")
def _while(op: Operation, c) -> Any:
    before, after = op.regions[0], op.regions[1]
    types = [r.type for r in op.results]
    checked = not calls_functions(op.regions)

    def step(ex: Executor, frame: Frame, args: list):
        under = frame.space
        space = under
        values = list(args)
        exits = []
        count = 0
        repeat = RepeatCheck(checked)
        while True:
            count += 1
            if count > ex.max_loop_iterations:
                raise LaneFault("scf.while ran past the iteration limit")
            stuck = repeat.at(count, space, values)
            if stuck:
                raise LaneFault(stuck, kind=UndefinedBehaviorError)
            res = ex.run_single(before, frame, values, space=space)
            cond, fwd = res.values[0], res.values[1:]
            taken = _uniform_bool(space, cond)
            if taken is False:
                exits.append((space, fwd))
                break
            if taken is None:
                cond = space.array(cond) if isinstance(cond, Aff) else cond
                done, dconv = narrow(space, ~np.asarray(cond), under)
                exits.append((done, [dconv(v) for v in fwd]))
                space, conv = narrow(space, cond, under)
                fwd = [conv(v) for v in fwd]
            values = ex.run_single(after, frame, fwd, space=space).values
        if len(exits) == 1 and exits[0][0] is under:
            return exits[0][1]
        return [merge(under, [(s, vals[i]) for s, vals in exits], types[i])
                for i in range(len(types))]
    return affine(step)


__all__: list[str] = []
_ = is_uniform
