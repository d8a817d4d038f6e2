"""The scf dialect's ops (MLIR 22): structured control flow.

Each op is one declarative definition; the ops whose MLIR syntax is hand-written C++ in MLIR
(for, if, while, parallel, forall, execute_region, in_parallel, reduce) use the hooks of
:mod:`.syntax`.  Verifier rules and message texts follow mlir-opt 22 (``SCF.cpp``,
``LoopLikeInterface``, ``RegionBranchOpInterface``)."""

from __future__ import annotations

from ...ir.opdef import OPTIONAL, VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import (ParentOneOf, Pure, RecursiveMemoryEffects, ReturnLike, SingleBlock,
                          SingleBlockNoTerminator,
                          SingleBlockImplicitTerminator, Terminator)
from . import syntax
from .branch import check_edge, op_diag, terminator_of, verify_loop_like
from .common import ANY, I1_TYPE, INDEX, SIGNLESS_INT_OR_INDEX, is_index
from ...ir.constraints import Pred
from ...ir.verify import op_error

__all__ = ["ScfOp", "ConditionOp", "ExecuteRegionOp", "ForOp", "ForallOp", "InParallelOp",
           "IfOp", "IndexSwitchOp", "ParallelOp", "ReduceOp", "ReduceReturnOp", "WhileOp",
           "YieldOp"]

RANKED_TENSOR = Pred(lambda t: str(t).startswith("tensor<") and not str(t).startswith("tensor<*"),
                     "ranked tensor of any type values")


class ScfOp(OpBase):
    """Base of the scf ops: regions inherit the enclosing default dialect."""

    __slots__ = ()
    DIALECT_NAME = "scf"
    #: no OpAsmOpInterface default dialect: inside the regions op names are spelled in full
    DEFAULT_DIALECT = ""


def _types(values) -> list:
    return [v.type for v in values]


def _yield_edges(op, region, targets) -> str | None:
    """Check the terminator of ``region`` against each ``(name, input types)`` target."""
    term = terminator_of(region)
    if term is None or term.name not in ("scf.yield", "scf.condition"):
        return None
    values = _types(term.operands[1:] if term.name == "scf.condition" else term.operands)
    for name, inputs in targets:
        msg = check_edge(op, term, f"Operation {term.name}", name, values, inputs)
        if msg:
            return msg
    return None


def _entry_args(region) -> list:
    return list(region.blocks[0].args) if region.blocks else []


# ---------------------------------------------------------------------------------------------
# Terminators
# ---------------------------------------------------------------------------------------------

class YieldOp(ScfOp):
    """``scf.yield [%v, ... : types]``: the values a region passes on."""
    __slots__ = ()
    MNEMONIC = "yield"
    OPERANDS = (Operand("results", ANY, VARIADIC),)
    TRAITS = (Pure, ReturnLike, Terminator(),
              ParentOneOf("scf.execute_region", "scf.for", "scf.if", "scf.index_switch",
                          "scf.while"))
    FORMAT = "attr-dict ($results^ `:` type($results))?"


class ConditionOp(ScfOp):
    """``scf.condition(%c) [%v, ... : types]``: ends the ``before`` region of ``scf.while``."""
    __slots__ = ()
    MNEMONIC = "condition"
    OPERANDS = (Operand("condition", I1_TYPE), Operand("args", ANY, VARIADIC))
    TRAITS = (Pure, Terminator(), ParentOneOf("scf.while"))
    FORMAT = "`(` $condition `)` attr-dict ($args^ `:` type($args))?"


class ReduceReturnOp(ScfOp):
    """``scf.reduce.return %v : T``: the result of one reduction body."""
    __slots__ = ()
    MNEMONIC = "reduce.return"
    OPERANDS = (Operand("result", ANY),)
    TRAITS = (Pure, Terminator(), ParentOneOf("scf.reduce"))
    FORMAT = "$result attr-dict `:` type($result)"

    def verify_op(self):
        block = self.parent
        if block is None or not block.args:
            return None
        want = block.args[0].type
        if want != self.operands[0].type:
            return f"must have type '{want}' (the type of the reduction inputs)"
        return None


class ReduceOp(ScfOp):
    """``scf.reduce[(%v, ... : types) {body}, ...]``: ends ``scf.parallel``."""
    __slots__ = ()
    MNEMONIC = "reduce"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    REGIONS = (RegionDef("reductions", "variadic"),)
    TRAITS = (Terminator(), RecursiveMemoryEffects, ParentOneOf("scf.parallel"))
    parse_custom = staticmethod(syntax.parse_reduce)
    print_custom = staticmethod(syntax.print_reduce)

    def verify_op(self):
        for i, region in enumerate(self.regions):
            if len(region.blocks) != 1:
                return (f"region #{i} ('reductions') failed to verify constraint: region with 1 "
                        "blocks")
        return None

    def verify_regions(self):
        for i, region in enumerate(self.regions):
            if i >= len(self.operands) or not region.blocks:
                continue
            t = self.operands[i].type
            block = region.blocks[0]
            if not block.ops:
                return f"{i}-th reduction has an empty body"
            if len(block.args) != 2 or any(a.type != t for a in block.args):
                return (f"expected two block arguments with type '{t}' in the {i}-th reduction "
                        "region")
            if block.ops[-1].name != "scf.reduce.return":
                return "reduction bodies must be terminated with an 'scf.reduce.return' op"
        return None


class InParallelOp(ScfOp):
    """``scf.forall.in_parallel {...}``: ends ``scf.forall``."""
    __slots__ = ()
    MNEMONIC = "forall.in_parallel"
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (Pure, Terminator(), ParentOneOf("scf.forall"), SingleBlockNoTerminator())
    parse_custom = staticmethod(syntax.parse_in_parallel)
    print_custom = staticmethod(syntax.print_in_parallel)

    def verify_op(self):
        region = self.regions[0]
        if region.blocks and region.blocks[0].ops:
            # no op tileir registers implements ParallelCombiningOpInterface
            return "expected only ParallelCombiningOpInterface ops"
        return None


# ---------------------------------------------------------------------------------------------
# Loops
# ---------------------------------------------------------------------------------------------

class ForOp(ScfOp):
    """``scf.for [unsigned] %iv = %lb to %ub step %s [iter_args(...) -> (T...)] [: T]``."""
    __slots__ = ()
    MNEMONIC = "for"
    OPERANDS = (Operand("lowerBound", SIGNLESS_INT_OR_INDEX),
                Operand("upperBound", SIGNLESS_INT_OR_INDEX),
                Operand("step", SIGNLESS_INT_OR_INDEX), Operand("initArgs", ANY, VARIADIC))
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("unsignedCmp", "unit"),)
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("scf.yield"))
    parse_custom = staticmethod(syntax.parse_for)
    print_custom = staticmethod(syntax.print_for)

    def verify_op(self):
        lb, ub, step = (v.type for v in self.operands[:3])
        if not (lb == ub == step):
            return "failed to verify that all of {lowerBound, upperBound, step} have same type"
        inits = self.operands[3:]
        if len(inits) != len(self.results):
            return "mismatch in number of loop-carried values and defined values"
        return verify_loop_like(inits, _entry_args(self.regions[0])[1:], self.regions[0],
                                self.results, "scf.yield")

    def verify_regions(self):
        args = _entry_args(self.regions[0])
        if not args or args[0].type != self.operands[0].type:
            return "expected induction variable to be same type as bounds and step"
        iter_types = _types(args[1:])
        return (check_edge(self, self, "parent", "Region #0", _types(self.operands[3:]),
                           iter_types)
                or _yield_edges(self, self.regions[0], [("Region #0", iter_types),
                                                        ("parent", _types(self.results))]))


def _is_device_mapping(attr) -> bool:
    """An array of attributes with MLIR's DeviceMappingAttrInterface (the gpu dialect's
    mapping attributes)."""
    from ...ir.attributes import ArrayAttr
    return isinstance(attr, ArrayAttr) and all(
        str(a).startswith(("#gpu.block<", "#gpu.thread<", "#gpu.warp<", "#gpu.warpgroup<",
                           "#gpu.lane<", "#gpu.memory_space<")) for a in attr.value)


class ForallOp(ScfOp):
    """``scf.forall (%i...) in (ubs) | = (lbs) to (ubs) step (steps) [shared_outs(...)]``."""
    __slots__ = ()
    MNEMONIC = "forall"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("dynamicLowerBound", INDEX, VARIADIC),
                Operand("dynamicUpperBound", INDEX, VARIADIC),
                Operand("dynamicStep", INDEX, VARIADIC),
                Operand("outputs", RANKED_TENSOR, VARIADIC))
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("staticLowerBound", "array_i64"), Attr("staticUpperBound", "array_i64"),
                  Attr("staticStep", "array_i64"), Attr("mapping", "any", optional=True,
                                            summary="Device Mapping array attribute",
                                            check=_is_device_mapping))
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("scf.forall.in_parallel"))
    parse_custom = staticmethod(syntax.parse_forall)
    print_custom = staticmethod(syntax.print_forall)

    def verify_op(self):
        rank = len(self.attributes["staticLowerBound"].value)
        outs = self.outputs
        if len(self.results) != len(outs):
            return f"produces {len(self.results)} results, but has only {len(outs)} outputs"
        args = _entry_args(self.regions[0])
        if len(args) != rank + len(outs):
            return f"region expects {rank} arguments"
        for i in range(rank):
            if not is_index(args[i].type):
                return f"expects {i}-th block argument to be an index"
        for i, v in enumerate(outs):
            if args[rank + i].type != v.type:
                return f"type mismatch between {i}-th output and corresponding block argument"
        mapping = self.attributes.get("mapping")
        if mapping is not None and len(mapping.value) and len(mapping.value) != rank:
            return "mapping attribute size must match op rank"
        for what, attr, group in (("lower bound", "staticLowerBound", "dynamicLowerBound"),
                                  ("upper bound", "staticUpperBound", "dynamicUpperBound"),
                                  ("step", "staticStep", "dynamicStep")):
            msg = syntax.verify_mixed_list(what, rank, self.attributes[attr].value,
                                           getattr(self, group))
            if msg:
                return op_error(self, msg)
        return None


class ParallelOp(ScfOp):
    """``scf.parallel (%i...) = (lbs) to (ubs) step (steps) [init (...)] [-> types]``."""
    __slots__ = ()
    MNEMONIC = "parallel"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("lowerBound", INDEX, VARIADIC), Operand("upperBound", INDEX, VARIADIC),
                Operand("step", INDEX, VARIADIC), Operand("initVals", ANY, VARIADIC))
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("region", "sized1"),)
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("scf.reduce"))
    parse_custom = staticmethod(syntax.parse_parallel)
    print_custom = staticmethod(syntax.print_parallel)

    def verify_op(self):
        steps = self.step
        if not steps:
            return "needs at least one tuple element for lowerBound, upperBound and step"
        for s in steps:
            value = syntax.constant_int(s)
            if value is not None and value <= 0:
                return "constant step operand must be positive"
        args = _entry_args(self.regions[0])
        if len(args) != len(steps):
            return (f"expects the same number of induction variables: {len(args)} as bound "
                    f"and step values: {len(steps)}")
        if any(not is_index(a.type) for a in args):
            return "expects arguments for the induction variable to be of index type"
        term = terminator_of(self.regions[0])
        if term is None or term.name != "scf.reduce":
            return "expects body to terminate with 'scf.reduce'"
        n = len(self.results)
        if n != len(term.regions):
            return (f"expects number of results: {n} to be the same as number of reductions: "
                    f"{len(term.regions)}")
        if n != len(self.initVals):
            return (f"expects number of results: {n} to be the same as number of initial "
                    f"values: {len(self.initVals)}")
        for i in range(n):
            got, want = term.operands[i].type, self.results[i].type
            if got != want:
                from ...ir.diagnostics import Diagnostic, ERROR
                return Diagnostic(ERROR, f"'scf.reduce' op expects type of {i}-th reduction "
                                  f"operand: '{got}' to be the same as the {i}-th result type: "
                                  f"'{want}'", term.loc)
        return None


class WhileOp(ScfOp):
    """``scf.while (%a = %x, ...) : (T...) -> (R...) {before} do {after}``."""
    __slots__ = ()
    MNEMONIC = "while"
    OPERANDS = (Operand("inits", ANY, VARIADIC),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("before", "sized1"), RegionDef("after", "sized1"))
    TRAITS = (RecursiveMemoryEffects, SingleBlock())
    parse_custom = staticmethod(syntax.parse_while)
    print_custom = staticmethod(syntax.print_while)

    def verify_op(self):
        for region, which, name in ((self.regions[0], "before", "scf.condition"),
                                    (self.regions[1], "after", "scf.yield")):
            term = terminator_of(region)
            if term is None or term.name != name:
                message = f"expects the '{which}' region to terminate with '{name}'"
                if term is None:
                    return message
                return op_diag(self, message, "terminator here", term)
        return None

    def verify_regions(self):
        before, after = (_types(_entry_args(r)) for r in self.regions)
        return (check_edge(self, self, "parent", "Region #0", _types(self.operands), before)
                or _yield_edges(self, self.regions[0], [("Region #1", after),
                                                        ("parent", _types(self.results))])
                or _yield_edges(self, self.regions[1], [("Region #0", before)]))


# ---------------------------------------------------------------------------------------------
# Conditionals and regions
# ---------------------------------------------------------------------------------------------

class IfOp(ScfOp):
    """``scf.if %cond [-> (T...)] {then} [else {else}]``."""
    __slots__ = ()
    MNEMONIC = "if"
    OPERANDS = (Operand("condition", I1_TYPE),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("thenRegion", "sized1"), RegionDef("elseRegion", "maxsized1"))
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("scf.yield"))
    parse_custom = staticmethod(syntax.parse_if)
    print_custom = staticmethod(syntax.print_if)

    def verify_op(self):
        if self.results and not self.regions[1].blocks:
            return "must have an else block if defining values"
        return None

    def verify_regions(self):
        results = [("parent", _types(self.results))]
        return (_yield_edges(self, self.regions[0], results)
                or _yield_edges(self, self.regions[1], results))


class ExecuteRegionOp(ScfOp):
    """``scf.execute_region [-> types] [no_inline] {...}``: a region run once, in place."""
    __slots__ = ()
    MNEMONIC = "execute_region"
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("no_inline", "unit"),)
    REGIONS = (RegionDef("region", "any"),)
    TRAITS = (RecursiveMemoryEffects,)
    parse_custom = staticmethod(syntax.parse_execute_region)
    print_custom = staticmethod(syntax.print_execute_region)

    def verify_op(self):
        region = self.regions[0]
        if not region.blocks:
            return "region needs to have at least one block"
        if region.blocks[0].args:
            return "region cannot have any arguments"
        return None

    def verify_regions(self):
        results = _types(self.results)
        for block in self.regions[0].blocks:
            if block.ops and block.ops[-1].name == "scf.yield":
                msg = check_edge(self, block.ops[-1], "Operation scf.yield", "parent",
                                 _types(block.ops[-1].operands), results)
                if msg:
                    return msg
        return None


class IndexSwitchOp(ScfOp):
    """``scf.index_switch %arg [-> types] (case N {...})* default {...}``."""
    __slots__ = ()
    MNEMONIC = "index_switch"
    OPERANDS = (Operand("arg", INDEX),)
    RESULTS = (Result("results", ANY, VARIADIC),)
    ATTRIBUTES = (Attr("cases", "array_i64"),)
    REGIONS = (RegionDef("defaultRegion", "sized1"), RegionDef("caseRegions", "variadic"))
    TRAITS = (RecursiveMemoryEffects, SingleBlockImplicitTerminator("scf.yield"))
    parse_custom = staticmethod(syntax.parse_index_switch)
    print_custom = staticmethod(syntax.print_index_switch)

    def verify_op(self):
        for i, region in enumerate(self.regions):
            if len(region.blocks) != 1:
                name = "defaultRegion" if i == 0 else "caseRegions"
                return f"region #{i} ('{name}') failed to verify constraint: region with 1 blocks"
        cases = self.attributes["cases"].value
        if len(self.regions) - 1 != len(cases):
            return (f"has {len(self.regions) - 1} case regions but {len(cases)} case values")
        seen: set = set()
        for value in cases:
            if value in seen:
                return f"has duplicate case value: {value}"
            seen.add(value)
        names = ["default region"] + [f"case region #{i}" for i in range(len(cases))]
        for region, name in zip(self.regions, names):
            term = region.blocks[0].ops[-1] if region.blocks[0].ops else None
            if term is None or term.name != "scf.yield":
                got = term.name if term is not None else "nothing"
                return f"expected region to end with scf.yield, but got {got}"
            if len(term.operands) != len(self.results):
                return op_diag(self, f"expected each region to return {len(self.results)} "
                               f"values, but {name} returns {len(term.operands)}",
                               "see yield operation here", term)
            for i, (r, v) in enumerate(zip(self.results, term.operands)):
                if r.type != v.type:
                    return op_diag(self, f"expected result #{i} of each region to be "
                                   f"'{r.type}'", f"{name} returns '{v.type}' here", term)
        return None
