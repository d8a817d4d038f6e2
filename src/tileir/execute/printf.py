"""C ``printf`` formatting for ``cuda_tile.print_tko``.

The format string is parsed once (:func:`parse_format`) into literal text and conversion specs
``%[flags][width][.precision][length]conversion`` (flags ``-+ #0``; conversions
``d i u o x X e E f F g G a A c p`` and ``%%``).  Each conversion consumes one operand tile:

* a rank-0 tile prints as one value, a tile of rank >= 1 as a nested list
  ``[[0, 1], [2, 3]]`` with each element formatted by the spec (what cuTile's ``ct.printf``
  prints);
* integers print signed for ``d``/``i`` and unsigned (at the element's width) for
  ``u o x X``; the ``hh``/``h`` length modifiers truncate to 8/16 bits as in C, other length
  modifiers are accepted and ignored; i1 prints as 0/1;
* floats are converted to double; non-finite values print ``inf``/``-inf``/``nan``/``-nan``
  (upper case for ``F E G A``), padded with spaces; ``%a`` prints the shortest exact hex form
  (``0x1.8p+1``) as glibc does;
* a conversion that does not fit the operand's type formats the numeric value anyway
  (``%d`` of a float truncates toward zero); the spec calls this output undefined.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Optional, Sequence, Union

import numpy as np

__all__ = ["Spec", "parse_format", "format_printf", "format_value"]

_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d+)?(?:\.(?P<prec>\d*))?"
                   r"(?P<len>hh|h|ll|l|L|q|j|z|t)?(?P<conv>[diouxXeEfFgGaAcsp%n])")


@dataclass(frozen=True)
class Spec:
    flags: str
    width: Optional[int]
    prec: Optional[int]
    length: str
    conv: str
    text: str


def parse_format(fmt: str) -> list[Union[str, Spec]]:
    """Split ``fmt`` into literal strings and :class:`Spec` (``%%`` becomes a literal)."""
    out: list[Union[str, Spec]] = []
    pos = 0
    for m in _SPEC.finditer(fmt):
        if m.start() > pos:
            out.append(fmt[pos:m.start()])
        if m.group("conv") == "%":
            out.append("%")
        else:
            prec = m.group("prec")
            out.append(Spec(m.group("flags") or "", int(m.group("width"))
                            if m.group("width") else None,
                            (int(prec) if prec else 0) if prec is not None else None,
                            m.group("len") or "", m.group("conv"), m.group(0)))
        pos = m.end()
    if pos < len(fmt):
        out.append(fmt[pos:])
    merged: list[Union[str, Spec]] = []
    for p in out:
        if isinstance(p, str) and merged and isinstance(merged[-1], str):
            merged[-1] += p
        else:
            merged.append(p)
    return merged


def _pad(body: str, spec: Spec, zero_ok: bool, sign_len: int = 0) -> str:
    w = spec.width
    if not w or len(body) >= w:
        return body
    if "-" in spec.flags:
        return body.ljust(w)
    if "0" in spec.flags and zero_ok:
        return body[:sign_len] + body[sign_len:].rjust(w - sign_len, "0")
    return body.rjust(w)


def _format_int(value: int, spec: Spec, bits: int) -> str:
    conv = spec.conv
    if spec.length == "hh":
        bits = 8
    elif spec.length == "h":
        bits = 16
    mask = (1 << bits) - 1
    if conv in "di":
        v = value & mask
        if v >> (bits - 1):
            v -= 1 << bits
    else:
        v = value & mask
    neg = v < 0
    mag = -v if neg else v
    if conv in "diu":
        digits = str(mag)
    elif conv == "o":
        digits = format(mag, "o")
    elif conv == "x":
        digits = format(mag, "x")
    else:
        digits = format(mag, "X")
    if spec.prec is not None:
        if spec.prec == 0 and mag == 0:
            digits = ""
        digits = digits.rjust(spec.prec, "0")
    prefix = ""
    if conv in "di":
        prefix = "-" if neg else ("+" if "+" in spec.flags else (" " if " " in spec.flags else ""))
    if "#" in spec.flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and mag != 0:
            prefix += "0x" if conv == "x" else "0X"
    return _pad(prefix + digits, spec, spec.prec is None, len(prefix))


def _hex_float(x: float, spec: Spec) -> str:
    upper = spec.conv == "A"
    sign = "-" if math.copysign(1.0, x) < 0 else ("+" if "+" in spec.flags else
                                                    (" " if " " in spec.flags else ""))
    x = abs(x)
    if x == 0:
        mant, exp = "0", 0
        frac = ""
    else:
        h = float.hex(x)                       # '0x1.8000000000000p+1'
        m = re.match(r"0x([01])\.([0-9a-f]+)p([+-]\d+)", h)
        lead, frac, exp = m.group(1), m.group(2), int(m.group(3))
        mant = lead
        frac = frac.rstrip("0")
        if spec.prec is not None:
            if len(frac) > spec.prec:
                full = int(lead + frac, 16)
                drop = 4 * (len(frac) - spec.prec)
                q, rem = divmod(full, 1 << drop)
                half = 1 << (drop - 1)
                if rem > half or (rem == half and q & 1):
                    q += 1
                digits = format(q, "x").rjust(spec.prec + 1, "0")
                if spec.prec:
                    mant, frac = digits[:-spec.prec], digits[-spec.prec:]
                else:
                    mant, frac = digits, ""
            else:
                frac = frac.ljust(spec.prec, "0")
    if spec.prec is not None and x == 0:
        frac = "0" * spec.prec
    point = "." if frac or "#" in spec.flags else ""
    body = f"0x{mant}{point}{frac}p{exp:+d}"
    if upper:
        body = body.upper()
    return _pad(sign + body, spec, True, len(sign) + 2)


def _format_float(x: float, spec: Spec, negative_nan: bool = False) -> str:
    conv = spec.conv
    if conv in "aA":
        if not math.isfinite(x):
            return _nonfinite(x, spec, negative_nan)
        return _hex_float(x, spec)
    if not math.isfinite(x):
        return _nonfinite(x, spec, negative_nan)
    flags = spec.flags
    fmt = "%" + flags + (str(spec.width) if spec.width else "")
    if spec.prec is not None:
        fmt += "." + str(spec.prec)
    return (fmt + conv) % x


def _nonfinite(x: float, spec: Spec, negative_nan: bool) -> str:
    upper = spec.conv in "EFGA"
    if math.isnan(x):
        neg = negative_nan
        word = "nan"
    else:
        neg = x < 0
        word = "inf"
    sign = "-" if neg else ("+" if "+" in spec.flags else (" " if " " in spec.flags else ""))
    body = sign + (word.upper() if upper else word)
    return _pad(body, spec, False)


def format_value(value, elem: str, spec: Spec) -> str:
    """Format one element ``value`` (a NumPy scalar of element type ``elem``) with ``spec``."""
    conv = spec.conv
    is_float = elem[0] in "fbt"    # f16 f32 f64 bf16 tf32 f8* f4*
    if conv in "diuoxX":
        if is_float:
            f = float(value)
            iv = int(f) if math.isfinite(f) else 0
            return _format_int(iv, spec, 64)
        if elem == "ptr":
            return _format_int(int(value), spec, 64)
        bits = int(elem[1:]) if elem[0] == "i" else 64
        return _format_int(int(value), spec, max(bits, 1) if elem != "i1" else 8)
    if conv in "eEfFgGaA":
        f = float(value)
        neg_nan = False
        if math.isnan(f):
            neg_nan = bool(np.signbit(np.asarray(value).astype(np.float64)))
        return _format_float(f, spec, neg_nan)
    if conv == "c":
        return _pad(chr(int(value) & 0xFF), spec, False)
    if conv == "p":
        iv = int(value)
        return _pad("(nil)" if iv == 0 else f"0x{iv:x}", spec, False)
    if conv == "s":
        return _pad(str(value), spec, False)
    return ""      # %n prints nothing


def _format_tile(arr: np.ndarray, elem: str, spec: Spec) -> str:
    if arr.ndim == 0:
        return format_value(arr[()], elem, spec)
    return "[" + ", ".join(_format_tile(sub, elem, spec) for sub in arr) + "]"


def format_printf(pieces: Sequence[Union[str, Spec]], args: Sequence[tuple]) -> str:
    """Format parsed ``pieces`` with ``args``: ``(tile array without lane axis, elem)``."""
    out = []
    it = iter(args)
    for p in pieces:
        if isinstance(p, str):
            out.append(p)
            continue
        try:
            arr, elem = next(it)
        except StopIteration:
            out.append(p.text)
            continue
        out.append(_format_tile(np.asarray(arr), elem, p))
    return "".join(out)
