"""tinytc's tensor language (v0.3.1, following its reference where they differ): parse, check,
print, lower to cuda_tile and run on the CPU.

::

    from tileir import tinytc
    prog = tinytc.parse(text, filename="k.ir")     # or tinytc.load(path); raises TinytcError
    print(tinytc.print(prog))
    module = tinytc.lower(prog)                      # a verified cuda_tile module
    tinytc.launch(prog, "kernel", args=[...], group_size=N)

See the README's tinytc section for the calling convention and the semantic choices.
"""

from __future__ import annotations

import os
from typing import Any, Optional, Sequence

from .diagnostics import Loc, TinytcError
from .ir import Program
from .parser import parse_program
from .printer import print_program

__all__ = ["parse", "load", "print", "lower", "launch", "compile", "Group", "TinytcError",
           "Program", "Loc"]


def parse(text: str, filename: str = "<stdin>") -> Program:
    """Parse and check a tinytc program (raises :class:`TinytcError` with tinytc's
    diagnostic: ``FILE:LINE.COL-ENDCOL: message``)."""
    return parse_program(text, filename)


def load(path) -> Program:
    """Read and parse a tinytc file."""
    path = os.fspath(path)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return parse_program(f.read(), path)


def print(prog: Program) -> str:  # noqa: A001 - mirrors tileir.print
    """The program as tinytc text."""
    return print_program(prog)


def lower(prog: Program):
    """Lower every function to a cuda_tile ``entry`` of one module (verified)."""
    from .lowering import lower_program
    return lower_program(prog)


def compile(prog: Program, kernel: str):  # noqa: A001 - mirrors tileir.compile
    """A reusable kernel for function ``kernel`` (``.launch(args=[...], group_size=N)``)."""
    from .runtime import TinytcKernel
    return TinytcKernel(prog, kernel)


def launch(prog: Program, kernel: str, args: Sequence[Any] = (), group_size: int = 1, *,
           mma: Optional[str] = None):
    """Run function ``kernel`` on the CPU over ``group_size`` work groups, in place on the
    argument arrays (see the README for how arguments are passed).  ``mma`` is the executor's
    ``mmaf`` mode for floating-point ``gemm``: ``"fast"`` (the default, as tinytc computes a
    gemm: accumulated in the element type through BLAS) or ``"exact"`` (products summed
    exactly, rounded once; f64 is DGEMM in both)."""
    k = compile(prog, kernel)
    return k.launch(args=args, group_size=group_size) if mma is None else \
        k.launch(args=args, group_size=group_size, mma=mma)


def __getattr__(name: str):
    if name == "Group":
        from .runtime import Group
        return Group
    raise AttributeError(f"module 'tileir.tinytc' has no attribute {name!r}")
