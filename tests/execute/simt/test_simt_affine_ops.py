"""affine.apply / min / max executed on the host and in kernels, against Python's integer
arithmetic (floordiv rounds down, ceildiv up, mod is non-negative), including the program
MLIR's ``--convert-parallel-loops-to-gpu`` makes of an ``scf.parallel`` loop."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import LaunchError

HOST = """
func.func @f(%a: index, %b: index, %c: index) -> (index, index, index, index, index) {
  %0 = affine.apply affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>(%a)[%b, %c]
  %1 = affine.apply affine_map<(d0, d1) -> (d0 floordiv 4 + d1 mod 3)>(%a, %b)
  %2 = affine.min affine_map<(d0)[s0] -> (d0, s0 - 1, 16)>(%a)[%b]
  %3 = affine.max affine_map<()[s0] -> (s0 ceildiv 2, 0)>()[%c]
  %4 = affine.apply affine_map<(d0) -> (d0 mod 5 + d0)>(%a)
  return %0, %1, %2, %3, %4 : index, index, index, index, index
}
"""


def _expected(a: int, b: int, c: int) -> tuple:
    return (a * b + c, a // 4 + b % 3, min(a, b - 1, 16), max(-(-c // 2), 0), a % 5 + a)


@pytest.mark.parametrize("a,b,c", [(7, 3, 5), (-7, 3, -5), (0, 0, 0), (-1, 20, 9),
                                   (1 << 40, 3, -(1 << 33))])
def test_host_values(a, b, c):
    got = [int(x) for x in gpu.run(tileir.parse(HOST), "f", args=[a, b, c])]
    assert got == list(_expected(a, b, c))


KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi64>, %src: memref<?xi64>, %s: index) kernel {
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %dim = gpu.block_dim x
      %i = affine.apply affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>(%bid, %tid)[%dim]
      %q = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0 + d0 mod s0 + d0 ceildiv s0)>(%i)[%s]
      %lo = affine.min affine_map<(d0) -> (d0, 37)>(%i)
      %hi = affine.max affine_map<(d0)[s0] -> (d0 - s0, 3)>(%lo)[%s]
      %x = memref.load %src[%i] : memref<?xi64>
      %xi = arith.index_cast %x : i64 to index
      %r0 = arith.addi %q, %hi : index
      %r = arith.addi %r0, %xi : index
      %ri = arith.index_cast %r : index to i64
      memref.store %ri, %out[%i] : memref<?xi64>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("s", [1, 3, 7])
def test_kernel_lanes(s):
    blocks, threads = 5, 16
    n = blocks * threads
    src = np.arange(n, dtype=np.int64) * 1000
    out = np.zeros(n, np.int64)
    gpu.launch(tileir.parse(KERNEL), "m::k", grid=(blocks,), block=(threads,),
               args=[out, src, s])
    i = np.arange(n)
    lo = np.minimum(i, 37)
    want = i // s + i % s + -(-i // s) + np.maximum(lo - s, 3) + src
    np.testing.assert_array_equal(out, want)


def test_non_positive_divisor_is_reported():
    module = tileir.parse(KERNEL)
    out, src = np.zeros(32, np.int64), np.zeros(32, np.int64)
    with pytest.raises(LaunchError, match="non-positive"):
        gpu.launch(module, "m::k", grid=(2,), block=(16,), args=[out, src, 0])


PARALLEL_TO_GPU = """
#map = affine_map<(d0)[s0, s1] -> ((d0 - s0) ceildiv s1)>
#map1 = affine_map<(d0)[s0, s1] -> (d0 * s0 + s1)>
module attributes {gpu.container_module} {
  func.func @saxpy(%arg0: memref<?xf32>, %arg1: memref<?xf32>, %arg2: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %dim = memref.dim %arg0, %c0 : memref<?xf32>
    %0 = affine.apply #map(%dim)[%c0, %c2]
    gpu.launch_func @k::@k blocks in (%0, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%c2 : index, %c0 : index, %arg0 : memref<?xf32>, %arg1 : memref<?xf32>, %arg2 : f32)
    return
  }
  gpu.module @k {
    gpu.func @k(%arg0: index, %arg1: index, %arg2: memref<?xf32>, %arg3: memref<?xf32>, %arg4: f32) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %block_id_x = gpu.block_id  x
      %0 = affine.apply #map1(%block_id_x)[%arg0, %arg1]
      %1 = memref.load %arg2[%0] : memref<?xf32>
      %2 = memref.load %arg3[%0] : memref<?xf32>
      %3 = arith.mulf %1, %arg4 : f32
      %4 = arith.addf %3, %2 : f32
      memref.store %4, %arg3[%0] : memref<?xf32>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("n", [1, 2, 101, 1000])
def test_mlir_parallel_loops_to_gpu_output(n):
    """What mlir-opt --gpu-map-parallel-loops --convert-parallel-loops-to-gpu
    --gpu-kernel-outlining makes of a step-2 scf.parallel saxpy."""
    rng = np.random.default_rng(n)
    a, b = rng.random(n).astype(np.float32), rng.random(n).astype(np.float32)
    want = b.copy()
    want[::2] = a[::2] * np.float32(2.5) + b[::2]
    gpu.run(tileir.parse(PARALLEL_TO_GPU), "saxpy", args=[a, b, 2.5])
    np.testing.assert_array_equal(b, want)
