"""Op traits: structural properties and the checks (and type inference) they imply.

Message wording follows MLIR/ODS (``failed to verify that all of {lhs, rhs, result} have same
type``) because the conformance suite checks it.  ``PHASE`` decides when a trait is checked
(see :mod:`tileir.verify`): ``invariant`` traits run with the ODS-generated constraint checks,
``trait`` ones afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..ir.core import Operation
from ..ir.opdef import Trait
from ..types import I1, TileType, Type

if TYPE_CHECKING:  # pragma: no cover
    from ..text.format import OpState

__all__ = [
    "Pure", "Terminator", "ReturnLike", "IsolatedFromAbove", "SymbolTable", "Symbol",
    "NoRegionArguments", "SingleBlock", "SingleBlockImplicitTerminator", "ParentOneOf",
    "AllTypesMatch", "AllShapesMatch", "AllRanksMatch", "AllElementTypesMatch",
    "SameOperandsAndResultShape", "SameOperandsAndResultElementType", "SameOperandsShape",
    "TypesMatchWith", "named_types", "Marker", "FunctionLike", "AffineScope",
]


class Marker(Trait):
    """A trait that only marks a property (no check)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


Pure = Marker("Pure")
ReturnLike = Marker("ReturnLike")
SymbolTable = Marker("SymbolTable")
Symbol = Marker("Symbol")
FunctionLike = Marker("FunctionLike")
AffineScope = Marker("AutomaticAllocationScope")


class Terminator(Trait):
    """Must be the last op of its block."""

    def verify(self, op, emit) -> bool:
        block = op.parent
        if block is not None and block.ops and block.ops[-1] is not op:
            emit("must be the last operation in the parent block")
            return False
        return True


TERMINATOR = Terminator()


class IsolatedFromAbove(Trait):
    """Regions cannot use values defined outside the op."""


class NoRegionArguments(Trait):
    def verify(self, op, emit) -> bool:
        for i, region in enumerate(op.regions):
            if region.blocks and region.blocks[0].args:
                emit("region should have no arguments" if len(op.regions) == 1 else
                     f"region #{i} should have no arguments")
                return False
        return True


class SingleBlock(Trait):
    def verify(self, op, emit) -> bool:
        for i, region in enumerate(op.regions):
            if len(region.blocks) > 1:
                emit(f"expects region #{i} to have 0 or 1 blocks")
                return False
        return True


class SingleBlockImplicitTerminator(SingleBlock):
    """Single block whose terminator (``terminator`` op name) may be omitted in the text."""

    def __init__(self, terminator: str) -> None:
        self.terminator = terminator


class ParentOneOf(Trait):
    """The op's parent must be one of the given ops."""

    def __init__(self, *parents: str) -> None:
        self.parents = parents

    def verify(self, op, emit) -> bool:
        parent = op.parent_op
        if parent is None or parent.name not in self.parents:
            emit("expects parent op to be one of '" + ", ".join(self.parents) + "'")
            return False
        return True


def named_types(op: Operation, name: str) -> list[Type]:
    """Types of the operand or result group ``name`` of ``op``."""
    spec = op.SPEC
    if name in spec.operand_index:
        start, stop = spec.operand_range(op, name)
        return [v.type for v in op.operands[start:stop]]
    start, stop = spec.result_range(op, name)
    return [r.type for r in op.results[start:stop]]


class _GroupTrait(Trait):
    """A predicate over several named operand/result groups (ODS PredOpTrait)."""

    PHASE = "invariant"
    WHAT = ""

    def __init__(self, *names: str, message: Optional[str] = None) -> None:
        self.names = names
        self.message = message

    def describe(self) -> str:
        return self.message or ("failed to verify that all of {" + ", ".join(self.names) + "} "
                                + self.WHAT)

    def key(self, t: Type):  # pragma: no cover - overridden
        raise NotImplementedError

    def verify(self, op, emit) -> bool:
        keys = []
        for name in self.names:
            for t in named_types(op, name):
                keys.append(self.key(t))
        if any(k != keys[0] for k in keys[1:]):
            emit(self.describe())
            return False
        return True


class AllTypesMatch(_GroupTrait):
    WHAT = "have same type"

    def key(self, t: Type):
        return t

    def infer(self, state: "OpState") -> bool:
        """Copy a known type to the groups of this trait whose types are still unknown."""
        known = None
        for name in self.names:
            types = state.known_types(name)
            if types:
                known = types
                break
        if known is None:
            return False
        changed = False
        for name in self.names:
            if state.known_types(name) is None:
                kind = state.group_kind(name)
                if kind == "operand":
                    n = len(state.operands.get(name, [])) or len(known)
                    types = known if len(known) == n else [known[0]] * n
                    state.operand_types[name] = list(types)
                else:
                    state.result_types[name] = list(known)
                changed = True
        return changed


def _shape(t: Type):
    return getattr(t, "shape", None)


class AllShapesMatch(_GroupTrait):
    WHAT = "have same shape"

    def key(self, t: Type):
        return _shape(t)


class AllRanksMatch(_GroupTrait):
    WHAT = "have same rank"

    def key(self, t: Type):
        s = _shape(t)
        return None if s is None else len(s)


class AllElementTypesMatch(_GroupTrait):
    WHAT = "have the same element type"

    def key(self, t: Type):
        return getattr(t, "element", t)


class _NativeSame(Trait):
    """MLIR native traits over all operands (and results)."""

    MESSAGE = ""
    RESULTS = True

    def key(self, t: Type):  # pragma: no cover - overridden
        raise NotImplementedError

    def verify(self, op, emit) -> bool:
        types = [v.type for v in op.operands]
        if self.RESULTS:
            types += [r.type for r in op.results]
        keys = [self.key(t) for t in types]
        if any(k != keys[0] for k in keys[1:]):
            emit(self.MESSAGE)
            return False
        return True


class SameOperandsAndResultShape(_NativeSame):
    MESSAGE = "requires the same shape for all operands and results"

    def key(self, t):
        return _shape(t)


class SameOperandsShape(_NativeSame):
    MESSAGE = "requires the same shape for all operands"
    RESULTS = False

    def key(self, t):
        return _shape(t)


class SameOperandsAndResultElementType(_NativeSame):
    MESSAGE = "requires the same element type for all operands and results"

    def key(self, t):
        return getattr(t, "element", t)


class TypesMatchWith(Trait):
    """``to`` must equal ``transform(from)``; the transform also infers ``to`` when parsing.

    ``check(from_type, to_type) -> bool`` may replace the equality test."""

    PHASE = "invariant"

    def __init__(self, summary: str, from_: str, to: str,
                 transform: Optional[Callable[[Type], Optional[Type]]] = None,
                 check: Optional[Callable[[Type, Type], bool]] = None,
                 optional: bool = False, message: Optional[str] = None) -> None:
        self.summary = summary
        self.from_ = from_
        self.to = to
        self.transform = transform
        self.check = check
        self.optional = optional
        self.message = message

    def verify(self, op, emit) -> bool:
        src = named_types(op, self.from_)
        dst = named_types(op, self.to)
        if not src or not dst:
            return True
        ok = (self.check(src[0], dst[0]) if self.check is not None
              else self.transform(src[0]) == dst[0])
        if not ok:
            emit(self.message or f"failed to verify that {self.summary}")
            return False
        return True

    def infer(self, state: "OpState") -> bool:
        if self.transform is None or state.known_types(self.to) is not None:
            return False
        src = state.known_types(self.from_)
        if not src:
            return False
        if state.group_kind(self.to) == "operand" and not state.operands.get(self.to):
            return False
        out = self.transform(src[0])
        if out is None:
            return False
        if state.group_kind(self.to) == "operand":
            state.operand_types[self.to] = [out]
        else:
            state.result_types[self.to] = [out]
        return True


def i1_same_shape(t: Type) -> Optional[Type]:
    """``tile<SxE>`` -> ``tile<Sxi1>`` (cmpi/cmpf results)."""
    if isinstance(t, TileType):
        return TileType(t.shape, I1)
    return None
