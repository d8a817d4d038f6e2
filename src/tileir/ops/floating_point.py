"""§8 Floating-point operations."""

from __future__ import annotations

from ..attrs import ComparisonOrdering, ComparisonPredicate, RoundingMode
from ..ir.constraints import TileOf
from ..ir.opdef import Attr, Operand, Result
from ..types import BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64, TF32
from .base import BINARY_FMT, UNARY_FMT, CudaTileOp
from .constraints import BaseFloatTile, FmaTile, I1Tile
from .traits import (AllElementTypesMatch, AllRanksMatch, AllTypesMatch, Pure,
                     SameOperandsAndResultShape, TypesMatchWith, i1_same_shape)

FTZ = Attr("flush_to_zero", "unit")
ROUNDING = Attr("rounding_mode", RoundingMode)


class _FloatUnary(CudaTileOp):
    __slots__ = ()
    GROUP = "Floating Point"
    OPERANDS = (Operand("source", BaseFloatTile),)
    RESULTS = (Result("result", BaseFloatTile),)
    TRAITS = (Pure, AllTypesMatch("source", "result"))
    FORMAT = UNARY_FMT


class _FloatBinary(CudaTileOp):
    __slots__ = ()
    GROUP = "Floating Point"
    OPERANDS = (Operand("lhs", BaseFloatTile), Operand("rhs", BaseFloatTile))
    RESULTS = (Result("result", BaseFloatTile),)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "result"))
    FORMAT = BINARY_FMT


class _FloatRoundedBinary(_FloatBinary):
    """add/sub/mul: IEEE rounding mode and flush_to_zero."""
    __slots__ = ()
    ATTRIBUTES = (ROUNDING, FTZ)
    FORMAT = ("$lhs `,` $rhs custom<IEEERoundingMode>($rounding_mode) "
              "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))")


class AbsFOp(_FloatUnary):
    """Element-wise floating-point absolute value."""
    __slots__ = ()
    MNEMONIC, OPCODE = "absf", 0x00
    TRAITS = (Pure, SameOperandsAndResultShape(), AllTypesMatch("source", "result"))


class NegFOp(_FloatUnary):
    """Element-wise negation."""
    __slots__ = ()
    MNEMONIC, OPCODE = "negf", 0x4F


class CeilOp(_FloatUnary):
    """Element-wise ceiling."""
    __slots__ = ()
    MNEMONIC, OPCODE = "ceil", 0x0D


class FloorOp(_FloatUnary):
    """Element-wise floor."""
    __slots__ = ()
    MNEMONIC, OPCODE = "floor", 0x27


class CosOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "cos", 0x12


class CosHOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "cosh", 0x13


class SinOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "sin", 0x62


class SinHOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "sinh", 0x63


class TanOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "tan", 0x69


class LogOp(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "log", 0x3F


class Log2Op(_FloatUnary):
    __slots__ = ()
    MNEMONIC, OPCODE = "log2", 0x40


class TanHOp(_FloatUnary):
    """Element-wise hyperbolic tangent (``rounding<approx|full>``, default full)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "tanh", 0x6A
    ATTRIBUTES = (Attr("rounding_mode", RoundingMode, default=RoundingMode.FULL, since="13.2"),)
    FORMAT = ("$source custom<TanHOpRoundingMode>($rounding_mode) attr-dict `:` "
              "custom<CudaTileType>(type($result))")


class ExpOp(_FloatUnary):
    """Element-wise natural exponential (``rounding<approx|full>``, default full)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "exp", 0x17
    ATTRIBUTES = (Attr("rounding_mode", RoundingMode, default=RoundingMode.FULL, since="13.3"),)
    FORMAT = ("$source custom<ExpOpRoundingMode>($rounding_mode) attr-dict `:` "
              "custom<CudaTileType>(type($result))")


class Exp2Op(_FloatUnary):
    """Element-wise 2**x."""
    __slots__ = ()
    MNEMONIC, OPCODE = "exp2", 0x18
    ATTRIBUTES = (FTZ,)
    FORMAT = ("$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` "
              "custom<CudaTileType>(type($result))")


class RsqrtOp(_FloatUnary):
    """Element-wise reciprocal square root."""
    __slots__ = ()
    MNEMONIC, OPCODE = "rsqrt", 0x5D
    ATTRIBUTES = (FTZ,)
    FORMAT = ("$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` "
              "custom<CudaTileType>(type($result))")


class SqrtOp(_FloatUnary):
    """Element-wise square root with rounding mode (IEEE or approx)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "sqrt", 0x64
    ATTRIBUTES = (ROUNDING, FTZ)
    FORMAT = ("$source custom<SqrtOpRoundingMode>($rounding_mode) (`flush_to_zero` "
              "$flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))")


class AddFOp(_FloatRoundedBinary):
    """Element-wise addition."""
    __slots__ = ()
    MNEMONIC, OPCODE = "addf", 0x02


class SubFOp(_FloatRoundedBinary):
    """Element-wise subtraction."""
    __slots__ = ()
    MNEMONIC, OPCODE = "subf", 0x67


class MulFOp(_FloatRoundedBinary):
    """Element-wise multiplication."""
    __slots__ = ()
    MNEMONIC, OPCODE = "mulf", 0x4C


class DivFOp(_FloatBinary):
    """Element-wise division (IEEE modes, approx, full)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "divf", 0x14
    ATTRIBUTES = (ROUNDING, FTZ)
    FORMAT = ("$lhs `,` $rhs custom<DivFOpRoundingMode>($rounding_mode) "
              "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))")


class RemFOp(_FloatBinary):
    """Element-wise remainder (truncated, like C fmod)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "remf", 0x59


class _MinMaxF(_FloatBinary):
    __slots__ = ()
    ATTRIBUTES = (Attr("propagate_nan", "unit"), FTZ)
    FORMAT = ("$lhs `,` $rhs oilist(`flush_to_zero` $flush_to_zero | `propagate_nan` "
              "$propagate_nan) attr-dict `:` custom<CudaTileType>(type($result))")


class MaxFOp(_MinMaxF):
    """Element-wise maximum."""
    __slots__ = ()
    MNEMONIC, OPCODE = "maxf", 0x45


class MinFOp(_MinMaxF):
    """Element-wise minimum."""
    __slots__ = ()
    MNEMONIC, OPCODE = "minf", 0x47


class PowOp(CudaTileOp):
    """Element-wise power."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "pow", 0x54, "Floating Point"
    OPERANDS = (Operand("source", BaseFloatTile), Operand("exponent", BaseFloatTile))
    RESULTS = (Result("result", BaseFloatTile),)
    TRAITS = (Pure, AllTypesMatch("result", "source", "exponent"),
              AllRanksMatch("source", "exponent", "result"))
    FORMAT = "$source `,` $exponent attr-dict `:` custom<CudaTileType>(type($result))"


class Atan2Op(CudaTileOp):
    """Element-wise atan2(x, y) (13.2)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "atan2", 0x6E, "Floating Point", "13.2"
    OPERANDS = (Operand("x", BaseFloatTile, since="13.2"), Operand("y", BaseFloatTile, since="13.2"))
    RESULTS = (Result("result", BaseFloatTile, since="13.2"),)
    TRAITS = (Pure, AllTypesMatch("x", "y", "result"))
    FORMAT = "$x `,` $y attr-dict `:` custom<CudaTileType>(type($result))"


class FmaOp(CudaTileOp):
    """Fused multiply-add ``lhs * rhs + acc`` rounded once."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "fma", 0x28, "Floating Point"
    OPERANDS = (Operand("lhs", FmaTile), Operand("rhs", FmaTile), Operand("acc", FmaTile))
    RESULTS = (Result("result", FmaTile),)
    ATTRIBUTES = (ROUNDING, FTZ)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "acc", "result"))
    FORMAT = ("$lhs `,` $rhs `,` $acc custom<IEEERoundingMode>($rounding_mode) "
              "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))")


class CmpFOp(CudaTileOp):
    """Element-wise floating-point comparison producing i1."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "cmpf", 0x0E, "Floating Point"
    OPERANDS = (Operand("lhs", BaseFloatTile), Operand("rhs", BaseFloatTile))
    RESULTS = (Result("result", I1Tile),)
    ATTRIBUTES = (Attr("comparison_predicate", ComparisonPredicate),
                  Attr("comparison_ordering", ComparisonOrdering))
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs"),
              TypesMatchWith("Result type has i1 element type and same shape as operands",
                             "lhs", "result", i1_same_shape))
    FORMAT = ("custom<ComparisonPredicate>($comparison_predicate) "
              "custom<ComparisonOrdering>($comparison_ordering) $lhs `,` $rhs attr-dict `:` "
              "custom<CudaTileType>(type($lhs)) `->` custom<CudaTileType>(type($result))")


MmaFOperand = TileOf((F16, BF16, F32, F64, TF32, F8E4M3FN, F8E5M2),
                     prefix="mmaf operand tile type")
MmaFResult = TileOf((F16, F32, F64), prefix="mmaf acc/result tile type")


class MmaFOp(CudaTileOp):
    """Floating-point matrix multiply-accumulate (2-D or batched 3-D)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "mmaf", 0x49, "Floating Point"
    OPERANDS = (Operand("lhs", MmaFOperand), Operand("rhs", MmaFOperand), Operand("acc", MmaFResult))
    RESULTS = (Result("result", MmaFResult),)
    ATTRIBUTES = (Attr("fast_acc", "unit", since="13.3"),)
    TRAITS = (Pure, AllTypesMatch("acc", "result"),
              AllElementTypesMatch("lhs", "rhs", message="failed to verify that all of {lhs, rhs}"
                                   " have the same element type"),
              AllRanksMatch("lhs", "rhs", "acc"))
    FORMAT = ("$lhs `,` $rhs `,` $acc (`fast_acc` $fast_acc^)? attr-dict `:` "
              "custom<CudaTileType>(type($lhs)) `,` custom<CudaTileType>(type($rhs)) `,` "
              "custom<CudaTileType>(type($acc))")


MmaScaledOperand = TileOf((F8E4M3FN, F8E5M2, F4E2M1FN), prefix="mmaf_scaled operand tile type")
MmaScale = TileOf((F8E4M3FN, F8E8M0FNU), prefix="mmaf_scaled scale tile type")
MmaScaledResult = TileOf((F32,), prefix="mmaf_scaled acc/result tile type")


class MmaFScaledOp(CudaTileOp):
    """Block-scaled floating-point MMA (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "mmaf_scaled", 0x72, "Floating Point", "13.3"
    OPERANDS = (Operand("lhs", MmaScaledOperand, since="13.3"),
                Operand("rhs", MmaScaledOperand, since="13.3"),
                Operand("acc", MmaScaledResult, since="13.3"),
                Operand("lhs_scale", MmaScale, since="13.3"),
                Operand("rhs_scale", MmaScale, since="13.3"))
    RESULTS = (Result("result", MmaScaledResult, since="13.3"),)
    TRAITS = (Pure, AllTypesMatch("acc", "result"),
              AllElementTypesMatch("lhs", "rhs", message="failed to verify that all of {lhs, rhs}"
                                   " have the same element type"),
              AllElementTypesMatch("lhs_scale", "rhs_scale",
                                   message="failed to verify that all of {lhs_scale, rhs_scale} "
                                   "have the same element type"),
              AllRanksMatch("lhs", "rhs", "acc", "lhs_scale", "rhs_scale"))
    FORMAT = ("$lhs `,` $rhs `,` $acc `,` $lhs_scale `,` $rhs_scale attr-dict `:` "
              "custom<CudaTileType>(type($lhs)) `,` custom<CudaTileType>(type($rhs)) `,` "
              "custom<CudaTileType>(type($acc)) `,` custom<CudaTileType>(type($lhs_scale)) `,` "
              "custom<CudaTileType>(type($rhs_scale))")
