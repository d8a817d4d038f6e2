"""Invalid floating-point, integer, bitwise and conversion ops (cuda-tile's messages)."""

from __future__ import annotations

import pytest

from vhelp import kernel, ok, one_error

F = "%f: tile<4xf32>, %h: tile<4xf16>, %b: tile<4xbf16>, %d: tile<4xf64>, %i: tile<4xi32>"

CASES = [
    # rounding / flush_to_zero / approx per element type (ERRATA 7)
    ("%0 = addf %h, %h flush_to_zero : tile<4xf16>",
     "'cuda_tile.addf' op flush_to_zero modifier only supported for f32 data type, but got: 'f16'"),
    ("%0 = fma %d, %d, %d flush_to_zero : tile<4xf64>",
     "'cuda_tile.fma' op flush_to_zero modifier only supported for f32 data type, but got: 'f64'"),
    ("%0 = divf %b, %b rounding<approx> : tile<4xbf16>",
     "'cuda_tile.divf' op approx modifier only supported for f32 data type, but got: 'bf16'"),
    ("%0 = divf %d, %d rounding<full> : tile<4xf64>",
     "'cuda_tile.divf' op full modifier only supported for f32 data type, but got: 'f64'"),
    ("%0 = sqrt %h rounding<approx> : tile<4xf16>",
     "'cuda_tile.sqrt' op approx modifier only supported for f32 data type, but got: 'f16'"),
    ("%0 = sqrt %f rounding<foo> : tile<4xf32>",
     "custom op 'cuda_tile.sqrt' expected rounding mode to be one of: 'nearest_even', 'zero', "
     "'negative_inf', 'positive_inf', 'approx'"),
    ("%0 = sqrt %f rounding<full> : tile<4xf32>",
     "'cuda_tile.sqrt' op invalid rounding mode specified, expect one of [nearest_even, zero, "
     "negative_inf, positive_inf, approx]"),
    ('%0 = "cuda_tile.sqrt"(%f) {rounding_mode = #cuda_tile.rounding<full>} : (tile<4xf32>) -> '
     'tile<4xf32>', "'cuda_tile.sqrt' op invalid rounding mode specified, expect one of "
     "[nearest_even, zero, negative_inf, positive_inf, approx]"),
    ("%0 = exp %d rounding<approx> : tile<4xf64>",
     "'cuda_tile.exp' op approx modifier only supported for f32 data type, but got: 'f64'"),
    ("%0 = exp2 %b flush_to_zero : tile<4xbf16>",
     "'cuda_tile.exp2' op flush_to_zero modifier only supported for f32 data type, but got: "
     "'bf16'"),
    ("%0 = maxf %h, %h flush_to_zero : tile<4xf16>",
     "'cuda_tile.maxf' op flush_to_zero modifier only supported for f32 data type, but got: "
     "'f16'"),
    ("%0 = mulf %f, %f rounding<approx> : tile<4xf32>",
     "custom op 'cuda_tile.mulf' expected rounding mode to be one of: 'nearest_even', 'zero', "
     "'negative_inf', 'positive_inf', got: 'approx'"),
    ('%0 = "cuda_tile.subf"(%f, %f) {rounding_mode = #cuda_tile.rounding<full>} : '
     '(tile<4xf32>, tile<4xf32>) -> tile<4xf32>',
     "'cuda_tile.subf' op invalid rounding mode specified, expect one of [nearest_even, zero, "
     "negative_inf, positive_inf]"),
    ("%0 = addf %f, %h : tile<4xf32>",
     "use of value '%h' expects different type than prior uses: '!cuda_tile.tile<4xf32>' vs "
     "'!cuda_tile.tile<4xf16>'"),
    ("%0 = cmpf equal ordered %f, %f : tile<4xf32> -> tile<4xi32>",
     "'cuda_tile.cmpf' op result #0 must be tile of i1 values, but got "
     "'!cuda_tile.tile<4xi32>'"),
    ("%0 = cmpf equal ordered %f, %f : tile<4xf32> -> tile<2xi1>",
     "'cuda_tile.cmpf' op failed to verify that Result type has i1 element type and same shape "
     "as operands"),
    # integers
    ("%0 = divi %i, %i unsigned rounding<negative_inf> : tile<4xi32>",
     "'cuda_tile.divi' op rounding mode 'negative_inf' is not allowed with 'unsigned' flag"),
    ('%0 = "cuda_tile.divi"(%i, %i) {signedness = #cuda_tile.signedness<signed>, '
     'rounding = #cuda_tile.rounding<nearest_even>} : (tile<4xi32>, tile<4xi32>) -> tile<4xi32>',
     "'cuda_tile.divi' op invalid rounding mode specified, expect one of [zero, negative_inf, "
     "positive_inf]"),
    ("%0 = negi %i overflow<no_unsigned_wrap> : tile<4xi32>",
     "'cuda_tile.negi' op 'no_unsigned_wrap' overflow flag is not supported"),
    ("%0 = cmpi sideways %i, %i, signed : tile<4xi32> -> tile<4xi1>",
     "custom op 'cuda_tile.cmpi' expected 'comparison_predicate' to be one of: {'equal', "
     "'not_equal', 'less_than', 'less_than_or_equal', 'greater_than', 'greater_than_or_equal'}"),
    ("%0 = maxi %i, %i sideways : tile<4xi32>",
     "custom op 'cuda_tile.maxi' expected signedness to be one of: {'signed', 'unsigned'}"),
    ("%0 = andi %f, %f : tile<4xf32>",
     "'cuda_tile.andi' op operand #0 must be tile of i1 or i8 or i16 or i32 or i64 values, but "
     "got '!cuda_tile.tile<4xf32>'"),
    # conversions
    ("%0 = exti %i signed : tile<4xi32> -> tile<4xi16>",
     "'cuda_tile.exti' op extending to smaller or identical integer"),
    ("%0 = trunci %i : tile<4xi32> -> tile<4xi32>",
     "'cuda_tile.trunci' op truncating to larger or identical integer"),
    ("%0 = bitcast %i : tile<4xi32> -> tile<4xf16>",
     "'cuda_tile.bitcast' op types must be equal width, cannot convert "
     "'!cuda_tile.tile<4xi32>' of width 32 to type '!cuda_tile.tile<4xf16>' of width 16"),
    ("%0 = bitcast %f : tile<4xf32> -> tile<4xtf32>",
     "'cuda_tile.bitcast' op types must be equal width, cannot convert "
     "'!cuda_tile.tile<4xf32>' of width 32 to type '!cuda_tile.tile<4xtf32>' of width 19"),
    ("%0 = ftof %f : tile<4xf32> -> tile<4xf32>",
     "'cuda_tile.ftof' op converting tiles must not be a no-op"),
    ("%0 = ftof %f rounding<zero> : tile<4xf32> -> tile<4xf8E8M0FNU>", None),
    ("%0 = ftof %f : tile<4xf32> -> tile<4xf8E8M0FNU>",
     "'cuda_tile.ftof' op invalid rounding mode specified for conversion to f8E8M0FNU. Only "
     "'zero' and 'positive_inf' are supported"),
    ("%0 = itof %i signed rounding<zero> : tile<4xi32> -> tile<4xf32>",
     "'cuda_tile.itof' op invalid rounding mode specified. Only 'nearest_even' is supported"),
    ("%0 = itof %i signed : tile<4xi32> -> tile<4xf8E8M0FNU>",
     "'cuda_tile.itof' op integer to f8E8M0FNU conversion is not supported, please first "
     "convert to another float type"),
    ("%0 = ftoi %f signed rounding<zero> : tile<4xf32> -> tile<4xi32>",
     "custom op 'cuda_tile.ftoi' expected rounding mode to be one of: 'nearest_int_to_zero', "
     "got: 'zero'"),
    # fpowi (13.4; tileirdisasm 13.4.92's messages)
    ("%0 = fpowi %f, %i : tile<4xf32>, tile<4xi32>", None),
    ("%0 = int_to_ptr %i : tile<4xi32> -> tile<4xptr<f32>>",
     "'cuda_tile.int_to_ptr' op operand #0 must be tile of i64 values, but got "
     "'!cuda_tile.tile<4xi32>'"),
]


@pytest.mark.parametrize("body, msg", CASES)
def test_invalid(body, msg):
    text = kernel(body, F)
    if msg is None:
        ok(text)
        return
    assert one_error(text) == (3, msg)


@pytest.mark.parametrize("mode", ["nearest_even", "zero", "negative_inf", "positive_inf"])
def test_ftof_accepts_the_ieee_modes(mode):
    """ERRATA 8 (cuda-tile 13.3 and its test corpus accept only nearest_even)."""
    suffix = "" if mode == "nearest_even" else f" rounding<{mode}>"
    ok(kernel(f"%0 = ftof %f{suffix} : tile<4xf32> -> tile<4xf16>", F))
    ok(kernel(f"%0 = ftof %h{suffix} : tile<4xf16> -> tile<4xbf16>", F))


@pytest.mark.parametrize("t", ["f32", "f64", "f16", "bf16"])
@pytest.mark.parametrize("mode", ["zero", "negative_inf", "positive_inf"])
def test_ieee_modes_on_every_base_float(t, mode):
    """ERRATA 7: IEEE modes on f32, f64, and (emulated) f16/bf16."""
    ok(kernel(f"%0 = addf %x, %x rounding<{mode}> : tile<4x{t}>\n"
              f"%1 = divf %x, %x rounding<{mode}> : tile<4x{t}>\n"
              f"%2 = sqrt %x rounding<{mode}> : tile<4x{t}>\n"
              f"%3 = fma %x, %x, %x rounding<{mode}> : tile<4x{t}>", f"%x: tile<4x{t}>"))


def test_mma_tables():
    args = "%a: tile<4x8xbf16>, %b: tile<8x16xbf16>, %c: tile<4x16xf16>, %e: tile<4x16xf32>"
    assert one_error(kernel("%0 = mmaf %a, %b, %c : tile<4x8xbf16>, tile<8x16xbf16>, "
                            "tile<4x16xf16>", args))[1] == (
        "'cuda_tile.mmaf' op unsupported combination of element types. Input type 'bf16' "
        "expects accumulator/result type to be one of {'f32'}, but got 'f16'")
    ok(kernel("%0 = mmaf %a, %b, %e : tile<4x8xbf16>, tile<8x16xbf16>, tile<4x16xf32>", args))
    args = "%a: tile<4x8xf16>, %b: tile<4x16xf16>, %c: tile<4x16xf32>"
    assert one_error(kernel("%0 = mmaf %a, %b, %c : tile<4x8xf16>, tile<4x16xf16>, "
                            "tile<4x16xf32>", args))[1].endswith(
        "shape error: dim 1 of lhs (8) and dim 0 of rhs (4) must match, but got lhs shape "
        "(4, 8) and rhs shape (4, 16)")
    args = "%a: tile<2x4x8xi8>, %b: tile<4x8x16xi8>, %c: tile<2x4x16xi32>"
    assert one_error(kernel("%0 = mmai %a, %b, %c signed signed : tile<2x4x8xi8>, "
                            "tile<4x8x16xi8>, tile<2x4x16xi32>", args))[1] == (
        "'cuda_tile.mmai' op shape error: dim 0 of lhs (2) and dim 0 of rhs (4) must match, but "
        "got lhs shape (2, 4, 8) and rhs shape (4, 8, 16)")


def test_mma_scaled_block_factor():
    args = ("%a: tile<16x64xf8E4M3FN>, %b: tile<64x16xf8E4M3FN>, %c: tile<16x16xf32>, "
            "%sa: tile<16x4xf8E8M0FNU>, %sb: tile<4x16xf8E8M0FNU>")
    text = kernel("%0 = mmaf_scaled %a, %b, %c, %sa, %sb : tile<16x64xf8E4M3FN>, "
                  "tile<64x16xf8E4M3FN>, tile<16x16xf32>, tile<16x4xf8E8M0FNU>, "
                  "tile<4x16xf8E8M0FNU>", args)
    assert one_error(text)[1] == (
        "'cuda_tile.mmaf_scaled' op shape error: f8 element type requires block scale factor of "
        "lhs_scale and rhs_scale to be 32, but got 16")


def test_fpowi_exponent_types_and_shapes():
    text = kernel("""
    %0 = exti %i signed : tile<4xi32> -> tile<4xi64>
    %1 = fpowi %f, %0 : tile<4xf32>, tile<4xi64>
    """, F)
    assert one_error(text) == (4, "'cuda_tile.fpowi' op operand #1 must be tile of i1 or i8 or "
                                  "i16 or i32 values, but got '!cuda_tile.tile<4xi64>'")
    text = kernel("""
    %0 = reshape %i : tile<4xi32> -> tile<2x2xi32>
    %1 = fpowi %f, %0 : tile<4xf32>, tile<2x2xi32>
    """, F)
    assert one_error(text) == (4, "'cuda_tile.fpowi' op failed to verify that all of {source, "
                                  "exponent} have same shape")
