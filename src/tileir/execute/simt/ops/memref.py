"""memref: allocation, descriptors (subview, casts, reshapes, views), globals, copies, atomics.

Descriptor arithmetic follows MLIR's strided memref model: element ``(i0, ...)`` of a memref is at
``offset + sum(i_k * stride_k)`` of its buffer.  Offsets, sizes and strides may differ per lane
(a subview at a thread-dependent offset); they stay :class:`~..lanes.Aff` in box spaces when they
can.  Every descriptor a view op builds is checked against its source (a subview reaching past its
source, a cast to a static size the memref does not have, a view past its byte buffer are
:class:`~tileir.execute.errors.MemoryAccessError`).

Workgroup and private memory in a kernel are one buffer holding a copy per block (thread); a
kernel sees only its own copy, as on a GPU: descriptor offsets reported by
``extract_strided_metadata`` count from the copy, its base is the copy's first element,
``reinterpret_cast`` offsets count from there and a descriptor reaching outside the copy is
out of bounds.  ``memref.view`` at a uniform byte shift gives, as MLIR lowers it, a descriptor
of offset 0 whose base is the shifted byte.

Choices where MLIR leaves values open: fresh allocations (``alloc``, ``alloca``, ``realloc``'s
new tail) are zero-filled; ``extract_aligned_pointer_as_index`` gives a made-up address that is
the same for one buffer and distinct between buffers.

Atomics (``atomic_rmw``, ``generic_atomic_rmw``) apply the lanes that hit one element one after
another in lane (thread) order, across blocks too; each lane gets the value it replaced.  The
``atomic_rmw`` kinds, and ``generic_atomic_rmw`` regions that are one arith op of the old value
and another value, run that sequence without one round per colliding lane
(:mod:`.atomic_order`); other regions, and NaN inputs of a float update, run in rounds.  The
float extrema (``maximumf``...) are arith's: ``-0 < +0``.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from ....ir.core import Operation
from ...errors import MemoryAccessError, UnsupportedError
from ..faults import LaneFault
from ..interp import affine
from ..lanes import Aff, BoxSpace, ROOT_NDIM, select
from ..layout import interleavable, physical
from ..memory import Buffer, MemRef, element_address, zeroed
from ..registry import LOWERINGS, lowering
from ..values import cell_dtype, narrow_bits, storage
from . import atomic_order
from .arith import _signed_zero_extremum
from .memref_access import check_host_access

_DYNAMIC = -(1 << 63)
_ZERO = (0,) * ROOT_NDIM


def _fault(message: str) -> LaneFault:
    return LaneFault(message, kind=MemoryAccessError)


def _const(x: Any):
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, Aff):
        return x.const if x.is_constant else None
    arr = np.asarray(x)
    return int(arr.reshape(-1)[0]) if arr.size == 1 else None


def _norm(space, x: Any) -> Any:
    """A descriptor field: an int when uniform, else an Aff (box spaces) or int64 lane array."""
    k = _const(x)
    if k is not None:
        return k
    if isinstance(x, Aff):
        return x if isinstance(space, BoxSpace) else space.array(x).astype(np.int64)
    return np.asarray(x).astype(np.int64, copy=False)


def _add(space, a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if isinstance(space, BoxSpace) and all(isinstance(x, (int, Aff)) for x in (a, b)):
        aa = a if isinstance(a, Aff) else Aff(a, _ZERO, np.dtype(np.int64))
        return aa.plus(b)
    return _arr(space, a) + _arr(space, b)


def _mul(space, a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(a, Aff) and isinstance(b, int):
        return a.times(b)
    if isinstance(b, Aff) and isinstance(a, int):
        return b.times(a)
    return _arr(space, a) * _arr(space, b)


def _arr(space, x: Any) -> np.ndarray:
    if isinstance(x, Aff):
        return space.array(x).astype(np.int64, copy=False)
    return np.asarray(x, dtype=np.int64)


def _mixed(static: Sequence[int], dynamic: list, space) -> list:
    """Static values with the dynamic operands filled in where they are ``kDynamic``."""
    out, it = [], iter(dynamic)
    for s in static:
        out.append(_norm(space, next(it)) if s == _DYNAMIC else int(s))
    return out


def _identity_strides(sizes: Sequence[Any], space) -> list:
    strides, acc = [], 1
    for s in reversed(sizes):
        strides.append(acc)
        acc = _mul(space, acc, s)
    return list(reversed(strides))


def _shape_values(t, dynamic: list, space) -> list:
    it = iter(dynamic)
    return [int(s) if s is not None else _norm(space, next(it)) for s in t.shape]


def _check_static(ref: MemRef, t, what: str) -> None:
    shape = getattr(t, "shape", None)
    if shape is None:
        return
    for k, (want, got) in enumerate(zip(shape, ref.sizes)):
        g = _const(got)
        if want is not None and g is not None and g != want:
            raise _fault(f"{what}: dimension {k} has size {g}, the result type says {want}")


# -- allocation -----------------------------------------------------------------------------------

def _allocate(ex, frame, t, sizes: list, name: str, interleave: bool = False) -> MemRef:
    if any(not isinstance(s, int) for s in sizes):
        if getattr(ex, "kind", "") != "kernel":
            raise LaneFault(f"{name} with sizes that differ between lanes",
                            kind=UnsupportedError)
        return _allocate_per_thread(ex, frame, t, sizes, name)
    if any(s < 0 for s in sizes):
        raise _fault(f"{name} with a negative size {sizes}")
    if getattr(ex, "kind", "") == "kernel":
        ref = ex.allocate("private", t.element, sizes, name, interleave)
        if frame.space is not ex.root:
            ref = _enter_from_root(frame.space, ref)
    else:
        buf = Buffer(zeroed(sizes, cell_dtype(t.element), name), "host", name)
        ref = MemRef(buf, 0, sizes, _identity_strides(sizes, frame.space))
    ref.type = t
    return ref


def _allocate_per_thread(ex, frame, t, sizes: list, name: str) -> MemRef:
    """A kernel's ``alloc``/``alloca`` whose sizes differ between threads: each thread's own
    zero-filled copy with its own sizes (identity strides), the copies as long as the largest
    one; an access beyond a thread's own sizes is out of bounds for it."""
    space = frame.space
    arrs = [_arr(space, s) for s in sizes]
    counts = np.ones((), np.int64)
    for a in arrs:
        if a.size and int(a.min()) < 0:
            raise LaneFault(f"{name} with a negative size", a < 0, kind=MemoryAccessError)
        counts = counts * a
    longest = int(counts.max()) if counts.size else 0
    ref = ex.allocate("private", t.element, [longest], name)
    if space is not ex.root:
        ref = _enter_from_root(space, ref)
    own = [_norm(space, s) for s in sizes]
    new = MemRef(ref.buffer, ref.offset, own, _identity_strides(own, space))
    new.type = t
    return new


def _enter_from_root(space, ref):
    chain = []
    s = space
    while s.parent is not None:
        chain.append(s)
        s = s.parent
    for s in reversed(chain):
        ref = s.enter(ref)
    return ref


@lowering("memref.alloc", "memref.alloca")
def _alloc(op: Operation, c):
    t = op.results[0].type
    n_dyn = (op.segments or (len(op.operands), 0))[0]

    interleave = interleavable(op.results[0])

    def step(ex, frame, args):
        sizes = _shape_values(t, args[:n_dyn], frame.space)
        return [_allocate(ex, frame, t, sizes, op.name, interleave)]
    return affine(step)


@lowering("memref.realloc")
def _realloc(op: Operation, c):
    t = op.results[0].type

    def step(ex, frame, args):
        src = args[0]
        sizes = _shape_values(t, args[1:], frame.space)
        new = _allocate(ex, frame, t, sizes, op.name)
        old = src.to_numpy().reshape(-1)
        dst = new.to_numpy().reshape(-1)
        n = min(old.size, dst.size)
        dst[:n] = old[:n]
        src.buffer.freed = True
        return [new]
    return step


@lowering("memref.dealloc")
def _dealloc(op: Operation, c):
    def step(ex, frame, args):
        ref = args[0]
        buf = ref.buffer
        if buf.space == "host" and buf.name.startswith("argument"):
            raise _fault("dealloc of memory the caller owns (a gpu.run argument)")
        if buf.freed:
            raise _fault(f"double dealloc of {buf.name}")
        if buf.space in ("device", "host_shared"):
            raise _fault(f"memref.dealloc of {buf.name}: memory from gpu.alloc is freed with "
                         "gpu.dealloc")
        if buf.space in ("global", "workgroup") or buf.name == "memref.alloca" or \
                "attribution" in buf.name:
            raise _fault(f"memref.dealloc of {buf.name}, which memref.alloc did not allocate")
        ref.buffer.freed = True
        return []
    return step


@lowering("memref.alloca_scope")
def _alloca_scope(op: Operation, c):
    region = op.regions[0]

    def step(ex, frame, args):
        return ex.run_single(region, frame).values
    return step


@lowering("memref.global")
def _global(op: Operation, c):
    def step(ex, frame, args):  # a declaration: buffers are made by get_global
        return []
    return step


def global_buffer(program, name: str, decl: Optional[Operation] = None) -> MemRef:
    """The buffer of the ``memref.global`` ``decl`` (by default the program's global
    ``@name``), made once per Program: globals of the same name in different symbol tables
    (the host module, each ``gpu.module``) are different buffers."""
    if decl is None:
        decl = program.globals.get(name)
        if decl is None:
            raise LaneFault(f"no memref.global @{name}", kind=UnsupportedError)
    ref = program.global_buffers.get(decl)
    if ref is not None:
        return ref
    t = decl.attributes["type"].value
    shape = [int(s) for s in t.shape]
    n = int(np.prod(shape, dtype=np.int64)) if shape else 1
    data = np.zeros(n, dtype=storage(t))
    init = decl.attributes.get("initial_value")
    if init is not None and hasattr(init, "array"):
        arr = init.array() if callable(init.array) else init.array
        bits = narrow_bits(str(t.element_type))
        if bits is not None:       # i4 etc.: literals may be written unsigned (15 is -1)
            from .intsem import Int
            arr = Int(bits, "").wrap(np.asarray(arr).astype(np.int64))
        data[:] = np.broadcast_to(np.asarray(arr).astype(data.dtype).reshape(-1)
                                  if np.asarray(arr).size == n else np.asarray(arr), (n,))
    buf = Buffer(data, "global", f"memref.global @{name}",
                 read_only="constant" in decl.attributes)
    ref = MemRef(buf, 0, shape, _identity_strides(shape, None), t)
    program.global_buffers[decl] = ref
    return ref


@lowering("memref.get_global")
def _get_global(op: Operation, c):
    name = str(op.attributes["name"]).lstrip("@")
    # the global the op names in its nearest symbol table (MLIR's lookupNearestSymbolFrom): a
    # kernel's own gpu.module before the host module
    from ....ir.verify import nearest_symbol_table, symbol_lookup
    table = nearest_symbol_table(op)
    decl = symbol_lookup(table, name) if table is not None else None
    if decl is not None and decl.name != "memref.global":
        decl = None

    def step(ex, frame, args):
        program = getattr(ex, "program", None)
        if program is None:
            raise LaneFault("memref.get_global without a program", kind=UnsupportedError)
        return [global_buffer(program, name, decl)]
    return step


# -- queries --------------------------------------------------------------------------------------

@lowering("memref.dim")
def _dim(op: Operation, c):
    def step(ex, frame, args):
        ref, k = args
        k = _const(k)
        if k is None or not 0 <= k < ref.rank:
            raise LaneFault(f"memref.dim index {k} out of range for rank {ref.rank} "
                            "(undefined behaviour)")
        s = ref.sizes[k]
        space = frame.space
        if isinstance(s, int):
            return [Aff(s, _ZERO, np.dtype(np.int64)) if isinstance(space, BoxSpace)
                    else space.uniform(s, np.int64)]
        return [s]
    return affine(step)


@lowering("memref.rank")
def _rank(op: Operation, c):
    def step(ex, frame, args):
        return [frame.space.uniform(args[0].rank, np.int64)]
    return step


def _copy_base(ex, space, buf: Buffer) -> Any:
    """Where the lanes' own copy of ``buf`` begins: 0, or for per-block / per-thread memory
    in a kernel (``buf.per_copy``) the copy's first element (see
    :meth:`~..kernel.KernelExecutor.copy_base`)."""
    if not buf.per_copy or getattr(ex, "kind", "") != "kernel":
        return 0
    return _norm(space, ex.copy_base(space, buf))


@lowering("memref.extract_strided_metadata")
def _metadata(op: Operation, c):
    def step(ex, frame, args):
        ref = args[0]
        space = frame.space
        # a block (thread) sees its own copy of workgroup (private) memory, at the same
        # address in every block: offsets count from the copy, and the base is the copy
        origin = _copy_base(ex, space, ref.buffer)
        offset = ref.offset if type(origin) is int and origin == 0 else \
            _norm(space, _add(space, ref.offset, _mul(space, origin, -1)))
        base = MemRef(ref.buffer, origin, [], [], op.results[0].type)

        def val(x):
            return space.uniform(x, np.int64) if isinstance(x, int) else x
        return [base, val(offset)] + [val(s) for s in ref.sizes] + \
            [val(s) for s in ref.strides]
    return affine(step)


@lowering("memref.extract_aligned_pointer_as_index")
def _aligned_pointer(op: Operation, c):
    def step(ex, frame, args):
        return [frame.space.uniform(args[0].buffer.ident << 32, np.int64)]
    return step


@lowering("memref.assume_alignment", "memref.memory_space_cast")
def _same(op: Operation, c):
    def step(ex, frame, args):
        ref = args[0]
        return [MemRef(ref.buffer, ref.offset, ref.sizes, ref.strides, op.results[0].type)] \
            if op.results else []
    return affine(step)


@lowering("memref.prefetch")
def _prefetch(op: Operation, c):
    def step(ex, frame, args):
        return []
    return step


# -- new descriptors ------------------------------------------------------------------------------

@lowering("memref.cast")
def _cast(op: Operation, c):
    t = op.results[0].type

    def step(ex, frame, args):
        ref = args[0]
        _check_static(ref, t, "memref.cast")
        return [MemRef(ref.buffer, ref.offset, ref.sizes, ref.strides, t)]
    return affine(step)


def _rank_reduced(sizes: list, strides: list, result_shape: Sequence) -> tuple[list, list]:
    """Drop unit dimensions so that ``sizes`` matches the result type's rank."""
    drop = len(sizes) - len(result_shape)
    if drop <= 0:
        return sizes, strides
    keep_sizes, keep_strides = [], []
    j = 0
    for k, (s, st) in enumerate(zip(sizes, strides)):
        left_src, left_res = len(sizes) - k, len(result_shape) - j
        unit = isinstance(s, int) and s == 1
        if drop and unit and left_src > left_res and \
                (j >= len(result_shape) or result_shape[j] != 1 or left_src - 1 >= left_res):
            drop -= 1
            continue
        keep_sizes.append(s)
        keep_strides.append(st)
        j += 1
    return keep_sizes, keep_strides


@lowering("memref.subview")
def _subview(op: Operation, c):
    t = op.results[0].type
    seg = op.segments or (1, 0, 0, 0)
    s_off = [int(x) for x in op.attributes["static_offsets"].value]
    s_size = [int(x) for x in op.attributes["static_sizes"].value]
    s_str = [int(x) for x in op.attributes["static_strides"].value]

    def step(ex, frame, args):
        space = frame.space
        ref = args[0]
        dyn = args[1:]
        offs = _mixed(s_off, dyn[:seg[1]], space)
        sizes = _mixed(s_size, dyn[seg[1]:seg[1] + seg[2]], space)
        steps = _mixed(s_str, dyn[seg[1] + seg[2]:], space)
        _check_window(space, ref, offs, sizes, steps)
        offset = ref.offset
        for o, st in zip(offs, ref.strides):
            offset = _add(space, offset, _mul(space, o, st))
        strides = [_mul(space, st, k) for st, k in zip(ref.strides, steps)]
        sizes, strides = _rank_reduced(sizes, strides, list(t.shape))
        return [MemRef(ref.buffer, _norm(space, offset) if not isinstance(offset, Aff)
                       else offset, sizes, strides, t)]
    return affine(step)


def _check_window(space, ref: MemRef, offs: list, sizes: list, steps: list) -> None:
    for k, (o, n, st, full) in enumerate(zip(offs, sizes, steps, ref.sizes)):
        if all(isinstance(x, int) for x in (o, n, st, full)):
            last = o + (n - 1) * st
            if n > 0 and (o < 0 or last >= full or last < 0):
                raise _fault(f"subview dimension {k} reaches [{o}, {last}] outside the source's "
                             f"size {full}")
            continue
        o_a, n_a, st_a, f_a = (_arr(space, x) for x in (o, n, st, full))
        last = o_a + (n_a - 1) * st_a
        bad = (n_a > 0) & ((o_a < 0) | (last >= f_a) | (last < 0))
        if np.any(bad):
            raise LaneFault(f"subview dimension {k} reaches outside its source",
                            np.asarray(bad), kind=MemoryAccessError)


@lowering("memref.reinterpret_cast")
def _reinterpret_cast(op: Operation, c):
    t = op.results[0].type
    seg = op.segments or (1, 0, 0, 0)
    s_off = [int(x) for x in op.attributes["static_offsets"].value]
    s_size = [int(x) for x in op.attributes["static_sizes"].value]
    s_str = [int(x) for x in op.attributes["static_strides"].value]

    def step(ex, frame, args):
        space = frame.space
        ref = args[0]
        dyn = args[1:]
        offset = _mixed(s_off, dyn[:seg[1]], space)[0]
        sizes = _mixed(s_size, dyn[seg[1]:seg[1] + seg[2]], space)
        strides = _mixed(s_str, dyn[seg[1] + seg[2]:], space)
        origin = _copy_base(ex, space, ref.buffer)
        if type(origin) is int and origin == 0:
            new = MemRef(ref.buffer, offset, sizes, strides, t)
            _check_extent(new)
            return [new]
        # the block's (thread's) own copy: the offset counts from its start, and the
        # descriptor must stay inside it (the other copies are other blocks' memory)
        _check_copy_extent(space, ref.buffer, offset, sizes, strides)
        return [MemRef(ref.buffer, _norm(space, _add(space, origin, offset)), sizes, strides, t)]
    return affine(step)


def _check_copy_extent(space, buf: Buffer, offset: Any, sizes: list, strides: list) -> None:
    """A descriptor of per-block / per-thread memory, its offset counted from the lane's own
    copy, must stay inside that copy (for every lane)."""
    n = buf.copy_elements
    whose = "block's" if buf.space == "workgroup" else "thread's"
    if all(isinstance(v, int) for v in [offset, *sizes, *strides]):
        if any(k == 0 for k in sizes):
            return
        lo = offset + sum(min(0, (k - 1) * st) for k, st in zip(sizes, strides))
        hi = offset + sum(max(0, (k - 1) * st) for k, st in zip(sizes, strides))
        if lo < 0 or hi >= n:
            raise _fault(f"descriptor reaches elements [{lo}, {hi}] outside the {whose} own "
                         f"{buf.name} ({n} elements)")
        return
    lo = hi = _arr(space, offset)
    empty = np.zeros((), bool)
    for k, st in zip(sizes, strides):
        k_a, st_a = _arr(space, k), _arr(space, st)
        empty = empty | (k_a == 0)
        span = (k_a - 1) * st_a
        lo = lo + np.minimum(0, span)
        hi = hi + np.maximum(0, span)
    bad = ~empty & ((lo < 0) | (hi >= n))
    if np.any(bad):
        first = tuple(np.argwhere(np.broadcast_to(bad, np.broadcast(bad, lo, hi).shape))[0])

        def at(x):
            x = np.broadcast_to(x, np.broadcast(bad, lo, hi).shape)
            return int(x[first])
        raise LaneFault(f"descriptor reaches elements [{at(lo)}, {at(hi)}] outside the "
                        f"{whose} own {buf.name} ({n} elements)", np.asarray(bad),
                        kind=MemoryAccessError)


def _check_extent(ref: MemRef) -> None:
    """A uniform descriptor must stay inside its buffer."""
    vals = [ref.offset] + list(ref.sizes) + list(ref.strides)
    if not all(isinstance(v, int) for v in vals):
        return
    if any(n == 0 for n in ref.sizes):
        return
    lo = ref.offset + sum(min(0, (n - 1) * s) for n, s in zip(ref.sizes, ref.strides))
    hi = ref.offset + sum(max(0, (n - 1) * s) for n, s in zip(ref.sizes, ref.strides))
    if lo < 0 or hi >= ref.buffer.size:
        raise _fault(f"descriptor reaches elements [{lo}, {hi}] outside {ref.buffer.name} "
                     f"({ref.buffer.size} elements)")


def _groups(op: Operation) -> list[list[int]]:
    return [[int(x.value) for x in g.value] for g in op.attributes["reassociation"].value]


@lowering("memref.expand_shape")
def _expand_shape(op: Operation, c):
    t = op.results[0].type
    groups = _groups(op)
    static = [int(x) for x in op.attributes["static_output_shape"].value] \
        if "static_output_shape" in op.attributes else [s if s is not None else _DYNAMIC
                                                         for s in t.shape]

    def step(ex, frame, args):
        space = frame.space
        ref = args[0]
        out_sizes = _mixed(static, args[1:], space)
        sizes, strides = [None] * len(out_sizes), [None] * len(out_sizes)
        for src_dim, group in enumerate(groups):
            acc = ref.strides[src_dim]
            for d in reversed(group):
                sizes[d] = out_sizes[d]
                strides[d] = acc
                acc = _mul(space, acc, out_sizes[d])
            total = 1
            for d in group:
                total = _mul(space, total, out_sizes[d])
            if isinstance(total, int) and isinstance(ref.sizes[src_dim], int) and \
                    total != ref.sizes[src_dim]:
                raise _fault(f"expand_shape: sizes {[out_sizes[d] for d in group]} do not "
                             f"multiply to {ref.sizes[src_dim]}")
        return [MemRef(ref.buffer, ref.offset, sizes, strides, t)]
    return affine(step)


@lowering("memref.collapse_shape")
def _collapse_shape(op: Operation, c):
    t = op.results[0].type
    groups = _groups(op)

    def step(ex, frame, args):
        space = frame.space
        ref = args[0]
        sizes, strides = [], []
        for group in groups:
            total = 1
            for d in group:
                total = _mul(space, total, ref.sizes[d])
            for a, b in zip(group, group[1:]):  # contiguity within the group
                sa, sb, nb = ref.strides[a], ref.strides[b], ref.sizes[b]
                if all(isinstance(x, int) for x in (sa, sb, nb)) and nb != 1 and sa != sb * nb:
                    raise _fault("collapse_shape of dimensions that are not contiguous")
            sizes.append(total)
            strides.append(ref.strides[group[-1]] if group else 1)
        return [MemRef(ref.buffer, ref.offset, sizes, strides, t)]
    return affine(step)


@lowering("memref.transpose")
def _transpose(op: Operation, c):
    t = op.results[0].type
    amap = op.attributes["permutation"].value
    perm = list(amap.evaluate(list(range(amap.n_dims))))

    def step(ex, frame, args):
        ref = args[0]
        return [MemRef(ref.buffer, ref.offset, [ref.sizes[p] for p in perm],
                       [ref.strides[p] for p in perm], t)]
    return affine(step)


@lowering("memref.reshape")
def _reshape(op: Operation, c):
    t = op.results[0].type

    def step(ex, frame, args):
        ref, shape_ref = args
        shape = [int(x) for x in np.asarray(shape_ref.to_numpy()).reshape(-1)]
        if int(np.prod(shape)) != int(np.prod([_const(s) for s in ref.sizes])):
            raise _fault(f"memref.reshape to {shape}: element count differs")
        return [MemRef(ref.buffer, ref.offset, shape, _identity_strides(shape, None), t)]
    return step


_TYPED_VIEWS: dict = {}


@lowering("memref.view")
def _view(op: Operation, c):
    t = op.results[0].type
    dtype = np.dtype(storage(t))

    def step(ex, frame, args):
        space = frame.space
        src, shift = args[0], args[1]
        sizes = _shape_values(t, args[2:], space)
        data = src.buffer.data
        if data.itemsize != 1:
            raise _fault("memref.view of a memref whose elements are not bytes")
        item = dtype.itemsize
        ref = _shifted_view(ex, space, src, _const(shift), dtype, t, sizes)
        if ref is not None:
            _check_view_size(src, shift, sizes, item)
            return [ref]
        byte_off = _add(space, src.offset, _norm(space, shift))
        if isinstance(byte_off, Aff):
            if byte_off.const % item or any(k % item for k in byte_off.coef):
                raise _fault(f"memref.view byte shift not a multiple of {item}")
            offset = Aff(byte_off.const // item, tuple(k // item for k in byte_off.coef),
                         byte_off.dtype)
        else:
            arr = _arr(space, byte_off)
            if np.any(arr % item):
                raise _fault(f"memref.view byte shift not a multiple of the element size {item}")
            offset = _norm(space, arr // item)
        key = (src.buffer.ident, dtype.str)
        buf = _TYPED_VIEWS.get(key)
        if buf is None or buf.data.base is not data and buf.data.base is not data.base:
            usable = data.size - data.size % item
            buf = Buffer(data[:usable].view(dtype), src.buffer.space,
                         f"{src.buffer.name} as {t.element}")
            if src.buffer.copy_size % item == 0:
                buf.copy_size = src.buffer.copy_size // item
                buf.copy_extent = src.buffer.copy_elements // item
            _TYPED_VIEWS[key] = buf
        ref = MemRef(buf, offset, sizes, _identity_strides(sizes, space), t)
        _check_view_size(src, shift, sizes, item)
        return [ref]
    return affine(step)


def _check_view_size(src: MemRef, shift: Any, sizes: list, item: int) -> None:
    n_bytes = src.sizes[0] if src.sizes else 0
    total = item * int(np.prod([_const(s) or 0 for s in sizes])) if all(
        _const(s) is not None for s in sizes) else None
    shift_k = _const(shift)
    if total is not None and shift_k is not None and isinstance(n_bytes, int) and \
            shift_k + total > n_bytes:
        raise _fault(f"memref.view of {total} bytes at byte {shift_k} reaches past the "
                     f"{n_bytes}-byte buffer")


def _shifted_view(ex, space, src: MemRef, shift, dtype: np.dtype, t, sizes: list):
    """``memref.view`` at a uniform byte ``shift``, as MLIR lowers it: the view's aligned
    pointer is the source's plus ``shift`` and its offset is 0 (what
    ``extract_strided_metadata`` shows), so the view is a buffer of ``dtype`` starting at that
    byte -- in every copy of per-block / per-thread memory.  None where that does not apply
    (a per-lane shift or source offset, copies whose size is not a multiple of the element
    size): the caller then views the whole buffer at an offset."""
    if shift is None:
        return None
    item = dtype.itemsize
    origin = _copy_base(ex, space, src.buffer)
    rel = _const(src.offset) if type(origin) is int and origin == 0 else \
        _const(_norm(space, _add(space, src.offset, _mul(space, origin, -1))))
    if rel is None or rel + shift < 0:
        return None
    start = rel + shift
    if start % item:
        raise _fault(f"memref.view byte shift not a multiple of the element size {item}")
    per_copy = src.buffer.per_copy and getattr(ex, "kind", "") == "kernel"
    if per_copy and src.buffer.copy_size % item:
        return None
    data = src.buffer.data
    key = (src.buffer.ident, dtype.str, start)
    buf = _TYPED_VIEWS.get(key)
    if buf is None or buf.data.base is not data and buf.data.base is not data.base:
        usable = max(0, (data.size - start) // item)
        buf = Buffer(data[start:start + usable * item].view(dtype), src.buffer.space,
                     f"{src.buffer.name} as {t.element}")
        if src.buffer.copy_size and src.buffer.copy_size % item == 0:
            buf.copy_size = src.buffer.copy_size // item
            buf.copy_extent = max(0, (src.buffer.copy_elements - start) // item)
        _TYPED_VIEWS[key] = buf
    offset = _copy_base(ex, space, buf) if per_copy else 0
    return MemRef(buf, offset, sizes, _identity_strides(sizes, space), t)


# -- copies ---------------------------------------------------------------------------------------

def _uniform(ref: MemRef) -> bool:
    """Whether ``ref`` is the same for every lane and has a NumPy view (plain layout)."""
    return ref.buffer.layout is None and \
        all(isinstance(x, int) for x in [ref.offset, *ref.sizes, *ref.strides])


@lowering("memref.copy")
def _copy(op: Operation, c):
    def step(ex, frame, args):
        src, dst = args
        check_host_access(ex, src, op)
        check_host_access(ex, dst, op)
        if src.buffer.freed or dst.buffer.freed:
            raise _fault("memref.copy of deallocated memory")
        if dst.buffer.read_only:
            raise _fault(f"memref.copy into read-only {dst.buffer.name}")
        if _uniform(src) and _uniform(dst):
            if list(src.sizes) != list(dst.sizes):
                raise _fault(f"memref.copy between shapes {list(src.sizes)} and "
                             f"{list(dst.sizes)}")
            dst.to_numpy()[...] = np.array(src.to_numpy())
            return []
        space = frame.space
        sizes = [_const(s) for s in src.sizes]
        if any(s is None for s in sizes):
            raise LaneFault("memref.copy of per-thread shapes", kind=UnsupportedError)
        for idx in np.ndindex(*sizes):
            ids = [Aff(i, _ZERO, np.dtype(np.int64)) if isinstance(space, BoxSpace)
                   else space.uniform(i, np.int64) for i in idx]
            from ..memory import load, store
            v = load(space, src.buffer, element_address(space, src, ids))
            store(space, dst.buffer, element_address(space, dst, ids), v)
        return []
    return step


# -- atomics --------------------------------------------------------------------------------------

#: memref.atomic_rmw kinds, in the order of the enum attribute's values
ATOMIC_KINDS = ("addf", "addi", "andi", "assign", "maximumf", "maxnumf", "maxs", "maxu",
                "minimumf", "minnumf", "mins", "minu", "mulf", "muli", "ori", "xori")


def _atomic_fn(kind: str, dtype: np.dtype):
    """``new = f(old, value)`` of one round of lanes (the general path); the float extrema are
    arith's (``-0 < +0``)."""
    def unsigned(fn):
        u = np.dtype(f"u{dtype.itemsize}")
        return lambda a, b: fn(a.view(u), b.view(u)).view(dtype)
    table = {
        "addf": np.add, "addi": np.add, "mulf": np.multiply, "muli": np.multiply,
        "andi": np.bitwise_and, "ori": np.bitwise_or, "xori": np.bitwise_xor,
        "assign": lambda a, b: b, "maximumf": _signed_zero_extremum(True, True),
        "minimumf": _signed_zero_extremum(False, True),
        "maxnumf": _signed_zero_extremum(True, False),
        "minnumf": _signed_zero_extremum(False, False), "maxs": np.maximum,
        "mins": np.minimum, "maxu": unsigned(np.maximum), "minu": unsigned(np.minimum)}
    return table[kind]


def _rounds(data: np.ndarray, a: np.ndarray, v: np.ndarray, fn, dtype) -> np.ndarray:
    """The general path of ``atomic_rmw``: one round per lane sharing an address, each
    applying ``fn`` to the next lane of every address (lane order); the values replaced."""
    order, uniq, starts, counts = atomic_order.lane_groups(a)
    cur = data[uniq].copy()
    old = np.empty(a.size, dtype)
    vs = v[order]
    for k in range(int(counts.max())):
        live = np.flatnonzero(counts > k)
        pos = starts[live] + k
        old[order[pos]] = cur[live]
        cur[live] = fn(cur[live], vs[pos])
    data[uniq] = cur
    return old


@lowering("memref.atomic_rmw")
def _atomic_rmw(op: Operation, c):
    kind = ATOMIC_KINDS[int(op.attributes["kind"].value)]
    dtype = np.dtype(storage(op.results[0].type))
    fn = _atomic_fn(kind, dtype)
    update = atomic_order.update_for_kind(kind, op.results[0].type)
    result_used = op.results[0].has_uses

    def step(ex, frame, args):
        value, ref, idx = args[0], args[1], args[2:]
        space = frame.space
        check_host_access(ex, ref, op)
        if ref.buffer.read_only:
            raise _fault(f"atomic_rmw on read-only {ref.buffer.name}")
        addr = element_address(space, ref, idx)
        if getattr(ex, "racelog", None) is not None:
            ex.record(space, ref.buffer, addr, True, op, atomic=True)
        addr = physical(space, ref.buffer.layout, addr)
        addr = space.array(addr) if isinstance(addr, Aff) else addr
        a, v = np.broadcast_arrays(addr, space.array(value) if isinstance(value, Aff) else value)
        shape = space.shape
        a = np.broadcast_to(a, shape).reshape(-1)
        v = np.broadcast_to(v, shape).reshape(-1).astype(dtype, copy=False)
        data = ref.buffer.data
        if update is not None:
            old = atomic_order.apply_in_lane_order(data, a, v, update, result_used)
            if old is not None:
                return [old.reshape(shape) if result_used else np.zeros(shape, dtype)]
        with np.errstate(all="ignore"):
            return [_rounds(data, a, v, fn, dtype).reshape(shape)]
    return affine(step)


@lowering("memref.generic_atomic_rmw")
def _generic_atomic_rmw(op: Operation, c):
    region = op.regions[0]
    dtype = np.dtype(storage(op.results[0].type))
    result_used = op.results[0].has_uses
    # a region that is one arith op of the old value and another value runs as an
    # :class:`~.atomic_order.Update` (``other``: that value, or the constant defining it)
    match = atomic_order.update_for_op(region)
    update = other = other_step = None
    if match is not None:
        update, _, other, _ = match
        if other.owner_op is not None and other.owner_op.parent is region.blocks[0]:
            other_step = LOWERINGS["arith.constant"](other.owner_op, c)

    def step(ex, frame, args):
        ref, idx = args[0], args[1:]
        space = frame.space
        check_host_access(ex, ref, op)
        if ref.buffer.read_only:
            raise _fault(f"generic_atomic_rmw on read-only {ref.buffer.name}")
        addr = element_address(space, ref, idx)
        if getattr(ex, "racelog", None) is not None:
            ex.record(space, ref.buffer, addr, True, op, atomic=True)
        addr = physical(space, ref.buffer.layout, addr)
        addr = space.array(addr) if isinstance(addr, Aff) else addr
        a = np.broadcast_to(addr, space.shape).reshape(-1)
        data = ref.buffer.data
        lane_shape = space.shape
        if update is not None:
            x = other_step(ex, frame, [])[0] if other_step is not None else frame.get(other)
            x = space.array(x) if isinstance(x, Aff) else np.asarray(x)
            x = np.broadcast_to(x, lane_shape).reshape(-1).astype(dtype, copy=False)
            old = atomic_order.apply_in_lane_order(data, a, x, update, result_used)
            if old is not None:
                return [old.reshape(lane_shape) if result_used else np.zeros(lane_shape, dtype)]
        order, uniq, starts, counts = atomic_order.lane_groups(a)
        old = np.empty(a.size, dtype)
        for k in range(int(counts.max())):
            live = np.flatnonzero(counts > k)
            lanes = order[starts[live] + k]          # flat lane positions, one per element
            # the lanes of ``sub`` in its own order correspond to sorted ``lanes`` (made from
            # them alone: a round costs its lanes, not the launch's)
            srt = np.sort(lanes)
            sub = select(space, srt)
            cur = data[a[srt]]
            old[srt] = cur
            cur_in = cur.reshape(sub.shape) if isinstance(sub, BoxSpace) else cur
            new = ex.run_single(region, frame, [cur_in], space=sub).values[0]
            new = np.broadcast_to(sub.array(new), sub.shape).reshape(-1)
            data[a[srt]] = new.astype(dtype, copy=False)
        return [old.reshape(lane_shape)]
    return affine(step)
