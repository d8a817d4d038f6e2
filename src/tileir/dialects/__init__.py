"""Dialects, one package each: their types, attributes, ops (declarative), custom syntax and
verifier rules.  A dialect registers itself with :mod:`tileir.ir` (ops in
:data:`~tileir.ir.opdef.OP_REGISTRY`, type checks and attribute kinds in :mod:`tileir.ir.verify`)
and :mod:`tileir.text` (:mod:`tileir.text.registry`) when imported; ``import tileir`` imports
them all."""
