"""MLIR's vector dialect (MLIR 22): the core ops (see :mod:`.ops`).  Importing it registers
them."""

from . import ops  # noqa: F401  (registers the ops)
from .ops import VectorOp

__all__ = ["VectorOp"]
