"""Pieces the upstream MLIR dialects (scf, memref, vector) share: type predicates on the
builtin types (by their spelling, so they hold whether or not the builtin dialect models a
type), type-list spelling, and custom-syntax helpers (SSA lists, implicit terminators)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable, Iterable, Optional

from ...ir.constraints import Pred
from ...ir.core import Region
from ...ir.opdef import make_op
from ...ir.types import Type
from ...text.parser import parse_type
from .. import builtin as _builtin  # noqa: F401  (the keyword types: index...)

if TYPE_CHECKING:  # pragma: no cover
    from ...text.parser import Parser
    from ...text.printer import OpPrinter

__all__ = ["is_index", "is_signless_int", "INDEX", "INDEX_TYPE", "I1", "I1_TYPE", "SIGNLESS_INT_OR_INDEX", "ANY",
           "type_list", "parse_ssa_list", "parse_type_list", "parse_region",
           "ensure_terminator", "print_region", "attr_dict_with_keyword"]

_SIGNLESS = re.compile(r"i[0-9]+\Z")


def is_index(t: Type) -> bool:
    return str(t) == "index"


def is_signless_int(t: Type) -> bool:
    return bool(_SIGNLESS.match(str(t)))


INDEX_TYPE = parse_type("index")
I1 = parse_type("i1")
INDEX = Pred(is_index, "index")
INDEX.buildable = INDEX_TYPE
I1_TYPE = Pred(lambda t: str(t) == "i1", "1-bit signless integer")
I1_TYPE.buildable = I1
SIGNLESS_INT_OR_INDEX = Pred(lambda t: is_index(t) or is_signless_int(t),
                             "signless integer or index")
ANY = Pred(lambda t: True, "any type")


def type_list(types: Iterable[Type]) -> str:
    """Types as MLIR streams a TypeRange: comma separated."""
    return ", ".join(str(t) for t in types)


def parse_ssa_list(parser: "Parser", parens: bool = True) -> list:
    """``(%a, %b)`` (or bare ``%a, %b`` with ``parens=False``): a list of SSA uses."""
    if not parens:
        return parser.parse_comma_list(parser._parse_use)
    parser.expect("(")
    uses = parser.parse_comma_list(parser._parse_use, ")")
    parser.expect(")")
    return uses


def parse_type_list(parser: "Parser") -> list:
    return parser.parse_comma_list(parser.parse_type)


def parse_region(parser: "Parser", entry_args: Optional[list] = None) -> Region:
    """``{ ... }`` (no default dialect inside); ``entry_args`` as (name, type, offset)."""
    region = Region()
    # without arguments a leading ``^bb0:`` label names the entry block itself
    args = [(n, t, off, None) for n, t, off in entry_args] if entry_args else None
    # the upstream ops define no default dialect (MLIR pushes ""): names inside are full
    parser.parse_region_into(region, None, isolated=False, dialect="", entry_args=args)
    return region


def ensure_terminator(region: Region, op_name: str, loc, is_terminator: Callable) -> None:
    """MLIR's ``ensureTerminator``: give a block-less region an empty block and append an
    operand-less ``op_name`` when the block's last op is not a terminator."""
    if not region.blocks:
        region.add_block()
    block = region.blocks[0]
    if block.ops and is_terminator(block.ops[-1]):
        return
    from ...ir.opdef import lookup_op
    spec = lookup_op(op_name)
    regions = []
    for _ in [rd for rd in (spec.regions if spec is not None else ()) if rd.kind != "variadic"]:
        r = Region()
        r.add_block()
        regions.append(r)
    block.append(make_op(op_name, regions=regions, loc=loc))


def print_region(printer: "OpPrinter", region: Region, entry_args: bool = False,
                 terminators: bool = True, implicit: Optional[str] = None) -> str:
    """MLIR's ``printRegion``; with ``terminators=False`` an operand- and attribute-less
    ``implicit`` terminator is elided (any terminator when ``implicit`` is None)."""
    if not region.blocks:
        return "{\n" + "  " * printer.indent + "}"
    if terminators:
        return printer.render_region(region, print_entry_args=entry_args)

    def elide(op) -> bool:
        return (implicit is None or op.name == implicit) and not op.operands \
            and not op.attributes and not op.regions
    return printer.render_region(region, print_entry_args=entry_args, print_terminator=False,
                                 elide_terminator_if=elide)


def attr_dict_with_keyword(parser: "Parser") -> dict:
    """``attributes {...}`` if present."""
    if parser.tok == "attributes":
        parser.i += 1
        return parser.parse_attr_dict_body()
    return {}
