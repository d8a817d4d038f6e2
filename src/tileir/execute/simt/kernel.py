"""Launching a SIMT kernel: grids, chunks of blocks, attributions, racecheck, diagnostics.

:func:`run_kernel` runs one ``gpu.func`` (or the body of a ``gpu.launch``) over a grid.  All
blocks run at once as lanes of one :class:`~.lanes.BoxSpace` when they fit in
``max_lanes`` (4M threads by default), else in chunks of whole blocks (z planes, then y rows,
then x runs), one chunk after another -- a legal schedule, since blocks do not synchronise.
"""

from __future__ import annotations

import io
from typing import Any, Callable, Iterator, Optional, Sequence

import numpy as np

from ...ir.core import Operation, Region, Value
from ..errors import GridError, LaunchError, UndefinedBehaviorError
from . import scratch
from .interp import Compiler, Executor, Frame, loc_text
from .lanes import Aff, BoxSpace, Space, ROOT_NDIM
from .layout import Interleaved, interleavable
from .memory import Buffer, MemRef, RaceLog, allocation
from .values import cell_dtype

__all__ = ["KernelExecutor", "run_kernel", "DataRaceError", "SUBGROUP_SIZE", "Geometry",
           "COLUMN_MAJOR", "ROW_MAJOR", "MATRIX_LAYOUTS"]

#: threads per subgroup (warp)
SUBGROUP_SIZE = 32
#: most threads run as lanes of one NumPy program
MAX_LANES = 1 << 22
#: how LLVM's matrix intrinsics lay a matrix out in a flat vector: column-major by default
#: (LLVM's LangRef), row-major on request (LLVM's ``-matrix-default-layout=row-major``)
COLUMN_MAJOR, ROW_MAJOR = "column-major", "row-major"
MATRIX_LAYOUTS = (COLUMN_MAJOR, ROW_MAJOR)


class DataRaceError(LaunchError):
    """``racecheck=True``: two threads of one block touched one element between two barriers,
    at least one of them writing."""


class Geometry:
    """A launch's grid, block and cluster extents, each ``(x, y, z)``."""

    def __init__(self, grid: Sequence[int], block: Sequence[int],
                 cluster: Optional[Sequence[int]] = None, dynamic_shared_memory: int = 0) -> None:
        self.grid = _dims(grid, "grid")
        self.block = _dims(block, "block")
        self.cluster = _dims(cluster, "cluster") if cluster is not None else None
        if self.cluster is not None:
            for g, c, d in zip(self.grid, self.cluster, "xyz"):
                if g % c:
                    raise GridError(f"grid size {g} along {d} is not a multiple of the cluster "
                                    f"size {c}")
        smem = dynamic_shared_memory
        if not isinstance(smem, (int, np.integer)) or isinstance(smem, (bool, np.bool_)):
            raise GridError(f"dynamic shared memory size {smem!r} is not an integer")
        if int(smem) < 0:
            raise GridError(f"dynamic shared memory size {smem} is negative")
        if int(smem) >= 1 << 31:
            raise GridError(f"dynamic shared memory size {smem} does not fit the i32 operand "
                            "of gpu.launch_func")
        self.dynamic_shared_memory = int(smem)
        self.threads = self.block[0] * self.block[1] * self.block[2]
        if self.threads > 1024:
            raise GridError(f"block of {self.threads} threads exceeds the 1024 threads a block "
                            "may have")


def _dims(dims: Any, what: str) -> tuple[int, int, int]:
    """``dims`` (an integer or 1 to 3 integers) as ``(x, y, z)``; anything else, such as a
    fractional or non-numeric extent, is a :class:`GridError`."""
    if isinstance(dims, (int, np.integer)):
        dims = (int(dims),)
    try:
        items = tuple(dims)
    except TypeError:
        raise GridError(f"{what} {dims!r}: expected an integer or 1 to 3 integers") from None
    if not all(isinstance(d, (int, np.integer)) and not isinstance(d, (bool, np.bool_)) or
               isinstance(d, (float, np.floating)) and float(d).is_integer() for d in items):
        raise GridError(f"{what} {dims!r}: extents must be integers")
    dims = tuple(int(d) for d in items)
    if not 1 <= len(dims) <= 3:
        raise GridError(f"{what} must have 1 to 3 extents, got {len(dims)}")
    dims = dims + (1,) * (3 - len(dims))
    for d in dims:
        if d < 1:
            raise GridError(f"{what} extent {d} is not positive")
    if what == "grid" and (dims[0] >= 1 << 31 or dims[1] >= 1 << 16 or dims[2] >= 1 << 16):
        raise GridError(f"grid {dims} exceeds the CUDA limits (2^31-1, 65535, 65535)")
    return dims  # type: ignore[return-value]


def chunks(geo: Geometry, max_lanes: int) -> Iterator[tuple[tuple[int, int, int],
                                                           tuple[int, int, int]]]:
    """``(offset (z, y, x), extent (z, y, x))`` of the block chunks of a launch."""
    gx, gy, gz = geo.grid
    per = max(1, max_lanes // geo.threads)
    if per >= gx * gy:
        nz = max(1, min(gz, per // (gx * gy)))
        for z in range(0, gz, nz):
            yield (z, 0, 0), (min(nz, gz - z), gy, gx)
    elif per >= gx:
        ny = per // gx
        for z in range(gz):
            for y in range(0, gy, ny):
                yield (z, y, 0), (1, min(ny, gy - y), gx)
    else:
        for z in range(gz):
            for y in range(gy):
                for x in range(0, gx, per):
                    yield (z, y, x), (1, 1, min(per, gx - x))


class KernelExecutor(Executor):
    """The state of one chunk of a launch, reached by kernel ops as ``ex``."""

    kind = "kernel"
    #: per memory scope, whether its buffers are stored interleaved (:mod:`.layout`) where
    #: every use allows it.  Lane values are block-major, then thread-major: a private copy's
    #: index is the lane itself, so interleaved private memory is in lane order (a load or
    #: store of one element per thread is a dense slice); a workgroup copy's index is the
    #: block, so filling an interleaved workgroup buffer from a lane value (``sh[tid] =
    #: in[bid * n + tid]``) is a transpose, which costs NumPy more than the denser accesses
    #: save (the block reduction and the tiled matmul of ``benchmarks/gpu_bench.py`` run about
    #: 2x slower with it): workgroup memory keeps the plain layout unless this says otherwise
    interleave = {"private": True, "workgroup": False}
    #: the layout of the matrices of LLVM's matrix intrinsics (one of :data:`MATRIX_LAYOUTS`)
    matrix_layout = COLUMN_MAJOR

    def __init__(self, compiler: Compiler, geo: Geometry, offset: tuple[int, int, int],
                 extent: tuple[int, int, int], racecheck: bool, out: io.StringIO) -> None:
        super().__init__(compiler)
        self.geo = geo
        self.offset = offset            # (z, y, x) of the chunk's first block
        self.extent = extent            # (z, y, x) blocks in the chunk
        bx, by, bz = geo.block
        self.root = BoxSpace((0,) * ROOT_NDIM, extent + (bz, by, bx))
        nz, ny, nx = extent
        idx = np.dtype(np.int64)
        self.block_linear = Aff(0, (ny * nx, nx, 1, 0, 0, 0), idx)     # within the chunk
        self.thread_linear = Aff(0, (0, 0, 0, by * bx, bx, 1), idx)    # within the block
        self.lane_linear = self.block_linear.times(geo.threads).plus(self.thread_linear)
        self.n_blocks = nz * ny * nx
        self.racelog = RaceLog() if racecheck else None
        self.out = out
        self.dynamic_shared: dict = {}
        #: idents of buffers nothing writes during the launch (loads may return views)
        self.readonly: set = set()
        #: the :class:`~.host.Program` (module globals), set by the launch
        self.program: Any = None
        #: buffers whose arrays came from :mod:`.scratch` (given back by :meth:`release`)
        self.scratch: list[Buffer] = []

    # -- ids -------------------------------------------------------------------------------

    def block_id(self, d: int) -> Aff:
        coef = [0] * ROOT_NDIM
        coef[2 - d] = 1
        return Aff(self.offset[2 - d], coef, np.int64)

    def thread_id(self, d: int) -> Aff:
        coef = [0] * ROOT_NDIM
        coef[5 - d] = 1
        return Aff(0, coef, np.int64)

    def in_space(self, space: Space, value: Aff) -> Any:
        """A root :class:`Aff` as a value of ``space``."""
        if isinstance(space, BoxSpace):
            return value
        coords = space.coords()
        out = np.full(space.shape, value.const, dtype=np.int64)
        for c, x in zip(value.coef, coords):
            if c:
                out = out + c * x
        return out.astype(value.dtype, copy=False)

    def lane_ids(self, space: Space) -> tuple[np.ndarray, np.ndarray]:
        """``(block linear id in the chunk, thread linear id in its block)`` per lane, as
        arrays broadcasting to ``space.shape``."""
        return (space.array(self.in_space(space, self.block_linear)),
                space.array(self.in_space(space, self.thread_linear)))

    # -- memory ------------------------------------------------------------------------------

    def allocate(self, scope: str, elem_type, shape: Sequence[int], name: str,
                 interleave: bool = False, prefer_interleaved: bool = False) -> MemRef:
        """A memref for a workgroup (one copy per block) or private (one per thread)
        attribution / alloca, zero-filled, identity layout.  Block (thread) ``b``'s copy is
        elements ``b * size ..`` of the buffer; ``interleave``: every use allows the
        interleaved layout (:func:`~.layout.interleavable`), which is then taken where
        :attr:`interleave` says so for ``scope`` or ``prefer_interleaved`` (the buffer is
        read by a batched loop, :func:`read_by_batched_loop`)."""
        n = 1
        for s in shape:
            n *= int(s)
        copies = self.n_blocks if scope == "workgroup" else self.n_blocks * self.geo.threads
        copy = self.block_linear if scope == "workgroup" else self.lane_linear
        data = allocation(n * copies, cell_dtype(elem_type), name, make=scratch.take)
        buf = Buffer(data, scope, name, zero_pending=True)
        self.scratch.append(buf)
        buf.copy_size = n
        buf.copy_extent = n
        if interleave and (self.interleave[scope] or prefer_interleaved) and n > 0 and \
                copies > 1:
            buf.layout = Interleaved(n, copies, copy)
        strides = []
        acc = 1
        for s in reversed(shape):
            strides.append(acc)
            acc *= s
        return MemRef(buf, copy.times(n), list(shape), list(reversed(strides)))

    def copy_base(self, space: Space, buffer: Buffer) -> Any:
        """Where the copy of the per-block / per-thread ``buffer`` (``buffer.per_copy``) that
        each lane of ``space`` owns begins: ``copy_size`` times the linear block id in the
        chunk (workgroup memory) or the linear thread id in the chunk (private memory), an
        :class:`Aff` in box spaces.  On a GPU that copy is all a block (thread) sees of the
        memory, at the same address in every block: descriptors show offsets relative to
        it (``memref.extract_strided_metadata``), and a descriptor built on the bare base
        (``memref.reinterpret_cast``) starts there."""
        copy = self.block_linear if buffer.space == "workgroup" else self.lane_linear
        return self.in_space(space, copy.times(buffer.copy_size))

    def dynamic_shared_memory(self) -> MemRef:
        """The bytes of ``gpu.dynamic_shared_memory`` (a copy per block, each padded to 16
        bytes), made on first use."""
        ref = self.dynamic_shared.get("bytes")
        if ref is None:
            size = self.geo.dynamic_shared_memory
            per_block = -(-size // 16) * 16
            buf = Buffer(allocation(per_block * self.n_blocks, np.uint8,
                                    "dynamic shared memory"),
                         "workgroup", "dynamic shared memory")
            buf.copy_size = per_block
            buf.copy_extent = size
            ref = MemRef(buf, self.block_linear.times(per_block), [size], [1])
            self.dynamic_shared["bytes"] = ref
        return ref

    def attributions(self, workgroup: Sequence[Value], private: Sequence[Value]) -> list[MemRef]:
        """Memrefs for a kernel's workgroup and private attributions (its entry block's
        arguments ``workgroup`` and ``private``), in that order."""
        return [self.allocate(scope, a.type.element, a.type.shape, f"{scope} attribution #{i}",
                              interleavable_cached(self.compiler, a),
                              scope == "workgroup" and read_by_batched_loop(self.compiler, a))
                for scope, args in (("workgroup", workgroup), ("private", private))
                for i, a in enumerate(args)]

    def release(self) -> None:
        """The chunk has finished: its own memory (attributions, allocas) can be reached no
        more; mark it freed and give its arrays back to :mod:`.scratch`.  (The buffers keep
        their size, as a read-only array of zeros that shares no memory.)"""
        for buf in self.scratch:
            arr = buf.raw
            buf.freed = True
            buf.data = np.broadcast_to(np.zeros(1, arr.dtype), arr.shape)
            scratch.give(arr)
        self.scratch = []

    def record(self, space: Space, buffer: Buffer, addr: Any, write: bool, op: Operation,
               atomic: bool = False) -> None:
        """Log an access for ``racecheck``."""
        if self.racelog is None:
            return
        blk, thr = self.lane_ids(space)
        a = space.array(addr) if isinstance(addr, Aff) else addr
        self.racelog.record(buffer, a, blk, thr, write, op, atomic)

    def barrier(self, space: Space, op: Operation) -> None:
        """``gpu.barrier``: every thread of each block present must be here; racecheck epoch."""
        bz, by, bx = self.root.shape[3:]
        if isinstance(space, BoxSpace):
            whole = space.lo[3:] == (0, 0, 0) and space.shape[3:] == (bz, by, bx)
        else:
            blk, _ = self.lane_ids(space)
            counts = np.bincount(np.broadcast_to(blk, space.shape).reshape(-1),
                                 minlength=self.n_blocks)
            whole = bool(np.all((counts == 0) | (counts == self.geo.threads)))
        if not whole:
            blk, _ = self.lane_ids(space)
            first = int(np.broadcast_to(blk, space.shape).reshape(-1)[0])
            present = int(np.count_nonzero(np.broadcast_to(blk, space.shape) == first))
            raise UndefinedBehaviorError(
                f"barrier reached by {present} of the {self.geo.threads} threads of block "
                f"{self.block_tuple(first)} (the others took another path)",
                op=op.name, loc=loc_text(op))
        self.check_races()

    def check_races(self) -> None:
        if self.racelog is None:
            return
        race = self.racelog.check()
        if race is None:
            return
        buf, elem, blk, ta, op_a, wa, aa, tb, op_b, wb, ab = race
        if buf.copy_size:       # the element within the block's (or thread's) own copy
            elem %= buf.copy_size
        kind = {(True, True): "write/write", (True, False): "write/read",
                (False, True): "read/write"}[(wa, wb)]
        raise DataRaceError(
            f"data race ({kind}) on element {elem} of {buf.name} ({buf.space} memory) in block "
            f"{self.block_tuple(blk)}: thread {self.thread_tuple(ta)} {_access(wa, aa)} at "
            f"'{op_a.name}' ({loc_text(op_a) or '?'}) and thread {self.thread_tuple(tb)} "
            f"{_access(wb, ab)} at '{op_b.name}' ({loc_text(op_b) or '?'}) with no barrier "
            "between",
            op=op_a.name, loc=loc_text(op_a))

    # -- diagnostics -------------------------------------------------------------------------

    def block_tuple(self, linear: int) -> tuple[int, int, int]:
        nz, ny, nx = self.extent
        z, rem = divmod(linear, ny * nx)
        y, x = divmod(rem, nx)
        return (self.offset[2] + x, self.offset[1] + y, self.offset[0] + z)

    def thread_tuple(self, linear: int) -> tuple[int, int, int]:
        bx, by, _ = self.geo.block
        z, rem = divmod(linear, by * bx)
        y, x = divmod(rem, bx)
        return (x, y, z)

    def describe_lane(self, space: Space, lane: Optional[tuple]) -> str:
        if lane is None:
            return ""
        coords = space.coords()
        vals = []
        for c in coords:
            arr = np.broadcast_to(c, space.shape)
            vals.append(int(arr[tuple(lane)]))
        gz, gy, gx, tz, ty, tx = vals
        block = (self.offset[2] + gx, self.offset[1] + gy, self.offset[0] + gz)
        return f"block ({block[0]}, {block[1]}, {block[2]}), thread ({tx}, {ty}, {tz})"


def _access(write: bool, atomic: bool) -> str:
    """How a thread touched the element: ``writes it``, ``reads it atomically``..."""
    return ("writes it" if write else "reads it") + (" atomically" if atomic else "")


def interleavable_cached(compiler: Compiler, value: Value) -> bool:
    """:func:`~.layout.interleavable`, computed once per value and compiler."""
    key = ("interleavable", value)
    hit = compiler.cache.get(key)
    if hit is None:
        hit = compiler.cache[key] = interleavable(value)
    return hit


def read_by_batched_loop(compiler: Compiler, value: Value) -> bool:
    """Whether the memref ``value`` is loaded in the body of an ``scf.for`` that runs
    batched (:mod:`.batching`).  Such a loop reads the same element of every block's copy
    at once, for all its iterations: stored interleaved (element-major), that is a dense
    view instead of a copy gathered from one run per block.  (Filling the buffer is then a
    transpose; a batched loop reads what it loads many times over, which pays for it.)"""
    from . import batching
    if not batching.ENABLED:
        return False
    key = ("batched_read", value)
    hit = compiler.cache.get(key)
    if hit is None:
        hit = False
        for op, k in value.uses:
            loop = op.parent_op
            if op.name == "memref.load" and k == 0 and loop is not None and \
                    loop.name == "scf.for" and batching.analyze(loop, compiler) is not None:
                hit = True
                break
        compiler.cache[key] = hit
    return hit


def run_kernel(compiler: Compiler, body: Region, geo: Geometry,
               bind: Callable[[KernelExecutor, Frame], list], *, racecheck: bool = False,
               max_lanes: int = MAX_LANES, parent: Optional[Frame] = None,
               out: Optional[io.StringIO] = None, readonly: frozenset = frozenset(),
               program: Any = None, matrix_layout: str = COLUMN_MAJOR,
               emit: Optional[Callable[[str], None]] = None) -> str:
    """Run ``body`` (a kernel's region) over the launch ``geo``; ``bind(ex, frame)`` returns the
    entry block's arguments for one chunk.  Returns what ``gpu.printf`` printed.  When the
    launch fails (a fault, a failed ``cf.assert``), what was printed before is passed to
    ``emit`` before the error propagates, as a GPU's printf buffer is flushed when a kernel
    traps."""
    compiler.region(body)
    out = out if out is not None else io.StringIO()
    try:
        for offset, extent in chunks(geo, max_lanes):
            ex = KernelExecutor(compiler, geo, offset, extent, racecheck, out)
            ex.readonly = readonly
            ex.program = program
            ex.matrix_layout = matrix_layout
            frame = Frame(ex.root, parent)
            args = bind(ex, frame)
            ex.run_region(body, frame, args)
            ex.check_races()
            ex.release()
    except BaseException:
        if emit is not None:
            emit(out.getvalue())
        raise
    return out.getvalue()
