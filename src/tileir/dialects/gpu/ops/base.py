"""Shared pieces of the gpu op definitions: the op base class and the custom-syntax helpers the
op families share (async dependency lists, enum keywords, typed operand lists, regions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from ....ir.attributes import IntegerAttr
from ....ir.constraints import TypeConstraint
from ....ir.opdef import OpBase
from ....ir.types import Type
from ....text.format import checked_inherent_attributes
from ...builtin.types import INDEX
from ..types import ASYNC_TOKEN

if TYPE_CHECKING:  # pragma: no cover
    from ....ir.core import Operation, Region
    from ....text.format import OpState
    from ....text.parser import Parser
    from ....text.printer import OpPrinter

__all__ = ["GpuOp", "INDEX", "parse_async", "print_async", "parse_uses", "print_uses",
           "parse_types", "print_types", "type_list", "render_region", "parse_region",
           "attr_dict", "parse_attr_dict", "parse_index_attr", "parse_keyword_enum"]




class GpuOp(OpBase):
    """Base of every gpu op."""

    __slots__ = ()
    DIALECT_NAME = "gpu"
    #: whether MLIR parses the op with a declarative assembly format (which checks the op's
    #: own attributes where its attribute dictionary is parsed) rather than hand-written C++
    DECLARATIVE_FORMAT = True


# -- async dependencies: ``[async] [[%t0, %t1]]`` ----------------------------------------------

def parse_async(parser: "Parser", state: "OpState", result: Optional[str] = "asyncToken",
                operands: str = "asyncDependencies") -> None:
    """``async`` (the op returns a token as ``result``) and ``[%t, ...]`` (its dependencies)."""
    if parser.tok == "async":
        if result is None:
            raise parser.error("unexpected 'async'")
        if not getattr(state, "result_names", True):
            raise parser.error(f"{parser.op_prefix()}needs to be named when marked 'async'")
        parser.i += 1
        state.result_types[result] = [ASYNC_TOKEN]
    if parser.tok == "[":
        off = parser.offset
        parser.i += 1
        uses = parser.parse_comma_list(parser._parse_use, "]")
        parser.expect("]")
        state.operands[operands] = uses
        state.set_types(operands, "operand", [ASYNC_TOKEN] * len(uses), off)


def print_async(printer: "OpPrinter", op: "Operation", token: Optional[bool],
                deps: Sequence) -> str:
    """MLIR's AsyncDependencies directive text (no surrounding spaces; may be empty)."""
    parts = []
    if token:
        parts.append("async")
    if deps:
        parts.append("[" + ", ".join(printer.value_name(v) for v in deps) + "]")
    return " ".join(parts)


# -- operands and types -----------------------------------------------------------------------

def parse_uses(parser: "Parser", state: "OpState", name: str, close: Optional[str] = None):
    """A comma-separated list of SSA uses stored as operand group ``name``."""
    uses = parser.parse_comma_list(parser._parse_use, close) if close else \
        [parser._parse_use()]
    state.operands[name] = uses
    return uses


def print_uses(printer: "OpPrinter", values: Sequence) -> str:
    return ", ".join(printer.value_name(v) for v in values)


def parse_types(parser: "Parser", close: Optional[str] = None) -> list[Type]:
    if close is not None and parser.tok == close:
        return []
    return parser.parse_comma_list(parser.parse_type, close)


def print_types(types: Sequence) -> str:
    return ", ".join(str(t) for t in types)


def type_list(types: Sequence) -> str:
    """A function-type result list: ``T`` or ``(T, U)``."""
    return str(types[0]) if len(types) == 1 else "(" + print_types(types) + ")"


# -- regions and attributes -------------------------------------------------------------------

def render_region(printer: "OpPrinter", region: "Region", *, entry_args: bool = False,
                  terminator: bool = True) -> str:
    """A region printed with full op names (gpu ops have no default dialect)."""
    printer.default_dialect.append("")
    try:
        return printer.render_region(region, print_entry_args=entry_args,
                                     print_terminator=terminator)
    finally:
        printer.default_dialect.pop()


def parse_region(parser: "Parser", region: "Region", *, isolated: bool = False,
                 entry_args=None) -> "Region":
    if parser.tok != "{":
        raise parser.wrong_token_error("expected '{' to begin a region")
    return parser.parse_region_into(region, None, isolated=isolated, dialect="",
                                    entry_args=entry_args)


def attr_dict(printer: "OpPrinter", op: "Operation", elided: Sequence[str] = (),
              keyword: bool = False) -> str:
    """`` {a = 1}`` (or `` attributes {..}``): the attributes the syntax does not show."""
    return printer.attr_dict_text(op, set(elided), with_keyword=keyword)


def parse_attr_dict(parser: "Parser", state: "OpState", keyword: bool = False) -> None:
    """The op's attribute dictionary: what it gives of the attributes the syntax spelled
    replaces them (MLIR sets the op's properties from it last)."""
    if keyword:
        if parser.tok != "attributes":
            return
        parser.i += 1
    elif parser.tok != "{":
        return
    off = parser.offset
    attrs = parser.parse_attr_dict_body()
    if state.spec.cls.DECLARATIVE_FORMAT:
        # (MLIR's declarative assembly formats check the op's own attributes right here)
        attrs = checked_inherent_attributes(parser, state, attrs, off)
    state.attrs.update(attrs)


def parse_index_attr(parser: "Parser") -> IntegerAttr:
    return parser.parse_integer_attr(INDEX)


def parse_keyword_enum(parser: "Parser", enum: type):
    from ..syntax import parse_enum_keyword
    return parse_enum_keyword(parser, enum)


class Exactly(TypeConstraint):
    """One specific type, which the parser infers when the text leaves it out (ODS's
    buildable types: ``index``, ``!gpu.async.token``, the sparse handles)."""

    __slots__ = ("type",)

    def __init__(self, t: Type, summary: str) -> None:
        super().__init__(summary, t)
        self.type = t

    def check(self, t: Type) -> bool:
        return t is self.type
