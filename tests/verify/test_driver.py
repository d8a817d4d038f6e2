"""The verification driver: MLIR's order of checks, isolation, options, API."""

from __future__ import annotations

import pytest

from tileir.ir.diagnostics import DiagnosticError
from tileir.text.parser import parse_module
from tileir.ir.verify import VerifyOptions, verify, verify_op_tree
from vhelp import diags, errors, kernel, ok, one_error


def test_valid_module_has_no_diagnostics():
    ok(kernel("""
        %0 = addf %a, %a rounding<zero> flush_to_zero : tile<4xf32>
        %1 = cmpf less_than ordered %0, %a : tile<4xf32> -> tile<4xi1>
        %2 = select %1, %0, %a : tile<4xi1>, tile<4xf32>
    """, "%a: tile<4xf32>"))


def test_first_error_of_a_function_stops_it_but_siblings_are_verified():
    text = """\
cuda_tile.module @m {
  testing$func @k1(%a: tile<4xf16>) {
    %0 = addf %a, %a flush_to_zero : tile<4xf16>
    %1 = mulf %a, %a flush_to_zero : tile<4xf16>
  }
  testing$func @k2(%a: tile<4xf16>) {
    %0 = subf %a, %a flush_to_zero : tile<4xf16>
  }
}
"""
    assert errors(text) == [
        (3, "'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, "
            "but got: 'f16'"),
        (7, "'cuda_tile.subf' op flush_to_zero modifier only supported for f32 data type, "
            "but got: 'f16'")]


def test_type_constraints_come_before_the_op_verifier():
    line, msg = one_error(kernel("%0 = addf %b, %b flush_to_zero : tile<4xi32>", "%b: tile<4xi32>"))
    assert line == 3
    assert msg == ("'cuda_tile.addf' op operand #0 must be tile of f16 or bf16 or f32 or f64 "
                   "values, but got '!cuda_tile.tile<4xi32>'")


def test_generic_form_counts_and_attributes():
    assert one_error(kernel('%0 = "cuda_tile.addi"(%a) : (tile<4xi32>) -> tile<4xi32>',
                            "%a: tile<4xi32>"))[1] == \
        "'cuda_tile.addi' op expected 2 operands, but found 1"
    assert one_error(kernel('"cuda_tile.addi"(%a, %a) : (tile<4xi32>, tile<4xi32>) -> ()',
                            "%a: tile<4xi32>"))[1] == "'cuda_tile.addi' op requires one result"
    assert one_error(kernel('%0 = "cuda_tile.cat"(%a, %a) : (tile<4xi32>, tile<4xi32>) -> '
                            'tile<8xi32>', "%a: tile<4xi32>"))[1] == \
        "'cuda_tile.cat' op requires attribute 'dim'"
    assert one_error(kernel('%0 = "cuda_tile.cat"(%a, %a) {dim = 0 : i32} : (tile<4xi32>, '
                            'tile<4xi32>) -> tile<8xi32>', "%a: tile<4xi32>"))[1] == \
        ("'cuda_tile.cat' op attribute 'dim' failed to satisfy constraint: 64-bit signless "
         "integer attribute")


def test_attribute_value_constraint():
    text = kernel("""
        %0 = reduce %a dim=-1 identities=[0.000000e+0 : f32] : tile<8xf32> -> tile<f32>
        (%x: tile<f32>, %y: tile<f32>) {
          %s = addf %x, %y : tile<f32>
          yield %s : tile<f32>
        }
    """, "%a: tile<8xf32>")
    assert one_error(text) == (3, "'cuda_tile.reduce' op attribute 'dim' failed to satisfy "
                                  "constraint: 32-bit signless integer attribute whose value "
                                  "is non-negative")


def test_implicit_terminator_and_its_note():
    # an unregistered op may be a terminator, so only the region trait rejects it
    text = kernel("""
        "cuda_tile.if"(%c) ({
          "foo.term"() : () -> ()
        }, {
        }) : (tile<i1>) -> ()
    """, "%c: tile<i1>")
    assert diags(text) == [
        (3, "error", "'cuda_tile.if' op expects regions to end with 'cuda_tile.yield', found "
                     "'foo.term'"),
        (3, "note", "in custom textual format, the absence of terminator implies "
                    "'cuda_tile.yield'")]
    # a registered non-terminator at the end is reported when its block is left
    text = text.replace('"foo.term"() : () -> ()', "%0 = constant <i32: 1> : tile<i32>")
    line, msg = one_error(text)
    assert line == 4 and msg.startswith('block with no terminator, has %0 = "cuda_tile.constant"')


def test_block_without_terminator_in_an_argument_region():
    text = kernel("""
        %0 = reduce %a dim=0 identities=[0.000000e+0 : f32] : tile<8xf32> -> tile<f32>
        (%x: tile<f32>, %y: tile<f32>) {
          %s = addf %x, %y : tile<f32>
        }
    """, "%a: tile<8xf32>")
    line, msg = one_error(text)
    assert line == 5 and msg.startswith("block with no terminator, has %")


def test_terminator_must_be_last_and_parent_checked():
    text = kernel('"cuda_tile.yield"() : () -> ()\n%0 = constant <i32: 1> : tile<i32>')
    assert one_error(text) == (3, "'cuda_tile.yield' op must be the last operation in the "
                                  "parent block")
    text = kernel('"cuda_tile.yield"() : () -> ()')
    assert one_error(text) == (3, "'cuda_tile.yield' op expects parent op to be one of "
                                  "'cuda_tile.if, cuda_tile.reduce, cuda_tile.scan'")


def test_symbol_redefinition_has_a_note_at_the_first_definition():
    text = """\
cuda_tile.module @m {
  global @g <f32: [1.0]> : tile<1xf32>
  global @g <f32: [2.0]> : tile<1xf32>
}
"""
    assert diags(text) == [(3, "error", "redefinition of symbol named 'g'"),
                           (2, "note", "see existing symbol definition here")]


def test_symbol_uses_are_checked_only_when_the_functions_verify():
    text = """\
cuda_tile.module @m {
  entry @k() {
    %p = get_global @nope : tile<ptr<f32>>
  }
}
"""
    assert one_error(text) == (3, "'cuda_tile.get_global' op 'nope' does not reference a "
                                  "valid global")
    # an error inside a function skips the module's symbol checks (as in MLIR)
    text = text.replace("@k() {", "@k(%a: tile<2xf16>) {\n    %x = negf %a flush_to_zero : "
                        "tile<2xf16>")
    assert errors(text)[0][1].startswith("custom op 'cuda_tile.negf'") or len(errors(text)) == 1


def test_api_verify_raises_and_warnings_do_not():
    module = parse_module(kernel("%0 = addf %a, %a flush_to_zero : tile<4xf16>",
                                 "%a: tile<4xf16>"))
    with pytest.raises(DiagnosticError) as exc:
        verify(module)
    assert "flush_to_zero modifier" in str(exc.value)
    hinted = parse_module("cuda_tile.module @m {\n  entry @k() optimization_hints=<sm_999 = "
                          "{num_cta_in_cga = 2}> {\n  }\n}\n")
    verify(hinted, VerifyOptions(hints="warn"))  # a warning only
    assert [d.severity for d in verify_op_tree(hinted, VerifyOptions(hints="warn"))] == \
        ["warning"]
    with pytest.raises(ValueError):
        VerifyOptions(hints="loud")


def test_nonfatal_error_keeps_verifying_the_function():
    text = kernel('''
        %0 = "cuda_tile.tanh"(%a) {rounding_mode = #cuda_tile.rounding<zero>} : (tile<4xf32>) -> tile<4xf32>
        %1 = addf %b, %b flush_to_zero : tile<4xf16>
    ''', "%a: tile<4xf32>, %b: tile<4xf16>")
    assert errors(text) == [
        (3, "'cuda_tile.tanh' op invalid rounding mode specified, expect one of [approx, full]"),
        (4, "'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, but "
            "got: 'f16'")]


def test_builtin_module_structure():
    assert one_error(kernel('%0 = "builtin.module"() : () -> tile<i32>'))[1] == \
        "'builtin.module' op requires one region"


def test_function_signature_must_match_block_arguments():
    text = """\
"cuda_tile.module"() <{sym_name = "m"}> ({
  "cuda_tile.testing$func"() <{function_type = (!cuda_tile.tile<f32>) -> (), sym_name = "k"}> ({
  ^bb0(%a: !cuda_tile.tile<i32>):
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
"""
    assert one_error(text)[1] == (
        "'cuda_tile.testing$func' op type of entry block argument #0('!cuda_tile.tile<i32>') "
        "must match the type of the corresponding argument in function "
        "signature('!cuda_tile.tile<f32>')")


def test_dominance():
    text = kernel("""
        %0 = addi %1, %a : tile<i32>
        %1 = addi %a, %a : tile<i32>
    """, "%a: tile<i32>")
    assert diags(text) == [(3, "error", "operand #0 does not dominate this use"),
                           (4, "note", "operand defined here (op in the same block)")]
    text = kernel("""
        if %c {
          %0 = addi %1, %a : tile<i32>
        }
        %1 = addi %a, %a : tile<i32>
    """, "%a: tile<i32>, %c: tile<i1>")
    assert diags(text) == [(4, "error", "operand #0 does not dominate this use"),
                           (6, "note", "operand defined here (op in a parent region)")]


def test_types_built_without_the_parser_are_verified():
    from tileir.dialects.cuda_tile.builder import Builder
    from tileir.dialects.cuda_tile.types import I32, TileType
    b = Builder()
    with b.entry("k", []):
        b.iota(result_type=TileType((3,), I32))
    assert [(d.severity, d.message) for d in verify_op_tree(b.module)] == [
        ("error", "all dimensions must be powers of two, got 3")]


def test_isolation_of_functions():
    from tileir.dialects.cuda_tile.builder import Builder
    b = Builder()
    with b.entry("k1", ["tile<i32>"]) as (a,):
        pass
    with b.entry("k2", ["tile<i32>"]) as (c,):
        b.addi(a, c)
    (diag,) = verify_op_tree(b.module)
    assert diag.message == "'cuda_tile.addi' op using value defined outside the region"
    assert [n.message for n in diag.notes] == ["required by region isolation constraints"]
