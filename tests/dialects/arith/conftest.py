"""Puts the upstream dialects' differential-test helpers (tests/dialects/arith) and
tests/interop's ``mlir_tools`` on the import path of these tests."""

import sys
from pathlib import Path

sys.path[:0] = [p for p in (str(Path(__file__).resolve().parents[1] / "arith"),
                            str(Path(__file__).resolve().parents[2] / "interop")) if p not in sys.path]
