"""Launching a kernel as compiled C (:mod:`.codegen`), falling back to the lane engine.

:func:`try_launch` runs a launch natively when the backend allows it and the kernel and its
arguments qualify, and returns whether it did.  Blocks are split between worker threads (the C
code runs without the GIL); blocks do not synchronise, so any split is a legal schedule.  When the
C code meets undefined behaviour (an index out of bounds, a division by zero...), the memory it
wrote is restored from a snapshot taken before the launch, and the caller runs the lane engine,
which reports the error exactly as it always does.
"""

from __future__ import annotations

import ctypes
import os
import struct
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ....ir.core import Operation, Value
from ...errors import ArgumentError, UnsupportedError
from ..lanes import Aff
from ..memory import MemRef
from ...numerics.dtypes import numpy_dtype as storage_of
from ... import cbuild as build
from .codegen import KernelSource, NotNative, generate, generate_launch_body

__all__ = ["BACKENDS", "try_launch", "try_launch_body", "STATS", "resolve_backend"]

#: ``backend=`` values: ``"auto"`` compiles launches of at least :data:`AUTO_MIN_THREADS`
#: threads whose kernels qualify and have a loop or a barrier (the lane engine runs the rest:
#: on straight-line kernels it is already near NumPy's speed); ``"native"`` compiles every
#: launch whose kernel qualifies and refuses the others; ``"lanes"`` never compiles
BACKENDS = ("auto", "native", "lanes")
#: the smallest launch ``"auto"`` compiles: below it the lane engine is already quick, and a
#: compilation (0.1-0.5 s, once per kernel and machine) would not pay
#: (``$TILEIR_NATIVE_MIN_THREADS`` overrides it: 0 compiles every launch that qualifies, with
#: or without loops: the whole test suite runs that way to compare the two backends)
AUTO_MIN_THREADS = int(os.environ.get("TILEIR_NATIVE_MIN_THREADS", 1 << 15))
#: launches run natively / fallen back to the lane engine after undefined behaviour
STATS = {"native": 0, "fallback": 0}

_pool: list = []
_local = threading.local()


def resolve_backend(backend: Optional[str]) -> str:
    """``backend`` checked, or the default (``$TILEIR_SIMT_BACKEND``, else ``"auto"``)."""
    if backend is None:
        backend = os.environ.get("TILEIR_SIMT_BACKEND", "auto")
    if backend not in BACKENDS:
        raise ArgumentError(f"backend {backend!r}: expected one of "
                            f"{', '.join(repr(b) for b in BACKENDS)}")
    return backend


def _workers() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def _executor() -> ThreadPoolExecutor:
    """The worker threads (made anew in a forked child, which has none of its parent's)."""
    if not _pool or _pool[0][0] != os.getpid():
        _pool[:] = [(os.getpid(), ThreadPoolExecutor(_workers(),
                                                     thread_name_prefix="tileir-native"))]
    return _pool[0][1]


def _unit_strides(args: Sequence[Any]) -> tuple[bool, ...]:
    out = []
    for a in args:
        out.append(isinstance(a, MemRef) and bool(a.strides) and
                   isinstance(a.strides[-1], (int, np.integer)) and int(a.strides[-1]) == 1)
    return tuple(out)


def _has_loop_or_barrier(kernel: Operation, cache: dict) -> bool:
    key = ("native: loop or barrier", kernel)
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = any(o.name in ("gpu.barrier", "scf.for", "scf.while")
                                for o in kernel.walk())
    return hit


def _plan(key_op: Operation, block: tuple, unit: tuple, cache: dict,
          translate: Callable[[tuple], KernelSource]):
    """The translation of ``key_op``'s kernel (``translate(unit_strides)``) or the reason it
    cannot be, kept in the program's ``cache``."""
    key = ("native plan", key_op, block, unit)
    hit = cache.get(key)
    if hit is None:
        try:
            hit = (translate(unit), None)
        except NotNative as e:
            hit = (None, str(e))
        cache[key] = hit
    return hit


def _refuse(backend: str, why: str) -> bool:
    if backend == "native":
        raise UnsupportedError(f"backend='native': {why}")
    return False


def try_launch(kernel: Operation, geo: Any, args: Sequence[Any], n_in: int, n_wg: int,
               backend: str, racecheck: bool, cache: dict) -> bool:
    """Run the launch of the ``gpu.func`` ``kernel`` over ``geo`` with runtime values
    ``args`` as C (``cache``: the program's compiler cache, which keeps the translations);
    False when the lane engine should run it instead (``backend="native"`` raises
    :class:`UnsupportedError` for a kernel or launch that cannot run natively)."""
    return _launch(kernel, geo, args, backend, racecheck, cache,
                   lambda unit: generate(kernel.regions[0], n_in, n_wg, geo.block, unit))


def try_launch_body(op: Operation, geo: Any, captures: Sequence[Value], args: Sequence[Any],
                    n_wg: int, backend: str, racecheck: bool, cache: dict) -> bool:
    """:func:`try_launch` for a ``gpu.launch`` op: its body uses ``captures`` (values from
    outside it), whose runtime values are ``args``."""
    if op.operand_group("clusterSizeX"):
        return _refuse(backend, "clusters need the lane engine")
    return _launch(op, geo, args, backend, racecheck, cache,
                   lambda unit: generate_launch_body(op.regions[0], list(captures), n_wg,
                                                     geo.block, unit))


def _launch(key_op: Operation, geo: Any, args: Sequence[Any], backend: str, racecheck: bool,
            cache: dict, translate: Callable[[tuple], KernelSource]) -> bool:
    if backend == "lanes":
        return False
    if racecheck:
        return _refuse(backend, "racecheck needs the lane engine")
    if geo.cluster is not None:
        return _refuse(backend, "clusters need the lane engine")
    n_blocks = geo.grid[0] * geo.grid[1] * geo.grid[2]
    if backend == "auto" and AUTO_MIN_THREADS and (n_blocks * geo.threads < AUTO_MIN_THREADS or
                                                   not _has_loop_or_barrier(key_op, cache)):
        return False
    if build.compiler() is None:
        return _refuse(backend, "no C compiler (set CC, or install cc/gcc/clang)")
    src, why = _plan(key_op, geo.block, _unit_strides(args), cache, translate)
    if src is None:
        return _refuse(backend, f"the kernel cannot be compiled: {why}")
    params = _parameters(src, geo, args)
    if isinstance(params, str):
        return _refuse(backend, params)
    try:
        lib = build.load(src.text)
    except build.NativeBuildError as e:
        return _refuse(backend, str(e))
    restore = _snapshot(src, args)
    if not _run(lib, src, params, n_blocks):
        for buf, saved in restore:
            np.copyto(buf.data, saved)
        STATS["fallback"] += 1
        return False
    STATS["native"] += 1
    return True


def _bits(value: Any, elem: str) -> int:
    """A uniform scalar's bits as the int64 the C code reads (an affine host value, such as
    a constant captured by a ``gpu.launch`` body, when it is a constant)."""
    if type(value) is Aff:
        if not value.is_constant:
            raise ValueError("not a uniform scalar")
        value = value.const
    arr = np.asarray(value).reshape(-1)
    if arr.size != 1:
        raise ValueError("not a uniform scalar")
    x = arr[0]
    if elem == "f32":
        return struct.unpack("<I", struct.pack("<f", float(x)))[0]
    if elem == "f64":
        return struct.unpack("<q", struct.pack("<d", float(x)))[0]
    if elem in ("f16", "bf16"):
        return int(np.asarray(x).astype(storage_of(elem)).view(np.uint16))
    v = int(x)
    return v - (1 << 64) if v >= 1 << 63 else v


def _parameters(src: KernelSource, geo: Any, args: Sequence[Any]):
    """The int64 parameter array of a launch, or the reason the arguments need the lane
    engine (memory freed, still being written by an async op, read-only where written, a
    descriptor reaching outside its buffer...)."""
    values = [geo.grid[0], geo.grid[1], geo.grid[2]]
    for i, (spec, a) in enumerate(zip(src.params, args)):
        if spec.kind == "scalar":
            try:
                values.append(_bits(a, spec.elem))
            except (TypeError, ValueError):
                return f"argument #{i} is not a scalar"
            continue
        if not isinstance(a, MemRef):
            return f"argument #{i} is not a memref"
        buf = a.buffer
        if buf.freed or buf.pending is not None or buf.layout is not None:
            return f"argument #{i}'s memory needs the lane engine's checks"
        fields = (a.offset,) + tuple(a.sizes) + tuple(a.strides)
        if not all(isinstance(f, (int, np.integer)) for f in fields):
            return f"argument #{i} has per-lane sizes"
        data = buf.data
        if i in src.writes and (buf.read_only or not data.flags.writeable):
            return f"argument #{i} is written but read-only"
        if data.ndim != 1 or data.strides != (data.itemsize,) or \
                (data.size and not data.flags.c_contiguous):
            return f"argument #{i}'s buffer is not contiguous"
        offset, sizes, strides = int(a.offset), [int(s) for s in a.sizes], \
            [int(s) for s in a.strides]
        if spec.unit_stride and strides and strides[-1] != 1:
            return f"argument #{i}'s innermost stride changed"
        if all(s > 0 for s in sizes):
            lo = offset + sum(min(0, (n - 1) * s) for n, s in zip(sizes, strides))
            hi = offset + sum(max(0, (n - 1) * s) for n, s in zip(sizes, strides))
            if lo < 0 or hi >= data.size:
                return f"argument #{i}'s descriptor reaches outside its buffer"
        base = data.ctypes.data + offset * data.itemsize if data.size else 0
        values.append(base)
        values.extend(sizes)
        values.extend(strides)
    return np.array(values, dtype=np.int64)


def _snapshot(src: KernelSource, args: Sequence[Any]) -> list:
    """Copies of the buffers the kernel writes: after undefined behaviour they are put back,
    so that the lane engine's rerun starts from the launch's inputs and leaves what it alone
    would leave (its stores up to the fault, none of the C code's)."""
    out = []
    seen: set = set()
    for i in sorted(src.writes):
        buf = args[i].buffer
        if buf.ident not in seen:
            seen.add(buf.ident)
            out.append((buf, buf.data.copy()))
    return out


def _scratch(nbytes: int) -> np.ndarray:
    """This thread's scratch array of at least ``nbytes`` bytes."""
    arr = getattr(_local, "scratch", None)
    if arr is None or arr.size < nbytes:
        arr = np.empty(max(nbytes, 1 << 16), np.uint8)
        _local.scratch = arr
    return arr


def _run(lib: ctypes.CDLL, src: KernelSource, params: np.ndarray, n_blocks: int) -> bool:
    """Run every block; False when a block met undefined behaviour."""
    fn = lib.tileir_kernel
    if fn.restype is not ctypes.c_int64:
        fn.restype = ctypes.c_int64
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                       ctypes.c_void_p]
    p = params.ctypes.data

    def blocks(b0: int, b1: int) -> bool:
        scratch = _scratch(src.scratch_bytes)
        err = np.zeros(1, np.int64)     # (the kind of undefined behaviour met: c_types.ERR_*)
        return fn(p, scratch.ctypes.data, b0, b1, err.ctypes.data) == 0
    workers = _workers()
    if workers == 1 or n_blocks < 2 * workers:
        return blocks(0, n_blocks)
    step = -(-n_blocks // workers)
    futures = [_executor().submit(blocks, b, min(b + step, n_blocks))
               for b in range(0, n_blocks, step)]
    ok = [f.result() for f in futures]
    return all(ok)
