"""cuTile Python's calling convention (``cutile_python_v1``) for the sample kernels exported by
NVIDIA's cuTile (tests/execute/data/cutile/*.mlir): every array argument becomes its base pointer
followed by its shape and its strides (in elements), each as a scalar of the entry's index type;
scalars pass through; ``ct.Constant`` parameters are baked into the kernel."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import tileir

DATA = Path(__file__).parent / "data" / "cutile"


def load_sample(name: str):
    return tileir.load(DATA / f"{name}.mlir")


def expand(args) -> list:
    """Expand arrays into (array, *shape, *strides)."""
    out = []
    for a in args:
        if isinstance(a, np.ndarray) and a.ndim >= 1:
            out.append(a)
            out.extend(int(s) for s in a.shape)
            out.extend(int(s) // a.itemsize for s in a.strides)
        else:
            out.append(a)
    return out


def run_sample(name: str, grid, *args, kernel: str | None = None, **kw):
    module = load_sample(name)
    kname = kernel or _only_entry(module)
    return tileir.launch(module, kname, grid, expand(args), **kw)


def _only_entry(module) -> str:
    names = [op.sym_name for op in module.walk() if op.name == "cuda_tile.entry"]
    assert len(names) == 1, names
    return names[0]
