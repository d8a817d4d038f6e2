"""The C side of the native backend: element types in C, the helpers every kernel includes,
exact literals, and what a translation produces (:class:`KernelSource`)."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from ....ir.core import Value
from ..values import element_name

__all__ = ["NotNative", "CTYPE", "UTYPE", "BITS", "FLOATS", "HALVES", "ERR_BOUNDS", "ERR_UB",
           "ParamSpec", "KernelSource", "elem_of", "is_memref", "half_bits", "float_literal",
           "PRELUDE"]


class NotNative(Exception):
    """The kernel cannot run as C; the message says why (the first op or type refused)."""

#: C types of the element types a native kernel computes with
CTYPE = {"i1": "uint8_t", "i8": "int8_t", "i16": "int16_t", "i32": "int32_t", "i64": "int64_t",
         "index": "int64_t", "f32": "float", "f64": "double", "f16": "uint16_t",
         "bf16": "uint16_t"}
UTYPE = {"i1": "uint8_t", "i8": "uint8_t", "i16": "uint16_t", "i32": "uint32_t",
         "i64": "uint64_t", "index": "uint64_t"}
BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "index": 64, "f32": 32, "f64": 64,
        "f16": 16, "bf16": 16}
FLOATS = ("f32", "f64")
#: 16-bit floats: kept as their bit patterns, computed in f32 and rounded once to nearest
#: even (exact for + - * / and sqrt: f32 has more than twice their precision plus two bits,
#: so the double rounding is innocuous; the other ops return an operand or are exact)
HALVES = ("f16", "bf16")

#: error codes the C kernel returns (what the lane engine then reports)
ERR_BOUNDS, ERR_UB = 1, 2

@dataclass(frozen=True)
class ParamSpec:
    """One kernel argument as the C kernel reads it from its parameter array: ``kind``
    ``"scalar"`` (one slot: the value's bits) or ``"memref"`` (pointer, then ``rank`` sizes and
    ``rank`` strides, in elements); ``elem``: the element name; ``unit_stride``: the compiled
    code assumes the innermost stride is 1 (a memref only)."""
    kind: str
    elem: str
    rank: int = 0
    unit_stride: bool = False


@dataclass
class KernelSource:
    """A kernel translated to C (function ``tileir_kernel``) and what launching it needs."""
    text: str
    params: list[ParamSpec]
    #: bytes of per-block scratch the kernel carves its attributions and spills from
    scratch_bytes: int
    #: indices of the memref arguments the kernel loads from / stores to
    reads: set[int] = field(default_factory=set)
    writes: set[int] = field(default_factory=set)

def elem_of(v: Value) -> str:
    """The element name of a scalar value the C code computes with."""
    name = element_name(v.type)
    if name not in CTYPE or type(v.type).__name__ in ("VectorType", "MemRefType"):
        raise NotNative(f"values of type {v.type}")
    return name


def is_memref(v: Value) -> bool:
    return type(v.type).__name__ == "MemRefType"


def half_bits(value: float, elem: str) -> int:
    """The bit pattern of ``value`` (exact in ``elem``) as an f16 / bf16."""
    dtype = np.float16 if elem == "f16" else ml_dtypes.bfloat16
    return int(np.asarray(value, dtype=np.float64).astype(dtype).view(np.uint16))


def float_literal(value: float, elem: str) -> str:
    """A C expression with exactly the bits of ``value`` as ``elem``."""
    if elem == "f32":
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        return f"tl_f32(0x{bits:08x}u)"
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    return f"tl_f64(0x{bits:016x}ull)"


PRELUDE = r"""
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <float.h>
/* float and double operations must round to their own type (16: _Float16 too) */
#if !defined(FLT_EVAL_METHOD) || (FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != 16)
#error "float arithmetic does not round to each type"
#endif
static inline float tl_f32(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline double tl_f64(uint64_t b) { double f; memcpy(&f, &b, 8); return f; }
#define TL_EXTREMA(T, S) \
static inline T tl_maximum##S(T a, T b) { if (a != a) return a; if (b != b) return b; \
  if (a == 0 && b == 0) return (signbit(a) && signbit(b)) ? -(T)0 : (T)0; return a > b ? a : b; } \
static inline T tl_minimum##S(T a, T b) { if (a != a) return a; if (b != b) return b; \
  if (a == 0 && b == 0) return (signbit(a) || signbit(b)) ? -(T)0 : (T)0; return a < b ? a : b; } \
static inline T tl_maxnum##S(T a, T b) { if (a != a) return b; if (b != b) return a; \
  if (a == 0 && b == 0) return (signbit(a) && signbit(b)) ? -(T)0 : (T)0; return a > b ? a : b; } \
static inline T tl_minnum##S(T a, T b) { if (a != a) return b; if (b != b) return a; \
  if (a == 0 && b == 0) return (signbit(a) || signbit(b)) ? -(T)0 : (T)0; return a < b ? a : b; }
TL_EXTREMA(float, f)
TL_EXTREMA(double, )
static inline float tl_f32_bits(uint32_t b) { return tl_f32(b); }
static inline uint32_t tl_bits_f32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
/* f16 <-> f32: exact widening; narrowing to nearest even (subnormals, overflow to inf),
   NaN keeps its sign and the top payload bits, made non-zero (as NumPy does) */
static inline float tl_f32_from_f16(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1Fu, m = h & 0x3FFu;
  if (e == 0x1Fu) return tl_f32(sign | 0x7F800000u | (m << 13));
  if (e == 0) return tl_f32(tl_bits_f32((float)m * 0x1p-24f) | sign);
  return tl_f32(sign | ((e + 112u) << 23) | (m << 13));
}
static inline uint16_t tl_f16_from_f32(float f) {
  const uint32_t x = tl_bits_f32(f), sign = (x >> 16) & 0x8000u, mag = x & 0x7FFFFFFFu;
  if (mag > 0x7F800000u) {
    uint32_t r = 0x7C00u + ((mag & 0x7FFFFFu) >> 13);
    return (uint16_t)(sign | (r == 0x7C00u ? 0x7C01u : r));
  }
  if (mag >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);
  if (mag < 0x38800000u) {
    if (mag <= 0x33000000u) return (uint16_t)sign;
    const uint32_t e = mag >> 23, m = (mag & 0x7FFFFFu) | 0x800000u, shift = 126u - e;
    uint32_t r = m >> shift;
    const uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (r & 1u))) r++;
    return (uint16_t)(sign | r);
  }
  const uint32_t r = mag - 0x38000000u;
  return (uint16_t)(sign | ((r + 0xFFFu + ((r >> 13) & 1u)) >> 13));
}
static inline float tl_f32_from_bf16(uint16_t h) { return tl_f32((uint32_t)h << 16); }
static inline uint16_t tl_bf16_from_f32(float f) {
  const uint32_t x = tl_bits_f32(f);
  if ((x & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((x >> 16) | 0x40u);
  return (uint16_t)((x + 0x7FFFu + ((x >> 16) & 1u)) >> 16);
}
/* integer atomics (relaxed: only the final memory matters, which no order changes) */
#define TL_ATOMIC_FETCH(B, K, F) \
static inline void tl_atomic_##K##_##B(int##B##_t *p, int##B##_t v) { \
  (void)__atomic_##F(p, v, __ATOMIC_RELAXED); }
#define TL_ATOMIC_CAS(B, K, T, EXPR) \
static inline void tl_atomic_##K##_##B(int##B##_t *p, int##B##_t v) { \
  int##B##_t old = __atomic_load_n(p, __ATOMIC_RELAXED), nv; \
  do { const T a = (T)old, b = (T)v; nv = (int##B##_t)(EXPR); } \
  while (!__atomic_compare_exchange_n(p, &old, nv, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)); }
#define TL_ATOMICS(B) \
TL_ATOMIC_FETCH(B, addi, fetch_add) TL_ATOMIC_FETCH(B, andi, fetch_and) \
TL_ATOMIC_FETCH(B, ori, fetch_or) TL_ATOMIC_FETCH(B, xori, fetch_xor) \
TL_ATOMIC_CAS(B, muli, uint##B##_t, a * b) \
TL_ATOMIC_CAS(B, maxs, int##B##_t, a > b ? a : b) \
TL_ATOMIC_CAS(B, mins, int##B##_t, a < b ? a : b) \
TL_ATOMIC_CAS(B, maxu, uint##B##_t, a > b ? a : b) \
TL_ATOMIC_CAS(B, minu, uint##B##_t, a < b ? a : b)
TL_ATOMICS(32)
TL_ATOMICS(64)
#define TL_FAIL(code) do { *err = (code); return 1; } while (0)
"""
