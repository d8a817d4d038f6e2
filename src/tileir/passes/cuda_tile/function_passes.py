"""Helpers for passes that run on function-like ops (``entry``, ``testing$func``)."""

from __future__ import annotations

from typing import Iterator

from ...ir.core import Operation

__all__ = ["FUNCTIONS", "functions_in"]

FUNCTIONS = frozenset({"cuda_tile.entry", "cuda_tile.testing$func"})


def functions_in(op: Operation) -> Iterator[Operation]:
    """``op`` itself when it is function-like, else the function-like ops nested in it (a pass
    that MLIR runs on FunctionOpInterface ops then also works when scheduled on a module)."""
    if op.name in FUNCTIONS:
        yield op
        return
    for inner in list(op.walk(include_self=False)):
        if inner.name in FUNCTIONS:
            yield inner
