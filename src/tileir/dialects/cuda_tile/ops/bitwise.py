"""§8 Bitwise operations: andi, ori, xori."""

from __future__ import annotations

from ....ir.opdef import Operand, Result
from .base import BINARY_FMT, CudaTileOp
from ..constraints import IntTile
from ....ir.traits import AllTypesMatch, Pure


class _BitwiseBinary(CudaTileOp):
    __slots__ = ()
    GROUP = "Bitwise"
    OPERANDS = (Operand("lhs", IntTile), Operand("rhs", IntTile))
    RESULTS = (Result("result", IntTile),)
    TRAITS = (Pure, AllTypesMatch("lhs", "rhs", "result"))
    FORMAT = BINARY_FMT


class AndIOp(_BitwiseBinary):
    """Element-wise bitwise AND."""
    __slots__ = ()
    MNEMONIC, OPCODE = "andi", 0x04


class OrIOp(_BitwiseBinary):
    """Element-wise bitwise OR."""
    __slots__ = ()
    MNEMONIC, OPCODE = "ori", 0x52


class XOrIOp(_BitwiseBinary):
    """Element-wise bitwise XOR."""
    __slots__ = ()
    MNEMONIC, OPCODE = "xori", 0x6C
