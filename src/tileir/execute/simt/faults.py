"""Lane-level faults raised by plan steps; the interpreter adds the op, location and thread."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ..errors import LaunchError, UndefinedBehaviorError

__all__ = ["LaneFault", "ub"]


class LaneFault(Exception):
    """A problem on some lanes: ``bad`` is a boolean lane array marking them (or None: all lanes
    or not lane specific), ``index`` an optional element index to report, ``kind`` the
    :class:`LaunchError` subclass to raise."""

    def __init__(self, message: str, bad: Optional[np.ndarray] = None, *,
                 kind: type = UndefinedBehaviorError, index: Optional[tuple] = None,
                 lane: Optional[tuple] = None) -> None:
        super().__init__(message)
        self.message = message
        self.bad = bad
        self.kind = kind if issubclass(kind, LaunchError) else UndefinedBehaviorError
        self.index = index
        self.lane = lane


def ub(message: str, bad: Any = None) -> LaneFault:
    """An undefined-behaviour fault (division by zero, poison shift, ...) on the ``bad`` lanes."""
    return LaneFault(message, None if bad is None else np.asarray(bad, dtype=bool))
