"""Lower tinytc to cuda_tile: each function becomes an ``entry`` of one module.

* Work groups are tile blocks: ``group_id`` is the block id (x), ``group_size`` the number of
  blocks.  Scalars are 0-d tiles (``index`` is ``i64``).
* A memref is a pointer plus its sizes and strides: static ones are compile-time integers,
  dynamic ones entry parameters (see :func:`entry_signature` for the calling convention).
  ``subview``/``expand``/``fuse`` only compute a new pointer, sizes and strides.
* A group is a pointer to a table of 64-bit addresses (``int_to_ptr``), a table per dynamic size
  or stride, and an offset (static, or one more parameter).
* Collective BLAS ops become tile code over blocks of the output (whole-matrix tiles when the
  shapes are static and small, else ``for`` loops over blocks; edges are masked): ``mmaf`` for
  floating-point ``gemm``, multiply + ``reduce`` otherwise.  ``beta = 0`` never reads the output
  (a runtime beta masks the load with ``beta != 0``); ``.atomic`` is an atomic add (beta = 1),
  an atomic exchange (beta = 0) or a compare-and-swap loop (any other beta).
* ``foreach`` is vectorised: its body runs as tile code over a chunk of the iteration space
  (``iota`` + a mask of the active lanes); a per-lane ``if`` becomes masked code of both branches
  and ``select``s, stores and loads are masked.
"""

from __future__ import annotations

from ...dialects.cuda_tile.builder import Builder
from ...ir.locations import FileLineColLoc
from .blas import BlasLowering
from .ir import Function, Imm, Inst, MemrefType, Program, Region, ScalarType
from .ir import is_float
from .tiles import Dim, GroupVal, MemrefVal, Root, _pow2, _tile, cuda_element

__all__ = ["lower_program", "entry_signature", "cuda_element"]

#: byte alignment of the cuda_tile ``alloca`` an ``alloca`` becomes
ALLOCA_ALIGNMENT = 128

_FOREACH_CHUNK = 256


def entry_signature(fn: Function) -> list[tuple[str, str]]:
    """The entry parameters of ``fn`` as ``(description, cuda_tile type)``, in order:

    * scalar ``T``: ``tile<T>`` (``index``: ``tile<i64>``);
    * ``memref<T x ...>``: ``tile<ptr<T>>``, then one ``tile<i64>`` per ``?`` size (mode
      order), then one per ``?`` stride;
    * ``group<memref<T x ...>, offset: o>``: ``tile<ptr<i64>>`` (table of element addresses),
      then a ``tile<ptr<i64>>`` table per ``?`` size and per ``?`` stride, then ``tile<i64>``
      when the offset is ``?``.

    (An ``alloca`` needs no parameter: it becomes a cuda_tile ``alloca`` of the work group.)
    """
    params = []
    for a in fn.args:
        t = a.type
        if isinstance(t, ScalarType):
            params.append((f"%{a.name}", _tile((), cuda_element(t.name))))
        elif isinstance(t, MemrefType):
            params.append((f"%{a.name}", _tile((), f"ptr<{cuda_element(t.element)}>")))
            params += [(f"%{a.name} size {i}", "tile<i64>")
                       for i, s in enumerate(t.shape) if s is None]
            params += [(f"%{a.name} stride {i}", "tile<i64>")
                       for i, s in enumerate(t.strides) if s is None]
        else:
            m = t.memref
            params.append((f"%{a.name} addresses", "tile<ptr<i64>>"))
            params += [(f"%{a.name} sizes {i}", "tile<ptr<i64>>")
                       for i, s in enumerate(m.shape) if s is None]
            params += [(f"%{a.name} strides {i}", "tile<ptr<i64>>")
                       for i, s in enumerate(m.strides) if s is None]
            if t.offset is None:
                params.append((f"%{a.name} offset", "tile<i64>"))
    return params


def alloca_extent(t: MemrefType) -> int:
    """Elements an ``alloca`` of type ``t`` spans (at least 1)."""
    if any(s == 0 for s in t.shape):
        return 1
    return 1 + sum((s - 1) * st for s, st in zip(t.shape, t.strides))


class _FunctionLowering(BlasLowering):
    """Lowers one function: its entry, replicated instructions and control flow."""

    # -- entry ---------------------------------------------------------------------------

    def lower(self) -> None:
        sig = entry_signature(self.fn)
        fn_loc = FileLineColLoc(self.prog.filename, self.fn.loc.line, self.fn.loc.col)
        with self.b.location(fn_loc), self.b.entry(self.fn.name, [t for _, t in sig]) as params:
            it = iter(params)
            for a in self.fn.args:
                t = a.type
                if isinstance(t, ScalarType):
                    self.env[a] = next(it)
                elif isinstance(t, MemrefType):
                    base = next(it)
                    shape = [s if s is not None else next(it) for s in t.shape]
                    strides = [s if s is not None else next(it) for s in t.strides]
                    self.env[a] = MemrefVal(t.element, base, shape, strides,
                                            Root(base, shape, strides, list(range(t.order)),
                                                 [0] * t.order))
                else:
                    m = t.memref
                    table = next(it)
                    shapes = {i: next(it) for i, s in enumerate(m.shape) if s is None}
                    strides = {i: next(it) for i, s in enumerate(m.strides) if s is None}
                    offset = t.offset if t.offset is not None else next(it)
                    self.env[a] = GroupVal(m, table, shapes, strides, offset)
            self.region(self.fn.body)

    def region(self, region: Region) -> list:
        """Lower the instructions; return the lowered values of a final ``yield``."""
        for inst in region.insts:
            if inst.op == "yield":
                return [self.scalar_as(v, t.name, t.name)
                        for v, t in zip(inst.operands, inst.types)]
            with self.b.location(self.loc_of(inst)):
                getattr(self, "op_" + inst.op)(inst)
        return []

    # -- replicated instructions ---------------------------------------------------------

    def op_group_id(self, inst: Inst) -> None:
        x, _, _ = self.b.get_tile_block_id()
        self.env[inst.results[0]] = self.b.exti(x, signedness="signed", result_type="i64")

    def op_group_size(self, inst: Inst) -> None:
        x, _, _ = self.b.get_num_tile_blocks()
        self.env[inst.results[0]] = self.b.exti(x, signedness="signed", result_type="i64")

    def op_cast(self, inst: Inst) -> None:
        src, dst = inst.types
        self.env[inst.results[0]] = self.scalar_as(inst.operands[0], src.name, dst.name)

    def op_cmp(self, inst: Inst) -> None:
        ty = inst.types[0].name
        x, y = self.common(self.operand(inst.operands[0], ty), self.operand(inst.operands[1], ty))
        pred = {"eq": "equal", "ne": "not_equal", "lt": "less_than", "le": "less_than_or_equal",
                "gt": "greater_than", "ge": "greater_than_or_equal"}[inst.attrs["cond"]]
        if is_float(ty):
            order = "unordered" if pred == "not_equal" else "ordered"
            r = self.b.cmpf(x, y, comparison_predicate=pred, comparison_ordering=order,
                            result_type="i1")
        else:
            # i1 is C's bool: false < true (unsigned); other integers are signed
            sign = "unsigned" if ty == "i1" else "signed"
            r = self.b.cmpi(x, y, comparison_predicate=pred, signedness=sign,
                            result_type="i1")
        self.env[inst.results[0]] = r

    def op_arith(self, inst: Inst) -> None:
        ty = inst.types[0].name
        el = cuda_element(ty)
        kind = inst.attrs["kind"]
        b = self.b
        vals = self.common(*[self.operand(o, ty) for o in inst.operands])
        if kind == "neg":
            r = b.negf(vals[0]) if is_float(ty) else b.negi(vals[0])
        elif kind == "not":
            ones = self.bcast(self.const(1 if el == "i1" else -1, el), self.shape_of(vals[0]))
            r = b.xori(vals[0], ones)
        elif is_float(ty):
            x, y = vals
            if kind == "rem":
                r = b.remf(x, y)
            else:
                r = getattr(b, kind + "f")(x, y, rounding_mode="nearest_even")
        else:
            x, y = vals
            if el == "i1" and kind in ("add", "sub", "mul"):
                # C's bool: the int result is nonzero exactly for or / xor / and
                r = {"add": b.ori, "sub": b.xori, "mul": b.andi}[kind](x, y)
            elif kind in ("add", "sub", "mul"):
                r = getattr(b, kind + "i")(x, y)
            elif kind == "div":
                r = b.divi(x, y, signedness="signed")
            elif kind == "rem":
                r = b.remi(x, y, signedness="signed")
            elif kind == "shl":
                r = b.shli(x, y)
            elif kind == "shr":
                r = b.shri(x, y, signedness="signed")
            else:
                r = getattr(b, kind + "i")(x, y)
        self.env[inst.results[0]] = r

    def op_size(self, inst: Inst) -> None:
        mem: MemrefVal = self.env[inst.operands[0]]
        self.env[inst.results[0]] = self.i64(mem.shape[inst.attrs["mode"]])

    def op_load(self, inst: Inst) -> None:
        src = self.env[inst.operands[0]]
        idx = [self.dim_operand(o) for o in inst.operands[1:]]
        if isinstance(src, GroupVal):
            self.env[inst.results[0]] = self.group_element(src, idx[0])
            return
        self.env[inst.results[0]] = self.load(src, idx, self.mask)

    def group_element(self, g: GroupVal, i: Dim) -> MemrefVal:
        table = MemrefVal("i64", g.table, [None], [1])
        addr = self.load(table, [i], self.mask)
        el = cuda_element(g.memref.element)
        ptr = self.b.int_to_ptr(addr, result_type=_tile(self.shape_of(addr), f"ptr<{el}>"))
        base = MemrefVal(g.memref.element, ptr, [], [])
        if not (isinstance(g.offset, int) and g.offset == 0):
            ptr = self.pointers(MemrefVal(g.memref.element, ptr, [None], [1]), [g.offset])
        shape = [s if s is not None else
                 self.load(MemrefVal("i64", g.shape_tables[d], [None], [1]), [i], self.mask)
                 for d, s in enumerate(g.memref.shape)]
        strides = [s if s is not None else
                   self.load(MemrefVal("i64", g.stride_tables[d], [None], [1]), [i], self.mask)
                   for d, s in enumerate(g.memref.strides)]
        del base
        return MemrefVal(g.memref.element, ptr, shape, strides)

    def op_store(self, inst: Inst) -> None:
        val, dst, *idx = inst.operands
        mem: MemrefVal = self.env[dst]
        self.store(self.env[val], mem, [self.dim_operand(o) for o in idx], self.mask)

    def op_subview(self, inst: Inst) -> None:
        mem: MemrefVal = self.env[inst.operands[0]]
        offsets, shape, strides = [], [], []
        for d, (off, size) in enumerate(inst.attrs["slices"]):
            o = self.dim_operand(off)
            offsets.append(o)
            if size is None:
                continue
            if isinstance(size, Imm) and size.is_dynamic:
                shape.append(self.isub(mem.shape[d], o))
            else:
                shape.append(self.dim_operand(size))
            strides.append(mem.strides[d])
        base = self.pointers(mem, offsets)
        root = None
        if mem.root is not None and not self.shape_of(base):
            r = mem.root
            roff = list(r.offsets)
            modes = []
            for d, (o, (_, size)) in enumerate(zip(offsets, inst.attrs["slices"])):
                roff[r.modes[d]] = self.iadd(roff[r.modes[d]], o)
                if size is not None:
                    modes.append(r.modes[d])
            root = Root(r.base, r.shape, r.strides, modes, roff)
        self.env[inst.results[0]] = MemrefVal(mem.element, base, shape, strides, root)

    def op_expand(self, inst: Inst) -> None:
        mem: MemrefVal = self.env[inst.operands[0]]
        mode = inst.attrs["mode"]
        known = inst.attrs["known_shape"]
        entries: list = []
        for op, k in zip(inst.operands[1:], known):
            entries.append(k if k is not None else
                           (None if isinstance(op, Imm) else self.env[op]))
        if None in entries:   # the reference: size / product of the others
            prod: Dim = 1
            for e in entries:
                if e is not None:
                    prod = self.imul(prod, e)
            entries[entries.index(None)] = self.idiv(mem.shape[mode], prod)
        strides = [mem.strides[mode]]
        for e in entries[:-1]:
            strides.append(self.imul(strides[-1], e))
        self.env[inst.results[0]] = MemrefVal(
            mem.element, mem.base, mem.shape[:mode] + entries + mem.shape[mode + 1:],
            mem.strides[:mode] + strides + mem.strides[mode + 1:])

    def op_fuse(self, inst: Inst) -> None:
        mem: MemrefVal = self.env[inst.operands[0]]
        lo, hi = inst.attrs["from"], inst.attrs["to"]
        prod: Dim = 1
        for d in range(lo, hi + 1):
            prod = self.imul(prod, mem.shape[d])
        self.env[inst.results[0]] = MemrefVal(
            mem.element, mem.base, mem.shape[:lo] + [prod] + mem.shape[hi + 1:],
            mem.strides[:lo] + [mem.strides[lo]] + mem.strides[hi + 1:])

    def op_alloca(self, inst: Inst) -> None:
        """A cuda_tile ``alloca`` of the work group (tile block): zeroed memory that lives
        until the kernel ends for that block, laid out by the memref type's strides."""
        t: MemrefType = inst.types[0]
        el = cuda_element(t.element)
        base = self.b.alloca(num_elem=alloca_extent(t), alignment=ALLOCA_ALIGNMENT,
                             result_type=_tile((), f"ptr<{el}>"))
        self.env[inst.results[0]] = MemrefVal(t.element, base, list(t.shape), list(t.strides),
                                              Root(base, list(t.shape), list(t.strides),
                                                   list(range(t.order)), [0] * t.order))

    # -- control flow --------------------------------------------------------------------

    def op_for(self, inst: Inst) -> None:
        ty = inst.types[0].name
        lo = self.operand(inst.operands[0], ty)
        hi = self.operand(inst.operands[1], ty)
        step = (self.operand(inst.operands[2], ty) if len(inst.operands) > 2
                else self.const(1, cuda_element(ty)))
        if self.shape_of(lo) or self.shape_of(hi) or self.shape_of(step):
            raise self.unsupported("a for loop whose bounds differ between foreach iterations",
                                   inst)
        given = inst.operands[2] if len(inst.operands) > 2 else None
        if given is None or (isinstance(given, Imm) and given.value > 0):
            self.counted_loop(inst, lo, hi, step)
            return
        # tinytc's loop is C's `for (i = from; i < to; i += step)`: an empty range runs no
        # iteration whatever the step, but cuda_tile's `for` needs a positive step, so a step
        # that is not a positive constant enters the loop only when from < to
        sign = "unsigned" if ty == "i1" else "signed"
        nonempty = self.b.cmpi(lo, hi, comparison_predicate="less_than", signedness=sign,
                               result_type="i1")
        with self.b.if_(nonempty).then_():
            self.counted_loop(inst, lo, hi, step)

    def counted_loop(self, inst: Inst, lo, hi, step) -> None:
        """The cuda_tile ``for`` of a tinytc ``for`` (a positive step)."""
        with self.b.for_(lo, hi, step) as (iv, _, _):
            self.env[inst.attrs["loop_var"]] = iv
            self.region(inst.regions[0])

    def op_if(self, inst: Inst) -> None:
        cond = self.operand(inst.operands[0], "i1")
        types = [cuda_element(t.name) for t in inst.types]
        if self.shape_of(cond) or (self.width is not None and types):
            self.masked_if(inst, cond)
            return
        br = self.b.if_(cond, [_tile((), t) for t in types], with_else=len(inst.regions) > 1
                        or bool(types))
        with br.then_():
            vals = self.region(inst.regions[0])
            if types:
                self.b.yield_(*vals)
        if len(inst.regions) > 1:
            with br.else_():
                vals = self.region(inst.regions[1])
                if types:
                    self.b.yield_(*vals)
        for r, v in zip(inst.results, br.results):
            self.env[r] = v

    def masked_if(self, inst: Inst, cond) -> None:
        """A per-lane condition inside a foreach: both branches run under masks."""
        outer = self.mask
        not_cond = self.b.xori(cond, self.bcast(self.const(1, "i1"), self.shape_of(cond)))
        self.mask = self.and_mask(outer, cond)
        then_vals = self.region(inst.regions[0])
        else_vals: list = []
        if len(inst.regions) > 1:
            self.mask = self.and_mask(outer, not_cond)
            else_vals = self.region(inst.regions[1])
        self.mask = outer
        for r, t, e in zip(inst.results, then_vals, else_vals):
            c, t2, e2 = self.common(cond, t, e)
            self.env[r] = self.b.select(c, t2, e2)

    def op_foreach(self, inst: Inst) -> None:
        ty = inst.types[0].name
        el = cuda_element(ty)
        lo_op, hi_op = inst.operands
        lo, hi = self.operand(lo_op, ty), self.operand(hi_op, ty)
        static_n = (hi_op.value - lo_op.value
                    if isinstance(lo_op, Imm) and isinstance(hi_op, Imm) else None)
        if static_n is not None and static_n <= 0:
            return
        chunk = _pow2(static_n) if static_n is not None and static_n <= _FOREACH_CHUNK \
            else _FOREACH_CHUNK

        def body(start) -> None:
            lanes = self.b.iota(result_type=_tile((chunk,), el))
            iv = self.b.addi(lanes, self.bcast(start, (chunk,)))
            inside = self.b.cmpi(iv, self.bcast(hi, (chunk,)), comparison_predicate="less_than",
                                 signedness="signed", result_type="i1")
            need_mask = not (static_n is not None and static_n == chunk)
            self.mask = inside if need_mask else None
            self.width = chunk
            self.env[inst.attrs["loop_var"]] = iv
            try:
                self.region(inst.regions[0])
            finally:
                self.mask = None
                self.width = None

        if static_n is not None and static_n <= chunk:
            body(lo)
            return
        with self.b.for_(lo, hi, self.const(chunk, el)) as (start, _, _):
            body(start)

def remove_dead_code(module) -> None:
    """Erase pure ops whose results are unused (e.g. the pointer of a subview that is only
    read through views of its argument).

    Dead ops are found in reverse order (so a chain of dead ops goes in one sweep) and each
    block is rebuilt once per sweep: erasing them one by one from their block's list would take
    time quadratic in the number of ops of a long straight-line function."""
    from ...ir.opdef import OP_REGISTRY
    from ...ir.traits import Pure
    changed = True
    while changed:
        changed = False
        dead: dict = {}       # id(block) -> (block, ids of its dead ops)
        for op in reversed(list(module.walk(include_self=False))):
            spec = OP_REGISTRY.get(op.name)
            if spec is None or Pure not in spec.traits or not op.results or op.regions:
                continue
            if not any(r.has_uses for r in op.results):
                op.drop_operand_uses()
                block = op.parent
                if block is not None:
                    dead.setdefault(id(block), (block, set()))[1].add(id(op))
                op.parent = None
                changed = True
        for block, ids in dead.values():
            block.ops = [o for o in block.ops if id(o) not in ids]


def lower_program(prog: Program):
    """A verified ``cuda_tile.module @kernels`` with one entry per function."""
    from ...ir.verify import verify
    b = Builder()
    for fn in prog.functions:
        _FunctionLowering(b, prog, fn).lower()
    remove_dead_code(b.module)
    verify(b.module)
    return b.module
