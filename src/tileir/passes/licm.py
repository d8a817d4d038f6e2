"""``loop-invariant-code-motion``: move ops out of ``for``/``loop`` bodies when they compute
the same value on every iteration: pure, no regions, operands defined outside the loop, and
unable to fault (so running them when the loop runs zero times changes nothing)."""

from __future__ import annotations

from ..ir.core import Operation
from .manager import Pass, register_pass
from .rewriter import Rewriter, is_pure

__all__ = ["LoopInvariantCodeMotion", "hoist_loop_invariants"]

LOOPS = ("cuda_tile.for", "cuda_tile.loop")


def _may_fault(op: Operation) -> bool:
    from ..execute.plan import MAY_FAULT, VARYING_RESULTS
    return op.name in MAY_FAULT or op.name in VARYING_RESULTS


def _outside(value, loop: Operation) -> bool:
    owner = getattr(value, "owner", None)
    op = owner if isinstance(owner, Operation) else getattr(owner, "parent_op", None)
    while op is not None:
        if op is loop:
            return False
        op = op.parent_op
    return True


def _hoist_from(loop: Operation, rw: Rewriter) -> bool:
    changed = False
    for op in list(loop.regions[0].blocks[0].ops):
        if op.regions or not is_pure(op) or _may_fault(op):
            continue
        if all(_outside(v, loop) for v in op.operands):
            rw.move_before(op, loop)
            changed = True
    return changed


def hoist_loop_invariants(root: Operation) -> bool:
    """Hoist loop invariants of every loop nested in ``root`` (inner loops first, so an op can
    leave several loops); returns whether anything moved."""
    rw = Rewriter(root)
    loops = [op for op in root.walk(include_self=False) if op.name in LOOPS]
    changed = False
    for loop in reversed(loops):
        changed |= _hoist_from(loop, rw)
    return changed


@register_pass
class LoopInvariantCodeMotion(Pass):
    """Hoist loop-invariant pure ops out of loops."""

    ARGUMENT = "loop-invariant-code-motion"
    DISPLAY = "LoopInvariantCodeMotion"
    SUMMARY = "Hoist loop invariant instructions outside of the loop"

    def run(self, op: Operation) -> None:
        hoist_loop_invariants(op)
