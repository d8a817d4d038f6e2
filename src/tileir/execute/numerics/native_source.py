"""The C source of the numerics' native helpers (:mod:`.native`) and their ctypes signatures.

Each helper is a plain loop over rows of elements, written so that the compiler vectorises it
(see the comments in the source); every one computes exactly the bit expressions or IEEE
operations the NumPy path beside it computes.
"""

from __future__ import annotations

import ctypes

__all__ = ["SOURCE", "SIGNATURES", "BINARY", "TREES", "SCANS"]

SOURCE = r"""
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

/* dst[i] = the f16 bits of the f32 src[i] rounded to nearest even: the magnitude's pattern
   rounded to 10 mantissa bits and re-biased (65520 and above: infinity), below 2**-14 the
   pattern of 0.5 + |x| less 0.5's (|x| rounded to a multiple of 2**-24), the sign put back;
   NaN gives the canonical f16 NaN 0x7FFF.  Contiguous arrays of n elements. */
void tileir_f32_to_f16(const uint32_t *src, uint16_t *dst, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    const uint32_t u = src[i], a = u & 0x7FFFFFFFu, sign = (u >> 16) & 0x8000u;
    uint32_t nrm = (a + 0xFFFu + ((a >> 13) & 1u)) >> 13;
    nrm = nrm > 0x7C00u + (112u << 10) ? 0x7C00u + (112u << 10) : nrm;
    nrm -= 112u << 10;
    union { uint32_t u; float f; } m = {a};
    union { float f; uint32_t u; } s = {m.f + 0.5f};
    const uint32_t r = a < 0x38800000u ? s.u - 0x3F000000u : nrm;
    dst[i] = (uint16_t)(a > 0x7F800000u ? 0x7FFFu : (r | sign));
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
BINARY = {(op, dt): f"tileir_{op[:3]}_{dt}"
           for op in ("add", "subtract", "multiply", "divide") for dt in ("f32", "f64")}

#: the pairwise-tree reductions by (NumPy ufunc name, dtype)
TREES = {(op, dt): f"tileir_tree_{op[:3]}_{dt}"
          for op in ("add", "multiply") for dt in ("f32", "f64")}

#: the doubling scans by (NumPy ufunc name, dtype)
SCANS = {(op, dt): f"tileir_scan_{op[:3]}_{dt}"
          for op in ("add", "multiply") for dt in ("f32", "f64")}

_P, _I = ctypes.c_void_p, ctypes.c_int64

#: restype None; the argument types of every exported function
SIGNATURES: dict = {
    "tileir_round_tf32": [_P, _I, _I, _I, _I, _P, _P],
    "tileir_f16_to_f32": [_P, _I, _I, _P, _I, _I, _I],
    "tileir_f32_round_f16": [_P, _P, _I],
    "tileir_f32_to_f16": [_P, _P, _I],
    "tileir_narrow_f64": [_P, _P, _I],
    **{name: [_P, _I, _I] * 3 + [_I, _I] for name in BINARY.values()},
    **{name: [_P, _I, _I] * 4 + [_I, _I] for name in ("tileir_fma_f32", "tileir_fma_f64")},
    **{name: [_P, _I, _I, _I, _I, _P, _P] for name in (*TREES.values(), *SCANS.values())},
}

