// Histogram of byte values with global atomics: every thread adds 1 to its value's bin.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @histogram(%data: memref<?xi32>, %bins: memref<256xi32>, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi slt, %i, %n : index
      scf.if %inside {
        %v = memref.load %data[%i] : memref<?xi32>
        %c255 = arith.constant 255 : i32
        %b = arith.andi %v, %c255 : i32
        %bin = arith.index_cast %b : i32 to index
        %one = arith.constant 1 : i32
        %old = memref.atomic_rmw addi %one, %bins[%bin] : (i32, memref<256xi32>) -> i32
      }
      gpu.return
    }
  }

  func.func @main(%data: memref<?xi32>, %bins: memref<256xi32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %blocks = arith.ceildivui %n, %c128 : index
    gpu.launch_func @kernels::@histogram blocks in (%blocks, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%data : memref<?xi32>, %bins : memref<256xi32>, %n : index)
    return
  }
}
