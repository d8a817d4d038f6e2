"""Float literal formatting exactly as MLIR's printer does it (``printFloatValue``).

MLIR first tries a scientific form with 6 significant digits padded to six decimals
(``3.140630e+00``); if reading that text back into the element type gives the same bits, it is
used.  Otherwise it uses the "natural precision" form (``2 + precision*59/196`` significant
digits, trailing zeros dropped, scientific only for large/small exponents, upper-case ``E``), and
if that form has no decimal point, or the value is NaN/Inf, the raw bits in hexadecimal
(``0x7FC00000``).  Decimal rounding is round-half-up on the exact binary value, like APFloat.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext

import numpy as np

from ..dtypes import numpy_dtype

__all__ = ["format_float", "hex_bits", "float_from_text", "float_from_bits", "PRECISION_BITS"]

#: Significand precision (incl. the hidden bit) of each float format.
PRECISION_BITS = {"f16": 11, "bf16": 8, "f32": 24, "tf32": 11, "f64": 53, "f8E4M3FN": 4,
                  "f8E5M2": 3, "f8E8M0FNU": 1, "f4E2M1FN": 2}

_BIT_WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "f64": 64, "f8E4M3FN": 8,
              "f8E5M2": 8, "f8E8M0FNU": 8, "f4E2M1FN": 4}

_UINT = {4: np.uint8, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def _digits(value: float, significant: int) -> tuple[str, int]:
    """Round |value| (exact binary) to ``significant`` digits, half-up.

    Returns the digit string with trailing zeros removed and the decimal exponent of its
    last digit (value = int(digits) * 10**exp)."""
    d = Decimal(abs(value))
    if d == 0:
        return "0", 0
    with localcontext() as ctx:
        ctx.prec = significant
        ctx.rounding = ROUND_HALF_UP
        d = +d
    sign, digits, exp = d.as_tuple()
    text = "".join(map(str, digits)).rstrip("0")
    exp += len(digits) - len(text)
    return (text or "0"), exp


def _scientific(digits: str, exp: int, pad_to: int | None, lower: bool) -> str:
    exp10 = exp + len(digits) - 1
    mant = digits[0] + "."
    rest = digits[1:]
    if pad_to is not None:
        rest = rest + "0" * (pad_to - len(rest))
    elif not rest:
        rest = "0"
    mant += rest
    e = abs(exp10)
    etext = str(e) if (pad_to is None or e >= 10) else f"0{e}"
    return f"{mant}{'e' if lower else 'E'}{'+' if exp10 >= 0 else '-'}{etext}"


def _natural(digits: str, exp: int, precision: int) -> str:
    n = len(digits)
    if exp >= 0:
        scientific = exp > 3 or n + exp > precision
    else:
        msd = exp + n - 1
        scientific = msd < 0 and -msd > 3
    if scientific:
        return _scientific(digits, exp, None, False)
    if exp >= 0:
        return digits + "0" * exp
    point = n + exp
    if point > 0:
        return digits[:point] + "." + digits[point:]
    return "0." + "0" * (-point) + digits


def hex_bits(value, element: str) -> str:
    """``0x``-prefixed upper-case hex of the raw bits of ``value`` stored as ``element``."""
    width = _BIT_WIDTH[element]
    arr = np.asarray(value, dtype=numpy_dtype(element)).reshape(1)
    if width == 4:
        bits = int(arr.view(np.uint8)[0]) & 0xF
    else:
        bits = int(arr.view(_UINT[width])[0])
    return "0x" + format(bits, "X")


def float_from_text(text: str, element: str):
    """Round the decimal literal ``text`` to ``element`` (nearest-even), as a NumPy scalar."""
    dt = numpy_dtype(element)
    if element in ("f32", "tf32", "f64", "f16"):
        return np.array(float(text), dtype=np.float64).astype(dt)[()]
    # narrow formats: go through an exact decimal -> nearest of the format
    return _round_decimal_to(Decimal(text), dt)


def _round_decimal_to(d: Decimal, dt: np.dtype):
    f = float(d)  # nearest double; double rounding to <= 11-bit formats only matters at ties
    lo = np.array(f, dtype=np.float64).astype(dt)
    return lo[()]


def float_from_bits(bits: int, element: str):
    """The value whose raw bits are ``bits`` in ``element`` (a NumPy scalar)."""
    width = _BIT_WIDTH[element]
    if width == 4:
        return np.array([bits & 0xF], dtype=np.uint8).view(numpy_dtype(element))[0]
    return np.array([bits], dtype=_UINT[width]).view(numpy_dtype(element))[0]


def format_float(value, element: str) -> str:
    """Print a float of type ``element`` as MLIR does (see the module docstring)."""
    v = float(value)
    if v != v or v in (float("inf"), float("-inf")):
        return hex_bits(value, element)
    sign = "-" if (v < 0 or (v == 0 and np.signbit(v))) else ""
    digits, exp = _digits(v, 6)
    text = sign + _scientific(digits, exp, 6, True)
    back = float_from_text(text, element)
    if float(back) == v and np.signbit(float(back)) == np.signbit(v):
        return text
    precision = 2 + PRECISION_BITS[element] * 59 // 196
    digits, exp = _digits(v, precision)
    text = sign + _natural(digits, exp, precision)
    if "." in text:
        return text
    return hex_bits(value, element)
