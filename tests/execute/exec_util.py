"""Helpers for the executor tests: run one op (or a snippet) on NumPy inputs, and an exact
rational reference for IEEE rounding (independent of tileir's numerics)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Sequence

import ml_dtypes
import numpy as np

import tileir
from tileir.ir.dtypes import numpy_dtype

ELEM_OF_DTYPE = {
    np.dtype(np.bool_): "i1", np.dtype(np.int8): "i8", np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32", np.dtype(np.int64): "i64", np.dtype(np.float16): "f16",
    np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
    np.dtype(ml_dtypes.bfloat16): "bf16", np.dtype(ml_dtypes.float8_e4m3fn): "f8E4M3FN",
    np.dtype(ml_dtypes.float8_e5m2): "f8E5M2", np.dtype(ml_dtypes.int4): "i4",
    np.dtype(ml_dtypes.float8_e8m0fnu): "f8E8M0FNU", np.dtype(ml_dtypes.float4_e2m1fn): "f4E2M1FN",
}


def tile_type(shape: Sequence[int], elem: str) -> str:
    return "tile<" + "".join(f"{d}x" for d in shape) + elem + ">"


def view_types(shape, elem):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= d
    strides = list(reversed(strides))
    tv = f"tensor_view<{''.join(f'{d}x' for d in shape)}{elem}, strides=[{','.join(map(str, strides))}]>"
    pv = f"partition_view<tile=({'x'.join(map(str, shape))}), {tv}>"
    return tv, pv, strides


def store_snippet(value: str, shape, elem: str, ptr: str, prefix: str = "o") -> str:
    """IR that stores ``value`` (tile of ``shape``) into the array at ``ptr``."""
    lines = []
    if not shape:
        lines.append(f"%{prefix}_v = reshape {value} : tile<{elem}> -> tile<1x{elem}>")
        value, shape = f"%{prefix}_v", (1,)
    tv, pv, strides = view_types(shape, elem)
    dims = ", ".join(map(str, shape))
    lines.append(f"%{prefix}_tv = make_tensor_view {ptr}, shape = [{dims}], strides = "
                 f"[{', '.join(map(str, strides))}] : {tv}")
    lines.append(f"%{prefix}_pv = make_partition_view %{prefix}_tv : {pv}")
    lines.append(f"%{prefix}_c0 = constant <i32: 0> : tile<i32>")
    idx = ", ".join([f"%{prefix}_c0"] * len(shape))
    lines.append(f"%{prefix}_tok = store_view_tko weak {value}, %{prefix}_pv[{idx}] : "
                 f"{tile_type(shape, elem)}, {pv}, tile<i32> -> token")
    return "\n    ".join(lines)


def load_snippet(name: str, shape, elem: str, ptr: str, prefix: str) -> str:
    """IR that loads the array at ``ptr`` into the tile ``name`` of ``shape``."""
    lines = []
    lshape = tuple(shape) if shape else (1,)
    tv, pv, strides = view_types(lshape, elem)
    dims = ", ".join(map(str, lshape))
    lines.append(f"%{prefix}_tv = make_tensor_view {ptr}, shape = [{dims}], strides = "
                 f"[{', '.join(map(str, strides))}] : {tv}")
    lines.append(f"%{prefix}_pv = make_partition_view %{prefix}_tv : {pv}")
    lines.append(f"%{prefix}_c0 = constant <i32: 0> : tile<i32>")
    idx = ", ".join([f"%{prefix}_c0"] * len(lshape))
    target = name if shape else f"%{prefix}_l"
    lines.append(f"{target}, %{prefix}_tok = load_view_tko weak %{prefix}_pv[{idx}] : {pv}, "
                 f"tile<i32> -> {tile_type(lshape, elem)}, token")
    if not shape:
        lines.append(f"{name} = reshape %{prefix}_l : tile<1x{elem}> -> tile<{elem}>")
    return "\n    ".join(lines)


def run_snippet(body: str, inputs: Sequence, results: Sequence[tuple], *,
                elems: Optional[Sequence[str]] = None, grid=(1,), check=True, **launch_kw):
    """Run ``body`` (IR using ``%a0, %a1, ...`` for the inputs) and return the values of the
    SSA names in ``results`` = [(name, shape, elem), ...] as NumPy arrays (shape ``shape``).

    Each input array is passed by pointer and loaded bit-exactly into ``%aI`` (a tile of the
    array's shape; a 0-d array gives a rank-0 tile).  ``elems`` overrides element types
    (e.g. ``"tf32"`` for a float32 array)."""
    params, args, loads = [], [], []
    for i, x in enumerate(inputs):
        x = np.asarray(x)
        elem = elems[i] if elems is not None and elems[i] is not None else ELEM_OF_DTYPE[x.dtype]
        params.append(f"%in{i}: tile<ptr<{elem}>>")
        args.append(np.array(x.reshape(x.shape if x.shape else (1,))))
        loads.append(load_snippet(f"%a{i}", x.shape, elem, f"%in{i}", f"i{i}"))
    outs = []
    stores = []
    for j, (name, shape, elem) in enumerate(results):
        shape = tuple(shape)
        arr = np.zeros(shape if shape else (1,), dtype=numpy_dtype(elem))
        params.append(f"%out{j}: tile<ptr<{elem}>>")
        args.append(arr)
        outs.append(arr)
        stores.append(store_snippet(name, shape, elem, f"%out{j}", prefix=f"o{j}"))
    text = ("cuda_tile.module @m {\n  entry @k(" + ", ".join(params) + ") {\n    " +
            "\n    ".join(loads) + "\n    " + body +
            "\n    " + "\n    ".join(stores) + "\n    return\n  }\n}\n")
    module = tileir.parse(text, "snippet.mlir")
    kernel = tileir.compile(module, "k", verify=check)
    kernel.launch(grid, args, **launch_kw)
    return [o if shape else o.reshape(()) for o, (_, shape, _) in zip(outs, results)]


def run_op(line: str, inputs: Sequence, shape, elem: str, **kw) -> np.ndarray:
    """Run one op line defining ``%r`` and return ``%r``."""
    return run_snippet(line, inputs, [("%r", shape, elem)], **kw)[0]


# -- exact IEEE rounding with Fractions (independent reference) -----------------------------------

FORMATS = {"f16": (11, -14, 15), "bf16": (8, -126, 127), "f32": (24, -126, 127),
           "f64": (53, -1022, 1023)}


def round_fraction(q: Fraction, elem: str, mode: str) -> float:
    """Round the exact rational ``q`` to format ``elem`` in IEEE ``mode``; returns a float."""
    p, emin, emax = FORMATS[elem]
    if q == 0:
        return 0.0
    sign = -1 if q < 0 else 1
    a = abs(q)
    e = math.floor(math.log2(a.numerator) - math.log2(a.denominator))
    # fix the estimate so that 2**e <= a < 2**(e+1)
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    quantum = Fraction(2) ** (e - p + 1)
    n = a / quantum
    lo = math.floor(n)
    frac = n - lo
    if mode == "nearest_even":
        up = frac > Fraction(1, 2) or (frac == Fraction(1, 2) and lo % 2 == 1)
    elif mode == "zero":
        up = False
    elif mode == "positive_inf":
        up = frac > 0 and sign > 0
    elif mode == "negative_inf":
        up = frac > 0 and sign < 0
    else:
        raise ValueError(mode)
    mag = (lo + (1 if up else 0)) * quantum
    max_value = (2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax
    if mag > max_value:
        overflow_to_inf = mode == "nearest_even" or (mode == "positive_inf" and sign > 0) or \
            (mode == "negative_inf" and sign < 0)
        return sign * (math.inf if overflow_to_inf else float(max_value))
    return sign * float(mag)


def bits_equal(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return bool((a.view(u) == b.view(u)).all())
