"""IR core: values, operations, blocks, regions and declarative op definitions."""

from .core import Block, BlockArgument, IRError, Operation, OpResult, Region, Value
from .opdef import OP_REGISTRY, OpBase, OpSpec, lookup_op, make_op

__all__ = ["Block", "BlockArgument", "IRError", "Operation", "OpResult", "Region", "Value",
           "OP_REGISTRY", "OpBase", "OpSpec", "lookup_op", "make_op"]
