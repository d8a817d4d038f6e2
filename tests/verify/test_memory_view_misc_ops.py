"""Invalid memory, view, atomic and miscellaneous ops; optimization hints; since-versions."""

from __future__ import annotations

import pytest

from vhelp import diags, errors, kernel, ok, one_error

PV = "partition_view<tile=(4x8), tensor_view<16x32xf32, strides=[32,1]>>"
A = (f"%p: tile<4xptr<f32>>, %q: tile<ptr<f32>>, %m: tile<4xi1>, %x: tile<4xf32>, "
     f"%t: token, %i: tile<i32>, %j: tile<i64>, %v: {PV}, %w: tile<4x8xf32>, %n: tile<4xi32>, "
     f"%pi: tile<4xptr<i32>>")

CASES = [
    # memory model pairing
    ("%0, %t1 = load_ptr_tko weak device %p : tile<4xptr<f32>> -> tile<4xf32>, token",
     "'cuda_tile.load_ptr_tko' op weak load must not have memory scope"),
    ("%0, %t1 = load_ptr_tko relaxed %p : tile<4xptr<f32>> -> tile<4xf32>, token",
     "'cuda_tile.load_ptr_tko' op memory scope is required for relaxed load"),
    ("%0, %t1 = load_ptr_tko release device %p : tile<4xptr<f32>> -> tile<4xf32>, token",
     "'cuda_tile.load_ptr_tko' op expect one of: weak, relaxed, or acquire, but got: release"),
    ("%t1 = store_ptr_tko acquire device %p, %x : tile<4xptr<f32>>, tile<4xf32> -> token",
     "'cuda_tile.store_ptr_tko' op expect one of: weak, relaxed, or release, but got: acquire"),
    ("%t1 = store_ptr_tko weak %p, %x, %i : tile<4xptr<f32>>, tile<4xf32>, tile<i32> -> token",
     "'cuda_tile.store_ptr_tko' op operand #2 must be tile of i1 values, but got "
     "'!cuda_tile.tile<i32>'"),
    ("%0, %t1 = load_ptr_tko weak %p : tile<4xptr<f32>> -> tile<4xi32>, token",
     "'cuda_tile.load_ptr_tko' op failed to verify that `source` type is expected a pointer "
     "type of `result` type"),
    ("%t1 = join_tokens %t : token", "'cuda_tile.join_tokens' op expect two or more tokens"),
    # inbounds (13.4; tileirdisasm 13.4.92's message)
    (f"%0, %t1 = load_view_tko weak %v[%i, %i] inbounds = [true] : {PV}, tile<i32> -> "
     "tile<4x8xf32>, token",
     "'cuda_tile.load_view_tko' op inbounds size (1) must match the number of index "
     "dimensions (2)"),
    (f"%t1 = store_view_tko weak %w, %v[%i, %i] inbounds = [true, false, true] : "
     f"tile<4x8xf32>, {PV}, tile<i32> -> token",
     "'cuda_tile.store_view_tko' op inbounds size (3) must match the number of index "
     "dimensions (2)"),
    (f"%0, %t1 = load_view_tko weak %v[%i, %i] inbounds = [true, false] : {PV}, tile<i32> -> "
     "tile<4x8xf32>, token", None),
    ("%0 = alloca num_elem = 4, alignment = 6 : tile<ptr<f32>>",
     "'cuda_tile.alloca' op 'alignment' must be power of two"),
    ("%0 = alloca num_elem = 4, alignment = 4 : tile<ptr<f64>>",
     "'cuda_tile.alloca' op 'alignment' (4) must be at least the natural size (8 bytes) for "
     "element type 'f64'"),
    # views
    (f"%0, %t1 = load_view_tko weak %v[%i] : {PV}, tile<i32> -> tile<4x8xf32>, token",
     "'cuda_tile.load_view_tko' op expected 2 index operands (based on view type), got 1"),
    (f"%0, %t1 = load_view_tko weak %v[%i, %i] : {PV}, tile<i32> -> tile<8x4xf32>, token",
     "'cuda_tile.load_view_tko' op expected tile type to be '!cuda_tile.tile<4x8xf32>' (based "
     "on view type), got '!cuda_tile.tile<8x4xf32>'"),
    (f"%t1 = store_view_tko weak %w, %v[%i, %j] : tile<4x8xf32>, {PV}, tile<i32>, tile<i64> -> "
     "token",
     "'cuda_tile.store_view_tko' op expected index type 1 to be the same as other index types "
     "('!cuda_tile.tile<i32>'), got '!cuda_tile.tile<i64>'"),
    (f"%t1 = store_view_tko weak device %w, %v[%i, %i] : tile<4x8xf32>, {PV}, tile<i32> -> token",
     "custom op 'cuda_tile.store_view_tko' operation specifies weak memory ordering semantics, "
     "but then provides \"device\" scope, expected no memory scope."),
    ("%s = get_tensor_shape %tv : tensor_view<16x32xf32, strides=[32,1]> -> tile<i32>",
     "operation defines 2 results but was provided 1 to bind"),
    ('%s:3 = "cuda_tile.get_tensor_shape"(%tv) : (tensor_view<16x32xf32, strides=[32,1]>) -> '
     '(tile<i32>, tile<i32>, tile<i32>)',
     "'cuda_tile.get_tensor_shape' op expected 2 results due to tensor rank, but got 3"),
    # atomics
    ("%0, %t1 = atomic_rmw_tko relaxed device %p, add, %x : tile<4xptr<f32>>, tile<4xf32> -> "
     "tile<4xf32>, token",
     "'cuda_tile.atomic_rmw_tko' op 'add' works only with integers i32 and i64"),
    ("%0, %t1 = atomic_rmw_tko weak device %pi, add, %n : tile<4xptr<i32>>, tile<4xi32> -> "
     "tile<4xi32>, token",
     "'cuda_tile.atomic_rmw_tko' op memory ordering semantics must be one of: relaxed, acquire, "
     "release, acq_rel"),
    ("%0, %t1 = atomic_rmw_tko relaxed device %pi, add, %x : tile<4xptr<i32>>, tile<4xf32> -> "
     "tile<4xf32>, token",
     "'cuda_tile.atomic_rmw_tko' op expected pointee type ('i32') to match element type of "
     "'arg' ('f32')"),
    ("%0, %t1 = atomic_cas_tko relaxed device %pi, %n, %n, %m : tile<4xptr<i32>>, tile<4xi32>, "
     "tile<4xi1> -> tile<4xi32>, token", None),
    # assume
    ("%0 = assume div_by<6>, %n : tile<4xi32>",
     "'cuda_tile.assume' op 'cuda_tile.div_by' divisor must be a power of 2"),
    ("%0 = assume div_by<4, every 8 along 0>, %n : tile<4xi32>",
     "'cuda_tile.assume' op expected 'cuda_tile.div_by' every_dim to be within 0 and the size "
     "of the respective dimension (4)"),
    ("%0 = assume same_elements<[2, 2]>, %n : tile<4xi32>",
     "'cuda_tile.assume' op expected number of values in 'cuda_tile.same_elements' (2) to match "
     "rank of constrained tile (1)"),
    ("%0 = assume bounded<0, 2>, %m : tile<4xi1>",
     "'cuda_tile.assume' op 'cuda_tile.bounded' expects upper bound to be within [-1, 0]"),
    ("%0 = assume bounded<3, 2>, %n : tile<4xi32>",
     "'cuda_tile.assume' op 'cuda_tile.bounded' expects lower bound to be less than or equal "
     "to upper bound"),
    ("%0 = assume bounded<0, ?>, %x : tile<4xf32>",
     "'cuda_tile.assume' op 'cuda_tile.bounded' is valid only for tile of integer values"),
    ("%0 = assume flat<1>, %n : tile<4xi32>",
     "custom op 'cuda_tile.assume' unknown assume predicate attribute: flat (expected 'div_by', "
     "'same_elements', or 'bounded')"),
    # print
    ('%t1 = print_tko "%d %f", %i : tile<i32> -> token',
     "'cuda_tile.print_tko' op incorrect number of operands: expected 2, found 1"),
    ('%t1 = print_tko "100%% %" -> token',
     "'cuda_tile.print_tko' op found unterminated format expression"),
]


@pytest.mark.parametrize("body, msg", CASES)
def test_invalid(body, msg):
    text = kernel(body, A + ", %tv: tensor_view<16x32xf32, strides=[32,1]>")
    got = errors(text)
    if msg is None:
        assert not got, got
        return
    assert got == [(3, msg)]


def test_gather_scatter_indices():
    gv = "gather_scatter_view<tile=(4x8), tensor_view<16x32xf32, strides=[32,1]>, sparse_dim=0>"
    text = kernel(f"%0, %t1 = load_view_tko weak %g[%k, %i] : {gv}, tile<8xi32>, tile<i32> -> "
                  "tile<4x8xf32>, token", f"%g: {gv}, %k: tile<8xi32>, %i: tile<i32>")
    assert one_error(text) == (3, "'cuda_tile.load_view_tko' op expected gather/scatter index "
                                  "size (8) to match tile shape at gather/scatter dimension 0 (4)")


def test_atomic_red_view():
    pv = "partition_view<tile=(4), padding_value = zero, tensor_view<16xf32, strides=[1]>>"
    text = kernel(f"%t1 = atomic_red_view_tko relaxed device %v[%i], addf, %x : tile<4xf32>, "
                  f"{pv}, tile<i32> -> token", f"%v: {pv}, %i: tile<i32>, %x: tile<4xf32>")
    assert one_error(text) == (3, "'cuda_tile.atomic_red_view_tko' op views with padding_value "
                                  "are not supported for atomic reductions")


HINT_ENTRY = """\
cuda_tile.module @m {
  entry @k() optimization_hints=<sm_100 = {num_cta_in_cga = 3, latency = 2}, sm_80 = {num_cta_in_cga = 2}> {
  }
}
"""


def test_hints_are_silent_by_default():
    ok(HINT_ENTRY)


def test_hints_warn():
    assert diags(HINT_ENTRY, hints="warn") == [
        (2, "warning", "latency is not known hint for current Operation"),
        (2, "warning", "expected power-of-two ≤ 16 for sm_100.num_cta_in_cga"),
        (2, "warning", "expected 1 for sm_80.num_cta_in_cga")]


def test_hints_error_stops_at_the_first_bad_architecture():
    assert diags(HINT_ENTRY, hints="error") == [
        (2, "warning", "latency is not known hint for current Operation"),
        (2, "warning", "expected power-of-two ≤ 16 for sm_100.num_cta_in_cga"),
        (2, "error", "'cuda_tile.entry' op Optimization hints verification failed")]


def test_hints_on_loads():
    text = kernel("%0, %t1 = load_ptr_tko weak %p optimization_hints = <sm_90 = {latency = 11, "
                  "allow_tma = true}> : tile<4xptr<f32>> -> tile<4xf32>, token", A)
    # hint dictionaries are sorted by key, as MLIR's DictionaryAttr
    assert diags(text, hints="warn") == [
        (3, "warning", "allow_tma is not known hint for current Operation"),
        (3, "warning", "integer value in the range [1, 10] is expected for sm_90.latency")]


@pytest.mark.parametrize("body, target, msg", [
    ("%0 = atan2 %x, %x : tile<4xf32>", "13.1",
     "operation 'cuda_tile.atan2' is not available in bytecode version 13.1"),
    ("%0 = negi %n overflow<no_signed_wrap> : tile<4xi32>", "13.1",
     "attribute 'overflow' requires bytecode version 13.2+, but targeting 13.1"),
    ("%0 = tanh %x rounding<approx> : tile<4xf32>", "13.1",
     "attribute 'rounding_mode' requires bytecode version 13.2+, but targeting 13.1"),
    ("%0 = mmaf %w, %w2, %acc fast_acc : tile<4x8xf32>, tile<8x4xf32>, tile<4x4xf32>", "13.2",
     "optional attribute 'fast_acc' is provided but requires bytecode version 13.3, targeting "
     "13.2"),
    ('%t1 = print_tko "x" token = %t -> token', "13.1",
     "optional operand 'token' is provided but requires bytecode version 13.2, targeting 13.1"),
    ('%t1 = print_tko "x" -> token\n%t2 = join_tokens %t1, %t : token', "13.1",
     "result 'result_token' requires bytecode version 13.2 but is being used and targeting 13.1. "
     "Cannot serialize to older bytecode version when newer features are used."),
    ("%0 = constant <f8E8M0FNU: 1.0> : tile<2xf8E8M0FNU>", "13.1",
     "type 'Float8E8M0FNU' requires bytecode version 13.2+, targeting 13.1"),
    ("%0 = constant <i4: 1> : tile<2xi4>", "13.2",
     "type 'Int4' requires bytecode version 13.3+, targeting 13.2"),
])
def test_since_versions(body, target, msg):
    text = kernel(body, A + ", %w2: tile<8x4xf32>, %acc: tile<4x4xf32>")
    got = errors(text, target=target)
    assert [m for _, m in got] == [msg]
    assert not errors(text, target="13.3") or "i4" in body


def test_since_versions_accept_older_features():
    ok(kernel("%0 = negi %n : tile<4xi32>\n%1 = tanh %x : tile<4xf32>\n"
              '%t1 = print_tko "x" -> token', A), target="13.1")
