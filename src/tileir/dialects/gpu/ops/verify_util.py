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


def _coefficient(expr: str, dim: str) -> Optional[int]:
    """The constant coefficient of ``dim`` in a linear affine expression (None: not linear)."""
    total = 0
    for sign, term in re.findall(r"([+-]?)\s*([^+-]+)", expr.replace(" ", "")):
        factors = term.split("*")
        if dim not in factors:
            if any(f == dim or "floordiv" in f or "mod" in f or "ceildiv" in f
                   for f in factors) or dim in term:
                return None
            continue
        rest = [f for f in factors if f != dim]
        if not all(f.isdigit() for f in rest) or len(factors) - len(rest) != 1:
            return None
        value = 1
        for f in rest:
            value *= int(f)
        total += -value if sign == "-" else value
    return total


def last_dim_has_unit_stride(t) -> bool:
    """MLIR's isLastMemrefDimUnitStride: the most minor dimension of ``t`` has stride 1."""
    strides_and_offset = getattr(t, "strides_and_offset", None)
    if strides_and_offset is not None:
        try:
            strides, _ = strides_and_offset()
            return bool(strides) and strides[-1] == 1
        except ValueError:
            pass  # an affine-map layout: read below
    info = memref_info(t)
    if info is None or info.layout is None or not info.layout.startswith("affine_map<"):
        return info is not None and info.layout is None
    m = re.fullmatch(r"affine_map<\(([^)]*)\)(?:\[[^\]]*\])?\s*->\s*\((.*)\)>", info.layout)
    if m is None or not info.dims:
        return False
    dims = [d.strip() for d in m.group(1).split(",") if d.strip()]
    results = _split_top(m.group(2))
    stride = 0
    for k, result in enumerate(results):
        coefficient = _coefficient(result, dims[-1])
        if coefficient is None:
            return False
        if coefficient == 0:
            continue
        inner = 1
        for d in info.dims[len(info.dims) - len(results) + k + 1:]:
            if d == "?":
                return False  # a dynamic stride
            inner *= int(d)
        stride += coefficient * inner
    return stride == 1
