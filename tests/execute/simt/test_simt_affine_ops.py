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


#: what mlir-opt --pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{
#: gpu-block-dims=1 gpu-thread-dims=1}))" makes of an affine.for nest reading a[i, j] and
#: writing a[i, j + 1] for even j: the kernel keeps affine.load/affine.store
AFFINE_FOR_TO_GPU = """
func.func @scale(%arg0: memref<128x64xf32>, %arg1: f32) {
  %c0 = arith.constant 0 : index
  %c128 = arith.constant 128 : index
  %0 = arith.subi %c128, %c0 : index
  %c1 = arith.constant 1 : index
  %c0_0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %1 = arith.subi %c64, %c0_0 : index
  %c2 = arith.constant 2 : index
  %2 = arith.ceildivsi %1, %c2 : index
  %c1_1 = arith.constant 1 : index
  gpu.launch blocks(%arg2, %arg3, %arg4) in (%arg8 = %0, %arg9 = %c1_1, %arg10 = %c1_1) threads(%arg5, %arg6, %arg7) in (%arg11 = %2, %arg12 = %c1_1, %arg13 = %c1_1) {
    %3 = arith.addi %c0, %arg2 : index
    %4 = arith.muli %c2, %arg5 : index
    %5 = arith.addi %c0_0, %4 : index
    %6 = affine.load %arg0[%3, %5] : memref<128x64xf32>
    %7 = arith.mulf %6, %arg1 : f32
    affine.store %7, %arg0[%3, %5 + 1] : memref<128x64xf32>
    gpu.terminator
  }
  return
}
"""


def test_mlir_affine_for_to_gpu_output():
    a = np.random.default_rng(3).random((128, 64)).astype(np.float32)
    want = a.copy()
    want[:, 1::2] = a[:, 0::2] * np.float32(1.5)
    gpu.run(tileir.parse(AFFINE_FOR_TO_GPU), "scale", args=[a, 1.5])
    np.testing.assert_array_equal(a, want)


ACCESS_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<8x16xi64>, %out: memref<8x16xi64>, %n: index) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %v = affine.load %a[%ty, (%tx + symbol(%n)) mod 16] : memref<8x16xi64>
      affine.store %v, %out[7 - %ty, %tx] : memref<8x16xi64>
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("n", [0, 5, 21])
def test_affine_load_store_in_kernels(n):
    a = np.arange(128, dtype=np.int64).reshape(8, 16)
    out = np.zeros_like(a)
    gpu.launch(tileir.parse(ACCESS_KERNEL), "m::k", grid=(1,), block=(16, 8), args=[a, out, n])
    ty, tx = np.meshgrid(np.arange(8), np.arange(16), indexing="ij")
    want = np.zeros_like(a)
    want[7 - ty, tx] = a[ty, (tx + n) % 16]
    np.testing.assert_array_equal(out, want)


def test_affine_load_out_of_bounds_is_reported():
    text = ACCESS_KERNEL.replace("7 - %ty", "8 - %ty")
    a, out = np.zeros((8, 16), np.int64), np.zeros((8, 16), np.int64)
    with pytest.raises(LaunchError, match="affine.store"):
        gpu.launch(tileir.parse(text), "m::k", grid=(1,), block=(16, 8), args=[a, out, 0])
    assert not out.any()


DIVERGENT = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi64>, %s: index) kernel {
      %tid = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %r = arith.remui %tid, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        %v = affine.apply affine_map<(d0)[s0] -> (d0 * 3 + s0 + 1 + d0 floordiv 4)>(%tid)[%s]
        %vi = arith.index_cast %v : index to i64
        affine.store %vi, %out[%tid] : memref<?xi64>
      }
      gpu.return
    }
  }
}
"""


def test_affine_ops_on_lanes_listed_one_by_one():
    """Under a condition that is no box of lanes (even threads) the values are plain arrays."""
    out = np.full(16, -1, np.int64)
    gpu.launch(tileir.parse(DIVERGENT), "m::k", grid=(1,), block=(16,), args=[out, 5])
    t = np.arange(16)
    want = np.where(t % 2 == 0, t * 3 + 5 + 1 + t // 4, -1)
    np.testing.assert_array_equal(out, want)
