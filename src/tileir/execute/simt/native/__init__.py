"""The native backend of the SIMT engine: kernels compiled to C, run block by block.

See :mod:`.codegen` (which kernels qualify and how they are translated),
:mod:`tileir.execute.cbuild` (the C compiler and the cache) and :mod:`.launcher` (arguments,
worker threads, the fallback to the lane engine on undefined behaviour).
"""

from .launcher import BACKENDS, STATS, resolve_backend, try_launch, try_launch_body

__all__ = ["BACKENDS", "STATS", "resolve_backend", "try_launch", "try_launch_body"]
