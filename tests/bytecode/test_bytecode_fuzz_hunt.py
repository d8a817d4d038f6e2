"""Robustness hunt on the bytecode reader: structure-aware mutants of valid bytecode
(truncation at section boundaries, huge section lengths and counts, overlong varints, wrong and
duplicated sections, out-of-range table indices) are either read (then verified and printed
without an exception) or rejected with a :class:`BytecodeError` that names a byte offset --
never another exception, never an "internal" error, never a hang.

``TILEIR_FUZZ_EXAMPLES=N`` sets the number of mutants of the fixed-seed loop (default 300).
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Optional

import pytest

import tileir
from tileir.bytecode import BytecodeError, read_bytecode, write_bytecode
from tileir.bytecode.fuzz import mutate, seed_corpus
from tileir.cli.translate import run_translate
from tileir.ir.verify import verify_op_tree
from tileir.text.printer import print_op

EXAMPLES = int(os.environ.get("TILEIR_FUZZ_EXAMPLES", "300"))
REPO = Path(__file__).resolve().parents[2]

#: a global and a function using it: the global's type index is patched by the tests
GLOBAL_KERNEL = r'''cuda_tile.module @kernels {
  global @g <f32: [1.0, 2.0]> : tile<2xf32>
  entry @k() {
    %p = get_global @g : tile<ptr<f32>>
    return
  }
}'''

SEC_GLOBAL = 6


def _varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        b = data[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, pos


def sections(data: bytes) -> list[tuple[int, int, int, int, int]]:
    """The section headers of a file (as far as they can be walked; mutants may be broken):
    (header offset, section id, offset of the length varint, payload offset, payload length)."""
    out = []
    pos = 12
    try:
        while pos < len(data):
            header = pos
            byte = data[pos]
            pos += 1
            if byte & 0x7F == 0:
                break
            length_at = pos
            length, pos = _read_varint(data, pos)
            if byte & 0x80:
                alignment, pos = _read_varint(data, pos)
                pos += -pos % max(alignment, 1)
            if pos + length > len(data):
                break
            out.append((header, byte & 0x7F, length_at, pos, length))
            pos += length
    except IndexError:
        pass
    return out


def _corpus() -> list[bytes]:
    files = list(seed_corpus())
    for path in sorted((REPO / "examples").glob("*.mlir")):
        module = tileir.parse(path.read_text(), filename=str(path))
        files.append(write_bytecode(module, "13.3"))
    files.append(write_bytecode(tileir.parse(GLOBAL_KERNEL), "13.3"))
    return files


CORPUS = _corpus()
_HUGE = [2 ** 32 - 1, 2 ** 32, 2 ** 63, 2 ** 64 - 1, 2 ** 31, 10 ** 9, 65536]


def structured_mutant(data: bytes, rng: random.Random) -> bytes:
    """One structure-aware edit of a valid file (or a plain byte-level one)."""
    secs = sections(data)
    kind = rng.randrange(8)
    if kind == 0 or not secs:
        return data[:12] + mutate(data[12:], rng)
    header, _sid, length_at, start, length = rng.choice(secs)
    end = start + length
    if kind == 1:                                   # truncate at/around a section boundary
        cut = rng.choice([header, length_at, start, end, start + length // 2])
        return data[:max(0, cut + rng.randint(-1, 1))]
    if kind == 2:                                   # absurd section length
        _, after = _read_varint(data, length_at)
        value = rng.choice(_HUGE + [0, 1, length + 1, max(0, length - 1)])
        return data[:length_at] + _varint(value) + data[after:]
    if kind == 3:                                   # wrong section id
        b = bytearray(data)
        b[header] = (b[header] & 0x80) | rng.randrange(16)
        return bytes(b)
    if kind == 4:                                   # duplicated section
        return data[:end] + data[header:end] + data[end:]
    if not length:
        return mutate(data, rng)
    i = rng.randrange(start, end)
    if kind == 5:                                   # huge or overlong varint in a payload
        j = i
        while j < len(data) - 1 and data[j] & 0x80:
            j += 1
        rep = _varint(rng.choice(_HUGE)) if rng.random() < 0.7 else \
            b"\xff" * rng.randint(9, 12) + b"\x01"
        return data[:i] + rep + data[j + 1:]
    b = bytearray(data)
    if kind == 6:                                   # index pushed out of its table
        b[i] = rng.choice([0x7F, 0x7E, 0x40, 0x3F, (b[i] + 1) & 0x7F, 0])
    else:                                           # random bytes in a payload
        for k in range(i, min(end, i + rng.randint(1, 8))):
            b[k] = rng.randrange(256)
    return bytes(b)


def check_contract(data: bytes) -> Optional[str]:
    """Read ``data``; a rejection must name an offset; a module read must verify (or not) and
    print in every form without an exception.  Returns the outcome."""
    try:
        module = read_bytecode(data)
    except BytecodeError as exc:
        assert "internal:" not in exc.message, exc.message
        assert exc.offset is not None, f"no offset in {exc.message!r}"
        return "rejected"
    diags = verify_op_tree(module)
    for d in diags:
        str(d)
    print_op(module, generic=True)
    print_op(module)
    print_op(module, debuginfo=True)
    return "read"


# -- regressions -------------------------------------------------------------------------------


def _patch_global_type(data: bytes, index: int) -> bytes:
    """``data`` with its first global's type index replaced by ``index`` (< 128: one byte, as
    the original, so that the section length stays right)."""
    assert index < 128
    for _h, sid, _l, start, _n in sections(data):
        if sid == SEC_GLOBAL:
            _count, pos = _read_varint(data, start)
            _name, pos = _read_varint(data, pos)
            _type, after = _read_varint(data, pos)
            return data[:pos] + _varint(index) + data[after:]
    raise AssertionError("no global section")


def test_global_type_index_out_of_range_names_an_offset():
    """A global whose type index is past the type table was reported without any offset."""
    data = _patch_global_type(write_bytecode(tileir.parse(GLOBAL_KERNEL), "13.3"), 126)
    with pytest.raises(BytecodeError) as info:
        read_bytecode(data)
    assert info.value.offset is not None
    assert "global value type index 126 out of bounds" in info.value.message
    assert info.value.message.startswith("error at offset ")


def test_global_type_index_cli_reports_offset(tmp_path, capsys):
    path = tmp_path / "bad.tilebc"
    path.write_bytes(_patch_global_type(write_bytecode(tileir.parse(GLOBAL_KERNEL), "13.3"),
                                        100))
    assert run_translate(["--tilebc-to-mlir", str(path)]) == 1
    err = capsys.readouterr().err
    assert "error at offset" in err and "global value type index" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("content", [b"", b"\x7fTileIR\x00", b"\x7fTileIR\x00\x0d\x03\x00\x00",
                                     b"\x7fTileIR\x00\x0d\x03\x00\x00" + b"\xff" * 11 + b"\x01",
                                     b"\x7fTileIR\x00\x0d\x03\x00\x00\x01" + _varint(2 ** 64 - 1)])
def test_cli_rejects_degenerate_files(tmp_path, capsys, content):
    path = tmp_path / "k.tilebc"
    path.write_bytes(content)
    assert run_translate(["--tilebc-to-mlir", str(path)]) == 1
    err = capsys.readouterr().err
    assert "error at offset" in err and "Traceback" not in err


# -- fuzz loops --------------------------------------------------------------------------------


def test_every_section_boundary_truncation_and_huge_length():
    """Each section cut at its header, length, payload start, middle and end; each section
    length replaced by absurd values: all rejected quickly with an offset."""
    for data in CORPUS[:4] + CORPUS[-1:]:
        for header, _sid, length_at, start, length in sections(data):
            for cut in (header, length_at, start, start + length // 2, start + length - 1):
                assert check_contract(data[:cut]) == "rejected"
            _, after = _read_varint(data, length_at)
            for value in _HUGE:
                started = time.perf_counter()
                assert check_contract(data[:length_at] + _varint(value) + data[after:]) == \
                    "rejected"
                assert time.perf_counter() - started < 1.0


def test_structured_mutants_fixed_seed():
    rng = random.Random(20240611)
    outcomes = {"read": 0, "rejected": 0}
    for _ in range(EXAMPLES):
        data = rng.choice(CORPUS)
        for _ in range(rng.randint(1, 3)):
            data = structured_mutant(data, rng)
        started = time.perf_counter()
        outcomes[check_contract(data)] += 1
        assert time.perf_counter() - started < 5.0, data.hex()
    assert outcomes["rejected"] > 0


@pytest.mark.parametrize("value", [2 ** 64, 2 ** 70, -(2 ** 63) - 1])
def test_writer_refuses_i64_attribute_out_of_range(value):
    """An i64 op attribute beyond 64 bits (tinytc lowered `alloca -> memref<f32x2^32x2^32>` to
    `num_elem = 2^64`) was masked to 64 bits: the file read back as `num_elem = 0`."""
    from tileir.bytecode import BytecodeWriteError
    from tileir.dialects.cuda_tile.types import I64
    from tileir.ir.attributes import IntegerAttr
    module = tileir.parse('''cuda_tile.module @kernels {
  entry @k() {
    %0 = alloca num_elem = 4, alignment = 128 : tile<ptr<f32>>
    return
  }
}''')
    alloca = next(op for op in module.walk() if op.name == "cuda_tile.alloca")
    alloca.attributes["num_elem"] = IntegerAttr(value, I64)
    with pytest.raises(BytecodeWriteError, match="does not fit in 64 bits|num_elem' failed to "
                                                 "satisfy constraint"):
        write_bytecode(module, "13.3")
    # and the verifier refuses it (it printed as text the parser rejects)
    with pytest.raises(tileir.DiagnosticError, match="num_elem"):
        tileir.verify(module)
    alloca.attributes["num_elem"] = IntegerAttr(2 ** 64 - 1, I64)    # the unsigned spelling
    write_bytecode(module, "13.3")


@pytest.mark.parametrize("value", [2 ** 31, 2 ** 40, -(2 ** 31) - 1])
def test_writer_refuses_array_i32_element_out_of_range(value):
    """An array<i32> element beyond 32 bits escaped the writer as a raw ``struct.error``."""
    from tileir.bytecode import BytecodeWriteError
    from tileir.bytecode.fuzz import SEED_TEXTS
    from tileir.ir.attributes import DenseArrayAttr
    module = tileir.parse(SEED_TEXTS[1])
    permute = next(op for op in module.walk() if op.name == "cuda_tile.permute")
    permute.attributes["permutation"] = DenseArrayAttr("i32", (value,))
    with pytest.raises(BytecodeWriteError, match="does not fit in i32"):
        write_bytecode(module, "13.3")
