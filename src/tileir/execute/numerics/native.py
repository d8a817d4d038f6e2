"""Native helpers for the numerics' hottest bit-exact passes, compiled on first use.

A pass that NumPy runs as several whole-array operations (each a trip through memory) is one
loop in C: rounding f32 values to tf32 is five integer passes and a NaN check in NumPy, one
pass here.  The C code computes the very bit expressions the NumPy paths compute (integer
arithmetic only), so results are identical; every helper returns None where it cannot run (no C
compiler, an unsupported layout), and the caller takes its NumPy path.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Optional

import numpy as np

__all__ = ["round_to_tf32"]

_SOURCE = r"""
#include <stdint.h>
/* out[i, j] = src[i * s0 + j * s1] (f32 bits) rounded to tf32, to nearest, ties to even; NaN
   gives the canonical tf32 NaN 0x7FFFE000.  Strides in elements; out is contiguous. */
void tileir_round_tf32(const uint32_t *src, int64_t s0, int64_t s1, int64_t rows,
                       int64_t cols, uint32_t *out) {
  for (int64_t i = 0; i < rows; i++) {
    const uint32_t *r = src + i * s0;
    uint32_t *d = out + i * cols;
    if (s1 == 1) {
      for (int64_t j = 0; j < cols; j++) {
        const uint32_t u = r[j];
        const uint32_t t = (u + 0xFFFu + ((u >> 13) & 1u)) & 0xFFFFE000u;
        d[j] = (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFE000u : t;
      }
    } else {
      for (int64_t j = 0; j < cols; j++) {
        const uint32_t u = r[j * s1];
        const uint32_t t = (u + 0xFFFu + ((u >> 13) & 1u)) & 0xFFFFE000u;
        d[j] = (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFE000u : t;
      }
    }
  }
}
"""

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
                    lib = cbuild.load(_SOURCE) if cbuild.compiler() else None
                except cbuild.NativeBuildError:
                    lib = None
                if lib is not None:
                    fn = lib.tileir_round_tf32
                    fn.restype = None
                    fn.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                   ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p]
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


def round_to_tf32(x: np.ndarray, out: np.ndarray) -> bool:
    """``out`` (uint32, contiguous, ``x``'s shape) = the f32 array ``x`` rounded to tf32 to
    nearest even, NaNs canonical; False (``out`` untouched) where the helper cannot run."""
    if x.size < MIN_ELEMENTS or x.dtype != np.float32:
        return False
    lib = _library()
    grid = _as_rows(x) if lib is not None else None
    if grid is None:
        return False
    rows, cols, s0, s1 = grid
    lib.tileir_round_tf32(x.ctypes.data, s0, s1, rows, cols, out.ctypes.data)
    return True
