"""Tiled matmul, f16 inputs accumulated in f32, with a K loop and zero padding at the edges."""

import numpy as np

KERNEL = "matmul_f16"
TOLERANCE = 1e-4        # relative to max |C|: the K slices are rounded to f32 one by one
M, N, K = 200, 136, 100


def setup(rng):
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = np.zeros((M, N), dtype=np.float32)
    return ((M + 63) // 64, (N + 63) // 64), [a, b, c, M, N, K]


def reference(args):
    a, b = args[0].astype(np.float64), args[1].astype(np.float64)
    return {2: a @ b}
