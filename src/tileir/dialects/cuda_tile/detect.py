"""Recognise what kind of Tile IR text a buffer holds, by content.

NVIDIA's ``tileirdisasm`` and cuTile's ``CUDA_TILE_DUMP_TILEIR`` print a module's *body*: bare
``entry``/``global`` ops with no ``cuda_tile.module`` line around them (and ``fpowf`` for
``pow``).  Everything else is ordinary MLIR text.
"""

from __future__ import annotations

import re

from ...ir.core import Operation
from ...ir.opdef import make_op
from ...text.parser import parse_module
from .syntax import parse_disasm

__all__ = ["is_module_body", "parse_text"]

#: tileirdisasm spells the ops without their dialect prefix; with the prefix (``cuda_tile.entry``)
#: a top-level op is ordinary MLIR text (cuda-tile-opt puts it in a builtin module as it is)
_BODY_START = re.compile(r"(entry|global)\s+@")


def is_module_body(text: str) -> bool:
    """True when the first op of ``text`` (after comments, blank lines and alias definitions)
    is a bare ``entry``/``global`` at top level, i.e. the text is a module body."""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("//") or stripped.startswith("#") or \
                stripped.startswith("!"):
            continue
        return bool(_BODY_START.match(stripped))
    return False


def parse_text(text: str, filename: str = "<string>", *, allow_unregistered: bool = False,
               implicit_module: bool = True, line_offset: int = 0, sources=None,
               col_offset: int = 0) -> Operation:
    """Parse module text or a module body (``tileirdisasm`` output); the latter becomes a
    ``cuda_tile.module @kernels``, inside a ``builtin.module`` when ``implicit_module``."""
    if not is_module_body(text):
        return parse_module(text, filename, allow_unregistered=allow_unregistered,
                            implicit_module=implicit_module, line_offset=line_offset,
                            sources=sources, col_offset=col_offset)
    module = parse_disasm("\n" * line_offset + " " * col_offset + text, filename,
                          sources=sources)
    if not implicit_module:
        return module
    wrapper = make_op("builtin.module", regions=1)
    wrapper.regions[0].add_block().append(module)
    return wrapper
