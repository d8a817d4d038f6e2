"""Every bundled example runs and matches NumPy (lock-step and one block at a time); kernels
exported by NVIDIA's cuTile Python (tests/execute/data/cutile) run with cuTile's calling
convention; the `tileir run` and `tileir demo` command lines."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import tileir
from tileir.cli import main as cli_main
from tileir.cli.demo import run_example

from cutile_conv import run_sample
from differential import check_batched_launches

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = sorted(p.stem for p in EXAMPLES.glob("*.mlir") if (EXAMPLES / f"{p.stem}.py").exists())
REQUIRED = {"vector_add", "matmul", "softmax", "layernorm", "cumsum", "argmax_abs", "histogram",
            "attention"}


@pytest.fixture(autouse=True)
def batched_equals_sequential(monkeypatch):
    """Every batched launch of these tests (each example, each cuTile sample kernel) is also
    run one tile block at a time and must leave identical bits (tests/execute/differential)."""
    return check_batched_launches(monkeypatch)


def test_required_examples_exist():
    assert REQUIRED <= set(NAMES)


@pytest.mark.parametrize("batch", [True, False], ids=["batched", "sequential"])
@pytest.mark.parametrize("name", NAMES)
def test_example_matches_numpy(name, batch):
    r = run_example(EXAMPLES, name, seed=1, batch=batch)
    assert r.ok, f"{name}: error {r.error} > tolerance {r.tolerance}"


# -- cuTile Python kernels ---------------------------------------------------------------------

rng = np.random.default_rng(0)


def close(got, want, tol):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert np.max(np.abs(got - want), initial=0) <= tol * max(1.0, np.max(np.abs(want)))


def test_cutile_vector_add_and_saxpy():
    n = 1000
    a, b, c = (rng.random(n, dtype=np.float32) for _ in range(3))
    run_sample("vector_add", ((n + 15) // 16,), a, b, c)
    assert (c == a + b).all()
    x, y = rng.random(300, dtype=np.float32), rng.random(300, dtype=np.float32)
    y0 = y.copy()
    run_sample("saxpy_scalars", (3,), x, y, 2.5, 300)
    # the kernel uses fma: one rounding of 2.5*x + y
    want = (np.float64(2.5) * x.astype(np.float64) + y0).astype(np.float32)
    assert (y == want).all()
    h = np.zeros(64 * 3, np.float16)
    run_sample("vector_add_i64", (3,), np.ones_like(h), np.ones_like(h), h)
    assert (h == 2).all()


def test_cutile_matmuls():
    A = rng.standard_normal((200, 100)).astype(np.float16)
    B = rng.standard_normal((100, 300)).astype(np.float16)
    C = np.zeros((200, 300), np.float16)
    run_sample("matmul_f16", (2 * 2,), A, B, C)
    close(C, A.astype(np.float64) @ B.astype(np.float64), 2e-3)
    A = rng.standard_normal((100, 90)).astype(np.float32)
    B = rng.standard_normal((90, 70)).astype(np.float32)
    C = np.zeros((100, 70), np.float32)
    run_sample("matmul_f32_tf32", (4 * 3,), A, B, C)
    close(C, A @ B, 3e-3)                       # tf32 inputs
    A = rng.standard_normal((3, 100, 90)).astype(np.float16)
    B = rng.standard_normal((3, 90, 70)).astype(np.float16)
    C = np.zeros((3, 100, 70), np.float32)
    run_sample("batch_matmul", (3, 2, 2), A, B, C)
    close(C, A.astype(np.float64) @ B.astype(np.float64), 1e-6)


def test_cutile_transposes():
    x = rng.random((64, 128), dtype=np.float32)
    for name in ("transpose", "transpose_order"):
        y = np.zeros((128, 64), np.float32)
        run_sample(name, (2, 2), x, y)
        assert (y == x.T).all()


def test_cutile_softmax_and_layernorm():
    x = rng.standard_normal((20, 1000)).astype(np.float16)
    y = np.zeros_like(x)
    run_sample("softmax", (20,), x, y)
    xf = x.astype(np.float64)
    e = np.exp(xf - xf.max(1, keepdims=True))
    close(y, e / e.sum(1, keepdims=True), 1e-3)
    X = rng.standard_normal((10, 3000)).astype(np.float32)
    W, B = rng.standard_normal(3000).astype(np.float32), rng.standard_normal(3000).astype(np.float32)
    Y, mean, rstd = np.zeros_like(X), np.zeros(10, np.float32), np.zeros(10, np.float32)
    run_sample("layer_norm_fwd", (10,), X, W, B, Y, mean, rstd, 1e-5)
    close(mean, X.astype(np.float64).mean(1), 1e-6)
    close(rstd, 1 / np.sqrt(X.astype(np.float64).var(1) + 1e-5), 1e-5)


def test_cutile_reductions_and_scans():
    x = rng.standard_normal((64, 32)).astype(np.float32)
    s, mx, cu = (np.zeros(64, np.float32) for _ in range(3))
    am = np.zeros(64, np.int32)
    run_sample("reduce", (2,), x, s, mx, am, cu)
    close(s, x.sum(1), 1e-6)
    assert (mx == x.max(1)).all() and (am == x.argmax(1)).all()
    v = rng.standard_normal(128).astype(np.float32)
    mn, mi = np.zeros(2, np.float32), np.zeros(2, np.int32)
    run_sample("reduce_tuple", (2,), v, mn, mi)
    assert (mn == v.reshape(2, 64).min(1)).all() and (mi == v.reshape(2, 64).argmin(1)).all()
    v = (rng.random(128) + 0.5).astype(np.float32)
    a, b, c = (np.zeros_like(v) for _ in range(3))
    run_sample("scan", (2,), v, a, b, c)
    vr = v.reshape(2, 64).astype(np.float64)
    close(a, np.cumsum(vr, 1).reshape(-1), 1e-6)
    close(b, np.flip(np.cumprod(np.flip(vr, 1), 1), 1).reshape(-1), 1e-5)
    assert (c == np.maximum.accumulate(v.reshape(2, 64), 1).reshape(-1)).all()


def test_cutile_atomics_with_spin_lock():
    data = rng.integers(-100, 100, 256).astype(np.int32)
    counter, hist, locks = np.zeros(4, np.int32), np.zeros(16, np.int32), np.zeros(2, np.int32)
    info = run_sample("atomics", (4,), counter, hist, locks, data)
    assert info.mode == "sequential"            # the spin lock's loop depends on atomics
    assert (hist == np.bincount(data % 16, minlength=16)).all()
    assert counter.tolist()[:3] == [256, 3, 192] and locks.tolist() == [0, 0]
    acc = np.zeros(64, np.float32)
    d = rng.random(256).astype(np.float32)
    run_sample("atomic_float", (4,), acc, d)
    want = np.zeros(64, np.float32)
    for blk in d.reshape(4, 64):
        want = want + blk                      # the blocks' additions, in block order
    assert (acc == want).all()


def test_cutile_gather_scatter_and_control_flow():
    src = rng.random(100).astype(np.float32)
    idx = rng.integers(-5, 110, 128).astype(np.int32)
    dst = np.zeros(128, np.float32)
    run_sample("gather_scatter", (2,), src, idx, dst)
    assert (dst == np.where((idx >= 0) & (idx < 100), src[np.clip(idx, 0, 99)], -1)).all()
    x = rng.random(512).astype(np.float32)
    y = np.zeros(512, np.float32)
    run_sample("dynamic_loop", (8,), x, y)
    xr = x.reshape(8, 64)
    for b in range(8):
        acc = np.zeros(64, np.float32)
        for i in range(b + 1):
            acc = acc + xr[i]
        acc = acc * np.float32(2) if b % 2 == 0 else acc - np.float32(1)
        n = b
        while n > 0:
            acc = acc + np.float32(0.5)
            n //= 2
        assert (y[b * 64:(b + 1) * 64] == acc).all()
    y = np.zeros(320, np.float32)
    x = rng.random(256).astype(np.float32)
    run_sample("loop_break", (5,), x, y, 20)
    for b in range(5):
        acc = np.zeros(64, np.float32)
        for i in range(0, 100, 3):
            if i > 20:
                break
            if i == b:
                continue
            acc = acc + x.reshape(4, 64)[i % 4]
        assert (y[b * 64:(b + 1) * 64] == acc).all()


def test_cutile_print_assert():
    x = np.arange(16, dtype=np.float32)
    out = io.StringIO()
    run_sample("print_assert", (2,), x, stdout=out)
    assert out.getvalue() == ("bid=0 first=[0.000000, 1.000000, 2.000000, 3.000000, 4.000000, "
                              "5.000000, 6.000000, 7.000000]\nsum=28.000000\n"
                              "bid=1 first=[8.000000, 9.000000, 10.000000, 11.000000, 12.000000,"
                              " 13.000000, 14.000000, 15.000000]\nsum=92.000000\n")
    x[11] = -1
    with pytest.raises(tileir.LaunchError, match=r"negative input(.|\n)*tile block \(1, 0, 0\): "
                                                 r"failing element \[3\]"):
        run_sample("print_assert", (2,), x, stdout=io.StringIO())


def test_cutile_misc_kernels():
    x = rng.integers(-1000, 1000, 128).astype(np.int32)
    y = np.zeros_like(x)
    run_sample("int_ops", (2,), x, y, 50)
    r = ((x << 2) ^ (x >> 1)) | (x & 7)                 # int32 arithmetic, like the IR
    s = np.floor_divide(r, 3) + np.mod(r, 5) - np.floor_divide(-r, 7) + (~x) - (-x)
    s = np.minimum(s, 50) + np.abs(x)
    want = s + s.astype(np.float16).astype(np.float32).astype(np.int64).astype(np.int32)
    assert (y == want.astype(np.int32)).all()
    xb = (rng.standard_normal(64) * 100).astype(ml_dtypes.bfloat16)
    f8, f64, u8 = np.zeros(64, ml_dtypes.float8_e4m3fn), np.zeros(64), np.zeros(64, np.uint8)
    run_sample("dtypes", (1,), xb, f8, f64, u8)
    want8 = np.clip(xb.astype(np.float32), -448, 448).astype(ml_dtypes.float8_e4m3fn)
    assert (f8.astype(np.float32) == want8.astype(np.float32)).all()
    assert (f64 == xb.astype(np.float64) * 1.5).all()
    assert (u8 == (xb.astype(np.float32) > 0) + 200).all()
    xx = rng.random((32, 32)).astype(np.float32)
    yy = np.zeros_like(xx)
    run_sample("extract_cat", (2,), xx, yy)
    assert np.isfinite(yy).all()


def test_cutile_attention_forward():
    B, H, S, D = 1, 8, 128, 64
    Q, K, V = (rng.standard_normal((B, H, S, D)).astype(np.float16) for _ in range(3))
    O = np.zeros_like(Q)
    run_sample("attention_fwd", (S // 64, B * H), Q, K, V, O, 1 / np.sqrt(D), 0)
    q, k, v = (a.astype(np.float64) for a in (Q, K, V))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    s = np.where(np.tril(np.ones((S, S), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    close(O, (p / p.sum(-1, keepdims=True)) @ v, 5e-3)       # p is rounded to f16 before P@V


# -- command line ------------------------------------------------------------------------------

def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        rc = cli_main(list(argv))
    finally:
        sys.stdout, sys.stderr = old
    return rc, out.getvalue(), err.getvalue()


def test_cli_run_with_generators_and_out_dir(tmp_path):
    rc, out, err = run_cli("run", str(EXAMPLES / "vector_add.mlir"), "--kernel", "vector_add",
                           "--grid", "3", "--arg", "arange:f32:3000", "--arg", "ones:f32:3000",
                           "--arg", "zeros:f32:3000", "--arg", "3000", "--out", str(tmp_path))
    assert rc == 0, err
    assert "ran vector_add on grid 3x1x1" in out
    got = np.load(tmp_path / "arg2.npy")
    assert (got == np.arange(3000) + 1).all()
    assert not (tmp_path / "arg0.npy").exists()       # only the arrays the kernel wrote


def test_cli_run_mma_modes(tmp_path):
    """``--mma exact`` rounds each exact sum once; ``--mma fast`` is f32 BLAS, within the
    documented bound of it (here every product is an integer, so both are exact)."""
    for mode in ("exact", "fast"):
        out = tmp_path / mode
        rc, _, err = run_cli("run", str(EXAMPLES / "matmul.mlir"), "--kernel", "matmul_f32",
                             "--grid", "2,2", "--mma", mode, "--arg", "full:f32:128x96:3",
                             "--arg", "full:f32:96x128:0.5", "--arg", "zeros:f32:128x128",
                             "--arg", "128", "--arg", "128", "--arg", "96", "--out", str(out))
        assert rc == 0, err
        np.testing.assert_array_equal(np.load(out / "arg2.npy"),
                                      np.full((128, 128), 144, np.float32))


def test_cli_run_npy_input_and_summary(tmp_path):
    np.save(tmp_path / "a.npy", np.full(1024, 2.0, np.float32))
    rc, out, err = run_cli("run", str(EXAMPLES / "vector_add.mlir"), "--grid", "1", "--arg",
                           str(tmp_path / "a.npy"), "--arg", "full:f32:1024:0.5", "--arg",
                           "zeros:f32:1024", "--arg", "1024")
    assert rc == 0, err
    assert "arg2: float32 1024 [2.5, 2.5, 2.5, ..., 2.5, 2.5, 2.5]" in out


@pytest.mark.parametrize("argv,message", [
    (["--arg", "rand:f64:2000", "--arg", "ones:f32:2000", "--arg", "zeros:f32:2000", "--arg",
      "2000"], "expected an array of dtype float32, got float64"),
    (["--arg", "rand:f32:2000"], "takes 4 arguments"),
    (["--arg", "bogus", "--arg", "ones:f32:2000", "--arg", "zeros:f32:2000", "--arg", "1"],
     "is not a number"),
    (["--arg", "rand:f32:2000", "--arg", "ones:f32:2000", "--arg", "zeros:f32:2000", "--arg",
      "3000"], "out-of-bounds read"),
    (["--grid", "0", "--arg", "rand:f32:8", "--arg", "ones:f32:8", "--arg", "zeros:f32:8",
      "--arg", "8"], "grid[0] must be at least 1"),
    (["--kernel", "nope"], "no entry named 'nope'"),
    (["--arg", "rand:f32:999999999999999", "--arg", "1", "--arg", "1", "--arg", "1"],
     "cannot make 'rand:f32:999999999999999'"),
    (["--arg", "randint:i32:4:0", "--arg", "1", "--arg", "1", "--arg", "1"], "high <= 0"),
    (["--arg", "full:f32:4", "--arg", "1", "--arg", "1", "--arg", "1"], "full needs a value"),
])
def test_cli_run_errors_exit_1_without_traceback(argv, message):
    args = list(argv)
    if "--grid" not in args:
        args = ["--grid", "3"] + args
    rc, out, err = run_cli("run", str(EXAMPLES / "vector_add.mlir"), *args)
    assert rc == 1 and message in err and "Traceback" not in err + out


def test_cli_run_bad_files(tmp_path):
    rc, _, err = run_cli("run", str(tmp_path / "missing.mlir"))
    assert rc == 1 and "cannot open input file" in err
    bad = tmp_path / "bad.mlir"
    bad.write_text("this is not tile ir")
    rc, _, err = run_cli("run", str(bad))
    assert rc == 1 and "error:" in err and "Traceback" not in err


def test_cli_demo_subset():
    rc, out, err = run_cli("demo", "vector_add", "histogram")
    assert rc == 0, err
    assert "vector_add" in out and "histogram" in out and "all 2 examples match NumPy" in out


def test_cli_demo_unknown_example():
    rc, _, err = run_cli("demo", "nope")
    assert rc == 1 and "unknown example" in err


def test_tileir_demo_console_script():
    # the README's first command: `tileir demo` (run as a module here)
    proc = subprocess.run([sys.executable, "-m", "tileir", "demo", "--list"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0 and "attention" in proc.stdout


def test_cutile_13_4_fpowi_and_persistent_loop():
    # 13.4 export: `x ** 2` becomes fpowi; check_bounds=False loads carry `inbounds = [true]`
    X = rng.standard_normal((6, 3000)).astype(np.float32)
    W, B = rng.standard_normal(3000).astype(np.float32), rng.standard_normal(3000).astype(np.float32)
    Y, mean, rstd = np.zeros_like(X), np.zeros(6, np.float32), np.zeros(6, np.float32)
    run_sample("layer_norm_fwd_v13_4", (6,), X, W, B, Y, mean, rstd, 1e-5)
    close(rstd, 1 / np.sqrt(X.astype(np.float64).var(1) + 1e-5), 1e-5)
    # (8 tiles of 128: loads with `inbounds = [true]` must stay inside the array)
    x = rng.random(1024).astype(np.float32)
    y = np.zeros_like(x)
    info = run_sample("hints_persistent", (3,), x, y, 8)      # for t in range(bid, 8, 3)
    # per-block loop bounds: batched, with split lanes
    assert (y == 2 * x).all() and info.mode == "batched" and info.divergent
