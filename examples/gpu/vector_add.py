"""c = a + b on 2^16 floats, 256 threads per block, launched from a host func.func."""
import numpy as np

FUNC = "main"
TOLERANCE = 0.0
N = 1 << 16


def setup(rng):
    a = rng.standard_normal(N).astype(np.float32)
    b = rng.standard_normal(N).astype(np.float32)
    return [a, b, np.zeros(N, np.float32), N]


def reference(args):
    return {2: args[0] + args[1]}
