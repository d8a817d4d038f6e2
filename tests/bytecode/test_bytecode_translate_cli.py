"""``tileir translate`` / ``tileir-translate`` (cuda-tile-translate compatible)."""

from __future__ import annotations

from pathlib import Path

from tileir.cli import translate_main
from tileir.cli.translate import run_translate

KERNEL = """cuda_tile.module @kernels {
  entry @k(%a: tile<f32>) {
    %b = addf %a, %a rounding<zero> : tile<f32>
    return
  }
}
"""


def _write(tmp_path: Path, text: str, name: str = "k.mlir") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_text_to_bytecode_and_back(tmp_path, capsys):
    src = _write(tmp_path, KERNEL)
    bc = tmp_path / "k.tilebc"
    assert run_translate(["--mlir-to-tilebc", str(src), "-o", str(bc)]) == 0
    assert bc.read_bytes().startswith(b"\x7fTileIR\x00\x0d\x03")
    assert run_translate(["--tilebc-to-mlir", str(bc)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("cuda_tile.module @kernels {") and "addf %arg0, %arg0 rounding<zero>" in out


def test_cuda_tile_translate_spellings(tmp_path, capsys):
    src = _write(tmp_path, KERNEL)
    bc = tmp_path / "k.bc"
    assert translate_main(["-mlir-to-cudatilebc", "-no-implicit-module", "-bytecode-version=13.1",
                           str(src), "-o", str(bc)]) == 0
    assert bc.read_bytes()[8:10] == b"\x0d\x01"
    assert translate_main(["-cudatilebc-to-mlir", str(bc)]) == 0
    assert translate_main(["-test-cudatile-roundtrip", "-no-implicit-module", str(src)]) == 0
    out = capsys.readouterr().out
    assert out.count("cuda_tile.module @kernels") == 2


def test_list_versions(capsys):
    assert run_translate(["--list-versions"]) == 0
    assert capsys.readouterr().out.split() == ["13.1", "13.2", "13.3", "13.4"]


def test_list_versions_cuda_tile_compat(capsys, monkeypatch):
    monkeypatch.setenv("TILEIR_CUDA_TILE_COMPAT", "13.3")
    assert run_translate(["--list-versions"]) == 0
    assert capsys.readouterr().out.split() == ["13.1", "13.2", "13.3", "250.0", "250.1"]


def test_errors(tmp_path, capsys):
    src = _write(tmp_path, KERNEL)
    assert run_translate(["--mlir-to-tilebc", "--bytecode-version", "12.0", str(src)]) == 1
    assert "Invalid argument '12.0': the supported versions are [13.1 - 13.4]" in \
        capsys.readouterr().err
    assert run_translate(["--tilebc-to-mlir", str(src)]) == 1
    assert "error: error at offset 1: invalid magic number at position 0" in \
        capsys.readouterr().err
    gated = _write(tmp_path, KERNEL.replace("rounding<zero>", "rounding<zero>").replace(
        "addf %a, %a rounding<zero> : tile<f32>", "atan2 %a, %a : tile<f32>"), "g.mlir")
    assert run_translate(["--mlir-to-tilebc", "--bytecode-version", "13.1", str(gated),
                          "-o", str(tmp_path / "g.bc")]) == 1
    assert "operation 'cuda_tile.atan2' is not available in bytecode version 13.1" in \
        capsys.readouterr().err


def test_verify_diagnostics_and_split(tmp_path, capsys):
    src = _write(tmp_path, """// expected-error@unknown {{type 'Float8E8M0FNU' requires bytecode version 13.2+, targeting 13.1}}
cuda_tile.module @a {
  entry @k(%p: tile<f8E8M0FNU>) {
    return
  }
}
// -----
cuda_tile.module @b {
  entry @k(%p: tile<f32>) {
    return
  }
}
""")
    assert run_translate(["--mlir-to-tilebc", "--bytecode-version", "13.1", "--verify-diagnostics",
                          "--split-input-file", str(src), "-o", str(tmp_path / "o.bc")]) == 0
    assert capsys.readouterr().err == ""


def test_unwritable_output_is_an_error_not_a_traceback(tmp_path, capsys):
    from tileir.cli.opt import run_opt
    src = _write(tmp_path, KERNEL)
    missing = tmp_path / "no-such-dir" / "out"
    assert run_translate(["--mlir-to-tilebc", str(src), "-o", str(missing)]) == 1
    assert f"cannot open output file '{missing}'" in capsys.readouterr().err
    bc = tmp_path / "k.tilebc"
    assert run_translate(["--mlir-to-tilebc", str(src), "-o", str(bc)]) == 0
    assert run_translate(["--tilebc-to-mlir", str(bc), "-o", str(missing)]) == 1
    assert "cannot open output file" in capsys.readouterr().err
    assert run_opt([str(src), "-o", str(missing)]) == 1
    assert "tileir opt: error: cannot open output file" in capsys.readouterr().err
