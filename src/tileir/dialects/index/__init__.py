"""MLIR's index dialect (MLIR 22): target-independent arithmetic on ``index`` values."""

from ... import text as _text  # noqa: F401  (the type parser, for ``index``)
from .. import builtin as _builtin  # noqa: F401  (the ``index`` keyword type)
from ...ir import verify as _verify
from . import ops  # noqa: F401  (registers the ops)

_verify.ATTR_KINDS.update({
    "index.int": (lambda v: isinstance(v, _builtin.IntegerAttr) and str(v.type) == "index",
                  "index attribute"),
    "index.bool": (lambda v: isinstance(v, _builtin.IntegerAttr) and v.type is _builtin.I1,
                   "bool attribute"),
    "index.cmp_predicate": (lambda v: isinstance(v, ops.IndexCmpPredicate),
                            "index comparison predicate kind"),
})

from ...text import registry as _text_registry  # noqa: E402

_text_registry.STANDARD_TYPE_SYNTAX_DIALECTS.add("index")
