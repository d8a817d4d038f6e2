"""Unit tests of the bytecode reader and writer (``tileir.bytecode``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tileir
from tileir.dialects.cuda_tile.attributes import DenseElementsAttr
from tileir.bytecode import (BytecodeError, BytecodeWriteError, is_bytecode, read_bytecode,
                             write_bytecode)
from tileir.bytecode._dense import dense_to_raw, raw_to_dense
from tileir.bytecode._prims import Cursor, put_svarint, put_varint, unzigzag, zigzag
from tileir.ir.dtypes import NUMPY_DTYPES
from tileir.ir.locations import UNKNOWN_LOC
from tileir.text.printer import print_op
from tileir.dialects.cuda_tile.types import ELEMENT_TYPES, TileType

VERSIONS = ["13.1", "13.2", "13.3", "13.4"]
REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO.parent / "shared" / "conformance" / "cuda-tile" / "Bytecode"


def module(text: str):
    """Parse ``text`` and return its cuda_tile.module."""
    return tileir.parse(text).regions[0].blocks[0].ops[0]


def roundtrip(text: str, version: str = "13.3", debuginfo: bool = False):
    m = module(text)
    back = read_bytecode(write_bytecode(m, version))
    return tileir.print(m, debuginfo=debuginfo), tileir.print(back, debuginfo=debuginfo)


def entry(body: str, args: str = "") -> str:
    return f"cuda_tile.module @kernels {{\n  entry @k({args}) {{\n{body}\n    return\n  }}\n}}\n"


# ---------------------------------------------------------------------------------------------
# Primitives
# ---------------------------------------------------------------------------------------------

@given(st.integers(min_value=0, max_value=(1 << 64) - 1))
def test_varint_roundtrip(value):
    out = bytearray()
    put_varint(out, value)
    assert len(out) <= 10
    c = Cursor(bytes(out))
    assert c.varint() == value and c.remaining() == 0


@given(st.integers(min_value=-(1 << 63), max_value=(1 << 63) - 1))
def test_svarint_roundtrip(value):
    out = bytearray()
    put_svarint(out, value)
    assert Cursor(bytes(out)).svarint() == value
    assert unzigzag(zigzag(value)) == value & ((1 << 64) - 1)


def test_zigzag_matches_cuda_tile():
    # (v << 1) ^ (v >> 63) on 64 bits
    assert zigzag(0) == 0 and zigzag(-1) == 1 and zigzag(1) == 2 and zigzag(-2) == 3
    assert zigzag(0x80000000) == 0x100000000          # -0.0f bit pattern, zero-extended
    assert zigzag(-(1 << 63)) == (1 << 64) - 1


def test_cursor_errors_name_offsets():
    c = Cursor(b"\x80\x80", base=100)
    with pytest.raises(BytecodeError) as e:
        c.varint("length")
    assert e.value.offset == 102 and "unexpected end of data" in e.value.reason
    c = Cursor(b"\xff" * 11)
    with pytest.raises(BytecodeError, match="longer than 10 bytes"):
        c.varint()
    c = Cursor(b"\x05\x01\x02")
    with pytest.raises(BytecodeError, match="exceeds the remaining data"):
        c.le_array(4, "shape")


# ---------------------------------------------------------------------------------------------
# Byte-exactness against cuda-tile's own writer (its checked-in 13.1 fixtures)
# ---------------------------------------------------------------------------------------------

def _fixture(name: str) -> bytes:
    path = FIXTURES / "versioning" / "Inputs" / "13.1" / name
    if not path.is_file():
        pytest.skip("cuda-tile conformance corpus not found")
    return path.read_bytes()


def test_writer_reproduces_cuda_tile_negi_fixture():
    m = module("""cuda_tile.module @test {
  entry @basic() {
    %input = cuda_tile.constant <i32: [1, 2]> : !cuda_tile.tile<2xi32>
    %result = cuda_tile.negi %input : !cuda_tile.tile<2xi32>
    %result2 = cuda_tile.negi %input overflow <none> : !cuda_tile.tile<2xi32>
  }
}""")
    assert write_bytecode(m, "13.1") == _fixture("negi-op-13.1.tileirbc")


def test_writer_reproduces_cuda_tile_print_fixture():
    """13.1 has no print_tko result: the unused token result is dropped, not numbered."""
    ref = _fixture("print-op-13.1.tileirbc")
    text = (FIXTURES / "versioning" / "print_tko_backward_compat.mlir").read_text()
    src = "\n".join(line[len("// COM: "):] for line in text.splitlines()
                    if line.startswith(("// COM:   ", "// COM: cuda_tile", "// COM: }")))
    src = src.replace('print "Iteration result"  // <-- This was 0 results in 13.1',
                      'print_tko "Iteration result" -> token')
    assert write_bytecode(module(src), "13.1") == ref


def test_reader_decodes_fixtures():
    m = read_bytecode(_fixture("negi-op-13.1.tileirbc"))
    text = tileir.print(m)
    assert "cuda_tile.module @kernels" in text
    assert text.count("negi %cst_i32 : tile<2xi32>") == 2
    m = read_bytecode(_fixture("print-op-13.1.tileirbc"))
    text = tileir.print(m)
    assert 'print_tko "Iteration result" -> token' in text
    assert "mmaf %tile_3, %tile_3, %arg3" in text
    with pytest.raises(BytecodeError, match=r"type 'Float4E2M1FN' requires bytecode version "
                                            r"13.3\+, file version is 13.1"):
        read_bytecode(_fixture("f4e2m1fn-in-13.1.tileirbc"))


# ---------------------------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------------------------

ROUNDTRIP_CASES = {
    "arith": entry("""    %s = addi %a, %b overflow<no_wrap> : tile<4xi32>
    %d = divi %a, %b unsigned rounding<positive_inf> : tile<4xi32>
    %c = cmpi greater_than %a, %b, unsigned : tile<4xi32> -> tile<4xi1>
    %x = select %c, %a, %b : tile<4xi1>, tile<4xi32>
    %f = itof %x signed rounding<zero> : tile<4xi32> -> tile<4xf32>
    %g = fma %f, %f, %f rounding<negative_inf> flush_to_zero : tile<4xf32>
    %m = maxf %g, %f flush_to_zero propagate_nan : tile<4xf32>
    %n = negf %m : tile<4xf32>
    %e = exp2 %n flush_to_zero : tile<4xf32>""", "%a: tile<4xi32>, %b: tile<4xi32>"),
    "memory": entry("""    %t = make_token : token
    %v, %t1 = load_ptr_tko relaxed device %p, %m, %pad token=%t : tile<4xptr<f32>>, tile<4xi1>, tile<4xf32> -> tile<4xf32>, token
    %t2 = store_ptr_tko release sys %p, %v, %m token=%t1 : tile<4xptr<f32>>, tile<4xf32>, tile<4xi1> -> token
    %old, %t3 = atomic_rmw_tko acq_rel device %p, addf, %v token=%t2 : tile<4xptr<f32>>, tile<4xf32> -> tile<4xf32>, token
    %j = join_tokens %t1, %t2, %t3 : token""",
                   "%p: tile<4xptr<f32>>, %m: tile<4xi1>, %pad: tile<4xf32>"),
    "views": entry("""    %tv = make_tensor_view %p, shape = [%n, 64], strides = [64, 1] : tile<i32> -> tensor_view<?x64xf16, strides=[64,1]>
    %pv = make_partition_view %tv : partition_view<tile=(16x32), padding_value = neg_inf, tensor_view<?x64xf16, strides=[64,1]>, dim_map=[1, 0]>
    %s:2 = get_index_space_shape %pv : partition_view<tile=(16x32), padding_value = neg_inf, tensor_view<?x64xf16, strides=[64,1]>, dim_map=[1, 0]> -> tile<i32>
    %x, %t = load_view_tko acquire tl_blk %pv[%n, %n] optimization_hints = <sm_100 = {allow_tma = false, latency = 2}> : partition_view<tile=(16x32), padding_value = neg_inf, tensor_view<?x64xf16, strides=[64,1]>, dim_map=[1, 0]>, tile<i32> -> tile<16x32xf16>, token
    %y = permute %x [1, 0] : tile<16x32xf16> -> tile<32x16xf16>""",
                  "%p: tile<ptr<f16>>, %n: tile<i32>"),
    "assume": entry("""    %a = assume div_by<8, every 4 along 0>, %x : tile<16xi32>
    %b = assume bounded<-5, 7>, %a : tile<16xi32>
    %c = assume bounded<?, 100>, %b : tile<16xi32>
    %d = assume same_elements<[1, 2, 4]>, %y : tile<8x2x4xi32>""",
                    "%x: tile<16xi32>, %y: tile<8x2x4xi32>"),
    "hints": """cuda_tile.module @kernels {
  entry @k() optimization_hints=<sm_120 = {num_cta_in_cga = 2, occupancy = 2}, sm_100 = {num_cta_in_cga = 4}> {
    return
  }
  entry @e() optimization_hints=<> {
    return
  }
}""",
    "globals": """cuda_tile.module @kernels {
  global @g1 <f64: [1.0, 2.0, 3.0, 4.0]> : tile<4xf64>
  global @g2 alignment = 256 <i32: 42> : tile<1xi32>
  entry @k() {
    %p = get_global @g1 : tile<ptr<f64>>
    return
  }
}""",
}


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("case", sorted(ROUNDTRIP_CASES))
def test_roundtrip_text(case, version):
    before, after = roundtrip(ROUNDTRIP_CASES[case], version)
    assert after == before


def test_roundtrip_is_byte_stable():
    for text in ROUNDTRIP_CASES.values():
        m = module(text)
        for v in VERSIONS:
            data = write_bytecode(m, v)
            assert write_bytecode(read_bytecode(data), v) == data


def test_module_name_and_order_as_nvidia():
    """The module name is not stored: the reader names it @kernels; globals come first."""
    m = module("""cuda_tile.module @mine {
  entry @a() { return }
  global @g <i32: 1> : tile<1xi32>
}""")
    text = tileir.print(read_bytecode(write_bytecode(m)))
    assert text.startswith("cuda_tile.module @kernels {")
    assert text.index("@g") < text.index("@a")


def test_producer_section_from_13_3():
    m = module('cuda_tile.module @kernels attributes {producer = "tool v1"} {\n}')
    assert 'producer = "tool v1"' in tileir.print(read_bytecode(write_bytecode(m, "13.3")))
    assert "producer" not in tileir.print(read_bytecode(write_bytecode(m, "13.2")))


def test_debug_info_roundtrip():
    text = '''cuda_tile.module @kernels {
  entry @k() {
    %c = constant <i32: 42> : tile<i32> loc(#loc2)
    %d = addi %c, %c : tile<i32> loc(#loc4)
    return loc(#loc3)
  } loc(#loc1)
}
#file = #cuda_tile.di_file<"k.py" in "/src">
#cu = #cuda_tile.di_compile_unit<file = #file>
#sp = #cuda_tile.di_subprogram<file = #file, line = 3, name = "k", linkageName = "k_mangled", compileUnit = #cu, scopeLine = 4>
#sp2 = #cuda_tile.di_subprogram<file = #file, line = 9, name = "helper", linkageName = "helper", compileUnit = #cu>
#blk = #cuda_tile.di_lexical_block<scope = #sp, file = #file, line = 5, column = 2>
#loc1 = #cuda_tile.di_loc<loc("k.py":3:0) in #sp>
#loc2 = #cuda_tile.di_loc<loc("k.py":5:8) in #blk>
#loc3 = #cuda_tile.di_loc<loc("k.py":7:1) in #sp>
#loc5 = #cuda_tile.di_loc<loc("k.py":10:4) in #sp2>
#loc4 = loc(callsite(#loc5 at #loc2))
'''
    m = module(text)
    m.loc = UNKNOWN_LOC  # the module's location is not stored (no module op in bytecode)
    for v in VERSIONS:
        back = read_bytecode(write_bytecode(m, v))
        assert tileir.print(back, debuginfo=True) == tileir.print(m, debuginfo=True)


def test_plain_locations_are_dropped_like_cuda_tile():
    m = module(entry("    %c = constant <i32: 1> : tile<i32>"))
    back = read_bytecode(write_bytecode(m))
    assert "#loc = loc(unknown)" in tileir.print(back, debuginfo=True)


def test_13_4_operations_and_attributes():
    text = entry("""    %t0 = make_token : token
    %t1 = gdc_wait_tko -> token
    %t2 = gdc_wait_tko token = %t0 -> token
    %t3 = gdc_launch_dependents_tko token = %t2 -> token
    %t4 = memory_fence_alias_tko %t3
    %i = iota : tile<16xi32>
    %s = iota : tile<4xi32>
    %c = constant <i32: 1> : tile<i32>
    %r = insert %s, %i[%c] : tile<4xi32>, tile<16xi32>
    %f = itof %r signed : tile<16xi32> -> tile<16xf32>
    %p = fpowi %f, %r : tile<16xf32>, tile<16xi32>
    %q = ftoi %p signed saturating : tile<16xf32> -> tile<16xi32>
    %tv = make_tensor_view %ptr, shape = [64], strides = [1] : tensor_view<64xf32, strides=[1]>
    %pv = make_partition_view %tv : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>
    %x, %t5 = load_view_tko weak %pv[%c] inbounds = [true] : partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> tile<16xf32>, token
    %t6 = store_view_tko weak %x, %pv[%c] : tile<16xf32>, partition_view<tile=(16), tensor_view<64xf32, strides=[1]>>, tile<i32> -> token""",
                 "%ptr: tile<ptr<f32>>")
    before, after = roundtrip(text, "13.4")
    assert after == before
    assert "inbounds = [true]" in after and "saturating" in after
    with pytest.raises(BytecodeWriteError, match="operation 'cuda_tile.gdc_wait_tko' is not "
                                                 "available in bytecode version 13.3"):
        write_bytecode(module(text), "13.3")


# ---------------------------------------------------------------------------------------------
# Dense constants and float scalars, bit-exact
# ---------------------------------------------------------------------------------------------

_ELEMENTS = ["i1", "i4", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "tf32", "f64",
             "f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f4E2M1FN"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_ELEMENTS), st.sampled_from([(), (1,), (2,), (8,), (2, 4), (4, 2, 2)]),
       st.data())
def test_dense_constants_bit_exact(name, shape, data):
    el = ELEMENTS = ELEMENT_TYPES[name]
    del ELEMENTS
    n = int(np.prod(shape)) if shape else 1
    if name == "f4E2M1FN" and (not shape or all(d % 2 for d in shape)):
        shape, n = (2,), 2
    splat = data.draw(st.booleans())
    dt = NUMPY_DTYPES[name]
    width = {"i1": 1, "i4": 1}.get(name, dt.itemsize)
    raw_elems = data.draw(st.lists(st.binary(min_size=width, max_size=width), min_size=n,
                                   max_size=n))
    if splat:
        raw_elems = [raw_elems[0]] * n
    if name == "i1":
        arr = np.array([b[0] & 1 for b in raw_elems], dtype=bool)
    elif name in ("i4", "f4E2M1FN"):
        arr = np.frombuffer(bytes(b[0] & 0x0F for b in raw_elems), dtype=np.uint8).view(dt)
    elif name == "tf32":
        bits = [int.from_bytes(b, "little") & 0xFFFFE000 for b in raw_elems]
        arr = np.array(bits, dtype=np.uint32).view(np.float32)
    else:
        arr = np.frombuffer(b"".join(raw_elems), dtype=dt)
    typ = TileType(shape, el)
    attr = DenseElementsAttr(typ, arr.reshape(shape).copy())
    raw = dense_to_raw(attr)
    back = raw_to_dense(typ, raw)
    assert back is not None
    a1 = np.ascontiguousarray(attr.array).reshape(-1)
    a2 = np.ascontiguousarray(back.array).reshape(-1)
    if name == "i1":
        assert (a1 == a2).all()
    else:
        assert a1.view(np.uint8).tobytes() == a2.view(np.uint8).tobytes()
    if attr.is_splat and n > 1:
        assert len(raw) == (1 if name == "i1" else (3 if name == "tf32" else width))


def test_dense_layout_matches_mlir():
    t = TileType((2,), ELEMENT_TYPES["i32"])
    assert dense_to_raw(DenseElementsAttr(t, np.array([1, 2], np.int32))) == \
        b"\x01\x00\x00\x00\x02\x00\x00\x00"
    b4 = TileType((4,), ELEMENT_TYPES["i1"])
    assert dense_to_raw(DenseElementsAttr(b4, np.array([1, 0, 1, 0], bool))) == b"\x05"
    assert dense_to_raw(DenseElementsAttr(b4, np.ones(4, bool))) == b"\xff"
    tf = TileType((1,), ELEMENT_TYPES["tf32"])
    assert dense_to_raw(DenseElementsAttr(tf, np.array([1.0], np.float32))) == \
        (0x3F800000 >> 13).to_bytes(3, "little")
    assert raw_to_dense(t, b"\x01\x02\x03") is None


@pytest.mark.parametrize("ftype,value", [("f16", "-2.500000e+00"), ("bf16", "3.007810e-01"),
                                         ("f32", "0x7FC00000"), ("f64", "-0.000000e+00"),
                                         ("tf32", "1.000000e+00"), ("f8E4M3FN", "4.480000e+02"),
                                         ("f8E5M2", "-5.734400e+04")])
def test_float_identities_roundtrip(ftype, value):
    text = entry(f"""    %r = reduce %x dim=0 identities=[{value} : {ftype}] : tile<4x{ftype}> -> tile<{ftype}>
    (%a: tile<{ftype}>, %b: tile<{ftype}>) {{
      yield %a : tile<{ftype}>
    }}""", f"%x: tile<4x{ftype}>")
    before, after = roundtrip(text)
    assert after == before


# ---------------------------------------------------------------------------------------------
# Version gating (writer and reader), cuda-tile's messages
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,version,message", [
    (entry("    %r = negi %x overflow<no_signed_wrap> : tile<2xi32>", "%x: tile<2xi32>"), "13.1",
     "attribute 'overflow' requires bytecode version 13.2+, but targeting 13.1"),
    (entry("", "%x: tile<f8E8M0FNU>"), "13.1",
     "type 'Float8E8M0FNU' requires bytecode version 13.2+, targeting 13.1"),
    (entry("", "%x: tile<2xf4E2M1FN>"), "13.2",
     "type 'Float4E2M1FN' requires bytecode version 13.3+, targeting 13.2"),
    (entry("    %r = atan2 %x, %x : tile<2xf32>", "%x: tile<2xf32>"), "13.1",
     "operation 'cuda_tile.atan2' is not available in bytecode version 13.1"),
    (entry("    %r = mmaf %a, %a, %c fast_acc : tile<16x16xf16>, tile<16x16xf16>, tile<16x16xf32>",
           "%a: tile<16x16xf16>, %c: tile<16x16xf32>"), "13.2",
     "optional attribute 'fast_acc' is provided but requires bytecode version 13.3, "
     "targeting 13.2"),
    (entry("    %t = make_token : token\n    %p = print_tko \"x\" token=%t -> token"), "13.1",
     "optional operand 'token' is provided but requires bytecode version 13.2, targeting 13.1"),
    (entry("    %p = print_tko \"x\" -> token\n    %j = join_tokens %p, %p : token"), "13.1",
     "result 'result_token' requires bytecode version 13.2 but is being used and targeting 13.1"),
    ("cuda_tile.module @kernels {\n  global constant @g <f32: 1.0> : tile<1xf32>\n}", "13.1",
     "constant global `g` cannot be encoded in bytecode version 13.1 (the `constant` attribute "
     "requires bytecode 13.3+)"),
    ("cuda_tile.module @kernels {\n  global private @g <f32: 1.0> : tile<1xf32>\n}", "13.2",
     "global `g` uses non-public symbol visibility, which cannot be encoded in bytecode version "
     "13.2 (requires bytecode 13.3+)"),
    (entry("", "%x: tensor<2xi16>"), "13.3", "unsupported type in bytecode writer"),
])
def test_writer_version_errors(text, version, message):
    m = tileir.parse(text, allow_unregistered=True).regions[0].blocks[0].ops[0]
    with pytest.raises(BytecodeWriteError) as e:
        write_bytecode(m, version)
    assert message in str(e.value)


def test_writer_rejects_unknown_version():
    with pytest.raises(BytecodeWriteError, match=r"Invalid argument '12.0': the supported "
                                                 r"versions are \[13.1 - 13.4\]"):
        write_bytecode(module(entry("")), "12.0")


def test_reader_rejects_newer_features_in_older_file():
    data = bytearray(write_bytecode(module(entry("    %r = atan2 %x, %x : tile<2xf32>",
                                                 "%x: tile<2xf32>")), "13.2"))
    data[9] = 1  # claim 13.1
    with pytest.raises(BytecodeError, match="unsupported opcode 110 for bytecode version 13.1"):
        read_bytecode(bytes(data))


def test_print_tko_without_token_in_13_1():
    m = module(entry('    %p = print_tko "hello %d", %x : tile<i32> -> token', "%x: tile<i32>"))
    back = read_bytecode(write_bytecode(m, "13.1"))
    assert 'print_tko "hello %d", %arg0 : tile<i32> -> token' in tileir.print(back)


def test_self_contained_checks():
    m = tileir.parse(entry('    "test.op"() : () -> ()'),
                     allow_unregistered=True).regions[0].blocks[0].ops[0]
    with pytest.raises(BytecodeWriteError) as e:
        write_bytecode(m)
    assert [d.severity for d in e.value.diagnostics] == ["remark", "error"]
    assert "only ops from the 'cuda_tile' dialect are allowed" in str(e.value)


# ---------------------------------------------------------------------------------------------
# Malformed input: BytecodeError with offset and reason
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def valid() -> bytes:
    return write_bytecode(module(ROUNDTRIP_CASES["views"]), "13.3")


def _sections(data: bytes) -> dict:
    """Section id -> (header offset, payload offset, payload length)."""
    c = Cursor(data, pos=12)
    out = {}
    while True:
        at = c.pos
        b = c.byte()
        if b == 0:
            return out
        length = c.varint()
        if b & 0x80:
            align = c.varint()
            c.skip_padding(align)
        out[b & 0x7F] = (at, c.pos, length)
        c.pos += length


def test_malformed_header(valid):
    with pytest.raises(BytecodeError, match="invalid magic number at position 0, got 0 "
                                            "expected 127"):
        read_bytecode(b"\x00" + valid[1:])
    with pytest.raises(BytecodeError, match="invalid magic number"):
        read_bytecode(b"cuda_tile.module @kernels {}")
    with pytest.raises(BytecodeError, match="failed to parse bytecode header"):
        read_bytecode(valid[:10])
    bad = bytearray(valid)
    bad[8] = 18
    with pytest.raises(BytecodeError, match=r"unsupported Tile version 18.3.0, this reader "
                                            r"supports versions \[13.1 - 13.4\]") as e:
        read_bytecode(bytes(bad))
    assert e.value.offset == 12


def test_malformed_sections(valid):
    secs = _sections(valid)
    at, payload, length = secs[2]  # function section
    bad = bytearray(valid)
    bad[at] = 0x7F
    with pytest.raises(BytecodeError, match="unknown section ID: 127") as e:
        read_bytecode(bytes(bad))
    assert e.value.offset == at + 1
    with pytest.raises(BytecodeError, match="end section is not the last section"):
        read_bytecode(valid + b"\x00")
    with pytest.raises(BytecodeError, match="unexpected end of data while reading section "
                                            "header"):
        read_bytecode(valid[:-1])
    bad = bytearray(valid)
    bad[at] = 0x02  # drop the alignment flag of the function section
    with pytest.raises(BytecodeError):
        read_bytecode(bytes(bad))
    # Remove the string section entirely: it is mandatory.
    s_at, s_payload, s_len = secs[1]
    with pytest.raises(BytecodeError, match="string section is mandatory"):
        read_bytecode(valid[:s_at] + valid[s_payload + s_len:])


def test_malformed_body_and_tables(valid):
    secs = _sections(valid)
    _, payload, length = secs[2]
    body = valid[payload:payload + length]
    # Corrupt the first opcode of the body (after count, name, sig, flags, loc, body length).
    c = Cursor(body)
    c.varint(), c.varint(), c.varint(), c.byte(), c.varint(), c.varint()
    first = payload + c.pos
    for value, pattern in [(0x19, "unknown or unimplemented opcode: 25"),
                           (0x7F, "unsupported opcode 127 for bytecode version 13.3")]:
        bad = bytearray(valid)
        bad[first] = value
        with pytest.raises(BytecodeError, match=pattern) as e:
            read_bytecode(bytes(bad))
        assert e.value.offset == first
    # A type index beyond the type table (make_tensor_view: result count, then its type).
    bad = bytearray(valid)
    bad[first + 2] = 0x7E
    with pytest.raises(BytecodeError, match="out of bounds"):
        read_bytecode(bytes(bad))


def test_never_allocates_for_huge_counts():
    # A string section claiming 2**40 strings in a 20-byte file is rejected up front.
    huge = bytearray(b"\x7fTileIR\x00\x0d\x03\x00\x00")
    payload = bytearray()
    put_varint(payload, 1 << 40)
    huge += bytes((0x81, len(payload) + 1 + 4, 4)) + b"\xcb" * ((-(len(huge) + 3)) % 4)
    huge += payload + b"\x00" * 5 + b"\x00"
    with pytest.raises(BytecodeError):
        read_bytecode(bytes(huge))


def test_splat_budget_keeps_memory_bounded():
    m = module(entry("    %c = constant <f32: 1.0> : tile<4096x4096xf32>"))
    data = write_bytecode(m)
    assert len(data) < 400
    back = read_bytecode(data)
    const = back.regions[0].blocks[0].ops[0].regions[0].blocks[0].ops[0]
    assert const.attributes["value"].array.shape == (4096, 4096)


def test_is_bytecode_and_load(tmp_path, valid):
    assert is_bytecode(valid) and not is_bytecode(b"cuda_tile.module")
    path = tmp_path / "k.tilebc"
    path.write_bytes(valid)
    assert tileir.print(tileir.load(path)) == tileir.print(read_bytecode(valid))
    assert tileir.print(tileir.read_bytecode(valid)) == tileir.print(read_bytecode(valid))


def test_disasm_style_printing_of_read_module():
    m = read_bytecode(write_bytecode(module(ROUNDTRIP_CASES["globals"])))
    text = print_op(m, disasm=True)
    assert text.startswith("global  @g1 <f64: [1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>")


NEAREST_AWAY_KERNEL = """cuda_tile.module @kernels {
  entry @k(%a: tile<f32>) {
    %b = ftof %a rounding<nearest_away> : tile<f32> -> tile<f16>
    return
  }
}
"""


def test_enum_member_newer_than_the_target_is_refused():
    import pytest

    import tileir
    from tileir.bytecode import BytecodeError
    from tileir.ir.diagnostics import DiagnosticError
    module = tileir.parse(NEAREST_AWAY_KERNEL)
    message = r"'nearest_away' \(RoundingMode\) requires bytecode version 13.4\+, but targeting 13.3"
    with pytest.raises(DiagnosticError, match=message):
        tileir.verify(module, target_version="13.3")
    with pytest.raises(DiagnosticError, match=message):
        tileir.write_bytecode(module, "13.3")
    data = tileir.write_bytecode(module, "13.4")
    assert "rounding<nearest_away>" in tileir.print(tileir.read_bytecode(data))
    # the same instruction in a file that claims 13.3: value 7 did not exist then
    older = bytearray(data)
    older[8:10] = b"\x0d\x03"
    with pytest.raises(BytecodeError, match="invalid integer value for enum type: 7"):
        tileir.read_bytecode(bytes(older))
