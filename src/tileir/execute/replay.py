"""Replaying a launch's pure values when the same kernel is launched again with equal arguments.

Much of a launch's Python time goes into ops whose values depend on nothing but the launch's
arguments and grid: the prologue (views, shape arithmetic: :attr:`Compiler.prologue`) and, in
each lock-step chunk of tile blocks, the block-id arithmetic that picks each block's tiles (a
swizzled grid's row and column take a dozen integer ops).  A kernel launched again with the same
argument *values* -- scalar values, and for arrays the addresses the launch maps them at
(:class:`~tileir.execute.memory.Memory` gives equal addresses to equal-sized arrays mapped in the
same order), their shapes and strides -- computes those values again, bit for bit.

A :class:`LaunchMemo` keeps them: the prologue's registers and, per chunk of blocks, the values
of the chunk's *replayable* top-level ops (pure ops whose operands are arguments, constants,
prologue values, block ids or other replayable values: :func:`replayed` wraps them).  The next
launch whose :func:`launch_key` is equal installs them instead of running the ops.  Memory
contents never enter these values (no op that reads memory is replayable), so arrays whose
contents changed between the launches change nothing here.  A value is kept once its op has
computed it (a launch that fails later leaves correct values behind: each is the op's value for
the key), never while a subset of a chunk's lanes runs (after lanes diverged).  Memory is
bounded per value (:data:`MAX_VALUE_BYTES`), per memo (:data:`MAX_MEMO_BYTES`) and for all memos
of the process together (:data:`MAX_TOTAL_BYTES`); an op whose value was not kept simply runs
again.  Tile values are never written in place and a kept array is referenced by the memo, so
the buffer pool never hands it out (:func:`~tileir.execute.buffers.recycle`).
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, Optional

import numpy as np

from .values import TensorViewValue

__all__ = ["LaunchMemo", "launch_key", "replayed", "REPLAYABLE_EXTRA", "MAX_VALUE_BYTES",
           "MAX_MEMO_BYTES", "MAX_TOTAL_BYTES"]

#: ops replayable besides the foldable (pure) ones: their values depend only on their operands
#: and on the chunk's block ids and the grid, which a chunk's memo is keyed on
REPLAYABLE_EXTRA = frozenset({
    "cuda_tile.get_tile_block_id", "cuda_tile.get_num_tile_blocks",
    "cuda_tile.make_partition_view", "cuda_tile.make_strided_view", "cuda_tile.assume",
    "cuda_tile.iota", "cuda_tile.constant", "cuda_tile.make_token"})

#: a scalar or small tile argument enters the key by its bytes up to this size; a launch with
#: a larger tile argument is not memoised
MAX_KEY_BYTES = 256
#: register values up to this size are kept (a million lanes' int32 tile indices: 4 MiB)
MAX_VALUE_BYTES = 16 << 20
#: at most this many bytes of values are kept per kernel and plan
MAX_MEMO_BYTES = 128 << 20
#: and at most this many by all the memos of the process together (a memo gives its bytes back
#: when it is dropped: the next key, or its kernel, replaces it)
MAX_TOTAL_BYTES = 256 << 20

_total = [0]            # bytes kept by all live memos

_MISSING = object()


def launch_key(values: list, grid: tuple) -> Optional[tuple]:
    """The key of a launch's pure values: the bound argument registers (scalars by value,
    pointers and views by mapped address, shape and strides) and the grid; None where an
    argument is not small enough to serve as a key."""
    parts: list = [grid]
    for v in values:
        if v is None:
            parts.append(None)
        elif type(v) is np.ndarray:
            if v.nbytes > MAX_KEY_BYTES:
                return None
            parts.append((v.dtype.str, v.shape, v.tobytes()))
        elif type(v) is TensorViewValue:
            parts.append((v.base.tobytes(), v.shape.tobytes(), v.strides.tobytes(),
                          v.base.shape, v.shape.shape, v.strides.shape))
        else:
            return None
    return tuple(parts)


def _size(v: Any) -> Optional[int]:
    """The bytes a kept value costs, or None for values that are not kept."""
    if v is None:
        return 0
    if type(v) is np.ndarray:
        return v.nbytes if v.nbytes <= MAX_VALUE_BYTES else None
    if type(v) is TensorViewValue:
        return v.base.nbytes + v.shape.nbytes + v.strides.nbytes
    return None


class LaunchMemo:
    """The pure values of the launches with one key (see the module docstring): ``prologue``
    (slot -> value) and ``chunks`` (``(first block, end block)`` -> {slot: value})."""

    def __init__(self, key: tuple) -> None:
        self.key = key
        self.prologue: Optional[dict] = None
        self.chunks: dict = {}
        self._held = [0]        # (shared with the finaliser that gives the bytes back)
        weakref.finalize(self, _give_back, self._held)
        #: op values installed from the memo instead of computed (prologues count as one)
        self.replays = 0

    def chunk(self, start: int, stop: int) -> dict:
        """The values of the chunk of blocks ``start .. stop - 1`` (a dict a recording launch
        fills through :meth:`keep`)."""
        got = self.chunks.get((start, stop))
        if got is None:
            got = self.chunks[(start, stop)] = {}
        return got

    def keep(self, values: dict, slot: int, value: Any) -> None:
        """Record ``value`` for register ``slot`` in the chunk dict ``values`` when it is small
        enough and the memo has room."""
        n = _size(value)
        if n is not None and self._held[0] + n <= MAX_MEMO_BYTES and \
                _total[0] + n <= MAX_TOTAL_BYTES:
            self._held[0] += n
            _total[0] += n
            values[slot] = value
            if type(value) is np.ndarray and value.base is None:
                # (shared by later launches; read-only and owning its memory, facts about it
                # are remembered too: tileir.execute.facts)
                value.flags.writeable = False


    @property
    def bytes(self) -> int:
        """The bytes of the values this memo keeps."""
        return self._held[0]


def _give_back(held: list) -> None:
    _total[0] -= held[0]
    held[0] = 0


def replayed(fn: Callable, outs: tuple, rt) -> Callable:
    """``fn`` (a replayable op's closure writing the registers ``outs``) that, while
    ``rt.memo`` holds a chunk's values (``(memo, values)``), installs the kept values instead
    of running, or runs and keeps its values when they are not there yet."""
    def run(r):
        state = rt.memo
        if state is None:
            return fn(r)
        memo, values = state
        got = values.get(outs[0], _MISSING)
        if got is not _MISSING and all(s in values for s in outs):
            for s in outs:
                r[s] = values[s]
            memo.replays += 1
            return None
        sig = fn(r)
        for s in outs:
            memo.keep(values, s, r[s])
        return sig
    return run
