"""Canonical text of every op, by spec chapter, as tileir (and NVIDIA's tools) print it.

Each case is the body of an entry whose arguments are ``SIGNATURE``; the texts are written in
the canonical form, so parse -> print must give them back unchanged.  Spacing quirks are part
of the syntax (``addf %arg0, %arg0  : tile<4xf32>``: the rounding-mode directive prints nothing
but keeps its separator).
"""

SIGNATURE = ("%arg0: tile<4xf32>, %arg1: tile<4xi32>, %arg2: tile<i1>, %arg3: tile<ptr<f32>>, "
             "%arg4: tile<4xi1>, %arg5: tile<i32>, %arg6: tile<4xptr<f32>>, %arg7: tile<f32>, "
             "%arg8: tile<4x8xf16>, %arg9: tile<8x4xf16>, %arg10: tile<4x4xf32>, "
             "%arg11: tile<4xi8>, %arg12: tile<i64>, %arg13: token, %arg14: tile<4x8xi8>, "
             "%arg15: tile<8x4xi8>, %arg16: tile<4x4xi32>, %arg17: tile<4xptr<i32>>")

CORE = [
    "%cst_1_i32 = constant <i32: 1> : tile<4xi32>",
    "%cst_i32 = constant <i32: [1, -2, 3, 4]> : tile<4xi32>",
    "%cst_f32 = constant <f32: [[1.000000e+00, 0x7FC00000], [-0.000000e+00, 0xFF800000]]> : "
    "tile<2x2xf32>",
    "%true = constant <i1: true> : tile<i1>",
    "%cst_i1 = constant <i1: [true, false, true, false]> : tile<4xi1>",
    "%cst_2_f16 = constant <f16: 2.000000e+00> : tile<f16>",
    "%cst_NaN_f64 = constant <f64: 0x7FF8000000000000> : tile<f64>",
    "%cst_bf16 = constant <bf16: 3.007810e-01> : tile<bf16>",
    "%cst_f8E4M3FN = constant <f8E4M3FN: 1.250000e-01> : tile<2xf8E4M3FN>",
    "%0 = iota : tile<4xi32>",
    "%bcast = broadcast %arg7 : tile<f32> -> tile<4xf32>",
    "%reshape = reshape %arg10 : tile<4x4xf32> -> tile<16xf32>",
    "%1 = permute %arg8 [1, 0] : tile<4x8xf16> -> tile<8x4xf16>",
    "%2 = cat %arg0, %arg0 dim = 0 : tile<4xf32>, tile<4xf32> -> tile<8xf32>",
    "%3 = extract %arg10[%arg5, %arg5] : tile<4x4xf32> -> tile<2x2xf32>",
    "%4 = select %arg4, %arg0, %arg0 : tile<4xi1>, tile<4xf32>",
    "%5 = offset %arg6, %arg1 : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>",
    "%blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>",
    "%gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>",
    "%6 = pack %arg0 : tile<4xf32> -> tile<16xi8>",
    "%7 = unpack %arg11 : tile<4xi8> -> tile<2xf16>",
]

REDUCE = [
    "%reduce = reduce %arg0 dim=0 identities=[0.000000e+00 : f32] : tile<4xf32> -> tile<f32> \n"
    "(%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {\n"
    "  %0 = addf %reduce_lhs, %reduce_rhs  : tile<f32>\n"
    "  yield %0 : tile<f32>\n"
    "}",
    "%reduce:2 = reduce %arg10, %arg16 dim=1 identities=[0xFF800000 : f32, 0 : i32] : "
    "tile<4x4xf32>, tile<4x4xi32> -> tile<4xf32>, tile<4xi32> \n"
    "(%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, "
    "%reduce_rhs1: tile<i32>) {\n"
    "  %0 = maxf %reduce_lhs0, %reduce_rhs0 : tile<f32>\n"
    "  %1 = maxi %reduce_lhs1, %reduce_rhs1 signed : tile<i32>\n"
    "  yield %0, %1 : tile<f32>, tile<i32>\n"
    "}",
    "%0 = scan %arg0 dim=0 reverse=true identities=[1.000000e+00 : f32] : tile<4xf32> -> "
    "tile<4xf32> \n"
    "(%arg18: tile<f32>, %arg19: tile<f32>) {\n"
    "  %1 = mulf %arg18, %arg19  : tile<f32>\n"
    "  yield %1 : tile<f32>\n"
    "}",
]

CONVERSIONS = [
    "%0 = bitcast %arg1 : tile<4xi32> -> tile<4xf32>",
    "%1 = exti %arg11 signed : tile<4xi8> -> tile<4xi32>",
    "%2 = trunci %arg1 overflow<no_wrap> : tile<4xi32> -> tile<4xi8>",
    "%3 = ftof %arg0  : tile<4xf32> -> tile<4xf16>",
    "%4 = ftof %arg0 rounding<zero> : tile<4xf32> -> tile<4xf16>",
    "%5 = ftoi %arg0 signed  : tile<4xf32> -> tile<4xi32>",
    "%6 = ftoi %arg0 unsigned  saturating : tile<4xf32> -> tile<4xi32>",
    "%7 = itof %arg1 signed  : tile<4xi32> -> tile<4xf32>",
    "%8 = itof %arg1 unsigned rounding<positive_inf> : tile<4xi32> -> tile<4xf64>",
    "%9 = int_to_ptr %arg12 : tile<i64> -> tile<ptr<f32>>",
    "%10 = ptr_to_int %arg3 : tile<ptr<f32>> -> tile<i64>",
    "%11 = ptr_to_ptr %arg3 : tile<ptr<f32>> -> tile<ptr<i8>>",
]

FLOATING_POINT = [
    "%0 = addf %arg0, %arg0  : tile<4xf32>",
    "%1 = subf %arg0, %arg0 rounding<negative_inf> : tile<4xf32>",
    "%2 = mulf %arg0, %arg0  flush_to_zero : tile<4xf32>",
    "%3 = divf %arg0, %arg0 rounding<approx> flush_to_zero : tile<4xf32>",
    "%4 = fma %arg0, %arg0, %arg0 rounding<positive_inf> : tile<4xf32>",
    "%5 = remf %arg0, %arg0 : tile<4xf32>",
    "%6 = maxf %arg0, %arg0 : tile<4xf32>",
    "%7 = minf %arg0, %arg0 flush_to_zero propagate_nan : tile<4xf32>",
    "%8 = fpowf %arg0, %arg0 : tile<4xf32>",  # tileirdisasm spelling of pow
    "%9 = atan2 %arg0, %arg0 : tile<4xf32>",
    "%10 = fpowi %arg0, %arg1 : tile<4xf32>, tile<4xi32>",
    "%11 = absf %arg0 : tile<4xf32>",
    "%12 = negf %arg0 : tile<4xf32>",
    "%13 = ceil %arg0 : tile<4xf32>",
    "%14 = floor %arg0 : tile<4xf32>",
    "%15 = cos %arg0 : tile<4xf32>",
    "%16 = cosh %arg0 : tile<4xf32>",
    "%17 = sin %arg0 : tile<4xf32>",
    "%18 = sinh %arg0 : tile<4xf32>",
    "%19 = tan %arg0 : tile<4xf32>",
    "%20 = tanh %arg0  : tile<4xf32>",
    "%21 = tanh %arg0 rounding<approx> : tile<4xf32>",
    "%22 = log %arg0 : tile<4xf32>",
    "%23 = log2 %arg0 : tile<4xf32>",
    "%24 = exp %arg0  : tile<4xf32>",
    "%25 = exp %arg0 rounding<approx> : tile<4xf32>",
    "%26 = exp2 %arg0 flush_to_zero : tile<4xf32>",
    "%27 = rsqrt %arg0 : tile<4xf32>",
    "%28 = sqrt %arg0  : tile<4xf32>",
    "%29 = sqrt %arg0 rounding<approx> flush_to_zero : tile<4xf32>",
    "%30 = cmpf less_than ordered %arg0, %arg0 : tile<4xf32> -> tile<4xi1>",
    "%31 = cmpf not_equal unordered %arg0, %arg0 : tile<4xf32> -> tile<4xi1>",
    "%32 = mmaf %arg8, %arg9, %arg10 : tile<4x8xf16>, tile<8x4xf16>, tile<4x4xf32>",
    "%33 = mmaf %arg8, %arg9, %arg10 fast_acc : tile<4x8xf16>, tile<8x4xf16>, tile<4x4xf32>",
]

MMA_SCALED = [
    "%cst_1_f8E4M3FN = constant <f8E4M3FN: 1.000000e+00> : tile<4x32xf8E4M3FN>",
    "%cst_1_f8E4M3FN_0 = constant <f8E4M3FN: 1.000000e+00> : tile<32x4xf8E4M3FN>",
    "%cst_1_f8E8M0FNU = constant <f8E8M0FNU: 1.000000e+00> : tile<4x1xf8E8M0FNU>",
    "%cst_1_f8E8M0FNU_1 = constant <f8E8M0FNU: 1.000000e+00> : tile<1x4xf8E8M0FNU>",
    "%0 = mmaf_scaled %cst_1_f8E4M3FN, %cst_1_f8E4M3FN_0, %arg10, %cst_1_f8E8M0FNU, "
    "%cst_1_f8E8M0FNU_1 : tile<4x32xf8E4M3FN>, tile<32x4xf8E4M3FN>, tile<4x4xf32>, "
    "tile<4x1xf8E8M0FNU>, tile<1x4xf8E8M0FNU>",
]

INTEGER = [
    "%0 = addi %arg1, %arg1 : tile<4xi32>",
    "%1 = subi %arg1, %arg1 overflow<no_signed_wrap> : tile<4xi32>",
    "%2 = muli %arg1, %arg1 overflow<no_unsigned_wrap> : tile<4xi32>",
    "%3 = shli %arg1, %arg1 : tile<4xi32>",
    "%4 = shri %arg1, %arg1 unsigned : tile<4xi32>",
    "%5 = divi %arg1, %arg1 signed : tile<4xi32>",
    "%6 = divi %arg1, %arg1 unsigned rounding<positive_inf> : tile<4xi32>",
    "%7 = remi %arg1, %arg1 signed : tile<4xi32>",
    "%8 = maxi %arg1, %arg1 signed : tile<4xi32>",
    "%9 = mini %arg1, %arg1 unsigned : tile<4xi32>",
    "%10 = mulhii %arg1, %arg1 : tile<4xi32>",
    "%11 = absi %arg1 : tile<4xi32>",
    "%12 = negi %arg1 : tile<4xi32>",
    "%13 = negi %arg1 overflow<no_signed_wrap> : tile<4xi32>",
    "%14 = cmpi greater_than_or_equal %arg1, %arg1, signed : tile<4xi32> -> tile<4xi1>",
    "%15 = mmai %arg14, %arg15, %arg16 signed unsigned : tile<4x8xi8>, tile<8x4xi8>, "
    "tile<4x4xi32>",
]

BITWISE = [
    "%0 = andi %arg1, %arg1 : tile<4xi32>",
    "%1 = ori %arg4, %arg4 : tile<4xi1>",
    "%2 = xori %arg11, %arg11 : tile<4xi8>",
]

CONTROL_FLOW = [
    "%0 = if %arg2 -> (tile<4xf32>) {\n"
    "  yield %arg0 : tile<4xf32>\n"
    "} else {\n"
    "  %1 = negf %arg0 : tile<4xf32>\n"
    "  yield %1 : tile<4xf32>\n"
    "}",
    "if %arg2 {\n"
    "  %0 = addi %arg1, %arg1 : tile<4xi32>\n"
    "}",
    "if %arg2 {\n"
    "} else {\n"
    "}",
    "%for = for %loopIdx in (%arg5 to %arg5, step %arg5) : tile<i32> "
    "iter_values(%iterArg0 = %arg0) -> (tile<4xf32>) {\n"
    "  %0 = addf %iterArg0, %arg0  : tile<4xf32>\n"
    "  continue %0 : tile<4xf32>\n"
    "}",
    "for unsigned %loopIdx in (%arg12 to %arg12, step %arg12) : tile<i64> {\n"
    "}",
    "%0:2 = loop iter_values(%arg18 = %arg0, %arg19 = %arg1) : tile<4xf32>, tile<4xi32> -> "
    "tile<4xf32>, tile<4xi32> {\n"
    "  if %arg2 {\n"
    "    break %arg18, %arg19 : tile<4xf32>, tile<4xi32>\n"
    "  }\n"
    "  continue %arg18, %arg19 : tile<4xf32>, tile<4xi32>\n"
    "}",
    "loop {\n"
    "  break\n"
    "}",
    "%0 = loop : tile<i32> {\n"
    "  break %arg5 : tile<i32>\n"
    "}",
    "assert %arg4, \"bad \\22value\\22\\0A\" : tile<4xi1>",
]

MEMORY = [
    "%0 = make_token : token",
    "%1 = join_tokens %arg13, %0 : token",
    "%result, %result_token = load_ptr_tko weak %arg6 : tile<4xptr<f32>> -> tile<4xf32>, token",
    "%result_0, %result_token_1 = load_ptr_tko acquire device %arg6, %arg4, %arg0 token=%arg13 "
    "optimization_hints = <sm_100 = {latency = 3}> : tile<4xptr<f32>>, tile<4xi1>, tile<4xf32> "
    "-> tile<4xf32>, token",
    "%2 = store_ptr_tko weak %arg6, %arg0 : tile<4xptr<f32>>, tile<4xf32> -> token",
    "%3 = store_ptr_tko release sys %arg6, %arg0, %arg4 token=%arg13 : tile<4xptr<f32>>, "
    "tile<4xf32>, tile<4xi1> -> token",
    "%4 = alloca num_elem = 16, alignment = 16 : tile<ptr<f32>>",
]

ATOMICS = [
    "%result, %result_token = atomic_rmw_tko relaxed device %arg17, add, %arg1 : "
    "tile<4xptr<i32>>, tile<4xi32> -> tile<4xi32>, token",
    "%result_0, %result_token_1 = atomic_rmw_tko acq_rel sys %arg17, xchg, %arg1, %arg4 "
    "token=%arg13 : tile<4xptr<i32>>, tile<4xi32>, tile<4xi1> -> tile<4xi32>, token",
    "%result_2, %result_token_3 = atomic_cas_tko acquire tl_blk %arg17, %arg1, %arg1 "
    "token=%arg13 : tile<4xptr<i32>>, tile<4xi32> -> tile<4xi32>, token",
]

VIEWS = [
    "%tview = make_tensor_view %arg3, shape = [32, 64], strides = [64, 1] : "
    "tensor_view<32x64xf32, strides=[64,1]>",
    "%tview_0 = make_tensor_view %arg3, shape = [%arg5, 64], strides = [64, %arg5] : tile<i32> "
    "-> tensor_view<?x64xf32, strides=[64,?]>",
    "%pview = make_partition_view %tview : partition_view<tile=(8x16), "
    "tensor_view<32x64xf32, strides=[64,1]>>",
    "%pview_1 = make_partition_view %tview_0 : partition_view<tile=(16x8), padding_value = nan, "
    "tensor_view<?x64xf32, strides=[64,?]>, dim_map=[1, 0]>",
    "%sview = make_strided_view %tview : strided_view<tile=(8x16), traversal_strides=[4,8], "
    "tensor_view<32x64xf32, strides=[64,1]>>",
    "%gsview = make_gather_scatter_view %tview : gather_scatter_view<tile=(4x16), "
    "tensor_view<32x64xf32, strides=[64,1]>, sparse_dim=0>",
    "%0:2 = get_tensor_shape %tview_0 : tensor_view<?x64xf32, strides=[64,?]> -> tile<i32>",
    "%1:2 = get_index_space_shape %pview : partition_view<tile=(8x16), "
    "tensor_view<32x64xf32, strides=[64,1]>> -> tile<i64>",
    "%tile, %result_token = load_view_tko weak %pview[%arg5, %arg5] : partition_view<tile=(8x16), "
    "tensor_view<32x64xf32, strides=[64,1]>>, tile<i32> -> tile<8x16xf32>, token",
    "%tile_2, %result_token_3 = load_view_tko relaxed device %pview[%arg5, %arg12] token = %arg13 "
    "optimization_hints = <default = {allow_tma = false, latency = 5}> inbounds = [true, false] : "
    "partition_view<tile=(8x16), tensor_view<32x64xf32, strides=[64,1]>>, tile<i32>, tile<i64> "
    "-> tile<8x16xf32>, token",
    "%2 = store_view_tko weak %tile, %pview[%arg5, %arg5] token = %result_token : tile<8x16xf32>, "
    "partition_view<tile=(8x16), tensor_view<32x64xf32, strides=[64,1]>>, tile<i32> -> token",
    "%3 = atomic_red_view_tko relaxed device %pview[%arg5, %arg5], addf, %tile token = %arg13 : "
    "tile<8x16xf32>, partition_view<tile=(8x16), tensor_view<32x64xf32, strides=[64,1]>>, "
    "tile<i32> -> token",
]

MISC = [
    "%assume = assume div_by<16>, %arg3 : tile<ptr<f32>>",
    "%assume_0 = assume div_by<4, every 2 along 0>, %arg1 : tile<4xi32>",
    "%assume_1 = assume bounded<0, ?>, %arg5 : tile<i32>",
    "%assume_2 = assume bounded<-5, 7>, %arg5 : tile<i32>",
    "%assume_3 = assume same_elements<[2]>, %arg1 : tile<4xi32>",
    "%assume_assume = assume bounded<?, 100>, %assume_1 : tile<i32>",
    "%0 = print_tko \"no args\" -> token",
    "%1 = print_tko \"x=%d y=%f\\0A\", %arg5, %arg7 token=%arg13 : tile<i32>, tile<f32> -> token",
]

MODULE_LEVEL = [
    "global  @g <f32: [1.000000e-01, 2.000000e-01]> : tile<2xf32>\n"
    "global private  constant @h alignment = 64 <i32: 7> : tile<4xi32>\n"
    "entry @k() optimization_hints=<default = {occupancy = 2}, sm_100 = {num_cta_in_cga = 2}> {\n"
    "  %0 = get_global @g : tile<ptr<f32>>\n"
    "  return\n"
    "}\n",
]

#: 13.4 additions (syntax from NVIDIA's 13.4 op definitions as the bytecode tables name them)
V13_4 = [
    "%0 = insert %arg7, %arg0[%arg5] : tile<f32>, tile<4xf32>",
    "%1 = gdc_launch_dependents_tko -> token",
    "%2 = gdc_wait_tko token = %arg13 -> token",
    "%3 = memory_fence_alias_tko %arg13",
]

FAMILIES = {
    "core": CORE,
    "reduce_scan": REDUCE,
    "conversions": CONVERSIONS,
    "floating_point": FLOATING_POINT,
    "mma_scaled": MMA_SCALED,
    "integer": INTEGER,
    "bitwise": BITWISE,
    "control_flow": CONTROL_FLOW,
    "memory": MEMORY,
    "atomics": ATOMICS,
    "views": VIEWS,
    "misc": MISC,
    "v13_4": V13_4,
}


#: families whose lines are independent cases (each in an entry of its own)
SEPARATE = {"reduce_scan", "control_flow"}


def cases():
    """(family, entry text) pairs: one entry per family, or per line for ``SEPARATE``."""
    out = []
    for fam, lines in FAMILIES.items():
        if fam in SEPARATE:
            out.extend((fam, entry_text([line])) for line in lines)
        else:
            out.append((fam, entry_text(lines)))
    return out


def entry_text(lines: list[str]) -> str:
    """The tileirdisasm layout of an entry holding ``lines`` (indented two spaces)."""
    body = []
    for text in lines:
        for line in text.split("\n"):
            body.append("  " + line)
    return f"entry @k({SIGNATURE}) {{\n" + "\n".join(body) + "\n  return\n}\n"
