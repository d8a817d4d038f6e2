func.func @main(%m: index, %k: index, %n: index,
                %apos: memref<?xi32>, %aidx: memref<?xi32>, %avals: memref<?xf32>, %annz: index,
                %bpos: memref<?xi32>, %bidx: memref<?xi32>, %bvals: memref<?xf32>, %bnnz: index,
                %cpos: memref<?xi32>) -> (index, memref<?xi32>, memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_csr async [%t0] %m, %k, %annz, %apos, %aidx, %avals : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %B, %t2 = gpu.create_csr async [%t1] %k, %n, %bnnz, %bpos, %bidx, %bvals : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %e0 = memref.alloc() : memref<0xi32>
  %ecast = memref.cast %e0 : memref<0xi32> to memref<?xi32>
  %f0 = memref.alloc() : memref<0xf32>
  %fcast = memref.cast %f0 : memref<0xf32> to memref<?xf32>
  %C, %t3 = gpu.create_csr async [%t2] %m, %n, %c0, %cpos, %ecast, %fcast : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %desc, %t4 = gpu.spgemm_create_descr async [%t3]
  %buf = memref.alloc() : memref<0xi8>
  %bufc = memref.cast %buf : memref<0xi8> to memref<?xi8>
  %sz1, %t5 = gpu.spgemm_work_estimation_or_compute async [%t4] {WORK_ESTIMATION} %A, %B, %C, %desc, %c0, %bufc : f32 into memref<?xi8>
  %sz2, %t6 = gpu.spgemm_work_estimation_or_compute async [%t5] {COMPUTE} %A, %B, %C, %desc, %c0, %bufc : f32 into memref<?xi8>
  %rows, %cols, %nnz, %t7 = gpu.spmat_get_size async [%t6] %C
  %ci = memref.alloc(%nnz) : memref<?xi32>
  %cv = memref.alloc(%nnz) : memref<?xf32>
  %t8 = gpu.set_csr_pointers async [%t7] %C, %cpos, %ci, %cv : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %t9 = gpu.spgemm_copy async [%t8] %A, %B, %C, %desc : f32
  %t10 = gpu.spgemm_destroy_descr async [%t9] %desc
  gpu.wait [%t10]
  return %nnz, %ci, %cv : index, memref<?xi32>, memref<?xf32>
}
