"""Text syntax of the builtin types the core keeps verbatim (:class:`tileir.ir.types.BuiltinType`):
``index`` and ``none``, and the parameterised ``tensor<...>``, ``vector<...>``, ``memref<...>``,
``complex<...>`` and ``tuple<...>`` (their text, balanced, as written).  A dialect that models
one of them replaces its entry in :data:`tileir.text.registry.KEYWORD_TYPES`."""

from __future__ import annotations

from typing import Optional

from ...ir.types import BuiltinType, Type
from ...text import registry
from ...text.parser import Parser

#: Builtin types written ``keyword<...>``.
PARAMETERISED = ("tensor", "vector", "memref", "complex", "tuple")
#: Builtin types written as a bare keyword.
KEYWORDS = ("index", "none")


def parse_parameterised(parser: Parser, word: str, offset: int) -> Optional[Type]:
    """``word<...>`` kept verbatim; None (nothing consumed) without the ``<``."""
    if parser.peek() != "<":
        return None
    return BuiltinType(parser.take_balanced_text())


def parse_keyword(parser: Parser, word: str, offset: int) -> Type:
    parser.i += 1
    return BuiltinType(word)


for _word in PARAMETERISED:
    registry.KEYWORD_TYPES.setdefault(_word, parse_parameterised)
for _word in KEYWORDS:
    registry.KEYWORD_TYPES.setdefault(_word, parse_keyword)
