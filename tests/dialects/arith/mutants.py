"""Invalid modules made by mutating random valid ones (:mod:`.random_modules`): one textual
change each (a type, an op name, a flag, a branch target...), most of which break a verifier
rule or the syntax."""

from __future__ import annotations

import random
from typing import Optional

from random_modules import random_module

#: (text, replacement) mutations, applied to one line
MUTATIONS = (
    (" : i32", " : i64"), (" : f32", " : f16"), (" : f64", " : bf16"), (" : i64", " : index"),
    ("arith.addi", "arith.addf"), ("arith.addf", "arith.addi"), ("arith.extsi", "arith.trunci"),
    ("arith.extf", "arith.truncf"), ("arith.cmpi", "arith.cmpf"), ("arith.cmpf", "arith.cmpi"),
    ("index.add", "arith.addi"), ("math.sin", "math.absi"), ("math.cos", "math.ctlz"),
    (" to f64", " to f16"), (" to i64", " to i8"), (" to index", " to i32"),
    ("cf.br ^bb1", "cf.br ^bb2"), ("return %k", "return %a0"), ("i1", "i8"),
    ("overflow<nsw>", "overflow<exact>"), ("fastmath<fast>", "fastmath<quick>"),
    ("arith.select", "arith.cmpi eq,"), ("dense<", "dense<[1, 2, 3, 4, 5]> : vector<5xi32> //"),
    ("(%k0) : (i32) -> i32", "(%k0) : (i32) -> i64"), ("^bb1(", "^bb1(%extra: i1, "),
    ("arith.constant 7 : i32", "arith.constant 7 : si32"), ("arith.sitofp", "arith.fptosi"),
    ("index.cmp", "index.cmp nope"), ("arith.maxsi", "arith.maximumf"), (" exact", " exact exact"),
    ("cf.cond_br %", "cf.cond_br %k0, %"), ("index.casts", "arith.index_cast"),
)


def mutant(seed: int) -> Optional[str]:
    """The module of ``random_module(seed)`` with one mutation, or None if none applied."""
    rng = random.Random(seed)
    lines = random_module(seed).split("\n")
    for _ in range(20):
        k = rng.randrange(len(lines))
        old, new = rng.choice(MUTATIONS)
        if old == "i1" and "dense<" in lines[k]:
            # dense<[true, ...]> of a non-i1 type: the builtin attribute parser's message
            # differs (issue-09-builtin's area), not an op rule
            continue
        if old in lines[k]:
            lines[k] = lines[k].replace(old, new, 1)
            return "\n".join(lines)
    return None
