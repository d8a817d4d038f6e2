"""§8 Miscellaneous operations: assume, print_tko."""

from __future__ import annotations

from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from .base import CudaTileOp
from ..constraints import ANY, AnyTile, Token
from ....ir.traits import AllTypesMatch
from ..verify_util import verify_assume_predicate


class AssumeOp(CudaTileOp):
    """Attach a predicate (div_by, same_elements, bounded) to a value; no runtime effect."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "assume", 0x06, "Miscellaneous"
    OPERANDS = (Operand("value", ANY),)
    RESULTS = (Result("result", ANY),)
    ATTRIBUTES = (Attr("predicate", "predicate"),)
    TRAITS = (AllTypesMatch("value", "result"),)
    FORMAT = ("custom<AssumePredicate>($predicate) `,` $value attr-dict `:` "
              "custom<CudaTileType>(type($value))")

    def asm_result_names(self):
        # NVIDIA: "assume_" + the name the producer's OpAsmOpInterface gives the value (possibly
        # none: "assume_"); "assume" for block arguments and producers without the interface.
        from ....text.printer import asm_result_names, has_asm_interface
        value = self.operands[0] if self.operands else None
        producer = getattr(value, "owner", None)
        if producer is None or not hasattr(producer, "results") or \
                not has_asm_interface(producer):
            return ["assume"]
        names = asm_result_names(producer) or []
        idx = value.index
        if idx < len(names) and names[idx]:
            return ["assume_" + names[idx]]
        return ["assume_"]

    def verify_op(self):
        return verify_assume_predicate(self)



class PrintTkoOp(CudaTileOp):
    """printf-style print of tiles, ordered by tokens (spelled ``print`` before 13.2)."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP = "print_tko", 0x55, "Miscellaneous"
    OPERANDS = (Operand("args", AnyTile, VARIADIC), Operand("token", Token, OPTIONAL, since="13.2"))
    RESULTS = (Result("result_token", Token, since="13.2"),)
    ATTRIBUTES = (Attr("str", "str"),)
    ATTR_SIZED_OPERANDS = True
    FORMAT = ("$str (`,` $args^)? (`token` `` `=` `` $token^)? attr-dict "
              "(`:` custom<CudaTileType>(type($args))^)? `->` "
              "custom<CudaTileType>(type($result_token))")

    @staticmethod
    def infer_parsed_types(state) -> bool:
        from ..types import TOKEN
        if state.operands.get("token") and "token" not in state.operand_types:
            state.operand_types["token"] = [TOKEN]
            return True
        return False

    def verify_op(self):
        text = self.attributes["str"].value
        expected = 0
        pos = 0
        n = len(text)
        while pos < n:
            if text[pos] != "%":
                pos += 1
                continue
            end = pos + 1
            while end < n and text[end] not in "diuoxXeEfFgGaAcsSpn%":
                end += 1
            if end >= n:
                return "found unterminated format expression"
            if end == pos + 1 and text[end] == "%":
                pos += 2
                continue
            expected += 1
            pos += 1
        nargs = len(self.args)
        if expected != nargs:
            return f"incorrect number of operands: expected {expected}, found {nargs}"
        return None

