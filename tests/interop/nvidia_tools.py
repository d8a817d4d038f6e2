"""Locating NVIDIA's cuTile Python, ``tileiras`` and ``tileirdisasm`` for the interop tests.

They come with the ``nvidia`` extra (``pip install -e ".[nvidia]"`` = ``cuda-tile[tileiras]``);
``tileiras``/``tileirdisasm`` are also looked up on ``PATH`` and in ``$CUDA_HOME/bin``.  Tests
skip with a reason naming what is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Optional

import pytest


def _bin_dirs() -> list[Path]:
    dirs = []
    try:
        import nvidia.cu13  # type: ignore

        for p in nvidia.cu13.__path__:
            dirs.append(Path(p) / "bin")
    except Exception:  # noqa: BLE001 - any import problem means "not installed"
        pass
    cuda_home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if cuda_home:
        dirs.append(Path(cuda_home) / "bin")
    return dirs


def find_tool(name: str) -> Optional[str]:
    for d in _bin_dirs():
        exe = d / name
        if exe.is_file() and os.access(exe, os.X_OK):
            return str(exe)
    return shutil.which(name)


def require_tools() -> dict:
    """``{"tileiras": path, "tileirdisasm": path}`` or skip."""
    tools = {name: find_tool(name) for name in ("tileiras", "tileirdisasm")}
    missing = [n for n, p in tools.items() if p is None]
    if missing:
        pytest.skip(f"NVIDIA {' and '.join(missing)} not found: install the 'nvidia' extra "
                    f"(pip install -e '.[nvidia]', i.e. cuda-tile[tileiras]) or put them on PATH")
    return tools


def require_cutile():
    try:
        import cuda.tile as ct
        import cuda.tile.compilation  # noqa: F401
    except Exception as exc:  # noqa: BLE001
        pytest.skip(f"cuTile Python (cuda-tile) not importable ({type(exc).__name__}: {exc}); "
                    f"install the 'nvidia' extra: pip install -e '.[nvidia]'")
    return ct


def disasm(tools: dict, path: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([tools["tileirdisasm"], *flags, str(path)], capture_output=True,
                          text=True, timeout=300)


def compile_for(tools: dict, path: Path, arch: str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([tools["tileiras"], "--gpu-name", arch, str(path), "-o", str(out)],
                          capture_output=True, text=True, timeout=600)


def known_printer_differences(expected: str, actual: str) -> list[str]:
    """Lines where ``actual`` (tileir's printing) differs from ``expected`` (tileirdisasm)."""
    import difflib
    return [line for line in difflib.unified_diff(expected.splitlines(), actual.splitlines(),
                                                  "tileirdisasm", "tileir", lineterm="", n=0)]
