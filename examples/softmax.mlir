// Row softmax of an M x N f32 matrix (N <= 1024): one tile block per row.  Columns past N
// are padded with -inf on load (exp(-inf) = 0, so they do not contribute) and masked on store.
cuda_tile.module @softmax {
  entry @softmax(%x: tile<ptr<f32>>, %y: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %ldx: tile<i32>, %ldy: tile<i32>) {
    %tx = make_tensor_view %x, shape = [%m, %n], strides = [%ldx, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ty = make_tensor_view %y, shape = [%m, %n], strides = [%ldy, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %px = make_partition_view %tx : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>
    %py = make_partition_view %ty : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
    %row, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %t, %tok = load_view_tko weak %px[%row, %c0] : partition_view<tile=(1x1024), padding_value = neg_inf, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %mx = reduce %t dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> -> tile<1xf32>
      (%a: tile<f32>, %b: tile<f32>) {
        %r = maxf %a, %b : tile<f32>
        yield %r : tile<f32>
      }
    %mx2 = reshape %mx : tile<1xf32> -> tile<1x1xf32>
    %mxb = broadcast %mx2 : tile<1x1xf32> -> tile<1x1024xf32>
    %d = subf %t, %mxb : tile<1x1024xf32>
    %e = exp %d : tile<1x1024xf32>
    %s = reduce %e dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32>
      (%a: tile<f32>, %b: tile<f32>) {
        %r = addf %a, %b : tile<f32>
        yield %r : tile<f32>
      }
    %s2 = reshape %s : tile<1xf32> -> tile<1x1xf32>
    %sb = broadcast %s2 : tile<1x1xf32> -> tile<1x1024xf32>
    %out = divf %e, %sb : tile<1x1024xf32>
    %tok2 = store_view_tko weak %out, %py[%row, %c0] : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    return
  }
}
