"""Native helpers for the numerics' hottest bit-exact passes, compiled on first use.

A pass that NumPy runs as several whole-array operations (each a trip through memory) is one
loop in C: rounding f32 values to tf32 is five integer passes and a NaN check in NumPy, one
pass here; an f32/f64 add, subtract, multiply or divide and the canonicalisation of its NaN
results (a second pass over the result in NumPy) one.  The C code computes the very bit expressions the NumPy paths compute (integer
arithmetic only), so results are identical; every helper returns None where it cannot run (no C
compiler, an unsupported layout), and the caller takes its NumPy path.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Optional

import numpy as np

__all__ = ["round_to_tf32", "binary_canonical", "fma_canonical", "tree_reduce_rows",
           "narrow_f64", "f16_to_f32", "round_f32_to_f16_values", "scan_rows"]

_SOURCE = r"""
#include <stdint.h>
/* out[i, j] = src[i * s0 + j * s1] (f32 bits) rounded to tf32, to nearest, ties to even; NaN
   gives the canonical tf32 NaN 0x7FFFE000.  Strides in elements; out is contiguous.  range
   (when not NULL) receives the smallest and the largest magnitude of the results as bit
   patterns (sign cleared; NaN and infinity sort above every finite value). */
#define TILEIR_TF32_LOOP(U)                                                                   \
  for (int64_t j = 0; j < cols; j++) {                                                         \
    const uint32_t u = (U);                                                                    \
    const uint32_t t = (u + 0xFFFu + ((u >> 13) & 1u)) & 0xFFFFE000u;                          \
    const uint32_t v = (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFE000u : t;                      \
    const uint32_t m = v & 0x7FFFFFFFu;                                                        \
    d[j] = v;                                                                                  \
    lo = m < lo ? m : lo;                                                                      \
    hi = m > hi ? m : hi;                                                                      \
  }
void tileir_round_tf32(const uint32_t *src, int64_t s0, int64_t s1, int64_t rows,
                       int64_t cols, uint32_t *out, uint32_t *range) {
  uint32_t lo = 0xFFFFFFFFu, hi = 0;
  for (int64_t i = 0; i < rows; i++) {
    const uint32_t *r = src + i * s0;
    uint32_t *d = out + i * cols;
    if (s1 == 1) {
      TILEIR_TF32_LOOP(r[j])
    } else {
      TILEIR_TF32_LOOP(r[j * s1])
    }
  }
  if (range) {
    range[0] = lo;
    range[1] = hi;
  }
}

/* o = a OP b elementwise over a grid of rows x cols (strides in elements; a stride of 0
   broadcasts), in the type's arithmetic (nearest even: no contraction, no fast math); a NaN
   result becomes the canonical NaN (all payload bits set).  Rows whose three column strides
   are 1 (or 0 for a broadcast operand) are plain loops the compiler vectorises. */
#define TILEIR_BINARY(NAME, T, UT, CANON, OP)                                                  \
void NAME(const T *a, int64_t a0, int64_t a1, const T *b, int64_t b0, int64_t b1, T *o,        \
          int64_t o0, int64_t o1, int64_t rows, int64_t cols) {                                \
  const union { UT u; T f; } canon = {CANON};                                                  \
  for (int64_t i = 0; i < rows; i++) {                                                         \
    const T *ra = a + i * a0, *rb = b + i * b0;                                                \
    T *ro = o + i * o0;                                                                        \
    if (a1 == 1 && b1 == 1 && o1 == 1) {                                                       \
      for (int64_t j = 0; j < cols; j++) { const T v = ra[j] OP rb[j]; ro[j] = v != v ? canon.f : v; } \
    } else if (a1 == 0 && b1 == 1 && o1 == 1) {                                                \
      const T x = ra[0];                                                                       \
      for (int64_t j = 0; j < cols; j++) { const T v = x OP rb[j]; ro[j] = v != v ? canon.f : v; } \
    } else if (a1 == 1 && b1 == 0 && o1 == 1) {                                                \
      const T y = rb[0];                                                                       \
      for (int64_t j = 0; j < cols; j++) { const T v = ra[j] OP y; ro[j] = v != v ? canon.f : v; } \
    } else {                                                                                   \
      for (int64_t j = 0; j < cols; j++) {                                                     \
        const T v = ra[j * a1] OP rb[j * b1];                                                  \
        ro[j * o1] = v != v ? canon.f : v;                                                     \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
}
TILEIR_BINARY(tileir_add_f32, float, uint32_t, 0x7FFFFFFFu, +)
TILEIR_BINARY(tileir_sub_f32, float, uint32_t, 0x7FFFFFFFu, -)
TILEIR_BINARY(tileir_mul_f32, float, uint32_t, 0x7FFFFFFFu, *)
TILEIR_BINARY(tileir_div_f32, float, uint32_t, 0x7FFFFFFFu, /)
TILEIR_BINARY(tileir_add_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, +)
TILEIR_BINARY(tileir_sub_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, -)
TILEIR_BINARY(tileir_mul_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, *)
TILEIR_BINARY(tileir_div_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, /)

/* o = fma(a, b, c): a * b + c rounded once (C99 fma, correctly rounded: the hardware's fused
   multiply-add where there is one), NaN results canonical; layout as TILEIR_BINARY. */
#define TILEIR_FMA(NAME, T, UT, CANON, FMA)                                                   \
void NAME(const T *a, int64_t a0, int64_t a1, const T *b, int64_t b0, int64_t b1,             \
          const T *c, int64_t c0, int64_t c1, T *o, int64_t o0, int64_t o1, int64_t rows,      \
          int64_t cols) {                                                                     \
  const union { UT u; T f; } canon = {CANON};                                                  \
  for (int64_t i = 0; i < rows; i++) {                                                         \
    const T *ra = a + i * a0, *rb = b + i * b0, *rc = c + i * c0;                              \
    T *ro = o + i * o0;                                                                        \
    if (a1 == 1 && b1 == 1 && c1 == 1 && o1 == 1) {                                            \
      for (int64_t j = 0; j < cols; j++) {                                                     \
        const T v = FMA(ra[j], rb[j], rc[j]); ro[j] = v != v ? canon.f : v; }                  \
    } else {                                                                                   \
      for (int64_t j = 0; j < cols; j++) {                                                     \
        const T v = FMA(ra[j * a1], rb[j * b1], rc[j * c1]);                                   \
        ro[j * o1] = v != v ? canon.f : v;                                                     \
      }                                                                                        \
    }                                                                                          \
  }                                                                                            \
}
TILEIR_FMA(tileir_fma_f32, float, uint32_t, 0x7FFFFFFFu, __builtin_fmaf)
TILEIR_FMA(tileir_fma_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, __builtin_fma)

/* out[i] = the pairwise tree of OP over row i of c (n > 1 elements at c + i * s0 + j * s1):
   each level combines adjacent pairs, the lower index first (v[j] = v[2j] OP v[2j + 1]), an
   odd last element moves up as it is; the root's NaN canonical.  work: two scratch rows of
   (n + 1) / 2 elements. */
#define TILEIR_TREE(NAME, T, UT, CANON, OP)                                                    \
void NAME(const T *c, int64_t s0, int64_t s1, int64_t rows, int64_t n, T *out, T *work) {      \
  const union { UT u; T f; } canon = {CANON};                                                  \
  const int64_t width = (n + 1) / 2;                                                           \
  for (int64_t i = 0; i < rows; i++) {                                                         \
    const T *src = c + i * s0;                                                                 \
    T *a = work, *b = work + width;                                                            \
    int64_t m = n, half = n / 2;                                                               \
    if (s1 == 1) {                                                                             \
      for (int64_t j = 0; j < half; j++) a[j] = src[2 * j] OP src[2 * j + 1];                  \
    } else {                                                                                   \
      for (int64_t j = 0; j < half; j++) a[j] = src[2 * j * s1] OP src[(2 * j + 1) * s1];      \
    }                                                                                          \
    if (m % 2) a[half] = src[(m - 1) * s1];                                                    \
    m = half + m % 2;                                                                          \
    while (m > 1) {                                                                            \
      half = m / 2;                                                                            \
      for (int64_t j = 0; j < half; j++) b[j] = a[2 * j] OP a[2 * j + 1];                      \
      if (m % 2) b[half] = a[m - 1];                                                           \
      m = half + m % 2;                                                                        \
      T *t = a; a = b; b = t;                                                                  \
    }                                                                                          \
    out[i] = a[0] != a[0] ? canon.f : a[0];                                                    \
  }                                                                                            \
}
/* dst = the f16 bit patterns of src as f32 (exact; a NaN keeps its payload, shifted, as
   NumPy's conversion does), by integer arithmetic the compiler vectorises.  src: planes x
   rows x cols elements (strides s0, s1 in elements, unit column stride); dst contiguous. */
#pragma GCC push_options
#pragma GCC optimize ("no-trapping-math")   /* (the exact float steps of the subnormals
                                               may run for every lane: vectorised) */
void tileir_f16_to_f32(const uint16_t *src, int64_t s0, int64_t s1, uint32_t *dst,
                       int64_t planes, int64_t rows, int64_t cols) {
  for (int64_t i = 0; i < planes * rows; i++) {
    const uint16_t *r = src + (i / rows) * s0 + (i % rows) * s1;
    uint32_t *d = dst + i * cols;
    for (int64_t j = 0; j < cols; j++) {
      const uint32_t h = r[j], sign = (h & 0x8000u) << 16, em = h & 0x7FFFu;
      const uint32_t normal = (em << 13) + 0x38000000u;       /* exponent rebiased by 112 */
      const uint32_t special = (em << 13) | 0x7F800000u;      /* inf, NaN */
      union { float f; uint32_t u; } sub = {(float)(int32_t)em * 0x1p-24f};   /* exact */
      d[j] = sign | (em >= 0x7C00u ? special : em < 0x400u ? sub.u : normal);
    }
  }
}

/* dst[i] = the f32 src[i] rounded to the nearest f16 value (ties to even) and kept as f32:
   10 mantissa bits from 2**-14 up (from 65520 on: infinity), multiples of 2**-24 below
   (rint of the exactly scaled value), the sign kept (zeros too); NaN gives 0x7FC00000.
   Contiguous arrays of n elements. */
void tileir_f32_round_f16(const uint32_t *src, uint32_t *dst, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    const uint32_t u = src[i], a = u & 0x7FFFFFFFu, sign = u & 0x80000000u;
    const uint32_t t = (a + 0xFFFu + ((a >> 13) & 1u)) & 0xFFFFE000u;
    union { uint32_t u; float f; } m = {a};
    union { float f; uint32_t u; } sub = {__builtin_rintf(m.f * 0x1p24f) * 0x1p-24f};
    const uint32_t r = a < 0x38800000u ? sub.u : t > 0x477FE000u ? 0x7F800000u : t;
    dst[i] = a > 0x7F800000u ? 0x7FC00000u : sign | r;
  }
}
#pragma GCC pop_options

/* dst[i] = src[i] rounded to f32 (nearest even), NaN canonical (contiguous arrays). */
void tileir_narrow_f64(const double *src, float *dst, int64_t n) {
  const union { uint32_t u; float f; } canon = {0x7FFFFFFFu};
  for (int64_t i = 0; i < n; i++) {
    const float v = (float)src[i];
    dst[i] = v != v ? canon.f : v;
  }
}

/* out row i = the doubling scan of OP over row i of c (n > 1 elements at c + i * s0 + j * s1):
   level k = 1, 2, 4, ... combines element j >= k with element j - k (v[j] OP v[j - k]),
   elements below k move up as they are; NaN results canonical.  out: rows x n, contiguous;
   work: n scratch elements. */
#define TILEIR_SCAN(NAME, T, UT, CANON, OP)                                                    \
void NAME(const T *c, int64_t s0, int64_t s1, int64_t rows, int64_t n, T *out, T *work) {      \
  const union { UT u; T f; } canon = {CANON};                                                  \
  for (int64_t i = 0; i < rows; i++) {                                                         \
    const T *src = c + i * s0;                                                                 \
    T *a = out + i * n, *b = work;                                                             \
    int64_t levels = 0;                                                                        \
    for (int64_t k = 1; k < n; k *= 2) levels++;                                               \
    if (levels % 2) { T *t = a; a = b; b = t; }   /* (the last level lands in out) */          \
    for (int64_t j = 0; j < n; j++) a[j] = src[j * s1];                                        \
    for (int64_t k = 1; k < n; k *= 2) {                                                       \
      for (int64_t j = 0; j < k; j++) b[j] = a[j];                                             \
      for (int64_t j = k; j < n; j++) b[j] = a[j] OP a[j - k];                                 \
      T *t = a; a = b; b = t;                                                                  \
    }                                                                                          \
    for (int64_t j = 0; j < n; j++) a[j] = a[j] != a[j] ? canon.f : a[j];                      \
  }                                                                                            \
}
TILEIR_SCAN(tileir_scan_add_f32, float, uint32_t, 0x7FFFFFFFu, +)
TILEIR_SCAN(tileir_scan_mul_f32, float, uint32_t, 0x7FFFFFFFu, *)
TILEIR_SCAN(tileir_scan_add_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, +)
TILEIR_SCAN(tileir_scan_mul_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, *)

TILEIR_TREE(tileir_tree_add_f32, float, uint32_t, 0x7FFFFFFFu, +)
TILEIR_TREE(tileir_tree_mul_f32, float, uint32_t, 0x7FFFFFFFu, *)
TILEIR_TREE(tileir_tree_add_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, +)
TILEIR_TREE(tileir_tree_mul_f64, double, uint64_t, 0x7FFFFFFFFFFFFFFFull, *)
"""

#: the binary helpers by (NumPy ufunc name, dtype)
_BINARY = {(op, dt): f"tileir_{op[:3]}_{dt}"
           for op in ("add", "subtract", "multiply", "divide") for dt in ("f32", "f64")}

#: the pairwise-tree reductions by (NumPy ufunc name, dtype)
_TREES = {(op, dt): f"tileir_tree_{op[:3]}_{dt}"
          for op in ("add", "multiply") for dt in ("f32", "f64")}

#: the doubling scans by (NumPy ufunc name, dtype)
_SCANS = {(op, dt): f"tileir_scan_{op[:3]}_{dt}"
          for op in ("add", "multiply") for dt in ("f32", "f64")}

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
                                   ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
                                   ctypes.c_void_p]
                    for name in _BINARY.values():
                        fn = getattr(lib, name)
                        fn.restype = None
                        fn.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64] * 3 + \
                            [ctypes.c_int64, ctypes.c_int64]
                    fn = lib.tileir_f16_to_f32
                    fn.restype = None
                    fn.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64,
                                   ctypes.c_void_p] + [ctypes.c_int64] * 3
                    fn = lib.tileir_f32_round_f16
                    fn.restype = None
                    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
                    fn = lib.tileir_narrow_f64
                    fn.restype = None
                    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
                    for name in list(_TREES.values()) + list(_SCANS.values()):
                        fn = getattr(lib, name)
                        fn.restype = None
                        fn.argtypes = [ctypes.c_void_p] + [ctypes.c_int64] * 4 + \
                            [ctypes.c_void_p, ctypes.c_void_p]
                    for name in ("tileir_fma_f32", "tileir_fma_f64"):
                        fn = getattr(lib, name)
                        fn.restype = None
                        fn.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64] * 4 + \
                            [ctypes.c_int64, ctypes.c_int64]
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
    no compiler, small arrays, other types, layouts that are not one grid of rows for all three
    arrays, or ``out`` overlapping an operand other than element for element."""
    dt = _DTYPE_NAMES.get(out.dtype)
    name = _BINARY.get((ufunc.__name__, dt)) if dt is not None else None
    return name is not None and _elementwise(name, (a, b), out)


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
    dt = _DTYPE_NAMES.get(c.dtype)
    name = _TREES.get((ufunc.__name__, dt)) if dt is not None else None
    if name is None or c.ndim != 2 or c.shape[1] < 2 or c.size < MIN_ELEMENTS or \
            any(st % c.itemsize for st in c.strides):
        return None
    lib = _library()
    if lib is None:
        return None
    rows, n = c.shape
    out = np.empty(rows, c.dtype)
    work = np.empty(2 * ((n + 1) // 2), c.dtype)
    getattr(lib, name)(c.ctypes.data, c.strides[0] // c.itemsize, c.strides[1] // c.itemsize,
                       rows, n, out.ctypes.data, work.ctypes.data)
    return out


def narrow_f64(src: np.ndarray, dst: np.ndarray) -> bool:
    """``dst`` (f32) = ``src`` (f64, same size, both contiguous) rounded to nearest even, NaNs
    canonical, in one pass; False (``dst`` untouched) where the helper cannot run."""
    if src.dtype != np.float64 or dst.dtype != np.float32 or src.size != dst.size or \
            not (src.flags.c_contiguous and dst.flags.c_contiguous and dst.flags.writeable):
        return False
    lib = _library()
    if lib is None:
        return False
    lib.tileir_narrow_f64(src.ctypes.data, dst.ctypes.data, src.size)
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
    if x.dtype != np.float32 or out.dtype != np.float32 or x.size != out.size or \
            x.size < MIN_ELEMENTS or not (x.flags.c_contiguous and out.flags.c_contiguous):
        return False
    lib = _library()
    if lib is None:
        return False
    lib.tileir_f32_round_f16(x.ctypes.data, out.ctypes.data, x.size)
    return True


def scan_rows(ufunc, c: np.ndarray) -> Optional[np.ndarray]:
    """The doubling scan of ``ufunc`` (``np.add`` or ``np.multiply``, f32 or f64) along each
    row of ``c`` (``(rows, n)``, ``n > 1``; level ``k`` combines element ``j >= k`` with element
    ``j - k``), NaN results canonical: a new ``(rows, n)`` array, each row's levels in cache.
    None where the helper cannot run (then the caller's NumPy scan, the same bits)."""
    dt = _DTYPE_NAMES.get(c.dtype)
    name = _SCANS.get((ufunc.__name__, dt)) if dt is not None else None
    if name is None or c.ndim != 2 or c.shape[1] < 2 or c.size < MIN_ELEMENTS or \
            any(st % c.itemsize for st in c.strides):
        return None
    lib = _library()
    if lib is None:
        return None
    rows, n = c.shape
    out = np.empty((rows, n), c.dtype)
    work = np.empty(n, c.dtype)
    getattr(lib, name)(c.ctypes.data, c.strides[0] // c.itemsize, c.strides[1] // c.itemsize,
                       rows, n, out.ctypes.data, work.ctypes.data)
    return out

