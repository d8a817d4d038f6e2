"""Progress lines for long launches (only on a terminal, never when quiet) and Ctrl-C."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir.cli import main as cli_main
from tileir.execute import LaunchInterrupted, progress as P
from tileir.execute.launch import Kernel

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


class InterruptingTTY(FakeTTY):
    """A terminal whose first progress update arrives with a Ctrl-C."""

    def write(self, text):
        if not getattr(self, "fired", False):
            self.fired = True
            raise KeyboardInterrupt
        return super().write(text)


@pytest.fixture
def vector_add():
    kernel = tileir.compile(tileir.load(EXAMPLES / "vector_add.mlir"), "vector_add")
    n = 64 * 1024
    a = np.ones(n, np.float32)
    return kernel, (n // 1024,), [a, a, np.zeros(n, np.float32), n]


@pytest.fixture
def immediate(monkeypatch):
    monkeypatch.setattr(P, "DELAY", 0.0)
    monkeypatch.setattr(P, "INTERVAL", 0.0)


@pytest.mark.parametrize("batch", [True, False])
def test_progress_line_on_a_terminal(vector_add, immediate, batch):
    kernel, grid, args = vector_add
    tty = FakeTTY()
    kernel.launch(grid, args, batch=batch, progress=tty)
    text = tty.getvalue()
    assert "tileir: vector_add" in text and "/64 tile blocks" in text
    assert "blocks/s" in text and "left" in text
    assert "64/64 tile blocks  100%" in text
    assert text.endswith("\r") and text.split("\r")[-2].strip() == ""     # erased at the end


def test_no_progress_when_not_a_terminal_or_quiet(vector_add, immediate, monkeypatch):
    kernel, grid, args = vector_add
    pipe = io.StringIO()                     # not a terminal
    kernel.launch(grid, args, progress=pipe)
    assert pipe.getvalue() == ""
    tty = FakeTTY()
    monkeypatch.setattr("sys.stderr", tty)
    kernel.launch(grid, args, progress=False)
    assert tty.getvalue() == ""
    kernel.launch(grid, args)                # the default: stderr, a terminal here
    assert "tile blocks" in tty.getvalue()


def test_short_launches_show_nothing(vector_add):
    kernel, grid, args = vector_add
    tty = FakeTTY()
    kernel.launch(grid, args, progress=tty)  # well under a second
    assert tty.getvalue() == ""


@pytest.mark.parametrize("batch", [True, False])
def test_ctrl_c_stops_a_launch_cleanly(vector_add, immediate, batch):
    kernel, grid, args = vector_add
    mapped = len(kernel.memory.buffers)
    with pytest.raises(LaunchInterrupted) as err:
        kernel.launch(grid, args, batch=batch, progress=InterruptingTTY())
    assert isinstance(err.value, KeyboardInterrupt)
    message = str(err.value)
    assert message.startswith("launch of 'vector_add' interrupted after ")
    assert message.endswith(" of 64 tile blocks") and "\n" not in message
    assert len(kernel.memory.buffers) == mapped          # the launch's memory was released
    args[2][:] = 0
    kernel.launch(grid, args, progress=False)            # and the kernel still runs
    assert (args[2] == 2).all()


def test_cli_run_ctrl_c_exits_130_with_one_line(monkeypatch, capsys):
    def interrupted(self, grid, args=(), **options):
        raise LaunchInterrupted(self.name, 3, 98)
    monkeypatch.setattr(Kernel, "launch", interrupted)
    rc = cli_main(["run", str(EXAMPLES / "vector_add.mlir"), "--grid", "98",
                   "--arg", "randn:f32:100000", "--arg", "randn:f32:100000",
                   "--arg", "zeros:f32:100000", "--arg", "100000"])
    err = capsys.readouterr().err
    assert rc == 130
    assert err.strip() == ("tileir run: interrupted: launch of 'vector_add' interrupted after "
                           "3 of 98 tile blocks")
    assert "Traceback" not in err


def test_cli_run_quiet_asks_for_no_progress(monkeypatch):
    seen = {}
    original = Kernel.launch

    def spy(self, grid, args=(), **options):
        seen.update(options)
        return original(self, grid, args, **options)
    monkeypatch.setattr(Kernel, "launch", spy)
    argv = ["run", str(EXAMPLES / "vector_add.mlir"), "--grid", "1", "--arg", "randn:f32:1024",
            "--arg", "randn:f32:1024", "--arg", "zeros:f32:1024", "--arg", "1024"]
    assert cli_main(argv + ["--quiet"]) == 0 and seen["progress"] is False
    assert cli_main(argv) == 0 and seen["progress"] is True
