"""User-style gpu dialect programs on the SIMT engine, each checked against an independent
NumPy (or mpmath) reference: nested divergent control flow with barriers in 3-D blocks, cf
loops, shuffles and reductions in partial subgroups, dynamic shared memory, atomics across
blocks, integer edge cases, f16/bf16, math accuracy, faults, racecheck, async host chains,
loops with vector iter_args and unsigned / negative bounds.

Every kernel text is also accepted by ``mlir-opt`` 22 (checked when it is installed)."""

from __future__ import annotations

import functools
import io
import math
import os
import shutil
import subprocess

import ml_dtypes
import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import LaunchError, UndefinedBehaviorError

SG = 32
WG = "#gpu.address_space<workgroup>"
_MLIR_OPT = next((p for p in ("/usr/lib/llvm-22/bin/mlir-opt", shutil.which("mlir-opt") or "")
                  if p and os.path.exists(p)), None)


@functools.lru_cache(maxsize=None)
def _module(text: str):
    """Parse ``text`` with tileir, after checking that mlir-opt accepts it (when installed)."""
    if _MLIR_OPT is not None:
        r = subprocess.run([_MLIR_OPT, "-"], input=text, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return tileir.parse(text)


def _launch(text: str, grid, block, args, **kw):
    tileir.gpu.launch(_module(text), "m::k", grid=grid, block=block, args=args, **kw)


def _wrap32(v: int) -> int:
    return ((v + 2 ** 31) % 2 ** 32) - 2 ** 31


def _wrap64(v: int) -> int:
    return ((v + 2 ** 63) % 2 ** 64) - 2 ** 63


# -- divergent nested control flow -----------------------------------------------------------

NESTED_3D = f"""
gpu.module @m {{
  gpu.func @k(%out: memref<?xi32>) workgroup(%sh: memref<105xi32, {WG}>) kernel {{
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tz = gpu.thread_id z
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %dz = gpu.block_dim z
    %gx = gpu.grid_dim x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %t1 = arith.muli %tz, %dy : index
    %t2 = arith.addi %t1, %ty : index
    %t3 = arith.muli %t2, %dx : index
    %lin = arith.addi %t3, %tx : index
    %nt0 = arith.muli %dx, %dy : index
    %nt = arith.muli %nt0, %dz : index
    %b1 = arith.muli %by, %gx : index
    %blk = arith.addi %b1, %bx : index
    %base = arith.muli %blk, %nt : index
    %g = arith.addi %base, %lin : index
    %lini = arith.index_cast %lin : index to i32
    %blki = arith.index_cast %blk : index to i32
    %init = arith.addi %lini, %blki : i32
    memref.store %init, %sh[%lin] : memref<105xi32, {WG}>
    gpu.barrier
    %r = scf.for %it = %c0 to %c3 step %c1 iter_args(%a = %init) -> (i32) {{
      %bound = arith.remui %lin, %c3 : index
      %bp = arith.addi %bound, %it : index
      %s = scf.for %j = %c0 to %bp step %c1 iter_args(%ss = %a) -> (i32) {{
        %jj = arith.index_cast %j : index to i32
        %odd = arith.andi %jj, %ss : i32
        %c1i = arith.constant 1 : i32
        %isodd = arith.cmpi eq, %odd, %c1i : i32
        %nv = scf.if %isodd -> (i32) {{
          %w = scf.while (%x = %ss) : (i32) -> (i32) {{
            %c8 = arith.constant 8 : i32
            %gt = arith.cmpi sgt, %x, %c8 : i32
            scf.condition(%gt) %x : i32
          }} do {{
          ^bb0(%x: i32):
            %c2 = arith.constant 2 : i32
            %h = arith.divsi %x, %c2 : i32
            scf.yield %h : i32
          }}
          scf.yield %w : i32
        }} else {{
          %c5 = arith.constant 5 : i32
          %m = arith.muli %ss, %c5 : i32
          %c1000 = arith.constant 1000 : i32
          %mm = arith.remsi %m, %c1000 : i32
          %pl = arith.addi %mm, %jj : i32
          scf.yield %pl : i32
        }}
        scf.yield %nv : i32
      }}
      %nb0 = arith.addi %lin, %c1 : index
      %nb = arith.remui %nb0, %nt : index
      %o = memref.load %sh[%nb] : memref<105xi32, {WG}>
      gpu.barrier
      %sum = arith.addi %s, %o : i32
      memref.store %sum, %sh[%lin] : memref<105xi32, {WG}>
      gpu.barrier
      scf.yield %sum : i32
    }}
    memref.store %r, %out[%g] : memref<?xi32>
    gpu.return
  }}
}}
"""


def test_nested_divergent_for_while_if_in_barrier_loop_3d_block_2d_grid():
    grid, block = (3, 2, 1), (7, 5, 3)
    nt = 105
    out = np.zeros(6 * nt, np.int32)
    _launch(NESTED_3D, grid, block, [out], racecheck=True)
    ref = np.zeros_like(out)
    for by in range(2):
        for bx in range(3):
            blk = by * 3 + bx
            sh = [lin + blk for lin in range(nt)]
            for it in range(3):
                s_all = []
                for lin in range(nt):
                    ss = sh[lin]
                    for j in range(lin % 3 + it):
                        if (j & ss) == 1:
                            while ss > 8:
                                ss = int(ss / 2)
                        else:
                            ss = int(math.fmod(ss * 5, 1000)) + j
                    s_all.append(ss)
                sh = [s_all[lin] + sh[(lin + 1) % nt] for lin in range(nt)]
            ref[blk * nt:(blk + 1) * nt] = sh
    np.testing.assert_array_equal(out, ref)


CF_LOOPS = f"""
gpu.module @m {{
  gpu.func @k(%in: memref<?xi32>, %out: memref<?xi32>) workgroup(%sh: memref<64xi32, {WG}>) kernel {{
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %v = memref.load %in[%g] : memref<?xi32>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    cf.br ^loop(%v, %c0 : i32, i32)
  ^loop(%x: i32, %steps: i32):
    %le1 = arith.cmpi sle, %x, %c1 : i32
    cf.cond_br %le1, ^done(%steps : i32), ^body
  ^body:
    %two = arith.constant 2 : i32
    %r = arith.remsi %x, %two : i32
    %even = arith.cmpi eq, %r, %c0 : i32
    %s1 = arith.addi %steps, %c1 : i32
    cf.cond_br %even, ^ev, ^od
  ^ev:
    %h = arith.divsi %x, %two : i32
    cf.br ^loop(%h, %s1 : i32, i32)
  ^od:
    %three = arith.constant 3 : i32
    %m3 = arith.muli %x, %three : i32
    %p = arith.addi %m3, %c1 : i32
    cf.br ^loop(%p, %s1 : i32, i32)
  ^done(%st: i32):
    memref.store %st, %sh[%t] : memref<64xi32, {WG}>
    %ci1 = arith.constant 1 : index
    cf.br ^scan(%ci1 : index)
  ^scan(%d: index):
    %cont = arith.cmpi ult, %d, %n : index
    cf.cond_br %cont, ^sbody, ^fin
  ^sbody:
    gpu.barrier
    %ge = arith.cmpi uge, %t, %d : index
    %mine = memref.load %sh[%t] : memref<64xi32, {WG}>
    %add = scf.if %ge -> (i32) {{
      %j = arith.subi %t, %d : index
      %o = memref.load %sh[%j] : memref<64xi32, {WG}>
      scf.yield %o : i32
    }} else {{
      scf.yield %c0 : i32
    }}
    gpu.barrier
    %nv = arith.addi %mine, %add : i32
    memref.store %nv, %sh[%t] : memref<64xi32, {WG}>
    %d2 = arith.addi %d, %d : index
    cf.br ^scan(%d2 : index)
  ^fin:
    gpu.barrier
    %res = memref.load %sh[%t] : memref<64xi32, {WG}>
    memref.store %res, %out[%g] : memref<?xi32>
    gpu.return
  }}
}}
"""


def _collatz_steps(x: int) -> int:
    s = 0
    while x > 1:
        x = x // 2 if x % 2 == 0 else 3 * x + 1
        s += 1
    return s


@pytest.mark.parametrize("threads", [37, 5])
def test_cf_divergent_collatz_loop_then_uniform_cf_scan_with_barriers(threads):
    x = np.random.default_rng(threads).integers(-5, 200, 3 * threads).astype(np.int32)
    out = np.zeros_like(x)
    _launch(CF_LOOPS, (3,), (threads,), [x, out], racecheck=True)
    steps = np.array([_collatz_steps(int(v)) for v in x]).reshape(3, threads)
    np.testing.assert_array_equal(out, np.cumsum(steps, axis=1).ravel())


# -- shuffles and reductions in partial subgroups --------------------------------------------

def _shuffle_src(mode: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%in: memref<?xf32>, %out: memref<?xf32>, %ok: memref<?xi1>, %off: i32, %w: i32, %lim: index) kernel {{
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %b = gpu.block_id x
    %l0 = arith.muli %ty, %dx : index
    %lin = arith.addi %l0, %tx : index
    %nt = arith.muli %dx, %dy : index
    %b0 = arith.muli %b, %nt : index
    %g = arith.addi %b0, %lin : index
    %v = memref.load %in[%g] : memref<?xf32>
    %c = arith.cmpi ult, %lin, %lim : index
    scf.if %c {{
      %r, %valid = gpu.shuffle {mode} %v, %off, %w : f32
      memref.store %r, %out[%g] : memref<?xf32>
      memref.store %valid, %ok[%g] : memref<?xi1>
    }}
    gpu.return
  }}
}}
"""


@pytest.mark.parametrize("mode", ["xor", "up", "down", "idx"])
@pytest.mark.parametrize("off,width,lim", [(1, 12, 35), (5, 7, 35), (2, 3, 35), (11, 12, 35),
                                           (4, 32, 35), (7, 12, 30)])
def test_shuffle_2d_block_7x5_partial_subgroup_narrow_width(mode, off, width, lim):
    nt = 35
    x = np.random.default_rng(off * 7 + width).standard_normal(2 * nt).astype(np.float32)
    out = np.full(2 * nt, np.nan, np.float32)
    ok = np.zeros(2 * nt, bool)
    _launch(_shuffle_src(mode), (2,), (7, 5), [x, out, ok, off, width, lim])
    ro = np.full_like(out, np.nan)
    rk = np.zeros_like(ok)
    for g in range(x.size):
        b, t = divmod(g, nt)
        if t >= lim:
            continue
        lane, base = t % SG, t - t % SG
        src = {"xor": lane ^ off, "up": lane - off, "down": lane + off, "idx": off}[mode]
        valid = lane < width and 0 <= src < width and base + src < min(nt, lim)
        ro[g] = x[b * nt + base + src] if valid else x[g]
        rk[g] = valid
    np.testing.assert_array_equal(out, ro)
    np.testing.assert_array_equal(ok, rk)


def _linear_src(ty: str, body: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%in: memref<?x{ty}>, %out: memref<?x{ty}>) kernel {{
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tz = gpu.thread_id z
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %dz = gpu.block_dim z
    %b = gpu.block_id x
    %l0 = arith.muli %tz, %dy : index
    %l1 = arith.addi %l0, %ty : index
    %l2 = arith.muli %l1, %dx : index
    %lin = arith.addi %l2, %tx : index
    %nt0 = arith.muli %dx, %dy : index
    %nt = arith.muli %nt0, %dz : index
    %b0 = arith.muli %b, %nt : index
    %g = arith.addi %b0, %lin : index
    %v = memref.load %in[%g] : memref<?x{ty}>
{body}
    memref.store %r, %out[%g] : memref<?x{ty}>
    gpu.return
  }}
}}
"""


_INT_OPS = {"add": np.add, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
            "xor": np.bitwise_xor, "minsi": np.minimum, "maxsi": np.maximum}


def _int_reduce(vals: np.ndarray, op: str):
    if op in ("minui", "maxui"):
        u = vals.view(np.dtype(f"uint{vals.dtype.itemsize * 8}"))
        return (u.min() if op == "minui" else u.max()).astype(u.dtype).view(vals.dtype)
    with np.errstate(over="ignore"):
        return functools.reduce(_INT_OPS[op], vals)


INT_KINDS = ["add", "mul", "and", "or", "xor", "minsi", "maxsi", "minui", "maxui"]


@pytest.mark.parametrize("op", INT_KINDS)
def test_subgroup_reduce_cluster_stride_in_7x5_block(op):
    nt = 35
    x = np.random.default_rng(1).integers(-50, 50, 2 * nt).astype(np.int32)
    for size, stride in [(8, 2), (4, 8), (2, 4)]:
        body = (f"    %r = gpu.subgroup_reduce {op} %v cluster(size = {size}, stride = {stride})"
                " : (i32) -> i32")
        out = np.zeros_like(x)
        _launch(_linear_src("i32", body), (2,), (7, 5, 1), [x, out])
        ref = np.zeros_like(x)
        span = size * stride
        for g in range(x.size):
            b, t = divmod(g, nt)
            lane, base = t % SG, t - t % SG
            members = [b * nt + base + m for m in range(SG) if m // span == lane // span
                       and m % stride == lane % stride and base + m < nt]
            ref[g] = _int_reduce(x[members], op)
        np.testing.assert_array_equal(out, ref, err_msg=f"{size=} {stride=}")


@pytest.mark.parametrize("op", INT_KINDS)
def test_all_reduce_i8_3d_block_each_op(op):
    nt = 105
    x = np.random.default_rng(2).integers(-128, 128, 2 * nt).astype(np.int8)
    out = np.zeros_like(x)
    _launch(_linear_src("i8", f"    %r = gpu.all_reduce {op} %v {{}} : (i8) -> i8"),
            (2,), (3, 5, 7), [x, out])
    ref = np.concatenate([np.full(nt, _int_reduce(x[i * nt:(i + 1) * nt], op), np.int8)
                          for i in range(2)])
    np.testing.assert_array_equal(out, ref)


def _float_combine(acc, v, op):
    if op in ("minnumf", "maxnumf"):
        if np.isnan(acc):
            return v
        if np.isnan(v):
            return acc
    elif np.isnan(acc) or np.isnan(v):
        return acc if np.isnan(acc) else v
    if acc == v:    # signed zeros: -0 < +0 for every min/max kind
        lo, hi = (acc, v) if np.signbit(acc) else (v, acc)
        return lo if op.startswith("min") else hi
    return min(acc, v) if op.startswith("min") else max(acc, v)


@pytest.mark.parametrize("ty", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("op", ["minnumf", "maxnumf", "minimumf", "maximumf"])
@pytest.mark.parametrize("kind", ["all", "sub"])
def test_float_min_max_reductions_nan_and_signed_zero(ty, op, kind):
    dt = {"f32": np.float32, "f16": np.float16, "bf16": ml_dtypes.bfloat16}[ty]
    nt = 35
    x = (np.random.default_rng(3).standard_normal(2 * nt) * 3).astype(dt)
    x[5] = np.nan                 # a NaN in subgroup 0 of block 0
    x[nt:] = 0.0                  # block 1: zeros of both signs
    x[nt::3] = -0.0
    x[nt + 33] = np.nan           # a NaN in the partial subgroup of block 1
    body = (f"    %r = gpu.all_reduce {op} %v {{}} : ({ty}) -> {ty}" if kind == "all" else
            f"    %r = gpu.subgroup_reduce {op} %v : ({ty}) -> {ty}")
    out = np.zeros_like(x)
    _launch(_linear_src(ty, body), (2,), (7, 5, 1), [x, out])
    ref = np.zeros_like(x)
    for g in range(x.size):
        b, t = divmod(g, nt)
        base = t - t % SG
        members = range(b * nt, (b + 1) * nt) if kind == "all" else \
            range(b * nt + base, b * nt + min(base + SG, nt))
        acc = None
        for i in members:
            acc = x[i] if acc is None else _float_combine(acc, x[i], op)
        ref[g] = acc
    o32, r32 = out.astype(np.float32), ref.astype(np.float32)
    np.testing.assert_array_equal(np.isnan(o32), np.isnan(r32))
    num = ~np.isnan(r32)
    np.testing.assert_array_equal(o32[num], r32[num])
    np.testing.assert_array_equal(np.signbit(o32[num]), np.signbit(r32[num]))


def test_all_reduce_custom_region_noncommutative_in_lane_order():
    body = """
    %r = gpu.all_reduce %v {
    ^bb0(%lhs: i32, %rhs: i32):
      %c3 = arith.constant 3 : i32
      %m = arith.muli %lhs, %c3 : i32
      %s = arith.addi %m, %rhs : i32
      gpu.yield %s : i32
    } : (i32) -> i32"""
    nt = 105
    x = np.random.default_rng(2).integers(-1000, 1000, 2 * nt).astype(np.int32)
    out = np.zeros_like(x)
    _launch(_linear_src("i32", body), (2,), (3, 5, 7), [x, out])
    ref = []
    for blk in range(2):
        acc = int(x[blk * nt])
        for y in x[blk * nt + 1:(blk + 1) * nt]:
            acc = _wrap32(acc * 3 + int(y))
        ref += [acc] * nt
    np.testing.assert_array_equal(out, np.array(ref, np.int32))


def test_all_reduce_custom_region_with_cf_branches_and_scf_if():
    body = """
    %m = gpu.all_reduce %v {
    ^bb0(%lhs: i32, %rhs: i32):
      %c = arith.cmpi slt, %lhs, %rhs : i32
      cf.cond_br %c, ^bb1, ^bb2
    ^bb1:
      gpu.yield %rhs : i32
    ^bb2:
      gpu.yield %lhs : i32
    } : (i32) -> i32
    %r = gpu.all_reduce %v {
    ^bb0(%lhs: i32, %rhs: i32):
      %a = math.absi %lhs : i32
      %bb = math.absi %rhs : i32
      %c = arith.cmpi sge, %a, %bb : i32
      %s = scf.if %c -> (i32) {
        scf.yield %lhs : i32
      } else {
        scf.yield %rhs : i32
      }
      gpu.yield %s : i32
    } : (i32) -> i32"""
    nt = 105
    x = np.random.default_rng(4).integers(-1000, 1000, 2 * nt).astype(np.int32)
    out = np.zeros_like(x)
    _launch(_linear_src("i32", body), (2,), (3, 5, 7), [x, out])
    ref = []
    for blk in range(2):
        seg = x[blk * nt:(blk + 1) * nt]
        acc = seg[0]
        for y in seg[1:]:
            acc = acc if abs(int(acc)) >= abs(int(y)) else y
        ref += [acc] * nt
    np.testing.assert_array_equal(out, np.array(ref, np.int32))


def test_all_reduce_body_using_an_outer_value_fails_verification_as_mlir_opt():
    """gpu.all_reduce is IsolatedFromAbove: its body's names resolve outside (so the text
    parses) but the verifier rejects the use, at the first such op of the body."""
    body = """
    %m = arith.constant 3 : i32
    %true = arith.constant true
    %r = gpu.all_reduce %v {
    ^bb0(%lhs: i32, %rhs: i32):
      %s1 = arith.addi %lhs, %rhs : i32
      %s2 = scf.if %true -> (i32) {
        %q = arith.addi %s1, %m : i32
        scf.yield %q : i32
      } else {
        scf.yield %s1 : i32
      }
      gpu.yield %s2 : i32
    } : (i32) -> i32"""
    src = _linear_src("i32", body)
    if _MLIR_OPT is not None:
        r = subprocess.run([_MLIR_OPT, "-"], input=src, capture_output=True, text=True)
        assert r.returncode == 1
        assert "'scf.if' op using value defined outside the region" in r.stderr
    with pytest.raises(Exception) as info:
        tileir.verify(tileir.parse(src))
    msg = str(info.value)
    assert "'scf.if' op using value defined outside the region" in msg
    assert "required by region isolation constraints" in msg


BUTTERFLY = """
gpu.module @m {
  gpu.func @k(%in: memref<?xi64>, %inh: memref<?x3xf16>, %out: memref<?xi64>, %outh: memref<?x3xf16>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tz = gpu.thread_id z
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %l0 = arith.muli %tz, %dy : index
    %l1 = arith.addi %l0, %ty : index
    %l2 = arith.muli %l1, %dx : index
    %lin = arith.addi %l2, %tx : index
    %v = memref.load %in[%lin] : memref<?xi64>
    %c1 = arith.constant 1 : i32
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    %w = arith.constant 8 : i32
    %s1, %ok1 = gpu.shuffle xor %v, %c1, %w : i64
    %a1 = arith.addi %v, %s1 : i64
    %s2, %ok2 = gpu.shuffle xor %a1, %c2, %w : i64
    %a2 = arith.addi %a1, %s2 : i64
    %s3, %ok3 = gpu.shuffle xor %a2, %c4, %w : i64
    %a3 = arith.addi %a2, %s3 : i64
    memref.store %a3, %out[%lin] : memref<?xi64>
    %c0 = arith.constant 0 : index
    %vh = vector.load %inh[%lin, %c0] : memref<?x3xf16>, vector<3xf16>
    %rh = gpu.subgroup_reduce add %vh cluster(size = 4) : (vector<3xf16>) -> vector<3xf16>
    vector.store %rh, %outh[%lin, %c0] : memref<?x3xf16>, vector<3xf16>
    gpu.return
  }
}
"""


def test_i64_xor_butterfly_width_8_and_vector_f16_cluster_reduce_block_2x3x6():
    nt = 36                        # subgroup 1 holds 4 lanes
    x = np.random.default_rng(0).integers(-2 ** 62, 2 ** 62, nt, dtype=np.int64)
    xh = np.random.default_rng(1).standard_normal((nt, 3)).astype(np.float16)
    out, outh = np.zeros_like(x), np.zeros_like(xh)
    _launch(BUTTERFLY, (1,), (2, 3, 6), [x, xh, out, outh])
    ref = np.zeros_like(x)
    for base in range(0, nt, SG):
        vals = {m: int(x[base + m]) for m in range(SG) if base + m < nt}
        for off in (1, 2, 4):
            vals = {m: _wrap64(v + (vals[m ^ off] if m < 8 and (m ^ off) in vals else v))
                    for m, v in vals.items()}
        for m, v in vals.items():
            ref[base + m] = v
    np.testing.assert_array_equal(out, ref)
    refh = np.zeros_like(xh)
    for t in range(nt):
        c0 = t - t % 4
        acc = xh[c0].copy()
        for i in range(c0 + 1, min(c0 + 4, nt)):
            acc = (acc + xh[i]).astype(np.float16)
        refh[t] = acc
    np.testing.assert_array_equal(outh.view(np.uint16), refh.view(np.uint16))


# -- dynamic shared memory, atomics --------------------------------------------------------------

HISTOGRAM = f"""
gpu.module @m {{
  gpu.func @k(%in: memref<?xi32>, %n: index, %hist: memref<16xi32>, %fsum: memref<1xf32>, %gmax: memref<4xi32>) kernel {{
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %nb = gpu.block_dim x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, {WG}>
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %bins = memref.view %dyn[%c0][] : memref<?xi8, {WG}> to memref<16xi32, {WG}>
    %cnt = memref.view %dyn[%c64][%c16] : memref<?xi8, {WG}> to memref<?xi16, {WG}>
    %isz = arith.cmpi ult, %t, %c16 : index
    scf.if %isz {{
      %z = arith.constant 0 : i32
      memref.store %z, %bins[%t] : memref<16xi32, {WG}>
      %z16 = arith.constant 0 : i16
      memref.store %z16, %cnt[%t] : memref<?xi16, {WG}>
    }}
    gpu.barrier
    %g0 = arith.muli %b, %nb : index
    %g = arith.addi %g0, %t : index
    %in_range = arith.cmpi ult, %g, %n : index
    scf.if %in_range {{
      %v = memref.load %in[%g] : memref<?xi32>
      %c15 = arith.constant 15 : i32
      %bin = arith.andi %v, %c15 : i32
      %bi = arith.index_cast %bin : i32 to index
      %one = arith.constant 1 : i32
      %o = memref.atomic_rmw addi %one, %bins[%bi] : (i32, memref<16xi32, {WG}>) -> i32
      %o2 = memref.generic_atomic_rmw %cnt[%bi] : memref<?xi16, {WG}> {{
      ^bb0(%cur: i16):
        %two = arith.constant 2 : i16
        %s = arith.addi %cur, %two : i16
        %cap = arith.constant 100 : i16
        %m = arith.minsi %s, %cap : i16
        memref.atomic_yield %m : i16
      }}
      %vf = arith.sitofp %v : i32 to f32
      %o3 = memref.atomic_rmw addf %vf, %fsum[%c0] : (f32, memref<1xf32>) -> f32
      %c3 = arith.constant 3 : index
      %slot = arith.remui %g, %c3 : index
      %o4 = memref.atomic_rmw maxs %v, %gmax[%slot] : (i32, memref<4xi32>) -> i32
      %o5 = memref.atomic_rmw minu %v, %gmax[%c3] : (i32, memref<4xi32>) -> i32
    }}
    gpu.barrier
    scf.if %isz {{
      %h = memref.load %bins[%t] : memref<16xi32, {WG}>
      %o = memref.atomic_rmw addi %h, %hist[%t] : (i32, memref<16xi32>) -> i32
      %cc = memref.load %cnt[%t] : memref<?xi16, {WG}>
      %ce = arith.extsi %cc : i16 to i32
      %k = arith.constant 1000 : i32
      %ck = arith.muli %ce, %k : i32
      %o2 = memref.atomic_rmw addi %ck, %hist[%t] : (i32, memref<16xi32>) -> i32
    }}
    gpu.return
  }}
}}
"""


def test_histogram_dynamic_shared_views_generic_atomic_and_global_atomics_across_blocks():
    n, nt = 1000, 96
    x = np.random.default_rng(0).integers(-3000, 3000, n).astype(np.int32)
    hist = np.zeros(16, np.int32)
    fsum = np.zeros(1, np.float32)
    gmax = np.array([-2 ** 31] * 3 + [-1], np.int32)
    _launch(HISTOGRAM, (-(-n // nt),), (nt,), [x, n, hist, fsum, gmax],
            dynamic_shared_memory=128, racecheck=True)
    ref = np.zeros(16, np.int64)
    for start in range(0, n, nt):
        c = np.bincount(x[start:start + nt] & 15, minlength=16)
        ref += c + 1000 * np.minimum(2 * c, 100)
    np.testing.assert_array_equal(hist, ref)
    acc = np.float32(0)          # atomics apply in thread order (block by block)
    for v in x:
        acc = np.float32(acc + np.float32(v))
    assert fsum[0] == acc
    np.testing.assert_array_equal(gmax[:3], [x[i::3].max() for i in range(3)])
    assert gmax[3] == x.view(np.uint32).min().astype(np.uint32).view(np.int32)


# -- integers ----------------------------------------------------------------------------------

def _binary_src(ty: str, op: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%a: memref<?x{ty}>, %b: memref<?x{ty}>, %out: memref<?x{ty}>) kernel {{
    %t = gpu.thread_id x
    %x = memref.load %a[%t] : memref<?x{ty}>
    %y = memref.load %b[%t] : memref<?x{ty}>
    %r = arith.{op} %x, %y : {ty}
    memref.store %r, %out[%t] : memref<?x{ty}>
    gpu.return
  }}
}}
"""


@pytest.mark.parametrize("op,fn", [
    ("floordivsi", lambda x, y: x // y),
    ("ceildivsi", lambda x, y: -((-x) // y)),
    ("divsi", lambda x, y: abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)),
    ("remsi", lambda x, y: int(math.fmod(x, y))),
    ("divui", lambda x, y: (x % 2 ** 32) // (y % 2 ** 32)),
    ("ceildivui", lambda x, y: -(-(x % 2 ** 32) // (y % 2 ** 32))),
    ("remui", lambda x, y: (x % 2 ** 32) % (y % 2 ** 32)),
])
def test_signed_unsigned_division_rounding_negative_operands(op, fn):
    a = np.array([-7, 7, -7, 7, -8, 8, 0, -1, 2 ** 31 - 1, -2 ** 31 + 1, 5, -5, -2 ** 31, -1],
                 np.int32)
    b = np.array([2, -2, -2, 2, 3, -3, 5, 4, -1, 2, 7, 7, 3, -2 ** 31 + 5], np.int32)
    out = np.zeros_like(a)
    _launch(_binary_src("i32", op), (1,), (a.size,), [a, b, out])
    ref = np.array([_wrap32(fn(int(x), int(y))) for x, y in zip(a, b)], np.int32)
    np.testing.assert_array_equal(out, ref)


@pytest.mark.parametrize("ty,op,x,y", [
    ("i32", "divsi", -2 ** 31, -1), ("i32", "floordivsi", -2 ** 31, -1),
    ("i32", "ceildivsi", -2 ** 31, -1), ("i8", "divsi", -128, -1), ("i8", "floordivsi", -128, -1),
    ("i32", "shli", 1, 32), ("i32", "shrsi", 1, 33), ("i32", "shrui", 1, -1), ("i8", "shli", 1, 8),
    ("i32", "divui", 1, 0), ("i32", "ceildivui", 1, 0), ("i32", "remsi", 1, 0),
])
def test_integer_ub_reported_with_thread(ty, op, x, y):
    dt = {"i32": np.int32, "i8": np.int8}[ty]
    a, b = np.array([3, x], dt), np.array([1, y], dt)
    with pytest.raises(UndefinedBehaviorError, match=r"thread \(1, 0, 0\)"):
        _launch(_binary_src(ty, op), (1,), (2,), [a, b, np.zeros_like(a)])


MASKED_UB = """
gpu.module @m {
  gpu.func @k(%a: memref<?xi32>, %b: memref<?xi32>, %out: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %a[%t] : memref<?xi32>
    %y = memref.load %b[%t] : memref<?xi32>
    %c0 = arith.constant 0 : i32
    %cm1 = arith.constant -1 : i32
    %nz = arith.cmpi ne, %y, %c0 : i32
    %nm1 = arith.cmpi ne, %y, %cm1 : i32
    %ok = arith.andi %nz, %nm1 : i1
    %r = scf.if %ok -> (i32) {
      %d = arith.divsi %x, %y : i32
      %s = arith.shli %d, %y : i32
      scf.yield %s : i32
    } else {
      scf.yield %x : i32
    }
    %w:2 = scf.while (%v = %r, %k = %c0) : (i32, i32) -> (i32, i32) {
      %c = arith.cmpi ne, %v, %c0 : i32
      scf.condition(%c) %v, %k : i32, i32
    } do {
    ^bb0(%v: i32, %k: i32):
      %c1 = arith.constant 1 : i32
      %q = arith.divui %c1, %v : i32
      %sh = arith.shrui %v, %c1 : i32
      %k2 = arith.addi %k, %c1 : i32
      scf.yield %sh, %k2 : i32, i32
    }
    memref.store %w#1, %out[%t] : memref<?xi32>
    gpu.return
  }
}
"""


def test_ub_guarded_by_divergent_if_and_while_is_not_reported():
    a = np.array([-2 ** 31, 5, 100, 7, -9, 1 << 20, 3, 0], np.int32)
    b = np.array([-1, 0, 3, 4, 2, 1, 31, 0], np.int32)
    out = np.zeros_like(a)
    _launch(MASKED_UB, (1,), (8,), [a, b, out])
    ref = []
    for x, y in zip(a.tolist(), b.tolist()):
        r = ((abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)) << y) % 2 ** 32 \
            if y not in (0, -1) else x % 2 ** 32
        ref.append(r.bit_length())
    np.testing.assert_array_equal(out, ref)


# -- f16 / bf16 / math -------------------------------------------------------------------------

def _ternary_src(ty: str, body: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%a: memref<?x{ty}>, %b: memref<?x{ty}>, %c: memref<?x{ty}>, %out: memref<?x{ty}>) kernel {{
    %t = gpu.thread_id x
    %x = memref.load %a[%t] : memref<?x{ty}>
    %y = memref.load %b[%t] : memref<?x{ty}>
    %z = memref.load %c[%t] : memref<?x{ty}>
{body}
    memref.store %r, %out[%t] : memref<?x{ty}>
    gpu.return
  }}
}}
"""


@pytest.mark.parametrize("ty", ["f16", "bf16"])
def test_half_precision_chains_round_every_op(ty):
    dt = np.float16 if ty == "f16" else ml_dtypes.bfloat16
    rng = np.random.default_rng(0)
    n = 128
    a, b = (rng.standard_normal(n) * 100).astype(dt), (rng.standard_normal(n) * 100).astype(dt)
    c = rng.standard_normal(n).astype(dt)
    body = f"""
    %m = arith.mulf %x, %y : {ty}
    %s = arith.addf %m, %z : {ty}
    %d = arith.divf %s, %y : {ty}
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c20 = arith.constant 20 : index
    %r = scf.for %i = %c0 to %c20 step %c1 iter_args(%acc = %d) -> ({ty}) {{
      %acc2 = arith.addf %acc, %z : {ty}
      scf.yield %acc2 : {ty}
    }}"""
    out = np.zeros(n, dt)
    _launch(_ternary_src(ty, body), (1,), (n,), [a, b, c, out])
    with np.errstate(all="ignore"):
        ref = ((a * b).astype(dt) + c).astype(dt)
        ref = (ref / b).astype(dt)
        for _ in range(20):
            ref = (ref + c).astype(dt)
    o, r = out.astype(np.float32), ref.astype(np.float32)
    np.testing.assert_array_equal(np.isnan(o), np.isnan(r))
    np.testing.assert_array_equal(out.view(np.uint16)[~np.isnan(r)],
                                  ref.view(np.uint16)[~np.isnan(r)])


def _ordered(v: np.ndarray) -> np.ndarray:
    it = np.dtype(f"int{v.dtype.itemsize * 8}")
    i = v.view(it).astype(np.int64)
    return np.where(i < 0, np.iinfo(it).min - i, i)


def _unary_math_src(ty: str, fn: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%a: memref<?x{ty}>, %out: memref<?x{ty}>) kernel {{
    %t = gpu.thread_id x
    %x = memref.load %a[%t] : memref<?x{ty}>
    %r = math.{fn} %x : {ty}
    memref.store %r, %out[%t] : memref<?x{ty}>
    gpu.return
  }}
}}
"""


def _mp_ref(fn: str, xs: np.ndarray, dt) -> np.ndarray:
    import mpmath
    f = {"exp": mpmath.exp, "log": mpmath.log, "tanh": mpmath.tanh, "erf": mpmath.erf,
         "erfc": mpmath.erfc, "expm1": mpmath.expm1, "sinh": mpmath.sinh,
         "asinh": mpmath.asinh}[fn]
    with mpmath.workprec(300):
        out = []
        for v in xs.astype(np.float64):
            if np.isnan(v):
                out.append(np.nan)
            elif np.isinf(v):
                out.append(float(f(mpmath.mpf(v))))
            elif v == 0:
                out.append(v if fn not in ("exp", "erfc") else 1.0)
            else:
                out.append(float(f(mpmath.mpf(float(v)))))
    with np.errstate(over="ignore"):
        return np.array(out).astype(dt)


@pytest.mark.parametrize("ty", ["f64", "f32", "f16"])
@pytest.mark.parametrize("fn,lo,hi", [("exp", -80, 80), ("log", 1e-3, 1e3), ("tanh", -10, 10),
                                      ("erf", -6, 6), ("erfc", -3, 27), ("expm1", -40, 80),
                                      ("sinh", -80, 80), ("asinh", -50, 50)])
def test_math_within_one_ulp_of_correctly_rounded(ty, fn, lo, hi):
    dt = {"f64": np.float64, "f32": np.float32, "f16": np.float16}[ty]
    x = np.random.default_rng(1).uniform(lo, hi, 160).astype(dt)
    out = np.zeros_like(x)
    _launch(_unary_math_src(ty, fn), (1,), (x.size,), [x, out])
    ref = _mp_ref(fn, x, dt)
    finite = np.isfinite(ref)
    np.testing.assert_array_equal(out[~finite], ref[~finite])
    dist = np.abs(_ordered(out[finite]) - _ordered(ref[finite]))
    assert dist.max(initial=0) <= 1, (fn, ty, x[finite][dist.argmax()], dist.max())


def test_f64_erf_erfc_within_one_ulp_tails_and_specials():
    """SciPy's f64 erfc is hundreds of ulp off in the tail (erfc(23.5)); erf 2 ulp near 0.32."""
    x = np.array([23.513386661815407, 0.32137171095757466, 26.55, 27.2, 4.0, -4.0, 3.999, 4.001,
                  5.5, -0.5, 1e-300, -5e-324, 2.0 ** -60, 12.25, -26.0, 0.0, -0.0, np.inf,
                  -np.inf, np.nan])
    for fn in ("erf", "erfc"):
        out = np.zeros_like(x)
        _launch(_unary_math_src("f64", fn), (1,), (x.size,), [x, out])
        ref = _mp_ref(fn, x, np.float64)
        if fn == "erf":
            ref[x == 0] = x[x == 0]              # erf(+-0) = +-0
        ok = ~np.isnan(ref)
        assert np.isnan(out[~ok]).all()
        dist = np.abs(_ordered(out[ok]) - _ordered(ref[ok]))
        assert dist.max() <= 1, (fn, x[ok][dist.argmax()], out[ok][dist.argmax()])
        np.testing.assert_array_equal(np.signbit(out[ok]), np.signbit(ref[ok]))


def test_fpowi_f64_large_odd_exponent_keeps_sign_and_magnitude():
    src = """
gpu.module @m {
  gpu.func @k(%a: memref<?xf64>, %b: memref<?xi64>, %out: memref<?xf64>) kernel {
    %t = gpu.thread_id x
    %x = memref.load %a[%t] : memref<?xf64>
    %n = memref.load %b[%t] : memref<?xi64>
    %r = math.fpowi %x, %n : f64, i64
    memref.store %r, %out[%t] : memref<?xf64>
    gpu.return
  }
}
"""
    import mpmath
    x = np.array([-1.0, -1.0, 1 + 2.0 ** -52, -(1 + 2.0 ** -52), 2.0, -0.0, -0.5, 1 - 2.0 ** -53])
    n = np.array([2 ** 53 + 1, -(2 ** 62) - 1, 2 ** 53 + 1001, 2 ** 53 + 3, -1074, -3, 5,
                  2 ** 54 + 7], np.int64)
    out = np.zeros_like(x)
    _launch(src, (1,), (x.size,), [x, n, out])
    with mpmath.workprec(400):
        ref = []
        for a, k in zip(x.tolist(), n.tolist()):
            if a == 0:
                ref.append(math.copysign(math.inf, a) if k % 2 else math.inf)
            else:
                ref.append(float(mpmath.power(mpmath.mpf(a), k)))
    ref = np.array(ref)
    np.testing.assert_array_equal(np.signbit(out), np.signbit(ref))
    assert np.abs(_ordered(out) - _ordered(ref)).max() <= 1, (out, ref)


# -- faults and racecheck ----------------------------------------------------------------------

OOB_3D = """
gpu.module @m {
  gpu.func @k(%a: memref<10x7xf32>, %out: memref<?xf32>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tz = gpu.thread_id z
    %bx = gpu.block_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %lim = arith.addi %tx, %ty : index
    %s = scf.for %i = %c0 to %lim step %c1 iter_args(%acc = %tx) -> (index) {
      %n = arith.addi %acc, %tz : index
      scf.yield %n : index
    }
    %row = arith.addi %s, %bx : index
    %v = memref.load %a[%row, %tz] : memref<10x7xf32>
    memref.store %v, %out[%tx] : memref<?xf32>
    gpu.return
  }
}
"""


def test_oob_load_after_divergent_loop_names_op_location_block_and_thread():
    # row = tx + (tx + ty) * tz + bx reaches 10 only at block 2, thread (3, 2, 1)
    with pytest.raises(LaunchError) as info:
        _launch(OOB_3D, (3,), (4, 3, 2), [np.zeros((10, 7), np.float32), np.zeros(8, np.float32)])
    msg = str(info.value)
    assert "'memref.load'" in msg and ":16:" in msg
    assert "block (2, 0, 0)" in msg and "thread (3, 2, 1)" in msg


SUBVIEW_STORE = """
gpu.module @m {
  gpu.func @k(%a: memref<8x8xi32>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %sv = memref.subview %a[2, 1] [3, 4] [2, 2] : memref<8x8xi32> to memref<3x4xi32, strided<[16, 2], offset: 17>>
    %v = arith.index_cast %tx : index to i32
    memref.store %v, %sv[%ty, %tx] : memref<3x4xi32, strided<[16, 2], offset: 17>>
    gpu.return
  }
}
"""


def test_strided_subview_store_and_its_oob_thread():
    a = np.zeros((8, 8), np.int32)
    _launch(SUBVIEW_STORE, (1,), (4, 3), [a])
    ref = np.zeros_like(a)
    ref[2:8:2, 1:8:2] = np.arange(4)
    np.testing.assert_array_equal(a, ref)
    with pytest.raises(LaunchError, match=r"'memref.store'.*block \(0, 0, 0\), thread \(4, 0, 0\)"):
        _launch(SUBVIEW_STORE, (1,), (5, 3), [a])


def _race_src(body: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%g: memref<?xi32>) workgroup(%sh: memref<64xi32, {WG}>) kernel {{
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %ti = arith.index_cast %t : index to i32
{body}
    gpu.return
  }}
}}
"""


RACE_CASES = {
    "neighbour_after_barrier": (False, f"""
    memref.store %ti, %sh[%t] : memref<64xi32, {WG}>
    gpu.barrier
    %j = arith.addi %t, %c1 : index
    %jj = arith.remui %j, %n : index
    %v = memref.load %sh[%jj] : memref<64xi32, {WG}>
    memref.store %v, %g[%t] : memref<?xi32>"""),
    "neighbour_without_barrier": (True, f"""
    memref.store %ti, %sh[%t] : memref<64xi32, {WG}>
    %j = arith.addi %t, %c1 : index
    %jj = arith.remui %j, %n : index
    %v = memref.load %sh[%jj] : memref<64xi32, {WG}>
    memref.store %v, %g[%t] : memref<?xi32>"""),
    "write_write_pairs": (True, f"""
    %h = arith.divui %t, %c2 : index
    memref.store %ti, %sh[%h] : memref<64xi32, {WG}>"""),
    "read_read": (False, f"""
    %v = memref.load %sh[%c0] : memref<64xi32, {WG}>
    memref.store %v, %g[%t] : memref<?xi32>"""),
    "loop_carried_missing_end_barrier": (True, f"""
    scf.for %i = %c0 to %c2 step %c1 {{
      %j = arith.addi %t, %i : index
      %jj = arith.remui %j, %n : index
      %v = memref.load %sh[%jj] : memref<64xi32, {WG}>
      gpu.barrier
      memref.store %ti, %sh[%t] : memref<64xi32, {WG}>
    }}"""),
    "loop_with_both_barriers": (False, f"""
    scf.for %i = %c0 to %c2 step %c1 {{
      %j = arith.addi %t, %i : index
      %jj = arith.remui %j, %n : index
      %v = memref.load %sh[%jj] : memref<64xi32, {WG}>
      gpu.barrier
      %s = arith.addi %v, %ti : i32
      memref.store %s, %sh[%t] : memref<64xi32, {WG}>
      gpu.barrier
    }}"""),
    "global_read_then_one_writer": (True, """
    %v = memref.load %g[%c0] : memref<?xi32>
    %s = arith.addi %v, %ti : i32
    %is2 = arith.cmpi eq, %t, %c2 : index
    scf.if %is2 {
      memref.store %s, %g[%c0] : memref<?xi32>
    }"""),
    "atomics_only": (False, f"""
    %o = memref.atomic_rmw addi %ti, %sh[%c0] : (i32, memref<64xi32, {WG}>) -> i32
    %o2 = memref.atomic_rmw addi %ti, %g[%c0] : (i32, memref<?xi32>) -> i32"""),
    "distinct_global_elements_across_blocks": (False, """
    %bn = arith.muli %b, %n : index
    %gi = arith.addi %bn, %t : index
    memref.store %ti, %g[%gi] : memref<?xi32>"""),
    "divergent_if_writer_and_readers": (True, f"""
    %z = arith.cmpi eq, %t, %c0 : index
    scf.if %z {{
      memref.store %ti, %sh[%c1] : memref<64xi32, {WG}>
    }} else {{
      %v = memref.load %sh[%c1] : memref<64xi32, {WG}>
      memref.store %v, %g[%t] : memref<?xi32>
    }}"""),
    "divergent_while_own_element": (False, f"""
    %r = scf.while (%x = %t) : (index) -> index {{
      %c = arith.cmpi ult, %x, %c32 : index
      scf.condition(%c) %x : index
    }} do {{
    ^bb0(%x: index):
      %xi = arith.index_cast %x : index to i32
      memref.store %xi, %sh[%t] : memref<64xi32, {WG}>
      %x2 = arith.addi %x, %c2 : index
      scf.yield %x2 : index
    }}
    gpu.barrier
    %v = memref.load %sh[%c0] : memref<64xi32, {WG}>
    memref.store %v, %g[%t] : memref<?xi32>"""),
}


@pytest.mark.parametrize("name", sorted(RACE_CASES))
def test_racecheck_true_and_false_positives(name):
    racy, body = RACE_CASES[name]
    g = np.zeros(3 * 64, np.int32)
    src = _race_src(body)
    if racy:
        with pytest.raises(LaunchError, match="data race"):
            _launch(src, (3,), (40,), [g], racecheck=True)
    else:
        _launch(src, (3,), (40,), [g], racecheck=True)


# -- host programs -----------------------------------------------------------------------------

ASYNC_DIAMOND = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add2d(%a: memref<5x7xf32>, %b: memref<5x7xf32>, %c: memref<5x7xf32>) kernel {
      %x = gpu.thread_id x
      %y = gpu.block_id x
      %va = memref.load %a[%y, %x] : memref<5x7xf32>
      %vb = memref.load %b[%y, %x] : memref<5x7xf32>
      %s = arith.addf %va, %vb : f32
      memref.store %s, %c[%y, %x] : memref<5x7xf32>
      gpu.return
    }
  }
  func.func @main(%h: memref<5x7xf32>, %out: memref<5x7xf32>, %iters: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %f = arith.constant 1.5 : f32
    %t0 = gpu.wait async
    %da, %ta = gpu.alloc async [%t0] () : memref<5x7xf32>
    %db, %tb = gpu.alloc async [%t0] () : memref<5x7xf32>
    %ta2 = gpu.memcpy async [%ta] %da, %h : memref<5x7xf32>, memref<5x7xf32>
    %tb2 = gpu.memset async [%tb] %db, %f : memref<5x7xf32>, f32
    %tl = gpu.launch_func async [%ta2, %tb2] @kernels::@add2d blocks in (%c5, %c1, %c1) threads in (%c7, %c1, %c1)
        args(%da : memref<5x7xf32>, %db : memref<5x7xf32>, %da : memref<5x7xf32>)
    %tf = scf.for %i = %c0 to %iters step %c1 iter_args(%t = %tl) -> (!gpu.async.token) {
      %tn = gpu.launch_func async [%t] @kernels::@add2d blocks in (%c5, %c1, %c1) threads in (%c7, %c1, %c1)
          args(%da : memref<5x7xf32>, %db : memref<5x7xf32>, %da : memref<5x7xf32>)
      scf.yield %tn : !gpu.async.token
    }
    %tc = gpu.memcpy async [%tf] %out, %da : memref<5x7xf32>, memref<5x7xf32>
    %td = gpu.dealloc async [%tc] %da : memref<5x7xf32>
    %te = gpu.dealloc async [%tc] %db : memref<5x7xf32>
    gpu.wait [%td, %te]
    return
  }
}
"""


@pytest.mark.parametrize("iters", [0, 3])
def test_async_diamond_memset_memcpy_and_token_carried_through_host_loop(iters):
    h = np.random.default_rng(0).standard_normal((5, 7)).astype(np.float32)
    out = np.zeros_like(h)
    tileir.gpu.run(_module(ASYNC_DIAMOND), "main", args=[h, out, iters])
    ref = h.copy()
    for _ in range(iters + 1):
        ref = ref + np.float32(1.5)
    np.testing.assert_array_equal(out, ref)


def test_async_missing_dependency_and_early_host_read_are_reported():
    h = np.zeros((5, 7), np.float32)
    bad = ASYNC_DIAMOND.replace("%tc = gpu.memcpy async [%tf]", "%tc = gpu.memcpy async [%ta2]")
    with pytest.raises(UndefinedBehaviorError, match="gpu.launch_func"):
        tileir.gpu.run(_module(bad), "main", args=[h, np.zeros_like(h), 1])
    early = ASYNC_DIAMOND.replace(
        "    gpu.wait [%td, %te]\n",
        "    %v = memref.load %out[%c0, %c0] : memref<5x7xf32>\n    gpu.wait [%td, %te]\n")
    with pytest.raises(UndefinedBehaviorError, match="before the async 'gpu.memcpy'"):
        tileir.gpu.run(_module(early), "main", args=[h, np.zeros_like(h), 1])


INLINE_LAUNCH = f"""
module attributes {{gpu.container_module}} {{
  func.func @main(%buf: memref<?xi32>, %k: i32) {{
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c16 = arith.constant 16 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c3, %sy = %c2, %sz = %c1) dynamic_shared_memory_size %c16 {{
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, {WG}>
      %c0 = arith.constant 0 : index
      %v = memref.view %dyn[%c0][] : memref<?xi8, {WG}> to memref<4xi32, {WG}>
      %lin0 = arith.muli %ty, %sx : index
      %lin = arith.addi %lin0, %tx : index
      %lini = arith.index_cast %lin : index to i32
      %n = arith.addi %lini, %k : i32
      %r = scf.while (%i = %n) : (i32) -> i32 {{
        %c0i = arith.constant 0 : i32
        %gt = arith.cmpi sgt, %i, %c0i : i32
        scf.condition(%gt) %i : i32
      }} do {{
      ^bb0(%i: i32):
        gpu.printf "b%lu t%lu i=%d\\n", %bx, %lin, %i : index, index, i32
        %c2i = arith.constant 2 : i32
        %j = arith.subi %i, %c2i : i32
        scf.yield %j : i32
      }}
      %c4 = arith.constant 4 : index
      %inb = arith.cmpi ult, %lin, %c4 : index
      scf.if %inb {{
        memref.store %r, %v[%lin] : memref<4xi32, {WG}>
      }}
      gpu.barrier
      %first = arith.cmpi eq, %lin, %c0 : index
      scf.if %first {{
        %a = memref.load %v[%c0] : memref<4xi32, {WG}>
        %b = memref.load %v[%c3] : memref<4xi32, {WG}>
        %s = arith.addi %a, %b : i32
        memref.store %s, %buf[%bx] : memref<?xi32>
      }}
      gpu.terminator
    }}
    return
  }}
}}
"""


def test_inline_launch_dynamic_shared_view_and_printf_in_divergent_while():
    k = 1
    buf = np.zeros(2, np.int32)
    so = io.StringIO()
    tileir.gpu.run(_module(INLINE_LAUNCH), "main", args=[buf, k], stdout=so)
    cur = {(b, t): t + k for b in range(2) for t in range(6)}
    lines = []
    while any(v > 0 for v in cur.values()):
        lines += [f"b{b} t{t} i={cur[(b, t)]}" for b in range(2) for t in range(6)
                  if cur[(b, t)] > 0]
        cur = {key: v - 2 if v > 0 else v for key, v in cur.items()}
    assert so.getvalue() == "\n".join(lines) + "\n"
    final = {t: ((t + k) % 2) - 1 for t in range(6)}      # t+k odd -> -1, even -> 0
    np.testing.assert_array_equal(buf, [final[0] + final[3]] * 2)


# -- loops: negative / unsigned bounds, narrow ivs, vector iter_args ------------------------------

LOOP_BOUNDS = """
gpu.module @m {
  gpu.func @k(%lbs: memref<?xi32>, %ubs: memref<?xi32>, %steps: memref<?xi32>, %out: memref<?xi32>, %out2: memref<?xi32>, %outv: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %lbi = memref.load %lbs[%t] : memref<?xi32>
    %ubi = memref.load %ubs[%t] : memref<?xi32>
    %sti = memref.load %steps[%t] : memref<?xi32>
    %lb = arith.index_cast %lbi : i32 to index
    %ub = arith.index_cast %ubi : i32 to index
    %st = arith.index_castui %sti : i32 to index
    %c0 = arith.constant 0 : i32
    %c7 = arith.constant 7 : i32
    %s = scf.for %i = %lb to %ub step %st iter_args(%a = %c0) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %m = arith.muli %a, %c7 : i32
      %n = arith.addi %m, %ii : i32
      scf.yield %n : i32
    }
    memref.store %s, %out[%t] : memref<?xi32>
    %s2 = scf.for unsigned %i = %lb to %ub step %st iter_args(%a = %c0) -> (i32) {
      %ii = arith.index_cast %i : index to i32
      %m = arith.muli %a, %c7 : i32
      %n = arith.addi %m, %ii : i32
      scf.yield %n : i32
    }
    memref.store %s2, %out2[%t] : memref<?xi32>
    %lb8 = arith.trunci %lbi : i32 to i8
    %ub8 = arith.trunci %ubi : i32 to i8
    %st8 = arith.trunci %sti : i32 to i8
    %vz = arith.constant dense<0.0> : vector<4xf32>
    %v = scf.for %j = %lb8 to %ub8 step %st8 iter_args(%acc = %vz) -> (vector<4xf32>) : i8 {
      %jf = arith.sitofp %j : i8 to f32
      %b = vector.broadcast %jf : f32 to vector<4xf32>
      %cst = arith.constant dense<[1.0, -1.0, 0.5, 2.0]> : vector<4xf32>
      %p = arith.mulf %b, %cst : vector<4xf32>
      %q = arith.addf %acc, %p : vector<4xf32>
      %sh = vector.shuffle %q, %q [1, 2, 3, 0] : vector<4xf32>, vector<4xf32>
      scf.yield %sh : vector<4xf32>
    }
    %c4 = arith.constant 4 : index
    %base = arith.muli %t, %c4 : index
    vector.store %v, %outv[%base] : memref<?xf32>, vector<4xf32>
    gpu.return
  }
}
"""


def _loop_ref(lb: int, ub: int, st: int, unsigned: bool) -> int:
    if unsigned:
        lb, ub = lb % 2 ** 64, ub % 2 ** 64
    a = 0
    for i in range(lb, ub, st):
        a = _wrap32(a * 7 + _wrap32(i))
    return a


@pytest.mark.parametrize("block", [10, 1])
def test_for_negative_and_unsigned_index_bounds_i8_iv_vector_iter_args(block):
    lbs = np.array([-10, -5, -3, 0, -1, 5, -100, 2, 10, -3], np.int32)[:block]
    ubs = np.array([-1, 3, -2, 0, 1, 100, 100, 2, 20, 3], np.int32)[:block]
    sts = np.array([3, 1, 1, 1, 2, 7, 9, 5, 4, 6], np.int32)[:block]
    n = lbs.size
    out, out2 = np.zeros(n, np.int32), np.zeros(n, np.int32)
    outv = np.zeros(4 * n, np.float32)
    _launch(LOOP_BOUNDS, (1,), (n,), [lbs, ubs, sts, out, out2, outv])
    args = list(zip(lbs.tolist(), ubs.tolist(), sts.tolist()))
    np.testing.assert_array_equal(out, [_loop_ref(a, b, c, False) for a, b, c in args])
    np.testing.assert_array_equal(out2, [_loop_ref(a, b, c, True) for a, b, c in args])
    cst = np.array([1, -1, .5, 2], np.float32)
    refv = np.zeros((n, 4), np.float32)
    for t, (a, b, c) in enumerate(args):
        acc = np.zeros(4, np.float32)
        for j in range(a, b, c):
            acc = (acc + np.float32(j) * cst)[[1, 2, 3, 0]]
        refv[t] = acc
    np.testing.assert_array_equal(outv.reshape(n, 4), refv)


UNSIGNED_READ_LOOP = """
gpu.module @m {
  gpu.func @k(%a: memref<8xf32>, %out: memref<?xf32>, %lb: index, %ub: index) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %z = arith.constant 0.0 : f32
    %s = scf.for unsigned %i = %lb to %ub step %c4 iter_args(%acc = %z) -> (f32) {
      %j = arith.addi %i, %t : index
      %k = arith.addi %j, %c16 : index
      %v = memref.load %a[%k] : memref<8xf32>
      %m = arith.mulf %acc, %v : f32
      %r = arith.addf %m, %v : f32
      scf.yield %r : f32
    }
    memref.store %s, %out[%t] : memref<?xf32>
    gpu.return
  }
}
"""


def test_uniform_unsigned_loop_with_bounds_above_2_pow_63():
    """Uniform ``scf.for unsigned`` from 2**64-16 to 2**64-8: the iv is -16, -12 as an index
    (it hung: the iv was made from the unsigned Python int)."""
    a = np.arange(1, 9, dtype=np.float32) / 3
    out = np.zeros(4, np.float32)
    _launch(UNSIGNED_READ_LOOP, (1,), (4,), [a, out, -16, -8])
    ref = np.zeros(4, np.float32)
    for t in range(4):
        acc = np.float32(0)
        for i in (-16, -12):
            v = a[i + t + 16]
            acc = acc * v + v
        ref[t] = acc
    np.testing.assert_array_equal(out, ref)
    # 16 <= i < 2**64-8 unsigned: the first iteration reads a[32]
    with pytest.raises(LaunchError, match="index 32 out of bounds"):
        _launch(UNSIGNED_READ_LOOP, (1,), (4,), [a, out, 16, -8])


# -- cf.switch -------------------------------------------------------------------------------

SWITCH_KERNEL = """
gpu.module @m {
  gpu.func @k(%in: memref<?xi32>, %out: memref<?x6xi32>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %g0 = arith.muli %b, %n : index
    %g = arith.addi %g0, %t : index
    %v = memref.load %in[%g] : memref<?xi32>
    %priv = memref.alloca() : memref<2x3xi32>
    %flat = memref.collapse_shape %priv [[0, 1]] : memref<2x3xi32> into memref<6xi32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    scf.for %i = %c0 to %c6 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %x = arith.muli %v, %ii : i32
      memref.store %x, %flat[%i] : memref<6xi32>
    }
    %c4 = arith.constant 4 : i32
    %sel = arith.remsi %v, %c4 : i32
    cf.switch %sel : i32, [
      default: ^bbd,
      0: ^bb0,
      1: ^bb1,
      -1: ^bbm1
    ]
  ^bb0:
    %a = memref.load %priv[%c1, %c1] : memref<2x3xi32>
    %c100 = arith.constant 100 : i32
    %a2 = arith.addi %a, %c100 : i32
    memref.store %a2, %priv[%c0, %c0] : memref<2x3xi32>
    cf.br ^join
  ^bb1:
    %tr = memref.transpose %priv (i, j) -> (j, i) : memref<2x3xi32> to memref<3x2xi32, strided<[1, 3]>>
    %e = memref.load %tr[%c1, %c0] : memref<3x2xi32, strided<[1, 3]>>
    memref.store %e, %priv[%c1, %c2] : memref<2x3xi32>
    cf.br ^join
  ^bbm1:
    %z = arith.constant -7 : i32
    %sv = memref.subview %priv[1, 0] [1, 3] [1, 1] : memref<2x3xi32> to memref<3xi32, strided<[1], offset: 3>>
    scf.for %q = %c0 to %c2 step %c1 {
      memref.store %z, %sv[%q] : memref<3xi32, strided<[1], offset: 3>>
    }
    cf.br ^join
  ^bbd:
    cf.br ^join
  ^join:
    %o = memref.subview %out[%g, 0] [1, 6] [1, 1] : memref<?x6xi32> to memref<6xi32, strided<[1], offset: ?>>
    memref.copy %flat, %o : memref<6xi32> to memref<6xi32, strided<[1], offset: ?>>
    gpu.return
  }
}
"""


def test_divergent_cf_switch_with_negative_case_private_alloca_views_and_copy():
    x = np.random.default_rng(0).integers(-20, 20, 2 * 37).astype(np.int32)
    out = np.zeros((74, 6), np.int32)
    _launch(SWITCH_KERNEL, (2,), (37,), [x, out])
    ref = np.zeros_like(out)
    for g, v in enumerate(x.tolist()):
        p = (v * np.arange(6, dtype=np.int32)).reshape(2, 3)
        s = int(math.fmod(v, 4))
        if s == 0:
            p[0, 0] = p[1, 1] + 100
        elif s == 1:
            p[1, 2] = p.T[1, 0]
        elif s == -1:
            p[1, 0:2] = -7
        ref[g] = p.ravel()
    np.testing.assert_array_equal(out, ref)


HOST_SWITCH = """
module {
  func.func @main(%x: i32, %out: memref<1xi32>) {
    %c0 = arith.constant 0 : index
    cf.switch %x : i32, [
      default: ^bb1,
      -1: ^bb2
    ]
  ^bb1:
    %a = arith.constant 1 : i32
    memref.store %a, %out[%c0] : memref<1xi32>
    return
  ^bb2:
    %b = arith.constant 2 : i32
    memref.store %b, %out[%c0] : memref<1xi32>
    return
  }
}
"""


@pytest.mark.parametrize("flag,expected", [(-1, 2), (5, 1)])
def test_host_cf_switch_negative_case(flag, expected):
    out = np.zeros(1, np.int32)
    tileir.gpu.run(_module(HOST_SWITCH), "main", args=[flag, out])
    assert out[0] == expected
