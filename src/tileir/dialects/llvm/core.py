"""The LLVM dialect's core instructions as MLIR 22 spells them: constants (``llvm.mlir.constant``,
``undef``, ``poison``), aggregates (``insertvalue`` / ``extractvalue``), memory (``alloca``,
``load``, ``store``), integer and float arithmetic (with ``overflow<nsw, nuw>``, ``exact``,
``disjoint`` and fastmath flags), comparisons, ``select``, casts, and the terminators
``llvm.return``, ``llvm.br`` and ``llvm.cond_br``.

Properties are MLIR's, so that the generic form is mlir-opt's: ``overflowFlags`` (an i32, nsw = 1,
nuw = 2, always present on the ops that take it), ``isExact`` / ``isDisjoint`` / ``nonNeg``
(units), ``fastmathFlags`` (``#llvm.fastmath<...>``), ``predicate`` (an i64 enum, printed as a
string in the custom form), ``ordering`` (an i64 atomic ordering) and so on."""

from __future__ import annotations

import re

from ...ir.attributes import (UNIT, DenseArrayAttr, IntegerAttr, OpaqueAttr, StringAttr,
                              TypeAttr)
from ...ir.constraints import ANY_TYPE, Pred
from ...ir.diagnostics import ERROR, Diagnostic
from ...ir.opdef import OPTIONAL, Attr, OpBase, Operand, Result
from ...ir.traits import Pure, Terminator
from ...ir.types import I1, I32, I64
from ..arith.traits import SameOperandsAndResultType, SameTypeOperands
from ..cf import ops as cf_ops
from ..cf import syntax as cf_syntax

__all__ = ["ICMP_PREDICATES", "FCMP_PREDICATES", "ORDERINGS", "aggregate_member"]

# -- type constraints -------------------------------------------------------------------------

_FLOATS = ("f16", "bf16", "f32", "f64", "f80", "f128", "tf32")


def _vector_elem(text: str):
    m = re.fullmatch(r"vector<(?:\[?\d+\]?x)+(.+)>", text)
    return m.group(1) if m else None


def _is_int(text: str) -> bool:
    return re.fullmatch(r"i\d+", text) is not None


def _is_ptr(text: str) -> bool:
    return text == "!llvm.ptr" or re.fullmatch(r"!llvm\.ptr<\d+>", text) is not None


def _scalar_or_vector(pred):
    def check(t) -> bool:
        text = str(t)
        if pred(text):
            return True
        elem = _vector_elem(text)
        return elem is not None and pred(elem)
    return check


INT_OR_VEC = Pred(_scalar_or_vector(_is_int), "signless integer or LLVM dialect-compatible "
                  "vector of signless integer")
FLOAT_OR_VEC = Pred(_scalar_or_vector(lambda s: s in _FLOATS), "floating point LLVM type or "
                    "LLVM dialect-compatible vector of floating point LLVM type")
PTR = Pred(lambda t: _is_ptr(str(t)), "LLVM pointer type")
PTR_OR_VEC = Pred(_scalar_or_vector(_is_ptr), "LLVM pointer type or LLVM dialect-compatible "
                  "vector of LLVM pointer type")
BOOL_OR_VEC = Pred(_scalar_or_vector(lambda s: s == "i1"), "1-bit signless integer or LLVM "
                   "dialect-compatible vector of 1-bit signless integer")
SIGNLESS_INT = Pred(lambda t: _is_int(str(t)), "signless integer")
I1_ONLY = Pred(lambda t: str(t) == "i1", "1-bit signless integer")
I1_ONLY.buildable = I1

_NONE_FM = OpaqueAttr("#llvm.fastmath<none>")
_I32_0 = IntegerAttr(0, I32)
_I64_0 = IntegerAttr(0, I64)

ICMP_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
FCMP_PREDICATES = ("_false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt",
                   "uge", "ult", "ule", "une", "uno", "_true")
#: LLVM's atomic orderings (``ordering`` property value -> keyword)
ORDERINGS = {0: "not_atomic", 1: "unordered", 2: "monotonic", 4: "acquire", 5: "release",
             6: "acq_rel", 7: "seq_cst"}
_ORDERING_OF = {v: k for k, v in ORDERINGS.items()}


# -- helpers ------------------------------------------------------------------------------------

def _attr_dict(parser, state) -> None:
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())


def _use(parser):
    return parser._parse_use()


def _names(printer, values) -> str:
    return ", ".join(printer.value_name(v) for v in values)


class LLVMOp(OpBase):
    __slots__ = ()
    DIALECT_NAME = "llvm"


# -- aggregates: the type at a position -------------------------------------------------------

def aggregate_member(container: str, position, what: str = "extractvalue"):
    """The member type text of ``container`` (an LLVM struct/array type's text) at
    ``position``, or an error message (as MLIR's parser reports it)."""
    from .globals import llvm_type_parts
    t = container
    for i in position:
        parts = llvm_type_parts(t)
        if parts[0] == "array":
            if not 0 <= i < parts[1]:
                return None, f"position out of bounds: {i}"
            t = parts[2]
        elif parts[0] == "struct":
            if not 0 <= i < len(parts[1]):
                return None, f"position out of bounds: {i}"
            t = parts[1][i]
        else:
            return None, f"expected LLVM IR structure/array type, got: '{_type_text(t)}'"
    return _type_text(t), None


def _type_text(t: str) -> str:
    from .globals import _type_text as tt
    return tt(t.strip())


def _parse_type_text(text: str):
    from ...text.parser import parse_type
    return parse_type(text)


# -- constants ----------------------------------------------------------------------------------

class ConstantOp(LLVMOp):
    """``%c = llvm.mlir.constant(42 : i32) : i32`` (any attribute: integers, floats, dense
    elements, strings for ``!llvm.array<N x i8>``)."""

    __slots__ = ()
    MNEMONIC = "mlir.constant"
    RESULTS = (Result("res"),)
    ATTRIBUTES = (Attr("value", "any"),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        parser.expect("(")
        state.attrs["value"] = parser.parse_attribute()
        parser.expect(")")
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f"({op.attributes['value'].generic()})"
                f"{printer.attr_dict_text(op, {'value'})} : {op.results[0].type}")

    def verify_op(self):
        value = self.attributes["value"]
        t = str(self.results[0].type)
        if isinstance(value, StringAttr):
            n = len(value.value.encode("utf-8", "surrogateescape"))
            m = re.fullmatch(r"!llvm\.array<\s*(\d+)\s*x\s*i8\s*>", t)
            if m is None or int(m.group(1)) != n:
                return f"expected array type of {n} i8 elements for the string constant"
            return None
        if isinstance(value, IntegerAttr) and not _is_int(t) and str(value.type) != "index":
            return "expected integer type"
        return None


class _ValueOfType(LLVMOp):
    """``%u = llvm.mlir.undef : T`` (and ``poison``)."""

    __slots__ = ()
    RESULTS = (Result("res"),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return printer.attr_dict_text(op, set()) + f" : {op.results[0].type}"


class UndefOp(_ValueOfType):
    __slots__ = ()
    MNEMONIC = "mlir.undef"


class PoisonOp(_ValueOfType):
    __slots__ = ()
    MNEMONIC = "mlir.poison"


# -- insertvalue / extractvalue ---------------------------------------------------------------

def _parse_position(parser) -> list:
    parser.expect("[")
    values = parser.parse_comma_list(parser.parse_integer, "]")
    parser.expect("]")
    return values


def _position_text(op) -> str:
    return "[" + ", ".join(str(i) for i in op.attributes["position"].value) + "]"


class ExtractValueOp(LLVMOp):
    """``%m = llvm.extractvalue %agg[1, 0] : !llvm.struct<(...)>`` (the member type follows
    from the position; mlir-opt prints a space after the type)."""

    __slots__ = ()
    MNEMONIC = "extractvalue"
    OPERANDS = (Operand("container"),)
    RESULTS = (Result("res"),)
    ATTRIBUTES = (Attr("position", "array_i64"),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["container"] = [_use(parser)]
        if parser.tok != "[":
            raise parser.error("expected '['")
        pos = _parse_position(parser)
        state.attrs["position"] = DenseArrayAttr("i64", tuple(pos))
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        ctype = parser.parse_type()
        member, err = aggregate_member(str(ctype), pos)
        if err:
            raise parser.error(parser.op_prefix() + err)
        state.set_types("container", "operand", [ctype], off)
        state.set_types("res", "result", [_parse_type_text(member)], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {printer.value_name(op.operands[0])}{_position_text(op)}"
                f"{printer.attr_dict_text(op, {'position'})} : {op.operands[0].type} ")

    def verify_op(self):
        member, err = aggregate_member(str(self.operands[0].type),
                                       self.attributes["position"].value)
        if err:
            return err
        if member != str(self.results[0].type):
            return f"Type mismatch: extracting from {self.operands[0].type} should produce " \
                f"{member} but this op returns {self.results[0].type}"
        return None


class InsertValueOp(LLVMOp):
    """``%agg2 = llvm.insertvalue %v, %agg[0] : !llvm.array<3 x i32>``."""

    __slots__ = ()
    MNEMONIC = "insertvalue"
    OPERANDS = (Operand("container"), Operand("value"))
    RESULTS = (Result("res"),)
    ATTRIBUTES = (Attr("position", "array_i64"),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        value = _use(parser)
        parser.expect(",")
        state.operands["container"] = [_use(parser)]
        state.operands["value"] = [value]
        if parser.tok != "[":
            raise parser.error("expected '['")
        pos = _parse_position(parser)
        state.attrs["position"] = DenseArrayAttr("i64", tuple(pos))
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        ctype = parser.parse_type()
        member, err = aggregate_member(str(ctype), pos)
        if err:
            raise parser.error(parser.op_prefix() + err)
        state.set_types("container", "operand", [ctype], off)
        state.set_types("value", "operand", [_parse_type_text(member)], off)
        state.set_types("res", "result", [ctype], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {printer.value_name(op.operands[1])}, {printer.value_name(op.operands[0])}"
                f"{_position_text(op)}{printer.attr_dict_text(op, {'position'})} : "
                f"{op.operands[0].type} ")

    def verify_op(self):
        member, err = aggregate_member(str(self.operands[0].type),
                                       self.attributes["position"].value)
        if err:
            return err
        if member != str(self.operands[1].type):
            return f"Type mismatch: cannot insert {self.operands[1].type} into " \
                f"{self.operands[0].type}"
        return None


# -- llvm.return ----------------------------------------------------------------------------

class ReturnOp(LLVMOp):
    """``llvm.return [%v : T]``: ends an ``llvm.func`` or a global's initializer."""

    __slots__ = ()
    MNEMONIC = "return"
    OPERANDS = (Operand("arg", ANY_TYPE, OPTIONAL),)
    TRAITS = (Pure, Terminator())

    @staticmethod
    def parse_custom(parser, state):
        uses = []
        if parser.tok and parser.tok[0] == "%":
            uses = [_use(parser)]
        state.operands["arg"] = uses
        off = parser.offset
        types = []
        if uses:
            parser.expect(":")
            off = parser.offset
            types = [parser.parse_type()]
        _attr_dict(parser, state)
        state.set_types("arg", "operand", types, off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        text = ""
        if op.operands:
            text = f" {printer.value_name(op.operands[0])} : {op.operands[0].type}"
        return text + printer.attr_dict_text(op, set())

    def verify_op(self):
        parent = self.parent_op
        if parent is None or parent.name != "llvm.func":
            return None
        from .ops import func_signature
        _, results, _ = func_signature(parent.attributes["function_type"].value)
        if not results:
            return "expected no operands" if self.operands else None
        if not self.operands:
            return "expected 1 operand"
        if str(results[0]) != str(self.operands[0].type):
            return "mismatching result types"
        return None


# -- integer arithmetic -------------------------------------------------------------------------

_OVERFLOW_WORDS = {"nsw": 1, "nuw": 2}


def parse_overflow(parser) -> int:
    """``overflow<nsw, nuw>`` (the keyword already consumed)."""
    parser.expect("<")
    flags = 0
    while True:
        word = parser.tok
        if word not in ("none", "nsw", "nuw"):
            raise parser.error(f"{parser.op_prefix()}expected one of [none, nsw, nuw] for LLVM "
                               f"integer overflow flags, got: {word}")
        parser.i += 1
        flags |= _OVERFLOW_WORDS.get(word, 0)
        if not parser.consume(","):
            break
    parser.expect(">")
    return flags


def overflow_text(flags) -> str:
    v = flags.value if isinstance(flags, IntegerAttr) else 0
    words = [w for w, bit in _OVERFLOW_WORDS.items() if v & bit]
    return f" overflow<{', '.join(words)}>" if words else ""


class _IntBinary(LLVMOp):
    """``%r = llvm.<op> [flag] %a, %b [overflow<...>] : T``."""

    __slots__ = ()
    OPERANDS = (Operand("lhs", INT_OR_VEC), Operand("rhs", INT_OR_VEC))
    RESULTS = (Result("res", INT_OR_VEC),)
    TRAITS = (Pure, SameOperandsAndResultType())
    #: the unit flag spelled before the operands (``exact``, ``disjoint``), and its property
    PREFIX: tuple = ()
    OVERFLOW = False

    @classmethod
    def parse_custom(cls, parser, state):
        if cls.PREFIX and parser.tok == cls.PREFIX[0]:
            parser.i += 1
            state.attrs[cls.PREFIX[1]] = UNIT
        lhs = _use(parser)
        parser.expect(",")
        rhs = _use(parser)
        state.operands["lhs"], state.operands["rhs"] = [lhs], [rhs]
        if cls.OVERFLOW:
            flags = 0
            if parser.tok == "overflow":
                parser.i += 1
                flags = parse_overflow(parser)
            state.attrs["overflowFlags"] = IntegerAttr(flags, I32)
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @classmethod
    def print_custom(cls, printer, op):
        text = ""
        elided = set()
        if cls.PREFIX:
            elided.add(cls.PREFIX[1])
            if cls.PREFIX[1] in op.attributes:
                text = " " + cls.PREFIX[0]
        text += f" {_names(printer, op.operands)}"
        if cls.OVERFLOW:
            elided.add("overflowFlags")
            text += overflow_text(op.attributes.get("overflowFlags"))
        return text + printer.attr_dict_text(op, elided) + f" : {op.results[0].type}"


class _OverflowBinary(_IntBinary):
    __slots__ = ()
    ATTRIBUTES = (Attr("overflowFlags", "i32", default=_I32_0),)
    OVERFLOW = True


class _ExactBinary(_IntBinary):
    __slots__ = ()
    ATTRIBUTES = (Attr("isExact", "unit"),)
    PREFIX = ("exact", "isExact")


def _int_op(name: str, base: type, mnemonic: str) -> type:
    return type(name, (base,), {"__slots__": (), "MNEMONIC": mnemonic})


AddOp = _int_op("AddOp", _OverflowBinary, "add")
SubOp = _int_op("SubOp", _OverflowBinary, "sub")
MulOp = _int_op("MulOp", _OverflowBinary, "mul")
ShlOp = _int_op("ShlOp", _OverflowBinary, "shl")
SDivOp = _int_op("SDivOp", _ExactBinary, "sdiv")
UDivOp = _int_op("UDivOp", _ExactBinary, "udiv")
LShrOp = _int_op("LShrOp", _ExactBinary, "lshr")
AShrOp = _int_op("AShrOp", _ExactBinary, "ashr")
SRemOp = _int_op("SRemOp", _IntBinary, "srem")
URemOp = _int_op("URemOp", _IntBinary, "urem")
AndOp = _int_op("AndOp", _IntBinary, "and")
XOrOp = _int_op("XOrOp", _IntBinary, "xor")


class OrOp(_IntBinary):
    __slots__ = ()
    MNEMONIC = "or"
    ATTRIBUTES = (Attr("isDisjoint", "unit"),)
    PREFIX = ("disjoint", "isDisjoint")


# -- float arithmetic -----------------------------------------------------------------------------

_FASTMATH = Attr("fastmathFlags", "any", default=_NONE_FM)


class _OperandsThenType(LLVMOp):
    """Ops written ``%r = llvm.<op> %a[, %b] [{attributes}] : T`` (operands and result of
    type ``T``)."""

    __slots__ = ()

    @classmethod
    def parse_custom(cls, parser, state):
        names = [o.name for o in cls.OPERANDS]
        uses = [_use(parser)]
        for _ in names[1:]:
            parser.expect(",")
            uses.append(_use(parser))
        for n, u in zip(names, uses):
            state.operands[n] = [u]
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @classmethod
    def print_custom(cls, printer, op):
        return (f" {_names(printer, op.operands)}{printer.attr_dict_text(op, set())} : "
                f"{op.results[0].type}")


class _FloatOp(_OperandsThenType):
    """``%r = llvm.fadd %a, %b [{fastmathFlags = #llvm.fastmath<...>}] : T``."""

    __slots__ = ()
    OPERANDS = (Operand("lhs", FLOAT_OR_VEC), Operand("rhs", FLOAT_OR_VEC))
    RESULTS = (Result("res", FLOAT_OR_VEC),)
    ATTRIBUTES = (_FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())


FAddOp = _int_op("FAddOp", _FloatOp, "fadd")
FSubOp = _int_op("FSubOp", _FloatOp, "fsub")
FMulOp = _int_op("FMulOp", _FloatOp, "fmul")
FDivOp = _int_op("FDivOp", _FloatOp, "fdiv")
FRemOp = _int_op("FRemOp", _FloatOp, "frem")


class FNegOp(_FloatOp):
    __slots__ = ()
    MNEMONIC = "fneg"
    OPERANDS = (Operand("operand", FLOAT_OR_VEC),)


class FreezeOp(_OperandsThenType):
    """``%r = llvm.freeze %v : T``: ``%v``, or an arbitrary fixed value of ``T`` where ``%v``
    is undef or poison."""

    __slots__ = ()
    MNEMONIC = "freeze"
    OPERANDS = (Operand("val", ANY_TYPE),)
    RESULTS = (Result("res", ANY_TYPE),)
    TRAITS = (Pure, SameOperandsAndResultType())


# -- comparisons and select ---------------------------------------------------------------------

def _bool_like(t):
    """i1, or a vector of i1 of ``t``'s shape."""
    text = str(t)
    m = re.fullmatch(r"vector<((?:\[?\d+\]?x)+)(.+)>", text)
    return _parse_type_text(f"vector<{m.group(1)}i1>") if m else I1


class _CmpOp(LLVMOp):
    __slots__ = ()
    RESULTS = (Result("res", BOOL_OR_VEC),)
    TRAITS = (Pure, SameTypeOperands())
    PREDICATES: tuple = ()

    @classmethod
    def parse_custom(cls, parser, state):
        off = parser.offset
        word = parser.parse_string("attribute value")
        if word not in cls.PREDICATES:
            raise parser.error(f"{parser.op_prefix()}'{word}' is an incorrect value of the "
                               "'predicate' attribute", off)
        state.attrs["predicate"] = IntegerAttr(cls.PREDICATES.index(word), I64)
        state.operands["lhs"] = [_use(parser)]
        parser.expect(",")
        state.operands["rhs"] = [_use(parser)]
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        t = parser.parse_type()
        state.set_types("lhs", "operand", [t], off)
        state.set_types("rhs", "operand", [t], off)
        state.set_types("res", "result", [_bool_like(t)], off)
        return state.build()

    @classmethod
    def print_custom(cls, printer, op):
        word = cls.PREDICATES[int(op.attributes["predicate"].value)]
        return (f' "{word}" {_names(printer, op.operands)}'
                f"{printer.attr_dict_text(op, {'predicate'})} : {op.operands[0].type}")


class ICmpOp(_CmpOp):
    __slots__ = ()
    MNEMONIC = "icmp"
    OPERANDS = (Operand("lhs"), Operand("rhs"))
    ATTRIBUTES = (Attr("predicate", "i64"),)
    PREDICATES = ICMP_PREDICATES


class FCmpOp(_CmpOp):
    __slots__ = ()
    MNEMONIC = "fcmp"
    OPERANDS = (Operand("lhs", FLOAT_OR_VEC), Operand("rhs", FLOAT_OR_VEC))
    ATTRIBUTES = (Attr("predicate", "i64"), _FASTMATH)
    PREDICATES = FCMP_PREDICATES


class SelectOp(LLVMOp):
    """``%r = llvm.select %c, %a, %b : i1, T``."""

    __slots__ = ()
    MNEMONIC = "select"
    OPERANDS = (Operand("condition", BOOL_OR_VEC), Operand("trueValue"),
                Operand("falseValue"))
    RESULTS = (Result("res"),)
    ATTRIBUTES = (_FASTMATH,)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        for n in ("condition", "trueValue", "falseValue"):
            if n != "condition":
                parser.expect(",")
            state.operands[n] = [_use(parser)]
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        c = parser.parse_type()
        parser.expect(",")
        off2 = parser.offset
        t = parser.parse_type()
        state.set_types("condition", "operand", [c], off)
        state.set_types("trueValue", "operand", [t], off2)
        state.set_types("falseValue", "operand", [t], off2)
        state.set_types("res", "result", [t], off2)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {_names(printer, op.operands)}{printer.attr_dict_text(op, set())} : "
                f"{op.operands[0].type}, {op.results[0].type}")

    def verify_op(self):
        if not (self.operands[1].type == self.operands[2].type == self.results[0].type):
            return "failed to verify that all of {trueValue, falseValue, res} have same type"
        return None


# -- casts --------------------------------------------------------------------------------------

def _width(t):
    text = str(t)
    elem = _vector_elem(text) or text
    return int(elem[1:]) if _is_int(elem) else None


class _CastOp(LLVMOp):
    """``%r = llvm.<cast> [nneg] %x [overflow<...>] : A to B``."""

    __slots__ = ()
    RESULTS = (Result("res"),)
    TRAITS = (Pure,)
    NNEG = False
    OVERFLOW = False
    #: "wider" / "narrower": MLIR checks the integer widths of sext / zext
    WIDTH = None

    @classmethod
    def parse_custom(cls, parser, state):
        if cls.NNEG and parser.tok == "nneg":
            parser.i += 1
            state.attrs["nonNeg"] = UNIT
        state.operands["arg"] = [_use(parser)]
        if cls.OVERFLOW:
            flags = 0
            if parser.tok == "overflow":
                parser.i += 1
                flags = parse_overflow(parser)
            state.attrs["overflowFlags"] = IntegerAttr(flags, I32)
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("arg", "operand", [parser.parse_type()], off)
        parser.expect("to")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @classmethod
    def print_custom(cls, printer, op):
        text = " nneg" if cls.NNEG and "nonNeg" in op.attributes else ""
        text += f" {printer.value_name(op.operands[0])}"
        elided = {"nonNeg"} if cls.NNEG else set()
        if cls.OVERFLOW:
            elided.add("overflowFlags")
            text += overflow_text(op.attributes.get("overflowFlags"))
        return (text + printer.attr_dict_text(op, elided) +
                f" : {op.operands[0].type} to {op.results[0].type}")

    def verify_op(self):
        if self.WIDTH == "wider":
            a, b = _width(self.operands[0].type), _width(self.results[0].type)
            if a is not None and b is not None and b <= a:
                # (MLIR reports this one without the op's name)
                return Diagnostic(ERROR, "integer width of the output type is smaller or equal to the integer " \
                    "width of the input type", self.loc)
        return None


def _cast(name, mnemonic, src, dst, **extra):
    ns = {"__slots__": (), "MNEMONIC": mnemonic,
          "OPERANDS": (Operand("arg", src),), "RESULTS": (Result("res", dst),)}
    attrs = ()
    if extra.get("NNEG"):
        attrs += (Attr("nonNeg", "unit"),)
    if extra.get("OVERFLOW"):
        attrs += (Attr("overflowFlags", "i32", default=_I32_0),)
    ns["ATTRIBUTES"] = attrs
    ns.update(extra)
    return type(name, (_CastOp,), ns)


BitcastOp = _cast("BitcastOp", "bitcast", ANY_TYPE, ANY_TYPE)
AddrSpaceCastOp = _cast("AddrSpaceCastOp", "addrspacecast", PTR_OR_VEC, PTR_OR_VEC)
PtrToIntOp = _cast("PtrToIntOp", "ptrtoint", PTR_OR_VEC, INT_OR_VEC)
IntToPtrOp = _cast("IntToPtrOp", "inttoptr", INT_OR_VEC, PTR_OR_VEC)
SExtOp = _cast("SExtOp", "sext", INT_OR_VEC, INT_OR_VEC, WIDTH="wider")
ZExtOp = _cast("ZExtOp", "zext", INT_OR_VEC, INT_OR_VEC, WIDTH="wider", NNEG=True)
TruncOp = _cast("TruncOp", "trunc", INT_OR_VEC, INT_OR_VEC, OVERFLOW=True)
SIToFPOp = _cast("SIToFPOp", "sitofp", INT_OR_VEC, FLOAT_OR_VEC)
UIToFPOp = _cast("UIToFPOp", "uitofp", INT_OR_VEC, FLOAT_OR_VEC, NNEG=True)
FPToSIOp = _cast("FPToSIOp", "fptosi", FLOAT_OR_VEC, INT_OR_VEC)
FPToUIOp = _cast("FPToUIOp", "fptoui", FLOAT_OR_VEC, INT_OR_VEC)
FPExtOp = _cast("FPExtOp", "fpext", FLOAT_OR_VEC, FLOAT_OR_VEC)
FPTruncOp = _cast("FPTruncOp", "fptrunc", FLOAT_OR_VEC, FLOAT_OR_VEC)


# -- memory -------------------------------------------------------------------------------------


def _unit_keyword(parser, state, word: str, attr: str) -> None:
    """An optional keyword ``word`` of the custom form, setting the unit attribute ``attr``."""
    if parser.consume(word):
        state.attrs[attr] = UNIT

class AllocaOp(LLVMOp):
    """``%p = llvm.alloca [inalloca] %n x T [{alignment = A : i64}] : (i32) -> !llvm.ptr``."""

    __slots__ = ()
    MNEMONIC = "alloca"
    OPERANDS = (Operand("arraySize", SIGNLESS_INT),)
    RESULTS = (Result("res", PTR),)
    ATTRIBUTES = (Attr("alignment", "i64", optional=True), Attr("elem_type", "type"),
                  Attr("inalloca", "unit"))

    @staticmethod
    def parse_custom(parser, state):
        _unit_keyword(parser, state, "inalloca", "inalloca")
        state.operands["arraySize"] = [_use(parser)]
        parser.expect("x")
        state.attrs["elem_type"] = TypeAttr(parser.parse_type())
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        ftype = parser.parse_type()
        if not hasattr(ftype, "inputs") or len(ftype.inputs) != 1 or len(ftype.results) != 1:
            raise parser.error("expected function type with one argument and one result",
                               off)
        state.set_types("arraySize", "operand", [ftype.inputs[0]], off)
        state.set_types("res", "result", [ftype.results[0]], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        text = " inalloca" if "inalloca" in op.attributes else ""
        return (f"{text} {printer.value_name(op.operands[0])} x "
                f"{op.attributes['elem_type'].value}"
                f"{printer.attr_dict_text(op, {'elem_type', 'inalloca'})} : "
                f"({op.operands[0].type}) -> {op.results[0].type}")


_MEM_OPTIONAL = ("access_groups", "alias_scopes", "noalias_scopes", "tbaa", "nontemporal",
                 "syncscope", "invariantGroup")


def _parse_atomic(parser, state) -> None:
    if parser.tok != "atomic":
        state.attrs["ordering"] = _I64_0
        return
    parser.i += 1
    if parser.tok == "syncscope":
        parser.i += 1
        parser.expect("(")
        state.attrs["syncscope"] = StringAttr(parser.parse_string())
        parser.expect(")")
    word = parser.tok
    if word not in _ORDERING_OF:
        raise parser.error(f"{parser.op_prefix()}expected one of [not_atomic, unordered, "
                           "monotonic, acquire, release, acq_rel, seq_cst] for atomic "
                           f"ordering, got: {word}")
    parser.i += 1
    state.attrs["ordering"] = IntegerAttr(_ORDERING_OF[word], I64)


def _atomic_text(op) -> str:
    v = int(op.attributes["ordering"].value) if "ordering" in op.attributes else 0
    if not v:
        return ""
    scope = op.attributes.get("syncscope")
    text = f' atomic syncscope("{scope.value}")' if isinstance(scope, StringAttr) else " atomic"
    return f"{text} {ORDERINGS.get(v, v)}"


def _verify_atomic(op, ordering_forbidden: tuple):
    v = int(op.attributes["ordering"].value) if "ordering" in op.attributes else 0
    if not v:
        return None
    if v in ordering_forbidden:
        return f"unsupported ordering '{ORDERINGS[v]}'"
    if "alignment" not in op.attributes:
        return "expected alignment for atomic access"
    return None


class LoadOp(LLVMOp):
    """``%v = llvm.load [volatile] %p [atomic [syncscope("s")] ordering] [invariant]
    [{alignment = A : i64}] : !llvm.ptr -> T``."""

    __slots__ = ()
    MNEMONIC = "load"
    OPERANDS = (Operand("addr", PTR),)
    RESULTS = (Result("res"),)
    ATTRIBUTES = (Attr("alignment", "i64", optional=True), Attr("ordering", "i64",
                                                                  default=_I64_0),
                  Attr("volatile_", "unit"), Attr("invariant", "unit")) + \
        tuple(Attr(n, "any", optional=True) for n in _MEM_OPTIONAL + ("dereferenceable",))

    @staticmethod
    def parse_custom(parser, state):
        _unit_keyword(parser, state, "volatile", "volatile_")
        state.operands["addr"] = [_use(parser)]
        _parse_atomic(parser, state)
        _unit_keyword(parser, state, "invariant", "invariant")
        _unit_keyword(parser, state, "invariant_group", "invariantGroup")
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("addr", "operand", [parser.parse_type()], off)
        parser.expect("->")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        text = " volatile" if "volatile_" in a else ""
        text += f" {printer.value_name(op.operands[0])}{_atomic_text(op)}"
        if "invariant" in a:
            text += " invariant"
        if "invariantGroup" in a:
            text += " invariant_group"
        elided = {"volatile_", "ordering", "syncscope", "invariant", "invariantGroup"}
        return (text + printer.attr_dict_text(op, elided) +
                f" : {op.operands[0].type} -> {op.results[0].type}")

    def verify_op(self):
        return _verify_atomic(self, (5, 6))


class StoreOp(LLVMOp):
    """``llvm.store [volatile] %v, %p [atomic ...] [{alignment = A : i64}] : T, !llvm.ptr``."""

    __slots__ = ()
    MNEMONIC = "store"
    OPERANDS = (Operand("value"), Operand("addr", PTR))
    ATTRIBUTES = (Attr("alignment", "i64", optional=True), Attr("ordering", "i64",
                                                                  default=_I64_0),
                  Attr("volatile_", "unit")) + \
        tuple(Attr(n, "any", optional=True) for n in _MEM_OPTIONAL)

    @staticmethod
    def parse_custom(parser, state):
        _unit_keyword(parser, state, "volatile", "volatile_")
        state.operands["value"] = [_use(parser)]
        parser.expect(",")
        state.operands["addr"] = [_use(parser)]
        _parse_atomic(parser, state)
        _unit_keyword(parser, state, "invariant_group", "invariantGroup")
        _attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("value", "operand", [parser.parse_type()], off)
        parser.expect(",")
        off = parser.offset
        state.set_types("addr", "operand", [parser.parse_type()], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        text = " volatile" if "volatile_" in a else ""
        text += f" {_names(printer, op.operands)}{_atomic_text(op)}"
        if "invariantGroup" in a:
            text += " invariant_group"
        elided = {"volatile_", "ordering", "syncscope", "invariantGroup"}
        return (text + printer.attr_dict_text(op, elided) +
                f" : {op.operands[0].type}, {op.operands[1].type}")

    def verify_op(self):
        return _verify_atomic(self, (4, 6))


# -- branches -----------------------------------------------------------------------------------

class BrOp(cf_ops.BranchOp):
    """``llvm.br ^bb(%a : T)``: cf.br's syntax and rules."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "br"
    ATTRIBUTES = (Attr("loop_annotation", "any", optional=True),)


class CondBrOp(cf_ops.CondBranchOp):
    """``llvm.cond_br %c [weights([..])], ^t(...), ^f(...)``: cf.cond_br's syntax and
    rules."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "cond_br"
    ATTRIBUTES = cf_ops.CondBranchOp.ATTRIBUTES + (Attr("loop_annotation", "any",
                                                        optional=True),)


class SwitchOp(cf_ops.SwitchOp):
    """``llvm.switch %v : T, ^default(...) [ c: ^dest(...), ... ] {branch_weights = ...}``:
    cf.switch's operands and properties (case values signed, as the flag's integer type),
    with LLVM's text and messages."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "switch"
    ATTRIBUTES = cf_ops.SwitchOp.ATTRIBUTES + (Attr("branch_weights", "array_i32",
                                                    optional=True),)

    def verify_cf(self):
        values = cf_syntax.case_values(self.attributes.get("case_values"))
        if len(values) != len(self.successors) - 1:
            return "expects number of case values to match number of case destinations"
        return cf_ops.branch_weights_error(self)

    @staticmethod
    def parse_custom(parser, state):
        from ..arith.types import int_width
        state.operands["flag"] = [_use(parser)]
        parser.expect(":")
        flag_off = parser.offset
        flag_type = parser.parse_type()
        width = int_width(str(flag_type))
        if width is None:
            raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: expected "
                               f"builtin.integer, but found '{flag_type}'", flag_off)
        state.set_types("flag", "operand", [flag_type], flag_off)
        parser.expect(",")
        default = cf_syntax.parse_destination(parser, state, "defaultOperands")
        parser.expect("[")
        cases = cf_syntax.SwitchCases()
        while parser.tok != "]":
            if cases.values:
                parser.expect(",")
            cases.parse(parser, state)
        parser.expect("]")
        cases.finish(state, flag_type, width, flag_off)
        _attr_dict(parser, state)
        op = state.build()
        op.successors = [default] + cases.blocks
        return op

    @staticmethod
    def print_custom(printer, op) -> str:
        flag = op.operands[0]
        groups = op.successor_operands()
        pad = "  " * (printer.indent + 1)
        cases = [f"{pad}{value}: " + cf_syntax.print_destination(printer, block, values)
                 for value, block, values in zip(
                     cf_syntax.case_values(op.attributes.get("case_values")),
                     op.successors[1:], groups[1:])]
        default = cf_syntax.print_destination(printer, op.successors[0], groups[0])
        body = "".join(line + (",\n" if k + 1 < len(cases) else "\n")
                       for k, line in enumerate(cases))
        return (f" {printer.value_name(flag)} : {flag.type}, {default} [\n{body}"
                + "  " * printer.indent + "]"
                + printer.attr_dict_text(op, {"case_values", "case_operand_segments"}))
