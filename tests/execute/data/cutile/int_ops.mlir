cuda_tile.module @kernels {
entry @int_ops_kernel_Kt1_A1i32_1l0_A1i32_1l0_Si32_I64(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %cst_2_i32 = constant <i32: 2> : tile<64xi32>
  %cst_1_i32 = constant <i32: 1> : tile<64xi32>
  %cst_7_i32 = constant <i32: 7> : tile<64xi32>
  %cst_3_i32 = constant <i32: 3> : tile<64xi32>
  %cst_5_i32 = constant <i32: 5> : tile<64xi32>
  %cst_7_i32_0 = constant <i32: 7> : tile<64xi32>
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_1] : tile<i32> -> tensor_view<?xi32, strides=[?]>
  %assume_2 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg5 : tile<i32>
  %tview_4 = make_tensor_view %arg3, shape = [%assume_2], strides = [%assume_3] : tile<i32> -> tensor_view<?xi32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xi32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xi32, strides=[?]>>, tile<i32> -> tile<64xi32>, token
  %1 = shli %tile, %cst_2_i32 : tile<64xi32>
  %2 = shri %tile, %cst_1_i32 signed : tile<64xi32>
  %3 = xori %1, %2 : tile<64xi32>
  %4 = andi %tile, %cst_7_i32 : tile<64xi32>
  %5 = ori %3, %4 : tile<64xi32>
  %6 = divi %5, %cst_3_i32 signed rounding<negative_inf> : tile<64xi32>
  %7 = remi %5, %cst_5_i32 signed : tile<64xi32>
  %cst_0_i32 = constant <i32: 0> : tile<64xi32>
  %8 = cmpi less_than %7, %cst_0_i32, signed : tile<64xi32> -> tile<64xi1>
  %9 = cmpi less_than %cst_5_i32, %cst_0_i32, signed : tile<64xi32> -> tile<64xi1>
  %10 = xori %8, %9 : tile<64xi1>
  %11 = cmpi not_equal %7, %cst_0_i32, signed : tile<64xi32> -> tile<64xi1>
  %12 = andi %10, %11 : tile<64xi1>
  %13 = addi %7, %cst_5_i32 : tile<64xi32>
  %14 = select %12, %13, %7 : tile<64xi1>, tile<64xi32>
  %15 = addi %6, %14 : tile<64xi32>
  %16 = divi %5, %cst_7_i32_0 signed rounding<positive_inf> : tile<64xi32>
  %17 = addi %15, %16 : tile<64xi32>
  %cst_-1_i32 = constant <i32: -1> : tile<64xi32>
  %18 = xori %tile, %cst_-1_i32 : tile<64xi32>
  %19 = addi %17, %18 : tile<64xi32>
  %20 = negi %tile : tile<64xi32>
  %21 = subi %19, %20 : tile<64xi32>
  %reshape = reshape %arg6 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<64xi32>
  %22 = mini %21, %bcast signed : tile<64xi32>
  %23 = absi %tile : tile<64xi32>
  %24 = addi %22, %23 : tile<64xi32>
  %25 = itof %24 signed  : tile<64xi32> -> tile<64xf16>
  %26 = ftof %25  : tile<64xf16> -> tile<64xf32>
  %27 = ftoi %26 signed  : tile<64xf32> -> tile<64xi64>
  %28 = trunci %27 : tile<64xi64> -> tile<64xi32>
  %29 = addi %24, %28 : tile<64xi32>
  %pview_5 = make_partition_view %tview_4 : partition_view<tile=(64), tensor_view<?xi32, strides=[?]>>
  %30 = store_view_tko weak %29, %pview_5[%blockId_x] token = %0 : tile<64xi32>, partition_view<tile=(64), tensor_view<?xi32, strides=[?]>>, tile<i32> -> token
  return
}
}
