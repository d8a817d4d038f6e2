"""§8 Control flow: if, for, loop, yield, break, continue, return, assert."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..attributes import UNIT
from ....ir.core import Operation, Region
from ....ir.opdef import VARIADIC, Attr, Operand, RegionDef, Result
from .base import CudaTileOp
from ..constraints import ANY, CudaTileAny, I1Tile, ScalarI1, ScalarInt
from ....ir.traits import (AffineScope, AllTypesMatch, NoRegionArguments, ParentOneOf, ReturnLike,
                           RecursiveMemoryEffects, SingleBlockImplicitTerminator, Terminator, Pure)
from ....ir.diagnostics import Diagnostic, ERROR
from ....ir.verify import op_error
from ..verify_util import type_list, verify_loop_iter_values, verify_no_view_results

if TYPE_CHECKING:  # pragma: no cover
    from ....text.format import OpState
    from ....text.parser import Parser
    from ....text.printer import OpPrinter

_TERMINATOR_FMT = "attr-dict ($operands^ `:` custom<CudaTileType>(type($operands)))?"


def _check_if_yield(op, region, name: str, rets: list):
    block = region.blocks[0]
    if not block.ops or block.ops[-1].name != "cuda_tile.yield":
        return None
    ys = [v.type for v in block.ops[-1].operands]
    if rets and not ys:
        return f"has return type of {type_list(rets)} but {name} branch does not yield anything"
    if not rets and ys:
        return f"does not return a value, but {name} branch yields {type_list(ys)}"
    if ys != rets:
        return (f"type does not match yield type, {name} branch yields {type_list(ys)} but op "
                f"result type is {type_list(rets)}")
    return None


def _nearest_ancestor(op, names):
    parent = op.parent_op
    while parent is not None and parent.name not in names:
        parent = parent.parent_op
    return parent


def _verify_early_exit(op, loops: tuple):
    """cuda-tile's verifyEarlyExitOp: only ``if`` ops between ``op`` and its loop."""
    parent = op.parent_op
    while parent is not None:
        if parent.name in loops:
            return None
        if parent.name != "cuda_tile.if":
            names = "', '".join((*loops, "cuda_tile.if"))
            diag = Diagnostic(ERROR, f"'{op.name}' op can only be nested within a ancestor chain "
                              f"of '{names}' operations", op.loc)
            diag.attach_note("see unexpected ancestor operation", parent.loc)
            return diag
        parent = parent.parent_op
    return None


class IfOp(CudaTileOp):
    """``if %cond [-> (types)] { ... } [else { ... }]``."""
    __slots__ = ()
    #: implements OpAsmOpInterface in NVIDIA's dialect (matters for ``assume`` names)
    ASM_INTERFACE = True
    MNEMONIC, OPCODE, GROUP = "if", 0x32, "Control Flow"
    OPERANDS = (Operand("condition", ScalarI1),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("thenRegion", "sized1"), RegionDef("elseRegion", "maxsized1"))
    TRAITS = (NoRegionArguments(), RecursiveMemoryEffects,
              SingleBlockImplicitTerminator("cuda_tile.yield", also=(
                  "cuda_tile.break", "cuda_tile.continue", "cuda_tile.return")))
    FORMAT = ("$condition (`->` `(` custom<CudaTileType>(type($results))^ `)`)? "
              "custom<IfOpRegion>($thenRegion) (`else` custom<IfOpRegion>($elseRegion)^)? "
              "attr-dict")

    def verify_op(self):
        if not self.regions:
            return "must define then branch"
        rets = [r.type for r in self.results]
        msg = verify_no_view_results(rets)
        if msg:
            return msg
        then = self.regions[0]
        if not then.blocks:
            return "must define then branch"
        msg = _check_if_yield(self, then, "then", rets)
        if msg:
            return msg
        if len(self.regions) < 2 or not self.regions[1].blocks:
            if rets:
                return "has non-empty return type, must define else branch"
            return None
        return _check_if_yield(self, self.regions[1], "else", rets)



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

    def verify_op(self):
        r = _verify_early_exit(self, ("cuda_tile.loop",))
        if r is not None:
            return r
        loop = _nearest_ancestor(self, ("cuda_tile.loop",))
        ops = [v.type for v in self.operands]
        res = [r.type for r in loop.results]
        if ops != res:
            return (f"operand types must correspond to the parent loop result types: "
                    f"({type_list(ops)}) vs ({type_list(res)})")
        return None



class ContinueOp(CudaTileOp):
    """Go to the next iteration of the innermost ``for``/``loop`` with new carried values."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "continue", 0x11, "Control Flow"
    OPERANDS = (Operand("operands", CudaTileAny, VARIADIC),)
    TRAITS = (Terminator(), ParentOneOf("cuda_tile.for", "cuda_tile.if", "cuda_tile.loop"))
    FORMAT = _TERMINATOR_FMT

    def verify_op(self):
        r = _verify_early_exit(self, ("cuda_tile.for", "cuda_tile.loop"))
        if r is not None:
            return r
        loop = _nearest_ancestor(self, ("cuda_tile.for", "cuda_tile.loop"))
        ops = [v.type for v in self.operands]
        if loop.name == "cuda_tile.loop":
            want = [v.type for v in loop.operands]
            if want != ops:
                return op_error(self, "`loop` is missing a valid terminator. `continue` op should "
                                "have operand types that match the parent loop iter_values: "
                                f"({type_list(want)}), but found: ({type_list(ops)})")
        else:
            want = [r.type for r in loop.results]
            if want != ops:
                return op_error(self, "`for` is missing a valid terminator. `continue` op should "
                                "have operand types that match the parent loop return types: "
                                f"({type_list(want)}), but found: ({type_list(ops)})")
        return None



class ReturnOp(CudaTileOp):
    """Return from an entry."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "return", 0x5C, "Control Flow"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    TRAITS = (ParentOneOf("cuda_tile.entry", "cuda_tile.if", "cuda_tile.testing$func"),
              ReturnLike, Terminator())
    FORMAT = _TERMINATOR_FMT

    def verify_op(self):
        parent = self.parent_op
        while parent is not None and parent.name == "cuda_tile.if":
            parent = parent.parent_op
        n = len(self.operands)
        if parent is not None and parent.name in ("cuda_tile.entry", "cuda_tile.testing$func"):
            ftype = parent.attributes.get("function_type")
            results = list(getattr(getattr(ftype, "value", None), "results", ()))
            name = getattr(parent.attributes.get("sym_name"), "value", "")
            if n != len(results):
                return (f"has {n} operands, but enclosing function (@{name}) returns "
                        f"{len(results)}")
            if parent.name == "cuda_tile.entry":
                if n:
                    return f"has {n} operands, but entry function must return 0 operands"
                return None
            for i, (v, t) in enumerate(zip(self.operands, results)):
                if v.type != t:
                    return op_error(self, f"type of return operand {i} ('{v.type}') doesn't match "
                                    f"function result type ('{t}') in function @{name}")
            return None
        return ("must be used within a cuda_tile.testing$func, cuda_tile.entry, or cuda_tile.if "
                "operation")



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
    from ..directives import ensure_terminator
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
    TRAITS = (AffineScope, AllTypesMatch("lowerBound", "upperBound", "step"),
              AllTypesMatch("initValues", "resultValues"), RecursiveMemoryEffects,
              SingleBlockImplicitTerminator("cuda_tile.continue"))
    parse_custom = staticmethod(_parse_for)
    print_custom = staticmethod(_print_for)

    def asm_result_names(self):
        return ["for"] if self.results else None

    def asm_block_arg_names(self, region_index: int):
        args = self.regions[0].blocks[0].args
        return ["loopIdx"] + [f"iterArg{i}" for i in range(len(args) - 1)]

    def verify_regions(self):
        region = self.regions[0]
        args = region.blocks[0].args if region.blocks else []
        if not args:
            return "expected at least one block argument for induction variable"
        iv, lb = args[0].type, self.operands[0].type
        if iv != lb:
            return (f"expected induction variable to be same type as bounds and step: "
                    f"'{iv}' vs '{lb}'")
        return verify_loop_iter_values(self, self.operands[3:], args[1:], self.results)



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
    #: implements OpAsmOpInterface in NVIDIA's dialect (matters for ``assume`` names)
    ASM_INTERFACE = True
    MNEMONIC, OPCODE, GROUP = "loop", 0x41, "Control Flow"
    OPERANDS = (Operand("initValues", ANY, VARIADIC),)
    RESULTS = (Result("resultValues", ANY, VARIADIC),)
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (AffineScope, RecursiveMemoryEffects,
              SingleBlockImplicitTerminator("cuda_tile.continue", also=("cuda_tile.break",)))
    parse_custom = staticmethod(_parse_loop)
    print_custom = staticmethod(_print_loop)

    def verify_regions(self):
        region = self.regions[0]
        args = region.blocks[0].args if region.blocks else []
        return verify_loop_iter_values(self, self.operands, args, self.results)

