"""The arith dialect's ops (MLIR 22), one declarative definition each, grouped in families
that mirror ODS's ``Arith_*Op`` classes."""

from __future__ import annotations

import functools

from ...ir.constraints import ANY_TYPE
from ...ir.opdef import Attr, OpBase, Operand, Result
from ...ir.traits import AllTypesMatch, Pure, TypesMatchWith
from .attributes import FASTMATH_NONE, OVERFLOW_NONE, CmpFPredicate, CmpIPredicate, RoundingMode
from .traits import (ChecksParsedOperandTypes, PopulatesDefaults, SameInputOutputTensorDims,
                     SameOperandsAndResultShape, SameOperandsAndResultType, SameTypeOperands)
from .types import (BITCAST_TYPE, BOOL_LIKE, FLOAT_LIKE, INDEX_CAST_TYPE,
                    SIGNLESS_FIXED_INT_LIKE, SIGNLESS_INT_OR_INDEX_LIKE, element_of,
                    float_width, i1_same_shape, int_width, is_index, split_shaped)

FASTMATH = Attr("fastmath", "arith.fastmath", default=FASTMATH_NONE,
                summary="Floating point fast math flags")
OPT_FASTMATH = Attr("fastmath", "arith.fastmath", optional=True,
                    summary="Floating point fast math flags")
OVERFLOW = Attr("overflowFlags", "arith.overflow", default=OVERFLOW_NONE,
                summary="Integer overflow arith flags")
EXACT = Attr("isExact", "unit", optional=True)
ROUNDING = Attr("roundingmode", RoundingMode, optional=True,
                summary="Floating point rounding mode")
_INT = SIGNLESS_INT_OR_INDEX_LIKE


class ArithOp(PopulatesDefaults, OpBase):
    """Base of every arith op."""

    __slots__ = ()
    DIALECT_NAME = "arith"


# -- constant -------------------------------------------------------------------------------

class ConstantOp(ArithOp):
    """``arith.constant``: an integer, float or dense constant."""

    __slots__ = ()
    MNEMONIC = "constant"
    ATTRIBUTES = (Attr("value", "typed", summary="TypedAttr instance"),)
    RESULTS = (Result("result", ANY_TYPE),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict $value"

    def verify_op(self):
        from .constant import verify_constant
        return verify_constant(self)

    @staticmethod
    def infer_parsed_types(state) -> bool:
        """The result has the value's type (``attr-dict $value`` spells no type)."""
        from .constant import attribute_type
        value = state.attrs.get("value")
        spelled = attribute_type(value) if value is not None else None
        if spelled is None or "result" in state.result_types:
            return False
        typ = getattr(value, "type", None)
        state.result_types["result"] = [typ if typ is not None else _spelled(spelled)]
        return True

    def asm_result_names(self):
        from .constant import constant_result_name
        return [constant_result_name(self)]


# -- integer binary ops -------------------------------------------------------------------------

_BINARY_FMT = "$lhs `,` $rhs attr-dict `:` type($result)"


class _IntBinary(ArithOp):
    __slots__ = ()
    OPERANDS = (Operand("lhs", _INT), Operand("rhs", _INT))
    RESULTS = (Result("result", _INT),)
    TRAITS = (SameOperandsAndResultType(),)
    FORMAT = _BINARY_FMT


class _TotalIntBinary(_IntBinary):
    __slots__ = ()
    TRAITS = (Pure, SameOperandsAndResultType())


class _OverflowIntBinary(_TotalIntBinary):
    __slots__ = ()
    ATTRIBUTES = (OVERFLOW,)
    FORMAT = "$lhs `,` $rhs (`overflow` `` $overflowFlags^)? attr-dict `:` type($result)"


class _ExactIntBinary(_IntBinary):
    __slots__ = ()
    ATTRIBUTES = (EXACT,)
    FORMAT = "$lhs `,` $rhs (`exact` $isExact^)? attr-dict `:` type($result)"


class AddIOp(_OverflowIntBinary):
    __slots__ = ()
    MNEMONIC = "addi"


class SubIOp(_OverflowIntBinary):
    __slots__ = ()
    MNEMONIC = "subi"


class MulIOp(_OverflowIntBinary):
    __slots__ = ()
    MNEMONIC = "muli"


class ShLIOp(_OverflowIntBinary):
    __slots__ = ()
    MNEMONIC = "shli"


class DivUIOp(_ExactIntBinary):
    __slots__ = ()
    MNEMONIC = "divui"


class DivSIOp(_ExactIntBinary):
    __slots__ = ()
    MNEMONIC = "divsi"


class ShRUIOp(_ExactIntBinary):
    __slots__ = ()
    MNEMONIC = "shrui"
    TRAITS = (Pure, SameOperandsAndResultType())


class ShRSIOp(_ExactIntBinary):
    __slots__ = ()
    MNEMONIC = "shrsi"
    TRAITS = (Pure, SameOperandsAndResultType())


def _total(mnemonic: str) -> type:
    return type(mnemonic.capitalize() + "Op", (_TotalIntBinary,),
                {"__slots__": (), "MNEMONIC": mnemonic, "__module__": __name__})


def _partial(mnemonic: str) -> type:
    return type(mnemonic.capitalize() + "Op", (_IntBinary,),
                {"__slots__": (), "MNEMONIC": mnemonic, "__module__": __name__})


CeilDivUIOp, CeilDivSIOp = _partial("ceildivui"), _partial("ceildivsi")
(FloorDivSIOp, RemUIOp, RemSIOp, AndIOp, OrIOp, XOrIOp, MaxSIOp, MaxUIOp, MinSIOp,
 MinUIOp) = (_total(m) for m in ("floordivsi", "remui", "remsi", "andi", "ori", "xori", "maxsi",
                                 "maxui", "minsi", "minui"))


class AddUIExtendedOp(ArithOp):
    __slots__ = ()
    MNEMONIC = "addui_extended"
    OPERANDS = (Operand("lhs", _INT), Operand("rhs", _INT))
    RESULTS = (Result("sum", _INT), Result("overflow", BOOL_LIKE))
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "sum"))
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($sum) `,` type($overflow)"


class _MulExtended(ArithOp):
    __slots__ = ()
    OPERANDS = (Operand("lhs", _INT), Operand("rhs", _INT))
    RESULTS = (Result("low", _INT), Result("high", _INT))
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "low", "high"))
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($lhs)"


class MulSIExtendedOp(_MulExtended):
    __slots__ = ()
    MNEMONIC = "mulsi_extended"


class MulUIExtendedOp(_MulExtended):
    __slots__ = ()
    MNEMONIC = "mului_extended"


# -- floating-point ops -------------------------------------------------------------------------

class _FloatUnary(ArithOp):
    __slots__ = ()
    OPERANDS = (Operand("operand", FLOAT_LIKE),)
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = "$operand (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


class NegFOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC = "negf"


class _FloatBinary(ArithOp):
    __slots__ = ()
    OPERANDS = (Operand("lhs", FLOAT_LIKE), Operand("rhs", FLOAT_LIKE))
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = "$lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` type($result)"


def _float_binary(mnemonic: str) -> type:
    return type(mnemonic.capitalize() + "Op", (_FloatBinary,),
                {"__slots__": (), "MNEMONIC": mnemonic, "__module__": __name__})


(AddFOp, SubFOp, MulFOp, DivFOp, RemFOp, MaximumFOp, MinimumFOp, MaxNumFOp,
 MinNumFOp) = (_float_binary(m) for m in ("addf", "subf", "mulf", "divf", "remf", "maximumf",
                                         "minimumf", "maxnumf", "minnumf"))


# -- comparisons and select -----------------------------------------------------------------

_I1_SHAPE = TypesMatchWith("result type has i1 element type and same shape as operands",
                           "lhs", "result", lambda t: _spelled(i1_same_shape(t)))


@functools.lru_cache(maxsize=4096)
def _spelled(text: str):
    """The (interned) type spelled ``text``."""
    from ...ir.types import type_from_text
    return type_from_text(text)


class CmpIOp(ChecksParsedOperandTypes, ArithOp):
    __slots__ = ()
    CHECKED_OPERANDS = ("lhs",)
    MNEMONIC = "cmpi"
    OPERANDS = (Operand("lhs", _INT), Operand("rhs", _INT))
    RESULTS = (Result("result", BOOL_LIKE),)
    ATTRIBUTES = (Attr("predicate", CmpIPredicate, summary="allowed 64-bit signless integer "
                       "cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9"),)
    TRAITS = (Pure, SameTypeOperands(), _I1_SHAPE)
    FORMAT = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)"


class CmpFOp(ChecksParsedOperandTypes, ArithOp):
    __slots__ = ()
    CHECKED_OPERANDS = ("lhs",)
    MNEMONIC = "cmpf"
    OPERANDS = (Operand("lhs", FLOAT_LIKE), Operand("rhs", FLOAT_LIKE))
    RESULTS = (Result("result", BOOL_LIKE),)
    ATTRIBUTES = (Attr("predicate", CmpFPredicate, summary="allowed 64-bit signless integer "
                       "cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15"), FASTMATH)
    TRAITS = (Pure, SameTypeOperands(), _I1_SHAPE)
    FORMAT = ("$predicate `,` $lhs `,` $rhs (`fastmath` `` $fastmath^)? attr-dict `:` "
              "type($lhs)")


class SelectOp(ArithOp):
    __slots__ = ()
    MNEMONIC = "select"
    OPERANDS = (Operand("condition", BOOL_LIKE), Operand("true_value", ANY_TYPE),
                Operand("false_value", ANY_TYPE))
    RESULTS = (Result("result", ANY_TYPE),)
    TRAITS = (Pure, AllTypesMatch("true_value", "false_value", "result"))

    def verify_op(self):
        cond, result = self.operands[0].type, self.results[0].type
        if str(cond) == "i1":
            return None
        if split_shaped(cond) is not None and split_shaped(result) is not None and \
                split_shaped(cond)[1] == split_shaped(result)[1]:
            return None
        return "failed to verify that condition is signless i1 or has matching shape"

    from .syntax import parse_select as parse_custom, print_select as print_custom  # noqa: E402


# -- casts --------------------------------------------------------------------------------------

_CAST_FMT = "$in attr-dict `:` type($in) `to` type($out)"


class _Cast(ArithOp):
    __slots__ = ()
    FROM = TO = ANY_TYPE
    TRAITS = (Pure, SameOperandsAndResultShape(), SameInputOutputTensorDims())
    FORMAT = _CAST_FMT

    def __init_subclass__(cls, **kwargs) -> None:
        if "OPERANDS" not in cls.__dict__:
            cls.OPERANDS = (Operand("in", cls.FROM),)
        if "RESULTS" not in cls.__dict__:
            cls.RESULTS = (Result("out", cls.TO),)
        super().__init_subclass__(**kwargs)

    def verify_op(self):
        if not self.cast_compatible(element_of(self.operands[0].type),
                                    element_of(self.results[0].type)):
            return (f"operand type '{self.operands[0].type}' and result type "
                    f"'{self.results[0].type}' are cast incompatible")
        return None

    @staticmethod
    def cast_compatible(src: str, dst: str) -> bool:
        return True


def _widths(src: str, dst: str, width):
    a, b = width(src), width(dst)
    return (a, b) if a is not None and b is not None else None


def _int_wider(s: str, d: str) -> bool:
    w = _widths(s, d, int_width)
    return w is not None and w[1] > w[0]


class _IToICast(_Cast):
    __slots__ = ()
    FROM = TO = SIGNLESS_FIXED_INT_LIKE


class ExtUIOp(_IToICast):
    __slots__ = ()
    MNEMONIC = "extui"
    cast_compatible = staticmethod(lambda s, d: _int_wider(s, d))


class ExtSIOp(_IToICast):
    __slots__ = ()
    MNEMONIC = "extsi"
    cast_compatible = staticmethod(lambda s, d: _int_wider(s, d))


class TruncIOp(_IToICast):
    __slots__ = ()
    MNEMONIC = "trunci"
    ATTRIBUTES = (OVERFLOW,)
    FORMAT = ("$in (`overflow` `` $overflowFlags^)? attr-dict `:` type($in) `to` "
              "type($out)")
    cast_compatible = staticmethod(lambda s, d: _int_wider(d, s))


def _float_wider(s: str, d: str) -> bool:
    w = _widths(s, d, float_width)
    return w is not None and w[1] > w[0]


class ExtFOp(_Cast):
    __slots__ = ()
    MNEMONIC = "extf"
    FROM = TO = FLOAT_LIKE
    ATTRIBUTES = (OPT_FASTMATH,)
    FORMAT = "$in (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `to` type($out)"
    cast_compatible = staticmethod(_float_wider)


class TruncFOp(_Cast):
    __slots__ = ()
    MNEMONIC = "truncf"
    FROM = TO = FLOAT_LIKE
    ATTRIBUTES = (ROUNDING, OPT_FASTMATH)
    FORMAT = ("$in ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` type($in) "
              "`to` type($out)")
    cast_compatible = staticmethod(lambda s, d: _float_wider(d, s))


class UIToFPOp(_Cast):
    __slots__ = ()
    MNEMONIC = "uitofp"
    FROM, TO = SIGNLESS_FIXED_INT_LIKE, FLOAT_LIKE


class SIToFPOp(_Cast):
    __slots__ = ()
    MNEMONIC = "sitofp"
    FROM, TO = SIGNLESS_FIXED_INT_LIKE, FLOAT_LIKE


class FPToUIOp(_Cast):
    __slots__ = ()
    MNEMONIC = "fptoui"
    FROM, TO = FLOAT_LIKE, SIGNLESS_FIXED_INT_LIKE


class FPToSIOp(_Cast):
    __slots__ = ()
    MNEMONIC = "fptosi"
    FROM, TO = FLOAT_LIKE, SIGNLESS_FIXED_INT_LIKE


def _index_castable(s: str, d: str) -> bool:
    return (is_index(s) and int_width(d) is not None) or (is_index(d) and
                                                         int_width(s) is not None)


class IndexCastOp(_Cast):
    __slots__ = ()
    MNEMONIC = "index_cast"
    FROM = TO = INDEX_CAST_TYPE
    cast_compatible = staticmethod(_index_castable)


class IndexCastUIOp(_Cast):
    __slots__ = ()
    MNEMONIC = "index_castui"
    FROM = TO = INDEX_CAST_TYPE
    cast_compatible = staticmethod(_index_castable)


def _bit_width(s: str):
    return int_width(s) if int_width(s) is not None else float_width(s)


class BitcastOp(_Cast):
    __slots__ = ()
    MNEMONIC = "bitcast"
    FROM = TO = BITCAST_TYPE
    cast_compatible = staticmethod(lambda s, d: _bit_width(s) is not None and
                                   _bit_width(s) == _bit_width(d))


class _ScalingCast(ArithOp):
    __slots__ = ()
    OPERANDS = (Operand("in", FLOAT_LIKE), Operand("scale", FLOAT_LIKE))
    RESULTS = (Result("out", FLOAT_LIKE),)
    TRAITS = (Pure, SameInputOutputTensorDims())

    def verify_op(self):
        from .constant import verify_scaling
        return verify_scaling(self)


class ScalingExtFOp(_ScalingCast):
    __slots__ = ()
    MNEMONIC = "scaling_extf"
    ATTRIBUTES = (OPT_FASTMATH,)
    FORMAT = ("$in `,` $scale (`fastmath` `` $fastmath^)? attr-dict `:` type($in) `,` "
              "type($scale) `to` type($out)")


class ScalingTruncFOp(_ScalingCast):
    __slots__ = ()
    MNEMONIC = "scaling_truncf"
    ATTRIBUTES = (ROUNDING, OPT_FASTMATH)
    FORMAT = ("$in `,` $scale ($roundingmode^)? (`fastmath` `` $fastmath^)? attr-dict `:` "
              "type($in) `,` type($scale) `to` type($out)")
