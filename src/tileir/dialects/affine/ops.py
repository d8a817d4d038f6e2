"""``affine.apply`` / ``affine.min`` / ``affine.max``: ``%r = affine.apply #map(%d0, ...)[%s0,
...]``, dimension operands in parentheses, symbol operands in brackets, every operand and the
result ``index``; ``apply`` takes a one-result map, ``min``/``max`` the least/greatest of the
map's results (at least one).  Text, generic form and messages as mlir-opt 22."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, Result
from ...ir.traits import Pure
from ..builtin.affine import AffineMapAttr
from ..index.ops import INDEX, _index_type

if TYPE_CHECKING:  # pragma: no cover
    from ...text.format import OpState
    from ...text.parser import Parser

__all__ = ["ApplyOp", "MinOp", "MaxOp"]


class _MapOp(OpBase):
    """An op computing from an affine map of its ``index`` operands (dims, then symbols)."""

    __slots__ = ()
    DIALECT_NAME = "affine"
    OPERANDS = (Operand("mapOperands", INDEX, VARIADIC),)
    RESULTS = (Result("result", INDEX),)
    ATTRIBUTES = (Attr("map", "affine_map"),)
    TRAITS = (Pure,)

    @classmethod
    def parse_custom(cls, parser: "Parser", state: "OpState"):
        start = parser.offset
        off = parser.offset
        if parser.tok[:1] in ("%", ""):
            raise parser.error_prev_end("expected attribute value")
        attr = parser.parse_attribute()
        if not isinstance(attr, AffineMapAttr):
            raise parser.error("expected affine map", off)
        amap = attr.value
        dims = _operand_list(parser, "(", ")")
        symbols = _operand_list(parser, "[", "]") if parser.tok == "[" else []
        if len(dims) != amap.n_dims or len(symbols) != amap.n_symbols:
            raise parser.error(f"custom op '{state.spec.name}' dimension or symbol index "
                               "mismatch", state.start)
        if cls.MNEMONIC == "apply" and len(amap.results) != 1:
            raise parser.error(f"operation defines {len(amap.results)} results but was "
                               "provided 1 to bind", _op_line_start(parser, start))
        state.attrs["map"] = attr
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        state.operands["mapOperands"] = dims + symbols
        state.set_types("mapOperands", "operand", [_index_type()] * len(dims + symbols), start)
        state.set_types("result", "result", [_index_type()], start)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        amap = op.attributes["map"]
        names = [printer.value_name(v) for v in op.operands]
        n = amap.value.n_dims
        text = f" {amap.generic()}(" + ", ".join(names[:n]) + ")"
        if amap.value.n_symbols:
            text += "[" + ", ".join(names[n:]) + "]"
        return text + printer.attr_dict_text(op, {"map"})

    def verify_op(self):
        amap = self.attributes["map"].value
        if len(self.operands) != amap.n_dims + amap.n_symbols:
            return "operand count and affine map dimension and symbol count must match"
        if self.MNEMONIC == "apply":
            if len(amap.results) != 1:
                return "mapping must produce one value"
        elif not amap.results:
            return "affine map expect at least one result"
        return None


def _op_line_start(parser: "Parser", offset: int) -> int:
    """Where the op's statement begins (its first result name): MLIR reports result-count
    mismatches there."""
    src = parser.src
    line = src.rfind("\n", 0, offset) + 1
    return line + len(src[line:offset]) - len(src[line:offset].lstrip())


def _operand_list(parser: "Parser", open_: str, close: str) -> list:
    parser.expect(open_)
    uses = [] if parser.tok == close else parser.parse_comma_list(parser._parse_use, close)
    parser.expect(close)
    return uses


class ApplyOp(_MapOp):
    """``affine.apply``: the single result of the map."""

    __slots__ = ()
    MNEMONIC = "apply"


class MinOp(_MapOp):
    """``affine.min``: the least of the map's results."""

    __slots__ = ()
    MNEMONIC = "min"


class MaxOp(_MapOp):
    """``affine.max``: the greatest of the map's results."""

    __slots__ = ()
    MNEMONIC = "max"
