"""The cuda_tile dialect's registrations with the dialect-agnostic core (:mod:`tileir.ir`):
its type invariants and version checks, attribute kinds and enum summaries for the verifier.
Imported by :mod:`tileir.dialects.cuda_tile.ops`, i.e. whenever the dialect's ops are."""

from __future__ import annotations

from ...ir import verify as _verify
from .attributes import AssumePredicate, OptimizationHintsAttr
from .type_verify import deep_type_error, type_version_error

_verify.register_type_verifier(deep_type_error)
_verify.TYPE_VERSION_CHECKS.append(type_version_error)
_verify.ATTR_KINDS.update({
    "hints": (lambda v: isinstance(v, OptimizationHintsAttr), ""),
    "predicate": (lambda v: isinstance(v, AssumePredicate), "AssumePredicateAttrInterface instance"),
})
_verify.ENUM_SUMMARIES.update({
    "Signedness": "signedness", "IntegerOverflow": "integer overflow",
    "RoundingMode": "rounding mode", "ComparisonOrdering": "comparison_ordering",
    "ComparisonPredicate": "cmp_predicate", "AtomicRMWMode": "",
    "MemoryScope": "memory scope", "MemoryOrderingSemantics": "memory ordering semantics",
    "PaddingValue": "load padding value for out of bound access",
    "SymbolVisibility": "symbol visibility",
})
