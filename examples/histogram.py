"""Atomic histogram: many tile blocks incrementing shared bins."""

import numpy as np

KERNEL = "histogram"
TOLERANCE = 0.0
N, BINS = 50_000, 37


def setup(rng):
    data = rng.integers(0, BINS, N).astype(np.int32)
    hist = np.zeros(BINS, np.int32)
    return ((N + 1023) // 1024,), [data, hist, N]


def reference(args):
    return {1: np.bincount(args[0], minlength=BINS)}
