"""LLVM globals as C ``printf`` programs use them: ``llvm.mlir.global`` (a module-level
constant such as a format string), ``llvm.mlir.addressof`` (a pointer to it) and
``llvm.getelementptr`` with constant indices (what MLIR emits for a string's first byte)::

    llvm.mlir.global internal constant @fmt("x = %d\\0A\\00") {addr_space = 0 : i32}
    %p = llvm.mlir.addressof @fmt : !llvm.ptr
    %s = llvm.getelementptr %p[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.array<7 x i8>

A global's value is an attribute or an initializer region (ops ending in ``llvm.return``,
evaluated once by the host); ``getelementptr``
takes constant and dynamic (SSA) indices.  Linkage is kept as MLIR's ``#llvm.linkage<...>`` attribute."""

from __future__ import annotations

import re

from ...ir.attributes import (UNIT, DenseArrayAttr, IntegerAttr, OpaqueAttr, StringAttr,
                              SymbolRefAttr, TypeAttr, format_named_attr)
from ...ir.constraints import ANY_TYPE
from ...ir.core import Region
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import IsolatedFromAbove, Pure, SingleBlock
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
    #: no default dialect inside (MLIR's LLVM ops name none): ops print with ``llvm.``
    DEFAULT_DIALECT = None
    ATTRIBUTES = (Attr("addr_space", "i32", optional=True), Attr("constant", "unit"),
                  Attr("global_type", "type"), Attr("linkage", "any"),
                  Attr("sym_name", "symbol"), Attr("unnamed_addr", "i64", optional=True),
                  Attr("value", "any", optional=True),
                  Attr("visibility_", "i64", optional=True))
    REGIONS = (RegionDef("initializer", "any"),)
    TRAITS = (IsolatedFromAbove(), SingleBlock())

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
        region = Region()
        if parser.tok == "{":
            parser.parse_region_into(region, None, isolated=True, dialect=parser.default_dialect[-1])
        state.regions["initializer"] = region
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
        if op.regions and op.regions[0].blocks:
            text += " " + printer.render_region(op.regions[0])
        return text

    def verify_op(self):
        a = self.attributes
        linkage = a["linkage"]
        if not re.fullmatch(r"#llvm\.linkage<(%s)>" % "|".join(_LINKAGES),
                            str(linkage.generic())):
            return "attribute 'linkage' failed to satisfy constraint: LLVM linkage types"
        value = a.get("value")
        region = self.regions[0]
        if region.blocks:
            if value is not None:
                return "cannot have both initializer value and region"
            ops = region.blocks[0].ops
            term = ops[-1] if ops else None
            if term is not None and term.name == "llvm.return":
                if not term.operands:
                    return "initializer region cannot return void"
                got = str(term.operands[0].type)
                if got != str(a["global_type"].value):
                    return f"initializer region type '{got}' does not match global type " \
                        f"'{a['global_type'].value}'"
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


#: ``rawConstantIndices`` entry of a dynamic index (MLIR's ``GEPOp::kDynamicIndex``)
DYNAMIC_INDEX = -(1 << 31)
#: ``noWrapFlags`` bits: inbounds is ``inbounds_flag | nusw``
_GEP_FLAGS = {"inbounds": 3, "inbounds_flag": 1, "nusw": 2, "nuw": 4}


def _flags_text(v: int) -> str:
    words = []
    if v & 3 == 3:
        words.append("inbounds")
    elif v & 1:
        words.append("inbounds_flag")
    elif v & 2:
        words.append("nusw")
    if v & 4:
        words.append("nuw")
    return "|".join(words)


def llvm_type_parts(text: str):
    """The structure of an LLVM type's text: ``("struct", [member texts])``, ``("array",
    count, element)``, ``("vector", count, element)`` or ``("scalar",)``."""
    t = text.strip()
    if t.startswith("!llvm."):
        t = t[len("!llvm."):]
    m = re.fullmatch(r"array<\s*(\d+)\s*x\s*(.+)>", t, re.S)
    if m:
        return ("array", int(m.group(1)), m.group(2).strip())
    m = re.fullmatch(r"vector<\s*(\d+)\s*x\s*(.+)>", t, re.S) or \
        re.fullmatch(r"vector<\s*(\d+)x(.+)>", t, re.S)
    if m:
        return ("vector", int(m.group(1)), m.group(2).strip())
    m = re.fullmatch(r"struct<(.*)>", t, re.S)
    if m:
        body = m.group(1).strip()
        if body.startswith('"'):          # a named struct: "name", [packed] (members)
            end = body.index('"', 1)
            body = body[end + 1:].lstrip(", ").strip()
        packed = body.startswith("packed")
        if packed:
            body = body[len("packed"):].strip()
        if body.startswith("(") and body.endswith(")"):
            from .ops import _split_top
            return ("struct", _split_top(body[1:-1]), packed)
        return ("struct", [], packed)
    return ("scalar",)


def _is_signless_int(t) -> bool:
    text = str(t)
    if re.fullmatch(r"i\d+", text):
        return True
    m = re.fullmatch(r"vector<(?:\[?\d+\]?x)+(i\d+)>", text)
    return m is not None


class GEPOp(OpBase):
    """``%q = llvm.getelementptr [flags] %p[0, %i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, T``:
    constant and dynamic (SSA, signless integer) indices; ``rawConstantIndices`` holds the
    constants with :data:`DYNAMIC_INDEX` where an operand stands, as MLIR does."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    MNEMONIC = "getelementptr"
    OPERANDS = (Operand("base", ANY_TYPE), Operand("dynamicIndices", ANY_TYPE, VARIADIC))
    RESULTS = (Result("res", ANY_TYPE),)
    ATTRIBUTES = (Attr("elem_type", "type"), Attr("noWrapFlags", "i32", optional=True),
                  Attr("rawConstantIndices", "array_i32"))
    TRAITS = (Pure,)

    @staticmethod
    def parse_custom(parser, state):
        flags = 0
        while parser.tok in _GEP_FLAGS:
            flags |= _GEP_FLAGS[parser.tok]
            parser.i += 1
            if not parser.consume("|"):
                break
        state.operands["base"] = [parser._parse_use()]
        parser.expect("[")
        indices: list = []
        dynamic: list = []

        def one():
            if parser.tok.startswith("%"):
                dynamic.append(parser._parse_use())
                indices.append(DYNAMIC_INDEX)
                return
            off = parser.offset
            v = parser.parse_integer()
            if not -(1 << 31) <= v < (1 << 31):
                raise parser.error(f"{parser.op_prefix()}integer value too large", off)
            indices.append(v)
        if parser.tok != "]":
            parser.parse_comma_list(one, "]")
        parser.expect("]")
        state.attrs["rawConstantIndices"] = DenseArrayAttr("i32", tuple(indices))
        state.attrs["noWrapFlags"] = IntegerAttr(flags, I32)
        state.operands["dynamicIndices"] = dynamic
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        parser.expect(":")
        parser.expect("(")
        off = parser.offset
        types = parser.parse_comma_list(parser.parse_type, ")")
        parser.expect(")")
        if len(types) != 1 + len(dynamic):
            raise parser.error(f"{parser.op_prefix()}number of operands and types do not "
                               f"match: got {1 + len(dynamic)} operands and {len(types)} "
                               "types", state.start)
        state.set_types("base", "operand", types[:1], off)
        state.set_types("dynamicIndices", "operand", types[1:], off)
        parser.expect("->")
        off = parser.offset
        state.set_types("res", "result", [parser.parse_type()], off)
        parser.expect(",")
        state.attrs["elem_type"] = TypeAttr(parser.parse_type())
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        flags = op.attributes.get("noWrapFlags")
        words = _flags_text(flags.value) if isinstance(flags, IntegerAttr) else ""
        text = f" {words}" if words else ""
        dyn = iter(op.operands[1:])
        idx = ", ".join(printer.value_name(next(dyn)) if i == DYNAMIC_INDEX else str(i)
                        for i in op.attributes["rawConstantIndices"].value)
        text += f" {printer.value_name(op.operands[0])}[{idx}]"
        text += printer.attr_dict_text(op, {"rawConstantIndices", "noWrapFlags", "elem_type"})
        types = ", ".join(str(v.type) for v in op.operands)
        return (text + f" : ({types}) -> {op.results[0].type}, "
                f"{op.attributes['elem_type'].value}")

    def verify_op(self):
        for what, t in (("operand", self.operands[0].type), ("result", self.results[0].type)):
            if _ptr_space(t) < 0:
                return f"{what} #0 must be LLVM pointer type, but got '{t}'"
        for k, v in enumerate(self.operands[1:], start=1):
            if not _is_signless_int(v.type):
                return f"operand #{k} must be variadic of signless integer or LLVM " \
                    "dialect-compatible vector of signless integer, but got " \
                    f"'{v.type}'"
        raw = list(self.attributes["rawConstantIndices"].value)
        if sum(1 for i in raw if i == DYNAMIC_INDEX) != len(self.operands) - 1:
            return "expected as many dynamic indices as specified in 'rawConstantIndices'"
        t = str(self.attributes["elem_type"].value)
        for k, i in enumerate(raw[1:], start=1):
            parts = llvm_type_parts(t)
            if parts[0] == "struct":
                if i == DYNAMIC_INDEX:
                    return f"expected index {k} indexing a struct to be constant"
                if not 0 <= i < len(parts[1]):
                    return f"index {k} indexing a struct is out of bounds"
                t = parts[1][i]
            elif parts[0] in ("array", "vector"):
                t = parts[2]
            else:
                return f"type '{_type_text(t)}' cannot be indexed (index #{k})"
        return None


def _type_text(t: str) -> str:
    """An LLVM type's text as a diagnostic shows it (a builtin type bare, others
    ``!llvm.``-prefixed)."""
    if t.startswith("!") or re.fullmatch(r"(i\d+|f16|bf16|f32|f64|f80|f128|index)", t) or \
            t.startswith("vector<"):
        return t
    return "!llvm." + t
