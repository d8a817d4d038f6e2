"""Differential helpers: the same text through tileir (in-process) and MLIR's ``mlir-opt``."""

from __future__ import annotations

import re
from typing import Optional

from mlir_tools import run_mlir_opt

from tileir.cli.opt import process_buffer
from tileir.ir.diagnostics import ERROR
from tileir.text.printer import print_op

_FIRST_ERROR = re.compile(r"^[^:\n]*:(\d+):(\d+): error: (.*)$", re.M)


def tileir_output(text: str, generic: bool = False, debuginfo: bool = False) -> str:
    """What ``tileir-opt --allow-unregistered-dialect`` prints for ``text`` (or its errors)."""
    res = process_buffer(text, "<stdin>", allow_unregistered=True)
    if res.failed or res.module is None:
        return "\n".join(f"{d.loc}: error: {d.message}" for d in res.diagnostics
                         if d.severity == ERROR)
    return print_op(res.module, generic=generic, debuginfo=debuginfo)


def mlir_output(text: str, generic: bool = False, debuginfo: bool = False) -> str:
    """What ``mlir-opt --allow-unregistered-dialect`` prints for ``text`` (or its stderr)."""
    flags = ["--allow-unregistered-dialect"] + (["--mlir-print-op-generic"] if generic else []) \
        + (["--mlir-print-debuginfo"] if debuginfo else [])
    run = run_mlir_opt(text, flags)
    # mlir-opt (MlirOptMain) ends its output with an empty line; tileir-opt does not
    return run.stdout[:-1] if run.returncode == 0 and run.stdout.endswith("\n\n") \
        else run.stdout if run.returncode == 0 else run.stderr


def tileir_first_error(text: str, unregistered: bool = True) -> Optional[tuple[int, int, str]]:
    """``(line, column, message)`` of tileir's first error on ``text``, or None."""
    res = process_buffer(text, "-", allow_unregistered=unregistered)
    for d in res.diagnostics:
        if d.severity == ERROR:
            return (d.loc.line, d.loc.col, d.message)
    return None


def mlir_first_error(text: str, unregistered: bool = True) -> Optional[tuple[int, int, str]]:
    """``(line, column, message)`` of mlir-opt's first error on ``text``, or None."""
    run = run_mlir_opt(text, ["--allow-unregistered-dialect"] if unregistered else [])
    m = _FIRST_ERROR.search(run.stderr)
    return (int(m.group(1)), int(m.group(2)), m.group(3)) if m else None


def assert_same_first_error(text: str, unregistered: bool = True) -> None:
    """mlir-opt rejects ``text``, and tileir reports the same first error at the same place."""
    expected = mlir_first_error(text, unregistered)
    assert expected is not None
    assert tileir_first_error(text, unregistered) == expected
