"""cuTile Python kernels for ``tileir demo``: each is written with NVIDIA's ``cuda.tile``, compiled
to Tile IR bytecode by cuTile's ``export_kernel`` and run on the CPU by :func:`tileir.cutile.launch`,
then checked against NumPy.

``CASES`` maps a demo name to a one-line description; :func:`run_case` runs one and returns a
dict with ``kernel``, ``grid``, ``mode``, ``seconds``, ``error`` (largest error relative to the
largest expected magnitude), ``tolerance`` and ``ok``.  Importing this module does not import
``cuda.tile``; running a case needs it (``pip install -e ".[cutile]"``).
"""

from __future__ import annotations

import time

import numpy as np

__all__ = ["CASES", "run_case"]

CASES = {
    "cutile_vector_add": "cuTile vector add, 100003 elements (not a multiple of the tile)",
    "cutile_softmax": "cuTile row softmax (f16 in, f32 math), NEG_INF padding",
    "cutile_matmul": "cuTile tiled matmul with ct.mma, f16 inputs -> f32",
}

def _kernels():
    from ._cutile import require_cutile
    require_cutile()
    from . import _demo_kernels
    return {"vector_add": _demo_kernels.vector_add, "softmax": _demo_kernels.softmax,
            "matmul": _demo_kernels.matmul}


def _error(got, want) -> float:
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    scale = max(1.0, float(np.max(np.abs(want), initial=0.0)))
    return float(np.max(np.abs(got - want), initial=0.0)) / scale


def run_case(name: str, seed: int = 0, batch: bool = True) -> dict:
    """Run demo ``name`` (a key of :data:`CASES`) on the CPU and compare with NumPy."""
    from . import launch
    if name not in CASES:
        raise KeyError(name)
    k = _kernels()
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    if name == "cutile_vector_add":
        n, tile = 100_003, 1024
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        c = np.zeros_like(a)
        info = launch(k["vector_add"], (-(-n // tile),), (a, b, c, tile), batch=batch)
        error, tolerance = _error(c, a + b), 0.0
    elif name == "cutile_softmax":
        x = (rng.standard_normal((64, 1000)) * 2).astype(np.float16)
        y = np.zeros_like(x)
        info = launch(k["softmax"], (64,), (x, y, 1024), batch=batch)
        xf = x.astype(np.float64)
        e = np.exp(xf - xf.max(axis=1, keepdims=True))
        error, tolerance = _error(y, e / e.sum(axis=1, keepdims=True)), 1e-3
    else:
        M, N, K = 192, 160, 256
        A = rng.standard_normal((M, K)).astype(np.float16)
        B = rng.standard_normal((K, N)).astype(np.float16)
        C = np.zeros((M, N), dtype=np.float32)
        info = launch(k["matmul"], (-(-M // 64), -(-N // 32)), (A, B, C, 64, 32, 32),
                      batch=batch)
        error, tolerance = _error(C, A.astype(np.float64) @ B.astype(np.float64)), 1e-5
    return {"kernel": name[len("cutile_"):], "grid": "x".join(str(g) for g in info.grid),
            "mode": info.mode, "seconds": time.perf_counter() - start, "error": error,
            "tolerance": tolerance, "ok": error <= tolerance}
