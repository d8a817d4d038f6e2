"""Shared pieces of the op verifiers (cuda-tile's ``SharedVerifiers.h`` and friends).

Every function returns None when the op is valid, else the error message (reported by the
verifier as ``'<op>' op <message>``) or a Diagnostic; wording follows cuda-tile exactly.
"""

from __future__ import annotations

from typing import Callable, Iterable, Optional

from .attributes import (IEEE_ROUNDING_MODES, AtomicRMWMode, DictionaryAttr, IntegerAttr,
                         MemoryOrderingSemantics, OptimizationHintsAttr, RoundingMode)
from ...ir.diagnostics import ERROR, WARNING, Diagnostic
from ...ir.locations import CallSiteLoc, FileLineColLoc, FusedLoc, NameLoc
from .attributes import DILoc
from ...ir.verify import _CURRENT
from .types import (BF16, F16, F32, F64, I1, I32, I64, TF32, FloatType, IntegerType, TensorViewType,
                    TileType, TileViewType, Type)

RM = RoundingMode
IEEE_MODES = frozenset(IEEE_ROUNDING_MODES)


def type_list(types: Iterable[Type]) -> str:
    """MLIR's rendering of a type range in a diagnostic: ``'a', 'b'``."""
    return ", ".join(f"'{t}'" for t in types)


def dims(shape) -> str:
    """MLIR's rendering of an ``ArrayRef<int64_t>``: ``4, 16``."""
    return ", ".join(str(d) for d in shape)


def bitwidth(t: Type) -> int:
    """MLIR's ``getIntOrFloatBitWidth``: tf32's APFloat semantics are 19 bits wide."""
    return 19 if t is TF32 else t.width


def element_of(t: Type) -> Type:
    return t.element if isinstance(t, TileType) else t


# -- floating-point modifiers ----------------------------------------------------------------

def invalid_rounding_message(*extra: RoundingMode) -> str:
    """cuda-tile's message for a rounding mode outside the IEEE modes (and ``extra``)."""
    modes = ", ".join(m.keyword for m in (*IEEE_ROUNDING_MODES, *extra))
    return f"invalid rounding mode specified, expect one of [{modes}]"


def verify_ieee_rounding(op) -> Optional[str]:
    if op.attributes.get("rounding_mode") not in IEEE_MODES:
        return invalid_rounding_message()
    return None


def verify_ftz(op, result_type: Type) -> Optional[str]:
    ty = element_of(result_type)
    if "flush_to_zero" in op.attributes and ty is not F32:
        return f"flush_to_zero modifier only supported for f32 data type, but got: '{ty}'"
    return None


def verify_approx(approx: bool, result_type: Type) -> Optional[str]:
    ty = element_of(result_type)
    if approx and ty is not F32:
        return f"approx modifier only supported for f32 data type, but got: '{ty}'"
    return None


def verify_div_sqrt_modifiers(op, result_type: Type, has_rounding: bool, approx: bool,
                              full: bool) -> Optional[str]:
    if approx and full:
        return "approx modifier and full modifier are mutually exclusive"
    msg = verify_ftz(op, result_type) or verify_approx(approx, result_type)
    if msg:
        return msg
    ty = element_of(result_type)
    if full and ty is not F32:
        return f"full modifier only supported for f32 data type, but got: '{ty}'"
    if has_rounding:
        if approx:
            return "rounding mode does not allow approx modifier"
        if full:
            return "rounding mode does not allow full modifier"
    return None


# -- memory model -----------------------------------------------------------------------------

_MOS = MemoryOrderingSemantics


def _verify_memory_model(op, synchronizing: MemoryOrderingSemantics,
                         access: str) -> Optional[str]:
    """A load (``synchronizing`` = acquire) or store (release) is weak, relaxed or
    ``synchronizing``; weak accesses have no memory scope, the others need one."""
    order = op.attributes.get("memory_ordering_semantics")
    scope = op.attributes.get("memory_scope")
    if order not in (_MOS.WEAK, _MOS.RELAXED, synchronizing):
        return (f"expect one of: weak, relaxed, or {synchronizing.keyword}, but got: "
                f"{_kw(order)}")
    if order is _MOS.WEAK:
        if scope is not None:
            return f"weak {access} must not have memory scope"
    elif scope is None:
        return f"memory scope is required for {order.keyword} {access}"
    return None


def verify_memory_model_load(op) -> Optional[str]:
    """cuda-tile's memory model rules for a load."""
    return _verify_memory_model(op, _MOS.ACQUIRE, "load")


def verify_memory_model_store(op) -> Optional[str]:
    """cuda-tile's memory model rules for a store."""
    return _verify_memory_model(op, _MOS.RELEASE, "store")


def then_verify(first, second_fn: Callable[[], object]):
    """Combine two checks: run ``second_fn`` unless ``first`` failed (a message or an error
    diagnostic); warnings of ``first`` are kept in front of what ``second_fn`` returns."""
    if first is None:
        return second_fn()
    if isinstance(first, str) or any(getattr(d, "severity", "error") == "error" for d in first):
        return first
    second = second_fn()
    return first if second is None else [*first, second]


def _kw(value) -> str:
    return getattr(value, "keyword", str(value))


def verify_atomic_ordering(op) -> Optional[str]:
    order = op.attributes.get("memory_ordering_semantics")
    if order not in (_MOS.RELAXED, _MOS.ACQUIRE, _MOS.RELEASE, _MOS.ACQ_REL):
        return "memory ordering semantics must be one of: relaxed, acquire, release, acq_rel"
    return None


def verify_atomic_rmw_mode(mode, element: Type) -> Optional[str]:
    M = AtomicRMWMode
    if mode in (M.AND, M.OR, M.XOR, M.ADD, M.MAX, M.MIN, M.UMAX, M.UMIN):
        if element not in (I32, I64):
            return f"'{mode.keyword}' works only with integers i32 and i64"
    elif mode is M.ADDF:
        if element not in (F16, BF16, F32, F64):
            return f"'{mode.keyword}' works only with floats f16, bf16, f32, and f64"
    elif mode is M.XCHG:
        if not isinstance(element, (IntegerType, FloatType)) or bitwidth(element) not in (32, 64):
            return f"'{mode.keyword}' works only with integers or float of 32 or 64 bitwidth"
    return None


# -- loops ------------------------------------------------------------------------------------

def verify_loop_iter_values(op, inits, iter_args, results) -> Optional[str]:
    if len(iter_args) != len(inits):
        return (f"mismatch in number of region iterator values and loop iterator inits: "
                f"{len(iter_args)} vs {len(inits)}")
    for i, (init, arg) in enumerate(zip(inits, iter_args)):
        if isinstance(arg.type, TensorViewType):
            return f"loop-carried value {i} is a tensor_view, which is not supported"
        if isinstance(arg.type, TileViewType):
            return f"loop-carried value {i} is a tile view, which is not supported"
        if init.type != arg.type:
            return (f"init value {i} and region iter_value {i} have different type: "
                    f"'{init.type}' != '{arg.type}'")
    return verify_no_view_results(results)


def verify_no_view_results(results) -> Optional[str]:
    for i, r in enumerate(results):
        t = getattr(r, "type", r)
        if isinstance(t, TensorViewType):
            return f"result type {i} is a tensor_view, which is not supported"
        if isinstance(t, TileViewType):
            return f"result type {i} is a tile view, which is not supported"
    return None


# -- optimization hints -----------------------------------------------------------------------

KNOWN_ARCHS = ("sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103",
               "sm_110", "sm_120", "sm_121", "default")
_SINGLE_CTA_ARCHS = ("sm_80", "sm_86", "sm_87", "sm_88", "sm_89")
ENTRY_HINTS = ("num_cta_in_cga", "num_worker_warps_per_cta", "occupancy")
VIEW_HINTS = ("latency", "allow_tma")
PTR_HINTS = ("latency",)


#: hints whose value is an integer in ``[1, top]``
_RANGED_HINTS = {"latency": 10, "occupancy": 32}


def _int_value(attr) -> Optional[int]:
    if isinstance(attr, IntegerAttr):
        return int(attr.value)
    return None


def _wrap32(v: int) -> int:
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v & 0x80000000 else v


def hint_param_error(arch: str, key: str, value) -> Optional[str]:
    """cuda-tile's validator message for one hint, or None if the value is acceptable."""
    ctx = f"{arch}.{key}"
    if key == "num_cta_in_cga":
        v = _int_value(value)
        if v is None:
            return f"integer value expected for {ctx}"
        v &= 0xFFFFFFFFFFFFFFFF  # uint64_t
        if any(arch.startswith(a) for a in _SINGLE_CTA_ARCHS) and v != 1:
            return f"expected 1 for {ctx}"
        if v == 0 or v > 16 or v & (v - 1):
            return f"expected power-of-two ≤ 16 for {ctx}"
        return None
    if key == "num_worker_warps_per_cta":
        v = _int_value(value)
        if v is None:
            return f"integer value expected for {ctx}"
        v = _wrap32(v)
        if v == 0 or v > 32 or _wrap32(v & _wrap32(v - 1)) != 0:
            return f"expected power-of-two ≤ 32 for {ctx}"
        return None
    if key == "allow_tma":
        if not (isinstance(value, IntegerAttr) and value.type is I1):
            return f"boolean value expected for {ctx}"
        return None
    top = _RANGED_HINTS.get(key)
    if top is not None:
        v = _int_value(value)
        if v is None:
            return f"integer value expected for {ctx}"
        if v < 1 or v > top:
            return f"integer value in the range [1, {top}] is expected for {ctx}"
        return None
    return f"unknown param {key} for {arch}"


def verify_optimization_hints(op, valid_keys: tuple):
    """``verifyOptHintsCommon``: entries must be dictionaries; with ``-Wunsupported-hints``
    unknown architectures, keys and bad values are warned about (and fail the op under
    ``-Werr-hints``, adding "Optimization hints verification failed")."""
    hints = op.attributes.get("optimization_hints")
    if not isinstance(hints, OptimizationHintsAttr) or not hints.entries:
        return None
    mode = _CURRENT[-1].hints
    out: list = []
    failed = False
    for arch, inner in sorted(hints.entries, key=lambda kv: kv[0]):
        if not isinstance(inner, DictionaryAttr):
            out.append(Diagnostic(ERROR, f"'{op.name}' op expected dictionary attribute for "
                                  f"optimization_hints entry `{arch}` got value={inner}", op.loc))
            out.append(Diagnostic(ERROR, f"'{op.name}' op Optimization hints verification "
                                  "failed", op.loc))
            return out
        if mode == "silent":
            continue
        bad = False
        if arch not in KNOWN_ARCHS:
            out.append(Diagnostic(WARNING, f"unknown hint key {arch}", op.loc))
            bad = True
        else:
            for key, value in inner.entries:
                if valid_keys and key not in valid_keys:
                    out.append(Diagnostic(WARNING, f"{key} is not known hint for current "
                                          "Operation", op.loc))
                    bad = True
                    continue
                msg = hint_param_error(arch, key, value)
                if msg:
                    out.append(Diagnostic(WARNING, msg, op.loc))
                    bad = True
        if bad and mode == "error":
            failed = True
            break
    if failed:
        out.append(Diagnostic(ERROR, f"'{op.name}' op Optimization hints verification failed",
                              op.loc))
    return out or None


# -- debug info (cuda-tile's DebugInfoVerifier) ---------------------------------------------------

def _di_loc(loc):
    if loc.__class__ is FileLineColLoc:
        return None
    while loc is not None:
        if isinstance(loc, DILoc):
            return loc
        if isinstance(loc, CallSiteLoc):
            loc = loc.caller
        elif isinstance(loc, NameLoc):
            loc = loc.child
        elif isinstance(loc, FusedLoc):
            for sub in loc.locations:
                found = _di_loc(sub)
                if found is not None:
                    return found
            return None
        else:
            return None
    return None


def _subprogram(scope):
    from .attributes import DILexicalBlockAttr, DISubprogramAttr
    while scope is not None:
        if isinstance(scope, DISubprogramAttr):
            return scope
        if isinstance(scope, DILexicalBlockAttr):
            scope = scope.scope
        else:
            return None
    return None


def verify_function_debug_info(op):
    """Rules 1, 2 and 6: a function's own location."""
    from .attributes import DISubprogramAttr
    from ...ir.locations import CallSiteLoc
    loc = op.loc
    if isinstance(loc, CallSiteLoc):
        return (f"invalid function debug info location: {loc.generic()}. Function location must "
                "not be a CallSiteLoc.")
    di = _di_loc(loc)
    if di is None:
        return None
    scope = di.scope
    if not isinstance(scope, DISubprogramAttr):
        return (f"invalid function debug info scope: {scope.generic()}. Function location must "
                "have cuda_tile.di_subprogram debug info scope.")
    name = getattr(op.attributes.get("sym_name"), "value", "")
    if scope.linkage_name != name:
        return (f"invalid function debug info scope: {scope.generic()}. Function name \"{name}\" "
                f"does not match subprogram scope linkage name \"{scope.linkage_name}\".")
    return None


def verify_function_body_debug_info(op):
    """Rules 3 and 4: scopes of the ops inside a function."""
    di = _di_loc(op.loc)
    fn_sub = _subprogram(di.scope) if di is not None else None
    plain = FileLineColLoc
    for inner in _ops_with_locations(op, plain):
        loc = inner.loc
        d = _di_loc(loc)
        if d is None:
            continue
        sub = _subprogram(d.scope)
        if sub is None:
            continue
        if fn_sub is None:
            return Diagnostic(ERROR, f"'{inner.name}' op invalid operation debug info scope: "
                              f"{sub.generic()}. Operation has debug info scope, but function "
                              "debug info scope is undefined.", inner.loc)
        if sub != fn_sub:
            return Diagnostic(ERROR, f"invalid operation debug info scope: {sub.generic()}. "
                              "Operation debug info scope does not match function debug info "
                              f"scope: {fn_sub.generic()}.", inner.loc)
    return None


def _ops_with_locations(root, plain):
    """``root`` and the ops nested in it whose location is not a plain file:line:col."""
    if root.loc.__class__ is not plain:
        yield root
    stack = [root]
    pop, push = stack.pop, stack.append
    while stack:
        for region in pop().regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.loc.__class__ is not plain:
                        yield inner
                    if inner.regions:
                        push(inner)


def verify_module_debug_info(module):
    """Rule 5: globals (anything but functions) must not have a debug scope."""
    if not module.regions or not module.regions[0].blocks:
        return None
    for child in module.regions[0].blocks[0].ops:
        if child.name in ("cuda_tile.entry", "cuda_tile.testing$func"):
            continue
        di = _di_loc(child.loc)
        if di is not None:
            return Diagnostic(ERROR, f"'{child.name}' op invalid operation debug info scope: "
                              f"{di.generic()}. Global variables must not have scope.", child.loc)
    return None


# -- assume predicates ------------------------------------------------------------------------

def verify_assume_predicate(op) -> Optional[str]:
    """``verifyWithAssumeOp`` of div_by / same_elements / bounded (cuda-tile's wording)."""
    from .attributes import BoundedAttr, DivByAttr, SameElementsAttr
    from .types import PointerType
    pred = op.attributes.get("predicate")
    t = op.results[0].type if op.results else None
    if isinstance(pred, DivByAttr):
        name = "'cuda_tile.div_by'"
        d = pred.divisor
        if d <= 0 or d & (d - 1):
            return f"{name} divisor must be a power of 2"
        if (pred.every is None) != (pred.along is None):
            return f"{name} 'every'/'along' must be used in combination"
        if d > 4611686018427387904:
            return f"{name} divisor is too large"
        if isinstance(t, TensorViewType):
            if pred.every is not None:
                return (f"{name} 'every'/'along' cannot be used if the constrained value is a "
                        "tensor_view")
            return None
        if not isinstance(t, TileType):
            return f"{name} is valid only for tile of integer/pointer or tensor_view values"
        if t.rank == 0 and pred.every is not None:
            return f"{name} 'every'/'along' cannot be used if the constrained value is a 0D tile"
        if not isinstance(t.element, (PointerType, IntegerType)):
            return f"{name} is valid only for tile of integer/pointer or tensor_view values"
        if pred.every is None:
            return None
        if pred.along < 0 or pred.along >= t.rank:
            return f"{name} every_dim ({pred.along}) must be >= 0 and < tile rank ({t.rank})"
        size = t.shape[pred.along]
        if pred.every < 0 or pred.every > size:
            return (f"expected {name} every_dim to be within 0 and the size of the respective "
                    f"dimension ({size})")
        return None
    if isinstance(pred, SameElementsAttr):
        name = "'cuda_tile.same_elements'"
        if not isinstance(t, TileType) or not isinstance(t.element, (PointerType, IntegerType)):
            return f"{name} is valid only for tile of integer/pointer values"
        values = pred.values
        if len(values) != t.rank:
            return (f"expected number of values in {name} ({len(values)}) to match rank of "
                    f"constrained tile ({t.rank})")
        for i, v in enumerate(values):
            if v < 0 or v > t.shape[i]:
                return (f"expected {name} value {i} to be within 0 and the size of the respective "
                        f"dimension ({t.shape[i]})")
        return None
    if isinstance(pred, BoundedAttr):
        name = "'cuda_tile.bounded'"
        if not isinstance(t, TileType) or not isinstance(t.element, IntegerType):
            return f"{name} is valid only for tile of integer values"
        w = t.element.width
        lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        if pred.lb is not None and not lo <= pred.lb <= hi:
            return f"{name} expects lower bound to be within [{lo}, {hi}]"
        if pred.ub is not None and not lo <= pred.ub <= hi:
            return f"{name} expects upper bound to be within [{lo}, {hi}]"
        if pred.lb is not None and pred.ub is not None and pred.lb > pred.ub:
            return f"{name} expects lower bound to be less than or equal to upper bound"
        return None
    return None
