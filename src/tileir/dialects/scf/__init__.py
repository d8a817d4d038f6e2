"""MLIR's scf dialect (structured control flow), as MLIR 22 defines it: ``for``, ``forall``,
``if``, ``while``/``condition``, ``parallel``/``reduce``/``reduce.return``, ``execute_region``,
``index_switch``, ``forall.in_parallel`` and ``yield``.  Importing it registers the ops."""

from . import ops  # noqa: F401  (registers the ops)
from .ops import ScfOp

__all__ = ["ScfOp"]
