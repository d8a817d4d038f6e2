"""Row softmax (f32) with a row length that is not a multiple of the tile width."""

import numpy as np

KERNEL = "softmax"
TOLERANCE = 1e-6
M, N = 256, 1000


def setup(rng):
    x = (rng.standard_normal((M, N)) * 4).astype(np.float32)
    y = np.zeros((M, N), dtype=np.float32)
    return (M,), [x, y, M, N, N, N]


def reference(args):
    x = args[0].astype(np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return {1: e / e.sum(axis=1, keepdims=True)}
