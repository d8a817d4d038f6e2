"""§8.3 core ops (shape manipulation, constants, reduce/scan with arbitrary bodies) and §8.5 control
flow run by the executor, against NumPy and the spec's examples."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from exec_util import run_op, run_snippet


def test_broadcast_reshape_permute():
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    got = run_op("%r = broadcast %a0 : tile<1x4xf32> -> tile<4x4xf32>", [x], (4, 4), "f32")
    assert (got == np.broadcast_to(x, (4, 4))).all()
    # spec example: row-major reshape 2x4 -> 2x2x2
    c = np.array([[0, 1, 2, 3], [4, 5, 6, 7]], np.int32)
    got = run_op("%r = reshape %a0 : tile<2x4xi32> -> tile<2x2x2xi32>", [c], (2, 2, 2), "i32")
    assert got.tolist() == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
    y = np.arange(64, dtype=np.float16).reshape(2, 4, 8)
    got = run_op("%r = permute %a0 [2, 0, 1] : tile<2x4x8xf16> -> tile<8x2x4xf16>", [y],
                 (8, 2, 4), "f16")
    assert (got == np.transpose(y, (2, 0, 1))).all()
    s = np.array(5, np.int8)
    got = run_op("%r = reshape %a0 : tile<i8> -> tile<1x1x1xi8>", [s], (1, 1, 1), "i8")
    assert got.reshape(-1)[0] == 5


def test_cat_spec_examples():
    a = np.arange(8, dtype=np.float32).reshape(2, 4)
    b = -np.arange(8, dtype=np.float32).reshape(2, 4)
    got = run_op("%r = cat %a0, %a1 dim = 1 : tile<2x4xf32>, tile<2x4xf32> -> tile<2x8xf32>",
                 [a, b], (2, 8), "f32")
    assert (got == np.concatenate([a, b], axis=1)).all()
    got = run_op("%r = cat %a0, %a1 dim = 0 : tile<2x4xf32>, tile<2x4xf32> -> tile<4x4xf32>",
                 [a, b], (4, 4), "f32")
    assert (got == np.concatenate([a, b], axis=0)).all()


def test_extract_spec_example():
    t = np.arange(256, dtype=np.float32).reshape(32, 8)
    body = """%c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %r = extract %a0[%c1, %c2] : tile<32x8xf32> -> tile<4x2xf32>"""
    got = run_snippet(body, [t], [("%r", (4, 2), "f32")])[0]
    assert (got == t[4:8, 4:6]).all()


def test_extract_out_of_range_is_reported():
    t = np.zeros((8,), np.float32)
    body = """%c = constant <i32: 2> : tile<i32>
    %r = extract %a0[%c] : tile<8xf32> -> tile<4xf32>"""
    with pytest.raises(tileir.LaunchError, match="extract index 2"):
        run_snippet(body, [t], [("%r", (4,), "f32")])


def test_constants_splat_and_dense():
    body = """%a = constant <f32: 1.5> : tile<2x2xf32>
    %b = constant <i32: [[1, -2], [3, 4]]> : tile<2x2xi32>
    %c = constant <i1: [true, false, true, true]> : tile<4xi1>
    %d = constant <f32: 0x7FC00001> : tile<f32>"""
    a, b, c, d = run_snippet(body, [], [("%a", (2, 2), "f32"), ("%b", (2, 2), "i32"),
                                        ("%c", (4,), "i1"), ("%d", (), "f32")])
    assert (a == 1.5).all() and b.tolist() == [[1, -2], [3, 4]]
    assert c.tolist() == [True, False, True, True]
    assert np.asarray(d).view(np.uint32) == 0x7FC00001       # constant bits kept


# -- reduce / scan -----------------------------------------------------------------------------

REDUCE_ADD = """%r = reduce %a0 dim={dim} identities=[0.000000e+00 : f32] : {src} -> {dst}
      (%x: tile<f32>, %y: tile<f32>) {{
        %s = addf %x, %y : tile<f32>
        yield %s : tile<f32>
      }}"""


@pytest.mark.parametrize("dim", [0, 1])
def test_reduce_sum_both_dims(dim):
    x = np.random.default_rng(0).integers(-50, 50, (8, 64)).astype(np.float32)
    shape = (64,) if dim == 0 else (8,)
    got = run_op(REDUCE_ADD.format(dim=dim, src="tile<8x64xf32>",
                                   dst=f"tile<{shape[0]}xf32>"), [x], shape, "f32")
    assert (got == x.sum(axis=dim)).all()          # integers: exact in any order


def test_reduce_spec_example_to_scalar():
    x = np.arange(8, dtype=np.float32)
    got = run_op(REDUCE_ADD.format(dim=0, src="tile<8xf32>", dst="tile<f32>"), [x], (), "f32")
    assert float(got) == 28.0


def test_reduce_order_is_a_pairwise_tree_lower_index_first():
    # a body that keeps its first argument reveals the combination order (documented choice)
    x = np.arange(16, dtype=np.int32)
    body = """%r = reduce %a0 dim=0 identities=[0 : i32] : tile<16xi32> -> tile<i32>
      (%x: tile<i32>, %y: tile<i32>) {
        yield %x : tile<i32>
      }"""
    assert int(run_op(body, [x], (), "i32")) == 0


def test_reduce_two_operands_argmin():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 5, (4, 32)).astype(np.float32)   # many ties
    idx = np.broadcast_to(np.arange(32, dtype=np.int32), (4, 32)).copy()
    body = """%v, %i = reduce %a0, %a1 dim=1 identities=[0x7F800000 : f32, 0 : i32] : tile<4x32xf32>, tile<4x32xi32> -> tile<4xf32>, tile<4xi32>
      (%v0: tile<f32>, %v1: tile<f32>, %i0: tile<i32>, %i1: tile<i32>) {
        %lt = cmpf less_than ordered %v0, %v1 : tile<f32> -> tile<i1>
        %eq = cmpf equal ordered %v0, %v1 : tile<f32> -> tile<i1>
        %il = cmpi less_than %i0, %i1, signed : tile<i32> -> tile<i1>
        %tie = andi %eq, %il : tile<i1>
        %take = ori %lt, %tie : tile<i1>
        %v2 = select %take, %v0, %v1 : tile<i1>, tile<f32>
        %i2 = select %take, %i0, %i1 : tile<i1>, tile<i32>
        yield %v2, %i2 : tile<f32>, tile<i32>
      }"""
    v, i = run_snippet(body, [x, idx], [("%v", (4,), "f32"), ("%i", (4,), "i32")])
    assert (v == x.min(axis=1)).all() and (i == x.argmin(axis=1)).all()


def test_reduce_body_with_data_dependent_if():
    # max written with an `if` on each element pair: both branches are pure, so the vectorised
    # body evaluates both and merges them per element.  (NVIDIA's verifier only allows pure ops
    # in a reduce body, so this runs unverified; the same merge serves lock-step batches.)
    x = np.random.default_rng(2).standard_normal((2, 64)).astype(np.float32)
    body = """%r = reduce %a0 dim=1 identities=[0xFF800000 : f32] : tile<2x64xf32> -> tile<2xf32>
      (%x: tile<f32>, %y: tile<f32>) {
        %gt = cmpf greater_than ordered %x, %y : tile<f32> -> tile<i1>
        %m = if %gt -> (tile<f32>) {
          yield %x : tile<f32>
        } else {
          yield %y : tile<f32>
        }
        yield %m : tile<f32>
      }"""
    assert (run_op(body, [x], (2,), "f32", check=False) == x.max(axis=1)).all()


def test_reduce_general_body_matches_direct_body():
    x = np.random.default_rng(3).standard_normal(256).astype(np.float32)
    direct = run_op(REDUCE_ADD.format(dim=0, src="tile<256xf32>", dst="tile<f32>"), [x], (),
                    "f32")
    general = run_op("""%r = reduce %a0 dim=0 identities=[0.000000e+00 : f32] : tile<256xf32> -> tile<f32>
      (%x: tile<f32>, %y: tile<f32>) {
        %one = constant <f32: 1.0> : tile<f32>
        %x1 = mulf %x, %one : tile<f32>
        %s = addf %x1, %y : tile<f32>
        yield %s : tile<f32>
      }""", [x], (), "f32")
    assert np.asarray(direct).tobytes() == np.asarray(general).tobytes()


@pytest.mark.parametrize("n", [2, 4, 64, 256])
def test_reduce_native_tree_equals_an_explicit_pairwise_tree(n):
    """The native-ufunc tree (work arrays, NaN canonicalised at the end) equals a tree of
    adjacent-pair f32 sums, and NaN payloads and inf - inf anywhere give the canonical NaN."""
    rng = np.random.default_rng(n)
    x = (rng.standard_normal((4, n)) * np.exp2(rng.integers(-20, 20, (4, n)))).astype(np.float32)
    x[1, n // 2] = np.uint32(0x7FC00123).view(np.float32)      # a NaN with a payload
    x[2, 0], x[2, n - 1] = np.inf, -np.inf                       # inf - inf on the way up
    got = run_op(REDUCE_ADD.format(dim=1, src=f"tile<4x{n}xf32>", dst="tile<4xf32>"), [x],
                 (4,), "f32")
    want = []
    for row in x:
        level = list(row)
        while len(level) > 1:
            nxt = [np.float32(level[i]) + np.float32(level[i + 1])
                   for i in range(0, len(level) - 1, 2)]
            level = nxt + level[len(level) - len(level) % 2:]
        want.append(level[0])
    want = np.array(want, np.float32)
    bits = want.view(np.uint32).copy()
    bits[np.isnan(want)] = 0x7FFFFFFF                           # the canonical NaN
    assert np.asarray(got).view(np.uint32).tolist() == bits.tolist()
    assert np.isnan(got[1]) and np.isnan(got[2])


SCAN = """%r = scan %a0 dim={dim} reverse={rev} identities=[{ident}] : {t} -> {t}
      (%cur: tile<{e}>, %acc: tile<{e}>) {{
        %s = {op} %cur, %acc : tile<{e}>
        yield %s : tile<{e}>
      }}"""


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_cumsum_exact_on_integers(reverse):
    x = np.random.default_rng(4).integers(-9, 9, (4, 64)).astype(np.int32)
    got = run_op(SCAN.format(dim=1, rev=str(reverse).lower(), ident="0 : i32",
                             t="tile<4x64xi32>", e="i32", op="addi"), [x], (4, 64), "i32")
    want = np.flip(np.cumsum(np.flip(x, 1), 1), 1) if reverse else np.cumsum(x, 1)
    assert (got == want).all()


def test_scan_spec_example_cumprod_dim1():
    x = (np.random.default_rng(5).random((8, 16)) + 0.5).astype(np.float32)
    got = run_op(SCAN.format(dim=1, rev="false", ident="1.0 : f32", t="tile<8x16xf32>",
                             e="f32", op="mulf"), [x], (8, 16), "f32")
    assert np.allclose(got, np.cumprod(x.astype(np.float64), 1), rtol=1e-5)


def test_scan_argument_roles_current_then_accumulator():
    # body returning the accumulator: every prefix keeps its first element (forward) or last
    # element (reverse)
    x = np.arange(1, 17, dtype=np.int32)
    keep_acc = """%r = scan %a0 dim=0 reverse={rev} identities=[0 : i32] : tile<16xi32> -> tile<16xi32>
      (%cur: tile<i32>, %acc: tile<i32>) {{
        yield %acc : tile<i32>
      }}"""
    assert (run_op(keep_acc.format(rev="false"), [x], (16,), "i32") == 1).all()
    assert (run_op(keep_acc.format(rev="true"), [x], (16,), "i32") == 16).all()


# -- control flow ------------------------------------------------------------------------------

def test_if_else_with_results_and_nesting():
    body = """%c = cmpi less_than %a0, %a1, signed : tile<i32> -> tile<i1>
    %x, %y = if %c -> (tile<i32>, tile<i32>) {
      %s = addi %a0, %a1 : tile<i32>
      %z = constant <i1: false> : tile<i1>
      %n = if %z -> (tile<i32>) {
        yield %a0 : tile<i32>
      } else {
        yield %s : tile<i32>
      }
      yield %n, %a0 : tile<i32>, tile<i32>
    } else {
      %d = subi %a0, %a1 : tile<i32>
      yield %d, %a1 : tile<i32>, tile<i32>
    }"""
    for a, b, want in ((2, 5, (7, 2)), (9, 4, (5, 4))):
        x, y = run_snippet(body, [np.array(a, np.int32), np.array(b, np.int32)],
                           [("%x", (), "i32"), ("%y", (), "i32")])
        assert (int(x), int(y)) == want


FOR = """%lb = constant <{e}: {lb}> : tile<{e}>
    %ub = constant <{e}: {ub}> : tile<{e}>
    %st = constant <{e}: {st}> : tile<{e}>
    %z = constant <i64: 0> : tile<i64>
    %one = constant <i64: 1> : tile<i64>
    %cnt, %last = for {unsigned}%iv in (%lb to %ub, step %st) : tile<{e}> iter_values(%n = %z, %l = %z) -> (tile<i64>, tile<i64>) {{
      %n1 = addi %n, %one : tile<i64>
      %ivx = exti %iv signed : tile<{e}> -> tile<i64>
      continue %n1, %ivx : tile<i64>, tile<i64>
    }}"""


@pytest.mark.parametrize("e,lb,ub,st,unsigned,trips,last", [
    ("i32", 0, 10, 1, "", 10, 9), ("i32", 0, 10, 3, "", 4, 9), ("i32", 5, 5, 1, "", 0, 0),
    ("i32", 7, 2, 1, "", 0, 0), ("i32", -6, 3, 2, "", 5, 2),
    ("i8", 0, -56, 1, "unsigned ", 200, -57),      # ub 200 when compared unsigned
    ("i8", 0, -56, 1, "", 0, 0),
    ("i8", 120, 127, 5, "", 2, 125),               # no wrap-around past the bound
])
def test_for_trip_counts(e, lb, ub, st, unsigned, trips, last):
    cnt, lst = run_snippet(FOR.format(e=e, lb=lb, ub=ub, st=st, unsigned=unsigned), [],
                           [("%cnt", (), "i64"), ("%last", (), "i64")], check=False)
    assert (int(cnt), int(lst)) == (trips, last)


def test_for_nonpositive_step_is_reported():
    with pytest.raises(tileir.LaunchError, match="step must be positive"):
        run_snippet(FOR.format(e="i32", lb=0, ub=4, st=0, unsigned=""), [],
                    [("%cnt", (), "i64")])


def test_loop_break_and_continue_spec_patterns():
    # collatz steps of a0: loop with iter_values, `continue` in one branch, `break` in the other
    body = """%one = constant <i32: 1> : tile<i32>
    %two = constant <i32: 2> : tile<i32>
    %three = constant <i32: 3> : tile<i32>
    %zero = constant <i32: 0> : tile<i32>
    %steps:2 = loop iter_values(%v = %a0, %k = %zero) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
      %done = cmpi equal %v, %one, signed : tile<i32> -> tile<i1>
      if %done {
        break %v, %k : tile<i32>, tile<i32>
      }
      %k1 = addi %k, %one : tile<i32>
      %r = remi %v, %two signed : tile<i32>
      %odd = cmpi equal %r, %one, signed : tile<i32> -> tile<i1>
      if %odd {
        %t = muli %v, %three : tile<i32>
        %t1 = addi %t, %one : tile<i32>
        continue %t1, %k1 : tile<i32>, tile<i32>
      }
      %h = divi %v, %two signed : tile<i32>
      continue %h, %k1 : tile<i32>, tile<i32>
    }"""
    for n, steps in ((1, 0), (6, 8), (27, 111)):
        got = run_snippet(body, [np.array(n, np.int32)], [("%steps#1", (), "i32")])[0]
        assert int(got) == steps


def test_continue_inside_if_in_for():
    body = """%c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c10 = constant <i32: 10> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %sum = for %i in (%c0 to %c10, step %c1) : tile<i32> iter_values(%s = %c0) -> (tile<i32>) {
      %m = remi %i, %c3 signed : tile<i32>
      %skip = cmpi equal %m, %c0, signed : tile<i32> -> tile<i1>
      if %skip {
        continue %s : tile<i32>
      }
      %s1 = addi %s, %i : tile<i32>
      continue %s1 : tile<i32>
    }"""
    got = run_snippet(body, [], [("%sum", (), "i32")])[0]
    assert int(got) == sum(i for i in range(10) if i % 3)


def test_return_inside_if_ends_the_block():
    text = """cuda_tile.module @m {
  entry @k(%out: tile<ptr<i32>>, %flag: tile<i1>) {
    if %flag {
      return
    }
    %tv = make_tensor_view %out, shape = [1], strides = [1] : tensor_view<1xi32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<1xi32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %v = constant <i32: 42> : tile<1xi32>
    %t = store_view_tko weak %v, %pv[%c0] : tile<1xi32>, partition_view<tile=(1), tensor_view<1xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}"""
    m = tileir.parse(text)
    out = np.zeros(1, np.int32)
    tileir.launch(m, "k", (1,), [out, True])
    assert out[0] == 0
    tileir.launch(m, "k", (1,), [out, False])
    assert out[0] == 42


def test_runaway_loop_is_stopped():
    body = """%x = loop iter_values(%v = %a0) : tile<i32> -> tile<i32> {
      continue %v : tile<i32>
    }"""
    with pytest.raises(tileir.LaunchError, match="without 'break'"):
        run_snippet(body, [np.array(1, np.int32)], [("%x", (), "i32")], max_loop_iterations=1000)


WAIT_FOR_LAST_BLOCK = """cuda_tile.module @m {
  entry @k(%flag: tile<ptr<i32>>, %data: tile<ptr<i32>>, %out: tile<ptr<i32>>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %n, %ny, %nz = get_num_tile_blocks : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %last = subi %n, %c1 : tile<i32>
    %is_last = cmpi equal %bx, %last, signed : tile<i32> -> tile<i1>
    %t0 = make_token : token
    if %is_last {
      %v = constant <i32: 7> : tile<i32>
      %t1 = store_ptr_tko weak %data, %v : tile<ptr<i32>>, tile<i32> -> token
      %old, %t2 = atomic_rmw_tko release device %flag, xchg, %c1 token = %t1 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
      yield
    } else {
      %tw = loop iter_values(%t = %t0) : token -> token {
        %f, %tf = load_ptr_tko acquire device %flag token = %t : tile<ptr<i32>> -> tile<i32>, token
        %ready = cmpi equal %f, %c1, signed : tile<i32> -> tile<i1>
        if %ready {
          break %tf : token
        }
        continue %tf : token
      }
      %d, %td = load_ptr_tko weak %data token = %tw : tile<ptr<i32>> -> tile<i32>, token
      %bxr = reshape %bx : tile<i32> -> tile<1xi32>
      %outs = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
      %dr = reshape %d : tile<i32> -> tile<1xi32>
      %p = offset %outs, %bxr : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
      %ts = store_ptr_tko weak %p, %dr token = %td : tile<1xptr<i32>>, tile<1xi32> -> token
      yield
    }
    return
  }
}"""


@pytest.mark.parametrize("blocks", [2, 5, 70])
def test_blocks_waiting_for_a_later_block_finish(blocks):
    # blocks 0..n-2 spin until block n-1 publishes its data: run in grid order they would wait
    # forever, so a spinning loop lets the blocks that have not started run first
    m = tileir.parse(WAIT_FOR_LAST_BLOCK)
    flag, data = np.zeros(1, np.int32), np.zeros(1, np.int32)
    out = np.full(blocks, -1, np.int32)
    info = tileir.launch(m, "k", (blocks,), [flag, data, out])
    assert info.mode == "sequential"
    assert out[:-1].tolist() == [7] * (blocks - 1) and out[-1] == -1 and flag[0] == 1


def test_a_block_waiting_for_nothing_is_still_stopped():
    m = tileir.parse(WAIT_FOR_LAST_BLOCK.replace("%last = subi %n, %c1", "%last = addi %n, %c1"))
    with pytest.raises(tileir.LaunchError, match="without 'break'") as err:
        tileir.launch(m, "k", (3,), [np.zeros(1, np.int32), np.zeros(1, np.int32),
                                     np.zeros(3, np.int32)], max_loop_iterations=5000)
    assert "tile block (2, 0, 0)" in str(err.value)      # the innermost waiting block


def test_insert_and_fpowi_13_4():
    d = np.zeros(16, np.int32)
    s = np.arange(1, 5, dtype=np.int32)
    got = run_snippet("""%c = constant <i32: 2> : tile<i32>
    %r = insert %a0, %a1[%c] : tile<4xi32>, tile<16xi32>""", [s, d], [("%r", (16,), "i32")])[0]
    assert got.tolist() == [0] * 8 + [1, 2, 3, 4] + [0] * 4
    x = np.array([2, 3, -1.5, 0], np.float32)
    n = np.array([2, 3, 2, 0], np.int32)
    got = run_op("%r = fpowi %a0, %a1 : tile<4xf32>, tile<4xi32>", [x, n], (4,), "f32")
    assert got.tolist() == [4.0, 27.0, 2.25, 1.0]


def test_13_4_token_ops_are_no_ops():
    got = run_snippet("""%t0 = make_token : token
    %t1 = gdc_wait_tko token = %t0 -> token
    %t2 = gdc_launch_dependents_tko -> token
    %t3 = memory_fence_alias_tko %t1
    %r = addi %a0, %a0 : tile<i32>""", [np.array(21, np.int32)], [("%r", (), "i32")])[0]
    assert int(got) == 42
