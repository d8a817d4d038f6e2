%lb = "test.v"() : () -> index
%ub = "test.v"() : () -> index
%st = "test.v"() : () -> index
%c = "test.v"() : () -> i1
%x = "test.v"() : () -> i32
%y = "test.v"() : () -> f32
%tt = "test.v"() : () -> tensor<4xf32>
  scf.for %i = %lb to %ub step %st {
    "test.op"(%i) : (index) -> ()
  }
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%a = %x, %b = %y) -> (i32, f32) {
    scf.yield %a, %b : i32, f32
  }
  %r2 = scf.for unsigned %i = %x to %x step %x iter_args(%a = %x) -> (i32) : i32 {
    scf.yield %a : i32
  }
  scf.for %i = %x to %x step %x : i32 {
  }
  %t = scf.if %c -> (i32) {
    scf.yield %x : i32
  } else {
    scf.yield %x : i32
  }
  scf.if %c {
    "test.op"() : () -> ()
  }
  %w:2 = scf.while (%a = %x) : (i32) -> (i32, f32) {
    scf.condition(%c) %a, %y : i32, f32
  } do {
  ^bb0(%p: i32, %q: f32):
    scf.yield %p : i32
  }
  scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
    "test.op"() : () -> ()
  }
  %p = scf.parallel (%i) = (%lb) to (%ub) step (%st) init (%x) -> i32 {
    scf.reduce(%x : i32) {
    ^bb0(%l: i32, %rr: i32):
      scf.reduce.return %l : i32
    }
  }
  %e = scf.execute_region -> i32 {
    scf.yield %x : i32
  }
  %e2 = scf.execute_region -> i32 no_inline {
    scf.yield %x : i32
  }
  %s = scf.index_switch %lb -> i32
  case 2 {
    scf.yield %x : i32
  }
  case 5 {
    scf.yield %x : i32
  }
  default {
    scf.yield %x : i32
  }
  scf.index_switch %lb
  default {
  }
  %f = scf.forall (%i, %j) in (%ub, 8) shared_outs(%o = %tt) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
    }
  }
  scf.forall (%i) = (%lb) to (%ub) step (%st) {
  } {mapping = []}
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
%i = "test.i"() : () -> index
%t = "test.t"() : () -> tensor<4xf32>
%r:2 = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x, %x) -> (i32, i32) {
  scf.reduce(%x, %x : i32, i32) {
  ^bb0(%l: i32, %m: i32):
    scf.reduce.return %l : i32
  }, {
  ^bb0(%l: i32, %m: i32):
    scf.reduce.return %l : i32
  }
}
%q:2 = scf.execute_region -> (i32, i32) {
  scf.yield %x, %x : i32, i32
}
scf.index_switch %i
case 3 {
  scf.yield
}
default {
}
scf.while : () -> () {
  scf.condition(%c)
} do {
  scf.yield
}
scf.while (%a = %x) : (i32) -> () {
  scf.condition(%c)
} do {
^bb0:
  scf.yield %x : i32
} attributes {foo}
%e = scf.execute_region -> i32 {
  scf.yield %x : i32
} {bar = 1}
scf.for %k = %i to %i step %i {
  scf.yield
} {attr}
scf.if %c {
  scf.yield
} else {
  "test.x"() : () -> ()
}
%f:2 = scf.forall (%a, %b) = (%i, 1) to (8, %i) step (2, 3) shared_outs(%o = %t, %o2 = %t) -> (tensor<4xf32>, tensor<4xf32>) {
}
scf.forall (%a) in (4) {
  scf.forall.in_parallel {
  }
}
// -----
%lb = "test.v"() : () -> index
%x = "test.v"() : () -> i64
%c = "test.v"() : () -> i1
%r = scf.for %i = %lb to %lb step %lb iter_args(%a = %x) -> (i64) {
  %n = scf.for %j = %x to %a step %x iter_args(%b = %a) -> (i64) : i64 {
    %s = scf.if %c -> (i64) {
      scf.yield %b : i64
    } else {
      %q = "test.add"(%b, %j) : (i64, i64) -> i64
      scf.yield %q : i64
    }
    scf.yield %s : i64
  }
  scf.yield %n : i64
} {tag = "outer"}
%w:2 = scf.while (%a = %x, %b = %c) : (i64, i1) -> (i64, i1) {
  scf.condition(%b) %a, %b : i64, i1
} do {
^bb0(%p: i64, %q: i1):
  %e = scf.execute_region -> i64 no_inline {
    scf.yield %p : i64
  } {note}
  scf.yield %e, %q : i64, i1
}
%u = scf.for unsigned %i = %lb to %lb step %lb iter_args(%a = %c) -> (i1) {
  scf.yield %a : i1
}
scf.execute_region {
  "test.op"() : () -> ()
  scf.yield
}
// -----
%lb = "test.v"() : () -> index
%f = "test.v"() : () -> f32
%t = "test.v"() : () -> tensor<2x3xf32>
%r = scf.parallel (%i, %j, %k) = (%lb, %lb, %lb) to (%lb, %lb, %lb) step (%lb, %lb, %lb) init (%f) -> f32 {
  %v = "test.load"(%i, %j, %k) : (index, index, index) -> f32
  scf.reduce(%v : f32) {
  ^bb0(%a: f32, %b: f32):
    %s = "test.addf"(%a, %b) : (f32, f32) -> f32
    scf.reduce.return %s : f32
  }
} {some.attr = 3 : i32}
%o = scf.forall (%i, %j) in (2, 3) shared_outs(%acc = %t) -> (tensor<2x3xf32>) {
  "test.body"(%i, %j, %acc) : (index, index, tensor<2x3xf32>) -> ()
  scf.forall.in_parallel {
  }
}
scf.forall (%i) = (1) to (%lb) step (%lb) {
  "test.op"(%i) : (index) -> ()
}
%s:2 = scf.index_switch %lb -> f32, index
case -1 {
  scf.yield %f, %lb : f32, index
}
default {
  scf.yield %f, %lb : f32, index
}
// -----
func.func @g() {
  return
}
func.func @f(%i: index, %n: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %i step %c1 iter_args(%acc = %n) -> (i32) {
    func.call @g() : () -> ()
    %s = arith.addi %acc, %n : i32
    scf.yield %s : i32
  }
  scf.parallel (%a) = (%c0) to (%i) step (%c1) {
    scf.execute_region {
      func.call @g() : () -> ()
      scf.yield
    }
  }
  return %r : i32
}
