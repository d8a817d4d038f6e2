cuda_tile.module @kernels {
entry @hints_persistent_kernel_Kt1_A1f32_1l0_A1f32_1l0_Si32_I128(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {num_cta_in_cga = 1, num_worker_warps_per_cta = 4, occupancy = 2}, sm_100 = {num_cta_in_cga = 2}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(128), tensor_view<?xf32, strides=[?]>>
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32>
  %reshape = reshape %cst_2_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<128xf32>
  %pview_4 = make_partition_view %tview_3 : partition_view<tile=(128), tensor_view<?xf32, strides=[?]>>
  for %loopIdx in (%blockId_x to %arg6, step %gridSize_x) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview[%loopIdx] token = %0 optimization_hints = <default = {allow_tma = false, latency = 5}> inbounds = [true] : partition_view<tile=(128), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<128xf32>, token
    %1 = mulf %tile, %bcast  : tile<128xf32>
    %2 = store_view_tko weak %1, %pview_4[%loopIdx] token = %0 optimization_hints = <default = {latency = 1}> : tile<128xf32>, partition_view<tile=(128), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
  }
  return
}
}
