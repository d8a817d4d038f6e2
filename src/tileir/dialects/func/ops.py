"""The func dialect's ops (MLIR 22): ``func.func``, ``func.return``, ``func.call``,
``func.call_indirect`` and ``func.constant``."""

from __future__ import annotations

from typing import Optional

from ...ir.constraints import ANY_TYPE, Pred
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result, Trait
from ...ir.traits import (AffineScope, FunctionLike, IsolatedFromAbove, Pure, ReturnLike,
                          Terminator, ParentOneOf)
from ...ir.types import FunctionType
from ...ir.verify import visibility_error
from .syntax import (parse_call, parse_call_indirect, parse_constant, parse_func, parse_return,
                     print_call, print_call_indirect, print_constant, print_func, print_return)

__all__ = ["FuncOp", "ReturnOp", "CallOp", "CallIndirectOp", "ConstantOp"]


class FuncBase(OpBase):
    """Base of every func op."""

    __slots__ = ()
    DIALECT_NAME = "func"


def _verify_visibility(op) -> Optional[str]:
    error = visibility_error(op)
    if error is not None:
        return error
    vis = op.attributes.get("sym_visibility")
    if not op.regions[0].blocks and (vis is None or vis.value == "public"):
        return "symbol declaration cannot have public visibility"
    return None


class _SymbolVisibility(Trait):
    """MLIR's SymbolOpInterface verification (before FunctionOpInterface's): a known
    visibility, and declarations are not public."""

    PHASE = "trait"

    def verify(self, op):
        return _verify_visibility(op)


class FuncOp(FuncBase):
    """A function: a symbol with a signature and a body (none for a declaration)."""

    __slots__ = ()
    MNEMONIC = "func"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("function_type", "function_type"),
                  Attr("sym_visibility", "str", optional=True),
                  Attr("arg_attrs", "dict_array", optional=True),
                  Attr("res_attrs", "dict_array", optional=True),
                  Attr("no_inline", "unit", optional=True))
    REGIONS = (RegionDef("body", "any"),)
    TRAITS = (AffineScope, _SymbolVisibility(), FunctionLike, IsolatedFromAbove())
    parse_custom = staticmethod(parse_func)
    print_custom = staticmethod(print_func)


class ReturnOp(FuncBase):
    """Returns from the enclosing function."""

    __slots__ = ()
    MNEMONIC = "return"
    OPERANDS = (Operand("operands", ANY_TYPE, VARIADIC),)
    TRAITS = (Pure, ParentOneOf("func.func"), ReturnLike, Terminator())
    parse_custom = staticmethod(parse_return)
    print_custom = staticmethod(print_return)

    def verify_op(self):
        func = self.parent.parent.parent if self.parent is not None else None
        if func is None or func.name != "func.func":
            return None
        results = func.attributes["function_type"].value.results
        name = func.attributes["sym_name"].value
        if len(self.operands) != len(results):
            return (f"has {len(self.operands)} operands, but enclosing function (@{name}) "
                    f"returns {len(results)}")
        for i, (v, t) in enumerate(zip(self.operands, results)):
            if v.type != t:
                from ...ir.diagnostics import ERROR, Diagnostic
                return Diagnostic(ERROR, f"type of return operand {i} ('{v.type}') doesn't "
                                  f"match function result type ('{t}') in function @{name}",
                                  self.loc)
        return None


def _symbol_function(op, callee: str) -> Optional[object]:
    from ...ir.verify import nearest_symbol_table, symbol_lookup
    table = nearest_symbol_table(op)
    return symbol_lookup(table, callee) if table is not None else None


class CallOp(FuncBase):
    """A direct call of a function symbol."""

    __slots__ = ()
    MNEMONIC = "call"
    OPERANDS = (Operand("operands", ANY_TYPE, VARIADIC),)
    RESULTS = (Result("results", ANY_TYPE, VARIADIC),)
    ATTRIBUTES = (Attr("callee", "flat_symbol", summary="flat symbol reference attribute"),
                  Attr("arg_attrs", "dict_array", optional=True),
                  Attr("res_attrs", "dict_array", optional=True),
                  Attr("no_inline", "unit", optional=True))
    parse_custom = staticmethod(parse_call)
    print_custom = staticmethod(print_call)

    def asm_result_names(self):
        return None

    def verify_op(self):
        callee = self.attributes["callee"].root
        fn = _symbol_function(self, callee)
        if fn is None or fn.name != "func.func":
            return f"'{callee}' does not reference a valid function"
        ftype = fn.attributes["function_type"].value
        if len(ftype.inputs) != len(self.operands):
            return "incorrect number of operands for callee"
        for i, (v, t) in enumerate(zip(self.operands, ftype.inputs)):
            if v.type != t:
                return (f"operand type mismatch: expected operand type '{t}', but provided "
                        f"'{v.type}' for operand number {i}")
        if len(ftype.results) != len(self.results):
            return "incorrect number of results for callee"
        for i, (r, t) in enumerate(zip(self.results, ftype.results)):
            if r.type != t:
                return (f"result type mismatch at index {i}")
        return None


_FUNCTION = Pred(lambda t: isinstance(t, FunctionType), "function type")


class CallIndirectOp(FuncBase):
    """A call of a function value."""

    __slots__ = ()
    MNEMONIC = "call_indirect"
    OPERANDS = (Operand("callee", _FUNCTION), Operand("callee_operands", ANY_TYPE, VARIADIC))
    RESULTS = (Result("results", ANY_TYPE, VARIADIC),)
    ATTRIBUTES = (Attr("arg_attrs", "dict_array", optional=True),
                  Attr("res_attrs", "dict_array", optional=True))
    parse_custom = staticmethod(parse_call_indirect)
    print_custom = staticmethod(print_call_indirect)

    def verify_op(self):
        ftype = self.operands[0].type
        if list(ftype.inputs) != [v.type for v in self.operands[1:]]:
            return "failed to verify that callee input types match argument types"
        if list(ftype.results) != [r.type for r in self.results]:
            return "failed to verify that callee result types match result types"
        return None


class ConstantOp(FuncBase):
    """A function symbol as an SSA value."""

    __slots__ = ()
    MNEMONIC = "constant"
    RESULTS = (Result("result", ANY_TYPE),)
    ATTRIBUTES = (Attr("value", "flat_symbol", summary="flat symbol reference attribute"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(parse_constant)
    print_custom = staticmethod(print_constant)

    def asm_result_names(self):
        return ["f"]

    def verify_op(self):
        callee = self.attributes["value"].root
        fn = _symbol_function(self, callee)
        if fn is None or fn.name != "func.func":
            return f"reference to undefined function '{callee}'"
        if fn.attributes["function_type"].value != self.results[0].type:
            return "reference to function with mismatched type"
        return None
