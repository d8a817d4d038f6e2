#!/usr/bin/env python3
"""Round-trip fuzzing for a given time.

    python benchmarks/fuzz_roundtrip.py [--minutes N] [--seed S] [--format text --format bytecode]

Mutates NVIDIA's cuda-tile conformance corpus (``../shared/conformance``, or
``TILEIR_CONFORMANCE_DIR``), ``examples/`` and tileir's seed modules -- token by token as text,
byte by byte as bytecode in 13.1-13.4 -- and checks, for every input that is accepted, that it
prints as custom and generic text that parses back to the same IR, writes as bytecode of every
version that can carry it that reads back to the same IR, and keeps the verifier's verdict
(:mod:`tileir.tools.roundtrip`).  Failures are shrunk to a minimal reproducer and saved under
``--out``.  Input formats come from a registry: a front end that registers one is fuzzed too.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from tileir.tools.fuzz_roundtrip import _conformance_dir, fuzz  # noqa: E402
from tileir.tools.roundtrip import INPUTS  # noqa: E402


def _print_report(report, elapsed: float) -> None:
    for name in sorted(report.inputs):
        n = report.inputs[name]
        print(f"[{name}] inputs: {n} ({n / max(elapsed, 1e-9):,.0f}/s), accepted: "
              f"{report.accepted[name]}, distinct IR checked: {report.checked[name]}")
    for (name, what), count in sorted(report.outcomes.items()):
        print(f"  {name:9s} {what:40s} {count:10d}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--inputs", type=int, default=None,
                    help="stop once every format has had this many inputs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--format", action="append", choices=sorted(INPUTS),
                    help="input format to fuzz (repeatable; default: all registered)")
    ap.add_argument("--out", default="fuzz-failures")
    ap.add_argument("--memory-gb", type=float, default=6.0,
                    help="address-space limit of this process: an input that makes tileir "
                         "allocate more fails with MemoryError (a violation) instead of taking "
                         "the machine down (0: no limit)")
    args = ap.parse_args(argv)
    if args.memory_gb > 0:
        limit = int(args.memory_gb * (1 << 30))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def progress(report, elapsed):
        print(f"... {elapsed:.0f} s: " + ", ".join(f"{k} {v}" for k, v in
                                                   sorted(report.inputs.items())) +
              f"; {len(report.failures)} kinds of violation", flush=True)
        while len(shown) < len(report.failures):
            f = report.failures[len(shown)]
            shown.append(f)
            print(f"  new violation [{f.format}] {f.kind}: {f.detail[:300]}", flush=True)
    shown: list = []

    def stop(signum, frame):
        raise KeyboardInterrupt
    # Ctrl-C, or a kill (SIGTERM; also SIGINT in a background job, which ignores it by
    # default), ends the run with its report
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    if _conformance_dir() is None:
        print("note: NVIDIA's conformance corpus was not found (../shared/conformance beside the "
              "repository, or TILEIR_CONFORMANCE_DIR): seeds are tileir's own examples only",
              flush=True)
    report = fuzz(args.format, seconds=args.minutes * 60, inputs=args.inputs, seed=args.seed,
                  progress=progress)
    if report.interrupted:
        print("(interrupted)")
    _print_report(report, report.seconds)
    if report.failures:
        os.makedirs(args.out, exist_ok=True)
        for i, f in enumerate(report.failures):
            ext = "tilebc" if isinstance(f.data, bytes) else "mlir"
            for tag, data in (("input", f.data), ("min", f.shrunk)):
                path = Path(args.out) / f"failure{i}-{tag}.{ext}"
                if isinstance(data, bytes):
                    path.write_bytes(data)
                else:
                    path.write_text(data, encoding="utf-8", errors="surrogateescape")
            small = f.shrunk if isinstance(f.shrunk, str) else f.shrunk.hex()
            print(f"FAILURE {i} [{f.format}] {f.kind}: {f.detail[:400]}\n  minimal: {small[:600]}")
        print(f"outcome: FAIL ({len(report.failures)} kinds of violation; inputs in {args.out}/)")
        return 1
    idle = sorted(name for name, n in report.inputs.items() if n and not report.accepted[name])
    if idle:
        # a format whose mutants were all rejected checked nothing: not a pass
        print(f"outcome: VACUOUS (no input of {', '.join(idle)} was accepted: check its seeds)")
        return 2
    print("outcome: PASS (every accepted input round-tripped through every form)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
