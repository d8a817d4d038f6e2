"""vector.contract, vector.multi_reduction and vector.mask: text as mlir-opt 22 prints it, the
verifier's main rules, and execution on host values and in kernels against NumPy (einsum, masked
sums and copies)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import tileir
import tileir.gpu

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))
from mlir_tools import run_mlir_opt  # noqa: E402

#: (einsum spec, the three indexing maps, iterator types) of common contractions
CASES = [
    ("ik,kj->ij", "(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d2, d1)",
     "(d0, d1, d2) -> (d0, d1)", ["parallel", "parallel", "reduction"]),
    ("ki,kj->ij", "(d0, d1, d2) -> (d2, d0)", "(d0, d1, d2) -> (d2, d1)",
     "(d0, d1, d2) -> (d0, d1)", ["parallel", "parallel", "reduction"]),
    ("ik,jk->ji", "(d0, d1, d2) -> (d0, d2)", "(d0, d1, d2) -> (d1, d2)",
     "(d0, d1, d2) -> (d1, d0)", ["parallel", "parallel", "reduction"]),
    ("ik,k->i", "(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)",
     ["parallel", "reduction"]),
    ("k,k->", "(d0) -> (d0)", "(d0) -> (d0)", "(d0) -> ()", ["reduction"]),
    ("bik,bkj->bij", "(d0, d1, d2, d3) -> (d0, d1, d3)", "(d0, d1, d2, d3) -> (d0, d3, d2)",
     "(d0, d1, d2, d3) -> (d0, d1, d2)", ["parallel", "parallel", "parallel", "reduction"]),
    ("ikl,kl->i", "(d0, d1, d2) -> (d0, d1, d2)", "(d0, d1, d2) -> (d1, d2)",
     "(d0, d1, d2) -> (d0)", ["parallel", "reduction", "reduction"]),
]

SIZES = {"i": 3, "j": 4, "k": 5, "b": 2, "l": 2}


def _vtype(shape, elem) -> str:
    return f"vector<{'x'.join(map(str, shape))}x{elem}>" if shape else elem


def _contract_module(spec, maps, iters, elem, kind="add"):
    ins, out = spec.split("->")
    a, b = ins.split(",")
    ta, tb = _vtype([SIZES[c] for c in a], elem), _vtype([SIZES[c] for c in b], elem)
    tc = _vtype([SIZES[c] for c in out], elem)
    its = ", ".join(f'"{t}"' for t in iters)
    text = f"""func.func @main(%a: {ta}, %b: {tb}, %c: {tc}) -> {tc} {{
  %r = vector.contract {{indexing_maps = [affine_map<{maps[0]}>, affine_map<{maps[1]}>, affine_map<{maps[2]}>], iterator_types = [{its}], kind = #vector.kind<{kind}>}} %a, %b, %c : {ta}, {tb} into {tc}
  return %r : {tc}
}}
"""
    shapes = [tuple(SIZES[c] for c in s) for s in (a, b, out)]
    return text, shapes


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_contract_matches_einsum(case):
    spec, *maps, iters = case
    text, (sa, sb, sc) = _contract_module(spec, maps, iters, "i32")
    rng = np.random.default_rng(len(spec))
    a = rng.integers(-50, 50, sa).astype(np.int32)
    b = rng.integers(-50, 50, sb).astype(np.int32)
    c = rng.integers(-50, 50, sc).astype(np.int32)
    (r,) = tileir.gpu.run(tileir.parse(text), "main", args=[a, b, c])
    np.testing.assert_array_equal(np.asarray(r), np.einsum(spec, a, b) + c)
    # f32 with small integers: every fused step is exact, so the result is einsum's
    text, _ = _contract_module(spec, maps, iters, "f32")
    (r,) = tileir.gpu.run(tileir.parse(text), "main",
                          args=[a.astype(np.float32), b.astype(np.float32),
                                c.astype(np.float32)])
    np.testing.assert_array_equal(np.asarray(r), (np.einsum(spec, a, b) + c).astype(np.float32))


def _round_f32(x) -> np.float32:
    """The f32 nearest the rational ``x`` (ties to even), by comparing neighbours exactly."""
    from fractions import Fraction
    f = np.float32(float(x))
    best = None
    for cand in (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))):
        err = abs(Fraction(float(cand)) - x)
        if best is None or err < best[0] or (err == best[0] and
                                             int(cand.view(np.uint32)) % 2 == 0):
            best = (err, cand)
    return best[1]


def test_contract_float_steps_are_fused_and_ordered():
    """A 5-element dot product: acc = fma(a4, b4, ... fma(a0, b0, c)), each step the exact
    a*b + acc rounded once to f32 (checked with rational arithmetic)."""
    from fractions import Fraction
    text, _ = _contract_module("k,k->", CASES[4][1:4], ["reduction"], "f32")
    module = tileir.parse(text)
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = rng.standard_normal(SIZES["k"]).astype(np.float32)
        b = rng.standard_normal(SIZES["k"]).astype(np.float32)
        c = np.float32(rng.standard_normal())
        (r,) = tileir.gpu.run(module, "main", args=[a, b, c])
        acc = c
        for x, y in zip(a, b):
            acc = _round_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(acc)))
        assert np.float32(r) == acc


def test_contract_max_kind_and_multi_reduction():
    text = """func.func @main(%a: vector<4xf32>, %b: vector<4xf32>, %s: f32, %m: vector<2x3x4xf32>,
                     %acc: vector<3xf32>) -> (f32, vector<3xf32>) {
  %d = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %a, %b, %s : vector<4xf32>, vector<4xf32> into f32
  %r = vector.multi_reduction <add>, %m, %acc [0, 2] : vector<2x3x4xf32> to vector<3xf32>
  return %d, %r : f32, vector<3xf32>
}
"""
    a = np.array([1, -2, 3, 0.5], np.float32)
    b = np.array([2, 4, -1, 8], np.float32)
    m = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    acc = np.array([100, 200, 300], np.float32)
    d, r = tileir.gpu.run(tileir.parse(text), "main", args=[a, b, np.float32(-10), m, acc])
    assert float(d) == 4.0                                   # max(-10, 2, -8, -3, 4)
    np.testing.assert_array_equal(np.asarray(r), m.sum(axis=(0, 2)) + acc)


def test_contract_in_a_kernel_on_f16():
    """What MLIR's vector-to-gpu test computes: -(C - (A @ A + C)) with A[i][j] = j,
    C[i][j] = i, in one 32-thread block on f16 vectors: every row is A @ A's, with -0 first."""
    text = """
gpu.module @k {
  gpu.func @mm(%a: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
    %z = arith.constant 0.0 : f16
    %c0 = arith.constant 0 : index
    %A = vector.transfer_read %a[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %C = vector.transfer_read %c[%c0, %c0], %z {in_bounds = [true, true]} : memref<16x16xf16>, vector<16x16xf16>
    %D = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %A, %A, %C : vector<16x16xf16>, vector<16x16xf16> into vector<16x16xf16>
    %E = arith.subf %C, %D : vector<16x16xf16>
    %F = arith.negf %E : vector<16x16xf16>
    %t = gpu.thread_id x
    %c0i = arith.constant 0 : index
    %first = arith.cmpi eq, %t, %c0i : index
    scf.if %first {
      vector.transfer_write %F, %c[%c0, %c0] {in_bounds = [true, true]} : vector<16x16xf16>, memref<16x16xf16>
    }
    gpu.return
  }
}
"""
    a = np.tile(np.arange(16, dtype=np.float16), (16, 1))
    c = np.repeat(np.arange(16, dtype=np.float16)[:, None], 16, axis=1)
    tileir.gpu.launch(tileir.parse(text), "k::mm", grid=(1,), block=(32,), args=[a, c])
    want = (a.astype(np.float64) @ a.astype(np.float64)).astype(np.float16)
    np.testing.assert_array_equal(c, want)
    assert np.signbit(c[:, 0]).all()          # -(0 - 0) is -0


def test_text_is_what_mlir_opt_prints():
    spec, *maps, iters = CASES[0]
    text, _ = _contract_module(spec, maps, iters, "f32")
    text += """func.func @g(%m: vector<2x3x4xf32>, %acc: vector<4xf32>) -> vector<4xf32> {
  %r = vector.multi_reduction <maxnumf>, %m, %acc [0, 1] : vector<2x3x4xf32> to vector<4xf32>
  return %r : vector<4xf32>
}
"""
    ours = tileir.print(tileir.parse(text))
    assert tileir.print(tileir.parse(ours)) == ours
    ref = run_mlir_opt(text)
    assert ref.returncode == 0, ref.stderr
    assert ref.stdout.rstrip("\n") == ours.rstrip("\n")


@pytest.mark.parametrize("maps, iters, message", [
    (["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)", "(d0, d1) -> (d0)"],
     ["parallel", "reduction"], "at least one contracting dimension pair"),
    (["(d0, d1) -> (d0 + d1, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)"],
     ["parallel", "reduction"], "indexing map 0 to be a projected permutation of its inputs"),
    (["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)", "(d0, d1) -> (d0)"],
     ["parallel", "sideways"], r"unexpected iterator_type \(sideways\)"),
])
def test_malformed_contractions_are_reported(maps, iters, message):
    its = ", ".join(f'"{t}"' for t in iters)
    text = f"""func.func @main(%a: vector<3x5xf32>, %b: vector<5xf32>, %c: vector<3xf32>) -> vector<3xf32> {{
  %r = vector.contract {{indexing_maps = [affine_map<{maps[0]}>, affine_map<{maps[1]}>, affine_map<{maps[2]}>], iterator_types = [{its}], kind = #vector.kind<add>}} %a, %b, %c : vector<3x5xf32>, vector<5xf32> into vector<3xf32>
  return %r : vector<3xf32>
}}
"""
    with pytest.raises(tileir.DiagnosticError, match=message):
        tileir.verify(tileir.parse(text))


MASKED = """func.func @main(%m: vector<4xi1>, %v: vector<4xf32>, %mem: memref<8xf32>, %i: index,
                %f: f32, %m2: vector<4x4xi1>, %v2: vector<4x4xf32>, %acc: vector<4xf32>)
    -> (f32, vector<4xf32>, vector<4xf32>, f32, vector<4xf32>) {
  %r = vector.mask %m { vector.reduction <add>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
  %t = vector.mask %m, %v { vector.transfer_read %mem[%i], %f : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  %p = vector.mask %m { vector.transfer_read %mem[%i], %f : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.mask %m { vector.transfer_write %v, %mem[%i] : vector<4xf32>, memref<8xf32> } : vector<4xi1>
  %mr = vector.mask %m2 { vector.multi_reduction <add>, %v2, %acc [1] : vector<4x4xf32> to vector<4xf32> } : vector<4x4xi1> -> vector<4xf32>
  %ra = vector.mask %m { vector.reduction <maxnumf>, %v, %f : vector<4xf32> into f32 } : vector<4xi1> -> f32
  return %r, %t, %mr, %ra, %p : f32, vector<4xf32>, vector<4xf32>, f32, vector<4xf32>
}
"""


@pytest.mark.parametrize("seed", range(6))
def test_vector_mask_selects_lanes(seed):
    """Masked reductions combine only the selected elements; a masked read takes the passthru
    (or the padding) where the mask is off; a masked write leaves those elements alone."""
    rng = np.random.default_rng(seed)
    m = rng.random(4) < 0.6
    m[rng.integers(4)] = True                     # at least one element selected
    v = rng.integers(-9, 9, 4).astype(np.float32)
    mem = rng.integers(-99, 99, 8).astype(np.float32)
    m2 = rng.random((4, 4)) < 0.5
    v2 = rng.integers(-9, 9, (4, 4)).astype(np.float32)
    acc = rng.integers(-9, 9, 4).astype(np.float32)
    i, pad = int(rng.integers(0, 5)), np.float32(-1000)
    before = mem.copy()
    r, t, mr, ra, p = tileir.gpu.run(tileir.parse(MASKED), "main",
                                     args=[m, v, mem, i, pad, m2, v2, acc])
    assert float(r) == v[m].sum()
    window = before[i:i + 4]
    np.testing.assert_array_equal(np.asarray(t), np.where(m, window, v))
    np.testing.assert_array_equal(np.asarray(p), np.where(m, window, pad))
    want_mem = before.copy()
    want_mem[i:i + 4][m] = v[m]
    np.testing.assert_array_equal(mem, want_mem)
    np.testing.assert_array_equal(np.asarray(mr), acc + np.where(m2, v2, 0).sum(axis=1))
    assert float(ra) == max(float(pad), float(v[m].max()))


def test_vector_mask_misuse_is_reported():
    text = """func.func @main(%m: vector<4xi1>, %v: vector<4xf32>) -> f32 {
  %r = vector.mask %m { vector.reduction <maximumf>, %v : vector<4xf32> into f32 } : vector<4xi1> -> f32
  return %r : f32
}
"""
    # (an add gives its identity, 0, as MLIR's lowering does: see test_simt_vector_masking.py)
    from tileir.execute.errors import LaunchError
    with pytest.raises(LaunchError, match="selects no element"):
        tileir.gpu.run(tileir.parse(text), "main",
                       args=[np.zeros(4, bool), np.ones(4, np.float32)])
