"""``!async.token``, ``!async.group`` and ``!async.value<T>`` (spelled with their prefix
everywhere)."""

from __future__ import annotations

from ...ir.types import Type
from ...text import registry
from ...text.parser import Parser

__all__ = ["AsyncType", "TokenType", "GroupType", "ValueType", "TOKEN", "GROUP"]


class AsyncType(Type):
    """Base of the async dialect's types."""

    __slots__ = ()
    DIALECT = ""


class TokenType(AsyncType):
    """``!async.token``: completion of an ``async.execute``."""

    __slots__ = ()

    def __new__(cls) -> "TokenType":
        return cls._intern(())

    def _init(self) -> None:
        pass

    def _make_short(self) -> str:
        return "!async.token"


class GroupType(AsyncType):
    """``!async.group``: a set of tokens awaited together."""

    __slots__ = ()

    def __new__(cls) -> "GroupType":
        return cls._intern(())

    def _init(self) -> None:
        pass

    def _make_short(self) -> str:
        return "!async.group"


class ValueType(AsyncType):
    """``!async.value<T>``: a ``T`` an ``async.execute`` produces."""

    __slots__ = ("value_type",)
    value_type: Type

    def __new__(cls, value_type: Type) -> "ValueType":
        return cls._intern((value_type,), value_type)

    def _init(self, value_type: Type) -> None:
        self.value_type = value_type

    def _make_short(self) -> str:
        return f"!async.value<{self.value_type}>"


TOKEN = TokenType()
GROUP = GroupType()


def parse_async_type(parser: Parser, word: str, offset: int, word_end: int) -> Type:
    """``!async.<word>``: the hook of :data:`tileir.text.registry.DIALECT_TYPE_PARSERS`."""
    parser.i += 1
    if word == "token":
        return TOKEN
    if word == "group":
        return GROUP
    if word == "value":
        parser.expect("<")
        inner = parser.parse_type()
        parser.expect(">")
        return ValueType(inner)
    raise parser.error(f"unknown async type: {word}", offset)


registry.DIALECT_TYPE_PARSERS["async"] = parse_async_type
