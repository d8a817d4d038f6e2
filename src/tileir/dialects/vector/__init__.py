"""MLIR's vector dialect (MLIR 22): the core ops (see :mod:`.ops`).  Importing it registers
them."""

from ...ir import verify as _verify
from ...ir.attributes import OpaqueAttr
from . import ops  # noqa: F401  (registers the ops)
from .ops import VectorOp
from .syntax import KINDS, PUNCTUATIONS



_verify.ATTR_KINDS["vector.kind"] = (
    lambda v: isinstance(v, OpaqueAttr) and v.text.startswith("#vector.kind<")
    and v.text[len("#vector.kind<"):-1] in KINDS,
    "Kind of combining function for contractions and reductions")
_verify.ATTR_KINDS["vector.punctuation"] = (
    lambda v: isinstance(v, OpaqueAttr) and v.text.startswith("#vector.punctuation<")
    and v.text[len("#vector.punctuation<"):-1] in PUNCTUATIONS,
    "Punctuation for separating vectors or vector elements")

__all__ = ["VectorOp"]
