"""Facts about builtin types the gpu verifiers need, read from their spelling (so that they hold
whether the builtin dialect keeps memref types verbatim or models them)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

_DIMS = re.compile(r"((?:(?:[0-9]+|\?)x)*)")


@dataclass(frozen=True)
class MemRefInfo:
    """A ranked memref type's shape, element type, layout and memory space (as text)."""

    dims: tuple[str, ...]
    element: str
    layout: Optional[str]
    space: Optional[str]

    @property
    def n_dynamic(self) -> int:
        return sum(1 for d in self.dims if d == "?")


def _split_top(text: str) -> list[str]:
    out, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}" and not (c == ">" and i and text[i - 1] == "-"):
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    out.append(text[start:].strip())
    return out


def memref_info(t) -> Optional[MemRefInfo]:
    """The parts of a ranked ``memref<...>`` type, else None."""
    text = str(t)
    if not text.startswith("memref<") or text.startswith("memref<*"):
        return None
    parts = _split_top(text[len("memref<"):-1])
    m = _DIMS.match(parts[0])
    dims = tuple(d for d in m.group(1).split("x") if d)
    element = parts[0][m.end():]
    layout = space = None
    for extra in parts[1:]:
        if extra.startswith(("affine_map", "strided", "#map")):
            layout = extra
        else:
            space = extra
    return MemRefInfo(dims, element, layout, space)


def affine_symbol_count(layout: Optional[str]) -> int:
    """How many symbols ``[s0, ...]`` an ``affine_map<(d..)[s..] -> ..>`` layout has."""
    if not layout or not layout.startswith("affine_map"):
        return 0
    m = re.match(r"affine_map<\([^)]*\)\s*\[([^\]]*)\]", layout)
    if m is None:
        return 0
    return len([s for s in m.group(1).split(",") if s.strip()])
