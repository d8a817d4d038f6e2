"""Subgroup and workgroup communication: reductions, shuffles, rotations, broadcasts, the
barrier and printf."""

from __future__ import annotations

import re
from typing import Optional

from ....ir.attributes import IntegerAttr, StringAttr
from ....ir.diagnostics import ERROR, Diagnostic
from ....ir.core import Region
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, RegionDef, Result
from ....ir.types import I1, I32
from ..attributes import AllReduceOperation, BroadcastType, ShuffleMode
from .base import (GpuOp, attr_dict, parse_attr_dict, parse_keyword_enum, parse_region,
                   parse_types, print_types, print_uses, render_region, type_list)


_SCALAR = re.compile(r"[su]?i[0-9]+|f[0-9]+|bf16|tf32|f8\w*")


def is_int_or_float_or_vector(t) -> bool:
    """ODS's ``AnyIntegerOrFloatOr1DVector``: a scalar integer/float or a 1-D fixed vector."""
    text = str(t)
    if _SCALAR.fullmatch(text):
        return True
    m = re.fullmatch(r"vector<([0-9]+)x(.+)>", text)
    return bool(m) and bool(_SCALAR.fullmatch(m.group(2)))


def _parse_functional_type(parser, state, operand: str, result: str) -> None:
    parser.expect(":")
    off = parser.offset
    ftype = parser.parse_function_type()
    state.set_types(operand, "operand", list(ftype.inputs), off)
    state.set_types(result, "result", list(ftype.results), off)


def _functional_type_text(op) -> str:
    ins = print_types([v.type for v in op.operands])
    return f" : ({ins}) -> {type_list([r.type for r in op.results])}"


def _parse_reduce_head(parser, state, optional_op: bool) -> None:
    if not (optional_op and parser.tok and parser.tok[0] == "%"):
        off = parser.offset
        word = parser.tok
        member = AllReduceOperation.from_keyword(word) if word else None
        if member is None:
            if word and (word[0].isalpha() or word[0] == "_"):
                raise parser.error("invalid op kind", off)
            raise parser.error("expected valid keyword", off)
        parser.i += 1
        state.attrs["op"] = member
    state.operands["value"] = [parser._parse_use()]
    if parser.tok == "uniform":
        parser.i += 1
        state.attrs["uniform"] = _unit()


def _unit():
    from ....ir.attributes import UNIT
    return UNIT


_INTEGER_ONLY = ("and", "or", "xor", "minui", "minsi", "maxui", "maxsi")
_FLOAT_ONLY = ("minnumf", "maxnumf", "minimumf", "maximumf")


def reduction_type_error(op) -> Optional[Diagnostic]:
    """MLIR's verifyReduceOpAndType: bitwise and integer min/max need integers, the float
    min/max need floats (a vector is judged by its element type)."""
    kind = op.attributes.get("op")
    if kind is None:
        return None
    t = op.results[0].type
    element = str(t)
    if element.startswith("vector<"):
        element = element[:-1].rsplit("x", 1)[-1]
    is_float = element in ("f16", "bf16", "f32", "f64", "tf32") or element.startswith("f8")
    is_int = element.startswith("i") and element[1:].isdigit()
    if (kind.keyword in _INTEGER_ONLY and not is_int) or \
            (kind.keyword in _FLOAT_ONLY and not is_float):
        return Diagnostic(ERROR, f"`{kind.keyword}` reduction operation is not compatible with "
                          f"type '{t}'", op.loc)
    return None


def _reduce_head_text(printer, op) -> str:
    kind = op.attributes.get("op")
    text = f"  {kind.keyword} " if kind is not None else "  "
    text += printer.value_name(op.operands[0])
    if "uniform" in op.attributes:
        text += " uniform"
    return text


class AllReduceOp(GpuOp):
    """``gpu.all_reduce [op] %v [uniform] { region } : (T) -> T``."""

    __slots__ = ()
    MNEMONIC = "all_reduce"
    OPERANDS = (Operand("value"),)
    RESULTS = (Result("result"),)
    ATTRIBUTES = (Attr("op", AllReduceOperation, optional=True), Attr("uniform", "unit"))
    REGIONS = (RegionDef("body", "any"),)

    @staticmethod
    def parse_custom(parser, state):
        _parse_reduce_head(parser, state, optional_op=True)
        region = Region()
        parse_region(parser, region)
        state.regions["body"] = region
        parse_attr_dict(parser, state)
        _parse_functional_type(parser, state, "value", "result")

    @staticmethod
    def print_custom(printer, op):
        return (_reduce_head_text(printer, op) + " "
                + render_region(printer, op.regions[0], entry_args=True)
                + attr_dict(printer, op, ("op", "uniform")) + _functional_type_text(op))

    def verify_regions(self):
        def error(message):
            return Diagnostic(ERROR, message, self.loc)
        blocks = self.regions[0].blocks
        if (not blocks) != ("op" in self.attributes):
            return error("expected either an op attribute or a non-empty body")
        if not blocks:
            return reduction_type_error(self)
        t = self.results[0].type
        args = blocks[0].args
        if len(args) != 2:
            return error("expected two region arguments")
        if any(a.type != t for a in args):
            return error("incorrect region argument type")
        yields = 0
        for block in blocks:
            last = block.ops[-1] if block.ops else None
            if last is not None and last.name == "gpu.yield":
                if len(last.operands) != 1:
                    return error("expected one gpu.yield operand")
                if last.operands[0].type != t:
                    return error("incorrect gpu.yield type")
                yields += 1
        if not yields:
            return error("expected gpu.yield op in region")
        return _isolation_error(self)


def _isolation_error(op) -> Optional[Diagnostic]:
    """IsolatedFromAbove (MLIR checks it in the verifier; the body's names are looked up in the
    enclosing scope when parsed): a use, at any depth, of a value defined outside ``op``."""
    inside: set[int] = set()

    def collect(region):
        for block in region.blocks:
            inside.update(id(a) for a in block.args)
            for inner in block.ops:
                inside.update(id(r) for r in inner.results)
                for sub in inner.regions:
                    collect(sub)

    def find(region):
        for block in region.blocks:
            for inner in block.ops:
                for value in inner.operands:
                    if id(value) not in inside:
                        return inner
                for sub in inner.regions:
                    user = find(sub)
                    if user is not None:
                        return user
        return None

    for region in op.regions:
        collect(region)
    for region in op.regions:
        user = find(region)
        if user is not None:
            d = Diagnostic(ERROR, f"'{user.name}' op using value defined outside the region",
                           user.loc)
            d.attach_note("required by region isolation constraints", op.loc)
            return d
    return None


class SubgroupReduceOp(GpuOp):
    """``gpu.subgroup_reduce op %v [uniform] [cluster(size = N[, stride = S])] : (T) -> T``."""

    __slots__ = ()
    MNEMONIC = "subgroup_reduce"
    OPERANDS = (Operand("value"),)
    RESULTS = (Result("result"),)
    ATTRIBUTES = (Attr("op", AllReduceOperation), Attr("uniform", "unit"),
                  Attr("cluster_size", "i32", optional=True),
                  Attr("cluster_stride", "i32", default=IntegerAttr(1, I32)))

    @staticmethod
    def parse_custom(parser, state):
        _parse_reduce_head(parser, state, optional_op=False)
        if parser.tok == "cluster":
            parser.i += 1
            parser.expect("(")
            parser.expect_keyword("size")
            parser.expect("=")
            state.attrs["cluster_size"] = parser.parse_integer_attr(I32)
            if parser.consume(","):
                parser.expect_keyword("stride")
                parser.expect("=")
                state.attrs["cluster_stride"] = parser.parse_integer_attr(I32)
            parser.expect(")")
        parse_attr_dict(parser, state)
        _parse_functional_type(parser, state, "value", "result")

    @staticmethod
    def print_custom(printer, op):
        text = _reduce_head_text(printer, op)
        size = op.attributes.get("cluster_size")
        if size is not None:
            text += f" cluster(size = {size.value}"
            stride = op.attributes.get("cluster_stride")
            if stride is not None and stride.value != 1:
                text += f", stride = {stride.value}"
            text += ")"
        return (text + attr_dict(printer, op, ("op", "uniform", "cluster_size", "cluster_stride"))
                + _functional_type_text(op))

    def verify_op(self):
        t = self.operands[0].type
        if not is_int_or_float_or_vector(t):
            return ("operand #0 must be Integer or Float or fixed-length vector of Integer or "
                    f"Float values of ranks 1, but got '{t}'")
        for name, what in (("cluster_size", "size"), ("cluster_stride", "stride")):
            value = self.attributes.get(name)
            if value is not None and not _is_power_of_two(value.value):
                return f"cluster {what} {value.value} is not a power of two"
        return reduction_type_error(self)


def _is_power_of_two(n: int) -> bool:
    return n > 0 and n & (n - 1) == 0


class ShuffleOp(GpuOp):
    """``gpu.shuffle  mode %v, %offset, %width : T`` -> ``%shuffleResult, %valid``."""

    __slots__ = ()
    MNEMONIC = "shuffle"
    OPERANDS = (Operand("value"), Operand("offset"), Operand("width"))
    RESULTS = (Result("shuffleResult"), Result("valid"))
    ATTRIBUTES = (Attr("mode", ShuffleMode),)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["mode"] = parse_keyword_enum(parser, ShuffleMode)
        state.operands["value"] = [parser._parse_use()]
        parser.expect(",")
        state.operands["offset"] = [parser._parse_use()]
        parser.expect(",")
        state.operands["width"] = [parser._parse_use()]
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        t = parser.parse_type()
        state.set_types("value", "operand", [t], off)
        state.set_types("offset", "operand", [I32], off)
        state.set_types("width", "operand", [I32], off)
        state.result_types["shuffleResult"] = [t]
        state.result_types["valid"] = [I1]

    @staticmethod
    def print_custom(printer, op):
        return (f"  {op.attributes['mode'].keyword} {print_uses(printer, op.operands)}"
                + attr_dict(printer, op, ("mode",)) + f" : {op.operands[0].type}")

    def verify_op(self):
        t = self.operands[0].type
        if not is_int_or_float_or_vector(t):
            return ("operand #0 must be Integer or Float or fixed-length vector of Integer or "
                    f"Float values of ranks 1, but got '{t}'")
        if t != self.results[0].type:
            return "failed to verify that all of {value, shuffleResult} have same type"
        return None


class RotateOp(GpuOp):
    """``gpu.rotate %v, offset, width : T`` -> ``%rotateResult, %valid``."""

    __slots__ = ()
    MNEMONIC = "rotate"
    OPERANDS = (Operand("value"),)
    RESULTS = (Result("rotateResult"), Result("valid"))
    ATTRIBUTES = (Attr("offset", "i32"), Attr("width", "i32"))

    @staticmethod
    def parse_custom(parser, state):
        state.operands["value"] = [parser._parse_use()]
        parser.expect(",")
        state.attrs["offset"] = parser.parse_integer_attr(I32)
        parser.expect(",")
        state.attrs["width"] = parser.parse_integer_attr(I32)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        t = parser.parse_type()
        state.set_types("value", "operand", [t], off)
        state.result_types["rotateResult"] = [t]
        state.result_types["valid"] = [I1]

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        return (f"{printer.value_name(op.operands[0])}, {a['offset'].value}, {a['width'].value}"
                + attr_dict(printer, op, ("offset", "width")) + f" : {op.operands[0].type}")

    def verify_op(self):
        width = self.attributes["width"].value
        if not _is_power_of_two(width):
            return ("attribute 'width' failed to satisfy constraint: 32-bit signless integer "
                    "attribute whose value is a power of two > 0")
        if not 0 <= self.attributes["offset"].value < width:
            return f"offset must be in the range [0, {width})"
        return None


class SubgroupBroadcastOp(GpuOp):
    """``gpu.subgroup_broadcast %v,  first_active_lane : T`` / ``specific_lane %lane``."""

    __slots__ = ()
    MNEMONIC = "subgroup_broadcast"
    OPERANDS = (Operand("src"), Operand("lane", kind=OPTIONAL))
    RESULTS = (Result("result"),)
    ATTRIBUTES = (Attr("broadcast_type", BroadcastType),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["src"] = [parser._parse_use()]
        parser.expect(",")
        state.attrs["broadcast_type"] = parse_keyword_enum(parser, BroadcastType)
        if parser.tok[:1] == "%":  # (either kind parses; the verifier checks the lane)
            state.operands["lane"] = [parser._parse_use()]
            state.set_types("lane", "operand", [I32], parser.offset)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        t = parser.parse_type()
        state.set_types("src", "operand", [t], off)
        state.result_types["result"] = [t]

    @staticmethod
    def print_custom(printer, op):
        kind = op.attributes["broadcast_type"]
        text = f"{printer.value_name(op.operands[0])},  {kind.keyword}"
        if len(op.operands) > 1:
            text += " " + printer.value_name(op.operands[1])
        return text + attr_dict(printer, op, ("broadcast_type",)) + f" : {op.results[0].type}"

    def verify_op(self):
        kind = self.attributes.get("broadcast_type")
        has_lane = len(self.operands) > 1
        if kind is BroadcastType.specific_lane and not has_lane:
            return "lane must be specified for `specific_lane` broadcast"
        if kind is BroadcastType.first_active_lane and has_lane:
            return "lane can only be specified for `specific_lane` broadcast"
        return None


class BroadcastLaneOp(GpuOp):
    """``gpu.broadcast_lane %v, first_lane | any_lane | lane %idx : T`` (newer than MLIR 22;
    spelled as the conformance corpus writes it)."""

    __slots__ = ()
    MNEMONIC = "broadcast_lane"
    OPERANDS = (Operand("src"), Operand("lane", kind=OPTIONAL))
    RESULTS = (Result("result"),)
    ATTRIBUTES = (Attr("broadcast_type", "str"),)
    KINDS = ("first_lane", "any_lane", "lane")

    @classmethod
    def parse_custom(cls, parser, state):
        state.operands["src"] = [parser._parse_use()]
        parser.expect(",")
        off = parser.offset
        word = parser.parse_keyword()
        if word not in cls.KINDS:
            raise parser.error(f"expected one of: {', '.join(cls.KINDS)}", off)
        state.attrs["broadcast_type"] = StringAttr(word)
        if word == "lane":
            state.operands["lane"] = [parser._parse_use()]
            state.set_types("lane", "operand", [I32], parser.offset)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        t = parser.parse_type()
        state.set_types("src", "operand", [t], off)
        state.result_types["result"] = [t]

    @staticmethod
    def print_custom(printer, op):
        kind = op.attributes["broadcast_type"].value
        text = f"{printer.value_name(op.operands[0])}, {kind}"
        if len(op.operands) > 1:
            text += " " + printer.value_name(op.operands[1])
        return text + attr_dict(printer, op, ("broadcast_type",)) + f" : {op.results[0].type}"

    def verify_op(self):
        kind = self.attributes["broadcast_type"].value
        if kind not in self.KINDS:
            return f"unknown broadcast kind '{kind}'"
        if (kind == "lane") != (len(self.operands) > 1):
            return "a lane operand is required exactly for `lane` broadcasts"
        return None


class BarrierOp(GpuOp):
    """``gpu.barrier``."""

    __slots__ = ()
    MNEMONIC = "barrier"

    @staticmethod
    def parse_custom(parser, state):
        parse_attr_dict(parser, state)

    @staticmethod
    def print_custom(printer, op):
        return attr_dict(printer, op)


class PrintfOp(GpuOp):
    """``gpu.printf "format" [, %a, %b : Ta, Tb]``."""

    __slots__ = ()
    MNEMONIC = "printf"
    OPERANDS = (Operand("args", kind=VARIADIC),)
    ATTRIBUTES = (Attr("format", "str"),)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["format"] = StringAttr(parser.parse_string())
        parse_attr_dict(parser, state)
        if parser.consume(","):
            state.operands["args"] = parser.parse_comma_list(parser._parse_use)
            parser.expect(":")
            off = parser.offset
            state.set_types("args", "operand", parse_types(parser), off)

    @staticmethod
    def print_custom(printer, op):
        text = str(op.attributes["format"]) + attr_dict(printer, op, ("format",))
        if op.operands:
            text += (", " + print_uses(printer, op.operands) + " : "
                     + print_types([v.type for v in op.operands]))
        return text
