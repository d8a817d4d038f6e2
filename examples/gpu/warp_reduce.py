"""Subgroup sums with a gpu.shuffle xor butterfly (offsets 1, 2, 4, 8, 16), launched directly."""
import numpy as np

KERNEL = "kernels::warp_sum"
GRID = (8,)
BLOCK = (128,)
TOLERANCE = 0.0


def setup(rng):
    x = rng.standard_normal(1024).astype(np.float32)
    return [x, np.zeros_like(x)]


def reference(args):
    v = args[0].reshape(-1, 32).copy()
    lanes = np.arange(32)
    k = 1
    while k < 32:
        v = v + v[:, lanes ^ k]
        k *= 2
    return {1: v.reshape(-1)}
