"""MLIR's cf dialect (MLIR 22): unstructured control flow between the blocks of a region."""

from .. import arith as _arith  # noqa: F401  (shared type predicates)
from . import ops  # noqa: F401  (registers the ops)
