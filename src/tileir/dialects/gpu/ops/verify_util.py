"""Facts about builtin types the gpu verifiers need, read from their spelling (the builtin
dialect keeps memref types verbatim)."""

from __future__ import annotations

import re
from typing import Optional

_MEMREF = re.compile(r"memref<((?:(?:[0-9]+|\?)x)*)([^,>]+(?:<[^>]*>)?)(.*)>\Z", re.S)


def memref_element_and_shape(t) -> Optional[tuple[str, tuple[str, ...]]]:
    """``(element type text, dims)`` of a ranked memref type, else None."""
    m = _MEMREF.match(str(t))
    if m is None:
        return None
    dims = tuple(d for d in m.group(1).split("x") if d)
    return m.group(2).strip(), dims


def memref_dynamic_count(t) -> Optional[int]:
    """How many ``?`` dimensions a ranked memref type has (None if not a ranked memref)."""
    found = memref_element_and_shape(t)
    return None if found is None else sum(1 for d in found[1] if d == "?")
