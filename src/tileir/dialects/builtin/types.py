"""MLIR's builtin types beyond the core's signless integers, floats and function types:
``index``, ``none``, signed/unsigned integers, ``complex``, ``vector``, ``tensor``, ``memref``
(ranked and unranked) and ``tuple``.

They subclass :class:`tileir.ir.types.BuiltinType` (types that are not cuda_tile's, which the
cuda_tile verifier rejects), are interned like every type, and spell themselves as
``mlir-opt`` prints them.  Shapes use ``None`` for a dynamic size (``?``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from ...ir.attributes import Attribute, IntegerAttr
from ...ir.types import I64, BuiltinType, Type

__all__ = ["BuiltinDialectType", "IndexType", "NoneType", "SignedIntegerType", "ComplexType",
           "VectorType", "RankedTensorType", "UnrankedTensorType", "MemRefType",
           "UnrankedMemRefType", "TupleType", "StridedLayoutAttr", "INDEX", "NONE",
           "shape_text", "attr_text"]

#: the printed form of a dynamic size or stride
DYNAMIC_TEXT = "?"


def shape_text(shape: Sequence[Optional[int]], scalable: Sequence[bool] = ()) -> str:
    """``4x?x[8]x`` (each dimension followed by ``x``)."""
    parts = []
    for i, d in enumerate(shape):
        text = DYNAMIC_TEXT if d is None else str(d)
        if scalable and scalable[i]:
            text = f"[{text}]"
        parts.append(text + "x")
    return "".join(parts)


def attr_text(attr: Attribute) -> str:
    """An attribute as MLIR prints it inside a type (an ``i64`` integer without its type)."""
    if isinstance(attr, IntegerAttr) and attr.type is I64:
        return str(attr.value)
    return str(attr)


class BuiltinDialectType(BuiltinType):
    """Base of the builtin types modelled here: ``text`` is the spelling (:meth:`spell`)."""

    __slots__ = ()

    def _init(self, *fields) -> None:
        pass

    def _make_short(self) -> str:
        self.text = self.spell()
        return self.text

    def spell(self) -> str:  # pragma: no cover - overridden
        """The type's spelling."""
        raise NotImplementedError


class IndexType(BuiltinDialectType):
    """``index``: the target's pointer-sized integer."""

    __slots__ = ()

    def __new__(cls) -> "IndexType":
        return cls._intern(())

    def spell(self) -> str:
        return "index"


class NoneType(BuiltinDialectType):
    """``none``: the unit type."""

    __slots__ = ()

    def __new__(cls) -> "NoneType":
        return cls._intern(())

    def spell(self) -> str:
        return "none"


INDEX = IndexType()
NONE = NoneType()


class SignedIntegerType(BuiltinDialectType):
    """``siN`` (``signed=True``) or ``uiN`` (``signed=False``); signless ``iN`` is the core's
    :class:`~tileir.ir.types.IntegerType`."""

    __slots__ = ("width", "signed")
    width: int
    signed: bool

    def __new__(cls, width: int, signed: bool) -> "SignedIntegerType":
        return cls._intern((width, signed), width, signed)

    def _init(self, width: int, signed: bool) -> None:
        self.width = width
        self.signed = signed

    def spell(self) -> str:
        return f"{'s' if self.signed else 'u'}i{self.width}"


class ComplexType(BuiltinDialectType):
    """``complex<T>`` with T an integer or float type."""

    __slots__ = ("element_type",)
    element_type: Type

    def __new__(cls, element_type: Type) -> "ComplexType":
        return cls._intern((element_type,), element_type)

    def _init(self, element_type: Type) -> None:
        self.element_type = element_type

    def spell(self) -> str:
        return f"complex<{self.element_type}>"

    def sub_elements(self) -> tuple:
        """The types and attributes this type is made of (for the printer's alias walk)."""
        return (self.element_type,)


class _Shaped(BuiltinDialectType):
    """A type with a static or dynamic shape and an element type."""

    __slots__ = ("shape", "element_type")
    shape: tuple
    element_type: Type

    def sub_elements(self) -> tuple:
        """The types and attributes this type is made of (for the printer's alias walk)."""
        return (self.element_type,) + tuple(getattr(self, name) for name in self._EXTRA)

    _EXTRA: tuple = ()

    @property
    def element(self) -> Type:
        """The element type (the name dense constants use)."""
        return self.element_type

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def has_static_shape(self) -> bool:
        return None not in self.shape

    @property
    def num_elements(self) -> int:
        """The number of elements of a static shape."""
        n = 1
        for d in self.shape:
            if d is None:
                raise ValueError(f"{self} has a dynamic shape")
            n *= d
        return n


class VectorType(_Shaped):
    """``vector<4x[8]xf32>``; ``scalable[i]``: dimension i is a multiple of the runtime vscale."""

    __slots__ = ("scalable",)
    scalable: tuple

    def __new__(cls, shape: Sequence[int], element_type: Type,
                scalable: Sequence[bool] = ()) -> "VectorType":
        shape = tuple(shape)
        scalable = tuple(scalable) or (False,) * len(shape)
        return cls._intern((shape, element_type, scalable), shape, element_type, scalable)

    def _init(self, shape, element_type, scalable) -> None:
        self.shape = shape
        self.element_type = element_type
        self.scalable = scalable

    def spell(self) -> str:
        return f"vector<{shape_text(self.shape, self.scalable)}{self.element_type}>"


class RankedTensorType(_Shaped):
    """``tensor<4x?xf32[, encoding]>``."""

    __slots__ = ("encoding",)
    encoding: Optional[Attribute]
    _EXTRA = ("encoding",)

    def __new__(cls, shape: Sequence[Optional[int]], element_type: Type,
                encoding: Optional[Attribute] = None) -> "RankedTensorType":
        shape = tuple(shape)
        return cls._intern((shape, element_type, encoding), shape, element_type, encoding)

    def _init(self, shape, element_type, encoding) -> None:
        self.shape = shape
        self.element_type = element_type
        self.encoding = encoding

    def spell(self) -> str:
        enc = "" if self.encoding is None else ", " + attr_text(self.encoding)
        return f"tensor<{shape_text(self.shape)}{self.element_type}{enc}>"


class UnrankedTensorType(BuiltinDialectType):
    """``tensor<*xf32>``."""

    __slots__ = ("element_type",)
    element_type: Type

    def __new__(cls, element_type: Type) -> "UnrankedTensorType":
        return cls._intern((element_type,), element_type)

    def _init(self, element_type: Type) -> None:
        self.element_type = element_type

    def spell(self) -> str:
        return f"tensor<*x{self.element_type}>"

    def sub_elements(self) -> tuple:
        return (self.element_type,)


@dataclass(frozen=True, slots=True)
class StridedLayoutAttr(Attribute):
    """``strided<[s0, s1], offset: o>``; ``None`` is a dynamic stride or offset (``?``)."""

    strides: tuple
    offset: Optional[int] = 0

    def generic(self) -> str:
        strides = ", ".join(DYNAMIC_TEXT if s is None else str(s) for s in self.strides)
        if self.offset == 0:
            return f"strided<[{strides}]>"
        off = DYNAMIC_TEXT if self.offset is None else str(self.offset)
        return f"strided<[{strides}], offset: {off}>"


def identity_strides(shape: Sequence[Optional[int]]) -> tuple:
    """Row-major strides of ``shape`` (``None`` where a dynamic size makes them dynamic)."""
    strides: list = []
    running: Optional[int] = 1
    for d in reversed(shape):
        strides.append(running)
        running = None if running is None or d is None else running * d
    return tuple(reversed(strides))


class MemRefType(_Shaped):
    """``memref<4x?xf32[, layout][, memory space]>``.

    ``layout`` is None for the identity (row-major) layout, else a
    :class:`StridedLayoutAttr`, an affine-map attribute or another layout attribute;
    ``memory_space`` is None for the default space, else an attribute (an integer, or a
    dialect's attribute such as ``#gpu.address_space<workgroup>``)."""

    __slots__ = ("layout", "memory_space")
    layout: Optional[Attribute]
    memory_space: Optional[Attribute]
    _EXTRA = ("layout", "memory_space")

    def __new__(cls, shape: Sequence[Optional[int]], element_type: Type,
                layout: Optional[Attribute] = None,
                memory_space: Optional[Attribute] = None) -> "MemRefType":
        shape = tuple(shape)
        layout = _normalise_layout(layout, len(shape))
        if isinstance(memory_space, IntegerAttr) and memory_space.value == 0:
            memory_space = None
        return cls._intern((shape, element_type, layout, memory_space), shape, element_type,
                           layout, memory_space)

    def _init(self, shape, element_type, layout, memory_space) -> None:
        self.shape = shape
        self.element_type = element_type
        self.layout = layout
        self.memory_space = memory_space

    def spell(self) -> str:
        text = f"memref<{shape_text(self.shape)}{self.element_type}"
        if self.layout is not None:
            text += ", " + attr_text(self.layout)
        if self.memory_space is not None:
            text += ", " + attr_text(self.memory_space)
        return text + ">"

    def strides_and_offset(self) -> tuple[tuple, Optional[int]]:
        """Strides (``None``: dynamic) and offset of a strided or identity layout."""
        if self.layout is None:
            return identity_strides(self.shape), 0
        if isinstance(self.layout, StridedLayoutAttr):
            return self.layout.strides, self.layout.offset
        from .affine import AffineMapAttr, strides_of_map
        found = strides_of_map(self.layout.value) if isinstance(self.layout, AffineMapAttr) \
            else None
        if found is None or len(found[0]) != len(self.shape):
            raise ValueError(f"{self} has a non-strided layout")
        return found

    @property
    def has_identity_layout(self) -> bool:
        """MLIR's ``getLayout().isIdentity()``: no layout, or one whose map is the identity
        (a rank-1 ``strided<[1]>`` without offset)."""
        layout = self.layout
        return layout is None or (isinstance(layout, StridedLayoutAttr)
                                  and layout.strides == (1,) and layout.offset == 0)

    @property
    def memory_space_number(self) -> Optional[int]:
        """The integer memory space (0 when default), or None for an attribute memory space."""
        if self.memory_space is None:
            return 0
        if isinstance(self.memory_space, IntegerAttr):
            return self.memory_space.value
        return None


def _normalise_layout(layout: Optional[Attribute], rank: int) -> Optional[Attribute]:
    from .affine import AffineMapAttr
    if isinstance(layout, AffineMapAttr) and layout.value.is_identity \
            and layout.value.n_dims == rank:
        return None
    return layout


class UnrankedMemRefType(BuiltinDialectType):
    """``memref<*xf32[, memory space]>``."""

    __slots__ = ("element_type", "memory_space")
    element_type: Type
    memory_space: Optional[Attribute]

    def __new__(cls, element_type: Type,
                memory_space: Optional[Attribute] = None) -> "UnrankedMemRefType":
        if isinstance(memory_space, IntegerAttr) and memory_space.value == 0:
            memory_space = None
        return cls._intern((element_type, memory_space), element_type, memory_space)

    def _init(self, element_type, memory_space) -> None:
        self.element_type = element_type
        self.memory_space = memory_space

    def spell(self) -> str:
        space = "" if self.memory_space is None else ", " + attr_text(self.memory_space)
        return f"memref<*x{self.element_type}{space}>"

    def sub_elements(self) -> tuple:
        return (self.element_type, self.memory_space)


class TupleType(BuiltinDialectType):
    """``tuple<T1, T2, ...>``."""

    __slots__ = ("types",)
    types: tuple

    def __new__(cls, types: Sequence[Type]) -> "TupleType":
        types = tuple(types)
        return cls._intern((types,), types)

    def _init(self, types) -> None:
        self.types = types

    def spell(self) -> str:
        return "tuple<" + ", ".join(str(t) for t in self.types) + ">"

    def sub_elements(self) -> tuple:
        return self.types
