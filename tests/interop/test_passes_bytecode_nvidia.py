"""Interop 3: what every pass produces is valid for NVIDIA's tools.

For each pass (and cuda-tile-optimize's -O3 pipeline), on a module of generated kernels
(tests/passes/kernelgen.py): the result verifies, tileir writes it as bytecode, NVIDIA's
``tileirdisasm`` reads that bytecode (exit 0), and the text tileirdisasm prints, read back by
``tileir.load`` (a module body, recognised by content), runs on the CPU executor with outputs
bit-identical to the original kernels (fuse-fma: to its contracted form), and ``tileiras``
compiles the bytecode for sm_100.
``synthesize-debug-info-scopes`` is checked with ``tileirdisasm -g`` on kernels with file
locations.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir.passes import run_pipeline

from nvidia_tools import compile_for, disasm, require_tools

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "passes"))
import kernelgen  # noqa: E402

KERNELS = 24
PIPELINES = ["canonicalize", "cse", "loop-split", "loop-invariant-code-motion",
             "constant-fold", "fuse-fma",
             "any(canonicalize, cse, loop-invariant-code-motion, loop-split, canonicalize)"]


def _outputs(module, count: int) -> list:
    out = []
    for i in range(count):
        args = kernelgen.random_arguments(np.random.default_rng(i))
        tileir.compile(module, f"k{i}", verify=False).launch((1, 1, 1), args)
        out.append((args[-2].tobytes(), args[-1].tobytes()))
    return out


def _through_tileirdisasm(module, tools: dict, tmp_path: Path, *flags: str):
    """Bytecode -> tileirdisasm -> text -> tileir.load."""
    bc = tmp_path / "m.tileirbc"
    bc.write_bytes(tileir.write_bytecode(module, "13.3"))
    res = disasm(tools, bc, *flags)
    assert res.returncode == 0, f"tileirdisasm rejected the pass output:\n{res.stderr[-3000:]}"
    text = tmp_path / "m.disasm.mlir"
    text.write_text(res.stdout)
    back = tileir.load(text)
    tileir.verify(back)
    return back


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_pass_output_read_by_tileirdisasm_and_runs_the_same(pipeline, tmp_path):
    tools = require_tools()
    if pipeline == "fuse-fma":
        pairs = [kernelgen.fma_kernel(i, f"k{i}") for i in range(KERNELS)]
        source = kernelgen.module_text([p[0] for p in pairs])
        reference = tileir.parse(kernelgen.module_text([p[1] for p in pairs]))
    else:
        source = kernelgen.module_text([kernelgen.random_kernel(50_000 + i, f"k{i}")
                                        for i in range(KERNELS)])
        reference = tileir.parse(source)
    module = tileir.parse(source)
    run_pipeline(module, pipeline)
    back = _through_tileirdisasm(module, tools, tmp_path)
    assert _outputs(back, KERNELS) == _outputs(reference, KERNELS)
    res = compile_for(tools, tmp_path / "m.tileirbc", "sm_100", tmp_path / "m.cubin")
    assert res.returncode == 0, f"tileiras rejected the pass output:\n{res.stderr[-3000:]}"


def test_debug_info_scopes_read_by_tileirdisasm(tmp_path):
    tools = require_tools()
    lines = kernelgen.module_text([kernelgen.random_kernel(60_000 + i, f"k{i}")
                                   for i in range(4)]).splitlines()
    # give every op a file location (its line), as a front end would
    located = []
    for n, line in enumerate(lines, 1):
        stripped = line.rstrip()
        if stripped.endswith("{") or not stripped or stripped.endswith("}") and \
                stripped.strip() == "}":
            located.append(line)
        else:
            located.append(f'{stripped} loc("kernels/gen.py":{n}:5)')
    module = tileir.parse("\n".join(located) + "\n")
    run_pipeline(module, "builtin.module(cuda_tile.module(synthesize-debug-info-scopes))")
    entries = [op for op in module.walk() if op.name == "cuda_tile.entry"]
    assert all(type(op.loc).__name__ == "DILoc" for e in entries for op in e.walk())
    back = _through_tileirdisasm(module, tools, tmp_path, "-g")
    assert len([op for op in back.walk() if op.name == "cuda_tile.entry"]) == 4
