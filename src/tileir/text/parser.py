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

from ..attrs import (ENUMS_BY_MNEMONIC, UNIT, ArrayAttr, Attribute, BoundedAttr, DenseArrayAttr,
                     DenseElementsAttr, DICompileUnitAttr, DIFileAttr, DILexicalBlockAttr,
                     DictionaryAttr, DISubprogramAttr, DivByAttr, FloatAttr, IntegerAttr,
                     OpaqueAttr, OptimizationHintsAttr, SameElementsAttr, StringAttr,
                     SymbolRefAttr, TypeAttr, signless_value)
from ..diagnostics import ERROR, Diagnostic, DiagnosticError, SourceFile, SourceManager
from ..ir.core import Block, Operation, Region, Value
from ..ir.limits import MAX_REGION_DEPTH
from ..ir.opdef import OP_REGISTRY, OpSpec, make_op
from ..locations import (UNKNOWN_LOC, CallSiteLoc, DILoc, FileLineColLoc, FusedLoc, Location,
                         NameLoc)
from ..types import (BF16, ELEMENT_TYPES, F64, I1, I64, TOKEN, BuiltinType, ElementType,
                     FunctionType, GatherScatterViewType, PartitionViewType, PointerType,
                     StridedViewType, TensorViewType, TileType, Type)
from ..ops.type_verify import verify_type
from .fastparse import _Mismatch as _FastMismatch
from .fastparse import try_fast_op
from .lexer import EOF, tokenize, unescape_string

__all__ = ["Parser", "ParseError", "parse_module", "parse_disasm", "parse_type",
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


#: Other spellings of ops: ``fpowf`` is how NVIDIA's 13.4 tools print ``pow`` (ERRATA 6),
#: ``print`` the 13.1 name of ``print_tko`` (ERRATA 3).
OP_NAME_ALIASES = {"cuda_tile.fpowf": "cuda_tile.pow", "cuda_tile.print": "cuda_tile.print_tko"}

#: Ops whose bodies are isolated from SSA values defined above them.
_ISOLATED = {"cuda_tile.module", "cuda_tile.entry", "cuda_tile.testing$func", BUILTIN_MODULE}

#: Shared cache: type text (as written) -> type.
_TYPE_CACHE: dict[str, Type] = {}

_SHORT_TYPE_KEYWORDS = ("tile", "ptr", "tensor_view", "partition_view", "strided_view",
                        "gather_scatter_view", "token")
_BUILTIN_SHAPED = ("tensor", "vector", "memref", "complex", "tuple")
_DIMS_RE = re.compile(r"\s*((?:(?:[0-9]+|\?)\s*x\s*)*)")
_INT_RE = re.compile(r"-?[0-9]+")
_WS_RE = re.compile(r"\s*")
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


class Parser:
    """Recursive-descent parser over a token list (see :mod:`tileir.text.lexer`)."""

    def __init__(self, text: str, source: Optional[SourceFile] = None,
                 options: Optional[ParseOptions] = None, fast: bool = False) -> None:
        self.src = text
        self.source = source or SourceFile("<string>", text)
        self.options = options or ParseOptions()
        #: fast mode: ops that fit one line are parsed by one regex match (text/fastparse.py)
        #: and the rest is tokenized lazily, a logical line at a time ("windows"); any error
        #: makes :func:`parse_module` parse the whole buffer again in the plain mode, which
        #: tokenizes everything up front and reports the diagnostics.
        self.fast = fast
        self.n = len(text)
        # for the fast path's locations
        self._line_starts = self.source.line_starts
        self._file = self.source.name
        self._line_offset = 1 + self.source.line_offset
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
        self.default_dialect: list[str] = [""]
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

    def expect(self, text: str, what: Optional[str] = None) -> None:
        if self.toks[self.i] == text:
            self.i += 1
            return
        if self.i >= len(self.toks) - 1 and self.win_end < self.n:
            # fast mode: the construct continues on the next line (reduce's region)
            self._refill()
            if self.toks[self.i] == text:
                self.i += 1
                return
        raise self.wrong_token_error(f"expected '{what or text}'")

    def expect_keyword(self, word: str) -> None:
        if self.toks[self.i] == word:
            self.i += 1
            return
        raise self.error(f"expected '{word}'")

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
                raise self.error(str(exc), self.offs[self.i - 1])
        raise self.error(f"expected {what}")

    def parse_integer(self, what: str = "integer value") -> int:
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
        raise self.error(f"expected {what}", start)

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
        # MLIR's implicit module is located at the buffer's line 0, column 0
        top = make_op(BUILTIN_MODULE, regions=1, loc=FileLineColLoc(self.source.name, 0, 0))
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

    def parse_disasm_top_level(self, module_name: str = "kernels") -> Operation:
        """Parse what NVIDIA's ``tileirdisasm`` prints: the ops of a ``cuda_tile.module`` body
        at top level (``global``/``entry`` without the ``cuda_tile.`` prefix), alias definitions
        anywhere, and an optional ``// Producer: ...`` first line.  Returns the
        ``cuda_tile.module`` (named like NVIDIA's bytecode reader names it, ``@kernels``)."""
        attrs: dict = {"sym_name": StringAttr(module_name)}
        first = self.src.split("\n", 1)[0]
        if first.startswith("// Producer: "):
            attrs["producer"] = StringAttr(first[len("// Producer: "):])
        module = make_op("cuda_tile.module", attributes=attrs, regions=1, loc=UNKNOWN_LOC)
        block = module.regions[0].add_block()
        self.scopes.append(_Scope(True))
        self.default_dialect.append("cuda_tile")
        try:
            self._parse_top_level_ops(block)
        finally:
            self.default_dialect.pop()
        self.finish_scope(self.scopes.pop())
        self.resolve_deferred_locations()
        return module

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
            # propagate to the enclosing scope; it may still be defined there later
            parent = self.scopes[-1]
            for n, entry in scope.forward.items():
                parent.forward.setdefault(n, entry)

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
        # forward reference
        scope = self.scopes[-1]
        entry = scope.forward.get(name)
        if entry is not None:
            ref = entry[0]
            if expected is not None and ref.type != expected:
                raise ParseError(self._type_mismatch(name, expected, ref.type, offset, entry[1]))
            return ref
        if expected is None:
            raise self.error("use of undeclared SSA value name", offset)
        ref = _ForwardRef(expected)
        ref.name = name
        scope.forward[name] = (ref, offset)
        return ref

    def _type_mismatch(self, name: str, expected: Type, actual: Type, offset: int,
                       prior: Optional[int] = None) -> Diagnostic:
        diag = Diagnostic(ERROR, f"use of value '{name}' expects different type than prior uses: "
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

    def parse_operation(self, block: Block) -> Operation:
        if self.fast:
            pos = self.offs[self.i] if self.i < len(self.toks) - 1 else self.win_end
            done = try_fast_op(self, pos, block)
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
        if t and t[0] == '"':
            op = self.parse_generic_operation(names, start)
        elif t and (t[0].isalpha() or t[0] == "_"):
            op = self.parse_custom_operation(names, start)
        else:
            if t and t[0] == "\x00":
                raise self.error("")
            raise self.error("expected operation name in quotes")
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

    def parse_trailing_location(self, target) -> None:
        off = self.offset
        self.expect_keyword("loc")
        self.expect("(")
        t = self.toks[self.i]
        if t and t[0] == "#" and not t.startswith("#cuda_tile."):
            self.i += 1
            alias = self.attr_aliases.get(t)
            if alias is None:
                self.deferred_locs.append((target, t, self.offs[self.i - 1]))
            else:
                target.loc = alias
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
            dialect = self.default_dialect[-1]
            also = f" (tried '{dialect}.{raw}' as well)" if dialect and "." not in raw else ""
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
        self.parse_region_into(op.regions[0], op, isolated=True, dialect="", counted=False)
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
            return unescape_string(body).decode("utf-8", "surrogateescape")
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
            if dialect == "cuda_tile":
                raise self.error(f"unregistered operation '{name}' found in dialect "
                                 "('cuda_tile') that does not allow unknown operations", name_off)
            raise self.error(f"operation being parsed with an unregistered dialect. If this is "
                             f"intended, please use -allow-unregistered-dialect with the MLIR "
                             f"tool used", name_off)
        self.expect("(")
        uses = self.parse_comma_list(self._parse_use, ")")
        self.expect(")")
        if self.toks[self.i] == "[":
            raise self.error("successors are not supported in cuda_tile")
        attrs: dict = {}
        if self.toks[self.i] == "<" and self.peek() == "{":
            self.i += 1
            attrs.update(self.parse_attr_dict_body())
            self.expect(">")
        regions: list[Region] = []
        if self.toks[self.i] == "(":
            self.i += 1
            while True:
                region = Region()
                isolated = name in _ISOLATED
                dialect = "cuda_tile" if name.startswith("cuda_tile.") else self.default_dialect[-1]
                self.parse_region_into(region, None, isolated=isolated, dialect=dialect,
                                       generic=True, counted=name != BUILTIN_MODULE)
                regions.append(region)
                if not self.consume(","):
                    break
            self.expect(")")
        if self.toks[self.i] == "{":
            attrs.update(self.parse_attr_dict_body())
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
        seg = attrs.pop("operandSegmentSizes", None)
        if isinstance(seg, DenseArrayAttr):
            segments = seg.value
        if spec is not None:
            attrs = normalize_attributes(spec, attrs)
        op = make_op(name, operands, ftype.results, attrs, regions, self.loc_at(start), segments)
        if spec is not None and spec.attr_sized_operands and segments is None:
            self.pending_diags.append(Diagnostic(
                ERROR, "'operandSegmentSizes' attribute for specifying operand segments must "
                "have", self.loc_at(start)))
        return op

    def _parse_use(self) -> tuple[str, int]:
        t = self.toks[self.i]
        if not t or t[0] != "%":
            raise self.error("expected SSA operand")
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
        try:
            block: Optional[Block] = None
            if entry_args is not None:
                block = region.add_block()
                for name, typ, off, loc in entry_args:
                    arg = block.add_argument(typ, loc)
                    if name:
                        self._define(scope, name, [arg], off)
            while True:
                if self.fast and self.i >= len(self.toks) - 1:
                    target = block if block is not None else Block()
                    done = try_fast_op(self, self.win_end, target)
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
                self.parse_operation(block)
        finally:
            self.default_dialect.pop()
            self.scopes.pop()
            self.region_depth -= counted
        self.finish_scope(scope)
        return region

    def parse_block_header(self, region: Region) -> Block:
        self.i += 1  # ^label
        block = region.add_block()
        scope = self.scopes[-1]
        if self.consume("("):
            def one():
                t = self.toks[self.i]
                if not t or t[0] != "%":
                    raise self.error("expected SSA operand")
                off = self.offs[self.i]
                self.i += 1
                self.expect(":")
                typ = self.parse_type()
                loc = None
                if self.toks[self.i] == "loc":
                    holder = _LocHolder()
                    self.parse_trailing_location(holder)
                    loc = holder.loc
                arg = block.add_argument(typ, loc)
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
                self.parse_type()
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
        if t in ("affine_map", "affine_set", "strided", "sparse", "dense_resource",
                 "distinct"):
            return OpaqueAttr(self.take_balanced_text())
        # a type used as attribute
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
        self.i += 1
        is_float = "." in t
        typ: Optional[Type] = None
        if self.toks[self.i] == ":":
            self.i += 1
            typ = self.parse_type()
        if typ is None:
            typ = type_hint
        if isinstance(typ, ElementType) and typ.is_float:
            if t.startswith("0x") and not is_float:
                from .floatfmt import float_from_bits
                if neg:
                    raise self.error("hexadecimal float literal should not have a leading minus",
                                     off)
                bits = int(t, 16)
                if bits.bit_length() > typ.width:
                    raise self.error("hexadecimal float constant out of range for type", off)
                value = float(float_from_bits(bits, typ.name))
            else:
                value = float(t)
            return FloatAttr(-value if neg else value, typ)
        if is_float:
            if typ is not None:
                raise self.error("floating point value not valid for specified type", off)
            return FloatAttr(-float(t) if neg else float(t), F64)
        v = int(t, 16) if t.startswith("0x") else int(t)
        return self.integer_attr(-v if neg else v, typ or I64, off)

    def integer_attr(self, value: int, typ: Type, off: int) -> IntegerAttr:
        """An integer attribute of ``typ`` holding ``value`` (see :func:`signless_value`)."""
        width = getattr(typ, "width", None)
        if width is not None and getattr(typ, "is_integer", False):
            v = signless_value(value, width)
            if v is None:
                raise self.error("integer constant out of range for attribute", off)
            value = v
        return IntegerAttr(value, typ)

    def parse_dense_array(self) -> DenseArrayAttr:
        self.expect_keyword("array")
        self.expect("<")
        elt = self.parse_keyword("element type")
        values: list = []
        if self.consume(":"):
            def one():
                if elt == "i1":
                    w = self.parse_keyword("boolean")
                    return w == "true"
                if elt.startswith("f"):
                    neg = self.consume("-")
                    t = self.toks[self.i]
                    if not t or not (t[0].isdigit() or t in ("inf", "nan")):
                        raise self.error("expected floating point literal")
                    self.i += 1
                    try:
                        v = float(int(t, 16)) if t.startswith("0x") else float(t)
                    except ValueError:
                        raise self.error("expected floating point literal", self.offs[self.i - 1])
                    return -v if neg else v
                return self.parse_integer()
            values = self.parse_comma_list(one)
        self.expect(">")
        return DenseArrayAttr(elt, tuple(values))

    def parse_dense_builtin(self) -> DenseElementsAttr:
        """``dense<literal> : type`` (the generic spelling of a cuda_tile constant)."""
        self.expect_keyword("dense")
        lt = self.offset
        self.expect("<")
        lit_start = self.offset
        literal = self.parse_literal_tree()
        lit_end = self.offset
        self.expect(">")
        self.expect(":")
        type_off = self.offset
        typ = self.parse_type()
        if isinstance(typ, TileType) and not isinstance(typ.element, ElementType):
            # MLIR reads the elements of other element types as strings
            leaf = literal
            while isinstance(leaf, list) and leaf:
                leaf = leaf[0]
            got = (("-" if leaf[1] else "") + leaf[0]) if isinstance(leaf, tuple) else "]"
            raise self.error(f"expected string token, got {got}", lt)
        if not isinstance(typ, TileType):
            # not a cuda_tile constant: keep the literal verbatim
            return OpaqueAttr(f"dense<{self.src[lit_start:lit_end].strip()}> : {typ}")
        return build_dense(self, literal, typ, lt)

    def parse_literal_tree(self):
        """Parse a (possibly nested) list of scalar literal tokens for a dense constant.

        Returns nested Python lists whose leaves are ``(token, negative, offset)``."""
        if self.toks[self.i] == "[":
            self.i += 1
            items = self.parse_comma_list(self.parse_literal_tree, "]")
            self.expect("]")
            return items
        off = self.offset
        neg = self.consume("-")
        t = self.toks[self.i]
        if not t or t[0] in "[]<>,:(){}":
            raise self.error("expected integer value" if not neg else "expected integer value")
        self.i += 1
        return (t, neg, off)

    def parse_hash_attribute(self) -> Attribute:
        t = self.toks[self.i]
        off = self.offset
        if not t.startswith("#cuda_tile."):
            if t in self.attr_aliases:
                self.i += 1
                return self.attr_aliases[t]
            if "." in t:
                return OpaqueAttr(self.take_balanced_text())
            raise self.error(f"undefined symbol alias id '{t[1:]}'")
        self.i += 1
        mnemonic = t[len("#cuda_tile."):]
        return self.parse_cuda_tile_attribute(mnemonic, off)

    def parse_cuda_tile_attribute(self, mnemonic: str, off: int) -> Attribute:
        enum_cls = ENUMS_BY_MNEMONIC.get(mnemonic)
        if enum_cls is not None:
            self.expect("<")
            member = self.parse_enum_keyword(
                enum_cls, lambda word: f"expected {_enum_desc(enum_cls)} to be one of: "
                                       f"{', '.join(enum_cls.keywords())}")
            self.expect(">")
            return member
        if mnemonic == "optimization_hints":
            return self.parse_optimization_hints_body()
        if mnemonic in ("div_by", "same_elements", "bounded"):
            return self.parse_assume_predicate_body(mnemonic)
        if mnemonic == "di_file":
            self.expect("<")
            name = self.parse_string()
            self.expect_keyword("in")
            directory = self.parse_string()
            self.expect(">")
            return DIFileAttr(name, directory)
        if mnemonic in ("di_compile_unit", "di_subprogram", "di_lexical_block"):
            return self.parse_di_struct(mnemonic, off)
        if mnemonic == "di_loc":
            return self.parse_di_loc_body()
        raise self.error(f"unknown attribute `{mnemonic}` in dialect `cuda_tile`", off)

    def parse_optimization_hints_body(self, op_name: Optional[str] = None) -> OptimizationHintsAttr:
        """``<arch = {k = v, ...}, ...>`` (the part after ``optimization_hints``).  ``op_name``
        prefixes errors as MLIR's custom-op parser does (``custom op '<op>' ...``)."""
        self.expect("<")
        entries = []
        keys: set = set()
        prefix = f"custom op '{op_name}' " if op_name else ""

        def one():
            t = self.toks[self.i]
            if t and t[0] == '"':
                key = self.parse_string()
            else:
                key = self.parse_keyword("valid keyword or string")
            self.expect("=")
            value = self.parse_attribute()
            if key in keys:
                raise self.error(f"{prefix}duplicate optimization_hints key `{key}`")
            if not isinstance(value, DictionaryAttr):
                raise self.error(f"{prefix}expected dictionary attribute for optimization_hints "
                                 f"entry `{key}` got value={value.generic()}")
            keys.add(key)
            entries.append((key, value))
        self.parse_comma_list(one, ">")
        self.expect(">")
        # a dictionary in NVIDIA's attribute: keys sorted
        return OptimizationHintsAttr(tuple(sorted(entries, key=lambda kv: kv[0])))

    def parse_assume_predicate_body(self, mnemonic: str) -> Attribute:
        self.expect("<")
        if mnemonic == "div_by":
            divisor = self.parse_integer()
            every = along = None
            if self.consume(","):
                self.expect_keyword("every")
                every = self.parse_integer()
                self.expect_keyword("along")
                along = self.parse_integer()
            self.expect(">")
            return DivByAttr(divisor, every, along)
        if mnemonic == "same_elements":
            self.expect("[")
            values = self.parse_comma_list(self.parse_integer, "]")
            self.expect("]")
            self.expect(">")
            return SameElementsAttr(tuple(values))
        bounds = []
        for k in range(2):
            if self.consume("?"):
                bounds.append(None)
            else:
                bounds.append(self.parse_integer())
            if k == 0:
                self.expect(",")
        self.expect(">")
        return BoundedAttr(bounds[0], bounds[1])

    def parse_di_struct(self, mnemonic: str, off: int) -> Attribute:
        self.expect("<")
        fields: dict = {}
        kinds = _DI_FIELDS[mnemonic]

        def one():
            key_off = self.offset
            key = self.parse_keyword("field name")
            if key not in kinds or key in fields:
                raise self.error(f"duplicate or unknown struct parameter name: {key}", key_off)
            self.expect("=")
            kind = kinds[key]
            value_off = self.offset
            if kind is int:
                fields[key] = self.parse_integer()
                return
            t = self.toks[self.i]
            value = self.parse_string() if t and t[0] == '"' else self.parse_attribute()
            if not isinstance(value, kind):
                raise self.error("invalid kind of attribute specified", value_off)
            fields[key] = value
        self.parse_comma_list(one, ">")
        self.expect(">")
        try:
            if mnemonic == "di_compile_unit":
                return DICompileUnitAttr(fields["file"])
            if mnemonic == "di_subprogram":
                return DISubprogramAttr(fields["file"], fields["line"], fields["name"],
                                        fields["linkageName"], fields["compileUnit"],
                                        fields.get("scopeLine"))
            return DILexicalBlockAttr(fields["scope"], fields["file"], fields["line"],
                                      fields.get("column"))
        except KeyError as exc:
            raise self.error(f"struct is missing required parameter: {exc.args[0]}", off)

    # ------------------------------------------------------------------------------------------
    # Locations
    # ------------------------------------------------------------------------------------------

    def parse_location_literal(self) -> Location:
        self.expect_keyword("loc")
        self.expect("(")
        t = self.toks[self.i]
        if t and t[0] == "#" and not t.startswith("#cuda_tile."):
            self.i += 1
            loc = self.attr_aliases.get(t)
            if loc is None:
                raise self.error(f"undefined symbol alias id '{t[1:]}'", self.offs[self.i - 1])
            self.expect(")")
            return loc
        loc = self.parse_location_body()
        self.expect(")")
        return loc

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
            self.expect_keyword("at")
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
                line = self.parse_integer("line number")
                self.expect(":")
                col = self.parse_integer("column number")
                end_line = end_col = None
                if self.toks[self.i] == "to":
                    self.i += 1
                    if self.consume(":"):
                        end_col = self.parse_integer()
                    else:
                        end_line = self.parse_integer()
                        self.expect(":")
                        end_col = self.parse_integer()
                return FileLineColLoc(name, line, col, end_line, end_col)
            child = None
            if self.consume("("):
                child = self.parse_location_body()
                self.expect(")")
            return NameLoc(name, child)
        if t == "#cuda_tile.di_loc":
            self.i += 1
            return self.parse_di_loc_body()
        if t and t[0] == "#":
            self.i += 1
            loc = self.attr_aliases.get(t)
            if isinstance(loc, Location):
                return loc
            raise self.error(f"expected location instance", off)
        raise self.error("expected location instance")

    def parse_di_loc_body(self) -> DILoc:
        self.expect("<")
        off = self.offset
        t = self.toks[self.i]
        if t and t[0] == "#" and not t.startswith("#cuda_tile."):
            self.i += 1
            source = self.attr_aliases.get(t)
            if source is None:
                raise self.error(f"undefined symbol alias id '{t[1:]}'", off)
        else:
            source = self.parse_location_literal()
        if not isinstance(source, FileLineColLoc):
            raise self.error("expected a file location", off)
        self.expect_keyword("in")
        off = self.offset
        scope = self.parse_attribute()
        if not isinstance(scope, (DISubprogramAttr, DILexicalBlockAttr)):
            # (DILocAttr's scope parameter is a DILocalScopeAttr)
            raise self.error("expected a debug info scope (#cuda_tile.di_subprogram or "
                             "#cuda_tile.di_lexical_block)", off)
        self.expect(">")
        return DILoc(source, scope)

    # ------------------------------------------------------------------------------------------
    # Types
    # ------------------------------------------------------------------------------------------

    def _balanced_end(self, lt_offset: int) -> int:
        """Offset just past the ``>`` matching the ``<`` at ``lt_offset``."""
        src = self.src
        depth = 0
        i = lt_offset
        n = len(src)
        while i < n:
            c = src[i]
            if c == "<":
                depth += 1
            elif c == ">":
                if i > 0 and src[i - 1] == "-":
                    i += 1
                    continue
                depth -= 1
                if depth == 0:
                    return i + 1
            elif c == '"':
                j = i + 1
                while j < n and src[j] != '"':
                    j += 2 if src[j] == "\\" else 1
                i = j
            i += 1
        raise self.error("unbalanced '<' character in pretty dialect name", lt_offset)

    def _skip_to_offset(self, end: int) -> None:
        import bisect
        self.i = bisect.bisect_left(self.offs, end, self.i)

    def parse_type(self) -> Type:
        t = self.toks[self.i]
        off = self.offs[self.i]
        if not t:
            raise self.error("expected non-function type")
        c = t[0]
        if c == "(":
            return self.parse_function_type()
        if c == "!":
            if t.startswith("!cuda_tile."):
                word = t[len("!cuda_tile."):]
                return self._parse_dialect_type(word, off, off + len(t))
            if t in self.type_aliases:
                self.i += 1
                return self.type_aliases[t]
            if self.peek() == "<":
                return BuiltinType(self.take_balanced_text())
            if "." in t:
                self.i += 1
                return BuiltinType(t)
            raise self.error(f"undefined symbol alias id '{t[1:]}'")
        if c.isalpha() or c == "_":
            el = ELEMENT_TYPES.get(t)
            if el is not None:
                self.i += 1
                return el
            if t in _SHORT_TYPE_KEYWORDS:
                return self._parse_dialect_type(t, off, off + len(t))
            if t in _BUILTIN_SHAPED and self.peek() == "<":
                return BuiltinType(self.take_balanced_text())
            if t in ("index", "none") or re.fullmatch(r"[iu]i?[0-9]+|si[0-9]+|f[0-9]+.*|bf16", t):
                self.i += 1
                return BuiltinType(t)
            if self.custom_ops[-1]:
                # cuda-tile's parseCudaTileType: a keyword naming no cuda_tile type
                self.i += 1
                raise self.error(f"{self.op_prefix()}unknown type: {t}", self.offs[self.i])
        if self.custom_ops[-1]:
            raise self.error(f"{self.op_prefix()}expected valid keyword")
        raise self.error("expected non-function type")

    def parse_function_type(self) -> FunctionType:
        self.expect("(")
        inputs = self.parse_comma_list(self.parse_type, ")")
        self.expect(")")
        self.expect("->")
        if self.toks[self.i] == "(":
            self.i += 1
            results = self.parse_comma_list(self.parse_type, ")")
            self.expect(")")
        else:
            results = [self.parse_type()]
        return FunctionType(inputs, results)

    def _parse_dialect_type(self, word: str, off: int, word_end: int) -> Type:
        if word == "token":
            self.i += 1
            return TOKEN
        if self.peek() != "<":
            self.i += 1
            raise self.error(f"unknown type in dialect cuda_tile: {word}" if word not in
                             _SHORT_TYPE_KEYWORDS else "expected '<'", self.offs[self.i])
        end = self._balanced_end(self.offs[self.i + 1])
        text = self.src[off:end]
        typ = _TYPE_CACHE.get(text)
        if typ is None:
            typ = TypeTextParser(self, word_end).parse_body(word, end)
            if len(_TYPE_CACHE) < 100000:
                _TYPE_CACHE[text] = typ
        self._skip_to_offset(end)
        return typ


#: the parameters of the debug-info attributes written as ``struct(params)``, and their kinds
_DI_FIELDS = {
    "di_compile_unit": {"file": DIFileAttr},
    "di_subprogram": {"file": DIFileAttr, "line": int, "name": str, "linkageName": str,
                      "compileUnit": DICompileUnitAttr, "scopeLine": int},
    "di_lexical_block": {"scope": (DISubprogramAttr, DILexicalBlockAttr), "file": DIFileAttr,
                         "line": int, "column": int},
}


class _LocHolder:
    loc = None


def _enum_desc(enum_cls) -> str:
    return {"Signedness": "signedness"}.get(enum_cls.__name__, enum_cls.__name__)


# ---------------------------------------------------------------------------------------------
# Type bodies: tile<...>, tensor_view<...>, ... parsed from the raw text
# ---------------------------------------------------------------------------------------------

class TypeTextParser:
    """Parses the ``<...>`` body of a cuda_tile type directly from the source text."""

    def __init__(self, parser: Parser, pos: int) -> None:
        self.p = parser
        self.src = parser.src
        self.pos = pos

    def error(self, message: str, pos: Optional[int] = None) -> ParseError:
        return self.p.error(message, self.pos if pos is None else pos)

    def ws(self) -> None:
        self.pos = _WS_RE.match(self.src, self.pos).end()

    def lit(self, text: str) -> None:
        self.ws()
        if not self.src.startswith(text, self.pos):
            raise self.error(f"expected '{text}'")
        self.pos += len(text)

    def try_lit(self, text: str) -> bool:
        self.ws()
        if self.src.startswith(text, self.pos):
            self.pos += len(text)
            return True
        return False

    def word(self) -> str:
        self.ws()
        m = re.compile(r"!?[A-Za-z_][A-Za-z0-9_$.]*").match(self.src, self.pos)
        if not m:
            raise self.error("expected valid keyword")
        self.pos = m.end()
        return m.group()

    def integer(self) -> int:
        self.ws()
        m = _INT_RE.match(self.src, self.pos)
        if not m:
            raise self.error("expected integer value")
        self.pos = m.end()
        return int(m.group())

    def int_or_dynamic(self) -> Optional[int]:
        self.ws()
        if self.src.startswith("?", self.pos):
            self.pos += 1
            return None
        return self.integer()

    def dims(self) -> list[Optional[int]]:
        """``4x?x8x`` prefix of a shaped type (each dim followed by ``x``)."""
        out: list[Optional[int]] = []
        while True:
            self.ws()
            m = re.compile(r"([0-9]+|\?)\s*x").match(self.src, self.pos)
            if not m:
                return out
            # "0x..." could be a hex literal; dims never are, but guard "x" followed by
            # nothing sensible
            self.pos = m.end()
            out.append(None if m.group(1) == "?" else int(m.group(1)))

    def element_type(self) -> Type:
        self.ws()
        start = self.pos
        w = self.word()
        el = ELEMENT_TYPES.get(w)
        if el is not None:
            return el
        if w.startswith("!cuda_tile."):
            w = w[len("!cuda_tile."):]
        if w in _SHORT_TYPE_KEYWORDS:
            return self.body(w)
        if w in ("index",) or re.fullmatch(r"[iu]i?[0-9]+|si[0-9]+|f[0-9]+\w*", w):
            return BuiltinType(w)
        raise self.error(f"unknown type: {w}" if False else "expected non-function type", start)

    def body(self, word: str) -> Type:
        start = self.pos
        typ = self._body(word)
        msg = verify_type(typ)
        if msg:
            raise self.error(msg, start)
        return typ

    def _body(self, word: str) -> Type:
        if word == "token":
            return TOKEN
        self.lit("<")
        if word == "ptr":
            pointee = self.element_type()
            self.lit(">")
            return PointerType(pointee)
        if word == "tile":
            dims_at = self.pos
            dims = self.dims()
            if any(d is None for d in dims):
                raise self.error("expected static shape", dims_at)
            el = self.element_type()
            self.lit(">")
            return TileType(dims, el)
        if word == "tensor_view":
            dims = self.dims()
            el = self.element_type()
            strides: list = []
            if not dims:
                if self.try_lit(","):
                    self.ws()
                    if self.src.startswith("strides", self.pos):
                        self.pos += len("strides")
                        raise self.error("strides must not be provided for 0-d tiles")
                    raise self.error("unexpected token after element type in 0-d tensor_view")
            else:
                if not self.try_lit(","):
                    raise self.error("expected 'strides'")
                self.lit("strides")
                self.lit("=")
                self.ws()
                if not self.src.startswith("[", self.pos):
                    raise self.error("expected '[' in strides array")
                self.pos += 1
                while True:
                    self.ws()
                    at = self.pos
                    if self.src.startswith("?", self.pos):
                        self.pos += 1
                        strides.append(None)
                    else:
                        m = _INT_RE.match(self.src, self.pos)
                        if not m:
                            raise self.error("expected either 64-bit integer or question mark")
                        self.pos = m.end()
                        v = int(m.group())
                        if v <= 0:
                            raise self.error(f"expected strictly positive integer, got {v}", at)
                        strides.append(v)
                    if not self.try_lit(","):
                        break
                self.lit("]")
            self.lit(">")
            return TensorViewType(el, dims, strides)
        if word in ("partition_view", "strided_view", "gather_scatter_view"):
            return self.view_body(word)
        raise self.error(f"unknown type in dialect cuda_tile: {word}")

    def int_list(self, open_: str, close: str) -> list[int]:
        self.lit(open_)
        out: list[int] = []
        if self.try_lit(close):
            return out
        out.append(self.integer())
        while self.try_lit(","):
            out.append(self.integer())
        self.lit(close)
        return out

    def tile_shape(self) -> list[int]:
        self.lit("tile")
        self.lit("=")
        self.lit("(")
        self.ws()
        out: list[int] = []
        if self.try_lit(")"):
            return out
        # '2x2x4' is one token-ish run
        m = re.compile(r"[0-9]+(?:\s*x\s*[0-9]+)*").match(self.src, self.pos)
        if not m:
            raise self.error("expected integer value")
        out = [int(x) for x in re.split(r"\s*x\s*", m.group())]
        dims_at = self.pos
        self.pos = m.end()
        self.lit(")")
        for i, v in enumerate(out):
            if v <= 0 or v > 2147483647:
                raise self.error(f"tile dimension {i} exceeds i32 limitations (got {v}, expected "
                                 "strictly positive and less than or equal to 2147483647)",
                                 dims_at)
        return out

    def view_body(self, word: str) -> Type:
        from ..attrs import PaddingValue
        tile_shape = self.tile_shape()
        traversal = None
        padding = None
        dim_map = None
        sparse_dim = None
        self.lit(",")
        if word == "strided_view":
            self.lit("traversal_strides")
            self.lit("=")
            traversal = self.int_list("[", "]")
            self.lit(",")
        self.ws()
        if self.src.startswith("padding_value", self.pos):
            self.pos += len("padding_value")
            self.lit("=")
            kw_at = self.pos
            kw = self.word()
            padding = PaddingValue.from_keyword(kw)
            if padding is None:
                raise self.error(f"expected padding_value to be one of: "
                                 f"{', '.join(PaddingValue.keywords())}", kw_at)
            self.lit(",")
        tv = self.element_type()
        if not isinstance(tv, TensorViewType):
            raise self.error(f"expected 'tensor_view' type, but got '{tv}'")
        while self.try_lit(","):
            self.ws()
            key_at = self.pos
            key = self.word()
            self.lit("=")
            if key == "dim_map":
                dim_map = self.int_list("[", "]")
            elif key == "sparse_dim" and word == "gather_scatter_view":
                sparse_dim = self.integer()
            else:
                raise self.error(f"unexpected parameter '{key}'", key_at)
        self.lit(">")
        if word == "partition_view":
            return PartitionViewType(tile_shape, tv, dim_map, padding)
        if word == "strided_view":
            return StridedViewType(tile_shape, traversal, tv, dim_map, padding)
        if sparse_dim is None:
            raise self.error("expected 'sparse_dim'")
        return GatherScatterViewType(tile_shape, tv, sparse_dim, padding)

    def parse_body(self, word: str, end: int) -> Type:
        typ = self.body(word)
        if self.pos != end:
            raise self.error("expected '>'")
        return typ


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


def build_dense(parser: Parser, tree, typ: TileType, offset: int) -> DenseElementsAttr:
    """Check a parsed literal tree against ``typ`` and build the constant."""
    from ..dtypes import numpy_dtype
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
        arr = np.full(typ.shape, arr[0], dtype=dt) if typ.shape else arr.reshape(())
    return DenseElementsAttr(typ, arr)


def _fmt_shape(shape) -> str:
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _wrap_int(v: int, width: int) -> int:
    v &= (1 << width) - 1
    if v >= 1 << (width - 1):
        v -= 1 << width
    return v


def scalar_literal(parser: Parser, leaf, el: ElementType):
    """Value of one literal token for element type ``el`` (NumPy scalar or int/bool)."""
    text, neg, off = leaf
    if el.name == "i1":
        if text in ("true", "false") and not neg:
            return text == "true"
        if text.isdigit() and int(text) in (0, 1) and not neg:
            return text == "1"
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
    from .floatfmt import _BIT_WIDTH, float_from_bits, float_from_text
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

def normalize_attributes(spec: OpSpec, attrs: dict) -> dict:
    """Convert generic-form spellings to the canonical attribute objects of ``spec``
    (e.g. ``memory_ordering_semantics = 0 : i32`` to the enum member)."""
    for name, value in list(attrs.items()):
        decl = spec.attr_by_name.get(name)
        if decl is None:
            continue
        enum = decl.enum
        if enum is not None and isinstance(value, IntegerAttr):
            try:
                attrs[name] = enum(value.value)
            except ValueError:
                pass
    hints = attrs.get("optimization_hints")
    if isinstance(hints, OptimizationHintsAttr) and not hints.entries:
        del attrs["optimization_hints"]  # empty hints are no hints (as in the custom syntax)
    if "arg_attrs" not in attrs and "arg_attrs" in spec.attr_by_name:
        # A function without `arg_attrs` is one whose arguments have none: the custom syntax
        # and the bytecode reader spell that as a list of empty dictionaries, as cuda-tile does
        ftype = attrs.get("function_type")
        if isinstance(ftype, TypeAttr) and isinstance(ftype.value, FunctionType):
            attrs["arg_attrs"] = ArrayAttr(tuple(DictionaryAttr(()) for _ in ftype.value.inputs))
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


def _run(text: str, source: SourceFile, options: ParseOptions, entry: str, fast: bool):
    """Parse with ``Parser.<entry>``; in fast mode any trouble means a plain re-parse (which
    tokenizes everything and reports the diagnostics)."""
    if fast:
        parser = Parser(text, source, options, fast=True)
        try:
            op = getattr(parser, entry)()
            if not parser.pending_diags:
                return op, parser
        except (ParseError, IndexError, RecursionError, ValueError, _FastMismatch):
            pass
    parser = Parser(text, source, options)
    try:
        with _limits_as_errors(parser):
            return getattr(parser, entry)(), parser
    except ParseError as exc:
        # MLIR may report more than one error before giving up (e.g. parseKeyword's own error,
        # then the custom parser's); they were collected in pending_diags
        exc.pending = list(parser.pending_diags)
        raise


def _parse(text: str, filename: str, line_offset: int, sources: Optional[SourceManager],
           options: ParseOptions, entry: str, fast: bool) -> Operation:
    source = SourceFile(filename, text, line_offset)
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
                 sources: Optional[SourceManager] = None, fast: bool = True) -> Operation:
    """Parse a whole buffer; raise :class:`DiagnosticError` on a syntax error.

    ``fast=False`` skips the one-regex-per-op fast path (same result, slower)."""
    return _parse(text, filename, line_offset, sources,
                  ParseOptions(allow_unregistered, implicit_module), "parse_top_level", fast)


def parse_disasm(text: str, filename: str = "<string>", *,
                 sources: Optional[SourceManager] = None, fast: bool = True) -> Operation:
    """Parse ``tileirdisasm`` output (a module body without the module line) into a
    ``cuda_tile.module``; :func:`tileir.text.printer.print_op` with ``disasm=True`` prints it
    back identically."""
    return _parse(text, filename, 0, sources, ParseOptions(), "parse_disasm_top_level", fast)


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
