memref.global "private" constant @gv : memref<4xf32> = dense<1.000000e+00>
memref.global @gx : memref<2xi32> = uninitialized
memref.global "public" @gy : memref<2xi32>
memref.global "private" @gz : memref<2xi32> = dense<[1, 2]> {alignment = 64}
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
memref.alloca_scope {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc(%i, %i)[%i] {alignment = 64} : memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 * s0 + d1)>>
  %c = memref.alloca(%i) : memref<?xf32, 3>
  %d = memref.alloca() {alignment = 16 : i64} : memref<16xi32>
  memref.dealloc %a : memref<4x8xf32>
  %l = memref.load %a[%i, %i] : memref<4x8xf32>
  %l2 = memref.load %a[%i, %i] {nontemporal = true} : memref<4x8xf32>
  memref.store %f, %a[%i, %i] : memref<4x8xf32>
  memref.store %f, %a[%i, %i] {nontemporal = true} : memref<4x8xf32>
  %ca = memref.cast %a : memref<4x8xf32> to memref<?x?xf32>
  %cu = memref.cast %a : memref<4x8xf32> to memref<*xf32>
  %sv = memref.subview %a[0, %i] [2, 4] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  %svz = memref.subview %ca[0, 0] [%i, %i] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %svs = memref.subview %ca[%i, 0] [4, %i] [0, 1] : memref<?x?xf32> to memref<4x?xf32, strided<[0, 1], offset: ?>>
  %rc = memref.reinterpret_cast %a to offset: [0], sizes: [%i, 4], strides: [4, 1] : memref<4x8xf32> to memref<?x4xf32>
  %buf = memref.alloc() : memref<2048xi8>
  %v = memref.view %buf[%i][%i] : memref<2048xi8> to memref<?x4xf32>
  %shape = memref.alloc() : memref<1xindex>
  %rs = memref.reshape %a(%shape) : (memref<4x8xf32>, memref<1xindex>) -> memref<32xf32>
  %ex = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 8] : memref<4x8xf32> into memref<2x2x8xf32>
  %co = memref.collapse_shape %a [[0, 1]] : memref<4x8xf32> into memref<32xf32>
  memref.copy %a, %a : memref<4x8xf32> to memref<4x8xf32>
  %dm = memref.dim %a, %i : memref<4x8xf32>
  %rk = memref.rank %a : memref<4x8xf32>
  %r = memref.atomic_rmw addf %f, %a[%i, %i] : (f32, memref<4x8xf32>) -> f32
  %g = memref.generic_atomic_rmw %a[%i, %i] : memref<4x8xf32> {
  ^bb0(%cur: f32):
    memref.atomic_yield %cur : f32
  }
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %a : memref<4x8xf32> -> memref<f32>, index, index, index, index, index
  %p = memref.extract_aligned_pointer_as_index %a : memref<4x8xf32> -> index
  %ms = memref.memory_space_cast %a : memref<4x8xf32> to memref<4x8xf32, 1>
  %tr = memref.transpose %a (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32, affine_map<(d0, d1) -> (d0 + d1 * 8)>>
  memref.prefetch %a[%i, %i], read, locality<3>, data : memref<4x8xf32>
  %aa = memref.assume_alignment %a, 16 : memref<4x8xf32>
  %dyn = memref.alloc(%i) : memref<?xf32>
  %re = memref.realloc %dyn(%i) : memref<?xf32> to memref<?xf32>
  %tag = memref.alloc() : memref<1xi32>
  memref.dma_start %a[%i, %i], %a[%i, %i], %i, %tag[%i] : memref<4x8xf32>, memref<4x8xf32>, memref<1xi32>
  memref.dma_wait %tag[%i], %i : memref<1xi32>
  memref.alloca_scope {
    %t = memref.alloca() : memref<4xf32>
  }
  %s = memref.alloca_scope -> (f32) {
    memref.alloca_scope.return %f : f32
  }
  %gg = memref.get_global @gv : memref<4xf32>
}
// -----
memref.global "private" @buf : memref<2x3xi16, 1> = dense<[[1, 2, 3], [4, 5, 6]]>
memref.global constant @cst : memref<f64> = dense<2.500000e+00> {alignment = 8 : i64, tag = "x"}
%i = "test.v"() : () -> index
%j = "test.v"() : () -> index
%v = "test.v"() : () -> i16
%m = "test.v"() : () -> memref<?x?x4xi16, strided<[?, ?, 1], offset: ?>>
%b = memref.get_global @buf : memref<2x3xi16, 1>
%l = memref.load %b[%i, %j] : memref<2x3xi16, 1>
%r = memref.atomic_rmw maxs %v, %b[%i, %j] : (i16, memref<2x3xi16, 1>) -> i16
%r2 = memref.atomic_rmw assign %v, %b[%i, %j] : (i16, memref<2x3xi16, 1>) -> i16
%d0 = memref.dim %m, %i : memref<?x?x4xi16, strided<[?, ?, 1], offset: ?>>
%base, %off, %sz:3, %st:3 = memref.extract_strided_metadata %m : memref<?x?x4xi16, strided<[?, ?, 1], offset: ?>> -> memref<i16>, index, index, index, index, index, index, index
%s = memref.subview %m[%i, 0, 1] [%j, 2, 3] [1, %i, 1] : memref<?x?x4xi16, strided<[?, ?, 1], offset: ?>> to memref<?x2x3xi16, strided<[?, ?, 1], offset: ?>>
%c = memref.cast %m : memref<?x?x4xi16, strided<[?, ?, 1], offset: ?>> to memref<*xi16>
%rk = memref.rank %c : memref<*xi16>
%d1 = memref.dim %c, %i : memref<*xi16>
memref.copy %c, %c : memref<*xi16> to memref<*xi16>
memref.dealloc %c : memref<*xi16>
%u = memref.reinterpret_cast %c to offset: [%i], sizes: [10, %j], strides: [%j, 1] : memref<*xi16> to memref<10x?xi16, strided<[?, 1], offset: ?>>
memref.prefetch %b[%i, %j], write, locality<0>, instr : memref<2x3xi16, 1>
%c16 = memref.memory_space_cast %b : memref<2x3xi16, 1> to memref<2x3xi16>
%t = memref.alloc() : memref<16xf32>
%t2 = memref.alloc(%j) : memref<?xf32>
%e = memref.expand_shape %t2 [[0, 1]] output_shape [%i, 4] : memref<?xf32> into memref<?x4xf32>
%e1 = memref.alloc() : memref<8xf32, strided<[1]>>
%e2 = memref.expand_shape %e1 [[0, 1]] output_shape [2, 4] : memref<8xf32, strided<[1]>> into memref<2x4xf32>
%e3 = memref.alloc() : memref<4x8xf32, strided<[8, 1]>>
%e4 = memref.expand_shape %e3 [[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32, strided<[8, 1]>> into memref<4x2x4xf32, strided<[8, 4, 1]>>
%e5 = memref.alloc() : memref<8xf32, strided<[0]>>
%e6 = memref.expand_shape %e5 [[0, 1]] output_shape [2, 4] : memref<8xf32, strided<[0]>> into memref<2x4xf32, strided<[0, 0]>>
%e7 = memref.alloc() : memref<8xf32, affine_map<(d0) -> (d0 * 2)>>
%e8 = memref.expand_shape %e7 [[0, 1]] output_shape [2, 4] : memref<8xf32, affine_map<(d0) -> (d0 * 2)>> into memref<2x4xf32, strided<[8, 2]>>
%e9 = memref.alloc() : memref<4x1xf32, strided<[8, 5]>>
%e10 = memref.collapse_shape %e9 [[0, 1]] : memref<4x1xf32, strided<[8, 5]>> into memref<4xf32, strided<[8]>>
%e11 = "test.v"() : () -> memref<4x?xf32, strided<[?, 1]>>
%e12 = memref.collapse_shape %e11 [[0, 1]] : memref<4x?xf32, strided<[?, 1]>> into memref<?xf32, strided<[?]>>
%e13 = memref.alloc(%j, %j) : memref<?x?xf32>
%e14 = memref.collapse_shape %e13 [[0, 1]] : memref<?x?xf32> into memref<?xf32>
%e15 = memref.alloc(%j)[%i, %j] : memref<4x?xf32, strided<[?, 1], offset: ?>>
%x = memref.extract_aligned_pointer_as_index %c : memref<*xi16> -> index
memref.dma_start %t[%i], %t[%j], %i, %b[%i, %j], %i, %j : memref<16xf32>, memref<16xf32>, memref<2x3xi16, 1>
