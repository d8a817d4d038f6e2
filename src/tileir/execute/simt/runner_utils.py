"""MLIR's runner utility libraries on the host: what ``func.call @printMemrefF32(...)`` and the
other functions of ``libmlir_runner_utils`` / ``libmlir_c_runner_utils`` do when a program
declares them (``func.func private @printMemrefF32(memref<*xf32>)``) and ``mlir-runner`` links
them in.  MLIR's own GPU integration tests print their results this way; the text here is what
those libraries print, so their FileCheck lines hold for ``tileir run``.

* ``printMemref{I8,I32,I64,F32,F64,Ind,C32,C64}`` (unranked argument) and the ranked
  ``printMemref{0d..4d}F32`` / ``printMemref1d{I8,I32,I64,F64,Ind,C32,C64}``: a metadata line
  ``Unranked Memref base@ = 0x... rank = 1 offset = 0 sizes = [4] strides = [1] data =`` (``Memref``
  for a ranked argument) and the elements as nested brackets, each level's elements after the
  first indented by its depth (``[[1,   2], \\n [3,   4]]``); floats as C's ``%g`` (``-nan`` for
  a NaN with the sign bit), ``index`` unsigned, complex numbers ``(re,im)``, i8 elements as the
  character of that byte (C++ streams print ``int8_t`` so).  An empty dimension prints ``[]``
  (the C++ library reads one element past it).  ``base@`` is the buffer's made-up address (the
  one ``memref.extract_aligned_pointer_as_index`` gives).
* ``printMemref{I16,F16,BF16}`` (C interfaces in the library) likewise, f16/bf16 printed as
  the float they hold.  No i4 (or other sub-byte) variant exists: ``vector.print`` prints such
  integers, signed.
* ``printMemrefShape{I8,I32,I64,F32,F64,Ind,C32,C64}``: the metadata line alone.
* ``verifyMemRef{I16,I32,F32,F64,Ind,C32,C64}(actual, expected) -> i64``: the number of elements
  that differ (f32 within a relative 1e-6, f64 1e-12, others equal; a non-finite float is always
  an error), the first ten written to stderr as ``actual != expected offset = k``; -1 when the
  shapes differ.
* ``printI64 printU64 printF32 printF64 printOpen printClose printComma printNewline``
  (``vector.print``'s pieces), ``printFlops`` (stderr), ``rtclock`` (seconds) and ``nanoTime``.

* ``mgpuMemGetDeviceMemRef1d{Float,Int32}`` (MLIR's ROCm runtime wrappers; the device view of
  a host-registered 1-D memref): the same memory, with the callee's declared result type (here
  kernels read host arrays directly).

* ``fillResource{1,2,3}D{Float,Int,Int8}(memref, value)`` (MLIR's Vulkan runtime wrappers, which
  its Vulkan integration tests call): every element of the memref (of f32, i32, i8) set to
  ``value``.

The same functions declared with ``llvm.func`` and called with ``llvm.call`` run too (see
:mod:`.ops.launch`, which also accepts MLIR's CUDA runtime calls that only create or destroy
the cuSPARSE / cuSPARSELt environment).

The argument's element type must be the function's (``printMemrefF32`` of an i32 memref is
reported, where the C library would reinterpret the bits).
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Optional, Sequence

import numpy as np

from ..errors import ArgumentError
from ..printf import format_value, parse_format
from .memory import MemRef

__all__ = ["RUNNER_FUNCTIONS", "call_runner_function", "element_text", "float_text",
           "memref_text"]

#: the function-name suffix of each element kind -> our element type name
_SUFFIX_ELEMENT = {"I8": "i8", "I32": "i32", "I64": "i64", "F32": "f32", "F64": "f64",
                   "Ind": "index", "C32": "complex<f32>", "C64": "complex<f64>"}

_G = parse_format("%g")[0]


def float_text(value: Any) -> str:
    """A float as C's ``%g`` prints it (``-nan`` for a NaN with its sign bit set)."""
    return format_value(value, "f64", _G)


def element_text(value: Any, elem: str) -> str:
    """One element as the C++ runner library streams it."""
    if elem in ("f16", "bf16", "f32", "f64"):
        return float_text(float(value))
    if elem.startswith("complex<"):
        return f"({float_text(value.real)},{float_text(value.imag)})"
    if elem == "index":
        return str(int(value) & 0xFFFFFFFFFFFFFFFF)
    if elem == "i8":
        return bytes([int(value) & 0xFF]).decode("latin-1")
    return str(int(value))


def _descriptor(ref: MemRef) -> tuple[int, list[int], list[int]]:
    offset = _int(ref.offset)
    return offset, [_int(s) for s in ref.sizes], [_int(s) for s in ref.strides]


def _int(x: Any) -> int:
    return int(np.asarray(x).reshape(-1)[0]) if not isinstance(x, int) else x


def _address(ref: MemRef) -> str:
    return f"0x{ref.buffer.ident << 32:x}"


def metadata_text(ref: MemRef) -> str:
    """``base@ = 0x... rank = R offset = O sizes = [...] strides = [...]``."""
    offset, sizes, strides = _descriptor(ref)
    return (f"base@ = {_address(ref)} rank = {len(sizes)} offset = {offset} "
            f"sizes = [{', '.join(map(str, sizes))}] strides = [{', '.join(map(str, strides))}]")


def _data_text(data: np.ndarray, elem: str, offset: int, sizes: Sequence[int],
               strides: Sequence[int]) -> str:
    rank = len(sizes)
    if rank == 0:
        return "[" + element_text(data[offset], elem) + "]"
    pieces: list[str] = []

    def level(depth: int, at: int) -> None:
        # ``depth`` dimensions already fixed; ``at`` the element offset reached so far
        if depth == rank:
            pieces.append(element_text(data[at], elem))
            return
        n, step = sizes[depth], strides[depth]
        inner = rank - depth          # dimensions left, this one included
        pieces.append("[")
        for i in range(n):
            if i:
                pieces.append(" " * (depth + 1))
            level(depth + 1, at + i * step)
            if i + 1 < n:
                pieces.append(", " + ("\n" if inner > 1 else ""))
        pieces.append("]")

    level(0, offset)
    return "".join(pieces)


def memref_text(ref: MemRef, elem: str, ranked: bool) -> str:
    """What ``printMemref*`` prints for ``ref`` (elements of type ``elem``)."""
    offset, sizes, strides = _descriptor(ref)
    data = ref.buffer.data
    if elem.startswith("complex<"):
        data = data.view(np.complex64 if elem == "complex<f32>" else np.complex128)
    head = ("Memref " if ranked else "Unranked Memref ") + metadata_text(ref) + " data = \n"
    if any(n == 0 for n in sizes):
        body = "[" * len(sizes) + "]" * len(sizes)
    else:
        body = _data_text(data, elem, offset, sizes, strides)
    return head + body + "\n"


def _verify_count(actual: MemRef, expected: MemRef, elem: str, err) -> int:
    a_off, a_sizes, a_strides = _descriptor(actual)
    e_off, e_sizes, e_strides = _descriptor(expected)
    if (a_off, a_sizes, a_strides) != (e_off, e_sizes, e_strides):
        err.write(metadata_text(actual) + metadata_text(expected))
        return -1
    a, e = actual.to_numpy().reshape(-1), expected.to_numpy().reshape(-1)
    if elem.startswith("complex<"):
        a = a.view(np.complex64 if elem == "complex<f32>" else np.complex128)
        e = e.view(a.dtype)
    if elem in ("f32", "f64"):
        eps = {"f32": np.float32(1e-6), "f64": 1e-12}[elem]
        with np.errstate(all="ignore"):
            ok = np.isfinite(a) & np.isfinite(e) & (np.abs(a - e) <= eps * np.abs(e))
    else:
        ok = a == e
    bad = np.flatnonzero(~ok)
    # offsets of the elements in the order the library walks them (row-major indices)
    offsets = (a_off + sum(np.indices(a_sizes)[d].reshape(-1) * a_strides[d]
                           for d in range(len(a_sizes)))) if a_sizes else np.array([a_off])
    for k in bad[:10]:
        err.write(f"{element_text(a[k], elem)} != {element_text(e[k], elem)} "
                  f"offset = {int(offsets[k])}\n")
    return int(bad.size)


def _memref_arg(args: Sequence[Any], k: int, name: str, elem: str) -> MemRef:
    ref = args[k] if k < len(args) else None
    if not isinstance(ref, MemRef):
        raise ArgumentError(f"@{name}: argument #{k} is not a memref")
    have = str(ref.type.element_type) if ref.type is not None and \
        hasattr(ref.type, "element_type") else None
    if have is not None and have != elem:
        raise ArgumentError(f"@{name} prints {elem} elements, got a memref of {have}")
    return ref


def _scalar(args: Sequence[Any], k: int) -> Any:
    return np.asarray(args[k]).reshape(-1)[0]


Runner = Callable[[Any, Sequence[Any], Any], list]
"""``(host executor, argument values, the callee's declaration) -> result values``."""


def _ranked_of(func) -> bool:
    inputs = func.attributes["function_type"].value.inputs
    return bool(inputs) and not str(inputs[0]).startswith("memref<*")


def _print_memref(elem: str) -> Runner:
    def run(ex, args, func):
        name = func.attributes["sym_name"].value
        ref = _memref_arg(args, 0, name, elem)
        ex.emit(memref_text(ref, elem, _ranked_of(func)))
        return []
    return run


def _print_shape(elem: str) -> Runner:
    def run(ex, args, func):
        ref = _memref_arg(args, 0, func.attributes["sym_name"].value, elem)
        ex.emit("Unranked Memref " + metadata_text(ref) + "\n")
        return []
    return run


def _verify(elem: str) -> Runner:
    def run(ex, args, func):
        name = func.attributes["sym_name"].value
        actual, expected = _memref_arg(args, 0, name, elem), _memref_arg(args, 1, name, elem)
        return [ex.root.uniform(_verify_count(actual, expected, elem, _stderr(ex)), np.int64)]
    return run


def _device_view(elem: str) -> Runner:
    def run(ex, args, func):
        name = func.attributes["sym_name"].value
        ref = _memref_arg(args, 0, name, elem)
        if len(ref.sizes) != 1:
            raise ArgumentError(f"@{name} takes a 1-D memref, got rank {len(ref.sizes)}")
        results = func.attributes["function_type"].value.results
        if len(results) != 1:
            raise ArgumentError(f"@{name} returns one memref, declared with {len(results)} "
                                "results")
        want = getattr(results[0], "shape", None)
        if want and want[0] is not None and _int(ref.sizes[0]) != want[0]:
            raise ArgumentError(f"@{name}: the memref has {_int(ref.sizes[0])} elements, the "
                                f"declared result {want[0]}")
        return [MemRef(ref.buffer, ref.offset, ref.sizes, ref.strides, results[0])]
    return run


def _fill(elem: str, rank: int) -> Runner:
    def run(ex, args, func):
        from .runtime import check_host_access
        name = func.attributes["sym_name"].value
        ref = _memref_arg(args, 0, name, elem)
        if len(ref.sizes) != rank:
            raise ArgumentError(f"@{name} takes a {rank}-D memref, got rank {len(ref.sizes)}")
        check_host_access(ref, func)
        if ref.buffer.read_only:
            raise ArgumentError(f"@{name} writes read-only {ref.buffer.name}")
        ref.to_numpy()[...] = _scalar(args, 1)
        return []
    return run


def _stderr(ex):
    return getattr(ex, "stderr", None) or sys.stderr


def _text(fn: Callable[[Sequence[Any]], str], to_stderr: bool = False) -> Runner:
    def run(ex, args, func):
        text = fn(args)
        if to_stderr:
            _stderr(ex).write(text)
        else:
            ex.emit(text)
        return []
    return run


def _build() -> dict[str, Runner]:
    table: dict[str, Runner] = {}
    for suffix, elem in _SUFFIX_ELEMENT.items():
        table[f"printMemref{suffix}"] = _print_memref(elem)
        table[f"printMemrefShape{suffix}"] = _print_shape(elem)
        if suffix != "I8":
            table[f"verifyMemRef{suffix}"] = _verify(elem)
    for rank in range(5):
        table[f"printMemref{rank}dF32"] = _print_memref("f32")
    for suffix in ("I8", "I32", "I64", "F64", "Ind", "C32", "C64"):
        table[f"printMemref1d{suffix}"] = _print_memref(_SUFFIX_ELEMENT[suffix])
    # (the library has these as C interfaces only: declare them with llvm.emit_c_interface)
    for suffix, elem in (("I16", "i16"), ("F16", "f16"), ("BF16", "bf16")):
        table[f"printMemref{suffix}"] = _print_memref(elem)
    table["verifyMemRefI16"] = _verify("i16")
    table["printI64"] = _text(lambda a: str(int(_scalar(a, 0))))
    table["printU64"] = _text(lambda a: str(int(_scalar(a, 0)) & 0xFFFFFFFFFFFFFFFF))
    table["printF32"] = _text(lambda a: float_text(np.float32(_scalar(a, 0))))
    table["printF64"] = _text(lambda a: float_text(np.float64(_scalar(a, 0))))
    table["printOpen"] = _text(lambda a: "( ")
    table["printClose"] = _text(lambda a: " )")
    table["printComma"] = _text(lambda a: ", ")
    table["printNewline"] = _text(lambda a: "\n")
    table["printFlops"] = _text(lambda a: "%f GFLOPS\n" % (float(_scalar(a, 0)) / 1.0e9),
                                to_stderr=True)
    table["mgpuMemGetDeviceMemRef1dFloat"] = _device_view("f32")
    table["mgpuMemGetDeviceMemRef1dInt32"] = _device_view("i32")
    for rank in (1, 2, 3):
        for suffix, elem in (("Float", "f32"), ("Int", "i32"), ("Int8", "i8")):
            table[f"fillResource{rank}D{suffix}"] = _fill(elem, rank)
    table["rtclock"] = lambda ex, args, func: [ex.root.uniform(time.time(), np.float64)]
    table["nanoTime"] = lambda ex, args, func: [ex.root.uniform(time.time_ns(), np.int64)]
    return table


#: name -> implementation of every runner-library function a program may declare and call
RUNNER_FUNCTIONS: dict[str, Runner] = _build()


def call_runner_function(ex, func, args: Sequence[Any]) -> Optional[list]:
    """Run the body-less ``func`` (a declaration) as the runner library function of its name;
    None when no such function exists."""
    impl = RUNNER_FUNCTIONS.get(func.attributes["sym_name"].value)
    return None if impl is None else impl(ex, args, func)
