"""llvm: the core instructions on the host (``llvm.func`` bodies and LLVM ops in ``func.func``
host code).

Values: integers, floats and vectors of them are the engine's arrays (as arith's); a pointer is
a :class:`~.llvm_host.HostPtr`; a struct or array value (``insertvalue`` / ``extractvalue``)
is a tuple of its members (each a NumPy scalar, a 1-D array for a vector, a pointer or a
tuple).

Memory: each ``llvm.mlir.global`` and each ``llvm.alloca`` is a :class:`Mem`, a bytearray laid
out with LLVM's natural alignment (little-endian).  A global is initialised once per run, on
first use: from its ``value`` attribute, by running its initializer region, or with zeros (a
global declared without either).  Constant globals are read-only.  Pointers stored to memory
are remembered beside the bytes, so that a load gives the same pointer back.  Every access is
bounds-checked; a null pointer, an access outside its object, a store to a constant global
and a load of a pointer from bytes that hold none are errors.  ``ptrtoint`` gives each object
a distinct, aligned fake address; ``inttoptr`` maps such an address back.

Undefined values: ``llvm.mlir.undef`` / ``poison`` and fresh allocas read as zero (a legal
refinement of undef).  An operation whose ``nsw`` / ``nuw`` / ``exact`` / ``disjoint`` /
``nneg`` flag is violated would give poison; tileir reports it as undefined behaviour
(:class:`~tileir.execute.errors.UndefinedBehaviorError`) at that op rather than tracking poison.
Division by zero, ``INT_MIN / -1`` and shifts by the width or more are undefined behaviour too
(as arith's).  Integer arithmetic otherwise wraps modulo 2**N.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ....ir.core import Operation
from ...errors import UnsupportedError
from ..faults import LaneFault, ub
from ..interp import Frame
from ..lanes import ROOT_NDIM
from ..registry import LOWERINGS, lowering
from ..values import storage, vector_shape
from .arith import int_of
from .llvm_host import HostPtr, _host_only, _layout, _struct_offset

__all__ = ["Mem", "global_pointer", "NULL"]


class Mem:
    """One object of LLVM memory: its bytes, the pointers stored in it (byte offset ->
    :class:`HostPtr`), whether it is read-only, and its fake address."""

    __slots__ = ("name", "data", "ptrs", "read_only", "address")

    def __init__(self, name: str, size: int, read_only: bool = False) -> None:
        self.name = name
        self.data = bytearray(size)
        self.ptrs: dict[int, HostPtr] = {}
        self.read_only = read_only
        self.address = 0

    def pointer(self) -> HostPtr:
        return HostPtr(self.name, self.data, 0, self)


NULL = HostPtr("null", b"", 0, None)


def _state(ex) -> dict:
    st = getattr(ex, "_llvm_state", None)
    if st is None:
        st = {"globals": {}, "mems": [], "next": 1 << 16}
        ex._llvm_state = st
    return st


def _register(ex, mem: Mem) -> Mem:
    st = _state(ex)
    size = max(len(mem.data), 1)
    mem.address = st["next"]
    st["next"] += (size + 15) // 16 * 16 + 16
    st["mems"].append(mem)
    return mem


# -- value <-> plain ----------------------------------------------------------------------------

def _type_text(t) -> str:
    text = str(t)
    return text[len("!llvm."):] if text.startswith("!llvm.") else text


def _parts(t):
    from ....dialects.llvm.globals import llvm_type_parts
    return llvm_type_parts(_type_text(t))


def _is_ptr(t) -> bool:
    return _type_text(t).startswith("ptr")


def _scalar_dtype(text: str) -> np.dtype:
    from ....ir.types import type_from_text
    return storage(type_from_text(text))


def plain(value: Any) -> Any:
    """A runtime value as an aggregate member (NumPy scalar or 1-D array)."""
    if isinstance(value, (HostPtr, tuple)):
        return value
    arr = np.asarray(value)
    if arr.ndim >= ROOT_NDIM:
        arr = arr.reshape(arr.shape[ROOT_NDIM:])
    return arr[()] if arr.ndim == 0 else arr.copy()


def runtime(x: Any, t, space) -> Any:
    """An aggregate member as a runtime value of type ``t``."""
    if isinstance(x, (HostPtr, tuple)):
        return x
    from ....ir.types import type_from_text
    typ = t if not isinstance(t, str) else type_from_text(_full(t))
    return space.uniform(np.asarray(x, dtype=storage(typ)), storage(typ), vector_shape(typ))


def _full(text: str) -> str:
    if re.fullmatch(r"(i\d+|f16|bf16|f32|f64|f80|f128|index)", text) or \
            text.startswith("vector<") or text.startswith("!"):
        return text
    return "!llvm." + text


def zero_of(t: str) -> Any:
    """The zero (plain) value of LLVM type text ``t``."""
    t = _type_text(t)
    parts = _parts(t)
    if parts[0] == "array":
        return tuple(zero_of(parts[2]) for _ in range(parts[1]))
    if parts[0] == "struct":
        return tuple(zero_of(m) for m in parts[1])
    if t.startswith("ptr"):
        return NULL
    if parts[0] == "vector" or t.startswith("vector<"):
        from ....ir.types import type_from_text
        vt = type_from_text(t)
        return np.zeros(vector_shape(vt), dtype=storage(vt))
    return _scalar_dtype(t).type(0)


# -- memory encoding --------------------------------------------------------------------------------

def _check(ptr: Any, size: int, what: str, write: bool = False) -> Mem:
    if not isinstance(ptr, HostPtr):
        raise LaneFault(f"{what} through a value that is no pointer", kind=UnsupportedError)
    if ptr.name == "null" and ptr.mem is None and not ptr.data:
        raise ub(f"{what} through a null pointer")
    n = len(ptr.data)
    if ptr.offset < 0 or ptr.offset + size > n:
        raise ub(f"{what} of {size} bytes at offset {ptr.offset} of '{ptr.name}' "
                 f"({n} bytes) is out of bounds")
    if write and (ptr.mem is None or ptr.mem.read_only):
        raise ub(f"{what} to constant global '@{ptr.name}'")
    return ptr.mem


def encode(mem_data: bytearray, ptrs: dict, offset: int, t: str, x: Any) -> None:
    """Write plain value ``x`` of type ``t`` at ``offset``."""
    t = _type_text(t)
    parts = _parts(t)
    if parts[0] == "array":
        size = _layout(parts[2])[0]
        for k in range(parts[1]):
            encode(mem_data, ptrs, offset + k * size, parts[2], x[k])
        return
    if parts[0] == "struct":
        for k, m in enumerate(parts[1]):
            encode(mem_data, ptrs, offset + _struct_offset(parts[1], k, parts[2]), m, x[k])
        return
    size = _layout(t)[0]
    for k in [k for k in ptrs if offset <= k < offset + size]:
        del ptrs[k]
    if t.startswith("ptr"):
        mem_data[offset:offset + 8] = bytes(8)
        if not (x.name == "null" and x.mem is None and not x.data):
            ptrs[offset] = x
            mem_data[offset:offset + 8] = (0xFFFF_FFFF_FFFF_FFFF).to_bytes(8, "little")
        return
    arr = np.asarray(x)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.uint8)
    raw = np.ascontiguousarray(arr).tobytes()
    mem_data[offset:offset + len(raw)] = raw


def decode(data, ptrs: dict, offset: int, t: str) -> Any:
    """Read a plain value of type ``t`` at ``offset``."""
    t = _type_text(t)
    parts = _parts(t)
    if parts[0] == "array":
        size = _layout(parts[2])[0]
        return tuple(decode(data, ptrs, offset + k * size, parts[2]) for k in range(parts[1]))
    if parts[0] == "struct":
        return tuple(decode(data, ptrs, offset + _struct_offset(parts[1], k, parts[2]), m)
                     for k, m in enumerate(parts[1]))
    if t.startswith("ptr"):
        found = ptrs.get(offset) if ptrs is not None else None
        if found is not None:
            return found
        if bytes(data[offset:offset + 8]) == bytes(8):
            return NULL
        raise LaneFault("load of a pointer from bytes that hold no pointer tileir stored",
                        kind=UnsupportedError)
    from ....ir.types import type_from_text
    typ = type_from_text(_full(t))
    dtype = storage(typ)
    shape = vector_shape(typ)
    count = int(np.prod(shape)) if shape else 1
    if dtype == np.bool_:
        raw = np.frombuffer(bytes(data[offset:offset + count]), dtype=np.uint8) & 1
        arr = raw.astype(np.bool_)
    else:
        arr = np.frombuffer(bytes(data[offset:offset + count * dtype.itemsize]), dtype=dtype)
    return arr.reshape(shape).copy() if shape else arr[0]


# -- globals --------------------------------------------------------------------------------------

def global_pointer(ex, glob: Operation) -> HostPtr:
    """The pointer to ``glob`` (an ``llvm.mlir.global``), initialising it on first use."""
    st = _state(ex)
    found = st["globals"].get(glob)
    if found is not None:
        return found
    a = glob.attributes
    name = a["sym_name"].value
    gtype = str(a["global_type"].value)
    size = _layout(_type_text(gtype))[0]
    mem = _register(ex, Mem(name, size))
    ptr = mem.pointer()
    st["globals"][glob] = ptr
    value = a.get("value")
    if value is not None and isinstance(getattr(value, "value", None), str):
        raw = value.value.encode("utf-8", "surrogateescape")
        mem.data[:len(raw)] = raw
    elif value is not None:
        encode(mem.data, mem.ptrs, 0, gtype, _attr_value(value, gtype))
    elif glob.regions and glob.regions[0].blocks:
        region = glob.regions[0]
        ex.compiler.region(region)
        out = ex.run_single(region, Frame(ex.root), []).values
        encode(mem.data, mem.ptrs, 0, gtype, plain(out[0]))
    mem.read_only = "constant" in a
    return ptr


def _attr_value(attr, t: str) -> Any:
    t = _type_text(t)
    parts = _parts(t)
    if hasattr(attr, "array"):
        arr = np.asarray(attr.array() if callable(attr.array) else attr.array)
        if parts[0] == "array":
            return tuple(_attr_value_scalar(x, parts[2]) for x in arr.reshape(-1))
        from ....ir.types import type_from_text
        return arr.astype(storage(type_from_text(_full(t))))
    return _attr_value_scalar(attr.value, t)


def _attr_value_scalar(v, t: str) -> Any:
    dtype = _scalar_dtype(t)
    if dtype.kind in "iu":
        bits = dtype.itemsize * 8
        v = int(v) & ((1 << bits) - 1)
        return np.asarray(v).astype(np.uint64).astype(dtype)[()]
    return dtype.type(v)


# -- constants ------------------------------------------------------------------------------------

@lowering("llvm.mlir.constant")
def _constant(op: Operation, c):
    t = op.results[0].type
    attr = op.attributes["value"]
    if _parts(t)[0] in ("array", "struct"):
        if isinstance(getattr(attr, "value", None), str):
            value = tuple(np.int8(b if b < 128 else b - 256)
                          for b in attr.value.encode("utf-8", "surrogateescape"))
        else:
            value = _attr_value(attr, str(t))

        def agg(ex, frame, args):
            return [value]
        return agg
    return LOWERINGS["arith.constant"](op, c)


@lowering("llvm.mlir.undef", "llvm.mlir.poison", "llvm.mlir.zero")
def _zero(op: Operation, c):
    t = op.results[0].type
    value = zero_of(str(t))

    def step(ex, frame, args):
        return [runtime(value, t, frame.space)]
    return step


# -- aggregates -----------------------------------------------------------------------------------

def _member_types(t: str, position) -> list:
    """The type texts along ``position`` (the container's first)."""
    types = [_type_text(t)]
    for i in position:
        parts = _parts(types[-1])
        types.append(parts[2] if parts[0] == "array" else parts[1][i])
    return types


@lowering("llvm.extractvalue")
def _extractvalue(op: Operation, c):
    pos = list(op.attributes["position"].value)
    t = op.results[0].type

    def step(ex, frame, args):
        x = args[0]
        for i in pos:
            x = x[i]
        return [runtime(x, t, frame.space)]
    return step


@lowering("llvm.insertvalue")
def _insertvalue(op: Operation, c):
    pos = list(op.attributes["position"].value)

    def put(agg, k, v):
        if k == len(pos):
            return v
        items = list(agg)
        items[pos[k]] = put(items[pos[k]], k + 1, v)
        return tuple(items)

    def step(ex, frame, args):
        return [put(args[0], 0, plain(args[1]))]
    return step


# -- memory -----------------------------------------------------------------------------------------

@lowering("llvm.alloca")
def _alloca(op: Operation, c):
    elem = str(op.attributes["elem_type"].value)
    size = _layout(_type_text(elem))[0]

    def step(ex, frame, args):
        _host_only(ex, op)
        n = int(np.asarray(frame.space.array(args[0]) if not isinstance(args[0], np.ndarray)
                           else args[0]).reshape(-1)[0])
        if n < 0:
            raise ub(f"llvm.alloca of {n} elements")
        ex_id = ex.next_id() if hasattr(ex, "next_id") else 0
        mem = _register(ex, Mem(f"alloca#{ex_id}", n * size))
        return [mem.pointer()]
    return step


@lowering("llvm.load")
def _load(op: Operation, c):
    t = op.results[0].type
    text = _type_text(t)
    size = _layout(text)[0]

    def step(ex, frame, args):
        _host_only(ex, op)
        ptr = args[0]
        mem = _check(ptr, size, "load")
        x = decode(ptr.data, mem.ptrs if mem is not None else None, ptr.offset, text)
        return [runtime(x, t, frame.space)]
    return step


@lowering("llvm.store")
def _store(op: Operation, c):
    text = _type_text(op.operands[0].type)
    size = _layout(text)[0]

    def step(ex, frame, args):
        _host_only(ex, op)
        ptr = args[1]
        mem = _check(ptr, size, "store", write=True)
        encode(mem.data, mem.ptrs, ptr.offset, text, plain(args[0]))
        return []
    return step


# -- integers -------------------------------------------------------------------------------------

_ARITH = {"add": "arith.addi", "sub": "arith.subi", "mul": "arith.muli", "shl": "arith.shli",
          "sdiv": "arith.divsi", "udiv": "arith.divui", "srem": "arith.remsi",
          "urem": "arith.remui", "and": "arith.andi", "or": "arith.ori", "xor": "arith.xori",
          "lshr": "arith.shrui", "ashr": "arith.shrsi",
          "fadd": "arith.addf", "fsub": "arith.subf", "fmul": "arith.mulf",
          "fdiv": "arith.divf", "frem": "arith.remf", "fneg": "arith.negf",
          "fcmp": "arith.cmpf", "select": "arith.select",
          "sitofp": "arith.sitofp", "uitofp": "arith.uitofp", "fptosi": "arith.fptosi",
          "fptoui": "arith.fptoui", "fpext": "arith.extf", "fptrunc": "arith.truncf"}


def _obj(x) -> np.ndarray:
    return np.asarray(x).astype(object)


def _flag_check(op: Operation):
    """``check(a, b) -> message or None`` for the op's poison-generating flags, or None."""
    name = op.name.split(".", 1)[1]
    a = op.attributes
    flags = int(a["overflowFlags"].value) if "overflowFlags" in a else 0
    exact = "isExact" in a
    sem = int_of(op.results[0].type)
    n = sem.bits
    lo, hi, top = -(1 << (n - 1)), (1 << (n - 1)) - 1, (1 << n) - 1
    checks = []
    if name in ("add", "sub", "mul", "shl") and flags:
        def exact_fn(x, y):
            if name == "shl":
                return x * np.vectorize(lambda k: 1 << int(k) if 0 <= k < n else 0,
                                        otypes=[object])(y)
            return x + y if name == "add" else x - y if name == "sub" else x * y
        if flags & 1:
            checks.append(lambda x, y: ("nsw", exact_fn(_obj(sem.s(x)), _obj(sem.u(y) if name == "shl" else sem.s(y)))))
        if flags & 2:
            checks.append(lambda x, y: ("nuw", exact_fn(_obj(sem.u(x)), _obj(sem.u(y)))))

        def check(x, y):
            for c in checks:
                word, r = c(x, y)
                ok = (r >= lo) & (r <= hi) if word == "nsw" else (r >= 0) & (r <= top)
                bad = ~np.asarray(ok, dtype=bool)
                if bad.any():
                    return f"{op.name} with {word} overflows (poison)", bad
            return None
        return check
    if exact and name in ("sdiv", "udiv"):
        def check(x, y):
            xs, ys = (_obj(sem.s(x)), _obj(sem.s(y))) if name == "sdiv" else \
                (_obj(sem.u(x)), _obj(sem.u(y)))
            bad = np.asarray([(b != 0 and abs(p) % abs(b) != 0) for p, b in
                              zip(np.ravel(xs), np.ravel(ys))], dtype=bool).reshape(xs.shape)
            return (f"{op.name} exact with a remainder (poison)", bad) if bad.any() else None
        return check
    if exact and name in ("lshr", "ashr"):
        def check(x, y):
            xu, ys = _obj(sem.u(x)), _obj(sem.u(y))
            bad = np.asarray([(0 <= k < n and p % (1 << int(k)) != 0) for p, k in
                              zip(np.ravel(xu), np.ravel(ys))], dtype=bool).reshape(xu.shape)
            return (f"{op.name} exact shifts out set bits (poison)", bad) if bad.any() \
                else None
        return check
    if name == "or" and "isDisjoint" in a:
        def check(x, y):
            bad = np.asarray((_obj(sem.u(x)) & _obj(sem.u(y))) != 0, dtype=bool)
            return (f"{op.name} disjoint with common set bits (poison)", bad) \
                if bad.any() else None
        return check
    return None


def _lower_int(op: Operation, c):
    inner = LOWERINGS[_ARITH[op.name.split(".", 1)[1]]](op, c)
    check = _flag_check(op)
    if check is None:
        return inner

    def step(ex, frame, args):
        space = frame.space
        a, b = (space.array(x) if not isinstance(x, np.ndarray) else x for x in args)
        found = check(a, b)
        if found is not None:
            raise ub(found[0], found[1])
        return inner(ex, frame, args)
    return step


for _name in ("add", "sub", "mul", "shl", "sdiv", "udiv", "srem", "urem", "and", "or", "xor",
              "lshr", "ashr"):
    lowering("llvm." + _name)(_lower_int)


def _delegate(op: Operation, c):
    return LOWERINGS[_ARITH[op.name.split(".", 1)[1]]](op, c)


for _name in ("fadd", "fsub", "fmul", "fdiv", "frem", "fneg", "fcmp", "select", "sitofp",
              "fptosi", "fptoui", "fpext", "fptrunc"):
    lowering("llvm." + _name)(_delegate)


@lowering("llvm.freeze")
def _freeze(op: Operation, c):
    """The value itself: undef and poison are never produced (they read as zero, and a
    violated flag is reported where it happens), so there is nothing to fix."""
    def step(ex, frame, args):
        return [args[0]]
    return step


@lowering("llvm.uitofp")
def _uitofp(op: Operation, c):
    inner = LOWERINGS["arith.uitofp"](op, c)
    if "nonNeg" not in op.attributes:
        return inner
    sem = int_of(op.operands[0].type)

    def step(ex, frame, args):
        bad = np.asarray(sem.s(np.asarray(args[0])) < 0)
        if bad.any():
            raise ub("llvm.uitofp nneg of a negative value (poison)", bad)
        return inner(ex, frame, args)
    return step


# -- comparisons ------------------------------------------------------------------------------------

@lowering("llvm.icmp")
def _icmp(op: Operation, c):
    from ....dialects.llvm.core import ICMP_PREDICATES
    pred = ICMP_PREDICATES[int(op.attributes["predicate"].value)]
    if _is_ptr(op.operands[0].type):
        def ptr_step(ex, frame, args):
            p, q = args
            if pred in ("eq", "ne"):
                same = p.same_place(q) or (p.data is q.data and p.offset == q.offset)
                return [frame.space.uniform(same == (pred == "eq"), np.bool_)]
            if p.data is not q.data:
                raise LaneFault("llvm.icmp: relational comparison of pointers into different "
                                "objects", kind=UnsupportedError)
            from .intsem import COMPARISONS
            fn = COMPARISONS[pred[1:]]
            return [frame.space.uniform(bool(fn(p.offset, q.offset)), np.bool_)]
        return ptr_step
    sem = int_of(op.operands[0].type)

    def step(ex, frame, args):
        a, b = (frame.space.array(x) if not isinstance(x, np.ndarray) else x for x in args)
        return [sem.compare(pred, a, b)]
    return step


# -- integer casts ----------------------------------------------------------------------------------

@lowering("llvm.sext", "llvm.zext", "llvm.trunc")
def _int_resize(op: Operation, c):
    src = int_of(op.operands[0].type)
    dst = int_of(op.results[0].type)
    kind = op.name.split(".")[1]
    flags = int(op.attributes["overflowFlags"].value) if "overflowFlags" in op.attributes else 0
    nneg = "nonNeg" in op.attributes

    def step(ex, frame, args):
        x = args[0]
        if kind == "sext":
            return [src.s(x).astype(dst.dtype)]
        if kind == "zext":
            if nneg:
                bad = np.asarray(src.s(x) < 0)
                if bad.any():
                    raise ub("llvm.zext nneg of a negative value (poison)", bad)
            return [src.u(x).astype(dst.udtype).view(dst.dtype) if dst.bits > 1
                    else src.u(x).astype(bool)]
        if flags:
            xs, xu = _obj(src.s(x)), _obj(src.u(x))
            n = dst.bits
            if flags & 1:
                bad = np.asarray((xs < -(1 << (n - 1))) | (xs > (1 << (n - 1)) - 1), dtype=bool)
                if bad.any():
                    raise ub("llvm.trunc with nsw changes the signed value (poison)", bad)
            if flags & 2:
                bad = np.asarray(xu > (1 << n) - 1, dtype=bool)
                if bad.any():
                    raise ub("llvm.trunc with nuw changes the unsigned value (poison)", bad)
        return [dst.wrap(src.s(x).astype(np.int64) if dst.bits == 1 else src.s(x))]
    return step


# -- pointer casts ----------------------------------------------------------------------------------

@lowering("llvm.bitcast", "llvm.addrspacecast")
def _bitcast(op: Operation, c):
    if _is_ptr(op.operands[0].type) or op.name == "llvm.addrspacecast":
        def same(ex, frame, args):
            return [args[0]]
        return same
    return LOWERINGS["arith.bitcast"](op, c)


@lowering("llvm.ptrtoint")
def _ptrtoint(op: Operation, c):
    dst = int_of(op.results[0].type)

    def step(ex, frame, args):
        p = args[0]
        address = 0 if p.mem is None and p.name == "null" else \
            (p.mem.address if p.mem is not None else _string_address(ex, p)) + p.offset
        return [dst.wrap(np.asarray(address, dtype=np.int64).reshape((1,) * frame.space.ndim))]
    return step


def _string_address(ex, p: HostPtr) -> int:
    st = _state(ex)
    key = ("bytes", id(p.data))
    if key not in st:
        st[key] = st["next"]
        st["next"] += (len(p.data) + 15) // 16 * 16 + 16
    return st[key]


@lowering("llvm.inttoptr")
def _inttoptr(op: Operation, c):
    src = int_of(op.operands[0].type)

    def step(ex, frame, args):
        address = int(np.asarray(src.u(np.asarray(args[0]))).reshape(-1)[0])
        if address == 0:
            return [NULL]
        for mem in _state(ex)["mems"]:
            if mem.address <= address <= mem.address + len(mem.data):
                return [HostPtr(mem.name, mem.data, address - mem.address, mem)]
        raise LaneFault(f"llvm.inttoptr of {address:#x}, which is no address of an object "
                        "tileir made", kind=UnsupportedError)
    return step
