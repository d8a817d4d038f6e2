"""Parser for CUDA Tile IR text: NVIDIA's custom op syntax and MLIR's generic form.

Entry points: :func:`parse_module` (a whole buffer), :func:`parse_type` and
:func:`parse_attribute` (standalone strings).  Errors are reported as MLIR-style diagnostics
(``file:line:col: error: ...``) through :class:`~tileir.diagnostics.DiagnosticError`.
"""

from __future__ import annotations

import contextlib
import gc
import re
from typing import Callable, Optional

import numpy as np

from ..ir.attributes import (ENUMS_BY_NAME, UNIT, ArrayAttr, Attribute,
                             DenseArrayAttr, DenseElementsAttr, DictionaryAttr, FloatAttr,
                             IntegerAttr, OpaqueAttr, StringAttr, SymbolRefAttr, TypeAttr,
                             signless_value, splat_array)
from ..ir.diagnostics import ERROR, Diagnostic, DiagnosticError, SourceFile, SourceManager
from ..ir.core import Block, Operation, Region, Value
from ..ir.limits import MAX_REGION_DEPTH
from ..ir.opdef import OP_REGISTRY, OpSpec, make_op
from ..ir.locations import UNKNOWN_LOC, CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc
from ..ir.types import (BF16, ELEMENT_TYPES, F64, I1, I64, BuiltinType, ElementType, FunctionType,
                        IntegerType, Type)
from .lexer import EOF, tokenize, unescape_string
from .registry import (DENSE_BUILDERS, DIALECT_ATTR_PARSERS, DIALECT_TYPE_PARSERS,
                       ENUM_DESCRIPTIONS, FAST_OP_PARSERS, FAST_PATH_MISMATCH,
                       GENERIC_ATTR_NORMALIZERS, INHERENT_ATTRIBUTES, ISOLATED_OPS,
                       KEYWORD_ATTRIBUTES, KEYWORD_TYPES, NUMBER_TYPE_PARSERS, OP_NAME_ALIASES,
                       STANDARD_TYPE_SYNTAX_DIALECTS,
                       default_dialect_for)

__all__ = ["Parser", "ParseError", "parse_module", "parse_type",
           "parse_attribute", "ParseOptions", "BUILTIN_MODULE"]

BUILTIN_MODULE = "builtin.module"


class ParseError(Exception):
    """Internal: aborts parsing of the current buffer with a diagnostic."""

    def __init__(self, diag: Diagnostic) -> None:
        super().__init__(diag.message)
        self.diag = diag


class ParseOptions:
    """Options of the parser (mirroring cuda-tile-opt flags)."""

    def __init__(self, allow_unregistered: bool = False, implicit_module: bool = True) -> None:
        self.allow_unregistered = allow_unregistered
        self.implicit_module = implicit_module


ISOLATED_OPS.add(BUILTIN_MODULE)
INHERENT_ATTRIBUTES[BUILTIN_MODULE] = frozenset({"sym_name", "sym_visibility"})
_BUILTIN_NUMBER_TYPE = re.compile(r"[iu]i?[0-9]+|si[0-9]+|f[0-9]+.*|bf16")
_DIMENSION = re.compile(r"\s*(\?|[0-9]+|\[\s*(?:[0-9]+|\?)\s*\])\s*x")
_DIMENSION_NO_X = re.compile(r"\s*(?:\?|[0-9]+|\[\s*[0-9]+\s*\])\s*")
_UNRANKED = re.compile(r"\s*\*\s*x")
_SKIP_WS = re.compile(r"(?:\s|//[^\n]*)*")
#: a line holding only a region's closing brace
_CLOSE = re.compile(r"(?:\s|//[^\n]*)*\}[ \t]*(?://[^\n]*)?(?=\n|$)")
#: first characters of an op (result name, bare or quoted op name)
_OP_START = frozenset("%\"_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_BRACKETS = re.compile(r"->|\"(?:[^\"\\\n]|\\.)*\"|[(\[<)\]>]")


def _bracket_depth(src: str, start: int, end: int) -> int:
    """Net number of ``(``, ``[``, ``<`` opened in ``src[start:end]`` (``->`` and strings do
    not count)."""
    depth = 0
    for t in _BRACKETS.findall(src, start, end):
        if t in "([<":
            depth += 1
        elif t in ")]>":
            depth -= 1
    return depth


class _Scope:
    __slots__ = ("names", "isolated", "forward", "defs")

    def __init__(self, isolated: bool) -> None:
        self.names: dict[str, list[Value]] = {}
        self.isolated = isolated
        self.forward: dict[str, tuple[Value, int]] = {}
        #: offset of each name's definition (for "prior use here" notes)
        self.defs: dict[str, int] = {}


class _ForwardRef(Value):
    """Placeholder for an SSA value used before its definition."""

    __slots__ = ("name",)


def _hex_float(token: str, element: str) -> float:
    """A hexadecimal float literal: the bit pattern of a value of ``element``."""
    import numpy as np
    from ..ir.dtypes import NUMPY_DTYPES
    bits = int(token, 16)
    dtype = np.dtype(NUMPY_DTYPES.get(element, np.float64))
    if bits >= 1 << (8 * dtype.itemsize):
        raise ValueError("hexadecimal literal too wide")
    raw = np.array(bits, dtype=np.uint64).astype(f"u{dtype.itemsize}")
    return float(raw.view(dtype).astype(np.float64))


class Parser:
    """Recursive-descent parser over a token list (see :mod:`tileir.text.lexer`)."""

    def __init__(self, text: str, source: Optional[SourceFile] = None,
                 options: Optional[ParseOptions] = None, fast: bool = False) -> None:
        self.src = text
        #: per region being parsed: block label -> block, and labels used before their block
        self.block_labels: list[dict] = []
        self.block_forward: list[dict] = []
        self.source = source or SourceFile("<string>", text)
        self.options = options or ParseOptions()
        #: fast mode: ops that fit one line are parsed by one regex match (text/fastparse.py)
        #: and the rest is tokenized lazily, a logical line at a time ("windows"); any error
        #: makes :func:`parse_module` parse the whole buffer again in the plain mode, which
        #: tokenizes everything up front and reports the diagnostics.
        self.fast = fast and bool(FAST_OP_PARSERS)
        self._fast_op = _checked_fast_path(FAST_OP_PARSERS[0]) if FAST_OP_PARSERS else None
        self.n = len(text)
        # for the fast path's locations
        self._line_starts = self.source.line_starts
        self._file = self.source.name
        self._line_offset = 1 + self.source.line_offset
        self._col_base = 1 + self.source.col_offset  # columns of the first line
        if fast:
            self.toks, self.offs = [EOF], [0]
            self.win_end = 0
            self.i = 0
            self._refill()
        else:
            self.toks, self.offs = tokenize(text)
            self.win_end = self.n
            self.i = 0
        self.scopes: list[_Scope] = []
        #: regions being parsed around the current position (limited to MAX_REGION_DEPTH)
        self.region_depth = 0
        self.attr_aliases: dict[str, Attribute] = {}
        self.type_aliases: dict[str, Type] = {}
        #: the dialect an unprefixed op name is tried in (MLIR's default dialect stack: builtin
        #: at the top and in modules, what an op's regions declare, else "")
        self.default_dialect: list[str] = ["builtin"]
        self.deferred_locs: list[tuple[object, str, int]] = []
        self.pending_diags: list[Diagnostic] = []
        #: names of the custom-form ops being parsed (innermost last; None for generic ops):
        #: MLIR prefixes some errors of custom parsers with ``custom op '<name>' ``
        self.custom_ops: list = [None]

    # ------------------------------------------------------------------------------------------
    # Token windows (fast mode)
    # ------------------------------------------------------------------------------------------

    def _ensure(self) -> None:
        """At the end of the current window, tokenize the next logical line."""
        if self.i >= len(self.toks) - 1 and self.win_end < self.n:
            self._refill()

    def _next_is_op(self) -> bool:
        """At the end of a window: whether the next text starts an op (then the fast path gets
        a chance before anything is tokenized)."""
        if self.i < len(self.toks) - 1 or self.win_end >= self.n:
            return False
        pos = _SKIP_WS.match(self.src, self.win_end).end()
        return pos < self.n and self.src[pos] in _OP_START

    def _refill(self) -> None:
        src = self.src
        n = self.n
        pos = _SKIP_WS.match(src, self.win_end).end()
        if pos >= n:
            end = n
        else:
            end = src.find("\n", pos)
            if end < 0:
                end = n
            # a construct whose brackets are still open continues on the next lines (a
            # region's '{' at the end of a line does not count)
            depth = _bracket_depth(src, pos, end)
            while depth > 0 and end < n and not src[pos:end].rstrip().endswith("{"):
                nxt = src.find("\n", end + 1)
                if nxt < 0:
                    nxt = n
                depth += _bracket_depth(src, end, nxt)
                end = nxt
        toks, offs = tokenize(src[pos:end])
        prev_tok = self.toks[self.i - 1] if self.i > 0 else EOF
        prev_off = self.offs[self.i - 1] if self.i > 0 else 0
        self.toks = [prev_tok] + toks[:-1] + [EOF]
        self.offs = [prev_off] + [o + pos for o in offs[:-1]] + [end]
        self.i = 1
        self.win_end = end

    def _reset_at(self, pos: int) -> None:
        """Continue after text the fast path consumed (up to ``pos``)."""
        toks = self.toks
        if len(toks) == 2 and self.i == 1:
            toks[0] = self.src[pos - 1]
            offs = self.offs
            offs[0] = pos - 1
            offs[1] = pos
        else:
            self.toks = [self.src[pos - 1], EOF]
            self.offs = [pos - 1, pos]
            self.i = 1
        self.win_end = pos

    # ------------------------------------------------------------------------------------------
    # Token helpers
    # ------------------------------------------------------------------------------------------

    @property
    def tok(self) -> str:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> str:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else EOF

    @property
    def offset(self) -> int:
        return self.offs[self.i]

    def advance(self) -> str:
        t = self.toks[self.i]
        if t is not EOF or self.i < len(self.toks) - 1:
            self.i += 1
        return t

    def loc_at(self, offset: int) -> FileLineColLoc:
        return self.source.loc(offset)

    def error(self, message: str, offset: Optional[int] = None) -> ParseError:
        """Build (not raise) a parse error at ``offset`` (default: the current token)."""
        if offset is None:
            offset = self.offs[self.i]
            if self.toks[self.i] and self.toks[self.i][0] == "\x00":
                return ParseError(Diagnostic(ERROR, self._lex_error(), self.loc_at(offset)))
        return ParseError(Diagnostic(ERROR, message, self.loc_at(offset)))

    def _lex_error(self) -> str:
        t = self.toks[self.i][1:]
        if t.startswith('"'):
            return "expected '\"' in string literal"
        if t and "\udc80" <= t[0] <= "\udcff":
            return (f"unexpected byte 0x{ord(t[0]) - 0xDC00:02X}: the input is not UTF-8 text "
                    "(Tile IR bytecode is read by 'tileir translate --cudatilebc-to-mlir')")
        return "unexpected character"

    def error_prev_end(self, message: str) -> ParseError:
        """An error positioned just after the previous token (like MLIR's 'expected X')."""
        if self.i == 0:
            return self.error(message)
        prev = self.i - 1
        end = self.offs[prev] + len(self.toks[prev])
        return ParseError(Diagnostic(ERROR, message, self.loc_at(end)))

    def consume(self, text: str) -> bool:
        if self.toks[self.i] == text:
            self.i += 1
            return True
        return False

    def wrong_token_error(self, message: str) -> ParseError:
        """MLIR's emitWrongTokenError: when the unexpected token starts a line, report the error
        at the end of the last non-blank, non-comment text before it."""
        t = self.toks[self.i]
        if t and t[0] == "\x00":
            return self.error(message)
        pos = self.offs[self.i]
        if t is EOF or t == EOF:
            pos = max(pos - 1, 0)
        src = self.src
        end = pos
        while True:
            while end > 0 and src[end - 1] in " \t":
                end -= 1
            if end == 0:
                return ParseError(Diagnostic(ERROR, message, self.loc_at(pos)))
            if src[end - 1] not in "\n\r":
                return ParseError(Diagnostic(ERROR, message, self.loc_at(end)))
            end -= 1
            line_start = max(src.rfind("\n", 0, end), src.rfind("\r", 0, end)) + 1
            comment = src.find("//", line_start, end)
            if comment >= 0:
                end = comment

    def expect(self, text: str, what: Optional[str] = None,
               message: Optional[str] = None) -> None:
        """Consume the token ``text``, else report ``message`` (default ``expected 'text'``,
        or ``expected 'what'``)."""
        if self.toks[self.i] == text:
            self.i += 1
            return
        if self.i >= len(self.toks) - 1 and self.win_end < self.n:
            # fast mode: the construct continues on the next line (reduce's region)
            self._refill()
            if self.toks[self.i] == text:
                self.i += 1
                return
        raise self.wrong_token_error(message or f"expected '{what or text}'")

    def expect_keyword(self, word: str, prefixed: bool = True) -> None:
        """Consume the keyword ``word``; else ``expected 'word'``, in a custom op's parser its
        own error (MLIR's ``OpAsmParser::parseKeyword``)."""
        if self.toks[self.i] == word:
            self.i += 1
            return
        raise self.error(f"{self.op_prefix() if prefixed else ''}expected '{word}'")

    def at_identifier(self) -> bool:
        t = self.toks[self.i]
        return bool(t) and (t[0].isalpha() or t[0] == "_")

    def op_prefix(self) -> str:
        """``custom op '<name>' `` while parsing a custom-form op (MLIR's CustomOpAsmParser
        prefixes the errors it emits itself), else empty."""
        name = self.custom_ops[-1]
        return f"custom op '{name}' " if name else ""

    def parse_keyword(self, what: str = "valid keyword") -> str:
        t = self.toks[self.i]
        if t and (t[0].isalpha() or t[0] == "_"):
            self.i += 1
            return t
        raise self.error(f"{self.op_prefix() if what == 'valid keyword' else ''}expected {what}")

    def parse_enum_keyword(self, enum: type, message: Callable[[str], str]):
        """A keyword naming a member of ``enum``; any other word is an error whose message is
        ``message(word)``, reported at the word."""
        off = self.offset
        word = self.parse_keyword()
        member = enum.from_keyword(word)
        if member is None:
            raise self.error(message(word), off)
        return member

    def parse_string(self, what: str = "string") -> str:
        t = self.toks[self.i]
        if t and t[0] == '"':
            self.i += 1
            try:
                return unescape_string(t).decode("utf-8", "surrogateescape")
            except ValueError as exc:
                raise self.error(str(exc), self.offs[self.i - 1] + getattr(exc, "offset", 0))
        raise self.error(f"expected {what}")

    def parse_integer(self, what: str = "integer value", prefixed: bool = False) -> int:
        """An integer literal; ``prefixed``: an error is the custom op's own (MLIR's
        ``OpAsmParser::parseInteger``)."""
        neg = False
        start = self.offset
        if self.toks[self.i] == "-":
            neg = True
            self.i += 1
        t = self.toks[self.i]
        if t and t[0].isdigit() and "." not in t:
            self.i += 1
            v = int(t, 16) if t.startswith("0x") else int(t)
            return -v if neg else v
        raise self.error(f"{self.op_prefix() if prefixed else ''}expected {what}", start)

    def parse_fixed_integer(self, bits: int = 64) -> int:
        """A signed integer that must fit ``bits`` bits (MLIR's ``parseInteger<intN_t>``):
        ``integer value too large`` otherwise, at the literal."""
        start = self.offset
        v = self.parse_integer(prefixed=True)
        if not -(1 << (bits - 1)) <= v < (1 << (bits - 1)):
            raise self.error(f"{self.op_prefix()}integer value too large", start)
        return v

    def parse_unsigned_integer(self, bits: int) -> int:
        """An unsigned ``bits``-bit integer as MLIR's ``parseInteger<uintN_t>`` reads it: a
        negative literal wraps (``-1`` is the largest value), one outside
        ``[-2**(bits-1), 2**bits)`` is ``integer value too large`` at the literal."""
        start = self.offset
        v = self.parse_integer(prefixed=True)
        if not -(1 << (bits - 1)) <= v < (1 << bits):
            raise self.error(f"{self.op_prefix()}integer value too large", start)
        return v & ((1 << bits) - 1)

    def try_parse_integer(self) -> Optional[int]:
        t = self.toks[self.i]
        if t == "-":
            nxt = self.peek()
            if nxt and nxt[0].isdigit() and "." not in nxt:
                return self.parse_integer()
            return None
        if t and t[0].isdigit() and "." not in t:
            return self.parse_integer()
        return None

    def parse_comma_list(self, fn: Callable[[], object], close: Optional[str] = None) -> list:
        """Parse ``fn (',' fn)*``; if ``close`` is given and is the next token, the list is empty."""
        if close is not None and self.toks[self.i] == close:
            return []
        out = [fn()]
        while self.toks[self.i] == ",":
            self.i += 1
            out.append(fn())
        return out

    # ------------------------------------------------------------------------------------------
    # Top level
    # ------------------------------------------------------------------------------------------

    def parse_top_level(self) -> Operation:
        """Parse the whole buffer.  Returns a ``builtin.module`` (implicit or explicit), or with
        ``implicit_module=False`` the single top-level op."""
        # MLIR's implicit module is located at line 0, column 0 of a file; that of a later
        # -split-input-file chunk where the chunk starts (right after the marker)
        source = self.source
        start = (0, 0) if not (source.line_offset or source.col_offset) else \
            (source.line_offset + 1, source.col_offset + 1)
        top = make_op(BUILTIN_MODULE, regions=1, loc=FileLineColLoc(source.name, *start))
        block = top.regions[0].add_block()
        self.scopes.append(_Scope(True))
        self._parse_top_level_ops(block)
        self.finish_scope(self.scopes.pop())
        self.resolve_deferred_locations()
        if len(block.ops) == 1 and block.ops[0].name == BUILTIN_MODULE:
            # a single explicit module is the result, not wrapped in the implicit one
            explicit = block.ops[0]
            block.ops.remove(explicit)
            explicit.parent = None
            return explicit
        if not self.options.implicit_module:
            if len(block.ops) != 1:
                raise ParseError(Diagnostic(
                    ERROR, "source must contain a single top-level operation, found: "
                    f"{len(block.ops)}", self.loc_at(0)))
            op = block.ops[0]
            block.ops.clear()
            op.parent = None
            return op
        return top

    def _parse_top_level_ops(self, block: Block) -> None:
        """Parse ops into ``block`` and alias definitions, up to the end of the buffer."""
        while True:
            if self.fast and self._next_is_op():
                self.parse_operation(block)
                continue
            self._ensure()
            if self.toks[self.i] == EOF:
                break
            t = self.toks[self.i]
            if t[0] in "#!" and self.peek() == "=":
                self.parse_alias_definition()
                continue
            self.parse_operation(block)

    def parse_alias_definition(self) -> None:
        name = self.advance()
        name_off = self.offs[self.i - 1]
        self.expect("=")
        if name[0] == "#":
            if name in self.attr_aliases:
                raise self.error(f"redefinition of attribute alias id '{name[1:]}'", name_off)
            if self.toks[self.i] == "loc":
                self.attr_aliases[name] = self.parse_location_literal()
            else:
                self.attr_aliases[name] = self.parse_attribute()
        else:
            if name in self.type_aliases:
                raise self.error(f"redefinition of type alias id '{name[1:]}'", name_off)
            self.type_aliases[name] = self.parse_type()

    def resolve_deferred_locations(self) -> None:
        for target, alias, offset in self.deferred_locs:
            loc = self.attr_aliases.get(alias)
            if loc is None:
                raise self.error(f"operation location alias was never defined", offset)
            if not isinstance(loc, Location):
                raise self.error(f"expected location, but found '{loc}'", offset)
            target.loc = loc
            forward = getattr(target, "forward", None)
            if forward is not None:
                forward.loc = loc

    # ------------------------------------------------------------------------------------------
    # SSA values
    # ------------------------------------------------------------------------------------------

    def push_scope(self, isolated: bool) -> _Scope:
        scope = _Scope(isolated)
        self.scopes.append(scope)
        return scope

    def finish_scope(self, scope: _Scope) -> None:
        """Report forward references that were never defined in this scope."""
        if scope.forward:
            name, (ref, offset) = min(scope.forward.items(), key=lambda kv: kv[1][1])
            if scope.isolated or len(self.scopes) == 0:
                raise self.error("use of undeclared SSA value name", offset)
            # propagate to the enclosing scope; it may still be defined there later (a name
            # an earlier sibling region used first becomes that region's placeholder)
            parent = self.scopes[-1]
            for n, (ref, ref_off) in sorted(scope.forward.items(), key=lambda kv: kv[1][1]):
                existing = parent.forward.get(n)
                if existing is None:
                    parent.forward[n] = (ref, ref_off)
                    continue
                if ref.type != existing[0].type:
                    raise ParseError(self._type_mismatch(n, ref.type, existing[0].type, ref_off,
                                                         existing[1]))
                ref.replace_all_uses_with(existing[0])

    def lookup_value(self, name: str, offset: int, expected: Optional[Type]) -> Value:
        """Resolve a use of ``%name`` (or ``%name#k``) with the type the syntax implies."""
        base, _, idx = name.partition("#")
        for scope in reversed(self.scopes):
            group = scope.names.get(base)
            if group is not None:
                k = int(idx) if idx else 0
                if k >= len(group):
                    raise self.error(f"reference to invalid result number", offset)
                value = group[k]
                if expected is not None and value.type != expected:
                    raise ParseError(self._type_mismatch(name, expected, value.type, offset,
                                                         scope.defs.get(base)))
                return value
            if scope.isolated:
                break
        # forward reference (one placeholder per name in the isolated region, as MLIR has)
        for scope in reversed(self.scopes):
            entry = scope.forward.get(name)
            if entry is not None:
                ref = entry[0]
                if expected is not None and ref.type != expected:
                    raise ParseError(self._type_mismatch(name, expected, ref.type, offset,
                                                         entry[1]))
                return ref
            if scope.isolated:
                break
        scope = self.scopes[-1]
        if expected is None:
            raise self.error("use of undeclared SSA value name", offset)
        ref = _ForwardRef(expected)
        ref.name = name
        scope.forward[name] = (ref, offset)
        return ref

    def _type_mismatch(self, name: str, expected: Type, actual: Type, offset: int,
                       prior: Optional[int] = None) -> Diagnostic:
        # (MLIR names the value without its result number: '%x' for '%x#1')
        diag = Diagnostic(ERROR, f"use of value '{name.partition('#')[0]}' expects different "
                          "type than prior uses: "
                          f"'{expected}' vs '{actual}'", self.loc_at(offset))
        if prior is not None:
            diag.attach_note("prior use here", self.loc_at(prior))
        return diag

    def define_values(self, names: list[tuple[str, int, int]], values: list[Value]) -> None:
        """Bind result names (name, count, offset) to ``values`` in the current scope."""
        scope = self.scopes[-1]
        pos = 0
        for name, count, offset in names:
            group = values[pos:pos + count]
            pos += count
            self._define(scope, name, group, offset)

    def _define(self, scope: _Scope, name: str, group: list[Value], offset: int) -> None:
        for s in reversed(self.scopes):
            if name in s.names:
                raise self.error(f"redefinition of SSA value '{name}'", offset)
            if s.isolated:
                break
        scope.names[name] = group
        scope.defs[name] = offset
        if scope.forward:
            for k, value in enumerate(group):
                keys = (name, f"{name}#0") if k == 0 else (f"{name}#{k}",)
                for key in keys:
                    entry = scope.forward.pop(key, None)
                    if entry is None:
                        continue
                    ref, ref_off = entry
                    if ref.type != value.type:
                        diag = Diagnostic(ERROR, f"definition of SSA value '{name}#{k}' has type "
                                          f"'{value.type}'", self.loc_at(offset))
                        diag.attach_note(f"previously used here with type '{ref.type}'",
                                         self.loc_at(ref_off))
                        raise ParseError(diag)
                    ref.replace_all_uses_with(value)

    # ------------------------------------------------------------------------------------------
    # Operations
    # ------------------------------------------------------------------------------------------

    def parse_result_names(self) -> list[tuple[str, int, int]]:
        names = []
        while True:
            t = self.toks[self.i]
            if not t or t[0] != "%" or "#" in t:
                raise self.error("expected valid ssa identifier")
            off = self.offs[self.i]
            self.i += 1
            count = 1
            if self.toks[self.i] == ":":
                self.i += 1
                count = self.parse_integer("integer number of results")
                if count <= 0:
                    raise self.error("expected named operation to have at least 1 result",
                                     self.offs[self.i - 1])
            names.append((t, count, off))
            if self.toks[self.i] != ",":
                break
            self.i += 1
        if self.toks[self.i] != "=":
            raise self.error("expected '=' after SSA name")
        self.i += 1
        return names

    def parse_operation(self, block: Block, fast_tried: bool = False) -> Operation:
        """Parse one op (custom or generic form) and append it to ``block``.  ``fast_tried``:
        the fast path already declined this op."""
        if self.fast and not fast_tried:
            pos = self.offs[self.i] if self.i < len(self.toks) - 1 else self.win_end
            done = self._fast_op(self, pos, block)
            if done is not None:
                op, end = done
                if end is not None:
                    self._reset_at(end)
                return op
            self._ensure()
        start = self.offs[self.i]
        names: list[tuple[str, int, int]] = []
        t = self.toks[self.i]
        if t and t[0] == "%":
            names = self.parse_result_names()
        t = self.toks[self.i]
        name_off = self.offs[self.i]
        # (as MLIR, an op is located at its name, not at its result names)
        if t and t[0] == '"':
            op = self.parse_generic_operation(names, name_off)
        elif t and (t[0].isalpha() or t[0] == "_"):
            op = self.parse_custom_operation(names, name_off)
        else:
            if t and t[0] == "\x00":
                raise self.error("")
            raise self.wrong_token_error("expected operation name in quotes")
        if self.toks[self.i] == "loc":
            self.parse_trailing_location(op)
        expected = sum(c for _, c, _ in names)
        if names and not op.results:
            raise self.error("cannot name an operation with no results", start)
        if names and expected != len(op.results):
            raise self.error(f"operation defines {len(op.results)} results but was provided "
                             f"{expected} to bind", start)
        if names:
            self.define_values(names, op.results)
        block.append(op)
        return op

    def parse_argument_suffix(self) -> tuple:
        """What may follow a function argument's type: an optional attribute dictionary and an
        optional ``loc(...)``: ``(DictionaryAttr, location or None)``.  A location naming an
        alias defined further down comes as a :class:`PendingLocation`, which passes the
        location on to its ``forward`` target (the argument) once the alias is known."""
        attrs = DictionaryAttr(())
        if self.toks[self.i] == "{":
            attrs = DictionaryAttr.of(self.parse_attr_dict_body())
        loc = None
        if self.toks[self.i] == "loc":
            holder = PendingLocation()
            self.parse_trailing_location(holder)
            loc = holder if holder.loc is None else holder.loc
        return attrs, loc

    def parse_trailing_location(self, target) -> None:
        off = self.offset
        self.expect_keyword("loc", prefixed=False)
        self.expect("(")
        t = self.toks[self.i]
        if t and t[0] == "#" and not self.is_dialect_attribute(t):
            self.i += 1
            alias = self.attr_aliases.get(t)
            if alias is None:
                self.deferred_locs.append((target, t, self.offs[self.i - 1]))
            elif isinstance(alias, Location):
                target.loc = alias
            else:
                raise self.error(f"expected location, but found '{alias}'", self.offs[self.i - 1])
            self.expect(")")
            return
        target.loc = self.parse_location_body()
        self.expect(")")

    def resolve_op_name(self, name: str, offset: int) -> tuple[str, Optional[OpSpec]]:
        spec = OP_REGISTRY.get(name) or OP_REGISTRY.get(OP_NAME_ALIASES.get(name, ""))
        if spec is not None:
            return spec.name, spec
        dialect = self.default_dialect[-1]
        if dialect and "." not in name.split("$")[0]:
            full = f"{dialect}.{name}"
            spec = OP_REGISTRY.get(full) or OP_REGISTRY.get(OP_NAME_ALIASES.get(full, ""))
            if spec is not None:
                return spec.name, spec
        if name == "module":
            return BUILTIN_MODULE, None
        return name, None

    def parse_custom_operation(self, names, start: int) -> Operation:
        name_off = self.offs[self.i]
        raw = self.advance()
        full, spec = self.resolve_op_name(raw, name_off)
        if full == BUILTIN_MODULE:
            return self.parse_builtin_module(start)
        if spec is None:
            # MLIR: an unprefixed name is tried in the default dialect (even an empty one)
            tried = raw if "." in raw else f"{self.default_dialect[-1]}.{raw}"
            also = f" (tried '{tried}' as well)" if tried != raw else ""
            prefix = tried.partition(".")[0]
            if not _is_known_dialect(prefix):
                raise self.error(f"Dialect `{prefix}' not found for custom op '{raw}' {also}",
                                 name_off)
            raise self.error(f"custom op '{raw}' is unknown{also}", name_off)
        from .format import parse_custom_op
        self.custom_ops.append(spec.name)
        try:
            op = parse_custom_op(self, spec, names, start)
        finally:
            self.custom_ops.pop()
        return op

    def parse_builtin_module(self, start: int) -> Operation:
        attrs: dict = {}
        if self.toks[self.i] and self.toks[self.i][0] == "@":
            attrs["sym_name"] = StringAttr(self.parse_symbol_name())
        if self.toks[self.i] == "attributes":
            self.i += 1
            attrs.update(self.parse_attr_dict_body())
        op = make_op(BUILTIN_MODULE, attributes=attrs, regions=1, loc=self.loc_at(start))
        self.parse_region_into(op.regions[0], op, isolated=True, dialect="builtin",
                               counted=False)
        if not op.regions[0].blocks:
            op.regions[0].add_block()
        return op

    def parse_symbol_name(self) -> str:
        t = self.toks[self.i]
        if not t or t[0] != "@":
            raise self.error("expected valid '@'-identifier for symbol name")
        self.i += 1
        body = t[1:]
        if body.startswith('"'):
            try:
                return unescape_string(body).decode("utf-8", "surrogateescape")
            except ValueError as exc:
                raise self.error(str(exc),
                                 self.offs[self.i - 1] + 1 + getattr(exc, "offset", 0))
        return body

    def parse_generic_operation(self, names, start: int) -> Operation:
        self.custom_ops.append(None)
        try:
            return self._parse_generic_operation(names, start)
        finally:
            self.custom_ops.pop()

    def _parse_generic_operation(self, names, start: int) -> Operation:
        name_off = self.offs[self.i]
        name = self.parse_string("operation name")
        name = OP_NAME_ALIASES.get(name, name)
        spec = OP_REGISTRY.get(name)
        if spec is None and not self.options.allow_unregistered and name != BUILTIN_MODULE:
            dialect = name.split(".", 1)[0] if "." in name else ""
            if dialect and any(n.startswith(dialect + ".") for n in OP_REGISTRY):
                raise self.error(f"unregistered operation '{name}' found in dialect "
                                 f"('{dialect}') that does not allow unknown operations", name_off)
            raise self.error(f"operation being parsed with an unregistered dialect. If this is "
                             f"intended, please use -allow-unregistered-dialect with the MLIR "
                             f"tool used")
        self.expect("(")
        uses = self.parse_comma_list(self._parse_use, ")")
        self.expect(")")
        successors: list = []
        if self.toks[self.i] == "[":
            self.i += 1
            successors = self.parse_comma_list(self.parse_successor, "]")
            self.expect("]")
        attrs: dict = {}
        properties: Optional[dict] = None
        given_properties: Optional[dict] = None
        segments_in_properties = False
        if self.toks[self.i] == "<" and self.peek() == "{":
            self.i += 1
            properties = self.parse_attr_dict_body()
            self.expect(">")
            if spec is not None or name in INHERENT_ATTRIBUTES:
                segments_in_properties = "operandSegmentSizes" in properties
                given_properties = properties
                # MLIR 22 drops the keys that are no property of the op
                inherent = spec.attr_by_name if spec is not None else INHERENT_ATTRIBUTES[name]
                attrs.update((k, v) for k, v in properties.items()
                             if k in inherent or k == "operandSegmentSizes")
                properties = None
        regions: list[Region] = []
        if self.toks[self.i] == "(":
            self.i += 1
            while True:
                region = Region()
                isolated = name in ISOLATED_OPS
                dialect = default_dialect_for(name, self.default_dialect[-1])
                self.parse_region_into(region, None, isolated=isolated, dialect=dialect,
                                       generic=True, counted=name != BUILTIN_MODULE)
                regions.append(region)
                if not self.consume(","):
                    break
            self.expect(")")
        discardable: dict = {}
        if self.toks[self.i] == "{":
            discardable = self.parse_attr_dict_body()
            segments_in_properties &= "operandSegmentSizes" not in discardable
            if given_properties is not None and spec is not None:
                # MLIR 22: with <{...}> given, the op's own names in the dictionary are dropped
                discardable = {k: v for k, v in discardable.items()
                               if k not in spec.attr_by_name}
            attrs.update(discardable)
        type_off = self.offset
        self.expect(":")
        ftype = self.parse_type()
        if not isinstance(ftype, FunctionType):
            raise self.error("expected function type", type_off)
        if len(ftype.inputs) != len(uses):
            raise self.error(f"expected {len(uses)} operand type{'s' if len(uses) != 1 else ''}"
                             f" but had {len(ftype.inputs)}", type_off)
        operands = [self.lookup_value(n, off, t) for (n, off), t in zip(uses, ftype.inputs)]
        segments = None
        seg = attrs.get("operandSegmentSizes")
        sized = spec is not None and spec.attr_sized_operands
        if spec is not None and not sized and seg is not None:
            # an op without operand segments: MLIR drops the key from its properties and keeps
            # a discardable attribute of that name
            if segments_in_properties:
                attrs.pop("operandSegmentSizes")
        elif isinstance(seg, DenseArrayAttr) and seg.element == "i32":
            attrs.pop("operandSegmentSizes")
            segments = seg.value
            if sized and len(segments) != len(spec.operands):
                if segments_in_properties:
                    raise self.error(f"invalid properties {{operandSegmentSizes = "
                                     f"{seg.generic()}}} for op {name}: size mismatch in "
                                     f"attribute conversion: {len(segments)} vs "
                                     f"{len(spec.operands)}", name_off)
                segments = None  # (MLIR 22 keeps the property's default then)
        elif seg is not None and sized:
            raise self.error(f"invalid properties {{operandSegmentSizes = {seg.generic()}}} for op "
                             f"{name}: expected DenseI32ArrayAttr for key `value`", name_off)
        if sized and segments is None:
            # MLIR 22 keeps segment sizes as a property that defaults to all zero: the verifier
            # then reports the operand count
            segments = (0,) * len(spec.operands)
        if given_properties:
            self._check_property_conversion(spec, given_properties, name_off)
        elif spec is not None and discardable:
            # MLIR 22 checks the op's own attributes given in the dictionary when it parses it
            from ..ir.verify import inherent_attribute_error
            own = normalize_attributes(spec, {k: v for k, v in discardable.items()
                                              if k in spec.attr_by_name}, defaults=False)
            for decl in spec.attributes:
                if decl.name in own:
                    msg = inherent_attribute_error(decl, own[decl.name])
                    if msg is not None:
                        raise self.error(f"'{name}' op {msg}", name_off)
        if spec is not None:
            attrs = normalize_attributes(spec, attrs)
        op = make_op(name, operands, ftype.results, attrs, regions, self.loc_at(start), segments)
        op.successors = successors
        if properties is not None:
            op.properties = DictionaryAttr.of(properties)
        return op

    def _check_property_conversion(self, spec: Optional[OpSpec], properties: dict,
                                   offset: int) -> None:
        """MLIR 22 converts a generic op's ``<{...}>`` to its properties when it creates the
        op: a value not of the class a property is stored as is a parse error (``spec`` None:
        ``builtin.module``, whose properties are strings)."""
        from ..ir.verify import property_conversion_fails
        if spec is None:
            name = BUILTIN_MODULE
            bad = [k for k in ("sym_name", "sym_visibility")
                   if k in properties and not isinstance(properties[k], StringAttr)]
        else:
            name = spec.name
            converted = normalize_attributes(spec, {k: v for k, v in properties.items()
                                                    if k in spec.attr_by_name}, defaults=False)
            bad = [d.name for d in spec.attributes if d.name in converted
                   and property_conversion_fails(d, converted[d.name])]
        if bad:
            raise self.error(f"invalid properties {DictionaryAttr.of(properties).generic()} for "
                             f"op {name}: Invalid attribute `{bad[0]}` in property conversion: "
                             f"{properties[bad[0]].generic()}", offset)

    def _parse_use(self) -> tuple[str, int]:
        t = self.toks[self.i]
        if not t or t[0] != "%":
            raise self.wrong_token_error("expected SSA operand")
        self.i += 1
        return t, self.offs[self.i - 1]

    # ------------------------------------------------------------------------------------------
    # Regions and blocks
    # ------------------------------------------------------------------------------------------

    def parse_region_into(self, region: Region, op: Optional[Operation], *, isolated: bool,
                          dialect: str, generic: bool = False,
                          entry_args: Optional[list[tuple[str, Type, int, Optional[Location]]]] = None,
                          counted: bool = True) -> Region:
        """Parse ``{ ... }`` into ``region``.  ``entry_args`` pre-declares the entry block's
        arguments (custom syntaxes such as ``entry`` and ``for`` name them outside the braces).
        ``counted=False`` (a builtin module wrapper) leaves the region out of the nesting limit."""
        if counted and self.region_depth >= MAX_REGION_DEPTH:
            raise self.error(f"regions nest too deeply (at most {MAX_REGION_DEPTH} levels)")
        self.expect("{")
        scope = self.push_scope(isolated)
        self.default_dialect.append(dialect)
        self.region_depth += counted
        self.block_labels.append({})
        self.block_forward.append({})
        try:
            block: Optional[Block] = None
            if entry_args is not None:
                block = region.add_block()
                for name, typ, off, loc in entry_args:
                    pending = None
                    if isinstance(loc, PendingLocation):
                        pending, loc = loc, None
                    # (as MLIR, an argument declared in the text is located at its name)
                    if loc is None and name:
                        loc = self.loc_at(off)
                    arg = block.add_argument(typ, loc)
                    if pending is not None:
                        pending.forward = arg
                    if name:
                        self._define(scope, name, [arg], off)
            while True:
                fast_tried = False
                if self.fast and self.i >= len(self.toks) - 1:
                    target = block if block is not None else Block()
                    done = self._fast_op(self, self.win_end, target)
                    fast_tried = True
                    if done is not None:
                        if block is None:
                            block = region.append_block(target)
                        if done[1] is not None:
                            self._reset_at(done[1])
                        continue
                    m = _CLOSE.match(self.src, self.win_end)
                    if m is not None:
                        # a lone '}' ending the line: no need to tokenize
                        self._reset_at(m.end())
                        break
                self._ensure()
                t = self.toks[self.i]
                if t == "}":
                    self.i += 1
                    break
                if t is EOF or t == EOF:
                    raise self.error("expected '}' to end region")
                if t and t[0] == "^":
                    block = self.parse_block_header(region)
                    continue
                if block is None:
                    block = region.add_block()
                self.parse_operation(block, fast_tried)
        finally:
            self.default_dialect.pop()
            self.scopes.pop()
            self.region_depth -= counted
            self.block_labels.pop()
            forward = self.block_forward.pop()
        if forward:
            label, offset = min(forward.items(), key=lambda kv: kv[1])
            raise self.error("reference to an undefined block", offset)
        self.finish_scope(scope)
        return region

    def parse_successor(self) -> Block:
        """``^label``: a successor block of the current region (created when used before its
        definition)."""
        label, off = self.toks[self.i], self.offs[self.i]
        if not label or label[0] != "^":
            raise self.error("expected block name")
        self.i += 1
        if not self.block_labels:   # a top-level op (the implicit module has one block)
            raise self.error("reference to an undefined block", off)
        labels = self.block_labels[-1]
        block = labels.get(label)
        if block is None:
            block = labels[label] = Block()
            self.block_forward[-1][label] = off
        return block

    def parse_block_header(self, region: Region) -> Block:
        label, off = self.toks[self.i], self.offs[self.i]
        self.i += 1  # ^label
        labels = self.block_labels[-1] if self.block_labels else {}
        forward = self.block_forward[-1] if self.block_forward else {}
        if label in labels and label not in forward:
            raise self.error(f"redefinition of block '{label}'", off)
        if label in forward:
            del forward[label]
            block = region.append_block(labels[label])
        elif not labels and len(region.blocks) == 1 and not region.blocks[0].ops:
            # the entry block a custom syntax created for its arguments, now labelled
            block = labels[label] = region.blocks[0]
        else:
            block = region.add_block()
            labels[label] = block
        scope = self.scopes[-1]
        if self.consume("("):
            def one():
                t = self.toks[self.i]
                if not t or t[0] != "%":
                    raise self.wrong_token_error("expected SSA operand")
                off = self.offs[self.i]
                self.i += 1
                self.expect(":")
                typ = self.parse_type()
                # (as MLIR, located at its name unless a location follows)
                arg = block.add_argument(typ, self.loc_at(off))
                if self.toks[self.i] == "loc":
                    self.parse_trailing_location(arg)
                self._define(scope, t, [arg], off)
            self.parse_comma_list(one, ")")
            self.expect(")")
        self.expect(":")
        return block

    # ------------------------------------------------------------------------------------------
    # Attribute dictionaries and attributes
    # ------------------------------------------------------------------------------------------

    def parse_attr_dict_body(self) -> dict:
        """Parse ``{name = attr, unit_name, ...}``."""
        self.expect("{")
        out: dict = {}

        def entry():
            t = self.toks[self.i]
            off = self.offs[self.i]
            if t and t[0] == '"':
                key = self.parse_string()
            elif t and (t[0].isalpha() or t[0] == "_"):
                self.i += 1
                key = t
            else:
                raise self.error("expected attribute name")
            if key in out:
                raise self.error(f"duplicate key '{key}' in dictionary attribute", off)
            if self.consume("="):
                out[key] = self.parse_attribute()
            else:
                out[key] = UNIT
        self.parse_comma_list(entry, "}")
        self.expect("}")
        return out

    def parse_attribute(self, type_hint: Optional[Type] = None) -> Attribute:
        t = self.toks[self.i]
        off = self.offs[self.i]
        if not t:
            raise self.error("expected attribute value")
        c = t[0]
        if c == '"':
            s = self.parse_string()
            if self.toks[self.i] == ":":
                self.i += 1
                typ = self.parse_type()
                if str(typ) != "none":
                    return OpaqueAttr(f"{StringAttr(s).generic()} : {typ}")
            return StringAttr(s)
        if c == "@":
            root = self.parse_symbol_name()
            nested = []
            while self.toks[self.i] == "::":
                self.i += 1
                nested.append(self.parse_symbol_name())
            return SymbolRefAttr(root, tuple(nested))
        if c.isdigit() or c == "-":
            return self.parse_number_attribute(type_hint)
        if c == "[":
            self.i += 1
            items = self.parse_comma_list(self.parse_attribute, "]")
            self.expect("]")
            return ArrayAttr(tuple(items))
        if c == "{":
            return DictionaryAttr.of(self.parse_attr_dict_body())
        if c == "#":
            return self.parse_hash_attribute()
        if t in ("true", "false"):
            self.i += 1
            return IntegerAttr(1 if t == "true" else 0, I1)
        if t == "unit":
            self.i += 1
            return UNIT
        if t == "array":
            return self.parse_dense_array()
        if t == "dense":
            return self.parse_dense_builtin()
        if t == "loc":
            return self.parse_location_literal()
        keyword_attr = KEYWORD_ATTRIBUTES.get(t)
        if keyword_attr is not None:
            return keyword_attr(self)
        if t in ("affine_map", "affine_set", "strided", "sparse", "dense_resource",
                 "distinct"):
            return OpaqueAttr(self.take_balanced_text())
        # a type used as attribute
        if not self.starts_type() and not self._custom_type_errors():
            raise self.wrong_token_error("expected attribute value")
        return TypeAttr(self.parse_type())

    def take_balanced_text(self) -> str:
        """Consume ``word<...>`` (balanced) and return its source text."""
        start = self.offset
        self.i += 1
        if self.toks[self.i] != "<":
            return self.src[start:self.offs[self.i - 1] + len(self.toks[self.i - 1])]
        end = self._balanced_end(self.offs[self.i])
        self._skip_to_offset(end)
        return self.src[start:end]

    def parse_number_attribute(self, type_hint: Optional[Type]) -> Attribute:
        off = self.offset
        neg = self.consume("-")
        t = self.toks[self.i]
        if not t or not t[0].isdigit():
            raise self.error("expected attribute value", off)
        digits_off = self.offs[self.i]
        self.i += 1
        is_float = "." in t
        if is_float and type_hint is not None and not (
                isinstance(type_hint, ElementType) and type_hint.is_float):
            # (a type given to MLIR's parseAttribute: no ``: type`` is read; the error is where
            # the parser stands, after the literal)
            raise self.error("floating point value not valid for specified type", self.offset)
        typ: Optional[Type] = None
        if self.toks[self.i] == ":":
            self.i += 1
            typ = self.parse_type()
        explicit = typ is not None
        if typ is None:
            typ = type_hint
        if isinstance(typ, ElementType) and typ.is_float:
            if not is_float and not t.startswith("0x") and explicit:
                # (MLIR's parseFloatFromIntegerLiteral, at the digits after any '-')
                err = self.error("unexpected decimal integer literal for a floating point "
                                 "value", digits_off)
                err.diag.attach_note("add a trailing dot to make the literal a float")
                raise err
            if t.startswith("0x") and not is_float:
                from ..ir.floatfmt import float_from_bits
                if neg:
                    raise self.error("hexadecimal float literal should not have a leading minus",
                                     off)
                bits = int(t, 16)
                if bits.bit_length() > typ.width:
                    raise self.error("hexadecimal float constant out of range for type", off)
                value = float(float_from_bits(bits, typ.name))
            else:
                # the decimal's nearest double, rounded to the type (MLIR's APFloat of the
                # attribute's semantics): what it prints is then what it holds
                from ..ir.floatfmt import PRECISION_BITS, float_from_text
                if typ.name in PRECISION_BITS:
                    with np.errstate(over="ignore"):
                        value = abs(float(float_from_text(t, typ.name)))
                else:  # (f80, f128: kept as the double)
                    value = float(t)
            return FloatAttr(-value if neg else value, typ)
        if is_float:
            if typ is not None:
                # (MLIR reports it where the parser stands: the token after the type)
                raise self.error("floating point value not valid for specified type",
                                 self.offset if explicit else off)
            return FloatAttr(-float(t) if neg else float(t), F64)
        v = int(t, 16) if t.startswith("0x") else int(t)
        typ = typ or I64
        if explicit and not isinstance(typ, IntegerType) and not hasattr(typ, "signed") \
                and str(typ) != "index":
            raise self.error("integer literal not valid for specified type", digits_off)
        return IntegerAttr(self.integer_in_type(-v if neg else v, typ, digits_off), typ)

    def integer_in_type(self, v: int, typ: Type, offset: int) -> int:
        """An integer literal as MLIR stores it in an attribute of type ``typ``: checked to fit
        its width, signless values wrapped to the signed range (``index`` is signed 64-bit)."""
        if isinstance(typ, ElementType) and not typ.is_integer:
            return v
        width = getattr(typ, "width", None)
        signed = getattr(typ, "signed", None)
        if not isinstance(width, int):
            if str(typ) != "index":
                return v
            width, signed = 64, True
        if width == 0:
            if v != 0:
                raise self.error("integer constant out of range for attribute", offset)
            return v
        if signed is False and v < 0:
            raise self.error("negative integer literal not valid for unsigned integer type",
                             offset)
        lo = -(1 << (width - 1)) if signed is not False else 0
        hi = (1 << (width - 1)) - 1 if signed else (1 << width) - 1
        if not lo <= v <= hi:
            raise self.error("integer constant out of range for attribute", offset)
        if signed is None and v >> (width - 1) & 1 and v > 0:
            v -= 1 << width
        return v

    def parse_integer_attr(self, typ: Type) -> IntegerAttr:
        """An integer literal as an attribute of ``typ`` (``integer constant out of range for
        attribute`` when it does not fit, as MLIR's attribute parser, at the digits after any
        ``-``)."""
        off = self.offs[self.i + 1] if self.toks[self.i] == "-" else self.offset
        return self.integer_attr(self.parse_integer(), typ, off)

    def integer_attr(self, value: int, typ: Type, off: int) -> IntegerAttr:
        """An integer attribute of ``typ`` holding ``value`` (see :meth:`integer_in_type`)."""
        return IntegerAttr(self.integer_in_type(value, typ, off), typ)

    def parse_dense_array(self) -> DenseArrayAttr:
        self.expect_keyword("array", prefixed=False)
        self.expect("<")
        elt_offset = self.offset
        elt = self.parse_keyword("element type")
        bits = elt.lstrip("su")[1:] if elt.lstrip("su").startswith("i") else ""
        if bits.isdigit():  # MLIR's integer-width limits (before any value is range-checked)
            if int(bits) >= 1 << 32:
                raise self.error("invalid integer width", elt_offset)
            if int(bits) > 16777215:
                raise self.error("integer bitwidth is limited to 16777215 bits", elt_offset)
        values: list = []
        if self.consume(":"):
            def one():
                if elt == "i1":
                    w = self.parse_keyword("boolean")
                    return w == "true"
                if elt.startswith(("f", "bf", "tf")):
                    neg = self.consume("-")
                    t = self.toks[self.i]
                    if not t or not (t[0].isdigit() or t in ("inf", "nan")):
                        raise self.error("expected floating point literal")
                    off = self.offs[self.i]
                    if t.isdigit():
                        raise self.error("unexpected decimal integer literal for a floating "
                                         "point value", off)
                    self.i += 1
                    try:
                        v = _hex_float(t, elt) if t.startswith("0x") else float(t)
                    except (ValueError, OverflowError):
                        raise self.error("expected floating point literal", off) from None
                    return -v if neg else v
                value = self.parse_integer()
                width = int(elt[1:]) if elt[1:].isdigit() else 0
                if width and elt[0] == "i":
                    try:
                        value = self.integer_in_type(value, IntegerType(width), 0)
                    except ParseError:
                        raise self.error("integer constant out of range") from None
                return value
            values = self.parse_comma_list(one)
        self.expect(">")
        return DenseArrayAttr(elt, tuple(values))

    def parse_dense_builtin(self) -> DenseElementsAttr:
        """``dense<literal> : type`` (the generic spelling of a cuda_tile constant)."""
        self.expect_keyword("dense", prefixed=False)
        lt = self.offset
        self.expect("<")
        lit_start = self.offset
        literal = [] if self.toks[self.i] == ">" else self.parse_literal_tree()
        lit_end = self.offset
        self.expect(">")
        self.expect(":")
        type_off = self.offset
        typ = self.parse_type()
        build = DENSE_BUILDERS.get(type(typ))
        if build is None:
            # no dialect models constants of this type: keep the literal verbatim
            return OpaqueAttr(f"dense<{self.src[lit_start:lit_end].strip()}> : {typ}")
        return build(self, literal, typ, lt)

    def parse_literal_tree(self):
        """Parse a (possibly nested) list of scalar literal tokens for a dense constant.

        Returns nested Python lists whose leaves are ``(token, negative, offset)``; the offset
        is the token's, after any ``-`` (where MLIR reports a bad element)."""
        if self.toks[self.i] == "[":
            self.i += 1
            items = self.parse_comma_list(self.parse_literal_tree, "]")
            self.expect("]")
            return items
        if self.toks[self.i] == "(":
            return self._complex_leaf()
        return self._literal_leaf()

    def _literal_leaf(self) -> tuple:
        """One scalar token of a dense literal: ``(token, negative, offset)``."""
        neg = self.consume("-")
        off = self.offset
        t = self.toks[self.i]
        if not t or t[0] in "[]<>,:(){}":
            raise self.error("expected integer value")
        self.i += 1
        return (t, neg, off)

    def _complex_leaf(self) -> "ComplexLeaf":
        """``(real, imag)``: one element of a complex dense literal."""
        off = self.offset
        self.i += 1
        real = self._literal_leaf()
        if self.toks[self.i] != ",":
            raise self.error_prev_end("expected ',' between complex elements")
        self.i += 1
        imag = self._literal_leaf()
        if self.toks[self.i] != ")":
            raise self.error_prev_end("expected ')' after complex elements")
        self.i += 1
        return ComplexLeaf(real, imag, off)

    def is_dialect_attribute(self, tok: str) -> bool:
        """Whether ``#tok`` names an attribute of a dialect with a registered attribute parser
        (else it is an alias, or another dialect's attribute kept verbatim)."""
        dialect, dot, _ = tok[1:].partition(".")
        return bool(dot) and (dialect in DIALECT_ATTR_PARSERS or tok[1:] in ENUMS_BY_NAME)

    def parse_hash_attribute(self) -> Attribute:
        t = self.toks[self.i]
        off = self.offset
        if "." not in t and t not in self.attr_aliases and t[1:] in DIALECT_ATTR_PARSERS \
                and self.peek() == "<":
            # ``#dialect<...>``: a dialect attribute without a mnemonic (``#index<...>``)
            self.i += 1
            return DIALECT_ATTR_PARSERS[t[1:]](self, "", off)
        if not self.is_dialect_attribute(t):
            if t in self.attr_aliases:
                self.i += 1
                return self.attr_aliases[t]
            if "." in t or self.peek() == "<" and self.src.startswith("<", off + len(t)):
                return OpaqueAttr(self.take_balanced_text())
            raise self.error(f"undefined symbol alias id '{t[1:]}'", self.offs[self.i] + len(t))
        self.i += 1
        enum_cls = ENUMS_BY_NAME.get(t[1:])
        if enum_cls is not None:
            self.expect("<")
            member = self.parse_enum_keyword(
                enum_cls, lambda word: f"expected {_enum_desc(enum_cls)} to be one of: "
                                       f"{', '.join(enum_cls.keywords())}")
            self.expect(">")
            return member
        dialect, _, mnemonic = t[1:].partition(".")
        return DIALECT_ATTR_PARSERS[dialect](self, mnemonic, off)

    # ------------------------------------------------------------------------------------------
    # Locations
    # ------------------------------------------------------------------------------------------

    def parse_location_literal(self) -> Location:
        self.expect_keyword("loc", prefixed=False)
        self.expect("(")
        t = self.toks[self.i]
        if t and t[0] == "#" and not self.is_dialect_attribute(t):
            self.i += 1
            loc = self.attr_aliases.get(t)
            if loc is None:
                raise self.error(f"undefined symbol alias id '{t[1:]}'", self.offs[self.i])
            self.expect(")")
            return loc
        loc = self.parse_location_body()
        self.expect(")")
        return loc

    def _location_number_at(self) -> Optional[int]:
        """The unsigned 32-bit integer literal at the current token, or None."""
        t = self.toks[self.i]
        if not t or not t[0].isdigit() or "." in t:
            return None
        try:
            value = int(t, 16) if t.startswith(("0x", "0X")) else int(t)
        except ValueError:
            return None
        return value if value < (1 << 32) else None

    def _location_number(self, what: str) -> int:
        """A line or column of a file location: an unsigned 32-bit literal (mlir-opt's
        message otherwise)."""
        value = self._location_number_at()
        if value is None:
            raise self.error(f"expected integer {what} number in FileLineColRange")
        self.i += 1
        return value

    def parse_location_body(self) -> Location:
        t = self.toks[self.i]
        off = self.offset
        if t == "unknown":
            self.i += 1
            return UNKNOWN_LOC
        if t == "callsite":
            self.i += 1
            self.expect("(")
            callee = self.parse_location_body()
            self.expect_keyword("at", prefixed=False)
            caller = self.parse_location_body()
            self.expect(")")
            return CallSiteLoc(callee, caller)
        if t == "fused":
            self.i += 1
            meta = None
            if self.consume("<"):
                meta = self.parse_attribute()
                self.expect(">")
            self.expect("[")
            locs = self.parse_comma_list(self.parse_location_body, "]")
            self.expect("]")
            return FusedLoc(tuple(locs), meta)
        if t and t[0] == '"':
            name = self.parse_string()
            if self.toks[self.i] == ":":
                self.i += 1
                line = self._location_number("line")
                self.expect(":")
                col = self._location_number("column")
                end_line = end_col = None
                if self.toks[self.i] == "to":
                    self.i += 1
                    if self.consume(":"):
                        end_col = self._location_number("column")
                    else:
                        # (mlir-opt reports a bad end line just after `to`)
                        t = self.toks[self.i]
                        if not t or not t[0].isdigit():
                            raise self.error_prev_end("expected either integer or `:` post `to` "
                                                      "in FileLineColRange")
                        end_line = self._location_number_at()
                        if end_line is None:
                            raise self.error_prev_end("expected integer line number in "
                                                      "FileLineColRange")
                        self.i += 1
                        self.expect(":")
                        end_col = self._location_number("column")
                return FileLineColLoc(name, line, col, end_line, end_col)
            child = None
            if self.consume("("):
                child = self.parse_location_body()
                self.expect(")")
            return NameLoc(name, child)
        if t and t[0] == "#" and self.is_dialect_attribute(t):
            loc = self.parse_hash_attribute()  # a dialect's location attribute
            if isinstance(loc, Location):
                return loc
            raise self.error("expected location instance", off)
        if t and t[0] == "#":
            self.i += 1
            loc = self.attr_aliases.get(t)
            if isinstance(loc, Location):
                return loc
            raise self.error(f"expected location instance", off)
        raise self.error("expected location instance")

    # ------------------------------------------------------------------------------------------
    # Types
    # ------------------------------------------------------------------------------------------

    def _balanced_end(self, lt_offset: int) -> int:
        """Offset just past the ``>`` matching the ``<`` at ``lt_offset``: MLIR's pretty dialect
        body, where ``<>``, ``()``, ``[]`` and ``{}`` nest and must match (``->`` is not a
        closing ``>``), and strings are skipped.  An unbalanced body is reported at the last
        string in it (where MLIR's lexer last stopped), else at the ``<``."""
        src = self.src
        closing = {"<": ">", "(": ")", "[": "]", "{": "}"}
        stack: list[str] = []
        at = lt_offset
        i = lt_offset
        n = len(src)
        while i < n:
            c = src[i]
            if c in closing:
                stack.append(c)
            elif c in ">)]}":
                if c == ">" and i > 0 and src[i - 1] == "-":
                    i += 1
                    continue
                if not stack or closing[stack[-1]] != c:
                    opened = stack[-1] if stack else "<"
                    raise self.error(f"unbalanced '{opened}' character in pretty dialect name",
                                     at)
                stack.pop()
                if not stack:
                    return i + 1
            elif c == '"':
                at = i
                j = i + 1
                while j < n and src[j] != '"':
                    if src[j] in "\n\r":  # as MLIR's lexer: strings do not span lines
                        raise self.error("expected '\"' in string literal", j)
                    j += 2 if src[j] == "\\" else 1
                i = j
            i += 1
        opened = stack[-1] if stack else "<"
        raise self.error(f"unbalanced '{opened}' character in pretty dialect name", at)

    def parse_dimension_list(self, *, dynamic: bool = True, scalable: bool = False,
                             unranked: bool = False) -> tuple[Optional[list], list[bool]]:
        """The ``4x?x[8]x`` prefix of a shaped type's body (each size followed by ``x``), read
        from the source text: ``(sizes, scalable flags)``, a size ``None`` for ``?``; with
        ``unranked``, ``*x`` gives ``(None, [])``.  Resynchronises the tokens after the last
        ``x`` (the lexer reads ``4x4xf32`` as ``4`` and ``x4xf32``)."""
        src = self.src
        pos = self.offs[self.i]
        if unranked:
            m = _UNRANKED.match(src, pos)
            if m:
                self.resync_at(m.end())
                return None, []
        sizes: list = []
        flags: list[bool] = []
        while True:
            m = _DIMENSION.match(src, pos)
            if m is None:
                break
            text = m.group(1)
            is_scalable = text.startswith("[")
            if is_scalable:
                if not scalable:
                    break
                text = text[1:-1].strip()
            if text == "?":
                if not dynamic:
                    raise self.error("expected static shape", m.start(1))
                sizes.append(None)
            else:
                size = int(text)
                if size >= 1 << 63:
                    raise self.error("invalid dimension", m.start(1))
                sizes.append(size)
            flags.append(is_scalable)
            pos = m.end()
        m = _DIMENSION_NO_X.match(src, pos)
        if m and (scalable or "[" not in m.group()):
            raise self.error("expected 'x' in dimension list", m.end())
        if sizes:
            self.resync_at(pos)
        return sizes, flags

    def resync_at(self, pos: int) -> None:
        """Continue at source offset ``pos``, which may fall inside a token (it is split)."""
        import bisect
        j = bisect.bisect_left(self.offs, pos, self.i)
        if j < len(self.offs) and self.offs[j] == pos:
            self.i = j
            return
        k = j - 1
        tok_end = self.offs[k] + len(self.toks[k])
        if k < self.i or tok_end <= pos:
            self.i = j
            return
        # the split token's rest may join the word after it (``0xcomplex``: the lexer read
        # ``0xc`` and ``omplex``): re-read the run of adjacent word tokens as one
        last = k
        while last + 1 < len(self.toks) and self.offs[last + 1] == tok_end and \
                self.toks[last + 1][:1].isalnum():
            last += 1
            tok_end += len(self.toks[last])
        toks, offs = tokenize(self.src[pos:tok_end])
        self.toks[k:last + 1] = toks[:-1]
        self.offs[k:last + 1] = [o + pos for o in offs[:-1]]
        self.i = k

    def _skip_to_offset(self, end: int) -> None:
        import bisect
        self.i = bisect.bisect_left(self.offs, end, self.i)

    def starts_type(self) -> bool:
        """Whether the current token can begin a type (where MLIR's ``parseOptionalType``
        parses one): ``(``, ``!...``, or a builtin or registered type keyword."""
        t = self.toks[self.i]
        if not t:
            return False
        return t[0] in "(!" or t in ELEMENT_TYPES or t in KEYWORD_TYPES or \
            _BUILTIN_NUMBER_TYPE.fullmatch(t) is not None

    def parse_type(self) -> Type:
        t = self.toks[self.i]
        off = self.offs[self.i]
        if not t:
            raise self.error("expected non-function type")
        c = t[0]
        if c == "(":
            return self.parse_function_type()
        if c == "!":
            dialect, dot, word = t[1:].partition(".")
            if dot:
                hook = DIALECT_TYPE_PARSERS.get(dialect)
                if hook is not None:
                    return hook(self, word, off, off + len(t))
            if t in self.type_aliases:
                self.i += 1
                return self.type_aliases[t]
            if self.peek() == "<" and (dot or self.src.startswith("<", off + len(t))):
                # ``!dialect.name<...>``, or ``!dialect<...>`` (the ``<`` right after the name)
                return BuiltinType(self.take_balanced_text())
            if "." in t:
                self.i += 1
                return BuiltinType(t)
            raise self.error(f"undefined symbol alias id '{t[1:]}'", self.offs[self.i] + len(t))
        if c.isalpha() or c == "_":
            el = ELEMENT_TYPES.get(t)
            if el is not None:
                self.i += 1
                return el
            hook = KEYWORD_TYPES.get(t)
            if hook is not None:
                typ = hook(self, t, off)
                if typ is not None:
                    return typ
            if _BUILTIN_NUMBER_TYPE.fullmatch(t):
                # builtin integer and float types outside ELEMENT_TYPES (i7, si32, f80...)
                for number_type in NUMBER_TYPE_PARSERS:
                    typ = number_type(self, t, off)
                    if typ is not None:
                        return typ
                # a word that only looks like one (``f32memref``)
                raise self.error_prev_end("expected non-function type")
            if self._custom_type_errors():
                # cuda-tile's parseCudaTileType: a keyword naming no cuda_tile type
                self.i += 1
                raise self.error(f"{self.op_prefix()}unknown type: {t}", self.offs[self.i])
        if self._custom_type_errors():
            raise self.error(f"{self.op_prefix()}expected valid keyword")
        raise self.wrong_token_error("expected non-function type")

    def _custom_type_errors(self) -> bool:
        """Whether a type error inside the current custom op reads as cuda_tile's."""
        op = self.custom_ops[-1]
        return bool(op) and op.partition(".")[0] not in STANDARD_TYPE_SYNTAX_DIALECTS

    def parse_function_type(self) -> FunctionType:
        self.expect("(")
        inputs = self.parse_comma_list(self.parse_type, ")")
        self.expect(")")
        self.expect("->", message="expected '->' in function type")
        if self.toks[self.i] == "(":
            self.i += 1
            results = self.parse_comma_list(self.parse_type, ")")
            self.expect(")")
        else:
            results = [self.parse_type()]
        return FunctionType(inputs, results)


def _is_known_dialect(name: str) -> bool:
    """Whether ``name`` is a dialect tileir knows (ops, types or attributes registered)."""
    return (name == "builtin" or name in DIALECT_TYPE_PARSERS or name in DIALECT_ATTR_PARSERS
            or any(n.startswith(name + ".") for n in OP_REGISTRY))


class _LocHolder:
    loc = None


class PendingLocation(_LocHolder):
    """A trailing location parsed before the value it belongs to exists (a function argument):
    ``loc`` once known; ``forward`` (set by whoever creates the value) receives it too when the
    location names an alias defined further down."""

    forward = None


def _enum_desc(enum_cls) -> str:
    return ENUM_DESCRIPTIONS.get(enum_cls, enum_cls.__name__)


# ---------------------------------------------------------------------------------------------
# Dense constants
# ---------------------------------------------------------------------------------------------

def _literal_shape(tree, parser: Parser, offset: int) -> list[int]:
    if not isinstance(tree, list):
        return []
    if not tree:
        return [0]
    shapes = [_literal_shape(t, parser, offset) for t in tree]
    first = shapes[0]
    for s in shapes[1:]:
        if len(s) != len(first):
            raise parser.error("tensor literal is invalid; ranks are not consistent between "
                               "elements", offset)
        if s != first:
            raise parser.error("tensor literal is invalid; ranks are not consistent between "
                               "elements", offset)
    return [len(tree)] + first


def _flatten(tree) -> list:
    if not isinstance(tree, list):
        return [tree]
    out = []
    for t in tree:
        out.extend(_flatten(t))
    return out


#: the most elements a splat may have: NumPy's views index with 64-bit integers
MAX_SPLAT_ELEMENTS = 1 << 62


def parse_splat(parser: Parser, value, shape: tuple, dtype, offset: int) -> np.ndarray:
    """The elements of a splat literal (one element's memory, see ``splat_array``); a shape of
    more than :data:`MAX_SPLAT_ELEMENTS` elements is an error at ``offset``."""
    count = 1
    for d in shape:
        count *= d
    if count > MAX_SPLAT_ELEMENTS:
        raise parser.error(f"tileir cannot represent a dense splat of {count} elements (at most "
                           f"2**62)", offset)
    return splat_array(value, shape, dtype)


def build_dense(parser: Parser, tree, typ: Type, offset: int) -> DenseElementsAttr:
    """A dense constant of shaped type ``typ`` (with ``shape`` and ``element``) from a literal
    tree (see ``Parser.parse_literal_tree``)."""
    """Check a parsed literal tree against ``typ`` and build the constant."""
    from ..ir.dtypes import numpy_dtype
    shape = _literal_shape(tree, parser, offset)
    el = typ.element
    if shape and list(shape) != list(typ.shape):
        raise parser.error(f"inferred shape of elements literal ({_fmt_shape(shape)}) does not "
                           f"match type ({_fmt_shape(typ.shape)})", offset)
    leaves = _flatten(tree)
    values = [scalar_literal(parser, leaf, el) for leaf in leaves]
    dt = numpy_dtype(el.name)
    if el.is_integer and el.name != "i1":
        arr = np.array([_wrap_int(v, el.width) for v in values], dtype=np.int64).astype(dt)
    elif el.name == "i1":
        arr = np.array(values, dtype=bool)
    else:
        arr = np.array(values, dtype=dt)
    if shape:
        arr = arr.reshape(typ.shape)
    else:
        arr = parse_splat(parser, arr[0], typ.shape, dt, offset) if typ.shape else arr.reshape(())
    return DenseElementsAttr(typ, arr)


def _fmt_shape(shape) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _wrap_int(v: int, width: int) -> int:
    v &= (1 << width) - 1
    if v >= 1 << (width - 1):
        v -= 1 << width
    return v


class ComplexLeaf:
    """A ``(real, imag)`` element of a dense literal (each part a ``(token, negative,
    offset)`` leaf); ``offset`` is the ``(``'s.  (Not a tuple: code telling leaves from
    lists and hex strings by type must not take it for a scalar leaf.)"""

    __slots__ = ("real", "imag", "offset")

    def __init__(self, real: tuple, imag: tuple, offset: int) -> None:
        self.real, self.imag, self.offset = real, imag, offset


def scalar_literal(parser: Parser, leaf, el: ElementType):
    """Value of one literal token for element type ``el`` (NumPy scalar or int/bool)."""
    if isinstance(leaf, ComplexLeaf):
        raise parser.error("expected integer value" if el.is_integer else
                           "expected floating point literal", leaf.offset)
    text, neg, off = leaf
    if text[0] == '"':  # (MLIR reads a string among the elements as a number and fails)
        raise parser.error("integer constant out of range for type" if el.is_integer else
                           "expected floating point literal", off)
    if el.name == "i1":
        if text in ("true", "false") and not neg:
            return text == "true"
        if text.isdigit() and int(text) in (0, 1):
            return int(text) == 1      # -1 is the 1-bit pattern too (mlir-opt reads it as true)
        if text.isdigit():
            raise parser.error("integer constant out of range for type", off)
        raise parser.error("expected integer value", off)
    if el.is_integer:
        if not (text[0].isdigit()) or "." in text:
            raise parser.error("expected integer value", off)
        v = int(text, 16) if text.startswith("0x") else int(text)
        if neg:
            v = -v
        lo = -(1 << (el.width - 1))
        hi = (1 << el.width) - 1
        if v < lo or v > hi:
            raise parser.error("integer constant out of range for type", off)
        return v
    # floats
    from ..ir.floatfmt import _BIT_WIDTH, float_from_bits, float_from_text
    if text.startswith("0x"):
        if neg:
            raise parser.error("hexadecimal float literal should not have a leading minus", off)
        bits = int(text, 16)
        if bits.bit_length() > _BIT_WIDTH.get(el.name, el.width):
            raise parser.error("hexadecimal float constant out of range for type", off)
        return float_from_bits(bits, el.name)
    if text in ("true", "false") or not text[0].isdigit():
        raise parser.error("expected floating point literal" if text[0].isalpha() else
                           "expected integer value", off)
    if "." not in text:
        err = parser.error("unexpected decimal integer literal for a floating point value", off)
        err.diag.attach_note("add a trailing dot to make the literal a float")
        raise err
    # like MLIR: the nearest double, rounded to the element type (overflow gives +-inf)
    return float_from_text(("-" if neg else "") + text, el.name)


# ---------------------------------------------------------------------------------------------
# Attribute normalisation for ops written in generic form
# ---------------------------------------------------------------------------------------------

def normalize_attributes(spec: OpSpec, attrs: dict, defaults: bool = True) -> dict:
    """Convert generic-form spellings to the canonical attribute objects of ``spec``
    (e.g. ``memory_ordering_semantics = 0 : i32`` to the enum member: an integer that is
    exactly how a member prints in the generic form; any other integer stays what it is).
    With ``defaults``, add the default-valued attributes left out and the dialect's rules."""
    for name, value in list(attrs.items()):
        decl = spec.attr_by_name.get(name)
        if decl is None:
            continue
        enum = decl.enum
        if enum is not None and isinstance(value, IntegerAttr):
            try:
                member = enum(value.value)
            except ValueError:
                continue
            if member.generic() == value.generic():
                attrs[name] = member
    if not defaults:
        return attrs
    # a default-valued attribute the generic form leaves out has its default, as the custom
    # form's parser gives it (so that a custom round trip does not add it)
    for decl in spec.attributes:
        if decl.default is not None and decl.name not in attrs:
            attrs[decl.name] = decl.default
    dialect_rules = GENERIC_ATTR_NORMALIZERS.get(spec.cls.DIALECT_NAME)
    if dialect_rules is not None:
        dialect_rules(spec, attrs)
    return attrs


# ---------------------------------------------------------------------------------------------
# Public helpers
# ---------------------------------------------------------------------------------------------

@contextlib.contextmanager
def _limits_as_errors(parser: Parser):
    """Turn the interpreter's own limits, hit by pathological input, into parse errors at the
    current position: nesting deeper than the recursion limit allows (types, literals,
    locations) and decimal literals longer than Python converts."""
    try:
        yield
    except RecursionError:
        raise parser.error("input nests too deeply") from None
    except ValueError as exc:
        if "integer string conversion" not in str(exc):
            raise
        raise parser.error("integer literal has too many digits") from None


#: op name -> the single-value operand and result groups of its declarative format whose
#: constraint names the class of types MLIR's generated parser reads them as
#: (``TypeConstraint.storage``): ``(kind, group name, is_instance)``
_STORAGE_GROUPS: dict[str, tuple] = {}


def _storage_groups(spec: Optional[OpSpec]) -> tuple:
    if spec is None or spec.format_text is None or spec.cls.parse_custom is not None:
        return ()
    return tuple((kind, g.name, g.constraint.storage[0])
                 for kind, groups in (("operand", spec.operands), ("result", spec.results))
                 for g in groups if g.kind == "single" and g.constraint.storage is not None)


def _has_type_of_wrong_class(op: Operation) -> bool:
    """Whether a declarative op holds a type its generated parser would have refused
    (``invalid kind of type specified``: an unranked memref where a ranked one is read)."""
    groups = _STORAGE_GROUPS.get(op.name)
    if groups is None:
        groups = _STORAGE_GROUPS[op.name] = _storage_groups(OP_REGISTRY.get(op.name))
    if not groups:
        return False
    spec = OP_REGISTRY[op.name]
    for kind, name, is_instance in groups:
        if kind == "operand":
            start = spec.operand_range(op, name)[0]
            values = op.operands
        else:
            start = spec.result_range(op, name)[0]
            values = op.results
        if start < len(values) and not is_instance(values[start].type):
            return True
    return False


def _checked_fast_path(fast_op: Callable) -> Callable:
    """The fast path, made to give up (a re-parse in the plain mode, which reports the parse
    error) on an op with a type of the wrong class (see :func:`_has_type_of_wrong_class`)."""
    def run(parser: "Parser", pos: int, block: Block):
        done = fast_op(parser, pos, block)
        if done is not None and _has_type_of_wrong_class(done[0]):
            raise ValueError("fast path: a type of the wrong class")
        return done
    return run


def _entry(parser: Parser, entry) -> Callable[[], Operation]:
    """``entry``: a ``Parser`` method name, or a function of the parser (a dialect's entry)."""
    return getattr(parser, entry) if isinstance(entry, str) else (lambda: entry(parser))


def _run(text: str, source: SourceFile, options: ParseOptions, entry, fast: bool):
    """Parse with ``Parser.<entry>``; in fast mode any trouble means a plain re-parse (which
    tokenizes everything and reports the diagnostics)."""
    if fast:
        parser = Parser(text, source, options, fast=True)
        try:
            op = _entry(parser, entry)()
            if not parser.pending_diags:
                return op, parser
        except (ParseError, IndexError, RecursionError, ValueError, *FAST_PATH_MISMATCH):
            pass
    parser = Parser(text, source, options)
    try:
        with _limits_as_errors(parser):
            return _entry(parser, entry)(), parser
    except ParseError as exc:
        # MLIR may report more than one error before giving up (e.g. parseKeyword's own error,
        # then the custom parser's); they were collected in pending_diags
        exc.pending = list(parser.pending_diags)
        raise


def _parse(text: str, filename: str, line_offset: int, sources: Optional[SourceManager],
           options: ParseOptions, entry, fast: bool, col_offset: int = 0) -> Operation:
    source = SourceFile(filename, text, line_offset, col_offset)
    if sources is None:
        sources = SourceManager()
    sources.add(source)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the parser makes many small cyclic objects and no garbage
    parser = None
    try:
        try:
            op, parser = _run(text, source, options, entry, fast)
        except ParseError as exc:
            raise DiagnosticError([*getattr(exc, "pending", ()), exc.diag], sources) from None
    finally:
        if gc_was_enabled:
            gc.enable()
    if parser.pending_diags:
        raise DiagnosticError(parser.pending_diags, sources)
    return op


def parse_module(text: str, filename: str = "<string>", *, allow_unregistered: bool = False,
                 implicit_module: bool = True, line_offset: int = 0,
                 sources: Optional[SourceManager] = None, fast: bool = True,
                 col_offset: int = 0) -> Operation:
    """Parse a whole buffer; raise :class:`DiagnosticError` on a syntax error.

    ``line_offset``/``col_offset``: where the buffer starts in its file (a
    ``-split-input-file`` chunk).  ``fast=False`` skips the one-regex-per-op fast path (same
    result, slower)."""
    return _parse(text, filename, line_offset, sources,
                  ParseOptions(allow_unregistered, implicit_module), "parse_top_level", fast,
                  col_offset)


def parse_type(text: str) -> Type:
    """Parse one type written in either spelling (``tile<4xf32>``, ``!cuda_tile.tile<4xf32>``)."""
    source = SourceFile("<type>", text)
    parser = Parser(text, source)
    try:
        with _limits_as_errors(parser):
            typ = parser.parse_type()
        if parser.tok != EOF:
            raise parser.error("unexpected trailing characters")
    except ParseError as exc:
        raise DiagnosticError([exc.diag]) from None
    return typ


def parse_attribute(text: str) -> Attribute:
    source = SourceFile("<attribute>", text)
    parser = Parser(text, source)
    try:
        with _limits_as_errors(parser):
            attr = parser.parse_attribute()
    except ParseError as exc:
        raise DiagnosticError([exc.diag]) from None
    return attr
