"""``llvm.mlir.zero : T``: a zero-initialised value of an LLVM-compatible type."""

from __future__ import annotations

from ...ir.opdef import OpBase, Result
from ...ir.traits import Pure


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
