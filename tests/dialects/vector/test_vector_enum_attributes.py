"""``#vector.kind`` and ``#vector.punctuation`` are parsed as mlir-opt 22 parses them, in
attribute dictionaries and in the custom forms that take them (``<add>`` or the full attribute).
Fuzzer finding: ``{kind = #vector.kind<m?axnumf>}`` was kept as opaque text, and the generic form
that carried it did not read back.  The expected texts are mlir-opt 22's."""

from __future__ import annotations

import pytest

from tileir.cli.opt import process_buffer
from tileir.text import print_op

KIND_MEMBERS = "add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, maximumf, minimumf"
KIND_FAIL = ("failed to parse Vector_CombiningKindAttr parameter 'value' which is to be a "
             "`::mlir::vector::CombiningKind`")


def diagnostics(text: str) -> list[str]:
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    return [f"{d.loc.line}:{d.loc.col}: {d.message}" for d in result.diagnostics]


@pytest.mark.parametrize("attr, expected", [
    ("#vector.kind<m?axnumf>", [f"1:30: expected ::mlir::vector::CombiningKind to be one of: "
                                f"{KIND_MEMBERS}", f"1:31: {KIND_FAIL}"]),
    ("#vector.kind<>", ["1:30: expected valid keyword or string", f"1:30: {KIND_FAIL}"]),
    ("#vector.kind", ["1:29: expected '<'"]),
    ("#vector.kind<add, 1>", ["1:33: expected '>'"]),
])
def test_bad_enum_attributes_in_a_dictionary(attr, expected):
    assert diagnostics(f'"test.x"() {{a = {attr}}} : () -> ()\n') == expected


def test_string_and_spaced_spellings_print_as_keywords():
    text = ('"test.x"() {a = #vector.punctuation<"comma">, b = #vector.kind<"add">, '
            'c = #vector.kind< mul >} : () -> ()\n')
    result = process_buffer(text, "<stdin>", allow_unregistered=True)
    assert not result.diagnostics
    assert ('"test.x"() {a = #vector.punctuation<comma>, b = #vector.kind<add>, '
            'c = #vector.kind<mul>} : () -> ()') in print_op(result.module)


REDUCTION = ("func.func @f(%v: vector<4xf32>) -> f32 {{\n  %r = vector.reduction {kind}, %v : "
             "vector<4xf32> into f32\n  return %r : f32\n}}\n")


@pytest.mark.parametrize("kind, expected", [
    ("<bad>", [f"2:26: custom op 'vector.reduction' expected ::mlir::vector::CombiningKind to be "
               f"one of: {KIND_MEMBERS}", f"2:29: custom op 'vector.reduction' {KIND_FAIL}"]),
    ("#vector.kind<bad>", [f"2:38: expected ::mlir::vector::CombiningKind to be one of: "
                           f"{KIND_MEMBERS}", f"2:41: {KIND_FAIL}"]),
    ("#vector.punctuation<comma>",
     ["2:25: custom op 'vector.reduction' invalid kind of attribute specified"]),
    ("<add", ["2:29: expected '>'"]),
    ("5", ["2:24: expected '<'"]),
])
def test_reduction_kind_forms(kind, expected):
    assert diagnostics(REDUCTION.format(kind=kind)) == expected


def test_full_attribute_forms_in_custom_syntax_print_short():
    text = ("func.func @f(%v: vector<4xf32>) -> f32 {\n"
            "  %r = vector.reduction #vector.kind<\"maxnumf\">, %v : vector<4xf32> into f32\n"
            "  vector.print punctuation #vector.punctuation<comma>\n  return %r : f32\n}\n")
    result = process_buffer(text, "<stdin>")
    assert not result.diagnostics
    printed = print_op(result.module)
    assert "vector.reduction <maxnumf>, %arg0" in printed
    assert "vector.print punctuation <comma>" in printed


def test_bad_punctuation():
    text = "func.func @f() {\n  vector.print punctuation #vector.punctuation<bad>\n  return\n}\n"
    assert diagnostics(text) == [
        "2:48: expected ::mlir::vector::PrintPunctuation to be one of: no_punctuation, newline, "
        "comma, open, close",
        "2:51: failed to parse Vector_PrintPunctuation parameter 'value' which is to be a "
        "`::mlir::vector::PrintPunctuation`"]
