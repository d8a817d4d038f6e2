"""The vector dialect's ops (MLIR 22): the core set (broadcast, extract/insert,
from_elements, loads and stores incl. masked and transfer forms, reduction, multi_reduction,
contract, fma, outerproduct, shuffle, casts, masks).  Declarative definitions; hand-written syntax from :mod:`.syntax`."""

from __future__ import annotations

import numpy as np

from ...ir.constraints import Pred
from ...ir.opdef import OPTIONAL, VARIADIC, Attr, OpBase, Operand, RegionDef, Result
from ...ir.traits import (AllRanksMatch, AllTypesMatch, InferResultTypes, NoRegionArguments, ParentOneOf,
                          Pure, TypesMatchWith,
                          RecursiveMemoryEffects, Terminator)
from ..scf.common import ANY, INDEX
from . import syntax

__all__ = ["VectorOp"]


def _is_vector(t) -> bool:
    return str(t).startswith("vector<")


#: ODS's C++ classes of the vector and memref constraints: a ``type($x)`` of another class is
#: a parse error (``invalid kind of type specified``)
_VECTOR_STORAGE = (_is_vector, "builtin.vector")
_MEMREF_STORAGE = (lambda t: type(t).__name__ == "MemRefType", "builtin.memref")
VECTOR = Pred(_is_vector, "vector of any type values", storage=_VECTOR_STORAGE)
MEMREF = Pred(lambda t: str(t).startswith("memref<") and not str(t).startswith("memref<*"),
              "memref of any type values", storage=_MEMREF_STORAGE)
SHAPED = Pred(lambda t: str(t).startswith(("memref<", "tensor<")),
              "shaped of any type values")
RANKED_TENSOR = Pred(lambda t: str(t).startswith("tensor<") and not str(t).startswith("tensor<*"),
                     "ranked tensor of any type values")
FLOAT_VECTOR = Pred(lambda t: _is_vector(t) and type(t.element_type).__name__ == "FloatType",
                    "vector of floating-point values", storage=_VECTOR_STORAGE)
MASK = Pred(lambda t: _is_vector(t) and str(t.element_type) == "i1",
            "vector of 1-bit signless integer values", storage=_VECTOR_STORAGE)


def _element(t):
    return getattr(t, "element_type", None)


def _element_or_self(t):
    return t.element_type if _is_vector(t) else t


def _same_element(from_: str, to: str, summary: str) -> TypesMatchWith:
    """ODS's ``TCresVTEtIsSameAsOp`` PredOpTrait: the element types (or the types themselves,
    for scalars) of ``from_`` and ``to`` agree."""
    return TypesMatchWith(summary, from_, to,
                          check=lambda a, b: _element_or_self(a) == _element_or_self(b))


class VectorOp(OpBase):
    """Base of the vector ops."""

    __slots__ = ()
    DIALECT_NAME = "vector"
    #: no OpAsmOpInterface default dialect: inside the regions op names are spelled in full
    DEFAULT_DIALECT = ""


class BroadcastOp(VectorOp):
    """Broadcast a scalar or vector to a larger vector."""
    __slots__ = ()
    MNEMONIC = "broadcast"
    OPERANDS = (Operand("source", ANY),)
    RESULTS = (Result("vector", VECTOR),)
    TRAITS = (Pure,)
    FORMAT = "$source attr-dict `:` type($source) `to` type($vector)"

    def verify_op(self):
        src, dst = self.operands[0].type, self.results[0].type
        if not _is_vector(src):
            if src != dst.element_type:
                return "failed to verify that source operand and result have same element type"
            return None
        s, d = src.shape, dst.shape
        if len(s) > len(d):
            return "source rank higher than destination rank"
        for a, b in zip(s, d[len(d) - len(s):]):
            if a != 1 and a != b:
                return (f"dimension mismatch ({a} vs. {b})")
        return None


class ExtractOp(VectorOp):
    """Extract an element or sub-vector at a (static or dynamic) position."""
    __slots__ = ()
    MNEMONIC = "extract"
    OPERANDS = (Operand("source", VECTOR), Operand("dynamic_position", INDEX, VARIADIC))
    RESULTS = (Result("result", ANY),)
    ATTRIBUTES = (Attr("static_position", "array_i64"),)
    TRAITS = (Pure, _same_element("source", "result",
                                  "operand and result have same element type"),
              InferResultTypes(lambda op: [_extracted_type(op)]))
    parse_custom = staticmethod(syntax.parse_extract)
    print_custom = staticmethod(syntax.print_extract)

    def verify_op(self):
        return _verify_position(self, self.operands[0].type, "", True)


def _extracted_type(op):
    """The result type vector.extract infers: the element at a full position, else the
    vector of the dimensions after the position."""
    from ..builtin.types import VectorType
    source = op.operands[0].type
    n = len(op.attributes["static_position"].value)
    if n >= len(source.shape):
        return source.element_type
    return VectorType(source.shape[n:], source.element_type, source.scalable[n:])


def _verify_position(op, vector, which: str, poison: bool):
    from ..memref.syntax import DYNAMIC
    position = op.attributes["static_position"].value
    rank = len(vector.shape)
    if len(position) > rank:
        return f"expected position attribute of rank no greater than {which}vector rank"
    if which:  # vector.insert: the position and the stored value make up the dest's rank
        stored = op.operands[0].type
        if _is_vector(stored):
            if len(stored.shape) + len(position) != rank:
                return "expected position attribute rank + source rank to match dest vector rank"
        elif len(position) != rank:
            return "expected position attribute rank to match the dest vector rank"
    n_dynamic = sum(1 for p in position if p == DYNAMIC)
    if n_dynamic != len(op.dynamic_position):
        return "mismatch between dynamic and static positions (kDynamic marker but no " \
               "corresponding dynamic position) -- this can only happen due to an " \
               "incorrect fold/rewrite"
    for i, p in enumerate(position):
        if p != DYNAMIC and not (p == -1 or 0 <= p < vector.shape[i]):
            return (f"expected position attribute #{i + 1} to be a non-negative integer "
                    f"smaller than the corresponding {which}vector dimension"
                    + (" or poison (-1)" if poison else ""))
    return None


class InsertOp(VectorOp):
    """Insert an element or sub-vector at a (static or dynamic) position."""
    __slots__ = ()
    MNEMONIC = "insert"
    OPERANDS = (Operand("valueToStore", ANY), Operand("dest", VECTOR),
                Operand("dynamic_position", INDEX, VARIADIC))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (Attr("static_position", "array_i64"),)
    TRAITS = (Pure, _same_element("valueToStore", "result",
                                  "source operand and result have same element type"),
              AllTypesMatch("dest", "result"))
    parse_custom = staticmethod(syntax.parse_insert)
    print_custom = staticmethod(syntax.print_insert)

    def verify_op(self):
        return _verify_position(self, self.operands[1].type, "dest ", False)


class FromElementsOp(VectorOp):
    """A vector from its elements."""
    __slots__ = ()
    MNEMONIC = "from_elements"
    OPERANDS = (Operand("elements", ANY, VARIADIC),)
    RESULTS = (Result("dest", VECTOR),)
    TRAITS = (Pure,)
    FORMAT = "$elements attr-dict `:` type($dest)"

    @classmethod
    def infer_parsed_types(cls, state) -> bool:
        dest = state.result_types.get("dest")
        uses = state.operands.get("elements")
        if dest and uses and "elements" not in state.operand_types:
            _require_vector_type(state, "dest", dest[0])
            # (one element per lane: a count mismatch is reported when the op is built)
            state.operand_types["elements"] = [dest[0].element_type] * dest[0].num_elements
            return True
        return False


def _require_vector_type(state, group: str, t) -> None:
    """``type($x)`` of a vector-typed operand or result: MLIR's generated parser accepts only a
    vector type there."""
    if not _is_vector(t):
        parser = state.parser
        raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: expected "
                           f"builtin.vector, but found '{t}'",
                           state.type_offsets.get(group, state.start))



#: the optional ``alignment`` of vector memory ops (MLIR: a positive power of two)
_ALIGNMENT = Attr("alignment", "i64", optional=True,
                  summary="64-bit signless integer attribute whose value is positive and "
                  "whose value is a power of two > 0",
                  check=lambda a: a.value > 0 and a.value & (a.value - 1) == 0)

class LoadOp(VectorOp):
    """Load a vector from a memref."""
    __slots__ = ()
    MNEMONIC = "load"
    OPERANDS = (Operand("base", MEMREF), Operand("indices", INDEX, VARIADIC))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (Attr("nontemporal", "bool", optional=True),
                  _ALIGNMENT)
    FORMAT = "$base `[` $indices `]` attr-dict `:` type($base) `,` type($result)"

    def verify_op(self):
        return _verify_memory_access(self, self.base.type, self.results[0].type,
                                     "destination memref has lower rank than the result vector",
                                     "result", "types")


class StoreOp(VectorOp):
    """Store a vector to a memref."""
    __slots__ = ()
    MNEMONIC = "store"
    OPERANDS = (Operand("valueToStore", VECTOR), Operand("base", MEMREF),
                Operand("indices", INDEX, VARIADIC))
    ATTRIBUTES = (Attr("nontemporal", "bool", optional=True),
                  _ALIGNMENT)
    FORMAT = ("$valueToStore `,` $base `[` $indices `]` attr-dict `:` type($base) `,` "
              "type($valueToStore)")

    def verify_op(self):
        return _verify_memory_access(self, self.base.type, self.valueToStore.type,
                                     "source memref has lower rank than the vector to store",
                                     "valueToStore", "type")


def _last_dim_unit_stride(memref) -> bool:
    """MLIR's ``isLastDimUnitStride``: a strided layout whose innermost stride is 1."""
    try:
        strides, _ = memref.strides_and_offset()
    except ValueError:
        return False
    return not strides or strides[-1] == 1


def _verify_memory_access(op, memref, vector, rank_message: str, what: str, noun: str):
    """vector.load / vector.store (as MLIR 22 checks them): a unit innermost stride unless one
    element moves, the vector fits the memref's rank, a vector element type is the vector's
    type, the element types agree, one index per dim."""
    shape = tuple(vector.shape)
    if not (len(shape) == 0 or int(np.prod(shape)) == 1) and not _last_dim_unit_stride(memref):
        return "most minor memref dim must have unit stride"
    rank = len(memref.shape)
    if len(vector.shape) > rank:
        return rank_message
    elem = memref.element_type
    if _is_vector(elem):
        if elem != vector:
            return f"base memref and {what} vector types should match"
        elem = elem.element_type
    if vector.element_type != elem:
        return f"base and {what} element {noun} should match"
    if len(op.indices) != rank:
        return f"requires {rank} indices"
    return None


class MaskedLoadOp(VectorOp):
    """Load the enabled lanes, others from a pass-through vector."""
    __slots__ = ()
    MNEMONIC = "maskedload"
    OPERANDS = (Operand("base", MEMREF), Operand("indices", INDEX, VARIADIC),
                Operand("mask", MASK), Operand("pass_thru", VECTOR))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (_ALIGNMENT,)
    FORMAT = ("$base `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` type($base) `,` "
              "type($mask) `,` type($pass_thru) `into` type($result)")

    def verify_op(self):
        base = self.operands[0].type
        result = self.results[0].type
        if base.element_type != result.element_type:
            return "base and result element type should match"
        if self.mask.type.shape != result.shape:
            return "expected result shape to match mask shape"
        if len(self.indices) != len(base.shape):
            return f"requires {len(base.shape)} indices"
        if self.pass_thru.type != result:
            return "expected pass_thru of same type as result type"
        return None


class MaskedStoreOp(VectorOp):
    """Store the enabled lanes."""
    __slots__ = ()
    MNEMONIC = "maskedstore"
    OPERANDS = (Operand("base", MEMREF), Operand("indices", INDEX, VARIADIC),
                Operand("mask", MASK), Operand("valueToStore", VECTOR))
    ATTRIBUTES = (_ALIGNMENT,)
    FORMAT = ("$base `[` $indices `]` `,` $mask `,` $valueToStore attr-dict `:` type($base) "
              "`,` type($mask) `,` type($valueToStore)")

    def verify_op(self):
        base = self.operands[0].type
        value = self.valueToStore.type
        if base.element_type != value.element_type:
            return "base and valueToStore element type should match"
        if len(self.indices) != len(base.shape):
            return f"requires {len(base.shape)} indices"
        return None


class ReductionOp(VectorOp):
    """Reduce a 1-D vector with a combining kind (optional accumulator)."""
    __slots__ = ()
    MNEMONIC = "reduction"
    OPERANDS = (Operand("vector", VECTOR), Operand("acc", ANY, OPTIONAL))
    RESULTS = (Result("dest", ANY),)
    ATTRIBUTES = (Attr("kind", "vector.kind"),
                  Attr("fastmath", "arith.fastmath", default=syntax.FASTMATH_NONE))
    TRAITS = (Pure,)
    parse_custom = staticmethod(syntax.parse_reduction)
    print_custom = staticmethod(syntax.print_reduction)

    def verify_op(self):
        vector = self.operands[0].type
        if len(vector.shape) > 1:
            return f"unsupported reduction rank: {len(vector.shape)}"
        dest = self.results[0].type
        if dest != vector.element_type:
            return f"failed to verify that source operand and result have same element type"
        kind = syntax.kind_of(self)
        is_float = str(dest)[:1] in "fb"
        if kind in ("minnumf", "maxnumf", "minimumf", "maximumf") and not is_float:
            return f"unsupported reduction type ''{dest}'' for kind '{kind}'"
        if kind in ("minui", "minsi", "maxui", "maxsi", "and", "or", "xor") and is_float:
            return f"unsupported reduction type ''{dest}'' for kind '{kind}'"
        return None


class FMAOp(VectorOp):
    """Elementwise fused multiply-add."""
    __slots__ = ()
    MNEMONIC = "fma"
    OPERANDS = (Operand("lhs", FLOAT_VECTOR), Operand("rhs", FLOAT_VECTOR),
                Operand("acc", FLOAT_VECTOR))
    RESULTS = (Result("result", FLOAT_VECTOR),)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "acc", "result"))
    FORMAT = "$lhs `,` $rhs `,` $acc attr-dict `:` type($lhs)"


class ShuffleOp(VectorOp):
    """Select lanes of two vectors by a mask of indices."""
    __slots__ = ()
    MNEMONIC = "shuffle"
    OPERANDS = (Operand("v1", VECTOR), Operand("v2", VECTOR))
    RESULTS = (Result("vector", VECTOR),)
    ATTRIBUTES = (Attr("mask", "array_i64"),)
    TRAITS = (Pure, _same_element("v1", "vector",
                                  "first operand v1 and result have same element type"),
              _same_element("v2", "vector",
                            "second operand v2 and result have same element type"))
    parse_custom = staticmethod(syntax.parse_shuffle)
    print_custom = staticmethod(syntax.print_shuffle)

    def verify_op(self):
        a, b = self.operands[0].type, self.operands[1].type
        if len(a.shape) != len(b.shape):
            return "rank mismatch"
        for i in range(1, len(a.shape)):
            if a.shape[i] != b.shape[i]:
                return f"dimension mismatch"
        total = (a.shape[0] if a.shape else 1) + (b.shape[0] if b.shape else 1)
        for i, m in enumerate(self.attributes["mask"].value):
            if m < -1 or m >= total:
                return f"mask index #{i + 1} out of range"
        return None


class _VectorCast(VectorOp):
    """Family of the vector-to-vector casts: ``%v : T to U``."""
    __slots__ = ()
    OPERANDS = (Operand("source", VECTOR),)
    RESULTS = (Result("result", VECTOR),)
    TRAITS = (Pure,)
    FORMAT = "$source attr-dict `:` type($source) `to` type($result)"


class BitCastOp(_VectorCast):
    """Reinterpret the bits of the minor dimension."""
    __slots__ = ()
    MNEMONIC = "bitcast"
    TRAITS = (Pure, AllRanksMatch("source", "result"))

    def verify_op(self):
        a, b = self.operands[0].type, self.results[0].type
        wa, wb = _bitwidth(a.element_type), _bitwidth(b.element_type)
        if wa is not None and wb is not None and a.shape and b.shape \
                and wa * a.shape[-1] != wb * b.shape[-1]:
            return "source/result bitwidth of the minor 1-D vectors must be equal"
        return None


def _bitwidth(t):
    import re
    m = re.search(r"([0-9]+)", str(t))
    return int(m.group(1)) if m and str(t)[:1] in "ifb" else None


class ShapeCastOp(_VectorCast):
    """The same elements in another shape."""
    __slots__ = ()
    MNEMONIC = "shape_cast"

    def verify_op(self):
        a, b = self.operands[0].type, self.results[0].type
        if a.element_type != b.element_type:
            return "has different source and result element types"
        if a.num_elements != b.num_elements:
            return (f"has different number of elements at source ({a.num_elements}) and "
                    f"result ({b.num_elements})")
        return None


class ConstantMaskOp(VectorOp):
    """A mask with a leading all-true hyper-rectangle of static sizes."""
    __slots__ = ()
    MNEMONIC = "constant_mask"
    RESULTS = (Result("result", MASK),)
    ATTRIBUTES = (Attr("mask_dim_sizes", "array_i64"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(syntax.parse_constant_mask)
    print_custom = staticmethod(syntax.print_constant_mask)

    def verify_op(self):
        t = self.results[0].type
        sizes = self.attributes["mask_dim_sizes"].value
        rank = max(len(t.shape), 1)
        if len(sizes) != rank:
            return "must specify array attr of size equal vector result rank"
        for i, s in enumerate(sizes):
            dim = t.shape[i] if t.shape else 1
            if s < 0 or s > dim:
                return ("array attr of size out of bounds of vector result dimension size")
        if 0 in sizes and any(sizes):
            return ("expected all mask dim sizes to be zeros, as a result of conjunction with "
                    "zero mask dim")
        return None


class CreateMaskOp(VectorOp):
    """A mask with a leading all-true hyper-rectangle of dynamic sizes."""
    __slots__ = ()
    MNEMONIC = "create_mask"
    OPERANDS = (Operand("operands", INDEX, VARIADIC),)
    RESULTS = (Result("result", MASK),)
    TRAITS = (Pure,)
    FORMAT = "$operands attr-dict `:` type($result)"

    def verify_op(self):
        rank = max(len(self.results[0].type.shape), 1)
        if len(self.operands) != rank:
            return "must specify an operand for each result vector dimension"
        return None


class TransferReadOp(VectorOp):
    """Read a vector from a memref/tensor (permutation map, padding, mask, bounds)."""
    __slots__ = ()
    MNEMONIC = "transfer_read"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("base", SHAPED), Operand("indices", INDEX, VARIADIC),
                Operand("padding", ANY), Operand("mask", MASK, OPTIONAL))
    RESULTS = (Result("vector", VECTOR),)
    ATTRIBUTES = (Attr("permutation_map", "affine_map"), Attr("in_bounds", "bool_array"))
    parse_custom = staticmethod(syntax.parse_transfer_read)
    print_custom = staticmethod(syntax.print_transfer_read)

    def verify_op(self):
        return _verify_transfer(self, self.base.type, self.results[0].type)


class TransferWriteOp(VectorOp):
    """Write a vector to a memref/tensor (permutation map, mask, bounds)."""
    __slots__ = ()
    MNEMONIC = "transfer_write"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("valueToStore", VECTOR), Operand("base", SHAPED),
                Operand("indices", INDEX, VARIADIC), Operand("mask", MASK, OPTIONAL))
    RESULTS = (Result("result", ANY, OPTIONAL),)
    ATTRIBUTES = (Attr("permutation_map", "affine_map"), Attr("in_bounds", "bool_array"))
    parse_custom = staticmethod(syntax.parse_transfer_write)
    print_custom = staticmethod(syntax.print_transfer_write)

    def verify_op(self):
        return _verify_transfer(self, self.base.type, self.valueToStore.type)


def _verify_transfer(op, shaped, vector):
    """The checks of vector.transfer_read/write, in MLIR's order (the op's own verifier around
    verifyTransferOp and verifyPermutationMap)."""
    rank = len(shaped.shape)
    if len(op.indices) != rank:
        return "requires " + str(rank) + " indices"
    perm = op.attributes["permutation_map"].value
    from ..builtin.affine import AffineConst, AffineDim
    if op.name == "vector.transfer_write" and \
            any(isinstance(r, AffineConst) and r.value == 0 for r in perm.results):
        return "should not have broadcast dimensions"
    elem = shaped.element_type
    vshape = tuple(vector.shape)
    mask = op.mask.type if op.mask is not None else None
    if _is_vector(elem):
        src_bits, dst_bits = _transfer_bits(elem.element_type), \
            _transfer_bits(vector.element_type)
        if src_bits and dst_bits is not None and vshape and elem.shape and \
                (dst_bits * vshape[-1]) % (src_bits * elem.shape[-1]):
            return ("requires the bitwidth of the minor 1-D vector to be an integral multiple "
                    "of the bitwidth of the minor 1-D vector of the source")
        if len(elem.shape) > len(vshape):
            return "requires source vector element and vector result ranks to match."
        if len(perm.results) != len(vshape) - len(elem.shape):
            return "requires a permutation_map with result dims of the same rank as the vector type"
        if mask is not None:
            return "does not support masks with vector element type"
    else:
        src_bits, dst_bits = _transfer_bits(elem), _transfer_bits(vector.element_type)
        if src_bits and dst_bits is not None and \
                (dst_bits * (vshape[-1] if vshape else 1)) % src_bits:
            return ("requires the bitwidth of the minor 1-D vector to be an integral multiple "
                    "of the bitwidth of the source element type")
        if len(perm.results) != len(vshape):
            return "requires a permutation_map with result dims of the same rank as the vector type"
    if perm.n_symbols:
        return "requires permutation_map without symbols"
    if perm.n_dims != rank:
        return "requires a permutation_map with input dims of the same rank as the source type"
    if mask is not None:
        want = syntax.mask_type_for(op.attributes["permutation_map"], vector)
        if mask != want:
            return f"inferred mask type ('{want}') and mask operand type ('{mask}') don't match"
    bounds = op.attributes["in_bounds"].value
    if len(bounds) != len(perm.results):
        return ("expects the in_bounds attr of same rank as permutation_map results: "
                f"{op.attributes['permutation_map']} vs inBounds of size: {len(bounds)}")
    if op.name == "vector.transfer_read":
        pad = op.padding.type
        if _is_vector(elem):
            if pad != elem:
                return "requires source element type and padding type to match."
        elif pad != elem:
            return "requires formal padding and source of the same elemental type"
    used: set = set()
    for r in perm.results:
        if isinstance(r, AffineConst) and r.value == 0:
            continue
        if not isinstance(r, AffineDim):
            return ("requires a projected permutation_map (at most one dim or the zero "
                    "constant can appear in each result)")
        if r.position in used:
            return "requires a permutation_map that is a permutation (found one dim used more " \
                   "than once)"
        used.add(r.position)
    return None


def _transfer_bits(t) -> "int | None":
    """A scalar type's size in bits as MLIR's default data layout gives it (index: 64)."""
    return 64 if str(t) == "index" else _bitwidth(t)


# ---------------------------------------------------------------------------------------------
# Further ops with declarative syntax
# ---------------------------------------------------------------------------------------------

INDEX_VECTOR = Pred(lambda t: _is_vector(t) and len(t.shape) == 1
                    and str(t.element_type) == "index", "vector of index values of ranks 1")


class StepOp(VectorOp):
    """The vector 0, 1, 2, ..."""
    __slots__ = ()
    MNEMONIC = "step"
    RESULTS = (Result("result", INDEX_VECTOR),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict `:` type($result)"


class VectorScaleOp(VectorOp):
    """The runtime multiple of scalable vector sizes."""
    __slots__ = ()
    MNEMONIC = "vscale"
    RESULTS = (Result("res", INDEX),)
    TRAITS = (Pure,)
    FORMAT = "attr-dict"

    def asm_result_names(self):
        return ["vscale"]


class TransposeOp(VectorOp):
    """Permute the dimensions of a vector."""
    __slots__ = ()
    MNEMONIC = "transpose"
    OPERANDS = (Operand("vector", VECTOR),)
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (Attr("permutation", "array_i64"),)
    TRAITS = (Pure,)
    parse_custom = staticmethod(syntax.parse_transpose)
    print_custom = staticmethod(syntax.print_transpose)

    def verify_op(self):
        a, b = self.operands[0].type, self.results[0].type
        perm = self.attributes["permutation"].value
        if len(a.shape) != len(b.shape):
            return "vector result rank mismatch: " + str(len(b.shape))
        if len(perm) != len(a.shape):
            return "transposition length mismatch: " + str(len(perm))
        seen: set = set()
        for p in perm:
            if p in seen:
                return f"duplicate position index: {p}"
            if not 0 <= p < len(perm):
                return f"transposition index out of range: {p}"
            seen.add(p)
        for i, p in enumerate(perm):
            if b.shape[i] != a.shape[p]:
                return f"dimension size mismatch at: {i}"
        return None


class ExtractStridedSliceOp(VectorOp):
    """A strided slice of a vector."""
    __slots__ = ()
    MNEMONIC = "extract_strided_slice"
    OPERANDS = (Operand("source", VECTOR),)
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (Attr("offsets", "i64_array"), Attr("sizes", "i64_array"),
                  Attr("strides", "i64_array"))
    TRAITS = (Pure, _same_element("source", "result", "operand and result have same element type"))
    FORMAT = "$source attr-dict `:` type($source) `to` type($result)"

    def verify_op(self):
        from ..builtin.types import VectorType
        source = self.operands[0].type
        offsets, sizes, strides = (_ints(self, n) for n in ("offsets", "sizes", "strides"))
        if not len(offsets) == len(sizes) == len(strides):
            return "expected offsets, sizes and strides attributes of same size"
        shape = source.shape
        for name, values in (("offsets", offsets), ("sizes", sizes), ("strides", strides)):
            if len(values) > len(shape):
                return f"expected {name} attribute of rank no greater than vector rank"
        return (_confined_to_shape("offsets", offsets, shape, 0, 0)
                or _confined_to_shape("sizes", sizes, shape, 1, 1)
                or _confined_to_range("strides", strides)
                or _sum_confined("offsets", "sizes", offsets, sizes, shape)
                or self._result_type(VectorType))

    def _result_type(self, VectorType):
        source = self.operands[0].type
        sizes = _ints(self, "sizes")
        want = VectorType(tuple(sizes) + tuple(source.shape[len(sizes):]),
                          source.element_type, source.scalable)
        if self.results[0].type != want:
            return f"expected result type to be '{want}'"
        return None


def _ints(op, name: str) -> list:
    return [int(getattr(a, "value", a)) for a in op.attributes[name].value]


def _confined_to_shape(name: str, values, shape, low: int, extra: int):
    """MLIR's isIntegerArrayAttrConfinedToShape: ``low <= v < dim + extra``."""
    for i, (v, dim) in enumerate(zip(values, shape)):
        if not low <= v < dim + extra:
            return f"expected {name} dimension {i} to be confined to [{low}, {dim + extra})"
    return None


def _confined_to_range(name: str, values):
    """The strides of the strided-slice ops: all 1 (MLIR: confined to [1, 2))."""
    if any(v != 1 for v in values):
        return f"expected {name} to be confined to [1, 2)"
    return None


def _sum_confined(name1: str, name2: str, values1, values2, shape):
    for i, (a, b, dim) in enumerate(zip(values1, values2, shape)):
        if not 0 <= a + b < dim + 1:
            return f"expected sum({name1}, {name2}) dimension {i} to be confined to [1, {dim + 1})"
    return None


class InsertStridedSliceOp(VectorOp):
    """Insert a vector as a strided slice of another."""
    __slots__ = ()
    MNEMONIC = "insert_strided_slice"
    OPERANDS = (Operand("valueToStore", VECTOR), Operand("dest", VECTOR))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (Attr("offsets", "i64_array"), Attr("strides", "i64_array"))
    TRAITS = (Pure, _same_element("valueToStore", "result",
                                  "operand #0 and result have same element type"),
              AllTypesMatch("dest", "result"))
    FORMAT = ("$valueToStore `,` $dest attr-dict `:` type($valueToStore) `into` type($dest)")

    def verify_op(self):
        source, dest = self.operands[0].type, self.operands[1].type
        offsets, strides = _ints(self, "offsets"), _ints(self, "strides")
        if len(offsets) != len(dest.shape):
            return "expected offsets of same size as destination vector rank"
        if len(strides) != len(source.shape):
            return "expected strides of same size as source vector rank"
        if len(source.shape) > len(dest.shape):
            return "expected source rank to be no greater than destination rank"
        padded = (0,) * (len(dest.shape) - len(source.shape)) + tuple(source.shape)
        return (_confined_to_shape("offsets", offsets, dest.shape, 0, 0)
                or _confined_to_range("strides", strides)
                or _sum_confined("offsets", "source vector shape", offsets, padded, dest.shape))


class GatherOp(VectorOp):
    """Load lanes from base + offsets + index vector, masked."""
    __slots__ = ()
    MNEMONIC = "gather"
    OPERANDS = (Operand("base", SHAPED), Operand("offsets", INDEX, VARIADIC),
                Operand("indices", VECTOR), Operand("mask", MASK), Operand("pass_thru", VECTOR))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (_ALIGNMENT,)
    FORMAT = ("$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $pass_thru attr-dict `:` "
              "type($base) `,` type($indices) `,` type($mask) `,` type($pass_thru) `into` "
              "type($result)")

    def verify_op(self):
        return _verify_indexed_access(self, self.results[0].type, "result", self.indices.type)


class ScatterOp(VectorOp):
    """Store lanes to base + offsets + index vector, masked.  On a tensor base MLIR 22 gives
    it a result, the updated tensor (``-> tensor<...>``); its verifier checks neither that a
    tensor base has one nor that its type is the base's."""
    __slots__ = ()
    MNEMONIC = "scatter"
    OPERANDS = (Operand("base", SHAPED), Operand("offsets", INDEX, VARIADIC),
                Operand("indices", VECTOR), Operand("mask", MASK),
                Operand("valueToStore", VECTOR))
    RESULTS = (Result("result", RANKED_TENSOR, OPTIONAL),)
    ATTRIBUTES = (_ALIGNMENT,)
    FORMAT = ("$base `[` $offsets `]` `[` $indices `]` `,` $mask `,` $valueToStore attr-dict "
              "`:` type($base) `,` type($indices) `,` type($mask) `,` type($valueToStore) "
              "(`->` type($result)^)?")

    def verify_op(self):
        return _verify_indexed_access(self, self.valueToStore.type, "valueToStore",
                                      self.indices.type)


class ExpandLoadOp(VectorOp):
    """Load consecutive elements into the enabled lanes."""
    __slots__ = ()
    MNEMONIC = "expandload"
    OPERANDS = (Operand("base", MEMREF), Operand("indices", INDEX, VARIADIC),
                Operand("mask", MASK), Operand("pass_thru", VECTOR))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (_ALIGNMENT,)
    FORMAT = MaskedLoadOp.FORMAT

    def verify_op(self):
        return _verify_indexed_access(self, self.results[0].type, "result")


class CompressStoreOp(VectorOp):
    """Store the enabled lanes to consecutive elements."""
    __slots__ = ()
    MNEMONIC = "compressstore"
    OPERANDS = (Operand("base", MEMREF), Operand("indices", INDEX, VARIADIC),
                Operand("mask", MASK), Operand("valueToStore", VECTOR))
    ATTRIBUTES = (_ALIGNMENT,)
    FORMAT = MaskedStoreOp.FORMAT

    def verify_op(self):
        return _verify_indexed_access(self, self.valueToStore.type, "valueToStore")


def _verify_indexed_access(op, vector, what: str, indices=None):
    """MLIR's checks of gather/scatter (``indices``: the index vector's type) and
    expandload/compressstore (1-D: the leading dims are compared)."""
    base = op.operands[0].type
    if base.element_type != vector.element_type:
        return f"base and {what} element type should match"
    offsets = op.operands[1:1 + len(op.operands) - (4 if indices is not None else 3)]
    if len(offsets) != len(base.shape):
        return f"requires {len(base.shape)} indices"
    mask = op.operands[-2].type
    if indices is not None:
        if tuple(vector.shape) != tuple(indices.shape):
            return f"expected {what} dim to match indices dim"
        if tuple(vector.shape) != tuple(mask.shape):
            return f"expected {what} dim to match mask dim"
    elif vector.shape[:1] != mask.shape[:1]:
        return f"expected {what} dim to match mask dim"
    if what == "result" and op.operands[-1].type != vector:
        return "expected pass_thru of same type as result type"
    return None


def _resized_trailing(t, mul: int, div: int):
    """``t`` with its trailing dimension times ``mul // div`` (a 0-D vector becomes 1-D)."""
    from ..builtin.types import VectorType
    shape = tuple(t.shape) or (1,)
    scalable = tuple(t.scalable) or (False,)
    return VectorType(shape[:-1] + (shape[-1] * mul // div,), t.element_type, scalable)


class InterleaveOp(VectorOp):
    """Interleave the lanes of two vectors."""
    __slots__ = ()
    MNEMONIC = "interleave"
    OPERANDS = (Operand("lhs", VECTOR), Operand("rhs", VECTOR))
    RESULTS = (Result("result", VECTOR),)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs"),
              TypesMatchWith("type of 'result' is double the width of the inputs", "lhs",
                             "result", check=lambda a, b: _resized_trailing(a, 2, 1) == b))
    FORMAT = "$lhs `,` $rhs attr-dict `:` type($lhs) `->` type($result)"


class DeinterleaveOp(VectorOp):
    """Split the even and odd lanes of a vector."""
    __slots__ = ()
    MNEMONIC = "deinterleave"
    OPERANDS = (Operand("source", VECTOR),)
    RESULTS = (Result("res1", VECTOR), Result("res2", VECTOR))
    TRAITS = (Pure, AllTypesMatch("res1", "res2"),
              TypesMatchWith("the trailing dimension of the source vector has an even number "
                             "of elements", "source", "source",
                             check=lambda a, b: not a.shape or a.shape[-1] % 2 == 0),
              TypesMatchWith("the trailing dimension of the results is half the width of "
                             "source trailing dimension", "source", "res1",
                             check=lambda a, b: _resized_trailing(a, 1, 2) == b))
    FORMAT = "$source attr-dict `:` type($source) `->` type($res1)"


class ToElementsOp(VectorOp):
    """The elements of a vector."""
    __slots__ = ()
    MNEMONIC = "to_elements"
    OPERANDS = (Operand("source", VECTOR),)
    RESULTS = (Result("elements", ANY, VARIADIC),)
    TRAITS = (Pure,)
    FORMAT = "$source attr-dict `:` type($source)"

    @classmethod
    def infer_parsed_types(cls, state) -> bool:
        source = state.operand_types.get("source")
        if source and "elements" not in state.result_types:
            t = source[0]
            _require_vector_type(state, "source", t)
            state.result_types["elements"] = [t.element_type] * t.num_elements
            return True
        return False


class OuterProductOp(VectorOp):
    """Outer product (or AXPY with a scalar) with an optional accumulator."""
    __slots__ = ()
    MNEMONIC = "outerproduct"
    OPERANDS = (Operand("lhs", VECTOR), Operand("rhs", ANY), Operand("acc", VECTOR, OPTIONAL))
    RESULTS = (Result("result", VECTOR),)
    ATTRIBUTES = (Attr("kind", "vector.kind"),)
    TRAITS = (Pure, _same_element("lhs", "result", "lhs operand and result have same element type"),
              _same_element("rhs", "result", "rhs operand and result have same element type"))
    parse_custom = staticmethod(syntax.parse_outerproduct)
    print_custom = staticmethod(syntax.print_outerproduct)

    def verify_op(self):
        lhs, rhs = self.operands[0].type, self.operands[1].type
        result = self.results[0].type
        if len(lhs.shape) != 1:
            return "expected 1-d vector for operand #1"
        if _is_vector(rhs):
            if len(rhs.shape) != 1:
                return "expected 1-d vector for operand #2"
            if len(result.shape) != 2:
                return "expected 2-d vector result"
            if lhs.shape[0] != result.shape[0]:
                return "expected #1 operand dim to match result dim #1"
            if rhs.shape[0] != result.shape[1]:
                return "expected #2 operand dim to match result dim #2"
        elif len(result.shape) != 1:
            return "expected 1-d vector result"
        if self.acc is not None and self.acc.type != result:
            return "expected operand #3 of same type as result type"
        if not kind_supports(syntax.kind_of(self), result.element_type):
            return "unsupported outerproduct type"
        return None


class PrintOp(VectorOp):
    """Print a value, a string or punctuation (for debugging)."""
    __slots__ = ()
    MNEMONIC = "print"
    OPERANDS = (Operand("source", ANY, OPTIONAL),)
    ATTRIBUTES = (Attr("punctuation", "vector.punctuation", default=syntax.PUNCTUATION_NEWLINE),
                  Attr("stringLiteral", "str", optional=True))
    parse_custom = staticmethod(syntax.parse_print)
    print_custom = staticmethod(syntax.print_print)

    def verify_op(self):
        if "stringLiteral" in self.attributes and (
                self.operands or self.attributes.get("punctuation",
                                                     syntax.PUNCTUATION_NEWLINE)
                != syntax.PUNCTUATION_NEWLINE):
            return ("failed to verify that `source` or `punctuation` are not set when "
                    "printing strings")
        return None


class ContractionOp(VectorOp):
    """``vector.contract {indexing_maps, iterator_types, kind} %lhs, %rhs, %acc : L, R into A``:
    a generalised matrix product: over the iteration space, every ``parallel`` position of the
    result combines (``kind``) the accumulator with the products ``lhs * rhs`` of the
    ``reduction`` positions; the three maps (projected permutations of the iteration space) say
    which iteration dimensions index each operand."""
    __slots__ = ()
    MNEMONIC = "contract"
    OPERANDS = (Operand("lhs", VECTOR), Operand("rhs", VECTOR), Operand("acc", ANY),
                Operand("masks", MASK, VARIADIC))
    RESULTS = (Result("result", ANY),)
    ATTRIBUTES = (Attr("indexing_maps", "array"), Attr("iterator_types", "array"),
                  Attr("kind", "vector.kind", default=syntax.KIND_ADD))
    TRAITS = (Pure,)
    parse_custom = staticmethod(syntax.parse_contract)
    print_custom = staticmethod(syntax.print_contract)

    def verify_op(self):
        maps = contraction_maps(self)
        iterators = contraction_iterators(self)
        if maps is None:
            return "expected an indexing map for each operand"
        if iterators is None:
            return "expected iterator types 'parallel' or 'reduction'"
        if self.masks:
            return "masked contractions are not supported (use vector.mask)"
        ranks = [len(getattr(v.type, "shape", ())) for v in self.operands[:3]]
        for k, (amap, rank) in enumerate(zip(maps, ranks)):
            if amap is None:
                return f"expected indexing map {k} to be a projected permutation of its inputs"
            if amap.n_dims != len(iterators):
                return f"expected indexing map {k} to have {len(iterators)} dimensions"
            if len(amap.dims) != rank:
                return f"expected indexing map {k} to have {rank} results"
        if not any(iterators[d] == "reduction" and d in maps[1].dims for d in maps[0].dims):
            return "expected at least one contracting dimension pair"
        extent: dict[int, int] = {}
        for amap, v in zip(maps, self.operands[:3]):
            for d, n in zip(amap.dims, getattr(v.type, "shape", ())):
                if extent.setdefault(d, n) != n:
                    return "expected the operands to agree on the extent of each dimension"
        if any(d not in extent for d in range(len(iterators))):
            return "expected every iteration dimension to index an operand"
        if self.results[0].type != self.operands[2].type:
            return "expected the result type to be the accumulator type"
        return None


class _Projection:
    """A projected-permutation affine map as the list of iteration dimensions of its results."""

    __slots__ = ("n_dims", "dims")

    def __init__(self, n_dims: int, dims: list[int]) -> None:
        self.n_dims, self.dims = n_dims, dims


def contraction_maps(op) -> "list[_Projection] | None":
    """``indexing_maps`` of a ``vector.contract`` as projections (None where one is not a
    projected permutation: then that entry is None; None for a malformed attribute)."""
    from ..builtin.affine import AffineDim, AffineMapAttr
    attr = op.attributes.get("indexing_maps")
    values = getattr(attr, "value", None)
    if values is None or len(values) != 3:
        return None
    out = []
    for a in values:
        if not isinstance(a, AffineMapAttr):
            return None
        amap = a.value
        if amap.n_symbols or not all(isinstance(r, AffineDim) for r in amap.results):
            out.append(None)
            continue
        dims = [r.position for r in amap.results]
        out.append(_Projection(amap.n_dims, dims) if len(set(dims)) == len(dims) else None)
    return out


def contraction_iterators(op) -> "list[str] | None":
    """``iterator_types`` as ``'parallel'`` / ``'reduction'`` strings (None if malformed)."""
    attr = op.attributes.get("iterator_types")
    values = getattr(attr, "value", None)
    if values is None:
        return None
    out = []
    for v in values:
        text = getattr(v, "value", None)
        if not isinstance(text, str):
            text = str(v)
            if text.startswith("#vector.iterator_type<"):
                text = text[len("#vector.iterator_type<"):-1]
        if text not in ("parallel", "reduction"):
            return None
        out.append(text)
    return out


class MultiDimReductionOp(VectorOp):
    """``vector.multi_reduction <kind>, %src, %acc [dims] : S to A``: reduce the dimensions
    ``reduction_dims`` of ``src``, combined with ``acc`` (the shape of the kept dimensions)."""
    __slots__ = ()
    MNEMONIC = "multi_reduction"
    OPERANDS = (Operand("source", VECTOR), Operand("acc", ANY))
    RESULTS = (Result("dest", ANY),)
    ATTRIBUTES = (Attr("kind", "vector.kind"), Attr("reduction_dims", "array_i64"))
    TRAITS = (Pure, _same_element("source", "dest",
                                  "source operand and result have same element type"),
              AllTypesMatch("dest", "acc"))
    parse_custom = staticmethod(syntax.parse_multi_reduction)
    print_custom = staticmethod(syntax.print_multi_reduction)

    def verify_op(self):
        src = self.operands[0].type
        # (MLIR ignores reduction dims out of range and counts repeated ones once)
        dims = [int(d) for d in self.attributes["reduction_dims"].value]
        kept = tuple(n for d, n in enumerate(src.shape) if d not in dims)
        dest = self.results[0].type
        want = tuple(getattr(dest, "shape", ()))
        if want != kept or (not kept and dest != src.element_type) or \
                (kept and dest.element_type != src.element_type):
            return f"destination type '{dest}' is incompatible with source type '{src}'"
        return None


def kind_supports(kind: str, element) -> bool:
    """Whether the combining ``kind`` applies to ``element`` (MLIR's
    isSupportedCombiningKind): add/mul any int, index or float; the integer kinds ints and
    index; the float kinds floats."""
    is_float = str(element)[:1] in "fbt"
    if kind in ("minnumf", "maxnumf", "minimumf", "maximumf"):
        return is_float
    if kind in ("minui", "minsi", "maxui", "maxsi", "and", "or", "xor"):
        return not is_float
    return True


VECTOR_ND = Pred(lambda t: _is_vector(t) and len(t.shape) > 0, "vector of any type values")


class ScanOp(VectorOp):
    """``vector.scan <kind>, %source, %initial_value {inclusive = b, reduction_dim = d} : S, I``:
    the prefix combination (``kind``) of ``source`` along dimension ``reduction_dim``, seeded by
    ``initial_value`` (the shape of ``source`` without that dimension); inclusive scans include
    the element itself, exclusive ones end one step earlier.  The second result is the last
    accumulated value."""
    __slots__ = ()
    MNEMONIC = "scan"
    OPERANDS = (Operand("source", VECTOR_ND), Operand("initial_value", VECTOR))
    RESULTS = (Result("dest", VECTOR_ND), Result("accumulated_value", VECTOR))
    ATTRIBUTES = (Attr("inclusive", "bool"), Attr("kind", "vector.kind"),
                  Attr("reduction_dim", "i64"))
    TRAITS = (Pure, AllTypesMatch("source", "dest"),
              AllTypesMatch("initial_value", "accumulated_value"))
    parse_custom = staticmethod(syntax.parse_scan)
    print_custom = staticmethod(syntax.print_scan)

    def asm_result_names(self):
        return ["dest", "accumulated_value"]

    def verify_op(self):
        src, init = self.operands[0].type, self.operands[1].type
        rank = len(src.shape)
        dim = int(self.attributes["reduction_dim"].value)
        if dim >= rank:
            return f"reduction dimension {dim} has to be less than {rank}"
        if len(init.shape) != rank - 1:
            return f"initial value rank {len(init.shape)} has to be equal to {rank - 1}"
        if tuple(init.shape) != tuple(n for d, n in enumerate(src.shape) if d != dim):
            return "incompatible input/initial value shapes"
        kind = syntax.kind_of(self)
        element = self.results[0].type.element_type
        if not kind_supports(kind, element):
            return f"unsupported reduction type '{element}' for kind '{kind}'"
        return None


STATIC_MEMREF = Pred(lambda t: type(t).__name__ == "MemRefType" and None not in t.shape,
                     "statically shaped memref of any type values")


def _scalar_and_shape(t) -> tuple:
    """A memref's underlying scalar type and its shape with its vector element's appended."""
    elem = t.element_type
    if _is_vector(elem):
        return elem.element_type, tuple(t.shape) + tuple(elem.shape)
    return elem, tuple(t.shape)


def _canonical_identity(t) -> bool:
    """MLIR's ``canonicalizeStridedLayout(t).getLayout().isIdentity()`` for a static shape: an
    identity layout, or a strided one that is row-major without offset."""
    if t.has_identity_layout:
        return True
    try:
        strides, offset = t.strides_and_offset()
    except ValueError:
        return False
    from ..builtin.types import identity_strides
    return offset == 0 and tuple(strides) == identity_strides(t.shape)


class TypeCastOp(VectorOp):
    """``vector.type_cast %m : memref<5x4xf32> to memref<vector<5x4xf32>>``: the same memory
    seen with (some of) its trailing dimensions as the element vector."""
    __slots__ = ()
    MNEMONIC = "type_cast"
    OPERANDS = (Operand("memref", STATIC_MEMREF),)
    RESULTS = (Result("result", MEMREF),)
    TRAITS = (Pure,)
    FORMAT = "$memref attr-dict `:` type($memref) `to` type($result)"

    @classmethod
    def infer_parsed_types(cls, state) -> bool:
        parser = getattr(state, "parser", None)
        for group in ("memref", "result"):
            types = state.known_types(group)
            if types and type(types[0]).__name__ != "MemRefType":
                if parser is None:   # the parser's fast path: leave the op to the full parser
                    raise ValueError("not a memref type")
                raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: "
                                   f"expected builtin.memref, but found '{types[0]}'",
                                   state.type_offsets.get(group, state.start))
        return False

    def verify_op(self):
        source, result = self.operands[0].type, self.results[0].type
        if not _canonical_identity(source):
            return "expects operand to be a memref with identity layout"
        if not result.has_identity_layout:
            return "expects result to be a memref with identity layout"
        if source.memory_space != result.memory_space:
            return "expects result in same memory space"
        (s_elem, s_shape), (r_elem, r_shape) = _scalar_and_shape(source), \
            _scalar_and_shape(result)
        if s_elem != r_elem:
            return f"expects result and operand with same underlying scalar type: '{result}'"
        if s_shape != r_shape:
            return f"expects concatenated result and operand shapes to be equal: '{result}'"
        return None


#: the ops vector.mask may enclose (MLIR 22's MaskableOpInterface implementers; scatter,
#: expandload, compressstore, maskedload/maskedstore, load/store and scan are not among them)
MASKABLE = frozenset({"vector.transfer_read", "vector.transfer_write", "vector.reduction",
                      "vector.multi_reduction", "vector.contract", "vector.gather",
                      "vector.outerproduct"})

#: the maskable ops whose vector.mask may take a passthru value (MLIR's supportsPassthru)
MASK_PASSTHRU = frozenset({"vector.transfer_read"})


class YieldOp(VectorOp):
    """``vector.yield %v, ... : T, ...``: ends a ``vector.mask`` region."""
    __slots__ = ()
    MNEMONIC = "yield"
    OPERANDS = (Operand("operands", ANY, VARIADIC),)
    TRAITS = (Pure, Terminator(), ParentOneOf("vector.mask"))
    FORMAT = "attr-dict ($operands^ `:` type($operands))?"


class MaskOp(VectorOp):
    """``vector.mask %mask[, %passthru] { maskable op } : M [-> T]``: run one maskable op on
    the lanes ``mask`` selects; masked-off result lanes come from ``passthru`` when given."""
    __slots__ = ()
    MNEMONIC = "mask"
    OPERANDS = (Operand("mask", MASK), Operand("passthru", ANY, OPTIONAL))
    RESULTS = (Result("results", ANY, VARIADIC),)
    REGIONS = (RegionDef("maskRegion", "any"),)
    TRAITS = (RecursiveMemoryEffects, NoRegionArguments())
    parse_custom = staticmethod(syntax.parse_mask)
    print_custom = staticmethod(syntax.print_mask)

    def verify_op(self):
        blocks = self.regions[0].blocks
        if len(blocks) != 1:
            return "expects a single block in the mask region"
        ops = blocks[0].ops
        if not ops or ops[-1].name != "vector.yield":
            return "expects the mask region to end with 'vector.yield'"
        if len(ops) == 1:
            return None
        if len(ops) > 2:
            return "expects only one operation to mask"
        inner = ops[0]
        if inner.name not in MASKABLE:
            return "expects a MaskableOpInterface within the mask region"
        if [r.type for r in self.results] != [r.type for r in inner.results]:
            return "expects result type to match maskable operation result type"
        want = expected_mask_shape(inner)
        mask = self.operands[0].type
        if want is not None and tuple(mask.shape) != want:
            from ..builtin.types import VectorType
            from ...ir.types import I1
            return f"expects a '{VectorType(want, I1)}' mask for the maskable operation"
        if self.passthru is not None:
            if inner.name not in MASK_PASSTHRU:
                return "doesn't expect a passthru argument for this maskable operation"
            if len(inner.results) != 1:
                return "expects result when passthru argument is provided"
            if self.passthru.type != inner.results[0].type:
                return "expects passthru type to match result type"
        return None


def expected_mask_shape(op) -> "tuple | None":
    """The shape of the mask a maskable op takes (its vector, or iteration space)."""
    name = op.name
    if name in ("vector.reduction", "vector.multi_reduction"):
        return tuple(op.operands[0].type.shape)
    if name in ("vector.gather", "vector.outerproduct"):
        return tuple(op.results[0].type.shape)
    if name in ("vector.transfer_read", "vector.transfer_write"):
        vtype = op.operands[0].type if name.endswith("write") else op.results[0].type
        return tuple(syntax.mask_type_for(op.attributes["permutation_map"], vtype).shape)
    if name == "vector.contract":
        maps = contraction_maps(op)
        if maps is None or any(m is None for m in maps):
            return None
        extent: dict[int, int] = {}
        for amap, v in zip(maps, op.operands[:3]):
            for d, n in zip(amap.dims, getattr(v.type, "shape", ())):
                extent[d] = n
        return tuple(extent.get(d, 1) for d in range(maps[0].n_dims))
    return None
