"""Suite-wide settings.

Property tests are derandomized so that a run is reproducible (CI sees the same examples every
time).  Set ``TILEIR_HYPOTHESIS_EXPLORE=1`` to let hypothesis draw new examples (with a
``TILEIR_NUMERICS_EXAMPLES=...`` budget for the numerics tests, for a thorough local search).
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("tileir", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("explore" if os.environ.get("TILEIR_HYPOTHESIS_EXPLORE") else "tileir")
