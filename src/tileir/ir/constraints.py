"""Type constraints on operands and results, with MLIR/ODS-style summaries.

A constraint knows how to test a type and how to describe itself; the verifier builds messages
such as ``operand #0 must be 0D tile of i1 values, but got '!cuda_tile.tile<i32>'`` from it.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from ..dialects.cuda_tile.types import ElementType, TileType, Type

__all__ = ["TypeConstraint", "AnyType", "TypeIs", "TileOf", "Pred", "AnyOf", "ANY_TYPE"]


class TypeConstraint:
    """A predicate on types with a human-readable ``summary``.  ``buildable`` is the one type the
    constraint admits when it admits exactly one (ODS BuildableType): parsers infer it."""

    __slots__ = ("summary", "buildable")

    def __init__(self, summary: str, buildable: Optional[Type] = None) -> None:
        self.summary = summary
        self.buildable = buildable

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


class Pred(TypeConstraint):
    """An arbitrary predicate."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[Type], bool], summary: str) -> None:
        super().__init__(summary)
        self.fn = fn

    def check(self, t: Type) -> bool:
        return bool(self.fn(t))


class AnyOf(TypeConstraint):
    __slots__ = ("options",)

    def __init__(self, options: Sequence[TypeConstraint], summary: Optional[str] = None) -> None:
        super().__init__(summary or " or ".join(o.summary for o in options))
        self.options = tuple(options)

    def check(self, t: Type) -> bool:
        return any(o.check(t) for o in self.options)


class TileOf(TypeConstraint):
    """``tile`` with an element type from ``elements`` and optionally a rank from ``ranks``.

    ``elements`` holds element types, or the :class:`PointerType` class for "Pointer type"."""

    __slots__ = ("elements", "ranks", "element_summary", "_cache")

    def __init__(self, elements: Sequence, ranks: Optional[Sequence[int]] = None,
                 element_names: Optional[Sequence[str]] = None,
                 prefix: Optional[str] = None) -> None:
        self.elements = tuple(elements)
        self.ranks = tuple(ranks) if ranks is not None else None
        names = element_names or [e.name if isinstance(e, ElementType) else "Pointer type"
                                  for e in self.elements]
        self.element_summary = " or ".join(names)
        if prefix is None:
            prefix = "tile" if ranks is None else "/".join(f"{r}D" for r in ranks) + " tile"
        buildable = None
        if self.ranks == (0,) and len(self.elements) == 1 and isinstance(self.elements[0], ElementType):
            buildable = TileType((), self.elements[0])
        super().__init__(f"{prefix} of {self.element_summary} values", buildable)
        self._cache: dict = {}

    def check(self, t: Type) -> bool:
        try:
            return self._cache[t]
        except KeyError:
            pass
        ok = self._check(t)
        if len(self._cache) < 4096:
            self._cache[t] = ok
        return ok

    def _check(self, t: Type) -> bool:
        if not isinstance(t, TileType):
            return False
        if self.ranks is not None and t.rank not in self.ranks:
            return False
        return self.element_ok(t.element)

    def element_ok(self, el: Type) -> bool:
        for e in self.elements:
            if isinstance(e, type):
                if isinstance(el, e):
                    return True
            elif el is e:
                return True
        return False
