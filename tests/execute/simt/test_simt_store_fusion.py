"""A float op whose only use is the store right after it is computed straight into memory
(simt/values.Deferred, memory.store_computed): the same results as computing then storing,
including stores that read what they overwrite, lanes sharing an element, other dtypes and
faults."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir import gpu
from tileir.execute.errors import MemoryAccessError
from tileir.execute.simt import memory as simt_memory
from tileir.execute.simt.ops import arith
from test_simt_core import IDS, kernel_module as module

#: these tests watch the lane engine's own fast paths (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("lane_engine")


def run_both(text, grid, block, make_args, monkeypatch):
    """(fused results, unfused results, how many stores were computed into memory)."""
    computed = []
    original = simt_memory.store_computed

    def counting(*a):
        ok = original(*a)
        computed.append(ok)
        return ok
    monkeypatch.setattr("tileir.execute.simt.ops.memref_access.store_computed", counting)
    fused = make_args()
    gpu.launch(gpu.Program(tileir.parse(text)), "m::k", grid=grid, block=block, args=fused)
    monkeypatch.setattr(arith, "_stored_next", lambda op: False)
    plain = make_args()
    gpu.launch(gpu.Program(tileir.parse(text)), "m::k", grid=grid, block=block, args=plain)
    return fused, plain, computed


@pytest.mark.parametrize("el,dt", [("f32", np.float32), ("f64", np.float64),
                                   ("f16", np.float16)])
@pytest.mark.parametrize("op", ["addf", "subf", "mulf", "divf"])
def test_binary_into_memory(el, dt, op, monkeypatch):
    text = module(IDS + f"""
      %x = memref.load %a[%i] : memref<?x{el}>
      %y = memref.load %b[%i] : memref<?x{el}>
      %z = arith.{op} %x, %y : {el}
      memref.store %z, %c[%i] : memref<?x{el}>""",
                  f"%a: memref<?x{el}>, %b: memref<?x{el}>, %c: memref<?x{el}>")
    rng = np.random.default_rng(3)
    a = rng.standard_normal(512).astype(dt)
    b = rng.standard_normal(512).astype(dt)
    b[:4] = [0, -0.0, np.inf, np.nan]
    fused, plain, computed = run_both(text, (4,), (128,),
                                      lambda: [a.copy(), b.copy(), np.zeros(512, dt)],
                                      monkeypatch)
    assert any(computed)
    assert fused[2].tobytes() == plain[2].tobytes()
    with np.errstate(all="ignore"):
        want = {"addf": a + b, "subf": a - b, "mulf": a * b, "divf": a / b}[op].astype(dt)
    np.testing.assert_array_equal(fused[2], want)


def test_store_reading_what_it_overwrites(monkeypatch):
    """c[i] = c[i] + c[i + 1]: every lane reads before any writes (the values are loads)."""
    text = module(IDS + """
      %j = arith.addi %i, %c1 : index
      %x = memref.load %c[%i] : memref<?xf32>
      %y = memref.load %c[%j] : memref<?xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %c[%i] : memref<?xf32>""", "%c: memref<?xf32>")
    c0 = np.arange(257, dtype=np.float32)
    fused, plain, _ = run_both(text, (2,), (128,), lambda: [c0.copy()], monkeypatch)
    assert fused[0].tobytes() == plain[0].tobytes()
    np.testing.assert_array_equal(fused[0][:256], c0[:256] + c0[1:])


def test_lanes_sharing_an_element_store_the_ordinary_way(monkeypatch):
    """Every thread stores to out[block]: the last thread's value, as without the fusion."""
    text = module(IDS + """
      %x = memref.load %a[%i] : memref<?xf32>
      %z = arith.mulf %x, %x : f32
      memref.store %z, %out[%bid] : memref<?xf32>""", "%a: memref<?xf32>, %out: memref<?xf32>")
    a = np.arange(256, dtype=np.float32)
    fused, plain, computed = run_both(text, (2,), (128,),
                                      lambda: [a.copy(), np.zeros(2, np.float32)], monkeypatch)
    assert not any(computed)
    np.testing.assert_array_equal(fused[1], plain[1])
    np.testing.assert_array_equal(fused[1], [127.0 ** 2, 255.0 ** 2])


def test_out_of_bounds_store_reports_as_before(monkeypatch):
    text = module(IDS + """
      %x = memref.load %a[%i] : memref<?xf32>
      %z = arith.addf %x, %x : f32
      memref.store %z, %c[%i] : memref<?xf32>""", "%a: memref<?xf32>, %c: memref<?xf32>")
    prog = gpu.Program(tileir.parse(text))
    with pytest.raises(MemoryAccessError) as fused:
        gpu.launch(prog, "m::k", grid=(2,), block=(128,),
                   args=[np.ones(256, np.float32), np.zeros(200, np.float32)])
    monkeypatch.setattr(arith, "_stored_next", lambda op: False)
    prog = gpu.Program(tileir.parse(text))
    with pytest.raises(MemoryAccessError) as plain:
        gpu.launch(prog, "m::k", grid=(2,), block=(128,),
                   args=[np.ones(256, np.float32), np.zeros(200, np.float32)])
    assert str(fused.value) == str(plain.value)
