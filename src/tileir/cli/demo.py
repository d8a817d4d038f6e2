"""``tileir demo``: run the bundled example kernels on the CPU and check them against NumPy.

Each example is a pair of files in the examples folder: ``NAME.mlir`` (the Tile IR module) and
``NAME.py``, which defines ``KERNEL`` (the entry to run), ``setup(rng) -> (grid, args)``,
``reference(args) -> {argument index: expected array}`` and ``TOLERANCE`` (the largest allowed
error, relative to the largest expected magnitude).  The examples folder is ``examples/`` at the
root of the source tree (found next to the installed package in an editable install), or the
folder named by ``--examples`` or the ``TILEIR_EXAMPLES`` environment variable.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from .gpu_demo import gpu_examples, run_gpu_example

__all__ = ["run_demo", "find_examples", "load_example", "run_example", "ExampleResult"]


def find_examples(explicit: Optional[str] = None) -> Optional[Path]:
    """The examples folder: ``explicit``, ``$TILEIR_EXAMPLES``, or ``examples/`` of the source
    tree this package was installed from."""
    for cand in (explicit, os.environ.get("TILEIR_EXAMPLES")):
        if cand:
            return Path(cand)
    here = Path(__file__).resolve()
    for parent in here.parents:
        ex = parent / "examples"
        if ex.is_dir() and any(ex.glob("*.mlir")):
            return ex
    return None


def load_example(path: Path):
    """Import the Python half of an example."""
    spec = importlib.util.spec_from_file_location(f"tileir_example_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class ExampleResult:
    def __init__(self, name: str) -> None:
        self.name = name
        self.kernel = ""
        self.grid = ""
        self.mode = ""
        self.seconds = 0.0
        self.error = float("nan")
        self.tolerance = 0.0
        self.ok = False
        self.message = ""


def _max_error(got, want) -> float:
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return float("inf")
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    both_nan = np.isnan(g) & np.isnan(w)
    diff = np.where(both_nan, 0.0, np.abs(g - w))
    scale = float(np.max(np.abs(w[np.isfinite(w)]), initial=0.0)) or 1.0
    if not np.isfinite(diff).all():
        return float("inf")
    return float(diff.max(initial=0.0)) / max(scale, 1.0)


def run_example(folder: Path, name: str, seed: int = 0, batch: bool = True) -> ExampleResult:
    """Run one example and compare its outputs with the NumPy reference."""
    import tileir

    res = ExampleResult(name)
    ex = load_example(folder / f"{name}.py")
    res.kernel = ex.KERNEL
    res.tolerance = float(getattr(ex, "TOLERANCE", 0.0))
    module = tileir.load(folder / f"{name}.mlir")
    kernel = tileir.compile(module, ex.KERNEL)
    grid, args = ex.setup(np.random.default_rng(seed))
    info = kernel.launch(grid, args, batch=batch)
    res.grid = "x".join(str(g) for g in info.grid)
    res.mode = info.mode
    res.seconds = info.seconds
    errors = [_max_error(args[i], want) for i, want in ex.reference(args).items()]
    res.error = max(errors) if errors else 0.0
    res.ok = res.error <= res.tolerance
    return res


def run_demo(argv: Sequence[str], prog: str = "tileir demo") -> int:
    p = argparse.ArgumentParser(prog=prog, description="Run the bundled example kernels on the "
                                "CPU and check each against NumPy.")
    p.add_argument("names", nargs="*", help="examples to run (default: all)")
    p.add_argument("--examples", help="folder holding the examples (NAME.mlir + NAME.py)")
    p.add_argument("--seed", type=int, default=0, help="random seed for the inputs")
    p.add_argument("--sequential", action="store_true",
                   help="run tile blocks one at a time (no lock-step batching)")
    p.add_argument("--list", action="store_true", help="list the examples and exit")
    opts = p.parse_args(list(argv))

    folder = find_examples(opts.examples)
    if folder is None or not folder.is_dir():
        print(f"{prog}: error: cannot find the examples folder (looked for 'examples/' next to "
              "the tileir sources; use --examples DIR or set TILEIR_EXAMPLES)", file=sys.stderr)
        return 1
    available = sorted(f.stem for f in folder.glob("*.mlir") if (folder / f"{f.stem}.py").exists())
    from ..frontends.cutile.demo import CASES as CUTILE_CASES   # cuTile Python kernels (tileir.cutile)
    if opts.list:
        for name in available:
            doc = (load_example(folder / f"{name}.py").__doc__ or "").strip().splitlines()
            print(f"{name:<14} {doc[0] if doc else ''}")
        for name, doc in CUTILE_CASES.items():
            print(f"{name:<14} {doc}")
        print(f"{'tinytc':<14} batched GEMM in tinytc's tensor language, lowered to cuda_tile")
        for name in gpu_examples(folder):
            doc = (load_example(folder / "gpu" / f"{name}.py").__doc__ or "").strip()
            print(f"{'gpu/' + name:<14} {doc.splitlines()[0] if doc else ''}")
        return 0
    cutile_names = list(CUTILE_CASES) if not opts.names else \
        [n for n in CUTILE_CASES if n in opts.names or "cutile" in opts.names]
    gpu_available = gpu_examples(folder)
    gpu_names = gpu_available if not opts.names or "gpu" in opts.names else \
        [n[4:] for n in opts.names if n.startswith("gpu/") and n[4:] in gpu_available]
    names = [n for n in opts.names if n not in ("cutile", "tinytc", "gpu")
             and n not in CUTILE_CASES and not n.startswith("gpu/")] if opts.names else available
    unknown = [n for n in names if n not in available] + \
        [n for n in opts.names if n.startswith("gpu/") and n[4:] not in gpu_available]
    if unknown:
        print(f"{prog}: error: unknown example(s): {', '.join(unknown)} (available: "
              f"{', '.join(available + list(CUTILE_CASES) + ['gpu/' + g for g in gpu_available])}"
              ")", file=sys.stderr)
        return 1

    if names:
        print(f"Running {len(names)} example kernels from {folder} on the CPU")
    header = f"{'example':<18} {'kernel':<12} {'grid':<10} {'mode':<11} {'time':>10} " \
             f"{'max error':>10} {'tolerance':>10}  result"
    print(header)
    print("-" * len(header))
    failures = 0
    start = time.perf_counter()
    for name in names:
        try:
            r = run_example(folder, name, opts.seed, batch=not opts.sequential)
        except Exception as exc:  # noqa: BLE001 - the demo reports every failure as a row
            failures += 1
            _print_error_row(name, "", exc)
            continue
        if not r.ok:
            failures += 1
        _print_row(r.name, r.kernel, r.grid, r.mode, r.seconds, r.error, r.tolerance, r.ok)
    count = len(names)
    if cutile_names:
        from ..cutile import INSTALL_HINT, available
        if not available() and opts.names:
            # asked for by name: a part that cannot run is a failure, not a skip
            print(f"{prog}: error: the cuTile Python kernels need cuda-tile, which is not "
                  f"installed; install it with: {INSTALL_HINT}", file=sys.stderr)
            return 1
        ran, failed = _run_cutile(cutile_names, opts.seed, not opts.sequential)
        count += ran
        failures += failed
    if not opts.names or "tinytc" in opts.names:
        ran, failed = _run_tinytc(opts.seed)
        count += ran
        failures += failed
    if gpu_names:
        ran, failed = _run_gpu(folder, gpu_names, opts.seed)
        count += ran
        failures += failed
    total = time.perf_counter() - start
    if failures:
        print(f"{failures} of {count} examples FAILED ({total:.2f}s)")
        return 1
    if not count:
        print(f"{prog}: error: no example ran", file=sys.stderr)
        return 1
    print(f"all {count} examples match NumPy ({total:.2f}s)")
    return 0


def _run_cutile(names: list, seed: int, batch: bool) -> tuple:
    """The cuTile Python kernels (``tileir.cutile.demo``), as rows of the same table; skipped
    with a message when cuda-tile is not installed.  Returns ``(ran, failed)``."""
    from ..frontends.cutile import INSTALL_HINT, available
    from ..frontends.cutile.demo import run_case
    if not available():
        print(f"cuTile Python kernels skipped: cuda-tile is not installed ({INSTALL_HINT})")
        return 0, 0
    print("cuTile Python kernels (NVIDIA's cuda.tile -> export_kernel -> tileir.cutile.launch):")
    failed = 0
    for name in names:
        kernel = name[len("cutile_"):]
        try:
            r = run_case(name, seed, batch=batch)
        except Exception as exc:  # noqa: BLE001 - the demo reports every failure as a row
            failed += 1
            _print_error_row("cutile", kernel, exc)
            continue
        failed += not r["ok"]
        _print_row("cutile", kernel, r["grid"], r["mode"], r["seconds"], r["error"],
                   r["tolerance"], r["ok"])
    return len(names), failed


def _run_tinytc(seed: int) -> tuple:
    """The tinytc tensor-language row (``tileir.frontends.tinytc.demo``): ``(1, failed)``."""
    from ..frontends.tinytc.demo import run_batched_gemm
    print("tinytc tensor language (batched GEMM -> cuda_tile -> CPU):")
    try:
        r = run_batched_gemm(seed)
    except Exception as exc:  # noqa: BLE001 - the demo reports every failure as a row
        _print_error_row("tinytc", "gemm", exc)
        return 1, 1
    _print_row("tinytc", "gemm", r["grid"], r["mode"], r["seconds"], r["error"],
               r["tolerance"], r["ok"])
    return 1, int(not r["ok"])


def _run_gpu(folder: Path, names: list, seed: int) -> tuple:
    """The MLIR gpu dialect examples (``examples/gpu``), threads run as array lanes on the CPU:
    ``(ran, failed)``."""
    print("MLIR gpu dialect programs (host func.func + gpu.module kernels -> SIMT engine):")
    failed = 0
    for name in names:
        try:
            r = run_gpu_example(folder, name, seed)
        except Exception as exc:  # noqa: BLE001 - the demo reports every failure as a row
            failed += 1
            _print_error_row(f"gpu/{name}", "", exc)
            continue
        failed += not r.ok
        _print_row(r.name, r.kernel, r.grid, r.mode, r.seconds, r.error, r.tolerance, r.ok)
        if r.message:
            print(f"    {r.message}")
    return len(names), failed


def _print_row(example: str, kernel: str, grid: str, mode: str, seconds: float, error: float,
               tolerance: float, ok: bool) -> None:
    """One row of the demo table."""
    print(f"{example:<18} {kernel:<12} {grid:<10} {mode:<11} {seconds * 1e3:>8.1f}ms "
          f"{error:>10.2g} {tolerance:>10.2g}  {'ok' if ok else 'FAIL'}")


def _print_error_row(example: str, kernel: str, exc: Exception) -> None:
    """A table row for an example that raised instead of producing a result."""
    msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    print(f"{example:<18} {kernel:<12} {'':<10} {'':<11} {'':>10} {'':>10} {'':>10}  "
          f"ERROR: {msg}")
