"""Text syntax of MLIR's builtin types and keyword attributes, plugged into :mod:`tileir.text`
through :mod:`tileir.text.registry`: ``index``, ``none``, ``siN``/``uiN``/``iN`` of any width, the
float types, ``complex<T>``, ``vector<...>``, ``tensor<...>``, ``memref<...>``, ``tuple<...>``,
and the attributes ``affine_map<...>``, ``affine_set<...>`` and ``strided<...>``.

Error messages and their positions are those of ``mlir-opt`` (MLIR 22).
"""

from __future__ import annotations

import re
from typing import Callable, Optional

from ...ir.attributes import Attribute
from ...ir.types import OTHER_FLOAT_WIDTHS, FloatType, FunctionType, IntegerType, Type
from ...text import registry
from ...text.parser import Parser
from .affine import (AffineMapAttr, IntegerSetAttr, parse_affine_map_body,
                     parse_integer_set_body)
from .types import (INDEX, NONE, ComplexType, IndexType, MemRefType, NoneType, RankedTensorType,
                    SignedIntegerType, StridedLayoutAttr, TupleType, UnrankedMemRefType,
                    UnrankedTensorType, VectorType)

__all__ = ["parse_number_type", "MAX_INTEGER_WIDTH"]

#: MLIR's ``IntegerType::kMaxWidth``.
MAX_INTEGER_WIDTH = 16777215
_INTEGER = re.compile(r"(si|ui|i)([0-9]+)\Z")


def parse_number_type(word: str) -> Optional[Type]:
    """``i7``, ``si32``, ``ui8``, ``f80``... (None if ``word`` is no builtin number type or its
    width is out of range; the parser then reports it)."""
    m = _INTEGER.match(word)
    if m:
        if m.group(2).startswith("0") and m.group(2) != "0":
            return None
        width = int(m.group(2))
        if width > MAX_INTEGER_WIDTH:
            return None
        if m.group(1) == "i":
            return IntegerType(width)
        return SignedIntegerType(width, m.group(1) == "si")
    if word in OTHER_FLOAT_WIDTHS:
        return FloatType(word)
    return None


def _number_keyword(parser: Parser, word: str, offset: int) -> Optional[Type]:
    m = _INTEGER.match(word)
    if m and int(m.group(2)) > MAX_INTEGER_WIDTH:
        raise parser.error("integer bitwidth is limited to 16777215 bits", offset)
    typ = parse_number_type(word)
    if typ is not None:
        parser.i += 1
    return typ


def _open(parser: Parser) -> bool:
    if parser.peek() != "<":
        return False
    parser.i += 2
    return True


def _close(parser: Parser, what: str) -> None:
    if parser.tok != ">":
        raise parser.wrong_token_error(f"expected '>' in {what} type")
    parser.i += 1


def _is_int_or_float(t: Type) -> bool:
    return isinstance(t, (IntegerType, FloatType, SignedIntegerType))


def parse_complex(parser: Parser, word: str, offset: int) -> Optional[Type]:
    """``complex<T>``."""
    if not _open(parser):
        return None
    elem_off = parser.offset
    elem = parser.parse_type()
    if not _is_int_or_float(elem):
        raise parser.error("invalid element type for complex", elem_off)
    _close(parser, "complex")
    return ComplexType(elem)


def parse_tuple(parser: Parser, word: str, offset: int) -> Optional[Type]:
    """``tuple<T, ...>``."""
    if not _open(parser):
        return None
    types = parser.parse_comma_list(parser.parse_type, ">")
    _close(parser, "tuple")
    return TupleType(types)


def _is_vector_element(t: Type) -> bool:
    return _is_int_or_float(t) or t is INDEX


def _is_memref_element(t: Type) -> bool:
    return _is_int_or_float(t) or isinstance(t, (IndexType, ComplexType, VectorType, MemRefType,
                                                 UnrankedMemRefType))


def _is_tensor_element(t: Type) -> bool:
    return not isinstance(t, (NoneType, RankedTensorType, UnrankedTensorType, MemRefType,
                              UnrankedMemRefType, FunctionType))


def parse_vector(parser: Parser, word: str, offset: int) -> Optional[Type]:
    """``vector<4x[8]xf32>`` (0-d: ``vector<f32>``)."""
    if not _open(parser):
        return None
    if parser.tok == "[" and re.match(r"\[\s*\?", parser.src[parser.offset:]):
        raise parser.error("invalid dimension", parser.offs[parser.i + 1])
    shape, scalable = _vector_dims(parser)
    elem = parser.parse_type()
    _close(parser, "vector")
    for size in shape:
        if size == 0:
            raise parser.error(
                "vector types must have positive constant sizes but got "
                + ", ".join(str(s) for s in shape), offset)
    if not _is_vector_element(elem):
        raise parser.error("failed to verify 'elementType': VectorElementTypeInterface "
                           "instance", offset)
    return VectorType(shape, elem, scalable)


def _vector_dims(parser: Parser) -> tuple[list, list]:
    src = parser.src
    pos = parser.offset
    m = re.compile(r"(?:\s*(?:[0-9]+|\[\s*[0-9]+\s*\])\s*x)*\s*\[\s*\?").match(src, pos)
    if m:
        raise parser.error("invalid dimension", m.end() - 1)
    m = re.compile(r"(?:\s*(?:[0-9]+|\[\s*[0-9]+\s*\])\s*x)*\s*\?").match(src, pos)
    if m:
        raise parser.error("expected non-function type", m.end() - 1)
    shape, scalable = parser.parse_dimension_list(dynamic=False, scalable=True)
    return shape or [], scalable


def _shape_and_element(parser: Parser, valid: Callable[[Type], bool],
                       what: str) -> tuple[Optional[list], Type]:
    """The ``4x?x`` or ``*x`` prefix and the element type of a tensor or memref body."""
    shape, _ = parser.parse_dimension_list(unranked=True)
    elem_off = parser.offset
    elem = parser.parse_type()
    if not valid(elem):
        raise parser.error(f"invalid {what} element type", elem_off)
    return shape, elem


def parse_tensor(parser: Parser, word: str, offset: int) -> Optional[Type]:
    """``tensor<4x?xf32[, encoding]>`` or ``tensor<*xf32>``."""
    if not _open(parser):
        return None
    shape, elem = _shape_and_element(parser, _is_tensor_element, "tensor")
    if shape is None:
        _close(parser, "tensor")
        return UnrankedTensorType(elem)
    encoding = None
    if parser.consume(","):
        encoding = parser.parse_attribute()
    _close(parser, "tensor")
    return RankedTensorType(shape, elem, encoding)


def _is_layout(attr: Attribute) -> bool:
    return isinstance(attr, (AffineMapAttr, StridedLayoutAttr))


def parse_memref(parser: Parser, word: str, offset: int) -> Optional[Type]:
    """``memref<4x?xf32[, layout][, memory space]>`` or ``memref<*xf32[, memory space]>``."""
    if not _open(parser):
        return None
    shape, elem = _shape_and_element(parser, _is_memref_element, "memref")
    layout: Optional[Attribute] = None
    space: Optional[Attribute] = None
    while parser.consume(","):
        attr = parser.parse_attribute()
        if shape is not None and _is_layout(attr) and space is None and layout is None:
            layout = attr
        elif space is None:
            space = attr
        else:
            raise parser.error("multiple memory spaces specified in memref type")
    if parser.tok != ">":
        raise parser.error("expected ',' or '>' in memref type")
    parser.i += 1
    if shape is None:
        return UnrankedMemRefType(elem, space)
    if isinstance(layout, AffineMapAttr) and layout.value.n_dims != len(shape):
        raise parser.error("memref layout mismatch between rank and affine map: "
                           f"{len(shape)} != {layout.value.n_dims}", offset)
    if isinstance(layout, StridedLayoutAttr) and len(layout.strides) != len(shape):
        raise parser.error("expected the number of strides to match the rank", offset)
    return MemRefType(shape, elem, layout, space)


def _keyword_type(value: Type):
    def parse(parser: Parser, word: str, offset: int) -> Type:
        parser.i += 1
        return value
    return parse


# ---------------------------------------------------------------------------------------------
# Keyword attributes
# ---------------------------------------------------------------------------------------------

def parse_affine_map_attr(parser: Parser) -> AffineMapAttr:
    """``affine_map<(d0)[s0] -> (...)>``."""
    parser.i += 1
    parser.expect("<")
    value = parse_affine_map_body(parser)
    parser.expect(">")
    return AffineMapAttr(value)


def parse_integer_set_attr(parser: Parser) -> IntegerSetAttr:
    """``affine_set<(d0)[s0] : (...)>``."""
    parser.i += 1
    parser.expect("<")
    value = parse_integer_set_body(parser)
    parser.expect(">")
    return IntegerSetAttr(value)


def _stride_or_dynamic(parser: Parser) -> Optional[int]:
    if parser.consume("?"):
        return None
    off = parser.offset
    value = parser.try_parse_integer()
    if value is None or not -(1 << 63) <= value < (1 << 63):
        raise parser.error("expected a 64-bit signed integer or '?'", off)
    return value


def parse_strided_attr(parser: Parser) -> StridedLayoutAttr:
    """``strided<[1, ?], offset: ?>``."""
    parser.i += 1
    parser.expect("<")
    parser.expect("[")
    strides = parser.parse_comma_list(lambda: _stride_or_dynamic(parser), "]")
    parser.expect("]")
    offset: Optional[int] = 0
    if parser.consume(","):
        parser.expect_keyword("offset")
        parser.expect(":")
        offset = _stride_or_dynamic(parser)
    parser.expect(">")
    return StridedLayoutAttr(tuple(strides), offset)


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------

registry.NUMBER_TYPE_PARSERS.append(_number_keyword)
for _word, _parse in (("complex", parse_complex), ("tuple", parse_tuple),
                      ("vector", parse_vector), ("tensor", parse_tensor),
                      ("memref", parse_memref), ("index", _keyword_type(INDEX)),
                      ("none", _keyword_type(NONE))):
    registry.KEYWORD_TYPES[_word] = _parse
registry.KEYWORD_ATTRIBUTES.update({"affine_map": parse_affine_map_attr,
                                    "affine_set": parse_integer_set_attr,
                                    "strided": parse_strided_attr})
