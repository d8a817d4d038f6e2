"""``fuse-fma``: ``(a * b) + c`` -> ``fma(a, b, c)`` and ``(a * b) - c`` -> ``fma(a, b, -c)``
when the product has one use and both ops have the same rounding mode and flush_to_zero.

Not bit-preserving: fma rounds once where mulf+addf round twice (the spec lets a compiler
contract only where asked, which is what this pass is for).  ``addf`` operands are first
reordered so a product on the right is fused too (the canonicalization pattern)."""

from __future__ import annotations

from ...ir.core import Operation
from ..canonicalize import CANONICALIZATION
from ..greedy import PatternSet, apply_patterns_greedily
from ..manager import Pass, register_pass
from ..rewriter import Rewriter, defining_op, op_pattern
from .canonical import addf_multiply_on_lhs
from .function_passes import functions_in

__all__ = ["FuseFMA", "fuse_fma"]


def _fusable_product(op: Operation):
    mul = defining_op(op.operands[0], "cuda_tile.mulf")
    if mul is None or len(mul.results[0].uses) != 1:
        return None
    for key in ("rounding_mode", "flush_to_zero"):
        if op.attributes.get(key) != mul.attributes.get(key):
            return None
    return mul


def _replace_with_fma(op: Operation, mul: Operation, acc, rw: Rewriter) -> None:
    attrs = {k: op.attributes[k] for k in ("rounding_mode", "flush_to_zero")
             if k in op.attributes}
    fma = rw.create("cuda_tile.fma", mul.operands[0], mul.operands[1], acc, before=op, **attrs)
    rw.replace_op(op, fma.results)
    rw.erase_op(mul)


@op_pattern("cuda_tile.addf")
def multiply_add(op: Operation, rw: Rewriter) -> bool:
    mul = _fusable_product(op)
    if mul is None:
        return False
    _replace_with_fma(op, mul, op.operands[1], rw)
    return True


@op_pattern("cuda_tile.subf")
def multiply_subtract(op: Operation, rw: Rewriter) -> bool:
    mul = _fusable_product(op)
    if mul is None:
        return False
    negated = rw.create("cuda_tile.negf", op.operands[1], before=op).results[0]
    _replace_with_fma(op, mul, negated, rw)
    return True


def fuse_fma(op: Operation) -> bool:
    """Fuse multiply-add/subtract in every function in ``op``; returns whether it changed."""
    patterns = PatternSet(folders=dict(CANONICALIZATION.folders))
    patterns.add(addf_multiply_on_lhs, multiply_add, multiply_subtract)
    changed = False
    for func in functions_in(op):
        changed |= apply_patterns_greedily(func, patterns)
    return changed


@register_pass
class FuseFMA(Pass):
    """Fuse multiply-add and multiply-subtract into fma (not bit-preserving)."""

    ARGUMENT = "fuse-fma"
    DISPLAY = "FuseFMAPass"
    SUMMARY = ("Fuse multiply-add and multiply-subtract operations into FMA operations "
               "(non-numeric-preserving)")

    def run(self, op: Operation) -> None:
        fuse_fma(op)
