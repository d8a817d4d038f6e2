"""Building blocks of the tinytc -> cuda_tile lowering: type names, lowered memref/group
values and :class:`TileEmitter` (constants, broadcasting, integer arithmetic on static-or-dynamic
sizes, tinytc's casts, pointer tiles, masked loads and stores)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Union

from ...dialects.cuda_tile.builder import Builder
from ...ir.locations import FileLineColLoc
from .diagnostics import TinytcError
from .ir import Function, Imm, Inst, MemrefType, Program, is_float

__all__ = ["cuda_element", "Root", "MemrefVal", "GroupVal", "TileEmitter", "Dim"]

Dim = Union[int, object]          # a Python int (static) or an i64 cuda_tile Value

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


class TileEmitter:
    """Emits cuda_tile for one tinytc function: shapes, conversions, operands, memory access
    (the building blocks the instruction lowerings share)."""

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

