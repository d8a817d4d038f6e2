"""Comparison predicates shared by ``cmpf`` and ``cmpi``."""
from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import NDArray

__all__ = ["COMPARISON_PREDICATES", "compare"]

COMPARISON_PREDICATES: dict[str, Callable[[NDArray, NDArray], NDArray[np.bool_]]] = {
    "equal": np.equal,
    "not_equal": np.not_equal,
    "less_than": np.less,
    "less_than_or_equal": np.less_equal,
    "greater_than": np.greater,
    "greater_than_or_equal": np.greater_equal,
}


def compare(lhs: NDArray, rhs: NDArray, predicate: str) -> NDArray[np.bool_]:
    """Element-wise ``lhs <predicate> rhs`` with NumPy semantics (NaN compares unequal)."""
    try:
        fn = COMPARISON_PREDICATES[predicate]
    except KeyError:
        raise ValueError(f"unknown comparison predicate {predicate!r}") from None
    return np.asarray(fn(lhs, rhs))
