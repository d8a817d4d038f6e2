"""The cuda_tile dialect's text syntax outside op formats, plugged into :mod:`tileir.text`
through its registries (:mod:`tileir.text.registry`): the cuda_tile types in both spellings
(``tile<4xf32>`` inside ops, ``!cuda_tile.tile<4xf32>`` anywhere), the ``#cuda_tile.*``
attributes (optimization hints, assume predicates, debug info, ``di_loc`` locations), op-name
aliases, the default dialect inside cuda_tile ops, dense constants of tile type, the fast
one-regex-per-op parser (:mod:`.fastparse`), and NVIDIA's ``tileirdisasm`` form
(:func:`parse_disasm`; ``print_op(disasm=True)`` prints it)."""

from __future__ import annotations

import re
from typing import Optional

from ...ir.attributes import ArrayAttr, Attribute, DictionaryAttr, StringAttr, TypeAttr
from ...ir.core import Operation
from ...ir.diagnostics import SourceManager
from ...ir.locations import UNKNOWN_LOC, FileLineColLoc
from ...ir.opdef import make_op
from ...ir.types import ELEMENT_TYPES, BuiltinType, ElementType, FunctionType, Type
from ...text import registry
from ...text.parser import (ComplexLeaf, ParseError, ParseOptions, Parser, _parse, _Scope,
                            build_dense)
from .attributes import (BoundedAttr, DICompileUnitAttr, DIFileAttr, DILexicalBlockAttr, DILoc,
                         DISubprogramAttr, DivByAttr, OptimizationHintsAttr, PaddingValue,
                         SameElementsAttr, Signedness)
from .fastparse import _Mismatch, try_fast_op
from .type_verify import verify_type
from .types import (TOKEN, GatherScatterViewType, PartitionViewType, PointerType, StridedViewType,
                    TensorViewType, TileType)

__all__ = ["parse_disasm", "parse_optimization_hints_body", "parse_assume_predicate_body",
           "TypeTextParser", "SHORT_TYPE_KEYWORDS"]

#: Shared cache: type text (as written) -> type.
_TYPE_CACHE: dict[str, Type] = {}

#: The cuda_tile types' keywords (their short spelling inside cuda_tile ops).
SHORT_TYPE_KEYWORDS = ("tile", "ptr", "tensor_view", "partition_view", "strided_view",
                       "gather_scatter_view", "token")
_SHORT_TYPE_KEYWORDS = SHORT_TYPE_KEYWORDS
_INT_RE = re.compile(r"-?[0-9]+")
_WS_RE = re.compile(r"\s*")


# ---------------------------------------------------------------------------------------------
# #cuda_tile.* attributes
# ---------------------------------------------------------------------------------------------

def parse_cuda_tile_attribute(parser: Parser, mnemonic: str, off: int) -> Attribute:
    """``#cuda_tile.<mnemonic>...`` after the token (the enums are parsed by the engine)."""
    if mnemonic == "optimization_hints":
        return parse_optimization_hints_body(parser)
    if mnemonic in ("div_by", "same_elements", "bounded"):
        return parse_assume_predicate_body(parser, mnemonic)
    if mnemonic == "di_file":
        parser.expect("<")
        name = parser.parse_string()
        parser.expect_keyword("in")
        directory = parser.parse_string()
        parser.expect(">")
        return DIFileAttr(name, directory)
    if mnemonic in ("di_compile_unit", "di_subprogram", "di_lexical_block"):
        return parse_di_struct(parser, mnemonic, off)
    if mnemonic == "di_loc":
        return parse_di_loc_body(parser)
    raise parser.error(f"unknown attribute `{mnemonic}` in dialect `cuda_tile`", off)


def parse_optimization_hints_body(parser: Parser, op_name: Optional[str] = None) -> OptimizationHintsAttr:
    """``<arch = {k = v, ...}, ...>`` (the part after ``optimization_hints``).  ``op_name``
    prefixes errors as MLIR's custom-op parser does (``custom op '<op>' ...``)."""
    parser.expect("<")
    entries = []
    keys: set = set()
    prefix = f"custom op '{op_name}' " if op_name else ""

    def one():
        t = parser.toks[parser.i]
        if t and t[0] == '"':
            key = parser.parse_string()
        else:
            key = parser.parse_keyword("valid keyword or string")
        parser.expect("=")
        value = parser.parse_attribute()
        if key in keys:
            raise parser.error(f"{prefix}duplicate optimization_hints key `{key}`")
        if not isinstance(value, DictionaryAttr):
            raise parser.error(f"{prefix}expected dictionary attribute for optimization_hints "
                             f"entry `{key}` got value={value.generic()}")
        keys.add(key)
        entries.append((key, value))
    parser.parse_comma_list(one, ">")
    parser.expect(">")
    # a dictionary in NVIDIA's attribute: keys sorted
    return OptimizationHintsAttr(tuple(sorted(entries, key=lambda kv: kv[0])))


def parse_assume_predicate_body(parser: Parser, mnemonic: str) -> Attribute:
    parser.expect("<")
    # the parameters are 64-bit (the divisor unsigned: a negative one wraps, as MLIR's
    # parseInteger<uint64_t> does); larger literals are "integer value too large"
    if mnemonic == "div_by":
        divisor = parser.parse_unsigned_integer(64)
        every = along = None
        if parser.consume(","):
            parser.expect_keyword("every")
            every = parser.parse_fixed_integer(64)
            parser.expect_keyword("along")
            along = parser.parse_fixed_integer(64)
        parser.expect(">")
        return DivByAttr(divisor, every, along)
    if mnemonic == "same_elements":
        parser.expect("[")
        values = parser.parse_comma_list(lambda: parser.parse_fixed_integer(64), "]")
        parser.expect("]")
        parser.expect(">")
        return SameElementsAttr(tuple(values))
    bounds = []
    for k in range(2):
        if parser.consume("?"):
            bounds.append(None)
        else:
            bounds.append(parser.parse_fixed_integer(64))
        if k == 0:
            parser.expect(",")
    parser.expect(">")
    return BoundedAttr(bounds[0], bounds[1])


def parse_di_struct(parser: Parser, mnemonic: str, off: int) -> Attribute:
    parser.expect("<")
    fields: dict = {}
    kinds = _DI_FIELDS[mnemonic]

    def one():
        key_off = parser.offset
        key = parser.parse_keyword("field name")
        if key not in kinds or key in fields:
            raise parser.error(f"duplicate or unknown struct parameter name: {key}", key_off)
        parser.expect("=")
        kind = kinds[key]
        value_off = parser.offset
        if kind is int:  # (lines and columns: `unsigned` in MLIR's debug info attributes)
            fields[key] = parser.parse_unsigned_integer(32)
            return
        t = parser.toks[parser.i]
        value = parser.parse_string() if t and t[0] == '"' else parser.parse_attribute()
        if not isinstance(value, kind):
            raise parser.error("invalid kind of attribute specified", value_off)
        fields[key] = value
    parser.parse_comma_list(one, ">")
    parser.expect(">")
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
        raise parser.error(f"struct is missing required parameter: {exc.args[0]}", off)


def parse_di_loc_body(parser: Parser) -> DILoc:
    parser.expect("<")
    off = parser.offset
    t = parser.toks[parser.i]
    if t and t[0] == "#" and not parser.is_dialect_attribute(t):
        parser.i += 1
        source = parser.attr_aliases.get(t)
        if source is None:
            raise parser.error(f"undefined symbol alias id '{t[1:]}'", off)
    else:
        source = parser.parse_location_literal()
    if not isinstance(source, FileLineColLoc):
        raise parser.error("expected a file location", off)
    parser.expect_keyword("in")
    off = parser.offset
    scope = parser.parse_attribute()
    if not isinstance(scope, (DISubprogramAttr, DILexicalBlockAttr)):
        # (DILocAttr's scope parameter is a DILocalScopeAttr)
        raise parser.error("expected a debug info scope (#cuda_tile.di_subprogram or "
                           "#cuda_tile.di_lexical_block)", off)
    parser.expect(">")
    return DILoc(source, scope)


def _parse_dialect_type(parser: Parser, word: str, off: int, word_end: int) -> Type:
    if word == "token":
        parser.i += 1
        return TOKEN
    if parser.peek() != "<":
        parser.i += 1
        raise parser.error(f"unknown type in dialect cuda_tile: {word}" if word not in
                         _SHORT_TYPE_KEYWORDS else "expected '<'", parser.offs[parser.i])
    end = parser._balanced_end(parser.offs[parser.i + 1])
    text = parser.src[off:end]
    typ = _TYPE_CACHE.get(text)
    if typ is None:
        typ = TypeTextParser(parser, word_end).parse_body(word, end)
        if len(_TYPE_CACHE) < 100000:
            _TYPE_CACHE[text] = typ
    parser._skip_to_offset(end)
    return typ


#: the parameters of the debug-info attributes written as ``struct(params)``, and their kinds
_DI_FIELDS = {
    "di_compile_unit": {"file": DIFileAttr},
    "di_subprogram": {"file": DIFileAttr, "line": int, "name": str, "linkageName": str,
                      "compileUnit": DICompileUnitAttr, "scopeLine": int},
    "di_lexical_block": {"scope": (DISubprogramAttr, DILexicalBlockAttr), "file": DIFileAttr,
                         "line": int, "column": int},
}


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
        """A signed 64-bit integer (strides, tile sizes, dim maps...)."""
        self.ws()
        m = _INT_RE.match(self.src, self.pos)
        if not m:
            raise self.error("expected integer value")
        value = int(m.group())
        if not -(1 << 63) <= value < (1 << 63):
            raise self.error("integer value too large")
        self.pos = m.end()
        return value

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
            if m.group(1) != "?" and int(m.group(1)) >= 1 << 63:
                raise self.error("invalid dimension", m.start(1))
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
                        if not m or int(m.group()) >= 1 << 63:
                            raise self.error("expected either 64-bit integer or question mark",
                                             at)
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


def parse_disasm_top_level(parser: Parser, module_name: str = "kernels") -> Operation:
    """Parse what NVIDIA's ``tileirdisasm`` prints: the ops of a ``cuda_tile.module`` body
    at top level (``global``/``entry`` without the ``cuda_tile.`` prefix), alias definitions
    anywhere, and an optional ``// Producer: ...`` first line.  Returns the
    ``cuda_tile.module`` (named like NVIDIA's bytecode reader names it, ``@kernels``)."""
    attrs: dict = {"sym_name": StringAttr(module_name)}
    first = parser.src.split("\n", 1)[0]
    if first.startswith("// Producer: "):
        attrs["producer"] = StringAttr(first[len("// Producer: "):])
    module = make_op("cuda_tile.module", attributes=attrs, regions=1, loc=UNKNOWN_LOC)
    block = module.regions[0].add_block()
    parser.scopes.append(_Scope(True))
    parser.default_dialect.append("cuda_tile")
    try:
        parser._parse_top_level_ops(block)
    finally:
        parser.default_dialect.pop()
    parser.finish_scope(parser.scopes.pop())
    parser.resolve_deferred_locations()
    return module


def parse_disasm(text: str, filename: str = "<string>", *,
                 sources: Optional[SourceManager] = None, fast: bool = True) -> Operation:
    """Parse ``tileirdisasm`` output (a module body without the module line) into a
    ``cuda_tile.module``; :func:`tileir.text.printer.print_op` with ``disasm=True`` prints it
    back identically."""
    return _parse(text, filename, 0, sources, ParseOptions(), parse_disasm_top_level, fast)


# ---------------------------------------------------------------------------------------------
# Dense constants of tile type
# ---------------------------------------------------------------------------------------------

def _build_tile_dense(parser: Parser, literal, typ: TileType, offset: int):
    if not isinstance(typ.element, ElementType):
        # MLIR reads the elements of other element types as strings
        leaf = literal
        while isinstance(leaf, list) and leaf:
            leaf = leaf[0]
        got = (("-" if leaf[1] else "") + leaf[0]) if isinstance(leaf, tuple) else \
            "(" if isinstance(leaf, ComplexLeaf) else "]"
        raise parser.error(f"expected string token, got {got}", offset)
    return build_dense(parser, literal, typ, offset)


def _normalize_generic_attributes(spec, attrs: dict) -> None:
    """cuda_tile's canonical forms of attributes written in the generic op form."""
    hints = attrs.get("optimization_hints")
    if isinstance(hints, OptimizationHintsAttr) and not hints.entries:
        del attrs["optimization_hints"]  # empty hints are no hints (as in the custom syntax)
    if "arg_attrs" not in attrs and "arg_attrs" in spec.attr_by_name:
        # A function without `arg_attrs` is one whose arguments have none: the custom syntax
        # and the bytecode reader spell that as a list of empty dictionaries, as cuda-tile does
        ftype = attrs.get("function_type")
        if isinstance(ftype, TypeAttr) and isinstance(ftype.value, FunctionType):
            attrs["arg_attrs"] = ArrayAttr(tuple(DictionaryAttr(()) for _ in ftype.value.inputs))


def _header(module: Operation) -> list[str]:
    producer = module.attributes.get("producer")
    return [f"// Producer: {producer.value}"] if producer is not None else []


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------

registry.DIALECT_TYPE_PARSERS["cuda_tile"] = _parse_dialect_type
registry.DIALECT_ATTR_PARSERS["cuda_tile"] = parse_cuda_tile_attribute
for _word in SHORT_TYPE_KEYWORDS:
    registry.KEYWORD_TYPES[_word] = lambda parser, word, off: _parse_dialect_type(
        parser, word, off, off + len(word))
#: ``fpowf`` is how NVIDIA's 13.4 tools print ``pow`` (ERRATA 6), ``print`` the 13.1 name of
#: ``print_tko`` (ERRATA 3).
registry.OP_NAME_ALIASES.update({"cuda_tile.fpowf": "cuda_tile.pow",
                                 "cuda_tile.print": "cuda_tile.print_tko"})
#: Mnemonics NVIDIA's tileirdisasm (13.4) prints differently from cuda-tile-opt (13.3 sources).
registry.PRINT_NAME_ALIASES["cuda_tile.pow"] = "fpowf"
registry.DISASM_FORMS["cuda_tile.module"] = _header
registry.DEFAULT_DIALECTS["cuda_tile"] = "cuda_tile"
registry.ISOLATED_OPS.update({"cuda_tile.module", "cuda_tile.entry", "cuda_tile.testing$func"})
registry.DENSE_BUILDERS[TileType] = _build_tile_dense
registry.ATTR_KIND_PARSERS["hints"] = parse_optimization_hints_body
registry.ENUM_DESCRIPTIONS[Signedness] = "signedness"
registry.FAST_OP_PARSERS.append(try_fast_op)
registry.FAST_PATH_MISMATCH.append(_Mismatch)
registry.GENERIC_ATTR_NORMALIZERS["cuda_tile"] = _normalize_generic_attributes
