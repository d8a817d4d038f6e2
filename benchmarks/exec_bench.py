"""CPU executor benchmark: our launch time vs. the NumPy whole-array equivalent.

    python benchmarks/exec_bench.py [--repeat N] [--threads N]

Kernels (from examples/): vector add (2**20 f32, tiles of 1024 -> 1024 tile blocks), row
softmax (1024 x 1024 f32, one 1x1024 tile per row), matmul (512**3 f32, 64x64 output tiles,
K loop over 32-wide slices).  Each time is the best of ``--repeat`` runs after one warm-up run
(the warm-up also compiles the kernel; compilation is not timed).  Targets for issue 3: within
100x of NumPy for vector add, within 20x for softmax and matmul.

``--threads N`` runs the whole benchmark with ``N`` BLAS threads (it re-executes itself with
``OPENBLAS_NUM_THREADS``/``OMP_NUM_THREADS``/``MKL_NUM_THREADS`` set); both sides of each ratio
use the same BLAS.  ``--clock cpu`` times with the process CPU clock instead of the wall clock:
with ``--threads 1`` that is the steadiest measure on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import tileir  # noqa: E402

EXAMPLES = ROOT / "examples"


CLOCK = time.perf_counter


def best_of(fn, repeat: int) -> float:
    fn()
    best = float("inf")
    for _ in range(repeat):
        t = CLOCK()
        fn()
        best = min(best, CLOCK() - t)
    return best


def bench_vector_add(repeat: int):
    n = 1 << 20
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c = np.zeros(n, np.float32)
    k = tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "vector_add")
    ours = best_of(lambda: k.launch((n // 1024,), [a, b, c, n]), repeat)
    ref = best_of(lambda: np.add(a, b), repeat)
    err = float(np.abs(c - (a + b)).max())
    return "vector add 2^20 f32", (n // 1024, 1, 1), ours, ref, err, 100.0


def bench_softmax(repeat: int):
    m = n = 1024
    rng = np.random.default_rng(0)
    x = rng.standard_normal((m, n)).astype(np.float32)
    y = np.zeros_like(x)
    k = tileir.compile(tileir.load(EXAMPLES / "softmax.mlir"), "softmax")
    ours = best_of(lambda: k.launch((m,), [x, y, m, n, n, n]), repeat)

    def numpy_softmax():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    ref = best_of(numpy_softmax, repeat)
    err = float(np.abs(y - numpy_softmax()).max())
    return "softmax 1024x1024 f32", (m, 1, 1), ours, ref, err, 20.0


def bench_matmul(repeat: int):
    m = n = kk = 512
    rng = np.random.default_rng(0)
    a = rng.standard_normal((m, kk)).astype(np.float32)
    b = rng.standard_normal((kk, n)).astype(np.float32)
    c = np.zeros((m, n), np.float32)
    k = tileir.compile(tileir.load(EXAMPLES / "matmul.mlir"), "matmul_f32")
    ours = best_of(lambda: k.launch((m // 64, n // 64), [a, b, c, m, n, kk]), repeat)
    ref = best_of(lambda: a @ b, repeat)
    err = float(np.abs(c - a @ b).max())
    return "matmul 512^3 f32", (m // 64, n // 64, 1), ours, ref, err, 20.0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--threads", type=int, default=None, help="BLAS threads (default: BLAS's own)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall clock (default) or process CPU time")
    opts = p.parse_args(argv)
    global CLOCK
    CLOCK = time.process_time if opts.clock == "cpu" else time.perf_counter
    if opts.threads is not None and os.environ.get("_TILEIR_BENCH_CHILD") != "1":
        env = dict(os.environ, _TILEIR_BENCH_CHILD="1")
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = str(opts.threads)
        return subprocess.call([sys.executable, __file__, "--repeat", str(opts.repeat),
                                "--threads", str(opts.threads), "--clock", opts.clock], env=env)
    print(f"(BLAS threads: {opts.threads or 'default'}; clock: {opts.clock})")
    rows = [f(opts.repeat) for f in (bench_vector_add, bench_softmax, bench_matmul)]
    print(f"{'kernel':<24} {'grid':<14} {'tileir':>10} {'numpy':>10} {'ratio':>8} {'target':>8}"
          f" {'max err':>10}")
    ok = True
    for name, grid, ours, ref, err, target in rows:
        ratio = ours / ref
        ok &= ratio <= target
        g = "x".join(str(d) for d in grid)
        print(f"{name:<24} {g:<14} {ours * 1e3:>8.2f}ms {ref * 1e3:>8.2f}ms {ratio:>7.1f}x "
              f"{'<=' + str(int(target)) + 'x':>8} {err:>10.2g}")
    print("all targets met" if ok else "some targets missed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
