entry @cconv_probe_Kt1_A2f32_3l0_A2f32_3l0_Sf32_Si32_Sb8_I3_F3fd0000000000000_B1(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<f32>, %arg11: tile<i32>, %arg12: tile<i1>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc14)
  %assume = assume bounded<0, ?>, %arg1 : tile<i32> loc(#loc14)
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32> loc(#loc14)
  %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32> loc(#loc14)
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32> loc(#loc14)
  %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, %assume_2] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]> loc(#loc14)
  %assume_3 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc14)
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc14)
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc14)
  %assume_6 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc14)
  %tview_7 = make_tensor_view %arg5, shape = [%assume_3, %assume_4], strides = [%assume_5, %assume_6] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]> loc(#loc14)
  %cst_f32 = constant <f32: 2.500000e-01> : tile<f32> loc(#loc14)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc15)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc16)
  %pview = make_partition_view %tview : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>> loc(#loc17)
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<4x8xf32>, token loc(#loc17)
  %reshape = reshape %arg10 : tile<f32> -> tile<1x1xf32> loc(#loc18)
  %bcast = broadcast %reshape : tile<1x1xf32> -> tile<4x8xf32> loc(#loc18)
  %1 = itof %arg11 signed  : tile<i32> -> tile<f32> loc(#loc18)
  %reshape_8 = reshape %1 : tile<f32> -> tile<1x1xf32> loc(#loc18)
  %bcast_9 = broadcast %reshape_8 : tile<1x1xf32> -> tile<4x8xf32> loc(#loc18)
  %2 = fma %tile, %bcast, %bcast_9  : tile<4x8xf32> loc(#loc18)
  %reshape_10 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32> loc(#loc18)
  %bcast_11 = broadcast %reshape_10 : tile<1x1xf32> -> tile<4x8xf32> loc(#loc18)
  %3 = addf %2, %bcast_11  : tile<4x8xf32> loc(#loc18)
  %4 = if %arg12 -> (tile<4x8xf32>) {
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32> loc(#loc20)
    %reshape_16 = reshape %cst_1_f32 : tile<f32> -> tile<1x1xf32> loc(#loc21)
    %bcast_17 = broadcast %reshape_16 : tile<1x1xf32> -> tile<4x8xf32> loc(#loc21)
    %7 = addf %3, %bcast_17  : tile<4x8xf32> loc(#loc21)
    yield %7 : tile<4x8xf32> loc(#loc19)
  } else {
    yield %3 : tile<4x8xf32> loc(#loc19)
  } loc(#loc19)
  %cst_3_f32 = constant <f32: 3.000000e+00> : tile<f32> loc(#loc22)
  %reshape_12 = reshape %cst_3_f32 : tile<f32> -> tile<1x1xf32> loc(#loc22)
  %bcast_13 = broadcast %reshape_12 : tile<1x1xf32> -> tile<4x8xf32> loc(#loc22)
  %5 = mulf %4, %bcast_13  : tile<4x8xf32> loc(#loc22)
  %cst_0_i32_14 = constant <i32: 0> : tile<i32> loc(#loc23)
  %pview_15 = make_partition_view %tview_7 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>> loc(#loc24)
  %6 = store_view_tko weak %5, %pview_15[%blockId_x, %cst_0_i32_14] token = %0 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token loc(#loc24)
  return loc(#loc11)
} loc(#loc14)
entry @cconv_probe_Kt1_A2f32_3l0_w_A2f32_3l0_Sf64_Si64_Sb8_I5_Fbff8000000000000_B0(%arg0: tile<ptr<f32>>, %arg1: tile<i64>, %arg2: tile<i64>, %arg3: tile<i64>, %arg4: tile<i64>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<f64>, %arg11: tile<i64>, %arg12: tile<i1>) optimization_hints=<default = {}> {
  %0 = make_token : token loc(#loc25)
  %assume = assume bounded<0, ?>, %arg1 : tile<i64> loc(#loc25)
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i64> loc(#loc25)
  %assume_1 = assume bounded<0, ?>, %arg3 : tile<i64> loc(#loc25)
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i64> loc(#loc25)
  %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, %assume_2] : tile<i64> -> tensor_view<?x?xf32, strides=[?,?]> loc(#loc25)
  %assume_3 = assume bounded<0, ?>, %arg6 : tile<i32> loc(#loc25)
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32> loc(#loc25)
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32> loc(#loc25)
  %assume_6 = assume bounded<0, ?>, %arg9 : tile<i32> loc(#loc25)
  %tview_7 = make_tensor_view %arg5, shape = [%assume_3, %assume_4], strides = [%assume_5, %assume_6] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]> loc(#loc25)
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32> loc(#loc26)
  %1 = exti %blockId_x signed : tile<i32> -> tile<i64> loc(#loc27)
  %cst_0_i64 = constant <i64: 0> : tile<i64> loc(#loc27)
  %pview = make_partition_view %tview : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>> loc(#loc27)
  %tile, %result_token = load_view_tko weak %pview[%1, %cst_0_i64] token = %0 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i64> -> tile<4x8xf32>, token loc(#loc27)
  %2 = ftof %tile  : tile<4x8xf32> -> tile<4x8xf64> loc(#loc28)
  %reshape = reshape %arg10 : tile<f64> -> tile<1x1xf64> loc(#loc28)
  %bcast = broadcast %reshape : tile<1x1xf64> -> tile<4x8xf64> loc(#loc28)
  %3 = itof %arg11 signed  : tile<i64> -> tile<f64> loc(#loc28)
  %reshape_8 = reshape %3 : tile<f64> -> tile<1x1xf64> loc(#loc28)
  %bcast_9 = broadcast %reshape_8 : tile<1x1xf64> -> tile<4x8xf64> loc(#loc28)
  %4 = fma %2, %bcast, %bcast_9  : tile<4x8xf64> loc(#loc28)
  %cst_f64 = constant <f64: -1.500000e+00> : tile<f64> loc(#loc28)
  %reshape_10 = reshape %cst_f64 : tile<f64> -> tile<1x1xf64> loc(#loc28)
  %bcast_11 = broadcast %reshape_10 : tile<1x1xf64> -> tile<4x8xf64> loc(#loc28)
  %5 = addf %4, %bcast_11  : tile<4x8xf64> loc(#loc28)
  %6 = if %arg12 -> (tile<4x8xf64>) {
    %cst_1_f64 = constant <f64: 1.000000e+00> : tile<f64> loc(#loc30)
    %reshape_13 = reshape %cst_1_f64 : tile<f64> -> tile<1x1xf64> loc(#loc30)
    %bcast_14 = broadcast %reshape_13 : tile<1x1xf64> -> tile<4x8xf64> loc(#loc30)
    %9 = addf %5, %bcast_14  : tile<4x8xf64> loc(#loc30)
    yield %9 : tile<4x8xf64> loc(#loc29)
  } else {
    yield %5 : tile<4x8xf64> loc(#loc29)
  } loc(#loc29)
  %cst_0_i32 = constant <i32: 0> : tile<i32> loc(#loc31)
  %7 = ftof %6  : tile<4x8xf64> -> tile<4x8xf32> loc(#loc35)
  %pview_12 = make_partition_view %tview_7 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>> loc(#loc34)
  %8 = store_view_tko weak %7, %pview_12[%blockId_x, %cst_0_i32] token = %0 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token loc(#loc34)
  return loc(#loc11)
} loc(#loc25)
#di_file = #cuda_tile.di_file<"kernels.py" in "/work/notes/nvidia/samples">
#di_file1 = #cuda_tile.di_file<"_stub.py" in "/work/notes/nvidia/venv/lib/python3.11/site-packages/cuda/tile">
#loc = loc("/work/notes/nvidia/samples/kernels.py":367:0)
#loc1 = loc("/work/notes/nvidia/samples/kernels.py":369:10)
#loc2 = loc("/work/notes/nvidia/samples/kernels.py":370:31)
#loc3 = loc("/work/notes/nvidia/samples/kernels.py":370:8)
#loc4 = loc("/work/notes/nvidia/samples/kernels.py":371:8)
#loc5 = loc("/work/notes/nvidia/samples/kernels.py":372:4)
#loc6 = loc("/work/notes/nvidia/samples/kernels.py":373:16)
#loc7 = loc("/work/notes/nvidia/samples/kernels.py":373:12)
#loc8 = loc("/work/notes/nvidia/samples/kernels.py":375:12)
#loc9 = loc("/work/notes/nvidia/samples/kernels.py":376:28)
#loc10 = loc("/work/notes/nvidia/samples/kernels.py":376:4)
#loc11 = loc(unknown)
#loc12 = loc("/work/notes/nvidia/venv/lib/python3.11/site-packages/cuda/tile/_stub.py":678:15)
#loc13 = loc("/work/notes/nvidia/samples/kernels.py":376:37)
#di_compile_unit = #cuda_tile.di_compile_unit<file = #di_file>
#di_compile_unit1 = #cuda_tile.di_compile_unit<file = #di_file1>
#di_subprogram = #cuda_tile.di_subprogram<file = #di_file, line = 366, name = "cconv_probe", linkageName = "cconv_probe_Kt1_A2f32_3l0_A2f32_3l0_Sf32_Si32_Sb8_I3_F3fd0000000000000_B1", compileUnit = #di_compile_unit, scopeLine = 366>
#di_subprogram1 = #cuda_tile.di_subprogram<file = #di_file, line = 366, name = "cconv_probe", linkageName = "cconv_probe_Kt1_A2f32_3l0_w_A2f32_3l0_Sf64_Si64_Sb8_I5_Fbff8000000000000_B0", compileUnit = #di_compile_unit, scopeLine = 366>
#di_subprogram2 = #cuda_tile.di_subprogram<file = #di_file1, line = 676, name = "astype", linkageName = "astype@_stub:676:5_s0", compileUnit = #di_compile_unit1, scopeLine = 676>
#loc14 = #cuda_tile.di_loc<#loc in #di_subprogram>
#loc15 = #cuda_tile.di_loc<#loc1 in #di_subprogram>
#loc16 = #cuda_tile.di_loc<#loc2 in #di_subprogram>
#loc17 = #cuda_tile.di_loc<#loc3 in #di_subprogram>
#loc18 = #cuda_tile.di_loc<#loc4 in #di_subprogram>
#loc19 = #cuda_tile.di_loc<#loc5 in #di_subprogram>
#loc20 = #cuda_tile.di_loc<#loc6 in #di_subprogram>
#loc21 = #cuda_tile.di_loc<#loc7 in #di_subprogram>
#loc22 = #cuda_tile.di_loc<#loc8 in #di_subprogram>
#loc23 = #cuda_tile.di_loc<#loc9 in #di_subprogram>
#loc24 = #cuda_tile.di_loc<#loc10 in #di_subprogram>
#loc25 = #cuda_tile.di_loc<#loc in #di_subprogram1>
#loc26 = #cuda_tile.di_loc<#loc1 in #di_subprogram1>
#loc27 = #cuda_tile.di_loc<#loc3 in #di_subprogram1>
#loc28 = #cuda_tile.di_loc<#loc4 in #di_subprogram1>
#loc29 = #cuda_tile.di_loc<#loc5 in #di_subprogram1>
#loc30 = #cuda_tile.di_loc<#loc7 in #di_subprogram1>
#loc31 = #cuda_tile.di_loc<#loc9 in #di_subprogram1>
#loc32 = #cuda_tile.di_loc<#loc12 in #di_subprogram2>
#loc33 = #cuda_tile.di_loc<#loc13 in #di_subprogram1>
#loc34 = #cuda_tile.di_loc<#loc10 in #di_subprogram1>
#loc35 = loc(callsite(#loc32 at #loc33))
