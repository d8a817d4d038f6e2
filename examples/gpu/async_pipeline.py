"""saxpy through device memory with an async chain (gpu.alloc/memcpy/launch_func/dealloc/wait)."""
import numpy as np

FUNC = "main"
TOLERANCE = 0.0
N = 1000


def setup(rng):
    return [rng.standard_normal(N).astype(np.float32), rng.standard_normal(N).astype(np.float32),
            2.5]


def reference(args):
    return {1: np.float32(2.5) * args[0] + args[1]}
