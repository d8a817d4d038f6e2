// Warp-level sum with a butterfly of gpu.shuffle xor: every lane ends with its subgroup's sum.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_sum(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %i = gpu.global_id x
      %x = memref.load %in[%i] : memref<?xf32>
      %width = arith.constant 32 : i32
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %sum, %o = scf.while (%acc = %x, %off = %c1) : (f32, i32) -> (f32, i32) {
        %more = arith.cmpi ult, %off, %c32 : i32
        scf.condition(%more) %acc, %off : f32, i32
      } do {
      ^bb0(%a: f32, %k: i32):
        %other, %valid = gpu.shuffle xor %a, %k, %width : f32
        %s = arith.addf %a, %other : f32
        %k2 = arith.shli %k, %c1 : i32
        scf.yield %s, %k2 : f32, i32
      }
      memref.store %sum, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
}
