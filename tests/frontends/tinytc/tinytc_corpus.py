"""Locating the tinytc v0.3.1 corpus in ../shared/conformance/tinytc (or
``$TILEIR_CONFORMANCE_DIR/tinytc``); tests skip when it is absent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


def tinytc_dir() -> Path:
    env = os.environ.get("TILEIR_CONFORMANCE_DIR")
    for root in ([Path(env)] if env else []) + [REPO.parent / "shared" / "conformance"]:
        if (root / "tinytc").is_dir():
            return root / "tinytc"
    pytest.skip("tinytc corpus not found: set TILEIR_CONFORMANCE_DIR or put "
                "../shared/conformance beside the repository")


#: the lit files tinytc v0.3.1 compiles
PASSING = ["atomic", "axpby1", "dope_vector0", "dope_vector_group0", "expand", "for",
           "func_attributes", "fuse", "if", "load", "scalar_arithmetic", "size", "store",
           "subview_return_type"]

#: the lit files tinytc rejects: (location, message) as tinytc reports it
FAILING = {
    "axpby0": ("6.5-77", "Incompatible tensor shapes"),
    "nesting0": ("7.9-99", "Collective instruction must not be called from SPMD region"),
    "nesting1": ("7.9-8.9", "Collective instruction must not be called from SPMD region"),
    "scalar_arithmetic_error": ("6.8-29", "Floating point type unsupported for instruction"),
    "syntax_error0": ("5.23-25", "syntax error, unexpected FLOATING_TYPE, expecting <"),
    "syntax_error1": ("6.5", "Unknown token"),
    "type_mismatch0": ("6.13-31", "Type of SSA value does not match operand type"),
    "type_mismatch1": ("9.13-44", "Type of SSA value does not match operand type"),
}

#: documentation snippets that parse
DOCS_OK = ["docs/manual/tensor-ir.sample_fused_kernel.ir",
           "docs/manual/tutorial_matrix_chain.fused_kernel.ir",
           "examples/simple_cl/copy.ir", "examples/simple_ze/copy.ir"]

#: documentation bugs (INDEX.md): the error we give
DOCS_BUGS = {
    "docs/manual/builder.copy_template.ir.in": ("2.23", "Unknown token"),
    "docs/manual/calling_convention.examples.ir":
        ("7.47", "syntax error, unexpected ), expecting >"),
    "docs/manual/core.parse_error_example.ir":
        ("3.13-31", "Type of SSA value does not match operand type"),
}
