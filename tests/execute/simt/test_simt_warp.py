"""gpu.warp_execute_on_lane_0 in the SIMT engine: the region runs once per subgroup, on the lane
whose laneid is 0; non-distributed (same-shape) arguments are lane 0's values; results of the
region's shape are broadcast to every lane of the warp."""

from __future__ import annotations

import numpy as np

import tileir
import tileir.gpu

SRC = """
gpu.module @m {
  gpu.func @k(%out: memref<?xi32>, %side: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %lane = gpu.lane_id
    %ti = arith.index_cast %g : index to i32
    %r:2 = gpu.warp_execute_on_lane_0(%lane)[32] args(%ti : i32) -> (i32, i32) {
    ^bb0(%a: i32):
      %one = arith.constant 1 : i32
      %c100 = arith.constant 100 : i32
      %x = arith.muli %a, %c100 : i32
      %y = arith.addi %x, %one : i32
      memref.store %y, %side[%g] : memref<?xi32>
      gpu.yield %x, %y : i32, i32
    }
    %s = arith.addi %r#0, %r#1 : i32
    memref.store %s, %out[%g] : memref<?xi32>
    gpu.return
  }
}
"""


def test_warp_execute_on_lane_0_scalar_args_and_results():
    blocks, threads = 2, 80            # 3 subgroups per block, the last one partial
    n = blocks * threads
    out = np.zeros(n, np.int32)
    side = np.full(n, -1, np.int32)
    tileir.gpu.launch(tileir.parse(SRC), "m::k", grid=(blocks,), block=(threads,),
                      args=[out, side])
    g = np.arange(n)
    t = g % threads
    lane0 = g - t % 32                 # the global id of the warp's lane 0
    np.testing.assert_array_equal(out, 200 * lane0 + 1)
    want_side = np.where(t % 32 == 0, 100 * g + 1, -1)   # only lane 0 ran the region
    np.testing.assert_array_equal(side, want_side)


def test_warp_execute_on_lane_0_without_results():
    src = """
gpu.module @m {
  gpu.func @k(%side: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %lane = gpu.lane_id
    gpu.warp_execute_on_lane_0(%lane)[32] {
      %one = arith.constant 1 : i32
      memref.store %one, %side[%t] : memref<?xi32>
    }
    gpu.return
  }
}
"""
    side = np.zeros(100, np.int32)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(100,), args=[side])
    np.testing.assert_array_equal(np.flatnonzero(side), [0, 32, 64, 96])
