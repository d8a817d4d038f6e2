"""The arith dialect's text syntax outside op formats: ``#arith.fastmath<...>`` and
``#arith.overflow<...>`` (generic form and the ``fastmath<...>``/``overflow<...>`` clauses of
the custom forms), typed attributes (``arith.constant``'s value), and ``arith.select``'s
hand-written syntax (ODS ``hasCustomAssemblyFormat``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.types import I1
from ...text import registry
from ...text.lineforms import ANGLE_ATTR_KINDS
from .attributes import FastMathAttr, OverflowAttr, parse_flags

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser
    from ...text.printer import OpPrinter

__all__ = ["parse_select", "print_select"]

_FLAG_ATTRS = {"fastmath": FastMathAttr, "overflow": OverflowAttr}


def _parse_arith_attribute(parser: "Parser", mnemonic: str, off: int):
    cls = _FLAG_ATTRS.get(mnemonic)
    if cls is None:
        raise parser.error(f"unknown attribute `{mnemonic}` in dialect `arith`", off)
    return parse_flags(parser, cls)


def _parse_typed(parser: "Parser"):
    off = parser.offset
    from ...ir.attributes import OpaqueAttr, StringAttr
    if parser.tok and parser.tok[0] == '"':
        # a string, typed (``"s" : i32``, which arith.constant's verifier rejects) or not
        value = StringAttr(parser.parse_string())
        if parser.consume(":"):
            value = OpaqueAttr(f"{value.generic()} : {parser.parse_type()}")
    else:
        value = parser.parse_attribute()
    from .constant import attribute_type
    if attribute_type(value) is None:
        raise parser.error(f"{parser.op_prefix()}invalid kind of attribute specified", off)
    return value


def parse_select(parser: "Parser", state: "OpState"):
    """``%cond, %true, %false attr-dict : [cond-type ,] type``."""
    uses = []
    for k in range(3):
        if k:
            parser.expect(",")
        uses.append(parser._parse_use())
    state.operands.update({"condition": [uses[0]], "true_value": [uses[1]],
                           "false_value": [uses[2]]})
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    parser.expect(":")
    off = parser.offset
    first = parser.parse_type()
    if parser.consume(","):
        cond, value = first, parser.parse_type()
    else:
        cond, value = I1, first
    state.set_types("condition", "operand", [cond], off)
    for name in ("true_value", "false_value"):
        state.set_types(name, "operand", [value], off)
    state.set_types("result", "result", [value], off)
    return state.build()


def print_select(printer: "OpPrinter", op) -> str:
    names = ", ".join(printer.value_name(v) for v in op.operands)
    cond = op.operands[0].type
    from .types import split_shaped
    types = f"{cond}, {op.results[0].type}" if split_shaped(cond) is not None \
        else str(op.results[0].type)
    return f" {names}{printer.attr_dict_text(op, set())} : {types}"


registry.DIALECT_ATTR_PARSERS["arith"] = _parse_arith_attribute
registry.ATTR_KIND_PARSERS["arith.fastmath"] = lambda p: parse_flags(p, FastMathAttr)
registry.ATTR_KIND_PARSERS["arith.overflow"] = lambda p: parse_flags(p, OverflowAttr)
ANGLE_ATTR_KINDS.update(("arith.fastmath", "arith.overflow"))
registry.ATTR_KIND_PARSERS["typed"] = _parse_typed
