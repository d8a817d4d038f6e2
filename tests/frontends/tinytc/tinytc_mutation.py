"""Random edits of program text for the tinytc front end's fuzz tests (one definition for
the corpus fuzz and the robustness hunt)."""

from __future__ import annotations

import random
from typing import Sequence


def mutate(text: str, rng: random.Random, fragments: Sequence[str], *, span: int = 8,
           truncate: bool = False) -> str:
    """One to three random edits: delete, insert or replace a span of at most ``span``
    characters (inserted text drawn from ``fragments``), duplicate or drop a line, and with
    ``truncate`` also cut the text short."""
    kinds = 6 if truncate else 5
    for _ in range(rng.randint(1, 3)):
        if not text:
            text = rng.choice(fragments)
        kind = rng.randrange(kinds)
        i = rng.randrange(len(text))
        j = min(len(text), i + rng.randint(1, span))
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + rng.choice(fragments) + text[i:]
        elif kind == 2:
            text = text[:i] + rng.choice(fragments) + text[j:]
        elif kind == kinds - 1 and truncate:
            text = text[:i]
        else:
            lines = text.split("\n")
            k = rng.randrange(len(lines))
            if kind == 3:
                lines.insert(k, lines[k])
            else:
                del lines[k]
            text = "\n".join(lines)
    return text
