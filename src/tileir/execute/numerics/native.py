"""Native helpers for the numerics' hottest bit-exact passes, compiled on first use.

A pass that NumPy runs as several whole-array operations (each a trip through memory) is one
loop in C (source: :mod:`.native_source`): rounding f32 values to tf32 is five integer passes
and a NaN check in NumPy, one pass here; an f32/f64 add, subtract, multiply or divide and the
canonicalisation of its NaN results (a second pass in NumPy), one; an f32 fma (a dozen passes
for the exact NumPy method), one.  The C code computes the very bit expressions or IEEE
operations the NumPy paths compute, so results are identical; every helper returns
None/False where it cannot run (no C compiler, small arrays, an unsupported layout), and the
caller takes its NumPy path.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Optional

import numpy as np

from .native_source import BINARY as _BINARY, SCANS as _SCANS, SIGNATURES, SOURCE
from .native_source import TREES as _TREES

__all__ = ["round_to_tf32", "binary_canonical", "fma_canonical", "tree_reduce_rows",
           "narrow_f64", "f16_to_f32", "f32_to_f16", "round_f32_to_f16_values", "scan_rows"]

#: arrays smaller than this take the NumPy path (a C call costs ~1 us plus argument checks)
MIN_ELEMENTS = 1 << 12
_lock = threading.Lock()
_lib: list = []


def _library() -> Optional[ctypes.CDLL]:
    """The compiled helpers, or None without a C compiler (decided once per process)."""
    if not _lib:
        with _lock:
            if not _lib:
                from .. import cbuild
                try:
                    lib = cbuild.load(SOURCE) if cbuild.compiler() else None
                except cbuild.NativeBuildError:
                    lib = None
                if lib is not None:
                    for name, argtypes in SIGNATURES.items():
                        fn = getattr(lib, name)
                        fn.restype = None
                        fn.argtypes = argtypes
                _lib.append(lib)
    return _lib[0]


def _as_rows(x: np.ndarray) -> Optional[tuple[int, int, int, int]]:
    """``x`` as ``(rows, cols, row stride, column stride)`` in elements, when its elements are
    a 2-D grid of rows (any array whose leading axes merge), else None."""
    item = x.itemsize
    if any(s % item for s in x.strides):
        return None
    shape = [n for n in x.shape]
    strides = [s // item for s in x.strides]
    if x.ndim == 0:
        return 1, 1, 0, 1
    cols, s1 = shape[-1], strides[-1]
    rows, s0 = 1, 0
    for n, s in zip(reversed(shape[:-1]), reversed(strides[:-1])):
        if n == 1:
            continue
        if rows == 1:
            rows, s0 = n, s
        elif s0 * rows == s:
            rows *= n
        else:
            return None
    return rows, cols, s0, s1


def round_to_tf32(x: np.ndarray, out: np.ndarray, magnitudes: Optional[np.ndarray] = None
                  ) -> bool:
    """``out`` (uint32, contiguous, ``x``'s shape) = the f32 array ``x`` rounded to tf32 to
    nearest even, NaNs canonical; False (``out`` untouched) where the helper cannot run.
    ``magnitudes`` (two uint32, optional) receives the bit patterns of the smallest and the
    largest ``|result|`` (NaN and infinity sort above every finite value)."""
    if x.size < MIN_ELEMENTS or x.dtype != np.float32:
        return False
    lib = _library()
    grid = _as_rows(x) if lib is not None else None
    if grid is None:
        return False
    rows, cols, s0, s1 = grid
    lib.tileir_round_tf32(x.ctypes.data, s0, s1, rows, cols, out.ctypes.data,
                          None if magnitudes is None else magnitudes.ctypes.data)
    return True


_DTYPE_NAMES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def binary_canonical(ufunc, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> bool:
    """``ufunc(a, b, out=out)`` (``np.add``, ``np.subtract``, ``np.multiply`` or ``np.divide``
    on f32 or f64 arrays of ``out``'s dtype, broadcastable to ``out``'s shape) with NaN results
    made the canonical NaN, in one pass; False (``out`` untouched) where the helper cannot run:
    no compiler, arrays below :data:`MIN_BINARY_ELEMENTS`, other types, layouts that are not
    one grid of rows for all three arrays, or ``out`` overlapping an operand other than
    element for element."""
    dt = _DTYPE_NAMES.get(out.dtype)
    name = _BINARY.get((ufunc.__name__, dt)) if dt is not None else None
    return name is not None and _elementwise(name, (a, b), out, MIN_BINARY_ELEMENTS)


#: binary results smaller than this take the NumPy path: while the arrays fit in the caches,
#: NumPy's operation and its NaN check (a maximum reduction of data in cache) cost no more
#: than the C pass and its call (measured: 2^18 f32 elements 145 us NumPy, 161 us C; 2^20:
#: 620 us NumPy, 465 us C)
MIN_BINARY_ELEMENTS = 1 << 19


def fma_canonical(a: np.ndarray, b: np.ndarray, c: np.ndarray, out: np.ndarray) -> bool:
    """``out = a * b + c`` rounded once (IEEE fused multiply-add, nearest even) for f32 or f64
    arrays of ``out``'s dtype broadcastable to its shape, NaN results canonical, in one pass;
    False (``out`` untouched) where the helper cannot run (as :func:`binary_canonical`)."""
    dt = _DTYPE_NAMES.get(out.dtype)
    return dt is not None and _elementwise(f"tileir_fma_{dt}", (a, b, c), out, MIN_FMA_ELEMENTS)


#: fma results smaller than this take the NumPy path (the exact NumPy fma is a dozen passes:
#: the C call pays for itself on far smaller arrays than a single-pass operation)
MIN_FMA_ELEMENTS = 1 << 6


def _elementwise(name: str, operands: tuple, out: np.ndarray,
                 min_elements: int = MIN_ELEMENTS) -> bool:
    """Run the elementwise helper ``name`` on ``operands`` (``out``'s dtype, broadcast to its
    shape) into ``out``; False where it cannot (see :func:`binary_canonical`)."""
    if out.size < min_elements or not out.flags.writeable or \
            any(x.dtype != out.dtype for x in operands):
        return False
    lib = _library()
    if lib is None:
        return False
    try:
        views = [np.broadcast_to(x, out.shape) for x in operands]
    except ValueError:
        return False
    for x in views:
        if np.may_share_memory(x, out) and (x.ctypes.data != out.ctypes.data or
                                            x.strides != out.strides):
            return False
    grid = _common_rows(out.shape, [x.strides for x in views] + [out.strides], out.itemsize)
    if grid is None:
        return False
    rows, cols, steps = grid
    args: list = []
    for x, (s0, s1) in zip(views + [out], steps):
        args += [x.ctypes.data, s0, s1]
    getattr(lib, name)(*args, rows, cols)
    return True


def _common_rows(shape: tuple, strides: list, itemsize: int) -> Optional[tuple]:
    """``(rows, cols, [(row stride, column stride) per array])`` in elements when arrays of
    ``shape`` with the byte ``strides`` all walk one grid of rows (their axes merge the same
    way), else None."""
    if any(st % itemsize for sts in strides for st in sts):
        return None
    dims = [(n, [st[k] // itemsize for st in strides]) for k, n in enumerate(shape) if n != 1]
    merged: list = []
    for n, sts in dims:
        if merged:
            m, prev = merged[-1]
            if all(p == s * n for p, s in zip(prev, sts)):
                merged[-1] = (m * n, sts)
                continue
        merged.append((n, sts))
    if len(merged) > 2:
        return None
    while len(merged) < 2:
        merged.insert(0, (1, [0] * len(strides)))
    (rows, row_st), (cols, col_st) = merged
    return rows, cols, list(zip(row_st, col_st))


def tree_reduce_rows(ufunc, c: np.ndarray) -> Optional[np.ndarray]:
    """The pairwise tree of ``ufunc`` (``np.add`` or ``np.multiply``, f32 or f64) over each row
    of ``c`` (``(rows, n)``, ``n > 1``; adjacent pairs, the lower index first, an odd last
    element carried up), the roots' NaNs canonical: one pass over ``c``, each row's levels in
    cache.  None where the helper cannot run (then the caller's NumPy tree, the same bits)."""
    n = c.shape[-1] if c.ndim else 0
    return _row_helper(_TREES, ufunc, c, c.shape[:1], 2 * ((n + 1) // 2))


def _row_helper(table: dict, ufunc, c: np.ndarray, out_shape: tuple, work: int
                ) -> Optional[np.ndarray]:
    """Run the row helper of ``table`` for ``ufunc`` on the rows of ``c`` into a new array of
    ``out_shape`` (``work`` scratch elements), or None where it cannot run."""
    dt = _DTYPE_NAMES.get(c.dtype)
    name = table.get((ufunc.__name__, dt)) if dt is not None else None
    if name is None or c.ndim != 2 or c.shape[1] < 2 or c.size < MIN_ELEMENTS or \
            any(st % c.itemsize for st in c.strides):
        return None
    lib = _library()
    if lib is None:
        return None
    rows, n = c.shape
    out = np.empty(out_shape, c.dtype)
    scratch_row = np.empty(work, c.dtype)
    getattr(lib, name)(c.ctypes.data, c.strides[0] // c.itemsize, c.strides[1] // c.itemsize,
                       rows, n, out.ctypes.data, scratch_row.ctypes.data)
    return out


def narrow_f64(src: np.ndarray, dst: np.ndarray) -> bool:
    """``dst`` (f32) = ``src`` (f64, same size, both contiguous) rounded to nearest even, NaNs
    canonical, in one pass; False (``dst`` untouched) where the helper cannot run."""
    return _contiguous_map("tileir_narrow_f64", src, dst, np.float64, 0)


def f32_to_f16(x: np.ndarray, out: np.ndarray) -> bool:
    """``out`` (f16, contiguous) = the contiguous f32 array ``x`` converted to nearest even
    (infinity from 65520 on; NaN: the canonical ``0x7FFF``), in one vectorised pass; False
    (``out`` untouched) where the helper cannot run."""
    return _contiguous_map("tileir_f32_to_f16", x, out, np.float32, MIN_ELEMENTS, np.float16)


def _contiguous_map(name: str, src: np.ndarray, dst: np.ndarray, src_dtype,
                    min_elements: int, dst_dtype=np.float32) -> bool:
    """Run the one-pass helper ``name(src, dst, n)`` on contiguous arrays of the same size,
    ``src`` of ``src_dtype`` and ``dst`` of ``dst_dtype``; False where it cannot run."""
    if src.dtype != src_dtype or dst.dtype != dst_dtype or src.size != dst.size or \
            src.size < min_elements or not dst.flags.writeable or \
            not (src.flags.c_contiguous and dst.flags.c_contiguous):
        return False
    lib = _library()
    if lib is None:
        return False
    getattr(lib, name)(src.ctypes.data, dst.ctypes.data, src.size)
    return True


def f16_to_f32(x: np.ndarray, out: np.ndarray) -> bool:
    """``out`` (f32, ``x``'s shape, contiguous) = the f16 array ``x`` widened (exact, NaN
    payloads kept as NumPy keeps them) in one vectorised pass; False (``out`` untouched) where
    the helper cannot run (no compiler, small arrays, axes that do not merge into three, or a
    last stride other than 1)."""
    if x.dtype != np.float16 or out.dtype != np.float32 or x.size < MIN_ELEMENTS or \
            x.shape != out.shape or not out.flags.c_contiguous or not out.flags.writeable:
        return False
    lib = _library()
    if lib is None or any(st % 2 for st in x.strides):
        return False
    dims = [(n, st // 2) for n, st in zip(x.shape, x.strides) if n != 1]
    merged: list = []
    for n, st in dims:              # (axes that walk memory as one merge)
        if merged and merged[-1][1] == st * n:
            merged[-1] = (merged[-1][0] * n, st)
        else:
            merged.append((n, st))
    merged = [(1, 0)] * (3 - len(merged)) + merged
    if len(merged) > 3 or merged[2][1] != 1:
        return False
    (planes, s0), (rows, s1), (cols, _) = merged
    lib.tileir_f16_to_f32(x.ctypes.data, s0, s1, out.ctypes.data, planes, rows, cols)
    return True


def round_f32_to_f16_values(x: np.ndarray, out: np.ndarray) -> bool:
    """``out`` (f32, contiguous) = the contiguous f32 array ``x`` rounded to f16 values
    (nearest even; infinity from 65520 on; NaN: ``0x7FC00000``) kept as f32, in one
    vectorised pass; False (``out`` untouched) where the helper cannot run."""
    return _contiguous_map("tileir_f32_round_f16", x, out, np.float32, MIN_ELEMENTS)


def scan_rows(ufunc, c: np.ndarray) -> Optional[np.ndarray]:
    """The doubling scan of ``ufunc`` (``np.add`` or ``np.multiply``, f32 or f64) along each
    row of ``c`` (``(rows, n)``, ``n > 1``; level ``k`` combines element ``j >= k`` with element
    ``j - k``), NaN results canonical: a new ``(rows, n)`` array, each row's levels in cache.
    None where the helper cannot run (then the caller's NumPy scan, the same bits)."""
    return _row_helper(_SCANS, ufunc, c, c.shape, c.shape[-1] if c.ndim else 0)
