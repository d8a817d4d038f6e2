"""The cuda_tile op definitions, one module per spec chapter.  Importing this package registers
every op in :data:`tileir.ir.opdef.OP_REGISTRY`."""

from .. import directives  # noqa: F401  (registers custom format directives)
from .. import dialect  # noqa: F401  (registers type checks and attribute kinds)
from . import (atomics, bitwise, control_flow, conversions, core, floating_point,  # noqa: F401
               functions, integer, memory, misc, testing, views)
from .base import CudaTileOp
from .. import syntax  # noqa: F401,E402  (registers the dialect's text syntax)

__all__ = ["CudaTileOp"]
