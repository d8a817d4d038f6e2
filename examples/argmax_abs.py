"""Custom reduce with two operands and a tie-breaking combiner: max |x| and its index per row."""

import numpy as np

KERNEL = "argmax_abs"
TOLERANCE = 0.0
R, C = 48, 200


def setup(rng):
    x = rng.integers(-50, 50, (R, C)).astype(np.float32)   # many ties
    return (R,), [x, np.zeros(R, np.float32), np.zeros(R, np.int32), R, C]


def reference(args):
    a = np.abs(args[0])
    return {1: a.max(axis=1), 2: a.argmax(axis=1)}
