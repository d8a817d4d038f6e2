"""§8.12 Miscellaneous operations: assume and print_tko.

``assume`` has no effect: its result is the operand itself (the plan aliases the two slots, so
it costs nothing at run time).  With ``check_assumptions=True`` the predicate is checked on
every execution and a violation raises :class:`~tileir.execute.errors.AssumptionViolation`
(``bounded``: signed bounds; ``div_by``: integers read signed, pointers as addresses, tensor
views by their base address; ``every E along A``: the first element of each group of ``E``
along ``A`` is divisible and the others follow it by +1, or by +sizeof(pointee) for pointers;
``same_elements``: every group has equal elements).

``print_tko`` formats with C printf rules (:mod:`tileir.execute.printf`) and writes to the
launch's ``stdout`` stream (``sys.stdout`` at the time of the print by default).
"""

from __future__ import annotations

import sys

import numpy as np

from ...dialects.cuda_tile.attributes import BoundedAttr, DivByAttr, SameElementsAttr
from ...dialects.cuda_tile.types import PointerType, TensorViewType, TileType
from .. import numerics as N
from ..errors import AssumptionViolation, UnsupportedError
from ..printf import Spec, format_printf, parse_format
from ..values import TensorViewValue
from ..plan import lowering
from ._common import element_name, storage_dtype


@lowering("assume")
def _lower_assume(op, cc):
    src = op.operands[0]
    if not getattr(cc, "check_assumptions", False):
        cc.slots[op.results[0]] = cc.slot(src)
        return None
    check = _predicate_checker(op, cc)
    a = cc.slot(src)
    out = cc.slot(op.results[0])
    if check is None:
        cc.slots[op.results[0]] = a
        return None

    def run(r):
        v = r[a]
        check(v)
        r[out] = v
    return run


def _predicate_checker(op, cc):
    pred = op.attributes.get("predicate")
    t = op.operands[0].type
    ctx = cc.ctx(op)
    rt = cc.rt
    text = pred.body() if hasattr(pred, "body") else str(pred)

    def fail(flat, shape, detail):
        raise rt.error(ctx, AssumptionViolation, f"assumption {text} does not hold: {detail}",
                       flat, shape)

    if isinstance(t, TensorViewType):
        if not isinstance(pred, DivByAttr):
            return None
        d = pred.divisor

        def check_view(v: TensorViewValue):
            bad = (v.base % np.uint64(d)) != 0
            if bad.any():
                lane = int(np.flatnonzero(bad)[0])
                fail(lane, (v.base.shape[0],), f"base address {int(v.base[lane]):#x} is not "
                                               f"divisible by {d}")
        return check_view
    if not isinstance(t, TileType):
        return None
    elem = element_name(t)
    is_ptr = isinstance(t.element, PointerType)
    step = storage_dtype(t.element.pointee).itemsize if is_ptr else 1

    def values(v):
        if is_ptr:
            return v.view(np.uint64)
        return N.to_signed(v, elem)

    if isinstance(pred, BoundedAttr):
        lb, ub = pred.lb, pred.ub

        def check_bounded(v):
            s = values(v)
            bad = np.zeros(s.shape, dtype=bool)
            if lb is not None:
                bad |= s < lb
            if ub is not None:
                bad |= s > ub
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                fail(k, s.shape, f"value {int(s.reshape(-1)[k])} is outside the bounds")
        return check_bounded
    if isinstance(pred, DivByAttr):
        d, every, along = pred.divisor, pred.every, pred.along

        def check_div(v):
            s = values(v)
            if every is None:
                bad = (s % (np.uint64(d) if is_ptr else d)) != 0
                if bad.any():
                    k = int(np.flatnonzero(bad)[0])
                    fail(k, s.shape, f"{int(s.reshape(-1)[k])} is not divisible by {d}")
                return
            ax = along + 1
            n = s.shape[ax]
            j = np.arange(n)
            g = j - j % every
            first = np.take(s, g, axis=ax)
            shape = [1] * s.ndim
            shape[ax] = n
            delta = ((j - g) * step).reshape(shape)
            if is_ptr:
                expect = first + delta.astype(np.uint64)
                div_bad = (first % np.uint64(d)) != 0
            else:
                expect = first + delta
                div_bad = (first % d) != 0
            bad = (s != expect) | div_bad
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                fail(k, s.shape, "element breaks the divisibility/group pattern")
        return check_div
    if isinstance(pred, SameElementsAttr):
        groups = list(pred.values)

        def check_same(v):
            s = v.view(np.uint64) if is_ptr else v
            ref = s
            for k, c in enumerate(groups):
                if c and c > 1:
                    n = s.shape[k + 1]
                    j = np.arange(n)
                    ref = np.take(ref, j - j % c, axis=k + 1)
            bad = s != ref
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                fail(k, s.shape, "elements of a group differ")
        return check_same
    return None


@lowering("print_tko", "print", sequential=True, effects=True)
def _lower_print(op, cc):
    fmt = op.attributes["str"].value
    pieces = parse_format(fmt)
    args = op.operand_group("args") if op.SPEC is not None else op.operands
    nspec = sum(1 for p in pieces if isinstance(p, Spec))
    if nspec != len(args):
        raise UnsupportedError.at(cc.ctx(op), f"the format string has {nspec} conversion"
                                  f"{'s' if nspec != 1 else ''} but the op has {len(args)} "
                                  f"operand{'s' if len(args) != 1 else ''}")
    slots = cc.slots_of(args)
    elems = [element_name(v.type) for v in args]
    outs = cc.slots_of(op.results)
    rt = cc.rt

    def run(r):
        text = format_printf(pieces, [(r[s][0], e) for s, e in zip(slots, elems)])
        (rt.stdout or sys.stdout).write(text)
        for s in outs:
            r[s] = None
    return run
