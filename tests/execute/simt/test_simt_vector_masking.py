"""``vector.mask`` around each op MLIR 22 lets it mask (contract, outerproduct, gather, the
transfers, reductions), the ops it may not mask, transfers on memrefs whose elements are vectors,
the checks of gather/scatter/expandload/compressstore and the transfers' verifier, and printing
of narrow integers and 16-bit memrefs.  Every program is our own; expectations come from NumPy
or are worked out by hand (several were also checked with mlir-opt 22 and mlir-runner)."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.cli.opt import process_buffer
from tileir.execute.errors import MemoryAccessError, UnsupportedError


def run(src: str, *args) -> tuple[list, str]:
    out = io.StringIO()
    results = tileir.gpu.run(tileir.parse(src), "main", args=list(args), stdout=out)
    return results, out.getvalue()


def printed(src: str, *args) -> str:
    return run(src, *args)[1]


def diagnostics(src: str) -> list[str]:
    return [d.message for d in process_buffer(src, "<stdin>", allow_unregistered=True).diagnostics]


def vec(a) -> str:
    """A NumPy array as MLIR's dense literal body."""
    a = np.asarray(a)
    if a.ndim == 0:
        return str(a.item()).lower()
    return "[" + ", ".join(vec(x) for x in a) + "]"


# -- vector.contract ------------------------------------------------------------------------------

MATMUL = """
func.func @main(%out: memref<{m}x{n}x{t}>) {{
  %a = arith.constant dense<{a}> : vector<{m}x{k}x{t}>
  %b = arith.constant dense<{b}> : vector<{k}x{n}x{t}>
  %c = arith.constant dense<{c}> : vector<{m}x{n}x{t}>
  %mask = arith.constant dense<{mask}> : vector<{m}x{n}x{k}xi1>
  %r = vector.mask %mask {{ vector.contract {{indexing_maps = [
      affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
      affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"],
      kind = #vector.kind<{kind}>}} %a, %b, %c : vector<{m}x{k}x{t}>, vector<{k}x{n}x{t}>
      into vector<{m}x{n}x{t}> }} : vector<{m}x{n}x{k}xi1> -> vector<{m}x{n}x{t}>
  %c0 = arith.constant 0 : index
  vector.store %r, %out[%c0, %c0] : memref<{m}x{n}x{t}>, vector<{m}x{n}x{t}>
  return
}}"""


@pytest.mark.parametrize("t, kind", [("i32", "add"), ("i32", "maxsi"), ("f64", "add")])
def test_masked_contract_skips_masked_off_points(t, kind):
    rng = np.random.default_rng(1)
    m, n, k = 3, 4, 5
    dtype = np.int32 if t == "i32" else np.float64
    a = rng.integers(-9, 10, (m, k)).astype(dtype)
    b = rng.integers(-9, 10, (k, n)).astype(dtype)
    c = rng.integers(-9, 10, (m, n)).astype(dtype)
    mask = rng.random((m, n, k)) < 0.5
    mask[0, 0] = False                        # a result none of whose terms is selected
    terms = a[:, None, :] * b.T[None, :, :]   # (i, j, k)
    if kind == "add":
        want = c + np.where(mask, terms, 0).sum(axis=-1)
    else:
        want = np.maximum(c, np.where(mask, terms, np.iinfo(dtype).min).max(axis=-1))
    out = np.zeros((m, n), dtype)
    run(MATMUL.format(m=m, n=n, k=k, t=t, kind=kind, a=vec(a), b=vec(b), c=vec(c),
                      mask=vec(mask)), out)
    np.testing.assert_array_equal(out, want)
    assert out[0, 0] == c[0, 0]


def test_masked_contract_with_transposed_maps_reads_the_mask_in_iteration_order():
    # the operands are stored transposed and the result as (j, i); the mask stays (i, j, k)
    src = """
func.func @main(%out: memref<2x2xi32>) {
  %at = arith.constant dense<[[1, 4], [2, 5], [3, 6]]> : vector<3x2xi32>
  %bt = arith.constant dense<[[1, 100, 10000], [10, 1000, 100000]]> : vector<2x3xi32>
  %c = arith.constant dense<5> : vector<2x2xi32>
  %m = arith.constant dense<[[[true, false, true], [false, true, true]],
                             [[true, true, true], [false, false, false]]]> : vector<2x2x3xi1>
  %r = vector.mask %m { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
      affine_map<(i, j, k) -> (j, k)>, affine_map<(i, j, k) -> (j, i)>],
      iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %at, %bt, %c : vector<3x2xi32>, vector<2x3xi32> into vector<2x2xi32> }
      : vector<2x2x3xi1> -> vector<2x2xi32>
  %c0 = arith.constant 0 : index
  vector.store %r, %out[%c0, %c0] : memref<2x2xi32>, vector<2x2xi32>
  return
}"""
    out = np.zeros((2, 2), np.int32)
    run(src, out)
    # out[j][i] = 5 + sum of a[i][k] * b[k][j] over the selected k
    np.testing.assert_array_equal(out, [[30006, 60509], [302005, 5]])


def test_masked_float_contract_leaves_out_the_masked_off_term():
    # the masked-off term (1e20 * 1e20) would overflow f32 to inf; the others add up exactly
    src = """
func.func @main() {
  %a = arith.constant dense<[[1.0, 1.0e20, 3.0]]> : vector<1x3xf32>
  %b = arith.constant dense<[[2.0], [1.0e20], [1.0]]> : vector<3x1xf32>
  %c = arith.constant dense<0.5> : vector<1x1xf32>
  %m = arith.constant dense<[[[true, false, true]]]> : vector<1x1x3xi1>
  %r = vector.mask %m { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
      affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>],
      iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>}
      %a, %b, %c : vector<1x3xf32>, vector<3x1xf32> into vector<1x1xf32> }
      : vector<1x1x3xi1> -> vector<1x1xf32>
  vector.print %r : vector<1x1xf32>
  return
}"""
    assert printed(src) == "( ( 5.5 ) )\n"


# -- vector.outerproduct --------------------------------------------------------------------------

def test_masked_outerproduct_keeps_the_accumulator_where_masked_off():
    src = """
func.func @main() {
  %v = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %acc = arith.constant dense<7.0> : vector<3x3xf32>
  %m = vector.constant_mask [2, 1] : vector<3x3xi1>
  %o = vector.mask %m { vector.outerproduct %v, %v, %acc {kind = #vector.kind<add>}
      : vector<3xf32>, vector<3xf32> } : vector<3x3xi1> -> vector<3x3xf32>
  vector.print %o : vector<3x3xf32>
  %s = arith.constant 2.0 : f32
  %vm = arith.constant dense<[true, false, true]> : vector<3xi1>
  %x = vector.mask %vm { vector.outerproduct %v, %s, %v {kind = #vector.kind<mul>}
      : vector<3xf32>, f32 } : vector<3xi1> -> vector<3xf32>
  vector.print %x : vector<3xf32>
  %y = vector.mask %vm { vector.outerproduct %v, %s, %v : vector<3xf32>, f32 }
      : vector<3xi1> -> vector<3xf32>
  vector.print %y : vector<3xf32>
  %p = vector.mask %m { vector.outerproduct %v, %v : vector<3xf32>, vector<3xf32> }
      : vector<3x3xi1> -> vector<3x3xf32>
  vector.print %p : vector<3x3xf32>
  return
}"""
    assert printed(src) == (
        "( ( 8, 7, 7 ), ( 9, 7, 7 ), ( 7, 7, 7 ) )\n"
        "( 2, 2, 18 )\n"
        "( 3, 2, 9 )\n"
        # without an accumulator the mask changes nothing (as MLIR's lowering)
        "( ( 1, 2, 3 ), ( 2, 4, 6 ), ( 3, 6, 9 ) )\n")


# -- vector.gather and the transfers -------------------------------------------------------------

GATHER = """
func.func @main(%mem: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %idx = arith.constant dense<[7, 6, 5, 4]> : vector<4xindex>
  %own = arith.constant dense<[true, false, true, false]> : vector<4xi1>
  %vm = arith.constant dense<[true, true, false, false]> : vector<4xi1>
  %pt = arith.constant dense<-1.0> : vector<4xf32>
  %g = vector.mask %vm { vector.gather %mem[%c0][%idx], %own, %pt
      : memref<8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32> }
      : vector<4xi1> -> vector<4xf32>
  vector.print %g : vector<4xf32>
  return
}"""


def test_masked_gather_loads_where_both_masks_are_on():
    # both on: loaded; only vector.mask's: the gather's pass_thru; vector.mask off: zero
    mem = np.arange(8, dtype=np.float32) * 10
    assert printed(GATHER, mem) == "( 70, -1, 0, 0 )\n"


def test_masked_gather_does_not_touch_masked_off_addresses():
    src = GATHER.replace("[7, 6, 5, 4]", "[7, 6, 99, -99]")
    assert printed(src, np.arange(8, dtype=np.float32)) == "( 7, -1, 0, 0 )\n"


TRANSFERS = """
func.func @main(%mem: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %pad = arith.constant -2.0 : f32
  %own = arith.constant dense<[true, false, true, true]> : vector<4xi1>
  %vm = arith.constant dense<[true, true, false, true]> : vector<4xi1>
  %pt = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : vector<4xf32>
  %r = vector.mask %vm { vector.transfer_read %mem[%c0], %pad, %own
      : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %r : vector<4xf32>
  %p = vector.mask %vm, %pt { vector.transfer_read %mem[%c6], %pad, %own
      : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %p : vector<4xf32>
  %v = arith.constant dense<[-5.0, -6.0, -7.0, -8.0]> : vector<4xf32>
  vector.mask %vm { vector.transfer_write %v, %mem[%c0], %own : vector<4xf32>, memref<8xf32> }
      : vector<4xi1>
  return
}"""


def test_masked_transfers_combine_the_two_masks():
    mem = np.arange(8, dtype=np.float32)
    out = printed(TRANSFERS, mem)
    # read at 0: element 1 is off by the op's mask, 2 by vector.mask's (padding, no passthru);
    # read at 6: 6 in, 7 off by the op's mask (padding), 8 masked off (passthru), 9 outside
    assert out == "( 0, -2, -2, 3 )\n( 6, -2, 30, -2 )\n"
    np.testing.assert_array_equal(mem, [-5, 1, 2, -8, 4, 5, 6, 7])


def test_empty_mask_yields_its_values():
    src = """
func.func @main() {
  %vm = arith.constant dense<[true, false]> : vector<2xi1>
  %a = arith.constant dense<[1, 2]> : vector<2xi32>
  %s = arith.constant 3 : i32
  %r:2 = vector.mask %vm { vector.yield %a, %s : vector<2xi32>, i32 } : vector<2xi1>
      -> (vector<2xi32>, i32)
  vector.print %r#0 : vector<2xi32>
  vector.print %r#1 : i32
  return
}"""
    assert printed(src) == "( 1, 2 )\n3\n"


# -- reductions -----------------------------------------------------------------------------------

@pytest.mark.parametrize("t, kind, want", [
    ("i32", "add", "0"), ("i32", "mul", "1"), ("i32", "and", "-1"), ("i32", "xor", "0"),
    ("i32", "minui", "-1"), ("i32", "maxui", "0"), ("i32", "maxsi", "-2147483648"),
    ("i8", "minsi", "127"), ("i4", "maxsi", "-8"), ("f32", "add", "0"), ("f32", "mul", "1")])
def test_masked_reduction_selecting_nothing_gives_the_identity(t, kind, want):
    src = f"""
func.func @main() {{
  %v = arith.constant dense<[3, 2, 1, 1]> : vector<4x{t}>
  %off = arith.constant dense<false> : vector<4xi1>
  %r = vector.mask %off {{ vector.reduction <{kind}>, %v : vector<4x{t}> into {t} }}
      : vector<4xi1> -> {t}
  vector.print %r : {t}
  return
}}"""
    if t.startswith("f"):
        src = src.replace("[3, 2, 1, 1]", "[3.0, 2.0, 1.0, 1.0]")
    assert printed(src) == want + "\n"


def test_masked_reduction_combines_the_selected_elements_only():
    src = """
func.func @main() {
  %v = arith.constant dense<[3, -7, 5, 2]> : vector<4xi32>
  %m = arith.constant dense<[false, true, false, true]> : vector<4xi1>
  %a = vector.mask %m { vector.reduction <minsi>, %v : vector<4xi32> into i32 }
      : vector<4xi1> -> i32
  %b = vector.mask %m { vector.reduction <mul>, %v : vector<4xi32> into i32 }
      : vector<4xi1> -> i32
  vector.print %a : i32
  vector.print %b : i32
  return
}"""
    assert printed(src) == "-7\n-14\n"


def test_masked_float_max_reduction_selecting_nothing_is_reported():
    src = """
func.func @main() {
  %v = arith.constant dense<[3.0, 2.0]> : vector<2xf32>
  %off = arith.constant dense<false> : vector<2xi1>
  %r = vector.mask %off { vector.reduction <maximumf>, %v : vector<2xf32> into f32 }
      : vector<2xi1> -> f32
  vector.print %r : f32
  return
}"""
    with pytest.raises(Exception, match="selects no element"):
        printed(src)


# -- in kernels: a mask per thread ----------------------------------------------------------------

def test_masked_gather_and_contract_in_a_kernel_use_each_threads_mask():
    src = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%mem: memref<16xf32>, %out: memref<8x2xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %n = arith.remui %t, %c2 : index
      %vm = vector.create_mask %n : vector<2xi1>
      %all = arith.constant dense<true> : vector<2xi1>
      %idx = vector.broadcast %t : index to vector<2xindex>
      %st = vector.step : vector<2xindex>
      %ix = arith.addi %idx, %st : vector<2xindex>
      %pt = arith.constant dense<-1.0> : vector<2xf32>
      %g = vector.mask %vm { vector.gather %mem[%c0][%ix], %all, %pt
          : memref<16xf32>, vector<2xindex>, vector<2xi1>, vector<2xf32> into vector<2xf32> }
          : vector<2xi1> -> vector<2xf32>
      %one = arith.constant dense<1.0> : vector<2xf32>
      %acc = arith.constant 0.5 : f32
      %d = vector.mask %vm { vector.contract {indexing_maps = [affine_map<(k) -> (k)>,
          affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"],
          kind = #vector.kind<add>} %g, %one, %acc : vector<2xf32>, vector<2xf32> into f32 }
          : vector<2xi1> -> f32
      %e0 = vector.extract %g[0] : f32 from vector<2xf32>
      memref.store %e0, %out[%t, %c0] : memref<8x2xf32>
      %c1 = arith.constant 1 : index
      memref.store %d, %out[%t, %c1] : memref<8x2xf32>
      gpu.return
    }
  }
  func.func @main(%mem: memref<16xf32>, %out: memref<8x2xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @m::@k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%mem : memref<16xf32>, %out : memref<8x2xf32>)
    return
  }
}"""
    mem = np.arange(16, dtype=np.float32) * 2
    out = np.zeros((8, 2), np.float32)
    run(src, mem, out)
    t = np.arange(8)
    odd = t % 2 == 1                 # odd threads select element 0 only
    np.testing.assert_array_equal(out[:, 0], np.where(odd, mem[t], 0))
    np.testing.assert_array_equal(out[:, 1], np.where(odd, mem[t] + 0.5, 0.5))


# -- what vector.mask may not mask ----------------------------------------------------------------

MEM_OPS = "%m = \"test.v\"() : () -> memref<16xf32>\n%i = \"test.v\"() : () -> index\n" \
    "%ix = \"test.v\"() : () -> vector<4xindex>\n%v = \"test.v\"() : () -> vector<4xf32>\n" \
    "%mk = \"test.v\"() : () -> vector<4xi1>\n"


@pytest.mark.parametrize("inner", [
    "vector.scatter %m[%i][%ix], %mk, %v : memref<16xf32>, vector<4xindex>, vector<4xi1>, "
    "vector<4xf32>",
    "vector.compressstore %m[%i], %mk, %v : memref<16xf32>, vector<4xi1>, vector<4xf32>",
    "vector.maskedstore %m[%i], %mk, %v : memref<16xf32>, vector<4xi1>, vector<4xf32>",
    "vector.store %v, %m[%i] : memref<16xf32>, vector<4xf32>"])
def test_ops_mlir_cannot_mask_are_rejected(inner):
    src = MEM_OPS + f"vector.mask %mk {{ {inner} }} : vector<4xi1>\n"
    assert diagnostics(src) == ["'vector.mask' op expects a MaskableOpInterface within the "
                                "mask region"]


@pytest.mark.parametrize("inner, t", [
    ("vector.expandload %m[%i], %mk, %v : memref<16xf32>, vector<4xi1>, vector<4xf32> into "
     "vector<4xf32>", "vector<4xf32>"),
    ("vector.maskedload %m[%i], %mk, %v : memref<16xf32>, vector<4xi1>, vector<4xf32> into "
     "vector<4xf32>", "vector<4xf32>"),
    ("vector.load %m[%i] : memref<16xf32>, vector<4xf32>", "vector<4xf32>")])
def test_loads_mlir_cannot_mask_are_rejected(inner, t):
    src = MEM_OPS + f"%r = vector.mask %mk {{ {inner} }} : vector<4xi1> -> {t}\n"
    assert diagnostics(src) == ["'vector.mask' op expects a MaskableOpInterface within the "
                                "mask region"]


@pytest.mark.parametrize("inner, t", [
    ("vector.gather %m[%i][%ix], %mk, %v : memref<16xf32>, vector<4xindex>, vector<4xi1>, "
     "vector<4xf32> into vector<4xf32>", "vector<4xf32>"),
    ("vector.reduction <add>, %v : vector<4xf32> into f32", "f32")])
def test_only_transfer_read_takes_a_passthru(inner, t):
    passthru = "%v" if t.startswith("vector") else "%f"
    src = MEM_OPS + "%f = \"test.v\"() : () -> f32\n" + \
        f"%r = vector.mask %mk, {passthru} {{ {inner} }} : vector<4xi1> -> {t}\n"
    assert diagnostics(src) == ["'vector.mask' op doesn't expect a passthru argument for this "
                                "maskable operation"]


def test_masked_outerproduct_verifies_with_a_mask_of_its_result_shape():
    src = MEM_OPS + "%a = \"test.v\"() : () -> vector<4x4xf32>\n" \
        "%mk2 = \"test.v\"() : () -> vector<4x4xi1>\n" \
        "%o = vector.mask %mk2 { vector.outerproduct %v, %v, %a : vector<4xf32>, " \
        "vector<4xf32> } : vector<4x4xi1> -> vector<4x4xf32>\n" \
        "%p = vector.mask %mk { vector.outerproduct %v, %v, %a : vector<4xf32>, " \
        "vector<4xf32> } : vector<4xi1> -> vector<4x4xf32>\n"
    assert diagnostics(src) == ["'vector.mask' op expects a 'vector<4x4xi1>' mask for the "
                                "maskable operation"]


# -- gather / scatter / expandload / compressstore checks -----------------------------------------

@pytest.mark.parametrize("op, message", [
    ("%r = vector.gather %m[%i][%ix], %mk, %v : memref<16xf32>, vector<4xindex>, vector<4xi1>, "
     "vector<4xf32> into vector<4xi32>", "base and result element type should match"),
    ("%r = vector.gather %m[%i, %i][%ix], %mk, %v : memref<16xf32>, vector<4xindex>, "
     "vector<4xi1>, vector<4xf32> into vector<4xf32>", "requires 1 indices"),
    ("%r = vector.gather %m[%i][%ix8], %mk, %v : memref<16xf32>, vector<8xindex>, "
     "vector<4xi1>, vector<4xf32> into vector<4xf32>", "expected result dim to match indices dim"),
    ("%r = vector.gather %m[%i][%ix], %mk8, %v : memref<16xf32>, vector<4xindex>, "
     "vector<8xi1>, vector<4xf32> into vector<4xf32>", "expected result dim to match mask dim"),
    ("vector.scatter %m[%i][%ix8], %mk, %v : memref<16xf32>, vector<8xindex>, vector<4xi1>, "
     "vector<4xf32>", "expected valueToStore dim to match indices dim"),
    ("%r = vector.expandload %m[%i], %mk8, %v : memref<16xf32>, vector<8xi1>, vector<4xf32> "
     "into vector<4xf32>", "expected result dim to match mask dim"),
    ("%r = vector.expandload %mv[%i], %mk, %v : memref<16xvector<4xf32>>, vector<4xi1>, "
     "vector<4xf32> into vector<4xf32>", "base and result element type should match"),
    ("vector.compressstore %m[%i], %mk, %vi : memref<16xf32>, vector<4xi1>, vector<4xi32>",
     "base and valueToStore element type should match"),
])
def test_indexed_memory_ops_are_checked_as_mlir_checks_them(op, message):
    src = MEM_OPS + "%ix8 = \"test.v\"() : () -> vector<8xindex>\n" \
        "%mk8 = \"test.v\"() : () -> vector<8xi1>\n%vi = \"test.v\"() : () -> vector<4xi32>\n" \
        "%mv = \"test.v\"() : () -> memref<16xvector<4xf32>>\n" + op + "\n"
    name = op.split("vector.")[1].split()[0]
    assert diagnostics(src) == [f"'vector.{name}' op {message}"]


# -- transfers on memrefs of vectors --------------------------------------------------------------

def test_transfers_on_a_memref_of_vectors_move_whole_elements():
    src = """
func.func @main() {
  %m = memref.alloc() : memref<4xvector<3xf32>>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %a = arith.constant dense<[[0.0, 0.0, 0.0], [0.5, 0.5, 0.5], [1.0, 2.0, 3.0],
                             [4.0, 5.0, 6.0]]> : vector<4x3xf32>
  vector.transfer_write %a, %m[%c0] : vector<4x3xf32>, memref<4xvector<3xf32>>
  %pad = arith.constant dense<-1.0> : vector<3xf32>
  %r = vector.transfer_read %m[%c2], %pad : memref<4xvector<3xf32>>, vector<3x3xf32>
  vector.print %r : vector<3x3xf32>
  %one = vector.transfer_read %m[%c3], %pad : memref<4xvector<3xf32>>, vector<3xf32>
  vector.print %one : vector<3xf32>
  %w = arith.constant dense<[[7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : vector<2x3xf32>
  vector.transfer_write %w, %m[%c3] : vector<2x3xf32>, memref<4xvector<3xf32>>
  %all = vector.transfer_read %m[%c0], %pad {in_bounds = [true]}
      : memref<4xvector<3xf32>>, vector<4x3xf32>
  vector.print %all : vector<4x3xf32>
  return
}"""
    assert printed(src) == ("( ( 1, 2, 3 ), ( 4, 5, 6 ), ( -1, -1, -1 ) )\n"
                            "( 4, 5, 6 )\n"
                            "( ( 0, 0, 0 ), ( 0.5, 0.5, 0.5 ), ( 1, 2, 3 ), ( 7, 8, 9 ) )\n")


def test_transfer_on_a_2d_memref_of_vectors_follows_its_permutation_map():
    data = np.arange(12, dtype=np.int32).reshape(3, 2, 2)
    src = f"""
func.func @main() {{
  %m = memref.alloc() : memref<3x2xvector<2xi32>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = arith.constant dense<{vec(data)}> : vector<3x2x2xi32>
  vector.transfer_write %d, %m[%c0, %c0] : vector<3x2x2xi32>, memref<3x2xvector<2xi32>>
  %pad = arith.constant dense<-1> : vector<2xi32>
  %r = vector.transfer_read %m[%c1, %c1], %pad {{permutation_map = affine_map<(d0, d1) -> (d0)>}}
      : memref<3x2xvector<2xi32>>, vector<3x2xi32>
  vector.print %r : vector<3x2xi32>
  %t = vector.transfer_read %m[%c0, %c0], %pad
      {{permutation_map = affine_map<(d0, d1) -> (d1, d0)>}}
      : memref<3x2xvector<2xi32>>, vector<2x3x2xi32>
  vector.print %t : vector<2x3x2xi32>
  return
}}"""

    def text(a):
        a = np.asarray(a)
        return str(int(a)) if a.ndim == 0 else "( " + ", ".join(text(x) for x in a) + " )"
    want_r = [data[1, 1], data[2, 1], [-1, -1]]         # the third row is past the memref
    want_t = np.transpose(data, (1, 0, 2))
    assert printed(src) == text(want_r) + "\n" + text(want_t) + "\n"


def test_transfer_of_vector_elements_out_of_bounds_with_in_bounds_is_reported():
    src = """
func.func @main() {
  %m = memref.alloc() : memref<2xvector<2xf32>>
  %c1 = arith.constant 1 : index
  %pad = arith.constant dense<0.0> : vector<2xf32>
  %r = vector.transfer_read %m[%c1], %pad {in_bounds = [true]}
      : memref<2xvector<2xf32>>, vector<2x2xf32>
  vector.print %r : vector<2x2xf32>
  return
}"""
    with pytest.raises(MemoryAccessError, match="in_bounds"):
        printed(src)


def test_transfer_that_reshapes_vector_elements_is_unsupported():
    # it verifies (the widths divide) but no lowering of MLIR's defines it
    src = """
func.func @main() {
  %m = memref.alloc() : memref<4xvector<4xf32>>
  %c0 = arith.constant 0 : index
  %pad = arith.constant dense<0.0> : vector<4xf32>
  %r = vector.transfer_read %m[%c0], %pad : memref<4xvector<4xf32>>, vector<2x8xf32>
  vector.print %r : vector<2x8xf32>
  return
}"""
    assert diagnostics(src) == []
    with pytest.raises(UnsupportedError, match="whole elements"):
        printed(src)


@pytest.mark.parametrize("op, message", [
    ("%r = vector.transfer_read %mv[%i], %pad : memref<?xvector<4xf32>>, vector<2x2xf32>",
     "'vector.transfer_read' op requires the bitwidth of the minor 1-D vector to be an integral "
     "multiple of the bitwidth of the minor 1-D vector of the source"),
    ("%r = vector.transfer_read %mv[%i], %pad : memref<?xvector<4xf32>>, vector<3x2x4xf32>",
     "custom op 'vector.transfer_read' expected a custom permutation_map when rank(source) != "
     "rank(destination)"),
    ("%r = vector.transfer_read %m[%i], %f : memref<8xf32>, vector<2x4xf32>",
     "custom op 'vector.transfer_read' expected a custom permutation_map when rank(source) != "
     "rank(destination)"),
    ("%r = vector.transfer_read %mv[%i], %pad {in_bounds = [true, true]} : "
     "memref<?xvector<4xf32>>, vector<2x4xf32>",
     "'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map "
     "results: affine_map<(d0) -> (d0)> vs inBounds of size: 2"),
    ("%r = vector.transfer_read %m[%i], %f : memref<8xf32>, vector<3xi8>",
     "'vector.transfer_read' op requires the bitwidth of the minor 1-D vector to be an integral "
     "multiple of the bitwidth of the source element type"),
])
def test_transfer_verifier_on_vector_elements_and_default_maps(op, message):
    src = ("%mv = \"test.v\"() : () -> memref<?xvector<4xf32>>\n"
           "%m = \"test.v\"() : () -> memref<8xf32>\n%i = \"test.v\"() : () -> index\n"
           "%pad = \"test.v\"() : () -> vector<4xf32>\n%f = \"test.v\"() : () -> f32\n" + op + "\n")
    assert diagnostics(src) == [message]


def test_transfer_read_of_a_memref_of_vectors_verifies_and_prints_without_its_default_map():
    src = ("%mv = \"test.v\"() : () -> memref<?xvector<4xf32>>\n%i = \"test.v\"() : () -> index\n"
           "%pad = \"test.v\"() : () -> vector<4xf32>\n"
           "%r = vector.transfer_read %mv[%i], %pad : memref<?xvector<4xf32>>, vector<2x4xf32>\n")
    assert diagnostics(src) == []
    text = tileir.print(tileir.parse(src, allow_unregistered=True))
    assert "vector.transfer_read %0[%1], %2 : memref<?xvector<4xf32>>, vector<2x4xf32>" in text


# -- printing -------------------------------------------------------------------------------------

def test_narrow_integers_print_signed():
    src = """
func.func @main() {
  %v = arith.constant dense<[7, -8, -1, 3]> : vector<4xi4>
  vector.print %v : vector<4xi4>
  %s = vector.extract %v[1] : i4 from vector<4xi4>
  vector.print %s : i4
  %w = arith.addi %v, %v : vector<4xi4>
  vector.print %w : vector<4xi4>
  %u = arith.extui %v : vector<4xi4> to vector<4xi8>
  vector.print %u : vector<4xi8>
  %two = arith.constant dense<[1, -2]> : vector<2xi2>
  vector.print %two : vector<2xi2>
  return
}"""
    assert printed(src) == "( 7, -8, -1, 3 )\n-8\n( -2, 0, -2, 6 )\n( 7, 8, 15, 3 )\n( 1, -2 )\n"


def test_print_memref_of_16_bit_elements():
    src = """
func.func private @printMemrefF16(memref<*xf16>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI16(memref<*xi16>) attributes { llvm.emit_c_interface }
func.func @main(%h: memref<2xf16>, %i: memref<2xi16>) {
  %uh = memref.cast %h : memref<2xf16> to memref<*xf16>
  %ui = memref.cast %i : memref<2xi16> to memref<*xi16>
  call @printMemrefF16(%uh) : (memref<*xf16>) -> ()
  call @printMemrefI16(%ui) : (memref<*xi16>) -> ()
  return
}"""
    out = printed(src, np.array([1.5, -0.1], np.float16), np.array([-300, 7], np.int16))
    lines = out.splitlines()
    assert lines[1] == "[1.5,  -0.0999756]"
    assert lines[3] == "[-300,  7]"
