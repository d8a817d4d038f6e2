"""gpu.printf in the SIMT engine: C formatting, per op execution, blocks in linear block order
and threads in linear thread order, only the threads executing it."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tileir
import tileir.gpu

SRC = """
gpu.module @m {
  gpu.func @k(%x: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %ty = gpu.thread_id y
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %v = memref.load %x[%g] : memref<?xf32>
    %ti = arith.index_cast %t : index to i32
    gpu.printf "b%ld t%d.%ld v=%.2f|%5.1e\\n", %b, %ti, %ty, %v, %v : index, i32, index, f32, f32
    gpu.printf "second %03d\\n", %ti : i32
    gpu.return
  }
}
"""


def _expected(grid: int, bx: int, by: int, x: np.ndarray) -> str:
    first, second = [], []
    for b in range(grid):
        for y in range(by):
            for t in range(bx):
                v = float(x[b * bx + t])
                first.append(f"b{b} t{t}.{y} v={v:.2f}|{v:5.1e}\n")
                second.append(f"second {t:03d}\n")
    return "".join(first + second)


@pytest.mark.parametrize("grid,bx,by,max_lanes", [(2, 3, 1, 1 << 22), (3, 4, 2, 1 << 22),
                                                  (4, 3, 1, 3)])
def test_printf_order_and_format(grid, bx, by, max_lanes):
    x = np.array([1.5, -2.25, 1e10, 0.0, -0.0, 3.14159, 2.5, 7.0, 1e-7, 42.0, 0.125, -1.0],
                 np.float32)
    x = np.resize(x, grid * bx)
    out = io.StringIO()
    tileir.gpu.launch(tileir.parse(SRC), "m::k", grid=(grid,), block=(bx, by), args=[x],
                      stdout=out, max_lanes=max_lanes)
    # max_lanes=3 runs the launch in chunks of one block: the text is concatenated in order
    if max_lanes == 3:
        # per op execution *within a chunk*: chunks run one after another
        want = "".join(_expected(1, bx, by, x[b * bx:(b + 1) * bx]).replace("b0 ", f"b{b} ")
                       for b in range(grid))
    else:
        want = _expected(grid, bx, by, x)
    assert out.getvalue() == want


def test_printf_in_divergent_region_prints_active_threads_only():
    src = """
gpu.module @m {
  gpu.func @k() kernel {
    %t = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %c = arith.cmpi uge, %t, %c2 : index
    %ti = arith.index_cast %t : index to i32
    scf.if %c {
      gpu.printf "hi %d %x %c%%\\n", %ti, %ti, %ti : i32, i32, i32
    } else {
      gpu.printf "lo %u\\n", %ti : i32
    }
    gpu.return
  }
}
"""
    out = io.StringIO()
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(2,), block=(5,), stdout=out)
    text = out.getvalue()
    # scf.if runs the then branch on its lanes first (one op execution), then the else branch
    lines = text.splitlines()
    assert sorted(lines) == sorted([f"hi {t} {t:x} {chr(t)}%" for _ in range(2)
                                    for t in range(2, 5)] + [f"lo {t}" for _ in range(2)
                                                             for t in range(2)])
    his = [ln for ln in lines if ln.startswith("hi")]
    assert his == [f"hi {t} {t:x} {chr(t)}%" for _ in range(2) for t in range(2, 5)]


def test_printf_without_arguments_and_negative_ints():
    src = """
gpu.module @m {
  gpu.func @k() kernel {
    %t = gpu.thread_id x
    %ti = arith.index_cast %t : index to i64
    %c = arith.constant -7 : i64
    %d = arith.muli %ti, %c : i64
    gpu.printf "plain\\n"
    gpu.printf "[%+4ld|%-4ld|%lu]\\n", %d, %d, %ti : i64, i64, i64
    gpu.return
  }
}
"""
    out = io.StringIO()
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(3,), stdout=out)
    want = "plain\n" * 3 + "".join(f"[{-7 * t:+4d}|{-7 * t:<4d}|{t}]\n" for t in range(3))
    assert out.getvalue() == want


def test_host_printf_through_gpu_run():
    src = """
func.func @main(%x: i32) {
  gpu.printf "host %d\\n", %x : i32
  return
}
"""
    out = io.StringIO()
    tileir.gpu.run(tileir.parse(src), "main", args=[5], stdout=out)
    assert out.getvalue() == "host 5\n"
