"""LLVM globals as C ``printf`` programs use them: ``llvm.mlir.global`` (a module-level
constant such as a format string), ``llvm.mlir.addressof`` (a pointer to it) and
``llvm.getelementptr`` with constant indices (what MLIR emits for a string's first byte)::

    llvm.mlir.global internal constant @fmt("x = %d\\0A\\00") {addr_space = 0 : i32}
    %p = llvm.mlir.addressof @fmt : !llvm.ptr
    %s = llvm.getelementptr %p[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<7 x i8>

Initialiser regions are not supported (a global's value is an attribute); ``getelementptr``
takes constant indices only.  Linkage is kept as MLIR's ``#llvm.linkage<...>`` attribute."""

from __future__ import annotations

import re

from ...ir.attributes import (UNIT, DenseArrayAttr, IntegerAttr, OpaqueAttr, StringAttr,
                              SymbolRefAttr, TypeAttr, format_named_attr)
from ...ir.constraints import ANY_TYPE
from ...ir.core import Region
from ...ir.opdef import Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import Pure
from ...ir.types import I32, I64, BuiltinType

__all__ = ["GlobalOp", "AddressOfOp", "GEPOp", "global_bytes"]

_LINKAGES = ("private", "internal", "available_externally", "linkonce", "weak", "common",
             "appending", "extern_weak", "linkonce_odr", "weak_odr", "external")

_ARRAY_I8 = re.compile(r"!llvm\.array<\s*(\d+)\s*x\s*i8\s*>\Z")


def _ptr_space(t) -> int:
    text = str(t)
    if text == "!llvm.ptr":
        return 0
    m = re.fullmatch(r"!llvm\.ptr<(\d+)>", text)
    return int(m.group(1)) if m else -1


def _str_bytes(value: str) -> bytes:
    return value.encode("utf-8", "surrogateescape")


def global_bytes(op) -> bytes:
    """The bytes of a string-valued ``llvm.mlir.global``."""
    return _str_bytes(op.attributes["value"].value)


class GlobalOp(OpBase):
    """``llvm.mlir.global [linkage] [constant] @name(value) {addr_space = 0 : i32} [: type]``;
    a string value gives the type ``!llvm.array<N x i8>`` when none is written."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "mlir.global"
    ATTRIBUTES = (Attr("addr_space", "i32", optional=True), Attr("constant", "unit"),
                  Attr("global_type", "type"), Attr("linkage", "any"),
                  Attr("sym_name", "symbol"), Attr("unnamed_addr", "i64", optional=True),
                  Attr("value", "any", optional=True),
                  Attr("visibility_", "i64", optional=True))
    REGIONS = (RegionDef("initializer", "any"),)

    @staticmethod
    def parse_custom(parser, state):
        linkage = "external"
        if parser.tok in _LINKAGES:
            linkage = parser.tok
            parser.i += 1
        if parser.tok == "constant":
            state.attrs["constant"] = UNIT
            parser.i += 1
        state.attrs["sym_name"] = StringAttr(parser.parse_symbol_name())
        parser.expect("(")
        value = None
        if parser.tok != ")":
            value = parser.parse_attribute()
            state.attrs["value"] = value
        parser.expect(")")
        state.attrs["linkage"] = OpaqueAttr(f"#llvm.linkage<{linkage}>")
        state.attrs["addr_space"] = IntegerAttr(0, I32)
        state.attrs["unnamed_addr"] = IntegerAttr(0, I64)
        state.attrs["visibility_"] = IntegerAttr(0, I64)
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        if parser.consume(":"):
            state.attrs["global_type"] = TypeAttr(parser.parse_type())
        elif isinstance(value, StringAttr):
            n = len(_str_bytes(value.value))
            state.attrs["global_type"] = TypeAttr(BuiltinType(f"!llvm.array<{n} x i8>"))
        else:
            raise parser.error("type can only be omitted for string globals")
        if parser.tok == "{":
            raise parser.error("llvm.mlir.global with an initializer region is not supported")
        state.regions["initializer"] = Region()
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        a = op.attributes
        linkage = a["linkage"]
        m = re.fullmatch(r"#llvm\.linkage<(\w+)>", str(linkage.generic()))
        text = f" {m.group(1)}" if m else ""
        if "constant" in a:
            text += " constant"
        text += " @" + a["sym_name"].value
        value = a.get("value")
        text += "(" + (value.generic() if value is not None else "") + ")"
        rest = {k: v for k, v in a.items()
                if k not in ("constant", "global_type", "linkage", "sym_name", "value",
                             "unnamed_addr", "visibility_")}
        # MLIR prints the zero unnamed_addr / visibility_ nowhere in the custom form
        for k in ("unnamed_addr", "visibility_"):
            v = a.get(k)
            if v is not None and not (isinstance(v, IntegerAttr) and v.value == 0):
                rest[k] = v
        if rest:
            text += " {" + ", ".join(format_named_attr(k, rest[k]) for k in sorted(rest)) + "}"
        gtype = a["global_type"].value
        if not (isinstance(value, StringAttr) and
                str(gtype) == f"!llvm.array<{len(_str_bytes(value.value))} x i8>"):
            text += f" : {gtype}"
        return text

    def verify_op(self):
        a = self.attributes
        linkage = a["linkage"]
        if not re.fullmatch(r"#llvm\.linkage<(%s)>" % "|".join(_LINKAGES),
                            str(linkage.generic())):
            return "attribute 'linkage' failed to satisfy constraint: LLVM linkage types"
        value = a.get("value")
        if isinstance(value, StringAttr):
            m = _ARRAY_I8.fullmatch(str(a["global_type"].value))
            if m is None or int(m.group(1)) != len(_str_bytes(value.value)):
                return "requires an i8 array type of the length equal to that of the string " \
                    "attribute"
        return None


class AddressOfOp(OpBase):
    """``%p = llvm.mlir.addressof @g : !llvm.ptr``."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "mlir.addressof"
    ATTRIBUTES = (Attr("global_name", "flat_symbol"),)
    RESULTS = (Result("res", ANY_TYPE),)
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        state.attrs["global_name"] = SymbolRefAttr(parser.parse_symbol_name())
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {op.attributes['global_name'].generic()}"
                f"{printer.attr_dict_text(op, {'global_name'})} : {op.results[0].type}")

    def verify_op(self):
        if _ptr_space(self.results[0].type) < 0:
            return "result #0 must be LLVM pointer type, but got " \
                f"'{self.results[0].type}'"
        return None

    def verify_symbol_uses(self, table):
        from ...ir.verify import symbol_lookup
        name = str(self.attributes["global_name"].generic()).lstrip("@")
        target = symbol_lookup(table, name)
        if target is None or target.name not in ("llvm.mlir.global", "llvm.func"):
            return "must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' " \
                "or 'llvm.func' or 'llvm.mlir.ifunc'"
        if target.name == "llvm.mlir.global":
            space = target.attributes.get("addr_space")
            if _ptr_space(self.results[0].type) != (space.value if space is not None else 0):
                return "pointer address space must match address space of the referenced " \
                    "global or alias"
        return None


class GEPOp(OpBase):
    """``%q = llvm.getelementptr [inbounds] %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, T`` with
    constant indices only."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "getelementptr"
    OPERANDS = (Operand("base", ANY_TYPE),)
    RESULTS = (Result("res", ANY_TYPE),)
    ATTRIBUTES = (Attr("elem_type", "type"), Attr("noWrapFlags", "i32", optional=True),
                  Attr("rawConstantIndices", "array_i32"))
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        flags = 0
        if parser.tok == "inbounds":
            flags = 3
            parser.i += 1
        state.operands["base"] = [parser._parse_use()]
        parser.expect("[")
        indices: list = []
        if parser.tok != "]":
            parser.parse_comma_list(lambda: indices.append(parser.parse_integer()), "]")
        parser.expect("]")
        state.attrs["rawConstantIndices"] = DenseArrayAttr("i32", tuple(indices))
        state.attrs["noWrapFlags"] = IntegerAttr(flags, I32)
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        parser.expect("(")
        off = parser.offset
        state.set_types("base", "operand", [parser.parse_type()], off)
        parser.expect(")")
        parser.expect("->")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        parser.expect(",")
        state.attrs["elem_type"] = TypeAttr(parser.parse_type())
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        flags = op.attributes.get("noWrapFlags")
        text = " inbounds" if isinstance(flags, IntegerAttr) and flags.value == 3 else ""
        idx = ", ".join(str(i) for i in op.attributes["rawConstantIndices"].value)
        text += f" {printer.value_name(op.operands[0])}[{idx}]"
        text += printer.attr_dict_text(op, {"rawConstantIndices", "noWrapFlags", "elem_type"})
        return (text + f" : ({op.operands[0].type}) -> {op.results[0].type}, "
                f"{op.attributes['elem_type'].value}")

    def verify_op(self):
        for what, t in (("operand", self.operands[0].type), ("result", self.results[0].type)):
            if _ptr_space(t) < 0:
                return f"{what} #0 must be LLVM pointer type, but got '{t}'"
        return None
