"""index: custom and generic printing and verifier messages identical to mlir-opt 22."""

from __future__ import annotations

from tileir.dialects.index.ops import BINARY
from mlir_diff import assert_same_errors, assert_same_printing, in_func

PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


def test_index_ops_print_like_mlir_opt():
    lines = [f"%{op} = index.{op} %a, %b" for op in BINARY]
    lines += [f"%c_{p} = index.cmp {p}(%a, %b)" for p in PREDICATES]
    lines += ["%0 = index.casts %a : index to i32", "%1 = index.castu %i : i32 to index",
              "%2 = index.casts %i : i32 to index", "%3 = index.castu %a : index to i1",
              "%k0 = index.constant 42", "%k1 = index.constant -1", "%k2 = index.constant 0",
              "%k3 = index.constant 42", "%t = index.bool.constant true",
              "%f = index.bool.constant false", "%s = index.sizeof", "%s2 = index.sizeof {x}",
              "%z = index.add %a, %b {tag = 1 : i32}", "%k4 = index.constant {n} 7"]
    body = "\n".join("  " + line for line in lines)
    chunks = [in_func(body + "\n  return", "%a: index, %b: index, %i: i32")]
    assert assert_same_printing(chunks) == 1


INVALID = [
    ('%0 = "index.casts"(%f) : (f32) -> index', "%f: f32"),
    ('%0 = "index.casts"(%i) : (i32) -> i64', "%i: i32"),
    ('%0 = "index.add"(%i, %i) : (i32, i32) -> index', "%i: i32"),
    ('%0 = "index.cmp"(%a, %a) : (index, index) -> i1', "%a: index"),
    ('%0 = "index.constant"() {value = 1 : i32} : () -> index', ""),
    ('%0 = "index.casts"(%a) : (index) -> index', "%a: index"),
    ('%0 = "index.cmp"(%a, %a) {pred = #index<cmp_predicate eq>} : (index, index) -> i32',
     "%a: index"),
    ('%0 = "index.bool.constant"() {value = 1 : i64} : () -> i1', ""),
    ('%0 = "index.sizeof"() : () -> i64', ""),
]


def test_index_invalid_like_mlir_opt():
    chunks = [in_func(f"  {body}\n  return", args) for body, args in INVALID]
    assert assert_same_errors(chunks) == len(chunks)
