"""LLVM types as tileir keeps them: verbatim, except ``!llvm.ptr``, which MLIR 22 parses.

Since LLVM's opaque pointers, ``!llvm.ptr`` takes one optional parameter, the address space (a
32-bit unsigned integer, ``0`` printed as no parameter).  A typed pointer such as
``!llvm.ptr<f32>`` is an error, reported as mlir-opt 22 reports it (two diagnostics)."""

from __future__ import annotations

from ...ir.diagnostics import ERROR, Diagnostic
from ...ir.types import BuiltinType, Type
from ...text import registry
from ...text.parser import ParseError, Parser

__all__ = ["parse_llvm_type", "LLVMFuncType"]


class LLVMFuncType(BuiltinType):
    """``!llvm.func<R (A, B[, ...])>``, kept as its text like other LLVM types, with the
    signature at hand: ``inputs`` and ``results`` (none for ``void``) as a builtin function
    type has them, and ``vararg``."""

    __slots__ = ("_sig",)

    def _signature(self):
        sig = getattr(self, "_sig", None)
        if sig is None:
            from .ops import func_signature
            sig = self._sig = func_signature(self)
        return sig

    @property
    def inputs(self) -> list:
        return self._signature()[0]

    @property
    def results(self) -> list:
        return self._signature()[1]

    @property
    def vararg(self) -> bool:
        return self._signature()[2]

_ADDRESS_SPACE_ERROR = ("failed to parse LLVMPointerType parameter 'addressSpace' which is to "
                        "be a `unsigned`")


def parse_llvm_type(parser: Parser, word: str, offset: int, word_end: int) -> Type:
    """``!llvm.<word>``: the hook of :data:`tileir.text.registry.DIALECT_TYPE_PARSERS`."""
    if word != "ptr":
        if parser.peek() == "<":
            text = parser.take_balanced_text()
            if word == "func":
                from .ops import canonical_llvm_func_type
                return canonical_llvm_func_type(text)
            return BuiltinType(text)
        parser.i += 1
        return BuiltinType(parser.toks[parser.i - 1])
    parser.i += 1
    if parser.tok != "<" or parser.offset != word_end:
        return BuiltinType("!llvm.ptr")
    parser.i += 1
    start = parser.offset
    try:
        space = parser.parse_integer()
    except ParseError:
        parser.pending_diags.append(Diagnostic(ERROR, "expected integer value",
                                               parser.loc_at(start)))
        raise parser.error(_ADDRESS_SPACE_ERROR, start) from None
    if not -(1 << 31) <= space < (1 << 32):
        parser.pending_diags.append(Diagnostic(ERROR, "integer value too large",
                                               parser.loc_at(start)))
        raise parser.error(_ADDRESS_SPACE_ERROR, parser.offset)
    parser.expect(">")
    space &= 0xFFFFFFFF
    return BuiltinType(f"!llvm.ptr<{space}>" if space else "!llvm.ptr")


registry.DIALECT_TYPE_PARSERS["llvm"] = parse_llvm_type
