"""SIMT engine: what a kernel sees of the descriptors of its workgroup and private memory.

On a GPU each block has its own workgroup memory and each thread its own private memory, at the
same addresses in every block (thread): a descriptor's offset counts from the start of that
memory, the base returned by ``memref.extract_strided_metadata`` is its start, and a descriptor
built on that base (``memref.reinterpret_cast``) addresses the block's (thread's) own copy and
may not reach past it.  The engine stores all copies in one buffer; these tests check that none
of that shows.  The expected values follow from those GPU semantics; every program is also
verified by MLIR's ``mlir-opt`` where it is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import MemoryAccessError

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import find_mlir_opt, run_mlir_opt  # noqa: E402

_needs_mlir_opt = pytest.mark.skipif(find_mlir_opt() is None,
                                     reason="MLIR's mlir-opt not found (mlir-22-tools)")

WG = "#gpu.address_space<workgroup>"
PR = "#gpu.address_space<private>"


def _src(text: str) -> str:
    return text.replace("WG", WG).replace("PR", PR)


# -- workgroup attribution: metadata, subview, reinterpret_cast of the base ---------------------

WORKGROUP = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<16xindex>, %vals: memref<4xf32>) workgroup(%sh: memref<8xf32, WG>) kernel {
    %b = gpu.block_id x
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %bi = arith.index_cast %b : index to i32
    %f = arith.sitofp %bi : i32 to f32
    %tf0 = arith.index_cast %t : index to i32
    %tf = arith.sitofp %tf0 : i32 to f32
    %c10 = arith.constant 10.0 : f32
    %bf10 = arith.mulf %f, %c10 : f32
    %v0 = arith.addf %bf10, %tf : f32
    memref.store %v0, %sh[%t] : memref<8xf32, WG>
    gpu.barrier
    %base, %off, %sz, %st = memref.extract_strided_metadata %sh : memref<8xf32, WG> -> memref<f32, WG>, index, index, index
    %sv = memref.subview %sh[5] [2] [1] : memref<8xf32, WG> to memref<2xf32, strided<[1], offset: 5>, WG>
    %b2, %off2, %sz2, %st2 = memref.extract_strided_metadata %sv : memref<2xf32, strided<[1], offset: 5>, WG> -> memref<f32, WG>, index, index, index
    %r = memref.reinterpret_cast %base to offset: [3], sizes: [2], strides: [1] : memref<f32, WG> to memref<2xf32, strided<[1], offset: 3>, WG>
    %b3, %off3, %sz3, %st3 = memref.extract_strided_metadata %r : memref<2xf32, strided<[1], offset: 3>, WG> -> memref<f32, WG>, index, index, index
    %r2 = memref.reinterpret_cast %b2 to offset: [0], sizes: [8], strides: [1] : memref<f32, WG> to memref<8xf32, WG>
    %v = memref.load %r[%c0] : memref<2xf32, strided<[1], offset: 3>, WG>
    %w = memref.load %r2[%t] : memref<8xf32, WG>
    %first = memref.load %base[] : memref<f32, WG>
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      %k = arith.muli %b, %c4 : index
      memref.store %off, %out[%k] : memref<16xindex>
      %k1 = arith.addi %k, %c4 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %i1 = arith.addi %k, %c1 : index
      %i2 = arith.addi %k, %c2 : index
      %i3 = arith.addi %k, %c3 : index
      memref.store %off2, %out[%i1] : memref<16xindex>
      memref.store %off3, %out[%i2] : memref<16xindex>
      %s = arith.addi %sz, %st : index
      memref.store %s, %out[%i3] : memref<16xindex>
      %fv = arith.addf %v, %first : f32
      memref.store %fv, %vals[%b] : memref<4xf32>
    }
    %c1i = arith.constant 1 : index
    %last = arith.cmpi eq, %t, %c4 : index
    scf.if %last {
      %wi = arith.fptosi %w : f32 to i32
      %wx = arith.index_cast %wi : i32 to index
      %c12 = arith.constant 12 : index
      %j = arith.addi %c12, %b : index
      memref.store %wx, %out[%j] : memref<16xindex>
    }
    gpu.return
  }
}
""")


def test_workgroup_descriptors_are_per_block():
    out = np.full(16, -1, np.int64)
    vals = np.zeros(4, np.float32)
    tileir.gpu.launch(tileir.parse(WORKGROUP), "k::f", grid=(3, 1, 1), block=(8, 1, 1),
                      args=[out, vals])
    for b in range(3):
        # offset of the attribution 0, of the subview 5, of the reinterpret_cast 3; 8 + 1
        assert list(out[4 * b:4 * b + 4]) == [0, 5, 3, 9], (b, out)
        # element 3 of the block's own copy plus its element 0 (the base)
        assert vals[b] == (10 * b + 3) + (10 * b)
        # the reinterpret_cast of the subview's base at offset 0 is the whole copy again
        assert out[12 + b] == 10 * b + 4
    assert out[15] == -1


# -- private attributions and allocas: per thread ---------------------------------------------

PRIVATE = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<64xindex>) private(%p: memref<4xindex, PR>) kernel {
    %b = gpu.block_id x
    %t = gpu.thread_id x
    %n = gpu.block_dim x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %bn = arith.muli %b, %n : index
    %g = arith.addi %bn, %t : index
    memref.store %g, %p[%c2] : memref<4xindex, PR>
    %a = memref.alloca() : memref<3xindex, PR>
    memref.store %t, %a[%c1] : memref<3xindex, PR>
    %sv = memref.subview %p[1] [3] [1] : memref<4xindex, PR> to memref<3xindex, strided<[1], offset: 1>, PR>
    %base, %off, %sz, %st = memref.extract_strided_metadata %sv : memref<3xindex, strided<[1], offset: 1>, PR> -> memref<index, PR>, index, index, index
    %r = memref.reinterpret_cast %base to offset: [2], sizes: [1], strides: [1] : memref<index, PR> to memref<1xindex, strided<[1], offset: 2>, PR>
    %x = memref.load %r[%c0] : memref<1xindex, strided<[1], offset: 2>, PR>
    %ab, %aoff, %asz, %ast = memref.extract_strided_metadata %a : memref<3xindex, PR> -> memref<index, PR>, index, index, index
    %ar = memref.reinterpret_cast %ab to offset: [%c1], sizes: [1], strides: [1] : memref<index, PR> to memref<1xindex, strided<[1], offset: ?>, PR>
    %y = memref.load %ar[%c0] : memref<1xindex, strided<[1], offset: ?>, PR>
    %k = arith.muli %g, %c4 : index
    %k1 = arith.addi %k, %c1 : index
    %k2 = arith.addi %k, %c2 : index
    %k3 = arith.addi %k, %c3 : index
    memref.store %off, %out[%k] : memref<64xindex>
    memref.store %x, %out[%k1] : memref<64xindex>
    memref.store %aoff, %out[%k2] : memref<64xindex>
    memref.store %y, %out[%k3] : memref<64xindex>
    gpu.return
  }
}
""")


def test_private_descriptors_are_per_thread():
    out = np.full(64, -1, np.int64)
    tileir.gpu.launch(tileir.parse(PRIVATE), "k::f", grid=(2, 1, 1), block=(8, 1, 1),
                      args=[out])
    for g in range(16):
        assert list(out[4 * g:4 * g + 4]) == [1, g, 0, g % 8], (g, out)


# -- a descriptor reaching past the block's copy is out of bounds --------------------------------

ESCAPE = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<4xf32>) workgroup(%sh: memref<8xf32, WG>) kernel {
    %c0 = arith.constant 0 : index
    %base, %off, %sz, %st = memref.extract_strided_metadata %sh : memref<8xf32, WG> -> memref<f32, WG>, index, index, index
    %r = memref.reinterpret_cast %base to offset: [OFF], sizes: [SIZE], strides: [1] : memref<f32, WG> to memref<SIZExf32, strided<[1], offset: OFF>, WG>
    %v = memref.load %r[%c0] : memref<SIZExf32, strided<[1], offset: OFF>, WG>
    memref.store %v, %out[%c0] : memref<4xf32>
    gpu.return
  }
}
""")


@pytest.mark.parametrize("off,size", [(8, 1), (6, 4), (0, 9), (15, 1)])
def test_reinterpret_cast_past_the_blocks_copy_faults(off, size):
    # (with 3 blocks the engine's buffer holds 24 elements: these stay inside it, but not
    # inside the 8 elements that are the block's own)
    src = ESCAPE.replace("OFF", str(off)).replace("SIZE", str(size))
    with pytest.raises(MemoryAccessError, match="outside the block's own"):
        tileir.gpu.launch(tileir.parse(src), "k::f", grid=(3, 1, 1), block=(2, 1, 1),
                          args=[np.zeros(4, np.float32)])


def test_reinterpret_cast_inside_the_blocks_copy_is_fine():
    src = ESCAPE.replace("OFF", "7").replace("SIZE", "1")
    out = np.ones(4, np.float32)
    tileir.gpu.launch(tileir.parse(src), "k::f", grid=(3, 1, 1), block=(2, 1, 1), args=[out])
    assert out[0] == 0.0


# -- per-thread offsets, divergent threads ------------------------------------------------------

LANES = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<32xindex>) workgroup(%sh: memref<8xindex, WG>) kernel {
    %b = gpu.block_id x
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %c100 = arith.constant 100 : index
    %bb = arith.muli %b, %c100 : index
    %v = arith.addi %bb, %t : index
    memref.store %v, %sh[%t] : memref<8xindex, WG>
    gpu.barrier
    %odd0 = arith.remui %t, %c3 : index
    %odd = arith.cmpi eq, %odd0, %c0 : index
    %bt = arith.muli %b, %c8 : index
    %slot = arith.addi %bt, %t : index
    scf.if %odd {
      %sv = memref.subview %sh[%t] [1] [1] : memref<8xindex, WG> to memref<1xindex, strided<[1], offset: ?>, WG>
      %base, %off, %sz, %st = memref.extract_strided_metadata %sv : memref<1xindex, strided<[1], offset: ?>, WG> -> memref<index, WG>, index, index, index
      %r = memref.reinterpret_cast %base to offset: [%off], sizes: [1], strides: [1] : memref<index, WG> to memref<1xindex, strided<[1], offset: ?>, WG>
      %x = memref.load %r[%c0] : memref<1xindex, strided<[1], offset: ?>, WG>
      %s = arith.muli %off, %c100 : index
      %y = arith.addi %s, %x : index
      memref.store %y, %out[%slot] : memref<32xindex>
    } else {
      %r = memref.reinterpret_cast %sh to offset: [%t], sizes: [1], strides: [1] : memref<8xindex, WG> to memref<1xindex, strided<[1], offset: ?>, WG>
      %x = memref.load %r[%c0] : memref<1xindex, strided<[1], offset: ?>, WG>
      memref.store %x, %out[%slot] : memref<32xindex>
    }
    gpu.return
  }
}
""")


def test_per_thread_offsets_in_divergent_code():
    out = np.full(32, -1, np.int64)
    tileir.gpu.launch(tileir.parse(LANES), "k::f", grid=(4, 1, 1), block=(8, 1, 1),
                      args=[out])
    want = []
    for b in range(4):
        for t in range(8):
            x = 100 * b + t
            want.append(t * 100 + x if t % 3 == 0 else x)
    assert list(out) == want


# -- dynamic shared memory and memref.view ------------------------------------------------------

DYNAMIC = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<12xindex>) kernel {
    %b = gpu.block_id x
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, WG>
    %v = memref.view %dyn[%c16][] : memref<?xi8, WG> to memref<4xindex, WG>
    %bt = arith.muli %b, %c16 : index
    %x = arith.addi %bt, %t : index
    memref.store %x, %v[%t] : memref<4xindex, WG>
    gpu.barrier
    %db, %doff, %dsz, %dst = memref.extract_strided_metadata %dyn : memref<?xi8, WG> -> memref<i8, WG>, index, index, index
    %base, %off, %sz, %st = memref.extract_strided_metadata %v : memref<4xindex, WG> -> memref<index, WG>, index, index, index
    %r = memref.reinterpret_cast %base to offset: [2], sizes: [2], strides: [1] : memref<index, WG> to memref<2xindex, strided<[1], offset: 2>, WG>
    %y = memref.load %r[%c0] : memref<2xindex, strided<[1], offset: 2>, WG>
    %is0 = arith.cmpi eq, %t, %c0 : index
    scf.if %is0 {
      %k = arith.muli %b, %c3 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %k1 = arith.addi %k, %c1 : index
      %k2 = arith.addi %k, %c2 : index
      %o = arith.addi %off, %doff : index
      memref.store %o, %out[%k] : memref<12xindex>
      memref.store %dsz, %out[%k1] : memref<12xindex>
      memref.store %y, %out[%k2] : memref<12xindex>
    }
    gpu.return
  }
}
""")


def test_dynamic_shared_memory_view_descriptors():
    out = np.full(12, -1, np.int64)
    tileir.gpu.launch(tileir.parse(DYNAMIC), "k::f", grid=(4, 1, 1), block=(4, 1, 1),
                      args=[out], dynamic_shared_memory=48)
    for b in range(4):
        # both offsets 0 (a view's offset is 0, its base the byte it starts at); 48 bytes;
        # element 2 of the view in the block's own memory
        assert list(out[3 * b:3 * b + 3]) == [0, 48, 16 * b + 2], (b, out)


DYNAMIC_ESCAPE = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<1xi8>) kernel {
    %c0 = arith.constant 0 : index
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, WG>
    %base, %off, %sz, %st = memref.extract_strided_metadata %dyn : memref<?xi8, WG> -> memref<i8, WG>, index, index, index
    %r = memref.reinterpret_cast %base to offset: [40], sizes: [1], strides: [1] : memref<i8, WG> to memref<1xi8, strided<[1], offset: 40>, WG>
    %y = memref.load %r[%c0] : memref<1xi8, strided<[1], offset: 40>, WG>
    memref.store %y, %out[%c0] : memref<1xi8>
    gpu.return
  }
}
""")


def test_dynamic_shared_memory_has_only_its_size():
    # 36 bytes asked for: byte 40 is not the block's (the engine pads each copy to 48)
    with pytest.raises(MemoryAccessError, match="outside the block's own"):
        tileir.gpu.launch(tileir.parse(DYNAMIC_ESCAPE), "k::f", grid=(2, 1, 1),
                          block=(1, 1, 1), args=[np.zeros(1, np.int8)],
                          dynamic_shared_memory=36)


# -- gpu.printf of metadata; the aligned pointer is the same in every block ---------------------

PRINTF = _src("""
gpu.module @k {
  gpu.func @f(%out: memref<4xindex>) workgroup(%sh: memref<4x8xf32, WG>) kernel {
    %b = gpu.block_id x
    %t = gpu.thread_id x
    %sv = memref.subview %sh[1, %t] [2, 1] [1, 1] : memref<4x8xf32, WG> to memref<2x1xf32, strided<[8, 1], offset: ?>, WG>
    %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %sv : memref<2x1xf32, strided<[8, 1], offset: ?>, WG> -> memref<f32, WG>, index, index, index, index, index
    gpu.printf "b%lld t%lld off=%lld sizes=%lldx%lld strides=%lld,%lld\\n", %b, %t, %off, %sz#0, %sz#1, %st#0, %st#1 : index, index, index, index, index, index, index
    %p = memref.extract_aligned_pointer_as_index %sv : memref<2x1xf32, strided<[8, 1], offset: ?>, WG> -> index
    memref.store %p, %out[%b] : memref<4xindex>
    gpu.return
  }
}
""")


def test_printf_of_metadata_and_aligned_pointer(capfd):
    out = np.zeros(4, np.int64)
    tileir.gpu.launch(tileir.parse(PRINTF), "k::f", grid=(3, 1, 1), block=(2, 1, 1),
                      args=[out])
    printed = capfd.readouterr().out
    want = "".join(f"b{b} t{t} off={8 + t} sizes=2x1 strides=8,1\n"
                   for b in range(3) for t in range(2))
    assert want in printed
    assert out[0] == out[1] == out[2] != 0 and out[3] == 0


# -- every program is one mlir-opt accepts ------------------------------------------------------

_PROGRAMS = {"workgroup": WORKGROUP, "private": PRIVATE, "lanes": LANES, "dynamic": DYNAMIC,
             "dynamic_escape": DYNAMIC_ESCAPE, "printf": PRINTF,
             "escape": ESCAPE.replace("OFF", "6").replace("SIZE", "4")}


@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_programs_verify(name):
    tileir.verify(tileir.parse(_PROGRAMS[name]))


@_needs_mlir_opt
@pytest.mark.parametrize("name", sorted(_PROGRAMS))
def test_programs_are_valid_for_mlir_opt(name):
    run = run_mlir_opt(_PROGRAMS[name])
    assert run.returncode == 0, run.stderr
