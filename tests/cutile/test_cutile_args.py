"""Launch arguments: strided (non-contiguous) arrays, PyTorch CPU tensors and other DLPack /
__array__ objects, scalars, constants, lists and tuples; the signature tileir.cutile builds
(cuTile's JIT specialisation rules); the per-signature cache."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from ctutil import require_cutile

ct = require_cutile()

import tileir  # noqa: E402
import tileir.cutile as tc  # noqa: E402
import cpu_kernels as K  # noqa: E402


def _vadd(a, b, c, tile=64, n=None):
    n = c.shape[0] if n is None else n
    return tc.launch(K.vec_add_kernel_1d, (ct.cdiv(n, tile),), (a, b, c, tile))


# ------------------------------------------------------------------------------ strided arrays

def test_strided_inputs_and_output(rng):
    n = 1000
    big_a = rng.standard_normal(3 * n).astype(np.float32)
    big_b = rng.standard_normal(2 * n).astype(np.float32)
    out = np.full(4 * n, -7.0, dtype=np.float32)
    a, b, c = big_a[1::3], big_b[::2], out[2::4]
    assert not (a.flags.c_contiguous or b.flags.c_contiguous or c.flags.c_contiguous)
    _vadd(a, b, c)
    np.testing.assert_array_equal(c, a + b)
    mask = np.ones(4 * n, dtype=bool)
    mask[2::4] = False
    assert (out[mask] == -7.0).all()          # nothing outside the view was touched


def test_strided_arrays_are_passed_in_place(rng):
    """A strided view is mapped as the memory span it covers (no copy): the kernel sees the
    caller's strides."""
    n = 256
    big = np.zeros(2 * n, dtype=np.float32)
    a = rng.standard_normal(n).astype(np.float32)
    sig = tc.signature(K.vec_add_kernel_1d, (a, a, big[::2], 64))
    out_c = sig.parameters[2]
    assert out_c.stride_constant == (None,)            # stride 2: not specialised to 1
    assert sig.parameters[0].stride_constant == (1,)
    _vadd(a, a, big[::2])
    np.testing.assert_array_equal(big[::2], a + a)
    assert (big[1::2] == 0).all()


def test_negative_strides_are_copied_and_written_back(rng):
    n = 300
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    base = np.zeros(n, dtype=np.float32)
    c = base[::-1]
    _vadd(a[::-1], b, c)
    np.testing.assert_array_equal(c, a[::-1] + b)
    np.testing.assert_array_equal(base, (a[::-1] + b)[::-1])


@pytest.mark.parametrize("layout", ["C", "F", "transposed", "slice", "columns"])
def test_2d_layouts(rng, layout):
    src = rng.standard_normal((90, 130)).astype(np.float32)
    if layout == "C":
        x = src
    elif layout == "F":
        x = np.asfortranarray(src)
    elif layout == "transposed":
        x = np.ascontiguousarray(src.T).T
    elif layout == "slice":
        x = np.pad(src, ((3, 5), (7, 2)))[3:93, 7:137]
    else:
        x = np.repeat(src, 2, axis=1)[:, ::2]
    np.testing.assert_array_equal(x, src)
    y_base = np.zeros((130, 90), dtype=np.float32)
    y = y_base.T                                # a transposed (F-order) output
    tc.launch(K.copy_2d_kernel, (ct.cdiv(90, 32), ct.cdiv(130, 32)), (x, y, 32, 32))
    np.testing.assert_array_equal(y, src)
    np.testing.assert_array_equal(y_base, src.T)


def test_broadcast_input_may_alias_internally(rng):
    row = rng.standard_normal(64).astype(np.float32)
    a = np.broadcast_to(row, (48, 64))            # stride 0 along dim 0, read-only
    b = np.ones((48, 64), dtype=np.float32)
    c = np.zeros((48, 64), dtype=np.float32)
    sig = tc.signature(K.vec_add_kernel_2d, (a, b, c, 16, 16))
    assert sig.parameters[0].may_alias_internally is True
    assert sig.parameters[1].may_alias_internally is False
    tc.launch(K.vec_add_kernel_2d, (3, 4), (a, b, c, 16, 16))
    np.testing.assert_array_equal(c, a + b)


def test_batched_matmul_on_strided_views(rng):
    A = rng.standard_normal((2, 64, 96)).astype(np.float16)
    Bfull = rng.standard_normal((2, 48, 64)).astype(np.float16)
    B = Bfull.transpose(0, 2, 1)[:, ::2, :]       # (2, 32, 48)... non-contiguous
    A = A[:, :, :32]
    C = np.zeros((2, 64, 48), dtype=np.float32)
    tc.launch(K.batch_matmul_kernel, (2, 2, 3), (A, B, C, 32, 16, 16))
    want = A.astype(np.float64) @ B.astype(np.float64)
    np.testing.assert_allclose(C, want, rtol=1e-5, atol=1e-4)


# ------------------------------------------------------------------------------ other array types

class DLPackOnly:
    """A CPU array that offers only the DLPack protocol."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kw):
        return self._arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


class ArrayInterfaceOnly:
    def __init__(self, arr):
        self.__array_interface__ = arr.__array_interface__
        self._keep = arr


def test_dlpack_and_array_interface_objects(rng):
    n = 500
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    c = np.zeros(n, dtype=np.float32)
    _vadd(DLPackOnly(a), ArrayInterfaceOnly(b), DLPackOnly(c), n=n)
    np.testing.assert_array_equal(c, a + b)      # written through the DLPack view, in place


def _torch():
    return pytest.importorskip("torch", reason="PyTorch is not installed (optional: the "
                               "tests use it only when it is importable)")


def test_torch_cpu_tensors():
    torch = _torch()
    n = 1000
    a = torch.randn(n)
    b = torch.randn(n)
    c = torch.zeros(n)
    _vadd(a, b, c)
    assert torch.equal(c, a + b)


def test_torch_strided_bf16_and_requires_grad():
    torch = _torch()
    n = 512
    a = torch.randn(2 * n)[::2]                    # strided
    b = torch.randn(n, requires_grad=True)         # read through .detach()
    c = torch.zeros(3 * n)[1::3]
    _vadd(a, b, c)
    assert torch.equal(c, a + b.detach())
    x = torch.randn(64, 64).to(torch.bfloat16)
    y = torch.zeros(64, 64, dtype=torch.bfloat16)
    tc.launch(K.vec_add_kernel_2d, (4, 4), (x, x.t(), y, 16, 16))
    assert torch.equal(y, x + x.t())


def test_torch_matmul_and_softmax():
    torch = _torch()
    A = torch.randn(64, 32, dtype=torch.float16)
    B = torch.randn(32, 48, dtype=torch.float16)
    C = torch.zeros(64, 48, dtype=torch.float32)
    tc.launch(K.matmul_kernel, (ct.cdiv(64, 32) * ct.cdiv(48, 16),), (A, B, C, 32, 16, 16))
    torch.testing.assert_close(C, A.float() @ B.float(), rtol=1e-4, atol=1e-3)
    x = torch.randn(10, 100)
    y = torch.empty_like(x)
    tc.launch(K.softmax_kernel, (10,), (x, y, 128))
    torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------------------ scalars, constants

def test_scalar_types_follow_cutile():
    x = np.zeros(64, dtype=np.float32)
    y = np.zeros(64, dtype=np.float64)
    sig = tc.signature(K.scale_shift_kernel, (x, y, 1.5, 3, True, 32))
    scale, shift, negate = sig.parameters[2:5]
    assert scale.dtype == ct.float32              # Python float -> f32
    assert shift.dtype == ct.int64                # ct.ScalarInt64
    assert negate.dtype == ct.bool_
    sig = tc.signature(K.axpby_kernel, (x, x, x, np.float64(2.0), 1.0, 5, 32))
    assert sig.parameters[3].dtype == ct.float32  # np.float64 is a Python float, as in cuTile
    assert sig.parameters[5].dtype == ct.int32    # Python int -> i32
    sig = tc.signature(K.axpby_kernel, (x, x, x, np.float16(2.0), np.float32(1.0),
                                        np.int64(5), 32))
    assert [p.dtype for p in sig.parameters[3:6]] == [ct.float16, ct.float32, ct.int64]


def test_numpy_scalars_run(rng):
    n = 100
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    out = np.zeros(n, dtype=np.float32)
    tc.launch(K.axpby_kernel, (1,), (x, y, out, np.float32(2.0), np.float16(0.5), np.int16(n),
                                     128))
    np.testing.assert_allclose(out, 2 * x + 0.5 * y, rtol=1e-6, atol=1e-6)


def test_constants_specialise_per_value(rng):
    x = rng.standard_normal(128).astype(np.float32)
    y = np.zeros_like(x)
    kern = K.scale_by_constant_kernel
    before = tc.cache_info(kern)["entries"]
    tc.launch(kern, (2,), (x, y, 2.0, False, 64))
    np.testing.assert_array_equal(y, x * 2)
    tc.launch(kern, (2,), (x, y, 3.0, True, 64))
    np.testing.assert_array_equal(y, x * x * 3)
    tc.launch(kern, (2,), (x, y, np.float64(2.0), np.bool_(False), np.int64(64)))
    np.testing.assert_array_equal(y, x * 2)
    assert tc.cache_info(kern)["entries"] == before + 2
    sig = tc.signature(kern, (x, y, 2.0, False, 64))
    assert [p.value for p in sig.parameters[2:]] == [2.0, False, 64]


# ------------------------------------------------------------------------------ lists, tuples

def test_list_of_arrays(rng):
    T = 32
    arrs = [rng.standard_normal(3 * T).astype(np.float32) for _ in range(4)]
    arrs[2] = np.repeat(arrs[2], 2)[::2]            # a strided element
    out = np.zeros(3 * T, dtype=np.float32)
    tc.launch(K.sum_list_kernel, (3,), (arrs, out, T))
    want = np.zeros(3 * T, dtype=np.float32)
    for a in arrs:
        want = want + a
    np.testing.assert_array_equal(out, want)
    sig = tc.signature(K.sum_list_kernel, (arrs, out, T))
    assert type(sig.parameters[0]).__name__ == "ListConstraint"


def test_tuple_argument_uses_cutile_python_v2(rng):
    T = 16
    a = rng.standard_normal(2 * T).astype(np.float32)
    b = rng.standard_normal(2 * T).astype(np.float32)
    out = np.zeros(2 * T, dtype=np.float32)
    tc.launch(K.pair_kernel, (2,), ((a, b), 2.0, out, T))
    np.testing.assert_array_equal(out, (a + b) * np.float32(2.0))
    assert tc.signature(K.pair_kernel, ((a, b), 2.0, out, T)).calling_convention.code == "t2"


# ------------------------------------------------------------------------------ annotations

def test_int64_indexing(rng):
    x = rng.standard_normal(100).astype(np.float32)
    y = np.zeros_like(x)
    sig = tc.signature(K.big_index_copy_kernel, (x, y, 32))
    assert sig.parameters[0].index_dtype == ct.int64
    compiled = tc.compile(K.big_index_copy_kernel, (x, y, 32))
    assert "tile<i64>" in tileir.print(compiled.module)
    tc.launch(K.big_index_copy_kernel, (4,), (x, y, 32))
    np.testing.assert_array_equal(y, x + 1)


def test_static_shape_annotation(rng):
    x = rng.standard_normal(40).astype(np.float32)
    y = np.zeros(40, dtype=np.float32)
    sig = tc.signature(K.static_shape_kernel, (x, y, 16))
    assert sig.parameters[0].shape_constant == (40,)
    assert sig.calling_convention.code == "t2"
    tc.launch(K.static_shape_kernel, (3,), (x, y, 16))
    np.testing.assert_array_equal(y, x * 40)


# ------------------------------------------------------------------------------ JIT rules

def test_signature_follows_the_jit_specialisation_rules():
    a = np.zeros((32, 48), dtype=np.float16)       # shapes divisible by 16, row stride 48*2 B
    b = np.zeros((1, 50), dtype=np.float32)        # extent-1 dim, 50 not divisible by 16
    c = np.zeros((7, 16), dtype=np.float32)[:, ::2]
    sig = tc.signature(K.vec_add_kernel_2d, (a, b, c, 16, 16))
    pa, pb, pc = sig.parameters[:3]
    assert (pa.dtype, pa.ndim, pa.index_dtype) == (ct.float16, 2, ct.int32)
    assert pa.stride_constant == (None, 1)
    assert pa.stride_divisible_by == (8, 1)        # 96 bytes: 16-byte multiple -> 8 elements
    assert pa.shape_divisible_by == (16, 16)
    assert pa.base_addr_divisible_by == 16
    assert pa.may_alias_internally is False
    assert pb.shape_constant == (1, None)          # extent 1 -> constant (needs v2)
    assert pb.shape_divisible_by == (1, 1)
    assert pc.stride_constant == (None, None)      # strides (16, 2)
    assert pc.stride_divisible_by == (4, 1)
    assert sig.calling_convention.code == "t2"


def test_array_specs_remembered_per_layout_give_the_same_signature():
    """An array's spec is worked out once per dtype, shape, strides and annotation: asking
    again (a second launch) gives the same signature, with the extent-1 dimension's stride
    seen as 0 both times; another layout gets its own spec."""
    from tileir.frontends.cutile import _params
    a = np.zeros((32, 48), dtype=np.float16)
    b = np.zeros((1, 50), dtype=np.float32)
    c = np.zeros((7, 16), dtype=np.float32)[:, ::2]
    _params._SPECS.clear()
    first = tc.signature(K.vec_add_kernel_2d, (a, b, c, 16, 16))
    held = len(_params._SPECS)
    again = tc.signature(K.vec_add_kernel_2d, (a.copy(), b.copy(), c, 16, 16))
    assert len(_params._SPECS) == held >= 3
    assert [p.__dict__ if hasattr(p, "__dict__") else p for p in again.parameters] == \
        [p.__dict__ if hasattr(p, "__dict__") else p for p in first.parameters]
    spec, payload = _params.classify(_params.parameter_nodes(K.vec_add_kernel_2d, ct)[1][1], b,
                                     "b")
    assert payload.strides == (0, 1) and spec.shape_constant == (1, None)
    other = tc.signature(K.vec_add_kernel_2d, (a[:16], b, c, 16, 16))
    assert len(_params._SPECS) == held + 1 and other.parameters[0].shape_divisible_by == (16, 16)


# ------------------------------------------------------------------------------ cache

def test_cache_reuses_bytecode_and_plan(rng):
    tc.clear_cache()
    a = rng.standard_normal(1000).astype(np.float32)
    b = rng.standard_normal(1003).astype(np.float32)
    out_a = np.zeros_like(a)
    out_b = np.zeros_like(b)
    first = tc.compile(K.vec_add_kernel_1d, (a, a, out_a, 64))
    _vadd(a, a, out_a)
    _vadd(b, b, out_b)                              # same signature: a cache hit
    again = tc.compile(K.vec_add_kernel_1d, (b, b, out_b, 64))
    assert again is first
    assert first.launches == 2
    info = tc.cache_info()
    assert info["misses"] == 1 and info["hits"] == 3 and info["entries"] == 1
    np.testing.assert_array_equal(out_b, b + b)
    c = np.zeros(1024, dtype=np.float32)            # divisible by 16: a new specialisation
    _vadd(c, c, c)
    assert tc.cache_info(K.vec_add_kernel_1d)["entries"] == 2
    assert first.bytecode.startswith(b"\x7fTileIR\x00")
    tc.clear_cache()
    assert tc.cache_info() == {"hits": 0, "misses": 0, "entries": 0}


def test_torch_dtypes_and_expanded_tensors():
    torch = _torch()
    T = 64
    xb = torch.randn(2 * T).to(torch.bfloat16)
    y8 = torch.zeros(2 * T, dtype=torch.float8_e4m3fn)
    z64 = torch.zeros(2 * T, dtype=torch.float64)
    w = torch.zeros(2 * T, dtype=torch.uint8)
    tc.launch(K.dtype_convert_kernel, (2,), (xb, y8, z64, w, T))
    assert torch.equal(y8.float(), xb.float().to(torch.float8_e4m3fn).float())
    assert torch.equal(z64, xb.double() * 1.5)
    assert torch.equal(w, (xb > 0).to(torch.uint8) + 200)
    x = torch.randn(64).expand(32, 64)                 # stride 0
    y = torch.ones(32, 64)
    z = torch.zeros(32, 64)
    tc.launch(K.vec_add_kernel_2d, (2, 4), (x, y, z, 16, 16))
    assert torch.equal(z, x + y)
