"""SIMT engine: vector dialect on the host and in kernels, against NumPy references."""

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import MemoryAccessError, UndefinedBehaviorError


def run(src, *args):
    return tileir.gpu.run(tileir.parse(src), "main", args=list(args))


def test_elementwise_ops_host():
    src = """
func.func @main(%a: memref<8xf32>, %o: memref<8xf32>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %v = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
  %w = vector.fma %v, %v, %v : vector<8xf32>
  %t = vector.shuffle %w, %v [7, 6, 5, 4, 3, 2, 1, 0] : vector<8xf32>, vector<8xf32>
  vector.store %t, %o[%c0] : memref<8xf32>, vector<8xf32>
  %e = vector.extract_strided_slice %v {offsets = [2], sizes = [4], strides = [1]} : vector<8xf32> to vector<4xf32>
  %x = vector.extract %e[1] : f32 from vector<4xf32>
  %b = vector.broadcast %x : f32 to vector<4xf32>
  %i = vector.insert %x, %e[%c0] : f32 into vector<4xf32>
  %r = arith.addf %b, %i : vector<4xf32>
  vector.store %r, %s[%c0] : memref<4xf32>, vector<4xf32>
  return
}"""
    a = np.arange(8, dtype=np.float32) * 0.5
    o = np.zeros(8, np.float32)
    s = np.zeros(4, np.float32)
    run(src, a, o, s)
    np.testing.assert_array_equal(o, (a * a + a)[::-1])
    e = a[2:6].copy()
    e[0] = e[1]
    np.testing.assert_array_equal(s, e + a[3])


def test_reduction_sequential_order_and_kinds():
    src = """
func.func @main(%a: memref<4xf32>, %b: memref<4xi32>, %o: memref<2xf32>, %p: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %acc = arith.constant 1.0 : f32
  %v = vector.load %a[%c0] : memref<4xf32>, vector<4xf32>
  %s = vector.reduction <add>, %v, %acc : vector<4xf32> into f32
  %m = vector.reduction <maximumf>, %v : vector<4xf32> into f32
  memref.store %s, %o[%c0] : memref<2xf32>
  memref.store %m, %o[%c1] : memref<2xf32>
  %w = vector.load %b[%c0] : memref<4xi32>, vector<4xi32>
  %r1 = vector.reduction <maxui>, %w : vector<4xi32> into i32
  %r2 = vector.reduction <minsi>, %w : vector<4xi32> into i32
  %r3 = vector.reduction <xor>, %w : vector<4xi32> into i32
  %r4 = vector.reduction <mul>, %w : vector<4xi32> into i32
  memref.store %r1, %p[%c0] : memref<4xi32>
  memref.store %r2, %p[%c1] : memref<4xi32>
  memref.store %r3, %p[%c2] : memref<4xi32>
  memref.store %r4, %p[%c3] : memref<4xi32>
  return
}"""
    a = np.array([1e8, 1.0, -1e8, 3.0], np.float32)
    b = np.array([-1, 7, 3, -5], np.int32)
    o = np.zeros(2, np.float32)
    p = np.zeros(4, np.int32)
    run(src, a, b, o, p)
    ref = np.float32(1.0)
    for x in a:                      # sequential element order from the accumulator
        ref = np.float32(ref + x)
    assert o[0] == ref
    assert o[1] == a.max()
    assert p[0] == -1 and p[1] == -5
    assert p[2] == np.bitwise_xor.reduce(b)
    assert p[3] == np.int32(np.prod(b.astype(np.int64)) & 0xffffffff).astype(np.int32) or \
        p[3] == np.prod(b)


def test_masks_and_transfer_read_padding():
    src = """
func.func @main(%m: memref<3x5xf32>, %o: memref<4x6xf32>, %t: memref<6x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %v = vector.transfer_read %m[%c1, %c1], %pad : memref<3x5xf32>, vector<4x6xf32>
  vector.transfer_write %v, %o[%c0, %c0] : vector<4x6xf32>, memref<4x6xf32>
  %c3 = arith.constant 3 : index
  %mask = vector.create_mask %n, %c3 : vector<4x6xi1>
  %w = vector.transfer_read %m[%c0, %c0], %pad, %mask {permutation_map = affine_map<(d0, d1) -> (d1, d0)>} : memref<3x5xf32>, vector<6x4xf32>
  vector.transfer_write %w, %t[%c0, %c0] : vector<6x4xf32>, memref<6x4xf32>
  return
}"""
    m = np.arange(15, dtype=np.float32).reshape(3, 5)
    o = np.zeros((4, 6), np.float32)
    t = np.zeros((6, 4), np.float32)
    run(src, m, o, t, 2)
    ref = np.full((4, 6), -1.0, np.float32)
    ref[:2, :4] = m[1:, 1:]
    np.testing.assert_array_equal(o, ref)
    # the mask has the memref dims' order (4 x 6 for a transposing map): dim 0 < 2, dim 1 < 3
    ref_t = np.full((6, 4), -1.0, np.float32)
    ref_t[:3, :2] = m[:2, :3].T
    np.testing.assert_array_equal(t, ref_t)


def test_vector_load_out_of_bounds_reported():
    src = """
func.func @main(%a: memref<8xf32>, %i: index) -> f32 {
  %v = vector.load %a[%i] : memref<8xf32>, vector<4xf32>
  %x = vector.extract %v[0] : f32 from vector<4xf32>
  return %x : f32
}"""
    a = np.arange(8, dtype=np.float32)
    assert run(src, a, 4)[0] == 4.0 if isinstance(run(src, a, 4), list) else True
    with pytest.raises(MemoryAccessError):
        run(src, a, 5)


def test_dynamic_extract_out_of_range_is_ub():
    src = """
func.func @main(%a: memref<4xi32>, %i: index) -> i32 {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<4xi32>, vector<4xi32>
  %x = vector.extract %v[%i] : i32 from vector<4xi32>
  return %x : i32
}"""
    a = np.array([5, 6, 7, 8], np.int32)
    assert int(np.asarray(run(src, a, 2)[0])) == 7
    with pytest.raises(UndefinedBehaviorError):
        run(src, a, 4)


def test_misc_shape_ops():
    src = """
func.func @main(%a: memref<6xi32>, %o: memref<6xi32>, %p: memref<3xi32>, %q: memref<6xi32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<6xi32>, vector<6xi32>
  %s = vector.shape_cast %v : vector<6xi32> to vector<2x3xi32>
  %t = vector.transpose %s, [1, 0] : vector<2x3xi32> to vector<3x2xi32>
  %f = vector.shape_cast %t : vector<3x2xi32> to vector<6xi32>
  vector.store %f, %o[%c0] : memref<6xi32>, vector<6xi32>
  %l, %r = vector.deinterleave %v : vector<6xi32> -> vector<3xi32>
  %d = arith.subi %r, %l : vector<3xi32>
  vector.store %d, %p[%c0] : memref<3xi32>, vector<3xi32>
  %st = vector.step : vector<3xindex>
  %sti = arith.index_cast %st : vector<3xindex> to vector<3xi32>
  %il = vector.interleave %l, %sti : vector<3xi32> -> vector<6xi32>
  vector.store %il, %q[%c0] : memref<6xi32>, vector<6xi32>
  return
}"""
    a = np.array([1, 4, 9, 16, 25, 36], np.int32)
    o, p, q = np.zeros(6, np.int32), np.zeros(3, np.int32), np.zeros(6, np.int32)
    run(src, a, o, p, q)
    np.testing.assert_array_equal(o, a.reshape(2, 3).T.reshape(-1))
    np.testing.assert_array_equal(p, a[1::2] - a[0::2])
    ref = np.empty(6, np.int32)
    ref[0::2], ref[1::2] = a[0::2], np.arange(3)
    np.testing.assert_array_equal(q, ref)


KERNEL = """
gpu.module @k {
  gpu.func @f(%a: memref<64x4xf32>, %o: memref<64xf32>, %m: memref<64x4xf32>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %bd = gpu.block_dim x
    %i0 = arith.muli %b, %bd : index
    %i = arith.addi %i0, %t : index
    %c0 = arith.constant 0 : index
    %z = arith.constant 0.0 : f32
    %v = vector.load %a[%i, %c0] : memref<64x4xf32>, vector<4xf32>
    %s = vector.reduction <add>, %v : vector<4xf32> into f32
    memref.store %s, %o[%i] : memref<64xf32>
    %mask = vector.create_mask %t : vector<4xi1>
    %pt = vector.broadcast %z : f32 to vector<4xf32>
    %w = vector.maskedload %a[%i, %c0], %mask, %pt : memref<64x4xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
    vector.maskedstore %m[%i, %c0], %mask, %w : memref<64x4xf32>, vector<4xi1>, vector<4xf32>
    gpu.return
  }
}
"""


def test_kernel_divergent_masks():
    a = np.random.default_rng(0).standard_normal((64, 4)).astype(np.float32)
    o = np.zeros(64, np.float32)
    m = np.full((64, 4), 7.0, np.float32)
    tileir.gpu.launch(tileir.parse(KERNEL), "k::f", grid=(16, 1, 1), block=(4, 1, 1),
                      args=[a, o, m])
    ref = ((a[:, 0] + a[:, 1]) + a[:, 2]) + a[:, 3]
    np.testing.assert_array_equal(o, ref)
    keep = np.arange(4)[None, :] < (np.arange(64) % 4)[:, None]
    np.testing.assert_array_equal(m, np.where(keep, a, 7.0))


def test_kernel_maskedstore_oob_reported():
    a = np.zeros((64, 4), np.float32)
    with pytest.raises(MemoryAccessError, match="out of bounds"):
        tileir.gpu.launch(tileir.parse(KERNEL), "k::f", grid=(17, 1, 1), block=(4, 1, 1),
                          args=[a, np.zeros(64, np.float32), np.zeros((64, 4), np.float32)])


def test_gather_scatter_expand_compress():
    src = """
func.func @main(%a: memref<8xf32>, %o: memref<8xf32>, %e: memref<4xf32>, %q: memref<8xf32>,
                %iv: memref<4xindex>, %mv: memref<4xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx = vector.load %iv[%c0] : memref<4xindex>, vector<4xindex>
  %mask = vector.load %mv[%c0] : memref<4xi1>, vector<4xi1>
  %m1 = arith.constant -1.0 : f32
  %pt = vector.broadcast %m1 : f32 to vector<4xf32>
  %g = vector.gather %a[%c1][%idx], %mask, %pt : memref<8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.scatter %o[%c0][%idx], %mask, %g : memref<8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
  %x = vector.expandload %a[%c1], %mask, %pt : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.store %x, %e[%c0] : memref<4xf32>, vector<4xf32>
  vector.compressstore %q[%c1], %mask, %x : memref<8xf32>, vector<4xi1>, vector<4xf32>
  return
}"""
    a = np.arange(8, dtype=np.float32) + 10
    o, e, q = np.zeros(8, np.float32), np.zeros(4, np.float32), np.zeros(8, np.float32)
    run(src, a, o, e, q, np.array([6, 0, 3, 5]), np.array([True, False, True, True]))
    g = np.array([a[7], -1, a[4], a[6]], np.float32)
    ref_o = np.zeros(8, np.float32)
    ref_o[[6, 3, 5]] = g[[0, 2, 3]]
    np.testing.assert_array_equal(o, ref_o)
    np.testing.assert_array_equal(e, [a[1], -1, a[2], a[3]])
    np.testing.assert_array_equal(q, [0, a[1], a[2], a[3], 0, 0, 0, 0])


def test_elements_bitcast_outerproduct_strided_insert():
    src = """
func.func @main(%o: memref<2x3xf32>, %b: memref<2xi32>, %s: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 2.0 : f32
  %y = arith.constant 3.0 : f32
  %v = vector.from_elements %x, %y : vector<2xf32>
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %mone = arith.constant -1.0 : f32
  %w = vector.from_elements %one, %half, %mone : vector<3xf32>
  %acc = vector.broadcast %one : f32 to vector<2x3xf32>
  %p = vector.outerproduct %v, %w, %acc : vector<2xf32>, vector<3xf32>
  vector.transfer_write %p, %o[%c0, %c0] {in_bounds = [true, true]} : vector<2x3xf32>, memref<2x3xf32>
  %bi = vector.bitcast %v : vector<2xf32> to vector<2xi32>
  vector.store %bi, %b[%c0] : memref<2xi32>, vector<2xi32>
  %m = vector.constant_mask [2] : vector<4xi1>
  %i0 = arith.constant 0 : i32
  %i7 = arith.constant 7 : i32
  %i8 = arith.constant 8 : i32
  %z = vector.broadcast %i0 : i32 to vector<4xi32>
  %t = vector.from_elements %i7, %i8 : vector<2xi32>
  %ins = vector.insert_strided_slice %t, %z {offsets = [1], strides = [1]} : vector<2xi32> into vector<4xi32>
  %e0, %e1, %e2, %e3 = vector.to_elements %ins : vector<4xi32>
  %r = vector.from_elements %e3, %e2, %e1, %e0 : vector<4xi32>
  vector.maskedstore %s[%c0], %m, %r : memref<4xi32>, vector<4xi1>, vector<4xi32>
  return
}"""
    o, b, s = np.zeros((2, 3), np.float32), np.zeros(2, np.int32), np.full(4, 9, np.int32)
    run(src, o, b, s)
    np.testing.assert_array_equal(o, np.outer([2, 3], [1, 0.5, -1]) + 1)
    np.testing.assert_array_equal(b, np.array([2, 3], np.float32).view(np.int32))
    np.testing.assert_array_equal(s, [0, 8, 9, 9])


def test_print_host():
    import io
    src = """
func.func @main() {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -2.0 : f32
  %v = vector.from_elements %a, %b : vector<2xf32>
  vector.print %v : vector<2xf32>
  return
}"""
    import contextlib
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        run(src)
    assert buf.getvalue() == "( 1.5, -2 )\n"


def test_kernel_dynamic_extract_insert_per_lane():
    src = """
gpu.module @k {
  gpu.func @f(%a: memref<8xi32>, %o: memref<32xi32>, %p: memref<32x8xi32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %v = vector.load %a[%c0] : memref<8xi32>, vector<8xi32>
    %pos = arith.subi %c8, %t : index
    %x = vector.extract %v[%pos] : i32 from vector<8xi32>
    memref.store %x, %o[%t] : memref<32xi32>
    %m = arith.constant -1 : i32
    %w = vector.insert %m, %v[%pos] : i32 into vector<8xi32>
    vector.store %w, %p[%t, %c0] : memref<32x8xi32>, vector<8xi32>
    gpu.return
  }
}"""
    a = np.arange(8, dtype=np.int32) * 3
    o, p = np.zeros(32, np.int32), np.zeros((32, 8), np.int32)
    # lanes 1..8 read positions 7..0
    src1 = src.replace("%pos = arith.subi %c8, %t : index",
                       "%c7 = arith.constant 7 : index\n    %pos = arith.subi %c7, %t : index")
    tileir.gpu.launch(tileir.parse(src1), "k::f", grid=(1, 1, 1), block=(8, 1, 1),
                      args=[a, o, p])
    pos = 7 - np.arange(8)
    np.testing.assert_array_equal(o[:8], a[pos])
    ref = np.tile(a, (8, 1))
    ref[np.arange(8), pos] = -1
    np.testing.assert_array_equal(p[:8], ref)
    # lane 0 reads position 8 of an 8-vector: undefined behaviour, reported for thread 0
    with pytest.raises(UndefinedBehaviorError, match="thread"):
        tileir.gpu.launch(tileir.parse(src), "k::f", grid=(1, 1, 1), block=(8, 1, 1),
                          args=[a, o, p])


def test_transfer_broadcast_dim_and_in_bounds_violation():
    src = """
func.func @main(%m: memref<4x5xf32>, %o: memref<3x5xf32>, %i: index) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (0, d1)>, in_bounds = [true, true]} : memref<4x5xf32>, vector<3x5xf32>
  vector.transfer_write %v, %o[%c0, %c0] : vector<3x5xf32>, memref<3x5xf32>
  return
}"""
    m = np.arange(20, dtype=np.float32).reshape(4, 5)
    o = np.zeros((3, 5), np.float32)
    run(src, m, o, 2)
    np.testing.assert_array_equal(o, np.tile(m[2], (3, 1)))
    with pytest.raises(MemoryAccessError):
        run(src, m, o, 4)


def test_print_in_kernel_one_line_per_thread():
    import contextlib
    import io
    src = """
gpu.module @k {
  gpu.func @f() kernel {
    %t = gpu.thread_id x
    %ti = arith.index_cast %t : index to i32
    %v = vector.broadcast %ti : i32 to vector<2xi32>
    vector.print %v : vector<2xi32>
    gpu.return
  }
}"""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tileir.gpu.launch(tileir.parse(src), "k::f", grid=(1, 1, 1), block=(3, 1, 1), args=[])
    assert buf.getvalue() == "( 0, 0 )\n( 1, 1 )\n( 2, 2 )\n"
