"""vector ops per thread (kernels) and on the host, against NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import MemoryAccessError, UndefinedBehaviorError


def host(text: str, args: list):
    return gpu.run(tileir.parse(text), "main", args=args)


def test_shape_and_element_ops_on_host():
    text = """
func.func @main(%v: vector<2x4xf32>, %i: index) -> (vector<4x2xf32>, vector<8xf32>, vector<2x2xf32>, vector<2x4xf32>, f32, vector<4xf32>, vector<3xi32>, vector<2x3xi1>, vector<4xindex>, vector<8xf32>) {
  %t = vector.transpose %v, [1, 0] : vector<2x4xf32> to vector<4x2xf32>
  %s = vector.shape_cast %v : vector<2x4xf32> to vector<8xf32>
  %ess = vector.extract_strided_slice %v {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x4xf32> to vector<2x2xf32>
  %iss = vector.insert_strided_slice %ess, %v {offsets = [0, 0], strides = [1, 1]} : vector<2x2xf32> into vector<2x4xf32>
  %e = vector.extract %v[1, %i] : f32 from vector<2x4xf32>
  %row = vector.extract %v[0] : vector<4xf32> from vector<2x4xf32>
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %fe = vector.from_elements %c7, %c8, %c7 : vector<3xi32>
  %cm = vector.constant_mask [1, 2] : vector<2x3xi1>
  %st = vector.step : vector<4xindex>
  %il = vector.interleave %row, %row : vector<4xf32> -> vector<8xf32>
  %ins = vector.insert %e, %row[2] : f32 into vector<4xf32>
  return %t, %s, %ess, %iss, %e, %ins, %fe, %cm, %st, %il : vector<4x2xf32>, vector<8xf32>, vector<2x2xf32>, vector<2x4xf32>, f32, vector<4xf32>, vector<3xi32>, vector<2x3xi1>, vector<4xindex>, vector<8xf32>
}
"""
    v = np.arange(8, dtype=np.float32).reshape(2, 4)
    t, s, ess, iss, e, ins, fe, cm, st, il = host(text, [v, 3])
    np.testing.assert_array_equal(t, v.T)
    np.testing.assert_array_equal(s, v.reshape(-1))
    np.testing.assert_array_equal(ess, v[:, 1:3])     # (MLIR 22 allows unit strides only)
    expect = v.copy()
    expect[:, 0:2] = v[:, 1:3]
    np.testing.assert_array_equal(iss, expect)
    assert e == v[1, 3]
    np.testing.assert_array_equal(ins, [0, 1, 7, 3])
    np.testing.assert_array_equal(fe, [7, 8, 7])
    np.testing.assert_array_equal(cm, [[True, True, False], [False, False, False]])
    np.testing.assert_array_equal(st, np.arange(4))
    np.testing.assert_array_equal(il, np.repeat(v[0], 2))


def test_dynamic_extract_out_of_range_is_reported():
    text = """
func.func @main(%v: vector<4xf32>, %i: index) -> f32 {
  %e = vector.extract %v[%i] : f32 from vector<4xf32>
  return %e : f32
}
"""
    with pytest.raises(UndefinedBehaviorError, match="out of range"):
        host(text, [np.zeros(4, np.float32), 4])


@pytest.mark.parametrize("kind, ref", [
    ("add", None), ("mul", None), ("maxnumf", np.max), ("minnumf", np.min),
])
def test_float_reduction_is_ordered(kind, ref):
    text = f"""
func.func @main(%v: vector<8xf32>, %acc: f32) -> (f32, f32) {{
  %a = vector.reduction <{kind}>, %v : vector<8xf32> into f32
  %b = vector.reduction <{kind}>, %v, %acc : vector<8xf32> into f32
  return %a, %b : f32, f32
}}
"""
    v = np.array([1e8, 1.0, -1e8, 3.5, 0.25, 7.0, -2.0, 1e-3], np.float32)
    a, b = host(text, [v, 0.5])
    if ref is None:
        op = np.add if kind == "add" else np.multiply
        seq = v[0]
        for x in v[1:]:
            seq = np.float32(op(seq, x))
        seq_acc = np.float32(0.5)
        for x in v:
            seq_acc = np.float32(op(seq_acc, x))
        assert a == seq and b == seq_acc
    else:
        assert a == ref(v) and b == ref(np.append(v, np.float32(0.5)))


def test_integer_reductions_and_fma_outerproduct():
    text = """
func.func @main(%v: vector<4xi32>, %a: vector<3xf32>, %b: vector<2xf32>, %acc: vector<3x2xf32>) -> (i32, i32, i32, vector<3x2xf32>, vector<3xf32>) {
  %s = vector.reduction <add>, %v : vector<4xi32> into i32
  %m = vector.reduction <maxui>, %v : vector<4xi32> into i32
  %x = vector.reduction <xor>, %v : vector<4xi32> into i32
  %o = vector.outerproduct %a, %b, %acc {kind = #vector.kind<add>} : vector<3xf32>, vector<2xf32>
  %f = vector.fma %a, %a, %a : vector<3xf32>
  return %s, %m, %x, %o, %f : i32, i32, i32, vector<3x2xf32>, vector<3xf32>
}
"""
    v = np.array([5, -1, 2 ** 31 - 1, 3], np.int32)
    a = np.array([1.5, -2.0, 3.0], np.float32)
    b = np.array([2.0, 0.5], np.float32)
    acc = np.ones((3, 2), np.float32)
    s, m, x, o, f = host(text, [v, a, b, acc])
    assert s == np.int32(np.sum(v.astype(np.int64)) % 2 ** 32 - 2 ** 32 * 0) or \
        s == np.array([np.sum(v.astype(np.int64))]).astype(np.int32)[0]
    assert m == -1 and x == (5 ^ -1 ^ (2 ** 31 - 1) ^ 3)
    np.testing.assert_array_equal(o, np.outer(a, b) + 1)
    np.testing.assert_array_equal(f, a * a + a)


def test_memory_ops_in_a_kernel_with_masks_and_padding():
    text = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%src: memref<10x8xf32>, %dst: memref<10x8xf32>, %out: memref<10x4xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c6 = arith.constant 6 : index
      %v = vector.load %src[%t, %c4] : memref<10x8xf32>, vector<4xf32>
      %neg = arith.negf %v : vector<4xf32>
      vector.store %neg, %dst[%t, %c0] : memref<10x8xf32>, vector<4xf32>
      %n = arith.remui %t, %c4 : index
      %mask = vector.create_mask %n : vector<4xi1>
      %pad = arith.constant 100.0 : f32
      %padv = vector.broadcast %pad : f32 to vector<4xf32>
      %ml = vector.maskedload %src[%t, %c0], %mask, %padv : memref<10x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
      vector.maskedstore %dst[%t, %c4], %mask, %ml : memref<10x8xf32>, vector<4xi1>, vector<4xf32>
      %tr = vector.transfer_read %src[%t, %c6], %pad : memref<10x8xf32>, vector<4xf32>
      vector.transfer_write %tr, %out[%t, %c0] : vector<4xf32>, memref<10x4xf32>
      gpu.return
    }
  }
}
"""
    src = np.arange(80, dtype=np.float32).reshape(10, 8)
    dst = np.full((10, 8), -7.0, np.float32)
    out = np.zeros((10, 4), np.float32)
    gpu.launch(tileir.parse(text), "m::k", grid=(1,), block=(10,), args=[src, dst, out])
    expect = np.full((10, 8), -7.0, np.float32)
    expect[:, :4] = -src[:, 4:]
    for t in range(10):
        n = t % 4
        expect[t, 4:4 + n] = src[t, :n]
    np.testing.assert_array_equal(dst, expect)
    np.testing.assert_array_equal(out[:, :2], src[:, 6:])
    np.testing.assert_array_equal(out[:, 2:], 100.0)


def test_vector_load_past_the_end_is_an_error():
    text = """
func.func @main(%m: memref<6xf32>, %i: index) -> vector<4xf32> {
  %v = vector.load %m[%i] : memref<6xf32>, vector<4xf32>
  return %v : vector<4xf32>
}
"""
    np.testing.assert_array_equal(host(text, [np.arange(6, dtype=np.float32), 2])[0], [2, 3, 4, 5])
    with pytest.raises(MemoryAccessError, match="out of bounds"):
        host(text, [np.arange(6, dtype=np.float32), 3])


def test_gather_scatter_compress_expand():
    text = """
func.func @main(%m: memref<8xf32>, %o: memref<8xf32>, %idx: vector<4xi32>, %mask: vector<4xi1>) -> (vector<4xf32>, vector<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %padv = vector.broadcast %pad : f32 to vector<4xf32>
  %g = vector.gather %m[%c1] [%idx], %mask, %padv : memref<8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.scatter %o[%c0] [%idx], %mask, %g : memref<8xf32>, vector<4xi32>, vector<4xi1>, vector<4xf32>
  %e = vector.expandload %m[%c0], %mask, %padv : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.compressstore %o[%c1], %mask, %padv : memref<8xf32>, vector<4xi1>, vector<4xf32>
  return %g, %e : vector<4xf32>, vector<4xf32>
}
"""
    m = np.arange(8, dtype=np.float32) * 10
    o = np.zeros(8, np.float32)
    idx = np.array([6, 0, 3, 2], np.int32)
    mask = np.array([True, False, True, True])
    g, e = host(text, [m, o, idx, mask])
    np.testing.assert_array_equal(g, [70, -1, 40, 30])
    np.testing.assert_array_equal(e, [0, -1, 10, 20])
    expect = np.zeros(8, np.float32)
    expect[[6, 3, 2]] = [70, 40, 30]
    expect[1:4] = -1
    np.testing.assert_array_equal(o, expect)
