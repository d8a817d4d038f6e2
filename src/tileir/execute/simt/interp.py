"""The SIMT interpreter: plans, frames, regions and structured / unstructured control flow.

A function is compiled once into a :class:`Plan` (one :class:`BlockPlan` per block: the steps
its ops lower to, see :mod:`.registry`).  Running a region binds values in a :class:`Frame`; a
frame belongs to a lane space (:mod:`.lanes`) and looks values it does not hold up in its parent
frame, converting them into its space.

Divergence: an ``scf.if`` whose condition differs between lanes runs each branch on the lanes
taking it (a narrower space) and merges the results; ``scf.for`` with per-lane bounds and
``scf.while`` with a per-lane condition keep iterating on the lanes still looping, and collect
each lane's results when it leaves; ``cf`` branches split the lanes into paths that run on
independently until the region ends.  Every lane executes exactly the ops its thread would.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

import numpy as np

from ...dialects.cf.syntax import case_values
from ...ir.core import Block, Operation, Region, Value
from ..errors import LaunchError, UndefinedBehaviorError, UnsupportedError
from .faults import LaneFault
from .lanes import Aff, BoxSpace, ListSpace, Space, ROOT_NDIM
from .memory import MemRef
from .progress import FIRST_CHECK, RepeatCheck, calls_functions
from .registry import LOWERINGS
from .values import storage, vector_shape

__all__ = ["Frame", "Compiler", "Executor", "loc_text", "Exit"]

MAX_LOOP_ITERATIONS_DEFAULT = 1 << 26


def loc_text(op: Operation) -> str:
    """``file:line:col`` of an op (or ``""``)."""
    loc = op.loc.file_line_col() if op.loc is not None else None
    return f"{loc.file}:{loc.line}:{loc.col}" if loc is not None else ""


class Frame:
    """The values of one region activation, in lane space ``space``."""

    __slots__ = ("space", "vals", "parent")

    def __init__(self, space: Space, parent: Optional["Frame"] = None) -> None:
        self.space = space
        self.vals: dict[Value, Any] = {}
        self.parent = parent

    def get(self, v: Value) -> Any:
        vals = self.vals
        if v in vals:
            return vals[v]
        chain = [self]
        f = self.parent
        while f is not None and v not in f.vals:
            chain.append(f)
            f = f.parent
        if f is None:
            raise UnsupportedError(f"value {v!r} used outside the region that defines it")
        x = f.vals[v]
        src = f.space
        for g in reversed(chain):
            if g.space is not src:
                x = convert(x, src, g.space)
                src = g.space
            g.vals[v] = x
        return x


def convert(value: Any, src: Space, dst: Space) -> Any:
    """A value of space ``src`` as a value of ``dst`` (whose lanes are all lanes of ``src``)."""
    if dst.parent is src:
        return dst.enter(value)
    if dst.root is not src.root:
        return _across_roots(value, src, dst)
    if not isinstance(value, (np.ndarray, Aff)) and not hasattr(value, "enter_space"):
        return value
    if isinstance(value, Aff) and isinstance(dst, BoxSpace):
        return value
    if hasattr(value, "enter_space"):
        return value.enter_space(_Reindex(src, dst))
    return _Reindex(src, dst).enter(value)


def _across_roots(value: Any, src: Space, dst: Space) -> Any:
    """A value captured from another launch's space (host values inside ``gpu.launch``): it
    must be uniform and is reshaped to ``dst``'s layout."""
    if isinstance(value, Aff):
        if not value.is_constant:
            raise UnsupportedError("a per-thread value captured across a launch")
        return value
    if isinstance(value, np.ndarray) and value.ndim >= src.ndim:
        lane = value.shape[:src.ndim]
        if any(s != 1 for s in lane):
            raise UnsupportedError("a per-lane value captured across a launch")
        return value.reshape((1,) * dst.ndim + value.shape[src.ndim:])
    return value


class _Reindex:
    """Conversion between two spaces of one root that are not parent and child.

    ``pos`` (where ``dst``'s lanes are among ``src``'s) is remembered by ``dst`` for each
    ``src`` (a path entering a block converts every live-in value from the same space), and
    :func:`narrow` leaves it there for the path it makes."""

    def __init__(self, src: Space, dst: Space) -> None:
        self.src, self.dst = src, dst
        memo = dst.__dict__.setdefault("_positions", {})
        pos = memo.get(src)
        if pos is None:
            root = dst.root
            # (the root's own lanes are numbered 0..n-1: a position there is its flat index)
            pos = memo[src] = flat_in(dst, root) if src is root else \
                np.searchsorted(flat_in(src, root), flat_in(dst, root))
        self.pos = pos

    def enter(self, value: Any) -> Any:
        src = self.src
        if isinstance(value, Aff):
            value = src.array(value)
        if not isinstance(value, np.ndarray) or value.ndim < src.ndim:
            return value
        lane = value.shape[:src.ndim]
        vshape = value.shape[src.ndim:]
        if all(s == 1 for s in lane):
            return value.reshape((1,) * self.dst.ndim + vshape)
        full = np.broadcast_to(value, src.shape + vshape).reshape((-1,) + vshape)
        out = full[self.pos]
        if isinstance(self.dst, BoxSpace):
            return out.reshape(self.dst.shape + vshape)
        return out


def flat_in(space: Space, ancestor: Space) -> np.ndarray:
    """The lanes of ``space`` as flat positions in ``ancestor``'s full shape (lane order).

    A list space remembers its answers (divergent ``cf`` loops ask for the positions of the
    same paths several times per iteration), and a list space directly below ``ancestor``
    gives its own index without numbering all of ``ancestor``'s lanes first."""
    if space is ancestor:
        return np.arange(space.size, dtype=np.int64)
    if isinstance(space, ListSpace):
        memo = space.__dict__.setdefault("_flat_in", {})
        hit = memo.get(ancestor)
        if hit is None:
            hit = memo[ancestor] = _list_flat_in(space, ancestor)
        return hit
    if isinstance(space, BoxSpace) and isinstance(ancestor, BoxSpace):
        coords = [c - l0 for c, l0 in zip(space.coords(), ancestor.lo)]
        flat = np.zeros((1,) * ROOT_NDIM, dtype=np.int64)
        mult = 1
        for d in range(ROOT_NDIM - 1, -1, -1):
            flat = flat + coords[d] * mult
            mult *= ancestor.shape[d]
        return np.broadcast_to(flat, space.shape).reshape(-1)
    # a box below a list space cannot be built
    raise AssertionError("unexpected space nesting")


def _list_flat_in(space: "ListSpace", ancestor: Space) -> np.ndarray:
    """:func:`flat_in` of a list space (not memoised)."""
    mine = space.flat
    if space.parent is ancestor:    # (the parent's positions would be 0..n-1)
        return mine.astype(np.int64, copy=False)
    return flat_in(space.parent, ancestor)[mine]


def narrow(space: Space, mask: Any, under: Space) -> tuple[Optional[Space], Callable]:
    """The lanes of ``space`` where ``mask`` holds, as a child of ``under`` (an ancestor of
    ``space``, or ``space`` itself), and a function converting ``space``'s values into it."""
    sub = space.restrict(mask)
    if sub is None:
        return None, lambda v: v
    if sub is space:
        conv = (lambda v: v)
    else:
        conv = sub.enter
    if sub.parent is under or sub is under:
        return sub, conv
    if isinstance(sub, BoxSpace) and isinstance(under, BoxSpace):
        new = BoxSpace(sub.lo, sub.shape, under)
        if sub is space:
            return new, (lambda v: v)
        return new, conv
    flat = flat_in(sub, under)
    new = ListSpace(under, flat=flat)
    if isinstance(sub, BoxSpace):
        return new, (lambda v, _s=sub: _to_list(v, _s))
    # where the new path's lanes are among ``space``'s: ``sub``'s index there (for _Reindex)
    new.__dict__["_positions"] = {space: sub.flat}
    return new, conv


def _to_list(value: Any, box: BoxSpace) -> Any:
    if isinstance(value, Aff):
        value = box.array(value)
    if isinstance(value, np.ndarray) and value.ndim >= ROOT_NDIM:
        vshape = value.shape[ROOT_NDIM:]
        if all(s == 1 for s in value.shape[:ROOT_NDIM]):
            return value.reshape((1,) + vshape)
        return np.broadcast_to(value, box.shape + vshape).reshape((-1,) + vshape)
    if hasattr(value, "enter_space"):
        return value.enter_space(_BoxToList(box))
    return value


class _BoxToList:
    def __init__(self, box: BoxSpace) -> None:
        self.box = box

    def enter(self, value: Any) -> Any:
        return _to_list(value, self.box)


def merge(space: Space, parts: Sequence[tuple[Space, Any]], type_) -> Any:
    """One value of ``space`` from values of disjoint descendant spaces covering its lanes."""
    parts = [(s, v) for s, v in parts if s is not None]
    if len(parts) == 1 and parts[0][0] is space:
        return parts[0][1]
    sample = next((v for _, v in parts if not isinstance(v, (np.ndarray, Aff))), None)
    if sample is not None:
        first = parts[0][1]
        if all(v is first for _, v in parts):
            return first
        if isinstance(first, MemRef):
            return _merge_memrefs(space, parts, type_, merge)
        raise UnsupportedError(f"lanes diverge on a value of type {type_} the engine cannot "
                               "merge per lane")
    vshape = vector_shape(type_)
    dtype = storage(type_)
    out = np.zeros(space.shape + vshape, dtype=dtype)
    flat = out.reshape((-1,) + vshape)
    for s, v in parts:
        arr = s.array(v) if isinstance(v, Aff) else np.asarray(v)
        if s is space:
            out[...] = arr
            continue
        if s.parent is space:
            s.scatter(out, arr)
            continue
        pos = flat_in(s, space)
        flat[pos] = np.broadcast_to(arr, s.shape + vshape).reshape((-1,) + vshape)
    return out


# -- plans ---------------------------------------------------------------------------------------

class BlockPlan:
    """The steps of one block: ``(step, operands, results, op)``, then its terminator."""

    __slots__ = ("block", "steps", "term", "term_operands")

    def __init__(self, block: Block) -> None:
        self.block = block
        self.steps: list[tuple] = []
        self.term: Optional[Operation] = None
        self.term_operands: list[Value] = []


#: terminators the interpreter handles itself (they end a block rather than run as a step)
TERMINATORS = {"scf.yield", "scf.condition", "gpu.yield", "gpu.return", "func.return",
               "cf.br", "cf.cond_br", "cf.switch", "gpu.terminator", "scf.reduce",
               "scf.reduce.return", "memref.alloca_scope.return",
               "memref.atomic_yield", "vector.yield", "scf.forall.in_parallel",
               "gpu.all_reduce_yield", "async.yield", "affine.yield",
               "llvm.br", "llvm.cond_br", "llvm.switch", "llvm.return"}


class Compiler:
    """Lowers ops to steps once; ``block(b)`` returns the cached :class:`BlockPlan`."""

    def __init__(self, module: Operation) -> None:
        self.module = module
        self.plans: dict[Block, BlockPlan] = {}
        self.cache: dict[Any, Any] = {}

    def block(self, block: Block) -> BlockPlan:
        plan = self.plans.get(block)
        if plan is None:
            plan = self._compile(block)
            self.plans[block] = plan
        return plan

    def _compile(self, block: Block) -> BlockPlan:
        plan = BlockPlan(block)
        for op in block.ops:
            if op.name in TERMINATORS and op is block.ops[-1]:
                plan.term = op
                plan.term_operands = list(op.operands)
                continue
            lower = LOWERINGS.get(op.name)
            if lower is None:
                raise UnsupportedError(f"the CPU engine cannot run '{op.name}' yet",
                                       op=op.name, loc=loc_text(op))
            step = lower(op, self)
            if not getattr(step, "affine", False):
                step = _materializing(step)
            plan.steps.append((step, list(op.operands), list(op.results), op))
        return plan

    def live_ins(self, region: Region) -> dict[Block, list[Value]]:
        """Per block of a multi-block region: the values defined in the region's other blocks
        that the block (or a region nested in it) uses."""
        key = ("live_ins", region)
        hit = self.cache.get(key)
        if hit is None:
            defined: dict[Value, Block] = {}
            for b in region.blocks:
                for a in b.args:
                    defined[a] = b
                for op in b.ops:
                    for r in op.results:
                        defined[r] = b
            uses: dict[Block, set] = {}
            for b in region.blocks:
                used = set()
                for op in b.ops:
                    for o in op.walk():
                        for v in o.operands:
                            if defined.get(v, b) is not b:
                                used.add(v)
                uses[b] = used
            # live_in(B) = uses(B) | (live_out(B) - defs(B)); live_out(B) = U live_in(succ)
            live = {b: set(uses[b]) for b in region.blocks}
            changed = True
            while changed:
                changed = False
                for b in reversed(region.blocks):
                    term = b.ops[-1] if b.ops else None
                    out = set()
                    for succ in (term.successors if term is not None else ()):
                        out |= live[succ]
                    new = uses[b] | {v for v in out if defined.get(v) is not b}
                    if new != live[b]:
                        live[b] = new
                        changed = True
            hit = {b: sorted(live[b], key=id) for b in region.blocks}
            self.cache[key] = hit
        return hit

    def calls_functions(self, region: Region) -> bool:
        """Whether an op in ``region`` (nested ones included) calls a function."""
        key = ("calls", region)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = calls_functions([region])
        return hit

    def view_safe(self, op: Operation) -> bool:
        """Whether no op may write memory while ``op``'s results (or values derived from them)
        are live: a load may then return a view of the buffer instead of a copy."""
        key = ("view_safe", op)
        hit = self.cache.get(key)
        if hit is None:
            hit = self.cache[key] = _view_safe(op)
        return hit

    def region(self, region: Region) -> None:
        """Compile every block of ``region`` and the regions nested in it (reports unsupported
        ops before anything runs)."""
        for b in region.blocks:
            plan = self.block(b)
            for _, _, _, op in plan.steps:
                for r in op.regions:
                    self.region(r)
            if plan.term is not None:
                for r in plan.term.regions:
                    self.region(r)


#: ops that never write memory (besides these prefixes: arith., math., index.)
_PURE = frozenset({
    "memref.load", "memref.dim", "memref.rank", "memref.subview", "memref.cast",
    "memref.reinterpret_cast", "memref.view", "memref.expand_shape", "memref.collapse_shape",
    "memref.transpose", "memref.extract_strided_metadata", "memref.memory_space_cast",
    "memref.extract_aligned_pointer_as_index", "memref.get_global", "vector.load",
    "vector.maskedload", "vector.transfer_read", "vector.gather", "vector.broadcast",
    "vector.extract", "vector.insert", "vector.splat", "vector.from_elements", "vector.fma",
    "vector.reduction", "vector.shape_cast", "vector.bitcast", "vector.shuffle",
    "gpu.thread_id", "gpu.block_id", "gpu.block_dim", "gpu.grid_dim", "gpu.global_id",
    "gpu.lane_id", "gpu.subgroup_id", "gpu.subgroup_size", "gpu.num_subgroups",
    "gpu.cluster_id", "gpu.cluster_dim", "gpu.cluster_block_id", "gpu.cluster_dim_blocks",
    "gpu.barrier", "gpu.shuffle", "gpu.rotate", "gpu.broadcast_lane", "gpu.subgroup_reduce",
    "scf.yield", "scf.condition", "gpu.yield", "gpu.return"})


def _writes(op: Operation) -> bool:
    for o in op.walk():
        n = o.name
        if n in _PURE or n.startswith(("arith.", "math.", "index.")):
            continue
        if o.regions and n in ("scf.if", "scf.for", "scf.while", "scf.execute_region",
                               "scf.index_switch"):
            continue  # their nested ops are walked
        return True
    return False


def _uses(op: Operation, values: set) -> bool:
    return any(v in values for o in op.walk() for v in o.operands)


def _view_safe(load: Operation) -> bool:
    block = load.parent
    if block is None:
        return False
    ops = list(block.ops)
    i = ops.index(load)
    derived = set(load.results)
    last = i
    for j in range(i + 1, len(ops)):
        if _uses(ops[j], derived):
            if j == len(ops) - 1 and not ops[j].regions:
                return False  # escapes through the terminator
            derived.update(ops[j].results)
            last = j
    return not any(_writes(ops[j]) for j in range(i + 1, last)) and \
        not (last > i and ops[last].regions and _writes(ops[last]))


def _materializing(step: Callable) -> Callable:
    def run(ex, frame, args):
        if any(type(a) is Aff for a in args):
            space = frame.space
            args = [space.array(a) if type(a) is Aff else a for a in args]
        return step(ex, frame, args)
    run.inner = step
    return run


def affine(step: Callable) -> Callable:
    """Mark a step as taking :class:`Aff` arguments as they are (else they arrive as arrays)."""
    step.affine = True
    return step


class Exit:
    """How a block ended: ``kind`` is the terminator's name, ``values`` its operands' values,
    ``op`` the terminator, ``frame`` the frame it ran in."""

    __slots__ = ("kind", "values", "op", "frame")

    def __init__(self, kind: str, values: list, op: Optional[Operation], frame: Frame) -> None:
        self.kind, self.values, self.op, self.frame = kind, values, op, frame


class Executor:
    """Runs plans.  Subclassed by the kernel and host runtimes, which add their state (launch
    geometry, memory, streams); ops reach it as the ``ex`` argument of their steps."""

    max_loop_iterations = MAX_LOOP_ITERATIONS_DEFAULT

    def __init__(self, compiler: Compiler) -> None:
        self.compiler = compiler

    # -- running blocks and regions ------------------------------------------------------------

    def run_block(self, block: Block, frame: Frame) -> Exit:
        plan = self.compiler.block(block)
        vals = frame.vals
        get = frame.get
        for step, operands, results, op in plan.steps:
            args = [vals[v] if v in vals else get(v) for v in operands]
            try:
                out = step(self, frame, args)
            except LaneFault as fault:
                raise self.fault_error(op, frame.space, fault) from None
            except (LaunchError, KeyboardInterrupt):
                raise
            except FloatingPointError as e:  # pragma: no cover - numerics run with errstate
                raise self.fault_error(op, frame.space, LaneFault(str(e))) from None
            if results:
                for r, o in zip(results, out):
                    vals[r] = o
        term = plan.term
        if term is None:
            return Exit("", [], None, frame)
        return Exit(term.name, [get(v) for v in plan.term_operands], term, frame)

    def run_region(self, region: Region, frame: Frame, args: Sequence[Any] = (),
                   space: Optional[Space] = None) -> list[tuple[Space, Exit]]:
        """Run ``region`` with entry block arguments ``args``; returns the exits of its lane
        paths, ``(space, exit)`` (one unless ``cf`` branches diverged)."""
        space = space or frame.space
        entry = region.blocks[0]
        child = Frame(space, frame)
        for a, v in zip(entry.args, args):
            child.vals[a] = v
        if len(region.blocks) == 1:
            return [(space, self.run_block(entry, child))]
        return self._run_cfg(entry, child)

    def run_single(self, region: Region, frame: Frame, args: Sequence[Any] = (),
                   space: Optional[Space] = None) -> Exit:
        """Run a region whose lanes must leave it together (merging ``cf`` paths)."""
        exits = self.run_region(region, frame, args, space)
        if len(exits) == 1:
            return exits[0][1]
        target = space or frame.space
        op = exits[0][1].op
        types = [v.type for v in op.operands] if op is not None else []
        values = [merge(target, [(s, e.values[i]) for s, e in exits], types[i])
                  for i in range(len(types))]
        return Exit(exits[0][1].kind, values, op, Frame(target, frame))

    def _run_cfg(self, entry: Block, frame: Frame) -> list[tuple[Space, Exit]]:
        """Run a multi-block region.  Lanes that branch apart form paths; pending paths run
        lowest block first (in region order), and paths waiting at the same block merge there
        (reconvergence at joins and loop exits, so a barrier after a diamond sees whole blocks)."""
        done: list[tuple[Space, Exit]] = []
        blocks = entry.parent.blocks
        order = {b: k for k, b in enumerate(blocks)}
        livein = self.compiler.live_ins(entry.parent)
        pending: dict[Block, list[Frame]] = {entry: [frame]}
        under = frame.space

        def spawn(succ: Block, space: Space, fr: Frame, args: list) -> None:
            # a fresh frame below the region's entry frame, holding the values of earlier
            # blocks that ``succ`` uses (so loops do not chain frames without end)
            nxt = Frame(space, frame)
            for v in livein[succ]:
                x = fr.get(v)
                nxt.vals[v] = x if fr.space is space else convert(x, fr.space, space)
            _bind(nxt, succ, args)
            pending.setdefault(succ, []).append(nxt)

        visits = 0
        repeat = RepeatCheck(not self.compiler.calls_functions(entry.parent))
        while pending:
            block = min(pending, key=order.__getitem__)
            frames = pending.pop(block)
            fr = frames[0] if len(frames) == 1 else \
                _merge_paths(block, frames, under, livein[block], frame)
            visits += 1
            if visits > self.max_loop_iterations:
                raise UndefinedBehaviorError("branches ran more than "
                                             f"{self.max_loop_iterations} blocks (runaway loop?)")
            if visits >= FIRST_CHECK:
                # where the loop stands: this block, and the paths waiting at others (they
                # wait unchanged while this path loops)
                place = (block,) + tuple(x for b, frs in pending.items() for x in (b, *frs))
                stuck = repeat.at(visits, fr.space, list(fr.vals.values()), place)
                if stuck:
                    raise self.fault_error(block.ops[0] if block.ops else None, fr.space,
                                           LaneFault(stuck))
            ex = self.run_block(block, fr)
            kind = ex.kind
            if kind in ("cf.br", "llvm.br"):
                spawn(ex.op.successors[0], fr.space, fr, ex.values)
                continue
            if kind in ("cf.cond_br", "cf.switch", "llvm.cond_br", "llvm.switch"):
                for succ, mask, args in self._branch_targets(ex):
                    sub, conv = narrow(fr.space, mask, under) if mask is not None \
                        else (fr.space, (lambda v: v))
                    if sub is not None:
                        spawn(succ, sub, fr, [conv(a) for a in args])
                continue
            done.append((fr.space, ex))
        return done

    def _branch_targets(self, ex: Exit) -> list[tuple[Block, Any, list]]:
        op = ex.op
        space = ex.frame.space
        if op.name in ("cf.cond_br", "llvm.cond_br"):
            cond = space.array(ex.values[0])
            seg = op.segments or (1, 0, 0)
            t_args = ex.values[1:1 + seg[1]]
            f_args = ex.values[1 + seg[1]:]
            if cond.size == 1:
                taken = bool(cond.reshape(-1)[0])
                return [(op.successors[0] if taken else op.successors[1], None,
                         t_args if taken else f_args)]
            return [(op.successors[0], cond, t_args), (op.successors[1], ~cond, f_args)]
        # cf.switch / llvm.switch
        flag = space.array(ex.values[0])
        seg = op.segments
        default_n = seg[1] if seg else 0
        default_args = ex.values[1:1 + default_n]
        case_args_flat = ex.values[1 + default_n:]
        case_list = case_values(op.attributes.get("case_values"))
        sizes_attr = op.attributes.get("case_operand_segments")
        sizes = [int(x) for x in sizes_attr.value] if sizes_attr is not None else \
            [0] * len(case_list)
        out = []
        covered = np.zeros(flag.shape, dtype=bool)
        start = 0
        for k, value in enumerate(case_list):
            args = case_args_flat[start:start + sizes[k]]
            start += sizes[k]
            hit = (flag == value) & ~covered
            covered = covered | hit
            out.append((op.successors[k + 1], hit, args))
        out.insert(0, (op.successors[0], ~covered, default_args))
        if flag.size == 1:
            for succ, mask, args in out:
                if bool(np.asarray(mask).reshape(-1)[0]):
                    return [(succ, None, args)]
        return out

    # -- errors --------------------------------------------------------------------------------

    def describe_lane(self, space: Space, lane: Optional[tuple]) -> str:
        """Where a lane is, for diagnostics (overridden by the kernel runtime)."""
        return ""

    def fault_error(self, op: Operation, space: Space, fault: LaneFault) -> LaunchError:
        lane = fault.lane
        if lane is None and fault.bad is not None:
            bad = np.asarray(fault.bad, dtype=bool)
            if bad.ndim > space.ndim:
                bad = bad.any(axis=tuple(range(space.ndim, bad.ndim)))
            if bad.ndim < space.ndim:
                bad = bad.reshape((1,) * (space.ndim - bad.ndim) + bad.shape)
            hits = np.flatnonzero(np.broadcast_to(bad, space.shape))
            if hits.size:
                lane = np.unravel_index(int(hits[0]), space.shape)
        where = self.describe_lane(space, lane) if lane is not None else ""
        if lane is None and fault.bad is None and space.size > 1:
            # a fault of every lane alike: name the first thread as an example
            first = self.describe_lane(space, np.unravel_index(0, space.shape))
            where = f"every thread (first: {first})" if first else ""
        message = fault.message
        if message.startswith(op.name + " "):     # (the diagnostic names the op already)
            message = message[len(op.name) + 1:]
        if fault.index is not None and len(fault.index) > 1:
            message += " (index [" + ", ".join(str(int(i)) for i in fault.index) + "])"
        if where:
            message += "; " + where
        kind = fault.kind
        return kind(message, op=op.name, loc=loc_text(op))


_INDEX = None


def _merge_memrefs(target: Space, parts, type_, how: Callable) -> "MemRef":
    """Per-lane memref descriptors of one buffer merged field by field."""
    global _INDEX
    if _INDEX is None:
        from ...ir.types import type_from_text
        _INDEX = type_from_text("index")
    refs = [v for _, v in parts]
    if any(not isinstance(r, MemRef) or r.buffer is not refs[0].buffer for r in refs):
        raise UnsupportedError(f"lanes hold memrefs of different buffers ({type_}); the engine "
                               "cannot merge them per lane")

    def field(get):
        vals = [get(r) for r in refs]
        if all(isinstance(x, (int, np.integer)) for x in vals) and len(set(map(int, vals))) == 1:
            return int(vals[0])
        spaced = [(s, x if isinstance(x, (np.ndarray, Aff)) else s.uniform(x, np.int64))
                  for (s, _), x in zip(parts, vals)]
        return how(target, spaced, _INDEX)
    rank = refs[0].rank
    return MemRef(refs[0].buffer, field(lambda r: r.offset),
                  [field(lambda r, k=k: r.sizes[k]) for k in range(rank)],
                  [field(lambda r, k=k: r.strides[k]) for k in range(rank)], refs[0].type)


def merge_into(target: Space, parts: Sequence[tuple[Space, Any]], type_) -> Any:
    """Merge values of disjoint spaces (children of ``target``'s parent, or of ``target``)
    into ``target``, whose lanes are their union."""
    first = parts[0][1]
    if not isinstance(first, (np.ndarray, Aff)):
        if all(v is first for _, v in parts):
            return first
        if isinstance(first, MemRef):
            return _merge_memrefs(target, parts, type_, merge_into)
        raise UnsupportedError(f"paths reconverge with different values of type {type_} the "
                               "engine cannot merge per lane")
    root = target.root
    tflat = flat_in(target, root) if target is not root else None
    vshape = vector_shape(type_)
    out = np.zeros(target.shape + vshape, dtype=storage(type_))
    flat = out.reshape((-1,) + vshape)
    for s, v in parts:
        arr = s.array(v) if isinstance(v, Aff) else np.asarray(v)
        pos = flat_in(s, root) if tflat is None else np.searchsorted(tflat, flat_in(s, root))
        flat[pos] = np.broadcast_to(arr, s.shape + vshape).reshape((-1,) + vshape)
    return out


def _merge_paths(block: Block, frames: list[Frame], under: Space, livein: Sequence[Value],
                 parent: Frame) -> Frame:
    """One frame for several paths waiting at ``block`` (their lanes are disjoint)."""
    root = under.root
    flats = [flat_in(f.space, root) for f in frames]
    union = np.sort(np.concatenate(flats))
    if union.size == under.size:
        space = under
    else:
        pos = union if under is root else np.searchsorted(flat_in(under, root), union)
        space = ListSpace(under, flat=pos)
    merged = Frame(space, parent)
    for v in list(block.args) + list(livein):
        merged.vals[v] = merge_into(space, [(f.space, f.vals[v]) for f in frames], v.type)
    return merged


def _bind(frame: Frame, block: Block, values: Sequence[Any]) -> None:
    for a, v in zip(block.args, values):
        frame.vals[a] = v
