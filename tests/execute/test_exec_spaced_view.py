"""Lock-step loads and stores whose lanes' tiles are evenly spaced in memory take one strided
view of every lane's tile (views._Access.spaced_view): the same values as one block at a time
and as NumPy, for steps of 1, 2, 0 and -1 along either dimension of a 2-D view, for lanes that
number a grid of tiles (a lane axis per digit), and the general path's behaviour (errors, edge
tiles, uneven spacing) where the fast path does not apply."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.execute import facts
from tileir.execute.semantics import views

#: index expressions of the block id %bx (gx = 8 blocks), as (ops, result, numpy of bx)
INDEX = {
    "bx": ("", "%bx", lambda bx: bx),
    "twice": ("%i = muli %bx, %c2 : tile<i32>", "%i", lambda bx: 2 * bx),
    "reversed": ("%i = subi %c7, %bx : tile<i32>", "%i", lambda bx: 7 - bx),
    "zero": ("", "%c0", lambda bx: 0 * bx),
    "squared": ("%i = muli %bx, %bx : tile<i32>", "%i", lambda bx: bx * bx),
}


def module(body: str, names: list, tile: tuple = (4, 8), value: str = "negf %x") -> str:
    """``c[names[2], names[3]] = -a[names[0], names[1]]`` on 2-D f32 partition views of tiles
    ``tile``, after the ops ``body`` (lines) that compute the index values from ``%bx``
    (``value``: the op computing the stored tile from the loaded ``%x`` instead of ``negf``)."""
    tv = "tensor_view<?x?xf32, strides=[?,1]>"
    pv = f"partition_view<tile=({tile[0]}x{tile[1]}), {tv}>"
    tt = f"tile<{tile[0]}x{tile[1]}xf32>"
    ops = "\n    ".join(body)
    return f"""
cuda_tile.module @m {{
  entry @k(%a: tile<ptr<f32>>, %c: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>) {{
    %ta = make_tensor_view %a, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> {tv}
    %tc = make_tensor_view %c, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> {tv}
    %pa = make_partition_view %ta : {pv}
    %pc = make_partition_view %tc : {pv}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    {ops}
    %x, %t0 = load_view_tko weak %pa[{names[0]}, {names[1]}] : {pv}, tile<i32>, tile<i32> -> {tt}, token
    %y = {value} : {tt}
    %t1 = store_view_tko weak %y, %pc[{names[2]}, {names[3]}] : {tt}, {pv}, tile<i32>, tile<i32> -> token
    return
  }}
}}
"""


def kernel(load_row: str, load_col: str, store_row: str, store_col: str) -> str:
    lines = ["%c0 = constant <i32: 0> : tile<i32>", "%c2 = constant <i32: 2> : tile<i32>",
             "%c7 = constant <i32: 7> : tile<i32>"]
    names = []
    for role, key in (("lr", load_row), ("lc", load_col), ("sr", store_row), ("sc", store_col)):
        ops, res, _ = INDEX[key]
        if ops:
            lines.append(ops.replace("%i", f"%{role}"))
            res = f"%{role}"
        names.append(res)
    return module(lines, names)


def expected(a: np.ndarray, c: np.ndarray, keys: tuple) -> np.ndarray:
    """The result of running blocks 0..7 in order (a later block's store wins)."""
    out = c.copy()
    f = [INDEX[k][2] for k in keys]
    for bx in range(8):
        lr, lc, sr, sc = (int(g(bx)) for g in f)
        out[4 * sr:4 * sr + 4, 8 * sc:8 * sc + 8] = -a[4 * lr:4 * lr + 4, 8 * lc:8 * lc + 8]
    return out


CASES = [("bx", "zero", "bx", "zero"), ("zero", "bx", "zero", "bx"),
         ("twice", "bx", "reversed", "zero"), ("reversed", "reversed", "bx", "bx"),
         ("zero", "zero", "twice", "reversed"), ("squared", "zero", "bx", "zero"),
         ("bx", "zero", "zero", "zero"), ("bx", "twice", "squared", "bx")]


@pytest.mark.parametrize("keys", CASES, ids=["-".join(c) for c in CASES])
def test_matches_numpy_and_one_block_at_a_time(keys):
    m, n = 256, 512                        # index spaces 64 x 64: every index above is inside
    a = np.random.default_rng(4).standard_normal((m, n)).astype(np.float32)
    k = tileir.compile(tileir.parse(kernel(*keys)), "k")
    got, seq = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    info = k.launch((8,), [a, got, m, n])
    k.launch((8,), [a, seq, m, n], batch=False)
    assert info.mode == "batched"
    want = expected(a, np.zeros((m, n), np.float32), keys)
    assert got.tobytes() == want.tobytes()
    assert seq.tobytes() == want.tobytes()


def test_fast_path_taken_for_even_spacing_only(monkeypatch):
    """The strided view serves the evenly spaced accesses; uneven ones take the general path."""
    seen = []
    original = views._Access.spaced_view

    def spy(self, tv, idx, lanes, write):
        out = original(self, tv, idx, lanes, write)
        seen.append((write, out is not None))
        return out
    monkeypatch.setattr(views._Access, "spaced_view", spy)
    m, n = 256, 512
    a = np.ones((m, n), np.float32)
    k = tileir.compile(tileir.parse(kernel("twice", "zero", "squared", "zero")), "k")
    k.launch((8,), [a, np.zeros((m, n), np.float32), m, n])
    assert (False, True) in seen            # the load: rows 0, 2, 4, ... one view
    assert (True, False) in seen            # the store: rows 0, 1, 4, 9, ... not evenly spaced


def test_loaded_views_are_read_only_and_alias_memory():
    m, n = 256, 512
    a = np.arange(m * n, dtype=np.float32).reshape(m, n)
    k = tileir.compile(tileir.parse(kernel("twice", "zero", "bx", "zero")), "k")
    c = np.zeros((m, n), np.float32)
    k.launch((8,), [a, c, m, n])
    assert c.tobytes() == expected(a, np.zeros((m, n), np.float32),
                                   ("twice", "zero", "bx", "zero")).tobytes()


@pytest.mark.parametrize("m,n", [(30, 128), (64, 60)])
def test_edge_tiles_take_the_padded_path(m, n):
    """Tiles that cross the tensor's edge (padding on load, masking on store) are not a view."""
    a = np.random.default_rng(5).standard_normal((m, n)).astype(np.float32)
    k = tileir.compile(tileir.parse(kernel("bx", "bx", "bx", "bx")), "k")
    got, seq = np.zeros((m, n), np.float32), np.zeros((m, n), np.float32)
    k.launch((8,), [a, got, m, n])
    k.launch((8,), [a, seq, m, n], batch=False)
    assert got.tobytes() == seq.tobytes()
    pad = np.zeros((64, 128), np.float32)
    pad[:m, :n] = a
    assert np.array_equal(got, expected(pad, np.zeros((64, 128), np.float32),
                                        ("bx", "bx", "bx", "bx"))[:m, :n])


def test_index_outside_the_space_is_still_reported():
    m, n = 16, 128                           # 4 row tiles: block 4's row index is outside
    a = np.ones((m, n), np.float32)
    k = tileir.compile(tileir.parse(kernel("bx", "zero", "zero", "zero")), "k")
    with pytest.raises(tileir.LaunchError, match=r"index 4 along dimension 0 is outside"):
        k.launch((8,), [a, np.zeros((m, n), np.float32), m, n])


def test_in_place_update_copies_the_loaded_tiles():
    """The same array as source and destination (no zero-copy loads): each block negates its
    own rows in place."""
    m, n = 256, 512
    a = np.random.default_rng(6).standard_normal((m, n)).astype(np.float32)
    want = a.copy()
    want[:32, :8] = -want[:32, :8]
    k = tileir.compile(tileir.parse(kernel("bx", "zero", "bx", "zero")), "k")
    info = k.launch((8,), [a, a, m, n])
    assert info.mode == "batched"
    assert a.tobytes() == want.tobytes()


@pytest.mark.parametrize("shape,strides,ok", [
    ((8, 4, 8), (32, 2048, 4), True),        # 8 lanes of 4x8 column blocks in one row band
    ((8, 4, 8), (16, 2048, 4), False),       # lanes half a block apart: they overlap
    ((8, 4, 8), (0, 2048, 4), False),        # every lane on one tile
    ((8, 4, 8), (-32, 2048, 4), True),       # the same blocks, lanes in reverse order
    ((8, 4, 8), (32, 128, 4), False),        # the band is wider than the row stride
    ((1, 4, 8), (0, 2048, 4), True),         # one lane
    ((2, 3), (4, 0), False),                 # a tile with a zero stride repeats elements
])
def test_no_aliasing_condition(shape, strides, ok):
    assert views._no_aliasing(shape, strides, 4) is ok
    if ok:      # cross-check: every element's byte offset is distinct
        offs = sum(np.arange(n).reshape([-1 if k == d else 1 for k in range(len(shape))]) * s
                   for d, (n, s) in enumerate(zip(shape, strides)))
        offs = np.broadcast_to(offs, shape).ravel()
        assert np.unique(offs).size == offs.size


def _random_kernel(rng) -> tuple:
    """A load and a store whose indices are ``a * bx + b`` (a in -1..2) on a random 2-D view."""
    tr, tc = (int(x) for x in rng.choice([1, 2, 4, 8], 2))
    lines, names = [], []
    for role in ("lr", "lc", "sr", "sc"):
        a, b = int(rng.integers(-1, 3)), int(rng.integers(0, 4))
        if a == -1:
            lines.append(f"%{role}k = constant <i32: {b + 7}> : tile<i32>")
            lines.append(f"%{role} = subi %{role}k, %bx : tile<i32>")
        else:
            lines.append(f"%{role}a = constant <i32: {a}> : tile<i32>")
            lines.append(f"%{role}b = constant <i32: {b}> : tile<i32>")
            lines.append(f"%{role}m = muli %bx, %{role}a : tile<i32>")
            lines.append(f"%{role} = addi %{role}m, %{role}b : tile<i32>")
        names.append(f"%{role}")
    return module(lines, names, (tr, tc)), (tr, tc)


@pytest.mark.parametrize("seed", range(40))
def test_random_index_expressions_batched_equals_one_block_at_a_time(seed):
    """Random steps, offsets, tile shapes and tensor sizes (edges, overlapping stores, indices
    outside the space): lock step gives the bits (or the error) of one block at a time."""
    rng = np.random.default_rng(100 + seed)
    text, (tr, tc) = _random_kernel(rng)
    m, n = int(rng.integers(30, 140)), int(rng.integers(30, 140))
    grid = (int(rng.integers(2, 7)),)
    a = rng.standard_normal((m, n)).astype(np.float32)
    k = tileir.compile(tileir.parse(text), "k")
    outs, errors = [], []
    for batch in (True, False):
        c = np.zeros((m, n), np.float32)
        try:
            k.launch(grid, [a, c, m, n], batch=batch)
            errors.append(None)
        except tileir.LaunchError as e:
            errors.append(type(e))
        outs.append(c)
    assert errors[0] == errors[1]
    if errors[0] is None:       # (lanes storing one tile: the last block wins either way)
        assert outs[0].tobytes() == outs[1].tobytes()


def test_progression_of_index_lanes():
    p = views._progression
    assert p(np.array([3, 5, 7, 9])) == (3, 2)
    assert p(np.array([4])) == (4, 0)
    assert p(np.array([[1, 9], [0, 9], [-1, 9]])) == (1, -1)      # first element of each row
    assert p(np.array([0, 1, 3])) is None and p(np.array([0, 2, 3, 6])) is None


def test_facts_are_remembered_only_for_arrays_nothing_can_change():
    calls = []

    def count(a):
        calls.append(1)
        return int(a.sum())
    frozen = np.arange(4)
    frozen.flags.writeable = False
    assert facts.fact_of(frozen, count, count) == 6 and facts.fact_of(frozen, count, count) == 6
    assert len(calls) == 1
    live = np.arange(4)                          # writeable: read again every time
    assert facts.fact_of(live, count, count) == 6
    live[0] = 10
    assert facts.fact_of(live, count, count) == 16
    view = frozen[1:]                            # a view: its base could be another's memory
    assert facts.fact_of(view, count, count) == 6 and len(calls) == 4
    other = np.arange(4)
    other.flags.writeable = False                # (several arrays: each must be unchanging)
    assert facts.fact((frozen, other), "sum2", lambda: int(frozen.sum() + other.sum())) == 12
    assert facts.fact((frozen, other), "sum2", lambda: -1) == 12
    assert facts.fact((frozen, live), "sum2", lambda: -1) == -1


def test_remembered_facts_hold_bounded_memory(monkeypatch):
    monkeypatch.setattr(facts, "_facts", {})
    monkeypatch.setattr(facts, "_held", [0])
    monkeypatch.setattr(facts, "MAX_BYTES", 1000)
    arrays = []
    for k in range(20):
        a = np.full(25, k, np.int64)             # 200 bytes each (and the same again read)
        a.flags.writeable = False
        arrays.append(a)
        assert facts.fact_of(a, "copy", lambda x: x.copy())[0] == k
        assert facts._held[0] <= 1000
    big = np.zeros(1000, np.int64)
    big.flags.writeable = False
    facts.fact_of(big, "copy", lambda x: x.copy())
    assert all(entry[0][0] is not big for entry in facts._facts.values())   # too big to keep


@pytest.mark.parametrize("value", ["negf %x", "addf %x, %x"])
def test_lanes_numbering_a_grid_of_tiles_load_and_store_as_one_view(value, monkeypatch):
    """Blocks that number a 2-D grid of tiles column-major (tile (b % 4, b // 4), as a
    swizzled matmul numbers its blocks): each index is one digit of the lane number, so the
    lanes' tiles are one strided view of memory (a lane axis per digit) for the load and the
    store (``addf``: computed straight into memory); the same bits as one block at a time and
    as NumPy."""
    assert views._digit(np.arange(12, dtype=np.int64) % 4) == (0, 1, 1, 4)
    assert views._digit(np.arange(12, dtype=np.int64) // 4) == (0, 1, 4, 3)
    assert views._digit(np.array([0, 1, 0, 2], np.int64)) is None
    grids = []
    original = views.lane_rows
    monkeypatch.setattr(views, "lane_rows", lambda v, *a: grids.append(a[1]) or original(v, *a))
    body = ["%g = constant <i32: 4> : tile<i32>", "%i = remi %bx, %g signed : tile<i32>",
            "%j = divi %bx, %g signed : tile<i32>"]
    k = tileir.compile(tileir.parse(module(body, ["%i", "%j", "%i", "%j"], (8, 8), value)), "k")
    a = np.random.default_rng(8).standard_normal((32, 24)).astype(np.float32)
    a.view(np.uint32)[0, :2] = [0x80000000, 0x7F800000]           # -0, inf
    c = np.zeros_like(a)
    info = k.launch((12,), [a, c, 32, 24])
    assert info.mode == "batched" and grids and grids[0] == (3, 4, 8, 8)
    want = -a if value == "negf %x" else a + a
    np.testing.assert_array_equal(c.view(np.uint32), want.view(np.uint32))
    one = np.zeros_like(a)
    k.launch((12,), [a, one, 32, 24], batch=False)
    np.testing.assert_array_equal(c.view(np.uint32), one.view(np.uint32))
