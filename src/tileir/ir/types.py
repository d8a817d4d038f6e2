"""Types: the interned :class:`Type` base and the builtin types every dialect shares.

Types are immutable and interned: constructing the same type twice returns the same object, so
``is`` and ``==`` agree and types can be used as dictionary keys cheaply.  Every type has two
spellings: the *short* form a dialect's custom syntax uses (``tile<4xf32>``) and the *full* form
used in the generic syntax and in diagnostics (``!cuda_tile.tile<4xf32>``).  ``str(t)`` is the
full form.  Builtin types (``i32``, ``f32``, function types) spell both the same.

Here live the builtin types (MLIR's ``BuiltinTypes``) that the generic syntax itself is made of:
signless integers, the float formats of :data:`~tileir.ir.dtypes.FLOAT_FORMATS`, function types,
and :class:`BuiltinType` for any other type kept verbatim.  A dialect defines its own types by
subclassing :class:`Type` with ``DIALECT = "<name>"``.
"""

from __future__ import annotations

from typing import Callable, ClassVar, Sequence

from .dtypes import FLOAT_FORMATS

__all__ = [
    "Type", "ElementType", "IntegerType", "FloatType", "FunctionType", "BuiltinType",
    "ELEMENT_TYPES", "element_type", "OTHER_FLOAT_WIDTHS", "TYPE_PARSERS", "type_from_text",
    "I1", "I4", "I8", "I16", "I32", "I64", "F16", "BF16", "F32", "TF32", "F64",
    "F8E4M3FN", "F8E5M2", "F8E8M0FNU", "F4E2M1FN",
]

#: The text parser (``tileir.text`` registers ``parse_type`` here when imported); types pickle
#: as their full spelling and unpickle through it.
TYPE_PARSERS: list[Callable[[str], "Type"]] = []


def type_from_text(text: str) -> "Type":
    """The type spelled ``text`` (needs ``tileir.text``, which ``import tileir`` loads)."""
    if not TYPE_PARSERS:
        raise RuntimeError("no type parser registered: import tileir first")
    return TYPE_PARSERS[0](text)


_INTERNED: dict = {}


class Type:
    """Base of all types.  Subclasses define ``_make_short`` and are constructed via ``_intern``."""

    __slots__ = ("_short", "_full", "__weakref__")
    #: The dialect whose ``!dialect.`` prefix the full form carries ("" for builtin types,
    #: which print the same in both forms).
    DIALECT: ClassVar[str] = ""

    @classmethod
    def _intern(cls, key: tuple, *fields):
        full_key = (cls, key)
        found = _INTERNED.get(full_key)
        if found is not None:
            return found
        obj = object.__new__(cls)
        obj._init(*fields)
        obj._short = obj._make_short()
        obj._full = f"!{cls.DIALECT}.{obj._short}" if cls.DIALECT else obj._short
        _INTERNED[full_key] = obj
        return obj

    def _init(self, *fields) -> None:  # pragma: no cover - overridden
        pass

    def _make_short(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    @property
    def short(self) -> str:
        """The short spelling used inside cuda_tile ops, e.g. ``tile<4xf32>``."""
        return self._short

    def __str__(self) -> str:
        return self._full

    def __repr__(self) -> str:
        return f"<type {self._full}>"

    def __reduce__(self):
        return (type_from_text, (self._full,))

    # Interning makes identity the structural equality.
    __eq__ = object.__eq__
    __hash__ = object.__hash__


# ---------------------------------------------------------------------------------------------
# Element types (§5.1)
# ---------------------------------------------------------------------------------------------

class ElementType(Type):
    """A scalar element type: a signless integer or a floating-point format."""

    __slots__ = ("name", "width")

    name: str
    width: int

    def _init(self, name: str, width: int) -> None:
        self.name = name
        self.width = width

    def _make_short(self) -> str:
        return self.name

    @property
    def is_integer(self) -> bool:
        return isinstance(self, IntegerType)

    @property
    def is_float(self) -> bool:
        return isinstance(self, FloatType)


class IntegerType(ElementType):
    """A signless integer type ``iN``; signedness is chosen by each operation."""

    __slots__ = ()

    def __new__(cls, width: int) -> "IntegerType":
        return cls._intern((width,), f"i{width}", width)


#: Widths of MLIR's builtin float types that no dialect here computes with (they parse, print
#: and verify as types; :data:`~tileir.ir.dtypes.FLOAT_FORMATS` has the arithmetic ones).
OTHER_FLOAT_WIDTHS: dict[str, int] = {
    "f80": 80, "f128": 128, "f8E4M3": 8, "f8E5M2FNUZ": 8, "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8,
    "f8E3M4": 8, "f6E2M3FN": 6, "f6E3M2FN": 6}


class FloatType(ElementType):
    """A floating-point element type (IEEE or one of NVIDIA's alternative formats, or one of
    MLIR's other builtin float types of :data:`OTHER_FLOAT_WIDTHS`)."""

    __slots__ = ()
    _WIDTHS = {**{name: f.bits for name, f in FLOAT_FORMATS.items()}, **OTHER_FLOAT_WIDTHS}

    def __new__(cls, name: str) -> "FloatType":
        return cls._intern((name,), name, cls._WIDTHS[name])


I1, I4, I8, I16, I32, I64 = (IntegerType(w) for w in (1, 4, 8, 16, 32, 64))
F16, BF16, F32, TF32, F64 = (FloatType(n) for n in ("f16", "bf16", "f32", "tf32", "f64"))
F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN = (
    FloatType(n) for n in ("f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN"))

#: Every element type by its spelling.
ELEMENT_TYPES: dict[str, ElementType] = {
    t.name: t for t in (I1, I4, I8, I16, I32, I64, F16, BF16, F32, TF32, F64,
                        F8E4M3FN, F8E5M2, F8E8M0FNU, F4E2M1FN)}


def element_type(name: str) -> ElementType:
    """Look up an element type by spelling (``"f32"``, ``"i8"``, ``"f8E4M3FN"``...)."""
    return ELEMENT_TYPES[name]


# ---------------------------------------------------------------------------------------------
# Function types and foreign (builtin / other dialect) types
# ---------------------------------------------------------------------------------------------

class FunctionType(Type):
    """``(inputs) -> (results)``: the signature of an entry or test function."""

    __slots__ = ("inputs", "results")
    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __new__(cls, inputs: Sequence[Type], results: Sequence[Type]) -> "FunctionType":
        inputs, results = tuple(inputs), tuple(results)
        return cls._intern((inputs, results), inputs, results)

    def _init(self, inputs, results) -> None:
        self.inputs = inputs
        self.results = results

    def _make_short(self) -> str:
        ins = ", ".join(str(t) for t in self.inputs)
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {self.results[0]}"
        return f"({ins}) -> (" + ", ".join(str(t) for t in self.results) + ")"


class BuiltinType(Type):
    """A type of another dialect or MLIR's builtin dialect (``index``, ``tensor<4xf32>``,
    ``!foo.bar``), kept verbatim.  cuda_tile ops reject them in verification."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> "BuiltinType":
        return cls._intern((text,), text)

    def _init(self, text: str) -> None:
        self.text = text

    def _make_short(self) -> str:
        return self.text
