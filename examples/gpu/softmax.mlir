// Row softmax: one block of 128 threads per row of 128 floats; the row maximum and the sum of
// exponentials are block-wide reductions (gpu.all_reduce), exp from the math dialect.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @softmax(%x: memref<?x128xf32>, %y: memref<?x128xf32>) kernel {
      %row = gpu.block_id x
      %col = gpu.thread_id x
      %v = memref.load %x[%row, %col] : memref<?x128xf32>
      %m = gpu.all_reduce maxnumf %v uniform {} : (f32) -> f32
      %d = arith.subf %v, %m : f32
      %e = math.exp %d : f32
      %s = gpu.all_reduce add %e uniform {} : (f32) -> f32
      %r = arith.divf %e, %s : f32
      memref.store %r, %y[%row, %col] : memref<?x128xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<?x128xf32>, %y: memref<?x128xf32>, %rows: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@softmax blocks in (%rows, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%x : memref<?x128xf32>, %y : memref<?x128xf32>)
    return
  }
}
