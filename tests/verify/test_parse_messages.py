"""Parse-time diagnostics that cuda-tile-opt reports with particular wording or placement."""

from __future__ import annotations

from vhelp import diags, kernel, one_error


def test_prior_use_note_points_at_the_definition():
    text = kernel("%0 = addi %a, %b : tile<4xi32>", "%a: tile<4xi32>, %b: tile<4xi16>")
    assert diags(text) == [
        (3, "error", "use of value '%b' expects different type than prior uses: "
                     "'!cuda_tile.tile<4xi32>' vs '!cuda_tile.tile<4xi16>'"),
        (2, "note", "prior use here")]


def test_forward_reference_with_another_type():
    text = kernel('%0 = "test.use"(%x) : (tile<i32>) -> tile<i32>\n'
                  '%x = constant <i64: 1> : tile<i64>')
    assert diags(text) == [
        (4, "error", "definition of SSA value '%x#0' has type '!cuda_tile.tile<i64>'"),
        (3, "note", "previously used here with type '!cuda_tile.tile<i32>'")]


def test_custom_op_prefix_and_two_errors_for_a_missing_keyword():
    text = kernel("%0 = cmpi %a, %a, signed : tile<4xi32> -> tile<4xi1>", "%a: tile<4xi32>")
    assert diags(text) == [
        (3, "error", "custom op 'cuda_tile.cmpi' expected valid keyword"),
        (3, "error", "custom op 'cuda_tile.cmpi' expected 'comparison_predicate' to be one of: "
                     "{'equal', 'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', "
                     "'greater_than_or_equal'}")]


def test_unknown_type_keyword_in_a_custom_op():
    assert one_error(kernel("%0 = iota : tyle<4xi32>")) == \
        (3, "custom op 'cuda_tile.iota' unknown type: tyle")


def test_missing_token_is_reported_at_the_end_of_the_previous_line():
    text = kernel("%0 = select %c, %a, %a : tile<4xf32>\n\n// a comment\n",
                  "%c: tile<4xi1>, %a: tile<4xf32>")
    assert one_error(text) == (3, "expected ','")


def test_cannot_name_an_operation_without_results():
    assert one_error(kernel("%x = assert %c, \"boom\" : tile<i1>", "%c: tile<i1>")) == \
        (3, "cannot name an operation with no results")


def test_enum_attribute_in_a_declarative_format():
    text = kernel("%0, %t = atomic_rmw_tko relaxed device %p, nand, %v : tile<4xptr<i32>>, "
                  "tile<4xi32> -> tile<4xi32>, token", "%p: tile<4xptr<i32>>, %v: tile<4xi32>")
    assert one_error(text) == (
        3, "custom op 'cuda_tile.atomic_rmw_tko' expected string or keyword containing one of "
           "the following enum values for attribute 'mode' [and, or, xor, add, addf, max, min, "
           "umax, umin, xchg]")


def test_keywords_are_case_sensitive():
    text = "cuda_tile.module @m {\n  global Private @g <f32: [1.0]> : tile<1xf32>\n}\n"
    assert one_error(text) == (2, "expected valid '@'-identifier for symbol name")


def test_dense_literal_errors_come_in_source_order():
    text = kernel("%0 = constant <f32: [[1.0, 2], [3.0]]> : tile<2x2xf32>")
    got = diags(text)
    assert got == [(3, "error", "unexpected decimal integer literal for a floating point value"),
                   (3, "note", "add a trailing dot to make the literal a float")]
    text = kernel("%0 = constant <f32: [[1.0, 2.0], [3.0]]> : tile<2x2xf32>")
    assert one_error(text) == (3, "tensor literal is invalid; ranks are not consistent between "
                                  "elements")


def test_dense_element_type_must_be_a_number():
    text = kernel("%0 = constant <index: 1> : tile<i32>")
    assert one_error(text)[1] == (
        "custom op 'cuda_tile.constant' expect element type to be one of i1 or i8 or i16 or i32 "
        "or i64 or f16 or bf16 or f32 or f64 or tf32 or f8E4M3FN or f8E5M2 or f8E8M0FNU or "
        "f4E2M1FN values, but got 'index'")


def test_optimization_hints_entries_must_be_dictionaries():
    text = "cuda_tile.module @m {\n  entry @k() optimization_hints=<sm_90 = 4> {\n  }\n}\n"
    assert one_error(text) == (
        2, "custom op 'cuda_tile.entry' expected dictionary attribute for optimization_hints "
           "entry `sm_90` got value=4 : i64")
