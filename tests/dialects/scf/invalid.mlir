%c = "test.c"() : () -> i1
%x = "test.x"() : () -> i32
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'index' should match successor input type #0 'i32'}}
%r = scf.if %c -> (i32) {
// expected-note @+1 {{region branch point}}
  scf.yield %i : index
} else {
  scf.yield %x : i32
}
// -----
%c = "test.c"() : () -> i1
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.if' op must have an else block if defining values}}
%r = scf.if %c -> (i32) {
  scf.yield %x : i32
}
// -----
%x = "test.x"() : () -> i32
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'i32' != 'index'}}
%r = scf.for %k = %i to %i step %i iter_args(%a = %x) -> (i32) {
  scf.yield %i : index
}
// -----
%x = "test.x"() : () -> i32
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.for' op along control flow edge from Operation scf.yield to Region #0: region branch point has 0 operands, but region successor needs 1 inputs}}
%r = scf.for %k = %i to %i step %i iter_args(%a = %x) -> (i32) {
// expected-note @+1 {{region branch point}}
  scf.yield
}
// -----
%x = "test.x"() : () -> f32
// expected-error @+1 {{'scf.for' op operand #0 must be signless integer or index, but got 'f32'}}
scf.for %k = %x to %x step %x : f32 {
}
// -----
%x = "test.x"() : () -> i32
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.for' op failed to verify that all of {lowerBound, upperBound, step} have same type}}
"scf.for"(%i, %x, %i) ({
^bb0(%k: index):
  scf.yield
}) : (index, i32, index) -> ()
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.for' op expected induction variable to be same type as bounds and step}}
"scf.for"(%i, %i, %i) ({
^bb0(%k: i32):
  scf.yield
}) : (index, index, index) -> ()
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.for' op 0-th init and 0-th region iter_arg have different type: 'i32' != 'index'}}
%r = "scf.for"(%i, %i, %i, %x) ({
^bb0(%k: index, %a: index):
  scf.yield %a : index
}) : (index, index, index, i32) -> i32
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.for' op different number of inits and region iter_args: 1 != 0}}
%r = "scf.for"(%i, %i, %i, %x) ({
^bb0(%k: index):
  scf.yield
}) : (index, index, index, i32) -> i32
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.for' op mismatch in number of loop-carried values and defined values}}
"scf.for"(%i, %i, %i, %x) ({
^bb0(%k: index, %a: i32):
  scf.yield
}) : (index, index, index, i32) -> ()
// -----
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
scf.yield %x : i32
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to Region #1: successor operand type #0 'i32' should match successor input type #0 'f32'}}
%r = scf.while (%a = %x) : (i32) -> i32 {
// expected-note @+1 {{region branch point}}
  scf.condition(%c) %a : i32
} do {
^bb0(%p: f32):
  scf.yield %p : f32
}
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.yield to Region #0: region branch point has 2 operands, but region successor needs 1 inputs}}
%r = scf.while (%a = %x) : (i32) -> i32 {
  scf.condition(%c) %a : i32
} do {
^bb0(%p: i32):
// expected-note @+1 {{region branch point}}
  scf.yield %p, %p : i32, i32
}
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+1 {{'scf.while' op along control flow edge from Operation scf.condition to parent: successor operand type #0 'i32' should match successor input type #0 'f32'}}
%r = scf.while (%a = %x) : (i32) -> f32 {
// expected-note @+1 {{region branch point}}
  scf.condition(%c) %a : i32
} do {
^bb0(%p: i32):
  scf.yield %p : i32
}
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+1 {{'scf.while' op expects the 'before' region to terminate with 'scf.condition'}}
%r = scf.while (%a = %x) : (i32) -> i32 {
// expected-note @+1 {{terminator here}}
  scf.yield %a : i32
} do {
^bb0(%p: i32):
  scf.yield %p : i32
}
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+1 {{'scf.while' op expects the 'after' region to terminate with 'scf.yield'}}
%r = scf.while (%a = %x) : (i32) -> i32 {
  scf.condition(%c) %a : i32
} do {
^bb0(%p: i32):
// expected-note @+1 {{terminator here}}
  "test.t"() : () -> ()
}
// -----
%x = "test.x"() : () -> i32
// expected-error @+1 {{custom op 'scf.while' expected as many input types as operands (expected 1 got 2)}}
%r = scf.while (%a = %x) : (i32, i32) -> i32 {
}
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{custom op 'scf.parallel' expected 2 operands}}
scf.parallel (%a, %b) = (%i) to (%i) step (%i) {
}
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.parallel' op needs at least one tuple element for lowerBound, upperBound and step}}
"scf.parallel"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>}> ({
  scf.reduce
}) : () -> ()
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.parallel' op expects arguments for the induction variable to be of index type}}
"scf.parallel"(%i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
^bb0(%a: i32):
  scf.reduce
}) : (index, index, index) -> ()
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.parallel' op expects the same number of induction variables: 2 as bound and step values: 1}}
"scf.parallel"(%i, %i, %i) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
^bb0(%a: index, %b: index):
  scf.reduce
}) : (index, index, index) -> ()
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.parallel' op expects number of results: 1 to be the same as number of reductions: 0}}
%r = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x) -> i32 {
  scf.reduce
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
%r = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x) -> i32 {
// expected-error @+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'index' to be the same as the 0-th result type: 'i32'}}
  scf.reduce(%i : index) {
  ^bb0(%l: index, %rr: index):
    scf.reduce.return %l : index
  }
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
%r = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x) -> i32 {
// expected-error @+1 {{'scf.reduce' op expected two block arguments with type 'i32' in the 0-th reduction region}}
  scf.reduce(%x : i32) {
  ^bb0(%l: i32):
    scf.reduce.return %l : i32
  }
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
%r = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x) -> i32 {
  scf.reduce(%x : i32) {
  ^bb0(%l: i32, %m: i32):
// expected-error @+1 {{'scf.reduce.return' op must have type 'i32' (the type of the reduction inputs)}}
    scf.reduce.return %i : index
  }
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
%r = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x) -> i32 {
// expected-error @+1 {{'scf.reduce' op reduction bodies must be terminated with an 'scf.reduce.return' op}}
  scf.reduce(%x : i32) {
  ^bb0(%l: i32, %m: i32):
    "test.t"() : () -> ()
  }
}
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.execute_region' op along control flow edge from Operation scf.yield to parent: successor operand type #0 'index' should match successor input type #0 'i32'}}
%r = scf.execute_region -> i32 {
// expected-note @+1 {{region branch point}}
  scf.yield %i : index
}
// -----
// expected-error @+1 {{'scf.execute_region' op region cannot have any arguments}}
%r = scf.execute_region -> i32 {
^bb0(%a: i32):
  scf.yield %a : i32
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.index_switch' op has duplicate case value: 1}}
%r = scf.index_switch %i -> i32
case 1 {
  scf.yield %x : i32
}
case 1 {
  scf.yield %x : i32
}
default {
  scf.yield %x : i32
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.index_switch' op expected result #0 of each region to be 'i32'}}
%r = scf.index_switch %i -> i32
case 1 {
// expected-note @+1 {{case region #0 returns 'index' here}}
  scf.yield %i : index
}
default {
  scf.yield %x : i32
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.index_switch' op expected each region to return 1 values, but default region returns 0}}
%r = scf.index_switch %i -> i32
case 1 {
  scf.yield %x : i32
}
default {
// expected-note @+1 {{see yield operation here}}
  scf.yield
}
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.index_switch' op has 1 case regions but 2 case values}}
"scf.index_switch"(%i) <{cases = array<i64: 1, 2>}> ({
  scf.yield
}, {
  scf.yield
}) : (index) -> ()
// -----
%i = "test.i"() : () -> index
%c = "test.c"() : () -> i1
// expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
scf.condition(%c)
// -----
%i = "test.i"() : () -> index
// expected-error @+1 {{'scf.forall' op operand #1 must be variadic of ranked tensor of any type values, but got 'index'}}
%r = scf.forall (%a) in (%i) shared_outs(%o = %i) -> (index) {
}
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+2 {{'scf.while' op along control flow edge from parent to Region #0: successor operand type #0 'i32' should match successor input type #0 'f32'}}
// expected-note @+1 {{region branch point}}
%r = "scf.while"(%x) ({
^bb0(%a: f32):
  scf.condition(%c) %a : f32
}, {
^bb0(%p: f32):
  scf.yield %p : f32
}) : (i32) -> f32
// -----
%x = "test.x"() : () -> i32
%c = "test.c"() : () -> i1
// expected-error @+2 {{'scf.while' op along control flow edge from parent to Region #0: region branch point has 1 operands, but region successor needs 2 inputs}}
// expected-note @+1 {{region branch point}}
%r = "scf.while"(%x) ({
^bb0(%a: i32, %b: i32):
  scf.condition(%c) %a : i32
}, {
^bb0(%p: i32):
  scf.yield %p : i32
}) : (i32) -> i32
// -----
%i = "test.i"() : () -> index
%t = "test.t"() : () -> tensor<4xf32>
%r = scf.forall (%a) in (%i) shared_outs(%o = %t) -> (tensor<4xf32>) {
// expected-error @+1 {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
  scf.forall.in_parallel {
    "test.parallel_insert"(%o) : (tensor<4xf32>) -> ()
  }
}
// -----
%i = "test.i"() : () -> index
%t = "test.t"() : () -> tensor<4xf32>
// expected-error @+1 {{'scf.forall' op produces 0 results, but has only 1 outputs}}
"scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
^bb0(%a: index, %o: tensor<4xf32>):
  scf.forall.in_parallel {
  }
}) : (tensor<4xf32>) -> ()
// -----
%t = "test.t"() : () -> tensor<4xf32>
// expected-error @+1 {{'scf.forall' op region expects 1 arguments}}
%r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
^bb0(%a: index):
  scf.forall.in_parallel {
  }
}) : (tensor<4xf32>) -> tensor<4xf32>
// -----
%t = "test.t"() : () -> tensor<4xf32>
// expected-error @+1 {{'scf.forall' op expects 0-th block argument to be an index}}
%r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
^bb0(%a: i32, %o: tensor<4xf32>):
  scf.forall.in_parallel {
  }
}) : (tensor<4xf32>) -> tensor<4xf32>
// -----
%t = "test.t"() : () -> tensor<4xf32>
// expected-error @+1 {{'scf.forall' op type mismatch between 0-th output and corresponding block argument}}
%r = "scf.forall"(%t) <{operandSegmentSizes = array<i32: 0, 0, 0, 1>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
^bb0(%a: index, %o: tensor<8xf32>):
  scf.forall.in_parallel {
  }
}) : (tensor<4xf32>) -> tensor<4xf32>
// -----
// expected-error @+1 {{'scf.forall' op region expects 2 arguments}}
"scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0, 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: 4>}> ({
^bb0(%a: index):
  scf.forall.in_parallel {
  }
}) : () -> ()
// -----
// expected-error @+1 {{expected 1 dynamic upper bound values}}
"scf.forall"() <{operandSegmentSizes = array<i32: 0, 0, 0, 0>, staticLowerBound = array<i64: 0>, staticStep = array<i64: 1>, staticUpperBound = array<i64: -9223372036854775808>}> ({
^bb0(%a: index):
  scf.forall.in_parallel {
  }
}) : () -> ()
// -----
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.reduce.return' op expects parent op 'scf.reduce'}}
scf.reduce.return %x : i32
// -----
// expected-error @+1 {{'scf.forall.in_parallel' op expects parent op 'scf.forall'}}
scf.forall.in_parallel {
}
// -----
%x = "test.x"() : () -> i32
%i = "test.i"() : () -> index
// expected-error @+1 {{custom op 'scf.for' mismatch in number of loop-carried values and defined values}}
%r = scf.for %k = %i to %i step %i iter_args(%a = %x, %b = %x) -> (i32) {
  scf.yield %a : i32
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.for' op different number of region iter_args and yielded values: 1 != 2}}
%r = "scf.for"(%i, %i, %i, %x) ({
^bb0(%k: index, %a: i32):
  scf.yield %a, %a : i32, i32
}) : (index, index, index, i32) -> i32
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.for' op 0-th region iter_arg and 0-th loop result have different type: 'i32' != 'f32'}}
%r = "scf.for"(%i, %i, %i, %x) ({
^bb0(%k: index, %a: i32):
  scf.yield %a : i32
}) : (index, index, index, i32) -> f32
// -----
%c = "test.c"() : () -> i1
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 0 operands, but region successor needs 1 inputs}}
%r = scf.if %c -> (i32) {
  scf.yield %x : i32
} else {
// expected-note @+1 {{region branch point}}
  scf.yield
}
// -----
%c = "test.c"() : () -> i1
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 1 operands, but region successor needs 0 inputs}}
scf.if %c {
// expected-note @+1 {{region branch point}}
  scf.yield %x : i32
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.index_switch' op expected region to end with scf.yield, but got test.op}}
scf.index_switch %i
case 1 {
  "test.op"() : () -> ()
}
default {
}
// -----
%i = "test.i"() : () -> index
%x = "test.x"() : () -> i32
%r = scf.parallel (%a) = (%i) to (%i) step (%i) init (%x) -> (i32) {
// expected-error @+1 {{'scf.reduce' op region #0 ('reductions') failed to verify constraint: region with 1 blocks}}
  scf.reduce(%x : i32) {
  }
}
// -----
%x = "test.x"() : () -> i32
// expected-error @+1 {{'scf.execute_region' op along control flow edge from Operation scf.yield to parent: region branch point has 2 operands, but region successor needs 1 inputs}}
%r = scf.execute_region -> i32 {
// expected-note @+1 {{region branch point}}
  scf.yield %x, %x : i32, i32
}
// -----
%c = "test.c"() : () -> i32
// expected-error @+1 {{'scf.condition' op expects parent op 'scf.while'}}
"scf.condition"(%c) : (i32) -> ()
// -----
%c0 = arith.constant 0 : index
// expected-error @+1 {{'scf.parallel' op constant step operand must be positive}}
scf.parallel (%a) = (%c0) to (%c0) step (%c0) {
}
