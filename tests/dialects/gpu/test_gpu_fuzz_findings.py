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


def test_own_attribute_of_another_class_in_a_generic_dictionary_round_trips():
    """An op's own attribute given in the generic attribute dictionary with a value that is no
    property value (invalid IR) is printed, and read back, in that dictionary."""
    text = ('cuda_tile.module @m {\n  cuda_tile.entry @f() {\n'
            '    %t = cuda_tile.constant <i32: [1, 2]> : !cuda_tile.tile<2xi32>\n'
            '    "cuda_tile.cmpi"(%t, %t) {comparison_predicate = #cudy_time.comparison_predicate<>,'
            ' signedness = #cuda_tile.signedness<signed>} : (!cuda_tile.tile<2xi32>, '
            '!cuda_tile.tile<2xi32>) -> !cuda_tile.tile<i1>\n  }\n}\n')
    module = tileir.parse(text, allow_unregistered=True)
    assert "{comparison_predicate = #cudy_time" in tileir.print(module, generic=True)
    assert check_module(module)["generic text"] == "ok"
