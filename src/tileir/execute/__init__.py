"""The CPU executor: runs Tile IR entries on NumPy arrays with the spec's semantics.

::

    kernel = tileir.compile(module, "vector_add")        # plan compiled once
    kernel.launch((n_blocks,), [a, b, c])                  # or tileir.launch(module, name, ...)

Layout (mirrors the spec): :mod:`.memory` is the simulated global address space, :mod:`.plan`
the plan compiler, :mod:`.launch` grids, argument binding and batching, :mod:`.semantics` the
per-chapter op semantics, :mod:`.numerics` the bit-exact arithmetic, :mod:`.printf` C printf
formatting and :mod:`.errors` the :class:`LaunchError` hierarchy.
"""

from .errors import (ArgumentError, AssertionFailure, AssumptionViolation, GridError,
                     LaunchError, MemoryAccessError, UndefinedBehaviorError, UnsupportedError)
from .launch import Kernel, LaunchInfo, compile_kernel, launch, normalize_grid

__all__ = ["Kernel", "LaunchInfo", "compile_kernel", "launch", "normalize_grid", "LaunchError",
           "ArgumentError", "GridError", "MemoryAccessError", "AssertionFailure",
           "AssumptionViolation", "UndefinedBehaviorError", "UnsupportedError"]
