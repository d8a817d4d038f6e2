"""Type inference for ops being created, shared by the text parser and the builder.

MLIR's assembly formats leave out types that traits imply (``addi %a, %b : tile<i32>`` names one
type for two operands and a result) and ODS builders infer result types the same way.  Both ways
of creating an op fill a :class:`TypeState` with what they know, keyed by operand/result group
name, and call :func:`infer_types`, which applies

1. the op's traits that can infer (``AllTypesMatch`` copies a known type to the other groups,
   ``TypesMatchWith`` applies its transform, e.g. ``tile<4xf32>`` -> ``tile<4xi1>`` for cmpf),
2. the op's ``infer_parsed_types(state)`` hook for what no trait expresses,
3. buildable constraints (a constraint that admits exactly one type, e.g. ``token``),

until nothing changes.
"""

from __future__ import annotations

from typing import Any, Optional

from .types import Type
from .opdef import SINGLE, OpSpec

__all__ = ["TypeState", "infer_types"]


class TypeState:
    """Types known so far for an op of ``spec`` being created.

    ``operands`` maps a group name to its operands (parsed uses or values; only the count
    matters here); ``operand_types`` / ``result_types`` map group names to type lists."""

    def __init__(self, spec: OpSpec) -> None:
        self.spec = spec
        self.operands: dict[str, list[Any]] = {}
        self.operand_types: dict[str, list[Type]] = {}
        self.result_types: dict[str, list[Type]] = {}
        self.attrs: dict[str, Any] = {}

    def known_types(self, name: str) -> Optional[list[Type]]:
        if name in self.operand_types:
            return self.operand_types[name]
        return self.result_types.get(name)

    def group_kind(self, name: str) -> str:
        return "operand" if name in self.spec.operand_index else "result"


def infer_types(state: TypeState) -> None:
    """Fill in the operand and result types of ``state`` that its op's definition implies."""
    spec = state.spec
    hook = getattr(spec.cls, "infer_parsed_types", None)
    inferers = spec.__dict__.get("_inferers")
    if inferers is None:
        inferers = [t.infer for t in spec.traits if getattr(t, "infer", None) is not None]
        spec.__dict__["_inferers"] = inferers
    if inferers or hook is not None:
        for _ in range(3):
            changed = False
            for infer in inferers:
                if infer(state):
                    changed = True
            if hook is not None and hook(state):
                changed = True
            if not changed:
                break
    operand_types = state.operand_types
    for o in spec.operands:
        if o.name not in operand_types and state.operands.get(o.name):
            if o.constraint.buildable is not None:
                operand_types[o.name] = [o.constraint.buildable] * len(state.operands[o.name])
    result_types = state.result_types
    for r in spec.results:
        if r.name not in result_types and r.kind == SINGLE and r.constraint.buildable:
            result_types[r.name] = [r.constraint.buildable]
