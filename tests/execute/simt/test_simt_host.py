"""Host runtime: device memory, copies, memset, async tokens and their checks."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import ArgumentError, MemoryAccessError, UndefinedBehaviorError

KERNEL = """
  gpu.module @k {
    gpu.func @scale(%a: memref<8xf32>, %f: f32) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = arith.mulf %x, %f : f32
      memref.store %y, %a[%i] : memref<8xf32>
      gpu.return
    }
  }
"""


def module(main: str) -> str:
    return "module attributes {gpu.container_module} {\n" + KERNEL + main + "\n}\n"


ASYNC_CHAIN = """
  func.func @main(%h: memref<8xf32>, %out: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 3.0 : f32
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<8xf32>, memref<8xf32>
    %t3 = gpu.launch_func async [%t2] @k::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%d : memref<8xf32>, %f : f32)
    %t4 = gpu.memcpy async [%t3] %out, %d : memref<8xf32>, memref<8xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<8xf32>
    gpu.wait [%t5]
    %c0 = arith.constant 0 : index
    %v = memref.load %out[%c0] : memref<8xf32>
    return
  }
"""


def test_async_chain_alloc_copy_launch_copy_wait():
    h = np.arange(8, dtype=np.float32)
    out = np.zeros(8, np.float32)
    gpu.run(module(ASYNC_CHAIN), "main", args=[h, out])
    np.testing.assert_array_equal(out, 3 * h)
    np.testing.assert_array_equal(h, np.arange(8))


def test_host_use_before_wait_is_an_error():
    text = ASYNC_CHAIN.replace("gpu.wait [%t5]", "")
    with pytest.raises(UndefinedBehaviorError, match="before the async 'gpu.memcpy'.*is waited "
                                                     "on"):
        gpu.run(module(text), "main", args=[np.zeros(8, np.float32), np.zeros(8, np.float32)])


def test_missing_dependency_is_an_error():
    text = ASYNC_CHAIN.replace("gpu.launch_func async [%t2]", "gpu.launch_func async [%t1]")
    with pytest.raises(UndefinedBehaviorError, match="still being written by 'gpu.memcpy'"):
        gpu.run(module(text), "main", args=[np.zeros(8, np.float32), np.zeros(8, np.float32)])


def test_sync_ops_memset_and_device_memory_rules():
    text = """
  func.func @main(%out: memref<8xf32>) -> memref<8xf32> {
    %d = gpu.alloc () : memref<8xf32>
    %s = gpu.alloc host_shared () : memref<8xf32>
    %v = arith.constant 2.5 : f32
    gpu.memset %d, %v : memref<8xf32>, f32
    gpu.memcpy %s, %d : memref<8xf32>, memref<8xf32>
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant 2.0 : f32
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%s : memref<8xf32>, %f : f32)
    %c0 = arith.constant 0 : index
    %x = memref.load %s[%c0] : memref<8xf32>
    memref.store %x, %out[%c0] : memref<8xf32>
    gpu.dealloc %d : memref<8xf32>
    return %s : memref<8xf32>
  }
"""
    out = np.zeros(8, np.float32)
    (s,) = gpu.run(module(text), "main", args=[out])
    np.testing.assert_array_equal(s, np.full(8, 5.0, np.float32))
    assert out[0] == 5.0
    bad = text.replace("memref.load %s[%c0]", "memref.load %d[%c0]").replace(
        "gpu.dealloc %d : memref<8xf32>\n", "")
    with pytest.raises(MemoryAccessError, match="host code accesses device memory"):
        gpu.run(module(bad), "main", args=[out])


def test_use_after_gpu_dealloc_and_shape_mismatch():
    text = """
  func.func @main(%h: memref<8xf32>, %g: memref<4xf32>) {
    %d = gpu.alloc () : memref<8xf32>
    gpu.dealloc %d : memref<8xf32>
    gpu.memcpy %d, %h : memref<8xf32>, memref<8xf32>
    return
  }
"""
    with pytest.raises(MemoryAccessError, match="after gpu.dealloc"):
        gpu.run(module(text), "main", args=[np.zeros(8, np.float32), np.zeros(4, np.float32)])


def test_register_and_default_device():
    text = """
  func.func @main(%h: memref<8xf32>) {
    %u = memref.cast %h : memref<8xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    %c0 = arith.constant 0 : i32
    gpu.set_default_device %c0
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f = arith.constant -1.0 : f32
    gpu.launch_func @k::@scale blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%h : memref<8xf32>, %f : f32)
    gpu.host_unregister %u : memref<*xf32>
    return
  }
"""
    h = np.arange(8, dtype=np.float32)
    gpu.run(module(text), "main", args=[h])
    np.testing.assert_array_equal(h, -np.arange(8))
    with pytest.raises(ArgumentError, match="one device"):
        gpu.run(module(text.replace("%c0 = arith.constant 0 : i32", "%c0 = arith.constant 2 : "
                                    "i32")), "main", args=[h])


def test_memset_with_an_integer_constant():
    """Helper h4's finding: the value of an integer arith.constant is affine on the host."""
    text = """
  func.func @main(%out: memref<3xi32>) {
    %d = gpu.alloc host_shared () : memref<3xi32>
    %v = arith.constant 7 : i32
    gpu.memset %d, %v : memref<3xi32>, i32
    gpu.memcpy %out, %d : memref<3xi32>, memref<3xi32>
    return
  }
"""
    out = np.zeros(3, np.int32)
    gpu.run(module(text), "main", args=[out])
    np.testing.assert_array_equal(out, 7)


def test_async_gpu_launch_region_writes_are_pending_until_waited():
    text = """
  func.func @main(%h: memref<4xf32>) -> f32 {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t0 = gpu.wait async
    %t = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %v = memref.load %h[%tx] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %h[%tx] : memref<4xf32>
      gpu.terminator
    }
    WAIT
    %c0 = arith.constant 0 : index
    %r = memref.load %h[%c0] : memref<4xf32>
    return %r : f32
  }
"""
    h = np.arange(1, 5, dtype=np.float32)
    assert gpu.run(module(text.replace("WAIT", "gpu.wait [%t]")), "main", args=[h]) == [2.0]
    with pytest.raises(UndefinedBehaviorError, match="before the async 'gpu.launch'"):
        gpu.run(module(text.replace("WAIT", "")), "main", args=[h])


def test_integer_parameters_reject_fractions_and_overflow_with_one_message():
    module = tileir.parse("""
func.func @main(%n: index, %k: i8) -> index {
  return %n : index
}
""")
    assert int(gpu.run(module, "main", args=[7.0, 3])[0]) == 7       # an integral float is fine
    with pytest.raises(ArgumentError, match=r"^(error: )?argument #0: 1\.5 is not an integer \(index\)$"):
        gpu.run(module, "main", args=[1.5, 3])
    with pytest.raises(ArgumentError, match=r"^(error: )?argument #1: 300 does not fit i8$"):
        gpu.run(module, "main", args=[1, 300])
