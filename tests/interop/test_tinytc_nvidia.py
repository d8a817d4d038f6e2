"""Interop 3: tinytc programs lowered by tileir are ready for NVIDIA GPUs.

Every tinytc program of the tinytc tests (the plain program strings of
``tests/frontends/tinytc/test_*.py``, all gemm transposes in f32/f64 with static and dynamic
shapes, the benchmark and demo kernels) and every program of tinytc's corpus that tinytc
compiles is lowered to cuda_tile and written as bytecode; ``tileirdisasm`` must read it and
``tileiras`` must compile it for sm_90 and sm_100.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from nvidia_tools import compile_for, disasm, require_tools

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "frontends" / "tinytc"))
sys.path.insert(0, str(REPO / "benchmarks"))
from tinytc_corpus import DOCS_OK, PASSING, tinytc_dir  # noqa: E402

ARCHS = ["sm_90", "sm_100"]


def _test_programs() -> dict:
    """Plain (non-formatted) program strings of the tinytc test modules that are valid
    (the diagnostics and fuzz tests hold deliberately invalid ones)."""
    from tileir import tinytc
    out = {}
    for path in sorted((REPO / "tests" / "frontends" / "tinytc").glob("test_*.py")):
        tree = ast.parse(path.read_text())
        pieces = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)
                  for v in n.values}
        for node in ast.walk(tree):
            if id(node) in pieces:
                continue
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    node.value.lstrip().startswith("func @") and "{" in node.value:
                try:
                    tinytc.parse(node.value)
                except tinytc.TinytcError:
                    continue
                out[f"{path.stem}:{node.lineno}"] = node.value
    return out


def _generated_programs() -> dict:
    from tinytc_bench import KERNEL
    from tileir.frontends.tinytc.demo import BATCHED_GEMM
    out = {"bench_f64": KERNEL.format(T="f64", M=56, N=9, K=56),
           "bench_f32": KERNEL.format(T="f32", M=32, N=32, K=32),
           "demo": BATCHED_GEMM.format(M=16, N=8, K=16)}
    for ta in "nt":
        a = "memref<f64x?x?>"
        out[f"gemv_sum_{ta}"] = (
            f"func @k(%A: {a}, %b: memref<f64x?>, %c: memref<f64x?>, %s: f64) {{\n"
            f"  gemv.{ta} %s, %A, %b, 1.0, %c : f64, {a}, memref<f64x?>, f64, memref<f64x?>\n"
            f"  sum.{ta}.atomic %s, %A, %s, %c : f64, {a}, f64, memref<f64x?>\n}}\n")
    for el in ("f32", "f64"):
        for ta in "nt":
            for tb in "nt":
                for dyn in (False, True):
                    m, n, k = ("?", "?", "?") if dyn else (70, 9, 33)
                    ash = (k, m) if ta == "t" else (m, k)
                    bsh = (n, k) if tb == "t" else (k, n)
                    t_a = f"memref<{el}x{ash[0]}x{ash[1]}>"
                    t_b = f"memref<{el}x{bsh[0]}x{bsh[1]}>"
                    t_c = f"memref<{el}x{m}x{n}>"
                    out[f"gemm_{el}_{ta}{tb}_{'dyn' if dyn else 'static'}"] = (
                        f"func @k(%a: {el}, %A: {t_a}, %B: {t_b}, %b: {el}, %C: {t_c}) {{\n"
                        f"  gemm.{ta}.{tb} %a, %A, %B, %b, %C : {el}, {t_a}, {t_b}, {el}, {t_c}\n"
                        f"}}\n")
    return out


def _corpus_programs() -> dict:
    try:
        root = tinytc_dir()
    except pytest.skip.Exception:
        return {}
    out = {f"corpus:{n}": (root / "test" / "codegen" / f"{n}.ir").read_text() for n in PASSING}
    out.update({f"corpus:{p}": (root / p).read_text() for p in DOCS_OK})
    return out


PROGRAMS = {**_test_programs(), **_generated_programs(), **_corpus_programs()}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_lowered_tinytc_program_is_accepted_by_nvidia(name, tmp_path):
    from tileir import tinytc, write_bytecode
    tools = require_tools()
    module = tinytc.lower(tinytc.parse(PROGRAMS[name], filename=f"{name}.ir"))
    bc = tmp_path / "k.tilebc"
    bc.write_bytes(write_bytecode(module, "13.3"))
    r = disasm(tools, bc)
    assert r.returncode == 0, r.stderr
    assert "entry @" in r.stdout
    for arch in ARCHS:
        c = compile_for(tools, bc, arch, tmp_path / f"k_{arch}.cubin")
        assert c.returncode == 0, f"tileiras {arch}: {c.stderr[:2000]}"
