func.func @a(%t: !gpu.async.token) {
  %0, %1 = gpu.alloc async [%t] host_shared () : memref<4xf32>
  return
}
func.func @b(%m: memref<4xf32>) {
  gpu.dealloc %m : memref<4xf32>
  %0 = gpu.alloc () : memref<4xf32, #gpu.address_space<private>>
  return
}
func.func @e(%a: !gpu.mma_matrix<16x16xf16, "COp">) {
  %0 = gpu.subgroup_mma_elementwise addf %a, %a : (!gpu.mma_matrix<16x16xf16, "COp">, !gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}
func.func @g(%i: i64) {
  %0 = gpu.lane_id upper_bound -1
  return
}
