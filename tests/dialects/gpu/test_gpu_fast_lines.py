"""The parser's fast line forms (gpu id queries, barrier, subgroup_reduce, return/yield; arith's
``overflow<...>``/``fastmath<...>`` flags) give exactly what the ops' own parsers give: the same
IR (custom, generic and located generic prints) or the same diagnostics, on our gpu inputs,
MLIR's gpu-dialect corpus and lines chosen to sit at the edges of the forms."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tileir.ir.diagnostics import DiagnosticError
from tileir.text import print_op, registry
from tileir.text.expected import split_input
from tileir.text.lineforms import LINE_FORMS
from tileir.text.parser import parse_module

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "conformance"))
from corpus import conformance_root  # noqa: E402

_KERNEL = """gpu.module @m {{
  gpu.func @k(%a: memref<?xf32>, %x: f32, %i: i32, %n: index, %v: vector<4xf32>) kernel {{
{body}
    gpu.return
  }}
}}
"""

#: bodies at the edges of the line forms (each is one kernel)
EDGE_BODIES = [
    "%t = gpu.thread_id x\n%b = gpu.block_id  y\n%d = gpu.block_dim z\n%g = gpu.grid_dim x",
    "%t = gpu.thread_id x upper_bound 64\n%c = gpu.cluster_id y\n%e = gpu.global_id z",
    '%t = gpu.thread_id x {foo = 1 : i32}\n%u = gpu.thread_id "y"',
    "%t = gpu.thread_id w",
    "%t = gpu.thread_idx x",
    "%t:2 = gpu.thread_id x",
    "%t = gpu.thread_id x loc(unknown)\n%s = gpu.block_id y // comment",
    "gpu.barrier\ngpu.barrier {attr}\ngpu.barrier loc(\"f\":1:2)",
    "%r = gpu.subgroup_reduce add %x : (f32) -> f32\n"
    "%s = gpu.subgroup_reduce maxnumf %x uniform : (f32) -> f32\n"
    "%w = gpu.subgroup_reduce mul %v cluster(size = 4) : (vector<4xf32>) -> vector<4xf32>",
    "%r = gpu.subgroup_reduce and %x : (f32) -> f32",
    "%r = gpu.subgroup_reduce add %x : (f32) -> i32",
    "%r = gpu.subgroup_reduce add %i : (f32) -> f32",
    "%r = gpu.subgroup_reduce bogus %x : (f32) -> f32",
    "%r = gpu.subgroup_reduce add %x : (f32) -> (f32)",
    "%r = gpu.subgroup_reduce add %nope : (f32) -> f32",
    "%r = gpu.subgroup_reduce add %x {x} : (f32) -> f32",
    "%p = arith.muli %i, %i overflow<nsw, nuw> : i32\n%q = arith.addi %i, %i overflow<none> : i32\n"
    "%f = arith.mulf %x, %x fastmath<fast> : f32\n%h = arith.addf %x, %x fastmath<nnan,ninf> : f32",
    "%f = arith.mulf %x, %x fastmath<bogus> : f32",
    "%f = arith.mulf %x, %x fastmath<> : f32",
    "%p = arith.muli %i, %i overflow<nsw> {a = 1} : i32",
    "%p = arith.muli %i, %i overflow <nsw> : i32",
]


def _kernel(body: str) -> str:
    return _KERNEL.format(body="\n".join("    " + line for line in body.splitlines()))


def _extra_texts() -> list[str]:
    return [
        # gpu.yield inside gpu.all_reduce; a gpu.return with values
        "gpu.module @m {\n  gpu.func @f(%x: f32) -> f32 {\n"
        "    %r = gpu.all_reduce %x {\n    ^bb(%a: f32, %b: f32):\n"
        "      %s = arith.addf %a, %b : f32\n      gpu.yield %s : f32\n    } : (f32) -> f32\n"
        "    gpu.return %r : f32\n  }\n}\n",
        "gpu.module @m {\n  gpu.func @f(%x: f32) -> f32 {\n    gpu.return %x, %x : f32, f32\n"
        "  }\n}\n",
        "gpu.module @m {\n  gpu.func @f(%x: f32) -> f32 {\n    gpu.return %x : i32\n  }\n}\n",
    ]


def _corpus_texts() -> list[str]:
    root = conformance_root()
    texts: list[str] = []
    for name in ("ops.mlir", "invalid.mlir"):
        path = root / "gpu-dialect" / name if root else None
        if path is not None and path.is_file():
            texts += [chunk.text for chunk in split_input(path.read_text(encoding="utf-8"), True)]
    return texts


def _our_inputs() -> list[str]:
    return [p.read_text() for p in sorted((Path(__file__).parent / "inputs").glob("*.mlir"))]


def _outcome(text: str, fast: bool):
    try:
        module = parse_module(text, allow_unregistered=True, fast=fast)
    except DiagnosticError as exc:
        return ("error", [(d.message, str(d.loc)) for d in exc.diagnostics])
    return ("ok", [print_op(module, **kw) for kw in
                   ({}, {"generic": True}, {"generic": True, "debuginfo": True})])


@pytest.fixture
def fast_ops():
    """Counts the ops the fast path parsed through a line form."""
    accepted: list[str] = []
    inner = registry.FAST_OP_PARSERS[0]

    def counting(parser, pos, block):
        done = inner(parser, pos, block)
        if done is not None and done[0].name in LINE_FORMS:
            accepted.append(done[0].name)
        return done
    registry.FAST_OP_PARSERS[0] = counting
    try:
        yield accepted
    finally:
        registry.FAST_OP_PARSERS[0] = inner


@pytest.mark.parametrize("body", EDGE_BODIES)
def test_edge_lines_parse_as_the_ops_own_parsers_do(body):
    text = _kernel(body)
    assert _outcome(text, True) == _outcome(text, False)


def test_every_text_parses_alike_and_the_forms_are_used(fast_ops):
    texts = _our_inputs() + _extra_texts() + _corpus_texts() + [_kernel(b) for b in EDGE_BODIES]
    for text in texts:
        assert _outcome(text, True) == _outcome(text, False), text
    used = set(fast_ops)
    for name in ("gpu.thread_id", "gpu.block_id", "gpu.barrier", "gpu.subgroup_reduce",
                 "gpu.return", "gpu.yield"):
        assert name in used, name


def test_line_form_errors_keep_the_ops_diagnostics():
    kind, diags = _outcome(_kernel("%r = gpu.subgroup_reduce bogus %x : (f32) -> f32"), True)
    assert kind == "error" and diags[0][0] == "invalid op kind"
