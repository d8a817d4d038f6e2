"""The README's cuTile section, the example script and the `tileir demo` entry really run."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_readme_cutile_example_runs(tmp_path):
    from ctutil import require_cutile
    require_cutile()
    text = (ROOT / "README.md").read_text()
    start = text.index("## Run your cuTile kernels without a GPU")
    code = re.search(r"```python\n(.*?)```", text[start:], re.S).group(1)
    script = tmp_path / "readme_cutile.py"     # cuTile reads kernel source from a file
    script.write_text(code + "\nprint('README OK')\n")
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "README OK" in proc.stdout


def test_example_script_runs():
    from ctutil import require_cutile
    require_cutile()
    proc = subprocess.run([sys.executable, str(ROOT / "examples" / "cutile_vector_add.py")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "c == a + b for all 100003 elements" in proc.stdout
    assert "strided views: ok" in proc.stdout


def test_demo_runs_cutile_kernels():
    from ctutil import require_cutile
    require_cutile()
    from tileir.cli.demo import run_demo
    out = io.StringIO()
    with redirect_stdout(out):
        rc = run_demo(["cutile"])
    text = out.getvalue()
    assert rc == 0, text
    for kernel in ("vector_add", "softmax", "matmul"):
        assert re.search(rf"^cutile\s+{kernel}\s+.*\sok$", text, re.M), text
    assert "all 3 examples match NumPy" in text


def test_demo_skips_cutile_without_cuda_tile(monkeypatch):
    import tileir.cutile
    from tileir.cli.demo import run_demo
    monkeypatch.setattr(tileir.cutile, "available", lambda: False)
    out = io.StringIO()
    with redirect_stdout(out):
        rc = run_demo(["vector_add"])
    assert rc == 0, out.getvalue()
    assert "all 1 examples match NumPy" in out.getvalue()


@pytest.mark.parametrize("names", [["cutile"], ["vector_add", "cutile_matmul"]])
def test_demo_of_cutile_without_cuda_tile_fails_with_the_install_hint(monkeypatch, names):
    import tileir.cutile
    from tileir.cli.demo import run_demo
    monkeypatch.setattr(tileir.cutile, "available", lambda: False)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = run_demo(names)
    assert rc == 1, out.getvalue()
    assert 'pip install -e ".[cutile]"' in err.getvalue()
    assert "match NumPy" not in out.getvalue()


@pytest.mark.parametrize("argv", [["--list"]])
def test_demo_lists_cutile_kernels(argv):
    from tileir.cli.demo import run_demo
    out = io.StringIO()
    with redirect_stdout(out):
        assert run_demo(argv) == 0
    assert "cutile_vector_add" in out.getvalue()
