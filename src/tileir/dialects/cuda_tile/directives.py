"""The cuda_tile custom format directives (``custom<Name>(...)`` in assembly formats)."""

from __future__ import annotations

from typing import Optional

from .attributes import (IEEE_ROUNDING_MODES, AssumePredicate, ComparisonOrdering,
                         ComparisonPredicate, RoundingMode, Signedness, SymbolVisibility)
from ...ir.core import Block, Region
from ...text.format import CUSTOM_DIRECTIVES, CustomDirective, group_values, starts_attribute
from .types import TileType

RM = RoundingMode


def _rounding(default: RoundingMode, allowed: tuple, validate: bool, unlisted: tuple = ()):
    """``rounding<mode>`` clause, optional, defaulting to ``default``.

    Mirrors cuda-tile's two parseRoundingModeWithModes variants: ``validate`` (IEEE and integer
    modes) rejects known modes outside ``allowed`` and says which mode it got; otherwise only
    unknown mode names are rejected here and the op verifier checks the rest.  ``unlisted``
    modes are accepted too but left out of the message (13.3's wording, which never names
    13.4's ``nearest_away``)."""
    quoted = ", ".join(f"'{m}'" for m in allowed)
    members = frozenset(RoundingMode.from_keyword(m) for m in allowed + unlisted)

    def parse(parser, state, args) -> bool:
        name = args[0].name
        if parser.tok != "rounding":
            state.attrs.setdefault(name, default)
            return False
        parser.i += 1
        parser.expect("<")
        word = parser.parse_keyword()
        parser.expect(">")
        member = RoundingMode.from_keyword(word)
        bad = member is None or (validate and member not in members)
        if bad:
            got = f", got: '{word}'" if validate else ""
            raise parser.error(f"{parser.op_prefix()}expected rounding mode to be one of: "
                               f"{quoted}{got}")
        state.attrs[name] = member
        return True

    def print_(printer, op, args) -> Optional[str]:
        value = op.attributes.get(args[0].name)
        if value is None or value == default:
            return None
        return f"rounding<{value.keyword}>"

    return CustomDirective(parse, print_, lambda parser, args: parser.tok == "rounding",
                           default=default)


_IEEE = tuple(m.keyword for m in IEEE_ROUNDING_MODES)
#: Modes a clause accepts without naming them in its error message: 13.4's nearest_away parses
#: wherever the IEEE modes do; only ftof's verifier lets it through.
_UNLISTED = {"IEEERoundingMode": ("nearest_away",)}
for _name, _default, _allowed, _validate in (
        ("IEEERoundingMode", RM.NEAREST_EVEN, _IEEE, True),
        ("DivFOpRoundingMode", RM.NEAREST_EVEN, _IEEE + ("approx", "full"), False),
        ("SqrtOpRoundingMode", RM.NEAREST_EVEN, _IEEE + ("approx",), False),
        ("TanHOpRoundingMode", RM.FULL, ("approx", "full"), False),
        ("ExpOpRoundingMode", RM.FULL, ("approx", "full"), False),
        ("IntegerRoundingMode", RM.NEAREST_INT_TO_ZERO, ("nearest_int_to_zero",), True)):
    CUSTOM_DIRECTIVES[_name] = _rounding(_default, _allowed, _validate, _UNLISTED.get(_name, ()))


def _keyword_enum(enum, error: str, optional_default=None):
    def parse(parser, state, args) -> bool:
        name = args[0].name
        tok = parser.tok
        member = enum.from_keyword(tok) if tok else None
        if member is None:
            if optional_default is not None:
                state.attrs.setdefault(name, optional_default)
                return False
            from ...ir.diagnostics import ERROR, Diagnostic
            if not parser.at_identifier():
                # parseKeyword fails first (its own error), then cuda-tile's message
                parser.pending_diags.append(Diagnostic(
                    ERROR, f"{parser.op_prefix()}expected valid keyword",
                    parser.loc_at(parser.offset)))
            raise parser.error(parser.op_prefix() + error)
        parser.i += 1
        state.attrs[name] = member
        return True

    def print_(printer, op, args) -> Optional[str]:
        value = op.attributes.get(args[0].name)
        if value is None or (optional_default is not None and value == optional_default):
            return None
        # NVIDIA's printSymbolVisibility prints "private " (with a trailing space)
        return value.keyword + " " if optional_default is not None else value.keyword

    return CustomDirective(parse, print_,
                           lambda parser, args: bool(parser.tok) and
                           enum.from_keyword(parser.tok) is not None, default=optional_default)


CUSTOM_DIRECTIVES["Signedness"] = _keyword_enum(
    Signedness, "expected signedness to be one of: {'signed', 'unsigned'}")
CUSTOM_DIRECTIVES["ComparisonPredicate"] = _keyword_enum(
    ComparisonPredicate, "expected 'comparison_predicate' to be one of: {"
    + ", ".join(f"'{k}'" for k in ComparisonPredicate.keywords()) + "}")
CUSTOM_DIRECTIVES["ComparisonOrdering"] = _keyword_enum(
    ComparisonOrdering, "expected 'comparison_ordering' to be one of: {'ordered', 'unordered'}")
CUSTOM_DIRECTIVES["SymbolVisibility"] = _keyword_enum(
    SymbolVisibility, "", optional_default=SymbolVisibility.PUBLIC)


# -- assume predicates ---------------------------------------------------------------------------

_starts_attribute = starts_attribute


def _parse_assume(parser, state, args) -> bool:
    """cuda-tile's parseAssumePredicate: a full attribute, or ``div_by<...>`` /
    ``same_elements<...>`` / ``bounded<...>`` without the ``#cuda_tile.`` prefix."""
    from .attributes import AssumePredicate
    tok = parser.tok
    off = parser.offset
    if _starts_attribute(parser):
        attr = parser.parse_attribute()
        if not isinstance(attr, AssumePredicate):
            raise parser.error(f"{parser.op_prefix()}expected assume predicate attribute", off)
    elif tok in ("div_by", "same_elements", "bounded"):
        parser.i += 1
        from .syntax import parse_assume_predicate_body
        attr = parse_assume_predicate_body(parser, tok)
    elif parser.at_identifier():
        raise parser.error(f"{parser.op_prefix()}unknown assume predicate attribute: {tok} "
                           "(expected 'div_by', 'same_elements', or 'bounded')", off)
    else:
        from ...ir.diagnostics import ERROR, Diagnostic
        parser.pending_diags.append(Diagnostic(ERROR, f"{parser.op_prefix()}expected valid keyword",
                                               parser.loc_at(off)))
        raise parser.error(f"{parser.op_prefix()}expected attribute name", off)
    state.attrs[args[0].name] = attr
    return True


def _print_assume(printer, op, args) -> Optional[str]:
    value = op.attributes.get(args[0].name)
    if isinstance(value, AssumePredicate):
        return value.body()
    return value.generic() if value is not None else None


CUSTOM_DIRECTIVES["AssumePredicate"] = CustomDirective(_parse_assume, _print_assume)


# -- dense constants -----------------------------------------------------------------------------

def _check_literal_tree(parser, tree, el) -> None:
    """cuda-tile reads and checks each element while reading the nested lists: element errors
    and "ranks are not consistent" come in source order, before the type is read."""
    from ...text.parser import scalar_literal

    def walk(node, top: bool):
        if isinstance(node, tuple):
            scalar_literal(parser, node, el)
            return ()
        first = None
        for item in node:
            shape = walk(item, False)
            if top and isinstance(item, tuple):
                continue  # cuda-tile does not compare scalars at the outermost level
            if first is None:
                first = shape
            elif shape != first:
                last = _last_leaf(item) or _last_leaf(node)
                raise parser.error("tensor literal is invalid; ranks are not consistent between "
                                   "elements", last[2] if last else None)
        return (len(node),) + (first or ())

    walk(tree, True)


def _last_leaf(node):
    if isinstance(node, tuple):
        return node
    for item in reversed(node):
        leaf = _last_leaf(item)
        if leaf is not None:
            return leaf
    return None


def _parse_dense(with_result: bool):
    def parse(parser, state, args) -> bool:
        from ...text.parser import build_dense
        from .types import ELEMENT_TYPES
        value_name = args[0].name
        lt = parser.offset
        parser.expect("<")
        el_off = parser.offset
        el_text = parser.tok
        el = ELEMENT_TYPES.get(el_text)
        expect_msg = ("expect element type to be one of i1 or i8 or i16 or i32 or i64 or f16 or "
                      "bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or f4E2M1FN "
                      "values, but got ")
        if el is None or el.name == "i4":
            # cuda-tile parses a type, then insists on a dense element type
            from ...text.parser import ParseError
            try:
                got = parser.parse_type()
            except ParseError as exc:
                parser.pending_diags.append(exc.diag)
                raise parser.error(f"{parser.op_prefix()}{expect_msg}'<<NULL TYPE>>'")
            raise parser.error(f"{parser.op_prefix()}{expect_msg}'{got}'")
        parser.i += 1
        parser.expect(":")
        tree_off = parser.offset
        tree = parser.parse_literal_tree()
        _check_literal_tree(parser, tree, el)
        parser.expect(">")
        parser.expect(":")
        type_off = parser.offset
        typ = parser.parse_type()
        if not isinstance(typ, TileType):
            raise parser.error(
                f"custom op '{state.spec.name}' result #0 must be tile of i1 or i8 or i16 or i32 "
                f"or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU "
                f"or f4E2M1FN values, but got '{typ}'", state.start)
        if typ.element is not el:
            raise parser.error(f"mismatch between the element type: '{el.name}' and the tile "
                               f"element type '{typ.element}'", el_off)
        state.attrs[value_name] = build_dense(parser, tree, typ, tree_off)
        if with_result:
            state.set_types(args[1].name, "result", [typ], type_off)
        return True

    def print_(printer, op, args) -> Optional[str]:
        attr = op.attributes.get(args[0].name)
        return f"<{attr.element_text()}: {attr.body()}> : {attr.type.short}"

    return CustomDirective(parse, print_)


CUSTOM_DIRECTIVES["DenseTypedElementsAttr"] = _parse_dense(True)
CUSTOM_DIRECTIVES["DenseTypedElementsAttrNoResult"] = _parse_dense(False)


# -- regions -------------------------------------------------------------------------------------

def ensure_terminator(region: Region, op_name: str, loc) -> None:
    """Append an operand-less ``op_name`` terminator if the single block lacks one."""
    from ...ir.opdef import make_op
    from ...ir.opdef import OP_REGISTRY
    if not region.blocks:
        region.add_block()
    block = region.blocks[0]
    last = block.ops[-1] if block.ops else None
    if last is not None and _is_terminator(last):
        return
    block.append(make_op(op_name, loc=loc))


def _is_terminator(op) -> bool:
    from ...ir.traits import Terminator
    spec = op.SPEC
    return spec is not None and spec.has_trait(Terminator)


def _parse_if_region(parser, state, args) -> bool:
    region = Region()
    parser.parse_region_into(region, None, isolated=False, dialect="cuda_tile")
    ensure_terminator(region, "cuda_tile.yield", parser.loc_at(state.start))
    state.regions[args[0].name] = region
    return True


def _print_if_region(printer, op, args) -> Optional[str]:
    idx = [r.name for r in op.SPEC.regions].index(args[0].name)
    region = op.regions[idx]

    def elide(term) -> bool:
        return term.name == "cuda_tile.yield" and not term.operands
    return printer.render_region(region, print_terminator=False, elide_terminator_if=elide)


CUSTOM_DIRECTIVES["IfOpRegion"] = CustomDirective(
    _parse_if_region, _print_if_region, lambda parser, args: parser.tok == "{")


def _parse_argument_region(parser, state, args) -> bool:
    parser.expect("(")
    entry_args = []

    def one():
        t = parser.tok
        off = parser.offset
        if not t or t[0] != "%":
            raise parser.wrong_token_error("expected SSA operand")
        parser.i += 1
        parser.expect(":")
        typ = parser.parse_type()
        entry_args.append((t, typ, off, None))
    parser.parse_comma_list(one, ")")
    parser.expect(")")
    region = Region()
    # ``() {}`` leaves the region empty (MLIR creates no block without arguments or ops)
    parser.parse_region_into(region, None, isolated=False, dialect="cuda_tile",
                             entry_args=entry_args or None)
    state.regions[args[0].name] = region
    return True


def _print_argument_region(printer, op, args) -> Optional[str]:
    idx = [r.name for r in op.SPEC.regions].index(args[0].name)
    region = op.regions[idx]
    block = region.blocks[0] if region.blocks else Block()
    header = ", ".join(f"{printer.value_name(a)}: {a.type.short}" for a in block.args)
    indent = "  " * printer.indent
    return f"\n{indent}({header}) " + printer.render_region(region)


CUSTOM_DIRECTIVES["ArgumentRegion"] = CustomDirective(_parse_argument_region,
                                                      _print_argument_region)
