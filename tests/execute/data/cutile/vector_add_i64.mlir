cuda_tile.module @kernels {
entry @vector_add_Kt1_A1f16_1l0_w_A1f16_1l0_w_A1f16_1l0_w_I64(%arg0: tile<ptr<f16>>, %arg1: tile<i64>, %arg2: tile<i64>, %arg3: tile<ptr<f16>>, %arg4: tile<i64>, %arg5: tile<i64>, %arg6: tile<ptr<f16>>, %arg7: tile<i64>, %arg8: tile<i64>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i64>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i64>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i64> -> tensor_view<?xf16, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i64>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i64>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i64> -> tensor_view<?xf16, strides=[?]>
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i64>
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i64>
  %tview_6 = make_tensor_view %arg6, shape = [%assume_4], strides = [%assume_5] : tile<i64> -> tensor_view<?xf16, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %1 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xf16, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%1] token = %0 : partition_view<tile=(64), tensor_view<?xf16, strides=[?]>>, tile<i64> -> tile<64xf16>, token
  %2 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %pview_7 = make_partition_view %tview_3 : partition_view<tile=(64), tensor_view<?xf16, strides=[?]>>
  %tile_8, %result_token_9 = load_view_tko weak %pview_7[%2] token = %0 : partition_view<tile=(64), tensor_view<?xf16, strides=[?]>>, tile<i64> -> tile<64xf16>, token
  %3 = addf %tile, %tile_8  : tile<64xf16>
  %4 = exti %blockId_x signed : tile<i32> -> tile<i64>
  %pview_10 = make_partition_view %tview_6 : partition_view<tile=(64), tensor_view<?xf16, strides=[?]>>
  %5 = store_view_tko weak %3, %pview_10[%4] token = %0 : tile<64xf16>, partition_view<tile=(64), tensor_view<?xf16, strides=[?]>>, tile<i64> -> token
  return
}
}
