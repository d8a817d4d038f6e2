"""``tileir run`` on MLIR gpu dialect programs: --func and --kernel, errors without tracebacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np

from tileir.cli import main

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "gpu" / "vector_add.mlir"
ARGS = ["--arg", "arange:f32:1000", "--arg", "ones:f32:1000", "--arg", "zeros:f32:1000",
        "--arg", "1000"]


def test_run_host_function(capsys, tmp_path):
    assert main(["run", str(EXAMPLE), "--func", "main", *ARGS, "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ran @main" in out and "arg2: wrote" in out
    np.testing.assert_array_equal(np.load(tmp_path / "arg2.npy"), np.arange(1000) + 1)


def test_run_kernel_directly(capsys):
    assert main(["run", str(EXAMPLE), "--kernel", "kernels::vector_add", "--grid", "4",
                 "--block", "256", *ARGS]) == 0
    out = capsys.readouterr().out
    assert "kernels::vector_add on grid 4 x block 256" in out
    assert "arg2: float32 1000 [   1.,    2." in out


def test_errors_are_messages_not_tracebacks(tmp_path):
    bad = [sys.executable, "-m", "tileir", "run", str(EXAMPLE), "--kernel",
           "kernels::vector_add", "--grid", "4", "--block", "256", "--arg", "arange:f32:1000",
           "--arg", "ones:f32:1000", "--arg", "zeros:f32:1000", "--arg", "1024"]
    r = subprocess.run(bad, capture_output=True, text=True)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "'memref.load' index 1000 out of bounds" in r.stderr and "thread (232, 0, 0)" in r.stderr
    r = subprocess.run([sys.executable, "-m", "tileir", "run", str(EXAMPLE), "--kernel", "nope",
                        *ARGS], capture_output=True, text=True)
    assert r.returncode == 1 and "MODULE::FUNC" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "tileir", "run", str(EXAMPLE), "--func", "main",
                        "--arg", "1"], capture_output=True, text=True)
    assert r.returncode == 1 and "takes 4 arguments" in r.stderr and "Traceback" not in r.stderr
