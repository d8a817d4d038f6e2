"""Random modules of func/arith/math/index/cf ops, printed by tileir and mlir-opt 22: custom
form, generic form and generic read-back must be identical.  ``TILEIR_UPSTREAM_FUZZ=N``
compares N modules (default 60)."""

from __future__ import annotations

import os

from mlir_diff import assert_same_printing
from random_modules import random_module

COUNT = int(os.environ.get("TILEIR_UPSTREAM_FUZZ", "60"))


def test_random_modules_print_like_mlir_opt():
    chunks = [random_module(seed) for seed in range(COUNT)]
    assert assert_same_printing(chunks) == COUNT
