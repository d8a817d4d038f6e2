"""cuda_tile's canonicalization patterns and folders (those of NVIDIA's dialect, as its
canonicalize.mlir test shows them): ``addf`` operand order, ``assume`` chains, ``if`` (static
conditions, conversion to ``select``, unused results, merging adjacent and nested ifs, branches
that both leave the parent) and ``select`` (constant/identical operands, not/xor, ``exti``)."""

from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from ...dialects.cuda_tile.attributes import ComparisonPredicate, DenseElementsAttr, Signedness
from ...ir.core import Operation, Value
from ...dialects.cuda_tile.types import IntegerType, TileType
from ..canonicalize import CANONICALIZATION
from ..rewriter import Rewriter, defining_op, op_pattern
from .ir_utils import (constant_array, constant_bool, constant_int, create_not, create_select,
                       else_block, leaves_parent, new_if, replace_op_with_region, terminator,
                       then_block)

__all__: list[str] = []

IF, SELECT, YIELD = "cuda_tile.if", "cuda_tile.select", "cuda_tile.yield"


def _region_of(value: Value):
    """The region whose block defines ``value`` (directly)."""
    owner = getattr(value, "owner", None)
    block = owner.parent if isinstance(owner, Operation) else owner
    return block.parent if block is not None else None


def _is_true_const(value: Value) -> bool:
    return constant_bool(value) is True


def _is_false_const(value: Value) -> bool:
    return constant_bool(value) is False


def _rebuild_yield(rw: Rewriter, old: Operation, values: Sequence[Value]) -> None:
    rw.create_at_end(YIELD, list(values), block=old.parent, loc=old.loc)
    rw.erase_op(old)


# ------------------------------------------------------------------------------------------------
# addf / assume


@op_pattern("cuda_tile.addf")
def addf_multiply_on_lhs(op: Operation, rw: Rewriter) -> bool:
    """``addf c, (mulf a, b)`` -> ``addf (mulf a, b), c`` (so fuse-fma sees the product)."""
    lhs, rhs = op.operands
    if defining_op(rhs, "cuda_tile.mulf") is None or defining_op(lhs, "cuda_tile.mulf"):
        return False
    rw.set_operand(op, 0, rhs)
    rw.set_operand(op, 1, lhs)
    return True


def fold_assume(op: Operation, rw: Rewriter) -> Optional[list]:
    """``assume P, (assume P, x)`` -> the inner assume."""
    producer = defining_op(op.operands[0], "cuda_tile.assume")
    if producer is not None and producer.attributes.get("predicate") == \
            op.attributes.get("predicate"):
        return [producer.results[0]]
    return None


# ------------------------------------------------------------------------------------------------
# select


def fold_select(op: Operation, rw: Rewriter) -> Optional[list]:
    cond, t, f = op.operands
    if t is f:
        return [t]
    c = constant_bool(cond)
    if c is not None:
        return [t if c else f]
    if op.results[0].type.element == IntegerType(1) and _is_true_const(t) and \
            _is_false_const(f):
        return [cond]
    cmp = defining_op(cond, "cuda_tile.cmpi")
    if cmp is not None:
        pred = cmp.attributes.get("comparison_predicate")
        if pred in (ComparisonPredicate.EQUAL, ComparisonPredicate.NOT_EQUAL):
            a, b = cmp.operands
            if (a is t and b is f) or (b is t and a is f):
                return [t if pred is ComparisonPredicate.NOT_EQUAL else f]
    xor = defining_op(cond, "cuda_tile.xori")
    if xor is not None and _is_true_const(xor.operands[1]):
        rw.set_operand(op, 0, xor.operands[0])
        op.set_operand(1, f)
        op.set_operand(2, t)
        return list(op.results)
    inner = defining_op(t, SELECT)
    if inner is not None and inner.operands[0] is cond:
        op.set_operand(1, inner.operands[1])
        return list(op.results)
    inner = defining_op(f, SELECT)
    if inner is not None and inner.operands[0] is cond:
        op.set_operand(2, inner.operands[2])
        return list(op.results)
    return None


@op_pattern(SELECT)
def select_i1_to_not(op: Operation, rw: Rewriter) -> bool:
    """``select p, false, true`` -> ``xori p, true``."""
    cond, t, f = op.operands
    if not (_is_false_const(t) and _is_true_const(f)):
        return False
    xor = rw.create("cuda_tile.xori", cond, f, before=op)
    rw.replace_op(op, xor.results)
    return True


@op_pattern(SELECT)
def select_constants(op: Operation, rw: Rewriter) -> bool:
    """``select`` of three integer/float constants -> one constant."""
    arrays = [constant_array(v) for v in op.operands]
    t: TileType = op.results[0].type
    if any(a is None for a in arrays) or not hasattr(t.element, "name") or \
            getattr(t.element, "is_pointer", False):
        return False
    cond, a, b = arrays
    out = np.where(cond.astype(bool), a, b).astype(a.dtype)
    new = rw.create("cuda_tile.constant", before=op, result_type=t,
                    value=DenseElementsAttr(t, np.ascontiguousarray(out)))
    rw.replace_op(op, new.results)
    return True


@op_pattern(SELECT)
def select_to_exti(op: Operation, rw: Rewriter) -> bool:
    """``select p, 1, 0`` -> ``exti p unsigned``; ``select p, 0, 1`` -> ``exti (not p)``."""
    t: TileType = op.results[0].type
    if not isinstance(t.element, IntegerType) or t.element.width == 1:
        return False
    cond, a, b = op.operands
    va, vb = constant_int(a), constant_int(b)
    if va == 1 and vb == 0:
        source = cond
    elif va == 0 and vb == 1:
        source = create_not(rw, op, cond)
    else:
        return False
    ext = rw.create("cuda_tile.exti", source, before=op, result_type=t,
                    signedness=Signedness.UNSIGNED)
    rw.replace_op(op, ext.results)
    return True


# ------------------------------------------------------------------------------------------------
# if


def fold_if(op: Operation, rw: Rewriter) -> Optional[list]:
    """``if (xori c, true) A else B`` -> ``if c B else A``."""
    if else_block(op) is None:
        return None
    xor = defining_op(op.operands[0], "cuda_tile.xori")
    if xor is None or not _is_true_const(xor.operands[1]):
        return None
    rw.set_operand(op, 0, xor.operands[0])
    then_region, else_region = op.regions
    then_region.blocks, else_region.blocks = else_region.blocks, then_region.blocks
    for block in then_region.blocks:
        block.parent = then_region
    for block in else_region.blocks:
        block.parent = else_region
    return list(op.results)


@op_pattern(IF)
def remove_unused_results(op: Operation, rw: Rewriter) -> bool:
    if not op.results:
        return False
    t_term, e_term = terminator(then_block(op)), terminator(else_block(op))
    if not (t_term.name == YIELD or (e_term is not None and e_term.name == YIELD)):
        return False
    used = [r for r in op.results if r.uses]
    if len(used) == len(op.results):
        return False
    new = new_if(rw, op, op.operands[0], [r.type for r in used])
    for old_region, new_region in zip(op.regions, new.regions):
        rw.take_region_body(old_region, new_region)
        term = terminator(new_region.blocks[0]) if new_region.blocks else None
        if term is not None and term.name == YIELD:
            _rebuild_yield(rw, term, [term.operands[r.index] for r in used])
    replacement: list = [None] * len(op.results)
    for i, r in enumerate(used):
        replacement[r.index] = new.results[i]
    for r, v in zip(op.results, replacement):
        if v is not None:
            rw.replace_all_uses(r, v)
    rw.erase_op(op)
    return True


@op_pattern(IF)
def replace_yield_with_value(op: Operation, rw: Rewriter) -> bool:
    if not op.results:
        return False
    t_term, e_term = terminator(then_block(op)), terminator(else_block(op))
    if t_term.name != YIELD or e_term is None or e_term.name != YIELD:
        return False
    changed = False
    for a, b, result in zip(t_term.operands, e_term.operands, op.results):
        if a is b:
            if result.uses:
                rw.replace_all_uses(result, a)
                changed = True
            continue
        ca, cb = constant_bool(a), constant_bool(b)
        if ca is None or cb is None or not result.uses:
            continue
        if not ca and cb:
            rw.replace_all_uses(result, create_not(rw, op, op.operands[0]))
            changed = True
        elif ca and not cb:
            rw.replace_all_uses(result, op.operands[0])
            changed = True
    return changed


@op_pattern(IF)
def remove_static_condition(op: Operation, rw: Rewriter) -> bool:
    c = constant_bool(op.operands[0])
    if c is None:
        return False
    if c:
        replace_op_with_region(rw, op, op.regions[0])
    elif else_block(op) is not None:
        replace_op_with_region(rw, op, op.regions[1])
    else:
        rw.erase_op(op)
    return True


@op_pattern(IF)
def convert_to_select(op: Operation, rw: Rewriter) -> bool:
    if not op.results:
        return False
    cond = op.operands[0]
    t_term, e_term = terminator(then_block(op)), terminator(else_block(op))
    then_yield = t_term.name == YIELD
    else_yield = e_term is not None and e_term.name == YIELD
    if not then_yield and not else_yield:
        return False
    if not all(isinstance(r.type, TileType) for r in op.results):
        return False
    true_args = list((t_term if then_yield else e_term).operands)
    false_args = list((e_term if else_yield else t_term).operands)
    then_region = op.regions[0] if then_yield else op.regions[1]
    else_region = op.regions[1] if else_yield else op.regions[0]
    kept = [i for i, (a, b) in enumerate(zip(true_args, false_args))
            if _region_of(a) is then_region or _region_of(b) is else_region]
    if len(kept) == len(op.results):
        return False
    new = new_if(rw, op, cond, [op.results[i].type for i in kept])
    for old_region, new_region in zip(op.regions, new.regions):
        rw.take_region_body(old_region, new_region)
    results: list = []
    for i, (a, b) in enumerate(zip(true_args, false_args)):
        if i in kept:
            results.append(new.results[kept.index(i)])
        elif a is b:
            results.append(a)
        else:
            results.append(create_select(rw, new, cond, a, b))
    if then_yield:
        _rebuild_yield(rw, terminator(then_block(new)), [true_args[i] for i in kept])
    if else_yield:
        _rebuild_yield(rw, terminator(else_block(new)), [false_args[i] for i in kept])
    rw.replace_op(op, results)
    return True


@op_pattern(IF)
def remove_empty_else(op: Operation, rw: Rewriter) -> bool:
    if op.results:
        return False
    block = else_block(op)
    if block is None or len(block.ops) != 1 or leaves_parent(block.ops[0]):
        return False
    rw.erase_op(block.ops[0])
    op.regions[1].blocks = []
    rw.modified(op)
    return True


def _not_of(value: Value, other: Value) -> bool:
    xor = defining_op(value, "cuda_tile.xori")
    return xor is not None and _is_true_const(xor.operands[1]) and xor.operands[0] is other


def _within(op: Operation, region) -> bool:
    r = op.parent.parent if op.parent is not None else None
    while r is not None:
        if r is region:
            return True
        owner = r.parent
        r = owner.parent.parent if owner is not None and owner.parent is not None else None
    return False


@op_pattern(IF)
def combine_ifs(next_if: Operation, rw: Rewriter) -> bool:
    block = next_if.parent
    index = block.ops.index(next_if)
    if index == 0 or block.ops[index - 1].name != IF:
        return False
    prev_if = block.ops[index - 1]
    next_then = next_else = None
    if next_if.operands[0] is prev_if.operands[0]:
        next_then = then_block(next_if)
        next_else = else_block(next_if)
    if _not_of(next_if.operands[0], prev_if.operands[0]) or \
            _not_of(prev_if.operands[0], next_if.operands[0]):
        next_else = then_block(next_if)
        next_then = else_block(next_if)
    if leaves_parent(terminator(then_block(prev_if))):
        next_then = None
    if leaves_parent(terminator(else_block(prev_if))):
        next_else = None
    if next_then is None and next_else is None:
        return False
    prev_then_vals = list(prev_if.results)
    prev_else_vals = list(prev_if.results)
    if next_then is not None:
        prev_then_vals = list(terminator(then_block(prev_if)).operands)
    if next_else is not None and else_block(prev_if) is not None:
        prev_else_vals = list(terminator(else_block(prev_if)).operands)
    for result, tv, ev in zip(prev_if.results, prev_then_vals, prev_else_vals):
        for user, i in list(result.uses):
            if next_then is not None and _within(user, next_then.parent):
                rw.set_operand(user, i, tv)
            elif next_else is not None and _within(user, next_else.parent):
                rw.set_operand(user, i, ev)
    n_prev = len(prev_if.results)
    combined = new_if(rw, next_if, prev_if.operands[0],
                      [r.type for r in prev_if.results] + [r.type for r in next_if.results])
    rw.take_region_body(prev_if.regions[0], combined.regions[0])
    if next_then is not None:
        _merge_into(rw, next_then, then_block(combined))
    rw.take_region_body(prev_if.regions[1], combined.regions[1])
    if next_else is not None:
        if not combined.regions[1].blocks:
            rw.take_region_body(next_else.parent, combined.regions[1])
        else:
            _merge_into(rw, next_else, else_block(combined))
    rw.replace_op(prev_if, combined.results[:n_prev])
    rw.replace_op(next_if, combined.results[n_prev:])
    return True


def _merge_into(rw: Rewriter, source, dest) -> None:
    """Append ``source``'s ops to ``dest``; two trailing yields become one yielding both."""
    first = terminator(dest)
    second = terminator(source)
    first_yield = first if first is not None and first.name == YIELD else None
    second_yield = second if second is not None and second.name == YIELD else None
    rw.append_block_ops(source, dest)
    if first_yield is not None and second_yield is not None:
        rw.create_at_end(YIELD, list(first_yield.operands) + list(second_yield.operands),
                         block=dest, loc=second_yield.loc)
    if first_yield is not None:
        rw.erase_op(first_yield)
    if second_yield is not None:
        rw.erase_op(second_yield)


@op_pattern(IF)
def combine_nested_ifs(op: Operation, rw: Rewriter) -> bool:
    body = then_block(op)
    if len(body.ops) != 2 or body.ops[0].name != IF:
        return False
    nested = body.ops[0]
    outer_else = else_block(op)
    if outer_else is not None and len(outer_else.ops) != 1:
        return False
    nested_else = else_block(nested)
    if nested_else is not None and len(nested_else.ops) != 1:
        return False
    if leaves_parent(terminator(body)) or leaves_parent(terminator(outer_else)) or \
            leaves_parent(terminator(nested_else)):
        return False
    if leaves_parent(terminator(then_block(nested))) and (outer_else is not None
                                                          or nested_else is not None):
        return False
    then_yield = list(terminator(body).operands)
    else_yield = list(terminator(outer_else).operands) if outer_else is not None else []
    to_select: list[int] = []
    for i, v in enumerate(then_yield):
        if defining_op(v) is nested:
            k = v.index
            if nested_else is None or terminator(nested_else).operands[k] is not else_yield[i]:
                return False
            then_yield[i] = terminator(then_block(nested)).operands[k]
            continue
        if _region_of(v) is op.regions[0] or not isinstance(v.type, TileType):
            return False
        to_select.append(i)
    cond = rw.create("cuda_tile.andi", op.operands[0], nested.operands[0],
                     before=op).results[0]
    new = new_if(rw, op, cond, [r.type for r in op.results])
    results = list(new.results)
    for i in to_select:
        results[i] = create_select(rw, new, op.operands[0], then_yield[i], else_yield[i])
    rw.take_region_body(nested.regions[0], new.regions[0])
    term = terminator(then_block(new))
    if term.name == YIELD:
        _rebuild_yield(rw, term, then_yield)
    if else_yield:
        block = new.regions[1].add_block()
        rw.create_at_end(YIELD, else_yield, block=block, loc=op.loc)
    rw.replace_op(op, results)
    return True


@op_pattern(IF)
def move_terminator_to_parent(op: Operation, rw: Rewriter) -> bool:
    """Both branches leave the parent: keep ``if c {then}`` and inline the else branch after
    it (what followed the ``if`` is unreachable)."""
    if else_block(op) is None:
        return False
    if not (leaves_parent(terminator(then_block(op))) and
            leaves_parent(terminator(else_block(op)))):
        return False
    new = new_if(rw, op, op.operands[0], [])
    rw.take_region_body(op.regions[0], new.regions[0])
    replace_op_with_region(rw, op, op.regions[1])
    return True


# MLIR lists IfOp's patterns in this order; the driver tries them in it.
CANONICALIZATION.add(addf_multiply_on_lhs,
                     remove_unused_results, replace_yield_with_value, remove_static_condition,
                     convert_to_select, remove_empty_else, combine_ifs, combine_nested_ifs,
                     move_terminator_to_parent,
                     select_i1_to_not, select_constants, select_to_exti)
CANONICALIZATION.add_folder("cuda_tile.assume", fold_assume)
CANONICALIZATION.add_folder("cuda_tile.select", fold_select)
CANONICALIZATION.add_folder(IF, fold_if)
