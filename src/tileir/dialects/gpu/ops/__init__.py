"""The gpu dialect's ops, one declarative class each (registered on import)."""

from __future__ import annotations

from . import comm, index, memory, mma, sparse, structure, symbols  # noqa: F401
