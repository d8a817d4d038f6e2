"""Mutation fuzz of the builtin type/attribute/module parser paths: every mutant either parses
(and then prints a text that parses back, to the same print without affine maps) or gets a diagnostic; never a
Python exception or a hang.  ``TILEIR_BUILTIN_FUZZ`` sets the number of mutants (default 400)."""

from __future__ import annotations

import os
import random

from test_builtin_attributes import ATTRIBUTES
from test_builtin_module import IMPLICIT, MODULE
from test_builtin_types import MAP_TYPES, TYPES

from tileir.cli.opt import process_buffer
from tileir.ir.diagnostics import DiagnosticError
from tileir.text.printer import print_op

_PIECES = list("<>[](){},:x?*#!@\"-+= ") + ["0", "4", "?x", "[4]x", "f32", "i8", "index",
                                            "d0", "s0", "affine_map<", "strided<[", "offset: ",
                                            "0x", "1.5", "tensor<", "memref<", "vector<", "->",
                                            "floordiv", "dense<", "loc(", "#map", "!t"]


def _seeds() -> list[str]:
    seeds = [f'"foo.op"() {{a = {a}}} : () -> ()\n' for a in ATTRIBUTES]
    seeds += [f'%0 = "foo.op"() : () -> {t}\n' for t, _ in TYPES if "->" not in t]
    seeds += [f'"foo.op"() {{t = {t}}} : () -> ()\n' for t in MAP_TYPES]
    return seeds + [MODULE, IMPLICIT]


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(text) + 1)
        j = min(len(text), i + rng.randint(0, 6))
        kind = rng.randrange(4)
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + rng.choice(_PIECES) + text[i:]
        elif kind == 2:
            text = text[:i] + rng.choice(_PIECES) + text[j:]
        else:
            text = text[:i] + text[i:j] + text[i:]
    return text


def _check(text: str) -> bool:
    """True if ``text`` parsed; asserts printing is stable when it does."""
    res = process_buffer(text, "<fuzz>", allow_unregistered=True)
    if res.module is None:
        assert res.diagnostics, text
        return False
    printed = print_op(res.module)
    again = process_buffer(printed, "<fuzz>", allow_unregistered=True)
    assert again.module is not None, (text, printed, [str(d.message) for d in again.diagnostics])
    if "affine_" not in printed:
        # (MLIR's affine maps need not print stably: it reassociates sums without simplifying)
        assert print_op(again.module) == printed, text
    return True


def test_mutants_get_diagnostics_not_tracebacks(capsys):
    count = int(os.environ.get("TILEIR_BUILTIN_FUZZ", "400"))
    rng = random.Random(9)
    seeds = _seeds()
    parsed = 0
    for n in range(count):
        mutant = _mutate(rng.choice(seeds), rng)
        try:
            parsed += _check(mutant)
        except DiagnosticError:
            pass
        except AssertionError:
            raise
        except Exception as exc:  # pragma: no cover - the failure being tested for
            raise AssertionError(f"mutant #{n} raised {type(exc).__name__}: {exc}\n{mutant}")
    with capsys.disabled():
        print(f"\nbuiltin fuzz: {count} mutants, {parsed} parsed, {count - parsed} rejected")
