"""MLIR's arith dialect (MLIR 22): integer and floating-point arithmetic, comparisons,
``select``, casts and constants on scalars, vectors and tensors."""

from . import syntax  # noqa: F401  (registers the attribute syntax)
from . import ops  # noqa: F401  (registers the ops)
from . import dialect  # noqa: F401  (registers the verifier's attribute kinds)

from ...text import registry as _text_registry  # noqa: E402

_text_registry.STANDARD_TYPE_SYNTAX_DIALECTS.add("arith")
