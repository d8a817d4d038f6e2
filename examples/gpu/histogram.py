"""Histogram of 10,000 values into 256 bins with memref.atomic_rmw across blocks."""
import numpy as np

FUNC = "main"
TOLERANCE = 0.0
N = 10_000


def setup(rng):
    return [rng.integers(0, 1 << 20, N).astype(np.int32), np.zeros(256, np.int32), N]


def reference(args):
    return {1: np.bincount(args[0] & 255, minlength=256).astype(np.int32)}
