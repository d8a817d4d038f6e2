"""llvm.func bodies, llvm.mlir.global initializer regions and the LLVM dialect's core
instructions: text (custom and generic form as mlir-opt 22 prints them, byte for byte), verifier
and parser messages (mlir-opt's first error), and host execution (llvm.call of llvm.func bodies,
globals initialised once, allocas, loads/stores, LLVM's wrap-around integers, poison flags
reported as undefined behaviour, branches).  mlir-opt's outputs are inline; where mlir-opt is
installed the same inputs are fed to it too."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import UndefinedBehaviorError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from mlir_tools import run_mlir_opt  # noqa: E402
# (the text helpers of the llvm.func/llvm.call tests: ours and mlir-opt's outputs and errors)
from test_simt_llvm_generic import _mlir, _needs_mlir_opt, _our_error, _ours  # noqa: E402


def _mlir_error(text: str) -> str:
    run = run_mlir_opt(text, ["-allow-unregistered-dialect"])
    assert run.returncode != 0
    line = run.stderr.splitlines()[0].split("<stdin>:", 1)[1]
    return line.replace(" error: ", " ", 1)


# (input, mlir-opt's custom output, mlir-opt's generic output)
VALID = [
 ("llvm.mlir.global internal constant @g() {addr_space = 0 : i32} : !llvm.array<3 x i32> {\n  %0 = llvm.mlir.undef : !llvm.array<3 x i32>\n  %1 = llvm.mlir.constant(1 : i32) : i32\n  %2 = llvm.insertvalue %1, %0[0] : !llvm.array<3 x i32>\n  %3 = llvm.mlir.constant(2 : i32) : i32\n  %4 = llvm.insertvalue %3, %2[1] : !llvm.array<3 x i32>\n  %5 = llvm.insertvalue %3, %4[2] : !llvm.array<3 x i32>\n  llvm.return %5 : !llvm.array<3 x i32>\n}\nllvm.mlir.global private @h(42 : i64) : i64\nllvm.mlir.global external @k() : i32\nllvm.func @f(%a: i32, %b: i32) -> i32 attributes {sym_visibility = \"private\"} {\n  %c = llvm.add %a, %b overflow<nsw, nuw> : i32\n  %d = llvm.sub %c, %b : i32\n  %e = llvm.mul %d, %a overflow<nsw> : i32\n  %f = llvm.sdiv exact %e, %a : i32\n  %g = llvm.udiv %e, %a : i32\n  %h = llvm.or disjoint %f, %g : i32\n  %i = llvm.icmp \"slt\" %h, %a : i32\n  %j = llvm.select %i, %h, %a : i1, i32\n  %p = llvm.alloca %a x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr\n  llvm.store %j, %p {alignment = 4 : i64} : i32, !llvm.ptr\n  %l = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32\n  llvm.cond_br %i, ^bb1(%l : i32), ^bb2\n^bb1(%x: i32):\n  llvm.br ^bb2\n^bb2:\n  %fa = llvm.sitofp %l : i32 to f32\n  %fb = llvm.fadd %fa, %fa {fastmathFlags = #llvm.fastmath<fast>} : f32\n  %fc = llvm.fneg %fb : f32\n  %fd = llvm.fcmp \"olt\" %fb, %fc : f32\n  %z = llvm.zext nneg %fd : i1 to i32\n  %t = llvm.trunc %z overflow<nuw> : i32 to i8\n  %u = llvm.mlir.poison : i32\n  %v = llvm.mlir.zero : i32\n  %s = llvm.mlir.undef : !llvm.struct<(i32, f32)>\n  %w = llvm.extractvalue %s[0] : !llvm.struct<(i32, f32)>\n  llvm.return %z : i32\n}\n",
  "module {\n  llvm.mlir.global internal constant @g() {addr_space = 0 : i32} : !llvm.array<3 x i32> {\n    %0 = llvm.mlir.undef : !llvm.array<3 x i32>\n    %1 = llvm.mlir.constant(1 : i32) : i32\n    %2 = llvm.insertvalue %1, %0[0] : !llvm.array<3 x i32> \n    %3 = llvm.mlir.constant(2 : i32) : i32\n    %4 = llvm.insertvalue %3, %2[1] : !llvm.array<3 x i32> \n    %5 = llvm.insertvalue %3, %4[2] : !llvm.array<3 x i32> \n    llvm.return %5 : !llvm.array<3 x i32>\n  }\n  llvm.mlir.global private @h(42 : i64) {addr_space = 0 : i32} : i64\n  llvm.mlir.global external @k() {addr_space = 0 : i32} : i32\n  llvm.func @f(%arg0: i32, %arg1: i32) -> i32 attributes {sym_visibility = \"private\"} {\n    %0 = llvm.add %arg0, %arg1 overflow<nsw, nuw> : i32\n    %1 = llvm.sub %0, %arg1 : i32\n    %2 = llvm.mul %1, %arg0 overflow<nsw> : i32\n    %3 = llvm.sdiv exact %2, %arg0 : i32\n    %4 = llvm.udiv %2, %arg0 : i32\n    %5 = llvm.or disjoint %3, %4 : i32\n    %6 = llvm.icmp \"slt\" %5, %arg0 : i32\n    %7 = llvm.select %6, %5, %arg0 : i1, i32\n    %8 = llvm.alloca %arg0 x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr\n    llvm.store %7, %8 {alignment = 4 : i64} : i32, !llvm.ptr\n    %9 = llvm.load %8 {alignment = 4 : i64} : !llvm.ptr -> i32\n    llvm.cond_br %6, ^bb1(%9 : i32), ^bb2\n  ^bb1(%10: i32):  // pred: ^bb0\n    llvm.br ^bb2\n  ^bb2:  // 2 preds: ^bb0, ^bb1\n    %11 = llvm.sitofp %9 : i32 to f32\n    %12 = llvm.fadd %11, %11 {fastmathFlags = #llvm.fastmath<fast>} : f32\n    %13 = llvm.fneg %12 : f32\n    %14 = llvm.fcmp \"olt\" %12, %13 : f32\n    %15 = llvm.zext nneg %14 : i1 to i32\n    %16 = llvm.trunc %15 overflow<nuw> : i32 to i8\n    %17 = llvm.mlir.poison : i32\n    %18 = llvm.mlir.zero : i32\n    %19 = llvm.mlir.undef : !llvm.struct<(i32, f32)>\n    %20 = llvm.extractvalue %19[0] : !llvm.struct<(i32, f32)> \n    llvm.return %15 : i32\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.mlir.global\"() <{addr_space = 0 : i32, constant, global_type = !llvm.array<3 x i32>, linkage = #llvm.linkage<internal>, sym_name = \"g\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n    %21 = \"llvm.mlir.undef\"() : () -> !llvm.array<3 x i32>\n    %22 = \"llvm.mlir.constant\"() <{value = 1 : i32}> : () -> i32\n    %23 = \"llvm.insertvalue\"(%21, %22) <{position = array<i64: 0>}> : (!llvm.array<3 x i32>, i32) -> !llvm.array<3 x i32>\n    %24 = \"llvm.mlir.constant\"() <{value = 2 : i32}> : () -> i32\n    %25 = \"llvm.insertvalue\"(%23, %24) <{position = array<i64: 1>}> : (!llvm.array<3 x i32>, i32) -> !llvm.array<3 x i32>\n    %26 = \"llvm.insertvalue\"(%25, %24) <{position = array<i64: 2>}> : (!llvm.array<3 x i32>, i32) -> !llvm.array<3 x i32>\n    \"llvm.return\"(%26) : (!llvm.array<3 x i32>) -> ()\n  }) : () -> ()\n  \"llvm.mlir.global\"() <{addr_space = 0 : i32, global_type = i64, linkage = #llvm.linkage<private>, sym_name = \"h\", unnamed_addr = 0 : i64, value = 42 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.mlir.global\"() <{addr_space = 0 : i32, global_type = i32, linkage = #llvm.linkage<external>, sym_name = \"k\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<i32 (i32, i32)>, linkage = #llvm.linkage<external>, sym_name = \"f\", sym_visibility = \"private\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  ^bb0(%arg0: i32, %arg1: i32):\n    %0 = \"llvm.add\"(%arg0, %arg1) <{overflowFlags = 3 : i32}> : (i32, i32) -> i32\n    %1 = \"llvm.sub\"(%0, %arg1) <{overflowFlags = 0 : i32}> : (i32, i32) -> i32\n    %2 = \"llvm.mul\"(%1, %arg0) <{overflowFlags = 1 : i32}> : (i32, i32) -> i32\n    %3 = \"llvm.sdiv\"(%2, %arg0) <{isExact}> : (i32, i32) -> i32\n    %4 = \"llvm.udiv\"(%2, %arg0) : (i32, i32) -> i32\n    %5 = \"llvm.or\"(%3, %4) <{isDisjoint}> : (i32, i32) -> i32\n    %6 = \"llvm.icmp\"(%5, %arg0) <{predicate = 2 : i64}> : (i32, i32) -> i1\n    %7 = \"llvm.select\"(%6, %5, %arg0) <{fastmathFlags = #llvm.fastmath<none>}> : (i1, i32, i32) -> i32\n    %8 = \"llvm.alloca\"(%arg0) <{alignment = 4 : i64, elem_type = i32}> : (i32) -> !llvm.ptr\n    \"llvm.store\"(%7, %8) <{alignment = 4 : i64, ordering = 0 : i64}> : (i32, !llvm.ptr) -> ()\n    %9 = \"llvm.load\"(%8) <{alignment = 4 : i64, ordering = 0 : i64}> : (!llvm.ptr) -> i32\n    \"llvm.cond_br\"(%6, %9)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()\n  ^bb1(%10: i32):  // pred: ^bb0\n    \"llvm.br\"()[^bb2] : () -> ()\n  ^bb2:  // 2 preds: ^bb0, ^bb1\n    %11 = \"llvm.sitofp\"(%9) : (i32) -> f32\n    %12 = \"llvm.fadd\"(%11, %11) <{fastmathFlags = #llvm.fastmath<fast>}> : (f32, f32) -> f32\n    %13 = \"llvm.fneg\"(%12) <{fastmathFlags = #llvm.fastmath<none>}> : (f32) -> f32\n    %14 = \"llvm.fcmp\"(%12, %13) <{fastmathFlags = #llvm.fastmath<none>, predicate = 4 : i64}> : (f32, f32) -> i1\n    %15 = \"llvm.zext\"(%14) <{nonNeg}> : (i1) -> i32\n    %16 = \"llvm.trunc\"(%15) <{overflowFlags = 2 : i32}> : (i32) -> i8\n    %17 = \"llvm.mlir.poison\"() : () -> i32\n    %18 = \"llvm.mlir.zero\"() : () -> i32\n    %19 = \"llvm.mlir.undef\"() : () -> !llvm.struct<(i32, f32)>\n    %20 = \"llvm.extractvalue\"(%19) <{position = array<i64: 0>}> : (!llvm.struct<(i32, f32)>) -> i32\n    \"llvm.return\"(%15) : (i32) -> ()\n  }) : () -> ()\n}) : () -> ()"),
 ("llvm.func @f(%a: i32, %b: i64, %p: !llvm.ptr, %x: f32, %v: vector<2xi32>) {\n  %0 = llvm.mlir.constant(1) : i32\n  %1 = llvm.mlir.constant(1.5 : f32) : f32\n  %2 = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>\n  %3 = llvm.mlir.constant(\"abc\") : !llvm.array<3 x i8>\n  %4 = llvm.mlir.constant(true) : i1\n  %5 = llvm.mlir.constant(-1 : i64) : i64\n  %6 = llvm.trunc %b : i64 to i32\n  %7 = llvm.zext %a : i32 to i64\n  %8 = llvm.sext %a : i32 to i64\n  %9 = llvm.ptrtoint %p : !llvm.ptr to i64\n  %10 = llvm.inttoptr %b : i64 to !llvm.ptr\n  %11 = llvm.bitcast %x : f32 to i32\n  %12 = llvm.fpext %x : f32 to f64\n  %13 = llvm.fptrunc %12 : f64 to f32\n  %14 = llvm.fptosi %x : f32 to i32\n  %15 = llvm.fptoui %x : f32 to i32\n  %16 = llvm.uitofp nneg %a : i32 to f32\n  %17 = llvm.uitofp %a : i32 to f32\n  %18 = llvm.addrspacecast %p : !llvm.ptr to !llvm.ptr<1>\n  %19 = llvm.load volatile %p : !llvm.ptr -> i32\n  %20 = llvm.load %p atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32\n  llvm.store volatile %a, %p : i32, !llvm.ptr\n  llvm.store %a, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr\n  %21 = llvm.alloca %a x i64 : (i32) -> !llvm.ptr\n  %22 = llvm.alloca inalloca %a x i64 : (i32) -> !llvm.ptr\n  %23 = llvm.shl %a, %a overflow<nuw> : i32\n  %24 = llvm.lshr exact %a, %a : i32\n  %25 = llvm.ashr %a, %a : i32\n  %26 = llvm.srem %a, %a : i32\n  %27 = llvm.urem %a, %a : i32\n  %28 = llvm.and %a, %a : i32\n  %29 = llvm.xor %a, %a : i32\n  %30 = llvm.add %v, %v : vector<2xi32>\n  %31 = llvm.icmp \"eq\" %v, %v : vector<2xi32>\n  %32 = llvm.fsub %x, %x : f32\n  %33 = llvm.fmul %x, %x : f32\n  %34 = llvm.fdiv %x, %x : f32\n  %35 = llvm.frem %x, %x : f32\n  %36 = llvm.fcmp \"uno\" %x, %x {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32\n  %37 = llvm.select %4, %x, %x {fastmathFlags = #llvm.fastmath<nnan>} : i1, f32\n  %38 = llvm.icmp \"ne\" %p, %p : !llvm.ptr\n  %39 = llvm.mlir.undef : !llvm.struct<(i32, array<2 x f32>)>\n  %40 = llvm.insertvalue %x, %39[1, 0] : !llvm.struct<(i32, array<2 x f32>)>\n  %41 = llvm.extractvalue %40[1] : !llvm.struct<(i32, array<2 x f32>)>\n  llvm.cond_br %4 weights([1, 2]), ^bb1, ^bb2\n^bb1:\n  llvm.return\n^bb2:\n  llvm.return\n}\n",
  "module {\n  llvm.func @f(%arg0: i32, %arg1: i64, %arg2: !llvm.ptr, %arg3: f32, %arg4: vector<2xi32>) {\n    %0 = llvm.mlir.constant(1 : i64) : i32\n    %1 = llvm.mlir.constant(1.500000e+00 : f32) : f32\n    %2 = llvm.mlir.constant(dense<[1, 2]> : vector<2xi32>) : vector<2xi32>\n    %3 = llvm.mlir.constant(\"abc\") : !llvm.array<3 x i8>\n    %4 = llvm.mlir.constant(true) : i1\n    %5 = llvm.mlir.constant(-1 : i64) : i64\n    %6 = llvm.trunc %arg1 : i64 to i32\n    %7 = llvm.zext %arg0 : i32 to i64\n    %8 = llvm.sext %arg0 : i32 to i64\n    %9 = llvm.ptrtoint %arg2 : !llvm.ptr to i64\n    %10 = llvm.inttoptr %arg1 : i64 to !llvm.ptr\n    %11 = llvm.bitcast %arg3 : f32 to i32\n    %12 = llvm.fpext %arg3 : f32 to f64\n    %13 = llvm.fptrunc %12 : f64 to f32\n    %14 = llvm.fptosi %arg3 : f32 to i32\n    %15 = llvm.fptoui %arg3 : f32 to i32\n    %16 = llvm.uitofp nneg %arg0 : i32 to f32\n    %17 = llvm.uitofp %arg0 : i32 to f32\n    %18 = llvm.addrspacecast %arg2 : !llvm.ptr to !llvm.ptr<1>\n    %19 = llvm.load volatile %arg2 : !llvm.ptr -> i32\n    %20 = llvm.load %arg2 atomic monotonic {alignment = 4 : i64} : !llvm.ptr -> i32\n    llvm.store volatile %arg0, %arg2 : i32, !llvm.ptr\n    llvm.store %arg0, %arg2 atomic release {alignment = 4 : i64} : i32, !llvm.ptr\n    %21 = llvm.alloca %arg0 x i64 : (i32) -> !llvm.ptr\n    %22 = llvm.alloca inalloca %arg0 x i64 : (i32) -> !llvm.ptr\n    %23 = llvm.shl %arg0, %arg0 overflow<nuw> : i32\n    %24 = llvm.lshr exact %arg0, %arg0 : i32\n    %25 = llvm.ashr %arg0, %arg0 : i32\n    %26 = llvm.srem %arg0, %arg0 : i32\n    %27 = llvm.urem %arg0, %arg0 : i32\n    %28 = llvm.and %arg0, %arg0 : i32\n    %29 = llvm.xor %arg0, %arg0 : i32\n    %30 = llvm.add %arg4, %arg4 : vector<2xi32>\n    %31 = llvm.icmp \"eq\" %arg4, %arg4 : vector<2xi32>\n    %32 = llvm.fsub %arg3, %arg3 : f32\n    %33 = llvm.fmul %arg3, %arg3 : f32\n    %34 = llvm.fdiv %arg3, %arg3 : f32\n    %35 = llvm.frem %arg3, %arg3 : f32\n    %36 = llvm.fcmp \"uno\" %arg3, %arg3 {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32\n    %37 = llvm.select %4, %arg3, %arg3 {fastmathFlags = #llvm.fastmath<nnan>} : i1, f32\n    %38 = llvm.icmp \"ne\" %arg2, %arg2 : !llvm.ptr\n    %39 = llvm.mlir.undef : !llvm.struct<(i32, array<2 x f32>)>\n    %40 = llvm.insertvalue %arg3, %39[1, 0] : !llvm.struct<(i32, array<2 x f32>)> \n    %41 = llvm.extractvalue %40[1] : !llvm.struct<(i32, array<2 x f32>)> \n    llvm.cond_br %4 weights([1, 2]), ^bb1, ^bb2\n  ^bb1:  // pred: ^bb0\n    llvm.return\n  ^bb2:  // pred: ^bb0\n    llvm.return\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<void (i32, i64, ptr, f32, vector<2xi32>)>, linkage = #llvm.linkage<external>, sym_name = \"f\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  ^bb0(%arg0: i32, %arg1: i64, %arg2: !llvm.ptr, %arg3: f32, %arg4: vector<2xi32>):\n    %0 = \"llvm.mlir.constant\"() <{value = 1 : i64}> : () -> i32\n    %1 = \"llvm.mlir.constant\"() <{value = 1.500000e+00 : f32}> : () -> f32\n    %2 = \"llvm.mlir.constant\"() <{value = dense<[1, 2]> : vector<2xi32>}> : () -> vector<2xi32>\n    %3 = \"llvm.mlir.constant\"() <{value = \"abc\"}> : () -> !llvm.array<3 x i8>\n    %4 = \"llvm.mlir.constant\"() <{value = true}> : () -> i1\n    %5 = \"llvm.mlir.constant\"() <{value = -1 : i64}> : () -> i64\n    %6 = \"llvm.trunc\"(%arg1) <{overflowFlags = 0 : i32}> : (i64) -> i32\n    %7 = \"llvm.zext\"(%arg0) : (i32) -> i64\n    %8 = \"llvm.sext\"(%arg0) : (i32) -> i64\n    %9 = \"llvm.ptrtoint\"(%arg2) : (!llvm.ptr) -> i64\n    %10 = \"llvm.inttoptr\"(%arg1) : (i64) -> !llvm.ptr\n    %11 = \"llvm.bitcast\"(%arg3) : (f32) -> i32\n    %12 = \"llvm.fpext\"(%arg3) : (f32) -> f64\n    %13 = \"llvm.fptrunc\"(%12) : (f64) -> f32\n    %14 = \"llvm.fptosi\"(%arg3) : (f32) -> i32\n    %15 = \"llvm.fptoui\"(%arg3) : (f32) -> i32\n    %16 = \"llvm.uitofp\"(%arg0) <{nonNeg}> : (i32) -> f32\n    %17 = \"llvm.uitofp\"(%arg0) : (i32) -> f32\n    %18 = \"llvm.addrspacecast\"(%arg2) : (!llvm.ptr) -> !llvm.ptr<1>\n    %19 = \"llvm.load\"(%arg2) <{ordering = 0 : i64, volatile_}> : (!llvm.ptr) -> i32\n    %20 = \"llvm.load\"(%arg2) <{alignment = 4 : i64, ordering = 2 : i64}> : (!llvm.ptr) -> i32\n    \"llvm.store\"(%arg0, %arg2) <{ordering = 0 : i64, volatile_}> : (i32, !llvm.ptr) -> ()\n    \"llvm.store\"(%arg0, %arg2) <{alignment = 4 : i64, ordering = 5 : i64}> : (i32, !llvm.ptr) -> ()\n    %21 = \"llvm.alloca\"(%arg0) <{elem_type = i64}> : (i32) -> !llvm.ptr\n    %22 = \"llvm.alloca\"(%arg0) <{elem_type = i64, inalloca}> : (i32) -> !llvm.ptr\n    %23 = \"llvm.shl\"(%arg0, %arg0) <{overflowFlags = 2 : i32}> : (i32, i32) -> i32\n    %24 = \"llvm.lshr\"(%arg0, %arg0) <{isExact}> : (i32, i32) -> i32\n    %25 = \"llvm.ashr\"(%arg0, %arg0) : (i32, i32) -> i32\n    %26 = \"llvm.srem\"(%arg0, %arg0) : (i32, i32) -> i32\n    %27 = \"llvm.urem\"(%arg0, %arg0) : (i32, i32) -> i32\n    %28 = \"llvm.and\"(%arg0, %arg0) : (i32, i32) -> i32\n    %29 = \"llvm.xor\"(%arg0, %arg0) : (i32, i32) -> i32\n    %30 = \"llvm.add\"(%arg4, %arg4) <{overflowFlags = 0 : i32}> : (vector<2xi32>, vector<2xi32>) -> vector<2xi32>\n    %31 = \"llvm.icmp\"(%arg4, %arg4) <{predicate = 0 : i64}> : (vector<2xi32>, vector<2xi32>) -> vector<2xi1>\n    %32 = \"llvm.fsub\"(%arg3, %arg3) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32\n    %33 = \"llvm.fmul\"(%arg3, %arg3) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32\n    %34 = \"llvm.fdiv\"(%arg3, %arg3) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32\n    %35 = \"llvm.frem\"(%arg3, %arg3) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, f32) -> f32\n    %36 = \"llvm.fcmp\"(%arg3, %arg3) <{fastmathFlags = #llvm.fastmath<nnan, ninf>, predicate = 14 : i64}> : (f32, f32) -> i1\n    %37 = \"llvm.select\"(%4, %arg3, %arg3) <{fastmathFlags = #llvm.fastmath<nnan>}> : (i1, f32, f32) -> f32\n    %38 = \"llvm.icmp\"(%arg2, %arg2) <{predicate = 1 : i64}> : (!llvm.ptr, !llvm.ptr) -> i1\n    %39 = \"llvm.mlir.undef\"() : () -> !llvm.struct<(i32, array<2 x f32>)>\n    %40 = \"llvm.insertvalue\"(%39, %arg3) <{position = array<i64: 1, 0>}> : (!llvm.struct<(i32, array<2 x f32>)>, f32) -> !llvm.struct<(i32, array<2 x f32>)>\n    %41 = \"llvm.extractvalue\"(%40) <{position = array<i64: 1>}> : (!llvm.struct<(i32, array<2 x f32>)>) -> !llvm.array<2 x f32>\n    \"llvm.cond_br\"(%4)[^bb1, ^bb2] <{branch_weights = array<i32: 1, 2>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i1) -> ()\n  ^bb1:  // pred: ^bb0\n    \"llvm.return\"() : () -> ()\n  ^bb2:  // pred: ^bb0\n    \"llvm.return\"() : () -> ()\n  }) : () -> ()\n}) : () -> ()"),
 ("llvm.func internal @g(%x: i32 {llvm.noundef}) -> i32 attributes {passthrough = [\"nounwind\"]} {\n  llvm.return %x : i32\n}\nllvm.func @h(%p: !llvm.ptr) -> !llvm.struct<(i32, f64)> {\n  %0 = llvm.load %p invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.struct<(i32, f64)>\n  llvm.return %0 : !llvm.struct<(i32, f64)>\n}\n",
  "module {\n  llvm.func internal @g(%arg0: i32 {llvm.noundef}) -> i32 attributes {passthrough = [\"nounwind\"]} {\n    llvm.return %arg0 : i32\n  }\n  llvm.func @h(%arg0: !llvm.ptr) -> !llvm.struct<(i32, f64)> {\n    %0 = llvm.load %arg0 invariant {alignment = 8 : i64} : !llvm.ptr -> !llvm.struct<(i32, f64)>\n    llvm.return %0 : !llvm.struct<(i32, f64)>\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, arg_attrs = [{llvm.noundef}], function_type = !llvm.func<i32 (i32)>, linkage = #llvm.linkage<internal>, passthrough = [\"nounwind\"], sym_name = \"g\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  ^bb0(%arg1: i32):\n    \"llvm.return\"(%arg1) : (i32) -> ()\n  }) : () -> ()\n  \"llvm.func\"() <{CConv = #llvm.cconv<ccc>, function_type = !llvm.func<struct<(i32, f64)> (ptr)>, linkage = #llvm.linkage<external>, sym_name = \"h\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n  ^bb0(%arg0: !llvm.ptr):\n    %0 = \"llvm.load\"(%arg0) <{alignment = 8 : i64, invariant, ordering = 0 : i64}> : (!llvm.ptr) -> !llvm.struct<(i32, f64)>\n    \"llvm.return\"(%0) : (!llvm.struct<(i32, f64)>) -> ()\n  }) : () -> ()\n}) : () -> ()"),
 ("llvm.mlir.global external @z() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {\n  %0 = llvm.mlir.zero : !llvm.struct<(i32, ptr)>\n  llvm.return %0 : !llvm.struct<(i32, ptr)>\n}\nllvm.mlir.global private constant @s(\"hi\\00\") {addr_space = 0 : i32}\nfunc.func @main(%a: i64) -> i64 {\n  %p = llvm.mlir.addressof @z : !llvm.ptr\n  %i = llvm.ptrtoint %p : !llvm.ptr to i64\n  %j = llvm.and %i, %a : i64\n  %k = llvm.xor %j, %a : i64\n  %q = llvm.inttoptr %k : i64 to !llvm.ptr\n  llvm.br ^bb1(%k, %q : i64, !llvm.ptr)\n^bb1(%x: i64, %y: !llvm.ptr):\n  return %x : i64\n}\n",
  "module {\n  llvm.mlir.global external @z() {addr_space = 0 : i32} : !llvm.struct<(i32, ptr)> {\n    %0 = llvm.mlir.zero : !llvm.struct<(i32, ptr)>\n    llvm.return %0 : !llvm.struct<(i32, ptr)>\n  }\n  llvm.mlir.global private constant @s(\"hi\\00\") {addr_space = 0 : i32}\n  func.func @main(%arg0: i64) -> i64 {\n    %0 = llvm.mlir.addressof @z : !llvm.ptr\n    %1 = llvm.ptrtoint %0 : !llvm.ptr to i64\n    %2 = llvm.and %1, %arg0 : i64\n    %3 = llvm.xor %2, %arg0 : i64\n    %4 = llvm.inttoptr %3 : i64 to !llvm.ptr\n    llvm.br ^bb1(%3, %4 : i64, !llvm.ptr)\n  ^bb1(%5: i64, %6: !llvm.ptr):  // pred: ^bb0\n    return %5 : i64\n  }\n}",
  "\"builtin.module\"() ({\n  \"llvm.mlir.global\"() <{addr_space = 0 : i32, global_type = !llvm.struct<(i32, ptr)>, linkage = #llvm.linkage<external>, sym_name = \"z\", unnamed_addr = 0 : i64, visibility_ = 0 : i64}> ({\n    %7 = \"llvm.mlir.zero\"() : () -> !llvm.struct<(i32, ptr)>\n    \"llvm.return\"(%7) : (!llvm.struct<(i32, ptr)>) -> ()\n  }) : () -> ()\n  \"llvm.mlir.global\"() <{addr_space = 0 : i32, constant, global_type = !llvm.array<3 x i8>, linkage = #llvm.linkage<private>, sym_name = \"s\", unnamed_addr = 0 : i64, value = \"hi\\00\", visibility_ = 0 : i64}> ({\n  }) : () -> ()\n  \"func.func\"() <{function_type = (i64) -> i64, sym_name = \"main\"}> ({\n  ^bb0(%arg0: i64):\n    %0 = \"llvm.mlir.addressof\"() <{global_name = @z}> : () -> !llvm.ptr\n    %1 = \"llvm.ptrtoint\"(%0) : (!llvm.ptr) -> i64\n    %2 = \"llvm.and\"(%1, %arg0) : (i64, i64) -> i64\n    %3 = \"llvm.xor\"(%2, %arg0) : (i64, i64) -> i64\n    %4 = \"llvm.inttoptr\"(%3) : (i64) -> !llvm.ptr\n    \"llvm.br\"(%3, %4)[^bb1] : (i64, !llvm.ptr) -> ()\n  ^bb1(%5: i64, %6: !llvm.ptr):  // pred: ^bb0\n    \"func.return\"(%5) : (i64) -> ()\n  }) : () -> ()\n}) : () -> ()"),
]

# (input, mlir-opt's first error: line:col: message)
ERRORS = [
 ("llvm.func @f(%a: i32, %b: i64) {\n  %0 = llvm.add %a, %b : i32\n  llvm.return\n}\n",
  "2:21: use of value '%b' expects different type than prior uses: 'i32' vs 'i64'"),
 ("llvm.func @f(%a: f32) {\n  %0 = llvm.add %a, %a : f32\n  llvm.return\n}\n",
  "2:8: 'llvm.add' op operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'"),
 ("llvm.func @f(%a: i32) -> i32 {\n  llvm.return\n}\n",
  "2:3: 'llvm.return' op expected 1 operand"),
 ("llvm.func @f(%a: i32) {\n  llvm.return %a : i32\n}\n",
  "2:3: 'llvm.return' op expected no operands"),
 ("llvm.func @f(%a: i32) -> i64 {\n  llvm.return %a : i32\n}\n",
  "2:3: 'llvm.return' op mismatching result types"),
 ("llvm.func @f(%a: !llvm.struct<(i32, f32)>) {\n  %0 = llvm.extractvalue %a[2] : !llvm.struct<(i32, f32)>\n  llvm.return\n}\n",
  "3:3: custom op 'llvm.extractvalue' position out of bounds: 2"),
 ("llvm.func @f(%a: !llvm.array<3 x i32>, %x: f32) {\n  %0 = llvm.insertvalue %x, %a[0] : !llvm.array<3 x i32>\n  llvm.return\n}\n",
  "2:25: use of value '%x' expects different type than prior uses: 'i32' vs 'f32'"),
 ("llvm.func @f(%a: !llvm.array<3 x i32>) {\n  %0 = llvm.extractvalue %a[0, 1] : !llvm.array<3 x i32>\n  llvm.return\n}\n",
  "3:3: custom op 'llvm.extractvalue' expected LLVM IR structure/array type, got: 'i32'"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.extractvalue %a[0] : i32\n  llvm.return\n}\n",
  "3:3: custom op 'llvm.extractvalue' expected LLVM IR structure/array type, got: 'i32'"),
 ("llvm.mlir.global internal @g(1 : i32) : i32 {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n  llvm.return %0 : i32\n}\n",
  "1:1: 'llvm.mlir.global' op cannot have both initializer value and region"),
 ("llvm.mlir.global internal @g() : i32 {\n  %0 = llvm.mlir.constant(1 : i64) : i64\n  llvm.return %0 : i64\n}\n",
  "1:1: 'llvm.mlir.global' op initializer region type 'i64' does not match global type 'i32'"),
 ("llvm.mlir.global internal @g() : i32 {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n  llvm.return\n}\n",
  "1:1: 'llvm.mlir.global' op initializer region cannot return void"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.icmp \"foo\" %a, %a : i32\n  llvm.return\n}\n",
  "2:18: custom op 'llvm.icmp' 'foo' is an incorrect value of the 'predicate' attribute"),
 ("llvm.func @f(%a: i32) {\n  llvm.cond_br %a, ^bb1, ^bb1\n^bb1:\n  llvm.return\n}\n",
  "2:16: use of value '%a' expects different type than prior uses: 'i1' vs 'i32'"),
 ("llvm.func @f(%a: i32) {\n  llvm.br ^bb1(%a : i32)\n^bb1:\n  llvm.return\n}\n",
  "2:3: branch has 1 operands for successor #0, but target block has 0"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.sext %a : i32 to i16\n  llvm.return\n}\n",
  "2:8: integer width of the output type is smaller or equal to the integer width of the input type"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.zext %a : i32 to i32\n  llvm.return\n}\n",
  "2:8: integer width of the output type is smaller or equal to the integer width of the input type"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.load %a : i32 -> i32\n  llvm.return\n}\n",
  "2:8: 'llvm.load' op operand #0 must be LLVM pointer type, but got 'i32'"),
 ("llvm.func @f(%p: !llvm.ptr) {\n  %0 = llvm.load %p atomic monotonic : !llvm.ptr -> i32\n  llvm.return\n}\n",
  "2:8: 'llvm.load' op expected alignment for atomic access"),
 ("llvm.func @f(%p: !llvm.ptr, %a: f32) {\n  %0 = llvm.alloca %a x i32 : (f32) -> !llvm.ptr\n  llvm.return\n}\n",
  "2:8: 'llvm.alloca' op operand #0 must be signless integer, but got 'f32'"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.select %a, %a, %a : i32, i32\n  llvm.return\n}\n",
  "2:8: 'llvm.select' op operand #0 must be 1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer, but got 'i32'"),
 ("llvm.func @f(%a: f32) {\n  %0 = llvm.fadd %a, %a : i32\n  llvm.return\n}\n",
  "2:18: use of value '%a' expects different type than prior uses: 'i32' vs 'f32'"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.mlir.constant(\"abc\") : i32\n  llvm.return\n}\n",
  "2:8: 'llvm.mlir.constant' op expected array type of 3 i8 elements for the string constant"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.sdiv exact %a, %a overflow<nsw> : i32\n  llvm.return\n}\n",
  "2:30: expected ':'"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.add %a, %a overflow<foo> : i32\n  llvm.return\n}\n",
  "2:33: custom op 'llvm.add' expected one of [none, nsw, nuw] for LLVM integer overflow flags, got: foo"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.ptrtoint %a : i32 to i64\n  llvm.return\n}\n",
  "2:8: 'llvm.ptrtoint' op operand #0 must be LLVM pointer type or LLVM dialect-compatible vector of LLVM pointer type, but got 'i32'"),
 ("llvm.func internal @f(%a: i32)\n",
  "1:1: 'llvm.func' op external functions must have 'external' or 'extern_weak' linkage"),
 ("llvm.func @f(i32) {\n  llvm.return\n}\n",
  "1:1: 'llvm.func' op entry block must have 1 arguments to match function signature"),
 ("llvm.func @f(%a: i32) {\n^bb0(%b: i32):\n  llvm.return\n}\n",
  "2:1: invalid block name in region with named arguments"),
 ("llvm.mlir.global internal constant @g() : i32 {\n  %0 = llvm.mlir.constant(1 : i32) : i32\n  llvm.br ^bb1\n^bb1:\n  llvm.return %0 : i32\n}\n",
  "1:1: 'llvm.mlir.global' op expects region #0 to have 0 or 1 blocks"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.fneg %a : i32\n  llvm.return\n}\n",
  "2:8: 'llvm.fneg' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'"),
 ("llvm.func @f(%a: i1) {\n  %0 = llvm.icmp \"slt\" %a, %a : i32\n  llvm.return\n}\n",
  "2:24: use of value '%a' expects different type than prior uses: 'i32' vs 'i1'"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.mlir.constant(1 : i32) : f32\n  llvm.return\n}\n",
  "2:8: 'llvm.mlir.constant' op expected integer type"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.sitofp %a : i32 to i32\n  llvm.return\n}\n",
  "2:8: 'llvm.sitofp' op result #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'"),
 ("llvm.func @f(%a: i32) {\n  %0 = llvm.fpext %a : i32 to f32\n  llvm.return\n}\n",
  "2:8: 'llvm.fpext' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'"),
 ("llvm.func @f(%a: !llvm.struct<(i32, f32)>) {\n  %0 = llvm.extractvalue %a[-1] : !llvm.struct<(i32, f32)>\n  llvm.return\n}\n",
  "3:3: custom op 'llvm.extractvalue' position out of bounds: -1"),
]



@pytest.mark.parametrize("case", range(len(VALID)))
def test_text_as_mlir_opt(case):
    text, custom, generic = VALID[case]
    assert _ours(text) == custom
    assert _ours(text, generic=True) == generic
    # our output reads back to itself, in both forms
    assert _ours(custom) == custom
    assert _ours(generic, generic=True) == generic
    assert _ours(generic) == custom


@pytest.mark.parametrize("case", range(len(ERRORS)))
def test_errors_as_mlir_opt(case):
    text, error = ERRORS[case]
    assert _our_error(text) == error


@_needs_mlir_opt
def test_expectations_are_mlir_opts():
    for text, custom, generic in VALID:
        assert _mlir(text) == custom
        assert _mlir(text, generic=True) == generic
    for text, error in ERRORS:
        assert _mlir_error(text) == error


# -- execution ---------------------------------------------------------------------------------

def _run(src: str, *args):
    return tileir.gpu.run(tileir.parse(src), "main", args=list(args))


def _binary(body: str, a, b, rt: str = "i32"):
    src = f"""module {{
  llvm.func @f(%a: i32, %b: i32) -> {rt} {{
{body}
  }}
  func.func @main(%a: i32, %b: i32) -> {rt} {{
    %r = llvm.call @f(%a, %b) : (i32, i32) -> {rt}
    return %r : {rt}
  }}
}}"""
    return _run(src, a, b)[0]


PROGRAM = r"""module {
  llvm.mlir.global internal constant @tbl() {addr_space = 0 : i32} : !llvm.array<3 x i32> {
    %0 = llvm.mlir.undef : !llvm.array<3 x i32>
    %1 = llvm.mlir.constant(10 : i32) : i32
    %2 = llvm.insertvalue %1, %0[0] : !llvm.array<3 x i32>
    %3 = llvm.mlir.constant(20 : i32) : i32
    %4 = llvm.insertvalue %3, %2[1] : !llvm.array<3 x i32>
    %5 = llvm.mlir.constant(30 : i32) : i32
    %6 = llvm.insertvalue %5, %4[2] : !llvm.array<3 x i32>
    llvm.return %6 : !llvm.array<3 x i32>
  }
  llvm.mlir.global internal @counter(5 : i64) {addr_space = 0 : i32} : i64
  llvm.func @lookup(%i: i64) -> i32 {
    %p = llvm.mlir.addressof @tbl : !llvm.ptr
    %q = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<3 x i32>
    %v = llvm.load %q : !llvm.ptr -> i32
    llvm.return %v : i32
  }
  llvm.func @sum(%n: i32) -> i32 {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %acc = llvm.alloca %c1 x i32 : (i32) -> !llvm.ptr
    llvm.store %c0, %acc : i32, !llvm.ptr
    llvm.br ^loop(%c0 : i32)
  ^loop(%i: i32):
    %done = llvm.icmp "sge" %i, %n : i32
    llvm.cond_br %done, ^exit, ^body
  ^body:
    %a = llvm.load %acc : !llvm.ptr -> i32
    %b = llvm.add %a, %i : i32
    llvm.store %b, %acc : i32, !llvm.ptr
    %j = llvm.add %i, %c1 overflow<nsw> : i32
    llvm.br ^loop(%j : i32)
  ^exit:
    %r = llvm.load %acc : !llvm.ptr -> i32
    llvm.return %r : i32
  }
  llvm.func @bump() -> i64 {
    %p = llvm.mlir.addressof @counter : !llvm.ptr
    %v = llvm.load %p : !llvm.ptr -> i64
    %c = llvm.mlir.constant(1 : i64) : i64
    %w = llvm.add %v, %c : i64
    llvm.store %w, %p : i64, !llvm.ptr
    llvm.return %w : i64
  }
  llvm.func @both(%i: i64, %n: i32) -> i32 {
    %a = llvm.call @lookup(%i) : (i64) -> i32
    %b = llvm.call @sum(%n) : (i32) -> i32
    %r = llvm.add %a, %b : i32
    llvm.return %r : i32
  }
  func.func @main(%i: i64, %n: i32) -> (i32, i32, i64, i32) {
    %a = llvm.call @lookup(%i) : (i64) -> i32
    %b = llvm.call @sum(%n) : (i32) -> i32
    %x = llvm.call @bump() : () -> i64
    %y = llvm.call @bump() : () -> i64
    %z = llvm.call @both(%i, %n) : (i64, i32) -> i32
    return %a, %b, %y, %z : i32, i32, i64, i32
  }
}"""


def test_program_of_functions_globals_allocas_and_loops():
    # table[i]; 0 + 1 + ... + (n - 1); the counter (5) bumped twice; table[i] + sum
    assert [int(x) for x in _run(PROGRAM, 2, 10)] == [30, 45, 7, 75]
    assert [int(x) for x in _run(PROGRAM, 0, 0)] == [10, 0, 7, 10]
    # each run initialises the globals afresh
    assert [int(x) for x in _run(PROGRAM, 1, 3)] == [20, 3, 7, 23]


@pytest.mark.parametrize("body, a, b, want", [
    ("%r = llvm.add %a, %b : i32", 2**31 - 1, 1, -2**31),              # wraps
    ("%r = llvm.sub %a, %b : i32", -2**31, 1, 2**31 - 1),
    ("%r = llvm.mul %a, %b : i32", 65536, 65536, 0),
    ("%r = llvm.sdiv %a, %b : i32", -7, 2, -3),                         # truncates
    ("%r = llvm.udiv %a, %b : i32", -2, 2, 2**31 - 1),
    ("%r = llvm.srem %a, %b : i32", -7, 2, -1),
    ("%r = llvm.urem %a, %b : i32", -1, 10, 5),                          # 4294967295 % 10
    ("%r = llvm.and %a, %b : i32", 12, 10, 8),
    ("%r = llvm.or %a, %b : i32", 12, 10, 14),
    ("%r = llvm.xor %a, %b : i32", 12, 10, 6),
    ("%r = llvm.shl %a, %b : i32", 3, 30, -2**30),
    ("%r = llvm.lshr %a, %b : i32", -16, 28, 15),
    ("%r = llvm.ashr %a, %b : i32", -16, 2, -4),
    ("%r = llvm.sdiv exact %a, %b : i32", -8, 2, -4),
    ("%r = llvm.or disjoint %a, %b : i32", 12, 3, 15),
    ("%r = llvm.add %a, %b overflow<nsw, nuw> : i32", 5, 6, 11),
    ("%c = llvm.icmp \"ult\" %a, %b : i32\n    %r = llvm.zext %c : i1 to i32", -1, 1, 0),
    ("%c = llvm.icmp \"slt\" %a, %b : i32\n    %r = llvm.zext %c : i1 to i32", -1, 1, 1),
    ("%c = llvm.icmp \"slt\" %a, %b : i32\n    %r = llvm.sext %c : i1 to i32", -1, 1, -1),
    ("%t = llvm.trunc %a : i32 to i8\n    %r = llvm.sext %t : i8 to i32", 200, 0, -56),
    ("%t = llvm.trunc %a : i32 to i8\n    %r = llvm.zext %t : i8 to i32", -56, 0, 200),
    ("%x = llvm.sitofp %a : i32 to f64\n    %y = llvm.sitofp %b : i32 to f64\n"
     "    %z = llvm.fdiv %x, %y : f64\n    %c = llvm.fcmp \"ogt\" %z, %x : f64\n"
     "    %s = llvm.select %c, %z, %x : i1, f64\n    %r = llvm.fptosi %s : f64 to i32", 7, 2, 7),
    ("%x = llvm.sitofp %a : i32 to f32\n    %y = llvm.uitofp %b : i32 to f32\n"
     "    %m = llvm.fmul %x, %y : f32\n    %n = llvm.fneg %m : f32\n"
     "    %e = llvm.fpext %n : f32 to f64\n    %r = llvm.fptosi %e : f64 to i32", 3, 4, -12),
    ("%x = llvm.bitcast %a : i32 to f32\n    %y = llvm.fadd %x, %x : f32\n"
     "    %r = llvm.bitcast %y : f32 to i32", 0x3F800000, 0, 0x40000000),   # 1.0 + 1.0
])
def test_integer_and_float_semantics(body, a, b, want):
    assert int(_binary(f"    {body}\n    llvm.return %r : i32", a, b)) == want


@pytest.mark.parametrize("body, a, b, message", [
    ("%r = llvm.add %a, %b overflow<nsw> : i32", 2**31 - 1, 1, "with nsw overflows"),
    ("%r = llvm.add %a, %b overflow<nuw> : i32", -1, 1, "with nuw overflows"),
    ("%r = llvm.sub %a, %b overflow<nuw> : i32", 1, 2, "with nuw overflows"),
    ("%r = llvm.mul %a, %b overflow<nsw> : i32", 65536, 32768, "with nsw overflows"),
    ("%r = llvm.shl %a, %b overflow<nuw> : i32", 3, 31, "with nuw overflows"),
    ("%r = llvm.sdiv exact %a, %b : i32", 7, 2, "exact with a remainder"),
    ("%r = llvm.lshr exact %a, %b : i32", 7, 1, "exact shifts out set bits"),
    ("%r = llvm.or disjoint %a, %b : i32", 3, 1, "disjoint with common set bits"),
    ("%t = llvm.trunc %a overflow<nsw> : i32 to i8\n    %r = llvm.sext %t : i8 to i32", 200,
     0, "with nsw changes the signed value"),
    ("%r = llvm.zext nneg %a : i32 to i32", -1, 0, None),   # (verifier: not wider)
    ("%r = llvm.sdiv %a, %b : i32", 1, 0, "division by zero"),
])
def test_poison_and_undefined_behaviour_are_reported(body, a, b, message):
    if message is None:
        with pytest.raises(tileir.DiagnosticError):
            _binary(f"    {body}\n    llvm.return %r : i32", a, b)
        return
    with pytest.raises(UndefinedBehaviorError, match=message):
        _binary(f"    {body}\n    llvm.return %r : i32", a, b)


def test_structs_in_allocas_pointers_in_memory_and_addresses():
    body = """    %one = llvm.mlir.constant(1 : i32) : i32
    %p = llvm.alloca %one x !llvm.struct<(i8, i64, ptr)> : (i32) -> !llvm.ptr
    %q = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i8, i64, ptr)>
    %w = llvm.sext %a : i32 to i64
    llvm.store %w, %q : i64, !llvm.ptr
    %pp = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i8, i64, ptr)>
    llvm.store %q, %pp : !llvm.ptr, !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> !llvm.struct<(i8, i64, ptr)>
    %q2 = llvm.extractvalue %s[2] : !llvm.struct<(i8, i64, ptr)>
    %v = llvm.load %q2 : !llvm.ptr -> i64
    %i1 = llvm.ptrtoint %q : !llvm.ptr to i64
    %i0 = llvm.ptrtoint %p : !llvm.ptr to i64
    %d = llvm.sub %i1, %i0 : i64
    %back = llvm.inttoptr %i1 : i64 to !llvm.ptr
    %same = llvm.icmp "eq" %back, %q : !llvm.ptr
    %v2 = llvm.load %back : !llvm.ptr -> i64
    %t = llvm.trunc %v2 : i64 to i32
    %dt = llvm.trunc %d : i64 to i32
    %r0 = llvm.add %t, %dt : i32
    %z = llvm.mlir.constant(0 : i32) : i32
    %r = llvm.select %same, %r0, %z : i1, i32
    llvm.return %r : i32"""
    # the i64 member sits at offset 8 (natural alignment): -100 + 8
    assert int(_binary(body, -100, 0)) == -92


def test_recursion_wraps_like_llvm():
    src = """module {
  llvm.func @fact(%n: i64) -> i64 {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %le = llvm.icmp "sle" %n, %c1 : i64
    llvm.cond_br %le, ^base, ^rec
  ^base:
    llvm.return %c1 : i64
  ^rec:
    %m = llvm.sub %n, %c1 overflow<nsw> : i64
    %f = llvm.call @fact(%m) : (i64) -> i64
    %r = llvm.mul %n, %f : i64
    llvm.return %r : i64
  }
  func.func @main(%n: i64) -> i64 {
    %r = llvm.call @fact(%n) : (i64) -> i64
    return %r : i64
  }
}"""
    assert int(_run(src, 20)[0]) == 2432902008176640000
    wrapped = 51090942171709440000 % 2**64          # 21! modulo 2**64, read signed
    assert int(_run(src, 21)[0]) == wrapped - 2**64


def test_dense_global_bounds_and_constant_globals():
    src = """module {
  llvm.mlir.global internal @g(dense<[1, 2, 3]> : tensor<3xi32>) {addr_space = 0 : i32} : !llvm.array<3 x i32>
  func.func @main(%i: i64) -> i32 {
    %p = llvm.mlir.addressof @g : !llvm.ptr
    %q = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i32
    %v = llvm.load %q : !llvm.ptr -> i32
    return %v : i32
  }
}"""
    assert int(_run(src, 2)[0]) == 3
    with pytest.raises(UndefinedBehaviorError, match="offset 12 of 'g' .12 bytes. is out of"):
        _run(src, 3)
    const = """module {
  llvm.mlir.global internal constant @c(7 : i32) {addr_space = 0 : i32} : i32
  func.func @main() {
    %p = llvm.mlir.addressof @c : !llvm.ptr
    %v = llvm.mlir.constant(1 : i32) : i32
    llvm.store %v, %p : i32, !llvm.ptr
    return
  }
}"""
    with pytest.raises(UndefinedBehaviorError, match="store to constant global '@c'"):
        _run(const)
    null = """module {
  func.func @main() -> i32 {
    %p = llvm.mlir.zero : !llvm.ptr
    %v = llvm.load %p : !llvm.ptr -> i32
    return %v : i32
  }
}"""
    with pytest.raises(UndefinedBehaviorError, match="null pointer"):
        _run(null)


def test_global_initializer_runs_once_and_printf_reads_region_globals():
    import io
    src = r"""module {
  llvm.func @printf(!llvm.ptr, ...) -> i32
  llvm.mlir.global internal constant @fmt("%d %d\0A\00") {addr_space = 0 : i32}
  llvm.mlir.global internal @pair() {addr_space = 0 : i32} : !llvm.struct<(i32, i32)> {
    %0 = llvm.mlir.zero : !llvm.struct<(i32, i32)>
    %1 = llvm.mlir.constant(4 : i32) : i32
    %2 = llvm.insertvalue %1, %0[1] : !llvm.struct<(i32, i32)>
    llvm.return %2 : !llvm.struct<(i32, i32)>
  }
  llvm.func @incr() {
    %p = llvm.mlir.addressof @pair : !llvm.ptr
    %q = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, i32)>
    %v = llvm.load %q : !llvm.ptr -> i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %w = llvm.add %v, %one : i32
    llvm.store %w, %q : i32, !llvm.ptr
    llvm.return
  }
  func.func @main() {
    llvm.call @incr() : () -> ()
    llvm.call @incr() : () -> ()
    %p = llvm.mlir.addressof @pair : !llvm.ptr
    %s = llvm.load %p : !llvm.ptr -> !llvm.struct<(i32, i32)>
    %a = llvm.extractvalue %s[0] : !llvm.struct<(i32, i32)>
    %b = llvm.extractvalue %s[1] : !llvm.struct<(i32, i32)>
    %f = llvm.mlir.addressof @fmt : !llvm.ptr
    %r = llvm.call @printf(%f, %a, %b) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, i32) -> i32
    return
  }
}"""
    out = io.StringIO()
    tileir.gpu.run(tileir.parse(src), "main", stdout=out)
    assert out.getvalue() == "0 6\n"


FREEZE = """func.func @f(%x: i32, %v: vector<4xf32>) -> i32 {
  %f = llvm.freeze %x : i32
  %g = llvm.freeze %v : vector<4xf32>
  return %f : i32
}"""
#: mlir-opt 22's custom and generic output for FREEZE
FREEZE_CUSTOM = """module {
  func.func @f(%arg0: i32, %arg1: vector<4xf32>) -> i32 {
    %0 = llvm.freeze %arg0 : i32
    %1 = llvm.freeze %arg1 : vector<4xf32>
    return %0 : i32
  }
}"""
FREEZE_GENERIC_OP = '%0 = "llvm.freeze"(%arg0) : (i32) -> i32'


def test_freeze_text_verifier_and_value():
    assert _ours(FREEZE) == FREEZE_CUSTOM
    assert FREEZE_GENERIC_OP in _ours(FREEZE, generic=True)
    bad = 'func.func @f(%x: i32) -> i64 {\n  %f = "llvm.freeze"(%x) : (i32) -> i64\n  return %f : i64\n}'
    assert _our_error(bad) == ("2:8: 'llvm.freeze' op requires the same type for all operands "
                               "and results")
    src = """func.func @main(%x: i32) -> (i32, i64) {
  %f = llvm.freeze %x : i32
  %u = llvm.mlir.undef : i64
  %g = llvm.freeze %u : i64
  return %f, %g : i32, i64
}"""
    assert [int(v) for v in _run(src, -7)] == [-7, 0]


@_needs_mlir_opt
def test_freeze_expectations_are_mlir_opts():
    assert _mlir(FREEZE) == FREEZE_CUSTOM
    assert FREEZE_GENERIC_OP in _mlir(FREEZE, generic=True)


SWITCH = """llvm.func @f(%x: i32) -> i32 {
  llvm.switch %x : i32, ^bb1(%x : i32) [
    0: ^bb2,
    -5: ^bb1(%x : i32)
  ] {branch_weights = array<i32: 1, 2, 3>}
^bb1(%a: i32):
  llvm.return %a : i32
^bb2:
  %c = llvm.mlir.constant(7 : i32) : i32
  llvm.return %c : i32
}
llvm.func @g(%x: i64) {
  llvm.switch %x : i64, ^bb1 [
  ]
^bb1:
  llvm.return
}"""
#: mlir-opt 22's output for SWITCH (custom form; the generic form's switch lines)
SWITCH_CUSTOM = """module {
  llvm.func @f(%arg0: i32) -> i32 {
    llvm.switch %arg0 : i32, ^bb1(%arg0 : i32) [
      0: ^bb2,
      -5: ^bb1(%arg0 : i32)
    ] {branch_weights = array<i32: 1, 2, 3>}
  ^bb1(%0: i32):  // 2 preds: ^bb0, ^bb0
    llvm.return %0 : i32
  ^bb2:  // pred: ^bb0
    %1 = llvm.mlir.constant(7 : i32) : i32
    llvm.return %1 : i32
  }
  llvm.func @g(%arg0: i64) {
    llvm.switch %arg0 : i64, ^bb1 [
    ]
  ^bb1:  // pred: ^bb0
    llvm.return
  }
}"""
SWITCH_GENERIC = [
    '"llvm.switch"(%arg1, %arg1, %arg1)[^bb1, ^bb2, ^bb1] <{branch_weights = array<i32: 1, 2, '
    '3>, case_operand_segments = array<i32: 0, 1>, case_values = dense<[0, -5]> : vector<2xi32>,'
    ' operandSegmentSizes = array<i32: 1, 1, 1>}> : (i32, i32, i32) -> ()',
    '"llvm.switch"(%arg0)[^bb1] <{case_operand_segments = array<i32>, operandSegmentSizes = '
    'array<i32: 1, 0, 0>}> : (i64) -> ()']
SWITCH_ERRORS = [
    ('llvm.func @f(%x: i32) -> i32 {\n  "llvm.switch"(%x)[^bb1, ^bb1] <{case_operand_segments = '
     'array<i32: 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()\n^bb1:\n  '
     'llvm.return %x : i32\n}',
     "2:3: 'llvm.switch' op expects number of case values to match number of case "
     "destinations"),
    ('llvm.func @f(%x: i32) -> i32 {\n  llvm.switch %x : i32, ^bb1 [\n    1: ^bb1\n  ] '
     '{branch_weights = array<i32: 4>}\n^bb1:\n  llvm.return %x : i32\n}',
     "2:3: expects number of branch weights to match number of successors: 1 vs 2"),
    ('llvm.func @f(%x: f32) -> f32 {\n  llvm.switch %x : f32, ^bb1 [\n  ]\n^bb1:\n  '
     'llvm.return %x : f32\n}',
     "2:20: custom op 'llvm.switch' invalid kind of type specified: expected builtin.integer, "
     "but found 'f32'"),
]


def test_switch_text_and_verifier_as_mlir_opt():
    assert _ours(SWITCH) == SWITCH_CUSTOM
    generic = _ours(SWITCH, generic=True)
    assert all(line in generic for line in SWITCH_GENERIC)
    for text, want in SWITCH_ERRORS:
        assert _our_error(text) == want


@_needs_mlir_opt
def test_switch_expectations_are_mlir_opts():
    assert _mlir(SWITCH) == SWITCH_CUSTOM
    generic = _mlir(SWITCH, generic=True)
    assert all(line in generic for line in SWITCH_GENERIC)
    for text, want in SWITCH_ERRORS:
        assert _mlir_error(text) == want


def test_switch_runs_on_the_host():
    src = """module {
  llvm.func @f(%x: i32) -> i32 {
    llvm.switch %x : i32, ^bb1(%x : i32) [
      0: ^bb2,
      -5: ^bb3(%x : i32)
    ]
  ^bb1(%a: i32):
    llvm.return %a : i32
  ^bb2:
    %c = llvm.mlir.constant(7 : i32) : i32
    llvm.return %c : i32
  ^bb3(%b: i32):
    %m = llvm.mul %b, %b : i32
    llvm.return %m : i32
  }
  func.func @main(%x: i32) -> i32 {
    %r = llvm.call @f(%x) : (i32) -> i32
    return %r : i32
  }
}"""
    assert [int(_run(src, x)[0]) for x in (0, -5, 3)] == [7, 25, 3]
