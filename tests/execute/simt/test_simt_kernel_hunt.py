"""Kernel-side bug hunt on the SIMT engine: id ops' ``upper_bound`` (inclusive for sizes),
subgroup MMA fragments built by ``insert_thread_local``, ``warp_execute_on_lane_0`` distributing
over two dimensions, float-to-i64 conversions at 2**63 / 2**64, ``scf.index_switch`` in kernels,
``subgroup_broadcast`` with a non-uniform lane index.  Each test checks against NumPy or
hand-computed values.

Every kernel text is also accepted by ``mlir-opt`` 22 (checked when it is installed)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess

import numpy as np
import pytest

import tileir
import tileir.gpu
from tileir.execute.errors import MemoryAccessError, UndefinedBehaviorError

_MLIR_OPT = next((p for p in ("/usr/lib/llvm-22/bin/mlir-opt", shutil.which("mlir-opt") or "")
                  if p and os.path.exists(p)), None)
WG = "#gpu.address_space<workgroup>"


@functools.lru_cache(maxsize=None)
def _module(text: str):
    """Parse ``text`` with tileir, after checking that mlir-opt accepts it (when installed)."""
    if _MLIR_OPT is not None:
        r = subprocess.run([_MLIR_OPT, "-"], input=text, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
    return tileir.parse(text)


def _launch(text: str, grid, block, args, **kw):
    tileir.gpu.launch(_module(text), "m::k", grid=grid, block=block, args=args, **kw)


# -- upper_bound: ids must stay below it, sizes may reach it ------------------------------------

def _bound_kernel(op: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%o: memref<?xindex>) kernel {{
    %v = {op}
    %t = gpu.thread_id x
    memref.store %v, %o[%t] : memref<?xindex>
    gpu.return
  }}
}}
"""


# (op, grid, block, value every thread sees or None for ids, undefined?)
_BOUNDS = [
    ("gpu.block_dim x upper_bound 64", (2,), (64,), 64, False),
    ("gpu.block_dim x upper_bound 63", (2,), (64,), None, True),
    ("gpu.grid_dim x upper_bound 2", (2,), (64,), 2, False),
    ("gpu.grid_dim x upper_bound 1", (2,), (64,), None, True),
    ("gpu.subgroup_size upper_bound 32 : index", (1,), (64,), 32, False),
    ("gpu.subgroup_size upper_bound 31 : index", (1,), (64,), None, True),
    ("gpu.num_subgroups upper_bound 2 : index", (1,), (64,), 2, False),
    ("gpu.num_subgroups upper_bound 1 : index", (1,), (64,), None, True),
    ("gpu.cluster_dim x upper_bound 2", (4,), (64,), 2, False),
    ("gpu.cluster_dim_blocks x upper_bound 2", (4,), (64,), 2, False),
    ("gpu.cluster_dim_blocks x upper_bound 1", (4,), (64,), None, True),
    # ids: the bound is exclusive
    ("gpu.subgroup_id upper_bound 2 : index", (1,), (64,), None, False),
    ("gpu.subgroup_id upper_bound 1 : index", (1,), (64,), None, True),
    ("gpu.global_id x upper_bound 128", (2,), (64,), None, False),
    ("gpu.global_id x upper_bound 127", (2,), (64,), None, True),
    ("gpu.lane_id upper_bound 32", (1,), (64,), None, False),
    ("gpu.lane_id upper_bound 31", (1,), (64,), None, True),
    ("gpu.cluster_block_id x upper_bound 2", (4,), (64,), None, False),
    ("gpu.cluster_block_id x upper_bound 1", (4,), (64,), None, True),
]


@pytest.mark.parametrize("op,grid,block,value,undefined", _BOUNDS)
def test_upper_bound_is_inclusive_for_sizes_exclusive_for_ids(op, grid, block, value, undefined):
    """The spec: a size op is undefined where the size *exceeds* upper_bound (block_dim 64 with
    upper_bound 64 is fine); an id op where the id reaches it."""
    out = np.full(64, -1, np.int64)
    kw = {"cluster": (2, 1, 1)} if "cluster" in op else {}
    if undefined:
        with pytest.raises(UndefinedBehaviorError, match="upper_bound"):
            _launch(_bound_kernel(op), grid, block, [out], **kw)
        return
    _launch(_bound_kernel(op), grid, block, [out], **kw)
    if value is not None:
        assert (out == value).all()


# -- subgroup MMA --------------------------------------------------------------------------------

MMA_INSERT = """
gpu.module @m {
  gpu.func @k(%a: memref<256xf16>, %o: memref<256xf16>, %q: memref<32xf16>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %A = gpu.subgroup_mma_load_matrix %a[%c0] {leadDimension = 16 : index} : memref<256xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
    %l = gpu.lane_id
    %x = gpu.subgroup_mma_extract_thread_local %A[%c1] : !gpu.mma_matrix<16x16xf16, "COp"> -> f16
    memref.store %x, %q[%l] : memref<32xf16>
    %two = arith.constant 2.0 : f16
    %y = arith.mulf %x, %two : f16
    %M = gpu.subgroup_mma_insert_thread_local %y, %A[%c7] : f16, !gpu.mma_matrix<16x16xf16, "COp"> -> !gpu.mma_matrix<16x16xf16, "COp">
    %N = gpu.subgroup_mma_elementwise addf %M, %A : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
    gpu.subgroup_mma_store_matrix %N, %o[%c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<256xf16>
    gpu.return
  }
}
"""


def test_mma_store_of_a_fragment_built_by_insert_thread_local():
    """insert_thread_local makes the fragment a per-lane value; storing it at a uniform address
    crashed (shape mismatch).  Lane l holds elements 8l..8l+7 (README)."""
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(256) * 3).astype(np.float16)
    o = np.zeros(256, np.float16)
    q = np.zeros(32, np.float16)
    _launch(MMA_INSERT, (1,), (32,), [a, o, q], racecheck=True)
    np.testing.assert_array_equal(q, a[1::8])
    m = a.copy()
    m[7::8] = a[1::8] * np.float16(2)
    np.testing.assert_array_equal(o, m + a)


# -- warp_execute_on_lane_0 ----------------------------------------------------------------------

def _warp_src(whole: tuple, per: tuple) -> str:
    w = "x".join(map(str, whole))
    p = "x".join(map(str, per))
    n, nw = int(np.prod(per)), int(np.prod(whole))
    return f"""
gpu.module @m {{
  gpu.func @k(%i: memref<?xf32>, %o: memref<?xf32>, %side: memref<?xf32>) kernel {{
    %l = gpu.lane_id
    %g = gpu.global_id x
    %sg = gpu.subgroup_id : index
    %cn = arith.constant {n} : index
    %cw = arith.constant {nw} : index
    %base = arith.muli %g, %cn : index
    %sbase = arith.muli %sg, %cw : index
    %v1 = vector.load %i[%base] : memref<?xf32>, vector<{n}xf32>
    %v = vector.shape_cast %v1 : vector<{n}xf32> to vector<{p}xf32>
    %r = gpu.warp_execute_on_lane_0(%l)[32] args(%v : vector<{p}xf32>) -> (vector<{p}xf32>) {{
    ^bb0(%a: vector<{w}xf32>):
      %f = vector.shape_cast %a : vector<{w}xf32> to vector<{nw}xf32>
      vector.store %f, %side[%sbase] : memref<?xf32>, vector<{nw}xf32>
      %one = arith.constant dense<1.0> : vector<{w}xf32>
      %s = arith.addf %a, %one : vector<{w}xf32>
      gpu.yield %s : vector<{w}xf32>
    }}
    %r1 = vector.shape_cast %r : vector<{p}xf32> to vector<{n}xf32>
    vector.store %r1, %o[%base] : memref<?xf32>, vector<{n}xf32>
    gpu.return
  }}
}}
"""


@pytest.mark.parametrize("whole,per", [((64,), (2,)), ((4, 64), (4, 2)), ((4, 64), (1, 8)),
                                       ((8, 16), (1, 4)), ((2, 32, 2), (1, 2, 2))])
def test_warp_execute_distribution_over_one_or_two_dimensions(whole, per):
    """MLIR 22 verifies any distribution whose per-dimension ratios multiply to the warp size;
    the lane id is delinearized row-major over those ratios (MLIR's delinearizeLaneId), so
    lane l with ids (i0, i1, ...) holds block [i0*p0:(i0+1)*p0, i1*p1:(i1+1)*p1, ...]."""
    n, nw = int(np.prod(per)), int(np.prod(whole))
    i = np.arange(64 * n, dtype=np.float32)
    o = np.zeros_like(i)
    side = np.zeros(2 * nw, np.float32)
    _launch(_warp_src(whole, per), (1,), (64,), [i, o, side])
    sizes = [w // p for w, p in zip(whole, per)]
    want = np.zeros((2,) + whole, np.float32)
    for sg in range(2):
        for lane in range(32):
            ids = np.unravel_index(lane, sizes)
            block = tuple(slice(k * p, (k + 1) * p) for k, p in zip(ids, per))
            g = sg * 32 + lane
            want[(sg,) + block] = i[g * n:(g + 1) * n].reshape(per)
    np.testing.assert_array_equal(side, want.reshape(-1))
    np.testing.assert_array_equal(o, i + 1)


# -- float to integer conversions at the top of the i64 range ------------------------------------

def _ftoi_src(op: str, src: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%x: memref<?x{src}>, %y: memref<?xi64>) kernel {{
    %i = gpu.global_id x
    %a = memref.load %x[%i] : memref<?x{src}>
    %r = arith.{op} %a : {src} to i64
    memref.store %r, %y[%i] : memref<?xi64>
    gpu.return
  }}
}}
"""


@pytest.mark.parametrize("src,dtype", [("f64", np.float64), ("f32", np.float32)])
@pytest.mark.parametrize("op,value", [("fptosi", 2.0 ** 63), ("fptoui", 2.0 ** 64),
                                      ("fptosi", -2.0 ** 63 * 1.5), ("fptoui", -1.0)])
def test_fptoi_i64_out_of_range_is_reported(op, value, src, dtype):
    """2**63 does not fit i64 (2**63 - 1 rounds up to 2**63 in float64, so a comparison with
    it let the value through, giving INT64_MIN); 2**64 does not fit ui64 (gave 0)."""
    x = np.array([value], dtype)
    y = np.zeros(1, np.int64)
    with pytest.raises(UndefinedBehaviorError, match="out of the target's range"):
        _launch(_ftoi_src(op, src), (1,), (1,), [x, y])


def test_fptoi_i64_largest_values_in_range():
    big = 2.0 ** 63 - 1024                  # the largest f64 below 2**63
    x = np.array([big, -2.0 ** 63, -0.75, 0.75], np.float64)
    y = np.zeros(4, np.int64)
    _launch(_ftoi_src("fptosi", "f64"), (4,), (1,), [x, y])
    assert y.tolist() == [2 ** 63 - 1024, -2 ** 63, 0, 0]
    x = np.array([2.0 ** 64 - 2048, 2.0 ** 63, -0.5, 3.5], np.float64)
    _launch(_ftoi_src("fptoui", "f64"), (4,), (1,), [x, y])
    assert y.view(np.uint64).tolist() == [2 ** 64 - 2048, 2 ** 63, 0, 3]


# -- scf.index_switch in a kernel ----------------------------------------------------------------

SWITCH = """
gpu.module @m {
  gpu.func @k(%o: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %c3 = arith.constant 3 : index
    %m = arith.remui %t, %c3 : index
    %sw = scf.index_switch %m -> i32
    case 0 {
      %a = arith.constant 100 : i32
      scf.yield %a : i32
    }
    case 2 {
      %a = arith.constant 200 : i32
      scf.yield %a : i32
    }
    default {
      %a = arith.constant -1 : i32
      scf.yield %a : i32
    }
    %c5 = arith.constant 5 : index
    %u = arith.divui %c5, %c3 : index
    %su = scf.index_switch %u -> i32
    case 1 {
      %a = arith.constant 7 : i32
      scf.yield %a : i32
    }
    default {
      %a = arith.constant 8 : i32
      scf.yield %a : i32
    }
    %r = arith.addi %sw, %su : i32
    memref.store %r, %o[%t] : memref<?xi32>
    gpu.return
  }
}
"""


def test_index_switch_divergent_and_uniform():
    """scf.index_switch failed on its ``cases`` attribute in every use."""
    o = np.zeros(40, np.int32)
    _launch(SWITCH, (1,), (40,), [o])
    t = np.arange(40)
    np.testing.assert_array_equal(o, np.where(t % 3 == 0, 100, np.where(t % 3 == 2, 200, -1)) + 7)


# -- subgroup_broadcast --------------------------------------------------------------------------

BROADCAST = """
gpu.module @m {
  gpu.func @k(%o: memref<?xi32>, %n: memref<?xi32>) kernel {
    %t = gpu.thread_id x
    %ti = arith.index_cast %t : index to i32
    %c32 = arith.constant 32 : i32
    %d = arith.divui %ti, %c32 : i32
    %k = memref.load %n[%t] : memref<?xi32>
    %src = arith.addi %d, %k : i32
    %b = gpu.subgroup_broadcast %ti, specific_lane %src : i32
    memref.store %b, %o[%t] : memref<?xi32>
    gpu.return
  }
}
"""


def test_subgroup_broadcast_specific_lane_must_be_uniform():
    """A lane index that differs within a subgroup gives poison (spec): reported.  One that is
    uniform per subgroup but differs between subgroups is fine."""
    o = np.zeros(64, np.int32)
    n = np.full(64, 3, np.int32)
    _launch(BROADCAST, (1,), (64,), [o, n])
    np.testing.assert_array_equal(o, np.repeat([3, 32 + 4], 32))
    n[40] = 5
    with pytest.raises(UndefinedBehaviorError, match="uniform"):
        _launch(BROADCAST, (1,), (64,), [o, n])


MMA_DIVERGENT = """
gpu.module @m {
  gpu.func @k(%a: memref<?xf16>, %d: memref<?xf16>, %n: memref<1xindex>) kernel {
    %t = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %limit = arith.constant 0 : index
    %k = memref.load %n[%limit] : memref<1xindex>
    %go = arith.cmpi ult, %t, %k : index
    scf.if %go {
      %sg = gpu.subgroup_id : index
      %base = arith.muli %sg, %c256 : index
      %A = gpu.subgroup_mma_load_matrix %a[%base] {leadDimension = 16 : index} : memref<?xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %B = gpu.subgroup_mma_elementwise addf %A, %A : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %B, %d[%base] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<?xf16>
    }
    gpu.return
  }
}
"""


@pytest.mark.parametrize("active,ok", [(32, True), (48, True), (64, True), (16, False),
                                       (40, False)])
def test_mma_ops_need_whole_subgroups(active, ok):
    """Subgroup MMA ops are collective: a subgroup of which only some threads execute them is
    reported; whole subgroups (the partial last one of a 48-thread block included) are fine."""
    rng = np.random.default_rng(1)
    a = rng.integers(-8, 8, 512).astype(np.float16)
    d = np.zeros(512, np.float16)
    n = np.array([active], np.int64)
    if not ok:
        with pytest.raises(UndefinedBehaviorError, match="subgroup"):
            _launch(MMA_DIVERGENT, (1,), (64 if active != 48 else 48,), [a, d, n])
        return
    threads = 48 if active == 48 else 64
    _launch(MMA_DIVERGENT, (1,), (threads,), [a, d, n])
    done = -(-min(active, threads) // 32) * 256
    np.testing.assert_array_equal(d[:done], a[:done] * 2)
    np.testing.assert_array_equal(d[done:], 0)


BOUND_IN_BRANCH = """
gpu.module @m {
  gpu.func @k(%o: memref<?xindex>) kernel {
    %t = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %lt = arith.cmpi ult, %t, %c64 : index
    scf.if %lt {
      %t2 = gpu.thread_id x upper_bound 64
      %g = gpu.global_id x upper_bound 64
      memref.store %t2, %o[%g] : memref<?xindex>
    }
    gpu.return
  }
}
"""


def test_thread_id_upper_bound_constrains_only_the_executing_threads():
    """Threads 64..127 do not execute the bounded thread_id/global_id: no undefined
    behaviour with one block; with two, block 1's threads 0..63 have global ids >= 64."""
    o = np.full(64, -1, np.int64)
    _launch(BOUND_IN_BRANCH, (1,), (128,), [o])
    np.testing.assert_array_equal(o, np.arange(64))
    with pytest.raises(UndefinedBehaviorError, match="upper_bound"):
        _launch(BOUND_IN_BRANCH, (2,), (128,), [np.zeros(256, np.int64)])


# -- math in kernels -----------------------------------------------------------------------------

def _math_src(op: str, t: str) -> str:
    return f"""
gpu.module @m {{
  gpu.func @k(%x: memref<?x{t}>, %y: memref<?x{t}>) kernel {{
    %i = gpu.global_id x
    %a = memref.load %x[%i] : memref<?x{t}>
    %r = math.{op} %a : {t}
    memref.store %r, %y[%i] : memref<?x{t}>
    gpu.return
  }}
}}
"""


def test_rsqrt_f16_special_values_without_warnings():
    """rsqrt of a negative f16 is NaN, of +-0 +-inf, as IEEE -- and no NumPy RuntimeWarning
    leaks out of the engine (it did, for f16 and bf16)."""
    import warnings
    x = np.array([-1.0, 0.0, -0.0, 4.0, np.inf, 2.0 ** -24], np.float16)
    y = np.zeros_like(x)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _launch(_math_src("rsqrt", "f16"), (6,), (1,), [x, y])
    assert np.isnan(y[0])
    np.testing.assert_array_equal(y[1:], np.array([np.inf, -np.inf, 0.5, 0.0, 4096.0],
                                                  np.float16))
    assert np.signbit(y[2]) and not np.signbit(y[4])


@pytest.mark.parametrize("op", ["exp", "log1p", "sin", "tanh", "erf", "cbrt"])
@pytest.mark.parametrize("t", ["f16", "bf16", "f32"])
def test_math_is_correctly_rounded_on_edge_inputs(op, t):
    """Subnormals, +-0, tiny and huge arguments (sin of 1e30) against mpmath, rounded once to
    the type (the README's float64-then-round promise: correctly rounded for these types
    except within 2**-29 of a rounding boundary, which none of these inputs is)."""
    mpmath = pytest.importorskip("mpmath")
    import ml_dtypes
    dtype = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32}[t]
    info = ml_dtypes.finfo(dtype)
    vals = [0.0, -0.0, float(info.smallest_subnormal), -float(info.smallest_subnormal),
            float(info.smallest_normal), 1e-3, -0.3, 0.7, 1.5, -2.75, 9.0, 60.0]
    if t == "f32":
        vals += [1e30, -3.0e38, 88.5, -103.0]
    x = np.array(vals, np.float64).astype(dtype)
    y = np.zeros_like(x)
    _launch(_math_src(op, t), (len(x),), (1,), [x, y])
    ref = {"exp": mpmath.exp, "log1p": mpmath.log1p, "sin": mpmath.sin, "tanh": mpmath.tanh,
           "erf": mpmath.erf, "cbrt": lambda v: mpmath.sign(v) * mpmath.cbrt(abs(v))}[op]
    with mpmath.workprec(400):
        for xi, yi in zip(x.astype(np.float64).tolist(), y.astype(np.float64).tolist()):
            exact = ref(mpmath.mpf(xi))
            if isinstance(exact, mpmath.mpc):           # outside the domain (log1p(-2.75))
                assert np.isnan(yi), (op, t, xi, yi)
                continue
            # float(exact) rounds to f64 from 400 bits; rounding that to the narrow type is
            # the correctly rounded result unless the f64 value is a tie of the narrow type
            # (not the case for these transcendental values)
            with np.errstate(over="ignore"):                # exp(60) in f16: inf
                want = np.array(float(exact)).astype(dtype)
            if xi == 0 and op != "exp":
                assert yi == 0 and np.signbit(yi) == np.signbit(xi), (op, xi, yi)
            else:
                assert yi == float(want), (op, t, xi, yi, float(want))


def test_dynamic_shared_memory_beyond_the_machine_is_a_memory_error():
    """Dynamic shared memory for every block of a huge grid: more than the machine has is a
    MemoryAccessError naming the op, not Python's MemoryError."""
    src = """module attributes {gpu.container_module} {
gpu.module @k {
  gpu.func @f(%o: memref<?xi8>) kernel {
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %v = memref.load %raw[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
    memref.store %v, %o[%c0] : memref<?xi8>
    gpu.return
  }
}}"""
    o = np.ones(4, np.int8)
    with pytest.raises(MemoryAccessError, match="gpu.dynamic_shared_memory.*out of memory"):
        tileir.gpu.launch(src, "k::f", grid=(1 << 20,), block=(1,), args=[o],
                   dynamic_shared_memory=(1 << 31) - 16)
    np.testing.assert_array_equal(o, np.ones(4, np.int8))
    tileir.gpu.launch(src, "k::f", grid=(2,), block=(1,), args=[o], dynamic_shared_memory=64)
    assert o[0] == 0        # (zero-filled)
