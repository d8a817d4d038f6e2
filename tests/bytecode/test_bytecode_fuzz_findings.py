"""Round-trip fuzzer findings (issue 14 runs with NVIDIA's corpus) in bytecode reading."""

from __future__ import annotations

import pytest

import tileir
from tileir.bytecode import BytecodeError, read_bytecode, write_bytecode

_ASSUME = ("cuda_tile.module @m {\n  entry @k(%a: tile<4x8x16xi32>) {\n"
           "    %x = assume div_by<16, every 4 along 1>, %a : tile<4x8x16xi32>\n    return\n"
           "  }\n}\n")


@pytest.mark.parametrize("flags", [1, 2])
def test_div_by_with_every_or_along_alone_is_refused(flags):
    """The format's flags allow 'every' without 'along' (or the reverse); the text form has no
    spelling for it, so a module read from it printed without it (and verified then).  The
    reader refuses it with the verifier's words."""
    data = write_bytecode(tileir.parse(_ASSUME), "13.1")
    # tag 8 (DivBy), divisor 16, flags 3, every 4 and along 1 (zigzag varints 8 and 2)
    good = bytes([8, 16, 3, 8, 2])
    assert data.count(good) == 1
    bad = data.replace(good, bytes([8, 16, flags, 8, 2]))
    with pytest.raises(BytecodeError, match="'every'/'along' must be used in combination"):
        read_bytecode(bad)
    assert "every 4 along 1" in tileir.print(read_bytecode(data))
