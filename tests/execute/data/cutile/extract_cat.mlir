cuda_tile.module @kernels {
entry @extract_cat_kernel_Kt1_A2f32_3l0_A2f32_3l0_I16(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<i32>) optimization_hints=<default = {}> {
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
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x, %cst_0_i32] token = %0 : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> tile<16x16xf32>, token
  %cst_0_i32_8 = constant <i32: 0> : tile<i32>
  %cst_0_i32_9 = constant <i32: 0> : tile<i32>
  %1 = extract %tile[%cst_0_i32_8, %cst_0_i32_9] : tile<16x16xf32> -> tile<16x8xf32>
  %cst_0_i32_10 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %2 = extract %tile[%cst_0_i32_10, %cst_1_i32] : tile<16x16xf32> -> tile<16x8xf32>
  %3 = cat %2, %1 dim = 1 : tile<16x8xf32>, tile<16x8xf32> -> tile<16x16xf32>
  %reshape = reshape %3 : tile<16x16xf32> -> tile<1x16x16xf32>
  %4 = permute %reshape [0, 2, 1] : tile<1x16x16xf32> -> tile<1x16x16xf32>
  %reshape_11 = reshape %4 : tile<1x16x16xf32> -> tile<16x16xf32>
  %cst_0_i32_12 = constant <i32: 0> : tile<i32>
  %reduce = reduce %reshape_11 dim=0 identities=[0.000000e+00 : f32] : tile<16x16xf32> -> tile<16xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %6 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %6 : tile<f32>
  }
  %reshape_13 = reshape %reduce : tile<16xf32> -> tile<1x16xf32>
  %bcast = broadcast %reshape_13 : tile<1x16xf32> -> tile<16x16xf32>
  %pview_14 = make_partition_view %tview_7 : partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>
  %5 = store_view_tko weak %bcast, %pview_14[%blockId_x, %cst_0_i32_12] token = %0 : tile<16x16xf32>, partition_view<tile=(16x16), tensor_view<?x?xf32, strides=[?,?]>>, tile<i32> -> token
  return
}
}
