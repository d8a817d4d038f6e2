"""scf.parallel / scf.reduce / scf.forall, cf.assert and indirect calls."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import AssertionFailure

TEXT = """
func.func @main(%m: memref<4x4xf32>, %n: index, %o: memref<4xf32>) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %r:2 = scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %n) step (%c1, %c1) init (%z, %zi) -> (f32, i32) {
    %v = memref.load %m[%i, %j] : memref<4x4xf32>
    %one = arith.constant 1 : i32
    scf.reduce(%v, %one : f32, i32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }, {
    ^bb0(%a: i32, %b: i32):
      %s = arith.addi %a, %b : i32
      scf.reduce.return %s : i32
    }
  }
  scf.forall (%i) in (4) {
    %v = memref.load %m[%i, %i] : memref<4x4xf32>
    memref.store %v, %o[%i] : memref<4xf32>
  }
  %t = arith.cmpf ogt, %r#0, %z : f32
  cf.assert %t, "sum must be positive"
  %f = func.constant @twice : (f32) -> f32
  %d = func.call_indirect %f(%r#0) : (f32) -> f32
  return %d, %r#1 : f32, i32
}
func.func @twice(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
"""


def test_parallel_reduce_forall_and_indirect_call():
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    o = np.zeros(4, np.float32)
    d, count = gpu.run(tileir.parse(TEXT), "main", args=[m, 3, o])
    seq = np.float32(0)
    for x in m[:, :3].reshape(-1):
        seq = np.float32(seq + x)
    assert d == 2 * seq and count == 12
    np.testing.assert_array_equal(o, np.diag(m))


def test_cf_assert_reports_its_message():
    with pytest.raises(AssertionFailure, match="'cf.assert' assertion failed: sum must be "
                                               "positive"):
        gpu.run(tileir.parse(TEXT), "main", args=[-np.ones((4, 4), np.float32), 3,
                                                  np.zeros(4, np.float32)])
