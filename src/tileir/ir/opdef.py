"""Declarative op definitions (DESIGN.md principle 1).

Each op is a subclass of :class:`OpBase` that declares, as class attributes, its mnemonic,
since-version, bytecode opcode, operands, attributes, results, regions, traits and assembly
format.  At class creation an :class:`OpSpec` is built from those declarations; the parser,
printer, bytecode reader/writer and structural verifier are all driven by it.  Family base
classes declare what a whole family shares, so each op is a few lines.

Example::

    class AddIOp(IntBinaryOp):
        MNEMONIC = "addi"
        OPCODE = 0x03
        ATTRIBUTES = (Attr("overflow", IntegerOverflow, default=IntegerOverflow.NONE),)
        FORMAT = "$lhs `,` $rhs (`overflow` `` $overflow^)? attr-dict `:` type($result)"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Optional, Sequence

from .attributes import Attribute, EnumAttr
from .constraints import ANY_TYPE, TypeConstraint
from .core import Operation, Value

__all__ = ["Operand", "Result", "Attr", "RegionDef", "OpSpec", "OpBase", "OP_REGISTRY",
           "lookup_op", "SINGLE", "OPTIONAL", "VARIADIC", "version_tuple", "Trait",
           "FORMAT_COMPILERS"]

#: The assembly-format compiler, ``(format_text, spec) -> compiled format``; ``tileir.text``
#: registers its engine here when imported (the core knows no syntax).
FORMAT_COMPILERS: list[Callable[[str, "OpSpec"], Any]] = []

SINGLE, OPTIONAL, VARIADIC = "single", "optional", "variadic"


def version_tuple(v: str) -> tuple[int, int]:
    major, _, minor = v.partition(".")
    return int(major), int(minor or 0)


@dataclass(frozen=True)
class _ValueGroup:
    """What operand and result groups share: a name, a type constraint, a kind (one value,
    an optional value, or a variadic list) and the version that introduced the group."""

    name: str
    constraint: TypeConstraint = ANY_TYPE
    kind: str = SINGLE
    since: str = "13.1"

    @property
    def summary(self) -> str:
        """The ODS description of the group's type constraint (used in messages)."""
        if self.kind == VARIADIC:
            return "variadic of " + self.constraint.summary
        return self.constraint.summary


@dataclass(frozen=True)
class Operand(_ValueGroup):
    """An operand group: one value, an optional value, or a variadic list."""


@dataclass(frozen=True)
class Result(_ValueGroup):
    """A result group (same kinds as :class:`Operand`)."""


#: Attribute kinds understood by the generic machinery (parser, printer, bytecode).
ATTR_KINDS = ("enum", "unit", "i64", "i32", "i1", "str", "symbol", "flat_symbol", "dense",
              "type", "function_type", "array_i32", "array_i64", "hints", "predicate",
              "dict_array", "any", "bool")


@dataclass(frozen=True)
class Attr:
    """An attribute declaration.

    ``kind`` is one of :data:`ATTR_KINDS` or an enum class; ``default`` makes the attribute
    default-valued (always present after parsing, printed only when different); ``optional``
    allows it to be absent.  ``summary`` is the ODS constraint description used in messages.
    """

    name: str
    kind: Any
    optional: bool = False
    default: Any = None
    since: str = "13.1"
    summary: str = ""
    #: extra value constraint (ODS ConfinedAttr): ``check(value) -> bool``; ``summary`` then
    #: describes the whole constraint
    check: Optional[Callable[[Any], bool]] = None

    @property
    def enum(self) -> Optional[type[EnumAttr]]:
        return self.kind if isinstance(self.kind, type) and issubclass(self.kind, EnumAttr) else None

    @property
    def is_unit(self) -> bool:
        return self.kind == "unit"

    @property
    def required(self) -> bool:
        return not self.optional and self.default is None and not self.is_unit


@dataclass(frozen=True)
class RegionDef:
    """A region; ``kind`` is ``sized1`` (exactly one block), ``maxsized1`` or ``any``."""

    name: str
    kind: str = "sized1"


class Trait:
    """Base of op traits.  ``verify(op)`` returns None when the op satisfies the trait, else an
    error message (or Diagnostic); ``PHASE`` orders the checks (see :mod:`tileir.verify`)."""

    PHASE: ClassVar[str] = "trait"

    def verify(self, op: Operation):
        return None

    def __repr__(self) -> str:
        return type(self).__name__


@dataclass
class OpSpec:
    """Everything the generic machinery needs to know about an op."""

    name: str
    mnemonic: str
    cls: type
    since: str
    opcode: Optional[int]
    operands: tuple[Operand, ...]
    results: tuple[Result, ...]
    attributes: tuple[Attr, ...]
    regions: tuple[RegionDef, ...]
    traits: tuple[Trait, ...]
    group: str
    attr_sized_operands: bool
    format_text: Optional[str]
    attr_by_name: dict[str, Attr] = field(default_factory=dict)
    operand_index: dict[str, int] = field(default_factory=dict)
    result_index: dict[str, int] = field(default_factory=dict)
    _format: Any = None
    #: number of operand groups that are optional or variadic
    n_dynamic_operands: int = 0
    n_dynamic_results: int = 0
    testing: bool = False

    @property
    def format(self) -> Any:
        """The compiled assembly format (a ``tileir.text.format.CompiledFormat``), if any."""
        if self._format is None and self.format_text is not None:
            self._format = FORMAT_COMPILERS[0](self.format_text, self)
        return self._format

    def has_trait(self, trait_type: type) -> bool:
        return any(isinstance(t, trait_type) for t in self.traits)

    def trait(self, trait_type: type):
        for t in self.traits:
            if isinstance(t, trait_type):
                return t
        return None

    # -- operand/result group ranges ------------------------------------------------------------

    def operand_sizes(self, op: Operation) -> list[int]:
        """Size of each operand group of ``op``."""
        return _group_sizes(self.operands, len(op.operands), op.segments,
                            self.attr_sized_operands)

    def result_sizes(self, op: Operation) -> list[int]:
        return _group_sizes(self.results, len(op.results), None, False)

    def operand_range(self, op: Operation, name: str) -> tuple[int, int]:
        idx = self.operand_index[name]
        sizes = self.operand_sizes(op)
        start = sum(sizes[:idx])
        return start, start + sizes[idx]

    def result_range(self, op: Operation, name: str) -> tuple[int, int]:
        idx = self.result_index[name]
        sizes = self.result_sizes(op)
        start = sum(sizes[:idx])
        return start, start + sizes[idx]


def _group_sizes(groups: Sequence, total: int, segments: Optional[tuple],
                 attr_sized: bool) -> list[int]:
    if attr_sized and segments is not None and len(segments) == len(groups):
        return list(segments)
    dynamic = [i for i, g in enumerate(groups) if g.kind != SINGLE]
    fixed = len(groups) - len(dynamic)
    sizes = [1] * len(groups)
    if not dynamic:
        return sizes
    remaining = max(total - fixed, 0)
    if len(dynamic) == 1:
        sizes[dynamic[0]] = remaining
        return sizes
    # Several dynamic groups without segment sizes: all-optional groups are filled in order.
    for i in dynamic:
        take = min(remaining, 1) if groups[i].kind == OPTIONAL else remaining
        sizes[i] = take
        remaining -= take
    return sizes


#: Every registered op spec by full name (``cuda_tile.addi``).
OP_REGISTRY: dict[str, OpSpec] = {}


def lookup_op(name: str) -> Optional[OpSpec]:
    return OP_REGISTRY.get(name)


class OpBase(Operation):
    """Base class of registered ops.  Subclasses that set ``MNEMONIC`` are registered."""

    __slots__ = ()

    #: The dialect namespace (``cuda_tile``, ``gpu``...): a dialect's op base class sets it.
    DIALECT_NAME: ClassVar[str] = ""
    MNEMONIC: ClassVar[Optional[str]] = None
    SINCE: ClassVar[str] = "13.1"
    OPCODE: ClassVar[Optional[int]] = None
    GROUP: ClassVar[str] = ""
    OPERANDS: ClassVar[tuple] = ()
    RESULTS: ClassVar[tuple] = ()
    ATTRIBUTES: ClassVar[tuple] = ()
    REGIONS: ClassVar[tuple] = ()
    TRAITS: ClassVar[tuple] = ()
    FORMAT: ClassVar[Optional[str]] = None
    ATTR_SIZED_OPERANDS: ClassVar[bool] = False
    TESTING: ClassVar[bool] = False

    # Hooks an op may override ---------------------------------------------------------------

    def verify_op(self):
        """Op-specific verification beyond what traits express (MLIR's ``verify()``).  Return
        None if valid, else an error message (reported as ``'<op>' op <message>``), a
        Diagnostic, or a list of Diagnostics (the op fails if any of them is an error)."""
        return None

    def verify_regions(self):
        """Verification that needs the nested ops verified first (MLIR's verifyRegions); same
        return convention as :meth:`verify_op`."""
        return None

    @classmethod
    def infer_result_types(cls, operand_types: list, attributes: dict) -> Optional[list]:
        """Result types implied by operands and attributes (builder and parser), if any."""
        return None

    def asm_result_names(self) -> Optional[list[Optional[str]]]:
        """Preferred SSA names for the results (NVIDIA's getAsmResultNames), or None."""
        return None

    def asm_block_arg_names(self, region_index: int) -> Optional[list[Optional[str]]]:
        return None

    #: Custom syntax hooks (for ops whose NVIDIA syntax is not declarative): set to functions.
    parse_custom: ClassVar[Optional[Callable]] = None
    print_custom: ClassVar[Optional[Callable]] = None

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "MNEMONIC" not in cls.__dict__ or cls.MNEMONIC is None:
            return
        if not cls.DIALECT_NAME:
            raise TypeError(f"{cls.__name__}: an op class needs a DIALECT_NAME")
        name = f"{cls.DIALECT_NAME}.{cls.MNEMONIC}"
        operands, results = tuple(cls.OPERANDS), tuple(cls.RESULTS)
        spec = OpSpec(
            name=name, mnemonic=cls.MNEMONIC, cls=cls, since=cls.SINCE, opcode=cls.OPCODE,
            operands=operands, results=results, attributes=tuple(cls.ATTRIBUTES),
            regions=tuple(cls.REGIONS), traits=tuple(cls.TRAITS), group=cls.GROUP,
            attr_sized_operands=cls.ATTR_SIZED_OPERANDS, format_text=cls.FORMAT,
            testing=cls.TESTING,
        )
        spec.attr_by_name = {a.name: a for a in spec.attributes}
        spec.operand_index = {o.name: i for i, o in enumerate(operands)}
        spec.result_index = {r.name: i for i, r in enumerate(results)}
        spec.n_dynamic_operands = sum(1 for o in operands if o.kind != SINGLE)
        spec.n_dynamic_results = sum(1 for r in results if r.kind != SINGLE)
        cls.SPEC = spec
        OP_REGISTRY[name] = spec
        _install_accessors(cls, spec)


def _install_accessors(cls: type, spec: OpSpec) -> None:
    """Named accessors: ``op.lhs`` (operand), ``op.overflow`` (attribute), ``op.result_token``."""
    taken = set(dir(Operation)) | set(dir(OpBase))

    def operand_getter(name: str, kind: str):
        def get(self):
            start, stop = spec.operand_range(self, name)
            if kind == SINGLE:
                return self.operands[start]
            if kind == OPTIONAL:
                return self.operands[start] if stop > start else None
            return self.operands[start:stop]
        return property(get)

    def result_getter(name: str, kind: str):
        def get(self):
            start, stop = spec.result_range(self, name)
            if kind == SINGLE:
                return self.results[start]
            if kind == OPTIONAL:
                return self.results[start] if stop > start else None
            return self.results[start:stop]
        return property(get)

    def attr_getter(attr: Attr):
        def get(self):
            value = self.attributes.get(attr.name)
            if value is None:
                if attr.is_unit:
                    return False
                return attr.default
            if attr.is_unit:
                return True
            return value
        return property(get)

    def region_getter(index: int):
        return property(lambda self: self.regions[index])

    # hand-written members win: those of the class itself and of unregistered helper bases
    # (registered bases' members were generated for their own spec)
    written = {name for k in cls.__mro__ if k is cls or "SPEC" not in k.__dict__
               for name in k.__dict__}
    taken |= written
    for o in spec.operands:
        if o.name not in taken:
            setattr(cls, o.name, operand_getter(o.name, o.kind))
    for r in spec.results:
        if r.name not in taken:
            setattr(cls, r.name, result_getter(r.name, r.kind))
    for a in spec.attributes:
        if a.name not in taken:
            setattr(cls, a.name, attr_getter(a))
    for i, rg in enumerate(spec.regions):
        if rg.name not in taken:
            setattr(cls, rg.name, region_getter(i))


def make_op(name: str, operands: Sequence[Value] = (), result_types: Sequence = (),
            attributes: Optional[dict] = None, regions=0, loc=None,
            segments: Optional[Sequence[int]] = None) -> Operation:
    """Create an op of the registered class for ``name`` (or a plain Operation if unknown)."""
    from .locations import UNKNOWN_LOC
    spec = OP_REGISTRY.get(name)
    cls = spec.cls if spec is not None else Operation
    return cls(name, operands, result_types, attributes, regions,
               loc if loc is not None else UNKNOWN_LOC, segments)
