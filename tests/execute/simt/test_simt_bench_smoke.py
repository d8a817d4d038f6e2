"""benchmarks/gpu_bench.py runs (tiny sizes, no timing assertions) so the script cannot rot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[3] / "benchmarks" / "gpu_bench.py"


def test_gpu_bench_quick():
    r = subprocess.run([sys.executable, str(BENCH), "--quick", "--repeat", "1"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    for case in ("vector add", "block reduction", "tiled matmul"):
        assert case in r.stdout
