cuda_tile.module @kernels {
entry @atomic_float_kernel_Kt1_A1f32_1l0_A1f32_1l0_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
  %1 = join_tokens %0, %result_token : token
  %2 = iota : tile<64xi32>
  %3 = exti %2 signed : tile<64xi32> -> tile<64xi64>
  %4 = exti %assume signed : tile<i32> -> tile<i64>
  %reshape = reshape %4 : tile<i64> -> tile<1xi64>
  %bcast = broadcast %reshape : tile<1xi64> -> tile<64xi64>
  %5 = cmpi less_than %3, %bcast, unsigned : tile<64xi64> -> tile<64xi1>
  %6 = exti %assume_0 signed : tile<i32> -> tile<i64>
  %reshape_3 = reshape %6 : tile<i64> -> tile<1xi64>
  %bcast_4 = broadcast %reshape_3 : tile<1xi64> -> tile<64xi64>
  %7 = muli %3, %bcast_4 : tile<64xi64>
  %reshape_5 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast_6 = broadcast %reshape_5 : tile<1xptr<f32>> -> tile<64xptr<f32>>
  %8 = offset %bcast_6, %7 : tile<64xptr<f32>>, tile<64xi64> -> tile<64xptr<f32>>
  %9 = join_tokens %0, %1 : token
  %result, %result_token_7 = atomic_rmw_tko acq_rel device %8, addf, %tile, %5 token=%9 : tile<64xptr<f32>>, tile<64xf32>, tile<64xi1> -> tile<64xf32>, token
  return
}
}
