%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 1, expected 0}}
%a = memref.alloc(%i) : memref<4xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.alloc' op incorrect number of dynamic sizes, has 0, expected 1}}
%a = memref.alloc() : memref<?xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 0, got 1}}
%a = memref.alloc()[%i] : memref<4xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.alloc' op result #0 must be memref of any type values, but got 'tensor<4xf32>'}}
%a = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> tensor<4xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.load' op incorrect number of indices for load, expected 2 but got 1}}
%l = memref.load %m[%i] : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.store' op store index operand count not equal to memref rank}}
memref.store %f, %m[%i] : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.load' op failed to verify that result type matches element type of 'memref'}}
%l = "memref.load"(%m, %i, %i) : (memref<4x8xf32>, index, index) -> i32
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
// expected-note @+1 {{prior use here}}
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{use of value '%x' expects different type than prior uses: 'f32' vs 'i32'}}
memref.store %x, %m[%i, %i] : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.cast' op operand type 'memref<4x8xf32>' and result type 'memref<4x4xf32>' are cast incompatible}}
%c = memref.cast %m : memref<4x8xf32> to memref<4x4xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.cast' op operand type 'memref<4x8xf32>' and result type 'memref<?x?xi32>' are cast incompatible}}
%c = memref.cast %m : memref<4x8xf32> to memref<?x?xi32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.cast' op operand type 'memref<*xf32>' and result type 'memref<*xf32>' are cast incompatible}}
%c = memref.cast %u : memref<*xf32> to memref<*xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.cast' op operand type 'memref<4x8xf32>' and result type 'memref<8xf32>' are cast incompatible}}
%c = memref.cast %m : memref<4x8xf32> to memref<8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.atomic_rmw' op failed to verify that value type matches element type of memref}}
%r = memref.atomic_rmw addf %x, %m[%i, %i] : (i32, memref<4x8xf32>) -> i32
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.atomic_rmw' op with kind 'addi' expects an integer type}}
%r = memref.atomic_rmw addi %f, %m[%i, %i] : (f32, memref<4x8xf32>) -> f32
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.atomic_rmw' op expects the number of subscripts to be equal to memref rank}}
%r = memref.atomic_rmw addf %f, %m[%i] : (f32, memref<4x8xf32>) -> f32
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.generic_atomic_rmw' op expected single number of entry block arguments}}
%g = memref.generic_atomic_rmw %m[%i, %i] : memref<4x8xf32> {
^bb0(%cur: f32, %b: f32):
  memref.atomic_yield %cur : f32
}
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
%g = memref.generic_atomic_rmw %m[%i, %i] : memref<4x8xf32> {
^bb0(%cur: f32):
// expected-error @+1 {{'memref.atomic_yield' op types mismatch between yield op: 'i32' and its parent: 'f32'}}
  memref.atomic_yield %x : i32
}
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.atomic_yield' op expects parent op 'memref.generic_atomic_rmw'}}
memref.atomic_yield %f : f32
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{unnecessary dimension operand for result type 'memref<4xf32>'}}
%r = memref.realloc %d(%i) : memref<?xf32> to memref<4xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{missing dimension operand for result type 'memref<?xf32>'}}
%r = memref.realloc %d : memref<?xf32> to memref<?xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{different element types specified for source memref type 'memref<?xf32>' and result memref type 'memref<4xi32>'}}
%r = memref.realloc %d : memref<?xf32> to memref<4xi32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.assume_alignment' op alignment must be power of 2}}
%a = memref.assume_alignment %m, 3 : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.get_global' op 'nope' does not reference a valid global memref}}
%g = memref.get_global @nope : memref<4xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.view' op operand #0 must be 1D memref of 8-bit signless integer values, but got 'memref<4x8xf32>'}}
%v = memref.view %m[%i][] : memref<4x8xf32> to memref<?xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.prefetch' op too few indices}}
memref.prefetch %m[%i], read, locality<3>, data : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.prefetch' op attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
memref.prefetch %m[%i, %i], read, locality<5>, data : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.dma_wait' op expected tagIndices to have the same number of elements as the tagMemRef rank, expected 2, but got 1}}
memref.dma_wait %m[%i], %i : memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{expected 2 offset values, got 1}}
%s = memref.subview %m[0] [2] [1] : memref<4x8xf32> to memref<2xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op collapsed dim size (8) must equal reassociation group size (9)}}
%e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 2, 9] : memref<4x8xf32> into memref<2x2x9xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.collapse_shape' op invalid number of reassociation groups: found 2, expected 1}}
%e = memref.collapse_shape %m [[0], [1]] : memref<4x8xf32> into memref<32xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{expected 2 size values, got 1}}
%r = memref.reinterpret_cast %m to offset: [0], sizes: [4], strides: [1] : memref<4x8xf32> to memref<4x8xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.reshape' op operand #1 must be 1D memref of signless integer or index values, but got 'memref<?xf32>'}}
%r = memref.reshape %m(%d) : (memref<4x8xf32>, memref<?xf32>) -> memref<32xf32>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{operation defines 4 results but was provided 1 to bind}}
%p = memref.extract_strided_metadata %m : memref<4x8xf32> -> memref<f32>, index, index, index
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.memory_space_cast' op operand type 'memref<4x8xf32>' and result type 'memref<4x4xf32, 1>' are cast incompatible}}
%c = memref.memory_space_cast %m : memref<4x8xf32> to memref<4x4xf32, 1>
}
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%m = "test.v"() : () -> memref<4x8xf32>
%u = "test.v"() : () -> memref<*xf32>
%d = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
memref.copy %m, %d : memref<4x8xf32> to memref<?xf32>
}
// expected-error @+1 {{custom op 'memref.global' type should be static shaped memref, but got 'memref<?xf32>'}}
memref.global @g0 : memref<?xf32>
// -----
// expected-error @+1 {{inferred shape of elements literal ([2]) does not match type ([4])}}
memref.global @g1 : memref<4xf32> = dense<[1.0, 2.0]>
// -----
// expected-error @+1 {{custom op 'memref.global' type should be static shaped memref, but got 'tensor<4xf32>'}}
memref.global "private" @g2 : tensor<4xf32>
// -----
memref.global "private" @g3 : memref<4xf32>
// expected-error @+1 {{'memref.get_global' op result type 'memref<8xf32>' does not match type 'memref<4xf32>' of the global memref @g3}}
%g = memref.get_global @g3 : memref<8xf32>
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32>
%d = "test.v"() : () -> memref<?x?xf32, strided<[?, 1], offset: ?>>
// expected-error @+1 {{expected result type to be 'memref<2x2xf32, strided<[8, 1]>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x2xf32>'}}
%s = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x8xf32> to memref<2x2xf32>
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{expected result type to be 'memref<2x3xf32, strided<[8, 1], offset: 10>>' or a rank-reduced version. (mismatch of result sizes), but got 'memref<2x4xf32, strided<[8, 1], offset: 10>>'}}
%s = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 10>>
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{expected result type to be 'memref<2x3xf32, strided<[16, 1], offset: 10>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<2x3xf32, strided<[8, 1], offset: 10>>'}}
%s = memref.subview %m[1, 2] [2, 3] [2, 1] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 1], offset: 10>>
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{expected result element type to be 'f32', but got 'memref<2x3xi32, strided<[8, 1], offset: 10>>'}}
%s = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x3xi32, strided<[8, 1], offset: 10>>
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{different memory spaces specified for base memref type 'memref<4x8xf32>' and subview memref type 'memref<2x3xf32, strided<[8, 1], offset: 10>, 1>'}}
%s = memref.subview %m[1, 2] [2, 3] [1, 1] : memref<4x8xf32> to memref<2x3xf32, strided<[8, 1], offset: 10>, 1>
// -----
%i = "test.v"() : () -> index
%d = "test.v"() : () -> memref<?x?xf32, strided<[?, 1], offset: ?>>
// expected-error @+1 {{expected result type to be 'memref<?x3xf32, strided<[?, ?], offset: ?>>' or a rank-reduced version. (mismatch of result layout), but got 'memref<?x3xf32, strided<[?, 1], offset: ?>>'}}
%s = memref.subview %d[%i, 2] [%i, 3] [1, %i] : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x3xf32, strided<[?, 1], offset: ?>>
// -----
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{'memref.transpose' op result type 'memref<8x4xf32>' is not equivalent to the canonical transposed input type 'memref<4x8xf32>'}}
%t = memref.transpose %m (d0, d1) -> (d0, d1) : memref<4x8xf32> to memref<8x4xf32>
// -----
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{'memref.transpose' op result type 'memref<8x4xf32>' is not equivalent to the canonical transposed input type 'memref<8x4xf32, affine_map<(d0, d1) -> (d0 + d1 * 8)>>'}}
%t = memref.transpose %m (d0, d1) -> (d1, d0) : memref<4x8xf32> to memref<8x4xf32>
// -----
%m = "test.v"() : () -> memref<4x8xf32>
// expected-error @+1 {{'memref.transpose' op expected a permutation map}}
%t = memref.transpose %m (d0, d1) -> (d1, d1) : memref<4x8xf32> to memref<8x4xf32>
// -----
%m = "test.v"() : () -> memref<?x8x?xf32, strided<[?, ?, 1], offset: ?>>
// expected-error @+1 {{'memref.transpose' op result type 'memref<?x?x8xf32>' is not equivalent to the canonical transposed input type 'memref<?x?x8xf32, affine_map<(d0, d1, d2)[s0, s1, s2] -> (d0 + s0 + d1 * s1 + d2 * s2)>>'}}
%t = memref.transpose %m (d0, d1, d2) -> (d2, d0, d1) : memref<?x8x?xf32, strided<[?, ?, 1], offset: ?>> to memref<?x?x8xf32>
// -----
%m = "test.v"() : () -> memref<4x8x2xf32>
// expected-error @+1 {{'memref.transpose' op result type 'memref<2x4x8xf32>' is not equivalent to the canonical transposed input type 'memref<2x4x8xf32, affine_map<(d0, d1, d2) -> (d0 + d1 * 16 + d2 * 2)>>'}}
%t = memref.transpose %m (d0, d1, d2) -> (d2, d0, d1) : memref<4x8x2xf32> to memref<2x4x8xf32>
// -----
memref.alloca_scope {
// expected-error @+1 {{'memref.alloc' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
%a = "memref.alloc"() <{alignment = 3 : i64, operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<4xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op mismatch in dynamic dims in output_shape and static_output_shape: static_output_shape has 0 dynamic dims while output_shape has 1 values}}
%e = "memref.expand_shape"(%m, %i) <{reassociation = [[0, 1]], static_output_shape = array<i64: 1, 4>}> : (memref<?xf32>, index) -> memref<?x4xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op expected number of static shape bounds to be equal to the output rank (2) but found 3 inputs instead}}
%e = "memref.expand_shape"(%m, %i) <{reassociation = [[0, 1]], static_output_shape = array<i64: 1, 2, 3>}> : (memref<?xf32>, index) -> memref<?x4xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op invalid output shape provided at pos 1}}
%e = memref.expand_shape %m [[0, 1]] output_shape [%i, 5] : memref<?xf32> into memref<?x4xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<8x?xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<8x?xf32>' but found 'memref<8x?xf32, strided<[3, 1]>>'}}
%e = memref.expand_shape %m [[0], [1]] output_shape [8, %i] : memref<8x?xf32> into memref<8x?xf32, strided<[3, 1]>>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<8x4xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op has source rank 2 and result rank 1. This is not an expansion (2 > 1).}}
%e = "memref.expand_shape"(%m) <{reassociation = [[0, 1]], static_output_shape = array<i64: 8, 4>}> : (memref<8x4xf32>) -> memref<32xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32, strided<[8, 1]>>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<4x2x4xf32, strided<[8, 4, 1]>>' but found 'memref<4x2x4xf32>'}}
%e = memref.expand_shape %m [[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32, strided<[8, 1]>> into memref<4x2x4xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op operand #0 must be strided memref of any type values, but got 'memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>'}}
%e = memref.expand_shape %m [[0, 1]] output_shape [2, 4] : memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>> into memref<2x4xf32, strided<[8, 2]>>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<8xf32, 3>
memref.alloca_scope {
// expected-error @+1 {{'memref.expand_shape' op expected expanded type to be 'memref<2x4xf32, 3>' but found 'memref<2x4xf32>'}}
%e = memref.expand_shape %m [[0, 1]] output_shape [2, 4] : memref<8xf32, 3> into memref<2x4xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32, strided<[16, 1]>>
memref.alloca_scope {
// expected-error @+1 {{'memref.collapse_shape' op invalid source layout map or collapsing non-contiguous dims}}
%e = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32, strided<[16, 1]>> into memref<32xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<4x8xf32, strided<[8, 1], offset: 3>>
memref.alloca_scope {
// expected-error @+1 {{'memref.collapse_shape' op expected collapsed type to be 'memref<32xf32, strided<[1], offset: 3>>' but found 'memref<32xf32>'}}
%e = memref.collapse_shape %m [[0, 1]] : memref<4x8xf32, strided<[8, 1], offset: 3>> into memref<32xf32>
}
// -----
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<2x3xf32>
memref.alloca_scope {
// expected-error @+1 {{'memref.collapse_shape' op has source rank 2 and result rank 3. This is not a collapse (2 < 3).}}
%e = memref.collapse_shape %m [[0, 1]] : memref<2x3xf32> into memref<2x3x1xf32>
}
// -----
%i = "test.v"() : () -> index
memref.alloca_scope {
// expected-error @+1 {{'memref.alloc' op symbol operand count does not equal memref symbol count: expected 1, got 0}}
%e = memref.alloc(%i) : memref<4x?xf32, strided<[?, 1]>>
}
// -----
%i = "test.v"() : () -> index
memref.alloca_scope {
// expected-error @+1 {{'memref.alloca' op symbol operand count does not equal memref symbol count: expected 2, got 1}}
%e = memref.alloca()[%i] : memref<4x8xf32, strided<[?, 1], offset: ?>>
}
