"""MLIR's memref dialect as MLIR 22 defines it (allocation, access, views, globals, atomics,
DMA).  Importing it registers the ops."""

from . import ops  # noqa: F401  (registers the ops)
from .ops import MemRefOp

__all__ = ["MemRefOp"]
