"""The async dialect's ops (MLIR 22): ``execute``, ``yield``, ``await``, ``create_group``,
``add_to_group`` and ``await_all``, with their custom syntax (as mlir-opt 22 prints them)."""

from __future__ import annotations

from ...ir.constraints import ANY_TYPE, Pred
from ...ir.opdef import VARIADIC, OpBase, Operand, RegionDef, Result
from ...ir.traits import ParentOneOf, RecursiveMemoryEffects, Terminator
from ..scf.common import INDEX, INDEX_TYPE
from .types import GROUP, TOKEN, TokenType, ValueType

__all__ = ["AsyncOp", "ExecuteOp", "YieldOp", "AwaitOp", "CreateGroupOp", "AddToGroupOp",
           "AwaitAllOp"]

TOKEN_TYPE = Pred(lambda t: isinstance(t, TokenType), "async token type")
VALUE_TYPE = Pred(lambda t: isinstance(t, ValueType), "async value type")
TOKEN_OR_VALUE = Pred(lambda t: isinstance(t, (TokenType, ValueType)),
                      "async value type or async token type")
GROUP_TYPE = Pred(lambda t: t is GROUP, "async group type")


class AsyncOp(OpBase):
    """Base of the async ops."""

    __slots__ = ()
    DIALECT_NAME = "async"
    DEFAULT_DIALECT = ""


class ExecuteOp(AsyncOp):
    """``%token, %results = async.execute [%deps] (%v as %arg: !async.value<T>, ...)
    -> !async.value<R>, ... { ... async.yield %r : R }``."""

    __slots__ = ()
    MNEMONIC = "execute"
    ATTR_SIZED_OPERANDS = True
    OPERANDS = (Operand("dependencies", TOKEN_TYPE, VARIADIC),
                Operand("bodyOperands", TOKEN_OR_VALUE, VARIADIC))
    RESULTS = (Result("token", TOKEN_TYPE), Result("bodyResults", VALUE_TYPE, VARIADIC))
    REGIONS = (RegionDef("bodyRegion", "any"),)
    TRAITS = (RecursiveMemoryEffects,)

    def asm_result_names(self):
        return ["token"] + ["bodyResults"] * (len(self.results) - 1)

    @staticmethod
    def parse_custom(parser, state):
        deps = []
        if parser.consume("["):
            if parser.tok != "]":
                deps = parser.parse_comma_list(parser._parse_use, "]")
            parser.expect("]")
        operands, entry = [], []
        if parser.consume("("):
            def one():
                operands.append(parser._parse_use())
                parser.expect_keyword("as")
                name, off = parser.tok, parser.offset
                parser.i += 1
                parser.expect(":")
                t = parser.parse_type()
                entry.append((name, t, off, None))
            if parser.tok != ")":
                parser.parse_comma_list(one, ")")
            parser.expect(")")
        results = []
        if parser.consume("->"):
            results = parser.parse_comma_list(parser.parse_type)
        if parser.tok == "attributes":
            parser.i += 1
            state.attrs.update(parser.parse_attr_dict_body())
        from ...ir.core import Region
        region = Region()
        body_args = [(n, t.value_type if isinstance(t, ValueType) else t, off, loc)
                     for n, t, off, loc in entry]
        parser.parse_region_into(region, None, isolated=False, dialect="",
                                 entry_args=body_args or None)
        if not region.blocks:
            region.add_block([a[1] for a in body_args])
        state.operands["dependencies"] = deps
        state.operand_types["dependencies"] = [TOKEN] * len(deps)
        state.operands["bodyOperands"] = operands
        state.operand_types["bodyOperands"] = [t for _, t, _, _ in entry]
        state.result_types["token"] = [TOKEN]
        state.result_types["bodyResults"] = results
        state.regions["bodyRegion"] = region
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        n_deps = op.segments[0] if op.segments else 0
        deps, operands = op.operands[:n_deps], op.operands[n_deps:]
        text = ""
        if deps:
            text += " [" + ", ".join(printer.value_name(v) for v in deps) + "]"
        region = op.regions[0]
        args = region.blocks[0].args if region.blocks else []
        if operands:
            text += " (" + ", ".join(
                f"{printer.value_name(v)} as {printer.value_name(a)}: {v.type}"
                for v, a in zip(operands, args)) + ")"
        if len(op.results) > 1:
            text += " -> " + ", ".join(str(r.type) for r in op.results[1:])
        text += printer.attr_dict_text(op, set(), with_keyword=True)
        return text + " " + printer.render_region(region)

    def verify_op(self):
        n_deps = self.segments[0] if self.segments else 0
        operands = self.operands[n_deps:]
        region = self.regions[0]
        if not region.blocks:
            return "expects a non-empty body region"
        args = region.blocks[0].args
        if len(args) != len(operands):
            return "expects the body region to take one argument per async operand"
        for v, a in zip(operands, args):
            want = v.type.value_type if isinstance(v.type, ValueType) else v.type
            if a.type != want:
                return f"expects body argument type {want}, got {a.type}"
        ops = region.blocks[0].ops
        if not ops or ops[-1].name != "async.yield":
            return "expects the body region to end with 'async.yield'"
        yielded = [v.type for v in ops[-1].operands]
        results = [r.type for r in self.results[1:]]
        if len(yielded) != len(results):
            return ("along control flow edge from Operation async.yield to parent: region "
                    f"branch point has {len(yielded)} operands, but region successor needs "
                    f"{len(results)} inputs")
        for k, (y, r) in enumerate(zip(yielded, results)):
            if y != r.value_type:
                return ("along control flow edge from Operation async.yield to parent: "
                        f"successor operand type #{k} '{y}' should match successor input "
                        f"type #{k} '{r}'")
        return None


class YieldOp(AsyncOp):
    """``async.yield %v, ... : T, ...``: ends an ``async.execute`` body."""

    __slots__ = ()
    MNEMONIC = "yield"
    OPERANDS = (Operand("operands", ANY_TYPE, VARIADIC),)
    TRAITS = (Terminator(), ParentOneOf("async.execute"))
    FORMAT = "($operands^ `:` type($operands))? attr-dict"


class AwaitOp(AsyncOp):
    """``async.await %x : !async.token`` / ``%v = async.await %x : !async.value<T>``: block until
    the token (value) is ready; the value's ``T``."""

    __slots__ = ()
    MNEMONIC = "await"
    OPERANDS = (Operand("operand", TOKEN_OR_VALUE),)
    RESULTS = (Result("result", ANY_TYPE, VARIADIC),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["operand"] = [parser._parse_use()]
        parser.expect(":")
        t = parser.parse_type()
        state.operand_types["operand"] = [t]
        state.result_types["result"] = [t.value_type] if isinstance(t, ValueType) else []
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {printer.value_name(op.operands[0])} : {op.operands[0].type}"
                + printer.attr_dict_text(op, set()))


class CreateGroupOp(AsyncOp):
    """``%g = async.create_group %size : !async.group``."""

    __slots__ = ()
    MNEMONIC = "create_group"
    OPERANDS = (Operand("size", INDEX),)
    RESULTS = (Result("result", GROUP_TYPE),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["size"] = [parser._parse_use()]
        state.operand_types["size"] = [INDEX_TYPE]
        parser.expect(":")
        state.result_types["result"] = [parser.parse_type()]
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {printer.value_name(op.operands[0])} : {op.results[0].type}"
                + printer.attr_dict_text(op, set()))


class AddToGroupOp(AsyncOp):
    """``%rank = async.add_to_group %token, %group : !async.token``: the token's place."""

    __slots__ = ()
    MNEMONIC = "add_to_group"
    OPERANDS = (Operand("operand", TOKEN_OR_VALUE), Operand("group", GROUP_TYPE))
    RESULTS = (Result("rank", INDEX),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["operand"] = [parser._parse_use()]
        parser.expect(",")
        state.operands["group"] = [parser._parse_use()]
        parser.expect(":")
        state.operand_types["operand"] = [parser.parse_type()]
        state.operand_types["group"] = [GROUP]
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        state.result_types["rank"] = [INDEX_TYPE]
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return (f" {printer.value_name(op.operands[0])}, {printer.value_name(op.operands[1])} "
                f": {op.operands[0].type}" + printer.attr_dict_text(op, set()))


class AwaitAllOp(AsyncOp):
    """``async.await_all %group``: block until every token of the group is ready."""

    __slots__ = ()
    MNEMONIC = "await_all"
    OPERANDS = (Operand("operand", GROUP_TYPE),)

    @staticmethod
    def parse_custom(parser, state):
        state.operands["operand"] = [parser._parse_use()]
        state.operand_types["operand"] = [GROUP]
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        return state.build()

    @staticmethod
    def print_custom(printer, op):
        return f" {printer.value_name(op.operands[0])}" + printer.attr_dict_text(op, set())
