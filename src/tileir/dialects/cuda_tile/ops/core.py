"""§8 Core operations: module, global, constant, shape manipulation, reduce/scan, tile blocks."""

from __future__ import annotations

import numpy as np

from ..attributes import DenseElementsAttr, SymbolVisibility, i64_attr
from ....ir.opdef import Attr, Operand, RegionDef, Result, VARIADIC
from ..types import I1, PointerType
from .base import CudaTileOp
from ..constraints import (AnyTile, I1Tile, I8Tile, IntTile, NumberTile, PackSource, PointerTile,
                           ScalarI32, ScalarPointer, UnpackedTile)
from ....ir.traits import (AllElementTypesMatch, AllRanksMatch, AllShapesMatch, AllTypesMatch,
                           IsolatedFromAbove, NoRegionArguments, Pure,
                           SameOperandsAndResultElementType, SameOperandsAndResultShape,
                           SameOperandsShape, SingleBlock, SingleBlockImplicitTerminator,
                           SingleBlockNoTerminator, Symbol, SymbolTable, InferResultTypes,
                           ParentOneOf, RecursiveMemoryEffects, HasOnlyGraphRegion)
from ....ir.diagnostics import Diagnostic, ERROR, WARNING
from ..types import BF16, F16, F4E2M1FN, I32, TF32, TileType
from ....ir.verify import nearest_symbol_table, symbol_lookup
from ..verify_util import bitwidth, dims, verify_module_debug_info


class ModuleOp(CudaTileOp):
    """``cuda_tile.module @name { ... }``: the container of entries and globals."""
    __slots__ = ()
    #: implements OpAsmOpInterface in NVIDIA's dialect (matters for ``assume`` names)
    ASM_INTERFACE = True
    MNEMONIC, OPCODE, GROUP = "module", 0x4B, "Core"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("producer", "str", optional=True, since="13.3"))
    REGIONS = (RegionDef("body", "maxsized1"),)
    TRAITS = (IsolatedFromAbove(), NoRegionArguments(), SingleBlockNoTerminator(), SymbolTable,
              HasOnlyGraphRegion)
    FORMAT = "$sym_name attr-dict-with-keyword $body"

    @property
    def sym_name(self) -> str:
        return self.attributes["sym_name"].value

    def verify_op(self):
        return verify_module_debug_info(self)



class GlobalOp(CudaTileOp):
    """``global [private] [constant] @name [alignment = N] <T: ...> : tile<...>``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "global", 0x31, "Core"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("value", "dense"),
                  Attr("alignment", "i64", default=i64_attr(0)),
                  Attr("constant", "unit", since="13.3"),
                  Attr("symbol_visibility", SymbolVisibility, default=SymbolVisibility.PUBLIC,
                       since="13.3"))
    # §8 "global operations must be directly nested within the Tile IR module" (cuda-tile's ODS
    # does not enforce it; the message is MLIR's HasParent wording)
    TRAITS = (Symbol, ParentOneOf("cuda_tile.module"))
    FORMAT = ("custom<SymbolVisibility>($symbol_visibility) (`constant` $constant^)? $sym_name "
              "(`alignment` `=` $alignment^)? attr-dict "
              "custom<DenseTypedElementsAttrNoResult>($value)")

    @property
    def sym_name(self) -> str:
        return self.attributes["sym_name"].value

    def verify_op(self):
        value = self.attributes.get("value")
        if getattr(getattr(value, "type", None), "rank", 1) != 1:
            return "type must have rank 1"
        return None



class GetGlobalOp(CudaTileOp):
    """Pointer to a global."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "get_global", 0x2C, "Core"
    ATTRIBUTES = (Attr("name", "flat_symbol"),)
    RESULTS = (Result("result", ScalarPointer),)
    TRAITS = (Pure,)
    FORMAT = "$name attr-dict `:` custom<CudaTileType>(type($result))"

    def verify_symbol_uses(self, table):
        name = self.attributes["name"].root
        scope = nearest_symbol_table(self)
        target = symbol_lookup(scope, name) if scope is not None else None
        if target is None or target.name != "cuda_tile.global":
            return f"'{name}' does not reference a valid global"
        gtype = target.attributes["value"].type.element
        ptr = self.results[0].type.element
        if gtype != ptr.pointee:
            return (f"pointee type of result type '{ptr}' does not match type '{gtype}' of the "
                    f"global @{name}")
        return None



class ConstantOp(CudaTileOp):
    """``constant <T: values> : tile<...>``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "constant", 0x10, "Core"
    ATTRIBUTES = (Attr("value", "dense"),)
    RESULTS = (Result("result", NumberTile),)
    TRAITS = (Pure,)
    FORMAT = "custom<DenseTypedElementsAttr>($value, type($result)) attr-dict"

    def asm_result_names(self):
        attr = self.attributes.get("value")
        if not isinstance(attr, DenseElementsAttr):
            return None
        return [constant_name(attr)]

    def verify_op(self):
        value = self.attributes.get("value")
        if getattr(value, "type", None) is not self.results[0].type:
            return "failed to verify that all of {value, result} have same type"
        return None



def constant_name(attr: DenseElementsAttr) -> str:
    """NVIDIA's SSA name for a constant: ``true``/``false``/``cst_i1``, ``cst_<v>_<type>`` for
    splats whose value converts exactly to an unsigned 64-bit integer, else ``cst_<type>``."""
    el = attr.type.element
    flat = attr.array.reshape(-1)
    if el is I1:
        if flat.size and flat.all():
            return "true"
        if not flat.any():
            return "false"
        return "cst_i1"
    name = "cst"
    if attr.is_splat or flat.size == 1:
        v = flat[0] if flat.size else 0
        if el.is_integer:
            name += f"_{int(v)}"
        else:
            f = float(v)
            if f != f:
                name += "_NaN"
            elif np.isfinite(f) and f == int(f) and 0 <= f < 2.0 ** 64 and \
                    not (f == 0 and np.signbit(f)):  # -0.0 does not convert exactly
                name += f"_{int(f)}"
    return f"{name}_{el.name}"


class IotaOp(CudaTileOp):
    """``iota : tile<Nxi32>`` = [0, 1, ..., N-1]."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "iota", 0x3A, "Core"
    RESULTS = (Result("result", IntTile),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict `:` custom<CudaTileType>(type($result))"

    def verify_op(self):
        t = self.results[0].type
        if t.rank != 1:
            return "expects result type to be 1-d tile"
        width = t.element.width
        if width < 64 and t.shape[0] > (1 << width):
            return (f"the number of elements {t.shape[0]} exceeds the maximum value of element "
                    f"type '{t.element}'")
        return None



_SHAPE_FMT = ("$source attr-dict `:` custom<CudaTileType>(type($source)) `->` "
              "custom<CudaTileType>(type($result))")


class BroadcastOp(CudaTileOp):
    """Broadcast size-1 dimensions to a larger shape."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "broadcast", 0x0B, "Core"
    OPERANDS = (Operand("source", AnyTile),)
    RESULTS = (Result("result", AnyTile),)
    TRAITS = (Pure, SameOperandsAndResultElementType(), AllRanksMatch("source", "result"))
    FORMAT = _SHAPE_FMT

    def asm_result_names(self):
        return ["bcast"]

    def verify_op(self):
        src, res = self.operands[0].type.shape, self.results[0].type.shape
        for s, r in zip(src, res):
            if s != r and s != 1:
                return ("expects the shape of source tile to be compatible with that of the "
                        f"result tile, but got: {dims(src)} and {dims(res)}")
        return None



class ReshapeOp(CudaTileOp):
    """Reshape (row-major order)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "reshape", 0x5B, "Core"
    OPERANDS = (Operand("source", AnyTile),)
    RESULTS = (Result("result", AnyTile),)
    TRAITS = (Pure, SameOperandsAndResultElementType())
    FORMAT = _SHAPE_FMT

    def asm_result_names(self):
        return ["reshape"]

    def verify_op(self):
        if self.operands[0].type.numel != self.results[0].type.numel:
            return "expected source tile and result tile to have the same number of elements"
        return None



class PermuteOp(CudaTileOp):
    """Permute dimensions."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "permute", 0x53, "Core"
    OPERANDS = (Operand("source", AnyTile),)
    RESULTS = (Result("result", AnyTile),)
    ATTRIBUTES = (Attr("permutation", "array_i32"),)
    TRAITS = (Pure, AllElementTypesMatch("source", "result", message="failed to verify that all "
                                         "of {source, result} have the same element type"),
              AllRanksMatch("source", "result"))
    FORMAT = ("$source $permutation attr-dict `:` custom<CudaTileType>(type($source)) `->` "
              "custom<CudaTileType>(type($result))")

    def verify_op(self):
        src = self.operands[0].type
        rank = src.rank
        perm = self.attributes["permutation"].value
        if rank < 2:
            return f"expects at least rank 2, but got: {rank}"
        if len(perm) != rank:
            return (f"expect permutation size ({len(perm)}) to equal the rank of the source "
                    f"({rank})")
        if len(set(perm)) != len(perm):
            return "expect permutation elements to be unique"
        for i, p in enumerate(perm):
            if p < 0 or p >= rank:
                return f"permutation element at index {i} ({p}) is out of bound [0, {rank})"
        res = self.results[0].type.shape
        for i, p in enumerate(perm):
            if res[i] != src.shape[p]:
                return (f"result shape invalid at index {i}, expected: {src.shape[p]}, but got: "
                        f"{res[i]}")
        return None



class CatOp(CudaTileOp):
    """Concatenate two tiles along ``dim``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "cat", 0x0C, "Core"
    OPERANDS = (Operand("lhs", AnyTile), Operand("rhs", AnyTile))
    RESULTS = (Result("result", AnyTile),)
    ATTRIBUTES = (Attr("dim", "i64"),)
    TRAITS = (Pure, AllRanksMatch("lhs", "rhs", "result"),
              AllElementTypesMatch("lhs", "rhs", "result", message="failed to verify that all of "
                                   "{lhs, rhs, result} have the same element type"))
    FORMAT = ("$lhs `,` $rhs `dim` `=` $dim attr-dict `:` custom<CudaTileType>(type($lhs)) `,` "
              "custom<CudaTileType>(type($rhs)) `->` custom<CudaTileType>(type($result))")

    def verify_op(self):
        dim = self.attributes["dim"].value
        lhs, rhs = self.operands[0].type.shape, self.operands[1].type.shape
        res = self.results[0].type.shape
        rank = len(lhs)
        if dim < 0 or dim >= rank:
            return f"expect dim to be [0, {rank}), but got: {dim}"
        if lhs[dim] + rhs[dim] != res[dim]:
            return (f"invalid concat at position {dim}, expected: {lhs[dim] + rhs[dim]} but got: "
                    f"{res[dim]}")
        for i in range(rank):
            if i == dim:
                continue
            if lhs[i] != rhs[i]:
                return (f"expect lhs and rhs shapes to match at non-concat position {i}, "
                        f"expected: {lhs[i]} but got: {rhs[i]}")
            if lhs[i] != res[i]:
                return (f"expect lhs and result shapes to match at non-concat position {i}, "
                        f"expected: {lhs[i]} but got: {res[i]}")
        return None



def sub_tile_error(whole, whole_name: str, part, part_name: str, n_indices: int):
    """The shape rules ``extract`` and ``insert`` share (cuda-tile's messages): the sub-tile
    ``part`` has the element type and rank of ``whole``, divides it evenly in every dimension,
    and is addressed by one index per dimension."""
    if whole.element != part.element:
        return "source and result element type do not match"
    if whole.rank != part.rank:
        return "source and result must have the same rank"
    for i, (w, p) in enumerate(zip(whole.shape, part.shape)):
        if w % p != 0:
            return (f"{whole_name} dimension {i} size ({w}) must be evenly divisible by "
                    f"{part_name} dimension {i} size ({p})")
    if n_indices != whole.rank:
        return f"expected {whole.rank} indices, but got {n_indices}"
    return None


class ExtractOp(CudaTileOp):
    """Extract the sub-tile at tile-sized ``indices``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "extract", 0x26, "Core"
    OPERANDS = (Operand("source", AnyTile), Operand("indices", ScalarI32, VARIADIC))
    RESULTS = (Result("result", AnyTile),)
    TRAITS = (Pure, AllRanksMatch("source", "result"))
    FORMAT = ("$source `[` $indices `]` attr-dict `:` custom<CudaTileType>(type($source)) `->` "
              "custom<CudaTileType>(type($result))")

    @staticmethod
    def infer_parsed_types(state) -> bool:
        from ..types import I32, TileType
        if state.operands.get("indices") and "indices" not in state.operand_types:
            state.operand_types["indices"] = [TileType((), I32)] * len(state.operands["indices"])
            return True
        return False

    def verify_op(self):
        src, res = self.operands[0].type, self.results[0].type
        indices = self.operands[1:]
        msg = sub_tile_error(src, "source", res, "result", len(indices))
        if msg:
            return msg
        warnings = []
        for i, index in enumerate(indices):
            t = index.type
            if not isinstance(t, TileType):
                return f"index {i} must be a Tile type"
            if t.rank != 0:
                return f"index {i} must be a scalar tile, got rank {t.rank}"
            if t.element is not I32:
                return f"index {i} must have i32 element type"
            producer = getattr(index, "owner", None)
            if getattr(producer, "name", None) == "cuda_tile.constant":
                attr = producer.attributes.get("value")
                if attr is not None and getattr(attr.type, "element", None) is I32 and \
                        attr.is_splat and attr.array.size:
                    v = int(attr.array.reshape(-1)[0])
                    top = src.shape[i] // res.shape[i] - 1
                    if v < 0:
                        warnings.append(Diagnostic(
                            WARNING, f"extract index {i} has negative value {v}, which may "
                            "cause undefined behavior", self.loc))
                    if v > top:
                        warnings.append(Diagnostic(
                            WARNING, f"extract index {i} value {v} may be out of bounds (max "
                            f"valid index: {top})", self.loc))
        return warnings or None



class InsertOp(CudaTileOp):
    """Insert ``source`` into ``destination`` at the tile-sized ``indices`` (the inverse of
    ``extract``; 13.4).  ``insert %src, %dst[%i] : tile<4xi32>, tile<16xi32>``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "insert", 0x76, "Core", "13.4"
    OPERANDS = (Operand("source", AnyTile, since="13.4"),
                Operand("destination", AnyTile, since="13.4"),
                Operand("indices", ScalarI32, VARIADIC, since="13.4"))
    RESULTS = (Result("result", AnyTile, since="13.4"),)
    TRAITS = (Pure, AllTypesMatch("destination", "result"))
    FORMAT = ("$source `,` $destination `[` $indices `]` attr-dict `:` "
              "custom<CudaTileType>(type($source)) `,` custom<CudaTileType>(type($destination))")
    infer_parsed_types = ExtractOp.infer_parsed_types

    def verify_op(self):
        # tileirdisasm 13.4's messages: the result (= destination) is the whole tile
        return sub_tile_error(self.results[0].type, "result", self.operands[0].type, "source",
                              len(self.operands) - 2)


class SelectOp(CudaTileOp):
    """Element-wise ``cond ? a : b``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "select", 0x5F, "Core"
    OPERANDS = (Operand("cond", I1Tile), Operand("val_if_true", AnyTile),
                Operand("val_if_false", AnyTile))
    RESULTS = (Result("result", AnyTile),)
    TRAITS = (Pure, AllTypesMatch("val_if_true", "val_if_false", "result"),
              AllShapesMatch("cond", "val_if_true", "val_if_false", "result"))
    FORMAT = ("$cond `,` $val_if_true `,` $val_if_false attr-dict `:` "
              "custom<CudaTileType>(type($cond)) `,` custom<CudaTileType>(type($result))")

    def verify_op(self):
        if self.results[0].type.element is F4E2M1FN:
            return "cannot operate on sub-byte type F4E2M1FN"
        return None



class OffsetOp(CudaTileOp):
    """Pointer arithmetic: ``ptr + offset * sizeof(pointee)``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "offset", 0x51, "Core"
    OPERANDS = (Operand("ptr", PointerTile), Operand("offset", IntTile))
    RESULTS = (Result("result", PointerTile),)
    TRAITS = (Pure, SameOperandsAndResultShape(), AllTypesMatch("result", "ptr"))
    FORMAT = ("$ptr `,` $offset attr-dict `:` custom<CudaTileType>(type($ptr)) `,` "
              "custom<CudaTileType>(type($offset)) `->` custom<CudaTileType>(type($result))")


class PackOp(CudaTileOp):
    """Reinterpret a 1-D numeric tile as bytes (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "pack", 0x6F, "Core", "13.3"
    OPERANDS = (Operand("source", PackSource, since="13.3"),)
    RESULTS = (Result("result", I8Tile, since="13.3"),)
    TRAITS = (Pure, AllRanksMatch("source", "result"))
    FORMAT = _SHAPE_FMT

    def verify_op(self):
        return _verify_pack_unpack(self)



class UnpackOp(CudaTileOp):
    """Reinterpret a 1-D byte tile as another numeric type (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "unpack", 0x70, "Core", "13.3"
    OPERANDS = (Operand("source", I8Tile, since="13.3"),)
    RESULTS = (Result("result", UnpackedTile, since="13.3"),)
    TRAITS = (Pure, AllRanksMatch("source", "result"))
    FORMAT = _SHAPE_FMT

    def verify_op(self):
        return _verify_pack_unpack(self)



class _GridQuery(CudaTileOp):
    __slots__ = ()
    GROUP = "Core"
    TRAITS = (Pure,)

    @staticmethod
    def infer_parsed_types(state) -> bool:
        names = [r.name for r in state.spec.results]
        first = state.result_types.get(names[0])
        if first and any(n not in state.result_types for n in names[1:]):
            for n in names[1:]:
                state.result_types[n] = list(first)
            return True
        return False


class GetTileBlockIdOp(_GridQuery):
    """The (x, y, z) coordinates of the executing tile block."""
    __slots__ = ()
    MNEMONIC, OPCODE = "get_tile_block_id", 0x30
    RESULTS = (Result("blockId_x", ScalarI32), Result("blockId_y", ScalarI32),
               Result("blockId_z", ScalarI32))
    TRAITS = (Pure,)
    FORMAT = "attr-dict `:` custom<CudaTileType>(type($blockId_x))"


class GetNumTileBlocksOp(_GridQuery):
    """The grid size (x, y, z)."""
    __slots__ = ()
    MNEMONIC, OPCODE = "get_num_tile_blocks", 0x2E
    RESULTS = (Result("gridSize_x", ScalarI32), Result("gridSize_y", ScalarI32),
               Result("gridSize_z", ScalarI32))
    TRAITS = (Pure,)
    FORMAT = "attr-dict `:` custom<CudaTileType>(type($gridSize_x))"


_AGG_REGION = RegionDef("body", "sized1")
_DIM_ATTR = Attr("dim", "i32", summary="32-bit signless integer attribute whose value is "
                 "non-negative", check=lambda a: a.value >= 0)


def _verify_pack_unpack(op):

    def bits(t):
        el = t.element
        width = 1 if el is I1 else (32 if el is TF32 else el.width)
        return width * t.numel
    src, res = op.operands[0].type, op.results[0].type
    if src.rank != 1:
        return "expects source and result to be rank-1 tiles"
    if bitwidth(src.element) == bitwidth(res.element):
        return "expects source and result to have different element type widths"
    sbits, rbits = bits(src), bits(res)
    if sbits % 8:
        return "expects source tile to be byte-aligned"
    if rbits % 8:
        return "expects result tile to be byte-aligned"
    if sbits != rbits:
        return (f"expects source and result to have the same size in bytes, but got source tile "
                f"size {sbits // 8} bytes and result tile size {rbits // 8} bytes")
    return None


def _infer_reduce(op):
    if not op.operands:
        return None
    dim = getattr(op.attributes.get("dim"), "value", 0)
    out = []
    for v in op.operands:
        t = v.type
        out.append(TileType([d for i, d in enumerate(t.shape) if i != dim], t.element))
    return out


def _infer_scan(op):
    if not op.operands:
        return None
    return [v.type for v in op.operands]


def _verify_aggregate(op, matching_results: bool):
    operands = op.operands
    n = len(operands)
    if n == 0:
        return "expect at least 1 operand"
    if n != len(op.results):
        return "expect same number of operands and results"
    identities = op.attributes.get("identities")
    if identities is not None:
        values = getattr(identities, "value", ())
        if len(values) != n:
            return (f"expect identities to match the number of operands but got: {n} operands "
                    f"and {len(values)} identities")
        for i, v in enumerate(operands):
            t = v.type
            if not isinstance(t, TileType):
                return f"expected TileType for operand at index {i} but got: '{t}'"
            it = getattr(values[i], "type", None)
            el = t.element
            if (el is BF16 and it is F16) or (el is F16 and it is BF16):
                continue
            if el is not it:
                return (f"expect same type for operand at index: {i} and identity at index: {i} "
                        f"but got: '{el}' and '{it}'")
    first = operands[0].type
    if not isinstance(first, TileType):
        return f"expected TileType for first operand but got: '{first}'"
    dim = op.attributes["dim"].value
    if dim < 0 or dim >= first.rank:
        return f"dimension ({dim}) is out of bound [0, {first.rank})"
    if matching_results:
        for i, (v, r) in enumerate(zip(operands, op.results)):
            if v.type != r.type:
                return f"expect same type for operand at index: {i} and result at index: {i}"
    return None


def _verify_aggregate_region(op):
    from ....ir.traits import Pure
    n = len(op.operands)
    block = op.regions[0].blocks[0]
    if not block.ops:
        return "expect non-empty block"
    want = 2 * n
    args = [a.type for a in block.args]
    if len(args) != want:
        return f"expect {want} block arguments but got: {len(args)}"
    for i, t in enumerate(args):
        if not (isinstance(t, TileType) and t.rank == 0):
            return f"expect 0-rank tile type at index: {i} but got: '{t}'"
    for i in range(0, want - 1, 2):
        a, b = args[i], args[i + 1]
        if a.element is not b.element:
            return (f"expect same element type for block argument at index: {i} and {i + 1} but "
                    f"got: '{a.element}' and '{b.element}'")
    for i, v in enumerate(op.operands):
        t, a = v.type, args[2 * i]
        if t.element is not a.element:
            return (f"expect same type for operand at index: {i} and block argument at index: "
                    f"{2 * i} but got: '{t.element}' and '{a.element}'")
    term = block.ops[-1]
    tops = term.operands
    if len(tops) != n:
        return (f"expect number of terminators operands ({len(tops)}) to match number of "
                f"operands ({n})")
    for i, v in enumerate(op.operands):
        t, y = v.type, tops[i].type
        if not isinstance(y, TileType):
            return (f"expected TileType for operand and terminator types but got: '{t}' and "
                    f"'{y}'")
        if t.element is not y.element:
            return (f"expect same type for operand at index: {i} and terminator argument at "
                    f"index: {i} but got: '{t.element}' and '{y.element}'")
    for inner in block.ops[:-1]:
        spec = inner.SPEC
        if spec is None or Pure not in spec.traits:
            return Diagnostic(ERROR, f"'{inner.name}' op only pure operations are allowed inside "
                              f"'{op.name}'", inner.loc)
    return None


class ReduceOp(CudaTileOp):
    """Reduce ``operands`` along ``dim`` with the combiner region."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "reduce", 0x58, "Core"
    OPERANDS = (Operand("operands", AnyTile, VARIADIC),)
    RESULTS = (Result("results", AnyTile, VARIADIC),)
    ATTRIBUTES = (_DIM_ATTR, Attr("identities", "array"))
    REGIONS = (_AGG_REGION,)
    TRAITS = (InferResultTypes(_infer_reduce), RecursiveMemoryEffects, SameOperandsShape(),
              SingleBlockImplicitTerminator("cuda_tile.yield"))
    FORMAT = ("$operands attr-dict ` ` `dim` `` `=` `` $dim `identities` `` `=` `` $identities "
              "`:` custom<CudaTileType>(type($operands)) `->` custom<CudaTileType>(type($results)) "
              "custom<ArgumentRegion>($body)")

    def asm_result_names(self):
        return ["reduce"] if self.results else None

    def asm_block_arg_names(self, region_index: int):
        args = self.regions[0].blocks[0].args if self.regions[0].blocks else []
        out = []
        for i in range(len(args)):
            name = "reduce_lhs" if i % 2 == 0 else "reduce_rhs"
            if len(args) > 2:
                name += str(i // 2)
            out.append(name)
        return out

    def verify_op(self):
        return _verify_aggregate(self, matching_results=False)

    def verify_regions(self):
        return _verify_aggregate_region(self)



class ScanOp(CudaTileOp):
    """Inclusive scan of ``operands`` along ``dim`` (optionally reversed)."""
    __slots__ = ()
    #: implements OpAsmOpInterface in NVIDIA's dialect (matters for ``assume`` names)
    ASM_INTERFACE = True
    MNEMONIC, OPCODE, GROUP = "scan", 0x5E, "Core"
    OPERANDS = (Operand("operands", AnyTile, VARIADIC),)
    RESULTS = (Result("results", AnyTile, VARIADIC),)
    ATTRIBUTES = (_DIM_ATTR, Attr("reverse", "bool"), Attr("identities", "array"))
    REGIONS = (_AGG_REGION,)
    TRAITS = (InferResultTypes(_infer_scan), RecursiveMemoryEffects, SameOperandsShape(),
              SingleBlockImplicitTerminator("cuda_tile.yield"))
    FORMAT = ("$operands attr-dict ` ` `dim` `` `=` `` $dim `reverse` `` `=` `` $reverse "
              "`identities` `` `=` `` $identities `:` custom<CudaTileType>(type($operands)) `->` "
              "custom<CudaTileType>(type($results)) custom<ArgumentRegion>($body)")

    def verify_op(self):
        return _verify_aggregate(self, matching_results=True)

    def verify_regions(self):
        return _verify_aggregate_region(self)

