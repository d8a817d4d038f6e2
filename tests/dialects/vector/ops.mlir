%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%x = "test.v"() : () -> i32
%v4 = "test.v"() : () -> vector<4xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%vi = "test.v"() : () -> vector<4xi32>
%b = vector.broadcast %f : f32 to vector<4xf32>
%b2 = vector.broadcast %v4 : vector<4xf32> to vector<2x4xf32>
%e = vector.extract %v23[1, 2] : f32 from vector<2x3xf32>
%e2 = vector.extract %v23[%i] : vector<3xf32> from vector<2x3xf32>
%in = vector.insert %f, %v23[1, %i] : f32 into vector<2x3xf32>
%fe = vector.from_elements %f, %f, %f, %f : vector<4xf32>
%ld = vector.load %m[%i, %i] : memref<8x8xf32>, vector<4xf32>
vector.store %v4, %m[%i, %i] : memref<8x8xf32>, vector<4xf32>
%ml = vector.maskedload %m[%i, %i], %mk, %v4 : memref<8x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
vector.maskedstore %m[%i, %i], %mk, %v4 : memref<8x8xf32>, vector<4xi1>, vector<4xf32>
%r = vector.reduction <add>, %v4 : vector<4xf32> into f32
%r2 = vector.reduction <maxnumf>, %v4, %f : vector<4xf32> into f32
%r3 = vector.reduction <add>, %v4, %f fastmath<fast> : vector<4xf32> into f32
%r4 = vector.reduction <xor>, %vi : vector<4xi32> into i32
%fm = vector.fma %v4, %v4, %v4 : vector<4xf32>
%sh = vector.shuffle %v4, %v4 [0, 5, 2, 7] : vector<4xf32>, vector<4xf32>
%bc = vector.bitcast %v4 : vector<4xf32> to vector<8xf16>
%sc = vector.shape_cast %v23 : vector<2x3xf32> to vector<6xf32>
%cm = vector.constant_mask [2, 3] : vector<4x5xi1>
%cr = vector.create_mask %i, %i : vector<4x5xi1>
%tr = vector.transfer_read %m[%i, %i], %f : memref<8x8xf32>, vector<4xf32>
%tr2 = vector.transfer_read %m[%i, %i], %f, %mk {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32>, vector<4xf32>
vector.transfer_write %v4, %m[%i, %i] : vector<4xf32>, memref<8x8xf32>
vector.transfer_write %v4, %m[%i, %i], %mk {in_bounds = [false], permutation_map = affine_map<(d0, d1) -> (d0)>} : vector<4xf32>, memref<8x8xf32>
// -----
%i = "test.v"() : () -> index
%h = "test.v"() : () -> f16
%t = "test.v"() : () -> tensor<4x8x16xf16>
%m = "test.v"() : () -> memref<?x8xi8, 1>
%w = "test.v"() : () -> vector<8x4xf16>
%k = "test.v"() : () -> vector<4x8xi1>
%z = "test.v"() : () -> vector<f16>
%z2 = "test.v"() : () -> vector<32xf16>
%s = "test.v"() : () -> vector<[4]xi8>
%r = vector.transfer_read %t[%i, %i, %i], %h, %k {in_bounds = [true, false], permutation_map = affine_map<(d0, d1, d2) -> (d2, d0)>} : tensor<4x8x16xf16>, vector<8x4xf16>
%t2 = vector.transfer_write %w, %t[%i, %i, %i] {permutation_map = affine_map<(d0, d1, d2) -> (d1, d0)>} : vector<8x4xf16>, tensor<4x8x16xf16>
%b = vector.broadcast %z : vector<f16> to vector<2x3xf16>
%e = vector.extract %z[] : f16 from vector<f16>
%sc = vector.shape_cast %z : vector<f16> to vector<1xf16>
%l = vector.load %m[%i, %i] {nontemporal = true} : memref<?x8xi8, 1>, vector<[4]xi8>
%red = vector.reduction <maxsi>, %s : vector<[4]xi8> into i8
%red2 = vector.reduction <minimumf>, %z2, %h : vector<32xf16> into f16
%sh = vector.shuffle %z, %z [1, 0, -1] : vector<f16>, vector<f16>
%cm = vector.constant_mask [0] : vector<[4]xi1>
%mm = vector.create_mask %i : vector<[4]xi1>
%ins = vector.insert %h, %w[-1, 2] : f16 into vector<8x4xf16>
// -----
%i = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%v4 = "test.v"() : () -> vector<4xf32>
%v3 = "test.v"() : () -> vector<3xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%iv = "test.v"() : () -> vector<4xindex>
%st = vector.step : vector<4xindex>
%vs = vector.vscale
%tr = vector.transpose %v23, [1, 0] : vector<2x3xf32> to vector<3x2xf32>
%es = vector.extract_strided_slice %v23 {offsets = [0, 1], sizes = [2, 2], strides = [1, 1]} : vector<2x3xf32> to vector<2x2xf32>
%is = vector.insert_strided_slice %v3, %v23 {offsets = [1, 0], strides = [1]} : vector<3xf32> into vector<2x3xf32>
%g = vector.gather %m[%i, %i] [%iv], %mk, %v4 : memref<8x8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32>
vector.scatter %m[%i, %i] [%iv], %mk, %v4 : memref<8x8xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32>
%el = vector.expandload %m[%i, %i], %mk, %v4 : memref<8x8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
vector.compressstore %m[%i, %i], %mk, %v4 : memref<8x8xf32>, vector<4xi1>, vector<4xf32>
%il = vector.interleave %v4, %v4 : vector<4xf32> -> vector<8xf32>
%d1, %d2 = vector.deinterleave %v4 : vector<4xf32> -> vector<2xf32>
%te:4 = vector.to_elements %v4 : vector<4xf32>
// -----
%f = "test.v"() : () -> f32
%v4 = "test.v"() : () -> vector<4xf32>
%v8 = "test.v"() : () -> vector<8xf32>
%a = "test.v"() : () -> vector<4x8xf32>
%o1 = vector.outerproduct %v4, %v8 : vector<4xf32>, vector<8xf32>
%o2 = vector.outerproduct %v4, %v8, %a {kind = #vector.kind<maxnumf>} : vector<4xf32>, vector<8xf32>
%o3 = vector.outerproduct %v4, %f : vector<4xf32>, f32
%o4 = vector.outerproduct %v4, %f, %v4 : vector<4xf32>, f32
vector.print %v4 : vector<4xf32>
vector.print %f : f32 punctuation <comma>
vector.print punctuation <close>
vector.print str "hi\n"
%ti = "test.v"() : () -> index
%mvm = "test.v"() : () -> memref<?xvector<4xf32>>
%mv2 = "test.v"() : () -> memref<8x8xvector<4xf32>>
%tv = vector.transfer_read %mvm[%ti], %v4 : memref<?xvector<4xf32>>, vector<2x4xf32>
%tv1 = vector.transfer_read %mvm[%ti], %v4 : memref<?xvector<4xf32>>, vector<4xf32>
%tv2 = vector.transfer_read %mv2[%ti, %ti], %v4 {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xvector<4xf32>>, vector<3x4xf32>
vector.transfer_write %tv, %mvm[%ti] {in_bounds = [true]} : vector<2x4xf32>, memref<?xvector<4xf32>>
// -----
%f = "test.v"() : () -> f32
%v4 = "test.v"() : () -> vector<4xf32>
%v3 = "test.v"() : () -> vector<3xf32>
%v23 = "test.v"() : () -> vector<2x3xf32>
%i = "test.v"() : () -> index
%m = "test.v"() : () -> memref<8x8xf32>
%mk = "test.v"() : () -> vector<4xi1>
%mk23 = "test.v"() : () -> vector<2x3xi1>
%mr0 = vector.mask %mk { vector.reduction <add>, %v4 : vector<4xf32> into f32 } : vector<4xi1> -> f32
%mt = vector.mask %mk, %v4 { vector.transfer_read %m[%i, %i], %f : memref<8x8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
vector.mask %mk { vector.transfer_write %v4, %m[%i, %i] : vector<4xf32>, memref<8x8xf32> } : vector<4xi1>
%mm = vector.mask %mk23 { vector.multi_reduction <add>, %v23, %v3 [0] : vector<2x3xf32> to vector<3xf32> } : vector<2x3xi1> -> vector<3xf32>
vector.mask %mk { vector.yield } : vector<4xi1>
%my:2 = vector.mask %mk { vector.yield %v4, %f : vector<4xf32>, f32 } : vector<4xi1> -> (vector<4xf32>, f32)
%gm = "test.v"() : () -> memref<16xf32>
%gi = "test.v"() : () -> vector<4xindex>
%mg = vector.mask %mk { vector.gather %gm[%i][%gi], %mk, %v4 : memref<16xf32>, vector<4xindex>, vector<4xi1>, vector<4xf32> into vector<4xf32> } : vector<4xi1> -> vector<4xf32>
%mk44 = "test.v"() : () -> vector<4x4xi1>
%a44 = "test.v"() : () -> vector<4x4xf32>
%mo = vector.mask %mk44 { vector.outerproduct %v4, %v4, %a44 {kind = #vector.kind<mul>} : vector<4xf32>, vector<4xf32> } : vector<4x4xi1> -> vector<4x4xf32>
%mo2 = vector.mask %mk { vector.outerproduct %v4, %f, %v4 : vector<4xf32>, f32 } : vector<4xi1> -> vector<4xf32>
%mtm = vector.mask %mk { vector.transfer_read %m[%i, %i], %f, %mk : memref<8x8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
%v45 = "test.v"() : () -> vector<4x5xf32>
%v53 = "test.v"() : () -> vector<5x3xf32>
%v43 = "test.v"() : () -> vector<4x3xf32>
%mk453 = "test.v"() : () -> vector<4x3x5xi1>
%mct = vector.mask %mk453 { vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %v45, %v53, %v43 : vector<4x5xf32>, vector<5x3xf32> into vector<4x3xf32> } : vector<4x3x5xi1> -> vector<4x3xf32>
%ct = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %v45, %v53, %v43 : vector<4x5xf32>, vector<5x3xf32> into vector<4x3xf32>
%cd = vector.contract {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %v4, %v4, %f : vector<4xf32>, vector<4xf32> into f32
%mr = vector.multi_reduction <add>, %v23, %v3 {tag = 1 : i32} [0] : vector<2x3xf32> to vector<3xf32>
%mr2 = vector.multi_reduction <mul>, %v23, %f [0, 1] : vector<2x3xf32> to f32
%s32 = "test.v"() : () -> vector<3x2xf32>
%s2 = "test.v"() : () -> vector<2xf32>
%si = "test.v"() : () -> vector<4xi32>
%s0 = "test.v"() : () -> vector<i32>
%sc:2 = vector.scan <add>, %s32, %s2 {inclusive = true, reduction_dim = 0} : vector<3x2xf32>, vector<2xf32>
%sc2:2 = vector.scan <maxsi>, %si, %s0 {inclusive = false, reduction_dim = 0 : i64, tag} : vector<4xi32>, vector<i32>
%sc3:2 = "vector.scan"(%s32, %s2) <{inclusive = false, kind = #vector.kind<maxnumf>, reduction_dim = 0 : i64}> : (vector<3x2xf32>, vector<2xf32>) -> (vector<3x2xf32>, vector<2xf32>)
%tm = "test.v"() : () -> memref<5x4x3xf32>
%tc = vector.type_cast %tm : memref<5x4x3xf32> to memref<vector<5x4x3xf32>>
%tc2 = vector.type_cast %tm {tag} : memref<5x4x3xf32> to memref<5xvector<4x3xf32>>
%tc3 = "vector.type_cast"(%tc2) : (memref<5xvector<4x3xf32>>) -> memref<vector<5x4x3xf32>>
%vm = "test.v"() : () -> memref<4xvector<8xf32>>
%vl = vector.load %vm[%i] : memref<4xvector<8xf32>>, vector<8xf32>
vector.store %vl, %vm[%i] : memref<4xvector<8xf32>>, vector<8xf32>
vector.print str "hello\n"
