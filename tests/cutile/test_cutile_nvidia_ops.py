"""Op-level checks modelled on the areas NVIDIA's cuTile test suite covers (conversions and their
rounding modes, fp8 storage, NaN-aware max/min and reductions, custom reductions and scans,
byte packing, dynamic insert/extract, loops with run-time bounds, 64-bit scalar arguments,
printing), written for the CPU executor with NumPy references that follow the Tile IR spec.

Where the spec and GPU/PyTorch habits differ, the test pins the spec and says so:
float -> bool is ``ftoi unsigned`` to i1 (saturating), f8 targets saturate (*satfinite*, e4m3 NaN
gives +448), and a tile index outside a partition view's index space is undefined behaviour,
reported as an error rather than padded.
"""

from __future__ import annotations

import contextlib
import io

import ml_dtypes
import numpy as np
import pytest

from ctutil import require_cutile, tf32

ct = require_cutile()

import tileir  # noqa: E402
import tileir.cutile as tc  # noqa: E402
from tileir.execute.numerics.rounding import round_exact  # noqa: E402

E4M3 = ml_dtypes.float8_e4m3fn
E5M2 = ml_dtypes.float8_e5m2
BF16 = ml_dtypes.bfloat16
ConstInt = ct.Constant[int]


# ---------------------------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------------------------

@ct.kernel
def convert_to_f32(src, dst, N: ConstInt):
    t = ct.load(src, index=(0,), shape=(N,))
    ct.store(dst, index=(0,), tile=ct.astype(t, ct.float32))


@ct.kernel
def convert_to_dst_dtype(src, dst, N: ConstInt):
    t = ct.load(src, index=(0,), shape=(N,))
    ct.store(dst, index=(0,), tile=ct.astype(t, dst.dtype))


@ct.kernel
def tf32_round_nearest_away(src, dst, N: ConstInt):
    t = ct.load(src, index=(0,), shape=(N,))
    r = t.astype(ct.tfloat32, rounding_mode=ct.RoundingMode.RA)
    ct.store(dst, index=(0,), tile=ct.astype(r, ct.float32))


@ct.kernel
def tf32_round_toward_zero(src, dst, N: ConstInt):
    t = ct.load(src, index=(0,), shape=(N,))
    r = ct.astype(t, ct.tfloat32, rounding_mode=ct.RoundingMode.RZ)
    ct.store(dst, index=(0,), tile=ct.astype(r, ct.float32))


@ct.kernel
def f64_to_f32_round_down(src, dst, N: ConstInt):
    t = ct.load(src, index=(0,), shape=(N,))
    ct.store(dst, index=(0,), tile=t.astype(ct.float32, rounding_mode=ct.RoundingMode.RM))


@ct.kernel
def nan_aware_max_min(a, b, out, N: ConstInt, PROPAGATE: ct.Constant[bool]):
    ta = ct.load(a, index=(0,), shape=(N,))
    tb = ct.load(b, index=(0,), shape=(N,))
    hi = ct.maximum(ta, tb, propagate_nan=PROPAGATE)
    lo = ct.minimum(ta, tb, propagate_nan=PROPAGATE)
    ct.store(out, index=(0, 0), tile=ct.reshape(hi, (1, N)))
    ct.store(out, index=(1, 0), tile=ct.reshape(lo, (1, N)))


@ct.kernel
def row_reductions_with_nan(x, vals, idx, R: ConstInt, C: ConstInt,
                            PROPAGATE: ct.Constant[bool]):
    t = ct.load(x, index=(0, 0), shape=(R, C))
    ct.store(vals, index=(0, 0), tile=ct.reshape(ct.max(t, axis=1, propagate_nan=PROPAGATE),
                                                 (1, R)))
    ct.store(vals, index=(1, 0), tile=ct.reshape(ct.min(t, axis=1, propagate_nan=PROPAGATE),
                                                 (1, R)))
    ct.store(idx, index=(0, 0), tile=ct.reshape(ct.argmax(t, axis=1, propagate_nan=PROPAGATE),
                                                (1, R)))
    ct.store(idx, index=(1, 0), tile=ct.reshape(ct.argmin(t, axis=1, propagate_nan=PROPAGATE),
                                                (1, R)))


def _smallest_with_position(v1, i1, v2, i2):
    take_first = (v1 < v2) | ((v1 == v2) & (i1 < i2))
    return ct.where(take_first, v1, v2), ct.where(take_first, i1, i2)


@ct.kernel
def row_min_and_position(x, vals, pos, R: ConstInt, C: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(R, C))
    cols = ct.arange(C, dtype=ct.int32)
    v, p = ct.reduce((t, cols), 1, _smallest_with_position, (2**31 - 1, 0))
    ct.store(vals, index=(0,), tile=v)
    ct.store(pos, index=(0,), tile=p)


@ct.kernel
def int_row_sum(x, out, R: ConstInt, C: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(R, C))
    ct.store(out, index=(0,), tile=ct.sum(t, axis=1))


@ct.kernel
def scans(x, fwd_sum, rev_prod, run_max, R: ConstInt, C: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(R, C))
    ct.store(fwd_sum, index=(0, 0), tile=ct.cumsum(t, axis=1))
    ct.store(rev_prod, index=(0, 0), tile=ct.cumprod(t, axis=0, reverse=True))
    m = ct.scan(t, axis=1, func=lambda p, q: ct.maximum(p, q), identity=-2**31)
    ct.store(run_max, index=(0, 0), tile=m)


@ct.kernel
def reinterpret_via_bytes(src, dst, N: ConstInt):
    t = ct.load(src, index=(0,), shape=(N,))
    ct.store(dst, index=(0,), tile=ct.unpack_from_bytes(ct.pack_to_bytes(t), dst.dtype))


@ct.kernel
def bump_block_at(x, where, y, N: ConstInt, PART: ConstInt):
    t = ct.load(x, index=(0,), shape=(N,))
    k = ct.load(where, index=(0,), shape=())
    part = ct.extract(t, index=k, shape=PART) * 2.0
    ct.store(y, index=(0,), tile=ct.insert(t, k, part))


@ct.kernel
def write_loop_counter(out, lo, hi, step):
    slot = 0
    for v in range(lo, hi, step):
        ct.store(out, (slot,), tile=ct.full((1,), v, dtype=ct.int32))
        slot = slot + 1


@ct.kernel
def echo_int64(out, value: ct.ScalarInt64):
    ct.store(out, index=(0,), tile=ct.full((1,), value, dtype=ct.int64))
    ct.store(out, index=(1,), tile=ct.full((1,), value > 0, dtype=ct.int64))


@ct.kernel
def float_floordiv(a, b, out, N: ConstInt):
    ta = ct.load(a, index=(0,), shape=(N,))
    tb = ct.load(b, index=(0,), shape=(N,))
    ct.store(out, index=(0,), tile=ta // tb)


@ct.kernel
def load_tile_at(x, out, TILE: ConstInt, K: ConstInt):
    ct.store(out, index=(0,), tile=ct.load(x, index=(K,), shape=(TILE,)))


@ct.kernel
def copy_window(x, y, lo: int, hi: int, TILE: ConstInt):
    ct.store(y.slice(0, lo, hi), index=(0,),
             tile=ct.load(x.slice(0, lo, hi), index=(0,), shape=(TILE,)))


@ct.kernel
def print_row_sums(x, R: ConstInt, C: ConstInt):
    t = ct.load(x, index=(0, 0), shape=(R, C))
    ct.print(f"rows={ct.sum(t, 1)} all={ct.sum(t, None)}")


# ---------------------------------------------------------------------------------------------
# fp8 storage and conversions
# ---------------------------------------------------------------------------------------------

def test_float8_e5m2_arrays_are_accepted_as_arguments():
    # ml_dtypes' float8_e5m2 reports typestr '<f1', which NumPy cannot parse back; launching
    # with such an array used to fail inside the argument preparation
    vals = np.array([0.0, -0.0, 1.5, -3.0, 57344.0, 2.0**-16, -0.25, 448.0], dtype=E5M2)
    out = np.zeros(8, dtype=np.float32)
    tc.launch(convert_to_f32, (1,), (vals, out, 8))
    np.testing.assert_array_equal(out, vals.astype(np.float32))
    np.testing.assert_array_equal(np.signbit(out), np.signbit(vals.astype(np.float32)))


def test_float8_e5m2_strided_view_argument():
    base = np.arange(16, dtype=np.float32).astype(E5M2)
    out = np.zeros(8, dtype=np.float32)
    tc.launch(convert_to_f32, (1,), (base[::2], out, 8))
    np.testing.assert_array_equal(out, np.arange(0, 16, 2, dtype=np.float32))


@pytest.mark.parametrize("f8, top", [(E4M3, 448.0), (E5M2, 57344.0)])
def test_float8_targets_saturate_to_finite(f8, top):
    # §5.1.3: e4m3/e5m2 conversions are satfinite; e5m2 keeps NaN, e4m3 turns NaN into +MAX_NORM
    src = np.array([1e6, -1e6, np.inf, -np.inf, np.nan, 0.75, -2.5, 0.0], dtype=np.float32)
    dst = np.zeros(8, dtype=f8)
    tc.launch(convert_to_dst_dtype, (1,), (src, dst, 8))
    got = dst.astype(np.float32)
    np.testing.assert_array_equal(got[:4], [top, -top, top, -top])
    if f8 is E4M3:
        assert got[4] == top
    else:
        assert np.isnan(got[4])
    np.testing.assert_array_equal(got[5:], [0.75, -2.5, 0.0])


# ---------------------------------------------------------------------------------------------
# Rounding modes of conversions
# ---------------------------------------------------------------------------------------------

def test_tf32_nearest_away_rounds_ties_away_from_zero():
    # bytecode 13.4's rounding mode 7 (nearest_away), which cuTile emits for RoundingMode.RA
    ulp = 2.0 ** -10
    src = np.array([1 + ulp / 2, -(1 + ulp / 2), 1 + ulp / 4, 1 + 3 * ulp / 2, 3.0, -0.0,
                    np.inf, np.nan], dtype=np.float32)
    out = np.zeros(8, dtype=np.float32)
    tc.launch(tf32_round_nearest_away, (1,), (src, out, 8))
    np.testing.assert_array_equal(out[:6], [1 + ulp, -(1 + ulp), 1.0, 1 + 2 * ulp, 3.0, -0.0])
    assert np.signbit(out[5]) and out[6] == np.inf and np.isnan(out[7])


def test_tf32_toward_zero_and_default_nearest_even(rng):
    src = (rng.standard_normal(64) * 100).astype(np.float32)
    out = np.zeros(64, dtype=np.float32)
    tc.launch(tf32_round_toward_zero, (1,), (src, out, 64))
    truncated = (src.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    np.testing.assert_array_equal(out, truncated)
    tc.launch(convert_to_dst_dtype, (1,), (src, out, 64))   # f32 -> f32 is a no-op
    np.testing.assert_array_equal(out, src)
    assert np.all(tf32(src) == tf32(tf32(src)))


def test_f64_to_f32_round_toward_negative():
    lo = np.float32(1.0)
    hi = np.nextafter(lo, np.float32(2))
    mid = float(lo) + 0.6 * float(hi - lo)
    out = np.zeros(2, dtype=np.float32)
    tc.launch(f64_to_f32_round_down, (1,), (np.array([mid, -mid]), out, 2))
    np.testing.assert_array_equal(out, [lo, -hi])


def test_round_exact_nearest_away_unit():
    v = np.array([2.5, -2.5, 1 + 2.0**-11, -(1 + 2.0**-11), 65520.0, 1.25])
    got = round_exact(v, None, "f16", "nearest_away")
    np.testing.assert_array_equal(got, [2.5, -2.5, 1 + 2.0**-10, -(1 + 2.0**-10), np.inf, 1.25])
    # the sign of lo decides values that only look like ties
    got = round_exact(np.array([1 + 2.0**-11, 1 + 2.0**-11]), np.array([-1e-30, 1e-30]), "f16",
                      "nearest_away")
    np.testing.assert_array_equal(got, [1.0, 1 + 2.0**-10])


def test_nearest_away_is_only_valid_on_ftof():
    src = """cuda_tile.module @m {
  entry @k(%a: tile<f32>) {
    %r = reshape %a : tile<f32> -> tile<1xf32>
    %t = broadcast %r : tile<1xf32> -> tile<4xf32>
    %h = ftof %t rounding<nearest_away> : tile<4xf32> -> tile<4xf16>
    %s = addf %t, %t rounding<nearest_away> : tile<4xf32>
    return
  }
}"""
    module = tileir.parse(src)
    with pytest.raises(tileir.DiagnosticError, match="'cuda_tile.addf' op invalid rounding mode"):
        tileir.verify(module)
    tileir.verify(tileir.parse(src.replace(
        "    %s = addf %t, %t rounding<nearest_away> : tile<4xf32>\n", "")))


def test_float_to_bool_is_unsigned_saturating_ftoi():
    # cuTile lowers astype(bool) of a float to `ftoi unsigned` into i1: truncate, saturate to
    # [0, 1], NaN -> 0.  (PyTorch's x.to(bool) would be x != 0 instead.)
    src = np.array([-3.5, 0.5, 2.5, np.nan, 1.0, -0.0, 1e30, -1e30], dtype=np.float32)
    out = np.zeros(8, dtype=bool)
    tc.launch(convert_to_dst_dtype, (1,), (src, out, 8))
    np.testing.assert_array_equal(out, [False, False, True, False, True, False, True, False])


@pytest.mark.parametrize("dst", [np.int8, np.uint16, np.int64])
def test_float_to_int_saturates_and_maps_nan_to_zero(dst):
    info = np.iinfo(dst)
    src = np.array([np.nan, 1e30, -1e30, -7.9, 7.9, 0.0, -0.5, 100.5], dtype=np.float32)
    out = np.ones(8, dtype=dst)
    tc.launch(convert_to_dst_dtype, (1,), (src, out, 8))
    want = [0, info.max, info.min, max(-7, info.min), 7, 0, 0, min(100, info.max)]
    np.testing.assert_array_equal(out, np.array(want, dtype=dst))


def test_float_floordiv_floors_the_rounded_quotient():
    # cuTile lowers float `//` to floor(divf(a, b)): 7 / 0.1 rounds to 70 in f32, so the result
    # is 70 where NumPy's exact floor_divide gives 69
    a = np.array([7.0, -7.0, 1.0, -1.0], dtype=np.float32)
    b = np.array([0.1, 0.1, 3.0, 3.0], dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    tc.launch(float_floordiv, (1,), (a, b, out, 4))
    np.testing.assert_array_equal(out, np.floor(a / b))


# ---------------------------------------------------------------------------------------------
# NaN handling of max/min, reductions and argmax/argmin
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("propagate", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
def test_maximum_minimum_nan_modes(propagate, dtype):
    a = np.array([1.0, np.nan, np.nan, -2.0, 3.0, np.inf, 0.5, -np.inf], dtype=dtype)
    b = np.array([np.nan, 2.0, np.nan, -3.0, 3.0, 1.0, 0.25, 4.0], dtype=dtype)
    out = np.zeros((2, 8), dtype=dtype)
    tc.launch(nan_aware_max_min, (1,), (a, b, out, 8, propagate))
    pick_hi, pick_lo = (np.maximum, np.minimum) if propagate else (np.fmax, np.fmin)
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    np.testing.assert_array_equal(out[0].astype(np.float32), pick_hi(a32, b32))
    np.testing.assert_array_equal(out[1].astype(np.float32), pick_lo(a32, b32))


_NAN_ROWS = np.array([
    [2.0, -1.0, 6.0, 0.5, 3.0, 8.0, 1.0, 5.0],
    [4.0, np.inf, np.nan, 0.5, 7.0, -4.0, 1.0, 2.0],
    [np.nan, np.nan, 9.0, 3.0, np.nan, 6.0, np.nan, -0.5],
    [1.0, -6.0, 2.0, np.nan, 5.0, 0.0, -np.inf, 3.0],
    [np.nan] * 8,
    [1.0, 1.0, -2.0, 7.0, 7.0, -2.0, 0.0, 0.0],     # ties: the first position wins
    [0.0] * 8,
    [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -2.0],
], dtype=np.float32)


@pytest.mark.parametrize("propagate", [False, True])
def test_row_reductions_with_nan(propagate):
    vals = np.zeros((2, 8), dtype=np.float32)
    idx = np.zeros((2, 8), dtype=np.int32)
    tc.launch(row_reductions_with_nan, (1,), (_NAN_ROWS, vals, idx, 8, 8, propagate))
    if propagate:
        want_max, want_min = _NAN_ROWS.max(axis=1), _NAN_ROWS.min(axis=1)
        want_argmax, want_argmin = _NAN_ROWS.argmax(axis=1), _NAN_ROWS.argmin(axis=1)
    else:
        with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
            want_max, want_min = np.nanmax(_NAN_ROWS, axis=1), np.nanmin(_NAN_ROWS, axis=1)
        filled_hi = np.where(np.isnan(_NAN_ROWS), -np.inf, _NAN_ROWS)
        filled_lo = np.where(np.isnan(_NAN_ROWS), np.inf, _NAN_ROWS)
        want_argmax, want_argmin = filled_hi.argmax(axis=1), filled_lo.argmin(axis=1)
        want_argmax[4] = want_argmin[4] = 0      # an all-NaN row answers position 0
    np.testing.assert_array_equal(vals[0], want_max)
    np.testing.assert_array_equal(vals[1], want_min)
    np.testing.assert_array_equal(idx[0], want_argmax)
    np.testing.assert_array_equal(idx[1], want_argmin)


# ---------------------------------------------------------------------------------------------
# Custom reductions and scans, integer wrap-around
# ---------------------------------------------------------------------------------------------

def test_custom_reduce_over_value_index_pairs():
    x = np.array([[9, 4, 6, 4, 8, 5, 7, 4],
                  [3, 3, 3, 3, 3, 3, 3, 3],
                  [20, 19, 18, 17, 16, 15, 14, 13],
                  [-5, 0, -5, 1, -6, 2, -6, 3]], dtype=np.int32)
    vals = np.zeros(4, dtype=np.int32)
    pos = np.zeros(4, dtype=np.int32)
    tc.launch(row_min_and_position, (1,), (x, vals, pos, 4, 8))
    np.testing.assert_array_equal(vals, x.min(axis=1))
    np.testing.assert_array_equal(pos, x.argmin(axis=1))


def test_int8_sum_wraps_in_the_element_type(rng):
    x = rng.integers(-128, 128, (16, 64)).astype(np.int8)
    out = np.zeros(16, dtype=np.int8)
    tc.launch(int_row_sum, (1,), (x, out, 16, 64))
    np.testing.assert_array_equal(out, x.astype(np.int64).sum(axis=1).astype(np.int8))


def test_scans_forward_reverse_and_custom(rng):
    x = rng.integers(-9, 10, (8, 16)).astype(np.int32)
    fwd = np.zeros_like(x)
    rev = np.zeros_like(x)
    run = np.zeros_like(x)
    tc.launch(scans, (1,), (x, fwd, rev, run, 8, 16))
    np.testing.assert_array_equal(fwd, np.cumsum(x, axis=1))
    with np.errstate(over="ignore"):
        want_rev = np.flip(np.cumprod(np.flip(x, 0), axis=0, dtype=np.int32), 0)
    np.testing.assert_array_equal(rev, want_rev)
    np.testing.assert_array_equal(run, np.maximum.accumulate(x, axis=1))


# ---------------------------------------------------------------------------------------------
# Bytes, insert/extract, loops, scalar arguments, printing
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("src_dtype, dst_dtype", [(np.float32, np.int16), (np.int64, BF16),
                                                  (E4M3, np.uint8), (np.float64, E5M2)])
def test_pack_then_unpack_reinterprets_bytes(rng, src_dtype, dst_dtype):
    raw = rng.integers(0, 256, 64 * np.dtype(src_dtype).itemsize, dtype=np.uint8)
    src = raw.view(src_dtype)
    dst = np.zeros(raw.size // np.dtype(dst_dtype).itemsize, dtype=dst_dtype)
    tc.launch(reinterpret_via_bytes, (1,), (src, dst, src.size))
    np.testing.assert_array_equal(dst.view(np.uint8), raw)


@pytest.mark.parametrize("k", [0, 3])
def test_insert_extract_at_runtime_index(k):
    x = np.arange(128, dtype=np.float32)
    y = np.zeros_like(x)
    tc.launch(bump_block_at, (1,), (x, np.array([k], dtype=np.int32), y, 128, 32))
    want = x.copy()
    want[32 * k:32 * (k + 1)] *= 2
    np.testing.assert_array_equal(y, want)


def test_extract_index_out_of_range_is_a_clear_error():
    x = np.arange(128, dtype=np.float32)
    with pytest.raises(tileir.LaunchError, match="extract index 4 along dimension 0"):
        tc.launch(bump_block_at, (1,), (x, np.array([4], dtype=np.int32), np.zeros_like(x),
                                        128, 32))


@pytest.mark.parametrize("lo, hi, step", [(1, 11, 2), (0, 0, 1), (7, 3, 1), (2, 10, 3)])
def test_loop_with_runtime_bounds(lo, hi, step):
    want = np.arange(lo, hi, step, dtype=np.int32)
    out = np.full(max(1, want.size), -1, dtype=np.int32)
    tc.launch(write_loop_counter, (1,), (out, lo, hi, step))
    np.testing.assert_array_equal(out[:want.size], want)
    if want.size == 0:
        assert out[0] == -1


def test_loop_with_negative_runtime_step_is_a_clear_error():
    with pytest.raises(tileir.LaunchError, match="step must be positive"):
        tc.launch(write_loop_counter, (1,), (np.zeros(8, dtype=np.int32), 11, 1, -2))


@pytest.mark.parametrize("value", [2**31, 2**40, 2**63 - 1, -2**63, -5])
def test_int64_scalar_arguments(value):
    out = np.zeros(2, dtype=np.int64)
    tc.launch(echo_int64, (1,), (out, value))
    np.testing.assert_array_equal(out, [value, int(value > 0)])


def test_print_formats_reductions():
    x = np.arange(8, dtype=np.int32).reshape(2, 4)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        tc.launch(print_row_sums, (1,), (x, 2, 4))
    assert buf.getvalue().strip() == "rows=[6, 22] all=28"


# ---------------------------------------------------------------------------------------------
# Tile indices outside a view's index space (undefined behaviour in the spec)
# ---------------------------------------------------------------------------------------------

def test_tile_index_past_the_index_space_is_an_error_not_padding():
    # 100 elements with 128-wide tiles have one tile (index space [0, 1)); tile 1 is outside.
    # GPUs happen to return padding there; the spec (§5.3.3) makes it undefined behaviour.
    x = np.ones(100, dtype=np.float32)
    with pytest.raises(tileir.LaunchError, match="outside the view's index space"):
        tc.launch(load_tile_at, (1,), (x, np.zeros(128, dtype=np.float32), 128, 1))
    out = np.zeros(128, dtype=np.float32)
    tc.launch(load_tile_at, (1,), (x, out, 128, 0))    # the partial tile itself is fine
    np.testing.assert_array_equal(out[:100], 1.0)


def test_empty_array_slice_has_no_tiles():
    x = np.arange(16, dtype=np.float32)
    y = np.zeros_like(x)
    tc.launch(copy_window, (1,), (x, y, 4, 5, 8))
    np.testing.assert_array_equal(y, np.where(np.arange(16) == 4, x, 0))
    with pytest.raises(tileir.LaunchError, match="index space"):
        tc.launch(copy_window, (1,), (x, y, 4, 4, 8))
