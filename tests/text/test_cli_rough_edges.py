"""What a new user hits first (issue 14): bad files, bad arguments, help text."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.bytecode import BytecodeError, read_bytecode, write_bytecode
from tileir.cli import main
from tileir.cli.run import ArgSpecError, parse_arg_spec

EXAMPLE = '''cuda_tile.module @kernels {
  entry @k(%p: tile<ptr<f32>>) {
    return
  }
}
'''


def test_run_help_shows_the_arg_syntax(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["run", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "KIND:DTYPE:SHAPE[:VALUE]" in out
    assert "randn" in out and "64x64" in out


def test_generator_too_big_is_reported_in_its_own_dtype():
    with pytest.raises(ArgSpecError, match=r"100,000,000,000 f32 elements need 372\.5 GiB"):
        parse_arg_spec("rand:f32:100000x1000000", np.random.default_rng())
    with pytest.raises(ArgSpecError, match="bad shape '1e11'"):
        parse_arg_spec("rand:f32:1e11", np.random.default_rng())


def test_launch_without_args_is_a_launch_error(tmp_path):
    module = tileir.parse(EXAMPLE)
    with pytest.raises(tileir.LaunchError, match="args must be a sequence .* not NoneType"):
        tileir.launch(module, "k", (1,), args=None)
    with pytest.raises(tileir.LaunchError, match="args must be a sequence .* not int"):
        tileir.compile(module, "k").launch((1,), 5)


@pytest.mark.parametrize("content,message", [
    (b"", "the input is empty, not Tile IR bytecode"),
    (b"hello", "invalid magic number at position 0, got 104 expected 127: this is not Tile IR "
               "bytecode"),
])
def test_not_bytecode_says_so(tmp_path, capsys, content, message):
    with pytest.raises(BytecodeError, match=message):
        read_bytecode(content)
    path = tmp_path / "k.tilebc"
    path.write_bytes(content)
    assert main(["run", str(path)]) == 1
    assert message in capsys.readouterr().err
    assert main(["opt", str(path)]) == 1
    assert "it is not Tile IR bytecode" in capsys.readouterr().err


def test_bytecode_given_to_opt_says_so(tmp_path, capsys):
    path = tmp_path / "k.bin"
    path.write_bytes(write_bytecode(tileir.parse(EXAMPLE)))
    assert main(["opt", str(path)]) == 1
    assert "is Tile IR bytecode, not text" in capsys.readouterr().err


def test_invalid_utf8_is_not_echoed_as_surrogate_escapes(tmp_path, capsys):
    path = tmp_path / "g.mlir"
    path.write_bytes(b"cuda_tile.module @m {\xff\xfe garbage }\n")
    assert main(["opt", str(path)]) == 1
    err = capsys.readouterr().err
    assert "unexpected byte 0xFF: the input is not UTF-8 text" in err
    assert "\\udc" not in err and "\udcff" not in err
    lines = err.splitlines()
    assert lines[1] == "cuda_tile.module @m {?? garbage }"
    assert lines[2].index("^") == lines[1].index("?")
