"""Custom syntax of the cf ops: successor lists with their operands (``^bb1(%a, %b : i32,
f32)``), ``cond_br``'s branch weights and ``switch``'s case table."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ...ir.attributes import DenseArrayAttr, OpaqueAttr

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser
    from ...text.printer import OpPrinter

__all__ = ["parse_destination", "print_destination", "case_values", "case_values_attr"]


def parse_destination(parser: "Parser", state: "OpState", group: str):
    """``^bb (`(` operands `:` types `)`)?``: the block, its operands set on ``group``."""
    block = parser.parse_successor()
    uses: list = []
    types: list = []
    off = parser.offset
    if parser.consume("("):
        uses = parser.parse_comma_list(parser._parse_use)
        parser.expect(":")
        off = parser.offset
        types = parser.parse_comma_list(parser.parse_type)
        parser.expect(")")
    state.operands[group] = uses
    state.set_types(group, "operand", types, off)
    return block


def print_destination(printer: "OpPrinter", block, values) -> str:
    name = printer.names.block_names.get(id(block), "^bb?")
    if not values:
        return name
    return (f"{name}(" + ", ".join(printer.value_name(v) for v in values) + " : "
            + ", ".join(str(v.type) for v in values) + ")")


def parse_weights(parser: "Parser") -> DenseArrayAttr:
    parser.expect("(")
    parser.expect("[")
    values = [] if parser.tok == "]" else parser.parse_comma_list(
        lambda: parser.parse_fixed_integer(32), "]")
    parser.expect("]")
    parser.expect(")")
    return DenseArrayAttr("i32", tuple(values))


_INT = re.compile(r"-?[0-9]+")


def case_values(attr) -> list[int]:
    """The integers of ``case_values`` (a ``dense<[...]> : vector<Nxi32>`` attribute)."""
    if attr is None:
        return []
    array = getattr(attr, "array", None)
    if array is not None:
        return [int(v) for v in array.reshape(-1).tolist()]
    text = attr.generic()
    body = text[text.index("<") + 1:text.index(">")]
    values = [int(v) for v in _INT.findall(body)]
    count = re.search(r"vector<([0-9]+)x", text)
    if count is not None and len(values) == 1:
        values *= int(count.group(1))
    return values


def case_values_attr(values: list[int], flag_type) -> OpaqueAttr:
    # equal elements print as a splat, as MLIR's dense attributes do
    body = str(values[0]) if len(set(values)) == 1 else f"[{', '.join(map(str, values))}]"
    return OpaqueAttr(f"dense<{body}> : vector<{len(values)}x{flag_type}>")


class SwitchCases:
    """The cases of a switch being parsed (``cf.switch``, ``llvm.switch``): :meth:`parse` reads
    one ``value: ^dest(...)``, :meth:`finish` stores the case operands, their segments and
    the values (wrapped to the flag's integer width) in ``state``."""

    def __init__(self) -> None:
        self.values: list[int] = []
        self.blocks: list = []
        self.uses: list = []
        self.types: list = []
        self.segments: list[int] = []

    def parse(self, parser: "Parser", state: "OpState") -> None:
        self.values.append(parser.parse_integer(prefixed=True))
        parser.expect(":")
        self.blocks.append(parse_destination(parser, state, "caseOperands"))
        uses = state.operands.pop("caseOperands")
        self.uses += uses
        self.types += state.operand_types.pop("caseOperands")
        self.segments.append(len(uses))

    def finish(self, state: "OpState", flag_type, width: int, types_offset: int) -> None:
        state.operands["caseOperands"] = self.uses
        state.set_types("caseOperands", "operand", self.types, types_offset)
        state.attrs["case_operand_segments"] = DenseArrayAttr("i32", tuple(self.segments))
        if self.values:
            wrapped = [((v + (1 << (width - 1))) % (1 << width)) - (1 << (width - 1))
                       for v in self.values]
            state.attrs["case_values"] = case_values_attr(wrapped, flag_type)
