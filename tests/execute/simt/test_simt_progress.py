"""Loops that can never finish are reported (an error naming the op), not run to the iteration
limit: a spin wait on memory only another launch would change (MLIR's concurrent-kernels
pattern), in ``scf.while`` and in ``cf`` branches; loops that do progress, however long, and
busy waits on the clock are left alone."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import UndefinedBehaviorError
from tileir.execute.simt.progress import FIRST_CHECK

CONCURRENT = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%counter: memref<i32>) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c2 = arith.constant 2 : i32
      %old = memref.atomic_rmw addi %c1, %counter[] : (i32, memref<i32>) -> i32
      scf.while : () -> () {
        %value = memref.atomic_rmw addi %c0, %counter[] : (i32, memref<i32>) -> i32
        %wait = arith.cmpi slt, %value, %c2 : i32
        scf.condition(%wait)
      } do {
        scf.yield
      }
      gpu.return
    }
  }
  func.func @main() {
    %counter = gpu.alloc host_shared () : memref<i32>
    %c0 = arith.constant 0 : i32
    memref.store %c0, %counter[] : memref<i32>
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %c1 = arith.constant 1 : index
    %a = gpu.launch_func async [%t0] @kernels::@kernel blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%counter : memref<i32>)
    %b = gpu.launch_func async [%t1] @kernels::@kernel blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%counter : memref<i32>)
    gpu.wait [%a, %b]
    return
  }
}
"""

CF_SPIN = """
gpu.module @k {
  gpu.func @spin(%flag: memref<4xi32>, %out: memref<4xi32>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : i32
    cf.br ^loop
  ^loop:
    %v = memref.load %flag[%t] : memref<4xi32>
    %z = arith.cmpi eq, %v, %c0 : i32
    cf.cond_br %z, ^loop, ^done
  ^done:
    memref.store %v, %out[%t] : memref<4xi32>
    gpu.return
  }
}
"""


def test_spin_wait_for_another_launch_is_reported_quickly():
    t = time.perf_counter()
    with pytest.raises(UndefinedBehaviorError, match="makes no progress") as err:
        tileir.gpu.run(tileir.parse(CONCURRENT), "main")
    assert "scf.while" in str(err.value)
    assert time.perf_counter() - t < 60     # not the 2^26-iteration limit


def test_cf_loop_spin_is_reported_and_a_set_flag_runs():
    module = tileir.parse(CF_SPIN)
    out = np.zeros(4, np.int32)
    with pytest.raises(UndefinedBehaviorError, match="makes no progress"):
        tileir.gpu.launch(module, "k::spin", grid=(1,), block=(4,),
                          args=[np.array([1, 1, 0, 1], np.int32), out])
    flags = np.array([3, 1, 7, 2], np.int32)
    tileir.gpu.launch(module, "k::spin", grid=(1,), block=(4,), args=[flags, out])
    np.testing.assert_array_equal(out, flags)


LONG_LOOPS = """
func.func @main(%n: i32, %cell: memref<i32>) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %count = scf.while (%i = %c0) : (i32) -> i32 {
    %more = arith.cmpi slt, %i, %n : i32
    scf.condition(%more) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  scf.while : () -> () {
    %v = memref.load %cell[] : memref<i32>
    %more = arith.cmpi slt, %v, %n : i32
    scf.condition(%more)
  } do {
    %v = memref.load %cell[] : memref<i32>
    %w = arith.addi %v, %c1 : i32
    memref.store %w, %cell[] : memref<i32>
    scf.yield
  }
  return %count : i32
}
"""


def test_loops_that_progress_run_past_the_checks():
    """A counter in a loop-carried value, then one only in memory: both run 2.5 x the first
    snapshot's iteration count and end with the right values."""
    n = FIRST_CHECK * 2 + FIRST_CHECK // 2
    cell = np.zeros((), np.int32)
    (count,) = tileir.gpu.run(tileir.parse(LONG_LOOPS), "main", args=[n, cell])
    assert int(count) == n and int(cell) == n


CLOCK_WAIT = """
func.func @main(%seconds: f64) -> f64 {
  %t0 = call @rtclock() : () -> f64
  scf.while : () -> () {
    %t = func.call @rtclock() : () -> f64
    %dt = arith.subf %t, %t0 : f64
    %more = arith.cmpf olt, %dt, %seconds : f64
    scf.condition(%more)
  } do {
    scf.yield
  }
  %t1 = call @rtclock() : () -> f64
  %dt = arith.subf %t1, %t0 : f64
  return %dt : f64
}
func.func private @rtclock() -> f64
"""


def test_a_busy_wait_on_the_clock_is_not_flagged():
    """No carried values and no memory change, but the loop calls a function (the clock):
    not checked, so it ends when the time has passed."""
    (dt,) = tileir.gpu.run(tileir.parse(CLOCK_WAIT), "main", args=[0.5],
                           stdout=io.StringIO())
    assert float(dt) >= 0.5


def test_memory_is_hashed_only_once_values_repeat(monkeypatch):
    """A loop whose carried counter moves never hashes memory; the spin wait does."""
    from tileir.execute.simt import progress
    calls = []
    real = progress._memory_digest
    monkeypatch.setattr(progress, "_memory_digest", lambda: calls.append(1) or real())
    counting = LONG_LOOPS.split("  scf.while : () -> () {")[0] + "  return %count : i32\n}\n"
    (count,) = tileir.gpu.run(tileir.parse(counting), "main",
                              args=[FIRST_CHECK * 4, np.zeros((), np.int32)])
    assert int(count) == FIRST_CHECK * 4 and calls == []
    with pytest.raises(UndefinedBehaviorError, match="makes no progress"):
        tileir.gpu.run(tileir.parse(CONCURRENT), "main")
    assert len(calls) == 2
