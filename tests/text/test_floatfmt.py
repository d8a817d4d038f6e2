"""Float literals: printed exactly as NVIDIA's tools print them, read back to the same bits.

Expected texts come from ``tileirdisasm`` (tests/data/floats, see the README there).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import tileir
from tileir.dialects.cuda_tile.attributes import DenseElementsAttr
from tileir.ir.dtypes import numpy_dtype
from tileir.dialects.cuda_tile.ops.core import constant_name
from tileir.ir.floatfmt import float_bits, float_from_bits, float_from_text, format_float
from tileir.dialects.cuda_tile.types import ELEMENT_TYPES, TileType

DATA = Path(__file__).resolve().parents[1] / "data" / "floats"
NOTES = Path(os.environ.get("TILEIR_NVIDIA_SAMPLES", "/work/notes/nvidia")) / "probes" / "out"


def _rows(path: Path):
    lines = path.read_text().splitlines()[1:]
    return [line.split("\t") for line in lines]


def _check_table(path: Path) -> None:
    element = path.stem.split("_", 1)[1]
    bad = []
    for bits, printed, name in _rows(path):
        value = float_from_bits(int(bits, 16), element)
        got = format_float(value, element)
        arr = np.array(value, dtype=numpy_dtype(element)).reshape(())
        got_name = constant_name(DenseElementsAttr(TileType((), ELEMENT_TYPES[element]), arr))
        if got != printed or got_name != name:
            bad.append((bits, printed, got, name, got_name))
    assert not bad, f"{len(bad)} mismatches, first: {bad[:5]}"


@pytest.mark.parametrize("path", sorted(DATA.glob("floats_*.tsv")), ids=lambda p: p.stem)
def test_float_table(path):
    _check_table(path)


@pytest.mark.parametrize("path", sorted(NOTES.glob("floats_*.tsv")) if NOTES.is_dir() else
                         [pytest.param(None, marks=pytest.mark.skip(
                             reason="full float tables not present"))],
                         ids=lambda p: getattr(p, "stem", "missing"))
def test_full_float_table(path):
    _check_table(path)


@pytest.mark.parametrize("element", ["f16", "bf16", "f32", "tf32", "f64", "f8E4M3FN", "f8E5M2",
                                     "f8E8M0FNU", "f4E2M1FN"])
def test_printed_constants_read_back_to_the_same_bits(element):
    rows = _rows(DATA / f"floats_{element}.tsv")
    for bits, printed, _ in rows[:: max(1, len(rows) // 200)]:
        text = (f"cuda_tile.module @m {{ entry @k() {{ %c = constant <{element}: {printed}> : "
                f"tile<2x{element}> return }} }}")
        module = tileir.parse(text)
        const = next(op for op in module.walk() if op.name == "cuda_tile.constant")
        value = const.attributes["value"].array.reshape(-1)[0]
        assert float_bits(value, element) == int(bits, 16), (element, bits, printed)


def test_examples_from_the_notes():
    assert format_float(np.float32(1.0), "f32") == "1.000000e+00"
    assert format_float(np.float32(-0.0), "f32") == "-0.000000e+00"
    assert format_float(np.float32(1e-40), "f32") == "9.999940e-41"  # truncating digit generation
    assert format_float(np.float32(0.30078125), "f32") == "0.30078125"
    assert format_float(np.float32(12345678.0), "f32") == "0x4B3C614E"
    assert format_float(np.float32(-np.inf), "f32") == "0xFF800000"
    assert format_float(np.float64(8.188271801617036e-309), "f64") == "8.188271801617036E-309"


def test_decimal_literals_round_like_mlir():
    # a decimal literal is read as the nearest double, then rounded to the element type
    assert float(float_from_text("70000.0", "f16")) == np.inf
    assert float(float_from_text("-1e40", "f32")) == -np.inf
    assert float(float_from_text("0.1", "bf16")) == float(np.float32(0.1).astype(
        numpy_dtype("bf16")))
    assert np.isnan(float(float_from_text("1000.0", "f8E4M3FN")))  # no infinity: NaN
