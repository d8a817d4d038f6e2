"""MLIR's math dialect (MLIR 22): elementary functions on scalars, vectors and tensors."""

from .. import arith as _arith  # noqa: F401  (the fastmath attribute)
from . import ops  # noqa: F401  (registers the ops)

from ...text import registry as _text_registry  # noqa: E402

_text_registry.STANDARD_TYPE_SYNTAX_DIALECTS.add("math")
