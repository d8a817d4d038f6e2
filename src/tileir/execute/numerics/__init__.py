"""Bit-exact numerics of the CPU executor: small, pure, vectorised functions over NumPy arrays.

Modules (laid out like the spec):

* :mod:`.dtypes` -- element types, storage dtypes, bit patterns (§5.1)
* :mod:`.eft`, :mod:`.rounding` -- exact arithmetic and exact rounding in the four IEEE modes
* :mod:`.floatops` -- floating-point arithmetic (§8.7)
* :mod:`.transcendental` -- floating-point math functions (§8.7); :mod:`.ddmath` -- double-double
  kernels for f64 functions that need them
* :mod:`.intops` -- integer and bitwise ops (§8.8, §8.9)
* :mod:`.convert` -- conversions (§8.4), pack/unpack (§8.3)
"""
from .convert import bitcast, exti, ftof, ftoi, itof, pack, trunci, unpack
from .dtypes import (ELEMENT_TYPES, FLOAT_TYPES, INT_TYPES, FloatFormat, bitwidth,
                     canonical_nan_bits, canonicalize_nan, decode, encode, float_format, from_bits,
                     from_integer, int_max, int_min, is_float, is_int, numpy_dtype, to_bits,
                     to_signed, to_unsigned)
from .floatops import (absf, addf, ceil, cmpf, divf, floor, fma, maxf, minf, mulf, negf, remf,
                       sqrt, subf)
from .intops import (absi, addi, andi, cmpi, divi, maxi, mini, mulhii, muli, negi, ori, remi,
                     shli, shri, subi, xori)
from .predicates import COMPARISON_PREDICATES
from .rounding import ROUNDING_MODES, flush_subnormals, round_exact, round_to
from .transcendental import (atan2, cos, cosh, exp, exp2, log, log2, pow, rsqrt, sin, sinh, tan,
                             tanh)

__all__ = [
    # dtypes
    "ELEMENT_TYPES", "FLOAT_TYPES", "INT_TYPES", "FloatFormat", "bitwidth", "canonical_nan_bits",
    "canonicalize_nan", "decode", "encode", "float_format", "from_bits", "from_integer",
    "int_max", "int_min", "is_float", "is_int", "numpy_dtype", "to_bits", "to_signed",
    "to_unsigned",
    # rounding
    "ROUNDING_MODES", "flush_subnormals", "round_exact", "round_to",
    # floating point
    "absf", "addf", "ceil", "cmpf", "divf", "floor", "fma", "maxf", "minf", "mulf", "negf",
    "remf", "sqrt", "subf",
    "atan2", "cos", "cosh", "exp", "exp2", "log", "log2", "pow", "rsqrt", "sin", "sinh", "tan",
    "tanh",
    # integer
    "absi", "addi", "andi", "cmpi", "divi", "maxi", "mini", "mulhii", "muli", "negi", "ori",
    "remi", "shli", "shri", "subi", "xori", "COMPARISON_PREDICATES",
    # conversions
    "bitcast", "exti", "ftof", "ftoi", "itof", "pack", "trunci", "unpack",
]
