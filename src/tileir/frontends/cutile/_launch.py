"""Compiling (through cuTile's ``export_kernel``), caching and launching cuTile kernels on the CPU.

One :class:`CompiledKernel` per kernel and signature: the ``KernelSignature`` built from the
launch arguments (see :mod:`._params`), the Tile IR bytecode cuTile exported for it, the module
tileir read from that bytecode and the compiled executor plan (:class:`tileir.execute.Kernel`).
They are cached in memory per kernel object (weakly: the cache goes away with the kernel).
"""

from __future__ import annotations

import io
import operator
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

import numpy as np

from ...execute.errors import ArgumentError, GridError, LaunchError, UnsupportedError
from ...execute.launch import DEFAULT_MMA
from ._cutile import require_cutile
from ._params import (ListSpec, TupleSpec, ArraySpec, ConstSpec, PreparedArray, classify,
                      parameter_nodes, spec_needs_v2)

__all__ = ["launch", "compile", "signature", "CompiledKernel", "clear_cache", "cache_info",
           "normalize_grid", "default_bytecode_version", "MAX_GRID"]

#: Largest extent of one grid axis (``ct.launch``: 24 bits).
MAX_GRID = (1 << 24) - 1


# ---------------------------------------------------------------------------------------------
# Grid
# ---------------------------------------------------------------------------------------------

def normalize_grid(grid) -> tuple[int, int, int]:
    """Check ``grid`` as ``cuda.tile.launch`` does (a tuple of at most 3 ints, each below 2**24)
    and pad it with 1s to ``(x, y, z)``."""
    if not isinstance(grid, tuple):
        raise ArgumentError(f"Grid must be a tuple, got {type(grid).__name__}")
    if len(grid) > 3:
        raise GridError(f"Grid dimensions must be at most 3, got length {len(grid)}")
    out = []
    for i, g in enumerate(grid):
        if isinstance(g, (bool, np.bool_)):
            raise ArgumentError(f"Grid[{i}] must be an int, got bool")
        try:
            g = operator.index(g)
        except TypeError:
            raise ArgumentError(f"Grid[{i}] must be an int, got {type(g).__name__}") from None
        if g < 1:
            raise GridError(f"Grid[{i}] must be at least 1, got={g}")
        if g > MAX_GRID:
            raise GridError(f"Grid[{i}] exceeds 24-bit limit: max={MAX_GRID}, got={g}. Use "
                            "multiple kernel launches for larger workloads.")
        out.append(g)
    while len(out) < 3:
        out.append(1)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Bytecode versions
# ---------------------------------------------------------------------------------------------

_DEFAULT_VERSION: Optional[str] = None


def default_bytecode_version() -> str:
    """The newest bytecode version that both cuTile can write without a target architecture
    (13.3+) and tileir can read."""
    global _DEFAULT_VERSION
    if _DEFAULT_VERSION is None:
        from ...bytecode import supported_versions
        ours = sorted((v for v in supported_versions() if (v.major, v.minor) >= (13, 3)),
                      reverse=True)
        candidates = [f"{v.major}.{v.minor}" for v in ours] or ["13.3"]
        chosen = candidates[0]
        try:
            from cuda.tile._compile import parse_bytecode_version  # cuTile's own version table
        except Exception:  # noqa: BLE001 - older/newer cuTile: let export_kernel decide
            parse_bytecode_version = None
        if parse_bytecode_version is not None:
            for c in candidates:
                try:
                    parse_bytecode_version(c)
                except Exception:  # noqa: BLE001
                    continue
                chosen = c
                break
        _DEFAULT_VERSION = chosen
    return _DEFAULT_VERSION


# ---------------------------------------------------------------------------------------------
# Compiled kernels and the cache
# ---------------------------------------------------------------------------------------------

@dataclass
class CompiledKernel:
    """One specialisation of a cuTile kernel: its signature, cuTile's bytecode, the tileir
    module read from it and the executor's compiled plan (``kernel``)."""

    name: str                 # the Python name of the kernel
    symbol: str               # the entry's (mangled) name
    signature: Any            # cuda.tile.compilation.KernelSignature
    specs: tuple              # one spec per Python parameter (tileir.cutile._params)
    bytecode: bytes
    bytecode_version: str
    module: Any               # cuda_tile.module
    kernel: Any               # tileir.execute.Kernel
    #: the Python parameters' names, one per spec (memory faults name arrays by them)
    names: tuple = ()
    launches: int = 0
    lock: Any = field(default_factory=threading.RLock, repr=False)

    def __repr__(self) -> str:
        return f"<tileir.cutile.CompiledKernel {self.symbol} ({self.bytecode_version})>"


class _KernelInfo:
    def __init__(self, names, nodes) -> None:
        self.names = names
        self.nodes = nodes
        self.specialisations: dict = {}


_CACHE: "weakref.WeakKeyDictionary[Any, _KernelInfo]" = weakref.WeakKeyDictionary()
_CACHE_LOCK = threading.RLock()
_STATS = {"hits": 0, "misses": 0}


def clear_cache() -> None:
    """Forget every compiled specialisation (bytecode, module and plan)."""
    with _CACHE_LOCK:
        _CACHE.clear()
        _STATS["hits"] = _STATS["misses"] = 0


def cache_info(kernel=None) -> dict:
    """``{"hits", "misses", "entries"}`` for all kernels, or ``entries`` / ``symbols`` of one."""
    with _CACHE_LOCK:
        if kernel is not None:
            info = _CACHE.get(kernel)
            entries = list(info.specialisations.values()) if info else []
            return {"entries": len(entries), "symbols": [c.symbol for c in entries]}
        return {"hits": _STATS["hits"], "misses": _STATS["misses"],
                "entries": sum(len(i.specialisations) for i in _CACHE.values())}


def _kernel_info(kernel, ct) -> _KernelInfo:
    info = _CACHE.get(kernel)
    if info is None:
        names, nodes = parameter_nodes(kernel, ct)
        info = _KernelInfo(names, nodes)
        _CACHE[kernel] = info
    return info


def _kernel_name(kernel) -> str:
    fn = getattr(kernel, "_pyfunc", None)
    return getattr(fn, "__name__", type(kernel).__name__)


def _check_kernel(kernel, ct) -> None:
    if not isinstance(kernel, ct.kernel):
        what = "a plain Python function" if callable(kernel) else type(kernel).__name__
        raise ArgumentError(f"tileir.cutile: expected a kernel decorated with @cuda.tile.kernel "
                            f"(ct.kernel), got {what}")


def _bind(kernel, args, ct):
    """Check the arguments and classify each: ``(info, specs, payloads)``."""
    _check_kernel(kernel, ct)
    if not isinstance(args, (tuple, list)):
        raise ArgumentError(f"kernel arguments must be a tuple (or list), got "
                            f"{type(args).__name__}")
    with _CACHE_LOCK:
        info = _kernel_info(kernel, ct)
    name = _kernel_name(kernel)
    if len(args) != len(info.names):
        raise ArgumentError(f"Wrong number of arguments to kernel '{name}': expected "
                            f"{len(info.names)} ({', '.join(info.names)}), got {len(args)}")
    specs, payloads = [], []
    for i, (pname, node, value) in enumerate(zip(info.names, info.nodes, args)):
        spec, payload = classify(node, value, f"argument #{i} '{pname}' of kernel '{name}'")
        specs.append(spec)
        payloads.append(payload)
    return info, tuple(specs), payloads


def _signature(specs, ct):
    from cuda.tile.compilation import CallingConvention, KernelSignature
    v2 = any(spec_needs_v2(s) for s in specs)
    cconv = CallingConvention.cutile_python_v2() if v2 else CallingConvention.cutile_python_v1()
    return KernelSignature([s.constraint(ct) for s in specs], cconv)


def _entry_names(module) -> list[str]:
    return [op.sym_name for op in module.walk() if op.name == "cuda_tile.entry"]


def _build(kernel, specs, names, version: str, ct) -> CompiledKernel:
    from cuda.tile.compilation import export_kernel
    from ...bytecode import BytecodeError, read_bytecode
    from ...ir.diagnostics import DiagnosticError
    from ...execute import compile_kernel

    name = _kernel_name(kernel)
    sig = _signature(specs, ct)
    buf = io.BytesIO()
    export_kernel(kernel, [sig], buf, output_format="tileir_bytecode", bytecode_version=version)
    data = buf.getvalue()
    try:
        module = read_bytecode(data)
    except BytecodeError as exc:
        raise UnsupportedError(f"tileir cannot read the Tile IR bytecode ({version}) that cuTile "
                               f"exported for kernel '{name}': {exc}") from exc
    entries = _entry_names(module)
    if len(entries) != 1:
        raise LaunchError(f"cuTile exported {len(entries)} entries for kernel '{name}' "
                          "(expected 1)")
    try:
        compiled = compile_kernel(module, entries[0])
    except UnsupportedError as exc:
        raise UnsupportedError(f"kernel '{name}' uses a feature tileir cannot run yet: "
                               f"{exc.message}", op=exc.op, loc=exc.loc) from exc
    except DiagnosticError as exc:
        raise LaunchError(f"the Tile IR that cuTile exported for kernel '{name}' does not "
                          "verify (NVIDIA's tileiras checks the same rules, so this kernel may "
                          "not compile for a GPU either; if tileiras accepts it, please report "
                          f"a tileir bug):\n{exc}") from exc
    _name_buffers(compiled, specs, names)
    return CompiledKernel(name, entries[0], sig, tuple(specs), data, version, module, compiled,
                          tuple(names))


def _name_buffers(kernel, specs, names) -> None:
    """Name the memory of each array parameter of the entry after the Python parameter it
    comes from (``y``, ``pairs[1][0]``), so that a fault names what the user wrote, not the
    entry's flattened ``argument #N``."""
    index = 0
    for spec, _, label in _leaves(specs, [None] * len(specs), names):
        if isinstance(spec, ArraySpec):
            kernel.params[index].buffer_name = label
        index += _entry_params(spec)


def _leaves(specs, payloads, labels) -> list[tuple]:
    """The arguments' leaves -- arrays, lists of arrays and scalars, tuples opened, constants
    (which the entry does not take) left out -- as ``(spec, payload, label)`` in the order of
    the entry's parameters (the calling convention); ``label`` names the leaf as the Python
    caller wrote it (``pairs[1][0]``).  ``payloads`` may be Nones (names only)."""
    leaves: list[tuple] = []

    def walk(spec, payload, label: str) -> None:
        if isinstance(spec, ConstSpec):
            return
        if isinstance(spec, TupleSpec):
            for k, item in enumerate(spec.items):
                walk(item, None if payload is None else payload[k], f"{label}[{k}]")
            return
        leaves.append((spec, payload, label))

    for spec, payload, label in zip(specs, payloads, labels):
        walk(spec, payload, label)
    return leaves


def _entry_params(spec) -> int:
    """How many entry parameters one leaf (:func:`_leaves`) takes: an array its data pointer,
    shape and strides; a list of arrays its table and length; a scalar one."""
    if isinstance(spec, ArraySpec):
        return 1 + 2 * spec.ndim
    return 2 if isinstance(spec, ListSpec) else 1


def _compiled(kernel, info: _KernelInfo, specs, version: str, ct) -> CompiledKernel:
    key = (version,) + tuple(s.key for s in specs)
    with _CACHE_LOCK:
        hit = info.specialisations.get(key)
        if hit is not None:
            _STATS["hits"] += 1
            return hit
        _STATS["misses"] += 1
        compiled = _build(kernel, specs, info.names, version, ct)
        info.specialisations[key] = compiled
        return compiled


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------

def signature(kernel, args: Sequence):
    """The ``cuda.tile.compilation.KernelSignature`` that :func:`launch` compiles ``kernel``
    for when called with ``args``."""
    ct = require_cutile()
    _, specs, _ = _bind(kernel, args, ct)
    return _signature(specs, ct)


def compile(kernel, args: Sequence, *, bytecode_version: Optional[str] = None  # noqa: A001
            ) -> CompiledKernel:
    """Compile (or fetch from the cache) the specialisation of ``kernel`` for ``args``: cuTile
    exports its bytecode, tileir reads it and compiles the plan.  Nothing runs."""
    ct = require_cutile()
    info, specs, _ = _bind(kernel, args, ct)
    return _compiled(kernel, info, specs, bytecode_version or default_bytecode_version(), ct)


def launch(kernel, grid, args: Sequence, *, bytecode_version: Optional[str] = None,
           check_assumptions: bool = False, stdout=None, batch: bool = True,
           max_loop_iterations: Optional[int] = 10_000_000, progress=None,
           mma: str = DEFAULT_MMA, threads: Optional[int] = None,
           max_memory: Optional[int] = None):
    """Run a ``@cuda.tile.kernel`` on the CPU, as ``cuda.tile.launch(stream, grid, kernel, args)``
    would on a GPU.

    ``grid``: a tuple of 1 to 3 ints, each below 2**24 (one tile block per grid point).
    ``args``: one per kernel parameter: CPU arrays (NumPy arrays, PyTorch CPU tensors or anything
    with DLPack / ``__array__``; strided views work and results are written in place), lists of
    arrays, Python/NumPy scalars, tuples of those, and the values of ``ct.Constant`` parameters.

    The kernel is compiled once per signature (dtype, rank and layout facts of each array, scalar
    types, constant values) by cuTile's ``export_kernel`` and tileir's plan compiler, then cached.
    ``check_assumptions=True`` checks every ``assume`` the compiled kernel makes; ``stdout``
    receives ``ct.printf``/``ct.print`` output (default ``sys.stdout``); ``batch=False`` runs the
    tile blocks one at a time; ``progress`` shows a progress line for long launches on a
    terminal (see :meth:`tileir.execute.Kernel.launch`; Ctrl-C raises
    :class:`tileir.execute.LaunchInterrupted`).  Returns the executor's
    :class:`tileir.execute.LaunchInfo`.  ``mma="fast"`` (the default) computes ``ct.mma`` in f32
    through BLAS, ``mma="exact"`` exactly (see ``tileir.execute.Kernel.launch``); ``threads`` and ``max_memory`` bound the threads and the memory of a
    lock-step launch (see ``tileir.execute.Kernel.launch``).
    """
    ct = require_cutile()
    grid = normalize_grid(grid)
    info, specs, payloads = _bind(kernel, args, ct)
    compiled = _compiled(kernel, info, specs, bytecode_version or default_bytecode_version(), ct)
    return _run(compiled, grid, specs, payloads, check_assumptions=check_assumptions,
                stdout=stdout, batch=batch, max_loop_iterations=max_loop_iterations,
                progress=progress, mma=mma, threads=threads,
                **({} if max_memory is None else {"max_memory": max_memory}))


# ---------------------------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------------------------

class _Frame:
    """What one launch mapped itself (list elements) and must undo or write back."""

    def __init__(self, memory) -> None:
        self.memory = memory
        self.mark = memory.mark()
        self.prepared: list[PreparedArray] = []


def _flatten(spec, payload, frame: _Frame, out: list, label: str) -> None:
    """Append the entry arguments of one leaf (:func:`_leaves`) to ``out``."""
    if isinstance(spec, ArraySpec):
        prep: PreparedArray = payload
        frame.prepared.append(prep)
        out.append(prep.data)
        out.extend(prep.shape)
        out.extend(prep.strides)
        return
    if isinstance(spec, ListSpec):
        rows = []
        for i, prep in enumerate(payload):
            frame.prepared.append(prep)
            data = prep.data.reshape(-1)
            buf = frame.memory.map(data.view(np.uint8) if data.size else
                                   np.empty(0, dtype=np.uint8),
                                   f"{label}[{i}]", bool(data.flags.writeable),
                                   host_dtype=data.dtype)
            rows.append([buf.base, *prep.shape, *prep.strides])
        out.append(np.array(rows, dtype=np.int64).reshape(-1))
        out.append(len(payload))
        return
    out.append(payload)   # scalar


def _run(compiled: CompiledKernel, grid, specs, payloads, **options):
    with compiled.lock:
        frame = _Frame(compiled.kernel.memory)
        try:
            flat: list = []
            for spec, payload, label in _leaves(specs, payloads, compiled.names):
                _flatten(spec, payload, frame, flat, label)
            if len(flat) != len(compiled.kernel.params):
                raise LaunchError(f"internal error: {len(flat)} entry arguments for "
                                  f"'{compiled.symbol}', which takes "
                                  f"{len(compiled.kernel.params)} (calling convention "
                                  f"{compiled.signature.calling_convention.name})")
            result = compiled.kernel.launch(grid, flat, **options)
            compiled.launches += 1
            return result
        finally:
            frame.memory.release(frame.mark)
            for prep in frame.prepared:
                prep.finish()
