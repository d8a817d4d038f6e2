"""Makes tests/interop's ``mlir_tools`` importable from the builtin dialect's tests."""

import sys
from pathlib import Path

_INTEROP = str(Path(__file__).resolve().parents[2] / "interop")
if _INTEROP not in sys.path:
    sys.path.insert(0, _INTEROP)
