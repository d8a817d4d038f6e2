"""Per-op encoding tables, built once from the declarative op definitions.

For every op with a bytecode opcode, :class:`OpCodec` records what cuda-tile's TableGen backend
(``BytecodeGen.cpp`` / ``BytecodeReaderGen.cpp``) derives from ``Ops.td``:

* whether the op writes its result count (``Operator::isVariadic``: any ``Variadic<>`` operand or
  result; ``Optional<>`` does not count) and the since-version of every result;
* the flag bits: optional attributes (``OptionalAttr``/``UnitAttr``) and, for ops with
  ``AttrSizedOperandSegments``, optional operands, grouped by since-version (earliest first),
  attributes before operands within a version, declaration order otherwise;
* the attributes in declaration order with their encoding kind, since-version and default;
* the operand encoding (per segment, counted, or fixed).

:meth:`OpCodec.plan` specialises this for one bytecode version; plans are cached.
"""

from __future__ import annotations

from typing import Any, Optional

from ..dialects.cuda_tile.attributes import (DenseElementsAttr, FloatAttr, IntegerAttr,
                                              StringAttr, TileEnum)
from ..ir.opdef import OP_REGISTRY, OPTIONAL, SINGLE, VARIADIC, OpSpec
from .versions import Version, parse_version

__all__ = ["OpCodec", "codec_for_name", "codec_for_opcode", "all_codecs", "NOT_OPS",
           "TERMINATORS", "attr_kind"]

#: Ops with an opcode that are never encoded as instructions (functions are the function
#: table, globals the global section, the module is implicit).
NOT_OPS = frozenset({"cuda_tile.entry", "cuda_tile.module", "cuda_tile.global",
                     "cuda_tile.testing$func"})
#: what an op's array attribute (``identities``...) may hold in bytecode: typed attributes
ARRAY_ELEMENT_ATTRS = (IntegerAttr, FloatAttr, DenseElementsAttr, StringAttr)

TERMINATORS = frozenset({"cuda_tile.yield", "cuda_tile.break", "cuda_tile.continue",
                         "cuda_tile.return"})


def attr_kind(attr) -> str:
    """The bytecode encoding kind of an attribute declaration."""
    if attr.enum is not None:
        return "enum"
    kind = attr.kind
    if kind == "any" and attr.name == "identities":
        return "array"
    if kind == "array_bool" or (kind == "array_i1"):
        return "array_bool"
    return kind


class AttrInfo:
    __slots__ = ("name", "kind", "enum", "optional", "unit", "since", "default", "bit")

    def __init__(self, attr, bit: Optional[int]) -> None:
        self.name = attr.name
        self.kind = attr_kind(attr)
        self.enum = attr.enum
        self.unit = attr.is_unit
        # ``inbounds`` (13.4) is a DefaultValuedAttr in cuda-tile (all false, one flag per
        # index): always encoded, never a flag bit, even though tileir declares it optional.
        self.optional = (bool(attr.optional) or self.unit) and self.kind != "array_bool"
        self.since = parse_version(attr.since)
        self.default = attr.default
        self.bit = bit


class OperandInfo:
    __slots__ = ("name", "kind", "since", "bit")

    def __init__(self, operand, bit: Optional[int]) -> None:
        self.name = operand.name
        self.kind = operand.kind
        self.since = parse_version(operand.since)
        self.bit = bit


class Plan:
    """An op's encoding specialised for one bytecode version."""

    __slots__ = ("result_mask", "n_results", "write_count", "has_flags", "attrs", "operands",
                 "old_results")

    def __init__(self) -> None:
        self.result_mask: Optional[tuple] = None  # indices of serialized results (None = all)
        self.old_results: tuple = ()              # (index, name, since) dropped for the version
        self.n_results = 0
        self.write_count = False
        self.has_flags = False
        self.attrs: tuple = ()
        self.operands: tuple = ()


class OpCodec:
    """Everything needed to encode/decode one op kind (see module docstring)."""

    def __init__(self, spec: OpSpec) -> None:
        self.spec = spec
        self.name = spec.name
        self.cls = spec.cls
        self.opcode = spec.opcode
        self.since = parse_version(spec.since)
        self.variadic = any(o.kind == VARIADIC for o in spec.operands) or \
            any(r.kind == VARIADIC for r in spec.results)
        self.results = tuple((r.name, parse_version(r.since), r.kind) for r in spec.results)
        self.variadic_results = any(r.kind != SINGLE for r in spec.results)
        self.attr_sized = spec.attr_sized_operands
        self.num_regions = len(spec.regions)
        self.has_variadic_operands = any(o.kind == VARIADIC for o in spec.operands)
        self.has_optional_operands = any(o.kind == OPTIONAL for o in spec.operands)
        self.counted_operands = (not self.attr_sized) and (
            self.has_variadic_operands or self.has_optional_operands)
        self.n_single_operands = sum(1 for o in spec.operands if o.kind == SINGLE)
        self.n_optional_operands = sum(1 for o in spec.operands if o.kind == OPTIONAL)
        # Flag bits.
        groups: dict = {}
        for a in spec.attributes:
            if (a.optional or a.is_unit) and attr_kind(a) != "array_bool":
                groups.setdefault(parse_version(a.since).key, []).append(("attr", a.name))
        if self.attr_sized:
            for o in spec.operands:
                if o.kind == OPTIONAL:
                    groups.setdefault(parse_version(o.since).key, []).append(("operand", o.name))
        bits: dict = {}
        bit = 0
        for key in sorted(groups):
            for entry in groups[key]:
                bits[entry] = bit
                bit += 1
        self.n_flags = bit
        self.min_optional = Version(*sorted(groups)[0]) if groups else None
        self.attrs = tuple(AttrInfo(a, bits.get(("attr", a.name))) for a in spec.attributes)
        self.operands = tuple(OperandInfo(o, bits.get(("operand", o.name)))
                              for o in spec.operands)
        self._plans: dict = {}

    def flags_present(self, version: Version) -> bool:
        if self.min_optional is None:
            return False
        if self.min_optional == self.since:
            return True
        return version >= self.min_optional

    def plan(self, version: Version) -> Plan:
        key = version.key
        p = self._plans.get(key)
        if p is not None:
            return p
        p = Plan()
        kept = [i for i, (_, since, _) in enumerate(self.results) if since <= version]
        p.n_results = len(kept)
        if len(kept) != len(self.results):
            p.result_mask = tuple(kept)
            p.old_results = tuple((i, name, since) for i, (name, since, _) in
                                  enumerate(self.results) if i not in kept)
        p.write_count = self.variadic
        p.has_flags = self.flags_present(version)
        p.attrs = tuple(a for a in self.attrs)
        p.operands = self.operands
        self._plans[key] = p
        return p


_BY_NAME: dict = {}
_BY_OPCODE: dict = {}
_BUILT_FOR = 0


def _build() -> None:
    global _BUILT_FOR
    if _BUILT_FOR == len(OP_REGISTRY):
        return
    for name, spec in OP_REGISTRY.items():
        if spec.opcode is None or name in NOT_OPS or name in _BY_NAME:
            continue
        codec = OpCodec(spec)
        _BY_NAME[name] = codec
        _BY_OPCODE[spec.opcode] = codec
    _BUILT_FOR = len(OP_REGISTRY)


def codec_for_name(name: str) -> Optional[OpCodec]:
    c = _BY_NAME.get(name)
    if c is None:
        _build()
        c = _BY_NAME.get(name)
    return c


def codec_for_opcode(opcode: int) -> Optional[OpCodec]:
    c = _BY_OPCODE.get(opcode)
    if c is None:
        _build()
        c = _BY_OPCODE.get(opcode)
    return c


def all_codecs() -> list:
    _build()
    return list(_BY_NAME.values())


def enum_value(enum: type, raw: int) -> Optional[TileEnum]:
    try:
        return enum(raw)
    except ValueError:
        return None


def default_of(info: AttrInfo) -> Any:
    return info.default
