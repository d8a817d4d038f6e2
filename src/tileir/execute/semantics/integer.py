"""§8.8 Integer operations (signless integers; signedness from the op; wrap-around).

Semantics are :mod:`tileir.execute.numerics.intops` (which documents the choices for the cases
the spec leaves undefined: division by zero, ``INT_MIN / -1``, over-wide shifts).  For i8..i64
the wrap-around ops use NumPy's native (modular) integer arithmetic directly.  ``mmai`` is
exact (see :func:`mmai_exact`).
"""

from __future__ import annotations

import numpy as np

from .. import numerics as N
from ..plan import lowering
from ._common import elementwise, element_name, enum_keyword, is_signed, unsigned_view

_NATIVE_INTS = ("i8", "i16", "i32", "i64")
_NATIVE_UFUNC = {"addi": np.add, "subi": np.subtract, "muli": np.multiply}


@lowering("addi", "subi", "muli", fold=True)
def _lower_wrap(op, cc):
    name = op.name.split(".", 1)[1]
    elem = element_name(op.results[0].type)
    if elem in _NATIVE_INTS:
        return elementwise(op, cc, _NATIVE_UFUNC[name])
    impl = getattr(N, name)
    return elementwise(op, cc, lambda a, b: impl(a, b, elem))


@lowering("negi", fold=True)
def _lower_negi(op, cc):
    elem = element_name(op.results[0].type)
    if elem in _NATIVE_INTS:
        return elementwise(op, cc, np.negative)
    return elementwise(op, cc, lambda a: N.negi(a, elem))


@lowering("absi", fold=True)
def _lower_absi(op, cc):
    elem = element_name(op.results[0].type)
    if elem in _NATIVE_INTS:
        return elementwise(op, cc, np.abs)   # abs(INT_MIN) wraps to INT_MIN = 2**(n-1) unsigned
    return elementwise(op, cc, lambda a: N.absi(a, elem))


@lowering("divi", fold=True)
def _lower_divi(op, cc):
    elem = element_name(op.results[0].type)
    signed = is_signed(op)
    rounding = enum_keyword(op.attributes.get("rounding"), "zero")
    return elementwise(op, cc, lambda a, b: N.divi(a, b, elem, signed, rounding))


@lowering("remi", fold=True)
def _lower_remi(op, cc):
    elem = element_name(op.results[0].type)
    signed = is_signed(op)
    return elementwise(op, cc, lambda a, b: N.remi(a, b, elem, signed))


@lowering("maxi", "mini", fold=True)
def _lower_minmax(op, cc):
    elem = element_name(op.results[0].type)
    signed = is_signed(op)
    want_max = op.name.endswith("maxi")
    if elem in _NATIVE_INTS:
        uf = np.maximum if want_max else np.minimum
        if signed:
            return elementwise(op, cc, uf)
        dt = np.dtype("int" + elem[1:])
        return elementwise(op, cc, lambda a, b: uf(unsigned_view(a), unsigned_view(b)).view(dt))
    impl = N.maxi if want_max else N.mini
    return elementwise(op, cc, lambda a, b: impl(a, b, elem, signed))


_CMP = {"equal": np.equal, "not_equal": np.not_equal, "less_than": np.less,
        "less_than_or_equal": np.less_equal, "greater_than": np.greater,
        "greater_than_or_equal": np.greater_equal}


@lowering("cmpi", fold=True)
def _lower_cmpi(op, cc):
    elem = element_name(op.operands[0].type)
    signed = is_signed(op)
    pred = enum_keyword(op.attributes.get("comparison_predicate"))
    if elem in _NATIVE_INTS:
        uf = _CMP[pred]
        if signed or pred in ("equal", "not_equal"):
            return elementwise(op, cc, uf)
        return elementwise(op, cc, lambda a, b: uf(unsigned_view(a), unsigned_view(b)))
    return elementwise(op, cc, lambda a, b: N.cmpi(a, b, elem, pred, signed))


@lowering("shli", fold=True)
def _lower_shli(op, cc):
    elem = element_name(op.results[0].type)
    return elementwise(op, cc, lambda a, b: N.shli(a, b, elem))


@lowering("shri", fold=True)
def _lower_shri(op, cc):
    elem = element_name(op.results[0].type)
    signed = is_signed(op)
    return elementwise(op, cc, lambda a, b: N.shri(a, b, elem, signed))


@lowering("mulhii", fold=True)
def _lower_mulhii(op, cc):
    elem = element_name(op.results[0].type)
    return elementwise(op, cc, lambda a, b: N.mulhii(a, b, elem))


def mmai_exact(lhs: np.ndarray, rhs: np.ndarray, acc: np.ndarray, lhs_signed: bool,
               rhs_signed: bool) -> np.ndarray:
    """``lhs @ rhs + acc`` for i8 operands (each read signed or unsigned) and an i32
    accumulator, wrapping modulo 2**32.  The products and their sum are exact: every partial sum
    is below 2**53 (K < 2**36), so the matmul runs in f64 and converts back exactly."""
    a = (lhs if lhs_signed else lhs.view(np.uint8)).astype(np.float64)
    b = (rhs if rhs_signed else rhs.view(np.uint8)).astype(np.float64)
    s = np.matmul(a, b).astype(np.int64) + acc.astype(np.int64)
    return s.astype(np.int32)


@lowering("mmai", fold=True)
def _lower_mmai(op, cc):
    ls = is_signed(op, "signedness_lhs")
    rs = is_signed(op, "signedness_rhs")
    return elementwise(op, cc, lambda a, b, c: mmai_exact(a, b, c, ls, rs))
