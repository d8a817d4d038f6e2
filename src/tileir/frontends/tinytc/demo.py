"""The tinytc row of ``tileir demo``: a batched GEMM (tinytc's small_gemm_batched recipe)
lowered to cuda_tile, run on the CPU and checked against NumPy's batched matmul."""

from __future__ import annotations

import time

import numpy as np

__all__ = ["BATCHED_GEMM", "run_batched_gemm"]

#: C(:,:,g) = alpha * A(:,:,g) B(:,:,g) + beta * C(:,:,g), one work group per g
BATCHED_GEMM = """\
func @gemm(%alpha: f64, %A: memref<f64x{M}x{K}x?>, %B: memref<f64x{K}x{N}x?>, %beta: f64,
           %C: memref<f64x{M}x{N}x?>) {{
  %gid = group_id
  %a = subview %A[:,:,%gid] : memref<f64x{M}x{K}x?>
  %b = subview %B[:,:,%gid] : memref<f64x{K}x{N}x?>
  %c = subview %C[:,:,%gid] : memref<f64x{M}x{N}x?>
  gemm.n.n %alpha, %a, %b, %beta, %c
      : f64, memref<f64x{M}x{K}>, memref<f64x{K}x{N}>, f64, memref<f64x{M}x{N}>
}}
"""


def run_batched_gemm(seed: int = 0, m: int = 16, n: int = 8, k: int = 16,
                     batch: int = 200) -> dict:
    """Run the kernel once; ``{"grid", "mode", "seconds", "error", "tolerance", "ok"}``."""
    from . import compile as compile_kernel
    from . import parse
    rng = np.random.default_rng(seed)
    prog = parse(BATCHED_GEMM.format(M=m, N=n, K=k), filename="batched_gemm.ir")
    a = np.asfortranarray(rng.standard_normal((m, k, batch)))
    b = np.asfortranarray(rng.standard_normal((k, n, batch)))
    c = np.asfortranarray(rng.standard_normal((m, n, batch)))
    want = 1.5 * np.matmul(a.transpose(2, 0, 1), b.transpose(2, 0, 1)).transpose(1, 2, 0) \
        - 0.5 * c
    kernel = compile_kernel(prog, "gemm")
    start = time.perf_counter()
    info = kernel.launch(args=[1.5, a, b, -0.5, c], group_size=batch)
    seconds = time.perf_counter() - start
    error = float(np.max(np.abs(c - want)) / max(np.max(np.abs(want)), 1.0))
    return {"grid": str(batch), "mode": info.mode, "seconds": seconds, "error": error,
            "tolerance": 1e-12, "ok": error <= 1e-12}
