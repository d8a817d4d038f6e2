// Attention forward for one head, f32: O = softmax(Q K^T * scale) V with an online softmax
// (flash-attention style).  One tile block per 32 query rows; a `for` loop walks the keys 32
// at a time, carrying the running row max m, the running row sum l and the output accumulator.
// K^T tiles are loaded directly through a partition view with dim_map = [1, 0].  The sequence
// length need not be a multiple of 32: padded keys are masked to -inf, padded rows are masked
// on store.
cuda_tile.module @attention {
  entry @attention(%q: tile<ptr<f32>>, %k: tile<ptr<f32>>, %v: tile<ptr<f32>>, %o: tile<ptr<f32>>, %s: tile<i32>, %scale: tile<f32>) {
    %tq = make_tensor_view %q, shape = [%s, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %tk = make_tensor_view %k, shape = [%s, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %tv = make_tensor_view %v, shape = [%s, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %to = make_tensor_view %o, shape = [%s, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf32, strides=[64,1]>
    %pq = make_partition_view %tq : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>
    %pkt = make_partition_view %tk : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>, dim_map=[1, 0]>
    %pv = make_partition_view %tv : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>
    %po = make_partition_view %to : partition_view<tile=(32x64), tensor_view<?x64xf32, strides=[64,1]>>
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c0 = constant <i32: 0> : tile<i32>
    %c1 = constant <i32: 1> : tile<i32>
    %c32 = constant <i32: 32> : tile<i32>
    %qt, %t0 = load_view_tko weak %pq[%bx, %c0] : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<32x64xf32>, token
    %nd, %nkeys = get_index_space_shape %pkt : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>, dim_map=[1, 0]> -> tile<i32>
    %scale1 = reshape %scale : tile<f32> -> tile<1x1xf32>
    %scaleb = broadcast %scale1 : tile<1x1xf32> -> tile<32x32xf32>
    %s1 = reshape %s : tile<i32> -> tile<1x1xi32>
    %sb = broadcast %s1 : tile<1x1xi32> -> tile<32x32xi32>
    %lane = iota : tile<32xi32>
    %lane2 = reshape %lane : tile<32xi32> -> tile<1x32xi32>
    %laneb = broadcast %lane2 : tile<1x32xi32> -> tile<32x32xi32>
    %ninf = constant <f32: 0xFF800000> : tile<32x32xf32>
    %zqk = constant <f32: 0.000000e+00> : tile<32x32xf32>
    %m0 = constant <f32: 0xFF800000> : tile<32x1xf32>
    %l0 = constant <f32: 0.000000e+00> : tile<32x1xf32>
    %acc0 = constant <f32: 0.000000e+00> : tile<32x64xf32>
    %res:3 = for %j in (%c0 to %nkeys, step %c1) : tile<i32> iter_values(%m = %m0, %l = %l0, %acc = %acc0) -> (tile<32x1xf32>, tile<32x1xf32>, tile<32x64xf32>) {
      %kt, %t1 = load_view_tko weak %pkt[%c0, %j] : partition_view<tile=(64x32), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>, dim_map=[1, 0]>, tile<i32> -> tile<64x32xf32>, token
      %qk = mmaf %qt, %kt, %zqk : tile<32x64xf32>, tile<64x32xf32>, tile<32x32xf32>
      %qks = mulf %qk, %scaleb : tile<32x32xf32>
      %base = muli %j, %c32 : tile<i32>
      %base1 = reshape %base : tile<i32> -> tile<1x1xi32>
      %baseb = broadcast %base1 : tile<1x1xi32> -> tile<32x32xi32>
      %col = addi %baseb, %laneb : tile<32x32xi32>
      %valid = cmpi less_than %col, %sb, signed : tile<32x32xi32> -> tile<32x32xi1>
      %qkm = select %valid, %qks, %ninf : tile<32x32xi1>, tile<32x32xf32>
      %rowmax = reduce %qkm dim=1 identities=[0xFF800000 : f32] : tile<32x32xf32> -> tile<32xf32>
        (%a: tile<f32>, %b: tile<f32>) {
          %mx = maxf %a, %b : tile<f32>
          yield %mx : tile<f32>
        }
      %rowmax2 = reshape %rowmax : tile<32xf32> -> tile<32x1xf32>
      %mnew = maxf %m, %rowmax2 : tile<32x1xf32>
      %mnewb = broadcast %mnew : tile<32x1xf32> -> tile<32x32xf32>
      %shifted = subf %qkm, %mnewb : tile<32x32xf32>
      %p = exp %shifted : tile<32x32xf32>
      %dm = subf %m, %mnew : tile<32x1xf32>
      %alpha = exp %dm : tile<32x1xf32>
      %rowsum = reduce %p dim=1 identities=[0.000000e+00 : f32] : tile<32x32xf32> -> tile<32xf32>
        (%a: tile<f32>, %b: tile<f32>) {
          %sum = addf %a, %b : tile<f32>
          yield %sum : tile<f32>
        }
      %rowsum2 = reshape %rowsum : tile<32xf32> -> tile<32x1xf32>
      %lscaled = mulf %l, %alpha : tile<32x1xf32>
      %lnew = addf %lscaled, %rowsum2 : tile<32x1xf32>
      %alphab = broadcast %alpha : tile<32x1xf32> -> tile<32x64xf32>
      %accs = mulf %acc, %alphab : tile<32x64xf32>
      %vt, %t2 = load_view_tko weak %pv[%j, %c0] : partition_view<tile=(32x64), padding_value = zero, tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> tile<32x64xf32>, token
      %accn = mmaf %p, %vt, %accs : tile<32x32xf32>, tile<32x64xf32>, tile<32x64xf32>
      continue %mnew, %lnew, %accn : tile<32x1xf32>, tile<32x1xf32>, tile<32x64xf32>
    }
    %lb = broadcast %res#1 : tile<32x1xf32> -> tile<32x64xf32>
    %out = divf %res#2, %lb : tile<32x64xf32>
    %t3 = store_view_tko weak %out, %po[%bx, %c0] : tile<32x64xf32>, partition_view<tile=(32x64), tensor_view<?x64xf32, strides=[64,1]>>, tile<i32> -> token
    return
  }
}
