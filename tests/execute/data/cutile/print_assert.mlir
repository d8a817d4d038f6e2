cuda_tile.module @kernels {
entry @print_assert_kernel_Kt1_A1f32_1l0_I8(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(8), tensor_view<?xf32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(8), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<8xf32>, token
  %1 = join_tokens %0, %result_token : token
  %2 = join_tokens %0, %1 : token
  %3 = print_tko "bid=%d first=%f\0A", %blockId_x, %tile token=%2 : tile<i32>, tile<8xf32> -> token
  %reduce = reduce %tile dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %7 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %7 : tile<f32>
  }
  %4 = join_tokens %3, %1 : token
  %5 = print_tko "sum=%f\0A", %reduce token=%4 : tile<f32> -> token
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape = reshape %cst_0_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<8xf32>
  %6 = cmpf greater_than_or_equal ordered %tile, %bcast : tile<8xf32> -> tile<8xi1>
  assert %6, "negative input" : tile<8xi1>
  return
}
}
