cuda_tile.module @kernels {
entry @dtype_kernel_Kt1_A1bf16_1l0_A1f8m3fn_1l0_A1f64_1l0_A1u8_1l0_I64(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f8E4M3FN>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f64>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i8>>, %arg10: tile<i32>, %arg11: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xbf16, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf8E4M3FN, strides=[?]>
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_6 = make_tensor_view %arg6, shape = [%assume_4], strides = [%assume_5] : tile<i32> -> tensor_view<?xf64, strides=[?]>
  %assume_7 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_8 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview_9 = make_tensor_view %arg9, shape = [%assume_7], strides = [%assume_8] : tile<i32> -> tensor_view<?xi8, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xbf16, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xbf16, strides=[?]>>, tile<i32> -> tile<64xbf16>, token
  %1 = ftof %tile  : tile<64xbf16> -> tile<64xf8E4M3FN>
  %pview_10 = make_partition_view %tview_3 : partition_view<tile=(64), tensor_view<?xf8E4M3FN, strides=[?]>>
  %2 = store_view_tko weak %1, %pview_10[%blockId_x] token = %0 : tile<64xf8E4M3FN>, partition_view<tile=(64), tensor_view<?xf8E4M3FN, strides=[?]>>, tile<i32> -> token
  %3 = ftof %tile  : tile<64xbf16> -> tile<64xf64>
  %cst_f64 = constant <f64: 1.500000e+00> : tile<f64>
  %reshape = reshape %cst_f64 : tile<f64> -> tile<1xf64>
  %bcast = broadcast %reshape : tile<1xf64> -> tile<64xf64>
  %4 = mulf %3, %bcast  : tile<64xf64>
  %pview_11 = make_partition_view %tview_6 : partition_view<tile=(64), tensor_view<?xf64, strides=[?]>>
  %5 = store_view_tko weak %4, %pview_11[%blockId_x] token = %0 : tile<64xf64>, partition_view<tile=(64), tensor_view<?xf64, strides=[?]>>, tile<i32> -> token
  %cst_0_bf16 = constant <bf16: 0.000000e+00> : tile<bf16>
  %reshape_12 = reshape %cst_0_bf16 : tile<bf16> -> tile<1xbf16>
  %bcast_13 = broadcast %reshape_12 : tile<1xbf16> -> tile<64xbf16>
  %6 = cmpf greater_than ordered %tile, %bcast_13 : tile<64xbf16> -> tile<64xi1>
  %7 = exti %6 unsigned : tile<64xi1> -> tile<64xi8>
  %cst_-56_i8 = constant <i8: -56> : tile<64xi8>
  %8 = addi %7, %cst_-56_i8 : tile<64xi8>
  %pview_14 = make_partition_view %tview_9 : partition_view<tile=(64), tensor_view<?xi8, strides=[?]>>
  %9 = store_view_tko weak %8, %pview_14[%blockId_x] token = %0 : tile<64xi8>, partition_view<tile=(64), tensor_view<?xi8, strides=[?]>>, tile<i32> -> token
  return
}
}
