"""Batched loops: a uniform ``scf.for`` run with its iterations as an extra array axis.

The general path runs a loop body once per iteration, every op over all lanes.  A body that
only *reads* memory (no stores, barriers, atomics, calls or nested regions) splits into

* the ops that depend on the induction variable but not on the loop-carried values (the
  ``iter_args``): address arithmetic, loads, products -- computed for all iterations at once,
  as arrays with a leading iteration axis (a load whose address is affine in the induction
  variable and the ids is a strided view of the buffer with one more axis);
* the ops that depend on neither (loop invariants): computed once;
* the ops that depend on the carried values (the accumulation ``acc = acc + a * b``): run
  iteration by iteration, in order, by their ordinary steps, on the iteration's slice of the
  batched values.

Every op still computes exactly what it computes on the general path, with the same
roundings (float ops are elementwise IEEE ops on the same operands; nothing is reassociated
or contracted), and since the body writes no memory, reading all iterations' operands first
sees the same memory.  Whenever a precondition fails -- at compile time (an op outside the
small set handled here) or at run time (a lane space that is not a box, ``racecheck``, an
address that is not affine, a bounds check or any other fault in any iteration) -- the loop
runs on the general path from its start instead (nothing has been written, so this is exact;
the general path then reports a fault with the op, iteration and thread it names).

:data:`ENABLED` switches the transformation off (tests compare both paths bit for bit);
:data:`STATS` counts batched runs and fallbacks.
"""

from __future__ import annotations

import weakref
from typing import Any, Optional, Sequence

import numpy as np

from ...ir.core import Block, Operation, Value
from .interp import Frame
from .lanes import Aff, BoxSpace, ROOT_NDIM
from .layout import physical
from .memory import MemRef, element_address

__all__ = ["ENABLED", "STATS", "LoopBatch", "analyze", "IvAff"]

#: batch eligible loops (False: every loop takes the general path)
ENABLED = True
#: ``{"batched": loops run batched, "fallback": eligible loops that took the general path,
#: "permuted": ufunc plans run in the operands' memory order (:func:`_run_plan` with a permutation)}``
STATS = {"batched": 0, "fallback": 0, "permuted": 0}
#: most elements one batched array may hold (iterations x lanes); longer loops run in chunks
MAX_BATCH_ELEMENTS = 1 << 21

#: lanes from which the induction-dependent float ops run iteration by iteration (into reused
#: arrays, which stay in cache) rather than batched (fewer, longer NumPy calls)
STEP_LANES = 1 << 14
#: elementwise float ops: run batched (leading iteration axis) or per iteration by their step
FLOAT_OPS = frozenset({"arith.addf", "arith.subf", "arith.mulf", "arith.divf",
                       "arith.maximumf", "arith.minimumf", "arith.maxnumf", "arith.minnumf"})
#: integer ops kept affine in the induction variable
INT_OPS = frozenset({"arith.addi", "arith.subi", "arith.muli"})
#: storage of the integer values handled (index, i64, i32)
_INT_DTYPES = (np.dtype(np.int64), np.dtype(np.int32))
_ZERO = (0,) * ROOT_NDIM

INVARIANT, BATCHED, CARRIED = "invariant", "batched", "carried"


class IvAff:
    """An integer affine in the induction variable and the lane coordinates: its value in
    iteration ``j`` (counted from the chunk's first) is ``base + j * per``."""

    __slots__ = ("base", "per")

    def __init__(self, base: Aff, per: int) -> None:
        self.base = base
        self.per = int(per)

    def at(self, j: int) -> Aff:
        """The value in iteration ``j``."""
        return self.base.plus(j * self.per) if self.per else self.base


def _is_invariant_op(op: Operation) -> bool:
    """Ops computed once when they depend on neither the induction variable nor the carried
    values: pure arithmetic and loads (the body writes no memory)."""
    return (op.name.startswith(("arith.", "math.")) or op.name == "memref.load") \
        and not op.regions


def _scalar_int(v: Value) -> bool:
    t = v.type
    name = str(t)
    return name == "index" or name in ("i32", "i64")


class LoopBatch:
    """The batched form of one ``scf.for`` body (see the module docstring).  ``ok`` is False
    when the body does not qualify; :meth:`run` returns the loop's results, or None where the
    general path must run the loop."""

    def __init__(self, body: Block, plan: Any) -> None:
        self.body = body
        self.ok = False
        #: ``(kind, step, operands, results, op)`` of the invariant and batched ops, in order
        self.pre: list[tuple] = []
        #: ``(step, operands, results, op)`` of the carried ops, in order
        self.carried: list[tuple] = []
        self.yields: list[Value] = list(plan.term_operands) if plan.term is not None else []
        if plan.term is None or plan.term.name != "scf.yield":
            return
        iv, iter_args = body.args[0], list(body.args[1:])
        dep_iv: set = {iv}
        dep_c: set = set(iter_args)
        loads = 0
        for step, operands, results, op in plan.steps:
            if op.regions:
                return
            if any(v in dep_c for v in operands):
                if op.name not in FLOAT_OPS:
                    return
                self.carried.append((step, operands, results, op))
                dep_c.update(results)
            elif any(v in dep_iv for v in operands):
                if op.name == "memref.load":
                    if operands[0] in dep_iv or op.results[0].type.__class__.__name__ == \
                            "VectorType":
                        return
                    loads += 1
                elif op.name in INT_OPS:
                    if not _scalar_int(op.results[0]):
                        return
                elif op.name not in FLOAT_OPS:
                    return
                self.pre.append((BATCHED, step, operands, results, op))
                dep_iv.update(results)
            elif _is_invariant_op(op):
                self.pre.append((INVARIANT, step, operands, results, op))
            else:
                return
        for v in self.yields:
            if v in dep_iv and v not in dep_c and _scalar_int(v):
                return          # an induction-derived integer yielded: not handled
        self.dep_iv = dep_iv
        self.ok = loads > 0 and bool(self.carried)
        if not self.ok:
            return
        #: the carried ops as a ufunc plan (None: some op is not a plain ufunc)
        self.fast = _ufunc_plan(self.carried, iter_args)
        #: the induction-dependent float ops and the carried ops, in program order, as a
        #: ufunc plan run iteration by iteration (see :data:`STEP_LANES`), or None
        order = {id(op): k for k, (_, _, _, op) in enumerate(plan.steps)}
        stepped = [(step, operands, results, op) for kind, step, operands, results, op
                   in self.pre if kind == BATCHED and op.name in FLOAT_OPS] + self.carried
        stepped.sort(key=lambda e: order[id(e[3])])
        self.stepped = _ufunc_plan(stepped, iter_args)
        self.stepped_ops = {id(e[3]) for e in stepped}

    # -- running ---------------------------------------------------------------------------

    def run(self, ex: Any, frame: Frame, lb: int, st: int, count: int, dtype: np.dtype,
            values: list) -> Optional[list]:
        """The loop's results after ``count`` iterations from ``lb`` by ``st`` (induction
        variable storage ``dtype``), or None: the general path must run it."""
        space = frame.space
        if type(space) is not BoxSpace or getattr(ex, "racelog", None) is not None:
            return None
        try:
            out = self._run(ex, frame, space, lb, st, count, dtype, values)
        except (KeyboardInterrupt, MemoryError):
            raise
        except Exception:       # any fault: the general path reproduces (and reports) it
            out = None
        STATS["fallback" if out is None else "batched"] += 1
        return out

    def _run(self, ex, frame, space: BoxSpace, lb, st, count, dtype, values) -> Optional[list]:
        child = Frame(space, frame)
        invariant: dict = {}
        per_chunk = max(1, MAX_BATCH_ELEMENTS // max(1, space.size))
        iv = self.body.args[0]
        stepped = self.stepped is not None and space.size >= STEP_LANES
        for j0 in range(0, count, per_chunk):
            n = min(per_chunk, count - j0)
            env: dict = {iv: IvAff(Aff(lb + j0 * st, _ZERO, dtype), st)}
            for kind, step, operands, results, op in self.pre:
                if stepped and id(op) in self.stepped_ops:
                    continue
                if kind == INVARIANT:
                    if j0:
                        continue
                    out = step(ex, child, [_get(invariant, child, v) for v in operands])
                    invariant.update(zip(results, out))
                    continue
                args = [env[v] if v in env else _get(invariant, child, v) for v in operands]
                res = self._batched(ex, child, space, op, step, args, n)
                if res is None:
                    return None
                env[results[0]] = res
            values = self._carry(ex, child, env, invariant, n, values, stepped)
        return [np.array(v) if isinstance(v, np.ndarray) and not v.flags.writeable else v
                for v in values]

    def _batched(self, ex, frame, space, op, step, args, n) -> Any:
        """One induction-dependent op over ``n`` iterations (None: not batchable)."""
        name = op.name
        if name == "memref.load":
            return batched_load(ex, space, op, args[0], args[1:], n)
        if name in INT_OPS:
            return _int_op(space, name, args, np.dtype(_storage(op.results[0])), n)
        return step(ex, frame, args)[0]

    def _carry(self, ex, frame, env: dict, invariant: dict, n: int, values: list,
               stepped: bool) -> list:
        """Run the carried ops (``stepped``: and the induction-dependent float ops) iteration
        by iteration over the chunk's ``n`` iterations."""
        iter_args = self.body.args[1:]
        batched = {v: x for v, x in env.items() if isinstance(x, np.ndarray)}

        def fixed(v: Value) -> Any:
            return _get(invariant, frame, v)
        fast = self.stepped if stepped else self.fast
        if fast is not None:
            return _run_ufuncs(fast, iter_args, self.yields, batched, fixed, n, values)
        for j in range(n):
            vals = dict(zip(iter_args, values))
            for step, operands, results, op in self.carried:
                args = [vals[v] if v in vals else batched[v][j] if v in batched
                        else fixed(v) for v in operands]
                vals.update(zip(results, step(ex, frame, args)))
            values = [vals[v] if v in vals else batched[v][j] if v in batched else fixed(v)
                      for v in self.yields]
        return values


def _elementwise(step: Any) -> Optional[tuple]:
    """``(ufunc, dtype)`` of a float op's step (see :func:`.ops.arith._float_binary`)."""
    return getattr(getattr(step, "inner", step), "elementwise", None)


def _ufunc_plan(entries: list, iter_args: Sequence[Value]) -> Optional[list]:
    """``entries`` (``(step, operands, results, op)``) as ``(ufunc, dtype, operands, result,
    reusable)`` when every step is a plain NumPy ufunc (else None); ``reusable`` is the
    position of an operand computed in the iteration (or carried into it) whose only use is
    this op, so that the result may overwrite its array, or -1."""
    inside = set(iter_args)
    for _, _, results, _ in entries:
        inside.update(results)
    plan = []
    for step, operands, results, op in entries:
        ew = _elementwise(step)
        if ew is None or len(operands) != 2:
            return None
        reuse = next((k for k, v in enumerate(operands)
                      if v in inside and len(v.uses) == 1 and operands.count(v) == 1), -1)
        plan.append((ew[0], ew[1], operands, results[0], reuse))
    return plan


def _run_ufuncs(plan: list, iter_args, yields, batched: dict, fixed, n: int,
                values: list) -> list:
    """Run a ufunc plan (:func:`_ufunc_plan`) for ``n`` iterations: the same ufunc calls the
    ops' steps make, without their per-call overhead (:func:`_run_plan`).  Where the batched
    operands' memory order differs from the lane order, the ufuncs run on axis-permuted views
    of everything (:func:`_memory_order`)."""
    if PERMUTE:
        perm = _memory_order(plan, batched, values, yields)
        if perm is not None:
            try:
                out = _run_plan(plan, iter_args, yields, batched, fixed, n, values, perm)
            except _NotPermutable:      # (nothing was written: run it in the lane order)
                pass
            else:
                STATS["permuted"] += 1
                return out
    return _run_plan(plan, iter_args, yields, batched, fixed, n, values, None)


#: run ufunc plans on operands permuted into their memory order (False: lane order)
PERMUTE = True
#: ufuncs whose results do not depend on the order NumPy visits the elements in (correctly
#: rounded IEEE operations, elementwise): the plans :func:`_run_plan` runs permuted
_ORDER_FREE = frozenset({np.add, np.subtract, np.multiply, np.divide})


def _memory_order(plan: list, batched: dict, values: list, yields) -> Optional[tuple]:
    """The order of the lane axes (outermost first) in which the batched operands of
    ``plan`` lie in memory, when it is not the lane order and every operand is a plain lane
    array (no vector axes) of an order-free ufunc; else None.  Axes are ranked by the sum
    of their byte strides over the batched operands (axes of extent 1 first, as they are);
    e.g. the tiles of workgroup memory stored interleaved (:mod:`.layout`) vary fastest
    along the block axes, which the lane order puts outermost."""
    weight = [0] * ROOT_NDIM
    ops = set()
    made = set()
    dtype = plan[0][1]
    if dtype.kind != "f" or dtype.itemsize < 4:
        return None
    for ufunc, dt, operands, result, _ in plan:
        if ufunc not in _ORDER_FREE or dt != dtype:
            return None
        ops.update(operands)
        made.add(result)
    for v in yields:
        x = batched.get(v)
        if v not in made and (type(x) is not np.ndarray or x.ndim != ROOT_NDIM + 1):
            return None
    seen = False
    for v in ops:
        x = batched.get(v)
        if x is None:
            continue
        if type(x) is not np.ndarray or x.ndim != ROOT_NDIM + 1 or x.dtype != dtype:
            return None
        seen = True
        for d in range(ROOT_NDIM):
            if x.shape[d + 1] > 1:
                weight[d] += abs(x.strides[d + 1])
    if not seen:
        return None
    for x in values:
        if type(x) is not np.ndarray or x.ndim != ROOT_NDIM or x.dtype != dtype:
            return None
    units = [d for d in range(ROOT_NDIM) if weight[d] == 0]
    rest = sorted((d for d in range(ROOT_NDIM) if weight[d]), key=lambda d: -weight[d])
    perm = tuple(units + rest)
    if perm == tuple(range(ROOT_NDIM)) or tuple(rest) == tuple(sorted(rest)):
        return None
    return perm


def _run_plan(plan: list, iter_args, yields, batched: dict, fixed, n: int, values: list,
              perm: Optional[tuple]) -> list:
    """Run a ufunc plan for ``n`` iterations, in the lane order (``perm`` None) or on views of
    every operand with the lane axes in the order ``perm``: the results are then
    C-contiguous in that order (NumPy's loops run along the operands' densest axis) and the
    yielded values are transposed back into the lane order.  Permuted plans hold only
    elementwise, order-free ufuncs (:data:`_ORDER_FREE`): every element is the same
    operation on the same operands, so the bits are those of the lane order.

    The values live in numbered slots (the carried values, then the ops' results) and every
    operand's source is resolved once, before the loop.  A result goes into an array this
    loop made that nothing reads any more -- an operand used only by the op, or what the op
    made in the previous iteration, now dead -- instead of a new one."""
    if n <= 0:
        return values
    slot = {v: i for i, v in enumerate(iter_args)}
    for _, _, _, result, _ in plan:
        slot.setdefault(result, len(slot))
    n_carried = len(iter_args)
    if perm is not None:
        dtype = plan[0][1]
        axes7 = (0,) + tuple(d + 1 for d in perm)

    def source(v: Value) -> tuple:
        """``(0, slot)``, ``(1, batched array)`` (indexed by the iteration) or ``(2, array)``"""
        if v in slot:
            return 0, slot[v]
        x = batched.get(v)
        if x is not None:
            if perm is None:
                return 1, x
            if type(x) is not np.ndarray or x.ndim != ROOT_NDIM + 1:
                raise _NotPermutable
            return 1, x.transpose(axes7)
        x = fixed(v)
        if perm is None:
            return 2, x
        if type(x) is not np.ndarray or x.ndim != ROOT_NDIM or x.dtype != dtype:
            raise _NotPermutable
        return 2, x.transpose(perm)
    ops = []
    for ufunc, dt, operands, result, reuse in plan:
        (ka, pa), (kb, pb) = source(operands[0]), source(operands[1])
        ops.append((ufunc, dt, ka, pa, kb, pb, slot[result], reuse))
    outs = [source(v) for v in yields]
    cur: list = [x.transpose(perm) for x in values] if perm is not None else list(values)
    cur += [None] * (len(slot) - n_carried)
    owned: dict = {}            # id -> array made here (held: ids stay unique)
    spare: list = [None] * len(ops)     # per op: a dead array it made
    with np.errstate(all="ignore"):
        for j in range(n):
            carried = cur[:n_carried]
            shared = n_carried > 1 and len({id(x) for x in carried}) < n_carried
            made = []
            for k, (ufunc, dt, ka, pa, kb, pb, out, reuse) in enumerate(ops):
                a = cur[pa] if ka == 0 else pa[j] if ka == 1 else pa
                b = cur[pb] if kb == 0 else pb[j] if kb == 1 else pb
                sa, sb = a.shape, b.shape
                shape = sa if sa == sb else _broadcast(sa, sb)
                dst = (a, b)[reuse] if reuse >= 0 else None
                if dst is None or id(dst) not in owned or dst.shape != shape or \
                        dst.dtype != dt or (shared and _shared(dst, carried)):
                    dst = spare[k]
                    spare[k] = None
                    if dst is None or dst.shape != shape or dst.dtype != dt:
                        dst = np.empty(shape, dt)
                        owned[id(dst)] = dst
                cur[out] = ufunc(a, b, out=dst)
                made.append(dst)
            nxt = [cur[p] if kind == 0 else p[j] if kind == 1 else p for kind, p in outs]
            cur[:n_carried] = nxt
            taken = {id(x) for x in nxt}
            for k, r in enumerate(made):
                if id(r) not in taken:
                    spare[k] = r
                    taken.add(id(r))
            owned = {i: r for i, r in owned.items() if i in taken}
    if perm is None:
        return cur[:n_carried]
    inverse = tuple(int(d) for d in np.argsort(perm))
    return [x.transpose(inverse) for x in cur[:n_carried]]


class _NotPermutable(Exception):
    """An operand of a permuted ufunc plan turned out not to be a plain lane array."""


def _broadcast(sa: tuple, sb: tuple) -> tuple:
    """The broadcast shape of two array shapes."""
    if len(sa) < len(sb):
        sa = (1,) * (len(sb) - len(sa)) + sa
    elif len(sb) < len(sa):
        sb = (1,) * (len(sa) - len(sb)) + sb
    return tuple(y if x == 1 else x for x, y in zip(sa, sb))


def _shared(array: np.ndarray, values: list) -> bool:
    """Whether ``array`` is carried in as more than one value (overwriting it would change
    the other)."""
    return sum(1 for v in values if v is array) > 1


def _get(invariant: dict, frame: Frame, v: Value) -> Any:
    return invariant[v] if v in invariant else frame.get(v)


def _storage(v: Value) -> np.dtype:
    return np.dtype(np.int64) if str(v.type) == "index" else np.dtype(f"int{v.type.width}")


# -- integer arithmetic in the induction variable -------------------------------------------------

def _as_ivaff(x: Any) -> Optional[IvAff]:
    if type(x) is IvAff:
        return x
    if type(x) is Aff:
        return IvAff(x, 0)
    if isinstance(x, (int, np.integer)) or (isinstance(x, np.ndarray) and x.size == 1):
        return IvAff(Aff(int(np.asarray(x).reshape(-1)[0]), _ZERO, np.int64), 0)
    return None


def _const(x: IvAff) -> Optional[int]:
    return x.base.const if x.per == 0 and x.base.is_constant else None


def _int_op(space: BoxSpace, name: str, args: Sequence[Any], dtype: np.dtype,
            n: int) -> Optional[IvAff]:
    """``addi`` / ``subi`` / ``muli`` of values affine in the induction variable, kept affine
    only where no iteration's value wraps (else None: the general path wraps it)."""
    if dtype not in _INT_DTYPES:
        return None
    a, b = (_as_ivaff(x) for x in args)
    if a is None or b is None:
        return None
    if name == "arith.addi":
        r = IvAff(a.base.plus(b.base), a.per + b.per)
    elif name == "arith.subi":
        r = IvAff(a.base.plus(b.base.times(-1)), a.per - b.per)
    else:
        ka, kb = _const(a), _const(b)
        if kb is not None:
            r = IvAff(a.base.times(kb), a.per * kb)
        elif ka is not None:
            r = IvAff(b.base.times(ka), b.per * ka)
        else:
            return None
    r = IvAff(r.base.cast(dtype), r.per)
    for x in (a, b):            # the operands, too, must have been exact (never wrapped)
        if not (x.at(0).cast(dtype).fits(space) and x.at(n - 1).cast(dtype).fits(space)):
            return None
    if not (r.at(0).fits(space) and r.at(n - 1).fits(space)):
        return None
    return r


# -- loads -----------------------------------------------------------------------------------------

def batched_load(ex: Any, space: BoxSpace, op: Operation, ref: Any, indices: Sequence[Any],
                 n: int) -> Optional[np.ndarray]:
    """``memref.load`` for ``n`` iterations at once: a read-only strided view with a leading
    iteration axis, when every index is affine in the induction variable and the ids and
    every iteration's access is in bounds (checked at the first and last iteration: the
    indices are affine, so the iterations between lie between them); else None."""
    if not isinstance(ref, MemRef):
        return None
    buf = ref.buffer
    dtype = _LOAD_DTYPES.get(op)
    if dtype is None:
        from .values import storage
        dtype = _LOAD_DTYPES[op] = storage(op.results[0].type)
    if buf.data.dtype != dtype or buf.freed:
        return None
    check_host_access = getattr(ex, "check_host_access", None)
    if check_host_access is not None:       # (what ``ops.memref_access`` checks)
        check_host_access(ref, op)
    idx = [_as_ivaff(i) for i in indices]
    if any(i is None for i in idx):
        return None
    first = physical(space, buf.layout, element_address(space, ref, [i.at(0) for i in idx]))
    last = physical(space, buf.layout, element_address(space, ref, [i.at(n - 1) for i in idx]))
    if type(first) is not Aff or type(last) is not Aff or first.coef != last.coef:
        return None
    delta = last.const - first.const
    if n > 1 and delta % (n - 1):
        return None
    per = delta // (n - 1) if n > 1 else 0
    return _blocks_inner(_iteration_view(space, buf.data, first, per, n))


#: the storage dtype of a load's result, per op
_LOAD_DTYPES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

#: memory order of a batched array: iterations, thread axes (z, y, x), then block axes
_BLOCKS_INNER = (0, 4, 5, 6, 1, 2, 3)


def _blocks_dense(view: np.ndarray) -> bool:
    """Whether the block axes of ``view`` are already its densest (as in workgroup memory
    stored interleaved, :mod:`.layout`): no copy is needed then."""
    blocks = [abs(s) for s, m in zip(view.strides[1:4], view.shape[1:4]) if m > 1]
    threads = [abs(s) for s, m in zip(view.strides[4:], view.shape[4:]) if m > 1]
    return bool(blocks) and min(blocks) == view.itemsize and \
        max(blocks) < min(threads, default=1 << 62)


def _blocks_inner(view: np.ndarray) -> np.ndarray:
    """A copy of the batched ``view`` stored iterations-major, then threads, with the block
    axes innermost, seen in the lane order.  Values loaded from workgroup (or per-block)
    memory vary along the block axes with the copy size as stride and along the thread axes
    in runs of a tile's width: NumPy's loops over the copy then run along all blocks at once
    (long inner loops) instead of along a tile row, and the results of elementwise ops on such
    operands keep this layout (NumPy's K order), so the carried ops run on dense slices."""
    if all(m == 1 for m in view.shape[1:4]) or _blocks_dense(view):
        return view
    out = np.ascontiguousarray(view.transpose(_BLOCKS_INNER)).transpose(_BLOCKS_INNER)
    out.flags.writeable = False
    return out


def _iteration_view(space: BoxSpace, data: np.ndarray, addr: Aff, per: int,
                    n: int) -> np.ndarray:
    """The elements at ``addr + j * per`` for ``j < n``, shape ``(n,) + space.shape`` (extent
    1 where the address does not vary), as a read-only view of ``data``."""
    item = data.itemsize
    base = addr.const
    shape, strides = [n], [per * item if n > 1 else 0]
    for c, l0, m in zip(addr.coef, space.lo, space.shape):
        base += c * l0
        if c and m > 1:
            shape.append(m)
            strides.append(c * item)
        else:
            shape.append(1)
            strides.append(0)
    # (bounds were checked at the first and last iteration: every element read is in ``data``;
    # a negative stride reads below ``data[base]``, still inside the buffer)
    try:
        out = np.ndarray(tuple(shape), data.dtype, buffer=data, offset=base * item,
                         strides=tuple(strides))
    except (TypeError, ValueError):     # a buffer NumPy will not wrap
        return np.lib.stride_tricks.as_strided(data[base:], shape=tuple(shape),
                                               strides=tuple(strides), writeable=False)
    out.flags.writeable = False
    return out


def analyze(op: Operation, compiler: Any) -> Optional[LoopBatch]:
    """The :class:`LoopBatch` of an ``scf.for`` (cached per op), or None if it does not
    qualify."""
    key = ("loop_batch", op)
    hit = compiler.cache.get(key, False)
    if hit is False:
        body = op.regions[0].blocks[0]
        batch = LoopBatch(body, compiler.block(body))
        hit = compiler.cache[key] = batch if batch.ok else None
    return hit
