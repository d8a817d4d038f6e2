"""Differential testing against MLIR 22's ``mlir-opt`` for the upstream dialects (scf, memref,
vector): the same buffer goes through both tools in one call each (``--split-input-file``
batches many chunks), and the printed chunks, custom and generic, must be identical; invalid
chunks carry ``expected-error`` annotations that both tools' ``-verify-diagnostics`` must meet."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "interop"))

from mlir_tools import run_mlir_opt  # noqa: E402

from tileir.cli.opt import run_opt  # noqa: E402

SPLIT = "// -----"


def chunks(output: str) -> list[str]:
    """The printed chunks of a ``--split-input-file`` run, each stripped."""
    return [c.strip() for c in output.split(SPLIT)]


def tileir_opt(text: str, flags: list[str], tmp_path: Path, name: str = "in.mlir"):
    """Run ``tileir opt`` in process on ``text``: (exit code, output text, stderr text)."""
    import contextlib
    import io
    src = tmp_path / name
    src.write_text(text)
    out = tmp_path / (name + ".out")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = run_opt([str(src), "-o", str(out), *flags])
    return code, out.read_text() if out.exists() else "", err.getvalue()


def assert_same_printing(text: str, tmp_path: Path) -> int:
    """Both tools print ``text`` (split chunks) identically, custom and generic; returns the
    number of chunks compared."""
    n = 0
    outputs = {}
    for generic in (False, True):
        mlir = run_mlir_opt(text, ["--allow-unregistered-dialect", "--split-input-file",
                                   *(["-mlir-print-op-generic"] if generic else [])])
        assert mlir.returncode == 0, mlir.stderr
        flags = ["--allow-unregistered-dialect", "--split-input-file",
                 *(["--print-generic"] if generic else [])]
        code, out, err = tileir_opt(text, flags, tmp_path)
        assert code == 0, err
        want, got = chunks(mlir.stdout), chunks(out)
        assert len(want) == len(got)
        for i, (w, g) in enumerate(zip(want, got)):
            assert g == w, f"chunk {i} ({'generic' if generic else 'custom'} form) differs"
        n += len(want)
        outputs[generic] = mlir.stdout
    # mlir-opt's generic output, read back by tileir, prints as mlir-opt's custom output
    code, out, err = tileir_opt(outputs[True], ["--allow-unregistered-dialect",
                                                "--split-input-file"], tmp_path, "generic.mlir")
    assert code == 0, err
    for i, (w, g) in enumerate(zip(chunks(outputs[False]), chunks(out))):
        assert g == w, f"chunk {i} read from the generic form differs"
    return n


def assert_same_diagnostics(text: str, tmp_path: Path) -> None:
    """Both tools meet the ``expected-error`` annotations of every chunk of ``text``."""
    flags = ["--allow-unregistered-dialect", "--split-input-file", "--verify-diagnostics"]
    mlir = run_mlir_opt(text, flags)
    assert mlir.returncode == 0, "mlir-opt disagrees with the annotations:\n" + mlir.stderr
    code, _, err = tileir_opt(text, flags, tmp_path)
    assert code == 0, "tileir disagrees with the annotations:\n" + err


def first_errors(text: str) -> list[str]:
    """mlir-opt's first ``file:line:col: error: ...`` line per chunk (for writing tests)."""
    mlir = run_mlir_opt(text, ["--allow-unregistered-dialect", "--split-input-file"])
    return [line for line in mlir.stderr.splitlines() if ": error: " in line]


# -- the checks every upstream dialect's test module runs --------------------------------------

def check_corpus(folder: Path, tmp_path: Path) -> int:
    """``folder/ops.mlir`` prints as mlir-opt prints it; returns the chunks compared."""
    return assert_same_printing((folder / "ops.mlir").read_text(), tmp_path)


def check_invalid(folder: Path, tmp_path: Path) -> None:
    """``folder/invalid.mlir``'s annotations hold for both tools."""
    assert_same_diagnostics((folder / "invalid.mlir").read_text(), tmp_path)


def uncovered_ops(folder: Path, dialect: str) -> list[str]:
    """The registered ops of ``dialect`` that neither corpus file of ``folder`` mentions."""
    from tileir.ir.opdef import OP_REGISTRY
    text = "".join((folder / name).read_text() for name in ("ops.mlir", "invalid.mlir"))
    return [name for name in OP_REGISTRY
            if name.startswith(dialect + ".") and name not in text
            and name.removeprefix(dialect + ".") not in text]


def check_random(random_module, seed: int, count: int, tmp_path: Path) -> None:
    """``count`` random modules (``random_module(rng)``) print as mlir-opt prints them."""
    import random
    rng = random.Random(seed)
    text = "// -----\n".join(random_module(rng) for _ in range(count))
    assert assert_same_printing(text, tmp_path) == 2 * count
