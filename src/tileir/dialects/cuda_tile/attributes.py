"""Attributes and enums of the cuda_tile dialect; the MLIR builtin attributes it uses come from
:mod:`tileir.ir.attributes` and are re-exported here.

Attributes are immutable values with structural equality.  ``str(attr)`` is the generic MLIR
spelling (``#cuda_tile.rounding<zero>``, ``#cuda_tile.div_by<8>``); ops with a custom syntax
print their attributes through the op's format instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Optional

from ...ir.locations import FileLineColLoc, Location
from ...ir.attributes import (UNIT, ArrayAttr, Attribute, DenseArrayAttr,  # noqa: F401
                              DenseElementsAttr, DictionaryAttr, EnumAttr, FloatAttr, IntegerAttr,
                              OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr,
                              attr_without_type, bool_attr, format_attr_name, format_named_attr,
                              format_symbol, i32_attr, i64_attr, quote_string, register_enum, signless_value,
                              ENUM_MEMBER_SINCE, enum_member_since)

__all__ = [
    "Attribute", "TileEnum", "Signedness", "IntegerOverflow", "RoundingMode", "ComparisonOrdering",
    "ComparisonPredicate", "AtomicRMWMode", "MemoryScope", "MemoryOrderingSemantics",
    "PaddingValue", "SymbolVisibility", "ENUMS_BY_MNEMONIC", "IEEE_ROUNDING_MODES", "enum_member_since",
    "IntegerAttr", "FloatAttr", "StringAttr", "UnitAttr", "UNIT", "TypeAttr", "ArrayAttr",
    "DenseArrayAttr", "DictionaryAttr", "SymbolRefAttr", "DenseElementsAttr",
    "OptimizationHintsAttr", "DivByAttr", "SameElementsAttr", "BoundedAttr", "AssumePredicate",
    "DIFileAttr", "DILoc", "DICompileUnitAttr", "DISubprogramAttr", "DILexicalBlockAttr", "OpaqueAttr",
    "quote_string", "bool_attr", "i64_attr", "i32_attr",
]


# ---------------------------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------------------------

class TileEnum(EnumAttr):
    """An enum of the cuda_tile dialect (see :class:`~tileir.ir.attributes.EnumAttr`); those in
    ``_MNEMONICS`` spell ``#cuda_tile.<mnemonic><keyword>`` in the generic form, the others are
    plain ``i32`` integers there."""


class Signedness(TileEnum):
    UNSIGNED = 0
    SIGNED = 1


class IntegerOverflow(TileEnum):
    NONE = 0
    NO_SIGNED_WRAP = 1
    NO_UNSIGNED_WRAP = 2
    NO_WRAP = 3


class RoundingMode(TileEnum):
    NEAREST_EVEN = 0
    ZERO = 1
    NEGATIVE_INF = 2
    POSITIVE_INF = 3
    APPROX = 4
    FULL = 5
    NEAREST_INT_TO_ZERO = 6
    NEAREST_AWAY = 7          # bytecode 13.4: ftof only (round to nearest, ties away from zero)


#: Enum members that Tile IR gained after 13.1 (see :func:`enum_member_since`).
ENUM_MEMBER_SINCE[(RoundingMode, RoundingMode.NEAREST_AWAY.value)] = "13.4"


#: The IEEE-754 rounding modes, in the order NVIDIA's messages list them.
IEEE_ROUNDING_MODES = (RoundingMode.NEAREST_EVEN, RoundingMode.ZERO, RoundingMode.NEGATIVE_INF,
                       RoundingMode.POSITIVE_INF)


class ComparisonOrdering(TileEnum):
    UNORDERED = 0
    ORDERED = 1


class ComparisonPredicate(TileEnum):
    EQUAL = 0
    NOT_EQUAL = 1
    LESS_THAN = 2
    LESS_THAN_OR_EQUAL = 3
    GREATER_THAN = 4
    GREATER_THAN_OR_EQUAL = 5


class AtomicRMWMode(TileEnum):
    AND = 0
    OR = 1
    XOR = 2
    ADD = 3
    ADDF = 4
    MAX = 5
    MIN = 6
    UMAX = 7
    UMIN = 8
    XCHG = 9


class MemoryScope(TileEnum):
    TL_BLK = 0
    DEVICE = 1
    SYS = 2


class MemoryOrderingSemantics(TileEnum):
    WEAK = 0
    RELAXED = 1
    ACQUIRE = 2
    RELEASE = 3
    ACQ_REL = 4


class PaddingValue(TileEnum):
    ZERO = 0
    NEG_ZERO = 1
    NAN = 2
    POS_INF = 3
    NEG_INF = 4


class SymbolVisibility(TileEnum):
    PUBLIC = 0
    PRIVATE = 1


_MNEMONICS: dict[type, str] = {
    Signedness: "signedness", IntegerOverflow: "overflow", RoundingMode: "rounding",
    ComparisonOrdering: "comparison_ordering", ComparisonPredicate: "comparison_predicate",
    PaddingValue: "padding_value", SymbolVisibility: "symbol_visibility",
}

#: ``#cuda_tile.<mnemonic><keyword>`` -> enum class.
ENUMS_BY_MNEMONIC: dict[str, type[TileEnum]] = {m: cls for cls, m in _MNEMONICS.items()}
for _cls, _mnemonic in _MNEMONICS.items():
    register_enum(_cls, "cuda_tile", _mnemonic)


@dataclass(frozen=True, slots=True)
class OptimizationHintsAttr(Attribute):
    """``optimization_hints<sm_100 = {num_cta_in_cga = 2}, ...>``: per-architecture hints.

    ``entries`` keeps the written order of architectures (MLIR keeps a dictionary, sorted)."""

    entries: tuple  # tuple[tuple[str, DictionaryAttr], ...]

    def body(self) -> str:
        """``arch = {key = value, ...}, ...``: architectures and keys sorted (MLIR dictionaries),
        values printed without their type (NVIDIA prints them with printAttributeWithoutType)."""
        parts = []
        for k, v in sorted(self.entries, key=lambda kv: kv[0]):
            items = sorted(v.entries, key=lambda kv: kv[0]) if isinstance(v, DictionaryAttr) else ()
            inner = ", ".join(f"{format_attr_name(name)} = {hint_value_text(a)}"
                              for name, a in items)
            parts.append(f"{format_attr_name(k)} = {{{inner}}}")
        return ", ".join(parts)

    def generic(self) -> str:
        return f"#cuda_tile.optimization_hints<{self.body()}>"

    def get(self, arch: str) -> Optional[DictionaryAttr]:
        for k, v in self.entries:
            if k == arch:
                return v
        return None


def hint_value_text(attr: Attribute) -> str:
    """An optimization-hint value as NVIDIA prints it (without its type) when that text reads
    back as the same attribute (an ``i64`` or ``i1`` integer, an ``f64`` float with a decimal
    spelling); otherwise with its type (``3 : i32``, ``0x7FF0000000000000 : f64``) so that the
    printed text parses back to the same IR."""
    from .types import F64, I1, I64
    if isinstance(attr, IntegerAttr) and attr.type in (I1, I64):
        return attr_without_type(attr)
    if isinstance(attr, FloatAttr) and attr.type == F64:
        text = attr_without_type(attr)
        if not text.startswith(("0x", "-0x")):
            return text
    return attr.generic()


class AssumePredicate(Attribute):
    """Base of the predicates of ``cuda_tile.assume``."""

    __slots__ = ()

    def body(self) -> str:
        raise NotImplementedError

    def generic(self) -> str:
        return "#cuda_tile." + self.body()


@dataclass(frozen=True, slots=True)
class DivByAttr(AssumePredicate):
    """``div_by<N [, every E along A]>``."""

    divisor: int
    every: Optional[int] = None
    along: Optional[int] = None

    def body(self) -> str:
        if self.every is None:
            return f"div_by<{self.divisor}>"
        return f"div_by<{self.divisor}, every {self.every} along {self.along}>"


@dataclass(frozen=True, slots=True)
class SameElementsAttr(AssumePredicate):
    """``same_elements<[c0, c1, ...]>``."""

    values: tuple

    def body(self) -> str:
        return "same_elements<[" + ", ".join(map(str, self.values)) + "]>"


@dataclass(frozen=True, slots=True)
class BoundedAttr(AssumePredicate):
    """``bounded<lb|?, ub|?>`` (inclusive, signed)."""

    lb: Optional[int]
    ub: Optional[int]

    def body(self) -> str:
        lb = "?" if self.lb is None else str(self.lb)
        ub = "?" if self.ub is None else str(self.ub)
        return f"bounded<{lb}, {ub}>"


# ---------------------------------------------------------------------------------------------
# Debug info attributes
# ---------------------------------------------------------------------------------------------

class DIAttr(Attribute):
    """Base of the debug-info attributes; they print with aliases (``#di_file``...)."""

    __slots__ = ()
    ALIAS: ClassVar[str] = "di"

    def body(self, ref) -> str:
        """The text after ``#cuda_tile.``; ``ref(attr)`` spells a nested attribute."""
        raise NotImplementedError

    def generic(self) -> str:
        return "#cuda_tile." + self.body(lambda a: a.generic())

    # the printer's alias protocol (``tileir.text.printer``): what to alias first, and the
    # text of ``#alias = <definition>``
    def alias_children(self) -> list:
        return [v for v in (getattr(self, n, None) for n in ("file", "compile_unit", "scope"))
                if isinstance(v, DIAttr)]

    def alias_definition(self, ref) -> str:
        return "#cuda_tile." + self.body(ref)


@dataclass(frozen=True, slots=True)
class DIFileAttr(DIAttr):
    name: str
    directory: str
    ALIAS: ClassVar[str] = "di_file"

    def body(self, ref) -> str:
        return f"di_file<{quote_string(self.name)} in {quote_string(self.directory)}>"


@dataclass(frozen=True, slots=True)
class DICompileUnitAttr(DIAttr):
    file: DIFileAttr
    ALIAS: ClassVar[str] = "di_compile_unit"

    def body(self, ref) -> str:
        return f"di_compile_unit<file = {ref(self.file)}>"


@dataclass(frozen=True, slots=True)
class DISubprogramAttr(DIAttr):
    file: DIFileAttr
    line: int
    name: str
    linkage_name: str
    compile_unit: DICompileUnitAttr
    scope_line: Optional[int] = None
    ALIAS: ClassVar[str] = "di_subprogram"

    def body(self, ref) -> str:
        text = (f"di_subprogram<file = {ref(self.file)}, line = {self.line}, "
                f"name = {quote_string(self.name)}, linkageName = {quote_string(self.linkage_name)}, "
                f"compileUnit = {ref(self.compile_unit)}")
        if self.scope_line is not None:
            text += f", scopeLine = {self.scope_line}"
        return text + ">"


@dataclass(frozen=True, slots=True)
class DILexicalBlockAttr(DIAttr):
    scope: DIAttr
    file: DIFileAttr
    line: int
    column: Optional[int] = None
    ALIAS: ClassVar[str] = "di_lexical_block"

    def body(self, ref) -> str:
        text = f"di_lexical_block<scope = {ref(self.scope)}, file = {ref(self.file)}, line = {self.line}"
        if self.column is not None:
            text += f", column = {self.column}"
        return text + ">"


@dataclass(frozen=True, slots=True)
class DILoc(Location):
    """``#cuda_tile.di_loc<loc("f.py":3:4) in #subprogram>``: a position with a debug scope."""

    source: FileLineColLoc
    scope: DIAttr

    def body(self, ref=None) -> str:
        if ref is None:
            return f"#cuda_tile.di_loc<loc({self.source.body()}) in {self.scope.generic()}>"
        # with aliases (``-mlir-print-debuginfo``) the source location prints as its alias
        source = ref(self.source)
        if not source.startswith("#"):
            source = f"loc({source})"
        return f"#cuda_tile.di_loc<{source} in {ref(self.scope)}>"

    def file_line_col(self) -> FileLineColLoc:
        return self.source

    def alias_children(self) -> list:
        return [self.source, self.scope]

    def alias_definition(self, ref) -> str:
        return self.body(ref)
