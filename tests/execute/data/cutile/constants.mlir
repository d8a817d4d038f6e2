cuda_tile.module @kernels {
entry @constants_kernel_Kt1_A1f32_1l0_I16(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_0 = assume bounded<0, ?>, %arg2 : tile<i32>
  %tview = make_tensor_view %arg0, shape = [%assume], strides = [%assume_0] : tile<i32> -> tensor_view<?xf32, strides=[?]>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<16xf32>
  %cst_f32 = constant <f32: 1.000000e-01> : tile<16xf32>
  %1 = addf %cst_1_f32, %cst_f32  : tile<16xf32>
  %cst_f32_1 = constant <f32: 0xFF800000> : tile<16xf32>
  %cst_NaN_f32 = constant <f32: 0x7FC00000> : tile<16xf32>
  %2 = addf %cst_f32_1, %cst_NaN_f32  : tile<16xf32>
  %cst_f32_2 = constant <f32: -0.000000e+00> : tile<16xf32>
  %cst_f32_3 = constant <f32: 9.999940e-41> : tile<16xf32>
  %3 = addf %cst_f32_2, %cst_f32_3  : tile<16xf32>
  %cst_f32_4 = constant <f32: 3.000000e+38> : tile<16xf32>
  %cst_f16 = constant <f16: 2.500000e+00> : tile<16xf16>
  %4 = ftof %cst_f16  : tile<16xf16> -> tile<16xf32>
  %5 = addf %cst_f32_4, %4  : tile<16xf32>
  %cst_bf16 = constant <bf16: 3.007810e-01> : tile<16xbf16>
  %6 = ftof %cst_bf16  : tile<16xbf16> -> tile<16xf32>
  %cst_f64 = constant <f64: 7.250000e+00> : tile<16xf64>
  %7 = ftof %cst_f64  : tile<16xf64> -> tile<16xf32>
  %8 = addf %6, %7  : tile<16xf32>
  %9 = iota : tile<16xi64>
  %10 = itof %9 signed  : tile<16xi64> -> tile<16xf32>
  %cst_-5_i8 = constant <i8: -5> : tile<16xi8>
  %11 = itof %cst_-5_i8 signed  : tile<16xi8> -> tile<16xf32>
  %12 = addf %10, %11  : tile<16xf32>
  %13 = addf %1, %2  : tile<16xf32>
  %14 = addf %13, %3  : tile<16xf32>
  %15 = addf %14, %5  : tile<16xf32>
  %16 = addf %15, %8  : tile<16xf32>
  %17 = addf %16, %12  : tile<16xf32>
  %pview = make_partition_view %tview : partition_view<tile=(16), tensor_view<?xf32, strides=[?]>>
  %18 = store_view_tko weak %17, %pview[%blockId_x] token = %0 : tile<16xf32>, partition_view<tile=(16), tensor_view<?xf32, strides=[?]>>, tile<i32> -> token
  return
}
}
