"""Locating and running the peer conformance suites in ../shared/conformance.

The corpus is data, never copied into the project: set ``TILEIR_CONFORMANCE_DIR`` to the folder
holding ``cuda-tile/``, ``tinytc/``... or keep ``../shared/conformance`` beside the repository.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

REPO = Path(__file__).resolve().parents[2]


def conformance_root() -> Optional[Path]:
    env = os.environ.get("TILEIR_CONFORMANCE_DIR")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "conformance")
    for c in candidates:
        if c.is_dir():
            return c
    return None


def cuda_tile_dir() -> Path:
    root = conformance_root()
    if root is None or not (root / "cuda-tile").is_dir():
        pytest.skip("conformance corpus not found: set TILEIR_CONFORMANCE_DIR or put "
                    "../shared/conformance beside the repository")
    return root / "cuda-tile"


def run_lines(path: Path) -> list[str]:
    """The RUN lines of a lit test file (continuations joined)."""
    lines = []
    current = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        part = m.group(1)
        if part.rstrip().endswith("\\"):
            current += part.rstrip()[:-1] + " "
            continue
        lines.append((current + part).strip())
        current = ""
    return lines


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent) + os.pathsep +
                         os.environ.get("PATH", ""))
    return found or name


def substitute(run: str, path: Path, tmp: Path) -> str:
    """Turn a lit RUN line for NVIDIA's tools into one for tileir's drop-ins."""
    opt = _tool("tileir-opt")
    translate = _tool("tileir-translate")
    filecheck = _tool("filecheck")
    def round_trip(m: re.Match) -> str:
        flags = m.group(1).strip()
        t = str(tmp / "rt")
        return (f"{translate} -mlir-to-cudatilebc -no-implicit-module {path} -o {t}.bc && "
                f"{translate} -cudatilebc-to-mlir {flags} {t}.bc -o {t}.from_bc.mlir && "
                f"{opt} -no-implicit-module {flags} {path} -o {t}.ref.mlir && "
                f"diff -B {t}.from_bc.mlir {t}.ref.mlir")
    run = re.sub(r"%round_trip_test\s+%s\s+%t([^|;]*)", round_trip, run)
    run = run.replace("%s", str(path)).replace("%S", str(path.parent)).replace("%t", str(tmp / "t"))
    run = re.sub(r"\bcuda-tile-opt\b", opt, run)
    run = re.sub(r"\bcuda-tile-translate\b", translate, run)
    run = re.sub(r"\bFileCheck\b", filecheck, run)
    run = re.sub(r"(^|[|;&]\s*)not\s+", r"\1! ", run)
    return run


def execute(command: str, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout)
