"""Every gpu dialect example (examples/gpu) runs and matches its NumPy reference, and each is
valid MLIR for mlir-opt 22 when it is installed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tileir.cli.gpu_demo import gpu_examples, run_gpu_example

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
NAMES = gpu_examples(EXAMPLES)


def test_examples_exist():
    assert {"vector_add", "block_reduce", "tiled_matmul", "histogram", "warp_reduce",
            "softmax", "launch_printf", "async_pipeline", "sparse_spmv"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_example_matches_reference(name):
    if name == "sparse_spmv":
        pytest.importorskip("scipy")
    r = run_gpu_example(EXAMPLES, name, seed=3)
    assert r.ok, (r.error, r.tolerance, r.message)


@pytest.mark.parametrize("name", NAMES)
def test_example_is_valid_mlir(name):
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
    from mlir_tools import find_mlir_opt
    tool = find_mlir_opt()
    if tool is None:
        pytest.skip("mlir-opt 22 is not installed (apt-get install mlir-22-tools)")
    r = subprocess.run([str(tool), str(EXAMPLES / "gpu" / f"{name}.mlir")], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
