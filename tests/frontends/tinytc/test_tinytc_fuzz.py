"""Mutation fuzz of the tinytc front end: mutated corpus programs either parse (and then lower
to verified cuda_tile) or raise TinytcError -- never another exception, never a hang.

``TILEIR_TINYTC_FUZZ=N`` sets the number of mutated inputs (default 300)."""

from __future__ import annotations

import os
import random
import time

import pytest

from tileir import tinytc

from tinytc_corpus import DOCS_OK, PASSING, tinytc_dir
from tinytc_mutation import mutate as mutate_text

_FRAGMENTS = ["%", "@", "x", "?", ",", ":", "->", "(", ")", "{", "}", "<", ">", "[", "]", "=",
              ".n", ".t", ".atomic", "0", "1", "-1", "99999999999999999999", "1.5", "0x1p3",
              "f32", "i1", "index", "memref", "group", "strided", "offset", "func", "if", "else",
              "for", "foreach", "yield", "load", "store", "gemm", "sum", "axpby", "subview",
              "expand", "fuse", "alloca", "cast", "cmp.lt", "arith.add", "\n", " ", ";", "\x00",
              "é"]


def mutate(text: str, rng: random.Random) -> str:
    """One to three random edits of ``text`` (:func:`tinytc_mutation.mutate`)."""
    return mutate_text(text, rng, _FRAGMENTS)


def corpus_texts() -> list[str]:
    root = tinytc_dir()
    return [(root / "test" / "codegen" / f"{n}.ir").read_text() for n in PASSING] + \
        [(root / p).read_text() for p in DOCS_OK]


def fuzz(count: int, seed: int = 0) -> dict:
    """Run ``count`` mutated inputs; return counts of outcomes (raises on a crash)."""
    rng = random.Random(seed)
    texts = corpus_texts()
    stats = {"inputs": 0, "rejected": 0, "parsed": 0, "lowered": 0, "slowest_s": 0.0}
    for _ in range(count):
        src = mutate(rng.choice(texts), rng)
        start = time.perf_counter()
        try:
            prog = tinytc.parse(src, filename="fuzz.ir")
        except tinytc.TinytcError as exc:
            assert exc.message and exc.location.startswith("fuzz.ir:")
            stats["rejected"] += 1
        except Exception as exc:  # pragma: no cover - the failure we look for
            raise AssertionError(f"{type(exc).__name__}: {exc}\n--- input ---\n{src}") from exc
        else:
            stats["parsed"] += 1
            assert tinytc.print(tinytc.parse(tinytc.print(prog))) == tinytc.print(prog)
            try:
                tinytc.lower(prog)
                stats["lowered"] += 1
            except tinytc.TinytcError:
                pass
        stats["inputs"] += 1
        stats["slowest_s"] = max(stats["slowest_s"], time.perf_counter() - start)
    return stats


def test_mutated_programs_never_crash_the_front_end():
    count = int(os.environ.get("TILEIR_TINYTC_FUZZ", "300"))
    stats = fuzz(count)
    assert stats["inputs"] == count
    assert stats["rejected"] > 0 and stats["parsed"] > 0
    assert stats["slowest_s"] < 30


@pytest.mark.parametrize("text", ["", "func", "func @f(", "func @f() {", "}", "\x00", "é",
                                  "func @f(%a: memref<f32x" + "x1" * 2000 + ">) {}",
                                  "func @f() {" + " if 1 {" * 400 + "}" * 401])
def test_degenerate_inputs(text):
    try:
        tinytc.parse(text)
    except tinytc.TinytcError:
        pass
