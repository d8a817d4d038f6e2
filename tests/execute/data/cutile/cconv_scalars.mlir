cuda_tile.module @kernels {
entry @cconv_probe_Kt1_A2f32_3l0_A2f32_3l0_Sf32_Si32_Sb8_I3_F3fd0000000000000_B1(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<f32>, %arg11: tile<i32>, %arg12: tile<i1>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, %assume_2] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %assume_3 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_7 = make_tensor_view %arg5, shape = [%assume_3, %assume_4], strides = [%assume_5, %assume_6] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %cst_f32 = constant <f32: 2.500000e-01> : tile<f32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<4x8xf32>, token
  %reshape = reshape %arg10 : tile<f32> -> tile<1x1xf32>
  %bcast = broadcast %reshape : tile<1x1xf32> -> tile<4x8xf32>
  %1 = itof %arg11 signed  : tile<i32> -> tile<f32>
  %reshape_8 = reshape %1 : tile<f32> -> tile<1x1xf32>
  %bcast_9 = broadcast %reshape_8 : tile<1x1xf32> -> tile<4x8xf32>
  %2 = fma %tile, %bcast, %bcast_9  : tile<4x8xf32>
  %reshape_10 = reshape %cst_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_11 = broadcast %reshape_10 : tile<1x1xf32> -> tile<4x8xf32>
  %3 = addf %2, %bcast_11  : tile<4x8xf32>
  %4 = if %arg12 -> (tile<4x8xf32>) {
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    %reshape_16 = reshape %cst_1_f32 : tile<f32> -> tile<1x1xf32>
    %bcast_17 = broadcast %reshape_16 : tile<1x1xf32> -> tile<4x8xf32>
    %7 = addf %3, %bcast_17  : tile<4x8xf32>
    yield %7 : tile<4x8xf32>
  } else {
    yield %3 : tile<4x8xf32>
  }
  %cst_3_f32 = constant <f32: 3.000000e+00> : tile<f32>
  %reshape_12 = reshape %cst_3_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_13 = broadcast %reshape_12 : tile<1x1xf32> -> tile<4x8xf32>
  %5 = mulf %4, %bcast_13  : tile<4x8xf32>
  %cst_0_i32_14 = constant <i32: 0> : tile<i32>
  %pview_15 = make_partition_view %tview_7 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>
  %6 = store_view_tko weak %5, %pview_15[%blockId_x, %cst_0_i32_14] token = %0 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
entry @cconv_probe_Kt1_A2f32_3l0_w_A2f32_3l0_Sf64_Si64_Sb8_I5_Fbff8000000000000_B0(%arg0: tile<ptr<f32>>, %arg1: tile<i64>, %arg2: tile<i64>, %arg3: tile<i64>, %arg4: tile<i64>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<f64>, %arg11: tile<i64>, %arg12: tile<i1>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i64>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i64>
  %assume_1 = assume bounded<0, ?>, %arg3 : tile<i64>
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i64>
  %tview = make_tensor_view %arg0, shape = [%assume, %assume_0], strides = [%assume_1, %assume_2] : tile<i64> -> tensor_view<?x?xf32, strides=[?,?]>
  %assume_3 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview_7 = make_tensor_view %arg5, shape = [%assume_3, %assume_4], strides = [%assume_5, %assume_6] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %1 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %cst_0_i64 = constant <i64: 0> : tile<i64>
  %pview = make_partition_view %tview : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>
  %tile, %result_token = load_view_tko weak %pview[%1, %cst_0_i64] token = %0 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i64> -> tile<4x8xf32>, token
  %2 = ftof %tile  : tile<4x8xf32> -> tile<4x8xf64>
  %reshape = reshape %arg10 : tile<f64> -> tile<1x1xf64>
  %bcast = broadcast %reshape : tile<1x1xf64> -> tile<4x8xf64>
  %3 = itof %arg11 signed  : tile<i64> -> tile<f64>
  %reshape_8 = reshape %3 : tile<f64> -> tile<1x1xf64>
  %bcast_9 = broadcast %reshape_8 : tile<1x1xf64> -> tile<4x8xf64>
  %4 = fma %2, %bcast, %bcast_9  : tile<4x8xf64>
  %cst_f64 = constant <f64: -1.500000e+00> : tile<f64>
  %reshape_10 = reshape %cst_f64 : tile<f64> -> tile<1x1xf64>
  %bcast_11 = broadcast %reshape_10 : tile<1x1xf64> -> tile<4x8xf64>
  %5 = addf %4, %bcast_11  : tile<4x8xf64>
  %6 = if %arg12 -> (tile<4x8xf64>) {
    %cst_1_f64 = constant <f64: 1.000000e+00> : tile<f64>
    %reshape_13 = reshape %cst_1_f64 : tile<f64> -> tile<1x1xf64>
    %bcast_14 = broadcast %reshape_13 : tile<1x1xf64> -> tile<4x8xf64>
    %9 = addf %5, %bcast_14  : tile<4x8xf64>
    yield %9 : tile<4x8xf64>
  } else {
    yield %5 : tile<4x8xf64>
  }
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %7 = ftof %6  : tile<4x8xf64> -> tile<4x8xf32>
  %pview_12 = make_partition_view %tview_7 : partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>
  %8 = store_view_tko weak %7, %pview_12[%blockId_x, %cst_0_i32] token = %0 : tile<4x8xf32>, partition_view<tile=(4x8), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
}
