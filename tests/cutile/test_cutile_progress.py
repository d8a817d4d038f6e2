"""tileir.cutile.launch shows progress on a terminal and stops cleanly on Ctrl-C."""

from __future__ import annotations

import io

import numpy as np
import pytest

from ctutil import require_cutile

ct = require_cutile()

import tileir.cutile as tc  # noqa: E402
import cpu_kernels as K  # noqa: E402
from tileir.execute import LaunchInterrupted, progress as P  # noqa: E402


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_cutile_launch_progress_and_interrupt(monkeypatch):
    monkeypatch.setattr(P, "DELAY", 0.0)
    monkeypatch.setattr(P, "INTERVAL", 0.0)
    a = np.ones(64 * 32, np.float32)
    c = np.zeros_like(a)
    tty = FakeTTY()
    tc.launch(K.vec_add_kernel_1d, (64,), (a, a, c, 32), progress=tty)
    assert "64/64 tile blocks" in tty.getvalue() and (c == 2).all()
    quiet = FakeTTY()
    tc.launch(K.vec_add_kernel_1d, (64,), (a, a, c, 32), progress=False)
    assert quiet.getvalue() == ""

    class Interrupting(FakeTTY):
        def write(self, text):
            raise KeyboardInterrupt
    monkeypatch.setattr(P.Progress, "close", lambda self: None)
    with pytest.raises(LaunchInterrupted, match=r"interrupted after \d+ of 64 tile blocks"):
        tc.launch(K.vec_add_kernel_1d, (64,), (a, a, c, 32), progress=Interrupting(),
                  batch=False)
