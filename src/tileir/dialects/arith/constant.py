"""``arith.constant``'s verifier and result names, and the scaling casts' verifier."""

from __future__ import annotations

from typing import Optional

from ...ir.attributes import DenseElementsAttr, FloatAttr, IntegerAttr, OpaqueAttr
from .types import element_of, float_width, is_index, split_shaped

__all__ = ["verify_constant", "constant_result_name", "attribute_type", "verify_scaling"]


def attribute_type(attr) -> Optional[str]:
    """The type (spelling) of a typed attribute, or None for an untyped one."""
    if isinstance(attr, (IntegerAttr, FloatAttr, DenseElementsAttr)):
        return str(attr.type)
    if isinstance(attr, OpaqueAttr):
        text = attr.text
        depth = 0
        for k in range(len(text) - 1, -1, -1):
            ch = text[k]
            if ch in ">)]}":
                depth += 1
            elif ch in "<([{":
                depth -= 1
            elif depth == 0 and text.startswith(" : ", k - 1):
                return text[k + 2:]
    return None


def _is_elements(attr) -> bool:
    if isinstance(attr, DenseElementsAttr):
        return True
    return isinstance(attr, OpaqueAttr) and attr.text.split("<", 1)[0] in (
        "dense", "dense_resource", "sparse", "array")


def verify_constant(op) -> Optional[str]:
    value = op.attributes.get("value")
    rtype = str(op.results[0].type)
    if attribute_type(value) != rtype:
        return "failed to verify that all of {value, result} have same type"
    if rtype[:2] in ("si", "ui") and rtype[2:].isdigit():
        return "integer return type must be signless"
    if not isinstance(value, (IntegerAttr, FloatAttr)) and not _is_elements(value):
        return "value must be an integer, float, or elements attribute"
    shaped = split_shaped(rtype)
    if shaped is not None and shaped[0] == "vector" and any(d.startswith("[")
                                                           for d in shaped[1]):
        splat = getattr(value, "is_splat", None)
        if splat is None:
            splat = not value.generic().startswith("dense<[")
        if not splat:
            # (MLIR's message spells "intializing")
            return ("intializing scalable vectors with elements attribute is not supported "
                    "unless it's a vector splat")
    return None


def constant_result_name(op) -> str:
    """mlir-opt's name for a constant: ``c0``/``c1_i32``/``true``/``false``/``cst``."""
    value = op.attributes.get("value")
    if isinstance(value, IntegerAttr):
        t = str(value.type)
        if t == "i1":
            return "true" if value.value else "false"
        if is_index(t):
            return f"c{value.value}"
        return f"c{value.value}_{t}"
    return "cst"


def verify_scaling(op) -> Optional[str]:
    """``scaling_extf``/``scaling_truncf``: operands and result of one shape; the result
    strictly wider (extf) or narrower (truncf) than the input."""
    types = [op.operands[0].type, op.operands[1].type, op.results[0].type]
    shaped = [split_shaped(t) for t in types]
    present = [s for s in shaped if s is not None]
    if present and (len(present) != 3 or any((s[0], s[1]) != (present[0][0], present[0][1])
                                             for s in present)):
        return "all non-scalar operands/results must have the same shape and base type"
    src, dst = float_width(element_of(types[0])), float_width(element_of(types[2]))
    wider = op.name.endswith("extf")
    if src is None or dst is None or (dst <= src if wider else dst >= src):
        return (f"operand types '{types[0]}', '{types[1]}' and result type '{types[2]}' are "
                "cast incompatible")
    return None
