"""NumPy arrays as memref-of-vector arguments (``memref<4xvector<8xf32>>``): the array's shape
is the memref's followed by the vector's, its dtype the vector element's; it is used in place
(host functions and kernels write into it), strided memref layouts keep the array's strides,
and a wrong shape, dtype or non-contiguous vector axes is an ArgumentError.  Memref-of-vector
results come back in the same form.  Expectations come from NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute import ArgumentError

DOUBLE_INTO_LAST = """
func.func @main(%a: {t}) {{
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %a[%c0] : {t}
  %w = arith.addf %v, %v : vector<8xf32>
  memref.store %w, %a[%c3] : {t}
  return
}}"""


def _double_into_last(t: str = "memref<4xvector<8xf32>>") -> str:
    return DOUBLE_INTO_LAST.format(t=t)


def test_host_function_writes_the_array_in_place():
    a = np.arange(32, dtype=np.float32).reshape(4, 8)
    want = a.copy()
    want[3] = 2 * a[0]
    tileir.gpu.run(_double_into_last(), "main", args=[a])
    np.testing.assert_array_equal(a, want)


def test_strided_layout_keeps_the_arrays_strides():
    whole = np.arange(64, dtype=np.float32).reshape(8, 8)
    want = whole.copy()
    want[6] = 2 * whole[0]
    tileir.gpu.run(_double_into_last("memref<4xvector<8xf32>, strided<[2]>>"), "main",
                   args=[whole[::2]])
    np.testing.assert_array_equal(whole, want)


def test_dynamic_size_and_vector_ops_on_the_elements():
    src = """
func.func @main(%a: memref<?xvector<2x3xi32>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%i] : memref<?xvector<2x3xi32>>
    %t = vector.transpose %v, [1, 0] : vector<2x3xi32> to vector<3x2xi32>
    %s = vector.shape_cast %t : vector<3x2xi32> to vector<2x3xi32>
    memref.store %s, %a[%i] : memref<?xvector<2x3xi32>>
  }
  return
}"""
    a = np.arange(30, dtype=np.int32).reshape(5, 2, 3)
    want = np.transpose(a, (0, 2, 1)).reshape(5, 2, 3)
    tileir.gpu.run(src, "main", args=[a, 5])
    np.testing.assert_array_equal(a, want)


def test_zero_rank_memref_and_same_size_integer_dtypes():
    src = """
func.func @main(%z: memref<vector<4xi32>>) {
  %q = memref.load %z[] : memref<vector<4xi32>>
  %r = arith.addi %q, %q : vector<4xi32>
  memref.store %r, %z[] : memref<vector<4xi32>>
  return
}"""
    z = np.array([1, 2, 3, 0x80000000], dtype=np.uint32)      # reinterpreted as i32
    tileir.gpu.run(src, "main", args=[z])
    np.testing.assert_array_equal(z, np.array([2, 4, 6, 0], dtype=np.uint32))


def test_kernel_launch_writes_the_array_in_place():
    src = """
gpu.module @k {
  gpu.func @f(%a: memref<16xvector<4xf32>>, %b: memref<16xf32>) kernel {
    %i = gpu.thread_id x
    %v = memref.load %a[%i] : memref<16xvector<4xf32>>
    %s = vector.reduction <add>, %v : vector<4xf32> into f32
    %w = vector.broadcast %s : f32 to vector<4xf32>
    memref.store %w, %a[%i] : memref<16xvector<4xf32>>
    memref.store %s, %b[%i] : memref<16xf32>
    gpu.return
  }
}"""
    a = np.random.default_rng(0).integers(-9, 10, (16, 4)).astype(np.float32)
    sums = a.sum(axis=1)
    b = np.zeros(16, np.float32)
    tileir.gpu.launch(src, "k::f", grid=(1,), block=(16,), args=[a, b])
    np.testing.assert_array_equal(b, sums)
    np.testing.assert_array_equal(a, np.repeat(sums[:, None], 4, axis=1))


def test_memref_of_vectors_result_has_the_argument_form():
    src = """
func.func @main() -> memref<2xvector<3xf32>> {
  %m = memref.alloc() : memref<2xvector<3xf32>>
  %c1 = arith.constant 1 : index
  %v = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %z = arith.constant dense<0.0> : vector<3xf32>
  %c0 = arith.constant 0 : index
  memref.store %z, %m[%c0] : memref<2xvector<3xf32>>
  memref.store %v, %m[%c1] : memref<2xvector<3xf32>>
  return %m : memref<2xvector<3xf32>>
}"""
    (out,) = tileir.gpu.run(src, "main")
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [[0, 0, 0], [1, 2, 3]])


@pytest.mark.parametrize("array, message", [
    (np.ones(4, np.float32), "array of shape (4,) for memref<4xvector<8xf32>> (expects the "
                             "memref's shape followed by the vector shape (8,))"),
    (np.ones((4, 4), np.float32), "array of shape (4, 4) for memref<4xvector<8xf32>>"),
    (np.ones((4, 8)), "array of dtype float64 for memref<4xvector<8xf32>> (expects float32)"),
    (np.ones((4, 16), np.float32)[:, ::2], "the vector axes of the array (strides (8,)) are "
                                           "not contiguous"),
    (np.ones((3, 8), np.float32), "dimension 0 is 3, memref<4xvector<8xf32>> expects 4"),
    (np.ones((8, 8), np.float32)[::2], "stride 2 of dimension 0 does not match"),
])
def test_wrong_arrays_are_argument_errors(array, message):
    with pytest.raises(ArgumentError) as err:
        tileir.gpu.run(_double_into_last(), "main", args=[array])
    assert message in str(err.value)


def test_wrong_array_for_a_kernel_is_an_argument_error():
    src = """
gpu.module @k {
  gpu.func @f(%a: memref<2xvector<4xf32>>) kernel {
    gpu.return
  }
}"""
    with pytest.raises(ArgumentError, match="expects the memref's shape followed by"):
        tileir.gpu.launch(src, "k::f", args=[np.ones((2, 3), np.float32)])
