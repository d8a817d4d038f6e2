"""MLIR's async dialect on the host: ``async.execute`` runs its body when the host reaches it
(its dependencies, defined earlier, are complete by then: program order is a valid order), so
its token is complete and its ``!async.value`` results are the yielded values themselves;
``async.await`` returns the value (a token gives nothing), groups count their members."""

from __future__ import annotations

from ....ir.core import Operation
from ..registry import lowering


class Completed:
    """A completed ``!async.token`` (or ``!async.group``: ``size`` tokens, ``added`` so far)."""

    __slots__ = ("size", "added")

    def __init__(self, size: int = 0) -> None:
        self.size, self.added = size, 0

    def __repr__(self) -> str:
        return "async.token(ready)"


@lowering("async.execute")
def _execute(op: Operation, c):
    n_deps = op.segments[0] if op.segments else 0
    region = op.regions[0]

    def step(ex, frame, args):
        values = ex.run_single(region, frame, args[n_deps:]).values
        return [Completed()] + list(values)
    return step


@lowering("async.await")
def _await(op: Operation, c):
    def step(ex, frame, args):
        return [args[0]] if op.results else []
    return step


@lowering("async.create_group")
def _create_group(op: Operation, c):
    def step(ex, frame, args):
        import numpy as np
        return [Completed(int(np.asarray(args[0]).reshape(-1)[0]))]
    return step


@lowering("async.add_to_group")
def _add_to_group(op: Operation, c):
    def step(ex, frame, args):
        from ..faults import LaneFault
        group = args[1]
        if group.added >= group.size:
            raise LaneFault(f"async.add_to_group: the group holds {group.size} tokens; this "
                            "would be one more")
        rank = group.added
        group.added += 1
        return [frame.space.uniform(rank, "int64")]
    return step


@lowering("async.await_all")
def _await_all(op: Operation, c):
    def step(ex, frame, args):
        return []
    return step
