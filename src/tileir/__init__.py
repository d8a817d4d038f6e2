"""tileir: a Python toolchain for NVIDIA CUDA Tile IR.

Public API::

    module = tileir.parse(text)            # or tileir.load(path)
    tileir.verify(module)                  # raises DiagnosticError on invalid IR
    text = tileir.print(module)
"""

from __future__ import annotations

from . import ops as _ops  # noqa: F401  (registers the dialect)
from .diagnostics import Diagnostic, DiagnosticError
from .ir import Block, Operation, Region, Value
from .text import parse_attribute, parse_module, parse_type, print_op

__version__ = "0.1.0"

__all__ = ["parse", "print", "parse_type", "parse_attribute", "Diagnostic", "DiagnosticError",
           "Operation", "Block", "Region", "Value", "__version__"]


def parse(text: str, filename: str = "<string>", *, allow_unregistered: bool = False) -> Operation:
    """Parse Tile IR text (custom or generic form) into a module op."""
    return parse_module(text, filename, allow_unregistered=allow_unregistered)


def print(op: Operation, *, generic: bool = False, debuginfo: bool = False) -> str:  # noqa: A001
    """Print an op (normally a module) in the canonical custom form or the generic form."""
    return print_op(op, generic=generic, debuginfo=debuginfo)
