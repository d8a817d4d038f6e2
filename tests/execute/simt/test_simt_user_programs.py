"""User-style gpu dialect programs on the SIMT engine, each checked against an independent
NumPy (or mpmath) reference: nested divergent control flow with barriers in 3-D blocks, cf
loops, shuffles and reductions in partial subgroups, dynamic shared memory, atomics across
blocks, integer edge cases, f16/bf16, math accuracy, faults, racecheck, async host chains,
loops with vector iter_args and unsigned / negative bounds; then classic kernels (scans,
bitonic sort, padded transpose, stencil, shuffle softmax, SpMV, argmax, host async chains with
gpu.alloc, views and vector transfers) and the errors users hit (faults, races, divergent
barriers, bad arguments, known_block_size, globals of gpu.modules).

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
from tileir.execute.errors import (ArgumentError, GridError, LaunchError,
                                   UndefinedBehaviorError)
from tileir.ir.diagnostics import DiagnosticError

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


# -- classic kernels as users write them (second hunt) ---------------------------------------
# scans, sorts, transposes, stencils, softmax, SpMV, argmax, host async chains, views, error
# paths, racecheck, known_block_size, globals in gpu.modules, more math functions


def _launch_named(text: str, kernel: str, grid, block, args, **kw):
    tileir.gpu.launch(_module(text), kernel, grid=grid, block=block, args=args, **kw)


BLELLOCH = """
// Blelloch exclusive scan: each block scans 2*blockDim elements in shared memory, writes block sums.
gpu.module @m {
  gpu.func @k(%in: memref<?xi32>, %out: memref<?xi32>, %sums: memref<?xi32>, %n: index)
      workgroup(%tmp: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c0i = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %m = arith.muli %bdim, %c2 : index
    %base = arith.muli %bid, %m : index
    %ai = arith.muli %tid, %c2 : index
    %bi = arith.addi %ai, %c1 : index
    %ga = arith.addi %base, %ai : index
    %gb = arith.addi %base, %bi : index
    %ina = arith.cmpi ult, %ga, %n : index
    %va = scf.if %ina -> (i32) {
      %v = memref.load %in[%ga] : memref<?xi32>
      scf.yield %v : i32
    } else {
      scf.yield %c0i : i32
    }
    %inb = arith.cmpi ult, %gb, %n : index
    %vb = scf.if %inb -> (i32) {
      %v = memref.load %in[%gb] : memref<?xi32>
      scf.yield %v : i32
    } else {
      scf.yield %c0i : i32
    }
    memref.store %va, %tmp[%ai] : memref<256xi32, #gpu.address_space<workgroup>>
    memref.store %vb, %tmp[%bi] : memref<256xi32, #gpu.address_space<workgroup>>
    // up-sweep: d = m/2 .. 1, offset doubles
    %half = arith.shrui %m, %c1 : index
    %wd, %woff = scf.while (%d = %half, %off = %c1) : (index, index) -> (index, index) {
      %more = arith.cmpi ugt, %d, %c0 : index
      scf.condition(%more) %d, %off : index, index
    } do {
    ^bb0(%d: index, %off: index):
      gpu.barrier
      %act = arith.cmpi ult, %tid, %d : index
      scf.if %act {
        %t1 = arith.addi %ai, %c1 : index
        %i1 = arith.muli %off, %t1 : index
        %x = arith.subi %i1, %c1 : index
        %t2 = arith.addi %ai, %c2 : index
        %i2 = arith.muli %off, %t2 : index
        %y = arith.subi %i2, %c1 : index
        %vx = memref.load %tmp[%x] : memref<256xi32, #gpu.address_space<workgroup>>
        %vy = memref.load %tmp[%y] : memref<256xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %vx, %vy : i32
        memref.store %s, %tmp[%y] : memref<256xi32, #gpu.address_space<workgroup>>
      }
      %d2 = arith.shrui %d, %c1 : index
      %off2 = arith.shli %off, %c1 : index
      scf.yield %d2, %off2 : index, index
    }
    %is0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %is0 {
      %last = arith.subi %m, %c1 : index
      %tot = memref.load %tmp[%last] : memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %tot, %sums[%bid] : memref<?xi32>
      memref.store %c0i, %tmp[%last] : memref<256xi32, #gpu.address_space<workgroup>>
    }
    // down-sweep
    scf.for %lvl = %c0 to %m step %c1 iter_args(%d = %c1, %off = %half) -> (index, index) {
      %cont = arith.cmpi ult, %d, %m : index
      %r:2 = scf.if %cont -> (index, index) {
        gpu.barrier
        %act = arith.cmpi ult, %tid, %d : index
        scf.if %act {
          %t1 = arith.addi %ai, %c1 : index
          %i1 = arith.muli %off, %t1 : index
          %x = arith.subi %i1, %c1 : index
          %t2 = arith.addi %ai, %c2 : index
          %i2 = arith.muli %off, %t2 : index
          %y = arith.subi %i2, %c1 : index
          %vx = memref.load %tmp[%x] : memref<256xi32, #gpu.address_space<workgroup>>
          %vy = memref.load %tmp[%y] : memref<256xi32, #gpu.address_space<workgroup>>
          memref.store %vy, %tmp[%x] : memref<256xi32, #gpu.address_space<workgroup>>
          %s = arith.addi %vx, %vy : i32
          memref.store %s, %tmp[%y] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        %d2 = arith.shli %d, %c1 : index
        %off2 = arith.shrui %off, %c1 : index
        scf.yield %d2, %off2 : index, index
      } else {
        scf.yield %d, %off : index, index
      }
      scf.yield %r#0, %r#1 : index, index
    }
    gpu.barrier
    scf.if %ina {
      %v = memref.load %tmp[%ai] : memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%ga] : memref<?xi32>
    }
    scf.if %inb {
      %v = memref.load %tmp[%bi] : memref<256xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%gb] : memref<?xi32>
    }
    gpu.return
  }
}
"""


BITONIC = """
// Bitonic sort of each block's 2^k f32 keys (with payload i64) in dynamic shared memory.
gpu.module @m {
  gpu.func @k(%keys: memref<?xf32>, %vals: memref<?xi64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %n = gpu.block_dim x
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %kb = arith.muli %n, %c4 : index
    %sk = memref.view %dyn[%c0][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xf32, #gpu.address_space<workgroup>>
    %sv = memref.view %dyn[%kb][%n] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi64, #gpu.address_space<workgroup>>
    %g0 = arith.muli %bid, %n : index
    %g = arith.addi %g0, %tid : index
    %kv = memref.load %keys[%g] : memref<?xf32>
    %vv = memref.load %vals[%g] : memref<?xi64>
    memref.store %kv, %sk[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
    memref.store %vv, %sv[%tid] : memref<?xi64, #gpu.address_space<workgroup>>
    gpu.barrier
    %kf = scf.while (%k = %c2) : (index) -> index {
      %go = arith.cmpi ule, %k, %n : index
      scf.condition(%go) %k : index
    } do {
    ^bb0(%k: index):
      %j0 = arith.divui %k, %c2 : index
      %jf = scf.while (%j = %j0) : (index) -> index {
        %go2 = arith.cmpi ugt, %j, %c0 : index
        scf.condition(%go2) %j : index
      } do {
      ^bb0(%j: index):
        %ixj = arith.xori %tid, %j : index
        %gt = arith.cmpi ugt, %ixj, %tid : index
        scf.if %gt {
          %a = memref.load %sk[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sk[%ixj] : memref<?xf32, #gpu.address_space<workgroup>>
          %dirb = arith.andi %tid, %k : index
          %up = arith.cmpi eq, %dirb, %c0 : index
          %agb = arith.cmpf ogt, %a, %b : f32
          %alb = arith.cmpf olt, %a, %b : f32
          %sw = arith.select %up, %agb, %alb : i1
          scf.if %sw {
            %va = memref.load %sv[%tid] : memref<?xi64, #gpu.address_space<workgroup>>
            %vb = memref.load %sv[%ixj] : memref<?xi64, #gpu.address_space<workgroup>>
            memref.store %b, %sk[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
            memref.store %a, %sk[%ixj] : memref<?xf32, #gpu.address_space<workgroup>>
            memref.store %vb, %sv[%tid] : memref<?xi64, #gpu.address_space<workgroup>>
            memref.store %va, %sv[%ixj] : memref<?xi64, #gpu.address_space<workgroup>>
          }
        }
        gpu.barrier
        %jn = arith.shrui %j, %c1 : index
        scf.yield %jn : index
      }
      %kn = arith.muli %k, %c2 : index
      scf.yield %kn : index
    }
    %ko = memref.load %sk[%tid] : memref<?xf32, #gpu.address_space<workgroup>>
    %vo = memref.load %sv[%tid] : memref<?xi64, #gpu.address_space<workgroup>>
    memref.store %ko, %keys[%g] : memref<?xf32>
    memref.store %vo, %vals[%g] : memref<?xi64>
    gpu.return
  }
}
"""


TRANSPOSE = """
// Tiled transpose through a 32x33 padded shared tile, 2-D grid and 32x8 block, f64 and bounds ifs.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%a: memref<?x?xf64>, %b: memref<?x?xf64>) workgroup(%t: memref<32x33xf64, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %rows = memref.dim %a, %c0 : memref<?x?xf64>
      %cols = memref.dim %a, %c1 : memref<?x?xf64>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %x0 = arith.muli %bx, %c32 : index
      %y0 = arith.muli %by, %c32 : index
      %x = arith.addi %x0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %jj = arith.addi %ty, %j : index
        %y = arith.addi %y0, %jj : index
        %iny = arith.cmpi slt, %y, %rows : index
        %inx = arith.cmpi slt, %x, %cols : index
        %in = arith.andi %iny, %inx : i1
        scf.if %in {
          %v = memref.load %a[%y, %x] : memref<?x?xf64>
          memref.store %v, %t[%jj, %tx] : memref<32x33xf64, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %ox = arith.addi %y0, %tx : index
      scf.for %j = %c0 to %c32 step %c8 {
        %jj = arith.addi %ty, %j : index
        %oy = arith.addi %x0, %jj : index
        %iny = arith.cmpi slt, %oy, %cols : index
        %inx = arith.cmpi slt, %ox, %rows : index
        %in = arith.andi %iny, %inx : i1
        scf.if %in {
          %v = memref.load %t[%tx, %jj] : memref<32x33xf64, #gpu.address_space<workgroup>>
          memref.store %v, %b[%oy, %ox] : memref<?x?xf64>
        }
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<?x?xf64>, %b: memref<?x?xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %r = memref.dim %a, %c0 : memref<?x?xf64>
    %c = memref.dim %a, %c1 : memref<?x?xf64>
    %gx = arith.ceildivui %c, %c32 : index
    %gy = arith.ceildivui %r, %c32 : index
    gpu.launch_func @m::@k blocks in (%gx, %gy, %c1) threads in (%c32, %c8, %c1) args(%a : memref<?x?xf64>, %b : memref<?x?xf64>)
    return
  }
}
"""


STENCIL = """
// 5-point Jacobi step on an f32 grid; boundary cells copied; cf branches for the boundary test,
// i32 sizes passed as scalars and cast to index.
gpu.module @m {
  gpu.func @k(%u: memref<?x?xf32>, %v: memref<?x?xf32>, %h: i32, %w: i32) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %q = arith.constant 0.25 : f32
    %x0 = arith.muli %bx, %dx : index
    %x = arith.addi %x0, %tx : index
    %y0 = arith.muli %by, %dy : index
    %y = arith.addi %y0, %ty : index
    %hi = arith.index_cast %h : i32 to index
    %wi = arith.index_castui %w : i32 to index
    %ox = arith.cmpi uge, %x, %wi : index
    %oy = arith.cmpi uge, %y, %hi : index
    %out = arith.ori %ox, %oy : i1
    cf.cond_br %out, ^exit, ^inside
  ^inside:
    %hm1 = arith.subi %hi, %c1 : index
    %wm1 = arith.subi %wi, %c1 : index
    %b0 = arith.cmpi eq, %x, %wm1 : index
    %b1 = arith.cmpi eq, %y, %hm1 : index
    %b2 = arith.cmpi eq, %x, %c0 : index
    %b3 = arith.cmpi eq, %y, %c0 : index
    %e0 = arith.ori %b0, %b1 : i1
    %e1 = arith.ori %b2, %b3 : i1
    %edge = arith.ori %e0, %e1 : i1
    cf.cond_br %edge, ^copy, ^interior
  ^copy:
    %cv = memref.load %u[%y, %x] : memref<?x?xf32>
    cf.br ^store(%cv : f32)
  ^interior:
    %xm = arith.subi %x, %c1 : index
    %xp = arith.addi %x, %c1 : index
    %ym = arith.subi %y, %c1 : index
    %yp = arith.addi %y, %c1 : index
    %l = memref.load %u[%y, %xm] : memref<?x?xf32>
    %r = memref.load %u[%y, %xp] : memref<?x?xf32>
    %t = memref.load %u[%ym, %x] : memref<?x?xf32>
    %b = memref.load %u[%yp, %x] : memref<?x?xf32>
    %s1 = arith.addf %l, %r : f32
    %s2 = arith.addf %t, %b : f32
    %s3 = arith.addf %s1, %s2 : f32
    %s4 = arith.mulf %s3, %q : f32
    cf.br ^store(%s4 : f32)
  ^store(%val: f32):
    memref.store %val, %v[%y, %x] : memref<?x?xf32>
    cf.br ^exit
  ^exit:
    gpu.return
  }
}
"""


SOFTMAX = """
// Row softmax: one warp per row (block = 32 x 4 warps), strided column loop, xor-butterfly max
// and sum through gpu.shuffle, math.exp.
gpu.module @m {
  gpu.func @k(%x: memref<?x?xf32>, %y: memref<?x?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32i = arith.constant 32 : i32
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.0 : f32
    %rows = memref.dim %x, %c0 : memref<?x?xf32>
    %cols = memref.dim %x, %c1 : memref<?x?xf32>
    %lane = gpu.thread_id x
    %wy = gpu.thread_id y
    %by = gpu.block_id x
    %dy = gpu.block_dim y
    %r0 = arith.muli %by, %dy : index
    %row = arith.addi %r0, %wy : index
    %ok = arith.cmpi ult, %row, %rows : index
    scf.if %ok {
      %m = scf.for %j = %lane to %cols step %c32 iter_args(%acc = %ninf) -> (f32) {
        %v = memref.load %x[%row, %j] : memref<?x?xf32>
        %mx = arith.maximumf %acc, %v : f32
        scf.yield %mx : f32
      }
      %m1 = scf.for %s = %c0 to %c32 step %c1 iter_args(%acc = %m) -> (f32) {
        // offsets 16, 8, 4, 2, 1 (skip other s)
        %si = arith.index_cast %s : index to i32
        %c5 = arith.constant 5 : i32
        %lt = arith.cmpi slt, %si, %c5 : i32
        %r = scf.if %lt -> (f32) {
          %c16 = arith.constant 16 : i32
          %off = arith.shrui %c16, %si : i32
          %o, %valid = gpu.shuffle xor %acc, %off, %c32i : f32
          %mx = arith.maximumf %acc, %o : f32
          scf.yield %mx : f32
        } else {
          scf.yield %acc : f32
        }
        scf.yield %r : f32
      }
      %sum = scf.for %j = %lane to %cols step %c32 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %x[%row, %j] : memref<?x?xf32>
        %d = arith.subf %v, %m1 : f32
        %e = math.exp %d : f32
        memref.store %e, %y[%row, %j] : memref<?x?xf32>
        %a = arith.addf %acc, %e : f32
        scf.yield %a : f32
      }
      %c1i = arith.constant 1 : i32
      %c2i = arith.constant 2 : i32
      %c4i = arith.constant 4 : i32
      %c8i = arith.constant 8 : i32
      %c16i = arith.constant 16 : i32
      %o1, %v1 = gpu.shuffle xor %sum, %c16i, %c32i : f32
      %s1 = arith.addf %sum, %o1 : f32
      %o2, %v2 = gpu.shuffle xor %s1, %c8i, %c32i : f32
      %s2 = arith.addf %s1, %o2 : f32
      %o3, %v3 = gpu.shuffle xor %s2, %c4i, %c32i : f32
      %s3 = arith.addf %s2, %o3 : f32
      %o4, %v4 = gpu.shuffle xor %s3, %c2i, %c32i : f32
      %s4 = arith.addf %s3, %o4 : f32
      %o5, %v5 = gpu.shuffle xor %s4, %c1i, %c32i : f32
      %s5 = arith.addf %s4, %o5 : f32
      scf.for %j = %lane to %cols step %c32 {
        %e = memref.load %y[%row, %j] : memref<?x?xf32>
        %q = arith.divf %e, %s5 : f32
        memref.store %q, %y[%row, %j] : memref<?x?xf32>
      }
    }
    gpu.return
  }
}
"""


SPMV = """
// CSR SpMV two ways: csr_scalar (thread per row, per-thread loop bounds from row_ptr, i32 indices)
// and csr_vector (a warp per row, lanes strided over the row, gpu.subgroup_reduce add).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @csr_scalar(%rp: memref<?xi32>, %ci: memref<?xi32>, %val: memref<?xf64>,
                         %x: memref<?xf64>, %y: memref<?xf64>, %nrows: i32) kernel {
      %i = gpu.global_id x
      %ii = arith.index_cast %i : index to i32
      %ok = arith.cmpi slt, %ii, %nrows : i32
      scf.if %ok {
        %c1 = arith.constant 1 : index
        %i1 = arith.addi %i, %c1 : index
        %s32 = memref.load %rp[%i] : memref<?xi32>
        %e32 = memref.load %rp[%i1] : memref<?xi32>
        %s = arith.index_cast %s32 : i32 to index
        %e = arith.index_cast %e32 : i32 to index
        %z = arith.constant 0.0 : f64
        %acc = scf.for %k = %s to %e step %c1 iter_args(%a = %z) -> (f64) {
          %cj = memref.load %ci[%k] : memref<?xi32>
          %j = arith.index_cast %cj : i32 to index
          %av = memref.load %val[%k] : memref<?xf64>
          %xv = memref.load %x[%j] : memref<?xf64>
          %p = arith.mulf %av, %xv : f64
          %a2 = arith.addf %a, %p : f64
          scf.yield %a2 : f64
        }
        memref.store %acc, %y[%i] : memref<?xf64>
      }
      gpu.return
    }
    gpu.func @csr_vector(%rp: memref<?xi32>, %ci: memref<?xi32>, %val: memref<?xf64>,
                         %x: memref<?xf64>, %y: memref<?xf64>, %nrows: i32) kernel {
      %lane = gpu.lane_id
      %w = gpu.subgroup_id : index
      %nw = gpu.num_subgroups : index
      %b = gpu.block_id x
      %r0 = arith.muli %b, %nw : index
      %row = arith.addi %r0, %w : index
      %n = arith.index_cast %nrows : i32 to index
      %ok = arith.cmpi ult, %row, %n : index
      scf.if %ok {
        %c1 = arith.constant 1 : index
        %c32 = arith.constant 32 : index
        %r1 = arith.addi %row, %c1 : index
        %s32 = memref.load %rp[%row] : memref<?xi32>
        %e32 = memref.load %rp[%r1] : memref<?xi32>
        %s = arith.index_cast %s32 : i32 to index
        %e = arith.index_cast %e32 : i32 to index
        %st = arith.addi %s, %lane : index
        %z = arith.constant 0.0 : f64
        %acc = scf.for %k = %st to %e step %c32 iter_args(%a = %z) -> (f64) {
          %cj = memref.load %ci[%k] : memref<?xi32>
          %j = arith.index_cast %cj : i32 to index
          %av = memref.load %val[%k] : memref<?xf64>
          %xv = memref.load %x[%j] : memref<?xf64>
          %a2 = math.fma %av, %xv, %a : f64
          scf.yield %a2 : f64
        }
        %tot = gpu.subgroup_reduce add %acc : (f64) -> f64
        %c0 = arith.constant 0 : index
        %first = arith.cmpi eq, %lane, %c0 : index
        scf.if %first {
          memref.store %tot, %y[%row] : memref<?xf64>
        }
      }
      gpu.return
    }
  }
  func.func @main(%rp: memref<?xi32>, %ci: memref<?xi32>, %val: memref<?xf64>, %x: memref<?xf64>,
                  %y1: memref<?xf64>, %y2: memref<?xf64>, %nrows: i32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c4 = arith.constant 4 : index
    %n = arith.index_cast %nrows : i32 to index
    %g1 = arith.ceildivui %n, %c64 : index
    %g2 = arith.ceildivui %n, %c4 : index
    gpu.launch_func @m::@csr_scalar blocks in (%g1, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%rp : memref<?xi32>, %ci : memref<?xi32>, %val : memref<?xf64>, %x : memref<?xf64>, %y1 : memref<?xf64>, %nrows : i32)
    gpu.launch_func @m::@csr_vector blocks in (%g2, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%rp : memref<?xi32>, %ci : memref<?xi32>, %val : memref<?xf64>, %x : memref<?xf64>, %y2 : memref<?xf64>, %nrows : i32)
    return
  }
}
"""


ARGMAX = """
// Block argmax of f32 with a custom gpu.all_reduce region over packed i64 keys
// (order-preserving f32 bits << 32 | ~index), 3-D block; then a global atomic max across blocks.
gpu.module @m {
  gpu.func @k(%x: memref<?xf32>, %best: memref<1xi64>, %blockbest: memref<?xi64>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %tz = gpu.thread_id z
    %dx = gpu.block_dim x
    %dy = gpu.block_dim y
    %dz = gpu.block_dim z
    %b = gpu.block_id x
    %t0 = arith.muli %tz, %dy : index
    %t1 = arith.addi %t0, %ty : index
    %t2 = arith.muli %t1, %dx : index
    %lin = arith.addi %t2, %tx : index
    %n0 = arith.muli %dx, %dy : index
    %nt = arith.muli %n0, %dz : index
    %g0 = arith.muli %b, %nt : index
    %g = arith.addi %g0, %lin : index
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %in = arith.cmpi ult, %g, %n : index
    %key = scf.if %in -> (i64) {
      %v = memref.load %x[%g] : memref<?xf32>
      %bits = arith.bitcast %v : f32 to i32
      %c0i = arith.constant 0 : i32
      %neg = arith.cmpi slt, %bits, %c0i : i32
      %mask = arith.constant 2147483647 : i32
      %flip = arith.xori %bits, %mask : i32
      %ord = arith.select %neg, %flip, %bits : i32
      %hi = arith.extsi %ord : i32 to i64
      %c32 = arith.constant 32 : i64
      %hs = arith.shli %hi, %c32 : i64
      %gi = arith.index_cast %g : index to i64
      %m32 = arith.constant 4294967295 : i64
      %lo = arith.subi %m32, %gi : i64
      %k = arith.ori %hs, %lo : i64
      scf.yield %k : i64
    } else {
      %min = arith.constant -9223372036854775808 : i64
      scf.yield %min : i64
    }
    %r = gpu.all_reduce %key {
    ^bb0(%a: i64, %c: i64):
      %gt = arith.cmpi sgt, %a, %c : i64
      cf.cond_br %gt, ^l, ^r
    ^l:
      gpu.yield %a : i64
    ^r:
      gpu.yield %c : i64
    } : (i64) -> (i64)
    %first = arith.cmpi eq, %lin, %c0 : index
    scf.if %first {
      memref.store %r, %blockbest[%b] : memref<?xi64>
      %old = memref.atomic_rmw maxs %r, %best[%c0] : (i64, memref<1xi64>) -> i64
    }
    gpu.return
  }
}
"""


HOST_ALLOC = """
// Host: gpu.alloc device buffers, memset, memcpy in, two dependent async launches (scale then
// prefix within rows), memcpy back into a host memref.alloc result that is returned.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scale(%d: memref<?x8xi64>, %f: i64) kernel {
      %r = gpu.block_id x
      %c = gpu.thread_id x
      %v = memref.load %d[%r, %c] : memref<?x8xi64>
      %m = arith.muli %v, %f : i64
      memref.store %m, %d[%r, %c] : memref<?x8xi64>
      gpu.return
    }
    gpu.func @rowscan(%d: memref<?x8xi64>, %acc: memref<1xi64>) kernel {
      %r = gpu.global_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %z = arith.constant 0 : i64
      %n = memref.dim %d, %c0 : memref<?x8xi64>
      %ok = arith.cmpi ult, %r, %n : index
      scf.if %ok {
        %s = scf.for %j = %c0 to %c8 step %c1 iter_args(%a = %z) -> (i64) {
          %v = memref.load %d[%r, %j] : memref<?x8xi64>
          %a2 = arith.addi %a, %v : i64
          memref.store %a2, %d[%r, %j] : memref<?x8xi64>
          scf.yield %a2 : i64
        }
        %old = memref.atomic_rmw addi %s, %acc[%c0] : (i64, memref<1xi64>) -> i64
      }
      gpu.return
    }
  }
  func.func @main(%h: memref<?x8xi64>, %f: i64) -> (memref<?x8xi64>, memref<1xi64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %z = arith.constant 0 : i64
    %n = memref.dim %h, %c0 : memref<?x8xi64>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] (%n) : memref<?x8xi64>
    %acc, %t2 = gpu.alloc async [%t0] () : memref<1xi64>
    %t3 = gpu.memset async [%t2] %acc, %z : memref<1xi64>, i64
    %t4 = gpu.memcpy async [%t1] %d, %h : memref<?x8xi64>, memref<?x8xi64>
    %t5 = gpu.launch_func async [%t4] @m::@scale blocks in (%n, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%d : memref<?x8xi64>, %f : i64)
    %g = arith.ceildivui %n, %c32 : index
    %t6 = gpu.launch_func async [%t5, %t3] @m::@rowscan blocks in (%g, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%d : memref<?x8xi64>, %acc : memref<1xi64>)
    %out = memref.alloc(%n) : memref<?x8xi64>
    %tot = memref.alloc() : memref<1xi64>
    %t7 = gpu.memcpy async [%t6] %out, %d : memref<?x8xi64>, memref<?x8xi64>
    %t8 = gpu.memcpy async [%t6] %tot, %acc : memref<1xi64>, memref<1xi64>
    %t9 = gpu.dealloc async [%t7] %d : memref<?x8xi64>
    %t10 = gpu.dealloc async [%t8] %acc : memref<1xi64>
    gpu.wait [%t9, %t10]
    return %out, %tot : memref<?x8xi64>, memref<1xi64>
  }
}
"""


VIEWS = """
// Each block handles one 4x16 f16 tile of a 3-D tensor: collapse_shape to 2-D, subview the
// tile, vector.transfer_read a row of 8 halves per thread, widen to f32, fma with a bf16 bias
// read through reinterpret_cast, reduce, and write f32 row sums plus the f16 tile scaled.
gpu.module @m {
  gpu.func @k(%a: memref<2x8x32xf16>, %bias: memref<256xbf16>, %o: memref<16x32xf16>, %s: memref<16x4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %pad = arith.constant 0.0 : f16
    %bpad = arith.constant 0.0 : bf16
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %flat = memref.collapse_shape %a [[0, 1], [2]] : memref<2x8x32xf16> into memref<16x32xf16>
    %r0 = arith.muli %by, %c4 : index
    %col0 = arith.muli %bx, %c16 : index
    %tile = memref.subview %flat[%r0, %col0] [4, 16] [1, 1] : memref<16x32xf16> to memref<4x16xf16, strided<[32, 1], offset: ?>>
    %b2 = memref.reinterpret_cast %bias to offset: [0], sizes: [16, 16], strides: [16, 1] : memref<256xbf16> to memref<16x16xbf16, strided<[16, 1]>>
    %c8x = arith.muli %tx, %c8 : index
    %v = vector.transfer_read %tile[%ty, %c8x], %pad {in_bounds = [true]} : memref<4x16xf16, strided<[32, 1], offset: ?>>, vector<8xf16>
    %row = arith.addi %r0, %ty : index
    %bv = vector.transfer_read %b2[%row, %c8x], %bpad {in_bounds = [true]} : memref<16x16xbf16, strided<[16, 1]>>, vector<8xbf16>
    %vf = arith.extf %v : vector<8xf16> to vector<8xf32>
    %bf = arith.extf %bv : vector<8xbf16> to vector<8xf32>
    %two = arith.constant dense<2.0> : vector<8xf32>
    %fm = vector.fma %vf, %two, %bf : vector<8xf32>
    %z = arith.constant 0.0 : f32
    %red = vector.reduction <add>, %fm, %z : vector<8xf32> into f32
    %col = arith.addi %col0, %c8x : index
    %sc = arith.divui %col, %c8 : index
    memref.store %red, %s[%row, %sc] : memref<16x4xf32>
    %h = arith.truncf %fm : vector<8xf32> to vector<8xf16>
    %oview = memref.subview %o[%r0, %col0] [4, 16] [1, 1] : memref<16x32xf16> to memref<4x16xf16, strided<[32, 1], offset: ?>>
    vector.transfer_write %h, %oview[%ty, %c8x] {in_bounds = [true]} : vector<8xf16>, memref<4x16xf16, strided<[32, 1], offset: ?>>
    gpu.return
  }
}
"""


ERRORS = """
// Error paths: a fault in one thread, races, a divergent barrier, an early return.
module attributes {gpu.container_module} {
  gpu.module @m {
    // off-by-one in a 2-D grid: thread (x=3,y=1) of block (2,1) reads one past the end
    gpu.func @oob(%a: memref<?xf32>, %bad: index) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %g = gpu.global_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %e0 = arith.cmpi eq, %tx, %c3 : index
      %e1 = arith.cmpi eq, %ty, %c1 : index
      %e2 = arith.cmpi eq, %bx, %c2 : index
      %e3 = arith.cmpi eq, %by, %c1 : index
      %a0 = arith.andi %e0, %e1 : i1
      %a1 = arith.andi %e2, %e3 : i1
      %all = arith.andi %a0, %a1 : i1
      %i = arith.select %all, %bad, %g : index
      %v = memref.load %a[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%g] : memref<?xf32>
      gpu.return
    }
    // missing barrier between the write and the neighbour read
    gpu.func @racy(%o: memref<?xi32>) workgroup(%sh: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      %t1 = arith.addi %t, %c1 : index
      %nb = arith.remui %t1, %n : index
      %v = memref.load %sh[%nb] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %v, %o[%t] : memref<?xi32>
      gpu.return
    }
    gpu.func @fixed(%o: memref<?xi32>) workgroup(%sh: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %c1 = arith.constant 1 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t1 = arith.addi %t, %c1 : index
      %nb = arith.remui %t1, %n : index
      %v = memref.load %sh[%nb] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %v, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %v, %o[%t] : memref<?xi32>
      gpu.return
    }
    // barrier only in the threads with an even id
    gpu.func @divbar(%o: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      scf.if %even {
        gpu.barrier
      }
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %o[%t] : memref<?xi32>
      gpu.return
    }
    // early return for threads past n (cf style), then a block-uniform loop
    gpu.func @early(%o: memref<?xi32>, %n: index) kernel {
      %g = gpu.global_id x
      %past = arith.cmpi uge, %g, %n : index
      cf.cond_br %past, ^done, ^work
    ^work:
      %gi = arith.index_cast %g : index to i32
      %sq = arith.muli %gi, %gi : i32
      memref.store %sq, %o[%g] : memref<?xi32>
      gpu.return
    ^done:
      gpu.return
    }
  }
  func.func @main(%a: memref<?xf32>, %bad: index) {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c2 = arith.constant 2 : index
    gpu.launch_func @m::@oob blocks in (%c3, %c2, %c1) threads in (%c4, %c2, %c1) args(%a : memref<?xf32>, %bad : index)
    return
  }
}
"""


WARP_SCAN = """
// Block inclusive scan: warp scans with gpu.shuffle up, warp totals through dynamic shared
// memory, a second warp-level pass over the totals; launched inline with gpu.launch from a host
// function whose block size is a parameter (it need not be a multiple of 32).
module attributes {gpu.container_module} {
  func.func @main(%x: memref<?xi32>, %y: memref<?xi32>, %bs: index) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xi32>
    %nb = arith.ceildivui %n, %bs : index
    %nw = arith.ceildivui %bs, %c32 : index
    %smem = arith.muli %nw, %c4 : index
    %smem32 = arith.index_cast %smem : index to i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %bs, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %smem32 {
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %z = arith.constant 0 : index
      %ws = memref.view %dyn[%z][%nw] : memref<?xi8, #gpu.address_space<workgroup>> to memref<?xi32, #gpu.address_space<workgroup>>
      %g0 = arith.muli %bx, %sx : index
      %g = arith.addi %g0, %tx : index
      %in = arith.cmpi ult, %g, %n : index
      %zero = arith.constant 0 : i32
      %v = scf.if %in -> (i32) {
        %l = memref.load %x[%g] : memref<?xi32>
        scf.yield %l : i32
      } else {
        scf.yield %zero : i32
      }
      %lane = gpu.lane_id
      %w = gpu.subgroup_id : index
      %w32 = arith.constant 32 : i32
      %one = arith.constant 1 : index
      %five = arith.constant 5 : index
      %scan:2 = scf.for %k = %z to %five step %one iter_args(%acc = %v, %off = %one) -> (i32, index) {
        %offi = arith.index_cast %off : index to i32
        %up, %valid = gpu.shuffle up %acc, %offi, %w32 : i32
        %add = arith.addi %acc, %up : i32
        %nv = arith.select %valid, %add, %acc : i32
        %off2 = arith.shli %off, %one : index
        scf.yield %nv, %off2 : i32, index
      }
      %c31 = arith.constant 31 : index
      %last0 = arith.cmpi eq, %lane, %c31 : index
      %tp1 = arith.addi %tx, %one : index
      %lastt = arith.cmpi eq, %tp1, %sx : index
      %last = arith.ori %last0, %lastt : i1
      scf.if %last {
        memref.store %scan#0, %ws[%w] : memref<?xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %w0 = arith.cmpi eq, %w, %z : index
      scf.if %w0 {
        %lt = arith.cmpi ult, %lane, %nw : index
        %tv = scf.if %lt -> (i32) {
          %q = memref.load %ws[%lane] : memref<?xi32, #gpu.address_space<workgroup>>
          scf.yield %q : i32
        } else {
          scf.yield %zero : i32
        }
        %ts:2 = scf.for %k = %z to %five step %one iter_args(%acc = %tv, %off = %one) -> (i32, index) {
          %offi = arith.index_cast %off : index to i32
          %up, %valid = gpu.shuffle up %acc, %offi, %w32 : i32
          %add = arith.addi %acc, %up : i32
          %nv = arith.select %valid, %add, %acc : i32
          %off2 = arith.shli %off, %one : index
          scf.yield %nv, %off2 : i32, index
        }
        scf.if %lt {
          memref.store %ts#0, %ws[%lane] : memref<?xi32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      %hasprev = arith.cmpi ugt, %w, %z : index
      %res = scf.if %hasprev -> (i32) {
        %wm = arith.subi %w, %one : index
        %p = memref.load %ws[%wm] : memref<?xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %scan#0, %p : i32
        scf.yield %s : i32
      } else {
        scf.yield %scan#0 : i32
      }
      scf.if %in {
        memref.store %res, %y[%g] : memref<?xi32>
      }
      gpu.terminator
    }
    return
  }
}
"""


GRID_STRIDE = """
// Grid-stride loop over a 3-D grid (linearised block id), i64 counters in scf.while,
// per-element f32 atomic add into bins and a generic_atomic_rmw running "x = x/2 + v" update.
gpu.module @m {
  gpu.func @k(%x: memref<?xf32>, %bins: memref<16xf32>, %ema: memref<4xf32>, %cnt: memref<16xi64>) kernel {
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %bz = gpu.block_id z
    %gx = gpu.grid_dim x
    %gy = gpu.grid_dim y
    %gz = gpu.grid_dim z
    %dx = gpu.block_dim x
    %b1 = arith.muli %bz, %gy : index
    %b2 = arith.addi %b1, %by : index
    %b3 = arith.muli %b2, %gx : index
    %blk = arith.addi %b3, %bx : index
    %t0 = arith.muli %blk, %dx : index
    %gid = arith.addi %t0, %tx : index
    %nb0 = arith.muli %gx, %gy : index
    %nb = arith.muli %nb0, %gz : index
    %stride = arith.muli %nb, %dx : index
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    %n64 = arith.index_cast %n : index to i64
    %s64 = arith.index_cast %stride : index to i64
    %g64 = arith.index_cast %gid : index to i64
    %one = arith.constant 1 : i64
    %fin = scf.while (%i = %g64) : (i64) -> i64 {
      %go = arith.cmpi slt, %i, %n64 : i64
      scf.condition(%go) %i : i64
    } do {
    ^bb0(%i: i64):
      %ii = arith.index_cast %i : i64 to index
      %v = memref.load %x[%ii] : memref<?xf32>
      %c15 = arith.constant 15 : i64
      %bin64 = arith.andi %i, %c15 : i64
      %bin = arith.index_cast %bin64 : i64 to index
      %o = memref.atomic_rmw addf %v, %bins[%bin] : (f32, memref<16xf32>) -> f32
      %oc = memref.atomic_rmw addi %one, %cnt[%bin] : (i64, memref<16xi64>) -> i64
      %c3 = arith.constant 3 : i64
      %e64 = arith.andi %i, %c3 : i64
      %e = arith.index_cast %e64 : i64 to index
      %r = memref.generic_atomic_rmw %ema[%e] : memref<4xf32> {
      ^bb0(%cur: f32):
        %h = arith.constant 0.5 : f32
        %m = arith.mulf %cur, %h : f32
        %nv = arith.addf %m, %v : f32
        memref.atomic_yield %nv : f32
      }
      %nx = arith.addi %i, %s64 : i64
      scf.yield %nx : i64
    }
    gpu.return
  }
}
"""


MATVEC = """
// y = A x with 8 lanes per row: each lane vector.loads 4 f16 at a time, widens, fma-accumulates
// in f32, then gpu.subgroup_reduce add cluster(size = 8); known_block_size on the kernel;
// scf.index_switch picks an epilogue (0: plain, 1: relu, default: scale by 2).
gpu.module @m {
  gpu.func @k(%a: memref<?x?xf16>, %x: memref<?xf16>, %y: memref<?xf32>, %mode: index) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %rows = memref.dim %a, %c0 : memref<?x?xf16>
    %cols = memref.dim %a, %c1 : memref<?x?xf16>
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %bd = gpu.block_dim x
    %rpb = arith.divui %bd, %c8 : index
    %r0 = arith.muli %b, %rpb : index
    %rl = arith.divui %t, %c8 : index
    %row = arith.addi %r0, %rl : index
    %l8 = arith.remui %t, %c8 : index
    %start = arith.muli %l8, %c4 : index
    %rowok = arith.cmpi ult, %row, %rows : index
    %zero = arith.constant 0.0 : f32
    %zv = arith.constant dense<0.0> : vector<4xf32>
    %acc = scf.if %rowok -> (f32) {
      %vacc = scf.for %j = %start to %cols step %c32 iter_args(%va = %zv) -> (vector<4xf32>) {
        %av = vector.load %a[%row, %j] : memref<?x?xf16>, vector<4xf16>
        %xv = vector.load %x[%j] : memref<?xf16>, vector<4xf16>
        %af = arith.extf %av : vector<4xf16> to vector<4xf32>
        %xf = arith.extf %xv : vector<4xf16> to vector<4xf32>
        %nv = vector.fma %af, %xf, %va : vector<4xf32>
        scf.yield %nv : vector<4xf32>
      }
      %s = vector.reduction <add>, %vacc : vector<4xf32> into f32
      scf.yield %s : f32
    } else {
      scf.yield %zero : f32
    }
    %tot = gpu.subgroup_reduce add %acc cluster(size = 8) : (f32) -> f32
    %lead = arith.cmpi eq, %l8, %c0 : index
    %st = arith.andi %lead, %rowok : i1
    scf.if %st {
      %r = scf.index_switch %mode -> f32
      case 0 {
        scf.yield %tot : f32
      }
      case 1 {
        %m = arith.maximumf %tot, %zero : f32
        scf.yield %m : f32
      }
      default {
        %two = arith.constant 2.0 : f32
        %m = arith.mulf %tot, %two : f32
        scf.yield %m : f32
      }
      memref.store %r, %y[%row] : memref<?xf32>
    }
    gpu.return
  }
}
"""


HILLIS = """
// Hillis-Steele inclusive f64 scan, ping-pong between the two rows of a 2xN workgroup buffer
// selected with memref.subview on a loop-carried parity; memref.copy of the result row from a
// subview into the block's slice of the output; a cf loop for the offsets.
gpu.module @m {
  gpu.func @k(%x: memref<?xf64>, %y: memref<?xf64>)
      workgroup(%buf: memref<2x128xf64, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %base = arith.muli %b, %n : index
    %g = arith.addi %base, %t : index
    %v = memref.load %x[%g] : memref<?xf64>
    memref.store %v, %buf[%c0, %t] : memref<2x128xf64, #gpu.address_space<workgroup>>
    gpu.barrier
    cf.br ^loop(%c1, %c0 : index, index)
  ^loop(%off: index, %src: index):
    %go = arith.cmpi ult, %off, %n : index
    cf.cond_br %go, ^body, ^done
  ^body:
    %dst = arith.xori %src, %c1 : index
    %sv = memref.subview %buf[%src, 0] [1, 128] [1, 1] : memref<2x128xf64, #gpu.address_space<workgroup>> to memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %dv = memref.subview %buf[%dst, 0] [1, 128] [1, 1] : memref<2x128xf64, #gpu.address_space<workgroup>> to memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %a = memref.load %sv[%t] : memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %has = arith.cmpi uge, %t, %off : index
    %r = scf.if %has -> (f64) {
      %i = arith.subi %t, %off : index
      %p = memref.load %sv[%i] : memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      %s = arith.addf %p, %a : f64
      scf.yield %s : f64
    } else {
      scf.yield %a : f64
    }
    memref.store %r, %dv[%t] : memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    gpu.barrier
    %off2 = arith.shli %off, %c1 : index
    cf.br ^loop(%off2, %dst : index, index)
  ^done:
    %first = arith.cmpi eq, %t, %c0 : index
    cf.cond_br %first, ^copy, ^exit
  ^copy:
    %res = memref.subview %buf[%src, 0] [1, 128] [1, 1] : memref<2x128xf64, #gpu.address_space<workgroup>> to memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %part = memref.subview %res[0] [%n] [1] : memref<128xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>> to memref<?xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    %out = memref.subview %y[%base] [%n] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    memref.copy %part, %out : memref<?xf64, strided<[1], offset: ?>, #gpu.address_space<workgroup>> to memref<?xf64, strided<[1], offset: ?>>
    cf.br ^exit
  ^exit:
    gpu.return
  }
}
"""


RACES = """
// racecheck: one correct kernel and three races.
gpu.module @m {
  // correct: atomics on a shared counter, barrier, then everybody reads it; loop with two barriers
  gpu.func @ok(%o: memref<?xi32>, %iters: index) workgroup(%sh: memref<64xi32, #gpu.address_space<workgroup>>, %cnt: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    %n = gpu.block_dim x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %one = arith.constant 1 : i32
    %ti = arith.index_cast %t : index to i32
    %old = memref.atomic_rmw addi %one, %cnt[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
    memref.store %ti, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %tot = memref.load %cnt[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    %r = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %tot) -> (i32) {
      %t1 = arith.addi %t, %c1 : index
      %nb = arith.remui %t1, %n : index
      %v = memref.load %sh[%nb] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %s = arith.addi %v, %acc : i32
      memref.store %s, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.yield %s : i32
    }
    memref.store %r, %o[%t] : memref<?xi32>
    gpu.return
  }
  // missing the barrier between the load and the next store: a race only from iteration 2 on
  gpu.func @bad(%o: memref<?xi32>, %iters: index) workgroup(%sh: memref<64xi32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    %n = gpu.block_dim x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %ti = arith.index_cast %t : index to i32
    memref.store %ti, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %ti) -> (i32) {
      %t1 = arith.addi %t, %c1 : index
      %nb = arith.remui %t1, %n : index
      %v = memref.load %sh[%nb] : memref<64xi32, #gpu.address_space<workgroup>>
      %s = arith.addi %v, %acc : i32
      gpu.barrier
      memref.store %s, %sh[%t] : memref<64xi32, #gpu.address_space<workgroup>>
      scf.yield %s : i32
    }
    memref.store %r, %o[%t] : memref<?xi32>
    gpu.return
  }
  // a plain read of a counter other threads update atomically, without a barrier: a race
  gpu.func @bad2(%o: memref<?xi32>) workgroup(%cnt: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %old = memref.atomic_rmw addi %one, %cnt[%c0] : (i32, memref<1xi32, #gpu.address_space<workgroup>>) -> i32
    %v = memref.load %cnt[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    memref.store %v, %o[%t] : memref<?xi32>
    gpu.return
  }
  // global memory race inside one block: threads t and t+32 write the same output element
  gpu.func @bad3(%o: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %i = arith.remui %t, %c32 : index
    %ti = arith.index_cast %t : index to i32
    memref.store %ti, %o[%i] : memref<?xi32>
    gpu.return
  }
}
"""


PRIVATE_SCRATCH = """
// Per-thread private scratch (memref.alloca) filled over a thread-dependent length in an
// scf.for, then a dynamic vector.extract / vector.insert with lane-varying positions, index
// dialect ops, math.ctpop / ctlz on i64, an scf.parallel with scf.reduce inside the kernel.
gpu.module @m {
  gpu.func @k(%o: memref<?x4xi64>, %vo: memref<?x8xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %c8 = arith.constant 8 : index
    %t = gpu.global_id x
    %len0 = index.remu %t, %c5
    %len = index.add %len0, %c1
    %buf = memref.alloca() : memref<5xi64>
    scf.for %i = %c0 to %len step %c1 {
      %ii = index.casts %i : index to i64
      %tt = index.castu %t : index to i64
      %sh = arith.constant 7 : i64
      %h = arith.shli %tt, %sh : i64
      %v = arith.xori %h, %ii : i64
      %mul = arith.constant -7046029254386353131 : i64
      %m = arith.muli %v, %mul : i64
      memref.store %m, %buf[%i] : memref<5xi64>
    }
    %z = arith.constant 0 : i64
    %sum = scf.parallel (%i) = (%c0) to (%len) step (%c1) init (%z) -> i64 {
      %v = memref.load %buf[%i] : memref<5xi64>
      %p = math.ctpop %v : i64
      scf.reduce(%p : i64) {
      ^bb0(%a: i64, %b: i64):
        %s = arith.addi %a, %b : i64
        scf.reduce.return %s : i64
      }
    }
    %lm1 = index.sub %len, %c1
    %last = memref.load %buf[%lm1] : memref<5xi64>
    %lz = math.ctlz %last : i64
    %tz = math.cttz %last : i64
    %ln = index.castu %len : index to i64
    memref.store %sum, %o[%t, %c0] : memref<?x4xi64>
    memref.store %lz, %o[%t, %c1] : memref<?x4xi64>
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    memref.store %tz, %o[%t, %c2] : memref<?x4xi64>
    memref.store %ln, %o[%t, %c3] : memref<?x4xi64>
    %vec = vector.step : vector<8xindex>
    %vi = arith.index_cast %vec : vector<8xindex> to vector<8xi32>
    %vf = arith.sitofp %vi : vector<8xi32> to vector<8xf32>
    %p = index.remu %t, %c8
    %e = vector.extract %vf[%p] : f32 from vector<8xf32>
    %ten = arith.constant 10.0 : f32
    %e2 = arith.mulf %e, %ten : f32
    %q0 = index.add %p, %c3
    %q = index.remu %q0, %c8
    %ins = vector.insert %e2, %vf [%q] : f32 into vector<8xf32>
    vector.store %ins, %vo[%t, %c0] : memref<?x8xf32>, vector<8xf32>
    gpu.return
  }
}
"""


LAUNCH_GLOBALS = """
// Host: a constant lookup table as a memref.global in the gpu.module, read in the kernel; an
// inline async gpu.launch with workgroup and private attributions and a captured scalar; a bf16
// gpu.all_reduce uniform; gpu.wait before returning.
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" constant @lut : memref<8xi32> = dense<[3, 1, 4, 1, 5, 9, 2, 6]>
    gpu.func @k(%o: memref<?xi32>) kernel {
      %g = gpu.global_id x
      %c8 = arith.constant 8 : index
      %i = arith.remui %g, %c8 : index
      %lut = memref.get_global @lut : memref<8xi32>
      %v = memref.load %lut[%i] : memref<8xi32>
      %gi = arith.index_cast %g : index to i32
      %s = arith.muli %v, %gi : i32
      memref.store %s, %o[%g] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xbf16>, %sums: memref<?xbf16>, %o: memref<?xi32>, %scale: bf16) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %n = memref.dim %o, %c0 : memref<?xi32>
    %nb = arith.ceildivui %n, %c16 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @m::@k blocks in (%nb, %c1, %c1) threads in (%c16, %c1, %c1) args(%o : memref<?xi32>)
    %m = memref.dim %sums, %c0 : memref<?xbf16>
    %t2 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%gx = %m, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
               workgroup(%sh : memref<16xbf16, #gpu.address_space<workgroup>>)
               private(%p : memref<2xbf16, #gpu.address_space<private>>) {
      %b0 = arith.muli %bx, %sx : index
      %g = arith.addi %b0, %tx : index
      %v = memref.load %x[%g] : memref<?xbf16>
      %sv = arith.mulf %v, %scale : bf16
      memref.store %sv, %p[%c0] : memref<2xbf16, #gpu.address_space<private>>
      %rev = arith.subi %sx, %tx : index
      %r1 = arith.subi %rev, %c1 : index
      memref.store %sv, %sh[%r1] : memref<16xbf16, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %sh[%tx] : memref<16xbf16, #gpu.address_space<workgroup>>
      %pv = memref.load %p[%c0] : memref<2xbf16, #gpu.address_space<private>>
      %d = arith.subf %w, %pv : bf16
      %r = gpu.all_reduce add %d uniform {} : (bf16) -> bf16
      %z = arith.cmpi eq, %tx, %c0 : index
      scf.if %z {
        memref.store %r, %sums[%bx] : memref<?xbf16>
      }
      gpu.terminator
    }
    gpu.wait [%t1, %t2]
    return
  }
}
"""


SHADOWED_GLOBALS = """
// One name, three globals: each gpu.module is a symbol table of its own.
module attributes {gpu.container_module} {
  memref.global "private" constant @lut : memref<4xi32> = dense<[100, 200, 300, 400]>
  gpu.module @a {
    memref.global "private" constant @lut : memref<4xi32> = dense<[1, 2, 3, 4]>
    gpu.func @k(%o: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @lut : memref<4xi32>
      %v = memref.load %g[%t] : memref<4xi32>
      memref.store %v, %o[%t] : memref<4xi32>
      gpu.return
    }
  }
  gpu.module @b {
    memref.global "private" constant @lut : memref<4xi32> = dense<[-1, -2, -3, -4]>
    gpu.func @k(%o: memref<4xi32>) kernel {
      %t = gpu.thread_id x
      %g = memref.get_global @lut : memref<4xi32>
      %v = memref.load %g[%t] : memref<4xi32>
      memref.store %v, %o[%t] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main(%oa: memref<4xi32>, %ob: memref<4xi32>, %oh: memref<4xi32>) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @a::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%oa : memref<4xi32>)
    gpu.launch_func @b::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%ob : memref<4xi32>)
    %g = memref.get_global @lut : memref<4xi32>
    memref.copy %g, %oh : memref<4xi32> to memref<4xi32>
    return
  }
}
"""



def test_blelloch_exclusive_scan_with_block_sums():
    rng = np.random.default_rng(1)
    for n, bd in [(1000, 128), (256, 128), (77, 64), (5, 4)]:
        x = rng.integers(-2 ** 31, 2 ** 31, n, dtype=np.int64).astype(np.int32)
        m = 2 * bd
        nb = -(-n // m)
        out, sums = np.zeros(n, np.int32), np.zeros(nb, np.int32)
        _launch(BLELLOCH, (nb,), (bd,), [x, out, sums, n], racecheck=True)
        xp = np.zeros(nb * m, np.int64)
        xp[:n] = x
        inclusive = np.cumsum(xp.reshape(nb, m), axis=1)
        exclusive = (inclusive - xp.reshape(nb, m)).reshape(-1)[:n]
        np.testing.assert_array_equal(out, [_wrap32(int(v)) for v in exclusive])
        np.testing.assert_array_equal(sums, [_wrap32(int(v)) for v in inclusive[:, -1]])


@pytest.mark.parametrize("nb,bd", [(3, 64), (2, 256), (1, 2), (4, 2)])
def test_bitonic_sort_key_value_in_dynamic_shared_memory(nb, bd):
    rng = np.random.default_rng(2)
    keys0 = rng.permutation(nb * bd).astype(np.float32) * np.float32(0.5) - 7
    vals0 = np.arange(nb * bd, dtype=np.int64) * 1000003 - 2 ** 40
    keys, vals = keys0.copy(), vals0.copy()
    _launch(BITONIC, (nb,), (bd,), [keys, vals], dynamic_shared_memory=bd * 12, racecheck=True)
    for b in range(nb):
        s = slice(b * bd, (b + 1) * bd)
        order = np.argsort(keys0[s], kind="stable")
        np.testing.assert_array_equal(keys[s], keys0[s][order])
        np.testing.assert_array_equal(vals[s], vals0[s][order])


def test_bitonic_misaligned_dynamic_shared_view_is_reported():
    """One thread: the i64 view starts 4 bytes into dynamic shared memory (misaligned)."""
    with pytest.raises(LaunchError, match="memref.view.*multiple of the element size 8"):
        _launch(BITONIC, (1,), (1,), [np.zeros(1, np.float32), np.zeros(1, np.int64)],
                dynamic_shared_memory=12)


@pytest.mark.parametrize("rows,cols", [(70, 45), (32, 32), (1, 100), (65, 1)])
def test_transpose_through_padded_shared_tile_from_host(rows, cols):
    a = np.random.default_rng(3).standard_normal((rows, cols))
    b = np.full((cols, rows), np.nan)
    tileir.gpu.run(_module(TRANSPOSE), "main", args=[a, b], racecheck=True)
    np.testing.assert_array_equal(b, a.T)


def test_transpose_rejects_a_strided_array_for_an_identity_layout():
    a = np.zeros((40, 50))
    with pytest.raises(ArgumentError, match="stride 2 of dimension 1"):
        tileir.gpu.run(_module(TRANSPOSE), "main", args=[a[:, ::2], np.zeros((25, 40))])


@pytest.mark.parametrize("h,w,blk", [(37, 53, (16, 8)), (3, 3, (4, 4)), (1, 9, (8, 2)),
                                     (64, 64, (32, 4))])
def test_five_point_stencil_cf_boundaries_i32_sizes(h, w, blk):
    u = np.random.default_rng(4).standard_normal((h, w)).astype(np.float32)
    v = np.full((h, w), np.nan, np.float32)
    grid = (-(-w // blk[0]), -(-h // blk[1]))
    _launch(STENCIL, grid, blk, [u, v, np.int32(h), np.int32(w)], racecheck=True)
    ref = u.copy()
    if h > 2 and w > 2:
        ref[1:-1, 1:-1] = ((u[1:-1, :-2] + u[1:-1, 2:]) + (u[:-2, 1:-1] + u[2:, 1:-1])) \
            * np.float32(0.25)
    np.testing.assert_array_equal(v, ref)


def _softmax_ref(x: np.ndarray) -> np.ndarray:
    """Each lane's strided partial max and sum, then the xor butterfly, as the kernel does."""
    y = np.zeros_like(x)
    for r in range(x.shape[0]):
        mx = x[r].max()
        e = np.exp((x[r] - mx).astype(np.float64)).astype(np.float32)
        s = np.zeros(SG, np.float32)
        for lane in range(SG):
            for v in e[lane::SG]:
                s[lane] = np.float32(s[lane] + v)
        for off in (16, 8, 4, 2, 1):
            s = (s + s[np.arange(SG) ^ off]).astype(np.float32)
        y[r] = e / s[0]
    return y


@pytest.mark.parametrize("rows,cols", [(9, 100), (4, 32), (5, 7), (3, 1)])
def test_warp_shuffle_row_softmax(rows, cols):
    x = (np.random.default_rng(5).standard_normal((rows, cols)) * 4).astype(np.float32)
    y = np.zeros_like(x)
    _launch(SOFTMAX, (-(-rows // 4),), (SG, 4), [x, y])
    ref = _softmax_ref(x)
    dist = np.abs(_ordered(y.reshape(-1)) - _ordered(ref.reshape(-1)))
    assert dist.max() <= 1          # math.exp within 1 ulp; everything else exact


def _fma64(a: float, b: float, c: float) -> float:
    from fractions import Fraction
    return float(Fraction(a) * Fraction(b) + Fraction(c))


@pytest.mark.parametrize("nrows,ncols", [(150, 90), (1, 5), (7, 300)])
def test_csr_spmv_scalar_and_warp_per_row_kernels(nrows, ncols):
    rng = np.random.default_rng(6)
    lens = rng.integers(0, 80, nrows)
    lens[0] = 0
    rp = np.concatenate([[0], np.cumsum(lens)]).astype(np.int32)
    nnz = max(int(rp[-1]), 1)
    ci = rng.integers(0, ncols, nnz).astype(np.int32)
    val, x = rng.standard_normal(nnz), rng.standard_normal(ncols)
    y1, y2 = np.full(nrows, np.nan), np.full(nrows, np.nan)
    tileir.gpu.run(_module(SPMV), "main", args=[rp, ci, val, x, y1, y2, np.int32(nrows)])
    for i in range(nrows):
        acc = 0.0
        for k in range(rp[i], rp[i + 1]):
            acc = acc + val[k] * x[ci[k]]
        assert y1[i] == acc, i
        parts = []
        for lane in range(SG):
            acc = 0.0
            for k in range(rp[i] + lane, rp[i + 1], SG):
                acc = _fma64(float(val[k]), float(x[ci[k]]), acc)
            parts.append(acc)
        assert y2[i] == functools.reduce(lambda a, b: a + b, parts), i


def _argmax_key(v: np.float32, i: int) -> int:
    bits = int(np.float32(v).view(np.int32))
    ordered = bits ^ 0x7FFFFFFF if bits < 0 else bits
    return (ordered << 32) | (0xFFFFFFFF - i)


@pytest.mark.parametrize("n,blk", [(1000, (4, 3, 5)), (60, (4, 3, 5)), (7, (2, 2, 2)),
                                   (3000, (32, 2, 2))])
def test_argmax_custom_all_reduce_cf_region_and_global_atomic_max(n, blk):
    rng = np.random.default_rng(7)
    x = rng.standard_normal(n).astype(np.float32)
    x[rng.integers(0, n, 3)] = np.float32(-0.0)
    x[n // 2] = x.max()                      # a tie: the lower index wins
    nt = int(np.prod(blk))
    nb = -(-n // nt)
    best, per_block = np.array([-2 ** 63], np.int64), np.zeros(nb, np.int64)
    _launch(ARGMAX, (nb,), blk, [x, best, per_block])
    keys = [_argmax_key(x[i], i) for i in range(n)]
    assert list(per_block) == [max(keys[b * nt:(b + 1) * nt]) for b in range(nb)]
    assert best[0] == max(keys)
    assert 0xFFFFFFFF - (int(best[0]) & 0xFFFFFFFF) == int(np.argmax(x))


@pytest.mark.parametrize("n", [70, 1])
def test_host_gpu_alloc_memset_two_async_launches_returns_memrefs(n):
    h = np.random.default_rng(8).integers(-2 ** 62, 2 ** 62, (n, 8), dtype=np.int64)
    h0 = h.copy()
    out, tot = tileir.gpu.run(_module(HOST_ALLOC), "main", args=[h, np.int64(-3)])
    np.testing.assert_array_equal(h, h0)
    with np.errstate(over="ignore"):
        ref = np.cumsum(h0 * np.int64(-3), axis=1)
        total = ref[:, -1].sum()
    assert out.dtype == np.int64 and out.shape == (n, 8)
    np.testing.assert_array_equal(out, ref)
    assert tot.shape == (1,) and tot[0] == total


def test_collapse_subview_reinterpret_cast_transfers_f16_bf16():
    rng = np.random.default_rng(9)
    a = (rng.standard_normal((2, 8, 32)) * 100).astype(np.float16)
    bias = (rng.standard_normal(256) * 50).astype(ml_dtypes.bfloat16)
    o, s = np.zeros((16, 32), np.float16), np.zeros((16, 4), np.float32)
    _launch(VIEWS, (2, 4), (2, 4), [a, bias, o, s])
    b = bias.astype(np.float32).reshape(16, 16)
    # 2*x is exact, so the fma rounds once: the f64 sum of two f32 values rounded to f32
    fm = (a.reshape(16, 32).astype(np.float64) * 2 + np.concatenate([b, b], axis=1)) \
        .astype(np.float32)
    np.testing.assert_array_equal(o, fm.astype(np.float16))
    ref = np.zeros((16, 4), np.float32)
    for r in range(16):
        for q in range(4):
            acc = np.float32(0)
            for v in fm[r, q * 8:(q + 1) * 8]:
                acc = np.float32(acc + v)
            ref[r, q] = acc
    np.testing.assert_array_equal(s, ref)


@pytest.mark.parametrize("bad", [12, -1])
def test_fault_in_one_thread_of_one_block_of_a_2d_launch_from_host(bad):
    a = np.ones(12, np.float32)
    with pytest.raises(LaunchError) as info:
        tileir.gpu.run(_module(ERRORS), "main", args=[a, bad])
    e = info.value
    assert e.op == "memref.load" and e.loc.endswith(":23:12"), (e.op, e.loc)
    assert str(e).endswith(f"index {bad} out of bounds for dimension 0 of size 12; "
                           "block (2, 1, 0), thread (3, 1, 0)"), str(e)


def test_racecheck_neighbour_read_without_barrier_and_fixed_kernel():
    o = np.zeros(64, np.int32)
    with pytest.raises(LaunchError, match=r"data race \(write/read\) on element 0 of workgroup"):
        _launch_named(ERRORS, "m::racy", (2,), (64,), [o], racecheck=True)
    _launch_named(ERRORS, "m::fixed", (1,), (64,), [o], racecheck=True)
    np.testing.assert_array_equal(o, (np.arange(64) + 1) % 64)


def test_barrier_in_divergent_if_is_reported_not_hung():
    with pytest.raises(LaunchError, match=r"barrier reached by 4 of the 8 threads of block"):
        _launch_named(ERRORS, "m::divbar", (1,), (8,), [np.zeros(8, np.int32)])


def test_early_gpu_return_in_a_cf_branch():
    o = np.full(40, -1, np.int32)
    _launch_named(ERRORS, "m::early", (3,), (16,), [o, 37])
    np.testing.assert_array_equal(o[:37], np.arange(37) ** 2)
    assert (o[37:] == -1).all()


@pytest.mark.parametrize("args,message", [
    ([np.zeros(64, np.float32)], "dtype float32 for memref<[?]xi32>"),
    ([np.zeros((8, 8), np.int32)], "rank 2"),
    ([5], "expected a NumPy array"),
    ([], "takes 1 arguments, got 0"),
])
def test_wrong_memref_arguments_are_argument_errors(args, message):
    with pytest.raises(ArgumentError, match=message):
        _launch_named(ERRORS, "m::fixed", (1,), (64,), args)


@pytest.mark.parametrize("value,message", [
    ("3", "expected a number for index, got str"), ([3], "got list"),
    (np.array([3]), "got ndarray"), (None, "got NoneType"), (1 + 2j, "got complex"),
    (1.5, "1.5 is not an integer"), (2 ** 64, "does not fit index"),
])
def test_wrong_scalar_arguments_are_argument_errors(value, message):
    """A string, sequence, complex or ``None`` for a scalar was taken (``"3"`` as 3, ``None``
    as NaN, ``1+2j`` as 1) or crashed (a list for an f32)."""
    with pytest.raises(ArgumentError, match=message):
        _launch_named(ERRORS, "m::early", (1,), (4,), [np.zeros(4, np.int32), value])


def test_scalar_arguments_numpy_and_ml_dtypes_scalars_accepted():
    o = np.full(40, -1, np.int32)
    for n in (np.int32(3), np.array(5), np.uint8(2)):
        _launch_named(ERRORS, "m::early", (1,), (8,), [o, n])
    np.testing.assert_array_equal(o[:5], np.arange(5) ** 2)


@pytest.mark.parametrize("n,bs", [(1000, 256), (300, 100), (50, 33), (10, 1), (64, 1024)])
def test_inline_launch_warp_shuffle_up_block_scan_dynamic_shared(n, bs):
    x = np.random.default_rng(11).integers(-2 ** 31, 2 ** 31, n, dtype=np.int64) \
        .astype(np.int32)
    y = np.zeros(n, np.int32)
    tileir.gpu.run(_module(WARP_SCAN), "main", args=[x, y, bs], racecheck=True)
    xp = np.zeros(-(-n // bs) * bs, np.int64)
    xp[:n] = x
    ref = np.cumsum(xp.reshape(-1, bs), axis=1).reshape(-1)[:n]
    np.testing.assert_array_equal(y, [_wrap32(int(v)) for v in ref])


@pytest.mark.parametrize("n,grid,bd", [(1000, (2, 3, 2), 16), (5, (1, 1, 1), 8),
                                       (777, (3, 1, 2), 32)])
def test_grid_stride_3d_grid_float_atomics_and_generic_atomic_in_thread_order(n, grid, bd):
    x = np.random.default_rng(12).standard_normal(n).astype(np.float32)
    bins, ema, cnt = np.zeros(16, np.float32), np.zeros(4, np.float32), np.zeros(16, np.int64)
    _launch(GRID_STRIDE, grid, (bd,), [x, bins, ema, cnt])
    np.testing.assert_array_equal(cnt, np.bincount(np.arange(n) % 16, minlength=16))
    # iteration-major, then thread order: element index order
    rb, re = np.zeros(16, np.float32), np.zeros(4, np.float32)
    for i in range(n):
        rb[i % 16] = np.float32(rb[i % 16] + x[i])
        re[i % 4] = np.float32(np.float32(re[i % 4] * np.float32(0.5)) + x[i])
    np.testing.assert_array_equal(bins, rb)
    np.testing.assert_array_equal(ema, re)


def _fma32(a, b, c) -> np.float32:
    return np.float32(_fma64(float(a), float(b), float(c)))


@pytest.mark.parametrize("rows,cols,mode", [(20, 64, 0), (8, 32, 1), (17, 96, 7)])
def test_matvec_f16_vector_loads_cluster_subgroup_reduce_index_switch(rows, cols, mode):
    rng = np.random.default_rng(14)
    a = rng.standard_normal((rows, cols)).astype(np.float16)
    x = rng.standard_normal(cols).astype(np.float16)
    y = np.full(rows, np.nan, np.float32)
    _launch(MATVEC, (-(-rows // 8),), (64,), [a, x, y, mode])
    for r in range(rows):
        parts = []
        for lane in range(8):
            acc = [np.float32(0)] * 4
            for j in range(lane * 4, cols, 32):
                acc = [_fma32(a[r, j + e], x[j + e], acc[e]) for e in range(4)]
            parts.append(functools.reduce(lambda p, q: np.float32(p + q), acc))
        t = functools.reduce(lambda p, q: np.float32(p + q), parts)
        want = t if mode == 0 else max(t, np.float32(0)) if mode == 1 else np.float32(t * 2)
        assert y[r] == want, (r, y[r], want)


def test_launch_with_another_block_size_than_known_block_size_is_reported():
    args = [np.zeros((8, 32), np.float16), np.zeros(32, np.float16), np.zeros(8, np.float32), 0]
    with pytest.raises(GridError,
                       match=r"known_block_size = \(64, 1, 1\) but is launched with block "
                             r"\(32, 1, 1\)"):
        _launch(MATVEC, (1,), (32,), args)


@pytest.mark.parametrize("nb,bd", [(3, 128), (2, 100), (4, 1), (1, 7)])
def test_hillis_steele_f64_ping_pong_subviews_cf_loop_memref_copy(nb, bd):
    rng = np.random.default_rng(15)
    x = rng.standard_normal(nb * bd) * 10.0 ** rng.integers(-5, 5, nb * bd)
    y = np.zeros_like(x)
    _launch(HILLIS, (nb,), (bd,), [x, y], racecheck=True)
    ref = x.reshape(nb, bd).copy()
    off = 1
    while off < bd:
        nxt = ref.copy()
        nxt[:, off:] = ref[:, :-off] + ref[:, off:]
        ref, off = nxt, off * 2
    np.testing.assert_array_equal(y, ref.reshape(-1))


@pytest.mark.parametrize("iters", [0, 1, 3])
def test_racecheck_accepts_atomics_then_barrier_and_two_barrier_loop(iters):
    o = np.zeros(64, np.int32)
    _launch_named(RACES, "m::ok", (2,), (64,), [o, iters], racecheck=True)
    sh, acc = np.arange(64), np.full(64, 64)
    for _ in range(iters):
        sh = acc = sh[(np.arange(64) + 1) % 64] + acc
    np.testing.assert_array_equal(o, acc)


@pytest.mark.parametrize("name,args,match", [
    ("bad", [2], r"'memref.store' data race \(write/read\) on element 0 of workgroup"),
    ("bad2", [], r"data race \(write/read\) .* 'memref.atomic_rmw' .* 'memref.load'"),
    ("bad3", [], r"data race \(write/write\) on element 0 of argument #0 .* thread \(0, 0, 0\)"
                 r" .* thread \(32, 0, 0\)"),
])
def test_racecheck_reports_loop_carried_atomic_and_global_races(name, args, match):
    with pytest.raises(LaunchError, match=match):
        _launch_named(RACES, f"m::{name}", (1,), (64,), [np.zeros(64, np.int32)] + args,
                      racecheck=True)
    # without the second iteration there is no race
    if name == "bad":
        _launch_named(RACES, "m::bad", (1,), (64,), [np.zeros(64, np.int32), 1],
                      racecheck=True)


def test_private_scratch_scf_parallel_reduce_index_ops_bit_counts_dynamic_vector_positions():
    o, vo = np.zeros((72, 4), np.int64), np.zeros((72, 8), np.float32)
    _launch(PRIVATE_SCRATCH, (3,), (24,), [o, vo])
    for t in range(72):
        n = t % 5 + 1
        vals = [_wrap64(((t << 7) ^ i) * -7046029254386353131) % 2 ** 64 for i in range(n)]
        last = vals[-1]
        assert list(o[t]) == [sum(bin(v).count("1") for v in vals), 64 - last.bit_length(),
                              (last & -last).bit_length() - 1 if last else 64, n], t
        want = np.arange(8, dtype=np.float32)
        want[(t % 8 + 3) % 8] = (t % 8) * 10
        np.testing.assert_array_equal(vo[t], want)


def test_private_alloca_with_a_thread_dependent_size():
    src = PRIVATE_SCRATCH.replace("memref.alloca() : memref<5xi64>",
                                  "memref.alloca(%len) : memref<?xi64>") \
        .replace("memref<5xi64>", "memref<?xi64>")
    o, vo = np.zeros((72, 4), np.int64), np.zeros((72, 8), np.float32)
    _launch(src, (3,), (24,), [o, vo])
    np.testing.assert_array_equal(o[:, 3], np.arange(72) % 5 + 1)


def test_global_lut_in_gpu_module_async_inline_launch_attributions_bf16_all_reduce():
    bf = ml_dtypes.bfloat16
    x = np.random.default_rng(18).standard_normal(5 * 16).astype(bf)
    sums, o = np.zeros(5, bf), np.zeros(48, np.int32)
    tileir.gpu.run(_module(LAUNCH_GLOBALS), "main", args=[x, sums, o, bf(1.5)])
    lut = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    np.testing.assert_array_equal(o, lut[np.arange(48) % 8] * np.arange(48))
    for b in range(5):
        sv = (x[b * 16:(b + 1) * 16].astype(np.float32) * np.float32(1.5)).astype(bf)
        d = (sv[::-1].astype(np.float32) - sv.astype(np.float32)).astype(bf)
        acc = functools.reduce(lambda p, q: (np.float32(p) + np.float32(q)).astype(bf), d)
        assert sums[b] == acc, b


GLOBAL_OUTSIDE = """
module attributes {gpu.container_module} {
  memref.global "private" constant @lut : memref<8xi32> = dense<[3, 1, 4, 1, 5, 9, 2, 6]>
  gpu.module @m {
    gpu.func @k(%o: memref<?xi32>) kernel {
      %lut = memref.get_global @lut : memref<8xi32>
      gpu.return
    }
  }
}
"""


def test_get_global_in_a_kernel_does_not_see_the_enclosing_modules_globals():
    """gpu.module is a symbol table: MLIR looks a global up in the nearest one only (tileir
    searched the top module: it refused a gpu.module's own global, took the outer one)."""
    if _MLIR_OPT is not None:
        r = subprocess.run([_MLIR_OPT, "-"], input=GLOBAL_OUTSIDE, capture_output=True,
                           text=True)
        assert r.returncode != 0 and "does not reference a valid global memref" in r.stderr
    with pytest.raises(DiagnosticError,
                       match="'lut' does not reference a valid global memref"):
        tileir.verify(tileir.parse(GLOBAL_OUTSIDE))


def test_same_global_name_in_two_gpu_modules_and_the_host_module():
    oa, ob, oh = (np.zeros(4, np.int32) for _ in range(3))
    tileir.gpu.run(_module(SHADOWED_GLOBALS), "main", args=[oa, ob, oh])
    np.testing.assert_array_equal(oh, [100, 200, 300, 400])
    np.testing.assert_array_equal(oa, [1, 2, 3, 4])
    np.testing.assert_array_equal(ob, [-1, -2, -3, -4])


_MATH_CASES = [("sin", -1e6, 1e6), ("cos", -1e6, 1e6), ("tan", -100, 100), ("atan", -50, 50),
               ("asin", -1, 1), ("acos", -1, 1), ("cbrt", -1e5, 1e5), ("log1p", -0.99, 100),
               ("log2", 1e-5, 1e5), ("log10", 1e-5, 1e5), ("exp2", -100, 100),
               ("cosh", -80, 80), ("acosh", 1, 1e4), ("atanh", -0.999, 0.999),
               ("rsqrt", 1e-10, 1e10), ("sqrt", 0, 1e10)]


@pytest.mark.parametrize("ty", ["f64", "f32", "f16"])
@pytest.mark.parametrize("fn,lo,hi", _MATH_CASES)
def test_more_math_within_one_ulp_of_mpmath(ty, fn, lo, hi):
    mpmath = pytest.importorskip("mpmath")
    dt = {"f64": np.float64, "f32": np.float32, "f16": np.float16}[ty]
    if ty == "f16":
        lo, hi = max(lo, -6e4), min(hi, 6e4)
    x = np.random.default_rng(13).uniform(lo, hi, 64).astype(dt)
    out = np.zeros_like(x)
    _launch(_unary_math_src(ty, fn), (1,), (x.size,), [x, out])
    exact = {"log2": lambda v: mpmath.log(v, 2), "exp2": lambda v: mpmath.power(2, v),
             "rsqrt": lambda v: 1 / mpmath.sqrt(v),
             "cbrt": lambda v: mpmath.sign(v) * mpmath.cbrt(abs(v))}.get(fn)
    f = exact or getattr(mpmath, fn)
    with mpmath.workprec(400), np.errstate(over="ignore"):
        ref = np.array([float(f(mpmath.mpf(float(v)))) for v in x]).astype(dt)
    finite = np.isfinite(ref)
    np.testing.assert_array_equal(out[~finite], ref[~finite])
    dist = np.abs(_ordered(out[finite]) - _ordered(ref[finite]))
    assert dist.max(initial=0) <= 1, (fn, ty, x[finite][dist.argmax()])


PER_THREAD_ALLOCA = """
// Each thread allocates tid % 4 + 1 rows of 3 i32, fills them, sums them, and (with %peek)
// reads row %peek of its own scratch, which is past the end for threads with fewer rows.
gpu.module @m {
  gpu.func @k(%out: memref<?xi32>, %peek: index) kernel {
    %tid = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %r0 = arith.remui %tid, %c4 : index
    %rows = arith.addi %r0, %c1 : index
    %odd = arith.remui %tid, %c1 : index
    %buf = memref.alloca(%rows) : memref<?x3xi32>
    scf.for %i = %c0 to %rows step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %t = arith.muli %i, %c3 : index
        %e = arith.addi %t, %j : index
        %v = arith.index_cast %e : index to i32
        memref.store %v, %buf[%i, %j] : memref<?x3xi32>
      }
    }
    %total = scf.for %i = %c0 to %rows step %c1 iter_args(%acc = %odd) -> (index) {
      %d = memref.dim %buf, %c0 : memref<?x3xi32>
      %x = memref.load %buf[%i, %c1] : memref<?x3xi32>
      %xi = arith.index_cast %x : i32 to index
      %s = arith.addi %acc, %xi : index
      %s2 = arith.addi %s, %d : index
      scf.yield %s2 : index
    }
    %any = arith.cmpi ne, %peek, %c0 : index
    %res = scf.if %any -> (index) {
      %y = memref.load %buf[%peek, %c0] : memref<?x3xi32>
      %yi = arith.index_cast %y : i32 to index
      scf.yield %yi : index
    } else {
      scf.yield %total : index
    }
    %r = arith.index_cast %res : index to i32
    memref.store %r, %out[%tid] : memref<?xi32>
    gpu.return
  }
}
"""


def test_alloca_with_per_thread_sizes_bounds_each_thread_by_its_own_size():
    """memref.alloca(%rows) with rows = tid % 4 + 1: each thread's copy has its own sizes
    (memref.dim), and a load past a thread's own rows is out of bounds for that thread even
    where a longer copy would reach."""
    out = np.zeros(8, np.int32)
    _launch(PER_THREAD_ALLOCA, (2,), (8,), [out, 0])
    rows = np.arange(8) % 4 + 1
    want = [sum(3 * i + 1 + r for i in range(r)) for r in rows]
    np.testing.assert_array_equal(out, want)
    with pytest.raises(tileir.LaunchError, match=r"memref.load[\s\S]*thread \(0, 0, 0\)"):
        _launch(PER_THREAD_ALLOCA, (1,), (8,), [out, 2])
