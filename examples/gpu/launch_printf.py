"""gpu.launch (region form) scaling a 4x8 array, with gpu.printf from thread 0 of each block."""
import numpy as np

FUNC = "main"
TOLERANCE = 0.0


def setup(rng):
    return [np.arange(32, dtype=np.float32).reshape(4, 8), 2.0]


def reference(args):
    return {0: np.arange(32, dtype=np.float32).reshape(4, 8) * 2}


def check_stdout(text):
    return text == "".join(f"block {b} starts with {16.0 * b:.1f}\n" for b in range(4))
