"""Structural limits shared by the text parser, the bytecode reader and the IR walkers.

Regions nest recursively and the parser, verifier, printer, bytecode codec and plan compiler
walk them recursively.  Python's default recursion limit (1000) would stop them at about 150
nested regions; ``import tileir`` calls :func:`ensure_recursion_room`, which raises it (never
lowers it) so that every stage handles :data:`MAX_REGION_DEPTH` levels, and the readers reject
deeper input with a diagnostic.
"""

from __future__ import annotations

import sys

__all__ = ["MAX_REGION_DEPTH", "RECURSION_LIMIT", "ensure_recursion_room"]

#: Deepest region nesting the text parser and the bytecode reader accept (a function body is
#: depth 1).  Real kernels nest a handful of levels.
MAX_REGION_DEPTH = 256

#: Python frames needed to walk :data:`MAX_REGION_DEPTH` levels, with room to spare.
RECURSION_LIMIT = 12000


def ensure_recursion_room() -> None:
    """Raise the interpreter's recursion limit to :data:`RECURSION_LIMIT` if it is lower."""
    if sys.getrecursionlimit() < RECURSION_LIMIT:
        sys.setrecursionlimit(RECURSION_LIMIT)
