"""``affine.for``, ``affine.if`` and ``affine.yield``: the affine dialect's structured control
flow.  Text, generic form and messages as mlir-opt 22.

``affine.for %i = LB to UB [step N] [iter_args(%x = %init, ...) -> (T, ...)] {...}``: a bound
is an integer constant, one SSA value (kept as the map ``()[s0] -> (s0)``) or ``map(dims)[syms]``
(``max`` before a lower bound map of several results, ``min`` before an upper one); the loop
runs from the greatest lower-bound result to below the least upper-bound result.
``affine.if #set(dims)[syms] [-> types] {...} [else {...}]`` takes the then region where every
constraint of the integer set holds (``e == 0`` / ``e >= 0``).

Left lenient (MLIR checks them): whether the bound and condition operands are valid affine
dimensions/symbols (``operand cannot be used as a symbol``...).  Stricter than MLIR 22: a
generic ``affine.for`` whose bound operand counts do not match its maps (mlir-opt accepts it and
then misprints it) is an error."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from ...ir import verify as _verify
from ...ir.attributes import IntegerAttr
from ...ir.core import Operation
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import Pure, RecursiveMemoryEffects, ReturnLike, SingleBlockImplicitTerminator, Terminator
from ..builtin.affine import (AffineConst, AffineMap, AffineMapAttr, AffineSymbol, IntegerSetAttr)
from ..scf.branch import check_edge, terminator_of
from ..scf.common import ANY, INDEX, INDEX_TYPE, ensure_terminator, parse_region, type_list
from ..scf.syntax import _elide_any_terminator, _is_terminator, _paren_or_single_types

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser
    from ...text.printer import OpPrinter

__all__ = ["ForOp", "IfOp", "YieldOp"]

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
        if not args or str(args[0].type) != "index":
            return "expected body to have a single index argument for the induction variable"
        for which in ("lower", "upper"):
            if not self.attributes[f"{which}BoundMap"].value.results:
                return f"expected {which} bound map to have at least one result"
        iter_args, inits, results = args[1:], list(self.inits), list(self.results)
        msg = _verify_loop_like(inits, iter_args, results)
        if msg:
            return msg
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


def _verify_loop_like(inits: list, iter_args: list, results: list) -> Optional[str]:
    """MLIR's LoopLikeOpInterface checks that the yield's own verifier leaves to the loop."""
    if len(inits) != len(iter_args):
        return f"different number of inits and region iter_args: {len(inits)} != {len(iter_args)}"
    if results and len(results) != len(iter_args):
        return (f"different number of loop results and region iter_args: {len(results)} != "
                f"{len(iter_args)}")
    for i, (a, b) in enumerate(zip(inits, iter_args)):
        if a.type != b.type:
            return (f"{i}-th init and {i}-th region iter_arg have different type: "
                    f"'{a.type}' != '{b.type}'")
    for i, (a, b) in enumerate(zip(iter_args, results)):
        if a.type != b.type:
            return (f"{i}-th region iter_arg and {i}-th loop result have different type: "
                    f"'{a.type}' != '{b.type}'")
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
        return None

    def verify_regions(self):
        if self.results and not self.regions[1].blocks:
            return check_edge(self, self, "parent", "parent", [], _types(self.results))
        return None
