"""Custom syntax of the scf ops whose MLIR parsers and printers are hand-written (``for``,
``if``, ``while``, ``parallel``, ``forall``, ``execute_region``, ``index_switch``, ``reduce``,
``forall.in_parallel``), spelled exactly as mlir-opt 22 prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...ir.attributes import UNIT, DenseArrayAttr, IntegerAttr
from ...ir.core import Operation, Region
from ...ir.types import FunctionType
from ...text.parser import Parser
from .common import (INDEX_TYPE, attr_dict_with_keyword, ensure_terminator, parse_region, parse_ssa_list,
                     parse_type_list, print_region, type_list)

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.printer import OpPrinter

#: ``ShapedType::kDynamic``: a dynamic entry of a mixed static/dynamic index list
DYNAMIC = -(2 ** 63)


def _index_type():
    return INDEX_TYPE


def _is_terminator(op: Operation) -> bool:
    from ...ir.traits import Terminator
    spec = op.SPEC
    return spec is not None and spec.has_trait(Terminator)


def _elide_any_terminator(printer: "OpPrinter", region: Region, entry_args: bool = False) -> str:
    """``printRegion(..., printBlockTerminators=false)``: the block's terminator is not shown."""
    if not region.blocks:
        return "{\n" + "  " * printer.indent + "}"
    return printer.render_region(region, print_entry_args=entry_args, print_terminator=False,
                                 elide_terminator_if=_is_terminator)


def _names(printer: "OpPrinter", values) -> str:
    return ", ".join(printer.value_name(v) for v in values)


def _attr_dict(parser: Parser, state: "OpState") -> None:
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())


def _arg(parser: Parser) -> tuple[str, int]:
    """A region argument name ``%x`` (not yet defined)."""
    t = parser.tok
    if not t or t[0] != "%":
        raise parser.wrong_token_error("expected SSA operand")
    parser.i += 1
    return t, parser.offs[parser.i - 1]


def _assignments(parser: Parser) -> tuple[list, list]:
    """``(%inner = %outer, ...)`` -> (inner (name, offset)s, outer uses)."""
    parser.expect("(")
    inner: list = []
    outer: list = []

    def one():
        inner.append(_arg(parser))
        parser.expect("=")
        outer.append(parser._parse_use())
    parser.parse_comma_list(one, ")")
    parser.expect(")")
    return inner, outer


def _print_assignments(printer: "OpPrinter", inner, outer) -> str:
    return "(" + ", ".join(f"{printer.value_name(a)} = {printer.value_name(b)}"
                           for a, b in zip(inner, outer)) + ")"


def _optional_carried(parser: Parser, keyword: str) -> tuple[list, list, list]:
    """``keyword(%inner = %outer, ...) -> (types)`` if present: (inners, outers, types)."""
    if parser.tok != keyword:
        return [], [], []
    parser.i += 1
    inner, outer = _assignments(parser)
    parser.expect("->")
    return inner, outer, _paren_or_single_types(parser)


def _arrow_types(parser: Parser) -> list:
    """MLIR's ``parseOptionalArrowTypeList``: ``-> T`` or ``-> (T, ...)``."""
    if not parser.consume("->"):
        return []
    return _paren_or_single_types(parser)


def _print_arrow_types(types) -> str:
    """MLIR's ``printOptionalArrowTypeList``."""
    if not types:
        return ""
    if len(types) == 1 and not isinstance(types[0], FunctionType):
        return f" -> {types[0]}"
    return f" -> ({type_list(types)})"


def _set_regions(op: Operation, regions: list) -> Operation:
    op.regions = list(regions)
    for r in op.regions:
        r.parent = op
    return op


def constant_int(value) -> Optional[int]:
    """The integer a value is known to be (an ``arith.constant`` result), else None."""
    op = getattr(value, "owner", None)
    if op is None or getattr(op, "name", None) != "arith.constant":
        return None
    attr = op.attributes.get("value")
    return attr.value if isinstance(attr, IntegerAttr) else None


# ---------------------------------------------------------------------------------------------
# scf.for
# ---------------------------------------------------------------------------------------------

def parse_for(parser: Parser, state: "OpState") -> Operation:
    if parser.tok == "unsigned":
        parser.i += 1
        state.attrs["unsignedCmp"] = UNIT
    iv = _arg(parser)
    parser.expect("=")
    lb = parser._parse_use()
    parser.expect_keyword("to")
    ub = parser._parse_use()
    parser.expect_keyword("step")
    step = parser._parse_use()
    inner, outer, types = _optional_carried(parser, "iter_args")
    if len(outer) != len(types):
        raise parser.error(f"{parser.op_prefix()}mismatch in number of loop-carried values "
                           "and defined values", state.start)
    iv_type = parser.parse_type() if parser.consume(":") else _index_type()
    entry = [(iv[0], iv_type, iv[1])] + [(n, t, off) for (n, off), t in zip(inner, types)]
    region = parse_region(parser, entry)
    ensure_terminator(region, "scf.yield", parser.loc_at(state.start), _is_terminator)
    state.regions["region"] = region
    _attr_dict(parser, state)
    state.operands.update(lowerBound=[lb], upperBound=[ub], step=[step], initArgs=outer)
    state.operand_types.update(lowerBound=[iv_type], upperBound=[iv_type], step=[iv_type],
                               initArgs=list(types))
    state.result_types["results"] = list(types)
    return state.build()


def _paren_or_single_types(parser: Parser) -> list:
    """``T`` or ``(T, ...)``."""
    if parser.tok == "(":
        parser.i += 1
        types = parser.parse_comma_list(parser.parse_type, ")")
        parser.expect(")")
        return types
    return [parser.parse_type()]


def print_for(printer: "OpPrinter", op: Operation) -> str:
    region = op.regions[0]
    args = region.blocks[0].args
    lb, ub, step = op.operands[:3]
    text = " unsigned" if "unsignedCmp" in op.attributes else ""
    text += (f" {printer.value_name(args[0])} = {printer.value_name(lb)} to "
             f"{printer.value_name(ub)} step {printer.value_name(step)}")
    inits = op.operands[3:]
    if inits:
        text += (" iter_args" + _print_assignments(printer, args[1:], inits) +
                 f" -> ({type_list(v.type for v in inits)})")
    text += " "
    if str(lb.type) != "index":
        text += f" : {lb.type} "
    if inits:
        text += printer.render_region(region)
    else:
        text += _elide_any_terminator(printer, region)
    return text + printer.attr_dict_text(op, {"unsignedCmp"})


# ---------------------------------------------------------------------------------------------
# scf.if, scf.execute_region, scf.index_switch
# ---------------------------------------------------------------------------------------------

def parse_if(parser: Parser, state: "OpState") -> Operation:
    state.operands["condition"] = [parser._parse_use()]
    state.result_types["results"] = _arrow_types(parser)
    loc = parser.loc_at(state.start)
    then = parse_region(parser, [])
    ensure_terminator(then, "scf.yield", loc, _is_terminator)
    state.regions["thenRegion"] = then
    if parser.tok == "else":
        parser.i += 1
        other = parse_region(parser, [])
        ensure_terminator(other, "scf.yield", loc, _is_terminator)
        state.regions["elseRegion"] = other
    _attr_dict(parser, state)
    return state.build()


def print_if(printer: "OpPrinter", op: Operation) -> str:
    text = " " + printer.value_name(op.operands[0])
    show = bool(op.results)
    if show:
        text += f" -> ({type_list(r.type for r in op.results)})"

    def region(r: Region) -> str:
        return printer.render_region(r) if show else _elide_any_terminator(printer, r)
    text += " " + region(op.regions[0])
    if op.regions[1].blocks:
        text += " else " + region(op.regions[1])
    return text + printer.attr_dict_text(op, set())


def parse_execute_region(parser: Parser, state: "OpState") -> Operation:
    state.result_types["results"] = _arrow_types(parser)
    if parser.tok == "no_inline":
        parser.i += 1
        state.attrs["no_inline"] = UNIT
    state.regions["region"] = parse_region(parser, [])
    _attr_dict(parser, state)
    return state.build()


def print_execute_region(printer: "OpPrinter", op: Operation) -> str:
    text = ""
    if op.results:
        text += " -> " + type_list(r.type for r in op.results)
        if len(op.results) > 1:
            text = f" -> ({type_list(r.type for r in op.results)})"
    if "no_inline" in op.attributes:
        text += " no_inline"
    text += " " + printer.render_region(op.regions[0])
    return text + printer.attr_dict_text(op, {"no_inline"})


def parse_index_switch(parser: Parser, state: "OpState") -> Operation:
    state.operands["arg"] = [parser._parse_use()]
    _attr_dict(parser, state)
    state.result_types["results"] = parser.parse_comma_list(parser.parse_type) \
        if parser.consume("->") else []
    cases: list[int] = []
    regions: list[Region] = []
    while parser.tok == "case":
        parser.i += 1
        cases.append(parser.parse_integer(prefixed=True))
        regions.append(parse_region(parser, []))
    parser.expect_keyword("default")
    default = parse_region(parser, [])
    ensure_terminator(default, "scf.yield", parser.loc_at(state.start), _is_terminator)
    state.attrs["cases"] = DenseArrayAttr("i64", tuple(cases))
    state.regions["defaultRegion"] = default
    op = state.build()
    return _set_regions(op, [op.regions[0], *regions])


def print_index_switch(printer: "OpPrinter", op: Operation) -> str:
    text = " " + printer.value_name(op.operands[0]) + printer.attr_dict_text(op, {"cases"})
    if op.results:
        text += " -> " + type_list(r.type for r in op.results)
    text += " "
    indent = "  " * printer.indent
    for value, region in zip(op.attributes["cases"].value, op.regions[1:]):
        text += f"\n{indent}case {value} " + printer.render_region(region)
    return text + f"\n{indent}default " + print_region(printer, op.regions[0], False, False,
                                                       "scf.yield")


# ---------------------------------------------------------------------------------------------
# scf.while
# ---------------------------------------------------------------------------------------------

def parse_while(parser: Parser, state: "OpState") -> Operation:
    inner: list = []
    outer: list = []
    if parser.tok == "(":
        inner, outer = _assignments(parser)
    type_off = parser.offset  # (MLIR's parseColonType reports at the colon)
    parser.expect(":")
    ftype = parser.parse_type()
    if not isinstance(ftype, FunctionType):
        raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: expected "
                           f"builtin.function, but found '{ftype}'", type_off)
    if len(ftype.inputs) != len(outer):
        raise parser.error(f"{parser.op_prefix()}expected as many input types as operands "
                           f"(expected {len(outer)} got {len(ftype.inputs)})", type_off)
    state.operands["inits"] = outer
    state.operand_types["inits"] = list(ftype.inputs)
    state.result_types["results"] = list(ftype.results)
    entry = [(n, t, off) for (n, off), t in zip(inner, ftype.inputs)]
    state.regions["before"] = parse_region(parser, entry)
    parser.expect_keyword("do")
    state.regions["after"] = parse_region(parser)
    state.attrs.update(attr_dict_with_keyword(parser))
    return state.build()


def print_while(printer: "OpPrinter", op: Operation) -> str:
    before, after = op.regions
    text = ""
    if op.operands:
        text += " " + _print_assignments(printer, before.blocks[0].args, op.operands)
    ftype = FunctionType([v.type for v in op.operands], [r.type for r in op.results])
    text += f" : {ftype} " + print_region(printer, before)
    text += " do " + print_region(printer, after, entry_args=True)
    return text + printer.attr_dict_text(op, set(), with_keyword=True)


# ---------------------------------------------------------------------------------------------
# scf.parallel, scf.reduce
# ---------------------------------------------------------------------------------------------

def _bound_list(parser: Parser, n: int) -> list:
    off = parser.offset
    uses = parse_ssa_list(parser)
    if len(uses) != n:
        raise parser.error(f"{parser.op_prefix()}expected {n} operands", off)
    return uses


def parse_parallel(parser: Parser, state: "OpState") -> Operation:
    parser.expect("(")
    ivs = parser.parse_comma_list(lambda: _arg(parser), ")")
    parser.expect(")")
    parser.expect("=")
    lbs = _bound_list(parser, len(ivs))
    parser.expect_keyword("to")
    ubs = _bound_list(parser, len(ivs))
    parser.expect_keyword("step")
    steps = _bound_list(parser, len(ivs))
    inits: list = []
    if parser.tok == "init":
        parser.i += 1
        inits = parse_ssa_list(parser)
    types = _arrow_types(parser)
    index = _index_type()
    region = parse_region(parser, [(n, index, off) for n, off in ivs])
    _attr_dict(parser, state)
    if len(inits) != len(types):
        raise parser.error(f"{parser.op_prefix()}{len(inits)} operands present, but expected "
                           f"{len(types)}", state.start)
    ensure_terminator(region, "scf.reduce", parser.loc_at(state.start), _is_terminator)
    state.regions["region"] = region
    for name, uses in (("lowerBound", lbs), ("upperBound", ubs), ("step", steps)):
        state.operands[name] = uses
        state.operand_types[name] = [index] * len(uses)
    state.operands["initVals"] = inits
    state.operand_types["initVals"] = list(types)
    state.result_types["results"] = list(types)
    return state.build()


def print_parallel(printer: "OpPrinter", op: Operation) -> str:
    args = op.regions[0].blocks[0].args
    text = (f" ({_names(printer, args)}) = ({_names(printer, op.lowerBound)}) to "
            f"({_names(printer, op.upperBound)}) step ({_names(printer, op.step)})")
    if op.initVals:
        text += f" init ({_names(printer, op.initVals)})"
    text += _print_arrow_types([r.type for r in op.results])
    text += " " + printer.render_region(op.regions[0])
    return text + printer.attr_dict_text(op, set())


def parse_reduce(parser: Parser, state: "OpState") -> Operation:
    uses: list = []
    types: list = []
    if parser.tok == "(":
        parser.i += 1
        uses = parser.parse_comma_list(parser._parse_use)
        parser.expect(":")
        types = parse_type_list(parser)
        parser.expect(")")
    regions: list[Region] = []
    if parser.tok == "{":
        regions.append(parse_region(parser))
        while parser.consume(","):
            regions.append(parse_region(parser))
    _attr_dict(parser, state)
    state.operands["operands"] = uses
    state.operand_types["operands"] = types
    op = state.build()
    return _set_regions(op, regions)


def print_reduce(printer: "OpPrinter", op: Operation) -> str:
    text = ""
    if op.operands:
        text += (f"({_names(printer, op.operands)} : "
                 f"{type_list(v.type for v in op.operands)})")
    text += " " + ", ".join(printer.render_region(r, print_entry_args=True) for r in op.regions)
    return text + printer.attr_dict_text(op, set())


# ---------------------------------------------------------------------------------------------
# scf.forall, scf.forall.in_parallel
# ---------------------------------------------------------------------------------------------

def _mixed_list(parser: Parser, delimiters: str = "()") -> tuple[list, list]:
    """``(%a, 4, ...)`` (or ``[...]``) -> (static values with DYNAMIC for SSA entries, SSA
    uses): MLIR's ``custom<DynamicIndexList>``."""
    parser.expect(delimiters[0], message=f"expected '{delimiters[0]}' in dynamic index list")
    static: list[int] = []
    dynamic: list = []

    def one():
        t = parser.tok
        if t and t[0] == "%":
            dynamic.append(parser._parse_use())
            static.append(DYNAMIC)
        else:
            static.append(parser.parse_fixed_integer(64))
    parser.parse_comma_list(one, delimiters[1])
    parser.expect(delimiters[1], message=f"expected '{delimiters[1]}' in dynamic index list")
    return static, dynamic


def _print_mixed(printer: "OpPrinter", static, dynamic) -> str:
    """``(%a, 4, ...)``; an IndexError when the op has too few dynamic values (invalid IR,
    which the printer then shows in the generic form)."""
    parts = []
    k = 0
    for s in static:
        if s == DYNAMIC:
            parts.append(printer.value_name(dynamic[k]))
            k += 1
        else:
            parts.append(str(s))
    return "(" + ", ".join(parts) + ")"


def verify_mixed_list(what: str, rank: int, static, dynamic) -> Optional[str]:
    """MLIR's ``verifyListOfOperandsOrIntegers``."""
    if len(static) != rank:
        return f"expected {rank} {what} values, got {len(static)}"
    n_dynamic = sum(1 for s in static if s == DYNAMIC)
    if n_dynamic != len(dynamic):
        return f"expected {n_dynamic} dynamic {what} values"
    return None


def parse_forall(parser: Parser, state: "OpState") -> Operation:
    parser.expect("(")
    ivs = parser.parse_comma_list(lambda: _arg(parser), ")")
    parser.expect(")")
    n = len(ivs)
    if parser.tok == "in":
        parser.i += 1
        ub_static, ub_dyn = _mixed_list(parser)
        lb_static, lb_dyn, st_static, st_dyn = [0] * n, [], [1] * n, []
    else:
        parser.expect("=")
        lb_static, lb_dyn = _mixed_list(parser)
        parser.expect_keyword("to")
        ub_static, ub_dyn = _mixed_list(parser)
        parser.expect_keyword("step")
        st_static, st_dyn = _mixed_list(parser)
    inner, outer, types = _optional_carried(parser, "shared_outs")
    index = _index_type()
    entry = [(name, index, off) for name, off in ivs]
    entry += [(name, t, off) for (name, off), t in zip(inner, types)]
    region = parse_region(parser, entry)
    ensure_terminator(region, "scf.forall.in_parallel", parser.loc_at(state.start),
                      _is_terminator)
    state.regions["region"] = region
    _attr_dict(parser, state)
    for name, uses in (("dynamicLowerBound", lb_dyn), ("dynamicUpperBound", ub_dyn),
                       ("dynamicStep", st_dyn)):
        state.operands[name] = uses
        state.operand_types[name] = [index] * len(uses)
    state.operands["outputs"] = outer
    state.operand_types["outputs"] = list(types)
    state.result_types["results"] = list(types)
    state.attrs["staticLowerBound"] = DenseArrayAttr("i64", tuple(lb_static))
    state.attrs["staticUpperBound"] = DenseArrayAttr("i64", tuple(ub_static))
    state.attrs["staticStep"] = DenseArrayAttr("i64", tuple(st_static))
    return state.build()


def print_forall(printer: "OpPrinter", op: Operation) -> str:
    region = op.regions[0]
    args = region.blocks[0].args
    lb = op.attributes["staticLowerBound"].value
    ub = op.attributes["staticUpperBound"].value
    st = op.attributes["staticStep"].value
    rank = len(ub)
    text = f" ({_names(printer, args[:rank])})"
    if all(v == 0 for v in lb) and all(v == 1 for v in st):
        text += " in " + _print_mixed(printer, ub, op.dynamicUpperBound)
    else:
        text += (" = " + _print_mixed(printer, lb, op.dynamicLowerBound) + " to " +
                 _print_mixed(printer, ub, op.dynamicUpperBound) + " step " +
                 _print_mixed(printer, st, op.dynamicStep))
    if op.outputs:
        text += " shared_outs" + _print_assignments(printer, args[rank:], op.outputs)
    text += " "
    if op.outputs:
        text += f"-> ({type_list(r.type for r in op.results)}) "
    text += printer.render_region(region) if op.results else _elide_any_terminator(printer, region)
    return text + printer.attr_dict_text(op, {"staticLowerBound", "staticUpperBound",
                                              "staticStep"})


def parse_in_parallel(parser: Parser, state: "OpState") -> Operation:
    region = parse_region(parser)
    if not region.blocks:
        region.add_block()
    state.regions["region"] = region
    _attr_dict(parser, state)
    return state.build()


def print_in_parallel(printer: "OpPrinter", op: Operation) -> str:
    return " " + _elide_any_terminator(printer, op.regions[0]) + printer.attr_dict_text(op, set())
