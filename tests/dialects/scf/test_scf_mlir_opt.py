"""The scf dialect against MLIR 22's mlir-opt: printing (custom and generic form) of a corpus
covering every op, the verifier's messages on invalid input, and randomly generated modules."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from mlir_diff import assert_same_diagnostics, assert_same_printing  # noqa: E402
from scf_gen import random_module  # noqa: E402

HERE = Path(__file__).parent
#: random modules per run (scale up with TILEIR_SCF_FUZZ for a long local search)
FUZZ = int(os.environ.get("TILEIR_SCF_FUZZ", "60"))


def test_every_op_prints_as_mlir_opt_prints_it(tmp_path):
    text = (HERE / "ops.mlir").read_text()
    assert assert_same_printing(text, tmp_path) >= 8


def test_invalid_inputs_get_mlir_opts_messages(tmp_path):
    assert_same_diagnostics((HERE / "invalid.mlir").read_text(), tmp_path)


def test_corpus_covers_every_scf_op():
    from tileir.ir.opdef import OP_REGISTRY
    text = (HERE / "ops.mlir").read_text() + (HERE / "invalid.mlir").read_text()
    for name in (n for n in OP_REGISTRY if n.startswith("scf.")):
        assert name in text or name.removeprefix("scf.") in text, name


@pytest.mark.parametrize("seed", [0, 1])
def test_random_modules_print_as_mlir_opt_prints_them(seed, tmp_path):
    rng = random.Random(seed)
    text = "// -----\n".join(random_module(rng) for _ in range(FUZZ // 2))
    assert assert_same_printing(text, tmp_path) == 2 * (FUZZ // 2)
