// Row-wise inclusive prefix sum (cumsum) of an R x C f32 matrix with C <= 1024: one tile block
// per row, a `scan` along dimension 1 whose body is an addf.
cuda_tile.module @cumsum {
  entry @cumsum(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %rows: tile<i32>, %cols: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ty = make_tensor_view %y, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %px = make_partition_view %tx : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %py = make_partition_view %ty : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
    %row, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %t, %tok = load_view_tko weak %px[%row, %c0] : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %s = scan %t dim=1 reverse=false identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1x1024xf32>
      (%cur: tile<f32>, %acc: tile<f32>) {
        %r = addf %cur, %acc : tile<f32>
        yield %r : tile<f32>
      }
    %tok2 = store_view_tko weak %s, %py[%row, %c0] : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
