"""The RUN lines of cuda-tile's pass tests (canonicalize, fuse-fma, loop-split, debug-info
scopes, symbol renaming), run with tileir-opt and FileCheck."""

from __future__ import annotations

import pytest

from corpus import conformance_root, cuda_tile_dir, execute, run_lines, substitute

PASS_FILES = ["Dialect/CudaTile/canonicalize.mlir", "Transforms/fuse-fma.mlir",
              "Transforms/loop_split.mlir", "Transforms/synthesize-debuginfo-scopes.mlir",
              "Dialect/CudaTile/debuginfo_update_symbol_names.mlir",
              "Dialect/CudaTile/debuginfo_update_symbol_names_fail.mlir"]


def _cases():
    root = conformance_root()
    if root is None:
        return [pytest.param("missing", 0, marks=pytest.mark.skip(
            reason="conformance corpus not found (set TILEIR_CONFORMANCE_DIR)"))]
    return [pytest.param(rel, i, id=f"{rel}:RUN{i}")
            for rel in PASS_FILES for i, _ in enumerate(run_lines(root / "cuda-tile" / rel))]


@pytest.mark.parametrize("rel,index", _cases())
def test_pass_run_line(rel, index, tmp_path):
    path = cuda_tile_dir() / rel
    line = run_lines(path)[index]
    proc = execute(substitute(line, path, tmp_path), tmp_path)
    assert proc.returncode == 0, (f"RUN: {line}\n--- stdout ---\n{proc.stdout[-2000:]}\n"
                                  f"--- stderr ---\n{proc.stderr[-6000:]}")
