cuda_tile.module @kernels {
entry @atomics_kernel_Kt1_A1i32_1l0_A1i32_1l0_A1i32_1l0_A1i32_1l0_I64(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<ptr<i32>>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<ptr<i32>>, %arg7: tile<i32>, %arg8: tile<i32>, %arg9: tile<ptr<i32>>, %arg10: tile<i32>, %arg11: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %cst_16_i32 = constant <i32: 16> : tile<64xi32>
  %cst_1_i32 = constant <i32: 1> : tile<64xi32>
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %assume_1 = assume bounded<0, ?>, %arg4 : tile<i32>
  %assume_2 = assume bounded<0, ?>, %arg5 : tile<i32>
  %assume_3 = assume bounded<0, ?>, %arg7 : tile<i32>
  %assume_4 = assume bounded<0, ?>, %arg8 : tile<i32>
  %assume_5 = assume bounded<0, ?>, %arg10 : tile<i32>
  %assume_6 = assume bounded<0, ?>, %arg11 : tile<i32>
  %tview = make_tensor_view %arg9, shape = [%assume_5], strides = [%assume_6] : tile<i32> -> tensor_view<?xi32, strides=[?]>
  %cst_64_i32 = constant <i32: 64> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(64), tensor_view<?xi32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(64), tensor_view<?xi32, strides=[?]>>, tile<i32> -> tile<64xi32>, token
  %1 = join_tokens %0, %result_token : token
  %2 = remi %tile, %cst_16_i32 signed : tile<64xi32>
  %cst_0_i32 = constant <i32: 0> : tile<64xi32>
  %3 = cmpi less_than %2, %cst_0_i32, signed : tile<64xi32> -> tile<64xi1>
  %4 = cmpi less_than %cst_16_i32, %cst_0_i32, signed : tile<64xi32> -> tile<64xi1>
  %5 = xori %3, %4 : tile<64xi1>
  %6 = cmpi not_equal %2, %cst_0_i32, signed : tile<64xi32> -> tile<64xi1>
  %7 = andi %5, %6 : tile<64xi1>
  %8 = addi %2, %cst_16_i32 : tile<64xi32>
  %9 = select %7, %8, %2 : tile<64xi1>, tile<64xi32>
  %10 = exti %9 signed : tile<64xi32> -> tile<64xi64>
  %11 = exti %assume_1 signed : tile<i32> -> tile<i64>
  %reshape = reshape %11 : tile<i64> -> tile<1xi64>
  %bcast = broadcast %reshape : tile<1xi64> -> tile<64xi64>
  %12 = cmpi less_than %10, %bcast, unsigned : tile<64xi64> -> tile<64xi1>
  %13 = exti %assume_2 signed : tile<i32> -> tile<i64>
  %reshape_7 = reshape %13 : tile<i64> -> tile<1xi64>
  %bcast_8 = broadcast %reshape_7 : tile<1xi64> -> tile<64xi64>
  %14 = muli %10, %bcast_8 : tile<64xi64>
  %reshape_9 = reshape %arg3 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %bcast_10 = broadcast %reshape_9 : tile<1xptr<i32>> -> tile<64xptr<i32>>
  %15 = offset %bcast_10, %14 : tile<64xptr<i32>>, tile<64xi64> -> tile<64xptr<i32>>
  %16 = join_tokens %0, %1 : token
  %result, %result_token_11 = atomic_rmw_tko acq_rel device %15, add, %cst_1_i32, %12 token=%16 : tile<64xptr<i32>>, tile<64xi32>, tile<64xi1> -> tile<64xi32>, token
  %cst_1_i64 = constant <i64: 1> : tile<i64>
  %17 = exti %assume signed : tile<i32> -> tile<i64>
  %18 = cmpi less_than %cst_1_i64, %17, unsigned : tile<i64> -> tile<i1>
  %19 = exti %assume_0 signed : tile<i32> -> tile<i64>
  %20 = muli %cst_1_i64, %19 : tile<i64>
  %21 = offset %arg0, %20 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %22 = join_tokens %0, %1, %result_token_11 : token
  %result_12, %result_token_13 = atomic_rmw_tko acq_rel device %21, max, %blockId_x, %18 token=%22 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  %cst_0_i64 = constant <i64: 0> : tile<i64>
  %23 = exti %assume signed : tile<i32> -> tile<i64>
  %24 = cmpi less_than %cst_0_i64, %23, unsigned : tile<i64> -> tile<i1>
  %25 = exti %assume_0 signed : tile<i32> -> tile<i64>
  %26 = muli %cst_0_i64, %25 : tile<i64>
  %27 = offset %arg0, %26 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %result_14, %result_token_15 = atomic_rmw_tko relaxed device %27, add, %cst_64_i32, %24 token=%result_token_13 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  %cst_0_i32_16 = constant <i32: 0> : tile<i32>
  %cst_1_i32_17 = constant <i32: 1> : tile<i32>
  %cst_0_i64_18 = constant <i64: 0> : tile<i64>
  %28 = exti %assume_3 signed : tile<i32> -> tile<i64>
  %29 = cmpi less_than %cst_0_i64_18, %28, unsigned : tile<i64> -> tile<i1>
  %30 = exti %assume_4 signed : tile<i32> -> tile<i64>
  %31 = muli %cst_0_i64_18, %30 : tile<i64>
  %32 = offset %arg6, %31 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %cst_1_i32_19 = constant <i32: 1> : tile<i32>
  %33:2 = loop iter_values(%arg12 = %0, %arg13 = %result_token_13) : token, token -> token, token {
    %47 = join_tokens %arg12, %arg13 : token
    %result_24, %result_token_25 = atomic_cas_tko acquire device %32, %cst_0_i32_16, %cst_1_i32_17, %29 token=%47 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
    %48 = cmpi equal %result_24, %cst_1_i32_19, signed : tile<i32> -> tile<i1>
    if %48 {
    } else {
      break %result_token_25, %result_token_25 : token, token
    }
    continue %result_token_25, %result_token_25 : token, token
  }
  %cst_2_i64 = constant <i64: 2> : tile<i64>
  %34 = exti %assume signed : tile<i32> -> tile<i64>
  %35 = cmpi less_than %cst_2_i64, %34, unsigned : tile<i64> -> tile<i1>
  %36 = exti %assume_0 signed : tile<i32> -> tile<i64>
  %37 = muli %cst_2_i64, %36 : tile<i64>
  %38 = offset %arg0, %37 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %39 = join_tokens %result_token_15, %33#1 : token
  %40 = store_ptr_tko weak %38, %result_14, %35 token=%39 : tile<ptr<i32>>, tile<i32>, tile<i1> -> token
  %cst_0_i32_20 = constant <i32: 0> : tile<i32>
  %cst_0_i64_21 = constant <i64: 0> : tile<i64>
  %41 = exti %assume_3 signed : tile<i32> -> tile<i64>
  %42 = cmpi less_than %cst_0_i64_21, %41, unsigned : tile<i64> -> tile<i1>
  %43 = exti %assume_4 signed : tile<i32> -> tile<i64>
  %44 = muli %cst_0_i64_21, %43 : tile<i64>
  %45 = offset %arg6, %44 : tile<ptr<i32>>, tile<i64> -> tile<ptr<i32>>
  %46 = join_tokens %33#0, %1, %result_token_11, %33#1, %40 : token
  %result_22, %result_token_23 = atomic_rmw_tko release device %45, xchg, %cst_0_i32_20, %42 token=%46 : tile<ptr<i32>>, tile<i32>, tile<i1> -> tile<i32>, token
  return
}
}
