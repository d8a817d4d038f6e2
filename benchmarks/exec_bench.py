"""CPU executor benchmark: tileir launch time vs. the NumPy whole-array equivalent.

    python benchmarks/exec_bench.py [--repeat N] [--threads N] [--clock cpu] [--only NAME]
                                    [--skip-big]

Each row times one kernel launch (best of ``--repeat`` runs, more for fast cases: see
:func:`best_of`; after a warm-up run that also compiles the kernel, which is not timed) and
the NumPy whole-array computation of the same result, in the same process, their runs
alternating (:func:`best_of_pair`: drifts in the machine's speed hit both), and prints their
ratio (the goal of issue 12: every ratio at most 2x).  Kernels:

* from ``examples/``: vector add (2**20 f32, 1024-wide tiles), row softmax (1024**2 f32),
  matmul (512**3 f32, 64x64 tiles);
* cuTile Python kernels (``tests/cutile/cpu_kernels.py``, written like NVIDIA's samples)
  exported by NVIDIA's cuTile (``export_kernel``) and launched with ``tileir.cutile.launch``:
  matmul 512**3 with f16 inputs (f32 accumulator) and with f32 inputs (cuTile converts them to
  tf32), layernorm 4096x1024 f32, causal flash attention (seq 1024, head dim 64, f16 in) and a
  batched f16 matmul, all with tile sizes 64-128.  NumPy's side starts from the same arrays as
  the kernel: f16 inputs are converted to f32 (``astype``) inside its timing, as a NumPy user
  computing an f32-accumulated product of f16 matrices must, and f32 inputs of the tf32 product
  are rounded to tf32 (bit arithmetic, :func:`tf32_nearest_even`) before NumPy's SGEMM, so that
  both sides compute the same result; the plain f32 ``a @ b`` (which differs by the tf32
  rounding) is timed as well and printed under that row.  Skipped (with a note) when
  ``cuda.tile`` is not installed.

Then: the per-tile-block and per-op overhead (a tiny kernel run one block at a time and in lock
step), the speed-up of a large batched launch from 1 thread to all cores, and the peak extra
memory (``tracemalloc``: NumPy reports its buffers to it) of a 4096**2 f32 matmul launch.

The header says whether the executor's C helpers run (a C compiler at hand;
``CC=/nonexistent`` turns them off, for the numbers a machine without one gets).

``--threads N`` runs everything with ``N`` BLAS threads (the script re-executes itself with
``OPENBLAS_NUM_THREADS``/``OMP_NUM_THREADS``/``MKL_NUM_THREADS`` set); both sides of each ratio
use the same BLAS.  ``--clock cpu`` times with the process CPU clock (steadier on a shared
machine with ``--threads 1``; meaningless for multi-threaded runs).
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Callable, Optional

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "cutile"))

import tileir  # noqa: E402

EXAMPLES = ROOT / "examples"
CLOCK = time.perf_counter
GOAL = 2.0
from tileir.execute.launch import DEFAULT_MMA, MMA_MODES  # noqa: E402

MMA = DEFAULT_MMA      # Kernel.launch(mma=...) for the kernels with matrix products


#: a timed case runs at least this long (more repeats for fast cases: steadier minimums)
MIN_SECONDS = 0.5


def best_of(fn: Callable, repeat: int) -> float:
    """The best time of at least ``repeat`` runs after a warm-up, repeating fast cases (up to
    200 runs) until they have run :data:`MIN_SECONDS` in all."""
    fn()
    best = float("inf")
    spent = 0.0
    runs = 0
    while runs < repeat or (spent < MIN_SECONDS and runs < 200):
        t = CLOCK()
        fn()
        t = CLOCK() - t
        best = min(best, t)
        spent += t
        runs += 1
    return best


def best_of_pair(ours: Callable, ref: Callable, repeat: int) -> tuple[float, float]:
    """:func:`best_of` for tileir and its NumPy reference, their runs alternating (a machine
    whose speed drifts during the run then slows both sides alike, not one of them)."""
    ours()
    ref()
    best = [float("inf"), float("inf")]
    spent = 0.0
    runs = 0
    while runs < repeat or (spent < 2 * MIN_SECONDS and runs < 200):
        for k, fn in enumerate((ours, ref)):
            t = CLOCK()
            fn()
            t = CLOCK() - t
            best[k] = min(best[k], t)
            spent += t
        runs += 1
    return best[0], best[1]


def blas_threads() -> str:
    """The BLAS thread count NumPy's OpenBLAS will use (asked through ctypes), or the env."""
    libdir = os.path.join(os.path.dirname(np.__file__), "..", "numpy.libs")
    for lib in glob.glob(os.path.join(libdir, "*openblas*")):
        try:
            dll = ctypes.CDLL(lib)
        except OSError:
            continue
        for name in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_",
                     "openblas_get_num_threads"):
            fn = getattr(dll, name, None)
            if fn is not None:
                return str(fn())
    return os.environ.get("OPENBLAS_NUM_THREADS", "unknown")


class Row:
    def __init__(self, name: str, grid, ours: float, ref: float, err: float, mode: str,
                 note: str = ""):
        self.name, self.grid, self.ours, self.ref, self.err, self.mode = \
            name, grid, ours, ref, err, mode
        #: a line printed under the row (a second comparison)
        self.note = note


def _rng():
    return np.random.default_rng(0)


# -- examples/ -----------------------------------------------------------------------------------

def bench_vector_add(repeat: int) -> Row:
    n = 1 << 20
    rng = _rng()
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c = np.zeros(n, np.float32)
    k = tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "vector_add")
    info = k.launch((n // 1024,), [a, b, c, n])
    ours, ref = best_of_pair(lambda: k.launch((n // 1024,), [a, b, c, n]),
                             lambda: np.add(a, b), repeat)
    return Row("vector add 2^20 f32", (n // 1024,), ours, ref,
               float(np.abs(c - (a + b)).max()), info.mode)


def bench_softmax(repeat: int) -> Row:
    m = n = 1024
    x = _rng().standard_normal((m, n)).astype(np.float32)
    y = np.zeros_like(x)
    k = tileir.compile(tileir.load(EXAMPLES / "softmax.mlir"), "softmax")
    info = k.launch((m,), [x, y, m, n, n, n])

    def numpy_softmax():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    ours, ref = best_of_pair(lambda: k.launch((m,), [x, y, m, n, n, n]), numpy_softmax, repeat)
    return Row("softmax 1024^2 f32", (m,), ours, ref,
               float(np.abs(y - numpy_softmax()).max()), info.mode)


def _example_matmul(n: int):
    rng = _rng()
    a = rng.standard_normal((n, n)).astype(np.float32)
    b = rng.standard_normal((n, n)).astype(np.float32)
    c = np.zeros((n, n), np.float32)
    k = tileir.compile(tileir.load(EXAMPLES / "matmul.mlir"), "matmul_f32")
    return k, (n // 64, n // 64), [a, b, c, n, n, n]


def bench_matmul(repeat: int) -> Row:
    k, grid, args = _example_matmul(512)
    a, b, c = args[:3]
    info = k.launch(grid, args, mma=MMA)
    ours, ref = best_of_pair(lambda: k.launch(grid, args, mma=MMA), lambda: a @ b, repeat)
    return Row("matmul 512^3 f32", grid, ours, ref, float(np.abs(c - a @ b).max()), info.mode)


def native_helpers() -> str:
    """Whether the executor's C helpers run (a C compiler at hand; ``CC=/nonexistent`` turns
    them off for a comparison): the compiler's path, or "off"."""
    from tileir.execute import cbuild
    from tileir.execute.numerics import native
    return cbuild.compiler() if native._library() is not None else "off (NumPy paths)"


# -- cuTile kernels (NVIDIA's exporter) ----------------------------------------------------------

def _cutile():
    try:
        import cuda.tile as ct  # noqa: F401
        import cpu_kernels as K
        import tileir.cutile as tc
    except Exception as exc:  # noqa: BLE001 - optional dependency
        return None, None, f"{type(exc).__name__}: {exc}"
    return K, tc, None


def _cutile_row(name: str, kernel, grid, args, ref_fn, result, repeat: int) -> Row:
    _, tc, _ = _cutile()
    info = tc.launch(kernel, grid, args, mma=MMA)
    ours, ref = best_of_pair(lambda: tc.launch(kernel, grid, args, mma=MMA), ref_fn, repeat)
    want = ref_fn()
    err = float(np.abs(result.astype(np.float64) - want.astype(np.float64)).max())
    return Row(name, grid, ours, ref, err, info.mode)


def bench_cutile_matmul(repeat: int, dtype, label: str) -> Row:
    K, _, _ = _cutile()
    n, tm, tn, tk = 512, 128, 128, 32
    rng = _rng()
    a = rng.standard_normal((n, n)).astype(dtype)
    b = rng.standard_normal((n, n)).astype(dtype)
    c = np.zeros((n, n), np.float32)
    grid = ((n // tm) * (n // tn),)
    if dtype != np.float32:
        return _cutile_row(label, K.matmul_kernel, grid, (a, b, c, tm, tn, tk),
                           lambda: a.astype(np.float32) @ b.astype(np.float32), c, repeat)
    # cuTile rounds f32 inputs to tf32 (``astype(ct.tfloat32)``): NumPy computes the same
    # product from inputs rounded the same way; the plain f32 product (a different result)
    # is timed too and printed under the row
    row = _cutile_row(label, K.matmul_kernel, grid, (a, b, c, tm, tn, tk),
                      lambda: tf32_nearest_even(a) @ tf32_nearest_even(b), c, repeat)
    plain = best_of(lambda: a @ b, repeat)
    err = float(np.abs(c.astype(np.float64) - (a @ b)).max())
    row.note = (f"(against plain f32 a @ b, which skips the tf32 rounding: {plain * 1e3:.2f} ms, "
                f"ratio {row.ours / plain:.1f}x, max err {err:.2g})")
    return row


def tf32_nearest_even(x: np.ndarray) -> np.ndarray:
    """``x`` (f32, finite) rounded to tf32 (10 mantissa bits) to nearest, ties to even, as a
    NumPy user writes it: add just under half an ulp of tf32 plus the kept bits' lowest bit,
    then clear the 13 dropped bits."""
    u = x.view(np.uint32)
    r = (u + np.uint32(0xFFF) + ((u >> np.uint32(13)) & np.uint32(1))) & np.uint32(0xFFFFE000)
    return r.view(np.float32)


def bench_cutile_layernorm(repeat: int) -> Row:
    K, _, _ = _cutile()
    m, n = 4096, 1024
    rng = _rng()
    x = rng.standard_normal((m, n)).astype(np.float32)
    w, bias = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    y, mean, rstd = np.zeros_like(x), np.zeros(m, np.float32), np.zeros(m, np.float32)
    eps = 1e-5

    def ref():
        mu = x.mean(axis=1, keepdims=True)
        xc = x - mu
        r = 1 / np.sqrt((xc * xc).mean(axis=1, keepdims=True) + np.float32(eps))
        return xc * r * w + bias
    return _cutile_row("layernorm 4096x1024 f32", K.layer_norm_fwd, (m,),
                       (x, w, bias, y, mean, rstd, eps, 1024), ref, y, repeat)


def bench_cutile_attention(repeat: int) -> Row:
    K, _, _ = _cutile()
    b, h, s, d, tile = 1, 4, 1024, 64, 64
    rng = _rng()
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3))
    o = np.zeros_like(q)
    causal = np.tril(np.ones((s, s), bool))
    scale = np.float32(1 / np.sqrt(d))

    def ref():
        q32, k32, v32 = (t.astype(np.float32) for t in (q, k, v))
        sc = np.matmul(q32, k32.transpose(0, 1, 3, 2)) * scale
        sc = np.where(causal, sc, -np.inf)
        p = np.exp(sc - sc.max(axis=-1, keepdims=True))
        p /= p.sum(axis=-1, keepdims=True)
        return np.matmul(p, v32)
    args = (q, k, v, o, float(scale), 0, d, h, tile, tile, 1, True, True)
    return _cutile_row("causal attention s1024 d64 f16", K.fmha_kernel,
                       (s // tile, b * h, 1), args, ref, o, repeat)


def bench_cutile_batch_matmul(repeat: int) -> Row:
    K, _, _ = _cutile()
    bt, n, tm, tn, tk = 8, 256, 64, 64, 64
    rng = _rng()
    a = rng.standard_normal((bt, n, n)).astype(np.float16)
    b = rng.standard_normal((bt, n, n)).astype(np.float16)
    c = np.zeros((bt, n, n), np.float32)
    return _cutile_row("batched matmul 8x256^3 f16", K.batch_matmul_kernel,
                       (bt, n // tm, n // tn), (a, b, c, tm, tn, tk),
                       lambda: np.matmul(a.astype(np.float32), b.astype(np.float32)), c, repeat)


CASES = {
    "vector_add": bench_vector_add,
    "softmax": bench_softmax,
    "matmul": bench_matmul,
    "matmul_f16": lambda r: bench_cutile_matmul(r, np.float16, "cuTile matmul 512^3 f16->f32"),
    "matmul_tf32": lambda r: bench_cutile_matmul(r, np.float32, "cuTile matmul 512^3 tf32"),
    "layernorm": bench_cutile_layernorm,
    "attention": bench_cutile_attention,
    "batch_matmul": bench_cutile_batch_matmul,
}
CUTILE_CASES = {"matmul_f16", "matmul_tf32", "layernorm", "attention", "batch_matmul"}


# -- overheads, cores, memory --------------------------------------------------------------------

def overheads(repeat: int) -> None:
    """Per tile block and per op, from a small vector add (16-wide tiles) run both ways."""
    tile_src = (EXAMPLES / "vector_add.mlir").read_text().replace("1024", "16")
    k = tileir.compile(tileir.parse(tile_src), "vector_add")
    blocks = 2048
    n = blocks * 16
    a = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    ops = sum(1 for op in k.entry.walk()) - 1          # ops in the entry body
    for batch in (False, True):
        t = best_of(lambda: k.launch((blocks,), [a, a, c, n], batch=batch), max(1, repeat // 3))
        label = "lock step" if batch else "one block at a time"
        print(f"  per tile block ({label}): {t / blocks * 1e6:8.2f} us"
              f"   per op: {t / blocks / ops * 1e6:8.3f} us   ({ops} ops/block, {blocks} blocks)")


def core_speedup(repeat: int) -> None:
    """Speed-up of large batched launches from 1 thread to all cores (``threads=``)."""
    cores = os.cpu_count() or 1
    n = 1 << 23
    a = _rng().standard_normal(n).astype(np.float32)
    c = np.zeros(n, np.float32)
    vadd = tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "vector_add")
    rows = 8192
    x = _rng().standard_normal((rows, 1024)).astype(np.float32)
    y = np.zeros_like(x)
    soft = tileir.compile(tileir.load(EXAMPLES / "softmax.mlir"), "softmax")
    cases = [("vector add 2^23 f32", lambda t: vadd.launch((n // 1024,), [a, a, c, n], threads=t)),
             ("softmax 8192x1024 f32", lambda t: soft.launch((rows,), [x, y, rows, 1024, 1024,
                                                                        1024], threads=t))]
    global CLOCK
    saved, CLOCK = CLOCK, time.perf_counter      # threads: only the wall clock means anything
    try:
        times = [(name, best_of(lambda: fn(1), max(1, repeat // 2)),
                  best_of(lambda: fn(cores), max(1, repeat // 2))) for name, fn in cases]
    finally:
        CLOCK = saved
    for name, t1, tn in times:
        print(f"  {name}: 1 thread {t1 * 1e3:.1f} ms, {cores} threads {tn * 1e3:.1f} ms "
              f"(wall clock): speed-up {t1 / tn:.2f}x on {cores} cores")


def peak_memory() -> None:
    """Peak memory allocated during one launch of a 4096**2 f32 matmul, beyond its arrays."""
    k, grid, args = _example_matmul(4096)
    arrays = sum(a.nbytes for a in args[:3])
    k.launch((1, 1), args)        # compile and warm the plan outside the measurement
    tracemalloc.start()
    t = CLOCK()
    info = k.launch(grid, args)
    t = CLOCK() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  matmul 4096^2 f32 (example, {grid[0]}x{grid[1]} blocks, {info.mode}, "
          f"{info.batches} batches): {t:.2f} s, peak extra memory {peak / 2**20:.1f} MiB "
          f"(arguments: {arrays / 2**20:.0f} MiB)")


def main(argv: Optional[list] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--threads", type=int, default=None, help="BLAS threads (default: BLAS's own)")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="wall clock (default) or process CPU time")
    p.add_argument("--only", action="append", choices=sorted(CASES),
                   help="run only these kernels (repeatable); skips the extra sections")
    p.add_argument("--skip-big", action="store_true", help="skip the 4096^2 memory measurement")
    p.add_argument("--mma", choices=MMA_MODES, default=DEFAULT_MMA,
                   help=f"mmaf mode of the kernels with matrix products (default: the "
                        f"executor's, {DEFAULT_MMA})")
    opts = p.parse_args(argv)
    global CLOCK, MMA
    CLOCK = time.process_time if opts.clock == "cpu" else time.perf_counter
    MMA = opts.mma
    if opts.threads is not None and os.environ.get("_TILEIR_BENCH_CHILD") != "1":
        env = dict(os.environ, _TILEIR_BENCH_CHILD="1")
        for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
            env[var] = str(opts.threads)
        return subprocess.call([sys.executable, __file__] + list(argv or sys.argv[1:]), env=env)
    print(f"BLAS threads: {blas_threads()}; cores: {os.cpu_count()}; clock: {opts.clock}; "
          f"best of {opts.repeat}+ runs (at least {MIN_SECONDS} s a case); mma: {opts.mma}; "
          f"C helpers: {native_helpers()}")
    names = opts.only or list(CASES)
    _, _, missing = _cutile()
    rows = []
    for name in names:
        if name in CUTILE_CASES and missing:
            print(f"  (skipping {name}: cuda.tile unavailable: {missing})")
            continue
        rows.append(CASES[name](opts.repeat))
    print(f"{'kernel':<32} {'grid':<10} {'mode':<11} {'tileir':>10} {'numpy':>10} {'ratio':>8}"
          f" {'max err':>9}")
    for r in rows:
        ratio = r.ours / r.ref
        g = "x".join(str(d) for d in r.grid)
        flag = "" if ratio <= GOAL else "  > goal"
        print(f"{r.name:<32} {g:<10} {r.mode:<11} {r.ours * 1e3:>8.2f}ms {r.ref * 1e3:>8.2f}ms "
              f"{ratio:>7.1f}x {r.err:>9.2g}{flag}")
        if r.note:
            print(f"  {r.note}")
    if opts.only:
        return 0
    print("overheads:")
    overheads(opts.repeat)
    print("cores:")
    core_speedup(opts.repeat)
    if not opts.skip_big:
        print("memory:")
        peak_memory()
    return 0


if __name__ == "__main__":
    sys.exit(main())
