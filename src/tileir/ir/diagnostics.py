"""Diagnostics: errors, warnings and notes with source locations, rendered like MLIR.

A :class:`Diagnostic` carries a severity, a message, a location and attached notes.  Problems in
user input are reported as diagnostics (never as Python tracebacks): library entry points raise
:class:`DiagnosticError` carrying them, and the command line prints them as
``FILE:LINE:COL: error: MESSAGE`` followed by the source line and a caret.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

from .locations import UNKNOWN_LOC, FileLineColLoc, Location

__all__ = ["Diagnostic", "DiagnosticError", "SourceFile", "SourceManager", "render",
           "DiagnosticEngine", "ERROR", "WARNING", "NOTE", "REMARK"]

ERROR, WARNING, NOTE, REMARK = "error", "warning", "note", "remark"


@dataclass
class Diagnostic:
    """One diagnostic with optional notes (each a :class:`Diagnostic` of severity ``note``)."""

    severity: str
    message: str
    loc: Location = UNKNOWN_LOC
    notes: list["Diagnostic"] = field(default_factory=list)

    def attach_note(self, message: str, loc: Optional[Location] = None) -> "Diagnostic":
        note = Diagnostic(NOTE, message, loc if loc is not None else self.loc)
        self.notes.append(note)
        return note

    def __str__(self) -> str:
        return render(self, None)


class DiagnosticError(Exception):
    """Raised by library entry points when the input has errors; carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic], sources: Optional["SourceManager"] = None):
        self.diagnostics = diagnostics
        self.sources = sources
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(render(d, self.sources) for d in self.diagnostics)


class SourceFile:
    """A named text buffer with a line table; ``line_offset`` shifts reported line numbers
    and ``col_offset`` the columns of its first line (``--split-input-file`` chunks report
    positions in the original file)."""

    def __init__(self, name: str, text: str, line_offset: int = 0, col_offset: int = 0) -> None:
        self.name = name
        self.text = text
        self.line_offset = line_offset
        self.col_offset = col_offset
        self._line_starts: Optional[list[int]] = None

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset, line including ``line_offset``."""
        starts = self.line_starts
        idx = bisect.bisect_right(starts, offset) - 1
        return (idx + 1 + self.line_offset,
                offset - starts[idx] + 1 + (self.col_offset if idx == 0 else 0))

    def loc(self, offset: int) -> FileLineColLoc:
        line, col = self.line_col(offset)
        return FileLineColLoc(self.name, line, col)

    def line_text(self, line: int) -> Optional[str]:
        """Text of (absolute) line ``line``, without the newline, or None if not in this buffer."""
        idx = line - 1 - self.line_offset
        starts = self.line_starts
        if idx < 0 or idx >= len(starts):
            return None
        end = self.text.find("\n", starts[idx])
        text = self.text[starts[idx]:] if end < 0 else self.text[starts[idx]:end]
        return " " * self.col_offset + text if idx == 0 else text


class SourceManager:
    """The buffers diagnostics may point into, by file name."""

    def __init__(self) -> None:
        self.files: dict[str, list[SourceFile]] = {}

    def add(self, source: SourceFile) -> SourceFile:
        self.files.setdefault(source.name, []).append(source)
        return source

    def line_text(self, name: str, line: int) -> Optional[str]:
        for src in self.files.get(name, ()):
            text = src.line_text(line)
            if text is not None:
                return text
        return None


#: what a source line shows as ``?`` (one column each, so the caret stays in place): invalid
#: UTF-8 bytes (read as surrogate escapes) and control characters other than tab
_UNPRINTABLE = re.compile("[\udc80-\udcff\x00-\x08\x0a-\x1f\x7f]")


def _render_one(diag: Diagnostic, sources: Optional[SourceManager],
                show_source: bool = True) -> str:
    pos = diag.loc.file_line_col() if diag.loc is not None else None
    if pos is None:
        prefix = "loc(unknown)" if diag.loc is None or diag.loc == UNKNOWN_LOC else diag.loc.generic()
        return f"{prefix}: {diag.severity}: {diag.message}"
    head = f"{pos.file}:{pos.line}:{pos.col}: {diag.severity}: {diag.message}"
    line = sources.line_text(pos.file, pos.line) if sources is not None and show_source else None
    if line is None:
        return head
    line = _UNPRINTABLE.sub("?", line)  # bytes that are not UTF-8 text, control characters
    caret = " " * (pos.col - 1) + "^"
    return f"{head}\n{line}\n{caret}"


def render(diag: Diagnostic, sources: Optional[SourceManager]) -> str:
    """Render a diagnostic and its notes as MLIR does (each with source line and caret, but a
    note at its diagnostic's own location)."""
    parts = [_render_one(diag, sources)]
    for note in diag.notes:
        parts.append(_render_one(note, sources, show_source=note.loc != diag.loc))
    return "\n".join(parts)


class DiagnosticEngine:
    """Collects diagnostics; an optional handler sees each one as it is emitted."""

    def __init__(self, handler: Optional[Callable[[Diagnostic], None]] = None) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.handler = handler

    def emit(self, diag: Diagnostic) -> Diagnostic:
        self.diagnostics.append(diag)
        if self.handler is not None:
            self.handler(diag)
        return diag

    def error(self, message: str, loc: Location = UNKNOWN_LOC) -> Diagnostic:
        return self.emit(Diagnostic(ERROR, message, loc))

    def warning(self, message: str, loc: Location = UNKNOWN_LOC) -> Diagnostic:
        return self.emit(Diagnostic(WARNING, message, loc))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == ERROR for d in self.diagnostics)

    def errors(self) -> Iterable[Diagnostic]:
        return (d for d in self.diagnostics if d.severity == ERROR)
