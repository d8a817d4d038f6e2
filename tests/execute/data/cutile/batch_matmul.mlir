cuda_tile.module @kernels {
entry @batch_matmul_kernel_Kt1_A3f16_3v8l0_4t1_7i16_p16_A3f16_3v8l0_4t1_7i16_p16_A3f32_3v4l0_4t1_7i16_p16_I64_I64_I32(%arg0: tile<ptr<f16>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<i32>, %arg6: tile<i32>, %arg7: tile<ptr<f16>>, %arg8: tile<i32>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<i32>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<ptr<f32>>, %arg15: tile<i32>, %arg16: tile<i32>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<i32>, %arg20: tile<i32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f16>>
  %assume_0 = assume div_by<16>, %arg1 : tile<i32>
  %assume_1 = assume div_by<16>, %arg2 : tile<i32>
  %assume_2 = assume div_by<16>, %arg3 : tile<i32>
  %assume_3 = assume div_by<8>, %arg4 : tile<i32>
  %assume_4 = assume div_by<8>, %arg5 : tile<i32>
  %assume_5 = assume div_by<16>, %arg7 : tile<ptr<f16>>
  %assume_6 = assume div_by<16>, %arg8 : tile<i32>
  %assume_7 = assume div_by<16>, %arg9 : tile<i32>
  %assume_8 = assume div_by<16>, %arg10 : tile<i32>
  %assume_9 = assume div_by<8>, %arg11 : tile<i32>
  %assume_10 = assume div_by<8>, %arg12 : tile<i32>
  %assume_11 = assume div_by<16>, %arg14 : tile<ptr<f32>>
  %assume_12 = assume div_by<16>, %arg15 : tile<i32>
  %assume_13 = assume div_by<16>, %arg16 : tile<i32>
  %assume_14 = assume div_by<16>, %arg17 : tile<i32>
  %assume_15 = assume div_by<4>, %arg18 : tile<i32>
  %assume_16 = assume div_by<4>, %arg19 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_17 = constant <i32: 1> : tile<i32>
  %cst_1_i32_18 = constant <i32: 1> : tile<i32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<16>, %assume_assume : tile<i32>
  %assume_assume_19 = assume bounded<0, ?>, %assume_1 : tile<i32>
  %assume_assume_assume_20 = assume div_by<16>, %assume_assume_19 : tile<i32>
  %assume_assume_21 = assume bounded<0, ?>, %assume_2 : tile<i32>
  %assume_assume_assume_22 = assume div_by<16>, %assume_assume_21 : tile<i32>
  %assume_assume_23 = assume bounded<0, ?>, %assume_3 : tile<i32>
  %assume_assume_assume_24 = assume div_by<8>, %assume_assume_23 : tile<i32>
  %assume_assume_25 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_26 = assume div_by<8>, %assume_assume_25 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_assume_assume, %assume_assume_assume_20, %assume_assume_assume_22], strides = [%assume_assume_assume_24, %assume_assume_assume_26, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_assume_27 = assume bounded<0, ?>, %assume_6 : tile<i32>
  %assume_assume_assume_28 = assume div_by<16>, %assume_assume_27 : tile<i32>
  %assume_assume_29 = assume bounded<0, ?>, %assume_7 : tile<i32>
  %assume_assume_assume_30 = assume div_by<16>, %assume_assume_29 : tile<i32>
  %assume_assume_31 = assume bounded<0, ?>, %assume_8 : tile<i32>
  %assume_assume_assume_32 = assume div_by<16>, %assume_assume_31 : tile<i32>
  %assume_assume_33 = assume bounded<0, ?>, %assume_9 : tile<i32>
  %assume_assume_assume_34 = assume div_by<8>, %assume_assume_33 : tile<i32>
  %assume_assume_35 = assume bounded<0, ?>, %assume_10 : tile<i32>
  %assume_assume_assume_36 = assume div_by<8>, %assume_assume_35 : tile<i32>
  %tview_37 = make_tensor_view %assume_5, shape = [%assume_assume_assume_28, %assume_assume_assume_30, %assume_assume_assume_32], strides = [%assume_assume_assume_34, %assume_assume_assume_36, 1] : tile<i32> -> tensor_view<?x?x?xf16, strides=[?,?,1]>
  %assume_assume_38 = assume bounded<0, ?>, %assume_12 : tile<i32>
  %assume_assume_assume_39 = assume div_by<16>, %assume_assume_38 : tile<i32>
  %assume_assume_40 = assume bounded<0, ?>, %assume_13 : tile<i32>
  %assume_assume_assume_41 = assume div_by<16>, %assume_assume_40 : tile<i32>
  %assume_assume_42 = assume bounded<0, ?>, %assume_14 : tile<i32>
  %assume_assume_assume_43 = assume div_by<16>, %assume_assume_42 : tile<i32>
  %assume_assume_44 = assume bounded<0, ?>, %assume_15 : tile<i32>
  %assume_assume_assume_45 = assume div_by<4>, %assume_assume_44 : tile<i32>
  %assume_assume_46 = assume bounded<0, ?>, %assume_16 : tile<i32>
  %assume_assume_assume_47 = assume div_by<4>, %assume_assume_46 : tile<i32>
  %tview_48 = make_tensor_view %assume_11, shape = [%assume_assume_assume_39, %assume_assume_assume_41, %assume_assume_assume_43], strides = [%assume_assume_assume_45, %assume_assume_assume_47, 1] : tile<i32> -> tensor_view<?x?x?xf32, strides=[?,?,1]>
  %cst_32_i32 = constant <i32: 32> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %blockId_x_49, %blockId_y_50, %blockId_z_51 = get_tile_block_id : tile<i32>
  %blockId_x_52, %blockId_y_53, %blockId_z_54 = get_tile_block_id : tile<i32>
  %1 = divi %assume_assume_assume_22, %cst_32_i32 signed rounding<positive_inf> : tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<64x64xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_55 = constant <i32: 1> : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x64x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %pview_56 = make_partition_view %tview_37 : partition_view<tile=(1x32x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1, step %cst_1_i32_55) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<64x64xf32>) {
    %tile, %result_token = load_view_tko weak %pview[%blockId_x, %blockId_y_50, %loopIdx] token = %0 : partition_view<tile=(1x64x32), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x64x32xf16>, token
    %reshape_58 = reshape %tile : tile<1x64x32xf16> -> tile<64x32xf16>
    %tile_59, %result_token_60 = load_view_tko weak %pview_56[%blockId_x, %loopIdx, %blockId_z_54] token = %0 : partition_view<tile=(1x32x64), padding_value = zero, tensor_view<?x?x?xf16, strides=[?,?,1]>>, tile<i32> -> tile<1x32x64xf16>, token
    %reshape_61 = reshape %tile_59 : tile<1x32x64xf16> -> tile<32x64xf16>
    %3 = mmaf %reshape_58, %reshape_61, %iterArg0 : tile<64x32xf16>, tile<32x64xf16>, tile<64x64xf32>
    continue %3 : tile<64x64xf32>
  }
  %reshape = reshape %for : tile<64x64xf32> -> tile<1x64x64xf32>
  %pview_57 = make_partition_view %tview_48 : partition_view<tile=(1x64x64), tensor_view<?x?x?xf32, strides=[?,?,1]>>
  %2 = store_view_tko weak %reshape, %pview_57[%blockId_x, %blockId_y_50, %blockId_z_54] token = %0 : tile<1x64x64xf32>, partition_view<tile=(1x64x64), tensor_view<?x?x?xf32, strides=[?,?,1]>>, tile<i32> -> token
  return
}
}
