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


SPLIT_CASES = {
    "plain": "func.func @a() {\n  return\n}\n// -----\nfunc.func @b() {\n  %0 = arith.addi : i32\n}"
             "\n// -----\nfunc.func @c() {\n  return\n}\n// -----\nfunc.func @d(%x: i32) -> i64 {\n"
             "  return %x : i32\n}\n",
    "indented_marker": "func.func @a() {\n  return\n}\n  // -----  \nfunc.func @c() {\n"
                       "  return\n}\n//-----\n\n\nfunc.func @d() {\n  return\n}\n",
    "marker_mid_line": "func.func @a() {\n  return\n}\n  %0 = arith.constant 1 : i32 // -----\n"
                       "func.func @c() {\n  return\n}\n",
    "marker_with_text": "func.func @a() {\n  return\n}\n// ----- extra\nfunc.func @c() {\n"
                        "  return\n}\n",
}


@pytest.mark.parametrize("name", sorted(SPLIT_CASES))
def test_split_input_file_matches_mlir_opt(name, tmp_path, capsys):
    """Chunks split where mlir-opt splits (the literal marker, anywhere), keep their positions
    in the file (the implicit module of a later chunk is located right after its marker), and
    the output separates every chunk, failed ones included, each ending with an empty line."""
    from mlir_tools import require_mlir_opt
    import subprocess
    from tileir.cli.opt import run_opt
    path = tmp_path / "in.mlir"
    path.write_text(SPLIT_CASES[name])
    flags = ["-split-input-file", "-mlir-print-debuginfo"]
    run_opt([str(path), *flags])
    ours = capsys.readouterr()
    mlir = subprocess.run([require_mlir_opt(), str(path), *flags], capture_output=True, text=True)
    assert ours.out == mlir.stdout
    errors = [line for line in mlir.stderr.splitlines() if ": error: " in line]
    assert [line for line in ours.err.splitlines() if ": error: " in line] == errors


def test_split_chunks_know_where_they_start():
    from tileir.text.expected import split_input
    chunks = split_input("a\n  // -----  b\nc // -----\n// ----\n")
    assert [(c.text, c.line_offset, c.col_offset) for c in chunks] == [
        ("a\n  ", 0, 0), ("  b\nc ", 1, 10), ("\n// ----\n", 2, 10)]


UNKNOWN_OPS = [
    "module {\n  foo\n}\n", "foo\n", "func.func @f() {\n  foo\n}\n", "gpu.module @g {\n  foo\n}\n",
    "func.func @f(%c: i1) {\n  scf.if %c {\n    yield\n  }\n  return\n}\n", "foo.bar\n",
    'func.func @f() {\n  %0 = "test.x"() ({\n  foo\n  }) : () -> i32\n  return\n}\n',
]


@pytest.mark.parametrize("text", UNKNOWN_OPS)
def test_unknown_op_names_as_mlir_opt_reports_them(text):
    """An unprefixed name is tried in the default dialect of the enclosing region (builtin at
    the top and in modules, what an op declares for its regions such as func, else none)."""
    run = run_mlir_opt(text, ["-allow-unregistered-dialect"])
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    ours = [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics]
    theirs = [line.split("<stdin>:", 1)[1].replace(" error: ", " ", 1)
              for line in run.stderr.splitlines() if ": error: " in line]
    assert ours == theirs


INVALID = {
    "one_line_op": "func.func @d(%x: i32) -> i64 {\n  return %x : i32\n}\n",
    "op_with_regions": "gpu.module @g {\n  gpu.func @k(%a: f32 {foo}) kernel {\n    gpu.return\n"
                       "  }\n}\n",
    "generic_own_attribute": 'func.func @f(%a: i32) {\n  %0 = "arith.addi"(%a, %a) '
                             '{overflowFlags = 1 : i32} : (i32, i32) -> i32\n  return\n}\n',
    "results_named": "func.func @f(%m: memref<8x4xf32>) {\n  %e = \"memref.expand_shape\"(%m) "
                     "<{reassociation = [[0, 1]], static_output_shape = array<i64: 8, 4>}> : "
                     "(memref<8x4xf32>) -> memref<32xf32>\n  return\n}\n",
}


@pytest.mark.parametrize("debuginfo", [False, True], ids=["plain", "debuginfo"])
@pytest.mark.parametrize("name", sorted(INVALID))
def test_verifier_errors_show_the_current_operation_as_mlir_opt(name, debuginfo, tmp_path,
                                                                 capsys):
    """mlir-opt's op diagnostics carry the note ``see current operation: <generic op>``
    (without a source line; an op over several lines starts on a line of its own; not under
    -verify-diagnostics)."""
    from mlir_tools import require_mlir_opt
    import subprocess
    from tileir.cli.opt import run_opt
    path = tmp_path / "bad.mlir"
    path.write_text(INVALID[name])
    flags = ["-mlir-print-debuginfo"] if debuginfo else []
    assert run_opt([str(path), *flags]) == 1
    ours = capsys.readouterr().err
    mlir = subprocess.run([require_mlir_opt(), str(path), *flags], capture_output=True, text=True)
    assert ours == mlir.stderr
