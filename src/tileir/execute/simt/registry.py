"""The op table of the SIMT engine: one *lowering* per op name turns an op into a plan step.

A lowering is called once per op when a function is compiled into a plan::

    @lowering("arith.addf")
    def _addf(op: Operation, c: Compiler) -> Step:
        elem = element_name(op.results[0].type)          # static facts, computed once
        def step(ex: Executor, frame: Frame, args: list) -> list:
            return [floatops.addf(args[0], args[1], elem)]
        return step

``args`` are the operands' runtime values in the frame's lane space (see :mod:`.lanes` and
:mod:`.values`); a step returns the list of result values (or None for ops without results).
Steps raise :class:`~.faults.LaneFault` for a lane-level problem (the interpreter turns it into a
:class:`~tileir.execute.errors.LaunchError` naming the op, its location, the block and thread).

Op families register themselves in the modules of :mod:`.ops`, imported by :mod:`.interp`.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["LOWERINGS", "lowering", "Step"]

#: ``step(executor, frame, args) -> list of results | None``
Step = Callable[[Any, Any, list], Any]

#: op name -> ``lower(op, compiler) -> Step``
LOWERINGS: dict[str, Callable[[Any, Any], Step]] = {}


def lowering(*names: str) -> Callable:
    """Register the decorated function as the lowering of the ops ``names``."""
    def register(fn: Callable) -> Callable:
        for name in names:
            LOWERINGS[name] = fn
        return fn
    return register
