"""Round-trip fuzzer findings of the issue-14 runs (with NVIDIA's corpus) on gpu programs and
on generic attributes, each a test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
from tileir.cli.opt import process_buffer
from tileir.text import print_op
from tileir.tools.roundtrip import check_module

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

INPUTS = Path(__file__).parent / "inputs"


@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_launch_symbols_and_argument_locations_print_as_mlir_opt(generic):
    """gpu.launch's ``module(@m)`` and ``function(@f)`` are each optional (one of them was
    dropped from the custom form); gpu.func arguments and attributions take ``loc(...)``."""
    text = (INPUTS / "launch_symbols.mlir").read_text()
    flags = ["-mlir-print-debuginfo"] + (["-mlir-print-op-generic"] if generic else [])
    run = run_mlir_opt(text, flags)
    assert run.returncode == 0, run.stderr
    result = process_buffer(text, "<stdin>")
    assert not result.failed, [d.message for d in result.diagnostics]
    ours = print_op(result.module, generic=generic, debuginfo=True)
    assert ours.rstrip("\n") == run.stdout.rstrip("\n")


def test_launch_with_ids_that_are_not_index_prints_generically():
    """MLIR 22 does not check the types of gpu.launch's id arguments; the custom form implies
    index, so such an op is printed (and read back) in the generic form."""
    text = ('"builtin.module"() ({\n  "func.func"() <{function_type = (index) -> (), '
            'sym_name = "h"}> ({\n  ^bb0(%a: index):\n    "gpu.launch"(%a, %a, %a, %a, %a, %a) '
            '<{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0>}> ({\n'
            '    ^bb0(' + ", ".join(f"%b{i}: index" for i in range(11)) + ", %b11: f32):\n"
            '      "gpu.terminator"() : () -> ()\n    }) {workgroup_attributions = 0 : i64} : '
            '(index, index, index, index, index, index) -> ()\n    "func.return"() : () -> ()\n'
            '  }) : () -> ()\n}) : () -> ()\n')
    module = tileir.parse(text)
    assert '"gpu.launch"' in tileir.print(module)
    assert check_module(module)["text"] == "ok"


def test_gpu_func_arguments_may_only_have_dialect_attributes():
    text = "gpu.module @g {\n  gpu.func @k(%a: f32 {foo}) kernel {\n    gpu.return\n  }\n}\n"
    result = process_buffer(text, "<stdin>")
    assert [d.message for d in result.diagnostics] == [
        "'gpu.func' op arguments may only have dialect attributes"]
    assert "arguments may only have dialect attributes" in run_mlir_opt(text).stderr


def test_own_attributes_in_a_generic_dictionary_as_mlir_22_reads_them():
    """Fuzzer finding (an own attribute of another class in the generic dictionary printed as
    a property that did not read back): as MLIR 22, the op's own attributes in the dictionary
    are checked where they are parsed, become properties, and are dropped when ``<{...}>`` is
    given."""
    bad = ('cuda_tile.module @m {\n  cuda_tile.entry @f() {\n'
           '    %t = cuda_tile.constant <i32: [1, 2]> : !cuda_tile.tile<2xi32>\n'
           '    "cuda_tile.cmpi"(%t, %t) {comparison_predicate = #cudy_time.comparison_predicate<>,'
           ' signedness = #cuda_tile.signedness<signed>} : (!cuda_tile.tile<2xi32>, '
           '!cuda_tile.tile<2xi32>) -> !cuda_tile.tile<i1>\n  }\n}\n')
    with pytest.raises(tileir.DiagnosticError, match="4:5: error: 'cuda_tile.cmpi' op attribute "
                       "'comparison_predicate' failed to satisfy constraint"):
        tileir.parse(bad, allow_unregistered=True)
    text = ('func.func @f(%a: i32) {{\n  %0 = "arith.cmpi"(%a, %a) {props}{{predicate = {p}}} : '
            '(i32, i32) -> i1\n  return\n}}\n')
    for props, value, shown in (("", "3 : i64", "<{predicate = 3 : i64}>"),
                                ("<{predicate = 5 : i64}> ", "3 : i32", "<{predicate = 5 : i64}>")):
        src = text.format(props=props, p=value)
        generic = tileir.print(tileir.parse(src), generic=True)
        assert shown in generic and "} : (i32, i32)" not in generic.replace(shown, "")
        run = run_mlir_opt(src, ["-mlir-print-op-generic"])
        assert shown in run.stdout
    with pytest.raises(tileir.DiagnosticError, match="2:8: error: 'arith.addi' op attribute "
                       "'overflowFlags' failed to satisfy constraint: Integer overflow arith flags"):
        tileir.parse('func.func @f(%a: i32) {\n  %0 = "arith.addi"(%a, %a) {overflowFlags = 1 : i32}'
                     ' : (i32, i32) -> i32\n  return\n}\n')
