"""Helpers shared by the semantics modules."""

from __future__ import annotations

from typing import Callable

import numpy as np

from ...ir.dtypes import INT_BITS, NUMPY_DTYPES, unsigned_dtype
from ..plan import element_name, storage_dtype

__all__ = ["elementwise", "element_name", "storage_dtype", "enum_keyword", "is_signed",
           "nan_canonical", "rounding_keyword", "scalar_int", "unsigned_view", "unsigned_reader", "INT_BITS"]

#: signed storage dtype -> the unsigned dtype of its width (i1 and i4 are not viewed)
_UNSIGNED = {NUMPY_DTYPES[n]: unsigned_dtype(n) for n in ("i8", "i16", "i32", "i64")}


def enum_keyword(value, default: str = "") -> str:
    """The keyword of an enum attribute value (``RoundingMode.ZERO`` -> ``'zero'``)."""
    if value is None:
        return default
    kw = getattr(value, "keyword", None)
    return kw if kw is not None else str(value)


def is_signed(op, attr: str = "signedness") -> bool:
    """Whether the op's signedness attribute ``attr`` says signed (the default)."""
    return enum_keyword(op.attributes.get(attr), "signed") == "signed"


def rounding_keyword(op, default: str = "nearest_even") -> str:
    """The keyword of the op's rounding mode, ``default`` when it has none."""
    return enum_keyword(op.attributes.get("rounding_mode"), default)


def nan_canonical(op, cc) -> bool:
    """Whether ``op`` must give its NaN results the canonical bits: unless nothing can
    observe them (:meth:`~tileir.execute.plan.Compiler.nan_observed`)."""
    observed = getattr(cc, "nan_observed", None)
    return observed is None or observed(op.results[0])


def unsigned_view(a: np.ndarray) -> np.ndarray:
    """Reinterpret a signed storage array as unsigned of the same width (bool unchanged)."""
    u = _UNSIGNED.get(a.dtype)
    return a if u is None else a.view(u)


def elementwise(op, cc, fn: Callable) -> Callable:
    """Closure computing ``result = fn(*operands)`` (operands and result from their slots)."""
    ins = cc.slots_of(op.operands)
    out = cc.slot(op.results[0])
    if len(ins) == 1:
        a, = ins

        def run1(r):
            r[out] = fn(r[a])
        run1.elementwise_fn = fn
        return run1
    if len(ins) == 2:
        a, b = ins

        def run2(r):
            r[out] = fn(r[a], r[b])
        run2.elementwise_fn = fn
        return run2
    if len(ins) == 3:
        a, b, c = ins

        def run3(r):
            r[out] = fn(r[a], r[b], r[c])
        return run3

    def runn(r):
        r[out] = fn(*[r[s] for s in ins])
    return runn


def unsigned_reader(elem: str):
    """``fn(array) -> int64 array`` reading integers of type ``elem`` as unsigned (values of
    i64 at or above 2**63 come out negative; callers treat negatives as out of range)."""
    if elem in ("i8", "i16", "i32"):
        mask = np.int64((1 << int(elem[1:])) - 1)
        return lambda a: a.astype(np.int64) & mask
    if elem == "i64":
        return lambda a: a
    from .. import numerics as N
    return lambda a: N.to_unsigned(a, elem).astype(np.int64)


def scalar_int(value: np.ndarray, elem: str, signed: bool) -> np.ndarray:
    """Integers of a tile read as signed or unsigned, as int64 (uint64 for unsigned i64)."""
    from .. import numerics as N
    return N.to_signed(value, elem) if signed else N.to_unsigned(value, elem)
