"""tinytc v0.3.1's lit corpus and doc examples: parse, check, print round trip, and tinytc's
diagnostics (message and location) for the files it rejects."""

from __future__ import annotations

import re

import pytest

from tileir import tinytc

from tinytc_corpus import DOCS_BUGS, DOCS_OK, FAILING, PASSING, tinytc_dir


def _roundtrip(path) -> None:
    prog = tinytc.load(path)
    text = tinytc.print(prog)
    again = tinytc.print(tinytc.parse(text, filename="printed.ir"))
    assert again == text
    assert len(prog.functions) == text.count("func @")


@pytest.mark.parametrize("name", PASSING)
def test_passing_file_round_trips(name):
    _roundtrip(tinytc_dir() / "test" / "codegen" / f"{name}.ir")


@pytest.mark.parametrize("rel", DOCS_OK)
def test_doc_example_round_trips(rel):
    _roundtrip(tinytc_dir() / rel)


def _expected_check_lines(path) -> list[str]:
    return [m.group(1) for m in re.finditer(r";\s*CHECK(?:-NEXT)?:\s?(.*)", path.read_text())]


@pytest.mark.parametrize("name", sorted(FAILING))
def test_failing_file_gives_tinytcs_diagnostic(name):
    path = tinytc_dir() / "test" / "codegen" / f"{name}.ir"
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.parse(path.read_text(), filename="<stdin>")
    where, message = FAILING[name]
    err = info.value
    assert err.message == message
    assert err.location == f"<stdin>:{where}"
    text = str(err)
    # the FileCheck lines of the lit file appear in our diagnostic, in order
    pos = 0
    for line in _expected_check_lines(path):
        found = text.find(line.strip(), pos)
        assert found >= 0, f"{line!r} not in\n{text}"
        pos = found


@pytest.mark.parametrize("rel", sorted(DOCS_BUGS))
def test_doc_bug_is_reported(rel):
    path = tinytc_dir() / rel
    with pytest.raises(tinytc.TinytcError) as info:
        tinytc.load(path)
    where, message = DOCS_BUGS[rel]
    assert info.value.message == message
    assert info.value.location.endswith(":" + where)


def test_float_literals_round_trip():
    src = ("func @k(%a: f64) {\n  %b = arith.add %a, 1e999 : f64\n"
           "  %c = arith.mul %b, -0x1.8p3 : f64\n  %d = arith.mul %c, 1e-300 : f64\n"
           "  %e = arith.mul %d, .5 : f64\n  %f = arith.mul %e, 2. : f64\n}\n")
    text = tinytc.print(tinytc.parse(src))
    assert "-12.0" in text and "1e-300" in text.replace("1.0e-300", "1e-300")
    assert tinytc.print(tinytc.parse(text)) == text
