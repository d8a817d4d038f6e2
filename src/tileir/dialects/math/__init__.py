"""MLIR's math dialect (MLIR 22): elementary functions on scalars, vectors and tensors."""

from .. import arith as _arith  # noqa: F401  (the fastmath attribute)
from . import ops  # noqa: F401  (registers the ops)
