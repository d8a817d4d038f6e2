"""The -verify-diagnostics files of cuda-tile's dialect suite, checked in-process.

Counts how many expected diagnostics tileir reproduces (exact line, severity and message) and
requires at least REQUIRED of them; no chunk may crash.  A second test requires all of them except
the documented DEVIATIONS, and no unexpected diagnostic.  On failure both print a per-line report
of missing/unexpected diagnostics."""

from __future__ import annotations

import functools

from corpus import cuda_tile_dir, run_lines
from tileir.cli.opt import process_buffer
from tileir.text.expected import match_diagnostics, parse_expectations, split_input
from tileir.ir.verify import VerifyOptions

REQUIRED = 0.95

#: Expected diagnostics tileir deliberately does not produce: (file, annotation line) -> why.
DEVIATIONS = {
    ("invalid.mlir", 2054): "ERRATA 8: ftof accepts the IEEE rounding modes (cuda-tile 13.3 "
                            "rejects rounding<negative_inf> on f32 -> f64)",
}


def _verify_files():
    base = cuda_tile_dir() / "Dialect" / "CudaTile"
    out = []
    for path in sorted(base.glob("*.mlir")):
        for line in run_lines(path):
            if "-verify-diagnostics" in line and "cuda-tile-opt" in line and \
                    "test-debuginfo" not in line:
                out.append((path, line))
    return out


def check_file(path, run_line):
    """(expected, matched, unexpected, report lines, undocumented problems) for one RUN line."""
    hints = "silent"
    if "-Wunsupported-hints" in run_line:
        hints = "error" if "-Werr-hints" in run_line else "warn"
    allow = "allow-unregistered-dialect" in run_line
    split = "split-input-file" in run_line
    text = path.read_text(encoding="utf-8")
    expected = matched = unexpected = 0
    failures = []
    problems = 0
    for chunk in split_input(text, split):
        exps = parse_expectations(chunk.text, chunk.line_offset)
        res = process_buffer(chunk.text, str(path), line_offset=chunk.line_offset,
                             allow_unregistered=allow, verify_options=VerifyOptions(hints=hints))
        m = match_diagnostics(exps, res.diagnostics, str(path))
        expected += len(exps)
        matched += len(m.matched)
        unexpected += len(m.unexpected)
        for e in m.missing:
            why = DEVIATIONS.get((path.name, e.annotation_line))
            if why:
                failures.append(f"line {e.annotation_line}: deviation ({why}) "
                                f"{{{{{e.message}}}}}")
            else:
                problems += 1
                failures.append(f"line {e.annotation_line}: missing {e.severity} "
                                f"{{{{{e.message}}}}}")
        for d in m.unexpected:
            problems += 1
            pos = d.loc.file_line_col()
            failures.append(f"line {pos.line if pos else '?'}: unexpected {d.severity}: "
                            f"{d.message}")
    return expected, matched, unexpected, failures, problems


@functools.lru_cache(maxsize=1)
def _results():
    total = matched_total = unexpected_total = problems_total = 0
    report = []
    for path, line in _verify_files():
        expected, matched, unexpected, failures, problems = check_file(path, line)
        total += expected
        matched_total += matched
        unexpected_total += unexpected
        problems_total += problems
        report.append(f"{path.name}: {matched}/{expected} matched, {unexpected} unexpected")
        report.extend("    " + f for f in failures[:400])
    return total, matched_total, unexpected_total, problems_total, "\n".join(report)


def test_verify_diagnostics_corpus(capsys):
    total, matched, unexpected, _, report = _results()
    ratio = matched / max(total, 1)
    summary = (f"reproduced {matched}/{total} expected diagnostics ({ratio:.1%}), "
               f"{unexpected} unexpected")
    with capsys.disabled():
        print("\n" + summary)
    assert ratio >= REQUIRED, summary + "\n" + report


def test_verify_diagnostics_exact():
    """Every expected diagnostic but the documented deviations, and nothing else."""
    total, matched, unexpected, problems, report = _results()
    assert problems == 0, (f"{problems} undocumented differences ({matched}/{total} matched, "
                           f"{unexpected} unexpected)\n" + report)
