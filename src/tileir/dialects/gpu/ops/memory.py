"""Host-side memory and stream ops: alloc/dealloc, memcpy/memset, wait, host (un)registration,
the default device, and ``gpu.dynamic_shared_memory``."""

from __future__ import annotations

from ....ir.attributes import UNIT
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from ....ir.types import I32
from .base import (INDEX, GpuOp, attr_dict, parse_async, parse_attr_dict, print_async,
                   print_uses)


def _deps(op):
    start, stop = op.SPEC.operand_range(op, "asyncDependencies")
    return op.operands[start:stop]


def _token(op) -> bool:
    return any(str(r.type) == "!gpu.async.token" for r in op.results)


def _head(printer, op) -> str:
    return " " + print_async(printer, op, _token(op), _deps(op))


class AllocOp(GpuOp):
    """``gpu.alloc [async [..]] [host_shared] (%dyn, ..) [%sym..] : memref<..>``."""

    __slots__ = ()
    MNEMONIC = "alloc"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("asyncDependencies", kind=VARIADIC), Operand("dynamicSizes", kind=VARIADIC),
                Operand("symbolOperands", kind=VARIADIC))
    RESULTS = (Result("memref"), Result("asyncToken", kind=OPTIONAL))
    ATTRIBUTES = (Attr("hostShared", "unit"),)

    @staticmethod
    def parse_custom(parser, state):
        parse_async(parser, state)
        if parser.tok == "host_shared":
            parser.i += 1
            state.attrs["hostShared"] = UNIT
        parser.expect("(")
        uses = parser.parse_comma_list(parser._parse_use, ")")
        parser.expect(")")
        state.operands["dynamicSizes"] = uses
        state.set_types("dynamicSizes", "operand", [INDEX] * len(uses), parser.offset)
        if parser.tok == "[":
            parser.i += 1
            syms = parser.parse_comma_list(parser._parse_use, "]")
            parser.expect("]")
            state.operands["symbolOperands"] = syms
            state.set_types("symbolOperands", "operand", [INDEX] * len(syms), parser.offset)
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("memref", "result", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        spec = op.SPEC
        text = _head(printer, op)
        if "hostShared" in op.attributes:
            text += " host_shared"
        start, stop = spec.operand_range(op, "dynamicSizes")
        text += " (" + print_uses(printer, op.operands[start:stop]) + ")"
        start, stop = spec.operand_range(op, "symbolOperands")
        if stop > start:
            text += "[" + print_uses(printer, op.operands[start:stop]) + "]"
        return text + attr_dict(printer, op, ("hostShared",)) + f" : {op.results[0].type}"

    def verify_op(self):
        from .verify_util import affine_symbol_count, memref_info
        info = memref_info(self.results[0].type)
        if info is None:
            return None
        start, stop = self.SPEC.operand_range(self, "dynamicSizes")
        if info.n_dynamic != stop - start:
            return (f"incorrect number of dynamic sizes, has {stop - start}, expected "
                    f"{info.n_dynamic}")
        start, stop = self.SPEC.operand_range(self, "symbolOperands")
        if affine_symbol_count(info.layout) != stop - start:
            return "symbol operand count does not equal memref symbol count"
        return None


class DeallocOp(GpuOp):
    """``gpu.dealloc [async [..]] %m : memref<..>``."""

    __slots__ = ()
    MNEMONIC = "dealloc"
    OPERANDS = (Operand("asyncDependencies", kind=VARIADIC), Operand("memref"))
    RESULTS = (Result("asyncToken", kind=OPTIONAL),)

    @staticmethod
    def parse_custom(parser, state):
        parse_async(parser, state)
        state.operands["memref"] = [parser._parse_use()]
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("memref", "operand", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        m = op.operands[-1]
        return (_head(printer, op) + " " + printer.value_name(m) + attr_dict(printer, op)
                + f" : {m.type}")


class _CopyLikeOp(GpuOp):
    """``gpu.memcpy [async [..]] %dst, %src : T, U`` (``memset`` alike)."""

    __slots__ = ()
    RESULTS = (Result("asyncToken", kind=OPTIONAL),)

    @classmethod
    def parse_custom(cls, parser, state):
        a, b = cls.OPERANDS[1].name, cls.OPERANDS[2].name
        parse_async(parser, state)
        state.operands[a] = [parser._parse_use()]
        parser.expect(",")
        state.operands[b] = [parser._parse_use()]
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types(a, "operand", [parser.parse_type()], off)
        parser.expect(",")
        state.set_types(b, "operand", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        x, y = op.operands[-2:]
        return (_head(printer, op) + " " + print_uses(printer, (x, y)) + attr_dict(printer, op)
                + f" : {x.type}, {y.type}")


class MemcpyOp(_CopyLikeOp):
    MNEMONIC = "memcpy"
    OPERANDS = (Operand("asyncDependencies", kind=VARIADIC), Operand("dst"), Operand("src"))

    def verify_op(self):
        from .verify_util import memref_info
        dst, src = self.operands[-2:]
        a, b = memref_info(dst.type), memref_info(src.type)
        if a is None or b is None:
            return None
        if a.element != b.element:
            return "arguments have incompatible element type"
        if a.dims != b.dims:
            return "arguments have incompatible shape"
        return None


class MemsetOp(_CopyLikeOp):
    MNEMONIC = "memset"
    OPERANDS = (Operand("asyncDependencies", kind=VARIADIC), Operand("dst"), Operand("value"))

    def verify_op(self):
        from .verify_util import memref_info
        info = memref_info(self.operands[-2].type)
        if info is not None and info.element != str(self.operands[-1].type):
            return "failed to verify that all of {dst, value} have same element type"
        return None


class WaitOp(GpuOp):
    """``gpu.wait [async] [[%t, ..]]``."""

    __slots__ = ()
    MNEMONIC = "wait"
    OPERANDS = (Operand("asyncDependencies", kind=VARIADIC),)
    RESULTS = (Result("asyncToken", kind=OPTIONAL),)

    @staticmethod
    def parse_custom(parser, state):
        parse_async(parser, state)
        parse_attr_dict(parser, state)

    @staticmethod
    def print_custom(printer, op):
        return _head(printer, op) + attr_dict(printer, op)


class _HostRegistrationOp(GpuOp):
    __slots__ = ()
    OPERANDS = (Operand("value"),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["value"] = [parser._parse_use()]
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("value", "operand", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        v = op.operands[0]
        return printer.value_name(v) + attr_dict(printer, op) + f" : {v.type}"


class HostRegisterOp(_HostRegistrationOp):
    MNEMONIC = "host_register"


class HostUnregisterOp(_HostRegistrationOp):
    MNEMONIC = "host_unregister"


class SetDefaultDeviceOp(GpuOp):
    """``gpu.set_default_device %devIndex``."""

    __slots__ = ()
    MNEMONIC = "set_default_device"
    OPERANDS = (Operand("devIndex"),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["devIndex"] = [parser._parse_use()]
        state.set_types("devIndex", "operand", [I32], parser.offset)
        parse_attr_dict(parser, state)

    @staticmethod
    def print_custom(printer, op):
        return printer.value_name(op.operands[0]) + attr_dict(printer, op)


class DynamicSharedMemoryOp(GpuOp):
    """``gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>``."""

    __slots__ = ()
    MNEMONIC = "dynamic_shared_memory"
    RESULTS = (Result("resultMemref"),)

    @staticmethod
    def parse_custom(parser, state):
        parse_attr_dict(parser, state)
        parser.expect(":")
        off = parser.offset
        state.set_types("resultMemref", "result", [parser.parse_type()], off)

    @staticmethod
    def print_custom(printer, op):
        return attr_dict(printer, op) + f" : {op.results[0].type}"

    def verify_op(self):
        from .verify_util import memref_info
        t = self.results[0].type
        info = memref_info(t)
        if info is None or len(info.dims) != 1 or info.element != "i8":
            return f"result #0 must be 1D memref of 8-bit signless integer values, but got '{t}'"
        if info.space != "#gpu.address_space<workgroup>":
            return "address space must be address_space<workgroup>"
        if info.dims != ("?",) or info.layout is not None:
            return "result memref type must be memref<?xi8, #gpu.address_space<workgroup>>"
        return None
