#!/usr/bin/env python3
"""Mutation fuzzing of the bytecode reader for a given time.

    python benchmarks/fuzz_bytecode.py [--minutes N] [--seed S] [--corpus DIR]

Mutates valid bytecode (tileir's seed modules in 13.1-13.4, plus any ``*.tilebc`` /
``*.tileirbc`` found under ``--corpus``) and checks the reader's contract: only
``BytecodeError`` may escape ``read_bytecode`` (and never an "internal" one), and accepted input
can be written back.  Prints inputs/s, the outcome counts and the first failures (saved to
``fuzz-failures/`` for reproduction).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from tileir.bytecode.fuzz import check, mutate, seed_corpus  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--corpus", default=None, help="directory with extra valid bytecode files")
    ap.add_argument("--out", default="fuzz-failures")
    args = ap.parse_args(argv)
    seeds = seed_corpus()
    if args.corpus:
        for path in sorted(Path(args.corpus).rglob("*")):
            if path.suffix in (".tilebc", ".tileirbc") and path.is_file():
                seeds.append(path.read_bytes())
    rng = random.Random(args.seed)
    outcomes: Counter = Counter()
    failures = []
    deadline = time.monotonic() + args.minutes * 60
    start = time.monotonic()
    n = 0
    while time.monotonic() < deadline:
        data = mutate(rng.choice(seeds), rng)
        n += 1
        try:
            outcomes[check(data)] += 1
        except AssertionError as exc:
            outcomes["CONTRACT VIOLATION"] += 1
            if len(failures) < 20:
                failures.append((data, str(exc)))
    elapsed = time.monotonic() - start
    print(f"seeds: {len(seeds)} files; ran {elapsed:.0f} s")
    print(f"inputs: {n} ({n / elapsed:,.0f} inputs/s)")
    for name, count in outcomes.most_common():
        print(f"  {name:20s} {count:10d} ({100 * count / max(n, 1):.2f}%)")
    if failures:
        os.makedirs(args.out, exist_ok=True)
        for i, (data, msg) in enumerate(failures):
            (Path(args.out) / f"failure{i}.tilebc").write_bytes(data)
            print(f"FAILURE {i}: {msg[:300]}")
        print(f"outcome: FAIL ({outcomes['CONTRACT VIOLATION']} contract violations; inputs in "
              f"{args.out}/)")
        return 1
    print("outcome: PASS (only BytecodeError escaped; accepted inputs were written back)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
