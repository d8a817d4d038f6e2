"""Where a NaN's bits can be observed: the values whose canonicalisation can be skipped.

The executor gives every NaN that float arithmetic produces the canonical bit pattern (see
:func:`tileir.execute.numerics.canonical_nan_bits`), as a GPU does.  That costs a pass over
each result.  The pattern matters only where something reads the bits of that NaN: a store
to memory, a ``bitcast``, ``print``, an atomic, a reduction, a function return...  An
arithmetic op that receives a NaN gives a NaN whatever its payload and sign, and
canonicalises that itself; a comparison is unordered for every NaN; ``ftoi`` turns every NaN
into the same integer.  So a result whose every use is such an op (directly or through ops
that only move bits: ``select``, ``reshape``, ``broadcast``, ``negf``, loop-carried values...)
can keep whatever NaN NumPy produced: no execution can tell the difference.

:func:`unobserved_nan_values` finds those values for one entry.  It is conservative: an op it
does not know observes its operands.  ``tests/execute/test_exec_nan_payload.py`` checks, for
every op listed as blind here, that NaN inputs of every payload and sign give the same bits.
"""

from __future__ import annotations

from typing import Iterable

from ..dialects.cuda_tile.types import TileType
from ..ir.core import Operation, Value
from .numerics import FLOAT_TYPES

__all__ = ["BLIND", "CARRIERS", "unobserved_nan_values"]

_P = "cuda_tile."

#: ops whose result bits do not depend on the payload or sign of a NaN operand (a NaN
#: operand gives the canonical NaN, an unordered comparison or a fixed integer)
BLIND = frozenset(_P + n for n in (
    "addf", "subf", "mulf", "divf", "fma", "remf", "sqrt", "rsqrt", "exp", "exp2", "log",
    "log2", "sin", "cos", "tan", "sinh", "cosh", "tanh", "pow", "fpowi", "atan2", "ceil", "floor",
    "maxf", "minf", "cmpf", "ftoi", "ftof", "mmaf"))

#: ops whose results carry an operand's bits unchanged (or with only the sign changed), so a
#: NaN in the operand is observed exactly where the result is: ``{op: operand indices}``
#: (None: every operand)
CARRIERS = {
    _P + "select": (1, 2), _P + "reshape": None, _P + "broadcast": None,
    _P + "permute": None, _P + "extract": None, _P + "cat": None, _P + "negf": None,
    _P + "absf": None, _P + "assume": (0,),
}

#: terminators whose operands flow into values of an enclosing op (see :func:`_destinations`)
_FLOWS = frozenset(_P + n for n in ("yield", "continue", "break"))


def _loop_of(op: Operation) -> Operation | None:
    """The ``for``/``loop`` that a ``continue``/``break`` in ``op`` (a terminator) leaves
    through: the innermost around it, reached through ``if`` ops only; None otherwise."""
    parent = op.parent_op
    while parent is not None and parent.name == _P + "if":
        parent = parent.parent_op
    if parent is None or parent.name not in (_P + "for", _P + "loop"):
        return None
    return parent


def _loop_args(loop: Operation) -> list[Value]:
    """The loop-carried block arguments of a ``for`` (after the induction variable) or a
    ``loop``."""
    args = list(loop.regions[0].blocks[0].args)
    return args[1:] if loop.name == _P + "for" else args


def _destinations(term: Operation, i: int) -> list[Value] | None:
    """The values the ``i``-th operand of a terminator becomes; None when unknown."""
    parent = term.parent_op
    if parent is None:
        return None
    if term.name == _P + "yield" and parent.name == _P + "if":
        return [parent.results[i]] if i < len(parent.results) else None
    if term.name == _P + "yield" and parent.name not in (_P + "for", _P + "loop"):
        return None                 # (a reduction's or another op's body)
    loop = _loop_of(term)
    if loop is None:
        return None
    if term.name == _P + "break":
        return [loop.results[i]] if i < len(loop.results) else None
    # continue (or a loop body's yield): the next iteration's argument, and for a ``for``
    # the result when it was the last iteration
    args = _loop_args(loop)
    if i >= len(args):
        return None
    dest = [args[i]]
    if loop.name == _P + "for" and i < len(loop.results):
        dest.append(loop.results[i])
    return dest


def _carried_into(op: Operation, i: int) -> list[Value] | None:
    """The values that carry the bits of operand ``i`` of ``op`` onwards ([] for a blind
    use); None when ``op`` may observe them."""
    name = op.name
    if name in BLIND:
        return []
    if name in CARRIERS:
        which = CARRIERS[name]
        return list(op.results) if which is None or i in which else []
    if name in _FLOWS:
        return _destinations(op, i)
    if name == _P + "for":           # lower bound, upper bound, step, inits...
        if i < 3:
            return []
        k = i - 3
        return [_loop_args(op)[k], op.results[k]]
    if name == _P + "loop":
        return [_loop_args(op)[i]]
    if name == _P + "if":            # (the condition is an i1)
        return []
    if name == _P + "reduce" and _combines_blindly(op):
        return []
    return None


def _combines_blindly(reduce: Operation) -> bool:
    """Whether every result element of a one-operand ``reduce`` is made by its combiner, a
    single blind op (the reduced axis has at least two elements): then the operand's NaN bits
    never reach the result."""
    if len(reduce.operands) != 1:
        return False
    shape = getattr(reduce.operands[0].type, "shape", None)
    dim = getattr(reduce.attributes.get("dim"), "value", None)
    if shape is None or dim is None or not 0 <= int(dim) < len(shape) or shape[int(dim)] < 2:
        return False
    ops = list(reduce.regions[0].blocks[0].ops)
    return len(ops) == 2 and ops[0].name in BLIND and ops[1].name == _P + "yield" and \
        list(ops[1].operands) == list(ops[0].results)


def _ops(entry: Operation) -> Iterable[Operation]:
    for region in entry.regions:
        for block in region.blocks:
            for op in block.ops:
                yield from op.walk()


def _holds_floats(v: Value) -> bool:
    """Whether ``v`` is a tile of floats (the values that can hold a NaN)."""
    return isinstance(v.type, TileType) and getattr(v.type.element, "name", None) in FLOAT_TYPES


def unobserved_nan_values(entry: Operation) -> frozenset[Value]:
    """The float-tile values defined in ``entry`` whose NaN bits nothing observes (see the
    module docstring): a producer of one of these may leave a NaN result as NumPy computed
    it."""
    carriers: dict[Value, list[Value]] = {}     # value -> values carrying its bits onwards
    observed: set[Value] = set()
    values: list[Value] = []
    for op in _ops(entry):
        values.extend(op.results)
        for region in op.regions:
            for block in region.blocks:
                values.extend(block.args)
        for i, v in enumerate(op.operands):
            dest = _carried_into(op, i)
            if dest is None:
                observed.add(v)
            elif dest:
                carriers.setdefault(v, []).extend(dest)
    # a value is observed when a value carrying its bits is: propagate backwards
    feeds: dict[Value, list[Value]] = {}
    for v, dests in carriers.items():
        for d in dests:
            feeds.setdefault(d, []).append(v)
    work = list(observed)
    while work:
        d = work.pop()
        for v in feeds.get(d, ()):
            if v not in observed:
                observed.add(v)
                work.append(v)
    return frozenset(v for v in values if v not in observed and _holds_floats(v))
