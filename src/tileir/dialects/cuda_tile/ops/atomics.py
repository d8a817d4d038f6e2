"""§8 Atomic operations: atomic_cas_tko, atomic_rmw_tko, atomic_red_view_tko."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..attributes import AtomicRMWMode, MemoryOrderingSemantics, MemoryScope
from ....ir.core import Operation
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from ..types import (FloatType, GatherScatterViewType, IntegerType, PartitionViewType,
                     StridedViewType, TileViewType)
from .base import CudaTileOp
from ..constraints import AnyTile, I1Tile, IntTile, PointerTile, TileView, Token
from .memory import LoadPtrTkoOp
from ....ir.traits import AllShapesMatch, AllTypesMatch
from ..verify_util import bitwidth, dims, verify_atomic_ordering, verify_atomic_rmw_mode
from .views import (_parse_optionals, _parse_view_and_indices, _print_index_types,
                    finish_view_store, print_memory_attributes)

if TYPE_CHECKING:  # pragma: no cover
    from ....text.format import OpState
    from ....text.parser import Parser
    from ....text.printer import OpPrinter

ORDERING = Attr("memory_ordering_semantics", MemoryOrderingSemantics)
SCOPE = Attr("memory_scope", MemoryScope)


class AtomicCASTkoOp(CudaTileOp):
    """Per element: if ``*ptr == cmp`` (bitwise) then ``*ptr = val``; returns the old value."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "atomic_cas_tko", 0x07, "Atomics"
    OPERANDS = (Operand("pointers", PointerTile), Operand("cmp", AnyTile), Operand("val", AnyTile),
                Operand("mask", I1Tile, OPTIONAL), Operand("token", Token, OPTIONAL))
    RESULTS = (Result("result", AnyTile), Result("result_token", Token))
    ATTRIBUTES = (ORDERING, SCOPE)
    ATTR_SIZED_OPERANDS = True
    TRAITS = (AllShapesMatch("pointers", "cmp", "val", "result"),
              AllTypesMatch("cmp", "val", "result"))
    FORMAT = ("$memory_ordering_semantics $memory_scope $pointers `,` $cmp `,` $val "
              "(`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` "
              "custom<CudaTileType>(type($pointers)) `,` custom<CudaTileType>(type($val)) "
              "(`,` custom<CudaTileType>(type($mask))^)? `->` custom<CudaTileType>(type($result)) "
              "`,` custom<CudaTileType>(type($result_token))")
    infer_parsed_types = LoadPtrTkoOp.infer_parsed_types

    def verify_op(self):
        pointee = self.operands[0].type.element.pointee
        el = self.operands[2].type.element
        if pointee != el:
            return (f"expected pointee type ('{pointee}') to match element type of 'val' "
                    f"('{el}')")
        if not isinstance(el, (FloatType, IntegerType)) or bitwidth(el) not in (32, 64):
            return "expect only float or integer types with 32 or 64 bit"
        mask = self.mask
        if mask is not None and mask.type.shape != self.operands[2].type.shape:
            return "failed to verify that all of {pointers, val, cmp and mask} have same shape"
        return verify_atomic_ordering(self)



class AtomicRMWTkoOp(CudaTileOp):
    """Per element atomic read-modify-write (``mode``); returns the old value."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "atomic_rmw_tko", 0x08, "Atomics"
    OPERANDS = (Operand("pointers", PointerTile), Operand("arg", AnyTile),
                Operand("mask", I1Tile, OPTIONAL), Operand("token", Token, OPTIONAL))
    RESULTS = (Result("result", AnyTile), Result("result_token", Token))
    ATTRIBUTES = (ORDERING, SCOPE, Attr("mode", AtomicRMWMode))
    ATTR_SIZED_OPERANDS = True
    TRAITS = (AllShapesMatch("pointers", "arg", "result"), AllTypesMatch("arg", "result"))
    FORMAT = ("$memory_ordering_semantics $memory_scope $pointers `,` $mode `,` $arg "
              "(`,` $mask^)? (`token` `` `=` `` $token^)? attr-dict `:` "
              "custom<CudaTileType>(type($pointers)) `,` custom<CudaTileType>(type($arg)) "
              "(`,` custom<CudaTileType>(type($mask))^)? `->` custom<CudaTileType>(type($result)) "
              "`,` custom<CudaTileType>(type($result_token))")
    infer_parsed_types = LoadPtrTkoOp.infer_parsed_types

    def verify_op(self):
        pointee = self.operands[0].type.element.pointee
        arg = self.operands[1].type
        if pointee != arg.element:
            return (f"expected pointee type ('{pointee}') to match element type of 'arg' "
                    f"('{arg.element}')")
        mask = self.mask
        if mask is not None and mask.type.shape != arg.shape:
            return "failed to verify that all of {pointers, arg, mask} have same shape"
        return (verify_atomic_rmw_mode(self.attributes["mode"], arg.element)
                or verify_atomic_ordering(self))



def _parse_red_memory_attributes(parser: "Parser", state: "OpState") -> None:
    """cuda-tile's own ordering/scope parsing for atomic_red_view_tko (unlike
    parseMemoryAttributes it accepts any known ordering and scope; the verifier restricts)."""
    state.attrs["memory_ordering_semantics"] = parser.parse_enum_keyword(
        MemoryOrderingSemantics,
        lambda word: f"{parser.op_prefix()}invalid memory_ordering_semantics: '{word}'; "
                     f"expected one of: {', '.join(MemoryOrderingSemantics.keywords())}")
    if parser.at_identifier():
        state.attrs["memory_scope"] = parser.parse_enum_keyword(
            MemoryScope, lambda word: f"{parser.op_prefix()}invalid memory_scope: '{word}'; "
                                      f"expected one of: {', '.join(MemoryScope.keywords())}")


def _parse_atomic_red_view(parser: "Parser", state: "OpState") -> Operation:
    _parse_red_memory_attributes(parser, state)
    view, indices = _parse_view_and_indices(parser)
    parser.expect(",")
    mode = parser.parse_enum_keyword(
        AtomicRMWMode, lambda word: f"{parser.op_prefix()}unknown atomic RMW mode: '{word}'; "
                                    "expected one of: and, or, xor, add, addf, max, min, umax, "
                                    "umin")
    state.attrs["mode"] = mode
    parser.expect(",")
    value = parser._parse_use()
    token = _parse_optionals(parser, state, hints=False)
    return finish_view_store(parser, state, "value", value, view, indices, token)


def _print_atomic_red_view(printer: "OpPrinter", op: Operation) -> str:
    text = print_memory_attributes(op)
    text += f" {printer.value_name(op.view)}[" + ", ".join(
        printer.value_name(v) for v in op.index) + "]"
    text += f", {op.attributes['mode'].keyword}, {printer.value_name(op.value)}"
    if op.token is not None:
        text += f" token = {printer.value_name(op.token)}"
    text += printer.attr_dict_text(op, {"memory_ordering_semantics", "memory_scope", "mode"},
                                   with_keyword=True)
    text += f" : {op.value.type.short}, {op.view.type.short}{_print_index_types(op.index)}"
    return text + f" -> {op.results[0].type.short}"


class AtomicRedViewTkoOp(CudaTileOp):
    """Atomic reduction of a tile into a view position (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "atomic_red_view_tko", 0x75, "Atomics", "13.3"
    OPERANDS = (Operand("view", TileView, since="13.3"),
                Operand("index", IntTile, VARIADIC, since="13.3"),
                Operand("value", AnyTile, since="13.3"),
                Operand("token", Token, OPTIONAL, since="13.3"))
    RESULTS = (Result("result_token", Token, since="13.3"),)
    ATTRIBUTES = (Attr("memory_ordering_semantics", MemoryOrderingSemantics, since="13.3"),
                  Attr("memory_scope", MemoryScope, since="13.3"),
                  Attr("mode", AtomicRMWMode, since="13.3"))
    ATTR_SIZED_OPERANDS = True
    parse_custom = staticmethod(_parse_atomic_red_view)
    print_custom = staticmethod(_print_atomic_red_view)

    def verify_op(self):
        view = self.view.type
        if not isinstance(view, TileViewType):
            return "view operand must be a TileView type"
        if isinstance(view, GatherScatterViewType):
            return "gather_scatter_view is not supported; use partition_view instead"
        if isinstance(view, (PartitionViewType, StridedViewType)) and \
                view.padding_value is not None:
            return "views with padding_value are not supported for atomic reductions"
        tile = view.tile_type
        value = self.value.type
        if tile.element != value.element:
            return (f"view element type ('{tile.element}') must match value element type "
                    f"('{value.element}')")
        if tile.shape != value.shape:
            return (f"view tile shape {dims(tile.shape)} must match value shape "
                    f"{dims(value.shape)} for element-wise atomic operations")
        mode = self.attributes["mode"]
        if mode is AtomicRMWMode.XCHG:
            return "atomic_red_view_tko op cannot use xchg operation"
        msg = verify_atomic_rmw_mode(mode, value.element)
        if msg:
            return msg
        if self.attributes["memory_ordering_semantics"] is not MemoryOrderingSemantics.RELAXED:
            return ("only 'relaxed' memory ordering is supported for view-based atomic "
                    "reductions")
        if self.attributes["memory_scope"] is MemoryScope.SYS:
            return ("memory scope 'sys' is not supported for view-based atomic reductions; use "
                    "'tl_blk' or 'device' for TMA compatibility")
        index = self.index
        rank = len(tile.shape)
        if len(index) != rank:
            return (f"expected {rank} index operand(s) for view with tile rank {rank}, got "
                    f"{len(index)}")
        for i, v in enumerate(index):
            t = v.type
            if t.shape:
                return f"index operand {i} must be a scalar tile (rank 0), got shape {dims(t.shape)}"
            if not isinstance(t.element, IntegerType):
                return f"index operand {i} must be a scalar integer tile, got element type '{t.element}'"
        return None

