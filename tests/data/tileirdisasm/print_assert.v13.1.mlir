global  @print_mutex <i32: 1> : tile<1xi32>
entry @print_assert_kernel_Kt1_A1f32_1l0_I8(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>) optimization_hints=<sm_100 = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(8), tensor_view<?xf32, strides=[?]>>
  %tile, %result_token = load_view_tko weak %pview[%blockId_x] token = %0 : partition_view<tile=(8), tensor_view<?xf32, strides=[?]>>, tile<i32> -> tile<8xf32>, token
  %1 = join_tokens %0, %result_token : token
  %2 = join_tokens %0, %1 : token
  %3 = get_global @print_mutex : tile<ptr<i32>>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  loop {
    %result_6, %result_token_7 = atomic_cas_tko acq_rel device %3, %cst_1_i32, %cst_0_i32 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %11 = cmpi equal %result_6, %cst_1_i32, unsigned : tile<i32> -> tile<i1>
    if %11 {
      break
    } else {
    }
  }
  %4 = print_tko "bid=%d first=%f\0A", %blockId_x, %tile : tile<i32>, tile<8xf32> -> token
  %5 = make_token : token
  %result, %result_token_1 = atomic_rmw_tko acq_rel device %3, xchg, %cst_1_i32 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
  %reduce = reduce %tile dim=0 identities=[0.000000e+00 : f32] : tile<8xf32> -> tile<f32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %11 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %11 : tile<f32>
  }
  %6 = join_tokens %5, %1 : token
  %7 = get_global @print_mutex : tile<ptr<i32>>
  %cst_0_i32_2 = constant <i32: 0> : tile<i32>
  %cst_1_i32_3 = constant <i32: 1> : tile<i32>
  loop {
    %result_6, %result_token_7 = atomic_cas_tko acq_rel device %7, %cst_1_i32_3, %cst_0_i32_2 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
    %11 = cmpi equal %result_6, %cst_1_i32_3, unsigned : tile<i32> -> tile<i1>
    if %11 {
      break
    } else {
    }
  }
  %8 = print_tko "sum=%f\0A", %reduce : tile<f32> -> token
  %9 = make_token : token
  %result_4, %result_token_5 = atomic_rmw_tko acq_rel device %7, xchg, %cst_1_i32_3 : tile<ptr<i32>>, tile<i32> -> tile<i32>, token
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape = reshape %cst_0_f32 : tile<f32> -> tile<1xf32>
  %bcast = broadcast %reshape : tile<1xf32> -> tile<8xf32>
  %10 = cmpf greater_than_or_equal ordered %tile, %bcast : tile<8xf32> -> tile<8xi1>
  assert %10, "negative input" : tile<8xi1>
  return
}
