"""Translation validation by execution: every pass is run on randomly generated kernels
(:mod:`kernelgen`), and the CPU executor runs each kernel before and after on random inputs;
the outputs must be bit-identical.  The pass output must also verify and survive a print/parse
round trip (the round-tripped module is the one executed).

fuse-fma is not bit-preserving (one rounding instead of two: the contraction the spec leaves
to an explicit request); it is validated against the kernel it is specified to produce (fma
exactly where the product has one use and matching rounding/flush-to-zero), bit for bit.

``TILEIR_PASS_KERNELS`` (default 1000) sets the number of kernels per pass.
"""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

import tileir
from tileir.passes import run_pipeline
from tileir.passes.rewriter import clone_op

import kernelgen

KERNELS = int(os.environ.get("TILEIR_PASS_KERNELS", "1000"))
BATCH = 50  # kernels per module (one parse and one pass run per batch)

#: pass pipelines validated, and the least fraction of kernels each must change (so that a pass
#: that silently stops firing is noticed)
PIPELINES = {
    "canonicalize": 0.5,
    "cse": 0.3,
    "loop-split": 0.1,
    "loop-invariant-code-motion": 0.05,
    "constant-fold": 0.5,
    # cuda-tile-optimize -O3
    "any(canonicalize, cse, loop-invariant-code-motion, loop-split, canonicalize)": 0.5,
    # these change locations and names only (the ops stay the same)
    "synthesize-debug-info-scopes": 0.0,
    "test-debuginfo-update-symbol-name{symbol-to-rename=kernels new-name=renamed "
    "update-uses=true}": 0.0,
}


def _batches(count: int):
    for start in range(0, count, BATCH):
        yield start, min(BATCH, count - start)


def _names(start: int, n: int) -> list[str]:
    return [f"k{start + i}" for i in range(n)]


@functools.lru_cache(maxsize=None)
def _batch_text(start: int, n: int) -> str:
    return kernelgen.module_text([kernelgen.random_kernel(seed, name)
                                  for seed, name in zip(range(start, start + n),
                                                        _names(start, n))])


def _run_all(module, start: int, n: int) -> list[tuple[bytes, bytes]]:
    """The output buffers of every kernel of a (verified) batch module."""
    out = []
    for seed, name in zip(range(start, start + n), _names(start, n)):
        args = kernelgen.random_arguments(np.random.default_rng(10_000 + seed))
        tileir.compile(module, name, verify=False).launch((1, 1, 1), args)
        out.append((args[-2].tobytes(), args[-1].tobytes()))
    return out


@functools.lru_cache(maxsize=None)
def _reference(start: int, n: int):
    """The parsed batch module (passes run on copies of it) and its outputs."""
    module = tileir.parse(_batch_text(start, n))
    tileir.verify(module)
    return module, _run_all(module, start, n)


def _shape(module) -> dict[str, tuple]:
    """Per entry, the op names in walk order: differs when a pass changed the entry."""
    return {op.attributes["sym_name"].value: tuple(o.name for o in op.walk())
            for op in module.walk() if op.name == "cuda_tile.entry"}


def _check_effect(pipeline: str, module) -> None:
    """The passes that change no op: did they do their job?"""
    if pipeline == "synthesize-debug-info-scopes":
        assert all(type(op.loc).__name__ == "DILoc" for entry in module.walk()
                   if entry.name == "cuda_tile.entry" for op in entry.walk())
    elif pipeline.startswith("test-debuginfo-update-symbol-name"):
        names = [op.attributes["sym_name"].value for op in module.walk()
                 if op.name == "cuda_tile.module"]
        assert names == ["renamed"]


@pytest.mark.parametrize("pipeline", list(PIPELINES))
def test_pass_preserves_every_output_bit(pipeline):
    validated = changed = 0
    failures = []
    for start, n in _batches(KERNELS):
        base, reference = _reference(start, n)
        module = clone_op(base, {})
        run_pipeline(module, pipeline)  # verifies after each pass
        _check_effect(pipeline, module)
        if start == 0:  # the printed form of the result means the same
            module = tileir.parse(tileir.print(module))
            tileir.verify(module)
        before, after = _shape(base), _shape(module)
        changed += sum(before[k] != after[k] for k in before)
        for name, ref, got in zip(_names(start, n), reference, _run_all(module, start, n)):
            validated += 1
            if ref != got:
                failures.append(name)
    print(f"\n{pipeline}: {validated} kernels validated, {changed} changed by the pass")
    assert not failures, (f"{pipeline} changed the outputs of {len(failures)} kernels, e.g. "
                          f"{failures[:5]} (kernelgen.random_kernel(seed) with seed = the number)")
    assert validated >= KERNELS
    assert changed >= PIPELINES[pipeline] * validated, f"{pipeline} changed only {changed}"


def test_fuse_fma_matches_the_contracted_kernel():
    validated = 0
    failures = []
    for start, n in _batches(KERNELS):
        names = _names(start, n)
        pairs = [kernelgen.fma_kernel(seed, name) for seed, name in
                 zip(range(start, start + n), names)]
        original = tileir.parse(kernelgen.module_text([p[0] for p in pairs]))
        expected = tileir.parse(kernelgen.module_text([p[1] for p in pairs]))
        run_pipeline(original, "fuse-fma")
        fused = tileir.parse(tileir.print(original))
        tileir.verify(fused)
        got, want = _run_all(fused, start, n), _run_all(expected, start, n)
        for name, a, b in zip(names, got, want):
            validated += 1
            if a != b:
                failures.append(name)
    print(f"\nfuse-fma: {validated} kernels validated against their contracted form")
    assert not failures, f"fuse-fma differs from the contracted kernel for {failures[:5]}"
    assert validated >= KERNELS
