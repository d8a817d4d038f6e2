"""The declarative assembly-format engine (MLIR ``assemblyFormat`` strings).

A format string such as ``$lhs `,` $rhs (`overflow` `` $overflow^)? attr-dict `:`
custom<CudaTileType>(type($result))`` is compiled once per op into a list of elements; the same
list drives parsing (:func:`parse_custom_op`) and printing (:func:`print_format`).

Custom directives (``custom<Name>(...)``) are looked up in :data:`CUSTOM_DIRECTIVES`, which the
dialect fills (see :mod:`tileir.ops.directives`).  Ops whose NVIDIA syntax is not declarative set
``parse_custom`` / ``print_custom`` on their class instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Optional

from ..ir.attributes import (ENUM_MNEMONICS, UNIT, ArrayAttr, Attribute, DenseArrayAttr, EnumAttr,
                             FloatAttr,
                             IntegerAttr, StringAttr, SymbolRefAttr, format_symbol)
from ..ir.core import Operation, Region
from ..ir.infer import TypeState, infer_types
from ..ir.opdef import FORMAT_COMPILERS, OPTIONAL, SINGLE, VARIADIC, Attr, OpSpec, make_op
from ..ir.types import F64, I1, I32, I64, Type
from .registry import ATTR_KIND_PARSERS, default_dialect_for

if TYPE_CHECKING:  # pragma: no cover
    from .parser import Parser
    from .printer import OpPrinter

__all__ = ["compile_format", "CompiledFormat", "OpState", "parse_custom_op", "print_format",
           "CUSTOM_DIRECTIVES", "CustomDirective", "parse_attr_value", "print_attr_value"]


# ---------------------------------------------------------------------------------------------
# Compiled elements
# ---------------------------------------------------------------------------------------------

@dataclass(eq=False)
class Literal:
    text: str
    sp: bool = False
    #: the text with its leading space (if any), set by :func:`compile_format`
    spaced: str = ""


@dataclass(eq=False)
class Space:
    text: str  # "" (suppress space) or " " (force a space)


@dataclass(eq=False)
class Var:
    name: str
    kind: str  # "operand" | "attr" | "region" | "result"
    anchor: bool = False
    sp: bool = False
    is_unit: bool = False


@dataclass(eq=False)
class TypeOf:
    name: str
    kind: str  # "operand" | "result"
    anchor: bool = False
    sp: bool = False
    #: plain ``type($x)`` prints the full spelling (``!cuda_tile.tile<..>``);
    #: ``custom<CudaTileType>(type($x))`` the short one
    full: bool = False


@dataclass(eq=False)
class AttrDict:
    with_keyword: bool


@dataclass(eq=False)
class Custom:
    name: str
    args: list  # of Var / TypeOf
    anchor: bool = False
    sp: bool = False


@dataclass(eq=False)
class OptionalGroup:
    elements: list
    anchor: Any  # the element carrying '^'
    #: a unit-attribute anchor that is not printed (its keyword literal says it all)
    elided: Any = None


@dataclass(eq=False)
class OIList:
    clauses: list  # list of (Literal keyword, Var)


@dataclass
class CompiledFormat:
    elements: list
    #: names referenced anywhere in the format (elided from attr-dict)
    referenced_attrs: set = field(default_factory=set)

    @cached_property
    def implied_defaults(self) -> dict:
        """Attribute values custom directives imply when the text leaves them out (the
        builder applies them, as the parser does)."""
        found: dict = {}

        def walk(elements):
            for el in elements:
                if type(el) is Custom:
                    d = CUSTOM_DIRECTIVES.get(el.name)
                    if d is not None and d.default is not None and el.args \
                            and isinstance(el.args[0], Var):
                        found[el.args[0].name] = d.default
                elif type(el) is OptionalGroup:
                    walk(el.elements)
        walk(self.elements)
        return found


_TOKEN_RE = re.compile(r"\s*(`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|\^|attr-dict-with-keyword|"
                       r"attr-dict|custom<[A-Za-z0-9_]+>|type|oilist|[()|?,])")


def compile_format(text: str, spec: OpSpec) -> CompiledFormat:
    """Compile an MLIR assembly format string for ``spec``."""
    tokens: list[str] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise ValueError(f"bad format for {spec.name} at {text[pos:]!r}")
        tokens.append(m.group(1))
        pos = m.end()
    referenced: set = set()
    elements, rest = _compile_seq(tokens, 0, spec, referenced, stop=None)
    plan_spacing(elements)
    _set_spaced(elements)
    return CompiledFormat(elements, referenced)


def _set_spaced(elements: list) -> None:
    for el in elements:
        if type(el) is Literal:
            el.spaced = (" " + el.text) if el.sp else el.text
        elif type(el) is OptionalGroup:
            _set_spaced(el.elements)
        elif type(el) is OIList:
            _set_spaced([lit for lit, _ in el.clauses])


def _var(name: str, spec: OpSpec, referenced: set) -> Var:
    if name in spec.operand_index:
        return Var(name, "operand")
    if name in spec.attr_by_name:
        referenced.add(name)
        return Var(name, "attr", is_unit=spec.attr_by_name[name].is_unit)
    if any(r.name == name for r in spec.regions):
        return Var(name, "region")
    if name in spec.result_index:
        return Var(name, "result")
    raise ValueError(f"{spec.name}: format refers to unknown ${name}")


def _compile_seq(tokens: list[str], i: int, spec: OpSpec, referenced: set, stop):
    out: list = []
    while i < len(tokens):
        t = tokens[i]
        if stop is not None and t in stop:
            return out, i
        if t.startswith("`"):
            lit = t[1:-1]
            out.append(Space(lit) if lit in ("", " ") else Literal(lit))
            i += 1
        elif t.startswith("$"):
            out.append(_var(t[1:], spec, referenced))
            i += 1
        elif t == "^":
            _mark_anchor(out[-1])
            i += 1
        elif t in ("attr-dict", "attr-dict-with-keyword"):
            out.append(AttrDict(t == "attr-dict-with-keyword"))
            i += 1
        elif t == "type":
            # type ( $x )
            assert tokens[i + 1] == "(" and tokens[i + 3] == ")"
            name = tokens[i + 2][1:]
            kind = "operand" if name in spec.operand_index else "result"
            out.append(TypeOf(name, kind, full=True))
            i += 4
        elif t.startswith("custom<"):
            name = t[len("custom<"):-1]
            assert tokens[i + 1] == "("
            i += 2
            args: list = []
            while tokens[i] != ")":
                if tokens[i] == ",":
                    i += 1
                    continue
                if tokens[i] == "type":
                    n = tokens[i + 2][1:]
                    args.append(TypeOf(n, "operand" if n in spec.operand_index else "result"))
                    i += 4
                else:
                    args.append(_var(tokens[i][1:], spec, referenced))
                    i += 1
            i += 1
            if name == "CudaTileType" and len(args) == 1 and isinstance(args[0], TypeOf):
                out.append(args[0])
            else:
                out.append(Custom(name, args))
        elif t == "(":
            group, i = _compile_seq(tokens, i + 1, spec, referenced, stop={")"})
            i += 1  # ')'
            assert tokens[i] == "?", f"{spec.name}: only optional groups are supported"
            i += 1
            anchor = _find_anchor(group)
            out.append(OptionalGroup(group, anchor))
        elif t == "oilist":
            assert tokens[i + 1] == "("
            i += 2
            clauses = []
            current: list = []
            while tokens[i] != ")":
                if tokens[i] == "|":
                    clauses.append(current)
                    current = []
                    i += 1
                    continue
                sub, i = _compile_seq(tokens, i, spec, referenced, stop={"|", ")"})
                current.extend(sub)
            clauses.append(current)
            i += 1
            out.append(OIList([(c[0], c[1]) for c in clauses]))
        else:
            raise ValueError(f"{spec.name}: unexpected format token {t!r}")
    return out, i


def _mark_anchor(el) -> None:
    el.anchor = True


def _find_anchor(group: list):
    for el in group:
        if getattr(el, "anchor", False):
            return el
    raise ValueError("optional group without anchor")


# ---------------------------------------------------------------------------------------------
# Parse state shared by declarative and hand-written custom parsers
# ---------------------------------------------------------------------------------------------

class OpState(TypeState):
    """What has been parsed of a custom-form op so far (``operands`` holds parsed uses)."""

    def __init__(self, parser: "Parser", spec: OpSpec, start: int) -> None:
        super().__init__(spec)
        self.parser = parser
        self.start = start
        self.regions: dict[str, Region] = {}
        #: offset of the first type of each group (for diagnostics)
        self.type_offsets: dict[str, int] = {}
        #: a declarative format's attribute dictionary: it wins over what the format's other
        #: elements set (MLIR sets the op's properties from it after parsing them)
        self.dict_attrs: dict = {}

    def set_types(self, name: str, kind: str, types: list[Type], offset: int) -> None:
        target = self.operand_types if kind == "operand" else self.result_types
        target[name] = types
        self.type_offsets.setdefault(name, offset)

    def build(self) -> Operation:
        """Infer missing types, resolve operands and create the op."""
        spec = self.spec
        parser = self.parser
        infer_types(self)
        operands = []
        segments = []
        for o in spec.operands:
            uses = self.operands.get(o.name, [])
            types = self.operand_types.get(o.name)
            if uses and types is None:
                raise parser.error(f"could not infer the type of operand '{o.name}'", self.start)
            types = types or []
            if len(types) == 1 and len(uses) > 1 and o.kind == VARIADIC:
                types = types * len(uses)
            if len(types) != len(uses):
                # (at the operand list, as ODS's resolveOperands reports it)
                off = uses[0][1] if uses else self.type_offsets.get(o.name, self.start)
                raise parser.error(f"{parser.op_prefix()}number of operands and types do not "
                                   f"match: got {len(uses)} operands and {len(types)} types", off)
            for (name, off), t in zip(uses, types):
                operands.append(parser.lookup_value(name, off, t))
            segments.append(len(uses))
        result_types: list[Type] = []
        for r in spec.results:
            types = self.result_types.get(r.name)
            if types is None:
                if r.kind == SINGLE:
                    raise parser.error(f"could not infer the type of result '{r.name}'",
                                       self.start)
                types = []
            result_types.extend(types)
        fill_default_attributes(spec, self.attrs)
        regions = [self.regions.get(rd.name) or Region() for rd in spec.regions]
        op = make_op(spec.name, operands, result_types, self.attrs, regions,
                     parser.loc_at(self.start),
                     segments if spec.attr_sized_operands else None)
        return op


def fill_default_attributes(spec: OpSpec, attrs: dict) -> None:
    """Materialise default-valued attributes (MLIR populates them when an op is created)."""
    for a in spec.attributes:
        if a.default is not None and a.name not in attrs:
            attrs[a.name] = a.default


# ---------------------------------------------------------------------------------------------
# Custom directives
# ---------------------------------------------------------------------------------------------

@dataclass
class CustomDirective:
    """``parse(parser, state, args) -> bool`` returns whether anything was parsed;
    ``print(printer, op, args) -> Optional[str]`` returns the text (None if nothing printed);
    ``present(parser, args)`` tells whether an optional group starting with it is present."""

    parse: Callable
    print: Callable
    present: Optional[Callable] = None
    #: the value the directive gives its (first) attribute when the text leaves it out
    default: Any = None


CUSTOM_DIRECTIVES: dict[str, CustomDirective] = {}


# ---------------------------------------------------------------------------------------------
# Attribute values in custom syntax
# ---------------------------------------------------------------------------------------------

def parse_attr_value(parser: "Parser", decl: Attr) -> Attribute:
    kind = decl.kind
    enum = decl.enum
    if enum is not None:
        spelled = ENUM_MNEMONICS.get(enum)
        if spelled is not None:
            dialect = spelled.partition(".")[0]
            parser.expect("<")
            member = parser.parse_enum_keyword(
                enum, lambda word: f"expected ::mlir::{dialect}::{enum.__name__} to be one of: "
                                   f"{', '.join(enum.keywords())}")
            parser.expect(">")
            return member
        # ODS's generated enum-attribute parser: a keyword of the enum, or a string
        off = parser.offset
        t = parser.tok
        member = enum.from_keyword(t) if t and (t[0].isalpha() or t[0] == "_") else None
        if member is not None:
            parser.i += 1
            return member
        if t and t[0] == '"':
            word = parser.parse_string()
            member = enum.from_keyword(word)
            if member is None:
                raise parser.error(f"{parser.op_prefix()}invalid {decl.name} attribute "
                                   f"specification: \"{word}\"", off)
            return member
        raise parser.error(f"{parser.op_prefix()}expected string or keyword containing one of the "
                           f"following enum values for attribute '{decl.name}' "
                           f"[{', '.join(enum.keywords())}]", off)
    if kind in ("i64", "i32"):
        off = parser.offset
        return parser.integer_attr(parser.parse_integer(), I64 if kind == "i64" else I32, off)
    if kind == "str":
        t = parser.tok
        if t and t[0] == '"':
            return StringAttr(parser.parse_string("string"))
        off = parser.offset
        if starts_attribute(parser):
            parser.parse_attribute()
            raise parser.error("invalid kind of attribute specified", off)
        raise parser.error("expected attribute value")
    if kind in ("symbol",):
        return StringAttr(parser.parse_symbol_name())
    if kind == "flat_symbol":
        return SymbolRefAttr(parser.parse_symbol_name())
    if kind in ("array_i32", "array_i64"):
        parser.expect("[")
        bits = int(kind[-2:])
        values = parser.parse_comma_list(lambda: parser.parse_fixed_integer(bits), "]")
        parser.expect("]")
        return DenseArrayAttr(kind[-3:], tuple(values))
    kind_parser = ATTR_KIND_PARSERS.get(kind)
    if kind_parser is not None:
        return kind_parser(parser)
    if kind == "bool":
        off = parser.offset
        attr = parser.parse_attribute()
        if not (isinstance(attr, IntegerAttr) and attr.type is I1):
            raise parser.error("invalid kind of attribute specified", off)
        return attr
    return parse_attr_of_storage(parser, decl)


def parse_attr_of_storage(parser: "Parser", decl: Attr) -> Attribute:
    """An attribute written in a custom form where ``decl``'s storage class is expected (MLIR's
    ``parseAttribute<ArrayAttr>`` and the like): a literal or an attribute of another class is
    a parse error, as in mlir-opt, rather than an attribute the verifier rejects later (whose
    generic form would drop it)."""
    from ..ir.verify import property_conversion_fails
    off = parser.offset
    t = parser.tok
    if t and (t[0].isdigit() or (t[0] == "-" and t[1:2].isdigit())) \
            and property_conversion_fails(decl, IntegerAttr(0, I64)):
        if re.fullmatch(r"-?[0-9]+", t) or t.startswith(("0x", "-0x")):
            raise parser.error("integer literal not valid for specified type", off)
        if property_conversion_fails(decl, FloatAttr(0.0, F64)):
            raise parser.error("floating point value not valid for specified type",
                               off + len(t))
    attr = parser.parse_attribute()
    if property_conversion_fails(decl, attr):
        raise parser.error(f"{parser.op_prefix()}invalid kind of attribute specified", off)
    return attr


_ATTR_KEYWORDS = frozenset(("true", "false", "unit", "dense", "array", "affine_map",
                            "affine_set", "loc", "distinct", "strided", "sparse"))
_BUILTIN_TYPE_WORD = re.compile(r"[su]?i[0-9]+|f[0-9]+\w*")


def starts_attribute(parser: "Parser") -> bool:
    """Whether MLIR's parseOptionalAttribute would parse an attribute at the current token."""
    tok = parser.tok
    if not tok:
        return False
    c = tok[0]
    if c in "#[{@\"-" or c.isdigit() or tok in _ATTR_KEYWORDS:
        return True
    # a builtin type is a type attribute
    return tok in ("index", "none", "bf16", "tf32") or bool(_BUILTIN_TYPE_WORD.fullmatch(tok))


def print_attr_value(decl: Attr, value: Attribute) -> str:
    enum = decl.enum
    if enum is not None and isinstance(value, EnumAttr):
        if enum in ENUM_MNEMONICS:
            return f"<{value.keyword}>"
        return value.keyword
    kind = decl.kind
    if kind in ("i64", "i32") and isinstance(value, IntegerAttr):
        return str(value.value)
    if kind == "symbol" and isinstance(value, StringAttr):
        return format_symbol(value.value)
    if kind in ("array_i32", "array_i64") and isinstance(value, DenseArrayAttr):
        return "[" + ", ".join(map(str, value.value)) + "]"
    if kind == "hints":
        return f"<{value.body()}>"
    custom = getattr(value, "custom_syntax", None)
    if custom is not None:  # a dialect attribute's spelling inside its op's custom form
        return custom()
    return value.generic()


# ---------------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------------

def parse_custom_op(parser: "Parser", spec: OpSpec, names, start: int) -> Operation:
    """Parse the custom form of a registered op (after its name)."""
    state = OpState(parser, spec, start)
    state.result_names = names
    custom = spec.cls.parse_custom
    if custom is not None:
        result = custom(parser, state)
        return result if isinstance(result, Operation) else state.build()
    fmt = spec.format
    if fmt is None:
        raise parser.error(f"custom op '{spec.name}' has no custom assembly form", start)
    _parse_elements(parser, state, fmt.elements)
    if state.dict_attrs:
        state.attrs.update(state.dict_attrs)
    return state.build()


def _is_keyword_literal(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] == "_")


def _group_present(parser: "Parser", state: OpState, group: OptionalGroup) -> bool:
    # a leading spacing directive (`` ` ` ``) does not decide presence
    first = next((el for el in group.elements if type(el) is not Space), group.elements[0])
    tok = parser.tok
    if isinstance(first, Literal):
        return tok == first.text
    if isinstance(first, Var):
        if first.kind == "operand":
            return bool(tok) and tok[0] == "%"
        if first.kind == "attr":
            decl = state.spec.attr_by_name[first.name]
            if decl.enum is not None:
                return decl.enum.from_keyword(tok) is not None if tok else False
            return bool(tok) and tok not in (":", "{", "->")
        if first.kind == "region":
            return tok == "{"
    if isinstance(first, TypeOf):
        return tok not in (":", "->", ",", ")", "{", "")
    if isinstance(first, Custom):
        d = CUSTOM_DIRECTIVES[first.name]
        return d.present(parser, first.args) if d.present else True
    return False


def _parse_elements(parser: "Parser", state: OpState, elements: list) -> None:
    for el in elements:
        cls = type(el)
        if cls is Literal:
            if parser.tok == el.text:
                parser.i += 1
            else:
                if parser.tok and parser.tok[0] == "\x00":
                    raise parser.error("")
                if el.text[0].isalpha() or el.text[0] == "_":
                    # parseKeyword("kw"): reported at the current token
                    raise parser.error(f"{parser.op_prefix()}expected '{el.text}'")
                raise parser.wrong_token_error(f"expected '{el.text}'")
        elif cls is Space:
            continue
        elif cls is Var:
            _parse_var(parser, state, el)
        elif cls is TypeOf:
            _parse_types(parser, state, el)
        elif cls is AttrDict:
            if el.with_keyword:
                if parser.tok == "attributes":
                    off = parser.offset
                    parser.i += 1
                    _merge_attr_dict(parser, state, off)
            elif parser.tok == "{":
                _merge_attr_dict(parser, state)
        elif cls is Custom:
            CUSTOM_DIRECTIVES[el.name].parse(parser, state, el.args)
        elif cls is OptionalGroup:
            if _group_present(parser, state, el):
                _parse_elements(parser, state, el.elements)
        elif cls is OIList:
            seen: set = set()
            while True:
                tok = parser.tok
                for lit, var in el.clauses:
                    kw = lit.text
                    if tok == kw and kw not in seen:
                        parser.i += 1
                        seen.add(kw)
                        state.attrs[var.name] = UNIT
                        break
                else:
                    break
        else:  # pragma: no cover
            raise AssertionError(el)


def _merge_attr_dict(parser: "Parser", state: OpState, at: Optional[int] = None) -> None:
    """The ``attr-dict`` of a declarative format.  As MLIR's generated parsers do, the op's
    own (inherent) attributes given there are checked right away (reported at ``at``, the
    dictionary or its ``attributes`` keyword); they replace what the format spells."""
    off = parser.offset
    attrs = parser.parse_attr_dict_body()
    state.dict_attrs = checked_inherent_attributes(parser, state, attrs,
                                                   off if at is None else at)
    state.attrs.update(state.dict_attrs)


def checked_inherent_attributes(parser: "Parser", state: OpState, attrs: dict, at: int) -> dict:
    """``attrs`` from a custom form's attribute dictionary, normalized, after checking the op's
    own (inherent) attributes among them as ODS-generated parsers do: a violation is a parse
    error at ``at`` (``custom op 'X' 'X' op attribute ...``)."""
    from .parser import normalize_attributes
    from ..ir.verify import inherent_attribute_error
    spec = state.spec
    attrs = normalize_attributes(spec, attrs, defaults=False)
    for decl in spec.attributes:
        if decl.name in attrs:
            msg = inherent_attribute_error(decl, attrs[decl.name])
            if msg is not None:
                raise parser.error(f"{parser.op_prefix()}'{spec.name}' op {msg}", at)
    return attrs


def _parse_var(parser: "Parser", state: OpState, el: Var) -> None:
    spec = state.spec
    if el.kind == "operand":
        decl = spec.operands[spec.operand_index[el.name]]
        if decl.kind == SINGLE or decl.kind == OPTIONAL:
            state.operands[el.name] = [parser._parse_use()]
        else:
            uses = []
            if parser.tok and parser.tok[0] == "%":
                uses = parser.parse_comma_list(parser._parse_use)
            state.operands[el.name] = uses
    elif el.kind == "attr":
        decl = spec.attr_by_name[el.name]
        if decl.is_unit:
            state.attrs[el.name] = UNIT
        else:
            state.attrs[el.name] = parse_attr_value(parser, decl)
    elif el.kind == "region":
        region = Region()
        # (MLIR: the default dialect an op's interface declares, else none)
        parser.parse_region_into(region, None, isolated=_is_isolated(spec),
                                 dialect=default_dialect_for(spec.name, ""))
        state.regions[el.name] = region
    else:  # pragma: no cover
        raise AssertionError(el)


def _is_isolated(spec: OpSpec) -> bool:
    from ..ir.traits import IsolatedFromAbove
    return spec.has_trait(IsolatedFromAbove)


def parse_type_list(parser: "Parser") -> list[Type]:
    return parser.parse_comma_list(parser.parse_type)


def _parse_types(parser: "Parser", state: OpState, el: TypeOf) -> None:
    spec = state.spec
    off = parser.offset
    if el.kind == "operand":
        decl = spec.operands[spec.operand_index[el.name]]
    else:
        decl = spec.results[spec.result_index[el.name]]
    if decl.kind != SINGLE:
        # the type of an optional group or a variadic list may be absent (ODS parses it with
        # parseOptionalType first)
        types = [] if not parser.starts_type() else \
            parse_type_list(parser) if decl.kind == VARIADIC else [parser.parse_type()]
    else:
        types = [parse_type_of_class(parser, decl.constraint)]
    state.set_types(el.name, el.kind, types, off)


def parse_type_of_class(parser: "Parser", constraint, offset: Optional[int] = None) -> Type:
    """A type that must be of the class ``constraint.storage`` names (MLIR's generated parsers
    read ``type($x)`` as the constraint's C++ type: ``invalid kind of type specified``, at
    ``offset``, default the type's own)."""
    off = parser.offset if offset is None else offset
    t = parser.parse_type()
    storage = constraint.storage
    if storage is not None and not storage[0](t):
        expected = f": expected {storage[1]}, but found '{t}'" if storage[1] else ""
        raise parser.error(f"{parser.op_prefix()}invalid kind of type specified{expected}", off)
    return t


# ---------------------------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------------------------
#
# MLIR decides where the generated printer emits spaces when it *generates* the printer, not when
# it runs: every element other than a literal, a whitespace directive or ``attr-dict`` gets a
# leading space if ``shouldEmitSpace || !lastWasPunctuation`` at that point of the format, even if
# the element then prints nothing (a custom directive with a default value, an absent optional
# operand).  That is where NVIDIA's ``addf %a, %b  : tile<f32>`` comes from.  The flags flow
# through optional groups as if they were present.  ``plan_spacing`` replays that computation
# once per format and stores the decision on each element (``sp``).

def _space_before(value: str, last_was_punct: bool) -> bool:
    if len(value) != 1 and value != "->":
        return True
    if last_was_punct:
        return value[0] not in ">)}],"
    return value[0] not in "<>(){}[],"


def plan_spacing(elements: list, should_space: bool = True,
                 last_punct: bool = False) -> tuple[bool, bool]:
    """Annotate ``elements`` (recursively) with their leading-space decision; return the flags
    after the last element."""
    for el in elements:
        cls = type(el)
        if cls is Literal:
            el.sp = should_space and _space_before(el.text, last_punct)
            should_space = len(el.text) != 1 or el.text[0] not in "<({["
            last_punct = not (el.text[0] == "_" or el.text[0].isalpha())
        elif cls is Space:
            last_punct = el.text == ""
            should_space = False
        elif cls is AttrDict:
            last_punct = False
        elif cls is OptionalGroup:
            anchor = el.anchor
            el.elided = None
            if (isinstance(anchor, Var) and anchor.kind == "attr" and anchor.is_unit
                    and anchor is not el.elements[0]):
                el.elided = anchor
            inner = [e for e in el.elements if e is not el.elided]
            should_space, last_punct = plan_spacing(inner, should_space, last_punct)
        elif cls is OIList:
            for lit, _var in el.clauses:
                should_space, last_punct = plan_spacing([lit], should_space, last_punct)
        else:  # Var, TypeOf, Custom
            el.sp = should_space or not last_punct
            last_punct = False
            should_space = True
    return should_space, last_punct


class _PrintState:
    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: list[str] = []


def print_format(printer: "OpPrinter", op: Operation, fmt: CompiledFormat) -> str:
    """Render the custom-form body of ``op`` (everything after its name)."""
    fn = fmt.__dict__.get("printer_fn")
    if fn is None:
        fn = fmt.__dict__["printer_fn"] = compile_printer(fmt, op.SPEC)
    return fn(printer, op)


def print_format_interpreted(printer: "OpPrinter", op: Operation, fmt: CompiledFormat) -> str:
    """The same as :func:`print_format`, walking the elements (reference implementation)."""
    parts: list[str] = []
    _print_elements(printer, op, fmt, fmt.elements, parts)
    return "".join(parts)


def compile_printer(fmt: CompiledFormat, spec: OpSpec) -> Callable:
    """Generate a Python function that prints ``spec``'s custom form as
    :func:`print_format_interpreted` does, with the spacing decisions and the element kinds
    resolved once (the printer's hot path)."""
    env: dict = {"_anchor_present": _anchor_present, "_pav": print_attr_value,
                 "_CUSTOM": CUSTOM_DIRECTIVES, "_spec": spec, "_referenced":
                 frozenset(fmt.referenced_attrs) | {"operandSegmentSizes"}}
    lines = ["def pr(printer, op):", "    nm = printer.names.text", "    attrs = op.attributes",
             "    s = ''"]
    dynamic = bool(spec.n_dynamic_operands or spec.n_dynamic_results)
    if dynamic:
        for seq, groups, sz, attr_sized in (("op.operands", spec.operands, "osz",
                                             spec.attr_sized_operands),
                                            ("op.results", spec.results, "rsz", False)):
            dyn = [i for i, g in enumerate(groups) if g.kind != SINGLE]
            if len(dyn) == 1 and not attr_sized:
                # one variadic group: its size is what the fixed groups leave
                sizes = ", ".join(f"len({seq}) - {len(groups) - 1}" if i == dyn[0] else "1"
                                  for i in range(len(groups)))
                lines.append(f"    {sz} = [{sizes}]")
            elif sz == "osz":
                lines.append("    osz = _spec.operand_sizes(op)")
            else:
                lines.append("    rsz = _spec.result_sizes(op)")
    counter = [0]

    def const(value) -> str:
        counter[0] += 1
        name = f"_c{counter[0]}"
        env[name] = value
        return name

    def group_slice(name: str, kind: str) -> tuple[str, bool]:
        """Expression for the values of a group, and whether it is a single value."""
        groups = spec.operands if kind == "operand" else spec.results
        index = (spec.operand_index if kind == "operand" else spec.result_index)[name]
        seq = "op.operands" if kind == "operand" else "op.results"
        if not dynamic or all(g.kind == SINGLE for g in groups):
            if groups[index].kind == SINGLE:
                return f"{seq}[{index}]", True
            return f"{seq}[{index}:{index + 1}]", False
        sz = "osz" if kind == "operand" else "rsz"
        start = " + ".join(f"{sz}[{j}]" for j in range(index)) or "0"
        return f"{seq}[{start}:{start} + {sz}[{index}]]", False

    def emit(elements, ind: str) -> None:
        for el in elements:
            cls = type(el)
            if cls is Literal:
                lines.append(f"{ind}s += {el.spaced!r}")
            elif cls is Space:
                if el.text == " ":
                    lines.append(f"{ind}s += ' '")
            elif cls is Var:
                sp = "' ' + " if el.sp else ""
                if el.kind == "operand":
                    expr, single = group_slice(el.name, "operand")
                    if single:
                        lines.append(f"{ind}s += {sp}nm[{expr}]")
                    else:
                        lines.append(f"{ind}s += {sp}', '.join([nm[v] for v in {expr}])")
                elif el.kind == "attr":
                    decl = spec.attr_by_name[el.name]
                    if decl.is_unit:
                        if el.sp:
                            lines.append(f"{ind}s += ' '")
                        continue
                    if el.sp:
                        lines.append(f"{ind}s += ' '")
                    lines.append(f"{ind}v = attrs.get({el.name!r})")
                    enum = decl.enum
                    if enum is not None:
                        fmt_ = "'<' + v.keyword + '>'" if enum in ENUM_MNEMONICS else "v.keyword"
                        lines.append(f"{ind}if v is not None:")
                        lines.append(f"{ind}    s += {fmt_} if isinstance(v, {const(enum)}) "
                                     f"else _pav({const(decl)}, v)")
                    else:
                        lines.append(f"{ind}if v is not None:")
                        lines.append(f"{ind}    s += _pav({const(decl)}, v)")
                elif el.kind == "region":
                    idx = [r.name for r in spec.regions].index(el.name)
                    sp = "' ' + " if el.sp else ""
                    lines.append(f"{ind}s += {sp}printer.region_text(op.regions[{idx}])")
                else:
                    raise ValueError(el.kind)
            elif cls is TypeOf:
                sp = "' ' + " if el.sp else ""
                expr, single = group_slice(el.name, el.kind)
                attr = "_full" if el.full else "_short"
                if single:
                    lines.append(f"{ind}s += {sp}{expr}.type.{attr}")
                else:
                    lines.append(f"{ind}s += {sp}', '.join([v.type.{attr} for v in {expr}])")
            elif cls is AttrDict:
                lines.append(f"{ind}if not _referenced.issuperset(attrs):")
                lines.append(f"{ind}    s += printer.attr_dict_text(op, _referenced, "
                             f"{el.with_keyword})")
            elif cls is Custom:
                if el.sp:
                    lines.append(f"{ind}s += ' '")
                d = const(CUSTOM_DIRECTIVES[el.name].print)
                lines.append(f"{ind}t = {d}(printer, op, {const(el.args)})")
                lines.append(f"{ind}if t:")
                lines.append(f"{ind}    s += t")
            elif cls is OptionalGroup:
                anchor = el.anchor
                if isinstance(anchor, Var) and anchor.kind == "attr":
                    decl = spec.attr_by_name[anchor.name]
                    if decl.default is None:
                        cond = f"attrs.get({anchor.name!r}) is not None"
                    else:
                        cond = (f"attrs.get({anchor.name!r}, {const(decl.default)}) "
                                f"!= {const(decl.default)}")
                elif (dynamic and isinstance(anchor, (Var, TypeOf)) and
                      anchor.kind in ("operand", "result")):
                    sz = "osz" if anchor.kind == "operand" else "rsz"
                    index = (spec.operand_index if anchor.kind == "operand"
                             else spec.result_index)[anchor.name]
                    cond = f"{sz}[{index}] > 0"
                else:
                    cond = f"_anchor_present(op, {const(anchor)})"
                lines.append(f"{ind}if {cond}:")
                before = len(lines)
                emit([e for e in el.elements if e is not el.elided], ind + "    ")
                if len(lines) == before:
                    lines.append(f"{ind}    pass")
            elif cls is OIList:
                for lit, var in el.clauses:
                    lines.append(f"{ind}if {var.name!r} in attrs:")
                    lines.append(f"{ind}    s += {lit.spaced!r}")
            else:  # pragma: no cover
                raise AssertionError(el)

    emit(fmt.elements, "    ")
    lines.append("    return s")
    exec(compile("\n".join(lines) + "\n", f"<print {spec.name}>", "exec"), env)
    return env["pr"]


def _anchor_present(op: Operation, anchor) -> bool:
    spec = op.SPEC
    if isinstance(anchor, Var):
        if anchor.kind == "operand":
            start, stop = spec.operand_range(op, anchor.name)
            return stop > start
        if anchor.kind == "attr":
            value = op.attributes.get(anchor.name)
            if value is None:
                return False
            decl = spec.attr_by_name[anchor.name]
            return decl.default is None or value != decl.default
        if anchor.kind == "region":
            region = op.regions[[r.name for r in spec.regions].index(anchor.name)]
            return bool(region.blocks)
        if anchor.kind == "result":
            start, stop = spec.result_range(op, anchor.name)
            return stop > start
    if isinstance(anchor, (TypeOf, Custom)):
        names = [anchor] if isinstance(anchor, TypeOf) else anchor.args
        for a in names:
            if isinstance(a, (TypeOf, Var)):
                if a.kind == "operand":
                    start, stop = spec.operand_range(op, a.name)
                    if stop > start:
                        return True
                elif a.kind == "result":
                    start, stop = spec.result_range(op, a.name)
                    if stop > start:
                        return True
                elif a.kind == "attr":
                    return a.name in op.attributes
                elif a.kind == "region":
                    idx = [r.name for r in spec.regions].index(a.name)
                    return bool(op.regions[idx].blocks)
        return False
    return True


def group_values(op: Operation, name: str, kind: str) -> list:
    spec = op.SPEC
    if kind == "operand":
        if not spec.n_dynamic_operands:
            i = spec.operand_index[name]
            return op.operands[i:i + 1]
        start, stop = spec.operand_range(op, name)
        return op.operands[start:stop]
    if not spec.n_dynamic_results:
        i = spec.result_index[name]
        return op.results[i:i + 1]
    start, stop = spec.result_range(op, name)
    return op.results[start:stop]


def _print_elements(printer: "OpPrinter", op: Operation, fmt: CompiledFormat, elements: list,
                    parts: list) -> None:
    spec = op.SPEC
    append = parts.append
    for el in elements:
        cls = type(el)
        if cls is Literal:
            append(el.spaced)
        elif cls is Var:
            if el.sp:
                append(" ")
            kind = el.kind
            if kind == "operand":
                name = printer.value_name
                append(", ".join([name(v) for v in group_values(op, el.name, "operand")]))
            elif kind == "attr":
                value = op.attributes.get(el.name)
                if value is not None:
                    append(print_attr_value(spec.attr_by_name[el.name], value))
            elif kind == "region":
                idx = [r.name for r in spec.regions].index(el.name)
                append(printer.region_text(op.regions[idx]))
        elif cls is TypeOf:
            if el.sp:
                append(" ")
            append(", ".join([str(v.type) if el.full else v.type.short
                              for v in group_values(op, el.name, el.kind)]))
        elif cls is AttrDict:
            text = printer.attr_dict_text(op, fmt.referenced_attrs, el.with_keyword)
            if text:
                append(text)
        elif cls is Space:
            if el.text == " ":
                append(" ")
        elif cls is Custom:
            if el.sp:
                append(" ")
            text = CUSTOM_DIRECTIVES[el.name].print(printer, op, el.args)
            if text:
                append(text)
        elif cls is OptionalGroup:
            if _anchor_present(op, el.anchor):
                elided = el.elided
                if elided is None:
                    _print_elements(printer, op, fmt, el.elements, parts)
                else:
                    _print_elements(printer, op, fmt,
                                    [e for e in el.elements if e is not elided], parts)
        elif cls is OIList:
            for lit, var in el.clauses:
                if var.name in op.attributes:
                    append(lit.spaced)
        else:  # pragma: no cover
            raise AssertionError(el)


FORMAT_COMPILERS.append(compile_format)
