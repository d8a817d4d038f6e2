"""§8 Core operations: module, global, constant, shape manipulation, reduce/scan, tile blocks."""

from __future__ import annotations

import numpy as np

from ..attrs import DenseElementsAttr, SymbolVisibility, i64_attr
from ..ir.opdef import Attr, Operand, RegionDef, Result, VARIADIC
from ..types import I1, PointerType
from .base import CudaTileOp
from .constraints import (AnyTile, I1Tile, I8Tile, IntTile, NumberTile, PackSource,
                          PointerTile, ScalarI32, ScalarPointer, UnpackedTile)
from .traits import (AllElementTypesMatch, AllRanksMatch, AllShapesMatch, AllTypesMatch,
                     IsolatedFromAbove, NoRegionArguments, Pure, SameOperandsAndResultElementType,
                     SameOperandsAndResultShape, SameOperandsShape, SingleBlock,
                     SingleBlockImplicitTerminator, Symbol, SymbolTable)


class ModuleOp(CudaTileOp):
    """``cuda_tile.module @name { ... }``: the container of entries and globals."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "module", 0x4B, "Core"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("producer", "str", optional=True, since="13.3"))
    REGIONS = (RegionDef("body", "maxsized1"),)
    TRAITS = (IsolatedFromAbove(), NoRegionArguments(), SingleBlock(), SymbolTable)
    FORMAT = "$sym_name attr-dict-with-keyword $body"

    @property
    def sym_name(self) -> str:
        return self.attributes["sym_name"].value


class GlobalOp(CudaTileOp):
    """``global [private] [constant] @name [alignment = N] <T: ...> : tile<...>``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "global", 0x31, "Core"
    ATTRIBUTES = (Attr("sym_name", "symbol"), Attr("value", "dense"),
                  Attr("alignment", "i64", default=i64_attr(0)),
                  Attr("constant", "unit", since="13.3"),
                  Attr("symbol_visibility", SymbolVisibility, default=SymbolVisibility.PUBLIC,
                       since="13.3"))
    TRAITS = (Symbol,)
    FORMAT = ("custom<SymbolVisibility>($symbol_visibility) (`constant` $constant^)? $sym_name "
              "(`alignment` `=` $alignment^)? attr-dict "
              "custom<DenseTypedElementsAttrNoResult>($value)")

    @property
    def sym_name(self) -> str:
        return self.attributes["sym_name"].value


class GetGlobalOp(CudaTileOp):
    """Pointer to a global."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "get_global", 0x2C, "Core"
    ATTRIBUTES = (Attr("name", "flat_symbol"),)
    RESULTS = (Result("result", ScalarPointer),)
    TRAITS = (Pure,)
    FORMAT = "$name attr-dict `:` custom<CudaTileType>(type($result))"


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
            elif np.isfinite(f) and f == int(f) and 0 <= f < 2.0 ** 64:
                name += f"_{int(f)}"
    return f"{name}_{el.name}"


class IotaOp(CudaTileOp):
    """``iota : tile<Nxi32>`` = [0, 1, ..., N-1]."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "iota", 0x3A, "Core"
    RESULTS = (Result("result", IntTile),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict `:` custom<CudaTileType>(type($result))"


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


class UnpackOp(CudaTileOp):
    """Reinterpret a 1-D byte tile as another numeric type (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "unpack", 0x70, "Core", "13.3"
    OPERANDS = (Operand("source", I8Tile, since="13.3"),)
    RESULTS = (Result("result", UnpackedTile, since="13.3"),)
    TRAITS = (Pure, AllRanksMatch("source", "result"))
    FORMAT = _SHAPE_FMT


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


class ReduceOp(CudaTileOp):
    """Reduce ``operands`` along ``dim`` with the combiner region."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "reduce", 0x58, "Core"
    OPERANDS = (Operand("operands", AnyTile, VARIADIC),)
    RESULTS = (Result("results", AnyTile, VARIADIC),)
    ATTRIBUTES = (Attr("dim", "i32"), Attr("identities", "any"))
    REGIONS = (_AGG_REGION,)
    TRAITS = (SameOperandsShape(), SingleBlockImplicitTerminator("cuda_tile.yield"))
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


class ScanOp(CudaTileOp):
    """Inclusive scan of ``operands`` along ``dim`` (optionally reversed)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "scan", 0x5E, "Core"
    OPERANDS = (Operand("operands", AnyTile, VARIADIC),)
    RESULTS = (Result("results", AnyTile, VARIADIC),)
    ATTRIBUTES = (Attr("dim", "i32"), Attr("reverse", "bool"), Attr("identities", "any"))
    REGIONS = (_AGG_REGION,)
    TRAITS = (SameOperandsShape(), SingleBlockImplicitTerminator("cuda_tile.yield"))
    FORMAT = ("$operands attr-dict ` ` `dim` `` `=` `` $dim `reverse` `` `=` `` $reverse "
              "`identities` `` `=` `` $identities `:` custom<CudaTileType>(type($operands)) `->` "
              "custom<CudaTileType>(type($results)) custom<ArgumentRegion>($body)")
