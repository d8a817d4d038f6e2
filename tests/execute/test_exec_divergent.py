"""Divergent control flow in lock step (tileir.execute.lanes): tile blocks that disagree about
an ``if``, a ``for`` trip count or the iteration that leaves a ``loop`` still run batched, each
path for its own lanes, with the same bits as one block at a time."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from differential import Mismatch, differential_launch

# out[b * 16 + i] = 100 * b + i for i < b (a per-block trip count); odd blocks skip i == 3 (an
# early `continue`) and return before writing their count of stores to tot[b]
FOR_RETURN = """cuda_tile.module @m {
  entry @k(%out: tile<ptr<i32>>, %tot: tile<ptr<i32>>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %c8 = constant <i32: 16> : tile<i32>
    %c100 = constant <i32: 100> : tile<i32>
    %odd = remi %bx, %c2 signed : tile<i32>
    %is_odd = cmpi equal %odd, %c1, signed : tile<i32> -> tile<i1>
    %base = muli %bx, %c8 : tile<i32>
    %hundreds = muli %bx, %c100 : tile<i32>
    %s = for %i in (%c0 to %bx, step %c1) : tile<i32> iter_values(%acc = %c0) -> (tile<i32>) {
      %stop = cmpi equal %i, %c3, signed : tile<i32> -> tile<i1>
      %both = andi %stop, %is_odd : tile<i1>
      if %both {
        continue %acc : tile<i32>
      }
      %idx = addi %base, %i : tile<i32>
      %v = addi %hundreds, %i : tile<i32>
      %o1 = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
      %i1 = reshape %idx : tile<i32> -> tile<1xi32>
      %v1 = reshape %v : tile<i32> -> tile<1xi32>
      %p = offset %o1, %i1 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
      %t = store_ptr_tko weak %p, %v1 : tile<1xptr<i32>>, tile<1xi32> -> token
      %acc1 = addi %acc, %c1 : tile<i32>
      continue %acc1 : tile<i32>
    }
    if %is_odd {
      return
    }
    %t1 = reshape %tot : tile<ptr<i32>> -> tile<1xptr<i32>>
    %b1 = reshape %bx : tile<i32> -> tile<1xi32>
    %q = offset %t1, %b1 : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %s1 = reshape %s : tile<i32> -> tile<1xi32>
    %t2 = store_ptr_tko weak %q, %s1 : tile<1xptr<i32>>, tile<1xi32> -> token
    return
  }
}"""

# a `loop` left at a block-dependent iteration (x doubles until it exceeds 10 * (b + 1)), with
# a store only in the `else` branch of a block-dependent `if` after it
LOOP_BREAK = """cuda_tile.module @m {
  entry @k(%out: tile<ptr<i32>>, %flags: tile<ptr<i32>>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c2 = constant <i32: 2> : tile<i32>
    %c3 = constant <i32: 3> : tile<i32>
    %c10 = constant <i32: 10> : tile<i32>
    %b1 = addi %bx, %c1 : tile<i32>
    %limit = muli %b1, %c10 : tile<i32>
    %x, %n = loop iter_values(%v = %c1, %k = %c1) : tile<i32>, tile<i32> -> tile<i32>, tile<i32> {
      %big = cmpi greater_than %v, %limit, signed : tile<i32> -> tile<i1>
      if %big {
        break %v, %k : tile<i32>, tile<i32>
      }
      %v2 = muli %v, %c2 : tile<i32>
      %k2 = addi %k, %c1 : tile<i32>
      continue %v2, %k2 : tile<i32>, tile<i32>
    }
    %o1 = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bi = reshape %bx : tile<i32> -> tile<1xi32>
    %p = offset %o1, %bi : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
    %x1 = reshape %x : tile<i32> -> tile<1xi32>
    %t = store_ptr_tko weak %p, %x1 : tile<1xptr<i32>>, tile<1xi32> -> token
    %r = remi %bx, %c3 signed : tile<i32>
    %z = constant <i32: 0> : tile<i32>
    %third = cmpi equal %r, %z, signed : tile<i32> -> tile<i1>
    if %third {
    } else {
      %f1 = reshape %flags : tile<ptr<i32>> -> tile<1xptr<i32>>
      %q = offset %f1, %bi : tile<1xptr<i32>>, tile<1xi32> -> tile<1xptr<i32>>
      %n1 = reshape %n : tile<i32> -> tile<1xi32>
      %t2 = store_ptr_tko weak %q, %n1 : tile<1xptr<i32>>, tile<1xi32> -> token
    }
    return
  }
}"""


def _both_ways(text: str, grid, make_args):
    kernel = tileir.compile(tileir.parse(text), "k")
    runs = []
    for batch in (True, False):
        args = make_args()
        info = kernel.launch(grid, args, batch=batch)
        runs.append((info, args))
    (info, got), (_, want) = runs
    for g, w in zip(got, want):
        assert g.tobytes() == w.tobytes()
    return info, got


@pytest.mark.parametrize("blocks", [2, 7, 12])
def test_for_with_per_block_bounds_and_return(blocks):
    info, (out, tot) = _both_ways(FOR_RETURN, (blocks,), lambda: [
        np.full(blocks * 16, -1, np.int32), np.full(blocks, -1, np.int32)])
    assert info.mode == "batched" and any("'for'" in d for d in info.divergent), info
    for b in range(blocks):
        want = [100 * b + i if not (b % 2 and i == 3) else -1 for i in range(b)]
        assert out[b * 16: b * 16 + b].tolist() == want
        assert (out[b * 16 + b: b * 16 + 16] == -1).all()
        assert tot[b] == (-1 if b % 2 else b)


@pytest.mark.parametrize("blocks", [3, 9])
def test_loop_left_at_different_iterations(blocks):
    info, (out, flags) = _both_ways(LOOP_BREAK, (blocks,), lambda: [
        np.zeros(blocks, np.int32), np.full(blocks, -1, np.int32)])
    assert info.mode == "batched" and info.divergent, info
    for b in range(blocks):
        x, k = 1, 1
        while not x > 10 * (b + 1):
            x, k = 2 * x, k + 1
        assert out[b] == x
        assert flags[b] == (-1 if b % 3 == 0 else k)


def test_spin_waits_under_divergence_stay_sequential():
    from test_exec_core import WAIT_FOR_LAST_BLOCK
    info = tileir.launch(tileir.parse(WAIT_FOR_LAST_BLOCK), "k", (3,),
                         [np.zeros(1, np.int32), np.zeros(1, np.int32), np.zeros(3, np.int32)])
    assert info.mode == "sequential" and "waiting for each other" in info.reason


def test_differential_check_detects_a_difference():
    kernel = tileir.compile(tileir.parse(LOOP_BREAK), "k")
    out = np.zeros(4, np.int32)

    def wrong_when_batched(k, grid, args, **options):
        args[0][...] = 1 if options.get("batch", True) else 2
        return None
    with pytest.raises(Mismatch, match="differ in argument #0"):
        differential_launch(kernel, (4,), [out, np.zeros(4, np.int32)],
                            launch=wrong_when_batched)
