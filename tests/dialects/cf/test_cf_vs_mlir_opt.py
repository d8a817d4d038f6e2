"""cf: custom and generic printing (successors, block predecessor comments) and verifier
messages identical to mlir-opt 22."""

from __future__ import annotations

from mlir_diff import assert_same_errors, assert_same_printing

VALID = [
    """func.func @f(%c: i1, %a: i32, %b: f32, %i: i32) -> i32 {
      cf.assert %c, "oops \\"q\\""
      cf.br ^bb1(%a : i32)
    ^bb1(%x: i32):
      cf.cond_br %c, ^bb2(%x, %b : i32, f32), ^bb3
    ^bb2(%y: i32, %z: f32):
      cf.cond_br %c weights([30, 70]), ^bb3, ^bb4 {foo}
    ^bb3:
      cf.switch %i : i32, [
        default: ^bb4,
        42: ^bb1(%a : i32),
        -3: ^bb4
      ]
    ^bb4:
      cf.switch %i : i32, [
        default: ^bb5
      ]
    ^bb5:
      return %a : i32
    }""",
    """func.func @loop(%n: index) {
      %c0 = arith.constant 0 : index
      cf.br ^head(%c0 : index)
    ^head(%i: index):
      %done = arith.cmpi sge, %i, %n : index
      cf.cond_br %done, ^exit, ^body
    ^body:
      %c1 = arith.constant 1 : index
      %next = arith.addi %i, %c1 : index
      cf.br ^head(%next : index)
    ^exit:
      return
    }""",
    """func.func @unreachable() {
      return
    ^bb1:
      cf.br ^bb1
    }""",
    """func.func @sw(%f: i8, %v: i64) {
      %true = arith.constant true
      cf.switch %f : i8, [
        default: ^bb1(%v : i64),
        -1: ^bb2,
        127: ^bb1(%v : i64)
      ]
    ^bb1(%x: i64):
      cf.assert %true, "msg"
      return
    ^bb2:
      cf.br ^bb1(%v : i64)
    }""",
    """func.func @weights(%c: i1) {
      cf.cond_br %c weights([0, 100]), ^bb1, ^bb1
    ^bb1:
      return
    }""",
]

INVALID = [
    "func.func @f(%a: i32) {\n  cf.br ^bb1(%a : i32)\n^bb1:\n  return\n}",
    "func.func @f(%a: i32) {\n  cf.br ^bb1(%a : i32)\n^bb1(%b: f32):\n  return\n}",
    'func.func @f(%a: i32) {\n  "cf.br"() : () -> ()\n}',
    "func.func @f(%c: i1) {\n  cf.cond_br %c weights([1, 2, 3]), ^bb1, ^bb1\n^bb1:\n  return\n}",
    'func.func @f(%c: i32) {\n  cf.assert %c, "x"\n  return\n}',
    "func.func @f(%c: i1) {\n  cf.br ^bb7\n^bb1:\n  return\n}",
    "func.func @f(%c: i32) {\n  cf.switch %c : i32, [ default: ^bb1, 1: ^bb1(%c : i32) ]\n"
    "^bb1:\n  return\n}",
    "func.func @f(%c: i1) {\n  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n  %0 = arith.constant 1 : i32\n"
    "  cf.br ^bb2\n^bb2:\n  %1 = arith.addi %0, %0 : i32\n  return\n}",
    "func.func @f(%c: i1) {\n  cf.br ^bb1\n^bb1:\n  return\n^bb1:\n  return\n}",
    'func.func @f(%c: i1) {\n  "cf.cond_br"(%c)[^bb1] <{operandSegmentSizes = array<i32: 1, 0, 0>}>'
    " : (i1) -> ()\n^bb1:\n  return\n}",
    "func.func @f(%c: i1) {\n  cf.br ^bb1\n  return\n^bb1:\n  return\n}",
]


def test_cf_ops_print_like_mlir_opt():
    assert assert_same_printing(VALID) == len(VALID)


def test_cf_invalid_like_mlir_opt():
    assert assert_same_errors(INVALID) == len(INVALID)
