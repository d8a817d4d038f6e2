"""Helpers shared by the subcommands: MLIR-style flag spellings and file I/O."""

from __future__ import annotations

import re
import sys
from typing import Optional, Sequence

__all__ = ["normalize_argv", "read_input", "write_output", "read_binary_input"]

_NUMBER = re.compile(r"-[0-9.]")


def normalize_argv(argv: Sequence[str], aliases: Optional[dict] = None) -> list[str]:
    """Accept LLVM-style single-dash long options (``-split-input-file``, ``-o=x`` excepted)
    and ``--flag=value``; map tool-specific aliases to our spellings."""
    out = []
    for arg in argv:
        if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2 \
                and not _NUMBER.match(arg) and not arg.startswith("-o"):
            arg = "-" + arg
        if aliases:
            name, eq, value = arg.partition("=")
            if name in aliases:
                arg = aliases[name] + (eq + value if eq else "")
        out.append(arg)
    return out


def read_input(path: str, prog: str) -> tuple[Optional[str], str]:
    """Read a text input (``-`` = stdin); on failure print a message and return (None, name)."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError as exc:
        print(f"{prog}: error: cannot open input file '{path}': {exc.strerror}", file=sys.stderr)
        return None, path
    problem = _not_text(text, path)
    if problem:
        print(f"{prog}: error: '{path}' {problem}", file=sys.stderr)
        return None, path
    return text, path


def _not_text(text: str, path: str) -> Optional[str]:
    """Why a file given as Tile IR text is not (bytecode, or a bytecode file name), or None."""
    from .. import BYTECODE_MAGIC, BYTECODE_SUFFIXES
    if text.startswith(BYTECODE_MAGIC.decode("latin-1")):
        return ("is Tile IR bytecode, not text: convert it with 'tileir translate "
                "--cudatilebc-to-mlir' (tileir run reads it directly)")
    if path.endswith(BYTECODE_SUFFIXES):
        what = "is empty" if not text else "does not start with the bytecode bytes 7F 'TileIR' 00"
        return f"{what}: it is not Tile IR bytecode (nor text, by its name)"
    return None


def read_binary_input(path: str, prog: str) -> Optional[bytes]:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        print(f"{prog}: error: cannot open input file '{path}': {exc.strerror}", file=sys.stderr)
        return None


def write_output(path: str, data, prog: str = "tileir") -> bool:
    """Write text or bytes to ``path`` (``-`` = stdout); on failure print a message naming the
    file and return False."""
    if path == "-":
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
        return True
    mode = "wb" if isinstance(data, bytes) else "w"
    try:
        with open(path, mode) as f:
            f.write(data)
    except OSError as exc:
        print(f"{prog}: error: cannot open output file '{path}': {exc.strerror}",
              file=sys.stderr)
        return False
    return True
