"""The FileCheck RUN lines of cuda-tile's parse/print test files, run with tileir-opt."""

from __future__ import annotations

import pytest

from corpus import REPO, conformance_root, cuda_tile_dir, execute, run_lines, substitute

PARSE_PRINT_FILES = ["arith.mlir", "conversion.mlir", "debuginfo_attr.mlir", "dense_attr.mlir",
                     "entry_opt_hints_default_silent.mlir", "memory_consistency_ops.mlir",
                     "ops.mlir", "opt_hints.mlir", "syntax_omit_dialect_prefix.mlir", "types.mlir"]


def _cases():
    root = conformance_root()
    if root is None:
        return [pytest.param("missing", 0, marks=pytest.mark.skip(
            reason="conformance corpus not found (set TILEIR_CONFORMANCE_DIR)"))]
    out = []
    for name in PARSE_PRINT_FILES:
        path = root / "cuda-tile" / "Dialect" / "CudaTile" / name
        for i, line in enumerate(run_lines(path)):
            if "%round_trip_test" in line:
                continue  # bytecode round trips: tests/conformance/test_bytecode_corpus.py
            out.append(pytest.param(name, i, id=f"{name}:RUN{i}"))
    return out


@pytest.mark.parametrize("name,index", _cases())
def test_filecheck_run_line(name, index, tmp_path):
    path = cuda_tile_dir() / "Dialect" / "CudaTile" / name
    line = run_lines(path)[index]
    proc = execute(substitute(line, path, tmp_path), tmp_path)
    assert proc.returncode == 0, f"RUN: {line}\n--- stderr ---\n{proc.stderr[-4000:]}"
