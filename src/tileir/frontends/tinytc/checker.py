"""Whole-program rules checked after parsing: collective instructions are not allowed inside a
``foreach`` (spmd) region (as in tinytc v0.3.1, also not in a region nested in it), and
``yield`` appears only as the last instruction of an ``if`` region and matches the ``if``'s
result types (an ``if`` with results needs an ``else``)."""

from __future__ import annotations

from .diagnostics import TinytcError
from .ir import Inst, Program, Region
from .semantics import MESSAGES

__all__ = ["check_program"]


def check_program(prog: Program) -> None:
    """Raise :class:`TinytcError` at the first violated rule."""
    for fn in prog.functions:
        _Checker(prog).region(fn.body, spmd=False, yields=None)


class _Checker:
    def __init__(self, prog: Program) -> None:
        self.prog = prog

    def fail(self, key: str, loc) -> TinytcError:
        return TinytcError(MESSAGES[key], loc, self.prog.filename, self.prog.source)

    def region(self, region: Region, spmd: bool, yields) -> None:
        """``yields``: the result types the region's final ``yield`` must give, or None where
        no ``yield`` is allowed."""
        for i, inst in enumerate(region.insts):
            last = i == len(region.insts) - 1
            if spmd and inst.is_collective:
                raise self.fail("collective_called_from_spmd", inst.loc)
            if inst.op == "yield":
                if yields is None:
                    raise self.fail("unexpected_yield", inst.loc)
                if not last or len(inst.types) != len(yields) or \
                        any(a != b for a, b in zip(inst.types, yields)):
                    raise self.fail("yield_mismatch", inst.loc)
            elif last and yields:
                raise self.fail("yield_mismatch", inst.loc)
            self.nested(inst, spmd)
        if not region.insts and yields:
            raise self.fail("yield_mismatch", region.loc)

    def nested(self, inst: Inst, spmd: bool) -> None:
        if inst.op in ("for", "foreach"):
            self.region(inst.regions[0], spmd or inst.op == "foreach", None)
        elif inst.op == "if":
            types = list(inst.types)
            if types and len(inst.regions) < 2:
                raise self.fail("if_needs_else", inst.loc)
            for r in inst.regions:
                self.region(r, spmd, types)

