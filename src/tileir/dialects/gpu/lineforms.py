"""Fast line forms of the gpu ops a kernel body repeats (see :mod:`tileir.text.lineforms`):
the id/size queries (``gpu.thread_id  x``), ``gpu.barrier``, ``gpu.subgroup_reduce add %v
[uniform] : (f32) -> f32`` and ``gpu.return``/``gpu.yield`` with their operands.  Anything else
on such a line (``upper_bound``, ``cluster(...)``, an attribute dictionary) is left to the ops'
own parsers."""

from __future__ import annotations

import re

from ...ir.attributes import UNIT
from ...text.lineforms import (KW_END, LINE_FORMS, NO_ATTR_DICT, TYPE_LIST, TYPE_PATTERN,
                               VALUE_LIST, VALUE_NAME, WS, LineForm)
from .attributes import AllReduceOperation, Dimension
from .ops.base import INDEX
from .ops.comm import BarrierOp, SubgroupReduceOp
from .ops.index import DimensionOp
from .ops.structure import ReturnOp, YieldOp

__all__ = ["register"]

_TYPES = re.compile(TYPE_PATTERN)


def _keywords(enum) -> str:
    return "(" + "|".join(sorted(enum.keywords(), key=len, reverse=True)) + ")" + KW_END


def _dimension_plan(g, counts, type_of):
    return (), (INDEX,), {"dimension": Dimension.from_keyword(g[0])}


def _barrier_plan(g, counts, type_of):
    return (), (), {}


def _reduce_plan(g, counts, type_of):
    value, result = type_of(g[3]), type_of(g[4])
    if value is None or result is None:
        return None
    attrs = {"op": AllReduceOperation.from_keyword(g[0])}
    if g[2] is not None:
        attrs["uniform"] = UNIT
    return (value,), (result,), attrs


def _values_plan(g, counts, type_of):
    if g[0] is None:
        return (), (), {}
    types = tuple(type_of(t) for t in _TYPES.findall(g[1]))
    if None in types or len(types) != counts[0]:
        return None
    return types, (), {}


_DIMENSION = LineForm(rf"{WS}{_keywords(Dimension)}{NO_ATTR_DICT}", (), _dimension_plan)
_BARRIER = LineForm(NO_ATTR_DICT, (), _barrier_plan)
_REDUCE = LineForm(
    rf"{WS}{_keywords(AllReduceOperation)}{WS}({VALUE_NAME})(?:{WS}(uniform){KW_END})?"
    rf"{NO_ATTR_DICT}{WS}:{WS}\({WS}({TYPE_PATTERN}){WS}\){WS}->{WS}({TYPE_PATTERN})",
    ((1, "value", False),), _reduce_plan)
_VALUES = rf"{NO_ATTR_DICT}(?:{WS}({VALUE_LIST}){WS}:{WS}({TYPE_LIST}))?"


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def register() -> None:
    """Register the forms (idempotent)."""
    for cls in _subclasses(DimensionOp):
        LINE_FORMS[cls.SPEC.name] = _DIMENSION
    LINE_FORMS[BarrierOp.SPEC.name] = _BARRIER
    LINE_FORMS[SubgroupReduceOp.SPEC.name] = _REDUCE
    for cls in (ReturnOp, YieldOp):
        LINE_FORMS[cls.SPEC.name] = LineForm(_VALUES, ((0, cls.OPERANDS[0].name, True),),
                                             _values_plan)


register()
