"""Shared pieces of the cuda_tile op definitions."""

from __future__ import annotations

from ....ir.opdef import OpBase

__all__ = ["CudaTileOp", "TYPE_FMT", "UNARY_FMT", "BINARY_FMT"]

#: ``custom<CudaTileType>(type($x))`` abbreviated: the engine treats ``type($x)`` the same way.
TYPE_FMT = "custom<CudaTileType>(type(${}))"
UNARY_FMT = "$source attr-dict `:` custom<CudaTileType>(type($result))"
BINARY_FMT = "$lhs `,` $rhs attr-dict `:` custom<CudaTileType>(type($result))"


class CudaTileOp(OpBase):
    """Base of every cuda_tile op."""

    __slots__ = ()
    DIALECT_NAME = "cuda_tile"
