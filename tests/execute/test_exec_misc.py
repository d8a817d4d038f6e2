"""print_tko (C printf formatting to a capturable stream), assert, assume (and
check_assumptions) run by the executor."""

from __future__ import annotations

import io

import numpy as np
import pytest

import tileir
from tileir.execute import AssertionFailure, AssumptionViolation
from tileir.execute.printf import format_printf, parse_format


def module(body: str, params: str):
    return tileir.parse(f"cuda_tile.module @m {{\n  entry @k({params}) {{\n{body}\n"
                        "    return\n  }\n}\n", "misc.mlir")


PRINT = """    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %t = iota : tile<4xi32>
    %f = itof %t signed : tile<4xi32> -> tile<4xf32>
    %h = constant <f32: 0.5> : tile<f32>
    %m = constant <i32: [[1, -2], [3, 4]]> : tile<2x2xi32>
    %p0 = print_tko "block %d: %5.2f %e|%d|%x\\n", %bx, %f, %h, %m, %m : tile<i32>, tile<4xf32>, tile<f32>, tile<2x2xi32>, tile<2x2xi32> -> token"""


def test_print_formats_tiles_and_goes_to_stream():
    out = io.StringIO()
    info = tileir.launch(module(PRINT, ""), "k", (2,), [], stdout=out)
    assert info.mode == "sequential"
    tail = " [ 0.00,  1.00,  2.00,  3.00] 5.000000e-01|[[1, -2], [3, 4]]|[[1, fffffffe], [3, 4]]"
    assert out.getvalue().splitlines() == ["block 0:" + tail, "block 1:" + tail]


@pytest.mark.parametrize("fmt,value,elem,want", [
    ("%d", np.int32(-7), "i32", "-7"), ("%u", np.int32(-1), "i32", "4294967295"),
    ("%+05d", np.int32(42), "i32", "+0042"), ("%-5d|", np.int32(42), "i32", "42   |"),
    ("%x", np.int64(-1), "i64", "ffffffffffffffff"), ("%#o", np.int32(8), "i32", "010"),
    ("%#X", np.int32(255), "i32", "0XFF"), ("%.3d", np.int32(7), "i32", "007"),
    ("%hhd", np.int32(300), "i32", "44"), ("%lld", np.int64(-2 ** 40), "i64", "-1099511627776"),
    ("%f", np.float32(1.5), "f32", "1.500000"), ("%.3e", np.float64(12345.678), "f64", "1.235e+04"),
    ("%g", np.float32(1e-5), "f32", "1e-05"), ("%#g", np.float64(2.0), "f64", "2.00000"),
    ("%+08.3f", np.float32(-3.14159), "f32", "-003.142"), ("%a", np.float64(3.0), "f64", "0x1.8p+1"),
    ("%A", np.float64(-0.5), "f64", "-0X1P-1"), ("%f", np.float32(np.inf), "f32", "inf"),
    ("%5.1F", np.float32(-np.inf), "f32", " -INF"), ("%f", np.float32(np.nan), "f32", "nan"),
    ("%d", np.bool_(True), "i1", "1"), ("%c", np.int32(65), "i32", "A"),
    ("%.2f", np.float16(0.5), "f16", "0.50"), ("%%|%d", np.int32(3), "i32", "%|3"),
])
def test_printf_conversions(fmt, value, elem, want):
    assert format_printf(parse_format(fmt), [(np.asarray(value), elem)]) == want


def test_print_argument_count_mismatch_is_reported():
    m = module("""    %c = constant <i32: 1> : tile<i32>
    %p = print_tko "%d %d\\n", %c : tile<i32> -> token""", "")
    with pytest.raises(tileir.LaunchError, match="2 conversions but the op has 1 operand"):
        tileir.compile(m, "k", verify=False)


def test_assert_failure_details():
    body = """    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %lane = iota : tile<8xi32>
    %b1 = reshape %bx : tile<i32> -> tile<1xi32>
    %bb = broadcast %b1 : tile<1xi32> -> tile<8xi32>
    %two = constant <i32: 2> : tile<8xi32>
    %tgt = addi %bb, %two : tile<8xi32>
    %ok = cmpi not_equal %lane, %tgt, signed : tile<8xi32> -> tile<8xi1>
    assert %ok, "lane equals block + 2" : tile<8xi1>"""
    m = module(body, "")
    for batch in (True, False):
        with pytest.raises(AssertionFailure) as err:
            tileir.launch(m, "k", (3, 1, 1), [], batch=batch)
        e = err.value
        assert "lane equals block + 2" in str(e) and e.op == "cuda_tile.assert"
        assert e.loc.startswith("misc.mlir:")
        blocks = {b for b, _ in e.failures}
        assert (0, 0, 0) in blocks and ((2,) in [el for b, el in e.failures if b == (0, 0, 0)])
        assert "tile block (0, 0, 0): failing element [2]" in str(e)


ASSUME = """    %x, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %a = assume {pred}, %x : tile<i32>
    %one = constant <i32: 1> : tile<i32>
    %y = addi %a, %one : tile<i32>
    %t2 = store_ptr_tko weak %p, %y : tile<ptr<i32>>, tile<i32> -> token"""


@pytest.mark.parametrize("pred,value,holds", [
    ("bounded<0, ?>", 5, True), ("bounded<0, ?>", -1, False), ("bounded<-5, 7>", 7, True),
    ("bounded<-5, 7>", 8, False), ("div_by<16>", 48, True), ("div_by<16>", 40, False),
    ("div_by<4>", -8, True),
])
def test_assume_has_no_effect_unless_checked(pred, value, holds):
    m = module(ASSUME.format(pred=pred), "%p: tile<ptr<i32>>")
    a = np.array([value], np.int32)
    tileir.launch(m, "k", (1,), [a])
    assert a[0] == value + 1              # no effect by default, even when violated
    a = np.array([value], np.int32)
    if holds:
        tileir.launch(m, "k", (1,), [a], check_assumptions=True)
        assert a[0] == value + 1
    else:
        with pytest.raises(AssumptionViolation, match="does not hold") as err:
            tileir.launch(m, "k", (1,), [a], check_assumptions=True)
        assert err.value.op == "cuda_tile.assume"


def test_assume_tile_predicates_checked():
    body = """    %c = constant <i16: [96, 97, 98, 99, 64, 65, 66, 67]> : tile<8xi16>
    %a = assume div_by<32, every 4 along 0>, %c : tile<8xi16>
    %d = constant <i16: [[0, 0, 0, 0, 10, 10, 10, 10], [0, 0, 0, 0, 10, 10, 10, 10], [5, 5, 5, 5, 93, 93, 93, 93], [5, 5, 5, 5, 93, 93, 93, 93]]> : tile<4x8xi16>
    %b = assume same_elements<[2, 4]>, %d : tile<4x8xi16>"""
    tileir.launch(module(body, ""), "k", (1,), [], check_assumptions=True)
    bad = body.replace("[96, 97, 98, 99, 64, 65, 66, 67]", "[96, 97, 98, 99, 64, 66, 66, 67]")
    with pytest.raises(AssumptionViolation, match="div_by<32, every 4 along 0>"):
        tileir.launch(module(bad, ""), "k", (1,), [], check_assumptions=True)
    bad = body.replace("[5, 5, 5, 5, 93, 93, 93, 93]]>", "[5, 5, 5, 5, 93, 93, 93, 94]]>")
    with pytest.raises(AssumptionViolation, match="same_elements"):
        tileir.launch(module(bad, ""), "k", (1,), [], check_assumptions=True)


def test_assume_on_pointer_alignment():
    body = """    %a = assume div_by<16>, %p : tile<ptr<f32>>
    %v, %t = load_ptr_tko weak %a : tile<ptr<f32>> -> tile<f32>, token"""
    # the simulated address space aligns every buffer to 256 bytes
    tileir.launch(module(body, "%p: tile<ptr<f32>>"), "k", (1,), [np.zeros(3, np.float32)],
                  check_assumptions=True)
