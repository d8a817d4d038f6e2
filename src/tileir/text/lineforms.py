"""Fast line forms: one regular expression per op line, for ops with a hand-written syntax.

The parser's fast path (:mod:`tileir.dialects.cuda_tile.fastparse`) compiles a line matcher
from every declarative assembly format.  Ops whose syntax is written by hand cannot be compiled
so; a dialect may instead describe the common spelling of such an op as a :class:`LineForm`
(a pattern for the rest of the line and a *plan* function) and register it in
:data:`LINE_FORMS`.  The fast path then parses matching lines without tokenizing them; it
declines (and the op's own parser runs, with its diagnostics) whenever the pattern does not
match or the plan returns None, so a line form only has to be right where it accepts.

The pattern fragments below are the vocabulary of those patterns (and of the compiled ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Optional

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.types import Type

__all__ = ["WS", "VALUE_NAME", "VALUE_LIST", "TYPE_PATTERN", "TYPE_LIST", "KW_END",
           "NO_ATTR_DICT", "LineForm", "LINE_FORMS", "Plan", "TypeOf", "ANGLE_ATTR_KINDS"]

#: Blanks inside a line.
WS = r"[ \t]*"
#: An SSA use: ``%name`` or ``%name#k`` (a name is digits only or starts with no digit).
VALUE_NAME = r"%(?:[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)(?:#[0-9]+)?"
#: A comma-separated list of SSA uses (at least one).
VALUE_LIST = rf"(?:{VALUE_NAME}(?:{WS},{WS}{VALUE_NAME})*)"
_BALANCED = r"<(?:[^<>\n]|<(?:[^<>\n]|<(?:[^<>\n]|<[^<>\n]*>)*>)*>)*>"
#: A type as written inside an op (a keyword or ``!dialect.name`` with ``<...>`` parameters
#: nested at most four deep).
TYPE_PATTERN = rf"(?:!?[A-Za-z_][A-Za-z0-9_$.]*(?:{_BALANCED})?)"
#: A comma-separated list of types (at least one).
TYPE_LIST = rf"(?:{TYPE_PATTERN}(?:{WS},{WS}{TYPE_PATTERN})*)"
#: The end of a keyword (no identifier character follows).
KW_END = r"(?![A-Za-z0-9_$.])"
#: No attribute dictionary follows (lines with one are left to the op's parser).
NO_ATTR_DICT = rf"(?!{WS}\{{)"

#: What a plan gives: the operands' types (in operand order), the result types, the
#: attributes (the fast path adds the op's default-valued ones and copies the dict per op).
Plan = tuple[tuple, tuple, dict]
#: How a plan turns a type's text into the type (cached; None where the text is no type).
TypeOf = Callable[[str], Optional["Type"]]


@dataclass(frozen=True)
class LineForm:
    """The common spelling of one op with a hand-written syntax.

    ``pattern`` matches the rest of the op's line after the op name (the trailing location and
    comment are the fast path's business).  ``operands`` names the captures holding operands:
    ``(capture index, operand group, variadic)`` in operand order; a variadic capture holds a
    comma-separated list.  ``plan(captures, counts, type_of)`` gets every capture, the number
    of operands per operand group and a cached type parser, and returns the :data:`Plan` or
    None to decline.  Plans are cached by the captures that are not operands, so ``plan`` must
    depend on nothing else.
    """

    pattern: str
    operands: tuple[tuple[int, str, bool], ...]
    plan: Callable[[tuple, tuple, TypeOf], Optional[Plan]]


#: op name -> its fast line form (registered by the dialects).
LINE_FORMS: dict[str, LineForm] = {}

#: Attribute kinds (keys of ``registry.ATTR_KIND_PARSERS``) whose custom-form text is one
#: ``<...>`` group without nested angle brackets (``arith.overflow``: ``<nsw, nuw>``).  The
#: compiled matchers of declarative formats capture that group and parse it with the kind's
#: parser (cached by text); other custom kinds keep their ops on the general parser.
ANGLE_ATTR_KINDS: set[str] = set()
