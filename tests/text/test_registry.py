"""A dialect plugs its syntax into the dialect-agnostic text engine through tileir.text.registry,
without touching the engine: a toy dialect's type and attribute round-trip through the parser and
the printer, and unregistered dialects keep theirs verbatim."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import tileir
from tileir.ir.attributes import Attribute, OpaqueAttr
from tileir.ir.types import I32, BuiltinType, Type
from tileir.text import parse_attribute, parse_type, registry


class BoxType(Type):
    """``!toy.box<T>``."""

    __slots__ = ("inner",)
    DIALECT = "toy"

    def __new__(cls, inner: Type) -> "BoxType":
        return cls._intern((inner,), inner)

    def _init(self, inner: Type) -> None:
        self.inner = inner

    def _make_short(self) -> str:
        return f"box<{self.inner}>"


@dataclass(frozen=True, slots=True)
class MarkAttr(Attribute):
    """``#toy.mark<N>``."""

    n: int

    def generic(self) -> str:
        return f"#toy.mark<{self.n}>"


def _parse_box(parser, word: str, offset: int, word_end: int) -> Type:
    parser.i += 1
    if word != "box":
        raise parser.error(f"unknown type in dialect toy: {word}", offset)
    parser.expect("<")
    inner = parser.parse_type()
    parser.expect(">")
    return BoxType(inner)


def _parse_mark(parser, mnemonic: str, offset: int) -> Attribute:
    if mnemonic != "mark":
        raise parser.error(f"unknown attribute `{mnemonic}` in dialect `toy`", offset)
    parser.expect("<")
    n = parser.parse_integer()
    parser.expect(">")
    return MarkAttr(n)


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(registry.DIALECT_TYPE_PARSERS, "toy", _parse_box)
    monkeypatch.setitem(registry.DIALECT_ATTR_PARSERS, "toy", _parse_mark)


def test_a_dialect_type_parses_and_prints_through_the_registry(toy):
    t = parse_type("!toy.box<!toy.box<i32>>")
    assert t is BoxType(BoxType(I32))
    assert str(t) == "!toy.box<!toy.box<i32>>"


def test_a_dialect_attribute_parses_through_the_registry(toy):
    assert parse_attribute("#toy.mark<7>") == MarkAttr(7)
    assert parse_attribute("[#toy.mark<1>, 2 : i32]").generic() == "[#toy.mark<1>, 2 : i32]"


def test_dialect_errors_carry_the_dialects_message(toy):
    with pytest.raises(tileir.DiagnosticError, match="unknown type in dialect toy: crate"):
        parse_type("!toy.crate<i32>")
    with pytest.raises(tileir.DiagnosticError, match="unknown attribute `pin` in dialect `toy`"):
        parse_attribute("#toy.pin<1>")


def test_unregistered_dialects_stay_verbatim():
    assert parse_type("!toy.box<i32>") == BuiltinType("!toy.box<i32>")
    assert parse_attribute("#toy.mark<7>") == OpaqueAttr("#toy.mark<7>")


def test_generic_ops_of_a_dialect_with_types_in_regions(toy):
    text = ('"toy.wrap"() ({\n^bb0(%a: !toy.box<i32>):\n  "toy.yield"(%a) : (!toy.box<i32>) -> ()\n'
            '}) {m = #toy.mark<3>} : () -> ()\n')
    module = tileir.parse(text, allow_unregistered=True)
    wrap = module.regions[0].blocks[0].ops[0]
    assert wrap.attributes["m"] == MarkAttr(3)
    assert wrap.regions[0].blocks[0].args[0].type is BoxType(I32)
    printed = tileir.print(module, generic=True)
    assert "!toy.box<i32>" in printed and "#toy.mark<3>" in printed
    again = tileir.parse(printed, allow_unregistered=True)
    assert tileir.print(again, generic=True) == printed
