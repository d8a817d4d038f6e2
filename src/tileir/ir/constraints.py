"""Type constraints on operands and results, with MLIR/ODS-style summaries.

A constraint knows how to test a type and how to describe itself; the verifier builds messages
such as ``operand #0 must be 0D tile of i1 values, but got '!cuda_tile.tile<i32>'`` from it.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from .types import Type

__all__ = ["TypeConstraint", "AnyType", "TypeIs", "Pred", "AnyOf", "ANY_TYPE"]


#: ``(is_instance, name)``: the class of types a constraint is stored as (ODS's C++ type, e.g.
#: ``MemRefType``) and MLIR's name for it (``builtin.memref``; None for a base class without one)
Storage = tuple[Callable[[Type], bool], Optional[str]]


class TypeConstraint:
    """A predicate on types with a human-readable ``summary``.  ``buildable`` is the one type the
    constraint admits when it admits exactly one (ODS BuildableType): parsers infer it.
    ``storage`` is the class of types the generated parser reads a ``type($x)`` of a single value
    as (None: any type); a type of another class is a parse error there."""

    __slots__ = ("summary", "buildable", "storage")

    def __init__(self, summary: str, buildable: Optional[Type] = None,
                 storage: Optional[Storage] = None) -> None:
        self.summary = summary
        self.buildable = buildable
        self.storage = storage

    def check(self, t: Type) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<constraint {self.summary}>"


class AnyType(TypeConstraint):
    __slots__ = ()

    def __init__(self, summary: str = "any type") -> None:
        super().__init__(summary)

    def check(self, t: Type) -> bool:
        return True


ANY_TYPE = AnyType()


class TypeIs(TypeConstraint):
    """Matches instances of a type class, or one specific type."""

    __slots__ = ("what",)

    def __init__(self, what, summary: str) -> None:
        buildable = None
        if isinstance(what, type) and what.__name__ == "TokenType":
            buildable = what()
        super().__init__(summary, buildable)
        self.what = what

    def check(self, t: Type) -> bool:
        if isinstance(self.what, type):
            return isinstance(t, self.what)
        return t is self.what


#: How many verdicts a :class:`Pred` remembers (types are interned: a verdict per type object).
_PRED_MEMO_LIMIT = 4096


class Pred(TypeConstraint):
    """An arbitrary predicate of the type alone (its verdicts are remembered per type)."""

    __slots__ = ("fn", "_memo")

    def __init__(self, fn: Callable[[Type], bool], summary: str,
                 storage: Optional[Storage] = None) -> None:
        super().__init__(summary, storage=storage)
        self.fn = fn
        self._memo: dict = {}

    def check(self, t: Type) -> bool:
        got = self._memo.get(t)
        if got is None:
            got = bool(self.fn(t))
            if len(self._memo) < _PRED_MEMO_LIMIT:
                self._memo[t] = got
        return got


class AnyOf(TypeConstraint):
    __slots__ = ("options",)

    def __init__(self, options: Sequence[TypeConstraint], summary: Optional[str] = None) -> None:
        super().__init__(summary or " or ".join(o.summary for o in options))
        self.options = tuple(options)

    def check(self, t: Type) -> bool:
        return any(o.check(t) for o in self.options)
