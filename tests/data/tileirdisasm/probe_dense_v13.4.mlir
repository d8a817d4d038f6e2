entry @dense() {
  %cst_i32 = constant <i32: [[1, -2, 3, 4], [5, 6, 7, 8]]> : tile<2x4xi32>
  %cst_f32 = constant <f32: [[5.000000e-01, 0x7FC00000], [-0.000000e+00, 1.000000e-03]]> : tile<2x2xf32>
  %cst_i1 = constant <i1: [[true, false, false, false], [true, true, false, true]]> : tile<2x4xi1>
  %cst_f16 = constant <f16: [1.000000e+00, 6.550400e+04]> : tile<2xf16>
  %cst_-7_i64 = constant <i64: -7> : tile<1x1xi64>
  %cst_2_f32 = constant <f32: 2.000000e+00> : tile<1xf32>
  return
}
