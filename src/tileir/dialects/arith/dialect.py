"""The arith dialect's registrations with the verifier: its attribute kinds."""

from __future__ import annotations

from ...ir import verify as _verify
from .attributes import FastMathAttr, OverflowAttr
from .constant import attribute_type

_verify.ATTR_KINDS.update({
    "arith.fastmath": (lambda v: isinstance(v, FastMathAttr), "Floating point fast math flags"),
    "arith.overflow": (lambda v: isinstance(v, OverflowAttr), "Integer overflow arith flags"),
    "typed": (lambda v: attribute_type(v) is not None, "TypedAttr instance"),
})
