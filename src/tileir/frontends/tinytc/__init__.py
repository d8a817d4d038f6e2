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
import threading
from collections import OrderedDict
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
    exactly, rounded once; f64 is DGEMM in both).

    The compiled kernel is kept for later calls with the same program text, file name and
    function (a few of them, least recently used forgotten first), as :func:`compile`'s
    ``.launch`` reuses its kernel."""
    k, lock = _launch_kernel(prog, kernel)
    try:
        return k.launch(args=args, group_size=group_size) if mma is None else \
            k.launch(args=args, group_size=group_size, mma=mma)
    finally:
        if lock is not None:
            lock.release()


#: the kernels :func:`launch` compiled, least recently used first: key (:func:`_launch_key`)
#: -> ``(kernel, its program's printed text, lock held while a launch runs it)``; at most
#: _LAUNCHED_MAX entries
_LAUNCHED: "OrderedDict[tuple, tuple]" = OrderedDict()
_LAUNCHED_MAX = 16
#: guards _LAUNCHED (launches from several threads)
_LAUNCHED_LOCK = threading.Lock()


def _launch_key(prog: Program, kernel: str) -> Optional[tuple]:
    """What decides :func:`launch`'s compiled kernel: the program's source text and file name
    (its diagnostics' locations), its printed form (the program itself, should it have been
    changed since it was parsed), the function's name and the environment's cuda_tile version
    settings.  None for a program without source text or a kernel name that is not a string
    (those compile on every call)."""
    if not isinstance(prog, Program) or not isinstance(prog.source, str) or \
            not isinstance(prog.filename, str) or not isinstance(kernel, str):
        return None
    from ...bytecode.versions import compat
    return (prog.source, prog.filename, print_program(prog), kernel, compat(),
            os.environ.get("TILEIR_BYTECODE_TESTING"))


def _launch_kernel(prog: Program, kernel: str):
    """``(compiled kernel, lock to release after the launch or None)`` for :func:`launch`: the
    kernel an earlier call compiled for the same key (:func:`_launch_key`), else one compiled
    now (and kept, up to :data:`_LAUNCHED_MAX` kernels).  A kept kernel runs one launch at a
    time: a launch that finds it busy (another thread's, or one launch inside another)
    compiles a kernel of its own.  Compilation errors are raised as :func:`compile` raises
    them, and nothing is kept."""
    key = _launch_key(prog, kernel)
    if key is None:
        return compile(prog, kernel), None
    with _LAUNCHED_LOCK:
        got = _LAUNCHED.get(key)
        if got is not None:
            k, printed, lock = got
            if print_program(k.prog) != printed:    # (its program was changed since)
                _LAUNCHED.pop(key, None)
            elif lock.acquire(blocking=False):
                _LAUNCHED.move_to_end(key)
                return k, lock
            else:
                got = False
    if got is False:
        return compile(prog, kernel), None
    k = compile(prog, kernel)
    lock = threading.Lock()
    lock.acquire()
    with _LAUNCHED_LOCK:
        _LAUNCHED[key] = (k, key[2], lock)
        while len(_LAUNCHED) > _LAUNCHED_MAX:
            _LAUNCHED.popitem(last=False)
    return k, lock


def __getattr__(name: str):
    if name == "Group":
        from .runtime import Group
        return Group
    raise AttributeError(f"module 'tileir.tinytc' has no attribute {name!r}")
