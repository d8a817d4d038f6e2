"""Custom syntax of the func ops (MLIR's function-op printer/parser and the ODS formats of
``return``, ``call``, ``call_indirect`` and ``constant``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.attributes import (ArrayAttr, DictionaryAttr, StringAttr, SymbolRefAttr, TypeAttr,
                              format_symbol)
from ...ir.core import Region
from ...ir.types import FunctionType

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser
    from ...text.printer import OpPrinter

_FUNC_ELIDED = {"sym_name", "function_type", "sym_visibility", "arg_attrs", "res_attrs"}


def _ssa_list(parser: "Parser", close: str) -> list:
    if parser.tok == close:
        return []
    return parser.parse_comma_list(parser._parse_use, close)


def _attr_dict(parser: "Parser", state: "OpState") -> None:
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())


def _type_list(parser: "Parser") -> list:
    return parser.parse_comma_list(parser.parse_type)


def _dicts_or_none(dicts: list) -> ArrayAttr | None:
    if all(not d.entries for d in dicts):
        return None
    return ArrayAttr(tuple(dicts))


def parse_function_results(parser: "Parser") -> tuple[list, list]:
    """A function signature's ``[-> T | -> (T [{attrs}], ...)]``: the result types and one
    dictionary per result (empty where none is written)."""
    results: list = []
    res_attrs: list = []
    if parser.consume("->"):
        if parser.consume("("):
            def result():
                results.append(parser.parse_type())
                res_attrs.append(DictionaryAttr.of(parser.parse_attr_dict_body())
                                 if parser.tok == "{" else DictionaryAttr(()))
            if parser.tok != ")":
                parser.parse_comma_list(result, ")")
            parser.expect(")")
        else:
            results.append(parser.parse_type())
            res_attrs.append(DictionaryAttr(()))
    return results, res_attrs


def function_results_text(printer: "OpPrinter", ftype, res_attrs) -> str:
    """`` -> T`` or `` -> (T {attrs}, ...)`` of a function signature (``""`` without results),
    as MLIR's function printer writes it."""
    if not ftype.results:
        return ""
    attrs_of = printer.argument_attrs
    res = [str(t) + attrs_of(res_attrs, i) for i, t in enumerate(ftype.results)]
    if len(res) == 1 and not attrs_of(res_attrs, 0) and \
            not isinstance(ftype.results[0], FunctionType):
        return " -> " + res[0]
    return " -> (" + ", ".join(res) + ")"


# -- func.func ---------------------------------------------------------------------------------

#: What a function's custom form spells itself: not allowed in its attribute dictionary.
_INFERRED = ("sym_visibility", "sym_name", "function_type")


def check_function_attr_dict(parser: "Parser", state: "OpState", attrs: dict, at: int) -> None:
    """Add a function's ``attributes {..}`` to ``state``, as MLIR's function parser does: an
    attribute the syntax spells (name, visibility, type) is an error at the ``attributes``
    keyword (``at``); one given twice (``arg_attrs`` with argument attributes) is an error at
    the op."""
    for name in _INFERRED:
        if name in attrs:
            raise parser.error(f"{parser.op_prefix()}'{name}' is an inferred attribute and "
                               "should not be specified in the explicit attribute dictionary", at)
    for name in attrs:
        if name in state.attrs:
            raise parser.error(f"{parser.op_prefix()}attribute '{name}' occurs more than once "
                               "in the attribute list", state.start)
    state.attrs.update(attrs)


def parse_func(parser: "Parser", state: "OpState"):
    if parser.tok in ("public", "private", "nested"):
        state.attrs["sym_visibility"] = StringAttr(parser.tok)
        parser.i += 1
    state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
    parser.expect("(")
    args: list = []
    arg_attrs: list = []

    def one():
        tok, off = parser.tok, parser.offset
        if tok and tok[0] == "%":
            parser.i += 1
            parser.expect(":")
        else:
            tok = ""
        typ = parser.parse_type()
        attrs, loc = parser.parse_argument_suffix()
        args.append((tok, typ, off, loc))
        arg_attrs.append(attrs)
    if parser.tok != ")":
        parser.parse_comma_list(one, ")")
    parser.expect(")")
    results, res_attrs = parse_function_results(parser)
    state.attrs["function_type"] = TypeAttr(FunctionType([a[1] for a in args], results))
    for key, dicts in (("arg_attrs", arg_attrs), ("res_attrs", res_attrs)):
        found = _dicts_or_none(dicts)
        if found is not None:
            state.attrs[key] = found
    if parser.tok == "attributes":
        at = parser.offset
        parser.i += 1
        check_function_attr_dict(parser, state, parser.parse_attr_dict_body(), at)
    region = Region()
    if parser.tok == "{":
        named = all(a[0] for a in args)
        if args and not named:
            raise parser.error("expected SSA identifier")
        parser.parse_region_into(region, None, isolated=True, dialect="func", entry_args=args)
        if not region.blocks:
            region.add_block([a[1] for a in args])
    state.regions["body"] = region
    return state.build()


def print_func(printer: "OpPrinter", op) -> str:
    ftype = op.attributes["function_type"].value
    region = op.regions[0]
    block = region.blocks[0] if region.blocks else None
    vis = op.attributes.get("sym_visibility")
    text = f"{vis.value} " if isinstance(vis, StringAttr) else ""
    text += format_symbol(op.attributes["sym_name"].value)
    printer.require_signature_attrs(op)
    arg_attrs = op.attributes.get("arg_attrs")
    res_attrs = op.attributes.get("res_attrs")

    attrs_of = printer.argument_attrs
    parts = []
    for i, t in enumerate(ftype.inputs):
        item = str(t)
        loc = ""
        if block is not None and i < len(block.args):
            item = f"{printer.value_name(block.args[i])}: {item}"
            loc = printer.argument_loc_text(block.args[i])
        parts.append(item + attrs_of(arg_attrs, i) + loc)
    text += "(" + ", ".join(parts) + ")" + function_results_text(printer, ftype, res_attrs)
    text += printer.attr_dict_text(op, _FUNC_ELIDED, with_keyword=True)
    if block is not None:
        text += " " + printer.render_region(region)
    return " " + text


# -- func.return, func.call, func.call_indirect, func.constant -------------------------------

def parse_return(parser: "Parser", state: "OpState"):
    uses = []
    if parser.tok and parser.tok[0] == "%":
        uses = parser.parse_comma_list(parser._parse_use)
    state.operands["operands"] = uses
    _attr_dict(parser, state)
    types: list = []
    off = parser.offset
    if uses:
        parser.expect(":")
        types = _type_list(parser)
    state.set_types("operands", "operand", types, off)
    return state.build()


def _operand_list(printer: "OpPrinter", values) -> str:
    return ", ".join(printer.value_name(v) for v in values)


def print_return(printer: "OpPrinter", op) -> str:
    text = printer.attr_dict_text(op, set())
    if op.operands:
        text = " " + _operand_list(printer, op.operands) + text + " : " + \
            ", ".join(str(v.type) for v in op.operands)
    return text


def _functional_type(parser: "Parser", state: "OpState", operands: str, results: str) -> None:
    parser.expect(":")
    off = parser.offset
    ftype = parser.parse_type()
    if not isinstance(ftype, FunctionType):
        raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: expected "
                           f"builtin.function, but found '{ftype}'", off)
    state.set_types(operands, "operand", list(ftype.inputs), off)
    state.set_types(results, "result", list(ftype.results), off)


def parse_call(parser: "Parser", state: "OpState"):
    state.attrs["callee"] = SymbolRefAttr(parser.parse_symbol_name())
    parser.expect("(")
    state.operands["operands"] = _ssa_list(parser, ")")
    parser.expect(")")
    _attr_dict(parser, state)
    _functional_type(parser, state, "operands", "results")
    return state.build()


def _ftype_text(ins, outs) -> str:
    return str(FunctionType([v.type for v in ins], [r.type for r in outs]))


def print_call(printer: "OpPrinter", op) -> str:
    return (f" {op.attributes['callee'].generic()}({_operand_list(printer, op.operands)})"
            f"{printer.attr_dict_text(op, {'callee'})} : "
            f"{_ftype_text(op.operands, op.results)}")


def parse_call_indirect(parser: "Parser", state: "OpState"):
    state.operands["callee"] = [parser._parse_use()]
    parser.expect("(")
    state.operands["callee_operands"] = _ssa_list(parser, ")")
    parser.expect(")")
    _attr_dict(parser, state)
    parser.expect(":")
    off = parser.offset
    ftype = parser.parse_type()
    if not isinstance(ftype, FunctionType):
        raise parser.error(f"{parser.op_prefix()}'callee' must be function type, but got "
                           f"'{ftype}'", off)
    state.set_types("callee", "operand", [ftype], off)
    state.set_types("callee_operands", "operand", list(ftype.inputs), off)
    state.set_types("results", "result", list(ftype.results), off)
    return state.build()


def print_call_indirect(printer: "OpPrinter", op) -> str:
    return (f" {printer.value_name(op.operands[0])}({_operand_list(printer, op.operands[1:])})"
            f"{printer.attr_dict_text(op, set())} : {op.operands[0].type}")


def parse_constant(parser: "Parser", state: "OpState"):
    _attr_dict(parser, state)
    state.attrs["value"] = SymbolRefAttr(parser.parse_symbol_name())
    parser.expect(":")
    off = parser.offset
    state.set_types("result", "result", [parser.parse_type()], off)
    return state.build()


def print_constant(printer: "OpPrinter", op) -> str:
    return (f"{printer.attr_dict_text(op, {'value'})} {op.attributes['value'].generic()} : "
            f"{op.results[0].type}")
