// C = A @ B with 16x16 shared-memory tiles: each block computes one 16x16 tile of C, loading
// a tile of A and of B per step and synchronising with barriers.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %n: index)
        workgroup(%As: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %Bs: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %zero = arith.constant 0.0 : f32
      %acc = scf.for %t = %c0 to %n step %c16 iter_args(%sum = %zero) -> (f32) {
        %ac = arith.addi %t, %tx : index
        %av = memref.load %A[%row, %ac] : memref<?x?xf32>
        memref.store %av, %As[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %br = arith.addi %t, %ty : index
        %bv = memref.load %B[%br, %col] : memref<?x?xf32>
        memref.store %bv, %Bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %part = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %sum) -> (f32) {
          %a = memref.load %As[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %b = memref.load %Bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %a, %b : f32
          %q = arith.addf %s, %p : f32
          scf.yield %q : f32
        }
        gpu.barrier
        scf.yield %part : f32
      }
      memref.store %acc, %C[%row, %col] : memref<?x?xf32>
      gpu.return
    }
  }

  func.func @main(%A: memref<?x?xf32>, %B: memref<?x?xf32>, %C: memref<?x?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %tiles = arith.divui %n, %c16 : index
    gpu.launch_func @kernels::@matmul blocks in (%tiles, %tiles, %c1) threads in (%c16, %c16, %c1)
        args(%A : memref<?x?xf32>, %B : memref<?x?xf32>, %C : memref<?x?xf32>, %n : index)
    return
  }
}
