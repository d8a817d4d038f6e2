"""The cf dialect's ops (MLIR 22): ``assert``, ``br``, ``cond_br`` and ``switch``."""

from __future__ import annotations

from typing import Optional

from ...ir.attributes import DenseArrayAttr
from ...ir.constraints import ANY_TYPE, Pred
from ...ir.opdef import VARIADIC, Attr, OpBase, Operand, Trait
from ...ir.traits import Pure, Terminator
from ...ir.types import I1
from ..arith.types import int_width
from .syntax import (SwitchCases, case_values, parse_destination, parse_weights,
                     print_destination)

__all__ = ["AssertOp", "BranchOp", "CondBranchOp", "SwitchOp", "branch_weights_error"]

I1_ONLY = Pred(lambda t: t is I1, "1-bit signless integer")
I1_ONLY.buildable = I1
INT = Pred(lambda t: int_width(str(t)) is not None, "integer")


class _SuccessorsTerminate(Trait):
    """MLIR's core rule, checked before the op's traits: an op with successors ends its
    block."""

    PHASE = "structural"

    def verify(self, op):
        block = op.parent
        if op.successors and block is not None and block.ops[-1] is not op:
            from ...ir.verify import op_error
            return op_error(op, "operation with block successors must terminate its parent "
                                "block")
        return None


BRANCH_TRAITS = (_SuccessorsTerminate(), Pure, Terminator())


def branch_weights_error(op) -> Optional[object]:
    """The error of a branch whose ``branch_weights`` do not number its successors, or None
    (cf.cond_br, llvm.cond_br, llvm.switch)."""
    weights = op.attributes.get("branch_weights")
    if isinstance(weights, DenseArrayAttr) and weights.value and \
            len(weights.value) != len(op.successors):
        from ...ir.verify import op_error
        return op_error(op, "expects number of branch weights to match number of "
                            f"successors: {len(weights.value)} vs {len(op.successors)}")
    return None


class CfOp(OpBase):
    """Base of every cf op."""

    __slots__ = ()
    DIALECT_NAME = "cf"
    #: how many successors the op has (None: any number, at least one)
    SUCCESSORS: Optional[int] = None

    def successor_operands(self) -> list:
        """The operands passed to each successor, in successor order."""
        return []

    def verify_op(self):
        n = self.SUCCESSORS
        if n is not None and len(self.successors) != n:
            return f"requires {n} successor{'s' if n != 1 else ''} but found " \
                   f"{len(self.successors)}"
        return self.verify_cf()

    def verify_cf(self):
        return None

    def verify_regions(self):
        from ...ir.verify import op_error
        groups = self.successor_operands()
        for k, (block, values) in enumerate(zip(self.successors, groups)):
            if len(values) != len(block.args):
                return op_error(self, f"branch has {len(values)} operands for successor #{k}, "
                                      f"but target block has {len(block.args)}")
            for i, (v, a) in enumerate(zip(values, block.args)):
                if v.type != a.type:
                    return op_error(self, f"type mismatch for bb argument #{i} of successor "
                                          f"#{k}")
        return None


def _range(op, name: str) -> list:
    start, stop = op.SPEC.operand_range(op, name)
    return op.operands[start:stop]


class AssertOp(CfOp):
    """Aborts with ``msg`` when the condition is false."""

    __slots__ = ()
    MNEMONIC = "assert"
    SUCCESSORS = 0
    OPERANDS = (Operand("arg", I1_ONLY),)
    ATTRIBUTES = (Attr("msg", "str", summary="string attribute"),)
    FORMAT = "$arg `,` $msg attr-dict"


class BranchOp(CfOp):
    """Unconditional branch."""

    __slots__ = ()
    MNEMONIC = "br"
    SUCCESSORS = 1
    OPERANDS = (Operand("destOperands", ANY_TYPE, VARIADIC),)
    TRAITS = BRANCH_TRAITS

    def successor_operands(self) -> list:
        return [list(self.operands)]

    @staticmethod
    def parse_custom(parser, state):
        block = parse_destination(parser, state, "destOperands")
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        op = state.build()
        op.successors = [block]
        return op

    @staticmethod
    def print_custom(printer, op) -> str:
        return " " + print_destination(printer, op.successors[0], op.operands) + \
            printer.attr_dict_text(op, set())


class CondBranchOp(CfOp):
    """Conditional branch, with optional branch weights."""

    __slots__ = ()
    MNEMONIC = "cond_br"
    SUCCESSORS = 2
    OPERANDS = (Operand("condition", I1_ONLY), Operand("trueDestOperands", ANY_TYPE, VARIADIC),
                Operand("falseDestOperands", ANY_TYPE, VARIADIC))
    ATTRIBUTES = (Attr("branch_weights", "array_i32", optional=True,
                       summary="i32 dense array attribute"),)
    ATTR_SIZED_OPERANDS = True
    TRAITS = BRANCH_TRAITS

    def successor_operands(self) -> list:
        return [_range(self, "trueDestOperands"), _range(self, "falseDestOperands")]

    def verify_cf(self):
        return branch_weights_error(self)

    @staticmethod
    def parse_custom(parser, state):
        tok, off = parser.tok, parser.offset
        if not tok or tok[0] != "%":
            raise parser.wrong_token_error("expected SSA operand")
        parser.i += 1
        state.operands["condition"] = [(tok, off)]
        if parser.tok == "weights":
            parser.i += 1
            state.attrs["branch_weights"] = parse_weights(parser)
        parser.expect(",")
        true_block = parse_destination(parser, state, "trueDestOperands")
        parser.expect(",")
        false_block = parse_destination(parser, state, "falseDestOperands")
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        op = state.build()
        op.successors = [true_block, false_block]
        return op

    @staticmethod
    def print_custom(printer, op) -> str:
        text = " " + printer.value_name(op.operands[0])
        weights = op.attributes.get("branch_weights")
        if isinstance(weights, DenseArrayAttr):
            text += " weights([" + ", ".join(map(str, weights.value)) + "])"
        true_ops, false_ops = op.successor_operands()
        return (text + ", " + print_destination(printer, op.successors[0], true_ops) + ", "
                + print_destination(printer, op.successors[1], false_ops)
                + printer.attr_dict_text(op, {"branch_weights"}))


class SwitchOp(CfOp):
    """Multi-way branch on an integer flag."""

    __slots__ = ()
    MNEMONIC = "switch"
    OPERANDS = (Operand("flag", INT), Operand("defaultOperands", ANY_TYPE, VARIADIC),
                Operand("caseOperands", ANY_TYPE, VARIADIC))
    ATTRIBUTES = (Attr("case_values", "any", optional=True,
                       summary="integer elements attribute"),
                  Attr("case_operand_segments", "array_i32",
                       summary="i32 dense array attribute"))
    ATTR_SIZED_OPERANDS = True
    TRAITS = BRANCH_TRAITS

    def successor_operands(self) -> list:
        groups = [_range(self, "defaultOperands")]
        cases = _range(self, "caseOperands")
        seg = self.attributes.get("case_operand_segments")
        start = 0
        for n in (seg.value if isinstance(seg, DenseArrayAttr) else ()):
            groups.append(cases[start:start + n])
            start += n
        return groups

    def verify_cf(self):
        values = case_values(self.attributes.get("case_values"))
        if len(values) != len(self.successors) - 1:
            return (f"number of case values ({len(values)}) and case destinations "
                    f"({len(self.successors) - 1}) should match")
        return None

    @staticmethod
    def parse_custom(parser, state):
        tok, off = parser.tok, parser.offset
        if not tok or tok[0] != "%":
            raise parser.wrong_token_error("expected SSA operand")
        parser.i += 1
        state.operands["flag"] = [(tok, off)]
        parser.expect(":")
        flag_off = parser.offset
        flag_type = parser.parse_type()
        if int_width(str(flag_type)) is None:
            raise parser.error(f"{parser.op_prefix()}invalid kind of type specified: expected "
                               f"builtin.integer, but found '{flag_type}'", flag_off)
        state.set_types("flag", "operand", [flag_type], flag_off)
        parser.expect(",")
        parser.expect("[")
        if parser.tok != "default":
            raise parser.error(f"{parser.op_prefix()}expected 'default'")
        parser.i += 1
        parser.expect(":")
        default = parse_destination(parser, state, "defaultOperands")
        cases = SwitchCases()
        while parser.consume(","):
            cases.parse(parser, state)
        parser.expect("]")
        cases.finish(state, flag_type, int_width(str(flag_type)) or 64, flag_off)
        if parser.tok == "{":
            state.attrs.update(parser.parse_attr_dict_body())
        op = state.build()
        op.successors = [default] + cases.blocks
        return op

    @staticmethod
    def print_custom(printer, op) -> str:
        flag = op.operands[0]
        groups = op.successor_operands()
        pad = "  " * (printer.indent + 1)
        lines = [f"{pad}default: " + print_destination(printer, op.successors[0], groups[0])]
        width = int_width(str(flag.type)) or 64
        for value, block, values in zip(case_values(op.attributes.get("case_values")),
                                        op.successors[1:], groups[1:]):
            lines.append(f"{pad}{value % (1 << width)}: "
                         + print_destination(printer, block, values))
        closing = "]" if len(lines) == 1 else "\n" + "  " * printer.indent + "]"
        return (f" {printer.value_name(flag)} : {flag.type}, [\n" + ",\n".join(lines) + closing
                + printer.attr_dict_text(op, {"case_values", "case_operand_segments"}))
