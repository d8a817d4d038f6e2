"""The tinytc program representation: types, values, instructions, functions.

Types are frozen dataclasses compared structurally; a dynamic size, stride or offset is ``None``
(printed ``?``).  Instructions are :class:`Inst` records: ``op`` names the instruction (``"gemm"``,
``"arith"``...), ``attrs`` holds its modifiers, ``operands`` its values in source order and
``results``/``regions`` what it defines and contains.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from .diagnostics import NO_LOC, Loc

__all__ = ["ScalarType", "MemrefType", "GroupType", "Type", "INTEGER_TYPES", "FLOAT_TYPES",
           "SCALAR_TYPES", "canonical_strides", "Value", "Imm", "Operand", "Inst", "Region",
           "Function", "Program", "is_integer", "is_float"]

INTEGER_TYPES = ("i1", "i8", "i16", "i32", "i64", "index")
FLOAT_TYPES = ("f32", "f64")
SCALAR_TYPES = INTEGER_TYPES + FLOAT_TYPES

Dim = Optional[int]


def is_integer(name: str) -> bool:
    return name in INTEGER_TYPES


def is_float(name: str) -> bool:
    return name in FLOAT_TYPES


@dataclass(frozen=True)
class ScalarType:
    """``i1`` ... ``i64``, ``index``, ``f32``, ``f64``."""

    name: str

    def __str__(self) -> str:
        return self.name


def canonical_strides(shape: tuple) -> tuple:
    """The packed column-major strides of ``shape`` (``None`` after a dynamic mode)."""
    if not shape:
        return ()
    strides: list = [1]
    for size in shape[:-1]:
        prev = strides[-1]
        strides.append(None if prev is None or size is None else prev * size)
    return tuple(strides)


def _dim(d: Dim) -> str:
    return "?" if d is None else str(d)


@dataclass(frozen=True)
class MemrefType:
    """``memref<T x s1 x ... x sn [, strided<S1, ..., Sn>]>``."""

    element: str
    shape: tuple
    strides: tuple

    @property
    def order(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        text = "memref<" + self.element + "".join("x" + _dim(s) for s in self.shape)
        if self.strides != canonical_strides(self.shape):
            text += ",strided<" + ",".join(_dim(s) for s in self.strides) + ">"
        return text + ">"


@dataclass(frozen=True)
class GroupType:
    """``group<memref<...> [, offset: k]>``; equality ignores the offset (as tinytc v0.3.1)."""

    memref: MemrefType
    offset: Dim = field(default=0, compare=False)

    def __str__(self) -> str:
        text = "group<" + str(self.memref)
        if self.offset != 0:
            text += ", offset: " + _dim(self.offset)
        return text + ">"


Type = Union[ScalarType, MemrefType, GroupType]


@dataclass(eq=False)
class Value:
    """An SSA value: a function argument, a loop variable or an instruction result."""

    name: str
    type: Type
    loc: Loc = NO_LOC

    def __str__(self) -> str:
        return "%" + self.name


@dataclass(eq=False)
class Imm:
    """An immediate; its type is the annotation it is used with (``None``: ``?`` in a shape)."""

    value: Union[int, float, None]
    type: Optional[ScalarType]
    loc: Loc = NO_LOC
    text: str = ""

    @property
    def is_dynamic(self) -> bool:
        return self.value is None

    def __str__(self) -> str:
        if self.value is None:
            return "?"
        if isinstance(self.value, float):
            return _float_text(self.value)
        return str(self.value)


def _float_text(v: float) -> str:
    if v in (float("inf"), float("-inf")):     # a literal beyond the double range
        return "-1.0e+999" if v < 0 else "1.0e+999"
    text = repr(v)
    if "e" in text or "E" in text:
        mant, exp = text.lower().split("e")
        if "." not in mant:
            mant += ".0"
        return mant + "e" + exp
    return text


Operand = Union[Value, Imm]


@dataclass(eq=False)
class Region:
    insts: list = field(default_factory=list)
    loc: Loc = NO_LOC


@dataclass(eq=False)
class Inst:
    """One instruction.  ``types`` are the type annotations as written."""

    op: str
    operands: list = field(default_factory=list)
    types: list = field(default_factory=list)
    results: list = field(default_factory=list)
    regions: list = field(default_factory=list)
    attrs: dict = field(default_factory=dict)
    loc: Loc = NO_LOC

    @property
    def is_collective(self) -> bool:
        return self.op in COLLECTIVE_OPS


#: instructions that distribute work over the work group (forbidden in spmd regions)
COLLECTIVE_OPS = frozenset({"alloca", "axpby", "foreach", "gemm", "gemv", "ger", "hadamard",
                            "sum"})


@dataclass(eq=False)
class Function:
    name: str
    args: list
    body: Region
    work_group_size: Optional[tuple] = None
    subgroup_size: Optional[int] = None
    loc: Loc = NO_LOC


@dataclass(eq=False)
class Program:
    functions: list
    filename: str = "<stdin>"
    source: Optional[str] = None

    def function(self, name: str) -> Function:
        for f in self.functions:
            if f.name == name.lstrip("@"):
                return f
        names = ", ".join("@" + f.name for f in self.functions)
        raise KeyError(f"no function @{name.lstrip('@')} in the program (functions: {names})")
