"""MLIR's RegionBranchOpInterface verification for the scf ops: along every control-flow edge
(parent -> region, terminator -> region, terminator -> parent) the values passed must match
the successor's inputs in number and type."""

from __future__ import annotations

from typing import Optional

from ...ir.core import Operation
from ...ir.diagnostics import ERROR, Diagnostic

__all__ = ["check_edge", "terminator_of", "op_diag"]


def op_diag(op: Operation, message: str, note: Optional[str] = None,
            note_at: Optional[Operation] = None) -> Diagnostic:
    """``'<op>' op <message>`` at ``op``, with an optional note at ``note_at``."""
    diag = Diagnostic(ERROR, f"'{op.name}' op {message}", op.loc)
    if note is not None:
        diag.attach_note(note, (note_at or op).loc)
    return diag


def terminator_of(region) -> Optional[Operation]:
    """The last op of the region's single block, if any."""
    if not region.blocks or not region.blocks[0].ops:
        return None
    return region.blocks[0].ops[-1]


def check_edge(op: Operation, point: Operation, source: str, target: str, values: list,
               inputs: list) -> Optional[Diagnostic]:
    """The error for a mismatching edge (``values``/``inputs``: types), or None.  ``point``:
    the op passing the values (the parent or a terminator), noted as the region branch point;
    ``source``: ``parent`` or ``Operation scf.yield``; ``target``: ``parent`` or ``Region #N``."""
    where = f"along control flow edge from {source} to {target}: "
    message = None
    if len(values) != len(inputs):
        message = (where + f"region branch point has {len(values)} operands, but region "
                   f"successor needs {len(inputs)} inputs")
    else:
        for i, (v, t) in enumerate(zip(values, inputs)):
            if v != t:
                message = (where + f"successor operand type #{i} '{v}' should match successor "
                           f"input type #{i} '{t}'")
                break
    if message is None:
        return None
    return op_diag(op, message, "region branch point", point)
