"""Source locations (MLIR ``loc(...)``) including cuda_tile's ``di_loc`` debug locations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .attributes import Attribute, quote_string

__all__ = ["Location", "UnknownLoc", "UNKNOWN_LOC", "FileLineColLoc", "NameLoc", "CallSiteLoc",
           "FusedLoc", "file_line_col"]


class Location(Attribute):
    """Base of locations.  ``body()`` is the text inside ``loc(...)``."""

    __slots__ = ()

    def body(self, ref=None) -> str:
        raise NotImplementedError

    def generic(self) -> str:
        return f"loc({self.body()})"

    def file_line_col(self) -> Optional["FileLineColLoc"]:
        """The innermost file:line:col position, if any (used for diagnostics)."""
        return None


class UnknownLoc(Location):
    __slots__ = ()

    def body(self, ref=None) -> str:
        return "unknown"

    def __eq__(self, other) -> bool:
        return isinstance(other, UnknownLoc)

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "loc(unknown)"


UNKNOWN_LOC = UnknownLoc()


@dataclass(frozen=True, slots=True)
class FileLineColLoc(Location):
    file: str
    line: int
    col: int
    end_line: Optional[int] = None
    end_col: Optional[int] = None

    def body(self, ref=None) -> str:
        text = f"{quote_string(self.file)}:{self.line}:{self.col}"
        if self.end_col is not None:
            if self.end_line is not None and self.end_line != self.line:
                text += f" to {self.end_line}:{self.end_col}"
            else:
                text += f" to :{self.end_col}"
        return text

    def file_line_col(self) -> "FileLineColLoc":
        return self


def file_line_col(file: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(file, line, col)


def _sub(loc: Location, ref) -> str:
    return ref(loc) if ref is not None else loc.body()


@dataclass(frozen=True, slots=True)
class NameLoc(Location):
    name: str
    child: Optional[Location] = None

    def body(self, ref=None) -> str:
        if self.child is None or isinstance(self.child, UnknownLoc):
            return quote_string(self.name)
        return f"{quote_string(self.name)}({_sub(self.child, ref)})"

    def file_line_col(self):
        return self.child.file_line_col() if self.child is not None else None


@dataclass(frozen=True, slots=True)
class CallSiteLoc(Location):
    callee: Location
    caller: Location

    def body(self, ref=None) -> str:
        return f"callsite({_sub(self.callee, ref)} at {_sub(self.caller, ref)})"

    def file_line_col(self):
        return self.callee.file_line_col() or self.caller.file_line_col()


@dataclass(frozen=True, slots=True)
class FusedLoc(Location):
    locations: tuple
    metadata: Optional[Attribute] = None

    def body(self, ref=None) -> str:
        meta = "" if self.metadata is None else f"<{self.metadata.generic()}>"
        return f"fused{meta}[" + ", ".join(_sub(l, ref) for l in self.locations) + "]"

    def file_line_col(self):
        for loc in self.locations:
            found = loc.file_line_col()
            if found is not None:
                return found
        return None
