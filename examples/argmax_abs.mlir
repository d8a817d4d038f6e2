// A custom two-operand reduce: for each row, the largest |x| and the index where it occurs
// (the first one on ties).  The combiner region compares values and breaks ties by index.
cuda_tile.module @argmax_abs {
  entry @argmax_abs(%x: tile<ptr<f32>>, %vmax: tile<ptr<f32>>, %imax: tile<ptr<i32>>, %rows: tile<i32>, %cols: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tv = make_tensor_view %vmax, shape = [%rows], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %ti = make_tensor_view %imax, shape = [%rows], strides = [1] : tile<i32> -> tensor_view<?xi32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %pv = make_partition_view %tv : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
    %pi = make_partition_view %ti : partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>
    %row, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %t, %tok = load_view_tko weak %px[%row, %c0] : partition_view<tile=(1x256), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x256xf32>, token
    %a = absf %t : tile<1x256xf32>
    %idx = iota : tile<256xi32>
    %idx2 = reshape %idx : tile<256xi32> -> tile<1x256xi32>
    %r:2 = reduce %a, %idx2 dim=1 identities=[0.000000e+00 : f32, 0 : i32] : tile<1x256xf32>, tile<1x256xi32> -> tile<1xf32>, tile<1xi32>
      (%v0: tile<f32>, %v1: tile<f32>, %i0: tile<i32>, %i1: tile<i32>) {
        %gt = cmpf greater_than ordered %v0, %v1 : tile<f32> -> tile<i1>
        %eq = cmpf equal ordered %v0, %v1 : tile<f32> -> tile<i1>
        %lt = cmpi less_than %i0, %i1, signed : tile<i32> -> tile<i1>
        %tie = andi %eq, %lt : tile<i1>
        %take = ori %gt, %tie : tile<i1>
        %v = select %take, %v0, %v1 : tile<i1>, tile<f32>
        %i = select %take, %i0, %i1 : tile<i1>, tile<i32>
        yield %v, %i : tile<f32>, tile<i32>
      }
    %t1 = store_view_tko weak %r#0, %pv[%row] : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %t2 = store_view_tko weak %r#1, %pi[%row] : tile<1xi32>, partition_view<tile=(1), tensor_view<?xi32, strides=[1]>>, tile<i32> -> token
    return
  }
}
