"""The builder API: ops from Python with the result types the op definitions imply."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.dialects.cuda_tile.builder import Builder, to_type
from tileir.ir.core import IRError
from tileir.text import parse_module, print_op
from tileir.dialects.cuda_tile.types import TOKEN
from tileir.ir.verify import verify_op_tree


def func(b: Builder, name, types):
    """A ``testing$func`` (like ``entry``, but arguments may be any tiles)."""
    return b.entry(name, types, op_name="cuda_tile.testing$func")


def _check(b: Builder) -> str:
    """The module verifies, and print -> parse -> print is a fixed point."""
    assert verify_op_tree(b.module) == []
    text = print_op(b.module)
    again = parse_module(text).regions[0].blocks[0].ops[0]
    assert print_op(again) == text
    return text


def test_inferred_result_types():
    b = Builder()
    with func(b, "k", ["tile<4xf32>", "tile<4xi32>", "tile<4xptr<f32>>"]) as (x, i, p):
        assert b.addf(x, x).type == x.type                       # AllTypesMatch
        assert b.cmpf(x, x, comparison_predicate="less_than",
                      comparison_ordering="ordered").type == to_type("tile<4xi1>")  # TypesMatchWith
        assert b.cmpi(i, i, comparison_predicate="equal",
                      signedness="signed").type == to_type("tile<4xi1>")
        assert b.make_token().type is TOKEN                      # buildable type
        bx, by, bz = b.get_tile_block_id()
        assert bx.type == to_type("tile<i32>")
        v, tok = b.load_ptr_tko(p, memory_ordering_semantics="weak")
        assert (v.type, tok.type) == (to_type("tile<4xf32>"), TOKEN)   # pointee tile
        assert b.exti(i, signedness="signed", result_type="i64").type == to_type("tile<4xi64>")
        assert b.offset(p, i).type == p.type
        assert b.assume(i, predicate="div_by<4>").type == i.type
    _check(b)


def test_result_type_required_where_the_spec_leaves_it_open():
    b = Builder()
    with func(b, "k", ["tile<4xf32>"]) as (x,):
        with pytest.raises(IRError, match="cannot infer the type of result"):
            b.reshape(x)
        assert b.reshape(x, result_type="tile<2x2xf32>").type == to_type("tile<2x2xf32>")


def test_attributes_from_python_values():
    b = Builder()
    with func(b, "k", ["tile<4xf32>", "tile<4xi32>"]) as (x, i):
        b.addf(x, x, rounding_mode="zero", flush_to_zero=True)
        b.maxf(x, x, propagate_nan=True)
        b.addi(i, i, overflow="no_wrap")
        b.divi(i, i, signedness="unsigned", rounding="positive_inf")
        b.permute(b.reshape(x, result_type="tile<2x2xf32>"), permutation=[1, 0],
                  result_type="tile<2x2xf32>")
    text = _check(b)
    assert "addf %arg0, %arg0 rounding<zero> flush_to_zero : tile<4xf32>" in text
    assert "maxf %arg0, %arg0 propagate_nan : tile<4xf32>" in text
    assert "addi %arg1, %arg1 overflow<no_wrap> : tile<4xi32>" in text
    assert "divi %arg1, %arg1 unsigned rounding<positive_inf> : tile<4xi32>" in text
    with pytest.raises(ValueError):
        with func(b, "bad", ["tile<4xf32>"]) as (x,):
            b.addf(x, x, rounding_mode="sideways")


def test_defaults_the_parser_would_fill_in():
    b = Builder()
    with func(b, "k", ["tile<4xf32>"]) as (x,):
        op = b.mulf(x, x).owner
        assert op.attributes["rounding_mode"].keyword == "nearest_even"
        assert b.tanh(x).owner.attributes["rounding_mode"].keyword == "full"
    _check(b)


def test_constants_and_globals():
    b = Builder()
    b.global_("table", np.array([1.5, 2.5], dtype=np.float32), "f32", constant=True)
    with b.entry("k", []) as ():
        c1 = b.constant(np.arange(4, dtype=np.int32), "i32")
        assert c1.type == to_type("tile<4xi32>")
        c2 = b.constant(0.5, "tile<2x2xf16>")
        assert c2.type == to_type("tile<2x2xf16>")
        c3 = b.constant(True, "i1")
        assert c3.type == to_type("tile<i1>")
        g = b.get_global("table")
        assert g.type == to_type("tile<ptr<f32>>")
    text = _check(b)
    assert "%cst_i32 = constant <i32: [0, 1, 2, 3]> : tile<4xi32>" in text
    assert "%cst_f16 = constant <f16: 5.000000e-01> : tile<2x2xf16>" in text
    assert "global  constant @table <f32: [1.500000e+00, 2.500000e+00]> : tile<2xf32>" in text


def test_regions():
    b = Builder()
    with func(b, "k", ["tile<i32>", "tile<4xf32>", "tile<i1>"]) as (n, x, c):
        zero = b.constant(0, "i32")
        one = b.constant(1, "i32")
        with b.for_(zero, n, one, [x]) as (iv, (acc,), loop):
            b.continue_(b.addf(acc, x))
        br = b.if_(c, ["tile<4xf32>"])
        with br.then_():
            b.yield_(loop.results[0])
        with br.else_():
            b.yield_(x)
        with b.loop([x], ["tile<4xf32>"]) as ((y,), lp):
            inner = b.if_(c)
            with inner.then_():
                b.break_(y)
            b.continue_(y)
        with b.reduce([br.results[0]], 0, [0.0]) as ((lhs, rhs), red):
            b.yield_(b.addf(lhs, rhs))
        with b.scan([x], 0, [1.0], reverse=True) as ((lhs, rhs), sc):
            b.yield_(b.mulf(lhs, rhs))
        assert red.results[0].type == to_type("tile<f32>")
        assert sc.results[0].type == x.type
    text = _check(b)
    assert "%for = for %loopIdx in (%cst_0_i32 to %arg0, step %cst_1_i32) : tile<i32> " \
           "iter_values(%iterArg0 = %arg1) -> (tile<4xf32>) {" in text
    assert "%reduce = reduce %0 dim=0 identities=[0.000000e+00 : f32]" in text


def test_views():
    b = Builder()
    with b.entry("k", ["tile<ptr<f32>>", "tile<i32>"]) as (p, n):
        tv = b.make_tensor_view(p, shape=[n, 64], strides=[64, 1])
        pv = b.make_partition_view(tv, tile=[8, 16], padding_value="zero")
        bid, _, _ = b.get_tile_block_id()
        t, tok = b.load_view_tko(pv, [bid, bid])
        assert t.type == to_type("tile<8x16xf32>")
        b.store_view_tko(t, pv, [bid, bid], tok)
        rows, cols = b.get_tensor_shape(tv)
        assert rows.type == to_type("tile<i32>")
    _check(b)


def test_insertion_points_and_locations():
    from tileir.ir.locations import FileLineColLoc
    b = Builder()
    with func(b, "k", ["tile<4xf32>"]) as (x,):
        first = b.negf(x)
        with b.location(FileLineColLoc("k.py", 3, 1)):
            second = b.absf(first)
    body = b.module.body.ops[0].body
    with b.at(body, 1):
        b.ceil(first)
    names = [op.name for op in body.ops]
    assert names == ["cuda_tile.negf", "cuda_tile.ceil", "cuda_tile.absf", "cuda_tile.return"]
    assert second.owner.loc == FileLineColLoc("k.py", 3, 1)


def test_unknown_op_and_bad_operands():
    b = Builder()
    with pytest.raises(AttributeError):
        b.not_an_op
    with func(b, "k", ["tile<4xf32>"]) as (x,):
        with pytest.raises(IRError, match="missing operand"):
            b.addf(x)
        with pytest.raises(IRError, match="must be a Value"):
            b.addf(x, 1.0)
