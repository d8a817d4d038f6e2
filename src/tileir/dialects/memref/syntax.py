"""Custom syntax of the memref ops whose MLIR parsers and printers are hand-written or use
custom directives (mixed static/dynamic index lists, reassociations, globals, prefetch, DMA,
atomics), spelled as mlir-opt 22 prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.attributes import (UNIT, ArrayAttr, DenseArrayAttr, IntegerAttr, StringAttr,
                              SymbolRefAttr, TypeAttr, format_symbol, quote_string)
from ...ir.core import Operation, Region
from ...ir.types import I32, I64
from ...text.format import parse_type_of_class
from ...text.parser import Parser
from ..scf.common import INDEX_TYPE, parse_region, print_region, type_list
from ..scf.syntax import DYNAMIC, _mixed_list, _print_mixed

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.printer import OpPrinter

#: memref.atomic_rmw kinds (arith's AtomicRMWKind) by keyword, with their integer values
ATOMIC_KINDS = ("addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
                "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori")


def _attrs(parser: Parser, state: "OpState") -> None:
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())


def _names(printer: "OpPrinter", values) -> str:
    return ", ".join(printer.value_name(v) for v in values)


def _uses_in_brackets(parser: Parser) -> list:
    parser.expect("[")
    uses = parser.parse_comma_list(parser._parse_use, "]")
    parser.expect("]")
    return uses


def _set_index(state: "OpState", name: str, uses: list) -> None:
    state.operands[name] = uses
    state.operand_types[name] = [INDEX_TYPE] * len(uses)


def _dyn_list(parser: Parser, state: "OpState", operand: str, attr: str,
              delim: str = "(") -> None:
    """``custom<DynamicIndexList>``: ``[%a, 4, ...]``."""
    if delim == "[":
        static, dynamic = _bracket_mixed(parser)
    else:
        static, dynamic = _mixed_list(parser)
    _set_index(state, operand, dynamic)
    state.attrs[attr] = DenseArrayAttr("i64", tuple(static))


def _bracket_mixed(parser: Parser) -> tuple[list, list]:
    return _mixed_list(parser, "[]")


def _print_bracket_mixed(printer: "OpPrinter", op: Operation, operand: str, attr: str) -> str:
    return "[" + _print_mixed(printer, op.attributes[attr].value, getattr(op, operand))[1:-1] + "]"


def _types_to(parser: Parser, state: "OpState", source: str, result: str,
              keyword: str = "to") -> None:
    parser.expect(":")
    spec = state.spec
    state.operand_types[source] = [parse_type_of_class(
        parser, spec.operands[spec.operand_index[source]].constraint)]
    parser.expect_keyword(keyword)
    state.result_types[result] = [parse_type_of_class(
        parser, spec.results[spec.result_index[result]].constraint)]


# -- subview / reinterpret_cast --------------------------------------------------------------

def parse_subview(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    for operand, attr in (("offsets", "static_offsets"), ("sizes", "static_sizes"),
                          ("strides", "static_strides")):
        _dyn_list(parser, state, operand, attr, "[")
    _attrs(parser, state)
    _types_to(parser, state, "source", "result")
    return state.build()


_SUBVIEW_ATTRS = {"static_offsets", "static_sizes", "static_strides"}


def print_subview(printer: "OpPrinter", op: Operation) -> str:
    text = " " + printer.value_name(op.operands[0])
    text += _print_bracket_mixed(printer, op, "offsets", "static_offsets")
    text += " " + _print_bracket_mixed(printer, op, "sizes", "static_sizes")
    text += " " + _print_bracket_mixed(printer, op, "strides", "static_strides")
    text += printer.attr_dict_text(op, _SUBVIEW_ATTRS)
    return text + f" : {op.operands[0].type} to {op.results[0].type}"


def parse_reinterpret_cast(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    parser.expect_keyword("to")
    for i, (word, operand, attr) in enumerate((("offset", "offsets", "static_offsets"),
                                               ("sizes", "sizes", "static_sizes"),
                                               ("strides", "strides", "static_strides"))):
        if i:
            parser.expect(",")
        parser.expect_keyword(word)
        parser.expect(":")
        _dyn_list(parser, state, operand, attr, "[")
    _attrs(parser, state)
    _types_to(parser, state, "source", "result")
    return state.build()


def print_reinterpret_cast(printer: "OpPrinter", op: Operation) -> str:
    text = f" {printer.value_name(op.operands[0])} to offset: "
    text += _print_bracket_mixed(printer, op, "offsets", "static_offsets")
    text += ", sizes: " + _print_bracket_mixed(printer, op, "sizes", "static_sizes")
    text += ", strides: " + _print_bracket_mixed(printer, op, "strides", "static_strides")
    text += printer.attr_dict_text(op, _SUBVIEW_ATTRS)
    return text + f" : {op.operands[0].type} to {op.results[0].type}"


# -- expand_shape / collapse_shape -----------------------------------------------------------

def _reassociation(parser: Parser) -> ArrayAttr:
    parser.expect("[")

    def index():
        # (an i64 integer attribute: MLIR wraps [2**63, 2**64) and rejects what is wider)
        off = parser.offs[parser.i + 1] if parser.tok == "-" else parser.offset
        return parser.integer_attr(parser.parse_integer(), I64, off)

    def group():
        parser.expect("[")
        items = parser.parse_comma_list(index, "]")
        parser.expect("]")
        return ArrayAttr(tuple(items))
    groups = parser.parse_comma_list(group, "]")
    parser.expect("]")
    return ArrayAttr(tuple(groups))


def _print_reassociation(attr) -> str:
    return "[" + ", ".join("[" + ", ".join(str(i.value) for i in g.value) + "]"
                           for g in attr.value) + "]"


def reassociation_groups(op: Operation) -> list[list[int]]:
    return [[i.value for i in g.value] for g in op.attributes["reassociation"].value]


def parse_expand_shape(parser: Parser, state: "OpState") -> Operation:
    state.operands["src"] = [parser._parse_use()]
    state.attrs["reassociation"] = _reassociation(parser)
    parser.expect_keyword("output_shape")
    _dyn_list(parser, state, "output_shape", "static_output_shape", "[")
    _attrs(parser, state)
    _types_to(parser, state, "src", "result", "into")
    return state.build()


def print_expand_shape(printer: "OpPrinter", op: Operation) -> str:
    text = (f" {printer.value_name(op.operands[0])} "
            f"{_print_reassociation(op.attributes['reassociation'])} output_shape "
            + _print_bracket_mixed(printer, op, "output_shape", "static_output_shape"))
    text += printer.attr_dict_text(op, {"reassociation", "static_output_shape"})
    return text + f" : {op.operands[0].type} into {op.results[0].type}"


def parse_collapse_shape(parser: Parser, state: "OpState") -> Operation:
    state.operands["src"] = [parser._parse_use()]
    state.attrs["reassociation"] = _reassociation(parser)
    _attrs(parser, state)
    _types_to(parser, state, "src", "result", "into")
    return state.build()


def print_collapse_shape(printer: "OpPrinter", op: Operation) -> str:
    text = (f" {printer.value_name(op.operands[0])} "
            f"{_print_reassociation(op.attributes['reassociation'])}")
    text += printer.attr_dict_text(op, {"reassociation"})
    return text + f" : {op.operands[0].type} into {op.results[0].type}"


# -- view / reshape / realloc / extract_strided_metadata ------------------------------------

def parse_view(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    shift = _uses_in_brackets(parser)
    _set_index(state, "byte_shift", shift)
    _set_index(state, "sizes", _uses_in_brackets(parser))
    _attrs(parser, state)
    _types_to(parser, state, "source", "result")
    return state.build()


def print_view(printer: "OpPrinter", op: Operation) -> str:
    text = (f" {printer.value_name(op.operands[0])}[{printer.value_name(op.operands[1])}]"
            f"[{_names(printer, op.operands[2:])}]")
    text += printer.attr_dict_text(op, set())
    return text + f" : {op.operands[0].type} to {op.results[0].type}"


def parse_reshape(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    parser.expect("(")
    state.operands["shape"] = [parser._parse_use()]
    parser.expect(")")
    _attrs(parser, state)
    parser.expect(":")
    off = parser.offset
    ftype = parser.parse_type()
    if len(getattr(ftype, "inputs", ())) != 2 or len(ftype.results) != 1:
        raise parser.error("expected function type with 2 inputs and 1 result", off)
    state.operand_types["source"] = [ftype.inputs[0]]
    state.operand_types["shape"] = [ftype.inputs[1]]
    state.result_types["result"] = [ftype.results[0]]
    return state.build()


def print_reshape(printer: "OpPrinter", op: Operation) -> str:
    src, shape = op.operands
    text = f" {printer.value_name(src)}({printer.value_name(shape)})"
    text += printer.attr_dict_text(op, set())
    return text + f" : ({src.type}, {shape.type}) -> {op.results[0].type}"


def parse_realloc(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    if parser.consume("("):
        _set_index(state, "dynamicResultSize", [parser._parse_use()])
        parser.expect(")")
    _attrs(parser, state)
    _types_to(parser, state, "source", "result")
    return state.build()


def print_realloc(printer: "OpPrinter", op: Operation) -> str:
    text = " " + printer.value_name(op.operands[0])
    if len(op.operands) > 1:
        text += f"({printer.value_name(op.operands[1])})"
    text += printer.attr_dict_text(op, set())
    return text + f" : {op.operands[0].type} to {op.results[0].type}"


def parse_extract_strided_metadata(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    parser.expect(":")
    state.operand_types["source"] = [parse_type_of_class(parser, state.spec.operands[0].constraint)]
    parser.expect("->")
    types = parser.parse_comma_list(parser.parse_type)
    _attrs(parser, state)
    rank = (len(types) - 2) // 2
    state.result_types.update(base_buffer=types[:1], offset=types[1:2],
                              sizes=types[2:2 + rank], strides=types[2 + rank:])
    return state.build()


def print_extract_strided_metadata(printer: "OpPrinter", op: Operation) -> str:
    src = op.operands[0]
    return (f" {printer.value_name(src)} : {src.type} -> "
            f"{type_list(r.type for r in op.results)}" + printer.attr_dict_text(op, set()))


# -- transpose / prefetch / atomics -----------------------------------------------------------

def parse_transpose(parser: Parser, state: "OpState") -> Operation:
    from ..builtin.affine import AffineMapAttr, parse_affine_map_body
    state.operands["in"] = [parser._parse_use()]
    state.attrs["permutation"] = AffineMapAttr(parse_affine_map_body(parser))
    _attrs(parser, state)
    # (MLIR's parseColonType: a type of the wrong class is reported at the colon)
    colon = parser.offset
    parser.expect(":")
    state.operand_types["in"] = [parse_type_of_class(parser, state.spec.operands[0].constraint,
                                                     colon)]
    parser.expect_keyword("to")
    state.result_types["result"] = [parser.parse_type()]
    return state.build()


def print_transpose(printer: "OpPrinter", op: Operation) -> str:
    text = f" {printer.value_name(op.operands[0])} {op.attributes['permutation'].value}"
    text += printer.attr_dict_text(op, {"permutation"})
    return text + f" : {op.operands[0].type} to {op.results[0].type}"


def parse_prefetch(parser: Parser, state: "OpState") -> Operation:
    state.operands["memref"] = [parser._parse_use()]
    _set_index(state, "indices", _uses_in_brackets(parser))
    parser.expect(",")
    rw = parser.parse_keyword()
    if rw not in ("read", "write"):
        raise parser.error("rw specifier has to be 'read' or 'write'", parser.offs[parser.i - 1])
    parser.expect(",")
    parser.expect_keyword("locality")
    parser.expect("<")
    locality = parser.parse_integer()
    parser.expect(">")
    parser.expect(",")
    cache = parser.parse_keyword()
    if cache not in ("data", "instr"):
        raise parser.error("cache type has to be 'data' or 'instr'", parser.offs[parser.i - 1])
    _attrs(parser, state)
    colon = parser.offset  # (MLIR's parseColonType reports a wrong class at the colon)
    parser.expect(":")
    state.operand_types["memref"] = [parse_type_of_class(parser, state.spec.operands[0].constraint,
                                                         colon)]
    state.attrs.update(isWrite=_bool(rw == "write"), localityHint=IntegerAttr(locality, I32),
                       isDataCache=_bool(cache == "data"))
    return state.build()


def _bool(value: bool) -> IntegerAttr:
    from ...ir.types import I1
    return IntegerAttr(int(value), I1)


def print_prefetch(printer: "OpPrinter", op: Operation) -> str:
    a = op.attributes
    rw = "write" if a["isWrite"].value else "read"
    cache = "data" if a["isDataCache"].value else "instr"
    text = (f" {printer.value_name(op.operands[0])}[{_names(printer, op.operands[1:])}], {rw}, "
            f"locality<{a['localityHint'].value}>, {cache}")
    text += printer.attr_dict_text(op, {"isWrite", "localityHint", "isDataCache"})
    return text + f" : {op.operands[0].type}"


def parse_atomic_rmw(parser: Parser, state: "OpState") -> Operation:
    off = parser.offset
    word = parser.parse_keyword()
    if word not in ATOMIC_KINDS:
        raise parser.error(f"invalid kind value '{word}'", off)  # pragma: no cover - rare
    state.attrs["kind"] = IntegerAttr(ATOMIC_KINDS.index(word), I64)
    state.operands["value"] = [parser._parse_use()]
    parser.expect(",")
    state.operands["memref"] = [parser._parse_use()]
    _set_index(state, "indices", _uses_in_brackets(parser))
    _attrs(parser, state)
    parser.expect(":")
    parser.expect("(")
    state.operand_types["value"] = [parser.parse_type()]
    parser.expect(",")
    state.operand_types["memref"] = [parse_type_of_class(parser, state.spec.operands[1].constraint)]
    parser.expect(")")
    parser.expect("->")
    state.result_types["result"] = [parser.parse_type()]
    return state.build()


def print_atomic_rmw(printer: "OpPrinter", op: Operation) -> str:
    kind = ATOMIC_KINDS[op.attributes["kind"].value]
    value, memref = op.operands[:2]
    text = (f" {kind} {printer.value_name(value)}, {printer.value_name(memref)}"
            f"[{_names(printer, op.operands[2:])}]")
    text += printer.attr_dict_text(op, {"kind"})
    return text + f" : ({value.type}, {memref.type}) -> {op.results[0].type}"


def parse_generic_atomic_rmw(parser: Parser, state: "OpState") -> Operation:
    state.operands["memref"] = [parser._parse_use()]
    _set_index(state, "indices", _uses_in_brackets(parser))
    parser.expect(":")
    mtype = parser.parse_type()
    state.operand_types["memref"] = [mtype]
    state.regions["atomic_body"] = parse_region(parser)
    _attrs(parser, state)
    state.result_types["result"] = [getattr(mtype, "element_type", mtype)]
    return state.build()


def print_generic_atomic_rmw(printer: "OpPrinter", op: Operation) -> str:
    memref = op.operands[0]
    text = (f" {printer.value_name(memref)}[{_names(printer, op.operands[1:])}] : "
            f"{memref.type} " + printer.render_region(op.regions[0], print_entry_args=True))
    return text + printer.attr_dict_text(op, set())


# -- DMA -------------------------------------------------------------------------------------

def parse_dma_start(parser: Parser, state: "OpState") -> Operation:
    src = parser._parse_use()
    src_idx = _uses_in_brackets(parser)
    parser.expect(",")
    dst = parser._parse_use()
    dst_idx = _uses_in_brackets(parser)
    parser.expect(",")
    num = parser._parse_use()
    parser.expect(",")
    tag = parser._parse_use()
    tag_idx = _uses_in_brackets(parser)
    stride: list = []
    if parser.consume(","):
        stride = [parser._parse_use()]
        parser.expect(",")
        stride.append(parser._parse_use())
    _attrs(parser, state)
    parser.expect(":")
    off = parser.offset
    types = parser.parse_comma_list(parser.parse_type)
    if len(types) != 3:
        raise parser.error("expected 3 types", off)
    uses = [src, *src_idx, dst, *dst_idx, num, tag, *tag_idx, *stride]
    index = INDEX_TYPE
    tys = ([types[0]] + [index] * len(src_idx) + [types[1]] + [index] * len(dst_idx) +
           [index, types[2]] + [index] * len(tag_idx) + [index] * len(stride))
    state.operands["operands"] = uses
    state.operand_types["operands"] = tys
    return state.build()


def print_dma_start(printer: "OpPrinter", op: Operation) -> str:
    ops = op.operands
    src_rank = _rank(ops[0].type)
    d = 1 + src_rank
    dst_rank = _rank(ops[d].type)
    t = d + 1 + dst_rank + 1
    tag_rank = _rank(ops[t].type)
    text = (f" {printer.value_name(ops[0])}[{_names(printer, ops[1:d])}], "
            f"{printer.value_name(ops[d])}[{_names(printer, ops[d + 1:d + 1 + dst_rank])}], "
            f"{printer.value_name(ops[t - 1])}, "
            f"{printer.value_name(ops[t])}[{_names(printer, ops[t + 1:t + 1 + tag_rank])}]")
    rest = ops[t + 1 + tag_rank:]
    if rest:
        text += ", " + _names(printer, rest)
    text += printer.attr_dict_text(op, set())
    return text + f" : {ops[0].type}, {ops[d].type}, {ops[t].type}"


def _rank(t) -> int:
    return len(getattr(t, "shape", ()))


# -- alloca_scope / global ---------------------------------------------------------------------

def parse_alloca_scope(parser: Parser, state: "OpState") -> Operation:
    from ..scf.common import ensure_terminator
    types: list = []
    if parser.consume("->"):
        parser.expect("(")
        types = parser.parse_comma_list(parser.parse_type, ")")
        parser.expect(")")
    region = parse_region(parser)
    ensure_terminator(region, "memref.alloca_scope.return", parser.loc_at(state.start),
                      _is_terminator)
    state.regions["bodyRegion"] = region
    _attrs(parser, state)
    state.result_types["results"] = types
    return state.build()


def _is_terminator(op) -> bool:
    from ...ir.traits import Terminator
    spec = op.SPEC
    return spec is not None and spec.has_trait(Terminator)


def print_alloca_scope(printer: "OpPrinter", op: Operation) -> str:
    text = " "
    if op.results:
        text += f" -> ({type_list(r.type for r in op.results)})"
    region = op.regions[0]
    text += " " + print_region(printer, region, terminators=bool(op.results))
    return text + printer.attr_dict_text(op, set())


def parse_global(parser: Parser, state: "OpState") -> Operation:
    if parser.tok and parser.tok[0] == '"':
        state.attrs["sym_visibility"] = StringAttr(parser.parse_string())
    if parser.tok == "constant":
        parser.i += 1
        state.attrs["constant"] = UNIT
    state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
    parser.expect(":")
    type_off = parser.offset
    mtype = parser.parse_type()
    if not str(mtype).startswith("memref<") or None in getattr(mtype, "shape", (None,)):
        raise parser.error(f"{parser.op_prefix()}type should be static shaped memref, but got "
                           f"'{mtype}'", state.start)
    state.attrs["type"] = TypeAttr(mtype)
    if parser.consume("="):
        if parser.tok == "uninitialized":
            parser.i += 1
            state.attrs["initial_value"] = UNIT
        else:
            tensor = _tensor_type_of(mtype)
            if parser.tok == "dense" and tensor is not None:
                # the elements attribute's type is implied by the memref type
                state.attrs["initial_value"] = _dense_of_type(parser, tensor)
            else:
                state.attrs["initial_value"] = parser.parse_attribute(tensor)
    _attrs(parser, state)
    return state.build()


def _dense_of_type(parser: Parser, tensor):
    """``dense<literal>`` whose type (``tensor``) the context implies."""
    from ...text.registry import DENSE_BUILDERS
    parser.expect_keyword("dense")
    lt = parser.offset
    parser.expect("<")
    start = parser.offset
    literal = parser.parse_literal_tree()
    end = parser.offset
    parser.expect(">")
    build = DENSE_BUILDERS.get(type(tensor))
    if build is None:
        from ...ir.attributes import OpaqueAttr
        return OpaqueAttr(f"dense<{parser.src[start:end].strip()}> : {tensor}")
    return build(parser, literal, tensor, lt)


def _tensor_type_of(mtype):
    from ..builtin.types import RankedTensorType
    shape = getattr(mtype, "shape", None)
    if shape is None:
        return None
    return RankedTensorType(shape, mtype.element_type)


def print_global(printer: "OpPrinter", op: Operation) -> str:
    a = op.attributes
    text = ""
    if "sym_visibility" in a:
        text += " " + quote_string(a["sym_visibility"].value)
    if "constant" in a:
        text += " constant"
    text += f" {format_symbol(a['sym_name'].value)} : {a['type'].value}"
    init = a.get("initial_value")
    if init is UNIT:
        text += " = uninitialized"
    elif init is not None:
        text += " = " + _elide_type(init)
    return text + printer.attr_dict_text(op, {"sym_visibility", "constant", "sym_name", "type",
                                              "initial_value"})


def _elide_type(attr) -> str:
    """An elements attribute without its ``: tensor<...>`` type."""
    text = str(attr)
    head, sep, _ = text.rpartition(" : ")
    return head if sep else text


def parse_get_global(parser: Parser, state: "OpState") -> Operation:
    state.attrs["name"] = SymbolRefAttr(parser.parse_symbol_name())
    parser.expect(":")
    state.result_types["result"] = [parse_type_of_class(parser, state.spec.results[0].constraint)]
    _attrs(parser, state)
    return state.build()


def print_get_global(printer: "OpPrinter", op: Operation) -> str:
    return (f" {op.attributes['name']} : {op.results[0].type}"
            + printer.attr_dict_text(op, {"name"}))


__all__ = [n for n in dir() if n.startswith(("parse_", "print_"))] + ["ATOMIC_KINDS",
                                                                      "reassociation_groups"]
