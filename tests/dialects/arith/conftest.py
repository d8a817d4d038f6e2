"""Puts the upstream dialects' differential-test helpers (tests/dialects/arith) and
tests/interop's ``mlir_tools`` on the import path of these tests."""

import sys
from pathlib import Path

_TESTS = Path(__file__).resolve().parents[2]
for _path in (str(_TESTS / "dialects" / "arith"), str(_TESTS / "interop")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
