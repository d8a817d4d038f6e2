"""arith: constants, integer and float arithmetic, comparisons, casts (IEEE per type).

Integer ops wrap modulo 2**N and report undefined behaviour (:mod:`.intsem`); float ops are the
type's IEEE operation rounded once to nearest even: f32/f64 natively, f16 and bf16 through f32
(exact for + - * / and sqrt: f32 has more than twice their precision plus two bits, so the double
rounding is innocuous), ``fma`` through the exact :func:`~tileir.execute.numerics.floatops.fma`.
NaN payloads are what NumPy produces (MLIR leaves them unspecified).

Integer ops on :class:`~..lanes.Aff` operands stay affine while the result provably does not wrap
(``bid * bdim + tid``), so memory accesses built from them become strided views.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from ....ir.core import Operation
from ...errors import UnsupportedError
from ...numerics import convert
from ..faults import ub
from .. import lane_compare
from ..interp import affine
from ..lane_compare import LaneCompare
from ..lanes import Aff, BoxSpace, ROOT_NDIM
from ..registry import lowering
from ..values import Deferred, element_name, narrow_bits, numerics_name, storage, vector_shape
from .intsem import COMPARISONS, Int, NarrowInt

_ZERO = (0,) * ROOT_NDIM
_ROUNDING = {0: "nearest_even", 1: "negative_inf", 2: "positive_inf", 3: "zero",
             4: "nearest_away"}
_CMPI = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def int_of(t) -> Int:
    """The integer semantics of a scalar/vector integer or index type."""
    name = element_name(t)
    return Int(64 if name == "index" else int(name[1:]), name)


def _arr(space, x) -> np.ndarray:
    return space.array(x) if type(x) is Aff else x


# -- constants ------------------------------------------------------------------------------------

@lowering("arith.constant")
def _constant(op: Operation, c):
    t = op.results[0].type
    attr = op.attributes["value"]
    dtype = storage(t)
    vshape = vector_shape(t)
    narrow = narrow_bits(element_name(t))
    if hasattr(attr, "array"):
        value = np.asarray(attr.array() if callable(attr.array) else attr.array)
        if narrow is not None:     # i4 etc.: literals may be written unsigned (15 is -1)
            value = Int(narrow, "").wrap(value.astype(np.int64))
        if value.dtype != dtype:
            value = value.astype(dtype)
        value = value.reshape(vshape)
    elif element_name(t) == "i1":
        value = np.asarray(bool(attr.value))
    elif narrow is not None:
        value = Int(narrow, "").wrap(np.asarray(int(attr.value), dtype=np.int64))
    elif np.dtype(dtype).kind in "iu":
        bits = np.dtype(dtype).itemsize * 8
        value = np.asarray(int(attr.value) & ((1 << bits) - 1)).astype(np.uint64) \
            .astype(dtype) if bits == 64 else np.asarray(int(attr.value)).astype(np.int64) \
            .astype(dtype)
    else:
        value = np.asarray(attr.value).astype(dtype)
    integer = value.dtype.kind in "iu" and not vshape

    def step(ex, frame, args):
        space = frame.space
        if integer and isinstance(space, BoxSpace):
            return [Aff(int(value), _ZERO, dtype)]
        return [space.uniform(value, dtype, vshape)]
    return affine(step)


# -- integers -------------------------------------------------------------------------------------

def _const_of(x: Any) -> Any:
    if type(x) is Aff:
        return x.const if x.is_constant else None
    arr = np.asarray(x)
    return int(arr.reshape(-1)[0]) if arr.size == 1 else None


def _as_aff(x: Any) -> Any:
    if type(x) is Aff:
        return x
    k = _const_of(x)
    return None if k is None else Aff(k, _ZERO, np.int64)


def aff_add(a, b):
    a, b = _as_aff(a), _as_aff(b)
    return None if a is None or b is None else a.plus(b)


def aff_sub(a, b):
    a, b = _as_aff(a), _as_aff(b)
    return None if a is None or b is None else a.plus(b.times(-1))


def aff_mul(a, b):
    ka, kb = _const_of(a), _const_of(b)
    if kb is not None and type(a) is Aff:
        return a.times(kb)
    if ka is not None and type(b) is Aff:
        return b.times(ka)
    if ka is not None and kb is not None:
        return Aff(ka * kb, _ZERO, np.int64)
    return None


def _const_fold(pyfn: Callable[[int, int], Optional[int]]) -> Callable:
    """An ``affine_fn`` for ops that are not affine but fold on constants: ``pyfn(a, b)`` on
    the operands' values (None where it declines: division by zero, overflow, values whose
    unsigned reading differs); the caller checks that the result fits the type."""
    def fold(a, b):
        ka, kb = _const_of(a), _const_of(b)
        if ka is None or kb is None:
            return None
        r = pyfn(ka, kb)
        return None if r is None else Aff(r, _ZERO, np.int64)
    return fold


def _div_trunc(a: int, b: int) -> Optional[int]:
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _rem_trunc(a: int, b: int) -> Optional[int]:
    q = _div_trunc(a, b)
    return None if q is None else a - q * b


def _unsigned(fn: Callable[[int, int], Optional[int]]) -> Callable:
    """``fn`` on non-negative operands only (a negative value reads as a large unsigned one:
    the general path handles it)."""
    return lambda a, b: fn(a, b) if a >= 0 and b >= 0 else None


def int_binary(names: tuple, make: Callable[[Int, Operation], Callable], affine_fn=None):
    """Register an integer binary op: ``make(int_sem, op)`` returns ``fn(a, b) -> array``."""
    @lowering(*names)
    def lower(op: Operation, c):
        sem = int_of(op.results[0].type)
        fn = make(sem, op)
        dtype = sem.dtype
        # an affine result is kept only where it fits the storage dtype: i4 etc. wrap earlier
        exact = affine_fn if not isinstance(sem, NarrowInt) else None
        vector = bool(vector_shape(op.results[0].type))

        def step(ex, frame, args):
            a, b = args
            space = frame.space
            if exact is not None and not vector and (type(a) is Aff or type(b) is Aff) \
                    and isinstance(space, BoxSpace):
                r = exact(a, b)
                if r is not None:
                    r = r.cast(dtype)
                    if r.fits(space):
                        return [r]
            return [fn(_arr(space, a), _arr(space, b))]
        return affine(step)
    return lower


int_binary(("arith.addi",), lambda s, op: s.add, aff_add)
int_binary(("arith.subi",), lambda s, op: s.sub, aff_sub)
int_binary(("arith.muli",), lambda s, op: s.mul, aff_mul)
int_binary(("arith.divsi",), lambda s, op: s.divs, _const_fold(_div_trunc))
int_binary(("arith.divui",), lambda s, op: s.divu, _const_fold(_unsigned(_div_trunc)))
int_binary(("arith.ceildivsi",), lambda s, op: (lambda a, b: s.divs(a, b, "ceil")))
int_binary(("arith.floordivsi",), lambda s, op: (lambda a, b: s.divs(a, b, "floor")))
int_binary(("arith.ceildivui",), lambda s, op: (lambda a, b: s.divu(a, b, True)))
int_binary(("arith.remsi",), lambda s, op: s.rems, _const_fold(_rem_trunc))
int_binary(("arith.remui",), lambda s, op: s.remu, _const_fold(_unsigned(_rem_trunc)))
int_binary(("arith.shli",), lambda s, op: s.shl)
int_binary(("arith.shrsi",), lambda s, op: s.shrs)
int_binary(("arith.shrui",), lambda s, op: s.shru)
int_binary(("arith.maxsi",), lambda s, op: (lambda a, b: s.max(a, b, True)))
int_binary(("arith.maxui",), lambda s, op: (lambda a, b: s.max(a, b, False)))
int_binary(("arith.minsi",), lambda s, op: (lambda a, b: s.min(a, b, True)))
int_binary(("arith.minui",), lambda s, op: (lambda a, b: s.min(a, b, False)))
int_binary(("arith.andi",), lambda s, op: s.andi)
int_binary(("arith.ori",), lambda s, op: s.ori)
int_binary(("arith.xori",), lambda s, op: s.xori)


@lowering("arith.addui_extended")
def _addui_extended(op: Operation, c):
    sem = int_of(op.results[0].type)

    def step(ex, frame, args):
        return list(sem.add_extended(*args))
    return step


@lowering("arith.mulsi_extended", "arith.mului_extended")
def _mul_extended(op: Operation, c):
    sem = int_of(op.results[0].type)
    signed = op.name.endswith("mulsi_extended")

    def step(ex, frame, args):
        return list(sem.mul_extended(args[0], args[1], signed))
    return step


def decide_compare(pred: str, a, b, space) -> Any:
    """A signed comparison's outcome when it is the same for every lane of a box space (from
    the operands' ranges), else None."""
    def rng(x):
        if type(x) is Aff:
            return x.value_range(space)
        k = _const_of(x)
        return None if k is None else (k, k)
    ra, rb = rng(a), rng(b)
    if ra is None or rb is None:
        return None
    (alo, ahi), (blo, bhi) = ra, rb
    if pred[0] == "u":
        if alo < 0 or blo < 0:
            return None
        pred = "s" + pred[1:]
    if pred == "eq":
        return False if ahi < blo or alo > bhi else (True if alo == ahi == blo == bhi else None)
    if pred == "ne":
        d = decide_compare("eq", a, b, space)
        return None if d is None else not d
    if pred == "slt":
        return True if ahi < blo else False if alo >= bhi else None
    if pred == "sle":
        return True if ahi <= blo else False if alo > bhi else None
    if pred == "sgt":
        return True if alo > bhi else False if ahi <= blo else None
    return True if alo >= bhi else False if ahi < blo else None


@lowering("arith.cmpi", "index.cmp")
def _cmpi(op: Operation, c):
    # (index.cmp names its predicate `pred`; both enums list the predicates in this order)
    pred = _CMPI[int(op.attributes["predicate" if op.name == "arith.cmpi" else "pred"].value)]
    sem = int_of(op.operands[0].type)

    def general(a, b, space):
        if isinstance(space, BoxSpace) and (type(a) is Aff or type(b) is Aff):
            decided = decide_compare(pred, a, b, space)
            if decided is not None:
                return space.uniform(decided, np.bool_)
            quick = _compare_aff(pred, a, b, space)
            if quick is not None:
                return quick
        return sem.compare(pred, _arr(space, a), _arr(space, b))

    if _feeds_if(op) and not isinstance(sem, NarrowInt):
        def deferred(ex, frame, args):
            a, b = args
            if lane_compare.ENABLED and (type(a) is Aff or type(b) is Aff):
                return [LaneCompare(pred, a, b, general)]
            return [general(a, b, frame.space)]
        return affine(deferred)

    def step(ex, frame, args):
        return [general(args[0], args[1], frame.space)]
    return affine(step)


def _feeds_if(op: Operation) -> bool:
    """Whether the comparison's (scalar) result is only the condition of the ``scf.if`` right
    after it (which then takes a :class:`~..lane_compare.LaneCompare`)."""
    use = op.sole_use_by_next()
    return use is not None and use[0].name == "scf.if" and use[1] == 0 and \
        not vector_shape(op.results[0].type)


def _compare_aff(pred: str, a, b, space: BoxSpace) -> Optional[np.ndarray]:
    """An affine value compared with a constant (``tid < n``): the comparison of the
    materialised value with the constant, where both are non-negative (then the signed and
    unsigned readings agree); None otherwise."""
    if type(a) is not Aff:
        k, aff = _const_of(a), b
        flip = True
    else:
        k, aff = _const_of(b), a
        flip = False
    if k is None or type(aff) is not Aff or k < 0 or aff.value_range(space)[0] < 0:
        return None
    x = aff.materialize(space)
    fn = COMPARISONS[pred if len(pred) == 2 else pred[1:]]
    return fn(k, x) if flip else fn(x, k)


# -- floats ---------------------------------------------------------------------------------------

def _native(elem: str) -> bool:
    return elem in ("f16", "bf16", "f32", "f64")


def _float_binary(name: str, fn: Callable):
    @lowering(name)
    def lower(op: Operation, c):
        elem = numerics_name(op.results[0].type)
        dtype = storage(op.results[0].type)
        if not _native(elem):
            raise UnsupportedError(f"'{name}' on {elem} (no IEEE arithmetic on that type)",
                                   op=name)

        if _stored_next(op) and isinstance(fn, np.ufunc):   # (the store passes ``out=``)
            def deferred(ex, frame, args):
                return [Deferred(_quiet(fn), args, dtype)]
            return deferred

        def step(ex, frame, args):
            with np.errstate(all="ignore"):
                return [fn(args[0], args[1]).astype(dtype, copy=False)]
        if isinstance(fn, np.ufunc):
            # what the step computes, for callers that run it many times over (batched
            # loops, :mod:`..batching`): ``fn(a, b)`` (errors ignored) stored as ``dtype``
            step.elementwise = (fn, dtype)
        return step
    return lower


def _quiet(fn: Callable) -> Callable:
    def run(*args, **kw):
        with np.errstate(all="ignore"):
            return fn(*args, **kw)
    return run


def _stored_next(op: Operation) -> bool:
    """Whether the only use of ``op``'s (scalar) result is as the value of the
    ``memref.store`` right after it (which then computes it into memory)."""
    use = op.sole_use_by_next()
    return use is not None and use[0].name == "memref.store" and use[1] == 0 and \
        not vector_shape(op.results[0].type)


_float_binary("arith.addf", np.add)
_float_binary("arith.subf", np.subtract)
_float_binary("arith.mulf", np.multiply)
_float_binary("arith.divf", np.divide)
_float_binary("arith.remf", np.fmod)


def _signed_zero_extremum(pick_max: bool, nan_propagates: bool) -> Callable:
    """IEEE 754-2019 maximum/minimum (NaN-propagating) or maximumNumber/minimumNumber
    (NaN-ignoring), with -0 < +0."""
    base = (np.maximum if pick_max else np.minimum) if nan_propagates else \
        (np.fmax if pick_max else np.fmin)

    def fn(a, b):
        r = base(a, b)
        zeros = (a == 0) & (b == 0)
        if np.any(zeros):
            neg = np.signbit(a) & np.signbit(b) if pick_max else np.signbit(a) | np.signbit(b)
            signed = np.where(neg, -np.zeros((), r.dtype), np.zeros((), r.dtype))
            r = np.where(zeros, signed, r).astype(r.dtype, copy=False)
        return r
    return fn


_float_binary("arith.maximumf", _signed_zero_extremum(True, True))
_float_binary("arith.minimumf", _signed_zero_extremum(False, True))
_float_binary("arith.maxnumf", _signed_zero_extremum(True, False))
_float_binary("arith.minnumf", _signed_zero_extremum(False, False))


@lowering("arith.negf")
def _negf(op: Operation, c):
    def step(ex, frame, args):
        return [np.negative(args[0])]
    return step


_CMPF: dict[int, Callable] = {
    0: lambda a, b: np.zeros(np.broadcast(a, b).shape, bool),
    1: np.equal, 2: np.greater, 3: np.greater_equal, 4: np.less, 5: np.less_equal,
    6: lambda a, b: np.less(a, b) | np.greater(a, b),
    7: lambda a, b: ~(np.isnan(a) | np.isnan(b)),
    8: lambda a, b: ~(np.less(a, b) | np.greater(a, b)),
    9: lambda a, b: ~np.less_equal(a, b), 10: lambda a, b: ~np.less(a, b),
    11: lambda a, b: ~np.greater_equal(a, b), 12: lambda a, b: ~np.greater(a, b),
    13: np.not_equal,
    14: lambda a, b: np.isnan(a) | np.isnan(b),
    15: lambda a, b: np.ones(np.broadcast(a, b).shape, bool),
}


@lowering("arith.cmpf")
def _cmpf(op: Operation, c):
    fn = _CMPF[int(op.attributes["predicate"].value)]

    def step(ex, frame, args):
        with np.errstate(invalid="ignore"):
            return [fn(args[0], args[1])]
    return step


# -- select ---------------------------------------------------------------------------------------

@lowering("arith.select")
def _select(op: Operation, c):
    cond_vector = bool(vector_shape(op.operands[0].type))
    vrank = len(vector_shape(op.results[0].type))

    def step(ex, frame, args):
        cond, a, b = args
        space = frame.space
        if not isinstance(a, (np.ndarray, Aff)):   # memrefs and other non-array values
            arr = np.asarray(_arr(space, cond))
            if arr.all():
                return [a]
            if not arr.any():
                return [b]
            from ..interp import merge
            t, f = space.restrict(arr), space.restrict(~arr)
            return [merge(space, [(t, t.enter(a)), (f, f.enter(b))], op.results[0].type)]
        cond = _arr(space, cond)
        if not cond_vector and vrank:
            cond = cond.reshape(cond.shape + (1,) * vrank)
        return [np.where(cond, _arr(space, a), _arr(space, b))]
    return affine(step)


# -- casts ----------------------------------------------------------------------------------------

@lowering("arith.extsi", "arith.extui", "arith.trunci")
def _int_resize(op: Operation, c):
    src = int_of(op.operands[0].type)
    dst = int_of(op.results[0].type)
    kind = op.name.split(".")[1]

    def step(ex, frame, args):
        x = args[0]
        space = frame.space
        if type(x) is Aff and kind != "trunci":
            if kind == "extsi" or x.value_range(space)[0] >= 0:
                return [x.cast(dst.dtype)]
        x = _arr(space, x)
        if kind == "extsi":
            return [src.s(x).astype(dst.dtype)]
        if kind == "extui":
            return [src.u(x).astype(dst.udtype).view(dst.dtype) if dst.bits > 1
                    else src.u(x).astype(bool)]
        return [dst.wrap(src.s(x).astype(np.int64) if dst.bits == 1 else src.s(x))]
    return affine(step)


@lowering("arith.index_cast", "arith.index_castui", "index.casts", "index.castu")
def _index_cast(op: Operation, c):
    """Casts between index and integers (sign- or zero-extending, wrapping when narrowing)."""
    src = int_of(op.operands[0].type)
    dst = int_of(op.results[0].type)
    unsigned = op.name.endswith(("castui", "castu"))
    narrow = isinstance(dst, NarrowInt)

    def step(ex, frame, args):
        x = args[0]
        space = frame.space
        if type(x) is Aff:
            r = x.cast(dst.dtype)
            if not narrow and isinstance(space, BoxSpace) and r.fits(space) and \
                    x.fits(space) and (not unsigned or x.value_range(space)[0] >= 0):
                return [r]
            x = space.array(x)
        if dst.bits >= src.bits:
            v = src.u(x).astype(np.uint64) if unsigned else src.s(x).astype(np.int64)
            return [dst.wrap(v.astype(np.uint64).view(np.int64) if unsigned else v)]
        return [dst.wrap(src.s(x).astype(np.int64))]
    return affine(step)


@lowering("arith.extf", "arith.truncf")
def _float_resize(op: Operation, c):
    src = numerics_name(op.operands[0].type)
    dst = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)
    rm = op.attributes.get("roundingmode")
    rounding = _ROUNDING[int(rm.value)] if rm is not None else "nearest_even"
    native = rounding == "nearest_even" and _native(src) and _native(dst) and \
        not (src == "f64" and dst in ("f16", "bf16"))   # f64 -> f32 -> f16 would round twice

    def step(ex, frame, args):
        x = args[0]
        if op.name == "arith.extf" or native:
            with np.errstate(all="ignore"):
                return [np.asarray(x).astype(dtype)]
        return [np.asarray(convert.ftof(x, src, dst, rounding)).astype(dtype, copy=False)]
    return step


@lowering("arith.sitofp", "arith.uitofp")
def _itof(op: Operation, c):
    src = int_of(op.operands[0].type)
    dst = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)
    signed = op.name.endswith("sitofp")
    native = dst in ("f32", "f64") and (src.bits < 64 or dst == "f64")

    def step(ex, frame, args):
        x = np.asarray(args[0])
        v = src.s(x) if signed else src.u(x)
        if native and (src.bits <= 32 or signed or dst == "f64"):
            return [v.astype(dtype)]
        name = "i64" if src.bits == 64 else f"i{src.bits}"
        return [np.asarray(convert.itof(src.s(x) if src.bits > 1 else v.astype(np.int8), name,
                                        dst, signed)).astype(dtype, copy=False)]
    return step


@lowering("arith.fptosi", "arith.fptoui")
def _ftoi(op: Operation, c):
    dst = int_of(op.results[0].type)
    signed = op.name.endswith("fptosi")

    def step(ex, frame, args):
        x = np.asarray(args[0]).astype(np.float64)
        t = np.trunc(x)
        # the range as powers of two, exact in float64 (``2**63 - 1`` is not: it rounds up to
        # ``2**63``, which would let 2**63 through)
        lo = -2.0 ** (dst.bits - 1) if signed else 0.0
        end = 2.0 ** (dst.bits - 1) if signed else 2.0 ** dst.bits
        bad = ~((t >= lo) & (t < end))
        if np.any(bad):
            raise ub("float to integer conversion of NaN, Inf or a value out of the target's "
                     "range (poison)", bad)
        if dst.bits == 64 and not signed:
            big = t >= 2.0 ** 63
            v = np.where(big, t - 2.0 ** 63, t).astype(np.int64).astype(np.uint64)
            v = v + np.where(big, np.uint64(1 << 63), np.uint64(0))
            return [v.view(np.int64)]
        return [dst.wrap(t.astype(np.int64))]
    return step


@lowering("arith.bitcast")
def _bitcast(op: Operation, c):
    dtype = storage(op.results[0].type)

    def step(ex, frame, args):
        x = np.asarray(frame.space.array(args[0]) if type(args[0]) is Aff else args[0])
        if x.dtype == np.bool_ or dtype == np.bool_:
            return [x.astype(dtype)]
        return [np.ascontiguousarray(x).view(dtype)]
    return affine(step)


@lowering("arith.scaling_extf", "arith.scaling_truncf")
def _scaling(op: Operation, c):
    """``scaling_extf(x, s) = extf(x) * extf(s)``; ``scaling_truncf(x, s) = truncf(x / s)``
    (``s`` an f8E8M0FNU power of two)."""
    dst = numerics_name(op.results[0].type)
    dtype = storage(op.results[0].type)
    rm = op.attributes.get("roundingmode")
    rounding = _ROUNDING[int(rm.value)] if rm is not None else "nearest_even"

    def step(ex, frame, args):
        x = np.asarray(args[0]).astype(np.float64)
        s = np.asarray(args[1]).astype(np.float64)
        with np.errstate(all="ignore"):
            if op.name.endswith("extf"):
                return [np.asarray(convert.ftof(x * s, "f64", dst)).astype(dtype)]
            return [np.asarray(convert.ftof(x / s, "f64", dst, rounding)).astype(dtype)]
    return step

