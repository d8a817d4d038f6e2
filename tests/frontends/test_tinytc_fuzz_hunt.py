"""Robustness hunt on the tinytc front end: adversarial programs (deep nesting, memref types too
large for 64-bit addressing, long straight-line code), mutants of valid programs, and bad
arguments to ``tinytc.launch`` give a :class:`TinytcError` (with a location) or an
:class:`~tileir.execute.ArgumentError` -- never another exception, never a hang, never IR that
the cuda_tile tools cannot read back.

``TILEIR_FUZZ_EXAMPLES=N`` sets the number of mutants of the fixed-seed loop (default 200).
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir import tinytc
from tileir.execute import ArgumentError
from tileir.frontends.tinytc.lowering import remove_dead_code
from tileir.frontends.tinytc.parser import MAX_REGION_NESTING

sys.path.insert(0, str(Path(__file__).parent / "tinytc"))
from tinytc_mutation import mutate  # noqa: E402

EXAMPLES = int(os.environ.get("TILEIR_FUZZ_EXAMPLES", "200"))

#: the reference's sample (with an SPMD part) and small programs using most instructions
SEEDS = [
    """func @fused_kernel(%alpha: f32, %A: group<memref<f32x16x8>>, %B: memref<f32x8x8>,
                   %C: memref<f32x8x16>, %D: memref<f32x16x16x?>) {
  %0 = group_id
  %1 = load %A[%0] : group<memref<f32x16x8>>
  %2 = subview %D[:,:,%0] : memref<f32x16x16x?>
  %tmp0 = alloca -> memref<f32x16x8>
  gemm.n.t 1.0, %1, %B, 0.0, %tmp0
    : f32, memref<f32x16x8>, memref<f32x8x8>, f32, memref<f32x16x8>
  gemm.n.n %alpha, %tmp0, %C, 1.0, %2
    : f32, memref<f32x16x8>, memref<f32x8x16>, f32, memref<f32x16x16>
}
""",
    """func @loops(%a: memref<f64x32>, %n: index, %c: i1) {
  for %i = 0,%n : index {
    %x = load %a[%i] : memref<f64x32>
    %y = arith.mul %x, %x : f64
    store %y, %a[%i] : memref<f64x32>
  }
  %r = if %c -> (i32) {
    yield 1 : i32
  } else {
    yield 2 : i32
  }
  foreach %j = 0,32 {
    %z = load %a[%j] : memref<f64x32>
    %w = arith.add %z, 1.0 : f64
    store %w, %a[%j] : memref<f64x32>
  }
}
""",
    """func @views(%a: memref<f32x32x16x8>, %b: memref<f32x512>) {
  %1 = expand %a[1->2x8] : memref<f32x32x16x8>
  %2 = fuse %a[0,1] : memref<f32x32x16x8>
  %3 = subview %a[0:4, 2, :] : memref<f32x32x16x8>
  %s = size %a[2] : memref<f32x32x16x8>
  axpby.n 1.0, %b, 0.0, %b : f32, memref<f32x512>, f32, memref<f32x512>
  %i = cast %s : index -> i32
  %c = cmp.lt %i, 3 : i32
}
""",
]


def _pipeline(text: str) -> str:
    """Parse, print (a fixed point), lower; the lowered module must print, parse back and
    round-trip through bytecode.  Returns "rejected" or "lowered"."""
    try:
        prog = tinytc.parse(text, filename="hunt.ir")
    except tinytc.TinytcError as exc:
        assert exc.message and exc.location.startswith("hunt.ir:")
        return "rejected"
    printed = tinytc.print(prog)
    assert tinytc.print(tinytc.parse(printed)) == printed
    try:
        module = tinytc.lower(prog)
    except tinytc.TinytcError as exc:
        assert exc.message
        return "rejected"
    tileir.parse(tileir.print(module))
    tileir.read_bytecode(tileir.write_bytecode(module))
    return "lowered"


def test_seeds_lower():
    for text in SEEDS:
        assert _pipeline(text) == "lowered"


# -- deep nesting ------------------------------------------------------------------------------


def _nested(levels: int, kind: str) -> str:
    """A function whose regions nest ``levels`` deep (the body is level 1)."""
    inner = levels - 1
    opens = "".join("if %c {\n" if kind == "if" else f"for %i{j} = 0,1 {{\n"
                    for j in range(inner))
    return "func @k(%c: i1) {\n" + opens + "}\n" * inner + "}\n"


@pytest.mark.parametrize("kind", ["if", "for"])
def test_deep_nesting_is_a_diagnostic_not_a_recursion_error(kind):
    """6000 nested regions (3 frames each, beyond the 12000 frames tileir allows) made the
    parser raise RecursionError."""
    text = _nested(6000, kind)
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.parse(text, filename="deep.ir")
    assert "nest too deeply" in info.value.message
    assert info.value.location.startswith(f"deep.ir:{MAX_REGION_NESTING + 1}.")


def test_deepest_accepted_nesting_lowers_and_reads_back():
    """At the limit, with a collective instruction (whose lowering adds loops) innermost, the
    lowered module stays within what the cuda_tile parser and bytecode reader accept."""
    loops = MAX_REGION_NESTING - 2
    mem = "memref<f32x64x64>"
    text = ("func @k(%a: " + mem + ", %b: " + mem + ", %c: " + mem + ", %p: i1) {\n"
            + "".join(f"for %i{j} = 0,1 {{\n" for j in range(loops))
            + f" gemm.n.n 1.0, %a, %b, 0.0, %c : f32, {mem}, {mem}, f32, {mem}\n"
            + " if %p {\n"
            + f"  axpby.n 1.0, %a, 0.0, %b : f32, {mem}, f32, {mem}\n"
            + " }\n" + "}\n" * loops + "}\n")
    assert _pipeline(text) == "lowered"
    with pytest.raises(tinytc.TinytcError):
        tinytc.parse(text.replace(" if %p {\n", " if %p {\n if %p {\n }\n"))


# -- memref types beyond 64-bit addressing -----------------------------------------------------


@pytest.mark.parametrize("ty", ["memref<f32x9223372036854775807x9223372036854775807>",
                                "memref<f32x4294967296x4294967296>",
                                "memref<i16x9223372036854775807>",
                                "memref<f64x4x4,strided<1,4611686018427387904>>"])
def test_memref_type_too_large_for_64_bit_offsets(ty):
    """Such types lowered to an alloca whose num_elem does not fit its i64 attribute (printed
    IR that does not parse back) and to wrapped i64 offsets."""
    text = f"func @k() {{\n %a = alloca -> {ty}\n}}\n"
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.parse(text, filename="big.ir")
    assert "too large" in info.value.message
    assert info.value.location.startswith("big.ir:2.")


@pytest.mark.parametrize("ty", ["memref<i8x9223372036854775807>", "memref<f64x0x9223372036854775807>",
                                "memref<f32x1048576x1048576>"])
def test_memref_types_that_fit_are_accepted(ty):
    assert _pipeline(f"func @k(%a: {ty}) {{\n %s = size %a[0] : {ty}\n}}\n") == "lowered"


# -- long straight-line code -------------------------------------------------------------------


def test_dead_code_removal_keeps_live_ops_and_removes_a_dead_chain():
    """remove_dead_code erased dead ops one by one from their block's list (quadratic: 20,000
    instructions took 18 s to lower); it now rebuilds each block once per sweep."""
    body = "".join(f" %v{i} = arith.add %{'a' if i == 0 else f'v{i - 1}'}, 1 : i32\n"
                   for i in range(3000))
    text = ("func @k(%a: i32, %m: memref<i32x4>) {\n" + body
            + " %w = arith.mul %a, 2 : i32\n store %w, %m[0] : memref<i32x4>\n}\n")
    started = time.perf_counter()
    module = tinytc.lower(tinytc.parse(text))
    assert time.perf_counter() - started < 10
    entry = module.regions[0].blocks[0].ops[0]
    names = [op.name for op in entry.regions[0].blocks[0].ops]
    assert names.count("cuda_tile.addi") == 0 and "cuda_tile.muli" in names
    remove_dead_code(module)            # idempotent
    m = np.zeros(4, np.int32)
    tinytc.launch(tinytc.parse(text), "k", args=[21, m])
    assert m[0] == 42


# -- launch arguments --------------------------------------------------------------------------

LAUNCH = """func @k(%a: memref<f32x8>, %s: f32, %c: i1) {
  %x = load %a[7] : memref<f32x8>
}
func @g(%a: group<memref<f32x4x?>, offset: ?>) {
  %i = group_id
  %m = load %a[%i] : group<memref<f32x4x?>, offset: ?>
  %x = load %m[3, 1] : memref<f32x4x?>
}
"""


@pytest.mark.parametrize("group_size", ["x", None, 2.7, True])
def test_group_size_must_be_an_integer(group_size):
    """A string or None raised ValueError/TypeError; 2.7 was silently truncated to 2."""
    prog = tinytc.parse(LAUNCH)
    with pytest.raises(ArgumentError, match="group_size must be an integer"):
        tinytc.launch(prog, "k", args=[np.zeros(8, np.float32), 1.0, True],
                      group_size=group_size)


def test_group_size_accepts_numpy_integers_and_integral_floats():
    prog = tinytc.parse(LAUNCH)
    for size in (np.int64(3), 3.0, np.float32(3)):
        tinytc.launch(prog, "k", args=[np.zeros(8, np.float32), 1.0, True], group_size=size)


@pytest.mark.parametrize("args", [None, 5, "abc"])
def test_args_must_be_a_list(args):
    with pytest.raises(ArgumentError, match="args must be a list"):
        tinytc.launch(tinytc.parse(LAUNCH), "k", args=args)


def test_i1_argument_must_be_a_scalar():
    """An array for an i1 parameter raised NumPy's 'truth value is ambiguous' ValueError."""
    with pytest.raises(ArgumentError, match="i1"):
        tinytc.launch(tinytc.parse(LAUNCH), "k",
                      args=[np.zeros(8, np.float32), 1.0, np.zeros(3)])


def _group(**kw):
    buffers = kw.pop("buffers", [np.zeros(16, np.float32)])
    return tinytc.Group(buffers, **kw)


@pytest.mark.parametrize("group, match", [
    (_group(offset=0, shapes=[()]), "has 2 modes, got 0 sizes"),            # IndexError
    (_group(offset=0, shapes=[(4, 3, 1)]), "has 2 modes, got 3 sizes"),     # silently cut
    (_group(buffers=[np.zeros(16, np.float32)] * 2, offset=0, shapes=[(4, 3)]),
     "2 buffers but 1 shapes"),                                             # IndexError
    (_group(offset=0, shapes=[(4, -3)]), "must not be negative"),           # accepted
    (_group(offset=0, shapes=[(2, 3)]), "size 0 must be 4"),                # silently ignored
    (_group(offset=0, shapes=[("x", 3)]), "must be an integer"),            # ValueError
    (_group(offset="a", shapes=[(4, 3)]), "offset must be an integer"),     # TypeError
    (_group(buffers=5, offset=0, shapes=[(4, 3)]), "buffers must be a list"),  # TypeError
    (_group(offset=0, shapes=5), "shapes must be a list"),                  # TypeError
])
def test_bad_group_arguments_are_argument_errors(group, match):
    with pytest.raises(ArgumentError, match=match):
        tinytc.launch(tinytc.parse(LAUNCH), "g", args=[group])


def test_good_group_argument_runs():
    tinytc.launch(tinytc.parse(LAUNCH), "g",
                  args=[_group(offset=2, shapes=[(4, 3)])])


# -- fixed-seed mutation loop ------------------------------------------------------------------

_FRAGMENTS = ["%", "@", "x", "?", ",", ":", "->", "(", ")", "{", "}", "<", ">", "[", "]", "=",
              "0", "1", "-1", "9223372036854775807", "99999999999999999999", "1e999", "f32",
              "f64", "i1", "i8", "index", "memref", "group", "strided", "offset", "func", "if",
              "else", "for", "foreach", "yield", "load", "store", "gemm", "axpby", "subview",
              "expand", "fuse", "alloca", "cast", "cmp.lt", "arith.add", "arith.div", "{\n",
              "}\n", "if %c {", "memref<f32x4294967296x4294967296>", "\n", " ", "\x00", "é"]


def _mutate(text: str, rng: random.Random) -> str:
    return mutate(text, rng, _FRAGMENTS, span=12, truncate=True)


def test_mutants_fixed_seed():
    rng = random.Random(7)
    outcomes = {"rejected": 0, "lowered": 0}
    for _ in range(EXAMPLES):
        text = _mutate(rng.choice(SEEDS), rng)
        started = time.perf_counter()
        try:
            outcomes[_pipeline(text)] += 1
        except Exception as exc:  # pragma: no cover - the failure looked for
            raise AssertionError(f"{type(exc).__name__}: {exc}\n--- input ---\n{text}") from exc
        assert time.perf_counter() - started < 10, text
    assert outcomes["rejected"] > 0 and outcomes["lowered"] > 0
