"""Source locations and tinytc-style diagnostics.

A diagnostic reads like tinytc's own (``FILE:LINE.COL-ENDCOL: message`` or
``FILE:LINE.COL-ENDLINE.ENDCOL: message``), preceded by up to two lines of context, the offending
source lines and a ``~~~`` underline under the span.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

__all__ = ["Loc", "TinytcError", "format_range", "render"]


@dataclass(frozen=True)
class Loc:
    """A source span; ``end_col`` is one past the last character (Bison's convention)."""

    line: int
    col: int
    end_line: int
    end_col: int

    def to(self, other: "Loc") -> "Loc":
        """The span from the start of ``self`` to the end of ``other``."""
        return Loc(self.line, self.col, other.end_line, other.end_col)


NO_LOC = Loc(0, 0, 0, 0)


def format_range(loc: Loc) -> str:
    """``line.col``, ``line.col-endcol`` or ``line.col-endline.endcol`` (inclusive end)."""
    end = max(0, loc.end_col - 1)
    text = f"{loc.line}.{loc.col}"
    if loc.line < loc.end_line:
        text += f"-{loc.end_line}.{end}"
    elif loc.col < end:
        text += f"-{end}"
    return text


def render(source: Optional[str], filename: str, loc: Loc, message: str) -> str:
    """The full diagnostic text: context lines with underlines, then ``file:range: message``."""
    out: list[str] = []
    if source is not None and loc.line > 0:
        lines = source.split("\n")
        first = max(1, loc.line - 2)
        for n in range(first, min(loc.end_line, len(lines)) + 1):
            text = lines[n - 1].rstrip("\r")
            out.append(text)
            if n < loc.line:
                continue
            indent = len(text) - len(text.lstrip())
            if loc.line == loc.end_line:
                start = max(loc.col - 1, 0)
                width = max(loc.end_col - loc.col, 1)
            elif n == loc.line:
                start = max(loc.col - 1, 0)
                width = len(text) - start
            elif n == loc.end_line:
                start = indent
                width = max(loc.end_col - 1 - indent, 0)
            else:
                start, width = indent, len(text) - indent
            out.append(" " * start + "~" * max(width, 1))
    out.append(f"{filename}:{format_range(loc)}: {message}")
    return "\n".join(out)


class TinytcError(Exception):
    """A tinytc program is malformed: a syntax, type or semantic error at ``loc``.

    ``str(err)`` is the complete diagnostic (context, underline, ``file:range: message``);
    ``err.message`` just the message."""

    def __init__(self, message: str, loc: Loc = NO_LOC, filename: str = "<stdin>",
                 source: Optional[str] = None) -> None:
        self.message = message
        self.loc = loc
        self.filename = filename
        self.source = source
        super().__init__(render(source, filename, loc, message))

    @property
    def location(self) -> str:
        """``file:range`` of the error."""
        return f"{self.filename}:{format_range(self.loc)}"
