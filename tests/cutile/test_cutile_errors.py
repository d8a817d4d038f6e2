"""Clear errors from tileir.cutile: cuTile missing, bad grids, bad arguments, a kernel using
something tileir cannot run, faults inside the kernel (located in the Python source)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import tileir
import tileir.cutile as tc


def test_missing_cutile_says_how_to_install(monkeypatch):
    """Runs without cuda-tile too: hide it and check the message."""
    from tileir.cutile import _cutile
    monkeypatch.setattr(_cutile, "_CT", None)
    monkeypatch.setitem(sys.modules, "cuda.tile", None)
    monkeypatch.setitem(sys.modules, "cuda.tile.compilation", None)
    with pytest.raises(tc.CutileNotInstalledError, match=r'pip install -e "\.\[cutile\]"'):
        tc.launch(object(), (1,), ())
    with pytest.raises(ImportError):
        tc.signature(object(), ())
    assert tc.available() is False


def test_grid_validation_without_cutile():
    assert tc.normalize_grid((5,)) == (5, 1, 1)
    assert tc.normalize_grid((2, 3)) == (2, 3, 1)
    assert tc.normalize_grid((np.int64(4), 1, 2)) == (4, 1, 2)
    with pytest.raises(TypeError, match="Grid must be a tuple"):
        tc.normalize_grid([4])
    with pytest.raises(TypeError, match="Grid must be a tuple"):
        tc.normalize_grid(4)
    with pytest.raises(ValueError, match="at most 3, got length 4"):
        tc.normalize_grid((1, 1, 1, 1))
    with pytest.raises(ValueError, match=r"Grid\[0\] exceeds 24-bit limit: max=16777215, "
                                         r"got=16777216"):
        tc.normalize_grid((1 << 24,))
    with pytest.raises(ValueError, match=r"Grid\[1\] must be at least 1"):
        tc.normalize_grid((1, 0))
    with pytest.raises(TypeError, match=r"Grid\[0\] must be an int, got float"):
        tc.normalize_grid((1.5,))


# ------------------------------------------------------------------------------ with cuTile

@pytest.fixture
def K():
    from ctutil import require_cutile
    require_cutile()
    import cpu_kernels
    return cpu_kernels


def _f32(*shape):
    return np.zeros(shape, dtype=np.float32)


def test_not_a_kernel(K):
    def plain(a):
        pass
    with pytest.raises(TypeError, match="@cuda.tile.kernel"):
        tc.launch(plain, (1,), (_f32(4),))


def test_wrong_number_of_arguments(K):
    with pytest.raises(TypeError, match=r"Wrong number of arguments to kernel "
                                        r"'vec_add_kernel_1d': expected 4 \(a, b, c, TILE\), "
                                        r"got 3"):
        tc.launch(K.vec_add_kernel_1d, (1,), (_f32(4), _f32(4), _f32(4)))
    with pytest.raises(TypeError, match="must be a tuple"):
        tc.launch(K.vec_add_kernel_1d, (1,), _f32(4))


def test_bad_grid_is_checked_first(K):
    with pytest.raises(TypeError, match="Grid must be a tuple"):
        tc.launch(K.vec_add_kernel_1d, [1], (_f32(4), _f32(4), _f32(4), 4))


class _GPUTensor:
    def __dlpack__(self, **kw):
        raise AssertionError("must not be called")

    def __dlpack_device__(self):
        return (2, 0)


class _CudaArrayInterface:
    __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False),
                                "version": 3}


def test_gpu_arrays_are_rejected(K):
    with pytest.raises(TypeError, match=r"argument #1 'b' .* lives on a CUDA device.*CPU"):
        tc.launch(K.vec_add_kernel_1d, (1,), (_f32(4), _GPUTensor(), _f32(4), 4))
    with pytest.raises(TypeError, match="CUDA device"):
        tc.launch(K.vec_add_kernel_1d, (1,), (_CudaArrayInterface(), _f32(4), _f32(4), 4))


def test_constant_parameters(K):
    with pytest.raises(TypeError, match=r"'TILE' .* compile-time constant \(ct.Constant\)"):
        tc.launch(K.vec_add_kernel_1d, (1,), (_f32(4), _f32(4), _f32(4), _f32(1)))
    with pytest.raises(TypeError, match="only bool, int and float constants"):
        tc.launch(K.vec_add_kernel_1d, (1,), (_f32(4), _f32(4), _f32(4), "16"))


def test_scalar_overflow(K):
    x = _f32(64)
    with pytest.raises(OverflowError, match=r"does not fit in int32; annotate the parameter "
                                            r"with ct.ScalarInt64"):
        tc.launch(K.axpby_kernel, (1,), (x, x, x, 1.0, 1.0, 1 << 40, 64))
    with pytest.raises(OverflowError, match="does not fit in int64"):
        tc.launch(K.scale_shift_kernel, (1,), (x, x, 1.0, 1 << 70, True, 64))


def test_unsupported_argument_types(K):
    x = _f32(64)
    with pytest.raises(TypeError, match="dtype complex64"):
        tc.launch(K.vec_add_kernel_1d, (1,), (x, x, np.zeros(64, np.complex64), 64))
    with pytest.raises(TypeError, match="cannot pass a value of type str"):
        tc.launch(K.axpby_kernel, (1,), (x, x, x, "2.0", 1.0, 5, 64))
    with pytest.raises(TypeError, match="empty lists are not supported"):
        tc.launch(K.sum_list_kernel, (1,), ([], x, 64))
    with pytest.raises(TypeError, match="same dtype and rank"):
        tc.launch(K.sum_list_kernel, (1,), ([x, x.astype(np.float16)], x, 64))
    with pytest.raises(TypeError, match="must hold arrays"):
        tc.launch(K.sum_list_kernel, (1,), ([x, 1.0], x, 64))


def test_cutile_type_errors_pass_through(K):
    import cuda.tile as ct
    m = _f32(4, 4)
    with pytest.raises(ct.TileError, match="does not match the array rank 2"):
        tc.launch(K.vec_add_kernel_1d, (1,), (m, m, m, 4))


def test_unsupported_op_is_named(K, monkeypatch):
    """A kernel using an op the executor has no semantics for: the error names the op and
    the kernel's Python source line."""
    from tileir.execute import plan
    tc.clear_cache()
    monkeypatch.delitem(plan.LOWERINGS, "cuda_tile.addf")
    x = _f32(64)
    with pytest.raises(tileir.execute.UnsupportedError) as info:
        tc.launch(K.vec_add_kernel_1d, (1,), (x, x, x, 64))
    text = str(info.value)
    assert "kernel 'vec_add_kernel_1d' uses a feature tileir cannot run yet" in text
    assert "'cuda_tile.addf'" in text
    assert "cpu_kernels.py:" in text
    assert tc.cache_info(K.vec_add_kernel_1d)["entries"] == 0     # nothing cached
    monkeypatch.undo()
    tc.launch(K.vec_add_kernel_1d, (1,), (x, x, x, 64))


def test_out_of_bounds_access_names_the_source_line(K):
    src = np.arange(16, dtype=np.float32)
    idx = np.array([0, 3, 99, 1], dtype=np.int32)
    dst = np.zeros(4, dtype=np.float32)
    with pytest.raises(tileir.execute.MemoryAccessError) as info:
        tc.launch(K.unchecked_gather_kernel, (1,), (src, idx, dst, 4))
    text = str(info.value)
    assert "cpu_kernels.py:" in text and "out-of-bounds read" in text
    assert "element [2]" in text


def test_store_to_read_only_array(K):
    x = np.ones(64, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    out.flags.writeable = False
    with pytest.raises(tileir.execute.MemoryAccessError, match="read-only"):
        tc.launch(K.vec_add_kernel_1d, (1,), (x, x, out, 64))
