"""The vector dialect against MLIR 22's mlir-opt: printing (custom and generic form) of a
corpus covering every op, the verifier's messages on invalid input, and random modules."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path[:0] = [str(HERE), str(HERE.parent / "scf")]

import upstream_diff as mlir_diff  # noqa: E402
from vector_gen import random_module  # noqa: E402

#: random modules per run (scale up with TILEIR_VECTOR_FUZZ for a long local search)
FUZZ = int(os.environ.get("TILEIR_VECTOR_FUZZ", "60"))


def test_every_op_prints_as_mlir_opt_prints_it(tmp_path):
    assert mlir_diff.check_corpus(HERE, tmp_path) == 10


def test_invalid_inputs_get_mlir_opts_messages(tmp_path):
    mlir_diff.check_invalid(HERE, tmp_path)


def test_corpus_covers_every_op():
    assert mlir_diff.uncovered_ops(HERE, "vector") == []


@pytest.mark.parametrize("seed", [0, 1])
def test_random_modules_print_as_mlir_opt_prints_them(seed, tmp_path):
    mlir_diff.check_random(random_module, seed, FUZZ // 2, tmp_path)
