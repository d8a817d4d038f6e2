"""An addf/subf/mulf/divf whose only use is the store right after it is computed straight into
memory (values.Deferred, views._compute_into): same bits as computing then storing, NaNs
canonical, edge tiles, lanes storing one tile, in-place updates, and the sequential path."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.execute.semantics import floating_point


def kernel(op: str, el: str, tile: int, out_index: str = "%bx") -> str:
    tv = f"tensor_view<?x{el}, strides=[1]>"
    pv = f"partition_view<tile=({tile}), {tv}>"
    return f"""
cuda_tile.module @m {{
  entry @k(%a: tile<ptr<{el}>>, %b: tile<ptr<{el}>>, %c: tile<ptr<{el}>>, %n: tile<i32>) {{
    %ta = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %tb = make_tensor_view %b, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %tc = make_tensor_view %c, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %pa = make_partition_view %ta : {pv}
    %pb = make_partition_view %tb : {pv}
    %pc = make_partition_view %tc : {pv}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %x, %t0 = load_view_tko weak %pa[%bx] : {pv}, tile<i32> -> tile<{tile}x{el}>, token
    %y, %t1 = load_view_tko weak %pb[%bx] : {pv}, tile<i32> -> tile<{tile}x{el}>, token
    %z = {op} %x, %y : tile<{tile}x{el}>
    %t2 = store_view_tko weak %z, %pc[{out_index}] : tile<{tile}x{el}>, {pv}, tile<i32> -> token
    return
  }}
}}
"""


def run(text, grid, args, monkeypatch=None, fused=True, **kw):
    if not fused:
        monkeypatch.setattr(floating_point, "stored_next", lambda op: False)
    try:
        k = tileir.compile(tileir.parse(text), "k")
        k.launch(grid, args, **kw)
    finally:
        if not fused:
            monkeypatch.undo()


@pytest.mark.parametrize("op", ["addf", "subf", "mulf", "divf"])
@pytest.mark.parametrize("el,dt", [("f32", np.float32), ("f64", np.float64)])
@pytest.mark.parametrize("n", [4096, 4000])          # 4000: the last tile is cut
def test_same_bits_as_store_of_computed_tile(op, el, dt, n, monkeypatch):
    rng = np.random.default_rng(2)
    a = rng.standard_normal(n).astype(dt)
    b = rng.standard_normal(n).astype(dt)
    a[:6] = [np.inf, 0.0, np.inf, -0.0, np.nan, 1.0]
    b[:6] = [-np.inf, 0.0, 0.0, 0.0, 1.0, -0.0]            # inf-inf, 0/0, inf*0: NaNs
    text = kernel(op, el, 256)
    grid = (-(-n // 256),)
    got, want = np.zeros(n, dt), np.zeros(n, dt)
    run(text, grid, [a, b, got, n])
    run(text, grid, [a, b, want, n], monkeypatch, fused=False)
    assert got.tobytes() == want.tobytes()
    nan = got.view(np.uint64 if dt == np.float64 else np.uint32)[np.isnan(got)]
    canonical = 0x7FFFFFFFFFFFFFFF if dt == np.float64 else 0x7FFFFFFF
    assert nan.size and (nan == canonical).all()
    # one block at a time gives the same bits too
    seq = np.zeros(n, dt)
    run(text, grid, [a, b, seq, n], batch=False)
    assert seq.tobytes() == got.tobytes()


def test_every_lane_storing_one_tile_keeps_the_last_lane(monkeypatch):
    text = kernel("addf", "f32", 128, out_index="%c0")
    a = np.arange(1024, dtype=np.float32)
    b = np.ones(1024, np.float32)
    got, want = np.zeros(1024, np.float32), np.zeros(1024, np.float32)
    run(text, (8,), [a, b, got, 1024])
    run(text, (8,), [a, b, want, 1024], monkeypatch, fused=False)
    assert got.tobytes() == want.tobytes()
    np.testing.assert_array_equal(got[:128], a[-128:] + 1)


def test_in_place_update(monkeypatch):
    """c = a + c with c both read and written (the kernel's arguments alias)."""
    text = kernel("mulf", "f32", 64)
    a = np.linspace(-3, 3, 1024).astype(np.float32)
    c = np.linspace(1, 2, 1024).astype(np.float32)
    got, want = c.copy(), c.copy()
    run(text, (16,), [a, got, got, 1024])
    run(text, (16,), [a, want, want, 1024], monkeypatch, fused=False)
    assert got.tobytes() == want.tobytes()
    np.testing.assert_array_equal(got, a * c)


def test_read_only_output_reports_as_before(monkeypatch):
    text = kernel("addf", "f32", 64)
    a = np.ones(256, np.float32)
    out = np.zeros(256, np.float32)
    out.flags.writeable = False
    errors = []
    for fused in (True, False):
        with pytest.raises(Exception) as exc:
            run(text, (4,), [a, a.copy(), out, 256], monkeypatch, fused=fused)
        errors.append(str(exc.value))
    assert errors[0] == errors[1]
