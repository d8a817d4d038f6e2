"""``dense<...> : tensor<...>`` / ``vector<...>``: dense elements attributes of the builtin
shaped types.

Elements with a NumPy storage type (``i1``...``i64``, the float formats of
:data:`tileir.ir.dtypes.NUMPY_DTYPES`) are stored as NumPy arrays (the core's
:class:`~tileir.ir.attributes.DenseElementsAttr`); integers of other widths, ``siN``/``uiN`` and
``index`` as Python integers (:class:`IntegerElementsAttr`).  ``dense<"0x...">`` (MLIR's hex
form: the raw little-endian bytes) is decoded.  Other element types (complex, MLIR's other float
formats) keep the literal verbatim; complex elements (``(re, im)`` pairs, checked against the
part type) keep their canonical text, MLIR's: ``dense<[(1,2), (3,-4)]>``, a splat as ``(1,2)``.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ...ir.attributes import DenseElementsAttr, OpaqueAttr
from ...ir.dtypes import NUMPY_DTYPES
from ...ir.types import IntegerType, Type
from ...text import registry
from ...ir.floatfmt import format_float
from ...ir.densefloat import nest_texts
from ...text.parser import (ComplexLeaf, Parser, _flatten, _literal_shape, build_dense,
                            parse_splat, scalar_literal)
from .types import (ComplexType, IndexType, RankedTensorType, SignedIntegerType,
                    UnrankedTensorType, VectorType)

__all__ = ["IntegerElementsAttr", "BuiltinDenseElementsAttr", "DenseResourceAttr",
           "build_builtin_dense", "HEX_THRESHOLD"]

#: Width of ``index`` in MLIR's data layout default (``IndexType::kInternalStorageBitWidth``).
INDEX_WIDTH = 64


def _int_range(el: Type) -> tuple[int, int, int]:
    """(width, lowest accepted, highest accepted) of an integer element type (MLIR reads
    ``index`` literals as signed 64-bit values)."""
    width = INDEX_WIDTH if isinstance(el, IndexType) else el.width
    if isinstance(el, SignedIntegerType) and not el.signed:
        return width, 0, (1 << width) - 1
    if isinstance(el, (SignedIntegerType, IndexType)):
        return width, -(1 << (width - 1)), (1 << (width - 1)) - 1
    return width, -(1 << (width - 1)), (1 << width) - 1


class IntegerElementsAttr(DenseElementsAttr):
    """Dense integers of a type NumPy cannot store (``i128``, ``si8``, ``index``...): an object
    array of Python integers, as MLIR prints them (signless values wrapped to signed)."""

    __slots__ = ()

    def _fmt_element(self, v) -> str:
        return str(int(v))

    def _elements_text(self, a: np.ndarray) -> list:
        return [str(int(v)) for v in a.reshape(-1).tolist()]


#: MLIR prints a non-splat dense elements attribute with more elements than this in its hex form
HEX_THRESHOLD = 100


class BuiltinDenseElementsAttr(DenseElementsAttr):
    """Dense elements of a builtin tensor or vector (NumPy-backed): printed as ``mlir-opt``
    prints them, large non-splat ones as ``dense<"0x...">`` (little-endian bytes; ``i1``
    packed one bit per element, least significant first)."""

    __slots__ = ()

    def body(self) -> str:
        a = self.array
        if a.size > HEX_THRESHOLD and not self.is_splat:
            flat = np.ascontiguousarray(a).reshape(-1)
            if flat.dtype == np.bool_:
                data = np.packbits(flat, bitorder="little").tobytes()
            else:
                data = flat.astype(flat.dtype.newbyteorder("<")).tobytes()
            return '"0x' + data.hex().upper() + '"'
        return super().body()


def _wrap(v: int, el: Type) -> int:
    width, _, _ = _int_range(el)
    if isinstance(el, SignedIntegerType) and not el.signed:
        return v & ((1 << width) - 1)
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def _checked_integer(parser: Parser, leaf: tuple, el: Type) -> int:
    """The integer literal ``leaf`` for the element type ``el`` (``siN``/``uiN``/``index`` or
    a signless width without a NumPy type), checked against its range, not yet wrapped."""
    text, neg, off = leaf
    if text[0] == '"':
        raise parser.error("integer constant out of range for type", off)
    if not text[0].isdigit() or "." in text:
        raise parser.error("expected integer value", off)
    v = int(text, 16) if text.startswith("0x") else int(text)
    v = -v if neg else v
    _, lo, hi = _int_range(el)
    if v < 0 and lo == 0:
        raise parser.error("expected unsigned integer elements, but parsed negative value", off)
    if v < lo or v > hi:
        raise parser.error("integer constant out of range for type", off)
    return v


def _integer_elements(parser: Parser, tree: Any, typ, offset: int) -> IntegerElementsAttr:
    el = typ.element_type
    shape = _literal_shape(tree, parser, offset)
    if shape and list(shape) != list(typ.shape):
        raise parser.error(f"inferred shape of elements literal ([{', '.join(map(str, shape))}])"
                           f" does not match type ([{', '.join(map(str, typ.shape))}])", offset)
    values = []
    for leaf in _flatten(tree):
        if isinstance(leaf, ComplexLeaf):
            raise parser.error("expected integer value", leaf.offset)
        values.append(_wrap(_checked_integer(parser, leaf, el), el))
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    if shape:
        arr = arr.reshape(typ.shape)
    else:
        arr = parse_splat(parser, arr[0], typ.shape, object, offset)
    return IntegerElementsAttr(typ, arr)


_HEX_DIGITS = re.compile(r"(?:[0-9a-fA-F]{2})*")


def _hex_bytes(parser: Parser, text: str, string_offset: int) -> bytes:
    """The bytes of ``"0x..."``, else MLIR's error at the string."""
    digits = text[3:-1]
    if not text.startswith('"0x') or _HEX_DIGITS.fullmatch(digits) is None:
        raise parser.error("expected string containing hex digits starting with `0x`",
                           string_offset)
    return bytes.fromhex(digits)


def _hex_elements(parser: Parser, text: str, typ, offset: int, string_offset: int):
    """``dense<"0x...">``: MLIR reports bad hex at the string, a size that is neither one
    element's nor the whole type's at the ``dense`` keyword."""
    el = typ.element_type
    data = _hex_bytes(parser, text, string_offset)
    size_error = parser.error(f"elements hex data size is invalid for provided type: '{typ}'",
                              parser.src.rfind("dense", 0, offset))
    if isinstance(el, ComplexType):
        return _hex_complex(parser, data, typ, offset, size_error)
    if getattr(el, "name", None) not in NUMPY_DTYPES:
        return _hex_integers(parser, data, typ, offset, size_error)
    dtype = np.dtype(NUMPY_DTYPES[el.name])
    if dtype != np.bool_ and len(data) % dtype.itemsize:
        raise size_error
    count = 1
    for d in typ.shape:
        count *= d
    if dtype == np.bool_:  # one bit per element, least significant first
        bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
        arr = bits[:count if len(data) > 1 else 1].astype(bool)
    else:
        arr = np.frombuffer(data, dtype=dtype.newbyteorder("<")).astype(dtype)
    if arr.size == 1:
        return BuiltinDenseElementsAttr(typ, parse_splat(parser, arr[0], typ.shape, arr.dtype,
                                                         offset))
    if arr.size != count:
        raise size_error
    return BuiltinDenseElementsAttr(typ, arr.reshape(typ.shape))


def _hex_chunks(data: bytes, size: int, count: int, size_error) -> list:
    """``data`` cut into elements of ``size`` bytes: one (a splat, repeated) or ``count``."""
    if size == 0 or len(data) % size or len(data) // size not in (1, count):
        raise size_error
    chunks = [data[i:i + size] for i in range(0, len(data), size)]
    return chunks * count if len(chunks) == 1 else chunks


def _hex_integers(parser: Parser, data: bytes, typ, offset: int, size_error):
    """Hex data of integers without a NumPy type (``index``, ``siN``/``uiN``, odd widths): each
    element in whole little-endian bytes (``index`` in 64 bits)."""
    el = typ.element_type
    width, _, _ = _int_range(el)
    count = 1
    for d in typ.shape:
        count *= d
    values = [_wrap(int.from_bytes(c, "little"), el)
              for c in _hex_chunks(data, (width + 7) // 8, count, size_error)]
    arr = np.empty(len(values), dtype=object)
    arr[:] = values
    return IntegerElementsAttr(typ, arr.reshape(typ.shape))


def _hex_complex(parser: Parser, data: bytes, typ, offset: int, size_error):
    """Hex data of complex elements (real then imaginary part, each in the part's bytes)."""
    part = typ.element_type.element_type
    name = getattr(part, "name", None)
    if name not in NUMPY_DTYPES or name == "i1":
        return OpaqueAttr(f'dense<"0x{data.hex().upper()}"> : {typ}')
    dtype = np.dtype(NUMPY_DTYPES[name]).newbyteorder("<")
    count = 1
    for d in typ.shape:
        count *= d

    def text(raw: bytes) -> str:
        value = np.frombuffer(raw, dtype=dtype)[0]
        if isinstance(part, IntegerType):
            return str(_wrap(int(value), part))
        return format_float(value, name)

    texts = [f"({text(c[:dtype.itemsize])},{text(c[dtype.itemsize:])})"
             for c in _hex_chunks(data, 2 * dtype.itemsize, count, size_error)]
    if all(t == texts[0] for t in texts):
        return OpaqueAttr(f"dense<{texts[0]}> : {typ}")
    return OpaqueAttr(f"dense<{nest_texts(texts, tuple(typ.shape))}> : {typ}")


def _hex_literal(tree: Any, el) -> bool:
    """Whether ``tree`` is one string (not in a list) for elements MLIR reads as hex data."""
    return isinstance(tree, tuple) and tree[0].startswith('"') and isinstance(
        el, (IntegerType, SignedIntegerType, IndexType, ComplexType)) or (
        isinstance(tree, tuple) and tree[0].startswith('"')
        and getattr(el, "name", None) in NUMPY_DTYPES)


def build_builtin_dense(parser: Parser, tree: Any, typ, offset: int):
    """The dense elements attribute of a builtin tensor or vector type from a literal tree."""
    el = typ.element_type
    keyword = parser.src.rfind("dense", 0, offset)  # MLIR reports shape errors there
    if not isinstance(typ, (RankedTensorType, VectorType)) or None in typ.shape:
        raise parser.error("elements literal type must have static shape", keyword)
    if _hex_literal(tree, el):
        return _hex_elements(parser, tree[0], typ, offset, tree[2])
    shape = _literal_shape(tree, parser, offset)
    if shape and list(shape) != list(typ.shape):
        raise parser.error(f"inferred shape of elements literal ([{', '.join(map(str, shape))}])"
                           f" does not match type ([{', '.join(map(str, typ.shape))}])", keyword)
    if isinstance(el, ComplexType):
        return _complex_elements(parser, tree, typ, bool(shape), keyword)
    if isinstance(el, (IntegerType, SignedIntegerType, IndexType)):
        for leaf in _flatten(tree):
            if not isinstance(leaf, ComplexLeaf) and "." in leaf[0]:
                raise parser.error("expected integer elements, but parsed floating-point",
                                   leaf[2])
    if getattr(el, "name", None) in NUMPY_DTYPES:
        built = build_dense(parser, tree, typ, offset)
        return BuiltinDenseElementsAttr(built.type, built.array)
    if isinstance(el, (IntegerType, SignedIntegerType, IndexType)):
        return _integer_elements(parser, tree, typ, offset)
    return OpaqueAttr(f"dense<{_tree_text(tree)}> : {typ}")


def _complex_elements(parser: Parser, tree: Any, typ, listed: bool, keyword: int) -> OpaqueAttr:
    """A dense literal of complex elements (``listed``: a list, else a splat), kept as MLIR
    prints it; every element must be a ``(re, im)`` pair of literals of the part type."""
    leaves = _flatten(tree)
    count = 1
    for d in typ.shape:
        count *= d
    if not all(isinstance(leaf, ComplexLeaf) for leaf in leaves):
        parsed = sum(2 if isinstance(leaf, ComplexLeaf) else 1 for leaf in leaves)
        expected = 2 * count if listed else 2
        raise parser.error(f"parsed {parsed} elements, but type "
                           f"('{typ if listed else typ.element_type}') expected {expected} "
                           "elements", keyword)
    part = typ.element_type.element_type
    texts = [f"({_part_text(parser, leaf.real, part)},{_part_text(parser, leaf.imag, part)})"
             for leaf in leaves]
    if count == 0:
        return OpaqueAttr(f"dense<> : {typ}")
    if not listed or all(t == texts[0] for t in texts):
        return OpaqueAttr(f"dense<{texts[0]}> : {typ}")
    return OpaqueAttr(f"dense<{nest_texts(texts, tuple(typ.shape))}> : {typ}")


def _part_text(parser: Parser, leaf: tuple, part: Type) -> str:
    """One real or imaginary part, checked against ``part`` and printed as MLIR does."""
    if isinstance(part, SignedIntegerType):
        return str(_checked_integer(parser, leaf, part))
    if isinstance(part, IntegerType) and "." in leaf[0]:
        raise parser.error("expected integer elements, but parsed floating-point", leaf[2])
    value = scalar_literal(parser, leaf, part)
    if part.name == "i1":
        return "true" if value else "false"
    if isinstance(part, IntegerType):
        return str(_wrap(int(value), part))
    return format_float(value, part.name)


def _tree_text(tree: Any) -> str:
    if isinstance(tree, list):
        return "[" + ", ".join(_tree_text(t) for t in tree) + "]"
    if isinstance(tree, ComplexLeaf):
        return f"({_tree_text(tree.real)}, {_tree_text(tree.imag)})"
    text, neg, _ = tree
    return ("-" if neg else "") + text


for _cls in (RankedTensorType, VectorType, UnrankedTensorType):
    registry.DENSE_BUILDERS[_cls] = build_builtin_dense


class DenseResourceAttr(OpaqueAttr):
    """``dense_resource<handle> : type``: elements kept in a named blob (the file's
    ``{-# dialect_resources ... #-}`` section), held here by handle and type only."""

    __slots__ = ()

    @staticmethod
    def make(handle: str, typ: Type) -> "DenseResourceAttr":
        return DenseResourceAttr(f"dense_resource<{handle}> : {typ}")


def parse_dense_resource(parser: Parser) -> DenseResourceAttr:
    """``dense_resource<handle> : type``."""
    parser.i += 1
    parser.expect("<")
    handle = parser.tok
    if not handle or not (handle[0].isalnum() or handle[0] in "_\""):
        raise parser.error("expected identifier key for 'resource' entry")
    parser.i += 1
    parser.expect(">")
    parser.expect(":")
    return DenseResourceAttr.make(handle, parser.parse_type())


registry.KEYWORD_ATTRIBUTES["dense_resource"] = parse_dense_resource
