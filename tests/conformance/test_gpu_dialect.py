"""MLIR's gpu-dialect tests (../shared/conformance/gpu-dialect) run with tileir.

* ``ops.mlir``: its RUN lines (mlir-opt replaced by tileir-opt) through FileCheck.
* ``invalid.mlir``: every split chunk's expected diagnostics reproduced, except the chunks whose
  expectations MLIR 22's own mlir-opt does not meet (``MLIR22_DIFFERS``; there we follow
  MLIR 22, and a test checks that the list is exactly mlir-opt 22's disagreements).

Chunks that use ops of a dialect tileir does not have yet are skipped, naming the op.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from corpus import conformance_root, execute, run_lines, _tool
from tileir.cli.opt import process_buffer
from tileir.ir.opdef import OP_REGISTRY
from tileir.text.expected import match_diagnostics, parse_expectations, split_input

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "interop"))
from mlir_tools import find_mlir_opt, run_mlir_opt  # noqa: E402

#: invalid.mlir chunks (0-based, split at ``// -----``) whose expectations mlir-opt 22 does not
#: reproduce (the file is from a newer MLIR).  What MLIR 22 says instead:
MLIR22_DIFFERS = {
    1: "a wrong-length operandSegmentSizes: MLIR 22 reports the operand count against it",
    5: "a wrong-length operandSegmentSizes: MLIR 22 reports the operand count against it",
    8: "!llvm.ptr<f32> does not parse in MLIR 22 (opaque pointers)",
    12: "!llvm.ptr<f32> does not parse in MLIR 22 (opaque pointers)",
    13: "!llvm.ptr<f32> does not parse in MLIR 22 (opaque pointers)",
    14: "!llvm.ptr<f32> does not parse in MLIR 22 (opaque pointers)",
    20: "MLIR 22's message: '`and` reduction operation is not compatible with type 'f32''",
    21: "MLIR 22's message: '`and` reduction operation is not compatible with type 'f32''",
    28: "MLIR 22 rejects an index shuffle with the operand-type constraint of newer types",
    45: "MLIR 22's MMA element list also has F64",
    47: "MLIR 22's memref element constraint also has 64-bit float",
    54: "MLIR 22: 'incorrect number of dynamic sizes, has 2, expected 1'",
    55: "MLIR 22: 'incorrect number of dynamic sizes, has 1, expected 2'",
}
#: Of those, the chunks where tileir reports what mlir-opt 22 reports (same messages): all.
FOLLOWS_MLIR22 = tuple(MLIR22_DIFFERS)

_UNKNOWN_OP = re.compile(r"custom op '([a-z_]+)\.[\w.]+' is unknown|"
                         r"Dialect `([a-z_]+)' not found for custom op")


def _gpu_dir() -> Path:
    root = conformance_root()
    if root is None or not (root / "gpu-dialect").is_dir():
        pytest.skip("gpu-dialect corpus not found: set TILEIR_CONFORMANCE_DIR or put "
                    "../shared/conformance beside the repository")
    return root / "gpu-dialect"


def _chunks():
    root = conformance_root()
    path = root / "gpu-dialect" / "invalid.mlir" if root else None
    if path is None or not path.is_file():
        return []
    return list(split_input(path.read_text(encoding="utf-8"), True))


def _missing_dialect(diagnostics) -> str | None:
    """The dialect of an unknown custom op tileir lacks (a dependency not merged yet)."""
    registered = {name.partition(".")[0] for name in OP_REGISTRY}
    for d in diagnostics:
        m = _UNKNOWN_OP.search(d.message)
        if m and (m.group(1) or m.group(2)) not in registered:
            return m.group(0)
    return None


@pytest.mark.parametrize("index", range(len(_chunks())), ids=lambda i: f"chunk{i}")
def test_invalid_chunk(index):
    if index in MLIR22_DIFFERS:
        pytest.skip(f"mlir-opt 22 disagrees with the file: {MLIR22_DIFFERS[index]}")
    path = _gpu_dir() / "invalid.mlir"
    chunk = _chunks()[index]
    # mlir-opt registers MLIR's test dialect; tileir lets such ops through as unregistered
    allow = '"test.' in chunk.text
    result = process_buffer(chunk.text, str(path), line_offset=chunk.line_offset,
                            allow_unregistered=allow)
    exps = parse_expectations(chunk.text, chunk.line_offset)
    m = match_diagnostics(exps, result.diagnostics, str(path))
    if m.missing or m.unexpected:
        missing_dialect = _missing_dialect(result.diagnostics)
        if missing_dialect:
            pytest.skip(f"needs a dialect tileir does not have yet: {missing_dialect}")
    assert not m.missing and not m.unexpected, (
        [f"missing line {e.annotation_line}: {e.message}" for e in m.missing]
        + [f"unexpected: {d.message}" for d in m.unexpected])


def test_mlir22_differs_exactly_on_the_listed_chunks(tmp_path):
    _gpu_dir()
    if find_mlir_opt() is None:
        pytest.skip("MLIR's mlir-opt not found")
    failing = set()
    for i, chunk in enumerate(_chunks()):
        run = run_mlir_opt(chunk.text, ["-verify-diagnostics"])
        if run.returncode != 0:
            failing.add(i)
    assert failing == set(MLIR22_DIFFERS)


def _error_messages(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"error: (.*)", text)]


@pytest.mark.parametrize("index", FOLLOWS_MLIR22, ids=lambda i: f"chunk{i}")
def test_differing_chunk_follows_mlir22(index):
    if find_mlir_opt() is None:
        pytest.skip("MLIR's mlir-opt not found")
    _gpu_dir()
    # without its expected-* annotations (mlir-opt 22 checks them even without the flag)
    text = re.sub(r"//.*expected-.*", "//", _chunks()[index].text)
    expected = _error_messages(run_mlir_opt(text).stderr)
    result = process_buffer(text, "<chunk>")
    missing_dialect = _missing_dialect(result.diagnostics)
    if missing_dialect:
        pytest.skip(f"needs a dialect tileir does not have yet: {missing_dialect}")
    assert [d.message for d in result.diagnostics if d.severity == "error"] == expected


def _ops_run_lines():
    root = conformance_root()
    path = root / "gpu-dialect" / "ops.mlir" if root else None
    if path is None or not path.is_file():
        return []
    return run_lines(path)


@pytest.mark.parametrize("index", range(len(_ops_run_lines())), ids=lambda i: f"RUN{i}")
def test_ops_run_line(index, tmp_path):
    path = _gpu_dir() / "ops.mlir"
    line = _ops_run_lines()[index]
    command = re.sub(r"\bmlir-opt\b", _tool("tileir-opt"), line.replace("%s", str(path)))
    command = re.sub(r"\bFileCheck\b", _tool("filecheck"), command)
    proc = execute(command, tmp_path)
    if proc.returncode != 0:
        m = _UNKNOWN_OP.search(proc.stderr)
        registered = {name.partition(".")[0] for name in OP_REGISTRY}
        if m and (m.group(1) or m.group(2)) not in registered:
            pytest.skip(f"needs a dialect tileir does not have yet: {m.group(0)}")
    assert proc.returncode == 0, f"RUN: {line}\n--- stderr ---\n{proc.stderr[-4000:]}"
