"""affine.for / affine.if / affine.yield: custom and generic text (byte-for-byte as mlir-opt 22
prints it, checked against mlir-opt when installed), verifier messages, and execution on the
host and in kernels (thread-dependent bounds, divergent conditions) against NumPy."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.ir.diagnostics import DiagnosticError

_MLIR_OPT = next((p for p in ("/usr/lib/llvm-22/bin/mlir-opt", shutil.which("mlir-opt") or "")
                  if p and os.path.exists(p)), None)


def _mlir_opt(text: str, *flags: str) -> subprocess.CompletedProcess:
    if _MLIR_OPT is None:
        pytest.skip("mlir-opt 22 not installed")
    return subprocess.run([_MLIR_OPT, *flags, "-"], input=text, capture_output=True, text=True)


@functools.lru_cache(maxsize=None)
def _module(text: str):
    """Parse and verify ``text`` (mlir-opt must accept it too, when installed)."""
    if _MLIR_OPT is not None:
        r = subprocess.run([_MLIR_OPT, "-"], input=text, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    module = tileir.parse(text)
    tileir.verify(module)
    return module


# -- text --------------------------------------------------------------------------------------

SOURCE = """
#lb = affine_map<(d0)[s0] -> (d0, s0 + 1)>
#ub = affine_map<(d0)[s0] -> (d0 + 10, s0 * 2)>
#set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 mod 2 == 0)>
func.func @f(%n: index, %m: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    affine.for %j = -2 to %n step 2 {
      %v = affine.load %m[%i + %j] : memref<?xf32>
      affine.store %v, %m[%j] : memref<?xf32>
    }
  }
  affine.for %i = max #lb(%n)[%n] to min #ub(%n)[%n] {
  } {tag = 1 : i32}
  affine.for %i = %n to affine_map<(d0) -> (d0 + 4)>(%n) step 3 {
    affine.yield
  }
  %r = affine.for %i = 0 to 10 iter_args(%acc = %c0) -> f32 {
    %v = affine.load %m[%i] : memref<?xf32>
    %s = arith.addf %acc, %v : f32
    affine.yield %s : f32
  }
  %r2:2 = affine.for %i = 0 to 10 iter_args(%a = %c0, %b = %r) -> (f32, f32) {
    affine.yield %b, %a : f32, f32
  }
  affine.if #set(%n)[%n] {
    affine.store %c0, %m[%n] : memref<?xf32>
  }
  %q = affine.if #set(%n)[%n] -> f32 {
    affine.yield %c0 : f32
  } else {
    affine.yield %r : f32
  }
  %q2:2 = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> (f32, index) {
    affine.yield %c0, %n : f32, index
  } else {
    affine.yield %r, %n : f32, index
  }
  affine.if affine_set<() : (0 == 0)>() {
  } else {
  }
  return %q : f32
}
"""

CUSTOM = """\
#map = affine_map<(d0)[s0] -> (d0, s0 + 1)>
#map1 = affine_map<(d0)[s0] -> (d0 + 10, s0 * 2)>
#map2 = affine_map<(d0) -> (d0 + 4)>
#set = affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 mod 2 == 0)>
#set1 = affine_set<(d0) : (d0 >= 0)>
#set2 = affine_set<() : (0 == 0)>
module {
  func.func @f(%arg0: index, %arg1: memref<?xf32>) -> f32 {
    %cst = arith.constant 0.000000e+00 : f32
    affine.for %arg2 = 0 to 10 {
      affine.for %arg3 = -2 to %arg0 step 2 {
        %4 = affine.load %arg1[%arg2 + %arg3] : memref<?xf32>
        affine.store %4, %arg1[%arg3] : memref<?xf32>
      }
    }
    affine.for %arg2 = max #map(%arg0)[%arg0] to min #map1(%arg0)[%arg0] {
    } {tag = 1 : i32}
    affine.for %arg2 = %arg0 to #map2(%arg0) step 3 {
    }
    %0 = affine.for %arg2 = 0 to 10 iter_args(%arg3 = %cst) -> (f32) {
      %4 = affine.load %arg1[%arg2] : memref<?xf32>
      %5 = arith.addf %arg3, %4 : f32
      affine.yield %5 : f32
    }
    %1:2 = affine.for %arg2 = 0 to 10 iter_args(%arg3 = %cst, %arg4 = %0) -> (f32, f32) {
      affine.yield %arg4, %arg3 : f32, f32
    }
    affine.if #set(%arg0)[%arg0] {
      affine.store %cst, %arg1[%arg0] : memref<?xf32>
    }
    %2 = affine.if #set(%arg0)[%arg0] -> f32 {
      affine.yield %cst : f32
    } else {
      affine.yield %0 : f32
    }
    %3:2 = affine.if #set1(%arg0) -> (f32, index) {
      affine.yield %cst, %arg0 : f32, index
    } else {
      affine.yield %0, %arg0 : f32, index
    }
    affine.if #set2() {
    } else {
    }
    return %2 : f32
  }
}
"""

GENERIC_PART = """\
    "affine.for"(%arg0, %arg0, %arg0, %arg0) <{lowerBoundMap = #map6, operandSegmentSizes = \
array<i32: 2, 2, 0>, step = 1 : index, upperBoundMap = #map7}> ({
    ^bb0(%arg8: index):
      "affine.yield"() : () -> ()
    }) {tag = 1 : i32} : (index, index, index, index) -> ()
"""


def test_custom_form():
    assert tileir.print(tileir.parse(SOURCE)) == CUSTOM


def test_generic_form_round_trips():
    module = tileir.parse(SOURCE)
    generic = tileir.print(module, generic=True)
    assert GENERIC_PART in generic
    assert '"affine.if"(%arg0, %arg0) <{condition = #set}> ({' in generic
    again = tileir.parse(generic)
    tileir.verify(again)
    assert tileir.print(again) == CUSTOM
    assert tileir.print(again, generic=True) == generic


@pytest.mark.parametrize("generic", [False, True])
def test_matches_mlir_opt(generic):
    flags = ("--mlir-print-op-generic",) if generic else ()
    ref = _mlir_opt(SOURCE, *flags)
    assert ref.returncode == 0, ref.stderr
    assert tileir.print(tileir.parse(SOURCE), generic=generic) + "\n" == ref.stdout


# -- verifier ----------------------------------------------------------------------------------

_FOR = ('"affine.for"({ops}) <{{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = '
        'array<i32: 0, 0, {n}>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}}> ')

ERRORS = [
    ("%r = affine.for %i = 0 to 10 iter_args(%a = %f) -> (f32) {\n affine.yield %i : index\n}",
     "'affine.yield' op types mismatch between yield op and its parent"),
    ("%r = affine.for %i = 0 to 10 iter_args(%a = %f) -> (f32) {\n affine.yield\n}",
     "'affine.yield' op parent of yield must have same number of results as the yield "
     "operands"),
    ("affine.for %i = 0 to 10 step -1 {\n}",
     "custom op 'affine.for' expected step to be representable as a positive signed integer"),
    ("affine.for %i = affine_map<(d0)[s0] -> (d0)>(%n) to 10 {\n}",
     "custom op 'affine.for' symbol operand count and affine map symbol count must match"),
    ("affine.for %i = affine_map<(d0)[s0] -> (d0)>(%n, %n) to 10 {\n}",
     "custom op 'affine.for' dim operand count and affine map dim count must match"),
    ("affine.for %i = 0 to affine_map<(d0) -> (d0, 3)>(%n) {\n}",
     "custom op 'affine.for' upper loop bound affine map with multiple results requires 'min' "
     "prefix"),
    ("affine.for %i = 0 10 {\n}", "custom op 'affine.for' expected 'to' between bounds"),
    ("%r = affine.for %i = 0 to 10 iter_args(%a = %f) -> (f32, f32) {\n affine.yield %a : f32\n}",
     "custom op 'affine.for' mismatch between the number of loop-carried values and results"),
    (_FOR.format(ops="%n", n=1) + "({\n^bb0(%i: index, %a: f32):\n \"affine.yield\"(%a) : (f32) "
     "-> ()\n}) : (index) -> f32",
     "'affine.for' op 0-th init and 0-th region iter_arg have different type: 'index' != "
     "'f32'"),
    (_FOR.format(ops="", n=0) + "({\n^bb0(%i: index, %a: f32):\n \"affine.yield\"(%a) : (f32) "
     "-> ()\n}) : () -> f32",
     "'affine.for' op different number of inits and region iter_args: 0 != 1"),
    (_FOR.format(ops="%n", n=1) + "({\n^bb0(%i: index, %a: index):\n \"affine.yield\"() : () "
     "-> ()\n}) : (index) -> ()",
     "'affine.for' op along control flow edge from Operation affine.yield to Region #0: region "
     "branch point has 0 operands, but region successor needs 1 inputs"),
    (_FOR.format(ops="", n=0) + "({\n^bb0(%i: f32):\n \"affine.yield\"() : () -> ()\n}) : () "
     "-> ()",
     "'affine.for' op expected body to have a single index argument for the induction "
     "variable"),
    ("affine.if affine_set<(d0)[s0] : (d0 >= 0)>(%n) {\n}",
     "custom op 'affine.if' symbol operand count and integer set symbol count must match"),
    ("%x = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> index {\n affine.yield %n : index\n}",
     "'affine.if' op along control flow edge from parent to parent: region branch point has 0 "
     "operands, but region successor needs 1 inputs"),
    ("%x = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> index {\n affine.yield %f : f32\n} "
     "else {\n affine.yield %n : index\n}",
     "'affine.yield' op types mismatch between yield op and its parent"),
    ('"affine.if"(%n) <{condition = affine_set<(d0, d1) : (d0 >= 0)>}> ({\n "affine.yield"() '
     ': () -> ()\n}, {\n}) : (index) -> ()',
     "'affine.if' op operand count and condition integer set dimension and symbol count must "
     "match"),
    ("affine.yield", "'affine.yield' op only terminates affine.if/for/parallel regions"),
]


@pytest.mark.parametrize("body,message", ERRORS)
def test_verifier_messages(body, message):
    end = "" if body == "affine.yield" else "\nreturn"   # (a yield ending the function)
    text = f"func.func @e(%n: index, %f: f32) {{\n{body}{end}\n}}\n"
    with pytest.raises(DiagnosticError) as info:
        tileir.verify(tileir.parse(text))
    assert message in str(info.value)
    if _MLIR_OPT is not None:
        ref = _mlir_opt(text, "-o", "/dev/null")
        assert message in ref.stderr, ref.stderr


def test_bound_operand_count_mismatch_is_rejected():
    """(mlir-opt 22 accepts this and then prints it wrongly: tileir is stricter.)"""
    text = ("func.func @e(%n: index) {\n" + _FOR.format(ops="%n", n=0).replace(
        "0, 0, 0", "0, 1, 0").replace("() -> (10)", "(d0, d1) -> (d0)")
        + "({\n^bb0(%i: index):\n \"affine.yield\"() : () -> ()\n}) : (index) -> ()\nreturn\n}")
    with pytest.raises(DiagnosticError, match="upper bound operand count"):
        tileir.verify(tileir.parse(text))


# -- execution: host -------------------------------------------------------------------------

HOST = """
#lb = affine_map<(d0)[s0] -> (d0, s0)>
#ub = affine_map<(d0)[s0] -> (d0 + 5, s0 * 2)>
func.func @nest(%m: memref<8x12xi64>, %n: index) -> i64 {
  %c0 = arith.constant 0 : i64
  %r = affine.for %i = 0 to 8 iter_args(%acc = %c0) -> (i64) {
    %s = affine.for %j = max #lb(%i)[%n] to min #ub(%i)[%n] step 2 iter_args(%a = %acc) -> (i64) {
      %v = affine.load %m[%i, %j] : memref<8x12xi64>
      %w = arith.addi %a, %v : i64
      affine.yield %w : i64
    }
    affine.yield %s : i64
  }
  return %r : i64
}

func.func @fill(%m: memref<6x6xi64>, %n: index) {
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%i) {
      %v = affine.apply affine_map<(d0, d1) -> (d0 * 10 + d1)>(%i, %j)
      %x = arith.index_cast %v : index to i64
      affine.if affine_set<(d0, d1)[s0] : (d0 - d1 - s0 >= 0)>(%i, %j)[%n] {
        affine.store %x, %m[%i, %j] : memref<6x6xi64>
      } else {
        %c0 = arith.constant 0 : i64
        %neg = arith.subi %c0, %x : i64
        affine.store %neg, %m[%j, %i] : memref<6x6xi64>
      }
    }
  }
  return
}
"""


@pytest.mark.parametrize("n", [0, 3, 5, 9])
def test_host_nest_with_map_bounds(n):
    m = np.arange(8 * 12, dtype=np.int64).reshape(8, 12) * 7 + 1
    want = sum(int(m[i, j]) for i in range(8)
               for j in range(max(i, n), min(i + 5, 2 * n), 2))
    got = gpu.run(_module(HOST), "nest", args=[m, n])
    got = got[0] if isinstance(got, (list, tuple)) else got
    assert int(got) == want


@pytest.mark.parametrize("n", [0, 2])
def test_host_triangle_with_if(n):
    m = np.zeros((6, 6), np.int64)
    gpu.run(_module(HOST), "fill", args=[m, n])
    want = np.zeros((6, 6), np.int64)
    for i in range(6):
        for j in range(i + 1):
            if i - j - n >= 0:
                want[i, j] = i * 10 + j
            else:
                want[j, i] = -(i * 10 + j)
    np.testing.assert_array_equal(m, want)


# -- execution: kernels ------------------------------------------------------------------------

KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi64>, %src: memref<?xi64>, %s: index, %n: index) kernel {
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : i64
      %sum = affine.for %j = 0 to affine_map<(d0) -> (d0 + 1)>(%tid) iter_args(%a = %c0) -> (i64) {
        %v = affine.load %src[%j] : memref<?xi64>
        %w = arith.addi %a, %v : i64
        affine.yield %w : i64
      }
      %lim = affine.for %j = max affine_map<(d0)[s0] -> (d0 - s0, 0)>(%tid)[%s]
          to min affine_map<(d0)[s0] -> (d0 + 3, s0)>(%tid)[%n] step 2
          iter_args(%a = %c0) -> (i64) {
        %v = affine.load %src[%j] : memref<?xi64>
        %w = arith.addi %a, %v : i64
        affine.yield %w : i64
      }
      %r = affine.if affine_set<(d0)[s0] : (d0 - s0 >= 0, d0 mod 2 == 0)>(%tid)[%s] -> i64 {
        affine.yield %sum : i64
      } else {
        %neg = arith.subi %c0, %lim : i64
        affine.yield %neg : i64
      }
      affine.store %r, %out[%tid] : memref<?xi64>
      affine.if affine_set<(d0) : (d0 - 5 == 0)>(%tid) {
        affine.store %lim, %out[%tid + 32] : memref<?xi64>
      }
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("s,n", [(0, 32), (3, 10), (7, 40)])
def test_kernel_thread_dependent_bounds(s, n):
    threads = 32
    src = (np.arange(threads + 8, dtype=np.int64) ** 2) % 97
    out = np.zeros(64, np.int64)
    gpu.launch(_module(KERNEL), "m::k", grid=(1,), block=(threads,), args=[out, src, s, n])
    want = np.zeros(64, np.int64)
    for t in range(threads):
        total = int(src[:t + 1].sum())
        lim = sum(int(src[j]) for j in range(max(t - s, 0), min(t + 3, n), 2))
        want[t] = total if t - s >= 0 and t % 2 == 0 else -lim
        if t == 5:
            want[t + 32] = lim
    np.testing.assert_array_equal(out, want)


def test_zero_step_is_reported():
    text = ("func.func @z() {\n" + _FOR.format(ops="", n=0).replace("step = 1", "step = 0")
            + "({\n^bb0(%i: index):\n \"affine.yield\"() : () -> ()\n}) : () -> ()\nreturn\n}")
    with pytest.raises(Exception, match="step 0 is not positive"):
        gpu.run(tileir.parse(text), "z", args=[])
