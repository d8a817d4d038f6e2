"""Run lowered tinytc kernels on the CPU executor: turn NumPy arguments into the entry
parameters of :func:`.lowering.entry_signature`.

* scalar: a Python or NumPy number;
* ``memref<T x s1 x ... x sn>``: an array of T's dtype and shape (s1, ..., sn) whose element
  (i1, ..., in) lies sum(ik * Sk) elements from its start (any positive-strided view; a
  Fortran-ordered array is the packed layout); ``?`` sizes/strides are read from the array;
* ``group<memref<...>>``: a list of such arrays, or :class:`Group` (``buffers[i]`` a contiguous
  1-D array, memref i starting ``offset`` elements into it; ``shapes`` gives each memref's
  sizes when the memref type has ``?`` sizes).
"""

from __future__ import annotations

import numbers
import operator
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from ...ir.dtypes import numpy_dtype
from ...execute import ArgumentError, LaunchError
from ...execute.launch import DEFAULT_MMA
from .diagnostics import format_range
from .ir import GroupType, MemrefType, Program, ScalarType, canonical_strides
from .lowering import cuda_element, entry_signature

__all__ = ["Group", "TinytcKernel"]

# tinytc's floating-point ``gemm`` runs in the executor's default ``mmaf`` mode, ``"fast"``
# (DEFAULT_MMA): sums accumulated in the element type through BLAS (f32 SGEMM, f64 DGEMM),
# which is how tinytc's own kernels compute a gemm (in ``T``); measured 1.5-2x NumPy's batched
# matmul on the small-GEMM recipe where ``"exact"`` (products summed exactly, rounded once) is
# 3.3-3.6x for f32 (``benchmarks/tinytc_bench.py``; f64 is DGEMM in both).


@dataclass
class Group:
    """A ``group<memref<...>, offset: ?>`` argument: ``buffers[i]`` is the contiguous 1-D array
    the i-th pointer points to and memref i starts ``offset`` elements into it (tinytc's
    ``group[i] + off``).  ``shapes[i]`` gives memref i's sizes where the type has ``?``."""

    buffers: Sequence[np.ndarray]
    offset: int = 0
    shapes: Optional[Sequence[Sequence[int]]] = None


def _integer(value: Any, what: str) -> int:
    """``value`` as an int; an :class:`ArgumentError` if it is not an integer (an integral
    float such as ``3.0`` is taken; no truncation of fractions, no parsing of strings)."""
    if isinstance(value, (bool, np.bool_)):
        raise ArgumentError(f"{what} must be an integer, got {type(value).__name__} {value!r}")
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise ArgumentError(f"{what} must be an integer, got {type(value).__name__} "
                            f"{value!r}") from None


def _boolean(value: Any, what: str) -> bool:
    """An ``i1`` argument: a Python or NumPy bool or real number."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, numbers.Real)
                                               and not isinstance(value, np.ndarray)):
        return bool(value)
    raise ArgumentError(f"{what}: expected a boolean for an i1 parameter, got "
                        f"{type(value).__name__}")


def _dtype(element: str) -> np.dtype:
    return np.dtype(numpy_dtype(cuda_element(element)))


def _span(arr: np.ndarray, what: str) -> tuple[np.ndarray, tuple]:
    """(1-D contiguous array from arr's first element to its last, element strides)."""
    item = arr.itemsize
    strides = []
    for s in arr.strides:
        if s % item:
            raise ArgumentError(f"{what}: strides must be multiples of the element size")
        strides.append(s // item)
    if any(s < 0 for s in strides):
        raise ArgumentError(f"{what}: negative strides are not a tinytc memory layout")
    if arr.size == 0:
        return np.zeros(1, dtype=arr.dtype), tuple(strides)
    extent = 1 + sum((n - 1) * s for n, s in zip(arr.shape, strides))
    flat = np.lib.stride_tricks.as_strided(arr, shape=(extent,), strides=(item,))
    return flat, tuple(strides)


def _check_memref(arr: Any, t: MemrefType, what: str) -> tuple[np.ndarray, tuple, tuple]:
    if not isinstance(arr, np.ndarray):
        raise ArgumentError(f"{what}: expected a NumPy array for {t}, got {type(arr).__name__}")
    want = _dtype(t.element)
    if arr.dtype != want:
        raise ArgumentError(f"{what}: expected an array of dtype {want} for {t}, got "
                            f"{arr.dtype}")
    if arr.ndim != t.order:
        raise ArgumentError(f"{what}: expected a {t.order}-D array for {t}, got {arr.ndim}-D")
    flat, strides = _span(arr, what)
    for d, (s, n) in enumerate(zip(t.shape, arr.shape)):
        if s is not None and s != n:
            raise ArgumentError(f"{what}: size {d} must be {s} for {t}, got {n}")
    if arr.size == 0:
        # no element is ever accessed (NumPy gives empty arrays strides of 0): take the
        # packed strides of the shape
        strides = canonical_strides(tuple(arr.shape))
    for d, (s, n, size) in enumerate(zip(t.strides, strides, arr.shape)):
        if s is not None and s != n and size > 1 and arr.size:
            raise ArgumentError(f"{what}: stride {d} must be {s} elements for {t}, got {n}")
    strides = tuple(s if s is not None else n for s, n in zip(t.strides, strides))
    return flat, tuple(arr.shape), strides


def _sequence(value: Any, what: str) -> list:
    """A list or tuple argument as a list (an :class:`ArgumentError` for anything else)."""
    if not isinstance(value, (list, tuple)):
        raise ArgumentError(f"{what} must be a list, got {type(value).__name__}")
    return list(value)


def _group_shape(shape: Any, m: MemrefType, what: str) -> tuple:
    """One memref's sizes given in a :class:`Group`: ``m.order`` non-negative integers that
    agree with the static sizes of ``m``."""
    sizes = tuple(_integer(x, what) for x in _sequence(shape, what))
    if len(sizes) != m.order:
        raise ArgumentError(f"{what}: {m} has {m.order} modes, got {len(sizes)} sizes {sizes}")
    for d, (s, n) in enumerate(zip(m.shape, sizes)):
        if n < 0:
            raise ArgumentError(f"{what}: size {d} must not be negative, got {n}")
        if s is not None and s != n:
            raise ArgumentError(f"{what}: size {d} must be {s} for {m}, got {n}")
    return sizes


def _instructions(region) -> list:
    """Every instruction of ``region``, nested ones too."""
    out = []
    for inst in region.insts:
        out.append(inst)
        for inner in inst.regions:
            out += _instructions(inner)
    return out


def _in_tinytc_terms(exc: LaunchError, prog: Program, fn) -> LaunchError:
    """``exc`` (raised by a cuda_tile op lowered from ``fn``) naming the tinytc instruction
    it comes from, at tinytc's ``FILE:LINE.COL-ENDCOL`` location, instead of the op and its
    ``file:line:col`` (the lowered ops carry the instruction's start)."""
    head, _, col = exc.loc.rpartition(":")
    head, _, line = head.rpartition(":")
    if not (line.isdigit() and col.isdigit()):
        return exc
    at = (int(line), int(col))
    inst = next((i for i in _instructions(fn.body) if (i.loc.line, i.loc.col) == at), None)
    if inst is None:
        return exc
    exc.op = inst.op
    exc.loc = f"{prog.filename}:{format_range(inst.loc)}"
    exc.args = (exc._render(),)
    return exc


class TinytcKernel:
    """A tinytc function lowered and compiled for the CPU executor."""

    def __init__(self, prog: Program, name: str) -> None:
        from ...execute import compile_kernel as _compile
        from .lowering import lower_program
        self.prog = prog
        try:
            self.function = prog.function(name)
        except KeyError as exc:     # (the API's error for an unknown kernel, as launch's)
            raise ArgumentError(exc.args[0]) from None
        self.module = lower_program(prog)
        self.kernel = _compile(self.module, self.function.name)
        # the executor's argument errors name an entry parameter: name it as the tinytc
        # argument it comes from (``argument %a``), not by its entry position
        for param, (desc, _) in zip(self.kernel.params, entry_signature(self.function)):
            param.what = param.buffer_name = f"argument {desc}"

    def launch(self, args: Sequence[Any] = (), group_size: int = 1, *, mma: str = DEFAULT_MMA):
        """Run over ``group_size`` work groups, writing into the argument arrays; ``mma`` as
        :func:`tileir.tinytc.launch`."""
        fn = self.function
        try:
            if isinstance(args, (str, bytes)):
                raise TypeError
            args = list(args)
        except TypeError:
            raise ArgumentError(f"@{fn.name}: args must be a list of arguments, got "
                                f"{type(args).__name__}") from None
        if len(args) != len(fn.args):
            raise ArgumentError(f"@{fn.name} takes {len(fn.args)} arguments, got {len(args)}")
        group_size = _integer(group_size, "group_size")
        if group_size < 1:
            raise ArgumentError(f"group_size must be at least 1, got {group_size}")
        memory = self.kernel.memory
        mark = memory.mark()
        try:
            params: list = []
            for a, value in zip(fn.args, args):
                what = f"argument %{a.name}"
                t = a.type
                if isinstance(t, ScalarType):
                    params.append(_boolean(value, what) if t.name == "i1" else value)
                elif isinstance(t, MemrefType):
                    flat, shape, strides = _check_memref(value, t, what)
                    params.append(flat)
                    params += [np.int64(shape[i]) for i, s in enumerate(t.shape) if s is None]
                    params += [np.int64(strides[i]) for i, s in enumerate(t.strides)
                               if s is None]
                elif isinstance(t, GroupType):
                    params += self._group(value, t, what, memory)
            try:
                return self.kernel.launch((group_size, 1, 1), params, mma=mma)
            except LaunchError as exc:
                raise _in_tinytc_terms(exc, self.prog, fn) from exc.__cause__
        finally:
            memory.release(mark)

    @staticmethod
    def _group(value: Any, t: GroupType, what: str, memory) -> list:
        m = t.memref
        if isinstance(value, Group):
            # the kernel adds the type's offset (or the `offset: ?` parameter) to each pointer
            value_offset = _integer(value.offset, f"{what}: Group offset")
            offset = value_offset if t.offset is None else t.offset
            buffers = _sequence(value.buffers, f"{what}: Group buffers")
            given = None if value.shapes is None else \
                _sequence(value.shapes, f"{what}: Group shapes")
            if given is not None and len(given) != len(buffers):
                raise ArgumentError(f"{what}: Group has {len(buffers)} buffers but "
                                    f"{len(given)} shapes")
            bufs = []
            shapes = []
            for i, buf in enumerate(buffers):
                if not isinstance(buf, np.ndarray) or buf.ndim != 1 or \
                        not buf.flags.c_contiguous or buf.dtype != _dtype(m.element):
                    raise ArgumentError(f"{what}: buffer {i} must be a contiguous 1-D array of "
                                        f"dtype {_dtype(m.element)}")
                bufs.append(buf)
                if given is not None:
                    shapes.append(_group_shape(given[i], m, f"{what}: Group shape {i}"))
                elif any(s is None for s in m.shape):
                    raise ArgumentError(f"{what}: {m} has dynamic sizes: pass Group(..., "
                                        f"shapes=[...])")
                else:
                    shapes.append(tuple(m.shape))
            strides = [tuple(s if s is not None else p
                             for s, p in zip(m.strides, canonical_strides(tuple(shape))))
                       for shape in shapes]
            starts = [value_offset - offset] * len(bufs)
        else:
            if not isinstance(value, (list, tuple)):
                raise ArgumentError(f"{what}: expected a list of arrays or tinytc.Group for {t}")
            offset = t.offset if t.offset is not None else 0
            bufs, shapes, strides = [], [], []
            for i, arr in enumerate(value):
                flat, shape, st = _check_memref(arr, m, f"{what}[{i}]")
                bufs.append(flat)
                shapes.append(shape)
                strides.append(st)
            # the pointer is group[i]; memref i starts `offset` elements after it
            starts = [-offset] * len(bufs)
        addresses = np.zeros(max(len(bufs), 1), dtype=np.int64)
        for i, (buf, start) in enumerate(zip(bufs, starts)):
            u8 = buf.view(np.uint8).reshape(-1) if buf.flags.c_contiguous else \
                np.ascontiguousarray(buf).view(np.uint8)
            mapped = memory.map(u8, f"{what}[{i}]", bool(buf.flags.writeable))
            addresses[i] = mapped.base + start * buf.itemsize
        params: list = [addresses]
        params += [np.array([s[d] for s in shapes] or [0], dtype=np.int64)
                   for d, s in enumerate(m.shape) if s is None]
        params += [np.array([s[d] for s in strides] or [0], dtype=np.int64)
                   for d, s in enumerate(m.strides) if s is None]
        if t.offset is None:
            params.append(np.int64(offset))
        return params
