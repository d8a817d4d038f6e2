"""Suite-wide settings.

Property tests are derandomized so that a run is reproducible (CI sees the same examples every
time).  Set ``TILEIR_HYPOTHESIS_EXPLORE=1`` to let hypothesis draw new examples (with a
``TILEIR_NUMERICS_EXAMPLES=...`` budget for the numerics tests, for a thorough local search).
"""

from __future__ import annotations

import os

import pytest

from hypothesis import settings

settings.register_profile("tileir", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("explore" if os.environ.get("TILEIR_HYPOTHESIS_EXPLORE") else "tileir")


@pytest.fixture
def lane_engine(monkeypatch):
    """Run every gpu dialect launch on the lane engine (for tests that watch its own fast
    paths; the native backend would take over the larger launches)."""
    monkeypatch.setenv("TILEIR_SIMT_BACKEND", "lanes")
