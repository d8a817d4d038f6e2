"""gpu.shuffle, gpu.rotate, gpu.broadcast_lane / gpu.subgroup_broadcast in the SIMT engine,
against NumPy references (partial subgroups, divergent regions)."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import LaunchError, UndefinedBehaviorError

SG = 32


def _kernel(body: str, extra_args: str = "") -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%in: memref<?xf32>, %out: memref<?xf32>, %ok: memref<?xi1>{extra_args}) kernel {{
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %v = memref.load %in[%g] : memref<?xf32>
{body}
    gpu.return
  }}
}}
"""


SHUFFLE = _kernel("""
    %r, %valid = gpu.shuffle MODE %v, %off, %w : f32
    memref.store %r, %out[%g] : memref<?xf32>
    memref.store %valid, %ok[%g] : memref<?xi1>
""", ", %off: i32, %w: i32")

# only threads below %lim execute the shuffle (a divergent region)
SHUFFLE_DIVERGENT = _kernel("""
    %lim = arith.index_cast %limit : i32 to index
    %c = arith.cmpi ult, %t, %lim : index
    scf.if %c {
      %r, %valid = gpu.shuffle MODE %v, %off, %w : f32
      memref.store %r, %out[%g] : memref<?xf32>
      memref.store %valid, %ok[%g] : memref<?xi1>
    }
""", ", %off: i32, %w: i32, %limit: i32")


def reference(x: np.ndarray, threads: int, mode: str, off: int, width: int,
              active: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The convention: valid iff lane < width, 0 <= src < width, the source exists and is
    active; else the lane keeps its own value."""
    out = x.copy()
    ok = np.zeros(x.size, bool)
    for g in range(x.size):
        b, t = divmod(g, threads)
        lane, base = t % SG, t - t % SG
        src = {"xor": lane ^ off, "up": lane - off, "down": lane + off, "idx": off}[mode]
        valid = lane < width and 0 <= src < width and src < SG and base + src < threads
        if valid and active is not None:
            valid = bool(active[b * threads + base + src])
        if valid:
            out[g] = x[b * threads + base + src]
        ok[g] = valid
    return out, ok


def _run(src: str, blocks: int, threads: int, *extra):
    n = blocks * threads
    x = np.random.default_rng(7).standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    ok = np.zeros(n, bool)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(blocks,), block=(threads,),
                      args=[x, out, ok, *extra])
    return x, out, ok


@pytest.mark.parametrize("mode", ["xor", "up", "down", "idx"])
@pytest.mark.parametrize("off,width", [(1, 32), (3, 32), (0, 32), (31, 32), (5, 16),
                                       (2, 8), (7, 5), (40, 32), (-1, 32), (1, 0)])
def test_shuffle_modes_and_widths(mode, off, width):
    x, out, ok = _run(SHUFFLE.replace("MODE", mode), 2, 48, off, width)   # 48: a partial subgroup
    ref, ref_ok = reference(x, 48, mode, off, width)
    np.testing.assert_array_equal(ok, ref_ok)
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("threads", [32, 20, 64, 96])
def test_shuffle_xor_butterfly_block_sizes(threads):
    for off in (1, 2, 4, 8, 16):
        x, out, ok = _run(SHUFFLE.replace("MODE", "xor"), 3, threads, off, 32)
        ref, ref_ok = reference(x, threads, "xor", off, 32)
        np.testing.assert_array_equal(ok, ref_ok)
        np.testing.assert_array_equal(out, ref)




def test_shuffle_i32_values():
    src = """
gpu.module @m {
  gpu.func @k(%out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %v = arith.index_cast %t : index to i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %r, %ok = gpu.shuffle down %v, %c1, %c32 : i32
    memref.store %r, %out[%t] : memref<?xi32>
    gpu.return
  }
}
"""
    out = np.zeros(40, np.int32)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(1,), block=(40,), args=[out])
    t = np.arange(40)
    ref = np.where((t % 32 + 1 < 32) & (t + 1 < 40), t + 1, t)
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("offset,width", [(1, 32), (3, 8), (0, 4), (15, 16)])
def test_rotate(offset, width):
    src = _kernel(f"""
    %r, %valid = gpu.rotate %v, {offset}, {width} : f32
    memref.store %r, %out[%g] : memref<?xf32>
    memref.store %valid, %ok[%g] : memref<?xi1>
""")
    threads = 40
    x, out, ok = _run(src, 2, threads)
    ref = x.copy()
    ref_ok = np.zeros(x.size, bool)
    for g in range(x.size):
        b, t = divmod(g, threads)
        lane, base = t % SG, t - t % SG
        s = base + (lane + offset) % width
        if lane < width and s < threads:
            ref[g] = x[b * threads + s]
            ref_ok[g] = True
    np.testing.assert_array_equal(ok, ref_ok)
    np.testing.assert_array_equal(out, ref)


def test_broadcast_lane_first_any_and_specific():
    src = _kernel("""
    %lim = arith.constant 5 : index
    %c = arith.cmpi uge, %t, %lim : index
    scf.if %c {
      %f = gpu.broadcast_lane %v, first_lane : f32
      %a = gpu.broadcast_lane %v, any_lane : f32
      %l3 = arith.constant 3 : i32
      %s = gpu.subgroup_broadcast %v,  specific_lane %l3 : f32
      %fa = gpu.subgroup_broadcast %v,  first_active_lane : f32
      %sum0 = arith.addf %f, %a : f32
      %sum1 = arith.addf %sum0, %fa : f32
      memref.store %sum1, %out[%g] : memref<?xf32>
      memref.store %s, %in[%g] : memref<?xf32>
    }
""")
    # specific_lane 3 is inactive in subgroup 0 (threads < 5 skip): undefined behaviour
    with pytest.raises(UndefinedBehaviorError, match="does not execute the op"):
        _run(src, 2, 48)


def test_broadcast_first_lane_values():
    src = _kernel("""
    %lim = arith.constant 5 : index
    %c = arith.cmpi uge, %t, %lim : index
    scf.if %c {
      %f = gpu.broadcast_lane %v, first_lane : f32
      %l3 = arith.constant 3 : i32
      %s = gpu.broadcast_lane %v, lane %l3 : f32
      %r = arith.subf %f, %s : f32
      memref.store %f, %out[%g] : memref<?xf32>
    }
""")
    with pytest.raises(LaunchError):
        _run(src, 1, 48)          # lane 3 of subgroup 0 is inactive
    ok_src = src.replace("arith.constant 3 : i32", "arith.constant 9 : i32")
    x, out, _ = _run(ok_src, 2, 48)
    t = np.arange(96) % 48
    first = np.where(t < 32, 5, 32) + (np.arange(96) // 48) * 48
    np.testing.assert_array_equal(out[t >= 5], x[first][t >= 5])


@pytest.mark.parametrize("op", ["gpu.broadcast_lane %v, lane %l : f32",
                                "gpu.subgroup_broadcast %v,  specific_lane %l : f32",
                                "gpu.subgroup_broadcast %v,  first_active_lane : f32",
                                "gpu.broadcast_lane %v, any_lane : f32"])
def test_broadcast_values(op):
    src = _kernel(f"""
    %lim = arith.constant 3 : index
    %c = arith.cmpi uge, %t, %lim : index
    scf.if %c {{
      %l = arith.constant 17 : i32
      %s = {op}
      memref.store %s, %out[%g] : memref<?xf32>
    }}
""")
    x, out, _ = _run(src, 2, 64)
    g = np.arange(128)
    t = g % 64
    if "%l" in op:                          # lane 17 of each subgroup
        src_lane = t - t % 32 + 17
    else:                                   # first active lane: 3 in subgroup 0, 32 in 1
        src_lane = np.where(t < 32, 3, 32)
    want = x[(g // 64) * 64 + src_lane]
    np.testing.assert_array_equal(out[t >= 3], want[t >= 3])
    assert np.isnan(out[t < 3]).all()



MASKED_2D = """
gpu.module @m {
  gpu.func @k(%in: memref<?xf32>, %out: memref<?xf32>, %ok: memref<?xi1>, %mask: memref<?xi1>,
              %off: i32, %w: i32) kernel {
    %x = gpu.thread_id x
    %y = gpu.thread_id y
    %b = gpu.block_id x
    %c8 = arith.constant 8 : index
    %c48 = arith.constant 48 : index
    %row = arith.muli %y, %c8 : index
    %lin = arith.addi %row, %x : index
    %bb = arith.muli %b, %c48 : index
    %g = arith.addi %bb, %lin : index
    %v = memref.load %in[%g] : memref<?xf32>
    %m = memref.load %mask[%g] : memref<?xi1>
    scf.if %m {
      %r, %valid = gpu.shuffle MODE %v, %off, %w : f32
      memref.store %r, %out[%g] : memref<?xf32>
      memref.store %valid, %ok[%g] : memref<?xi1>
    }
    gpu.return
  }
}
"""


