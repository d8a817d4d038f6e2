"""gpu.subgroup_reduce (every op, clusters, uniform, partial subgroups, divergence) and
gpu.all_reduce (op and region forms) in the SIMT engine, against NumPy references."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import UndefinedBehaviorError

SG = 32


def _src(T: str, body: str, extra: str = "") -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%in: memref<?x{T}>, %out: memref<?x{T}>{extra}) kernel {{
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %v = memref.load %in[%g] : memref<?x{T}>
{body}
    gpu.return
  }}
}}
"""


def _launch(src: str, x: np.ndarray, blocks: int, threads: int, fill=0) -> np.ndarray:
    out = np.full(x.size, fill, dtype=x.dtype)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(blocks,), block=(threads,),
                      args=[x, out])
    return out


NP_OPS = {
    "add": lambda a: a.sum(dtype=a.dtype), "mul": lambda a: a.prod(dtype=a.dtype),
    "minsi": np.min, "maxsi": np.max,
    "minui": lambda a: np.min(a.view(np.uint32)).view(np.int32) if a.dtype == np.int32
    else np.min(a),
    "maxui": lambda a: np.max(a.view(np.uint32)).view(np.int32) if a.dtype == np.int32
    else np.max(a),
    "and": np.bitwise_and.reduce, "or": np.bitwise_or.reduce, "xor": np.bitwise_xor.reduce,
    "minnumf": np.fmin.reduce, "maxnumf": np.fmax.reduce,
    "minimumf": np.minimum.reduce, "maximumf": np.maximum.reduce,
}


def reference(x: np.ndarray, threads: int, kind: str, size: int = SG, stride: int = 1,
              active: np.ndarray | None = None) -> np.ndarray:
    """Each lane: the reduction over the (active, existing) lanes of its cluster."""
    out = np.zeros_like(x)
    for g in range(x.size):
        b, t = divmod(g, threads)
        lane, base = t % SG, t - t % SG
        first = (lane // (size * stride)) * size * stride + lane % stride
        members = [base + first + k * stride for k in range(size)]
        members = [m for m in members if m < threads
                   and (active is None or active[b * threads + m])]
        out[g] = NP_OPS[kind](x[[b * threads + m for m in members]])
    return out


def _ints(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    x[::7] = rng.integers(-3, 4, x[::7].size)          # small values and signs too
    return x


def _floats(n: int, seed: int = 2) -> np.ndarray:
    """Powers of two and zeros: sums and products of them are exact in any order."""
    rng = np.random.default_rng(seed)
    x = (rng.choice([-1.0, 1.0], n) * 2.0 ** rng.integers(-3, 4, n)).astype(np.float32)
    x[5] = -0.0
    x[11] = 0.0
    return x


INT_KINDS = ["add", "mul", "minui", "minsi", "maxui", "maxsi", "and", "or", "xor"]
FLOAT_KINDS = ["add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"]
REDUCE = """
    %r = gpu.subgroup_reduce KIND %v CLUSTER : (T) -> T
    memref.store %r, %out[%g] : memref<?xT>
"""


def _reduce_src(T: str, kind: str, cluster: str = "", uniform: bool = False) -> str:
    head = kind + (" %v uniform" if uniform else " %v")
    body = REDUCE.replace("KIND %v", head).replace("CLUSTER", cluster).replace("T)", f"{T})") \
        .replace("-> T", f"-> {T}").replace("?xT", f"?x{T}")
    return _src(T, body)


@pytest.mark.parametrize("kind", INT_KINDS)
@pytest.mark.parametrize("threads", [64, 48])
def test_subgroup_reduce_int(kind, threads):
    x = _ints(2 * threads)
    out = _launch(_reduce_src("i32", kind), x, 2, threads)
    np.testing.assert_array_equal(out, reference(x, threads, kind))


@pytest.mark.parametrize("kind", FLOAT_KINDS)
@pytest.mark.parametrize("threads", [64, 40])
def test_subgroup_reduce_float(kind, threads):
    x = _floats(2 * threads)
    out = _launch(_reduce_src("f32", kind), x, 2, threads)
    np.testing.assert_array_equal(out, reference(x, threads, kind))


def test_subgroup_reduce_nan_handling():
    x = _floats(64)
    x[3] = np.nan
    for kind in ("minnumf", "maxnumf", "minimumf", "maximumf"):
        out = _launch(_reduce_src("f32", kind), x, 1, 64)
        ref = reference(x, 64, kind)
        np.testing.assert_array_equal(out, ref)
        assert np.isnan(out[:32]).all() == kind.endswith("imumf")


def test_subgroup_reduce_signed_zero_min_max():
    x = np.full(32, 0.0, np.float32)
    x[7] = -0.0
    out = _launch(_reduce_src("f32", "minimumf"), x, 1, 32)
    assert np.signbit(out).all()
    out = _launch(_reduce_src("f32", "maximumf"), x, 1, 32)
    assert not np.signbit(out).any()


@pytest.mark.parametrize("size,stride", [(4, 1), (2, 1), (8, 2), (4, 8), (2, 16), (32, 1),
                                         (1, 1), (16, 2)])
@pytest.mark.parametrize("kind", ["add", "maxsi", "xor"])
def test_subgroup_reduce_clusters(size, stride, kind):
    threads = 48
    cluster = f"cluster(size = {size}" + (f", stride = {stride})" if stride != 1 else ")")
    x = _ints(2 * threads, seed=size * 100 + stride)
    out = _launch(_reduce_src("i32", kind, cluster), x, 2, threads)
    np.testing.assert_array_equal(out, reference(x, threads, kind, size, stride))




DIVERGENT = """
    %lim = arith.constant LIMIT : index
    %c = arith.cmpi ult, %t, %lim : index
    scf.if %c {
      %r = gpu.subgroup_reduce add %v UNIFORM : (i32) -> i32
      memref.store %r, %out[%g] : memref<?xi32>
    }
"""


def test_subgroup_reduce_divergent_reduces_active_lanes():
    threads, limit = 64, 45
    x = _ints(2 * threads)
    body = DIVERGENT.replace("LIMIT", str(limit)).replace("UNIFORM", "")
    out = _launch(_src("i32", body), x, 2, threads, fill=7)
    active = np.tile(np.arange(threads) < limit, 2)
    ref = reference(x, threads, "add", active=active)
    np.testing.assert_array_equal(out[active], ref[active])
    assert (out[~active] == 7).all()


def test_subgroup_reduce_uniform_partial_subgroup_is_ub():
    body = DIVERGENT.replace("LIMIT", "45").replace("UNIFORM", "uniform")
    with pytest.raises(UndefinedBehaviorError, match="uniform"):
        _launch(_src("i32", body), _ints(128), 2, 64)
    # whole subgroups diverging is fine with uniform
    body = DIVERGENT.replace("LIMIT", "32").replace("UNIFORM", "uniform")
    x = _ints(128)
    out = _launch(_src("i32", body), x, 2, 64)
    active = np.tile(np.arange(64) < 32, 2)
    np.testing.assert_array_equal(out[active], reference(x, 64, "add")[active])


def test_subgroup_reduce_uniform_partial_last_subgroup_of_block_is_fine():
    x = _ints(2 * 40)
    out = _launch(_reduce_src("i32", "add", uniform=True), x, 2, 40)
    np.testing.assert_array_equal(out, reference(x, 40, "add"))


# -- all_reduce ---------------------------------------------------------------------------------

def _block_ref(x: np.ndarray, threads: int, kind: str) -> np.ndarray:
    blocks = x.reshape(-1, threads)
    return np.repeat(np.array([NP_OPS[kind](b) for b in blocks], dtype=x.dtype), threads)


@pytest.mark.parametrize("kind", INT_KINDS)
def test_all_reduce_op_int(kind):
    threads = 72
    x = _ints(3 * threads, seed=5)
    body = f"""
    %r = gpu.all_reduce {kind} %v uniform {{}} : (i32) -> i32
    memref.store %r, %out[%g] : memref<?xi32>
"""
    out = _launch(_src("i32", body), x, 3, threads)
    np.testing.assert_array_equal(out, _block_ref(x, threads, kind))


@pytest.mark.parametrize("kind", FLOAT_KINDS)
def test_all_reduce_op_float(kind):
    threads = 100
    x = _floats(2 * threads, seed=9)
    body = f"""
    %r = gpu.all_reduce {kind} %v {{}} : (f32) -> f32
    memref.store %r, %out[%g] : memref<?xf32>
"""
    out = _launch(_src("f32", body), x, 2, threads)
    np.testing.assert_array_equal(out, _block_ref(x, threads, kind))


def test_all_reduce_region_form_sum_and_2d_block():
    body = """
    %r = gpu.all_reduce %v {
    ^bb0(%lhs : f32, %rhs : f32):
      %s = arith.addf %lhs, %rhs : f32
      gpu.yield %s : f32
    } : (f32) -> f32
    memref.store %r, %out[%g] : memref<?xf32>
"""
    threads = 96
    x = _floats(2 * threads, seed=4)
    out = _launch(_src("f32", body), x, 2, threads)
    np.testing.assert_array_equal(out, _block_ref(x, threads, "add"))




def test_all_reduce_partial_block_is_ub():
    body = """
    %lim = arith.constant 10 : index
    %c = arith.cmpi ult, %t, %lim : index
    scf.if %c {
      %r = gpu.all_reduce add %v {} : (i32) -> i32
      memref.store %r, %out[%g] : memref<?xi32>
    }
"""
    with pytest.raises(UndefinedBehaviorError, match="all_reduce"):
        _launch(_src("i32", body), _ints(64), 2, 32)




def test_subgroup_reduce_irregular_active_set_and_2d_block():
    src = """
gpu.module @m {
  gpu.func @k(%in: memref<?xi32>, %out: memref<?xi32>, %mask: memref<?xi1>) kernel {
    %x = gpu.thread_id x
    %y = gpu.thread_id y
    %b = gpu.block_id x
    %c8 = arith.constant 8 : index
    %c48 = arith.constant 48 : index
    %row = arith.muli %y, %c8 : index
    %lin = arith.addi %row, %x : index
    %bb = arith.muli %b, %c48 : index
    %g = arith.addi %bb, %lin : index
    %v = memref.load %in[%g] : memref<?xi32>
    %m = memref.load %mask[%g] : memref<?xi1>
    scf.if %m {
      %r = gpu.subgroup_reduce add %v cluster(size = 4, stride = 2) : (i32) -> i32
      memref.store %r, %out[%g] : memref<?xi32>
    }
    gpu.return
  }
}
"""
    rng = np.random.default_rng(8)
    x = _ints(96)
    mask = rng.random(96) < 0.5
    out = np.zeros(96, np.int32)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(2,), block=(8, 6), args=[x, out, mask])
    ref = reference(x, 48, "add", 4, 2, active=mask)
    np.testing.assert_array_equal(out[mask], ref[mask])
    assert (out[~mask] == 0).all()


def test_all_reduce_in_some_blocks_only():
    """Whole blocks diverging (a per-block flag) is fine; each block reduces its own values."""
    src = """
gpu.module @m {
  gpu.func @k(%in: memref<?xi32>, %out: memref<?xi32>, %flag: memref<?xi1>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %n = gpu.block_dim x
    %bb = arith.muli %b, %n : index
    %g = arith.addi %bb, %t : index
    %v = memref.load %in[%g] : memref<?xi32>
    %f = memref.load %flag[%b] : memref<?xi1>
    scf.if %f {
      %r = gpu.all_reduce maxsi %v uniform {} : (i32) -> i32
      memref.store %r, %out[%g] : memref<?xi32>
    }
    gpu.return
  }
}
"""
    flag = np.array([True, False, True, True, False])
    x = _ints(5 * 40, seed=12)
    out = np.zeros(5 * 40, np.int32)
    tileir.gpu.launch(tileir.parse(src), "m::k", grid=(5,), block=(40,), args=[x, out, flag])
    ref = np.where(np.repeat(flag, 40), _block_ref(x, 40, "maxsi"), 0)
    np.testing.assert_array_equal(out, ref)


