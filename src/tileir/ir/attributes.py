"""Attributes: the :class:`Attribute` base, enum attributes and MLIR's builtin attributes.

Attributes are immutable values with structural equality.  ``str(attr)`` is the generic MLIR
spelling (``42 : i64``, ``"text"``, ``array<i32: 1, 0>``, ``#cuda_tile.rounding<zero>``); ops with
a custom syntax print their attributes through the op's format instead.  The builtin attributes
(integer, float, string, unit, type, array, dense array, dictionary, symbol reference, dense
elements, opaque) are the vocabulary of the generic syntax itself, so they live in the core, as
MLIR's ``BuiltinAttributes`` do; dialects add their own by subclassing :class:`Attribute`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .types import Type

__all__ = [
    "Attribute", "EnumAttr", "ENUM_MNEMONICS", "ENUMS_BY_NAME", "register_enum",
    "ENUM_MEMBER_SINCE", "enum_member_since",
    "IntegerAttr", "FloatAttr", "StringAttr", "UnitAttr", "UNIT", "TypeAttr", "ArrayAttr",
    "DenseArrayAttr", "DictionaryAttr", "SymbolRefAttr", "DenseElementsAttr", "OpaqueAttr",
    "splat_array",
    "quote_string", "format_attr_name", "format_named_attr", "format_symbol", "attr_without_type",
    "bool_attr", "i64_attr", "i32_attr", "signless_value",
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
# Enum attributes
# ---------------------------------------------------------------------------------------------

#: Enum class -> ``dialect.mnemonic`` of its generic spelling (``#cuda_tile.rounding<zero>``);
#: a dialect registers its enums here.  Enums without an entry are plain ``i32`` integers there.
ENUM_MNEMONICS: dict[type, str] = {}
#: ``dialect.mnemonic`` -> enum class: the inverse, used by the generic attribute parser.
ENUMS_BY_NAME: dict[str, type] = {}


def register_enum(enum_cls: type, dialect: str, mnemonic: str) -> None:
    """Give ``enum_cls`` the generic spelling ``#<dialect>.<mnemonic><keyword>``."""
    ENUM_MNEMONICS[enum_cls] = f"{dialect}.{mnemonic}"
    ENUMS_BY_NAME[f"{dialect}.{mnemonic}"] = enum_cls


#: ``(enum class, value) -> version``: enum members a dialect gained after its first version,
#: keyed by class and value because members of different IntEnums compare equal by value.
#: Older bytecode cannot encode them (the verifier's target-version check and the writer refuse
#: them; the reader of an older file treats the value as invalid, as that version's reader does).
ENUM_MEMBER_SINCE: dict[tuple[type, int], str] = {}


def enum_member_since(value) -> Optional[str]:
    """The version that introduced enum member ``value``; None for first-version members and for
    anything that is not an enum member."""
    if not isinstance(value, EnumAttr):
        return None
    return ENUM_MEMBER_SINCE.get((type(value), value.value))


class EnumAttr(Attribute, enum.IntEnum):
    """An enum attribute.  The keyword is the lower-cased member name; the integer is the value
    the bytecode stores.  Dialects subclass it (member-less subclasses may be subclassed again)."""

    @property
    def keyword(self) -> str:
        return self.name.lower()

    @classmethod
    def from_keyword(cls, keyword: str) -> Optional["EnumAttr"]:
        """The member spelled ``keyword`` (exactly: keywords are case-sensitive, as in MLIR)."""
        member = cls.__members__.get(keyword.upper())
        return member if member is not None and member.keyword == keyword else None

    @classmethod
    def keywords(cls) -> list[str]:
        return [m.keyword for m in cls]

    def generic(self) -> str:
        name = ENUM_MNEMONICS.get(type(self))
        if name is None:
            return f"{int(self)} : i32"
        return f"#{name}<{self.keyword}>"

    __str__ = generic


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
        from .floatfmt import format_float
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
        # MLIR elides the default types (i64, f64) of the elements of an array
        return "[" + ", ".join(_elided_default_type(a) for a in self.value) + "]"

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
        elif self.element.startswith(("f", "bf")):
            from .floatfmt import format_float
            body = ", ".join(format_float(v, self.element) for v in self.value)
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


def splat_array(value, shape: tuple, dtype) -> np.ndarray:
    """A read-only array of ``shape`` whose elements are all ``value``, in the memory of one
    element (MLIR keeps splats compact: ``dense<1.0> : tensor<4000000000xf32>`` is 4 bytes)."""
    return np.broadcast_to(np.asarray(value, dtype=dtype), tuple(shape))


class DenseElementsAttr(Attribute):
    """A dense constant: a NumPy array (in the element type's storage dtype) and its tile type.

    Printed by the cuda_tile ops as ``<f32: [1.0, 2.0]>`` and in generic form as
    ``dense<[1.0, 2.0]> : !cuda_tile.tile<2xf32>``; an array whose elements are all equal
    prints as a splat."""

    __slots__ = ("type", "array", "_splat")

    def __init__(self, type: "Type", array: np.ndarray) -> None:
        self.type = type
        self.array = array
        # a splat is kept as a zero-stride view of its one element (see splat_array)
        self._splat: Optional[bool] = True if array.size > 1 and not any(array.strides) \
            else None

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

    def _content(self) -> bytes:
        """The elements' bytes (one element for a splat: never materialized)."""
        a = self.array
        if a.size > 1 and self.is_splat:
            a = np.asarray(a[(0,) * a.ndim])
            prefix = b"splat"
        else:
            prefix = b""
        if a.dtype == object:  # (integers wider than 64 bits: Python ints, not their addresses)
            return prefix + repr(a.tolist()).encode()
        return prefix + np.ascontiguousarray(a).tobytes()

    def __eq__(self, other: Any) -> bool:
        return (isinstance(other, DenseElementsAttr) and self.type == other.type
                and self.array.shape == other.array.shape
                and self._content() == other._content())

    def __hash__(self) -> int:
        return hash((self.type, self._content()))

    def __repr__(self) -> str:
        return f"DenseElementsAttr({self.body()} : {self.type})"

    def _fmt_element(self, v) -> str:
        el = self.type.element
        name = getattr(el, "name", None)
        if name == "i1":
            return "true" if bool(v) else "false"
        if getattr(el, "is_integer", False):
            return str(int(v))
        from .floatfmt import format_float
        return format_float(v, name)

    def body(self) -> str:
        """The element list: a scalar for a splat, otherwise nested ``[...]`` lists (computed
        once: attributes are immutable)."""
        text = _DENSE_BODIES.get(id(self))
        if text is not None and text[0] is self:
            return text[1]
        a = self.array
        if a.size == 0:
            body = ""
        elif self.is_splat:
            body = self._fmt_element(a[(0,) * a.ndim])
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
        from .densefloat import format_float_elements
        return format_float_elements(a.reshape(-1), name)

    def _nested(self, a: np.ndarray) -> str:
        if a.ndim == 0:
            return self._fmt_element(a[()])
        if a.size == 0:
            return "[" + ", ".join(self._nested(sub) for sub in a) + "]"
        from .densefloat import format_float_nested, nest_texts
        name = getattr(self.type.element, "name", None)
        if name in ("f32", "f64"):
            return format_float_nested(a, name)
        return nest_texts(self._elements_text(a.reshape(-1)), a.shape)

    def generic(self) -> str:
        return f"dense<{self.body()}> : {self.type}"

    def element_text(self) -> str:
        return self.type.element.short


def attr_without_type(attr: Attribute) -> str:
    """MLIR's ``printAttributeWithoutType``: ``2`` for ``2 : i64``, ``1.5`` for ``1.5 : f32``."""
    if isinstance(attr, IntegerAttr):
        from .types import I1
        if attr.type is I1:
            return "true" if attr.value else "false"
        return str(attr.value)
    if isinstance(attr, FloatAttr):
        from .floatfmt import format_float
        return format_float(attr.value, attr.type.name)
    return attr.generic()


def _elided_default_type(attr: Attribute) -> str:
    """``attr`` as MLIR prints it where its type may be elided: ``2`` for ``2 : i64``,
    ``1.5`` for ``1.5 : f64``; other types stay."""
    from .types import F64, I64
    if isinstance(attr, IntegerAttr) and attr.type is I64:
        return str(attr.value)
    if isinstance(attr, FloatAttr) and attr.type is F64:
        text = attr_without_type(attr)
        # a hexadecimal spelling (inf, NaN) would read back as an integer: keep its type
        return text if not text.startswith(("0x", "-0x")) else attr.generic()
    return attr.generic()


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
