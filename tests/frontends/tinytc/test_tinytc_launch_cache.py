"""``tinytc.launch`` keeps the kernels it compiles: repeated launches of the same program text
(same file name, function and environment) reuse one compiled kernel, anything that changes the
result compiles again, and every error reads as before."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import tileir.frontends.tinytc as T
from tileir import LaunchError
from tileir.execute import ArgumentError

SRC = """func @scale(%a: memref<f32x8x?>, %b: memref<f32x8x?>) {
  %gid = group_id
  %x = subview %a[:,%gid] : memref<f32x8x?>
  %y = subview %b[:,%gid] : memref<f32x8x?>
  axpby.n 2.0, %x, 0.0, %y : f32, memref<f32x8>, f32, memref<f32x8>
}
func @store(%A: memref<f32x?>, %i: index, %v: f32) {
  store %v, %A[%i] : memref<f32x?>
}"""


@pytest.fixture
def compiles(monkeypatch):
    """A fresh launch cache; counts the kernels :func:`tinytc.compile` builds."""
    monkeypatch.setattr(T, "_LAUNCHED", OrderedDict())
    count = [0]
    real = T.compile

    def counting(prog, kernel):
        count[0] += 1
        return real(prog, kernel)

    monkeypatch.setattr(T, "compile", counting)
    return count


def _arrays(groups: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    a = np.asfortranarray(rng.standard_normal((8, groups)).astype(np.float32))
    return a, np.zeros_like(a, order="F")


def test_repeated_launches_compile_once(compiles):
    prog = T.parse(SRC, "k.ir")
    for groups in (3, 5, 3):
        a, b = _arrays(groups, groups)
        T.launch(prog, "scale", args=[a, b], group_size=groups)
        np.testing.assert_array_equal(b, 2 * a)
    assert compiles[0] == 1 and len(T._LAUNCHED) == 1
    # the same text parsed again is the same program
    a, b = _arrays(4)
    T.launch(T.parse(SRC, "k.ir"), "scale", args=[a, b], group_size=4)
    np.testing.assert_array_equal(b, 2 * a)
    assert compiles[0] == 1


def test_results_match_compile_launch(compiles):
    prog = T.parse(SRC, "k.ir")
    k = T.compile(prog, "scale")
    for mma in (None, "exact", "fast", None):
        a, b = _arrays(6, 1)
        a2, b2 = a.copy(order="F"), b.copy(order="F")
        if mma is None:
            T.launch(prog, "scale", args=[a, b], group_size=6)
            k.launch(args=[a2, b2], group_size=6)
        else:
            T.launch(prog, "scale", args=[a, b], group_size=6, mma=mma)
            k.launch(args=[a2, b2], group_size=6, mma=mma)
        assert b.tobytes() == b2.tobytes()
    assert compiles[0] == 2        # (the kernel above and launch's one; mma is a launch option)


def test_a_changed_program_or_option_recompiles(compiles):
    prog = T.parse(SRC, "k.ir")
    a, b = _arrays(2)
    T.launch(prog, "scale", args=[a, b], group_size=2)
    assert compiles[0] == 1
    # another text
    other = T.parse(SRC.replace("2.0, %x", "3.0, %x"), "k.ir")
    T.launch(other, "scale", args=[a, b], group_size=2)
    np.testing.assert_array_equal(b, 3 * a)
    assert compiles[0] == 2
    # another file name (its diagnostics name the file)
    T.launch(T.parse(SRC, "other.ir"), "scale", args=[a, b], group_size=2)
    assert compiles[0] == 3
    # another function of the same program
    A = np.zeros(4, dtype=np.float32)
    T.launch(prog, "store", args=[A, 2, 7.0])
    assert A.tolist() == [0, 0, 7, 0] and compiles[0] == 4
    # the first again: kept
    T.launch(prog, "scale", args=[a, b], group_size=2)
    np.testing.assert_array_equal(b, 2 * a)
    assert compiles[0] == 4


def test_a_program_changed_after_parsing_recompiles(compiles):
    prog = T.parse(SRC, "k.ir")
    a, b = _arrays(2)
    T.launch(prog, "scale", args=[a, b], group_size=2)
    prog.functions[0].name = "renamed"         # (the source text no longer tells the program)
    T.launch(prog, "renamed", args=[a, b], group_size=2)
    np.testing.assert_array_equal(b, 2 * a)
    assert compiles[0] == 2
    with pytest.raises(ArgumentError, match="no function @scale"):
        T.launch(prog, "scale", args=[a, b], group_size=2)
    # a fresh parse of the text: the kept kernel's program was changed, so compile again
    T.launch(T.parse(SRC, "k.ir"), "scale", args=[a, b], group_size=2)
    np.testing.assert_array_equal(b, 2 * a)


def test_programs_without_source_compile_every_call(compiles):
    prog = T.parse(SRC, "k.ir")
    prog.source = None
    a, b = _arrays(2)
    for _ in range(2):
        T.launch(prog, "scale", args=[a, b], group_size=2)
    np.testing.assert_array_equal(b, 2 * a)
    assert compiles[0] == 2 and not T._LAUNCHED


def test_cache_is_bounded(compiles, monkeypatch):
    monkeypatch.setattr(T, "_LAUNCHED_MAX", 2)
    a, b = _arrays(1)
    for c in ("1.0", "2.0", "3.0", "4.0"):
        T.launch(T.parse(SRC.replace("2.0, %x", c + ", %x"), "k.ir"), "scale", args=[a, b])
        np.testing.assert_array_equal(b, float(c) * a)
    assert len(T._LAUNCHED) == 2 and compiles[0] == 4
    T.launch(T.parse(SRC.replace("2.0, %x", "4.0, %x"), "k.ir"), "scale", args=[a, b])
    assert compiles[0] == 4         # (the most recent ones are kept)
    T.launch(T.parse(SRC.replace("2.0, %x", "1.0, %x"), "k.ir"), "scale", args=[a, b])
    assert compiles[0] == 5


def test_a_busy_kernel_is_not_shared(compiles):
    prog = T.parse(SRC, "k.ir")
    a, b = _arrays(2)
    T.launch(prog, "scale", args=[a, b], group_size=2)
    (_, _, lock), = T._LAUNCHED.values()
    assert lock.acquire(blocking=False)      # (as a launch running it in another thread)
    try:
        b[...] = 0
        T.launch(prog, "scale", args=[a, b], group_size=2)
        np.testing.assert_array_equal(b, 2 * a)
        assert compiles[0] == 2
    finally:
        lock.release()
    T.launch(prog, "scale", args=[a, b], group_size=2)
    assert compiles[0] == 2


def _message(fn, cls):
    with pytest.raises(cls) as info:
        fn()
    return str(info.value)


def test_errors_are_unchanged(compiles):
    prog = T.parse(SRC, "k.ir")
    k = T.compile(prog, "store")
    A = np.zeros(4, dtype=np.float32)
    want = _message(lambda: k.launch(args=[A, 10, 1.0]), LaunchError)
    assert "k.ir:" in want and "store" in want
    for _ in range(3):          # compiled on the first call, kept after it
        assert _message(lambda: T.launch(prog, "store", args=[A, 10, 1.0]),
                        LaunchError) == want
    # argument errors
    for args in ([A, 1], [np.zeros(4), 1, 1.0], "A"):
        want = _message(lambda: k.launch(args=args), ArgumentError)
        assert _message(lambda: T.launch(prog, "store", args=args), ArgumentError) == want
    want = _message(lambda: k.launch(args=[A, 1, 1.0], group_size=0), ArgumentError)
    assert _message(lambda: T.launch(prog, "store", args=[A, 1, 1.0], group_size=0),
                    ArgumentError) == want
    # the kernel still runs after the errors
    T.launch(prog, "store", args=[A, 1, 5.0])
    assert A.tolist() == [0, 5, 0, 0]
    assert compiles[0] == 2


def test_unknown_function_errors_and_keeps_nothing(compiles):
    prog = T.parse(SRC, "k.ir")
    want = _message(lambda: T.compile(prog, "nope"), ArgumentError)
    for _ in range(2):
        assert _message(lambda: T.launch(prog, "nope", args=[]), ArgumentError) == want
    assert not T._LAUNCHED
