"""Tokenizer for the MLIR-style textual format.

The whole buffer is split by one regular expression into tokens (whitespace and ``//`` comments
included, so offsets follow from lengths); the parser then works on two parallel lists, the token
texts and their start offsets.  A token's kind is read from its first character:

* ``%`` SSA value, ``^`` block label, ``@`` symbol, ``#`` attribute alias or dialect attribute,
  ``!`` type alias or dialect type, ``"`` string, a digit a number, a letter or ``_`` an
  identifier; anything else is punctuation (``->``, ``::`` and ``...`` are single tokens).
* A token starting with ``\\x00`` marks a character the lexer does not accept.
"""

from __future__ import annotations

import re
from itertools import accumulate

__all__ = ["tokenize", "is_identifier", "EOF"]

#: Sentinel text of the end-of-input token.
EOF = ""

_TOKEN = re.compile(r"""
    \s+
  | //[^\n]*
  | %(?:[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)(?:\#[0-9]+)?
  | \^(?:[0-9]+|[A-Za-z_$.\-][A-Za-z0-9_$.\-]*)
  | @(?:"(?:[^"\\\n]|\\.)*"|[A-Za-z_][A-Za-z0-9_$.]*)
  | [#!][A-Za-z_][A-Za-z0-9_$.\-]*
  | "(?:[^"\\\n]|\\.)*"
  | 0x[0-9A-Fa-f]+
  | [0-9]+(?:\.[0-9]*(?:[eE][+-]?[0-9]+)?)?
  | [A-Za-z_][A-Za-z0-9_$.]*
  | ->|::|\.\.\.
  | [()\[\]{}<>,:=?*+\-|/]
  | "(?:[^"\\\n]|\\.)*
  | .
""", re.VERBOSE | re.DOTALL)

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*\Z")

_PUNCT_OK = set("()[]{}<>,:=?*+-|/")


def is_identifier(text: str) -> bool:
    return _IDENT.match(text) is not None


def tokenize(text: str) -> tuple[list[str], list[int]]:
    """Split ``text`` into significant tokens.  Returns (texts, offsets); the lists end with an
    :data:`EOF` token at ``len(text)``.  Unterminated strings and stray characters become tokens
    whose text starts with ``\\x00`` so the parser can report them at the right place."""
    pieces = _TOKEN.findall(text)
    ends = list(accumulate(map(len, pieces)))
    texts: list[str] = []
    offsets: list[int] = []
    append_t, append_o = texts.append, offsets.append
    for piece, end in zip(pieces, ends):
        c = piece[0]
        if c.isspace() or (c == "/" and piece.startswith("//")):
            continue
        if c == '"' and (len(piece) < 2 or piece[-1] != '"' or piece.endswith('\\"') and
                         not _string_closed(piece)):
            piece = "\x00" + piece
        elif len(piece) == 1 and not (c.isalnum() or c in _PUNCT_OK or c in "_"):
            piece = "\x00" + piece
        append_t(piece)
        append_o(end - len(piece) + (1 if piece[0] == "\x00" else 0))
    texts.append(EOF)
    offsets.append(len(text))
    return texts, offsets


def _string_closed(piece: str) -> bool:
    """True if the quoted token ends with an unescaped quote."""
    i = 1
    n = len(piece)
    while i < n:
        c = piece[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i == n - 1
        i += 1
    return False


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


class StringLiteralError(ValueError):
    """A malformed string literal; ``offset``: where in the token MLIR reports it."""

    def __init__(self, message: str, offset: int = 0) -> None:
        super().__init__(message)
        self.offset = offset


def unescape_string(token: str) -> bytes:
    """Decode a quoted MLIR string token (``\\XX`` hex escapes allowed) to bytes."""
    body = token[1:-1]
    out = bytearray()
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "\\" and i + 1 < n:
            nxt = body[i + 1]
            if nxt in _ESCAPES:
                out += _ESCAPES[nxt].encode()
                i += 2
                continue
            hexpart = body[i + 1:i + 3]
            if len(hexpart) == 2 and all(ch in "0123456789abcdefABCDEF" for ch in hexpart):
                out.append(int(hexpart, 16))
                i += 3
                continue
            # (at the backslash, as MLIR's lexer)
            raise StringLiteralError("unknown escape in string literal", i + 1)
        try:
            out += c.encode("utf-8", "surrogateescape")  # raw bytes of an undecodable file
        except UnicodeEncodeError:
            raise ValueError("invalid character in string literal") from None
        i += 1
    return bytes(out)
