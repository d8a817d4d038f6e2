"""Mutated random modules: wherever mlir-opt 22 rejects one, tileir reports the same first
error (line and message).  ``TILEIR_UPSTREAM_FUZZ=N`` sets the number of seeds (default 60,
scaled by 3 here: a seed gives a mutant when a mutation applies, and some mutants stay valid)."""

from __future__ import annotations

import os

from mlir_diff import mlir_errors, require_mlir_opt, tileir_process
from mutants import mutant

SEEDS = 3 * int(os.environ.get("TILEIR_UPSTREAM_FUZZ", "60"))


def test_mutants_fail_like_mlir_opt():
    require_mlir_opt()
    chunks = [m for m in (mutant(seed) for seed in range(SEEDS)) if m is not None]
    expected = mlir_errors(chunks)
    compared, failures = 0, []
    for chunk, errors in zip(chunks, expected):
        got = tileir_process(chunk)
        if not errors:
            assert got.output is not None, f"tileir rejects what mlir-opt accepts:\n{chunk}\n" \
                                           f"{got.errors}"
            continue
        compared += 1
        if got.errors[:1] != errors[:1]:
            failures.append(f"{chunk}\n--- mlir-opt: {errors[0]}\n--- tileir: {got.errors[:1]}")
    assert not failures, "\n\n".join(failures[:5]) + f"\n({len(failures)} of {compared})"
    assert compared > SEEDS // 4
