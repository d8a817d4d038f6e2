"""The plan compiler: turns an ``entry`` into closures once, then runs them per tile block.

Compilation (DESIGN.md principle 5) resolves, up front and once per kernel:

* a **register slot** for every SSA value (a Python list indexed by ints at run time);
* every op's **semantics function**, chosen from the op's types and attributes (rounding mode,
  signedness, element type, view layout...), bound into a closure ``fn(regs)`` that reads its
  operand slots and writes its result slots: no type checks, no attribute lookups and no dict
  dispatch happen while the kernel runs;
* **constants and constant folding**: ``constant``, ``iota`` and every pure op whose operands are
  all constants are evaluated at compile time into a register *template* that each tile block
  starts from.

Values at run time
------------------
A tile value of type ``tile<S x E>`` is a NumPy array of shape ``(L, *S)`` in ``E``'s storage
dtype (:mod:`tileir.dtypes`; pointers are ``uint64`` addresses).  The leading *lane* axis holds
one entry per tile block executed together: ``L == 1`` when a value is the same for every block
(uniform) or when blocks run one at a time, ``L == B`` when ``B`` blocks run in lock step
(see :mod:`.launch`).  NumPy broadcasting combines ``L == 1`` with ``L == B`` operands.
Tokens are ``None`` (program order is a legal order).  Tensor views are
:class:`~.values.TensorViewValue`; tile views are their tensor view (their layout is static, in
the type).

Control flow
------------
A block runs its op closures in order; an op closure returns ``None``, or a *signal*
``(kind, values)`` when a nested terminator leaves the block non-locally (``continue``/``break``
inside an ``if`` inside a loop, ``return`` inside an ``if``).  Terminators produce signals;
``if``, ``for``, ``loop`` and ``entry`` consume them.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any, Callable, Optional

import numpy as np

from ..ir.core import Block, Operation, Value
from ..dialects.cuda_tile.types import (PointerType, TensorViewType, TileType, TileViewType,
                                        TokenType)
from ..ir import dtypes as _dtypes
from .errors import LaunchError, OpContext, UnsupportedError
from .aliasing import read_only_views, written_parameters
from .buffers import MIN_BYTES, recycle
from .lanes import FALL, SPLIT, LaneState
from .nan_payload import unobserved_nan_values
from .replay import REPLAYABLE_EXTRA, replayed

__all__ = ["Compiler", "Runtime", "YIELD", "CONTINUE", "BREAK", "RETURN", "LOWERINGS",
           "ABSORBERS", "lowering", "FOLDABLE", "storage_dtype", "element_name"]

YIELD, CONTINUE, BREAK, RETURN = 0, 1, 2, 3

#: op name -> lowering function ``(op, compiler) -> closure | None`` (used at compile time only).
LOWERINGS: dict[str, Callable] = {}
#: ops that may be evaluated at compile time when all their operands are constants.
FOLDABLE: set[str] = set()
#: ops that need blocks to run one at a time (their effects are per block and ordered).
SEQUENTIAL_ONLY: set[str] = set()
#: ops whose results differ between tile blocks even for uniform operands.
VARYING_RESULTS: set[str] = set()
#: ops with side effects (memory writes, printing, assertions, allocation).
SIDE_EFFECTS: set[str] = set()
#: analyses run when an entry is compiled, ``fn(entry) -> iterable of ops``: the compiler keeps
#: the closures of those ops aside (:attr:`Compiler.absorbed`) instead of running them where they
#: stand; the op that absorbs them (a fused lowering) runs them itself when it needs their
#: results.  An absorbing lowering must leave the same registers and raise the same errors as
#: the ops it absorbs would have, whenever it does not compute their result another way.
ABSORBERS: list[Callable] = []
#: ops that may raise for operands a not-taken branch would never give them (so an ``if`` that
#: contains them is never evaluated on both sides).
MAY_FAULT: set[str] = {"cuda_tile.load_ptr_tko", "cuda_tile.load_view_tko", "cuda_tile.extract",
                       "cuda_tile.insert", "cuda_tile.assume"}


def lowering(*names: str, fold: bool = False, sequential: bool = False, varying: bool = False,
             effects: bool = False):
    """Register a lowering for the ops ``names`` (short mnemonics or full names)."""
    def deco(fn):
        for n in names:
            full = n if "." in n else "cuda_tile." + n
            LOWERINGS[full] = fn
            if fold:
                FOLDABLE.add(full)
            if sequential:
                SEQUENTIAL_ONLY.add(full)
            if varying:
                VARYING_RESULTS.add(full)
            if effects:
                SIDE_EFFECTS.add(full)
        return fn
    return deco


def element_name(t) -> str:
    """Element spelling of a tile type (``'f32'``, ``'i1'``; ``'ptr'`` for pointers)."""
    el = t.element if isinstance(t, TileType) else t
    if isinstance(el, PointerType):
        return "ptr"
    return el.name


def storage_dtype(t) -> np.dtype:
    """NumPy storage dtype of a tile type's (or element type's) elements."""
    el = t.element if isinstance(t, (TileType, TensorViewType, TileViewType)) else t
    if isinstance(el, PointerType):
        return np.dtype(np.uint64)
    return _dtypes.numpy_dtype(el.name)


#: How deep spinning tile blocks may nest the blocks they let run (``Runtime.run_pending``).
MAX_PENDING_NESTING = 512


class Runtime(threading.local):
    """Mutable state shared by a kernel's closures; reset for every batch of tile blocks.

    Thread-local: the worker threads of a multi-threaded launch each see their own block ids
    and lane count (:meth:`launch_state` / :meth:`adopt` carry the launch-wide settings)."""

    #: the settings of a launch that every worker thread shares
    LAUNCH_FIELDS = ("memory", "grid", "grid_values", "stdout", "check_assumptions",
                     "max_loop_iterations", "kernel", "zero_copy", "launch")

    def __init__(self) -> None:
        self.memory = None
        one = np.zeros(1, dtype=np.int32)
        self.bx = self.by = self.bz = one
        self.grid = (1, 1, 1)
        self.grid_values = (np.ones(1, np.int32),) * 3
        self.stdout = None
        self.check_assumptions = False
        self.max_loop_iterations = 10_000_000
        self.allocs: list = []
        self.lanes = 1
        self.kernel = ""
        #: no two array arguments of this launch share memory: loads through read-only
        #: views may return views of the buffers (:mod:`.aliasing`)
        self.zero_copy = False
        #: a new object for every launch: what a closure remembers for the rest of a launch
        #: (and must not reuse in the next one) is keyed on it
        self.launch: object = None
        #: set by a sequential launch: runs one tile block that has not started yet (returns
        #: False when there is none); a spinning ``loop`` calls it so that a block waiting for
        #: a later block's store can make progress
        self.run_pending: Optional[Callable[[], bool]] = None
        #: while a lock-step chunk runs: ``(LaunchMemo, the chunk's values)`` (see
        #: :mod:`.replay`), else None
        self.memo: Optional[tuple] = None

    def launch_state(self) -> tuple:
        return tuple(getattr(self, f) for f in self.LAUNCH_FIELDS)

    def adopt(self, state: tuple) -> None:
        """Take the launch-wide settings of :meth:`launch_state` (in a worker thread)."""
        for f, v in zip(self.LAUNCH_FIELDS, state):
            setattr(self, f, v)
        self.allocs = []
        self.run_pending = None

    def block_of(self, lane: int) -> tuple[int, int, int]:
        def pick(a):
            return int(a[lane if a.shape[0] > 1 else 0])
        return pick(self.bx), pick(self.by), pick(self.bz)

    def error(self, ctx: Optional[OpContext], cls: type, message: str,
              flat: Optional[int] = None, shape: Optional[tuple] = None, **kw) -> LaunchError:
        """Build ``cls`` for an error at element ``flat`` of an array of shape ``(L, *tile)``."""
        lane, element = 0, None
        if flat is not None and shape is not None:
            tile = tuple(shape[1:])
            numel = int(np.prod(tile)) if tile else 1
            lane = int(flat) // numel if shape[0] > 1 else 0
            element = tuple(int(i) for i in np.unravel_index(int(flat) % numel, tile)) \
                if tile else None
        return cls.at(ctx, message, block=self.block_of(lane), element=element, **kw)


class Compiler:
    """Compiles one entry into a plan (see module docstring)."""

    def __init__(self, entry: Operation, globals_: dict, runtime: Runtime,
                 source_name: str = "") -> None:
        self.entry = entry
        self.globals = globals_          # symbol name -> (Buffer, element Type)
        self.rt = runtime
        self.slots: dict[Value, int] = {}
        self.template: list = []
        self.const: list[bool] = []
        self.source_name = source_name
        #: ``mmaf`` evaluation: "exact" or "fast" (see ``Kernel.launch``)
        self.mma_mode = "exact"
        #: pointer/view values that only reach memory the kernel never writes
        self.read_only = read_only_views(entry)
        #: entry parameters a store or atomic may write through (None: unknown)
        self.written_params = written_parameters(entry)
        #: values whose NaN bits nothing observes (their producers need not canonicalise)
        self.unobserved_nans = unobserved_nan_values(entry)
        #: op -> its closure, for the ops that an absorbing lowering runs (see ABSORBERS)
        self.absorbed: dict[Operation, Optional[Callable]] = {}
        for find in ABSORBERS:
            for op in find(entry):
                self.absorbed[op] = None

    # -- slots and types ------------------------------------------------------------------------

    def slot(self, v: Value) -> int:
        s = self.slots.get(v)
        if s is None:
            s = len(self.template)
            self.slots[v] = s
            self.template.append(None)
            self.const.append(False)
        return s

    def slots_of(self, values) -> list[int]:
        return [self.slot(v) for v in values]

    def free_slots(self, region) -> tuple:
        """The registers that ops in ``region`` (at any depth) read but do not define."""
        inside = set()
        used = []
        for block in region.blocks:
            inside.update(block.args)
            for op in block.ops:
                for nested in op.walk():
                    inside.update(nested.results)
                    for r in nested.regions:
                        for b in r.blocks:
                            inside.update(b.args)
        for block in region.blocks:
            for op in block.ops:
                for nested in op.walk():
                    used.extend(v for v in nested.operands if v not in inside)
        return tuple(sorted({self.slot(v) for v in used}))

    def nan_observed(self, v: Value) -> bool:
        """Whether the bits of a NaN in ``v`` may be observed (a store, bitcast, atomic...):
        then its producer must give the canonical NaN (see :mod:`.nan_payload`)."""
        return v not in self.unobserved_nans

    def set_const(self, v: Value, value: Any) -> None:
        s = self.slot(v)
        self.template[s] = value
        self.const[s] = True

    def ctx(self, op: Operation) -> OpContext:
        loc = op.loc.file_line_col() if op.loc is not None else None
        text = f"{loc.file}:{loc.line}:{loc.col}" if loc is not None else ""
        return OpContext(op.name, text)

    def unsupported(self, op: Operation, message: str) -> UnsupportedError:
        ctx = self.ctx(op)
        return UnsupportedError(message, op=ctx.name, loc=ctx.loc)

    # -- compilation ----------------------------------------------------------------------------

    def compile_entry(self) -> Callable:
        """Compile the entry.  Besides the per-block runner this fills ``self.prologue``: the
        closures of top-level ops that depend only on the arguments and constants (tensor
        views, shape arithmetic...), run once per launch instead of once per tile block."""
        body = self.entry.regions[0].blocks[0]
        self.arg_slots = self.slots_of(body.args)
        self.prologue: list = []
        self.prologue_ops: list = []
        self.invariant = set(self.arg_slots)
        #: registers of top-level values that depend only on the arguments, the grid and the
        #: chunk's block ids (see :mod:`.replay`)
        self.replayable = set(self.arg_slots)
        return self.compile_block(body, top_level=True)

    def compile_block(self, block: Block, top_level: bool = False) -> Callable:
        """Compile a block into ``run(regs) -> signal``."""
        ops = list(block.ops)
        term_op = ops[-1] if ops and ops[-1].name in _TERMINATORS else None
        if term_op is not None:
            ops = ops[:-1]
        fns = []
        ctxs = []
        for op in ops:
            fn = self.compile_op(op)
            if op in self.absorbed:
                self.absorbed[op] = fn
                continue
            if fn is not None and top_level and self._hoistable(op):
                self.prologue.append(fn)
                self.prologue_ops.append(op)
                self.invariant.update(self.slot(r) for r in op.results)
                continue
            if fn is not None and top_level and self._replayable(op):
                outs = tuple(self.slot(r) for r in op.results)
                self.replayable.update(outs)
                fn = replayed(fn, outs, self.rt)
            if fn is not None:
                fns.append(fn)
                ctxs.append(op)
        if term_op is None:
            term = _end_of_block
        else:
            kind = _TERMINATORS[term_op.name]
            src = self.slots_of(term_op.operands)
            term = _make_terminator(kind, src)
        frees = self.dead_after(block, ctxs)
        fns = [_freeing(fn, frees[op]) if op in frees else fn for fn, op in zip(fns, ctxs)]
        return _make_runner(fns, term, ctxs, self)

    def dead_after(self, block: Block, executed: list) -> dict:
        """``{op: slots}``: the registers of tile values defined in ``block`` (op results of
        at least :data:`DROP_BYTES` per block, not block arguments or constants) whose last
        use is ``op``, one of the ``executed`` ops
        (a use in a nested region counts as a use by the op of ``block`` around it).  The
        runner drops them after ``op``: a launch's tile values then live only as long as
        they are needed, and their arrays are reused (:mod:`.buffers`; fresh pages for every
        value cost more than the arithmetic on them: page faults).  Values read by an
        absorbed op (run later by the op that absorbs it) or by the terminator, and
        registers that several values share, are kept."""
        index = {op: i for i, op in enumerate(block.ops)}
        runs = set(executed)
        # (a register that several values share -- a view op passing its operand on -- is
        # left alone)
        shared = Counter(self.slots.values())
        last: dict = {}
        for op in block.ops:
            for v in op.results:
                if not v.uses or self.const[self.slot(v)] or shared[self.slot(v)] > 1 or \
                        not _worth_dropping(v.type):
                    continue
                users = []
                for user, _ in v.uses:
                    while user is not None and user.parent is not block:
                        user = user.parent_op
                    users.append(user)
                if any(u is None or u not in runs for u in users):
                    continue        # (the terminator, an absorbed or a hoisted op)
                final = max(users, key=index.__getitem__)
                last.setdefault(final, []).append(self.slot(v))
        return {op: tuple(slots) for op, slots in last.items()}

    def _hoistable(self, op: Operation) -> bool:
        """A pure op that cannot fault and reads only arguments, constants and other hoisted
        values: its result is the same for every tile block of a launch."""
        if op.name not in FOLDABLE or op.name in MAY_FAULT or op.regions:
            return False
        return all(self.const[s] or s in self.invariant for s in self.slots_of(op.operands))

    def _replayable(self, op: Operation) -> bool:
        """A top-level op whose values depend only on its operands, the grid and the chunk's
        block ids, all of whose operands are arguments, constants, prologue values or other
        replayable values: the next launch with equal arguments may reuse its values."""
        if (op.name not in FOLDABLE and op.name not in REPLAYABLE_EXTRA) or op.regions or \
                not op.results:
            return False
        return all(self.const[s] or s in self.invariant or s in self.replayable
                   for s in self.slots_of(op.operands))

    def compile_op(self, op: Operation) -> Optional[Callable]:
        lower = LOWERINGS.get(op.name)
        if lower is None:
            if op.name in _TERMINATORS:
                raise self.unsupported(op, "terminator in an unexpected position")
            raise self.unsupported(op, "the CPU executor has no semantics for this op")
        fn = lower(op, self)
        if fn is None:
            return None
        if op.name in FOLDABLE and op.results and all(
                self.const[self.slot(v)] for v in op.operands):
            try:
                with np.errstate(all="ignore"):
                    fn(self.template)
            except Exception:  # noqa: BLE001 - keep the runtime path, it reports properly
                return fn
            for r in op.results:
                self.const[self.slot(r)] = True
            return None
        return fn


_TERMINATORS = {"cuda_tile.yield": YIELD, "cuda_tile.continue": CONTINUE,
                "cuda_tile.break": BREAK, "cuda_tile.return": RETURN}


def _end_of_block(r):
    return (YIELD, [])


def _make_terminator(kind: int, src: list[int]) -> Callable:
    if not src:
        sig = (kind, [])
        return lambda r: sig
    if len(src) == 1:
        a, = src
        return lambda r: (kind, [r[a]])
    return lambda r: (kind, [r[s] for s in src])


#: tile values of fewer bytes per tile block are not worth dropping early (the check would
#: cost more than it saves when blocks run one at a time)
DROP_BYTES = 4096


def _worth_dropping(t) -> bool:
    return isinstance(t, TileType) and t.numel * storage_dtype(t).itemsize >= DROP_BYTES


def _freeing(fn: Callable, slots: tuple) -> Callable:
    """``fn`` followed by dropping the registers ``slots`` (values no later op reads); their
    arrays go back to the buffer pool when nothing else holds them (:mod:`.buffers`)."""
    if len(slots) == 1:
        s0, = slots

        def run1(r):
            sig = fn(r)
            v = r[s0]
            r[s0] = None
            if type(v) is np.ndarray and v.nbytes >= MIN_BYTES:
                recycle(v)
            return sig
        return run1

    def run(r):
        sig = fn(r)
        for s in slots:
            v = r[s]
            r[s] = None
            if type(v) is np.ndarray and v.nbytes >= MIN_BYTES:
                recycle(v)
        return sig
    return run


def _make_runner(fns: list, term: Callable, ops: list, compiler: "Compiler") -> Callable:
    if not fns:
        return term
    fns = tuple(fns)
    rt = compiler.rt

    def run_from(r, start: int = 0):
        i = start
        try:
            for f in fns[start:] if start else fns:
                s = f(r)
                if s is not None:
                    if s[0] == SPLIT:
                        return resolve(s, i + 1)
                    return s
                i += 1
        except LaunchError:
            raise
        except Exception as exc:  # noqa: BLE001 - report the op, keep the cause chained
            ctx = compiler.ctx(ops[i])
            raise rt.error(ctx, LaunchError, f"internal executor error: {type(exc).__name__}: "
                                             f"{exc}") from exc
        return term(r)

    def resolve(split, start: int):
        """Run the rest of the block for the lanes of ``split`` that fell through (FALL)."""
        groups = []
        for idx, sig in split[1]:
            if sig[0] != FALL:
                groups.append((idx, sig))
                continue
            regs, lanes = sig[1]
            saved = LaneState.of(rt)
            lanes.install(rt)
            memo, rt.memo = rt.memo, None       # (a subset of the chunk's lanes: no replay)
            try:
                out = run_from(regs, start)
            finally:
                saved.install(rt)
                rt.memo = memo
            if out[0] == SPLIT:
                groups.extend((idx[sub], g) for sub, g in out[1])
            else:
                groups.append((idx, out))
        return (SPLIT, groups)

    return run_from


# ---------------------------------------------------------------------------------------------
# Uniformity analysis: may several tile blocks run in lock step?
# ---------------------------------------------------------------------------------------------

class BatchAnalysis:
    """Decides whether an entry can run many tile blocks in lock step (``batchable``).

    A value is *varying* if it may differ between tile blocks: block ids along the axes that
    vary in the launch grid, atomic results, and everything computed from varying values
    (including results of control flow whose condition or carried values vary).  Lock step is a
    legal interleaving of the blocks; where the blocks' control flow diverges (an ``if`` with a
    varying condition, a ``for`` with varying bounds, a ``loop`` left at different iterations)
    the lanes are split (:mod:`.lanes`): each path runs for its own lanes only.  Pure ``if``
    branches are instead evaluated for all lanes and merged element-wise (cheaper).

    Batching is refused (``reason``) for ``print_tko`` (its per-block output is reported in
    block order), for divergence inside a reduce/scan body, and for divergence
    around a ``loop`` with atomics or ordered loads: its tile blocks may be waiting for each
    other through memory (a spin lock), which needs blocks to run one at a time.
    ``divergent`` lists the constructs that split lanes."""

    def __init__(self, entry: Operation, varying_axes: tuple[bool, bool, bool]) -> None:
        self.axes = varying_axes
        self.varying: set = set()
        self.reason: Optional[str] = None
        self.divergent: list[str] = []
        try:
            self._block(entry.regions[0].blocks[0])
        except _NotBatchable as exc:
            self.reason = str(exc)

    @property
    def batchable(self) -> bool:
        return self.reason is None

    def _is_varying(self, v) -> bool:
        return v in self.varying

    def _block(self, block: Block) -> None:
        for op in block.ops:
            self._op(op)

    def _diverges(self, op: Operation, what: str) -> None:
        if in_combiner(op):
            raise _NotBatchable(f"{what} differs between the element pairs of a reduce/scan body")
        for r in op.results:
            if value_kind(r.type) not in ("tile", "token"):
                raise _NotBatchable(f"{what} differs between tile blocks and the op yields a view")
        if any(n.name == "cuda_tile.loop" and _synchronises(n) for n in op.walk()):
            raise _NotBatchable(f"{what} differs between tile blocks, and a 'loop' there uses "
                                "atomics or ordered loads: the blocks may be waiting for each "
                                "other through memory")
        note = f"'{op.name.split('.', 1)[1]}'"
        loc = op.loc.file_line_col() if op.loc is not None else None
        if loc is not None:
            note += f" at line {loc.line}"
        if note not in self.divergent:
            self.divergent.append(note)

    def _op(self, op: Operation) -> None:
        name = op.name
        if name in SEQUENTIAL_ONLY:
            raise _NotBatchable(f"'{name}' runs tile blocks one at a time")
        if name == "cuda_tile.get_tile_block_id":
            for r, axis in zip(op.results, self.axes):
                if axis:
                    self.varying.add(r)
            return
        if name in VARYING_RESULTS:
            self.varying.update(op.results)
        any_var = any(v in self.varying for v in op.operands)
        if name == "cuda_tile.if":
            cond_var = op.operands[0] in self.varying
            if cond_var and not convertible_if(op):
                self._diverges(op, "an 'if' condition")
            for region in op.regions:
                for b in region.blocks:
                    self._block(b)
            if cond_var or self._yields_varying(op):
                self.varying.update(op.results)
            return
        if name == "cuda_tile.for":
            if any(v in self.varying for v in op.operands[:3]):
                self._diverges(op, "a 'for' bound")
                self.varying.update(op.results)
                self.varying.add(op.regions[0].blocks[0].args[0])
            self._loop(op, op.operands[3:], op.regions[0].blocks[0].args[1:])
            return
        if name == "cuda_tile.loop":
            self._loop(op, op.operands, op.regions[0].blocks[0].args)
            if self._may_leave_apart(op):
                self._diverges(op, "the iteration that leaves a 'loop'")
                self.varying.update(op.results)
            return
        if name in ("cuda_tile.reduce", "cuda_tile.scan"):
            body = op.regions[0].blocks[0]
            for nested in body.ops:
                for nop in nested.walk():
                    for v in nop.operands:
                        if v in self.varying and not _defined_inside(v, op):
                            raise _NotBatchable("a reduce/scan body reads a value that differs "
                                                "between tile blocks")
            if any_var:
                self.varying.update(op.results)
            return
        for region in op.regions:
            for b in region.blocks:
                self._block(b)
        if any_var:
            self.varying.update(op.results)

    def _yields_varying(self, op: Operation) -> bool:
        for region in op.regions:
            for b in region.blocks:
                if b.ops and any(v in self.varying for v in b.ops[-1].operands):
                    return True
        return False

    def _loop(self, op: Operation, inits, args) -> None:
        body = op.regions[0].blocks[0]
        for a, init in zip(args, inits):
            if init in self.varying:
                self.varying.add(a)
        for _ in range(64):
            before = len(self.varying)
            self._block(body)
            if self._may_leave_apart(op):
                # lanes take different exits: what they carry and return differs too
                self.varying.update(args)
                self.varying.update(op.results)
            for term in _terminators_of(body, op):
                vals = term.operands
                targets = args if term.name == "cuda_tile.continue" else op.results
                for t, v in zip(targets, vals):
                    if v in self.varying:
                        self.varying.add(t)
            if len(self.varying) == before:
                break
        for a, r in zip(args, op.results):
            if a in self.varying:
                self.varying.add(r)


    def _may_leave_apart(self, op: Operation) -> bool:
        """Whether the lanes of a ``loop`` may leave it at different iterations: some branch
        inside it (at any depth) has a varying condition or bounds."""
        for nested in op.walk():
            if nested is op:
                continue
            if nested.name == "cuda_tile.if" and nested.operands[0] in self.varying:
                return True
            if nested.name == "cuda_tile.for" and any(v in self.varying
                                                       for v in nested.operands[:3]):
                return True
            if nested.name == "cuda_tile.loop" and any(r in self.varying
                                                        for r in nested.results):
                return True
        return False


class _NotBatchable(Exception):
    pass


def in_combiner(op: Operation) -> bool:
    """Whether ``op`` sits in a reduce/scan body (whose registers hold element pairs, not
    tile-block lanes)."""
    parent = op.parent_op
    while parent is not None:
        if parent.name in ("cuda_tile.reduce", "cuda_tile.scan"):
            return True
        parent = parent.parent_op
    return False


def _synchronises(op: Operation) -> bool:
    """Whether ``op`` contains atomics or loads with a memory ordering other than weak (what a
    tile block waiting for another block's store would use)."""
    for nested in op.walk():
        if nested.name in VARYING_RESULTS:
            return True
        if nested.name in ("cuda_tile.load_ptr_tko", "cuda_tile.load_view_tko"):
            order = nested.attributes.get("memory_ordering_semantics")
            keyword = getattr(order, "keyword", None) or str(order or "weak")
            if "weak" not in keyword.lower():
                return True
    return False


def _defined_inside(v: Value, op: Operation) -> bool:
    owner = v.owner_op if hasattr(v, "owner_op") else None
    while owner is not None:
        if owner is op:
            return True
        owner = owner.parent_op
    return False


def _terminators_of(block: Block, loop_op: Operation):
    """continue/break ops that belong to ``loop_op`` (not to nested loops)."""
    out = []

    def visit(b: Block):
        for o in b.ops:
            if o.name in ("cuda_tile.continue", "cuda_tile.break"):
                out.append(o)
            elif o.name == "cuda_tile.if":
                for region in o.regions:
                    for bb in region.blocks:
                        visit(bb)
    visit(block)
    return out


def convertible_if(op: Operation) -> bool:
    """An ``if`` whose branches may both be evaluated and merged element-wise: no side effects,
    no memory reads or other ops that could fault on the not-taken side, no control transfer out
    of it, and nested control flow only of the same kind."""
    for region in op.regions:
        for b in region.blocks:
            for nested in b.ops:
                for o in nested.walk():
                    if o.name in SIDE_EFFECTS or o.name in SEQUENTIAL_ONLY \
                            or o.name in VARYING_RESULTS or o.name in MAY_FAULT:
                        return False
                    if o.name in ("cuda_tile.continue", "cuda_tile.break", "cuda_tile.return"):
                        return False
                    if o.name in ("cuda_tile.for", "cuda_tile.loop"):
                        return False
    return True


def value_kind(t) -> str:
    if isinstance(t, TokenType):
        return "token"
    if isinstance(t, TileType):
        return "tile"
    if isinstance(t, TensorViewType):
        return "tensor_view"
    if isinstance(t, TileViewType):
        return "tile_view"
    return "other"
