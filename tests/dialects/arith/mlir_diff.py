"""Differential testing of the upstream dialects against MLIR 22's ``mlir-opt``.

Many small modules are joined into one ``// -----``-split buffer, so each comparison costs two
``mlir-opt`` runs (custom and generic form) however many cases it holds.  tileir processes the
same chunks in-process.  For valid chunks the printed custom and generic forms must be
identical (and tileir must read mlir-opt's generic output back to the same custom form); for
invalid chunks both must fail with the same error message on the same line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Sequence

import pytest

from mlir_tools import require_mlir_opt, run_mlir_opt

SPLIT = "// -----"
_ERROR = re.compile(r"^<stdin>:(\d+):(\d+): error: (.*)$", re.M)


def join_chunks(chunks: Sequence[str]) -> str:
    return f"\n{SPLIT}\n".join(c.strip("\n") for c in chunks) + "\n"


def split_output(text: str) -> list[str]:
    return [part.strip("\n") for part in text.split(SPLIT)]


def chunk_first_lines(chunks: Sequence[str]) -> list[int]:
    """The 1-based line of the joined buffer where each chunk starts."""
    starts, line = [], 1
    for c in chunks:
        starts.append(line)
        line += c.strip("\n").count("\n") + 2
    return starts


@dataclass
class TileirResult:
    output: Optional[str]
    errors: list[tuple[int, str]]


def tileir_process(chunk: str, *, generic: bool = False, line_offset: int = 0) -> TileirResult:
    """Parse, verify and print one chunk with tileir (errors: (line, message))."""
    from tileir.cli.opt import process_buffer
    from tileir.ir.diagnostics import ERROR
    from tileir.text.printer import print_op
    res = process_buffer(chunk, "<stdin>", line_offset=line_offset)
    errors = [(getattr(d.loc, "line", 0), d.message) for d in res.diagnostics
              if d.severity == ERROR]
    if res.failed or res.module is None:
        return TileirResult(None, errors)
    return TileirResult(print_op(res.module, generic=generic).strip("\n"), errors)


def assert_same_printing(chunks: Sequence[str]) -> int:
    """Every chunk prints identically (custom and generic) in both tools; tileir reads
    mlir-opt's generic output back to mlir-opt's custom form.  Returns the number compared."""
    require_mlir_opt()
    buffer = join_chunks(chunks)
    custom = run_mlir_opt(buffer, ["-split-input-file"])
    assert custom.returncode == 0, custom.stderr
    generic = run_mlir_opt(buffer, ["-split-input-file", "-mlir-print-op-generic"])
    mlir_custom, mlir_generic = split_output(custom.stdout), split_output(generic.stdout)
    assert len(mlir_custom) == len(chunks) == len(mlir_generic)
    failures = []
    for k, chunk in enumerate(chunks):
        for form, expected, is_generic in (("custom", mlir_custom[k], False),
                                           ("generic", mlir_generic[k], True)):
            got = tileir_process(chunk, generic=is_generic)
            if got.output != expected:
                failures.append(f"chunk {k} ({form}):\n{chunk}\n--- mlir-opt:\n{expected}\n"
                                f"--- tileir:\n{got.output}\n{got.errors}")
        back = tileir_process(mlir_generic[k])
        if back.output != mlir_custom[k]:
            failures.append(f"chunk {k} (generic read back):\n{mlir_generic[k]}\n--- tileir:\n"
                            f"{back.output}\n{back.errors}")
    assert not failures, "\n\n".join(failures[:5]) + f"\n({len(failures)} failures)"
    return len(chunks)


def mlir_errors(chunks: Sequence[str]) -> list[list[tuple[int, str]]]:
    """mlir-opt's errors for each chunk, as (line within the chunk, message)."""
    buffer = join_chunks(chunks)
    run = run_mlir_opt(buffer, ["-split-input-file"])
    starts = chunk_first_lines(chunks)
    found: list[list[tuple[int, str]]] = [[] for _ in chunks]
    for m in _ERROR.finditer(run.stderr):
        line = int(m.group(1))
        k = max(i for i, s in enumerate(starts) if s <= line)
        found[k].append((line - starts[k] + 1, m.group(3)))
    return found


def assert_same_errors(chunks: Sequence[str]) -> int:
    """Every chunk is rejected by both tools with the same first error (line and message)."""
    require_mlir_opt()
    expected = mlir_errors(chunks)
    failures = []
    for k, chunk in enumerate(chunks):
        assert expected[k], f"mlir-opt accepts chunk {k}:\n{chunk}"
        got = tileir_process(chunk)
        if not got.errors or got.errors[0] != expected[k][0]:
            failures.append(f"chunk {k}:\n{chunk}\n--- mlir-opt: {expected[k][0]}\n"
                            f"--- tileir: {got.errors[:1]}")
    assert not failures, "\n\n".join(failures[:8]) + f"\n({len(failures)} failures)"
    return len(chunks)


def in_func(body: str, args: str = "", results: str = "") -> str:
    """A module holding ``func.func @f(args) -> results { body }``."""
    head = f"func.func @f({args})" + (f" -> {results}" if results else "")
    return head + " {\n" + body.rstrip("\n") + "\n}"


__all__ = ["assert_same_printing", "assert_same_errors", "in_func", "tileir_process",
           "mlir_errors", "pytest"]
