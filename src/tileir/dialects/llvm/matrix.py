"""LLVM's matrix intrinsics as MLIR 22 spells them: ``llvm.intr.matrix.multiply``,
``llvm.intr.matrix.transpose``, ``llvm.intr.matrix.column.major.load`` and
``llvm.intr.matrix.column.major.store``.

A matrix is a flat 1-D vector; ``rows``/``columns`` (``i32`` attributes) give its shape.  Like
MLIR, the verifier checks only the kinds of the operands and attributes, not that the shapes
fit the vectors (LLVM's IR verifier does that after translation); the executor reports a
mismatch when it runs the op.

    %t = llvm.intr.matrix.transpose %a {columns = 3 : i32, rows = 2 : i32}
        : vector<6xf64> into vector<6xf64>
    %c = llvm.intr.matrix.multiply %a, %b {lhs_columns = 2 : i32, lhs_rows = 2 : i32,
        rhs_columns = 2 : i32} : (vector<4xf64>, vector<4xf64>) -> vector<4xf64>
    %m = llvm.intr.matrix.column.major.load %p, <stride = %s> {columns = 16 : i32,
        isVolatile = false, rows = 3 : i32} : vector<48xf32> from !llvm.ptr stride i64
    llvm.intr.matrix.column.major.store %m, %p, <stride = %s> {...}
        : vector<48xf32> to !llvm.ptr stride i64
"""

from __future__ import annotations

from ...ir.constraints import Pred
from ...ir.opdef import Attr, OpBase, Operand, Result
from ...ir.traits import Pure
from ...ir.types import FloatType, IntegerType, Type

__all__ = ["is_llvm_pointer", "is_llvm_vector"]

#: the float types LLVM has (MLIR's LLVM-compatible floats)
_LLVM_FLOATS = frozenset({"f16", "bf16", "f32", "f64", "f80", "f128"})


def is_llvm_pointer(t: Type) -> bool:
    """``!llvm.ptr`` in any address space."""
    text = str(t)
    return text == "!llvm.ptr" or text.startswith("!llvm.ptr<")


def _is_llvm_element(t: Type) -> bool:
    """A vector element type that LLVM has: a signless integer, an LLVM float or a pointer."""
    if isinstance(t, IntegerType):
        return True
    if isinstance(t, FloatType):
        return t.name in _LLVM_FLOATS
    return is_llvm_pointer(t)


def _is_builtin_vector(t: Type) -> bool:
    return type(t).__name__ == "VectorType"


def _is_builtin_integer(t: Type) -> bool:
    """MLIR's ``IntegerType`` class: signless, signed (``si8``) or unsigned (``ui8``)."""
    return isinstance(t, IntegerType) or type(t).__name__ == "SignedIntegerType"


def is_llvm_vector(t: Type) -> bool:
    """MLIR's "LLVM dialect-compatible vector type": a 1-D (possibly scalable) builtin vector
    of LLVM-compatible elements."""
    return _is_builtin_vector(t) and len(t.shape) == 1 and _is_llvm_element(t.element_type)


LLVM_VECTOR = Pred(is_llvm_vector, "LLVM dialect-compatible vector type")
LLVM_POINTER = Pred(is_llvm_pointer, "LLVM pointer type")
SIGNLESS_INTEGER = Pred(lambda t: isinstance(t, IntegerType), "signless integer")

# (attributes are declared in alphabetical order: MLIR reports the first missing one in that
# order)
_ROWS = Attr("rows", "i32")
_COLUMNS = Attr("columns", "i32")
_VOLATILE = Attr("isVolatile", "bool", summary="1-bit signless integer attribute")


#: the C++ type class MLIR's generated parser requires of a ``type($x)``, and its test
_TYPE_KINDS = {"builtin.vector": _is_builtin_vector,
               "builtin.integer": _is_builtin_integer}


class _LLVMMatrixOp(OpBase):
    """Base of the matrix intrinsics.  ``TYPE_KINDS`` lists, in the order the format writes
    them, the type groups whose parsed type must be of a given class (see
    :meth:`infer_parsed_types`)."""

    __slots__ = ()
    DIALECT_NAME = "llvm"
    TYPE_KINDS: tuple[tuple[str, str], ...] = ()

    @classmethod
    def infer_parsed_types(cls, state) -> bool:
        """MLIR's generated parsers accept only a type of the declared C++ class where the
        format says ``type($x)``: ``invalid kind of type specified`` at the first offender."""
        parser = getattr(state, "parser", None)
        for group, kind in cls.TYPE_KINDS:
            types = state.known_types(group)
            if types and not _TYPE_KINDS[kind](types[0]):
                if parser is None:   # the parser's fast path: leave the op to the full parser
                    raise ValueError(f"not a {kind} type")
                raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: "
                                   f"expected {kind}, but found '{types[0]}'",
                                   state.type_offsets.get(group, state.start))
        return False


class MatrixTransposeOp(_LLVMMatrixOp):
    """``llvm.intr.matrix.transpose``: the ``columns`` x ``rows`` transpose of a ``rows`` x
    ``columns`` matrix."""

    __slots__ = ()
    MNEMONIC = "intr.matrix.transpose"
    OPERANDS = (Operand("matrix", LLVM_VECTOR),)
    RESULTS = (Result("res", LLVM_VECTOR),)
    ATTRIBUTES = (_COLUMNS, _ROWS)
    TRAITS = (Pure,)
    FORMAT = "$matrix attr-dict `:` type($matrix) `into` type($res)"
    TYPE_KINDS = (("matrix", "builtin.vector"), ("res", "builtin.vector"))


class MatrixMultiplyOp(_LLVMMatrixOp):
    """``llvm.intr.matrix.multiply``: a ``lhs_rows`` x ``lhs_columns`` matrix times a
    ``lhs_columns`` x ``rhs_columns`` one."""

    __slots__ = ()
    MNEMONIC = "intr.matrix.multiply"
    OPERANDS = (Operand("lhs", LLVM_VECTOR), Operand("rhs", LLVM_VECTOR))
    RESULTS = (Result("res", LLVM_VECTOR),)
    ATTRIBUTES = (Attr("lhs_columns", "i32"), Attr("lhs_rows", "i32"),
                  Attr("rhs_columns", "i32"))
    TRAITS = (Pure,)
    FORMAT = ("$lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` "
              "type($res)")
    TYPE_KINDS = (("lhs", "builtin.vector"), ("rhs", "builtin.vector"),
                  ("res", "builtin.vector"))


class MatrixColumnMajorLoadOp(_LLVMMatrixOp):
    """``llvm.intr.matrix.column.major.load``: a ``rows`` x ``columns`` matrix whose column
    ``j`` starts ``j * stride`` elements after the pointer."""

    __slots__ = ()
    MNEMONIC = "intr.matrix.column.major.load"
    OPERANDS = (Operand("data", LLVM_POINTER), Operand("stride", SIGNLESS_INTEGER))
    RESULTS = (Result("res", LLVM_VECTOR),)
    ATTRIBUTES = (_COLUMNS, _VOLATILE, _ROWS)
    FORMAT = ("$data `,` `<` `stride` `=` $stride `>` attr-dict `:` type($res) `from` "
              "type($data) `stride` type($stride)")
    TYPE_KINDS = (("res", "builtin.vector"), ("stride", "builtin.integer"))


class MatrixColumnMajorStoreOp(_LLVMMatrixOp):
    """``llvm.intr.matrix.column.major.store``: the inverse of the column-major load."""

    __slots__ = ()
    MNEMONIC = "intr.matrix.column.major.store"
    OPERANDS = (Operand("matrix", LLVM_VECTOR), Operand("data", LLVM_POINTER),
                Operand("stride", SIGNLESS_INTEGER))
    ATTRIBUTES = (_COLUMNS, _VOLATILE, _ROWS)
    FORMAT = ("$matrix `,` $data `,` `<` `stride` `=` $stride `>` attr-dict `:` "
              "type($matrix) `to` type($data) `stride` type($stride)")
    TYPE_KINDS = (("matrix", "builtin.vector"), ("stride", "builtin.integer"))
