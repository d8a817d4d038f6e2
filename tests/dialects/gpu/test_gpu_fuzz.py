"""Mutation fuzz of the gpu dialect's parser and verifier paths: mutants of the gpu test inputs
(bytes deleted, duplicated or replaced by syntax-significant characters, tokens swapped) must
give diagnostics or a module, never a Python exception or a hang.  ``TILEIR_GPU_FUZZ=N`` sets the
number of mutants (default 300)."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path

import pytest

from tileir.cli.opt import process_buffer
from tileir.text import print_op

HERE = Path(__file__).parent
SEEDS = sorted((HERE / "inputs").glob("*.mlir")) + [HERE / "invalid" / "errors.mlir"]
N = int(os.environ.get("TILEIR_GPU_FUZZ", "300"))
_PIECES = ["(", ")", "[", "]", "{", "}", "<", ">", ",", ":", "=", "%", "@", "#", "!", "\"",
           "async", "gpu.", "x", "-1", "0", "99999999999999999999", " ", "\n", "->", "::",
           "kernel", "workgroup", "private", "args", "blocks", "threads", "in", "index", "f32",
           "!gpu.async.token", "!gpu.mma_matrix<16x16xf16, \"AOp\">", "#gpu<dim x>"]
_TOKEN = re.compile(r"%[\w.$-]+|@[\w.$]+|[#!]?[A-Za-z_][\w.$]*|\d+|\S")


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(4)
        pos = rng.randrange(len(text))
        if kind == 0:
            text = text[:pos] + text[pos + rng.randint(1, 8):]
        elif kind == 1:
            text = text[:pos] + rng.choice(_PIECES) + text[pos:]
        elif kind == 2:
            end = pos + rng.randint(1, 20)
            text = text[:pos] + text[pos:end] + text[pos:]
        else:
            tokens = _TOKEN.findall(text)
            a, b = rng.choice(tokens), rng.choice(tokens)
            text = text.replace(a, b, 1)
    return text


def _chunks() -> list[str]:
    out = []
    for path in SEEDS:
        out.extend(c for c in path.read_text().split("// -----\n") if c.strip())
    return out


@pytest.mark.parametrize("seed", range(4))
def test_mutants_never_raise(seed: int) -> None:
    rng = random.Random(seed)
    chunks = _chunks()
    for i in range(N // 4):
        text = _mutate(rng.choice(chunks), rng)
        start = time.monotonic()
        try:
            result = process_buffer(text, "<mutant>", allow_unregistered=True)
            if not result.failed:
                print_op(result.module)
                print_op(result.module, generic=True)
        except Exception as exc:  # a traceback is the failure this test looks for
            raise AssertionError(f"mutant {seed}/{i} raised {type(exc).__name__}: {exc}\n"
                                 f"--- input ---\n{text}") from exc
        assert time.monotonic() - start < 20, f"mutant {seed}/{i} took too long:\n{text}"
