"""Run MLIR gpu dialect programs on the CPU: ``tileir.gpu.run`` and ``tileir.gpu.launch``.

``module`` is a parsed module (``tileir.parse``), MLIR text, or a :class:`Program` (a module
prepared once, for repeated runs).  See :mod:`tileir.execute.simt` for the engine and the README
for the conventions (subgroup size 32, lane numbering, shuffle validity, sparse ops).
"""

from __future__ import annotations

from typing import Any

from .execute import simt as _simt
from .execute.simt import DataRaceError, Program
from .execute.simt.native import BACKENDS

__all__ = ["run", "launch", "Program", "DataRaceError", "BACKENDS"]


def _module(module: Any) -> Any:
    if isinstance(module, str):
        from . import parse
        return parse(module)
    return module


def run(module: Any, func: str, args=(), **options) -> list:
    """Call the host ``func.func`` ``func``; see :func:`tileir.execute.simt.run`."""
    return _simt.run(_module(module), func, args, **options)


def launch(module: Any, kernel: str, grid: Any = (1,), block: Any = (1,), args=(),
           **options) -> None:
    """Launch the ``gpu.func`` ``kernel`` (``"module::func"``); see
    :func:`tileir.execute.simt.launch`."""
    _simt.launch(_module(module), kernel, grid, block, args, **options)


run.__doc__ = _simt.run.__doc__
launch.__doc__ = _simt.launch.__doc__
