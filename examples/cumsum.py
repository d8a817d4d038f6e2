"""Row-wise cumulative sum with a `scan`."""

import numpy as np

KERNEL = "cumsum"
TOLERANCE = 1e-5        # relative: the scan adds in a tree order, NumPy left to right
R, C = 32, 1000


def setup(rng):
    x = rng.standard_normal((R, C)).astype(np.float32)
    y = np.zeros((R, C), np.float32)
    return (R,), [x, y, R, C]


def reference(args):
    return {1: np.cumsum(args[0].astype(np.float64), axis=1)}
