cuda_tile.module @kernels {
entry @dynamic_loop_kernel_Kt1_A1f32_1l0_A1f32_1l0_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64xf32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %1 = addi %blockId_x, %cst_1_i32 : tile<i32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_4 = constant <i32: 1> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %for = for %loopIdx in (%cst_0_i32 to %1, step %cst_1_i32_4) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64xf32>) {
    %tile, %result_token = load_view_tko weak %pview[%loopIdx] token = %0 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
    %13 = addf %iterArg0, %tile  : tile<64xf32>
    continue %13 : tile<64xf32>
  }
  %cst_2_i32 = constant <i32: 2> : tile<i32>
  %2 = remi %blockId_x, %cst_2_i32 signed : tile<i32>
  %cst_0_i32_5 = constant <i32: 0> : tile<i32>
  %3 = cmpi less_than %2, %cst_0_i32_5, signed : tile<i32> -> tile<i1>
  %false = constant <i1: false> : tile<i1>
  %4 = xori %3, %false : tile<i1>
  %5 = cmpi not_equal %2, %cst_0_i32_5, signed : tile<i32> -> tile<i1>
  %6 = andi %4, %5 : tile<i1>
  %7 = addi %2, %cst_2_i32 : tile<i32>
  %8 = select %6, %7, %2 : tile<i1>, tile<i32>
  %cst_0_i32_6 = constant <i32: 0> : tile<i32>
  %9 = cmpi equal %8, %cst_0_i32_6, signed : tile<i32> -> tile<i1>
  %10 = if %9 -> (tile<64xf32>) {
    %cst_2_f32 = constant <f32: 2.000000e+00> : tile<f32>
    %reshape_10 = reshape %cst_2_f32 : tile<f32> -> tile<1xf32>
    %bcast_11 = broadcast %reshape_10 : tile<1xf32> -> tile<64xf32>
    %13 = mulf %for, %bcast_11  : tile<64xf32>
    yield %13 : tile<64xf32>
  } else {
    %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
    %reshape_10 = reshape %cst_1_f32 : tile<f32> -> tile<1xf32>
    %bcast_11 = broadcast %reshape_10 : tile<1xf32> -> tile<64xf32>
    %13 = subf %for, %bcast_11  : tile<64xf32>
    yield %13 : tile<64xf32>
  }
  %cst_0_i32_7 = constant <i32: 0> : tile<i32>
  %cst_f32 = constant <f32: 5.000000e-01> : tile<f32>
  %reshape = reshape %cst_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<64xf32>
  %cst_2_i32_8 = constant <i32: 2> : tile<i32>
  %11:2 = loop iter_values(%arg6 = %10, %arg7 = %blockId_x) : tile<64xf32>, tile<i32> -> tile<64xf32>, tile<i32> {
    %13 = cmpi greater_than %arg7, %cst_0_i32_7, signed : tile<i32> -> tile<i1>
    if %13 {
    } else {
      break %arg6, %arg7 : tile<64xf32>, tile<i32>
    }
    %14 = addf %arg6, %bcast  : tile<64xf32>
    %15 = divi %arg7, %cst_2_i32_8 signed rounding<negative_inf> : tile<i32>
    continue %14, %15 : tile<64xf32>, tile<i32>
  }
  %pview_9 = make_partition_view %tview_3 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %12 = store_view_tko weak %11#0, %pview_9[%blockId_x] token = %0 : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
  return
}
}
