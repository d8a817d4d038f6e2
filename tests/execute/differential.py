"""Differential checking of the lock-step executor: every batched launch made while
:func:`check_batched_launches` is installed also runs one tile block at a time (on the same
inputs) and both must leave identical bits in every array argument and mapped buffer
(module globals, cuTile list elements) -- or, for ``mma="fast"`` launches (the default), whose
BLAS sums may be grouped differently batched and one block at a time, equal within that mode's
documented bound (checked loosely here: relative 1e-4 of the values); such a launch of a
kernel with matrix products is then also run in ``mma="exact"`` mode both ways, which must
give identical bits.  Every batched launch is also made a second time with the same arguments,
which replays the first one's pure values (tileir/execute/replay.py), and must leave the same
bits as the first."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from tileir.execute.launch import DEFAULT_MMA, Kernel, normalize_grid

ORIGINAL_LAUNCH = Kernel.launch


class Mismatch(AssertionError):
    pass


def _state(kernel: Kernel, args) -> list[np.ndarray]:
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    return arrays + [b.data for b in kernel.memory.buffers]


def _host_float_type(kernel: Kernel, data: np.ndarray):
    """The float element type of the host array behind the mapped bytes ``data`` (a cuTile
    list element), or None: how its values are compared in fast mode."""
    for b in kernel.memory.buffers:
        if b.data is data and b.host_dtype is not None and _is_float(b.host_dtype):
            return b.host_dtype
    return None


def _is_float(dt: np.dtype) -> bool:
    try:
        ml_dtypes.finfo(dt)
    except ValueError:
        return False
    return True


def _close(got: np.ndarray, want: np.ndarray, dtype: np.dtype) -> bool:
    """Equal within fast mode's bound (loosely: relative 1e-4 of the values, or two ulps of
    a narrower ``dtype`` such as f16, whose rounding of the f32 sums may go either way)."""
    got, want = got.astype(np.float64), want.astype(np.float64)
    eps = max(1e-4, 2 * float(ml_dtypes.finfo(dtype).eps))
    return np.allclose(got, want, rtol=eps, atol=eps * float(np.max(np.abs(
        np.nan_to_num(want)), initial=1.0)), equal_nan=True)


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
    fast = options.get("mma", DEFAULT_MMA) == "fast"
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    for i, (got, want) in enumerate(zip(targets, sequential)):
        if fast and i >= len(arrays) and any(np.shares_memory(got, a) for a in arrays):
            continue        # the bytes of an argument array, compared as its values above
        dt = _host_float_type(kernel, got) if fast and got.dtype == np.uint8 else None
        if fast and _is_float(got.dtype) and got.shape == want.shape:
            same = _close(got, want, got.dtype)
        elif dt is not None:
            same = _close(got.view(dt), want.view(dt), dt)
        else:
            same = got.tobytes() == want.tobytes()
        if not same:
            raise Mismatch(f"kernel '{kernel.name}' grid {g}: batched and sequential launches "
                           f"differ in {'argument' if i < len(args) else 'buffer'} #{i}")
    _replay_same_bits(kernel, g, args, targets, before, launch, options)
    if fast and _has_mmaf(kernel):
        _exact_bits_too(kernel, g, args, targets, before, launch, options)
    if record is not None:
        record.append((kernel.name, info.mode, info.divergent))
    return info


def _replay_same_bits(kernel: Kernel, g, args: list, targets: list, before: list, launch,
                      options) -> None:
    """The same launch again, on the same inputs: it replays the pure values the first one
    kept (tileir/execute/replay.py: equal arguments) and must leave identical bits."""
    first = [t.tobytes() for t in targets]
    after = [t.copy() for t in targets]
    _restore(targets, before)
    launch(kernel, g, args, **options)
    again = [t.tobytes() for t in targets]
    _restore(targets, after)
    if again != first:
        raise Mismatch(f"kernel '{kernel.name}' grid {g}: a second launch with equal arguments "
                       f"(replaying the first one's pure values) differs")


def _has_mmaf(kernel: Kernel) -> bool:
    return any(op.name in ("cuda_tile.mmaf", "cuda_tile.mmaf_scaled") for op in kernel.entry.walk())


def _exact_bits_too(kernel: Kernel, g, args: list, targets: list, before: list, launch,
                    options) -> None:
    """A fast-mode launch of a kernel with matrix products: exact mode must still give
    identical bits batched and one block at a time (run on the same inputs; the fast
    launch's results are put back afterwards)."""
    after_fast = [t.copy() for t in targets]
    exact = dict(options, mma="exact")
    results = []
    for batch in (False, True):
        _restore(targets, before)
        launch(kernel, g, args, **dict(exact, batch=batch))
        results.append([t.tobytes() for t in targets])
    _restore(targets, after_fast)
    if results[0] != results[1]:
        raise Mismatch(f"kernel '{kernel.name}' grid {g}: exact-mode batched and sequential "
                       f"launches differ")


def check_batched_launches(monkeypatch) -> list:
    """Install :func:`differential_launch` for ``Kernel.launch``; returns the list of
    ``(kernel, mode, divergent)`` of the launches it compared."""
    record: list = []

    def launch(self, grid, args=(), **options):
        return differential_launch(self, grid, args, record=record, **options)
    monkeypatch.setattr(Kernel, "launch", launch)
    return record
