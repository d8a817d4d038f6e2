"""The ``canonicalize`` pass: every registered canonicalization pattern and folder, applied
greedily.  Dialects add theirs to :data:`CANONICALIZATION` (cuda_tile's are in
:mod:`tileir.passes.cuda_tile.canonical`)."""

from __future__ import annotations

from ..ir.core import Operation
from .greedy import PatternSet, apply_patterns_greedily
from .manager import Pass, register_pass

__all__ = ["CANONICALIZATION", "Canonicalize", "canonicalize"]

#: the patterns and folders of every dialect
CANONICALIZATION = PatternSet()


def canonicalize(op: Operation, max_iterations: int = 10) -> bool:
    """Canonicalize everything nested in ``op``; returns whether anything changed."""
    from . import cuda_tile  # noqa: F401  (registers cuda_tile's patterns)
    return apply_patterns_greedily(op, CANONICALIZATION, max_iterations=max_iterations)


@register_pass
class Canonicalize(Pass):
    """Canonicalize operations."""

    ARGUMENT = "canonicalize"
    DISPLAY = "Canonicalizer"
    SUMMARY = "Canonicalize operations"
    OPTIONS = {"max-iterations": (int, 10)}

    def run(self, op: Operation) -> None:
        canonicalize(op, self.options["max-iterations"])
