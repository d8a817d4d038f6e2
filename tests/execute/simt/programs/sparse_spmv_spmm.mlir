func.func @main(%rows: index, %cols: index, %nnz: index,
                %pos: memref<?xindex>, %idx: memref<?xindex>, %vals: memref<?xf64>,
                %x: memref<?xf64>, %y: memref<?xf64>,
                %b: memref<?xf64>, %c: memref<?xf64>, %n: index,
                %cr: memref<?xi32>, %cc: memref<?xi32>, %cv: memref<?xf64>) {
  %t0 = gpu.wait async
  %A, %t1 = gpu.create_csr async [%t0] %rows, %cols, %nnz, %pos, %idx, %vals : memref<?xindex>, memref<?xindex>, memref<?xf64>
  %X, %t2 = gpu.create_dn_tensor async [%t1] %x, %cols : index into memref<?xf64>
  %Y, %t3 = gpu.create_dn_tensor async [%t2] %y, %rows : index into memref<?xf64>
  %sz, %t4 = gpu.spmv_buffer_size async [%t3] %A, %X, %Y into f64
  %buf, %t5 = gpu.alloc async [%t4] (%sz) : memref<?xi8>
  %t6 = gpu.spmv async [%t5] %A, %X, %Y, %buf : memref<?xi8> into f64
  %B, %t7 = gpu.create_dn_tensor async [%t6] %b, %cols, %n : index, index into memref<?xf64>
  %C, %t8 = gpu.create_dn_tensor async [%t7] %c, %rows, %n : index, index into memref<?xf64>
  %sz2, %t9 = gpu.spmm_buffer_size async [%t8] %A, %B, %C : index into f64
  %buf2, %t10 = gpu.alloc async [%t9] (%sz2) : memref<?xi8>
  %t11 = gpu.spmm async [%t10] %A, %B, %C, %buf2 : memref<?xi8> into f64
  %S, %t12 = gpu.create_coo async [%t11] %rows, %n, %nnz, %cr, %cc, %cv : memref<?xi32>, memref<?xi32>, memref<?xf64>
  %Bt, %t13 = gpu.create_dn_tensor async [%t12] %b, %cols, %n : index, index into memref<?xf64>
  %Ad, %t14 = gpu.create_dn_tensor async [%t13] %c, %rows, %n : index, index into memref<?xf64>
  %t15 = gpu.destroy_sp_mat async [%t14] %A
  %t16 = gpu.destroy_dn_tensor async [%t15] %X
  gpu.wait [%t16]
  return
}
