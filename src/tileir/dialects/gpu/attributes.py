"""Attributes of the MLIR gpu dialect.

* Enums, spelled ``#gpu<dim x>`` in the generic form (``#gpu.address_space<workgroup>`` for
  address spaces) and by their keyword in custom op syntax.
* ``#gpu.object<target, [properties = {..},] [kernels = <[..]>,] [format =] "blob">``,
  ``#gpu.select_object<..>``, ``#gpu.kernel_metadata<..>`` and ``#gpu.kernel_table<[..]>``.
Target attributes of other dialects (``#nvvm.target<..>``) stay opaque.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ...ir.attributes import Attribute, DictionaryAttr, EnumAttr, quote_string

__all__ = ["GpuEnum", "Dimension", "AllReduceOperation", "ShuffleMode", "AddressSpace",
           "MMAElementwiseOp", "TransposeMode", "Prune2To4SpMatFlag",
           "SpGEMMWorkEstimationOrComputeKind", "BroadcastType", "ENUMS_BY_MNEMONIC",
           "ObjectAttr", "SelectObjectAttr", "KernelMetadataAttr", "KernelTableAttr",
           "OBJECT_FORMATS"]


class GpuEnum(EnumAttr):
    """A gpu enum: keywords are the member names as written (``x``, ``NON_TRANSPOSE``)."""

    @property
    def keyword(self) -> str:
        return self.name

    @classmethod
    def from_keyword(cls, keyword: str) -> Optional["GpuEnum"]:
        return cls.__members__.get(keyword)

    @classmethod
    def mnemonic(cls) -> str:
        return ENUM_MNEMONIC_OF[cls]

    def custom_syntax(self) -> str:
        """The spelling in an op's declarative custom form: MLIR prints gpu enum attributes
        with a leading space of their own (``{ TRANSPOSE}``, ``gpu.thread_id  x``)."""
        return " " + self.keyword

    def generic(self) -> str:
        if type(self) is AddressSpace:
            return f"#gpu.address_space<{self.keyword}>"
        return f"#gpu<{self.mnemonic()} {self.keyword}>"

    __str__ = generic


def _enum(name: str, mnemonic: str, description: str, keywords: list[str]) -> type:
    cls = GpuEnum(name, [(k, i) for i, k in enumerate(keywords)])
    ENUM_MNEMONIC_OF[cls] = mnemonic
    ENUMS_BY_MNEMONIC[mnemonic] = cls
    ENUM_DESCRIPTION[cls] = description
    return cls


ENUM_MNEMONIC_OF: dict[type, str] = {}
#: ``dim`` -> Dimension ...: the enums by the mnemonic of their ``#gpu<mnemonic kw>`` form.
ENUMS_BY_MNEMONIC: dict[str, type] = {}
#: ODS summaries (``expected <summary> to be one of: ...``).
ENUM_DESCRIPTION: dict[type, str] = {}

Dimension = _enum("Dimension", "dim", "::mlir::gpu::Dimension", ["x", "y", "z"])
AllReduceOperation = _enum(
    "AllReduceOperation", "all_reduce_op", "::mlir::gpu::AllReduceOperation",
    ["add", "mul", "minui", "minsi", "minnumf", "maxui", "maxsi", "maxnumf", "and", "or", "xor",
     "minimumf", "maximumf"])
ShuffleMode = _enum("ShuffleMode", "shuffle_mode", "::mlir::gpu::ShuffleMode",
                    ["xor", "up", "down", "idx"])
AddressSpace = _enum("AddressSpace", "address_space", "::mlir::gpu::AddressSpace",
                     ["global", "workgroup", "private"])
MMAElementwiseOp = _enum(
    "MMAElementwiseOp", "mma_element_wise", "::mlir::gpu::MMAElementwiseOp",
    ["addf", "mulf", "subf", "maxf", "minf", "divf", "addi", "muli", "subi", "divs", "divu",
     "negatef", "negates", "extf"])
TransposeMode = _enum("TransposeMode", "mat_transpose_mode", "::mlir::gpu::TransposeMode",
                      ["NON_TRANSPOSE", "TRANSPOSE", "CONJUGATE_TRANSPOSE"])
Prune2To4SpMatFlag = _enum("Prune2To4SpMatFlag", "prune_2to4_spmat_flag",
                           "::mlir::gpu::Prune2To4SpMatFlag",
                           ["NONE", "PRUNE_ONLY", "PRUNE_AND_CHECK"])
SpGEMMWorkEstimationOrComputeKind = _enum(
    "SpGEMMWorkEstimationOrComputeKind", "spgemm_work_estimation_or_compute_kind",
    "::mlir::gpu::SpGEMMWorkEstimationOrComputeKind", ["WORK_ESTIMATION", "COMPUTE"])
BroadcastType = _enum("BroadcastType", "broadcast", "::mlir::gpu::BroadcastType",
                      ["first_active_lane", "specific_lane"])

#: ``#gpu.object`` formats; ``fatbin`` is the default and is not printed.
OBJECT_FORMATS = ("offload", "assembly", "bin", "fatbin")


@dataclass(frozen=True)
class KernelMetadataAttr(Attribute):
    """``#gpu.kernel_metadata<"name", (T..) -> (), arg_attrs = [..], metadata = {..}>``."""

    name: str
    function_type: object
    arg_attrs: Optional[Attribute] = None
    metadata: Optional[Attribute] = None

    def body(self) -> str:
        text = f"{quote_string(self.name)}, {self.function_type}"
        if self.arg_attrs is not None:
            text += f", arg_attrs = {self.arg_attrs}"
        if self.metadata is not None:
            text += f", metadata = {self.metadata}"
        return text

    def generic(self) -> str:
        return f"#gpu.kernel_metadata<{self.body()}>"


@dataclass(frozen=True)
class KernelTableAttr(Attribute):
    """``#gpu.kernel_table<[#gpu.kernel_metadata<..>, ..]>``, kept sorted by kernel name."""

    kernels: tuple

    @staticmethod
    def of(kernels) -> "KernelTableAttr":
        return KernelTableAttr(tuple(sorted(kernels, key=lambda k: k.name.encode("utf-8", "surrogateescape"))))

    def body(self) -> str:
        return "<[" + ", ".join(str(k) for k in self.kernels) + "]>"

    def generic(self) -> str:
        return "#gpu.kernel_table" + self.body()


@dataclass(frozen=True)
class ObjectAttr(Attribute):
    """``#gpu.object<target, [properties = {..},] [kernels = <[..]>,] [format =] "blob">``."""

    target: Attribute
    format: str
    blob: bytes
    properties: Optional[DictionaryAttr] = None
    kernels: Optional[KernelTableAttr] = None

    def generic(self) -> str:
        parts = [str(self.target)]
        if self.properties is not None:
            parts.append(f"properties = {self.properties}")
        if self.kernels is not None:
            parts.append(f"kernels = {self.kernels.body()}")
        blob = quote_string(self.blob)
        parts.append(blob if self.format == "fatbin" else f"{self.format} = {blob}")
        return "#gpu.object<" + ", ".join(parts) + ">"


@dataclass(frozen=True)
class SelectObjectAttr(Attribute):
    """``#gpu.select_object<target-or-index>``: the offloading handler that picks one object."""

    target: Optional[Attribute]

    def generic(self) -> str:
        if self.target is None:
            return "#gpu.select_object"
        return f"#gpu.select_object<{self.target}>"

