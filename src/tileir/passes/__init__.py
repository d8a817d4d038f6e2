"""Transformations: a pass manager with MLIR's pipeline syntax, a greedy pattern rewriter,
CSE, canonicalization and cuda_tile's passes.

>>> tileir.passes.run(module, "builtin.module(canonicalize, cse)")      # doctest: +SKIP

``run`` transforms ``module`` in place (verifying after every pass) and returns it.
"""

from __future__ import annotations

from typing import Optional

from ..ir.core import Operation
from .manager import PASSES, AfterPassHook, Pass, PassFailure, register_pass, run_pipeline
from .pipeline import PipelineError, parse_pipeline

__all__ = ["run", "run_pipeline", "Pass", "PassFailure", "PASSES", "register_pass",
           "PipelineError", "parse_pipeline", "available_passes"]


def run(module: Operation, pipeline: str, *, verify: bool = True,
        after_pass: Optional[AfterPassHook] = None) -> Operation:
    """Run the textual ``pipeline`` on ``module`` in place and return it."""
    return run_pipeline(module, pipeline, verify=verify, after_pass=after_pass)


def available_passes() -> dict[str, str]:
    """Registered pass names and their one-line summaries."""
    from .manager import _load_builtin_passes
    _load_builtin_passes()
    return {name: cls.SUMMARY for name, cls in sorted(PASSES.items())}
