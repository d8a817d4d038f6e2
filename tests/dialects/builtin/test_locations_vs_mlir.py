"""Where the parser puts locations, and how ``-mlir-print-debuginfo`` prints them, as mlir-opt 22
does: an op is located at its name (not at its result names), every argument written in the
text at its own name (function arguments, block arguments, region arguments of custom
syntaxes), a trailing ``loc(#alias)`` of an argument may name an alias defined further down, and
argument locations print inline while their aliases are defined before the module."""

from __future__ import annotations

from pathlib import Path

import pytest

from mlir_tools import run_mlir_opt
from tileir.cli.opt import process_buffer
from tileir.ir.locations import FileLineColLoc
from tileir.text import print_op

CASES = {
    "ops_and_blocks": """func.func @d(%m: i32, %n: index) {
  cf.br ^bb1(%m : i32)
^bb1(%a: i32):
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %n {
    %x = arith.addi %a, %a : i32
  }
  %r = scf.for %j = %c0 to %n step %n iter_args(%acc = %m) -> (i32) {
    scf.yield %acc : i32
  }
  %s:2 = "test.two"() : () -> (i32, i32)
  return
}
gpu.module @g {
  gpu.func @k(%p: f32) workgroup(%w: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    gpu.return
  }
}
""",
    "aliases_defined_later": """func.func @d(%m: i32 loc(#l1)) {
  cf.br ^bb1(%m : i32)
^bb1(%a: i32 loc(#l2)):
  return
}
#l1 = loc("a.py":1:2)
#l2 = loc("b.py":3:4)
""",
    "argument_attributes_and_unknown": """func.func @d(%m: i32 loc(unknown), %n: i32 {foo.bar} loc("x":1:1)) {
  return
}
func.func private @e(i32 loc("y":2:2))
""",
    "shared_unknown": """func.func @d(%m: i32) {
  %0 = arith.addi %m, %m : i32 loc(unknown)
  cf.br ^bb1(%m : i32)
^bb1(%a: i32 loc(unknown)):
  return
}
""",
}


def _tileir(text: str, generic: bool) -> str:
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    assert not result.failed, [d.message for d in result.diagnostics]
    return print_op(result.module, generic=generic, debuginfo=True)


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_debuginfo_print_matches_mlir_opt(name, generic):
    text = CASES[name]
    flags = ["-allow-unregistered-dialect", "-mlir-print-debuginfo"]
    run = run_mlir_opt(text, flags + (["-mlir-print-op-generic"] if generic else []))
    assert run.returncode == 0, run.stderr
    assert _tileir(text, generic).rstrip("\n") == run.stdout.rstrip("\n")


def test_locations_without_mlir_opt():
    """The same facts checked directly (these run without mlir-opt)."""
    result = process_buffer(CASES["ops_and_blocks"], "f.mlir", allow_unregistered=True)
    func = result.module.regions[0].blocks[0].ops[0]
    entry, second = func.regions[0].blocks
    assert [(a.loc.line, a.loc.col) for a in entry.args] == [(1, 14), (1, 23)]
    assert (second.args[0].loc.line, second.args[0].loc.col) == (3, 6)
    br = entry.ops[0]
    addi_loop = second.ops[1]
    assert (br.loc.line, br.loc.col) == (2, 3)
    assert isinstance(addi_loop.loc, FileLineColLoc) and (addi_loop.loc.line,
                                                           addi_loop.loc.col) == (5, 3)
    constant = second.ops[0]
    assert (constant.loc.line, constant.loc.col) == (4, 9)  # at 'arith.constant', not '%c0'
    iv = addi_loop.regions[0].blocks[0].args[0]
    assert (iv.loc.line, iv.loc.col) == (5, 11)
    later = process_buffer(CASES["aliases_defined_later"], "f.mlir").module
    func = later.regions[0].blocks[0].ops[0]
    first, second = func.regions[0].blocks
    assert (first.args[0].loc.file, first.args[0].loc.line) == ("a.py", 1)
    assert (second.args[0].loc.file, second.args[0].loc.line) == ("b.py", 3)
