"""cuda-tile's test-only ops for bytecode versioning (``TestingOps.td``, built with
``TILE_IR_INCLUDE_TESTS``): they exist in the test versions 250.0 / 250.1 only and let the
bytecode conformance tests exercise attributes, operands and results added in a later version.
"""

from __future__ import annotations

from ..attributes import TileEnum, i32_attr
from ....ir.opdef import OPTIONAL, VARIADIC, Attr, Operand, Result
from .base import CudaTileOp
from ..constraints import AnyTile, Token


class BytecodeTestPriority(TileEnum):
    LOW = 0
    NORMAL = 1
    HIGH = 2


class BytecodeTestNewAttributeOp(CudaTileOp):
    """Gains a unit attribute and a default-valued attribute in 250.1."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "testing$bytecode_test_new_attribute", 0x3000, "Testing", \
        "250.0"
    TESTING = True
    ATTRIBUTES = (Attr("new_flag", "unit", since="250.1"),
                  Attr("new_param", "i32", default=i32_attr(42), since="250.1"))
    FORMAT = "(`new_flag` $new_flag^)? (`new_param` `=` $new_param^)? attr-dict"


class BytecodeTestEvolutionOp(CudaTileOp):
    """Gains an optional operand, optional attributes and a result in 250.1."""
    __slots__ = ()
    MNEMONIC, OPCODE, GROUP, SINCE = "testing$bytecode_test_evolution", 0x3002, "Testing", \
        "250.0"
    TESTING = True
    OPERANDS = (Operand("inputs", AnyTile, VARIADIC, since="250.0"),
                Operand("optional_token", Token, OPTIONAL, since="250.1"))
    RESULTS = (Result("result_token", Token, since="250.1"),)
    ATTRIBUTES = (Attr("new_attr", "i32", optional=True, since="250.1"),
                  Attr("priority", BytecodeTestPriority, optional=True, since="250.0"))
    ATTR_SIZED_OPERANDS = True
    FORMAT = ("`(` $inputs `:` type($inputs) `)` (`new_attr` `=` $new_attr^)? "
              "(`token` `=` $optional_token^ `:` custom<CudaTileType>(type($optional_token)))? "
              "(`priority` `=` $priority^)? `->` custom<CudaTileType>(type($result_token)) "
              "attr-dict")
