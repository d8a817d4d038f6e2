cuda_tile.module @kernels {
entry @gather_2d_kernel_Kt1_A2f32_3l0_A2f32_3l0_I16(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg3 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg6 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg9 : tile<i32>
  %tview = make_tensor_view %arg5, shape = [%assume_1, %assume_2], strides = [%assume_3, %assume_4] : tile<i32> -> tensor_view<?x?xf32, strides=[?,?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %1 = iota : tile<16xi32>
  %reshape = reshape %1 : tile<16xi32> -> tile<16x1xi32>
  %2 = iota : tile<16xi32>
  %reshape_5 = reshape %blockId_x : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape_5 : tile<1xi32> -> tile<16xi32>
  %3 = addi %bcast, %2 : tile<16xi32>
  %reshape_6 = reshape %3 : tile<16xi32> -> tile<1x16xi32>
  %4 = exti %reshape signed : tile<16x1xi32> -> tile<16x1xi64>
  %bcast_7 = broadcast %4 : tile<16x1xi64> -> tile<16x16xi64>
  %5 = exti %assume signed : tile<i32> -> tile<i64>
  %reshape_8 = reshape %5 : tile<i64> -> tile<1x1xi64>
  %bcast_9 = broadcast %reshape_8 : tile<1x1xi64> -> tile<16x16xi64>
  %6 = muli %bcast_7, %bcast_9 : tile<16x16xi64>
  %7 = exti %reshape_6 signed : tile<1x16xi32> -> tile<1x16xi64>
  %bcast_10 = broadcast %7 : tile<1x16xi64> -> tile<16x16xi64>
  %8 = exti %assume_0 signed : tile<i32> -> tile<i64>
  %reshape_11 = reshape %8 : tile<i64> -> tile<1x1xi64>
  %bcast_12 = broadcast %reshape_11 : tile<1x1xi64> -> tile<16x16xi64>
  %9 = muli %bcast_10, %bcast_12 : tile<16x16xi64>
  %10 = addi %6, %9 : tile<16x16xi64>
  %reshape_13 = reshape %arg0 : tile<ptr<f32>> -> tile<1x1xptr<f32>>
  %bcast_14 = broadcast %reshape_13 : tile<1x1xptr<f32>> -> tile<16x16xptr<f32>>
  %11 = offset %bcast_14, %10 : tile<16x16xptr<f32>>, tile<16x16xi64> -> tile<16x16xptr<f32>>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_15 = reshape %cst_0_f32 : tile<f32> -> tile<1x1xf32>
  %bcast_16 = broadcast %reshape_15 : tile<1x1xf32> -> tile<16x16xf32>
  %result, %result_token = load_ptr_tko weak %11, %bcast_16 token=%0 : tile<16x16xptr<f32>>, tile<16x16xf32> -> tile<16x16xf32>, token
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>
  %12 = store_view_tko weak %result, %pview[%blockId_x, %cst_0_i32] token = %0 : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
}
