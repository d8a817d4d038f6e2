"""MLIR text for the SIMT engine's tests: one kernel ``k::f`` in a gpu.module, as a program."""

from __future__ import annotations

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
