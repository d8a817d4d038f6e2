"""The README's "Python API" example runs and does what its comments say."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def _readme_api_code() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## Python API")
    code = re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)
    # the README reads a user's file; point it at a bundled example
    return code.replace('open("kernel.mlir").read(), "kernel.mlir"',
                        'open(EXAMPLE).read(), EXAMPLE')


def test_readme_python_api_example_runs(capsys):
    scope = {"EXAMPLE": str(ROOT / "examples" / "vector_add.mlir")}
    exec(compile(_readme_api_code(), "README.md", "exec"), scope)
    assert np.array_equal(scope["ys"], 2 * np.arange(1024, dtype=np.float32))
    import tileir
    assert tileir.print(scope["same"]) == tileir.print(scope["b"].module)
    assert "cuda_tile.module" in capsys.readouterr().out
