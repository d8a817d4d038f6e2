"""§8 Control flow: if, for, loop, yield, break, continue, return, assert."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..attrs import UNIT
from ..ir.core import Operation, Region
from ..ir.opdef import VARIADIC, Attr, Operand, RegionDef, Result
from .base import CudaTileOp
from .constraints import ANY, CudaTileAny, I1Tile, ScalarI1, ScalarInt
from .traits import (AllTypesMatch, NoRegionArguments, ParentOneOf, ReturnLike,
                     SingleBlockImplicitTerminator, Terminator, Pure)

if TYPE_CHECKING:  # pragma: no cover
    from ..text.format import OpState
    from ..text.parser import Parser
    from ..text.printer import OpPrinter

_TERMINATOR_FMT = "attr-dict ($operands^ `:` custom<CudaTileType>(type($operands)))?"


class IfOp(CudaTileOp):
    """``if %cond [-> (types)] { ... } [else { ... }]``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "if", 0x32, "Control Flow"
    OPERANDS = (Operand("condition", ScalarI1),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("thenRegion", "sized1"), RegionDef("elseRegion", "maxsized1"))
    TRAITS = (NoRegionArguments(), SingleBlockImplicitTerminator("cuda_tile.yield"))
    FORMAT = ("$condition (`->` `(` custom<CudaTileType>(type($results))^ `)`)? "
              "custom<IfOpRegion>($thenRegion) (`else` custom<IfOpRegion>($elseRegion)^)? "
              "attr-dict")


class YieldOp(CudaTileOp):
    """Yield values from an if branch or a reduce/scan body."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "yield", 0x6D, "Control Flow"
    OPERANDS = (Operand("operands", CudaTileAny, VARIADIC),)
    TRAITS = (Pure, ReturnLike, Terminator(),
              ParentOneOf("cuda_tile.if", "cuda_tile.reduce", "cuda_tile.scan"))
    FORMAT = _TERMINATOR_FMT


class BreakOp(CudaTileOp):
    """Leave the innermost ``loop`` with its result values."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "break", 0x0A, "Control Flow"
    OPERANDS = (Operand("operands", CudaTileAny, VARIADIC),)
    TRAITS = (ReturnLike, Terminator(), ParentOneOf("cuda_tile.if", "cuda_tile.loop"))
    FORMAT = _TERMINATOR_FMT


class ContinueOp(CudaTileOp):
    """Go to the next iteration of the innermost ``for``/``loop`` with new carried values."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "continue", 0x11, "Control Flow"
    OPERANDS = (Operand("operands", CudaTileAny, VARIADIC),)
    TRAITS = (Terminator(), ParentOneOf("cuda_tile.for", "cuda_tile.if", "cuda_tile.loop"))
    FORMAT = _TERMINATOR_FMT


class ReturnOp(CudaTileOp):
    """Return from an entry."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "return", 0x5C, "Control Flow"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    TRAITS = (ParentOneOf("cuda_tile.entry", "cuda_tile.if", "cuda_tile.testing$func"),
              ReturnLike, Terminator())
    FORMAT = _TERMINATOR_FMT


class AssertOp(CudaTileOp):
    """Abort the kernel with ``message`` if any element of ``condition`` is false."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "assert", 0x05, "Control Flow"
    OPERANDS = (Operand("condition", I1Tile),)
    ATTRIBUTES = (Attr("message", "str"),)
    FORMAT = "$condition `,` $message attr-dict `:` custom<CudaTileType>(type($condition))"


# ---------------------------------------------------------------------------------------------
# Loops (custom syntax)
# ---------------------------------------------------------------------------------------------

def _parse_assignment_list(parser: "Parser") -> tuple[list, list]:
    """``(%inner = %outer, ...)`` -> (inner names with offsets, outer uses)."""
    parser.expect("(")
    inner: list = []
    outer: list = []

    def one():
        t = parser.tok
        if not t or t[0] != "%":
            raise parser.error("expected SSA operand")
        inner.append((t, parser.offset))
        parser.i += 1
        parser.expect("=")
        outer.append(parser._parse_use())
    parser.parse_comma_list(one, ")")
    parser.expect(")")
    return inner, outer


def _control_flow_region(parser: "Parser", state: "OpState", entry_args: list,
                         terminator: str) -> Region:
    from .directives import ensure_terminator
    region = Region()
    parser.parse_region_into(region, None, isolated=False, dialect="cuda_tile",
                             entry_args=entry_args)
    ensure_terminator(region, terminator, parser.loc_at(state.start))
    return region


def _parse_for(parser: "Parser", state: "OpState") -> Operation:
    if parser.tok == "unsigned":
        parser.i += 1
        state.attrs["unsignedCmp"] = UNIT
    iv = parser.tok
    iv_off = parser.offset
    if not iv or iv[0] != "%":
        raise parser.error("expected SSA operand")
    parser.i += 1
    parser.expect_keyword("in")
    parser.expect("(")
    lb = parser._parse_use()
    parser.expect_keyword("to")
    ub = parser._parse_use()
    parser.expect(",")
    parser.expect_keyword("step")
    step = parser._parse_use()
    parser.expect(")")
    parser.expect(":")
    iv_type = parser.parse_type()
    inner: list = []
    outer: list = []
    types: list = []
    if parser.tok == "iter_values":
        parser.i += 1
        inner, outer = _parse_assignment_list(parser)
        parser.expect("->")
        parser.expect("(")
        types = parser.parse_comma_list(parser.parse_type, ")")
        parser.expect(")")
        if len(outer) != len(types):
            raise parser.error("mismatch in number of loop-carried values and defined values",
                               state.start)
    entry = [(iv, iv_type, iv_off, None)] + [(n, t, off, None) for (n, off), t in zip(inner, types)]
    state.regions["region"] = _control_flow_region(parser, state, entry, "cuda_tile.continue")
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    state.operands.update(lowerBound=[lb], upperBound=[ub], step=[step], initValues=outer)
    state.operand_types.update(lowerBound=[iv_type], upperBound=[iv_type], step=[iv_type],
                               initValues=list(types))
    state.result_types["resultValues"] = list(types)
    return state.build()


def _region_body_text(printer: "OpPrinter", op: Operation, terminator: str) -> str:
    region = op.regions[0]

    def elide(term) -> bool:
        return term.name == terminator and not term.operands
    return printer.render_region(region, print_terminator=False, elide_terminator_if=elide)


def _print_for(printer: "OpPrinter", op: Operation) -> str:
    block = op.regions[0].blocks[0]
    iv = block.args[0]
    text = ""
    if "unsignedCmp" in op.attributes:
        text += " unsigned"
    lb, ub, step = op.operands[:3]
    text += (f" {printer.value_name(iv)} in ({printer.value_name(lb)} to "
             f"{printer.value_name(ub)}, step {printer.value_name(step)}) : {iv.type.short} ")
    inits = op.operands[3:]
    if inits:
        pairs = ", ".join(f"{printer.value_name(a)} = {printer.value_name(v)}"
                          for a, v in zip(block.args[1:], inits))
        text += f"iter_values({pairs}) -> (" + ", ".join(v.type.short for v in inits) + ") "
    text += _region_body_text(printer, op, "cuda_tile.continue")
    text += printer.attr_dict_text(op, {"unsignedCmp"})
    return text


class ForOp(CudaTileOp):
    """Counted loop ``for [unsigned] %iv in (%lb to %ub, step %s) : T [iter_values(...)]``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "for", 0x29, "Control Flow"
    OPERANDS = (Operand("lowerBound", ScalarInt), Operand("upperBound", ScalarInt),
                Operand("step", ScalarInt), Operand("initValues", ANY, VARIADIC))
    RESULTS = (Result("resultValues", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("unsignedCmp", "unit", since="13.2"),)
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (AllTypesMatch("lowerBound", "upperBound", "step"),
              AllTypesMatch("initValues", "resultValues"),
              SingleBlockImplicitTerminator("cuda_tile.continue"))
    parse_custom = staticmethod(_parse_for)
    print_custom = staticmethod(_print_for)

    def asm_result_names(self):
        return ["for"] if self.results else None

    def asm_block_arg_names(self, region_index: int):
        args = self.regions[0].blocks[0].args
        return ["loopIdx"] + [f"iterArg{i}" for i in range(len(args) - 1)]


def _parse_loop(parser: "Parser", state: "OpState") -> Operation:
    inner: list = []
    outer: list = []
    iter_types: list = []
    result_types: list = []
    if parser.tok == "iter_values":
        parser.i += 1
        inner, outer = _parse_assignment_list(parser)
        parser.expect(":")
        iter_types = parser.parse_comma_list(parser.parse_type)
        if len(inner) != len(iter_types):
            raise parser.error("found different number of iter_values and types")
        if parser.consume("->"):
            result_types = parser.parse_comma_list(parser.parse_type)
    elif parser.consume(":"):
        result_types = parser.parse_comma_list(parser.parse_type)
    entry = [(n, t, off, None) for (n, off), t in zip(inner, iter_types)]
    state.regions["region"] = _control_flow_region(parser, state, entry, "cuda_tile.continue")
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    state.operands["initValues"] = outer
    state.operand_types["initValues"] = list(iter_types)
    state.result_types["resultValues"] = list(result_types)
    return state.build()


def _print_loop(printer: "OpPrinter", op: Operation) -> str:
    block = op.regions[0].blocks[0]
    inits = op.operands
    text = " "
    if inits:
        pairs = ", ".join(f"{printer.value_name(a)} = {printer.value_name(v)}"
                          for a, v in zip(block.args, inits))
        text += f"iter_values({pairs}) "
    if inits or op.results:
        text += ": "
    if inits:
        text += ", ".join(v.type.short for v in inits) + " "
        if op.results:
            text += "-> "
    if op.results:
        text += ", ".join(r.type.short for r in op.results) + " "
    text += _region_body_text(printer, op, "cuda_tile.continue")
    text += printer.attr_dict_text(op, set())
    return text


class LoopOp(CudaTileOp):
    """Unbounded loop left with ``break``; ``continue`` carries values to the next iteration."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "loop", 0x41, "Control Flow"
    OPERANDS = (Operand("initValues", ANY, VARIADIC),)
    RESULTS = (Result("resultValues", ANY, VARIADIC),)
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (SingleBlockImplicitTerminator("cuda_tile.continue"),)
    parse_custom = staticmethod(_parse_loop)
    print_custom = staticmethod(_print_loop)
