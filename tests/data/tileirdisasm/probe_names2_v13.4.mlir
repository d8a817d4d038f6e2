entry @k(%arg0: tile<i32>, %arg1: tile<i1>) {
  %cst_0_i32 = constant <i32: 0> : tile<i32>
  %cst_1_i32 = constant <i32: 1> : tile<i32>
  %for:2 = for %loopIdx in (%cst_0_i32 to %arg0, step %cst_1_i32) : tile<i32> iter_values(%iterArg0 = %cst_0_i32, %iterArg1 = %cst_1_i32) -> (tile<i32>, tile<i32>) {
    continue %iterArg0, %iterArg1 : tile<i32>, tile<i32>
  }
  %0 = if %arg1 -> (tile<i32>) {
    yield %cst_0_i32 : tile<i32>
  } else {
    yield %cst_1_i32 : tile<i32>
  }
  %1 = iota : tile<8xi32>
  %assume_for = assume bounded<0, ?>, %for#0 : tile<i32>
  %assume_ = assume bounded<0, ?>, %for#1 : tile<i32>
  %assume__0 = assume bounded<0, ?>, %0 : tile<i32>
  %assume__1 = assume bounded<0, ?>, %0 : tile<i32>
  %assume = assume bounded<0, ?>, %1 : tile<8xi32>
  %reshape = reshape %1 : tile<8xi32> -> tile<1x8xi32>
  %assume_reshape = assume bounded<0, ?>, %reshape : tile<1x8xi32>
  %blockId_x, %blockId_y, %blockId_z = get_tile_block_id : tile<i32>
  %assume_blockId_y = assume bounded<0, ?>, %blockId_y : tile<i32>
  %assume_blockId_y_2 = assume bounded<0, ?>, %blockId_y : tile<i32>
  return
}
