"""Integer and bitwise ops of tileir.execute.numerics against Python-int references."""
from __future__ import annotations

import os

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tileir.execute import numerics as nx

EXAMPLES = int(os.environ.get("TILEIR_NUMERICS_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None)
WIDTH = {"i1": 1, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
STORAGE = {"i1": np.bool_, "i4": ml_dtypes.int4, "i8": np.int8, "i16": np.int16,
           "i32": np.int32, "i64": np.int64}
TYPES = tuple(WIDTH)


# ----------------------------------------------------------------------------- reference model

def unsigned(v: int, elem: str) -> int:
    return v % (1 << WIDTH[elem])


def signed(v: int, elem: str) -> int:
    n = WIDTH[elem]
    u = v % (1 << n)
    return u - (1 << n) if u >= 1 << (n - 1) else u


def store(values: list[int], elem: str) -> np.ndarray:
    """Python ints (any range, wrapped) -> storage array."""
    if elem == "i1":
        return np.array([v % 2 == 1 for v in values], dtype=np.bool_)
    return np.array([signed(v, elem) for v in values], dtype=np.int64).astype(STORAGE[elem])


def load(a: np.ndarray, elem: str) -> list[int]:
    """Storage array -> list of the signed values it holds (i1 true = -1)."""
    flat = np.asarray(a).reshape(-1)
    if elem == "i1":
        return [-1 if bool(v) else 0 for v in flat]
    return [int(v) for v in flat.astype(np.int64)]


def values(elem: str) -> st.SearchStrategy[int]:
    n = WIDTH[elem]
    edges = [0, 1, -1, (1 << (n - 1)) - 1, -(1 << (n - 1)), 2, -2, n, n - 1, n + 1]
    return st.sampled_from(edges) | st.integers(-(1 << (n - 1)), (1 << n) - 1)


def pairs(elem: str) -> st.SearchStrategy[list[tuple[int, int]]]:
    return st.lists(st.tuples(values(elem), values(elem)), min_size=1, max_size=20)


def check(got: np.ndarray, expected: list[int], elem: str, ctx) -> None:
    assert np.asarray(got).dtype == np.dtype(STORAGE[elem]), ctx
    assert load(got, elem) == [signed(v, elem) for v in expected], ctx


def trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def floor_div(a: int, b: int) -> int:
    return a // b


def ceil_div(a: int, b: int) -> int:
    return -((-a) // b)


# ----------------------------------------------------------------------------- arithmetic

@pytest.mark.parametrize("elem", TYPES)
def test_wrapping_arithmetic(elem: str):
    @SETTINGS
    @given(pairs(elem))
    def run(ps):
        a = store([p[0] for p in ps], elem)
        b = store([p[1] for p in ps], elem)
        x, y = load(a, elem), load(b, elem)
        check(nx.addi(a, b, elem), [i + j for i, j in zip(x, y)], elem, "addi")
        check(nx.subi(a, b, elem), [i - j for i, j in zip(x, y)], elem, "subi")
        check(nx.muli(a, b, elem), [i * j for i, j in zip(x, y)], elem, "muli")
        check(nx.negi(a, elem), [-i for i in x], elem, "negi")
        check(nx.absi(a, elem), [abs(i) for i in x], elem, "absi")
        ux, uy = [unsigned(i, elem) for i in x], [unsigned(j, elem) for j in y]
        n = WIDTH[elem]
        check(nx.mulhii(a, b, elem), [(i * j) >> n for i, j in zip(ux, uy)], elem, "mulhii")
        check(nx.andi(a, b, elem), [i & j for i, j in zip(x, y)], elem, "andi")
        check(nx.ori(a, b, elem), [i | j for i, j in zip(x, y)], elem, "ori")
        check(nx.xori(a, b, elem), [i ^ j for i, j in zip(x, y)], elem, "xori")

    run()


@pytest.mark.parametrize("elem", TYPES)
@pytest.mark.parametrize("is_signed", [True, False])
def test_division_and_remainder(elem: str, is_signed: bool):
    n = WIDTH[elem]
    read = signed if is_signed else unsigned
    int_min = -(1 << (n - 1))
    modes = {"zero": trunc_div, "positive_inf": ceil_div}
    if is_signed:
        modes["negative_inf"] = floor_div

    @SETTINGS
    @given(pairs(elem))
    def run(ps):
        a = store([p[0] for p in ps], elem)
        b = store([p[1] for p in ps], elem)
        x = [read(v, elem) for v in load(a, elem)]
        y = [read(v, elem) for v in load(b, elem)]
        for mode, ref in modes.items():
            exp = []
            for i, j in zip(x, y):
                if j == 0:
                    exp.append(-1)                                  # documented: all ones
                elif is_signed and i == int_min and j == -1:
                    exp.append(int_min)                             # documented: wraps
                else:
                    exp.append(ref(i, j))
            check(nx.divi(a, b, elem, is_signed, mode), exp, elem, ("divi", mode))
        rem = [i if j == 0 else i - trunc_div(i, j) * j for i, j in zip(x, y)]
        check(nx.remi(a, b, elem, is_signed), rem, elem, "remi")

    run()


def test_division_edge_values():
    i32 = np.int32
    a = np.array([7, 7, -7, -7, -2 ** 31, 5, -5, 0], i32)
    b = np.array([3, -3, 3, -3, -1, 0, 0, 0], i32)
    assert list(nx.divi(a, b, "i32", True)) == [2, -2, -2, 2, -2 ** 31, -1, -1, -1]
    assert list(nx.divi(a, b, "i32", True, "negative_inf")) == [2, -3, -3, 2, -2 ** 31, -1, -1,
                                                                -1]
    assert list(nx.divi(a, b, "i32", True, "positive_inf")) == [3, -2, -2, 3, -2 ** 31, -1, -1,
                                                                -1]
    assert list(nx.remi(a, b, "i32", True)) == [1, 1, -1, -1, 0, 5, -5, 0]
    # unsigned: -1 is 2**32 - 1
    assert nx.divi(np.int32(-1), np.int32(2), "i32", False) == 2 ** 31 - 1
    assert nx.divi(np.int32(-1), np.int32(2), "i32", False, "positive_inf") == -2 ** 31
    assert nx.remi(np.int32(-1), np.int32(10), "i32", False) == 5
    i64 = np.int64
    assert nx.divi(i64(-2 ** 63), i64(-1), "i64", True) == -2 ** 63
    assert nx.remi(i64(-2 ** 63), i64(-1), "i64", True) == 0
    assert nx.divi(i64(-1), i64(3), "i64", False) == 0x5555555555555555
    with pytest.raises(ValueError):
        nx.divi(a, b, "i32", False, "negative_inf")


def test_mulhii_examples():
    assert nx.mulhii(np.int32(-2 ** 31), np.int32(2), "i32") == 1       # spec example
    assert nx.muli(np.int32(-2 ** 31), np.int32(2), "i32") == 0
    assert nx.mulhii(np.int64(-1), np.int64(-1), "i64") == -2            # 0xFFFF...FE
    assert nx.mulhii(np.int8(-1), np.int8(2), "i8") == 1
    assert not nx.mulhii(np.bool_(True), np.bool_(True), "i1")


def test_i1_semantics():
    t, f = np.bool_(True), np.bool_(False)
    assert nx.addi(t, t, "i1") == f and nx.muli(t, t, "i1") == t and nx.negi(t, "i1") == t
    assert nx.maxi(t, f, "i1", signed=True) == f          # signed: true is -1
    assert nx.maxi(t, f, "i1", signed=False) == t         # unsigned: true is 1
    assert nx.cmpi(t, f, "i1", "less_than", signed=True)
    assert not nx.cmpi(t, f, "i1", "less_than", signed=False)
    assert nx.divi(t, t, "i1", True) == t                 # -1 / -1 = 1 wraps to true
    assert nx.shli(t, t, "i1") == f and nx.shri(t, t, "i1", signed=True) == t


@pytest.mark.parametrize("elem", TYPES)
def test_shifts(elem: str):
    n = WIDTH[elem]

    @SETTINGS
    @given(st.lists(st.tuples(values(elem), st.integers(0, 2 * n + 2) | values(elem)),
                    min_size=1, max_size=20))
    def run(ps):
        a = store([p[0] for p in ps], elem)
        b = store([p[1] for p in ps], elem)
        x = load(a, elem)
        sh = [unsigned(v, elem) for v in load(b, elem)]
        check(nx.shli(a, b, elem), [i << s if s < n else 0 for i, s in zip(x, sh)], elem, "shl")
        check(nx.shri(a, b, elem, signed=False),
              [unsigned(i, elem) >> s if s < n else 0 for i, s in zip(x, sh)], elem, "shr.u")
        check(nx.shri(a, b, elem, signed=True),
              [i >> min(s, n) for i, s in zip(x, sh)], elem, "shr.s")

    run()


def test_shift_by_width_examples():
    x = np.array([-8, 5], np.int32)
    for amount in (32, 33, 255, -1):
        s = np.full(2, amount, np.int32)
        assert list(nx.shli(x, s, "i32")) == [0, 0]
        assert list(nx.shri(x, s, "i32", signed=False)) == [0, 0]
        assert list(nx.shri(x, s, "i32", signed=True)) == [-1, 0]
    assert list(nx.shri(x, np.int32(31), "i32", signed=False)) == [1, 0]


@pytest.mark.parametrize("elem", TYPES)
@pytest.mark.parametrize("is_signed", [True, False])
def test_max_min_cmp(elem: str, is_signed: bool):
    read = signed if is_signed else unsigned
    preds = {"equal": lambda i, j: i == j, "not_equal": lambda i, j: i != j,
             "less_than": lambda i, j: i < j, "less_than_or_equal": lambda i, j: i <= j,
             "greater_than": lambda i, j: i > j, "greater_than_or_equal": lambda i, j: i >= j}

    @SETTINGS
    @given(pairs(elem))
    def run(ps):
        a = store([p[0] for p in ps], elem)
        b = store([p[1] for p in ps], elem)
        x = [read(v, elem) for v in load(a, elem)]
        y = [read(v, elem) for v in load(b, elem)]
        check(nx.maxi(a, b, elem, is_signed), [max(i, j) for i, j in zip(x, y)], elem, "max")
        check(nx.mini(a, b, elem, is_signed), [min(i, j) for i, j in zip(x, y)], elem, "min")
        for name, fn in preds.items():
            got = nx.cmpi(a, b, elem, name, is_signed)
            assert got.dtype == np.bool_
            assert list(got) == [fn(i, j) for i, j in zip(x, y)], name

    run()


def test_shapes_are_preserved():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    assert nx.addi(a, a, "i16").shape == (3, 4)
    r = nx.negi(np.int64(5), "i64")
    assert np.asarray(r).shape == () and r == -5


@pytest.mark.parametrize("elem,dt", [("i8", np.int8), ("i16", np.int16), ("i32", np.int32),
                                     ("i64", np.int64)])
def test_divi_remi_one_element_equals_the_array_path(elem, dt):
    """One element each (the Python-int path) gives what the vectorised path gives for the
    same values, at the edges (zero divisor, INT_MIN / -1, every sign) and at random."""
    info = np.iinfo(dt)
    edges = [0, 1, -1, 2, -2, 3, -3, 7, -7, info.min, info.max, info.min + 1, info.max - 1]
    rng = np.random.default_rng(5)
    values = np.array(edges + list(rng.integers(info.min, info.max, 12, dtype=dt,
                                                endpoint=True)), dt)
    a = np.repeat(values, values.size)
    b = np.tile(values, values.size)
    for signed in (True, False):
        for rounding in ("zero", "positive_inf") + (("negative_inf",) if signed else ()):
            whole = nx.divi(a, b, elem, signed, rounding)
            one = [nx.divi(a[i:i + 1], b[i:i + 1].reshape(1, 1), elem, signed, rounding)
                   for i in range(a.size)]
            assert all(o.shape == (1, 1) and o.dtype == whole.dtype for o in one)
            assert np.array_equal(np.concatenate([o.reshape(-1) for o in one]), whole)
        whole = nx.remi(a, b, elem, signed)
        one = np.concatenate([nx.remi(a[i], b[i], elem, signed).reshape(-1)
                              for i in range(a.size)])
        assert np.array_equal(one, whole)
    assert nx.divi(np.int32(7), np.int32(-2), "i32", True).shape == ()
