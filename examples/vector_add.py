"""Vector add with a length that is not a multiple of the tile size."""

import numpy as np

KERNEL = "vector_add"
TOLERANCE = 0.0          # f32 addition is exact-rounded: bit-identical to NumPy
N = 100_003
TILE = 1024


def setup(rng):
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    c = np.zeros(N, dtype=np.float32)
    return ((N + TILE - 1) // TILE,), [a, b, c, N]


def reference(args):
    a, b, _, _ = args
    return {2: a + b}
