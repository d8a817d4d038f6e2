import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


sys.path.insert(0, str(Path(__file__).parents[1] / "execute"))


@pytest.fixture(autouse=True)
def batched_equals_sequential(monkeypatch):
    """Every batched launch of the cuTile tests also runs one tile block at a time and must
    leave identical bits (tests/execute/differential.py)."""
    from differential import check_batched_launches
    return check_batched_launches(monkeypatch)
