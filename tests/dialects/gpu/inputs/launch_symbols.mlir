func.func @h(%a: index) {
  gpu.launch blocks(%b0, %b1, %b2) in (%s0 = %a, %s1 = %a, %s2 = %a) threads(%t0, %t1, %t2) in (%u0 = %a, %u1 = %a, %u2 = %a) function(@ff) {
    gpu.terminator
  }
  gpu.launch blocks(%b0, %b1, %b2) in (%s0 = %a, %s1 = %a, %s2 = %a) threads(%t0, %t1, %t2) in (%u0 = %a, %u1 = %a, %u2 = %a) module(@mm) {
    gpu.terminator
  }
  gpu.launch blocks(%b0, %b1, %b2) in (%s0 = %a, %s1 = %a, %s2 = %a) threads(%t0, %t1, %t2) in (%u0 = %a, %u1 = %a, %u2 = %a) module(@mm) function(@ff) {
    gpu.terminator
  }
  return
}
gpu.module @g {
  gpu.func @k(%x: f32 loc("x.py":1:2), %y: f32 {gpu.foo} loc(#l)) workgroup(%w: memref<4xf32, 3> loc("z.py":5:6)) kernel {
    gpu.return
  }
}
#l = loc("q.py":7:8)
