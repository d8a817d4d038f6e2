"""``async_order="streams"``: async ops also ordered as MLIR's CUDA lowering places them on
streams (an op with one dependency runs after every op issued before on that dependency's
stream; ``gpu.wait`` on a token synchronises its whole stream).  The default orders them by
their dependency lists only and reports a program that relies on stream order."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import gpu
from tileir.execute.errors import ArgumentError, UndefinedBehaviorError

KERNEL = """
  gpu.module @k {
    gpu.func @axpy(%x: memref<16xf32>, %y: memref<16xf32>, %a: f32) kernel {
      %i = gpu.thread_id x
      %u = memref.load %x[%i] : memref<16xf32>
      %v = memref.load %y[%i] : memref<16xf32>
      %p = arith.mulf %a, %u : f32
      %w = arith.addf %p, %v : f32
      memref.store %w, %y[%i] : memref<16xf32>
      gpu.return
    }
  }
"""


def module(main: str) -> str:
    return "module attributes {gpu.container_module} {\n" + KERNEL + main + "\n}\n"


# every async op hangs off the stream token %t: one stream, in issue order (runs on a GPU)
ONE_STREAM = """
  func.func @main(%hx: memref<16xf32>, %hy: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = arith.constant 2.0 : f32
    %t = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t] () : memref<16xf32>
    %dy, %t2 = gpu.alloc async [%t] () : memref<16xf32>
    %t3 = gpu.memcpy async [%t] %dx, %hx : memref<16xf32>, memref<16xf32>
    %t4 = gpu.memcpy async [%t] %dy, %hy : memref<16xf32>, memref<16xf32>
    %t5 = gpu.launch_func async [%t] @k::@axpy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dx : memref<16xf32>, %dy : memref<16xf32>, %a : f32)
    %t6 = gpu.memcpy async [%t] %hy, %dy : memref<16xf32>, memref<16xf32>
    gpu.wait [%t]
    return
  }
"""


def _inputs():
    rng = np.random.default_rng(4)
    return rng.standard_normal(16).astype(np.float32), rng.standard_normal(16).astype(np.float32)


def test_one_stream_runs_in_issue_order_with_streams():
    hx, hy = _inputs()
    want = np.float32(2.0) * hx + hy
    gpu.run(module(ONE_STREAM), "main", args=[hx, hy], async_order="streams")
    np.testing.assert_array_equal(hy, want)


def test_one_stream_program_is_reported_by_dependency_order_with_a_hint():
    hx, hy = _inputs()
    # (the first op that relies on stream order: the copy into the buffer just allocated)
    with pytest.raises(UndefinedBehaviorError, match="still being written by 'gpu.alloc'.*"
                                                     "async_order='streams'"):
        gpu.run(module(ONE_STREAM), "main", args=[hx, hy])


def test_separate_streams_still_need_their_dependencies():
    """The copies go on one stream, the launch on another without depending on them: a race
    on a GPU too, reported in both orders."""
    text = ONE_STREAM.replace(
        "%t5 = gpu.launch_func async [%t]",
        "%s = gpu.wait async\n    %t5 = gpu.launch_func async [%s]")
    hx, hy = _inputs()
    with pytest.raises(UndefinedBehaviorError, match="still being written by 'gpu.memcpy'"):
        gpu.run(module(text), "main", args=[hx, hy], async_order="streams")
    # joined by a wait on both streams: fine
    joined = ONE_STREAM.replace(
        "%t5 = gpu.launch_func async [%t]",
        "%s = gpu.wait async [%t4]\n    %t5 = gpu.launch_func async [%s]").replace(
        "%t6 = gpu.memcpy async [%t]", "%t6 = gpu.memcpy async [%t5]").replace(
        "gpu.wait [%t]", "gpu.wait [%t6]")
    hx, hy = _inputs()
    want = np.float32(2.0) * hx + hy
    gpu.run(module(joined), "main", args=[hx, hy], async_order="streams")
    np.testing.assert_array_equal(hy, want)


CHAIN = """
  func.func @main(%hx: memref<16xf32>, %hy: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %a = arith.constant 2.0 : f32
    %t = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t] () : memref<16xf32>
    %dy, %t2 = gpu.alloc async [%t1] () : memref<16xf32>
    %t3 = gpu.memcpy async [%t2] %dx, %hx : memref<16xf32>, memref<16xf32>
    %t4 = gpu.memcpy async [%t3] %dy, %hy : memref<16xf32>, memref<16xf32>
    %t5 = gpu.launch_func async [%t4] @k::@axpy blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%dx : memref<16xf32>, %dy : memref<16xf32>, %a : f32)
    %t6 = gpu.memcpy async [%t5] %hy, %dy : memref<16xf32>, memref<16xf32>
    gpu.wait [WAITED]
    %r = memref.load %hy[%c0] : memref<16xf32>
    return
  }
"""


@pytest.mark.parametrize("order", ["dependencies", "streams"])
def test_a_dependency_chain_runs_in_both_orders(order):
    hx, hy = _inputs()
    want = np.float32(2.0) * hx + hy
    gpu.run(module(CHAIN.replace("WAITED", "%t6")), "main", args=[hx, hy], async_order=order)
    np.testing.assert_array_equal(hy, want)


def test_waiting_on_an_early_token_synchronises_the_whole_stream():
    """``gpu.wait [%t3]`` lowers to a synchronisation of %t3's stream: the later copy back is
    done too (streams); by dependency lists alone the host reads %hy too early."""
    text = module(CHAIN.replace("WAITED", "%t3"))
    hx, hy = _inputs()
    want = np.float32(2.0) * hx + hy
    gpu.run(text, "main", args=[hx, hy], async_order="streams")
    np.testing.assert_array_equal(hy, want)
    hx, hy = _inputs()
    with pytest.raises(UndefinedBehaviorError, match="host code uses .* before the async "
                                                     "'gpu.memcpy'.*whole stream"):
        gpu.run(text, "main", args=[hx, hy])


def test_bad_async_order_and_cli_option(tmp_path, capsys):
    hx, hy = _inputs()
    with pytest.raises(ArgumentError, match="async_order 'fifo'"):
        gpu.run(module(ONE_STREAM), "main", args=[hx, hy], async_order="fifo")
    from tileir.cli.run import run_kernel
    path = tmp_path / "s.mlir"
    path.write_text(module(ONE_STREAM))
    args = [str(path), "--func", "main", "--arg", "zeros:f32:16", "--arg", "zeros:f32:16"]
    assert run_kernel(args + ["--async-order", "streams"]) == 0
    capsys.readouterr()
    assert run_kernel(args) == 1
    err = capsys.readouterr().err
    assert "still being written" in err and "Traceback" not in err
