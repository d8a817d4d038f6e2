"""Errors raised by the CPU executor.

Every problem found while binding arguments or running a kernel is a :class:`LaunchError`.  Errors
raised by an op while it runs name the op, its source location, the tile block and (where it
applies) the element index inside the tile, e.g.::

    kernel.mlir:12:5: error: 'cuda_tile.load_ptr_tko' out-of-bounds read of 4 bytes at address
    0x10001000 (no buffer there); tile block (3, 0, 0), element [7]
"""

from __future__ import annotations

from typing import Optional, Sequence

__all__ = ["LaunchError", "ArgumentError", "GridError", "MemoryAccessError", "AssertionFailure",
           "AssumptionViolation", "UndefinedBehaviorError", "UnsupportedError", "OpContext"]


class OpContext:
    """Where an error happened: the op's name and printable source location."""

    __slots__ = ("name", "loc")

    def __init__(self, name: str, loc: str = "") -> None:
        self.name = name
        self.loc = loc

    def prefix(self) -> str:
        return f"{self.loc}: error: '{self.name}'" if self.loc else f"error: '{self.name}'"


class LaunchError(Exception):
    """Base class of every error raised by :func:`tileir.launch` and :func:`tileir.compile`.

    ``op`` is the op's name, ``loc`` its location (``file:line:col`` or ``""``), ``block`` the tile
    block id ``(x, y, z)`` and ``element`` the index inside the tile, when they apply."""

    def __init__(self, message: str, *, op: Optional[str] = None, loc: str = "",
                 block: Optional[tuple] = None, element: Optional[tuple] = None) -> None:
        self.message = message
        self.op = op
        self.loc = loc
        self.block = block
        self.element = element
        super().__init__(self._render())

    def _render(self) -> str:
        text = ""
        if self.loc:
            text += f"{self.loc}: "
        text += "error: "
        if self.op:
            text += f"'{self.op}' "
        text += self.message
        where = []
        if self.block is not None:
            where.append("tile block (" + ", ".join(str(int(b)) for b in self.block) + ")")
        if self.element is not None:
            where.append("element [" + ", ".join(str(int(i)) for i in self.element) + "]")
        if where:
            text += "; " + ", ".join(where)
        return text

    @classmethod
    def at(cls, ctx: Optional[OpContext], message: str, *, block=None, element=None, **kw):
        return cls(message, op=ctx.name if ctx else None, loc=ctx.loc if ctx else "",
                   block=block, element=element, **kw)


class ArgumentError(LaunchError, TypeError):
    """Wrong number, kind, dtype or shape of kernel arguments (raised before anything runs)."""


class GridError(LaunchError, ValueError):
    """A grid that is not 1 to 3 positive extents each below 2**24."""


class MemoryAccessError(LaunchError):
    """An access outside every buffer, a misaligned access, or a write to read-only memory."""


class AssertionFailure(LaunchError):
    """``cuda_tile.assert`` found false elements.  ``failures`` lists ``(block, element)``."""

    def __init__(self, message: str, *, failures: Sequence[tuple] = (), **kw) -> None:
        self.failures = list(failures)
        super().__init__(message, **kw)


class AssumptionViolation(LaunchError):
    """With ``check_assumptions=True``: a ``cuda_tile.assume`` predicate does not hold."""


class UndefinedBehaviorError(LaunchError):
    """The program did something the spec leaves undefined and the executor refuses to guess
    (an index outside a view's index space, a non-positive ``for`` step, a runaway loop...)."""


class UnsupportedError(LaunchError):
    """The executor cannot run this construct."""
