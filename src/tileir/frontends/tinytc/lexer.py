"""The tinytc lexer: longest match over tinytc v0.3.1's token rules (earlier rule wins a tie).

Keywords are matched as literal prefixes, so ``memreff32`` lexes as ``memref`` ``f32`` and a word
that starts no token is ``Unknown token`` at its first character, as in tinytc.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from .diagnostics import Loc, TinytcError

__all__ = ["Token", "tokenize", "KEYWORDS"]

#: literal tokens, named by their text in diagnostics (tinytc's Bison aliases)
_SYMBOLS = ["=", ",", "x", ":", "(", ")", "{", "}", "<", ">", "[", "]", "func", "work_group_size",
            "subgroup_size", "->", "?", ".n", ".t", ".atomic"]
KEYWORDS = ["memref", "group", "offset", "strided", "axpby", "arith", "gemm", "gemv", "ger",
            "hadamard", "alloca", "cast", "cmp", "expand", "fuse", "load", "group_id",
            "group_size", "for", "foreach", "if", "else", "size", "subview", "store", "sum",
            "yield"]
_ARITH = ["add", "sub", "mul", "div", "rem", "shl", "shr", "and", "or", "xor"]
_UNARY = ["neg", "not"]
_CMP = ["eq", "ne", "gt", "ge", "lt", "le"]

_IDENT = r"(?:[0-9]+|[a-zA-Z][a-zA-Z0-9_]*)"
_DEC_MANT = r"(?:[0-9]*\.[0-9]+|[0-9]+\.)"
_HEX_MANT = r"(?:[0-9a-fA-F]*\.[0-9a-fA-F]+|[0-9a-fA-F]+\.)"
_FLOAT = (rf"[-+]?(?:{_DEC_MANT}(?:[eE][-+]?[0-9]+)?|[0-9]+[eE][-+]?[0-9]+)"
          rf"|[-+]?0x(?:{_HEX_MANT}(?:[pP][-+]?[0-9]+)?|[0-9a-fA-F]+[pP][-+]?[0-9]+)")

# (kind, regex) in tinytc's rule order; kind None: skipped
_RULES: list[tuple[Optional[str], "re.Pattern[str]"]] = [
    ("LOCAL_IDENTIFIER", re.compile("%" + _IDENT)),
    ("GLOBAL_IDENTIFIER", re.compile("@" + _IDENT)),
]
_RULES += [(s, re.compile(re.escape(s))) for s in _SYMBOLS]
_RULES += [("INTEGER_CONSTANT", re.compile("true|false")),
           ("INTEGER_CONSTANT", re.compile(r"[-+]?[0-9]+")),
           ("FLOATING_CONSTANT", re.compile(_FLOAT)),
           ("INTEGER_TYPE", re.compile(r"i(?:16|1|8|32|64)|index")),
           ("FLOATING_TYPE", re.compile(r"f(?:32|64)"))]
_RULES += [(k, re.compile(re.escape(k))) for k in KEYWORDS]
_RULES += [("ARITHMETIC", re.compile(r"\.(?:" + "|".join(_ARITH) + ")")),
           ("ARITHMETIC_UNARY", re.compile(r"\.(?:" + "|".join(_UNARY) + ")")),
           ("CMP_CONDITION", re.compile(r"\.(?:" + "|".join(_CMP) + ")")),
           (None, re.compile(r"[ \t\v\r]+")),
           (None, re.compile(r";[^\n]*"))]

_INT_MAX = (1 << 63) - 1


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    value: Any
    loc: Loc


def _value(kind: str, text: str, loc: Loc, filename: str, source: str) -> Any:
    if kind == "INTEGER_CONSTANT":
        if text in ("true", "false"):
            return 1 if text == "true" else 0
        v = int(text)
        if abs(v) > _INT_MAX:
            raise TinytcError(f"Integer overflow: {text}", loc, filename, source)
        return v
    if kind == "FLOATING_CONSTANT":
        body = text.lstrip("+-")
        sign = -1.0 if text.startswith("-") else 1.0
        if body.startswith("0x"):
            hexbody = body if re.search(r"[pP]", body) else body + "p0"
            try:
                return sign * float.fromhex(hexbody)
            except OverflowError:
                return sign * float("inf")
        return sign * float(body)
    if kind in ("LOCAL_IDENTIFIER", "GLOBAL_IDENTIFIER"):
        return text[1:]
    if kind in ("ARITHMETIC", "ARITHMETIC_UNARY", "CMP_CONDITION"):
        return text[1:]
    return text


def tokenize(source: str, filename: str = "<stdin>") -> list[Token]:
    """All tokens of ``source``, ending with an ``end of file`` token; raises
    :class:`TinytcError` (``Unknown token``) at the first character that starts no token."""
    tokens: list[Token] = []
    pos, line, col = 0, 1, 1
    n = len(source)
    while pos < n:
        ch = source[pos]
        if ch == "\n":
            pos, line, col = pos + 1, line + 1, 1
            continue
        if ch == "\x00":
            break
        best_len, best_kind = 0, None
        for kind, rx in _RULES:
            m = rx.match(source, pos)
            if m is not None and m.end() - pos > best_len:
                best_len, best_kind = m.end() - pos, kind
        if best_len == 0:
            raise TinytcError("Unknown token", Loc(line, col, line, col + 1), filename, source)
        text = source[pos:pos + best_len]
        loc = Loc(line, col, line, col + best_len)
        if best_kind is not None:
            tokens.append(Token(best_kind, text, _value(best_kind, text, loc, filename, source),
                                loc))
        pos += best_len
        col += best_len
    tokens.append(Token("end of file", "", None, Loc(line, col, line, col)))
    return tokens
