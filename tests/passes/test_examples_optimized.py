"""The bundled examples (real kernels: softmax, layernorm, attention, matmul...) after
cuda-tile-optimize's -O3 pipeline compute bit-identical outputs; with fuse-fma they still match
their NumPy references within the example's tolerance (fma rounds once where mulf+addf round
twice)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir.cli.demo import _max_error, load_example
from tileir.cli.optimize import default_pipeline
from tileir.passes import run_pipeline

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = sorted(p.stem for p in EXAMPLES.glob("*.mlir") if (EXAMPLES / f"{p.stem}.py").exists())


def _launch(module, ex, seed: int = 0):
    grid, args = ex.setup(np.random.default_rng(seed))
    tileir.compile(module, ex.KERNEL).launch(grid, args)
    return args


@pytest.mark.parametrize("name", NAMES)
def test_example_optimized_bit_identical(name):
    ex = load_example(EXAMPLES / f"{name}.py")
    original = tileir.load(EXAMPLES / f"{name}.mlir")
    optimized = tileir.load(EXAMPLES / f"{name}.mlir")
    run_pipeline(optimized, f"any({', '.join(default_pipeline(3))})")
    want, got = _launch(original, ex), _launch(optimized, ex)
    for i in ex.reference(want):
        assert np.asarray(got[i]).tobytes() == np.asarray(want[i]).tobytes(), f"output {i}"


@pytest.mark.parametrize("name", NAMES)
def test_example_with_fuse_fma_within_tolerance(name):
    ex = load_example(EXAMPLES / f"{name}.py")
    module = tileir.load(EXAMPLES / f"{name}.mlir")
    run_pipeline(module, f"any({', '.join(default_pipeline(3, fuse_fma=True))})")
    args = _launch(module, ex)
    tolerance = float(getattr(ex, "TOLERANCE", 0.0))
    for i, want in ex.reference(args).items():
        assert _max_error(args[i], want) <= tolerance, f"output {i}"
