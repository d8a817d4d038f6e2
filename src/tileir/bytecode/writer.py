"""The bytecode writer (``tileir.write_bytecode``).

Mirrors cuda-tile's ``BytecodeWriter.cpp``: the module is checked to be self-contained, then the
sections are emitted in NVIDIA's order (global, func, constant, debug, type, producer, string,
end) with the same table ordering rules (types after their dependencies, strings and constants in
order of first use), so that the output matches cuda-tile-translate's byte for byte wherever the
IR agrees.  Per-op encoding comes from the tables in :mod:`tileir.bytecode._ops`.
"""

from __future__ import annotations

import struct
from typing import Optional, Union

from ..dialects.cuda_tile.attributes import (ArrayAttr, BoundedAttr, DenseArrayAttr,
                                             DenseElementsAttr, DICompileUnitAttr, DIFileAttr,
                                             DILexicalBlockAttr, DISubprogramAttr, DictionaryAttr,
                                             DivByAttr, FloatAttr, IntegerAttr,
                                             OptimizationHintsAttr, SameElementsAttr, StringAttr,
                                             SymbolRefAttr, SymbolVisibility, TileEnum, TypeAttr,
                                             enum_member_since)
from ..ir.diagnostics import ERROR, REMARK, Diagnostic
from ..ir.attributes import Attribute
from ..ir.core import Operation
from ..ir.verify import attribute_kind_checker, check_attribute_kind
from ..ir.locations import (UNKNOWN_LOC, CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc,
                            UnknownLoc)
from ..dialects.cuda_tile.attributes import DILoc
from ..dialects.cuda_tile.types import I1, TOKEN, FloatType, FunctionType, IntegerType, TileType
from ._dense import FLOAT_BITS, dense_to_raw, float_to_bits
from ._codegen import make_encoder
from ._ops import ARRAY_ELEMENT_ATTRS, TERMINATORS, codec_for_name
from ._prims import MAGIC, MASK64, pad_to, put_le_array, put_svarint, put_varint, zigzag
from ._types import TypeVersionError, TypeWriter
from .errors import BytecodeWriteError
from .versions import (DEFAULT_VERSION, V13_3, Version, lookup_version, max_opcode,
                       parse_version, version_range_text)

__all__ = ["write_bytecode", "find_cuda_tile_module"]

SEC_END, SEC_STRING, SEC_FUNC, SEC_DEBUG, SEC_CONST, SEC_TYPE, SEC_GLOBAL, SEC_PRODUCER = range(8)


class _Fail(Exception):
    """Internal: abort writing with diagnostics."""

    def __init__(self, *diags: Diagnostic) -> None:
        self.diags = list(diags)


def _err(message: str, loc: Optional[Location] = None) -> _Fail:
    return _Fail(Diagnostic(ERROR, message, loc if loc is not None else UNKNOWN_LOC))


def find_cuda_tile_module(op: Operation) -> Operation:
    """The ``cuda_tile.module`` to encode: ``op`` itself or the single one in a builtin module."""
    if op.name == "cuda_tile.module":
        return op
    if op.name == "builtin.module":
        body = op.regions[0].blocks[0].ops if op.regions and op.regions[0].blocks else []
        if len(body) != 1 or body[0].name != "cuda_tile.module":
            raise BytecodeWriteError([Diagnostic(
                ERROR, "expected a single CUDA Tile IR module in the MLIR module", op.loc)])
        if op.attributes:
            # (bytecode holds the cuda_tile.module only: they would be lost)
            names = ", ".join(sorted(op.attributes))
            raise BytecodeWriteError([Diagnostic(
                ERROR, f"the attributes of the enclosing builtin.module ({names}) cannot be "
                "written as bytecode", op.loc)])
        return body[0]
    raise BytecodeWriteError([Diagnostic(
        ERROR, f"expected a CUDA Tile IR module, but got a {op.name}", op.loc)])


def _loc_kind(loc) -> str:
    if isinstance(loc, FusedLoc):
        return "FusedLoc"
    if isinstance(loc, NameLoc):
        return "NameLoc"
    if isinstance(loc, UnknownLoc):
        return "UnknownLoc"
    if isinstance(loc, FileLineColLoc):
        return "FileLineColLoc"
    if type(loc).__name__ == "OpaqueLoc":
        return "OpaqueLoc"
    return "Unknown Attribute"


class _DebugInfo:
    """cuda-tile's DebugInfoWriter: per function a list of debug-attribute indices (its own
    location first, then one per op in emission order) and the table of debug attributes."""

    def __init__(self, strings) -> None:
        self.strings = strings
        self.op_index: dict = {}
        self.indices: list[list[int]] = []
        self.attr_index: dict = {}
        self.attrs: list = []

    @staticmethod
    def reserved(loc) -> bool:
        return loc is None or isinstance(loc, (FileLineColLoc, UnknownLoc))

    def function_index(self, func: Operation) -> int:
        key = id(func)
        idx = self.op_index.get(key)
        if idx is not None:
            return idx
        if self.reserved(func.loc):
            return 0
        idx = len(self.op_index) + 1
        self.op_index[key] = idx
        return idx

    def add(self, op_index: int, loc) -> None:
        if op_index < 1:
            return
        i = op_index - 1
        while len(self.indices) <= i:
            self.indices.append([])
        self.indices[i].append(self.get(loc))

    def get(self, attr) -> int:
        if attr is None or isinstance(attr, (FileLineColLoc, UnknownLoc)):
            return 0
        idx = self.attr_index.get(attr)
        if idx is not None:
            return idx
        if isinstance(attr, DICompileUnitAttr):
            self.get(attr.file)
        elif isinstance(attr, DILexicalBlockAttr):
            self.get(attr.scope)
            self.get(attr.file)
        elif isinstance(attr, DILoc):
            self.get(attr.scope)
        elif isinstance(attr, DISubprogramAttr):
            self.get(attr.file)
            self.get(attr.compile_unit)
        elif isinstance(attr, CallSiteLoc):
            self.get(attr.callee)
            self.get(attr.caller)
        elif isinstance(attr, FusedLoc):
            for sub in attr.locations:
                self.get(sub)
        elif isinstance(attr, NameLoc):
            self.get(attr.child)
        idx = len(self.attrs) + 1
        self.attr_index[attr] = idx
        self.attrs.append(attr)
        return idx

    def validate(self, op: Operation, loc) -> None:
        if loc is None or isinstance(loc, (DILoc, FileLineColLoc, UnknownLoc)):
            return
        if isinstance(loc, CallSiteLoc):
            self.validate(op, loc.caller)
            self.validate(op, loc.callee)
            return
        raise _err(f"unsupported location, got {_loc_kind(loc)}, expected DILocAttr or "
                   f"CallSiteLoc", op.loc)

    def _serialize(self, attr, out: bytearray) -> None:
        s = self.strings
        if isinstance(attr, DICompileUnitAttr):
            out.append(1)
            put_varint(out, self.get(attr.file))
        elif isinstance(attr, DIFileAttr):
            out.append(2)
            put_varint(out, s(attr.name))
            put_varint(out, s(attr.directory))
        elif isinstance(attr, DILexicalBlockAttr):
            out.append(3)
            put_varint(out, self.get(attr.scope))
            put_varint(out, self.get(attr.file))
            put_varint(out, _u32(attr.line, "line"))
            put_varint(out, _u32(attr.column or 0, "column"))
        elif isinstance(attr, DILoc):
            out.append(4)
            put_varint(out, self.get(attr.scope))
            put_varint(out, s(attr.source.file))
            put_varint(out, _u32(attr.source.line, "line"))
            put_varint(out, _u32(attr.source.col, "column"))
        elif isinstance(attr, DISubprogramAttr):
            out.append(5)
            put_varint(out, self.get(attr.file))
            put_varint(out, _u32(attr.line, "line"))
            put_varint(out, s(attr.name))
            put_varint(out, s(attr.linkage_name))
            put_varint(out, self.get(attr.compile_unit))
            put_varint(out, _u32(attr.scope_line or 0, "scope line"))
        elif isinstance(attr, CallSiteLoc):
            out.append(6)
            put_varint(out, self.get(attr.callee))
            put_varint(out, self.get(attr.caller))
        else:
            raise _err("failed to serialize debug info attribute")

    def section(self) -> Optional[bytes]:
        if not self.indices and not self.attrs:
            return None
        out = bytearray()
        put_varint(out, len(self.indices))
        pad_to(out, 4)
        offset = 0
        for lst in self.indices:
            out += struct.pack("<I", offset)
            offset += len(lst)
        put_varint(out, offset)
        pad_to(out, 8)
        for lst in self.indices:
            if lst:
                out += struct.pack(f"<{len(lst)}Q", *lst)
        put_varint(out, len(self.attrs))
        pad_to(out, 4)
        table_at = len(out)
        out += bytes(4 * len(self.attrs))
        data = bytearray()
        offsets = []
        for attr in self.attrs:
            offsets.append(len(data))
            self._serialize(attr, data)
        if offsets:
            out[table_at:table_at + 4 * len(offsets)] = struct.pack(f"<{len(offsets)}I", *offsets)
        out += data
        return bytes(out)


class _Writer:
    def __init__(self, version: Version) -> None:
        self.version = version
        self.types = TypeWriter(version)
        self.string_index: dict = {}
        self.string_list: list[bytes] = []
        self.const_index: dict = {}
        self.const_list: list[bytes] = []
        self.const_by_id: dict = {}
        self.di = _DebugInfo(self.string)
        self.max_opcode = max_opcode(version)
        self.vmap: dict = {}
        self.next_value = 0
        self.func_loc_index = 0
        self.encoders: dict = {}
        #: op name -> the attributes its encoding holds
        self.carried: dict = {}

    # -- tables ---------------------------------------------------------------------------------

    def string(self, s: Union[str, bytes]) -> int:
        i = self.string_index.get(s)
        if i is not None:
            return i
        raw = s if isinstance(s, bytes) else s.encode("utf-8", "surrogateescape")
        i = self.string_index.get(raw)
        if i is None:
            i = len(self.string_list)
            self.string_list.append(raw)
            self.string_index[raw] = i
        self.string_index[s] = i
        return i

    def type_index(self, t) -> int:
        i = self.types.index.get(t)
        if i is not None:
            return i
        try:
            return self.types.get(t)
        except TypeVersionError as exc:
            raise _err(str(exc)) from None

    def constant(self, attr: DenseElementsAttr) -> int:
        hit = self.const_by_id.get(id(attr))
        if hit is not None and hit[0] is attr:
            return hit[1]
        typ = attr.type
        if not isinstance(typ, TileType) or not isinstance(typ.element, (IntegerType, FloatType)):
            # (the readers take a dense constant only as an integer or float tile)
            raise _err(f"a dense constant of type {typ} cannot be written as bytecode: it must "
                       "be a tile of integers or floats")
        raw = dense_to_raw(attr)
        key = (attr.type, raw)
        i = self.const_index.get(key)
        if i is None:
            entry = bytearray()
            put_varint(entry, len(raw))
            entry += raw
            i = len(self.const_list)
            self.const_list.append(bytes(entry))
            self.const_index[key] = i
        self.const_by_id[id(attr)] = (attr, i)
        return i

    # -- attributes -----------------------------------------------------------------------------

    def put_tagged(self, out: bytearray, attr, op: Operation, name: str) -> None:
        """A self-contained attribute: tag + payload (cuda-tile's writeSelfContainedAttribute)."""
        if isinstance(attr, TypeAttr):
            out.append(4)
            put_varint(out, self.type_index(attr.value))
        elif isinstance(attr, StringAttr):
            out.append(5)
            put_varint(out, self.string(attr.value))
        elif isinstance(attr, IntegerAttr):
            if not isinstance(attr.type, IntegerType):
                raise _err(f"unsupported attribute type encountered during serialization of "
                           f"attribute '{name}': {attr}", op.loc)
            out.append(1)
            put_varint(out, self.type_index(attr.type))
            put_varint(out, attr.value & ((1 << attr.type.width) - 1))
        elif isinstance(attr, FloatAttr):
            if not isinstance(attr.type, FloatType):
                raise _err(f"unsupported attribute type encountered during serialization of "
                           f"attribute '{name}': {attr}", op.loc)
            out.append(2)
            put_varint(out, self.type_index(attr.type))
            self.put_apfloat(out, attr.value, attr.type)
        elif isinstance(attr, DenseElementsAttr):
            out.append(7)
            put_varint(out, self.type_index(attr.type))
            put_varint(out, self.constant(attr))
        elif isinstance(attr, (DivByAttr, SameElementsAttr, BoundedAttr)):
            self.put_predicate(out, attr)
        elif isinstance(attr, ArrayAttr):
            out.append(6)
            put_varint(out, len(attr.value))
            for item in attr.value:
                if not isinstance(item, (IntegerAttr, FloatAttr, DenseElementsAttr, StringAttr)):
                    # (the readers reject any other element)
                    raise _err(f"attribute '{name}' cannot be written as bytecode: an array "
                               f"element must be a typed attribute, not {item.generic()}",
                               op.loc)
                self.put_tagged(out, item, op, "arrayElement")
        elif isinstance(attr, DictionaryAttr):
            out.append(10)
            self.put_dict(out, attr.entries, op)
        elif isinstance(attr, OptimizationHintsAttr):
            out.append(11)
            self.put_dict(out, attr.entries, op)
        else:
            raise _err(f"unsupported attribute type encountered during serialization of "
                       f"attribute '{name}': {attr}", op.loc)

    def put_dict(self, out: bytearray, entries, op: Operation) -> None:
        items = sorted(entries, key=lambda kv: kv[0].encode("utf-8", "surrogateescape"))
        put_varint(out, len(items))
        for key, value in items:
            put_varint(out, self.string(key))
            self.put_tagged(out, value, op, key)

    def put_apfloat(self, out: bytearray, value: float, ftype: FloatType) -> None:
        bits = float_to_bits(value, ftype)
        if FLOAT_BITS[ftype.name] <= 8:
            out.append(bits & 0xFF)
        else:
            put_varint(out, zigzag(bits))

    @staticmethod
    def put_predicate(out: bytearray, attr) -> None:
        if isinstance(attr, DivByAttr):
            out.append(8)
            put_varint(out, attr.divisor & MASK64)
            out.append((attr.every is not None) | ((attr.along is not None) << 1))
            if attr.every is not None:
                put_svarint(out, attr.every)
            if attr.along is not None:
                put_svarint(out, attr.along)
        elif isinstance(attr, SameElementsAttr):
            out.append(9)
            put_le_array(out, list(attr.values), 8)
        else:
            out.append(12)
            out.append((attr.lb is not None) | ((attr.ub is not None) << 1))
            if attr.lb is not None:
                put_svarint(out, attr.lb)
            if attr.ub is not None:
                put_svarint(out, attr.ub)

    def put_inline(self, out: bytearray, kind: str, value, op: Operation, info) -> None:
        """An op attribute in its non-self-contained form."""
        if kind == "enum":
            if not isinstance(value, TileEnum):
                raise _unsupported(info, value, op)
            since = enum_member_since(value)
            if since is not None and self.version < since:
                self.too_new_enum(op, value)
            put_varint(out, int(value))
        elif kind == "i64" or kind == "i32":
            if not isinstance(value, IntegerAttr):
                raise _unsupported(info, value, op)
            bits = 64 if kind == "i64" else 32
            if not -(1 << (bits - 1)) <= value.value < 1 << bits:
                # (masking it would silently write another value)
                raise _err(f"'{op.name}' op cannot be written as bytecode: its '{info.name}' "
                           f"value {value.value} does not fit in {bits} bits", op.loc)
            put_varint(out, value.value & (MASK64 if kind == "i64" else 0xFFFFFFFF))
        elif kind == "bool":
            if not (isinstance(value, bool) or
                    (isinstance(value, IntegerAttr) and value.type is I1)):
                raise _unsupported(info, value, op)
            out.append(1 if (value.value if isinstance(value, IntegerAttr) else value) else 0)
        elif kind == "str":
            if not isinstance(value, (StringAttr, str)):
                raise _unsupported(info, value, op)
            put_varint(out, self.string(value.value if isinstance(value, StringAttr) else value))
        elif kind == "flat_symbol" or kind == "symbol":
            if isinstance(value, SymbolRefAttr) and not value.nested:
                value = value.root
            elif isinstance(value, StringAttr):
                value = value.value
            if not isinstance(value, str):
                raise _unsupported(info, value, op)
            put_varint(out, self.string(value))
        elif kind == "dense":
            if not isinstance(value, DenseElementsAttr):
                raise _unsupported(info, value, op)
            result_type = op.results[0].type if op.results else None
            if value.type != result_type:
                # (the format stores the raw data only; readers type it by the first result)
                raise _err(f"'{op.name}' op cannot be written as bytecode: its '{info.name}' of "
                           f"type {value.type} is not of its result type {result_type}", op.loc)
            put_varint(out, self.constant(value))
        elif kind == "type" or kind == "function_type":
            if isinstance(value, Attribute) and not isinstance(value, TypeAttr):
                raise _unsupported(info, value, op)
            put_varint(out, self.type_index(value.value if isinstance(value, TypeAttr) else value))
        elif kind == "array_i32" or kind == "array_i64":
            if isinstance(value, Attribute) and not (isinstance(value, DenseArrayAttr) and
                                                     value.element == kind[-3:]):
                raise _unsupported(info, value, op)
            vals = value.value if isinstance(value, DenseArrayAttr) else tuple(value)
            bits = 32 if kind == "array_i32" else 64
            bad = [v for v in vals if not -(1 << (bits - 1)) <= v < 1 << (bits - 1)]
            if bad:
                raise _err(f"'{op.name}' op cannot be written as bytecode: its '{info.name}' "
                           f"element {bad[0]} does not fit in i{bits}", op.loc)
            put_le_array(out, list(vals), bits // 8)
        elif kind == "array_bool":
            if isinstance(value, Attribute) and not (isinstance(value, DenseArrayAttr) and
                                                     value.element == "i1"):
                raise _unsupported(info, value, op)
            vals = value.value if isinstance(value, DenseArrayAttr) else tuple(value)
            put_varint(out, len(vals))
            out += bytes(1 if v else 0 for v in vals)
        elif kind == "hints":
            if not isinstance(value, OptimizationHintsAttr):
                raise _unsupported(info, value, op)
            self.put_dict(out, value.entries, op)
        elif kind == "predicate":
            if not isinstance(value, (DivByAttr, SameElementsAttr, BoundedAttr)):
                raise _unsupported(info, value, op)
            self.put_predicate(out, value)
        elif kind == "array":
            items = value.value if isinstance(value, ArrayAttr) else tuple(value)
            if not all(isinstance(item, ARRAY_ELEMENT_ATTRS) for item in items):
                raise _unsupported(info, value, op)
            put_varint(out, len(items))
            for item in items:
                self.put_tagged(out, item, op, "arrayElement")
        else:
            raise _unsupported(info, value, op)

    # -- operations -----------------------------------------------------------------------------

    def write_op(self, op: Operation, out: bytearray) -> None:
        enc = self.encoders.get(op.name)
        if enc is None:
            enc = self._encoder(op)
        if op.attributes:
            _check_carried(op, self.carried[op.name])
        loc = op.loc
        if loc.__class__ not in _PLAIN_LOCS:
            self.di.validate(op, loc)
        if self.func_loc_index:
            self.di.add(self.func_loc_index, loc)
        elif loc.__class__ is not UnknownLoc and loc.__class__ is not FileLineColLoc and \
                di_loc_of(loc) is not None:
            # bytecode keeps op locations only under a function that has debug info
            raise _err(f"'{op.name}' op has debug info but its function has none, which "
                       "bytecode cannot hold", loc)
        try:
            enc(self, op, out)
        except KeyError:
            raise _err("operand is not defined in an enclosing scope of the function being "
                       "written", op.loc) from None

    def _encoder(self, op: Operation):
        codec = codec_for_name(op.name)
        if codec is None:
            raise _err("operation not supported in bytecode (missing from BytecodeOpcodes.td)",
                       op.loc)
        if codec.opcode > self.max_opcode:
            raise _err(f"operation '{op.name}' is not available in bytecode version "
                       f"{self.version}", op.loc)
        key = (op.name, self.version.key)
        enc = _ENCODERS.get(key)
        if enc is None:
            enc = make_encoder(codec, self.version)
            _ENCODERS[key] = enc
        self.encoders[op.name] = enc
        self.carried[op.name] = _carried(op, (a.name for a in codec.attrs))
        return enc

    # Helpers called by the generated encoders (rare paths).

    def kept_results(self, op: Operation, plan) -> list:
        results = op.results
        for i, name, since in plan.old_results:
            if i < len(results) and results[i].uses:
                raise _err(f"result '{name}' requires bytecode version {since} but is being "
                           f"used and targeting {self.version}. Cannot serialize to older "
                           f"bytecode version when newer features are used.", op.loc)
            if i < len(results) and results[i].type != TOKEN:
                # a reader of this version gives the result its default type: a token
                raise _err(f"result '{name}' is not stored in bytecode version {self.version} "
                           f"and reads back as a token, not {results[i].type}", op.loc)
        return [results[i] for i in plan.result_mask if i < len(results)]

    @staticmethod
    def bad_arity(op: Operation, what: str) -> None:
        raise _err(f"'{op.name}' op has an unexpected number of {what} for its definition",
                   op.loc)

    @staticmethod
    def operand_sizes(op: Operation, spec) -> list:
        segs = op.segments
        if segs is not None and len(segs) == len(spec.operands) and \
                sum(segs) == len(op.operands):
            return list(segs)
        sizes = spec.operand_sizes(op)
        if sum(sizes) != len(op.operands):
            raise _err(f"'{op.name}' op operand segments do not match its operands", op.loc)
        return sizes

    def too_new(self, op: Operation, what: str, name: str, since) -> None:
        raise _err(f"{what} '{name}' is provided but requires bytecode version {since}, "
                   f"targeting {self.version}", op.loc)

    def too_new_enum(self, op: Operation, member) -> None:
        raise _err(f"'{member.keyword}' ({type(member).__name__}) requires bytecode version "
                   f"{enum_member_since(member)}+, but targeting {self.version}", op.loc)

    def too_new_required(self, op: Operation, info) -> None:
        raise _err(f"attribute '{info.name}' requires bytecode version {info.since}+, but "
                   f"targeting {self.version}", op.loc)

    @staticmethod
    def is_default(info, value) -> bool:
        return _is_default(info, value)

    @staticmethod
    def default_value(op: Operation, info):
        if info.default is not None:
            return info.default
        if info.kind == "array_bool":
            return (False,) * len(op.operand_group("index"))
        raise _err(f"missing required attribute '{info.name}'", op.loc)

    def write_block(self, block, out: bytearray) -> None:
        if not block.ops or block.ops[-1].name not in TERMINATORS:
            region = block.parent
            owner = getattr(region, "parent", None) if region is not None else None
            what = (f"the last operation '{block.ops[-1].name}' is not a terminator"
                    if block.ops else "it is empty")
            raise _err(f"a block of '{getattr(owner, 'name', '?')}' has no terminator ({what}): "
                       "bytecode requires one", getattr(owner, "loc", None) or UNKNOWN_LOC)
        saved = self.next_value
        vmap = self.vmap
        put_varint(out, len(block.args))
        n = saved
        for arg in block.args:
            put_varint(out, self.type_index(arg.type))
            vmap[arg] = n
            n += 1
        self.next_value = n
        put_varint(out, len(block.ops))
        write_op = self.write_op
        for op in block.ops:
            write_op(op, out)
        # The block's values go out of scope: their indices are reused by later values (the
        # stale map entries are never looked up for valid IR).
        self.next_value = saved

    # -- module ---------------------------------------------------------------------------------

    def write(self, module: Operation) -> bytes:
        version = self.version
        body = module.regions[0].blocks[0].ops if module.regions and module.regions[0].blocks \
            else []
        if module.results or module.operands or len(module.regions) != 1 or \
                len(module.regions[0].blocks) > 1:
            # the format has just a module body: anything else would read back different
            raise _err("'cuda_tile.module' op cannot be written as bytecode: it must have one "
                       "region of at most one block, and no operands or results", module.loc)
        _check_self_contained(module, body)
        _check_carried(module, _carried(module, _MODULE_ATTRS))
        _symbol_name(module)        # (the reader names every module it reads)
        out = bytearray(MAGIC)
        out += bytes((version.major, version.minor)) + struct.pack("<H", version.tag)
        # Function metadata (names, signatures, locations) first, like buildFunctionMap.
        funcs = []
        for op in body:
            if op.name == "cuda_tile.global":
                continue
            name = _symbol_name(op)
            _check_carried(op, _carried(op, _ENTRY_ATTRS))
            if op.name != "cuda_tile.entry":
                # the format has a flag for it, but readers (NVIDIA's and ours) reject it
                raise _err(f"'{op.name}' op @{name} cannot be written as bytecode: a bytecode "
                           "module holds only entry functions ('cuda_tile.entry')", op.loc)
            ftype = op.attributes.get("function_type")
            ftype = ftype.value if isinstance(ftype, TypeAttr) else ftype
            if not isinstance(ftype, FunctionType):
                raise _err("function op without a function type", op.loc)
            blocks = op.regions[0].blocks if len(op.regions) == 1 else None
            if not blocks or [a.type for a in blocks[0].args] != list(ftype.inputs):
                # (the format stores the signature; the reader makes the entry block from it)
                raise _err(f"'{op.name}' op @{name} cannot be written as bytecode: its body's "
                           "entry block arguments must be those of its function type", op.loc)
            for list_name, count in (("arg_attrs", len(ftype.inputs)), ("res_attrs", None)):
                dicts = op.attributes.get(list_name)
                # (the reader gives one empty dictionary per argument, and no res_attrs)
                if dicts is not None and (count is None or len(dicts) != count or
                                          any(getattr(d, "entries", True) for d in dicts)):
                    raise _err(f"'{op.name}' op @{name}: {list_name} cannot be written as "
                               "bytecode (the format has no argument or result attributes)",
                               op.loc)
            name_i = self.string(name)
            sig_i = self.type_index(ftype)
            loc_i = self.di.function_index(op)
            if loc_i:
                self.di.add(loc_i, op.loc)
            funcs.append((op, name_i, sig_i, loc_i))
        # Global section.
        globals_ = [op for op in body if op.name == "cuda_tile.global"]
        if globals_:
            sec = bytearray()
            put_varint(sec, len(globals_))
            for g in globals_:
                self.write_global(g, sec)
            _section(out, SEC_GLOBAL, sec, 1)
        # Function section.
        sec = bytearray()
        put_varint(sec, len(funcs))
        for op, name_i, sig_i, loc_i in funcs:
            put_varint(sec, name_i)
            put_varint(sec, sig_i)
            is_entry = op.name == "cuda_tile.entry"
            hints = op.attributes.get("optimization_hints") if is_entry else None
            if isinstance(hints, OptimizationHintsAttr) and not hints.entries:
                hints = None  # empty hints are no hints
            flags = (0x02 | (0x04 if hints is not None else 0)) if is_entry else 0
            sec.append(flags)
            put_varint(sec, loc_i)
            if hints is not None:
                self.put_tagged(sec, hints, op, "optimization_hints")
            fbody = bytearray()
            self.func_loc_index = loc_i
            self.vmap = {}
            block = op.regions[0].blocks[0] if op.regions and op.regions[0].blocks else None
            n = 0
            if block is not None:
                for arg in block.args:
                    self.vmap[arg] = n
                    n += 1
                self.next_value = n
                write_op = self.write_op
                for child in block.ops:
                    write_op(child, fbody)
            put_varint(sec, len(fbody))
            sec += fbody
        pad_to(sec, 8)
        _section(out, SEC_FUNC, sec, 8)
        # Constant section.
        if self.const_list:
            sec = bytearray()
            put_varint(sec, len(self.const_list))
            pad_to(sec, 8)
            offset = 0
            for entry in self.const_list:
                sec += struct.pack("<Q", offset)
                offset += len(entry)
            for entry in self.const_list:
                sec += entry
            _section(out, SEC_CONST, sec, 8 if len(self.const_list) else 1)
        # Debug section.
        dbg = self.di.section()
        if dbg is not None:
            _section(out, SEC_DEBUG, dbg, 8)
        # Type section.
        sec = bytearray()
        entries = self.types.entries
        put_varint(sec, len(entries))
        pad_to(sec, 4)
        offset = 0
        offs = []
        for e in entries:
            offs.append(offset)
            offset += len(e)
        if offs:
            sec += struct.pack(f"<{len(offs)}I", *offs)
        sec += b"".join(entries)
        _section(out, SEC_TYPE, sec, 4)
        # Producer section (13.3+).
        producer = module.attributes.get("producer")
        if producer is not None and version >= V13_3:
            sec = bytearray()
            put_varint(sec, self.string(producer.value if isinstance(producer, StringAttr)
                                        else str(producer)))
            _section(out, SEC_PRODUCER, sec, 1)
        # String section.
        sec = bytearray()
        put_varint(sec, len(self.string_list))
        pad_to(sec, 4)
        offset = 0
        offs = []
        for s in self.string_list:
            offs.append(offset)
            offset += len(s)
        if offs:
            sec += struct.pack(f"<{len(offs)}I", *offs)
        sec += b"".join(self.string_list)
        _section(out, SEC_STRING, sec, 4)
        out.append(SEC_END)
        return bytes(out)

    def write_global(self, g: Operation, sec: bytearray) -> None:
        version = self.version
        attrs = g.attributes
        _check_carried(g, _carried(g, _GLOBAL_ATTRS))
        name = _symbol_name(g)
        vis = attrs.get("symbol_visibility", SymbolVisibility.PUBLIC)
        constant = "constant" in attrs
        if version < V13_3:
            if vis is not None and int(vis) != 0:
                raise _err(f"global `{name}` uses non-public symbol visibility, which cannot be "
                           f"encoded in bytecode version {version} (requires bytecode 13.3+)",
                           g.loc)
            if constant:
                raise _err(f"constant global `{name}` cannot be encoded in bytecode version "
                           f"{version} (the `constant` attribute requires bytecode 13.3+)", g.loc)
        value = attrs.get("value")
        if not isinstance(value, DenseElementsAttr):
            raise _err(f"global `{name}` has no dense value", g.loc)
        put_varint(sec, self.string(name))
        put_varint(sec, self.type_index(value.type))
        put_varint(sec, self.constant(value))
        align = attrs.get("alignment")
        put_varint(sec, (align.value if isinstance(align, IntegerAttr) else int(align or 0))
                   & MASK64)
        if version >= V13_3:
            put_varint(sec, int(vis) if vis is not None else 0)
            put_varint(sec, 1 if constant else 0)


#: the attributes a function entry and a global carry in bytecode
def _symbol_name(op: Operation) -> str:
    """The ``sym_name`` of a module, function or global about to be written: the format has a
    name for each and the reader gives one to each, so an op without one is refused."""
    name = op.attributes.get("sym_name")
    if not isinstance(name, StringAttr):
        raise _err(f"'{op.name}' op without a name (sym_name) cannot be written as bytecode",
                   op.loc)
    return name.value


_ENTRY_ATTRS = frozenset(("sym_name", "function_type", "arg_attrs", "res_attrs",
                          "optimization_hints"))
_GLOBAL_ATTRS = frozenset(("sym_name", "symbol_visibility", "constant", "value", "alignment"))
#: a module's name is not stored (the reader names it @kernels); its producer is, from 13.3
_MODULE_ATTRS = frozenset(("sym_name", "producer"))


def di_loc_of(loc):
    from ..dialects.cuda_tile.verify_util import di_loc_of as _di_loc_of
    return _di_loc_of(loc)


def _u32(value: int, what: str) -> int:
    """A debug info line or column: unsigned 32-bit (what the reader accepts)."""
    if not 0 <= value < (1 << 32):
        raise _err(f"debug info {what} {value} does not fit 32 bits")
    return value


def _unsupported(info, value, op: Operation) -> BytecodeWriteError:
    """The error for an attribute value that an op's encoding cannot hold in its slot."""
    return _err(f"unsupported attribute type encountered during serialization of attribute "
                f"'{info.name}': {value}", op.loc)


def _carried(op: Operation, names) -> dict:
    """The attributes an op's bytecode encoding holds: name -> a predicate of the declared
    kind (None where the op declares no such attribute)."""
    spec = op.SPEC
    out = {}
    for name in names:
        decl = spec.attr_by_name.get(name) if spec is not None else None
        out[name] = attribute_kind_checker(decl) if decl is not None else None
    return out


def _check_carried(op: Operation, carried: dict) -> None:
    """Refuse an op with attributes its bytecode encoding does not hold (they would be lost),
    or holding one of its own attributes of another kind than declared (the encoding stores
    the declared kind only: it would read back as something else)."""
    for name, value in op.attributes.items():
        if name not in carried:
            raise _err(f"'{op.name}' op attribute '{name}' cannot be written as bytecode (the "
                       "encoding of the op holds only its own attributes)", op.loc)
        is_kind = carried[name]
        if is_kind is not None and not is_kind(value):
            error = check_attribute_kind(op.SPEC.attr_by_name[name], value, constraints=False)
            raise _err(f"'{op.name}' op {error}: cannot be written as bytecode", op.loc)


def _is_default(info, value) -> bool:
    if info.kind == "array_bool":
        vals = value.value if isinstance(value, DenseArrayAttr) else tuple(value)
        return not any(vals)
    d = info.default
    if d is None:
        return False
    return value == d


_PLAIN_LOCS = (DILoc, FileLineColLoc, UnknownLoc)
#: Generated encoders by (op name, version key), shared by all writers.
_ENCODERS: dict = {}


def _section(out: bytearray, sec_id: int, payload: bytes, alignment: int) -> None:
    out.append(sec_id | (0x80 if alignment > 1 else 0))
    put_varint(out, len(payload))
    if alignment > 1:
        put_varint(out, alignment)
        pad_to(out, alignment)
    out += payload


def _is_pure(op: Operation) -> bool:
    spec = op.SPEC
    if spec is None:
        return False
    return any(getattr(t, "name", None) == "Pure" for t in spec.traits)


def _check_self_contained(module: Operation, body) -> None:
    """cuda-tile's verifySelfContainedModuleAndOperationInvariants."""
    for op in body:
        if op.name == "cuda_tile.global":
            continue
        spec = op.SPEC
        is_func = spec is not None and any(getattr(t, "name", None) == "FunctionLike"
                                           for t in spec.traits)
        if not is_func and op.name not in ("cuda_tile.entry", "cuda_tile.testing$func"):
            raise _Fail(Diagnostic(REMARK, f"invalid op: {op.name}", op.loc),
                        Diagnostic(ERROR, "'cuda_tile.module' op only function and global ops "
                                   "are allowed in the body", module.loc))
    # Iterative walk: (ops, enclosing reduce/scan op or None).
    stack = [(body, None)]
    pure_cache: dict = {}
    while stack:
        ops, agg = stack.pop()
        for op in ops:
            name = op.name
            if not name.startswith("cuda_tile."):
                raise _Fail(Diagnostic(REMARK, f"invalid op: {name}", op.loc),
                            Diagnostic(ERROR, "'cuda_tile.module' op only ops from the "
                                       "'cuda_tile' dialect are allowed", module.loc))
            if agg is not None:
                pure = pure_cache.get(name)
                if pure is None:
                    pure = pure_cache[name] = _is_pure(op)
                if not pure:
                    p = op.parent_op
                    raise _Fail(Diagnostic(REMARK, f"invalid op: {name}", op.loc),
                                Diagnostic(ERROR, f"'{p.name}' op only pure operations allowed",
                                           p.loc))
            if op.regions:
                inner = op if name in ("cuda_tile.reduce", "cuda_tile.scan") else agg
                for region in op.regions:
                    for block in region.blocks:
                        stack.append((block.ops, inner))


def write_bytecode(module: Operation, version: Union[str, Version] = DEFAULT_VERSION) -> bytes:
    """Encode ``module`` (a ``cuda_tile.module``, or a builtin module holding exactly one) as
    CUDA Tile IR bytecode of ``version`` ("13.1" ... "13.4").

    Raises :class:`BytecodeWriteError` (a :class:`~tileir.DiagnosticError`) when the module uses
    something the version cannot encode, with cuda-tile's messages."""
    try:
        v = parse_version(version)
    except ValueError:
        raise BytecodeWriteError([Diagnostic(
            ERROR, f"Invalid argument '{version}': the supported versions are "
                   f"{version_range_text()}")]) from None
    known = lookup_version(v.major, v.minor, v.tag)
    if known is None:
        raise BytecodeWriteError([Diagnostic(
            ERROR, f"Invalid argument '{version}': the supported versions are "
                   f"{version_range_text()}")])
    target = find_cuda_tile_module(module)
    writer = _Writer(known)
    try:
        return writer.write(target)
    except _Fail as fail:
        raise BytecodeWriteError(fail.diags) from None
