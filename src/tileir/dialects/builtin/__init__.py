"""MLIR's builtin dialect.

The builtin types and attributes are the vocabulary of the generic syntax itself (integer and
float types, function types, integer/float/string/array/dense/dictionary/unit/symbol-ref/type
attributes, locations), so they are defined in the core, as MLIR defines them in its IR library:
:mod:`tileir.ir.types`, :mod:`tileir.ir.attributes`, :mod:`tileir.ir.locations`.  This package
is the dialect's namespace (it re-exports them) and defines the builtin types spelled by
keywords (:mod:`.types`: ``index``, ``none``, ``siN``/``uiN``, ``complex``, ``vector``,
``tensor``, ``memref``, ``tuple``), affine maps and integer sets (:mod:`.affine`) and their text
syntax (:mod:`.syntax`).
``builtin.module`` is parsed, printed and verified by the engine itself (``tileir.text.parser``,
``tileir.ir.verify``), as MLIR's ``ModuleOp`` is part of its core.
"""

from ...ir.attributes import (UNIT, ArrayAttr, Attribute, DenseArrayAttr, DenseElementsAttr,
                              DictionaryAttr, EnumAttr, FloatAttr, IntegerAttr, OpaqueAttr,
                              StringAttr, SymbolRefAttr, TypeAttr, UnitAttr)
from ...ir.locations import (UNKNOWN_LOC, CallSiteLoc, FileLineColLoc, FusedLoc, Location, NameLoc,
                             UnknownLoc)
from ...ir.types import (BF16, ELEMENT_TYPES, F16, F32, F64, I1, I8, I16, I32, I64, BuiltinType,
                         ElementType, FloatType, FunctionType, IntegerType, Type)
from .affine import (AffineBinary, AffineConst, AffineDim, AffineExpr, AffineMap, AffineMapAttr,
                     AffineSymbol, IntegerSet, IntegerSetAttr)
from .types import (INDEX, NONE, BuiltinDialectType, ComplexType, IndexType, MemRefType, NoneType,
                    RankedTensorType, SignedIntegerType, StridedLayoutAttr, TupleType,
                    UnrankedMemRefType, UnrankedTensorType, VectorType)
from . import syntax  # noqa: F401,E402  (registers the keyword types and attributes)
from . import dense  # noqa: F401,E402  (registers dense<...> of tensors and vectors)

#: The op name of MLIR's module (parsed, printed and verified by the engine).
MODULE = "builtin.module"

__all__ = ["MODULE", "UNIT", "ArrayAttr", "Attribute", "DenseArrayAttr", "DenseElementsAttr",
           "DictionaryAttr", "EnumAttr", "FloatAttr", "IntegerAttr", "OpaqueAttr", "StringAttr",
           "SymbolRefAttr", "TypeAttr", "UnitAttr", "UNKNOWN_LOC", "CallSiteLoc", "FileLineColLoc",
           "FusedLoc", "Location", "NameLoc", "UnknownLoc", "BF16", "ELEMENT_TYPES", "F16", "F32",
           "F64", "I1", "I8", "I16", "I32", "I64", "BuiltinType", "ElementType", "FloatType",
           "FunctionType", "IntegerType", "Type",
           "AffineBinary", "AffineConst", "AffineDim", "AffineExpr", "AffineMap", "AffineMapAttr",
           "AffineSymbol", "IntegerSet", "IntegerSetAttr", "INDEX", "NONE", "BuiltinDialectType",
           "ComplexType", "IndexType", "MemRefType", "NoneType", "RankedTensorType",
           "SignedIntegerType", "StridedLayoutAttr", "TupleType", "UnrankedMemRefType",
           "UnrankedTensorType", "VectorType"]
