"""SIMT engine: scf.parallel / scf.reduce / scf.forall on the host and in kernels."""

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import UndefinedBehaviorError


def test_parallel_2d_with_two_reductions_host():
    src = """
func.func @main(%a: memref<5x7xf32>, %o: memref<2xf32>, %c: memref<5x7xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %s, %p = scf.parallel (%i, %j) = (%c0, %c0) to (%c5, %c7) step (%c1, %c1) init (%z, %one) -> (f32, f32) {
    %v = memref.load %a[%i, %j] : memref<5x7xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %c[%i, %j] : memref<5x7xf32>
    scf.reduce(%v, %v : f32, f32) {
    ^bb0(%x: f32, %y: f32):
      %r = arith.addf %x, %y : f32
      scf.reduce.return %r : f32
    }, {
    ^bb0(%x: f32, %y: f32):
      %r = arith.mulf %x, %y : f32
      scf.reduce.return %r : f32
    }
  }
  memref.store %s, %o[%c0] : memref<2xf32>
  memref.store %p, %o[%c1] : memref<2xf32>
  return
}"""
    a = np.random.default_rng(0).uniform(0.5, 1.5, (5, 7)).astype(np.float32)
    o, cc = np.zeros(2, np.float32), np.zeros((5, 7), np.float32)
    tileir.gpu.run(tileir.parse(src), "main", args=[a, o, cc])
    s, p = np.float32(0), np.float32(1)
    for x in a.reshape(-1):          # row-major iteration order
        s, p = np.float32(s + x), np.float32(p * x)
    assert o[0] == s and o[1] == p
    np.testing.assert_array_equal(cc, a * a)


def test_parallel_steps_and_empty_range():
    src = """
func.func @main(%o: memref<10xi32>, %lo: index, %hi: index) {
  %c3 = arith.constant 3 : index
  %k = arith.constant 1 : i32
  scf.parallel (%i) = (%lo) to (%hi) step (%c3) {
    memref.store %k, %o[%i] : memref<10xi32>
    scf.reduce
  }
  return
}"""
    o = np.zeros(10, np.int32)
    tileir.gpu.run(tileir.parse(src), "main", args=[o, 1, 10])
    np.testing.assert_array_equal(np.flatnonzero(o), [1, 4, 7])
    o[:] = 0
    tileir.gpu.run(tileir.parse(src), "main", args=[o, 5, 2])
    assert not o.any()


def test_parallel_zero_step_is_ub():
    src = """
func.func @main(%s: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%s) {
    scf.reduce
  }
  return
}"""
    with pytest.raises(UndefinedBehaviorError):
        tileir.gpu.run(tileir.parse(src), "main", args=[0])




