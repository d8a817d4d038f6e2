"""Type predicates shared by the upstream dialects (arith, math, index, func, cf).

Types are classified by their MLIR spelling (``str(t)``), so the predicates hold for the
modelled builtin types and for the verbatim ones alike: ``i32``, ``index``, ``f16``,
``vector<4xi32>``, ``vector<[4]xf32>``, ``tensor<?x4xf32>``, ``tensor<*xi1>``,
``memref<4xi32>``.  The ODS type constraints of the arith dialect (with their messages'
summaries: ``signless-integer-like``, ``floating-point-like``...) are built from them.
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ...ir.constraints import Pred, TypeConstraint

__all__ = ["split_shaped", "element_of", "is_signless_int", "is_index", "is_float", "int_width",
           "float_width", "container_kind", "shape_of", "like", "SIGNLESS_INT_OR_INDEX_LIKE",
           "SIGNLESS_FIXED_INT_LIKE", "FLOAT_LIKE", "BOOL_LIKE", "INDEX_CAST_TYPE",
           "BITCAST_TYPE", "SIGNLESS_INT_OR_FLOAT_LIKE", "i1_same_shape", "SIGNLESS_INT_LIKE"]

_INT = re.compile(r"i([0-9]+)\Z")
_DIM = re.compile(r"(\?|[0-9]+|\[[0-9]+\])x")
_FLOAT_WIDTHS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64, "f80": 80, "f128": 128,
                 "tf32": 19, "f8E5M2": 8, "f8E4M3": 8, "f8E4M3FN": 8, "f8E5M2FNUZ": 8,
                 "f8E4M3FNUZ": 8, "f8E4M3B11FNUZ": 8, "f8E3M4": 8, "f8E8M0FNU": 8,
                 "f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6}


def _top_level_comma(body: str) -> int:
    depth = 0
    for k, ch in enumerate(body):
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        elif ch == "," and depth == 0:
            return k
    return -1


def split_shaped(t) -> Optional[tuple[str, tuple[str, ...], str]]:
    """``(kind, dims, element spelling)`` of a vector/tensor/memref type, else None.
    ``dims`` is ``("*",)`` for an unranked tensor/memref."""
    text = str(t)
    for kind in ("vector", "tensor", "memref"):
        if text.startswith(kind + "<") and text.endswith(">"):
            body = text[len(kind) + 1:-1].strip()
            comma = _top_level_comma(body)
            if comma >= 0:
                body = body[:comma].strip()
            if body.startswith("*x"):
                return kind, ("*",), body[2:].strip()
            dims = []
            pos = 0
            body = body.replace(" ", "")
            while True:
                m = _DIM.match(body, pos)
                if m is None:
                    break
                dims.append(m.group(1))
                pos = m.end()
            return kind, tuple(dims), body[pos:]
    return None


def element_of(t) -> str:
    """The element spelling of a shaped type, or the type's own spelling."""
    shaped = split_shaped(t)
    return shaped[2] if shaped is not None else str(t)


def container_kind(t) -> Optional[str]:
    shaped = split_shaped(t)
    return shaped[0] if shaped is not None else None


def shape_of(t) -> Optional[tuple]:
    shaped = split_shaped(t)
    return None if shaped is None else (shaped[0] != "vector", shaped[1])


def is_signless_int(spelling: str) -> bool:
    return _INT.match(spelling) is not None


def int_width(spelling: str) -> Optional[int]:
    m = _INT.match(spelling)
    return int(m.group(1)) if m else None


def is_index(spelling: str) -> bool:
    return spelling == "index"


def is_float(spelling: str) -> bool:
    return spelling in _FLOAT_WIDTHS


def float_width(spelling: str) -> Optional[int]:
    return _FLOAT_WIDTHS.get(spelling)


def like(scalar: Callable[[str], bool], containers: tuple = ("vector", "tensor")):
    """A predicate: the type is a scalar accepted by ``scalar`` or a vector/tensor of one."""
    def check(t) -> bool:
        shaped = split_shaped(t)
        if shaped is None:
            return scalar(str(t))
        if shaped[0] not in containers:
            return False
        if shaped[0] == "vector" and shaped[1] == ("*",):
            return False
        return scalar(shaped[2])
    return check


def _int_or_index(s: str) -> bool:
    return is_signless_int(s) or is_index(s)


SIGNLESS_INT_OR_INDEX_LIKE = Pred(like(_int_or_index), "signless-integer-like")
SIGNLESS_INT_LIKE = SIGNLESS_INT_OR_INDEX_LIKE
SIGNLESS_FIXED_INT_LIKE = Pred(like(is_signless_int), "signless-fixed-width-integer-like")
FLOAT_LIKE = Pred(like(is_float), "floating-point-like")
BOOL_LIKE = Pred(like(lambda s: s == "i1"), "bool-like")
SIGNLESS_INT_OR_FLOAT_LIKE = Pred(like(lambda s: is_signless_int(s) or is_float(s)),
                                  "signless-integer-or-float-like")


def _memref_of(scalar: Callable[[str], bool]):
    def check(t) -> bool:
        shaped = split_shaped(t)
        return shaped is not None and shaped[0] == "memref" and scalar(shaped[2])
    return check


_index_cast_memref = _memref_of(_int_or_index)
_bitcast_memref = _memref_of(lambda s: is_signless_int(s) or is_float(s))
INDEX_CAST_TYPE: TypeConstraint = Pred(
    lambda t: SIGNLESS_INT_OR_INDEX_LIKE.check(t) or _index_cast_memref(t),
    "signless-integer-like or memref of signless-integer")
BITCAST_TYPE: TypeConstraint = Pred(
    lambda t: SIGNLESS_INT_OR_FLOAT_LIKE.check(t) or _bitcast_memref(t),
    "signless-integer-or-float-like or memref of signless-integer or float")


def i1_same_shape(t) -> str:
    """The i1 type of ``t``'s shape (``vector<4xi1>`` for ``vector<4xi32>``), as a spelling."""
    text = str(t)
    shaped = split_shaped(t)
    if shaped is None:
        return "i1"
    elem = shaped[2]
    # replace the element spelling at the end of the shape part
    head, sep, tail = text.rpartition(elem)
    return head + "i1" + tail
