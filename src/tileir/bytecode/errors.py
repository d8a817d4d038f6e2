"""Errors of the bytecode reader and writer.

:class:`BytecodeError` is the only exception :func:`tileir.read_bytecode` raises for bad input: it
names the byte offset (absolute, from the start of the file) and the reason, using cuda-tile's
wording where its reader has one.  :class:`BytecodeWriteError` reports why a module cannot be
encoded (a feature newer than the target version, an unsupported type or location...); it carries
diagnostics located at the offending ops, like cuda-tile's ``op->emitError()``.
"""

from __future__ import annotations

from typing import Optional

from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError
from ..ir.locations import UNKNOWN_LOC

__all__ = ["BytecodeError", "BytecodeWriteError"]


class BytecodeError(DiagnosticError):
    """Malformed or unsupported bytecode: ``error at offset N: reason``."""

    def __init__(self, reason: str, offset: Optional[int] = None) -> None:
        self.reason = reason
        self.offset = offset
        message = reason if offset is None else f"error at offset {offset}: {reason}"
        self.message = message
        super().__init__([Diagnostic(ERROR, message, UNKNOWN_LOC)])

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):
        return (BytecodeError, (self.reason, self.offset))


class BytecodeWriteError(DiagnosticError):
    """The module cannot be encoded in the requested bytecode version."""

    def __init__(self, diagnostics: list) -> None:
        super().__init__(list(diagnostics))

    @property
    def message(self) -> str:
        return self.diagnostics[-1].message if self.diagnostics else ""

    def __str__(self) -> str:
        return "\n".join(d.message for d in self.diagnostics)
