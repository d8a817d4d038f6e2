"""``constant-fold``: replace a pure op whose operands are all constants by the constant it
computes.  The value comes from the CPU executor itself (this module is a thin adapter over
its plan compiler, which already evaluates such ops at compile time), so an op's meaning is
defined once, bit for bit, in :mod:`tileir.execute.semantics`.

Not part of ``canonicalize``: NVIDIA's canonicalizer folds no arithmetic (its tests keep
``addi`` of two constants), so folding is a pass of its own.
"""

from __future__ import annotations

from typing import Optional

import numpy as np

from ...dialects.cuda_tile.attributes import DenseElementsAttr
from ...ir.core import Operation
from ...dialects.cuda_tile.types import PointerType, TileType
from ..greedy import PatternSet, apply_patterns_greedily
from ..manager import Pass, register_pass
from ..rewriter import Pattern, Rewriter, defining_op

__all__ = ["ConstantFold", "fold_constants", "evaluate_constant_op"]

#: results larger than this stay computed at run time (a folded constant is stored in full)
MAX_FOLDED_ELEMENTS = 4096


def _foldable(op: Operation) -> bool:
    from ...execute import semantics  # noqa: F401  (registers the lowerings)
    from ...execute.plan import FOLDABLE, SIDE_EFFECTS, VARYING_RESULTS
    if op.name not in FOLDABLE or op.name in SIDE_EFFECTS or op.name in VARYING_RESULTS:
        return False
    if op.name == "cuda_tile.constant" or not op.operands or op.regions:
        return False
    for r in op.results:
        t = r.type
        if not isinstance(t, TileType) or isinstance(t.element, PointerType) or \
                t.numel > MAX_FOLDED_ELEMENTS:
            return False
    return all(defining_op(v, "cuda_tile.constant") is not None for v in op.operands)


def evaluate_constant_op(op: Operation) -> Optional[list[np.ndarray]]:
    """The result arrays of ``op`` (pure, all operands constants) as the executor computes
    them; None when the executor does not fold it (or reports an error for these values)."""
    from ...execute.plan import Compiler, Runtime
    compiler = Compiler(op, {}, Runtime())
    try:
        for v in op.operands:
            compiler.compile_op(defining_op(v))
        if compiler.compile_op(op) is not None:
            return None  # not evaluated at compile time (e.g. it would fault)
    except Exception:  # noqa: BLE001 - an op the executor rejects is left alone
        return None
    values = [compiler.template[compiler.slot(r)] for r in op.results]
    if any(not isinstance(v, np.ndarray) for v in values):
        return None
    return [np.array(v[0]).reshape(r.type.shape) for v, r in zip(values, op.results)]


class _FoldConstantOp(Pattern):
    ROOT = "*"

    def match_and_rewrite(self, op: Operation, rewriter: Rewriter) -> bool:
        if not _foldable(op):
            return False
        arrays = evaluate_constant_op(op)
        if arrays is None:
            return False
        values = []
        for r, arr in zip(op.results, arrays):
            const = rewriter.create("cuda_tile.constant", before=op, result_type=r.type,
                                    value=DenseElementsAttr(r.type, arr))
            values.append(const.results[0])
        rewriter.replace_op(op, values)
        return True


def fold_constants(op: Operation) -> bool:
    """Fold every pure op of constants nested in ``op``; returns whether anything changed."""
    return apply_patterns_greedily(op, PatternSet().add(_FoldConstantOp()))


@register_pass
class ConstantFold(Pass):
    """Fold pure ops whose operands are constants (executor semantics)."""

    ARGUMENT = "constant-fold"
    DISPLAY = "ConstantFold"
    SUMMARY = "Fold pure operations of constants with the executor's bit-exact semantics"

    def run(self, op: Operation) -> None:
        fold_constants(op)
