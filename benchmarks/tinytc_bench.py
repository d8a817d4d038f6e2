"""Batched small GEMM in tinytc (the small_gemm_batched recipe of tinytc's RECIPES.md): the
kernel lowered to cuda_tile and run by tileir's CPU executor, against NumPy's batched
``matmul`` on the same data, side by side in one run.

    python benchmarks/tinytc_bench.py [--groups 10000] [--repeat 3]

As tinytc's recipe does for beta = 0, the kernel is the ``gemm_beta0`` variant (beta the
immediate 0: C is only written).  Prints, per case, the best time of each and the ratio
tileir / NumPy (goal: <= 3x), for both ``mmaf`` modes of the executor (``mma="fast"``, tinytc's
default: sums in the element type through BLAS, as tinytc computes; ``mma="exact"``: exact
sums rounded once; f64 is DGEMM in both).  One work group per matrix: each becomes a tile
block computing its C with one ``mmaf`` on power-of-two tiles whose overhang is zero padding
(56x9x56: 64x16x64), of which the executor multiplies only the loaded part; the executor runs
all blocks in lock step, split across the cores.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tileir import tinytc

KERNEL = """\
func @gemm_beta0(%alpha: {T}, %A: memref<{T}x{M}x{K}x?>, %B: memref<{T}x{K}x{N}x?>, %beta: {T},
           %C: memref<{T}x{M}x{N}x?>) {{
  %gid = group_id
  %a = subview %A[:,:,%gid] : memref<{T}x{M}x{K}x?>
  %b = subview %B[:,:,%gid] : memref<{T}x{K}x{N}x?>
  %c = subview %C[:,:,%gid] : memref<{T}x{M}x{N}x?>
  gemm.n.n %alpha, %a, %b, 0.0, %c
      : {T}, memref<{T}x{M}x{K}>, memref<{T}x{K}x{N}>, {T}, memref<{T}x{M}x{N}>
}}
"""

#: (M, N, K, element type): C is MxN, the product has K terms
CASES = [(56, 9, 56, "f64"), (32, 32, 32, "f32")]


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run_case(m: int, n: int, k: int, el: str, groups: int, repeat: int,
             mma: str = "fast") -> dict:
    dtype = np.float64 if el == "f64" else np.float32
    rng = np.random.default_rng(0)
    prog = tinytc.parse(KERNEL.format(T=el, M=m, N=n, K=k), filename="gemm.ir")
    kernel = tinytc.compile(prog, "gemm_beta0")
    # tinytc's layout: column-major matrices, the batch index last
    a = np.asfortranarray(rng.standard_normal((m, k, groups)).astype(dtype))
    b = np.asfortranarray(rng.standard_normal((k, n, groups)).astype(dtype))
    c = np.zeros((m, n, groups), dtype=dtype, order="F")
    # NumPy's natural batched layout (batch first, C order) with the same values
    na, nb = np.ascontiguousarray(a.transpose(2, 0, 1)), np.ascontiguousarray(b.transpose(2, 0, 1))
    nc = np.empty((groups, m, n), dtype=dtype)
    t_tileir = _best(lambda: kernel.launch(args=[1.0, a, b, 0.0, c], group_size=groups,
                                                      mma=mma), repeat)
    t_numpy = _best(lambda: np.matmul(na, nb, out=nc), repeat)
    err = float(np.max(np.abs(c.transpose(2, 0, 1) - nc)) / max(np.max(np.abs(nc)), 1.0))
    return {"case": f"{m}x{n}x{k} {el}", "mma": mma, "groups": groups, "tileir": t_tileir,
            "numpy": t_numpy, "ratio": t_tileir / t_numpy, "error": err}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--groups", type=int, default=10_000)
    p.add_argument("--repeat", type=int, default=3)
    opts = p.parse_args()
    print(f"{'case (MxNxK)':<16} {'mma':<6} {'groups':>7} {'tileir':>10} {'numpy':>10} "
          f"{'ratio':>7} {'rel. error':>10}")
    for m, n, k, el in CASES:
        for mma in ("fast", "exact"):
            r = run_case(m, n, k, el, opts.groups, opts.repeat, mma)
            print(f"{r['case']:<16} {mma:<6} {r['groups']:>7} {r['tileir'] * 1e3:>8.1f}ms "
                  f"{r['numpy'] * 1e3:>8.1f}ms {r['ratio']:>6.1f}x {r['error']:>10.1e}")


if __name__ == "__main__":
    main()
