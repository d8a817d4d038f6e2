"""The CPU executor: runs Tile IR entries on NumPy arrays with the spec's semantics.

::

    kernel = tileir.compile(module, "vector_add")        # plan compiled once
    kernel.launch((n_blocks,), [a, b, c])                  # or tileir.launch(module, name, ...)

Layout (mirrors the spec): :mod:`.memory` is the simulated global address space, :mod:`.plan`
the plan compiler, :mod:`.launch` grids, argument binding and batching, :mod:`.semantics` the
per-chapter op semantics, :mod:`.numerics` the bit-exact arithmetic, :mod:`.printf` C printf
formatting and :mod:`.errors` the :class:`LaunchError` hierarchy.

Choices where the spec leaves the result open (each documented at its op):

* **Order of execution.**  Tile blocks run in CUDA order (x fastest).  Many blocks run in
  lock step (each op for all of them, atomics one transaction per element in block order) --
  a legal interleaving; racy kernels see one of the legal outcomes.  Where their control flow
  diverges the lanes split (:mod:`.lanes`), chunks of blocks may run on several threads
  (kernels without atomics), and a load may return a read-only view of memory no store writes
  (:mod:`.aliasing`).  ``print_tko`` and divergence around spin loops (atomics or ordered
  loads) make blocks run one at a time; ``alloca`` and atomics keep a batch on one thread.  A block that spins in a ``loop`` (1024
  iterations without ``break``) lets a block that has not started yet run inside its loop, so
  blocks waiting for a later block's store finish (up to 512 waiting blocks nest).
* **reduce**: balanced pairwise tree, lower index as the first argument of each pair; the
  identity is not applied.  **scan**: Hillis-Steele prefix, ``(current, accumulator)``.
* **mmaf/mmaf_scaled**: by default (``launch(mma="fast")``) ``mmaf`` sums in f32 through
  BLAS, a K loop of ``mmaf`` as one product; ``launch(mma="exact")`` sums exact products with
  ``acc`` in f64, rounded once to the accumulator type (tf32 operands are first rounded to
  tf32; ``mmaf_scaled`` is always computed this way); operands loaded
  with zero padding are multiplied by their loaded part only (:mod:`.semantics.padded_mma`);
  **mmai** exact, wraps mod 2**32.
* **Unspecified values**: a view without ``padding_value`` pads with 0; a masked load without
  ``paddingValue`` gives 0; a masked-out ``atomic_rmw_tko`` element returns 0 (CAS: ``cmp``).
* **Undefined behaviour the executor reports** (:class:`UndefinedBehaviorError`): an index
  outside a partition/strided view's index space, ``extract``/``insert`` indices out of range,
  a ``for`` step <= 0, a ``loop`` running past ``max_loop_iterations``.  Integer cases
  (division by zero, ``INT_MIN / -1``, over-wide shifts, ``ftoi`` of Inf) follow
  :mod:`.numerics.intops`/:mod:`.numerics.convert`.  ``for`` runs ``ceil((ub - lb) / step)``
  iterations: its induction variable never wraps around.
* **Memory**: one storage element per IR element (i1 one byte; ``ptr<i4>``/``ptr<f4>`` step one
  byte per element); buffers 256-byte aligned with unmapped guards; misaligned accesses and
  stores to read-only arrays or ``constant`` globals are errors; globals live as long as the
  module object (shared by its kernels, kept across launches); ``alloca`` memory is zeroed,
  one allocation per tile block (a batch's lie one guard apart in one buffer, each checked on
  its own), and freed when the tile block (or its batch) ends.
* **assert** stops the launch at the first failing execution, listing every failing block of
  the batch and their element indices.  **print_tko** prints a tile as a nested list with each
  element formatted by the conversion (unsigned conversions at the element's own width).
"""

from .errors import (ArgumentError, AssertionFailure, AssumptionViolation, GridError,
                     LaunchError, MemoryAccessError, UndefinedBehaviorError, UnsupportedError)
from .launch import Kernel, LaunchInfo, compile_kernel, launch, normalize_grid
from .progress import LaunchInterrupted

__all__ = ["Kernel", "LaunchInfo", "compile_kernel", "launch", "normalize_grid", "LaunchError",
           "ArgumentError", "GridError", "MemoryAccessError", "AssertionFailure",
           "AssumptionViolation", "UndefinedBehaviorError", "UnsupportedError",
           "LaunchInterrupted"]
