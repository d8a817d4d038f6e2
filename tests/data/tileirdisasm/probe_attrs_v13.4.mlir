global  @g_plain <f32: [1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]> : tile<4xf32>
global  @g_aligned alignment = 128 <f32: [1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]> : tile<4xf32>
global  constant @g_const <f32: [1.000000e-01, 2.000000e-01, 3.000000e-01, 4.000000e-01]> : tile<4xf32>
global private  @g_private <i32: 42> : tile<1xi32>
entry @attrs_probe(%arg0: tile<ptr<f32>>, %arg1: tile<i32>) optimization_hints=<default = {num_cta_in_cga = 2, num_worker_warps_per_cta = 8, occupancy = 4}, sm_90 = {occupancy = 1}> {
  %0 = iota : tile<16xi32>
  %assume = assume div_by<8, every 4 along 0>, %0 : tile<16xi32>
  %assume_0 = assume div_by<8>, %arg1 : tile<i32>
  %assume_1 = assume bounded<?, 100>, %arg1 : tile<i32>
  %assume_2 = assume bounded<-5, 7>, %arg1 : tile<i32>
  %1 = make_token : token
  %tview = make_tensor_view %arg0, shape = [%arg1], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %pview = make_partition_view %tview : partition_view<tile=(16), padding_value = neg_inf, tensor_view<?xf32, strides=[1]>>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %tile, %result_token = load_view_tko weak %pview[%cst_0_i32] inbounds = [true] : partition_view<tile=(16), padding_value = neg_inf, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
  %tile_3, %result_token_4 = load_view_tko acquire device %pview[%cst_0_i32] token = %1 optimization_hints = <default = {allow_tma = false, latency = 3}> : partition_view<tile=(16), padding_value = neg_inf, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
  %2 = addf %tile, %tile_3  flush_to_zero : tile<16xf32>
  %3 = addf %2, %tile_3 rounding<positive_inf> : tile<16xf32>
  %4 = mulf %3, %tile_3 rounding<zero> flush_to_zero : tile<16xf32>
  %5 = ftoi %4 signed  saturating : tile<16xf32> -> tile<16xi32>
  %6 = ftoi %4 unsigned  : tile<16xf32> -> tile<16xi32>
  %7 = addi %5, %5 overflow<no_signed_wrap> : tile<16xi32>
  %8 = addi %5, %5 overflow<no_wrap> : tile<16xi32>
  %9 = negi %5 overflow<no_signed_wrap> : tile<16xi32>
  %10 = maxf %4, %tile flush_to_zero propagate_nan : tile<16xf32>
  %11 = exp %4 rounding<approx> : tile<16xf32>
  %12 = tanh %4 rounding<approx> : tile<16xf32>
  %13 = store_view_tko release sys %4, %pview[%cst_0_i32] token = %result_token_4 optimization_hints = <default = {allow_tma = false, latency = 3}> : tile<16xf32>, partition_view<tile=(16), padding_value = neg_inf, tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  %14 = get_global @g_aligned : tile<ptr<f32>>
  return
}
