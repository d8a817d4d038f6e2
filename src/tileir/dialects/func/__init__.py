"""MLIR's func dialect (MLIR 22): functions, calls and returns."""

from . import ops  # noqa: F401  (registers the ops)
from ...text import registry as _registry

_registry.DEFAULT_DIALECTS["func.func"] = "func"
_registry.STANDARD_TYPE_SYNTAX_DIALECTS.add("func")
