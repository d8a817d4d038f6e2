"""func: custom and generic printing and verifier messages identical to mlir-opt 22."""

from __future__ import annotations

from mlir_diff import assert_same_errors, assert_same_printing

VALID = [
    "func.func private @g(f32) -> f32",
    "func.func private @decl(i32, index) -> (i32, f32) attributes {foo}",
    """func.func nested @h(%a: i32 {foo.bar = 1 : i32}, %b: f32) -> (i32 {foo.r}, f32)
        attributes {sym.x = 1} {
      return %a, %b : i32, f32
    }""",
    """func.func private @g(f32) -> f32
    func.func @h(%a: i32, %b: f32) -> (i32, f32) { return %a, %b : i32, f32 }
    func.func @k() -> (i32) {
      %f = func.constant @g : (f32) -> f32
      %x = arith.constant 1.0 : f32
      %r = func.call_indirect %f(%x) : (f32) -> f32
      %s = call @g(%x) {foo} : (f32) -> f32
      %c = arith.constant 1 : i32
      %t:2 = call @h(%c, %x) : (i32, f32) -> (i32, f32)
      return %c : i32
    }""",
    "func.func public @e() { return }",
    "func.func private @n() -> (i32 {a.b})",
    "func.func @noinline() attributes {no_inline} { return }",
    "func.func @fty(%f: (i32) -> i32) -> ((i32) -> i32) { return %f : (i32) -> i32 }",
    """func.func @unnamed_results() -> (i32, i32) {
      %0:2 = call @unnamed_results() : () -> (i32, i32)
      return %0#1, %0#0 : i32, i32
    }""",
    "func.func @v(%arg0: vector<4xf32>, %x: tensor<?x4xi8>) { return }",
    "func.func @labelled() {\n^bb0:\n  return\n}",
    "func.func private @decls(memref<?xf32>, complex<f32>, tuple<i32, f32>, none) -> index "
    "attributes {llvm.emit_c_interface}",
]

INVALID = [
    "func.func @f(%x: f32) -> i32 { return %x : f32 }",
    "func.func @f(%x: f32) -> i32 { return }",
    "func.func @f(%x: f32) { %0 = call @g(%x) : (f32) -> f32\n return }",
    "func.func private @g(i32)\nfunc.func @f(%x: f32) { call @g(%x) : (f32) -> ()\n return }",
    "func.func private @g(i32)\nfunc.func @f(%x: i32) { call @g(%x, %x) : (i32, i32) -> ()\n return }",
    "func.func private @g(i32) -> f32\nfunc.func @f(%x: i32) { call @g(%x) : (i32) -> ()\n return }",
    "func.func private @g(i32) -> f32\nfunc.func @f(%x: i32) { %0 = call @g(%x) : (i32) -> i32\n return }",
    "func.func @decl(i32)",
    "func.func public @decl(i32)",
    'func.func @f() { %0 = func.constant @nope : () -> ()\n return }',
    'func.func private @g(i32)\nfunc.func @f() { %0 = func.constant @g : () -> ()\n return }',
    'func.func @f(%g: (i32) -> i32, %x: f32) { %0 = "func.call_indirect"(%g, %x) : ((i32) -> i32, f32) -> i32\n return }',
    '"func.func"() ({}) {function_type = () -> (), sym_name = "f", sym_visibility = "bogus"} : () -> ()',
    'func.func @f() { "func.return"() : () -> ()\n "func.return"() : () -> ()\n }',
    "func.func @f(%a: i32 {foo}) { return }",
    "func.func @f() -> (i32 {foo})",
    '"func.func"() ({}) {function_type = (i32) -> (), sym_name = "f", arg_attrs = [{}, {}]} : '
    "() -> ()",
    '"func.func"() ({\n^bb0(%a: i64):\n "func.return"() : () -> ()\n}) '
    '{function_type = (i32) -> (), sym_name = "f"} : () -> ()',
    '"func.func"() ({}) {sym_name = "f"} : () -> ()',
    '"func.func"() ({}) {function_type = i32, sym_name = "f", sym_visibility = "private"} : '
    "() -> ()",
    "func.func @f() { %0 = arith.constant 1 : i32 }",
    'func.func @f() {\n %0 = "func.call"() : () -> i32\n return\n}',
    'func.func @f() {\n "func.return"() : () -> ()\n}\nfunc.func @f() {\n return\n}',
]


def test_func_ops_print_like_mlir_opt():
    assert assert_same_printing(VALID) == len(VALID)


def test_func_invalid_like_mlir_opt():
    assert assert_same_errors(INVALID) == len(INVALID)
