"""Result types and legality of each instruction (tinytc's instruction rules plus the
reference's), independent of syntax.  :func:`infer` raises :class:`SemanticError` with
tinytc's message text; the parser reports it at the instruction's span."""

from __future__ import annotations

from typing import Optional

from .ir import GroupType, Imm, Inst, MemrefType, ScalarType, Value, is_float

__all__ = ["SemanticError", "MESSAGES", "ATOMIC_ELEMENTS", "infer"]

#: tinytc's status texts (src/error.cpp of v0.3.1), by our short name; "atomic_element" is
#: ours (v0.3.1 fails in its OpenCL code generator instead)
MESSAGES = {
    "out_of_bounds": "Argument is out of bounds",
    "invalid_shape": "Mode size must be non-negative",
    "incompatible_shapes": "Incompatible tensor shapes",
    "shape_stride_mismatch": "Dimension of shape and stride must match",
    "scalar_mismatch": "Scalar type mismatch",
    "invalid_number_of_indices":
        "Number of indices must match memref order or must be 1 for group types",
    "expected_scalar": "Expected scalar type",
    "expected_memref": "Expected memref type",
    "expected_memref_or_group": "Expected memref or group operand",
    "expected_vector_or_matrix": "Expected vector or matrix input",
    "unexpected_yield": "Yield encountered in non-yielding region",
    "yield_mismatch":
        "Number of yielded values does not match number of values yielded by region",
    "multiple_dynamic_modes": "At most one mode must be dynamic ('?')",
    "invalid_slice":
        "Offset must be non-negative and must not be '?'; size must be positive or '?'",
    "expand_shape_order_too_small": "Expand shape must have at least 2 entries",
    "expand_shape_mismatch": "Product of expand shape must equal mode size",
    "collective_called_from_spmd": "Collective instruction must not be called from SPMD region",
    "fp_unsupported": "Floating point type unsupported for instruction",
    "type_mismatch": "Type of SSA value does not match operand type",
    # rules of the reference that v0.3.1 does not check (our wording)
    "dynamic_alloca": "Alloca requires a memref type without dynamic modes",
    "illegal_fuse": "Modes cannot be fused: stride and shape are incompatible (S_k s_k != S_k+1)",
    "invalid_layout": "Invalid strided layout: need 1 <= S_1 and S_(i-1) s_(i-1) <= S_i",
    "work_group_size": "The first work group size mode must be a multiple of the subgroup size",
    "if_needs_else": "An if instruction that returns values must have an else region",
    "atomic_element": "Atomic update requires an output element type of i32, i64, index, f32 "
                      "or f64",
}

#: element types an ``.atomic`` BLAS instruction can update (tinytc v0.3.1 has OpenCL atomic
#: types only for these; cuda_tile's atomics are 32/64-bit as well)
ATOMIC_ELEMENTS = frozenset({"i32", "i64", "index", "f32", "f64"})


class SemanticError(Exception):
    def __init__(self, key: str) -> None:
        self.key = key
        super().__init__(MESSAGES[key])


def _memref(v) -> MemrefType:
    t = getattr(v, "type", None)
    if not isinstance(t, MemrefType):
        raise SemanticError("expected_memref")
    return t


def _scalar(v) -> ScalarType:
    t = v.type
    if not isinstance(t, ScalarType):
        raise SemanticError("expected_scalar")
    return t


def _check_atomic(inst: Inst, out: MemrefType) -> None:
    """An ``.atomic`` instruction must update an element type in :data:`ATOMIC_ELEMENTS`."""
    if inst.attrs.get("atomic") and out.element not in ATOMIC_ELEMENTS:
        raise SemanticError("atomic_element")


def _blas2(inst: Inst) -> list:
    _, a_val, _, b_val = inst.operands
    a, b = _memref(a_val), _memref(b_val)
    _check_atomic(inst, b)
    if inst.op == "axpby":
        if inst.attrs["ta"] == "t" and a.order == 2 and b.order == 2:
            ok = a.shape[1] == b.shape[0] and a.shape[0] == b.shape[1]
        else:
            ok = a.shape == b.shape
        if not ok:
            raise SemanticError("incompatible_shapes")
        if b.order > 2:
            raise SemanticError("expected_vector_or_matrix")
        return []
    # sum
    if not ((a.order == 2 and b.order == 1) or (a.order == 1 and b.order == 0)):
        raise SemanticError("expected_vector_or_matrix")
    if a.order == 2 and a.shape[1 if inst.attrs["ta"] == "t" else 0] != b.shape[0]:
        raise SemanticError("incompatible_shapes")
    return []


def _blas3(inst: Inst) -> list:
    _, a_val, b_val, _, c_val = inst.operands
    a, b, c = _memref(a_val), _memref(b_val), _memref(c_val)
    _check_atomic(inst, c)
    op = inst.op
    if op == "gemm":
        if a.order != 2 or b.order != 2 or c.order != 2:
            raise SemanticError("expected_vector_or_matrix")
        ak = 0 if inst.attrs["ta"] == "t" else 1
        bk = 1 if inst.attrs["tb"] == "t" else 0
        m, n, k = c.shape[0], c.shape[1], a.shape[ak]
        if a.shape[1 - ak] != m or b.shape[bk] != k or b.shape[1 - bk] != n:
            raise SemanticError("incompatible_shapes")
    elif op == "gemv":
        if a.order != 2 or b.order != 1 or c.order != 1:
            raise SemanticError("expected_vector_or_matrix")
        ak = 0 if inst.attrs["ta"] == "t" else 1
        if a.shape[1 - ak] != c.shape[0] or b.shape[0] != a.shape[ak]:
            raise SemanticError("incompatible_shapes")
    elif op == "ger":
        if a.order != 1 or b.order != 1 or c.order != 2:
            raise SemanticError("expected_vector_or_matrix")
        if a.shape[0] != c.shape[0] or b.shape[0] != c.shape[1]:
            raise SemanticError("incompatible_shapes")
    else:  # hadamard
        if a.order != 1 or b.order != 1 or c.order != 1:
            raise SemanticError("expected_vector_or_matrix")
        if a.shape[0] != c.shape[0] or b.shape[0] != c.shape[0]:
            raise SemanticError("incompatible_shapes")
    return []


def _expand(inst: Inst) -> list:
    src, *shape_ops = inst.operands
    m = _memref(src)
    mode = inst.attrs["mode"]
    if not 0 <= mode < m.order:
        raise SemanticError("out_of_bounds")
    if len(shape_ops) < 2:
        raise SemanticError("expand_shape_order_too_small")
    known: list = []
    dyn = non_imm = 0
    for s in shape_ops:
        if isinstance(s, Imm):
            if s.is_dynamic:
                known.append(None)
                dyn += 1
                continue
            if s.value < 0:
                raise SemanticError("invalid_shape")
            known.append(int(s.value))
        else:
            known.append(None)
            non_imm += 1
    if dyn > 1:
        raise SemanticError("multiple_dynamic_modes")
    size = m.shape[mode]
    if size is not None and non_imm == 0:
        prod = 1
        dyn_mode = -1
        for i, s in enumerate(known):
            if s is None:
                dyn_mode = i
            else:
                prod *= s
        if dyn_mode >= 0:
            inferred = size // prod if prod else 0
            known[dyn_mode] = inferred
            prod *= inferred
        if prod != size:
            raise SemanticError("expand_shape_mismatch")
    shape = list(m.shape[:mode])
    strides = list(m.strides[:mode])
    strides.append(m.strides[mode])
    shape.append(known[0])
    for s in known[1:]:
        prev_stride, prev_size = strides[-1], shape[-1]
        strides.append(None if prev_stride is None or prev_size is None
                       else prev_stride * prev_size)
        shape.append(s)
    shape += m.shape[mode + 1:]
    strides += m.strides[mode + 1:]
    inst.attrs["known_shape"] = tuple(known)
    return [MemrefType(m.element, tuple(shape), tuple(strides))]


def _fuse(inst: Inst) -> list:
    m = _memref(inst.operands[0])
    lo, hi = inst.attrs["from"], inst.attrs["to"]
    if not (0 <= lo < hi < m.order):
        raise SemanticError("out_of_bounds")
    for k in range(lo, hi):
        s, size, nxt = m.strides[k], m.shape[k], m.strides[k + 1]
        if s is not None and size is not None and nxt is not None and s * size != nxt:
            raise SemanticError("illegal_fuse")
    prod: Optional[int] = 1
    for k in range(lo, hi + 1):
        if m.shape[k] is None:
            prod = None
            break
        prod *= m.shape[k]
    shape = m.shape[:lo] + (prod,) + m.shape[hi + 1:]
    strides = m.strides[:lo] + (m.strides[lo],) + m.strides[hi + 1:]
    return [MemrefType(m.element, shape, strides)]


def _load(inst: Inst) -> list:
    src, *idx = inst.operands
    t = src.type
    if isinstance(t, GroupType):
        if len(idx) != 1:
            raise SemanticError("invalid_number_of_indices")
        return [t.memref]
    if isinstance(t, MemrefType):
        if len(idx) != t.order:
            raise SemanticError("invalid_number_of_indices")
        return [ScalarType(t.element)]
    raise SemanticError("expected_memref_or_group")


def _subview(inst: Inst) -> list:
    m = _memref(inst.operands[0])
    slices = inst.attrs["slices"]        # list of (offset operand, size operand or None)
    if len(slices) != m.order:
        raise SemanticError("invalid_number_of_indices")
    shape, strides = [], []
    for i, (off, size) in enumerate(slices):
        if isinstance(off, Imm) and (off.is_dynamic or off.value < 0):
            raise SemanticError("invalid_slice")
        if size is None:
            continue
        if isinstance(size, Imm) and not size.is_dynamic and size.value < 1:
            raise SemanticError("invalid_slice")
        if isinstance(size, Imm):
            if size.is_dynamic:
                if isinstance(off, Imm) and m.shape[i] is not None:
                    out = m.shape[i] - int(off.value)
                else:
                    out = None
            else:
                out = int(size.value)
        else:
            out = None
        shape.append(out)
        strides.append(m.strides[i])
    return [MemrefType(m.element, tuple(shape), tuple(strides))]


def _store(inst: Inst) -> list:
    val, dst, *idx = inst.operands
    v, m = _scalar(val), _memref(dst)
    if v.name != m.element:
        raise SemanticError("scalar_mismatch")
    if len(idx) != m.order:
        raise SemanticError("invalid_number_of_indices")
    return []


def _arith(inst: Inst) -> list:
    t = inst.types[0]
    if is_float(t.name) and inst.attrs["kind"] in ("shl", "shr", "and", "or", "xor", "not"):
        raise SemanticError("fp_unsupported")
    return [t]


def _alloca(inst: Inst) -> list:
    t = inst.types[0]
    if not isinstance(t, MemrefType):
        raise SemanticError("expected_memref")
    if any(s is None for s in t.shape) or any(s is None for s in t.strides):
        raise SemanticError("dynamic_alloca")
    return [t]


def _size(inst: Inst) -> list:
    m = _memref(inst.operands[0])
    if not 0 <= inst.attrs["mode"] < m.order:
        raise SemanticError("out_of_bounds")
    return [ScalarType("index")]


_RULES = {
    "axpby": _blas2, "sum": _blas2, "gemm": _blas3, "gemv": _blas3, "ger": _blas3,
    "hadamard": _blas3, "expand": _expand, "fuse": _fuse, "load": _load, "subview": _subview,
    "store": _store, "arith": _arith, "alloca": _alloca, "size": _size,
    "cast": lambda inst: [inst.types[1]],
    "cmp": lambda inst: [ScalarType("i1")],
    "group_id": lambda inst: [ScalarType("index")],
    "group_size": lambda inst: [ScalarType("index")],
    "if": lambda inst: list(inst.types),
}


def infer(inst: Inst) -> list:
    """Check ``inst`` and return its result types (raises :class:`SemanticError`)."""
    rule = _RULES.get(inst.op)
    return rule(inst) if rule is not None else []


def value_types_equal(a: Value, t) -> bool:
    return a.type == t
