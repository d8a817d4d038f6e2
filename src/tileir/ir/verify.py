"""The verifier: checks every op against its spec, traits and op-specific rules.

The order follows MLIR's ``OperationVerifier`` and ODS-generated verifiers so that the first
problem reported for an op matches cuda-tile-opt:

1. (with ``VerifyOptions.target_version``) op, attribute, operand, result and type
   since-versions, worded like cuda-tile's bytecode writer;
2. the counting traits ODS adds (regions, results, operands);
3. structural traits (``ParentOneOf``, ``Terminator``, ``SingleBlock``...);
4. the op invariants: attributes (presence, kind, value constraints), operand and result type
   constraints, region block counts, then ODS ``PredOpTrait``\\ s (``AllTypesMatch``...);
5. the remaining native traits (``SameOperandsShape``, inferred result types...);
6. the op's own ``verify_op`` hook;
7. nested blocks and ops (depth first); isolated-from-above children (entries) are verified
   after their siblings, each on its own;
8. region traits (implicit terminators, symbol tables) and the op's ``verify_regions`` hook.

Before all of these, an op's registered dialect attributes (``gpu.container_module``) are
checked, as MLIR's ``verifyOperationAttribute`` hooks run before the op's invariants.

Verification of one isolated op (an entry, a module) stops at its first error, but its
isolated children are all verified, as MLIR does when it verifies them in parallel; an op whose
isolated children failed skips its own region checks.

Check functions return None (valid), an error message (reported as ``'<op>' op <message>`` at the
op), a :class:`Diagnostic`, or a list of Diagnostics (failing if any of them is an error).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Optional

from .attributes import enum_member_since
from .diagnostics import ERROR, NOTE, WARNING, Diagnostic, DiagnosticError, SourceManager
from .core import Operation
from .opdef import OPTIONAL, SINGLE, VARIADIC, OpSpec, version_tuple
from .locations import UNKNOWN_LOC

__all__ = ["verify", "verify_op_tree", "VerifyOptions", "VerifyFailure", "current_options",
           "verify_symbol_table", "op_error", "NONFATAL", "register_type_verifier",
           "TYPE_VERSION_CHECKS", "ATTR_KINDS", "ENUM_SUMMARIES", "OP_TEXT",
           "register_attribute_verifier"]

BUILTIN_MODULE = "builtin.module"


class VerifyFailure(Exception):
    """Kept for compatibility: raised by nothing in the verifier itself."""


_VERSION_RE = re.compile(r"[0-9]+(\.[0-9]+)?")


class VerifyOptions:
    """Options: ``target_version`` (``"13.1"``...) rejects ops, attributes, operands, results and
    types newer than that version; ``hints`` is ``"silent"``, ``"warn"`` (cuda-tile-opt's
    ``-Wunsupported-hints``) or ``"error"`` (``-Wunsupported-hints -Werr-hints``) for unsupported
    optimization hints."""

    def __init__(self, target_version: Optional[str] = None, hints: str = "silent",
                 describe_op: Optional[Callable[[Operation], str]] = None) -> None:
        """``describe_op``: when given, a diagnostic an op reports about itself gets mlir-opt's
        first note, ``see current operation: <describe_op(op)>`` (the op's generic text)."""
        if hints not in ("silent", "warn", "error"):
            raise ValueError(f"hints must be 'silent', 'warn' or 'error', not {hints!r}")
        if target_version is not None and not _VERSION_RE.fullmatch(target_version):
            raise ValueError(f"invalid target version {target_version!r} (expected e.g. '13.1')")
        self.target_version = target_version
        self.target = version_tuple(target_version) if target_version else None
        self.hints = hints
        self.describe_op = describe_op


_DEFAULT_OPTIONS = VerifyOptions()

#: In a list returned by a check: report the diagnostics but do not fail the op (cuda-tile has
#: verifiers that emit an error and still succeed).
NONFATAL = object()
_CURRENT: list = [_DEFAULT_OPTIONS]


def current_options() -> VerifyOptions:
    """The options of the verification in progress (for op hooks)."""
    return _CURRENT[-1]


def op_error(op: Operation, message: str) -> Diagnostic:
    """An error at ``op`` without the ``'<op>' op`` prefix (MLIR's ``emitError``)."""
    return Diagnostic(ERROR, message, op.loc)


# ---------------------------------------------------------------------------------------------
# Per-spec verification plans
# ---------------------------------------------------------------------------------------------

class _Plan:
    """Everything the verifier needs for one op kind, computed once."""

    __slots__ = ("required", "_sizes", "ssa_regions", "terminator", "nregions",
                 "regions_dynamic", "nresults", "results_dynamic", "noperands",
                 "operands_dynamic", "count_messages", "structural", "attrs", "operand_checks", "result_checks", "region_checks",
                 "invariant", "traits", "region_traits", "verify", "verify_regions", "isolated",
                 "no_terminator", "symbol_table",
                 "fixed_operands", "fixed_results")

    def __init__(self, spec: OpSpec) -> None:
        from .opdef import OpBase
        from .traits import (HasOnlyGraphRegion, IsolatedFromAbove, SingleBlockNoTerminator,
                             SymbolTable, Terminator, TypesMatchWith, _GroupTrait)
        self.terminator = any(isinstance(t, Terminator) for t in spec.traits)
        # a "variadic" region group (ODS VariadicRegion) admits any number of regions
        self.nregions = sum(1 for r in spec.regions if r.kind != "variadic")
        self.regions_dynamic = self.nregions != len(spec.regions)
        self.nresults = sum(1 for r in spec.results if r.kind == SINGLE)
        self.results_dynamic = self.nresults != len(spec.results)
        self.noperands = sum(1 for o in spec.operands if o.kind == SINGLE)
        self.operands_dynamic = self.noperands != len(spec.operands)
        #: (regions, results, operands) counts -> the counting traits' message (or None)
        self.count_messages: dict = {}
        self.structural = [t.verify for t in spec.traits if t.PHASE == "structural"]
        self.attrs = [(a.name, a.required, *_attr_checker(a)) for a in spec.attributes]
        self.required = tuple(a.name for a in spec.attributes if a.required)
        self._sizes: dict = {}
        self.fixed_operands = not self.operands_dynamic
        self.operand_checks = [(o.constraint.check, o.summary) for o in spec.operands]
        self.fixed_results = not self.results_dynamic
        self.result_checks = [(r.constraint.check, r.summary) for r in spec.results]
        self.region_checks = [(i, rd) for i, rd in enumerate(spec.regions) if rd.kind != "any"]
        self.invariant = [t.bind(spec) if isinstance(t, (_GroupTrait, TypesMatchWith))
                          else t.verify
                          for t in spec.traits if t.PHASE == "invariant"]
        self.traits = [t.verify for t in spec.traits if t.PHASE == "trait"]
        self.region_traits = [t.verify_region for t in spec.traits if hasattr(t, "verify_region")]
        cls = spec.cls
        self.verify = cls.verify_op if cls.verify_op is not OpBase.verify_op else None
        self.verify_regions = (cls.verify_regions if cls.verify_regions is not
                               OpBase.verify_regions else None)
        self.isolated = any(isinstance(t, IsolatedFromAbove) for t in spec.traits)
        #: isolated ops with SSA-CFG regions (functions): dominance is checked after them
        self.ssa_regions = self.isolated and HasOnlyGraphRegion not in spec.traits
        self.no_terminator = any(isinstance(t, SingleBlockNoTerminator) for t in spec.traits)
        self.symbol_table = SymbolTable in spec.traits

    def sizes(self, op: Operation, spec: OpSpec) -> list:
        """Operand group sizes (they only depend on the operand count without segments)."""
        n = len(op.operands)
        got = self._sizes.get(n)
        if got is None:
            got = spec.operand_sizes(op)
            self._sizes[n] = got
        return got


def _plan(spec: OpSpec) -> _Plan:
    p = spec.__dict__.get("_vplan")
    if p is None:
        p = _Plan(spec)
        spec.__dict__["_vplan"] = p
    return p


def _count_error(noun: str, want: int, n: int, dynamic: bool, exactly_one: str,
                 show_found: bool = False) -> Optional[str]:
    """One counting trait's message for ``n`` regions/results/operands where ``want`` (or, when
    ``dynamic``, at least ``want``) are expected; None when the count is right."""
    found = f", but found {n}" if show_found else ""
    if dynamic:
        return f"expected {want} or more {noun}s{found}" if n < want else None
    if n == want:
        return None
    if want == 0:
        return f"requires zero {noun}s"
    return exactly_one if want == 1 else f"expected {want} {noun}s{found}"


def _count_message(op: Operation, plan: _Plan) -> Optional[str]:
    """ODS's region/result/operand counting traits (ZeroRegions, OneResult, NOperands...)."""
    counts = (len(op.regions), len(op.results), len(op.operands))
    known = plan.count_messages
    if counts in known:
        return known[counts]
    nregions, nresults, noperands = counts
    message = (_count_error("region", plan.nregions, nregions, plan.regions_dynamic,
                            "requires one region")
               or _count_error("result", plan.nresults, nresults, plan.results_dynamic,
                               "requires one result")
               or _count_error("operand", plan.noperands, noperands, plan.operands_dynamic,
                               "requires a single operand", show_found=True))
    if len(known) < 256:
        known[counts] = message
    return message


# ---------------------------------------------------------------------------------------------
# The verifier
# ---------------------------------------------------------------------------------------------

class _Verifier:
    def __init__(self, options: VerifyOptions) -> None:
        self.options = options
        self.diagnostics: list[Diagnostic] = []

    # -- reporting ----------------------------------------------------------------------------

    def report(self, op: Operation, result) -> bool:
        """Record what a check returned; True if it is a failure."""
        if result is None:
            return False
        if self.options.describe_op is not None:
            first = len(self.diagnostics)
            failed = self._report(op, result)
            for d in self.diagnostics[first:]:
                if d.loc is op.loc:
                    text = self.options.describe_op(op)
                    # (an op printed over several lines starts on a line of its own)
                    d.notes.insert(0, Diagnostic(NOTE, "see current operation: "
                                                 + ("\n" + text if "\n" in text else text),
                                                 op.loc))
            return failed
        return self._report(op, result)

    def _report(self, op: Operation, result) -> bool:
        if result.__class__ is str:
            self.diagnostics.append(Diagnostic(ERROR, f"'{op.name}' op {result}", op.loc))
            return True
        if isinstance(result, Diagnostic):
            self.diagnostics.append(result)
            return result.severity == ERROR
        failed = False
        nonfatal = False
        for d in result:
            if d is NONFATAL:
                nonfatal = True
                continue
            if d.__class__ is str:
                d = Diagnostic(ERROR, f"'{op.name}' op {d}", op.loc)
            self.diagnostics.append(d)
            if d.severity == ERROR:
                failed = True
        return failed and not nonfatal

    # -- driver -------------------------------------------------------------------------------

    def verify_root(self, root: Operation) -> bool:
        return self.verify_rec(root)

    def verify_rec(self, op: Operation) -> bool:
        """Verify ``op`` and its nested ops; False once an error was reported."""
        spec = op.SPEC
        plan = _plan(spec) if spec is not None else None
        for r in op.results:
            msg = _TYPE_ERRORS(r.type)
            if msg is not None:
                return not self.report(op, op_error(op, msg))
        if _ATTRIBUTE_VERIFIERS and op.attributes:
            for name, value in op.attributes.items():
                check = _ATTRIBUTE_VERIFIERS.get(name)
                if check is not None:
                    found = check(op, value)
                    if found is not None and self.report(*found):
                        return False
        if plan is not None:
            if not self.verify_entrance(op, spec, plan):
                return False
        elif op.name == BUILTIN_MODULE and self.report(op, _builtin_module_check(op)):
            return False
        isolated_children = None
        for region in op.regions:
            blocks = region.blocks
            for block in blocks:
                for a in block.args:
                    msg = _TYPE_ERRORS(a.type)
                    if msg is not None:
                        return not self.report(op, op_error(op, msg))
                ops = block.ops
                if not ops:
                    if not self._may_lack_terminator(op, len(blocks)):
                        self.diagnostics.append(Diagnostic(
                            ERROR, "empty block: expect at least a terminator", op.loc))
                        return False
                    continue
                for child in ops:
                    cspec = child.SPEC
                    if cspec is not None and child.regions and _plan(cspec).isolated:
                        if isolated_children is None:
                            isolated_children = []
                        isolated_children.append(child)
                        continue
                    if child.name == BUILTIN_MODULE:
                        if isolated_children is None:
                            isolated_children = []
                        isolated_children.append(child)
                        continue
                    if not self.verify_rec(child):
                        return False
                if not self._may_lack_terminator(op, len(blocks)):
                    last = ops[-1]
                    if not _might_be_terminator(last):
                        self.diagnostics.append(Diagnostic(
                            ERROR, "block with no terminator, has " + _op_text(last), last.loc))
                        return False
        if isolated_children:
            failed = False
            for child in isolated_children:
                if not self.verify_rec(child):
                    failed = True
            if failed:
                return False
        if plan is not None:
            if not self.verify_exit(op, plan):
                return False
            if plan.ssa_regions:
                return not self.report(op, check_dominance(op))
            return True
        if op.name == BUILTIN_MODULE:
            return not self.report(op, verify_symbol_table(op))
        return True

    @staticmethod
    def _may_lack_terminator(op: Operation, nblocks: int) -> bool:
        if nblocks != 1:
            return False
        spec = op.SPEC
        if spec is None:
            return True  # unregistered ops and builtin.module
        return _plan(spec).no_terminator

    def verify_entrance(self, op: Operation, spec: OpSpec, plan: _Plan) -> bool:
        report = self.report
        # MLIR checks the operand/result/region counts (AtLeastNOperands...) before the
        # operand segments (part of the invariants)
        msg = _count_message(op, plan)
        if msg is not None:
            return not report(op, msg)
        if spec.attr_sized_operands and report(op, _segment_check(op, spec)):
            return False
        if self.options.target is not None:
            if report(op, self.version_check(op, spec)):
                return False
        for check in plan.structural:
            r = check(op)
            if r is not None and report(op, r):
                return False
        # -- invariants ------------------------------------------------------------------------
        if plan.attrs:
            attrs = op.attributes
            for name in plan.required:
                if name not in attrs:
                    return not report(op, f"requires attribute '{name}'")
            get = attrs.get
            for name, required, checker, desc in plan.attrs:
                value = get(name)
                if value is not None and not checker(value):
                    return not report(op, f"attribute '{name}' failed to satisfy constraint: "
                                      f"{desc}")
        operands = op.operands
        if plan.fixed_operands:
            for i, ((check, summary), v) in enumerate(zip(plan.operand_checks, operands)):
                if not check(v.type):
                    return not report(op, f"operand #{i} must be {summary}, but got '{v.type}'")
        else:
            sizes = op.segments if spec.attr_sized_operands and op.segments is not None else \
                plan.sizes(op, spec)
            index = 0
            n = len(operands)
            for (check, summary), size in zip(plan.operand_checks, sizes):
                for _ in range(size):
                    if index >= n:
                        break
                    t = operands[index].type
                    if not check(t):
                        return not report(op, f"operand #{index} must be {summary}, but got "
                                          f"'{t}'")
                    index += 1
        results = op.results
        if results:
            if plan.fixed_results:
                i = 0
                for check, summary in plan.result_checks:
                    t = results[i].type
                    if not check(t):
                        return not report(op, f"result #{i} must be {summary}, but got '{t}'")
                    i += 1
            else:
                index = 0
                n = len(results)
                for (check, summary), size in zip(plan.result_checks, spec.result_sizes(op)):
                    for _ in range(size):
                        if index >= n:
                            break
                        t = results[index].type
                        if not check(t):
                            return not report(op, f"result #{index} must be {summary}, but got "
                                              f"'{t}'")
                        index += 1
        if plan.region_checks:
            regions = op.regions
            for i, rd in plan.region_checks:
                if i >= len(regions):
                    break  # an empty variadic region group
                n = len(regions[i].blocks)
                if rd.kind == "sized1" and n != 1:
                    return not report(op, f"region #{i} ('{rd.name}') failed to verify "
                                      "constraint: region with 1 blocks")
                if rd.kind == "maxsized1" and n > 1:
                    return not report(op, f"region #{i} ('{rd.name}') failed to verify "
                                      "constraint: region with at most 1 blocks")
        for check in plan.invariant:
            r = check(op)
            if r is not None and report(op, r):
                return False
        # -- native traits and the op's verifier -------------------------------------------
        for check in plan.traits:
            r = _guarded(check, op)
            if r is not None and report(op, r):
                return False
        if plan.verify is not None:
            r = _guarded(plan.verify, op)
            if r is not None and report(op, r):
                return False
        return True

    def verify_exit(self, op: Operation, plan: _Plan) -> bool:
        for check in plan.region_traits:
            r = check(op)
            if r is not None and self.report(op, r):
                return False
        if plan.verify_regions is not None:
            r = plan.verify_regions(op)
            if r is not None and self.report(op, r):
                return False
        return True

    # -- since-versions -----------------------------------------------------------------------

    def version_check(self, op: Operation, spec: OpSpec):
        target = self.options.target
        text = self.options.target_version
        if version_tuple(spec.since) > target and not spec.testing:
            return op_error(op, f"operation '{op.name}' is not available in bytecode version "
                            f"{text}")
        for value in op.attributes.values():
            since = enum_member_since(value)
            if since is not None and version_tuple(since) > target:
                return op_error(op, f"'{value.keyword}' ({type(value).__name__}) requires "
                                f"bytecode version {since}+, but targeting {text}")
        for decl in spec.attributes:
            if version_tuple(decl.since) <= target:
                continue
            value = op.attributes.get(decl.name)
            if value is None:
                continue
            if decl.default is not None:
                if value != decl.default:
                    return op_error(op, f"attribute '{decl.name}' requires bytecode version "
                                    f"{decl.since}+, but targeting {text}")
            else:
                return op_error(op, f"optional attribute '{decl.name}' is provided but "
                                f"requires bytecode version {decl.since}, targeting {text}")
        if spec.n_dynamic_operands:
            sizes = spec.operand_sizes(op)
            for group, size in zip(spec.operands, sizes):
                if size and group.kind != SINGLE and version_tuple(group.since) > target:
                    return op_error(op, f"optional operand '{group.name}' is provided but "
                                    f"requires bytecode version {group.since}, targeting {text}")
        for r in spec.results:
            if version_tuple(r.since) > target and version_tuple(spec.since) <= target:
                start, stop = spec.result_range(op, r.name)
                for res in op.results[start:stop]:
                    if res.uses:
                        return op_error(op, f"result '{r.name}' requires bytecode version "
                                        f"{r.since} but is being used and targeting {text}. "
                                        "Cannot serialize to older bytecode version when newer "
                                        "features are used.")
        types = [r.type for r in op.results]
        for region in op.regions:
            for block in region.blocks:
                types.extend(a.type for a in block.args)
        ftype = op.attributes.get("function_type")
        if ftype is not None and hasattr(ftype, "value"):
            types.append(ftype.value)
        for t in types:
            for type_version_error in TYPE_VERSION_CHECKS:
                msg = type_version_error(t, target, text)
                if msg:
                    return Diagnostic(ERROR, msg, UNKNOWN_LOC)
        return None


def check_dominance(fn: Operation) -> Optional[Diagnostic]:
    """MLIR's dominance verification of a function body: a value must be defined earlier in
    its block, in a block that dominates it (through the successors of the terminators), or
    in an enclosing block before the enclosing op.  Uses in unreachable blocks are not checked."""
    defined: set = set()
    for region in fn.regions:
        bad = _dominance_region(region, defined)
        if bad is not None:
            return bad
    return None


def _dominators(region) -> dict:
    """Block -> the set of blocks that dominate it (itself included); reachable blocks only."""
    blocks = region.blocks
    entry = blocks[0]
    succs = {id(b): [s for op in b.ops[-1:] for s in getattr(op, "successors", ())]
             for b in blocks}
    reachable, stack = {id(entry): entry}, [entry]
    while stack:
        for s in succs[id(stack.pop())]:
            if id(s) not in reachable:
                reachable[id(s)] = s
                stack.append(s)
    preds: dict = {k: [] for k in reachable}
    for k, b in reachable.items():
        for s in succs[k]:
            preds[id(s)].append(k)
    everything = set(reachable)
    dom = {k: (set([k]) if k == id(entry) else set(everything)) for k in reachable}
    changed = True
    while changed:
        changed = False
        for b in blocks:
            k = id(b)
            if k not in reachable or k == id(entry):
                continue
            new = set.intersection(*(dom[p] for p in preds[k])) | {k} if preds[k] else {k}
            if new != dom[k]:
                dom[k], changed = new, True
    return dom


def _dominance_region(region, defined: set):
    blocks = region.blocks
    if len(blocks) <= 1:
        for block in blocks:
            bad = _dominance_block(block, defined)
            if bad is not None:
                return bad
        return None
    dom = _dominators(region)
    by_id = {id(b): b for b in blocks}
    for block in blocks:
        doms = dom.get(id(block))
        if doms is None:
            continue  # unreachable: MLIR does not check dominance there
        extra = []
        for k in doms:
            if k == id(block):
                continue
            other = by_id[k]
            extra.extend(id(a) for a in other.args)
            extra.extend(id(r) for op in other.ops for r in op.results)
        extra = [k for k in extra if k not in defined]
        defined.update(extra)
        try:
            bad = _dominance_block(block, defined)
        finally:
            for k in extra:
                defined.discard(k)
        if bad is not None:
            return bad
    return None


def _dominance_block(block, defined: set):
    added = [id(a) for a in block.args]
    defined.update(added)
    add, note = defined.add, added.append
    try:
        for op in block.ops:
            for v in op.operands:
                if id(v) not in defined:
                    i = next(k for k, w in enumerate(op.operands) if id(w) not in defined)
                    return _dominance_error(op, i, op.operands[i])
            if op.regions:
                spec = op.SPEC
                if spec is None or not _plan(spec).isolated:
                    for region in op.regions:
                        bad = _dominance_region(region, defined)
                        if bad is not None:
                            return bad
            for r in op.results:
                k = id(r)
                add(k)
                note(k)
        return None
    finally:
        for k in added:
            defined.discard(k)


def _inside(op: Operation, ancestor: Operation) -> bool:
    while op is not None:
        if op is ancestor:
            return True
        op = op.parent_op
    return False


def _defining_op(value):
    owner = getattr(value, "owner", None)
    if isinstance(owner, Operation):
        return owner
    return getattr(value, "owner_op", None)


def _dominance_error(op: Operation, index: int, value) -> Diagnostic:
    # a value from outside the function: MLIR's IsolatedFromAbove region trait
    fn = op
    while fn is not None and not (fn.SPEC is not None and _plan(fn.SPEC).isolated):
        fn = fn.parent_op
    definer = _defining_op(value)
    if fn is not None and (definer is None or not _inside(definer, fn)):
        diag = Diagnostic(ERROR, f"'{op.name}' op using value defined outside the region",
                          op.loc)
        diag.attach_note("required by region isolation constraints", fn.loc)
        return diag
    diag = Diagnostic(ERROR, f"operand #{index} does not dominate this use", op.loc)
    owner = getattr(value, "owner", None)
    if isinstance(owner, Operation):
        where = " (op in the same block)" if owner.parent is op.parent else ""
        if not where:
            anc, reg = op.parent_region, owner.parent_region
            where = " (op in the same region)" if anc is reg else ""
            if not where:
                p = op.parent_op
                while p is not None and p.parent_region is not reg:
                    p = p.parent_op
                where = " (op in a parent region)" if p is not None else \
                    " (op is neither in a parent nor in a child region)"
        diag.attach_note(f"operand defined here{where}", owner.loc)
    else:
        diag.attach_note("operand defined as a block argument")
    return diag


def _TYPE_ERRORS(t) -> Optional[str]:  # rebound by register_type_verifier
    return None


#: The registered dialect type checks, ``check(type) -> message or None`` (type invariants such
#: as a tile's power-of-two shape), run on every result and block argument type.
_TYPE_VERIFIERS: list[Callable[[Any], Optional[str]]] = []


def register_type_verifier(check: Callable[[Any], Optional[str]]) -> None:
    """Add a dialect's type check (see :data:`_TYPE_VERIFIERS`)."""
    _TYPE_VERIFIERS.append(check)
    checks = tuple(_TYPE_VERIFIERS)
    if len(checks) == 1:
        globals()["_TYPE_ERRORS"] = checks[0]
        return

    def all_checks(t):
        for c in checks:
            msg = c(t)
            if msg:
                return msg
        return None
    globals()["_TYPE_ERRORS"] = all_checks


#: ``check(type, target_version_tuple, target_text) -> message or None``: a dialect's check
#: that a type exists in the targeted (bytecode) version.
TYPE_VERSION_CHECKS: list[Callable[[Any, tuple, str], Optional[str]]] = []

#: Attribute kinds a dialect adds to the :class:`~tileir.ir.opdef.Attr` kinds checked here:
#: ``kind -> (is_valid(value), ODS constraint summary)``.
ATTR_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {}

#: Enum class name -> the ODS summary in "failed to satisfy constraint: <summary>".
ENUM_SUMMARIES: dict[str, str] = {}

#: The generic-form printer for ops quoted in diagnostics (``tileir.text`` registers it).
OP_TEXT: list[Callable[[Operation], str]] = []


#: Discardable attribute name -> its dialect's check (MLIR's ``verifyOperationAttribute``).
_ATTRIBUTE_VERIFIERS: dict[str, Callable[[Operation, Any], Optional[tuple]]] = {}


def register_attribute_verifier(
        name: str, check: Callable[[Operation, Any], Optional[tuple]]) -> None:
    """Check ops carrying the dialect attribute ``name`` on entrance, before their invariants
    and nested ops (MLIR's ``Dialect::verifyOperationAttribute``).  ``check(op, value)``
    returns None when valid, else ``(blamed_op, result)`` with ``result`` as any check returns
    (a message is reported as ``'<blamed op>' op <message>``)."""
    _ATTRIBUTE_VERIFIERS[name] = check


def _builtin_module_check(op: Operation) -> Optional[str]:
    """MLIR's builtin.module: one region of at most one block without arguments, no operands or
    results, and only symbol or dialect-prefixed attributes."""
    if len(op.regions) != 1:
        return "requires one region"
    if op.results:
        return "requires zero results"
    if op.operands:
        return "requires zero operands"
    blocks = op.regions[0].blocks
    if blocks and blocks[0].args:
        return "region should have no arguments"
    if len(blocks) > 1:
        return "expects region #0 to have 0 or 1 blocks"
    if not blocks:
        return "region #0 ('bodyRegion') failed to verify constraint: region with 1 blocks"
    for name in op.attributes:
        if name not in ("sym_name", "sym_visibility") and "." not in name:
            return f"can only contain attributes with dialect-prefixed names, found: '{name}'"
    from .attributes import StringAttr
    for name in ("sym_name", "sym_visibility"):
        value = op.attributes.get(name)
        if value is not None and not isinstance(value, StringAttr):
            return f"attribute '{name}' failed to satisfy constraint: string attribute"
    return None


def _might_be_terminator(op: Operation) -> bool:
    spec = op.SPEC
    if spec is None:
        return op.name != BUILTIN_MODULE
    return _plan(spec).terminator


def _op_text(op: Operation) -> str:
    try:
        text = OP_TEXT[0](op).strip()
        return ("\n" + text) if "\n" in text else text
    except Exception:  # pragma: no cover - printing a broken op
        return f"'{op.name}'"


def _segment_check(op: Operation, spec: OpSpec) -> Optional[str]:
    n = len(op.operands)
    segs = op.segments
    if segs is not None and not all(type(x) is int for x in segs):
        return "requires attribute 'operandSegmentSizes'"
    if segs is None or len(segs) != len(spec.operands):
        got = 0 if segs is None else len(segs)
        return (f"'operandSegmentSizes' attribute for specifying operand segments must have "
                f"{len(spec.operands)} elements, but got {got}")
    if sum(segs) != n:
        return (f"operand count ({n}) does not match with the total size ({sum(segs)}) "
                "specified in attribute 'operandSegmentSizes'")
    start = 0
    for o, size in zip(spec.operands, segs):
        if (o.kind == SINGLE and size != 1) or (o.kind == OPTIONAL and size > 1) or size < 0:
            what = "1" if o.kind == SINGLE else "0 or 1"
            return (f"operand group starting at #{start} requires {what} element"
                    f"{'s' if o.kind != SINGLE else ''}, but found {size}")
        start += size
    return None


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------

_KIND_CHECKERS: dict = {}


def attribute_kind_checker(attr) -> Callable[[Any], bool]:
    """A fast predicate: whether a value is of the kind the attribute declaration ``attr``
    declares (its extra value constraints aside); computed once per declaration."""
    check = _KIND_CHECKERS.get(id(attr))
    if check is None or check[0] is not attr:
        check = _KIND_CHECKERS[id(attr)] = (attr, _attr_checker(attr, constraints=False)[0])
    return check[1]


def _attr_checker(attr, constraints: bool = True):
    """``(check(value) -> bool, constraint description)`` for an attribute declaration: a fast
    predicate for the common kinds, else the general :func:`check_attribute_kind`."""
    from .attributes import UNIT, IntegerAttr, StringAttr
    from .types import I1, I32, I64
    kind = attr.kind
    enum = attr.enum
    desc = attr.summary
    extra = attr.check
    base = None
    if enum is not None:
        base = lambda v, e=enum: v.__class__ is e  # noqa: E731
        desc = desc or ENUM_SUMMARIES.get(enum.__name__, enum.__name__)
    elif kind == "unit":
        base = lambda v: v is UNIT  # noqa: E731
        desc = desc or "unit attribute"
    elif kind in ("i64", "i32", "bool"):
        want = {"i64": I64, "i32": I32, "bool": I1}[kind]
        bits = {"i64": 64, "i32": 32, "bool": 1}[kind]
        # (an attribute built through the API may hold a value its type has not: text cannot)
        base = lambda v, w=want, b=bits: v.__class__ is IntegerAttr and v.type is w and \
            -(1 << (b - 1)) <= v.value < 1 << b  # noqa: E731
        desc = desc or {"i64": "64-bit signless integer attribute",
                        "i32": "32-bit signless integer attribute", "bool": "bool attribute"}[kind]
    elif kind in ("str", "symbol"):
        base = lambda v: v.__class__ is StringAttr  # noqa: E731
        desc = desc or "string attribute"
    elif kind == "dense":
        from .attributes import DenseElementsAttr
        base = lambda v: v.__class__ is DenseElementsAttr  # noqa: E731
        desc = desc or "dense typed elements attribute"
    elif kind in ATTR_KINDS:
        base, summary = ATTR_KINDS[kind]
        desc = desc or summary
    elif kind == "array":
        from .attributes import ArrayAttr
        base = lambda v: v.__class__ is ArrayAttr  # noqa: E731
        desc = desc or "array attribute"
    if base is None:
        def check(v, a=attr):
            return check_attribute_kind(a, v, constraints) is None
        msg = check_attribute_kind(attr, object())
        desc = msg.split("failed to satisfy constraint: ", 1)[1] if msg else desc
        return check, desc
    if extra is not None and constraints:
        return (lambda v, b=base, x=extra: b(v) and bool(x(v))), desc
    return base, desc


#: kinds whose value is stored in an ArrayAttr / IntegerAttr whatever its elements or type
_ARRAY_STORED = frozenset({"array", "dict_array", "i64_array", "i64_array_array", "bool_array"})
_INTEGER_STORED = frozenset({"i64", "i32", "i1", "index", "index.int"})
_BOOL_STORED = frozenset({"bool", "index.bool"})


def property_conversion_fails(attr, value) -> bool:
    """Whether MLIR 22 refuses ``value`` as the property ``attr`` of a generic op at parse
    time (``invalid properties ... in property conversion``): the value is not of the
    attribute class the property is stored as.  (An integer for an ``i64`` property converts
    whatever its width; the verifier reports that.)  Kinds without a known storage class are
    left to the verifier."""
    found = _STORAGE_CHECKS.get(id(attr))
    if found is None or found[0] is not attr:
        found = _STORAGE_CHECKS[id(attr)] = (attr, _storage_check(attr))
    return not found[1](value)


_STORAGE_CHECKS: dict = {}


def _storage_check(attr) -> Callable[[Any], bool]:
    """A predicate: whether a value is of the class the property ``attr`` is stored as."""
    from .attributes import (UNIT, ArrayAttr, DenseArrayAttr, IntegerAttr, StringAttr,
                             SymbolRefAttr, TypeAttr)
    from .types import I1
    kind = attr.kind
    if attr.enum is not None:
        return lambda v, e=attr.enum: v.__class__ is e
    if kind in _INTEGER_STORED:
        return lambda v: isinstance(v, IntegerAttr)
    if kind in _BOOL_STORED:
        return lambda v: isinstance(v, IntegerAttr) and v.type is I1
    if kind in ("str", "symbol"):
        return lambda v: isinstance(v, StringAttr)
    if kind == "flat_symbol":
        return lambda v: isinstance(v, SymbolRefAttr) and not v.nested
    if kind == "symbol_ref":
        return lambda v: isinstance(v, SymbolRefAttr)
    if kind in ("array_i32", "array_i64"):
        return lambda v, el=kind[-3:]: isinstance(v, DenseArrayAttr) and v.element == el
    if kind == "unit":
        return lambda v: v is UNIT
    if kind in ("type", "function_type"):
        return lambda v: isinstance(v, TypeAttr)
    if kind in _ARRAY_STORED:
        return lambda v: isinstance(v, ArrayAttr)
    if "." in kind or kind in ("affine_map", "hints", "predicate"):
        known = ATTR_KINDS.get(kind)
        if known is not None:
            return known[0]
    return lambda v: True


def inherent_attribute_error(attr, value) -> Optional[str]:
    """``attribute 'x' failed to satisfy constraint: ...`` when ``value`` does not satisfy the
    declaration ``attr`` (kind and value constraints), else None."""
    check, desc = _plan_attr_checker(attr)
    if check(value):
        return None
    return f"attribute '{attr.name}' failed to satisfy constraint: {desc}"


def _plan_attr_checker(attr):
    found = _FULL_CHECKERS.get(id(attr))
    if found is None or found[0] is not attr:
        found = _FULL_CHECKERS[id(attr)] = (attr, *_attr_checker(attr))
    return found[1], found[2]


_FULL_CHECKERS: dict = {}


def check_attribute_kind(attr, value, constraints: bool = True) -> Optional[str]:
    """Check an attribute value against its declaration; return the ODS message on mismatch
    (with ``constraints=False`` only its kind, not the declaration's extra value checks)."""
    from .attributes import (UNIT, ArrayAttr, DenseArrayAttr, DenseElementsAttr, DictionaryAttr,
                             IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr)
    from .types import I1, I32, I64, FunctionType
    kind = attr.kind
    ok = True
    desc = attr.summary
    enum = attr.enum
    if enum is not None:
        ok = isinstance(value, enum)
        desc = desc or ENUM_SUMMARIES.get(enum.__name__, enum.__name__)
    elif kind == "unit":
        ok = value is UNIT
        desc = desc or "unit attribute"
    elif kind == "i64":
        # (an attribute built through the API may hold a value no i64 has: text cannot)
        ok = isinstance(value, IntegerAttr) and value.type is I64 and \
            -(1 << 63) <= int(value.value) < 1 << 64
        desc = desc or "64-bit signless integer attribute"
    elif kind == "i32":
        ok = isinstance(value, IntegerAttr) and value.type is I32 and \
            -(1 << 31) <= int(value.value) < 1 << 32
        desc = desc or "32-bit signless integer attribute"
    elif kind == "bool":
        ok = isinstance(value, IntegerAttr) and value.type is I1
        desc = desc or "bool attribute"
    elif kind == "str":
        ok = isinstance(value, StringAttr)
        desc = desc or "string attribute"
    elif kind == "symbol":
        ok = isinstance(value, StringAttr)
        desc = desc or "string attribute"
    elif kind == "flat_symbol":
        ok = isinstance(value, SymbolRefAttr) and not value.nested
        desc = desc or "flat symbol reference attribute"
    elif kind == "dense":
        ok = isinstance(value, DenseElementsAttr)
        desc = desc or "dense typed elements attribute"
    elif kind == "function_type":
        ok = isinstance(value, TypeAttr) and isinstance(value.value, FunctionType)
        desc = desc or "type attribute of function type"
    elif kind == "type":
        ok = isinstance(value, TypeAttr)
        desc = desc or "any type attribute"
    elif isinstance(kind, str) and kind.startswith("array_i"):
        ok = isinstance(value, DenseArrayAttr) and value.element == kind[6:]
        desc = desc or f"{kind[6:]} dense array attribute"
    elif kind in ATTR_KINDS:
        is_valid, summary = ATTR_KINDS[kind]
        ok = is_valid(value)
        desc = desc or summary
    elif kind == "dict_array":
        ok = isinstance(value, ArrayAttr) and all(isinstance(v, DictionaryAttr) for v in value)
        desc = desc or "Array of dictionary attributes"
    elif kind == "array":
        ok = isinstance(value, ArrayAttr)
        desc = desc or "array attribute"
    if ok and constraints and attr.check is not None:
        ok = bool(attr.check(value))
    if ok:
        return None
    return f"attribute '{attr.name}' failed to satisfy constraint: {desc}"




# ---------------------------------------------------------------------------------------------
# Symbol tables
# ---------------------------------------------------------------------------------------------

def _guarded(check: Callable[[Operation], Optional[str]], op: Operation) -> Optional[str]:
    """Run an op's own check; one that trips over attributes of unexpected kinds (which only
    the generic form can give an op whose declaration accepts any attribute) reports them as
    malformed instead of failing."""
    try:
        return check(op)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError) as exc:
        kinds = ", ".join(f"{k} = {v.generic()}" for k, v in sorted(op.attributes.items())
                          if hasattr(v, "generic"))
        return (f"has attributes of unexpected kinds ({kinds}): "
                f"{type(exc).__name__}: {exc}")


def visibility_error(op: Operation) -> Optional[str]:
    """MLIR's SymbolOpInterface check of ``sym_visibility``: one of the three known values."""
    vis = op.attributes.get("sym_visibility")
    if vis is not None and getattr(vis, "value", None) not in ("public", "private", "nested"):
        return ("visibility expected to be one of [\"public\", \"private\", \"nested\"], "
                f"but got {vis.generic()}")
    return None


def _symbol_name(op: Operation) -> Optional[str]:
    attr = op.attributes.get("sym_name")
    return getattr(attr, "value", None) if attr is not None else None


def _is_symbol_table(op: Operation) -> bool:
    spec = op.SPEC
    if spec is None:
        return op.name == BUILTIN_MODULE
    return _plan(spec).symbol_table


def symbol_lookup(table: Operation, name: str) -> Optional[Operation]:
    """The op defining symbol ``name`` directly inside symbol table ``table``."""
    if not table.regions or not table.regions[0].blocks:
        return None
    for op in table.regions[0].blocks[0].ops:
        if _symbol_name(op) == name:
            return op
    return None


def nearest_symbol_table(op: Operation) -> Optional[Operation]:
    parent = op.parent_op
    while parent is not None and not _is_symbol_table(parent):
        parent = parent.parent_op
    return parent


def verify_symbol_table(op: Operation):
    """MLIR's SymbolTable region trait: unique symbol names, then symbol uses inside."""
    if not op.regions:
        return None
    seen: dict = {}
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                name = _symbol_name(child)
                if name is None:
                    continue
                first = seen.get(name)
                if first is not None:
                    diag = Diagnostic(ERROR, f"redefinition of symbol named '{name}'", child.loc)
                    diag.attach_note("see existing symbol definition here", first.loc)
                    return diag
                seen[name] = child
    # symbol users, not descending into nested symbol tables
    stack = [op]
    while stack:
        cur = stack.pop()
        for region in cur.regions:
            for block in region.blocks:
                for child in block.ops:
                    hook = getattr(child, "verify_symbol_uses", None)
                    if hook is not None:
                        r = hook(op)
                        if r is not None:
                            if r.__class__ is str:
                                r = Diagnostic(ERROR, f"'{child.name}' op {r}", child.loc)
                            return r
                    if child.regions and not _is_symbol_table(child):
                        stack.append(child)
    return None


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------

def verify_op_tree(op: Operation, options: Optional[VerifyOptions] = None) -> list[Diagnostic]:
    """Verify ``op`` and everything nested; return the diagnostics (empty if valid)."""
    v = _Verifier(options or _DEFAULT_OPTIONS)
    _CURRENT.append(v.options)
    try:
        v.verify_root(op)
    finally:
        _CURRENT.pop()
    return v.diagnostics


def verify(op: Operation, options: Optional[VerifyOptions] = None,
           sources: Optional[SourceManager] = None) -> None:
    """Raise :class:`DiagnosticError` if ``op`` is not valid (warnings are not errors)."""
    diags = verify_op_tree(op, options)
    if any(d.severity == ERROR for d in diags):
        raise DiagnosticError(diags, sources)
