"""MLIR text for the SIMT engine's tests: one kernel ``k::f`` in a gpu.module, as a program;
and the comparison of two runs' outcomes."""

from __future__ import annotations

import numpy as np

import tileir
from tileir import gpu


def kernel(params: str, body: str, attrs: str = "") -> str:
    """A module holding ``gpu.func @f(params) attrs kernel`` (``body``, then ``gpu.return``)
    in ``gpu.module @k``: launch it as ``"k::f"``."""
    return ("module attributes {gpu.container_module} {\n  gpu.module @k {\n"
            f"    gpu.func @f({params}){attrs} kernel {{\n{body}\n      gpu.return\n"
            "    }\n  }\n}\n")


def program(text: str) -> gpu.Program:
    """``text`` parsed and prepared for launches."""
    return gpu.Program(tileir.parse(text))


def same_outcome(fast, ref) -> None:
    """Two runs ended alike: the same error text (``str``), or the same arrays bit for bit."""
    if isinstance(ref, str):
        assert fast == ref
        return
    assert not isinstance(fast, str), fast
    for a, b in zip(fast, ref):
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype and np.array_equal(a.view(np.uint8), b.view(np.uint8))
