"""MLIR's RegionBranchOpInterface verification for the scf ops: along every control-flow edge
(parent -> region, terminator -> region, terminator -> parent) the values passed must match
the successor's inputs in number and type."""

from __future__ import annotations

from typing import Optional

from ...ir.core import Operation
from ...ir.diagnostics import ERROR, Diagnostic

__all__ = ["check_edge", "terminator_of", "op_diag", "verify_loop_like"]


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


def verify_loop_like(inits, iter_args, region, results, yield_name: str) -> Optional[str]:
    """MLIR's LoopLikeOpInterface verifier, shared by ``scf.for`` and ``affine.for``: the
    counts of inits, region iter_args, yielded values (the operands of the region's
    ``yield_name`` terminator, when it yields any) and loop results (when there are any), then
    for each position the init and yielded types against the iter_arg's, then the results'
    types, in MLIR's order."""
    term = terminator_of(region)
    yielded = list(term.operands) if term is not None and term.name == yield_name else []
    if len(inits) != len(iter_args):
        return f"different number of inits and region iter_args: {len(inits)} != {len(iter_args)}"
    if yielded and len(iter_args) != len(yielded):
        return (f"different number of region iter_args and yielded values: {len(iter_args)} != "
                f"{len(yielded)}")
    if results and len(results) != len(iter_args):
        # (MLIR 22 skips this for a loop without results: affine.for then fails on the
        # region-branch edges; scf.for checks the result count itself before)
        return (f"different number of loop results and region iter_args: {len(results)} != "
                f"{len(iter_args)}")
    for i, (init, arg) in enumerate(zip(inits, iter_args)):
        if init.type != arg.type:
            return (f"{i}-th init and {i}-th region iter_arg have different type: "
                    f"'{init.type}' != '{arg.type}'")
        if yielded and arg.type != yielded[i].type:
            return (f"{i}-th region iter_arg and {i}-th yielded value have different type: "
                    f"'{arg.type}' != '{yielded[i].type}'")
    for i, (arg, result) in enumerate(zip(iter_args, results)):
        if arg.type != result.type:
            return (f"{i}-th region iter_arg and {i}-th loop result have different type: "
                    f"'{arg.type}' != '{result.type}'")
    return None
