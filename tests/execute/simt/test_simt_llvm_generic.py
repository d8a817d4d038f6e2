"""llvm dialect: ``llvm.func`` and ``llvm.call`` with all their properties, so that the
generic form is mlir-opt's (read and written byte for byte), ``llvm.getelementptr`` with dynamic
(SSA) indices (text, verifier, host execution).  Each case holds MLIR 22 mlir-opt's output (or
first error) inline; where mlir-opt is installed the same inputs are fed to it too."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
import tileir.gpu
from tileir.cli.opt import process_buffer
from tileir.text import print_op

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import find_mlir_opt, run_mlir_opt  # noqa: E402

_needs_mlir_opt = pytest.mark.skipif(find_mlir_opt() is None,
                                     reason="MLIR's mlir-opt not found (mlir-22-tools)")


def _ours(text: str, generic: bool = False) -> str:
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    assert not result.failed, [d.message for d in result.diagnostics]
    return print_op(result.module, generic=generic).rstrip("\n")


def _our_error(text: str) -> str:
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert errors, "tileir accepts the input"
    return f"{errors[0].loc.line}:{errors[0].loc.col}: {errors[0].message}"


def _mlir(text: str, generic: bool = False) -> str:
    run = run_mlir_opt(text, ["-allow-unregistered-dialect"] + (["-mlir-print-op-generic"] if generic else []))
    assert run.returncode == 0, run.stderr
    return run.stdout.rstrip("\n")


# (input, mlir-opt's custom output, mlir-opt's generic output)
VALID = [
 [
  "module {\n  llvm.func @printf(!llvm.ptr, ...) -> i32\n  llvm.func @puts(!llvm.ptr)\n  llvm.func @g(i32, f32) -> i64 attributes {sym_visibility = \"private\"}\n  llvm.func extern_weak @h()\n  llvm.mlir.global internal constant @fmt(\"x = %d\\0A\\00\") {addr_space = 0 : i32}\n  func.func @main(%x: i32) {\n    %p = llvm.mlir.addressof @fmt : !llvm.ptr\n    %s = llvm.getelementptr %p[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<7 x i8>\n    %r = llvm.call @printf(%s, %x) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32\n    llvm.call @puts(%s) : (!llvm.ptr) -> ()\n    return\n  }\n}\n",
  "module {\n  llvm.func @printf(!llvm.ptr, ...) -> i32\n  llvm.func @puts(!llvm.ptr)\n  llvm.func @g(i32, f32) -> i64 attributes {sym_visibility = \"private\"}\n  llvm.func extern_weak @h()\n  llvm.mlir.global internal constant @fmt(\"x = %d\\0A\\00\") {addr_space = 0 : i32}\n  func.func @main(%arg0: i32) {\n    %0 = llvm.mlir.addressof @fmt : !llvm.ptr\n    %1 = llvm.getelementptr %0[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<7 x i8>\n    %2 = llvm.call @printf(%1, %arg0) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32) -> i32\n    llvm.call @puts(%1) : (!llvm.ptr) -> ()\n    return\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (ptr, ...)>, linkage = #llvm.linkage<external>, sym_name = \"printf\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (ptr)>, linkage = #llvm.linkage<external>, sym_name = \"puts\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i64 (i32, f32)>, linkage = #llvm.linkage<external>, sym_name = \"g\", sym_visibility = \"private\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<extern_weak>, sym_name = \"h\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.mlir.global\"() <{addr_space = 0 : i32, constant, global_type = !llvm.array<8 x i8>, linkage = #llvm.linkage<internal>, sym_name = \"fmt\", unnamed_addr = 0 : i64, value = \"x = %d\\0A\\00\", visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"func.func\"() <{function_type = (i32) -> (), sym_name = \"main\"}> ({\n  ^bb0(%arg0: i32):\n    %0 = \"llvm.mlir.addressof\"() <{global_name = @fmt}> : () -> !llvm.ptr\n    %1 = \"llvm.getelementptr\"(%0) <{elem_type = !llvm.array<7 x i8>, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 0, 0>}> : (!llvm.ptr) -> !llvm.ptr\n    %2 = \"llvm.call\"(%1, %arg0) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @printf, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>, var_callee_type = !llvm.func<i32 (ptr, ...)>}> : (!llvm.ptr, i32) -> i32\n    \"llvm.call\"(%1) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @puts, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (!llvm.ptr) -> ()\n    \"func.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "llvm.func hidden unnamed_addr fastcc @f(i32) -> i32\nllvm.func local_unnamed_addr @d(f32, ...) -> f32 attributes {dso_local, passthrough = [\"nounwind\"]}\nllvm.func protected @e()\nfunc.func @main(%x: i32, %y: f32) {\n  %r = llvm.call fastcc tail @f(%x) {fastmathFlags = #llvm.fastmath<fast>} : (i32) -> i32\n  %s = llvm.call @d(%y, %x) vararg(!llvm.func<f32 (f32, ...)>) : (f32, i32) -> f32\n  llvm.call @e() {no_inline} : () -> ()\n  return\n}\n",
  "module {\n  llvm.func hidden unnamed_addr fastcc @f(i32) -> i32\n  llvm.func local_unnamed_addr @d(f32, ...) -> f32 attributes {dso_local, passthrough = [\"nounwind\"]}\n  llvm.func protected @e()\n  func.func @main(%arg0: i32, %arg1: f32) {\n    %0 = llvm.call fastcc tail @f(%arg0) {fastmathFlags = #llvm.fastmath<fast>} : (i32) -> i32\n    %1 = llvm.call @d(%arg1, %arg0) vararg(!llvm.func<f32 (f32, ...)>) : (f32, i32) -> f32\n    llvm.call @e() {no_inline} : () -> ()\n    return\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<fastcc>, function_type = !llvm.func<i32 (i32)>, linkage = #llvm.linkage<external>, sym_name = \"f\", unnamed_addr = 2 : i64, visibility_ = 1 : i64}> ({\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, dso_local, function_type = !llvm.func<f32 (f32, ...)>, linkage = #llvm.linkage<external>, passthrough = [\"nounwind\"], sym_name = \"d\", unnamed_addr = 1 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void ()>, linkage = #llvm.linkage<external>, sym_name = \"e\", unnamed_addr = 0 : i64, visibility_ = 2 : i64}> ({\n  }) : () -> ()\n  \"func.func\"() <{function_type = (i32, f32) -> (), sym_name = \"main\"}> ({\n  ^bb0(%arg0: i32, %arg1: f32):\n    %0 = \"llvm.call\"(%arg0) <{CConv = #llvm.cconv<fastcc>, TailCallKind = #llvm.tailcallkind<tail>, callee = @f, fastmathFlags = #llvm.fastmath<fast>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32\n    %1 = \"llvm.call\"(%arg1, %arg0) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @d, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>, var_callee_type = !llvm.func<f32 (f32, ...)>}> : (f32, i32) -> f32\n    \"llvm.call\"() <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @e, fastmathFlags = #llvm.fastmath<none>, no_inline, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 0, 0>}> : () -> ()\n    \"func.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "llvm.func @b(i32 {llvm.noundef}, !llvm.ptr {llvm.nonnull}) -> (f32 {llvm.noundef})\n",
  "module {\n  llvm.func @b(i32 {llvm.noundef}, !llvm.ptr {llvm.nonnull}) -> (f32 {llvm.noundef})\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, arg_attrs = [{llvm.noundef}, {llvm.nonnull}], function_type = !llvm.func<f32 (i32, ptr)>, linkage = #llvm.linkage<external>, res_attrs = [{llvm.noundef}], sym_name = \"b\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "\"llvm.func\"() <{function_type = !llvm.func<void (i32)>, sym_name = \"c\"}> ({\n}) : () -> ()\n",
  "module {\n  llvm.func @c(i32)\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32)>, linkage = #llvm.linkage<external>, sym_name = \"c\", visibility_ = 0 : i64}> ({\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "\"llvm.func\"() <{CConv = #llvm.cconv<coldcc>, function_type = !llvm.func<i8 (i32, ...)>, linkage = #llvm.linkage<extern_weak>, sym_name = \"c\", unnamed_addr = 1 : i64, visibility_ = 2 : i64}> ({\n}) : () -> ()\n",
  "module {\n  llvm.func extern_weak protected local_unnamed_addr coldcc @c(i32, ...) -> i8\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<coldcc>, function_type = !llvm.func<i8 (i32, ...)>, linkage = #llvm.linkage<extern_weak>, sym_name = \"c\", unnamed_addr = 1 : i64, visibility_ = 2 : i64}> ({\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "llvm.func @e(i32) -> i32\nfunc.func @m(%x: i32) -> i32 {\n  %0 = llvm.call @e(%x) : (i32) -> i32\n  %1 = llvm.call tail @e(%0) : (i32) -> i32\n  %2 = llvm.call musttail @e(%1) {fastmathFlags = #llvm.fastmath<nnan, ninf>} : (i32) -> i32\n  %3 = llvm.call notail @e(%2) {foo = 1 : i32} : (i32) -> i32\n  return %3 : i32\n}\n",
  "module {\n  llvm.func @e(i32) -> i32\n  func.func @m(%arg0: i32) -> i32 {\n    %0 = llvm.call @e(%arg0) : (i32) -> i32\n    %1 = llvm.call tail @e(%0) : (i32) -> i32\n    %2 = llvm.call musttail @e(%1) {fastmathFlags = #llvm.fastmath<nnan, ninf>} : (i32) -> i32\n    %3 = llvm.call notail @e(%2) {foo = 1 : i32} : (i32) -> i32\n    return %3 : i32\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (i32)>, linkage = #llvm.linkage<external>, sym_name = \"e\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"func.func\"() <{function_type = (i32) -> i32, sym_name = \"m\"}> ({\n  ^bb0(%arg0: i32):\n    %0 = \"llvm.call\"(%arg0) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @e, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32\n    %1 = \"llvm.call\"(%0) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<tail>, callee = @e, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32\n    %2 = \"llvm.call\"(%1) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<musttail>, callee = @e, fastmathFlags = #llvm.fastmath<nnan, ninf>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32\n    %3 = \"llvm.call\"(%2) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<notail>, callee = @e, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> {foo = 1 : i32} : (i32) -> i32\n    \"func.return\"(%3) : (i32) -> ()\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "llvm.func @e(i32) -> i32\nfunc.func @m(%x: i32) {\n  %0 = \"llvm.call\"(%x) <{callee = @e, operandSegmentSizes = array<i32: 1, 0>, op_bundle_sizes = array<i32>}> : (i32) -> i32\n  return\n}\n",
  "module {\n  llvm.func @e(i32) -> i32\n  func.func @m(%arg0: i32) {\n    %0 = llvm.call @e(%arg0) : (i32) -> i32\n    return\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (i32)>, linkage = #llvm.linkage<external>, sym_name = \"e\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"func.func\"() <{function_type = (i32) -> (), sym_name = \"m\"}> ({\n  ^bb0(%arg0: i32):\n    %0 = \"llvm.call\"(%arg0) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @e, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 1, 0>}> : (i32) -> i32\n    \"func.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "llvm.func @p(!llvm.ptr, ...) -> i32\nfunc.func @m(%x: !llvm.ptr, %y: f64) {\n  %0 = llvm.call @p(%x, %y) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32\n  return\n}\n",
  "module {\n  llvm.func @p(!llvm.ptr, ...) -> i32\n  func.func @m(%arg0: !llvm.ptr, %arg1: f64) {\n    %0 = llvm.call @p(%arg0, %arg1) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, f64) -> i32\n    return\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (ptr, ...)>, linkage = #llvm.linkage<external>, sym_name = \"p\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"func.func\"() <{function_type = (!llvm.ptr, f64) -> (), sym_name = \"m\"}> ({\n  ^bb0(%arg0: !llvm.ptr, %arg1: f64):\n    %0 = \"llvm.call\"(%arg0, %arg1) <{CConv = #llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, callee = @p, fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = array<i32>, operandSegmentSizes = array<i32: 2, 0>, var_callee_type = !llvm.func<i32 (ptr, ...)>}> : (!llvm.ptr, f64) -> i32\n    \"func.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64, %j: i32) {\n  %0 = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32\n  %1 = llvm.getelementptr inbounds %p[%i, %j] : (!llvm.ptr, i64, i32) -> !llvm.ptr, !llvm.array<4 x i32>\n  %2 = llvm.getelementptr %p[1, %j, 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x array<3 x i8>>\n  %3 = llvm.getelementptr nuw %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>\n  %4 = llvm.getelementptr nusw %p[-1] : (!llvm.ptr) -> !llvm.ptr, i8\n  %5 = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i16\n  return\n}\n",
  "module {\n  func.func @m(%arg0: !llvm.ptr, %arg1: i64, %arg2: i32) {\n    %0 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, f32\n    %1 = llvm.getelementptr inbounds %arg0[%arg1, %arg2] : (!llvm.ptr, i64, i32) -> !llvm.ptr, !llvm.array<4 x i32>\n    %2 = llvm.getelementptr %arg0[1, %arg2, 2] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<4 x array<3 x i8>>\n    %3 = llvm.getelementptr nuw %arg0[%arg1, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>\n    %4 = llvm.getelementptr nusw %arg0[-1] : (!llvm.ptr) -> !llvm.ptr, i8\n    %5 = llvm.getelementptr inbounds|nuw %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, i16\n    return\n  }\n}",
  "\"builtin.module\"() ({\n  \"func.func\"() <{function_type = (!llvm.ptr, i64, i32) -> (), sym_name = \"m\"}> ({\n  ^bb0(%arg0: !llvm.ptr, %arg1: i64, %arg2: i32):\n    %0 = \"llvm.getelementptr\"(%arg0, %arg1) <{elem_type = f32, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i64) -> !llvm.ptr\n    %1 = \"llvm.getelementptr\"(%arg0, %arg1, %arg2) <{elem_type = !llvm.array<4 x i32>, noWrapFlags = 3 : i32, rawConstantIndices = array<i32: -2147483648, -2147483648>}> : (!llvm.ptr, i64, i32) -> !llvm.ptr\n    %2 = \"llvm.getelementptr\"(%arg0, %arg2) <{elem_type = !llvm.array<4 x array<3 x i8>>, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: 1, -2147483648, 2>}> : (!llvm.ptr, i32) -> !llvm.ptr\n    %3 = \"llvm.getelementptr\"(%arg0, %arg1) <{elem_type = !llvm.struct<(i32, f64)>, noWrapFlags = 4 : i32, rawConstantIndices = array<i32: -2147483648, 1>}> : (!llvm.ptr, i64) -> !llvm.ptr\n    %4 = \"llvm.getelementptr\"(%arg0) <{elem_type = i8, noWrapFlags = 2 : i32, rawConstantIndices = array<i32: -1>}> : (!llvm.ptr) -> !llvm.ptr\n    %5 = \"llvm.getelementptr\"(%arg0, %arg1) <{elem_type = i16, noWrapFlags = 7 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i64) -> !llvm.ptr\n    \"func.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr<1>, i32\n  return\n}\n",
  "module {\n  func.func @m(%arg0: !llvm.ptr, %arg1: i64) {\n    %0 = llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr<1>, i32\n    return\n  }\n}",
  "\"builtin.module\"() ({\n  \"func.func\"() <{function_type = (!llvm.ptr, i64) -> (), sym_name = \"m\"}> ({\n  ^bb0(%arg0: !llvm.ptr, %arg1: i64):\n    %0 = \"llvm.getelementptr\"(%arg0, %arg1) <{elem_type = i32, noWrapFlags = 0 : i32, rawConstantIndices = array<i32: -2147483648>}> : (!llvm.ptr, i64) -> !llvm.ptr<1>\n    \"func.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"
 ]
]

# (input, mlir-opt's first error as LINE:COL: message)
ERRORS = [
 [
  "llvm.func weak @a(i64) -> !llvm.ptr\n",
  "1:1: 'llvm.func' op external functions must have 'external' or 'extern_weak' linkage"
 ],
 [
  "llvm.func internal @d()\n",
  "1:1: 'llvm.func' op external functions must have 'external' or 'extern_weak' linkage"
 ],
 [
  "llvm.func @e(i32) -> i32\nfunc.func @m(%x: f32) {\n  %0 = llvm.call @e(%x) : (f32) -> i32\n  return\n}\n",
  "3:8: 'llvm.call' op operand type mismatch for operand 0: 'f32' != 'i32'"
 ],
 [
  "llvm.func @e(i32) -> i32\nfunc.func @m(%x: i32) {\n  llvm.call @e(%x) : (i32) -> ()\n  return\n}\n",
  "3:3: 'llvm.call' op expected function call to produce a value"
 ],
 [
  "llvm.func @p(!llvm.ptr, ...) -> i32\nfunc.func @m(%x: !llvm.ptr) {\n  %0 = llvm.call @p(%x) : (!llvm.ptr) -> i32\n  return\n}\n",
  "3:8: 'llvm.call' op missing var_callee_type attribute for vararg call"
 ],
 [
  "llvm.func cc_10 @q()\nllvm.func x86_stdcallcc @r(i32, ...)\nllvm.func linkonce_odr @s()\n",
  "3:1: 'llvm.func' op external functions must have 'external' or 'extern_weak' linkage"
 ],
 [
  "llvm.func local_unnamed_addr hidden @t()\n",
  "1:30: custom op 'llvm.func' expected valid '@'-identifier for symbol name"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, f64)>\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op expected index 1 indexing a struct to be constant"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f64)>\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op index 1 indexing a struct is out of bounds"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = llvm.getelementptr %p[0, 1, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<2 x i32>\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op type 'i32' cannot be indexed (index #2)"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = llvm.getelementptr %p[%i] : (!llvm.ptr) -> !llvm.ptr, i32\n  return\n}\n",
  "2:8: custom op 'llvm.getelementptr' number of operands and types do not match: got 2 operands and 1 types"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: f32) {\n  %3 = llvm.getelementptr %p[%i] : (!llvm.ptr, f32) -> !llvm.ptr, i32\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op operand #1 must be variadic of signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: index) {\n  %3 = llvm.getelementptr %p[%i] : (!llvm.ptr, index) -> !llvm.ptr, i32\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op operand #1 must be variadic of signless integer or LLVM dialect-compatible vector of signless integer, but got 'index'"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = \"llvm.getelementptr\"(%p, %i) <{elem_type = i32, rawConstantIndices = array<i32: -2147483648, 5>}> : (!llvm.ptr, i64) -> !llvm.ptr\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op type 'i32' cannot be indexed (index #1)"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = \"llvm.getelementptr\"(%p, %i) <{elem_type = i32, rawConstantIndices = array<i32: 3>}> : (!llvm.ptr, i64) -> !llvm.ptr\n  return\n}\n",
  "2:8: 'llvm.getelementptr' op expected as many dynamic indices as specified in 'rawConstantIndices'"
 ],
 [
  "func.func @m(%p: !llvm.ptr, %i: i64) {\n  %3 = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<\"s\", (i32)>\n  %4 = llvm.getelementptr %p[3000000000] : (!llvm.ptr) -> !llvm.ptr, i32\n  return\n}\n",
  "3:30: custom op 'llvm.getelementptr' integer value too large"
 ]
]


@pytest.mark.parametrize("k", range(len(VALID)))
def test_custom_and_generic_forms_are_mlir_opts(k):
    text, custom, generic = VALID[k]
    assert _ours(text) == custom
    assert _ours(text, generic=True) == generic


@pytest.mark.parametrize("k", range(len(VALID)))
def test_mlir_opts_generic_form_reads_back(k):
    _, custom, generic = VALID[k]
    assert _ours(generic, generic=True) == generic
    assert _ours(generic) == custom


@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_first_error_is_mlir_opts(k):
    text, expected = ERRORS[k]
    assert _our_error(text) == expected


@_needs_mlir_opt
@pytest.mark.parametrize("k", range(len(VALID)))
def test_inline_outputs_are_mlir_opts(k):
    text, custom, generic = VALID[k]
    assert _mlir(text) == custom
    assert _mlir(text, generic=True) == generic
    assert _mlir(generic, generic=True) == generic


@_needs_mlir_opt
@pytest.mark.parametrize("k", range(len(ERRORS)))
def test_inline_errors_are_mlir_opts(k):
    import re
    text, expected = ERRORS[k]
    run = run_mlir_opt(text, ["-allow-unregistered-dialect"])
    m = re.search(r"^<stdin>:(\d+:\d+): error: (.*)$", run.stderr, re.M)
    assert m is not None and f"{m.group(1)}: {m.group(2)}" == expected


PRINTF = 'module {\n  llvm.func @printf(!llvm.ptr, ...) -> i32\n  llvm.mlir.global internal constant @fmt("v=%s|%c\\0A\\00") {addr_space = 0 : i32}\n  llvm.mlir.global internal constant @str("hello world\\00") {addr_space = 0 : i32}\n  func.func @main() {\n    %c3 = arith.constant 3 : i64\n    %c6 = arith.constant 6 : i32\n    %p = llvm.mlir.addressof @fmt : !llvm.ptr\n    %s = llvm.getelementptr %p[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<9 x i8>\n    %q = llvm.mlir.addressof @str : !llvm.ptr\n    %w = llvm.getelementptr %q[0, %c6] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<12 x i8>\n    %h = llvm.getelementptr %q[%c3] : (!llvm.ptr, i64) -> !llvm.ptr, i8\n    %ch = arith.constant 65 : i32\n    %r = llvm.call @printf(%s, %w, %ch) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, i32) -> i32\n    %r2 = llvm.call @printf(%s, %h, %ch) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, !llvm.ptr, i32) -> i32\n    return\n  }\n}\n'


def test_gep_with_dynamic_indices_runs(capfd):
    # C semantics: "hello world" + 6 is "world", + 3 is "lo world"
    tileir.gpu.run(tileir.parse(PRINTF), "main")
    assert capfd.readouterr().out.endswith("v=world|A\nv=lo world|A\n")


def test_gep_over_a_struct_runs(capfd):
    # { i8, i32, [4 x i8] }: member 2 starts at byte 8 (natural alignment); its element 1 is byte 9
    src = PRINTF.replace("%w = llvm.getelementptr %q[0, %c6] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.array<12 x i8>",
                         "%w = llvm.getelementptr %q[0, 2, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i8, i32, array<4 x i8>)>")
    tileir.gpu.run(tileir.parse(src), "main")
    assert capfd.readouterr().out.endswith("v=ld|A\nv=lo world|A\n")
