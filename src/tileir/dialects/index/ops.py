"""The index dialect's ops (MLIR 22): arithmetic on ``index`` values, the casts to and from
integers, ``cmp`` with its ``#index<cmp_predicate ...>`` predicate, ``constant``,
``bool.constant`` and ``sizeof``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.attributes import EnumAttr, IntegerAttr
from ...ir.constraints import Pred
from ...ir.opdef import Attr, OpBase, Operand, Result
from ...ir.traits import Pure
from ...ir.types import I1, type_from_text
from ...text import registry
from ..arith.types import int_width, is_index

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser
    from ...text.printer import OpPrinter


def _index_type():
    return type_from_text("index")


INDEX = Pred(lambda t: str(t) == "index", "index")
INDEX.buildable = _index_type()
BOOL = Pred(lambda t: t is I1, "1-bit signless integer")
BOOL.buildable = I1
INT_OR_INDEX = Pred(lambda t: is_index(str(t)) or int_width(str(t).lstrip("su")) is not None
                    and str(t)[0] in "isu", "integer or index")


class IndexCmpPredicate(EnumAttr):
    """``#index<cmp_predicate slt>``; a bare keyword in ``index.cmp``'s custom form."""
    EQ = 0
    NE = 1
    SLT = 2
    SLE = 3
    SGT = 4
    SGE = 5
    ULT = 6
    ULE = 7
    UGT = 8
    UGE = 9

    def generic(self) -> str:
        return f"#index<cmp_predicate {self.keyword}>"

    __str__ = generic

    def custom_syntax(self) -> str:
        """The spelling inside ``index.cmp``: the bare keyword."""
        return self.keyword


def _predicate_keyword(parser: "Parser") -> IndexCmpPredicate:
    return parser.parse_enum_keyword(
        IndexCmpPredicate, lambda word: f"{parser.op_prefix()}expected "
                                        "::mlir::index::IndexCmpPredicate to be one of: "
                                        + ", ".join(IndexCmpPredicate.keywords()))


def _parse_index_attribute(parser: "Parser", mnemonic: str, off: int):
    parser.expect("<")
    parser.expect_keyword("cmp_predicate")
    member = _predicate_keyword(parser)
    parser.expect(">")
    return member


registry.DIALECT_ATTR_PARSERS["index"] = _parse_index_attribute
registry.ATTR_KIND_PARSERS["index.cmp_predicate"] = _predicate_keyword


class IndexOp(OpBase):
    """Base of every index op."""

    __slots__ = ()
    DIALECT_NAME = "index"


class _Binary(IndexOp):
    __slots__ = ()
    OPERANDS = (Operand("lhs", INDEX), Operand("rhs", INDEX))
    RESULTS = (Result("result", INDEX),)
    TRAITS = (Pure,)
    FORMAT = "$lhs `,` $rhs attr-dict"


BINARY = ("add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs", "rems",
          "remu", "maxs", "maxu", "mins", "minu", "shl", "shrs", "shru", "and", "or", "xor")
BINARY_OPS = [type(m.capitalize() + "Op", (_Binary,),
                   {"__slots__": (), "MNEMONIC": m, "__module__": __name__}) for m in BINARY]


class _Cast(IndexOp):
    __slots__ = ()
    OPERANDS = (Operand("input", INT_OR_INDEX),)
    RESULTS = (Result("output", INT_OR_INDEX),)
    TRAITS = (Pure,)
    FORMAT = "$input attr-dict `:` type($input) `to` type($output)"

    def verify_op(self):
        a, b = str(self.operands[0].type), str(self.results[0].type)
        if is_index(a) == is_index(b):
            return f"operand type '{a}' and result type '{b}' are cast incompatible"
        return None


class CastSOp(_Cast):
    __slots__ = ()
    MNEMONIC = "casts"


class CastUOp(_Cast):
    __slots__ = ()
    MNEMONIC = "castu"


class CmpOp(IndexOp):
    __slots__ = ()
    MNEMONIC = "cmp"
    OPERANDS = (Operand("lhs", INDEX), Operand("rhs", INDEX))
    RESULTS = (Result("result", BOOL),)
    ATTRIBUTES = (Attr("pred", "index.cmp_predicate", summary="index comparison predicate kind"),)
    TRAITS = (Pure,)
    FORMAT = "$pred `(` $lhs `,` $rhs `)` attr-dict"


def _parse_constant(parser: "Parser", state: "OpState"):
    """``attr-dict $value``: an integer (``index.constant``) or ``true``/``false``."""
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    if state.spec.name == "index.constant" and parser.tok and \
            (parser.tok[0].isdigit() or parser.tok[0] == "-"):
        t = parser.peek() if parser.tok == "-" else parser.tok
        if t and "." in t:  # a float literal: MLIR's attribute parser refuses it for index
            parser.parse_attribute(_index_type())
        state.attrs["value"] = parser.parse_integer_attr(_index_type())
    else:
        off = parser.offset
        value = parser.parse_attribute(I1 if state.spec.name == "index.bool.constant" else None)
        kind = state.spec.attr_by_name["value"].kind
        from ...ir.verify import ATTR_KINDS
        if not ATTR_KINDS[kind][0](value):
            raise parser.error(f"{parser.op_prefix()}invalid kind of attribute specified", off)
        state.attrs["value"] = value
    return state.build()


def _print_constant(printer: "OpPrinter", op) -> str:
    from ...ir.attributes import attr_without_type
    return f"{printer.attr_dict_text(op, {'value'})} {attr_without_type(op.attributes['value'])}"


class ConstantOp(IndexOp):
    __slots__ = ()
    MNEMONIC = "constant"
    RESULTS = (Result("result", INDEX),)
    ATTRIBUTES = (Attr("value", "index.int", summary="index attribute"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(_parse_constant)
    print_custom = staticmethod(_print_constant)

    def asm_result_names(self):
        value = self.attributes.get("value")
        return [f"idx{value.value}" if isinstance(value, IntegerAttr) else None]


class BoolConstantOp(IndexOp):
    __slots__ = ()
    MNEMONIC = "bool.constant"
    RESULTS = (Result("result", BOOL),)
    ATTRIBUTES = (Attr("value", "index.bool", summary="bool attribute"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(_parse_constant)
    print_custom = staticmethod(_print_constant)

    def asm_result_names(self):
        value = self.attributes.get("value")
        return ["true" if value.value else "false"] if isinstance(value, IntegerAttr) else None


class SizeOfOp(IndexOp):
    __slots__ = ()
    MNEMONIC = "sizeof"
    RESULTS = (Result("result", INDEX),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict"
