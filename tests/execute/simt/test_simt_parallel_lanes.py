"""scf.parallel whose bounds differ between threads (helper h2's test): each thread runs its
own iteration space."""
import numpy as np

import tileir
import tileir.gpu


def test_parallel_divergent_bounds_in_kernel():
    src = """
gpu.module @k {
  gpu.func @f(%o: memref<32xindex>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %s = scf.parallel (%i) = (%c0) to (%t) step (%c1) init (%c0) -> index {
      scf.reduce(%i : index) {
      ^bb0(%x: index, %y: index):
        %r = arith.addi %x, %y : index
        scf.reduce.return %r : index
      }
    }
    memref.store %s, %o[%t] : memref<32xindex>
    gpu.return
  }
}"""
    o = np.full(32, -1, np.int64)
    tileir.gpu.launch(tileir.parse(src), "k::f", grid=(1, 1, 1), block=(32, 1, 1), args=[o])
    t = np.arange(32)
    np.testing.assert_array_equal(o, t * (t - 1) // 2)
