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


# -- affine.parallel ---------------------------------------------------------------------------

PARALLEL_SOURCE = """
func.func @p(%n: index, %k: index, %m: memref<?x?xf32>) -> (f32, i32) {
  %f = arith.constant 1.0 : f32
  %r:2 = affine.parallel (%i, %j) = (0, 0) to (%n, 10) step (1, 2) reduce ("addf", "addi") -> (f32, i32) {
    %v = affine.load %m[%i, %j] : memref<?x?xf32>
    %c = arith.constant 1 : i32
    affine.yield %v, %c : f32, i32
  }
  affine.parallel (%i) = (max(0, %n)) to (min(%n + 5, 20)) {
    affine.store %r#0, %m[%i, %i] : memref<?x?xf32>
  }
  affine.parallel (%i, %j, %l) = (%n * 2, symbol(%n), max(%n, 3, symbol(%n) floordiv 2)) to (symbol(%n) + 1, min(%n + 4, symbol(%k) - 1), 7) {
    affine.yield
  } {tag = 1}
  affine.parallel () = () to () {
  }
  %x = affine.parallel (%i) = (-3) to (%n mod 4 + %k floordiv 2 - symbol(%k) * 3) step (5) reduce ("maximumf") -> f32 {
    affine.yield %f : f32
  }
  return %x, %r#1 : f32, i32
}
"""

# (as in MLIR, a value used again inside one bound keeps the role of its first use there:
# ``max(%n, 3, symbol(%n) floordiv 2)`` has %n as a dimension throughout)
PARALLEL_CUSTOM = """\
module {
  func.func @p(%arg0: index, %arg1: index, %arg2: memref<?x?xf32>) -> (f32, i32) {
    %cst = arith.constant 1.000000e+00 : f32
    %0:2 = affine.parallel (%arg3, %arg4) = (0, 0) to (%arg0, 10) step (1, 2) reduce ("addf", \
"addi") -> (f32, i32) {
      %2 = affine.load %arg2[%arg3, %arg4] : memref<?x?xf32>
      %c1_i32 = arith.constant 1 : i32
      affine.yield %2, %c1_i32 : f32, i32
    }
    affine.parallel (%arg3) = (max(0, %arg0)) to (min(%arg0 + 5, 20)) {
      affine.store %0#0, %arg2[%arg3, %arg3] : memref<?x?xf32>
    }
    affine.parallel (%arg3, %arg4, %arg5) = (%arg0 * 2, symbol(%arg0), max(%arg0, 3, %arg0 \
floordiv 2)) to (symbol(%arg0) + 1, min(%arg0 + 4, symbol(%arg1) - 1), 7) {
    } {tag = 1 : i64}
    affine.parallel () = () to () {
    }
    %1 = affine.parallel (%arg3) = (-3) to (%arg0 mod 4 + %arg1 floordiv 2 - %arg1 * 3) step \
(5) reduce ("maximumf") -> (f32) {
      affine.yield %cst : f32
    }
    return %1, %0#1 : f32, i32
  }
}
"""

PARALLEL_GENERIC_PART = """\
    "affine.parallel"(%arg0, %arg0, %arg0, %arg0, %arg1) <{lowerBoundsGroups = dense<[1, 1, 3]> \
: tensor<3xi32>, lowerBoundsMap = #map6, reductions = [], steps = [1, 1, 1], upperBoundsGroups \
= dense<[1, 2, 1]> : tensor<3xi32>, upperBoundsMap = #map7}> ({
"""


def test_parallel_custom_and_generic_forms():
    module = tileir.parse(PARALLEL_SOURCE)
    tileir.verify(module)
    assert tileir.print(module) == PARALLEL_CUSTOM
    generic = tileir.print(module, generic=True)
    assert PARALLEL_GENERIC_PART in generic
    assert "reductions = [0, 1], steps = [1, 2]" in generic
    assert "#map6 = affine_map<(d0)[s0] -> (d0 * 2, s0, d0, 3, d0 floordiv 2)>" in generic
    again = tileir.parse(generic)
    tileir.verify(again)
    assert tileir.print(again) == PARALLEL_CUSTOM
    assert tileir.print(again, generic=True) == generic


@pytest.mark.parametrize("generic", [False, True])
def test_parallel_matches_mlir_opt(generic):
    flags = ("--mlir-print-op-generic",) if generic else ()
    ref = _mlir_opt(PARALLEL_SOURCE, *flags)
    assert ref.returncode == 0, ref.stderr
    assert tileir.print(tileir.parse(PARALLEL_SOURCE), generic=generic) + "\n" == ref.stdout


_PAR = ('"affine.parallel"() <{{lowerBoundsGroups = dense<{lg}> : tensor<1xi32>, lowerBoundsMap '
        '= affine_map<() -> ({lm})>, reductions = [{red}], steps = [{steps}], upperBoundsGroups '
        '= dense<1> : tensor<1xi32>, upperBoundsMap = affine_map<() -> ({um})>}}> ')
_PAR_BODY = '({\n^bb0(%i: index):\n "affine.yield"() : () -> ()\n}) : () -> ()'

PARALLEL_ERRORS = [
    ('affine.parallel (%i) = (0) to (4) reduce ("foo") -> f32 {\n affine.yield %f : f32\n}',
     'custom op \'affine.parallel\' invalid reduction value: "foo"'),
    ('%r = affine.parallel (%i) = (0) to (4) reduce ("addi") -> f32 {\n affine.yield %f : f32\n}',
     "'affine.parallel' op result type cannot match reduction attribute"),
    ('%r = affine.parallel (%i) = (0) to (4) reduce ("maxs") -> i32 {\n %c = arith.constant 1 : '
     'i32\n affine.yield %c : i32\n}',
     "'affine.parallel' op result type cannot match reduction attribute"),
    ('%r = affine.parallel (%i) = (0) to (4) reduce ("addf") -> f32 {\n affine.yield %n : '
     'index\n}', "'affine.yield' op types mismatch between yield op and its parent"),
    ('%r = affine.parallel (%i) = (0) to (4) reduce ("addf") -> f32 {\n affine.yield\n}',
     "'affine.yield' op parent of yield must have same number of results as the yield "
     "operands"),
    ("affine.parallel (%i) = (0) to (4) step (%n) {\n}",
     "custom op 'affine.parallel' steps must be constant integers"),
    ("affine.parallel (%i) = (0) 4 {\n}", "custom op 'affine.parallel' expected 'to'"),
    ("affine.parallel (%i, %j) = (0) to (4) {\n}",
     "'affine.parallel' op the number of region arguments (2) and the number of map groups for "
     "lower (1) and upper bound (1), and the number of steps (2) must all match"),
    (_PAR.format(lg="1", lm="0", red="", steps="1", um="4, 5") + _PAR_BODY,
     "'affine.parallel' op expected upper bounds map to have 1 results"),
    (_PAR.format(lg="0", lm="", red="", steps="1", um="4") + _PAR_BODY,
     "'affine.parallel' op expected lower bound map to have at least one result"),
    (_PAR.format(lg="1", lm="0", red="0", steps="1", um="4") + _PAR_BODY,
     "'affine.parallel' op a reduction must be specified for each output"),
    (_PAR.format(lg="1", lm="0", red="99", steps="1", um="4")
     + _PAR_BODY.replace('"() : () -> ()\n}) : () -> ()', '"(%f) : (f32) -> ()\n}) : () -> f32'),
     "'affine.parallel' op attribute 'reductions' failed to satisfy constraint: Reduction ops"),
]


@pytest.mark.parametrize("body,message", PARALLEL_ERRORS)
def test_parallel_verifier_messages(body, message):
    test_verifier_messages(body, message)


PARALLEL_HOST = """
func.func @reduce(%m: memref<6x10xf32>, %n: index) -> (f32, f32, i32, i32, i32) {
  %r:5 = affine.parallel (%i, %j) = (0, max(1, symbol(%n) - 3)) to (%n, 10) step (1, 2)
      reduce ("addf", "maximumf", "muli", "andi", "ori") -> (f32, f32, i32, i32, i32) {
    %v = affine.load %m[%i, %j] : memref<6x10xf32>
    %x = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 + 1)>(%i, %j)
    %y = arith.index_cast %x : index to i32
    affine.yield %v, %v, %y, %y, %y : f32, f32, i32, i32, i32
  }
  return %r#0, %r#1, %r#2, %r#3, %r#4 : f32, f32, i32, i32, i32
}

func.func @fill(%m: memref<6x10xi64>, %n: index) {
  affine.parallel (%i, %j) = (0, 0) to (min(6, symbol(%n)), 10) step (1, 3) {
    %x = affine.apply affine_map<(d0, d1) -> (d0 * 100 + d1)>(%i, %j)
    %y = arith.index_cast %x : index to i64
    affine.store %y, %m[%i, %j] : memref<6x10xi64>
  }
  return
}
"""


@pytest.mark.parametrize("n", [0, 3, 6])
def test_parallel_host_reductions(n):
    m = np.arange(60, dtype=np.float32).reshape(6, 10) * np.float32(0.5) - np.float32(7)
    got = gpu.run(_module(PARALLEL_HOST), "reduce", args=[m, n])
    points = [(i, j) for i in range(n) for j in range(max(1, n - 3), 10, 2)]
    vals = [m[i, j] for i, j in points]
    ys = np.array([i * 16 + j + 1 for i, j in points], dtype=np.int32)
    want_sum = np.float32(0)
    for v in vals:                     # (row-major, starting from the identity)
        want_sum = np.float32(want_sum + v)
    assert got[0] == want_sum
    assert got[1] == (max(vals) if vals else -np.inf)
    with np.errstate(over="ignore"):
        assert got[2] == np.prod(ys, dtype=np.int32)
    assert got[3] == np.bitwise_and.reduce(ys, initial=np.int32(-1))
    assert got[4] == np.bitwise_or.reduce(ys, initial=np.int32(0))


@pytest.mark.parametrize("n", [2, 9])
def test_parallel_host_store(n):
    m = np.full((6, 10), -1, np.int64)
    gpu.run(_module(PARALLEL_HOST), "fill", args=[m, n])
    want = np.full((6, 10), -1, np.int64)
    for i in range(min(6, n)):
        for j in range(0, 10, 3):
            want[i, j] = i * 100 + j
    np.testing.assert_array_equal(m, want)


PARALLEL_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%out: memref<?xi64>, %fout: memref<?xf32>, %src: memref<8x8xi64>, %n: index) kernel {
      %tid = gpu.thread_id x
      %s:2 = affine.parallel (%i, %j) = (0, 1) to (min(%n, 8), 8) step (2, 3) reduce ("addi", "ori") -> (i64, i64) {
        %v = affine.load %src[%i, %j] : memref<8x8xi64>
        %t = arith.index_cast %tid : index to i64
        %w = arith.muli %v, %t : i64
        affine.yield %w, %w : i64, i64
      }
      %f = affine.parallel (%i) = (0) to (4) reduce ("minimumf") -> (f32) {
        %x = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%tid, %i)
        %y = arith.index_cast %x : index to i32
        %z = arith.sitofp %y : i32 to f32
        %q = arith.constant 5.0 : f32
        %r = arith.subf %q, %z : f32
        affine.yield %r : f32
      }
      affine.parallel (%k) = (0) to (2) {
        affine.store %s#0, %out[%tid * 2 + %k] : memref<?xi64>
      }
      affine.store %s#1, %out[%tid + 64] : memref<?xi64>
      affine.store %f, %fout[%tid] : memref<?xf32>
      gpu.return
    }
    gpu.func @divergent(%out: memref<?xi64>, %fout: memref<?xf64>, %src: memref<8x8xi64>,
                        %n: index) kernel {
      %tid = gpu.thread_id x
      %s:2 = affine.parallel (%i, %j) = (%tid mod 3, 0) to (min(%tid floordiv 4, symbol(%n)), %tid mod 8 + 1)
          step (1, 2) reduce ("addi", "maximumf") -> (i64, f64) {
        %v = affine.load %src[%i, %j] : memref<8x8xi64>
        %w = arith.sitofp %v : i64 to f64
        affine.yield %v, %w : i64, f64
      }
      affine.store %s#0, %out[%tid] : memref<?xi64>
      affine.store %s#1, %fout[%tid] : memref<?xf64>
      affine.parallel (%i) = (0) to (%tid) {
        %c = arith.constant 1 : i64
        %x = affine.load %out[%tid + 64] : memref<?xi64>
        %y = arith.addi %x, %c : i64
        affine.store %y, %out[%tid + 64] : memref<?xi64>
      }
      gpu.return
    }
  }
}
"""


@pytest.mark.parametrize("n", [3, 8, 20])
def test_parallel_kernel_reductions(n):
    threads = 32
    src = (np.arange(64, dtype=np.int64).reshape(8, 8) * 13) % 29
    out = np.zeros(96, np.int64)
    fout = np.zeros(threads, np.float32)
    gpu.launch(_module(PARALLEL_KERNEL), "m::k", grid=(1,), block=(threads,),
               args=[out, fout, src, n])
    want = np.zeros(96, np.int64)
    fwant = np.zeros(threads, np.float32)
    for t in range(threads):
        vals = [int(src[i, j]) * t for i in range(0, min(n, 8), 2) for j in range(1, 8, 3)]
        want[2 * t] = want[2 * t + 1] = sum(vals)
        want[t + 64] = np.bitwise_or.reduce(np.array(vals, np.int64), initial=0)
        fwant[t] = min(5.0 - (t * 3 + i) for i in range(4))
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(fout, fwant)


@pytest.mark.parametrize("n", [0, 2, 8])
def test_parallel_kernel_per_thread_bounds(n):
    threads = 32
    src = (np.arange(64, dtype=np.int64).reshape(8, 8) * 37) % 53 - 20
    out = np.zeros(96, np.int64)
    fout = np.zeros(threads, np.float64)
    gpu.launch(_module(PARALLEL_KERNEL), "m::divergent", grid=(1,), block=(threads,),
               args=[out, fout, src, n])
    want = np.zeros(96, np.int64)
    fwant = np.zeros(threads, np.float64)
    for t in range(threads):
        vals = [int(src[i, j]) for i in range(t % 3, min(t // 4, n))
                for j in range(0, t % 8 + 1, 2)]
        want[t] = sum(vals)
        fwant[t] = max(vals, default=-np.inf)
        want[t + 64] = t
    np.testing.assert_array_equal(out, want)
    np.testing.assert_array_equal(fout, fwant)


def test_parallel_zero_step_is_reported():
    text = ("func.func @z() {\n" + _PAR.format(lg="1", lm="0", red="", steps="0", um="4")
            + _PAR_BODY + "\nreturn\n}")
    with pytest.raises(Exception, match="step 0 is not positive"):
        gpu.run(tileir.parse(text), "z", args=[])
