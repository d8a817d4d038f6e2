"""``gpu.broadcast_lane`` is newer than MLIR 22 (no mlir-opt to compare with): its spelling is
the conformance corpus's; these tests pin the round trip of its custom and generic forms."""

from __future__ import annotations

from tileir.cli.opt import process_buffer
from tileir.text import print_op

TEXT = """func.func @broadcast_lane(%arg0: f32, %arg1: i32) -> (f32, f32, f32) {
  %0 = gpu.broadcast_lane %arg0, first_lane : f32
  %1 = gpu.broadcast_lane %arg0, any_lane : f32
  %2 = gpu.broadcast_lane %arg0, lane %arg1 : f32
  return %0, %1, %2 : f32, f32, f32
}"""


def _print(text: str, generic: bool = False) -> str:
    result = process_buffer(text, "<input>")
    assert not result.failed, [d.message for d in result.diagnostics]
    return print_op(result.module, generic=generic)


def test_custom_form_round_trips() -> None:
    printed = _print(TEXT)
    assert printed == "module {\n" + "\n".join("  " + line for line in TEXT.splitlines()) + \
        "\n}\n"


def test_generic_form_reads_back() -> None:
    generic = _print(TEXT, generic=True)
    assert '"gpu.broadcast_lane"(%arg0, %arg1) <{broadcast_type = "lane"}>' in generic
    assert _print(generic) == _print(TEXT)


def test_lane_kind_needs_its_operand() -> None:
    bad = TEXT.replace("lane %arg1 : f32", "lane : f32")
    result = process_buffer(bad, "<input>")
    assert result.failed


def test_unknown_kind_is_rejected() -> None:
    result = process_buffer(TEXT.replace("any_lane", "some_lane"), "<input>")
    assert result.failed
    assert "expected one of: first_lane, any_lane, lane" in result.diagnostics[0].message
