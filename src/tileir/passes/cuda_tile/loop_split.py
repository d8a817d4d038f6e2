"""``loop-split``: split a ``for`` loop in two at the iteration where an ``if`` condition that
compares the induction variable with a loop invariant flips, so that each loop keeps only one
branch of the ``if``.

    for %i in (%lb to %ub, step %s) { if (cmpi less_than %i, %n) {A} else {B} ... }
 -> for %i in (%lb to min(%n', %ub), step %s) {A ...}
    for %i in (max(%n', %lb) to %ub, step %s) {B ...}

where %n' is %n (+1 for ``<=``/``>``) rounded up to the loop's step grid.  The threshold (option
``split-threshold``, overridden by a ``cuda_tile.loop_split`` attribute on the if, the for or
the function; 0 disables) is the number of ops a branch needs for the split to pay off; loads,
stores, mma, reduce and nested control flow always pay off.

Precondition (as in NVIDIA's pass): the split-point arithmetic does not overflow the induction
variable's type.
"""

from __future__ import annotations

from typing import Optional

from ...dialects.cuda_tile.attributes import ComparisonPredicate as P, IntegerAttr, RoundingMode, Signedness
from ...ir.core import Operation, Value
from ...dialects.cuda_tile.types import I1, TileType
from ..manager import Pass, register_pass
from ..rewriter import Rewriter, clone_op, defining_op
from .function_passes import functions_in
from .ir_utils import constant_int, else_block, make_constant, then_block, terminator

__all__ = ["LoopSplit", "split_loops"]

HINT = "cuda_tile.loop_split"
_HEAVY = frozenset({"cuda_tile.load_ptr_tko", "cuda_tile.load_view_tko",
                    "cuda_tile.store_ptr_tko", "cuda_tile.store_view_tko", "cuda_tile.mmaf",
                    "cuda_tile.mmai", "cuda_tile.reduce", "cuda_tile.if", "cuda_tile.for"})
_SWAPPED = {P.LESS_THAN: P.GREATER_THAN, P.LESS_THAN_OR_EQUAL: P.GREATER_THAN_OR_EQUAL,
            P.GREATER_THAN: P.LESS_THAN, P.GREATER_THAN_OR_EQUAL: P.LESS_THAN_OR_EQUAL}


def _hint(op: Operation) -> Optional[int]:
    attr = op.attributes.get(HINT)
    return attr.value if isinstance(attr, IntegerAttr) else None


def _signedness(loop: Operation) -> Signedness:
    return Signedness.UNSIGNED if "unsignedCmp" in loop.attributes else Signedness.SIGNED


def _normalize(loop: Operation, cmp: Operation) -> Optional[tuple]:
    """(predicate with the induction variable on the left, the other operand)."""
    if cmp.attributes.get("signedness") is not _signedness(loop):
        return None
    iv = loop.body.args[0]
    pred = cmp.attributes.get("comparison_predicate")
    lhs, rhs = cmp.operands
    if lhs is iv:
        return pred, rhs
    if rhs is iv and pred in _SWAPPED:
        return _SWAPPED[pred], lhs
    return None


def _defined_outside(value: Value, loop: Operation) -> bool:
    owner = getattr(value, "owner", None)
    op = owner if isinstance(owner, Operation) else getattr(owner, "parent_op", None)
    while op is not None:
        if op is loop:
            return False
        op = op.parent_op
    return True


def _profitable(if_op: Operation, threshold: int) -> bool:
    if threshold == 1:
        return True
    sizes, heavy = [], False
    for block in (then_block(if_op), else_block(if_op)):
        if block is None:
            continue
        sizes.append(len(block.ops) - 1)
        heavy |= any(op.name in _HEAVY for op in block.ops)
    return heavy or any(size >= threshold for size in sizes)


def _plan(loop: Operation, if_op: Operation, threshold: int) -> Optional[dict]:
    """What to split on for ``if_op`` in ``loop`` (None when it cannot or should not)."""
    if not threshold:
        return None
    cmp = defining_op(if_op.operands[0], "cuda_tile.cmpi")
    if cmp is None:
        return None
    normalized = _normalize(loop, cmp)
    if normalized is None:
        return None
    pred, bound = normalized
    if not _defined_outside(bound, loop):
        return None
    if pred in (P.GREATER_THAN, P.GREATER_THAN_OR_EQUAL):
        second_then = True
    elif pred in (P.LESS_THAN, P.LESS_THAN_OR_EQUAL):
        second_then = False
    else:
        return None
    split_ifs, keep_cmp, profitable = [], False, False
    for user in cmp.results[0].users():
        if user.name == "cuda_tile.if":
            profitable |= _profitable(user, threshold)
            if user.parent_op is loop:
                split_ifs.append(user)
                continue
        keep_cmp = True
    if not profitable:
        return None
    # a branch leaving through return/break cannot be pasted into a loop body
    for op in split_ifs:
        for block in (then_block(op), else_block(op)):
            term = terminator(block)
            if term is not None and term.name not in ("cuda_tile.yield", "cuda_tile.continue"):
                return None
    return {"cmp": cmp, "pred": pred, "bound": bound, "second_then": second_then,
            "ifs": split_ifs, "keep_cmp": keep_cmp}


def _copy_loop(rw: Rewriter, loop: Operation, plan: dict, lower: Value, upper: Value,
               inits: list, take_then: bool) -> Operation:
    attrs = {"unsignedCmp": loop.attributes["unsignedCmp"]} \
        if "unsignedCmp" in loop.attributes else {}
    new = rw.create("cuda_tile.for", lower, upper, loop.operands[2], inits, before=loop,
                    result_types=[r.type for r in loop.results], regions=1, **attrs)
    body = new.regions[0].add_block()
    mapping: dict = {}
    for arg in loop.body.args:
        mapping[arg] = body.add_argument(arg.type, arg.loc)
    cmp = plan["cmp"]
    for op in loop.body.ops:
        if op is cmp:
            if plan["keep_cmp"]:
                const = _bool_constant(rw, body, take_then, cmp)
                mapping[cmp.results[0]] = const
            continue
        if op not in plan["ifs"]:
            body.append(clone_op(op, mapping))
            continue
        branch = then_block(op) if take_then else else_block(op)
        stop = False
        for inner in (branch.ops if branch is not None else []):
            if inner.name == "cuda_tile.continue":
                body.append(clone_op(inner, mapping))
                stop = True
                break
            if inner.name == "cuda_tile.yield":
                for result, value in zip(op.results, inner.operands):
                    mapping[result] = mapping.get(value, value)
                continue
            body.append(clone_op(inner, mapping))
        if stop:
            break
    return new


def _bool_constant(rw: Rewriter, body, value: bool, where: Operation) -> Value:
    import numpy as np
    from ...dialects.cuda_tile.attributes import DenseElementsAttr
    t = TileType((), I1)
    return rw.create_at_end("cuda_tile.constant", block=body, loc=where.loc, result_type=t,
                            value=DenseElementsAttr(t, np.array(value))).results[0]


def _split(rw: Rewriter, loop: Operation, plan: dict) -> None:
    lower, upper, step = loop.operands[0], loop.operands[1], loop.operands[2]
    signedness = _signedness(loop)
    split = plan["bound"]
    if plan["pred"] in (P.GREATER_THAN, P.LESS_THAN_OR_EQUAL):
        one = make_constant(rw, loop, step.type, 1)
        split = rw.create("cuda_tile.addi", split, one, before=loop).results[0]
    if constant_int(step) != 1:
        diff = rw.create("cuda_tile.subi", split, lower, before=loop).results[0]
        k = rw.create("cuda_tile.divi", diff, step, before=loop, signedness=signedness,
                      rounding=RoundingMode.POSITIVE_INF).results[0]
        k_step = rw.create("cuda_tile.muli", k, step, before=loop).results[0]
        split = rw.create("cuda_tile.addi", lower, k_step, before=loop).results[0]
    first_upper = rw.create("cuda_tile.mini", split, upper, before=loop,
                            signedness=signedness).results[0]
    second_lower = rw.create("cuda_tile.maxi", split, lower, before=loop,
                             signedness=signedness).results[0]
    first = _copy_loop(rw, loop, plan, lower, first_upper, list(loop.operands[3:]),
                       not plan["second_then"])
    second = _copy_loop(rw, loop, plan, second_lower, upper, list(first.results),
                        plan["second_then"])
    rw.replace_op(loop, second.results)


def split_loops(func: Operation, default_threshold: int = 1) -> bool:
    """Split the loops of ``func`` (each at most once); returns whether anything changed."""
    rw = Rewriter(func)
    func_hint = _hint(func)
    changed = False
    loops = [op for op in func.walk(include_self=False) if op.name == "cuda_tile.for"]
    for loop in _postorder(loops):  # innermost first, like MLIR's post-order walk
        if loop.parent is None or not _attached(loop, func):
            continue
        for_hint = _hint(loop)
        ifs = [op for op in loop.walk(include_self=False) if op.name == "cuda_tile.if"]
        for if_op in _postorder(ifs):
            threshold = next(h for h in (_hint(if_op), for_hint, func_hint, default_threshold)
                             if h is not None)
            plan = _plan(loop, if_op, threshold)
            if plan is not None:
                _split(rw, loop, plan)
                changed = True
                break
    return changed


def _attached(op: Operation, root: Operation) -> bool:
    return any(a is root for a in op.ancestors())


def _postorder(ops: list) -> list:
    """Pre-order ops reordered so that nested ops come before the op containing them."""
    out: list = []
    stack: list = []
    for op in ops:
        while stack and not any(a is stack[-1] for a in op.ancestors()):
            out.append(stack.pop())
        stack.append(op)
    out.extend(reversed(stack))
    return out


@register_pass
class LoopSplit(Pass):
    """Split loops where an if compares the induction variable with a loop invariant."""

    ARGUMENT = "loop-split"
    DISPLAY = "LoopSplitPass"
    SUMMARY = "Split loops when predicate in if-condition compares iv with loop invariant"
    OPTIONS = {"split-threshold": (int, 1)}

    def run(self, op: Operation) -> None:
        for func in functions_in(op):
            split_loops(func, self.options["split-threshold"])
