cuda_tile.module @kernels {
entry @saxpy_scalars_Kt1_A1f32_1l0_A1f32_1l0_Sf32_Si32_I128(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<f32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<f32>, %arg7: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %cst_128_i32 = constant <i32: 128> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %1 = muli %blockId_x, %cst_128_i32 : tile<i32>
  %2 = iota : tile<128xi32>
  %reshape = reshape %1 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape : tile<1xi32> -> tile<128xi32>
  %3 = addi %bcast, %2 : tile<128xi32>
  %4 = exti %3 signed : tile<128xi32> -> tile<128xi64>
  %5 = exti %assume signed : tile<i32> -> tile<i64>
  %reshape_3 = reshape %5 : tile<i64> -> tile<1xi64>
  %bcast_4 = broadcast %reshape_3 : tile<1xi64> -> tile<128xi64>
  %6 = cmpi less_than %4, %bcast_4, unsigned : tile<128xi64> -> tile<128xi1>
  %7 = exti %assume_0 signed : tile<i32> -> tile<i64>
  %reshape_5 = reshape %7 : tile<i64> -> tile<1xi64>
  %bcast_6 = broadcast %reshape_5 : tile<1xi64> -> tile<128xi64>
  %8 = muli %4, %bcast_6 : tile<128xi64>
  %reshape_7 = reshape %arg0 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast_8 = broadcast %reshape_7 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %9 = offset %bcast_8, %8 : tile<128xptr<f32>>, tile<128xi64> -> tile<128xptr<f32>>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_9 = reshape %cst_0_f32 : tile<f32> -> tile<1xf32>
  %bcast_10 = broadcast %reshape_9 : tile<1xf32> -> tile<128xf32>
  %result, %result_token = load_ptr_tko weak %9, %6, %bcast_10 token=%0 : tile<128xptr<f32>>, tile<128xi1>, tile<128xf32> -> tile<128xf32>, token
  %10 = exti %3 signed : tile<128xi32> -> tile<128xi64>
  %11 = exti %assume_1 signed : tile<i32> -> tile<i64>
  %reshape_11 = reshape %11 : tile<i64> -> tile<1xi64>
  %bcast_12 = broadcast %reshape_11 : tile<1xi64> -> tile<128xi64>
  %12 = cmpi less_than %10, %bcast_12, unsigned : tile<128xi64> -> tile<128xi1>
  %13 = exti %assume_2 signed : tile<i32> -> tile<i64>
  %reshape_13 = reshape %13 : tile<i64> -> tile<1xi64>
  %bcast_14 = broadcast %reshape_13 : tile<1xi64> -> tile<128xi64>
  %14 = muli %10, %bcast_14 : tile<128xi64>
  %reshape_15 = reshape %arg3 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast_16 = broadcast %reshape_15 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %15 = offset %bcast_16, %14 : tile<128xptr<f32>>, tile<128xi64> -> tile<128xptr<f32>>
  %cst_0_f32_17 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_18 = reshape %cst_0_f32_17 : tile<f32> -> tile<1xf32>
  %bcast_19 = broadcast %reshape_18 : tile<1xf32> -> tile<128xf32>
  %result_20, %result_token_21 = load_ptr_tko weak %15, %12, %bcast_19 token=%0 : tile<128xptr<f32>>, tile<128xi1>, tile<128xf32> -> tile<128xf32>, token
  %16 = join_tokens %0, %result_token_21 : token
  %reshape_22 = reshape %arg6 : tile<f32> -> tile<1xf32>
  %bcast_23 = broadcast %reshape_22 : tile<1xf32> -> tile<128xf32>
  %17 = fma %bcast_23, %result, %result_20  : tile<128xf32>
  %reshape_24 = reshape %arg7 : tile<i32> -> tile<1xi32>
  %bcast_25 = broadcast %reshape_24 : tile<1xi32> -> tile<128xi32>
  %18 = cmpi less_than %3, %bcast_25, signed : tile<128xi32> -> tile<128xi1>
  %19 = exti %3 signed : tile<128xi32> -> tile<128xi64>
  %20 = exti %assume_1 signed : tile<i32> -> tile<i64>
  %reshape_26 = reshape %20 : tile<i64> -> tile<1xi64>
  %bcast_27 = broadcast %reshape_26 : tile<1xi64> -> tile<128xi64>
  %21 = cmpi less_than %19, %bcast_27, unsigned : tile<128xi64> -> tile<128xi1>
  %22 = exti %assume_2 signed : tile<i32> -> tile<i64>
  %reshape_28 = reshape %22 : tile<i64> -> tile<1xi64>
  %bcast_29 = broadcast %reshape_28 : tile<1xi64> -> tile<128xi64>
  %23 = muli %19, %bcast_29 : tile<128xi64>
  %reshape_30 = reshape %arg3 : tile<ptr<f32>> -> tile<1xptr<f32>>
  %bcast_31 = broadcast %reshape_30 : tile<1xptr<f32>> -> tile<128xptr<f32>>
  %24 = offset %bcast_31, %23 : tile<128xptr<f32>>, tile<128xi64> -> tile<128xptr<f32>>
  %25 = andi %21, %18 : tile<128xi1>
  %26 = store_ptr_tko weak %24, %17, %25 token=%16 : tile<128xptr<f32>>, tile<128xf32>, tile<128xi1> -> token
  return
}
}
