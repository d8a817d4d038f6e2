"""The bytecode reader (``tileir.read_bytecode``).

Mirrors cuda-tile's ``BytecodeReader.cpp``: the header and every section header are checked, the
sections are parsed in dependency order (string, producer, type, constant, global, function,
debug), globals are created first, then one ``entry`` per function.  The module is named
``@kernels`` (the name is not stored in bytecode).

Robustness: every count and length is checked against the bytes left before anything is
allocated, every index is bounds-checked, recursion (types, debug info, nested attributes) is
depth-limited, and any failure is a :class:`BytecodeError` naming the absolute byte offset.
"""

from __future__ import annotations

import gc
from typing import Optional

from ..dialects.cuda_tile.attributes import (ArrayAttr, BoundedAttr, DenseArrayAttr,
                                             DenseElementsAttr, DICompileUnitAttr, DIFileAttr,
                                             DILexicalBlockAttr, DISubprogramAttr, DictionaryAttr,
                                             DivByAttr, FloatAttr, IntegerAttr,
                                             OptimizationHintsAttr, SameElementsAttr, StringAttr,
                                             SymbolRefAttr, SymbolVisibility, TypeAttr, UNIT)
from ..ir.core import Block, BlockArgument, Operation, OpResult, Region
from ..ir.locations import UNKNOWN_LOC, CallSiteLoc, FileLineColLoc, Location
from ..dialects.cuda_tile.attributes import DILoc
from ..dialects.cuda_tile.types import (I1, I32, I64, TOKEN, FloatType, FunctionType, IntegerType,
                                        TileType)
from ._dense import FLOAT_BITS, DenseBudget, bits_to_float, raw_to_dense
from ._codegen import make_decoder
from ._ops import ARRAY_ELEMENT_ATTRS, NOT_OPS, TERMINATORS, codec_for_opcode
from ._prims import MAGIC, MASK64, Cursor, to_signed, unzigzag
from ._types import TypeReader
from ..ir.limits import MAX_REGION_DEPTH
from .errors import BytecodeError
from .versions import (V13_3, Version, lookup_version, max_opcode, version_range_text)

__all__ = ["read_bytecode", "is_bytecode"]

SEC_END, SEC_STRING, SEC_FUNC, SEC_DEBUG, SEC_CONST, SEC_TYPE, SEC_GLOBAL, SEC_PRODUCER = range(8)
NUM_SECTIONS = 8
UINT32_LIMIT = 0xFFFFFFFF - 1
#: deeper than anything the text parser accepts (its count includes the module regions)
MAX_NESTING = MAX_REGION_DEPTH + 2

_new = object.__new__
_OP_SLOTS_OK = set(getattr(Operation, "__slots__", ())) == {
    "name", "operands", "results", "attributes", "regions", "parent", "loc", "segments",
    "__weakref__"}
_RESULT_SLOTS_OK = set(OpResult.__slots__) == {"owner", "index"} and \
    set(getattr(OpResult.__mro__[1], "__slots__", ())) == {"type", "uses"}


def is_bytecode(data) -> bool:
    """True if ``data`` starts with the Tile IR bytecode magic ``\\x7fTileIR\\0``."""
    return bytes(data[:8]) == MAGIC


class _Strings:
    __slots__ = ("data", "offsets", "cache", "base")

    def __init__(self, data: bytes, offsets: list, base: int) -> None:
        self.data = data
        self.offsets = offsets
        self.cache: list = [None] * len(offsets)
        self.base = base

    def get(self, index: int, where: Optional[int]) -> str:
        if index >= len(self.offsets):
            raise BytecodeError(f"string index {index} out of bounds", where)
        s = self.cache[index]
        if s is not None:
            return s
        start = self.offsets[index]
        end = self.offsets[index + 1] if index + 1 < len(self.offsets) else len(self.data)
        if start > end or end > len(self.data):
            raise BytecodeError(f"invalid string table offsets for string {index} "
                                f"([{start}, {end}) in {len(self.data)} bytes)", where)
        s = self.data[start:end].decode("utf-8", "surrogateescape")
        self.cache[index] = s
        return s


class _DebugInfo:
    """The debug section: per-function iterators over location indices and a lazily decoded
    table of debug attributes."""

    def __init__(self, reader: "_Reader") -> None:
        self.reader = reader
        self.index_offsets: list = []
        self.indices: list = []
        self.data = b""
        self.base = 0
        self.offsets: list = []
        self.cache: list = []
        self.active: set = set()

    def setup(self, index_offsets, indices, data, base, offsets) -> None:
        self.index_offsets = index_offsets
        self.indices = indices
        self.data = data
        self.base = base
        self.offsets = offsets
        self.cache = [None] * len(offsets)

    def location(self, di_index: int, where: Optional[int], depth: int = 0):
        """Debug attribute ``di_index`` (0 = unknown location)."""
        if di_index == 0:
            return UNKNOWN_LOC
        i = di_index - 1
        if i >= len(self.cache):
            return None
        hit = self.cache[i]
        if hit is not None:
            return hit
        if i in self.active or depth > MAX_NESTING:
            raise BytecodeError(f"debug info attribute {di_index} refers to itself or nests too "
                                f"deeply", where)
        start = self.offsets[i]
        end = self.offsets[i + 1] if i + 1 < len(self.offsets) else len(self.data)
        if end < start or end > len(self.data):
            return None
        self.active.add(i)
        try:
            attr = self._parse(Cursor(self.data, self.base, start, end), depth)
        finally:
            self.active.discard(i)
        self.cache[i] = attr
        return attr

    def _ref(self, c: Cursor, depth: int, kinds, what: str, owner: str):
        pos = c.pos
        idx = c.varint(what)
        attr = self.location(idx, c.base + pos, depth + 1)
        if attr is None or not isinstance(attr, kinds):
            raise c.error(f"failed to read {what} attribute when parsing {owner}", pos)
        return attr

    def _parse(self, c: Cursor, depth: int):
        tag = c.varint("debug info tag")
        strings = self.reader.strings
        if tag == 1:
            f = self._ref(c, depth, DIFileAttr, "file", "DICompileUnitAttr")
            return DICompileUnitAttr(f)
        if tag == 2:
            p = c.pos
            name = strings.get(c.varint("file name"), c.base + p)
            p = c.pos
            directory = strings.get(c.varint("directory"), c.base + p)
            return DIFileAttr(name, directory)
        if tag == 3:
            scope = self._ref(c, depth, (DISubprogramAttr, DILexicalBlockAttr), "scope",
                              "DILexicalBlockAttr")
            f = self._ref(c, depth, DIFileAttr, "file", "DILexicalBlockAttr")
            line = c.varint32("line number")
            col = c.varint32("column number")
            return DILexicalBlockAttr(scope, f, line, col or None)
        if tag == 4:
            scope = self._ref(c, depth, (DISubprogramAttr, DILexicalBlockAttr), "scope",
                              "DILocAttr")
            p = c.pos
            filename = strings.get(c.varint("file name"), c.base + p)
            line = c.varint32("line number")
            col = c.varint32("column number")
            return DILoc(FileLineColLoc(filename, line, col), scope)
        if tag == 5:
            f = self._ref(c, depth, DIFileAttr, "file", "DISubprogramAttr")
            line = c.varint32("line number")
            p = c.pos
            name = strings.get(c.varint("name"), c.base + p)
            p = c.pos
            linkage = strings.get(c.varint("linkage name"), c.base + p)
            cu = self._ref(c, depth, DICompileUnitAttr, "compile unit", "DISubprogramAttr")
            scope_line = c.varint32("scope line number")
            return DISubprogramAttr(f, line, name, linkage, cu, scope_line or None)
        if tag == 6:
            callee = self._ref(c, depth, Location, "callee", "CallSiteLoc")
            caller = self._ref(c, depth, Location, "caller", "CallSiteLoc")
            return CallSiteLoc(callee, caller)
        return UNKNOWN_LOC


class _DIIterator:
    """cuda-tile's DebugInfoReader::Iterator: the function's location, then one per op."""

    __slots__ = ("di", "func_index", "offset", "k")

    def __init__(self, di: _DebugInfo, func_index: int) -> None:
        self.di = di
        self.func_index = func_index
        self.k = 0
        self.offset = 0
        if func_index:
            i = func_index - 1
            self.offset = di.index_offsets[i] if i < len(di.index_offsets) else None

    def next(self, where: Optional[int]):
        if not self.func_index:
            return UNKNOWN_LOC
        di = self.di
        if self.offset is None:
            return None
        j = self.offset + self.k
        if j >= len(di.indices):
            return None
        self.k += 1
        attr = di.location(di.indices[j], where)
        if attr is None or not isinstance(attr, Location):
            return None
        return attr


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.version: Version = Version(0, 0)
        self.strings = _Strings(b"", [], 0)
        self.types: Optional[TypeReader] = None
        self.const_data = b""
        self.const_base = 0
        self.const_ranges: list = []
        self.const_cache: dict = {}
        self.budget = DenseBudget(len(data))
        self.di = _DebugInfo(self)
        self.producer: Optional[str] = None
        self.decoders: dict = {}
        self.scalar_cache: dict = {}

    # -- header and sections --------------------------------------------------------------------

    def read(self) -> Operation:
        data = self.data
        c = Cursor(data)
        if not data:
            raise BytecodeError("the input is empty, not Tile IR bytecode (which starts with the "
                                "bytes 7F 'TileIR' 00)", 0)
        for i, expected in enumerate(MAGIC):
            got = data[i] if i < len(data) else 0
            c.pos = min(i + 1, len(data))
            if got != expected:
                raise BytecodeError(f"invalid magic number at position {i}, got {got} expected "
                                    f"{expected}" + (": this is not Tile IR bytecode (which starts "
                                                     "with the bytes 7F 'TileIR' 00)"
                                                     if i == 0 else ""), c.pos)
        if len(data) < 12:
            raise BytecodeError("failed to parse bytecode header", len(data))
        major, minor = data[8], data[9]
        tag = data[10] | (data[11] << 8)
        version = lookup_version(major, minor, tag)
        if version is None or version < Version(13, 1):
            raise BytecodeError(f"unsupported Tile version {major}.{minor}.{tag}, this reader "
                                f"supports versions {version_range_text()}", 12)
        self.version = version
        c.pos = 12
        payloads: dict = {}
        while True:
            if c.remaining() < 1:
                raise c.error("unexpected end of data while reading section header")
            byte = c.byte()
            sec_id = byte & 0x7F
            aligned = bool(byte & 0x80)
            if sec_id == SEC_END:
                if aligned:
                    raise c.error("end section should not have alignment flag set")
                if c.remaining() != 0:
                    raise c.error("end section is not the last section")
                break
            if sec_id >= NUM_SECTIONS:
                raise c.error(f"unknown section ID: {sec_id}")
            try:
                length = c.varint("section length")
            except BytecodeError:
                raise c.error("failed to read section length") from None
            if length > c.remaining():
                raise c.error(f"section length {length} exceeds remaining data size "
                              f"{c.remaining()}")
            alignment = 1
            if aligned:
                alignment = c.varint("section alignment")
                if alignment == 0 or alignment & (alignment - 1):
                    raise c.error(f"invalid alignment value: {alignment}")
                c.skip_padding(alignment, "section alignment padding")
            required = {SEC_STRING: 4, SEC_TYPE: 4, SEC_CONST: 8, SEC_DEBUG: 8,
                        SEC_FUNC: 8}.get(sec_id)
            if required is not None and (not aligned or alignment % required):
                detail = (f"has alignment of {alignment}" if aligned
                          else "has no alignment flag set")
                raise c.error(f"section {sec_id} must have alignment that is a multiple of "
                              f"{required} bytes, but {detail}")
            if length > c.remaining():
                raise c.error(f"section length {length} exceeds remaining bytecode data. "
                              f"{c.remaining()}")
            start = c.pos
            c.pos += length
            payloads[sec_id] = (start, length)
        if SEC_STRING not in payloads:
            raise BytecodeError("string section is mandatory", len(data))
        self._string_section(*payloads[SEC_STRING])
        if SEC_PRODUCER in payloads:
            self._producer_section(*payloads[SEC_PRODUCER])
        if SEC_TYPE in payloads:
            self._type_section(*payloads[SEC_TYPE])
        else:
            self.types = TypeReader(b"", 0, [], version)
        if SEC_CONST in payloads:
            self._constant_section(*payloads[SEC_CONST])
        globals_ = self._global_section(*payloads[SEC_GLOBAL]) if SEC_GLOBAL in payloads else []
        if SEC_FUNC not in payloads:
            raise BytecodeError("function section is mandatory", len(data))
        funcs = self._function_section(*payloads[SEC_FUNC])
        if SEC_DEBUG in payloads:
            self._debug_section(*payloads[SEC_DEBUG])
        return self._build_module(globals_, funcs)

    def _cursor(self, start: int, length: int) -> Cursor:
        return Cursor(self.data[start:start + length], base=start)

    @staticmethod
    def _check_count(c: Cursor, n: int, what: str, min_size: int) -> None:
        """``n`` entries of at least ``min_size`` bytes each must fit in what is left."""
        room = (c.end - c.pos) // min_size
        if n > room:
            raise c.error(f"number of {what} ({n}) exceeds the maximum of {room} that can fit "
                          f"in the remaining payload of {c.end - c.pos} bytes.")

    def _offset_table(self, c: Cursor, what: str) -> list:
        """The ``count`` + 4-byte aligned u32 offset table heading the string and type sections
        (empty for a zero count)."""
        n = c.varint(f"number of {what}s")
        if n == 0:
            return []
        self._check_count(c, n, f"{what}s", 4)
        c.skip_padding(4, f"{what} offset table padding")
        return c.u32_table(n, f"{what} offsets")

    def _string_section(self, start: int, length: int) -> None:
        c = self._cursor(start, length)
        offsets = self._offset_table(c, "string")
        if offsets:
            self.strings = _Strings(c.data[c.pos:], offsets, c.offset)

    def _producer_section(self, start: int, length: int) -> None:
        c = self._cursor(start, length)
        pos = c.pos
        idx = c.varint("producer string index")
        self.producer = self.strings.get(idx, c.base + pos)

    def _type_section(self, start: int, length: int) -> None:
        c = self._cursor(start, length)
        offsets = self._offset_table(c, "type")
        self.types = TypeReader(c.data[c.pos:] if offsets else b"", c.offset, offsets,
                                self.version)

    def _constant_section(self, start: int, length: int) -> None:
        c = self._cursor(start, length)
        p = c.pos
        n = c.varint("number of constants")
        if n > UINT32_LIMIT:
            raise c.error(f"varint value exceeds maximum supported capacity. (expected value "
                          f"less than {UINT32_LIMIT}, got {n}).", p)
        if n == 0:
            return
        c.skip_padding(8, "constant offset table padding")
        if (c.end - c.pos) // 8 < n:
            raise c.error("insufficient data for constant indices")
        offsets = c.u64_table(n, "constant offsets")
        data = c.data[c.pos:]
        ranges = []
        for i, s in enumerate(offsets):
            e = offsets[i + 1] if i + 1 < n else len(data)
            if e < s:
                raise c.error(f"invalid constant start indices: end ({e}) is less than start "
                              f"({s}) for constant {i}")
            if e > len(data):
                raise c.error(f"constant {i} extends beyond available data: size={e - s}, "
                              f"start={s}, total data size={len(data)}")
            ranges.append((s, e))
        self.const_data = data
        self.const_base = c.offset
        self.const_ranges = ranges

    def constant(self, index: int, typ, where: Optional[int]) -> DenseElementsAttr:
        if index >= len(self.const_ranges):
            raise BytecodeError(f"constant index {index} out of bounds", where)
        key = (index, typ)
        hit = self.const_cache.get(key)
        if hit is not None:
            return hit
        s, e = self.const_ranges[index]
        cur = Cursor(self.const_data, self.const_base, s, e)
        if not isinstance(typ, TileType) or not isinstance(typ.element, (IntegerType, FloatType)):
            raise cur.error(f"expect Cuda Tile integer or float type but got: {typ}")
        size = cur.varint("constant size")
        raw = cur.take(size, "constant data")
        attr = raw_to_dense(typ, raw, self.budget)
        if attr is None:
            raise cur.error("failed to validate buffer size and format")
        self.const_cache[key] = attr
        return attr

    def _global_section(self, start: int, length: int) -> list:
        c = self._cursor(start, length)
        n = c.varint("number of globals")
        per = 6 if self.version >= V13_3 else 4
        self._check_count(c, n, "globals", per)
        out = []
        for _ in range(n):
            at = c.offset
            name = c.varint("global symbol name")
            typ = c.varint("global value type")
            const = c.varint("global value constant index")
            align = c.varint("global alignment")
            vis = c.varint("global symbol visibility") if per == 6 else 0
            constant = c.varint("global constant flag") if per == 6 else 0
            out.append((at, name, typ, const, align, vis, constant))
        return out

    def _function_section(self, start: int, length: int) -> list:
        c = self._cursor(start, length)
        n = c.varint("number of functions")
        if n > length:
            raise c.error(f"number of functions ({n}) exceeds payload size ({length})")
        out = []
        for _ in range(n):
            at = c.offset
            name = c.varint("function name index")
            sig = c.varint("function signature index")
            flags = c.byte("function flags")
            loc = c.varint("function location index")
            hints = None
            if (flags & 0x02) and (flags & 0x04):
                hints_at = c.offset
                hints = self.tagged(c, 0)
                if not isinstance(hints, OptimizationHintsAttr):
                    hints = (hints_at, hints)
            body_len = c.varint("function body length")
            if body_len > c.remaining():
                raise c.error(f"function body length {body_len} exceeds remaining bytecode data "
                              f"({c.remaining()} bytes)")
            body_at = c.offset
            body = c.take(body_len, "function body")
            out.append((at, name, sig, flags, loc, hints, body, body_at))
        return out

    def _debug_section(self, start: int, length: int) -> None:
        c = self._cursor(start, length)
        n_ops = c.varint("number of operations with debug info")
        c.skip_padding(4, "debug info index offset padding")
        index_offsets = c.u32_table(n_ops, "debug info index offsets")
        n_idx = c.varint("number of debug info indices")
        c.skip_padding(8, "debug info index padding")
        indices = c.u64_table(n_idx, "debug info indices")
        n_attr = c.varint("number of debug info attributes")
        self._check_count(c, n_attr, "debug info attributes", 4)
        c.skip_padding(4, "debug info offset padding")
        offsets = c.u32_table(n_attr, "debug info offsets")
        self.di.setup(index_offsets, indices, c.data[c.pos:], c.offset, offsets)

    # -- attributes -----------------------------------------------------------------------------

    def string_at(self, c: Cursor, what: str) -> str:
        p = c.pos
        return self.strings.get(c.varint(what), c.base + p)

    def type_at(self, c: Cursor, what: str = "type"):
        p = c.pos
        idx = c.varint(what)
        return self.types.get(idx, Cursor(c.data, c.base, p, c.end))

    @staticmethod
    def float_bits(c: Cursor, ftype: FloatType) -> int:
        """The bit pattern of a float value: one byte for formats of at most 8 bits, else a
        zigzag varint; it must fit in the format's width."""
        width = FLOAT_BITS[ftype.name]
        p = c.pos
        bits = c.byte("float value") if width <= 8 else unzigzag(c.varint("float value"))
        if bits >> width:
            raise c.error(f"value {bits} does not fit in {width} bits", p)
        return bits

    def tagged(self, c: Cursor, depth: int):
        """A self-contained attribute (tag + payload)."""
        if depth > MAX_NESTING:
            raise c.error("attributes nest too deeply")
        start = c.pos
        tag = c.varint("attribute tag")
        if tag == 1:
            t = self.type_at(c, "integer attribute type")
            if not isinstance(t, IntegerType):
                raise c.error("failed to read valid IntegerType for IntegerAttr", start)
            w = t.width
            if w == 1:
                return IntegerAttr(1 if c.byte("bool value") else 0, I1)
            p = c.pos
            v = c.varint("integer value")
            if v >> w:
                raise c.error(f"value {v} does not fit in {w} bits", p)
            return IntegerAttr(to_signed(v, w), t)
        if tag == 2:
            t = self.type_at(c, "float attribute type")
            if not isinstance(t, FloatType):
                raise c.error("failed to read valid FloatType for FloatAttr", start)
            key = (t, self.float_bits(c, t))
            hit = self.scalar_cache.get(key)
            if hit is None:
                hit = self.scalar_cache[key] = FloatAttr(bits_to_float(key[1], t), t)
            return hit
        if tag == 3:
            return IntegerAttr(1 if c.byte("bool value") else 0, I1)
        if tag == 4:
            return TypeAttr(self.type_at(c))
        if tag == 5:
            return StringAttr(self.string_at(c, "string attribute"))
        if tag == 6:
            return self.array(c, depth)
        if tag == 7:
            t = self.type_at(c, "dense elements type")
            if not isinstance(t, TileType):
                raise c.error("failed to read valid MLIR Type for self-contained "
                              "DenseElementsAttr", start)
            p = c.pos
            return self.constant(c.varint("constant index"), t, c.base + p)
        if tag == 8:
            return self.div_by(c)
        if tag == 9:
            return SameElementsAttr(tuple(self.int_array(c, 8, "same_elements values")))
        if tag == 10:
            return DictionaryAttr(self.dict_entries(c, depth))
        if tag == 11:
            return self.hints(c, depth)
        if tag == 12:
            return self.bounded(c)
        raise c.error(f"unsupported AttributeTag {tag} for self-contained attribute", start)

    def array(self, c: Cursor, depth: int) -> ArrayAttr:
        n = c.varint_max(c.remaining(), "ArrayAttr size")
        items = []
        for i in range(n):
            p = c.pos
            item = self.tagged(c, depth + 1)
            if not isinstance(item, ARRAY_ELEMENT_ATTRS):
                raise c.error("ArrayAttr contains non-TypedAttr elements or is null", p)
            items.append(item)
        items = tuple(items)
        hit = self.scalar_cache.get(items)
        if hit is None:
            hit = self.scalar_cache[items] = ArrayAttr(items)
        return hit

    def dict_entries(self, c: Cursor, depth: int) -> tuple:
        n = c.varint_max(c.remaining(), "DictionaryAttr size")
        entries = []
        seen = set()
        for i in range(n):
            p = c.pos
            key = self.string_at(c, "DictionaryAttr key")
            if not key:
                raise c.error(f"invalid empty attribute name for DictionaryAttr element {i}", p)
            value = self.tagged(c, depth + 1)
            if key in seen:
                raise c.error(f"failed to parse DictionaryAttr, duplicate key found: {key}", p)
            seen.add(key)
            entries.append((key, value))
        entries.sort(key=lambda kv: kv[0].encode("utf-8", "surrogateescape"))
        return tuple(entries)

    def hints(self, c: Cursor, depth: int) -> OptimizationHintsAttr:
        start = c.pos
        entries = self.dict_entries(c, depth)
        for key, value in entries:
            if not isinstance(value, DictionaryAttr):
                raise c.error(f"expected dictionary attribute for optimization_hints entry "
                              f"`{key}` got value={value}", start)
        return OptimizationHintsAttr(entries)

    def div_by(self, c: Cursor) -> DivByAttr:
        divisor = c.varint("DivByAttr divisor")
        at = c.pos
        flags = c.byte("DivByAttr flags")
        if (flags & 3) in (1, 2):
            # (the text form has no spelling for one without the other; NVIDIA's verifier
            # rejects such an attribute after reading)
            raise c.error("DivByAttr: 'every'/'along' must be used in combination", at)
        every = c.svarint("DivByAttr every") if flags & 1 else None
        along = c.svarint("DivByAttr along") if flags & 2 else None
        return DivByAttr(divisor, every, along)

    def bounded(self, c: Cursor) -> BoundedAttr:
        flags = c.byte("BoundedAttr flags")
        lb = c.svarint("BoundedAttr lower bound") if flags & 1 else None
        ub = c.svarint("BoundedAttr upper bound") if flags & 2 else None
        return BoundedAttr(lb, ub)

    @staticmethod
    def int_array(c: Cursor, width: int, what: str) -> list:
        """A dense array of ``width``-byte integers; the type's extreme values (which cuda-tile
        reserves) are errors."""
        p = c.pos
        vals = c.le_array(width, what)
        hi = (1 << (8 * width - 1)) - 1
        for v in vals:
            if v == hi or v == -hi - 1:
                raise c.error(f"array contains unsupported value {v}", p)
        return vals

    # -- module ---------------------------------------------------------------------------------

    def _build_module(self, globals_: list, funcs: list) -> Operation:
        from ..ir.opdef import make_op
        attrs = {"sym_name": StringAttr("kernels")}
        if self.producer is not None:
            attrs["producer"] = StringAttr(self.producer)
        module = make_op("cuda_tile.module", (), (), attrs, 1, UNKNOWN_LOC)
        if not globals_ and not funcs:
            return module      # an empty body: no block, as the text `{}` parses
        body = module.regions[0].add_block()
        for g in globals_:
            body.append(self._make_global(*g))
        for f in funcs:
            body.append(self._make_function(*f))
        return module

    def _make_global(self, at, name_i, type_i, const_i, align, vis, constant) -> Operation:
        from ..ir.opdef import make_op
        if const_i >= len(self.const_ranges):
            raise BytecodeError("global value constant index out of bounds", at)
        name = self.strings.get(name_i, at)
        if not name:
            raise BytecodeError(f"global symbol name at index {name_i} is empty", at)
        if type_i >= self.types.size:
            raise BytecodeError(f"global value type index {type_i} out of bounds (the type table "
                                f"has {self.types.size} entries)", at)
        typ = self.types.get(type_i)
        value = self.constant(const_i, typ, at)
        try:
            visibility = SymbolVisibility(vis)
        except ValueError:
            raise BytecodeError(f"invalid symbol visibility value: {vis}", at) from None
        attrs = {"symbol_visibility": visibility, "sym_name": StringAttr(name), "value": value,
                 "alignment": IntegerAttr(to_signed(align & MASK64, 64), I64)}
        if constant:
            attrs["constant"] = UNIT
        return make_op("cuda_tile.global", (), (), attrs, 0, UNKNOWN_LOC)

    def _make_function(self, at, name_i, sig_i, flags, loc_i, hints, body, body_at) -> Operation:
        from ..ir.opdef import make_op
        name = self.strings.get(name_i, at)
        if not name:
            raise BytecodeError(f"function name at index {name_i} is empty", at)
        if sig_i >= self.types.size:
            raise BytecodeError(f"function signature index {sig_i} out of bounds for function "
                                f"'{name}'", at)
        ftype = self.types.get(sig_i)
        if not isinstance(ftype, FunctionType):
            raise BytecodeError(f"function signature index {sig_i} does not refer to a function "
                                f"type for function '{name}', got type: {ftype}", at)
        it = _DIIterator(self.di, loc_i)
        loc = it.next(at)
        if loc is None:
            raise BytecodeError(f"failed to read function location for '{name}'", at)
        if not flags & 0x02:
            raise BytecodeError(f"un-expected non-entry function '{name}'", at)
        if isinstance(hints, tuple):
            raise BytecodeError(f"invalid optimization hints attribute for function '{name}'",
                                hints[0])
        attrs = {"sym_name": StringAttr(name), "function_type": TypeAttr(ftype),
                 "arg_attrs": ArrayAttr(tuple(DictionaryAttr(()) for _ in ftype.inputs))}
        if hints is not None and getattr(hints, "entries", True):
            attrs["optimization_hints"] = hints  # (empty hints are no hints)
        func = make_op("cuda_tile.entry", (), (), attrs, 1, loc)
        block = func.regions[0].add_block(ftype.inputs)
        values = list(block.args)
        _Body(self, body, body_at, it).parse_into(block, values)
        return func


class _Body:
    """Decodes the instructions of one function body."""

    __slots__ = ("r", "data", "base", "pos", "it", "version", "types", "max_opcode", "op_start",
                 "depth", "tcache", "decoders", "no_di")

    def __init__(self, reader: _Reader, data: bytes, base: int, it: _DIIterator) -> None:
        self.r = reader
        self.data = data
        self.base = base
        self.pos = 0
        self.it = it
        self.version = reader.version
        self.types = reader.types
        self.max_opcode = max_opcode(reader.version)
        self.op_start = 0
        self.depth = 0
        self.tcache = reader.types.cache
        self.decoders = reader.decoders
        self.no_di = not it.func_index

    def error(self, reason: str, pos: Optional[int] = None) -> BytecodeError:
        return BytecodeError(reason, self.base + (self.pos if pos is None else pos))

    def cursor(self) -> Cursor:
        return Cursor(self.data, self.base, self.pos)

    def varint(self) -> int:
        data = self.data
        pos = self.pos
        b = data[pos]
        if b < 0x80:
            self.pos = pos + 1
            return b
        result = 0
        shift = 0
        while True:
            if shift > 63:
                raise self.error("malformed varint: longer than 10 bytes", pos)
            b = data[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        self.pos = pos
        return result & MASK64

    def type(self):
        idx = self.varint()
        cache = self.tcache
        if idx < len(cache):
            t = cache[idx]
            if t is not None:
                return t
        c = Cursor(self.data, self.base, self.pos - 1)
        return self.types.get(idx, c)

    def parse_into(self, block: Block, values: list) -> None:
        """Decode instructions until the body is used up (the function's entry block)."""
        end = len(self.data)
        try:
            # every instruction takes at least its opcode byte: ``end - pos`` bounds the count
            self._read_ops(block, values, end - self.pos, end)
        except IndexError:
            raise BytecodeError("unexpected end of function body while reading an operation",
                                self.base + min(self.op_start, end)) from None

    def _read_ops(self, block: Block, values: list, count: int, stop: int) -> None:
        """Decode up to ``count`` instructions into ``block``, stopping early once the position
        reaches ``stop`` (a truncated body raises ``IndexError``)."""
        data = self.data
        ops = block.ops
        decoders = self.decoders
        no_di = self.no_di
        for _ in range(count):
            start = self.pos
            if start >= stop:
                break
            self.op_start = start
            opcode = data[start]
            if opcode < 0x80:
                self.pos = start + 1
            else:
                opcode = self.varint()
            dec = decoders.get(opcode)
            if dec is None:
                dec = self._decoder(opcode, start)
            if no_di:
                ops.append(dec(self, block, values, start, UNKNOWN_LOC))
                continue
            loc = self.it.next(self.base + start)
            if loc is None:
                raise self.error("failed to read operation location.", start)
            ops.append(dec(self, block, values, start, loc))

    # -- one instruction ------------------------------------------------------------------------

    def _decoder(self, opcode: int, start: int):
        if opcode > self.max_opcode:
            raise self.error(f"unsupported opcode {opcode} for bytecode version {self.version}",
                             start)
        codec = codec_for_opcode(opcode)
        if codec is None or codec.name in NOT_OPS:
            # cuda-tile reads the location before dispatching on the opcode.
            if self.it.next(self.base + start) is None:
                raise self.error("failed to read operation location.", start)
            raise self.error(f"unknown or unimplemented opcode: {opcode}", start)
        key = (opcode, self.version.key)
        dec = _DECODERS.get(key)
        if dec is None:
            dec = make_decoder(codec, self.version)
            _DECODERS[key] = dec
        self.decoders[opcode] = dec
        return dec

    # Helpers called by the generated decoders (rare paths).

    def fail(self, reason: str, pos: int) -> None:
        raise self.error(reason, pos)

    def type_at(self, index: int, pos: int):
        return self.types.get(index, Cursor(self.data, self.base, pos - 1))

    def bad_operand(self, index: int, size: int, pos: int) -> None:
        raise self.error(f"operand index {index} out of bounds (size={size})", pos)

    def bad_enum(self, raw: int, pos: int) -> None:
        raise self.error(f"invalid integer value for enum type: {raw & 0xFFFFFFFF}", pos)

    def full_result_types(self, codec, rtypes: list) -> list:
        """Result types of an op read from an older file: results newer than the file get
        their default type (a token) and are not numbered."""
        version = self.version
        it = iter(rtypes)
        return [next(it, TOKEN) if since <= version else TOKEN
                for _, since, _ in codec.results]

    def attr(self, info, rtypes):
        kind = info.kind
        if kind == "enum":
            p = self.pos
            raw = self.varint()
            try:
                return info.enum(raw)
            except ValueError:
                raise self.error(f"invalid integer value for enum type: {raw & 0xFFFFFFFF}",
                                 p) from None
        if kind == "i64" or kind == "i32":
            p = self.pos
            v = self.varint()
            cache = self.r.scalar_cache
            key = (kind, v)
            hit = cache.get(key)
            if hit is not None:
                return hit
            if kind == "i32":
                if v >> 32:
                    raise self.error(f"value {v} does not fit in 32 bits", p)
                attr = IntegerAttr(to_signed(v, 32), I32)
            else:
                attr = IntegerAttr(to_signed(v, 64), I64)
            cache[key] = attr
            return attr
        if kind == "bool":
            b = self.data[self.pos]
            self.pos += 1
            return IntegerAttr(1 if b else 0, I1)
        if kind == "str":
            p = self.pos
            return StringAttr(self.r.strings.get(self.varint(), self.base + p))
        if kind == "flat_symbol" or kind == "symbol":
            p = self.pos
            s = self.r.strings.get(self.varint(), self.base + p)
            if not s:
                raise self.error("empty symbol reference is invalid", p)
            return SymbolRefAttr(s) if kind == "flat_symbol" else StringAttr(s)
        if kind == "dense":
            p = self.pos
            idx = self.varint()
            typ = rtypes[0] if rtypes else None
            return self.r.constant(idx, typ, self.base + p)
        if kind in ("type", "function_type"):
            return TypeAttr(self.type())
        if kind == "array_i32" or kind == "array_i64":
            c = self.cursor()
            vals = self.r.int_array(c, 4 if kind == "array_i32" else 8, info.name)
            self.pos = c.pos
            return DenseArrayAttr("i32" if kind == "array_i32" else "i64", tuple(vals))
        if kind == "array_bool":
            c = self.cursor()
            n = c.varint_max(c.remaining(), info.name)
            raw = c.take(n, info.name)
            self.pos = c.pos
            vals = tuple(bool(b) for b in raw)
            return DenseArrayAttr("i1", vals) if any(vals) else None
        if kind == "predicate":
            fast = self.predicate()
            if fast is not None:
                return fast
        c = self.cursor()
        if kind == "hints":
            value = self.r.hints(c, 0)
            if not value.entries:
                value = None  # (empty hints are no hints, as for functions)
        elif kind == "predicate":
            p = c.pos
            value = self.r.tagged(c, 0)
            if not isinstance(value, (DivByAttr, SameElementsAttr, BoundedAttr)):
                raise c.error("failed to cast parsed attribute to AssumePredicateAttrInterface",
                              p)
        elif kind == "array":
            value = self.r.array(c, 0)
        else:
            raise self.error(f"attribute deserialization not implemented for attribute "
                             f"'{info.name}'")
        self.pos = c.pos
        return value

    def predicate(self):
        """Fast path for div_by / bounded predicates (by far the most common attribute in
        cuTile's output); None to fall back to the generic decoder."""
        data = self.data
        pos = self.pos
        tag = data[pos]
        if tag != 8 and tag != 12:
            return None
        end = pos + 1
        # Find the payload's extent: [divisor varint] flags byte, then up to two varints.
        if tag == 8:
            while data[end] >= 0x80:
                end += 1
            end += 1
        flags = data[end]
        end += 1
        for bit in (1, 2):
            if flags & bit:
                while data[end] >= 0x80:
                    end += 1
                end += 1
        key = data[pos:end]
        cache = self.r.scalar_cache
        hit = cache.get(key)
        if hit is None:
            c = self.cursor()
            hit = self.r.tagged(c, 0)
            if c.pos != end:
                return None
            cache[key] = hit
        self.pos = end
        return hit

    def region(self, values: list) -> Region:
        data = self.data
        p = self.pos
        nblocks = self.varint()
        if nblocks > len(data) - self.pos:
            raise self.error("failed to read region block count", p)
        region = _new_region()
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error("regions nest too deeply", p)
        blocks = region.blocks
        for _ in range(nblocks):
            block = _new_block(region)
            blocks.append(block)
            self.block(block, values)
        self.depth -= 1
        return region

    def block(self, block: Block, values: list) -> None:
        saved = len(values)
        data = self.data
        p = self.pos
        nargs = self.varint()
        if nargs > len(data) - self.pos:
            raise self.error("failed to read block argument count.", p)
        if nargs:
            args = block.args
            tcache = self.tcache
            for i in range(nargs):
                x = self.varint()
                t = tcache[x] if x < len(tcache) else None
                if t is None:
                    t = self.type_at(x, self.pos)
                arg = BlockArgument(t, block, i)
                args.append(arg)
                values.append(arg)
        p = self.pos
        nops = self.varint()
        if nops > len(data) - self.pos:
            raise self.error("failed to read block operation count.", p)
        # a block ends by its count, never by the end of the body (running out is an IndexError)
        self._read_ops(block, values, nops, len(data) + 1)
        ops = block.ops
        if not ops:
            raise self.error("invalid block structure: block is expected to have a terminator "
                             "operation, but it is empty")
        last = ops[-1]
        if last.name not in TERMINATORS:
            raise self.error(f"invalid block structure: block is expected to have a terminator "
                             f"operation, but the last operation '{last.name}' is not a "
                             f"terminator.")
        del values[saved:]


_REGION_SLOTS_OK = set(Region.__slots__) == {"blocks", "parent", "__weakref__"}
_BLOCK_SLOTS_OK = set(Block.__slots__) == {"args", "ops", "parent", "__weakref__"}


def _new_region() -> Region:
    if not _REGION_SLOTS_OK:
        return Region()
    r = _new(Region)
    r.blocks = []
    r.parent = None
    return r


def _new_block(region: Region) -> Block:
    if not _BLOCK_SLOTS_OK:
        return Block((), region)
    b = _new(Block)
    b.args = []
    b.ops = []
    b.parent = region
    return b


#: Generated decoders by (opcode, version key), shared by all readers.
_DECODERS: dict = {}


def read_bytecode(data, *, verify: bool = False) -> Operation:
    """Decode CUDA Tile IR bytecode into a ``cuda_tile.module @kernels`` op.

    ``data`` is ``bytes``-like.  Any malformed or unsupported input raises
    :class:`BytecodeError` (offset and reason).  With ``verify=True`` the module is also verified
    (as NVIDIA's reader does) and a :class:`~tileir.DiagnosticError` is raised if it is invalid.
    """
    if isinstance(data, str):
        raise TypeError("read_bytecode expects bytes, not str")
    try:
        raw = bytes(data)
    except TypeError:
        raise TypeError(f"read_bytecode expects bytes, got {type(data).__name__}") from None
    enabled = gc.isenabled()
    if enabled:
        gc.disable()
    try:
        module = _Reader(raw).read()
    except BytecodeError:
        raise
    except RecursionError:
        raise BytecodeError("malformed bytecode: structures nest too deeply") from None
    except MemoryError:
        raise BytecodeError("malformed bytecode: it describes more data than can be "
                            "allocated") from None
    except Exception as exc:  # noqa: BLE001 - the reader promises BytecodeError only
        raise BytecodeError(f"malformed bytecode (internal: {type(exc).__name__}: {exc})") \
            from exc
    finally:
        if enabled:
            gc.enable()
    if verify:
        from ..ir.verify import verify as _verify
        _verify(module)
    return module
