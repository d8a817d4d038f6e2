"""Invalid core and control-flow ops: shapes, regions, terminators, yields, ancestry."""

from __future__ import annotations

import pytest

from vhelp import diags, errors, kernel, ok, one_error

A = "%a: tile<4x8xf32>, %i: tile<i32>, %c: tile<i1>, %v: tile<8xi32>"

CORE = [
    ("%0 = broadcast %a : tile<4x8xf32> -> tile<8x8xf32>",
     "'cuda_tile.broadcast' op expects the shape of source tile to be compatible with that of "
     "the result tile, but got: 4, 8 and 8, 8"),
    ("%0 = broadcast %a : tile<4x8xf32> -> tile<4x8x2xf32>",
     "'cuda_tile.broadcast' op failed to verify that all of {source, result} have same rank"),
    ("%0 = reshape %a : tile<4x8xf32> -> tile<16xf32>",
     "'cuda_tile.reshape' op expected source tile and result tile to have the same number of "
     "elements"),
    ("%0 = reshape %a : tile<4x8xf32> -> tile<32xi32>",
     "'cuda_tile.reshape' op requires the same element type for all operands and results"),
    ("%0 = permute %a [0, 0] : tile<4x8xf32> -> tile<4x8xf32>",
     "'cuda_tile.permute' op expect permutation elements to be unique"),
    ("%0 = permute %a [1, 0] : tile<4x8xf32> -> tile<4x8xf32>",
     "'cuda_tile.permute' op result shape invalid at index 0, expected: 8, but got: 4"),
    ("%0 = cat %a, %a dim = 2 : tile<4x8xf32>, tile<4x8xf32> -> tile<8x8xf32>",
     "'cuda_tile.cat' op expect dim to be [0, 2), but got: 2"),
    ("%0 = cat %a, %a dim = 1 : tile<4x8xf32>, tile<4x8xf32> -> tile<4x8xf32>",
     "'cuda_tile.cat' op invalid concat at position 1, expected: 16 but got: 8"),
    ("%0 = extract %a[%i, %i] : tile<4x8xf32> -> tile<4x3xf32>", None),  # parse-time type error
    ("%0 = extract %a[%i] : tile<4x8xf32> -> tile<2x4xf32>",
     "'cuda_tile.extract' op expected 2 indices, but got 1"),
    ("%0 = extract %a[%i, %i] : tile<4x8xf32> -> tile<2x4xi32>",
     "'cuda_tile.extract' op source and result element type do not match"),
    # insert (13.4): tileirdisasm 13.4.92's messages
    ("%0 = insert %a, %a[%i] : tile<4x8xf32>, tile<4x8xf32>",
     "'cuda_tile.insert' op expected 2 indices, but got 1"),
    ("%0 = insert %v, %a[%i, %i] : tile<8xi32>, tile<4x8xf32>",
     "'cuda_tile.insert' op source and result element type do not match"),
    ("%0 = insert %i, %v[%i] : tile<i32>, tile<8xi32>",
     "'cuda_tile.insert' op source and result must have the same rank"),
    ("%0 = insert %v, %v[%i] : tile<8xi32>, tile<8xi32>", "ok"),
    ("%0 = extract %a[%i, %i] : tile<4x8xf32> -> tile<2x8xf32>\n"
     "    %1 = insert %0, %a[%i, %i] : tile<2x8xf32>, tile<4x8xf32>", "ok"),
    ("%0 = iota : tile<4x4xi32>", "'cuda_tile.iota' op expects result type to be 1-d tile"),
    ("%0 = iota : tile<256xi1>",
     "'cuda_tile.iota' op the number of elements 256 exceeds the maximum value of element type "
     "'i1'"),
    ("%0 = select %c, %a, %a : tile<i1>, tile<4x8xf32>",
     "'cuda_tile.select' op failed to verify that all of {cond, val_if_true, val_if_false, "
     "result} have same shape"),
    ("%0 = pack %v : tile<8xi32> -> tile<16xi8>",
     "'cuda_tile.pack' op expects source and result to have the same size in bytes, but got "
     "source tile size 32 bytes and result tile size 16 bytes"),
    ("%0 = pack %v : tile<8xi32> -> tile<8xi32>",
     "'cuda_tile.pack' op result #0 must be tile of i8 values, but got '!cuda_tile.tile<8xi32>'"),
]


@pytest.mark.parametrize("body, msg", CORE)
def test_core(body, msg):
    got = errors(kernel(body, A))
    if msg == "ok":
        assert got == []
        return
    if msg is None:
        assert got and got[0][0] == 3  # reported on the op's line
        return
    assert got == [(3, msg)]


def test_insert_source_must_divide_the_destination():
    text = kernel("""
        %s = extract %v[%i] : tile<8xi32> -> tile<4xi32>
        %0 = insert %v, %s[%i] : tile<8xi32>, tile<4xi32>
    """, A)
    assert errors(text) == [(4, "'cuda_tile.insert' op result dimension 0 size (4) must be "
                                "evenly divisible by source dimension 0 size (8)")]


def test_extract_constant_index_warnings():
    text = kernel("""
        %k = constant <i32: 5> : tile<i32>
        %0 = extract %a[%k, %k] : tile<4x8xf32> -> tile<2x4xf32>
    """, A)
    got = diags(text)
    assert (4, "warning", "extract index 0 value 5 may be out of bounds (max valid index: 1)") \
        in got
    assert (4, "warning", "extract index 1 value 5 may be out of bounds (max valid index: 1)") \
        in got
    assert not errors(text)


def test_global_and_get_global():
    text = """\
cuda_tile.module @m {
  global @g <f16: [1.0, 2.0]> : tile<2xf16>
  entry @k() {
    %p = get_global @g : tile<ptr<f32>>
  }
}
"""
    assert one_error(text) == (4, "'cuda_tile.get_global' op pointee type of result type "
                                  "'!cuda_tile.ptr<f32>' does not match type 'f16' of the "
                                  "global @g")
    ok(text.replace("ptr<f32>", "ptr<f16>"))
    bad = """\
cuda_tile.module @m {
  global @g <f16: [[1.0, 2.0]]> : tile<1x2xf16>
}
"""
    assert one_error(bad) == (2, "'cuda_tile.global' op type must have rank 1")


def test_reduce_region_rules():
    body = """
        %0 = scan %v dim=0 reverse=false identities=[0 : i32] : tile<8xi32> -> tile<8xi32>
        (%x: tile<i32>, %y: tile<i64>) {
          yield %x : tile<i32>
        }
    """
    assert one_error(kernel(body, A)) == (
        3, "'cuda_tile.scan' op expect same element type for block argument at index: 0 and 1 "
           "but got: 'i32' and 'i64'")
    body = """
        %0 = reduce %v dim=0 identities=[0 : i32] : tile<8xi32> -> tile<8xi32>
        (%x: tile<i32>, %y: tile<i32>) {
          yield %x : tile<i32>
        }
    """
    assert errors(kernel(body, A)) == [
        (3, "'cuda_tile.reduce' op inferred type(s) '!cuda_tile.tile<i32>' are incompatible "
            "with return type(s) of operation '!cuda_tile.tile<8xi32>'"),
        (3, "'cuda_tile.reduce' op failed to infer returned types")]


def test_pure_ops_only_in_reduce_bodies():
    body = """
        %0 = reduce %v dim=0 identities=[0 : i32] : tile<8xi32> -> tile<i32>
        (%x: tile<i32>, %y: tile<i32>) {
          %q = divi %x, %y signed : tile<i32>
          yield %q : tile<i32>
        }
    """
    assert one_error(kernel(body, A)) == (
        5, "'cuda_tile.divi' op only pure operations are allowed inside 'cuda_tile.reduce'")


CONTROL = [
    # if / yield
    ("%0 = if %c -> (tile<i32>) {\n  yield %i : tile<i32>\n}",
     "'cuda_tile.if' op has non-empty return type, must define else branch"),
    ("if %c {\n  yield %i : tile<i32>\n}",
     "'cuda_tile.if' op does not return a value, but then branch yields '!cuda_tile.tile<i32>'"),
    ("%0 = if %c -> (tile<i32>) {\n  yield %i : tile<i32>\n} else {\n  yield %c : tile<i1>\n}",
     "'cuda_tile.if' op type does not match yield type, else branch yields "
     "'!cuda_tile.tile<i1>' but op result type is '!cuda_tile.tile<i32>'"),
    # loops
    ("for %n in (%i to %i, step %i) : tile<i32> {\n  continue %i : tile<i32>\n}",
     "`for` is missing a valid terminator. `continue` op should have operand types that match "
     "the parent loop return types: (), but found: ('!cuda_tile.tile<i32>')"),
    ("loop iter_values(%x = %i) : tile<i32> {\n  continue\n}",
     "`loop` is missing a valid terminator. `continue` op should have operand types that match "
     "the parent loop iter_values: ('!cuda_tile.tile<i32>'), but found: ()"),
    ("%0 = loop : tile<i32> {\n  break %c : tile<i1>\n}",
     "'cuda_tile.break' op operand types must correspond to the parent loop result types: "
     "('!cuda_tile.tile<i1>') vs ('!cuda_tile.tile<i32>')"),
    ("%0 = loop : tile<4x8xf32> -> tensor_view<4xf32, strides=[1]> {\n  break %a : "
     "tile<4x8xf32>\n}", None),
    # return
    ("if %c {\n  return %i : tile<i32>\n}",
     "'cuda_tile.return' op has 1 operands, but enclosing function (@k) returns 0"),
]


@pytest.mark.parametrize("body, msg", CONTROL)
def test_control_flow(body, msg):
    got = errors(kernel(body, A))
    if msg is None:
        assert got
        return
    assert len(got) == 1 and got[0][1] == msg, got


def test_break_ancestry_has_a_note_at_the_ancestor():
    body = """
        %0 = loop : tile<i32> {
          for %n in (%i to %i, step %i) : tile<i32> {
            break %i : tile<i32>
          }
          break %i : tile<i32>
        }
    """
    assert diags(kernel(body, A)) == [
        (5, "error", "'cuda_tile.break' op expects parent op to be one of 'cuda_tile.if, "
                     "cuda_tile.loop'")]
    body = """
        %0 = loop : tile<i32> {
          for %n in (%i to %i, step %i) : tile<i32> {
            if %c {
              break %i : tile<i32>
            }
          }
          break %i : tile<i32>
        }
    """
    assert diags(kernel(body, A)) == [
        (6, "error", "'cuda_tile.break' op can only be nested within a ancestor chain of "
                     "'cuda_tile.loop', 'cuda_tile.if' operations"),
        (4, "note", "see unexpected ancestor operation")]


def test_loop_carried_views_are_rejected():
    body = """
        %v0 = make_tensor_view %p, shape = [4], strides = [1] : tensor_view<4xf32, strides=[1]>
        for %n in (%i to %i, step %i) : tile<i32> iter_values(%x = %v0) -> (tensor_view<4xf32, strides=[1]>) {
          continue %x : tensor_view<4xf32, strides=[1]>
        }
    """
    assert one_error(kernel(body, A + ", %p: tile<ptr<f32>>")) == (
        4, "'cuda_tile.for' op loop-carried value 0 is a tensor_view, which is not supported")


def test_entry_rules():
    text = """\
cuda_tile.module @m {
  entry @k(%a: tile<4xf32>) {
  }
}
"""
    assert one_error(text) == (2, "'cuda_tile.entry' op entry op must have scalar types (rank 0 "
                                  "!cuda_tile.tile)")
    text = """\
cuda_tile.module @m {
  entry @k() -> tile<f32> {
  }
}
"""
    assert one_error(text) == (2, "'cuda_tile.entry' op entry op must not return values")


def test_global_only_at_module_scope():
    text = "cuda_tile.module @m {\n  entry @k() {\n    global @g <f32: [1.0]> : tile<1xf32>\n  }\n}\n"
    assert one_error(text) == (3, "'cuda_tile.global' op expects parent op 'cuda_tile.module'")
