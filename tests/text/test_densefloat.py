"""Array-speed float printing (tileir.text.densefloat) gives, element by element, exactly the
text of the per-element reference ``format_float`` (APFloat's digits, MLIR's printFloatValue)."""

from __future__ import annotations

import numpy as np
import pytest

import tileir
from tileir.dialects.cuda_tile.attributes import DenseElementsAttr
from tileir.ir.densefloat import format_float_elements, format_float_nested, nest_texts
from tileir.ir.floatfmt import float_from_text, format_float
from tileir.dialects.cuda_tile.types import F32, TileType

SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, 1e-45, 3.4e38, 65504.0, 1e7, 1e8,
           123456789.0, 1234565.0, 2.5e-7, 1e22, 1e23, 0.1, 1 / 3, 5e-324, 1.7976931348623157e308,
           2.0 ** -1022, 9.999994e-41, 1e-5, 123.456]


def _cases(dtype, rng):
    bits = np.uint32 if dtype == np.float32 else np.uint64
    info = np.iinfo(bits)
    return {
        "normal": rng.standard_normal(3000).astype(dtype),
        "tiny": (rng.standard_normal(1000) * 1e-30).astype(dtype),
        "huge": (rng.standard_normal(1000) * 1e30).astype(dtype),
        "integers": np.arange(-1500, 1500).astype(dtype),
        "eighths": (np.arange(1000) / 8).astype(dtype),
        "tenths": (np.arange(1000) * 0.1).astype(dtype),
        "special": np.array(SPECIAL * 2).astype(dtype),
        "six digits": (rng.integers(1, 10 ** 6, 2000) * 10.0 ** rng.integers(-40, 30, 2000)
                       ).astype(dtype),
        "near powers of ten": np.nextafter(10.0 ** rng.integers(-300, 300, 2000),
                                           rng.choice([0.0, np.inf], 2000)).astype(dtype),
        "any bits": rng.integers(0, int(info.max), 6000, dtype=bits, endpoint=True).view(dtype),
    }


@pytest.mark.parametrize("element,dtype", [("f32", np.float32), ("f64", np.float64)])
@pytest.mark.filterwarnings("ignore:overflow encountered in cast")
def test_same_text_as_format_float(element, dtype):
    rng = np.random.default_rng(14)
    for label, a in _cases(dtype, rng).items():
        got = format_float_elements(a, element)
        want = [format_float(x, element) for x in a]
        bad = [(a[i], g, w) for i, (g, w) in enumerate(zip(got, want)) if g != w]
        assert not bad, (label, bad[:5])


@pytest.mark.parametrize("element,dtype", [("f16", np.float16), ("bf16", None), ("tf32", None)])
def test_narrow_formats_same_text(element, dtype):
    from tileir.ir.dtypes import numpy_dtype
    dt = numpy_dtype(element)
    a = np.random.default_rng(1).standard_normal(500).astype(dt)
    assert format_float_elements(a, element) == [format_float(x, element) for x in a]


def test_printed_constant_reads_back_bit_exactly():
    a = np.random.default_rng(2).standard_normal((4, 64)).astype(np.float32)
    a[0, :4] = [np.nan, np.inf, -0.0, 1e-45]
    attr = DenseElementsAttr(TileType((4, 64), F32), a)
    body = attr.body()
    assert body.startswith("[[") and body.count("[") == 5
    module = tileir.parse("cuda_tile.module @m {\n  global @g <f32: %s> : tile<4x64xf32>\n}" % body)
    glob = next(op for op in module.walk() if op.name == "cuda_tile.global")
    back = glob.attributes["value"].array
    assert back.view(np.uint32).tolist() == a.view(np.uint32).tolist()
    texts = format_float_elements(a.reshape(-1)[4:], "f32")
    assert [float_from_text(t, "f32") for t in texts if not t.startswith("0x")] == \
        [x for x, t in zip(a.reshape(-1)[4:], texts) if not t.startswith("0x")]


@pytest.mark.parametrize("element,dtype", [("f32", np.float32), ("f64", np.float64)])
@pytest.mark.parametrize("shape", [(6000,), (60, 100), (1, 6000), (6000, 1), (3, 4, 5, 100)])
@pytest.mark.filterwarnings("ignore:overflow encountered in cast")
def test_nested_text_built_in_one_piece(element, dtype, shape):
    """The one-piece nested list equals the element texts joined and bracketed, undecided and
    hexadecimal elements (NaN, inf) included."""
    rng = np.random.default_rng(7)
    a = np.concatenate(list(_cases(dtype, rng).values()))[:6000].astype(dtype)
    rng.shuffle(a)
    want = nest_texts([format_float(x, element) for x in a], shape)
    assert format_float_nested(a.reshape(shape), element) == want
