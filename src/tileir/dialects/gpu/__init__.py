"""MLIR's gpu dialect: types (:mod:`.types`), attributes (:mod:`.attributes`), their text
syntax (:mod:`.syntax`) and ops (:mod:`.ops`).  Importing the package registers it."""

from __future__ import annotations

from . import dialect, syntax  # noqa: F401
from . import ops  # noqa: F401
from . import lineforms  # noqa: F401
