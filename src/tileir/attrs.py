"""Attributes and enums of the cuda_tile dialect, plus the MLIR builtin attributes it uses.

Attributes are immutable values with structural equality.  ``str(attr)`` is the generic MLIR
spelling (``#cuda_tile.rounding<zero>``, ``42 : i64``, ``"text"``, ``array<i32: 1, 0>``); ops with a
custom syntax print their attributes through the op's format instead.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Optional

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .types import Type

__all__ = [
    "Attribute", "TileEnum", "Signedness", "IntegerOverflow", "RoundingMode", "ComparisonOrdering",
    "ComparisonPredicate", "AtomicRMWMode", "MemoryScope", "MemoryOrderingSemantics",
    "PaddingValue", "SymbolVisibility", "ENUMS_BY_MNEMONIC", "IEEE_ROUNDING_MODES", "enum_member_since",
    "IntegerAttr", "FloatAttr", "StringAttr", "UnitAttr", "UNIT", "TypeAttr", "ArrayAttr",
    "DenseArrayAttr", "DictionaryAttr", "SymbolRefAttr", "DenseElementsAttr",
    "OptimizationHintsAttr", "DivByAttr", "SameElementsAttr", "BoundedAttr", "AssumePredicate",
    "DIFileAttr", "DICompileUnitAttr", "DISubprogramAttr", "DILexicalBlockAttr", "OpaqueAttr",
    "quote_string", "bool_attr", "i64_attr", "i32_attr",
]


class Attribute:
    """Base class of all attributes."""

    __slots__ = ()

    def generic(self) -> str:
        """The generic MLIR spelling of this attribute."""
        raise NotImplementedError(type(self).__name__)

    def __str__(self) -> str:
        return self.generic()


# ---------------------------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------------------------

class TileEnum(Attribute, enum.IntEnum):
    """An enum of the dialect.  The keyword is the lower-cased member name; the integer is the
    value the bytecode stores.  ``MNEMONIC`` is the attribute mnemonic of the generic form
    (``#cuda_tile.rounding<zero>``); enums without one are plain ``i32`` integers there."""

    @property
    def keyword(self) -> str:
        return self.name.lower()

    @classmethod
    def from_keyword(cls, keyword: str) -> Optional["TileEnum"]:
        """The member spelled ``keyword`` (exactly: keywords are case-sensitive, as in MLIR)."""
        member = cls.__members__.get(keyword.upper())
        return member if member is not None and member.keyword == keyword else None

    @classmethod
    def keywords(cls) -> list[str]:
        return [m.keyword for m in cls]

    def generic(self) -> str:
        mnemonic = _MNEMONICS.get(type(self))
        if mnemonic is None:
            return f"{int(self)} : i32"
        return f"#cuda_tile.{mnemonic}<{self.keyword}>"

    __str__ = generic


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


#: Enum members that Tile IR gained after 13.1, keyed by (enum class, value) because members
#: of different IntEnums compare equal by value: the first version that has each.  Older
#: bytecode cannot encode them (the verifier's target-version check and the writer refuse them;
#: the reader of an older file treats the value as invalid, as that version's reader does).
_MEMBER_SINCE: dict = {(RoundingMode, RoundingMode.NEAREST_AWAY.value): "13.4"}


def enum_member_since(value) -> Optional[str]:
    """The Tile IR version that introduced enum member ``value``; None for 13.1's members and
    for anything that is not an enum member."""
    if not isinstance(value, TileEnum):
        return None
    return _MEMBER_SINCE.get((type(value), value.value))


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


# ---------------------------------------------------------------------------------------------
# Builtin attributes
# ---------------------------------------------------------------------------------------------

def quote_string(text: str | bytes) -> str:
    """Quote a string as MLIR prints it (llvm::printEscapedString): printable ASCII kept,
    ``\\`` doubled, ``"`` and every other byte as ``\\XX`` (upper-case hex)."""
    data = text.encode("utf-8", "surrogateescape") if isinstance(text, str) else text
    if data.isascii() and data.isalnum():
        return '"' + data.decode() + '"'
    out = ['"']
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x20 <= b < 0x7F and b != 0x22:
            out.append(chr(b))
        else:
            out.append("\\" + format(b, "02X"))
    out.append('"')
    return "".join(out)


@dataclass(frozen=True, slots=True)
class IntegerAttr(Attribute):
    """An integer (or ``i1`` boolean) with its type; default type i64 like MLIR."""

    value: int
    type: "Type"

    def generic(self) -> str:
        from .types import I1
        if self.type is I1:
            return "true" if self.value else "false"
        return f"{self.value} : {self.type}"


def signless_value(value: int, width: int) -> Optional[int]:
    """``value`` as a ``width``-bit signless integer attribute holds it, or None if it does not
    fit.  Like MLIR's APInt, literals from ``-2**(width-1)`` to ``2**width - 1`` are accepted and
    read back signed (``9223372036854775808 : i64`` is ``-9223372036854775808``); ``i1`` keeps
    0 or 1.  The text parsers store integer attributes through this, so they hold the values
    the bytecode reader's sign extension gives, and mean the same after any round trip."""
    if value < -(1 << (width - 1)) or value >= (1 << width):
        return None
    if width == 1:
        return value & 1
    if value >= 1 << (width - 1):
        return value - (1 << width)
    return value


@dataclass(frozen=True, slots=True)
class FloatAttr(Attribute):
    value: float
    type: "Type"

    def generic(self) -> str:
        from .text.floatfmt import format_float
        return f"{format_float(self.value, self.type.name)} : {self.type}"


@dataclass(frozen=True, slots=True)
class StringAttr(Attribute):
    value: str

    def generic(self) -> str:
        return quote_string(self.value)


class _Unit(Attribute):
    __slots__ = ()

    def generic(self) -> str:
        return "unit"

    def __repr__(self) -> str:
        return "UNIT"


#: The unit attribute (presence flag).
UNIT = _Unit()
UnitAttr = _Unit


@dataclass(frozen=True, slots=True)
class TypeAttr(Attribute):
    value: "Type"

    def generic(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class ArrayAttr(Attribute):
    value: tuple

    def generic(self) -> str:
        return "[" + ", ".join(a.generic() for a in self.value) + "]"

    def __iter__(self):
        return iter(self.value)

    def __len__(self) -> int:
        return len(self.value)


@dataclass(frozen=True, slots=True)
class DenseArrayAttr(Attribute):
    """``array<i32: 1, 2>``: a dense array of integers (or bools, or floats) of one element type."""

    element: str
    value: tuple

    def generic(self) -> str:
        if not self.value:
            return f"array<{self.element}>"
        if self.element == "i1":
            body = ", ".join("true" if v else "false" for v in self.value)
        else:
            body = ", ".join(str(v) for v in self.value)
        return f"array<{self.element}: {body}>"


@dataclass(frozen=True, slots=True)
class DictionaryAttr(Attribute):
    """A dictionary kept sorted by name, as MLIR does."""

    entries: tuple  # tuple[tuple[str, Attribute], ...]

    @staticmethod
    def of(mapping: dict) -> "DictionaryAttr":
        return DictionaryAttr(tuple(sorted(mapping.items())))

    def get(self, name: str, default=None):
        for k, v in self.entries:
            if k == name:
                return v
        return default

    def as_dict(self) -> dict:
        return dict(self.entries)

    def generic(self) -> str:
        return "{" + ", ".join(format_named_attr(k, v) for k, v in self.entries) + "}"


def format_attr_name(name: str) -> str:
    """Attribute names print bare when they are identifiers, quoted otherwise."""
    import re
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return name
    return quote_string(name)


def format_named_attr(name: str, value: Attribute) -> str:
    if value is UNIT:
        return format_attr_name(name)
    return f"{format_attr_name(name)} = {value.generic()}"


def format_symbol(name: str) -> str:
    import re
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name):
        return "@" + name
    return "@" + quote_string(name)


@dataclass(frozen=True, slots=True)
class SymbolRefAttr(Attribute):
    """``@name`` (optionally ``@root::@nested``)."""

    root: str
    nested: tuple = ()

    def generic(self) -> str:
        return "::".join(format_symbol(n) for n in (self.root, *self.nested))


#: id(attr) -> (attr, printed element list): dense bodies are printed once
_DENSE_BODIES: dict = {}


class DenseElementsAttr(Attribute):
    """A dense constant: a NumPy array (in the element type's storage dtype) and its tile type.

    Printed by the cuda_tile ops as ``<f32: [1.0, 2.0]>`` and in generic form as
    ``dense<[1.0, 2.0]> : !cuda_tile.tile<2xf32>``; an array whose elements are all equal
    prints as a splat."""

    __slots__ = ("type", "array", "_splat")

    def __init__(self, type: "Type", array: np.ndarray) -> None:
        self.type = type
        self.array = array
        self._splat: Optional[bool] = None

    @property
    def element(self):
        return self.type.element

    @property
    def is_splat(self) -> bool:
        if self._splat is None:
            a = self.array
            if a.size <= 1:
                self._splat = True
            else:
                flat = a.reshape(-1)
                if flat.dtype.kind == "f" or flat.dtype.kind == "V" or flat.dtype.itemsize <= 2:
                    raw = np.ascontiguousarray(flat).view(np.uint8).reshape(flat.size, -1)
                    self._splat = bool((raw == raw[0]).all())
                else:
                    self._splat = bool((flat == flat[0]).all())
        return self._splat

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, DenseElementsAttr) and self.type == other.type
                and self.array.shape == other.array.shape
                and np.ascontiguousarray(self.array).tobytes()
                == np.ascontiguousarray(other.array).tobytes())

    def __hash__(self) -> int:
        return hash((self.type, np.ascontiguousarray(self.array).tobytes()))

    def __repr__(self) -> str:
        return f"DenseElementsAttr({self.body()} : {self.type})"

    def _fmt_element(self, v) -> str:
        el = self.type.element
        name = getattr(el, "name", None)
        if name == "i1":
            return "true" if bool(v) else "false"
        if getattr(el, "is_integer", False):
            return str(int(v))
        from .text.floatfmt import format_float
        return format_float(v, name)

    def body(self) -> str:
        """The element list: a scalar for a splat, otherwise nested ``[...]`` lists (computed
        once: attributes are immutable)."""
        text = _DENSE_BODIES.get(id(self))
        if text is not None and text[0] is self:
            return text[1]
        a = self.array
        if self.is_splat and a.size >= 1:
            body = self._fmt_element(a.reshape(-1)[0])
        else:
            body = self._nested(a)
        if len(_DENSE_BODIES) > 4096:
            _DENSE_BODIES.clear()
        _DENSE_BODIES[id(self)] = (self, body)
        return body

    def _elements_text(self, a: np.ndarray) -> list:
        el = self.type.element
        name = getattr(el, "name", None)
        if name == "i1":
            return ["true" if v else "false" for v in a.tolist()]
        if getattr(el, "is_integer", False):
            return [str(int(v)) for v in a.tolist()]
        from .text.densefloat import format_float_elements
        return format_float_elements(a.reshape(-1), name)

    def _nested(self, a: np.ndarray) -> str:
        if a.ndim == 0:
            return self._fmt_element(a[()])
        if a.size == 0:
            return "[" + ", ".join(self._nested(sub) for sub in a) + "]"
        # every element at once, then grouped innermost dimension first
        items = self._elements_text(a.reshape(-1))
        for extent in reversed(a.shape):
            items = ["[" + ", ".join(items[i:i + extent]) + "]"
                     for i in range(0, len(items), extent)] if extent else ["[]"]
        return items[0]

    def generic(self) -> str:
        return f"dense<{self.body()}> : {self.type}"

    def element_text(self) -> str:
        return self.type.element.short


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


def attr_without_type(attr: Attribute) -> str:
    """MLIR's ``printAttributeWithoutType``: ``2`` for ``2 : i64``, ``1.5`` for ``1.5 : f32``."""
    if isinstance(attr, IntegerAttr):
        from .types import I1
        if attr.type is I1:
            return "true" if attr.value else "false"
        return str(attr.value)
    if isinstance(attr, FloatAttr):
        from .text.floatfmt import format_float
        return format_float(attr.value, attr.type.name)
    return attr.generic()


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
class OpaqueAttr(Attribute):
    """An attribute we do not model (another dialect's, or builtin forms we keep verbatim)."""

    text: str

    def generic(self) -> str:
        return self.text


# ---------------------------------------------------------------------------------------------
# Small constructors
# ---------------------------------------------------------------------------------------------

def bool_attr(value: bool) -> IntegerAttr:
    from .types import I1
    return IntegerAttr(1 if value else 0, I1)


def i64_attr(value: int) -> IntegerAttr:
    from .types import I64
    return IntegerAttr(int(value), I64)


def i32_attr(value: int) -> IntegerAttr:
    from .types import I32
    return IntegerAttr(int(value), I32)
