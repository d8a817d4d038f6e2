"""The gpu dialect rows of ``tileir demo``: ``examples/gpu/NAME.mlir`` + ``NAME.py``.

Each ``NAME.py`` defines either ``FUNC`` (a host ``func.func`` to call with ``tileir.gpu.run``)
or ``KERNEL`` = ``"module::func"`` with ``GRID`` and ``BLOCK`` (launched with
``tileir.gpu.launch``), ``setup(rng) -> args``, ``reference(inputs) -> {argument index:
expected array}`` (``inputs`` are copies of the arguments taken before the run),
``TOLERANCE`` (largest error relative to the largest expected magnitude) and optionally
``check_stdout(text) -> bool`` for what ``gpu.printf`` printed.
"""

from __future__ import annotations

import copy
import io
import time
from pathlib import Path

import numpy as np

__all__ = ["gpu_examples", "run_gpu_example"]


def gpu_examples(folder: Path) -> list[str]:
    """Names of the gpu dialect examples in ``folder / "gpu"``."""
    sub = folder / "gpu"
    if not sub.is_dir():
        return []
    return sorted(f.stem for f in sub.glob("*.mlir") if (sub / f"{f.stem}.py").exists())


def run_gpu_example(folder: Path, name: str, seed: int = 0):
    """Run one gpu example; returns the demo's ExampleResult."""
    import tileir
    from tileir import gpu

    from .demo import ExampleResult, _max_error, load_example
    sub = folder / "gpu"
    ex = load_example(sub / f"{name}.py")
    res = ExampleResult(f"gpu/{name}")
    res.tolerance = float(getattr(ex, "TOLERANCE", 0.0))
    module = tileir.parse((sub / f"{name}.mlir").read_text(), str(sub / f"{name}.mlir"))
    tileir.verify(module)
    args = ex.setup(np.random.default_rng(seed))
    inputs = copy.deepcopy(args)
    out = io.StringIO()
    program = gpu.Program(module, verify=False)     # (verified above)
    start = time.perf_counter()
    if hasattr(ex, "KERNEL"):
        res.kernel = ex.KERNEL.split("::")[-1]
        res.grid = "x".join(str(g) for g in ex.GRID)
        gpu.launch(program, ex.KERNEL, grid=ex.GRID, block=ex.BLOCK, args=args, stdout=out)
    else:
        res.kernel = "@" + ex.FUNC
        res.grid = "-"
        gpu.run(program, ex.FUNC, args=args, stdout=out)
    res.seconds = time.perf_counter() - start
    res.mode = "simt"
    errors = [_max_error(args[i], want) for i, want in ex.reference(inputs).items()]
    res.error = max(errors) if errors else 0.0
    res.ok = res.error <= res.tolerance
    check = getattr(ex, "check_stdout", None)
    if check is not None and not check(out.getvalue()):
        res.ok = False
        res.message = f"unexpected printf output: {out.getvalue()!r}"
    return res
