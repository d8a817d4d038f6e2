"""A slice of MLIR's llvm dialect: the core instructions (:mod:`.core`), ``llvm.mlir.zero`` (the gpu dialect's tests pass
LLVM pointers as launch streams), ``llvm.func`` declarations and definitions (variadic ones too), ``llvm.call``
(with ``vararg(...)``), the string globals C ``printf`` programs use (:mod:`.globals`) and the
matrix intrinsics (:mod:`.matrix`).  ``!llvm.ptr`` is parsed as MLIR 22 does (opaque, with an
optional address space); other LLVM types stay verbatim."""

from __future__ import annotations

from . import core, globals, matrix, ops, types  # noqa: F401
