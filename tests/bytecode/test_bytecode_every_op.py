"""Every op's canonical text (tests/text/opcases.py) survives text -> bytecode -> text in every
bytecode version that can encode it (13.4 must encode all of them)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.bytecode import BytecodeWriteError, read_bytecode, write_bytecode
from tileir.text.printer import print_op

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "text"))
import opcases  # noqa: E402

VERSIONS = ["13.1", "13.2", "13.3", "13.4"]


def _cases():
    out = [pytest.param(text, id=f"{fam}-{i}") for i, (fam, text) in enumerate(opcases.cases())]
    for i, text in enumerate(opcases.MODULE_LEVEL):
        out.append(pytest.param(text, id=f"module-{i}"))
    return out


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("text", _cases())
def test_every_op_roundtrips(text, version):
    module = tileir.parse("cuda_tile.module @kernels {\n" + text + "}\n")
    try:
        data = write_bytecode(module, version)
    except BytecodeWriteError as exc:
        if version == "13.4":
            raise
        pytest.skip(f"not encodable in {version}: {exc.message}")
    back = read_bytecode(data)
    assert print_op(back, disasm=True) == print_op(module, disasm=True)
    assert write_bytecode(back, version) == data
