"""Subgroup matrix (MMA) ops on ``!gpu.mma_matrix`` values."""

from __future__ import annotations

import re

from ....ir.attributes import UNIT, IntegerAttr
from ....ir.diagnostics import ERROR, Diagnostic
from ....ir.opdef import VARIADIC, Attr, Operand, Result
from ..attributes import MMAElementwiseOp
from ..types import MMAMatrixType
from .verify_util import last_dim_has_unit_stride, memref_info
from .base import (INDEX, GpuOp, attr_dict, parse_attr_dict, parse_keyword_enum, parse_types,
                   print_types, print_uses)


def _parse_indices(parser, state, name: str) -> None:
    parser.expect("[")
    uses = parser.parse_comma_list(parser._parse_use, "]")
    parser.expect("]")
    state.operands[name] = uses
    state.set_types(name, "operand", [INDEX] * len(uses), parser.offset)


class _IndexedAccessOp(GpuOp):
    """The family ``[%value,] %base[%i, ..] attr-dict : [T,] BaseT [-> R]``: MMA loads and
    stores and thread-local element access.  ``OPERANDS`` lists the value (if any), the base
    and the indices; an op with a result prints ``-> R``."""

    __slots__ = ()

    @classmethod
    def _named(cls) -> list[str]:
        return [o.name for o in cls.OPERANDS[:-1]]

    @classmethod
    def parse_custom(cls, parser, state):
        named = cls._named()
        for k, name in enumerate(named):
            if k:
                parser.expect(",")
            state.operands[name] = [parser._parse_use()]
        _parse_indices(parser, state, cls.OPERANDS[-1].name)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        for k, name in enumerate(named):
            if k:
                parser.expect(",")
            state.set_types(name, "operand", [parser.parse_type()], off)
        if cls.RESULTS:
            parser.expect("->")
            state.set_types(cls.RESULTS[0].name, "result", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        n = len(op._named())
        named = op.operands[:n]
        text = (print_uses(printer, named) + f"[{print_uses(printer, op.operands[n:])}]"
                + attr_dict(printer, op) + " : " + print_types([v.type for v in named]))
        if op.results:
            text += f" -> {op.results[0].type}"
        return text


_LOAD_STORE_ATTRS = (Attr("leadDimension", "index"), Attr("transpose", "unit"))


class SubgroupMmaLoadMatrixOp(_IndexedAccessOp):
    """``gpu.subgroup_mma_load_matrix %m[%i, %j] {leadDimension = 32 : index} : M -> !gpu.mma_matrix``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_load_matrix"
    OPERANDS = (Operand("srcMemref"), Operand("indices", kind=VARIADIC))
    RESULTS = (Result("res"),)
    ATTRIBUTES = _LOAD_STORE_ATTRS


    def verify_op(self):
        error = mma_memref_error(self, 0)
        if error is None and not last_dim_has_unit_stride(self.operands[0].type):
            return Diagnostic(ERROR, "expected source memref most minor dim must have unit "
                              "stride", self.loc)
        return error


class SubgroupMmaStoreMatrixOp(_IndexedAccessOp):
    """``gpu.subgroup_mma_store_matrix %v, %m[%i, %j] {leadDimension = ..} : !gpu.mma_matrix, M``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_store_matrix"
    OPERANDS = (Operand("src"), Operand("dstMemref"), Operand("indices", kind=VARIADIC))
    ATTRIBUTES = _LOAD_STORE_ATTRS


    def verify_op(self):
        error = mma_memref_error(self, 1)
        if error is not None:
            return error
        if not last_dim_has_unit_stride(self.operands[1].type):
            return Diagnostic(ERROR, "expected destination memref most minor dim must have unit "
                              "stride", self.loc)
        src = self.operands[0].type
        if isinstance(src, MMAMatrixType) and src.operand != "COp":
            return Diagnostic(ERROR, "expected the operand matrix being stored to have 'COp' "
                              "operand type", self.loc)
        return None


_MMA_MEMORY_ELEMENTS = ("i8", "i32", "f16", "f32", "f64")
_MMA_MEMREF_SUMMARY = ("memref of 8-bit signless integer or 32-bit signless integer or 16-bit "
                       "float or 32-bit float or 64-bit float or vector of 8-bit signless integer "
                       "or 32-bit signless integer or 16-bit float or 32-bit float or 64-bit float "
                       "values of ranks 1 values")


def mma_memref_error(op, index: int):
    """The ODS constraint on the memref an MMA matrix is loaded from or stored to."""
    t = op.operands[index].type
    info = memref_info(t)
    element = info.element if info is not None else None
    if element is not None and element.startswith("vector<"):
        m = re.fullmatch(r"vector<[0-9]+x(\w+)>", element)
        element = m.group(1) if m else None
    if element not in _MMA_MEMORY_ELEMENTS:
        return f"operand #{index} must be {_MMA_MEMREF_SUMMARY}, but got '{t}'"
    return None


class SubgroupMmaComputeOp(GpuOp):
    """``gpu.subgroup_mma_compute %a, %b, %c [{a_transpose}] : A, B -> C``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_compute"
    OPERANDS = (Operand("opA"), Operand("opB"), Operand("opC"))
    RESULTS = (Result("res"),)
    ATTRIBUTES = (Attr("a_transpose", "unit"), Attr("b_transpose", "unit"))

    @staticmethod
    def parse_custom(parser, state):
        for name in ("opA", "opB", "opC"):
            if name != "opA":
                parser.expect(",")
            state.operands[name] = [parser._parse_use()]
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("opA", "operand", [parser.parse_type()], off)
        parser.expect(",")
        state.set_types("opB", "operand", [parser.parse_type()], off)
        parser.expect("->")
        c = parser.parse_type()
        state.set_types("opC", "operand", [c], off)
        state.result_types["res"] = [c]

    @staticmethod
    def print_custom(printer, op):
        a, b, c = op.operands
        return (print_uses(printer, op.operands) + attr_dict(printer, op)
                + f" : {a.type}, {b.type} -> {op.results[0].type}")

    def verify_op(self):
        a, b, c = (v.type for v in self.operands)
        if not all(isinstance(t, MMAMatrixType) for t in (a, b, c)):
            return None
        if (a.operand, b.operand, c.operand) != ("AOp", "BOp", "COp"):
            return Diagnostic(ERROR, "operands must be in the order AOp, BOp, COp", self.loc)
        m, k = a.shape if "a_transpose" not in self.attributes else a.shape[::-1]
        k2, n = b.shape if "b_transpose" not in self.attributes else b.shape[::-1]
        if k != k2 or (m, n) != tuple(c.shape):
            return Diagnostic(ERROR, "operand shapes do not satisfy matmul constraints", self.loc)
        return None


class SubgroupMmaConstantMatrixOp(GpuOp):
    """``gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<..>``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_constant_matrix"
    OPERANDS = (Operand("value"),)
    RESULTS = (Result("res"),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["value"] = [parser._parse_use()]
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        t = parser.parse_type()
        state.set_types("res", "result", [t], off)
        if isinstance(t, MMAMatrixType):
            state.set_types("value", "operand", [t.element], off)

    @staticmethod
    def print_custom(printer, op):
        return printer.value_name(op.operands[0]) + attr_dict(printer, op) + \
            f" : {op.results[0].type}"


class SubgroupMmaElementwiseOp(GpuOp):
    """``gpu.subgroup_mma_elementwise  addf %a, %b : (A, B) -> C``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_elementwise"
    OPERANDS = (Operand("args", kind=VARIADIC),)
    RESULTS = (Result("res"),)
    ATTRIBUTES = (Attr("opType", MMAElementwiseOp),)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["opType"] = parse_keyword_enum(parser, MMAElementwiseOp)
        state.operands["args"] = parser.parse_comma_list(parser._parse_use)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        ftype = parser.parse_function_type()
        state.set_types("args", "operand", list(ftype.inputs), off)
        state.set_types("res", "result", list(ftype.results), off)

    @staticmethod
    def print_custom(printer, op):
        ins = print_types([v.type for v in op.operands])
        return (f"  {op.attributes['opType'].keyword} {print_uses(printer, op.operands)}"
                + attr_dict(printer, op, ("opType",)) + f" : ({ins}) -> {op.results[0].type}")


class SubgroupMmaExtractThreadLocalOp(_IndexedAccessOp):
    """``gpu.subgroup_mma_extract_thread_local %m[%i] : !gpu.mma_matrix<..> -> T``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_extract_thread_local"
    OPERANDS = (Operand("matrix"), Operand("indices", kind=VARIADIC))
    RESULTS = (Result("res"),)


class SubgroupMmaInsertThreadLocalOp(_IndexedAccessOp):
    """``gpu.subgroup_mma_insert_thread_local %v, %m[%i] : T, !gpu.mma_matrix<..> -> !gpu.mma_matrix<..>``."""

    __slots__ = ()
    MNEMONIC = "subgroup_mma_insert_thread_local"
    OPERANDS = (Operand("value"), Operand("matrix"), Operand("indices", kind=VARIADIC))
    RESULTS = (Result("res"),)

