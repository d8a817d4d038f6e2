"""The math dialect's ops (MLIR 22), one declarative definition each: float unary/binary/ternary
ops with fastmath flags, integer ops, the float classification ops, ``fpowi``, ``clampf`` and
``sincos``."""

from __future__ import annotations

from ...ir.opdef import Attr, OpBase, Operand, Result
from ...ir.traits import AllTypesMatch, Pure, TypesMatchWith
from ..arith.attributes import FASTMATH_NONE
from ..arith.traits import (ChecksParsedOperandTypes, PopulatesDefaults,
                            SameOperandsAndResultShape, SameOperandsAndResultType)
from ..arith.types import BOOL_LIKE, FLOAT_LIKE, SIGNLESS_INT_OR_INDEX_LIKE, i1_same_shape

FASTMATH = Attr("fastmath", "arith.fastmath", default=FASTMATH_NONE,
                summary="Floating point fast math flags")
_FM = "(`fastmath` `` $fastmath^)?"


class MathOp(PopulatesDefaults, OpBase):
    """Base of every math op."""

    __slots__ = ()
    DIALECT_NAME = "math"


class _FloatUnary(MathOp):
    __slots__ = ()
    OPERANDS = (Operand("operand", FLOAT_LIKE),)
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = f"$operand {_FM} attr-dict `:` type($result)"


class _FloatBinary(MathOp):
    __slots__ = ()
    OPERANDS = (Operand("lhs", FLOAT_LIKE), Operand("rhs", FLOAT_LIKE))
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = f"$lhs `,` $rhs {_FM} attr-dict `:` type($result)"


class _IntUnary(MathOp):
    __slots__ = ()
    OPERANDS = (Operand("operand", SIGNLESS_INT_OR_INDEX_LIKE),)
    RESULTS = (Result("result", SIGNLESS_INT_OR_INDEX_LIKE),)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = "$operand attr-dict `:` type($result)"


class _Classification(ChecksParsedOperandTypes, MathOp):
    __slots__ = ()
    CHECKED_OPERANDS = ("operand",)
    OPERANDS = (Operand("operand", FLOAT_LIKE),)
    RESULTS = (Result("result", BOOL_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, TypesMatchWith("result type has i1 element type and same shape as operands",
                                   "operand", "result",
                                   lambda t: _spelled(i1_same_shape(t))))
    # the fastmath flags are spelled in the attribute dictionary here
    FORMAT = "$operand attr-dict `:` type($operand)"


def _spelled(text: str):
    from ...ir.types import type_from_text
    return type_from_text(text)


def _define(base: type, mnemonics: tuple) -> list:
    return [type(m.capitalize() + "Op", (base,),
                 {"__slots__": (), "MNEMONIC": m, "__module__": __name__}) for m in mnemonics]


FLOAT_UNARY = ("absf", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos",
               "cosh", "erf", "erfc", "exp", "exp2", "expm1", "floor", "log", "log10", "log1p",
               "log2", "round", "roundeven", "rsqrt", "sin", "sinh", "sqrt", "tan", "tanh",
               "trunc")
FLOAT_BINARY = ("atan2", "copysign", "powf")
INT_UNARY = ("absi", "ctlz", "cttz", "ctpop")
CLASSIFICATION = ("isfinite", "isinf", "isnan", "isnormal")

FLOAT_UNARY_OPS = _define(_FloatUnary, FLOAT_UNARY)
FLOAT_BINARY_OPS = _define(_FloatBinary, FLOAT_BINARY)
INT_UNARY_OPS = _define(_IntUnary, INT_UNARY)
CLASSIFICATION_OPS = _define(_Classification, CLASSIFICATION)


class IPowIOp(MathOp):
    __slots__ = ()
    MNEMONIC = "ipowi"
    OPERANDS = (Operand("lhs", SIGNLESS_INT_OR_INDEX_LIKE),
                Operand("rhs", SIGNLESS_INT_OR_INDEX_LIKE))
    RESULTS = (Result("result", SIGNLESS_INT_OR_INDEX_LIKE),)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($result)"


class FPowIOp(MathOp):
    __slots__ = ()
    MNEMONIC = "fpowi"
    OPERANDS = (Operand("lhs", FLOAT_LIKE), Operand("rhs", SIGNLESS_INT_OR_INDEX_LIKE))
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultShape(), AllTypesMatch("lhs", "result"))
    FORMAT = f"$lhs `,` $rhs {_FM} attr-dict `:` type($lhs) `,` type($rhs)"


class FmaOp(MathOp):
    __slots__ = ()
    MNEMONIC = "fma"
    OPERANDS = (Operand("a", FLOAT_LIKE), Operand("b", FLOAT_LIKE), Operand("c", FLOAT_LIKE))
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = f"$a `,` $b `,` $c {_FM} attr-dict `:` type($result)"


class ClampFOp(MathOp):
    __slots__ = ()
    MNEMONIC = "clampf"
    OPERANDS = (Operand("value", FLOAT_LIKE), Operand("min", FLOAT_LIKE),
                Operand("max", FLOAT_LIKE))
    RESULTS = (Result("result", FLOAT_LIKE),)
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, SameOperandsAndResultType())
    FORMAT = f"$value `to` ` ` `[` $min `,` $max `]` {_FM} attr-dict `:` type($result)"


class SinCosOp(MathOp):
    __slots__ = ()
    MNEMONIC = "sincos"
    OPERANDS = (Operand("operand", FLOAT_LIKE),)
    RESULTS = (Result("sin", FLOAT_LIKE), Result("cos", FLOAT_LIKE))
    ATTRIBUTES = (FASTMATH,)
    TRAITS = (Pure, AllTypesMatch("operand", "sin", "cos"))
    FORMAT = f"$operand {_FM} attr-dict `:` type($operand)"
