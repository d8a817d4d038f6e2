"""MLIR's RegionBranchOpInterface verification for the scf ops: along every control-flow edge
(parent -> region, terminator -> region, terminator -> parent) the values passed must match
the successor's inputs in number and type."""

from __future__ import annotations

from typing import Optional

from ...ir.core import Operation

__all__ = ["check_edge", "terminator_of"]


def terminator_of(region) -> Optional[Operation]:
    """The last op of the region's single block, if any."""
    if not region.blocks or not region.blocks[0].ops:
        return None
    return region.blocks[0].ops[-1]


def check_edge(source: str, target: str, values: list, inputs: list) -> Optional[str]:
    """The message for a mismatching edge (``values``/``inputs``: types), or None.
    ``source``: ``parent`` or ``Operation scf.yield``; ``target``: ``parent`` or ``Region #N``."""
    where = f"along control flow edge from {source} to {target}: "
    if len(values) != len(inputs):
        return (where + f"region branch point has {len(values)} operands, but region successor "
                f"needs {len(inputs)} inputs")
    for i, (v, t) in enumerate(zip(values, inputs)):
        if v != t:
            return (where + f"successor operand type #{i} '{v}' should match successor input "
                    f"type #{i} '{t}'")
    return None
