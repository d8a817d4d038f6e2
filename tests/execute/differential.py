"""Differential checking of the lock-step executor: every batched launch made while
:func:`check_batched_launches` is installed also runs one tile block at a time (on the same
inputs) and both must leave identical bits in every array argument and mapped buffer
(module globals, cuTile list elements) -- or, for ``mma="fast"`` launches, whose BLAS sums
may be grouped differently batched and one block at a time, equal within that mode's
documented bound (checked loosely here: relative 1e-4 of the values)."""

from __future__ import annotations

import numpy as np

from tileir.execute.launch import Kernel, normalize_grid

ORIGINAL_LAUNCH = Kernel.launch


class Mismatch(AssertionError):
    pass


def _state(kernel: Kernel, args) -> list[np.ndarray]:
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    return arrays + [b.data for b in kernel.memory.buffers]


def _restore(targets: list, saved: list) -> None:
    for t, s in zip(targets, saved):
        if t.flags.writeable:
            t[...] = s


def differential_launch(kernel: Kernel, grid, args=(), launch=ORIGINAL_LAUNCH, record=None,
                        **options):
    """``kernel.launch(grid, args, **options)``, checked against a one-block-at-a-time run."""
    if not options.get("batch", True):
        return launch(kernel, grid, args, **options)
    try:
        g = normalize_grid(grid)
    except Exception:  # noqa: BLE001 - the real launch reports it
        return launch(kernel, grid, args, **options)
    if g[0] * g[1] * g[2] == 1 or not kernel.analysis(tuple(d > 1 for d in g)).batchable:
        return launch(kernel, grid, args, **options)
    args = list(args)
    targets = _state(kernel, args)
    before = [t.copy() for t in targets]
    try:
        launch(kernel, grid, args, **dict(options, batch=False))
    except Exception:  # noqa: BLE001 - the batched run below must report the same problem
        _restore(targets, before)
        return launch(kernel, grid, args, **options)
    sequential = [t.copy() for t in targets]
    _restore(targets, before)
    info = launch(kernel, grid, args, **options)
    fast = options.get("mma") == "fast"
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    for i, (got, want) in enumerate(zip(targets, sequential)):
        if fast and i >= len(arrays) and any(np.shares_memory(got, a) for a in arrays):
            continue        # the bytes of an argument array, compared as its values above
        if fast and got.dtype.kind == "f" and got.shape == want.shape:
            same = np.allclose(got, want, rtol=1e-4, atol=1e-4 * float(np.max(np.abs(
                np.nan_to_num(want)), initial=1.0)), equal_nan=True)
        else:
            same = got.tobytes() == want.tobytes()
        if not same:
            raise Mismatch(f"kernel '{kernel.name}' grid {g}: batched and sequential launches "
                           f"differ in {'argument' if i < len(args) else 'buffer'} #{i}")
    if record is not None:
        record.append((kernel.name, info.mode, info.divergent))
    return info


def check_batched_launches(monkeypatch) -> list:
    """Install :func:`differential_launch` for ``Kernel.launch``; returns the list of
    ``(kernel, mode, divergent)`` of the launches it compared."""
    record: list = []

    def launch(self, grid, args=(), **options):
        return differential_launch(self, grid, args, record=record, **options)
    monkeypatch.setattr(Kernel, "launch", launch)
    return record
