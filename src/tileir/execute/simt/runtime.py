"""Host-side async bookkeeping: tokens, pending writes, device-only memory.

The engine executes every op when the host reaches it, in program order -- a valid order for
any program whose async dependencies are right.  What it checks is what a real GPU would make a
race or a crash:

* an async op writing a buffer leaves the buffer *pending* on the op's token until the host
  waits (``gpu.wait`` on that token or on one that depends on it);
* host code touching a pending buffer (``memref.load/store``, ``memref.copy``, returning it), or
  a device op touching it without the writer's token in its dependency list, is an error;
* memory from ``gpu.alloc`` (without ``host_shared``) is device memory: host code may not touch
  it except through ``gpu.memcpy`` / ``gpu.memset``.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...ir.core import Operation
from ..errors import MemoryAccessError, UndefinedBehaviorError
from .faults import LaneFault
from .interp import loc_text
from .memory import Buffer, MemRef
from .values import Stream, Token

__all__ = ["ASYNC_ORDERS", "dependencies", "start", "check_device_use", "written_by", "check_host_access",
           "check_returned_argument"]


def _where(op: Any) -> str:
    if op is None:
        return "an async op"
    loc = loc_text(op)
    return f"'{op.name}'" + (f" at {loc}" if loc else "")


def dependencies(op: Operation, frame) -> tuple:
    """The tokens an op lists as async dependencies."""
    group = op.operand_group("asyncDependencies") if op.spec is not None and any(
        o.name == "asyncDependencies" for o in op.spec.operands) else []
    out = []
    for v in group:
        t = frame.get(v)
        if not isinstance(t, Token):
            raise LaneFault(f"async dependency of type {v.type} is not a token",
                            kind=UndefinedBehaviorError)
        out.append(t)
    return tuple(out)


#: how async ops are ordered: by their dependency lists only (the dialect's semantics), or
#: also by stream as MLIR's CUDA lowering places them (see :class:`~.values.Stream`)
ASYNC_ORDERS = ("dependencies", "streams")


def start(op: Operation, deps: Sequence[Token], streams: bool = False) -> list:
    """The result list of an async op: a new pending token after ``deps`` (sync ops: none).
    With ``streams``, an op with exactly one dependency joins that dependency's stream (after
    the op issued on it last); ``gpu.wait async`` and ops with other counts start a stream."""
    if not op.results or str(op.results[-1].type) not in ("!gpu.async.token",):
        return []
    deps = tuple(deps)
    stream = None
    if streams:
        if op.name != "gpu.wait" and len(deps) == 1 and deps[0].stream is not None:
            stream = deps[0].stream
            deps = _after(deps)
        else:
            stream = Stream()
    token = Token(False, op.name, deps, op, stream)
    if stream is not None:
        stream.last = token
    return [token]


def _after(deps: Sequence[Token]) -> tuple:
    """What an op with dependencies ``deps`` runs after: ``deps``, and, for one dependency on a
    stream, the op issued on that stream last."""
    deps = tuple(deps)
    if len(deps) == 1 and deps[0].stream is not None:
        last = deps[0].stream.last
        if last is not None and last is not deps[0]:
            return deps + (last,)
    return deps


def token_of(results: list) -> Any:
    return results[-1] if results and isinstance(results[-1], Token) else None


def check_device_use(buffer: Buffer, deps: Sequence[Token], op: Operation) -> None:
    """A device op may use a buffer an async op is still writing only after that op."""
    if buffer.freed:
        raise LaneFault(f"{buffer.name} used after gpu.dealloc", kind=MemoryAccessError)
    p = buffer.pending
    if p is None or p.ready or any(d.covers(p) for d in _after(deps)):
        return
    hint = "" if p.stream is not None else " (MLIR's CUDA lowering orders ops on one stream " \
        "by issue: async_order='streams', tileir run --async-order streams, runs them so)"
    raise LaneFault(f"{buffer.name} is still being written by {_where(p.op)}: list its token "
                    f"in this op's async dependencies (or gpu.wait on it) first{hint}",
                    kind=UndefinedBehaviorError)


def written_by(buffer: Buffer, token: Any) -> None:
    """Record that an op (async when ``token`` is a Token) wrote ``buffer``."""
    buffer.pending = token if isinstance(token, Token) and not token.ready else None


def check_host_access(ref: MemRef, op: Operation) -> None:
    """Host code touching memory: not device memory, not pending, not freed."""
    buf = ref.buffer
    if buf.space == "device":
        raise LaneFault(f"host code accesses device memory ({buf.name}); allocate it with "
                        "gpu.alloc host_shared or copy it with gpu.memcpy",
                        kind=MemoryAccessError)
    p = buf.pending
    if p is not None and not p.ready:
        hint = "" if p.stream is not None else " (MLIR's CUDA lowering makes gpu.wait on a " \
            "token wait for its whole stream: async_order='streams' runs it so)"
        raise LaneFault(f"host code uses {buf.name} before the async {_where(p.op)} that writes "
                        f"it is waited on (gpu.wait){hint}", kind=UndefinedBehaviorError)


def check_returned_argument(ref: MemRef, name: str, func: str) -> None:
    """When ``func`` returns, the caller owns its arguments again: an async op still writing one
    (never waited on) would race with the caller's reads."""
    p = ref.buffer.pending
    if p is not None and not p.ready:
        raise LaneFault(f"'@{func}' returns while the async {_where(p.op)} still writes {name}: "
                        "gpu.wait on its token before returning", kind=UndefinedBehaviorError)
