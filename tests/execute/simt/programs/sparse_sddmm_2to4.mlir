func.func @sddmm(%m: index, %k: index, %n: index, %nnz: index, %a: memref<?xf32>, %b: memref<?xf32>,
                 %pos: memref<?xindex>, %idx: memref<?xindex>, %vals: memref<?xf32>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_dn_tensor async [%t0] %a, %m, %k : index, index into memref<?xf32>
  %B, %t2 = gpu.create_dn_tensor async [%t1] %b, %k, %n : index, index into memref<?xf32>
  %C, %t3 = gpu.create_csr async [%t2] %m, %n, %nnz, %pos, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf32>
  %sz, %t4 = gpu.sddmm_buffer_size async [%t3] %A, %B, %C into f32
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.sddmm async [%t5] %A, %B, %C, %buf : memref<?xi8> into f32
  gpu.wait [%t6]
  return
}

func.func @spmm24(%m: index, %k: index, %n: index, %a: memref<?xf16>, %b: memref<?xf16>, %c: memref<?xf16>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_2to4_spmat async [%t0] {PRUNE_AND_CHECK} %m, %k, %a : memref<?xf16>
  %B, %t2 = gpu.create_dn_tensor async [%t1] %b, %k, %n : index, index into memref<?xf16>
  %C, %t3 = gpu.create_dn_tensor async [%t2] %c, %m, %n : index, index into memref<?xf16>
  %s1, %s2, %s3, %t4 = gpu.spmm_buffer_size async [%t3] %A, %B, %C : index, index, index into f16
  %b1, %t5 = gpu.alloc async [%t4] (%s1) : memref<?xi8>
  %b2, %t6 = gpu.alloc async [%t5] (%s2) : memref<?xi8>
  %b3, %t7 = gpu.alloc async [%t6] (%s3) : memref<?xi8>
  %t8 = gpu.spmm async [%t7] %A, %B, %C, %b1, %b2, %b3 : memref<?xi8>, memref<?xi8>, memref<?xi8> into f16
  gpu.wait [%t8]
  return
}
