"""How the gpu dialect's types and attributes are spelled: parser hooks registered with
:mod:`tileir.text.registry` (``!gpu.*`` types, ``#gpu.*`` and ``#gpu<...>`` attributes)."""

from __future__ import annotations

from ...ir.attributes import Attribute, DictionaryAttr, IntegerAttr, OpaqueAttr, StringAttr, TypeAttr
from ...ir.types import FunctionType, Type
from ...text import registry
from ...text.parser import Parser
from . import attributes as A
from .types import (ASYNC_TOKEN, DN_TENSOR_HANDLE, MMA_ELEMENT_ERROR, MMA_ELEMENT_TYPES,
                    MMA_OPERANDS, SPGEMMOP_HANDLE, SPMAT_HANDLE, MMAMatrixType)

__all__ = ["parse_gpu_type", "parse_gpu_attribute", "parse_enum_keyword"]

_SIMPLE_TYPES = {"async.token": ASYNC_TOKEN, "sparse.dntensor_handle": DN_TENSOR_HANDLE,
                 "sparse.spmat_handle": SPMAT_HANDLE, "sparse.spgemmop_handle": SPGEMMOP_HANDLE}


def parse_gpu_type(parser: Parser, word: str, offset: int, word_end: int) -> Type:
    """``!gpu.<word>``: the hook of :data:`tileir.text.registry.DIALECT_TYPE_PARSERS`."""
    simple = _SIMPLE_TYPES.get(word)
    if simple is not None:
        parser.i += 1
        return simple
    if word == "mma_matrix":
        return _parse_mma_matrix(parser, offset, word_end)
    raise parser.error(f"unknown gpu type: {word}", offset + len("!gpu."))


def _parse_mma_matrix(parser: Parser, offset: int, word_end: int) -> Type:
    """``!gpu.mma_matrix<RxCxT, "Op">``, read token by token as MLIR does (its errors at the
    place they concern; the value checks at the mnemonic)."""
    parser.i += 1
    if parser.tok == "<":
        parser._balanced_end(parser.offset)  # (MLIR first takes the balanced body)
    parser.expect("<")
    dims, _ = parser.parse_dimension_list(dynamic=False)
    element = parser.parse_type()
    parser.expect(",")
    if not parser.tok.startswith('"'):
        raise parser.error("expected string")
    operand = parser.parse_string()
    parser.expect(">")
    mnemonic = offset + len("!gpu.")
    if len(dims) != 2:
        raise parser.error("MMAMatrixType must have exactly two dimensions", mnemonic)
    if str(element) not in MMA_ELEMENT_TYPES:
        raise parser.error(MMA_ELEMENT_ERROR, mnemonic)
    if operand not in MMA_OPERANDS:
        raise parser.error("operand expected to be one of AOp, BOp or COp", mnemonic)
    return MMAMatrixType(dims, element, operand)


def parse_enum_keyword(parser: Parser, enum: type):
    """An enum keyword as custom op syntax writes it (``x``, ``add``...)."""
    off = parser.offset
    word = parser.tok
    member = enum.from_keyword(word) if word else None
    if member is None:
        if word and (word[0].isalpha() or word[0] == "_"):
            raise parser.error(f"expected {A.ENUM_DESCRIPTION[enum]} to be one of: "
                               f"{', '.join(enum.keywords())}", off)
        raise parser.error("expected valid keyword", off)
    parser.i += 1
    return member


def parse_gpu_attribute(parser: Parser, mnemonic: str, offset: int) -> Attribute:
    """``#gpu.<mnemonic><...>`` and ``#gpu<mnemonic keyword>``."""
    if mnemonic == "":
        parser.expect("<")
        name = parser.parse_keyword()
        enum = A.ENUMS_BY_MNEMONIC.get(name)
        if enum is None:
            raise parser.error(f"unknown attribute `{name}` in dialect `gpu`", offset)
        member = parse_enum_keyword(parser, enum)
        parser.expect(">")
        return member
    if mnemonic == "select_object" and parser.tok != "<":
        return A.SelectObjectAttr(None)
    hook = _ATTRIBUTE_BODIES.get(mnemonic)
    if hook is not None:
        parser.expect("<")
        attr = hook(parser)
        parser.expect(">")
        return attr
    # mapping attributes and others the dialect does not model: kept verbatim
    if parser.tok == "<":
        end = parser._balanced_end(parser.offset)
        parser._skip_to_offset(end)
        return OpaqueAttr(parser.src[offset:end])
    return OpaqueAttr(f"#gpu.{mnemonic}")


def _address_space(parser: Parser) -> Attribute:
    return parse_enum_keyword(parser, A.AddressSpace)


def _select_object(parser: Parser) -> Attribute:
    if parser.tok == ">":
        return A.SelectObjectAttr(None)
    return A.SelectObjectAttr(parser.parse_attribute())


def _kernel_metadata(parser: Parser) -> Attribute:
    name = parser.parse_string()
    parser.expect(",")
    ftype = parser.parse_type()
    if not isinstance(ftype, FunctionType):
        raise parser.error("expected a function type")
    arg_attrs = metadata = None
    while parser.consume(","):
        key = parser.parse_keyword()
        parser.expect("=")
        if key == "arg_attrs":
            arg_attrs = parser.parse_attribute()
        elif key == "metadata":
            metadata = parser.parse_attribute()
        else:
            raise parser.error(f"unknown kernel metadata parameter '{key}'")
    return A.KernelMetadataAttr(name, ftype, arg_attrs, metadata)


def _kernel_table_body(parser: Parser) -> A.KernelTableAttr:
    parser.expect("[")
    items = parser.parse_comma_list(parser.parse_attribute, "]")
    parser.expect("]")
    for item in items:
        if not isinstance(item, A.KernelMetadataAttr):
            raise parser.error("expected a `#gpu.kernel_metadata` attribute")
    return A.KernelTableAttr.of(items)


def _object(parser: Parser) -> Attribute:
    target = parser.parse_attribute()
    parser.expect(",")
    properties = kernels = None
    fmt = "fatbin"
    if parser.tok == "properties" and parser.peek() == "=":
        parser.i += 2
        properties = parser.parse_attribute()
        if not isinstance(properties, DictionaryAttr):
            raise parser.error("expected a dictionary attribute")
        parser.expect(",")
    if parser.tok == "kernels" and parser.peek() == "=":
        parser.i += 2
        if parser.tok == "<":
            parser.i += 1
            kernels = _kernel_table_body(parser)
            parser.expect(">")
        else:
            kernels = parser.parse_attribute()
            if not isinstance(kernels, A.KernelTableAttr):
                raise parser.error("expected a `#gpu.kernel_table` attribute")
        parser.expect(",")
    if parser.tok in A.OBJECT_FORMATS and parser.peek() == "=":
        fmt = parser.tok
        parser.i += 2
    off = parser.offset
    blob = parser.parse_attribute()
    if not isinstance(blob, StringAttr):
        raise parser.error("expected a string attribute", off)
    data = blob.value.encode("utf-8", "surrogateescape") if isinstance(blob.value, str) \
        else blob.value
    return A.ObjectAttr(target, fmt, data, properties, kernels)


_ATTRIBUTE_BODIES = {
    "address_space": _address_space,
    "select_object": _select_object,
    "kernel_metadata": _kernel_metadata,
    "kernel_table": _kernel_table_body,
    "object": _object,
}

registry.DIALECT_TYPE_PARSERS["gpu"] = parse_gpu_type
registry.DIALECT_ATTR_PARSERS["gpu"] = parse_gpu_attribute
