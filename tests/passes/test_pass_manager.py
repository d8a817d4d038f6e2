"""The pass manager, pipeline syntax, CSE, LICM, constant folding and the CLI around them."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import tileir
import tileir.passes as passes
from tileir.ir.diagnostics import DiagnosticError
from tileir.passes import PipelineError, parse_pipeline
from tileir.passes.manager import Pass, register_pass
from tileir.passes.pipeline import Nest, PassSpec, parse_options

TWO_FUNCS = """
cuda_tile.module @m {
  entry @e(%a: tile<i32>, %o: tile<ptr<i32>>) {
    %x = addi %a, %a : tile<i32>
    %y = addi %a, %a : tile<i32>
    %z = muli %x, %y : tile<i32>
    %t = store_ptr_tko weak %o, %z : tile<ptr<i32>>, tile<i32> -> token
    return
  }
  testing$func @f(%a: tile<i32>) -> tile<i32> {
    %x = addi %a, %a : tile<i32>
    %y = addi %a, %a : tile<i32>
    %z = muli %x, %y : tile<i32>
    return %z : tile<i32>
  }
}
"""

#: TWO_FUNCS without the testing$func (which bytecode cannot hold)
ENTRY_ONLY = TWO_FUNCS[:TWO_FUNCS.index("  testing$func")] + "}\n"


def _count(module, name: str, inside: str = "") -> int:
    total = 0
    for op in module.walk():
        if op.name == name and (not inside or any(a.name == inside for a in op.ancestors())):
            total += 1
    return total


# -- pipeline syntax ---------------------------------------------------------------------------

def test_pipeline_parses_nesting_and_options():
    elements = parse_pipeline("builtin.module(cuda_tile.module(cuda_tile.entry("
                              "loop-split{split-threshold=3}), cse), canonicalize)")
    assert elements == [Nest("builtin.module", [
        Nest("cuda_tile.module", [Nest("cuda_tile.entry",
                                       [PassSpec("loop-split", {"split-threshold": "3"})]),
                                  PassSpec("cse")]),
        PassSpec("canonicalize")])]


def test_options_text():
    assert parse_options('symbol-to-rename=a::b new-name="x y" update-uses') == \
        {"symbol-to-rename": "a::b", "new-name": "x y", "update-uses": "true"}
    assert parse_options("inner={a=1 b=2}") == {"inner": "a=1 b=2"}


@pytest.mark.parametrize("text", ["cse(", "cse)", "builtin.module(cse", "cse{a=1",
                                  "cse,,canonicalize", ""])
def test_malformed_pipelines_are_errors(text):
    with pytest.raises(PipelineError):
        parse_pipeline(text)


@pytest.mark.parametrize("text,message", [
    ("no-such-pass", "does not refer to a registered pass"),
    ("loop-split{bogus=1}", "no such option 'bogus'"),
    ("loop-split{split-threshold=many}", "invalid value 'many'"),
])
def test_unknown_passes_and_bad_options(text, message):
    with pytest.raises(PipelineError, match=message):
        passes.run(tileir.parse(TWO_FUNCS), text)


# -- running ---------------------------------------------------------------------------------

def test_nested_pipeline_runs_only_on_its_anchor():
    module = tileir.parse(TWO_FUNCS)
    passes.run(module, "builtin.module(cuda_tile.module(cuda_tile.entry(cse)))")
    assert _count(module, "cuda_tile.addi", "cuda_tile.entry") == 1
    assert _count(module, "cuda_tile.addi", "cuda_tile.testing$func") == 2
    passes.run(module, "cse")
    assert _count(module, "cuda_tile.addi") == 2


def test_any_anchor_and_pipeline_without_root_anchor():
    module = tileir.parse(TWO_FUNCS)
    passes.run(module, "any(any(cse))")
    assert _count(module, "cuda_tile.addi") == 2


def test_verification_after_each_pass():
    @register_pass
    class BreakIR(Pass):
        ARGUMENT = "test-break-ir"

        def run(self, op):
            for inner in op.walk():
                if inner.name == "cuda_tile.return" and inner.operands:
                    inner.erase()
                    return

    module = tileir.parse(TWO_FUNCS)
    try:
        with pytest.raises(DiagnosticError, match="pass 'test-break-ir' produced IR that does "
                                                  "not verify"):
            passes.run(module, "test-break-ir")
    finally:
        passes.PASSES.pop("test-break-ir")


def test_after_pass_hook_sees_every_pass():
    seen = []
    passes.run(tileir.parse(TWO_FUNCS), "canonicalize,cse",
               after_pass=lambda p, op: seen.append((p.ARGUMENT, op.name)))
    assert seen == [("canonicalize", "builtin.module"), ("cse", "builtin.module")]


def test_available_passes_lists_the_cuda_tile_passes():
    names = passes.available_passes()
    for name in ("canonicalize", "cse", "fuse-fma", "loop-split", "constant-fold",
                 "synthesize-debug-info-scopes", "test-debuginfo-update-symbol-name",
                 "loop-invariant-code-motion"):
        assert name in names


# -- CSE and LICM ----------------------------------------------------------------------------

def test_cse_keeps_effects_and_respects_scopes():
    module = tileir.parse("""
    cuda_tile.module @m {
      entry @e(%p: tile<ptr<i32>>, %c: tile<i1>) {
        %a, %t1 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
        %b, %t2 = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
        %s = addi %a, %b : tile<i32>
        if %c {
          %u = addi %a, %b : tile<i32>
          %v = muli %u, %s : tile<i32>
          %w = store_ptr_tko weak %p, %v : tile<ptr<i32>>, tile<i32> -> token
        }
        %x = addi %a, %a : tile<i32>
        %t3 = store_ptr_tko weak %p, %x : tile<ptr<i32>>, tile<i32> -> token
        return
      }
    }""")
    passes.run(module, "cse")
    assert _count(module, "cuda_tile.load_ptr_tko") == 2     # reads are not merged
    assert _count(module, "cuda_tile.addi", "cuda_tile.if") == 0  # the outer one dominates
    assert _count(module, "cuda_tile.addi") == 2


def test_licm_hoists_only_invariant_pure_ops():
    module = tileir.parse("""
    cuda_tile.module @m {
      entry @e(%a: tile<i32>, %p: tile<ptr<i32>>) {
        %lb = constant <i32: 0> : tile<i32>
        %ub = constant <i32: 4> : tile<i32>
        %st = constant <i32: 1> : tile<i32>
        %r = for %i in (%lb to %ub, step %st) : tile<i32> iter_values(%acc = %lb) -> (tile<i32>) {
          %inv = muli %a, %a : tile<i32>
          %inv2 = addi %inv, %a : tile<i32>
          %dep = addi %i, %inv2 : tile<i32>
          %ld, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
          %n = addi %acc, %dep : tile<i32>
          %n2 = addi %n, %ld : tile<i32>
          continue %n2 : tile<i32>
        }
        %t2 = store_ptr_tko weak %p, %r : tile<ptr<i32>>, tile<i32> -> token
        return
      }
    }""")
    passes.run(module, "loop-invariant-code-motion")
    assert _count(module, "cuda_tile.muli", "cuda_tile.for") == 0
    assert _count(module, "cuda_tile.addi", "cuda_tile.for") == 3   # %inv2 left the loop
    assert _count(module, "cuda_tile.load_ptr_tko", "cuda_tile.for") == 1


# -- constant folding against NumPy ----------------------------------------------------------

def _fold(body: str, result: str):
    module = tileir.parse(f"""
    cuda_tile.module @m {{
      testing$func @f() -> {result} {{
        {body}
      }}
    }}""")
    passes.run(module, "constant-fold")
    ops = [op for op in module.walk() if op.SPEC is not None and
           op.name not in ("cuda_tile.module", "cuda_tile.testing$func", "cuda_tile.return")]
    assert [op.name for op in ops] == ["cuda_tile.constant"], [op.name for op in ops]
    return ops[0].attributes["value"].array


def test_fold_integer_wraps_like_int32():
    got = _fold("""%a = constant <i32: 2147483647> : tile<i32>
        %b = constant <i32: 3> : tile<i32>
        %c = addi %a, %b : tile<i32>
        %d = muli %c, %b : tile<i32>
        return %d : tile<i32>""", "tile<i32>")
    with np.errstate(over="ignore"):
        want = (np.int32(2147483647) + np.int32(3)) * np.int32(3)
    assert int(got) == int(want)


def test_fold_float_ops_round_like_numpy():
    got = _fold("""%a = constant <f32: [2.0, 3.0, 0.1, 1.0e30]> : tile<4xf32>
        %s = sqrt %a rounding<nearest_even> : tile<4xf32>
        %m = mulf %s, %a : tile<4xf32>
        %h = ftof %m : tile<4xf32> -> tile<4xf16>
        return %h : tile<4xf16>""", "tile<4xf16>")
    a = np.array([2.0, 3.0, 0.1, 1.0e30], np.float32)
    with np.errstate(over="ignore"):
        want = (np.sqrt(a) * a).astype(np.float16)
    assert got.view(np.uint16).tolist() == want.view(np.uint16).tolist()


def test_fold_leaves_ops_of_non_constants():
    module = tileir.parse(TWO_FUNCS)
    passes.run(module, "constant-fold")
    assert _count(module, "cuda_tile.addi") == 4


# -- command line ----------------------------------------------------------------------------

def _cli(*args: str, stdin: str = ""):
    return subprocess.run([sys.executable, "-m", "tileir", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_opt_pass_flags_run_in_order_and_dump(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(TWO_FUNCS)
    res = _cli("opt", str(src), "--cse", "--canonicalize", "--mlir-print-ir-after-all")
    assert res.returncode == 0, res.stderr
    headers = [l for l in res.stderr.splitlines() if l.startswith("// -----// IR Dump")]
    assert headers == ["// -----// IR Dump After CSE (cse) //----- //",
                       "// -----// IR Dump After Canonicalizer (canonicalize) //----- //"]
    assert res.stdout.count("addi") == 2


@pytest.mark.parametrize("flags", [["--pass-pipeline=builtin.module(nope)"],
                                   ["--pass-pipeline=cse("]])
def test_opt_bad_pipeline_is_a_one_line_error(tmp_path, flags):
    src = tmp_path / "m.mlir"
    src.write_text(TWO_FUNCS)
    res = _cli("opt", str(src), *flags)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr and "error" in res.stderr


def test_disasm_text_loads_opts_and_runs(tmp_path):
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "data" / "tileirdisasm" / \
        "int_ops.v13.4.mlir"
    module = tileir.load(path)
    tileir.verify(module)
    res = _cli("opt", str(path), "--canonicalize")
    assert res.returncode == 0, res.stderr
    assert "cuda_tile.module @kernels" in res.stdout
    body = ("entry @k(%a: tile<f32>, %o: tile<ptr<f32>>) {\n"
            "  %0 = fpowf %a, %a : tile<f32>\n"
            "  %1 = store_ptr_tko weak %o, %0 : tile<ptr<f32>>, tile<f32> -> token\n"
            "  return\n}\n")
    (tmp_path / "k.mlir").write_text("// a CUDA_TILE_DUMP_TILEIR-style module body\n" + body)
    res = _cli("run", str(tmp_path / "k.mlir"), "--arg", "2.0", "--arg", "zeros:f32:1")
    assert res.returncode == 0, res.stderr


def test_optimize_text_and_bytecode(tmp_path):
    src = tmp_path / "m.mlir"
    src.write_text(ENTRY_ONLY)
    res = _cli("optimize", str(src))
    assert res.returncode == 0, res.stderr
    assert res.stdout.count("addi") == 1
    res = _cli("optimize", str(src), "-O0")
    assert res.stdout.count("addi") == 2
    out = tmp_path / "o.tileirbc"
    res = _cli("optimize", str(src), "--emit-bytecode", "-o", str(out))
    assert res.returncode == 0, res.stderr
    assert out.read_bytes().startswith(b"\x7fTileIR\x00")
    again = _cli("optimize", str(out), "-O1", "--after", "constant-fold")
    assert again.returncode == 0 and again.stdout.count("addi") == 1
    bad = _cli("optimize", str(src), "--before", "nope")
    assert bad.returncode == 1 and "Failed to parse pipeline" in bad.stderr
    missing = _cli("optimize", str(tmp_path / "absent.mlir"))
    assert missing.returncode == 1 and "Traceback" not in missing.stderr


def test_tileir_optimize_takes_cuda_tile_optimize_spellings(tmp_path, capsys):
    from tileir.cli import optimize_main
    src = tmp_path / "m.mlir"
    src.write_text(ENTRY_ONLY)
    out = tmp_path / "m.tileirbc"
    assert optimize_main(["--opt-level=1", "-emit-bytecode", f"--output-file={out}",
                          "-run-after-default-pipeline=constant-fold", str(src)]) == 0
    module = tileir.load(out)
    assert _count(module, "cuda_tile.addi") == 1
    assert optimize_main(["-O3", "-quiet", str(src)]) == 0
    assert capsys.readouterr().out == ""


def test_greedy_driver_terminates_when_patterns_undo_each_other():
    from tileir.passes.greedy import PatternSet, apply_patterns_greedily
    from tileir.passes.rewriter import op_pattern

    @op_pattern("cuda_tile.muli")
    def swap(op, rw):
        a, b = op.operands
        rw.set_operand(op, 0, b)
        rw.set_operand(op, 1, a)
        return True

    module = tileir.parse(TWO_FUNCS)
    assert apply_patterns_greedily(module, PatternSet().add(swap), max_iterations=3)
    tileir.verify(module)
