// Sparse matrix-vector product through the gpu sparse ops (cuSPARSE's interface): y = A x + y.
func.func @main(%rows: index, %cols: index, %nnz: index, %pos: memref<?xindex>,
                %idx: memref<?xindex>, %vals: memref<?xf64>, %x: memref<?xf64>,
                %y: memref<?xf64>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_csr async [%t0] %rows, %cols, %nnz, %pos, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf64>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows : index into memref<?xf64>
  %size, %t4 = gpu.spmv_buffer_size async [%t3] %A, %X, %Y into f64
  %buffer, %t5 = gpu.alloc async [%t4] (%size) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A, %X, %Y, %buffer : memref<?xi8> into f64
  %t7 = gpu.destroy_sp_mat async [%t6] %A
  %t8 = gpu.destroy_dn_tensor async [%t7] %X
  %t9 = gpu.destroy_dn_tensor async [%t8] %Y
  %t10 = gpu.dealloc async [%t9] %buffer : memref<?xi8>
  gpu.wait [%t10]
  return
}
