"""Zero-copy loads (tileir.execute.aliasing): only through views of memory no store writes,
and only when no two array arguments share memory."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir.execute.aliasing import read_only_views

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# d[tile b] = a[tile b] after c[tile b] = 7: if a and c are the same array, d must still get
# a's old values (the load happened before the store)
LOAD_STORE_STORE = """cuda_tile.module @m {
  entry @k(%a: tile<ptr<f32>>, %c: tile<ptr<f32>>, %d: tile<ptr<f32>>, %n: tile<i32>) {
    %ta = make_tensor_view %a, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tc = make_tensor_view %c, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %td = make_tensor_view %d, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %pa = make_partition_view %ta : partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>
    %pc = make_partition_view %tc : partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>
    %pd = make_partition_view %td : partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %x, %t0 = load_view_tko weak %pa[%bx] : partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<64xf32>, token
    %seven = constant <f32: 7.0> : tile<64xf32>
    %t1 = store_view_tko weak %seven, %pc[%bx] : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %t2 = store_view_tko weak %x, %pd[%bx] : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}"""


def _entry(module):
    return next(op for op in module.walk() if op.name == "cuda_tile.entry")


def test_read_only_views_follow_parameters():
    module = tileir.parse(LOAD_STORE_STORE)
    entry = _entry(module)
    ro = read_only_views(entry)
    names = {op.results[0] for op in entry.walk() if op.name.endswith("make_partition_view")}
    args = entry.regions[0].blocks[0].args
    assert args[0] in ro and args[1] not in ro and args[2] not in ro
    assert len(ro & names) == 1                          # the view of %a only
    # a store through a pointer of unknown origin makes nothing read-only
    unknown = LOAD_STORE_STORE.replace(
        "%tc = make_tensor_view %c,",
        "%ci = ptr_to_int %c : tile<ptr<f32>> -> tile<i64>\n"
        "    %cp = int_to_ptr %ci : tile<i64> -> tile<ptr<f32>>\n"
        "    %tc = make_tensor_view %cp,")
    assert read_only_views(_entry(tileir.parse(unknown))) == set()


@pytest.mark.parametrize("batch", [True, False])
def test_aliased_arguments_still_load_before_the_store(batch):
    kernel = tileir.compile(tileir.parse(LOAD_STORE_STORE), "k")
    n = 64 * 8
    a = np.arange(n, dtype=np.float32)
    d = np.zeros(n, np.float32)
    kernel.launch((8,), [a, a, d, n], batch=batch)         # a is also c
    assert not kernel.rt.zero_copy
    assert (a == 7).all() and (d == np.arange(n)).all()
    a2, c2, d2 = np.arange(n, dtype=np.float32), np.zeros(n, np.float32), np.zeros(n, np.float32)
    kernel.launch((8,), [a2, c2, d2, n], batch=batch)
    assert kernel.rt.zero_copy                              # disjoint arrays: views allowed
    assert (c2 == 7).all() and (d2 == a2).all()


def test_overlapping_slices_of_one_array_disable_views():
    kernel = tileir.compile(tileir.parse(LOAD_STORE_STORE), "k")
    n = 64 * 4
    buf = np.arange(2 * n, dtype=np.float32)
    d = np.zeros(n, np.float32)
    kernel.launch((4,), [buf[:n], buf[n // 2: n // 2 + n], d, n])
    assert not kernel.rt.zero_copy
    assert (d[: n // 2] == np.arange(n // 2)).all()         # loaded before c's stores


def test_one_array_for_two_read_only_parameters_keeps_views():
    """c = a + b with the same array for a and b: neither is written, so loads may still be
    views of it (an in-place c = a + a, where c is a too, may not)."""
    kernel = tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "vector_add")
    n = 1024 * 8
    a = np.arange(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    kernel.launch((8,), [a, a, c, n])
    assert kernel.rt.zero_copy
    assert (c == 2 * a).all()
    kernel.launch((8,), [a, a, a, n])                     # written and read: copies
    assert not kernel.rt.zero_copy
    assert (a == 2 * np.arange(n, dtype=np.float32)).all()
