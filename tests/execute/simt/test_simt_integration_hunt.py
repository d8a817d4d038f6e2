"""Bugs found by running the kinds of programs MLIR's GPU execution integration tests are
(host code launching kernels, results printed with runner-library calls), each reproduced by a
small program of our own and checked against hand-computed or NumPy values:

* ``gpu.printf`` output of a launch that then fails (a ``cf.assert``, an out-of-bounds access)
  was lost: the launch's text was only written when it finished.  A GPU flushes its printf
  buffer when a kernel traps, so what was printed before the failure must come out.
* MLIR's ROCm runtime's ``mgpuMemGetDeviceMemRef1dFloat`` / ``...Int32`` (the device view of a
  host-registered memref) and the Vulkan runtime's ``fillResource{1,2,3}D{Float,Int,Int8}``
  were unknown functions ("has no body").
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from tileir import gpu
from tileir.execute.errors import ArgumentError, AssertionFailure, LaunchError


def _run(text: str, args=()) -> tuple[str, object]:
    out = io.StringIO()
    result = gpu.run(text, "main", args=list(args), stdout=out)
    return out.getvalue(), result


# -- printf before a failing launch ---------------------------------------------------------------

TRAP_LAUNCH_FUNC = """
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @check(%ok: i1) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      gpu.printf "before b%lld t%lld\\n", %b, %t : index, index
      cf.assert %ok, "stop here"
      gpu.printf "after t%lld\\n", %t : index
      gpu.return
    }
  }
  func.func @main(%ok: i1) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    gpu.launch_func @m::@check blocks in (%c2, %c1, %c1) threads in (%c3, %c1, %c1)
        args(%ok : i1)
    return
  }
}
"""


def test_printf_before_failed_assert_is_flushed():
    out = io.StringIO()
    with pytest.raises(AssertionFailure, match="stop here"):
        gpu.run(TRAP_LAUNCH_FUNC, "main", args=[False], stdout=out)
    expected = "".join(f"before b{b} t{t}\n" for b in range(2) for t in range(3))
    assert out.getvalue() == expected


def test_printf_of_a_passing_assert_unchanged():
    text, _ = _run(TRAP_LAUNCH_FUNC, [True])
    before = "".join(f"before b{b} t{t}\n" for b in range(2) for t in range(3))
    after = "".join(f"after t{t}\n" for b in range(2) for t in range(3))
    assert text == before + after


def test_printf_before_out_of_bounds_in_inline_launch_is_flushed():
    prog = """
    func.func @main(%buf: memref<4xf32>) {
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
        gpu.printf "lane %lld\\n", %tx : index
        %v = memref.load %buf[%tx] : memref<4xf32>
        gpu.terminator
      }
      return
    }
    """
    out = io.StringIO()
    with pytest.raises(LaunchError, match="out of bounds"):
        gpu.run(prog, "main", args=[np.zeros(4, np.float32)], stdout=out)
    assert out.getvalue() == "".join(f"lane {i}\n" for i in range(6))


def test_printf_of_earlier_launches_and_host_prints_kept_in_order():
    prog = """
    module attributes {gpu.container_module} {
      gpu.module @m {
        gpu.func @say(%k: i32, %ok: i1) kernel {
          gpu.printf "launch %d\\n", %k : i32
          cf.assert %ok, "second launch fails"
          gpu.return
        }
      }
      func.func @main() {
        %c1 = arith.constant 1 : index
        %k0 = arith.constant 0 : i32
        %k1 = arith.constant 1 : i32
        %t = arith.constant true
        %f = arith.constant false
        %x = arith.constant 2.5 : f32
        gpu.launch_func @m::@say blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
            args(%k0 : i32, %t : i1)
        vector.print %x : f32
        gpu.launch_func @m::@say blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
            args(%k1 : i32, %f : i1)
        return
      }
    }
    """
    out = io.StringIO()
    with pytest.raises(AssertionFailure):
        gpu.run(prog, "main", stdout=out)
    assert out.getvalue() == "launch 0\n2.5\nlaunch 1\n"


def test_cli_prints_kernel_output_before_the_error(tmp_path, capsys):
    from tileir.cli import main
    path = tmp_path / "trap.mlir"
    path.write_text(TRAP_LAUNCH_FUNC.replace("func.func @main(%ok: i1) {",
                                             "func.func @main() {\n    %ok = arith.constant false"))
    rc = main(["run", str(path), "--func", "main"])
    captured = capsys.readouterr()
    assert rc != 0
    assert captured.out.startswith("before b0 t0\nbefore b0 t1\n")
    assert "stop here" in captured.err


# -- ROCm runtime: device view of a host-registered memref ----------------------------------------

DEVICE_VIEW = """
func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32>) -> memref<?xf32>
func.func private @mgpuMemGetDeviceMemRef1dInt32(memref<?xi32>) -> memref<?xi32>
func.func @main(%x: memref<6xf32>, %n: memref<6xi32>) {
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %xd = memref.cast %x : memref<6xf32> to memref<?xf32>
  %nd = memref.cast %n : memref<6xi32> to memref<?xi32>
  %xu = memref.cast %xd : memref<?xf32> to memref<*xf32>
  gpu.host_register %xu : memref<*xf32>
  %xv = call @mgpuMemGetDeviceMemRef1dFloat(%xd) : (memref<?xf32>) -> memref<?xf32>
  %nv = call @mgpuMemGetDeviceMemRef1dInt32(%nd) : (memref<?xi32>) -> memref<?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c6, %sy = %c1, %sz = %c1) {
    %k = memref.load %nv[%tx] : memref<?xi32>
    %kf = arith.sitofp %k : i32 to f32
    %v = memref.load %xv[%tx] : memref<?xf32>
    %w = arith.mulf %v, %kf : f32
    memref.store %w, %xv[%tx] : memref<?xf32>
    %k2 = arith.addi %k, %k : i32
    memref.store %k2, %nv[%tx] : memref<?xi32>
    gpu.terminator
  }
  return
}
"""


def test_device_view_is_the_same_memory():
    x = np.array([1.5, -2.0, 0.25, 4.0, 8.0, -1.0], np.float32)
    n = np.array([3, 1, -2, 0, 5, 7], np.int32)
    want_x, want_n = x * n.astype(np.float32), n * 2
    _run(DEVICE_VIEW, [x, n])
    np.testing.assert_array_equal(x, want_x)
    np.testing.assert_array_equal(n, want_n)


def test_device_view_of_an_offset_subview_keeps_offset_and_stride():
    prog = """
    func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xf32, strided<[?], offset: ?>>)
        -> memref<?xf32, strided<[?], offset: ?>>
    func.func @main(%x: memref<10xf32>) {
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %s = memref.subview %x[1] [4] [2] : memref<10xf32> to memref<4xf32, strided<[2], offset: 1>>
      %d = memref.cast %s : memref<4xf32, strided<[2], offset: 1>>
                          to memref<?xf32, strided<[?], offset: ?>>
      %v = call @mgpuMemGetDeviceMemRef1dFloat(%d)
          : (memref<?xf32, strided<[?], offset: ?>>) -> memref<?xf32, strided<[?], offset: ?>>
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
                 threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
        %i = arith.index_cast %tx : index to i32
        %f = arith.sitofp %i : i32 to f32
        memref.store %f, %v[%tx] : memref<?xf32, strided<[?], offset: ?>>
        gpu.terminator
      }
      return
    }
    """
    x = np.full(10, -1.0, np.float32)
    _run(prog, [x])
    want = np.full(10, -1.0, np.float32)
    want[1:9:2] = np.arange(4)
    np.testing.assert_array_equal(x, want)


def test_device_view_element_type_checked():
    prog = """
    func.func private @mgpuMemGetDeviceMemRef1dFloat(memref<?xi32>) -> memref<?xi32>
    func.func @main(%n: memref<?xi32>) {
      %v = call @mgpuMemGetDeviceMemRef1dFloat(%n) : (memref<?xi32>) -> memref<?xi32>
      return
    }
    """
    with pytest.raises(ArgumentError, match="f32"):
        _run(prog, [np.zeros(3, np.int32)])


# -- Vulkan runtime: fillResource -----------------------------------------------------------------

FILL = """
func.func private @fillResource1DFloat(memref<?xf32>, f32)
func.func private @fillResource2DInt(memref<?x?xi32>, i32)
func.func private @fillResource3DInt8(memref<?x?x?xi8>, i8)
func.func private @printMemrefI32(memref<*xi32>)
func.func @main() -> (memref<5xf32>, memref<2x3xi32>, memref<2x2x2xi8>) {
  %a = memref.alloc() : memref<5xf32>
  %b = memref.alloc() : memref<2x3xi32>
  %c = memref.alloc() : memref<2x2x2xi8>
  %ad = memref.cast %a : memref<5xf32> to memref<?xf32>
  %bd = memref.cast %b : memref<2x3xi32> to memref<?x?xi32>
  %cd = memref.cast %c : memref<2x2x2xi8> to memref<?x?x?xi8>
  %fa = arith.constant -0.75 : f32
  %fb = arith.constant 123456 : i32
  %fc = arith.constant -7 : i8
  call @fillResource1DFloat(%ad, %fa) : (memref<?xf32>, f32) -> ()
  call @fillResource2DInt(%bd, %fb) : (memref<?x?xi32>, i32) -> ()
  call @fillResource3DInt8(%cd, %fc) : (memref<?x?x?xi8>, i8) -> ()
  %bu = memref.cast %b : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%bu) : (memref<*xi32>) -> ()
  return %a, %b, %c : memref<5xf32>, memref<2x3xi32>, memref<2x2x2xi8>
}
"""


def test_fill_resource_sets_every_element():
    text, (a, b, c) = _run(FILL)
    np.testing.assert_array_equal(a, np.full(5, -0.75, np.float32))
    np.testing.assert_array_equal(b, np.full((2, 3), 123456, np.int32))
    np.testing.assert_array_equal(c, np.full((2, 2, 2), -7, np.int8))
    assert text.splitlines()[1:] == ["[[123456,   123456,   123456], ",
                                     " [123456,   123456,   123456]]"]


def test_fill_resource_then_kernel():
    prog = """
    module attributes {gpu.container_module} {
      gpu.module @k {
        gpu.func @scale(%x: memref<3x4xf32>, %y: memref<3x4xf32>) kernel {
          %i = gpu.block_id x
          %j = gpu.thread_id x
          %v = memref.load %x[%i, %j] : memref<3x4xf32>
          %w = memref.load %y[%i, %j] : memref<3x4xf32>
          %r = arith.mulf %v, %w : f32
          memref.store %r, %y[%i, %j] : memref<3x4xf32>
          gpu.return
        }
      }
      func.func private @fillResource2DFloat(memref<?x?xf32>, f32)
      func.func @main(%y: memref<3x4xf32>) {
        %x = memref.alloc() : memref<3x4xf32>
        %xd = memref.cast %x : memref<3x4xf32> to memref<?x?xf32>
        %v = arith.constant 1.5 : f32
        call @fillResource2DFloat(%xd, %v) : (memref<?x?xf32>, f32) -> ()
        %c1 = arith.constant 1 : index
        %c3 = arith.constant 3 : index
        %c4 = arith.constant 4 : index
        gpu.launch_func @k::@scale blocks in (%c3, %c1, %c1) threads in (%c4, %c1, %c1)
            args(%x : memref<3x4xf32>, %y : memref<3x4xf32>)
        return
      }
    }
    """
    y = np.arange(12, dtype=np.float32).reshape(3, 4)
    want = y * np.float32(1.5)
    _run(prog, [y])
    np.testing.assert_array_equal(y, want)


def test_fill_resource_rank_checked():
    prog = """
    func.func private @fillResource1DInt(memref<?x?xi32>, i32)
    func.func @main(%b: memref<?x?xi32>) {
      %v = arith.constant 1 : i32
      call @fillResource1DInt(%b, %v) : (memref<?x?xi32>, i32) -> ()
      return
    }
    """
    with pytest.raises(ArgumentError, match="1-D"):
        _run(prog, [np.zeros((2, 2), np.int32)])
