"""More patterns that used to fall off a performance cliff in the SIMT engine, checked against
lane-by-lane NumPy references and against the engine's general path (results and fault reports
only: no timings here).

* ``memref.generic_atomic_rmw`` whose region is one arith op of the old value and another value,
  and ``memref.atomic_rmw``, with many lanes on one address: applied in lane order by
  ``ufunc.at`` or by one ordered pass over the lanes sorted by address
  (:mod:`tileir.execute.simt.ops.atomic_order`) instead of one round per colliding lane.  Every
  test runs with that path on and off (``apply_in_lane_order`` declining: the rounds) and must
  give the same bits, or the same error message.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tileir import gpu
from tileir.execute.errors import MemoryAccessError
from tileir.execute.simt.ops import atomic_order
from simt_text import kernel as _kernel, program as _prog, same_outcome as _same

BF16 = np.dtype(ml_dtypes.bfloat16)
_DT = {"f16": np.dtype(np.float16), "bf16": BF16, "f32": np.dtype(np.float32),
       "f64": np.dtype(np.float64), "i8": np.dtype(np.int8), "i16": np.dtype(np.int16),
       "i32": np.dtype(np.int32), "i64": np.dtype(np.int64), "index": np.dtype(np.int64)}


#: whether each call of the ordered path in the last :func:`_both` applied the update
TAKEN: list = []


def _both(monkeypatch, prog, grid, block, make_args):
    """The launch with the ordered path and with the rounds only: ``(fast, reference)``, each
    the argument arrays after the launch or the error message."""
    out = []
    ordered = atomic_order.apply_in_lane_order

    def spy(*a, **k):
        result = ordered(*a, **k)
        TAKEN.append(result is not None)
        return result
    TAKEN.clear()
    for reference in (False, True):
        monkeypatch.setattr(atomic_order, "apply_in_lane_order",
                            (lambda *a, **k: None) if reference else spy)
        args = make_args()
        try:
            gpu.launch(prog, "k::f", grid=grid, block=block, args=args)
            out.append([a.copy() if isinstance(a, np.ndarray) else a for a in args])
        except MemoryAccessError as e:
            out.append(str(e))
    monkeypatch.undo()
    return out


def _bits(a: np.ndarray) -> np.ndarray:
    return a.view(np.uint8)


# -- a lane-by-lane reference --------------------------------------------------------------------

def _extremum(pick_max: bool, nan_propagates: bool):
    def fn(a, b):
        if np.isnan(a) or np.isnan(b):
            if nan_propagates:
                return a if np.isnan(a) else b
            return b if np.isnan(a) else a
        if a == b == 0:
            neg = (np.signbit(a) and np.signbit(b)) if pick_max else \
                (np.signbit(a) or np.signbit(b))
            return -np.zeros((), a.dtype)[()] if neg else np.zeros((), a.dtype)[()]
        return (max if pick_max else min)(a, b)
    return fn


def _unsigned(fn):
    def run(a, b):
        u = np.dtype(f"u{a.dtype.itemsize}")
        return fn(np.array(a).view(u)[()], np.array(b).view(u)[()]).view(a.dtype)
    return run


_OPS = {
    "addf": lambda a, b: a + b, "subf": lambda a, b: a - b, "mulf": lambda a, b: a * b,
    "divf": lambda a, b: a / b,
    "maximumf": _extremum(True, True), "minimumf": _extremum(False, True),
    "maxnumf": _extremum(True, False), "minnumf": _extremum(False, False),
    "addi": lambda a, b: a + b, "subi": lambda a, b: a - b, "muli": lambda a, b: a * b,
    "andi": lambda a, b: a & b, "ori": lambda a, b: a | b, "xori": lambda a, b: a ^ b,
    "maxsi": max, "minsi": min, "maxui": _unsigned(max), "minui": _unsigned(min),
}


def _sequential(op: str, bins: np.ndarray, idx: np.ndarray, vals: np.ndarray,
                active: np.ndarray, swapped: bool = False):
    """Each active lane in lane order: (bins after, the value each lane replaced)."""
    bins = bins.copy()
    old = np.zeros(idx.size, bins.dtype)
    fn = _OPS[op]
    with np.errstate(all="ignore"):
        for lane in np.flatnonzero(active):
            k = idx[lane]
            old[lane] = bins[k]
            a, b = bins[k], vals[lane]
            bins[k] = fn(b, a) if swapped else fn(a, b)
    return bins, old


# -- generic_atomic_rmw --------------------------------------------------------------------------

def _masked_atomic(ty: str, atomic: str, used: bool) -> str:
    """A kernel whose active threads (``%on[i] != 0``) apply ``atomic`` (text defining ``%o``
    from ``%v = vals[i]`` and ``%bins[%k]``, ``%k = idx[i]``), storing ``%o`` to ``old[i]``
    when ``used``."""
    store = f"\n        memref.store %o, %old[%i] : memref<?x{ty}>" if used else ""
    return _kernel(f"%vals: memref<?x{ty}>, %idx: memref<?xindex>, %on: memref<?xi8>, "
                   f"%bins: memref<?x{ty}>, %old: memref<?x{ty}>", f"""
      %i = gpu.global_id x
      %m = memref.load %on[%i] : memref<?xi8>
      %z = arith.constant 0 : i8
      %active = arith.cmpi ne, %m, %z : i8
      scf.if %active {{
        %v = memref.load %vals[%i] : memref<?x{ty}>
        %k = memref.load %idx[%i] : memref<?xindex>
        {atomic}{store}
      }}""")


def _generic(ty: str, op: str, used: bool, swapped: bool = False, const: str = "") -> str:
    other = "%c" if const else "%v"
    operands = f"{other}, %cur" if swapped else f"%cur, {other}"
    cdef = f"\n          %c = arith.constant {const} : {ty}" if const else ""
    return _masked_atomic(ty, f"""%o = memref.generic_atomic_rmw %bins[%k] : memref<?x{ty}> {{
        ^bb0(%cur: {ty}):{cdef}
          %r = arith.{op} {operands} : {ty}
          memref.atomic_yield %r : {ty}
        }}""", used)


def _values(ty: str, op: str, n: int, rng, specials: bool = True) -> np.ndarray:
    dt = _DT[ty]
    if ty.startswith(("f", "bf")):
        if op in ("mulf", "divf"):
            x = 1 + rng.standard_normal(n) * 0.01
        else:
            x = rng.standard_normal(n) * 100
        x = x.astype(np.float64).astype(dt)
        if specials:
            x[::17] = 0
            x[5::17] = -np.zeros((), dt)
            if op not in ("mulf", "divf"):
                x[9::97] = np.inf
                x[11::97] = -np.inf
        return x
    info = np.iinfo(dt)
    if op == "muli":
        x = rng.integers(-7, 8, n)
    else:
        x = rng.integers(info.min, info.max, n, dtype=np.int64, endpoint=True)
    return x.astype(dt)


def _run_generic(monkeypatch, ty, op, used, *, n=1000, bins=8, swapped=False, const="",
                 active=None, specials=True, seed=0, init=None):
    rng = np.random.default_rng(seed)
    dt = _DT[ty]
    vals = _values(ty, op, n, rng, specials)
    idx = rng.integers(0, bins, n).astype(np.int64)
    # threads past ``n`` (a partial last block) are inactive
    on = np.zeros(-(-n // 128) * 128, np.int8)
    on[:n] = 1 if active is None else active
    start = _values(ty, op, bins, rng, specials) if init is None else init
    prog = _prog(_generic(ty, op, used, swapped, const))
    fast, ref = _both(monkeypatch, prog, (-(-n // 128),), (128,),
                      lambda: [vals, idx, on, start.copy(), np.zeros(n, dt)])
    _same(fast, ref)
    assert TAKEN and all(TAKEN)                    # (the ordered path ran)
    x = np.full(n, float(const)).astype(dt) if const else vals
    want_bins, want_old = _sequential(op, start, idx, x, on[:n] != 0, swapped)
    assert np.array_equal(_bits(fast[3]), _bits(want_bins))
    if used:
        assert np.array_equal(_bits(fast[4]), _bits(want_old))


@pytest.mark.parametrize("used", [False, True])
@pytest.mark.parametrize("ty", ["f32", "f16", "bf16", "f64"])
@pytest.mark.parametrize("op", ["addf", "mulf", "subf", "divf", "maximumf", "minimumf",
                                "maxnumf", "minnumf"])
def test_generic_float_ops(monkeypatch, op, ty, used):
    # 1000 lanes onto 8 bins: runs of > 100 lanes per address (the per-address chains)
    n = 1000 if ty == "f64" or op in ("addf", "maximumf") else 256   # (keep the suite fast)
    _run_generic(monkeypatch, ty, op, used, n=n)


@pytest.mark.parametrize("used", [False, True])
@pytest.mark.parametrize("ty", ["i32", "i8", "i64", "i16"])
@pytest.mark.parametrize("op", ["addi", "subi", "muli", "andi", "ori", "xori", "maxsi", "minsi",
                                "maxui", "minui"])
def test_generic_integer_ops_wrap(monkeypatch, op, ty, used):
    _run_generic(monkeypatch, ty, op, used, n=1000 if ty == "i32" else 300)


@pytest.mark.parametrize("op,ty", [("addf", "f32"), ("mulf", "f16"), ("maxnumf", "f32"),
                                   ("addi", "i32"), ("maxui", "i16"), ("xori", "i64")])
@pytest.mark.parametrize("used", [False, True])
def test_generic_old_value_second(monkeypatch, op, ty, used):
    """``OP %x, %old``: commutative ops only, the same bits."""
    _run_generic(monkeypatch, ty, op, used, swapped=True, n=600)


@pytest.mark.parametrize("op,ty,const", [("addi", "i32", "1"), ("addf", "f32", "0.1"),
                                         ("maximumf", "f16", "-0.0"), ("muli", "i8", "3")])
@pytest.mark.parametrize("used", [False, True])
def test_generic_constant_in_region(monkeypatch, op, ty, const, used):
    """The other operand defined by an ``arith.constant`` in the region (a counting
    histogram: ``%old + 1``)."""
    _run_generic(monkeypatch, ty, op, used, const=const, n=700)


@pytest.mark.parametrize("op,ty", [("addf", "f32"), ("maximumf", "f32"), ("minnumf", "f16"),
                                   ("addi", "i32"), ("mulf", "bf16")])
def test_generic_masked_and_partial_lanes(monkeypatch, op, ty):
    """Irregular active lanes (a list space) and a partial last block."""
    rng = np.random.default_rng(3)
    active = rng.random(777) < 0.6
    for used in (False, True):
        _run_generic(monkeypatch, ty, op, used, n=777, active=active, seed=4)


@pytest.mark.parametrize("op", ["addf", "maximumf", "minimumf", "maxnumf", "mulf"])
@pytest.mark.parametrize("where", ["vals", "bins"])
def test_generic_nan_inputs_take_the_rounds(monkeypatch, op, where):
    """NaN operands or old values: the ordered path declines (changing nothing) and the
    rounds give the same NaN payloads as the lane-by-lane reference."""
    rng = np.random.default_rng(6)
    n = 512
    nan1 = np.array([0x7FC00123], np.uint32).view(np.float32)[0]
    nan2 = np.array([0xFFC00456], np.uint32).view(np.float32)[0]
    init = _values("f32", op, 8, rng)
    if where == "bins":
        init[2], init[5] = nan1, nan2
    vals = _values("f32", op, n, rng)
    if where == "vals":
        vals[40], vals[300] = nan1, nan2
    idx = rng.integers(0, 8, n).astype(np.int64)
    prog = _prog(_generic("f32", op, True))
    fast, ref = _both(monkeypatch, prog, (4,), (128,),
                      lambda: [vals, idx, np.ones(n, np.int8), init.copy(),
                               np.zeros(n, np.float32)])
    _same(fast, ref)
    assert TAKEN and not any(TAKEN)                # (it declined)
    want_bins, want_old = _sequential(op, init, idx, vals, np.ones(n, bool))
    assert np.isnan(fast[3]).any() or op in ("maxnumf",)
    assert np.array_equal(np.isnan(fast[3]), np.isnan(want_bins))
    assert np.array_equal(_bits(fast[4])[~np.repeat(np.isnan(want_old), 4)],
                          _bits(want_old)[~np.repeat(np.isnan(want_old), 4)])


def test_generic_signed_zeros_and_overflow_to_inf(monkeypatch):
    """Only zeros of both signs (max/min pick by sign, sums keep -0 only from -0 + -0) and
    sums that overflow to infinity and then meet the other infinity (the default NaN)."""
    n = 512
    rng = np.random.default_rng(8)
    zeros = np.where(rng.random(n) < 0.5, np.float32(0), np.float32(-0.0)).astype(np.float32)
    for op in ("maximumf", "minimumf", "maxnumf", "minnumf", "addf"):
        for init in (np.zeros(4, np.float32), -np.zeros(4, np.float32)):
            rng2 = np.random.default_rng(9)
            idx = rng2.integers(0, 4, n).astype(np.int64)
            prog = _prog(_generic("f32", op, True))
            fast, ref = _both(monkeypatch, prog, (4,), (128,),
                              lambda: [zeros, idx, np.ones(n, np.int8), init.copy(),
                                       np.zeros(n, np.float32)])
            _same(fast, ref)
            want_bins, want_old = _sequential(op, init, idx, zeros, np.ones(n, bool))
            assert np.array_equal(_bits(fast[3]), _bits(want_bins))
            assert np.array_equal(_bits(fast[4]), _bits(want_old))
    big = np.full(n, 3e38, np.float32)
    big[300:310] = -np.inf
    idx = np.zeros(n, np.int64)
    prog = _prog(_generic("f32", "addf", True))
    fast, ref = _both(monkeypatch, prog, (4,), (128,),
                      lambda: [big, idx, np.ones(n, np.int8), np.zeros(1, np.float32),
                               np.zeros(n, np.float32)])
    _same(fast, ref)
    assert np.isnan(fast[3][0]) and np.isinf(fast[4][1:300]).any()


def test_generic_wide_address_span(monkeypatch):
    """Addresses spanning more than 2^16 elements (two-pass radix grouping)."""
    n = 1024
    rng = np.random.default_rng(10)
    vals = rng.standard_normal(n).astype(np.float32)
    idx = np.concatenate([rng.integers(0, 200000, n // 2),
                          rng.choice([5, 70000, 199999], n // 2)]).astype(np.int64)
    prog = _prog(_generic("f32", "addf", True))
    fast, ref = _both(monkeypatch, prog, (8,), (128,),
                      lambda: [vals, idx, np.ones(n, np.int8), np.ones(200000, np.float32),
                               np.zeros(n, np.float32)])
    _same(fast, ref)
    want_bins, want_old = _sequential("addf", np.ones(200000, np.float32), idx, vals,
                                      np.ones(n, bool))
    assert np.array_equal(fast[3], want_bins) and np.array_equal(fast[4], want_old)


def test_generic_exchange_and_unrecognised_regions(monkeypatch):
    """``atomic_yield %x`` (an exchange: each lane gets the previous lane's value) and a
    two-op region (the rounds) give the reference's bits."""
    body_xchg = _kernel("%vals: memref<?xf32>, %idx: memref<?xindex>, %bins: memref<?xf32>, "
                        "%old: memref<?xf32>", """
      %i = gpu.global_id x
      %v = memref.load %vals[%i] : memref<?xf32>
      %k = memref.load %idx[%i] : memref<?xindex>
      %o = memref.generic_atomic_rmw %bins[%k] : memref<?xf32> {
      ^bb0(%cur: f32):
        memref.atomic_yield %v : f32
      }
      memref.store %o, %old[%i] : memref<?xf32>""")
    two_ops = body_xchg.replace("memref.atomic_yield %v : f32", """%h = arith.constant 0.5 : f32
        %m = arith.mulf %cur, %h : f32
        %s = arith.addf %m, %v : f32
        memref.atomic_yield %s : f32""")
    n = 512
    rng = np.random.default_rng(11)
    vals = rng.standard_normal(n).astype(np.float32)
    idx = rng.integers(0, 5, n).astype(np.int64)
    for text, ordered in ((body_xchg, True), (two_ops, False)):
        fast, ref = _both(monkeypatch, _prog(text), (4,), (128,),
                          lambda: [vals, idx, np.arange(5, dtype=np.float32),
                                   np.zeros(n, np.float32)])
        _same(fast, ref)
        assert TAKEN == ([True] if ordered else [])
    fast, _ = _both(monkeypatch, _prog(body_xchg), (4,), (128,),
                    lambda: [vals, idx, np.arange(5, dtype=np.float32), np.zeros(n, np.float32)])
    for k in range(5):
        lanes = np.flatnonzero(idx == k)
        assert fast[2][k] == vals[lanes[-1]]
        assert fast[3][lanes[0]] == k and np.array_equal(fast[3][lanes[1:]], vals[lanes[:-1]])


def test_generic_out_of_bounds_report(monkeypatch):
    n = 384
    idx = np.random.default_rng(12).integers(0, 8, n).astype(np.int64)
    idx[200] = 8                                    # block 1, thread 72
    for used in (False, True):
        prog = _prog(_generic("f32", "addf", used))
        fast, ref = _both(monkeypatch, prog, (3,), (128,),
                          lambda: [np.ones(n, np.float32), idx, np.ones(n, np.int8),
                                   np.zeros(8, np.float32), np.zeros(n, np.float32)])
        assert isinstance(fast, str) and fast == ref
        assert "block (1, 0, 0), thread (72, 0, 0)" in fast


# -- atomic_rmw ----------------------------------------------------------------------------------

_KIND_OPS = {"addf": "addf", "mulf": "mulf", "maximumf": "maximumf", "minimumf": "minimumf",
             "maxnumf": "maxnumf", "minnumf": "minnumf", "addi": "addi", "muli": "muli",
             "andi": "andi", "ori": "ori", "xori": "xori", "maxs": "maxsi", "mins": "minsi",
             "maxu": "maxui", "minu": "minui"}


def _rmw(ty: str, kind: str, used: bool) -> str:
    return _masked_atomic(
        ty, f"%o = memref.atomic_rmw {kind} %v, %bins[%k] : ({ty}, memref<?x{ty}>) -> {ty}", used)


@pytest.mark.usefixtures("lane_engine")      # (it watches the lane engine's fast path)
@pytest.mark.parametrize("used", [False, True])
@pytest.mark.parametrize("kind", sorted(_KIND_OPS) + ["assign"])
def test_atomic_rmw_kinds(monkeypatch, kind, used):
    flt = kind.endswith("f")
    tys = ["f32", "f16"] if flt else (["i32", "i8"] if kind != "assign" else ["i32", "f32"])
    for ty in tys:
        rng = np.random.default_rng(13)
        n = 700
        dt = _DT[ty]
        op = _KIND_OPS.get(kind, "addf")
        vals = _values(ty, op, n, rng)
        idx = rng.integers(0, 6, n).astype(np.int64)
        active = rng.random(n) < 0.8
        on = np.zeros(-(-n // 128) * 128, np.int8)
        on[:n] = active
        init = _values(ty, op, 6, rng)
        prog = _prog(_rmw(ty, kind, used))
        fast, ref = _both(monkeypatch, prog, (-(-n // 128),), (128,),
                          lambda: [vals, idx, on, init.copy(),
                                   np.zeros(n, dt)])
        _same(fast, ref)
        assert TAKEN and all(TAKEN)
        if kind != "assign":
            want_bins, want_old = _sequential(op, init, idx, vals, active)
            assert np.array_equal(_bits(fast[3]), _bits(want_bins))
            if used:
                assert np.array_equal(_bits(fast[4]), _bits(want_old))


def test_atomic_rmw_float_extrema_order_zeros_as_arith_does(monkeypatch):
    """``maximumf`` etc. treat -0 as below +0 whichever lane comes first (as arith.maximumf)."""
    vals = np.array([0.0, -0.0, -0.0, 0.0] * 32, np.float32)
    idx = np.repeat(np.arange(4), 32).astype(np.int64)
    for kind, want in (("maximumf", 0.0), ("maxnumf", 0.0), ("minimumf", -0.0),
                       ("minnumf", -0.0)):
        prog = _prog(_rmw("f32", kind, True))
        for start in (0.0, -0.0):
            fast, ref = _both(monkeypatch, prog, (1,), (128,),
                              lambda: [vals, idx, np.ones(128, np.int8),
                                       np.full(4, start, np.float32), np.zeros(128, np.float32)])
            _same(fast, ref)
            assert np.array_equal(_bits(fast[3]), _bits(np.full(4, want, np.float32)))


WORKGROUP = _kernel("%idx: memref<?xindex>, %vals: memref<?xi32>, %old: memref<?xi32>, "
                    "%out: memref<?xi32>", """
      %i = gpu.global_id x
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %z = arith.constant 0 : i32
      %first = arith.cmpi ult, %t, %c16 : index
      scf.if %first {
        memref.store %z, %sh[%t] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %k = memref.load %idx[%i] : memref<?xindex>
      %v = memref.load %vals[%i] : memref<?xi32>
      %o = memref.atomic_rmw KIND %v, %sh[%k] : (i32, memref<16xi32, #gpu.address_space<workgroup>>) -> i32
      memref.store %o, %old[%i] : memref<?xi32>
      gpu.barrier
      scf.if %first {
        %s = memref.load %sh[%t] : memref<16xi32, #gpu.address_space<workgroup>>
        %bb = arith.muli %b, %c16 : index
        %j = arith.addi %bb, %t : index
        memref.store %s, %out[%j] : memref<?xi32>
      }""", attrs=" workgroup(%sh : memref<16xi32, #gpu.address_space<workgroup>>)")


@pytest.mark.parametrize("kind", ["addi", "maxu", "xori", "muli"])
def test_atomic_rmw_on_workgroup_memory(monkeypatch, kind):
    blocks, threads = 6, 96
    n = blocks * threads
    rng = np.random.default_rng(14)
    idx = rng.integers(0, 16, n).astype(np.int64)
    vals = rng.integers(-(1 << 31), (1 << 31) - 1, n).astype(np.int32)
    prog = _prog(WORKGROUP.replace("KIND", kind))
    fast, ref = _both(monkeypatch, prog, (blocks,), (threads,),
                      lambda: [idx, vals, np.zeros(n, np.int32), np.zeros(16 * blocks, np.int32)])
    _same(fast, ref)
    assert TAKEN and all(TAKEN)
    op = _KIND_OPS[kind]
    for b in range(blocks):
        lanes = slice(b * threads, (b + 1) * threads)
        want_bins, want_old = _sequential(op, np.zeros(16, np.int32), idx[lanes], vals[lanes],
                                          np.ones(threads, bool))
        assert np.array_equal(fast[3][b * 16:(b + 1) * 16], want_bins)
        assert np.array_equal(fast[2][lanes], want_old)


def test_atomic_rmw_out_of_bounds_report(monkeypatch):
    n = 256
    idx = np.random.default_rng(15).integers(0, 6, n).astype(np.int64)
    idx[131] = -1                                    # block 1, thread 3
    for used in (False, True):
        prog = _prog(_rmw("i32", "addi", used))
        fast, ref = _both(monkeypatch, prog, (2,), (128,),
                          lambda: [np.ones(n, np.int32), idx, np.ones(n, np.int8),
                                   np.zeros(6, np.int32), np.zeros(n, np.int32)])
        assert isinstance(fast, str) and fast == ref
        assert "block (1, 0, 0), thread (3, 0, 0)" in fast


@pytest.mark.parametrize("span", [1, 200, 5000, 1 << 20, 1 << 40])
@pytest.mark.parametrize("n", [1, 7, 1000])
def test_lane_groups_match_a_stable_argsort(span, n):
    a = np.random.default_rng(span % 97 + n).integers(0, span, n).astype(np.int64) + 12345
    order, uniq, starts, counts = atomic_order.lane_groups(a)
    want = np.argsort(a, kind="stable")
    s = a[want]
    first = np.flatnonzero(np.concatenate([[True], s[1:] != s[:-1]]))
    assert np.array_equal(order, want) and np.array_equal(uniq, s[first])
    assert np.array_equal(starts, first) and np.array_equal(counts, np.diff(np.append(first, n)))
