%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.broadcast' op source rank higher than destination rank}}
%b = vector.broadcast %v23 : vector<2x3xf32> to vector<3xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.broadcast' op dimension mismatch (4 vs. 3)}}
%b = vector.broadcast %v4 : vector<4xf32> to vector<2x3xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.broadcast' op failed to verify that source operand and result have same element type}}
%b = vector.broadcast %x : i32 to vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)}}
%e = vector.extract %v23[2] : vector<3xf32> from vector<2x3xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.extract' op expected position attribute of rank no greater than vector rank}}
%e = vector.extract %v23[0, 0, 0] : f32 from vector<2x3xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.insert' op expected position attribute #2 to be a non-negative integer smaller than the corresponding dest vector dimension}}
%e = vector.insert %f, %v23[0, 5] : f32 into vector<2x3xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.load' op requires 2 indices}}
%l = vector.load %m[%i] : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.store' op requires 2 indices}}
vector.store %v4, %m[%i] : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.maskedload' op base and result element type should match}}
%l = vector.maskedload %m[%i, %i], %mk, %vi : memref<8x8xf32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.maskedload' op expected result shape to match mask shape}}
%l = vector.maskedload %m[%i, %i], %mk, %v4 : memref<8x8xf32>, vector<4xi1>, vector<4xf32> into vector<8xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.maskedstore' op base and valueToStore element type should match}}
vector.maskedstore %m[%i, %i], %mk, %vi : memref<8x8xf32>, vector<4xi1>, vector<4xi32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.reduction' op unsupported reduction rank: 2}}
%r = vector.reduction <add>, %v23 : vector<2x3xf32> into f32
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.reduction' op failed to verify that source operand and result have same element type}}
%r = vector.reduction <add>, %v4 : vector<4xf32> into i32
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.reduction' op unsupported reduction type ''f32'' for kind 'xor'}}
%r = vector.reduction <xor>, %v4 : vector<4xf32> into f32
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.reduction' op unsupported reduction type ''i32'' for kind 'maxnumf'}}
%r = vector.reduction <maxnumf>, %vi : vector<4xi32> into i32
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
// expected-note @+1 {{prior use here}}
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{use of value '%v23' expects different type than prior uses: 'vector<4xf32>' vs 'vector<2x3xf32>'}}
%r = vector.fma %v4, %v4, %v23 : vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.shuffle' op rank mismatch}}
%s = vector.shuffle %v4, %v23 [0] : vector<4xf32>, vector<2x3xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.shuffle' op mask index #2 out of range}}
%s = vector.shuffle %v4, %v4 [0, 9] : vector<4xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.bitcast' op source/result bitwidth of the minor 1-D vectors must be equal}}
%b = vector.bitcast %v4 : vector<4xf32> to vector<3xf16>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.shape_cast' op has different number of elements at source (6) and result (5)}}
%s = vector.shape_cast %v23 : vector<2x3xf32> to vector<5xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.shape_cast' op has different source and result element types}}
%s = vector.shape_cast %v23 : vector<2x3xf32> to vector<6xi32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.constant_mask' op must specify array attr of size equal vector result rank}}
%c = vector.constant_mask [2] : vector<4x5xi1>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.constant_mask' op array attr of size out of bounds of vector result dimension size}}
%c = vector.constant_mask [2, 7] : vector<4x5xi1>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.create_mask' op must specify an operand for each result vector dimension}}
%c = vector.create_mask %i : vector<4x5xi1>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.transfer_read' op requires 2 indices}}
%t = vector.transfer_read %m[%i], %f : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.transfer_read' op requires a permutation_map with input dims of the same rank as the source type}}
%t = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.transfer_read' op expects the in_bounds attr of same rank as permutation_map results: affine_map<(d0, d1) -> (d1)> vs inBounds of size: 2}}
%t = vector.transfer_read %m[%i, %i], %f {in_bounds = [true, false]} : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
// expected-note @+1 {{prior use here}}
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{use of value '%x' expects different type than prior uses: 'f32' vs 'i32'}}
%t = vector.transfer_read %m[%i, %i], %x : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
// expected-error @+1 {{'vector.transfer_write' op requires 2 indices}}
vector.transfer_write %v4, %m[%i] : vector<4xf32>, memref<8x8xf32>
// -----
%v23 = "test.v"() : () -> vector<2x3xf32>
// expected-error @+1 {{'vector.transpose' op dimension size mismatch at: 0}}
%t = vector.transpose %v23, [0, 1] : vector<2x3xf32> to vector<3x2xf32>
// -----
%v23 = "test.v"() : () -> vector<2x3xf32>
// expected-error @+1 {{'vector.transpose' op transposition length mismatch: 1}}
%t = vector.transpose %v23, [0] : vector<2x3xf32> to vector<2x3xf32>
// -----
%v23 = "test.v"() : () -> vector<2x3xf32>
// expected-error @+1 {{'vector.transpose' op duplicate position index: 0}}
%t = vector.transpose %v23, [0, 0] : vector<2x3xf32> to vector<2x2xf32>
// -----
%v = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.step' op result #0 must be vector of index values of ranks 1, but got 'vector<4xi32>'}}
%t = vector.step : vector<4xi32>
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%v8 = "test.v"() : () -> vector<8xf32>
// expected-note @+1 {{prior use here}}
%a = "test.v"() : () -> vector<8x4xf32>
// expected-error @+1 {{use of value '%a' expects different type than prior uses: 'vector<4x8xf32>' vs 'vector<8x4xf32>'}}
%o2 = vector.outerproduct %v4, %v8, %a : vector<4xf32>, vector<8xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%m = "test.v"() : () -> memref<8x8xf32>
// expected-error @+1 {{'vector.transfer_read' op requires a projected permutation_map (at most one dim or the zero constant can appear in each result)}}
%t = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d0 + d1)>} : memref<8x8xf32>, vector<4xf32>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%m = "test.v"() : () -> memref<8x8xf32>
// expected-error @+1 {{'vector.transfer_read' op requires a permutation_map that is a permutation (found one dim used more than once)}}
%t = vector.transfer_read %m[%i, %i], %f {permutation_map = affine_map<(d0, d1) -> (d0, d0)>} : memref<8x8xf32>, vector<4x4xf32>
// -----
%v45 = "test.v"() : () -> vector<4x5xf32>
%v5 = "test.v"() : () -> vector<5xf32>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.contract' op expected indexing map 0 to be a projected permutation of its inputs}}
%c = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %v45, %v5, %v4 : vector<4x5xf32>, vector<5xf32> into vector<4xf32>
// -----
%v45 = "test.v"() : () -> vector<4x5xf32>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.contract' op expected at least one contracting dimension pair}}
%c = vector.contract {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"], kind = #vector.kind<add>} %v45, %v4, %v4 : vector<4x5xf32>, vector<4xf32> into vector<4xf32>
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects a MaskableOpInterface within the mask region}}
%r = vector.mask %mk { arith.addf %v4, %v4 : vector<4xf32> } : vector<4xi1> -> vector<4xf32>
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%mk8 = "test.v"() : () -> vector<8xi1>
// expected-error @+1 {{'vector.mask' op expects a 'vector<4xi1>' mask for the maskable operation}}
%r = vector.mask %mk8 { vector.reduction <add>, %v4 : vector<4xf32> into f32 } : vector<8xi1> -> f32
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects result type to match maskable operation result type}}
%r = vector.mask %mk { vector.reduction <add>, %v4 : vector<4xf32> into f32 } : vector<4xi1> -> vector<4xf32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%y = "test.v"() : () -> vector<2xf32>
// expected-error @+1 {{'vector.scan' op reduction dimension 2 has to be less than 2}}
%a:2 = vector.scan <add>, %x, %y {inclusive = true, reduction_dim = 2} : vector<3x2xf32>, vector<2xf32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
// expected-error @+1 {{'vector.scan' op initial value rank 2 has to be equal to 1}}
%a:2 = vector.scan <add>, %x, %x {inclusive = true, reduction_dim = 0} : vector<3x2xf32>, vector<3x2xf32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%w = "test.v"() : () -> vector<3xf32>
// expected-error @+1 {{'vector.scan' op incompatible input/initial value shapes}}
%a:2 = vector.scan <add>, %x, %w {inclusive = true, reduction_dim = 0} : vector<3x2xf32>, vector<3xf32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%y = "test.v"() : () -> vector<2xf32>
// expected-error @+1 {{'vector.scan' op unsupported reduction type 'f32' for kind 'xor'}}
%a:2 = vector.scan <xor>, %x, %y {inclusive = true, reduction_dim = 0} : vector<3x2xf32>, vector<2xf32>
// -----
%i = "test.v"() : () -> vector<4xi32>
%j = "test.v"() : () -> vector<i32>
// expected-error @+1 {{'vector.scan' op unsupported reduction type 'i32' for kind 'minimumf'}}
%a:2 = vector.scan <minimumf>, %i, %j {inclusive = true, reduction_dim = 0} : vector<4xi32>, vector<i32>
// -----
%j = "test.v"() : () -> vector<i32>
// expected-error @+1 {{'vector.scan' op operand #0 must be vector of any type values, but got 'vector<i32>'}}
%a:2 = vector.scan <add>, %j, %j {inclusive = true, reduction_dim = 0} : vector<i32>, vector<i32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%y = "test.v"() : () -> vector<2xf32>
// expected-error @+1 {{'vector.scan' op requires attribute 'inclusive'}}
%a:2 = vector.scan <add>, %x, %y : vector<3x2xf32>, vector<2xf32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%y = "test.v"() : () -> vector<2xf32>
// expected-error @+1 {{custom op 'vector.scan' 'vector.scan' op attribute 'inclusive' failed to satisfy constraint: bool attribute}}
%a:2 = vector.scan <add>, %x, %y {inclusive = 1, reduction_dim = 0} : vector<3x2xf32>, vector<2xf32>
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%s = "test.v"() : () -> f32
// expected-error @+1 {{custom op 'vector.scan' invalid kind of type specified: expected builtin.vector, but found 'f32'}}
%a:2 = vector.scan <add>, %x, %s {inclusive = true, reduction_dim = 0} : vector<3x2xf32>, f32
// -----
%x = "test.v"() : () -> vector<3x2xf32>
%y = "test.v"() : () -> vector<2xf32>
// expected-error @+1 {{'vector.scan' op failed to verify that all of {initial_value, accumulated_value} have same type}}
%a:2 = "vector.scan"(%x, %y) <{inclusive = true, kind = #vector.kind<add>, reduction_dim = 0 : i64}> : (vector<3x2xf32>, vector<2xf32>) -> (vector<3x2xf32>, vector<3xf32>)
// -----
%m = "test.v"() : () -> memref<5x4x3xf32>
// expected-error @+1 {{'vector.type_cast' op expects concatenated result and operand shapes to be equal: 'memref<vector<5x4xf32>>'}}
%0 = vector.type_cast %m : memref<5x4x3xf32> to memref<vector<5x4xf32>>
// -----
%m = "test.v"() : () -> memref<5x4x3xf32>
// expected-error @+1 {{'vector.type_cast' op expects result and operand with same underlying scalar type: 'memref<vector<5x4x3xf64>>'}}
%0 = vector.type_cast %m : memref<5x4x3xf32> to memref<vector<5x4x3xf64>>
// -----
%d = "test.v"() : () -> memref<?x4xf32>
// expected-error @+1 {{'vector.type_cast' op operand #0 must be statically shaped memref of any type values, but got 'memref<?x4xf32>'}}
%0 = vector.type_cast %d : memref<?x4xf32> to memref<vector<2x4xf32>>
// -----
%s = "test.v"() : () -> memref<5x4xf32, strided<[8, 1]>>
// expected-error @+1 {{'vector.type_cast' op expects operand to be a memref with identity layout}}
%0 = vector.type_cast %s : memref<5x4xf32, strided<[8, 1]>> to memref<vector<5x4xf32>>
// -----
%g = "test.v"() : () -> memref<5x4xf32, 3>
// expected-error @+1 {{'vector.type_cast' op expects result in same memory space}}
%0 = vector.type_cast %g : memref<5x4xf32, 3> to memref<vector<5x4xf32>>
// -----
%i = "test.v"() : () -> memref<4xi32>
// expected-error @+1 {{'vector.type_cast' op expects result to be a memref with identity layout}}
%0 = vector.type_cast %i : memref<4xi32> to memref<vector<4xi32>, strided<[], offset: 3>>
// -----
%i = "test.v"() : () -> memref<4xi32>
// expected-error @+1 {{custom op 'vector.type_cast' invalid kind of type specified: expected builtin.memref, but found 'vector<4xi32>'}}
%0 = vector.type_cast %i : memref<4xi32> to vector<4xi32>
// -----
%n = "test.v"() : () -> memref<4xf32>
%i = "test.v"() : () -> index
// expected-error @+1 {{'vector.load' op base and result element types should match}}
%0 = vector.load %n[%i] : memref<4xf32>, vector<4xi32>
// -----
%m = "test.v"() : () -> memref<4xvector<8xf32>>
%w = "test.v"() : () -> vector<4xf32>
%i = "test.v"() : () -> index
// expected-error @+1 {{'vector.store' op base memref and valueToStore vector types should match}}
vector.store %w, %m[%i] : memref<4xvector<8xf32>>, vector<4xf32>
// -----
%s = "test.v"() : () -> memref<4x4xf32, strided<[4, 2]>>
%i = "test.v"() : () -> index
// expected-error @+1 {{'vector.load' op most minor memref dim must have unit stride}}
%0 = vector.load %s[%i, %i] : memref<4x4xf32, strided<[4, 2]>>, vector<4xf32>
// -----
%f = "test.v"() : () -> f32
// expected-error @+1 {{'vector.print' op failed to verify that `source` or `punctuation` are not set when printing strings}}
vector.print %f : f32 str "x"
// -----
%v = "test.v"() : () -> vector<2x3xf32>
%b = "test.v"() : () -> vector<2xf32>
// expected-error @+1 {{'vector.multi_reduction' op destination type 'vector<2xf32>' is incompatible with source type 'vector<2x3xf32>'}}
%0 = vector.multi_reduction <add>, %v, %b [0] : vector<2x3xf32> to vector<2xf32>
// -----
%v = "test.v"() : () -> vector<2x3xf32>
%a = "test.v"() : () -> vector<3xf32>
// expected-error @+1 {{custom op 'vector.multi_reduction' 'vector.multi_reduction' op attribute 'reduction_dims' failed to satisfy constraint: i64 dense array attribute}}
%0 = vector.multi_reduction <add>, %v, %a {reduction_dims = 1} [0] : vector<2x3xf32> to vector<3xf32>
// -----
%v = "test.v"() : () -> vector<2x3xf32>
%a = "test.v"() : () -> vector<3xf32>
// expected-error @+1 {{'vector.multi_reduction' op destination type 'vector<3xf32>' is incompatible with source type 'vector<2x3xf32>'}}
%0 = vector.multi_reduction <add>, %v, %a {reduction_dims = array<i64: 1>} [0] : vector<2x3xf32> to vector<3xf32>
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%f = "test.v"() : () -> f32
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op doesn't expect a passthru argument for this maskable operation}}
%r = vector.mask %mk, %f { vector.reduction <add>, %v4 : vector<4xf32> into f32 } : vector<4xi1> -> f32
// -----
%m = "test.v"() : () -> memref<16xf32>
%i = "test.v"() : () -> index
%ix = "test.v"() : () -> vector<4xindex>
%v4 = "test.v"() : () -> vector<4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op doesn't expect a passthru argument for this maskable operation}}
%g = vector.mask %mk, %v4 { vector.gather %m[%i][%ix], %mk, %v4 : memref<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
// -----
%m = "test.v"() : () -> memref<16xf32>
%i = "test.v"() : () -> index
%ix = "test.v"() : () -> vector<4xindex>
%v4 = "test.v"() : () -> vector<4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects a MaskableOpInterface within the mask region}}
vector.mask %mk { vector.scatter %m[%i][%ix], %mk, %v4 : memref<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> } : vector<4xi1>
// -----
%m = "test.v"() : () -> memref<16xf32>
%i = "test.v"() : () -> index
%v4 = "test.v"() : () -> vector<4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects a MaskableOpInterface within the mask region}}
%e = vector.mask %mk { vector.expandload %m[%i], %mk, %v4 : memref<16xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
// -----
%m = "test.v"() : () -> memref<16xf32>
%i = "test.v"() : () -> index
%v4 = "test.v"() : () -> vector<4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects a MaskableOpInterface within the mask region}}
vector.mask %mk { vector.compressstore %m[%i], %mk, %v4 : memref<16xf32>, vector<4xi1>, vector<4xf32> } : vector<4xi1>
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%s = "test.v"() : () -> vector<f32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects a MaskableOpInterface within the mask region}}
%r:2 = vector.mask %mk { vector.scan <add>, %v4, %s {inclusive = true, reduction_dim = 0} : vector<4xf32>, vector<f32> } : vector<4xi1> -> (vector<4xf32>, vector<f32>)
// -----
%v4 = "test.v"() : () -> vector<4xf32>
%a = "test.v"() : () -> vector<4x4xf32>
%mk = "test.v"() : () -> vector<4xi1>
// expected-error @+1 {{'vector.mask' op expects a 'vector<4x4xi1>' mask for the maskable operation}}
%o = vector.mask %mk { vector.outerproduct %v4, %v4, %a : vector<4xf32>, vector<4xf32> } : vector<4xi1> -> vector<4x4xf32>
// -----
%mv = "test.v"() : () -> memref<?xvector<4xf32>>
%i = "test.v"() : () -> index
%pad = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.transfer_read' op requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the minor 1-D vector of the source}}
%r = vector.transfer_read %mv[%i], %pad : memref<?xvector<4xf32>>, vector<2x2xf32>
// -----
%mv = "test.v"() : () -> memref<?xvector<4xf32>>
%i = "test.v"() : () -> index
%pad = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{custom op 'vector.transfer_read' expected a custom permutation_map when rank(source) != rank(destination)}}
%r = vector.transfer_read %mv[%i], %pad : memref<?xvector<4xf32>>, vector<3x2x4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%v = "test.v"() : () -> vector<2x4xf32>
// expected-error @+1 {{custom op 'vector.transfer_write' expected a custom permutation_map when rank(source) != rank(destination)}}
vector.transfer_write %v, %m[%i] : vector<2x4xf32>, memref<8xf32>
// -----
%mv = "test.v"() : () -> memref<?xvector<4xf32>>
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
// expected-error @+1 {{'vector.transfer_read' op requires source element type and padding type to match.}}
%r = "vector.transfer_read"(%mv, %i, %f) <{in_bounds = [false], operandSegmentSizes = array<i32: 1, 1, 1, 0>, permutation_map = affine_map<(d0) -> (d0)>}> : (memref<?xvector<4xf32>>, index, f32) -> vector<2x4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
// expected-error @+1 {{'vector.transfer_read' op requires the bitwidth of the minor 1-D vector to be an integral multiple of the bitwidth of the source element type}}
%r = vector.transfer_read %m[%i], %f : memref<8xf32>, vector<3xi8>
// -----
%m = "test.v"() : () -> memref<8x8xf32>
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%mk = "test.v"() : () -> vector<4x2xi1>
// expected-error @+1 {{'vector.transfer_read' op inferred mask type ('vector<2x4xi1>') and mask operand type ('vector<4x2xi1>') don't match}}
%r = "vector.transfer_read"(%m, %i, %i, %f, %mk) <{in_bounds = [false, false], operandSegmentSizes = array<i32: 1, 2, 1, 1>, permutation_map = affine_map<(d0, d1) -> (d1, d0)>}> : (memref<8x8xf32>, index, index, f32, vector<4x2xi1>) -> vector<4x2xf32>
// -----
%m = "test.v"() : () -> memref<8x8xf32>
%i = "test.v"() : () -> index
%v = "test.v"() : () -> vector<2x4xf32>
// expected-error @+1 {{'vector.transfer_write' op should not have broadcast dimensions}}
vector.transfer_write %v, %m[%i, %i] {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : vector<2x4xf32>, memref<8x8xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%ix = "test.v"() : () -> vector<4xindex>
%mk = "test.v"() : () -> vector<4xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.gather' op base and result element type should match}}
%g = vector.gather %m[%i][%ix], %mk, %v4 : memref<8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xi32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%ix = "test.v"() : () -> vector<8xindex>
%mk = "test.v"() : () -> vector<4xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.gather' op expected result dim to match indices dim}}
%g = vector.gather %m[%i][%ix], %mk, %v4 : memref<8xf32>, vector<8xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%ix = "test.v"() : () -> vector<4xindex>
%mk = "test.v"() : () -> vector<8xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.scatter' op expected valueToStore dim to match mask dim}}
vector.scatter %m[%i][%ix], %mk, %v4 : memref<8xf32>, vector<4xindex>, vector<8xi1>, vector<4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%ix = "test.v"() : () -> vector<4xindex>
%mk = "test.v"() : () -> vector<4xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.scatter' op requires 1 indices}}
vector.scatter %m[%i, %i][%ix], %mk, %v4 : memref<8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
// -----
%m = "test.v"() : () -> memref<?xvector<4xf32>>
%i = "test.v"() : () -> index
%mk = "test.v"() : () -> vector<4xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.expandload' op base and result element type should match}}
%e = vector.expandload %m[%i], %mk, %v4 : memref<?xvector<4xf32>>, vector<4xi1>, vector<4xf32> into vector<4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%mk = "test.v"() : () -> vector<4xi1>
%v8 = "test.v"() : () -> vector<8xf32>
// expected-error @+1 {{'vector.expandload' op expected pass_thru of same type as result type}}
%e = vector.expandload %m[%i], %mk, %v8 : memref<8xf32>, vector<4xi1>, vector<8xf32> into vector<4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%mk = "test.v"() : () -> vector<8xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{'vector.compressstore' op expected valueToStore dim to match mask dim}}
vector.compressstore %m[%i], %mk, %v4 : memref<8xf32>, vector<8xi1>, vector<4xf32>
// -----
%m = "test.v"() : () -> memref<8xf32>
%i = "test.v"() : () -> index
%mk = "test.v"() : () -> vector<4xi1>
%v4 = "test.v"() : () -> vector<4xf32>
// expected-error @+1 {{custom op 'vector.compressstore' 'vector.compressstore' op attribute 'alignment' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive and whose value is a power of two > 0}}
vector.compressstore %m[%i], %mk, %v4 {alignment = 6} : memref<8xf32>, vector<4xi1>, vector<4xf32>
