// Histogram with atomics: each tile block reads 1024 values (a masked gather through a tile of
// pointers for the last, partial block) and atomically adds 1 to hist[value] for each of them.
cuda_tile.module @histogram {
  entry @histogram(%data: tile<ptr<i32>>, %hist: tile<ptr<i32>>, %n: tile<i32>) {
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %c1024 = constant <i32: 1024> : tile<i32>
    %start = muli %bx, %c1024 : tile<i32>
    %start1 = reshape %start : tile<i32> -> tile<1xi32>
    %startb = broadcast %start1 : tile<1xi32> -> tile<1024xi32>
    %lane = iota : tile<1024xi32>
    %offs = addi %startb, %lane : tile<1024xi32>
    %n1 = reshape %n : tile<i32> -> tile<1xi32>
    %nb = broadcast %n1 : tile<1xi32> -> tile<1024xi32>
    %mask = cmpi less_than %offs, %nb, signed : tile<1024xi32> -> tile<1024xi1>
    %d1 = reshape %data : tile<ptr<i32>> -> tile<1xptr<i32>>
    %db = broadcast %d1 : tile<1xptr<i32>> -> tile<1024xptr<i32>>
    %ptrs = offset %db, %offs : tile<1024xptr<i32>>, tile<1024xi32> -> tile<1024xptr<i32>>
    %zero = constant <i32: 0> : tile<1024xi32>
    %vals, %t0 = load_ptr_tko weak %ptrs, %mask, %zero : tile<1024xptr<i32>>, tile<1024xi1>, tile<1024xi32> -> tile<1024xi32>, token
    %h1 = reshape %hist : tile<ptr<i32>> -> tile<1xptr<i32>>
    %hb = broadcast %h1 : tile<1xptr<i32>> -> tile<1024xptr<i32>>
    %bins = offset %hb, %vals : tile<1024xptr<i32>>, tile<1024xi32> -> tile<1024xptr<i32>>
    %one = constant <i32: 1> : tile<1024xi32>
    %old, %t1 = atomic_rmw_tko relaxed device %bins, add, %one, %mask : tile<1024xptr<i32>>, tile<1024xi32>, tile<1024xi1> -> tile<1024xi32>, token
    return
  }
}
