"""``tileir tinytc``: check, --emit and run; errors give tinytc's diagnostic and exit 1."""

from __future__ import annotations

import numpy as np
import pytest

from tileir import read_bytecode
from tileir.cli import main

KERNEL = """func @scale(%a: f64, %A: memref<f64x4x?>) {
  %g = group_id
  %c = subview %A[:, %g] : memref<f64x4x?>
  axpby.n 0.0, %c, %a, %c : f64, memref<f64x4>, f64, memref<f64x4>
}
"""


def test_check_and_emit(tmp_path, capsys):
    src = tmp_path / "k.ir"
    src.write_text(KERNEL)
    assert main(["tinytc", str(src)]) == 0
    assert main(["tinytc", str(src), "--emit", "tinytc"]) == 0
    assert "axpby.n 0.0, %c, %a, %c" in capsys.readouterr().out
    assert main(["tinytc", str(src), "--emit", "cuda_tile"]) == 0
    assert "entry @scale" in capsys.readouterr().out
    out = tmp_path / "k.tilebc"
    assert main(["tinytc", str(src), "--emit", "bytecode", "-o", str(out)]) == 0
    module = read_bytecode(out.read_bytes())
    assert any(op.name == "cuda_tile.entry" for op in module.walk())


def test_run_writes_results(tmp_path, capsys):
    src = tmp_path / "k.ir"
    src.write_text(KERNEL)
    assert main(["tinytc", "run", str(src), "--group-size", "3", "--arg", "2.0",
                 "--arg", "arange:f64:4x3", "--out", str(tmp_path / "o")]) == 0
    got = np.load(tmp_path / "o" / "arg1.npy")
    np.testing.assert_array_equal(got, 2 * np.arange(12, dtype=np.float64).reshape(4, 3))


def test_errors_exit_1_with_diagnostic(tmp_path, capsys):
    src = tmp_path / "bad.ir"
    src.write_text("func @k(%a: f32) {\n  %1 = arith.xor %a, %a : f32\n}\n")
    assert main(["tinytc", str(src)]) == 1
    err = capsys.readouterr().err
    assert f"{src}:2.8-29: Floating point type unsupported for instruction" in err
    assert "~~~" in err and "Traceback" not in err
    good = tmp_path / "k.ir"
    good.write_text(KERNEL)
    assert main(["tinytc", "run", str(good), "--arg", "1.0",
                 "--arg", "zeros:f64:5x2"]) == 1
    assert "size 0 must be 4" in capsys.readouterr().err
    assert main(["tinytc", str(tmp_path / "missing.ir")]) == 1


def test_run_mma_fast_flag(tmp_path, capsys):
    src = tmp_path / "g.ir"
    src.write_text("""func @g(%A: memref<f32x8x8>, %B: memref<f32x8x8>, %C: memref<f32x8x8>) {
  gemm.n.n 1.0, %A, %B, 0.0, %C : f32, memref<f32x8x8>, memref<f32x8x8>, f32, memref<f32x8x8>
}""")
    for mode in ("exact", "fast"):
        out = tmp_path / mode
        assert main(["tinytc", "run", str(src), "--mma", mode, "--arg", "ones:f32:8x8",
                     "--arg", "full:f32:8x8:2", "--arg", "zeros:f32:8x8",
                     "--out", str(out)]) == 0
        np.testing.assert_array_equal(np.load(out / "arg2.npy"), np.full((8, 8), 16, np.float32))
    out = tmp_path / "default"
    assert main(["tinytc", "run", str(src), "--arg", "randn:f32:8x8", "--arg", "randn:f32:8x8",
                 "--arg", "zeros:f32:8x8", "--out", str(out)]) == 0
    a, b = np.load(out / "arg0.npy"), np.load(out / "arg1.npy")
    np.testing.assert_allclose(np.load(out / "arg2.npy"), a @ b, rtol=1e-5, atol=1e-5)
    with pytest.raises(SystemExit) as exc:
        main(["tinytc", "run", str(src), "--mma", "bogus"])
    assert exc.value.code != 0
