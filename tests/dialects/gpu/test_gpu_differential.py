"""Differential tests of the gpu dialect against MLIR 22's ``mlir-opt``: the same input must
print the same custom form, and the generic forms must mean the same IR (each tool reads the
other's generic output back to the same custom form)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

from tileir.cli.opt import process_buffer  # noqa: E402
from tileir.text import print_op  # noqa: E402

INPUTS = sorted((Path(__file__).parent / "inputs").glob("*.mlir"))
FLAGS = ["-allow-unregistered-dialect"]


def tileir_print(text: str, generic: bool = False) -> str:
    result = process_buffer(text, "<input>", allow_unregistered=True)
    assert not result.failed, [d.message for d in result.diagnostics]
    return print_op(result.module, generic=generic)


def mlir_print(text: str, generic: bool = False) -> str:
    run = run_mlir_opt(text, FLAGS + (["-mlir-print-op-generic"] if generic else []))
    assert run.returncode == 0, run.stderr
    return run.stdout


def _norm(text: str) -> str:
    return text.rstrip("\n")


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_custom_form_matches_mlir_opt(path: Path) -> None:
    text = path.read_text()
    assert _norm(tileir_print(text)) == _norm(mlir_print(text))


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_generic_forms_mean_the_same_ir(path: Path) -> None:
    text = path.read_text()
    expected = _norm(mlir_print(text))
    # our generic output read by mlir-opt, and mlir-opt's generic output read by us
    assert _norm(mlir_print(tileir_print(text, generic=True))) == expected
    assert _norm(tileir_print(mlir_print(text, generic=True))) == expected


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_printed_form_round_trips(path: Path) -> None:
    once = tileir_print(path.read_text())
    assert tileir_print(once) == once


INVALID = Path(__file__).parent / "invalid" / "errors.mlir"


def _invalid_chunks() -> list[str]:
    return INVALID.read_text().split("// -----\n")


def _errors(text: str) -> list[str]:
    return re.findall(r"error: (.*)", text)


@pytest.mark.parametrize("index", range(len(_invalid_chunks())), ids=lambda i: f"chunk{i}")
def test_verifier_messages_match_mlir_opt(index: int) -> None:
    """Each chunk of invalid/errors.mlir fails with mlir-opt's error messages."""
    chunk = _invalid_chunks()[index]
    expected = _errors(run_mlir_opt(chunk, FLAGS).stderr)
    assert expected, "mlir-opt accepts the chunk"
    result = process_buffer(chunk, "<input>", allow_unregistered=True)
    assert [d.message for d in result.diagnostics if d.severity == "error"] == expected
