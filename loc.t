#map = affine_map<() -> ()>
#map1 = affine_map<(d0)[s0, s1] -> (d0 * s0, s1 floordiv s0, -(d0 + 1), d0 - d0 * 3, 5)>
#map2 = affine_map<(d0, d1) -> (d1, d0)>
#set = affine_set<(d0) : (-d0 + 5 >= 0, d0 - 3 == 0, d0 * 2 - 4 >= 0)>
#set1 = affine_set<() : (0 == 0)>
module {
  "test.op"() : () -> () loc(#loc1)
  "test.op"() : () -> () loc(#loc2)
  "test.op"() : () -> () loc(#loc11)
  "test.op"() : () -> () loc(#loc12)
  "test.op"() : () -> () loc(#loc13)
  "test.op"() : () -> () loc(#loc14)
  "test.op"() : () -> () loc(#loc7)
  "test.op"() : () -> () loc(#loc8)
  "test.op"() : () -> () loc(#loc9)
  "test.op"() {a = #map, b = #map1, c = #set, d = #set1, e = #map2} : () -> () loc(#loc10)
} loc(#loc)
#loc = loc("/tmp/b9/loc.mlir":0:0)
#loc1 = loc("file.mlir":3:4)
#loc2 = loc("name")
#loc3 = loc("f.c":1:2)
#loc4 = loc("a")
#loc5 = loc("b.c":5:6)
#loc6 = loc("b":1:1)
#loc7 = loc(unknown)
#loc8 = loc("f":1:2 to 3:4)
#loc9 = loc("f":1:2 to :4)
#loc10 = loc("/tmp/b9/loc.mlir":10:1)
#loc11 = loc("name"(#loc3))
#loc12 = loc(callsite(#loc4 at #loc5))
#loc13 = loc(fused[#loc4, #loc6])
#loc14 = loc(fused<"meta">[#loc4])
