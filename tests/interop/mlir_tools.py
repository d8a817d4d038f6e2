"""Locating and running real MLIR (``mlir-opt``) for the differential tests of the MLIR dialects.

Debian's ``mlir-22-tools`` package (``apt-get install mlir-22-tools``; ``.ci/run`` installs it
when it can) puts MLIR 22.1's ``mlir-opt`` in ``/usr/lib/llvm-22/bin``.  ``TILEIR_MLIR_OPT``
names another binary; otherwise ``mlir-opt`` (or ``mlir-opt-22``) on ``PATH`` is used.  Tests
that need it call :func:`require_mlir_opt` and skip with a reason when it is absent.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import pytest

_CANDIDATES = ("/usr/lib/llvm-22/bin/mlir-opt",)


def find_mlir_opt() -> Optional[str]:
    """The path of an ``mlir-opt`` binary, or None."""
    named = os.environ.get("TILEIR_MLIR_OPT")
    if named:
        return named if Path(named).is_file() else None
    for path in _CANDIDATES:
        if Path(path).is_file() and os.access(path, os.X_OK):
            return path
    return shutil.which("mlir-opt") or shutil.which("mlir-opt-22")


def require_mlir_opt() -> str:
    """The ``mlir-opt`` path, or skip the calling test with the install hint."""
    path = find_mlir_opt()
    if path is None:
        pytest.skip("MLIR's mlir-opt not found: apt-get install mlir-22-tools "
                    "(or set TILEIR_MLIR_OPT)")
    return path


@dataclass(frozen=True)
class ToolRun:
    """What one run of a tool printed and returned."""

    returncode: int
    stdout: str
    stderr: str


def run_mlir_opt(text: str, flags: Sequence[str] = (), timeout: float = 60.0) -> ToolRun:
    """Run ``mlir-opt FLAGS -`` on ``text`` (stdin)."""
    exe = require_mlir_opt()
    proc = subprocess.run([exe, *flags, "-"], input=text, capture_output=True, text=True,
                          timeout=timeout)
    return ToolRun(proc.returncode, proc.stdout, proc.stderr)
