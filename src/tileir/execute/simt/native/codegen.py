"""A SIMT kernel as C: each block's threads run one after another between barriers.

A kernel whose barriers sit only where every thread of its block reaches them together (in the
kernel's body or in ``scf.for`` / ``scf.if`` ops with block-uniform bounds and conditions) is a
sequence of *runs* (barrier-free stretches) separated by barriers.  Each run becomes a C loop over
the block's threads; values a thread computes in one run and reads in another are kept in
per-thread arrays ("spills"); values that are the same for every thread of the block (ids of the
block, its sizes, constants, uniform loop counters) are computed once per block.  For a program
without data races between two barriers (the only programs whose result a GPU defines), running
one thread's stretch after another gives what running them in lock step gives.

Only what this module can translate exactly is accepted (:func:`generate` raises
:class:`NotNative` naming the first op or type it cannot take): integers (i1 to i64, index) with
arith's wrap-around, f32/f64 IEEE arithmetic rounded once (f16/bf16: in f32, then rounded once;
C with ``-ffp-contract=off``, no fast math), loads and stores of memref arguments and
workgroup/private attributions, order-free integer ``memref.atomic_rmw`` (old value unused),
``scf.for`` / ``scf.if`` / ``scf.while`` (barriers only in the first two), ``cf`` branches and
asserts (bodies of several blocks, without barriers: :meth:`_Gen.generate_branches`), the gpu
id ops (scalar ops: :mod:`.c_scalar`; C types and the
helpers every kernel includes: :mod:`.c_types`).  Everything that is undefined behaviour in
arith or memref (an index out of bounds, a division by zero, an out-of-range float to integer
conversion, a shift by the bit width or more, a non-positive loop step) or that the lane engine
reports (a loop past its iteration limit) makes the kernel return a non-zero code: the launcher
then restores the memory it wrote and runs the lane engine, which reports it (:mod:`.launcher`).
"""

from __future__ import annotations

from typing import Optional

from ....ir.core import Operation, Region, Value
from ..interp import MAX_LOOP_ITERATIONS_DEFAULT
from ..ops.memref import ATOMIC_KINDS
from ..values import element_name
from .c_scalar import (BLOCK_IDS, CMPI, FLOAT_BINARY, FLOAT_CALLS, INT_BINARY, MATH_UNARY,
                       THREAD_IDS, ScalarOps)
from .c_types import (BITS, CTYPE, ERR_BOUNDS, ERR_UB, FLOATS, HALVES, PRELUDE, UTYPE,
                      KernelSource, NotNative, ParamSpec, elem_of, is_memref)

__all__ = ["NotNative", "KernelSource", "ParamSpec", "generate", "generate_launch_body"]

#: ops whose result depends only on their operands (computed once per block when those are
#: the same for every thread of it)
_PURE_PREFIXES = ("arith.", "math.")

#: atomic_rmw kinds whose final memory does not depend on the order of the threads (integer
#: ops that commute and associate, with wrap-around); the old value must be unused
_ORDER_FREE_ATOMICS = ("addi", "muli", "andi", "ori", "xori", "maxs", "maxu", "mins", "minu")
#: the terminators of a kernel's body (a gpu.func's, a gpu.launch's)
_ENDS = ("gpu.return", "gpu.terminator")
#: ops that cannot fail, recomputed in a later run rather than stored per thread
_RECOMPUTABLE = {"arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori",
                 "arith.xori", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui",
                 "arith.cmpi", "arith.select", "arith.index_cast", "arith.index_castui",
                 "arith.extsi", "arith.extui", "arith.trunci", "arith.constant",
                 "memref.dim"}
class _Gen(ScalarOps):
    """The translation of one kernel body for one block shape."""

    def __init__(self, body: Region, inputs: list[Value], workgroup: list[Value],
                 private: list[Value], ids: dict[Value, tuple[str, bool]],
                 block: tuple[int, int, int], unit_stride: tuple[bool, ...]) -> None:
        self.body = body
        self.entry = body.blocks[0]
        #: what the C function receives (inputs) or carves from scratch (attributions),
        #: numbered as ``a0, a1, ...`` in that order
        self.slots = list(inputs) + list(workgroup) + list(private)
        self.index_of = {v: i for i, v in enumerate(self.slots)}
        self.n_in, self.n_wg = len(inputs), len(workgroup)
        #: a gpu.launch body's id arguments: C expression, and whether it differs per thread
        self.ids = ids
        self.block = block
        self.nt = block[0] * block[1] * block[2]
        self.unit_stride = unit_stride
        self.names: dict[Value, str] = {}
        self.lines: list[str] = []
        self.counter = 0
        self.uniform: set[Value] = set()
        self.memrefs: dict[Value, tuple[str, str, int]] = {}   # value -> (prefix, elem, rank)
        self.static_sizes: dict[Value, tuple] = {}
        self.spilled: dict[Value, str] = {}    # thread value -> per-thread array name
        self.arrays: dict[Value, str] = {}     # per-thread loop-carried / if results
        self.run_of: dict[Operation, int] = {}
        self.def_run: dict[Value, int] = {}
        self.scratch: list[tuple[str, str, int]] = []   # (name, ctype, elements)
        self.reads: set[int] = set()
        self.writes: set[int] = set()
        self.barrier_ops: set[Operation] = set()
        self.current_run: Optional[int] = None
        self.zero: list[tuple[str, int]] = []          # (scratch pointer, bytes) zeroed per block
        #: private attributions (one copy per thread)
        self.private: set[Value] = set(private)
        self.scratch_bytes = 0
        self.remat_in: dict[int, list[Value]] = {}     # run -> values it computes again
        self.remat_names: dict[tuple, str] = {}
        #: accesses whose bounds a run checked before its loop over the threads
        self.prechecked: set[Operation] = set()
        self._thread_depth = (0, 0)

    # -- analysis ---------------------------------------------------------------------------

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"{stem}{self.counter}"

    def check_ops(self) -> None:
        """Refuse what cannot be translated; find the ops that hold a barrier."""
        kernel = self.body.parent
        for op in (o for block in self.body.blocks for o in block.ops):
            for o in op.walk():
                self._check_op(o)
                if o.name == "gpu.barrier":
                    p: Optional[Operation] = o
                    while p is not None and p is not kernel:
                        self.barrier_ops.add(p)
                        p = p.parent_op
        for op in self.barrier_ops:
            if op.name not in ("gpu.barrier", "scf.for", "scf.if"):
                raise NotNative(f"a barrier inside '{op.name}'")

    def _check_op(self, op: Operation) -> None:
        name = op.name
        if name in ("gpu.barrier", "gpu.return", "gpu.terminator", "scf.yield"):
            if name in _ENDS and (op.operands or op.parent_op is not self.body.parent):
                raise NotNative(f"'{name}' inside a nested region")
            if name == "gpu.barrier" and op.attributes:
                raise NotNative("gpu.barrier with memory fences")
            return
        if name in BLOCK_IDS or name in THREAD_IDS:
            if "upper_bound" in op.attributes:
                raise NotNative(f"'{name}' with an upper_bound")
            return
        if name in ("scf.for", "scf.if", "scf.while"):
            if any(len(r.blocks) > 1 for r in op.regions):
                raise NotNative(f"'{name}' with several blocks")
        elif name in ("scf.condition", "cf.assert"):
            pass
        elif name in ("cf.br", "cf.cond_br"):
            if op.parent_op is not self.body.parent:
                raise NotNative(f"'{name}' inside a nested region")
        elif name == "memref.atomic_rmw":
            kind = ATOMIC_KINDS[int(op.attributes["kind"].value)]
            if kind not in _ORDER_FREE_ATOMICS or op.results[0].has_uses or \
                    element_name(op.results[0].type) not in ("i32", "i64", "index"):
                raise NotNative(f"'memref.atomic_rmw {kind}' on "
                                f"{element_name(op.results[0].type)}"
                                f"{' whose old value is used' if op.results[0].has_uses else ''}"
                                " (its result would depend on the order of the threads)")
            if op.operands[1] not in self.index_of:
                raise NotNative("'memref.atomic_rmw' of a memref that is not a kernel argument "
                                "or attribution")
        elif name in ("memref.load", "memref.store", "memref.dim"):
            ref = op.operands[0 if name != "memref.store" else 1]
            if name == "memref.dim":
                k = op.operands[1].owner_op if type(op.operands[1]).__name__ == "OpResult" \
                    else None
                if k is None or k.name != "arith.constant" or \
                        not 0 <= int(k.attributes["value"].value) < len(ref.type.shape):
                    raise NotNative("memref.dim of an index that is not a constant in range")
            if ref not in self.index_of:
                raise NotNative(f"'{name}' of a memref that is not a kernel argument or "
                                "attribution")
            if element_name(ref.type) not in CTYPE:
                raise NotNative(f"memrefs of {element_name(ref.type)}")
        elif name == "arith.constant":
            if type(op.results[0].type).__name__ == "VectorType":
                raise NotNative("vector constants")
        elif name in INT_BINARY or name in FLOAT_BINARY or name in FLOAT_CALLS or \
                name in MATH_UNARY or name in ("arith.cmpi", "arith.cmpf", "arith.select",
                                                "arith.negf", "arith.extf", "arith.truncf",
                                                "arith.sitofp", "arith.uitofp", "arith.fptosi",
                                                "arith.fptoui", "arith.extsi", "arith.extui",
                                                "arith.trunci", "arith.index_cast",
                                                "arith.index_castui", "math.fma"):
            if name in ("arith.truncf", "arith.extf") and "roundingmode" in op.attributes:
                raise NotNative(f"'{name}' with a rounding mode")
            types = {element_name(v.type) for v in list(op.operands) + list(op.results)}
            if types & set(HALVES) and (
                    name in ("math.fma", "arith.sitofp", "arith.uitofp", "arith.fptosi",
                             "arith.fptoui") or
                    name == "arith.truncf" and element_name(op.operands[0].type) != "f32"):
                raise NotNative(f"'{name}' on {'/'.join(sorted(types & set(HALVES)))} "
                                "(would round twice through f32)")
            if name in ("arith.shli", "arith.shrsi", "arith.shrui", "arith.divsi", "arith.divui",
                        "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi",
                        "arith.ceildivui", "arith.fptosi", "arith.fptoui") and \
                    element_name(op.results[0].type) == "i1":
                raise NotNative(f"'{name}' on i1")
        else:
            raise NotNative(f"'{name}'")
        for v in list(op.operands) + list(op.results):
            if not is_memref(v):
                elem_of(v)
        if name.startswith("arith.") and any(element_name(v.type) in FLOATS for v in op.results) \
                and "roundingmode" in op.attributes:
            raise NotNative(f"'{name}' with a rounding mode")

    def find_uniform(self) -> None:
        """The values every thread of a block computes alike (a fixpoint over the loop-carried
        values of barrier loops, optimistic at first)."""
        demoted: set[Value] = set()
        while True:
            # (arguments and attributions, scalars and memrefs alike; block-level ids)
            self.uniform = set(self.slots) | {v for v, (_, per_thread) in self.ids.items()
                                              if not per_thread}
            changed = self._uniform_seq(self.entry.ops, demoted)
            if not changed:
                return

    def _uniform_seq(self, ops, demoted: set) -> bool:
        changed = False
        for op in ops:
            if op in self.barrier_ops:
                if op.name == "scf.for":
                    lb, ub, st = op.operands[:3]
                    body = op.regions[0].blocks[0]
                    if all(x in self.uniform for x in (lb, ub, st)):
                        self.uniform.add(body.args[0])
                    for init, arg, res in zip(op.operands[3:], body.args[1:], op.results):
                        if init in self.uniform and arg not in demoted:
                            self.uniform.update((arg, res))
                    changed |= self._uniform_seq(body.ops, demoted)
                    y = body.terminator
                    for arg, res, v in zip(body.args[1:], op.results, y.operands):
                        if arg in self.uniform and v not in self.uniform:
                            demoted.add(arg)
                            changed = True
                elif op.name == "scf.if":
                    yields = []
                    for r in op.regions:
                        if r.blocks:
                            changed |= self._uniform_seq(r.blocks[0].ops, demoted)
                            yields.append(r.blocks[0].terminator.operands)
                    for i, res in enumerate(op.results):
                        if all(y[i] in self.uniform for y in yields):
                            self.uniform.add(res)
                continue
            if op.name in BLOCK_IDS or op.name == "arith.constant" or \
                    ((op.name.startswith(_PURE_PREFIXES) or op.name == "memref.dim") and
                     not op.regions and
                     op.operands and all(x in self.uniform for x in op.operands)):
                self.uniform.update(op.results)
        return changed

    def assign_runs(self, ops, counter: list) -> None:
        """Number the barrier-free stretches of uniform-level ``ops`` (recursively)."""
        for op in ops:
            if op in self.barrier_ops:
                counter[0] += 1
                for r in op.regions:
                    for b in r.blocks:
                        self.assign_runs(b.ops, counter)
                        counter[0] += 1
                continue
            if op.name == "scf.yield" or op.name in _ENDS:
                counter[0] += 1
                continue
            if all(r in self.uniform for r in op.results) and op.results and not op.regions:
                continue
            self.run_of[op] = counter[0]
            for r in op.results:
                self.def_run[r] = counter[0]

    def _top(self, op: Operation) -> Operation:
        """The uniform-level op that is or holds ``op``."""
        while True:
            parent = op.parent_op
            if parent is None or parent is self.body.parent or parent in self.barrier_ops:
                return op
            op = parent

    def find_spills(self) -> None:
        """Thread values read in another run: recomputed there where that is cheap and safe
        (:meth:`recomputable`: thread ids and arithmetic on them), else kept per thread."""
        for v, run in self.def_run.items():
            if v in self.uniform:
                continue
            foreign = [self.run_of.get(self._top(user)) for user, _ in v.uses]
            foreign = [r for r in foreign if r != run]
            if not foreign:
                continue
            if None not in foreign and self.recomputable(v):
                for r in foreign:
                    self.remat_in.setdefault(r, []).append(v)
            else:
                self.spilled[v] = self.per_thread_array(v)

    def recomputable(self, v: Value, depth: int = 0) -> bool:
        """Whether ``v`` is a thread id, or arithmetic that cannot fail on recomputable and
        uniform values (so any run can compute it again instead of storing it)."""
        if v in self.uniform or v in self.ids:
            return True
        op = v.owner_op if type(v).__name__ == "OpResult" else None
        if op is None or depth > 8 or op not in self.run_of:
            return False
        if op.name in THREAD_IDS:
            return True
        if op.name not in _RECOMPUTABLE:
            return False
        return all(self.recomputable(x, depth + 1) for x in op.operands)

    def recompute(self, v: Value, depth: int) -> None:
        """Emit ``v`` (and what it needs) again in the current run."""
        key = (self.current_run, v)
        if v in self.uniform or v in self.ids or key in self.remat_names:
            return
        op = v.owner_op
        for x in op.operands:
            self.recompute(x, depth)
        name = self.fresh()
        expr = self.expr(op, depth)
        self.emit(f"const {CTYPE[elem_of(v)]} {name} = {expr};", depth)
        self.remat_names[key] = name

    def per_thread_array(self, v: Value) -> str:
        name = self.fresh("s")
        self.scratch.append((name, CTYPE[elem_of(v)], self.nt))
        return name

    # -- emission ---------------------------------------------------------------------------

    def emit(self, text: str, depth: int) -> None:
        self.lines.append("  " * depth + text)

    def ref(self, v: Value) -> str:
        remat = self.remat_names.get((self.current_run, v))
        if remat is not None:
            return remat
        if v in self.arrays:
            return f"{self.arrays[v]}[tl]"
        if v in self.spilled and self.def_run.get(v) != self.current_run:
            return f"{self.spilled[v]}[tl]"
        name = self.names.get(v)
        if name is None:
            raise NotNative(f"internal: value of type {v.type} used before its definition")
        return name

    def define(self, v: Value, expr: str, depth: int) -> None:
        name = self.fresh()
        self.names[v] = name
        self.emit(f"const {CTYPE[elem_of(v)]} {name} = {expr};", depth)
        if v in self.spilled and self.current_run is not None:
            self.emit(f"{self.spilled[v]}[tl] = {name};", depth)

    def generate(self) -> str:
        self.check_ops()
        if len(self.body.blocks) > 1:
            return self.generate_branches()
        self.find_uniform()
        for op in self.barrier_ops:
            if op.name == "scf.for" and not all(x in self.uniform for x in op.operands[:3]):
                raise NotNative("a barrier in an scf.for whose bounds may differ between the "
                                "threads of a block")
            if op.name == "scf.if" and op.operands[0] not in self.uniform:
                raise NotNative("a barrier in an scf.if whose condition may differ between "
                                "the threads of a block")
        self.assign_runs(self.entry.ops, [0])
        self.find_spills()
        args = self.slots
        for i, a in enumerate(args):
            self.names[a] = f"a{i}"
        for v, (expr, _) in self.ids.items():
            self.names[v] = expr
        body: list[str] = []
        self.lines = body
        self.uniform_seq(self.entry.ops, 2)
        head = self.header(args)
        return "\n".join([PRELUDE] + head + body + ["  }", "  return 0;", "}", ""])

    def generate_branches(self) -> str:
        """A body of several blocks (``cf`` branches, no barriers): each thread runs it
        whole, its blocks as labels in reverse post-order (every block after the blocks that
        dominate it, so each value is declared before it is used), block arguments as
        variables, each branch counted against the lane engine's iteration limit."""
        if self.barrier_ops:
            raise NotNative("a barrier in a kernel body of several blocks (cf branches)")
        self.uniform = set(self.slots) | {v for v, (_, t) in self.ids.items() if not t}
        for i, a in enumerate(self.slots):
            self.names[a] = f"a{i}"
        for v, (expr, _) in self.ids.items():
            self.names[v] = expr
        self.lines = body = []
        self.current_run = 0
        d = self.open_threads(2)
        order = _reverse_post_order(self.entry)
        for block in order[1:]:
            for a in block.args:
                name = self.fresh("b")
                self.emit(f"{CTYPE[elem_of(a)]} {name};", d)
                self.names[a] = name
        count = self.fresh("it")
        self.emit(f"uint64_t {count} = 0;", d)
        labels = {block: self.fresh("L") for block in order}
        end = self.fresh("L")
        for block in order:
            self.emit(f"{labels[block]}: ;", d)
            for op in block.ops[:-1]:
                self.op(op, d)
            self.branch(block.terminator, labels, end, count, d)
        self.emit(f"{end}: ;", d)
        self.close_threads(d)
        self.current_run = None
        head = self.header(self.slots)
        return "\n".join([PRELUDE] + head + body + ["  }", "  return 0;", "}", ""])

    def branch(self, op: Operation, labels: dict, end: str, count: str, depth: int) -> None:
        """A block's terminator: ``goto`` with the successor's arguments assigned."""
        if op.name in _ENDS:
            self.emit(f"goto {end};", depth)
            return
        if op.name not in ("cf.br", "cf.cond_br"):
            raise NotNative(f"'{op.name}' ending a block")
        self.emit(f"if (++{count} > {MAX_LOOP_ITERATIONS_DEFAULT}ull) TL_FAIL({ERR_UB});", depth)
        if op.name == "cf.br":
            target = op.successors[0]
            self.assign([self.names[a] for a in target.args], op.operands, depth)
            self.emit(f"goto {labels[target]};", depth)
            return
        seg = op.segments or (1, 0, 0)
        true_args = op.operands[1:1 + seg[1]]
        false_args = op.operands[1 + seg[1]:]
        self.emit(f"if ({self.ref(op.operands[0])}) {{", depth)
        for k, (target, values) in enumerate(zip(op.successors, (true_args, false_args))):
            if k == 1:
                self.emit("} else {", depth)
            self.assign([self.names[a] for a in target.args], values, depth + 1)
            self.emit(f"goto {labels[target]};", depth + 1)
        self.emit("}", depth)

    def header(self, args) -> list[str]:
        bx, by, bz = self.block
        out = ["int64_t tileir_kernel(const int64_t *P, char *scratch, int64_t b0, int64_t b1,"
               " int64_t *err) {",
               "  const int64_t gx = P[0], gy = P[1];",
               f"  enum {{ BX = {bx}, BY = {by}, BZ = {bz}, NT = {self.nt} }};"]
        slot = 3
        off = 0
        for i, a in enumerate(args):
            if is_memref(a):
                elem = element_name(a.type)
                ct = CTYPE[elem]
                rank = len(a.type.shape)
                if i < self.n_in:
                    out.append(f"  {ct} *const a{i}_p = ({ct} *)(intptr_t)P[{slot}];")
                    slot += 1
                    for k in range(rank):
                        out.append(f"  const int64_t a{i}_n{k} = P[{slot + k}];")
                    for k in range(rank):
                        unit = k == rank - 1 and self.unit_stride[i]
                        out.append(f"  const int64_t a{i}_s{k} = "
                                   f"{'1' if unit else f'P[{slot + rank + k}]'};")
                    slot += 2 * rank
                else:
                    shape = [int(s) for s in a.type.shape]
                    size = 1
                    for s in shape:
                        size *= s
                    private = i >= self.n_in + self.n_wg
                    per_block = size * (self.nt if private else 1)
                    nbytes = per_block * BITS[elem] // 8 if elem != "i1" else per_block
                    off = -(-off // 64) * 64
                    out.append(f"  {ct} *const a{i}_base = ({ct} *)(scratch + {off});")
                    self.zero.append((f"a{i}_base", nbytes))
                    off += nbytes
                    for k, s in enumerate(shape):
                        out.append(f"  const int64_t a{i}_n{k} = {s};")
                    stride = 1
                    strides = []
                    for s in reversed(shape):
                        strides.append(stride)
                        stride *= s
                    for k, s in enumerate(reversed(strides)):
                        out.append(f"  const int64_t a{i}_s{k} = {s};")
                    if not private:
                        out.append(f"  {ct} *const a{i}_p = a{i}_base;")
            else:
                elem = elem_of(a)
                ct = CTYPE[elem]
                if elem == "f32":
                    out.append(f"  const float a{i} = tl_f32((uint32_t)P[{slot}]);")
                elif elem == "f64":
                    out.append(f"  const double a{i} = tl_f64((uint64_t)P[{slot}]);")
                else:
                    out.append(f"  const {ct} a{i} = ({ct})P[{slot}];")
                slot += 1
        for name, ct, n in self.scratch:
            off = -(-off // 64) * 64
            out.append(f"  {ct} *const {name} = ({ct} *)(scratch + {off});")
            off += n * 8
        self.scratch_bytes = off
        out.append("  for (int64_t b = b0; b < b1; b++) {")
        out.append("    const int64_t bx = b % gx, by = (b / gx) % gy, bz = b / (gx * gy);")
        for base, nbytes in self.zero:
            out.append(f"    memset({base}, 0, {nbytes});")
        return out

    # the uniform level -----------------------------------------------------------------------

    def uniform_seq(self, ops, depth: int) -> None:
        pending: list[Operation] = []
        for op in ops:
            if op in self.barrier_ops or op.name == "scf.yield" or op.name in _ENDS:
                self.flush(pending, depth)
                pending = []
                if op.name == "scf.for":
                    self.uniform_for(op, depth)
                elif op.name == "scf.if":
                    self.uniform_if(op, depth)
                continue        # (gpu.barrier: the end of a run is the barrier; yields: caller)
            if op not in self.run_of:
                self.current_run = None
                self.op(op, depth)
            else:
                pending.append(op)
        self.flush(pending, depth)

    def flush(self, ops: list[Operation], depth: int) -> None:
        if not ops:
            return
        self.current_run = self.run_of[ops[0]]
        guard = self.thread_guard(ops)
        x_range = ("0", "BX")
        if guard is not None:       # only the threads the guard admits run the run
            cond, lo, hi = guard
            self.emit(f"const int64_t {cond}_lo = {lo}, {cond}_hi = {hi};", depth)
            x_range = (f"{cond}_lo", f"{cond}_hi")
            ops = list(ops[-1].regions[0].blocks[0].ops[:-1])
        self.check_ranges(ops, x_range, depth)
        depth = self.open_threads(depth, x_range if guard is not None else None)
        for v in self.remat_in.get(self.current_run, ()):
            self.recompute(v, depth)
        for op in ops:
            self.op(op, depth)
        self.close_threads(depth)
        self.current_run = None

    def check_ranges(self, ops: list[Operation], x_range: tuple[str, str], depth: int) -> None:
        """Bounds checks of a run's unconditional accesses (ops at the run's top level, which
        every thread of the run executes) whose indices are affine in the thread ids, done
        once before the loop over the threads, on the range of each index (in 128-bit
        arithmetic: no overflow); the loop then has no early exits and vectorises."""
        ranges = {"tx": x_range, "ty": ("0", "BY"), "tz": ("0", "BZ")}
        for op in ops:
            if op.name not in ("memref.load", "memref.store"):
                continue
            ref = op.operands[0 if op.name == "memref.load" else 1]
            idx = op.operands[1:] if op.name == "memref.load" else op.operands[2:]
            forms = [self.affine(x) for x in idx]
            if any(f is None for f in forms):
                continue
            i = self.index_of[ref]
            lo, hi = ranges["tx"]
            conds = []
            for k, (const, coef) in enumerate(forms):
                low, high = [f"(__int128)({const})"], [f"(__int128)({const})"]
                for t, c in coef.items():
                    first, end = ranges[t]
                    a, b = f"(__int128){c} * ({first})", f"(__int128){c} * (({end}) - 1)"
                    low.append(a if c > 0 else b)
                    high.append(b if c > 0 else a)
                conds.append(f"({' + '.join(low)}) < 0 || ({' + '.join(high)}) >= "
                             f"(__int128)a{i}_n{k}")
            self.emit(f"if (({lo}) < ({hi}) && ({' || '.join(conds) or '0'})) "
                      f"TL_FAIL({ERR_BOUNDS});", depth)
            self.prechecked.add(op)

    def affine(self, v: Value, depth: int = 0) -> Optional[tuple[str, dict]]:
        """``v`` as ``(uniform C expression, {thread axis: integer coefficient})`` when it is
        the sum of a block-uniform index and constant multiples of thread ids, else None."""
        if elem_of(v) != "index" or depth > 8:
            return None
        if v in self.uniform:
            return self.ref(v), {}
        if v in self.ids:
            expr, per_thread = self.ids[v]
            return (None if not per_thread or expr not in ("tx", "ty", "tz")
                    else ("0", {expr: 1}))
        op = v.owner_op if type(v).__name__ == "OpResult" else None
        if op is None:
            return None
        if op.name in ("gpu.thread_id", "gpu.global_id") and "upper_bound" not in op.attributes:
            axis = op.attributes["dimension"].keyword
            base = "0" if op.name == "gpu.thread_id" else f"(b{axis} * B{axis.upper()})"
            return base, {"t" + axis: 1}
        if op.name in ("arith.addi", "arith.subi"):
            a, b = (self.affine(x, depth + 1) for x in op.operands)
            if a is None or b is None:
                return None
            sign = 1 if op.name == "arith.addi" else -1
            coef = dict(a[1])
            for t, c in b[1].items():
                coef[t] = coef.get(t, 0) + sign * c
            return f"({a[0]}) {'+' if sign > 0 else '-'} ({b[0]})", \
                {t: c for t, c in coef.items() if c}
        if op.name == "arith.muli":
            for x, y in (op.operands, op.operands[::-1]):
                k = x.owner_op if type(x).__name__ == "OpResult" else None
                if k is not None and k.name == "arith.constant":
                    f = self.affine(y, depth + 1)
                    if f is None:
                        return None
                    c = int(k.attributes["value"].value)
                    coef = {t: c * n for t, n in f[1].items() if c * n}
                    if any(abs(n) >= 1 << 62 for n in coef.values()):
                        return None
                    return f"({f[0]}) * {c}", coef
            return None
        return None

    def thread_guard(self, ops: list[Operation]) -> Optional[tuple[str, str, str]]:
        """A run that is one ``scf.if`` (no else, no results) on ``tid.x <pred> u`` (``u``
        block-uniform, a 1-D block): the range ``[lo, hi)`` of ``tid.x`` it admits, as C
        expressions (the tree reduction's ``tid < s``, the ``tid == 0`` of a block's result)."""
        if self.block[1:] != (1, 1) or len(ops) != 2:
            return None
        cmp, branch = ops
        if cmp.name != "arith.cmpi" or branch.name != "scf.if" or branch.results or \
                branch.operands[0] is not cmp.results[0] or len(cmp.results[0].uses) != 1 or \
                (len(branch.regions) > 1 and branch.regions[1].blocks) or \
                elem_of(cmp.operands[0]) != "index":
            return None
        pred = CMPI[int(cmp.attributes["predicate"].value)]
        x, u = cmp.operands
        if not self._is_thread_x(x):
            x, u = u, x
            pred = {"ugt": "ult", "sgt": "slt", "uge": "ule", "sge": "sle", "eq": "eq"}.get(pred)
        if pred not in ("ult", "slt", "ule", "sle", "eq") or not self._is_thread_x(x) or \
                u not in self.uniform:
            return None
        name = self.fresh("g")
        u = self.ref(u)
        inside = f"((uint64_t){u} < (uint64_t)BX)"
        if pred == "eq":
            return name, f"({inside} ? {u} : 0)", f"({inside} ? {u} + 1 : 0)"
        end = f"{u} + 1" if pred in ("ule", "sle") else u
        hi = f"({inside} ? {end} : BX)"
        return name, "0", hi if pred[0] == "u" else f"({u} < 0 ? 0 : {hi})"

    def _is_thread_x(self, v: Value) -> bool:
        if v in self.ids:
            return self.ids[v] == ("tx", True)
        op = v.owner_op if type(v).__name__ == "OpResult" else None
        return op is not None and op.name == "gpu.thread_id" and \
            op.attributes["dimension"].keyword == "x"

    def open_threads(self, depth: int, x_range: Optional[tuple[str, str]] = None) -> int:
        """Open the loop over a block's threads (``x_range``: only ``tid.x`` in ``[lo, hi)``)."""
        bx, by, bz = self.block
        self.emit("{", depth)
        d = depth + 1
        for axis, n in (("tz", bz), ("ty", by), ("tx", bx)):
            if axis == "tx" and x_range is not None:
                self.emit(f"for (int64_t tx = {x_range[0]}; tx < {x_range[1]}; tx++) {{", d)
                d += 1
            elif n == 1:
                self.emit(f"const int64_t {axis} = 0;", d)
            else:
                self.emit(f"for (int64_t {axis} = 0; {axis} < {n}; {axis}++) {{", d)
                d += 1
        self.emit("const int64_t tl = (tz * BY + ty) * BX + tx; (void)tl;", d)
        self._thread_depth = (depth, d)
        return d

    def close_threads(self, d: int) -> None:
        depth, inner = self._thread_depth
        while inner > depth + 1:
            inner -= 1
            self.emit("}", inner)
        self.emit("}", depth)

    def each_thread(self, statements: list[str], depth: int) -> None:
        d = self.open_threads(depth)
        for s in statements:
            self.emit(s, d)
        self.close_threads(d)

    def carried(self, v: Value, depth: int) -> str:
        """A loop-carried or if-result value: a uniform scalar or a per-thread array."""
        if v in self.uniform:
            name = self.fresh()
            self.emit(f"{CTYPE[elem_of(v)]} {name};", depth)
            self.names[v] = name
            return name
        name = self.fresh("c")
        self.scratch.append((name, CTYPE[elem_of(v)], self.nt))
        self.arrays[v] = name
        return name

    def uniform_for(self, op: Operation, depth: int) -> None:
        body = op.regions[0].blocks[0]
        iv, carried = body.args[0], body.args[1:]
        lb, ub, st = (self.ref(x) for x in op.operands[:3])
        elem = elem_of(iv)
        unsigned = "unsignedCmp" in op.attributes
        slots = []
        thread_inits = []
        for arg, res, init in zip(carried, op.results, op.operands[3:]):
            name = self.carried(arg, depth)
            if arg in self.uniform:
                self.names[res] = name
                self.emit(f"{name} = {self.ref(init)};", depth)
            else:
                self.arrays[res] = name
                thread_inits.append(f"{name}[tl] = {self.ref(init)};")
            slots.append(name)
        if thread_inits:
            self.each_thread(thread_inits, depth)
        self.loop_head(iv, lb, ub, st, elem, unsigned, depth)
        self.uniform_seq(body.ops, depth + 1)
        self.carry_yield(body.terminator, carried, slots, depth + 1)
        self.emit("}", depth)
        self.emit("}", depth)

    def loop_head(self, iv: Value, lb: str, ub: str, st: str, elem: str, unsigned: bool,
                  depth: int) -> None:
        """``{ ... for (k) { const T iv = ...;`` (two braces for the caller to close)."""
        ct, ut = CTYPE[elem], UTYPE.get(elem, "uint64_t")
        n = self.fresh("n")
        k = self.fresh("k")
        lo, hi, step = self.fresh("lo"), self.fresh("hi"), self.fresh("st")
        self.emit(f"{{ const {ct} {lo} = {lb}, {hi} = {ub}, {step} = {st};", depth)
        positive = f"(({ut}){step} == 0)" if unsigned else f"({step} <= 0)"
        self.emit(f"if {positive} TL_FAIL({ERR_UB});", depth)
        below = f"(({ut}){lo} < ({ut}){hi})" if unsigned else f"({lo} < {hi})"
        self.emit(f"const {ut} {n} = {below} ? (({ut}){hi} - ({ut}){lo} - 1) / ({ut}){step} + 1"
                  " : 0;", depth)
        self.emit(f"if ((uint64_t){n} > {MAX_LOOP_ITERATIONS_DEFAULT}ull) TL_FAIL({ERR_UB});",
                  depth)
        self.emit(f"for ({ut} {k} = 0; {k} < {n}; {k}++) {{", depth)
        name = self.fresh()
        self.names[iv] = name
        self.emit(f"const {ct} {name} = ({ct})(({ut}){lo} + {k} * ({ut}){step});", depth + 1)

    def carry_yield(self, y: Operation, carried, slots: list[str], depth: int) -> None:
        """A barrier loop's / if's yield: uniform values as scalars, the others per thread
        (every value read before any is written: the yield is a parallel assignment)."""
        uni = [(s, v) for a, s, v in zip(carried, slots, y.operands) if a in self.uniform]
        if uni:
            temps = []
            for s, v in uni:
                t = self.fresh("y")
                self.emit(f"const __typeof__({s}) {t} = {self.ref(v)};", depth)
                temps.append((s, t))
            for s, t in temps:
                self.emit(f"{s} = {t};", depth)
        per = [(s, v) for a, s, v in zip(carried, slots, y.operands) if a not in self.uniform]
        if per:
            stmts = []
            temps = []
            for s, v in per:
                t = self.fresh("y")
                stmts.append(f"const __typeof__({s}[0]) {t} = {self.ref(v)};")
                temps.append((s, t))
            stmts += [f"{s}[tl] = {t};" for s, t in temps]
            self.each_thread(stmts, depth)

    def uniform_if(self, op: Operation, depth: int) -> None:
        slots = [self.carried(r, depth) for r in op.results]

        def branch(block, d: int) -> None:
            self.uniform_seq(block.ops, d)
            self.carry_yield(block.terminator, op.results, slots, d)
        self.branches(op, branch, depth)

    def branches(self, op: Operation, branch, depth: int) -> None:
        """``if (cond) { then } else { else }`` of an ``scf.if``; ``branch(block, depth)``
        emits one region's block."""
        self.emit(f"if ({self.ref(op.operands[0])}) {{", depth)
        for i, region in enumerate(op.regions):
            if i == 1:
                self.emit("} else {", depth)
            if region.blocks:
                branch(region.blocks[0], depth + 1)
        self.emit("}", depth)

    # one op ----------------------------------------------------------------------------------

    def op(self, op: Operation, depth: int) -> None:
        name = op.name
        if name == "scf.for":
            return self.thread_for(op, depth)
        if name == "scf.while":
            return self.thread_while(op, depth)
        if name == "scf.if":
            return self.thread_if(op, depth)
        if name == "cf.assert":      # (a failed assertion: the lane engine reports it)
            self.emit(f"if (!{self.ref(op.operands[0])}) TL_FAIL({ERR_UB});", depth)
            return
        if name == "memref.atomic_rmw":
            value, ref, idx = op.operands[0], op.operands[1], op.operands[2:]
            kind = ATOMIC_KINDS[int(op.attributes["kind"].value)]
            addr = self.address(op, ref, idx, depth)
            self.note_access(ref, write=True)
            self.note_access(ref, write=False)
            self.emit(f"tl_atomic_{kind}_{BITS[elem_of(value)]}(&{addr}, {self.ref(value)});",
                      depth)
            return
        if name == "memref.store":
            value, ref, idx = op.operands[0], op.operands[1], op.operands[2:]
            addr = self.address(op, ref, idx, depth)
            self.note_access(ref, write=True)
            self.emit(f"{addr} = {self.ref(value)};", depth)
            return
        if name == "memref.dim":     # (a constant in range: _check_op)
            ref, which = op.operands
            k = int(which.owner_op.attributes["value"].value)
            self.define(op.results[0], f"a{self.index_of[ref]}_n{k}", depth)
            return
        if name == "memref.load":
            ref, idx = op.operands[0], op.operands[1:]
            addr = self.address(op, ref, idx, depth)
            self.note_access(ref, write=False)
            self.define(op.results[0], addr, depth)
            return
        self.define(op.results[0], self.expr(op, depth), depth)

    def note_access(self, ref: Value, write: bool) -> None:
        i = self.index_of[ref]
        if i < self.n_in:
            (self.writes if write else self.reads).add(i)

    def address(self, op: Operation, ref: Value, idx, depth: int) -> str:
        i = self.index_of[ref]
        terms = []
        for k, x in enumerate(idx):
            e = self.ref(x)
            if op not in self.prechecked:
                self.emit(f"if ((uint64_t){e} >= (uint64_t)a{i}_n{k}) TL_FAIL({ERR_BOUNDS});",
                          depth)
            terms.append(f"{e} * a{i}_s{k}")
        base = f"a{i}_p" if ref not in self.private else f"(a{i}_base + tl * {self._size(ref)})"
        return f"{base}[{' + '.join(terms) or '0'}]"

    @staticmethod
    def _size(ref: Value) -> int:
        n = 1
        for s in ref.type.shape:
            n *= int(s)
        return n

    def thread_for(self, op: Operation, depth: int) -> None:
        body = op.regions[0].blocks[0]
        iv, carried = body.args[0], body.args[1:]
        slots = []
        for arg, res, init in zip(carried, op.results, op.operands[3:]):
            name = self.fresh("c")
            self.emit(f"{CTYPE[elem_of(arg)]} {name} = {self.ref(init)};", depth)
            self.names[arg] = name
            slots.append(name)
        lb, ub, st = (self.ref(x) for x in op.operands[:3])
        self.loop_head(iv, lb, ub, st, elem_of(iv), "unsignedCmp" in op.attributes, depth)
        for o in body.ops[:-1]:
            self.op(o, depth + 1)
        self.assign(slots, body.terminator.operands, depth + 1)
        self.emit("}", depth)
        self.emit("}", depth)
        for res, name in zip(op.results, slots):
            self.alias(res, name, depth)

    def thread_while(self, op: Operation, depth: int) -> None:
        """``scf.while`` in one thread: ``for (;;) { before; if (!cond) break; after }``, with
        the lane engine's iteration limit (past it, the lane engine reports the loop)."""
        before, after = (r.blocks[0] for r in op.regions)
        condition = before.terminator
        slots = []
        for arg, init in zip(before.args, op.operands):
            name = self.fresh("c")
            self.emit(f"{CTYPE[elem_of(arg)]} {name} = {self.ref(init)};", depth)
            self.names[arg] = name
            slots.append(name)
        results = []
        for res in op.results:
            name = self.fresh("c")
            self.emit(f"{CTYPE[elem_of(res)]} {name};", depth)
            results.append(name)
        count = self.fresh("it")
        self.emit(f"uint64_t {count} = 0;", depth)
        self.emit("for (;;) {", depth)
        d = depth + 1
        self.emit(f"if (++{count} > {MAX_LOOP_ITERATIONS_DEFAULT}ull) TL_FAIL({ERR_UB});", d)
        for o in before.ops[:-1]:
            self.op(o, d)
        forwarded = []
        for v, arg in zip(condition.operands[1:], after.args):
            name = self.fresh()
            self.emit(f"const {CTYPE[elem_of(arg)]} {name} = {self.ref(v)};", d)
            self.names[arg] = name
            forwarded.append(name)
        done = " ".join(f"{r} = {f};" for r, f in zip(results, forwarded))
        self.emit(f"if (!{self.ref(condition.operands[0])}) {{ {done} break; }}", d)
        for o in after.ops[:-1]:
            self.op(o, d)
        self.assign(slots, after.terminator.operands, d)
        self.emit("}", depth)
        for res, name in zip(op.results, results):
            self.alias(res, name, depth)

    def alias(self, v: Value, name: str, depth: int) -> None:
        self.names[v] = name
        if v in self.spilled and self.current_run is not None:
            self.emit(f"{self.spilled[v]}[tl] = {name};", depth)

    def assign(self, slots: list[str], values, depth: int) -> None:
        temps = []
        for s, v in zip(slots, values):
            t = self.fresh("y")
            self.emit(f"const __typeof__({s}) {t} = {self.ref(v)};", depth)
            temps.append((s, t))
        for s, t in temps:
            self.emit(f"{s} = {t};", depth)

    def thread_if(self, op: Operation, depth: int) -> None:
        slots = []
        for res in op.results:
            name = self.fresh("c")
            self.emit(f"{CTYPE[elem_of(res)]} {name};", depth)
            slots.append(name)

        def branch(block, d: int) -> None:
            for o in block.ops[:-1]:
                self.op(o, d)
            self.assign(slots, block.terminator.operands, d)
        self.branches(op, branch, depth)
        for res, name in zip(op.results, slots):
            self.alias(res, name, depth)

def _reverse_post_order(entry) -> list:
    """The blocks reachable from ``entry``, each after every block that dominates it."""
    seen, post = set(), []
    stack = [(entry, iter(entry.terminator.successors if entry.terminator else ()))]
    seen.add(entry)
    while stack:
        block, succ = stack[-1]
        nxt = next(succ, None)
        if nxt is None:
            stack.pop()
            post.append(block)
        elif nxt not in seen:
            seen.add(nxt)
            stack.append((nxt, iter(nxt.terminator.successors if nxt.terminator else ())))
    return post[::-1]


def generate(body: Region, n_in: int, n_wg: int, block: tuple[int, int, int],
             unit_stride: tuple[bool, ...]) -> KernelSource:
    """Translate a ``gpu.func``'s body (``n_in`` arguments, then ``n_wg`` workgroup and the
    private attributions) for blocks of ``block`` threads, or raise :class:`NotNative`.
    ``unit_stride[i]``: memref argument ``i``'s innermost stride is 1 at every launch of this
    translation."""
    args = body.blocks[0].args
    return _translate(_Gen(body, list(args[:n_in]), list(args[n_in:n_in + n_wg]),
                           list(args[n_in + n_wg:]), {}, block, unit_stride))


#: a gpu.launch body's first twelve arguments: block ids, thread ids, grid and block sizes
_LAUNCH_IDS = (("bx", False), ("by", False), ("bz", False), ("tx", True), ("ty", True),
               ("tz", True), ("gx", False), ("gy", False), ("((int64_t)P[2])", False),
               ("BX", False), ("BY", False), ("BZ", False))


def generate_launch_body(body: Region, captures: list[Value], n_wg: int,
                         block: tuple[int, int, int],
                         unit_stride: tuple[bool, ...]) -> KernelSource:
    """Translate the body of a ``gpu.launch`` without clusters (its twelve id arguments, then
    ``n_wg`` workgroup and the private attributions); ``captures``: the values from outside the
    body that it uses, which become the C function's inputs in that order."""
    args = body.blocks[0].args
    ids = {a: _LAUNCH_IDS[k] for k, a in enumerate(args[:12])}
    return _translate(_Gen(body, captures, list(args[12:12 + n_wg]), list(args[12 + n_wg:]),
                           ids, block, unit_stride))


def _translate(gen: _Gen) -> KernelSource:
    text = gen.generate()
    params = []
    for i, a in enumerate(gen.slots[:gen.n_in]):
        if is_memref(a):
            params.append(ParamSpec("memref", element_name(a.type), len(a.type.shape),
                                    gen.unit_stride[i]))
        else:
            params.append(ParamSpec("scalar", elem_of(a)))
    return KernelSource(text, params, gen.scratch_bytes, gen.reads, gen.writes)
