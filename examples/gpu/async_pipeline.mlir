// Device memory and an async chain: allocate, copy in, run a kernel, copy out, free, each op
// waiting on the previous one's token; the host waits on the last token before it returns.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32, %n: index) kernel {
      %i = gpu.global_id x
      %inside = arith.cmpi slt, %i, %n : index
      scf.if %inside {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func @main(%hx: memref<?xf32>, %hy: memref<?xf32>, %a: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = memref.dim %hx, %c0 : memref<?xf32>
    %blocks = arith.ceildivui %n, %c64 : index
    %t0 = gpu.wait async
    %dx, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %dy, %t2 = gpu.alloc async [%t1] (%n) : memref<?xf32>
    %t3 = gpu.memcpy async [%t2] %dx, %hx : memref<?xf32>, memref<?xf32>
    %t4 = gpu.memcpy async [%t3] %dy, %hy : memref<?xf32>, memref<?xf32>
    %t5 = gpu.launch_func async [%t4] @kernels::@saxpy blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%dx : memref<?xf32>, %dy : memref<?xf32>, %a : f32, %n : index)
    %t6 = gpu.memcpy async [%t5] %hy, %dy : memref<?xf32>, memref<?xf32>
    %t7 = gpu.dealloc async [%t6] %dx : memref<?xf32>
    %t8 = gpu.dealloc async [%t7] %dy : memref<?xf32>
    gpu.wait [%t8]
    return
  }
}
