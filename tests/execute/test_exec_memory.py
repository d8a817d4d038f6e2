"""§8.6 memory, §8.11 views and §8.10 atomics run by the executor: masks and padding, edge tiles,
dim_map (ERRATA 1 and 2), strided and gather/scatter views, globals, alloca, i1 storage,
out-of-bounds and misaligned accesses, atomics with duplicate addresses."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.execute import MemoryAccessError, UndefinedBehaviorError


def module(body: str, params: str, name: str = "k"):
    return tileir.parse(f"cuda_tile.module @m {{\n  entry @{name}({params}) {{\n{body}\n"
                        "    return\n  }\n}\n", "mem.mlir")


# -- pointer loads and stores ------------------------------------------------------------------

GATHER = """    %p1 = reshape %src : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %p1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %idx = constant <i32: [0, 2, 4, 6, 100, 1, 3, -5]> : tile<8xi32>
    %ptrs = offset %pb, %idx : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %mask = constant <i1: [true, true, true, true, false, true, true, false]> : tile<8xi1>
    %pad = constant <f32: -1.0> : tile<8xf32>
    %v, %t = load_ptr_tko weak %ptrs, %mask, %pad : tile<8xptr<f32>>, tile<8xi1>, tile<8xf32> -> tile<8xf32>, token
    %d1 = reshape %dst : tile<ptr<f32>> -> tile<1xptr<f32>>
    %db = broadcast %d1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %lane = iota : tile<8xi32>
    %dptrs = offset %db, %lane : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %smask = constant <i1: [true, false, true, true, true, true, true, true]> : tile<8xi1>
    %t2 = store_ptr_tko weak %dptrs, %v, %smask : tile<8xptr<f32>>, tile<8xf32>, tile<8xi1> -> token"""


def test_masked_gather_with_padding_and_masked_scatter():
    m = module(GATHER, "%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>")
    src = np.arange(10, dtype=np.float32)
    dst = np.full(8, 7.0, np.float32)
    tileir.launch(m, "k", (1,), [src, dst])
    # masked-out elements are not accessed (index 100 and -5 would be out of bounds)
    assert dst.tolist() == [0.0, 7.0, 4.0, 6.0, -1.0, 1.0, 3.0, -1.0]


def test_out_of_bounds_gather_names_op_block_and_element():
    body = GATHER.replace("[true, true, true, true, false, true, true, false]",
                          "[true, true, true, true, true, true, true, false]")
    m = module(body, "%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>")
    with pytest.raises(MemoryAccessError) as err:
        tileir.launch(m, "k", (3,), [np.arange(10, dtype=np.float32), np.zeros(8, np.float32)])
    e = err.value
    assert e.op == "cuda_tile.load_ptr_tko" and e.loc.startswith("mem.mlir:")
    assert e.block == (0, 0, 0) and e.element == (4,)
    assert "out-of-bounds read of 4 bytes" in str(e) and "past the end" in str(e)


def test_misaligned_and_null_pointers():
    body = """    %i = ptr_to_int %src : tile<ptr<f32>> -> tile<i64>
    %c = constant <i64: 2> : tile<i64>
    %j = addi %i, %c : tile<i64>
    %p = int_to_ptr %j : tile<i64> -> tile<ptr<f32>>
    %v, %t = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token"""
    m = module(body, "%src: tile<ptr<f32>>")
    with pytest.raises(MemoryAccessError, match="misaligned 4-byte access"):
        tileir.launch(m, "k", (1,), [np.zeros(4, np.float32)])
    body = """    %z = constant <i64: 0> : tile<i64>
    %p = int_to_ptr %z : tile<i64> -> tile<ptr<f32>>
    %v, %t = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token"""
    with pytest.raises(MemoryAccessError, match="null pointer"):
        tileir.launch(module(body, "%src: tile<ptr<f32>>"), "k", (1,), [np.zeros(4, np.float32)])


def test_store_to_read_only_array_is_refused():
    body = """    %v = constant <f32: 1.0> : tile<f32>
    %t = store_ptr_tko weak %dst, %v : tile<ptr<f32>>, tile<f32> -> token"""
    ro = np.zeros(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(MemoryAccessError, match="read-only"):
        tileir.launch(module(body, "%dst: tile<ptr<f32>>"), "k", (1,), [ro])


def test_i1_is_a_byte_and_canonicalised_on_load():
    body = """    %pi8 = ptr_to_ptr %src : tile<ptr<i1>> -> tile<ptr<i1>>
    %p1 = reshape %src : tile<ptr<i1>> -> tile<1xptr<i1>>
    %pb = broadcast %p1 : tile<1xptr<i1>> -> tile<4xptr<i1>>
    %lane = iota : tile<4xi32>
    %ptrs = offset %pb, %lane : tile<4xptr<i1>>, tile<4xi32> -> tile<4xptr<i1>>
    %v, %t = load_ptr_tko weak %ptrs : tile<4xptr<i1>> -> tile<4xi1>, token
    %d1 = reshape %dst : tile<ptr<i8>> -> tile<1xptr<i8>>
    %db = broadcast %d1 : tile<1xptr<i8>> -> tile<4xptr<i8>>
    %dp = offset %db, %lane : tile<4xptr<i8>>, tile<4xi32> -> tile<4xptr<i8>>
    %e = exti %v unsigned : tile<4xi1> -> tile<4xi8>
    %t2 = store_ptr_tko weak %dp, %e : tile<4xptr<i8>>, tile<4xi8> -> token
    %b1 = reshape %bdst : tile<ptr<i1>> -> tile<1xptr<i1>>
    %bb = broadcast %b1 : tile<1xptr<i1>> -> tile<4xptr<i1>>
    %bp = offset %bb, %lane : tile<4xptr<i1>>, tile<4xi32> -> tile<4xptr<i1>>
    %t3 = store_ptr_tko weak %bp, %v : tile<4xptr<i1>>, tile<4xi1> -> token"""
    m = module(body, "%src: tile<ptr<i1>>, %dst: tile<ptr<i8>>, %bdst: tile<ptr<i1>>")
    raw = np.array([0, 1, 2, 255], np.uint8).view(np.bool_)       # non-canonical bytes
    dst = np.zeros(4, np.int8)
    bdst = np.zeros(4, np.bool_)
    tileir.launch(m, "k", (1,), [raw, dst, bdst])
    assert dst.tolist() == [0, 1, 1, 1]
    assert bdst.view(np.uint8).tolist() == [0, 1, 1, 1]


# -- views -------------------------------------------------------------------------------------

def view_load_kernel(tv_type, view_type, tile_type, n_index, extra=""):
    idx = ", ".join(f"%i{k}" for k in range(n_index))
    params = ", ".join([f"%i{k}: tile<i32>" for k in range(n_index)])
    return module(f"""    %tv = make_tensor_view %src, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> {tv_type}
    %pv = {extra or "make_partition_view"} %tv : {view_type}
    %v, %t = load_view_tko weak %pv[{idx}] : {view_type}, tile<i32> -> {tile_type}, token
    %tvo = make_tensor_view %dst, shape = [{tile_type[5:-5].replace('x', ', ')}], strides = [{', '.join(
        str(s) for s in _c_strides(tile_type))}] : tensor_view<{tile_type[5:-1]}, strides=[{','.join(
        str(s) for s in _c_strides(tile_type))}]>
    %pvo = make_partition_view %tvo : partition_view<tile=({tile_type[5:-5]}), tensor_view<{tile_type[5:-1]}, strides=[{','.join(
        str(s) for s in _c_strides(tile_type))}]>>
    %c0 = constant <i32: 0> : tile<i32>
    %t2 = store_view_tko weak %v, %pvo[{", ".join(["%c0"] * tile_type.count("x"))}] : {tile_type}, partition_view<tile=({tile_type[5:-5]}), tensor_view<{tile_type[5:-1]}, strides=[{','.join(
        str(s) for s in _c_strides(tile_type))}]>>, tile<i32> -> token""",
                  f"%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>, %rows: tile<i32>, "
                  f"%cols: tile<i32>, {params}")


def _c_strides(tile_type):
    dims = [int(d) for d in tile_type[5:-5].split("x")]
    out, acc = [], 1
    for d in reversed(dims):
        out.append(acc)
        acc *= d
    return list(reversed(out))


TV = "tensor_view<?x?xf32, strides=[?,1]>"


@pytest.mark.parametrize("pad,value", [("zero", 0.0), ("neg_zero", -0.0), ("nan", np.nan),
                                       ("pos_inf", np.inf), ("neg_inf", -np.inf)])
def test_partition_view_padding_values_on_edge_tile(pad, value):
    view = f"partition_view<tile=(4x8), padding_value = {pad}, {TV}>"
    m = view_load_kernel(TV, view, "tile<4x8xf32>", 2)
    src = np.arange(6 * 10, dtype=np.float32).reshape(6, 10)
    out = np.zeros((4, 8), np.float32)
    tileir.launch(m, "k", (1,), [src, out, 6, 10, 1, 1])       # tile at rows 4..8, cols 8..16
    assert (out[:2, :2] == src[4:6, 8:10]).all()
    pad_region = np.concatenate([out[2:].reshape(-1), out[:2, 2:].reshape(-1)])
    want = np.full(pad_region.shape, value, np.float32)
    assert pad_region.tobytes() == want.tobytes() or (np.isnan(value) and
                                                      np.isnan(pad_region).all())


def test_partition_addressing_uses_index_times_tile_size():
    # ERRATA 1: the tile at index (I0, I1) starts at element (I0*T0, I1*T1)
    view = f"partition_view<tile=(2x4), {TV}>"
    m = view_load_kernel(TV, view, "tile<2x4xf32>", 2)
    src = np.arange(16 * 16, dtype=np.float32).reshape(16, 16)
    out = np.zeros((2, 4), np.float32)
    tileir.launch(m, "k", (1,), [src, out, 16, 16, 3, 2])
    assert (out == src[6:8, 8:12]).all()


def test_dim_map_errata_2():
    # tile=(4x2) with dim_map=[1, 0] at [a, b] == identity tile=(2x4) at [b, a], permuted
    src = np.arange(16 * 16, dtype=np.float32).reshape(16, 16)
    mapped = f"partition_view<tile=(4x2), {TV}, dim_map=[1, 0]>"
    m = view_load_kernel(TV, mapped, "tile<4x2xf32>", 2)
    out = np.zeros((4, 2), np.float32)
    tileir.launch(m, "k", (1,), [src, out, 16, 16, 3, 5])
    ident = f"partition_view<tile=(2x4), {TV}>"
    m2 = view_load_kernel(TV, ident, "tile<2x4xf32>", 2)
    out2 = np.zeros((2, 4), np.float32)
    tileir.launch(m2, "k", (1,), [src, out2, 16, 16, 5, 3])
    assert (out == out2.T).all()
    assert (out == src[10:12, 12:16].T).all()


def test_index_outside_index_space_is_reported():
    view = f"partition_view<tile=(4x8), {TV}>"
    m = view_load_kernel(TV, view, "tile<4x8xf32>", 2)
    with pytest.raises(UndefinedBehaviorError, match="outside the view's index space"):
        tileir.launch(m, "k", (1,), [np.zeros((6, 10), np.float32), np.zeros((4, 8), np.float32),
                                     6, 10, 2, 0])


def test_strided_view_overlapping_tiles():
    tv = "tensor_view<?xf32, strides=[1]>"
    view = f"strided_view<tile=(4), traversal_strides=[2], padding_value = zero, {tv}>"
    body = f"""    %tv = make_tensor_view %src, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %sv = make_strided_view %tv : {view}
    %v, %t = load_view_tko weak %sv[%i] : {view}, tile<i32> -> tile<4xf32>, token
    %tvo = make_tensor_view %dst, shape = [4], strides = [1] : tensor_view<4xf32, strides=[1]>
    %pvo = make_partition_view %tvo : partition_view<tile=(4), tensor_view<4xf32, strides=[1]>>
    %c0 = constant <i32: 0> : tile<i32>
    %t2 = store_view_tko weak %v, %pvo[%c0] : tile<4xf32>, partition_view<tile=(4), tensor_view<4xf32, strides=[1]>>, tile<i32> -> token
    %ni, %t3 = get_index_space_shape %sv : {view} -> tile<i32>"""
    m = module(body.replace("%ni, %t3 = ", "%ni = "), "%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>,"
               " %n: tile<i32>, %i: tile<i32>")
    src = np.arange(9, dtype=np.float32)
    for i, want in ((0, [0, 1, 2, 3]), (1, [2, 3, 4, 5]), (4, [8, 0, 0, 0])):
        out = np.zeros(4, np.float32)
        tileir.launch(m, "k", (1,), [src, out, 9, i])
        assert out.tolist() == want


def test_gather_scatter_view():
    tv = "tensor_view<?x?xf32, strides=[?,1]>"
    view = f"gather_scatter_view<tile=(4x4), padding_value = nan, {tv}, sparse_dim=0>"
    oview = f"gather_scatter_view<tile=(4x4), {tv}, sparse_dim=0>"
    body = f"""    %tv = make_tensor_view %src, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> {tv}
    %gv = make_gather_scatter_view %tv : {view}
    %rows_idx = constant <i32: [5, 0, 9, 2]> : tile<4xi32>
    %v, %t = load_view_tko weak %gv[%rows_idx, %c] : {view}, tile<4xi32>, tile<i32> -> tile<4x4xf32>, token
    %tvo = make_tensor_view %dst, shape = [%rows, %cols], strides = [%cols, 1] : tile<i32> -> {tv}
    %sv = make_gather_scatter_view %tvo : {oview}
    %orows = constant <i32: [1, 3, 7, 20]> : tile<4xi32>
    %t2 = store_view_tko weak %v, %sv[%orows, %c] : tile<4x4xf32>, {oview}, tile<4xi32>, tile<i32> -> token"""
    m = module(body, "%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>, %rows: tile<i32>, "
                     "%cols: tile<i32>, %c: tile<i32>")
    src = np.arange(8 * 6, dtype=np.float32).reshape(8, 6)
    dst = np.zeros((8, 6), np.float32)
    tileir.launch(m, "k", (1,), [src, dst, 8, 6, 3])
    assert (dst[1, 3:6] == src[5, 3:6]).all() and np.isnan(dst[1, :3]).sum() == 0
    assert (dst[3, 3:6] == src[0, 3:6]).all()
    assert np.isnan(dst[7, 3:6]).all()          # row 9 is out of bounds: padded with NaN
    assert (dst[:, :3] == 0).all()             # column 6 of the tile is out of bounds: skipped


def test_get_tensor_shape_and_index_space_shape_spec_example():
    view = "partition_view<tile=(2x2x4), tensor_view<2x2x4xf32, strides=[2,2,1]>>"
    body = f"""    %tv = make_tensor_view %src, shape = [2, 2, 4], strides = [2, 2, 1] : tensor_view<2x2x4xf32, strides=[2,2,1]>
    %pv = make_partition_view %tv : {view}
    %d0, %d1, %d2 = get_index_space_shape %pv : {view} -> tile<i64>
    %s0, %s1, %s2 = get_tensor_shape %tv : tensor_view<2x2x4xf32, strides=[2,2,1]> -> tile<i64>
    %a = constant <i64: 0> : tile<i64>
    %x = addi %d0, %d1 : tile<i64>
    %y = addi %x, %d2 : tile<i64>
    %z = muli %s0, %s1 : tile<i64>
    %w = muli %z, %s2 : tile<i64>
    %o = muli %y, %w : tile<i64>
    %o1 = reshape %o : tile<i64> -> tile<1xi64>
    %p1 = reshape %out : tile<ptr<i64>> -> tile<1xptr<i64>>
    %t = store_ptr_tko weak %p1, %o1 : tile<1xptr<i64>>, tile<1xi64> -> token"""
    out = np.zeros(1, np.int64)
    tileir.launch(module(body, "%src: tile<ptr<f32>>, %out: tile<ptr<i64>>"), "k", (1,),
                  [np.zeros(16, np.float32), out])
    assert out[0] == 3 * 16            # index space (1, 1, 1), tensor shape (2, 2, 4)


def test_view_beyond_its_buffer_is_an_error():
    view = f"partition_view<tile=(4x8), {TV}>"
    m = view_load_kernel(TV, view, "tile<4x8xf32>", 2)
    # the caller claims 8 rows but the array has 6: the load of rows 4..8 runs off the buffer
    with pytest.raises(MemoryAccessError) as err:
        tileir.launch(m, "k", (1,), [np.zeros((6, 8), np.float32), np.zeros((4, 8), np.float32),
                                     8, 8, 1, 0])
    assert err.value.element == (2, 0)


# -- globals and alloca ------------------------------------------------------------------------

def test_globals_persist_and_constant_globals_are_read_only():
    text = """cuda_tile.module @m {
  global @counter <i32: [0, 10]> : tile<2xi32>
  global constant @ro <i32: [5]> : tile<1xi32>
  entry @bump(%out: tile<ptr<i32>>) {
    %p = get_global @counter : tile<ptr<i32>>
    %v, %t = load_ptr_tko weak %p : tile<ptr<i32>> -> tile<i32>, token
    %one = constant <i32: 1> : tile<i32>
    %v1 = addi %v, %one : tile<i32>
    %t2 = store_ptr_tko weak %p, %v1 : tile<ptr<i32>>, tile<i32> -> token
    %t3 = store_ptr_tko weak %out, %v1 : tile<ptr<i32>>, tile<i32> -> token
    return
  }
  entry @write_ro() {
    %p = get_global @ro : tile<ptr<i32>>
    %one = constant <i32: 1> : tile<i32>
    %t = store_ptr_tko weak %p, %one : tile<ptr<i32>>, tile<i32> -> token
    return
  }
}"""
    m = tileir.parse(text)
    out = np.zeros(1, np.int32)
    k = tileir.compile(m, "bump")
    for _ in range(4):                  # one block: no race on the non-atomic increment
        k.launch((1,), [out])
    assert out[0] == 4 and k.read_global("counter").tolist() == [4, 10]
    with pytest.raises(MemoryAccessError, match="read-only"):
        tileir.launch(m, "write_ro", (1,), [])


def test_alloca_scratch_memory():
    body = """    %buf = alloca num_elem = 8, alignment = 64 : tile<ptr<f32>>
    %b1 = reshape %buf : tile<ptr<f32>> -> tile<1xptr<f32>>
    %bb = broadcast %b1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %lane = iota : tile<8xi32>
    %ptrs = offset %bb, %lane : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %vals = itof %lane signed : tile<8xi32> -> tile<8xf32>
    %t = store_ptr_tko weak %ptrs, %vals : tile<8xptr<f32>>, tile<8xf32> -> token
    %rev = constant <i32: [7, 6, 5, 4, 3, 2, 1, 0]> : tile<8xi32>
    %rptrs = offset %bb, %rev : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %v, %t2 = load_ptr_tko weak %rptrs token=%t : tile<8xptr<f32>> -> tile<8xf32>, token
    %o1 = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %o1 : tile<1xptr<f32>> -> tile<8xptr<f32>>
    %optrs = offset %ob, %lane : tile<8xptr<f32>>, tile<8xi32> -> tile<8xptr<f32>>
    %t3 = store_ptr_tko weak %optrs, %v : tile<8xptr<f32>>, tile<8xf32> -> token"""
    out = np.zeros(8, np.float32)
    info = tileir.launch(module(body, "%out: tile<ptr<f32>>"), "k", (2,), [out])
    assert out.tolist() == [7, 6, 5, 4, 3, 2, 1, 0] and info.mode == "batched"


_PER_BLOCK_ALLOCA = """    %buf = alloca num_elem = 4, alignment = 16 : tile<ptr<i32>>
    %b1 = reshape %buf : tile<ptr<i32>> -> tile<1xptr<i32>>
    %bb = broadcast %b1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %lane = iota : tile<4xi32>
    %at = offset %bb, %lane : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %old, %t0 = load_ptr_tko weak %at : tile<4xptr<i32>> -> tile<4xi32>, token
    %bid, %y, %z = get_tile_block_id : tile<i32>
    %b4 = reshape %bid : tile<i32> -> tile<1xi32>
    %bid4 = broadcast %b4 : tile<1xi32> -> tile<4xi32>
    %v = addi %old, %bid4 : tile<4xi32>
    %t1 = store_ptr_tko weak %at, %v token=%t0 : tile<4xptr<i32>>, tile<4xi32> -> token
    %c4 = constant <i32: 4> : tile<4xi32>
    %k = muli %bid4, %c4 : tile<4xi32>
    %slot = addi %k, %lane : tile<4xi32>
    %o1 = reshape %out : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ob = broadcast %o1 : tile<1xptr<i32>> -> tile<4xptr<i32>>
    %op = offset %ob, %slot : tile<4xptr<i32>>, tile<4xi32> -> tile<4xptr<i32>>
    %back, %t2 = load_ptr_tko weak %at token=%t1 : tile<4xptr<i32>> -> tile<4xi32>, token
    %t3 = store_ptr_tko weak %op, %back : tile<4xptr<i32>>, tile<4xi32> -> token"""


def test_alloca_is_zeroed_and_private_to_each_block_in_a_batch():
    """A batch of blocks runs in lock step: each block still sees only its own zeroed alloca."""
    out = np.full(4 * 50, -1, np.int32)
    kernel = tileir.compile(module(_PER_BLOCK_ALLOCA, "%out: tile<ptr<i32>>"), "k")
    for _ in range(2):      # the allocations are released: a second launch starts from zeros
        info = kernel.launch((50,), [out])
        assert info.mode == "batched"
        assert out.tolist() == np.repeat(np.arange(50, dtype=np.int32), 4).tolist()


def test_alloca_overrun_faults_even_where_the_next_block_allocation_follows():
    body = _PER_BLOCK_ALLOCA.replace("%lane = iota : tile<4xi32>",
                                     "%lane0 = iota : tile<4xi32>\n"
                                     "    %one = constant <i32: 1> : tile<4xi32>\n"
                                     "    %lane = addi %lane0, %one : tile<4xi32>")
    out = np.zeros(4 * 8, np.int32)
    with pytest.raises(MemoryAccessError, match="out-of-bounds read of 4 bytes .* past the end "
                       "of buffer 'alloca of 4 elements'"):
        tileir.launch(module(body, "%out: tile<ptr<i32>>"), "k", (8,), [out])


# -- atomics -----------------------------------------------------------------------------------

def run_rmw(mode, elem, dst, idx, arg):
    n = len(idx)
    text = f"""cuda_tile.module @m {{
  entry @k(%dst: tile<ptr<{elem}>>, %out: tile<ptr<{elem}>>, %idxp: tile<ptr<i32>>, %argp: tile<ptr<{elem}>>) {{
    %lane = iota : tile<{n}xi32>
    %i1 = reshape %idxp : tile<ptr<i32>> -> tile<1xptr<i32>>
    %ib = broadcast %i1 : tile<1xptr<i32>> -> tile<{n}xptr<i32>>
    %ip = offset %ib, %lane : tile<{n}xptr<i32>>, tile<{n}xi32> -> tile<{n}xptr<i32>>
    %idx, %t0 = load_ptr_tko weak %ip : tile<{n}xptr<i32>> -> tile<{n}xi32>, token
    %a1 = reshape %argp : tile<ptr<{elem}>> -> tile<1xptr<{elem}>>
    %ab = broadcast %a1 : tile<1xptr<{elem}>> -> tile<{n}xptr<{elem}>>
    %ap = offset %ab, %lane : tile<{n}xptr<{elem}>>, tile<{n}xi32> -> tile<{n}xptr<{elem}>>
    %arg, %t1 = load_ptr_tko weak %ap : tile<{n}xptr<{elem}>> -> tile<{n}x{elem}>, token
    %p1 = reshape %dst : tile<ptr<{elem}>> -> tile<1xptr<{elem}>>
    %pb = broadcast %p1 : tile<1xptr<{elem}>> -> tile<{n}xptr<{elem}>>
    %ptrs = offset %pb, %idx : tile<{n}xptr<{elem}>>, tile<{n}xi32> -> tile<{n}xptr<{elem}>>
    %old, %t = atomic_rmw_tko relaxed device %ptrs, {mode}, %arg : tile<{n}xptr<{elem}>>, tile<{n}x{elem}> -> tile<{n}x{elem}>, token
    %o1 = reshape %out : tile<ptr<{elem}>> -> tile<1xptr<{elem}>>
    %ob = broadcast %o1 : tile<1xptr<{elem}>> -> tile<{n}xptr<{elem}>>
    %optrs = offset %ob, %lane : tile<{n}xptr<{elem}>>, tile<{n}xi32> -> tile<{n}xptr<{elem}>>
    %t2 = store_ptr_tko weak %optrs, %old : tile<{n}xptr<{elem}>>, tile<{n}x{elem}> -> token
    return
  }}
}}"""
    out = np.zeros(n, dst.dtype)
    tileir.launch(tileir.parse(text), "k", (1,), [dst, out, np.asarray(idx, np.int32), arg])
    return out


def sequential_rmw(mode, dst, idx, arg):
    dst = dst.copy()
    old = []
    bits = dst.dtype.itemsize * 8
    for i, a in zip(idx, arg):
        o = dst[i]
        old.append(o)
        if mode == "add":
            dst[i] = np.array(int(o) + int(a)).astype(np.int64).astype(dst.dtype)
        elif mode == "addf":
            dst[i] = o + a
        elif mode == "and":
            dst[i] = o & a
        elif mode == "or":
            dst[i] = o | a
        elif mode == "xor":
            dst[i] = o ^ a
        elif mode == "max":
            dst[i] = max(o, a)
        elif mode == "min":
            dst[i] = min(o, a)
        elif mode in ("umax", "umin"):
            u = lambda v: int(v) & ((1 << bits) - 1)  # noqa: E731
            pick = (u(o) >= u(a)) if mode == "umax" else (u(o) <= u(a))
            dst[i] = o if pick else a
        elif mode == "xchg":
            dst[i] = a
    return dst, np.array(old, dtype=dst.dtype)


@pytest.mark.parametrize("elem", ["i32", "i64"])
@pytest.mark.parametrize("mode", ["add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg"])
def test_atomic_rmw_each_element_is_one_transaction(mode, elem):
    rng = np.random.default_rng(11)
    dt = np.int32 if elem == "i32" else np.int64
    dst = rng.integers(-1000, 1000, 4).astype(dt)
    idx = [0, 1, 0, 0, 3, 1, 0, 2]                   # duplicates within the tile
    arg = rng.integers(-2000, 2000, 8).astype(dt)
    arg[3] = np.iinfo(dt).max                        # wrap-around for add
    want_dst, want_old = sequential_rmw(mode, dst, idx, arg)
    d = dst.copy()
    old = run_rmw(mode, elem, d, idx, arg)
    assert d.tolist() == want_dst.tolist() and old.tolist() == want_old.tolist()


def test_atomic_addf_duplicates_round_per_transaction():
    dst = np.array([1.0, 0.0], np.float32)
    arg = np.array([1e-8, 1e-8, 1e8, -1e8, 0.5, 0.25, 3.0, 1e-8], np.float32)
    idx = [0, 0, 0, 0, 1, 1, 1, 0]
    want_dst, want_old = sequential_rmw("addf", dst, idx, arg)
    d = dst.copy()
    old = run_rmw("addf", "f32", d, idx, arg)
    assert d.tobytes() == want_dst.tobytes() and old.tobytes() == want_old.tobytes()


def test_atomic_cas_is_bitwise_and_masked_returns_cmp():
    text = """cuda_tile.module @m {
  entry @k(%dst: tile<ptr<f32>>, %out: tile<ptr<f32>>) {
    %p1 = reshape %dst : tile<ptr<f32>> -> tile<1xptr<f32>>
    %pb = broadcast %p1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %lane = iota : tile<4xi32>
    %ptrs = offset %pb, %lane : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %cmp = constant <f32: [0.0, -0.0, 0x7FC00001, 5.0]> : tile<4xf32>
    %val = constant <f32: [1.0, 2.0, 3.0, 4.0]> : tile<4xf32>
    %mask = constant <i1: [true, true, true, false]> : tile<4xi1>
    %old, %t = atomic_cas_tko acq_rel device %ptrs, %cmp, %val, %mask : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> tile<4xf32>, token
    %o1 = reshape %out : tile<ptr<f32>> -> tile<1xptr<f32>>
    %ob = broadcast %o1 : tile<1xptr<f32>> -> tile<4xptr<f32>>
    %optrs = offset %ob, %lane : tile<4xptr<f32>>, tile<4xi32> -> tile<4xptr<f32>>
    %t2 = store_ptr_tko weak %optrs, %old : tile<4xptr<f32>>, tile<4xf32> -> token
    return
  }
}"""
    nan1 = np.array([0x7FC00001], np.uint32).view(np.float32)[0]
    dst = np.array([0.0, 0.0, nan1, 5.0], np.float32)     # +0 vs -0 differ bitwise
    out = np.zeros(4, np.float32)
    tileir.launch(tileir.parse(text), "k", (1,), [dst, out])
    assert dst[0] == 1.0 and dst[1] == 0.0 and dst[2] == 3.0 and dst[3] == 5.0
    assert out[3] == 5.0 and out[0] == 0.0


def test_atomic_red_view_masks_edge_elements():
    tv = "tensor_view<?xf32, strides=[1]>"
    view = f"partition_view<tile=(8), {tv}>"
    body = f"""    %tv = make_tensor_view %dst, shape = [%n], strides = [1] : tile<i32> -> {tv}
    %pv = make_partition_view %tv : {view}
    %bx, %by, %bz = get_tile_block_id : tile<i32>
    %one = constant <f32: 1.5> : tile<8xf32>
    %c0 = constant <i32: 0> : tile<i32>
    %t = atomic_red_view_tko relaxed device %pv[%c0], addf, %one : tile<8xf32>, {view}, tile<i32> -> token"""
    dst = np.zeros(6, np.float32)
    info = tileir.launch(module(body, "%dst: tile<ptr<f32>>, %n: tile<i32>"), "k", (4,), [dst, 6])
    assert dst.tolist() == [6.0] * 6 and info.mode == "batched"


def test_stride_wraps_like_64_bit_address_arithmetic():
    # a stride of 2**64 - 1 (read unsigned) walks backwards, as 64-bit addresses wrap around
    tv = "tensor_view<4xf32, strides=[?]>"
    body = f"""    %three = constant <i32: 3> : tile<i32>
    %end = offset %src, %three : tile<ptr<f32>>, tile<i32> -> tile<ptr<f32>>
    %tv = make_tensor_view %end, shape = [4], strides = [%s] : tile<i64> -> {tv}
    %pv = make_partition_view %tv : partition_view<tile=(4), {tv}>
    %c0 = constant <i32: 0> : tile<i32>
    %v, %t = load_view_tko weak %pv[%c0] : partition_view<tile=(4), {tv}>, tile<i32> -> tile<4xf32>, token
    %t2 = store_view_tko weak %v, %pv[%c0] : tile<4xf32>, partition_view<tile=(4), {tv}>, tile<i32> -> token
    %tvo = make_tensor_view %dst, shape = [4], strides = [1] : tensor_view<4xf32, strides=[1]>
    %pvo = make_partition_view %tvo : partition_view<tile=(4), tensor_view<4xf32, strides=[1]>>
    %t3 = store_view_tko weak %v, %pvo[%c0] : tile<4xf32>, partition_view<tile=(4), tensor_view<4xf32, strides=[1]>>, tile<i32> -> token"""
    m = module(body, "%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>, %s: tile<i64>")
    src = np.arange(4, dtype=np.float32)
    dst = np.zeros(4, np.float32)
    tileir.launch(m, "k", (1,), [src, dst, -1])
    assert dst.tolist() == [3, 2, 1, 0] and src.tolist() == [0, 1, 2, 3]


def test_alloca_in_a_block_dependent_branch_allocates_for_the_blocks_taking_it():
    inner = _PER_BLOCK_ALLOCA.replace("%bid, %y, %z = get_tile_block_id : tile<i32>",
                                      "%bid, %y2, %z2 = get_tile_block_id : tile<i32>")
    body = ("    %id, %y, %z = get_tile_block_id : tile<i32>\n"
            "    %two = constant <i32: 2> : tile<i32>\n"
            "    %r = remi %id, %two signed : tile<i32>\n"
            "    %zero = constant <i32: 0> : tile<i32>\n"
            "    %even = cmpi equal %r, %zero, signed : tile<i32> -> tile<i1>\n"
            "    if %even {\n" + "\n".join("  " + line for line in inner.splitlines()) +
            "\n    }")
    out = np.full(4 * 10, -1, np.int32)
    info = tileir.launch(module(body, "%out: tile<ptr<i32>>"), "k", (10,), [out])
    assert info.mode == "batched" and info.divergent
    expected = [[b] * 4 if b % 2 == 0 else [-1] * 4 for b in range(10)]
    assert out.reshape(10, 4).tolist() == expected


def test_one_block_edge_tiles_and_index_errors_with_i64_indices():
    """A block addressing one tile (the one-lane path): stores to a cut edge tile write only
    the in-bounds part, a negative i64 index is outside the index space (not wrapped)."""
    tv = "tensor_view<?x?xf32, strides=[?,1]>"
    view = f"partition_view<tile=(4x4), {tv}>"
    body = f"""    %tv = make_tensor_view %src, shape = [%rows, %cols], strides = [%cols, 1] : tile<i64> -> {tv}
    %pv = make_partition_view %tv : {view}
    %tvo = make_tensor_view %dst, shape = [%rows, %cols], strides = [%cols, 1] : tile<i64> -> {tv}
    %pvo = make_partition_view %tvo : {view}
    %v, %t = load_view_tko weak %pv[%i, %j] : {view}, tile<i64> -> tile<4x4xf32>, token
    %w = addf %v, %v : tile<4x4xf32>
    %t2 = store_view_tko weak %w, %pvo[%i, %j] : tile<4x4xf32>, {view}, tile<i64> -> token"""
    m = module(body, "%src: tile<ptr<f32>>, %dst: tile<ptr<f32>>, %rows: tile<i64>, "
                     "%cols: tile<i64>, %i: tile<i64>, %j: tile<i64>")
    src = np.arange(6 * 7, dtype=np.float32).reshape(6, 7)
    for batch in (True, False):
        dst = np.full((6, 7), -1.0, np.float32)
        tileir.launch(m, "k", (2,), [src, dst, 6, 7, 1, 1], batch=batch)   # rows 4..5, cols 4..6
        want = np.full((6, 7), -1.0, np.float32)
        want[4:6, 4:7] = 2 * src[4:6, 4:7]
        assert dst.tobytes() == want.tobytes()
        with pytest.raises(UndefinedBehaviorError, match="outside the view's index space"):
            tileir.launch(m, "k", (1,), [src, dst, 6, 7, -1, 0], batch=batch)


@pytest.mark.parametrize("num", [10 ** 12, 1 << 62])
def test_alloca_beyond_the_machine_is_a_memory_access_error(num):
    """An alloca larger than the machine's memory (or the address space) is a diagnostic naming
    the op, not Python's MemoryError behind an "internal executor error"."""
    text = f"""cuda_tile.module @m {{
  entry @k() {{
    %a = alloca num_elem = {num}, alignment = 16 : tile<ptr<f32>>
    return
  }}
}}"""
    k = tileir.compile(tileir.parse(text), "k")
    with pytest.raises(MemoryAccessError, match="'cuda_tile.alloca' alloca of .*(out of memory|"
                                                "address space)") as err:
        k.launch((2,), [])
    assert "internal executor error" not in str(err.value)
