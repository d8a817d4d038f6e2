"""Where dialects plug their syntax into the dialect-agnostic text engine.

The parser and printer know MLIR's generic syntax and the builtin types and attributes of
:mod:`tileir.ir` (integers, floats, strings, arrays, dictionaries, ``dense<...>``, locations...).
Everything else comes from these tables, which a dialect fills when it is imported (cuda_tile:
:mod:`tileir.dialects.cuda_tile.syntax`).  Custom op syntax itself needs no table: an op with
an ``OpSpec.format`` (declarative, :mod:`tileir.text.format`) or a ``parse``/``print`` hook on
its op class is found through :data:`tileir.ir.opdef.OP_REGISTRY` by its full name.

A ``Parser`` is passed to every hook; hooks use its token API (``toks``/``i``/``expect``/
``parse_attribute``/``parse_type``/``error``...).  Names of the form ``dialect.x`` below always
use the dialect's namespace as MLIR spells it (``cuda_tile``, ``gpu``, ``arith``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:  # pragma: no cover
    from ..ir.attributes import Attribute
    from ..ir.types import Type
    from .parser import Parser

__all__ = ["DIALECT_TYPE_PARSERS", "DIALECT_ATTR_PARSERS", "KEYWORD_TYPES", "OP_NAME_ALIASES",
           "PRINT_NAME_ALIASES", "DISASM_FORMS", "ATTR_KIND_PARSERS", "DEFAULT_DIALECTS", "ISOLATED_OPS", "DENSE_BUILDERS",
           "FAST_OP_PARSERS", "ENUM_DESCRIPTIONS", "STANDARD_TYPE_SYNTAX_DIALECTS", "FAST_PATH_MISMATCH", "ALIASED_ATTRIBUTES", "GENERIC_ATTR_NORMALIZERS", "IMPLIED_ATTRIBUTES", "default_dialect_for",
           "NUMBER_TYPE_PARSERS", "KEYWORD_ATTRIBUTES", "INHERENT_ATTRIBUTES"]

#: ``!dialect.word<...>``: dialect -> ``parse(parser, word, offset, word_end) -> Type``.  Called
#: with the parser at the ``!dialect.word`` token (``offset``: where it starts, ``word_end``:
#: where the word ends); the hook consumes the token and the body.  Dialects without an entry
#: keep their types verbatim (:class:`tileir.ir.types.BuiltinType`).
DIALECT_TYPE_PARSERS: dict[str, Callable[["Parser", str, int, int], "Type"]] = {}

#: ``#dialect.mnemonic<...>``: dialect -> ``parse(parser, mnemonic, offset) -> Attribute``,
#: called after the ``#dialect.mnemonic`` token was consumed.  Enum attributes registered with
#: :func:`tileir.ir.attributes.register_enum` are parsed without an entry.  A location
#: attribute (a :class:`tileir.ir.locations.Location`) may also appear inside ``loc(...)``.
#: Dialects without an entry keep their attributes verbatim (``OpaqueAttr``).
DIALECT_ATTR_PARSERS: dict[str, Callable[["Parser", str, int], "Attribute"]] = {}

#: Types spelled by a bare keyword (``index``, ``memref<...>``, ``tile<...>`` inside cuda_tile
#: ops): keyword -> ``parse(parser, word, offset) -> Type or None``, called at the keyword
#: token; ``None`` (consuming nothing) means "not a type here" and the parser goes on as if the
#: keyword were unknown.  The builtin integer and float types (``i32``, ``f16``, ``si8``...)
#: are known without an entry.
KEYWORD_TYPES: dict[str, Callable[["Parser", str, int], "Type"]] = {}

#: Builtin number-type keywords outside :data:`tileir.ir.types.ELEMENT_TYPES` (``i7``,
#: ``si32``, ``ui8``, ``f80``...): ``parse(parser, word, offset) -> Type or None``, tried in
#: order at the keyword token (consuming it when they return a type); a keyword no entry
#: accepts is kept verbatim (:class:`tileir.ir.types.BuiltinType`).
NUMBER_TYPE_PARSERS: list[Callable[["Parser", str, int], Optional["Type"]]] = []

#: Attributes spelled by a bare keyword (``affine_map<...>``, ``strided<...>``): keyword ->
#: ``parse(parser) -> Attribute``, called at the keyword token.  Keywords without an entry
#: among ``affine_map``/``affine_set``/``strided``/``sparse``/``dense_resource``/``distinct``
#: are kept verbatim (``OpaqueAttr``).
KEYWORD_ATTRIBUTES: dict[str, Callable[["Parser"], "Attribute"]] = {}

#: Inherent attributes (printed as properties ``<{...}>`` in the generic form) of ops the
#: engine handles without an op spec (``builtin.module``: ``sym_name``, ``sym_visibility``).
INHERENT_ATTRIBUTES: dict[str, frozenset] = {}

#: Other spellings of op names, accepted by the parser: alias -> the op's full name.
OP_NAME_ALIASES: dict[str, str] = {}

#: How enum-keyword errors name an enum (``expected <description> to be one of: ...``);
#: the class name when absent.
ENUM_DESCRIPTIONS: dict[type, str] = {}

#: Names the printer uses for an op in the disassembler form (``print_op(disasm=True)``).
PRINT_NAME_ALIASES: dict[str, str] = {}

#: Container ops with a disassembler form (their body only, as NVIDIA's ``tileirdisasm``
#: prints a ``cuda_tile.module``): op name -> ``header(op) -> comment lines`` printed first.
DISASM_FORMS: dict[str, Callable[[Any], list[str]]] = {}

#: Attribute kinds of :class:`tileir.ir.opdef.Attr` with their own custom-syntax parser:
#: kind -> ``parse(parser) -> Attribute`` (cuda_tile: ``hints``).
ATTR_KIND_PARSERS: dict[str, Callable[["Parser"], "Attribute"]] = {}

#: MLIR's ``OpAsmOpInterface::getDefaultDialect``: inside the regions of an op, unprefixed op
#: names are looked up in this dialect too.  Keyed by full op name, or by dialect name for every
#: op of that dialect (``{"cuda_tile": "cuda_tile"}``: inside any cuda_tile op, ``addi`` means
#: ``cuda_tile.addi``).  The custom-syntax hooks pass their dialect to
#: ``Parser.parse_region_into(dialect=...)`` directly; this table serves the generic form.
DEFAULT_DIALECTS: dict[str, str] = {}

#: Ops whose regions are isolated from values defined above (generic form; registered ops with
#: the ``IsolatedFromAbove`` trait are found through their spec).
ISOLATED_OPS: set[str] = set()

#: ``dense<literal> : T``: type class -> ``build(parser, literal_tree, T, offset) -> Attribute``.
#: Literal trees are nested lists of ``(token, negative, offset)`` leaves.  Types without an
#: entry keep the literal verbatim (``OpaqueAttr``).
DENSE_BUILDERS: dict[type, Callable[["Parser", Any, "Type", int], "Attribute"]] = {}

#: Fast paths tried before the general op parser (see ``Parser.parse_operation``):
#: ``parse(parser, position, block) -> (op, end) or None``; ``None`` means "not mine".
FAST_OP_PARSERS: list[Callable[["Parser", int, Any], Optional[tuple]]] = []

#: Exceptions a fast path may raise to say "re-parse this buffer the slow way".
FAST_PATH_MISMATCH: list[type] = []

#: Dialects whose custom ops parse types with MLIR's standard type parser (``expected
#: non-function type``); other dialects' custom ops report type errors as cuda_tile's
#: ``parseCudaTileType`` does (``expected valid keyword``, ``unknown type: x``).
STANDARD_TYPE_SYNTAX_DIALECTS: set[str] = {
    "builtin", "func", "arith", "math", "index", "cf", "scf", "memref", "vector", "affine",
    "gpu", "llvm", "nvvm", "async"}

#: Canonical forms of a dialect's attributes written in the generic op form: dialect ->
#: ``normalize(spec, attributes)`` (edits the dict in place), run after the engine's own
#: normalisation (integers to enum members).
GENERIC_ATTR_NORMALIZERS: dict[str, Callable[[Any, dict], None]] = {}

#: Attributes a custom-syntax parser always adds, with these values, where the generic form may
#: omit them (as MLIR's do: ``gpu.func``'s ``workgroup_attributions = 0``): op name ->
#: ``{attribute name: value}``.  Absent and this value denote the same IR (the round-trip
#: checker compares them so).
IMPLIED_ATTRIBUTES: dict[str, dict[str, Any]] = {}

#: Attribute classes printed through an alias (``#di_file = #cuda_tile.di_file<...>``) in the
#: printer's alias section rather than inline.  Each has a ``ALIAS`` name prefix.
ALIASED_ATTRIBUTES: list[type] = []


def default_dialect_for(op_name: str, inherited: str) -> str:
    """The default dialect inside the regions of ``op_name`` (``inherited``: the enclosing one)."""
    found = DEFAULT_DIALECTS.get(op_name)
    if found is None:
        found = DEFAULT_DIALECTS.get(op_name.partition(".")[0], inherited)
    return found
