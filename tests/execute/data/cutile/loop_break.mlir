cuda_tile.module @kernels {
entry @loop_break_kernel_Kt1_A1f32_1l0_A1f32_1l0_Si32_I64(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %false = constant <i1: false> : tile<i1>
  %true = constant <i1: true> : tile<i1>
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_3 = make_tensor_view %arg3, shape = [%assume_1], strides = [%assume_2] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_100_i32 = constant <i32: 100> : tile<i32>
  %cst_3_i32 = constant <i32: 3> : tile<i32>
  %cst_4_i32 = constant <i32: 4> : tile<i32>
  %cst_0_i32_4 = constant <i32: 0> : tile<i32>
  %false_5 = constant <i1: false> : tile<i1>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %for:2 = for %loopIdx in (%cst_0_i32 to %cst_100_i32, step %cst_3_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_f32, %iterArg1 = %false) -> (tile<64xf32>, tile<i1>) {
    if %iterArg1 {
      continue %iterArg0, %iterArg1 : tile<64xf32>, tile<i1>
    } else {
    }
    %2 = cmpi greater_than %loopIdx, %arg6, signed : tile<i32> -> tile<i1>
    if %2 {
      continue %iterArg0, %true : tile<64xf32>, tile<i1>
    } else {
    }
    %3 = cmpi equal %loopIdx, %blockId_x, signed : tile<i32> -> tile<i1>
    if %3 {
      continue %iterArg0, %iterArg1 : tile<64xf32>, tile<i1>
    } else {
    }
    %4 = remi %loopIdx, %cst_4_i32 signed : tile<i32>
    %5 = cmpi less_than %4, %cst_0_i32_4, signed : tile<i32> -> tile<i1>
    %6 = xori %5, %false_5 : tile<i1>
    %7 = cmpi not_equal %4, %cst_0_i32_4, signed : tile<i32> -> tile<i1>
    %8 = andi %6, %7 : tile<i1>
    %9 = addi %4, %cst_4_i32 : tile<i32>
    %10 = select %8, %9, %4 : tile<i1>, tile<i32>
    %tile, %result_token = load_view_tko weak %pview[%10] token = %0 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<64xf32>, token
    %11 = addf %iterArg0, %tile  : tile<64xf32>
    continue %11, %iterArg1 : tile<64xf32>, tile<i1>
  }
  %pview_6 = make_partition_view %tview_3 : partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>
  %1 = store_view_tko weak %for#0, %pview_6[%blockId_x] token = %0 : tile<64xf32>, partition_view<tile=(64), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
  return
}
}
