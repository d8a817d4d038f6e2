"""llvm: what C ``printf`` programs do on the host: ``llvm.mlir.addressof`` of an
``llvm.mlir.global`` (a :class:`HostPtr` to its bytes, see :mod:`.llvm_core`), ``llvm.getelementptr`` with constant
indices into it, and ``llvm.call @printf(%fmt, ...)`` of a declared variadic ``printf``: the
format (the global's bytes up to the NUL) is formatted with C's printf semantics (the engine's
:mod:`~tileir.execute.printf`, as ``gpu.printf``) and written to the run's stdout; the result
is the number of bytes printed.  A ``%s`` argument is a pointer into a string global."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ....ir.core import Operation
from ...errors import UnsupportedError
from ...printf import Spec, format_printf, parse_format
from ..faults import LaneFault
from ..interp import affine
from ..registry import lowering
from ..values import numerics_name

__all__ = ["HostPtr", "c_printf"]


@dataclass(frozen=True, eq=False)
class HostPtr:
    """A pointer into the bytes of a global or an alloca (``data``) at byte ``offset``.
    ``mem`` is the :class:`~.llvm_core.Mem` holding ``data`` (None for a string global's
    constant bytes and for the null pointer, whose ``name`` is ``"null"``)."""

    name: str
    data: Any
    offset: int = 0
    mem: Any = None

    def same_place(self, other: "HostPtr") -> bool:
        return self.data is other.data and self.offset == other.offset

    def c_string(self) -> bytes:
        rest = bytes(self.data[self.offset:])
        end = rest.find(b"\0")
        if end < 0:
            raise LaneFault(f"string at '@{self.name}' + {self.offset} has no NUL terminator")
        return rest[:end]


def _globals(c) -> dict:
    key = ("llvm globals",)
    found = c.cache.get(key)
    if found is None:
        found = {}
        module = c.module
        for op in module.regions[0].blocks[0].ops if module.regions and \
                module.regions[0].blocks else []:
            if op.name == "llvm.mlir.global":
                found[op.attributes["sym_name"].value] = op
        c.cache[key] = found
    return found


def _host_only(ex, op: Operation) -> None:
    from ..host import HostExecutor
    if not isinstance(ex, HostExecutor):
        raise LaneFault(f"'{op.name}' inside a kernel (tileir runs it on the host only)",
                        kind=UnsupportedError)


@lowering("llvm.mlir.addressof")
def _addressof(op: Operation, c):
    name = str(op.attributes["global_name"].generic()).lstrip("@")

    def step(ex, frame, args):
        _host_only(ex, op)
        glob = _globals(c).get(name)
        if glob is None:
            raise LaneFault(f"llvm.mlir.addressof @{name}: tileir takes addresses of "
                            "llvm.mlir.global ops only (no function pointers)",
                            kind=UnsupportedError)
        from .llvm_core import global_pointer
        return [global_pointer(ex, glob)]
    return affine(step)


_SCALAR_SIZES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "f80": 16, "f128": 16, "ptr": 8}


def _layout(text: str) -> tuple[int, int]:
    """``(size, alignment)`` in bytes of an LLVM type (natural alignment, as on NVPTX)."""
    from ....dialects.llvm.globals import llvm_type_parts
    t = text[len("!llvm."):] if text.startswith("!llvm.") else text
    parts = llvm_type_parts(t)
    if parts[0] in ("array", "vector"):
        size, align = _layout(parts[2])
        return parts[1] * size, align
    if parts[0] == "struct":
        off, align = 0, 1
        for m in parts[1]:
            size, a = _layout(m)
            if parts[2]:
                a = 1
            off = -(-off // a) * a + size
            align = max(align, a)
        return -(-off // align) * align, align
    m = re.fullmatch(r"i(\d+)", t)
    if m:
        n = (int(m.group(1)) + 7) // 8
        return n, 1 << max(0, (n - 1).bit_length())
    if t.startswith("ptr"):
        return 8, 8
    if t in _SCALAR_SIZES:
        return _SCALAR_SIZES[t], min(_SCALAR_SIZES[t], 16)
    raise LaneFault(f"llvm.getelementptr over '{text}' is not supported", kind=UnsupportedError)


def _size_of(text: str) -> int:
    return _layout(text)[0]


def _struct_offset(members: list, k: int, packed: bool) -> int:
    off = 0
    for j, m in enumerate(members):
        size, a = _layout(m)
        off = off if packed else -(-off // a) * a
        if j == k:
            return off
        off += size
    return off


@lowering("llvm.getelementptr")
def _gep(op: Operation, c):
    """The byte offset of the indices (constant and dynamic, sign-extended as LLVM does)."""
    from ....dialects.llvm.globals import DYNAMIC_INDEX, llvm_type_parts
    elem = str(op.attributes["elem_type"].value)
    raw = list(op.attributes["rawConstantIndices"].value)
    # per index: ("const", bytes) or ("dyn", operand position, bytes per step)
    plan = []
    t = elem
    n_dyn = 0
    for k, i in enumerate(raw):
        if k == 0:
            step_t = t
        else:
            parts = llvm_type_parts(t)
            if parts[0] == "struct":
                plan.append(("const", _struct_offset(parts[1], i, parts[2])))
                t = parts[1][i]
                continue
            if parts[0] not in ("array", "vector"):
                raise LaneFault(f"llvm.getelementptr index into '{t}' is not supported",
                                kind=UnsupportedError)
            t = step_t = parts[2]
        if i == DYNAMIC_INDEX:
            plan.append(("dyn", n_dyn, _size_of(step_t)))
            n_dyn += 1
        else:
            plan.append(("const", i * _size_of(step_t)))

    def step(ex, frame, args):
        base = args[0]
        if not isinstance(base, HostPtr):
            raise LaneFault("llvm.getelementptr of a pointer that is no global's or "
                            "alloca's", kind=UnsupportedError)
        offset = 0
        for entry in plan:
            if entry[0] == "const":
                offset += entry[1]
            else:
                v = args[1 + entry[1]]
                offset += int(_scalar(frame.space.array(v))) * entry[2]
        return [replace(base, offset=base.offset + offset)]
    return affine(step)


def _scalar(value):
    if isinstance(value, HostPtr):
        return value
    arr = np.asarray(value)
    if arr.size != 1:
        raise LaneFault("llvm.call @printf with an argument that differs between lanes")
    return arr.reshape(-1)[0]


def c_printf(ex, op: Operation, args) -> list:
    """``llvm.call @printf(%fmt, ...)``: format, write to the run's stdout, return the count."""
    fmt = _scalar(args[0])
    if not isinstance(fmt, HostPtr):
        raise LaneFault("llvm.call @printf: the format is no pointer into a string global",
                        kind=UnsupportedError)
    pieces = parse_format(fmt.c_string().decode("utf-8", "surrogateescape"))
    specs = [p for p in pieces if isinstance(p, Spec)]
    values = []
    for k, (v, operand) in enumerate(zip(args[1:], op.operands[1:])):
        v = _scalar(v)
        spec = specs[k] if k < len(specs) else None
        if isinstance(v, HostPtr):
            if spec is not None and spec.conv == "s":
                values.append((np.asarray(v.c_string().decode("utf-8", "surrogateescape")),
                               "str"))
            else:
                raise LaneFault("llvm.call @printf: a pointer argument for a conversion "
                                "other than %s", kind=UnsupportedError)
        else:
            values.append((v, numerics_name(operand.type)))
    text = format_printf(pieces, values)
    out = getattr(ex, "out", None)
    if out is not None:
        out.write(text)
    else:
        ex.emit(text)
    count = len(text.encode("utf-8", "surrogateescape"))
    if not op.results:
        return []
    dtype = {"i64": np.int64, "i32": np.int32}.get(str(op.results[0].type), np.int32)
    return [ex.root.uniform(count, dtype)]
