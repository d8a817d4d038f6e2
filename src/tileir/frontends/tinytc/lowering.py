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

from dataclasses import dataclass
from typing import Callable, Optional, Union

from ...ir.builder import Builder
from ...locations import FileLineColLoc
from .diagnostics import TinytcError
from .ir import (Function, GroupType, Imm, Inst, MemrefType, Program, Region, ScalarType,
                 Value, is_float)

__all__ = ["lower_program", "entry_signature", "cuda_element"]

Dim = Union[int, object]          # a Python int (static) or an i64 cuda_tile Value

#: largest block edge per collective op (powers of two)
_BLOCK_2D = 64
_BLOCK_1D = 256
_FOREACH_CHUNK = 256


def cuda_element(name: str) -> str:
    """The cuda_tile element type of a tinytc scalar type (``index`` is ``i64``)."""
    return "i64" if name == "index" else name


def _tile(shape, el: str) -> str:
    return "tile<" + "".join(f"{d}x" for d in shape) + el + ">"


def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def _pieces(n: int) -> list:
    """``n`` as (start, size) pieces of decreasing powers of two (56: 0+32, 32+16, 48+8)."""
    out, start = [], 0
    bit = 1 << max(n.bit_length() - 1, 0)
    while bit:
        if n & bit:
            out.append((start, bit))
            start += bit
        bit >>= 1
    return out


def entry_signature(fn: Function) -> list[tuple[str, str]]:
    """The entry parameters of ``fn`` as ``(description, cuda_tile type)``, in order:

    * scalar ``T``: ``tile<T>`` (``index``: ``tile<i64>``);
    * ``memref<T x ...>``: ``tile<ptr<T>>``, then one ``tile<i64>`` per ``?`` size (mode
      order), then one per ``?`` stride;
    * ``group<memref<T x ...>, offset: o>``: ``tile<ptr<i64>>`` (table of element addresses),
      then a ``tile<ptr<i64>>`` table per ``?`` size and per ``?`` stride, then ``tile<i64>``
      when the offset is ``?``.
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


@dataclass
class Root:
    """Where a memref lies inside an entry's memref argument: the argument's pointer, sizes
    and strides, the argument mode of each of the memref's modes and the offset along every
    argument mode (what ``subview`` keeps track of).  Tensor views over the argument are the
    same for every tile block, so the executor loads all blocks' tiles in one go."""
    base: object
    shape: list
    strides: list
    modes: list
    offsets: list


@dataclass
class MemrefVal:
    """A lowered memref: element type (tinytc), base pointer tile, sizes, strides."""
    element: str
    base: object
    shape: list
    strides: list
    root: Optional[Root] = None


@dataclass
class GroupVal:
    memref: MemrefType
    table: object
    shape_tables: dict
    stride_tables: dict
    offset: Dim


class _FunctionLowering:
    def __init__(self, b: Builder, prog: Program, fn: Function) -> None:
        self.b = b
        self.prog = prog
        self.fn = fn
        self.env: dict = {}
        self.mask = None          # active lanes inside a foreach ([P] i1) or None
        self.width: Optional[int] = None

    # -- errors and locations -------------------------------------------------------------

    def unsupported(self, what: str, inst: Inst) -> TinytcError:
        return TinytcError(f"Not supported by the cuda_tile lowering: {what}", inst.loc,
                           self.prog.filename, self.prog.source)

    def loc_of(self, inst: Inst):
        return FileLineColLoc(self.prog.filename, inst.loc.line, inst.loc.col)

    # -- constants, shapes, conversions -----------------------------------------------------

    def const(self, value, el: str, shape=()):
        return self.b.constant(value, _tile(shape, el))

    def i64(self, x: Dim):
        return self.const(int(x), "i64") if isinstance(x, int) else x

    @staticmethod
    def shape_of(v) -> tuple:
        return tuple(v.type.shape)

    def bcast(self, v, shape: tuple):
        """Broadcast ``v`` (0-d or of the same rank with 1s) to ``shape``."""
        vs = self.shape_of(v)
        if vs == tuple(shape):
            return v
        el = v.type.element
        if len(vs) != len(shape):
            if vs:
                raise AssertionError(f"cannot broadcast {vs} to {shape}")
            v = self.b.reshape(v, result_type=_tile((1,) * len(shape), str(el)))
        return self.b.broadcast(v, result_type=_tile(shape, str(el)))

    def common(self, *vals):
        """Broadcast values to one shape (0-d values, and extents of 1, stretch)."""
        shape: tuple = ()
        for v in vals:
            s = self.shape_of(v)
            if not s:
                continue
            shape = s if not shape else tuple(max(a, c) for a, c in zip(shape, s))
        return [self.bcast(v, shape) for v in vals]

    def along(self, v, rank: int, axis: int):
        """A 1-D tile viewed as axis ``axis`` of a rank-``rank`` tile (other extents 1)."""
        n = self.shape_of(v)[0]
        shape = tuple(n if d == axis else 1 for d in range(rank))
        return self.b.reshape(v, result_type=_tile(shape, str(v.type.element)))

    def iadd(self, a: Dim, c: Dim) -> Dim:
        if isinstance(a, int) and isinstance(c, int):
            return a + c
        if isinstance(a, int) and a == 0:
            return c
        if isinstance(c, int) and c == 0:
            return a
        x, y = self.common(self.i64(a), self.i64(c))
        return self.b.addi(x, y)

    def isub(self, a: Dim, c: Dim) -> Dim:
        if isinstance(a, int) and isinstance(c, int):
            return a - c
        if isinstance(c, int) and c == 0:
            return a
        x, y = self.common(self.i64(a), self.i64(c))
        return self.b.subi(x, y)

    def imul(self, a: Dim, c: Dim) -> Dim:
        if isinstance(a, int) and isinstance(c, int):
            return a * c
        if (isinstance(a, int) and a == 0) or (isinstance(c, int) and c == 0):
            return 0
        if isinstance(a, int) and a == 1:
            return c
        if isinstance(c, int) and c == 1:
            return a
        x, y = self.common(self.i64(a), self.i64(c))
        return self.b.muli(x, y)

    def idiv(self, a: Dim, c: Dim) -> Dim:
        if isinstance(a, int) and isinstance(c, int):
            return a // c if c else 0
        x, y = self.common(self.i64(a), self.i64(c))
        return self.b.divi(x, y, signedness="signed")

    def convert(self, v, src: str, dst: str):
        """tinytc's ``cast`` (C semantics): narrowing wraps, to i1 is ``!= 0``."""
        s, d = cuda_element(src), cuda_element(dst)
        if s == d:
            return v
        shape = self.shape_of(v)
        b = self.b
        if d == "i1":
            zero = self.bcast(self.const(0, s), shape)
            if is_float(s):
                return b.cmpf(v, zero, comparison_predicate="not_equal",
                              comparison_ordering="unordered", result_type="i1")
            return b.cmpi(v, zero, comparison_predicate="not_equal", signedness="signed",
                          result_type="i1")
        if is_float(s) and is_float(d):
            return b.ftof(v, result_type=d)
        if is_float(d):
            return b.itof(v, signedness="unsigned" if s == "i1" else "signed",
                          rounding_mode="nearest_even", result_type=d)
        if is_float(s):
            return b.ftoi(v, signedness="signed", rounding_mode="nearest_int_to_zero", result_type=d)
        ws, wd = int(s[1:]), int(d[1:])
        if wd > ws:
            return b.exti(v, signedness="unsigned" if s == "i1" else "signed", result_type=d)
        return b.trunci(v, result_type=d)

    # -- operands ------------------------------------------------------------------------

    def operand(self, op, ty: Optional[str] = None):
        """A scalar operand as a tile (an immediate takes its annotated type)."""
        if isinstance(op, Imm):
            name = (op.type.name if op.type is not None else ty) or "index"
            return self.const(op.value, cuda_element(name))
        return self.env[op]

    def scalar_as(self, op, ty_name: str, target: str):
        return self.convert(self.operand(op, ty_name), ty_name, target)

    def dim_operand(self, op) -> Dim:
        if isinstance(op, Imm):
            return int(op.value)
        return self.env[op]

    # -- memory access -------------------------------------------------------------------

    def pointers(self, mem: MemrefVal, idx: list):
        """Pointer tile to element ``idx`` (tiles of one shape, or ints) of ``mem``."""
        off: Dim = 0
        for i, s in zip(idx, mem.strides):
            off = self.iadd(off, self.imul(i, s))
        base = mem.base
        if isinstance(off, int) and off == 0:
            return base
        base, offv = self.common(base, self.i64(off))
        return self.b.offset(base, offv)

    def load(self, mem: MemrefVal, idx: list, mask=None):
        ptrs = self.pointers(mem, idx)
        el = cuda_element(mem.element)
        if mask is not None:
            ptrs, mask = self.common(ptrs, mask)
            pad = self.const(0, el, self.shape_of(ptrs))
            v, _ = self.b.load_ptr_tko(ptrs, mask, pad, memory_ordering_semantics="weak")
            return v
        v, _ = self.b.load_ptr_tko(ptrs, memory_ordering_semantics="weak")
        return v

    def store(self, value, mem: MemrefVal, idx: list, mask=None) -> None:
        ptrs = self.pointers(mem, idx)
        if mask is not None:
            ptrs, value, mask = self.common(ptrs, value, mask)
            self.b.store_ptr_tko(ptrs, value, mask, memory_ordering_semantics="weak")
        else:
            ptrs, value = self.common(ptrs, value)
            self.b.store_ptr_tko(ptrs, value, memory_ordering_semantics="weak")

    def and_mask(self, *masks):
        ms = [m for m in masks if m is not None]
        if not ms:
            return None
        out = ms[0]
        for m in ms[1:]:
            x, y = self.common(out, m)
            out = self.b.andi(x, y)
        return out

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
            r = self.b.cmpi(x, y, comparison_predicate=pred, signedness="signed",
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
            if kind in ("add", "sub", "mul"):
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
        t: MemrefType = inst.types[0]
        extent = 1 + sum((s - 1) * st for s, st in zip(t.shape, t.strides) if s > 0)
        if any(s == 0 for s in t.shape):
            extent = 0
        el = cuda_element(t.element)
        ptr = self.b.alloca(num_elem=max(extent, 1), alignment=64,
                            result_type=_tile((), f"ptr<{el}>"))
        self.env[inst.results[0]] = MemrefVal(t.element, ptr, list(t.shape), list(t.strides))

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

    # -- collective BLAS instructions ----------------------------------------------------

    def scalar_arg(self, op, ty: ScalarType, target: str):
        return self.scalar_as(op, ty.name, target)

    def blocks(self, dims: list, caps: list, body: Callable[[list, list], None]) -> None:
        """Call ``body(offsets, block_sizes)`` for every block of an iteration space with
        sizes ``dims`` (ints or i64 values); a dimension that fits its cap is one block."""
        plan = []
        for d, cap in zip(dims, caps):
            if isinstance(d, int) and d <= cap:
                plan.append((None, max(_pow2(d), 1)))
            else:
                plan.append((d, cap))

        def rec(k: int, offsets: list) -> None:
            if k == len(plan):
                body(offsets, [blk for _, blk in plan])
                return
            size, blk = plan[k]
            if size is None:
                rec(k + 1, offsets + [0])
                return
            with self.b.for_(self.const(0, "i64"), self.i64(size), self.const(blk, "i64")) \
                    as (off, _, _):
                rec(k + 1, offsets + [off])

        rec(0, [])

    def lane_index(self, offset: Dim, size: Dim, blk: int, rank: int, axis: int):
        """(indices along ``axis`` of a rank-``rank`` block, in-bounds mask or None)."""
        lanes = self.b.iota(result_type=_tile((blk,), "i64"))
        if not (isinstance(offset, int) and offset == 0):
            lanes = self.b.addi(lanes, self.bcast(self.i64(offset), (blk,)))
        mask = None
        if not (isinstance(size, int) and isinstance(offset, int) and offset + blk <= size):
            mask = self.b.cmpi(lanes, self.bcast(self.i64(size), (blk,)),
                               comparison_predicate="less_than", signedness="signed",
                               result_type="i1")
            mask = self.along(mask, rank, axis) if rank > 1 else mask
        idx = self.along(lanes, rank, axis) if rank > 1 else lanes
        return idx, mask

    def read_tile(self, mem: MemrefVal, idx: list, mask, shape: tuple, el: str):
        """Elements ``mem[idx]`` as a tile of ``shape`` converted to ``el`` (0 where masked)."""
        idx = [self.bcast(i, shape) if not isinstance(i, int) else i for i in idx]
        m = self.bcast(mask, shape) if mask is not None else None
        if not shape:
            v = self.load(mem, idx, m)
        else:
            ptrs = self.pointers(mem, idx)
            ptrs = self.bcast(ptrs, shape)
            v = self.load(MemrefVal(mem.element, ptrs, [], []), [], m)
        return self.convert(v, mem.element, el)

    def update(self, inst: Inst, out: MemrefVal, idx: list, mask, value, el: str, alpha,
               beta_op, beta) -> None:
        """out[idx] = alpha * value + beta * out[idx] (BLAS rule: beta = 0 does not read)."""
        b = self.b
        shape = self.shape_of(value)
        if alpha is not None:
            value = self.mul(value, self.bcast(alpha, shape), el)
        idx = [self.bcast(i, shape) if not isinstance(i, int) else i for i in idx]
        m = self.bcast(mask, shape) if mask is not None else None
        out_el = cuda_element(out.element)
        zero_beta = isinstance(beta_op, Imm) and beta_op.value == 0
        one_beta = isinstance(beta_op, Imm) and beta_op.value == 1
        ptrs = self.bcast(self.pointers(out, idx), shape) if shape else self.pointers(out, idx)
        if inst.attrs.get("atomic"):
            self.atomic_update(ptrs, m, value, el, out, beta, zero_beta, one_beta)
            return
        if not zero_beta:
            read_mask = m
            if not one_beta and not isinstance(beta_op, Imm):
                nz = self.convert(beta, el, "i1")
                read_mask = self.and_mask(m, self.bcast(nz, shape) if shape else nz)
            old = self.convert(self.load(MemrefVal(out.element, ptrs, [], []), [], read_mask),
                               out.element, el)
            if not one_beta:
                old = self.mul(old, self.bcast(beta, shape), el)
            value = self.add(value, old, el)
        self.store(self.convert(value, el, out.element) if out_el != el else value,
                   MemrefVal(out.element, ptrs, [], []), [], m)

    def mul(self, x, y, el: str):
        if is_float(el):
            return self.b.mulf(x, y, rounding_mode="nearest_even")
        return self.b.muli(x, y)

    def add(self, x, y, el: str):
        if is_float(el):
            return self.b.addf(x, y, rounding_mode="nearest_even")
        return self.b.addi(x, y)

    def atomic_update(self, ptrs, mask, value, el: str, out: MemrefVal, beta, zero_beta: bool,
                      one_beta: bool) -> None:
        b = self.b
        out_el = cuda_element(out.element)
        value = self.convert(value, el, out.element)
        shape = self.shape_of(value)
        if zero_beta or one_beta:
            mode = "xchg" if zero_beta else ("addf" if is_float(out_el) else "add")
            b.atomic_rmw_tko(ptrs, value, mask, memory_ordering_semantics="relaxed",
                             memory_scope="device", mode=mode)
            return
        beta_out = self.convert(beta, el, out.element)
        beta_t = self.bcast(beta_out, shape)
        beta_nz = self.convert(beta_out, out.element, "i1")
        pending0 = mask if mask is not None else self.bcast(self.const(1, "i1"), shape)
        with b.loop([pending0]) as ((pending,), _):
            old, _ = b.load_ptr_tko(ptrs, pending, self.const(0, out_el, shape),
                                    memory_ordering_semantics="weak")
            scaled = self.mul(old, beta_t, out_el)
            keep = b.select(self.bcast(beta_nz, shape), scaled,
                            self.const(0, out_el, shape))
            new = self.add(value, keep, out_el)
            got, _ = b.atomic_cas_tko(ptrs, old, new, pending,
                                      memory_ordering_semantics="relaxed", memory_scope="device")
            if is_float(out_el):
                ibits = "i64" if out_el == "f64" else "i32"
                same = b.cmpi(b.bitcast(got, result_type=ibits),
                              b.bitcast(old, result_type=ibits),
                              comparison_predicate="equal", signedness="signed",
                              result_type="i1")
            else:
                same = b.cmpi(got, old, comparison_predicate="equal", signedness="signed",
                              result_type="i1")
            not_same = b.xori(same, self.bcast(self.const(1, "i1"), shape))
            still = b.andi(pending, not_same)
            flat = still
            if len(shape) > 1:
                n = 1
                for s in shape:
                    n *= s
                flat = b.reshape(still, result_type=_tile((n,), "i1"))
            anyleft = flat
            if shape:
                with b.reduce([flat], 0, [0]) as (args, red):
                    b.yield_(b.ori(args[0], args[1]))
                anyleft = red.results[0]
            done = b.xori(anyleft, self.const(1, "i1"))
            br = b.if_(done)
            with br.then_():
                b.break_()
            b.continue_(still)

    def compute_type(self, inst: Inst) -> str:
        return cuda_element(inst.types[-1].element)

    def op_axpby(self, inst: Inst) -> None:
        alpha_op, a_val, beta_op, b_val = inst.operands
        t_alpha, t_a, t_beta, t_b = inst.types
        el = self.compute_type(inst)
        alpha = None if isinstance(alpha_op, Imm) and alpha_op.value == 1 \
            else self.scalar_arg(alpha_op, t_alpha, el)
        beta = self.scalar_arg(beta_op, t_beta, el)
        a, out = self.env[a_val], self.env[b_val]
        trans = inst.attrs["ta"] == "t" and t_a.order == 2
        rank = t_b.order
        caps = [_BLOCK_1D] if rank == 1 else [_BLOCK_2D] * rank

        def body(offsets: list, blks: list) -> None:
            idx, masks = [], []
            for d in range(rank):
                i, m = self.lane_index(offsets[d], out.shape[d], blks[d], rank, d)
                idx.append(i)
                masks.append(m)
            mask = self.and_mask(*masks)
            shape = tuple(blks)
            a_idx = idx[::-1] if trans else idx
            av = self.read_tile(a, a_idx, mask, shape, el)
            self.update(inst, out, idx, mask, av, el, alpha, beta_op, beta)

        self.blocks(out.shape, caps, body)

    def op_hadamard(self, inst: Inst) -> None:
        self.blas3_elementwise(inst)

    def op_ger(self, inst: Inst) -> None:
        self.blas3_elementwise(inst)

    def blas3_elementwise(self, inst: Inst) -> None:
        alpha_op, a_val, b_val, beta_op, c_val = inst.operands
        t_alpha, _, _, t_beta, t_c = inst.types
        el = self.compute_type(inst)
        alpha = None if isinstance(alpha_op, Imm) and alpha_op.value == 1 \
            else self.scalar_arg(alpha_op, t_alpha, el)
        beta = self.scalar_arg(beta_op, t_beta, el)
        a, bm, out = self.env[a_val], self.env[b_val], self.env[c_val]
        rank = t_c.order
        caps = [_BLOCK_1D] if rank == 1 else [_BLOCK_2D] * 2

        def body(offsets: list, blks: list) -> None:
            idx, masks = [], []
            for d in range(rank):
                i, m = self.lane_index(offsets[d], out.shape[d], blks[d], rank, d)
                idx.append(i)
                masks.append(m)
            mask = self.and_mask(*masks)
            shape = tuple(blks)
            if inst.op == "hadamard":
                av = self.read_tile(a, idx, mask, shape, el)
                bv = self.read_tile(bm, idx, mask, shape, el)
            else:
                av = self.read_tile(a, [idx[0]], masks[0], shape, el)
                bv = self.read_tile(bm, [idx[1]], masks[1], shape, el)
            self.update(inst, out, idx, mask, self.mul(av, bv, el), el, alpha, beta_op, beta)

        self.blocks(out.shape, caps, body)

    def reduce_sum(self, v, dim: int, el: str):
        with self.b.reduce([v], dim, [0.0 if is_float(el) else 0]) as (args, red):
            self.b.yield_(self.add(args[0], args[1], el))
        return red.results[0]

    def k_loop(self, k_size: Dim, cap: int, init, step: Callable):
        """acc = step(acc, k_offset, k_block) over blocks of K (one block if it fits)."""
        if isinstance(k_size, int) and k_size <= cap:
            return step(init, 0, max(_pow2(k_size), 1))
        with self.b.for_(self.const(0, "i64"), self.i64(k_size), self.const(cap, "i64"),
                         [init]) as (k0, (acc,), loop):
            self.b.continue_(step(acc, k0, cap))
        return loop.results[0]

    def op_gemm(self, inst: Inst) -> None:
        if not self.gemm_by_views(inst):
            self.matrix_product(inst)

    def view_piece(self, mem: MemrefVal, starts: tuple, sizes: tuple, el: str, cache: dict,
                   store=None):
        """Load (or, with ``store``, store) the block ``[starts, starts + sizes)`` of a
        static-shaped memref through a partition view of its root argument.  ``cache`` keeps
        the views and indices of one instruction (they are the same for all its pieces)."""
        r = mem.root
        rank = len(r.shape)
        tile = [1] * rank
        for d, n in enumerate(sizes):
            tile[r.modes[d]] = n
        index = []
        for rd in range(rank):
            off = r.offsets[rd]
            if rd in r.modes:
                off = self.iadd(off, starts[r.modes.index(rd)])
            key = ("index", id(off), off if isinstance(off, int) else None, tile[rd])
            if key not in cache:
                if isinstance(off, int):
                    cache[key] = self.const(off // tile[rd], "i32")
                else:
                    idx = self.idiv(off, tile[rd]) if tile[rd] > 1 else off
                    cache[key] = self.b.trunci(idx, result_type="i32")
            index.append(cache[key])
        vkey = ("view", id(r.base), tuple(tile))
        if vkey not in cache:
            tkey = ("tensor", id(r.base))
            if tkey not in cache:
                cache[tkey] = self.b.make_tensor_view(r.base, shape=r.shape, strides=r.strides)
            cache[vkey] = self.b.make_partition_view(cache[tkey], tile=tile)
        pv = cache[vkey]
        if store is not None:
            value = self.convert(store, el, mem.element)
            value = self.b.reshape(value, result_type=_tile(tile, cuda_element(mem.element)))
            self.b.store_view_tko(value, pv, index)
            return None
        t, _ = self.b.load_view_tko(pv, index)
        t = self.b.reshape(t, result_type=_tile(tuple(sizes), cuda_element(mem.element)))
        return self.convert(t, mem.element, el)

    def view_ok(self, mem: MemrefVal, pieces: list) -> bool:
        """The memref can be read in ``pieces`` (per mode: (start, size) lists) by views."""
        r = mem.root
        if r is None or any(not isinstance(s, int) for s in mem.shape):
            return False
        for d, plist in enumerate(pieces):
            off = r.offsets[r.modes[d]]
            if not isinstance(off, int):
                return False
            if any((off + st) % n for st, n in plist):
                return False
        return True

    def gemm_by_views(self, inst: Inst) -> bool:
        """Static small gemm on memrefs that are (sub)views of arguments: exact power-of-two
        pieces (56 = 32 + 16 + 8) loaded through partition views and multiplied with mmaf;
        no masks, no padding.  False where this shape does not apply."""
        alpha_op, a_val, b_val, beta_op, c_val = inst.operands
        t_alpha, t_a, t_b, t_beta, t_c = inst.types
        el = self.compute_type(inst)
        if inst.attrs["atomic"] or not is_float(el):
            return False
        a, bm, out = self.env[a_val], self.env[b_val], self.env[c_val]
        dims = list(out.shape) + [a.shape[0] if inst.attrs["ta"] == "t" else a.shape[1]]
        if any(not isinstance(d, int) or not 0 < d <= 128 for d in dims):
            return False
        m_p, n_p, k_p = (_pieces(d) for d in dims)
        ta, tb = inst.attrs["ta"] == "t", inst.attrs["tb"] == "t"
        if not (self.view_ok(a, [k_p, m_p] if ta else [m_p, k_p])
                and self.view_ok(bm, [n_p, k_p] if tb else [k_p, n_p])
                and self.view_ok(out, [m_p, n_p])):
            return False
        alpha = None if isinstance(alpha_op, Imm) and alpha_op.value == 1 \
            else self.scalar_arg(alpha_op, t_alpha, el)
        beta = self.scalar_arg(beta_op, t_beta, el)

        views: dict = {}

        def operand(mem: MemrefVal, rows, cols, trans: bool, cache: dict):
            key = (rows, cols)
            if key not in cache:
                if trans:
                    t = self.view_piece(mem, (cols[0], rows[0]), (cols[1], rows[1]), el, views)
                    t = self.b.permute(t, permutation=[1, 0],
                                       result_type=_tile((rows[1], cols[1]), el))
                else:
                    t = self.view_piece(mem, (rows[0], cols[0]), (rows[1], cols[1]), el, views)
                cache[key] = t
            return cache[key]

        a_tiles: dict = {}
        b_tiles: dict = {}
        zero_beta = isinstance(beta_op, Imm) and beta_op.value == 0
        one_beta = isinstance(beta_op, Imm) and beta_op.value == 1
        for mp in m_p:
            for np_ in n_p:
                acc = self.const(0, el, (mp[1], np_[1]))
                for kp in k_p:
                    acc = self.b.mmaf(operand(a, mp, kp, ta, a_tiles),
                                      operand(bm, kp, np_, tb, b_tiles), acc)
                shape = (mp[1], np_[1])
                if alpha is not None:
                    acc = self.mul(acc, self.bcast(alpha, shape), el)
                if not zero_beta:
                    old = self.view_piece(out, (mp[0], np_[0]), shape, el, views)
                    if not one_beta:
                        if not isinstance(beta_op, Imm):   # beta = 0 at run time: ignore C
                            nz = self.bcast(self.convert(beta, el, "i1"), shape)
                            old = self.b.select(nz, old, self.const(0, el, shape))
                        old = self.mul(old, self.bcast(beta, shape), el)
                    acc = self.add(acc, old, el)
                self.view_piece(out, (mp[0], np_[0]), shape, el, views, store=acc)
        return True

    def op_gemv(self, inst: Inst) -> None:
        self.matrix_product(inst)

    def op_sum(self, inst: Inst) -> None:
        self.matrix_product(inst)

    def matrix_product(self, inst: Inst) -> None:
        """gemm, gemv and sum: out = alpha * sum_k opA[i, k] * opB[k, j] + beta * out."""
        op = inst.op
        if op == "sum":
            alpha_op, a_val, beta_op, c_val = inst.operands
            t_alpha, t_a, t_beta, t_c = inst.types
            b_val = None
        else:
            alpha_op, a_val, b_val, beta_op, c_val = inst.operands
            t_alpha, t_a, _, t_beta, t_c = inst.types
        el = self.compute_type(inst)
        alpha = None if isinstance(alpha_op, Imm) and alpha_op.value == 1 \
            else self.scalar_arg(alpha_op, t_alpha, el)
        beta = self.scalar_arg(beta_op, t_beta, el)
        a, out = self.env[a_val], self.env[c_val]
        bmat = self.env[b_val] if b_val is not None else None
        ta = inst.attrs["ta"] == "t"
        tb = inst.attrs.get("tb") == "t"
        out_rank = t_c.order
        if op == "sum" and t_a.order == 1:
            k_size = a.shape[0]
        else:
            k_size = a.shape[0] if ta else a.shape[1]
        use_mma = op == "gemm" and is_float(el)

        def body(offsets: list, blks: list) -> None:
            shape = tuple(blks)
            idx, masks = [], []
            for d in range(out_rank):
                i, m = self.lane_index(offsets[d], out.shape[d], blks[d], out_rank, d)
                idx.append(i)
                masks.append(m)
            mask = self.and_mask(*masks)

            def step(acc, k0, kb: int):
                if op == "gemm":
                    bm_, bn_ = shape
                    ri, rm = self.lane_index(offsets[0], out.shape[0], bm_, 2, 0)
                    ki, km = self.lane_index(k0, k_size, kb, 2, 1)
                    a_idx = [ki, ri] if ta else [ri, ki]
                    av = self.read_tile(a, a_idx, self.and_mask(rm, km), (bm_, kb), el)
                    kj, kmj = self.lane_index(k0, k_size, kb, 2, 0)
                    cj, cm = self.lane_index(offsets[1], out.shape[1], bn_, 2, 1)
                    b_idx = [cj, kj] if tb else [kj, cj]
                    bv = self.read_tile(bmat, b_idx, self.and_mask(kmj, cm), (kb, bn_), el)
                    if use_mma:
                        return self.b.mmaf(av, bv, acc)
                    a3 = self.b.reshape(av, result_type=_tile((bm_, kb, 1), el))
                    b3 = self.b.reshape(bv, result_type=_tile((1, kb, bn_), el))
                    prod = self.mul(self.bcast(a3, (bm_, kb, bn_)),
                                    self.bcast(b3, (bm_, kb, bn_)), el)
                    return self.add(acc, self.reduce_sum(prod, 1, el), el)
                if out_rank == 0:       # sum of a vector
                    ki, km = self.lane_index(k0, k_size, kb, 1, 0)
                    av = self.read_tile(a, [ki], km, (kb,), el)
                    return self.add(acc, self.reduce_sum(av, 0, el), el)
                bm_ = shape[0]
                ri, rm = self.lane_index(offsets[0], out.shape[0], bm_, 2, 0)
                ki, km = self.lane_index(k0, k_size, kb, 2, 1)
                a_idx = [ki, ri] if ta else [ri, ki]
                av = self.read_tile(a, a_idx, self.and_mask(rm, km), (bm_, kb), el)
                if op == "gemv":
                    kv, kvm = self.lane_index(k0, k_size, kb, 1, 0)
                    bv = self.read_tile(bmat, [kv], kvm, (kb,), el)
                    bv = self.bcast(self.along(bv, 2, 1), (bm_, kb))
                    av = self.mul(av, bv, el)
                return self.add(acc, self.reduce_sum(av, 1, el), el)

            init = self.const(0, el, shape)
            acc = self.k_loop(k_size, _BLOCK_2D, init, step)
            self.update(inst, out, idx, mask, acc, el, alpha, beta_op, beta)

        caps = [_BLOCK_2D] * out_rank
        self.blocks(out.shape, caps, body)


def remove_dead_code(module) -> None:
    """Erase pure ops whose results are unused (e.g. the pointer of a subview that is only
    read through views of its argument)."""
    from ...ir.opdef import OP_REGISTRY
    from ...ops.traits import Pure
    changed = True
    while changed:
        changed = False
        for op in reversed(list(module.walk(include_self=False))):
            spec = OP_REGISTRY.get(op.name)
            if spec is None or Pure not in spec.traits or not op.results or op.regions:
                continue
            if not any(r.has_uses for r in op.results):
                op.erase()
                changed = True


def lower_program(prog: Program):
    """A verified ``cuda_tile.module @kernels`` with one entry per function."""
    from ... import verify
    b = Builder()
    for fn in prog.functions:
        _FunctionLowering(b, prog, fn).lower()
    remove_dead_code(b.module)
    verify(b.module)
    return b.module
