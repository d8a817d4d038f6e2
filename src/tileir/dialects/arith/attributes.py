"""The arith dialect's attributes: the bit-enum attributes ``#arith.fastmath<...>`` and
``#arith.overflow<...>``, and the integer enums of the comparison predicates and the rounding
mode (``predicate = 2 : i64``, ``roundingmode = 0 : i32`` in the generic form; a keyword in the
custom form)."""

from __future__ import annotations

from dataclasses import dataclass

from ...ir.attributes import Attribute, EnumAttr

__all__ = ["FastMathAttr", "OverflowAttr", "CmpIPredicate", "CmpFPredicate", "RoundingMode",
           "FASTMATH_NONE", "OVERFLOW_NONE", "parse_flags"]

#: the fastmath flags in MLIR's print order; ``fast`` is all of them
FASTMATH_FLAGS = ("reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn")
OVERFLOW_FLAGS = ("nsw", "nuw")


@dataclass(frozen=True, slots=True)
class _BitEnumAttr(Attribute):
    """A set of flags spelled ``<a, b>`` (``none`` when empty)."""

    flags: frozenset
    MNEMONIC = ""
    ORDER = ()
    SEPARATOR = ", "

    def keyword_text(self) -> str:
        if not self.flags:
            return "none"
        if self.MNEMONIC == "fastmath" and len(self.flags) == len(self.ORDER):
            return "fast"
        return self.SEPARATOR.join(f for f in self.ORDER if f in self.flags)

    def custom_syntax(self) -> str:
        """The custom-form spelling after the keyword (``<nsw, nuw>``)."""
        return f"<{self.keyword_text()}>"

    def generic(self) -> str:
        return f"#arith.{self.MNEMONIC}<{self.keyword_text()}>"

    @property
    def is_none(self) -> bool:
        return not self.flags


class FastMathAttr(_BitEnumAttr):
    MNEMONIC = "fastmath"
    ORDER = FASTMATH_FLAGS
    SEPARATOR = ","


class OverflowAttr(_BitEnumAttr):
    MNEMONIC = "overflow"
    ORDER = OVERFLOW_FLAGS


FASTMATH_NONE = FastMathAttr(frozenset())
OVERFLOW_NONE = OverflowAttr(frozenset())


def parse_flags(parser, cls: type) -> _BitEnumAttr:
    """``<flag, flag>`` (after the mnemonic) of a bit-enum attribute class."""
    parser.expect("<")
    flags: set = set()
    enum_name = "FastMathFlags" if cls is FastMathAttr else "IntegerOverflowFlags"
    prefix = parser.op_prefix()
    if parser.tok == ">":
        raise parser.error(f"{prefix}expected valid keyword or string")

    def one():
        off = parser.offset
        word = parser.parse_keyword()
        if word == "none":
            return
        if cls is FastMathAttr and word == "fast":
            flags.update(FASTMATH_FLAGS)
            return
        if word not in cls.ORDER:
            raise parser.error(f"{prefix}expected ::mlir::arith::{enum_name} to be one of: "
                               + ", ".join(("none",) + cls.ORDER + (("fast",) if cls is
                                                                     FastMathAttr else ())), off)
        flags.add(word)
    parser.parse_comma_list(one, ">")
    parser.expect(">")
    return cls(frozenset(flags))


class _I64Enum(EnumAttr):
    """An enum stored as a plain ``i64`` integer attribute."""

    def generic(self) -> str:
        return f"{int(self)} : i64"

    __str__ = generic


class CmpIPredicate(_I64Enum):
    EQ = 0
    NE = 1
    SLT = 2
    SLE = 3
    SGT = 4
    SGE = 5
    ULT = 6
    ULE = 7
    UGT = 8
    UGE = 9


class CmpFPredicate(_I64Enum):
    FALSE = 0
    OEQ = 1
    OGT = 2
    OGE = 3
    OLT = 4
    OLE = 5
    ONE = 6
    ORD = 7
    UEQ = 8
    UGT = 9
    UGE = 10
    ULT = 11
    ULE = 12
    UNE = 13
    UNO = 14
    TRUE = 15


class RoundingMode(EnumAttr):
    """``roundingmode = N : i32``."""
    TO_NEAREST_EVEN = 0
    DOWNWARD = 1
    UPWARD = 2
    TOWARD_ZERO = 3
    TO_NEAREST_AWAY = 4
