"""MLIR's cf dialect (MLIR 22): unstructured control flow between the blocks of a region."""

from .. import arith as _arith  # noqa: F401  (shared type predicates)
from . import ops  # noqa: F401  (registers the ops)

from ...text import registry as _text_registry  # noqa: E402

_text_registry.STANDARD_TYPE_SYNTAX_DIALECTS.add("cf")
