func.func @sparse(%m: memref<?xf32>, %t: !gpu.async.token, %i: index, %d: !gpu.sparse.dntensor_handle, %s: !gpu.sparse.spmat_handle, %desc: !gpu.sparse.spgemmop_handle, %mi: memref<?xi32>) {
  %r:3, %t2 = gpu.spmat_get_size async [%t] %s
  %r2:3 = gpu.spmat_get_size %s
  %sp, %t3 = gpu.create_bsr async [%t] %i, %i, %i, %i, %i, %mi, %mi, %m : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %sp2, %tsp2 = gpu.create_2to4_spmat async [%t] {PRUNE_AND_CHECK} %i, %i, %m: memref<?xf32>
  %sp5 = gpu.create_2to4_spmat {PRUNE_ONLY} %i, %i, %m: memref<?xf32>
  %sp3, %t4 = gpu.create_coo_aos async [%t] %i, %i, %i, %mi, %m : memref<?xi32>, memref<?xf32>
  %sp4, %t5 = gpu.create_csc async [%t] %i, %i, %i, %mi, %mi, %m : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %sp6, %t15 = gpu.create_coo async [%t] %i, %i, %i, %mi, %mi, %m : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %sp7 = gpu.create_csr %i, %i, %i, %mi, %mi, %m : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %dn, %t16 = gpu.create_dn_tensor async [%t] %m, %i, %i : index, index into memref<?xf32>
  %dn2 = gpu.create_dn_tensor %m, %i : index into memref<?xf32>
  %t17 = gpu.destroy_dn_tensor async [%t] %dn
  %t18 = gpu.destroy_sp_mat async [%t] %sp
  %t6 = gpu.set_csr_pointers async [%t] %s, %mi, %mi, %m : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %d1, %t7 = gpu.spgemm_create_descr async [%t]
  %t8 = gpu.spgemm_destroy_descr async [%t] %desc
  %bs, %t9 = gpu.spgemm_work_estimation_or_compute async [%t]{WORK_ESTIMATION} %s, %s, %s, %desc, %i, %m: f32 into memref<?xf32>
  
  %t10 = gpu.spgemm_copy async [%t] %s, %s{TRANSPOSE}, %s, %desc : f32
  %b0, %t20 = gpu.spmv_buffer_size async [%t] %s, %d, %d into f64
  %t11 = gpu.spmv async [%t] %s{TRANSPOSE}, %d, %d, %m : memref<?xf32> into f32
  %bsz:2, %t12 = gpu.spmm_buffer_size async [%t] %s{TRANSPOSE}, %d{CONJUGATE_TRANSPOSE}, %d : index, index into f32
  %t13 = gpu.spmm async [%t] %s, %d, %d, %m, %m : memref<?xf32>, memref<?xf32> into f32
  %b1, %t21 = gpu.sddmm_buffer_size async [%t] %d, %d{TRANSPOSE}, %s into f32
  %t14 = gpu.sddmm async [%t] %d, %d, %s, %m : memref<?xf32> into f32
  gpu.spmv %s, %d, %d, %m : memref<?xf32> into f32
  return
}
