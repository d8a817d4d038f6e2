"""The launch API: argument and grid checking before anything runs, compiled kernels reused,
lock-step batching vs one block at a time, array handling (in place, non-contiguous, aliasing,
DLPack), tileir.load."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import tileir
from tileir.execute import ArgumentError, GridError, Kernel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(scope="module")
def vadd():
    return tileir.load(EXAMPLES / "vector_add.mlir")


def args(n=3000):
    rng = np.random.default_rng(0)
    return [rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32),
            np.zeros(n, np.float32), n]


def test_launch_writes_in_place_and_reports(vadd):
    a = args()
    info = tileir.launch(vadd, "vector_add", (3,), a)
    assert (a[2] == a[0] + a[1]).all()
    assert info.blocks == 3 and info.written == (2,) and info.mode == "batched"


def test_compile_once_launch_many(vadd):
    k = tileir.compile(vadd, "vector_add")
    assert isinstance(k, Kernel)
    for n in (1024, 2048, 5000):
        a = args(n)
        k.launch(((n + 1023) // 1024,), a)
        assert (a[2] == a[0] + a[1]).all()
    assert len(k._plans) == 1                  # the plan was built once
    a = args(100)
    k((1,), *a)                                # a Kernel is callable
    assert (a[2] == a[0] + a[1]).all()


@pytest.mark.parametrize("bad,match", [
    (lambda a: a[:3], "takes 4 arguments"),
    (lambda a: [a[0].astype(np.float64)] + a[1:], "expected an array of dtype float32, got float64"),
    (lambda a: a[:3] + [2.5], "expected an integer for an i32 parameter"),
    (lambda a: a[:3] + [2 ** 40], "does not fit in i32"),
    (lambda a: [3] + a[1:], "expected an array, got int"),
])
def test_bad_arguments_are_rejected_before_running(vadd, bad, match):
    a = args()
    before = a[2].copy()
    with pytest.raises(ArgumentError, match=match):
        tileir.launch(vadd, "vector_add", (3,), bad(a))
    assert (a[2] == before).all()


@pytest.mark.parametrize("grid,match", [((0,), "at least 1"), ((1, 2, 3, 4), "1 to 3"),
                                        ((1 << 24,), "24-bit limit"), ((1.5,), "integer"),
                                        ("abc", "integer")])
def test_bad_grids(vadd, grid, match):
    with pytest.raises(GridError, match=match):
        tileir.launch(vadd, "vector_add", grid, args())


def test_grid_of_max_extent_is_accepted(vadd):
    a = args(1024)
    info = tileir.launch(vadd, "vector_add", (1, 1, 1), a)
    assert info.grid == (1, 1, 1)
    # 2**24 - 1 is the largest legal extent (only the grid check is exercised here)
    from tileir.execute.launch import normalize_grid
    assert normalize_grid((2 ** 24 - 1, 2)) == (2 ** 24 - 1, 2, 1)


def test_unknown_kernel_and_cutile_name_prefix():
    with pytest.raises(ArgumentError, match="no entry named 'nope'"):
        tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "nope")
    sample = Path(__file__).parent / "data" / "cutile" / "vector_add.mlir"
    k = tileir.compile(tileir.load(sample), "vector_add")        # Python name of the kernel
    assert k.name.startswith("vector_add_Kt1_")


def test_non_contiguous_arrays_are_written_back(vadd):
    base = np.zeros(4000, np.float32)
    out = base[::2]                                  # non-contiguous view
    a = args(2000)
    a[2] = out
    tileir.launch(vadd, "vector_add", (2,), a)
    assert (base[::2] == a[0] + a[1]).all() and (base[1::2] == 0).all()


def test_same_array_twice_aliases_one_buffer(vadd):
    x = np.arange(1024, dtype=np.float32)
    tileir.launch(vadd, "vector_add", (1,), [x, x, x, 1024])      # x = x + x in place
    assert (x == 2 * np.arange(1024)).all()


def test_array_like_and_dlpack_inputs(vadd):
    class ArrayLike:
        def __init__(self, a):
            self.a = a

        def __array__(self, dtype=None, copy=None):
            return self.a

    a = args(1024)
    out = a[2]
    tileir.launch(vadd, "vector_add", (1,), [ArrayLike(a[0]), a[1], out, 1024])
    assert (out == a[0] + a[1]).all()


def test_bool_and_low_precision_dtypes():
    text = """cuda_tile.module @m {
  entry @k(%x: tile<ptr<bf16>>, %flag: tile<i1>, %y: tile<ptr<f8E4M3FN>>) {
    %tv = make_tensor_view %x, shape = [8], strides = [1] : tensor_view<8xbf16, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(8), tensor_view<8xbf16, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %v, %t = load_view_tko weak %pv[%c0] : partition_view<tile=(8), tensor_view<8xbf16, strides=[1]>>, tile<i32> -> tile<8xbf16>, token
    %w = ftof %v : tile<8xbf16> -> tile<8xf8E4M3FN>
    %neg = negf %v : tile<8xbf16>
    %n8 = ftof %neg : tile<8xbf16> -> tile<8xf8E4M3FN>
    %f1 = reshape %flag : tile<i1> -> tile<1xi1>
    %fb = broadcast %f1 : tile<1xi1> -> tile<8xi1>
    %s = select %fb, %n8, %w : tile<8xi1>, tile<8xf8E4M3FN>
    %tvy = make_tensor_view %y, shape = [8], strides = [1] : tensor_view<8xf8E4M3FN, strides=[1]>
    %pvy = make_partition_view %tvy : partition_view<tile=(8), tensor_view<8xf8E4M3FN, strides=[1]>>
    %t2 = store_view_tko weak %s, %pvy[%c0] : tile<8xf8E4M3FN>, partition_view<tile=(8), tensor_view<8xf8E4M3FN, strides=[1]>>, tile<i32> -> token
    return
  }
}"""
    m = tileir.parse(text)
    x = np.array([1, 2, 3, 500, -1, 0.1, 0, 7], ml_dtypes.bfloat16)
    y = np.zeros(8, ml_dtypes.float8_e4m3fn)
    tileir.launch(m, "k", (1,), [x, True, y])
    want = np.clip(-x.astype(np.float32), -448, 448).astype(ml_dtypes.float8_e4m3fn)
    assert (y.astype(np.float32) == want.astype(np.float32)).all()      # satfinite: -500 -> -448
    with pytest.raises(ArgumentError, match="expected a bool"):
        tileir.launch(m, "k", (1,), [x, 3, y])


DIVERGENT = """cuda_tile.module @m {
  entry @k(%out: tile<ptr<f32>>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %two = constant <i32: 2> : tile<i32>
    %r = remi %bx, %two signed : tile<i32>
    %z = constant <i32: 0> : tile<i32>
    %even = cmpi equal %r, %z, signed : tile<i32> -> tile<i1>
    %fb = itof %bx signed : tile<i32> -> tile<f32>
    %v = if %even -> (tile<f32>) {
      %c = constant <f32: 10.0> : tile<f32>
      %a = addf %fb, %c : tile<f32>
      yield %a : tile<f32>
    } else {
      %n = negf %fb : tile<f32>
      yield %n : tile<f32>
    }
    %c0 = constant <i32: 0> : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %acc = for %i in (%c0 to %LOOPBOUND, step %one) : tile<i32> iter_values(%s = %v) -> (tile<f32>) {
      %fi = itof %i signed : tile<i32> -> tile<f32>
      %s1 = addf %s, %fi : tile<f32>
      continue %s1 : tile<f32>
    }
    %tv = make_tensor_view %out, shape = [%gx], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
    %a1 = reshape %acc : tile<f32> -> tile<1xf32>
    %t = store_view_tko weak %a1, %pv[%bx] : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}"""


@pytest.mark.parametrize("bound,divergent", [("%gx", False), ("%bx", True)])
def test_batched_and_sequential_agree(bound, divergent):
    m = tileir.parse(DIVERGENT.replace("%LOOPBOUND", bound))
    outs = []
    for batch in (True, False):
        out = np.zeros(37, np.float32)
        info = tileir.launch(m, "k", (37,), [out], batch=batch)
        outs.append(out)
        if batch:
            # a varying `if` with pure branches is merged; a varying loop bound splits lanes
            assert info.mode == "batched", info.reason
            assert bool(info.divergent) == divergent
    assert outs[0].tobytes() == outs[1].tobytes()
    b = np.arange(37, dtype=np.float64)
    start = np.where(b % 2 == 0, b + 10, -b)
    n = 37 if bound == "%gx" else b
    want = start + n * (n - 1) / 2
    assert (outs[0] == want).all()


def test_three_dimensional_grid_block_ids():
    text = """cuda_tile.module @m {
  entry @k(%out: tile<ptr<i32>>) {
    %x, %y, %z = get_tile_block_id : tile<i32>
    %gx, %gy, %gz = get_num_tile_blocks : tile<i32>
    %yz = muli %z, %gy : tile<i32>
    %yy = addi %yz, %y : tile<i32>
    %row = muli %yy, %gx : tile<i32>
    %lin = addi %row, %x : tile<i32>
    %hund = constant <i32: 100> : tile<i32>
    %c1 = muli %z, %hund : tile<i32>
    %ten = constant <i32: 10> : tile<i32>
    %c2 = muli %y, %ten : tile<i32>
    %c3 = addi %c1, %c2 : tile<i32>
    %code = addi %c3, %x : tile<i32>
    %p = offset %out, %lin : tile<ptr<i32>>, tile<i32> -> tile<ptr<i32>>
    %t = store_ptr_tko weak %p, %code : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}"""
    m = tileir.parse(text)
    for batch in (True, False):
        out = np.zeros(2 * 3 * 4, np.int32)
        tileir.launch(m, "k", (2, 3, 4), [out], batch=batch)
        want = [100 * z + 10 * y + x for z in range(4) for y in range(3) for x in range(2)]
        assert out.tolist() == want


def test_load_reads_text_and_dispatches_bytecode(tmp_path):
    p = tmp_path / "k.mlir"
    p.write_text((EXAMPLES / "vector_add.mlir").read_text())
    m = tileir.load(p)
    assert any(op.name == "cuda_tile.entry" for op in m.walk())
    try:
        from tileir.bytecode import write_bytecode
    except ImportError:  # pragma: no cover - bytecode support lives in another module
        pytest.skip("no bytecode writer in this build")
    data = write_bytecode(m)
    assert data.startswith(tileir.BYTECODE_MAGIC)
    (tmp_path / "k.tilebc").write_bytes(data)
    mb = tileir.load(tmp_path / "k.tilebc")
    a = args(2048)
    tileir.launch(mb, "vector_add", (2,), a)
    assert (a[2] == a[0] + a[1]).all()


def test_guarded_load_in_divergent_if_is_not_speculated():
    # `if (bid < n) load p[bid]`: blocks past n must not touch memory, batched or not
    text = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<f32>>, %out: tile<ptr<f32>>, %n: tile<i32>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %in = cmpi less_than %bx, %n, signed : tile<i32> -> tile<i1>
    %v = if %in -> (tile<f32>) {
      %q = offset %p, %bx : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
      %x, %t = load_ptr_tko weak %q : tile<ptr<f32>> -> tile<f32>, token
      yield %x : tile<f32>
    } else {
      %z = constant <f32: -1.0> : tile<f32>
      yield %z : tile<f32>
    }
    %o = offset %out, %bx : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
    %t2 = store_ptr_tko weak %o, %v : tile<ptr<f32>>, tile<f32> -> token
    return
  }
}"""
    m = tileir.parse(text)
    out = np.zeros(8, np.float32)
    tileir.launch(m, "k", (8,), [np.arange(5, dtype=np.float32), out, 5])
    assert out.tolist() == [0, 1, 2, 3, 4, -1, -1, -1]


def test_big_grids_run_in_chunks_under_a_memory_bound():
    """max_memory bounds the registers of a lock-step batch: a smaller bound gives more
    batches, the same bits (exact mma: fast mode's BLAS sums may group differently), and a
    smaller traced peak."""
    import tracemalloc
    k = tileir.compile(tileir.load(EXAMPLES / "matmul.mlir"), "matmul_f32")
    n = 256
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((n, n)).astype(np.float32) for _ in range(2))
    results = []
    for limit in (1 << 30, 1 << 20):
        c = np.zeros((n, n), np.float32)
        k.launch((1, 1), [a, b, c, n, n, n])                # warm the plan
        tracemalloc.start()
        info = k.launch((n // 64, n // 64), [a, b, c, n, n, n], max_memory=limit, threads=1,
                        mma="exact")
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        results.append((info.batches, peak, c.copy()))
    (b1, p1, c1), (b2, p2, c2) = results
    assert b1 == 1 and b2 > 1
    assert p2 < p1 and p2 < 3 << 20
    assert c1.tobytes() == c2.tobytes()


def _threaded_and_single(name: str, threads: int) -> list:
    """Launch example ``name`` with 1 and ``threads`` threads; same bits; threads used."""
    from tileir.cli.demo import load_example
    ex = load_example(EXAMPLES / f"{name}.py")
    kernel = tileir.compile(tileir.load(EXAMPLES / f"{name}.mlir"), ex.KERNEL)
    outs, used = [], []
    for t in (1, threads):
        grid, args = ex.setup(np.random.default_rng(5))
        info = kernel.launch(grid, args, threads=t, max_memory=1 << 22)
        outs.append([a.tobytes() for a in args if isinstance(a, np.ndarray)])
        assert info.mode == "batched" and info.batches >= info.threads
        used.append(info.threads)
        assert info.threads == t or (t > 1 and info.threads == 1 and
                                     info.blocks * kernel.max_tile < (1 << 16))
    assert outs[0] == outs[1]
    return used


@pytest.mark.parametrize("name,threads", [("matmul", 3), ("softmax", 4), ("attention", 2)])
def test_threaded_launches_give_the_same_bits(name, threads):
    _threaded_and_single(name, threads)


def test_some_example_launch_really_uses_threads():
    assert _threaded_and_single("softmax", 4)[1] == 4


def test_default_threads_follow_the_work():
    """By default a cheap memory-bound launch stays on one thread (hand-offs would cost more
    than they gain); one with several compute ops per element uses every core."""
    import os
    from tileir.execute.launch import MIN_THREADED_WORK
    vadd = tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "vector_add")
    n = 1 << 20
    a = np.ones(n, np.float32)
    assert n * vadd.compute_ops < MIN_THREADED_WORK
    assert vadd.launch((n // 1024,), [a, a.copy(), np.zeros(n, np.float32), n]).threads == 1
    soft = tileir.compile(tileir.load(EXAMPLES / "softmax.mlir"), "softmax")
    x = np.ones((1024, 1024), np.float32)
    info = soft.launch((1024,), [x, np.zeros_like(x), 1024, 1024, 1024, 1024])
    assert info.threads == min(os.cpu_count() or 1, info.batches)


def test_block_id_lanes_kept_between_launches_within_a_bound():
    """The block-id lanes of a chunk are kept for the next launch (read-only), but never more
    than the bound in all."""
    import importlib
    from tileir.execute.plan import Runtime
    L = importlib.import_module("tileir.execute.launch")     # (the package exports a launch())
    rt = Runtime()
    L._set_lanes(rt, 2, 7, (3, 2, 1))
    assert rt.lanes == 5 and list(rt.bx) == [2, 0, 1, 2, 0] and list(rt.by) == [0, 1, 1, 1, 0]
    first = rt.bx
    L._set_lanes(rt, 2, 7, (3, 2, 1))
    assert rt.bx is first and not first.flags.writeable
    for start in range(0, 64 * L._LANE_IDS_MAX // 8, L._LANE_IDS_MAX // 8):
        L._set_lanes(rt, start, start + L._LANE_IDS_MAX // 8, (1 << 24, 1, 1))
        held = sum(b - a for a, b, _ in L._LANE_IDS)
        assert held == L._LANE_IDS_HELD[0] <= L._LANE_IDS_MAX
