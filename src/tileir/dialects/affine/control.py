"""``affine.for``, ``affine.if``, ``affine.parallel`` and ``affine.yield``: the affine dialect's
structured control flow.  Text, generic form and messages as mlir-opt 22.

``affine.for %i = LB to UB [step N] [iter_args(%x = %init, ...) -> (T, ...)] {...}``: a bound
is an integer constant, one SSA value (kept as the map ``()[s0] -> (s0)``) or ``map(dims)[syms]``
(``max`` before a lower bound map of several results, ``min`` before an upper one); the loop
runs from the greatest lower-bound result to below the least upper-bound result.
``affine.if #set(dims)[syms] [-> types] {...} [else {...}]`` takes the then region where every
constraint of the integer set holds (``e == 0`` / ``e >= 0``).
``affine.parallel (%i, ...) = (lbs) to (ubs) [step (N, ...)] [reduce ("kind", ...) -> (T, ...)]
{...}``: each bound an affine expression of SSA values (``%n`` a dimension, ``symbol(%n)`` a
symbol) or ``max(...)``/``min(...)`` of several; ``lowerBoundsMap``/``upperBoundsMap`` hold all
of them and ``lowerBoundsGroups``/``upperBoundsGroups`` how many results each bound has;
``reductions`` holds the ``arith::AtomicRMWKind`` of each result.

Bound and condition operands must be valid affine dimensions/symbols
(:mod:`tileir.dialects.affine.validity`).  Stricter than MLIR 22: a generic ``affine.for`` whose bound operand counts do not match its maps
(mlir-opt accepts it and then misprints it) is an error, and so is a generic ``affine.parallel``
whose operand count does not match its two maps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

import numpy as np

from ...ir import verify as _verify
from ...ir.attributes import (ArrayAttr, Attribute, DenseElementsAttr, IntegerAttr, StringAttr,
                              i64_attr)
from ...ir.core import Operation
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import Pure, RecursiveMemoryEffects, ReturnLike, SingleBlockImplicitTerminator, Terminator
from ...ir.types import I32, FloatType, IntegerType
from ..builtin.affine import (AffineConst, AffineMap, AffineMapAttr, AffineSymbol, IntegerSetAttr)
from ..scf.branch import check_edge, terminator_of, verify_loop_like
from ..scf.common import ANY, INDEX, INDEX_TYPE, ensure_terminator, parse_region, type_list
from ..scf.syntax import _elide_any_terminator, _is_terminator, _paren_or_single_types
from .validity import dim_symbol_error

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser
    from ...text.printer import OpPrinter

__all__ = ["ForOp", "IfOp", "ParallelOp", "YieldOp", "REDUCTION_KINDS"]

_verify.ATTR_KINDS.setdefault(
    "affine.integer_set", (lambda v: isinstance(v, IntegerSetAttr), "IntegerSet attribute"))
_verify.ATTR_KINDS.setdefault(
    "index", (lambda v: isinstance(v, IntegerAttr) and str(v.type) == "index", "index attribute"))


class _AffineRegionOp(OpBase):
    """Base of the region-holding affine ops: names inside the regions are spelled in full."""

    __slots__ = ()
    DIALECT_NAME = "affine"
    DEFAULT_DIALECT = ""


def _types(values) -> list:
    return [v.type for v in values]


def _dim_symbol_list(parser: "Parser") -> tuple[list, int]:
    """MLIR's ``parseDimAndSymbolList``: ``(dims)`` then optional ``[symbols]``; returns the
    uses and the number of dimensions."""
    parser.expect("(")
    dims = [] if parser.tok == ")" else parser.parse_comma_list(parser._parse_use, ")")
    parser.expect(")")
    symbols: list = []
    if parser.consume("["):
        symbols = [] if parser.tok == "]" else parser.parse_comma_list(parser._parse_use, "]")
        parser.expect("]")
    return dims + symbols, len(dims)


def _dim_symbol_text(printer: "OpPrinter", values: Sequence, n_dims: int) -> str:
    """MLIR's ``printDimAndSymbolList``."""
    names = [printer.value_name(v) for v in values]
    text = "(" + ", ".join(names[:n_dims]) + ")"
    if len(names) > n_dims:
        text += "[" + ", ".join(names[n_dims:]) + "]"
    return text


# ---------------------------------------------------------------------------------------------
# affine.yield
# ---------------------------------------------------------------------------------------------

class YieldOp(_AffineRegionOp):
    """``affine.yield [%v, ... : types]``: the values an affine.for/if region passes on."""

    __slots__ = ()
    MNEMONIC = "yield"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    TRAITS = (Pure, ReturnLike, Terminator())
    FORMAT = "attr-dict ($operands^ `:` type($operands))?"

    def verify_op(self):
        parent = self.parent_op
        if parent is None or parent.name not in ("affine.for", "affine.if", "affine.parallel"):
            return "only terminates affine.if/for/parallel regions"
        if len(parent.results) != len(self.operands):
            return "parent of yield must have same number of results as the yield operands"
        if any(r.type != v.type for r, v in zip(parent.results, self.operands)):
            return "types mismatch between yield op and its parent"
        return None


# ---------------------------------------------------------------------------------------------
# affine.for
# ---------------------------------------------------------------------------------------------

def _constant_map(value: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(0, 0, (AffineConst(value),)))


_SYMBOL_IDENTITY = AffineMapAttr(AffineMap(0, 1, (AffineSymbol(0),)))


def _parse_bound(parser: "Parser", state: "OpState", lower: bool) -> tuple[AffineMapAttr, list]:
    """One loop bound: ``[max|min] (integer | %ssa | map(dims)[symbols])``."""
    prefixed = parser.consume("max" if lower else "min")
    if parser.tok[:1] == "%":
        return _SYMBOL_IDENTITY, [parser._parse_use()]
    at = parser.offset
    attr = parser.parse_attribute(INDEX_TYPE)
    if isinstance(attr, AffineMapAttr):
        uses, n_dims = _dim_symbol_list(parser)
        amap = attr.value
        prefix = parser.op_prefix()
        if amap.n_dims != n_dims:
            raise parser.error(f"{prefix}dim operand count and affine map dim count must match",
                               state.start)
        if n_dims + amap.n_symbols != len(uses):
            raise parser.error(f"{prefix}symbol operand count and affine map symbol count must "
                               "match", state.start)
        if len(amap.results) > 1 and not prefixed:
            which, word = ("lower", "max") if lower else ("upper", "min")
            raise parser.error(f"{prefix}{which} loop bound affine map with multiple results "
                               f"requires '{word}' prefix", at)
        return attr, uses
    if isinstance(attr, IntegerAttr):
        return _constant_map(attr.value), []
    raise parser.error(f"{parser.op_prefix()}expected valid affine map representation for loop "
                       "bounds", state.start)


def _bound_text(printer: "OpPrinter", attr: AffineMapAttr, operands: Sequence,
                prefix: str) -> str:
    """A bound as MLIR prints it: a constant or a lone symbol operand in short form, else
    the map (after ``max``/``min`` when it has several results) and its operands."""
    amap = attr.value
    if len(amap.results) == 1:
        expr = amap.results[0]
        if amap.n_dims == 0 and amap.n_symbols == 0 and isinstance(expr, AffineConst):
            return str(expr.value)
        if amap.n_dims == 0 and amap.n_symbols == 1 and isinstance(expr, AffineSymbol):
            return printer.value_name(operands[0])
        text = ""
    else:
        text = prefix + " "
    return text + attr.generic() + _dim_symbol_text(printer, operands, amap.n_dims)


def parse_for(parser: "Parser", state: "OpState") -> Operation:
    """``%iv = LB to UB [step N] [iter_args(...) -> (types)] {body} [attr-dict]``."""
    t = parser.tok
    if not t or t[0] != "%":
        raise parser.wrong_token_error("expected SSA operand")
    iv = (t, parser.offset)
    parser.i += 1
    parser.expect("=")
    lb_map, lbs = _parse_bound(parser, state, True)
    if parser.tok != "to":
        raise parser.error(f"{parser.op_prefix()}expected 'to' between bounds")
    parser.i += 1
    ub_map, ubs = _parse_bound(parser, state, False)
    step = IntegerAttr(1, INDEX_TYPE)
    if parser.consume("step"):
        at = parser.offset
        step = parser.parse_attribute(INDEX_TYPE)
        if not isinstance(step, IntegerAttr):
            raise parser.error(f"{parser.op_prefix()}invalid kind of attribute specified", at)
        if step.value < 0:
            raise parser.error(f"{parser.op_prefix()}expected step to be representable as a "
                               "positive signed integer", at)
    inner: list = []
    inits: list = []
    types: list = []
    if parser.consume("iter_args"):
        parser.expect("(")

        def one() -> None:
            name = parser.tok
            if not name or name[0] != "%":
                raise parser.wrong_token_error("expected SSA operand")
            inner.append((name, parser.offset))
            parser.i += 1
            parser.expect("=")
            inits.append(parser._parse_use())
        parser.parse_comma_list(one, ")")
        parser.expect(")")
        parser.expect("->")
        types = _paren_or_single_types(parser)
    if len(inner) != len(types):
        raise parser.error(f"{parser.op_prefix()}mismatch between the number of loop-carried "
                           "values and results", state.start)
    entry = [(iv[0], INDEX_TYPE, iv[1])] + [(n, ty, off) for (n, off), ty in zip(inner, types)]
    region = parse_region(parser, entry)
    ensure_terminator(region, "affine.yield", parser.loc_at(state.start), _is_terminator)
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    state.attrs.update(lowerBoundMap=lb_map, upperBoundMap=ub_map, step=step)
    state.regions["region"] = region
    state.operands.update(lowerBoundOperands=lbs, upperBoundOperands=ubs, inits=inits)
    state.operand_types.update(lowerBoundOperands=[INDEX_TYPE] * len(lbs),
                               upperBoundOperands=[INDEX_TYPE] * len(ubs), inits=list(types))
    state.result_types["results"] = list(types)
    return state.build()


def print_for(printer: "OpPrinter", op: Operation) -> str:
    region = op.regions[0]
    args = region.blocks[0].args
    lbs, ubs, inits = op.lowerBoundOperands, op.upperBoundOperands, op.inits
    text = (f" {printer.value_name(args[0])} = "
            + _bound_text(printer, op.attributes["lowerBoundMap"], lbs, "max") + " to "
            + _bound_text(printer, op.attributes["upperBoundMap"], ubs, "min"))
    step = op.attributes["step"].value
    if step != 1:
        text += f" step {step}"
    if inits:
        text += (" iter_args(" + ", ".join(f"{printer.value_name(a)} = {printer.value_name(v)}"
                                           for a, v in zip(args[1:], inits))
                 + f") -> ({type_list(r.type for r in op.results)}) "
                 + printer.render_region(region))
    else:
        text += " " + _elide_any_terminator(printer, region)
    return text + printer.attr_dict_text(
        op, {"lowerBoundMap", "upperBoundMap", "step", "operandSegmentSizes"})


class ForOp(_AffineRegionOp):
    """``affine.for %i = LB to UB [step N] [iter_args(...) -> (T...)] {...}``."""

    __slots__ = ()
    MNEMONIC = "for"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("lowerBoundOperands", INDEX, VARIADIC),
                Operand("upperBoundOperands", INDEX, VARIADIC), Operand("inits", ANY, VARIADIC))
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("lowerBoundMap", "affine_map"), Attr("upperBoundMap", "affine_map"),
                  Attr("step", "index"))
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("affine.yield"))
    parse_custom = staticmethod(parse_for)
    print_custom = staticmethod(print_for)

    def verify_op(self):
        for which, operands in (("lower", self.lowerBoundOperands),
                                ("upper", self.upperBoundOperands)):
            amap = self.attributes[f"{which}BoundMap"].value
            if len(operands) != amap.n_dims + amap.n_symbols:
                # (not checked by mlir-opt 22)
                return (f"{which} bound operand count and affine map dimension and symbol "
                        "count must match")
        return None

    def verify_regions(self):
        region = self.regions[0]
        args = list(region.blocks[0].args) if region.blocks else []
        iter_args, inits, results = args[1:], list(self.inits), list(self.results)
        # (MLIR runs the LoopLikeOpInterface verifier before the op's own region checks)
        msg = verify_loop_like(inits, iter_args, region, results, "affine.yield")
        if msg:
            return msg
        if not args or str(args[0].type) != "index":
            return "expected body to have a single index argument for the induction variable"
        for which, operands in (("lower", self.lowerBoundOperands),
                                ("upper", self.upperBoundOperands)):
            amap = self.attributes[f"{which}BoundMap"].value
            if amap.n_dims + amap.n_symbols:
                msg = dim_symbol_error(self, operands, amap.n_dims)
                if msg:
                    return msg
        for which in ("lower", "upper"):
            if not self.attributes[f"{which}BoundMap"].value.results:
                return f"expected {which} bound map to have at least one result"
        iter_types = _types(iter_args)
        edge = check_edge(self, self, "parent", "Region #0", _types(inits), iter_types)
        if edge:
            return edge
        term = terminator_of(region)
        if term is not None and term.name == "affine.yield":
            for target, inputs in (("Region #0", iter_types), ("parent", _types(results))):
                edge = check_edge(self, term, "Operation affine.yield", target,
                                  _types(term.operands), inputs)
                if edge:
                    return edge
        if results and len(inits) != len(results):
            return "mismatch between the number of loop-carried values and results"
        return None


# ---------------------------------------------------------------------------------------------
# affine.if
# ---------------------------------------------------------------------------------------------

def parse_if(parser: "Parser", state: "OpState") -> Operation:
    """``#set(dims)[symbols] [-> types] {then} [else {else}] [attr-dict]``."""
    at = parser.offset
    if parser.tok[:1] in ("%", ""):
        raise parser.error_prev_end("expected attribute value")
    attr = parser.parse_attribute()
    if not isinstance(attr, IntegerSetAttr):
        raise parser.error("invalid kind of attribute specified", at)
    uses, n_dims = _dim_symbol_list(parser)
    iset = attr.value
    prefix = parser.op_prefix()
    if iset.n_dims != n_dims:
        raise parser.error(f"{prefix}dim operand count and integer set dim count must match",
                           state.start)
    if n_dims + iset.n_symbols != len(uses):
        raise parser.error(f"{prefix}symbol operand count and integer set symbol count must "
                           "match", state.start)
    types = _paren_or_single_types(parser) if parser.consume("->") else []
    loc = parser.loc_at(state.start)
    then = parse_region(parser, [])
    ensure_terminator(then, "affine.yield", loc, _is_terminator)
    state.regions["thenRegion"] = then
    if parser.consume("else"):
        other = parse_region(parser, [])
        ensure_terminator(other, "affine.yield", loc, _is_terminator)
        state.regions["elseRegion"] = other
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    state.attrs["condition"] = attr
    state.operands["operands"] = uses
    state.operand_types["operands"] = [INDEX_TYPE] * len(uses)
    state.result_types["results"] = list(types)
    return state.build()


def print_if(printer: "OpPrinter", op: Operation) -> str:
    attr = op.attributes["condition"]
    text = " " + attr.generic() + _dim_symbol_text(printer, op.operands, attr.value.n_dims)
    types = [r.type for r in op.results]
    if len(types) == 1:
        text += f" -> {types[0]}"
    elif types:
        text += f" -> ({type_list(types)})"

    def region(r) -> str:
        return printer.render_region(r) if types else _elide_any_terminator(printer, r)
    text += " " + region(op.regions[0])
    if op.regions[1].blocks:
        text += " else " + region(op.regions[1])
    return text + printer.attr_dict_text(op, {"condition"})


class IfOp(_AffineRegionOp):
    """``affine.if #set(dims)[symbols] [-> (T...)] {then} [else {else}]``."""

    __slots__ = ()
    MNEMONIC = "if"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("condition", "affine.integer_set"),)
    REGIONS = (RegionDef("thenRegion", "sized1"), RegionDef("elseRegion", "maxsized1"))
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("affine.yield"))
    parse_custom = staticmethod(parse_if)
    print_custom = staticmethod(print_if)

    def verify_op(self):
        iset = self.attributes["condition"].value
        if len(self.operands) != iset.n_dims + iset.n_symbols:
            return ("operand count and condition integer set dimension and symbol count must "
                    "match")
        return dim_symbol_error(self, self.operands, iset.n_dims)

    def verify_regions(self):
        if self.results and not self.regions[1].blocks:
            return check_edge(self, self, "parent", "parent", [], _types(self.results))
        return None


# ---------------------------------------------------------------------------------------------
# affine.parallel
# ---------------------------------------------------------------------------------------------

#: MLIR 22's ``arith::AtomicRMWKind`` names, by their encoding in ``reductions``
REDUCTION_KINDS = ("addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
                   "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori")

_verify.ATTR_KINDS.setdefault(
    "affine_i32_elements",
    (lambda v: isinstance(v, DenseElementsAttr) and str(getattr(v.type, "element_type", ""))
     == "i32", "32-bit signless integer elements attribute"))


def _valid_reductions(v) -> bool:
    return all(isinstance(x, IntegerAttr) and str(x.type) == "i64"
               and 0 <= x.value < len(REDUCTION_KINDS) for x in v.value)


def _groups_attr(sizes: Sequence[int]) -> Attribute:
    from ..builtin.dense import BuiltinDenseElementsAttr
    from ..builtin.types import RankedTensorType
    return BuiltinDenseElementsAttr(RankedTensorType((len(sizes),), I32),
                                    np.asarray(list(sizes), dtype=np.int32))


def group_sizes(attr: Attribute) -> list:
    return [int(x) for x in np.asarray(attr.array).reshape(-1)]


def reduction_kind(attr: Attribute) -> Optional[str]:
    """The name of one ``reductions`` entry, None when it is not a valid kind."""
    if not isinstance(attr, IntegerAttr) or not 0 <= attr.value < len(REDUCTION_KINDS):
        return None
    return REDUCTION_KINDS[attr.value]


def _substitute(expr, dims: Sequence, symbols: Sequence):
    """``expr`` with its dimension ``k`` replaced by ``dims[k]`` and symbol ``k`` by
    ``symbols[k]`` (MLIR's ``replaceDimsAndSymbols``)."""
    from ..builtin import affine as _a
    if isinstance(expr, _a.AffineDim):
        return dims[expr.position]
    if isinstance(expr, _a.AffineSymbol):
        return symbols[expr.position]
    if isinstance(expr, _a.AffineBinary):
        build = {"add": _a.affine_add, "mul": _a.affine_mul, "floordiv": _a.affine_floordiv,
                 "ceildiv": _a.affine_ceildiv, "mod": _a.affine_mod}[expr.kind]
        return build(_substitute(expr.lhs, dims, symbols), _substitute(expr.rhs, dims, symbols))
    return expr


def _parse_min_max_bound(parser: "Parser", lower: bool) -> tuple[AffineMapAttr, Attribute, list]:
    """MLIR's ``parseAffineMapWithMinMax``: ``(b, ...)`` where each ``b`` is an affine
    expression of SSA ids or ``max(e, ...)`` (``min`` for an upper bound).  As in MLIR, each
    ``b`` is parsed on its own (a value used again inside one ``b`` keeps the dimension or
    symbol role of its first use there), then the operands of all are merged, dimensions and
    symbols each deduplicated in order of first use."""
    from ..builtin.affine import AffineDim, _SSAAffineParser

    class _Parser(_SSAAffineParser):
        def _use(self, name, off, symbol):
            for k, (seen, _) in enumerate(self.dim_uses):
                if seen == name:
                    return AffineDim(k)
            for k, (seen, _) in enumerate(self.symbol_uses):
                if seen == name:
                    return AffineSymbol(k)
            return super()._use(name, off, symbol)

    parser.expect("(")
    if parser.consume(")"):
        return AffineMapAttr(AffineMap(0, 0, ())), _groups_attr([]), []
    parts: list = []
    groups: list = []
    word = "max" if lower else "min"

    def one() -> None:
        ap = _Parser(parser)
        if parser.tok == word and parser.peek() == "(":
            parser.i += 2
            items = parser.parse_comma_list(ap.expr, ")")
            parser.expect(")")
        else:
            items = [ap.expr()]
        parts.append((items, ap.dim_uses, ap.symbol_uses))
        groups.append(len(items))
    parser.parse_comma_list(one, ")")
    parser.expect(")")
    dim_uses: list = []
    symbol_uses: list = []

    def position(uses: list, use: tuple) -> int:
        for k, (name, _) in enumerate(uses):
            if name == use[0]:
                return k
        uses.append(use)
        return len(uses) - 1
    exprs: list = []
    for items, dims, symbols in parts:
        new_dims = [AffineDim(position(dim_uses, u)) for u in dims]
        new_symbols = [AffineSymbol(position(symbol_uses, u)) for u in symbols]
        exprs.extend(_substitute(e, new_dims, new_symbols) for e in items)
    amap = AffineMap(len(dim_uses), len(symbol_uses), tuple(exprs))
    return AffineMapAttr(amap), _groups_attr(groups), dim_uses + symbol_uses


def _min_max_bound_text(printer: "OpPrinter", attr: AffineMapAttr, groups: Attribute,
                        operands: Sequence, word: str) -> str:
    """MLIR's ``printMinMaxBound``."""
    from ..builtin.affine import affine_map_of_ssa_ids_text
    amap = attr.value
    names = [printer.value_name(v) for v in operands]
    dims, symbols = names[:amap.n_dims], names[amap.n_dims:]
    parts = []
    start = 0
    for size in group_sizes(groups):
        sub = AffineMap(amap.n_dims, amap.n_symbols, amap.results[start:start + size])
        text = affine_map_of_ssa_ids_text(sub, dims, symbols)
        parts.append(text if size == 1 else f"{word}({text})")
        start += size
    return ", ".join(parts)


def parse_parallel(parser: "Parser", state: "OpState") -> Operation:
    """``(%i, ...) = (lbs) to (ubs) [step (s, ...)] [reduce ("kind", ...)] [-> (types)]
    {body} [attr-dict]``."""
    parser.expect("(")
    ivs: list = []

    def iv() -> None:
        name = parser.tok
        if not name or name[0] != "%":
            raise parser.wrong_token_error("expected SSA operand")
        ivs.append((name, parser.offset))
        parser.i += 1
    if parser.tok != ")":
        parser.parse_comma_list(iv, ")")
    parser.expect(")")
    parser.expect("=")
    lb_map, lb_groups, lbs = _parse_min_max_bound(parser, True)
    if parser.tok != "to":
        raise parser.error(f"{parser.op_prefix()}expected 'to'")
    parser.i += 1
    ub_map, ub_groups, ubs = _parse_min_max_bound(parser, False)
    if parser.consume("step"):
        from ..builtin.affine import parse_affine_map_of_ssa_ids
        parser.expect("(")
        smap, _, _ = parse_affine_map_of_ssa_ids(parser, ")")
        parser.expect(")")
        if not all(isinstance(e, AffineConst) for e in smap.results):
            raise parser.error(f"{parser.op_prefix()}steps must be constant integers",
                               state.start)
        steps = [e.value for e in smap.results]
    else:
        steps = [1] * len(ivs)
    reductions: list = []
    if parser.consume("reduce"):
        parser.expect("(")

        def kind() -> None:
            at = parser.offset
            attr = parser.parse_attribute()
            if not isinstance(attr, StringAttr):
                raise parser.error("expected string attribute", at)
            if attr.value not in REDUCTION_KINDS:
                raise parser.error(f"{parser.op_prefix()}invalid reduction value: "
                                   f"{attr.generic()}", at)
            reductions.append(i64_attr(REDUCTION_KINDS.index(attr.value)))
        parser.parse_comma_list(kind, ")")
        parser.expect(")")
    types = _paren_or_single_types(parser) if parser.consume("->") else []
    region = parse_region(parser, [(n, INDEX_TYPE, off) for n, off in ivs])
    ensure_terminator(region, "affine.yield", parser.loc_at(state.start), _is_terminator)
    if parser.tok == "{":
        state.attrs.update(parser.parse_attr_dict_body())
    state.attrs.update(lowerBoundsGroups=lb_groups, lowerBoundsMap=lb_map,
                       reductions=ArrayAttr(tuple(reductions)),
                       steps=ArrayAttr(tuple(i64_attr(s) for s in steps)),
                       upperBoundsGroups=ub_groups, upperBoundsMap=ub_map)
    state.regions["region"] = region
    state.operands["mapOperands"] = lbs + ubs
    state.operand_types["mapOperands"] = [INDEX_TYPE] * len(lbs + ubs)
    state.result_types["results"] = list(types)
    return state.build()


def print_parallel(printer: "OpPrinter", op: Operation) -> str:
    region = op.regions[0]
    attrs = op.attributes
    n_lb = _n_inputs(attrs["lowerBoundsMap"])
    operands = list(op.operands)
    text = (" (" + ", ".join(printer.value_name(a) for a in region.blocks[0].args) + ") = ("
            + _min_max_bound_text(printer, attrs["lowerBoundsMap"], attrs["lowerBoundsGroups"],
                                  operands[:n_lb], "max") + ") to ("
            + _min_max_bound_text(printer, attrs["upperBoundsMap"], attrs["upperBoundsGroups"],
                                  operands[n_lb:], "min") + ")")
    steps = [int(s.value) for s in attrs["steps"].value]
    if any(s != 1 for s in steps):
        text += " step (" + ", ".join(str(s) for s in steps) + ")"
    if op.results:
        text += (" reduce (" + ", ".join(f'"{reduction_kind(r)}"'
                                         for r in attrs["reductions"].value)
                 + f") -> ({type_list(r.type for r in op.results)}) "
                 + printer.render_region(region))
    else:
        text += " " + _elide_any_terminator(printer, region)
    return text + printer.attr_dict_text(
        op, {"reductions", "lowerBoundsMap", "lowerBoundsGroups", "upperBoundsMap",
             "upperBoundsGroups", "steps"})


def _n_inputs(attr: AffineMapAttr) -> int:
    return attr.value.n_dims + attr.value.n_symbols


def _result_matches(t, kind: str) -> bool:
    """MLIR's ``isResultTypeMatchAtomicRMWKind``."""
    name = str(t)
    is_float = isinstance(t, FloatType)
    is_int = isinstance(t, IntegerType) or type(t).__name__ == "SignedIntegerType"
    if kind in ("addf", "mulf", "maximumf", "minimumf"):
        return is_float
    if kind in ("addi", "muli", "ori", "andi"):
        return is_int
    if kind == "assign":
        return True
    if kind in ("maxs", "mins"):
        return name.startswith("si")
    if kind in ("maxu", "minu"):
        return name.startswith("ui")
    return False


class ParallelOp(_AffineRegionOp):
    """``affine.parallel (%i, ...) = (lbs) to (ubs) [step (...)] [reduce (...) -> (T...)]
    {...}``: a hyper-rectangular parallel band; each lower bound is the greatest of its group
    of ``lowerBoundsMap`` results, each upper bound the least of its group."""

    __slots__ = ()
    MNEMONIC = "parallel"
    OPERANDS = (Operand("mapOperands", INDEX, VARIADIC),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("reductions", "array", summary="Reduction ops",
                       check=_valid_reductions), Attr("lowerBoundsMap", "affine_map"),
                  Attr("lowerBoundsGroups", "affine_i32_elements"),
                  Attr("upperBoundsMap", "affine_map"),
                  Attr("upperBoundsGroups", "affine_i32_elements"), Attr("steps", "i64_array"))
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("affine.yield"))
    parse_custom = staticmethod(parse_parallel)
    print_custom = staticmethod(print_parallel)

    @property
    def lowerBoundsOperands(self) -> list:
        return list(self.operands)[:_n_inputs(self.attributes["lowerBoundsMap"])]

    @property
    def upperBoundsOperands(self) -> list:
        return list(self.operands)[_n_inputs(self.attributes["lowerBoundsMap"]):]

    def verify_op(self):
        attrs = self.attributes
        n = len(attrs["steps"].value)
        lbg, ubg = group_sizes(attrs["lowerBoundsGroups"]), group_sizes(attrs["upperBoundsGroups"])
        region = self.regions[0]
        n_args = len(region.blocks[0].args) if region.blocks else 0
        if len(lbg) != n or len(ubg) != n or n_args != n:
            return (f"the number of region arguments ({n_args}) and the number of map groups "
                    f"for lower ({len(lbg)}) and upper bound ({len(ubg)}), and the number of "
                    f"steps ({n}) must all match")
        for which, sizes in (("lower", lbg), ("upper", ubg)):
            if any(s == 0 for s in sizes):
                return f"expected {which} bound map to have at least one result"
            if sum(sizes) != len(attrs[f"{which}BoundsMap"].value.results):
                return f"expected {which} bounds map to have {sum(sizes)} results"
        reductions = attrs["reductions"].value
        if len(reductions) != len(self.results):
            return "a reduction must be specified for each output"
        for attr, result in zip(reductions, self.results):
            kind = reduction_kind(attr)
            if kind is None:
                return "invalid reduction attribute"
            if not _result_matches(result.type, kind):
                return "result type cannot match reduction attribute"
        if len(self.operands) != (_n_inputs(attrs["lowerBoundsMap"])
                                  + _n_inputs(attrs["upperBoundsMap"])):
            # (not checked by mlir-opt 22)
            return ("bound operand count and affine maps dimension and symbol count must "
                    "match")
        return (dim_symbol_error(self, self.lowerBoundsOperands,
                                 attrs["lowerBoundsMap"].value.n_dims)
                or dim_symbol_error(self, self.upperBoundsOperands,
                                    attrs["upperBoundsMap"].value.n_dims))

    def verify_regions(self):
        region = self.regions[0]
        if any(str(a.type) != "index" for a in region.blocks[0].args):
            return "expected the region arguments to be of index type"   # (tileir's)
        return None
