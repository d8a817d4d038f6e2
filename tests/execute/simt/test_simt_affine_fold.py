"""Uniform integer division/remainder fold on constants and an affine value compared with a
constant is decided from the materialised value (ops/arith.py): same results as Python's
C-style integer arithmetic and NumPy comparisons, division by zero still reported, and
``scf.if`` on ``tid < n`` narrows to the right threads."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu

from test_simt_core import IDS, kernel_module


def c_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


PAIRS = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (2**31 - 1, 3), (-(2**31), 7), (5, 9)]


def fold_kernel(op: str, ty: str, a: int, b: int) -> str:
    body = IDS + f"""
      %a = arith.constant {a} : {ty}
      %b = arith.constant {b} : {ty}
      %r = {op} %a, %b : {ty}
      memref.store %r, %out[%i] : memref<?x{ty}>"""
    return kernel_module(body, f"%out: memref<?x{ty}>")


@pytest.mark.parametrize("a,b", PAIRS)
@pytest.mark.parametrize("op", ["arith.divsi", "arith.remsi", "arith.divui", "arith.remui"])
def test_constant_division_folds_like_c(op, a, b):
    out = np.zeros(64, np.int32)
    gpu.launch(tileir.parse(fold_kernel(op, "i32", a, b)), "m::k", grid=(2,), block=(32,),
               args=[out])
    if op.endswith("ui"):
        ua, ub = a % 2**32, b % 2**32
        want = ua // ub if op.endswith("divui") else ua % ub
    else:
        q = c_div(a, b)
        want = q if op.endswith("divsi") else a - q * b
    want = np.array(want % 2**32, dtype=np.uint32).view(np.int32)
    assert (out == want).all()


def test_signed_overflow_and_division_by_zero_still_reported():
    out = np.zeros(32, np.int32)
    for a, b in ((-(2**31), -1), (5, 0)):
        with pytest.raises(tileir.LaunchError):
            gpu.launch(tileir.parse(fold_kernel("arith.divsi", "i32", a, b)), "m::k",
                       grid=(1,), block=(32,), args=[out])


@pytest.mark.parametrize("pred,fn", [("eq", np.equal), ("ne", np.not_equal),
                                     ("slt", np.less), ("ule", np.less_equal),
                                     ("ugt", np.greater), ("sge", np.greater_equal)])
@pytest.mark.parametrize("swap", [False, True])
def test_affine_compared_with_constant(pred, fn, swap):
    """``%i <pred> 37`` (or ``37 <pred> %i``) per thread, selecting with scf.if."""
    lhs, rhs = ("%k", "%i") if swap else ("%i", "%k")
    body = IDS + f"""
      %k = arith.constant 37 : index
      %one = arith.constant 1 : i32
      %p = arith.cmpi {pred}, {lhs}, {rhs} : index
      scf.if %p {{
        memref.store %one, %out[%i] : memref<?xi32>
      }}"""
    out = np.zeros(96, np.int32)
    gpu.launch(tileir.parse(kernel_module(body, "%out: memref<?xi32>")), "m::k", grid=(3,),
               block=(32,), args=[out])
    i = np.arange(96)
    want = fn(37, i) if swap else fn(i, 37)
    assert (out == want.astype(np.int32)).all()


def test_if_without_else_on_a_thread_range_touches_only_those_threads():
    body = IDS + """
      %tid2 = gpu.thread_id x
      %lo = arith.constant 5 : index
      %hi = arith.constant 20 : index
      %a = arith.cmpi uge, %tid2, %lo : index
      %b = arith.cmpi ult, %tid2, %hi : index
      %both = arith.andi %a, %b : i1
      %v = arith.index_cast %tid2 : index to i32
      scf.if %both {
        memref.store %v, %out[%i] : memref<?xi32>
      }"""
    out = np.full(64, -1, np.int32)
    gpu.launch(tileir.parse(kernel_module(body, "%out: memref<?xi32>")), "m::k", grid=(2,),
               block=(32,), args=[out])
    t = np.tile(np.arange(32), 2)
    assert (out == np.where((t >= 5) & (t < 20), t, -1)).all()
