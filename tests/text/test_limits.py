"""Pathological input: deep nesting and huge literals give diagnostics, never tracebacks; every
stage handles nesting up to the documented limit."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.bytecode import BytecodeError
from tileir.ir.diagnostics import DiagnosticError
from tileir.ir.limits import MAX_REGION_DEPTH


def nested_ifs(levels: int) -> str:
    """A kernel whose entry holds ``levels`` nested ifs; the innermost stores 7 to %p."""
    head = ("cuda_tile.module @m {\n entry @k(%p: tile<ptr<i32>>) {\n"
            "  %c = constant <i1: true> : tile<i1>\n  %v = constant <i32: 7> : tile<i32>\n")
    store = "  %t = store_ptr_tko weak %p, %v : tile<ptr<i32>>, tile<i32> -> token\n"
    return head + "if %c {\n" * levels + store + "}\n" * levels + " return\n }\n}\n"


def test_nesting_up_to_the_limit_works_in_every_stage():
    levels = MAX_REGION_DEPTH - 2          # the module body and the entry body count too
    module = tileir.parse(nested_ifs(levels))
    tileir.verify(module)
    text = tileir.print(module)
    assert tileir.print(tileir.parse(text)) == text
    assert tileir.print(tileir.parse(tileir.print(module, generic=True))) == text
    inner = module.regions[0].blocks[0].ops[0]         # the cuda_tile.module
    expected = tileir.print(inner).replace("cuda_tile.module @m {", "cuda_tile.module @kernels {")
    for version in ("13.1", "13.4"):
        read = tileir.read_bytecode(tileir.write_bytecode(module, version))
        assert tileir.print(read) == expected
    out = np.zeros(1, np.int32)
    tileir.launch(module, "k", grid=(1,), args=[out])
    assert out[0] == 7


def test_nesting_beyond_the_limit_is_a_diagnostic():
    with pytest.raises(DiagnosticError, match=r"regions nest too deeply \(at most 256 levels\)"):
        tileir.parse(nested_ifs(MAX_REGION_DEPTH - 1))


def test_bytecode_nesting_beyond_the_reader_limit_is_a_bytecode_error():
    from contextlib import ExitStack

    from tileir.dialects.cuda_tile.builder import Builder
    b = Builder()
    with b.entry("k", ["tile<i1>"]) as (c,), ExitStack() as stack:
        for _ in range(MAX_REGION_DEPTH + 3):      # deeper than any text the parser accepts
            stack.enter_context(b.if_(c).then_())
    data = tileir.write_bytecode(b.module)
    with pytest.raises(BytecodeError, match="regions nest too deeply"):
        tileir.read_bytecode(data)


@pytest.mark.parametrize("text, message", [
    ("cuda_tile.module @m { entry @k(%a: " + "tile<ptr<" * 5000 + "f32" + ">>" * 5000
     + ") { return } }", "input nests too deeply"),
    ('cuda_tile.module @m attributes {a = ' + '[' * 50000 + ']' * 50000 + '} { }',
     "input nests too deeply"),
    ("cuda_tile.module @m { entry @k() { %c = constant <i32: " + "9" * 100000
     + "> : tile<i32> return } }", "integer literal has too many digits"),
    ("cuda_tile.module @m attributes {a = " + "9" * 100000 + "} { }",
     "integer literal has too many digits"),
    ("cuda_tile.module @m { entry @k(%a: tile<" + "9" * 10000 + "xf32>) { return } }",
     "integer literal has too many digits"),
])
def test_pathological_text_is_a_diagnostic(text, message):
    with pytest.raises(DiagnosticError, match=message):
        tileir.parse(text)


def test_pathological_type_and_attribute_strings():
    with pytest.raises(DiagnosticError, match="input nests too deeply"):
        tileir.parse_type("tile<ptr<" * 5000 + "f32" + ">>" * 5000)
    with pytest.raises(DiagnosticError, match="integer literal has too many digits"):
        tileir.parse_attribute("9" * 100000)
