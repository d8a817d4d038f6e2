"""Every module of cuda-tile's corpus, of tileirdisasm's samples and of the examples that
verifies still verifies after each pass (run_pipeline verifies after every pass) and no pass
fails on it."""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path

import pytest

import tileir
from tileir.ir.diagnostics import DiagnosticError
from tileir.passes import run_pipeline
from tileir.dialects.cuda_tile.detect import parse_text

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "conformance"))
from corpus import conformance_root  # noqa: E402

PIPELINES = ["canonicalize", "cse", "loop-split", "loop-invariant-code-motion",
             "constant-fold", "fuse-fma", "synthesize-debug-info-scopes",
             "any(canonicalize, cse, loop-invariant-code-motion, loop-split, canonicalize)"]


def _files() -> list[Path]:
    files = sorted((REPO / "tests" / "data" / "tileirdisasm").glob("*.mlir"))
    files += sorted((REPO / "examples").glob("*.mlir"))
    root = conformance_root()
    if root is not None:
        files += sorted((root / "cuda-tile").rglob("*.mlir"))
    return files


@functools.lru_cache(maxsize=None)
def _valid_chunks() -> list:
    return list(_each_valid_chunk())


def _each_valid_chunk():
    for path in _files():
        for chunk in re.split(r"(?m)^// -----.*\n", path.read_text(encoding="utf-8")):
            try:
                tileir.verify(parse_text(chunk, str(path)))
            except DiagnosticError:
                continue  # the corpus's invalid-IR tests
            yield path, chunk


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_every_valid_module_survives_the_pass(pipeline):
    count = 0
    failures = []
    for path, chunk in _valid_chunks():
        module = parse_text(chunk, str(path))
        try:
            run_pipeline(module, pipeline)
        except DiagnosticError as exc:
            failures.append(f"{path.name}: {exc.render()[:500]}")
        count += 1
    assert not failures, "\n".join(failures[:5])
    assert count >= 20
