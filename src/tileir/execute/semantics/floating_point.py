"""§8.7 Floating-point operations.

Arithmetic is bit-exact (:mod:`tileir.execute.numerics`; native fast paths in :mod:`.fast`):
IEEE rounding modes are exact for f16/bf16/f32/f64 (f16/bf16 "emulated in f32" = the exact result
rounded once to the narrow type), ``flush_to_zero`` flushes f32 inputs and results to
sign-preserving zero, maxf/minf follow IEEE 754-2019 maximum/maximumNumber with ``+0 > -0``, NaN
results are canonical.  The matrix products ``mmaf`` and ``mmaf_scaled`` are documented at
:func:`mmaf_exact`.
"""

from __future__ import annotations

import threading
from typing import Callable, Optional

import numpy as np

from .. import numerics as N
from ..plan import lowering
from ..buffers import fresh
from ..numerics import native
from ..lanes import taken_from
from ..values import Deferred
from . import fast, padded_mma
from ._common import elementwise, element_name, enum_keyword, nan_canonical, rounding_keyword


def _ftz(op) -> bool:
    return "flush_to_zero" in op.attributes


def _into_store(op, cc, name: str, elem: str):
    """For a nearest-even f32/f64 ``addf``/``subf``/``mulf``/``divf`` whose only use is the
    ``store_view_tko`` right after it: the closure leaving a :class:`Deferred` that the store
    computes into memory; else None."""
    uf = fast.native_ufunc(name, elem)
    if uf is None or not stored_next(op):
        return None
    a, b = cc.slots_of(op.operands)
    out = cc.slot(op.results[0])

    def run(r):
        r[out] = Deferred(uf, (r[a], r[b]), fast.canon_nan)
    return run


def stored_next(op) -> bool:
    """Whether the only use of ``op``'s result is as the tile of the ``store_view_tko`` right
    after it in the same block."""
    use = op.sole_use_by_next()
    return use is not None and use[0].name == "cuda_tile.store_view_tko" and \
        use[0].operand_group("tile")[0] is op.results[0]


@lowering("addf", "subf", "mulf", fold=True)
def _lower_arith(op, cc):
    name = op.name.split(".", 1)[1]
    elem = element_name(op.results[0].type)
    rounding, ftz = rounding_keyword(op), _ftz(op)
    fn = None
    if rounding == "nearest_even" and not ftz:
        deferred = _into_store(op, cc, name, elem)
        if deferred is not None:
            return deferred
        fn = fast.float_binary(name, elem, nan_canonical(op, cc))
    if fn is None:
        impl = getattr(N, name)

        def fn(a, b):
            return impl(a, b, elem, rounding, ftz)
    return elementwise(op, cc, fn)


@lowering("divf", fold=True)
def _lower_divf(op, cc):
    elem = element_name(op.results[0].type)
    rounding, ftz = rounding_keyword(op), _ftz(op)
    fn = None
    if rounding in ("nearest_even",) and not ftz:
        deferred = _into_store(op, cc, "divf", elem)
        if deferred is not None:
            return deferred
        fn = fast.float_binary("divf", elem, nan_canonical(op, cc))
    if fn is None:
        def fn(a, b):
            return N.divf(a, b, elem, rounding, ftz)
    return elementwise(op, cc, fn)


@lowering("fma", fold=True)
def _lower_fma(op, cc):
    elem = element_name(op.results[0].type)
    rounding, ftz = rounding_keyword(op), _ftz(op)
    if elem == "f32" and rounding == "nearest_even" and not ftz:
        return elementwise(op, cc, fast.fma_f32(nan_canonical(op, cc)))
    return elementwise(op, cc, lambda a, b, c: N.fma(a, b, c, elem, rounding, ftz))


@lowering("sqrt", fold=True)
def _lower_sqrt(op, cc):
    elem = element_name(op.results[0].type)
    rounding, ftz = rounding_keyword(op), _ftz(op)
    fn = fast.float_sqrt(elem, nan_canonical(op, cc)) if rounding == "nearest_even" and not ftz \
        else None
    if fn is None:
        def fn(a):
            return N.sqrt(a, elem, rounding, ftz)
    return elementwise(op, cc, fn)


@lowering("negf", "absf", fold=True)
def _lower_sign(op, cc):
    elem = element_name(op.results[0].type)
    neg = op.name.endswith("negf")
    fn = fast.sign_op(neg, elem)
    if fn is None:
        impl = N.negf if neg else N.absf

        def fn(a):
            return impl(a, elem)
    return elementwise(op, cc, fn)


@lowering("ceil", "floor", fold=True)
def _lower_round(op, cc):
    elem = element_name(op.results[0].type)
    is_ceil = op.name.endswith("ceil")
    fn = fast.rounding_op(np.ceil if is_ceil else np.floor, elem, nan_canonical(op, cc))
    if fn is None:
        impl = N.ceil if is_ceil else N.floor

        def fn(a):
            return impl(a, elem)
    return elementwise(op, cc, fn)


@lowering("maxf", "minf", fold=True)
def _lower_maxmin(op, cc):
    elem = element_name(op.results[0].type)
    want_max = op.name.endswith("maxf")
    prop = "propagate_nan" in op.attributes
    ftz = _ftz(op)
    fn = None if ftz else fast.float_maxmin(want_max, prop, elem)
    if fn is None:
        impl = N.maxf if want_max else N.minf

        def fn(a, b):
            return impl(a, b, elem, prop, ftz)
    run = elementwise(op, cc, fn)
    if not ftz:
        run.rows_fn = fast.float_maxmin_rows(want_max, prop, elem)
    return run


@lowering("remf", fold=True)
def _lower_remf(op, cc):
    elem = element_name(op.results[0].type)
    return elementwise(op, cc, lambda a, b: N.remf(a, b, elem))


@lowering("cmpf", fold=True)
def _lower_cmpf(op, cc):
    elem = element_name(op.operands[0].type)
    pred = enum_keyword(op.attributes.get("comparison_predicate"))
    order = enum_keyword(op.attributes.get("comparison_ordering"), "ordered")
    fn = fast.float_cmp(pred, order == "ordered", elem)
    if fn is None:
        def fn(a, b):
            return N.cmpf(a, b, elem, pred, order)
    return elementwise(op, cc, fn)


# -- math functions ----------------------------------------------------------------------------

def _math(name):
    impl = getattr(N, name)

    def lower(op, cc):
        elem = element_name(op.results[0].type)
        return elementwise(op, cc, fast.on_compact(lambda a: impl(a, elem)))
    return lower


for _name in ("cos", "cosh", "sin", "sinh", "tan", "log", "log2"):
    lowering(_name, fold=True)(_math(_name))


@lowering("exp", "tanh", fold=True)
def _lower_exp_tanh(op, cc):
    elem = element_name(op.results[0].type)
    impl = N.exp if op.name.endswith("exp") else N.tanh
    rounding = rounding_keyword(op, "full")
    return elementwise(op, cc, fast.on_compact(lambda a: impl(a, elem, rounding)))


@lowering("exp2", "rsqrt", fold=True)
def _lower_exp2_rsqrt(op, cc):
    elem = element_name(op.results[0].type)
    impl = N.exp2 if op.name.endswith("exp2") else N.rsqrt
    ftz = _ftz(op)
    return elementwise(op, cc, fast.on_compact(lambda a: impl(a, elem, ftz)))


def _constant_exponent(op, cc) -> Optional[float]:
    """The exponent of a pow/fpowi when it is a compile-time constant with one value."""
    slot = cc.slot(op.operands[1])
    if not cc.const[slot]:
        return None
    values = np.unique(np.asarray(cc.template[slot], dtype=np.float64))
    return float(values[0]) if values.size == 1 else None


def _square(op, cc, elem: str):
    """``x ** 2`` for f16/bf16/f32: pow evaluates ``x * x`` exactly in f64 and rounds it once,
    which is exactly the nearest-even ``mulf(x, x)``."""
    mul = fast.float_binary("mulf", elem, nan_canonical(op, cc))
    src = cc.slot(op.operands[0])
    out = cc.slot(op.results[0])

    def run(r):
        x = r[src]
        r[out] = mul(x, x)
    return run


@lowering("pow", "fpowf", fold=True)
def _lower_pow(op, cc):
    elem = element_name(op.results[0].type)
    if elem in ("f16", "bf16", "f32") and _constant_exponent(op, cc) == 2.0:
        return _square(op, cc, elem)
    return elementwise(op, cc, lambda a, b: N.pow(a, b, elem))


@lowering("fpowi", fold=True)
def _lower_fpowi(op, cc):
    """13.4 ``fpowi``: ``source ** exponent`` with an integer exponent (read signed), evaluated
    like ``pow`` on the exponent's exact float64 value."""
    elem = element_name(op.results[0].type)
    n_elem = element_name(op.operands[1].type)
    if elem in ("f16", "bf16", "f32") and _constant_exponent(op, cc) is not None:
        slot = cc.slot(op.operands[1])
        if (N.to_signed(np.asarray(cc.template[slot]), n_elem) == 2).all():
            return _square(op, cc, elem)

    def fpowi(a, n):
        e = N.to_signed(n, n_elem).astype(np.float64)
        return N.pow(a, e.astype(N.numpy_dtype(elem)) if elem == "f64" else
                     N.round_to(e, None, elem), elem)
    return elementwise(op, cc, fpowi)


@lowering("atan2", fold=True)
def _lower_atan2(op, cc):
    elem = element_name(op.results[0].type)
    return elementwise(op, cc, lambda a, b: N.atan2(a, b, elem))


# -- matrix multiply-accumulate ----------------------------------------------------------------

def mmaf_exact(lhs: np.ndarray, rhs: np.ndarray, acc: np.ndarray, in_elem: str,
               acc_elem: str, scratch: Optional[dict] = None) -> np.ndarray:
    """``lhs @ rhs + acc`` for (batched) tiles ``(..., M, K) @ (..., K, N) + (..., M, N)``.

    The spec leaves the accumulation order unspecified.  We compute every product exactly (the
    product of two values of at most 24 significant bits is exact in f64; tf32 inputs are
    rounded to tf32 first), sum the K products and ``acc`` in f64, and round the sum once to
    the accumulator type in nearest_even (f64 inputs: NumPy's f64 matmul).  NaN results are
    canonical.  ``scratch`` (a dict owned by the caller) keeps the f64 work arrays between calls.
    """
    if in_elem == "tf32":
        lhs = _TO_TF32(lhs)
        rhs = _TO_TF32(rhs)
    out_shape = np.broadcast_shapes(lhs.shape[:-2], rhs.shape[:-2], acc.shape[:-2]) + \
        (lhs.shape[-2], rhs.shape[-1])
    if scratch is None:
        scratch = {}
    # the f64 copies keep the operands' memory order (a column-major tile is copied
    # sequentially and given to BLAS transposed)
    key = (lhs.shape, _layout(lhs), rhs.shape, _layout(rhs), out_shape)
    bufs = scratch.get(key)
    if bufs is None:
        bufs = (np.empty_like(lhs, dtype=np.float64), np.empty_like(rhs, dtype=np.float64),
                np.empty(out_shape))
        scratch.clear()
        scratch[key] = bufs
    a, b, s = bufs
    # f64 operands are used as they are (a copy would cost as much as the product itself)
    if lhs.dtype == np.float64:
        a = lhs
    else:
        _to_f64(lhs, a)
    if rhs.dtype == np.float64:
        b = rhs
    else:
        _to_f64(rhs, b)
    np.matmul(a, b, out=s)
    if acc_elem == "f32":
        # the f64 sum rounded once to f32 by the output cast of the same ufunc pass
        r = fresh(out_shape, np.dtype(np.float32))
        np.add(s, acc, out=r, dtype=np.float64, casting="same_kind")
        return fast.canon_nan(r)
    np.add(s, acc, out=s)
    return _round_acc(s, acc_elem)


#: tf32 operands rounded (again: a no-op for values an ftof produced, but a bitcast may not
#: have) by the bit-exact nearest-even conversion
_TO_TF32 = fast.f32_to_tf32("nearest_even")


def _layout(x: np.ndarray) -> tuple:
    """The axes of ``x`` from the largest stride to the smallest (its memory order)."""
    return tuple(sorted(range(x.ndim), key=lambda d: -abs(x.strides[d])))


def _to_f64(x: np.ndarray, out: np.ndarray) -> None:
    if x.dtype in (np.float64, np.float32, np.float16):
        np.copyto(out, x)
    else:
        np.copyto(out, x.astype(np.float32))


def _round_acc(s: np.ndarray, acc_elem: str) -> np.ndarray:
    if acc_elem == "f64":
        return fast.canon_nan(s.copy())
    if acc_elem == "f32":
        return fast.canon_nan(s.astype(np.float32))
    return N.round_to(s, None, acc_elem)


def mmaf_fast(lhs: np.ndarray, rhs: np.ndarray, acc: np.ndarray, in_elem: str,
              acc_elem: str, lhs_f32: Optional[Callable] = None,
              rhs_f32: Optional[Callable] = None) -> np.ndarray:
    """``lhs @ rhs + acc`` accumulated in f32 through BLAS (SGEMM), for ``mma="fast"``.

    The inputs (f16, bf16, tf32 rounded to tf32, f8) are exact in f32; the products and
    their sums are rounded in f32 in BLAS's order, then ``acc`` is added in f32, so each
    result is within ``(K + 1) * 2**-24 * (sum_k |lhs[m, k] * rhs[k, n]| + |acc|)`` of the
    exact value (f16 accumulators are then rounded once to f16).  f64 operands use the exact
    mode (which is f64 BLAS already).  NaN results are canonical.  ``lhs_f32``/``rhs_f32``
    convert the operands to f32 in place of :func:`fast_operand` (a
    :class:`_RememberedOperand`)."""
    if acc_elem == "f64" or in_elem == "f64":
        return mmaf_exact(lhs, rhs, acc, in_elem, acc_elem)
    a = lhs_f32(lhs) if lhs_f32 is not None else fast_operand(lhs, in_elem)
    b = rhs_f32(rhs) if rhs_f32 is not None else fast_operand(rhs, in_elem)
    r = np.matmul(a, b)
    r = np.add(r, acc, dtype=np.float32)
    if acc_elem == "f32":
        return fast.canon_nan(r)
    return _round_acc(r.astype(np.float64), acc_elem)


def fast_operand(x: np.ndarray, in_elem: str, out: Optional[np.ndarray] = None) -> np.ndarray:
    """An ``mmaf`` operand as f32 for the fast mode (exact for f16, bf16, tf32 rounded to
    tf32 first, and the f8 types); converted into ``out`` (an f32 array of ``x``'s shape, a
    buffer kept between calls: no fresh pages to fault in) when given, else a new array.
    f32 values are returned as they are."""
    if in_elem == "tf32":
        x = _TO_TF32(x)
    if x.dtype == np.float32:
        return x
    if x.dtype == np.float16:
        dest = out if out is not None else np.empty(x.shape, np.float32)
        if native.f16_to_f32(x, dest):     # (one vectorised C pass: 3-4x the table lookup)
            return dest
        # a table lookup: 1.5-2x astype (NumPy's f16 cast is scalar)
        return np.take(_F16_AS_F32, x.view(np.uint16), out=out, mode="clip")
    if out is not None:
        np.copyto(out, x, casting="unsafe")       # (every source value is exact in f32)
        return out
    return x.astype(np.float32)


class _RememberedOperand:
    """:func:`fast_operand` of one ``mmaf`` operand that remembers the array it converted
    last (per thread, within one launch): a loop-invariant operand (an attention kernel's
    query tile, multiplied in every iteration of its key loop) is converted once, not once
    per iteration.  When the loop's lanes finish at different iterations (a causal attention
    kernel's query blocks), the operand is compacted to the lanes that carry on
    (:func:`~tileir.execute.lanes.take`); the converted array is then compacted alike.

    Within a launch the same array object has the same values: tile values are never written
    in place, holding the array keeps the buffer pool from reusing it
    (:func:`~tileir.execute.buffers.recycle` counts references), and a read-only view of
    argument memory exists only where nothing in the launch writes that memory.  The next
    launch (``Runtime.launch``) starts afresh: the caller may change its arrays in between."""

    def __init__(self, in_elem: str, rt) -> None:
        self.in_elem = in_elem
        self.rt = rt
        self.local = threading.local()

    def __call__(self, x: np.ndarray) -> np.ndarray:
        seen = self.local.__dict__
        launch = self.rt.launch
        if seen.get("launch") is launch:
            source = seen.get("source")
            if source is x:
                return seen["f32"]
            derived = taken_from(x)
            if derived is not None and derived[0] is source:    # (lanes that carry on)
                f32 = seen["f32"][derived[1]]
                seen["source"], seen["f32"] = x, f32
                return f32
        f32 = fast_operand(x, self.in_elem)
        if f32 is not x:
            seen["source"], seen["launch"], seen["f32"] = x, launch, f32
        return f32


#: every f16 bit pattern converted to f32 (exactly, as astype converts it)
_F16_AS_F32 = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16) \
    .astype(np.float32)


@lowering("mmaf", fold=True)
def _lower_mmaf(op, cc):
    in_elem = element_name(op.operands[0].type)
    acc_elem = element_name(op.operands[2].type)
    factored = shared = None
    if getattr(cc, "mma_mode", "exact") == "fast":
        lhs_f32, rhs_f32 = (_RememberedOperand(in_elem, cc.rt) for _ in range(2))

        def mma(a, b, c):
            return mmaf_fast(a, b, c, in_elem, acc_elem, lhs_f32, rhs_f32)
        if acc_elem == "f32" and in_elem != "f64":
            factored = padded_mma.lane_factored(in_elem)
            shared = padded_mma.shared_tiles_product(
                in_elem, lambda side, x: (lhs_f32, rhs_f32)[side](x))
    else:
        scratch = threading.local()     # each thread of a multi-threaded launch has its own

        def mma(a, b, c):
            return mmaf_exact(a, b, c, in_elem, acc_elem, scratch.__dict__)
    # operands loaded with zero padding: only their in-bounds parts are multiplied
    return padded_mma.fuse(op, cc, mma, factored, shared) or elementwise(op, cc, mma)


def mmaf_scaled_exact(lhs, rhs, acc, lhs_scale, rhs_scale, in_elem: str,
                      scale_elem: str) -> np.ndarray:
    """Block-scaled MMA: ``sum_k lhs[m,k]*ls[m,k//B] * rhs[k,n]*rs[k//B,n] + acc[m,n]`` with
    ``B = K // K_s`` (K_s the scale tile's K extent), computed exactly in f64 (every operand has
    at most 4 significant bits and the scales are powers of two or e4m3 values) and rounded
    once to f32."""
    a = lhs.astype(np.float32).astype(np.float64)
    b = rhs.astype(np.float32).astype(np.float64)
    sa = lhs_scale.astype(np.float32).astype(np.float64)
    sb = rhs_scale.astype(np.float32).astype(np.float64)
    k = a.shape[-1]
    ka = sa.shape[-1]
    kb = sb.shape[-2]
    a = a * np.repeat(sa, k // ka, axis=-1)
    b = b * np.repeat(sb, k // kb, axis=-2)
    return _round_acc(np.matmul(a, b) + acc.astype(np.float64), "f32")


@lowering("mmaf_scaled", fold=True)
def _lower_mmaf_scaled(op, cc):
    in_elem = element_name(op.operands[0].type)
    scale_elem = element_name(op.operands[3].type)
    return elementwise(op, cc, lambda a, b, c, sa, sb:
                       mmaf_scaled_exact(a, b, c, sa, sb, in_elem, scale_elem))

