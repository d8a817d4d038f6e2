"""The shared-memory block reduction used by several SIMT tests: 256 threads per block, the
tree ``sh[tid] += sh[tid + s]`` for s = 128 .. 1 with a barrier after each step, and its
reference (the same f32 additions in the same order)."""

from __future__ import annotations

import numpy as np

WG = "#gpu.address_space<workgroup>"

#: the kernel's parameters and its workgroup attribution
PARAMS = "%in: memref<?xf32>, %out: memref<?xf32>"
ATTRS = f"workgroup(%sh: memref<256xf32, {WG}>)"

_BODY = """
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c256 = arith.constant 256 : index
      %base = arith.muli %bid, %c256 : index
      %i = arith.addi %base, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      memref.store %x, %sh[%tid] : memref<256xf32, WG>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %last = scf.for %step = %c0 to %c8 step %c1 iter_args(%s = %c128) -> (index) {
        %active = arith.cmpi ult, %tid, %s : index
        scf.if %active {
          %j = arith.addi %tid, %s : index
          %u = memref.load %sh[%tid] : memref<256xf32, WG>
          %v = memref.load %sh[%j] : memref<256xf32, WG>
          %w = arith.addf %u, %v : f32
          memref.store %w, %sh[%tid] : memref<256xf32, WG>
        }
        BARRIER
        %half = arith.divui %s, %c2 : index
        scf.yield %half : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %r = memref.load %sh[%c0] : memref<256xf32, WG>
        memref.store %r, %out[%bid] : memref<?xf32>
      }
""".replace("WG", WG)


def block_reduce_body(barrier: str = "gpu.barrier") -> str:
    """The kernel body, with ``barrier`` in place of the barrier after each tree step (``""``
    for a racy variant)."""
    return _BODY.replace("BARRIER", barrier)


def tree_sums(x: np.ndarray) -> np.ndarray:
    """Per row of 256, the kernel's tree of f32 additions."""
    t = x.reshape(-1, 256).copy()
    s = 128
    while s >= 1:
        t[:, :s] = t[:, :s] + t[:, s:2 * s]
        s //= 2
    return t[:, 0]
