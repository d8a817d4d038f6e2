func.func @coo_aos(%rows: index, %cols: index, %nnz: index, %ij: memref<?xindex>, %vals: memref<?xf64>,
                   %x: memref<?xf64>, %y: memref<?xf64>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_coo_aos async [%t0] %rows, %cols, %nnz, %ij, %vals : memref<?xindex>, memref<?xf64>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf64>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows : index into memref<?xf64>
  %sz, %t4 = gpu.spmv_buffer_size async [%t3] %A, %X, %Y into f64
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A, %X, %Y, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}

func.func @csc_t(%rows: index, %cols: index, %nnz: index, %pos: memref<?xi32>, %idx: memref<?xi32>,
                 %vals: memref<?xf32>, %x: memref<?xf32>, %y: memref<?xf32>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_csc async [%t0] %rows, %cols, %nnz, %pos, %idx, %vals : memref<?xi32>, memref<?xi32>, memref<?xf32>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %rows : index into memref<?xf32>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %cols : index into memref<?xf32>
  %sz, %t4 = gpu.spmv_buffer_size async [%t3] %A{TRANSPOSE}, %X, %Y into f32
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A{TRANSPOSE}, %X, %Y, %buf : memref<?xi8> into f32
  gpu.wait [%t6]
  return
}

func.func @bsr(%brows: index, %bcols: index, %bnnz: index, %rb: index, %cb: index,
               %pos: memref<?xindex>, %idx: memref<?xindex>, %vals: memref<?xf64>,
               %b: memref<?xf64>, %c: memref<?xf64>, %rows: index, %k: index, %n: index) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_bsr async [%t0] %brows, %bcols, %bnnz, %rb, %cb, %pos, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %B, %t2 = gpu.create_dn_tensor async [%t1] %b, %k, %n : index, index into memref<?xf64>
  %C, %t3 = gpu.create_dn_tensor async [%t2] %c, %rows, %n : index, index into memref<?xf64>
  %sz, %t4 = gpu.spmm_buffer_size async [%t3] %A, %B, %C : index into f64
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmm async [%t5] %A, %B, %C, %buf : memref<?xi8> into f64
  gpu.wait [%t6]
  return
}
