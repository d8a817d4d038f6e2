"""``@quiet``: run a numerics function with NumPy floating-point warnings silenced.

Overflow, invalid operations and division by zero produce their IEEE results (inf, NaN, ...) by
design here; they are never errors.
"""
from __future__ import annotations

import functools
from typing import Callable, TypeVar

import numpy as np

__all__ = ["quiet"]

F = TypeVar("F", bound=Callable)


def quiet(fn: F) -> F:
    """Decorate ``fn`` so that it runs under ``np.errstate(all="ignore")`` (a fresh one per call)."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return wrapper  # type: ignore[return-value]
