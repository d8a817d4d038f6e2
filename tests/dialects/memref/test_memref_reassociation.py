"""expand_shape / collapse_shape reassociations verified as mlir-opt 22 verifies them (group by
group: contiguous indices, in bounds, then the group's sizes; then the expanded rank), with
indices read as i64 attributes (MLIR wraps [2**63, 2**64)).  Fuzzer finding: an index of
18446744073709551615 was kept as such, and its custom form read back as -1.  The expected
messages are mlir-opt 22's."""

from __future__ import annotations

import pytest

from tileir.cli.opt import process_buffer
from tileir.text import print_op

EXPAND = ("func.func @f(%m: {src}) {{\n  %e = memref.expand_shape %m {r} output_shape {shape} : "
          "{src} into {dst}\n  return\n}}\n")


def diagnostics(text):
    result = process_buffer(text, "<stdin>")
    return [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics
            if d.severity == "error"] or print_op(result.module)


@pytest.mark.parametrize("r, message", [
    ("[[18446744073709551615, 1], [2]]", "reassociation indices must be contiguous"),
    ("[[1, 0], [2]]", "reassociation indices must be contiguous"),
    ("[[0, 1], [3]]", "reassociation indices must be contiguous"),
    ("[[0, 1, 2], [4]]", "collapsed dim size (4) must equal reassociation group size (32)"),
    ("[[0, 1], [2, 3]]", "reassociation index 3 is out of bounds"),
    ("[[0], [1, 2]]", "collapsed dim size (4) must equal reassociation group size (2)"),
])
def test_expand_shape_reassociation_messages(r, message):
    text = EXPAND.format(src="memref<4x8xf32>", dst="memref<2x2x8xf32>", r=r,
                         shape="[2, 2, 8]")
    assert diagnostics(text) == [f"2:8: 'memref.expand_shape' op {message}"]


def test_expanded_rank_must_be_covered():
    text = EXPAND.format(src="memref<4xf32>", dst="memref<2x2x1xf32>", r="[[0, 1]]",
                         shape="[2, 2, 1]")
    assert diagnostics(text) == ["2:8: 'memref.expand_shape' op expanded rank (3) inconsistent "
                                 "with number of reassociation indices (2)"]


def test_indices_are_i64_attributes():
    text = EXPAND.format(src="memref<4x8xf32>", dst="memref<2x2x8xf32>",
                         r="[[18446744073709551616, 1], [2]]", shape="[2, 2, 8]")
    assert diagnostics(text) == ["2:33: integer constant out of range for attribute"]
    text = EXPAND.format(src="memref<4x8xf32>", dst="memref<2x2x8xf32>",
                         r="[[-9223372036854775809, 1], [2]]", shape="[2, 2, 8]")
    assert diagnostics(text) == ["2:34: integer constant out of range for attribute"]
    module = process_buffer(text.replace("-9223372036854775809", "18446744073709551615"),
                            "<stdin>").module
    assert "[[-1, 1], [2]]" in print_op(module, generic=True)


def test_collapse_shape_contiguity():
    text = ("func.func @f(%m: memref<2x2x8xf32>) {\n  %e = memref.collapse_shape %m "
            "[[0, 2], [1]] : memref<2x2x8xf32> into memref<4x8xf32>\n  return\n}\n")
    assert diagnostics(text) == ["2:8: 'memref.collapse_shape' op reassociation indices must be "
                                 "contiguous"]
