"""The round-trip invariant (tileir.tools.roundtrip) on the six breaks found by issue 14's
mutation fuzzer (S1-S6), each fixed at its root, plus a bounded run of the round-trip fuzzer.

Invariant: whatever we accept prints as custom and generic text that parses back to the same IR
and writes as bytecode (each version that can carry it) that reads back to the same IR, with the
verifier's verdict unchanged; a form that cannot carry the module refuses it with an error."""

from __future__ import annotations

import os

import pytest

import tileir
from tileir.dialects.cuda_tile.attributes import IntegerAttr, signless_value
from tileir.bytecode import BytecodeError, BytecodeWriteError, read_bytecode, write_bytecode
from tileir.text.parser import parse_attribute
from tileir.tools.roundtrip import FORMS, check_module, ir_key, verdict

VERSIONS = ("13.1", "13.2", "13.3", "13.4")


def _module(body: str, header: str = "entry @k()") -> str:
    return f"cuda_tile.module @kernels {{\n  {header} {{\n{body}\n    return\n  }}\n}}\n"


def _all_forms(module) -> dict:
    outcome = check_module(module)
    assert set(outcome) == {f.name for f in FORMS}
    return outcome


def _refused_by_every_version(module, message: str) -> None:
    """Every bytecode version refuses ``module`` with ``message``; text still round-trips it."""
    for v in VERSIONS:
        with pytest.raises(BytecodeWriteError, match=message):
            write_bytecode(module, v)
    _all_forms(module)


# a make_tensor_view whose dynamic-shape operand is missing: accepted by the generic parser
# and by the bytecode reader (which does not verify), not by the custom syntax
S1_TEXT = '''"cuda_tile.module"() <{sym_name = "kernels"}> ({
  "cuda_tile.entry"() <{function_type = (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> (), sym_name = "k"}> ({
  ^bb0(%p: !cuda_tile.tile<!cuda_tile.ptr<f32>>):
    %0 = "cuda_tile.make_tensor_view"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (!cuda_tile.tile<!cuda_tile.ptr<f32>>) -> !cuda_tile.tensor_view<?xf32, strides=[1]>
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()
'''


def test_s1_unverified_module_prints_in_generic_form():
    module = tileir.parse(S1_TEXT)
    assert verdict(module) == (False,)
    printed = tileir.print(module)
    assert '"cuda_tile.make_tensor_view"(%arg0)' in printed
    assert tileir.print(tileir.parse(printed), generic=True) == tileir.print(module, generic=True)
    _all_forms(module)
    # the same module read from bytecode (not verified by default) prints too
    back = read_bytecode(write_bytecode(module, "13.3"))
    assert "make_tensor_view" in tileir.print(back)


def test_s1_translate_no_verify_prints_what_parses_back(tmp_path, capsys):
    from tileir.cli import main
    module = tileir.parse(S1_TEXT)
    path = tmp_path / "bad.tilebc"
    path.write_bytes(write_bytecode(module, "13.3"))
    assert main(["translate", "--cudatilebc-to-mlir", "--no-verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert ir_key(tileir.parse(out), locations=False) == \
        ir_key(read_bytecode(path.read_bytes()), locations=False)
    assert main(["translate", "--cudatilebc-to-mlir", str(path)]) == 1


def test_s2_hint_keys_that_are_not_identifiers_are_quoted():
    module = tileir.parse(_module("", 'entry @k() optimization_hints=<"sm 100" = '
                                      '{"num cta" = 2, latency = 3}>'))
    printed = tileir.print(module)
    assert 'optimization_hints=<"sm 100" = {latency = 3, "num cta" = 2}>' in printed
    for v in VERSIONS:
        back = read_bytecode(write_bytecode(module, v))
        assert ir_key(tileir.parse(tileir.print(back)), locations=False) == \
            ir_key(back, locations=False)
    _all_forms(module)


def test_s3_writer_refuses_non_entry_functions_before_writing():
    module = tileir.parse(_module("", "testing$func @k()"))
    for v in VERSIONS:
        with pytest.raises(BytecodeWriteError, match=r"testing\$func' op @k cannot be written "
                                                     "as bytecode"):
            write_bytecode(module, v)
    assert all(_all_forms(module)[f"bytecode {v}"] == "refused" for v in VERSIONS)


def test_s4_integer_attributes_wrap_like_signless_integers():
    module = tileir.parse(_module("    %a = alloca num_elem = 4, alignment = 9223372036854775808 "
                                  ": tile<ptr<f32>>"))
    alloca = next(op for op in module.walk() if op.name == "cuda_tile.alloca")
    # 2**63 as an i64 is -2**63, as MLIR's APInt reads it: invalid before and after a trip
    assert alloca.attributes["alignment"] == IntegerAttr(-2 ** 63, alloca.attributes[
        "alignment"].type)
    assert verdict(module) == (False,)
    _all_forms(module)
    for v in ("13.3", "13.4"):  # (alloca is new in 13.3)
        assert verdict(read_bytecode(write_bytecode(module, v))) == (False,)
    with pytest.raises(tileir.DiagnosticError, match="integer constant out of range"):
        tileir.parse(_module("    %a = alloca num_elem = 4, alignment = 18446744073709551616 "
                             ": tile<ptr<f32>>"))


@pytest.mark.parametrize("value,width,expected", [
    (0, 8, 0), (127, 8, 127), (128, 8, -128), (255, 8, -1), (256, 8, None), (-128, 8, -128),
    (-129, 8, None), (1, 1, 1), (-1, 1, 1), (2, 1, None), (2 ** 63, 64, -2 ** 63)])
def test_signless_value(value, width, expected):
    assert signless_value(value, width) == expected


@pytest.mark.parametrize("hint,printed", [
    ("1.0e400", "0x7FF0000000000000 : f64"),     # not a finite double: printed with its type
    ("3 : i32", "3 : i32"),                      # not the default integer type
    ("2.5 : f32", "2.500000e+00 : f32"),
    ("2", "2"), ("1.5", "1.500000e+00"), ("true", "true"), ('"s"', '"s"')])
def test_s5_hint_values_print_as_text_that_reads_back_the_same(hint, printed):
    module = tileir.parse(_module("", f"entry @k() optimization_hints=<sm_100 = {{x = {hint}}}>"))
    text = tileir.print(module)
    assert f"{{x = {printed}}}" in text
    again = tileir.parse(text)
    assert tileir.print(again) == text
    _all_forms(module)


def test_s6_empty_variadic_type_list_parses():
    text = _module("    %t = testing$bytecode_test_evolution( : ) -> token")
    module = tileir.parse(text)
    assert "testing$bytecode_test_evolution( : ) -> token" in tileir.print(module)
    generic = tileir.parse('''"cuda_tile.module"() <{sym_name = "kernels"}> ({
  "cuda_tile.entry"() <{function_type = () -> (), sym_name = "k"}> ({
    %0 = "cuda_tile.testing$bytecode_test_evolution"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> !cuda_tile.token
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()''')
    assert tileir.print(generic) == tileir.print(module)
    _all_forms(generic)


def test_empty_hints_are_no_hints():
    # NVIDIA prints no `optimization_hints=<>`: every way in treats an empty one as none
    assert "optimization_hints" not in tileir.print(tileir.parse(
        _module("", "entry @k() optimization_hints=<>")))
    generic = tileir.parse('''"cuda_tile.module"() <{sym_name = "kernels"}> ({
  "cuda_tile.entry"() <{function_type = () -> (), optimization_hints = #cuda_tile.optimization_hints<>, sym_name = "k"}> ({
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()''')
    assert "optimization_hints" not in tileir.print(generic, generic=True)
    _all_forms(generic)


@pytest.mark.parametrize("text,message", [
    (_module("", "entry @k(%c: tile<i1>)").replace("    return", "    if %c {\n    } "
                                                   "{foo = 3 : i32}\n    return"),
     "attribute 'foo' cannot be written as bytecode"),
    ('cuda_tile.module @kernels attributes {foo = 1} {\n}\n',
     "attribute 'foo' cannot be written as bytecode"),
])
def test_writer_refuses_attributes_it_cannot_hold(text, message):
    _refused_by_every_version(tileir.parse(text), message)


_SCAN = ('cuda_tile.module @kernels {{\n  entry @k() {{\n'
         '    %a = constant <i32: 1> : tile<8xi32>\n'
         '    %s = "cuda_tile.scan"(%a) <{{dim = 0 : i32, identities = [0 : i32], '
         'reverse = {reverse}}}> ({{\n'
         '    ^bb0(%p: tile<i32>, %q: tile<i32>):\n'
         '      %t = "cuda_tile.maxi"(%p, %q) <{{signedness = #cuda_tile.signedness<signed>}}>'
         ' : (tile<i32>, tile<i32>) -> tile<i32>\n'
         '      "cuda_tile.yield"(%t) : (tile<i32>) -> ()\n'
         '    }}) : (tile<8xi32>) -> tile<8xi32>\n    return\n  }}\n}}\n')


@pytest.mark.parametrize("reverse", ["0x7FF0000000000000 : f64", "1 : i32", '"yes"'])
def test_a_bool_slot_holding_another_attribute_is_refused(reverse):
    """Fuzzer finding: a float in scan's ``reverse`` was written as ``true``.  The generic
    text is refused when its properties are converted (as MLIR 22 does); built through the
    API, the bytecode writer refuses it."""
    with pytest.raises(tileir.DiagnosticError, match="Invalid attribute `reverse` in property "
                       "conversion"):
        tileir.parse(_SCAN.format(reverse=reverse))
    built = tileir.parse(_SCAN.format(reverse="true"))
    scan = next(op for op in built.walk() if op.name == "cuda_tile.scan")
    scan.attributes["reverse"] = parse_attribute(reverse)
    for v in VERSIONS:
        with pytest.raises(BytecodeWriteError, match="attribute 'reverse' failed to satisfy "
                           "constraint: bool attribute: cannot be written as bytecode"):
            write_bytecode(built, v)
    ok = tileir.parse(_SCAN.format(reverse="true"))
    assert "reverse=true" in tileir.print(read_bytecode(write_bytecode(ok, "13.1")))


def test_custom_form_bool_attribute_must_be_a_bool():
    text = _SCAN.format(reverse="true")
    custom = tileir.print(tileir.parse(text)).replace("reverse=true", "reverse=1.0e400")
    with pytest.raises(tileir.DiagnosticError, match="invalid kind of attribute specified"):
        tileir.parse(custom)


def test_bounded_round_trip_fuzz():
    """A bounded run of benchmarks/fuzz_roundtrip.py's fuzzer over every registered input
    format (TILEIR_ROUNDTRIP_FUZZ_INPUTS scales it up)."""
    from tileir.tools.fuzz_roundtrip import fuzz
    n = int(os.environ.get("TILEIR_ROUNDTRIP_FUZZ_INPUTS", "150"))
    report = fuzz(inputs=n, seed=14, shrink_budget_s=5)
    assert {"text", "bytecode"} <= set(report.inputs)
    assert all(report.inputs[f] >= n for f in report.inputs)
    assert sum(report.checked.values()) > 0
    assert not report.failures, [(f.kind, f.detail, f.shrunk) for f in report.failures]


def test_a_lossy_form_is_caught_and_shrunk(monkeypatch):
    """The checker and the shrinker on a deliberately broken form: printing that drops every
    `muli` (an IR change) is reported, and a seed module shrinks to a small reproducer."""
    from tileir.tools import roundtrip
    from tileir.tools.fuzz_roundtrip import INPUTS, shrink
    from tileir.tools.roundtrip import RoundTripForm, Violation

    def lossy_print(m):
        return "\n".join(line for line in tileir.print(m).splitlines() if "muli" not in line)
    lossy = RoundTripForm("lossy", lossy_print, lambda t: tileir.parse(t),
                          keeps_locations=False)
    monkeypatch.setattr(roundtrip, "FORMS", [lossy])
    from tileir.bytecode.fuzz import SEED_TEXTS
    seed = SEED_TEXTS[1]
    with pytest.raises(Violation) as exc:
        check_module(tileir.parse(seed))
    assert exc.value.kind in ("lossy: IR changed", "lossy: output does not read back")
    small = shrink(INPUTS["text"], seed, exc.value.kind, budget_s=60)
    assert "muli" in small and len(small) < 0.7 * len(seed)
    with pytest.raises(Violation):
        check_module(tileir.parse(small))


def test_inherent_attributes_of_a_custom_form_are_checked_when_parsed():
    """Fuzzer finding (a producer that is no string was written, then read back otherwise):
    as MLIR's generated parsers do, the custom form's ``attributes {...}`` refuses an op's own
    attribute of the wrong kind where it is parsed."""
    with pytest.raises(tileir.DiagnosticError, match="1:27: error: custom op 'cuda_tile.module' "
                       "'cuda_tile.module' op attribute 'producer' failed to satisfy constraint: "
                       "string attribute"):
        tileir.parse('cuda_tile.module @kernels attributes {producer = @p} {\n  entry @k() {\n'
                     '    return\n  }\n}')


def test_result_an_old_version_does_not_store_must_be_a_token():
    """Found by the round-trip fuzzer: 13.1 stores no result for print_tko and reads it back as a
    token, so a result of another type (invalid IR, but accepted) is refused, not changed."""
    module = tileir.parse('''"cuda_tile.module"() <{sym_name = "kernels"}> ({
  "cuda_tile.entry"() <{function_type = (!cuda_tile.tile<i32>) -> (), sym_name = "k"}> ({
  ^bb0(%a: !cuda_tile.tile<i32>):
    %0 = "cuda_tile.print_tko"(%a) <{operandSegmentSizes = array<i32: 1, 0>, str = "%d"}> : (!cuda_tile.tile<i32>) -> !cuda_tile.ptr<i32>
    "cuda_tile.return"() : () -> ()
  }) : () -> ()
}) : () -> ()''')
    with pytest.raises(BytecodeWriteError, match="reads back as a token, not !cuda_tile.ptr<i32>"):
        write_bytecode(module, "13.1")
    assert _all_forms(module)["bytecode 13.2"] == "ok"


@pytest.mark.parametrize("text,message", [
    # found by the round-trip fuzzer (issue 14 run): each was written, then not read back the same
    (_module("    %3 = constant <f32: 0x3F800000> : !cuda_tile.tensor_view<f32>"),
     "dense constant of type .* cannot be written as bytecode"),
])
def test_writer_refuses_what_its_reader_would_not_give_back(text, message):
    _refused_by_every_version(tileir.parse(text), message)


def test_debug_location_scope_must_be_a_scope():
    # found by the round-trip fuzzer: a string scope was accepted and then crashed the printer
    with pytest.raises(tileir.DiagnosticError, match="expected a debug info scope"):
        tileir.parse('#f = #cuda_tile.di_file<"a.py" in "/t/">\n'
                     '#l = #cuda_tile.di_loc<loc("a.py":1:2) in "a.py">\n'
                     + _module("").replace("entry @k() {", "entry @k() {\n    return loc(#l)"))


def test_writer_refuses_a_module_op_of_another_shape():
    # found by the round-trip fuzzer: a region-less module with a result was written as an
    # empty (valid) module
    module = tileir.parse('"cuda_tile.module"() : () -> !cuda_tile.token', allow_unregistered=True)
    with pytest.raises(BytecodeWriteError, match="must have one region"):
        write_bytecode(module, "13.3")
    _all_forms(module)


def test_string_in_an_opaque_type_body_does_not_span_lines():
    """Fuzzer finding: an opaque dialect type whose body held a string literal with a raw newline
    parsed, then lost its location after a generic-text round trip.  As MLIR's lexer (mlir-opt 22:
    ``1:33: error: expected '"' in string literal``), a string never spans lines."""
    text = '"use_type"() : () -> !foo.bar<"a\nb">\n'
    with pytest.raises(tileir.DiagnosticError, match=r":1:33: error: expected '\"' in string "
                                                     r"literal"):
        tileir.parse(text, "t.mlir", allow_unregistered=True)
    ok = '"use_type"() : () -> !foo.bar<"a>b\\"c">\n'
    module = tileir.parse(ok, "t.mlir", allow_unregistered=True)
    check_module(module)


def test_a_location_alias_must_name_a_location():
    """Fuzzer finding: ``loc(#a)`` where ``#a`` is a non-location attribute was accepted and
    crashed the printer with debug info.  mlir-opt 22: ``2:15: error: expected location, but
    found '#c.x<>'``."""
    text = '#foo = #c.x<>\nmodule {} loc(#foo)\n'
    with pytest.raises(tileir.DiagnosticError, match=r":2:15: error: expected location, but "
                                                     r"found '#c.x<>'"):
        tileir.parse(text, "t.mlir", allow_unregistered=True)


@pytest.mark.parametrize("text, col", [
    ("cuda_tile.module @m { entry @e(%a: !cuda_tile.tile<1x2xf32>) {\n"
     "%0 = permute %a [0, 4294967296] : tile<1x2xf32> -> tile<1x2xf32>\nreturn } }", 21),
    ("func.func @f(%v: vector<2x3xf32>) -> vector<3x2xf32> {\n"
     "%0 = vector.transpose %v, [1, 9223372036854775808] : vector<2x3xf32> to vector<3x2xf32>\n"
     "return %0 : vector<3x2xf32> }", 31),
])
def test_a_dense_array_element_must_fit_its_width(text, col):
    """Fuzzer finding: ``permute %a [0, 1, 9223372036854775808]`` parsed into an i32 array and
    printed a generic form that does not read back.  mlir-opt 22 (``vector.transpose``, an i64
    array): ``custom op 'vector.transpose' integer value too large`` at the element."""
    with pytest.raises(tileir.DiagnosticError, match=rf":2:{col}: error: custom op '[a-z_.]+' "
                                                     r"integer value too large"):
        tileir.parse(text, "t.mlir")


def test_entry_argument_attributes_are_printed():
    """Fuzzer finding (1M-input text run): ``entry @e(tile<f8E8M0FNU> {cuda_tile.return})`` parsed
    with an argument attribute that the custom printer dropped.  Function signatures print each
    argument's non-empty attribute dictionary after its type, as MLIR's function printer does."""
    text = ("cuda_tile.module @m { entry @e(%a: tile<f32> {cuda_tile.x, cuda_tile.y = 1 : i32}, "
            "%b: tile<i32>) { return } }")
    module = tileir.parse(text)
    printed = tileir.print(module)
    assert "%arg0: tile<f32> {cuda_tile.x, cuda_tile.y = 1 : i32}, %arg1: tile<i32>)" in printed
    check_module(module)
    _all_forms(tileir.parse("cuda_tile.module @m { entry @e(tile<f32> {cuda_tile.return}) { } }"))


def test_an_empty_module_from_bytecode_has_no_block():
    """Fuzzer finding (bytecode run): a module with no globals and no entries read back with
    one empty block, which the text `{}` does not denote (it parses as a region without
    blocks), so the text round trip changed the IR."""
    module = tileir.parse("cuda_tile.module @k {\n}\n")
    data = write_bytecode(module, "13.1")
    back = read_bytecode(data)
    assert not back.regions[0].blocks
    _all_forms(back)


def test_reduce_dim_out_of_range_is_reported_by_the_fast_path_too():
    """Fuzzer finding (text run): the fast parser of reduce/scan headers took ``dim=2^32``
    into an i32 attribute, and the generic form printed from it did not read back."""
    text = ("cuda_tile.module @m { entry @e(%arg0: tile<8xf32>) {\n"
            "    %0 = reduce %arg0 dim=4294967296 identities=[0.000000e+0 : f32] : tile<8xf32> -> "
            "tile<f32>\n    (%a: tile<f32>, %b: tile<f32>) {\n      %add = addf %a, %b : tile<f32>\n"
            "      yield %add : tile<f32>\n    }\n    return } }\n")
    with pytest.raises(tileir.DiagnosticError, match=r"t.mlir:2:27: error: integer constant out "
                                                     r"of range for attribute"):
        tileir.parse(text, "t.mlir")


def test_empty_op_hints_read_from_bytecode_are_no_hints():
    """Fuzzer finding: the reader kept an op's empty ``optimization_hints`` (dropped by text)."""
    from tileir.dialects.cuda_tile.attributes import OptimizationHintsAttr
    module = tileir.parse(_module(
        "    %r, %t = load_ptr_tko weak %p optimization_hints = <sm_100 = {latency = 3}> : "
        "tile<4xptr<f32>> -> tile<4xf32>, token", "entry @k(%p: tile<ptr<f32>>)").replace(
        "%p optimization", "%q optimization").replace(
        "    %r,", "    %q = reshape %p : tile<ptr<f32>> -> tile<1xptr<f32>>\n"
              "    %b = broadcast %q : tile<1xptr<f32>> -> tile<4xptr<f32>>\n    %r,").replace(
        "%q optimization", "%b optimization"))
    load = next(op for op in module.walk() if op.name == "cuda_tile.load_ptr_tko")
    load.attributes["optimization_hints"] = OptimizationHintsAttr(())
    for v in VERSIONS:
        back = read_bytecode(write_bytecode(module, v))
        op = next(op for op in back.walk() if op.name == "cuda_tile.load_ptr_tko")
        assert "optimization_hints" not in op.attributes
        _all_forms(back)


def test_writer_refuses_a_block_without_terminator():
    """Fuzzer finding: an empty scan body was written as bytecode its reader rejects."""
    text = _SCAN.format(reverse="true")
    body = text[text.index("    ^bb0"):text.index("    }) : (tile<8xi32>)")]
    module = tileir.parse(text.replace(body, "    ^bb0(%p: tile<i32>, %q: tile<i32>):\n"))
    _refused_by_every_version(module, "'cuda_tile.scan' has no terminator")


@pytest.mark.parametrize("predicate", [
    "div_by<169223372036854775807>", "div_by<8, every 9223372036854775808 along 0>",
    "bounded<-9223372036854775809, ?>", "same_elements<[18446744073709551616]>"])
def test_assume_predicate_integers_are_64_bit(predicate):
    """Fuzzer finding: a divisor above 2**64 was written modulo 2**64."""
    text = _module(f"    %a = assume {predicate}, %p : tile<ptr<f32>>",
                   "entry @k(%p: tile<ptr<f32>>)")
    with pytest.raises(tileir.DiagnosticError, match="integer value too large"):
        tileir.parse(text)


def test_a_negative_divisor_wraps_as_an_unsigned_64_bit_value():
    text = _module("    %a = assume div_by<-1>, %p : tile<ptr<f32>>", "entry @k(%p: tile<ptr<f32>>)")
    assert "div_by<18446744073709551615>" in tileir.print(tileir.parse(text))


@pytest.mark.parametrize("line, ok", [("4294967295", True), ("-1", True), ("4294967296", False)])
def test_debug_info_lines_are_unsigned_32_bit(line, ok):
    """Lines and columns of the debug info attributes are ``unsigned`` (a negative literal
    wraps); text and bytecode agree on the range."""
    text = ('#f = #cuda_tile.di_file<"a.py" in "/t/">\n'
            '#cu = #cuda_tile.di_compile_unit<file = #f>\n'
            f'#sp = #cuda_tile.di_subprogram<file = #f, line = {line}, name = "k", '
            'linkageName = "k", compileUnit = #cu>\n'
            + _module("").replace("return", 'return loc(#cuda_tile.di_loc<loc("a.py":3:4) in '
                                  '#sp>)'))
    if not ok:
        with pytest.raises(tileir.DiagnosticError, match="integer value too large"):
            tileir.parse(text)
        return
    module = tileir.parse(text)
    assert "line = 4294967295" in tileir.print(module, debuginfo=True)
    _all_forms(module)


@pytest.mark.parametrize("body, message", [
    ("%tv = make_tensor_view %p, shape = [99999999999999999999], strides = [1] : "
     "tensor_view<99999999999999999999xf32, strides=[1]>", "invalid dimension"),
    ("%tv = make_tensor_view %p, shape = [8], strides = [99999999999999999999] : "
     "tensor_view<8xf32, strides=[99999999999999999999]>",
     "expected either 64-bit integer or question mark"),
    ("%tv = make_tensor_view %p, shape = [8], strides = [1] : tensor_view<8xf32, strides=[1]>\n"
     "    %pv = make_partition_view %tv : partition_view<tile=(8), tensor_view<8xf32, "
     "strides=[1]>, dim_map=[99999999999999999999]>", "integer value too large"),
])
def test_view_type_integers_are_64_bit(body, message):
    """Fuzzer-style finding: a tensor_view dimension above 2**64 crashed the bytecode writer."""
    with pytest.raises(tileir.DiagnosticError, match=message):
        tileir.parse(_module(f"    {body}", "entry @k(%p: tile<ptr<f32>>)"))


def test_writer_refuses_array_elements_its_reader_rejects():
    """Fuzzer finding: ``identities = [i32]`` (a type) was written; the reader rejects it."""
    text = _SCAN.format(reverse="true").replace("identities = [0 : i32]", "identities = [i32]")
    _refused_by_every_version(tileir.parse(text), "unsupported attribute type .* 'identities'|"
                              "attribute 'identities' .* cannot be written")


_CMPI = ('"builtin.module"() ({{\n  "cuda_tile.module"() <{{sym_name = "kernels"}}> ({{\n'
         '    "cuda_tile.entry"() <{{function_type = (!cuda_tile.tile<i32>) -> (), '
         'sym_name = "k"{extra}}}> ({{\n    ^bb0(%a: !cuda_tile.tile<i32>):\n'
         '      %0 = "cuda_tile.cmpi"(%a, %a) <{{comparison_predicate = {predicate}, '
         'signedness = {signedness}}}> : (!cuda_tile.tile<i32>, !cuda_tile.tile<i32>) -> '
         '!cuda_tile.tile<i1>\n      "cuda_tile.return"() : () -> ()\n'
         '    }}) : () -> ()\n  }}) : () -> ()\n}}) : () -> ()\n')
_LESS = "#cuda_tile.comparison_predicate<less_than>"
_SIGNED = "#cuda_tile.signedness<signed>"


@pytest.mark.parametrize("extra, refused", [(", arg_attrs = []", True),   # the wrong length
                                           (', sym_visibility = "a\\"b"', False)])
def test_generic_attributes_of_another_kind_round_trip_or_are_refused(extra, refused):
    """Found by a probe that swaps inherent attributes for other kinds in the generic form:
    such IR is invalid; it prints and parses back unchanged, and bytecode (which stores only
    the declared kinds) refuses it instead of changing it."""
    module = tileir.parse(_CMPI.format(predicate=_LESS, signedness=_SIGNED, extra=extra))
    outcome = _all_forms(module)
    assert all(o in ("ok", "refused") for o in outcome.values())
    assert ("refused" in outcome.values()) == refused


@pytest.mark.parametrize("predicate, signedness, extra, key", [
    ("1 : i1", _SIGNED, "", "comparison_predicate"),         # an integer for a dialect enum
    ("#cuda_tile.rounding<zero>", _SIGNED, "", "comparison_predicate"),   # another enum
    (_LESS, "1 : i32", "", "signedness"),
])
def test_generic_properties_of_another_class_are_refused(predicate, signedness, extra, key):
    """The same probe's inputs whose values are not of the class the property is stored as:
    refused where the properties are converted, with MLIR 22's message."""
    with pytest.raises(tileir.DiagnosticError, match=f"Invalid attribute `{key}` in property "
                       "conversion"):
        tileir.parse(_CMPI.format(predicate=predicate, signedness=signedness, extra=extra))


def test_an_integer_enum_property_is_read_only_in_its_own_spelling():
    """``memory_ordering_semantics = 0 : i32`` is how that enum prints; ``0 : i64`` is not."""
    base = _module("    %v, %t = load_ptr_tko weak %p : tile<ptr<f32>> -> tile<f32>, token",
                   "entry @k(%p: tile<ptr<f32>>)")
    generic = tileir.print(tileir.parse(base), generic=True)
    assert "memory_ordering_semantics = 0 : i32" in generic
    assert tileir.print(tileir.parse(generic)) == tileir.print(tileir.parse(base))
    with pytest.raises(tileir.DiagnosticError, match="Invalid attribute "
                       "`memory_ordering_semantics` in property conversion: 0 : i64"):
        tileir.parse(generic.replace("memory_ordering_semantics = 0 : i32",
                                     "memory_ordering_semantics = 0 : i64"))


def test_writer_refuses_attributes_of_the_enclosing_builtin_module():
    text = "module attributes {invalid_join} {\n" + _module("") + "}\n"
    _refused_by_every_version(tileir.parse(text), "attributes of the enclosing builtin.module "
                              "\\(invalid_join\\)")


_PTR_I4_BYTECODE = (
    "7f54696c654952000d0300008280010804000202001b02010100000102010000000102010001000102010101"
    "00015c0000010702001632010600020100016d0001010100016d0001025c0000020a02001b440c3d010c1c00"
    "000102033d010c0000003d010c040000015c0000030b0200193d010c05010100013d010c010101003d010c04"
    "0000015c0000cbcbcbcbcbcb856004cb0dcbcbcb000000000100000004000000090000000a0000000d000000"
    "0e0000001100000017000000190000001c0000002200000027000000160d00001002010100000d0300030d05"
    "001003040606000c000d0800100309040100100209040011815f04cb04cbcbcb000000001300000022000000"
    "380000006f7074696f6e616c5f61747472735f74657374756e69745f61747472735f746573746f7074696f6e"
    "616c5f6f70655d616e64735f746573746d697865645f6f7074696f6e616c5f7465737400")


def test_reader_refuses_a_pointer_to_i4_the_parser_rejects():
    """Fuzzer finding (with NVIDIA's corpus): bytecode with a ``tile<ptr<i4>>`` argument was
    read, and its printed text was rejected by the parser ('pointeeType')."""
    with pytest.raises(BytecodeError, match="invalid pointee type i4"):
        read_bytecode(bytes.fromhex(_PTR_I4_BYTECODE))
