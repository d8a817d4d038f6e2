"""§8 Memory operations: pointer loads/stores, tokens, alloca."""

from __future__ import annotations

from ..attributes import MemoryOrderingSemantics, MemoryScope
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from ..types import PointerType, TileType
from .base import CudaTileOp
from ..constraints import AnyTile, I1Tile, NumberTile, PointerTile, ScalarPointer, Token
from ....ir.traits import Pure, TypesMatchWith
from ..types import FloatType, IntegerType, TF32
from ..verify_util import (PTR_HINTS, then_verify, verify_memory_model_load,
                           verify_memory_model_store, verify_optimization_hints)

ORDERING = Attr("memory_ordering_semantics", MemoryOrderingSemantics)
OPT_SCOPE = Attr("memory_scope", MemoryScope, optional=True)
HINTS = Attr("optimization_hints", "hints", optional=True)


def pointer_tile_of(t) -> "TileType | None":
    """``tile<SxE>`` -> ``tile<Sxptr<E>>``."""
    if isinstance(t, TileType):
        return TileType(t.shape, PointerType(t.element))
    return None


def pointee_tile_of(t) -> "TileType | None":
    if isinstance(t, TileType) and isinstance(t.element, PointerType):
        return TileType(t.shape, t.element.pointee)
    return None


def _disambiguate_padding(state) -> None:
    """``load_ptr_tko %p, %x : P, T``: the syntax cannot tell a lone padding value from a lone
    mask (NVIDIA's tileirdisasm prints both the same way); the type can.  A lone operand whose
    type is not an i1 tile is the padding value."""
    from ..types import I1
    mask = state.operands.get("mask")
    if not mask or state.operands.get("paddingValue"):
        return
    from ..types import ElementType
    types = state.operand_types.get("mask")
    # only a value that could be a padding value moves (a pointer tile stays a bad mask, as
    # cuda-tile-opt reports it: "operand #1 must be tile of i1 values")
    if types and isinstance(types[0], TileType) and types[0].element is not I1 and \
            isinstance(types[0].element, ElementType):
        state.operands["paddingValue"] = state.operands.pop("mask")
        state.operand_types["paddingValue"] = state.operand_types.pop("mask")
        state.operands["mask"] = []
        state.operand_types["mask"] = []


def _pointer_of(value_type, ptr_type) -> bool:
    return pointer_tile_of(value_type) == ptr_type


def _same_shape(a, b) -> bool:
    """cuda-tile's verifyLoadStoreMask: both tiles, same shape."""
    return isinstance(a, TileType) and isinstance(b, TileType) and a.shape == b.shape


def _same_tile(a, b) -> bool:
    """cuda-tile's verifyLoadPadding: both tiles, same shape and element type."""
    return isinstance(a, TileType) and isinstance(b, TileType) and a.shape == b.shape and \
        a.element == b.element


class LoadPtrTkoOp(CudaTileOp):
    """Load through a tile of pointers (optional mask and padding), ordered by tokens."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "load_ptr_tko", 0x3D, "Memory"
    OPERANDS = (Operand("source", PointerTile), Operand("mask", I1Tile, OPTIONAL),
                Operand("paddingValue", NumberTile, OPTIONAL), Operand("token", Token, OPTIONAL))
    RESULTS = (Result("result", AnyTile), Result("result_token", Token))
    ATTRIBUTES = (ORDERING, OPT_SCOPE, HINTS)
    ATTR_SIZED_OPERANDS = True
    TRAITS = (TypesMatchWith("`source` type is expected a pointer type of `result` type",
                             "result", "source", pointer_tile_of, check=_pointer_of),
              TypesMatchWith("shape of 'mask' must match the shape of 'source'", "source", "mask",
                             check=_same_shape, optional=True),
              TypesMatchWith("type of 'paddingValue' must match the type of 'result'", "result",
                             "paddingValue", check=_same_tile, optional=True))
    FORMAT = ("$memory_ordering_semantics ($memory_scope^)? $source (`,` $mask^)? "
              "(`,` $paddingValue^)? (`token` `` `=` `` $token^)? "
              "(`optimization_hints` `=` $optimization_hints^)? attr-dict `:` "
              "custom<CudaTileType>(type($source)) (`,` custom<CudaTileType>(type($mask))^)? "
              "(`,` custom<CudaTileType>(type($paddingValue))^)? `->` "
              "custom<CudaTileType>(type($result)) `,` custom<CudaTileType>(type($result_token))")

    @staticmethod
    def infer_parsed_types(state) -> bool:
        if "paddingValue" in state.spec.operand_index:
            _disambiguate_padding(state)
        if state.operands.get("token") and "token" not in state.operand_types:
            from ..types import TOKEN
            state.operand_types["token"] = [TOKEN]
            return True
        if "result" not in state.result_types and state.operand_types.get("source"):
            # the builder: the loaded tile is the pointee tile of the pointers
            loaded = pointee_tile_of(state.operand_types["source"][0])
            if loaded is not None:
                state.result_types["result"] = [loaded]
                return True
        return False

    def verify_op(self):
        return then_verify(verify_optimization_hints(self, PTR_HINTS),
                           lambda: verify_memory_model_load(self))



class StorePtrTkoOp(CudaTileOp):
    """Store through a tile of pointers (optional mask), ordered by tokens."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "store_ptr_tko", 0x65, "Memory"
    OPERANDS = (Operand("destination", PointerTile), Operand("value", AnyTile),
                Operand("mask", I1Tile, OPTIONAL), Operand("token", Token, OPTIONAL))
    RESULTS = (Result("result_token", Token),)
    ATTRIBUTES = (ORDERING, OPT_SCOPE, HINTS)
    ATTR_SIZED_OPERANDS = True
    TRAITS = (TypesMatchWith("`destination` type is expected a pointer type of `value` type",
                             "value", "destination", pointer_tile_of, check=_pointer_of),
              TypesMatchWith("shape of 'destination' must match the shape of 'mask'", "mask",
                             "destination", check=_same_shape, optional=True))
    FORMAT = ("$memory_ordering_semantics ($memory_scope^)? $destination `,` $value "
              "(`,` $mask^)? (`token` `` `=` `` $token^)? "
              "(`optimization_hints` `=` $optimization_hints^)? attr-dict `:` "
              "custom<CudaTileType>(type($destination)) `,` custom<CudaTileType>(type($value)) "
              "(`,` custom<CudaTileType>(type($mask))^)? `->` "
              "custom<CudaTileType>(type($result_token))")

    infer_parsed_types = LoadPtrTkoOp.infer_parsed_types

    def verify_op(self):
        return then_verify(verify_optimization_hints(self, PTR_HINTS),
                           lambda: verify_memory_model_store(self))



class MakeTokenOp(CudaTileOp):
    """A fresh token with no ordering dependency."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "make_token", 0x44, "Memory"
    RESULTS = (Result("result", Token),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict `:` custom<CudaTileType>(type($result))"


class JoinTokensOp(CudaTileOp):
    """A token ordered after all ``tokens``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "join_tokens", 0x3C, "Memory"
    OPERANDS = (Operand("tokens", Token, VARIADIC),)
    RESULTS = (Result("result", Token),)
    TRAITS = (Pure,)
    FORMAT = "$tokens attr-dict `:` custom<CudaTileType>(type($result))"

    @staticmethod
    def infer_parsed_types(state) -> bool:
        from ..types import TOKEN
        if "tokens" not in state.operand_types:
            state.operand_types["tokens"] = [TOKEN] * len(state.operands.get("tokens", []))
            return True
        return False

    def verify_op(self):
        if len(self.operands) < 2:
            return "expect two or more tokens"
        return None



_MIN0 = "64-bit signless integer attribute whose minimum value is 0"


def _nonneg(attr) -> bool:
    return attr.value >= 0


class AllocaOp(CudaTileOp):
    """Allocate ``num_elem`` elements of automatic (or ``global``) memory (13.3)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "alloca", 0x71, "Memory", "13.3"
    RESULTS = (Result("result", ScalarPointer, since="13.3"),)
    ATTRIBUTES = (Attr("num_elem", "i64", since="13.3", summary=_MIN0, check=_nonneg),
                  Attr("alignment", "i64", since="13.3", summary=_MIN0, check=_nonneg),
                  Attr("global", "unit", since="13.3"))
    FORMAT = ("`num_elem` `=` $num_elem `,` `alignment` `=` $alignment (`global` $global^)? "
              "attr-dict `:` custom<CudaTileType>(type($result))")

    def verify_op(self):
        align = self.attributes["alignment"].value
        if align <= 0 or align & (align - 1):
            return "'alignment' must be power of two"
        pointee = self.results[0].type.element.pointee
        size = 0
        if isinstance(pointee, IntegerType):
            size = 1 if pointee.width == 1 else pointee.width // 8
        elif isinstance(pointee, FloatType):
            size = 19 // 8 if pointee is TF32 else pointee.width // 8
        if align < size:
            return (f"'alignment' ({align}) must be at least the natural size ({size} bytes) for "
                    f"element type '{pointee}'")
        return None



# ---------------------------------------------------------------------------------------------
# 13.4: programmatic dependent launch (grid dependency control) and alias fences
# ---------------------------------------------------------------------------------------------

class GdcLaunchDependentsTkoOp(CudaTileOp):
    """Signal that dependent grids may launch (programmatic dependent launch; 13.4).
    ``gdc_launch_dependents_tko [token = %t] -> token``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "gdc_launch_dependents_tko", 0x77, "Memory", "13.4"
    OPERANDS = (Operand("token", Token, OPTIONAL, since="13.4"),)
    RESULTS = (Result("result_token", Token, since="13.4"),)
    FORMAT = "(`token` `=` $token^)? attr-dict `->` custom<CudaTileType>(type($result_token))"


class GdcWaitTkoOp(CudaTileOp):
    """Wait until the grids this one depends on have completed or signalled (13.4).
    ``gdc_wait_tko [token = %t] -> token``."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "gdc_wait_tko", 0x78, "Memory", "13.4"
    OPERANDS = (Operand("token", Token, OPTIONAL, since="13.4"),)
    RESULTS = (Result("result_token", Token, since="13.4"),)
    FORMAT = "(`token` `=` $token^)? attr-dict `->` custom<CudaTileType>(type($result_token))"


class MemoryFenceAliasTkoOp(CudaTileOp):
    """Order memory accesses through possibly aliasing views after ``token`` (13.4).
    ``memory_fence_alias_tko %t`` (both types are tokens and are not printed)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "memory_fence_alias_tko", 0x7A, "Memory", "13.4"
    OPERANDS = (Operand("token", Token, since="13.4"),)
    RESULTS = (Result("result_token", Token, since="13.4"),)
    FORMAT = "$token attr-dict"
