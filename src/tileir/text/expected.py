"""``-split-input-file`` and ``-verify-diagnostics`` with MLIR's semantics.

Annotations look like ``// expected-error @below {{message}}``; the designator is one of
``@above`` (the last line without annotations above), ``@below`` (the next line without
annotations), ``@+N`` / ``@-N`` (relative to the annotation's line) or ``@unknown`` (a diagnostic
without a file location).  ``{{...}}`` is a substring match; ``expected-error-re`` treats
``{{...}}`` parts of the text as regular expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from ..ir.diagnostics import Diagnostic

__all__ = ["Chunk", "split_input", "Expectation", "parse_expectations", "match_diagnostics",
           "MatchResult"]

#: MLIR's default ``-split-input-file`` marker.
SPLIT_MARKER = "// -----"


@dataclass
class Chunk:
    text: str
    line_offset: int  # number of lines before this chunk in the original file
    #: characters before the chunk on its first line (the marker and what precedes it)
    col_offset: int = 0


def split_input(text: str, enabled: bool = True, marker: str = SPLIT_MARKER) -> list[Chunk]:
    """Split as mlir-opt's ``-split-input-file`` does: at every occurrence of ``marker``
    (``// -----``), wherever it is on its line; a chunk starts right after the marker (the
    rest of the marker's line belongs to it), and keeps the line and column it has in the
    original file."""
    if not enabled:
        return [Chunk(text, 0)]
    chunks = []
    start = line = col = 0
    while True:
        found = text.find(marker, start)
        if found < 0:
            break
        chunks.append(Chunk(text[start:found], line, col))
        end = found + len(marker)
        newlines = text.count("\n", start, end)
        line += newlines
        col = (end - text.rfind("\n", 0, end) - 1) if newlines else col + end - start
        start = end
    chunks.append(Chunk(text[start:], line, col))
    return chunks


_EXPECT_RE = re.compile(
    r"expected-(error|note|remark|warning)(-re)?\s*(@(?:[+-][0-9]+|above|below|unknown))?\s*"
    r"\{\{(.*)\}\}\s*$")


@dataclass
class Expectation:
    severity: str
    message: str
    line: Optional[int]  # absolute line, None for @unknown
    regex: bool
    annotation_line: int
    matched: bool = False
    #: where ``expected-<severity>`` starts on its line (1-based), and the width MLIR
    #: underlines there when the expectation is not produced (the message's length)
    annotation_col: int = 1
    annotation_len: int = 1

    def matches(self, text: str) -> bool:
        if not self.regex:
            return self.message in text
        return re.search(_re_from_annotation(self.message), text) is not None


def _re_from_annotation(message: str) -> str:
    out = []
    pos = 0
    for m in re.finditer(r"\{\{(.*?)\}\}", message):
        out.append(re.escape(message[pos:m.start()]))
        out.append(m.group(1))
        pos = m.end()
    out.append(re.escape(message[pos:]))
    return "".join(out)


def parse_expectations(text: str, line_offset: int = 0) -> list[Expectation]:
    """Find the expected-* annotations of a buffer (lines are absolute: offset applied)."""
    out: list[Expectation] = []
    pending_below: list[Expectation] = []
    last_plain = None
    for idx, line in enumerate(text.split("\n")):
        lineno = idx + 1 + line_offset
        m = _EXPECT_RE.search(line)
        if m is None:
            if line.strip() or True:
                for e in pending_below:
                    e.line = lineno
                pending_below = []
                last_plain = lineno
            continue
        severity, regex, designator, message = m.group(1), bool(m.group(2)), m.group(3), m.group(4)
        exp = Expectation(severity, message, lineno, regex, lineno,
                          annotation_col=m.start() + 1,
                          annotation_len=len(message))
        if designator:
            d = designator[1:]
            if d == "above":
                exp.line = last_plain
            elif d == "below":
                exp.line = None
                pending_below.append(exp)
            elif d == "unknown":
                exp.line = None
                exp.annotation_line = -1
            else:
                exp.line = lineno + int(d)
        out.append(exp)
    return out


@dataclass
class MatchResult:
    matched: list = field(default_factory=list)
    missing: list = field(default_factory=list)       # Expectations not produced
    unexpected: list = field(default_factory=list)    # Diagnostics not expected

    @property
    def ok(self) -> bool:
        return not self.missing and not self.unexpected


def _flatten(diags: list[Diagnostic]) -> list[Diagnostic]:
    out = []
    for d in diags:
        out.append(d)
        out.extend(d.notes)
    return out


def match_diagnostics(expectations: list[Expectation], diagnostics: list[Diagnostic],
                      filename: str) -> MatchResult:
    """Match produced diagnostics against expectations (MLIR's verifier semantics)."""
    result = MatchResult()
    for diag in _flatten(diagnostics):
        pos = diag.loc.file_line_col() if diag.loc is not None else None
        line = pos.line if pos is not None and pos.file == filename else None
        unknown = pos is None
        found = None
        for exp in expectations:
            if exp.matched or exp.severity != diag.severity:
                continue
            if unknown:
                if exp.annotation_line != -1:
                    continue
            elif exp.line != line:
                continue
            if exp.matches(diag.message):
                found = exp
                break
        if found is not None:
            found.matched = True
            result.matched.append((found, diag))
        else:
            result.unexpected.append(diag)
    result.missing = [e for e in expectations if not e.matched]
    return result
