#!/usr/bin/env python3
"""Dense float constant printing throughput.

    python benchmarks/float_print_bench.py [--elements N] [--repeat R]

Prints a ``constant <f32: [...]>`` / ``<f64: ...>`` of N elements (normal random values, and
multiples of 1/8) through ``tileir.print`` and reports elements/s, next to the per-element
``format_float`` the printer used before (measured on a sample in the same run) and Python's
``repr`` of the same values as a C-speed reference.  Times are CPU times (``process_time``),
best of ``--repeat``.  Target (issue 14): >= 2M elements/s.  The element texts are checked
against ``format_float`` (bit-exact: the same text MLIR prints).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import tileir  # noqa: E402
from tileir.dialects.cuda_tile.attributes import DenseElementsAttr  # noqa: E402
from tileir.ir.densefloat import format_float_elements  # noqa: E402
from tileir.ir.floatfmt import _format_cached, format_float  # noqa: E402
from tileir.dialects.cuda_tile.types import F32, F64, TileType  # noqa: E402


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return max(best, 1e-9)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=1 << 20)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    n = args.elements
    rng = np.random.default_rng(14)
    ok = True
    for element, dtype in (("f32", np.float32), ("f64", np.float64)):
        for label, values in (("normal", rng.standard_normal(n)), ("k/8", np.arange(n) / 8)):
            a = values.astype(dtype)
            sample = a[:: max(1, n // 2000)][:2000]
            exact = [format_float(x, element) for x in sample]
            if format_float_elements(sample, element) != exact:
                print(f"{element} {label}: MISMATCH with format_float")
                ok = False
            typ = F32 if element == "f32" else F64
            text = ("cuda_tile.module @m {\n  global @g <%s: [0.0]> : tile<1x%s>\n}" %
                    (element, element))
            module = tileir.parse(text)
            glob = next(op for op in module.walk() if op.name == "cuda_tile.global")

            def print_fresh():
                # a new attribute each time: printed element lists are cached per attribute
                glob.attributes["value"] = DenseElementsAttr(TileType((n,), typ), a)
                tileir.print(module, assume_verified=True)

            def old_way():
                _format_cached.cache_clear()
                [format_float(x, element) for x in sample]
            t_print = _best(print_fresh, args.repeat)
            t_old = _best(old_way, 1) * n / len(sample)
            vals = a.tolist()
            t_repr = _best(lambda: list(map(repr, vals)), args.repeat)
            print(f"{element} {label:6s} {n} elements: print {n / t_print / 1e6:6.2f} M elements/s "
                  f"(per-element format_float {n / t_old / 1e6:.3f} M/s: {t_old / t_print:.0f}x; "
                  f"repr() {n / t_repr / 1e6:.2f} M/s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
