"""``llvm.mlir.zero : T`` (a zero-initialised value of an LLVM-compatible type), ``llvm.func``
declarations and ``llvm.call``."""

from __future__ import annotations

import re

from ...ir.attributes import StringAttr, SymbolRefAttr, TypeAttr, format_symbol
from ...ir.constraints import ANY_TYPE
from ...ir.core import Region
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import IsolatedFromAbove, Pure
from ...ir.types import BuiltinType, FunctionType

#: builtin type names LLVM function types spell as they are (others get ``!llvm.``)
_PLAIN = re.compile(r"(i\d+|f16|bf16|f32|f64|f80|f128|vector<.*|index)\Z")


def is_llvm_func_type(t) -> bool:
    return isinstance(t, BuiltinType) and str(t).startswith("!llvm.func<")


def _llvm_name(t) -> str:
    text = str(t)
    return text[len("!llvm."):] if text.startswith("!llvm.") else text


def llvm_func_type(inputs, results, vararg: bool) -> BuiltinType:
    """``!llvm.func<R (A, B, ...)>`` (``void`` for no result), as MLIR prints it."""
    args = [_llvm_name(t) for t in inputs] + (["..."] if vararg else [])
    res = _llvm_name(results[0]) if results else "void"
    return BuiltinType(f"!llvm.func<{res} ({', '.join(args)})>")


def _split_top(text: str) -> list:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _from_llvm_name(text: str):
    from ...text.parser import parse_type
    return parse_type(text if _PLAIN.match(text) else "!llvm." + text)


def func_signature(ftype) -> tuple:
    """(inputs, results, vararg) of an llvm.func's ``function_type`` (a builtin function type
    or an ``!llvm.func<...>``)."""
    if isinstance(ftype, FunctionType):
        return list(ftype.inputs), list(ftype.results), False
    m = re.fullmatch(r"!llvm\.func<\s*(.*?)\s*\((.*)\)\s*>", str(ftype), re.S)
    if m is None:
        return [], [], False
    pieces = _split_top(m.group(2))
    vararg = bool(pieces) and pieces[-1] == "..."
    if vararg:
        pieces = pieces[:-1]
    res = m.group(1)
    results = [] if res == "void" else [_from_llvm_name(res)]
    return [_from_llvm_name(p) for p in pieces], results, vararg


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
    (no result for LLVM's ``void``); a variadic declaration (``llvm.func @printf(!llvm.ptr,
    ...) -> i32``) holds it as MLIR's ``!llvm.func<i32 (ptr, ...)>``."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "func"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("function_type", "type"),
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
        vararg = []

        def one():
            if parser.tok == "...":
                parser.i += 1
                vararg.append(True)
                if parser.tok != ")":
                    raise parser.error("expected ')' after '...'")
                return
            inputs.append(parser.parse_type())
        if parser.tok != ")":
            parser.parse_comma_list(one, ")")
        parser.expect(")")
        results = [parser.parse_type()] if parser.consume("->") else []
        state.attrs["function_type"] = TypeAttr(
            llvm_func_type(inputs, results, True) if vararg else FunctionType(inputs, results))
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
        inputs, results, vararg = func_signature(op.attributes["function_type"].value)
        linkage = op.attributes.get("linkage")
        text = f" {linkage.value}" if isinstance(linkage, StringAttr) else ""
        text += " " + format_symbol(op.attributes["sym_name"].value)
        text += "(" + ", ".join([str(t) for t in inputs] + (["..."] if vararg else [])) + ")"
        if results:
            text += f" -> {results[0]}"
        return text + printer.attr_dict_text(op, {"sym_name", "function_type", "linkage"},
                                             with_keyword=True)

    def verify_op(self):
        ftype = self.attributes["function_type"].value
        if not isinstance(ftype, FunctionType) and not is_llvm_func_type(ftype):
            return "attribute 'function_type' failed to satisfy constraint: type attribute " \
                "of LLVM function type"
        inputs, results, _ = func_signature(ftype)
        if len(results) > 1:
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
    ATTRIBUTES = (Attr("callee", "symbol_ref"), Attr("var_callee_type", "type", optional=True))

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["callee"] = SymbolRefAttr(parser.parse_symbol_name())
        parser.expect("(")
        operands = [] if parser.tok == ")" else \
            parser.parse_comma_list(parser._parse_use, ")")
        parser.expect(")")
        if parser.tok == "vararg":
            parser.i += 1
            parser.expect("(")
            off = parser.offset
            vtype = parser.parse_type()
            if not is_llvm_func_type(vtype) or not func_signature(vtype)[2]:
                raise parser.error("expected a variadic LLVM function type", off)
            state.attrs["var_callee_type"] = TypeAttr(vtype)
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
        vtype = op.attributes.get("var_callee_type")
        vararg = f" vararg({vtype.value})" if isinstance(vtype, TypeAttr) else ""
        return (f" {op.attributes['callee'].generic()}({args}){vararg}"
                f"{printer.attr_dict_text(op, {'callee', 'var_callee_type'})} : {ftype}")

    def verify_op(self):
        vtype = self.attributes.get("var_callee_type")
        if vtype is None:
            return None
        if not is_llvm_func_type(vtype.value):
            return "attribute 'var_callee_type' failed to satisfy constraint: type attribute " \
                "of LLVM function type"
        inputs, results, _ = func_signature(vtype.value)
        if len(inputs) > len(self.operands):
            return f"expected var_callee_type to have at most {len(self.operands)} parameters"
        for t, v in zip(inputs, self.operands):
            if str(t) != str(v.type):
                return f"var_callee_type parameter type mismatch: '{t}' != '{v.type}'"
        res = str(results[0]) if results else "!llvm.void"
        got = str(self.results[0].type) if self.results else "!llvm.void"
        if res != got:
            return f"var_callee_type return type mismatch: '{res}' != '{got}'"
        return None

    def verify_symbol_uses(self, table):
        from ...ir.verify import symbol_lookup
        vtype = self.attributes.get("var_callee_type")
        name = str(self.attributes["callee"].generic()).lstrip("@")
        target = symbol_lookup(table, name)
        if target is None or target.name != "llvm.func":
            return None
        ftype = target.attributes.get("function_type")
        if not isinstance(ftype, TypeAttr):
            return None
        inputs, results, vararg = func_signature(ftype.value)
        if vararg and vtype is None:
            return "missing var_callee_type attribute for vararg call"
        n = len(self.operands)
        if (n < len(inputs)) if vararg else (n != len(inputs)):
            return "incorrect number of operands (%d) for callee (expecting: %d)" \
                % (n, len(inputs))
        for i, t in enumerate(inputs):
            if str(self.operands[i].type) != str(t):
                return f"operand type mismatch for operand {i}: '{self.operands[i].type}' != " \
                    f"'{t}'"
        got = str(self.results[0].type) if self.results else None
        want = str(results[0]) if results else None
        if got != want:
            if got is None:
                return "expected function call to produce a value"
            if want is None:
                return "calling function with void result must not produce values"
            return f"result type mismatch: '{got}' != '{want}'"
        return None
