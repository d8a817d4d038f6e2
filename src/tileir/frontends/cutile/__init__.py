"""Run NVIDIA cuTile Python kernels on the CPU, unchanged.

::

    import numpy as np
    import cuda.tile as ct
    import tileir.cutile

    @ct.kernel
    def vector_add(a, b, c, TILE: ct.Constant[int]):
        bid = ct.bid(0)
        ta = ct.load(a, index=(bid,), shape=(TILE,))
        tb = ct.load(b, index=(bid,), shape=(TILE,))
        ct.store(c, index=(bid,), tile=ta + tb)

    a, b = np.random.rand(2, 1000).astype(np.float32)
    c = np.empty_like(a)
    tileir.cutile.launch(vector_add, (ct.cdiv(1000, 128),), (a, b, c, 128))   # c = a + b

:func:`launch` mirrors ``cuda.tile.launch(stream, grid, kernel, args)`` without the stream: it
builds the kernel signature from the arguments the way cuTile's JIT does, has cuTile's own
``cuda.tile.compilation.export_kernel`` produce Tile IR bytecode for it (no GPU needed), reads
that with tileir, compiles the executor plan (both cached per signature), expands every argument
per the calling convention ``cutile_python_v1`` (array -> pointer, shapes, strides in elements)
and runs the grid on the CPU with tileir's executor.  Results land in the caller's arrays.

Needs the ``cuda-tile`` package: ``pip install -e ".[cutile]"`` in the tileir checkout.
"""

from __future__ import annotations

from ._cutile import INSTALL_HINT, CutileNotInstalledError, require_cutile
from ._launch import (MAX_GRID, CompiledKernel, cache_info, clear_cache, compile,
                      default_bytecode_version, launch, normalize_grid, signature)
from ._params import ArgumentOverflowError

__all__ = ["launch", "compile", "signature", "CompiledKernel", "cache_info", "clear_cache",
           "normalize_grid", "default_bytecode_version", "available", "require_cutile",
           "CutileNotInstalledError", "ArgumentOverflowError", "INSTALL_HINT", "MAX_GRID"]


def available() -> bool:
    """Whether cuTile Python (``cuda.tile``) can be imported."""
    try:
        require_cutile()
    except CutileNotInstalledError:
        return False
    return True
