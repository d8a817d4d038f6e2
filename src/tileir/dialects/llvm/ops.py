"""``llvm.mlir.zero : T`` (a zero-initialised value of an LLVM-compatible type), ``llvm.func``
declarations and ``llvm.call``."""

from __future__ import annotations

from ...ir.attributes import StringAttr, SymbolRefAttr, TypeAttr, format_symbol
from ...ir.constraints import ANY_TYPE
from ...ir.core import Region
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import IsolatedFromAbove, Pure
from ...ir.types import FunctionType


class ZeroOp(OpBase):
    """``%0 = llvm.mlir.zero : !llvm.ptr``."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "mlir.zero"
    RESULTS = (Result("res"),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        return printer.attr_dict_text(op, set()) + f" : {op.results[0].type}"


# -- llvm.func (declarations) and llvm.call ----------------------------------------------------

_LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common",
             "appending", "extern_weak", "linkonce_odr", "weak_odr", "external")


class FuncOp(OpBase):
    """``llvm.func [linkage] @name(T, ...) [-> T] [attributes {...}]``: a declaration of an
    external function (what programs write for runtime functions such as
    ``mgpuCreateSparseEnv`` or ``printF32``).  tileir runs no LLVM dialect code, so a body is
    reported when parsed.  ``function_type`` holds the signature as a builtin function type
    (no result for LLVM's ``void``)."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "func"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("function_type", "function_type"),
                  Attr("linkage", "str", optional=True))
    REGIONS = (RegionDef("body", "any"),)
    TRAITS = (IsolatedFromAbove(),)

    @staticmethod
    def parse_custom(parser, state):
        if parser.tok in _LINKAGES:
            if parser.tok != "external":
                state.attrs["linkage"] = StringAttr(parser.tok)
            parser.i += 1
        state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
        parser.expect("(")
        inputs: list = []
        if parser.tok != ")":
            parser.parse_comma_list(lambda: inputs.append(parser.parse_type()), ")")
        parser.expect(")")
        results = [parser.parse_type()] if parser.consume("->") else []
        state.attrs["function_type"] = TypeAttr(FunctionType(inputs, results))
        if parser.tok == "attributes":
            parser.i += 1
            state.attrs.update(parser.parse_attr_dict_body())
        if parser.tok == "{":
            raise parser.error("llvm.func with a body: tileir parses llvm.func declarations "
                               "only (it runs no LLVM dialect code)")
        state.regions["body"] = Region()
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        ftype = op.attributes["function_type"].value
        linkage = op.attributes.get("linkage")
        text = f" {linkage.value}" if isinstance(linkage, StringAttr) else ""
        text += " " + format_symbol(op.attributes["sym_name"].value)
        text += "(" + ", ".join(str(t) for t in ftype.inputs) + ")"
        if ftype.results:
            text += f" -> {ftype.results[0]}"
        return text + printer.attr_dict_text(op, {"sym_name", "function_type", "linkage"},
                                             with_keyword=True)

    def verify_op(self):
        ftype = self.attributes["function_type"].value
        if len(ftype.results) > 1:
            return "expected at most one result type"
        linkage = self.attributes.get("linkage")
        if not self.regions[0].blocks and linkage is not None and \
                linkage.value not in ("external", "extern_weak"):
            return "external functions must have 'external' or 'extern_weak' linkage"
        return None


class CallOp(OpBase):
    """``llvm.call @f(%a, ...) : (T, ...) -> R``: a direct call of a declared function."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "call"
    OPERANDS = (Operand("callee_operands", ANY_TYPE, VARIADIC),)
    RESULTS = (Result("result", ANY_TYPE, VARIADIC),)
    ATTRIBUTES = (Attr("callee", "symbol_ref"),)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["callee"] = SymbolRefAttr(parser.parse_symbol_name())
        parser.expect("(")
        operands = [] if parser.tok == ")" else \
            parser.parse_comma_list(parser._parse_use, ")")
        parser.expect(")")
        state.operands["callee_operands"] = operands
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        off = parser.offset
        ftype = parser.parse_type()
        if not isinstance(ftype, FunctionType):
            raise parser.error("expected a function type", off)
        state.set_types("callee_operands", "operand", list(ftype.inputs), off)
        state.set_types("result", "result", list(ftype.results), off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        args = ", ".join(printer.value_name(v) for v in op.operands)
        ftype = FunctionType([v.type for v in op.operands], [r.type for r in op.results])
        return (f" {op.attributes['callee'].generic()}({args})"
                f"{printer.attr_dict_text(op, {'callee'})} : {ftype}")
