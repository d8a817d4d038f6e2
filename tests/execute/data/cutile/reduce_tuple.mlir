cuda_tile.module @kernels {
entry @reduce_tuple_kernel_Kt1_A1f32_1l0_A1f32_1l0_A1i32_1l0_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_6 = make_tensor_view %arg6, shape = [%assume_4], strides = [%assume_5] : tile<i32> -> tensor_view<?xi32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
  %1 = iota : tile<64xi32>
  %reduce:2 = reduce %tile, %1 dim=0 identities=[0x7F800000 : f32, 0 : i32] : tile<64xf32>, tile<64xi32> -> tile<f32>, tile<i32> 
  (%reduce_lhs0: tile<f32>, %reduce_rhs0: tile<f32>, %reduce_lhs1: tile<i32>, %reduce_rhs1: tile<i32>) {
    %4 = cmpf less_than_or_equal ordered %reduce_lhs0, %reduce_rhs0 : tile<f32> -> tile<i1>
    %5 = select %4, %reduce_lhs0, %reduce_rhs0 : tile<i1>, tile<f32>
    %6 = select %4, %reduce_lhs1, %reduce_rhs1 : tile<i1>, tile<i32>
    yield %5, %6 : tile<f32>, tile<i32>
  }
  %reshape = reshape %reduce#0 : tile<f32> -> tile<1xf32>
  %pview_7 = make_partition_view %tview_3 : partition_view<tile=(1), tensor_view<?xf32, strides=[?]>>
  %2 = store_view_tko weak %reshape, %pview_7[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
  %reshape_8 = reshape %reduce#1 : tile<i32> -> tile<1xi32>
  %pview_9 = make_partition_view %tview_6 : partition_view<tile=(1), tensor_view<?xi32, strides=[?]>>
  %3 = store_view_tko weak %reshape_8, %pview_9[%blockId_x] token = %0 : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[?]>>, tile<i32> -> token
  return
}
}
