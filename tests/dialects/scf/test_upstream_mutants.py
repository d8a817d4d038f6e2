"""Mutation fuzz of the scf, memref and vector syntax and verifiers: chunks of the corpora with
random edits either get diagnostics or parse, and then print (custom and generic form) and,
when they verified, print a text that parses and verifies again; never a Python exception.
``TILEIR_UPSTREAM_MUTANTS`` sets the number of mutants (default 300)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from tileir.cli.opt import process_buffer
from tileir.text.printer import print_op

DIALECTS = Path(__file__).resolve().parents[1]
COUNT = int(os.environ.get("TILEIR_UPSTREAM_MUTANTS", "300"))
PIECES = list("<>[](){},:x?*#!@\"-+= ") + [
    "0", "4", "-1", "%0", "%arg0", "index", "f32", "i1", "->", "to", "into", "step",
    "iter_args", "scf.yield", "memref<4xf32>", "vector<4xf32>", "[1, 2]"]


def _seeds() -> list[str]:
    seeds = []
    for dialect in ("scf", "memref", "vector"):
        for name in ("ops.mlir", "invalid.mlir"):
            text = (DIALECTS / dialect / name).read_text()
            seeds += [c for c in text.split("// -----\n") if c.strip()]
    return seeds


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(0, 8))
        kind = rng.randrange(3)
        piece = rng.choice(PIECES)
        text = (text[:i] + text[j:], text[:i] + piece + text[i:], text[:i] + piece + text[j:])[kind]
    return text


@pytest.mark.parametrize("seed", [0, 1])
def test_mutants_get_diagnostics_or_round_trip(seed):
    rng = random.Random(seed)
    seeds = _seeds()
    parsed = 0
    for _ in range(COUNT // 2):
        text = _mutate(rng.choice(seeds), rng)
        result = process_buffer(text, "<mutant>", allow_unregistered=True)
        if result.module is None:
            assert result.diagnostics, text
            continue
        parsed += 1
        printed = print_op(result.module)
        print_op(result.module, generic=True)
        if not result.diagnostics:
            again = process_buffer(printed, "<printed>", allow_unregistered=True)
            assert again.module is not None and not again.diagnostics, (text, printed)
    assert parsed > 0
