"""Kernel parameters and launch arguments, the way ``cuda.tile.launch`` sees them.

For each Python parameter of a ``@ct.kernel`` function, :func:`parameter_nodes` reads its
annotation (``ct.Constant``, ``ct.ScalarInt64``, ``ct.IndexedWithInt64`` /
``ct.ArrayAnnotation``, ``ct.ListAnnotation``, tuples of those).  :func:`classify` turns one
launch argument into a *spec* (what the compiled signature depends on: dtype, rank, index type,
the JIT's specialisation of shapes and strides, constant values) plus a *payload* (what is passed
at run time: the prepared CPU array, the scalar value...).  Specs are hashable (``.key``) and
build the matching ``cuda.tile.compilation`` constraint (``.constraint(ct)``); payloads expand into
entry arguments following the calling convention ``cutile_python_v1``:

* array of rank n -> pointer, n shapes, n strides (in elements), shapes and strides as the
  index type (i32 unless the parameter is annotated for int64 indexing); the pointer addresses
  the memory span the array covers, mapped in place (stores land in the caller's array), and the
  stride of a dimension of extent 1 (which never contributes to an address) is passed as 0;
* scalar -> the scalar (``bool`` -> i1, ``int`` -> i32 unless ``ct.ScalarInt64``, ``float`` ->
  f32, NumPy scalars keep their dtype);
* ``ct.Constant`` (or any constant given to a constant parameter) -> nothing (compiled in);
* list of arrays -> pointer to a table of 64-bit words (pointer, shapes, strides per array),
  and the list length (i32);
* tuple -> its items, flattened (calling convention ``cutile_python_v2``).
"""

from __future__ import annotations

import struct
import sys
import typing
from dataclasses import dataclass
from typing import Any, Optional

import ml_dtypes
import numpy as np

from ...execute.errors import ArgumentError

__all__ = ["Leaf", "TupleNode", "parameter_nodes", "classify", "ArraySpec", "ScalarSpec",
           "ConstSpec", "ListSpec", "TupleSpec", "PreparedArray", "as_cpu_array",
           "ArgumentOverflowError"]


class ArgumentOverflowError(ArgumentError, OverflowError):
    """A Python int that does not fit the parameter's integer type (cuTile raises
    ``OverflowError`` there too)."""


# ---------------------------------------------------------------------------------------------
# Annotations
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Leaf:
    """One parameter (or tuple item): constant?, and its array / scalar / list annotation."""

    constant: bool = False
    array: Any = None       # ct.ArrayAnnotation
    scalar: Any = None      # ScalarAnnotation (ct.ScalarInt64)
    list: Any = None        # ct.ListAnnotation


@dataclass(frozen=True)
class TupleNode:
    """A tuple annotation: ``items`` per position (``tuple[A, B]``) or ``each`` (``tuple[A,
    ...]``)."""

    items: Optional[tuple] = None
    each: Any = None
    constant: bool = False


def _annotation_classes(ct):
    scalar_cls = type(ct.ScalarInt64.__metadata__[0])
    return ct.ConstantAnnotation, ct.ArrayAnnotation, scalar_cls, ct.ListAnnotation


def _node(annotation, ct, outer_constant: bool = False):
    const_cls, array_cls, scalar_cls, list_cls = _annotation_classes(ct)
    if typing.get_origin(annotation) is typing.Annotated:
        inner, *meta = typing.get_args(annotation)
        constant = outer_constant or any(isinstance(m, const_cls) for m in meta)
        if typing.get_origin(inner) is tuple:
            return _tuple_node(inner, ct, constant)

        def pick(cls):
            return next((m for m in meta if isinstance(m, cls)), None)
        return Leaf(constant, pick(array_cls), pick(scalar_cls), pick(list_cls))
    if typing.get_origin(annotation) is tuple:
        return _tuple_node(annotation, ct, outer_constant)
    return Leaf(outer_constant)


def _tuple_node(annotation, ct, constant: bool) -> TupleNode:
    args = typing.get_args(annotation)
    if len(args) == 2 and args[1] is Ellipsis:
        return TupleNode(each=_node(args[0], ct, constant), constant=constant)
    return TupleNode(items=tuple(_node(a, ct, constant) for a in args), constant=constant)


def parameter_nodes(kernel, ct) -> tuple[list[str], list]:
    """The Python parameter names of a ``@ct.kernel`` and one annotation node per parameter."""
    import inspect
    pyfunc = getattr(kernel, "_pyfunc", None)
    if pyfunc is None:
        raise ArgumentError("tileir.cutile.launch: expected a @cuda.tile.kernel function as "
                            f"'kernel', got {type(kernel).__name__}")
    sig = inspect.signature(pyfunc)
    try:
        hints = typing.get_type_hints(pyfunc, include_extras=True)
    except Exception:  # noqa: BLE001 - unresolvable annotations: fall back to the raw ones
        hints = {}
    names, nodes = [], []
    for name, param in sig.parameters.items():
        if param.kind not in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
            raise ArgumentError(f"kernel '{pyfunc.__name__}': parameter '{name}' is not a plain "
                                "positional parameter, which cuTile kernels do not support")
        names.append(name)
        nodes.append(_node(hints.get(name, param.annotation), ct))
    return names, nodes


# ---------------------------------------------------------------------------------------------
# Dtypes
# ---------------------------------------------------------------------------------------------

#: NumPy storage dtype -> cuTile dtype name (``getattr(cuda.tile, name)``).
_CT_DTYPES: dict[np.dtype, str] = {
    np.dtype(np.bool_): "bool_",
    np.dtype(np.int8): "int8", np.dtype(np.int16): "int16", np.dtype(np.int32): "int32",
    np.dtype(np.int64): "int64",
    np.dtype(np.uint8): "uint8", np.dtype(np.uint16): "uint16", np.dtype(np.uint32): "uint32",
    np.dtype(np.uint64): "uint64",
    np.dtype(np.float16): "float16", np.dtype(np.float32): "float32",
    np.dtype(np.float64): "float64",
    np.dtype(ml_dtypes.bfloat16): "bfloat16",
    np.dtype(ml_dtypes.float8_e4m3fn): "float8_e4m3fn",
    np.dtype(ml_dtypes.float8_e5m2): "float8_e5m2",
    np.dtype(ml_dtypes.float8_e8m0fnu): "float8_e8m0fnu",
}

#: torch dtypes NumPy's DLPack import cannot take: (same-width integer view, ml_dtypes dtype).
_TORCH_VIEWS = {
    "torch.bfloat16": ("int16", ml_dtypes.bfloat16),
    "torch.float8_e4m3fn": ("uint8", ml_dtypes.float8_e4m3fn),
    "torch.float8_e5m2": ("uint8", ml_dtypes.float8_e5m2),
    "torch.float8_e8m0fnu": ("uint8", ml_dtypes.float8_e8m0fnu),
}

_DLPACK_DEVICES = {1: "CPU", 2: "CUDA", 3: "CUDA host", 4: "OpenCL", 7: "Vulkan", 8: "Metal",
                   9: "VPI", 10: "ROCm", 11: "ROCm host", 13: "CUDA managed", 14: "oneAPI"}


def ct_dtype_name(dtype: np.dtype) -> Optional[str]:
    return _CT_DTYPES.get(np.dtype(dtype))


# ---------------------------------------------------------------------------------------------
# Arrays
# ---------------------------------------------------------------------------------------------

def _is_arraylike(value) -> bool:
    if isinstance(value, np.ndarray):
        return True
    if isinstance(value, (np.generic, bool, int, float, complex, str, bytes, list, tuple)) \
            or value is None:
        return False
    return any(hasattr(value, a) for a in ("__dlpack__", "__array_interface__", "__array__",
                                           "__cuda_array_interface__"))


def as_cpu_array(value, where: str) -> np.ndarray:
    """A NumPy array sharing memory with ``value`` (NumPy array, DLPack CPU tensor such as a
    PyTorch CPU tensor, or anything with ``__array_interface__`` / ``__array__``)."""
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "__dlpack__"):
        device = None
        if hasattr(value, "__dlpack_device__"):
            try:
                device = int(value.__dlpack_device__()[0])
            except Exception:  # noqa: BLE001
                device = None
        if device is not None and device != 1:
            name = _DLPACK_DEVICES.get(device, f"DLPack device type {device}")
            raise ArgumentError(f"{where}: the array lives on a {name} device; tileir runs "
                                "cuTile kernels on the CPU: pass a CPU array (e.g. "
                                "tensor.cpu() or a NumPy array)")
        mod = type(value).__module__ or ""
        if mod.startswith("torch"):
            value = _torch_cpu_view(value, where)
            if isinstance(value, np.ndarray):
                return value
        try:
            return np.from_dlpack(value)
        except Exception as exc:  # noqa: BLE001
            if not (hasattr(value, "__array_interface__") or hasattr(value, "__array__")):
                raise ArgumentError(f"{where}: cannot read the array through DLPack "
                                    f"({type(exc).__name__}: {exc})") from None
    elif hasattr(value, "__cuda_array_interface__") and not hasattr(value, "__array__"):
        raise ArgumentError(f"{where}: the array lives on a CUDA device "
                            "(__cuda_array_interface__); tileir runs cuTile kernels on the CPU: "
                            "pass a CPU array")
    try:
        return np.asarray(value)
    except Exception as exc:  # noqa: BLE001
        raise ArgumentError(f"{where}: cannot convert {type(value).__name__} to an array "
                            f"({type(exc).__name__}: {exc})") from None


def _torch_cpu_view(t, where: str):
    """PyTorch: detach (same storage) and view dtypes NumPy lacks through ml_dtypes."""
    torch = sys.modules.get("torch")
    if torch is None:
        return t
    if getattr(t, "requires_grad", False):
        t = t.detach()
    view = _TORCH_VIEWS.get(str(t.dtype))
    if view is not None:
        as_int = t.view(getattr(torch, view[0]))
        return np.from_dlpack(as_int).view(view[1])
    if getattr(t, "is_conj", lambda: False)() or getattr(t, "is_neg", lambda: False)():
        raise ArgumentError(f"{where}: the tensor has a lazy conjugate/negative bit; call "
                            ".resolve_conj() / .resolve_neg() first")
    return t


@dataclass
class PreparedArray:
    """An argument array as the kernel sees it: ``data`` is a 1-D contiguous view of the whole
    memory span the array covers (so stores land in the caller's array), ``shape`` and
    ``strides`` (in elements) describe the array inside it.  Arrays that cannot be viewed that
    way (negative strides, strides that are not a whole number of elements) are copied into a
    C-contiguous ``data`` and written back after the launch (``writeback``)."""

    array: np.ndarray
    data: np.ndarray
    shape: tuple
    strides: tuple
    writeback: Optional[np.ndarray] = None

    def finish(self) -> None:
        if self.writeback is not None:
            self.array[...] = self.writeback.reshape(self.array.shape)


def _c_strides(shape) -> tuple:
    out, acc = [], 1
    for n in reversed(shape):
        out.append(acc)
        acc *= n
    return tuple(reversed(out))


def _strided_alias(arr: np.ndarray, span: int) -> np.ndarray:
    """A flat array of ``span`` elements aliasing ``arr``'s memory from its first element.

    ``as_strided`` goes through ``__array_interface__``, whose type string NumPy cannot parse
    back for some extension dtypes (ml_dtypes' float8_e5m2 reports ``'<f1'``), so the alias is
    built on a same-size unsigned integer view and viewed back as ``arr.dtype``."""
    itemsize = arr.dtype.itemsize
    raw = arr.view(f"u{itemsize}") if itemsize in (1, 2, 4, 8) else arr
    flat = np.lib.stride_tricks.as_strided(raw, shape=(span,), strides=(itemsize,),
                                           writeable=bool(arr.flags.writeable))
    return flat.view(arr.dtype)


def prepare_array(arr: np.ndarray) -> PreparedArray:
    itemsize = arr.dtype.itemsize
    shape = tuple(int(n) for n in arr.shape)
    if arr.size == 0:
        strides = _c_strides(shape)
        return PreparedArray(arr, np.empty(0, dtype=arr.dtype), shape, strides)
    if arr.flags.c_contiguous:          # (the common case: the array itself, flattened)
        return PreparedArray(arr, arr.reshape(-1), shape, _c_strides(shape))
    if itemsize and all(s >= 0 and s % itemsize == 0 for s in arr.strides):
        strides = tuple(int(s) // itemsize for s in arr.strides)
        span = 1 + sum((n - 1) * s for n, s in zip(shape, strides))
        data = _strided_alias(arr, span)
        return PreparedArray(arr, data, shape, strides)
    copy = np.ascontiguousarray(arr)
    return PreparedArray(arr, copy.reshape(-1), shape, _c_strides(shape),
                         copy if arr.flags.writeable else None)


def _disjoint(shape, strides) -> bool:
    """No two in-bounds indices address the same element (the JIT's ``may_alias_internally``
    test; dimensions of extent 1 do not matter)."""
    dims = [(s, n) for n, s in zip(shape, strides) if n != 1]
    if any(n == 0 for n in shape):
        return True
    if any(s <= 0 for s, _ in dims):
        return False
    dims.sort()
    return all(dims[i + 1][0] >= dims[i][0] * dims[i][1] for i in range(len(dims) - 1))


_INT32_MAX = (1 << 31) - 1


# ---------------------------------------------------------------------------------------------
# Specs
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ArraySpec:
    dtype: str
    ndim: int
    index64: bool
    stride_constant: tuple
    stride_divisible_by: tuple
    shape_divisible_by: tuple
    shape_constant: tuple
    may_alias_internally: bool

    @property
    def needs_v2(self) -> bool:
        return any(c is not None for c in self.shape_constant)

    @property
    def key(self) -> tuple:
        return ("A", self.dtype, self.ndim, self.index64, self.stride_constant,
                self.stride_divisible_by, self.shape_divisible_by, self.shape_constant,
                self.may_alias_internally)

    def constraint(self, ct):
        from cuda.tile.compilation import ArrayConstraint
        kw = {}
        if any(c is not None for c in self.stride_constant):
            kw["stride_constant"] = self.stride_constant
        if any(c is not None for c in self.shape_constant):
            kw["shape_constant"] = self.shape_constant
        return ArrayConstraint(getattr(ct, self.dtype), self.ndim,
                               index_dtype=ct.int64 if self.index64 else ct.int32,
                               stride_lower_bound_incl=0, alias_groups=(),
                               may_alias_internally=self.may_alias_internally,
                               stride_divisible_by=self.stride_divisible_by,
                               shape_divisible_by=self.shape_divisible_by,
                               base_addr_divisible_by=16, **kw)

    def describe(self) -> str:
        return f"{self.ndim}-D {self.dtype} array"


@dataclass(frozen=True)
class ScalarSpec:
    dtype: str

    needs_v2 = False

    @property
    def key(self) -> tuple:
        return ("S", self.dtype)

    def constraint(self, ct):
        from cuda.tile.compilation import ScalarConstraint
        return ScalarConstraint(getattr(ct, self.dtype))

    def describe(self) -> str:
        return f"{self.dtype} scalar"


@dataclass(frozen=True)
class ConstSpec:
    value: Any

    needs_v2 = False

    @property
    def key(self) -> tuple:
        v = self.value
        if isinstance(v, float):
            return ("C", "float", struct.pack("<d", v))
        return ("C", type(v).__name__, v)

    def constraint(self, ct):
        from cuda.tile.compilation import ConstantConstraint
        return ConstantConstraint(self.value)

    def describe(self) -> str:
        return f"constant {self.value!r}"


@dataclass(frozen=True)
class ListSpec:
    element: ArraySpec
    elements_may_alias: bool

    @property
    def needs_v2(self) -> bool:
        return self.element.needs_v2

    @property
    def key(self) -> tuple:
        return ("L", self.element.key, self.elements_may_alias)

    def constraint(self, ct):
        from cuda.tile.compilation import ListConstraint
        return ListConstraint(self.element.constraint(ct), alias_groups=(),
                              elements_may_alias=self.elements_may_alias)

    def describe(self) -> str:
        return f"list of {self.element.describe()}s"


@dataclass(frozen=True)
class TupleSpec:
    items: tuple

    needs_v2 = True

    @property
    def key(self) -> tuple:
        return ("T",) + tuple(i.key for i in self.items)

    def constraint(self, ct):
        from cuda.tile.compilation import TupleConstraint
        return TupleConstraint([i.constraint(ct) for i in self.items])

    def describe(self) -> str:
        return "tuple(" + ", ".join(i.describe() for i in self.items) + ")"


def spec_needs_v2(spec) -> bool:
    if isinstance(spec, TupleSpec):
        return True
    return bool(spec.needs_v2)


# ---------------------------------------------------------------------------------------------
# Classification of one argument
# ---------------------------------------------------------------------------------------------

_SCALAR_TYPES = {np.dtype(np.bool_): "bool_", np.dtype(np.int8): "int8",
                 np.dtype(np.int16): "int16", np.dtype(np.int32): "int32",
                 np.dtype(np.int64): "int64", np.dtype(np.uint8): "uint8",
                 np.dtype(np.uint16): "uint16", np.dtype(np.uint32): "uint32",
                 np.dtype(np.uint64): "uint64", np.dtype(np.float16): "float16",
                 np.dtype(np.float32): "float32", np.dtype(np.float64): "float64",
                 np.dtype(ml_dtypes.bfloat16): "bfloat16"}

_INT_RANGES = {"int8": (-(1 << 7), (1 << 7) - 1), "int16": (-(1 << 15), (1 << 15) - 1),
               "int32": (-(1 << 31), (1 << 31) - 1), "int64": (-(1 << 63), (1 << 63) - 1),
               "uint8": (0, (1 << 8) - 1), "uint16": (0, (1 << 16) - 1),
               "uint32": (0, (1 << 32) - 1), "uint64": (0, (1 << 64) - 1)}


def _constant_value(value, where: str):
    if isinstance(value, np.generic) and value.shape == ():
        if isinstance(value, np.bool_):
            value = bool(value)
        elif isinstance(value, np.integer):
            value = int(value)
        elif isinstance(value, np.floating):
            value = float(value)
    if isinstance(value, (bool, int, float)):
        return value
    if _is_arraylike(value) or isinstance(value, (list, tuple)):
        raise ArgumentError(f"{where} is a compile-time constant (ct.Constant): pass a bool, "
                            f"int or float value, got {type(value).__name__}")
    raise ArgumentError(f"{where} is a compile-time constant with value {value!r} of type "
                        f"{type(value).__name__}: cuTile's export_kernel (calling conventions "
                        "cutile_python_v1/v2) accepts only bool, int and float constants")


def _array_dtype(arr: np.ndarray, where: str) -> str:
    """cuTile's name for ``arr``'s dtype; an :class:`ArgumentError` for dtypes cuTile lacks.
    Checked before :func:`prepare_array` views the memory (object arrays cannot be viewed)."""
    dtype = ct_dtype_name(arr.dtype)
    if dtype is None:
        raise ArgumentError(f"{where}: arrays of dtype {arr.dtype} cannot be passed to a cuTile "
                            "kernel (supported: bool, int8-64, uint8-64, float16/32/64, "
                            "bfloat16 and float8 e4m3fn/e5m2/e8m0fnu via ml_dtypes)")
    return dtype


def _array_spec(arr: np.ndarray, prep: PreparedArray, ann, where: str) -> ArraySpec:
    """The :class:`ArraySpec` of a prepared array argument (``prep.strides`` adjusted as the
    kernel sees them), remembered per dtype, shape, strides and annotation: a kernel launched
    again with arrays of the same layout does not work it out again."""
    key = (arr.dtype, prep.shape, prep.strides, id(ann))
    hit = _SPECS.get(key)
    if hit is not None and hit[0] is ann:
        prep.strides = hit[2]
        return hit[1]
    spec = _work_out_array_spec(arr, prep, ann, where)
    if len(_SPECS) >= 1024:
        _SPECS.clear()
    _SPECS[key] = (ann, spec, prep.strides)
    return spec


#: (dtype, shape, strides, id(annotation)) -> (annotation, spec, strides as the kernel sees
#: them), see _array_spec
_SPECS: dict = {}


def _work_out_array_spec(arr: np.ndarray, prep: PreparedArray, ann, where: str) -> ArraySpec:
    dtype = _array_dtype(arr, where)
    ndim = arr.ndim
    index64 = bool(ann is not None and getattr(ann, "index_dtype", None) is not None
                   and getattr(ann.index_dtype, "name", str(ann.index_dtype)) == "int64")
    shape, strides = prep.shape, prep.strides
    if not index64:
        for d, (n, s) in enumerate(zip(shape, strides)):
            if n > _INT32_MAX or s > _INT32_MAX:
                what = "shape" if n > _INT32_MAX else "stride"
                raise ArgumentError(f"{where}: {what} at dim {d} = {max(n, s)} exceeds the int32 "
                                    "index range; annotate the kernel parameter with "
                                    "ct.IndexedWithInt64")
    static_shape = _dims(getattr(ann, "static_shape_dims", ()) if ann else (), ndim, where)
    static_stride = _dims(getattr(ann, "static_stride_dims", ()) if ann else (), ndim, where)
    itemsize = arr.dtype.itemsize
    specialise = ndim <= 5
    # An annotation's static dims are the complete set of shape constants; without one the JIT
    # makes every extent-1 dimension a constant 1.
    infer_one = specialise and not static_shape
    shape_const = tuple(shape[d] if d in static_shape else
                        (1 if infer_one and shape[d] == 1 else None) for d in range(ndim))
    # The stride of an extent-1 dimension never contributes to an address, and cuTile's code
    # for a dimension of constant extent 1 assumes that stride is a multiple of 16 bytes: pass
    # 0 there, so that every assumption of the compiled kernel holds (check_assumptions=True).
    if any(c == 1 for c in shape_const):
        strides = tuple(0 if c == 1 and d not in static_stride else s
                        for d, (s, c) in enumerate(zip(strides, shape_const)))
        prep.strides = strides
    if static_stride:
        stride_const = tuple(strides[d] if d in static_stride else None for d in range(ndim))
    elif specialise:
        stride_const = tuple(1 if s == 1 else None for s in strides)
    else:
        stride_const = (None,) * ndim
    if specialise:
        stride_div = tuple(16 // itemsize if c is None and itemsize <= 16 and (s * itemsize) % 16
                           == 0 else 1 for s, c in zip(strides, stride_const))
        shape_div = tuple(16 if c is None and n % 16 == 0 else 1
                          for n, c in zip(shape, shape_const))
    else:
        stride_div = (1,) * ndim
        shape_div = (1,) * ndim
    return ArraySpec(dtype, ndim, index64, stride_const, stride_div, shape_div, shape_const,
                     not _disjoint(shape, strides))


def _dims(dims, ndim: int, where: str) -> frozenset:
    out = set()
    for d in dims:
        if not -ndim <= d < ndim:
            raise ArgumentError(f"{where}: ArrayAnnotation dimension {d} is out of range for a "
                                f"{ndim}-D array")
        out.add(d % ndim)
    return frozenset(out)


def _scalar(value, leaf: Leaf, where: str):
    ann_dtype = None
    if leaf.scalar is not None:
        ann_dtype = getattr(leaf.scalar.dtype, "name", None)
    if isinstance(value, bool):
        return ScalarSpec("bool_"), value
    if isinstance(value, float):    # Python float (and np.float64, a float subclass) -> f32
        if ann_dtype is not None:
            raise ArgumentError(f"{where}: the parameter is annotated as an {ann_dtype} scalar, "
                                f"got float {value!r}")
        return ScalarSpec("float32"), float(value)
    if isinstance(value, np.generic):
        # cuTile itself takes only Python scalars; other NumPy scalars keep their dtype here.
        name = _SCALAR_TYPES.get(value.dtype)
        if name is None:
            raise ArgumentError(f"{where}: scalars of dtype {value.dtype} cannot be passed to a "
                                "cuTile kernel")
        if name == "bool_":
            return ScalarSpec(name), bool(value)
        if name.startswith(("int", "uint")):
            if ann_dtype is None:
                return ScalarSpec(name), int(value)
            value = int(value)          # annotated (ct.ScalarInt64): the annotation decides
        else:
            return ScalarSpec(name), float(value)
    if isinstance(value, int):
        name = ann_dtype or "int32"
        lo, hi = _INT_RANGES[name]
        if not lo <= value <= hi:
            hint = "" if name == "int64" else "; annotate the parameter with ct.ScalarInt64"
            raise ArgumentOverflowError(f"{where}: {value} does not fit in {name}{hint}")
        return ScalarSpec(name), int(value)
    return None


def classify(node, value, where: str):
    """``(spec, payload)`` for argument ``value`` of a parameter annotated ``node``."""
    if isinstance(node, TupleNode) or isinstance(value, tuple):
        return _classify_tuple(node, value, where)
    leaf: Leaf = node
    if leaf.constant:
        return ConstSpec(_constant_value(value, where)), None
    if isinstance(value, list) or leaf.list is not None:
        return _classify_list(leaf, value, where)
    if _is_arraylike(value):
        if leaf.scalar is not None:
            raise ArgumentError(f"{where}: the parameter is annotated as a scalar "
                                f"(ScalarAnnotation), got {type(value).__name__}")
        arr = as_cpu_array(value, where)
        _array_dtype(arr, where)
        prep = prepare_array(arr)
        return _array_spec(arr, prep, leaf.array, where), prep
    if leaf.array is not None:
        raise ArgumentError(f"{where}: the parameter is annotated as an array "
                            f"(ArrayAnnotation), got {type(value).__name__}")
    scalar = _scalar(value, leaf, where)
    if scalar is not None:
        return scalar
    raise ArgumentError(f"{where}: cannot pass a value of type {type(value).__name__} to a "
                        "cuTile kernel (expected an array, a list of arrays, a bool/int/float "
                        "scalar or a tuple of those)")


def _classify_tuple(node, value, where: str):
    if not isinstance(value, tuple):
        raise ArgumentError(f"{where}: the parameter is annotated as a tuple, got "
                            f"{type(value).__name__}")
    if isinstance(node, TupleNode):
        if node.items is not None:
            if len(node.items) != len(value):
                raise ArgumentError(f"{where}: expected a tuple of {len(node.items)} items, got "
                                    f"{len(value)}")
            nodes = node.items
        else:
            nodes = (node.each,) * len(value)
    else:
        nodes = (Leaf(node.constant),) * len(value)
    specs, payloads = [], []
    for i, (n, v) in enumerate(zip(nodes, value)):
        s, p = classify(n, v, f"{where}[{i}]")
        specs.append(s)
        payloads.append(p)
    return TupleSpec(tuple(specs)), payloads


def _classify_list(leaf: Leaf, value, where: str):
    if not isinstance(value, list):
        raise ArgumentError(f"{where}: the parameter is annotated as a list of arrays, got "
                            f"{type(value).__name__}")
    if not value:
        raise ArgumentError(f"{where}: empty lists are not supported as kernel arguments")
    ann = getattr(leaf.list, "element", None) if leaf.list is not None else None
    if ann is not None and typing.get_origin(ann) is typing.Annotated:
        ann = next((m for m in ann.__metadata__ if hasattr(m, "index_dtype")), None)
    preps, specs = [], []
    for i, v in enumerate(value):
        w = f"{where}[{i}]"
        if not _is_arraylike(v):
            raise ArgumentError(f"{w}: lists passed to cuTile kernels must hold arrays, got "
                                f"{type(v).__name__}")
        arr = as_cpu_array(v, w)
        _array_dtype(arr, w)
        prep = prepare_array(arr)
        preps.append(prep)
        specs.append(_array_spec(arr, prep, ann, w))
    first = specs[0]
    for i, s in enumerate(specs[1:], 1):
        if (s.dtype, s.ndim) != (first.dtype, first.ndim):
            raise ArgumentError(f"{where}: all arrays of a list must have the same dtype and "
                                f"rank; item 0 is a {first.describe()}, item {i} a "
                                f"{s.describe()}")
    # One constraint for every element: the conservative one (no shape/stride specialisation).
    n = first.ndim
    element = ArraySpec(first.dtype, n, first.index64, (None,) * n, (1,) * n, (1,) * n,
                        (None,) * n, any(s.may_alias_internally for s in specs))
    may_alias = False
    for i in range(len(preps)):
        for j in range(i + 1, len(preps)):
            if np.may_share_memory(preps[i].data, preps[j].data):
                may_alias = True
    return ListSpec(element, may_alias), preps
