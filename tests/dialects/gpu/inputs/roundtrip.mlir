module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel_1(%arg0: f32, %arg1: memref<?xf32, 1>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y upper_bound 64
      %bd = gpu.block_dim z
      %bi = gpu.block_id x
      %gd = gpu.grid_dim y
      %gi = gpu.global_id z upper_bound 8
      %ci = gpu.cluster_id x
      %cd = gpu.cluster_dim y
      %cb = gpu.cluster_block_id z
      %cdb = gpu.cluster_dim_blocks x
      %l0 = gpu.lane_id
      %l1 = gpu.lane_id upper_bound 32
      %sg = gpu.subgroup_id : index
      %ns = gpu.num_subgroups upper_bound 4 : index
      %ss = gpu.subgroup_size : index
      %sum = gpu.all_reduce add %arg0 {} : (f32) -> (f32)
      %sum1 = gpu.all_reduce maximumf %arg0 uniform {} : (f32) -> f32
      %sum2 = gpu.all_reduce %arg0 {
      ^bb(%lhs : f32, %rhs : f32):
        gpu.yield %lhs : f32
      } : (f32) -> (f32)
      %r0 = gpu.subgroup_reduce add %arg0 : (f32) -> f32
      %r1 = gpu.subgroup_reduce minnumf %arg0 uniform cluster(size = 4) : (f32) -> f32
      %r2 = gpu.subgroup_reduce mul %arg0 cluster(size = 4, stride = 2) : (f32) -> f32
      %c = "test.i32"() : () -> i32
      %shfl, %pred = gpu.shuffle xor %arg0, %c, %c : f32
      %shfl1, %pred1 = gpu.shuffle idx %arg0, %c, %c : f32
      %rot, %pred2 = gpu.rotate %arg0, 3, 16 : f32
      %b0 = gpu.subgroup_broadcast %arg0, first_active_lane : f32
      %b1 = gpu.subgroup_broadcast %arg0, specific_lane %c : f32
      gpu.barrier
      gpu.printf "Value: %d", %c : i32
      gpu.printf "]"
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      gpu.return
    }
    gpu.func @kernel_2() kernel {
      gpu.return
    }
    gpu.func @attrs(%arg0: f32 {test.foo = 1 : i32}, %arg1: index) -> index
        workgroup(%w: memref<42xf32, 3>)
        private(%p: memref<2xf32, 5>, %q: memref<1xf32, 5>)
        attributes {foo = "bar"} {
      gpu.return %arg1 : index
    }
    gpu.func @empty_attribution(%arg0: f32) workgroup() private() {
      gpu.return
    }
    gpu.func @mma(%a: !gpu.mma_matrix<16x16xf16, "AOp">, %b: !gpu.mma_matrix<16x16xf16, "BOp">, %c: !gpu.mma_matrix<16x16xf32, "COp">, %m: memref<32x32xf16, 3>, %i: index, %f: f32, %mf: memref<32x32xf32, 3>) {
      %0 = gpu.subgroup_mma_load_matrix %m[%i, %i] {leadDimension = 32 : index} : memref<32x32xf16, 3> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %1 = gpu.subgroup_mma_compute %0, %b, %c : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %2 = gpu.subgroup_mma_compute %a, %b, %c {a_transpose} : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      %3 = gpu.subgroup_mma_constant_matrix %f : !gpu.mma_matrix<16x16xf32, "COp">
      %4 = gpu.subgroup_mma_elementwise addf %3, %2 : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %5 = gpu.subgroup_mma_extract_thread_local %4[%i] : !gpu.mma_matrix<16x16xf32, "COp"> -> f32
      %6 = gpu.subgroup_mma_insert_thread_local %5, %4[%i] : f32, !gpu.mma_matrix<16x16xf32, "COp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %c, %mf[%i, %i] {leadDimension = 32 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32, 3>
      gpu.return
    }
    gpu.func @host(%sz: index, %f: f32, %m: memref<3x7xf32>, %m1: memref<3x7xf32, 1>, %d: i32, %um: memref<*xf32>) {
      gpu.launch blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz) threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) {
        gpu.terminator
      }
      %t = gpu.wait async
      %t1 = gpu.launch async [%t] clusters(%cx, %cy, %cz) in (%a = %sz, %b = %sz, %c = %sz) blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz) threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) dynamic_shared_memory_size %d module(@mod) function(@fn) workgroup(%w : memref<4xf32, 3>) private(%p : memref<4xf32, 5>) {
        "test.use"(%bx, %cz, %w, %p) : (index, index, memref<4xf32, 3>, memref<4xf32, 5>) -> ()
        gpu.terminator
      } {foo}
      %t2 = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz) threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) {
        gpu.terminator
      }
      %a0 = gpu.alloc () : memref<13xf32, 1>
      gpu.dealloc %a0 : memref<13xf32, 1>
      %a1, %t3 = gpu.alloc async [%t] (%sz) : memref<?xf32, 1>
      %t4 = gpu.dealloc async [%t3] %a1 : memref<?xf32, 1>
      %a2 = gpu.alloc host_shared () : memref<13xf32, 1>
      gpu.memcpy %m, %m1 : memref<3x7xf32>, memref<3x7xf32, 1>
      %t5 = gpu.memcpy async [%t] %m, %m1 : memref<3x7xf32>, memref<3x7xf32, 1>
      %t6 = gpu.memcpy async %m, %m1 : memref<3x7xf32>, memref<3x7xf32, 1>
      gpu.memset %m, %f : memref<3x7xf32>, f32
      %t7 = gpu.memset async [%t, %t1] %m, %f : memref<3x7xf32>, f32
      %t8 = gpu.wait async [%t, %t1]
      gpu.wait [%t8]
      gpu.wait
      gpu.set_default_device %d
      gpu.host_register %um : memref<*xf32>
      gpu.host_unregister %um : memref<*xf32>
      gpu.return
    }
    gpu.func @warp(%laneid: index, %v0: vector<4xi32>) {
      gpu.warp_execute_on_lane_0(%laneid)[32] {
      }
      %2 = gpu.warp_execute_on_lane_0(%laneid)[32] args(%v0 : vector<4xi32>) -> (vector<4xi32>) {
      ^bb0(%arg0: vector<128xi32>):
        gpu.yield %arg0 : vector<128xi32>
      }
      gpu.return
    }
  }
  gpu.module @module_with_two_target [#nvvm.target, #rocdl.target<chip = "gfx90a">] {
    gpu.func @kernel(%arg0 : f32) kernel {
      gpu.return
    }
  }
  gpu.module @module_with_offload_handler <#gpu.select_object<0>> [#nvvm.target] attributes {foo} {
  }
  gpu.binary @binary_1 [#gpu.object<#nvvm.target, "">]
  gpu.binary @binary_2 <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#nvvm.target, "">, #gpu.object<#nvvm.target<chip = "sm_90">, "">]
  gpu.binary @binary_4 [#gpu.object<#nvvm.target, bin = "">, #gpu.object<#nvvm.target, assembly = "">, #gpu.object<#nvvm.target, offload = "">, #gpu.object<#nvvm.target, properties = { O = 3 : i32 }, offload = "">]
  gpu.binary @binary_5 [#gpu.object<#nvvm.target, properties = {O = 3 : i32}, fatbin = "">]
  gpu.binary @kernel_attrs [#gpu.object<#nvvm.target, kernels = #gpu.kernel_table<[#gpu.kernel_metadata<"z", (i32, f32) -> (), metadata = {sgpr_count = 255}>, #gpu.kernel_metadata<"a", (i32) -> (), arg_attrs = [{llvm.read_only}]>]>, bin = "BLOB">]
  "test.attrs"() {a = #gpu<dim x>, b = #gpu<all_reduce_op maxnumf>, c = #gpu<shuffle_mode idx>, d = #gpu.address_space<private>, e = #gpu<mma_element_wise negatef>, f = #gpu<mat_transpose_mode CONJUGATE_TRANSPOSE>} : () -> ()
}
