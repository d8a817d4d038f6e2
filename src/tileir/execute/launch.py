"""Kernels and launches: argument binding, the grid of tile blocks, lock-step batching.

:class:`Kernel` is a compiled entry (``tileir.compile``): its plan is built once and reused by
every :meth:`Kernel.launch`.  A launch

1. checks the grid (1 to 3 extents, each in ``[1, 2**24 - 1]``) and the arguments (one per
   entry parameter, matching kinds, dtypes and shapes) before anything runs;
2. maps every argument array into the simulated address space (stores write into the caller's
   arrays in place; a non-contiguous array is copied in and written back afterwards);
3. runs the entry once per tile block ``(x, y, z)``, in CUDA order (x fastest).  When the
   kernel's control flow does not depend on the block id (:class:`~.plan.BatchAnalysis`), many
   blocks run in lock step as one vectorised pass (a legal interleaving of the blocks: every
   op is applied for all of them before the next op); otherwise, or with ``batch=False``, one
   block at a time.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterator, Optional, Sequence

import numpy as np

from ..ir.core import Operation
from ..dialects.cuda_tile.types import (PointerType, TensorViewType, TileType, TokenType)
from ..ir import dtypes as _dtypes
from . import numerics as N
from .errors import ArgumentError, GridError, LaunchError, UnsupportedError
from .memory import Memory
from .plan import (MAX_PENDING_NESTING, VARYING_RESULTS, BatchAnalysis, Compiler, Runtime,
                   storage_dtype)
from .progress import Progress, progress_stream
from .replay import LaunchMemo, launch_key
from .values import TensorViewValue
from . import semantics as _semantics  # noqa: F401  (registers the lowerings)

__all__ = ["Kernel", "LaunchInfo", "compile_kernel", "launch", "find_entry", "MAX_GRID"]

#: Largest extent of one grid axis (the spec's limit is 2**24 - 1).
MAX_GRID = (1 << 24) - 1
#: ``mmaf`` evaluation modes (``Kernel.launch(mma=...)``).
MMA_MODES = ("exact", "fast")
#: The ``mmaf`` mode of a launch that names none, chosen from ``benchmarks/exec_bench.py``:
#: ``"fast"`` (f32 accumulation through BLAS) runs the tiled matmuls 1.2-2.4x NumPy's f32
#: matmul where ``"exact"`` (exact products summed in f64, rounded once per ``mmaf``) is
#: 6-21x; the spec leaves the accumulation order and precision open.  ``"exact"`` stays one
#: argument away for bits that depend on nothing (not BLAS, threads or batching).
DEFAULT_MMA = "fast"
#: Elements per tile value in one lock-step batch (beyond this, bigger batches stop paying).
BATCH_ELEMENTS = 1 << 21
#: Default bound on the extra memory of a batched launch (``Kernel.launch(max_memory=...)``).
DEFAULT_MAX_MEMORY = 1 << 30
#: A batched launch with fewer elements than this (blocks x largest tile) uses one thread.
MIN_THREADED_ELEMENTS = 1 << 16
#: By default, a batched launch whose work (blocks x largest tile x compute ops) is below this
#: uses one thread: splitting a cheap, memory-bound kernel costs more in thread hand-offs than
#: it gains (measured: vector add of 2**20 f32 0.8 ms on one thread, 1.6-1.8 ms on two;
#: softmax of 1024**2, five compute ops, 21 ms -> 10 ms on two).
MIN_THREADED_WORK = 1 << 22
#: ops that move or describe data rather than compute on it (not counted as work)
_DATA_OPS = frozenset("cuda_tile." + n for n in (
    "load_view_tko", "store_view_tko", "load_ptr_tko", "store_ptr_tko", "make_tensor_view",
    "make_partition_view", "make_strided_view", "make_gather_scatter_view", "constant",
    "reshape", "broadcast", "permute", "get_tile_block_id", "get_num_tile_blocks", "return",
    "yield", "continue", "break", "join_tokens", "make_token", "iota", "offset", "extract",
    "get_index_space_shape", "get_tensor_shape", "assume"))


@dataclass
class LaunchInfo:
    """What a launch did: ``mode`` is ``"batched"`` or ``"sequential"`` (``reason`` says why)."""

    kernel: str
    grid: tuple
    blocks: int
    mode: str
    batches: int
    seconds: float
    reason: str = ""
    #: indices of the array arguments the kernel stored into
    written: tuple = ()
    #: batched launches: the branches where tile blocks diverged and ran on split lanes
    #: (``"'for' at line 12"``...; see :mod:`tileir.execute.lanes`)
    divergent: tuple = ()
    #: threads that ran the batches (1 unless a large batched launch could use more)
    threads: int = 1


# ---------------------------------------------------------------------------------------------
# Finding entries
# ---------------------------------------------------------------------------------------------

def _modules(root: Operation) -> list[Operation]:
    if root.name == "cuda_tile.module":
        return [root]
    out = []
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                if op.name == "cuda_tile.module":
                    out.append(op)
    return out


def find_entry(module: Operation, name: str) -> tuple[Operation, Operation]:
    """The ``(cuda_tile.module, entry)`` named ``name``.  A cuTile kernel may also be named by
    its Python name when exactly one entry's mangled name is ``<name>_K...``."""
    entries = []
    for mod in _modules(module):
        for op in mod.regions[0].blocks[0].ops if mod.regions[0].blocks else []:
            if op.name == "cuda_tile.entry":
                entries.append((mod, op))
    for mod, op in entries:
        if op.sym_name == name:
            return mod, op
    mangled = [(m, e) for m, e in entries if e.sym_name.startswith(name + "_K")]
    if len(mangled) == 1:
        return mangled[0]
    names = ", ".join(e.sym_name for _, e in entries) or "none"
    raise ArgumentError(f"no entry named '{name}' in the module (entries: {names})")


# ---------------------------------------------------------------------------------------------
# Argument binding
# ---------------------------------------------------------------------------------------------

def _as_array(value: Any, what: str) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "__array__") or hasattr(value, "__array_interface__"):
        return np.asarray(value)
    if hasattr(value, "__dlpack__"):
        try:
            return np.from_dlpack(value)
        except Exception as exc:  # noqa: BLE001
            raise ArgumentError(f"{what}: cannot read the array through DLPack ({exc}); "
                                "pass a CPU array") from None
    raise ArgumentError(f"{what}: expected an array, got {type(value).__name__}")


def _dtype_ok(actual: np.dtype, elem: str) -> bool:
    want = _dtypes.numpy_dtype(elem)
    if actual == want:
        return True
    if elem in ("i8", "i16", "i32", "i64"):
        return actual == np.dtype("uint" + elem[1:])
    return False


def _describe_dtype(elem: str) -> str:
    want = _dtypes.numpy_dtype(elem)
    text = str(want)
    if elem in ("i8", "i16", "i32", "i64"):
        text += f" or uint{elem[1:]}"
    return text


class _Binding:
    """The arrays of one launch, mapped into memory (with write-backs for copies)."""

    def __init__(self) -> None:
        self.writebacks: list[tuple[np.ndarray, np.ndarray]] = []
        self.by_region: dict = {}
        self.buffers: dict = {}     # argument index -> Buffer
        self.spans: dict = {}       # id(Buffer) -> (host address, bytes) of its storage


def _map_array(memory: Memory, binding: _Binding, arr: np.ndarray, name: str):
    flags = arr.flags
    if flags.c_contiguous or flags.f_contiguous:
        data = arr.reshape(-1) if flags.c_contiguous else np.ravel(arr, order="K")
        src = arr
    else:
        data = np.ascontiguousarray(arr).reshape(-1)
        src = None
        if flags.writeable:
            binding.writebacks.append((arr, data))
    key = (data.__array_interface__["data"][0], data.nbytes)
    if src is not None and key in binding.by_region:
        return binding.by_region[key]
    u8 = data.view(np.uint8)
    writable = bool(arr.flags.writeable)
    buf = memory.map(u8.reshape(-1), name, writable, host_dtype=arr.dtype)
    if src is not None:
        binding.by_region[key] = buf
    binding.spans[id(buf)] = key
    return buf


def _bind_scalar(value: Any, t: TileType, what: str) -> np.ndarray:
    elem = t.element.name
    dt = _dtypes.numpy_dtype(elem)
    if isinstance(value, np.ndarray):
        if value.shape not in ((), (1,)):
            raise ArgumentError(f"{what}: expected a scalar of type {elem}, got an array of "
                                f"shape {value.shape}")
        value = value.reshape(-1)[0]
    if elem == "i1":
        if isinstance(value, (bool, np.bool_)) or (isinstance(value, (int, np.integer))
                                                    and int(value) in (0, 1)):
            return np.array([bool(value)])
        raise ArgumentError(f"{what}: expected a bool for an i1 parameter, got {value!r}")
    if elem[0] == "i":
        if isinstance(value, (float, np.floating)) or not isinstance(value, (int, np.integer)):
            raise ArgumentError(f"{what}: expected an integer for an {elem} parameter, got "
                                f"{type(value).__name__} {value!r}")
        v = int(value)
        bits = int(elem[1:])
        if not -(1 << (bits - 1)) <= v < (1 << bits):
            raise ArgumentError(f"{what}: {v} does not fit in {elem}")
        if bits not in (8, 16, 32, 64):
            return N.from_integer(np.array([v & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64), elem)
        if v >= 1 << (bits - 1):
            v -= 1 << bits              # the same bits, read as the signed storage type
        return np.array([v], dtype=dt)
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise ArgumentError(f"{what}: expected a number for an {elem} parameter, got "
                            f"{type(value).__name__} {value!r}")
    if isinstance(value, np.floating) and np.dtype(type(value)) == dt:
        return np.array([value], dtype=dt)
    f = np.array([float(value)], dtype=np.float64)
    if elem == "f64":
        return f
    return N.ftof(f, "f64", elem)


class _Param:
    """How to turn a user argument into the register value of one entry parameter."""

    def __init__(self, index: int, t) -> None:
        self.index = index
        self.type = t
        if isinstance(t, TileType) and isinstance(t.element, PointerType):
            if t.rank != 0:
                raise UnsupportedError(f"parameter #{index} has type {t.short}: only scalar "
                                       "pointer parameters are supported")
            self.kind = "pointer"
            self.elem = t.element.pointee.name
        elif isinstance(t, TileType):
            self.kind = "scalar" if t.rank == 0 else "tile"
            self.elem = t.element.name
        elif isinstance(t, TensorViewType):
            self.kind = "tensor_view"
            self.elem = t.element.name
        elif isinstance(t, TokenType):
            self.kind = "token"
            self.elem = ""
        else:
            raise UnsupportedError(f"parameter #{index} has type {t}, which a launch cannot "
                                   "bind")
        #: how diagnostics name the argument
        self.what = f"argument #{index} ({t.short})"
        #: the name of the buffer an array argument is mapped to (memory faults name it)
        self.buffer_name = f"argument #{index}"
        #: the array dtypes accepted (memoised by :meth:`bind`)
        self.dtypes_ok: set = set()

    def describe(self) -> str:
        return self.type.short

    def bind(self, value: Any, memory: Memory, binding: _Binding):
        what = self.what
        if self.kind == "scalar":
            return _bind_scalar(value, self.type, what)
        if self.kind == "token":
            return None
        arr = value if type(value) is np.ndarray else _as_array(value, what)
        if arr.dtype in self.dtypes_ok:
            pass
        elif _dtype_ok(arr.dtype, self.elem):
            self.dtypes_ok.add(arr.dtype)
        else:
            raise ArgumentError(f"{what}: expected an array of dtype {_describe_dtype(self.elem)}"
                                f", got {arr.dtype}")
        if self.kind == "tile":
            if tuple(arr.shape) != tuple(self.type.shape):
                raise ArgumentError(f"{what}: expected shape {tuple(self.type.shape)}, got "
                                    f"{arr.shape}")
            return np.array(arr, dtype=storage_dtype(self.type))[None]
        buf = _map_array(memory, binding, arr, self.buffer_name)
        binding.buffers[self.index] = buf
        if self.kind == "pointer":
            return np.array([buf.base], dtype=np.uint64)
        t: TensorViewType = self.type
        if arr.ndim != t.rank:
            raise ArgumentError(f"{what}: expected a {t.rank}-D array, got {arr.ndim}-D")
        if not (arr.flags.c_contiguous or arr.flags.f_contiguous):
            strides = _c_strides(arr.shape)
        else:
            strides = tuple(s // arr.itemsize for s in arr.strides)
        for d, (want, have) in enumerate(zip(t.shape, arr.shape)):
            if want is not None and want != have:
                raise ArgumentError(f"{what}: dimension {d} must be {want}, got {have}")
        for d, (want, have) in enumerate(zip(t.strides, strides)):
            if want is not None and want != have:
                raise ArgumentError(f"{what}: stride {d} must be {want} elements, got {have}")
        return TensorViewValue(np.array([buf.base], dtype=np.uint64),
                               np.array([arr.shape], dtype=np.int64).reshape(1, t.rank),
                               np.array([strides], dtype=np.int64).reshape(1, t.rank))


def _c_strides(shape) -> tuple:
    out = []
    acc = 1
    for d in reversed(shape):
        out.append(acc)
        acc *= d
    return tuple(reversed(out))


# ---------------------------------------------------------------------------------------------
# Kernel
# ---------------------------------------------------------------------------------------------

class _Plan:
    def __init__(self, compiler: Compiler, run) -> None:
        self.compiler = compiler
        self.run = run
        self.template = compiler.template
        self.arg_slots = compiler.arg_slots
        self.prologue = compiler.prologue
        self.prologue_ops = compiler.prologue_ops
        self.prologue_slots = tuple(compiler.slot(r) for op in self.prologue_ops
                                    for r in op.results)
        #: the pure values of the last successful launch (see :mod:`.replay`)
        self.memo: Optional[LaunchMemo] = None

    def memo_for(self, key: Optional[tuple]) -> Optional[LaunchMemo]:
        """The memo to replay (the last launch's, when its key is ``key``) or to record."""
        if key is None:
            return None
        memo = self.memo
        if memo is None or memo.key != key:
            memo = self.memo = LaunchMemo(key)
        return memo

    def run_prologue(self, regs: list, rt, memo: Optional[LaunchMemo] = None) -> None:
        """Evaluate the launch-invariant ops into ``regs`` (once per launch), or install their
        values from ``memo``."""
        if memo is not None and memo.prologue is not None:
            for s, v in memo.prologue.items():
                regs[s] = v
            memo.replays += 1
            return
        self._run_prologue(regs, rt)
        if memo is not None:
            kept: dict = {}
            for s in self.prologue_slots:
                memo.keep(kept, s, regs[s])
            if len(kept) == len(set(self.prologue_slots)):
                memo.prologue = kept

    def _run_prologue(self, regs: list, rt) -> None:
        for fn, op in zip(self.prologue, self.prologue_ops):
            try:
                fn(regs)
            except LaunchError:
                raise
            except Exception as exc:  # noqa: BLE001 - report the op, keep the cause chained
                ctx = self.compiler.ctx(op)
                raise rt.error(ctx, LaunchError, f"internal executor error: "
                                                 f"{type(exc).__name__}: {exc}") from exc


class Kernel:
    """A compiled entry: reusable, launch it with :meth:`launch` (or call it)."""

    def __init__(self, module: Operation, name: str, *, verify: bool = True) -> None:
        if verify:
            from ..ir.verify import verify as _verify
            _verify(module)
        self.module = module
        mod, entry = find_entry(module, name)
        self.entry = entry
        self.name = entry.sym_name
        state = _module_state(mod)
        self.memory = state.memory
        self.globals = state.globals
        self.rt = Runtime()
        self.rt.kernel = self.name
        self.params = [_Param(i, t) for i, t in enumerate(entry.function_type.inputs)]
        self._plans: dict = {}
        self._analyses: dict = {}
        self.max_tile = _max_tile_elements(entry)
        self.lane_bytes = _lane_bytes(entry)
        #: no atomics: chunks of blocks may run on several threads at once (atomics keep
        #: their per-element block order, which needs one thread)
        self.thread_safe = not any(op.name in VARYING_RESULTS for op in entry.walk())
        #: ops that compute (not counting data movement), for the threading decision
        self.compute_ops = max(1, sum(1 for op in entry.walk()
                                      if op.name not in _DATA_OPS and op is not entry))
        #: matrix products big enough for BLAS to use threads of its own: calling it from
        #: several threads at once oversubscribes the cores (measured: many times slower), so
        #: such kernels default to one thread; smaller products are single-threaded in BLAS
        #: and their lanes are split across threads like any other work
        self.uses_blas = any(op.name.startswith("cuda_tile.mma") and
                             _product_size(op) >= BLAS_THREADED_PRODUCT for op in entry.walk())
        self._plan(False)   # compile eagerly: report unsupported ops at compile time

    def __repr__(self) -> str:
        sig = ", ".join(p.describe() for p in self.params)
        return f"<tileir.Kernel {self.name}({sig})>"

    # -- compilation --------------------------------------------------------------------------

    def _plan(self, check_assumptions: bool, mma: str = DEFAULT_MMA) -> _Plan:
        key = (check_assumptions, mma)
        plan = self._plans.get(key)
        if plan is None:
            if mma not in MMA_MODES:
                raise ArgumentError(f"mma must be one of {', '.join(MMA_MODES)}, got {mma!r}")
            compiler = Compiler(self.entry, self.globals, self.rt)
            compiler.check_assumptions = check_assumptions
            compiler.mma_mode = mma
            with np.errstate(all="ignore"):
                run = compiler.compile_entry()
            plan = _Plan(compiler, run)
            self._plans[key] = plan
        return plan

    def analysis(self, varying_axes: tuple) -> BatchAnalysis:
        a = self._analyses.get(varying_axes)
        if a is None:
            a = BatchAnalysis(self.entry, varying_axes)
            self._analyses[varying_axes] = a
        return a

    def read_global(self, name: str) -> np.ndarray:
        """A copy of the current contents of the module global ``@name``."""
        name = name.lstrip("@")
        if name not in self.globals:
            raise KeyError(f"no global @{name}")
        return self.globals[name][2].copy()

    # -- launching ----------------------------------------------------------------------------

    def __call__(self, grid, *args, **kwargs) -> LaunchInfo:
        return self.launch(grid, list(args), **kwargs)

    def launch(self, grid, args: Sequence = (), *, check_assumptions: bool = False,
               stdout=None, batch: bool = True,
               max_loop_iterations: Optional[int] = 10_000_000,
               progress=None, mma: str = DEFAULT_MMA,
               max_memory: int = DEFAULT_MAX_MEMORY,
               threads: Optional[int] = None) -> LaunchInfo:
        """Run the kernel over ``grid`` with ``args`` (one per entry parameter).

        ``progress``: a launch running longer than a second shows a progress line on standard
        error when that is a terminal (``None``, the default, or ``True``); ``False`` keeps
        quiet; a stream object gets the line instead (when it is a terminal).  Ctrl-C raises
        :class:`~tileir.execute.progress.LaunchInterrupted` (a ``KeyboardInterrupt``).

        ``mma``: ``"fast"`` (default, :data:`DEFAULT_MMA`) multiplies in the accumulator's
        precision through BLAS (f32 SGEMM for f32 accumulators; results within the f32
        summation error of exact, see
        :func:`~tileir.execute.semantics.floating_point.mmaf_fast`), a K loop of ``mmaf`` as
        one product over the whole K range
        (:func:`~tileir.execute.semantics.padded_mma.fuse_k_loop`); ``"exact"`` computes
        ``mmaf`` from exact products summed in f64 and rounded once (bits independent of BLAS,
        threads and batching).

        ``max_memory``: a batched launch runs its tile blocks in chunks small enough that the
        registers of a chunk (every tile value of the kernel, per block, plus the f64 work
        arrays of ``mmaf``) stay under this many bytes (default 1 GiB).

        ``threads``: a large batched launch splits its blocks into chunks run by this many
        threads (default: every core, NumPy releasing the GIL in large array operations; but
        one thread for kernels with matrix products, which BLAS parallelises itself).
        Kernels with atomics always use one thread.  Results are the same bits either way."""
        grid = normalize_grid(grid)
        if isinstance(args, (str, bytes)) or not hasattr(args, "__iter__"):
            raise ArgumentError(f"args must be a sequence with one value per parameter of entry "
                                f"'{self.name}' (arrays for pointers, scalars for scalar "
                                f"tiles), not {type(args).__name__}")
        args = list(args)
        if len(args) != len(self.params):
            sig = ", ".join(p.describe() for p in self.params)
            raise ArgumentError(f"kernel '{self.name}' takes {len(self.params)} argument"
                                f"{'s' if len(self.params) != 1 else ''} ({sig}), got "
                                f"{len(args)}")
        plan = self._plan(bool(check_assumptions), mma)
        memory = self.memory
        mark = memory.mark()
        binding = _Binding()
        rt = self.rt
        start = time.perf_counter()
        total = grid[0] * grid[1] * grid[2]
        meter = Progress(self.name, total, progress_stream(progress))
        try:
            values = [p.bind(a, memory, binding) for p, a in zip(self.params, args)]
            rt.zero_copy = _no_written_aliases(binding, plan.compiler.written_params)
            rt.launch = object()
            regs0 = list(plan.template)
            for slot, v in zip(plan.arg_slots, values):
                regs0[slot] = v
            rt.memory = memory
            rt.kernel = self.name           # rt is per thread: set in the launching one
            rt.grid = grid
            rt.grid_values = _grid_values(grid)
            rt.stdout = stdout
            rt.check_assumptions = bool(check_assumptions)
            rt.max_loop_iterations = max_loop_iterations
            rt.allocs = []
            analysis = self.analysis(tuple(g > 1 for g in grid))
            memo = plan.memo_for(launch_key(values, grid))
            with np.errstate(all="ignore"):
                rt.bx = rt.by = rt.bz = np.zeros(1, dtype=np.int32)
                rt.lanes = 1
                plan.run_prologue(regs0, rt, memo)
                divergent: tuple = ()
                used = 1
                if batch and total > 1 and analysis.batchable:
                    batches, used = self._run_batched(plan, regs0, grid, total, meter,
                                                      max_memory, threads, memo)
                    mode, reason = "batched", ""
                    divergent = tuple(analysis.divergent)
                else:
                    self._run_sequential(plan, regs0, grid, meter)
                    batches = total
                    mode = "sequential"
                    reason = ("batching disabled" if not batch else
                              "one tile block" if total == 1 else analysis.reason or "")
        except LaunchError:
            raise
        except KeyboardInterrupt:
            raise meter.interrupted() from None
        except Exception as exc:  # noqa: BLE001 - an executor bug must still be a clear error
            raise LaunchError(f"internal executor error while running '{self.name}': "
                              f"{type(exc).__name__}: {exc}") from exc
        finally:
            meter.close()
            for original, copy in binding.writebacks:
                original[...] = copy.reshape(original.shape)
            memory.release(mark)
            rt.allocs = []
            rt.memory = memory
        written = tuple(i for i, b in binding.buffers.items() if b.written)
        return LaunchInfo(self.name, grid, grid[0] * grid[1] * grid[2], mode, batches,
                          time.perf_counter() - start, reason, written, divergent, used)

    def _run_sequential(self, plan: _Plan, regs0: list, grid: tuple, meter: Progress) -> None:
        """Run the tile blocks one after another, in grid order.  A block that spins in a
        ``loop`` (waiting for another block's store) runs blocks that have not started yet from
        inside its loop (``Runtime.run_pending``), up to :data:`MAX_PENDING_NESTING` deep; the
        spec leaves the order of tile blocks open, so any such order is a legal one."""
        rt = self.rt
        run = plan.run
        memory = self.memory
        blocks = _block_ids(grid)
        nesting = 0

        def run_block(ids: tuple) -> None:
            saved = rt.bx, rt.by, rt.bz, rt.allocs
            rt.bx, rt.by, rt.bz = ids
            rt.allocs = []
            mark = memory.mark()
            try:
                run(list(regs0))
            finally:
                if rt.allocs:
                    memory.release(mark)        # this block's alloca buffers
                rt.bx, rt.by, rt.bz, rt.allocs = saved
            meter.advance(1)

        def run_pending() -> bool:
            nonlocal nesting
            if nesting >= MAX_PENDING_NESTING:
                return False
            ids = next(blocks, None)
            if ids is None:
                return False
            nesting += 1
            try:
                run_block(ids)
            finally:
                nesting -= 1
            return True

        rt.run_pending = run_pending
        try:
            for ids in blocks:
                run_block(ids)
        finally:
            rt.run_pending = None

    def chunk_blocks(self, total: int, max_memory: int = DEFAULT_MAX_MEMORY) -> int:
        """Tile blocks per lock-step batch: at most ``max_memory`` bytes of registers (see
        :func:`_lane_bytes`) and :data:`BATCH_ELEMENTS` elements per tile value."""
        by_memory = int(max_memory) // max(1, self.lane_bytes)
        return max(1, min(total, BATCH_ELEMENTS // max(1, self.max_tile), by_memory))

    def _run_batched(self, plan: _Plan, regs0: list, grid: tuple, total: int,
                     meter: Progress, max_memory: int = DEFAULT_MAX_MEMORY,
                     threads: Optional[int] = None, memo: Optional[LaunchMemo] = None
                     ) -> tuple[int, int]:
        """Run the blocks in lock-step chunks; returns ``(chunks, threads used)``.  ``memo``:
        the pure values of the chunks to replay or record (see :mod:`.replay`)."""
        if threads is not None:
            workers = int(threads)
        else:
            workers = 1 if self.uses_blas else _CORES
            if total * self.max_tile * self.compute_ops < MIN_THREADED_WORK:
                workers = 1
        if not self.thread_safe or total * self.max_tile < MIN_THREADED_ELEMENTS:
            workers = 1
        workers = max(1, min(workers, total))
        chunk = self.chunk_blocks(total, max(1, int(max_memory) // workers))
        if workers > 1:
            chunk = min(chunk, -(-total // workers))
        starts = range(0, total, chunk)
        workers = min(workers, len(starts))
        run = plan.run
        rt = self.rt

        memory = self.memory

        def run_chunk(start: int) -> int:
            stop = min(total, start + chunk)
            _set_lanes(rt, start, stop, grid)
            # (a kernel with alloca runs on one thread: its chunks' allocations are released
            # when the chunk ends, like a sequential block's)
            mark = memory.mark()
            rt.allocs = []
            rt.memo = None if memo is None else (memo, memo.chunk(start, stop))
            try:
                run(list(regs0))
            finally:
                rt.memo = None
                if rt.allocs:
                    memory.release(mark)
                    rt.allocs = []
            return stop - start

        if workers == 1:
            for start in starts:
                meter.advance(run_chunk(start))
            rt.lanes = 1
            return len(starts), 1
        state = rt.launch_state()
        stop = threading.Event()

        def job(start: int) -> int:
            if stop.is_set():
                return 0
            rt.adopt(state)
            with np.errstate(all="ignore"):
                return run_chunk(start)

        pool = _pool(workers)
        futures = [pool.submit(job, s) for s in starts]
        try:
            for f in futures:
                meter.advance(f.result())     # the first failing chunk (in order) raises
        except BaseException:
            stop.set()
            for f in futures:
                f.cancel()
            for f in futures:
                if not f.cancelled():
                    try:
                        f.result()
                    except BaseException:  # noqa: BLE001 - the first error is re-raised
                        pass
            raise
        rt.lanes = 1
        return len(starts), workers


def _no_written_aliases(binding: _Binding, written: Optional[frozenset]) -> bool:
    """Whether no argument array behind a written parameter shares host memory with another
    argument (``written``: the parameters stores may write through, None for unknown: then
    no two arguments may share memory).  Read-only parameters may share an array."""
    spans = binding.spans
    items = [(i, spans[id(b)]) for i, b in binding.buffers.items()]
    for k, (i, (lo, n)) in enumerate(items):
        for j, (lo2, n2) in items[k + 1:]:
            if lo < lo2 + n2 and lo2 < lo + n and (
                    written is None or i in written or j in written):
                return False
    return True


def _set_lanes(rt: Runtime, start: int, stop: int, grid: tuple) -> None:
    """Install the block ids of the linear block indices ``start .. stop - 1`` as the lanes of
    ``rt`` (read-only arrays, kept for the next launch of the same chunk)."""
    key = (start, stop, grid)
    ids = _LANE_IDS.get(key)
    if ids is None:
        lin = np.arange(start, stop, dtype=np.int64)
        gx, gy, gz = grid
        zero = np.zeros(1, dtype=np.int32)
        ids = ((lin % gx).astype(np.int32) if gx > 1 else zero,
               ((lin // gx) % gy).astype(np.int32) if gy > 1 else zero,
               (lin // (gx * gy)).astype(np.int32) if gz > 1 else zero)
        for a in ids:
            a.flags.writeable = False
        if _LANE_IDS_HELD[0] + stop - start > _LANE_IDS_MAX:
            _LANE_IDS.clear()
            _LANE_IDS_HELD[0] = 0
        if stop - start <= _LANE_IDS_MAX:
            _LANE_IDS[key] = ids
            _LANE_IDS_HELD[0] += stop - start
    rt.bx, rt.by, rt.bz = ids
    rt.lanes = stop - start


#: (first block, end block, grid) -> the block-id lanes of that chunk (see _set_lanes), at
#: most _LANE_IDS_MAX lanes in all (12 bytes each)
_LANE_IDS: dict = {}
_LANE_IDS_MAX = 1 << 21
_LANE_IDS_HELD = [0]            # lanes held now


#: the machine's cores (asked once: ``os.cpu_count`` is slow on some systems)
_CORES = os.cpu_count() or 1

_POOLS: dict = {}
_POOLS_LOCK = threading.Lock()


def _pool(workers: int) -> ThreadPoolExecutor:
    """A thread pool of ``workers`` threads, kept for later launches."""
    with _POOLS_LOCK:
        pool = _POOLS.get(workers)
        if pool is None:
            pool = ThreadPoolExecutor(workers, thread_name_prefix="tileir")
            _POOLS[workers] = pool
        return pool


def _block_ids(grid: tuple) -> Iterator[tuple]:
    """The (x, y, z) block id arrays of ``grid`` in launch order (x fastest)."""
    gx, gy, gz = grid
    zero = np.zeros(1, dtype=np.int32)
    xs = [np.array([i], dtype=np.int32) for i in range(gx)] if gx <= 65536 else None
    for z in range(gz):
        bz = np.array([z], dtype=np.int32) if z else zero
        for y in range(gy):
            by = np.array([y], dtype=np.int32) if y else zero
            for x in range(gx):
                yield (xs[x] if xs is not None else np.array([x], dtype=np.int32)), by, bz


class _ModuleState:
    """Per ``cuda_tile.module``: the address space holding its globals (which live as long as
    the module, shared by every kernel compiled from it)."""

    def __init__(self, mod: Operation) -> None:
        self.memory = Memory()
        self.globals: dict = {}
        for op in mod.regions[0].blocks[0].ops if mod.regions[0].blocks else []:
            if op.name == "cuda_tile.global":
                attr = op.attributes["value"]
                arr = np.ascontiguousarray(attr.array).reshape(-1).copy()
                align = int(op.attributes["alignment"].value) if "alignment" in op.attributes \
                    else 0
                buf = self.memory.map(arr.view(np.uint8).reshape(-1), f"@{op.sym_name}",
                                      "constant" not in op.attributes, align or 256)
                self.globals[op.sym_name] = (buf, attr.type.element, arr)


_STATES: "weakref.WeakKeyDictionary[Operation, _ModuleState]" = weakref.WeakKeyDictionary()


def _module_state(mod: Operation) -> _ModuleState:
    state = _STATES.get(mod)
    if state is None:
        state = _ModuleState(mod)
        _STATES[mod] = state
    return state


def _max_tile_elements(entry: Operation) -> int:
    best = 1
    for op in entry.walk():
        for v in list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]:
            t = v.type
            if isinstance(t, TileType):
                best = max(best, t.numel)
    return best


#: ``M * N * K`` from which OpenBLAS (NumPy's BLAS) runs one matrix product on several threads
#: (its SMP threshold, 65536 * GEMM_MULTITHREAD_THRESHOLD = 4); below it a product is one thread
BLAS_THREADED_PRODUCT = 1 << 18


def _product_size(op: Operation) -> int:
    """``M * N * K`` of one tile of an mma op (``(..., M, K) x (..., K, N)``)."""
    lhs, rhs = op.operands[0].type.shape, op.operands[1].type.shape
    return int(lhs[-2]) * int(rhs[-1]) * int(lhs[-1])


def _lane_bytes(entry: Operation) -> int:
    """Bytes of registers one tile block of a batch may hold at once: every tile value of the
    entry (a batch keeps them until it ends), doubled for the temporaries of the ops, plus the
    f64 operand and result arrays of each ``mmaf``."""
    total = 0
    for op in entry.walk():
        for v in list(op.results) + [a for r in op.regions for b in r.blocks for a in b.args]:
            t = v.type
            if isinstance(t, TileType):
                total += 2 * t.numel * storage_dtype(t).itemsize
        if op.name in ("cuda_tile.mmaf", "cuda_tile.mmaf_scaled"):
            total += 8 * sum(o.type.numel for o in list(op.operands[:2]) + list(op.results))
    return total


def _grid_values(grid: tuple) -> tuple:
    """The grid's extents as the one-lane i32 arrays ``get_num_tile_blocks`` returns
    (read-only, kept per grid)."""
    values = _GRID_VALUES.get(grid)
    if values is None:
        values = tuple(np.array([g], dtype=np.int32) for g in grid)
        for v in values:
            v.flags.writeable = False
        if len(_GRID_VALUES) > 256:
            _GRID_VALUES.clear()
        _GRID_VALUES[grid] = values
    return values


_GRID_VALUES: dict = {}


def normalize_grid(grid) -> tuple[int, int, int]:
    """``(x,)``, ``(x, y)`` or ``(x, y, z)`` (or an int) -> ``(x, y, z)``, validated."""
    if isinstance(grid, (int, np.integer)):
        grid = (int(grid),)
    try:
        dims = [d for d in grid]
    except TypeError:
        raise GridError(f"grid must be a tuple of 1 to 3 integers, got {grid!r}") from None
    if not 1 <= len(dims) <= 3:
        raise GridError(f"grid must have 1 to 3 dimensions, got {len(dims)}")
    out = []
    for i, d in enumerate(dims):
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
            raise GridError(f"grid[{i}] must be an integer, got {d!r}")
        d = int(d)
        if d < 1:
            raise GridError(f"grid[{i}] must be at least 1, got {d}")
        if d > MAX_GRID:
            raise GridError(f"grid[{i}] exceeds the 24-bit limit: max={MAX_GRID}, got={d}; use "
                            "multiple kernel launches for larger workloads")
        out.append(d)
    while len(out) < 3:
        out.append(1)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Public helpers
# ---------------------------------------------------------------------------------------------

_CACHE: "weakref.WeakKeyDictionary[Operation, dict]" = weakref.WeakKeyDictionary()


def _as_module(module) -> Operation:
    if isinstance(module, Operation):
        return module
    if isinstance(module, str):
        from ..text import parse_module
        return parse_module(module, "<string>")
    raise ArgumentError(f"expected a module (from tileir.parse or tileir.load), got "
                        f"{type(module).__name__}")


def compile_kernel(module, kernel_name: str, *, verify: bool = True) -> Kernel:
    """Compile entry ``kernel_name`` of ``module`` into a reusable :class:`Kernel`."""
    return Kernel(_as_module(module), kernel_name, verify=verify)


def launch(module, kernel_name: str, grid=(1, 1, 1), args: Sequence = (), *,
           check_assumptions: bool = False, stdout=None, **options) -> LaunchInfo:
    """Compile (once per module object) and launch ``kernel_name`` over ``grid``."""
    mod = _as_module(module)
    kernels = _CACHE.setdefault(mod, {})
    kernel = kernels.get(kernel_name)
    if kernel is None:
        kernel = Kernel(mod, kernel_name)
        kernels[kernel_name] = kernel
    return kernel.launch(grid, args, check_assumptions=check_assumptions, stdout=stdout,
                         **options)

