"""Op traits: structural properties and the checks (and type inference) they imply.

A trait's ``verify(op)`` returns ``None`` when the op satisfies it, else the message of the error
to report on the op (``'<op>' op <message>``) or a :class:`~tileir.diagnostics.Diagnostic`.
``PHASE`` says when the verifier runs it, mirroring the order of MLIR's ODS-generated verifiers:

``structural``
    MLIR's ``StructuralOpTrait``\\ s (parent, terminator, single block, no region arguments), run
    before the op's invariants.
``invariant``
    ODS ``PredOpTrait``\\ s (``AllTypesMatch``...), run with the generated operand/result/attribute
    constraint checks.
``trait``
    Native traits (``SameOperandsShape``...), run after the invariants and before the op's own
    ``verify_op``.
``region``
    Checks that need the nested ops verified first (MLIR's ``verifyRegionTrait``).

Message wording follows MLIR/ODS (``failed to verify that all of {lhs, rhs, result} have same
type``) because the conformance suite checks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence

from .diagnostics import ERROR, Diagnostic
from .core import Operation
from .opdef import SINGLE, Trait
from .types import Type

if TYPE_CHECKING:  # pragma: no cover
    from .infer import TypeState as OpState

__all__ = [
    "function_attribute_arrays_error", "Pure", "Terminator", "ReturnLike", "IsolatedFromAbove", "SymbolTable", "Symbol",
    "NoRegionArguments", "SingleBlock", "SingleBlockImplicitTerminator", "ParentOneOf",
    "AllTypesMatch", "AllShapesMatch", "AllRanksMatch", "AllElementTypesMatch",
    "SameOperandsAndResultShape", "SameOperandsAndResultElementType", "SameOperandsShape",
    "TypesMatchWith", "named_types", "Marker", "FunctionLike", "AffineScope",
    "InferResultTypes", "HasOnlyGraphRegion", "NoMemoryEffect", "RecursiveMemoryEffects", "group_getter",
]


class Marker(Trait):
    """A trait that only marks a property (no check)."""

    PHASE = "none"

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


Pure = Marker("Pure")
NoMemoryEffect = Marker("NoMemoryEffect")
RecursiveMemoryEffects = Marker("RecursiveMemoryEffects")
ReturnLike = Marker("ReturnLike")
Symbol = Marker("Symbol")
#: MLIR's RegionKindInterface "graph" kind (modules): no dominance check after the op.
HasOnlyGraphRegion = Marker("HasOnlyGraphRegion")


def function_attribute_arrays_error(op) -> Optional[str]:
    """MLIR's FunctionOpInterface checks of ``arg_attrs``/``res_attrs``: one dictionary per
    argument/result, holding dialect attributes only (None when they hold)."""
    from .attributes import ArrayAttr, DictionaryAttr
    ftype = op.attributes["function_type"].value
    for what, key, n in (("argument", "arg_attrs", len(ftype.inputs)),
                         ("result", "res_attrs", len(ftype.results))):
        arr = op.attributes.get(key)
        if not isinstance(arr, ArrayAttr):
            continue
        if len(arr) != n:
            return (f"expects {what} attribute array to have the same number of elements as "
                    f"the number of function {what}s, got {len(arr)}, but expected {n}")
        for d in arr:
            if not isinstance(d, DictionaryAttr):
                return (f"expects {what} attribute dictionary to be a DictionaryAttr, but got "
                        f"`{d.generic()}`")
            if any("." not in name for name, _ in d.entries):
                return f"{what}s may only have dialect attributes"
    return None


class _FunctionLike(Trait):
    """MLIR's FunctionOpInterface verification: argument/result attribute arrays and the entry
    block's arguments agree with ``function_type``."""

    PHASE = "trait"

    def verify(self, op):
        ftype = op.attributes["function_type"].value
        error = function_attribute_arrays_error(op)
        if error is not None:
            return error
        if len(op.regions) != 1:
            return "expects one region"
        region = op.regions[0]
        if not region.blocks:
            return None
        args = region.blocks[0].args
        if len(args) != len(ftype.inputs):
            return (f"entry block must have {len(ftype.inputs)} arguments to match function "
                    "signature")
        for i, (a, t) in enumerate(zip(args, ftype.inputs)):
            if a.type != t:
                return (f"type of entry block argument #{i}('{a.type}') must match the type of "
                        f"the corresponding argument in function signature('{t}')")
        return None

    def __repr__(self) -> str:
        return "FunctionLike"


FunctionLike = _FunctionLike()
AffineScope = Marker("AutomaticAllocationScope")


# ---------------------------------------------------------------------------------------------
# Structural traits
# ---------------------------------------------------------------------------------------------

class Terminator(Trait):
    """Must be the last op of its block."""

    PHASE = "structural"

    def verify(self, op):
        block = op.parent
        if block is None or block.ops[-1] is not op:
            return "must be the last operation in the parent block"
        return None


TERMINATOR = Terminator()


class IsolatedFromAbove(Trait):
    """Regions cannot use values defined outside the op (the parser enforces it)."""

    PHASE = "none"


class NoRegionArguments(Trait):
    PHASE = "structural"

    def verify(self, op):
        for i, region in enumerate(op.regions):
            if region.blocks and region.blocks[0].args:
                if len(op.regions) > 1:
                    return f"region #{i} should have no arguments"
                return "region should have no arguments"
        return None


class SingleBlock(Trait):
    PHASE = "structural"
    #: whether blocks may be empty (MLIR's NoTerminator)
    NO_TERMINATOR = False

    def verify(self, op):
        for i, region in enumerate(op.regions):
            blocks = region.blocks
            if not blocks:
                continue
            if len(blocks) > 1:
                return f"expects region #{i} to have 0 or 1 blocks"
            if not self.NO_TERMINATOR and not blocks[0].ops:
                return "expects a non-empty block"
        return None


class SingleBlockNoTerminator(SingleBlock):
    NO_TERMINATOR = True


class SingleBlockImplicitTerminator(SingleBlock):
    """Single block whose terminator (``terminator`` op name) may be omitted in the text.

    ``also`` lists other ops accepted as terminators (cuda-tile's ``if`` also ends with
    ``break``/``continue``/``return``; ``loop`` with ``break``)."""

    def __init__(self, terminator: str, also: Sequence[str] = ()) -> None:
        self.terminator = terminator
        self.accepted = frozenset((terminator, *also))

    def verify_region(self, op):
        """The region part (MLIR's verifyRegionTrait): every block ends with an accepted op."""
        for region in op.regions:
            if not region.blocks or not region.blocks[0].ops:
                continue
            last = region.blocks[0].ops[-1]
            if last.name in self.accepted:
                continue
            diag = Diagnostic(ERROR, f"'{op.name}' op expects regions to end with "
                              f"'{self.terminator}', found '{last.name}'", op.loc)
            diag.attach_note(f"in custom textual format, the absence of terminator implies "
                             f"'{self.terminator}'")
            return diag
        return None


class ParentOneOf(Trait):
    """The op's parent must be one of the given ops (MLIR's HasParent)."""

    PHASE = "structural"

    def __init__(self, *parents: str) -> None:
        self.parents = frozenset(parents)
        self.order = parents
        if len(parents) == 1:
            self.message = f"expects parent op '{parents[0]}'"
        else:
            self.message = "expects parent op to be one of '" + ", ".join(parents) + "'"

    def verify(self, op):
        parent = op.parent_op
        if parent is None or parent.name not in self.parents:
            return self.message
        return None


# ---------------------------------------------------------------------------------------------
# Operand / result group access
# ---------------------------------------------------------------------------------------------

def named_types(op: Operation, name: str) -> list[Type]:
    """Types of the operand or result group ``name`` of ``op``."""
    spec = op.SPEC
    if name in spec.operand_index:
        start, stop = spec.operand_range(op, name)
        return [v.type for v in op.operands[start:stop]]
    start, stop = spec.result_range(op, name)
    return [r.type for r in op.results[start:stop]]


def group_getter(spec, name: str) -> Callable[[Operation], list]:
    """A fast ``op -> [types of group name]`` for ``spec`` (static index when possible)."""
    if name in spec.operand_index:
        groups = spec.operands
        idx = spec.operand_index[name]
        if all(g.kind == SINGLE for g in groups):
            return lambda op, i=idx: [op.operands[i].type] if i < len(op.operands) else []
        if all(g.kind == SINGLE for g in groups[:idx]) and groups[idx].kind == SINGLE:
            return lambda op, i=idx: [op.operands[i].type] if i < len(op.operands) else []

        def get(op, name=name):
            start, stop = spec.operand_range(op, name)
            return [v.type for v in op.operands[start:stop]]
        return get
    groups = spec.results
    idx = spec.result_index[name]
    if all(g.kind == SINGLE for g in groups[:idx + 1]):
        return lambda op, i=idx: [op.results[i].type] if i < len(op.results) else []

    def get_r(op, name=name):
        start, stop = spec.result_range(op, name)
        return [r.type for r in op.results[start:stop]]
    return get_r


# ---------------------------------------------------------------------------------------------
# ODS PredOpTraits (checked with the invariants)
# ---------------------------------------------------------------------------------------------

class _GroupTrait(Trait):
    """A predicate over several named operand/result groups (ODS PredOpTrait)."""

    PHASE = "invariant"
    WHAT = ""

    def __init__(self, *names: str, message: Optional[str] = None) -> None:
        self.names = names
        self.message = message or ("failed to verify that all of {" + ", ".join(names) + "} "
                                   + self.WHAT)
        self._getters: dict = {}

    def describe(self) -> str:
        return self.message

    def key(self, t: Type):  # pragma: no cover - overridden
        raise NotImplementedError

    def getters(self, spec):
        g = self._getters.get(spec.name)
        if g is None:
            g = [group_getter(spec, n) for n in self.names]
            self._getters[spec.name] = g
        return g

    def bind(self, spec):
        """A check for ops of ``spec`` with the group accessors resolved once."""
        getters = self.getters(spec)
        key = self.key
        message = self.message
        if len(getters) == 2:
            g0, g1 = getters

            def check2(op):
                a, b = g0(op), g1(op)
                if len(a) == 1 and len(b) == 1:
                    return None if key(a[0]) == key(b[0]) else message
                return None if [key(t) for t in a] == [key(t) for t in b] else message
            return check2

        def check_n(op):
            first = None
            for get in getters:
                types = get(op)
                k = key(types[0]) if len(types) == 1 else tuple(key(t) for t in types)
                if first is None:
                    first = (k,)
                elif first[0] != k:
                    return message
            return None
        return check_n

    def verify(self, op):
        first = None
        key = self.key
        for get in self.getters(op.SPEC):
            types = get(op)
            if len(types) != 1:
                k = tuple(key(t) for t in types)
            else:
                k = key(types[0])
            if first is None:
                first = (k,)
            elif first[0] != k:
                return self.message
        return None


class AllTypesMatch(_GroupTrait):
    WHAT = "have same type"

    def key(self, t: Type):
        return t

    def infer(self, state: "OpState") -> bool:
        """Copy a known type to the groups of this trait whose types are still unknown."""
        known = None
        for name in self.names:
            types = state.known_types(name)
            if types:
                known = types
                break
        if known is None:
            return False
        changed = False
        for name in self.names:
            if state.known_types(name) is None:
                kind = state.group_kind(name)
                if kind == "operand":
                    n = len(state.operands.get(name, [])) or len(known)
                    types = known if len(known) == n else [known[0]] * n
                    state.operand_types[name] = list(types)
                else:
                    state.result_types[name] = list(known)
                changed = True
        return changed


def _shape(t: Type):
    return getattr(t, "shape", None)


class AllShapesMatch(_GroupTrait):
    WHAT = "have same shape"

    def key(self, t: Type):
        return _shape(t)


class AllRanksMatch(_GroupTrait):
    WHAT = "have same rank"

    def key(self, t: Type):
        s = _shape(t)
        return None if s is None else len(s)


class AllElementTypesMatch(_GroupTrait):
    WHAT = "have the same element type"

    def key(self, t: Type):
        return getattr(t, "element", t)


class TypesMatchWith(Trait):
    """``to`` must equal ``transform(from)``; the transform also infers ``to`` when parsing.

    ``check(from_type, to_type) -> bool`` may replace the equality test; ``optional`` makes it
    ODS's ``OptionalTypesMatchWith`` (skipped when a group is absent)."""

    PHASE = "invariant"

    def __init__(self, summary: str, from_: str, to: str,
                 transform: Optional[Callable[[Type], Optional[Type]]] = None,
                 check: Optional[Callable[[Type, Type], bool]] = None,
                 optional: bool = False, message: Optional[str] = None) -> None:
        self.summary = summary
        self.from_ = from_
        self.to = to
        self.transform = transform
        self.check = check
        self.optional = optional
        self.message = message or f"failed to verify that {summary}"

    def verify(self, op):
        return self._holds(named_types(op, self.from_), named_types(op, self.to))

    def _holds(self, src: list, dst: list) -> Optional[str]:
        if not src or not dst:
            return None
        ok = (self.check(src[0], dst[0]) if self.check is not None
              else self.transform(src[0]) == dst[0])
        return None if ok else self.message

    def bind(self, spec):
        """:meth:`verify` for ops of ``spec`` with the group accessors resolved once."""
        get_from, get_to = group_getter(spec, self.from_), group_getter(spec, self.to)
        holds = self._holds
        return lambda op: holds(get_from(op), get_to(op))

    def infer(self, state: "OpState") -> bool:
        if self.transform is None or state.known_types(self.to) is not None:
            return False
        src = state.known_types(self.from_)
        if not src:
            return False
        if state.group_kind(self.to) == "operand" and not state.operands.get(self.to):
            return False
        out = self.transform(src[0])
        if out is None:
            return False
        if state.group_kind(self.to) == "operand":
            state.operand_types[self.to] = [out]
        else:
            state.result_types[self.to] = [out]
        return True


# ---------------------------------------------------------------------------------------------
# Native traits (checked after the invariants)
# ---------------------------------------------------------------------------------------------

class _NativeSame(Trait):
    """MLIR native traits over all operands (and results)."""

    PHASE = "trait"
    MESSAGE = ""
    RESULTS = True

    def key(self, t: Type):  # pragma: no cover - overridden
        raise NotImplementedError

    def verify(self, op):
        if not op.operands:
            return "expected 1 or more operands, but found 0"
        if self.RESULTS and not op.results:
            return "expected 1 or more results, but found 0"
        key = self.key
        k0 = key(op.operands[0].type)
        if self.RESULTS:
            for r in op.results:
                if key(r.type) != k0:
                    return self.MESSAGE
        for v in op.operands:
            if key(v.type) != k0:
                return self.MESSAGE
        return None


class SameOperandsAndResultShape(_NativeSame):
    MESSAGE = "requires the same shape for all operands and results"

    def key(self, t):
        return _shape(t)


class SameOperandsShape(_NativeSame):
    MESSAGE = "requires the same shape for all operands"
    RESULTS = False

    def key(self, t):
        return _shape(t)


class SameOperandsAndResultElementType(_NativeSame):
    MESSAGE = "requires the same element type for all operands and results"

    def key(self, t):
        return getattr(t, "element", t)


class InferResultTypes(Trait):
    """MLIR's InferTypeOpInterface verification: the declared result types must equal the
    inferred ones.  ``infer(op)`` returns the inferred types, or None when inference fails.
    The interface verifies "with regions", i.e. after the nested ops and the op's own verifier
    (the corpus relies on this order)."""

    PHASE = "region"

    def __init__(self, infer: Callable[[Operation], Optional[list]]) -> None:
        self.infer_fn = infer

    def verify_region(self, op):
        inferred = self.infer_fn(op)
        failed = Diagnostic(ERROR, f"'{op.name}' op failed to infer returned types", op.loc)
        if inferred is None:
            return failed
        actual = [r.type for r in op.results]
        if list(inferred) != actual:
            first = Diagnostic(
                ERROR, f"'{op.name}' op inferred type(s) "
                + ", ".join(f"'{t}'" for t in inferred)
                + " are incompatible with return type(s) of operation "
                + ", ".join(f"'{t}'" for t in actual), op.loc)
            return [first, failed]
        return None


class SymbolTable(Trait):
    """Symbols defined directly in the op's region are unique; symbol uses (``get_global``)
    inside it are verified (MLIR's SymbolTable::verifyRegionTrait)."""

    PHASE = "region"

    def verify_region(self, op):
        from .verify import verify_symbol_table
        return verify_symbol_table(op)

    def __repr__(self) -> str:
        return "SymbolTable"


SymbolTable = SymbolTable()
