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

import numpy as np

from .. import numerics as N
from ..errors import AssertionFailure, UndefinedBehaviorError, UnsupportedError
from ..plan import BREAK, CONTINUE, MAX_PENDING_NESTING, YIELD, convertible_if, lowering
from ._common import element_name, storage_dtype


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
    ctx = cc.ctx(op)
    rt = cc.rt

    def divergent(r, c):
        if not convertible:
            raise rt.error(ctx, UnsupportedError,
                           "the condition differs between tile blocks run together and a branch "
                           "has side effects or leaves the 'if'")
        ts = then_run(r)
        es = else_run(r)
        for s, rank, tv, ev in zip(outs, ranks, ts[1], es[1]):
            if tv is None or ev is None:
                r[s] = None
                continue
            cshape = c.shape + (1,) * rank
            r[s] = np.where(c.reshape(cshape), tv, ev)
        return None

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


def _bound_reader(elem: str, unsigned: bool):
    """Read a scalar bound (lane 0) as a Python int, signed or unsigned."""
    if unsigned:
        return lambda a: int(N.to_unsigned(a[:1], elem)[0])
    if elem in ("i8", "i16", "i32", "i64"):
        return lambda a: int(a[0])
    return lambda a: int(N.to_signed(a[:1], elem)[0])


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
    dt = storage_dtype(op.operands[0].type)
    ctx = cc.ctx(op)
    rt = cc.rt
    native = elem in ("i8", "i16", "i32", "i64")

    lo, hi = (-(1 << 63), (1 << 63) - 1) if native else (0, -1)

    def make_iv(v: int):
        if lo <= v <= hi:
            return np.array([v], dtype=np.int64).astype(dt)     # wraps to the iv's width
        return N.from_integer(np.array([v & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64), elem)

    def run(r):
        for s in (lb_s, ub_s, step_s):
            if r[s].shape[0] != 1 and not (r[s] == r[s][0]).all():
                raise rt.error(ctx, UnsupportedError,
                               "loop bounds differ between tile blocks run together")
        lb, ub, step = read_bound(r[lb_s]), read_bound(r[ub_s]), read_step(r[step_s])
        if step <= 0:
            raise rt.error(ctx, UndefinedBehaviorError,
                           f"'for' step must be positive (got {step})")
        trips = max(0, -(-(ub - lb) // step))
        vals = [r[s] for s in inits]
        for k in range(trips):
            r[iv_slot] = make_iv(lb + k * step)
            for s, v in zip(args, vals):
                r[s] = v
            sig = run_body(r)
            if sig[0] == CONTINUE:
                vals = sig[1]
            else:
                return sig          # break (belongs to an enclosing loop) or return
        for s, v in zip(outs, vals):
            r[s] = v
        return None
    return run


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
    ctx = cc.ctx(op)
    rt = cc.rt

    def run(r):
        vals = [r[s] for s in inits]
        limit = rt.max_loop_iterations
        n = 0
        while True:
            for s, v in zip(args, vals):
                r[s] = v
            sig = run_body(r)
            kind = sig[0]
            if kind == CONTINUE or kind == YIELD:
                vals = sig[1]
                n += 1
                if not n & SPIN_CHECK_MASK and rt.run_pending is not None:
                    # possibly waiting for a block that has not run yet: let one run
                    rt.run_pending()
                if limit is not None and n >= limit:
                    raise rt.error(ctx, UndefinedBehaviorError,
                                   f"'loop' ran {n} iterations without 'break' (a tile block "
                                   "waiting for something no other tile block provides, or "
                                   f"one of more than {MAX_PENDING_NESTING} blocks waiting at "
                                   "once, never finishes)")
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

