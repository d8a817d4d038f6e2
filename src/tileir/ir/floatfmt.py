"""Float literals as MLIR prints and parses them.

Printing (MLIR ``printFloatValue``): first a scientific form with six significant digits and a
padding zero (``3.140630e+00``, APFloat's ``toString(6, 0, false)``); if reading that text back
into the element type (one correct rounding from decimal) gives the same bits, it is used.
Otherwise APFloat's default ``toString()`` (``2 + precision*59/196`` significant digits, trailing
zeros dropped, plain notation unless more than three padding zeros would be needed, upper-case
``E``) if it contains a ``.``; otherwise, and for NaN/Inf, the raw bits in hexadecimal
(``0x7FC00000``; tf32 is a 19-bit format there).

APFloat's digit generation is reproduced exactly: the binary value ``M * 2**e`` is turned into an
integer times a power of ten, surplus decimal digits are first *truncated* by an integer division
(keeping a few more digits than asked), and only the remaining digits are rounded half-up on the
first dropped digit.  That differs from correct rounding in the last digit for some values
(``9.999940e-41`` for f32 ``1e-40``), which is what NVIDIA's tools print.

Parsing (MLIR ``parseFloat``): a decimal literal is read as the nearest double, then rounded to
the element type (so two roundings for narrow types, as MLIR does); a hexadecimal literal is the
raw bit pattern.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import numpy as np

from .dtypes import APFLOAT_BITS, FLOAT_FORMATS, NUMPY_DTYPES, numpy_dtype

__all__ = ["format_float", "hex_bits", "float_from_text", "float_from_bits", "float_bits",
           "PRECISION_BITS", "round_to_format", "apfloat_to_string"]

#: Significand precision (incl. the hidden bit) of each float format.
PRECISION_BITS = {name: f.precision for name, f in FLOAT_FORMATS.items()}

#: Exponent of the smallest normal number.
_MIN_EXP = {name: f.emin for name, f in FLOAT_FORMATS.items()}

#: Largest finite value (exactly: every format's maximum is a double).
_MAX = {name: Fraction(f.max_value) for name, f in FLOAT_FORMATS.items()}

#: Width of the bit pattern MLIR prints in hex (tf32 is APFloat's 19-bit FloatTF32).
_BIT_WIDTH = APFLOAT_BITS

_UINT = {4: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
#: the unsigned integer of each float format's storage size (its raw bits)
_STORAGE_UINT = {name: _UINT[8 * NUMPY_DTYPES[name].itemsize] for name in FLOAT_FORMATS}


# ---------------------------------------------------------------------------------------------
# Bits
# ---------------------------------------------------------------------------------------------

def float_bits(value, element: str) -> int:
    """The bit pattern of ``value`` (stored as ``element``) as MLIR sees it."""
    arr = np.asarray(value, dtype=numpy_dtype(element)).reshape(1)
    bits = int(arr.view(_STORAGE_UINT[element])[0])
    if element == "tf32":
        return bits >> 13
    if element == "f4E2M1FN":
        return bits & 0xF
    return bits


def hex_bits(value, element: str) -> str:
    """``0x``-prefixed upper-case hex of the raw bits of ``value`` stored as ``element``."""
    return "0x" + format(float_bits(value, element), "X")


def float_from_bits(bits: int, element: str):
    """The value whose raw bits (MLIR's view, see :func:`float_bits`) are ``bits``."""
    if element == "tf32":
        bits = (bits << 13) & 0xFFFFFFFF
    elif element == "f4E2M1FN":
        bits &= 0xF
    return np.array([bits], dtype=_STORAGE_UINT[element]).view(numpy_dtype(element))[0]


# ---------------------------------------------------------------------------------------------
# Rounding an exact value into a format
# ---------------------------------------------------------------------------------------------

def round_to_format(q: Fraction, element: str, negative_zero: bool = False):
    """Round the exact value ``q`` to ``element`` (nearest, ties to even) like APFloat.

    Returns a NumPy scalar of the element's storage dtype."""
    dt = numpy_dtype(element)
    if q == 0:
        return np.array(-0.0 if negative_zero else 0.0, dtype=np.float64).astype(dt)[()]
    neg = q < 0
    a = -q if neg else q
    p = PRECISION_BITS[element]
    emin = _MIN_EXP[element]
    # exponent of the leading bit
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    elif Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    quantum = Fraction(2) ** (e - p + 1)
    scaled = a / quantum
    m = scaled.numerator // scaled.denominator
    rem = scaled - m
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and m % 2 == 1):
        m += 1
    if element == "f8E8M0FNU" and m == 0:
        m = 1  # no zero in E8M0: the smallest value
    value = m * quantum
    if value > _MAX[element]:
        if element in ("f8E4M3FN", "f8E8M0FNU"):
            out = np.array(np.nan, dtype=np.float64).astype(dt)[()]
        elif element == "f4E2M1FN":
            out = np.array(float(_MAX[element]), dtype=np.float64).astype(dt)[()]
        else:
            out = np.array(np.inf, dtype=np.float64).astype(dt)[()]
        return -out if neg and element != "f8E8M0FNU" else out
    f = float(value)  # exact: every format here fits in a double
    if neg:
        f = -f
    return np.array(f, dtype=np.float64).astype(dt)[()]


def float_from_text(text: str, element: str):
    """The value of a decimal literal as MLIR's parser computes it: the nearest double, then
    rounded to ``element``."""
    d = float(text)
    if element == "f64":
        return np.float64(d)
    if d != d:
        return np.array(d).astype(numpy_dtype(element))[()]
    if d in (float("inf"), float("-inf")):
        if element in ("f8E4M3FN", "f8E8M0FNU"):
            return np.array(np.nan).astype(numpy_dtype(element))[()]
        return np.array(d).astype(numpy_dtype(element))[()]
    if element in ("f16", "f32"):
        # NumPy's double -> half/float conversion rounds correctly (to nearest, ties to even)
        with np.errstate(over="ignore"):
            return np.array(d, dtype=np.float64).astype(numpy_dtype(element))[()]
    return round_to_format(Fraction(d), element, negative_zero=(d == 0 and text.startswith("-")))


def _exact_from_decimal(text: str) -> Fraction:
    return Fraction(text)


# ---------------------------------------------------------------------------------------------
# APFloat::toString
# ---------------------------------------------------------------------------------------------

def _adjust_int(sig: int, exp: int, precision: int) -> tuple[int, int]:
    """Drop surplus decimal digits by truncating division (APFloat's first adjustment)."""
    bits = sig.bit_length()
    required = (precision * 196 + 58) // 59
    if bits <= required:
        return sig, exp
    removable = (bits - required) * 59 // 196
    if not removable:
        return sig, exp
    return sig // (10 ** removable), exp + removable


def _adjust_digits(digits: str, exp: int, precision: int) -> tuple[str, int]:
    """Round a digit string (most significant first) to ``precision`` digits, half-up on the
    first dropped digit; trailing zeros are removed."""
    n = len(digits)
    if n <= precision:
        return digits, exp
    if digits[precision] < "5":
        kept = digits[:precision].rstrip("0")
        return kept, exp + (n - len(kept))
    # round up with carry
    kept = list(digits[:precision])
    i = precision - 1
    while i >= 0 and kept[i] == "9":
        i -= 1
    if i < 0:
        return "1", exp + n
    kept[i] = chr(ord(kept[i]) + 1)
    kept = kept[:i + 1]
    return "".join(kept), exp + (n - len(kept))


def apfloat_to_string(value: float, sem_precision: int, fmt_precision: int = 0,
                      max_padding: int = 3, truncate_zero: bool = True) -> str:
    """APFloat::toString for a finite ``value`` of a format with ``sem_precision`` bits."""
    neg = value < 0 or (value == 0 and np.signbit(value))
    out = "-" if neg else ""
    if value == 0:
        if max_padding:
            return out + "0"
        if truncate_zero:
            return out + "0.0E+0"
        return out + "0.0" + "0" * max(fmt_precision - 1, 0) + "e+00"
    if not fmt_precision:
        fmt_precision = 2 + sem_precision * 59 // 196
    num, den = abs(float(value)).as_integer_ratio()
    # value = num / den, den a power of two; num odd unless den == 1
    exp = -(den.bit_length() - 1)
    sig = num
    if exp == 0:
        tz = (sig & -sig).bit_length() - 1
        sig >>= tz
        exp += tz
    if exp > 0:
        sig <<= exp
        exp = 0
    elif exp < 0:
        sig *= 5 ** (-exp)
    sig, exp = _adjust_int(sig, exp, fmt_precision)
    text = str(sig)
    stripped = text.rstrip("0")
    exp += len(text) - len(stripped)
    digits, exp = _adjust_digits(stripped, exp, fmt_precision)
    nd = len(digits)
    if not max_padding:
        scientific = True
    elif exp >= 0:
        scientific = exp > max_padding or nd + exp > fmt_precision
    else:
        msd = exp + nd - 1
        scientific = msd < 0 and -msd > max_padding
    if scientific:
        exp10 = exp + nd - 1
        mant = digits[0] + "."
        if nd == 1 and truncate_zero:
            mant += "0"
        else:
            mant += digits[1:]
        if not truncate_zero and fmt_precision > nd - 1:
            mant += "0" * (fmt_precision - nd + 1)
        e = str(abs(exp10))
        if not truncate_zero and len(e) < 2:
            e = "0" + e
        return f"{out}{mant}{'E' if truncate_zero else 'e'}{'+' if exp10 >= 0 else '-'}{e}"
    if exp >= 0:
        return out + digits + "0" * exp
    whole = exp + nd
    if whole > 0:
        return out + digits[:whole] + "." + digits[whole:]
    return out + "0." + "0" * (-whole) + digits


# ---------------------------------------------------------------------------------------------
# printFloatValue
# ---------------------------------------------------------------------------------------------

def format_float(value, element: str) -> str:
    """Print a float of type ``element`` as MLIR does (see the module docstring).  MLIR's
    float types without an arithmetic model here (``f80``, ``f128``...) print their value as
    an ``f64``."""
    if element not in PRECISION_BITS:
        element = "f64"
    return _format_cached(float_bits(value, element), element)


@lru_cache(maxsize=65536)
def _format_cached(bits: int, element: str) -> str:
    value = float_from_bits(bits, element)
    v = float(value)
    if v != v or v in (float("inf"), float("-inf")):
        return "0x" + format(bits, "X")
    prec = PRECISION_BITS[element]
    text = apfloat_to_string(v, prec, 6, 0, False)
    neg = text.startswith("-")
    back = round_to_format(_exact_from_decimal(text), element, negative_zero=neg)
    if float_bits(back, element) == bits:
        return text
    text = apfloat_to_string(v, prec)
    if "." in text:
        return text
    return "0x" + format(bits, "X")
