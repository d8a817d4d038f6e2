"""Helpers shared by the cuTile-on-CPU tests."""

from __future__ import annotations

import numpy as np
import pytest

#: Why the cuTile tests skip: they need NVIDIA's cuTile Python front end.
SKIP_REASON = ("cuTile Python (module cuda.tile, package cuda-tile) is not importable; "
               "install the extra: pip install -e '.[cutile]'")


def require_cutile():
    """Skip the calling module unless cuda.tile and its export_kernel can be imported."""
    try:
        import cuda.tile as ct
        import cuda.tile.compilation  # noqa: F401
    except ImportError as exc:       # missing, or installed but broken
        pytest.skip(f"{SKIP_REASON} ({type(exc).__name__}: {exc})", allow_module_level=True)
    return ct


def tf32(x: np.ndarray) -> np.ndarray:
    """Round float32 values to TF32 (10 explicit mantissa bits, round to nearest even)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    lsb = (bits >> 13) & 1
    rounded = ((bits + 0xFFF + lsb) >> 13) << 13
    return rounded.astype(np.uint32).view(np.float32).reshape(np.shape(x))


def rel_err(got, want) -> float:
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    return float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))
