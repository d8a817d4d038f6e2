"""MLIR's native type traits as the upstream dialects use them, on types classified by
spelling (:mod:`.types`): ``SameOperandsAndResultType``, ``SameTypeOperands``,
``SameOperandsAndResultShape`` (compatible shapes: ``?`` and unranked match anything) and
arith's ``SameInputOutputTensorDims``."""

from __future__ import annotations

from ...ir.opdef import Trait
from .types import split_shaped

__all__ = ["SameOperandsAndResultType", "SameTypeOperands", "SameOperandsAndResultShape",
           "SameInputOutputTensorDims", "compatible_shapes"]


def _dims(t):
    shaped = split_shaped(t)
    return None if shaped is None else shaped[1]


def _dim_compatible(a: tuple, b: tuple) -> bool:
    if a == ("*",) or b == ("*",):
        return True
    if len(a) != len(b):
        return False
    # (a scalable vector dimension ``[4]`` matches only a scalable one)
    return all(x == y or x == "?" or y == "?" for x, y in zip(a, b))


def compatible_shapes(types) -> bool:
    """MLIR's verifyCompatibleShapes over a list of types."""
    dims = [_dims(t) for t in types]
    if all(d is None for d in dims):
        return True
    if any(d is None for d in dims):
        return False
    return all(_dim_compatible(dims[0], d) for d in dims[1:])


class _Native(Trait):
    PHASE = "trait"
    RESULTS = True
    MESSAGE = ""

    def verify(self, op):
        if not op.operands:
            return "expected 1 or more operands, but found 0"
        if self.RESULTS and not op.results:
            return "expected 1 or more results, but found 0"
        types = [v.type for v in op.operands]
        if self.RESULTS:
            types += [r.type for r in op.results]
        return None if self.holds(types) else self.MESSAGE

    def holds(self, types) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError


def _infer_same(state, with_results: bool) -> bool:
    """Give every single-value group the type of a group whose type is known."""
    spec = state.spec
    groups = [("operand", o.name) for o in spec.operands]
    if with_results:
        groups += [("result", r.name) for r in spec.results]
    known = None
    for kind, name in groups:
        types = state.known_types(name)
        if types:
            known = types[0]
            break
    if known is None:
        return False
    changed = False
    for kind, name in groups:
        if state.known_types(name) is None:
            count = len(state.operands.get(name, [])) if kind == "operand" else 1
            target = state.operand_types if kind == "operand" else state.result_types
            target[name] = [known] * count
            changed = True
    return changed


class SameOperandsAndResultType(_Native):
    MESSAGE = "requires the same type for all operands and results"

    def infer(self, state) -> bool:
        return _infer_same(state, True)

    def holds(self, types) -> bool:
        return all(t == types[0] for t in types)


class SameTypeOperands(_Native):
    MESSAGE = "requires all operands to have the same type"
    RESULTS = False

    def infer(self, state) -> bool:
        return _infer_same(state, False)

    def verify(self, op):
        types = [v.type for v in op.operands]
        return None if all(t == types[0] for t in types) else self.MESSAGE


class SameOperandsAndResultShape(_Native):
    MESSAGE = "requires the same shape for all operands and results"

    def holds(self, types) -> bool:
        return compatible_shapes(types)


class SameInputOutputTensorDims(Trait):
    """arith's PredOpTrait: the tensor operand and result (if any) have equal dimensions."""

    PHASE = "invariant"

    def verify(self, op):
        def tensor_dims(t):
            shaped = split_shaped(t)
            return shaped[1] if shaped is not None and shaped[0] == "tensor" else ()
        dims = [tensor_dims(op.operands[0].type), tensor_dims(op.results[0].type)]
        if dims[0] != dims[1]:
            return "failed to verify that input and output have the same tensor dimensions"
        return None


class PopulatesDefaults:
    """Mixin of op classes whose default-valued attributes exist on every op, however it was
    created (MLIR populates default-valued properties, so the generic form prints them)."""

    __slots__ = ()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for a in self.SPEC.attributes:
            if a.default is not None and a.name not in self.attributes:
                self.attributes[a.name] = a.default


class ChecksParsedOperandTypes:
    """Mixin of ops whose result type is computed from an operand type while parsing
    (ODS ``TypesMatchWith``): like ODS's generated parser, it rejects an operand type outside
    the operand's constraint before computing (``custom op 'arith.cmpi' 'lhs' must be
    signless-integer-like, but got 'f32'``, at the op name).  ``CHECKED_OPERANDS`` names those
    operands."""

    __slots__ = ()
    CHECKED_OPERANDS: tuple = ()

    @classmethod
    def infer_parsed_types(cls, state) -> bool:
        parser = getattr(state, "parser", None)
        spec = cls.SPEC
        for name in cls.CHECKED_OPERANDS:
            types = state.operand_types.get(name)
            constraint = spec.operands[spec.operand_index[name]].constraint
            if types and not constraint.check(types[0]):
                if parser is None:
                    # a fast path (no parser at hand): let the general parser report it
                    from ...text.registry import FAST_PATH_MISMATCH
                    if FAST_PATH_MISMATCH:
                        raise FAST_PATH_MISMATCH[0]()
                    return False
                raise parser.error(f"{parser.op_prefix()}'{name}' must be {constraint.summary}, "
                                   f"but got '{types[0]}'",
                                   state.start)
        return False
