"""Fuzzing the reader: mutated valid bytecode may be rejected, but only with a BytecodeError
(never another exception, never an internal error), and what it accepts can be written back.

A bounded number of hypothesis examples runs in the suite; ``benchmarks/fuzz_bytecode.py``
runs the same check for as long as you like."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tileir.bytecode.fuzz import check, mutate, seed_corpus

_SEEDS = seed_corpus()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=len(_SEEDS) - 1),
       mutation_seed=st.integers(min_value=0, max_value=2 ** 32 - 1),
       rounds=st.integers(min_value=1, max_value=6))
def test_mutated_bytecode_only_raises_bytecode_error(seed, mutation_seed, rounds):
    data = mutate(_SEEDS[seed], random.Random(mutation_seed), rounds)
    check(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_with_valid_header(tail):
    check(b"\x7fTileIR\x00\x0d\x03\x00\x00" + tail)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=len(_SEEDS) - 1), data=st.data())
def test_single_byte_edits_everywhere(seed, data):
    """Every position of a valid file, every replacement byte value."""
    base = _SEEDS[seed]
    i = data.draw(st.integers(min_value=0, max_value=len(base) - 1))
    b = data.draw(st.integers(min_value=0, max_value=255))
    check(base[:i] + bytes((b,)) + base[i + 1:])


def test_every_truncation_is_rejected_cleanly():
    for base in _SEEDS[:2]:
        for n in range(len(base)):
            assert check(base[:n]) == "rejected"
