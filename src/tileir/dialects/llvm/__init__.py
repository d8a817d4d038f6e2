"""A minimal slice of MLIR's llvm dialect: ``llvm.mlir.zero`` only (the gpu dialect's tests
pass LLVM pointers as launch streams).  LLVM types such as ``!llvm.ptr`` stay verbatim."""

from __future__ import annotations

from . import ops  # noqa: F401
