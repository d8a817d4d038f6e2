// The gpu.launch region form (the kernel body inline in the host function) with gpu.printf:
// each thread scales its element and thread 0 of each block prints the block's first value.
func.func @main(%data: memref<4x8xf32>, %factor: f32) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %v = memref.load %data[%bx, %tx] : memref<4x8xf32>
    %w = arith.mulf %v, %factor : f32
    memref.store %w, %data[%bx, %tx] : memref<4x8xf32>
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      %b = arith.index_cast %bx : index to i32
      gpu.printf "block %d starts with %.1f\n", %b, %w : i32, f32
    }
    gpu.terminator
  }
  return
}
