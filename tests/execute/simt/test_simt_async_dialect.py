"""MLIR's async dialect in host code: text as mlir-opt 22 prints it (custom and generic input),
the verifier's yield rule with mlir-opt's words, and execution (fork/join of async.execute
regions around gpu launches, values passed between them, groups) against NumPy."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import LaunchError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

FORK_JOIN = """
func.func @main(%x: memref<?xf32>, %y: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %t0, %dev = async.execute -> !async.value<memref<?xf32>> {
    %d = gpu.alloc (%n) : memref<?xf32>
    gpu.memcpy %d, %x : memref<?xf32>, memref<?xf32>
    async.yield %d : memref<?xf32>
  }
  %t1, %s = async.execute [%t0] (%dev as %d: !async.value<memref<?xf32>>) -> !async.value<f32> {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %c1, %sz = %c1) {
      %v = memref.load %d[%tx] : memref<?xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %d[%tx] : memref<?xf32>
      gpu.terminator
    }
    %first = memref.load %x[%c0] : memref<?xf32>
    async.yield %first : f32
  }
  %t2 = async.execute [%t1] (%dev as %d: !async.value<memref<?xf32>>) {
    gpu.memcpy %y, %d : memref<?xf32>, memref<?xf32>
    async.yield
  }
  async.await %t2 : !async.token
  %r = async.await %s : !async.value<f32>
  return %r : f32
}
"""

GROUPS = """
func.func @main(%n: index) -> (index, index) {
  %c2 = arith.constant 2 : index
  %g = async.create_group %n : !async.group
  %a = async.execute {
    async.yield
  }
  %b = async.execute {
    async.yield
  }
  %ra = async.add_to_group %a, %g : !async.token
  %rb = async.add_to_group %b, %g : !async.token
  async.await_all %g
  return %ra, %rb : index, index
}
"""


def test_fork_join_with_values_runs_in_a_valid_order():
    x = np.arange(8, dtype=np.float32) + 1
    y = np.zeros(8, np.float32)
    (first,) = tileir.gpu.run(tileir.parse(FORK_JOIN), "main", args=[x, y, 8])
    np.testing.assert_array_equal(y, 2 * x)          # the device copy, doubled, came back
    np.testing.assert_array_equal(x, np.arange(8) + 1)   # the host array was not touched
    assert float(first) == 1.0


def test_groups_rank_their_tokens_and_overflow_is_reported():
    module = tileir.parse(GROUPS)
    ra, rb = tileir.gpu.run(module, "main", args=[2])
    assert (int(ra), int(rb)) == (0, 1)
    with pytest.raises(LaunchError, match="holds 1 tokens"):
        tileir.gpu.run(module, "main", args=[1])


@pytest.mark.parametrize("text", [FORK_JOIN, GROUPS])
def test_text_is_what_mlir_opt_prints(text):
    ours = tileir.print(tileir.parse(text))
    ref = run_mlir_opt(text)
    assert ref.returncode == 0, ref.stderr
    assert ref.stdout.rstrip("\n") == ours.rstrip("\n")
    generic = run_mlir_opt(text, ["--mlir-print-op-generic"])
    assert tileir.print(tileir.parse(generic.stdout)).rstrip("\n") == ours.rstrip("\n")


@pytest.mark.parametrize("body, results, message", [
    ("async.yield %x : f32", " -> !async.value<i32>",
     "successor operand type #0 'f32' should match successor input type #0 "
     "'!async.value<i32>'"),
    ("async.yield %x : f32", "",
     "region branch point has 1 operands, but region successor needs 0 inputs"),
])
def test_yield_mismatch_gets_mlir_opts_message(body, results, message):
    text = (f"func.func @f(%x: f32) {{\n  %t{', %v' if results else ''} = async.execute"
            f"{results} {{\n    {body}\n  }}\n  return\n}}\n")
    ref = run_mlir_opt(text)
    assert ref.returncode != 0 and message in ref.stderr
    with pytest.raises(tileir.DiagnosticError, match=message.replace("(", r"\(")):
        tileir.verify(tileir.parse(text))
