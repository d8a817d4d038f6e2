func.func @memcpy_element(%a: memref<4xf32>, %b: memref<4xi32>) {
  gpu.memcpy %a, %b : memref<4xf32>, memref<4xi32>
  return
}
// -----
func.func @memcpy_shape(%a: memref<4xf32>, %b: memref<8xf32>) {
  gpu.memcpy %a, %b : memref<4xf32>, memref<8xf32>
  return
}
// -----
func.func @memset_type(%a: memref<4xf32>, %v: f16) {
  gpu.memset %a, %v : memref<4xf32>, f16
  return
}
// -----
func.func @reduce_float_op_on_int(%v: i32) {
  %0 = gpu.subgroup_reduce maxnumf %v : (i32) -> i32
  return
}
// -----
func.func @all_reduce_xor_f16(%v: f16) {
  %0 = gpu.all_reduce xor %v {} : (f16) -> f16
  return
}
// -----
func.func @shuffle_index(%v: index, %o: i32) {
  %0, %1 = gpu.shuffle xor %v, %o, %o : index
  return
}
// -----
func.func @alloc_dynamic(%n: index) {
  %0 = gpu.alloc (%n) : memref<4xf32>
  return
}
// -----
func.func @mma_order(%a: !gpu.mma_matrix<16x16xf16, "BOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">) {
  %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x16xf16, "BOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}
// -----
func.func @mma_shape(%a: !gpu.mma_matrix<16x8xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">) {
  %0 = gpu.subgroup_mma_compute %a, %b, %c : !gpu.mma_matrix<16x8xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
  return
}
// -----
func.func @mma_load_memref(%m: memref<32x32xbf16>, %i: index) {
  %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xbf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
  return
}
// -----
gpu.module @m {
  gpu.func @grid() kernel attributes {gpu.known_grid_size = array<i32: 1, 2>} {
    gpu.return
  }
}
// -----
gpu.module @m {
  gpu.func @k() -> i32 kernel {
    %0 = "test.c"() : () -> i32
    gpu.return %0 : i32
  }
}
// -----
gpu.module @m {
  gpu.func @f() -> i32 {
    %0 = "test.c"() : () -> f32
    gpu.return %0 : f32
  }
}
// -----
gpu.module @m {
  gpu.func @f() private(%p: memref<4xf32, #gpu.address_space<workgroup>>) {
    gpu.return
  }
}
// -----
gpu.module @m [1] {
}
// -----
gpu.binary @b <1> [#gpu.object<#nvvm.target, "">]
// -----
gpu.binary @b [1]
// -----
func.func @dyn_shared() {
  %0 = gpu.dynamic_shared_memory : memref<?xi8, 3>
  return
}
// -----
func.func @dyn_shared2() {
  %0 = gpu.dynamic_shared_memory : memref<?xi16, #gpu.address_space<workgroup>>
  return
}
// -----
func.func @launch_terminator(%sz: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%a = %sz, %b = %sz, %c = %sz) threads(%tx, %ty, %tz) in (%d = %sz, %e = %sz, %f = %sz) {
    gpu.return
  }
  return
}
// -----
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) kernel {
      gpu.return
    }
  }
  func.func @arg_type(%sz: index, %x: i32) {
    gpu.launch_func @kernels::@k blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%x : i32)
    return
  }
}
// -----
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: f32) {
      gpu.return
    }
  }
  func.func @not_kernel(%sz: index, %x: f32) {
    gpu.launch_func @kernels::@k blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz) args(%x : f32)
    return
  }
}
// -----
module {
  func.func @no_container(%sz: index) {
    gpu.launch_func @kernels::@k blocks in (%sz, %sz, %sz) threads in (%sz, %sz, %sz)
    return
  }
}
// -----
func.func @a(%v: f32) {
  %0, %1 = gpu.rotate %v, 3, 15 : f32
  return
}
// -----
func.func @b(%v: f32) {
  %0, %1 = gpu.rotate %v, 16, 16 : f32
  return
}
// -----
func.func @c(%v: f32) {
  %0 = gpu.subgroup_reduce add %v cluster(size = 3) : (f32) -> f32
  return
}
// -----
func.func @d(%v: f32) {
  %0 = gpu.subgroup_reduce add %v cluster(size = 4, stride = 3) : (f32) -> f32
  return
}
// -----
func.func @f(%v: vector<4x4xf32>) {
  %0 = gpu.subgroup_reduce add %v : (vector<4x4xf32>) -> vector<4x4xf32>
  return
}
// -----
func.func @a(%v: f32) {
  %0 = gpu.subgroup_broadcast %v, first_active_lane : f32
  %1 = "gpu.subgroup_broadcast"(%v) <{broadcast_type = #gpu<broadcast specific_lane>}> : (f32) -> f32
  return
}
// -----
func.func @b(%laneid: index, %v: vector<4xi32>) {
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] args(%v : vector<4xi32>) -> (vector<4xi32>) {
  ^bb0(%arg0: vector<100xi32>):
    gpu.yield %arg0 : vector<100xi32>
  }
  return
}
// -----
func.func @d(%laneid: index) {
  %0 = gpu.warp_execute_on_lane_0(%laneid)[32] -> (vector<4xi32>) {
    %c = arith.constant dense<1> : vector<129xi32>
    gpu.yield %c : vector<129xi32>
  }
  return
}
// -----
func.func @e(%v: f32) {
  %0 = gpu.all_reduce add %v {
  ^bb0(%a: f32, %b: f32):
    gpu.yield %a : f32
  } : (f32) -> f32
  return
}
// -----
gpu.module @m {
  gpu.func @f(%a: f32) -> f32 {
    gpu.return
  }
}
// -----
func.func @g(%v: i32) {
  gpu.printf "%d" %v : i32
  return
}
// -----
func.func @c(%sz: index, %m: memref<4xf32>) {
  gpu.launch blocks(%bx, %by, %bz) in (%a = %sz, %b = %sz, %c = %sz) threads(%tx, %ty, %tz) in (%d = %sz, %e = %sz, %f = %sz) workgroup(%w : memref<4xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  return
}
// -----
func.func @d(%v: f32) {
  %0 = gpu.subgroup_mma_constant_matrix %v : !gpu.mma_matrix<16x16xf16, "COp">
  return
}
// -----
gpu.module @m {
  gpu.func @f() kernel attributes {gpu.known_grid_size = array<i64: 1, 1, 1>} {
    gpu.return
  }
}
