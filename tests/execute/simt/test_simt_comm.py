"""Cross-thread gpu ops (shuffles, reductions, MMA, warp regions, printf), barriers and
racecheck, against NumPy models of each thread."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import UndefinedBehaviorError

WG = "#gpu.address_space<workgroup>"


def launch(body: str, params: str, grid, block, args, attrs: str = "", **kw):
    text = (f"module attributes {{gpu.container_module}} {{\n  gpu.module @m {{\n"
            f"    gpu.func @k({params}) {attrs} kernel {{\n{body}\n      gpu.return\n    }}\n"
            f"  }}\n}}\n")
    gpu.launch(tileir.parse(text), "m::k", grid=grid, block=block, args=args, **kw)


PRELUDE = """
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %b0 = arith.muli %bid, %bdim : index
      %i = arith.addi %b0, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
"""


def _model_shuffle(x, threads, mode, off, width):
    out, valid = x.copy(), np.zeros(x.size, bool)
    for g in range(x.size):
        t = g % threads
        lane, base = t % 32, g - t % 32
        size = min(32, threads - (t - lane))
        src = {"xor": lane ^ off, "up": lane - off, "down": lane + off, "idx": off}[mode]
        ok = lane < width and 0 <= src < width and src < size
        if ok:
            out[g] = x[base + src]
            valid[g] = True
    return out, valid


@pytest.mark.parametrize("mode, off, width", [("xor", 1, 32), ("xor", 4, 16), ("up", 3, 32),
                                              ("down", 5, 32), ("down", 2, 8), ("idx", 7, 32),
                                              ("idx", 20, 16)])
def test_shuffle_modes_with_partial_subgroups(mode, off, width):
    body = PRELUDE + f"""
      %off = arith.constant {off} : i32
      %w = arith.constant {width} : i32
      %s, %ok = gpu.shuffle {mode} %x, %off, %w : f32
      memref.store %s, %out[%i] : memref<?xf32>
      %okf = arith.uitofp %ok : i1 to f32
      memref.store %okf, %valid[%i] : memref<?xf32>
"""
    threads = 48
    x = np.arange(2 * threads, dtype=np.float32) + 0.5
    out = np.zeros_like(x)
    valid = np.zeros_like(x)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>, %valid: memref<?xf32>", (2,),
           (threads,), [x, out, valid])
    e_out, e_valid = _model_shuffle(x, threads, mode, off, width)
    np.testing.assert_array_equal(out, e_out)
    np.testing.assert_array_equal(valid.astype(bool), e_valid)


def test_warp_shuffle_tree_reduction_and_rotate():
    body = PRELUDE + """
      %c32 = arith.constant 32 : i32
      %c1 = arith.constant 1 : i32
      %c16 = arith.constant 16 : i32
      %r = scf.for %k = %c1 to %c32 step %c1 iter_args(%acc = %x) -> (f32) : i32 {
        %one = arith.constant 1 : i32
        %is_pow = arith.andi %k, %k : i32
        scf.yield %acc : f32
      }
      %s16, %v16 = gpu.shuffle xor %x, %c16, %c32 : f32
      %a16 = arith.addf %x, %s16 : f32
      %c8 = arith.constant 8 : i32
      %s8, %v8 = gpu.shuffle xor %a16, %c8, %c32 : f32
      %a8 = arith.addf %a16, %s8 : f32
      %c4 = arith.constant 4 : i32
      %s4, %v4 = gpu.shuffle xor %a8, %c4, %c32 : f32
      %a4 = arith.addf %a8, %s4 : f32
      %c2 = arith.constant 2 : i32
      %s2, %v2 = gpu.shuffle xor %a4, %c2, %c32 : f32
      %a2 = arith.addf %a4, %s2 : f32
      %s1, %v1 = gpu.shuffle xor %a2, %c1, %c32 : f32
      %a1 = arith.addf %a2, %s1 : f32
      memref.store %a1, %out[%i] : memref<?xf32>
      %rot, %rv = gpu.rotate %x, 3, 16 : f32
      memref.store %rot, %valid[%i] : memref<?xf32>
"""
    x = np.arange(64, dtype=np.float32)
    out = np.zeros_like(x)
    rot = np.zeros_like(x)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>, %valid: memref<?xf32>", (1,), (64,),
           [x, out, rot])
    np.testing.assert_array_equal(out, np.repeat(x.reshape(2, 32).sum(1), 32))
    lane = np.arange(64) % 32
    base = np.arange(64) - lane
    expect = np.where(lane < 16, x[base + (lane + 3) % 16], x)
    np.testing.assert_array_equal(rot, expect)


def test_subgroup_reduce_clusters_and_all_reduce_forms():
    body = PRELUDE + """
      %s = gpu.subgroup_reduce add %x : (f32) -> f32
      memref.store %s, %out[%i] : memref<?xf32>
      %m = gpu.subgroup_reduce maxnumf %x cluster(size = 4, stride = 2) : (f32) -> f32
      memref.store %m, %out2[%i] : memref<?xf32>
      %a = gpu.all_reduce add %x uniform {} : (f32) -> f32
      memref.store %a, %out3[%i] : memref<?xf32>
      %p = gpu.all_reduce %x {
      ^bb(%l: f32, %r: f32):
        %t = arith.maximumf %l, %r : f32
        gpu.yield %t : f32
      } : (f32) -> (f32)
      memref.store %p, %out4[%i] : memref<?xf32>
"""
    rng = np.random.default_rng(5)
    x = rng.integers(-50, 50, 3 * 40).astype(np.float32)
    outs = [np.zeros_like(x) for _ in range(4)]
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>, %out2: memref<?xf32>, "
           "%out3: memref<?xf32>, %out4: memref<?xf32>", (3,), (40,), [x] + outs)
    e1, e2 = np.zeros_like(x), np.zeros_like(x)
    for g in range(x.size):
        t = g % 40
        lane, first = t % 32, g - t % 32
        size = min(32, 40 - (t - lane))
        e1[g] = x[first:first + size].sum()
        base = lane // 8 * 8 + lane % 2
        members = [base + 2 * k for k in range(4) if base + 2 * k < size]
        e2[g] = max(x[first + m] for m in members)
    np.testing.assert_array_equal(outs[0], e1)
    np.testing.assert_array_equal(outs[1], e2)
    np.testing.assert_array_equal(outs[2], np.repeat(x.reshape(3, 40).sum(1), 40))
    np.testing.assert_array_equal(outs[3], np.repeat(x.reshape(3, 40).max(1), 40))


def test_broadcast_lane_forms():
    body = PRELUDE + """
      %f = gpu.broadcast_lane %x, first_lane : f32
      memref.store %f, %out[%i] : memref<?xf32>
      %c5 = arith.constant 5 : i32
      %l = gpu.broadcast_lane %x, lane %c5 : f32
      memref.store %l, %out2[%i] : memref<?xf32>
"""
    x = np.arange(64, dtype=np.float32) * 3
    out, out2 = np.zeros_like(x), np.zeros_like(x)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>, %out2: memref<?xf32>", (1,), (64,),
           [x, out, out2])
    np.testing.assert_array_equal(out, np.repeat(x[::32], 32))
    np.testing.assert_array_equal(out2, np.repeat(x[5::32], 32))


def test_subgroup_mma_16x16x16_f16_to_f32_with_transpose():
    body = """
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index, transpose} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C {b_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %E = gpu.subgroup_mma_elementwise addf %D, %C : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %E, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
"""
    rng = np.random.default_rng(2)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    c = rng.standard_normal((16, 16)).astype(np.float32)
    d = np.zeros((16, 16), np.float32)
    launch(body, "%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>, "
           "%d: memref<16x16xf32>", (1,), (32,), [a, b, c, d])
    exact = (a.astype(np.float64) @ b.T.astype(np.float64) + c).astype(np.float32)
    np.testing.assert_array_equal(d, exact + c)


def test_warp_execute_on_lane_0_distributes_block_cyclically():
    body = PRELUDE + """
      %lid = gpu.lane_id
      %v = vector.broadcast %x : f32 to vector<2xf32>
      %r = gpu.warp_execute_on_lane_0(%lid)[32] args(%v : vector<2xf32>) -> (vector<2xf32>) {
      ^bb0(%all: vector<64xf32>):
        %two = arith.constant dense<2.0> : vector<64xf32>
        %d = arith.mulf %all, %two : vector<64xf32>
        gpu.yield %d : vector<64xf32>
      }
      %e0 = vector.extract %r[0] : f32 from vector<2xf32>
      %e1 = vector.extract %r[1] : f32 from vector<2xf32>
      memref.store %e0, %out[%i] : memref<?xf32>
      memref.store %e1, %out2[%i] : memref<?xf32>
"""
    x = np.arange(32, dtype=np.float32)
    out, out2 = np.zeros_like(x), np.zeros_like(x)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>, %out2: memref<?xf32>", (1,), (32,),
           [x, out, out2])
    whole = np.repeat(x, 2) * 2        # lane l contributed (x_l, x_l)
    np.testing.assert_array_equal(out, whole[0::2])
    np.testing.assert_array_equal(out2, whole[1::2])


def test_printf_order_and_formatting():
    body = """
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %t = arith.index_cast %tid : index to i32
      %b = arith.index_cast %bid : index to i32
      %f = arith.sitofp %t : i32 to f32
      gpu.printf "block %d thread %d value %.2f\\n", %b, %t, %f : i32, i32, f32
"""
    buf = io.StringIO()
    launch(body, "", (2,), (3,), [], stdout=buf)
    lines = buf.getvalue().splitlines()
    assert lines == [f"block {b} thread {t} value {t:.2f}" for b in range(2) for t in range(3)]


def test_shared_memory_tree_reduction_with_barriers_in_loops():
    body = f"""
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %c256 = arith.constant 256 : index
      %b0 = arith.muli %bid, %c256 : index
      %i = arith.addi %b0, %tid : index
      %x = memref.load %in[%i] : memref<?xf32>
      memref.store %x, %sh[%tid] : memref<256xf32, {WG}>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c128 = arith.constant 128 : index
      %c2 = arith.constant 2 : index
      %fin = scf.for %k = %c0 to %c8 step %c1 iter_args(%s = %c128) -> (index) {{
        %lt = arith.cmpi ult, %tid, %s : index
        scf.if %lt {{
          %j = arith.addi %tid, %s : index
          %u = memref.load %sh[%tid] : memref<256xf32, {WG}>
          %v = memref.load %sh[%j] : memref<256xf32, {WG}>
          %w = arith.addf %u, %v : f32
          memref.store %w, %sh[%tid] : memref<256xf32, {WG}>
        }}
        gpu.barrier
        %s2 = arith.divui %s, %c2 : index
        scf.yield %s2 : index
      }}
      %is0 = arith.cmpi eq, %tid, %c0 : index
      scf.if %is0 {{
        %r = memref.load %sh[%c0] : memref<256xf32, {WG}>
        memref.store %r, %out[%bid] : memref<?xf32>
      }}
"""
    x = np.random.default_rng(1).random(256 * 6).astype(np.float32)
    out = np.zeros(6, np.float32)
    launch(body, "%in: memref<?xf32>, %out: memref<?xf32>", (6,), (256,), [x, out],
           f"workgroup(%sh: memref<256xf32, {WG}>)", racecheck=True)
    # the tree's order of additions
    tree = x.reshape(6, 256).copy()
    s = 128
    while s >= 1:
        tree[:, :s] = tree[:, :s] + tree[:, s:2 * s]
        s //= 2
    np.testing.assert_array_equal(out, tree[:, 0])


RACY = f"""
      %tid = gpu.thread_id x
      %c1 = arith.constant 1 : index
      %c31 = arith.constant 31 : index
      %x = arith.index_cast %tid : index to i32
      memref.store %x, %sh[%tid] : memref<32xi32, {WG}>
      BARRIER
      %n = arith.addi %tid, %c1 : index
      %j = arith.remui %n, %c31 : index
      %y = memref.load %sh[%j] : memref<32xi32, {WG}>
      memref.store %y, %out[%tid] : memref<32xi32>
"""


def test_racecheck_flags_missing_barrier_not_correct_kernel():
    out = np.zeros(32, np.int32)
    attrs = f"workgroup(%sh: memref<32xi32, {WG}>)"
    launch(RACY.replace("BARRIER", "gpu.barrier"), "%out: memref<32xi32>", (2,), (32,), [out],
           attrs, racecheck=True)
    np.testing.assert_array_equal(out, (np.arange(32) + 1) % 31)
    with pytest.raises(gpu.DataRaceError, match=r"data race \((write/read|read/write)\) on "
                                                r"element \d+ of workgroup attribution #0.*"
                                                r"thread \(\d+, 0, 0\).*thread \(\d+, 0, 0\)"):
        launch(RACY.replace("BARRIER", ""), "%out: memref<32xi32>", (2,), (32,), [out], attrs,
               racecheck=True)
    # without racecheck the lock-step engine runs it (one legal outcome)
    launch(RACY.replace("BARRIER", ""), "%out: memref<32xi32>", (2,), (32,), [out], attrs)


def test_racecheck_global_memory_within_a_block():
    body = """
      %tid = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %x = arith.index_cast %tid : index to i32
      memref.store %x, %out[%c0] : memref<4xi32>
"""
    with pytest.raises(gpu.DataRaceError, match="write/write"):
        launch(body, "%out: memref<4xi32>", (1,), (4,), [np.zeros(4, np.int32)], racecheck=True)
    # one thread per block writing its own element of a global buffer is not a race
    ok = """
      %bid = gpu.block_id x
      %x = arith.index_cast %bid : index to i32
      memref.store %x, %out[%bid] : memref<4xi32>
"""
    out = np.zeros(4, np.int32)
    launch(ok, "%out: memref<4xi32>", (4,), (1,), [out], racecheck=True)
    np.testing.assert_array_equal(out, np.arange(4))


def test_shuffle_reading_an_inactive_lane_is_reported():
    body = PRELUDE + """
      %c16 = arith.constant 16 : index
      %lt = arith.cmpi ult, %tid, %c16 : index
      scf.if %lt {
        %off = arith.constant 16 : i32
        %w = arith.constant 32 : i32
        %s, %ok = gpu.shuffle xor %x, %off, %w : f32
        memref.store %s, %out[%i] : memref<?xf32>
      }
"""
    x = np.arange(32, dtype=np.float32)
    with pytest.raises(UndefinedBehaviorError, match="does not execute the op"):
        launch(body, "%in: memref<?xf32>, %out: memref<?xf32>", (1,), (32,),
               [x, np.zeros_like(x)])
