"""The MLIR gpu dialect on the CPU: host runtime and SIMT kernels, threads as array lanes.

::

    from tileir import gpu
    results = gpu.run(module, "main", args=[a, b, c, n])          # call a host func.func
    gpu.launch(module, "kernels::vadd", grid=(4096,), block=(256,), args=[a, b, c, n])

Design (see :mod:`.lanes`, :mod:`.interp`, :mod:`.kernel`): every thread of a launch is a lane
of NumPy arrays (all blocks at once, or chunks of blocks); divergent control flow runs under lane
subsets and reconverges; memory is checked (:mod:`.memory`); ``racecheck=True`` reports
unsynchronised conflicting accesses of one block's threads.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

from ..errors import ArgumentError
from . import ops as _ops  # noqa: F401  (registers the lowerings)
from .runtime import ASYNC_ORDERS
from .host import HostExecutor, Program, bind_argument, lookup_kernel, to_python
from .kernel import (COLUMN_MAJOR, MATRIX_LAYOUTS, DataRaceError, Geometry, MAX_LANES,
                     SUBGROUP_SIZE)

__all__ = ["run", "launch", "Program", "DataRaceError", "SUBGROUP_SIZE", "MATRIX_LAYOUTS"]


def _program(module: Any, verify: bool = True) -> Program:
    if isinstance(module, Program):
        return module
    if not hasattr(module, "regions"):
        raise ArgumentError(f"expected a parsed module or a Program, got {type(module).__name__} "
                            "(parse text with tileir.parse, or use tileir.gpu.run which does)")
    return Program(module, verify=verify)


def _arguments(args: Any) -> list:
    """``args`` as a list (a sequence of arguments is expected; anything else is an
    :class:`ArgumentError`)."""
    if isinstance(args, (str, bytes, dict)) or not hasattr(args, "__len__") or \
            not hasattr(args, "__getitem__"):
        raise ArgumentError(f"args must be a list or tuple of arguments, got "
                            f"{type(args).__name__}")
    return list(args)


def _host(program: Program, matrix_layout: str, async_order: str = "dependencies",
          **options: Any) -> HostExecutor:
    """The host executor of one run; ``matrix_layout`` and ``async_order`` are checked here."""
    if matrix_layout not in MATRIX_LAYOUTS:
        raise ArgumentError(f"matrix_layout {matrix_layout!r}: expected one of "
                            f"{', '.join(repr(m) for m in MATRIX_LAYOUTS)}")
    if async_order not in ASYNC_ORDERS:
        raise ArgumentError(f"async_order {async_order!r}: expected one of "
                            f"{', '.join(repr(m) for m in ASYNC_ORDERS)}")
    return HostExecutor(program, matrix_layout=matrix_layout,
                        streams=async_order == "streams", **options)


def run(module: Any, func: str, args: Sequence[Any] = (), *, stdout: Optional[Any] = None,
        racecheck: bool = False, max_lanes: int = MAX_LANES,
        matrix_layout: str = COLUMN_MAJOR, verify: bool = True,
        async_order: str = "dependencies", backend: Optional[str] = None) -> list:
    """Call the host ``func.func`` ``func`` of ``module`` (IR, text or a :class:`Program`) with
    ``args`` (NumPy arrays for memrefs, written in place; numbers for scalars) and return its
    results (memrefs as NumPy arrays).  ``gpu.printf`` output goes to ``stdout`` (default
    ``sys.stdout``).  ``matrix_layout`` (``"column-major"``, LLVM's default, or
    ``"row-major"``) is how LLVM's matrix intrinsics read the matrices of flat vectors.
    A module is verified first unless ``verify=False`` (a :class:`Program` was, when made).
    ``async_order``: ``"dependencies"`` (default) orders async ops by their dependency lists
    only, as the dialect defines them, and reports a use that relies on anything else;
    ``"streams"`` also orders them as MLIR's CUDA lowering places them on streams (an op with
    one dependency runs after every op issued before on that dependency's stream, and
    ``gpu.wait`` on a token waits for its whole stream)."""
    program = _program(module, verify)
    f = program.funcs.get(func.lstrip("@"))
    if f is None:
        known = ", ".join(sorted(program.funcs)) or "none"
        raise ArgumentError(f"no func.func '@{func.lstrip('@')}' in the module (functions: "
                            f"{known})")
    ex = _host(program, matrix_layout, async_order, racecheck=racecheck, stdout=stdout,
               max_lanes=max_lanes, backend=backend)
    ftype = f.attributes["function_type"].value
    args = _arguments(args)
    if len(args) != len(ftype.inputs):
        raise ArgumentError(f"'@{func.lstrip('@')}' takes {len(ftype.inputs)} arguments, got "
                            f"{len(args)}")
    values = [bind_argument(a, t, f"argument #{i}", ex.root)
              for i, (a, t) in enumerate(zip(args, ftype.inputs))]
    out = ex.call(f, values)
    ex.finish()
    from .faults import LaneFault
    from .memory import MemRef
    from .runtime import check_host_access, check_returned_argument
    try:
        for v in out:
            if isinstance(v, MemRef):
                check_host_access(v, f)
        for i, v in enumerate(values):
            if isinstance(v, MemRef):
                check_returned_argument(v, f"argument #{i}", func.lstrip("@"))
    except LaneFault as fault:  # -> LaunchError naming the function
        raise ex.fault_error(f, ex.root, fault) from None
    return [to_python(v, t) for v, t in zip(out, ftype.results)]


def launch(module: Any, kernel: str, grid: Any = (1,), block: Any = (1,),
           args: Sequence[Any] = (), *, dynamic_shared_memory: int = 0,
           cluster: Optional[Any] = None, stdout: Optional[Any] = None, racecheck: bool = False,
           max_lanes: int = MAX_LANES, matrix_layout: str = COLUMN_MAJOR,
           verify: bool = True, async_order: str = "dependencies",
           backend: Optional[str] = None) -> None:
    """Launch the ``gpu.func`` ``kernel`` (``"module::func"``) of ``module`` directly over
    ``grid`` x ``block`` threads with ``args`` (``matrix_layout``, ``verify``, ``async_order``
    and ``backend`` as for :func:`run`)."""
    program = _program(module, verify)
    k = lookup_kernel(program, kernel)
    ex = _host(program, matrix_layout, async_order, racecheck=racecheck, stdout=stdout,
               max_lanes=max_lanes, backend=backend)
    ftype = k.attributes["function_type"].value
    args = _arguments(args)
    if len(args) != len(ftype.inputs):
        raise ArgumentError(f"kernel '{kernel}' takes {len(ftype.inputs)} arguments, got "
                            f"{len(args)}")
    values = [bind_argument(a, t, f"argument #{i}", ex.root)
              for i, (a, t) in enumerate(zip(args, ftype.inputs))]
    geo = Geometry(grid, block, cluster, dynamic_shared_memory)
    ex.launch(k, geo, values)

