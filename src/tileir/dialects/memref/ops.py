"""The memref dialect's ops (MLIR 22): buffers, their views and accesses.

One declarative definition per op; the ops whose MLIR syntax is hand-written or uses custom
directives get their hooks from :mod:`.syntax`.  Verifier rules and message texts follow
mlir-opt 22 (``MemRefOps.cpp``)."""

from __future__ import annotations

from typing import Optional

from ...ir.constraints import Pred
from ...ir.types import FloatType
from ...ir.opdef import OPTIONAL, VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import (AffineScope, ParentOneOf, Pure, RecursiveMemoryEffects, ReturnLike,
                          SingleBlockImplicitTerminator, Terminator, TypesMatchWith)
from ...ir.attributes import UNIT, DenseElementsAttr
from ..builtin.dense import DenseResourceAttr
from ...ir.verify import nearest_symbol_table, op_error, symbol_lookup, visibility_error
from ..scf.common import ANY, INDEX
from . import syntax

__all__ = ["MemRefOp"]


def _is_memref(t) -> bool:
    return str(t).startswith("memref<")


def _ranked(t) -> bool:
    return _is_memref(t) and not str(t).startswith("memref<*")


def _unranked(t) -> bool:
    return str(t).startswith("memref<*")


# (the classes MLIR's generated parsers read these operands' ``type($x)`` as)
_MEMREF_TYPE = (_ranked, "builtin.memref")
_BASE_MEMREF_TYPE = (_is_memref, None)
MEMREF = Pred(_ranked, "memref of any type values", _MEMREF_TYPE)
ANY_MEMREF = Pred(_is_memref, "ranked or unranked memref of any type values", _BASE_MEMREF_TYPE)
UNRANKED = Pred(_unranked, "unranked.memref of any type values",
                (_unranked, "builtin.unranked_memref"))
STATIC_MEMREF = Pred(_ranked, "statically shaped memref of any type values", _MEMREF_TYPE)
ONE_D_MEMREF = Pred(lambda t: _ranked(t) and len(t.shape) == 1,
                    "1D memref of any type values", _MEMREF_TYPE)


def _signless_int_or_float(t) -> bool:
    text = str(t)
    return (text[0] == "i" and text[1:].isdigit()) or isinstance(t, FloatType)


def _element(t):
    return getattr(t, "element_type", None)


def _elem_of(name: str, to: str, summary: str) -> TypesMatchWith:
    return TypesMatchWith(summary, name, to, transform=_element)


class MemRefOp(OpBase):
    """Base of the memref ops."""

    __slots__ = ()
    DIALECT_NAME = "memref"
    #: no OpAsmOpInterface default dialect: inside the regions op names are spelled in full
    DEFAULT_DIALECT = ""
    #: the SSA name mlir-opt gives the (first) result, if any
    RESULT_NAME: str | None = None

    def asm_result_names(self):
        return [self.RESULT_NAME] if self.RESULT_NAME and self.results else None


# ---------------------------------------------------------------------------------------------
# Allocation
# ---------------------------------------------------------------------------------------------

class _AllocLike(MemRefOp):
    """alloc / alloca: dynamic sizes, layout symbols and an optional alignment."""
    __slots__ = ()
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("dynamicSizes", INDEX, VARIADIC),
                Operand("symbolOperands", INDEX, VARIADIC))
    RESULTS = (Result("memref", MEMREF),)
    ATTRIBUTES = (Attr("alignment", "i64", optional=True,
                       summary="64-bit signless integer attribute whose value is positive and "
                       "whose value is a power of two > 0",
                       check=lambda a: a.value > 0 and a.value & (a.value - 1) == 0),)
    FORMAT = ("`(`$dynamicSizes`)` (`` `[` $symbolOperands^ `]`)? attr-dict `:` "
              "type($memref)")

    def verify_op(self):
        t = self.results[0].type
        dynamic = sum(1 for d in t.shape if d is None)
        if len(self.dynamicSizes) != dynamic:
            return (f"incorrect number of dynamic sizes, has {len(self.dynamicSizes)}, "
                    f"expected {dynamic}")
        n_symbols = _layout_symbols(getattr(t, "layout", None))
        if len(self.symbolOperands) != n_symbols:
            return (f"symbol operand count does not equal memref symbol count: expected "
                    f"{n_symbols}, got {len(self.symbolOperands)}")
        return None


def _layout_symbols(layout) -> int:
    """How many symbols the affine map of a memref layout has (a strided layout's map has one
    per dynamic stride and one for a dynamic offset)."""
    from ..builtin.types import StridedLayoutAttr
    if isinstance(layout, StridedLayoutAttr):
        return sum(1 for s in layout.strides if s is None) + (layout.offset is None)
    return getattr(getattr(layout, "value", None), "n_symbols", 0)


class AllocOp(_AllocLike):
    """Allocate a buffer on the heap (dynamic sizes, layout symbols, alignment)."""
    __slots__ = ()
    MNEMONIC = "alloc"
    RESULT_NAME = "alloc"


class AllocaOp(_AllocLike):
    """Allocate a buffer on the stack of the nearest automatic allocation scope."""
    __slots__ = ()
    MNEMONIC = "alloca"
    RESULT_NAME = "alloca"

    def verify_op(self):
        parent = self.parent_op
        while parent is not None and not (parent.SPEC is not None
                                          and parent.SPEC.has_trait(type(AffineScope))
                                          and AffineScope in parent.SPEC.traits):
            parent = parent.parent_op
        if parent is None:
            return "requires an ancestor op with AutomaticAllocationScope trait"
        return super().verify_op()


class ReallocOp(MemRefOp):
    """Grow or shrink a 1-D buffer, keeping its contents."""
    __slots__ = ()
    MNEMONIC = "realloc"
    OPERANDS = (Operand("source", ONE_D_MEMREF),
                Operand("dynamicResultSize", INDEX, OPTIONAL))
    RESULTS = (Result("result", ONE_D_MEMREF),)
    ATTRIBUTES = (Attr("alignment", "i64", optional=True),)
    parse_custom = staticmethod(syntax.parse_realloc)
    print_custom = staticmethod(syntax.print_realloc)

    def verify_op(self):
        src, dst = self.operands[0].type, self.results[0].type
        if src.element_type != dst.element_type:
            return op_error(self, f"different element types specified for source memref type "
                            f"'{src}' and result memref type '{dst}'")
        if src.memory_space != dst.memory_space:
            return op_error(self, f"different memory spaces specified for source memref type "
                            f"'{src}' and result memref type '{dst}'")
        if dst.shape[0] is None and len(self.operands) < 2:
            return op_error(self, f"missing dimension operand for result type '{dst}'")
        if dst.shape[0] is not None and len(self.operands) > 1:
            return op_error(self, f"unnecessary dimension operand for result type '{dst}'")
        return None


class DeallocOp(MemRefOp):
    """Free a buffer."""
    __slots__ = ()
    MNEMONIC = "dealloc"
    OPERANDS = (Operand("memref", ANY_MEMREF),)
    FORMAT = "$memref attr-dict `:` type($memref)"


class AllocaScopeOp(MemRefOp):
    """A region whose stack allocations are freed when it ends."""
    __slots__ = ()
    MNEMONIC = "alloca_scope"
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("bodyRegion", "sized1"),)
    TRAITS = (AffineScope, RecursiveMemoryEffects,
              SingleBlockImplicitTerminator("memref.alloca_scope.return"))
    parse_custom = staticmethod(syntax.parse_alloca_scope)
    print_custom = staticmethod(syntax.print_alloca_scope)


class AllocaScopeReturnOp(MemRefOp):
    """Ends an ``alloca_scope`` with its result values."""
    __slots__ = ()
    MNEMONIC = "alloca_scope.return"
    OPERANDS = (Operand("results", ANY, VARIADIC),)
    TRAITS = (Pure, ReturnLike, Terminator(), ParentOneOf("memref.alloca_scope"))
    FORMAT = "attr-dict ($results^ `:` type($results))?"


# ---------------------------------------------------------------------------------------------
# Access
# ---------------------------------------------------------------------------------------------

class LoadOp(MemRefOp):
    """Read one element at the given indices."""
    __slots__ = ()
    MNEMONIC = "load"
    OPERANDS = (Operand("memref", MEMREF), Operand("indices", INDEX, VARIADIC))
    RESULTS = (Result("result", ANY),)
    ATTRIBUTES = (Attr("nontemporal", "bool", default=None, optional=True),)
    TRAITS = (_elem_of("memref", "result", "result type matches element type of 'memref'"),)
    FORMAT = "$memref `[` $indices `]` attr-dict `:` type($memref)"

    def verify_op(self):
        rank = len(self.operands[0].type.shape)
        if len(self.indices) != rank:
            return (f"incorrect number of indices for load, expected {rank} but got "
                    f"{len(self.indices)}")
        return None


class StoreOp(MemRefOp):
    """Write one element at the given indices."""
    __slots__ = ()
    MNEMONIC = "store"
    OPERANDS = (Operand("value", ANY), Operand("memref", MEMREF),
                Operand("indices", INDEX, VARIADIC))
    ATTRIBUTES = (Attr("nontemporal", "bool", optional=True),)
    TRAITS = (_elem_of("memref", "value", "type of 'value' matches element type of 'memref'"),)
    FORMAT = "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)"

    def verify_op(self):
        if len(self.indices) != len(self.operands[1].type.shape):
            return "store index operand count not equal to memref rank"
        return None


class AtomicRMWOp(MemRefOp):
    """Atomic read-modify-write of one element with a predefined kind."""
    __slots__ = ()
    MNEMONIC = "atomic_rmw"
    OPERANDS = (Operand("value", ANY), Operand("memref", MEMREF),
                Operand("indices", INDEX, VARIADIC))
    RESULTS = (Result("result", ANY),)
    ATTRIBUTES = (Attr("kind", "i64", check=lambda v: 0 <= v.value < len(syntax.ATOMIC_KINDS),
                       summary="allowed 64-bit signless integer cases: " +
                       ", ".join(str(i) for i in range(len(syntax.ATOMIC_KINDS)))),)
    TRAITS = (_elem_of("memref", "value", "value type matches element type of memref"),
              _elem_of("memref", "result", "result type matches element type of memref"))
    parse_custom = staticmethod(syntax.parse_atomic_rmw)
    print_custom = staticmethod(syntax.print_atomic_rmw)

    def verify_op(self):
        mtype = self.operands[1].type
        if len(self.indices) != len(mtype.shape):
            return "expects the number of subscripts to be equal to memref rank"
        kind = syntax.ATOMIC_KINDS[self.attributes["kind"].value]
        value = self.operands[0].type
        is_float = str(value)[:1] in "fb" or str(value).startswith("tf32")
        if kind in ("addf", "maximumf", "maxnumf", "minimumf", "minnumf", "mulf") \
                and not is_float:
            return f"with kind '{kind}' expects a floating-point type"
        if kind in ("addi", "maxs", "maxu", "mins", "minu", "muli", "ori", "andi", "xori") \
                and not str(value).startswith("i"):
            return f"with kind '{kind}' expects an integer type"
        return None


class GenericAtomicRMWOp(MemRefOp):
    """Atomic read-modify-write of one element with a computed value."""
    __slots__ = ()
    MNEMONIC = "generic_atomic_rmw"
    OPERANDS = (Operand("memref", Pred(lambda t: _ranked(t) and _signless_int_or_float(
        t.element_type), "memref of signless integer or floating-point values")),
                Operand("indices", INDEX, VARIADIC))
    RESULTS = (Result("result", ANY),)
    REGIONS = (RegionDef("atomic_body", "any"),)
    TRAITS = (RecursiveMemoryEffects,)
    parse_custom = staticmethod(syntax.parse_generic_atomic_rmw)
    print_custom = staticmethod(syntax.print_generic_atomic_rmw)

    def verify_op(self):
        body = self.regions[0]
        if not body.blocks or len(body.blocks[0].args) != 1:
            return "expected single number of entry block arguments"
        if body.blocks[0].args[0].type != self.results[0].type:
            return "expected block argument of the same type result type"
        return None


class AtomicYieldOp(MemRefOp):
    """Ends a ``generic_atomic_rmw`` body with the value to store."""
    __slots__ = ()
    MNEMONIC = "atomic_yield"
    OPERANDS = (Operand("result", ANY),)
    TRAITS = (Pure, ReturnLike, Terminator(), ParentOneOf("memref.generic_atomic_rmw"))
    FORMAT = "$result attr-dict `:` type($result)"

    def verify_op(self):
        parent = self.parent_op
        if parent is not None and parent.results and \
                parent.results[0].type != self.operands[0].type:
            return (f"types mismatch between yield op: '{self.operands[0].type}' and its "
                    f"parent: '{parent.results[0].type}'")
        return None


class PrefetchOp(MemRefOp):
    """Hint a read or write of an element to the data or instruction cache."""
    __slots__ = ()
    MNEMONIC = "prefetch"
    OPERANDS = (Operand("memref", MEMREF), Operand("indices", INDEX, VARIADIC))
    ATTRIBUTES = (Attr("isWrite", "bool"),
                  Attr("localityHint", "i32", check=lambda a: 0 <= a.value <= 3,
                       summary="32-bit signless integer attribute whose minimum value is 0 "
                       "whose maximum value is 3"),
                  Attr("isDataCache", "bool"))
    parse_custom = staticmethod(syntax.parse_prefetch)
    print_custom = staticmethod(syntax.print_prefetch)

    def verify_op(self):
        if len(self.indices) != len(self.operands[0].type.shape):
            return "too few indices"
        return None


class DmaStartOp(MemRefOp):
    """Start a DMA transfer between two buffers (tag buffer, optional stride)."""
    __slots__ = ()
    MNEMONIC = "dma_start"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    parse_custom = staticmethod(syntax.parse_dma_start)
    print_custom = staticmethod(syntax.print_dma_start)


class DmaWaitOp(MemRefOp):
    """Wait for the DMA transfer of a tag to complete."""
    __slots__ = ()
    MNEMONIC = "dma_wait"
    OPERANDS = (Operand("tagMemRef", MEMREF), Operand("tagIndices", INDEX, VARIADIC),
                Operand("numElements", INDEX))
    FORMAT = "$tagMemRef `[` $tagIndices `]` `,` $numElements attr-dict `:` type($tagMemRef)"

    def verify_op(self):
        rank = len(self.operands[0].type.shape)
        if len(self.tagIndices) != rank:
            return (f"expected tagIndices to have the same number of elements as the "
                    f"tagMemRef rank, expected {rank}, but got {len(self.tagIndices)}")
        return None


class CopyOp(MemRefOp):
    """Copy the contents of one buffer into another."""
    __slots__ = ()
    MNEMONIC = "copy"
    OPERANDS = (Operand("source", ANY_MEMREF), Operand("target", ANY_MEMREF))
    FORMAT = "$source `,` $target attr-dict `:` type($source) `to` type($target)"


# ---------------------------------------------------------------------------------------------
# Views and metadata
# ---------------------------------------------------------------------------------------------

class _MemRefCast(MemRefOp):
    """Family of the memref-to-memref casts: ``%m : T to U``."""
    __slots__ = ()
    OPERANDS = (Operand("source", ANY_MEMREF),)
    RESULTS = (Result("dest", ANY_MEMREF),)
    FORMAT = "$source attr-dict `:` type($source) `to` type($dest)"


class CastOp(_MemRefCast):
    """Cast to a compatible memref type (static/dynamic sizes, ranked/unranked)."""
    __slots__ = ()
    MNEMONIC = "cast"
    RESULT_NAME = "cast"

    def verify_op(self):
        a, b = self.operands[0].type, self.results[0].type
        if not _cast_compatible(a, b):
            return f"operand type '{a}' and result type '{b}' are cast incompatible"
        return None


def _cast_compatible(a, b) -> bool:
    if _unranked(a) and _unranked(b):
        return False
    if _unranked(a) or _unranked(b):
        return a.element_type == b.element_type and a.memory_space == b.memory_space
    if a.element_type != b.element_type or a.memory_space != b.memory_space:
        return False
    if len(a.shape) != len(b.shape):
        return False
    for x, y in zip(a.shape, b.shape):
        if x is not None and y is not None and x != y:
            return False
    (sa, oa), (sb, ob) = _strides(a), _strides(b)
    if sa is None or sb is None:
        return a.layout == b.layout
    if oa is not None and ob is not None and oa != ob:
        return False
    return all(x is None or y is None or x == y for x, y in zip(sa, sb))


def _strides(t):
    try:
        return t.strides_and_offset()
    except ValueError:
        return None, None


class MemorySpaceCastOp(_MemRefCast):
    """Cast to another memory space."""
    __slots__ = ()
    MNEMONIC = "memory_space_cast"
    RESULT_NAME = "memspacecast"

    def verify_op(self):
        a, b = self.operands[0].type, self.results[0].type
        same = (_unranked(a) == _unranked(b) and a.element_type == b.element_type
                and getattr(a, "shape", None) == getattr(b, "shape", None)
                and getattr(a, "layout", None) == getattr(b, "layout", None))
        if not same:
            return f"operand type '{a}' and result type '{b}' are cast incompatible"
        return None


class DimOp(MemRefOp):
    """The size of one dimension."""
    __slots__ = ()
    MNEMONIC = "dim"
    RESULT_NAME = "dim"
    OPERANDS = (Operand("source", Pred(lambda t: _unranked(t) or (_ranked(t) and t.shape),
                                       "unranked.memref of any type values or "
                                       "non-0-ranked.memref of any type values")),
                Operand("index", INDEX))
    RESULTS = (Result("result", INDEX),)
    FORMAT = "attr-dict $source `,` $index `:` type($source)"


class RankOp(MemRefOp):
    """The rank."""
    __slots__ = ()
    MNEMONIC = "rank"
    OPERANDS = (Operand("memref", ANY_MEMREF),)
    RESULTS = (Result("result", INDEX),)
    FORMAT = "$memref attr-dict `:` type($memref)"


class ExtractAlignedPointerAsIndexOp(MemRefOp):
    """The aligned base pointer as an index."""
    __slots__ = ()
    MNEMONIC = "extract_aligned_pointer_as_index"
    RESULT_NAME = "intptr"
    OPERANDS = (Operand("source", ANY_MEMREF),)
    RESULTS = (Result("aligned_pointer", INDEX),)
    FORMAT = "$source `:` type($source) `->` type($aligned_pointer) attr-dict"


class ExtractStridedMetadataOp(MemRefOp):
    """Base buffer, offset, sizes and strides of a strided memref."""
    __slots__ = ()
    MNEMONIC = "extract_strided_metadata"
    OPERANDS = (Operand("source", MEMREF),)
    RESULTS = (Result("base_buffer", MEMREF), Result("offset", INDEX),
               Result("sizes", INDEX, VARIADIC), Result("strides", INDEX, VARIADIC))
    parse_custom = staticmethod(syntax.parse_extract_strided_metadata)
    print_custom = staticmethod(syntax.print_extract_strided_metadata)

    def asm_result_names(self):
        rank = (len(self.results) - 2) // 2
        names = ["base_buffer", "offset"]
        if rank:
            names += ["sizes"] + [None] * (rank - 1) + ["strides"] + [None] * (rank - 1)
        return names


class AssumeAlignmentOp(MemRefOp):
    """Assert the alignment of the buffer's base pointer."""
    __slots__ = ()
    MNEMONIC = "assume_alignment"
    RESULT_NAME = "assume_align"
    OPERANDS = (Operand("memref", MEMREF),)
    RESULTS = (Result("result", MEMREF),)
    ATTRIBUTES = (Attr("alignment", "i32"),)
    TRAITS = (TypesMatchWith("result type matches memref", "memref", "result",
                             transform=lambda t: t),)
    FORMAT = "$memref `,` $alignment attr-dict `:` type($memref)"

    def verify_op(self):
        if self.attributes["alignment"].value <= 0 or \
                self.attributes["alignment"].value & (self.attributes["alignment"].value - 1):
            return "alignment must be power of 2"
        return None


class GetGlobalOp(MemRefOp):
    """The buffer of a ``memref.global``."""
    __slots__ = ()
    MNEMONIC = "get_global"
    OPERANDS = ()
    RESULTS = (Result("result", STATIC_MEMREF),)
    ATTRIBUTES = (Attr("name", "flat_symbol"),)
    parse_custom = staticmethod(syntax.parse_get_global)
    print_custom = staticmethod(syntax.print_get_global)

    def verify_op(self):
        name = self.attributes["name"].root
        # as MLIR's lookupNearestSymbolFrom: only the closest symbol table (a kernel inside a
        # gpu.module sees the gpu.module's globals, not the enclosing module's)
        table = nearest_symbol_table(self)
        found = symbol_lookup(table, name) if table is not None else None
        if found is None or found.name != "memref.global":
            return f"'{name}' does not reference a valid global memref"
        want = found.attributes["type"].value
        if want != self.results[0].type:
            return (f"result type '{self.results[0].type}' does not match type '{want}' of the "
                    f"global memref @{name}")
        return None


class GlobalOp(MemRefOp):
    """A global buffer, optionally constant and initialized."""
    __slots__ = ()
    MNEMONIC = "global"
    ATTRIBUTES = (Attr("sym_name", "str"), Attr("sym_visibility", "str", optional=True),
                  Attr("type", "type"), Attr("initial_value", "any", optional=True),
                  Attr("constant", "unit"), Attr("alignment", "i64", optional=True))
    parse_custom = staticmethod(syntax.parse_global)
    print_custom = staticmethod(syntax.print_global)

    def verify_op(self):
        error = visibility_error(self)
        if error is not None:
            return error
        t = self.attributes["type"].value
        if not _ranked(t) or None in t.shape:
            return f"type should be static shaped memref, but got {t}"
        init = self.attributes.get("initial_value")
        if init is not None and init is not UNIT and \
                not isinstance(init, (DenseElementsAttr, DenseResourceAttr)):
            return f"initial value should be a unit or elements attribute, but got {init.generic()}"
        return None


class SubViewOp(MemRefOp):
    """A strided window of a buffer (mixed static/dynamic offsets, sizes, strides)."""
    __slots__ = ()
    MNEMONIC = "subview"
    RESULT_NAME = "subview"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("source", MEMREF), Operand("offsets", INDEX, VARIADIC),
                Operand("sizes", INDEX, VARIADIC), Operand("strides", INDEX, VARIADIC))
    RESULTS = (Result("result", MEMREF),)
    ATTRIBUTES = (Attr("static_offsets", "array_i64"), Attr("static_sizes", "array_i64"),
                  Attr("static_strides", "array_i64"))
    parse_custom = staticmethod(syntax.parse_subview)
    print_custom = staticmethod(syntax.print_subview)

    def verify_op(self):
        rank = len(self.operands[0].type.shape)
        return _mixed_lists(self, (rank, rank, rank)) or _verify_subview_type(self)


def _subview_type(op):
    """The result type MLIR infers for a subview (before any rank reduction), or None when
    the source layout is not strided."""
    from ..builtin.types import MemRefType, StridedLayoutAttr
    from .syntax import DYNAMIC
    source = op.operands[0].type
    try:
        strides, offset = source.strides_and_offset()
    except ValueError:
        return None
    a = op.attributes
    offsets, sizes, steps = (a[k].value for k in ("static_offsets", "static_sizes",
                                                   "static_strides"))
    def static(x):
        return None if x is None or x == DYNAMIC else x

    def times(x, y):
        # MLIR's saturated arithmetic: zero times anything (even dynamic) is zero
        x, y = static(x), static(y)
        return 0 if x == 0 or y == 0 else None if x is None or y is None else x * y
    for off, stride in zip(offsets, strides):
        term = times(off, stride)
        offset = None if offset is None or term is None else offset + term
    new_strides = tuple(times(s, t) for s, t in zip(strides, steps))
    shape = tuple(None if d == DYNAMIC else d for d in sizes)
    return MemRefType(shape, source.element_type, StridedLayoutAttr(new_strides, offset),
                      source.memory_space)


def _verify_subview_type(op):
    expected = _subview_type(op)
    result = op.results[0].type
    if expected is None or expected == result:
        return None
    reason = None
    if result.element_type != expected.element_type:
        return op_error(op, f"expected result element type to be '{expected.element_type}', "
                        f"but got '{result}'")
    if result.memory_space != expected.memory_space:
        return op_error(op, f"different memory spaces specified for base memref type "
                        f"'{op.operands[0].type}' and subview memref type '{result}'")
    if len(result.shape) > len(expected.shape) or not _drops_unit_dims(expected.shape,
                                                                         result.shape):
        reason = "mismatch of result sizes"
    elif len(result.shape) == len(expected.shape):
        reason = "mismatch of result layout"
    if reason is None:
        return None  # a rank-reduced version (its layout is not checked here)
    return op_error(op, f"expected result type to be '{expected}' or a rank-reduced version. "
                    f"({reason}), but got '{result}'")


def _drops_unit_dims(full, reduced) -> bool:
    """Whether ``reduced`` is ``full`` without some of its static unit dimensions."""
    i = 0
    for d in full:
        if i < len(reduced) and reduced[i] == d:
            i += 1
        elif d != 1:
            return False
    return i == len(reduced)


class ReinterpretCastOp(MemRefOp):
    """The same buffer with another offset, sizes and strides."""
    __slots__ = ()
    MNEMONIC = "reinterpret_cast"
    RESULT_NAME = "reinterpret_cast"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("source", ANY_MEMREF), Operand("offsets", INDEX, VARIADIC),
                Operand("sizes", INDEX, VARIADIC), Operand("strides", INDEX, VARIADIC))
    RESULTS = (Result("result", MEMREF),)
    ATTRIBUTES = (Attr("static_offsets", "array_i64"), Attr("static_sizes", "array_i64"),
                  Attr("static_strides", "array_i64"))
    parse_custom = staticmethod(syntax.parse_reinterpret_cast)
    print_custom = staticmethod(syntax.print_reinterpret_cast)

    def verify_op(self):
        rank = len(self.results[0].type.shape)
        return _mixed_lists(self, (1, rank, rank))


class ViewOp(MemRefOp):
    """A typed view into a byte buffer at a byte shift."""
    __slots__ = ()
    MNEMONIC = "view"
    RESULT_NAME = "view"
    OPERANDS = (Operand("source", Pred(lambda t: _ranked(t) and len(t.shape) == 1
                                       and str(t.element_type) == "i8",
                                       "1D memref of 8-bit signless integer values",
                                       _MEMREF_TYPE)),
                Operand("byte_shift", INDEX),
                Operand("sizes", INDEX, VARIADIC))
    RESULTS = (Result("result", MEMREF),)
    parse_custom = staticmethod(syntax.parse_view)
    print_custom = staticmethod(syntax.print_view)

    def verify_op(self):
        dynamic = sum(1 for d in self.results[0].type.shape if d is None)
        if len(self.sizes) != dynamic:
            return (f"incorrect number of size operands for type {self.results[0].type}")
        return None


class ReshapeOp(MemRefOp):
    """The same data with a shape read from a 1-D shape buffer."""
    __slots__ = ()
    MNEMONIC = "reshape"
    RESULT_NAME = "reshape"
    OPERANDS = (Operand("source", ANY_MEMREF),
                Operand("shape", Pred(lambda t: _ranked(t) and len(t.shape) == 1
                                      and (str(t.element_type) == "index"
                                           or str(t.element_type).startswith("i")),
                                      "1D memref of signless integer or index values")))
    RESULTS = (Result("result", ANY_MEMREF),)
    parse_custom = staticmethod(syntax.parse_reshape)
    print_custom = staticmethod(syntax.print_reshape)


def _is_strided(t) -> bool:
    try:
        t.strides_and_offset()
    except ValueError:
        return False
    return True


STRIDED_MEMREF = Pred(lambda t: _ranked(t) and _is_strided(t), "strided memref of any type values",
                      _MEMREF_TYPE)


class ExpandShapeOp(MemRefOp):
    """Split dimensions (reassociation groups, output shape)."""
    __slots__ = ()
    MNEMONIC = "expand_shape"
    RESULT_NAME = "expand_shape"
    OPERANDS = (Operand("src", STRIDED_MEMREF), Operand("output_shape", INDEX, VARIADIC))
    RESULTS = (Result("result", STRIDED_MEMREF),)
    ATTRIBUTES = (Attr("reassociation", "i64_array_array"),
                  Attr("static_output_shape", "array_i64"))
    parse_custom = staticmethod(syntax.parse_expand_shape)
    print_custom = staticmethod(syntax.print_expand_shape)

    def verify_op(self):
        from ..scf.syntax import DYNAMIC
        src, result = self.operands[0].type, self.results[0].type
        r0, r1 = len(src.shape), len(result.shape)
        if r0 > r1:
            return (f"has source rank {r0} and result rank {r1}. This is not an expansion "
                    f"({r0} > {r1}).")
        msg = _verify_reshape_like(self, result, src)
        if msg:
            return msg
        expected = _expanded_type(src, result.shape, syntax.reassociation_groups(self))
        if expected is None:
            return "invalid source layout map"
        if expected != result:
            return f"expected expanded type to be '{expected}' but found '{result}'"
        static = self.attributes["static_output_shape"].value
        if len(static) != r1:
            return (f"expected number of static shape bounds to be equal to the output rank "
                    f"({r1}) but found {len(static)} inputs instead")
        dynamic = sum(1 for d in static if d == DYNAMIC)
        values = len(self.operands) - 1
        if values != dynamic:
            return (f"mismatch in dynamic dims in output_shape and static_output_shape: "
                    f"static_output_shape has {dynamic} dynamic dims while output_shape has "
                    f"{values} values")
        for pos, (size, given) in enumerate(zip(result.shape, static)):
            if size is not None and size != given:
                return f"invalid output shape provided at pos {pos}"
        return None


class CollapseShapeOp(MemRefOp):
    """Merge dimensions (reassociation groups)."""
    __slots__ = ()
    MNEMONIC = "collapse_shape"
    RESULT_NAME = "collapse_shape"
    OPERANDS = (Operand("src", STRIDED_MEMREF),)
    RESULTS = (Result("result", STRIDED_MEMREF),)
    ATTRIBUTES = (Attr("reassociation", "i64_array_array"),)
    parse_custom = staticmethod(syntax.parse_collapse_shape)
    print_custom = staticmethod(syntax.print_collapse_shape)

    def verify_op(self):
        from ..builtin.types import MemRefType
        src, result = self.operands[0].type, self.results[0].type
        r0, r1 = len(src.shape), len(result.shape)
        if r0 < r1:
            return (f"has source rank {r0} and result rank {r1}. This is not a collapse "
                    f"({r0} < {r1}).")
        msg = _verify_reshape_like(self, src, result)
        if msg:
            return msg
        layout = None
        if not src.has_identity_layout:
            layout = _collapsed_layout(src, syntax.reassociation_groups(self))
            if layout is None:
                return "invalid source layout map or collapsing non-contiguous dims"
        expected = MemRefType(result.shape, src.element_type, layout, src.memory_space)
        if expected != result:
            return f"expected collapsed type to be '{expected}' but found '{result}'"
        return None


def _saturated_mul(a: Optional[int], b: Optional[int]) -> Optional[int]:
    """MLIR's SaturatedInteger product: 0 if either is 0, else dynamic (None) if either is."""
    if a == 0 or b == 0:
        return 0
    if a is None or b is None:
        return None
    return a * b


def _expanded_type(src, shape, groups):
    """MLIR's ExpandShapeOp::computeExpandedType (None: the source layout is not strided)."""
    from ..builtin.types import MemRefType, StridedLayoutAttr
    if src.has_identity_layout:
        return MemRefType(shape, src.element_type, None, src.memory_space)
    try:
        strides, offset = src.strides_and_offset()
    except ValueError:
        return None
    reversed_strides: list = []
    index = len(shape) - 1
    for group, stride in reversed(list(zip(groups, strides))):
        for _ in group:
            reversed_strides.append(stride)
            stride = _saturated_mul(stride, shape[index])
            index -= 1
    result = list(reversed(reversed_strides))
    result += [1] * (len(shape) - len(result))
    return MemRefType(shape, src.element_type, StridedLayoutAttr(tuple(result[:len(shape)]),
                                                                 offset), src.memory_space)


def _collapsed_layout(src, groups):
    """MLIR's computeCollapsedLayoutMap (non-strict, as the verifier uses it): the strided
    layout of the collapsed memref, or None when the source is not strided or a group is
    visibly not contiguous."""
    from ..builtin.types import StridedLayoutAttr
    try:
        strides, offset = src.strides_and_offset()
    except ValueError:
        return None
    shape = src.shape
    result: list = []
    for group in groups:
        ref = list(group)
        while len(ref) > 1 and shape[ref[-1]] == 1:
            ref.pop()
        last = ref[-1]
        result.append(strides[last] if shape[last] is not None or len(ref) == 1 else None)
    for group, stride in zip(reversed(groups), reversed(result)):
        for idx in reversed(group[1:]):
            stride = _saturated_mul(stride, shape[idx])
            if shape[idx - 1] == 1:
                continue
            outer = strides[idx - 1]
            if stride is not None and outer is not None and stride != outer:
                return None
    return StridedLayoutAttr(tuple(result), offset)


def _mixed_lists(op, ranks) -> object:
    """MLIR's verifyListOfOperandsOrIntegers for offsets, sizes and strides."""
    from ..scf.syntax import verify_mixed_list
    for what, attr, group, rank in zip(("offset", "size", "stride"),
                                       ("static_offsets", "static_sizes", "static_strides"),
                                       ("offsets", "sizes", "strides"), ranks):
        msg = verify_mixed_list(what, rank, op.attributes[attr].value, getattr(op, group))
        if msg:
            return op_error(op, msg)
    return None


def _verify_reshape_like(op, expanded, collapsed):
    """The reassociation checks shared by expand_shape and collapse_shape."""
    groups = syntax.reassociation_groups(op)
    if len(groups) != len(collapsed.shape):
        return (f"invalid number of reassociation groups: found {len(groups)}, expected "
                f"{len(collapsed.shape)}")
    rank = len(expanded.shape)
    next_dim = 0
    for index, (dim, group) in enumerate(zip(collapsed.shape, groups)):
        # (as MLIR 22: each group's indices, then its sizes, group by group)
        for i in group:
            if i != next_dim:
                return "reassociation indices must be contiguous"
            if i >= rank:
                return f"reassociation index {i} is out of bounds"
            next_dim += 1
        sizes = [expanded.shape[i] for i in group]
        if (dim is None) != (None in sizes):
            return (f"collapsed dim ({index}) must be dynamic if and only if reassociation "
                    "group is dynamic")
        if dim is None:
            continue
        product = 1
        for size in sizes:
            product *= size
        if product != dim:
            return (f"collapsed dim size ({dim}) must equal reassociation group size "
                    f"({product})")
    if next_dim != rank:
        return (f"expanded rank ({rank}) inconsistent with number of reassociation indices "
                f"({next_dim})")
    return None


class TransposeOp(MemRefOp):
    """Permute the dimensions (the layout records the permuted strides)."""
    __slots__ = ()
    MNEMONIC = "transpose"
    RESULT_NAME = "transpose"
    OPERANDS = (Operand("in", MEMREF),)
    RESULTS = (Result("result", Pred(lambda t: _ranked(t) and _is_strided(t),
                                     "strided memref of any type values")),)
    ATTRIBUTES = (Attr("permutation", "affine_map"),)
    parse_custom = staticmethod(syntax.parse_transpose)
    print_custom = staticmethod(syntax.print_transpose)

    def verify_op(self):
        perm = self.attributes["permutation"].value
        source = self.operands[0].type
        dims = [getattr(r, "position", None) for r in perm.results]
        if perm.n_symbols or None in dims or sorted(dims) != list(range(perm.n_dims)) \
                or len(dims) != perm.n_dims:
            return "expected a permutation map"
        if perm.n_dims != len(source.shape):
            return "expected a permutation map of same rank as the input"
        canonical = _transposed_type(source, dims)
        result = self.results[0].type
        if canonical is not None and not _same_canonical_layout(result, canonical):
            return (f"result type '{result}' is not equivalent to the canonical transposed "
                    f"input type '{canonical}'")
        return None


def _same_canonical_layout(a, b) -> bool:
    """Whether memref types ``a`` and ``b`` are equal once their strided layouts are
    canonicalized (MLIR's canonicalizeStridedLayout): ``strided<[1, 8]>`` is the layout
    ``affine_map<(d0, d1) -> (d0 + d1 * 8)>``, ``strided<[8, 1]>`` on ``8x8`` the identity."""
    if a == b:
        return True
    if list(a.shape) != list(b.shape) or a.element_type != b.element_type or \
            a.memory_space != b.memory_space:
        return False
    try:
        return a.strides_and_offset() == b.strides_and_offset()
    except ValueError:
        return False


def _transposed_type(source, dims):
    """MLIR's inferTransposeResultType: the permuted shape with the permuted strides as a
    strided linear affine map (None for a non-strided source)."""
    from ..builtin.affine import (AffineConst, AffineDim, AffineMap, AffineMapAttr,
                                  AffineSymbol, affine_add, affine_mul)
    from ..builtin.types import MemRefType
    if dims == sorted(dims):
        return source  # the identity permutation keeps the type
    try:
        strides, offset = source.strides_and_offset()
    except ValueError:
        return None
    strides = [strides[d] for d in dims]
    n_symbols = 0
    if offset is None:
        expr = AffineSymbol(0)
        n_symbols = 1
    else:
        expr = AffineConst(offset)
    for i, stride in enumerate(strides):
        if stride is None:
            factor = AffineSymbol(n_symbols)
            n_symbols += 1
        else:
            factor = AffineConst(stride)
        expr = affine_add(expr, affine_mul(AffineDim(i), factor))
    layout = AffineMapAttr(AffineMap(len(dims), n_symbols, (expr,)))
    return MemRefType([source.shape[d] for d in dims], source.element_type, layout,
                      source.memory_space)
