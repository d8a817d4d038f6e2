"""Fast paths added for the performance cliffs left by ``test_exec_perf_cliffs.py`` compute
exactly what the general path computed:

* ``reduce`` with a selecting (argmax-like) combiner over (values, indices): row-wise NumPy
  instead of the combiner body at every level of the tree (``core.SELECT_REDUCE``).  Checked
  bit for bit against the tree (the switch off) on values full of ties, NaNs of both signs,
  -0/+0 and infinities, for f32/f16/bf16/f64/i32 values, increasing and repeating (negative)
  indices, and for bodies that keep the last index, let NaN win, ignore the index, compare the
  indices unsigned, or are not a keep-the-best rule at all (the tree runs);
* the cuTile ``ct.argmax`` / ``ct.argmin`` kernels of ``tests/cutile/cpu_kernels4.py`` against
  NumPy and against ``batch=False``;
* repeated launches (and their argument errors) behave as the first one.

No timings here: see benchmarks/.
"""

from __future__ import annotations

import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

from tileir.execute.semantics import core

sys.path.insert(0, str(Path(__file__).parent))
from exec_util import ELEM_OF_DTYPE, run_snippet  # noqa: E402

U = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and \
        bool((a.view(U[a.dtype.itemsize]) == b.view(U[b.dtype.itemsize])).all())


# -- selecting reduce bodies -------------------------------------------------------------------

def _body(velem: str, ielem: str, *, vpred="greater_than", ipred="less_than", isign="signed",
          vsign="signed", nan="loses", index=True) -> str:
    """A combiner region over ``(value, index)`` pairs in cuTile's argmax form: the first
    argument wins when its value is better (``vpred``), or the values tie and its index is
    better (``ipred``; ``index=False``: never).  ``nan``: 'loses' (every number beats NaN,
    NaNs tie: cuTile's form), 'wins' (NaN beats every number) or 'none' (no NaN terms: not a
    keep-the-best rule, the tree runs)."""
    v, i = f"tile<{velem}>", f"tile<{ielem}>"
    if velem.startswith("i"):
        lines = [f"%c = cmpi {vpred} %l0, %r0, {vsign} : {v} -> tile<i1>",
                 f"%tie = cmpi equal %l0, %r0, {vsign} : {v} -> tile<i1>"]
        win = "%c"
    else:
        lines = [f"%c = cmpf {vpred} ordered %l0, %r0 : {v} -> tile<i1>",
                 f"%eq = cmpf equal ordered %l0, %r0 : {v} -> tile<i1>",
                 f"%ln = cmpf not_equal unordered %l0, %l0 : {v} -> tile<i1>",
                 f"%rn = cmpf not_equal unordered %r0, %r0 : {v} -> tile<i1>",
                 f"%lnum = cmpf equal ordered %l0, %l0 : {v} -> tile<i1>",
                 f"%rnum = cmpf equal ordered %r0, %r0 : {v} -> tile<i1>",
                 "%nn = andi %ln, %rn : tile<i1>",
                 "%tie = ori %eq, %nn : tile<i1>"]
        win = "%c"
        if nan == "loses":
            lines += ["%nanb = andi %lnum, %rn : tile<i1>", "%w0 = ori %c, %nanb : tile<i1>"]
            win = "%w0"
        elif nan == "wins":
            lines += ["%nana = andi %ln, %rnum : tile<i1>", "%w0 = ori %c, %nana : tile<i1>"]
            win = "%w0"
    if index:
        lines += [f"%ib = cmpi {ipred} %l1, %r1, {isign} : {i} -> tile<i1>",
                  "%t2 = andi %tie, %ib : tile<i1>", f"%w = ori {win}, %t2 : tile<i1>"]
        win = "%w"
    lines += [f"%sv = select {win}, %l0, %r0 : tile<i1>, {v}",
              f"%si = select {win}, %l1, %r1 : tile<i1>, {i}",
              f"yield %sv, %si : {v}, {i}"]
    return f"(%l0: {v}, %r0: {v}, %l1: {i}, %r1: {i}) {{\n      " + \
        "\n      ".join(lines) + "\n    }"


def _reduce(x: np.ndarray, idx: np.ndarray, body: str, fast: bool, dim: int = 1):
    """Run ``reduce`` of ``(x, idx)`` along ``dim`` with the combiner ``body``; the fast path
    on or off."""
    velem, ielem = ELEM_OF_DTYPE[x.dtype], ELEM_OF_DTYPE[idx.dtype]
    shape = "x".join(map(str, x.shape))
    out = tuple(d for k, d in enumerate(x.shape) if k != dim)
    oshape = "x".join(map(str, out))
    zero = "0" if velem.startswith("i") else "0.0"
    text = (f"%red:2 = reduce %a0, %a1 dim={dim} identities=[{zero} : {velem}, 0 : {ielem}] : "
            f"tile<{shape}x{velem}>, tile<{shape}x{ielem}> -> tile<{oshape}x{velem}>, "
            f"tile<{oshape}x{ielem}>\n    " + body)
    old = core.SELECT_REDUCE
    core.SELECT_REDUCE = fast
    try:
        return run_snippet(text, [x, idx], [("%red#0", out, velem), ("%red#1", out, ielem)])
    finally:
        core.SELECT_REDUCE = old


def _both(x, idx, body, dim=1):
    """The fast path's results, checked to be the tree's bits."""
    fast = _reduce(x, idx, body, True, dim)
    tree = _reduce(x, idx, body, False, dim)
    for a, b in zip(fast, tree):
        assert same_bits(a, b)
    return fast


def _values(dt, shape, seed: int) -> np.ndarray:
    """Values full of ties: a small pool (for floats with NaNs of both signs and payloads,
    -0/+0, infinities), some rows all NaN, all equal, or -0/+0 only."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dt)
    if ELEM_OF_DTYPE[dt].startswith("i"):
        x = rng.integers(-3, 4, shape).astype(dt)
        x[1] = 7
        x[2, ::3] = np.iinfo(dt).min
        x[3, 5] = np.iinfo(dt).max
        return x
    pool = np.array([0.0, -0.0, 1.0, -1.0, 2.5, np.inf, -np.inf, np.nan, -np.nan],
                    np.float64).astype(dt)
    x = rng.choice(pool, shape)
    u = x.view(U[dt.itemsize])
    nan_bits = np.array([np.nan], dt).view(U[dt.itemsize])[0]
    x[4, ::2] = np.array([1 | int(nan_bits), 3 | int(nan_bits)] * (shape[1] // 4 + 1),
                         U[dt.itemsize])[:x[4, ::2].size].view(dt)   # NaN payloads
    x[5] = np.nan
    x[6] = -np.array(np.nan, dt)
    x[7] = 1.0
    x[8] = np.where(np.arange(shape[1]) % 2, -0.0, 0.0).astype(dt)
    x[9] = np.where(np.arange(shape[1]) % 3, np.nan, -np.inf).astype(dt)
    assert u.shape == x.shape
    return x


def _indices(kind: str, idt, shape, seed: int) -> np.ndarray:
    if kind == "iota":
        return np.broadcast_to(np.arange(shape[1], dtype=idt), shape).copy()
    return np.random.default_rng(seed).integers(-4, 5, shape).astype(idt)


def _nanarg_reference(x: np.ndarray, larger: bool) -> np.ndarray:
    """cuTile's argmax/argmin: the first position of the best number, NaN ignored (a row of
    NaNs only: position 0)."""
    w = x.astype(np.float64)
    out = []
    for row in w:
        ok = ~np.isnan(row)
        if not ok.any():
            out.append(0)
            continue
        best = row[ok].max() if larger else row[ok].min()
        out.append(int(np.flatnonzero(row == best)[0]))
    return np.array(out)


FLOATS = [np.float32, np.float16, ml_dtypes.bfloat16, np.float64]


@pytest.mark.parametrize("dt", FLOATS + [np.int32])
@pytest.mark.parametrize("larger", [True, False])
def test_cutile_argmax_body_equals_tree_and_numpy(dt, larger):
    x = _values(dt, (16, 64), 1)
    elem = ELEM_OF_DTYPE[np.dtype(dt)]
    body = _body(elem, "i32", vpred="greater_than" if larger else "less_than")
    v, i = _both(x, _indices("iota", np.int32, x.shape, 0), body)
    if not ELEM_OF_DTYPE[np.dtype(dt)].startswith("i"):
        want = _nanarg_reference(x, larger)
    else:
        want = (np.argmax if larger else np.argmin)(x, axis=1)
    np.testing.assert_array_equal(i, want)
    assert same_bits(v, x[np.arange(x.shape[0]), want])


@pytest.mark.parametrize("dt", FLOATS + [np.int32])
@pytest.mark.parametrize("variant", [
    dict(), dict(vpred="less_than"), dict(ipred="greater_than"), dict(nan="wins"),
    dict(nan="wins", vpred="less_than", ipred="greater_than"), dict(index=False),
    dict(isign="unsigned"), dict(ipred="greater_than", isign="unsigned"),
    dict(nan="none"), dict(vsign="unsigned"), dict(vpred="greater_than_or_equal"),
])
@pytest.mark.parametrize("kind", ["iota", "repeats"])
def test_selecting_bodies_equal_tree(dt, variant, kind):
    """Every variant (kept by the fast path or not) gives the tree's bits, with increasing
    indices and with repeated / negative ones (full ties: the same value and index)."""
    elem = ELEM_OF_DTYPE[np.dtype(dt)]
    if elem.startswith("f") or elem == "bf16":
        if variant.get("vsign"):
            pytest.skip("signedness is for integer values")
    elif variant.get("nan"):
        pytest.skip("NaN rules are for float values")
    x = _values(dt, (16, 32), 2)
    _both(x, _indices(kind, np.int32, x.shape, 3), _body(elem, "i32", **variant))


@pytest.mark.parametrize("dt", [np.float32, np.int32])
def test_selecting_body_i64_indices_and_dim0(dt):
    elem = ELEM_OF_DTYPE[np.dtype(dt)]
    x = _values(dt, (16, 32), 4)
    for kind in ("iota", "repeats"):
        _both(x, _indices(kind, np.int64, x.shape, 5), _body(elem, "i64"))
        _both(np.ascontiguousarray(x.T), np.ascontiguousarray(_indices(kind, np.int32, x.shape,
                                                                         6).T),
              _body(elem, "i32", ipred="greater_than"), dim=0)


def test_selecting_body_random_bits():
    """Random f32/f16 bit patterns (NaN payloads, subnormals) with few distinct values."""
    rng = np.random.default_rng(7)
    for dt, u in ((np.float32, np.uint32), (np.float16, np.uint16)):
        pool = rng.integers(0, np.iinfo(u).max, 40, dtype=u, endpoint=True).view(dt)
        x = rng.choice(pool, (32, 64))
        for kind in ("iota", "repeats"):
            for nan in ("loses", "wins"):
                _both(x, _indices(kind, np.int32, x.shape, 8),
                      _body(ELEM_OF_DTYPE[np.dtype(dt)], "i32", nan=nan))


def test_not_a_selecting_body_runs_the_tree():
    """A body computing a new value (an add) is not taken for a selecting one."""
    from tileir.execute.semantics import _select_reduce
    import tileir
    body = _body("f32", "i32").replace("%sv = select %w, %l0, %r0 : tile<i1>, tile<f32>",
                                       "%sv = addf %l0, %r0 : tile<f32>")
    x = np.arange(64, dtype=np.float32).reshape(4, 16)
    v, i = _both(x, _indices("iota", np.int32, x.shape, 0), body)
    assert same_bits(v, x.sum(axis=1))
    text = ("cuda_tile.module @m {\n entry @k(%a: tile<4x16xf32>, %b: tile<4x16xi32>) {\n"
            "  %red:2 = reduce %a, %b dim=1 identities=[0.0 : f32, 0 : i32] : tile<4x16xf32>, "
            "tile<4x16xi32> -> tile<4xf32>, tile<4xi32>\n    " + body + "\n  return\n }\n}\n")
    try:
        module = tileir.parse(text, "t.mlir")
    except Exception:  # noqa: BLE001 - entry tile arguments may not be allowed; covered above
        return
    red = [op for op in module.walk() if op.name == "cuda_tile.reduce"][0]
    assert not _select_reduce.selecting_body(red.regions[0].blocks[0])


# -- the cuTile kernels ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kernels():
    pytest.importorskip("cuda.tile")
    pytest.importorskip("cuda.tile.compilation")
    sys.path.insert(0, str(Path(__file__).parents[1] / "cutile"))
    import cpu_kernels4
    return cpu_kernels4


def _launch_all(kernel, grid, make_args, out_index):
    """Launch batched (fast path on and off) and one block at a time, on fresh argument
    copies; the outputs must be the same bits.  Returns the batched outputs."""
    import tileir.cutile as tc
    outs = []
    for batch, fast in ((True, True), (True, False), (False, True)):
        args = make_args()
        old = core.SELECT_REDUCE
        core.SELECT_REDUCE = fast
        try:
            tc.launch(kernel, grid, args, batch=batch)
        finally:
            core.SELECT_REDUCE = old
        outs.append([args[k] for k in out_index])
    for other in outs[1:]:
        for a, b in zip(outs[0], other):
            assert same_bits(a, b)
    return outs[0]


@pytest.mark.parametrize("dt", [np.float32, np.float16, np.int32])
def test_cutile_argmax_argmin_rows(kernels, dt):
    rng = np.random.default_rng(20)
    if not ELEM_OF_DTYPE[np.dtype(dt)].startswith("i"):
        x = rng.standard_normal((64, 128)).astype(dt)
        x[:, ::7] = np.round(x[:, ::7])                      # ties
        x[3, 10:20] = np.nan
        x[4] = np.nan
        x[5, 17] = np.inf
        x[6, :] = -0.0
        x[6, 9] = 0.0
    else:
        x = rng.integers(-5, 6, (64, 128)).astype(dt)
    for kern, larger in ((kernels.argmax_rows, True), (kernels.argmin_rows, False)):
        for tm in (1, 16):
            (o,) = _launch_all(kern, (64 // tm,), lambda: [x, np.zeros(64, np.int32), tm, 128],
                               [1])
            want = _nanarg_reference(x, larger) if not ELEM_OF_DTYPE[np.dtype(dt)].startswith("i") else \
                (np.argmax if larger else np.argmin)(x, axis=1)
            np.testing.assert_array_equal(o, want)


def test_cutile_argmax_cols(kernels):
    rng = np.random.default_rng(21)
    x = rng.integers(-3, 4, (64, 128)).astype(np.float32)
    x[:, 5] = np.nan
    (o,) = _launch_all(kernels.argmax_cols, (4,), lambda: [x, np.zeros(128, np.int32), 64, 32],
                       [1])
    np.testing.assert_array_equal(o, _nanarg_reference(x.T, True))


@pytest.mark.parametrize("elem,variant,taken", [
    ("f32", dict(), True), ("f32", dict(ipred="greater_than"), True),
    ("f32", dict(nan="wins"), True), ("f32", dict(index=False), True),
    ("f32", dict(isign="unsigned"), True), ("f32", dict(nan="none"), False),
    ("f32", dict(vpred="greater_than_or_equal"), False), ("i32", dict(), True),
    ("i32", dict(index=False), True), ("i32", dict(vsign="unsigned"), True),
])
def test_which_bodies_take_the_fast_path(monkeypatch, elem, variant, taken):
    from tileir.execute.semantics import _select_reduce
    calls = []
    real = _select_reduce.select_rows
    monkeypatch.setattr(_select_reduce, "select_rows",
                        lambda *a: calls.append(a[2]) or real(*a))
    x = _values(np.float32 if elem == "f32" else np.int32, (16, 32), 9)
    _reduce(x, _indices("repeats", np.int32, x.shape, 9), _body(elem, "i32", **variant), True)
    assert bool(calls) == taken


# -- per-launch work -----------------------------------------------------------------------------

def test_repeated_launches_check_grids_and_scalars_as_the_first():
    """Grids and integer scalars bound through the per-kernel shortcuts: the same values and
    the same errors as the general checks, on every launch."""
    import tileir
    from tileir.execute.errors import ArgumentError, GridError
    text = """cuda_tile.module @m {
  entry @k(%p: tile<ptr<i64>>, %a: tile<i8>, %b: tile<i64>) {
    %t = make_tensor_view %p, shape = [2], strides = [1] : tensor_view<2xi64, strides=[1]>
    %pv = make_partition_view %t : partition_view<tile=(2), tensor_view<2xi64, strides=[1]>>
    %a64 = exti %a signed : tile<i8> -> tile<i64>
    %r = reshape %a64 : tile<i64> -> tile<1xi64>
    %s = reshape %b : tile<i64> -> tile<1xi64>
    %v = cat %r, %s dim = 0 : tile<1xi64>, tile<1xi64> -> tile<2xi64>
    %c0 = constant <i32: 0> : tile<i32>
    %tok = store_view_tko weak %v, %pv[%c0] : tile<2xi64>, partition_view<tile=(2), tensor_view<2xi64, strides=[1]>>, tile<i32> -> token
    return
  }
}
"""
    kernel = tileir.compile(tileir.parse(text, "t.mlir"), "k")
    out = np.zeros(2, np.int64)
    for _ in range(2):
        for a, b, want in ((-128, 2**63 - 1, (-128, 2**63 - 1)), (255, 2**64 - 1, (-1, -1)),
                           (127, -(2**63), (127, -(2**63))), (np.int8(-3), 5, (-3, 5)),
                           (True, 1, (1, 1))):
            kernel.launch((1,), [out, a, b])
            assert out.tolist() == list(want)
        for a, b in ((256, 0), (-129, 0), (0, 2**64), (1.0, 0), ("1", 0)):
            with pytest.raises(ArgumentError):
                kernel.launch((1,), [out, a, b])
        for grid in ((0,), (1 << 24,), (1, 1, 1, 1), ([1],), (1.0,)):
            with pytest.raises(GridError):
                kernel.launch(grid, [out, 1, 1])
        assert kernel.launch((1, 1), [out, 1, 1]).grid == (1, 1, 1)
        assert kernel.launch(np.int32(1), [out, 1, 1]).grid == (1, 1, 1)


def test_cutile_repeated_tiny_launches(kernels):
    import tileir.cutile as tc
    from tileir.execute.errors import ArgumentError, GridError
    a = np.arange(64, dtype=np.float32)
    b = np.ones(64, np.float32)
    for _ in range(3):
        c = np.zeros(64, np.float32)
        tc.launch(kernels.vec_add_small, (1,), (a, b, c, 64))
        assert same_bits(c, a + b)
        for grid in ((0,), (True,), (1.5,), [1], (1, 1, 1, 1)):
            with pytest.raises((ArgumentError, GridError)):
                tc.launch(kernels.vec_add_small, grid, (a, b, c, 64))
