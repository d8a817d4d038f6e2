"""Function-like ops: ``cuda_tile.entry`` (a kernel) and the test op ``cuda_tile.testing$func``.

Syntax: ``entry @name(%a: TYPE [{attrs}] [loc(..)], ...) [-> TYPES] [optimization_hints=<...>]
{ body } [attr-dict]``.  The body's terminator ``return`` is implicit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..attributes import (ArrayAttr, OptimizationHintsAttr, StringAttr, TypeAttr,
                          format_symbol)
from ....ir.core import Operation, Region
from ....ir.opdef import Attr, RegionDef
from ..types import FunctionType
from .base import CudaTileOp
from ....ir.traits import FunctionLike, IsolatedFromAbove, SingleBlockImplicitTerminator
from ..types import TileType
from ..verify_util import (ENTRY_HINTS, verify_function_body_debug_info, verify_function_debug_info,
                           verify_optimization_hints)

if TYPE_CHECKING:  # pragma: no cover
    from ....text.format import OpState
    from ....text.parser import Parser
    from ....text.printer import OpPrinter

_FUNC_ATTRS = ("sym_name", "function_type", "arg_attrs", "res_attrs", "optimization_hints")


def parse_function(parser: "Parser", state: "OpState", *, allow_hints: bool) -> Operation:
    """Parse the part of a function op after its name."""
    from ..directives import ensure_terminator
    name = parser.parse_symbol_name()
    state.attrs["sym_name"] = StringAttr(name)
    parser.expect("(")
    args: list = []
    arg_attrs: list = []
    named: Optional[bool] = None

    def one():
        nonlocal named
        t = parser.tok
        off = parser.offset
        if t and t[0] == "%":
            if named is False:
                raise parser.error("expected type instead of SSA identifier")
            named = True
            parser.i += 1
            parser.expect(":")
            typ = parser.parse_type()
        else:
            if named is True:
                raise parser.error("expected SSA identifier")
            named = False
            t = ""
            typ = parser.parse_type()
        attrs, loc = parser.parse_argument_suffix()
        args.append((t, typ, off, loc))
        arg_attrs.append(attrs)
    parser.parse_comma_list(one, ")")
    parser.expect(")")
    results: list = []
    if parser.consume("->"):
        if parser.consume("("):
            results = parser.parse_comma_list(parser.parse_type, ")")
            parser.expect(")")
        else:
            results = [parser.parse_type()]
    state.attrs["function_type"] = TypeAttr(FunctionType([a[1] for a in args], results))
    state.attrs["arg_attrs"] = ArrayAttr(tuple(arg_attrs))
    if allow_hints and parser.tok == "optimization_hints":
        parser.i += 1
        parser.expect("=")
        from ..syntax import parse_optimization_hints_body
        hints = parse_optimization_hints_body(parser, state.spec.name)
        if hints.entries:
            # NVIDIA prints no `optimization_hints=<>`: an empty one is the same as none (the
            # generic parser, the bytecode reader and writer treat it so too)
            state.attrs["optimization_hints"] = hints
    if parser.tok == "attributes":
        parser.i += 1
        state.attrs.update(parser.parse_attr_dict_body())
    region = Region()
    if parser.tok != "{":
        raise parser.error("expected '{' to begin a region")
    parser.parse_region_into(region, None, isolated=True, dialect="cuda_tile",
                             entry_args=args if named is not False else
                             [("", a[1], a[2], a[3]) for a in args])
    if not region.blocks:
        region.add_block([a[1] for a in args])
    ensure_terminator(region, "cuda_tile.return", parser.loc_at(state.start))
    state.regions["body"] = region
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    return state.build()


def print_function(printer: "OpPrinter", op: Operation, *, with_hints: bool) -> str:
    # (result attributes have no custom spelling here; the argument list is canonical)
    printer.require_signature_attrs(op, printed=(), canonical=("arg_attrs",))
    name = op.attributes["sym_name"].value
    ftype = op.attributes["function_type"].value
    block = op.regions[0].blocks[0] if op.regions[0].blocks else None
    arg_attrs = op.attributes.get("arg_attrs")
    parts = []
    for i, t in enumerate(ftype.inputs):
        text = t.short
        if block is not None and i < len(block.args):
            text = f"{printer.value_name(block.args[i])}: {text}"
        parts.append(text + printer.argument_attrs(arg_attrs, i))
    sig = f"{format_symbol(name)}(" + ", ".join(parts) + ")"
    if ftype.results:
        res = [t.short for t in ftype.results]
        sig += " -> " + (res[0] if len(res) == 1 else "(" + ", ".join(res) + ")")
    hints = op.attributes.get("optimization_hints")
    if with_hints and isinstance(hints, OptimizationHintsAttr) and hints.entries:
        sig += f" optimization_hints=<{hints.body()}>"
    region = printer.render_region(op.regions[0])
    tail = printer.attr_dict_text(op, set(_FUNC_ATTRS))
    return f"{sig} {region}{tail}"


class _FunctionOp(CudaTileOp):
    """What ``entry`` and ``testing$func`` share: a symbol name, a function type, optional
    argument/result attributes and one isolated body block ending in ``return``."""
    __slots__ = ()
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("function_type", "function_type"),
                  Attr("arg_attrs", "dict_array", optional=True),
                  Attr("res_attrs", "dict_array", optional=True))
    REGIONS = (RegionDef("body", "sized1"),)
    TRAITS = (FunctionLike, IsolatedFromAbove(),
              SingleBlockImplicitTerminator("cuda_tile.return"))

    @property
    def function_type(self) -> FunctionType:
        return self.attributes["function_type"].value

    @property
    def sym_name(self) -> str:
        return self.attributes["sym_name"].value


class EntryOp(_FunctionOp):
    """A kernel: the unit a launch runs once per tile block."""
    __slots__ = ()
    #: implements OpAsmOpInterface in NVIDIA's dialect (matters for ``assume`` names)
    ASM_INTERFACE = True
    MNEMONIC, OPCODE, GROUP = "entry", 0x16, "Core"
    ATTRIBUTES = _FunctionOp.ATTRIBUTES + (Attr("optimization_hints", "hints", optional=True),)

    @property
    def arguments(self):
        return self.regions[0].blocks[0].args

    parse_custom = staticmethod(lambda parser, state: parse_function(parser, state,
                                                                     allow_hints=True))
    print_custom = staticmethod(lambda printer, op: print_function(printer, op, with_hints=True))

    def verify_op(self):
        ftype = self.attributes["function_type"].value
        if ftype.results:
            return "entry op must not return values"
        for t in ftype.inputs:
            if isinstance(t, TileType) and t.rank != 0:
                return "entry op must have scalar types (rank 0 !cuda_tile.tile)"
        msg = verify_function_debug_info(self)
        if msg:
            return msg
        return verify_optimization_hints(self, ENTRY_HINTS)

    def verify_regions(self):
        return verify_function_body_debug_info(self)


class TestingFuncOp(_FunctionOp):
    """``testing$func``: a test-only function op with ``entry``'s syntax (used by the corpus)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "testing$func", 0x3001, "Testing"
    TESTING = True
    parse_custom = staticmethod(lambda parser, state: parse_function(parser, state,
                                                                     allow_hints=False))
    print_custom = staticmethod(lambda printer, op: print_function(printer, op, with_hints=False))
