cuda_tile.module @kernels {
entry @layer_norm_fwd_Kt1_A2f32_1v4l0_2t1_3i16_p16_A1f32_1i16t1_p16_A1f32_1i16t1_p16_A2f32_1v4l0_2t1_3i16_p16_A1f32_1i16t1_p16_A1f32_1i16t1_p16_Sf32_I1024(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i32>, %arg3: tile<i32>, %arg4: tile<i32>, %arg5: tile<ptr<f32>>, %arg6: tile<i32>, %arg7: tile<i32>, %arg8: tile<ptr<f32>>, %arg9: tile<i32>, %arg10: tile<i32>, %arg11: tile<ptr<f32>>, %arg12: tile<i32>, %arg13: tile<i32>, %arg14: tile<i32>, %arg15: tile<i32>, %arg16: tile<ptr<f32>>, %arg17: tile<i32>, %arg18: tile<i32>, %arg19: tile<ptr<f32>>, %arg20: tile<i32>, %arg21: tile<i32>, %arg22: tile<f32>) optimization_hints=<default = {}> {
  %0 = make_token : token
  %assume = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %assume_0 = assume div_by<16>, %arg1 : tile<i32>
  %assume_1 = assume div_by<16>, %arg2 : tile<i32>
  %assume_2 = assume div_by<4>, %arg3 : tile<i32>
  %assume_3 = assume div_by<16>, %arg5 : tile<ptr<f32>>
  %assume_4 = assume div_by<16>, %arg6 : tile<i32>
  %assume_5 = assume div_by<16>, %arg8 : tile<ptr<f32>>
  %assume_6 = assume div_by<16>, %arg9 : tile<i32>
  %assume_7 = assume div_by<16>, %arg11 : tile<ptr<f32>>
  %assume_8 = assume div_by<16>, %arg12 : tile<i32>
  %assume_9 = assume div_by<16>, %arg13 : tile<i32>
  %assume_10 = assume div_by<4>, %arg14 : tile<i32>
  %assume_11 = assume div_by<16>, %arg16 : tile<ptr<f32>>
  %assume_12 = assume div_by<16>, %arg17 : tile<i32>
  %assume_13 = assume div_by<16>, %arg19 : tile<ptr<f32>>
  %assume_14 = assume div_by<16>, %arg20 : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %cst_1_i32_15 = constant <i32: 1> : tile<i32>
  %cst_1_i32_16 = constant <i32: 1> : tile<i32>
  %cst_1_i32_17 = constant <i32: 1> : tile<i32>
  %cst_1_i32_18 = constant <i32: 1> : tile<i32>
  %cst_1_i32_19 = constant <i32: 1> : tile<i32>
  %cst_2_i32 = constant <i32: 2> : tile<1x1024xi32>
  %assume_assume = assume bounded<0, ?>, %assume_0 : tile<i32>
  %assume_assume_assume = assume div_by<16>, %assume_assume : tile<i32>
  %assume_assume_20 = assume bounded<0, ?>, %assume_1 : tile<i32>
  %assume_assume_assume_21 = assume div_by<16>, %assume_assume_20 : tile<i32>
  %assume_assume_22 = assume bounded<0, ?>, %assume_2 : tile<i32>
  %assume_assume_assume_23 = assume div_by<4>, %assume_assume_22 : tile<i32>
  %tview = make_tensor_view %assume, shape = [%assume_assume_assume, %assume_assume_assume_21], strides = [%assume_assume_assume_23, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_assume_24 = assume bounded<0, ?>, %assume_4 : tile<i32>
  %assume_assume_assume_25 = assume div_by<16>, %assume_assume_24 : tile<i32>
  %tview_26 = make_tensor_view %assume_3, shape = [%assume_assume_assume_25], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_assume_27 = assume bounded<0, ?>, %assume_6 : tile<i32>
  %assume_assume_assume_28 = assume div_by<16>, %assume_assume_27 : tile<i32>
  %tview_29 = make_tensor_view %assume_5, shape = [%assume_assume_assume_28], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_assume_30 = assume bounded<0, ?>, %assume_8 : tile<i32>
  %assume_assume_assume_31 = assume div_by<16>, %assume_assume_30 : tile<i32>
  %assume_assume_32 = assume bounded<0, ?>, %assume_9 : tile<i32>
  %assume_assume_assume_33 = assume div_by<16>, %assume_assume_32 : tile<i32>
  %assume_assume_34 = assume bounded<0, ?>, %assume_10 : tile<i32>
  %assume_assume_assume_35 = assume div_by<4>, %assume_assume_34 : tile<i32>
  %tview_36 = make_tensor_view %assume_7, shape = [%assume_assume_assume_31, %assume_assume_assume_33], strides = [%assume_assume_assume_35, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
  %assume_assume_37 = assume bounded<0, ?>, %assume_12 : tile<i32>
  %assume_assume_assume_38 = assume div_by<16>, %assume_assume_37 : tile<i32>
  %tview_39 = make_tensor_view %assume_11, shape = [%assume_assume_assume_38], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %assume_assume_40 = assume bounded<0, ?>, %assume_14 : tile<i32>
  %assume_assume_assume_41 = assume div_by<16>, %assume_assume_40 : tile<i32>
  %tview_42 = make_tensor_view %assume_13, shape = [%assume_assume_assume_41], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %cst_1024_i32 = constant <i32: 1024> : tile<i32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  %1:2 = get_index_space_shape %pview : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>> -> tile<i32>
  %cst_0_f32 = constant <f32: 0.000000e+00> : tile<1x1024xf32>
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32_43 = constant <i32: 1> : tile<i32>
  %pview_44 = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %for = for %loopIdx in (%cst_0_i32 to %1#1, step %cst_1_i32_43) : tile<i32> iter_values(%iterArg0 = %cst_0_f32) -> (tile<1x1024xf32>) {
    %tile, %result_token = load_view_tko weak %pview_44[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %12 = addf %iterArg0, %tile  : tile<1x1024xf32>
    continue %12 : tile<1x1024xf32>
  }
  %reduce = reduce %for dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %12 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %12 : tile<f32>
  }
  %2 = itof %assume_assume_assume_21 signed  : tile<i32> -> tile<f32>
  %reshape = reshape %2 : tile<f32> -> tile<1xf32>
  %3 = divf %reduce, %reshape  : tile<1xf32>
  %pview_45 = make_partition_view %tview_39 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %4 = store_view_tko weak %3, %pview_45[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  %cst_0_f32_46 = constant <f32: 0.000000e+00> : tile<1x1024xf32>
  %cst_0_i32_47 = constant <i32: 0> : tile<i32>
  %cst_1_i32_48 = constant <i32: 1> : tile<i32>
  %pview_49 = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %5 = iota : tile<1024xi32>
  %reshape_50 = reshape %assume_assume_assume_21 : tile<i32> -> tile<1xi32>
  %bcast = broadcast %reshape_50 : tile<1xi32> -> tile<1024xi32>
  %reshape_51 = reshape %3 : tile<1xf32> -> tile<1x1xf32>
  %bcast_52 = broadcast %reshape_51 : tile<1x1xf32> -> tile<1x1024xf32>
  %cst_0_f32_53 = constant <f32: 0.000000e+00> : tile<f32>
  %reshape_54 = reshape %cst_0_f32_53 : tile<f32> -> tile<1x1xf32>
  %bcast_55 = broadcast %reshape_54 : tile<1x1xf32> -> tile<1x1024xf32>
  %for_56 = for %loopIdx in (%cst_0_i32_47 to %1#1, step %cst_1_i32_48) : tile<i32> iter_values(%iterArg0 = %cst_0_f32_46) -> (tile<1x1024xf32>) {
    %tile, %result_token = load_view_tko weak %pview_49[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %12 = muli %loopIdx, %cst_1024_i32 : tile<i32>
    %reshape_72 = reshape %12 : tile<i32> -> tile<1xi32>
    %bcast_73 = broadcast %reshape_72 : tile<1xi32> -> tile<1024xi32>
    %13 = addi %bcast_73, %5 : tile<1024xi32>
    %14 = cmpi less_than %13, %bcast, signed : tile<1024xi32> -> tile<1024xi1>
    %15 = subf %tile, %bcast_52  : tile<1x1024xf32>
    %reshape_74 = reshape %14 : tile<1024xi1> -> tile<1x1024xi1>
    %16 = select %reshape_74, %15, %bcast_55 : tile<1x1024xi1>, tile<1x1024xf32>
    %17 = fpowi %16, %cst_2_i32 : tile<1x1024xf32>, tile<1x1024xi32>
    %18 = addf %iterArg0, %17  : tile<1x1024xf32>
    continue %18 : tile<1x1024xf32>
  }
  %reduce_57 = reduce %for_56 dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32> 
  (%reduce_lhs: tile<f32>, %reduce_rhs: tile<f32>) {
    %12 = addf %reduce_lhs, %reduce_rhs  : tile<f32>
    yield %12 : tile<f32>
  }
  %6 = itof %assume_assume_assume_21 signed  : tile<i32> -> tile<f32>
  %reshape_58 = reshape %6 : tile<f32> -> tile<1xf32>
  %7 = divf %reduce_57, %reshape_58  : tile<1xf32>
  %reshape_59 = reshape %arg22 : tile<f32> -> tile<1xf32>
  %8 = addf %7, %reshape_59  : tile<1xf32>
  %9 = sqrt %8  : tile<1xf32>
  %cst_1_f32 = constant <f32: 1.000000e+00> : tile<f32>
  %reshape_60 = reshape %cst_1_f32 : tile<f32> -> tile<1xf32>
  %10 = divf %reshape_60, %9  : tile<1xf32>
  %pview_61 = make_partition_view %tview_42 : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
  %11 = store_view_tko weak %10, %pview_61[%blockId_x] token = %0 : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  %cst_0_i32_62 = constant <i32: 0> : tile<i32>
  %cst_1_i32_63 = constant <i32: 1> : tile<i32>
  %pview_64 = make_partition_view %tview_26 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %pview_65 = make_partition_view %tview_29 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %pview_66 = make_partition_view %tview : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
  %reshape_67 = reshape %3 : tile<1xf32> -> tile<1x1xf32>
  %bcast_68 = broadcast %reshape_67 : tile<1x1xf32> -> tile<1x1024xf32>
  %reshape_69 = reshape %10 : tile<1xf32> -> tile<1x1xf32>
  %bcast_70 = broadcast %reshape_69 : tile<1x1xf32> -> tile<1x1024xf32>
  %pview_71 = make_partition_view %tview_36 : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
  for %loopIdx in (%cst_0_i32_62 to %1#1, step %cst_1_i32_63) : tile<i32> {
    %tile, %result_token = load_view_tko weak %pview_64[%loopIdx] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %tile_72, %result_token_73 = load_view_tko weak %pview_65[%loopIdx] token = %0 : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %tile_74, %result_token_75 = load_view_tko weak %pview_66[%blockId_x, %loopIdx] token = %0 : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %12 = subf %tile_74, %bcast_68  : tile<1x1024xf32>
    %13 = mulf %12, %bcast_70  : tile<1x1024xf32>
    %reshape_76 = reshape %tile : tile<1024xf32> -> tile<1x1024xf32>
    %reshape_77 = reshape %tile_72 : tile<1024xf32> -> tile<1x1024xf32>
    %14 = fma %13, %reshape_76, %reshape_77  : tile<1x1024xf32>
    %15 = store_view_tko weak %14, %pview_71[%blockId_x, %loopIdx] token = %0 : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
  }
  return
}
}
