cuda_tile.module @kernels {
entry @math_misc_kernel_Kt1_A1f32_1l0_A1f32_1l0_A1f32_1l0_Sf32_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<f32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_4 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg8 : tile<i32>
  %tview_6 = make_tensor_view %arg6, shape = [%assume_4], strides = [%assume_5] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
  %pview_7 = make_partition_view %tview_3 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %tile_8, %result_token_9 = load_view_tko weak %pview_7[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
  %1 = fpowf %tile, %tile_8 : tile<64xf32>
  %reshape = reshape %arg9 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<64xf32>
  %2 = fpowf %tile, %bcast : tile<64xf32>
  %3 = addf %1, %2  : tile<64xf32>
  %4 = atan2 %tile, %tile_8 : tile<64xf32>
  %5 = addf %3, %4  : tile<64xf32>
  %6 = exp2 %tile flush_to_zero : tile<64xf32>
  %7 = addf %5, %6  : tile<64xf32>
  %8 = rsqrt %tile : tile<64xf32>
  %9 = addf %7, %8  : tile<64xf32>
  %10 = tanh %tile  : tile<64xf32>
  %11 = addf %9, %10  : tile<64xf32>
  %12 = log %tile : tile<64xf32>
  %13 = addf %11, %12  : tile<64xf32>
  %14 = floor %tile : tile<64xf32>
  %15 = addf %13, %14  : tile<64xf32>
  %16 = addf %15, %tile_8 rounding<zero> : tile<64xf32>
  %17 = divf %16, %tile_8 rounding<approx> flush_to_zero : tile<64xf32>
  %cst_f32 = constant <f32: 3.500000e+00> : tile<f32>
  %reshape_10 = reshape %cst_f32 : tile<f32> -> tile<1xf32>
  %bcast_11 = broadcast %reshape_10 : tile<1xf32> -> tile<64xf32>
  %18 = minf %17, %bcast_11 propagate_nan : tile<64xf32>
  %cst_f32_12 = constant <f32: -0.000000e+00> : tile<f32>
  %reshape_13 = reshape %cst_f32_12 : tile<f32> -> tile<1xf32>
  %bcast_14 = broadcast %reshape_13 : tile<1xf32> -> tile<64xf32>
  %19 = maxf %17, %bcast_14 : tile<64xf32>
  %20 = addf %18, %19  : tile<64xf32>
  %21 = cmpf not_equal unordered %20, %20 : tile<64xf32> -> tile<64xi1>
  %cst_f32_15 = constant <f32: 1.000000e-30> : tile<f32>
  %reshape_16 = reshape %cst_f32_15 : tile<f32> -> tile<1xf32>
  %bcast_17 = broadcast %reshape_16 : tile<1xf32> -> tile<64xf32>
  %22 = select %21, %bcast_17, %20 : tile<64xi1>, tile<64xf32>
  %cst_f32_18 = constant <f32: 1.000000e-01> : tile<f32>
  %reshape_19 = reshape %cst_f32_18 : tile<f32> -> tile<1xf32>
  %bcast_20 = broadcast %reshape_19 : tile<1xf32> -> tile<64xf32>
  %23 = addf %22, %bcast_20  : tile<64xf32>
  %cst_NaN_f32 = constant <f32: 0xFFC00000> : tile<f32>
  %reshape_21 = reshape %cst_NaN_f32 : tile<f32> -> tile<1xf32>
  %bcast_22 = broadcast %reshape_21 : tile<1xf32> -> tile<64xf32>
  %24 = addf %23, %bcast_22  : tile<64xf32>
  %pview_23 = make_partition_view %tview_6 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %25 = store_view_tko weak %24, %pview_23[%blockId_x] token = %0 : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
  return
}
}
