"""Vector-dialect semantics found to differ from MLIR's CPU lowering when tileir's output was
compared with MLIR's vector integration tests: 0-d vector printing and masks, unsigned and
signed integer element types, contraction traits written as an attribute alias, transfer masks
with broadcast dimensions, and gather/scatter offsets that run past the innermost dimension.
Every program here is small and its expected output is derived by hand or with NumPy."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import MemoryAccessError


def printed(src: str, *args) -> list[str]:
    out = io.StringIO()
    tileir.gpu.run(tileir.parse(src), "main", args=list(args), stdout=out)
    return out.getvalue().splitlines()


# -- vector.print of 0-d vectors ------------------------------------------------------------------

def test_zero_d_vector_prints_in_parentheses_but_scalar_does_not():
    src = """
func.func @main() {
  %s = arith.constant 7.5 : f32
  %v = vector.broadcast %s : f32 to vector<f32>
  %i = arith.constant dense<-3> : vector<i32>
  %e = vector.extract %v[] : f32 from vector<f32>
  vector.print %v : vector<f32>
  vector.print %i : vector<i32>
  vector.print %e : f32
  vector.print %s : f32
  return
}"""
    assert printed(src) == ["( 7.5 )", "( -3 )", "7.5", "7.5"]


# -- 0-d masks ------------------------------------------------------------------------------------

def test_zero_d_constant_mask_and_create_mask():
    src = """
func.func @main(%n: index, %m: index) {
  %a = vector.constant_mask [0] : vector<i1>
  %b = vector.constant_mask [1] : vector<i1>
  %c = vector.create_mask %n : vector<i1>
  %d = vector.create_mask %m : vector<i1>
  vector.print %a : vector<i1>
  vector.print %b : vector<i1>
  vector.print %c : vector<i1>
  vector.print %d : vector<i1>
  return
}"""
    # create_mask's single bound: the element is set iff the bound is positive.
    assert printed(src, 0, 3) == ["( 0 )", "( 1 )", "( 0 )", "( 1 )"]
    assert printed(src, -2, 1) == ["( 0 )", "( 1 )", "( 0 )", "( 1 )"]


# -- signed / unsigned element types --------------------------------------------------------------

@pytest.mark.parametrize("bits", [8, 16, 32, 64])
def test_unsigned_vector_prints_zero_extended(bits):
    vals = [0, 1, (1 << (bits - 1)) - 1, 1 << (bits - 1), (1 << bits) - 2, (1 << bits) - 1]
    lit = ", ".join(str(v) for v in vals)
    n = len(vals)
    src = f"""
func.func @main() {{
  %a = arith.constant dense<[{lit}]> : vector<{n}xi{bits}>
  %u = vector.bitcast %a : vector<{n}xi{bits}> to vector<{n}xui{bits}>
  %s = vector.bitcast %a : vector<{n}xi{bits}> to vector<{n}xsi{bits}>
  vector.print %a : vector<{n}xi{bits}>
  vector.print %u : vector<{n}xui{bits}>
  vector.print %s : vector<{n}xsi{bits}>
  return
}}"""
    signed = [v - (1 << bits) if v >= 1 << (bits - 1) else v for v in vals]
    as_signed = "( " + ", ".join(str(v) for v in signed) + " )"
    as_unsigned = "( " + ", ".join(str(v) for v in vals) + " )"
    assert printed(src) == [as_signed, as_unsigned, as_signed]


def test_reductions_over_signed_and_unsigned_element_types():
    vals = [-5, 3, 100, -128, 7, 1]
    src = """
func.func @main() {
  %a = arith.constant dense<[-5, 3, 100, -128, 7, 1]> : vector<6xi8>
  %s = vector.bitcast %a : vector<6xi8> to vector<6xsi8>
  %u = vector.bitcast %a : vector<6xi8> to vector<6xui8>
  %r0 = vector.reduction <add>, %s : vector<6xsi8> into si8
  %r1 = vector.reduction <minsi>, %s : vector<6xsi8> into si8
  %r2 = vector.reduction <maxui>, %u : vector<6xui8> into ui8
  %r3 = vector.reduction <minui>, %u : vector<6xui8> into ui8
  %r4 = vector.reduction <xor>, %u : vector<6xui8> into ui8
  vector.print %r0 : si8
  vector.print %r1 : si8
  vector.print %r2 : ui8
  vector.print %r3 : ui8
  vector.print %r4 : ui8
  return
}"""
    s = np.array(vals, np.int8)
    u = s.view(np.uint8)
    wrapped_sum = int(np.sum(s.astype(np.int64))) & 0xFF
    wrapped_sum = wrapped_sum - 256 if wrapped_sum >= 128 else wrapped_sum
    xor = 0
    for x in u:
        xor ^= int(x)
    assert printed(src) == [str(wrapped_sum), str(int(s.min())), str(int(u.max())),
                            str(int(u.min())), str(xor)]


# -- vector.contract with its traits given as an attribute alias -----------------------------------

def test_contract_traits_written_as_a_dictionary_alias():
    src = """
#mm = {
  indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                   affine_map<(i, j, k) -> (i, j)>],
  iterator_types = ["parallel", "parallel", "reduction"]
}
func.func @main(%pa: memref<2x3xf32>, %pb: memref<3x2xf32>, %pc: memref<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %a = vector.load %pa[%c0, %c0] : memref<2x3xf32>, vector<2x3xf32>
  %b = vector.load %pb[%c0, %c0] : memref<3x2xf32>, vector<3x2xf32>
  %z = arith.constant dense<1.0> : vector<2x2xf32>
  %r = vector.contract #mm %a, %b, %z : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32>
  vector.store %r, %pc[%c0, %c0] : memref<2x2xf32>, vector<2x2xf32>
  return
}"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = (np.arange(6, dtype=np.float32) - 2).reshape(3, 2)
    c = np.zeros((2, 2), np.float32)
    tileir.gpu.run(tileir.parse(src), "main", args=[a, b, c])
    np.testing.assert_array_equal(c, a @ b + 1)
    # and it still prints in the inline form
    assert "vector.contract {indexing_maps" in tileir.print(tileir.parse(src))


# -- transfer_read masks with broadcast dimensions --------------------------------------------------

def test_transfer_read_mask_drops_broadcast_dimensions():
    src = """
func.func @main(%m: memref<3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant -1.0 : f32
  %row_mask = arith.constant dense<[true, false, true, true, false]> : vector<5xi1>
  %col_mask = arith.constant dense<[false, true, true]> : vector<3xi1>
  %r = vector.transfer_read %m[%c1, %c0], %pad, %row_mask
      {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>}
      : memref<3x4xf32>, vector<2x5xf32>
  %t = vector.transfer_read %m[%c0, %c1], %pad, %col_mask
      {in_bounds = [false, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>}
      : memref<3x4xf32>, vector<3x2xf32>
  vector.print %r : vector<2x5xf32>
  vector.print %t : vector<3x2xf32>
  return
}"""
    m = np.arange(12, dtype=np.float32).reshape(3, 4) * 10
    # %r: row 1 of m, columns 0..4 (column 4 is outside: padding), masked by row_mask,
    # broadcast to 2 rows.
    row = [m[1, j] if keep and j < 4 else -1.0 for j, keep in
           enumerate([True, False, True, True, False])]
    # %t: column 1 of m, rows 0..2, masked by col_mask, each broadcast to 2 lanes.
    col = [m[i, 1] if keep else -1.0 for i, keep in enumerate([False, True, True])]

    def fmt(x):
        return "%g" % x
    r_text = "( " + ", ".join(["( " + ", ".join(fmt(x) for x in row) + " )"] * 2) + " )"
    t_text = "( " + ", ".join("( " + fmt(x) + ", " + fmt(x) + " )" for x in col) + " )"
    assert printed(src, m) == [r_text, t_text]
    # The masks' inferred types are the compressed ones, so the printed text parses again.
    again = tileir.print(tileir.parse(tileir.print(tileir.parse(src))))
    assert again == tileir.print(tileir.parse(src))


# -- gather/scatter offsets past the innermost dimension -------------------------------------------

def test_gather_offsets_carry_into_following_rows_of_a_dense_memref():
    src = """
func.func @main(%m: memref<4x3xf32>, %o: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx = arith.constant dense<[0, 2, 3, 5, 7, 10]> : vector<6xi32>
  %mask = arith.constant dense<true> : vector<6xi1>
  %pass = arith.constant dense<0.0> : vector<6xf32>
  %g = vector.gather %m[%c0, %c1][%idx], %mask, %pass
      : memref<4x3xf32>, vector<6xi32>, vector<6xi1>, vector<6xf32> into vector<6xf32>
  vector.store %g, %o[%c0] : memref<6xf32>, vector<6xf32>
  return
}"""
    m = np.arange(12, dtype=np.float32).reshape(4, 3) + 100
    o = np.zeros(6, np.float32)
    tileir.gpu.run(tileir.parse(src), "main", args=[m, o])
    # offsets count elements from m[0, 1] in row-major order
    np.testing.assert_array_equal(o, m.reshape(-1)[1 + np.array([0, 2, 3, 5, 7, 10])])


def test_scatter_offsets_carry_into_following_rows_of_a_dense_memref():
    src = """
func.func @main(%m: memref<3x4xi32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %idx = arith.constant dense<[-3, 0, 2, 5]> : vector<4xindex>
  %mask = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  %v = arith.constant dense<[7, 8, 9, 10]> : vector<4xi32>
  vector.scatter %m[%c1, %c2][%idx], %mask, %v
      : memref<3x4xi32>, vector<4xindex>, vector<4xi1>, vector<4xi32>
  return
}"""
    m = np.zeros((3, 4), np.int32)
    tileir.gpu.run(tileir.parse(src), "main", args=[m])
    want = np.zeros(12, np.int32)
    base = 1 * 4 + 2
    for off, val, keep in zip([-3, 0, 2, 5], [7, 8, 9, 10], [True, True, False, True]):
        if keep:
            want[base + off] = val
    np.testing.assert_array_equal(m.reshape(-1), want)


def test_gather_offset_past_the_whole_memref_is_still_reported():
    src = """
func.func @main(%m: memref<2x3xf32>) {
  %c0 = arith.constant 0 : index
  %idx = arith.constant dense<[1, 6]> : vector<2xi32>
  %mask = arith.constant dense<true> : vector<2xi1>
  %pass = arith.constant dense<0.0> : vector<2xf32>
  %g = vector.gather %m[%c0, %c0][%idx], %mask, %pass
      : memref<2x3xf32>, vector<2xi32>, vector<2xi1>, vector<2xf32> into vector<2xf32>
  vector.print %g : vector<2xf32>
  return
}"""
    with pytest.raises(MemoryAccessError):
        printed(src, np.zeros((2, 3), np.float32))
