"""``reduce`` with a *selecting* combiner over a (value, index) pair: ``ct.argmax`` /
``ct.argmin`` and the like, computed row-wise with NumPy instead of running the combiner body at
every level of the reduction tree.

cuTile's ``argmax`` emits a ``reduce`` over the values and an index ``iota`` whose body compares
the two value arguments (``cmpf`` with ordered/unordered predicates, or ``cmpi``), compares the
two index arguments (``cmpi``), combines the comparisons with ``andi`` / ``ori`` / ``xori`` and
yields ``select(c, lhs_value, rhs_value), select(c, lhs_index, rhs_index)`` under one condition
``c``.  We recognise that *structure* (:func:`selecting_body`): every comparison reads two
block arguments of the same operand, every bitwise op reads i1 results of the body, and the two
yielded values are selects between the pair's arguments under one condition.  Such a body's
choice depends only on the *relation* of the two values (``<``, ``==``, ``>``, and for floats
"first NaN", "second NaN", "both NaN"; ``-0 == +0``) and of the two indices (``<``, ``==``,
``>``).  :func:`probe` runs the body itself on one representative pair per combination of
relations (the engine's own cmpf/cmpi/select) and reads off its decision table;
:func:`classify` accepts the table only when it is "keep the larger (or smaller) value, NaN
beating (or losing to) every number, among equal values the smaller (or larger) index (or the
index ignored), and on a full tie the first (or second) argument": then the body is the max of
a total preorder, and the tree's result (adjacent pairs, lower position first) is the key-best
element at the first (or last) position among the key-best, whatever the tree's shape.
:func:`select_rows` computes exactly that element with a few NumPy passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from ..plan import element_name, storage_dtype
from ._common import is_signed

#: the value element types the fast path knows (NumPy or ml_dtypes storage with a sign bit,
#: comparisons exact after a widening to f32 for bf16)
_FLOATS = {"f16", "f32", "f64", "bf16"}
_INTS = {"i8", "i16", "i32", "i64"}
_BOOL_OPS = {"cuda_tile.andi", "cuda_tile.ori", "cuda_tile.xori"}

# relations of a pair (first, second): "<", "==", ">", and for floats "n_" (first NaN, second
# a number), "_n" (second NaN), "nn" (both NaN)
_INT_RELS = ("<", "==", ">")
_FLOAT_RELS = ("<", "==", ">", "n_", "_n", "nn")


@dataclass(frozen=True)
class SelectSpec:
    """What a selecting combiner keeps (see the module docstring)."""

    is_float: bool
    larger: bool            # the larger value wins (else the smaller)
    nan_wins: bool          # floats: NaN beats every number (else every number beats NaN)
    value_signed: bool      # ints: the value comparisons' signedness
    index_rule: str         # "min" / "max": among equal values, that index wins; "" ignored
    index_signed: bool
    tie_last: bool          # on a full tie the second argument wins (the last position)


def selecting_body(block) -> bool:
    """Whether ``block`` (a two-operand combiner region) has the structure described in the
    module docstring; only then does its decision depend on nothing but the pair relations."""
    args = list(block.args)
    if len(args) != 4:
        return False
    if element_name(args[0].type) not in _FLOATS | _INTS or \
            element_name(args[2].type) not in _INTS:
        return False
    pairs = ({args[0], args[1]}, {args[2], args[3]})
    signs = [set(), set()]
    conds = set()
    ops = list(block.ops)
    if not ops or ops[-1].name != "cuda_tile.yield":
        return False
    yielded = list(ops[-1].operands)
    if len(yielded) != 2:
        return False
    selects = {}
    for op in ops[:-1]:
        operands = list(op.operands)
        if len(op.results) != 1:
            return False
        res = op.results[0]
        if op.name in ("cuda_tile.cmpf", "cuda_tile.cmpi"):
            k = 0 if operands[0] in pairs[0] else 1 if operands[0] in pairs[1] else -1
            if k < 0 or operands[1] not in pairs[k]:
                return False
            if op.name == "cuda_tile.cmpf":
                if k != 0 or element_name(args[0].type) not in _FLOATS:
                    return False
            else:
                if element_name(operands[0].type) not in _INTS:
                    return False
                signs[k].add(is_signed(op))
            conds.add(res)
        elif op.name in _BOOL_OPS:
            if element_name(res.type) != "i1" or any(v not in conds for v in operands):
                return False
            conds.add(res)
        elif op.name == "cuda_tile.select":
            c, x, y = operands
            if c not in conds or not any({x, y} == p and x != y for p in pairs):
                return False
            selects[res] = (c, x, y)
        else:
            return False
    if len(signs[0]) > 1 or len(signs[1]) > 1 or any(v not in selects for v in yielded):
        return False
    (c0, x0, y0), (c1, x1, y1) = selects[yielded[0]], selects[yielded[1]]
    # one condition choosing the first arguments together (or the second ones together)
    return c0 == c1 and {x0, y0} == pairs[0] and {x1, y1} == pairs[1] and \
        (x0 == args[0]) == (x1 == args[2])


def _probe_values(elem: str, dt):
    """Representative (first, second) values for each value relation; a full tie's two
    values differ in their bits (-0 / +0, NaNs of either sign) where the type allows."""
    if elem in _FLOATS:
        nan = float("nan")
        pairs = {"<": (1.0, 2.0), "==": (-0.0, 0.0), ">": (2.0, 1.0), "n_": (nan, 1.0),
                 "_n": (1.0, nan), "nn": (nan, -nan)}
        rels = _FLOAT_RELS
        first = np.array([pairs[r][0] for r in rels], np.float64).astype(dt)
        second = np.array([pairs[r][1] for r in rels], np.float64).astype(dt)
        second[-1] = -first[-1]                   # a NaN of the other sign
        return rels, first, second
    pairs = {"<": (1, 2), "==": (5, 5), ">": (2, 1)}
    first = np.array([pairs[r][0] for r in _INT_RELS], dt)
    second = np.array([pairs[r][1] for r in _INT_RELS], dt)
    return _INT_RELS, first, second


def probe(combine, r, block) -> Optional[dict]:
    """Run the combiner (``combine(r, xs, ys)`` of ``core._body_combiner``) on one pair per
    (value relation, index relation) and return ``{(vrel, irel): 'a' | 'b' | 'ab'}`` ('ab':
    both arguments are the same bits), or None when some output is not one of the arguments."""
    args = list(block.args)
    velem = element_name(args[0].type)
    vdt, idt = storage_dtype(args[0].type), storage_dtype(args[2].type)
    rels, va, vb = _probe_values(velem, vdt)
    ipairs = {"<": (1, 2), "==": (3, 3), ">": (2, 1)}
    keys = [(v, i) for v in rels for i in _INT_RELS]
    xa = np.repeat(va, 3)
    xb = np.repeat(vb, 3)
    ia = np.array([ipairs[i][0] for _, i in keys], idt)
    ib = np.array([ipairs[i][1] for _, i in keys], idt)
    out = combine(r, [xa, ia], [xb, ib])
    n = len(keys)
    got_v = np.broadcast_to(np.asarray(out[0], vdt), (n,))
    got_i = np.broadcast_to(np.asarray(out[1], idt), (n,))
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[vdt.itemsize]
    gv, av, bv = (np.ascontiguousarray(x).view(u) for x in (got_v, xa, xb))
    table = {}
    for k, key in enumerate(keys):
        is_a = gv[k] == av[k] and got_i[k] == ia[k]
        is_b = gv[k] == bv[k] and got_i[k] == ib[k]
        if not (is_a or is_b):
            return None
        table[key] = "ab" if is_a and is_b else "a" if is_a else "b"
    return table


def classify(table: dict, block) -> Optional[SelectSpec]:
    """The :class:`SelectSpec` whose keep-the-best rule gives exactly ``table``, or None."""
    args = list(block.args)
    is_float = element_name(args[0].type) in _FLOATS

    def only(vrel):
        picks = {table[(vrel, i)] for i in _INT_RELS}
        return picks.pop() if len(picks) == 1 else None

    lt, gt = only("<"), only(">")
    if (lt, gt) == ("b", "a"):
        larger = True
    elif (lt, gt) == ("a", "b"):
        larger = False
    else:
        return None
    nan_wins = False
    if is_float:
        fn, sn = only("n_"), only("_n")
        if (fn, sn) == ("a", "b"):
            nan_wins = True
        elif (fn, sn) != ("b", "a"):
            return None
    ties = ("==", "nn") if is_float else ("==",)
    rules = {tuple(table[(t, i)] for i in _INT_RELS) for t in ties}
    if len(rules) != 1:
        return None
    below, same, above = rules.pop()
    if (below, above) == ("a", "b"):
        index_rule = "min"
    elif (below, above) == ("b", "a"):
        index_rule = "max"
    elif below == above and same in (below, "ab"):
        index_rule = ""
    else:
        return None
    # 'ab': the full tie's two pairs are the same bits, so which one is kept does not matter
    tie = same if same != "ab" else below if index_rule == "" else "a"
    if index_rule == "" and tie != below:
        return None
    signs = [set(), set()]
    for op in block.ops:
        if op.name == "cuda_tile.cmpi":
            signs[0 if op.operands[0] in (args[0], args[1]) else 1].add(is_signed(op))
    vsigned = signs[0].pop() if signs[0] else True
    isigned = signs[1].pop() if signs[1] else True
    return SelectSpec(is_float, larger, nan_wins, vsigned, index_rule, isigned, tie == "b")


def _unsigned(a: np.ndarray) -> np.ndarray:
    return a.view(a.dtype.str.replace("i", "u"))


def _first_true(mask: np.ndarray, last: bool) -> np.ndarray:
    """Per row, the position of the first (``last``: last) true element (rows have one)."""
    if last:
        return mask.shape[1] - 1 - np.argmax(mask[:, ::-1], axis=1)
    return np.argmax(mask, axis=1)


def _candidates(w: np.ndarray, spec: SelectSpec) -> np.ndarray:
    """Per row, the mask of the elements whose value is the best one (NaN rules included)."""
    if not spec.is_float:
        best = (np.max if spec.larger else np.min)(w, axis=1)
        return w == best[:, None]
    if spec.nan_wins:
        best = (np.maximum if spec.larger else np.minimum).reduce(w, axis=1)
        cand = w == best[:, None]
        nan_rows = np.isnan(best)
        if nan_rows.any():
            cand[nan_rows] = np.isnan(w[nan_rows])
        return cand
    best = (np.fmax if spec.larger else np.fmin).reduce(w, axis=1)
    cand = w == best[:, None]
    cand[np.isnan(best)] = True              # a row of NaNs only: every element ties
    return cand


def _increasing(idx: np.ndarray) -> bool:
    """Whether every row of ``idx`` is strictly increasing (one row when all rows alias)."""
    rows = idx[:1] if idx.strides[0] == 0 else idx
    return bool((rows[:, 1:] > rows[:, :-1]).all())


def select_rows(values: np.ndarray, index: np.ndarray, spec: SelectSpec):
    """``(values, indices)`` kept by the selecting combiner ``spec`` along axis 1 of the
    ``(rows, n)`` arrays (``n > 1``): the same bits as the reduction tree."""
    if spec.is_float:
        w = values if values.dtype.kind == "f" else values.astype(np.float32)
    else:
        w = values if spec.value_signed else _unsigned(values)
    iv = index if spec.index_signed else _unsigned(index)
    # positions tie-broken by position alone: index ignored, or strictly increasing indices
    by_position = spec.index_rule == "" or _increasing(iv)
    if by_position:
        last = spec.tie_last if spec.index_rule == "" else spec.index_rule == "max"
        arg = np.argmax if spec.larger else np.argmin
        # NumPy's argmax/argmin: the first best, NaN counting as the best (its first one)
        pos = arg(w[:, ::-1] if last else w, axis=1)
        if last:
            pos = w.shape[1] - 1 - pos
        if spec.is_float and not spec.nan_wins:
            got = np.take_along_axis(w, pos[:, None], axis=1)[:, 0]
            nan_rows = np.flatnonzero(np.isnan(got))
            if nan_rows.size:
                pos[nan_rows] = _first_true(_candidates(w[nan_rows], spec), last)
    else:
        cand = _candidates(w, spec)
        info = np.iinfo(iv.dtype)
        if spec.index_rule == "min":
            best = np.where(cand, iv, info.max).min(axis=1)
        else:
            best = np.where(cand, iv, info.min).max(axis=1)
        cand &= iv == best[:, None]
        pos = _first_true(cand, spec.tie_last)
    pos = pos[:, None]
    return (np.take_along_axis(values, pos, axis=1)[:, 0],
            np.take_along_axis(index, pos, axis=1)[:, 0])
