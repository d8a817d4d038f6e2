"""llvm: the matrix intrinsics ``llvm.intr.matrix.transpose`` and ``llvm.intr.matrix.multiply``.

A matrix is a flat vector.  As LLVM's LangRef specifies, the vector holds the matrix in
column-major order (column ``j`` is elements ``j * rows`` to ``j * rows + rows - 1``); the
executor's ``matrix_layout`` option ``"row-major"`` reads and writes rows instead (what LLVM's
``-matrix-default-layout=row-major`` does, which MLIR's ``*-row.mlir`` integration tests pass to
``mlir-runner``).  ``multiply`` accumulates the products in order of the inner index, each
step a fused multiply-add for floats (as ``vector.contract``), wrapping for integers.

Shapes that do not fit the vectors, or element types that differ, make invalid LLVM IR (LLVM's
verifier rejects them; MLIR's does not look): running such an op is an error.  The
column-major load and store take an ``!llvm.ptr``, which no op tileir runs produces, so they
are not run.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ....ir.core import Operation
from ...errors import UndefinedBehaviorError
from ...numerics import floatops
from ..interp import loc_text
from ..kernel import COLUMN_MAJOR
from ..registry import lowering
from ..values import numerics_name, storage, vector_shape
from .arith import int_of
from .vector import _lane

__all__ = ["as_matrices", "flattened"]


def as_matrices(x: np.ndarray, rows: int, columns: int, layout: str) -> np.ndarray:
    """The ``rows`` x ``columns`` matrices held by the flat vectors of ``x`` (last axis)."""
    if layout == COLUMN_MAJOR:
        return np.swapaxes(x.reshape(x.shape[:-1] + (columns, rows)), -1, -2)
    return x.reshape(x.shape[:-1] + (rows, columns))


def flattened(m: np.ndarray, layout: str) -> np.ndarray:
    """The flat vectors holding the matrices of ``m`` (last two axes): the inverse of
    :func:`as_matrices`."""
    if layout == COLUMN_MAJOR:
        m = np.swapaxes(m, -1, -2)
    return np.ascontiguousarray(m).reshape(m.shape[:-2] + (-1,))


def _dim(op: Operation, name: str) -> int:
    """A shape attribute, read as LLVM reads its ``i32`` immediates (unsigned)."""
    return int(op.attributes[name].value) & 0xFFFFFFFF


def _invalid(op: Operation, message: str) -> UndefinedBehaviorError:
    return UndefinedBehaviorError(f"{message} (invalid LLVM IR: LLVM's verifier rejects it)",
                                  op=op.name, loc=loc_text(op))


def _check_shape(op: Operation, which: str, t, rows: int, columns: int) -> None:
    n = vector_shape(t)[0]
    if rows * columns != n:
        raise _invalid(op, f"the {which} ({t}) does not hold a {rows}x{columns} matrix")


def _check_elements(op: Operation) -> None:
    """LLVM requires every vector of a matrix op to have the result's element type."""
    want = op.results[0].type.element_type
    for k, v in enumerate(op.operands):
        if v.type.element_type != want:
            raise _invalid(op, f"operand #{k} ({v.type}) and the result "
                               f"({op.results[0].type}) have different element types")


@lowering("llvm.intr.matrix.transpose")
def _transpose(op: Operation, c):
    rows, columns = _dim(op, "rows"), _dim(op, "columns")
    _check_shape(op, "operand", op.operands[0].type, rows, columns)
    _check_shape(op, "result", op.results[0].type, columns, rows)
    _check_elements(op)

    def step(ex, frame, args):
        m = as_matrices(_lane(frame.space, args[0]), rows, columns, ex.matrix_layout)
        return [flattened(np.swapaxes(m, -1, -2), ex.matrix_layout)]
    return step


def _multiply_add(t) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """``acc + a * b`` in the element type of ``t``: fused for floats, wrapping for integers."""
    elem = numerics_name(t)
    dtype = storage(t)
    if np.dtype(dtype).kind == "f" or elem in ("bf16", "f16"):
        return lambda acc, a, b: np.asarray(floatops.fma(a, b, acc, elem)).astype(dtype,
                                                                                   copy=False)
    sem = int_of(t)
    return lambda acc, a, b: sem.add(acc, sem.mul(a, b))


@lowering("llvm.intr.matrix.multiply")
def _multiply(op: Operation, c):
    rows, inner, columns = (_dim(op, n) for n in ("lhs_rows", "lhs_columns", "rhs_columns"))
    _check_shape(op, "first operand", op.operands[0].type, rows, inner)
    _check_shape(op, "second operand", op.operands[1].type, inner, columns)
    _check_shape(op, "result", op.results[0].type, rows, columns)
    _check_elements(op)
    multiply_add = _multiply_add(op.results[0].type)
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        a = as_matrices(_lane(frame.space, args[0]), rows, inner, ex.matrix_layout)
        b = as_matrices(_lane(frame.space, args[1]), inner, columns, ex.matrix_layout)
        lanes = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        acc = np.zeros(lanes + (rows, columns), dtype)
        with np.errstate(all="ignore"):
            for k in range(inner):
                acc = multiply_add(acc, a[..., :, k, None], b[..., None, k, :])
        return [flattened(acc, ex.matrix_layout)]
    return step
