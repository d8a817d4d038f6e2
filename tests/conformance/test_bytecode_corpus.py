"""cuda-tile's bytecode lit tests (Bytecode/**) and the ``%round_trip_test`` lines of its dialect
tests, run with ``tileir-translate`` / ``tileir-opt``.

The corpus was written for cuda-tile 13.3 built with ``TILE_IR_INCLUDE_TESTS``; tileir emulates
that build (newest version 13.3 in messages and ``--list-versions``, test versions 250.x) when
``TILEIR_CUDA_TILE_COMPAT=13.3`` is set, which this module does for the commands it runs.
"""

from __future__ import annotations

import os

import pytest

from corpus import conformance_root, cuda_tile_dir, execute, run_lines, substitute

#: RUN lines that need cuda-tile's test-only ops (``testing$bytecode_test_*``), which tileir
#: does not implement.
_TESTING_OPS = {"test_forward_compatibility.mlir", "test_version_250_1.mlir",
                "test_version_errors.mlir"}

_ROUND_TRIP_DIALECT = ["arith.mlir", "conversion.mlir", "opt_hints.mlir"]


def _cases():
    root = conformance_root()
    if root is None:
        return [pytest.param("missing", marks=pytest.mark.skip(
            reason="conformance corpus not found (set TILEIR_CONFORMANCE_DIR)"))]
    base = root / "cuda-tile"
    out = []
    for path in sorted((base / "Bytecode").rglob("*.mlir")):
        rel = path.relative_to(base).as_posix()
        marks = []
        if path.name in _TESTING_OPS:
            marks.append(pytest.mark.skip(reason="needs cuda-tile's test-only ops "
                                          "testing$bytecode_test_* (not implemented)"))
        out.append(pytest.param(rel, id=rel, marks=marks))
    for name in _ROUND_TRIP_DIALECT:
        rel = f"Dialect/CudaTile/{name}"
        out.append(pytest.param(rel, id=f"{rel}:round_trip_test"))
    return out


@pytest.mark.parametrize("rel", _cases())
def test_bytecode_corpus_file(rel, tmp_path, monkeypatch):
    """Every RUN line of the file, in order, in one scratch directory (they share ``%t``)."""
    monkeypatch.setenv("TILEIR_CUDA_TILE_COMPAT", "13.3")
    path = cuda_tile_dir() / rel
    lines = run_lines(path)
    if rel.startswith("Dialect/"):
        lines = [line for line in lines if "%round_trip_test" in line]
    for line in lines:
        command = substitute(line, path, tmp_path)
        proc = execute(command, tmp_path)
        assert proc.returncode == 0, (f"RUN: {line}\n$ {command}\n--- stdout ---\n"
                                      f"{proc.stdout[-3000:]}\n--- stderr ---\n"
                                      f"{proc.stderr[-4000:]}")
