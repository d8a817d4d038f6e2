"""The memref dialect against MLIR 22's mlir-opt: printing (custom and generic form) of a
corpus covering every op, the verifier's messages on invalid input, and random modules."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "scf"))

from memref_gen import random_module  # noqa: E402
from mlir_diff import assert_same_diagnostics, assert_same_printing  # noqa: E402

#: random modules per run (scale up with TILEIR_MEMREF_FUZZ for a long local search)
FUZZ = int(os.environ.get("TILEIR_MEMREF_FUZZ", "60"))


def test_every_op_prints_as_mlir_opt_prints_it(tmp_path):
    assert assert_same_printing((HERE / "ops.mlir").read_text(), tmp_path) == 4


def test_invalid_inputs_get_mlir_opts_messages(tmp_path):
    assert_same_diagnostics((HERE / "invalid.mlir").read_text(), tmp_path)


def test_corpus_covers_every_memref_op():
    from tileir.ir.opdef import OP_REGISTRY
    text = (HERE / "ops.mlir").read_text()
    for name in (n for n in OP_REGISTRY if n.startswith("memref.")):
        assert name in text, name


@pytest.mark.parametrize("seed", [0, 1])
def test_random_modules_print_as_mlir_opt_prints_them(seed, tmp_path):
    rng = random.Random(seed)
    text = "// -----\n".join(random_module(rng) for _ in range(FUZZ // 2))
    assert assert_same_printing(text, tmp_path) == 2 * (FUZZ // 2)
