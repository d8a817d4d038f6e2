"""§8 Floating-point operations."""

from __future__ import annotations

from ..attributes import ComparisonOrdering, ComparisonPredicate, RoundingMode
from ..constraints import TileOf, i1_same_shape
from ....ir.opdef import Attr, Operand, Result
from ..types import BF16, F4E2M1FN, F8E4M3FN, F8E5M2, F8E8M0FNU, F16, F32, F64, TF32
from .base import BINARY_FMT, UNARY_FMT, CudaTileOp
from ..constraints import BaseFloatTile, FmaTile, I1Tile, IntTile, IntTileUpTo32
from ....ir.traits import (AllElementTypesMatch, AllShapesMatch, AllRanksMatch, AllTypesMatch, Pure,
                           SameOperandsAndResultShape, TypesMatchWith)
from ....ir.diagnostics import Diagnostic, ERROR
from ....ir.verify import NONFATAL
from ..verify_util import (IEEE_MODES, dims, invalid_rounding_message, verify_approx,
                           verify_div_sqrt_modifiers, verify_ftz, verify_ieee_rounding)

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


def _rounded_binary_verify(op):
    return verify_ieee_rounding(op) or verify_ftz(op, op.results[0].type)


def _ftz_verify(op):
    return verify_ftz(op, op.results[0].type)


def _mma_shapes(op):
    """cuda-tile's verifyMmaShapes (messages keep NVIDIA's leading spaces)."""
    lhs, rhs, acc = (v.type.shape for v in op.operands[:3])
    if len(lhs) not in (2, 3):
        return "operands must be 2D or 3D tiles"
    b = 1 if len(lhs) == 3 else 0
    if b:
        if lhs[0] != rhs[0]:
            return (f"shape error: dim 0 of lhs ({lhs[0]}) and dim 0 of rhs ({rhs[0]}) must match, "
                    f"but got lhs shape ({dims(lhs)}) and rhs shape ({dims(rhs)})")
        if lhs[0] != acc[0]:
            return (f"shape error: dim 0 of lhs ({lhs[0]}) and dim 0 of acc ({acc[0]}) must match, "
                    f"but got lhs shape ({dims(lhs)}) and acc shape ({dims(acc)})")
    row, col = b, b + 1
    if lhs[col] != rhs[row]:
        return (f" shape error: dim {col} of lhs ({lhs[col]}) and dim {row} of rhs ({rhs[row]}) "
                f"must match, but got lhs shape ({dims(lhs)}) and rhs shape ({dims(rhs)})")
    if lhs[row] != acc[row]:
        return (f" shape error: dim {row} of lhs ({lhs[row]}) and dim {row} of acc ({acc[row]}) "
                f"must match, but got lhs shape ({dims(lhs)}) and acc shape ({dims(acc)})")
    if rhs[col] != acc[col]:
        return (f" shape error: dim {col} of rhs ({rhs[col]}) and dim {col} of acc ({acc[col]}) "
                f"must match, but got rhs shape ({dims(rhs)}) and acc shape ({dims(acc)})")
    return None


#: mmaf: input element type -> accepted accumulator/result element types
_MMAF_TYPES = {F4E2M1FN: (F16, F32), F8E4M3FN: (F16, F32), F8E5M2: (F16, F32), F16: (F16, F32),
               BF16: (F32,), TF32: (F32,), F32: (F32,), F64: (F64,)}


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

    def verify_op(self):
        # cuda-tile reports an invalid mode but does not fail the op (its verifier falls
        # through to the approx check); NONFATAL keeps that behaviour.
        rm = self.attributes.get("rounding_mode")
        msg = verify_approx(rm is RoundingMode.APPROX, self.results[0].type)
        if rm not in (RoundingMode.FULL, RoundingMode.APPROX):
            bad = Diagnostic(ERROR, f"'{self.name}' op invalid rounding mode specified, expect "
                             "one of [approx, full]", self.loc)
            return [bad, msg] if msg else [bad, NONFATAL]
        return msg



class ExpOp(_FloatUnary):
    """Element-wise natural exponential (``rounding<approx|full>``, default full)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "exp", 0x17
    ATTRIBUTES = (Attr("rounding_mode", RoundingMode, default=RoundingMode.FULL, since="13.3"),)
    FORMAT = ("$source custom<ExpOpRoundingMode>($rounding_mode) attr-dict `:` "
              "custom<CudaTileType>(type($result))")

    def verify_op(self):
        rm = self.attributes.get("rounding_mode")
        if rm not in (RoundingMode.FULL, RoundingMode.APPROX):
            return "invalid rounding mode specified, expect one of [approx, full]"
        return verify_approx(rm is RoundingMode.APPROX, self.results[0].type)



class Exp2Op(_FloatUnary):
    """Element-wise 2**x."""
    __slots__ = ()
    MNEMONIC, OPCODE = "exp2", 0x18
    ATTRIBUTES = (FTZ,)
    FORMAT = ("$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` "
              "custom<CudaTileType>(type($result))")

    def verify_op(self):
        return _ftz_verify(self)



class RsqrtOp(_FloatUnary):
    """Element-wise reciprocal square root."""
    __slots__ = ()
    MNEMONIC, OPCODE = "rsqrt", 0x5D
    ATTRIBUTES = (FTZ,)
    FORMAT = ("$source (`flush_to_zero` $flush_to_zero^)? attr-dict `:` "
              "custom<CudaTileType>(type($result))")

    def verify_op(self):
        return _ftz_verify(self)



class SqrtOp(_FloatUnary):
    """Element-wise square root with rounding mode (IEEE or approx)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "sqrt", 0x64
    ATTRIBUTES = (ROUNDING, FTZ)
    FORMAT = ("$source custom<SqrtOpRoundingMode>($rounding_mode) (`flush_to_zero` "
              "$flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))")

    def verify_op(self):
        rm = self.attributes.get("rounding_mode")
        if rm not in IEEE_MODES and rm is not RoundingMode.APPROX:
            return invalid_rounding_message(RoundingMode.APPROX)
        approx = rm is RoundingMode.APPROX
        return verify_div_sqrt_modifiers(self, self.results[0].type, not approx, approx, False)



class AddFOp(_FloatRoundedBinary):
    """Element-wise addition."""
    __slots__ = ()
    MNEMONIC, OPCODE = "addf", 0x02

    def verify_op(self):
        return _rounded_binary_verify(self)



class SubFOp(_FloatRoundedBinary):
    """Element-wise subtraction."""
    __slots__ = ()
    MNEMONIC, OPCODE = "subf", 0x67

    def verify_op(self):
        return _rounded_binary_verify(self)



class MulFOp(_FloatRoundedBinary):
    """Element-wise multiplication."""
    __slots__ = ()
    MNEMONIC, OPCODE = "mulf", 0x4C

    def verify_op(self):
        return _rounded_binary_verify(self)



class DivFOp(_FloatBinary):
    """Element-wise division (IEEE modes, approx, full)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "divf", 0x14
    ATTRIBUTES = (ROUNDING, FTZ)
    FORMAT = ("$lhs `,` $rhs custom<DivFOpRoundingMode>($rounding_mode) "
              "(`flush_to_zero` $flush_to_zero^)? attr-dict `:` custom<CudaTileType>(type($result))")

    def verify_op(self):
        rm = self.attributes.get("rounding_mode")
        if rm not in IEEE_MODES and rm not in (RoundingMode.APPROX, RoundingMode.FULL):
            return invalid_rounding_message(RoundingMode.APPROX, RoundingMode.FULL)
        approx, full = rm is RoundingMode.APPROX, rm is RoundingMode.FULL
        return verify_div_sqrt_modifiers(self, self.results[0].type, not approx and not full,
                                         approx, full)



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

    def verify_op(self):
        return _ftz_verify(self)



class MinFOp(_MinMaxF):
    """Element-wise minimum."""
    __slots__ = ()
    MNEMONIC, OPCODE = "minf", 0x47

    def verify_op(self):
        return _ftz_verify(self)



class PowOp(CudaTileOp):
    """Element-wise power."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "pow", 0x54, "Floating Point"
    OPERANDS = (Operand("source", BaseFloatTile), Operand("exponent", BaseFloatTile))
    RESULTS = (Result("result", BaseFloatTile),)
    TRAITS = (Pure, AllTypesMatch("result", "source", "exponent"),
              AllRanksMatch("source", "exponent", "result"))
    FORMAT = "$source `,` $exponent attr-dict `:` custom<CudaTileType>(type($result))"


class FPowIOp(CudaTileOp):
    """Element-wise power with an integer exponent (13.4; cuTile emits it for ``x ** 2``)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "fpowi", 121, "Floating Point", "13.4"
    OPERANDS = (Operand("source", BaseFloatTile, since="13.4"),
                Operand("exponent", IntTileUpTo32, since="13.4"))
    RESULTS = (Result("result", BaseFloatTile, since="13.4"),)
    TRAITS = (Pure, AllTypesMatch("source", "result"), AllShapesMatch("source", "exponent"))
    # tileirdisasm 13.4: ``fpowi %x, %n : tile<1x1024xf32>, tile<1x1024xi32>``
    FORMAT = ("$source `,` $exponent attr-dict `:` custom<CudaTileType>(type($source)) `,` "
              "custom<CudaTileType>(type($exponent))")


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

    def verify_op(self):
        return _rounded_binary_verify(self)



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

    def verify_op(self):
        msg = _mma_shapes(self)
        if msg:
            return msg
        lhs = self.operands[0].type.element
        acc = self.operands[2].type.element
        allowed = _MMAF_TYPES.get(lhs)
        if allowed is None:
            return f"unsupported input element type: '{lhs}'"
        if acc not in allowed:
            return (f"unsupported combination of element types. Input type '{lhs}' expects "
                    f"accumulator/result type to be one of {{"
                    + ", ".join(f"'{t}'" for t in allowed) + f"}}, but got '{acc}'")
        return None



MmaScaledOperand = TileOf((F8E4M3FN, F8E5M2, F4E2M1FN), prefix="mmaf_scaled operand tile type")
MmaScale = TileOf((F8E4M3FN, F8E8M0FNU), prefix="mmaf_scaled scale tile type")
MmaScaledResult = TileOf((F32,), prefix="mmaf_scaled result tile type")


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

    def verify_op(self):
        msg = _mma_shapes(self)
        if msg:
            return msg
        lhs_t, rhs_t = self.operands[0].type, self.operands[1].type
        ls_t, rs_t = self.operands[3].type, self.operands[4].type
        lhs, rhs, ls, rs = lhs_t.shape, rhs_t.shape, ls_t.shape, rs_t.shape
        b = 1 if len(lhs) == 3 else 0
        row, col = b, b + 1
        if b:
            if lhs[0] != ls[0]:
                return (f"shape error: dim 0 of lhs ({lhs[0]}) and dim 0 of lhs_scale ({ls[0]}) "
                        f"must match, but got lhs shape ({dims(lhs)}) and lhs_scale shape "
                        f"({dims(ls)})")
            if rhs[0] != rs[0]:
                return (f"shape error: dim 0 of rhs ({rhs[0]}) and dim 0 of rhs_scale ({rs[0]}) "
                        f"must match, but got rhs shape ({dims(rhs)}) and rhs_scale shape "
                        f"({dims(rs)})")
        if lhs[row] != ls[row]:
            return (f"shape error: dim {row} of lhs ({lhs[row]}) and dim {row} of lhs_scale "
                    f"({ls[row]}) must match, but got lhs shape ({dims(lhs)}) and lhs_scale "
                    f"shape ({dims(ls)})")
        if rhs[col] != rs[col]:
            return (f"shape error: dim {col} of rhs ({rhs[col]}) and dim {col} of rhs_scale "
                    f"({rs[col]}) must match, but got rhs shape ({dims(rhs)}) and rhs_scale "
                    f"shape ({dims(rs)})")
        if ls[col] != rs[row]:
            return (f"shape error: dim {col} of lhs_scale ({ls[col]}) and dim {row} of rhs_scale "
                    f"({rs[row]}) must match, but got lhs_scale shape ({dims(ls)}) and "
                    f"rhs_scale shape ({dims(rs)})")
        el, sc = lhs_t.element, ls_t.element
        if sc is F8E4M3FN and el is not F4E2M1FN:
            return (f"unsupported combination of element types. Scale type '{sc}' expects lhs "
                    f"and rhs element types to be 'f4E2M1FN', but got '{el}'")
        if sc is F8E8M0FNU and el not in (F8E4M3FN, F8E5M2, F4E2M1FN):
            return (f"unsupported combination of element types. Scale type '{sc}' expects lhs "
                    "and rhs element types to be one of {'f8E4M3FN', 'f8E5M2', 'f4E2M1FN'}, "
                    f"but got '{el}'")
        k, sk = lhs[col], ls[col]
        if k % sk:
            return (f"shape error: dim {col} of lhs_scale ({sk}) must be a divisor of dim {col} "
                    f"of lhs ({k}), but got lhs_scale shape ({dims(ls)}) and lhs shape "
                    f"({dims(lhs)})")
        vec = k // sk
        if el in (F8E4M3FN, F8E5M2) and vec != 32:
            return ("shape error: f8 element type requires block scale factor of lhs_scale and "
                    f"rhs_scale to be 32, but got {vec}")
        if el is F4E2M1FN:
            if sc is F8E4M3FN and vec != 16:
                return ("shape error: f4E2M1FN element type with f8E4M3FN scales requires block "
                        f"scale factor of lhs_scale and rhs_scale to be 16, but got {vec}")
            if sc is F8E8M0FNU and vec not in (16, 32):
                return ("shape error: f4E2M1FN element type with f8E8M0FNU scales requires "
                        f"block scale factor of lhs_scale and rhs_scale to be 16 or 32, but got "
                        f"{vec}")
        return None

