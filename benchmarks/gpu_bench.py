"""MLIR gpu dialect kernels on the CPU: tileir's SIMT engine against NumPy and numba's simulator.

    python benchmarks/gpu_bench.py [--quick] [--repeat 5] [--no-numba] [--backend auto]

Cases (the programs are ``examples/gpu``'s): vector add of 2^20 f32 (256 threads per block), a
shared-memory block reduction of 2^20 f32 with barriers (256 threads per block, one partial sum
per block), and a 16x16-tiled shared-memory matmul of 256^3 f32.  For each: tileir's time (median
of ``--repeat`` launches after a warm-up, the module prepared once), NumPy's whole-array
equivalent (``a + b``; ``a.reshape(-1, 256).sum(1)``; ``a @ b``), their ratio, and numba's CUDA
simulator (``NUMBA_ENABLE_CUDASIM=1``, run in a subprocess) on a size it finishes in 5-25 s
(2^13 elements, 64^3: large enough that tileir's time there is not only its per-op overhead),
compared with tileir on that same size.  tileir runs with ``--backend`` (default ``auto``: large
launches of kernels that qualify run as compiled C, the rest on the lane engine); the column
``lanes`` repeats each case on the lane engine alone (``backend="lanes"``).  Goals: vector add <= 3x NumPy, reduction <= 5x, matmul
<= 20x, and >= 1,000x faster than numba's simulator on every case.  Results are checked.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import tileir  # noqa: E402
from tileir import gpu  # noqa: E402

EXAMPLES = ROOT / "examples" / "gpu"


def _median_time(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _program(name: str) -> gpu.Program:
    return gpu.Program(tileir.parse((EXAMPLES / f"{name}.mlir").read_text()))


def tileir_vector_add(n: int, repeat: int, backend: str) -> float:
    prog = _program("vector_add")
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    t = _median_time(lambda: gpu.launch(prog, "kernels::vector_add", grid=(-(-n // 256),),
                                        block=(256,), args=[a, b, c, n],
                                        backend=backend), repeat)
    assert np.array_equal(c, a + b), "vector add: wrong result"
    return t


def numpy_vector_add(n: int, repeat: int) -> float:
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    return _median_time(lambda: np.add(a, b, out=c), repeat)


def tileir_reduction(n: int, repeat: int, backend: str) -> float:
    prog = _program("block_reduce")
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    out = np.zeros(n // 256, np.float32)
    t = _median_time(lambda: gpu.launch(prog, "kernels::block_sum", grid=(n // 256,),
                                        block=(256,), args=[x, out], backend=backend),
                     repeat)
    assert np.allclose(out, x.reshape(-1, 256).sum(1, dtype=np.float64), rtol=1e-5), \
        "reduction: wrong result"
    return t


def numpy_reduction(n: int, repeat: int) -> float:
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    return _median_time(lambda: x.reshape(-1, 256).sum(1), repeat)


def tileir_matmul(n: int, repeat: int, backend: str) -> float:
    prog = _program("tiled_matmul")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    t = _median_time(lambda: gpu.launch(prog, "kernels::matmul", grid=(n // 16, n // 16),
                                        block=(16, 16), args=[a, b, c, n],
                                        backend=backend), repeat)
    assert np.allclose(c, a @ b, rtol=1e-3, atol=1e-3), "matmul: wrong result"
    return t


def numpy_matmul(n: int, repeat: int) -> float:
    rng = np.random.default_rng(2)
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    return _median_time(lambda: a @ b, repeat)


#: numba.cuda versions of the three kernels, run under the simulator in a subprocess
NUMBA_SCRIPT = textwrap.dedent("""
    import json, sys, time
    import numpy as np
    from numba import cuda, float32
    case, n = sys.argv[1], int(sys.argv[2])

    @cuda.jit
    def vector_add(a, b, c, n):
        i = cuda.blockIdx.x * cuda.blockDim.x + cuda.threadIdx.x
        if i < n:
            c[i] = a[i] + b[i]

    @cuda.jit
    def block_sum(x, out):
        sh = cuda.shared.array(256, float32)
        t = cuda.threadIdx.x
        sh[t] = x[cuda.blockIdx.x * 256 + t]
        cuda.syncthreads()
        s = 128
        while s > 0:
            if t < s:
                sh[t] += sh[t + s]
            cuda.syncthreads()
            s //= 2
        if t == 0:
            out[cuda.blockIdx.x] = sh[0]

    @cuda.jit
    def matmul(A, B, C, n):
        As = cuda.shared.array((16, 16), float32)
        Bs = cuda.shared.array((16, 16), float32)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        row = cuda.blockIdx.y * 16 + ty
        col = cuda.blockIdx.x * 16 + tx
        acc = float32(0.0)
        for t in range(0, n, 16):
            As[ty, tx] = A[row, t + tx]
            Bs[ty, tx] = B[t + ty, col]
            cuda.syncthreads()
            for k in range(16):
                acc += As[ty, k] * Bs[k, tx]
            cuda.syncthreads()
        C[row, col] = acc

    rng = np.random.default_rng(0)
    start = time.perf_counter()
    if case == "vector_add":
        a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
        c = np.zeros(n, np.float32)
        vector_add[(n + 255) // 256, 256](a, b, c, n)
        ok = bool(np.array_equal(c, a + b))
    elif case == "reduction":
        x = rng.random(n, dtype=np.float32)
        out = np.zeros(n // 256, np.float32)
        block_sum[n // 256, 256](x, out)
        ok = bool(np.allclose(out, x.reshape(-1, 256).sum(1), rtol=1e-5))
    else:
        A = rng.standard_normal((n, n)).astype(np.float32)
        B = rng.standard_normal((n, n)).astype(np.float32)
        C = np.zeros((n, n), np.float32)
        matmul[(n // 16, n // 16), (16, 16)](A, B, C, n)
        ok = bool(np.allclose(C, A @ B, rtol=1e-3, atol=1e-3))
    print(json.dumps({"seconds": time.perf_counter() - start, "ok": ok}))
""")


def numba_sim(case: str, n: int, timeout: float = 600) -> dict | None:
    """Run one case under numba's CUDA simulator; None when numba is not installed."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    try:
        r = subprocess.run([sys.executable, "-c", NUMBA_SCRIPT, case, str(n)], env=env,
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"seconds": float("inf"), "ok": False}
    if r.returncode != 0:
        if "No module named 'numba'" in r.stderr:
            return None
        raise RuntimeError(f"numba simulator failed: {r.stderr[-500:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


CASES = [
    # name, tileir fn, numpy fn, size, numba size, goal vs NumPy, size label
    ("vector add", tileir_vector_add, numpy_vector_add, 1 << 20, 1 << 13, 3.0, "2^20 f32"),
    ("block reduction", tileir_reduction, numpy_reduction, 1 << 20, 1 << 13, 5.0, "2^20 f32"),
    ("tiled matmul", tileir_matmul, numpy_matmul, 256, 64, 20.0, "256^3 f32"),
]
NUMBA_KEYS = {"vector add": "vector_add", "block reduction": "reduction",
              "tiled matmul": "matmul"}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-numba", action="store_true", help="skip numba's CUDA simulator")
    ap.add_argument("--backend", default="auto", choices=gpu.BACKENDS,
                    help="tileir's backend (default auto)")
    args = ap.parse_args(argv)
    threads = os.environ.get("OMP_NUM_THREADS") or os.environ.get("OPENBLAS_NUM_THREADS") or \
        "default"
    print(f"tileir SIMT engine (backend {args.backend}) vs NumPy {np.__version__} (BLAS threads: "
          f"{threads}) and numba's CUDA simulator; times are medians")
    print(f"{'case':<16} {'size':<10} {'tileir':>10} {'numpy':>10} {'ratio':>8} {'goal':>6} "
          f"{'lanes':>17}   {'numba-sim (size)':<24} {'tileir same size':>16} {'speed-up':>10}")
    for name, fn, ref, size, nsize, goal, label in CASES:
        if args.quick:
            size, nsize, label = (nsize, nsize, "quick")
        t = fn(size, args.repeat, args.backend)
        tn = ref(size, args.repeat)
        tl = fn(size, args.repeat, "lanes")
        ratio = t / tn
        line = (f"{name:<16} {label:<10} {t * 1e3:>8.2f}ms {tn * 1e3:>8.3f}ms {ratio:>7.1f}x "
                f"{'<=' + format(goal, 'g') + 'x':>6} {tl * 1e3:>8.2f}ms {tl / tn:>6.1f}x")
        if args.no_numba or args.quick:
            print(line + "   (numba simulator skipped)")
            continue
        sim = numba_sim(NUMBA_KEYS[name], nsize)
        if sim is None:
            print(line + "   (numba not installed)")
            continue
        small = fn(nsize, args.repeat, args.backend)
        speedup = sim["seconds"] / small
        print(line + f"   {sim['seconds']:>8.2f}s ({nsize:<6})      {small * 1e3:>12.2f}ms "
              f"{speedup:>9.0f}x" + ("" if sim["ok"] else "  (numba result WRONG)"))
    print("goals: vector add <= 3x NumPy, reduction <= 5x, tiled matmul <= 20x; >= 1,000x "
          "faster than numba's simulator")
    return 0


if __name__ == "__main__":
    sys.exit(main())
