"""64x64x64 f32 matmul with 16x16 shared-memory tiles (each product and sum rounded in f32, k
in order: the reference is the same sequential f32 dot product)."""
import numpy as np

FUNC = "main"
TOLERANCE = 0.0
N = 64


def setup(rng):
    a = rng.standard_normal((N, N)).astype(np.float32)
    b = rng.standard_normal((N, N)).astype(np.float32)
    return [a, b, np.zeros((N, N), np.float32), N]


def reference(args):
    a, b = args[0], args[1]
    acc = np.zeros((N, N), np.float32)
    for k in range(N):
        acc = acc + np.outer(a[:, k], b[k, :]).astype(np.float32)
    return {2: acc}
