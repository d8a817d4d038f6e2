"""Custom syntax of the vector ops whose MLIR parsers and printers are hand-written or use
custom directives (positions, reduction kinds, transfers), as mlir-opt 22 prints them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ...ir.attributes import ArrayAttr, DenseArrayAttr, IntegerAttr, OpaqueAttr
from ...ir.core import Operation
from ...ir.diagnostics import ERROR, Diagnostic
from ...ir.types import I1
from ...text import registry
from ...text.parser import Parser
from ..scf.common import INDEX_TYPE, type_list
from ..memref.syntax import _bracket_mixed, _print_bracket_mixed

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.printer import OpPrinter

#: vector.kind values (CombiningKind)
KINDS = ("add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or",
         "xor", "maximumf", "minimumf")
from ..arith.attributes import FASTMATH_NONE, FastMathAttr, parse_flags  # noqa: E402


def kind_attr(word: str) -> OpaqueAttr:
    return OpaqueAttr(f"#vector.kind<{word}>")


#: the vector dialect's enum attributes: mnemonic -> (C++ enum, ODS parameter owner, members)
ENUM_ATTRS = {
    "kind": ("CombiningKind", "Vector_CombiningKindAttr", KINDS),
    "punctuation": ("PrintPunctuation", "Vector_PrintPunctuation",
                    ("no_punctuation", "newline", "comma", "open", "close")),
}


def _parse_enum_body(parser: Parser, mnemonic: str, prefix: str) -> OpaqueAttr:
    """``<word>`` of the enum attribute ``#vector.<mnemonic>`` (a keyword or a string), with
    mlir-opt 22's two errors for a bad value; ``prefix`` is the custom op's error prefix."""
    enum, owner, members = ENUM_ATTRS[mnemonic]
    if parser.tok != "<":
        raise parser.wrong_token_error("expected '<'")
    parser.i += 1
    off = parser.offset
    t = parser.tok
    if t and t[0] == '"':
        word = parser.parse_string()
    elif t and (t[0].isalpha() or t[0] == "_"):
        word = t
        parser.i += 1
    else:
        word = None
    if word not in members:
        first = (f"expected ::mlir::vector::{enum} to be one of: {', '.join(members)}"
                 if word is not None else "expected valid keyword or string")
        parser.pending_diags.append(Diagnostic(ERROR, prefix + first, parser.loc_at(off)))
        raise parser.error(f"{prefix}failed to parse {owner} parameter 'value' which is to be "
                           f"a `::mlir::vector::{enum}`")
    if parser.tok != ">":
        raise parser.wrong_token_error("expected '>'")
    parser.i += 1
    return OpaqueAttr(f"#vector.{mnemonic}<{word}>")


def parse_enum_param(parser: Parser, mnemonic: str) -> OpaqueAttr:
    """An enum attribute as a custom op writes it: ``<word>``, or the full
    ``#vector.<mnemonic><word>`` (MLIR's parse-with-fallback); another attribute there is
    'invalid kind of attribute specified'."""
    t = parser.tok
    if t and t[0] == "#":
        off = parser.offset
        attr = parser.parse_attribute()
        if not (isinstance(attr, OpaqueAttr) and attr.text.startswith(f"#vector.{mnemonic}<")):
            raise parser.error(f"{parser.op_prefix()}invalid kind of attribute specified", off)
        return attr
    return _parse_enum_body(parser, mnemonic, parser.op_prefix())


def parse_vector_attribute(parser: Parser, mnemonic: str, offset: int):
    """``#vector.<mnemonic>...`` (the hook of :data:`DIALECT_ATTR_PARSERS`): the enum
    attributes strictly, any other vector attribute kept verbatim."""
    if mnemonic in ENUM_ATTRS:
        return _parse_enum_body(parser, mnemonic, "")
    parser.i -= 1
    return OpaqueAttr(parser.take_balanced_text())


registry.DIALECT_ATTR_PARSERS["vector"] = parse_vector_attribute


def kind_of(op: Operation) -> str:
    text = op.attributes["kind"].text
    return text[len("#vector.kind<"):-1]


def _attrs(parser: Parser, state: "OpState") -> None:
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())


def _names(printer: "OpPrinter", values) -> str:
    return ", ".join(printer.value_name(v) for v in values)


def _indices(parser: Parser, state: "OpState", name: str) -> None:
    parser.expect("[")
    uses = parser.parse_comma_list(parser._parse_use, "]")
    parser.expect("]")
    state.operands[name] = uses
    state.operand_types[name] = [INDEX_TYPE] * len(uses)


# -- extract / insert ------------------------------------------------------------------------

def _position(parser: Parser, state: "OpState") -> None:
    """``[1, %i, ...]`` then the attribute dictionary."""
    static, dynamic = _bracket_mixed(parser)
    state.operands["dynamic_position"] = dynamic
    state.operand_types["dynamic_position"] = [INDEX_TYPE] * len(dynamic)
    state.attrs["static_position"] = DenseArrayAttr("i64", tuple(static))
    _attrs(parser, state)


def parse_extract(parser: Parser, state: "OpState") -> Operation:
    state.operands["source"] = [parser._parse_use()]
    _position(parser, state)
    parser.expect(":")
    state.result_types["result"] = [parser.parse_type()]
    parser.expect_keyword("from")
    state.operand_types["source"] = [parser.parse_type()]
    return state.build()


def print_extract(printer: "OpPrinter", op: Operation) -> str:
    text = " " + printer.value_name(op.operands[0])
    text += _print_bracket_mixed(printer, op, "dynamic_position", "static_position")
    text += printer.attr_dict_text(op, {"static_position"})
    return text + f" : {op.results[0].type} from {op.operands[0].type}"


def parse_insert(parser: Parser, state: "OpState") -> Operation:
    state.operands["valueToStore"] = [parser._parse_use()]
    parser.expect(",")
    state.operands["dest"] = [parser._parse_use()]
    _position(parser, state)
    parser.expect(":")
    state.operand_types["valueToStore"] = [parser.parse_type()]
    parser.expect_keyword("into")
    dest = parser.parse_type()
    state.operand_types["dest"] = [dest]
    state.result_types["result"] = [dest]
    return state.build()


def print_insert(printer: "OpPrinter", op: Operation) -> str:
    text = f" {printer.value_name(op.operands[0])}, {printer.value_name(op.operands[1])} "
    text += _print_bracket_mixed(printer, op, "dynamic_position", "static_position")
    text += printer.attr_dict_text(op, {"static_position"})
    return text + f" : {op.operands[0].type} into {op.operands[1].type}"


# -- reduction -------------------------------------------------------------------------------

def parse_reduction(parser: Parser, state: "OpState") -> Operation:
    state.attrs["kind"] = parse_enum_param(parser, "kind")
    parser.expect(",")
    state.operands["vector"] = [parser._parse_use()]
    if parser.consume(","):
        state.operands["acc"] = [parser._parse_use()]
    state.attrs["fastmath"] = FASTMATH_NONE
    if parser.tok == "fastmath" and parser.peek() == "<":
        # ``fastmath<flags>``: arith's attribute without its dialect prefix
        parser.i += 1
        state.attrs["fastmath"] = parse_flags(parser, FastMathAttr)
    _attrs(parser, state)
    parser.expect(":")
    state.operand_types["vector"] = [parser.parse_type()]
    parser.expect_keyword("into")
    result = parser.parse_type()
    state.result_types["dest"] = [result]
    if state.operands.get("acc"):
        state.operand_types["acc"] = [result]
    return state.build()


def print_reduction(printer: "OpPrinter", op: Operation) -> str:
    text = f" <{kind_of(op)}>, " + _names(printer, op.operands)
    fm = op.attributes.get("fastmath")
    if fm is not None and fm != FASTMATH_NONE:
        text += " fastmath" + str(fm)[len("#arith.fastmath"):]
    text += printer.attr_dict_text(op, {"kind", "fastmath"})
    return text + f" : {op.operands[0].type} into {op.results[0].type}"


# -- transfer_read / transfer_write ------------------------------------------------------------

def minor_identity(rank: int, n_results: int):
    """``(d0, ..., d{rank-1}) -> (d{rank-n}, ..., d{rank-1})`` as an affine-map attribute."""
    from ..builtin.affine import AffineDim, AffineMap, AffineMapAttr
    return AffineMapAttr(AffineMap(rank, 0, tuple(AffineDim(i)
                                                  for i in range(rank - n_results, rank))))


def _vector_rank(t) -> int:
    return len(getattr(t, "shape", ()))


def _shaped_rank(t) -> int:
    return len(getattr(t, "shape", ()))


def transfer_rank(source_type, vector_type) -> int:
    """The dims of a transfer's vector that the permutation map places: all of them, less the
    element vector's when the memref/tensor holds vectors (MLIR's effective transfer rank)."""
    elem = getattr(source_type, "element_type", None)
    return _vector_rank(vector_type) - _vector_rank(elem) \
        if type(elem).__name__ == "VectorType" else _vector_rank(vector_type)


def _fill_transfer_defaults(parser: Parser, state: "OpState", source_type, vector_type,
                            colon: int) -> None:
    rank = _shaped_rank(source_type)
    n = transfer_rank(source_type, vector_type)
    if "permutation_map" not in state.attrs:
        if rank < n or n < 0:       # (MLIR compares unsigned: a negative rank is large)
            raise parser.error(f"{parser.op_prefix()}expected a custom permutation_map when "
                               "rank(source) != rank(destination)", colon)
        state.attrs["permutation_map"] = minor_identity(rank, max(n, 0))
    if "in_bounds" not in state.attrs:
        n = len(state.attrs["permutation_map"].value.results)
        state.attrs["in_bounds"] = ArrayAttr(tuple(IntegerAttr(0, I1) for _ in range(n)))


def _vector_type(parser: Parser, off: int):
    """A type that must be a vector (``requires vector type`` otherwise, reported at ``off``:
    MLIR points at the ``:`` of the type list)."""
    from ..builtin.types import VectorType
    t = parser.parse_type()
    if not isinstance(t, VectorType):
        raise parser.error(f"{parser.op_prefix()}requires vector type", off)
    return t


def parse_transfer_read(parser: Parser, state: "OpState") -> Operation:
    state.operands["base"] = [parser._parse_use()]
    _indices(parser, state, "indices")
    parser.expect(",")
    state.operands["padding"] = [parser._parse_use()]
    mask_off = None
    if parser.consume(","):
        mask_off = parser.offset
        state.operands["mask"] = [parser._parse_use()]
    _attrs(parser, state)
    colon = parser.offset
    parser.expect(":")
    source = parser.parse_type()
    parser.expect(",")
    vector = _vector_type(parser, colon)
    state.operand_types["base"] = [source]
    state.operand_types["padding"] = [getattr(source, "element_type", source)]
    state.result_types["vector"] = [vector]
    _fill_transfer_defaults(parser, state, source, vector, colon)
    _transfer_mask_type(parser, state, source, vector, mask_off, colon)
    return state.build()


def _transfer_mask_type(parser: Parser, state: "OpState", source, vector,
                        mask_off: Optional[int], colon: int) -> None:
    """The type of a transfer's mask operand (if it has one), inferred as MLIR's parser does,
    with its two checks first (reported at the mask and at the ``:`` of the type list)."""
    if mask_off is None:
        return
    from ..builtin.types import VectorType
    if isinstance(getattr(source, "element_type", None), VectorType):
        raise parser.error(f"{parser.op_prefix()}does not support masks with vector element type",
                           mask_off)
    perm = state.attrs["permutation_map"]
    if len(perm.value.results) != _vector_rank(vector):
        raise parser.error(f"{parser.op_prefix()}expected the same rank for the vector and the "
                           "results of the permutation map", colon)
    state.operand_types["mask"] = [mask_type_for(perm, vector)]


def mask_type_for(perm, vector):
    """The mask type of a transfer: the vector's shape, permuted back to the source order.

    Broadcast results of the permutation map (constant ``0``) read no memory, so they have no
    mask dimension: the mask has one dimension per source dimension the vector runs along,
    in source-dimension order (e.g. ``(d0, d1) -> (d1, 0)`` on ``vector<4x9xf32>`` takes a
    ``vector<4xi1>`` mask)."""
    from ..builtin.types import VectorType
    from ..builtin.affine import AffineDim
    results = perm.value.results
    used = [i for i, r in enumerate(results) if isinstance(r, AffineDim)]
    order = sorted(used, key=lambda i: results[i].position)
    shape = [vector.shape[i] for i in order]
    scalable = [vector.scalable[i] for i in order]
    return VectorType(shape, I1, scalable)


def _elided_transfer_attrs(op: Operation, source_type, vector_type) -> set:
    elided = {"operandSegmentSizes"}
    perm = op.attributes.get("permutation_map")
    n = transfer_rank(source_type, vector_type)
    if 0 <= n <= _shaped_rank(source_type) and \
            perm == minor_identity(_shaped_rank(source_type), n):
        elided.add("permutation_map")
    bounds = op.attributes.get("in_bounds")
    if bounds is not None and not any(b.value for b in bounds.value):
        elided.add("in_bounds")
    return elided


def print_transfer_read(printer: "OpPrinter", op: Operation) -> str:
    base = op.base
    text = (f" {printer.value_name(base)}[{_names(printer, op.indices)}], "
            f"{printer.value_name(op.padding)}")
    if op.mask is not None:
        text += ", " + printer.value_name(op.mask)
    vector = op.results[0].type
    text += printer.attr_dict_text(op, _elided_transfer_attrs(op, base.type, vector))
    return text + f" : {base.type}, {vector}"


def parse_transfer_write(parser: Parser, state: "OpState") -> Operation:
    state.operands["valueToStore"] = [parser._parse_use()]
    parser.expect(",")
    state.operands["base"] = [parser._parse_use()]
    _indices(parser, state, "indices")
    mask_off = None
    if parser.consume(","):
        mask_off = parser.offset
        state.operands["mask"] = [parser._parse_use()]
    _attrs(parser, state)
    colon = parser.offset
    parser.expect(":")
    vector = _vector_type(parser, colon)
    parser.expect(",")
    source = parser.parse_type()
    state.operand_types["valueToStore"] = [vector]
    state.operand_types["base"] = [source]
    state.result_types["result"] = [source] if str(source).startswith("tensor") else []
    _fill_transfer_defaults(parser, state, source, vector, colon)
    _transfer_mask_type(parser, state, source, vector, mask_off, colon)
    return state.build()


def print_transfer_write(printer: "OpPrinter", op: Operation) -> str:
    value, base = op.valueToStore, op.base
    text = (f" {printer.value_name(value)}, {printer.value_name(base)}"
            f"[{_names(printer, op.indices)}]")
    if op.mask is not None:
        text += ", " + printer.value_name(op.mask)
    text += printer.attr_dict_text(op, _elided_transfer_attrs(op, base.type, value.type))
    return text + f" : {value.type}, {base.type}"


# -- shuffle / constant_mask -----------------------------------------------------------------

def parse_shuffle(parser: Parser, state: "OpState") -> Operation:
    name_off = parser.offs[parser.i - 1]      # the op name, where MLIR reports op errors
    state.operands["v1"] = [parser._parse_use()]
    parser.expect(",")
    state.operands["v2"] = [parser._parse_use()]
    state.attrs["mask"] = _int_list(parser)
    _attrs(parser, state)
    parser.expect(":")
    a = parser.parse_type()
    parser.expect(",")
    b = parser.parse_type()
    state.operand_types.update(v1=[a], v2=[b])
    if not state.attrs["mask"].value:
        # no result type can be inferred (vector<0x...> is not a type): MLIR's verifier message
        raise parser.error("'vector.shuffle' op invalid mask length", name_off)
    state.result_types["vector"] = [shuffle_result(a, len(state.attrs["mask"].value))]
    return state.build()


def _int_list(parser: Parser) -> DenseArrayAttr:
    parser.expect("[")
    values = parser.parse_comma_list(parser.parse_fixed_integer, "]")
    parser.expect("]")
    return DenseArrayAttr("i64", tuple(values))


def shuffle_result(a, n: int):
    from ..builtin.types import VectorType
    shape = getattr(a, "shape", ())
    element = getattr(a, "element_type", a)
    return VectorType((n, *shape[1:]), element)


def print_shuffle(printer: "OpPrinter", op: Operation) -> str:
    mask = ", ".join(str(v) for v in op.attributes["mask"].value)
    text = f" {_names(printer, op.operands)} [{mask}]" + printer.attr_dict_text(op, {"mask"})
    return text + f" : {type_list(v.type for v in op.operands)}"


def parse_constant_mask(parser: Parser, state: "OpState") -> Operation:
    state.attrs["mask_dim_sizes"] = _int_list(parser)
    _attrs(parser, state)
    parser.expect(":")
    state.result_types["result"] = [parser.parse_type()]
    return state.build()


def print_constant_mask(printer: "OpPrinter", op: Operation) -> str:
    sizes = ", ".join(str(v) for v in op.attributes["mask_dim_sizes"].value)
    return (f" [{sizes}]" + printer.attr_dict_text(op, {"mask_dim_sizes"}) +
            f" : {op.results[0].type}")




def parse_transpose(parser: Parser, state: "OpState") -> Operation:
    state.operands["vector"] = [parser._parse_use()]
    parser.expect(",")
    state.attrs["permutation"] = _int_list(parser)
    _attrs(parser, state)
    parser.expect(":")
    state.operand_types["vector"] = [parser.parse_type()]
    parser.expect_keyword("to")
    state.result_types["result"] = [parser.parse_type()]
    return state.build()


def print_transpose(printer: "OpPrinter", op: Operation) -> str:
    perm = ", ".join(str(v) for v in op.attributes["permutation"].value)
    return (f" {printer.value_name(op.operands[0])}, [{perm}]"
            + printer.attr_dict_text(op, {"permutation"})
            + f" : {op.operands[0].type} to {op.results[0].type}")



# -- outerproduct / print --------------------------------------------------------------------

#: vector.print's default punctuation
PUNCTUATION_NEWLINE = OpaqueAttr("#vector.punctuation<newline>")
PUNCTUATIONS = ENUM_ATTRS["punctuation"][2]


def parse_outerproduct(parser: Parser, state: "OpState") -> Operation:
    from ..builtin.types import VectorType
    uses = parser.parse_comma_list(parser._parse_use)
    _attrs(parser, state)
    parser.expect(":")
    off = parser.offset
    lhs = parser.parse_type()
    parser.expect(",")
    rhs = parser.parse_type()
    if len(uses) not in (2, 3):
        raise parser.error("expected at least 2 operands", off)
    if not isinstance(lhs, VectorType):
        raise parser.error(f"{parser.op_prefix()}expected vector type for operand #1",
                           state.start)
    # (mlir-opt 22 crashes on a 0-d vector here; its verifier's words are used)
    for n, t in ((1, lhs), (2, rhs)):
        if isinstance(t, VectorType) and not t.shape:
            raise parser.error(f"{parser.op_prefix()}expected 1-d vector for operand #{n}",
                               state.start)
    if isinstance(rhs, VectorType):
        result = VectorType((lhs.shape[0], rhs.shape[0]), lhs.element_type,
                            (lhs.scalable[0], rhs.scalable[0]))
    else:
        result = lhs
    state.operands.update(lhs=[uses[0]], rhs=[uses[1]], acc=uses[2:])
    state.operand_types.update(lhs=[lhs], rhs=[rhs], acc=[result] * len(uses[2:]))
    state.result_types["result"] = [result]
    state.attrs.setdefault("kind", kind_attr("add"))
    return state.build()


def print_outerproduct(printer: "OpPrinter", op: Operation) -> str:
    # (MLIR prints the attribute dictionary only together with an accumulator)
    text = f" {_names(printer, op.operands[:2])}"
    if len(op.operands) > 2:
        text += ", " + printer.value_name(op.operands[2]) + printer.attr_dict_text(op, set())
    return text + f" : {op.operands[0].type}, {op.operands[1].type}"


def parse_print(parser: Parser, state: "OpState") -> Operation:
    t = parser.tok
    if t and t[0] == "%":
        state.operands["source"] = [parser._parse_use()]
        parser.expect(":")
        state.operand_types["source"] = [parser.parse_type()]
    while parser.tok in ("str", "punctuation"):
        if parser.tok == "str":
            parser.i += 1
            from ...ir.attributes import StringAttr
            state.attrs["stringLiteral"] = StringAttr(parser.parse_string())
        else:
            parser.i += 1
            state.attrs["punctuation"] = parse_enum_param(parser, "punctuation")
    _attrs(parser, state)
    return state.build()


def print_print(printer: "OpPrinter", op: Operation) -> str:
    from ...ir.attributes import quote_string
    text = ""
    if op.operands:
        text += f" {printer.value_name(op.operands[0])} : {op.operands[0].type}"
    literal = op.attributes.get("stringLiteral")
    if literal is not None:
        text += " str " + quote_string(literal.value)
    punctuation = op.attributes.get("punctuation")
    if punctuation is not None and punctuation != PUNCTUATION_NEWLINE:
        text += " punctuation <" + punctuation.text[len("#vector.punctuation<"):]
    return text + printer.attr_dict_text(op, {"punctuation", "stringLiteral"})


__all__ = [n for n in dir() if n.startswith(("parse_", "print_"))] + ["KINDS", "kind_of"]


# -- contract ------------------------------------------------------------------------------------

#: vector.contract's default combining kind
KIND_ADD = kind_attr("add")
_CONTRACT_TRAITS = ("indexing_maps", "iterator_types", "kind")
_ITERATOR_PREFIX = "#vector.iterator_type<"


def parse_contract(parser: Parser, state: "OpState") -> Operation:
    """``{indexing_maps = [...], iterator_types = ["parallel", ...], kind = #vector.kind<k>}
    %lhs, %rhs, %acc [, %masks] [{attrs}] : L, R into A`` (iterator types written as strings,
    held as ``#vector.iterator_type<...>``)."""
    from ...ir.attributes import DictionaryAttr, StringAttr
    tok = parser.toks[parser.i]
    if tok[:1] == "#" and isinstance(parser.attr_aliases.get(tok), DictionaryAttr):
        # The traits may be written as an alias of a dictionary attribute (``#trait = {...}``).
        parser.i += 1
        traits = dict(parser.attr_aliases[tok].entries)
    else:
        parser.expect("{")
        parser.i -= 1
        traits = parser.parse_attr_dict_body()
    iters = traits.get("iterator_types")
    if isinstance(iters, ArrayAttr):
        for v in iters.value:
            if isinstance(v, StringAttr) and v.value not in ("parallel", "reduction"):
                raise parser.error(f"{parser.op_prefix()}unexpected iterator_type "
                                   f"({v.value})", state.start)
        traits["iterator_types"] = ArrayAttr(tuple(
            OpaqueAttr(f"{_ITERATOR_PREFIX}{v.value}>") if isinstance(v, StringAttr) else v
            for v in iters.value))
    traits.setdefault("kind", KIND_ADD)
    state.attrs.update(traits)
    uses = parser.parse_comma_list(parser._parse_use)
    _attrs(parser, state)
    parser.expect(":")
    off = parser.offset
    lhs = parser.parse_type()
    parser.expect(",")
    rhs = parser.parse_type()
    parser.expect_keyword("into")
    result = parser.parse_type()
    if len(uses) not in (3, 5):
        raise parser.error("expected 3 operands (lhs, rhs, acc) or 5 (with masks)", off)
    state.operands["lhs"], state.operands["rhs"] = [uses[0]], [uses[1]]
    state.operands["acc"], state.operands["masks"] = [uses[2]], uses[3:]
    state.operand_types["lhs"], state.operand_types["rhs"] = [lhs], [rhs]
    state.operand_types["acc"] = [result]
    if uses[3:]:
        from ..builtin.types import VectorType
        state.operand_types["masks"] = [VectorType(tuple(t.shape), I1) for t in (lhs, rhs)]
    state.result_types["result"] = [result]
    return state.build()


def print_contract(printer: "OpPrinter", op: Operation) -> str:
    from ...ir.attributes import StringAttr
    from ...ir.attributes import format_named_attr
    items = []
    for name in _CONTRACT_TRAITS:
        attr = op.attributes.get(name, KIND_ADD if name == "kind" else None)
        if attr is None:
            continue
        if name == "iterator_types" and isinstance(attr, ArrayAttr):
            attr = ArrayAttr(tuple(
                StringAttr(str(v)[len(_ITERATOR_PREFIX):-1])
                if str(v).startswith(_ITERATOR_PREFIX) else v for v in attr.value))
        items.append(format_named_attr(name, attr))
    text = " {" + ", ".join(items) + "} " + _names(printer, op.operands)
    text += printer.attr_dict_text(op, set(_CONTRACT_TRAITS))
    return text + (f" : {op.operands[0].type}, {op.operands[1].type} into "
                   f"{op.results[0].type}")


# -- multi_reduction -----------------------------------------------------------------------------

def _kind_and_two_operands(parser: Parser, state: "OpState") -> tuple:
    """``<kind>, %a, %b [{attrs}]`` of a declarative vector format (multi_reduction, scan): the
    two uses; the op's own attributes in the dictionary are checked as MLIR's generated parsers
    do, and override what the format gave (kind)."""
    from ...text.format import checked_inherent_attributes
    state.attrs["kind"] = parse_enum_param(parser, "kind")
    parser.expect(",")
    first = parser._parse_use()
    parser.expect(",")
    second = parser._parse_use()
    if parser.tok == "{":
        off = parser.offset
        state.attrs.update(checked_inherent_attributes(parser, state,
                                                       parser.parse_attr_dict_body(), off))
    return first, second


def parse_multi_reduction(parser: Parser, state: "OpState") -> Operation:
    """``<kind>, %source, %acc [{attrs}] [d, ...] : S to A``."""
    source, acc = _kind_and_two_operands(parser, state)
    parser.expect("[")
    dims: list[int] = []
    if parser.tok != "]":
        parser.parse_comma_list(lambda: dims.append(parser.parse_integer()), "]")
    parser.expect("]")
    state.attrs.setdefault("reduction_dims", DenseArrayAttr("i64", tuple(dims)))
    parser.expect(":")
    state.operands["source"], state.operands["acc"] = [source], [acc]
    state.operand_types["source"] = [parser.parse_type()]
    parser.expect_keyword("to")
    result = parser.parse_type()
    state.operand_types["acc"] = [result]
    state.result_types["dest"] = [result]
    return state.build()


def print_multi_reduction(printer: "OpPrinter", op: Operation) -> str:
    dims = ", ".join(str(int(d)) for d in op.attributes["reduction_dims"].value)
    text = f" <{kind_of(op)}>, {_names(printer, op.operands)}"
    text += printer.attr_dict_text(op, {"kind", "reduction_dims"})
    return text + f" [{dims}] : {op.operands[0].type} to {op.results[0].type}"


def parse_scan(parser: Parser, state: "OpState") -> Operation:
    """``<kind>, %source, %initial_value [{attrs}] : S, I`` (results: S, I)."""
    source, init = _kind_and_two_operands(parser, state)
    parser.expect(":")
    types = []
    for k in range(2):
        if k:
            parser.expect(",")
        off = parser.offset
        t = parser.parse_type()
        if not str(t).startswith("vector<"):
            raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: expected "
                               f"builtin.vector, but found '{t}'", off)
        types.append(t)
    state.operands["source"], state.operands["initial_value"] = [source], [init]
    state.operand_types["source"], state.operand_types["initial_value"] = [types[0]], [types[1]]
    state.result_types["dest"], state.result_types["accumulated_value"] = [types[0]], [types[1]]
    return state.build()


def print_scan(printer: "OpPrinter", op: Operation) -> str:
    text = f" <{kind_of(op)}>, {_names(printer, op.operands)}"
    text += printer.attr_dict_text(op, {"kind"})
    return text + f" : {op.operands[0].type}, {op.operands[1].type}"


# -- mask ----------------------------------------------------------------------------------------

def parse_mask(parser: Parser, state: "OpState") -> Operation:
    """``%mask [, %passthru] { op } [attrs] : M [-> T, ...]``; the region's ``vector.yield`` of
    the masked op's results may be left out."""
    from ...ir.core import Region
    from ...ir.opdef import make_op
    uses = [parser._parse_use()]
    if parser.consume(","):
        uses.append(parser._parse_use())
    region = Region()
    parser.parse_region_into(region, None, isolated=False, dialect="")
    if not region.blocks:
        region.add_block([])
    block = region.blocks[0]
    if not block.ops or block.ops[-1].name != "vector.yield":
        last = block.ops[-1] if block.ops else None
        results = list(last.results) if last is not None else []
        block.append(make_op("vector.yield", results, loc=last.loc if last is not None
                             else None))
    _attrs(parser, state)
    parser.expect(":")
    mask_type = parser.parse_type()
    results = []
    if parser.consume("->"):
        if parser.consume("("):     # MLIR's optional arrow type list: `-> (T, U)` or `-> T`
            results = [] if parser.consume(")") else \
                parser.parse_comma_list(parser.parse_type)
            if results:
                parser.expect(")")
        else:
            results = parser.parse_comma_list(parser.parse_type)
    state.operands["mask"] = uses[:1]
    state.operands["passthru"] = uses[1:]
    state.operand_types["mask"] = [mask_type]
    if uses[1:]:
        state.operand_types["passthru"] = results[:1]
    state.result_types["results"] = results
    state.regions["maskRegion"] = region
    return state.build()


def print_mask(printer: "OpPrinter", op: Operation) -> str:
    block = op.regions[0].blocks[0]
    ops = block.ops
    yielded = ops[-1] if ops and ops[-1].name == "vector.yield" else None
    inner = ops[0] if len(ops) == 2 else None
    if inner is not None and yielded is not None and \
            list(yielded.operands) == list(inner.results):
        body = printer.op_text(inner)
        prefix = printer.names.result_lists.get(inner) if inner.results else None
        if prefix and body.startswith(prefix + " = "):
            body = body[len(prefix) + 3:]      # MLIR prints the masked op without its results
    else:
        body = "; ".join(printer.op_text(o) for o in ops)
    text = f" {_names(printer, op.operands)} {{ {body} }}"
    text += printer.attr_dict_text(op, set())
    text += f" : {op.operands[0].type}"
    if op.results:
        text += " -> " + ", ".join(str(r.type) for r in op.results)
    return text
