"""Common subexpression elimination (MLIR's ``cse``): a pure op equal to one that dominates it
(same name, attributes, operands and result types, no regions) is replaced by it.  Values of an
enclosing block are visible in nested regions, except across ops isolated from above."""

from __future__ import annotations

from typing import Optional

from ..ir.core import Block, Operation
from ..ir.traits import IsolatedFromAbove
from .manager import Pass, register_pass
from .rewriter import Rewriter, is_pure, is_trivially_dead

__all__ = ["CSE", "eliminate_common_subexpressions"]


def _key(op: Operation) -> Optional[tuple]:
    try:
        attrs = tuple(sorted(op.attributes.items()))
        hash(attrs)
    except TypeError:
        attrs = tuple(sorted((k, repr(v)) for k, v in op.attributes.items()))
    return (op.name, attrs, tuple(id(v) for v in op.operands), tuple(op.result_types))


def _cse_candidate(op: Operation) -> bool:
    return bool(op.results) and not op.regions and is_pure(op)


class _Scopes:
    def __init__(self, parent: Optional["_Scopes"] = None) -> None:
        self.table: dict = {}
        self.parent = parent

    def lookup(self, key) -> Optional[Operation]:
        scope: Optional[_Scopes] = self
        while scope is not None:
            hit = scope.table.get(key)
            if hit is not None:
                return hit
            scope = scope.parent
        return None


def _simplify_block(block: Block, scopes: _Scopes, rewriter: Rewriter) -> bool:
    changed = False
    for op in list(block.ops):
        if op.parent is None:
            continue
        if op.results and is_trivially_dead(op):
            rewriter.erase_op(op)
            changed = True
            continue
        if _cse_candidate(op):
            key = _key(op)
            existing = scopes.lookup(key)
            if existing is not None:
                rewriter.replace_op(op, existing.results)
                changed = True
                continue
            scopes.table[key] = op
        isolated = op.SPEC is not None and op.SPEC.has_trait(IsolatedFromAbove)
        for region in op.regions:
            for inner in region.blocks:
                changed |= _simplify_block(inner, _Scopes(None if isolated else scopes), rewriter)
    return changed


def eliminate_common_subexpressions(op: Operation) -> bool:
    """Run CSE on everything nested in ``op``; returns whether anything changed."""
    rewriter = Rewriter(op)
    changed = False
    for region in op.regions:
        for block in region.blocks:
            changed |= _simplify_block(block, _Scopes(), rewriter)
    return changed


@register_pass
class CSE(Pass):
    """Eliminate common subexpressions."""

    ARGUMENT = "cse"
    DISPLAY = "CSE"
    SUMMARY = "Eliminate common sub-expressions"

    def run(self, op: Operation) -> None:
        eliminate_common_subexpressions(op)
