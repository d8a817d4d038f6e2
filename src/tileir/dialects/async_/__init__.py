"""MLIR's async dialect (MLIR 22), the part host programs write by hand or get from
``-async-parallel-for`` and MLIR's async GPU tests: ``async.execute`` (a region run
asynchronously after its token dependencies, with ``!async.value`` operands and results),
``async.yield``, ``async.await``, ``async.create_group``, ``async.add_to_group``,
``async.await_all``; the types ``!async.token``, ``!async.value<T>`` and ``!async.group``.
Importing it registers them."""

from . import ops, types  # noqa: F401  (registers the types and ops)
