entry @names_probe(%arg0: tile<ptr<f32>>, %arg1: tile<i32>, %arg2: tile<i1>) {
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %gridSize_x, %gridSize_y, %gridSize_z = get_num_tile_blocks : tile<i32>
  %assume = assume bounded<0, ?>, %arg1 : tile<i32>
  %assume_assume = assume div_by<16>, %assume : tile<i32>
  %assume_blockId_x = assume bounded<0, 1024>, %blockId_x : tile<i32>
  %assume_gridSize_y = assume bounded<1, ?>, %gridSize_y : tile<i32>
  %cst_16_i32 = constant <i32: 16> : tile<i32>
  %assume_cst_16_i32 = assume div_by<16>, %cst_16_i32 : tile<i32>
  %0 = addi %assume_assume, %assume_blockId_x : tile<i32>
  %assume_0 = assume div_by<4>, %0 : tile<i32>
  %assume_1 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %cst_42_i32 = constant <i32: 42> : tile<i32>
  %cst_42_i32_2 = constant <i32: 42> : tile<i32>
  %cst_-1_i32 = constant <i32: -1> : tile<i32>
  %cst_i32 = constant <i32: [1, 2, 3, 4]> : tile<4xi32>
  %cst_7_i32 = constant <i32: 7> : tile<4xi32>
  %cst_9_i32 = constant <i32: 9> : tile<1xi32>
  %true = constant <i1: true> : tile<i1>
  %false = constant <i1: false> : tile<i1>
  %cst_i1 = constant <i1: [true, false, true, false]> : tile<4xi1>
  %cst_1099511627776_i64 = constant <i64: 1099511627776> : tile<i64>
  %cst_-5_i8 = constant <i8: -5> : tile<i8>
  %tview = make_tensor_view %assume_1, shape = [%assume_assume, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
  %1:2 = get_tensor_shape %tview : tensor_view<?x64xf32, strides=[64,1]> -> tile<i32>
  %pview = make_partition_view %tview : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>>
  %2:2 = get_index_space_shape %pview : partition_view<tile=(16x16), tensor_view<?x64xf32, strides=[64,1]>> -> tile<i32>
  %3 = addi %1#0, %2#1 : tile<i32>
  %4:2 = if %arg2 -> (tile<i32>, tile<i32>) {
    %cst_1_i32_3 = constant <i32: 1> : tile<i32>
    yield %cst_1_i32_3, %blockId_x : tile<i32>, tile<i32>
  } else {
    %cst_1_i32_3 = constant <i32: 1> : tile<i32>
    yield %blockId_y, %cst_1_i32_3 : tile<i32>, tile<i32>
  }
  if %arg2 {
  } else {
  }
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  for %loopIdx in (%cst_0_i32 to %arg1, step %cst_1_i32) : tile<i32> {
    %assume_3 = assume bounded<0, ?>, %loopIdx : tile<i32>
  }
  %for = for %loopIdx in (%cst_0_i32 to %arg1, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %4#0) -> (tile<i32>) {
    %8 = addi %iterArg0, %loopIdx : tile<i32>
    %for_3:2 = for %loopIdx_4 in (%cst_0_i32 to %arg1, step %cst_1_i32) : tile<i32> iter_values(%iterArg0_5 = %8, %iterArg1 = %loopIdx) -> (tile<i32>, tile<i32>) {
      %9 = addi %iterArg0_5, %loopIdx_4 : tile<i32>
      continue %9, %iterArg1 : tile<i32>, tile<i32>
    }
    continue %for_3#0 : tile<i32>
  }
  %5 = loop iter_values(%arg3 = %for) : tile<i32> -> tile<i32> {
    %8 = cmpi greater_than %arg3, %arg1, signed : tile<i32> -> tile<i1>
    if %8 {
      break %arg3 : tile<i32>
    } else {
    }
    %cst_1_i32_3 = constant <i32: 1> : tile<i32>
    %9 = addi %arg3, %cst_1_i32_3 : tile<i32>
    continue %9 : tile<i32>
  }
  %6 = addi %assume_gridSize_y, %assume_cst_16_i32 : tile<i32>
  %7 = addi %assume_0, %gridSize_x : tile<i32>
  return
}
entry @second_entry() {
  return
}
