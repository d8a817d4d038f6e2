"""Vector-dialect behaviour found missing or wrong when tileir ran MLIR's vector CPU
integration tests (second round): ``vector.print str`` and punctuation after a value,
``vector.scan``, memrefs whose elements are vectors (``memref<8xvector<4xf32>>``),
``vector.type_cast``, and vector.load / vector.store of whole vector elements.  Every program is
our own; expectations come from NumPy or by hand."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.cli.opt import process_buffer


def printed(src: str, *args) -> str:
    out = io.StringIO()
    tileir.gpu.run(tileir.parse(src), "main", args=list(args), stdout=out)
    return out.getvalue()


def diagnostics(src: str) -> list[str]:
    return [d.message for d in process_buffer(src, "<stdin>").diagnostics]


# -- vector.print ---------------------------------------------------------------------------------

def test_print_string_literal_is_written_as_is_without_a_newline():
    src = r"""
func.func @main() {
  vector.print str "ab\tc"
  vector.print str "!\n"
  vector.print str "done\n"
  return
}"""
    assert printed(src) == "ab\tc!\ndone\n"


def test_print_value_takes_its_punctuation():
    src = """
func.func @main() {
  %v = arith.constant dense<[1, -2]> : vector<2xi32>
  %s = arith.constant 2.5 : f32
  vector.print punctuation <open>
  vector.print %v : vector<2xi32> punctuation <no_punctuation>
  vector.print punctuation <comma>
  vector.print %s : f32 punctuation <close>
  vector.print
  vector.print %s : f32 punctuation <comma>
  vector.print %s : f32
  return
}"""
    assert printed(src) == "( ( 1, -2 ), 2.5 )\n2.5, 2.5\n"


def test_print_string_with_punctuation_or_value_is_rejected():
    src = 'func.func @f() {\n  vector.print str "x" punctuation <comma>\n  return\n}\n'
    assert diagnostics(src) == ["'vector.print' op failed to verify that `source` or "
                                "`punctuation` are not set when printing strings"]


# -- vector.scan ----------------------------------------------------------------------------------

def _scan_ref(x: np.ndarray, init: np.ndarray, dim: int, inclusive: bool, fn):
    """(dest, accumulated value) by NumPy's ``accumulate``: inclusive scans accumulate the
    source; exclusive ones accumulate the initial value followed by all but the last slice."""
    if not inclusive:
        x = np.concatenate([np.expand_dims(init, dim), np.delete(x, -1, axis=dim)], axis=dim)
    dest = fn.accumulate(x, axis=dim, dtype=x.dtype)
    return dest, np.take(dest, -1, axis=dim)


SCAN = """
func.func @main(%a: memref<2x3x4xi32>, %ini: memref<{ishape}xi32>, %o: memref<2x3x4xi32>,
                %acc: memref<{ishape}xi32>) {{
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %x = vector.transfer_read %a[%c0, %c0, %c0], %z : memref<2x3x4xi32>, vector<2x3x4xi32>
  %i = vector.transfer_read %ini[%c0, %c0], %z : memref<{ishape}xi32>, vector<{ishape}xi32>
  %d, %r = vector.scan <{kind}>, %x, %i {{inclusive = {inc}, reduction_dim = {dim}}} :
      vector<2x3x4xi32>, vector<{ishape}xi32>
  vector.transfer_write %d, %o[%c0, %c0, %c0] : vector<2x3x4xi32>, memref<2x3x4xi32>
  vector.transfer_write %r, %acc[%c0, %c0] : vector<{ishape}xi32>, memref<{ishape}xi32>
  return
}}"""


@pytest.mark.parametrize("kind, fn", [("add", np.add), ("maxsi", np.maximum),
                                      ("mul", np.multiply), ("xor", np.bitwise_xor)])
@pytest.mark.parametrize("dim", [0, 1, 2])
@pytest.mark.parametrize("inclusive", [True, False])
def test_scan_matches_a_sequential_reference(kind, fn, dim, inclusive):
    rng = np.random.default_rng(dim * 7 + inclusive)
    a = rng.integers(-9, 10, (2, 3, 4)).astype(np.int32)
    ishape = tuple(n for d, n in enumerate(a.shape) if d != dim)
    init = rng.integers(-9, 10, ishape).astype(np.int32)
    o = np.zeros_like(a)
    acc = np.zeros_like(init)
    src = SCAN.format(ishape="x".join(map(str, ishape)), kind=kind,
                      inc=str(inclusive).lower(), dim=dim)
    tileir.gpu.run(tileir.parse(src), "main", args=[a, init, o, acc])
    with np.errstate(over="ignore"):
        want_d, want_r = _scan_ref(a, init, dim, inclusive, fn)
    np.testing.assert_array_equal(o, want_d)
    np.testing.assert_array_equal(acc, want_r)


def test_scan_hand_computed_float_example():
    # x = [[1, 2], [3, 4], [5, 6]], initial value 10 for every column / row
    src = """
func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : vector<3x2xf32>
  %i0 = arith.constant dense<10.0> : vector<2xf32>
  %i1 = arith.constant dense<10.0> : vector<3xf32>
  %a:2 = vector.scan <add>, %x, %i0 {inclusive = true, reduction_dim = 0} : vector<3x2xf32>, vector<2xf32>
  %b:2 = vector.scan <add>, %x, %i1 {inclusive = false, reduction_dim = 1} : vector<3x2xf32>, vector<3xf32>
  %c:2 = vector.scan <minimumf>, %x, %i0 {inclusive = false, reduction_dim = 0} : vector<3x2xf32>, vector<2xf32>
  vector.print %a#0 : vector<3x2xf32>
  vector.print %a#1 : vector<2xf32>
  vector.print %b#0 : vector<3x2xf32>
  vector.print %b#1 : vector<3xf32>
  vector.print %c#0 : vector<3x2xf32>
  vector.print %c#1 : vector<2xf32>
  return
}"""
    assert printed(src).splitlines() == [
        "( ( 1, 2 ), ( 4, 6 ), ( 9, 12 ) )", "( 9, 12 )",        # initial value unused
        "( ( 10, 11 ), ( 10, 13 ), ( 10, 15 ) )", "( 11, 13, 15 )",  # last element unused
        "( ( 10, 10 ), ( 1, 2 ), ( 1, 2 ) )", "( 1, 2 )"]


def test_scan_in_a_kernel_per_thread():
    text = """
gpu.module @k {
  gpu.func @f(%a: memref<8x4xi32>, %o: memref<8x4xi32>, %r: memref<8xi32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %v = vector.load %a[%t, %c0] : memref<8x4xi32>, vector<4xi32>
    %ti = arith.index_cast %t : index to i32
    %init = vector.broadcast %ti : i32 to vector<i32>
    %d, %acc = vector.scan <add>, %v, %init {inclusive = false, reduction_dim = 0} : vector<4xi32>, vector<i32>
    vector.store %d, %o[%t, %c0] : memref<8x4xi32>, vector<4xi32>
    %s = vector.extract %acc[] : i32 from vector<i32>
    memref.store %s, %r[%t] : memref<8xi32>
    gpu.return
  }
}"""
    a = np.arange(32, dtype=np.int32).reshape(8, 4) % 5 - 2
    o = np.zeros_like(a)
    r = np.zeros(8, np.int32)
    tileir.gpu.launch(tileir.parse(text), "k::f", grid=(1,), block=(8,), args=[a, o, r])
    want = np.arange(8)[:, None] + np.concatenate([np.zeros((8, 1), np.int32),
                                                   np.cumsum(a, axis=1)[:, :-1]], axis=1)
    np.testing.assert_array_equal(o, want)
    np.testing.assert_array_equal(r, want[:, -1])


def test_scan_prints_like_mlir_opt():
    src = ("func.func @f(%x: vector<4xi32>, %y: vector<i32>) {\n"
           "  %a:2 = vector.scan <maxsi>, %x, %y {reduction_dim = 0, inclusive = false} : "
           "vector<4xi32>, vector<i32>\n  return\n}\n")
    result = process_buffer(src, "<stdin>")
    assert not result.diagnostics
    assert ("%dest, %accumulated_value = vector.scan <maxsi>, %arg0, %arg1 {inclusive = false, "
            "reduction_dim = 0 : i64} : vector<4xi32>, vector<i32>") in \
        tileir.text.print_op(result.module)


# -- memrefs of vectors ---------------------------------------------------------------------------

def test_memref_of_vectors_on_the_host():
    src = """
func.func @main(%out: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.alloc() : memref<3xvector<4xf32>>
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %b = arith.constant dense<[-1.0, -2.0, -3.0, -4.0]> : vector<4xf32>
  memref.store %a, %m[%c0] : memref<3xvector<4xf32>>
  vector.store %b, %m[%c2] : memref<3xvector<4xf32>>, vector<4xf32>
  %x = memref.load %m[%c0] : memref<3xvector<4xf32>>
  %y = vector.load %m[%c2] : memref<3xvector<4xf32>>, vector<4xf32>
  %s = arith.addf %x, %y : vector<4xf32>
  %t = arith.addf %x, %x : vector<4xf32>
  memref.store %t, %m[%c1] : memref<3xvector<4xf32>>
  %p = memref.load %m[%c1] : memref<3xvector<4xf32>>
  vector.print %s : vector<4xf32>
  vector.print %p : vector<4xf32>
  %flat = vector.type_cast %m : memref<3xvector<4xf32>> to memref<vector<3x4xf32>>
  %all = memref.load %flat[] : memref<vector<3x4xf32>>
  vector.transfer_write %all, %out[%c0, %c0] : vector<3x4xf32>, memref<3x4xf32>
  memref.dealloc %m : memref<3xvector<4xf32>>
  return
}"""
    out = np.zeros((3, 4), np.float32)
    assert printed(src, out).splitlines()[:2] == ["( 0, 0, 0, 0 )", "( 2, 4, 6, 8 )"]
    np.testing.assert_array_equal(out, [[1, 2, 3, 4], [2, 4, 6, 8], [-1, -2, -3, -4]])


def test_memref_of_vectors_private_to_each_thread():
    text = """
gpu.module @k {
  gpu.func @f(%o: memref<4x2x3xi32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = memref.alloca() : memref<2xvector<3xi32>>
    %ti = arith.index_cast %t : index to i32
    %v = vector.broadcast %ti : i32 to vector<3xi32>
    %s = vector.step : vector<3xindex>
    %si = arith.index_cast %s : vector<3xindex> to vector<3xi32>
    %w = arith.addi %v, %si : vector<3xi32>
    memref.store %v, %m[%c0] : memref<2xvector<3xi32>>
    memref.store %w, %m[%c1] : memref<2xvector<3xi32>>
    %a = memref.load %m[%c0] : memref<2xvector<3xi32>>
    %b = memref.load %m[%c1] : memref<2xvector<3xi32>>
    vector.store %a, %o[%t, %c0, %c0] : memref<4x2x3xi32>, vector<3xi32>
    vector.store %b, %o[%t, %c1, %c0] : memref<4x2x3xi32>, vector<3xi32>
    gpu.return
  }
}"""
    o = np.zeros((4, 2, 3), np.int32)
    tileir.gpu.launch(tileir.parse(text), "k::f", grid=(1,), block=(4,), args=[o])
    t = np.arange(4)[:, None]
    np.testing.assert_array_equal(o[:, 0], np.broadcast_to(t, (4, 3)))
    np.testing.assert_array_equal(o[:, 1], t + np.arange(3))


def test_gather_into_vectors_held_in_memory():
    # a vector of values and a vector of indices per row, both kept in memrefs of vectors
    src = """
func.func @main(%x: memref<6xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %vals = memref.alloc() : memref<2xvector<3xf32>>
  %idx = memref.alloc() : memref<2xvector<3xi32>>
  %v0 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %v1 = arith.constant dense<[0.5, 0.5, 4.0]> : vector<3xf32>
  %i0 = arith.constant dense<[0, 2, 5]> : vector<3xi32>
  %i1 = arith.constant dense<[1, 1, 3]> : vector<3xi32>
  memref.store %v0, %vals[%c0] : memref<2xvector<3xf32>>
  memref.store %v1, %vals[%c1] : memref<2xvector<3xf32>>
  memref.store %i0, %idx[%c0] : memref<2xvector<3xi32>>
  memref.store %i1, %idx[%c1] : memref<2xvector<3xi32>>
  %mask = vector.constant_mask [3] : vector<3xi1>
  %z = arith.constant 0.0 : f32
  %pass = vector.broadcast %z : f32 to vector<3xf32>
  %c2 = arith.constant 2 : index
  scf.for %r = %c0 to %c2 step %c1 {
    %a = memref.load %vals[%r] : memref<2xvector<3xf32>>
    %i = memref.load %idx[%r] : memref<2xvector<3xi32>>
    %g = vector.gather %x[%c0][%i], %mask, %pass : memref<6xf32>, vector<3xi32>, vector<3xi1>, vector<3xf32> into vector<3xf32>
    %p = arith.mulf %a, %g : vector<3xf32>
    %s = vector.reduction <add>, %p : vector<3xf32> into f32
    memref.store %s, %out[%r] : memref<2xf32>
  }
  return
}"""
    x = np.array([1, 2, 3, 4, 5, 6], np.float32)
    out = np.zeros(2, np.float32)
    tileir.gpu.run(tileir.parse(src), "main", args=[x, out])
    np.testing.assert_array_equal(out, [1 * 1 + 2 * 3 + 3 * 6, 0.5 * 2 + 0.5 * 2 + 4 * 4])


# -- vector.type_cast -----------------------------------------------------------------------------

def test_type_cast_sees_the_same_memory_both_ways():
    src = """
func.func @main(%a: memref<2x3xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %whole = vector.type_cast %a : memref<2x3xi32> to memref<vector<2x3xi32>>
  %rows = vector.type_cast %a : memref<2x3xi32> to memref<2xvector<3xi32>>
  %v = memref.load %whole[] : memref<vector<2x3xi32>>
  vector.print %v : vector<2x3xi32>
  %r = memref.load %rows[%c1] : memref<2xvector<3xi32>>
  %n = arith.constant dense<[7, 8, 9]> : vector<3xi32>
  memref.store %n, %rows[%c0] : memref<2xvector<3xi32>>
  %e = memref.load %a[%c0, %c2] : memref<2x3xi32>
  vector.print %r : vector<3xi32>
  vector.print %e : i32
  %ten = arith.constant 10 : i32
  memref.store %ten, %a[%c1, %c1] : memref<2x3xi32>
  %w = memref.load %whole[] : memref<vector<2x3xi32>>
  vector.print %w : vector<2x3xi32>
  return
}"""
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert printed(src, a).splitlines()[:4] == [
        "( ( 0, 1, 2 ), ( 3, 4, 5 ) )", "( 3, 4, 5 )", "9",
        "( ( 7, 8, 9 ), ( 3, 10, 5 ) )"]
    np.testing.assert_array_equal(a, [[7, 8, 9], [3, 10, 5]])


def test_type_cast_of_a_per_thread_allocation_in_a_kernel():
    text = """
gpu.module @k {
  gpu.func @f(%o: memref<4x4xf32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %m = memref.alloca() : memref<2x2xf32>
    %tf = arith.index_cast %t : index to i32
    %f = arith.sitofp %tf : i32 to f32
    %v = vector.broadcast %f : f32 to vector<2x2xf32>
    %one = arith.constant dense<[[0.0, 0.25], [0.5, 0.75]]> : vector<2x2xf32>
    %w = arith.addf %v, %one : vector<2x2xf32>
    %cast = vector.type_cast %m : memref<2x2xf32> to memref<vector<2x2xf32>>
    memref.store %w, %cast[] : memref<vector<2x2xf32>>
    %a = memref.load %m[%c0, %c0] : memref<2x2xf32>
    %c1 = arith.constant 1 : index
    %b = memref.load %m[%c1, %c1] : memref<2x2xf32>
    memref.store %a, %o[%t, %c0] : memref<4x4xf32>
    memref.store %b, %o[%t, %c1] : memref<4x4xf32>
    %rows = vector.type_cast %m : memref<2x2xf32> to memref<2xvector<2xf32>>
    %r = memref.load %rows[%c1] : memref<2xvector<2xf32>>
    vector.store %r, %o[%t, %c2] : memref<4x4xf32>, vector<2xf32>
    gpu.return
  }
}"""
    o = np.zeros((4, 4), np.float32)
    tileir.gpu.launch(tileir.parse(text), "k::f", grid=(1,), block=(4,), args=[o])
    t = np.arange(4, dtype=np.float32)[:, None]
    np.testing.assert_array_equal(o, t + np.array([[0.0, 0.75, 0.5, 0.75]], np.float32))


@pytest.mark.parametrize("body, message", [
    ("%0 = vector.type_cast %m : memref<5x4x3xf32> to memref<vector<5x4xf32>>",
     "'vector.type_cast' op expects concatenated result and operand shapes to be equal: "
     "'memref<vector<5x4xf32>>'"),
    ("%0 = vector.type_cast %m : memref<5x4x3xf32> to memref<5xvector<4x3xi32>>",
     "'vector.type_cast' op expects result and operand with same underlying scalar type: "
     "'memref<5xvector<4x3xi32>>'"),
    ("%0 = vector.type_cast %m : memref<5x4x3xf32> to vector<5x4x3xf32>",
     "custom op 'vector.type_cast' invalid kind of type specified: expected builtin.memref, "
     "but found 'vector<5x4x3xf32>'"),
])
def test_type_cast_verifier(body, message):
    src = f"func.func @f(%m: memref<5x4x3xf32>) {{\n  {body}\n  return\n}}\n"
    assert diagnostics(src) == [message]


@pytest.mark.parametrize("body, message", [
    ("%0 = vector.load %n[%i] : memref<4xf32>, vector<4xi32>",
     "'vector.load' op base and result element types should match"),
    ("vector.store %w, %n[%i] : memref<4xf32>, vector<4xi32>",
     "'vector.store' op base and valueToStore element type should match"),
    ("%0 = vector.load %m[%i] : memref<4xvector<8xf32>>, vector<4xf32>",
     "'vector.load' op base memref and result vector types should match"),
    ("%0 = vector.load %s[%i, %i] : memref<4x4xf32, strided<[4, 2]>>, vector<2xf32>",
     "'vector.load' op most minor memref dim must have unit stride"),
])
def test_load_store_verifier(body, message):
    src = ("func.func @f(%m: memref<4xvector<8xf32>>, %n: memref<4xf32>, "
           "%s: memref<4x4xf32, strided<[4, 2]>>, %i: index, %w: vector<4xi32>) {\n"
           f"  {body}\n  return\n}}\n")
    assert diagnostics(src) == [message]


# -- 4-bit (and other narrow) integers ------------------------------------------------------------

def _i4(x) -> np.ndarray:
    """Two's-complement 4-bit values of the integers ``x``."""
    return ((np.asarray(x, dtype=np.int64) + 8) % 16) - 8


def test_i4_vectors_wrap_print_and_reduce():
    vals = list(range(-8, 16))                  # 8..15 are written unsigned: -8..-1
    src = f"""
func.func @main() {{
  %v = arith.constant dense<{vals}> : vector<24xi4>
  vector.print %v : vector<24xi4>
  %add = vector.reduction <add>, %v : vector<24xi4> into i4
  %mul = vector.reduction <mul>, %v : vector<24xi4> into i4
  %max = vector.reduction <maxsi>, %v : vector<24xi4> into i4
  %umax = vector.reduction <maxui>, %v : vector<24xi4> into i4
  %or = vector.reduction <or>, %v : vector<24xi4> into i4
  vector.print %add : i4
  vector.print %mul : i4
  vector.print %max : i4
  vector.print %umax : i4
  vector.print %or : i4
  %u = vector.bitcast %v : vector<24xi4> to vector<24xui4>
  vector.print %u : vector<24xui4>
  return
}}"""
    v = _i4(vals)
    lines = printed(src).splitlines()
    assert lines[0] == "( " + ", ".join(map(str, v)) + " )"
    assert lines[1:6] == [str(_i4(v.sum())), str(_i4(np.prod(v))), "7", "-1", "-1"]
    assert lines[6] == "( " + ", ".join(str(x % 16) for x in v) + " )"


def test_i4_arithmetic_wraps_to_four_bits():
    src = """
func.func @main(%o: memref<6xi8>) {
  %c0 = arith.constant 0 : index
  %a = arith.constant dense<[7, -8, 5, -3, 6, 1]> : vector<6xi4>
  %b = arith.constant dense<[1, -1, 5, 2, -7, 15]> : vector<6xi4>
  %s = arith.addi %a, %b : vector<6xi4>
  %p = arith.muli %a, %b : vector<6xi4>
  %d = arith.subi %a, %b : vector<6xi4>
  %sp = arith.addi %s, %p : vector<6xi4>
  %r = arith.xori %sp, %d : vector<6xi4>
  %w = arith.extsi %r : vector<6xi4> to vector<6xi8>
  vector.store %w, %o[%c0] : memref<6xi8>, vector<6xi8>
  return
}"""
    a, b = _i4([7, -8, 5, -3, 6, 1]), _i4([1, -1, 5, 2, -7, 15])
    o = np.zeros(6, np.int8)
    tileir.gpu.run(tileir.parse(src), "main", args=[o])
    want = _i4(_i4(_i4(a + b) + _i4(a * b)) ^ _i4(a - b))
    np.testing.assert_array_equal(o, want)


def test_i4_scalars_in_a_kernel_wrap_per_thread():
    text = """
gpu.module @k {
  gpu.func @f(%o: memref<8xi8>, %u: memref<8xi8>) kernel {
    %t = gpu.thread_id x
    %a = arith.constant 7 : i4
    %b = arith.index_cast %t : index to i4
    %s = arith.addi %a, %b : i4
    %w = arith.extsi %s : i4 to i8
    %x = arith.extui %s : i4 to i8
    memref.store %w, %o[%t] : memref<8xi8>
    memref.store %x, %u[%t] : memref<8xi8>
    gpu.return
  }
}"""
    o = np.zeros(8, np.int8)
    u = np.zeros(8, np.int8)
    tileir.gpu.launch(tileir.parse(text), "k::f", grid=(1,), block=(8,), args=[o, u])
    np.testing.assert_array_equal(o, _i4(7 + np.arange(8)))
    np.testing.assert_array_equal(u, (7 + np.arange(8)) % 16)


def test_i4_memory_and_global_initializers():
    src = """
memref.global "private" constant @g : memref<4xi4> = dense<[1, 8, 15, -3]>
func.func @main() {
  %m = memref.get_global @g : memref<4xi4>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 0 : i4
  %v = vector.transfer_read %m[%c0], %p : memref<4xi4>, vector<4xi4>
  vector.print %v : vector<4xi4>
  %a = memref.alloc() : memref<2xi4>
  %seven = arith.constant 7 : i4
  %x = arith.addi %seven, %seven : i4
  memref.store %x, %a[%c1] : memref<2xi4>
  %y = memref.load %a[%c1] : memref<2xi4>
  %gt = arith.cmpi ugt, %y, %seven : i4
  vector.print %y : i4
  vector.print %gt : i1
  return
}"""
    assert printed(src).splitlines()[:3] == ["( 1, -8, -1, -3 )", "-2", "1"]


def test_bitcast_packs_narrow_elements_low_bits_first():
    src = """
func.func @main() {
  %a = arith.constant dense<[1, -2, 7, -8, 3, 15, 0, 5]> : vector<8xi4>
  %b = vector.bitcast %a : vector<8xi4> to vector<4xi8>
  %c = vector.bitcast %b : vector<4xi8> to vector<8xi4>
  %m = arith.constant dense<[1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]> : vector<16xi1>
  %n = vector.bitcast %m : vector<16xi1> to vector<2xi8>
  %k = vector.bitcast %n : vector<2xi8> to vector<16xi1>
  %f = arith.constant dense<[1.0, -2.0]> : vector<2xf32>
  %g = vector.bitcast %f : vector<2xf32> to vector<16xi4>
  vector.print %b : vector<4xi8>
  vector.print %c : vector<8xi4>
  vector.print %n : vector<2xi8>
  vector.print %k : vector<16xi1>
  vector.print %g : vector<16xi4>
  return
}"""
    # byte k holds element 2k in its low nibble and element 2k+1 in its high nibble
    assert printed(src).splitlines()[:5] == [
        "( -31, -121, -13, 80 )",                       # 0xE1, 0x87, 0xF3, 0x50
        "( 1, -2, 7, -8, 3, -1, 0, 5 )",
        "( 57, -128 )",                                  # 0b00111001, 0b10000000
        "( 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 )",
        "( 0, 0, 0, 0, 0, -8, -1, 3, 0, 0, 0, 0, 0, 0, 0, -4 )"]  # 0x3F800000, 0xC0000000


def test_bitcast_between_same_width_flavours_keeps_values():
    src = """
func.func @main() {
  %b = arith.constant dense<[true, false, true]> : vector<3xi1>
  %s = vector.bitcast %b : vector<3xi1> to vector<3xsi1>
  %u = vector.bitcast %b : vector<3xi1> to vector<3xui1>
  %n = arith.constant dense<[-1, 9]> : vector<2xi4>
  %un = vector.bitcast %n : vector<2xi4> to vector<2xui4>
  vector.print %s : vector<3xsi1>
  vector.print %u : vector<3xui1>
  vector.print %un : vector<2xui4>
  return
}"""
    assert printed(src).splitlines()[:3] == ["( 1, 0, 1 )", "( 1, 0, 1 )", "( 15, 9 )"]
