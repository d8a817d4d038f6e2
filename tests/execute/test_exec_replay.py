"""A launch with the same argument values as the kernel's previous one replays the pure values
that launch computed (the prologue, each chunk's block-id arithmetic: execute/replay.py)
instead of computing them again.  Memory contents are read afresh (changed arrays give new
results), other argument values make a new memo, lane subsets after a divergence never use it,
and results are the bits of a fresh kernel's launch (the differential suites check this for
every example and cuTile kernel too: tests/execute/differential.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir.execute import replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _kernel(example: str, entry: str) -> tileir.Kernel:
    return tileir.compile(tileir.load(EXAMPLES / f"{example}.mlir"), entry)


def _memo(kernel: tileir.Kernel) -> replay.LaunchMemo:
    plan = kernel._plan(False)
    assert plan.memo is not None
    return plan.memo


def test_second_launch_replays_and_gives_the_same_bits():
    rng = np.random.default_rng(1)
    m, n, k = 256, 192, 96
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    kern = _kernel("matmul", "matmul_f32")
    c1 = np.zeros((m, n), np.float32)
    kern.launch((m // 64, n // 64), [a, b, c1, m, n, k])
    memo = _memo(kern)
    assert memo.replays == 0 and memo.prologue is not None and memo.chunks
    c2 = np.zeros((m, n), np.float32)           # another array of the same size: same key
    kern.launch((m // 64, n // 64), [a, b, c2, m, n, k])
    assert _memo(kern) is memo and memo.replays > 0
    fresh = np.zeros((m, n), np.float32)
    _kernel("matmul", "matmul_f32").launch((m // 64, n // 64), [a, b, fresh, m, n, k])
    assert c2.tobytes() == c1.tobytes() == fresh.tobytes()


def test_changed_array_contents_are_read_again():
    n = 5000
    a = np.arange(n, dtype=np.float32)
    b = np.ones(n, np.float32)
    c = np.zeros(n, np.float32)
    kern = _kernel("vector_add", "vector_add")
    grid = (-(-n // 1024),)
    kern.launch(grid, [a, b, c, n])
    a[...] = -a                                  # same arrays, new contents
    kern.launch(grid, [a, b, c, n])
    assert _memo(kern).replays > 0
    np.testing.assert_array_equal(c, -np.arange(n, dtype=np.float32) + 1)


def test_other_scalar_values_make_a_new_memo():
    n = 5000
    a = np.arange(n, dtype=np.float32)
    b = np.ones(n, np.float32)
    kern = _kernel("vector_add", "vector_add")
    grid = (-(-n // 1024),)
    kern.launch(grid, [a, b, np.zeros(n, np.float32), n])
    first = _memo(kern)
    c = np.zeros(n, np.float32)
    kern.launch(grid, [a, b, c, 4500])          # n = 4500: the last tile is masked past it
    assert _memo(kern) is not first and _memo(kern).replays == 0
    np.testing.assert_array_equal(c[:4500], a[:4500] + 1)
    assert not c[4500:].any()


def test_threaded_chunks_replay_each_their_own_values():
    n = 1 << 21
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    kern = _kernel("vector_add", "vector_add")
    outs = []
    for _ in range(2):
        c = np.zeros(n, np.float32)
        kern.launch((n // 1024,), [a, b, c, n], threads=2, max_memory=1 << 22)
        outs.append(c)
    memo = _memo(kern)
    assert len(memo.chunks) > 2 and memo.replays > 0
    np.testing.assert_array_equal(outs[1], a + b)
    assert outs[0].tobytes() == outs[1].tobytes()


def test_launch_key_is_none_for_large_tile_arguments():
    assert replay.launch_key([np.zeros(1000, np.float32)], (1, 1, 1)) is None
    key = replay.launch_key([np.zeros(1, np.int32), None], (4, 1, 1))
    assert key == replay.launch_key([np.zeros(1, np.int32), None], (4, 1, 1))
    assert key != replay.launch_key([np.ones(1, np.int32), None], (4, 1, 1))
    assert key != replay.launch_key([np.zeros(1, np.int32), None], (2, 2, 1))


def test_memo_keeps_bounded_values(monkeypatch):
    memo = replay.LaunchMemo(("k",))
    kept: dict = {}
    memo.keep(kept, 0, np.zeros(4, np.int32))
    memo.keep(kept, 1, np.zeros(replay.MAX_VALUE_BYTES + 8, np.uint8))
    memo.keep(kept, 2, object())
    assert list(kept) == [0] and not kept[0].flags.writeable     # (read-only: shared)
    monkeypatch.setattr(replay, "MAX_MEMO_BYTES", memo.bytes + 8)
    memo.keep(kept, 3, np.zeros(4, np.int32))
    assert list(kept) == [0]


def test_all_memos_share_one_budget_given_back_when_dropped(monkeypatch):
    import gc
    start = replay._total[0]
    monkeypatch.setattr(replay, "MAX_TOTAL_BYTES", start + 1000)
    first, second = replay.LaunchMemo(("a",)), replay.LaunchMemo(("b",))
    kept_a: dict = {}
    kept_b: dict = {}
    first.keep(kept_a, 0, np.zeros(100, np.int64))            # 800 bytes
    second.keep(kept_b, 0, np.zeros(100, np.int64))           # over the shared budget
    assert list(kept_a) == [0] and kept_b == {}
    assert replay._total[0] == start + 800
    del first, kept_a
    gc.collect()
    assert replay._total[0] == start                          # given back
    second.keep(kept_b, 0, np.zeros(100, np.int64))
    assert list(kept_b) == [0]


DIVERGENT = """
cuda_tile.module @m {
  entry @k(%x: tile<ptr<f32>>, %flags: tile<ptr<i32>>, %n: tile<i32>, %blocks: tile<i32>) {
    %t = make_tensor_view %x, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %p = make_partition_view %t : partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>
    %tf = make_tensor_view %flags, shape = [%blocks], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %pf = make_partition_view %tf : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %flag1, %t1 = load_view_tko weak %pf[%bx] : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> tile<1xi32>, token
    %flag = reshape %flag1 : tile<1xi32> -> tile<i32>
    %zero = constant <i32: 0> : tile<i32>
    %two = constant <i32: 2> : tile<i32>
    %skip = cmpi not_equal %flag, %zero, signed : tile<i32> -> tile<i1>
    if %skip {
      %z = constant <f32: -1.000000e+00> : tile<16xf32>
      %t0 = store_view_tko weak %z, %p[%bx] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
      return
    }
    %q = muli %bx, %bx : tile<i32>
    %w = addi %q, %two : tile<i32>
    %f = itof %w signed : tile<i32> -> tile<f32>
    %r = reshape %f : tile<f32> -> tile<1xf32>
    %s = broadcast %r : tile<1xf32> -> tile<16xf32>
    %tok = store_view_tko weak %s, %p[%bx] : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}"""


def test_values_after_a_divergent_if():
    """Blocks whose flag (in memory) is set return inside the if; the rest of the block runs
    for the other lanes only.  Values kept from such a subset must not be installed in a later
    launch, whose flags (same arguments, new contents) pick other lanes."""
    kern = tileir.compile(tileir.parse(DIVERGENT), "k")
    blocks = 8
    flags = np.zeros(blocks, np.int32)
    for skipped in ([0, 1], [5, 6, 7], [2], []):
        flags[...] = 0
        flags[skipped] = 1
        x = np.zeros(blocks * 16, np.float32)
        info = kern.launch((blocks,), [x, flags, blocks * 16, blocks])
        assert info.mode == "batched"
        want = np.array([-1 if b in skipped else b * b + 2 for b in range(blocks)], np.float32)
        np.testing.assert_array_equal(x.reshape(blocks, 16), np.repeat(want[:, None], 16, 1))
