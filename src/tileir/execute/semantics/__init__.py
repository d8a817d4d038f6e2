"""Executable semantics of the cuda_tile ops, one module per spec chapter (like
:mod:`tileir.ops`).  Each module registers *lowerings*: functions that, given an op and the plan
compiler, pick the semantics function for the op's types and attributes and return the closure
that runs it (see :mod:`tileir.execute.plan`).  The arithmetic itself is in small pure functions
over NumPy arrays, mostly :mod:`tileir.execute.numerics`, plus the native fast paths of
:mod:`.fast`."""

from . import (atomics, bitwise, control_flow, conversions, core, floating_point,  # noqa: F401
               integer, memory, misc, views)
