"""§8 Integer operations."""

from __future__ import annotations

from ..attributes import ComparisonPredicate, IntegerOverflow, RoundingMode, Signedness
from ..constraints import TileOf, i1_same_shape
from ....ir.opdef import Attr, Operand, Result
from ..types import I8, I32
from .base import BINARY_FMT, UNARY_FMT, CudaTileOp
from ..constraints import I1Tile, IntTile
from ....ir.traits import (AllElementTypesMatch, AllRanksMatch, AllShapesMatch, AllTypesMatch, Pure,
                           SameOperandsAndResultShape, TypesMatchWith)
from .floating_point import _mma_shapes

OVERFLOW = Attr("overflow", IntegerOverflow, default=IntegerOverflow.NONE)
SIGNEDNESS = Attr("signedness", Signedness)
_SIGNED_BINARY_FMT = ("$lhs `,` $rhs custom<Signedness>($signedness) attr-dict `:` "
                      "custom<CudaTileType>(type($result))")
_OVERFLOW_BINARY_FMT = ("$lhs `,` $rhs (`overflow` `` $overflow^)? attr-dict `:` "
                        "custom<CudaTileType>(type($result))")


class _IntBinary(CudaTileOp):
    __slots__ = ()
    GROUP = "Integer"
    OPERANDS = (Operand("lhs", IntTile), Operand("rhs", IntTile))
    RESULTS = (Result("result", IntTile),)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "result"))
    FORMAT = BINARY_FMT


class _IntOverflowBinary(_IntBinary):
    __slots__ = ()
    ATTRIBUTES = (OVERFLOW,)
    FORMAT = _OVERFLOW_BINARY_FMT


class _IntSignedBinary(_IntBinary):
    __slots__ = ()
    ATTRIBUTES = (SIGNEDNESS,)
    FORMAT = _SIGNED_BINARY_FMT


class AbsIOp(CudaTileOp):
    """Element-wise integer absolute value."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "absi", 0x01, "Integer"
    OPERANDS = (Operand("source", IntTile),)
    RESULTS = (Result("result", IntTile),)
    TRAITS = (Pure, SameOperandsAndResultShape(), AllTypesMatch("source", "result"))
    FORMAT = UNARY_FMT


class AddIOp(_IntOverflowBinary):
    """Element-wise integer addition (wrap-around)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "addi", 0x03


class SubIOp(_IntOverflowBinary):
    """Element-wise integer subtraction (wrap-around)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "subi", 0x68


class MulIOp(_IntOverflowBinary):
    """Element-wise integer multiplication (wrap-around)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "muli", 0x4E


class ShLIOp(_IntOverflowBinary):
    """Element-wise shift left."""
    __slots__ = ()
    MNEMONIC, OPCODE = "shli", 0x60


class DivIOp(_IntBinary):
    """Element-wise integer division with a rounding mode (zero, positive_inf, negative_inf)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "divi", 0x15
    ATTRIBUTES = (SIGNEDNESS, Attr("rounding", RoundingMode, default=RoundingMode.ZERO))
    TRAITS = (AllTypesMatch("lhs", "rhs", "result"),)
    FORMAT = ("$lhs `,` $rhs custom<Signedness>($signedness) (`rounding` `` $rounding^)? "
              "attr-dict `:` custom<CudaTileType>(type($result))")

    def verify_op(self):
        rm = self.attributes.get("rounding")
        if rm not in (RoundingMode.ZERO, RoundingMode.NEGATIVE_INF, RoundingMode.POSITIVE_INF):
            return "invalid rounding mode specified, expect one of [zero, negative_inf, positive_inf]"
        if rm is RoundingMode.NEGATIVE_INF and \
                self.attributes.get("signedness") is Signedness.UNSIGNED:
            return "rounding mode 'negative_inf' is not allowed with 'unsigned' flag"
        return None



class RemIOp(_IntSignedBinary):
    """Element-wise integer remainder."""
    __slots__ = ()
    MNEMONIC, OPCODE = "remi", 0x5A
    TRAITS = (Pure, AllTypesMatch("result", "lhs", "rhs"), AllShapesMatch("result", "lhs", "rhs"))


class MaxIOp(_IntSignedBinary):
    """Element-wise integer maximum."""
    __slots__ = ()
    MNEMONIC, OPCODE = "maxi", 0x46


class MinIOp(_IntSignedBinary):
    """Element-wise integer minimum."""
    __slots__ = ()
    MNEMONIC, OPCODE = "mini", 0x48


class ShRIOp(_IntSignedBinary):
    """Element-wise shift right (arithmetic for signed, logical for unsigned)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "shri", 0x61


class MulhiIOp(CudaTileOp):
    """High half of the full-width product."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "mulhii", 0x4D, "Integer"
    OPERANDS = (Operand("x", IntTile), Operand("y", IntTile))
    RESULTS = (Result("result", IntTile),)
    TRAITS = (Pure, AllTypesMatch("x", "y", "result"))
    FORMAT = "$x `,` $y attr-dict `:` custom<CudaTileType>(type($result))"


class NegIOp(CudaTileOp):
    """Element-wise integer negation."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "negi", 0x50, "Integer"
    OPERANDS = (Operand("source", IntTile),)
    RESULTS = (Result("result", IntTile),)
    ATTRIBUTES = (Attr("overflow", IntegerOverflow, default=IntegerOverflow.NONE, since="13.2"),)
    TRAITS = (Pure, AllTypesMatch("source", "result"))
    FORMAT = ("$source (`overflow` `` $overflow^)? attr-dict `:` "
              "custom<CudaTileType>(type($result))")

    def verify_op(self):
        if self.attributes.get("overflow") is IntegerOverflow.NO_UNSIGNED_WRAP:
            return "'no_unsigned_wrap' overflow flag is not supported"
        return None



class CmpIOp(CudaTileOp):
    """Element-wise integer comparison producing i1."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "cmpi", 0x0F, "Integer"
    OPERANDS = (Operand("lhs", IntTile), Operand("rhs", IntTile))
    RESULTS = (Result("result", I1Tile),)
    ATTRIBUTES = (Attr("comparison_predicate", ComparisonPredicate), SIGNEDNESS)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs"),
              TypesMatchWith("Result type has i1 element type and same shape as operands",
                             "lhs", "result", i1_same_shape))
    FORMAT = ("custom<ComparisonPredicate>($comparison_predicate) $lhs `,` $rhs `,` "
              "custom<Signedness>($signedness) attr-dict `:` custom<CudaTileType>(type($lhs)) "
              "`->` custom<CudaTileType>(type($result))")


MmaIOperand = TileOf((I8,), prefix="mmai operand tile type")
MmaIAcc = TileOf((I32,), prefix="mmai acc tile type")
MmaIResult = TileOf((I32,), prefix="mmai result tile type")


class MmaIOp(CudaTileOp):
    """Integer matrix multiply-accumulate (2-D or batched 3-D)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "mmai", 0x4A, "Integer"
    OPERANDS = (Operand("lhs", MmaIOperand), Operand("rhs", MmaIOperand), Operand("acc", MmaIAcc))
    RESULTS = (Result("result", MmaIResult),)
    ATTRIBUTES = (Attr("signedness_lhs", Signedness), Attr("signedness_rhs", Signedness))
    TRAITS = (Pure, AllTypesMatch("acc", "result"),
              AllElementTypesMatch("lhs", "rhs", message="failed to verify that all of {lhs, rhs}"
                                   " have the same element type"),
              AllRanksMatch("lhs", "rhs", "acc"))
    FORMAT = ("$lhs `,` $rhs `,` $acc custom<Signedness>($signedness_lhs) "
              "custom<Signedness>($signedness_rhs) attr-dict `:` custom<CudaTileType>(type($lhs)) "
              "`,` custom<CudaTileType>(type($rhs)) `,` custom<CudaTileType>(type($acc))")

    def verify_op(self):
        return _mma_shapes(self)

