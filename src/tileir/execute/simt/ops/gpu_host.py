"""Host-side gpu ops: device memory, copies, async tokens, registration, device selection.

``gpu.alloc`` memory is zero-filled (CUDA leaves it uninitialised; zero keeps runs
reproducible); without ``host_shared`` it is device memory that host code may not touch
(:mod:`..runtime`).  Async ops run when reached, in program order, and return a token the host
must wait on before it observes their effects.
"""

from __future__ import annotations

import numpy as np

from ....ir.core import Operation
from ...errors import ArgumentError, MemoryAccessError, UnsupportedError
from ..faults import LaneFault
from ..lanes import Aff
from ..memory import Buffer, MemRef, zeroed
from ..registry import lowering
from ..runtime import check_device_use, dependencies, start, token_of, written_by
from ..values import storage
from .launch import _host


def _identity_strides(sizes: list) -> list:
    out, acc = [], 1
    for s in reversed(sizes):
        out.append(acc)
        acc *= s
    return list(reversed(out))


def _int(x) -> int:
    arr = np.asarray(x)
    if arr.size != 1:
        raise LaneFault("a host value differs between lanes", kind=UnsupportedError)
    return int(arr.reshape(-1)[0]) if not hasattr(x, "const") else x.const


@lowering("gpu.alloc")
def _alloc(op: Operation, c):
    t = op.results[0].type
    shared = "hostShared" in op.attributes

    def step(ex, frame, args):
        host = _host(ex, op)
        deps = dependencies(op, frame)
        dyn = iter(frame.get(v) for v in op.operand_group("dynamicSizes"))
        sizes = [int(s) if s is not None else _int(next(dyn)) for s in t.shape]
        if any(s < 0 for s in sizes):
            raise LaneFault(f"gpu.alloc with a negative size {sizes}", kind=MemoryAccessError)
        space = "host_shared" if shared else "device"
        buf = Buffer(zeroed(sizes, storage(t), "gpu.alloc"), space,
                     f"gpu.alloc #{host.next_id()}")
        ref = MemRef(buf, 0, sizes, _identity_strides(sizes), t)
        results = start(op, deps, host.streams)
        written_by(buf, token_of(results))
        return [ref] + results
    return step


@lowering("gpu.dealloc")
def _dealloc(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        deps = dependencies(op, frame)
        ref = frame.get(op.operand_group("memref")[0])
        check_device_use(ref.buffer, deps, op)
        if ref.buffer.space not in ("device", "host_shared"):
            raise LaneFault(f"gpu.dealloc of {ref.buffer.name}, which gpu.alloc did not allocate",
                            kind=MemoryAccessError)
        ref.buffer.freed = True
        return start(op, deps, host.streams)
    return step


def _same_shape(a: MemRef, b: MemRef, op: Operation) -> None:
    if list(a.sizes) != list(b.sizes):
        raise LaneFault(f"{op.name} between memrefs of shapes {list(a.sizes)} and "
                        f"{list(b.sizes)}", kind=MemoryAccessError)


def _device_write(host, op: Operation, deps, dst: MemRef, value) -> list:
    """Write ``value`` into ``dst`` for a memcpy/memset; the op's token (if async) leaves the
    buffer pending until waited on."""
    if dst.buffer.read_only:
        raise LaneFault(f"{op.name} into read-only {dst.buffer.name}", kind=MemoryAccessError)
    dst.to_numpy()[...] = value
    results = start(op, deps, host.streams)
    written_by(dst.buffer, token_of(results))
    return results


@lowering("gpu.memcpy")
def _memcpy(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        deps = dependencies(op, frame)
        dst = frame.get(op.operand_group("dst")[0])
        src = frame.get(op.operand_group("src")[0])
        check_device_use(src.buffer, deps, op)
        check_device_use(dst.buffer, deps, op)
        _same_shape(dst, src, op)
        # (a view: the assignment copies through a temporary itself where src and dst overlap)
        return _device_write(host, op, deps, dst, src.to_numpy())
    return step


@lowering("gpu.memset")
def _memset(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        deps = dependencies(op, frame)
        dst = frame.get(op.operand_group("dst")[0])
        value = frame.get(op.operand_group("value")[0])
        value = frame.space.array(value) if isinstance(value, Aff) else np.asarray(value)
        value = value.reshape(-1)[0]
        check_device_use(dst.buffer, deps, op)
        return _device_write(host, op, deps, dst, value)
    return step


@lowering("gpu.wait")
def _wait(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        deps = dependencies(op, frame)
        if not op.results:
            # the host blocks until the listed tokens (and what they depend on) are done
            for t in deps:
                t.wait()
            return []
        return start(op, deps, host.streams)
    return step


@lowering("gpu.host_register", "gpu.host_unregister")
def _host_register(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        ref = args[0]
        if op.name.endswith("unregister"):
            host.registered.discard(ref.buffer.ident)
        else:
            host.registered.add(ref.buffer.ident)
        return []
    return step


@lowering("gpu.set_default_device")
def _set_default_device(op: Operation, c):
    def step(ex, frame, args):
        host = _host(ex, op)
        index = _int(args[0])
        if index != 0:
            raise LaneFault(f"gpu.set_default_device {index}: the CPU engine has one device "
                            "(index 0)", kind=ArgumentError)
        host.device = index
        return []
    return step
