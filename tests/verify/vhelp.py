"""Helpers for the verifier tests: run text through tileir-opt's pipeline, collect diagnostics."""

from __future__ import annotations

import textwrap

from tileir.cli.opt import process_buffer
from tileir.ir.verify import VerifyOptions

FILE = "t.mlir"


def diags(text: str, *, hints: str = "silent", target=None, allow: bool = True):
    """All diagnostics (notes flattened) as ``(line, severity, message)`` tuples."""
    res = process_buffer(textwrap.dedent(text), FILE, allow_unregistered=allow,
                         verify_options=VerifyOptions(target_version=target, hints=hints))
    out = []
    for d in res.diagnostics:
        for x in (d, *d.notes):
            pos = x.loc.file_line_col() if x.loc is not None else None
            out.append((pos.line if pos else None, x.severity, x.message))
    return out


def errors(text: str, **kw):
    """``(line, message)`` of the errors only."""
    return [(line, msg) for line, sev, msg in diags(text, **kw) if sev == "error"]


def one_error(text: str, **kw):
    """The single error; fails if there is not exactly one."""
    errs = errors(text, **kw)
    assert len(errs) == 1, errs
    return errs[0]


def kernel(body: str, args: str = "", *, testing: bool = True) -> str:
    """A module with one function whose body is ``body`` (lines of the body start at line 3)."""
    fn = "testing$func" if testing else "entry"
    body = textwrap.dedent(body).strip("\n")
    return f"cuda_tile.module @m {{\n  {fn} @k({args}) {{\n{textwrap.indent(body, '    ')}\n  }}\n}}\n"


def ok(text: str, **kw) -> None:
    got = diags(text, **kw)
    assert not got, got
