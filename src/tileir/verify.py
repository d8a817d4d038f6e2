"""The verifier: checks every op against its spec, traits and op-specific rules.

Order follows MLIR so that the first reported problem matches cuda-tile-opt:

1. ODS invariants: attribute presence and kinds, operand and result type constraints, region
   constraints, then the "invariant" traits (AllTypesMatch, TypesMatchWith, ...).
2. The remaining traits in declaration order (ParentOneOf, Terminator, SameOperands...).
3. The op's own ``verify_op`` hook.
4. Nested regions (blocks must end in a terminator where the op requires one).
5. The op's ``verify_regions`` hook, after its nested ops verified.

Verification of one isolated-from-above op (an entry, a module) stops at its first error, but
sibling entries are all verified, as MLIR does when it verifies them in parallel.
"""

from __future__ import annotations

from typing import Callable, Optional

from .attrs import Attribute, TileEnum
from .diagnostics import ERROR, Diagnostic, DiagnosticError, SourceManager
from .ir.core import Operation
from .ir.opdef import OPTIONAL, SINGLE, VARIADIC, OpSpec, version_tuple

__all__ = ["verify", "verify_op_tree", "VerifyOptions", "VerifyFailure"]


class VerifyFailure(Exception):
    """Internal: stops verification of the current isolated region."""


class VerifyOptions:
    """Options: ``target_version`` gates ops/attributes/types by since-version;
    ``hints`` is ``"silent"``, ``"warn"`` or ``"error"`` for unsupported optimization hints."""

    def __init__(self, target_version: Optional[str] = None, hints: str = "silent") -> None:
        self.target_version = target_version
        self.hints = hints


class _Verifier:
    def __init__(self, options: VerifyOptions) -> None:
        self.options = options
        self.diagnostics: list[Diagnostic] = []

    # -- reporting ----------------------------------------------------------------------------

    def emitter(self, op: Operation) -> Callable[..., Diagnostic]:
        """``emit(message, notes=[(msg, loc)])`` reports ``'<op name>' op <message>``."""
        def emit(message: str, *, prefix: bool = True, severity: str = ERROR,
                 loc=None) -> Diagnostic:
            text = f"'{op.name}' op {message}" if prefix else message
            diag = Diagnostic(severity, text, loc if loc is not None else op.loc)
            self.diagnostics.append(diag)
            return diag
        return emit

    # -- driver -------------------------------------------------------------------------------

    def verify_isolated(self, root: Operation) -> None:
        """Verify ``root`` and everything inside, except nested isolated ops, which are
        verified separately (each stops at its own first error)."""
        nested: list[Operation] = []
        try:
            self.verify_tree(root, nested, is_root=True)
        except VerifyFailure:
            pass
        for op in nested:
            self.verify_isolated(op)

    def verify_tree(self, op: Operation, nested: list, is_root: bool = False) -> None:
        from .ops.traits import IsolatedFromAbove
        spec = op.SPEC
        if not is_root and spec is not None and spec.has_trait(IsolatedFromAbove):
            nested.append(op)
            return
        self.verify_single(op)
        for region in op.regions:
            for block in region.blocks:
                self.verify_block_structure(op, block)
                for child in block.ops:
                    self.verify_tree(child, nested)
        if spec is not None:
            emit = self.emitter(op)
            if not op.verify_regions(emit):
                raise VerifyFailure()

    def verify_block_structure(self, op: Operation, block) -> None:
        spec = op.SPEC
        if spec is None or not _needs_terminator(spec):
            return
        from .ops.traits import Terminator
        last = block.ops[-1] if block.ops else None
        if last is None or last.SPEC is None or not last.SPEC.has_trait(Terminator):
            if last is not None and last.SPEC is None:
                return  # unregistered ops may be terminators
            loc = last.loc if last is not None else op.loc
            self.diagnostics.append(Diagnostic(
                ERROR, "block with no terminator, has " + (f"'{last.name}'" if last else
                                                           "no operations"), loc))
            raise VerifyFailure()

    def verify_single(self, op: Operation) -> None:
        spec = op.SPEC
        if spec is None:
            return
        emit = self.emitter(op)
        if not self.check_invariants(op, spec, emit):
            raise VerifyFailure()
        for trait in spec.traits:
            if getattr(trait, "PHASE", "trait") != "invariant":
                if not trait.verify(op, emit):
                    raise VerifyFailure()
        if not op.verify_op(emit):
            raise VerifyFailure()

    # -- ODS invariants -----------------------------------------------------------------------

    def check_invariants(self, op: Operation, spec: OpSpec, emit) -> bool:
        if not self.check_operand_counts(op, spec, emit):
            return False
        for attr in spec.attributes:
            value = op.attributes.get(attr.name)
            if value is None:
                if attr.required:
                    emit(f"requires attribute '{attr.name}'")
                    return False
                continue
            problem = check_attribute_kind(attr, value)
            if problem:
                emit(problem)
                return False
        sizes = spec.operand_sizes(op)
        index = 0
        for group, size in zip(spec.operands, sizes):
            for _ in range(size):
                v = op.operands[index]
                if not group.constraint.check(v.type):
                    emit(f"operand #{index} must be {group.summary}, but got '{v.type}'")
                    return False
                index += 1
        rsizes = spec.result_sizes(op)
        index = 0
        for group, size in zip(spec.results, rsizes):
            for _ in range(size):
                r = op.results[index]
                if not group.constraint.check(r.type):
                    emit(f"result #{index} must be {group.summary}, but got '{r.type}'")
                    return False
                index += 1
        if len(op.regions) != len(spec.regions):
            emit(f"requires {len(spec.regions)} regions" if spec.regions else
                 "requires zero regions")
            return False
        for i, (rd, region) in enumerate(zip(spec.regions, op.regions)):
            n = len(region.blocks)
            if (rd.kind == "sized1" and n != 1) or (rd.kind == "maxsized1" and n > 1):
                what = "region with 1 blocks" if rd.kind == "sized1" else "region with at most 1 blocks"
                emit(f"region #{i} ('{rd.name}') failed to verify constraint: {what}")
                return False
        for trait in spec.traits:
            if getattr(trait, "PHASE", "trait") == "invariant":
                if not trait.verify(op, emit):
                    return False
        return True

    def check_operand_counts(self, op: Operation, spec: OpSpec, emit) -> bool:
        fixed = sum(1 for o in spec.operands if o.kind == SINGLE)
        dynamic = len(spec.operands) - fixed
        n = len(op.operands)
        if spec.attr_sized_operands:
            if op.segments is None or len(op.segments) != len(spec.operands):
                emit("operand count (%d) does not match with the total size (%d) specified in "
                     "attribute 'operandSegmentSizes'" % (n, sum(op.segments or ())))
                return False
            if sum(op.segments) != n:
                emit(f"operand count ({n}) does not match with the total size "
                     f"({sum(op.segments)}) specified in attribute 'operandSegmentSizes'")
                return False
            for o, size in zip(spec.operands, op.segments):
                if (o.kind == SINGLE and size != 1) or (o.kind == OPTIONAL and size > 1):
                    emit(f"operand group starting at #0 requires {'1' if o.kind == SINGLE else '0 or 1'}"
                         f" element{'s' if o.kind != SINGLE else ''}, but found {size}")
                    return False
            return True
        if dynamic == 0 and n != fixed:
            emit(f"expected {fixed} operands, but found {n}")
            return False
        if dynamic and n < fixed:
            emit(f"expected {fixed} or more operands, but found {n}")
            return False
        rfixed = sum(1 for r in spec.results if r.kind == SINGLE)
        rdyn = len(spec.results) - rfixed
        nr = len(op.results)
        if rdyn == 0 and nr != rfixed:
            emit(f"requires {rfixed} result{'s' if rfixed != 1 else ''}" if rfixed != 1 else
                 "requires one result")
            return False
        return True


def _needs_terminator(spec: OpSpec) -> bool:
    from .ops.traits import SingleBlockImplicitTerminator
    return spec.has_trait(SingleBlockImplicitTerminator)


def check_attribute_kind(attr, value: Attribute) -> Optional[str]:
    """Check an attribute value against its declaration; return the ODS message on mismatch."""
    from .attrs import (ArrayAttr, AssumePredicate, DenseArrayAttr, DenseElementsAttr,
                        IntegerAttr, OptimizationHintsAttr, StringAttr, SymbolRefAttr, TypeAttr,
                        UNIT)
    from .types import FunctionType, I1, I32, I64
    kind = attr.kind
    ok = True
    desc = attr.summary
    enum = attr.enum
    if enum is not None:
        ok = isinstance(value, enum)
        desc = desc or f"{enum.__name__}"
    elif kind == "unit":
        ok = value is UNIT
        desc = desc or "unit attribute"
    elif kind == "i64":
        ok = isinstance(value, IntegerAttr) and value.type is I64
        desc = desc or "64-bit signless integer attribute"
    elif kind == "i32":
        ok = isinstance(value, IntegerAttr) and value.type is I32
        desc = desc or "32-bit signless integer attribute"
    elif kind == "bool":
        ok = isinstance(value, IntegerAttr) and value.type is I1
        desc = desc or "bool attribute"
    elif kind == "str" or kind == "symbol":
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
    elif kind in ("array_i32", "array_i64"):
        ok = isinstance(value, DenseArrayAttr) and value.element == kind[-3:]
        desc = desc or f"i{kind[-2:]} dense array attribute"
    elif kind == "hints":
        ok = isinstance(value, OptimizationHintsAttr)
    elif kind == "predicate":
        ok = isinstance(value, AssumePredicate)
    elif kind == "dict_array":
        ok = isinstance(value, ArrayAttr)
        desc = desc or "Array of dictionary attributes"
    if ok:
        return None
    return f"attribute '{attr.name}' failed to satisfy constraint: {desc}"


def verify_op_tree(op: Operation, options: Optional[VerifyOptions] = None) -> list[Diagnostic]:
    """Verify ``op`` and everything nested; return the diagnostics (empty if valid)."""
    v = _Verifier(options or VerifyOptions())
    v.verify_isolated(op)
    return v.diagnostics


def verify(op: Operation, options: Optional[VerifyOptions] = None,
           sources: Optional[SourceManager] = None) -> None:
    """Raise :class:`DiagnosticError` if ``op`` is not valid (warnings are not errors)."""
    diags = verify_op_tree(op, options)
    if any(d.severity == ERROR for d in diags):
        raise DiagnosticError(diags, sources)
