"""The numerics' native helpers (:mod:`tileir.execute.numerics.native`) against NumPy paths.

The C tf32 rounding must give the bits of the NumPy bit-arithmetic routine it replaces
(:func:`tileir.execute.semantics.fast._round_low_bits` plus the canonical NaN) on every kind of
pattern and layout, and the conversion must still work when no helper can run.
"""

from __future__ import annotations

import numpy as np
import pytest

from tileir.execute import cbuild
from tileir.execute.numerics import native
from tileir.execute.semantics import fast

needs_cc = pytest.mark.skipif(cbuild.compiler() is None, reason="no C compiler")


def numpy_tf32(x: np.ndarray) -> np.ndarray:
    """The NumPy reference: round the low 13 bits to nearest even, NaNs canonical."""
    bits = np.ascontiguousarray(x).view(np.uint32)
    out = fast._round_low_bits(bits, 13, "nearest_even").copy()
    out[np.isnan(np.ascontiguousarray(x))] = np.uint32(0x7FFFE000)
    return out


def patterns(n: int, seed: int) -> np.ndarray:
    """Random f32 patterns, every rounding boundary of tf32 and the special values."""
    rng = np.random.default_rng(seed)
    rand = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    hi = rng.integers(0, 1 << 19, 4096, dtype=np.uint32) << np.uint32(13)
    low = np.array([0, 1, 0xFFF, 0x1000, 0x1001, 0x1FFF], np.uint32)
    special = np.array([0, 0x80000000, 1, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F7FF000,
                        0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001,
                        0xFFFFFFFF, 0x00001000, 0x00003000], np.uint32)
    return np.concatenate([rand, (hi[:, None] | low).reshape(-1), special]).view(np.float32)


@needs_cc
def test_round_to_tf32_matches_numpy_bits():
    x = patterns(1 << 18, 1)
    out = np.empty(x.shape, np.uint32)
    assert native.round_to_tf32(x, out)
    np.testing.assert_array_equal(out, numpy_tf32(x))


@needs_cc
@pytest.mark.parametrize("view", [
    lambda a: a.reshape(256, 1024)[::3, 5::7],          # both axes strided
    lambda a: a.reshape(256, 1024)[:, ::-1],             # reversed rows
    lambda a: a.reshape(16, 16, 1024)[:, 2:9, :],        # leading axes that merge
    lambda a: a.reshape(256, 1024).T,                    # transposed
])
def test_strided_views(view):
    x = view(patterns(1 << 18, 2)[:1 << 18])
    out = np.empty(x.shape, np.uint32)
    ran = native.round_to_tf32(x, out)
    want = numpy_tf32(x)
    if ran:
        np.testing.assert_array_equal(out, want)
    # the conversion itself is right whichever path it takes
    np.testing.assert_array_equal(fast.f32_to_tf32("nearest_even")(x).view(np.uint32), want)


def test_merging_axes():
    a = np.zeros((4, 6, 8), np.float32)
    assert native._as_rows(a) == (24, 8, 8, 1)
    assert native._as_rows(a[:, ::2, :]) == (12, 8, 16, 1)
    assert native._as_rows(a.transpose(1, 0, 2)) is None      # rows that do not merge


def test_small_arrays_and_no_compiler_take_numpy(monkeypatch):
    x = patterns(1 << 14, 3)
    out = np.empty(x.shape, np.uint32)
    assert not native.round_to_tf32(x[:100], out[:100])       # below MIN_ELEMENTS
    monkeypatch.setattr(native, "_lib", [None])
    assert not native.round_to_tf32(x, out)
    np.testing.assert_array_equal(fast.f32_to_tf32("nearest_even")(x).view(np.uint32),
                                  numpy_tf32(x))
