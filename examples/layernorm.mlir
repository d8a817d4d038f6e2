// Layer normalization of each row of an M x N f32 matrix (N <= 1024), one tile block per row:
//   y = (x - mean) / sqrt(var + eps) * w + b,   also writing mean[row] and rstd[row].
// The row is loaded as one zero-padded 1x1024 tile; padded columns are masked out of the
// variance with an iota-based mask and masked on store.
cuda_tile.module @layernorm {
  entry @layernorm(%x: tile<ptr<f32>>, %w: tile<ptr<f32>>, %b: tile<ptr<f32>>, %y: tile<ptr<f32>>, %mean_out: tile<ptr<f32>>, %rstd_out: tile<ptr<f32>>, %m: tile<i32>, %n: tile<i32>, %eps: tile<f32>) {
    %tx = make_tensor_view %x, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %ty = make_tensor_view %y, shape = [%m, %n], strides = [%n, 1] : tile<i32> -> tensor_view<?x?xf32, strides=[?,1]>
    %tw = make_tensor_view %w, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tb = make_tensor_view %b, shape = [%n], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tm = make_tensor_view %mean_out, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %tr = make_tensor_view %rstd_out, shape = [%m], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
    %px = make_partition_view %tx : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>
    %py = make_partition_view %ty : partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>
    %pw = make_partition_view %tw : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %pb = make_partition_view %tb : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>
    %pm = make_partition_view %tm : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
    %pr = make_partition_view %tr : partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>
    %row, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %xt, %t0 = load_view_tko weak %px[%row, %c0] : partition_view<tile=(1x1024), padding_value = zero, tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> tile<1x1024xf32>, token
    %sum = reduce %xt dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32>
      (%a: tile<f32>, %c: tile<f32>) {
        %s = addf %a, %c : tile<f32>
        yield %s : tile<f32>
      }
    %nf = itof %n signed : tile<i32> -> tile<f32>
    %nf1 = reshape %nf : tile<f32> -> tile<1xf32>
    %mean = divf %sum, %nf1 : tile<1xf32>
    %mean2 = reshape %mean : tile<1xf32> -> tile<1x1xf32>
    %meanb = broadcast %mean2 : tile<1x1xf32> -> tile<1x1024xf32>
    %xc = subf %xt, %meanb : tile<1x1024xf32>
    %cols = iota : tile<1024xi32>
    %n1 = reshape %n : tile<i32> -> tile<1xi32>
    %nb = broadcast %n1 : tile<1xi32> -> tile<1024xi32>
    %valid = cmpi less_than %cols, %nb, signed : tile<1024xi32> -> tile<1024xi1>
    %valid2 = reshape %valid : tile<1024xi1> -> tile<1x1024xi1>
    %zero = constant <f32: 0.000000e+00> : tile<1x1024xf32>
    %xcm = select %valid2, %xc, %zero : tile<1x1024xi1>, tile<1x1024xf32>
    %sq = mulf %xcm, %xcm : tile<1x1024xf32>
    %ss = reduce %sq dim=1 identities=[0.000000e+00 : f32] : tile<1x1024xf32> -> tile<1xf32>
      (%a: tile<f32>, %c: tile<f32>) {
        %s = addf %a, %c : tile<f32>
        yield %s : tile<f32>
      }
    %var = divf %ss, %nf1 : tile<1xf32>
    %eps1 = reshape %eps : tile<f32> -> tile<1xf32>
    %ve = addf %var, %eps1 : tile<1xf32>
    %rstd = rsqrt %ve : tile<1xf32>
    %rstd2 = reshape %rstd : tile<1xf32> -> tile<1x1xf32>
    %rstdb = broadcast %rstd2 : tile<1x1xf32> -> tile<1x1024xf32>
    %wt, %t1 = load_view_tko weak %pw[%c0] : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %bt, %t2 = load_view_tko weak %pb[%c0] : partition_view<tile=(1024), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<1024xf32>, token
    %w2 = reshape %wt : tile<1024xf32> -> tile<1x1024xf32>
    %b2 = reshape %bt : tile<1024xf32> -> tile<1x1024xf32>
    %normed = mulf %xc, %rstdb : tile<1x1024xf32>
    %scaled = mulf %normed, %w2 : tile<1x1024xf32>
    %out = addf %scaled, %b2 : tile<1x1024xf32>
    %t3 = store_view_tko weak %out, %py[%row, %c0] : tile<1x1024xf32>, partition_view<tile=(1x1024), tensor_view<?x?xf32, strides=[?,1]>>, tile<i32> -> token
    %t4 = store_view_tko weak %mean, %pm[%row] : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    %t5 = store_view_tko weak %rstd, %pr[%row] : tile<1xf32>, partition_view<tile=(1), tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
    return
  }
}
