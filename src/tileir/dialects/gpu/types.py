"""Types of the MLIR gpu dialect: ``!gpu.async.token``, ``!gpu.mma_matrix<RxCxT, "Op">`` and the
sparse handles (``!gpu.sparse.dntensor_handle``, ``!gpu.sparse.spmat_handle``,
``!gpu.sparse.spgemmop_handle``).  Their spelling is the same inside and outside gpu ops, so the
short form carries the ``!gpu.`` prefix."""

from __future__ import annotations

from ...ir.types import Type

__all__ = ["GpuType", "AsyncTokenType", "MMAMatrixType", "SparseHandleType", "ASYNC_TOKEN",
           "DN_TENSOR_HANDLE", "SPMAT_HANDLE", "SPGEMMOP_HANDLE", "MMA_OPERANDS",
           "MMA_ELEMENT_TYPES", "MMA_ELEMENT_ERROR"]

#: The operand roles an mma_matrix type may name.
MMA_OPERANDS = ("AOp", "BOp", "COp")
#: Element types an mma_matrix may hold (MLIR 22: also f64).
MMA_ELEMENT_TYPES = ("si8", "ui8", "i32", "f16", "f32", "f64")
MMA_ELEMENT_ERROR = "MMAMatrixType elements must be SI8, UI8, I32, F16, F32, or F64"


class GpuType(Type):
    """Base of the gpu dialect's types (spelled with their ``!gpu.`` prefix everywhere)."""

    __slots__ = ()
    DIALECT = ""


class AsyncTokenType(GpuType):
    """``!gpu.async.token``: orders asynchronous gpu ops."""

    __slots__ = ()

    def __new__(cls) -> "AsyncTokenType":
        return cls._intern(())

    def _init(self) -> None:
        pass

    def _make_short(self) -> str:
        return "!gpu.async.token"


class SparseHandleType(GpuType):
    """An opaque sparse-library handle: ``!gpu.sparse.<kind>_handle``."""

    __slots__ = ("kind",)
    kind: str

    def __new__(cls, kind: str) -> "SparseHandleType":
        return cls._intern((kind,), kind)

    def _init(self, kind: str) -> None:
        self.kind = kind

    def _make_short(self) -> str:
        return f"!gpu.sparse.{self.kind}_handle"


class MMAMatrixType(GpuType):
    """``!gpu.mma_matrix<16x16xf16, "AOp">``: a matrix distributed over a subgroup."""

    __slots__ = ("shape", "element", "operand")
    shape: tuple[int, ...]
    element: Type
    operand: str

    def __new__(cls, shape, element: Type, operand: str) -> "MMAMatrixType":
        return cls._intern((tuple(shape), element, operand), tuple(shape), element, operand)

    def _init(self, shape, element, operand) -> None:
        self.shape, self.element, self.operand = shape, element, operand

    def _make_short(self) -> str:
        dims = "x".join(str(d) for d in self.shape)
        return f'!gpu.mma_matrix<{dims}x{self.element}, "{self.operand}">'


ASYNC_TOKEN = AsyncTokenType()
DN_TENSOR_HANDLE = SparseHandleType("dntensor")
SPMAT_HANDLE = SparseHandleType("spmat")
SPGEMMOP_HANDLE = SparseHandleType("spgemmop")
